// graph/serialization/src/graph_reader.cc
//
// The reading half of the graph codec (codec::DecodeModel, DecodeGraph,
// DecodeModelOpDescs in graph_codec.h).
//
// Reading runs in phases: (1) every GraphDef of the tree is split into field
// views and built: ops -> OpDescs -> nodes (ids kept), input entries parsed
// and checked into an edge list, the edges linked (in canonical order, or,
// when an op carries OutputOrder permutations, in an order reproducing both
// the input-side and the output-side peer orders), the graph checked for
// cycles, input / output nodes restored; (2) parent links of the subgraphs
// are resolved and checked (the chain must reach the root); (3) subgraphs
// are registered at the root in order; (4) every subgraph instance name of
// every op must name a registered subgraph.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/node.h"
#include "graph/serialization/src/attr_codec.h"
#include "graph/serialization/src/codec_common.h"
#include "graph/serialization/src/duplicate_names.h"
#include "graph/serialization/src/graph_codec.h"
#include "graph/serialization/src/op_desc_codec.h"

namespace ge {
namespace codec {
namespace {

constexpr size_t kMaxCycleNamesShown = 32;

// Parses "node:index": the last ':' separates the name (which may contain
// ':'), the index is a decimal int32 with an optional '-'.
Status ParseEntry(absl::string_view entry, absl::string_view* name, int32_t* index) {
  const size_t colon = entry.rfind(':');
  if (colon == absl::string_view::npos) {
    return GraphInvalid("malformed entry '", entry, "' (expected \"node:index\")");
  }
  *name = entry.substr(0, colon);
  absl::string_view digits = entry.substr(colon + 1);
  if (name->empty()) return GraphInvalid("entry '", entry, "' has an empty node name");
  bool negative = false;
  if (!digits.empty() && digits[0] == '-') {
    negative = true;
    digits.remove_prefix(1);
  }
  if (digits.empty() || digits.size() > 10) {
    return GraphInvalid("malformed entry '", entry, "': '", entry.substr(colon + 1),
                        "' is not an index");
  }
  int64_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') {
      return GraphInvalid("malformed entry '", entry, "': '", entry.substr(colon + 1),
                          "' is not an index");
    }
    v = v * 10 + (c - '0');
  }
  if (negative) v = -v;
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return OutOfRange("entry '", entry, "': index ", v, " does not fit in int32");
  }
  *index = static_cast<int32_t>(v);
  return OkStatus();
}

struct Edge {
  uint32_t src;
  int32_t src_idx;  // -1: control output
  uint32_t dst;
  int32_t dst_idx;  // -1: control input
};

// One GraphDef split into field views.
struct GraphView {
  absl::string_view name, parent_node, parent_graph, registered_name;
  uint32_t graph_id = 0;
  std::vector<absl::string_view> inputs, outputs, ops, attrs, subgraphs;
};

bool ReadGraphView(absl::string_view bytes, GraphView* g) {
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  bool ok = true;
  while (ok && r.Next(&f, &t)) {
    switch (f) {
      case PGraph::kNameFieldNumber:
        ok = r.Bytes(t, &g->name);
        break;
      case PGraph::kInputFieldNumber:
        ok = AppendBytes(r, t, &g->inputs);
        break;
      case PGraph::kOutputFieldNumber:
        ok = AppendBytes(r, t, &g->outputs);
        break;
      case PGraph::kOpFieldNumber:
        ok = AppendBytes(r, t, &g->ops);
        break;
      case PGraph::kAttrFieldNumber:
        ok = AppendBytes(r, t, &g->attrs);
        break;
      case PGraph::kParentNodeFieldNumber:
        ok = r.Bytes(t, &g->parent_node);
        break;
      case PGraph::kParentGraphFieldNumber:
        ok = r.Bytes(t, &g->parent_graph);
        break;
      case PGraph::kRegisteredNameFieldNumber:
        ok = r.Bytes(t, &g->registered_name);
        break;
      case PGraph::kSubgraphFieldNumber:
        ok = AppendBytes(r, t, &g->subgraphs);
        break;
      case PGraph::kGraphIdFieldNumber:
        ok = r.UInt32(t, &g->graph_id);
        break;
      default:
        ok = r.Skip(t);
    }
  }
  return ok && r.ok();
}

// Reads one GraphDef. Full mode builds the ComputeGraph; light mode
// (DecodeModelOpDescs) builds only the OpDescs and runs the same checks on
// the same bytes in the same order, with the same messages, tracking anchor
// counts by index instead of building nodes.
class GraphReader {
 public:
  GraphReader(const GraphView& view, DeserializeContext& ctx, ModelOpDescs* light = nullptr)
      : view_(view), ctx_(ctx), light_(light) {}

  const ComputeGraphPtr& graph() const { return graph_; }
  absl::string_view name() const { return view_.name; }
  const GraphView& view() const { return view_; }
  const std::vector<NodePtr>& nodes() const { return nodes_; }
  // The nodes whose ops name subgraph instances.
  const std::vector<Node*>& nodes_with_subgraphs() const { return with_subgraphs_; }

  NodePtr FindNode(absl::string_view name) {
    const uint32_t i = Find(static_cast<uint32_t>(nodes_.size()), name);
    return i == kUnresolved ? nullptr : nodes_[i];
  }

  Status Read() {
    const std::string gname(view_.name);
    if (static_cast<int64_t>(view_.ops.size()) > ctx_.options.max_ops_per_graph) {
      return OutOfRange("graph '", gname, "' has ", view_.ops.size(),
                        " ops, more than the limit of ", ctx_.options.max_ops_per_graph);
    }
    if (light_ != nullptr) {
      light_->graph_name = gname;
      light_->graph_id = view_.graph_id;
      RETURN_IF_ERROR(
          Annotate(DecodeAttrs(view_.attrs, ctx_, &light_->attrs), "graph '", gname, "': "));
    } else {
      graph_ = std::make_shared<ComputeGraph>(gname);
      if (view_.graph_id != 0) graph_->SetGraphID(view_.graph_id);
      RETURN_IF_ERROR(Annotate(DecodeAttrs(view_.attrs, ctx_, &graph_->MutableAttrStore()),
                               "graph '", gname, "': "));
    }
    RETURN_IF_ERROR(ReadNodesAndEdges());
    RETURN_IF_ERROR(FinishEdges());
    if (ctx_.options.check_cycles && deferred_) RETURN_IF_ERROR(CheckAcyclic());
    std::vector<Edge>().swap(edges_);
    return light_ != nullptr ? ReadInputsOutputsLight() : ReadInputsOutputs();
  }

 private:
  static constexpr uint32_t kUnresolved = UINT32_MAX;

  // One pass over the ops: each op becomes a node, then its input entries
  // become edges. While every entry names an earlier op, the edges are linked
  // at once, in canonical order, and the graph is acyclic by construction.
  // The first entry naming a later op (or the op itself) switches to
  // deferred mode: the rest is linked by FinishEdges, still in canonical
  // order, and the cycle check runs.
  Status ReadNodesAndEdges() {
    const size_t n = view_.ops.size();
    if (light_ != nullptr) {
      light_->ops.reserve(n);
    } else {
      nodes_.reserve(n);
    }
    names_.reserve(n);
    in_count_.reserve(n);
    out_count_.reserve(n);
    hashes_.reserve(n);
    edges_.reserve(2 * n);
    OpFields fields;
    for (size_t i = 0; i < n; ++i) {
      if (!ReadOpFields(view_.ops[i], &fields)) {
        return Malformed(absl::StrCat("op ", i, " of graph '", view_.name, "'"));
      }
      if (fields.name.empty()) {
        return GraphInvalid("graph '", view_.name, "' op ", i, " (type '", fields.type,
                            "') has an empty name");
      }
      names_.push_back(fields.name);
      hashes_.push_back(NameHash(fields.name));
      if (index_built_) {
        auto [it, inserted] = index_.emplace(fields.name, static_cast<uint32_t>(i));
        if (!inserted) return Duplicate(it->second, i);
      }
      StatusOr<OpDescPtr> op = BuildOpDesc(fields, ctx_, &ir_donors_, &desc_cache_);
      if (!op.ok()) {
        return Annotate(op.status(), "graph '", view_.name, "' node '", fields.name, "': ");
      }
      if (light_ != nullptr) {
        RETURN_IF_ERROR(Annotate(CheckAnchorNums(fields), "graph '", view_.name, "' node '",
                                 fields.name, "': "));
        const OpDesc& desc = **op;
        in_count_.push_back(fields.has_in_anchor_num
                                ? fields.in_anchor_num
                                : static_cast<uint32_t>(desc.GetAllInputsSize()));
        out_count_.push_back(fields.has_out_anchor_num
                                 ? fields.out_anchor_num
                                 : static_cast<uint32_t>(desc.GetAllOutputsDescSize()));
        if (light_subgraph_op_ == SIZE_MAX) {
          for (const std::string& inst : desc.GetSubgraphInstanceNames()) {
            if (!inst.empty()) {
              light_subgraph_op_ = i;
              light_subgraph_inst_ = inst;
              break;
            }
          }
        }
        light_->ops.push_back(std::move(op).value());
      } else {
        StatusOr<NodePtr> node = graph_->AddNode(*op, fields.id);
        if (!node.ok()) {
          return Annotate(node.status(), "graph '", view_.name, "' node '", fields.name, "': ");
        }
        RETURN_IF_ERROR(Annotate(AdjustAnchors(fields, **node), "graph '", view_.name, "' node '",
                                 fields.name, "': "));
        if (!(*node)->GetOpDescBarePtr()->GetSubgraphInstanceNames().empty()) {
          with_subgraphs_.push_back(node->get());
        }
        in_count_.push_back(static_cast<uint32_t>((*node)->GetAllInDataAnchorsSize()));
        out_count_.push_back(static_cast<uint32_t>((*node)->GetAllOutDataAnchorsSize()));
        nodes_.push_back(std::move(node).value());
      }
      if (!fields.output_orders.empty()) {
        orders_.emplace_back(static_cast<uint32_t>(i), std::move(fields.output_orders));
        fields.output_orders.clear();
        needs_kahn_ = true;
      }
      RETURN_IF_ERROR(ReadEntries(static_cast<uint32_t>(i), fields.inputs));
    }
    if (!index_built_) {  // the duplicate check the index would have made
      const auto [a, b] = FindDuplicateName(hashes_, [this](size_t k) { return names_[k]; });
      if (b < n) return Duplicate(a, b);
    }
    return OkStatus();
  }

  Status Duplicate(size_t a, size_t b) const {
    return GraphInvalid("graph '", view_.name, "' has duplicate node name '", names_[b], "' (ops ",
                        a, " and ", b, ")");
  }

  // Builds the name index over the ops read so far (it is then kept up to
  // date); graphs whose entries all name recent ops never need it.
  Status EnsureIndex() {
    if (index_built_ || !index_status_.ok()) return index_status_;
    index_.reserve(view_.ops.size());
    for (size_t k = 0; k < names_.size(); ++k) {
      auto [it, inserted] = index_.emplace(names_[k], static_cast<uint32_t>(k));
      if (!inserted) {
        index_status_ = Duplicate(it->second, k);
        return index_status_;
      }
    }
    index_built_ = true;
    return OkStatus();
  }

  // The limit checks of AdjustAnchors (light mode: no anchors to adjust).
  Status CheckAnchorNums(const OpFields& f) const {
    if (f.has_in_anchor_num && f.in_anchor_num > ctx_.options.max_ports_per_op) {
      return OutOfRange("in_anchor_num ", f.in_anchor_num, " is more than the limit of ",
                        ctx_.options.max_ports_per_op);
    }
    if (f.has_out_anchor_num && f.out_anchor_num > ctx_.options.max_ports_per_op) {
      return OutOfRange("out_anchor_num ", f.out_anchor_num, " is more than the limit of ",
                        ctx_.options.max_ports_per_op);
    }
    return OkStatus();
  }

  Status AdjustAnchors(const OpFields& f, Node& node) const {
    if (f.has_in_anchor_num) {
      const int64_t want = f.in_anchor_num;
      const int64_t have = static_cast<int64_t>(node.GetAllInDataAnchorsSize());
      if (want > ctx_.options.max_ports_per_op) {
        return OutOfRange("in_anchor_num ", want, " is more than the limit of ",
                          ctx_.options.max_ports_per_op);
      }
      if (want > have) {
        RETURN_IF_ERROR(node.AppendInDataAnchors(static_cast<size_t>(want - have)));
      } else if (want < have) {
        RETURN_IF_ERROR(node.RemoveInDataAnchors(static_cast<size_t>(have - want)));
      }
    }
    if (f.has_out_anchor_num) {
      const int64_t want = f.out_anchor_num;
      const int64_t have = static_cast<int64_t>(node.GetAllOutDataAnchorsSize());
      if (want > ctx_.options.max_ports_per_op) {
        return OutOfRange("out_anchor_num ", want, " is more than the limit of ",
                          ctx_.options.max_ports_per_op);
      }
      if (want > have) {
        RETURN_IF_ERROR(node.AppendOutDataAnchors(static_cast<size_t>(want - have)));
      } else if (want < have) {
        RETURN_IF_ERROR(node.RemoveOutDataAnchors(static_cast<size_t>(have - want)));
      }
    }
    return OkStatus();
  }

  // Looks a producer name up among the ops read so far (ops before `dst`
  // first; kUnresolved when absent or on a duplicate, which Read reports).
  uint32_t Find(uint32_t dst, absl::string_view name) {
    // Producers are usually among the last few ops: compare names before
    // hashing (the hash table is cold in large graphs, and often not built).
    constexpr uint32_t kWindow = 8;
    for (uint32_t j = 1; j <= kWindow && j <= dst; ++j) {
      if (names_[dst - j] == name) return dst - j;
    }
    if (!index_built_) {
      // Then the hashes of a wider window (sequential, cache-friendly):
      // shared producers (weights, graph inputs) are usually not far back,
      // and a graph never needing the index skips its per-op inserts.
      constexpr uint32_t kHashWindow = 512;
      const uint64_t h = NameHash(name);
      const uint32_t stop = dst > kHashWindow ? dst - kHashWindow : 0;
      for (uint32_t j = dst > kWindow ? dst - kWindow : 0; j > stop; --j) {
        if (hashes_[j - 1] == h && names_[j - 1] == name) return j - 1;
      }
    }
    if (!EnsureIndex().ok()) return kUnresolved;
    auto it = index_.find(name);
    return it == index_.end() ? kUnresolved : it->second;
  }

  // Checks output index `idx` of op `src` for entry k of op `dst`.
  Status CheckIndex(uint32_t dst, size_t k, absl::string_view entry, uint32_t src,
                    int32_t idx) const {
    if (idx < -1) {
      return OutOfRange("node '", names_[dst], "' input ", k, " ('", entry,
                        "') has negative output index ", idx, "; only -1 (control) is allowed");
    }
    if (idx >= static_cast<int32_t>(out_count_[src])) {
      return OutOfRange("node '", names_[dst], "' input ", k, " refers to output ", idx,
                        " of node '", names_[src], "', which has ", out_count_[src], " outputs");
    }
    return OkStatus();
  }

  Status ReadEntries(uint32_t dst, const std::vector<absl::string_view>& entries) {
    const absl::string_view node_name = names_[dst];
    const size_t count = entries.size();
    const size_t n_in = in_count_[dst];
    if (count < n_in) {
      return GraphInvalid("node '", node_name, "' has ", n_in, " input anchors but only ", count,
                          " input entries");
    }
    if (static_cast<int64_t>(count - n_in) > ctx_.options.max_ports_per_op) {
      return OutOfRange("node '", node_name, "' has ", count - n_in,
                        " control input entries, more than the limit of ",
                        ctx_.options.max_ports_per_op);
    }
    const bool check_ctrl = count > n_in + 1;
    if (check_ctrl) seen_ctrl_.clear();
    for (size_t k = 0; k < count; ++k) {
      const absl::string_view entry = entries[k];
      const bool data = k < n_in;
      if (entry.empty()) {
        if (data) continue;
        return GraphInvalid("node '", node_name, "' input ", k, " is an empty control input entry");
      }
      absl::string_view name;
      int32_t idx = 0;
      Status st = ParseEntry(entry, &name, &idx);
      if (!st.ok()) return Annotate(st, "node '", node_name, "' input ", k, ": ");
      const uint32_t src = Find(dst, name);
      const int32_t dst_idx = data ? static_cast<int32_t>(k) : -1;
      if (src == kUnresolved || src == dst) {
        // A later op (or this one): resolved and checked by FinishEdges.
        deferred_ = true;
        unresolved_.push_back(
            {static_cast<uint32_t>(edges_.size()), static_cast<uint32_t>(k), entry});
        edges_.push_back(Edge{kUnresolved, idx, dst, dst_idx});
        continue;
      }
      RETURN_IF_ERROR(CheckIndex(dst, k, entry, src, idx));
      if (!data && check_ctrl) {
        const uint64_t key = (static_cast<uint64_t>(src) << 32) | static_cast<uint32_t>(idx + 1);
        if (!seen_ctrl_.insert(key).second) {
          return GraphInvalid("node '", node_name, "' lists control input '", entry, "' twice");
        }
      }
      edges_.push_back(Edge{src, idx, dst, dst_idx});
      if (!deferred_ && !needs_kahn_) {
        RETURN_IF_ERROR(Link(edges_.back()));
        linked_ = edges_.size();
      }
    }
    return OkStatus();
  }

  // Resolves the deferred entries and links what is not linked yet.
  Status FinishEdges() {
    for (const Unresolved& u : unresolved_) {
      Edge& e = edges_[u.edge];
      absl::string_view name;
      int32_t idx = 0;
      RETURN_IF_ERROR(ParseEntry(u.entry, &name, &idx));
      RETURN_IF_ERROR(EnsureIndex());
      auto it = index_.find(name);
      if (it == index_.end()) {
        return GraphInvalid("node '", names_[e.dst], "' input ", u.k, " refers to missing node '",
                            name, "'");
      }
      RETURN_IF_ERROR(CheckIndex(e.dst, u.k, u.entry, it->second, idx));
      e.src = it->second;
    }
    // Duplicate control inputs among deferred entries.
    if (!unresolved_.empty()) {
      absl::flat_hash_set<std::pair<uint32_t, uint64_t>> seen;
      for (const Edge& e : edges_) {
        if (e.dst_idx >= 0) continue;
        const uint64_t key =
            (static_cast<uint64_t>(e.src) << 32) | static_cast<uint32_t>(e.src_idx + 1);
        if (!seen.insert({e.dst, key}).second) {
          return GraphInvalid("node '", names_[e.dst], "' lists control input '", names_[e.src],
                              ":", e.src_idx, "' twice");
        }
      }
    }
    std::vector<Unresolved>().swap(unresolved_);
    if (needs_kahn_) {
      // Undo the early links; LinkInPeerOrder links everything.
      for (size_t k = linked_; k > 0; --k) RETURN_IF_ERROR(Unlink(edges_[k - 1]));
      linked_ = 0;
      return LinkInPeerOrder();
    }
    for (size_t k = linked_; k < edges_.size(); ++k) RETURN_IF_ERROR(Link(edges_[k]));
    linked_ = edges_.size();
    return OkStatus();
  }

  std::pair<Anchor*, Anchor*> Ends(const Edge& e) const {
    Node& s = *nodes_[e.src];
    Node& d = *nodes_[e.dst];
    Anchor* from = e.src_idx < 0 ? static_cast<Anchor*>(s.GetOutControlAnchorBarePtr())
                                 : static_cast<Anchor*>(s.GetOutDataAnchorBarePtr(e.src_idx));
    Anchor* to = e.dst_idx < 0 ? static_cast<Anchor*>(d.GetInControlAnchorBarePtr())
                               : static_cast<Anchor*>(d.GetInDataAnchorBarePtr(e.dst_idx));
    return {from, to};
  }

  Status Link(const Edge& e) const {
    if (light_ != nullptr) return OkStatus();
    const auto [from, to] = Ends(e);
    Status st = from->LinkWith(to);
    if (!st.ok()) {
      return Annotate(st, "graph '", view_.name, "': linking ", nodes_[e.src]->GetName(), ":",
                      e.src_idx, " -> ", nodes_[e.dst]->GetName(), ":", e.dst_idx, ": ");
    }
    return OkStatus();
  }

  Status Unlink(const Edge& e) const {
    if (light_ != nullptr) return OkStatus();
    const auto [from, to] = Ends(e);
    return from->Unlink(to);
  }

  static uint64_t OutKey(uint32_t src, int32_t idx) {
    return (static_cast<uint64_t>(src) << 32) | static_cast<uint32_t>(idx + 1);
  }

  // Links so that every out anchor's peers end up in the recorded order and
  // every in-control anchor's peers in entry order: a topological order of
  // the edges under both chains (Kahn, smallest canonical index first).
  Status LinkInPeerOrder() {
    const size_t m = edges_.size();
    absl::flat_hash_map<uint64_t, std::vector<uint32_t>> groups;
    for (uint32_t e = 0; e < m; ++e) groups[OutKey(edges_[e].src, edges_[e].src_idx)].push_back(e);
    for (const auto& [src, orders] : orders_) {
      const absl::string_view node_name = names_[src];
      const uint32_t n_out = out_count_[src];
      absl::flat_hash_set<int32_t> seen;
      for (const OutputOrderView& o : orders) {
        if (o.index < -1 || o.index >= static_cast<int32_t>(n_out)) {
          return OutOfRange("node '", node_name, "' output order for output ", o.index,
                            ", which does not exist (", n_out, " outputs)");
        }
        if (!seen.insert(o.index).second) {
          return GraphInvalid("node '", node_name, "' has two output orders for output ", o.index);
        }
        auto it = groups.find(OutKey(src, o.index));
        const size_t n = it == groups.end() ? 0 : it->second.size();
        if (o.ranks.size() != n) {
          return GraphInvalid("node '", node_name, "' output ", o.index, " order has ",
                              o.ranks.size(), " ranks but the output has ", n, " consumers");
        }
        if (n == 0) continue;
        std::vector<uint32_t> actual(n);
        std::vector<bool> used(n, false);
        for (size_t i = 0; i < n; ++i) {
          const uint32_t r = o.ranks[i];
          if (r >= n || used[r]) {
            return GraphInvalid("node '", node_name, "' output ", o.index,
                                " order is not a permutation of 0..", n - 1);
          }
          used[r] = true;
          actual[i] = it->second[r];
        }
        it->second = std::move(actual);
      }
    }
    if (light_ != nullptr) return OkStatus();  // the orders are valid; nothing to link
    constexpr uint32_t kNone = UINT32_MAX;
    std::vector<uint32_t> out_next(m, kNone), in_next(m, kNone);
    std::vector<uint8_t> pending(m, 0);
    for (const auto& kv : groups) {
      const std::vector<uint32_t>& g = kv.second;
      for (size_t i = 1; i < g.size(); ++i) {
        out_next[g[i - 1]] = g[i];
        ++pending[g[i]];
      }
    }
    // Control entries of one consumer are consecutive in edges_.
    for (uint32_t e = 1; e < m; ++e) {
      if (edges_[e].dst_idx < 0 && edges_[e - 1].dst_idx < 0 &&
          edges_[e].dst == edges_[e - 1].dst) {
        in_next[e - 1] = e;
        ++pending[e];
      }
    }
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> ready;
    for (uint32_t e = 0; e < m; ++e) {
      if (pending[e] == 0) ready.push(e);
    }
    std::vector<bool> linked(m, false);
    size_t done = 0;
    while (!ready.empty()) {
      const uint32_t e = ready.top();
      ready.pop();
      RETURN_IF_ERROR(Link(edges_[e]));
      linked[e] = true;
      ++done;
      for (uint32_t next : {out_next[e], in_next[e]}) {
        if (next != kNone && --pending[next] == 0) ready.push(next);
      }
    }
    // The recorded orders contradict each other (possible only for peer
    // orders not produced by appending links): link the rest canonically.
    if (done < m) {
      for (uint32_t e = 0; e < m; ++e) {
        if (!linked[e]) RETURN_IF_ERROR(Link(edges_[e]));
      }
    }
    return OkStatus();
  }

  Status CheckAcyclic() const {
    const size_t n = names_.size();
    std::vector<uint32_t> offsets(n + 1, 0), indeg(n, 0);
    for (const Edge& e : edges_) {
      ++offsets[e.src + 1];
      ++indeg[e.dst];
    }
    for (size_t i = 0; i < n; ++i) offsets[i + 1] += offsets[i];
    std::vector<uint32_t> succ(edges_.size());
    {
      std::vector<uint32_t> fill(offsets.begin(), offsets.end() - 1);
      for (const Edge& e : edges_) succ[fill[e.src]++] = e.dst;
    }
    std::vector<uint32_t> queue;
    queue.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
      if (indeg[i] == 0) queue.push_back(i);
    }
    for (size_t head = 0; head < queue.size(); ++head) {
      const uint32_t v = queue[head];
      for (uint32_t k = offsets[v]; k < offsets[v + 1]; ++k) {
        if (--indeg[succ[k]] == 0) queue.push_back(succ[k]);
      }
    }
    if (queue.size() == n) return OkStatus();
    // Every node left has a predecessor left: walk predecessors until one
    // repeats.
    std::vector<std::vector<uint32_t>> pred(n);
    for (const Edge& e : edges_) {
      if (indeg[e.src] > 0 && indeg[e.dst] > 0) pred[e.dst].push_back(e.src);
    }
    uint32_t cur = 0;
    while (indeg[cur] == 0) ++cur;
    std::vector<int64_t> step(n, -1);
    std::vector<uint32_t> path;
    while (step[cur] < 0) {
      step[cur] = static_cast<int64_t>(path.size());
      path.push_back(cur);
      cur = pred[cur].front();
    }
    // path[j] <- path[j+1] <- ... <- path.back() <- path[j]: print forwards.
    const size_t j = static_cast<size_t>(step[cur]);
    std::vector<std::string> names;
    names.push_back(std::string(names_[path[j]]));
    const size_t len = path.size() - j;
    for (size_t k = path.size() - 1; k > j; --k) {
      if (names.size() >= kMaxCycleNamesShown) {
        names.push_back(absl::StrCat("... (", len, " nodes)"));
        break;
      }
      names.push_back(std::string(names_[path[k]]));
    }
    names.push_back(std::string(names_[path[j]]));
    return GraphCycle("graph '", view_.name, "' has a cycle: ", absl::StrJoin(names, " -> "));
  }

  Status ReadInputsOutputs() {
    const absl::string_view gname = view_.name;
    const std::vector<NodePtr>& current_inputs = graph_->GetInputNodes();
    bool same = current_inputs.size() == view_.inputs.size();
    for (size_t k = 0; same && k < current_inputs.size(); ++k) {
      same = current_inputs[k]->GetName() == view_.inputs[k];
    }
    std::vector<NodePtr> inputs;
    inputs.reserve(view_.inputs.size());
    for (absl::string_view name : same ? std::vector<absl::string_view>() : view_.inputs) {
      NodePtr node = FindNode(name);
      if (node == nullptr)
        return GraphInvalid("graph '", gname, "' input node '", name, "' is missing");
      inputs.push_back(std::move(node));
    }
    if (!same && graph_->GetInputNodes() != inputs) {
      const std::vector<NodePtr> current = graph_->GetInputNodes();
      for (const NodePtr& node : current) RETURN_IF_ERROR(graph_->RemoveInputNode(node));
      for (const NodePtr& node : inputs) RETURN_IF_ERROR(graph_->AddInputNode(node));
      if (graph_->GetInputNodes() != inputs) {
        return GraphInvalid("graph '", gname, "' lists an input node twice");
      }
    }
    std::vector<std::pair<NodePtr, int32_t>> outputs;
    outputs.reserve(view_.outputs.size());
    RETURN_IF_ERROR(ReadOutputEntries(
        [this](absl::string_view name, size_t* out_count) {
          NodePtr node = FindNode(name);
          if (node != nullptr) *out_count = node->GetAllOutDataAnchorsSize();
          return node;
        },
        [&outputs](NodePtr node, int32_t idx) { outputs.emplace_back(std::move(node), idx); }));
    graph_->SetGraphOutNodesInfo(outputs);
    return OkStatus();
  }

  // The graph's output entries "node:index", in order: each node resolved by
  // `find(name, &out_count)` (null / kUnresolved: missing), the index checked
  // against its output count, then handed to `add(handle, index)`.
  template <typename Find, typename Add>
  Status ReadOutputEntries(Find find, Add add) {
    const absl::string_view gname = view_.name;
    for (size_t k = 0; k < view_.outputs.size(); ++k) {
      absl::string_view name;
      int32_t idx = 0;
      RETURN_IF_ERROR(Annotate(ParseEntry(view_.outputs[k], &name, &idx), "graph '", gname,
                               "' output ", k, ": "));
      size_t out_count = 0;
      auto handle = find(name, &out_count);
      if (!Resolved(handle)) {
        return GraphInvalid("graph '", gname, "' output ", k, " refers to missing node '", name,
                            "'");
      }
      if (idx < 0 || static_cast<size_t>(idx) >= out_count) {
        return OutOfRange("graph '", gname, "' output ", k, " refers to output ", idx, " of node '",
                          name, "', which has ", out_count, " outputs");
      }
      add(std::move(handle), idx);
    }
    return OkStatus();
  }
  static bool Resolved(const NodePtr& node) { return node != nullptr; }
  static bool Resolved(uint32_t index) { return index != kUnresolved; }

  // ReadInputsOutputs without nodes: the same checks, indices into the ops.
  Status ReadInputsOutputsLight() {
    const absl::string_view gname = view_.name;
    const uint32_t n = static_cast<uint32_t>(names_.size());
    std::vector<uint32_t>& inputs = light_->input_ops;
    inputs.reserve(view_.inputs.size());
    for (absl::string_view name : view_.inputs) {
      const uint32_t i = Find(n, name);
      if (i == kUnresolved)
        return GraphInvalid("graph '", gname, "' input node '", name, "' is missing");
      inputs.push_back(i);
    }
    if (inputs.size() > 1) {
      absl::flat_hash_set<uint32_t> seen;
      for (uint32_t i : inputs) {
        if (!seen.insert(i).second)
          return GraphInvalid("graph '", gname, "' lists an input node twice");
      }
    }
    auto& outputs = light_->outputs;
    outputs.reserve(view_.outputs.size());
    return ReadOutputEntries(
        [this, n](absl::string_view name, size_t* out_count) {
          const uint32_t i = Find(n, name);
          if (i != kUnresolved) *out_count = out_count_[i];
          return i;
        },
        [&outputs](uint32_t i, int32_t idx) { outputs.emplace_back(i, idx); });
  }

 public:
  // The first op naming a subgraph instance, and the name (light mode).
  size_t light_subgraph_op() const { return light_subgraph_op_; }
  const std::string& light_subgraph_inst() const { return light_subgraph_inst_; }

 private:
  struct Unresolved {
    uint32_t edge;  // into edges_
    uint32_t k;     // entry index
    absl::string_view entry;
  };

  const GraphView& view_;
  DeserializeContext& ctx_;
  ComputeGraphPtr graph_;
  std::vector<NodePtr> nodes_;
  std::vector<Node*> with_subgraphs_;
  std::vector<absl::string_view> names_;        // op names, views into the bytes
  std::vector<uint32_t> in_count_, out_count_;  // data anchors of each op's node
  ModelOpDescs* light_ = nullptr;               // light mode: the result
  size_t light_subgraph_op_ = SIZE_MAX;
  std::string light_subgraph_inst_;
  std::vector<uint64_t> hashes_;                            // NameHash of names_
  absl::flat_hash_map<absl::string_view, uint32_t> index_;  // see EnsureIndex
  bool index_built_ = false;
  Status index_status_;  // a duplicate name found while building index_
  std::vector<std::pair<uint32_t, std::vector<OutputOrderView>>> orders_;
  std::vector<Edge> edges_;  // canonical order: consumers in op order, entries in order
  std::vector<Unresolved> unresolved_;
  absl::flat_hash_set<uint64_t> seen_ctrl_;
  IrDonors ir_donors_;  // see BuildOpDesc
  DescCache desc_cache_;
  size_t linked_ = 0;        // edges_[0, linked_) are linked
  bool deferred_ = false;    // an entry named a later op (or its own op)
  bool needs_kahn_ = false;  // some op carries an OutputOrder
};

// Builds a tree from its root GraphDef and its subgraph GraphDefs.
StatusOr<ComputeGraphPtr> ReadTree(const GraphView& root_view,
                                   const std::vector<GraphView>& sub_views,
                                   DeserializeContext& ctx) {
  if (static_cast<int64_t>(sub_views.size()) + 1 > ctx.options.max_graphs) {
    return OutOfRange("the model has ", sub_views.size() + 1, " graphs, more than the limit of ",
                      ctx.options.max_graphs);
  }
  if (!root_view.parent_graph.empty() || !root_view.parent_node.empty() ||
      !root_view.registered_name.empty()) {
    return GraphInvalid("root graph '", root_view.name,
                        "' must not have a parent graph, parent node or registered name");
  }
  std::vector<std::unique_ptr<GraphReader>> readers;
  readers.reserve(sub_views.size() + 1);
  readers.push_back(std::make_unique<GraphReader>(root_view, ctx));
  for (const GraphView& v : sub_views) {
    if (!v.subgraphs.empty()) {
      return GraphInvalid("subgraph '", v.name, "' nests ", v.subgraphs.size(),
                          " subgraphs; only the root graph may");
    }
    readers.push_back(std::make_unique<GraphReader>(v, ctx));
  }
  absl::flat_hash_map<absl::string_view, size_t> by_name;
  for (size_t i = 0; i < readers.size(); ++i) {
    if (!by_name.emplace(readers[i]->name(), i).second) {
      return GraphInvalid("the model has two graphs named '", readers[i]->name(), "'");
    }
  }
  for (auto& r : readers) RETURN_IF_ERROR(r->Read());

  const size_t n = readers.size();
  std::vector<int64_t> parent(n, -1);
  std::vector<NodePtr> parent_node(n);
  for (size_t i = 1; i < n; ++i) {
    const GraphView& v = readers[i]->view();
    if (v.parent_graph.empty()) {
      if (!v.parent_node.empty()) {
        return GraphInvalid("subgraph '", v.name, "' has parent node '", v.parent_node,
                            "' but no parent graph");
      }
      continue;
    }
    auto it = by_name.find(v.parent_graph);
    if (it == by_name.end()) {
      return GraphInvalid("subgraph '", v.name, "' refers to missing parent graph '",
                          v.parent_graph, "'");
    }
    if (it->second == i) return GraphInvalid("subgraph '", v.name, "' is its own parent graph");
    parent[i] = static_cast<int64_t>(it->second);
    parent_node[i] = readers[it->second]->FindNode(v.parent_node);
    if (parent_node[i] == nullptr) {
      return GraphInvalid("subgraph '", v.name, "' refers to missing parent node '", v.parent_node,
                          "' in graph '", v.parent_graph, "'");
    }
  }
  for (size_t i = 1; i < n; ++i) {
    if (parent[i] < 0) continue;
    int64_t g = static_cast<int64_t>(i);
    size_t steps = 0;
    while (g > 0 && parent[static_cast<size_t>(g)] >= 0 && steps <= n) {
      g = parent[static_cast<size_t>(g)];
      ++steps;
    }
    if (g != 0) {
      return GraphInvalid("the parent chain of subgraph '", readers[i]->name(),
                          "' does not reach the root graph '", root_view.name, "'");
    }
  }
  const ComputeGraphPtr& root = readers[0]->graph();
  for (size_t i = 1; i < n; ++i) {
    if (parent[i] < 0) continue;
    readers[i]->graph()->SetParentGraph(readers[static_cast<size_t>(parent[i])]->graph());
    readers[i]->graph()->SetParentNode(parent_node[i]);
  }
  for (size_t i = 1; i < n; ++i) {
    const GraphView& v = readers[i]->view();
    const std::string reg(v.registered_name.empty() ? v.name : v.registered_name);
    Status st;
    if (parent[i] >= 0) {
      st = root->AddSubgraph(reg, readers[i]->graph());
    } else if (reg != v.name) {
      st = GraphInvalid("a subgraph without a parent is registered under its own name only");
    } else {
      st = root->AddSubGraph(readers[i]->graph());
    }
    if (!st.ok()) return Annotate(st, "registering subgraph '", v.name, "': ");
  }
  for (const auto& r : readers) {
    for (const Node* node : r->nodes_with_subgraphs()) {
      for (const std::string& inst : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
        if (!inst.empty() && root->GetSubgraph(inst) == nullptr) {
          return NotFound("graph '", r->name(), "' node '", node->GetName(),
                          "' refers to missing subgraph '", inst, "'");
        }
      }
    }
  }
  return root;
}

// The ModelDef envelope: every GraphDef split into field views, root first.
StatusOr<std::vector<GraphView>> ReadModelViews(absl::string_view bytes, DeserializeContext& ctx) {
  RETURN_IF_ERROR(CheckSize(bytes));
  std::vector<absl::string_view> graphs;
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  while (r.Next(&f, &t)) {
    if (f == PModel::kGraphFieldNumber) {
      absl::string_view g;
      if (!r.Bytes(t, &g)) break;
      graphs.push_back(g);
    } else if (!r.Skip(t)) {
      break;
    }
  }
  if (!r.ok()) return Malformed("ModelDef");
  if (graphs.empty()) return GraphInvalid("the model has no graph");
  if (static_cast<int64_t>(graphs.size()) > ctx.options.max_graphs) {
    return OutOfRange("the model has ", graphs.size(), " graphs, more than the limit of ",
                      ctx.options.max_graphs);
  }
  std::vector<GraphView> views(graphs.size());
  for (size_t i = 0; i < graphs.size(); ++i) {
    if (!ReadGraphView(graphs[i], &views[i]))
      return Malformed(absl::StrCat("graph ", i, " of the model"));
  }
  if (!views[0].subgraphs.empty()) {
    return GraphInvalid("graph '", views[0].name,
                        "' of a model nests subgraphs; a model lists them as sibling graphs");
  }
  return views;
}

}  // namespace

StatusOr<ComputeGraphPtr> DecodeModel(absl::string_view bytes, DeserializeContext& ctx) {
  ASSIGN_OR_RETURN(std::vector<GraphView> views, ReadModelViews(bytes, ctx));
  const GraphView root = std::move(views[0]);
  views.erase(views.begin());
  return ReadTree(root, views, ctx);
}

StatusOr<ComputeGraphPtr> DecodeGraph(absl::string_view bytes, DeserializeContext& ctx) {
  RETURN_IF_ERROR(CheckSize(bytes));
  GraphView root;
  if (!ReadGraphView(bytes, &root)) return Malformed("GraphDef");
  if (static_cast<int64_t>(root.subgraphs.size()) + 1 > ctx.options.max_graphs) {
    return OutOfRange("the model has ", root.subgraphs.size() + 1,
                      " graphs, more than the limit of ", ctx.options.max_graphs);
  }
  std::vector<GraphView> subs(root.subgraphs.size());
  for (size_t i = 0; i < subs.size(); ++i) {
    if (!ReadGraphView(root.subgraphs[i], &subs[i])) {
      return Malformed(absl::StrCat("subgraph ", i, " of graph '", root.name, "'"));
    }
  }
  return ReadTree(root, subs, ctx);
}

StatusOr<ModelOpDescs> DecodeModelOpDescs(absl::string_view bytes, DeserializeContext& ctx) {
  ASSIGN_OR_RETURN(const std::vector<GraphView> views, ReadModelViews(bytes, ctx));
  // ReadTree's checks before it reads the root.
  const GraphView& root = views[0];
  if (!root.parent_graph.empty() || !root.parent_node.empty() || !root.registered_name.empty()) {
    return GraphInvalid("root graph '", root.name,
                        "' must not have a parent graph, parent node or registered name");
  }
  absl::flat_hash_set<absl::string_view> names;
  names.reserve(views.size());
  for (size_t i = 1; i < views.size(); ++i) {
    if (!views[i].subgraphs.empty()) {
      return GraphInvalid("subgraph '", views[i].name, "' nests ", views[i].subgraphs.size(),
                          " subgraphs; only the root graph may");
    }
  }
  for (const GraphView& v : views) {
    if (!names.insert(v.name).second) {
      return GraphInvalid("the model has two graphs named '", v.name, "'");
    }
  }
  ModelOpDescs result;
  result.num_graphs = views.size();
  GraphReader reader(root, ctx, &result);
  RETURN_IF_ERROR(reader.Read());
  if (views.size() == 1 && reader.light_subgraph_op() != SIZE_MAX) {
    return NotFound("graph '", root.name, "' node '",
                    result.ops[reader.light_subgraph_op()]->GetName(),
                    "' refers to missing subgraph '", reader.light_subgraph_inst(), "'");
  }
  return result;
}

}  // namespace codec

StatusOr<ModelOpDescs> DecodeModelOpDescs(absl::string_view model_def,
                                          const DeserializeOptions& options) {
  DeserializeContext ctx;
  ctx.options = options;
  return codec::DecodeModelOpDescs(model_def, ctx);
}

}  // namespace ge
