// ops/compute/conv/conv_post_ops.cc
#include "ops/compute/conv/conv_post_ops.h"

#include <limits>

#include "ops/compute/common/dnnl_common.h"

namespace ops {
namespace compute {
namespace conv {

ge::StatusOr<FusedActivation> ReadFusedActivation(const gert::ContextBase& ctx) {
  ASSIGN_OR_RETURN(bool sum, ctx.GetBoolOr(kFusedSum, false));
  if (sum) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "attribute ", kFusedSum,
                             " needs the residual as a node input, which the op does not have");
  }
  FusedActivation act;
  ASSIGN_OR_RETURN(act.op_type, ctx.GetStrOr(kFusedActivation, ""));
  if (act.empty()) return act;
  constexpr float kInf = std::numeric_limits<float>::infinity();
  float alpha = 0.0f, beta = 0.0f;
  const std::string& t = act.op_type;
  if (t == "Relu" || t == "Sigmoid" || t == "Tanh" || t == "HardSwish" || t == "Softplus") {
    // No parameters.
  } else if (t == "LeakyRelu") {
    alpha = 0.01f;
  } else if (t == "Elu") {
    alpha = 1.0f;
  } else if (t == "HardSigmoid") {
    alpha = 0.2f;
    beta = 0.5f;
  } else if (t == "Clip") {
    alpha = -kInf;
    beta = kInf;
  } else {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "attribute ", kFusedActivation, " \"", t,
                             "\" has no oneDNN post-op");
  }
  ASSIGN_OR_RETURN(act.alpha, ctx.GetFloatOr(kFusedActivationAlpha, alpha));
  ASSIGN_OR_RETURN(act.beta, ctx.GetFloatOr(kFusedActivationBeta, beta));
  if (t == "Clip" && !(act.alpha <= act.beta)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "fused Clip bounds [", act.alpha, ", ",
                             act.beta, "] are not ordered");
  }
  return act;
}

ge::Status AppendPostOps(const FusedActivation& act, dnnl::post_ops* ops) {
  if (act.empty()) return ge::OkStatus();
  using alg = dnnl::algorithm;
  // Up to two eltwise steps: {algorithm, alpha, beta}.
  struct Step {
    alg a;
    float alpha, beta;
  };
  Step steps[2];
  int n = 1;
  const std::string& t = act.op_type;
  if (t == "Relu") {
    steps[0] = {alg::eltwise_relu, 0.0f, 0.0f};
  } else if (t == "LeakyRelu") {
    steps[0] = {alg::eltwise_relu, act.alpha, 0.0f};
  } else if (t == "Elu") {
    steps[0] = {alg::eltwise_elu, act.alpha, 0.0f};
  } else if (t == "Sigmoid") {
    steps[0] = {alg::eltwise_logistic, 0.0f, 0.0f};
  } else if (t == "Tanh") {
    steps[0] = {alg::eltwise_tanh, 0.0f, 0.0f};
  } else if (t == "Clip") {
    steps[0] = {alg::eltwise_clip_v2, act.alpha, act.beta};
  } else if (t == "HardSigmoid") {
    // max(0, min(1, alpha * x + beta)).
    steps[0] = {alg::eltwise_linear, act.alpha, act.beta};
    steps[1] = {alg::eltwise_clip_v2, 0.0f, 1.0f};
    n = 2;
  } else if (t == "HardSwish") {
    // x * max(0, min(1, x / 6 + 1 / 2)), oneDNN's definition.
    steps[0] = {alg::eltwise_hardswish, 0.0f, 0.0f};
  } else if (t == "Softplus") {
    steps[0] = {alg::eltwise_soft_relu, 0.0f, 0.0f};
  } else {
    return ge::NotSupported("fused activation \"", t, "\" has no oneDNN post-op");
  }
  return DnnlCall("fused activation", [&] {
    for (int i = 0; i < n; ++i)
      ops->append_eltwise(1.0f, steps[i].a, steps[i].alpha, steps[i].beta);
  });
}

}  // namespace conv
}  // namespace compute
}  // namespace ops
