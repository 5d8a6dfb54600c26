// graph/inc/graph/utils/node_utils.h
//
// NodeUtils: stateless helpers on nodes (GE's NodeUtils): neighbour lists,
// moving edges, growing / shrinking the anchors together with the OpDesc,
// subgraph plumbing (parent inputs of subgraph DATA nodes, binding a subgraph
// to a node), anchor statuses.
//
// Example
//   ASSIGN_OR_RETURN(NodePtr producer, NodeUtils::GetParentInput(*data_in_subgraph));
//   RETURN_IF_ERROR(NodeUtils::SetSubgraph(*if_node, 0, then_graph));
#ifndef GRAPH_INC_GRAPH_UTILS_NODE_UTILS_H_
#define GRAPH_INC_GRAPH_UTILS_NODE_UTILS_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "graph/inc/graph/graph_fwd.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class NodeUtils {
 public:
  // Neighbour lists (see Node for the order). A null node gives an empty list.
  static std::vector<NodePtr> GetInDataNodes(const NodePtr& node);
  static std::vector<NodePtr> GetOutDataNodes(const NodePtr& node);
  static std::vector<NodePtr> GetInControlNodes(const NodePtr& node);
  static std::vector<NodePtr> GetOutControlNodes(const NodePtr& node);

  // Moves every output edge (data, data -> control, control) of `origin` to
  // the same-index anchor of `new_node`; the consumers keep their position
  // among their peers. Both nodes need the same number of outputs
  // (ParamInvalid otherwise, nothing changed).
  static Status MoveOutputEdges(const NodePtr& origin, const NodePtr& new_node);

  // Grows the node to `num` inputs: default input descs (named
  // "__input<index>") and anchors are appended. A no-op when it has as many.
  static Status AppendInputAnchor(const NodePtr& node, uint32_t num);
  // Shrinks the node to `num` inputs: the extra anchors are unlinked and
  // retired and their descs removed.
  static Status RemoveInputAnchor(const NodePtr& node, uint32_t num);
  static Status AppendOutputAnchor(const NodePtr& node, uint32_t num);
  static Status RemoveOutputAnchor(const NodePtr& node, uint32_t num);

  // Unlinks every anchor of the node.
  static void UnlinkAll(const Node& node);

  // For a DATA node of a subgraph: the node feeding the parent node's input
  // ATTR_NAME_PARENT_NODE_INDEX. Errors name what is missing: not a DATA
  // node (ParamInvalid), no parent node or attribute (NotFound), index out of
  // range (OutOfRange), parent input unlinked (NotFound).
  static StatusOr<NodePtr> GetParentInput(const Node& data_node);
  static StatusOr<NodePtr> GetParentInput(const NodePtr& data_node);
  static StatusOr<std::pair<NodePtr, OutDataAnchorPtr>> GetParentInputAndAnchor(
      const Node& data_node);

  // The subgraph bound to subgraph slot `index` of the node; nullptr if none.
  static ComputeGraphPtr GetSubgraph(const Node& node, uint32_t index);
  // Binds `subgraph` to slot `index` (which must exist, see
  // OpDesc::AddSubgraphName): sets the instance name to the subgraph's name,
  // its parent graph / node, and registers it at the root graph (replacing
  // a previously bound subgraph of that slot).
  static Status SetSubgraph(Node& node, uint32_t index, const ComputeGraphPtr& subgraph);

  // Const / Constant node.
  static bool IsConst(const Node& node);
  // Sets every data anchor's status: inputs ANCHOR_CONST when fed by a
  // constant, ANCHOR_DATA when fed otherwise, ANCHOR_SUSPEND when unlinked;
  // outputs ANCHOR_DATA when linked, else ANCHOR_SUSPEND.
  static void SetAllAnchorStatus(Node& node);
  // True when every linked data anchor has a status other than
  // ANCHOR_SUSPEND.
  static bool IsAnchorStatusSet(const Node& node);
};

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_UTILS_NODE_UTILS_H_
