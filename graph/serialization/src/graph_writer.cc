// graph/serialization/src/graph_writer.cc
//
// The writing half of the graph codec (codec::EncodeModel, EncodeGraph in
// graph_codec.h). GraphWriter emits one GraphDef (fields in number order:
// name, input nodes, outputs, ops, attrs, parent links, nested subgraphs,
// id); an op's input entries are produced from its anchors while the OpDef
// is written (EncodeOp, op_desc_codec.h), and an OutputOrder is added for
// each output whose consumers are not in canonical order.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
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

// Writes a "node:index" string field.
void WriteEntry(WireWriter& w, uint32_t field, const std::string& node_name, int32_t index) {
  char buf[absl::numbers_internal::kFastToBufferSize];
  char* end = absl::numbers_internal::FastIntToBuffer(index, buf);
  const size_t digits = static_cast<size_t>(end - buf);
  w.Tag(field, wire::kLen);
  w.Varint(node_name.size() + 1 + digits);
  char* p = w.Reserve(node_name.size() + 1 + digits);
  std::memcpy(p, node_name.data(), node_name.size());
  p[node_name.size()] = ':';
  std::memcpy(p + node_name.size() + 1, buf, digits);
  w.Commit(node_name.size() + 1 + digits);
}

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

// The name `sg` is registered under at `registry`'s root (see
// ComputeGraph::GetSubgraphRegisteredName).
StatusOr<std::string> RegisteredName(const ComputeGraph& registry, const ComputeGraphPtr& sg) {
  StatusOr<std::string> name = registry.GetSubgraphRegisteredName(*sg);
  if (!name.ok()) {
    return GraphInvalid("subgraph '", sg->GetName(),
                        "' is not registered at its root graph: ", name.status().message());
  }
  return name;
}

// Where a graph sits in its tree (written after its attributes).
struct GraphLinks {
  std::string parent_node;
  std::string parent_graph;
  std::string registered_name;  // empty when equal to the name
};

// The tree written with `graph`, with the links of each subgraph; checks
// unique graph names and that every instance name resolves within it.
struct Tree {
  std::vector<ComputeGraphPtr> subgraphs;
  std::vector<GraphLinks> links;
  const ComputeGraph* root = nullptr;
  const ComputeGraph* registry = nullptr;  // null: subgraphs are not written
  absl::flat_hash_set<std::string> graph_names;

  Status CheckInstances(const ComputeGraph& g, const Node& node) const;
};

class GraphWriter {
 public:
  GraphWriter(const ComputeGraph& graph, const Tree& tree, SerializeContext& ctx)
      : graph_(graph), tree_(tree), ctx_(ctx) {}

  // Writes the GraphDef body; `nested(w)` writes field 15 (nested subgraphs).
  template <typename NestedFn>
  Status Write(const GraphLinks& links, WireWriter& w, NestedFn nested) {
    const size_t start = w.size();
    Status st = WriteBody(links, w, nested);
    if (st.ok() || !restart_) return st;
    // OpDesc ids are not list positions: write again with a position table.
    w.Truncate(start);
    RETURN_IF_ERROR(IndexByName());
    return WriteBody(links, w, nested);
  }

 private:
  template <typename NestedFn>
  Status WriteBody(const GraphLinks& links, WireWriter& w, NestedFn nested) {
    w.String(PGraph::kNameFieldNumber, graph_.GetName());
    for (const NodePtr& in : graph_.GetInputNodes()) {
      if (in == nullptr || !InThisGraph(in.get())) {
        return GraphInvalid("graph '", graph_.GetName(), "': input node '",
                            in == nullptr ? std::string("<null>") : in->GetName(),
                            "' is not a node of the graph");
      }
      w.StringAlways(PGraph::kInputFieldNumber, in->GetName());
    }
    for (const auto& [out, index] : graph_.GetGraphOutNodesInfo()) {
      if (out == nullptr || !InThisGraph(out.get())) {
        return GraphInvalid("graph '", graph_.GetName(), "': output node '",
                            out == nullptr ? std::string("<null>") : out->GetName(),
                            "' is not a node of the graph");
      }
      WriteEntry(w, PGraph::kOutputFieldNumber, out->GetName(), index);
    }
    // One pass: names are hashed for the duplicate check, consumer
    // positions are assumed to be the OpDesc ids (true after a topological
    // sort or a deserialization) and the ids are checked on the way; a
    // mismatch makes Write start over with a position table.
    hashes_.clear();
    nodes_.clear();
    uint32_t i = 0;
    // Large graphs do not fit the caches: the nodes ahead (their anchors,
    // which consumers' output orders read, OpDescs and bodies) are
    // prefetched, two steps deep, so the misses overlap.
    const NodeList& list = graph_.DirectNodes();
    // After the first kSizeSample nodes of a large graph, the bytes they took
    // size the rest (EncodeModel's up-front guess is per node, not per graph).
    constexpr uint32_t kSizeSample = 4096;
    const size_t ops_start = w.size();
    const size_t num_nodes = graph_.GetDirectNodesSize();
    constexpr int kFar = 8, kNear = 4;
    NodeList::const_iterator far = list.begin(), near = list.begin();
    for (int k = 0; k < kFar && far != list.end(); ++k) ++far;
    for (int k = 0; k < kNear && near != list.end(); ++k) ++near;
    for (const NodePtr& node : list) {
      if (far != list.end()) {
        const Node* a = far->get();
        __builtin_prefetch(a->GetOpDescBarePtr());
        __builtin_prefetch(reinterpret_cast<const char*>(a) + 64);
        __builtin_prefetch(reinterpret_cast<const char*>(a) + 128);
        ++far;
      }
      if (near != list.end()) {
        const OpDesc* op = near->get()->GetOpDescBarePtr();
        if (op != nullptr) __builtin_prefetch(&op->GetName());
        ++near;
      }
      const std::string& name = node->GetName();
      if (name.empty()) {
        return GraphInvalid("graph '", graph_.GetName(), "': node ", i, " (type ", node->GetType(),
                            ") has an empty name");
      }
      if (by_name_.empty() && node->GetOpDescBarePtr()->GetId() != i) {
        restart_ = true;
        return Internal("restart");
      }
      hashes_.push_back(NameHash(name));
      nodes_.push_back(node.get());
      const size_t m = w.BeginMessage(PGraph::kOpFieldNumber);
      Status st = WriteOp(*node, w);
      if (!st.ok()) {
        return Annotate(st, "graph '", graph_.GetName(), "' node '", node->GetName(), "': ");
      }
      w.EndMessage(m);
      ++i;
      if (i == kSizeSample && num_nodes >= 2 * kSizeSample) {
        const size_t per_node = (w.size() - ops_start) / kSizeSample;
        w.ReserveTotal(w.size() + per_node * (num_nodes - i) / 8 * 9 + (size_t{64} << 10));
      }
    }
    const auto [a, b] = FindDuplicateName(
        hashes_, [this](size_t k) -> const std::string& { return nodes_[k]->GetName(); });
    if (b < nodes_.size()) {
      return GraphInvalid("graph '", graph_.GetName(), "' has two nodes named '",
                          nodes_[b]->GetName(), "'");
    }
    if (!ctx_.options.structure_only && !graph_.GetAttrStore().empty()) {
      RETURN_IF_ERROR(
          Annotate(EncodeAttrs(graph_.GetAttrStore(), PGraph::kAttrFieldNumber, ctx_, w), "graph '",
                   graph_.GetName(), "': "));
    }
    w.String(PGraph::kParentNodeFieldNumber, links.parent_node);
    w.String(PGraph::kParentGraphFieldNumber, links.parent_graph);
    w.String(PGraph::kRegisteredNameFieldNumber, links.registered_name);
    RETURN_IF_ERROR(nested(w));
    w.UInt32(PGraph::kGraphIdFieldNumber, graph_.GetGraphID());
    return OkStatus();
  }

 private:
  // The position table used when OpDesc ids are not list positions.
  Status IndexByName() {
    by_name_.reserve(graph_.GetDirectNodesSize());
    uint32_t i = 0;
    for (const NodePtr& node : graph_.DirectNodes()) {
      if (!by_name_.emplace(node->GetName(), i++).second) {
        return GraphInvalid("graph '", graph_.GetName(), "' has two nodes named '", node->GetName(),
                            "'");
      }
    }
    return OkStatus();
  }

  uint32_t PositionOf(const Node* node) const {
    if (by_name_.empty()) return static_cast<uint32_t>(node->GetOpDescBarePtr()->GetId());
    return by_name_.at(node->GetName());
  }

  bool InThisGraph(const Node* node) const {
    return node != nullptr && node->GetOwnerComputeGraphBarePtr() == &graph_;
  }

  Status InputEntry(size_t entry, const Anchor* peer, WireWriter& w) const {
    const Node* src = peer->GetOwnerNodeBarePtr();
    if (!InThisGraph(src)) {
      return GraphInvalid("input entry ", entry, " comes from node '",
                          src == nullptr ? std::string("<null>") : src->GetName(),
                          "', which is not in graph '", graph_.GetName(), "'");
    }
    WriteEntry(w, POp::kInputFieldNumber, src->GetName(), peer->GetIdx());
    return OkStatus();
  }

  Status WriteOp(const Node& node, WireWriter& w) {
    const size_t n_in = node.GetAllInDataAnchorsSize();
    const size_t n_out = node.GetAllOutDataAnchorsSize();
    auto inputs = [this, &node, n_in](WireWriter& w) -> Status {
      for (size_t i = 0; i < n_in; ++i) {
        const InDataAnchor* a = node.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
        const Anchor* peer = a->GetPeerOutAnchorPtr();
        if (peer == nullptr) peer = a->GetPeerOutControlAnchorPtr();
        if (peer == nullptr) {
          w.StringAlways(POp::kInputFieldNumber, absl::string_view());
        } else {
          RETURN_IF_ERROR(InputEntry(i, peer, w));
        }
      }
      const absl::Span<Anchor* const> ctrl = node.InControlPeers();
      for (size_t k = 0; k < ctrl.size(); ++k) RETURN_IF_ERROR(InputEntry(n_in + k, ctrl[k], w));
      return OkStatus();
    };
    auto tail = [this, &node, n_in, n_out](WireWriter& w, size_t descs_in,
                                           size_t descs_out) -> Status {
      // Against the descs written (none in a structure-only dump).
      if (n_in != descs_in)
        w.UInt32Always(POp::kInAnchorNumFieldNumber, static_cast<uint32_t>(n_in));
      if (n_out != descs_out)
        w.UInt32Always(POp::kOutAnchorNumFieldNumber, static_cast<uint32_t>(n_out));
      for (size_t k = 0; k < n_out; ++k) {
        RETURN_IF_ERROR(
            OutputOrder(node.GetOutDataAnchorBarePtr(static_cast<int32_t>(k))->PeerAnchors(),
                        static_cast<int32_t>(k), w));
      }
      return OutputOrder(node.OutControlPeers(), -1, w);
    };
    if (!node.GetOpDescBarePtr()->GetSubgraphInstanceNames().empty() &&
        !ctx_.options.omit_subgraphs) {
      RETURN_IF_ERROR(tree_.CheckInstances(graph_, node));
    }
    return EncodeOp(*node.GetOpDescBarePtr(), ctx_, w, inputs, tail);
  }

  // Checks that every consumer of one output is in this graph and records
  // the consumer order when it is not canonical.
  Status OutputOrder(absl::Span<Anchor* const> peers, int32_t index, WireWriter& w) {
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
      const uint32_t slot = p->IsInControl() ? UINT32_MAX : static_cast<uint32_t>(p->GetIdx());
      const uint32_t pos = PositionOf(p->GetOwnerNodeBarePtr());
      keys_.push_back((static_cast<uint64_t>(pos) << 32) | slot);
    }
    if (std::is_sorted(keys_.begin(), keys_.end())) return OkStatus();
    order_.resize(keys_.size());
    for (size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<uint32_t>(i);
    std::sort(order_.begin(), order_.end(),
              [this](uint32_t a, uint32_t b) { return keys_[a] < keys_[b]; });
    std::vector<uint32_t> rank(order_.size());
    for (size_t r = 0; r < order_.size(); ++r) rank[order_[r]] = static_cast<uint32_t>(r);
    const size_t m = w.BeginMessage(POp::kOutputOrderFieldNumber);
    w.Int32(POrder::kIndexFieldNumber, index);
    w.PackedUInt32<uint32_t>(POrder::kPeerRankFieldNumber, rank);
    w.EndMessage(m);
    return OkStatus();
  }

  const ComputeGraph& graph_;
  const Tree& tree_;
  SerializeContext& ctx_;
  absl::flat_hash_map<absl::string_view, uint32_t> by_name_;  // positions, when ids are not
  std::vector<const Node*> nodes_;
  std::vector<uint64_t> hashes_;
  bool restart_ = false;
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> order_;
};

StatusOr<Tree> CollectTree(const ComputeGraph& graph, const SerializeContext& ctx) {
  Tree tree;
  if (ctx.options.omit_subgraphs) return tree;
  tree.subgraphs = CollectSubgraphs(graph);
  const ComputeGraph* registry = graph.GetRootGraphBarePtr();
  absl::flat_hash_set<std::string> graph_names = {graph.GetName()};
  for (const ComputeGraphPtr& sg : tree.subgraphs) {
    if (!graph_names.insert(sg->GetName()).second) {
      return GraphInvalid("the graph tree of '", graph.GetName(), "' has two graphs named '",
                          sg->GetName(), "'");
    }
    GraphLinks links;
    ASSIGN_OR_RETURN(std::string registered, RegisteredName(*registry, sg));
    if (registered != sg->GetName()) links.registered_name = std::move(registered);
    const ComputeGraph* parent_graph = sg->GetParentGraphBarePtr();
    const NodePtr parent_node = sg->GetParentNode();
    if (parent_graph != nullptr) links.parent_graph = parent_graph->GetName();
    if (parent_node != nullptr) links.parent_node = parent_node->GetName();
    tree.links.push_back(std::move(links));
  }
  tree.root = &graph;
  tree.registry = registry;
  tree.graph_names = std::move(graph_names);
  return tree;
}

// Every instance name of an op must name a subgraph written with the tree
// (the reader checks the same).
Status Tree::CheckInstances(const ComputeGraph& g, const Node& node) const {
  for (const std::string& inst : node.GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
    if (inst.empty()) continue;
    const ComputeGraphPtr sg = registry == nullptr ? nullptr : registry->GetSubgraph(inst);
    if (sg == nullptr || (sg.get() != root && !graph_names.contains(sg->GetName()))) {
      return GraphInvalid("graph '", g.GetName(), "' node '", node.GetName(),
                          "' refers to subgraph '", inst,
                          "', which is not registered in the graph tree");
    }
  }
  return OkStatus();
}

Status NoNested(WireWriter&) { return OkStatus(); }

// Expected GraphDef size (for the length bytes reserved in front of it).
size_t SizeHint(const ComputeGraph& graph) { return 96 * graph.GetDirectNodesSize(); }

}  // namespace

Status EncodeModel(const ComputeGraph& graph, SerializeContext& ctx, std::string* out) {
  ASSIGN_OR_RETURN(const Tree tree, CollectTree(graph, ctx));
  // On small pages: huge-page advice here made the first round trip of a
  // 1M-node graph 3.4 us/node instead of 1.4 in a third of the runs on the
  // build VM (fresh 2 MiB pages; see graph/src/pool_allocator.cc).
  out->reserve(out->size() + 128 * (graph.GetDirectNodesSize() + 1));
  WireWriter w(out);
  w.String(PModel::kNameFieldNumber, graph.GetName());
  size_t m = w.BeginMessage(PModel::kGraphFieldNumber, SizeHint(graph));
  RETURN_IF_ERROR(GraphWriter(graph, tree, ctx).Write(GraphLinks(), w, NoNested));
  w.EndMessage(m);
  for (size_t i = 0; i < tree.subgraphs.size(); ++i) {
    m = w.BeginMessage(PModel::kGraphFieldNumber, SizeHint(*tree.subgraphs[i]));
    RETURN_IF_ERROR(GraphWriter(*tree.subgraphs[i], tree, ctx).Write(tree.links[i], w, NoNested));
    w.EndMessage(m);
  }
  if (w.size() > static_cast<size_t>(INT_MAX)) {
    return Overflow("the serialized model is ", w.size(),
                    " bytes, more than protobuf's 2 GiB limit");
  }
  return OkStatus();
}

Status EncodeGraph(const ComputeGraph& graph, SerializeContext& ctx, std::string* out) {
  ASSIGN_OR_RETURN(const Tree tree, CollectTree(graph, ctx));
  WireWriter w(out);
  auto nested = [&tree, &ctx](WireWriter& w) -> Status {
    for (size_t i = 0; i < tree.subgraphs.size(); ++i) {
      const size_t m = w.BeginMessage(PGraph::kSubgraphFieldNumber, SizeHint(*tree.subgraphs[i]));
      RETURN_IF_ERROR(GraphWriter(*tree.subgraphs[i], tree, ctx).Write(tree.links[i], w, NoNested));
      w.EndMessage(m);
    }
    return OkStatus();
  };
  return GraphWriter(graph, tree, ctx).Write(GraphLinks(), w, nested);
}

}  // namespace codec
}  // namespace ge
