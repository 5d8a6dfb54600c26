// graph/src/compute_graph_topo.cc
//
// ComputeGraph::TopologicalSorting: builds a CSR view of the graph from the
// anchors (vertex = current list position), runs the algorithm of
// topo_sort_algorithms.h, reports cycles by name, and applies the order to
// the node list and the OpDesc ids.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_types.h"
#include "graph/inc/graph/utils/tensor_utils.h"
#include "graph/src/string_interner.h"
#include "graph/src/topo_sort_algorithms.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace {

bool IsConstLike(const std::string& type) {
  return type == CONSTANT || type == CONSTANTOP || type == VARIABLE || type == VARIABLEV2 ||
         type == VARHANDLEOP;
}

topo::Algo ToAlgo(TopoSortingMode mode) {
  switch (mode) {
    case TopoSortingMode::kBFS:
      return topo::Algo::kBFS;
    case TopoSortingMode::kDFS:
      return topo::Algo::kDFS;
    case TopoSortingMode::kRDFS:
      return topo::Algo::kRDFS;
    case TopoSortingMode::kStableRDFS:
      return topo::Algo::kStableRDFS;
  }
  return topo::Algo::kDFS;
}

}  // namespace

// Reads the node's cached OpDesc body (see Node::op_body_).
int64_t ComputeGraph::OutputBytes(const Node& node) {
  int64_t total = 0;
  const OpDesc::Body& body = *node.op_body_;
  for (size_t i = body.num_inputs_; i < body.ports_.size(); ++i) {
    auto size = TensorUtils::CalcTensorMemSize(OpDesc::BodyDescAt(body, i));
    if (!size.ok()) continue;  // unknown shapes count as 0
    if (__builtin_add_overflow(total, *size, &total)) return std::numeric_limits<int64_t>::max();
  }
  return total;
}

namespace {

constexpr size_t kMaxCycleNamesInMessage = 64;

// Per-thread buffers of SortThisGraph, reused across sorts: a compiler sorts
// its large graphs many times, and fresh multi-MB buffers would be
// page-faulted in (and zeroed by the kernel) on every sort. They keep the
// capacity of the largest graph sorted on the thread.
struct SortScratch {
  std::vector<Node*> new_order;  // ApplyOrder's buffer
  topo::Csr succ;
  topo::Csr data_pred;
  topo::Csr pred;
  std::vector<uint8_t> const_like;
  std::vector<uint32_t> num_in_data;
  std::vector<int64_t> out_bytes;
  std::vector<uint32_t> out_data_nodes;
  std::vector<const std::string*> names;
  std::vector<uint64_t> name_keys;
  std::vector<uint32_t> order;
};
SortScratch& ThreadSortScratch() {
  static thread_local SortScratch scratch;
  return scratch;
}

}  // namespace

const char* TopoSortingModeName(TopoSortingMode mode) {
  switch (mode) {
    case TopoSortingMode::kBFS:
      return "BFS";
    case TopoSortingMode::kDFS:
      return "DFS";
    case TopoSortingMode::kRDFS:
      return "RDFS";
    case TopoSortingMode::kStableRDFS:
      return "StableRDFS";
  }
  return "unknown";
}

Status ComputeGraph::TopologicalSorting() { return TopologicalSorting(TopoSortingMode::kDFS); }

Status ComputeGraph::TopologicalSorting(TopoSortingMode mode) {
  TopoSortOptions options;
  options.mode = mode;
  return TopologicalSorting(options);
}

Status ComputeGraph::TopologicalSorting(const TopoSortOptions& options) {
  switch (options.mode) {
    case TopoSortingMode::kBFS:
    case TopoSortingMode::kDFS:
    case TopoSortingMode::kRDFS:
    case TopoSortingMode::kStableRDFS:
      break;
    default:
      return ParamInvalid(DebugString(), ": invalid topological sorting mode ",
                          static_cast<int32_t>(options.mode));
  }
  RETURN_IF_ERROR(SortThisGraph(options));
  if (!options.sort_subgraphs || sub_graph_.empty()) return OkStatus();
  for (const ComputeGraphPtr& sg : sub_graph_) {
    RETURN_IF_ERROR(Annotate(sg->SortThisGraph(options), "subgraph '", sg->GetName(), "' of ",
                             DebugString(), ": "));
  }
  std::vector<NodePtr> all;
  std::vector<ComputeGraphPtr> visited = CollectAllNodes(&all);
  for (size_t i = 0; i < all.size(); ++i) {
    all[i]->GetOpDescBarePtr()->SetId(static_cast<int64_t>(i));
  }
  // Keep the subgraph list in visiting order when every subgraph is reached.
  visited.erase(visited.begin());  // this graph
  if (visited.size() == sub_graph_.size()) sub_graph_ = std::move(visited);
  return OkStatus();
}

Status ComputeGraph::SortThisGraph(const TopoSortOptions& options) {
  const size_t n = nodes_.size();
  if (n >= std::numeric_limits<uint32_t>::max()) {
    return NotSupported(DebugString(), ": ", n, " nodes is too many to sort");
  }
  const TopoSortingMode mode = options.mode;
  const bool kahn = mode == TopoSortingMode::kBFS || mode == TopoSortingMode::kDFS;
  const bool memory_priority = options.memory_priority && kahn;
  const bool need_sizes = memory_priority || mode == TopoSortingMode::kRDFS;
  bool delay = false;
  switch (options.delay_const_chains) {
    case TopoSortOptions::Delay::kOn:
      delay = true;
      break;
    case TopoSortOptions::Delay::kOff:
      delay = false;
      break;
    case TopoSortOptions::Delay::kAuto:
      delay = mode == TopoSortingMode::kRDFS ||
              (options.memory_priority && mode != TopoSortingMode::kStableRDFS);
      break;
  }

  // Read first: an id set while this sort runs makes the next one check.
  const uint64_t id_epoch = GetOpDescIdEpoch();
  SortScratch& scratch = ThreadSortScratch();
  // Positions: nodes[i]->scratch_index_ == i (the order cache itself).
  const std::vector<Node*>& nodes = OrderedNodes();
  const uint32_t token = list_token_;

  // One pass over the nodes gathers everything the algorithms need:
  // successors in edge order (each data output's peers, then the control
  // output's peers; peers outside this graph are ignored), data producers
  // (for the delay), and the per-node keys. Graphs are far larger than the
  // caches, so the nodes ahead are prefetched. The OpDesc bodies (another
  // pool region) are read here only for the delay and the size keys: the
  // Kahn seeds' types are read for the seeds alone, and the ids only when
  // the order changes or may not match.
  topo::Csr& succ = scratch.succ;
  succ.offsets.resize(n + 1);
  succ.targets.clear();
  succ.targets.reserve(n + n / 2);
  topo::Csr& data_pred = scratch.data_pred;
  if (delay) {
    data_pred.offsets.resize(n + 1);
    data_pred.targets.clear();
    data_pred.targets.reserve(n + n / 4);
  }
  // Every entry below [0, n) is written by the loop when its size is n.
  std::vector<uint8_t>& const_like = scratch.const_like;
  const_like.resize(delay ? n : 0);
  std::vector<uint32_t>& num_in_data = scratch.num_in_data;
  num_in_data.resize(delay ? n : 0);
  std::vector<int64_t>& out_bytes = scratch.out_bytes;
  out_bytes.resize(need_sizes ? n : 0);
  std::vector<uint32_t>& out_data_nodes = scratch.out_data_nodes;
  out_data_nodes.resize(need_sizes ? n : 0);
  std::vector<const std::string*>& names = scratch.names;
  names.resize(need_sizes ? n : 0);
  std::vector<uint64_t>& name_keys = scratch.name_keys;
  name_keys.resize(need_sizes ? 2 * n : 0);
  const bool read_bodies = delay || need_sizes;
  constexpr uint32_t kPrefetchNode = 32;
  constexpr uint32_t kPrefetchBody = 12;
  constexpr uint32_t kPrefetchPorts = 4;
  constexpr uint32_t kPrefetchDesc = 2;
  for (uint32_t v = 0; v < n; ++v) {
    if (v + kPrefetchNode < n) {
      // The node block: the sort fields (list token, body, counts, scratch
      // index: also read through every consumer's peer anchor) between its
      // out and in anchors.
      const char* ahead = reinterpret_cast<const char*>(nodes[v + kPrefetchNode]);
      __builtin_prefetch(ahead - 16);  // the out anchors
      __builtin_prefetch(ahead + 48);  // the in anchors
      __builtin_prefetch(ahead + 96);
    }
    if (v + kPrefetchBody < n) {
      const Node* mid = nodes[v + kPrefetchBody];
      // The type, first in the OpDesc's pooled body.
      if (read_bodies) __builtin_prefetch(&mid->op_body_->type_);
    }
    if (need_sizes) {
      if (v + kPrefetchPorts < n) {
        __builtin_prefetch(nodes[v + kPrefetchPorts]->op_body_->ports_.data());
      }
      if (v + kPrefetchDesc < n) {
        const OpDesc::Body& ahead = *nodes[v + kPrefetchDesc]->op_body_;
        if (ahead.ports_.size() > ahead.num_inputs_) {
          __builtin_prefetch(ahead.ports_[ahead.num_inputs_].block);
        }
      }
    }
    const Node* node = nodes[v];
    succ.offsets[v] = static_cast<uint32_t>(succ.targets.size());
    uint32_t data_consumers = 0;
    for (uint32_t k = 0; k < node->num_out_; ++k) {
      for (const Anchor* peer : node->OutAt(k)->PeerAnchors()) {
        const Node* dst = peer->GetOwnerNodeBarePtr();
        data_consumers += peer->IsInData() ? 1 : 0;
        if (dst->list_token_ == token) succ.targets.push_back(dst->scratch_index_);
      }
    }
    for (const Anchor* peer : node->OutControlPeers()) {
      const Node* dst = peer->GetOwnerNodeBarePtr();
      if (dst->list_token_ == token) succ.targets.push_back(dst->scratch_index_);
    }
    if (!read_bodies) continue;
    const OpDesc::Body& body = *node->op_body_;
    if (delay) {
      data_pred.offsets[v] = static_cast<uint32_t>(data_pred.targets.size());
      for (uint32_t k = 0; k < node->num_in_; ++k) {
        for (const Anchor* peer : node->InAt(k)->PeerAnchors()) {
          const Node* src = peer->GetOwnerNodeBarePtr();
          if (src->list_token_ == token) data_pred.targets.push_back(src->scratch_index_);
        }
      }
      const_like[v] = IsConstLike(*body.type_) ? 1 : 0;
      num_in_data[v] = node->num_in_;
    }
    if (need_sizes) {
      out_bytes[v] = OutputBytes(*node);
      out_data_nodes[v] = data_consumers;
      names[v] = &body.name_;
      topo::NameKey(body.name_, &name_keys[2 * size_t{v}], &name_keys[2 * size_t{v} + 1]);
    }
  }
  succ.offsets[n] = static_cast<uint32_t>(succ.targets.size());
  if (delay) data_pred.offsets[n] = static_cast<uint32_t>(data_pred.targets.size());

  topo::SortInput in;
  in.succ = &succ;
  topo::Csr& pred = scratch.pred;
  struct DataTypes {
    const std::vector<Node*>* nodes;
    const std::string* types[3];
  };
  const DataTypes data{&nodes,
                       {internal::InternString(DATA), internal::InternString(REFDATA),
                        internal::InternString(AIPPDATA)}};
  if (kahn) {
    in.is_data = [&data](uint32_t v) {
      const std::string* type = (*data.nodes)[v]->op_body_->type_;
      return type == data.types[0] || type == data.types[1] || type == data.types[2];
    };
  } else {
    succ.TransposeInto(&pred);
    in.pred = &pred;
  }
  if (need_sizes) {
    in.out_bytes = out_bytes;
    in.out_data_nodes = out_data_nodes;
    in.names = names;
    in.name_keys = name_keys;
  }

  std::vector<uint32_t>& order = scratch.order;
  if (!topo::Sort(in, ToAlgo(mode), memory_priority, &order)) {
    const std::vector<uint32_t> cycle = topo::FindCycle(succ);
    if (cycle.empty()) {
      return Internal(DebugString(), ": ", TopoSortingModeName(mode), " sort ordered ",
                      order.size(), " of ", n, " nodes but no cycle was found");
    }
    std::vector<std::string> cycle_names;
    for (size_t i = 0; i < cycle.size() && i < kMaxCycleNamesInMessage; ++i) {
      cycle_names.push_back(nodes[cycle[i]]->GetName());
    }
    std::string path = absl::StrJoin(cycle_names, " -> ");
    if (cycle.size() > kMaxCycleNamesInMessage) {
      absl::StrAppend(&path, " -> ... (", cycle.size(), " nodes)");
    }
    absl::StrAppend(&path, " -> ", nodes[cycle[0]]->GetName());
    return GraphCycle(DebugString(), " has a cycle: ", path);
  }

  if (delay) {
    topo::DelayInput din;
    din.succ = &succ;
    din.data_pred = &data_pred;
    din.is_const_like = const_like;
    din.num_in_data_anchors = num_in_data;
    topo::DelayConstChains(din, &order);
  }

  // Re-sorting a sorted graph (passes sort after every change) usually
  // gives the same order: then the list and the positions are already
  // right, and so are the ids unless one was set or a node added since the
  // last sort (ids_synced_); only ids that differ are written.
  bool identity = order.size() == n;
  for (uint32_t k = 0; identity && k < n; ++k) identity = order[k] == k;
  if (!identity) {
    ApplyOrder(nodes, order, &scratch.new_order);
  } else if (!ids_synced_ || ids_synced_epoch_ != id_epoch) {
    constexpr uint32_t kPrefetchIds = 16;
    for (uint32_t v = 0; v < n; ++v) {
      if (v + kPrefetchIds < n) __builtin_prefetch(&nodes[v + kPrefetchIds]->op_body_->id_);
      OpDesc::Body& body = *nodes[v]->op_body_;
      if (body.id_ != static_cast<int64_t>(v)) body.id_ = v;
    }
  }
  ids_synced_ = true;
  ids_synced_epoch_ = id_epoch;
  OnReordered();
  is_valid_ = true;
  return OkStatus();
}

}  // namespace ge
