// compiler/passes/pass_framework/topo_order.cc
#include "compiler/passes/pass_framework/topo_order.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_join.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"

namespace ge {
namespace {

// Calls fn(peer_node) for every peer of every in anchor (in == true) or out
// anchor of `node`, once per edge. Never creates the lazy control anchors.
template <typename Fn>
void ForEachPeerNode(const Node& node, bool in, Fn&& fn) {
  if (in) {
    const size_t n = node.GetAllInDataAnchorsSize();
    for (size_t i = 0; i < n; ++i) {
      for (Anchor* peer : node.GetInDataAnchorBarePtr(static_cast<int32_t>(i))->PeerAnchors()) {
        fn(peer->GetOwnerNodeBarePtr());
      }
    }
    for (Anchor* peer : node.InControlPeers()) fn(peer->GetOwnerNodeBarePtr());
  } else {
    const size_t n = node.GetAllOutDataAnchorsSize();
    for (size_t i = 0; i < n; ++i) {
      for (Anchor* peer : node.GetOutDataAnchorBarePtr(static_cast<int32_t>(i))->PeerAnchors()) {
        fn(peer->GetOwnerNodeBarePtr());
      }
    }
    for (Anchor* peer : node.OutControlPeers()) fn(peer->GetOwnerNodeBarePtr());
  }
}

// The common case, O(N + E) without hashing: the OpDesc ids strictly
// increase along the list (TopologicalSorting numbers them so) and every
// edge between nodes of `graph` goes from a smaller id to a larger one. Then
// the list is topological and, with the smallest-position-first rule, the
// stable order is the list itself. (A peer of `graph` outside its list is
// ignored by the general algorithm; here it can only make the check fail.)
bool ListIsTopological(const ComputeGraph& graph, const std::vector<NodePtr>& nodes) {
  int64_t prev = std::numeric_limits<int64_t>::min();
  for (const NodePtr& node : nodes) {
    if (node->GetOwnerComputeGraphBarePtr() != &graph) return false;
    const int64_t id = node->GetOpDescBarePtr()->GetId();
    if (id <= prev) return false;
    prev = id;
  }
  for (const NodePtr& node : nodes) {
    const int64_t id = node->GetOpDescBarePtr()->GetId();
    bool ok = true;
    ForEachPeerNode(*node, /*in=*/true, [&](const Node* peer) {
      if (peer->GetOwnerComputeGraphBarePtr() == &graph &&
          peer->GetOpDescBarePtr()->GetId() >= id) {
        ok = false;
      }
    });
    if (!ok) return false;
  }
  return true;
}

std::atomic<uint64_t> g_edit_epoch{0};
thread_local TopoOrderCache* g_cache = nullptr;

StatusOr<std::vector<NodePtr>> ComputeOrder(const ComputeGraph& graph);

}  // namespace

NodeIndex::NodeIndex(const std::vector<NodePtr>& nodes) : nodes_(nodes) {
  const int64_t limit = std::max<int64_t>(1024, 4 * static_cast<int64_t>(nodes.size()));
  bool dense = true;
  int64_t max_id = -1;
  for (const NodePtr& n : nodes) {
    const int64_t id = n->GetOpDescBarePtr()->GetId();
    if (id < 0 || id >= limit) {
      dense = false;
      break;
    }
    max_id = std::max(max_id, id);
  }
  if (dense) {
    by_id_.assign(static_cast<size_t>(max_id + 1), -1);
    for (size_t i = 0; i < nodes.size() && dense; ++i) {
      int32_t& slot = by_id_[static_cast<size_t>(nodes[i]->GetOpDescBarePtr()->GetId())];
      if (slot >= 0) dense = false;  // duplicate id
      slot = static_cast<int32_t>(i);
    }
  }
  if (dense) return;
  by_id_.clear();
  by_ptr_.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i)
    by_ptr_.emplace(nodes[i].get(), static_cast<int64_t>(i));
}

int64_t NodeIndex::Of(const Node* node) const {
  if (node == nullptr) return -1;
  if (!by_id_.empty()) {
    const int64_t id = node->GetOpDescBarePtr()->GetId();
    if (id < 0 || id >= static_cast<int64_t>(by_id_.size())) return -1;
    const int32_t pos = by_id_[static_cast<size_t>(id)];
    return pos >= 0 && nodes_[static_cast<size_t>(pos)].get() == node ? pos : -1;
  }
  auto it = by_ptr_.find(node);
  return it == by_ptr_.end() ? -1 : it->second;
}

uint64_t GraphEditEpoch() { return g_edit_epoch.load(std::memory_order_relaxed); }
void NoteGraphEdit() { g_edit_epoch.fetch_add(1, std::memory_order_relaxed); }

TopoOrderCache::Scope::Scope(TopoOrderCache* cache) : saved_(g_cache) { g_cache = cache; }
TopoOrderCache::Scope::~Scope() { g_cache = saved_; }
TopoOrderCache* TopoOrderCache::Current() { return g_cache; }

NodeOrder TopoOrderCache::FindShared(const ComputeGraph& graph) {
  const Stamped<NodeOrder>* e = FindFresh(entries_, &graph, graph);
  if (e == nullptr || e->value == nullptr) return nullptr;
  ++hits_;
  return e->value;
}

const std::vector<NodePtr>* TopoOrderCache::Find(const ComputeGraph& graph) {
  return FindShared(graph).get();  // the entry keeps it alive
}

void TopoOrderCache::Store(const ComputeGraph& graph, const std::vector<NodePtr>& order) {
  Store(graph, std::make_shared<const std::vector<NodePtr>>(order));
}

void TopoOrderCache::Store(const ComputeGraph& graph, NodeOrder order) {
  Stamped<NodeOrder>& e = entries_[&graph];
  e.Stamp(graph);
  e.value = std::move(order);
}

void TopoOrderCache::KeepStructureSince(uint64_t before) {
  const uint64_t now = GraphEditEpoch();
  for (auto& [graph, e] : entries_) {
    if (e.epoch == before) e.epoch = now;
  }
  for (auto& [graph, e] : types_) {
    if (e.epoch == before) e.epoch = now;
  }
  for (auto& [graph, e] : uses_) {
    if (e.epoch == before) e.epoch = now;
  }
}

const TopoOrderCache::ConstUses* TopoOrderCache::FindConstUses(const ComputeGraph& graph) {
  const Stamped<ConstUses>* e = FindFresh(uses_, &graph, graph);
  if (e == nullptr) return nullptr;
  ++hits_;
  return &e->value;
}

void TopoOrderCache::StoreConstUses(const ComputeGraph& graph, ConstUses uses) {
  Stamped<ConstUses>& e = uses_[&graph];
  e.Stamp(graph);
  e.value = std::move(uses);
}

bool TopoOrderCache::HasFact(const ComputeGraph& graph, Fact fact) {
  return FindFresh(facts_, std::make_pair(&graph, static_cast<int32_t>(fact)), graph) != nullptr;
}

void TopoOrderCache::SetFact(const ComputeGraph& graph, Fact fact) {
  Stamped<bool>& e = facts_[std::make_pair(&graph, static_cast<int32_t>(fact))];
  e.Stamp(graph);
  e.value = true;
}

const absl::flat_hash_set<const std::string*>* TopoOrderCache::FindTypes(
    const ComputeGraph& graph) {
  const auto* e = FindFresh(types_, &graph, graph);
  if (e == nullptr) return nullptr;
  ++hits_;
  return &e->value;
}

void TopoOrderCache::StoreTypes(const ComputeGraph& graph,
                                absl::flat_hash_set<const std::string*> types) {
  auto& e = types_[&graph];
  e.Stamp(graph);
  e.value = std::move(types);
}

bool GraphTreeHasAnyType(const ComputeGraph& graph, absl::Span<const char* const> types) {
  auto matches = [&types](const std::string& type) {
    for (const char* t : types) {
      if (type == t) return true;
    }
    return false;
  };
  // Without registered subgraphs (they live at the root) the tree is the
  // direct node list: no GetAllNodes walk.
  const ComputeGraph* root = graph.GetRootGraphBarePtr();
  const bool flat = root != nullptr && root->GetAllSubgraphs().empty();
  auto for_each_node = [&graph, flat](auto&& fn) {
    if (flat) {
      for (const NodePtr& n : graph.DirectNodes()) fn(*n);
    } else {
      for (const Node* n : graph.GetAllNodesPtr()) fn(*n);
    }
  };
  TopoOrderCache* cache = g_cache;
  if (cache == nullptr) {
    bool found = false;
    for_each_node(
        [&](const Node& n) { found = found || matches(n.GetOpDescBarePtr()->GetType()); });
    return found;
  }
  const absl::flat_hash_set<const std::string*>* present = cache->FindTypes(graph);
  if (present == nullptr) {
    absl::flat_hash_set<const std::string*> collected;
    const std::string* last = nullptr;
    for_each_node([&](const Node& n) {
      const std::string* t = n.GetOpDescBarePtr()->GetInternedType();
      if (t != last) collected.insert(t);
      last = t;
    });
    cache->StoreTypes(graph, std::move(collected));
    present = cache->FindTypes(graph);
    if (present == nullptr) return true;  // cannot happen; be conservative
  }
  for (const std::string* t : *present) {
    if (t != nullptr && matches(*t)) return true;
  }
  return false;
}

StatusOr<std::vector<NodePtr>> StableTopologicalOrder(const ComputeGraph& graph) {
  TopoOrderCache* cache = g_cache;
  if (cache == nullptr) return ComputeOrder(graph);
  if (const std::vector<NodePtr>* hit = cache->Find(graph)) return *hit;
  StatusOr<std::vector<NodePtr>> order = ComputeOrder(graph);
  if (order.ok()) cache->Store(graph, *order);
  return order;
}

StatusOr<NodeOrder> SharedTopologicalOrder(const ComputeGraph& graph) {
  TopoOrderCache* cache = g_cache;
  if (cache != nullptr) {
    if (NodeOrder hit = cache->FindShared(graph)) return hit;
  }
  ASSIGN_OR_RETURN(std::vector<NodePtr> order, ComputeOrder(graph));
  auto shared = std::make_shared<const std::vector<NodePtr>>(std::move(order));
  if (cache != nullptr) cache->Store(graph, shared);
  return NodeOrder(std::move(shared));
}

namespace {

StatusOr<std::vector<NodePtr>> ComputeOrder(const ComputeGraph& graph) {
  std::vector<NodePtr> nodes;
  nodes.reserve(graph.GetDirectNodesSize());
  for (const NodePtr& node : graph.DirectNodes()) nodes.push_back(node);
  if (ListIsTopological(graph, nodes)) return nodes;

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
  for (size_t k = walk.size(); k > seen_at[cur]; --k)
    names.push_back(nodes[walk[k - 1]]->GetName());
  names.push_back(names.front());
  return GraphCycle("graph '", graph.GetName(), "' has a cycle: ", absl::StrJoin(names, " -> "));
}

}  // namespace

}  // namespace ge
