// ops/compute/matmul/matmul_post_ops.cc
#include "ops/compute/matmul/matmul_post_ops.h"

#include <cmath>
#include <limits>
#include <string>

#include "ops/compute/common/dnnl_common.h"

namespace ops {
namespace compute {

gert::ContextBase AttrContext(const ge::OpDesc& op) {
  gert::ContextBase c;
  c.SetNode(op.GetName(), op.GetType());
  c.SetAttrHolder(&op);
  return c;
}

namespace {

// A Status of another code as NotSupported with the same message: the
// placement reads any failure of a Supports function as "not here".
ge::Status AsNotSupported(const ge::Status& st) {
  if (st.ok() || ge::GetErrorCode(st) == ge::ErrorCode::kNotSupported) return st;
  return ge::NotSupported(st.message());
}

ge::StatusOr<FusedActivation> Read(const gert::ContextBase& attrs) {
  using Kind = FusedActivation::Kind;
  FusedActivation act;
  ASSIGN_OR_RETURN(std::string name, attrs.GetStrOr(kFusedActivation, ""));
  if (name.empty()) return act;
  if (name == "Relu") {
    act.kind = Kind::kRelu;
  } else if (name == "LeakyRelu") {
    act.kind = Kind::kLeakyRelu;
    ASSIGN_OR_RETURN(act.alpha, attrs.GetFloatOr(kFusedActivationAlpha, 0.01f));
  } else if (name == "Gelu") {
    ASSIGN_OR_RETURN(std::string approx, attrs.GetStrOr(kFusedActivationApproximate, "none"));
    if (approx == "none") {
      act.kind = Kind::kGelu;
    } else if (approx == "tanh") {
      act.kind = Kind::kGeluTanh;
    } else {
      return ge::NotSupported("attribute ", kFusedActivationApproximate, " \"", approx,
                              "\" is neither \"none\" nor \"tanh\"");
    }
  } else if (name == "Sigmoid") {
    act.kind = Kind::kSigmoid;
  } else if (name == "Tanh") {
    act.kind = Kind::kTanh;
  } else if (name == "Clip") {
    act.kind = Kind::kClip;
    ASSIGN_OR_RETURN(act.alpha, attrs.GetFloatOr(kFusedActivationAlpha,
                                                 -std::numeric_limits<float>::infinity()));
    ASSIGN_OR_RETURN(act.beta, attrs.GetFloatOr(kFusedActivationBeta,
                                                std::numeric_limits<float>::infinity()));
    // ONNX's min(max(x, lo), hi) gives hi everywhere when lo > hi; oneDNN's
    // clip does not.
    if (!(act.alpha <= act.beta)) {
      return ge::NotSupported("fused Clip needs min <= max, got min ", act.alpha, " and max ",
                              act.beta);
    }
  } else {
    return ge::NotSupported("attribute ", kFusedActivation, " \"", name,
                            "\" is not an activation the kernel applies (Relu, LeakyRelu, Gelu, "
                            "Sigmoid, Tanh, Clip)");
  }
  return act;
}

}  // namespace

ge::StatusOr<FusedActivation> ReadFusedActivation(const gert::ContextBase& attrs) {
  ge::StatusOr<FusedActivation> act = Read(attrs);
  if (!act.ok()) return AsNotSupported(act.status());
  return act;
}

ge::StatusOr<FusedActivation> ReadFusedActivation(const ge::OpDesc& op) {
  return ReadFusedActivation(AttrContext(op));
}

ge::Status AppendFusedActivation(const FusedActivation& act, dnnl::post_ops* po) {
  using Kind = FusedActivation::Kind;
  using alg = dnnl::algorithm;
  alg a = alg::eltwise_relu;
  float alpha = 0.0f, beta = 0.0f;
  switch (act.kind) {
    case Kind::kNone:
      return ge::OkStatus();
    case Kind::kRelu:
      break;
    case Kind::kLeakyRelu:
      alpha = act.alpha;
      break;
    case Kind::kGelu:
      a = alg::eltwise_gelu_erf;
      break;
    case Kind::kGeluTanh:
      a = alg::eltwise_gelu_tanh;
      break;
    case Kind::kSigmoid:
      a = alg::eltwise_logistic;
      break;
    case Kind::kTanh:
      a = alg::eltwise_tanh;
      break;
    case Kind::kClip:
      a = alg::eltwise_clip_v2;
      alpha = act.alpha;
      beta = act.beta;
      break;
  }
  return DnnlCall("fused activation post-op", [&] { po->append_eltwise(1.0f, a, alpha, beta); });
}

}  // namespace compute
}  // namespace ops
