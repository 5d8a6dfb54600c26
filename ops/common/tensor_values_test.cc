// ops/common/tensor_values_test.cc
#include "ops/common/tensor_values.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace ops {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// ---------------------------------------------------------- tensor values

TEST(ReadIntTensorTest, Int32AndInt64) {
  auto t32 = MakeHostTensor<int32_t>(ge::DT_INT32, {3}, {1, -2, 3});
  ASSERT_TRUE(t32.ok()) << t32.status();
  auto v = ReadIntTensor(t32->tensor());
  ASSERT_TRUE(v.ok());
  EXPECT_THAT(*v, ElementsAre(1, -2, 3));
  auto t64 = MakeHostTensor<int64_t>(ge::DT_INT64, {2, 1}, {int64_t{1} << 40, -5});
  ASSERT_TRUE(t64.ok());
  v = ReadIntTensor(t64->tensor());
  ASSERT_TRUE(v.ok());
  EXPECT_THAT(*v, ElementsAre(int64_t{1} << 40, -5));
  auto empty = gert::HostTensor::Create(ge::DT_INT64, gert::Shape{0});
  ASSERT_TRUE(empty.ok());
  v = ReadIntTensor(empty->tensor());
  ASSERT_TRUE(v.ok());
  EXPECT_TRUE(v->empty());
}

TEST(ReadIntTensorTest, BadInputs) {
  auto f = MakeHostTensor<float>(ge::DT_FLOAT, {1}, {1.0f});
  ASSERT_TRUE(f.ok());
  auto r = ReadIntTensor(f->tensor());
  EXPECT_EQ(ge::GetErrorCode(r.status()), ge::ErrorCode::kTypeMismatch);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("DT_FLOAT"));
  // Null data, short buffer, unknown shape.
  gert::Tensor null_data(gert::Shape{2}, ge::DT_INT64, nullptr, 0);
  EXPECT_FALSE(ReadIntTensor(null_data).ok());
  int64_t one = 1;
  gert::Tensor short_buf(gert::Shape{2}, ge::DT_INT64, &one, sizeof(one));
  EXPECT_FALSE(ReadIntTensor(short_buf).ok());
  gert::Tensor unknown(gert::Shape{-1}, ge::DT_INT64, &one, sizeof(one));
  EXPECT_FALSE(ReadIntTensor(unknown).ok());
}

TEST(ReadAsDoublesTest, EveryRealType) {
  auto h = MakeHostTensor<fp16_t>(ge::DT_FLOAT16, {2}, {fp16_t{0x3c00}, fp16_t{0xc000}});
  ASSERT_TRUE(h.ok());
  EXPECT_THAT(*ReadAsDoubles(h->tensor()), ElementsAre(1.0, -2.0));
  auto b = MakeHostTensor<bool>(ge::DT_BOOL, {2}, {true, false});
  ASSERT_TRUE(b.ok());
  EXPECT_THAT(*ReadAsDoubles(b->tensor()), ElementsAre(1.0, 0.0));
  auto s = MakeHostTensor<std::string>(ge::DT_STRING, {1}, {std::string("x")});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(ge::GetErrorCode(ReadAsDoubles(s->tensor()).status()), ge::ErrorCode::kNotSupported);
}

// ---------------------------------------------------------- host tensors

TEST(MakeHostTensorTest, ChecksTypeAndCount) {
  auto ok = MakeHostTensor<std::string>(ge::DT_STRING, {2}, {std::string("a"), std::string("bc")});
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->GetData<std::string>()[1], "bc");
  auto bits = MakeHostTensor<uint16_t>(ge::DT_BF16, {1}, {uint16_t{0x3f80}});
  ASSERT_TRUE(bits.ok());
  auto wrong = MakeHostTensor<float>(ge::DT_INT32, {1}, {1.0f});
  EXPECT_EQ(ge::GetErrorCode(wrong.status()), ge::ErrorCode::kTypeMismatch);
  auto count = MakeHostTensor<float>(ge::DT_FLOAT, {2, 2}, {1.0f});
  EXPECT_EQ(ge::GetErrorCode(count.status()), ge::ErrorCode::kParamInvalid);
  EXPECT_THAT(std::string(count.status().message()), HasSubstr("[2,2]"));
}

TEST(MakeHostTensorTest, FromDoubles) {
  std::vector<double> v = {1.5, -2.5, 1e10, std::nan("")};
  auto i8 = MakeHostTensorFromDoubles(ge::DT_INT8, {4}, v);
  ASSERT_TRUE(i8.ok());
  const int8_t* p = i8->GetData<int8_t>();
  EXPECT_EQ(p[0], 1);
  EXPECT_EQ(p[1], -2);
  EXPECT_EQ(p[2], 127);
  EXPECT_EQ(p[3], 0);
  auto h = MakeHostTensorFromDoubles(ge::DT_FLOAT16, {4}, v);
  ASSERT_TRUE(h.ok());
  EXPECT_EQ(h->GetData<uint16_t>()[0], 0x3e00);
  EXPECT_EQ(h->GetData<uint16_t>()[2], 0x7c00);
  auto b = MakeHostTensorFromDoubles(ge::DT_BOOL, {4}, v);
  ASSERT_TRUE(b.ok());
  EXPECT_TRUE(b->GetData<bool>()[0]);
  EXPECT_FALSE(MakeHostTensorFromDoubles(ge::DT_STRING, {4}, v).ok());
  EXPECT_FALSE(MakeHostTensorFromDoubles(ge::DT_FLOAT, {3}, v).ok());
}

}  // namespace
}  // namespace ops
