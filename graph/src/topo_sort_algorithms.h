// graph/src/topo_sort_algorithms.h
//
// Internal: the topological sorts of ComputeGraph on a compact integer graph
// (CSR adjacency, vertices 0..n-1 = current list positions). Keeping the
// algorithms off the object graph makes them cache-friendly, iterative and
// testable in isolation; ComputeGraph builds the CSR from the anchors,
// runs one of these and applies the resulting order.
//
// All functions are iterative (no recursion on graph size) and
// deterministic: ties are broken by the vertex index. Their O(n) work
// buffers are per-thread and reused across calls (sorting a large graph
// again does not page-fault fresh buffers in); they keep the capacity of the
// largest graph sorted on the thread.
//
// Example
//   topo::Csr succ = topo::Csr::FromEdges(3, {{0, 1}, {1, 2}});
//   topo::SortInput in; in.succ = &succ;
//   std::vector<uint32_t> order;
//   bool ok = topo::Sort(in, topo::Algo::kBFS, false, &order);  // {0, 1, 2}
#ifndef GRAPH_SRC_TOPO_SORT_ALGORITHMS_H_
#define GRAPH_SRC_TOPO_SORT_ALGORITHMS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"

namespace ge {
namespace topo {

// Adjacency lists in one array: the neighbours of v are
// targets[offsets[v] .. offsets[v + 1]), in edge order.
struct Csr {
  std::vector<uint32_t> offsets;  // size n + 1
  std::vector<uint32_t> targets;

  size_t num_vertices() const { return offsets.empty() ? 0 : offsets.size() - 1; }
  absl::Span<const uint32_t> Neighbors(uint32_t v) const {
    return absl::MakeConstSpan(targets.data() + offsets[v], offsets[v + 1] - offsets[v]);
  }
  // Edges grouped by source in the given order (for tests).
  static Csr FromEdges(size_t n, const std::vector<std::pair<uint32_t, uint32_t>>& edges);
  // The reverse graph; each list is in increasing order of the source, then
  // edge order.
  Csr Transpose() const;
  // The same into *out, reusing its capacity.
  void TransposeInto(Csr* out) const;
};

enum class Algo { kBFS, kDFS, kRDFS, kStableRDFS };

struct SortInput {
  const Csr* succ = nullptr;  // required
  // Required for kRDFS / kStableRDFS: the transpose of succ (Transpose(),
  // each list in increasing index).
  const Csr* pred = nullptr;
  // kBFS / kDFS seed order: true for Data nodes. Asked only of the vertices
  // without predecessors, once each (a caller that keeps the types far away
  // reads them for the few seeds only); none: no vertex is a Data node.
  std::function<bool(uint32_t)> is_data;
  // Per vertex; required for memory priority and kRDFS.
  absl::Span<const int64_t> out_bytes;
  absl::Span<const uint32_t> out_data_nodes;   // memory priority
  absl::Span<const std::string* const> names;  // ties (memory priority, kRDFS)
  // Optional, 2 per vertex: the first 16 bytes of the name, big-endian,
  // zero-padded (NameKey). Compared before the names themselves, which are
  // then only read on equal keys (names are far apart in memory).
  absl::Span<const uint64_t> name_keys;
};

// The two sort keys of a name (see SortInput::name_keys).
void NameKey(const std::string& name, uint64_t* hi, uint64_t* lo);

// Computes a topological order of all vertices. Returns false when a cycle
// prevents one (order then holds a partial result).
//   kBFS / kDFS: Kahn with FIFO / LIFO; seeds (in-degree 0) Data first then
//     the others, by index; DFS visits newly ready successors in edge order.
//     memory_priority: the ready set is a max-priority queue on (out_bytes,
//     out_data_nodes, then smaller name, then smaller index).
//   kRDFS: post-order reverse DFS from the sinks (by index); the inputs of a
//     vertex are visited in increasing (out_bytes, name, index).
//   kStableRDFS: post-order reverse DFS from every vertex by index; inputs in
//     increasing index.
bool Sort(const SortInput& in, Algo algo, bool memory_priority, std::vector<uint32_t>* order);

// One directed cycle as a vertex sequence v0, v1, ..., vk with an edge from
// each to the next and from vk back to v0; empty when the graph is acyclic.
std::vector<uint32_t> FindCycle(const Csr& succ);

struct DelayInput {
  const Csr* succ = nullptr;                // all consumers (data and control)
  const Csr* data_pred = nullptr;           // producers of each data input
  absl::Span<const uint8_t> is_const_like;  // Const / Constant / Variable...
  absl::Span<const uint32_t> num_in_data_anchors;
};

// Moves chains fed only by constants / variables to just before their first
// consumer (GE's DelayTopoSort): walking the order, a vertex whose data
// inputs all come from const-like vertices (at least one), or a vertex with a
// single data input that has received such a chain, is moved, with the chain
// in front of it, right before its earliest consumer when that consumer is
// more than one position later. A chain whose last vertex has several
// consumers pins the group it joins. `order` must be topological; the result
// is topological.
void DelayConstChains(const DelayInput& in, std::vector<uint32_t>* order);

}  // namespace topo
}  // namespace ge

#endif  // GRAPH_SRC_TOPO_SORT_ALGORITHMS_H_
