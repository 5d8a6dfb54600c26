// compiler/passes/dead_code_elimination_pass.cc
#include "compiler/passes/dead_code_elimination_pass.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "compiler/passes/pass_framework/graph_rewriter.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "compiler/passes/pass_utils.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_types.h"

namespace ge {

StatusOr<bool> DeadCodeEliminationPass::RunImpl(const ComputeGraphPtr& graph) {
  // Unedited since a run that found nothing dead: nothing is dead.
  TopoOrderCache* cache = TopoOrderCache::Current();
  if (cache != nullptr && cache->HasFact(*graph, TopoOrderCache::Fact::kNoDeadCode)) return false;
  ASSIGN_OR_RETURN(bool changed, RunAllGraphs(graph));
  if (!changed && cache != nullptr) cache->SetFact(*graph, TopoOrderCache::Fact::kNoDeadCode);
  return changed;
}

StatusOr<bool> DeadCodeEliminationPass::RunAllGraphs(const ComputeGraphPtr& graph) {
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
  // The topological order is usually cached; its NodeIndex gives every node
  // a dense position, so liveness is a byte per node (no hashing).
  StatusOr<NodeOrder> topo = SharedTopologicalOrder(*graph);
  NodeOrder holder;
  if (topo.ok()) holder = *topo;
  if (holder == nullptr) {
    // A cycle only matters when something is dead (reported below).
    holder = std::make_shared<const std::vector<NodePtr>>(graph->GetDirectNode());
  }
  const std::vector<NodePtr>& order = *holder;
  if (topo.ok()) {
    // In a DAG every path along out-edges ends at a node without consumers;
    // when each such node is a root (output, input, side effect, graph
    // output), every node reaches a root: nothing is dead. This needs no
    // per-node bookkeeping, and the root test only runs for sinks.
    bool all_live = true;
    for (const NodePtr& node : order) {
      bool has_consumer = false;
      for (size_t i = 0; i < node->GetAllOutDataAnchorsSize() && !has_consumer; ++i) {
        for (const Anchor* peer :
             node->GetOutDataAnchorBarePtr(static_cast<int32_t>(i))->PeerAnchors()) {
          if (graph->HasNode(peer->GetOwnerNodeBarePtr())) {
            has_consumer = true;
            break;
          }
        }
      }
      for (const Anchor* peer : node->OutControlPeers()) {
        if (has_consumer) break;
        has_consumer = graph->HasNode(peer->GetOwnerNodeBarePtr());
      }
      if (has_consumer) continue;
      const std::string& type = node->GetOpDescBarePtr()->GetType();
      if (type == NETOUTPUT || IsDataLikeType(type) || HasSideEffects(*node)) continue;
      bool graph_output = false;
      for (const auto& entry : graph->GetGraphOutNodesInfo()) {
        graph_output = graph_output || entry.first.get() == node.get();
      }
      if (graph_output) continue;
      all_live = false;
      break;
    }
    if (all_live) {
      // (A graph without any output keeps everything, as below.)
      return false;
    }
  }
  const NodeIndex index(order);
  std::vector<uint8_t> live(order.size(), 0);
  std::vector<int64_t> stack;
  bool has_outputs = false;
  auto push = [&](const Node* n) {
    const int64_t i = index.Of(n);
    if (i >= 0 && live[static_cast<size_t>(i)] == 0) {
      live[static_cast<size_t>(i)] = 1;
      stack.push_back(i);
    }
  };
  for (const NodePtr& node : order) {
    const std::string& type = node->GetOpDescBarePtr()->GetType();
    const bool output = type == NETOUTPUT;
    has_outputs = has_outputs || output;
    if (output || IsDataLikeType(type) || HasSideEffects(*node)) push(node.get());
  }
  for (const auto& entry : graph->GetGraphOutNodesInfo()) {
    has_outputs = true;
    push(entry.first.get());
  }
  if (!has_outputs) return false;

  size_t live_count = 0;
  while (!stack.empty()) {
    const Node& node = *order[static_cast<size_t>(stack.back())];
    stack.pop_back();
    ++live_count;
    const size_t n_in = node.GetAllInDataAnchorsSize();
    for (size_t i = 0; i < n_in; ++i) {
      for (const Anchor* peer :
           node.GetInDataAnchorBarePtr(static_cast<int32_t>(i))->PeerAnchors()) {
        push(peer->GetOwnerNodeBarePtr());
      }
    }
    for (const Anchor* peer : node.InControlPeers()) push(peer->GetOwnerNodeBarePtr());
  }
  if (live_count == order.size()) return false;
  if (!topo.ok()) return topo.status();

  GraphRewriter rewriter(graph);
  for (size_t k = order.size(); k-- > 0;) {
    const NodePtr& node = order[k];
    // Constants may already have gone with their last consumer.
    if (live[k] != 0 || !graph->HasNode(node)) continue;
    RETURN_IF_ERROR(rewriter.RemoveDeadNode(node));
  }
  return rewriter.changed();
}

GE_REGISTER_GRAPH_PASS(DeadCodeEliminationPass);

}  // namespace ge
