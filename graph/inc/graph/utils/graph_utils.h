// graph/inc/graph/utils/graph_utils.h
//
// GraphUtils: stateless graph-level edits (GE's GraphUtils). Every edit
// validates first and then changes the graph, so a failed call leaves it as
// it was; errors name the anchors / nodes involved.
//
//   AddEdge / RemoveEdge        link / unlink two anchors (any allowed kind
//                               pair, see anchor.h).
//   ReplaceEdgeSrc(src, dst, new_src)   src -> dst becomes new_src -> dst;
//   ReplaceEdgeDst(src, dst, new_dst)   src -> dst becomes src -> new_dst;
//                               the unchanged end keeps its peer position.
//   InsertNodeBetweenDataAnchors(src, dst, node)  src -> node:0, node:0 -> dst.
//   InsertNodeAfter(src, dsts, node, in, out)     src -> node:in and
//                               node:out -> each of dsts (consumers of src).
//   InsertNodeBefore(dst, node, in, out)          src(dst) -> node:in,
//                               node:out -> dst.
//   IsolateNode(node, io_map)   see ComputeGraph::IsolateNode.
//   CopyGraph(graph)            deep copy: nodes with copied OpDescs (ids
//                               kept), every edge with its peer order, input
//                               and output nodes, attributes (graph-valued
//                               attributes deep-copied too), every subgraph
//                               with its parent graph / node and name. The
//                               copy shares nothing mutable with the source.
//   Copy/MoveIn/OutCtrlEdges    duplicate or move control dependencies.
//
// Example
//   RETURN_IF_ERROR(GraphUtils::AddEdge(a->GetOutDataAnchor(0), b->GetInDataAnchor(0)));
//   ASSIGN_OR_RETURN(ComputeGraphPtr copy, GraphUtils::CopyGraph(graph));
#ifndef GRAPH_INC_GRAPH_UTILS_GRAPH_UTILS_H_
#define GRAPH_INC_GRAPH_UTILS_GRAPH_UTILS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/graph_fwd.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class GraphUtils {
 public:
  // ---- edges
  static Status AddEdge(const AnchorPtr& src, const AnchorPtr& dst);
  static Status AddEdge(const OutDataAnchorPtr& src, const InDataAnchorPtr& dst);
  static Status AddEdge(const OutDataAnchorPtr& src, const InControlAnchorPtr& dst);
  static Status AddEdge(const OutControlAnchorPtr& src, const InControlAnchorPtr& dst);
  static Status AddEdge(const OutControlAnchorPtr& src, const InDataAnchorPtr& dst);
  static Status RemoveEdge(const AnchorPtr& src, const AnchorPtr& dst);
  static Status RemoveEdge(const OutDataAnchorPtr& src, const InDataAnchorPtr& dst);
  static Status RemoveEdge(const OutDataAnchorPtr& src, const InControlAnchorPtr& dst);
  static Status RemoveEdge(const OutControlAnchorPtr& src, const InControlAnchorPtr& dst);
  static Status RemoveEdge(const OutControlAnchorPtr& src, const InDataAnchorPtr& dst);
  static Status ReplaceEdgeSrc(const AnchorPtr& src, const AnchorPtr& dst,
                               const AnchorPtr& new_src);
  static Status ReplaceEdgeDst(const AnchorPtr& src, const AnchorPtr& dst,
                               const AnchorPtr& new_dst);

  // ---- inserting nodes
  static Status InsertNodeBetweenDataAnchors(const OutDataAnchorPtr& src,
                                             const InDataAnchorPtr& dst, const NodePtr& node);
  // dsts empty: every data consumer of src.
  static Status InsertNodeAfter(const OutDataAnchorPtr& src,
                                const std::vector<InDataAnchorPtr>& dsts, const NodePtr& node,
                                uint32_t input_index = 0, uint32_t output_index = 0);
  static Status InsertNodeBefore(const InDataAnchorPtr& dst, const NodePtr& node,
                                 uint32_t input_index = 0, uint32_t output_index = 0);

  // ---- removing nodes
  static Status IsolateNode(const NodePtr& node, const std::vector<int32_t>& io_map);
  // For a node with exactly one input and one output: bypass it.
  static Status IsolateNodeOneIO(const NodePtr& node);
  static Status RemoveNodeWithoutRelink(const ComputeGraphPtr& graph, const NodePtr& node);

  // ---- control edges
  // Adds to dst every control predecessor of src it does not have yet.
  static Status CopyInCtrlEdges(const NodePtr& src, const NodePtr& dst);
  // CopyInCtrlEdges, then removes them from src.
  static Status MoveInCtrlEdges(const NodePtr& src, const NodePtr& dst);
  static Status CopyOutCtrlEdges(const NodePtr& src, const NodePtr& dst);
  static Status MoveOutCtrlEdges(const NodePtr& src, const NodePtr& dst);

  // ---- whole graphs
  // Deep copy; the copy is named `name` (the source's name when empty).
  static StatusOr<ComputeGraphPtr> CopyGraph(const ComputeGraphPtr& graph,
                                             const std::string& name = "");
  // First node named `name` in GetAllNodes() order; nullptr if none.
  static NodePtr FindNodeFromAllNodes(const ComputeGraphPtr& graph, const std::string& name);
  // The root of the graph tree (the graph itself when it has no parent).
  static ComputeGraphPtr FindRootGraph(const ComputeGraphPtr& graph);
};

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_UTILS_GRAPH_UTILS_H_
