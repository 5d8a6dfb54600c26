// compiler/passes/pass_framework/topo_order.h
//
// StableTopologicalOrder: a topological order of one graph's direct nodes
// that never modifies the graph (ComputeGraph::TopologicalSorting reorders
// the node list and renumbers ids; a pass driver must not do that as a side
// effect).
//
// Contract
//   * Data edges, control edges, data -> control and control -> data links
//     are all dependencies.
//   * Among the nodes that are ready, the one earliest in the node list goes
//     first, so a list that is already topological comes back unchanged.
//   * Peers that are not direct nodes of `graph` (dangling links, nodes of
//     another graph) are ignored; GraphVerifier reports them.
//   * A cycle is a GraphCycle error naming the nodes of one cycle in edge
//     order: "graph 'g' has a cycle: a -> b -> c -> a".
//   * O((N + E) log N), iterative (deep chains are fine); O(N + E) without
//     hashing when the list is already topological with increasing OpDesc
//     ids (the usual case after ComputeGraph::TopologicalSorting).
//   * Inside a TopoOrderCache::Scope (PassManager::Run opens one) a result
//     is reused while the graph has not been edited: the graph edit epoch
//     (bumped by every GraphRewriter edit, or NoteGraphEdit()) and the node
//     count are unchanged and no pass reported a change in between.
//
// Example
//   ASSIGN_OR_RETURN(std::vector<NodePtr> order, StableTopologicalOrder(*graph));
//   for (const NodePtr& node : order) { ... }
//   // Without copying the cached order (one reference count, not one per
//   // node; the snapshot stays valid while the pass edits the graph):
//   ASSIGN_OR_RETURN(NodeOrder shared, SharedTopologicalOrder(*graph));
//   for (const NodePtr& node : *shared) { ... }
#ifndef COMPILER_PASSES_PASS_FRAMEWORK_TOPO_ORDER_H_
#define COMPILER_PASSES_PASS_FRAMEWORK_TOPO_ORDER_H_

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/types/span.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

StatusOr<std::vector<NodePtr>> StableTopologicalOrder(const ComputeGraph& graph);

// An immutable snapshot of a stable topological order, shared with the
// TopoOrderCache (a cache hit costs one reference count, not a copy of a
// shared_ptr per node). Never null on success.
using NodeOrder = std::shared_ptr<const std::vector<NodePtr>>;
StatusOr<NodeOrder> SharedTopologicalOrder(const ComputeGraph& graph);

// Process-wide counter of graph edits made through GraphRewriter. Code that
// edits a graph another way (raw anchor / graph calls) inside a pass must
// call NoteGraphEdit() so cached orders are not reused.
uint64_t GraphEditEpoch();
void NoteGraphEdit();

// Position of each node of a node list, looked up without hashing when the
// OpDesc ids are unique and dense enough (after a topological sort they are
// positions), through a hash map otherwise. Of(n) is -1 for a node not in
// the list.
class NodeIndex {
 public:
  explicit NodeIndex(const std::vector<NodePtr>& nodes);
  int64_t Of(const Node* node) const;
  size_t size() const { return nodes_.size(); }

 private:
  const std::vector<NodePtr>& nodes_;
  std::vector<int32_t> by_id_;                        // OpDesc id -> position, -1 when none
  absl::flat_hash_map<const Node*, int64_t> by_ptr_;  // when ids do not do
};

// Whether some node of `graph` or of any subgraph below it has one of
// `types`. Inside a TopoOrderCache::Scope the set of op types of the graph
// tree is computed once and reused while the graph is not edited, so a pass
// with nothing to do on a large graph costs O(1).
bool GraphTreeHasAnyType(const ComputeGraph& graph, absl::Span<const char* const> types);

// Cached StableTopologicalOrder results for the graphs of one pipeline run.
// Made current for this thread by a Scope; cleared by the PassManager after
// every pass that reported a change.
class TopoOrderCache {
 public:
  class Scope {
   public:
    explicit Scope(TopoOrderCache* cache);
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;
    ~Scope();

   private:
    TopoOrderCache* saved_;
  };

  TopoOrderCache() = default;
  TopoOrderCache(const TopoOrderCache&) = delete;
  TopoOrderCache& operator=(const TopoOrderCache&) = delete;

  // The cache of the innermost open Scope on this thread, or null.
  static TopoOrderCache* Current();

  void Clear() {
    entries_.clear();
    types_.clear();
    uses_.clear();
    facts_.clear();
  }
  int64_t hits() const { return hits_; }

  // The cached order of `graph` if still valid, else null.
  const std::vector<NodePtr>* Find(const ComputeGraph& graph);
  NodeOrder FindShared(const ComputeGraph& graph);
  void Store(const ComputeGraph& graph, const std::vector<NodePtr>& order);
  void Store(const ComputeGraph& graph, NodeOrder order);

  // For an edit that cannot change any graph's structure or op types
  // (shape inference rewriting descs): the cached orders and type sets that
  // were valid at edit epoch `before` are declared valid at the current
  // epoch. Facts are left alone (they may depend on the descs).
  void KeepStructureSince(uint64_t before);

  // Facts about a graph that hold while it is not edited (same validity as
  // the cached orders): passes use them to skip work already done.
  enum class Fact : int32_t {
    kInferredLenient = 0,  // a lenient InferShapePass ran to completion
    kInferredStrict = 1,   // a strict InferShapePass ran to completion
    kNoDeadCode = 2,       // DeadCodeEliminationPass found nothing to remove
    kNothingToFold = 3,    // ConstantFoldingPass folded nothing
    kDynShapeMarked = 4,   // GraphPrepare::PrepareDynShape marks are current
  };
  bool HasFact(const ComputeGraph& graph, Fact fact);
  void SetFact(const ComputeGraph& graph, Fact fact);

  // Const nodes of one graph and the nodes fed only by them, found by a walk
  // over its node list in order (InferShapePass records them on the way, so
  // passes that only care about constants need not walk every node):
  // `consts` are the nodes IsConstNode (compiler/passes/const_value_util.h)
  // accepts, in node-list order; `const_fed` the other nodes with at least
  // one linked data input and every linked data input produced by one of
  // them, in node-list order. Valid like a cached order (same epoch and node
  // count; KeepStructureSince keeps them).
  struct ConstUses {
    std::vector<Node*> consts;
    std::vector<Node*> const_fed;
  };
  const ConstUses* FindConstUses(const ComputeGraph& graph);
  void StoreConstUses(const ComputeGraph& graph, ConstUses uses);

  // The interned op types of the graph tree below `graph`, if still valid.
  const absl::flat_hash_set<const std::string*>* FindTypes(const ComputeGraph& graph);
  void StoreTypes(const ComputeGraph& graph, absl::flat_hash_set<const std::string*> types);

 private:
  // A value cached for one graph: valid while the graph is alive, no graph
  // was edited since it was stored (`epoch`) and the node count is `size`.
  template <typename T>
  struct Stamped {
    std::weak_ptr<const ComputeGraph> graph;
    uint64_t epoch = 0;
    size_t size = 0;
    T value{};

    bool FreshFor(const ComputeGraph& g) const {
      return epoch == GraphEditEpoch() && size == g.GetDirectNodesSize() &&
             graph.lock().get() == &g;
    }
    void Stamp(const ComputeGraph& g) {
      graph = g.weak_from_this();
      epoch = GraphEditEpoch();
      size = g.GetDirectNodesSize();
    }
  };
  // The fresh entry of `graph` in `map`, or null.
  template <typename Map, typename Key>
  static const typename Map::mapped_type* FindFresh(const Map& map, const Key& key,
                                                    const ComputeGraph& graph) {
    auto it = map.find(key);
    return it != map.end() && it->second.FreshFor(graph) ? &it->second : nullptr;
  }
  absl::flat_hash_map<const ComputeGraph*, Stamped<NodeOrder>> entries_;
  absl::flat_hash_map<const ComputeGraph*, Stamped<absl::flat_hash_set<const std::string*>>> types_;
  absl::flat_hash_map<const ComputeGraph*, Stamped<ConstUses>> uses_;
  absl::flat_hash_map<std::pair<const ComputeGraph*, int32_t>, Stamped<bool>> facts_;
  int64_t hits_ = 0;
};

}  // namespace ge

#endif  // COMPILER_PASSES_PASS_FRAMEWORK_TOPO_ORDER_H_
