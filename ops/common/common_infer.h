// ops/common/common_infer.h
//
// Infer functions many ops share, usable in REG_OP's .InferShape /
// .InferDataType: InferSameAsInput0 (shape and dtype of input 0),
// InferShapeSameAsInput0 (shape only), InferBroadcast (the broadcast of all
// present inputs). Each copies or broadcasts the input shape ranges too.
// Errors name the node (ctx.Error).
//
// Example
//   REG_OP(Relu).Input("x", ...).Output("y", ...).InferShape(ops::InferSameAsInput0);
#ifndef OPS_COMMON_COMMON_INFER_H_
#define OPS_COMMON_COMMON_INFER_H_

#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"

namespace ops {

// Every output gets input 0's shape and dtype (usable as InferShape and as
// InferDataType).
ge::Status InferSameAsInput0(gert::InferShapeContext& ctx);
// Every output gets input 0's shape; dtypes are left alone (for ops whose
// InferDataType sets another type, e.g. IsNaN -> BOOL).
ge::Status InferShapeSameAsInput0(gert::InferShapeContext& ctx);
// Every output's shape is the broadcast of all present inputs; the error
// names the node, the input index and the shapes. Absent (optional) inputs
// are skipped.
ge::Status InferBroadcast(gert::InferShapeContext& ctx);

}  // namespace ops

#endif  // OPS_COMMON_COMMON_INFER_H_
