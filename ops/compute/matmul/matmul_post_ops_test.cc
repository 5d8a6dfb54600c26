// ops/compute/matmul/matmul_post_ops_test.cc
//
// The fused activation of MatMul / Gemm against the reference made of the
// host kernels: the host MatMul (or Gemm), then the host kernel of the
// activation op on its output. The test replaces the host MatMul and Gemm
// kernels of the registry by that composition, so ComputeKernelTester
// compares the compute kernel with it as with any reference.
#include "ops/compute/matmul/matmul_post_ops.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "ops/compute/common/compute_kernel_tester.h"

namespace ops {
namespace compute {
namespace {

using testing::ComputeKernelTester;
using testing::RandomTensor;
using Dims = std::vector<int64_t>;

// The host kernels of MatMul and Gemm the composition runs first.
const ge::KernelDef* g_plain_kernel[2] = {nullptr, nullptr};

// The activation named by the node's attributes, by its host kernel, in place
// on output 0.
ge::Status ApplyReferenceActivation(gert::KernelContext& ctx) {
  using Kind = FusedActivation::Kind;
  ASSIGN_OR_RETURN(FusedActivation act, ReadFusedActivation(ctx));
  if (act.none()) return ge::OkStatus();
  gert::Tensor* y = ctx.GetOutputTensor(0);
  ASSIGN_OR_RETURN(gert::HostTensor x, gert::HostTensor::CopyFrom(*y));
  ge::NamedAttrs attrs;
  std::string type;
  std::vector<gert::HostTensor> bounds;
  switch (act.kind) {
    case Kind::kNone:
      return ge::OkStatus();
    case Kind::kRelu:
      type = "Relu";
      break;
    case Kind::kLeakyRelu:
      type = "LeakyRelu";
      RETURN_IF_ERROR(attrs.SetAttr("alpha", ge::AttrValue::CreateFrom<float>(act.alpha)));
      break;
    case Kind::kGelu:
    case Kind::kGeluTanh:
      type = "Gelu";
      RETURN_IF_ERROR(attrs.SetAttr("approximate", ge::AttrValue::CreateFrom<std::string>(
                                                       act.kind == Kind::kGelu ? "none" : "tanh")));
      break;
    case Kind::kSigmoid:
      type = "Sigmoid";
      break;
    case Kind::kTanh:
      type = "Tanh";
      break;
    case Kind::kClip:
      type = "Clip";
      for (float v : {act.alpha, act.beta}) {
        ASSIGN_OR_RETURN(gert::HostTensor t,
                         MakeHostTensorFromDoubles(y->GetDataType(), gert::Shape{}, {v}));
        bounds.push_back(std::move(t));
      }
      break;
  }
  std::vector<const gert::Tensor*> ins = {&x.tensor()};
  for (const gert::HostTensor& t : bounds) ins.push_back(&t.tensor());
  const ge::KernelDef* k = ge::FindKernel(type, ge::kEngineHostCpu);
  if (k == nullptr) return ge::NotFound("no host kernel for ", type);
  std::vector<gert::IrInstance> ir;
  for (size_t i = 0; i < ins.size(); ++i) ir.push_back({i, 1});
  gert::KernelRunContextBuilder b;
  b.Node("activation", type).Attrs(&attrs).Inputs(ins).Outputs({y}).IrInputs(ir);
  return k->shared_kernel()->Run(*b.Build());
}

template <int kIndex>
ge::Status FusedReference(gert::KernelContext& ctx) {
  RETURN_IF_ERROR(g_plain_kernel[kIndex]->shared_kernel()->Run(ctx));
  return ApplyReferenceActivation(ctx);
}

class FusedActivationTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const char* types[2] = {"MatMul", "Gemm"};
    const ge::KernelFn fns[2] = {FusedReference<0>, FusedReference<1>};
    for (int i = 0; i < 2; ++i) {
      if (g_plain_kernel[i] != nullptr) continue;
      g_plain_kernel[i] = ge::FindKernel(types[i], ge::kEngineHostCpu);
      ASSERT_NE(g_plain_kernel[i], nullptr);
      // The old definition stays allocated: the composition keeps using it.
      ASSERT_TRUE(ge::KernelRegistry::Instance().Unregister(types[i], ge::kEngineHostCpu));
      ge::KernelDef def;
      def.op_type = types[i];
      def.engine = ge::kEngineHostCpu;
      def.fn = fns[i];
      ASSERT_TRUE(ge::KernelRegistry::Instance().Register(std::move(def)).ok());
    }
  }
};

struct Activation {
  std::string name;
  bool has_alpha = false, has_beta = false;
  float alpha = 0, beta = 0;
  std::string approximate;  // Gelu only when non-empty
};

std::vector<Activation> AllActivations() {
  return {
      {"Relu"},
      {"LeakyRelu", true, false, 0.2f},
      {"LeakyRelu"},  // default alpha 0.01
      {"Gelu"},
      {"Gelu", false, false, 0, 0, "tanh"},
      {"Sigmoid"},
      {"Tanh"},
      {"Clip", true, true, -0.25f, 0.5f},
      {"Clip", false, true, 0, 0.75f},  // min defaults to -inf
      {"Clip", true, false, -0.5f},     // max defaults to +inf
  };
}

void SetActivation(ComputeKernelTester& t, const Activation& a) {
  t.Attr(kFusedActivation, a.name);
  if (a.has_alpha) t.Attr(kFusedActivationAlpha, a.alpha);
  if (a.has_beta) t.Attr(kFusedActivationBeta, a.beta);
  if (!a.approximate.empty()) t.Attr(kFusedActivationApproximate, a.approximate);
}

std::string Describe(const Activation& a, ge::DataType dt) {
  return a.name + (a.has_alpha ? " alpha " + std::to_string(a.alpha) : "") +
         (a.has_beta ? " beta " + std::to_string(a.beta) : "") + " " + a.approximate +
         (dt == ge::DT_BF16 ? " bf16" : " f32");
}

double Tol(ge::DataType dt) { return dt == ge::DT_BF16 ? 2e-2 : 1e-4; }

TEST_F(FusedActivationTest, MatMul) {
  for (ge::DataType dt : {ge::DT_FLOAT, ge::DT_BF16}) {
    for (const Activation& act : AllActivations()) {
      for (bool b_const : {false, true}) {
        for (auto [a, b] :
             std::vector<std::pair<Dims, Dims>>{{{7, 13}, {13, 9}}, {{2, 5, 16}, {2, 16, 3}}}) {
          ComputeKernelTester t("MatMul");
          SetActivation(t, act);
          t.Input(RandomTensor(dt, a, 1, -2, 2));
          if (b_const) {
            t.Const(RandomTensor(dt, b, 2));
          } else {
            t.Input(RandomTensor(dt, b, 2));
          }
          EXPECT_TRUE(t.MatchesReference(Tol(dt), Tol(dt), {1, 2}))
              << Describe(act, dt) << " B const " << b_const << " A rank " << a.size();
        }
      }
    }
  }
}

// Each way Gemm applies C, followed by the activation: the bias (alpha 1, a
// constant row), the binary post-op (alpha != 1, a full C), the sum post-op
// (an input C with beta != 1).
TEST_F(FusedActivationTest, GemmAfterTheCTerm) {
  struct CCase {
    float alpha, beta;
    Dims c;
    bool c_const;
  };
  const int64_t m = 9, k = 16, n = 11;
  const std::vector<CCase> cs = {{1, 1, {n}, true},
                                 {0.5f, 1.5f, {m, n}, true},
                                 {1, 0.5f, {m, n}, false},
                                 {2, 1, {1, n}, false}};
  for (ge::DataType dt : {ge::DT_FLOAT, ge::DT_BF16}) {
    for (const Activation& act : AllActivations()) {
      for (const CCase& c : cs) {
        ComputeKernelTester t("Gemm");
        SetActivation(t, act);
        t.Attr("alpha", c.alpha).Attr("beta", c.beta).Attr("transB", int64_t{1});
        t.Input(RandomTensor(dt, {m, k}, 3, -2, 2)).Const(RandomTensor(dt, {n, k}, 4));
        if (c.c_const) {
          t.Const(RandomTensor(dt, c.c, 5));
        } else {
          t.Input(RandomTensor(dt, c.c, 5));
        }
        EXPECT_TRUE(t.MatchesReference(Tol(dt), Tol(dt), {1, 2}))
            << Describe(act, dt) << " alpha " << c.alpha << " beta " << c.beta << " C rank "
            << c.c.size() << " const " << c.c_const;
      }
    }
  }
}

TEST(FusedActivationAttrTest, ReadsDefaultsAndRejects) {
  auto read = [](std::vector<std::pair<std::string, ge::AttrValue>> kv) {
    ge::NamedAttrs attrs;
    for (auto& [k, v] : kv) EXPECT_TRUE(attrs.SetAttr(k, v).ok());
    gert::ContextBase c;
    c.SetNode("n", "MatMul");
    c.SetAttrHolder(&attrs);
    return ReadFusedActivation(c);
  };
  auto str = [](const char* s) { return ge::AttrValue::CreateFrom<std::string>(s); };
  auto flt = [](float f) { return ge::AttrValue::CreateFrom<float>(f); };
  EXPECT_TRUE(read({})->none());
  EXPECT_TRUE(read({{kFusedActivation, str("")}})->none());
  ge::StatusOr<FusedActivation> leaky = read({{kFusedActivation, str("LeakyRelu")}});
  ASSERT_TRUE(leaky.ok());
  EXPECT_FLOAT_EQ(leaky->alpha, 0.01f);
  ge::StatusOr<FusedActivation> clip = read({{kFusedActivation, str("Clip")}});
  ASSERT_TRUE(clip.ok());
  EXPECT_EQ(clip->alpha, -std::numeric_limits<float>::infinity());
  EXPECT_EQ(clip->beta, std::numeric_limits<float>::infinity());

  ge::StatusOr<FusedActivation> bad = read({{kFusedActivation, str("Elu")}});
  EXPECT_EQ(ge::GetErrorCode(bad.status()), ge::ErrorCode::kNotSupported);
  EXPECT_NE(bad.status().message().find("Elu"), std::string::npos);
  bad = read({{kFusedActivation, str("Gelu")}, {kFusedActivationApproximate, str("erf")}});
  EXPECT_EQ(ge::GetErrorCode(bad.status()), ge::ErrorCode::kNotSupported);
  bad = read({{kFusedActivation, str("Clip")},
              {kFusedActivationAlpha, flt(1)},
              {kFusedActivationBeta, flt(0)}});
  EXPECT_EQ(ge::GetErrorCode(bad.status()), ge::ErrorCode::kNotSupported);
  bad = read({{kFusedActivation, str("Clip")}, {kFusedActivationAlpha, flt(std::nanf(""))}});
  EXPECT_EQ(ge::GetErrorCode(bad.status()), ge::ErrorCode::kNotSupported);
  // A wrong attribute type is NotSupported too (placement reads any failure
  // as "not on this engine").
  bad = read({{kFusedActivation, ge::AttrValue::CreateFrom<int64_t>(1)}});
  EXPECT_EQ(ge::GetErrorCode(bad.status()), ge::ErrorCode::kNotSupported);
}

}  // namespace
}  // namespace compute
}  // namespace ops
