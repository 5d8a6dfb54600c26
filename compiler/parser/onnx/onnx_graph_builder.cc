// compiler/parser/onnx/onnx_graph_builder.cc
#include "compiler/parser/onnx/onnx_graph_builder.h"

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/parser/onnx/onnx_op_map.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"

namespace ge {
namespace onnx_parser {

using onnx::AttributeProto;
using onnx::GraphProto;
using onnx::ModelProto;
using onnx::NodeProto;
using onnx::ValueInfoProto;

namespace {

// A produced value: output `index` of `node`; node == nullptr for a value
// whose producer failed to build (consumers skip it quietly). In
// Scope::by_id, index kUnset marks a value not built (yet).
struct ValueRef {
  static constexpr int32_t kUnset = -1;
  Node* node = nullptr;
  int32_t index = 0;
};

// Outer-scope values captured by the bodies of one node. Names view the
// model proto's strings.
struct CaptureTable {
  std::vector<absl::string_view> names;
  std::vector<ValueRef> outer;
  absl::flat_hash_map<absl::string_view, size_t> index;
};

enum class BodyKind { kIf, kLoop, kScan, kGeneric };

// IR-based plan of a node's inputs / outputs: the instance counts of its
// dynamic input / output (-1 when it has none; names point into the
// registration).
struct IoPlan {
  int64_t dynamic_in = -1;
  int64_t dynamic_out = -1;
  const std::string* dynamic_in_name = nullptr;
  const std::string* dynamic_out_name = nullptr;
};

Status PlanDynamic(const std::vector<OpIoDef>& ios, size_t count, absl::string_view what,
                   int64_t* dynamic_count, const std::string** dynamic_name) {
  size_t fixed = 0;
  const OpIoDef* dynamic = nullptr;
  for (const OpIoDef& io : ios) {
    if (io.kind == IoKind::kDynamic) {
      if (dynamic != nullptr) {
        return NotSupported("op declares two dynamic ", what, "s ('", dynamic->name, "', '",
                            io.name, "')");
      }
      dynamic = &io;
    } else {
      ++fixed;
    }
  }
  if (dynamic != nullptr) {
    *dynamic_count = static_cast<int64_t>(count > fixed ? count - fixed : 0);
    *dynamic_name = &dynamic->name;
  } else if (count > fixed) {
    return ParamInvalid("has ", count, " ", what, "s but the op takes at most ", fixed);
  }
  return OkStatus();
}

// Value and node names view strings that outlive the build: the model proto's
// (which the builder only reads) or GraphBuilder::names_.
struct Scope {
  Scope* parent = nullptr;
  ComputeGraphPtr graph;
  std::string path;
  // The graph's own values by id (index), and the others it reads
  // (captured outer values) by name.
  GraphIndex index;
  std::vector<ValueRef> by_id;
  absl::flat_hash_map<absl::string_view, ValueRef> values;
  absl::flat_hash_set<absl::string_view> node_names;
  // Generated node names ("<op_type>_<index>", unnamed nodes) need no entry
  // in node_names when no other name of the graph can equal one (see
  // GraphBuilder::UniqueNodeName): set for the root graph when none of its
  // given names ends in "_<digits>". `suffixed` is set once a "_<k>" name
  // was made (generated names are then checked against node_names).
  const GraphProto* proto = nullptr;
  bool unchecked_generated_names = false;
  bool suffixed = false;

  // The value of a name built so far (nullptr when none).
  const ValueRef* Find(absl::string_view name) const {
    const int32_t id = index.Find(name);
    if (id >= 0 && by_id[static_cast<size_t>(id)].index != ValueRef::kUnset) {
      return &by_id[static_cast<size_t>(id)];
    }
    auto it = values.find(name);
    return it == values.end() ? nullptr : &it->second;
  }
  void Set(absl::string_view name, ValueRef v) {
    const int32_t id = index.Find(name);
    if (id >= 0) {
      by_id[static_cast<size_t>(id)] = v;
    } else {
      values[name] = v;
    }
  }
  // Bodies only.
  CaptureTable* captures = nullptr;
  std::map<size_t, NodePtr> capture_data;  // capture index -> Data node
};

// The value infos of a graph by value name (the first one of a name wins;
// inputs, then outputs, then value_info). Descs are converted when a value
// is built, not up front.
using DescMap = absl::flat_hash_map<absl::string_view, const ValueInfoProto*>;

class GraphBuilder {
 public:
  // `root_index` (may be null): the root graph's index made by the
  // Validator, when the root graph has not changed since; `root_ops` (may
  // be null or empty): the op lookups of the root graph's nodes by index.
  GraphBuilder(const ModelProto& model, const ParseOptions& options, TensorLoadContext tensors,
               const HeldWeights* held, OpResolver* ops, Problems* problems, GraphIndex* root_index,
               const std::vector<OpLookup>* root_ops)
      : model_(model),
        options_(options),
        tensors_(std::move(tensors)),
        held_(held),
        ops_(ops),
        problems_(problems),
        root_index_(root_index),
        root_ops_(root_ops != nullptr &&
                          root_ops->size() == static_cast<size_t>(model.graph().node_size())
                      ? root_ops
                      : nullptr) {}

  StatusOr<ComputeGraphPtr> Build();

 private:
  // A node name unique in the scope: `wanted`, else "<wanted>_<k>". `wanted`
  // must outlive the build when `stable` (a proto string or a literal); it is
  // copied into names_ otherwise.
  std::string UniqueNodeName(Scope* scope, absl::string_view wanted, bool stable) {
    if (wanted.empty()) {
      wanted = "node";
      stable = true;
    }
    if (stable) {
      if (scope->node_names.insert(wanted).second) return std::string(wanted);
    } else if (!scope->node_names.contains(wanted)) {
      wanted = names_.emplace_back(wanted);
      scope->node_names.insert(wanted);
      return std::string(wanted);
    }
    for (int64_t k = 1;; ++k) {
      // With unchecked generated names, "<wanted>_<k>" must not be the
      // generated name of node k (unnamed, op type `wanted`).
      if (scope->unchecked_generated_names && k < scope->proto->node_size() &&
          scope->proto->node(static_cast<int>(k)).name().empty() &&
          scope->proto->node(static_cast<int>(k)).op_type() == wanted) {
        continue;
      }
      std::string candidate = absl::StrCat(wanted, "_", k);
      if (!scope->node_names.contains(candidate)) {
        scope->suffixed = true;
        scope->node_names.insert(names_.emplace_back(std::move(candidate)));
        return names_.back();
      }
    }
  }

  // Whether `name` has the form of a generated node name ("..._<digits>").
  static bool LooksGenerated(absl::string_view name) {
    const size_t underscore = name.rfind('_');
    if (underscore == absl::string_view::npos || underscore + 1 == name.size()) return false;
    for (size_t i = underscore + 1; i < name.size(); ++i) {
      if (name[i] < '0' || name[i] > '9') return false;
    }
    return true;
  }

  // Enables unchecked generated names for the root scope when no given name
  // of g (Data, Const, node) looks generated. Generated names are unique
  // among themselves (the index after the last '_' tells them apart).
  static void PlanGeneratedNames(Scope* scope, const GraphProto& g) {
    scope->proto = &g;
    for (const ValueInfoProto& vi : g.input()) {
      if (LooksGenerated(vi.name())) return;
    }
    for (const onnx::TensorProto& t : g.initializer()) {
      if (LooksGenerated(t.name())) return;
    }
    for (const onnx::SparseTensorProto& t : g.sparse_initializer()) {
      if (LooksGenerated(t.values().name())) return;
    }
    for (const NodeProto& n : g.node()) {
      if (LooksGenerated(n.name())) return;
    }
    scope->unchecked_generated_names = true;
  }

  // UniqueNodeName for the hot path: returns stable storage instead of a
  // copy: `wanted` itself when `stable` (it must outlive the build) and
  // unique, else a string in names_.
  const std::string& UniqueNodeNameRef(Scope* scope, const std::string& wanted, bool stable) {
    if (wanted.empty()) {
      static const std::string* const kNode = new std::string("node");
      return UniqueNodeNameRef(scope, *kNode, /*stable=*/true);
    }
    if (stable) {
      if (scope->node_names.insert(wanted).second) return wanted;
    } else {
      const std::string& copy = names_.emplace_back(wanted);
      if (scope->node_names.insert(copy).second) return copy;
      names_.pop_back();
    }
    UniqueNodeName(scope, wanted, stable);  // taken: the suffixed name, in names_
    return names_.back();
  }

  std::string UniqueSubgraphName(const std::string& wanted) {
    if (subgraph_names_.insert(wanted).second) return wanted;
    for (int64_t k = 1;; ++k) {
      std::string candidate = absl::StrCat(wanted, "_", k);
      if (subgraph_names_.insert(candidate).second) return candidate;
    }
  }

  // Desc of a named value from the value infos, named after the value
  // (unknown rank, DT_UNDEFINED and unnamed when absent or not convertible).
  GeTensorDesc DescOf(absl::string_view name, const DescMap& local) const {
    const DescMap* maps[2] = {&local, &local == &global_descs_ ? nullptr : &global_descs_};
    for (const DescMap* m : maps) {
      if (m == nullptr) break;  // the root graph: one lookup
      auto it = m->find(name);
      if (it == m->end()) continue;
      StatusOr<GeTensorDesc> d = onnx_parser::DescFromOnnxType(it->second->type(), "value");
      if (!d.ok()) continue;
      d->SetName(it->second->name());
      return std::move(d).value();
    }
    return GeTensorDesc(GeShape({UNKNOWN_RANK}), FORMAT_ND, DT_UNDEFINED);
  }

  static GeTensorDesc ProducerDesc(const ValueRef& v) {
    if (v.node == nullptr) return GeTensorDesc();
    return v.node->GetOpDescBarePtr()->GetOutputDesc(static_cast<uint32_t>(v.index));
  }

  // The OpDesc of a new node of a registered type: a pooled copy of a
  // per-parse prototype made by OperatorFactory::CreateOpDesc (same IR
  // metadata, descs, defaults and function slots) renamed.
  StatusOr<OpDescPtr> CreateOpDesc(const std::string& name, const OpLookup& op, const IoPlan& io);

  void CollectDescs(const GraphProto& g, DescMap* out);
  // Indexes g's values for the scope (or takes `prebuilt`, g's index) and
  // reserves its node name table.
  static void ReserveScope(Scope* scope, const GraphProto& g, GraphIndex* prebuilt = nullptr) {
    const size_t bounds = static_cast<size_t>(g.node_size()) + 1;
    if (prebuilt != nullptr && prebuilt->in_begin.size() == bounds &&
        prebuilt->out_begin.size() == bounds) {
      scope->index = std::move(*prebuilt);
    } else {
      IndexGraph(g, &scope->index);
    }
    scope->by_id.assign(scope->index.size(), ValueRef{nullptr, ValueRef::kUnset});
    // Given names (generated ones of the root graph mostly stay out).
    size_t names =
        static_cast<size_t>(g.input_size() + g.initializer_size() + g.sparse_initializer_size()) +
        1;
    for (const NodeProto& n : g.node()) names += n.name().empty() ? 0 : 1;
    scope->node_names.reserve(names);
  }

  StatusOr<NodePtr> AddDataNode(Scope* scope, absl::string_view name, bool stable_name,
                                const GeTensorDesc& desc);
  void BuildConsts(Scope* scope, const GraphProto& g);
  Status BuildRootOutputs(Scope* scope, const GraphProto& g, const DescMap& descs);
  void BuildNodes(Scope* scope, const GraphProto& g, const DescMap& descs);
  void BuildNode(Scope* scope, const GraphProto& g, int index, const DescMap& descs);
  // Marks the outputs of node `index` of the scope's graph as failed.
  static void PoisonOutputs(Scope* scope, int index) {
    const GraphIndex& gi = scope->index;
    for (int32_t k = gi.out_begin[static_cast<size_t>(index)];
         k < gi.out_begin[static_cast<size_t>(index) + 1]; ++k) {
      const int32_t id = gi.out_ids[static_cast<size_t>(k)];
      if (id >= 0) scope->by_id[static_cast<size_t>(id)] = ValueRef{};
    }
  }
  // `name` views a proto string.
  StatusOr<ValueRef> Resolve(Scope* scope, absl::string_view name);

  // One subgraph (GRAPH attribute) of a node, built before the node.
  struct BodyPlan {
    std::string attr;
    const GraphProto* proto = nullptr;
    ComputeGraphPtr graph;
    std::unique_ptr<Scope> scope;
    std::vector<NodePtr> formal_data;  // Data nodes of the formal inputs
    std::vector<ValueRef> outputs;     // the body outputs (ONNX order)
    std::vector<GeTensorDesc> output_descs;
  };
  Status BuildBody(Scope* parent, const NodeProto& n, int index, BodyPlan* plan,
                   CaptureTable* captures);
  Status FinishBody(BodyPlan* plan, BodyKind kind, size_t n_carried, const CaptureTable& captures,
                    size_t onnx_inputs);
  Status AddNetOutput(Scope* scope, const std::vector<ValueRef>& values,
                      const std::vector<GeTensorDesc>& descs,
                      const std::vector<int64_t>& parent_indices);

  // Links src to input `slot` of dst (whose input desc the caller already
  // set to the producer's output desc).
  static Status LinkAnchors(const ValueRef& src, Node* dst, uint32_t slot) {
    if (src.node == nullptr) return OkStatus();
    const GeTensorDesc* desc =
        src.node->GetOpDescBarePtr()->PeekOutputDesc(static_cast<uint32_t>(src.index));
    OutDataAnchor* out = src.node->GetOutDataAnchorBarePtr(src.index);
    InDataAnchor* in = dst->GetInDataAnchorBarePtr(static_cast<int32_t>(slot));
    if (desc == nullptr || out == nullptr || in == nullptr) {
      return Internal("cannot link output ", src.index, " of ", src.node->GetName(), " to input ",
                      slot, " of ", dst->GetName());
    }
    return out->LinkTo(in);
  }

  const ModelProto& model_;
  const ParseOptions& options_;
  const TensorLoadContext tensors_;
  const HeldWeights* held_;  // root graph initializer bytes held out of model_
  OpResolver* ops_;
  Problems* problems_;
  GraphIndex* root_index_;
  const std::vector<OpLookup>* root_ops_;
  ComputeGraphPtr root_;
  DescMap global_descs_;
  absl::flat_hash_set<std::string> subgraph_names_;
  // Subgraphs in the order they were bound (every one after its descendants).
  std::vector<std::pair<std::string, ComputeGraphPtr>> pending_subgraphs_;
  // Root graph ONNX node name -> its outputs (ONNX order), for output_nodes
  // (filled only when output_nodes is set).
  absl::flat_hash_map<absl::string_view, std::vector<ValueRef>> root_node_outputs_;
  // Names made up by the builder (views in Scope::node_names point here).
  std::deque<std::string> names_;
  std::string name_buffer_;  // generated node names are built here
  // CreateOpDesc prototypes by (registration, dynamic input count, dynamic
  // output count); -1 when the op has no dynamic input / output.
  absl::flat_hash_map<std::tuple<const OpRegistrationData*, int64_t, int64_t>, OpDescPtr>
      prototypes_;
};

void GraphBuilder::CollectDescs(const GraphProto& g, DescMap* out) {
  out->reserve(out->size() +
               static_cast<size_t>(g.input_size() + g.output_size() + g.value_info_size()));
  auto add = [&](const ValueInfoProto& vi) {
    if (!vi.name().empty()) out->emplace(vi.name(), &vi);
  };
  for (const ValueInfoProto& vi : g.input()) add(vi);
  for (const ValueInfoProto& vi : g.output()) add(vi);
  for (const ValueInfoProto& vi : g.value_info()) add(vi);
}

StatusOr<OpDescPtr> GraphBuilder::CreateOpDesc(const std::string& name, const OpLookup& op,
                                               const IoPlan& io) {
  const auto key = std::make_tuple(op.reg, io.dynamic_in, io.dynamic_out);
  auto it = prototypes_.find(key);
  if (it == prototypes_.end()) {
    std::map<std::string, uint32_t> counts;
    if (io.dynamic_in >= 0) counts[*io.dynamic_in_name] = static_cast<uint32_t>(io.dynamic_in);
    if (io.dynamic_out >= 0) counts[*io.dynamic_out_name] = static_cast<uint32_t>(io.dynamic_out);
    ASSIGN_OR_RETURN(OpDescPtr proto,
                     OperatorFactory::CreateOpDesc(name, op.mapping->op_type, counts));
    it = prototypes_.emplace(key, std::move(proto)).first;
  }
  OpDescPtr desc = OpDesc::Create(*it->second);
  desc->SetName(name);
  return desc;
}

StatusOr<NodePtr> GraphBuilder::AddDataNode(Scope* scope, absl::string_view name, bool stable_name,
                                            const GeTensorDesc& desc) {
  OpDescPtr op = OpDesc::Create(UniqueNodeName(scope, name, stable_name), DATA);
  RETURN_IF_ERROR(op->AddInputDesc("x", desc));
  RETURN_IF_ERROR(op->AddOutputDesc("y", desc));
  return scope->graph->AddNode(op);
}

void GraphBuilder::BuildConsts(Scope* scope, const GraphProto& g) {
  const std::string where = GraphLabel(scope->path);
  auto add_const = [&](const std::string& name, StatusOr<GeTensor> t) {
    if (!t.ok()) {
      problems_->AddStatus(t.status(), where);
      scope->Set(name, ValueRef{});
      return;
    }
    OpDescPtr op = OpDesc::Create(UniqueNodeName(scope, name, /*stable=*/true), CONSTANT);
    GeTensorDesc desc = t->GetTensorDesc();
    desc.SetName(name);
    Status st = op->AddOutputDesc("y", desc);
    if (st.ok()) st = AttrUtils::SetTensor(op, ATTR_NAME_WEIGHTS, std::move(t).value());
    StatusOr<NodePtr> node = st.ok() ? scope->graph->AddNode(op) : StatusOr<NodePtr>(st);
    if (!node.ok()) {
      problems_->AddStatus(node.status(), absl::StrCat(where, "initializer '", name, "': "));
      scope->Set(name, ValueRef{});
      return;
    }
    scope->Set(name, ValueRef{node->get(), 0});
  };
  const bool root = scope->parent == nullptr;
  // The error label of each initializer, rebuilt in one buffer (no
  // allocation per initializer once it is long enough).
  std::string what;
  for (const onnx::TensorProto& t : g.initializer()) {
    what.assign("initializer '");
    what.append(t.name());
    what.push_back('\'');
    if (root && held_ != nullptr && t.raw_data().empty() &&
        t.data_location() != onnx::TensorProto::EXTERNAL) {
      auto it = held_->raw.find(t.name());
      if (it != held_->raw.end()) {
        const FileExtent extent{held_->fd,
                                static_cast<uint64_t>(it->second.data() - held_->file_base)};
        add_const(t.name(),
                  onnx_parser::TensorFromOnnxWithRawData(t, it->second, held_->owner, what,
                                                         held_->fd >= 0 ? &extent : nullptr));
        continue;
      }
    }
    add_const(t.name(), onnx_parser::TensorFromOnnx(t, tensors_, what));
  }
  for (const onnx::SparseTensorProto& t : g.sparse_initializer()) {
    add_const(t.values().name(),
              onnx_parser::SparseTensorFromOnnx(
                  t, tensors_, absl::StrCat("sparse initializer '", t.values().name(), "'")));
  }
}

StatusOr<ValueRef> GraphBuilder::Resolve(Scope* scope, absl::string_view name) {
  if (const ValueRef* v = scope->Find(name)) return *v;
  if (scope->parent == nullptr || scope->captures == nullptr) {
    return NotFound("value '", name, "' is not defined");
  }
  ASSIGN_OR_RETURN(ValueRef outer, Resolve(scope->parent, name));
  CaptureTable& table = *scope->captures;
  size_t j;
  auto cit = table.index.find(name);
  if (cit == table.index.end()) {
    j = table.names.size();
    table.names.push_back(name);
    table.outer.push_back(outer);
    table.index.emplace(name, j);
  } else {
    j = cit->second;
  }
  GeTensorDesc desc = ProducerDesc(outer);
  ASSIGN_OR_RETURN(NodePtr data, AddDataNode(scope, name, /*stable_name=*/true, desc));
  scope->capture_data[j] = data;
  ValueRef v{data.get(), 0};
  scope->Set(name, v);
  return v;
}

Status GraphBuilder::BuildBody(Scope* parent, const NodeProto& n, int index, BodyPlan* plan,
                               CaptureTable* captures) {
  const std::string path = SubgraphPath(parent->path, n, index, plan->attr);
  plan->graph =
      std::make_shared<ComputeGraph>(plan->proto->name().empty() ? path : plan->proto->name());
  plan->scope = std::make_unique<Scope>();
  Scope* scope = plan->scope.get();
  scope->parent = parent;
  scope->graph = plan->graph;
  scope->path = path;
  scope->captures = captures;

  DescMap descs;
  CollectDescs(*plan->proto, &descs);
  ReserveScope(scope, *plan->proto);
  for (const ValueInfoProto& vi : plan->proto->input()) {
    ASSIGN_OR_RETURN(NodePtr data,
                     AddDataNode(scope, vi.name(), /*stable_name=*/true, DescOf(vi.name(), descs)));
    scope->Set(vi.name(), ValueRef{data.get(), 0});
    plan->formal_data.push_back(data);
  }
  BuildConsts(scope, *plan->proto);
  BuildNodes(scope, *plan->proto, descs);
  for (const ValueInfoProto& vi : plan->proto->output()) {
    StatusOr<ValueRef> v = Resolve(scope, vi.name());
    if (!v.ok()) {
      problems_->AddStatus(v.status(), absl::StrCat(GraphLabel(path), "graph output: "));
      plan->outputs.push_back(ValueRef{});
    } else {
      plan->outputs.push_back(*v);
    }
    GeTensorDesc d = DescOf(vi.name(), descs);
    if (d.GetDataType() == DT_UNDEFINED && v.ok() && v->node != nullptr) d = ProducerDesc(*v);
    plan->output_descs.push_back(d);
  }
  return OkStatus();
}

Status GraphBuilder::AddNetOutput(Scope* scope, const std::vector<ValueRef>& values,
                                  const std::vector<GeTensorDesc>& descs,
                                  const std::vector<int64_t>& parent_indices) {
  OpDescPtr op = OpDesc::Create(UniqueNodeName(scope, "NetOutput", /*stable=*/true), NETOUTPUT);
  for (size_t i = 0; i < values.size(); ++i) {
    if (i < parent_indices.size() && parent_indices[i] >= 0) {
      GeTensorDesc d = descs[i];
      RETURN_IF_ERROR(AttrUtils::SetInt(d, ATTR_NAME_PARENT_NODE_INDEX, parent_indices[i]));
      RETURN_IF_ERROR(op->AddInputDesc(absl::StrCat("x", i), d));
    } else {
      RETURN_IF_ERROR(op->AddInputDesc(absl::StrCat("x", i), descs[i]));
    }
  }
  ASSIGN_OR_RETURN(NodePtr node, scope->graph->AddNode(op));
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].node == nullptr) continue;
    OutDataAnchor* out = values[i].node->GetOutDataAnchorBarePtr(values[i].index);
    InDataAnchor* in = node->GetInDataAnchorBarePtr(static_cast<int32_t>(i));
    if (out == nullptr || in == nullptr) {
      return Internal("cannot link output ", values[i].index, " of ", values[i].node->GetName(),
                      " to NetOutput input ", i);
    }
    RETURN_IF_ERROR(out->LinkTo(in));
  }
  return OkStatus();
}

// Sets the parent indices of the body's Data nodes, adds the pass-through
// captures (Loop / Scan) and the NetOutput.
Status GraphBuilder::FinishBody(BodyPlan* plan, BodyKind kind, size_t n_carried,
                                const CaptureTable& captures, size_t onnx_inputs) {
  Scope* scope = plan->scope.get();
  const size_t c = captures.names.size();
  // Formal inputs.
  for (size_t i = 0; i < plan->formal_data.size(); ++i) {
    int64_t parent = static_cast<int64_t>(i);
    if (kind == BodyKind::kScan && i >= n_carried) parent = static_cast<int64_t>(i + c);
    RETURN_IF_ERROR(
        AttrUtils::SetInt(plan->formal_data[i]->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX, parent));
  }
  // Captures: every one needs a Data node when it is passed through.
  const bool pass_through = kind == BodyKind::kLoop || kind == BodyKind::kScan;
  for (size_t j = 0; j < c; ++j) {
    if (pass_through && scope->capture_data.count(j) == 0) {
      GeTensorDesc desc = ProducerDesc(captures.outer[j]);
      ASSIGN_OR_RETURN(NodePtr data,
                       AddDataNode(scope, captures.names[j], /*stable_name=*/true, desc));
      scope->capture_data[j] = data;
    }
  }
  for (const auto& [j, data] : scope->capture_data) {
    int64_t parent = 0;
    switch (kind) {
      case BodyKind::kIf:
        parent = static_cast<int64_t>(1 + j);
        break;
      case BodyKind::kLoop:
        parent = static_cast<int64_t>(2 + n_carried + j);
        break;
      case BodyKind::kScan:
        parent = static_cast<int64_t>(n_carried + j);
        break;
      case BodyKind::kGeneric:
        parent = static_cast<int64_t>(onnx_inputs + j);
        break;
    }
    RETURN_IF_ERROR(AttrUtils::SetInt(data->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX, parent));
  }
  // Outputs.
  std::vector<ValueRef> values;
  std::vector<GeTensorDesc> descs;
  std::vector<int64_t> parents;
  const size_t n_out = plan->outputs.size();
  if (kind == BodyKind::kLoop || kind == BodyKind::kScan) {
    // Loop: cond, n carried, [captures], k scans. Scan: n states, [captures], k scans.
    const size_t lead = kind == BodyKind::kLoop ? 1 : 0;
    for (size_t i = 0; i < n_out; ++i) {
      if (i == lead + n_carried) {
        for (size_t j = 0; j < c; ++j) {
          const NodePtr& data = scope->capture_data[j];
          values.push_back(ValueRef{data.get(), 0});
          descs.push_back(data->GetOpDescBarePtr()->GetOutputDesc(0));
          parents.push_back(static_cast<int64_t>(n_carried + j));
        }
      }
      values.push_back(plan->outputs[i]);
      descs.push_back(plan->output_descs[i]);
      if (i < lead) {
        parents.push_back(-1);
      } else if (i < lead + n_carried) {
        parents.push_back(static_cast<int64_t>(i - lead));
      } else {
        parents.push_back(static_cast<int64_t>(i - lead + c));
      }
    }
    if (n_out <= lead + n_carried) {
      for (size_t j = 0; j < c; ++j) {
        const NodePtr& data = scope->capture_data[j];
        values.push_back(ValueRef{data.get(), 0});
        descs.push_back(data->GetOpDescBarePtr()->GetOutputDesc(0));
        parents.push_back(static_cast<int64_t>(n_carried + j));
      }
    }
  } else {
    for (size_t i = 0; i < n_out; ++i) {
      values.push_back(plan->outputs[i]);
      descs.push_back(plan->output_descs[i]);
      parents.push_back(static_cast<int64_t>(i));
    }
  }
  return AddNetOutput(scope, values, descs, parents);
}

void GraphBuilder::BuildNodes(Scope* scope, const GraphProto& g, const DescMap& descs) {
  const std::vector<int> order = TopologicalOrder(g, scope->index, scope->path, problems_);
  if (static_cast<int>(order.size()) != g.node_size()) {
    // Nodes on a cycle (already reported) are not built; their values are
    // poisoned so that consumers do not report them again.
    std::vector<bool> sorted(static_cast<size_t>(g.node_size()), false);
    for (int i : order) sorted[static_cast<size_t>(i)] = true;
    for (int i = 0; i < g.node_size(); ++i) {
      if (sorted[static_cast<size_t>(i)]) continue;
      PoisonOutputs(scope, i);
    }
  }
  for (int i : order) BuildNode(scope, g, i, descs);
}

void GraphBuilder::BuildNode(Scope* scope, const GraphProto& g, int index, const DescMap& descs) {
  const NodeProto& n = g.node(index);
  // Only built when a problem is reported.
  auto label = [&]() { return absl::StrCat(GraphLabel(scope->path), NodeLabel(n, index), ": "); };
  auto poison = [&]() { PoisonOutputs(scope, index); };
  OpLookup op;
  if (scope->parent == nullptr && root_ops_ != nullptr) {
    op = (*root_ops_)[static_cast<size_t>(index)];
  } else {
    StatusOr<OpLookup> op_or = ops_->Find(n);
    if (!op_or.ok()) {
      problems_->AddStatus(op_or.status(), label());
      return poison();
    }
    op = *op_or;
  }

  // ONNX inputs.
  absl::InlinedVector<ValueRef, 4> inputs(static_cast<size_t>(n.input_size()));
  absl::InlinedVector<bool, 8> present(static_cast<size_t>(n.input_size()), false);
  bool failed = false;
  const int32_t* in_ids =
      scope->index.in_ids.data() + scope->index.in_begin[static_cast<size_t>(index)];
  for (int k = 0; k < n.input_size(); ++k) {
    const int32_t id = in_ids[k];
    if (id == GraphIndex::kEmpty) continue;
    if (id >= 0 && scope->by_id[static_cast<size_t>(id)].index != ValueRef::kUnset) {
      inputs[static_cast<size_t>(k)] = scope->by_id[static_cast<size_t>(id)];
      present[static_cast<size_t>(k)] = true;
      continue;
    }
    StatusOr<ValueRef> v = Resolve(scope, n.input(k));
    if (!v.ok()) {
      problems_->AddStatus(v.status(), label());
      failed = true;
      continue;
    }
    inputs[static_cast<size_t>(k)] = *v;
    present[static_cast<size_t>(k)] = true;
  }

  // Subgraphs.
  const bool has_bodies = HasSubgraphs(n);
  BodyKind kind = BodyKind::kGeneric;
  if (has_bodies) {
    if (op.mapping->op_type == IF) kind = BodyKind::kIf;
    if (op.mapping->op_type == "Loop") kind = BodyKind::kLoop;
    if (op.mapping->op_type == "Scan") kind = BodyKind::kScan;
  }
  CaptureTable captures;
  std::vector<BodyPlan> bodies;
  size_t n_carried = 0;
  size_t n_scan_in = 0;
  const size_t onnx_in = static_cast<size_t>(n.input_size());
  const size_t onnx_out = static_cast<size_t>(n.output_size());
  if (has_bodies) {
    if (kind == BodyKind::kLoop) {
      if (onnx_in < 2) {
        problems_->Add(ErrorCode::kGraphInvalid, label(),
                       "Loop needs its inputs M and cond (names may be empty), got ", onnx_in,
                       " inputs");
        return poison();
      }
      n_carried = onnx_in - 2;
    } else if (kind == BodyKind::kScan) {
      int64_t m = 0;
      for (const AttributeProto& a : n.attribute()) {
        if (a.name() == "num_scan_inputs") m = a.i();
      }
      if (m < 1 || static_cast<size_t>(m) > onnx_in) {
        problems_->Add(ErrorCode::kParamInvalid, label(), "num_scan_inputs is ", m,
                       ", expected 1..", onnx_in);
        return poison();
      }
      n_scan_in = static_cast<size_t>(m);
      n_carried = onnx_in - n_scan_in;
    }
    for (const AttributeProto& a : n.attribute()) {
      if (a.has_g()) {
        BodyPlan p;
        p.attr = a.name();
        p.proto = &a.g();
        bodies.push_back(std::move(p));
      }
      if (a.graphs_size() > 0) {
        problems_->Add(ErrorCode::kNotSupported, label(), "attribute '", a.name(),
                       "' holds a list of graphs, which is not supported");
        return poison();
      }
    }
    for (BodyPlan& body : bodies) {
      Status st = BuildBody(scope, n, index, &body, &captures);
      if (!st.ok()) {
        problems_->AddStatus(st, label());
        return poison();
      }
    }
    for (BodyPlan& body : bodies) {
      Status st = FinishBody(&body, kind, n_carried, captures, onnx_in);
      if (!st.ok()) {
        problems_->AddStatus(st, label());
        return poison();
      }
    }
  }
  if (failed) return poison();
  const size_t c = captures.names.size();
  const bool pass_through = kind == BodyKind::kLoop || kind == BodyKind::kScan;

  // Slots: ONNX input k -> slot; capture j -> slot.
  auto in_slot = [&](size_t k) -> size_t {
    return (kind == BodyKind::kScan && k >= n_carried) ? k + c : k;
  };
  auto capture_slot = [&](size_t j) -> size_t {
    return kind == BodyKind::kScan ? n_carried + j : onnx_in + j;
  };
  auto out_slot = [&](size_t i) -> size_t { return (pass_through && i >= n_carried) ? i + c : i; };
  const size_t total_in = onnx_in + c;
  const size_t total_out = onnx_out + (pass_through ? c : 0);

  IoPlan io;
  Status st = PlanDynamic(op.reg->inputs, total_in, "input", &io.dynamic_in, &io.dynamic_in_name);
  if (st.ok()) {
    st = PlanDynamic(op.reg->outputs, total_out, "output", &io.dynamic_out, &io.dynamic_out_name);
  }
  if (!st.ok()) {
    problems_->AddStatus(st, label());
    return poison();
  }
  const std::string* node_name_ptr;
  if (n.name().empty()) {
    name_buffer_.assign(n.op_type());
    name_buffer_.push_back('_');
    absl::StrAppend(&name_buffer_, index);
    if (scope->unchecked_generated_names &&
        (!scope->suffixed || !scope->node_names.contains(name_buffer_))) {
      node_name_ptr = &name_buffer_;  // unique (see PlanGeneratedNames); valid in this call
    } else {
      node_name_ptr = &UniqueNodeNameRef(scope, name_buffer_, /*stable=*/false);
    }
  } else {
    node_name_ptr = &UniqueNodeNameRef(scope, n.name(), /*stable=*/true);
  }
  const std::string& node_name = *node_name_ptr;
  StatusOr<OpDescPtr> desc_or = CreateOpDesc(node_name, op, io);
  if (!desc_or.ok()) {
    problems_->AddStatus(desc_or.status(), label());
    return poison();
  }
  OpDescPtr desc = *desc_or;
  st = op.mapping->MapAttrs(&n, *desc);
  if (!st.ok()) {
    problems_->AddStatus(st, label());
    return poison();
  }
  // Required inputs must be present.
  {
    size_t slot = 0;
    for (const OpIoDef& ir : op.reg->inputs) {
      const size_t count = ir.kind != IoKind::kDynamic      ? static_cast<size_t>(1)
                           : &ir.name == io.dynamic_in_name ? static_cast<size_t>(io.dynamic_in)
                                                            : static_cast<size_t>(0);
      if (ir.kind == IoKind::kRequired) {
        bool have = false;
        for (size_t k = 0; k < onnx_in && !have; ++k) have = in_slot(k) == slot && present[k];
        for (size_t j = 0; j < c && !have; ++j) have = capture_slot(j) == slot;
        if (!have) {
          problems_->Add(ErrorCode::kGraphInvalid, label(), "required input ", slot, " ('", ir.name,
                         "') is missing");
          return poison();
        }
      }
      slot += count;
    }
  }
  // Input descs (the producers' output descs) before the output descs: an
  // input desc equal to the desc set last (typically the previous node's
  // output) shares its storage instead of copying it (OpDesc's desc pool).
  // A slot or producer output that does not exist is left to Link, which
  // reports it.
  auto set_input_desc = [&](const ValueRef& src, size_t slot) {
    if (src.node == nullptr || slot >= desc->GetAllInputsSize()) return OkStatus();
    const GeTensorDesc* d =
        src.node->GetOpDescBarePtr()->PeekOutputDesc(static_cast<uint32_t>(src.index));
    if (d == nullptr) return OkStatus();
    return desc->UpdateInputDesc(static_cast<uint32_t>(slot), *d);
  };
  for (size_t k = 0; k < onnx_in && st.ok(); ++k) {
    if (present[k]) st = set_input_desc(inputs[k], in_slot(k));
  }
  for (size_t j = 0; j < c && st.ok(); ++j) {
    st = set_input_desc(captures.outer[j], capture_slot(j));
  }
  // Output descs.
  for (size_t i = 0; i < onnx_out && st.ok(); ++i) {
    const std::string& name = n.output(static_cast<int>(i));
    if (name.empty()) continue;
    GeTensorDesc d = DescOf(name, descs);
    if (d.GetName() != name) d.SetName(name);
    st = desc->UpdateOutputDesc(static_cast<uint32_t>(out_slot(i)), d);
    if (!st.ok()) break;
  }
  if (st.ok() && pass_through) {
    for (size_t j = 0; j < c && st.ok(); ++j) {
      GeTensorDesc d = ProducerDesc(captures.outer[j]);
      st = desc->UpdateOutputDesc(static_cast<uint32_t>(n_carried + j), d);
    }
  }
  if (st.ok() && has_bodies) {
    st = AttrUtils::SetInt(desc, kAttrCapturedInputs, static_cast<int64_t>(c));
  }
  StatusOr<NodePtr> node_or = st.ok() ? scope->graph->AddNode(desc) : StatusOr<NodePtr>(st);
  if (!node_or.ok()) {
    problems_->AddStatus(node_or.status(), label());
    return poison();
  }
  const NodePtr& node = *node_or;
  for (size_t k = 0; k < onnx_in && st.ok(); ++k) {
    if (present[k]) st = LinkAnchors(inputs[k], node.get(), static_cast<uint32_t>(in_slot(k)));
  }
  for (size_t j = 0; j < c && st.ok(); ++j) {
    st = LinkAnchors(captures.outer[j], node.get(), static_cast<uint32_t>(capture_slot(j)));
  }
  // Subgraphs: bind to the node's slots and register at the root.
  const std::map<std::string, uint32_t> slots =
      bodies.empty() ? std::map<std::string, uint32_t>() : desc->GetSubgraphNameIndexes();
  for (BodyPlan& body : bodies) {
    if (!st.ok()) break;
    auto sit = slots.find(body.attr);
    if (sit == slots.end()) {
      st = NotSupported("op ", op.mapping->op_type, " has no subgraph slot '", body.attr, "'");
      break;
    }
    const std::string sub_name = UniqueSubgraphName(absl::StrCat(node_name, "_", body.attr));
    body.graph->SetName(sub_name);
    body.graph->SetParentGraph(scope->graph);
    body.graph->SetParentNode(node);
    st = desc->SetSubgraphInstanceName(sit->second, sub_name);
    // Registered at the root once the whole tree exists (nested bodies are
    // built before their parents).
    if (st.ok()) pending_subgraphs_.emplace_back(sub_name, body.graph);
  }
  if (!st.ok()) {
    problems_->AddStatus(st, label());
    return poison();
  }
  const int32_t* out_ids =
      scope->index.out_ids.data() + scope->index.out_begin[static_cast<size_t>(index)];
  for (size_t i = 0; i < onnx_out; ++i) {
    if (out_ids[i] >= 0) {
      scope->by_id[static_cast<size_t>(out_ids[i])] =
          ValueRef{node.get(), static_cast<int32_t>(out_slot(i))};
    }
  }
  if (scope->parent == nullptr && !n.name().empty() && !options_.output_nodes.empty()) {
    std::vector<ValueRef>& outs = root_node_outputs_[n.name()];
    for (size_t i = 0; i < onnx_out; ++i) {
      outs.push_back(n.output(static_cast<int>(i)).empty()
                         ? ValueRef{}
                         : ValueRef{node.get(), static_cast<int32_t>(out_slot(i))});
    }
  }
}

Status GraphBuilder::BuildRootOutputs(Scope* scope, const GraphProto& g, const DescMap& descs) {
  std::vector<ValueRef> values;
  std::vector<GeTensorDesc> out_descs;
  auto add = [&](const ValueRef& v, const std::string& name) {
    values.push_back(v);
    GeTensorDesc d = DescOf(name, descs);
    if (d.GetDataType() == DT_UNDEFINED && v.node != nullptr) d = ProducerDesc(v);
    out_descs.push_back(d);
  };
  const std::string where = GraphLabel(scope->path);
  if (options_.output_nodes.empty()) {
    for (const ValueInfoProto& vi : g.output()) {
      StatusOr<ValueRef> v = Resolve(scope, vi.name());
      if (!v.ok()) {
        problems_->AddStatus(v.status(), absl::StrCat(where, "graph output: "));
        continue;
      }
      add(*v, vi.name());
    }
  } else {
    for (const std::string& entry : options_.output_nodes) {
      if (const ValueRef* v = scope->Find(entry)) {
        add(*v, entry);
        continue;
      }
      auto nit = root_node_outputs_.find(entry);
      if (nit != root_node_outputs_.end()) {
        for (const ValueRef& v : nit->second) {
          if (v.node != nullptr) add(v, "");
        }
        continue;
      }
      const size_t colon = entry.rfind(':');
      int64_t idx = -1;
      if (colon != std::string::npos &&
          absl::SimpleAtoi(absl::string_view(entry).substr(colon + 1), &idx)) {
        nit = root_node_outputs_.find(entry.substr(0, colon));
        if (nit != root_node_outputs_.end()) {
          if (idx < 0 || static_cast<size_t>(idx) >= nit->second.size() ||
              nit->second[static_cast<size_t>(idx)].node == nullptr) {
            return ParamInvalid("output_nodes: node '", entry.substr(0, colon), "' has no output ",
                                idx, " (it has ", nit->second.size(), ")");
          }
          add(nit->second[static_cast<size_t>(idx)], "");
          continue;
        }
      }
      return ParamInvalid("output_nodes: '", entry, "' is neither a value nor a node of graph '",
                          scope->path, "'");
    }
  }
  RETURN_IF_ERROR(AddNetOutput(scope, values, out_descs, {}));
  std::vector<std::pair<NodePtr, int32_t>> info;
  for (const ValueRef& v : values) {
    if (v.node != nullptr) info.emplace_back(v.node->shared_from_this(), v.index);
  }
  root_->SetGraphOutNodesInfo(info);
  return OkStatus();
}

StatusOr<ComputeGraphPtr> GraphBuilder::Build() {
  const GraphProto& g = model_.graph();
  const std::string name = g.name().empty() ? std::string(kDefaultGraphName) : g.name();
  root_ = std::make_shared<ComputeGraph>(name);
  subgraph_names_.insert(name);
  Scope scope;
  scope.graph = root_;
  scope.path = name;
  CollectDescs(g, &global_descs_);
  ReserveScope(&scope, g, root_index_);
  PlanGeneratedNames(&scope, g);

  absl::flat_hash_set<absl::string_view> inits;
  inits.reserve(static_cast<size_t>(g.initializer_size() + g.sparse_initializer_size()));
  for (const onnx::TensorProto& t : g.initializer()) inits.insert(t.name());
  for (const onnx::SparseTensorProto& t : g.sparse_initializer()) inits.insert(t.values().name());
  int64_t index = 0;
  for (const ValueInfoProto& vi : g.input()) {
    if (inits.contains(vi.name())) continue;
    GeTensorDesc desc = DescOf(vi.name(), global_descs_);
    ASSIGN_OR_RETURN(NodePtr data, AddDataNode(&scope, vi.name(), /*stable_name=*/true, desc));
    RETURN_IF_ERROR(AttrUtils::SetInt(data->GetOpDesc(), kAttrDataIndex, index++));
    scope.Set(vi.name(), ValueRef{data.get(), 0});
  }
  BuildConsts(&scope, g);
  BuildNodes(&scope, g, global_descs_);
  RETURN_IF_ERROR(BuildRootOutputs(&scope, g, global_descs_));
  // Parents before children.
  for (auto it = pending_subgraphs_.rbegin(); it != pending_subgraphs_.rend(); ++it) {
    RETURN_IF_ERROR(root_->AddSubgraph(it->first, it->second));
  }
  return root_;
}

}  // namespace

StatusOr<ComputeGraphPtr> BuildGraph(const ModelProto& model, const ParseOptions& options,
                                     TensorLoadContext tensors, const HeldWeights* held,
                                     OpResolver* ops, Problems* problems, GraphIndex* root_index,
                                     const std::vector<OpLookup>* root_ops) {
  GraphBuilder builder(model, options, std::move(tensors), held, ops, problems, root_index,
                       root_ops);
  return builder.Build();
}
}  // namespace onnx_parser
}  // namespace ge
