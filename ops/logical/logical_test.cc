// ops/logical/logical_test.cc: registration, infer shape / dtype, kernels on
// hand-checked cases, error paths, and the ONNX 1.12 node tests.
#include <cmath>
#include <complex>
#include <cstdint>
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

// The shared test helpers (ops/common/op_test_harness.h).
using op_test::T;
const ge::OpRegistrationData& Reg(const std::string& type) { return op_test::RegRef(type); }

gert::HostTensor B(const gert::Shape& s, std::vector<double> v) { return T(ge::DT_BOOL, s, v); }

std::vector<double> Values(const gert::HostTensor& t) {
  auto v = ReadAsDoubles(t.tensor());
  EXPECT_TRUE(v.ok()) << v.status();
  return v.ok() ? *v : std::vector<double>{};
}

// Infer (verify, dtype, shape) then the host kernel.
ge::StatusOr<gert::HostTensor> RunOp(const std::string& type,
                                     const std::vector<const gert::HostTensor*>& inputs) {
  const ge::OpRegistrationData& reg = Reg(type);
  gert::InferShapeContextBuilder ib;
  ib.Node("lg", type);
  std::vector<const gert::Tensor*> ins;
  for (const gert::HostTensor* t : inputs) {
    ib.Input(t->GetShape(), t->GetDataType(), &t->tensor());
    ins.push_back(&t->tensor());
  }
  ib.Outputs(1);
  gert::InferShapeContext* ictx = ib.Build();
  if (reg.verify != nullptr) RETURN_IF_ERROR(reg.verify(*ictx));
  RETURN_IF_ERROR(reg.infer_data_type(*ictx));
  RETURN_IF_ERROR(reg.infer_shape(*ictx));
  ASSIGN_OR_RETURN(gert::HostTensor out,
                   gert::HostTensor::Create(ib.OutputDataType(0), ib.OutputShape(0)));
  gert::KernelRunContextBuilder kb;
  kb.Node("lg", type).Inputs(ins).Outputs({out.MutableTensor()});
  RETURN_IF_ERROR(reg.FindKernel(ge::kEngineHostCpu)->fn(*kb.Build()));
  return out;
}

TEST(LogicalRegistrationTest, EveryOpRegistered) {
  for (const char* type : {"And", "Or", "Xor", "Not", "Equal", "Greater", "GreaterOrEqual", "Less",
                           "LessOrEqual", "Where"}) {
    const ge::OpRegistrationData* r = ge::OpRegistry::Instance().Find(type);
    ASSERT_NE(r, nullptr) << type;
    EXPECT_NE(r->infer_shape, nullptr) << type;
    EXPECT_NE(r->infer_data_type, nullptr) << type;
    EXPECT_NE(r->FindKernel(ge::kEngineHostCpu), nullptr) << type;
  }
  EXPECT_FALSE(Reg("And").inputs.at(0).types.Contains(ge::DT_INT32));
  EXPECT_TRUE(Reg("Equal").inputs.at(0).types.Contains(ge::DT_BOOL));
  EXPECT_FALSE(Reg("Less").inputs.at(0).types.Contains(ge::DT_BOOL));
  EXPECT_TRUE(Reg("Where").inputs.at(1).types.Contains(ge::DT_STRING));
}

TEST(LogicalInferTest, ComparisonsGiveBoolWithBroadcast) {
  gert::InferShapeContextBuilder ib;
  ib.Node("gt", "Greater")
      .Input({-1, 1, 4}, ge::DT_FLOAT16)
      .Input({3, 1}, ge::DT_FLOAT16)
      .Outputs(1);
  gert::InferShapeContext* ctx = ib.Build();
  ASSERT_TRUE(Reg("Greater").infer_data_type(*ctx).ok());
  ASSERT_TRUE(Reg("Greater").infer_shape(*ctx).ok());
  EXPECT_EQ(ib.OutputDataType(0), ge::DT_BOOL);
  EXPECT_EQ(ib.OutputShape(0), (gert::Shape{-1, 3, 4}));
}

TEST(LogicalInferTest, WhereTakesXTypeAndBroadcastsThreeWays) {
  gert::InferShapeContextBuilder ib;
  ib.Node("w", "Where")
      .Input({2, 1, 1}, ge::DT_BOOL)
      .Input({-1, 1}, ge::DT_STRING)
      .Input({5}, ge::DT_STRING)
      .Outputs(1);
  gert::InferShapeContext* ctx = ib.Build();
  ASSERT_TRUE(Reg("Where").verify(*ctx).ok());
  ASSERT_TRUE(Reg("Where").infer_data_type(*ctx).ok());
  ASSERT_TRUE(Reg("Where").infer_shape(*ctx).ok());
  EXPECT_EQ(ib.OutputDataType(0), ge::DT_STRING);
  EXPECT_EQ(ib.OutputShape(0), (gert::Shape{2, -1, 5}));
}

TEST(LogicalInferTest, WhereErrorsNameTheNode) {
  gert::InferShapeContextBuilder ib;
  ib.Node("w2", "Where")
      .Input({2}, ge::DT_INT32)
      .Input({2}, ge::DT_FLOAT)
      .Input({2}, ge::DT_FLOAT)
      .Outputs(1);
  ge::Status st = Reg("Where").verify(*ib.Build());
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kTypeMismatch);
  EXPECT_THAT(std::string(st.message()), HasSubstr("w2"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("condition"));
  gert::InferShapeContextBuilder ib2;
  ib2.Node("w3", "Where")
      .Input({2}, ge::DT_BOOL)
      .Input({2}, ge::DT_FLOAT)
      .Input({2}, ge::DT_DOUBLE)
      .Outputs(1);
  st = Reg("Where").verify(*ib2.Build());
  EXPECT_THAT(std::string(st.message()), HasSubstr("DT_DOUBLE"));
  gert::InferShapeContextBuilder ib3;
  ib3.Node("w4", "Where")
      .Input({2}, ge::DT_BOOL)
      .Input({3}, ge::DT_FLOAT)
      .Input({2}, ge::DT_FLOAT)
      .Outputs(1);
  st = Reg("Where").infer_shape(*ib3.Build());
  EXPECT_THAT(std::string(st.message()), HasSubstr("w4"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("[3]"));
}

TEST(LogicalKernelTest, BoolOps) {
  auto a = B({4}, {0, 0, 1, 1});
  auto b = B({4}, {0, 1, 0, 1});
  auto y = RunOp("And", {&a, &b});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_THAT(Values(*y), ElementsAre(0, 0, 0, 1));
  y = RunOp("Or", {&a, &b});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0, 1, 1, 1));
  y = RunOp("Xor", {&a, &b});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0, 1, 1, 0));
  y = RunOp("Not", {&a});
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(y->GetDataType(), ge::DT_BOOL);
  EXPECT_THAT(Values(*y), ElementsAre(1, 1, 0, 0));
  auto s = B({}, {1});
  y = RunOp("And", {&a, &s});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0, 0, 1, 1));
  auto i = T(ge::DT_INT32, {4}, {0, 1, 0, 1});
  EXPECT_FALSE(RunOp("And", {&a, &i}).ok());
}

TEST(LogicalKernelTest, ComparisonsWithBroadcastAndNaN) {
  auto a = T(ge::DT_FLOAT, {2, 1}, {1, std::nan("")});
  auto b = T(ge::DT_FLOAT, {3}, {0, 1, 2});
  auto y = RunOp("Greater", {&a, &b});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->GetShape(), (gert::Shape{2, 3}));
  EXPECT_THAT(Values(*y), ElementsAre(1, 0, 0, 0, 0, 0));
  y = RunOp("GreaterOrEqual", {&a, &b});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(1, 1, 0, 0, 0, 0));
  y = RunOp("Less", {&a, &b});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0, 0, 1, 0, 0, 0));
  y = RunOp("LessOrEqual", {&a, &b});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0, 1, 1, 0, 0, 0));
  y = RunOp("Equal", {&a, &b});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0, 1, 0, 0, 0, 0));  // NaN != NaN
}

TEST(LogicalKernelTest, IntegerAndHalfComparisons) {
  auto a = T(ge::DT_UINT64, {2}, {18446744073709551615.0, 3});
  auto b = T(ge::DT_UINT64, {}, {4});
  auto y = RunOp("Greater", {&a, &b});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(1, 0));
  auto i64a = T(ge::DT_INT64, {1}, {0});
  auto i64b = T(ge::DT_INT64, {1}, {0});
  i64a.MutableData<int64_t>()[0] = (int64_t{1} << 62) + 1;  // differ beyond double precision
  i64b.MutableData<int64_t>()[0] = (int64_t{1} << 62);
  y = RunOp("Equal", {&i64a, &i64b});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(0));
  auto h = T(ge::DT_FLOAT16, {2}, {-0.0, 1});
  auto z = T(ge::DT_FLOAT16, {}, {0});
  y = RunOp("Equal", {&h, &z});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(1, 0));  // -0 == 0
  auto bb = B({2}, {1, 0});
  auto bt = B({}, {1});
  y = RunOp("Equal", {&bb, &bt});
  ASSERT_TRUE(y.ok());
  EXPECT_THAT(Values(*y), ElementsAre(1, 0));
  EXPECT_FALSE(RunOp("Greater", {&bb, &bt}).ok());
}

TEST(LogicalKernelTest, WhereNumeric) {
  auto c = B({2, 1}, {1, 0});
  auto x = T(ge::DT_INT32, {3}, {1, 2, 3});
  auto y = T(ge::DT_INT32, {}, {-1});
  auto out = RunOp("Where", {&c, &x, &y});
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->GetShape(), (gert::Shape{2, 3}));
  EXPECT_EQ(out->GetDataType(), ge::DT_INT32);
  EXPECT_THAT(Values(*out), ElementsAre(1, 2, 3, -1, -1, -1));
  auto hx = T(ge::DT_BF16, {2}, {1.5, 2.5});
  auto hy = T(ge::DT_BF16, {2}, {-1, -2});
  auto c2 = B({2}, {0, 1});
  out = RunOp("Where", {&c2, &hx, &hy});
  ASSERT_TRUE(out.ok());
  EXPECT_THAT(Values(*out), ElementsAre(-1, 2.5));
}

TEST(LogicalKernelTest, WhereStringsAndComplex) {
  auto c = B({3}, {1, 0, 1});
  auto x = MakeHostTensor<std::string>(ge::DT_STRING, {3},
                                       {std::string("a"), std::string("b"), std::string("c")});
  auto y = MakeHostTensor<std::string>(ge::DT_STRING, {1}, {std::string("zz")});
  ASSERT_TRUE(x.ok() && y.ok());
  auto out = RunOp("Where", {&c, &*x, &*y});
  ASSERT_TRUE(out.ok()) << out.status();
  const std::string* s = out->GetData<std::string>();
  EXPECT_EQ(s[0], "a");
  EXPECT_EQ(s[1], "zz");
  EXPECT_EQ(s[2], "c");
  using cf = std::complex<float>;
  auto cx = MakeHostTensor<cf>(ge::DT_COMPLEX64, {1}, {cf(1, 2)});
  auto cy = MakeHostTensor<cf>(ge::DT_COMPLEX64, {1}, {cf(3, 4)});
  ASSERT_TRUE(cx.ok() && cy.ok());
  out = RunOp("Where", {&c, &*cx, &*cy});
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out->GetData<cf>()[1], cf(3, 4));
  EXPECT_EQ(out->GetData<cf>()[2], cf(1, 2));
}

TEST(LogicalKernelTest, WhereKernelRejectsBadInputs) {
  auto c = T(ge::DT_UINT8, {2}, {1, 0});
  auto x = T(ge::DT_FLOAT, {2}, {1, 2});
  auto out = gert::HostTensor::Create(ge::DT_FLOAT, {2});
  ASSERT_TRUE(out.ok());
  gert::KernelRunContextBuilder kb;
  kb.Node("wk", "Where")
      .Inputs({&c.tensor(), &x.tensor(), &x.tensor()})
      .Outputs({out->MutableTensor()});
  ge::Status st = Reg("Where").FindKernel(ge::kEngineHostCpu)->fn(*kb.Build());
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kTypeMismatch);
  EXPECT_THAT(std::string(st.message()), HasSubstr("wk"));
  gert::KernelRunContextBuilder kb2;
  kb2.Node("wk2", "Where").Inputs({&x.tensor(), &x.tensor()}).Outputs({out->MutableTensor()});
  st = Reg("Where").FindKernel(ge::kEngineHostCpu)->fn(*kb2.Build());
  EXPECT_THAT(std::string(st.message()), HasSubstr("input 2 is missing"));
  auto cb = B({3}, {1, 0, 1});
  gert::KernelRunContextBuilder kb3;
  kb3.Node("wk3", "Where")
      .Inputs({&cb.tensor(), &x.tensor(), &x.tensor()})
      .Outputs({out->MutableTensor()});
  st = Reg("Where").FindKernel(ge::kEngineHostCpu)->fn(*kb3.Build());
  EXPECT_THAT(std::string(st.message()), HasSubstr("[3]"));
}

// ---------------------------------------------------------- ONNX node tests

OPS_ONNX_CASE_TESTS(LogicalOnnxTest, "ops/logical/testdata/onnx_cases.txt");

}  // namespace
}  // namespace ops
