// compiler/passes/pass_framework/topo_order.cc
#include "compiler/passes/pass_framework/topo_order.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_join.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/node.h"

namespace ge {
namespace {

// Calls fn(peer_node) for every peer of every in anchor (in == true) or out
// anchor of `node`, once per edge.
template <typename Fn>
void ForEachPeerNode(const Node& node, bool in, Fn&& fn) {
  auto visit = [&fn](const Anchor* anchor) {
    for (Anchor* peer : anchor->PeerAnchors()) fn(peer->GetOwnerNodeBarePtr());
  };
  if (in) {
    for (size_t i = 0; i < node.GetAllInDataAnchorsSize(); ++i) {
      visit(node.GetInDataAnchorBarePtr(static_cast<int32_t>(i)));
    }
    visit(node.GetInControlAnchorBarePtr());
  } else {
    for (size_t i = 0; i < node.GetAllOutDataAnchorsSize(); ++i) {
      visit(node.GetOutDataAnchorBarePtr(static_cast<int32_t>(i)));
    }
    visit(node.GetOutControlAnchorBarePtr());
  }
}

}  // namespace

StatusOr<std::vector<NodePtr>> StableTopologicalOrder(const ComputeGraph& graph) {
  std::vector<NodePtr> nodes = graph.GetDirectNode();
  const size_t n = nodes.size();
  absl::flat_hash_map<const Node*, uint32_t> position;
  position.reserve(n);
  for (size_t i = 0; i < n; ++i) position.emplace(nodes[i].get(), static_cast<uint32_t>(i));

  std::vector<uint32_t> pending(n, 0);
  for (size_t i = 0; i < n; ++i) {
    ForEachPeerNode(*nodes[i], /*in=*/true, [&](const Node* peer) {
      if (position.contains(peer)) ++pending[i];
    });
  }
  std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> ready;
  for (size_t i = 0; i < n; ++i) {
    if (pending[i] == 0) ready.push(static_cast<uint32_t>(i));
  }
  std::vector<NodePtr> order;
  order.reserve(n);
  while (!ready.empty()) {
    const uint32_t i = ready.top();
    ready.pop();
    order.push_back(nodes[i]);
    ForEachPeerNode(*nodes[i], /*in=*/false, [&](const Node* peer) {
      auto it = position.find(peer);
      if (it == position.end()) return;
      if (--pending[it->second] == 0) ready.push(it->second);
    });
  }
  if (order.size() == n) return order;

  // Every node left has a predecessor that is left too: walk backwards from
  // the first one until a node repeats; the repeated stretch is a cycle.
  uint32_t start = 0;
  while (pending[start] == 0) ++start;
  std::vector<uint32_t> walk;
  absl::flat_hash_map<uint32_t, size_t> seen_at;
  uint32_t cur = start;
  while (!seen_at.contains(cur)) {
    seen_at.emplace(cur, walk.size());
    walk.push_back(cur);
    bool found = false;
    uint32_t next = cur;
    ForEachPeerNode(*nodes[cur], /*in=*/true, [&](const Node* peer) {
      if (found) return;
      auto it = position.find(peer);
      if (it != position.end() && pending[it->second] != 0) {
        next = it->second;
        found = true;
      }
    });
    if (!found) {
      return Internal("graph '", graph.GetName(), "': topological order stuck at node '",
                      nodes[cur]->GetName(), "' without a remaining predecessor");
    }
    cur = next;
  }
  // walk[k + 1] -> walk[k] are edges and walk[seen_at[cur]] -> walk.back().
  std::vector<std::string> names;
  for (size_t k = walk.size(); k > seen_at[cur]; --k) names.push_back(nodes[walk[k - 1]]->GetName());
  names.push_back(names.front());
  return GraphCycle("graph '", graph.GetName(), "' has a cycle: ", absl::StrJoin(names, " -> "));
}

}  // namespace ge
