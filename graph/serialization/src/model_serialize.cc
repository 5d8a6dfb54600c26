// graph/serialization/src/model_serialize.cc
//
// ModelSerializeImp (graph trees <-> ModelDef / GraphDef) and the byte-level
// ModelSerialize API. See model_serialize.h for the format and the contract.
//
// Deserialization runs in phases: (1) every graph of the tree is built from
// its GraphDef: ops -> nodes (ids kept), input entries parsed and checked
// into an edge list, the edges linked (in canonical order, or, when an op
// carries OutputOrder permutations, in an order that reproduces both the
// input-side and the output-side peer orders), the graph checked for cycles,
// input / output nodes restored; (2) parent links of the subgraphs are
// resolved and checked (the chain must reach the root); (3) the subgraphs are
// registered at the root in order; (4) every subgraph instance name of every
// op must name a registered subgraph.
#include "graph/serialization/inc/model_serialize.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <memory>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/arena.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/serialization/inc/attr_serializer.h"
#include "graph/serialization/inc/model_serialize_proto.h"
#include "graph/serialization/inc/tensor_serialize_utils.h"

namespace ge {
namespace {

constexpr absl::string_view kInputPrefix = "__input";
constexpr absl::string_view kOutputPrefix = "__output";
// Protobuf's own nesting limit while parsing; our DeserializeOptions limits
// are far below it, so they are what trips.
constexpr int kProtoRecursionLimit = 1024;
// Nodes named in a cycle message.
constexpr size_t kMaxCycleNamesShown = 32;

// True when `name` is the default port name prefix + index ("__input3").
bool IsDefaultPortName(const std::string& name, absl::string_view prefix, size_t index) {
  if (name.size() <= prefix.size() || absl::string_view(name).substr(0, prefix.size()) != prefix) {
    return false;
  }
  char buf[absl::numbers_internal::kFastToBufferSize];
  char* end = absl::numbers_internal::FastIntToBuffer(static_cast<uint64_t>(index), buf);
  return absl::string_view(name).substr(prefix.size()) == absl::string_view(buf, end - buf);
}

void AppendEntry(std::string* s, const std::string& node_name, int32_t index) {
  s->reserve(node_name.size() + 12);
  s->append(node_name);
  s->push_back(':');
  char buf[absl::numbers_internal::kFastToBufferSize];
  char* end = absl::numbers_internal::FastIntToBuffer(index, buf);
  s->append(buf, static_cast<size_t>(end - buf));
}

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

// ------------------------------------------------------------- collecting

// The subgraphs written with `graph`: its registry when it is a root,
// otherwise the root's subgraphs below it.
std::vector<ComputeGraphPtr> CollectSubgraphs(const ComputeGraph& graph) {
  if (graph.GetParentGraphBarePtr() == nullptr) return graph.GetAllSubgraphs();
  const ComputeGraph* root = graph.GetRootGraphBarePtr();
  const std::vector<ComputeGraphPtr>& all = root->GetAllSubgraphs();
  std::vector<ComputeGraphPtr> below;
  for (const ComputeGraphPtr& sg : all) {
    const ComputeGraph* g = sg.get();
    for (size_t steps = 0; g != nullptr && steps <= all.size(); ++steps) {
      g = g->GetParentGraphBarePtr();
      if (g == &graph) {
        below.push_back(sg);
        break;
      }
    }
  }
  return below;
}

// The name `sg` is registered under at `registry`'s root: its own name or an
// instance name of its parent node.
StatusOr<std::string> RegisteredName(const ComputeGraph& registry, const ComputeGraphPtr& sg) {
  if (registry.GetSubgraph(sg->GetName()) == sg) return sg->GetName();
  const NodePtr parent = sg->GetParentNode();
  if (parent != nullptr) {
    for (const std::string& inst : parent->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
      if (!inst.empty() && registry.GetSubgraph(inst) == sg) return inst;
    }
  }
  return GraphInvalid("subgraph '", sg->GetName(),
                      "' is registered under a name that is neither its own nor an instance name "
                      "of its parent node");
}

// ------------------------------------------------------------ serializing

class GraphWriter {
 public:
  GraphWriter(const ComputeGraph& graph, SerializeContext& ctx) : graph_(graph), ctx_(ctx) {}

  Status Write(proto::GraphDef* def) {
    def->set_name(graph_.GetName());
    if (graph_.GetGraphID() != 0) def->set_graph_id(graph_.GetGraphID());
    if (!ctx_.options.structure_only && !graph_.GetAttrStore().empty()) {
      RETURN_IF_ERROR(Annotate(SerializeAttrStore(graph_.GetAttrStore(), def->mutable_attr(), ctx_),
                               "graph '", graph_.GetName(), "': "));
    }
    const NodeList& nodes = graph_.DirectNodes();
    position_.reserve(nodes.size());
    absl::flat_hash_set<absl::string_view> names;
    names.reserve(nodes.size());
    uint32_t i = 0;
    for (const NodePtr& node : nodes) {
      position_.emplace(node.get(), i);
      const std::string& name = node->GetName();
      if (name.empty()) {
        return GraphInvalid("graph '", graph_.GetName(), "': node ", i, " (type ", node->GetType(),
                            ") has an empty name");
      }
      if (!names.insert(name).second) {
        return GraphInvalid("graph '", graph_.GetName(), "' has two nodes named '", name, "'");
      }
      ++i;
    }
    def->mutable_op()->Reserve(static_cast<int>(nodes.size()));
    for (const NodePtr& node : nodes) {
      proto::OpDef* op = def->add_op();
      Status st = ModelSerializeImp::SerializeOpDesc(*node->GetOpDescBarePtr(), op, ctx_);
      if (st.ok()) st = WriteEdges(*node, op);
      if (!st.ok()) {
        return Annotate(st, "graph '", graph_.GetName(), "' node '", node->GetName(), "': ");
      }
    }
    for (const NodePtr& in : graph_.GetInputNodes()) {
      if (in == nullptr || !InThisGraph(in.get())) {
        return GraphInvalid("graph '", graph_.GetName(), "': input node '",
                            in == nullptr ? std::string("<null>") : in->GetName(),
                            "' is not a node of the graph");
      }
      def->add_input(in->GetName());
    }
    for (const auto& [out, index] : graph_.GetGraphOutNodesInfo()) {
      if (out == nullptr || !InThisGraph(out.get())) {
        return GraphInvalid("graph '", graph_.GetName(), "': output node '",
                            out == nullptr ? std::string("<null>") : out->GetName(),
                            "' is not a node of the graph");
      }
      AppendEntry(def->add_output(), out->GetName(), index);
    }
    return OkStatus();
  }

 private:
  bool InThisGraph(const Node* node) const {
    return node != nullptr && node->GetOwnerComputeGraphBarePtr() == &graph_;
  }

  Status AddInputEntry(const Node& node, size_t entry, const Anchor* peer, proto::OpDef* op) {
    const Node* src = peer->GetOwnerNodeBarePtr();
    if (!InThisGraph(src)) {
      return GraphInvalid("input entry ", entry, " comes from node '",
                          src == nullptr ? std::string("<null>") : src->GetName(),
                          "', which is not in graph '", graph_.GetName(), "'");
    }
    AppendEntry(op->add_input(), src->GetName(), peer->GetIdx());
    return OkStatus();
  }

  Status WriteEdges(const Node& node, proto::OpDef* op) {
    const size_t n_in = node.GetAllInDataAnchorsSize();
    const size_t n_out = node.GetAllOutDataAnchorsSize();
    const absl::Span<Anchor* const> in_ctrl = node.GetInControlAnchorBarePtr()->PeerAnchors();
    op->mutable_input()->Reserve(static_cast<int>(n_in + in_ctrl.size()));
    for (size_t i = 0; i < n_in; ++i) {
      const InDataAnchor* a = node.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
      const Anchor* peer = a->GetPeerOutAnchorPtr();
      if (peer == nullptr) peer = a->GetPeerOutControlAnchorPtr();
      if (peer == nullptr) {
        op->add_input();
      } else {
        RETURN_IF_ERROR(AddInputEntry(node, i, peer, op));
      }
    }
    for (size_t k = 0; k < in_ctrl.size(); ++k) {
      RETURN_IF_ERROR(AddInputEntry(node, n_in + k, in_ctrl[k], op));
    }
    // Against the descs written (none in a structure-only dump).
    if (n_in != static_cast<size_t>(op->input_desc_size())) {
      op->set_in_anchor_num(static_cast<uint32_t>(n_in));
    }
    if (n_out != static_cast<size_t>(op->output_desc_size())) {
      op->set_out_anchor_num(static_cast<uint32_t>(n_out));
    }
    for (size_t k = 0; k < n_out; ++k) {
      RETURN_IF_ERROR(WriteOutputOrder(
          node.GetOutDataAnchorBarePtr(static_cast<int32_t>(k))->PeerAnchors(),
          static_cast<int32_t>(k), op));
    }
    return WriteOutputOrder(node.GetOutControlAnchorBarePtr()->PeerAnchors(), -1, op);
  }

  // Checks that every consumer of one output is in this graph and records
  // the consumer order when it is not canonical.
  Status WriteOutputOrder(absl::Span<Anchor* const> peers, int32_t index, proto::OpDef* op) {
    for (const Anchor* p : peers) {
      const Node* dst = p->GetOwnerNodeBarePtr();
      if (!InThisGraph(dst)) {
        return GraphInvalid("output ", index, " feeds node '",
                            dst == nullptr ? std::string("<null>") : dst->GetName(),
                            "', which is not in graph '", graph_.GetName(), "'");
      }
    }
    if (peers.size() < 2) return OkStatus();
    keys_.clear();
    for (const Anchor* p : peers) {
      auto it = position_.find(p->GetOwnerNodeBarePtr());
      if (it == position_.end()) {
        const Node* dst = p->GetOwnerNodeBarePtr();
        return GraphInvalid("output ", index, " feeds node '",
                            dst == nullptr ? std::string("<null>") : dst->GetName(),
                            "', which is not in graph '", graph_.GetName(), "'");
      }
      const uint32_t slot = p->IsInControl() ? UINT32_MAX : static_cast<uint32_t>(p->GetIdx());
      keys_.push_back((static_cast<uint64_t>(it->second) << 32) | slot);
    }
    if (std::is_sorted(keys_.begin(), keys_.end())) return OkStatus();
    order_.resize(keys_.size());
    for (size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<uint32_t>(i);
    std::sort(order_.begin(), order_.end(),
              [this](uint32_t a, uint32_t b) { return keys_[a] < keys_[b]; });
    std::vector<uint32_t> rank(order_.size());
    for (size_t r = 0; r < order_.size(); ++r) rank[order_[r]] = static_cast<uint32_t>(r);
    proto::OutputOrder* o = op->add_output_order();
    o->set_index(index);
    o->mutable_peer_rank()->Add(rank.begin(), rank.end());
    return OkStatus();
  }

  const ComputeGraph& graph_;
  SerializeContext& ctx_;
  absl::flat_hash_map<const Node*, uint32_t> position_;
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> order_;
};

// Serializes `graph` and the subgraphs of its tree: the root into `root_def`,
// each subgraph into a new element of `subgraph_defs`.
Status WriteTree(const ComputeGraph& graph, proto::GraphDef* root_def,
                 google::protobuf::RepeatedPtrField<proto::GraphDef>* subgraph_defs,
                 SerializeContext& ctx) {
  RETURN_IF_ERROR(GraphWriter(graph, ctx).Write(root_def));
  if (ctx.options.omit_subgraphs) return OkStatus();
  const std::vector<ComputeGraphPtr> subgraphs = CollectSubgraphs(graph);
  const ComputeGraph* registry = graph.GetRootGraphBarePtr();
  absl::flat_hash_set<std::string> graph_names = {graph.GetName()};
  for (const ComputeGraphPtr& sg : subgraphs) {
    if (!graph_names.insert(sg->GetName()).second) {
      return GraphInvalid("the graph tree of '", graph.GetName(), "' has two graphs named '",
                          sg->GetName(), "'");
    }
  }
  for (const ComputeGraphPtr& sg : subgraphs) {
    proto::GraphDef* def = subgraph_defs->Add();
    RETURN_IF_ERROR(GraphWriter(*sg, ctx).Write(def));
    ASSIGN_OR_RETURN(std::string registered, RegisteredName(*registry, sg));
    if (registered != sg->GetName()) def->set_registered_name(registered);
    const ComputeGraph* parent_graph = sg->GetParentGraphBarePtr();
    const NodePtr parent_node = sg->GetParentNode();
    if (parent_graph != nullptr) def->set_parent_graph(parent_graph->GetName());
    if (parent_node != nullptr) def->set_parent_node(parent_node->GetName());
  }
  // Every instance name must resolve (the reader checks the same).
  std::vector<const ComputeGraph*> all = {&graph};
  for (const ComputeGraphPtr& sg : subgraphs) all.push_back(sg.get());
  for (const ComputeGraph* g : all) {
    for (const NodePtr& node : g->DirectNodes()) {
      for (const std::string& inst : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
        if (inst.empty()) continue;
        const ComputeGraphPtr sg = registry->GetSubgraph(inst);
        if (sg == nullptr || (sg.get() != &graph && !graph_names.contains(sg->GetName()))) {
          return GraphInvalid("graph '", g->GetName(), "' node '", node->GetName(),
                              "' refers to subgraph '", inst,
                              "', which is not registered in the graph tree");
        }
      }
    }
  }
  return OkStatus();
}

// ---------------------------------------------------------- deserializing

struct Edge {
  uint32_t src;
  int32_t src_idx;  // -1: control output
  uint32_t dst;
  int32_t dst_idx;  // -1: control input
};

class GraphReader {
 public:
  GraphReader(const proto::GraphDef& def, DeserializeContext& ctx) : def_(def), ctx_(ctx) {}

  const ComputeGraphPtr& graph() const { return graph_; }
  const std::string& name() const { return def_.name(); }
  const proto::GraphDef& def() const { return def_; }
  const std::vector<NodePtr>& nodes() const { return nodes_; }

  NodePtr FindNode(absl::string_view name) const {
    auto it = index_.find(name);
    return it == index_.end() ? nullptr : nodes_[it->second];
  }

  Status Read() {
    const std::string& gname = def_.name();
    if (def_.op_size() > ctx_.options.max_ops_per_graph) {
      return OutOfRange("graph '", gname, "' has ", def_.op_size(),
                        " ops, more than the limit of ", ctx_.options.max_ops_per_graph);
    }
    graph_ = std::make_shared<ComputeGraph>(gname);
    if (def_.graph_id() != 0) graph_->SetGraphID(def_.graph_id());
    if (!def_.attr().empty()) {
      RETURN_IF_ERROR(Annotate(DeserializeAttrStore(def_.attr(), &graph_->MutableAttrStore(), ctx_),
                               "graph '", gname, "': "));
    }
    RETURN_IF_ERROR(ReadNodes());
    RETURN_IF_ERROR(ReadEdges());
    RETURN_IF_ERROR(LinkEdges());
    if (ctx_.options.check_cycles) RETURN_IF_ERROR(CheckAcyclic());
    edges_.clear();
    edges_.shrink_to_fit();
    return ReadInputsOutputs();
  }

 private:
  Status ReadNodes() {
    const std::string& gname = def_.name();
    const int n = def_.op_size();
    nodes_.reserve(static_cast<size_t>(n));
    index_.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      const proto::OpDef& op_def = def_.op(i);
      if (op_def.name().empty()) {
        return GraphInvalid("graph '", gname, "' op ", i, " (type '", op_def.type(),
                            "') has an empty name");
      }
      auto [it, inserted] = index_.emplace(op_def.name(), static_cast<uint32_t>(i));
      if (!inserted) {
        return GraphInvalid("graph '", gname, "' has duplicate node name '", op_def.name(),
                            "' (ops ", it->second, " and ", i, ")");
      }
      StatusOr<OpDescPtr> op = ModelSerializeImp::UnserializeOpDesc(op_def, ctx_);
      if (!op.ok()) {
        return Annotate(op.status(), "graph '", gname, "' node '", op_def.name(), "': ");
      }
      StatusOr<NodePtr> node = graph_->AddNode(*op, op_def.id());
      if (!node.ok()) {
        return Annotate(node.status(), "graph '", gname, "' node '", op_def.name(), "': ");
      }
      RETURN_IF_ERROR(Annotate(AdjustAnchors(op_def, **node), "graph '", gname, "' node '",
                               op_def.name(), "': "));
      nodes_.push_back(std::move(node).value());
    }
    return OkStatus();
  }

  Status AdjustAnchors(const proto::OpDef& op_def, Node& node) {
    if (op_def.has_in_anchor_num()) {
      const int64_t want = op_def.in_anchor_num();
      const int64_t have = static_cast<int64_t>(node.GetAllInDataAnchorsSize());
      if (want > ctx_.options.max_ports_per_op) {
        return OutOfRange("in_anchor_num ", want, " is more than the limit of ",
                          ctx_.options.max_ports_per_op);
      }
      if (want > have) {
        node.AppendInDataAnchors(static_cast<size_t>(want - have));
      } else if (want < have) {
        RETURN_IF_ERROR(node.RemoveInDataAnchors(static_cast<size_t>(have - want)));
      }
    }
    if (op_def.has_out_anchor_num()) {
      const int64_t want = op_def.out_anchor_num();
      const int64_t have = static_cast<int64_t>(node.GetAllOutDataAnchorsSize());
      if (want > ctx_.options.max_ports_per_op) {
        return OutOfRange("out_anchor_num ", want, " is more than the limit of ",
                          ctx_.options.max_ports_per_op);
      }
      if (want > have) {
        node.AppendOutDataAnchors(static_cast<size_t>(want - have));
      } else if (want < have) {
        RETURN_IF_ERROR(node.RemoveOutDataAnchors(static_cast<size_t>(have - want)));
      }
    }
    return OkStatus();
  }

  // Resolves "node:index" of entry k of op `dst` to (src op, index).
  Status Resolve(uint32_t dst, int k, const std::string& entry, uint32_t* src, int32_t* idx) const {
    const Node& node = *nodes_[dst];
    absl::string_view name;
    Status st = ParseEntry(entry, &name, idx);
    if (!st.ok()) return Annotate(st, "node '", node.GetName(), "' input ", k, ": ");
    auto it = index_.find(name);
    if (it == index_.end()) {
      return GraphInvalid("node '", node.GetName(), "' input ", k, " refers to missing node '",
                          name, "'");
    }
    *src = it->second;
    const Node& src_node = *nodes_[*src];
    if (*idx < -1) {
      return OutOfRange("node '", node.GetName(), "' input ", k, " ('", entry,
                        "') has negative output index ", *idx, "; only -1 (control) is allowed");
    }
    if (*idx >= static_cast<int32_t>(src_node.GetAllOutDataAnchorsSize())) {
      return OutOfRange("node '", node.GetName(), "' input ", k, " refers to output ", *idx,
                        " of node '", src_node.GetName(), "', which has ",
                        src_node.GetAllOutDataAnchorsSize(), " outputs");
    }
    return OkStatus();
  }

  Status ReadEdges() {
    size_t total = 0;
    for (const proto::OpDef& op : def_.op()) total += static_cast<size_t>(op.input_size());
    edges_.reserve(total);
    absl::flat_hash_set<uint64_t> seen_ctrl;
    for (uint32_t dst = 0; dst < nodes_.size(); ++dst) {
      const proto::OpDef& op = def_.op(static_cast<int>(dst));
      const Node& node = *nodes_[dst];
      const int n_in = static_cast<int>(node.GetAllInDataAnchorsSize());
      if (op.input_size() < n_in) {
        return GraphInvalid("node '", node.GetName(), "' has ", n_in, " input anchors but only ",
                            op.input_size(), " input entries");
      }
      if (op.input_size() - n_in > ctx_.options.max_ports_per_op) {
        return OutOfRange("node '", node.GetName(), "' has ", op.input_size() - n_in,
                          " control input entries, more than the limit of ",
                          ctx_.options.max_ports_per_op);
      }
      seen_ctrl.clear();
      for (int k = 0; k < op.input_size(); ++k) {
        const std::string& entry = op.input(k);
        const bool data = k < n_in;
        if (entry.empty()) {
          if (data) continue;
          return GraphInvalid("node '", node.GetName(), "' input ", k,
                              " is an empty control input entry");
        }
        uint32_t src = 0;
        int32_t idx = 0;
        RETURN_IF_ERROR(Resolve(dst, k, entry, &src, &idx));
        if (!data) {
          const uint64_t key = (static_cast<uint64_t>(src) << 32) | static_cast<uint32_t>(idx + 1);
          if (!seen_ctrl.insert(key).second) {
            return GraphInvalid("node '", node.GetName(), "' lists control input '", entry,
                                "' twice");
          }
        }
        edges_.push_back(Edge{src, idx, dst, data ? k : -1});
      }
      if (!op.output_order().empty()) has_output_order_ = true;
    }
    return OkStatus();
  }

  Status Link(const Edge& e) const {
    Node& s = *nodes_[e.src];
    Node& d = *nodes_[e.dst];
    Anchor* from = e.src_idx < 0 ? static_cast<Anchor*>(s.GetOutControlAnchorBarePtr())
                                 : static_cast<Anchor*>(s.GetOutDataAnchorBarePtr(e.src_idx));
    Anchor* to = e.dst_idx < 0 ? static_cast<Anchor*>(d.GetInControlAnchorBarePtr())
                               : static_cast<Anchor*>(d.GetInDataAnchorBarePtr(e.dst_idx));
    Status st = from->LinkWith(to);
    if (!st.ok()) {
      return Annotate(st, "graph '", def_.name(), "': linking ", s.GetName(), ":", e.src_idx,
                      " -> ", d.GetName(), ":", e.dst_idx, ": ");
    }
    return OkStatus();
  }

  Status LinkEdges() {
    if (!has_output_order_) {
      for (const Edge& e : edges_) RETURN_IF_ERROR(Link(e));
      return OkStatus();
    }
    return LinkInPeerOrder();
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
    for (uint32_t e = 0; e < m; ++e) {
      groups[OutKey(edges_[e].src, edges_[e].src_idx)].push_back(e);
    }
    for (uint32_t src = 0; src < nodes_.size(); ++src) {
      const proto::OpDef& op = def_.op(static_cast<int>(src));
      const Node& node = *nodes_[src];
      absl::flat_hash_set<int32_t> seen;
      for (const proto::OutputOrder& o : op.output_order()) {
        if (o.index() < -1 || o.index() >= static_cast<int32_t>(node.GetAllOutDataAnchorsSize())) {
          return OutOfRange("node '", node.GetName(), "' output order for output ", o.index(),
                            ", which does not exist (", node.GetAllOutDataAnchorsSize(),
                            " outputs)");
        }
        if (!seen.insert(o.index()).second) {
          return GraphInvalid("node '", node.GetName(), "' has two output orders for output ",
                              o.index());
        }
        auto it = groups.find(OutKey(src, o.index()));
        const size_t n = it == groups.end() ? 0 : it->second.size();
        if (static_cast<size_t>(o.peer_rank_size()) != n) {
          return GraphInvalid("node '", node.GetName(), "' output ", o.index(), " order has ",
                              o.peer_rank_size(), " ranks but the output has ", n, " consumers");
        }
        std::vector<uint32_t> actual(n);
        std::vector<bool> used(n, false);
        for (size_t i = 0; i < n; ++i) {
          const uint32_t r = o.peer_rank(static_cast<int>(i));
          if (r >= n || used[r]) {
            return GraphInvalid("node '", node.GetName(), "' output ", o.index(),
                                " order is not a permutation of 0..", n - 1);
          }
          used[r] = true;
          actual[i] = it->second[r];
        }
        it->second = std::move(actual);
      }
    }
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
      if (edges_[e].dst_idx < 0 && edges_[e - 1].dst_idx < 0 && edges_[e].dst == edges_[e - 1].dst) {
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
    const size_t n = nodes_.size();
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
    names.push_back(nodes_[path[j]]->GetName());
    const size_t len = path.size() - j;
    for (size_t k = path.size() - 1; k > j; --k) {
      if (names.size() >= kMaxCycleNamesShown) {
        names.push_back(absl::StrCat("... (", len, " nodes)"));
        break;
      }
      names.push_back(nodes_[path[k]]->GetName());
    }
    names.push_back(nodes_[path[j]]->GetName());
    return GraphCycle("graph '", def_.name(), "' has a cycle: ", absl::StrJoin(names, " -> "));
  }

  Status ReadInputsOutputs() {
    const std::string& gname = def_.name();
    std::vector<NodePtr> inputs;
    inputs.reserve(static_cast<size_t>(def_.input_size()));
    for (const std::string& name : def_.input()) {
      NodePtr node = FindNode(name);
      if (node == nullptr) {
        return GraphInvalid("graph '", gname, "' input node '", name, "' is missing");
      }
      inputs.push_back(std::move(node));
    }
    if (graph_->GetInputNodes() != inputs) {
      const std::vector<NodePtr> current = graph_->GetInputNodes();
      for (const NodePtr& node : current) RETURN_IF_ERROR(graph_->RemoveInputNode(node));
      for (const NodePtr& node : inputs) RETURN_IF_ERROR(graph_->AddInputNode(node));
      if (graph_->GetInputNodes() != inputs) {
        return GraphInvalid("graph '", gname, "' lists an input node twice");
      }
    }
    std::vector<std::pair<NodePtr, int32_t>> outputs;
    outputs.reserve(static_cast<size_t>(def_.output_size()));
    for (int k = 0; k < def_.output_size(); ++k) {
      const std::string& entry = def_.output(k);
      absl::string_view name;
      int32_t idx = 0;
      RETURN_IF_ERROR(Annotate(ParseEntry(entry, &name, &idx), "graph '", gname, "' output ", k, ": "));
      NodePtr node = FindNode(name);
      if (node == nullptr) {
        return GraphInvalid("graph '", gname, "' output ", k, " refers to missing node '", name,
                            "'");
      }
      if (idx < 0 || idx >= static_cast<int32_t>(node->GetAllOutDataAnchorsSize())) {
        return OutOfRange("graph '", gname, "' output ", k, " refers to output ", idx, " of node '",
                          name, "', which has ", node->GetAllOutDataAnchorsSize(), " outputs");
      }
      outputs.emplace_back(std::move(node), idx);
    }
    graph_->SetGraphOutNodesInfo(outputs);
    return OkStatus();
  }

  const proto::GraphDef& def_;
  DeserializeContext& ctx_;
  ComputeGraphPtr graph_;
  std::vector<NodePtr> nodes_;
  absl::flat_hash_map<absl::string_view, uint32_t> index_;  // views into def_
  std::vector<Edge> edges_;
  bool has_output_order_ = false;
};

// Builds a tree from its root GraphDef and its subgraph GraphDefs.
StatusOr<ComputeGraphPtr> ReadTree(const proto::GraphDef& root_def,
                                   const std::vector<const proto::GraphDef*>& sub_defs,
                                   DeserializeContext& ctx) {
  if (static_cast<int64_t>(sub_defs.size()) + 1 > ctx.options.max_graphs) {
    return OutOfRange("the model has ", sub_defs.size() + 1, " graphs, more than the limit of ",
                      ctx.options.max_graphs);
  }
  if (!root_def.parent_graph().empty() || !root_def.parent_node().empty() ||
      !root_def.registered_name().empty()) {
    return GraphInvalid("root graph '", root_def.name(),
                        "' must not have a parent graph, parent node or registered name");
  }
  std::vector<std::unique_ptr<GraphReader>> readers;
  readers.reserve(sub_defs.size() + 1);
  readers.push_back(std::make_unique<GraphReader>(root_def, ctx));
  for (const proto::GraphDef* d : sub_defs) {
    if (d->subgraph_size() != 0) {
      return GraphInvalid("subgraph '", d->name(), "' nests ", d->subgraph_size(),
                          " subgraphs; only the root graph may");
    }
    readers.push_back(std::make_unique<GraphReader>(*d, ctx));
  }
  absl::flat_hash_map<absl::string_view, size_t> by_name;
  for (size_t i = 0; i < readers.size(); ++i) {
    if (!by_name.emplace(readers[i]->name(), i).second) {
      return GraphInvalid("the model has two graphs named '", readers[i]->name(), "'");
    }
  }
  for (auto& r : readers) RETURN_IF_ERROR(r->Read());

  // Parents.
  const size_t n = readers.size();
  std::vector<int64_t> parent(n, -1);
  std::vector<NodePtr> parent_node(n);
  for (size_t i = 1; i < n; ++i) {
    const proto::GraphDef& d = readers[i]->def();
    if (d.parent_graph().empty()) {
      if (!d.parent_node().empty()) {
        return GraphInvalid("subgraph '", d.name(), "' has parent node '", d.parent_node(),
                            "' but no parent graph");
      }
      continue;
    }
    auto it = by_name.find(d.parent_graph());
    if (it == by_name.end()) {
      return GraphInvalid("subgraph '", d.name(), "' refers to missing parent graph '",
                          d.parent_graph(), "'");
    }
    if (it->second == i) return GraphInvalid("subgraph '", d.name(), "' is its own parent graph");
    parent[i] = static_cast<int64_t>(it->second);
    parent_node[i] = readers[it->second]->FindNode(d.parent_node());
    if (parent_node[i] == nullptr) {
      return GraphInvalid("subgraph '", d.name(), "' refers to missing parent node '",
                          d.parent_node(), "' in graph '", d.parent_graph(), "'");
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
                          "' does not reach the root graph '", root_def.name(), "'");
    }
  }
  const ComputeGraphPtr& root = readers[0]->graph();
  for (size_t i = 1; i < n; ++i) {
    if (parent[i] < 0) continue;
    readers[i]->graph()->SetParentGraph(readers[static_cast<size_t>(parent[i])]->graph());
    readers[i]->graph()->SetParentNode(parent_node[i]);
  }
  // Registration, in order.
  for (size_t i = 1; i < n; ++i) {
    const proto::GraphDef& d = readers[i]->def();
    const std::string& reg = d.registered_name().empty() ? d.name() : d.registered_name();
    Status st;
    if (parent[i] >= 0) {
      st = root->AddSubgraph(reg, readers[i]->graph());
    } else if (reg != d.name()) {
      st = GraphInvalid("a subgraph without a parent is registered under its own name only");
    } else {
      st = root->AddSubGraph(readers[i]->graph());
    }
    if (!st.ok()) return Annotate(st, "registering subgraph '", d.name(), "': ");
  }
  for (const auto& r : readers) {
    for (const NodePtr& node : r->nodes()) {
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

template <typename Kind>
StatusOr<Kind> IrKind(proto::IrIoDef::Kind kind, const char* what,
                      std::initializer_list<std::pair<proto::IrIoDef::Kind, Kind>> table) {
  for (const auto& [k, v] : table) {
    if (k == kind) return v;
  }
  return ParseFailed(what, " kind ", static_cast<int>(kind), " is not allowed");
}

}  // namespace

// ------------------------------------------------------------ OpDesc <-> OpDef

Status ModelSerializeImp::SerializeOpDesc(const OpDesc& op, proto::OpDef* def,
                                          SerializeContext& ctx) {
  def->set_name(op.GetName());
  def->set_type(op.GetType());
  def->set_id(op.GetId());
  def->set_stream_id(op.GetStreamId());
  if (ctx.options.structure_only) return OkStatus();

  const size_t n_in = op.GetAllInputsSize();
  const size_t n_out = op.GetAllOutputsDescSize();
  def->mutable_input_desc()->Reserve(static_cast<int>(n_in));
  bool default_names = true;
  for (size_t i = 0; i < n_in; ++i) {
    const GeTensorDesc* desc = op.GetInputDescBarePtr(static_cast<uint32_t>(i));
    RETURN_IF_ERROR(Annotate(GeTensorSerializeUtils::GeTensorDescAsProto(*desc, def->add_input_desc(), ctx),
                             "input desc ", i, ": "));
    default_names = default_names && IsDefaultPortName(*op.GetInputNamePtr(static_cast<uint32_t>(i)),
                                                       kInputPrefix, i);
    if (op.IsOptionalInput(static_cast<uint32_t>(i))) def->add_optional_input(static_cast<uint32_t>(i));
  }
  if (!default_names) {
    for (size_t i = 0; i < n_in; ++i) def->add_input_name(*op.GetInputNamePtr(static_cast<uint32_t>(i)));
  }
  def->mutable_output_desc()->Reserve(static_cast<int>(n_out));
  default_names = true;
  for (size_t i = 0; i < n_out; ++i) {
    const GeTensorDesc* desc = op.GetOutputDescBarePtr(static_cast<uint32_t>(i));
    RETURN_IF_ERROR(Annotate(GeTensorSerializeUtils::GeTensorDescAsProto(*desc, def->add_output_desc(), ctx),
                             "output desc ", i, ": "));
    default_names = default_names && IsDefaultPortName(*op.GetOutputNamePtr(static_cast<uint32_t>(i)),
                                                       kOutputPrefix, i);
  }
  if (!default_names) {
    for (size_t i = 0; i < n_out; ++i) {
      def->add_output_name(*op.GetOutputNamePtr(static_cast<uint32_t>(i)));
    }
  }

  for (const auto& [name, kind] : op.GetIrInputs()) {
    proto::IrIoDef* io = def->add_ir_input();
    io->set_name(name);
    io->set_kind(kind == kIrInputOptional  ? proto::IrIoDef::OPTIONAL
                 : kind == kIrInputDynamic ? proto::IrIoDef::DYNAMIC
                                           : proto::IrIoDef::REQUIRED);
  }
  for (const auto& [name, kind] : op.GetIrOutputs()) {
    proto::IrIoDef* io = def->add_ir_output();
    io->set_name(name);
    io->set_kind(kind == kIrOutputDynamic ? proto::IrIoDef::DYNAMIC : proto::IrIoDef::REQUIRED);
  }
  for (const auto& [name, kind] : op.GetOrderedSubgraphIrNames()) {
    proto::IrIoDef* io = def->add_ir_subgraph();
    io->set_name(name);
    io->set_kind(kind == kDynamic ? proto::IrIoDef::DYNAMIC : proto::IrIoDef::STATIC);
  }
  for (const std::string& name : op.GetIrAttrNames()) def->add_ir_attr_name(name);

  const std::vector<std::string>& instances = op.GetSubgraphInstanceNames();
  if (!instances.empty()) {
    for (const std::string& inst : instances) def->add_subgraph_name(inst);
    for (const auto& [name, index] : op.GetSubgraphNameIndexes()) {
      (*def->mutable_subgraph_slot())[name] = index;
    }
  }

  auto add_ints = [](const std::vector<int64_t>& v, google::protobuf::RepeatedField<int64_t>* f) {
    f->Add(v.begin(), v.end());
  };
  add_ints(op.GetInputOffset(), def->mutable_input_i());
  add_ints(op.GetOutputOffset(), def->mutable_output_i());
  add_ints(op.GetWorkspace(), def->mutable_workspace());
  add_ints(op.GetWorkspaceBytes(), def->mutable_workspace_bytes());
  add_ints(op.GetSrcIndex(), def->mutable_src_index());
  add_ints(op.GetDstIndex(), def->mutable_dst_index());
  for (const std::string& s : op.GetSrcName()) def->add_src_name(s);
  for (const std::string& s : op.GetDstName()) def->add_dst_name(s);
  for (bool b : op.GetIsInputConst()) def->add_is_input_const(b);
  def->set_engine_name(op.GetOpEngineName());
  def->set_kernel_lib_name(op.GetOpKernelLibName());

  if (!op.GetAttrStore().empty()) {
    RETURN_IF_ERROR(SerializeAttrStore(op.GetAttrStore(), def->mutable_attr(), ctx));
  }
  return OkStatus();
}

StatusOr<OpDescPtr> ModelSerializeImp::UnserializeOpDesc(const proto::OpDef& def,
                                                         DeserializeContext& ctx) {
  const int n_in = def.input_desc_size();
  const int n_out = def.output_desc_size();
  if (n_in > ctx.options.max_ports_per_op || n_out > ctx.options.max_ports_per_op) {
    return OutOfRange("op has ", n_in, " input and ", n_out, " output descs, more than the limit of ",
                      ctx.options.max_ports_per_op);
  }
  if (def.input_name_size() != 0 && def.input_name_size() != n_in) {
    return ParseFailed("op has ", n_in, " input descs but ", def.input_name_size(), " input names");
  }
  if (def.output_name_size() != 0 && def.output_name_size() != n_out) {
    return ParseFailed("op has ", n_out, " output descs but ", def.output_name_size(),
                       " output names");
  }
  std::vector<uint8_t> optional(static_cast<size_t>(n_in), 0);
  for (uint32_t idx : def.optional_input()) {
    if (idx >= static_cast<uint32_t>(n_in)) {
      return OutOfRange("optional input index ", idx, " is out of range (", n_in, " inputs)");
    }
    optional[idx] = 1;
  }
  auto op = std::make_shared<OpDesc>(def.name(), def.type());
  op->SetId(def.id());
  op->SetStreamId(def.stream_id());

  for (int i = 0; i < n_in; ++i) {
    GeTensorDesc desc;
    RETURN_IF_ERROR(Annotate(
        GeTensorSerializeUtils::AssembleGeTensorDescFromProto(def.input_desc(i), &desc, ctx),
        "input desc ", i, ": "));
    Status st;
    if (optional[static_cast<size_t>(i)] != 0) {
      st = op->AddOptionalInputDesc(
          def.input_name_size() != 0 ? def.input_name(i) : absl::StrCat(kInputPrefix, i), desc);
    } else if (def.input_name_size() != 0) {
      st = op->AddInputDesc(def.input_name(i), desc);
    } else {
      st = op->AddInputDesc(desc);
    }
    RETURN_IF_ERROR(st);
  }
  for (int i = 0; i < n_out; ++i) {
    GeTensorDesc desc;
    RETURN_IF_ERROR(Annotate(
        GeTensorSerializeUtils::AssembleGeTensorDescFromProto(def.output_desc(i), &desc, ctx),
        "output desc ", i, ": "));
    RETURN_IF_ERROR(def.output_name_size() != 0 ? op->AddOutputDesc(def.output_name(i), desc)
                                                : op->AddOutputDesc(desc));
  }

  for (const proto::IrIoDef& io : def.ir_input()) {
    ASSIGN_OR_RETURN(IrInputType kind,
                     IrKind<IrInputType>(io.kind(), "IR input",
                                         {{proto::IrIoDef::REQUIRED, kIrInputRequired},
                                          {proto::IrIoDef::OPTIONAL, kIrInputOptional},
                                          {proto::IrIoDef::DYNAMIC, kIrInputDynamic}}));
    RETURN_IF_ERROR(op->AppendIrInput(io.name(), kind));
  }
  for (const proto::IrIoDef& io : def.ir_output()) {
    ASSIGN_OR_RETURN(IrOutputType kind,
                     IrKind<IrOutputType>(io.kind(), "IR output",
                                          {{proto::IrIoDef::REQUIRED, kIrOutputRequired},
                                           {proto::IrIoDef::DYNAMIC, kIrOutputDynamic}}));
    RETURN_IF_ERROR(op->AppendIrOutput(io.name(), kind));
  }
  for (const proto::IrIoDef& io : def.ir_subgraph()) {
    ASSIGN_OR_RETURN(SubgraphType kind, IrKind<SubgraphType>(io.kind(), "IR subgraph",
                                                             {{proto::IrIoDef::STATIC, kStatic},
                                                              {proto::IrIoDef::DYNAMIC, kDynamic}}));
    RETURN_IF_ERROR(op->RegisterSubgraphIrName(io.name(), kind));
  }
  for (const std::string& name : def.ir_attr_name()) RETURN_IF_ERROR(op->AppendIrAttrName(name));

  // Subgraph slots: slot k was registered when there were k instances.
  const int n_inst = def.subgraph_name_size();
  std::vector<const std::string*> slot_at(static_cast<size_t>(n_inst), nullptr);
  for (const auto& [name, index] : def.subgraph_slot()) {
    if (index >= static_cast<uint32_t>(n_inst)) {
      return OutOfRange("subgraph slot '", name, "' has index ", index, " but the op has ", n_inst,
                        " subgraph instances");
    }
    if (slot_at[index] != nullptr) {
      return GraphInvalid("subgraph slots '", *slot_at[index], "' and '", name,
                          "' share index ", index);
    }
    slot_at[index] = &name;
  }
  for (int i = 0; i < n_inst; ++i) {
    if (slot_at[static_cast<size_t>(i)] != nullptr) {
      RETURN_IF_ERROR(op->AddSubgraphName(*slot_at[static_cast<size_t>(i)]));
      RETURN_IF_ERROR(op->SetSubgraphInstanceName(static_cast<uint32_t>(i), def.subgraph_name(i)));
    } else {
      op->AddSubgraphInstanceName(def.subgraph_name(i));
    }
  }

  auto ints = [](const google::protobuf::RepeatedField<int64_t>& f) {
    return std::vector<int64_t>(f.begin(), f.end());
  };
  auto strings = [](const google::protobuf::RepeatedPtrField<std::string>& f) {
    return std::vector<std::string>(f.begin(), f.end());
  };
  if (!def.input_i().empty()) op->SetInputOffset(ints(def.input_i()));
  if (!def.output_i().empty()) op->SetOutputOffset(ints(def.output_i()));
  if (!def.workspace().empty()) op->SetWorkspace(ints(def.workspace()));
  if (!def.workspace_bytes().empty()) op->SetWorkspaceBytes(ints(def.workspace_bytes()));
  if (!def.src_index().empty()) op->SetSrcIndex(ints(def.src_index()));
  if (!def.dst_index().empty()) op->SetDstIndex(ints(def.dst_index()));
  if (!def.src_name().empty()) op->SetSrcName(strings(def.src_name()));
  if (!def.dst_name().empty()) op->SetDstName(strings(def.dst_name()));
  if (!def.is_input_const().empty()) {
    op->SetIsInputConst(std::vector<bool>(def.is_input_const().begin(), def.is_input_const().end()));
  }
  if (!def.engine_name().empty()) op->SetOpEngineName(def.engine_name());
  if (!def.kernel_lib_name().empty()) op->SetOpKernelLibName(def.kernel_lib_name());

  if (!def.attr().empty()) {
    RETURN_IF_ERROR(DeserializeAttrStore(def.attr(), &op->MutableAttrStore(), ctx));
  }
  return op;
}

// ------------------------------------------------------------------ graphs

Status ModelSerializeImp::SerializeModel(const ComputeGraph& graph, proto::ModelDef* model,
                                         const SerializeOptions& options) {
  SerializeContext ctx;
  ctx.options = options;
  model->set_name(graph.GetName());
  proto::GraphDef* root = model->add_graph();
  return WriteTree(graph, root, model->mutable_graph(), ctx);
}

StatusOr<ComputeGraphPtr> ModelSerializeImp::UnserializeModel(const proto::ModelDef& model,
                                                              const DeserializeOptions& options) {
  if (model.graph_size() == 0) return GraphInvalid("the model has no graph");
  DeserializeContext ctx;
  ctx.options = options;
  std::vector<const proto::GraphDef*> subs;
  subs.reserve(static_cast<size_t>(model.graph_size() - 1));
  for (int i = 1; i < model.graph_size(); ++i) subs.push_back(&model.graph(i));
  if (model.graph(0).subgraph_size() != 0) {
    return GraphInvalid("graph '", model.graph(0).name(),
                        "' of a model nests subgraphs; a model lists them as sibling graphs");
  }
  return ReadTree(model.graph(0), subs, ctx);
}

Status ModelSerializeImp::SerializeGraph(const ComputeGraph& graph, proto::GraphDef* def,
                                         SerializeContext& ctx) {
  return WriteTree(graph, def, def->mutable_subgraph(), ctx);
}

StatusOr<ComputeGraphPtr> ModelSerializeImp::UnserializeGraph(const proto::GraphDef& def,
                                                              DeserializeContext& ctx) {
  std::vector<const proto::GraphDef*> subs;
  subs.reserve(static_cast<size_t>(def.subgraph_size()));
  for (const proto::GraphDef& d : def.subgraph()) subs.push_back(&d);
  return ReadTree(def, subs, ctx);
}

// ------------------------------------------------------------------- bytes

StatusOr<std::string> ModelSerializeImp::ToBytes(const google::protobuf::MessageLite& message) {
  const size_t size = message.ByteSizeLong();
  if (size > static_cast<size_t>(INT_MAX)) {
    return Overflow("the serialized ", message.GetTypeName(), " would be ", size,
                    " bytes, more than protobuf's 2 GiB limit");
  }
  std::string bytes(size, '\0');
  google::protobuf::io::ArrayOutputStream array(bytes.data(), static_cast<int>(size));
  google::protobuf::io::CodedOutputStream out(&array);
  out.SetSerializationDeterministic(true);
  message.SerializeWithCachedSizes(&out);
  if (out.HadError() || static_cast<size_t>(out.ByteCount()) != size) {
    return Internal("serializing ", message.GetTypeName(), " failed");
  }
  return bytes;
}

Status ModelSerializeImp::ParseBytes(absl::string_view bytes, google::protobuf::MessageLite* message) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return OutOfRange("input of ", bytes.size(), " bytes is larger than protobuf's 2 GiB limit");
  }
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  in.SetRecursionLimit(kProtoRecursionLimit);
  if (!message->ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) {
    return ParseFailed("cannot parse ", message->GetTypeName(), " from ", bytes.size(),
                       " bytes: truncated or malformed data");
  }
  return OkStatus();
}

// ---------------------------------------------------------- ModelSerialize

namespace {

google::protobuf::ArenaOptions ArenaOptionsFor(size_t bytes) {
  google::protobuf::ArenaOptions options;
  options.start_block_size = 64 * 1024;
  options.max_block_size = std::max<size_t>(64 * 1024, std::min<size_t>(bytes / 4, 16 << 20));
  return options;
}

class TextErrors : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, int column, const std::string& message) override {
    if (errors_.size() < 5) errors_.push_back(absl::StrCat(line + 1, ":", column + 1, ": ", message));
  }
  std::string Joined() const { return absl::StrJoin(errors_, "; "); }

 private:
  std::vector<std::string> errors_;
};

}  // namespace

StatusOr<std::string> ModelSerialize::SerializeModel(const ComputeGraph& graph,
                                                     const SerializeOptions& options) {
  google::protobuf::Arena arena(ArenaOptionsFor(1 << 20));
  auto* model = google::protobuf::Arena::CreateMessage<proto::ModelDef>(&arena);
  RETURN_IF_ERROR(ModelSerializeImp::SerializeModel(graph, model, options));
  return ModelSerializeImp::ToBytes(*model);
}

StatusOr<ComputeGraphPtr> ModelSerialize::DeserializeModel(absl::string_view bytes,
                                                           const DeserializeOptions& options) {
  google::protobuf::Arena arena(ArenaOptionsFor(bytes.size()));
  auto* model = google::protobuf::Arena::CreateMessage<proto::ModelDef>(&arena);
  RETURN_IF_ERROR(ModelSerializeImp::ParseBytes(bytes, model));
  return ModelSerializeImp::UnserializeModel(*model, options);
}

StatusOr<std::string> ModelSerialize::SerializeGraph(const ComputeGraph& graph,
                                                     const SerializeOptions& options) {
  google::protobuf::Arena arena(ArenaOptionsFor(1 << 20));
  auto* def = google::protobuf::Arena::CreateMessage<proto::GraphDef>(&arena);
  SerializeContext ctx;
  ctx.options = options;
  RETURN_IF_ERROR(ModelSerializeImp::SerializeGraph(graph, def, ctx));
  return ModelSerializeImp::ToBytes(*def);
}

StatusOr<ComputeGraphPtr> ModelSerialize::DeserializeGraph(absl::string_view bytes,
                                                           const DeserializeOptions& options) {
  google::protobuf::Arena arena(ArenaOptionsFor(bytes.size()));
  auto* def = google::protobuf::Arena::CreateMessage<proto::GraphDef>(&arena);
  RETURN_IF_ERROR(ModelSerializeImp::ParseBytes(bytes, def));
  DeserializeContext ctx;
  ctx.options = options;
  return ModelSerializeImp::UnserializeGraph(*def, ctx);
}

StatusOr<std::string> ModelSerialize::SerializeModelToText(const ComputeGraph& graph,
                                                           const SerializeOptions& options) {
  proto::ModelDef model;
  SerializeOptions text_options = options;
  text_options.layout_strings = true;
  RETURN_IF_ERROR(ModelSerializeImp::SerializeModel(graph, &model, text_options));
  std::string text;
  google::protobuf::TextFormat::Printer printer;
  if (!printer.PrintToString(model, &text)) return Internal("printing the model as text failed");
  return text;
}

StatusOr<ComputeGraphPtr> ModelSerialize::DeserializeModelFromText(
    absl::string_view text, const DeserializeOptions& options) {
  if (text.size() > static_cast<size_t>(INT_MAX)) {
    return OutOfRange("text of ", text.size(), " bytes is larger than 2 GiB");
  }
  proto::ModelDef model;
  google::protobuf::TextFormat::Parser parser;
  TextErrors errors;
  parser.RecordErrorsTo(&errors);
  parser.SetRecursionLimit(kProtoRecursionLimit);
  google::protobuf::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  if (!parser.Parse(&input, &model)) {
    return ParseFailed("cannot parse the model text: ", errors.Joined());
  }
  return ModelSerializeImp::UnserializeModel(model, options);
}

}  // namespace ge
