// graph/inc/graph/utils/anchor_utils.h
//
// AnchorUtils: stateless helpers on anchors (GE's AnchorUtils). Status is a
// property of data anchors only; asking a control anchor for it is
// ParamInvalid, as is a null anchor.
//
// Example
//   RETURN_IF_ERROR(AnchorUtils::SetStatus(in_anchor, ANCHOR_CONST));
//   ASSIGN_OR_RETURN(AnchorStatus s, AnchorUtils::GetStatus(in_anchor));
#ifndef GRAPH_INC_GRAPH_UTILS_ANCHOR_UTILS_H_
#define GRAPH_INC_GRAPH_UTILS_ANCHOR_UTILS_H_

#include <cstdint>

#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class AnchorUtils {
 public:
  static StatusOr<AnchorStatus> GetStatus(const AnchorPtr& data_anchor);
  // ParamInvalid for a value outside AnchorStatus.
  static Status SetStatus(const AnchorPtr& data_anchor, AnchorStatus status);
  // -1 for control anchors.
  static StatusOr<int32_t> GetIdx(const AnchorPtr& anchor);
  // True when the anchor has a control peer or is a control anchor with
  // peers.
  static bool HasControlEdge(const AnchorPtr& anchor);
  // True when src -> dst is a control dependency (either end a control
  // anchor) and they are linked.
  static bool IsControlEdge(const AnchorPtr& src, const AnchorPtr& dst);
};

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_UTILS_ANCHOR_UTILS_H_
