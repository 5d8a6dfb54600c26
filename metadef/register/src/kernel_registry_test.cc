// metadef/register/src/kernel_registry_test.cc
#include "metadef/register/inc/register/kernel_registry.h"

#include <memory>

#include "gmock/gmock.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Status DoubleKernel(gert::KernelContext& ctx) {
  const gert::Tensor* x = ctx.GetInputTensor(0);
  gert::Tensor* y = ctx.GetOutputTensor(0);
  for (int64_t i = 0; i < x->GetShapeSize(); ++i)
    y->GetData<float>()[i] = 2 * x->GetData<float>()[i];
  return OkStatus();
}

// Multiplies by a factor read once, at Prepare, from the attributes.
class ScaleKernel final : public OpKernel {
 public:
  Status Prepare(gert::TilingContext& ctx) override {
    ASSIGN_OR_RETURN(scale_, ctx.GetFloatOr("scale", 1.0f));
    return ctx.SetWorkspaceSize(0, 64);
  }
  Status Run(gert::KernelContext& ctx) const override {
    const gert::Tensor* x = ctx.GetInputTensor(0);
    gert::Tensor* y = ctx.GetOutputTensor(0);
    for (int64_t i = 0; i < x->GetShapeSize(); ++i)
      y->GetData<float>()[i] = scale_ * x->GetData<float>()[i];
    return OkStatus();
  }

 private:
  float scale_ = 1.0f;
};

Status OnlyRank2(const OpDesc& op) {
  if (op.GetInputDescBarePtr(0)->GetShape().GetDimNum() != 2) return NotSupported("rank 2 only");
  return OkStatus();
}

StatusOr<std::vector<int64_t>> RowBytes(const OpDesc& op) {
  return std::vector<int64_t>{op.GetInputDescBarePtr(0)->GetShape().GetDim(1) * 4};
}

REG_KERNEL(KrTestDouble, kEngineHostCpu).Fn(DoubleKernel);
REG_KERNEL(KrTestScale, kEngineAiCore)
    .Kernel<ScaleKernel>()
    .DataTypes({DT_FLOAT})
    .Formats({FORMAT_ND, FORMAT_NC1HWC0})
    .ShapeKinds(kKernelStaticShape)
    .Supports(OnlyRank2)
    .Workspace(RowBytes);
REG_KERNEL(KrTestScale, kEngineHostCpu).Fn(DoubleKernel);

OpDesc MakeOp(const char* type, std::vector<int64_t> dims, DataType dt, Format f = FORMAT_ND) {
  OpDesc op("n", type);
  GeTensorDesc d(GeShape(dims), f, dt);
  EXPECT_TRUE(op.AddInputDesc("x", d).ok());
  EXPECT_TRUE(op.AddOutputDesc("y", d).ok());
  return op;
}

TEST(KernelRegistryTest, StatelessKernelIsSharedAndRuns) {
  const KernelDef* def = FindKernel("KrTestDouble", kEngineHostCpu);
  ASSERT_NE(def, nullptr);
  EXPECT_TRUE(def->stateless());
  EXPECT_EQ(def->NewKernel(), nullptr);
  ASSERT_NE(def->shared_kernel(), nullptr);
  float in[3] = {1, 2, 3}, out[3] = {};
  gert::Tensor x(gert::Shape{3}, DT_FLOAT, in, sizeof(in)),
      y(gert::Shape{3}, DT_FLOAT, out, sizeof(out));
  gert::KernelRunContextBuilder b;
  b.Node("n", "KrTestDouble").Inputs({&x}).Outputs({&y});
  ASSERT_TRUE(def->shared_kernel()->Run(*b.Build()).ok());
  EXPECT_THAT(out, ElementsAre(2, 4, 6));
}

TEST(KernelRegistryTest, StatefulKernelPreparesOncePerInstance) {
  const KernelDef* def = FindKernel("KrTestScale", kEngineAiCore);
  ASSERT_NE(def, nullptr);
  EXPECT_FALSE(def->stateless());
  OpDesc attrs("n", "KrTestScale");
  ASSERT_TRUE(attrs.SetAttr("scale", AttrValue::CreateFrom<float>(3.0f)).ok());
  std::unique_ptr<OpKernel> k = def->NewKernel();
  ASSERT_NE(k, nullptr);
  float in[2] = {1, -2}, out[2] = {};
  gert::Tensor x(gert::Shape{2}, DT_FLOAT, in, sizeof(in)),
      y(gert::Shape{2}, DT_FLOAT, out, sizeof(out));
  gert::TilingContextBuilder tb;
  gert::TilingContext* tctx =
      tb.Node("n", "KrTestScale").Attrs(&attrs).Inputs({&x}).Outputs({&y}).Build();
  ASSERT_TRUE(k->Prepare(*tctx).ok());
  EXPECT_THAT(tctx->GetWorkspaceSizes(), ElementsAre(64u));
  // The attribute is not read again at run time.
  ASSERT_TRUE(attrs.SetAttr("scale", AttrValue::CreateFrom<float>(100.0f)).ok());
  gert::KernelRunContextBuilder b;
  b.Node("n", "KrTestScale").Attrs(&attrs).Inputs({&x}).Outputs({&y});
  ASSERT_TRUE(k->Run(*b.Build()).ok());
  EXPECT_THAT(out, ElementsAre(3, -6));
}

TEST(KernelRegistryTest, CheckSupportedReadsTheDeclaration) {
  const KernelDef* def = FindKernel("KrTestScale", kEngineAiCore);
  ASSERT_NE(def, nullptr);
  EXPECT_TRUE(def->CheckSupported(MakeOp("KrTestScale", {2, 3}, DT_FLOAT)).ok());
  EXPECT_TRUE(def->CheckSupported(MakeOp("KrTestScale", {2, 3}, DT_FLOAT, FORMAT_NCHW)).ok());
  EXPECT_TRUE(def->CheckSupported(MakeOp("KrTestScale", {2, 3}, DT_FLOAT, FORMAT_NC1HWC0)).ok());
  Status st = def->CheckSupported(MakeOp("KrTestScale", {2, 3}, DT_INT32));
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotSupported);
  EXPECT_THAT(st.message(), HasSubstr("input 0 has data type DT_INT32"));
  st = def->CheckSupported(MakeOp("KrTestScale", {2, 3}, DT_FLOAT, FORMAT_FRACTAL_Z));
  EXPECT_THAT(st.message(), HasSubstr("format FRACTAL_Z"));
  st = def->CheckSupported(MakeOp("KrTestScale", {-1, 3}, DT_FLOAT));
  EXPECT_THAT(st.message(), HasSubstr("static shapes only"));
  st = def->CheckSupported(MakeOp("KrTestScale", {6}, DT_FLOAT));
  EXPECT_THAT(st.message(), HasSubstr("rank 2 only"));
  // Without declared formats a kernel takes row-major layouts only (ND and
  // NCHW are one layout of the logical dims; NHWC is not).
  const KernelDef* host = FindKernel("KrTestDouble", kEngineHostCpu);
  EXPECT_TRUE(host->CheckSupported(MakeOp("KrTestDouble", {-1}, DT_INT8)).ok());
  EXPECT_TRUE(
      host->CheckSupported(MakeOp("KrTestDouble", {1, 2, 2, 2}, DT_FLOAT, FORMAT_NCHW)).ok());
  EXPECT_FALSE(
      host->CheckSupported(MakeOp("KrTestDouble", {1, 2, 2, 2}, DT_FLOAT, FORMAT_NHWC)).ok());
  EXPECT_FALSE(host->CheckSupported(MakeOp("KrTestDouble", {2}, DT_FLOAT, FORMAT_NC1HWC0)).ok());
}

TEST(KernelRegistryTest, PlannedWorkspaceIsAFunctionOfTheNode) {
  const KernelDef* def = FindKernel("KrTestScale", kEngineAiCore);
  StatusOr<std::vector<int64_t>> ws =
      def->PlannedWorkspace(MakeOp("KrTestScale", {2, 5}, DT_FLOAT));
  ASSERT_TRUE(ws.ok());
  EXPECT_THAT(*ws, ElementsAre(20));
  ws = FindKernel("KrTestDouble", kEngineHostCpu)
           ->PlannedWorkspace(MakeOp("KrTestDouble", {2}, DT_FLOAT));
  ASSERT_TRUE(ws.ok());
  EXPECT_TRUE(ws->empty());
}

TEST(KernelRegistryTest, LookupsAndMessages) {
  KernelRegistry& r = KernelRegistry::Instance();
  std::vector<const KernelDef*> all = r.FindAll("KrTestScale");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0]->engine, kEngineAiCore);  // sorted by engine name
  EXPECT_EQ(all[1]->engine, kEngineHostCpu);
  EXPECT_EQ(r.Find("KrTestDouble", kEngineAiCore), nullptr);
  EXPECT_EQ(r.Find("NoSuchOp", kEngineHostCpu), nullptr);
  std::vector<std::string> types = r.OpTypes(kEngineAiCore);
  EXPECT_NE(std::find(types.begin(), types.end(), "KrTestScale"), types.end());
  EXPECT_EQ(std::find(types.begin(), types.end(), "KrTestDouble"), types.end());
  EXPECT_THAT(
      DescribeMissingKernel("KrTestScale", kEngineRts),
      HasSubstr("no kernel for op KrTestScale on engine 'DNN_VM_RTS' (kernels: AIcoreEngine, "
                "DNN_VM_HOST_CPU)"));
  EXPECT_THAT(DescribeMissingKernel("NoSuchOp", kEngineRts), HasSubstr("(kernels: none)"));
  EXPECT_TRUE(r.RegistrationErrors().empty());
}

TEST(KernelRegistryTest, RegisterRejectsBadDefinitions) {
  KernelRegistry& r = KernelRegistry::Instance();
  Status st = r.Register(KernelReg("KrTestDouble", kEngineHostCpu).Fn(DoubleKernel).Release());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kAlreadyExists);
  EXPECT_THAT(st.message(), HasSubstr("KrTestDouble"));
  st = r.Register(KernelReg("KrTestNeither", kEngineHostCpu).Release());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  st = r.Register(
      KernelReg("KrTestBoth", kEngineHostCpu).Fn(DoubleKernel).Kernel<ScaleKernel>().Release());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  st = r.Register(KernelReg("", kEngineHostCpu).Fn(DoubleKernel).Release());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  st = r.Register(
      KernelReg("KrTestNoKinds", kEngineHostCpu).Fn(DoubleKernel).ShapeKinds(0).Release());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
}

TEST(KernelRegistryTest, DeferredRegistrationsQueueUntilTaken) {
  KernelRegistry& r = KernelRegistry::Instance();
  r.SetDeferred(true);
  { KernelReceiver rec(KernelReg("KrTestDeferred", kEngineHostCpu).Fn(DoubleKernel)); }
  r.SetDeferred(false);
  EXPECT_EQ(r.Find("KrTestDeferred", kEngineHostCpu), nullptr);
  std::vector<KernelDef> q = r.TakeDeferred();
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0].op_type, "KrTestDeferred");
  ASSERT_TRUE(r.Register(std::move(q[0])).ok());
  const KernelDef* def = r.Find("KrTestDeferred", kEngineHostCpu);
  ASSERT_NE(def, nullptr);
  EXPECT_TRUE(r.Unregister("KrTestDeferred", kEngineHostCpu));
  EXPECT_EQ(r.Find("KrTestDeferred", kEngineHostCpu), nullptr);
  EXPECT_EQ(def->op_type, "KrTestDeferred");  // still valid
  EXPECT_TRUE(r.TakeDeferred().empty());
}

}  // namespace
}  // namespace ge
