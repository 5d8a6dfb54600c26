// runtime/executor/io_check_test.cc
#include "runtime/executor/io_check.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace ge {
namespace {

proto::ModelIoDef Def(std::vector<int64_t> dims, uint64_t size, int32_t dt = DT_FLOAT) {
  proto::ModelIoDef d;
  d.set_name("x");
  d.set_data_type(dt);
  for (int64_t v : dims) d.add_dims(v);
  d.set_size(size);
  return d;
}

TEST(IoCheckTest, IoDefs) {
  EXPECT_TRUE(CheckIoDef(Def({2, 3}, 24), "input", 0, false).ok());
  EXPECT_TRUE(CheckIoDef(Def({}, 4), "input", 0, false).ok());  // scalar
  EXPECT_TRUE(CheckIoDef(Def({-1, 3}, 0), "input", 0, true).ok());
  Status st = CheckIoDef(Def({-1, 3}, 0), "input", 2, false);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(st.message().find("model input 2 'x': dim 0 is -1"), std::string::npos) << st;
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def({-2}, 0), "input", 0, true)), ErrorCode::kParamInvalid);
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def({2, 3}, 23), "output", 0, false)),
            ErrorCode::kParamInvalid);
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def({2}, 8, 5), "input", 0, false)),
            ErrorCode::kParamInvalid);  // the hole in the enum
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def({2}, 8, DT_UNDEFINED), "input", 0, false)),
            ErrorCode::kParamInvalid);
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def({INT64_MAX, INT64_MAX}, 8), "input", 0, false)),
            ErrorCode::kOverflow);
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def(std::vector<int64_t>(26, 1), 8), "input", 0, false)),
            ErrorCode::kOutOfRange);
}

TEST(IoCheckTest, UserTensors) {
  float buf[6] = {};
  const proto::ModelIoDef d = Def({2, 3}, 24);
  EXPECT_TRUE(CheckUserTensor(d, gert::Tensor(gert::Shape{2, 3}, DT_FLOAT, buf, 24), "input", 0).ok());
  Status st = CheckUserTensor(d, gert::Tensor(gert::Shape{2, 3}, DT_INT32, buf, 24), "input", 1);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(st.message().find("input 1 'x': data type is DT_INT32, the model expects DT_FLOAT"),
            std::string::npos) << st;
  st = CheckUserTensor(d, gert::Tensor(gert::Shape{2, 3, 1}, DT_FLOAT, buf, 24), "input", 0);
  EXPECT_NE(st.message().find("shape is [2,3,1], the model expects [2,3]"), std::string::npos);
  st = CheckUserTensor(d, gert::Tensor(gert::Shape{2, 3}, DT_FLOAT, buf, 16), "output", 0);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(st.message().find("output 0 'x': buffer of 16 bytes"), std::string::npos) << st;
  st = CheckUserTensor(d, gert::Tensor(gert::Shape{2, 3}, DT_FLOAT, nullptr, 24), "input", 0);
  EXPECT_NE(st.message().find("(null)"), std::string::npos) << st;
  // Unknown dims accept any size in that dim, but not another rank.
  const proto::ModelIoDef dyn = Def({-1, 3}, 0);
  EXPECT_TRUE(CheckUserTensor(dyn, gert::Tensor(gert::Shape{1, 3}, DT_FLOAT, buf, 12), "input", 0).ok());
  EXPECT_FALSE(CheckUserTensor(dyn, gert::Tensor(gert::Shape{3}, DT_FLOAT, buf, 12), "input", 0).ok());
  EXPECT_FALSE(CheckUserTensor(dyn, gert::Tensor(gert::Shape{2, 4}, DT_FLOAT, buf, 32), "input", 0).ok());
  // Empty tensors may have null data.
  EXPECT_TRUE(CheckUserTensor(dyn, gert::Tensor(gert::Shape{0, 3}, DT_FLOAT, nullptr, 0), "input", 0).ok());
  EXPECT_EQ(GetErrorCode(CheckUserTensorCount(2, 1, "input")), ErrorCode::kParamInvalid);
  EXPECT_TRUE(CheckUserTensorCount(2, 2, "input").ok());
}

}  // namespace
}  // namespace ge
