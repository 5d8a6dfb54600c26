// ops/compute/matmul/matmul_post_ops.h
//
// The activation a fusion pass folds into a MatMul or Gemm node, written as
// node attributes, and the oneDNN eltwise post-op that applies it to the
// product (after Gemm's alpha and C term, so Y = act(alpha * A x B + beta * C)):
//
//   _fused_activation              string: "" or absent (none), "Relu",
//                                  "LeakyRelu", "Gelu", "Sigmoid", "Tanh", "Clip"
//   _fused_activation_alpha        float: LeakyRelu's alpha (default 0.01),
//                                  Clip's min (default -inf)
//   _fused_activation_beta         float: Clip's max (default +inf)
//   _fused_activation_approximate  string: Gelu's approximate, "none"
//                                  (default, erf) or "tanh"
//
// Each activation means what the ONNX op of the same name means with those
// attributes (Clip's min / max inputs become alpha / beta). The first three
// names are the ones the convolution kernels read too
// (ops/compute/conv/conv_post_ops.h); _fused_activation_approximate is
// MatMul / Gemm's (BERT's tanh-approximated Gelu).
//
// Example
//   ASSIGN_OR_RETURN(FusedActivation act, ReadFusedActivation(ctx));
//   dnnl::post_ops po;
//   RETURN_IF_ERROR(AppendFusedActivation(act, &po));
#ifndef OPS_COMPUTE_MATMUL_MATMUL_POST_OPS_H_
#define OPS_COMPUTE_MATMUL_MATMUL_POST_OPS_H_

#include "dnnl.hpp"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"

namespace ops {
namespace compute {

inline constexpr char kFusedActivation[] = "_fused_activation";
inline constexpr char kFusedActivationAlpha[] = "_fused_activation_alpha";
inline constexpr char kFusedActivationBeta[] = "_fused_activation_beta";
inline constexpr char kFusedActivationApproximate[] = "_fused_activation_approximate";

struct FusedActivation {
  enum class Kind { kNone, kRelu, kLeakyRelu, kGelu, kGeluTanh, kSigmoid, kTanh, kClip };
  Kind kind = Kind::kNone;
  float alpha = 0.0f;  // LeakyRelu's slope, Clip's min
  float beta = 0.0f;   // Clip's max

  bool none() const { return kind == Kind::kNone; }
};

// The fused activation of a node's attributes; NotSupported naming the
// attribute for an unknown activation, a value oneDNN cannot apply exactly
// (Clip with min > max or a NaN bound) or an attribute of the wrong type.
ge::StatusOr<FusedActivation> ReadFusedActivation(const gert::ContextBase& attrs);
ge::StatusOr<FusedActivation> ReadFusedActivation(const ge::OpDesc& op);

// Appends the activation's eltwise post-op (nothing for kNone).
ge::Status AppendFusedActivation(const FusedActivation& act, dnnl::post_ops* po);

// A ContextBase reading `op`'s attributes, for Supports functions that share
// attribute parsing with Prepare.
gert::ContextBase AttrContext(const ge::OpDesc& op);

}  // namespace compute
}  // namespace ops

#endif  // OPS_COMPUTE_MATMUL_MATMUL_POST_OPS_H_
