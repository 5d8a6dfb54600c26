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
  // Unknown rank: exactly [-2], and only in a dynamic model.
  EXPECT_TRUE(CheckIoDef(Def({-2}, 0), "input", 0, true).ok());
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def({-2}, 0), "input", 0, false)), ErrorCode::kParamInvalid);
  st = CheckIoDef(Def({-2, 3}, 0), "output", 1, true);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(st.message().find("model output 1 'x': dim 0 is -2 in [-2,3]"), std::string::npos)
      << st;
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def({3, -2}, 0), "input", 0, true)), ErrorCode::kParamInvalid);
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def({-3}, 0), "input", 0, true)), ErrorCode::kParamInvalid);
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def({2, 3}, 23), "output", 0, false)),
            ErrorCode::kParamInvalid);
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def({2}, 8, 5), "input", 0, false)),
            ErrorCode::kParamInvalid);  // the hole in the enum
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def({2}, 8, DT_UNDEFINED), "input", 0, false)),
            ErrorCode::kParamInvalid);
  // Dynamic models: a data type known only at run time, and sequence /
  // optional values.
  EXPECT_TRUE(CheckIoDef(Def({-2}, 0, DT_UNDEFINED), "output", 0, true).ok());
  EXPECT_TRUE(CheckIoDef(Def({-1}, 0, DT_VARIANT), "input", 0, true).ok());
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def({-2}, 0, 5), "input", 0, true)), ErrorCode::kParamInvalid);
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def({-2}, 0, 1000), "input", 0, true)),
            ErrorCode::kParamInvalid);
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def({INT64_MAX, INT64_MAX}, 8), "input", 0, false)),
            ErrorCode::kOverflow);
  EXPECT_EQ(GetErrorCode(CheckIoDef(Def(std::vector<int64_t>(26, 1), 8), "input", 0, false)),
            ErrorCode::kOutOfRange);
}

TEST(IoCheckTest, UserTensors) {
  float buf[6] = {};
  const proto::ModelIoDef d = Def({2, 3}, 24);
  EXPECT_TRUE(
      CheckUserTensor(d, gert::Tensor(gert::Shape{2, 3}, DT_FLOAT, buf, 24), "input", 0).ok());
  Status st = CheckUserTensor(d, gert::Tensor(gert::Shape{2, 3}, DT_INT32, buf, 24), "input", 1);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(st.message().find("input 1 'x': data type is DT_INT32, the model expects DT_FLOAT"),
            std::string::npos)
      << st;
  st = CheckUserTensor(d, gert::Tensor(gert::Shape{2, 3, 1}, DT_FLOAT, buf, 24), "input", 0);
  EXPECT_NE(st.message().find("shape is [2,3,1], the model expects [2,3]"), std::string::npos);
  st = CheckUserTensor(d, gert::Tensor(gert::Shape{2, 3}, DT_FLOAT, buf, 16), "output", 0);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(st.message().find("output 0 'x': buffer of 16 bytes"), std::string::npos) << st;
  st = CheckUserTensor(d, gert::Tensor(gert::Shape{2, 3}, DT_FLOAT, nullptr, 24), "input", 0);
  EXPECT_NE(st.message().find("(null)"), std::string::npos) << st;
  // Unknown dims accept any size in that dim, but not another rank.
  const proto::ModelIoDef dyn = Def({-1, 3}, 0);
  EXPECT_TRUE(
      CheckUserTensor(dyn, gert::Tensor(gert::Shape{1, 3}, DT_FLOAT, buf, 12), "input", 0).ok());
  EXPECT_FALSE(
      CheckUserTensor(dyn, gert::Tensor(gert::Shape{3}, DT_FLOAT, buf, 12), "input", 0).ok());
  EXPECT_FALSE(
      CheckUserTensor(dyn, gert::Tensor(gert::Shape{2, 4}, DT_FLOAT, buf, 32), "input", 0).ok());
  // Empty tensors may have null data.
  EXPECT_TRUE(
      CheckUserTensor(dyn, gert::Tensor(gert::Shape{0, 3}, DT_FLOAT, nullptr, 0), "input", 0).ok());
  EXPECT_EQ(GetErrorCode(CheckUserTensorCount(2, 1, "input")), ErrorCode::kParamInvalid);
  EXPECT_FALSE(IsUnknownRankIoDef(dyn));
  EXPECT_TRUE(CheckUserTensorCount(2, 2, "input").ok());

  // A description whose size exceeds its shape's bytes (a hostile OM: the
  // loader bounds the tasks' references by the size, not by the shape):
  // the buffer must hold the size, or the kernels write past it (found by
  // //testing/fuzz:onnx_mutation_fuzz --target=om).
  const proto::ModelIoDef wide = Def({1}, 24);
  st = CheckUserTensor(wide, gert::Tensor(gert::Shape{1}, DT_FLOAT, buf, 4), "output", 0);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(st.message().find(
                "buffer of 4 bytes does not hold [1] DT_FLOAT (24 bytes the model addresses)"),
            std::string::npos)
      << st;
  EXPECT_TRUE(
      CheckUserTensor(wide, gert::Tensor(gert::Shape{1}, DT_FLOAT, buf, 24), "output", 0).ok());
}

TEST(IoCheckTest, UnknownRankAcceptsAnyShapeButNotABadBuffer) {
  float buf[6] = {};
  const proto::ModelIoDef d = Def({-2}, 0);
  EXPECT_TRUE(IsUnknownRankIoDef(d));
  EXPECT_TRUE(CheckUserTensor(d, gert::Tensor(gert::Shape{}, DT_FLOAT, buf, 4), "output", 0).ok());
  EXPECT_TRUE(
      CheckUserTensor(d, gert::Tensor(gert::Shape{2, 3}, DT_FLOAT, buf, 24), "output", 0).ok());
  EXPECT_TRUE(
      CheckUserTensor(d, gert::Tensor(gert::Shape{1, 1, 6}, DT_FLOAT, buf, 24), "output", 0).ok());
  Status st = CheckUserTensor(d, gert::Tensor(gert::Shape{2, 3}, DT_FLOAT, buf, 20), "output", 3);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(st.message().find("output 3 'x': buffer of 20 bytes"), std::string::npos) << st;
  // An unknown dim in the user's shape is not a shape.
  EXPECT_FALSE(
      CheckUserTensor(d, gert::Tensor(gert::Shape{-1, 3}, DT_FLOAT, buf, 24), "input", 0).ok());
  // The data type is still checked.
  st = CheckUserTensor(d, gert::Tensor(gert::Shape{6}, DT_INT32, buf, 24), "input", 0);
  EXPECT_NE(st.message().find("data type is DT_INT32, the model expects DT_FLOAT"),
            std::string::npos)
      << st;
}

TEST(IoCheckTest, UndefinedDataTypeAcceptsAnyDefinedType) {
  int32_t buf[6] = {};
  const proto::ModelIoDef d = Def({-2}, 0, DT_UNDEFINED);
  EXPECT_TRUE(
      CheckUserTensor(d, gert::Tensor(gert::Shape{6}, DT_INT32, buf, 24), "output", 0).ok());
  EXPECT_TRUE(
      CheckUserTensor(d, gert::Tensor(gert::Shape{2, 3}, DT_FLOAT, buf, 24), "output", 0).ok());
  Status st = CheckUserTensor(d, gert::Tensor(gert::Shape{6}, DT_UNDEFINED, buf, 24), "output", 2);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(st.message().find("output 2 'x': data type is DT_UNDEFINED, the model expects a "
                              "defined data type"),
            std::string::npos)
      << st;
  // With known dims, the dims are still checked.
  const proto::ModelIoDef known = Def({2, -1}, 0, DT_UNDEFINED);
  EXPECT_TRUE(
      CheckUserTensor(known, gert::Tensor(gert::Shape{2, 3}, DT_INT32, buf, 24), "input", 0).ok());
  EXPECT_FALSE(
      CheckUserTensor(known, gert::Tensor(gert::Shape{3, 2}, DT_INT32, buf, 24), "input", 0).ok());
}

TEST(IoCheckTest, SequenceAndOptionalValues) {
  const proto::ModelIoDef d = Def({-1}, 0, DT_VARIANT);
  std::vector<gert::HostTensor> elems;
  StatusOr<gert::HostTensor> e0 = gert::HostTensor::Create(DT_FLOAT, gert::Shape{2});
  StatusOr<gert::HostTensor> e1 = gert::HostTensor::Create(DT_FLOAT, gert::Shape{3, 1});
  ASSERT_TRUE(e0.ok() && e1.ok());
  elems.push_back(std::move(e0).value());
  elems.push_back(std::move(e1).value());
  StatusOr<gert::HostTensor> seq = gert::HostTensor::CreateSequence(std::move(elems));
  ASSERT_TRUE(seq.ok()) << seq.status();
  EXPECT_TRUE(CheckUserTensor(d, seq->tensor(), "input", 0).ok());
  StatusOr<gert::HostTensor> empty = gert::HostTensor::CreateEmptyOptional();
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_TRUE(CheckUserTensor(d, empty->tensor(), "input", 0).ok());
  // A tensor where a sequence / optional is expected, and the other way round.
  float buf[2] = {};
  Status st = CheckUserTensor(d, gert::Tensor(gert::Shape{2}, DT_FLOAT, buf, 8), "input", 1);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(st.message().find("input 1 'x': data type is DT_FLOAT, the model expects DT_VARIANT "
                              "(a sequence or optional value)"),
            std::string::npos)
      << st;
  st = CheckUserTensor(Def({2}, 8), seq->tensor(), "input", 0);
  EXPECT_NE(st.message().find("data type is DT_VARIANT, the model expects DT_FLOAT"),
            std::string::npos)
      << st;
  // A variant view whose buffer cannot hold its elements.
  gert::Tensor short_view = seq->tensor();
  short_view.SetData(short_view.GetAddr(), sizeof(gert::HostTensor));
  EXPECT_EQ(GetErrorCode(CheckUserTensor(d, short_view, "input", 0)), ErrorCode::kParamInvalid);
}

}  // namespace
}  // namespace ge
