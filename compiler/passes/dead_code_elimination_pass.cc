// compiler/passes/dead_code_elimination_pass.cc
#include "compiler/passes/dead_code_elimination_pass.h"

#include <vector>

#include "absl/container/flat_hash_set.h"
#include "compiler/passes/pass_framework/graph_rewriter.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "compiler/passes/pass_utils.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_types.h"

namespace ge {

StatusOr<bool> DeadCodeEliminationPass::RunImpl(const ComputeGraphPtr& graph) {
  ASSIGN_OR_RETURN(bool changed, RunOnGraph(graph));
  if (graph->GetParentGraph() != nullptr) return changed;
  // Subgraphs of removed nodes are unregistered as they go: take a snapshot
  // and skip those no longer registered.
  const std::vector<ComputeGraphPtr> subgraphs = graph->GetAllSubgraphs();
  for (const ComputeGraphPtr& sub : subgraphs) {
    if (graph->GetSubgraph(sub->GetName()) != sub) continue;
    ASSIGN_OR_RETURN(bool sub_changed, RunOnGraph(sub));
    changed = changed || sub_changed;
  }
  return changed;
}

StatusOr<bool> DeadCodeEliminationPass::RunOnGraph(const ComputeGraphPtr& graph) {
  std::vector<Node*> stack;
  bool has_outputs = false;
  for (const NodePtr& node : graph->DirectNodes()) {
    const bool output = node->GetType() == NETOUTPUT;
    has_outputs = has_outputs || output;
    if (output || IsDataLikeType(node->GetType()) || HasSideEffects(*node)) {
      stack.push_back(node.get());
    }
  }
  for (const auto& entry : graph->GetGraphOutNodesInfo()) {
    has_outputs = true;
    stack.push_back(entry.first.get());
  }
  if (!has_outputs) return false;

  absl::flat_hash_set<const Node*> live;
  while (!stack.empty()) {
    Node* node = stack.back();
    stack.pop_back();
    if (!live.insert(node).second) continue;
    for (const AnchorPtr& anchor : node->GetAllInAnchors()) {
      for (Anchor* peer : anchor->PeerAnchors()) {
        Node* producer = peer->GetOwnerNodeBarePtr();
        if (graph->HasNode(producer) && !live.contains(producer)) stack.push_back(producer);
      }
    }
  }
  if (live.size() == graph->GetDirectNodesSize()) return false;

  ASSIGN_OR_RETURN(std::vector<NodePtr> order, StableTopologicalOrder(*graph));
  GraphRewriter rewriter(graph);
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const NodePtr& node = *it;
    // Constants may already have gone with their last consumer.
    if (live.contains(node.get()) || !graph->HasNode(node)) continue;
    RETURN_IF_ERROR(rewriter.RemoveDeadNode(node));
  }
  return rewriter.changed();
}

}  // namespace ge
