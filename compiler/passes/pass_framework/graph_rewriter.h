// compiler/passes/pass_framework/graph_rewriter.h
//
// GraphRewriter: the one API through which passes change a graph (STYLE 9,
// MLIR's PatternRewriter). Every edit validates first, then changes the
// graph, then tells a RewriteListener which nodes it added, changed or
// removed. Inside a node pass the listener is the pass's re-pass
// bookkeeping (node_pass.h), so the GEPass driver re-visits every node whose
// inputs or outputs were touched without the pass having to remember to call
// AddRePassNode.
//
// Scope: a rewriter works on one graph (graph()); every node it is given
// must be a direct node of that graph (ParamInvalid otherwise, which also
// rules out links across graphs).
//
// Edits and what they report (added A / changed C / removed R):
//   AddNode(op) / AddNodeAfter(anchor, op)     A: the new node.
//   LinkData(src, dst) / UnlinkData(dst) / ReplaceInput(dst, new_src)
//   LinkControl(src, dst) / UnlinkControl(src, dst)
//                                              C: both ends (old producer too).
//   ReplaceAllUsesWith(from, to)   every consumer of output `from` (data and
//       data -> control links) and every graph-output entry of it moves to
//       `to`, at the same position among the consumer's peers. Consumers
//       owned by `to`'s node keep `from` (so "insert n after x" is
//       LinkData(x, n:0) + ReplaceAllUsesWith(x, n:0)). C: consumers, both
//       owners.
//   InsertNodeBetween(src, dst, node, in, out)   src -> dst becomes
//       src -> node:in, node:out -> dst (peer positions kept). C: all three.
//   MoveOutControlEdges(from, to) / CopyInControlEdges(from, to)
//                                              C: from, to and the peers.
//   RemoveNode(node[, io_map])  removal with bypass: for every output i
//       with io_map[i] = j >= 0 the consumers of output i (data and data ->
//       control) are fed by the producer of input j instead, and graph-output
//       entries (node, i) become that producer's output. Without io_map every
//       output maps to the first input that has a data producer (GE). An
//       output with consumers and no bypass input is ParamInvalid (nothing
//       changed). Ordering is kept where it can matter: every control
//       predecessor of the node gets a control edge to every consumer of the
//       node, and every data producer gets a control edge to every control
//       consumer (data -> data pairs need none: data flows through the
//       bypass). Pairs already linked or now connected by data get no edge.
//       C: producers and consumers; R: the node.
//   RemoveDeadNode(node)   the node must have no consumers (data, control)
//       and no graph-output entry (ParamInvalid naming them otherwise); its
//       inputs are unlinked. C: its producers; R: the node.
//   ReplaceNode(old, new)   new (already in the graph, inputs wired by the
//       caller, at least as many outputs, not a consumer of old) takes over
//       every output edge, out-control edge and graph-output entry of old and
//       gets old's control predecessors; old is then removed as dead.
//       C: new and the moved consumers; R: old.
//   UpdateInputDesc / UpdateOutputDesc / SetAttr   OpDesc edits. C: the node.
//   MarkChanged(node)   for any other edit the rewriter cannot see.
// Removing a node also removes its subgraphs (recursively) from the root
// graph, and, unless set_remove_orphaned_consts(false), every Const /
// Constant producer left with no consumer and no graph-output entry (the
// seed's RemoveNode rule); those are reported removed too.
//
// Example (inside BaseNodePass::RunImpl)
//   RETURN_IF_ERROR(rewriter().RemoveNode(identity));          // bypass
//   ASSIGN_OR_RETURN(NodePtr cast, rewriter().AddNodeAfter(x, cast_op));
//   RETURN_IF_ERROR(rewriter().LinkData(x->GetOutDataAnchor(0), cast->GetInDataAnchor(0)));
//   RETURN_IF_ERROR(rewriter().ReplaceAllUsesWith(x->GetOutDataAnchor(0),
//                                                 cast->GetOutDataAnchor(0)));
#ifndef COMPILER_PASSES_PASS_FRAMEWORK_GRAPH_REWRITER_H_
#define COMPILER_PASSES_PASS_FRAMEWORK_GRAPH_REWRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/graph_fwd.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// Receives what a GraphRewriter did. A node may be reported several times.
class RewriteListener {
 public:
  virtual ~RewriteListener() = default;
  virtual void OnNodeAdded(const NodePtr& node) = 0;
  // Its edges, desc or attributes changed.
  virtual void OnNodeChanged(const NodePtr& node) = 0;
  // It left the graph (it stays alive while referenced).
  virtual void OnNodeRemoved(const NodePtr& node) = 0;
};

class GraphRewriter {
 public:
  // listener may be null (then only changed() and the counters record).
  explicit GraphRewriter(ComputeGraphPtr graph, RewriteListener* listener = nullptr);
  GraphRewriter(const GraphRewriter&) = delete;
  GraphRewriter& operator=(const GraphRewriter&) = delete;

  const ComputeGraphPtr& graph() const { return graph_; }
  // True once any edit succeeded.
  bool changed() const { return changed_; }
  int64_t nodes_added() const { return nodes_added_; }
  int64_t nodes_removed() const { return nodes_removed_; }
  void set_remove_orphaned_consts(bool on) { remove_orphaned_consts_ = on; }

  // ---- nodes
  StatusOr<NodePtr> AddNode(const OpDescPtr& op_desc);
  // Placed right after `anchor` in the node list (keeps the list close to a
  // topological order).
  StatusOr<NodePtr> AddNodeAfter(const NodePtr& anchor, const OpDescPtr& op_desc);
  Status RemoveNode(const NodePtr& node);
  Status RemoveNode(const NodePtr& node, const std::vector<int32_t>& io_map);
  Status RemoveDeadNode(const NodePtr& node);
  Status ReplaceNode(const NodePtr& old_node, const NodePtr& new_node);

  // ---- edges
  Status LinkData(const OutDataAnchorPtr& src, const InDataAnchorPtr& dst);
  Status LinkData(const NodePtr& src, int32_t out_index, const NodePtr& dst, int32_t in_index);
  // Unlinks whatever feeds dst (a no-op when unlinked).
  Status UnlinkData(const InDataAnchorPtr& dst);
  // dst must be linked; its producer becomes new_src.
  Status ReplaceInput(const InDataAnchorPtr& dst, const OutDataAnchorPtr& new_src);
  // A no-op when already linked.
  Status LinkControl(const NodePtr& src, const NodePtr& dst);
  // NotFound when not linked.
  Status UnlinkControl(const NodePtr& src, const NodePtr& dst);
  Status ReplaceAllUsesWith(const OutDataAnchorPtr& from, const OutDataAnchorPtr& to);
  Status InsertNodeBetween(const OutDataAnchorPtr& src, const InDataAnchorPtr& dst,
                           const NodePtr& node, int32_t in_index = 0, int32_t out_index = 0);
  // Every out-control successor of `from` becomes one of `to` (skipping `to`
  // itself and successors `to` already has).
  Status MoveOutControlEdges(const NodePtr& from, const NodePtr& to);
  // `to` gets every control predecessor of `from` it does not have yet
  // (skipping `to` itself).
  Status CopyInControlEdges(const NodePtr& from, const NodePtr& to);

  // ---- descs and attributes (errors as OpDesc's: OutOfRange index, ...)
  Status UpdateInputDesc(const NodePtr& node, uint32_t index, const GeTensorDesc& desc);
  Status UpdateOutputDesc(const NodePtr& node, uint32_t index, const GeTensorDesc& desc);
  Status SetAttr(const NodePtr& node, const std::string& name, AttrValue value);

  void MarkChanged(const NodePtr& node);

 private:
  Status CheckInGraph(const Node* node, const char* what) const;
  Status CheckAnchorInGraph(const Anchor* anchor, const char* what) const;
  void Added(const NodePtr& node);
  void Changed(Node* node);
  void Removed(const NodePtr& node);
  // Unlinks and erases `node` (no bypass), its subgraphs and orphaned consts.
  Status EraseNode(const NodePtr& node);
  Status RemoveSubgraphsOf(const Node& node);
  Status RemoveOrphanedConsts(const std::vector<NodePtr>& producers);

  ComputeGraphPtr graph_;
  RewriteListener* listener_;
  bool changed_ = false;
  bool remove_orphaned_consts_ = true;
  int64_t nodes_added_ = 0;
  int64_t nodes_removed_ = 0;
};

}  // namespace ge

#endif  // COMPILER_PASSES_PASS_FRAMEWORK_GRAPH_REWRITER_H_
