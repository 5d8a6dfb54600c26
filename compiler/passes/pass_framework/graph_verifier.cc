// compiler/passes/pass_framework/graph_verifier.cc
#include "compiler/passes/pass_framework/graph_verifier.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"

namespace ge {
namespace {

std::string GraphName(const ComputeGraph& graph) { return "graph '" + graph.GetName() + "'"; }

// An in anchor must link to out anchors and vice versa.
bool KindsMayLink(const Anchor& a, const Anchor& b) { return a.IsInAnchor() != b.IsInAnchor(); }

Status CheckAnchor(const ComputeGraph& graph, const Node& node, const Anchor* anchor) {
  if (anchor == nullptr) {
    return GraphInvalid(GraphName(graph), ": node '", node.GetName(), "' has a null anchor");
  }
  if (anchor->GetOwnerNodeBarePtr() != &node) {
    return GraphInvalid(GraphName(graph), ": anchor ", anchor->DebugString(),
                        " is listed by node '", node.GetName(), "' but owned by another node");
  }
  if (anchor->IsInData() && anchor->GetPeerAnchorsSize() > 1) {
    std::string producers;
    for (const Anchor* peer : anchor->PeerAnchors()) {
      if (!producers.empty()) producers += ", ";
      producers += peer == nullptr ? "<null>" : peer->DebugString();
    }
    return GraphInvalid(GraphName(graph), ": input ", anchor->DebugString(), " has ",
                        anchor->GetPeerAnchorsSize(), " producers (", producers,
                        "); an input has at most one");
  }
  for (const Anchor* peer : anchor->PeerAnchors()) {
    if (peer == nullptr) {
      return GraphInvalid(GraphName(graph), ": anchor ", anchor->DebugString(), " has a null peer");
    }
    if (!KindsMayLink(*anchor, *peer)) {
      return GraphInvalid(GraphName(graph), ": anchor ", anchor->DebugString(), " is linked to ",
                          peer->DebugString(), " of the same direction");
    }
    if (!peer->IsLinkedWith(anchor)) {
      return GraphInvalid(GraphName(graph), ": anchor ", anchor->DebugString(), " lists peer ",
                          peer->DebugString(), " but the peer does not list it back");
    }
    const Node* peer_node = peer->GetOwnerNodeBarePtr();
    if (peer_node == nullptr || !graph.HasNode(peer_node)) {
      return GraphInvalid(GraphName(graph), ": anchor ", anchor->DebugString(), " is linked to ",
                          peer->DebugString(), ", whose node is not in the graph (dangling peer)");
    }
  }
  return OkStatus();
}

Status CheckNode(const ComputeGraph& graph, const Node& node, const GraphVerifierOptions& options) {
  if (node.GetOwnerComputeGraphBarePtr() != &graph) {
    const ComputeGraph* owner = node.GetOwnerComputeGraphBarePtr();
    return GraphInvalid(GraphName(graph), ": node '", node.GetName(),
                        "' is in its node list but its owner graph is ",
                        owner == nullptr ? std::string("unset") : GraphName(*owner));
  }
  const OpDesc* op = node.GetOpDescBarePtr();
  if (op == nullptr) {
    return GraphInvalid(GraphName(graph), ": a node has no OpDesc");
  }
  if (options.check_desc_anchor_counts) {
    if (node.GetAllInDataAnchorsSize() != op->GetAllInputsSize()) {
      return GraphInvalid(GraphName(graph), ": node '", node.GetName(), "' has ",
                          node.GetAllInDataAnchorsSize(), " input anchors but its OpDesc has ",
                          op->GetAllInputsSize(), " inputs");
    }
    if (node.GetAllOutDataAnchorsSize() != op->GetOutputsSize()) {
      return GraphInvalid(GraphName(graph), ": node '", node.GetName(), "' has ",
                          node.GetAllOutDataAnchorsSize(), " output anchors but its OpDesc has ",
                          op->GetOutputsSize(), " outputs");
    }
  }
  for (size_t i = 0; i < node.GetAllInDataAnchorsSize(); ++i) {
    RETURN_IF_ERROR(CheckAnchor(graph, node, node.GetInDataAnchorBarePtr(static_cast<int32_t>(i))));
  }
  for (size_t i = 0; i < node.GetAllOutDataAnchorsSize(); ++i) {
    RETURN_IF_ERROR(
        CheckAnchor(graph, node, node.GetOutDataAnchorBarePtr(static_cast<int32_t>(i))));
  }
  RETURN_IF_ERROR(CheckAnchor(graph, node, node.GetInControlAnchorBarePtr()));
  return CheckAnchor(graph, node, node.GetOutControlAnchorBarePtr());
}

Status CheckOneGraph(const ComputeGraph& graph, const GraphVerifierOptions& options) {
  absl::flat_hash_set<std::string> names;
  for (const NodePtr& node : graph.DirectNodes()) {
    if (node == nullptr) return GraphInvalid(GraphName(graph), ": null node in the node list");
    RETURN_IF_ERROR(CheckNode(graph, *node, options));
    if (options.check_unique_names && !names.insert(node->GetName()).second) {
      return GraphInvalid(GraphName(graph), ": two nodes are named '", node->GetName(), "'");
    }
  }
  for (const NodePtr& node : graph.GetInputNodes()) {
    if (!graph.HasNode(node)) {
      return GraphInvalid(GraphName(graph), ": input node '",
                          node == nullptr ? std::string("<null>") : node->GetName(),
                          "' is not in the graph");
    }
  }
  for (const auto& [node, index] : graph.GetGraphOutNodesInfo()) {
    if (!graph.HasNode(node)) {
      return GraphInvalid(GraphName(graph), ": output node '",
                          node == nullptr ? std::string("<null>") : node->GetName(),
                          "' is not in the graph");
    }
    if (index < 0 || static_cast<size_t>(index) >= node->GetAllOutDataAnchorsSize()) {
      return GraphInvalid(GraphName(graph), ": graph output ", node->GetName(), ":", index,
                          " is not an output of the node (it has ",
                          node->GetAllOutDataAnchorsSize(), ")");
    }
  }
  if (options.check_cycles) {
    StatusOr<std::vector<NodePtr>> order = StableTopologicalOrder(graph);
    if (!order.ok()) return order.status();
  }
  return OkStatus();
}

// The root graph's subgraph registry against the parent links.
Status CheckSubgraphLinks(const ComputeGraph& root, const GraphVerifierOptions& options) {
  // In registration order, so that the first error reported is deterministic.
  std::vector<const ComputeGraph*> graphs = {&root};
  absl::flat_hash_set<const ComputeGraph*> tree = {&root};
  for (const ComputeGraphPtr& sub : root.GetAllSubgraphs()) {
    if (sub == nullptr) return GraphInvalid(GraphName(root), ": a registered subgraph is null");
    if (tree.insert(sub.get()).second) graphs.push_back(sub.get());
  }
  for (const ComputeGraphPtr& sub : root.GetAllSubgraphs()) {
    if (root.GetSubgraph(sub->GetName()) != sub) {
      return GraphInvalid(GraphName(root), ": subgraph '", sub->GetName(),
                          "' is not registered under its own name");
    }
    const ComputeGraphPtr parent_graph = sub->GetParentGraph();
    if (parent_graph == nullptr) {
      return GraphInvalid(GraphName(root), ": subgraph '", sub->GetName(), "' has no parent graph");
    }
    if (!tree.contains(parent_graph.get())) {
      return GraphInvalid(GraphName(root), ": subgraph '", sub->GetName(), "' has parent ",
                          GraphName(*parent_graph), ", which is not in the graph tree");
    }
    const NodePtr parent_node = sub->GetParentNode();
    if (parent_node == nullptr) {
      return GraphInvalid(GraphName(root), ": subgraph '", sub->GetName(), "' has no parent node");
    }
    if (!parent_graph->HasNode(parent_node)) {
      return GraphInvalid(GraphName(root), ": subgraph '", sub->GetName(), "' has parent node '",
                          parent_node->GetName(), "', which is not in its parent ",
                          GraphName(*parent_graph));
    }
    bool named = false;
    for (const std::string& inst : parent_node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
      if (inst == sub->GetName()) named = true;
    }
    if (!named) {
      return GraphInvalid(GraphName(root), ": subgraph '", sub->GetName(), "' has parent node '",
                          parent_node->GetName(), "', whose OpDesc does not name it");
    }
  }
  for (const ComputeGraph* g : graphs) {
    for (const NodePtr& node : g->DirectNodes()) {
      if (node == nullptr || node->GetOpDescBarePtr() == nullptr) continue;  // reported per graph
      for (const std::string& inst : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
        if (inst.empty()) continue;
        const ComputeGraphPtr sub = root.GetSubgraph(inst);
        if (sub == nullptr) {
          return GraphInvalid(GraphName(*g), ": node '", node->GetName(), "' names subgraph '",
                              inst, "', which is not registered at root ", GraphName(root));
        }
        if (sub->GetParentNode() != node) {
          return GraphInvalid(GraphName(*g), ": node '", node->GetName(), "' names subgraph '",
                              inst, "', whose parent node is not that node");
        }
      }
    }
  }
  for (const ComputeGraphPtr& sub : root.GetAllSubgraphs()) {
    RETURN_IF_ERROR(CheckOneGraph(*sub, options));
  }
  return OkStatus();
}

}  // namespace

Status GraphVerifier::Verify(const ComputeGraph& graph, const GraphVerifierOptions& options) {
  RETURN_IF_ERROR(CheckOneGraph(graph, options));
  if (options.check_subgraphs && graph.GetParentGraph() == nullptr) {
    RETURN_IF_ERROR(CheckSubgraphLinks(graph, options));
  }
  return OkStatus();
}

}  // namespace ge
