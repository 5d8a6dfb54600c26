// ops/elementwise/elementwise_test.cc: registration, infer shape / dtype,
// kernels on hand-checked cases, error paths, and the ONNX 1.12 node tests.
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/onnx_case_runner.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/op_util.h"

namespace ops {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

class Attrs : public ge::AttrHolder {
 public:
  template <typename T>
  Attrs& Set(const std::string& name, T v) {
    EXPECT_TRUE(SetAttr(name, ge::AttrValue::CreateFrom<T>(std::move(v))).ok());
    return *this;
  }
};

// The shared test helpers (ops/common/op_test_harness.h).
using op_test::T;
const ge::OpRegistrationData& Reg(const std::string& type) { return op_test::RegRef(type); }

std::vector<double> Values(const gert::HostTensor& t) {
  auto v = ReadAsDoubles(t.tensor());
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : std::vector<double>{};
}

// Runs infer (dtype + shape) and the host kernel of `type`.
ge::StatusOr<gert::HostTensor> RunOp(const std::string& type,
                                     const std::vector<const gert::HostTensor*>& inputs,
                                     const Attrs* attrs = nullptr) {
  const ge::OpRegistrationData& reg = Reg(type);
  gert::InferShapeContextBuilder ib;
  ib.Node("n", type).Attrs(attrs);
  std::vector<const gert::Tensor*> ins;
  for (const gert::HostTensor* t : inputs) {
    if (t == nullptr) {
      ib.AbsentInput();
      ins.push_back(nullptr);
    } else {
      ib.Input(t->GetShape(), t->GetDataType(), &t->tensor());
      ins.push_back(&t->tensor());
    }
  }
  ib.Outputs(1);
  gert::InferShapeContext* ictx = ib.Build();
  if (reg.verify != nullptr) RETURN_IF_ERROR(reg.verify(*ictx));
  if (reg.infer_data_type != nullptr) {
    RETURN_IF_ERROR(reg.infer_data_type(*ictx));
  } else {
    ictx->SetOutputDataType(0, ictx->GetInputDataType(0));
  }
  RETURN_IF_ERROR(reg.infer_shape(*ictx));
  ASSIGN_OR_RETURN(gert::HostTensor out,
                   gert::HostTensor::Create(ib.OutputDataType(0), ib.OutputShape(0)));
  gert::KernelRunContextBuilder kb;
  kb.Node("n", type).Attrs(attrs).Inputs(ins).Outputs({out.MutableTensor()});
  const ge::OpKernelDef* k = reg.FindKernel(ge::kEngineHostCpu);
  if (k == nullptr) return ge::NotFound("no host kernel for ", type);
  RETURN_IF_ERROR(k->fn(*kb.Build()));
  return out;
}

// Runs only the kernel (no infer), output preallocated as given.
ge::Status RunKernelOnly(const std::string& type, const std::vector<const gert::Tensor*>& ins,
                         gert::HostTensor* out, const Attrs* attrs = nullptr) {
  gert::KernelRunContextBuilder kb;
  kb.Node("k", type).Attrs(attrs).Inputs(ins).Outputs({out->MutableTensor()});
  return Reg(type).FindKernel(ge::kEngineHostCpu)->fn(*kb.Build());
}

// Infer shape of `type` for the given input shapes (dtype FLOAT).
ge::StatusOr<gert::Shape> InferShape(const std::string& type,
                                     const std::vector<gert::Shape>& shapes,
                                     ge::DataType dt = ge::DT_FLOAT) {
  gert::InferShapeContextBuilder ib;
  ib.Node("node7", type);
  for (const auto& s : shapes) ib.Input(s, dt);
  ib.Outputs(1);
  gert::InferShapeContext* ctx = ib.Build();
  const ge::OpRegistrationData& reg = Reg(type);
  if (reg.verify != nullptr) RETURN_IF_ERROR(reg.verify(*ctx));
  RETURN_IF_ERROR(reg.infer_shape(*ctx));
  return ib.OutputShape(0);
}

gert::Shape UnknownRank() {
  gert::Shape s;
  s.AppendDim(ge::UNKNOWN_RANK);
  return s;
}

// ---------------------------------------------------------- registration

TEST(ElementwiseRegistrationTest, EveryOpHasInferAndKernel) {
  for (const char* type : {"Abs",       "Acos",       "Acosh",
                           "Add",       "Asin",       "Asinh",
                           "Atan",      "Atanh",      "BitShift",
                           "Ceil",      "Celu",       "Clip",
                           "Cos",       "Cosh",       "Div",
                           "Elu",       "Erf",        "Exp",
                           "Floor",     "Gelu",       "HardSigmoid",
                           "HardSwish", "IsInf",      "IsNaN",
                           "LeakyRelu", "Log",        "Max",
                           "Mean",      "Min",        "Mod",
                           "Mul",       "Neg",        "Pow",
                           "PRelu",     "Reciprocal", "Relu",
                           "Round",     "Selu",       "Shrink",
                           "Sigmoid",   "Sign",       "Sin",
                           "Sinh",      "Softplus",   "Softsign",
                           "Sqrt",      "Sub",        "Sum",
                           "Tan",       "Tanh",       "ThresholdedRelu"}) {
    const ge::OpRegistrationData* r = ge::OpRegistry::Instance().Find(type);
    ASSERT_NE(r, nullptr) << type;
    EXPECT_NE(r->infer_shape, nullptr) << type;
    EXPECT_NE(r->FindKernel(ge::kEngineHostCpu), nullptr) << type;
  }
  EXPECT_EQ(Reg("Max").inputs.at(0).kind, ge::IoKind::kDynamic);
  EXPECT_EQ(Reg("Clip").inputs.at(1).kind, ge::IoKind::kOptional);
  EXPECT_TRUE(Reg("Add").inputs.at(0).types.Contains(ge::DT_UINT16));
  EXPECT_FALSE(Reg("Acos").inputs.at(0).types.Contains(ge::DT_INT32));
  EXPECT_TRUE(Reg("IsNaN").outputs.at(0).types.Contains(ge::DT_BOOL));
  const ge::OpAttrDef* dir = Reg("BitShift").FindAttr("direction");
  ASSERT_NE(dir, nullptr);
  EXPECT_TRUE(dir->required);
}

// ---------------------------------------------------------- infer shape

TEST(ElementwiseInferTest, BroadcastWithUnknownDims) {
  auto s = InferShape("Add", {{2, -1, 1}, {-1, 5}});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(*s, (gert::Shape{2, -1, 5}));
  s = InferShape("Mul", {{1}, {-1}});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (gert::Shape{-1}));
  s = InferShape("Pow", {UnknownRank(), {3}});
  ASSERT_TRUE(s.ok());
  EXPECT_TRUE(s->IsUnknownRank());
  s = InferShape("Max", {{3, 1}, {1, 4}, {2, 1, 1}});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (gert::Shape{2, 3, 4}));
  s = InferShape("Exp", {{-1, 3}});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (gert::Shape{-1, 3}));
}

TEST(ElementwiseInferTest, BroadcastMismatchNamesNodeAndShapes) {
  auto s = InferShape("Sub", {{2, 3}, {4}});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(ge::GetErrorCode(s.status()), ge::ErrorCode::kParamInvalid);
  const std::string msg(s.status().message());
  EXPECT_THAT(msg, HasSubstr("node7"));
  EXPECT_THAT(msg, HasSubstr("[2,3]"));
  EXPECT_THAT(msg, HasSubstr("[4]"));
  EXPECT_THAT(msg, HasSubstr("input 1"));
  EXPECT_FALSE(InferShape("Sum", {{2}, {2}, {3}}).ok());
}

TEST(ElementwiseInferTest, VerifyRejectsMixedTypes) {
  gert::InferShapeContextBuilder ib;
  ib.Node("add9", "Add").Input({2}, ge::DT_FLOAT).Input({2}, ge::DT_INT32).Outputs(1);
  ge::Status st = Reg("Add").verify(*ib.Build());
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kTypeMismatch);
  EXPECT_THAT(std::string(st.message()), HasSubstr("add9"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("DT_INT32"));
}

TEST(ElementwiseInferTest, IsNaNAndIsInfGiveBool) {
  gert::InferShapeContextBuilder ib;
  ib.Node("isinf", "IsInf").Input({-1, 2}, ge::DT_FLOAT16).Outputs(1);
  gert::InferShapeContext* ctx = ib.Build();
  ASSERT_TRUE(Reg("IsInf").infer_data_type(*ctx).ok());
  ASSERT_TRUE(Reg("IsInf").infer_shape(*ctx).ok());
  EXPECT_EQ(ib.OutputDataType(0), ge::DT_BOOL);
  EXPECT_EQ(ib.OutputShape(0), (gert::Shape{-1, 2}));
}

TEST(ElementwiseInferTest, PReluSlopeMustBroadcastToX) {
  auto s = InferShape("PRelu", {{2, 3, 4}, {3, 1}});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(*s, (gert::Shape{2, 3, 4}));
  s = InferShape("PRelu", {{-1, 3}, {3}});
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(*s, (gert::Shape{-1, 3}));
  EXPECT_FALSE(InferShape("PRelu", {{3}, {2, 3}}).ok());  // slope bigger than X
  EXPECT_FALSE(InferShape("PRelu", {{2, 3}, {2}}).ok());
}

TEST(ElementwiseInferTest, ClipBoundsMustBeScalars) {
  EXPECT_TRUE(InferShape("Clip", {{4}, {}, {}}).ok());
  auto s = InferShape("Clip", {{4}, {2}});
  ASSERT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.status().message()), HasSubstr("min"));
}

// ---------------------------------------------------------- kernels

TEST(ElementwiseKernelTest, AddBroadcastsRowsAndColumns) {
  auto a = T(ge::DT_FLOAT, {2, 1, 3}, {1, 2, 3, 4, 5, 6});
  auto b = T(ge::DT_FLOAT, {2, 1}, {10, 20});
  auto y = RunOp("Add", {&a, &b});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->GetShape(), (gert::Shape{2, 2, 3}));
  EXPECT_THAT(Values(*y), ElementsAre(11, 12, 13, 21, 22, 23, 14, 15, 16, 24, 25, 26));
}

TEST(ElementwiseKernelTest, IntegerArithmeticWraps) {
  auto a = T(ge::DT_INT32, {3}, {2147483647, -2147483648.0, 5});
  auto b = T(ge::DT_INT32, {3}, {1, 1, -3});
  auto y = RunOp("Add", {&a, &b});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(-2147483648.0, -2147483647.0, 2));
  y = RunOp("Mul", {&a, &b});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(2147483647, -2147483648.0, -15));
  auto u = T(ge::DT_UINT8, {2}, {250, 3});
  auto v = T(ge::DT_UINT8, {2}, {10, 5});
  y = RunOp("Add", {&u, &v});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(4, 8));
  y = RunOp("Sub", {&u, &v});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(240, 254));
}

TEST(ElementwiseKernelTest, IntegerDivTruncatesTowardZero) {
  auto a = T(ge::DT_INT32, {5}, {7, -7, 7, -7, -2147483648.0});
  auto b = T(ge::DT_INT32, {5}, {2, 2, -2, -2, -1});
  auto y = RunOp("Div", {&a, &b});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_THAT(Values(*y), ElementsAre(3, -3, -3, 3, -2147483648.0));
}

TEST(ElementwiseKernelTest, IntegerDivByZeroIsAnError) {
  auto a = T(ge::DT_INT64, {2}, {1, 2});
  auto b = T(ge::DT_INT64, {2}, {1, 0});
  auto y = RunOp("Div", {&a, &b});
  ASSERT_FALSE(y.ok());
  EXPECT_THAT(std::string(y.status().message()), HasSubstr("node n (Div)"));
  EXPECT_THAT(std::string(y.status().message()), HasSubstr("element 1"));
  y = RunOp("Mod", {&a, &b});
  EXPECT_FALSE(y.ok());
  // Float division by zero follows IEEE.
  auto fa = T(ge::DT_FLOAT, {2}, {1, -1});
  auto fb = T(ge::DT_FLOAT, {2}, {0, 0});
  y = RunOp("Div", {&fa, &fb});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(HUGE_VAL, -HUGE_VAL));
}

TEST(ElementwiseKernelTest, ModSignFollowsDivisorUnlessFmod) {
  auto a = T(ge::DT_INT32, {4}, {5, -5, 5, -5});
  auto b = T(ge::DT_INT32, {4}, {3, 3, -3, -3});
  auto y = RunOp("Mod", {&a, &b});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_THAT(Values(*y), ElementsAre(2, 1, -1, -2));
  Attrs fmod;
  fmod.Set<int64_t>("fmod", 1);
  y = RunOp("Mod", {&a, &b}, &fmod);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(2, -2, 2, -2));
  auto fa = T(ge::DT_FLOAT, {2}, {5.5, -5.5});
  auto fb = T(ge::DT_FLOAT, {2}, {2, 2});
  y = RunOp("Mod", {&fa, &fb}, &fmod);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(1.5, -1.5));
  // fmod = 0 is integer only.
  y = RunOp("Mod", {&fa, &fb});
  ASSERT_FALSE(y.ok());
  EXPECT_THAT(std::string(y.status().message()), HasSubstr("fmod"));
  // INT_MIN % -1 does not trap.
  auto m = T(ge::DT_INT32, {1}, {-2147483648.0});
  auto n1 = T(ge::DT_INT32, {1}, {-1});
  y = RunOp("Mod", {&m, &n1});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0));
}

TEST(ElementwiseKernelTest, Float16ComputedInFloat) {
  auto a = T(ge::DT_FLOAT16, {3}, {1.5, 65504, -2});
  auto b = T(ge::DT_FLOAT16, {}, {0.25});
  auto y = RunOp("Mul", {&a, &b});
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->GetDataType(), ge::DT_FLOAT16);
  EXPECT_THAT(Values(*y), ElementsAre(0.375, 16376, -0.5));
  // Overflow in the half result gives Inf.
  auto c = T(ge::DT_FLOAT16, {1}, {65504});
  y = RunOp("Add", {&c, &c});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(HUGE_VAL));
  auto bf = T(ge::DT_BF16, {2}, {1, 2});
  y = RunOp("Sqrt", {&bf});
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->GetDataType(), ge::DT_BF16);
  EXPECT_NEAR(Values(*y)[1], std::sqrt(2.0), 1e-2);
}

TEST(ElementwiseKernelTest, UnaryIntegerVariants) {
  auto x = T(ge::DT_INT8, {4}, {-128, -3, 0, 7});
  auto y = RunOp("Abs", {&x});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(-128, 3, 0, 7));  // wraps like numpy
  y = RunOp("Neg", {&x});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(-128, 3, 0, -7));
  y = RunOp("Sign", {&x});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(-1, -1, 0, 1));
  y = RunOp("Relu", {&x});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0, 0, 0, 7));
  auto u = T(ge::DT_UINT16, {2}, {0, 9});
  y = RunOp("Sign", {&u});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0, 1));
  // Neg is not defined for unsigned types.
  y = RunOp("Neg", {&u});
  EXPECT_EQ(ge::GetErrorCode(y.status()), ge::ErrorCode::kNotSupported);
  EXPECT_THAT(std::string(y.status().message()), HasSubstr("DT_UINT16"));
}

TEST(ElementwiseKernelTest, FloatSpecialValues) {
  const double nan = std::nan("");
  auto x = T(ge::DT_FLOAT, {5}, {nan, HUGE_VAL, -HUGE_VAL, -0.5, 2.5});
  auto y = RunOp("Sign", {&x});
  ASSERT_TRUE(y.ok());
  auto v = Values(*y);
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_THAT(std::vector<double>(v.begin() + 1, v.end()), ElementsAre(1, -1, -1, 1));
  y = RunOp("Round", {&x});
  ASSERT_TRUE(y.ok());
  v = Values(*y);
  EXPECT_EQ(v[3], 0.0);
  EXPECT_TRUE(std::signbit(v[3]));
  EXPECT_EQ(v[4], 2.0);  // half to even
  y = RunOp("IsNaN", {&x});
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->GetDataType(), ge::DT_BOOL);
  EXPECT_THAT(Values(*y), ElementsAre(1, 0, 0, 0, 0));
  Attrs pos_only;
  pos_only.Set<int64_t>("detect_negative", 0);
  y = RunOp("IsInf", {&x}, &pos_only);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0, 1, 0, 0, 0));
  y = RunOp("Sigmoid", {&x});
  ASSERT_TRUE(y.ok());
  v = Values(*y);
  EXPECT_EQ(v[1], 1.0);
  EXPECT_EQ(v[2], 0.0);
  y = RunOp("Softplus", {&x});
  ASSERT_TRUE(y.ok());
  v = Values(*y);
  EXPECT_EQ(v[1], HUGE_VAL);
  EXPECT_EQ(v[2], 0.0);
  y = RunOp("Relu", {&x});
  ASSERT_TRUE(y.ok());
  EXPECT_TRUE(std::isnan(Values(*y)[0]));
}

TEST(ElementwiseKernelTest, ActivationsWithAttributes) {
  auto x = T(ge::DT_FLOAT, {4}, {-2, -0.5, 0.5, 2});
  Attrs a;
  a.Set<float>("alpha", 0.1f);
  auto y = RunOp("LeakyRelu", {&x}, &a);
  ASSERT_TRUE(y.ok());
  auto v = Values(*y);
  EXPECT_NEAR(v[0], -0.2, 1e-6);
  EXPECT_NEAR(v[1], -0.05, 1e-6);
  EXPECT_EQ(v[3], 2.0);
  Attrs thr;
  thr.Set<float>("alpha", 1.0f);
  y = RunOp("ThresholdedRelu", {&x}, &thr);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0, 0, 0, 2));
  y = RunOp("HardSwish", {&x});
  ASSERT_TRUE(y.ok());
  v = Values(*y);
  EXPECT_NEAR(v[0], -2 * (1.0 / 6.0 * -2 + 0.5), 1e-6);
  EXPECT_NEAR(v[3], 2 * (2.0 / 6.0 + 0.5), 1e-6);
  Attrs shrink;
  shrink.Set<float>("lambd", 1.0f).Set<float>("bias", 0.5f);
  y = RunOp("Shrink", {&x}, &shrink);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(-1.5, 0, 0, 1.5));
  auto xi = T(ge::DT_UINT8, {3}, {0, 1, 5});
  y = RunOp("Shrink", {&xi}, &shrink);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0, 0, 4));
  y = RunOp("Gelu", {&x});
  ASSERT_TRUE(y.ok());
  EXPECT_NEAR(Values(*y)[3], 2 * 0.5 * (1 + std::erf(2 / std::sqrt(2.0))), 1e-6);
  Attrs tanh;
  tanh.Set<std::string>("approximate", "tanh");
  y = RunOp("Gelu", {&x}, &tanh);
  ASSERT_TRUE(y.ok());
  EXPECT_NEAR(Values(*y)[3], 1.9545977, 1e-5);
  Attrs bad;
  bad.Set<std::string>("approximate", "fast");
  y = RunOp("Gelu", {&x}, &bad);
  ASSERT_FALSE(y.ok());
  EXPECT_THAT(std::string(y.status().message()), HasSubstr("fast"));
  Attrs wrong_type;
  wrong_type.Set<int64_t>("alpha", 1);
  EXPECT_EQ(ge::GetErrorCode(RunOp("Elu", {&x}, &wrong_type).status()),
            ge::ErrorCode::kTypeMismatch);
}

TEST(ElementwiseKernelTest, BitShift) {
  auto x = T(ge::DT_UINT8, {4}, {1, 255, 16, 3});
  auto s = T(ge::DT_UINT8, {4}, {7, 1, 2, 8});
  Attrs left;
  left.Set<std::string>("direction", "LEFT");
  auto y = RunOp("BitShift", {&x, &s}, &left);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(128, 254, 64, 0));
  Attrs right;
  right.Set<std::string>("direction", "RIGHT");
  y = RunOp("BitShift", {&x, &s}, &right);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0, 127, 4, 0));
  auto x64 = T(ge::DT_UINT64, {1}, {1});
  auto s64 = T(ge::DT_UINT64, {1}, {100});
  y = RunOp("BitShift", {&x64, &s64}, &left);
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0));
  // Missing / bad direction.
  y = RunOp("BitShift", {&x, &s});
  ASSERT_FALSE(y.ok());
  EXPECT_THAT(std::string(y.status().message()), HasSubstr("direction"));
  Attrs up;
  up.Set<std::string>("direction", "UP");
  EXPECT_FALSE(RunOp("BitShift", {&x, &s}, &up).ok());
}

TEST(ElementwiseKernelTest, PowMixedTypes) {
  auto xi = T(ge::DT_INT64, {4}, {3, -2, 2, 0});
  auto yi = T(ge::DT_INT64, {4}, {39, 3, -1, 0});
  auto z = RunOp("Pow", {&xi, &yi});
  ASSERT_TRUE(z.ok()) << z.status();
  EXPECT_EQ(z->GetDataType(), ge::DT_INT64);
  EXPECT_EQ(z->GetData<int64_t>()[0], 4052555153018976267LL);  // exact 3^39
  EXPECT_EQ(z->GetData<int64_t>()[1], -8);
  EXPECT_EQ(z->GetData<int64_t>()[2], 0);
  EXPECT_EQ(z->GetData<int64_t>()[3], 1);
  auto xf = T(ge::DT_FLOAT, {3}, {2, 4, -8});
  auto yf = T(ge::DT_FLOAT, {}, {0.5});
  z = RunOp("Pow", {&xf, &yf});
  ASSERT_TRUE(z.ok());
  auto v = Values(*z);
  EXPECT_NEAR(v[0], std::sqrt(2.0), 1e-6);
  EXPECT_EQ(v[1], 2.0);
  EXPECT_TRUE(std::isnan(v[2]));
  auto yu = T(ge::DT_UINT32, {3}, {1, 2, 3});
  z = RunOp("Pow", {&xf, &yu});
  ASSERT_TRUE(z.ok());
  EXPECT_THAT(Values(*z), ElementsAre(2, 16, -512));
  auto xs = T(ge::DT_INT8, {1}, {2});
  EXPECT_EQ(ge::GetErrorCode(RunOp("Pow", {&xs, &yu}).status()), ge::ErrorCode::kNotSupported);
}

TEST(ElementwiseKernelTest, PRelu) {
  auto x = T(ge::DT_FLOAT, {2, 3}, {-1, 2, -3, 4, -5, 6});
  auto s = T(ge::DT_FLOAT, {3}, {0.5, 0.25, 2});
  auto y = RunOp("PRelu", {&x, &s});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(-0.5, 2, -6, 4, -1.25, 6));
  auto xi = T(ge::DT_INT32, {2}, {-3, 3});
  auto si = T(ge::DT_INT32, {1}, {2});
  y = RunOp("PRelu", {&xi, &si});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(-6, 3));
  // Slope that would grow X is rejected by the kernel too.
  auto big = T(ge::DT_FLOAT, {2, 2, 3}, std::vector<double>(12, 1));
  auto out = gert::HostTensor::Create(ge::DT_FLOAT, {2, 3});
  ASSERT_TRUE(out.ok());
  ge::Status st = RunKernelOnly("PRelu", {&x.tensor(), &big.tensor()}, &*out);
  EXPECT_THAT(std::string(st.message()), HasSubstr("unidirectional"));
}

TEST(ElementwiseKernelTest, Clip) {
  auto x = T(ge::DT_FLOAT, {4}, {-5, 0, 5, std::nan("")});
  auto lo = T(ge::DT_FLOAT, {}, {-1});
  auto hi = T(ge::DT_FLOAT, {}, {1});
  auto y = RunOp("Clip", {&x, &lo, &hi});
  ASSERT_TRUE(y.ok()) << y.status();
  auto v = Values(*y);
  EXPECT_EQ(v[0], -1);
  EXPECT_EQ(v[1], 0);
  EXPECT_EQ(v[2], 1);
  EXPECT_TRUE(std::isnan(v[3]));
  y = RunOp("Clip", {&x, nullptr, &hi});  // no min
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(Values(*y)[0], -5);
  y = RunOp("Clip", {&x});  // no bounds
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(Values(*y)[2], 5);
  y = RunOp("Clip", {&x, &hi, &lo});  // min > max: everything is max
  ASSERT_TRUE(y.ok());
  v = Values(*y);
  EXPECT_THAT(std::vector<double>(v.begin(), v.begin() + 3), ElementsAre(-1, -1, -1));
  auto xi = T(ge::DT_INT8, {3}, {-100, 0, 100});
  auto li = T(ge::DT_INT8, {}, {-10});
  y = RunOp("Clip", {&xi, &li});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(-10, 0, 100));
  auto vec = T(ge::DT_FLOAT, {2}, {0, 1});
  auto out = gert::HostTensor::Create(ge::DT_FLOAT, {4});
  ASSERT_TRUE(out.ok());
  ge::Status st = RunKernelOnly("Clip", {&x.tensor(), &vec.tensor()}, &*out);
  EXPECT_THAT(std::string(st.message()), HasSubstr("scalar"));
  st = RunKernelOnly("Clip", {&x.tensor(), &li.tensor()}, &*out);
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kTypeMismatch);
}

TEST(ElementwiseKernelTest, VariadicBroadcastAndNaN) {
  auto a = T(ge::DT_FLOAT, {2, 1}, {1, 5});
  auto b = T(ge::DT_FLOAT, {3}, {0, 3, std::nan("")});
  auto c = T(ge::DT_FLOAT, {}, {2});
  auto y = RunOp("Max", {&a, &b, &c});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->GetShape(), (gert::Shape{2, 3}));
  auto v = Values(*y);
  EXPECT_EQ(v[0], 2);
  EXPECT_EQ(v[1], 3);
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_EQ(v[3], 5);
  EXPECT_EQ(v[4], 5);
  EXPECT_TRUE(std::isnan(v[5]));
  y = RunOp("Min", {&a, &c});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(1, 2));
  y = RunOp("Mean", {&a, &c});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(1.5, 3.5));
  y = RunOp("Sum", {&a});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(1, 5));
  auto h1 = T(ge::DT_FLOAT16, {2}, {2048, 1});
  auto h2 = T(ge::DT_FLOAT16, {2}, {1, 1});
  y = RunOp("Sum", {&h1, &h2, &h2});  // float accumulation: 2048 + 1 + 1 = 2050
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(2050, 3));
  auto i1 = T(ge::DT_UINT64, {2}, {18446744073709551615.0, 0});
  auto i2 = T(ge::DT_UINT64, {1}, {7});
  y = RunOp("Min", {&i1, &i2});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(7, 0));
  auto bad = T(ge::DT_INT32, {1}, {1});
  EXPECT_EQ(ge::GetErrorCode(RunOp("Max", {&a, &bad}).status()), ge::ErrorCode::kTypeMismatch);
}

TEST(ElementwiseKernelTest, KernelRejectsBadInputs) {
  auto a = T(ge::DT_FLOAT, {2}, {1, 2});
  auto i = T(ge::DT_INT32, {2}, {1, 2});
  auto out = gert::HostTensor::Create(ge::DT_FLOAT, {2});
  ASSERT_TRUE(out.ok());
  ge::Status st = RunKernelOnly("Add", {&a.tensor(), &i.tensor()}, &*out);
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kTypeMismatch);
  EXPECT_THAT(std::string(st.message()), HasSubstr("node k (Add)"));
  st = RunKernelOnly("Add", {&a.tensor()}, &*out);  // missing input 1
  EXPECT_THAT(std::string(st.message()), HasSubstr("input 1"));
  auto three = T(ge::DT_FLOAT, {3}, {1, 2, 3});
  st = RunKernelOnly("Add", {&a.tensor(), &three.tensor()}, &*out);
  EXPECT_THAT(std::string(st.message()), HasSubstr("[3]"));
  gert::Tensor no_data({2}, ge::DT_FLOAT, nullptr, 0);
  st = RunKernelOnly("Exp", {&no_data}, &*out);
  EXPECT_FALSE(st.ok());
  auto s = MakeHostTensor<std::string>(ge::DT_STRING, {2}, {std::string("a"), std::string("b")});
  ASSERT_TRUE(s.ok());
  st = RunKernelOnly("Abs", {&s->tensor()}, &*out);
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported);
  // Output prepared with a wrong shape.
  auto wrong = gert::HostTensor::Create(ge::DT_FLOAT, {5});
  ASSERT_TRUE(wrong.ok());
  st = RunKernelOnly("Exp", {&a.tensor()}, &*wrong);
  EXPECT_THAT(std::string(st.message()), HasSubstr("[5]"));
}

TEST(ElementwiseKernelTest, EmptyTensors) {
  auto a = T(ge::DT_FLOAT, {0, 3}, {});
  auto b = T(ge::DT_FLOAT, {3}, {1, 2, 3});
  auto y = RunOp("Add", {&a, &b});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->GetShape(), (gert::Shape{0, 3}));
  y = RunOp("Tanh", {&a});
  ASSERT_TRUE(y.ok());
}

// ---------------------------------------------------------- ONNX node tests

OPS_ONNX_CASE_TESTS(ElementwiseOnnxTest, "ops/elementwise/testdata/onnx_cases.txt");

}  // namespace
}  // namespace ops
