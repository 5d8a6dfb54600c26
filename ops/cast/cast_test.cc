// ops/cast/cast_test.cc: Cast / CastLike registration, infer, numeric and
// string conversions, errors, and the ONNX 1.12 node tests.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/cast/cast_util.h"
#include "ops/common/onnx_case_runner.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/op_util.h"

namespace ops {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class Attrs : public ge::AttrHolder {
 public:
  explicit Attrs(ge::DataType to) {
    EXPECT_TRUE(SetAttr("to", ge::AttrValue::CreateFrom<ge::DataType>(to)).ok());
  }
  Attrs() = default;
};

// The shared test helpers (ops/common/op_test_harness.h).
using op_test::T;
const ge::OpRegistrationData& Reg(const std::string& type) { return op_test::RegRef(type); }

gert::HostTensor S(std::vector<std::string> v) {
  auto t = MakeHostTensor<std::string>(ge::DT_STRING, {static_cast<int64_t>(v.size())},
                                       absl::MakeConstSpan(v));
  EXPECT_TRUE(t.ok()) << t.status();
  return std::move(*t);
}

std::vector<double> Values(const gert::HostTensor& t) {
  auto v = ReadAsDoubles(t.tensor());
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : std::vector<double>{};
}

std::vector<std::string> Strings(const gert::HostTensor& t) {
  const std::string* p = t.GetData<std::string>();
  return std::vector<std::string>(p, p + t.GetShape().GetShapeSize());
}

// Infer (verify, dtype, shape) then the kernel, for Cast (to) or CastLike.
ge::StatusOr<gert::HostTensor> RunOp(const std::string& type,
                                     const std::vector<const gert::HostTensor*>& inputs,
                                     const Attrs* attrs) {
  const ge::OpRegistrationData& reg = Reg(type);
  gert::InferShapeContextBuilder ib;
  ib.Node("cast1", type).Attrs(attrs);
  std::vector<const gert::Tensor*> ins;
  for (const gert::HostTensor* t : inputs) {
    ib.Input(t->GetShape(), t->GetDataType(), &t->tensor());
    ins.push_back(&t->tensor());
  }
  ib.Outputs(1);
  gert::InferShapeContext* ictx = ib.Build();
  RETURN_IF_ERROR(reg.verify(*ictx));
  RETURN_IF_ERROR(reg.infer_data_type(*ictx));
  RETURN_IF_ERROR(reg.infer_shape(*ictx));
  ASSIGN_OR_RETURN(gert::HostTensor out,
                   gert::HostTensor::Create(ib.OutputDataType(0), ib.OutputShape(0)));
  gert::KernelRunContextBuilder kb;
  kb.Node("cast1", type).Attrs(attrs).Inputs(ins).Outputs({out.MutableTensor()});
  RETURN_IF_ERROR(reg.FindKernel(ge::kEngineHostCpu)->fn(*kb.Build()));
  return out;
}

ge::StatusOr<gert::HostTensor> Cast(const gert::HostTensor& x, ge::DataType to) {
  Attrs a(to);
  return RunOp("Cast", {&x}, &a);
}

TEST(CastRegistrationTest, Registered) {
  const ge::OpAttrDef* to = Reg("Cast").FindAttr("to");
  ASSERT_NE(to, nullptr);
  EXPECT_TRUE(to->required);
  EXPECT_EQ(to->type, ge::AttrValue::VT_DATA_TYPE);
  EXPECT_TRUE(Reg("Cast").inputs.at(0).types.Contains(ge::DT_STRING));
  EXPECT_TRUE(Reg("CastLike").inputs.at(1).types.Contains(ge::DT_BF16));
  EXPECT_NE(Reg("CastLike").FindKernel(ge::kEngineHostCpu), nullptr);
}

TEST(CastInferTest, DtypeFromAttributeShapeFromInput) {
  Attrs a(ge::DT_FLOAT16);
  gert::InferShapeContextBuilder ib;
  ib.Node("c", "Cast").Attrs(&a).Input({-1, 3}, ge::DT_INT64).Outputs(1);
  gert::InferShapeContext* ctx = ib.Build();
  ASSERT_TRUE(Reg("Cast").verify(*ctx).ok());
  ASSERT_TRUE(Reg("Cast").infer_data_type(*ctx).ok());
  ASSERT_TRUE(Reg("Cast").infer_shape(*ctx).ok());
  EXPECT_EQ(ib.OutputDataType(0), ge::DT_FLOAT16);
  EXPECT_EQ(ib.OutputShape(0), (gert::Shape{-1, 3}));
}

TEST(CastInferTest, MissingOrBadTarget) {
  Attrs none;
  gert::InferShapeContextBuilder ib;
  ib.Node("c7", "Cast").Attrs(&none).Input({2}, ge::DT_FLOAT).Outputs(1);
  ge::Status st = Reg("Cast").infer_data_type(*ib.Build());
  EXPECT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("c7"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("to"));
  Attrs int4(ge::DT_INT4);
  gert::InferShapeContextBuilder ib2;
  ib2.Node("c8", "Cast").Attrs(&int4).Input({2}, ge::DT_FLOAT).Outputs(1);
  st = Reg("Cast").verify(*ib2.Build());
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported);
  EXPECT_THAT(std::string(st.message()), HasSubstr("DT_INT4"));
  Attrs f(ge::DT_FLOAT);
  gert::InferShapeContextBuilder ib3;
  ib3.Node("c9", "Cast").Attrs(&f).Input({2}, ge::DT_COMPLEX64).Outputs(1);
  EXPECT_FALSE(Reg("Cast").verify(*ib3.Build()).ok());
}

TEST(CastInferTest, CastLikeTakesInput1Type) {
  gert::InferShapeContextBuilder ib;
  ib.Node("cl", "CastLike").Input({4, -1}, ge::DT_FLOAT).Input({}, ge::DT_BF16).Outputs(1);
  gert::InferShapeContext* ctx = ib.Build();
  ASSERT_TRUE(Reg("CastLike").verify(*ctx).ok());
  ASSERT_TRUE(Reg("CastLike").infer_data_type(*ctx).ok());
  ASSERT_TRUE(Reg("CastLike").infer_shape(*ctx).ok());
  EXPECT_EQ(ib.OutputDataType(0), ge::DT_BF16);
  EXPECT_EQ(ib.OutputShape(0), (gert::Shape{4, -1}));
}

TEST(CastKernelTest, FloatToIntegers) {
  auto x = T(ge::DT_FLOAT, {6}, {2.9, -2.9, 300, -300, std::nan(""), HUGE_VAL});
  auto y = Cast(x, ge::DT_INT8);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_THAT(Values(*y), ElementsAre(2, -2, 127, -128, 0, 127));
  y = Cast(x, ge::DT_UINT8);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(2, 0, 255, 0, 0, 255));
  y = Cast(x, ge::DT_BOOL);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(1, 1, 1, 1, 1, 1));
}

TEST(CastKernelTest, IntegerWrapAndBool) {
  auto x = T(ge::DT_INT32, {4}, {300, -1, 0, 65536});
  auto y = Cast(x, ge::DT_UINT8);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(44, 255, 0, 0));
  y = Cast(x, ge::DT_BOOL);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(1, 1, 0, 1));
  auto b = T(ge::DT_BOOL, {2}, {1, 0});
  y = Cast(b, ge::DT_FLOAT16);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(1, 0));
  auto big = T(ge::DT_INT64, {1}, {0});
  big.MutableData<int64_t>()[0] = (int64_t{1} << 62) + 1;
  y = Cast(big, ge::DT_UINT64);
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->GetData<uint64_t>()[0], (uint64_t{1} << 62) + 1);
}

TEST(CastKernelTest, HalfTypes) {
  auto x =
      T(ge::DT_DOUBLE, {4}, {1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40), 65520, 1e-8, -0.0});
  auto y = Cast(x, ge::DT_FLOAT16);
  ASSERT_TRUE(y.ok());
  const uint16_t* h = y->GetData<uint16_t>();
  EXPECT_EQ(h[0], 0x3c01);  // one rounding from double
  EXPECT_EQ(h[1], 0x7c00);
  EXPECT_EQ(h[2], 0x0000);
  EXPECT_EQ(h[3], 0x8000);
  y = Cast(*y, ge::DT_BF16);
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->GetData<uint16_t>()[1], 0x7f80);
  auto bf = T(ge::DT_BF16, {1}, {3.0});
  y = Cast(bf, ge::DT_INT32);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(3));
}

TEST(CastKernelTest, FloatToString) {
  auto x = T(ge::DT_FLOAT, {10},
             {0.1, 3, 1e-5, 1e16, -0.0, std::nan(""), -HUGE_VAL, 123456790, 0.0001, 1.5e-7});
  auto y = Cast(x, ge::DT_STRING);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_THAT(Strings(*y), ElementsAre("0.1", "3.0", "1e-05", "1e+16", "-0.0", "nan", "-inf",
                                       "123456790.0", "1e-04", "1.5e-07"));
  auto d = T(ge::DT_DOUBLE, {3}, {0.1, 1.0 / 3, 0.0001});
  y = Cast(d, ge::DT_STRING);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Strings(*y), ElementsAre("0.1", "0.3333333333333333", "0.0001"));
  auto h = T(ge::DT_FLOAT16, {2}, {0.1, 65504});
  y = Cast(h, ge::DT_STRING);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Strings(*y), ElementsAre("0.1", "65500.0"));
  auto i = T(ge::DT_INT64, {2}, {-42, 7});
  y = Cast(i, ge::DT_STRING);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Strings(*y), ElementsAre("-42", "7"));
  auto b = T(ge::DT_BOOL, {2}, {1, 0});
  y = Cast(b, ge::DT_STRING);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Strings(*y), ElementsAre("True", "False"));
}

TEST(CastKernelTest, FloatStringRoundTrip) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> bits;
  for (int i = 0; i < 2000; ++i) {
    float f = BitsToFloat(bits(rng));
    if (std::isnan(f)) continue;
    const std::string s = FormatFloat(f);
    auto back = ParseFloatString(s);
    ASSERT_TRUE(back.ok()) << s;
    ASSERT_EQ(static_cast<float>(*back), f) << s;
  }
  for (uint32_t h = 0; h < 0x7c00; h += 7) {
    const std::string s = FormatFloat(fp16_t{static_cast<uint16_t>(h)});
    auto back = ParseFloatString(s);
    ASSERT_TRUE(back.ok()) << s;
    ASSERT_EQ(ConvertElement<fp16_t>(*back).bits, h) << s;
  }
}

TEST(CastKernelTest, StringToNumbers) {
  auto x = S({"3.14", " 1e-5 ", "1E8", "NaN", "INF", "+INF", "-inf", "-0", "1000"});
  auto y = Cast(x, ge::DT_FLOAT);
  ASSERT_TRUE(y.ok()) << y.status();
  auto v = Values(*y);
  EXPECT_FLOAT_EQ(v[0], 3.14f);
  EXPECT_FLOAT_EQ(v[1], 1e-5f);
  EXPECT_EQ(v[2], 1e8);
  EXPECT_TRUE(std::isnan(v[3]));
  EXPECT_EQ(v[4], HUGE_VAL);
  EXPECT_EQ(v[5], HUGE_VAL);
  EXPECT_EQ(v[6], -HUGE_VAL);
  EXPECT_TRUE(std::signbit(v[7]));
  EXPECT_EQ(v[8], 1000);
  auto ints = S({"9007199254740993", "-5", "2.718", "1e3"});
  y = Cast(ints, ge::DT_INT64);
  ASSERT_TRUE(y.ok()) << y.status();
  const int64_t* p = y->GetData<int64_t>();
  EXPECT_EQ(p[0], 9007199254740993LL);  // exact, not through double
  EXPECT_EQ(p[1], -5);
  EXPECT_EQ(p[2], 2);
  EXPECT_EQ(p[3], 1000);
  auto bools = S({"True", "false", "0", "2.5", "TRUE"});
  y = Cast(bools, ge::DT_BOOL);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_THAT(Values(*y), ElementsAre(1, 0, 0, 1, 1));
  auto h = S({"0.1", "1e10"});
  y = Cast(h, ge::DT_FLOAT16);
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->GetData<uint16_t>()[0], FloatToFp16(0.1f));
  EXPECT_EQ(y->GetData<uint16_t>()[1], 0x7c00);
}

TEST(CastKernelTest, BadStringsAreErrors) {
  for (const char* bad : {"abc", "", "1.2.3x", "0x10", "1,5"}) {
    auto x = S({"1", bad});
    auto y = Cast(x, ge::DT_FLOAT);
    ASSERT_FALSE(y.ok()) << bad;
    const std::string msg(y.status().message());
    EXPECT_THAT(msg, HasSubstr("cast1"));
    EXPECT_THAT(msg, HasSubstr("element 1"));
    EXPECT_THAT(msg, HasSubstr(std::string("\"") + bad + "\""));
  }
  auto x = S({"12abc"});
  EXPECT_FALSE(Cast(x, ge::DT_INT32).ok());
}

TEST(CastKernelTest, StringToStringAndSameType) {
  auto x = S({"a", "", "ccc"});
  auto y = Cast(x, ge::DT_STRING);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Strings(*y), ElementsAre("a", "", "ccc"));
  auto f = T(ge::DT_FLOAT, {2, 2}, {1, 2, 3, 4});
  y = Cast(f, ge::DT_FLOAT);
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->GetShape(), (gert::Shape{2, 2}));
  EXPECT_THAT(Values(*y), ElementsAre(1, 2, 3, 4));
}

TEST(CastKernelTest, CastLike) {
  auto x = T(ge::DT_FLOAT, {3}, {1.5, -2.5, 1e9});
  auto like = T(ge::DT_INT16, {}, {0});
  auto y = RunOp("CastLike", {&x, &like}, nullptr);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->GetDataType(), ge::DT_INT16);
  EXPECT_THAT(Values(*y), ElementsAre(1, -2, 32767));
  auto s = S({"x"});
  y = RunOp("CastLike", {&x, &s}, nullptr);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Strings(*y), ElementsAre("1.5", "-2.5", "1000000000.0"));
}

TEST(CastKernelTest, KernelChecksOutput) {
  auto x = T(ge::DT_FLOAT, {3}, {1, 2, 3});
  Attrs a(ge::DT_INT32);
  auto wrong = gert::HostTensor::Create(ge::DT_FLOAT, {3});
  ASSERT_TRUE(wrong.ok());
  gert::KernelRunContextBuilder kb;
  kb.Node("ck", "Cast").Attrs(&a).Inputs({&x.tensor()}).Outputs({wrong->MutableTensor()});
  ge::Status st = Reg("Cast").FindKernel(ge::kEngineHostCpu)->fn(*kb.Build());
  EXPECT_THAT(std::string(st.message()), HasSubstr("ck"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("DT_INT32"));
  gert::KernelRunContextBuilder kb2;
  kb2.Node("ck2", "Cast").Attrs(&a).Inputs({nullptr}).Outputs({wrong->MutableTensor()});
  EXPECT_FALSE(Reg("Cast").FindKernel(ge::kEngineHostCpu)->fn(*kb2.Build()).ok());
}

// ---------------------------------------------------------- ONNX node tests

OPS_ONNX_CASE_TESTS(CastOnnxTest, "ops/cast/testdata/onnx_cases.txt");

}  // namespace
}  // namespace ops
