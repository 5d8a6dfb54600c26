// ops/compute/conv/conv_post_ops.h
//
// The node attributes by which a convolution (Conv, ConvTranspose) on the
// compute engine carries an activation fused into it, applied by oneDNN as
// an eltwise post-op on the output before it is stored:
//
//   _fused_activation        string: the ONNX op type of the activation
//                            ("Relu", "LeakyRelu", "Elu", "Sigmoid", "Tanh",
//                            "Clip", "HardSigmoid", "HardSwish", "Softplus");
//                            absent or "" means none.
//   _fused_activation_alpha  float: the activation's first parameter: alpha
//                            of LeakyRelu / Elu / HardSigmoid, the lower
//                            bound of Clip (the value of its `min` input).
//   _fused_activation_beta   float: the second parameter: beta of
//                            HardSigmoid, the upper bound of Clip (`max`).
//   Absent parameters take the ONNX defaults (LeakyRelu 0.01, Elu 1,
//   HardSigmoid 0.2 / 0.5, Clip -inf / +inf).
//
//   _fused_sum               bool, reserved: Y = act(conv + B + Z) with the
//                            residual Z as a node input. Conv's definition
//                            has no such input (and a node's output buffer
//                            does not hold Z when it runs), so the kernels
//                            reject a node with it set.
//
// A fusion pass sets these on the convolution node that absorbs the
// activation; the host kernels ignore them, so a fused node must stay on
// the compute engine.
#ifndef OPS_COMPUTE_CONV_CONV_POST_OPS_H_
#define OPS_COMPUTE_CONV_CONV_POST_OPS_H_

#include <string>

#include "dnnl.hpp"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"

namespace ops {
namespace compute {
// The convolution's post-ops; the matmul family has its own set
// (matmul_post_ops.h) under the same attribute names.
namespace conv {

inline constexpr char kFusedActivation[] = "_fused_activation";
inline constexpr char kFusedActivationAlpha[] = "_fused_activation_alpha";
inline constexpr char kFusedActivationBeta[] = "_fused_activation_beta";
inline constexpr char kFusedSum[] = "_fused_sum";

// The fused activation of a node, with its parameters resolved.
struct FusedActivation {
  std::string op_type;  // empty: none
  float alpha = 0.0f;
  float beta = 0.0f;
  bool empty() const { return op_type.empty(); }
};

// Reads the attributes above. NotSupported for an activation without a
// oneDNN post-op, a Clip with min > max, or _fused_sum set; ParamInvalid
// for attributes of the wrong type.
ge::StatusOr<FusedActivation> ReadFusedActivation(const gert::ContextBase& ctx);

// Appends the activation's eltwise post-ops (none for an empty one).
ge::Status AppendPostOps(const FusedActivation& act, dnnl::post_ops* ops);

}  // namespace conv
}  // namespace compute
}  // namespace ops

#endif  // OPS_COMPUTE_CONV_CONV_POST_OPS_H_
