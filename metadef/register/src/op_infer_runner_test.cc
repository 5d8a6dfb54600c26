// metadef/register/src/op_infer_runner_test.cc
#include "metadef/register/inc/register/op_infer_runner.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// The steps run, in order (one test at a time).
std::vector<std::string>& Trace() {
  static std::vector<std::string>* t = new std::vector<std::string>();
  return *t;
}

Status Verify(gert::InferShapeContext&) {
  Trace().push_back("verify");
  return OkStatus();
}
Status FailVerify(gert::InferShapeContext& ctx) { return ctx.Error("bad input"); }
Status InferInt64(gert::InferShapeContext& ctx) {
  Trace().push_back("dtype");
  ctx.SetOutputDataType(0, DT_INT64);
  return OkStatus();
}
Status InferCopy(gert::InferShapeContext& ctx) {
  Trace().push_back("shape");
  *ctx.GetOutputShape(0) = *ctx.GetInputShape(0);
  return OkStatus();
}
Status FailInfer(gert::InferShapeContext&) { return ParamInvalid("no shape"); }
Status InferFromValue(gert::InferShapeContext& ctx) {
  (void)ctx.GetInputTensor(1);
  *ctx.GetOutputShape(0) = gert::Shape{1};
  return OkStatus();
}

OpRegistrationData Reg(VerifyFn verify, InferDataTypeFn dtype, InferShapeFn shape) {
  OpRegistrationData d;
  d.type = "RunnerTestOp";
  d.inputs.resize(2);
  d.inputs[0].name = "x";
  d.inputs[1].name = "shape";
  d.verify = verify;
  d.infer_data_type = dtype;
  d.infer_shape = shape;
  return d;
}

class OpInferRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Trace().clear();
    value_ = *gert::HostTensor::Create(DT_INT64, gert::Shape{1});
    b_.Node("n", "RunnerTestOp")
        .Input(gert::Shape{2, 3}, DT_FLOAT, nullptr)
        .Input(gert::Shape{1}, DT_INT64, &value_.tensor())
        .Outputs(1);
    ctx_ = b_.Build();
  }
  gert::HostTensor value_;
  gert::InferShapeContextBuilder b_;
  gert::InferShapeContext* ctx_ = nullptr;
};

TEST_F(OpInferRunnerTest, RunsVerifyThenDtypeThenShape) {
  const OpRegistrationData reg = Reg(Verify, InferInt64, InferCopy);
  InferStep step = InferStep::kVerify;
  ASSERT_TRUE(RunOpInfer(reg, *ctx_, {}, &step).ok());
  EXPECT_EQ(step, InferStep::kNone);
  EXPECT_THAT(Trace(), ElementsAre("verify", "dtype", "shape"));
  EXPECT_EQ(b_.OutputDataType(0), DT_INT64);
  EXPECT_EQ(b_.OutputShape(0), (gert::Shape{2, 3}));
}

TEST_F(OpInferRunnerTest, DefaultDtypeIsInput0s) {
  ASSERT_TRUE(RunOpInfer(Reg(nullptr, nullptr, InferCopy), *ctx_).ok());
  EXPECT_EQ(b_.OutputDataType(0), DT_FLOAT);
}

TEST_F(OpInferRunnerTest, TheFirstFailingStepStopsTheRun) {
  InferStep step = InferStep::kNone;
  Status st = RunOpInfer(Reg(FailVerify, InferInt64, InferCopy), *ctx_, {}, &step);
  EXPECT_EQ(step, InferStep::kVerify);
  EXPECT_THAT(st.message(), HasSubstr("bad input"));
  EXPECT_TRUE(Trace().empty());
  EXPECT_EQ(InferStepName(step), "verify");

  st = RunOpInfer(Reg(Verify, InferInt64, FailInfer), *ctx_, {}, &step);
  EXPECT_EQ(step, InferStep::kInferShape);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_EQ(st.message(), "no shape");  // as the function gave it
  EXPECT_EQ(InferStepName(step), "infer shape");
}

TEST_F(OpInferRunnerTest, MissingInferShapeFailsOrIsSkipped) {
  const OpRegistrationData reg = Reg(Verify, InferInt64, nullptr);
  InferStep step = InferStep::kNone;
  Status st = RunOpInfer(reg, *ctx_, {}, &step);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotSupported);
  EXPECT_EQ(step, InferStep::kNoInferShape);
  EXPECT_THAT(st.message(), HasSubstr("RunnerTestOp"));

  Trace().clear();
  OpInferOptions skip;
  skip.missing_infer_shape = OpInferOptions::MissingInferShape::kSkip;
  EXPECT_TRUE(RunOpInfer(reg, *ctx_, skip, &step).ok());
  EXPECT_THAT(Trace(), ElementsAre("verify", "dtype"));
}

TEST_F(OpInferRunnerTest, VerifyOnly) {
  OpInferOptions options;
  options.verify_only = true;
  EXPECT_TRUE(RunOpInfer(Reg(Verify, InferInt64, InferCopy), *ctx_, options).ok());
  EXPECT_THAT(Trace(), ElementsAre("verify"));
}

TEST_F(OpInferRunnerTest, CheckValueReads) {
  OpRegistrationData reg = Reg(nullptr, nullptr, InferFromValue);
  OpInferOptions options;
  options.check_value_reads = true;
  InferStep step = InferStep::kNone;
  Status st = RunOpInfer(reg, *ctx_, options, &step);
  EXPECT_EQ(step, InferStep::kValueReads);
  EXPECT_THAT(st.message(), HasSubstr("input 1 (IR input 'shape')"));
  EXPECT_THAT(st.message(), HasSubstr("ValueDependentInput"));

  reg.traits.value_dependent_inputs = {1};
  EXPECT_TRUE(RunOpInfer(reg, *ctx_, options, &step).ok());
  EXPECT_TRUE(RunOpInfer(Reg(nullptr, nullptr, InferFromValue), *ctx_).ok());  // unchecked
}

}  // namespace
}  // namespace ge
