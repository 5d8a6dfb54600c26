// ops/common/node_status.h
//
// WithNode(ctx, status): `status` with "node <name> (<type>): " prepended
// (code kept; OK stays OK), for helpers that return messages without the
// node (axes.h, tensor_values.h, ...) called from an op function.
//
// Example
//   RETURN_IF_ERROR(ops::WithNode(ctx, ops::CheckTensorData(*t)));
#ifndef OPS_COMMON_NODE_STATUS_H_
#define OPS_COMMON_NODE_STATUS_H_

#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"

namespace ops {

// `status` with "node <name> (<type>): " prepended (code kept); OK stays OK.
inline ge::Status WithNode(const gert::ContextBase& ctx, const ge::Status& status) {
  if (status.ok()) return status;
  return ge::Annotate(status, "node ", ctx.GetNodeName(), " (", ctx.GetNodeType(), "): ");
}

}  // namespace ops

#endif  // OPS_COMMON_NODE_STATUS_H_
