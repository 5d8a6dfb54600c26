// compiler/passes/common_subexpression_elimination_pass.cc
#include "compiler/passes/common_subexpression_elimination_pass.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_framework/graph_rewriter.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "compiler/passes/pass_utils.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"

namespace ge {
namespace {

bool IsCandidate(const Node& node) {
  constexpr uint32_t kNever =
      kOpTypeDataLike | kOpTypeConst | kOpTypeNetOutput | kOpTypeVariable | kOpTypeControlFlow;
  if ((OpTypeClassOf(node) & kNever) != 0) return false;
  for (const std::string& inst : node.GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
    if (!inst.empty()) return false;
  }
  if (IsNonDeterministic(node)) return false;
  for (size_t i = 0; i < node.GetAllInDataAnchorsSize(); ++i) {
    if (ProducerOf(node, static_cast<int32_t>(i)) != nullptr) return true;
  }
  return false;
}

// Two nodes with the same inputs share the producer of their first linked
// data input: a node whose first producer output feeds only it has no twin
// (and a node without a linked data input is no candidate). Reads only the
// node's anchors, not its OpDesc.
bool MayHaveTwin(const Node& node) {
  const size_t n = node.GetAllInDataAnchorsSize();
  for (size_t i = 0; i < n; ++i) {
    const InDataAnchor* in = node.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
    if (!in->IsLinked()) continue;
    return in->PeerAnchors()[0]->GetPeerAnchorsSize() >= 2;
  }
  return false;
}

// Sorted, deduplicated control predecessors (owner nodes of the peers).
absl::InlinedVector<const Node*, 4> ControlPreds(const Node& node) {
  absl::InlinedVector<const Node*, 4> preds;
  for (const Anchor* peer : node.InControlPeers()) preds.push_back(peer->GetOwnerNodeBarePtr());
  std::sort(preds.begin(), preds.end());
  preds.erase(std::unique(preds.begin(), preds.end()), preds.end());
  return preds;
}

inline uint64_t Mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 29);
}

// Hash of the type, the producer (node, output index, data / control) of
// every input, and the control predecessors. Equal inputs give equal hashes;
// SameInputs decides.
uint64_t InputHash(const Node& node) {
  uint64_t h = Mix(0, reinterpret_cast<uintptr_t>(node.GetOpDescBarePtr()->GetInternedType()));
  const size_t n = node.GetAllInDataAnchorsSize();
  h = Mix(h, n);
  for (size_t i = 0; i < n; ++i) {
    const InDataAnchor* in = node.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
    if (!in->IsLinked()) {
      h = Mix(h, 1);
      continue;
    }
    const Anchor* peer = in->PeerAnchors()[0];
    h = Mix(h, reinterpret_cast<uintptr_t>(peer->GetOwnerNodeBarePtr()));
    h = Mix(h, static_cast<uint64_t>(peer->GetIdx()) * 2 + (peer->IsOutControl() ? 1 : 0));
  }
  if (!node.InControlPeers().empty()) {
    for (const Node* p : ControlPreds(node)) h = Mix(h, reinterpret_cast<uintptr_t>(p));
  }
  return h;
}

// Same type, same producer per input, same control predecessors.
bool SameInputs(const Node& a, const Node& b) {
  if (a.GetOpDescBarePtr()->GetInternedType() != b.GetOpDescBarePtr()->GetInternedType() ||
      a.GetAllInDataAnchorsSize() != b.GetAllInDataAnchorsSize()) {
    return false;
  }
  for (size_t i = 0; i < a.GetAllInDataAnchorsSize(); ++i) {
    const InDataAnchor* ia = a.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
    const InDataAnchor* ib = b.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
    if (ia->IsLinked() != ib->IsLinked()) return false;
    if (!ia->IsLinked()) continue;
    if (ia->PeerAnchors()[0] != ib->PeerAnchors()[0]) return false;
  }
  if (a.InControlPeers().empty() && b.InControlPeers().empty()) return true;
  return ControlPreds(a) == ControlPreds(b);
}

bool SameDesc(const GeTensorDesc* a, const GeTensorDesc* b) {
  if (a == nullptr || b == nullptr) return a == b;
  return a->GetDataType() == b->GetDataType() && a->GetShape() == b->GetShape() &&
         a->GetFormat() == b->GetFormat();
}

bool SameComputation(const Node& a, const Node& b) {
  const OpDesc& oa = *a.GetOpDescBarePtr();
  const OpDesc& ob = *b.GetOpDescBarePtr();
  if (a.GetAllInDataAnchorsSize() != b.GetAllInDataAnchorsSize() ||
      a.GetAllOutDataAnchorsSize() != b.GetAllOutDataAnchorsSize() ||
      oa.GetAllInputsSize() != ob.GetAllInputsSize() ||
      oa.GetAllOutputsDescSize() != ob.GetAllOutputsDescSize() ||
      !(oa.GetAttrStore() == ob.GetAttrStore())) {
    return false;
  }
  for (uint32_t i = 0; i < oa.GetAllInputsSize(); ++i) {
    if (!SameDesc(oa.GetInputDescBarePtr(i), ob.GetInputDescBarePtr(i))) return false;
  }
  for (uint32_t i = 0; i < oa.GetAllOutputsDescSize(); ++i) {
    if (!SameDesc(oa.GetOutputDescBarePtr(i), ob.GetOutputDescBarePtr(i))) return false;
  }
  return true;
}

}  // namespace

StatusOr<bool> CommonSubexpressionEliminationPass::RunImpl(const ComputeGraphPtr& graph) {
  ASSIGN_OR_RETURN(bool changed, RunOnGraph(graph));
  if (graph->GetParentGraph() != nullptr) return changed;
  for (const ComputeGraphPtr& sub : graph->GetAllSubgraphs()) {
    ASSIGN_OR_RETURN(bool sub_changed, RunOnGraph(sub));
    changed = changed || sub_changed;
  }
  return changed;
}

StatusOr<bool> CommonSubexpressionEliminationPass::RunOnGraph(const ComputeGraphPtr& graph) {
  ASSIGN_OR_RETURN(const NodeOrder order, SharedTopologicalOrder(*graph));
  // Input hash -> the kept nodes with that hash (usually one: inline, no
  // allocation per node). Kept nodes are never removed (only later,
  // equal nodes are), so the bare pointers stay valid.
  absl::flat_hash_map<uint64_t, absl::InlinedVector<Node*, 1>> seen;
  seen.reserve(order->size());
  GraphRewriter rw(graph);
  // The op types met on the way: when nothing changes and the graph is the
  // whole tree, they are the TopoOrderCache's type set (the next passes ask
  // GraphTreeHasAnyType; this saves them a walk over every node).
  TopoOrderCache* cache = TopoOrderCache::Current();
  const ComputeGraph* root = graph->GetRootGraphBarePtr();
  const bool collect_types = cache != nullptr && root == graph.get() &&
                             graph->GetAllSubgraphs().empty() &&
                             cache->FindTypes(*graph) == nullptr;
  absl::flat_hash_set<const std::string*> types;
  const std::string* last_type = nullptr;
  for (const NodePtr& node : *order) {
    if (collect_types) {
      const std::string* t = node->GetOpDescBarePtr()->GetInternedType();
      if (t != last_type) types.insert(t);
      last_type = t;
    }
    if (!graph->HasNode(node) || !MayHaveTwin(*node) || !IsCandidate(*node)) continue;
    absl::InlinedVector<Node*, 1>& bucket = seen[InputHash(*node)];
    Node* same = nullptr;
    for (Node* k : bucket) {
      if (SameInputs(*k, *node) && SameComputation(*k, *node)) {
        same = k;
        break;
      }
    }
    if (same == nullptr) {
      bucket.push_back(node.get());
      continue;
    }
    RETURN_IF_ERROR(rw.ReplaceNode(node, same->shared_from_this()));
  }
  if (collect_types && !rw.changed()) cache->StoreTypes(*graph, std::move(types));
  return rw.changed();
}

GE_REGISTER_GRAPH_PASS(CommonSubexpressionEliminationPass);

}  // namespace ge
