// graph/serialization/src/graph_text_printer.cc
//
// PrintGraphText and SubgraphsBelow (graph_text.h): the text form's printer.
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/serialization/inc/graph_text.h"
#include "graph/serialization/inc/tensor_serialize_utils.h"
#include "graph/serialization/src/graph_text_syntax.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

using namespace graph_text_internal;  // NOLINT(build/namespaces): the shared lexical helpers

// ================================================================ printer

class Printer {
 public:
  explicit Printer(std::string* out) : out_(out) {}

  // `graph` and its subgraphs; the caller is at the start of a line at
  // `indent` (or in a value: the subgraph blocks follow on new lines).
  void Tree(const ComputeGraph& graph, int indent) {
    Block(graph, "graph", nullptr, indent);
    for (const ComputeGraphPtr& sg : SubgraphsBelow(graph)) {
      *out_ += "\n";
      Pad(indent);
      Block(*sg, "subgraph", graph.GetRootGraphBarePtr(), indent);
    }
  }

 private:
  void Pad(int indent) { out_->append(static_cast<size_t>(indent), ' '); }

  void Block(const ComputeGraph& g, const char* keyword, const ComputeGraph* root, int indent) {
    *out_ += absl::StrCat(keyword, " ", Name(g.GetName()));
    if (root != nullptr) {
      StatusOr<std::string> reg = root->GetSubgraphRegisteredName(g);
      if (reg.ok() && *reg != g.GetName()) *out_ += absl::StrCat(" as ", Quote(*reg));
      const NodePtr parent = g.GetParentNode();
      const ComputeGraph* pg = g.GetParentGraphBarePtr();
      if (parent != nullptr && pg != nullptr) {
        *out_ += absl::StrCat(" parent ", Ref(parent->GetName()), " in ", Name(pg->GetName()));
      }
    }
    *out_ += " {\n";
    const int in = indent + 2;
    if (g.GetGraphID() != 0) {
      Pad(in);
      *out_ += absl::StrCat("id = ", g.GetGraphID(), "\n");
    }
    if (!g.GetAttrStore().empty()) {
      Pad(in);
      *out_ += "attrs ";
      Dict(g.GetAttrStore(), in);
      *out_ += "\n";
    }
    std::map<const Node*, size_t> positions;
    std::vector<Node*> nodes;
    for (const NodePtr& n : g.DirectNodes()) {
      positions[n.get()] = nodes.size();
      nodes.push_back(n.get());
    }
    size_t i = 0;
    for (Node* n : nodes) {
      Pad(in);
      NodeLine(*n, i++, positions, in);
      *out_ += "\n";
    }
    std::vector<std::string> defaults, actual;
    for (Node* n : nodes) {
      if (IsDataTypeNode(n->GetType())) defaults.push_back(n->GetName());
    }
    for (const NodePtr& n : g.GetInputNodes()) actual.push_back(n == nullptr ? "" : n->GetName());
    if (defaults != actual) {
      Pad(in);
      std::vector<std::string> refs;
      for (const std::string& s : actual) refs.push_back(Ref(s));
      *out_ += absl::StrCat("inputs(", absl::StrJoin(refs, ", "), ")\n");
    }
    if (!g.GetGraphOutNodesInfo().empty()) {
      Pad(in);
      std::vector<std::string> refs;
      for (const auto& [n, idx] : g.GetGraphOutNodesInfo()) {
        refs.push_back(absl::StrCat(Ref(n == nullptr ? "" : n->GetName()), ":", idx));
      }
      *out_ += absl::StrCat("outputs(", absl::StrJoin(refs, ", "), ")\n");
    }
    Pad(indent);
    *out_ += "}";
    if (indent == 0) *out_ += "\n";
  }

  static std::string Source(const Anchor* peer) {
    if (peer == nullptr) return "_";
    const Node* n = peer->GetOwnerNodeBarePtr();
    return absl::StrCat(Ref(n == nullptr ? "" : n->GetName()), ":", peer->GetIdx());
  }

  // The canonical key of a consumer anchor: (node position, input index;
  // the control input after every data input).
  static std::pair<size_t, int64_t> ConsumerKey(const Anchor* a,
                                                const std::map<const Node*, size_t>& pos) {
    const Node* n = a->GetOwnerNodeBarePtr();
    auto it = pos.find(n);
    const size_t p = it == pos.end() ? std::numeric_limits<size_t>::max() : it->second;
    return {p, a->IsInControl() ? std::numeric_limits<int64_t>::max() : a->GetIdx()};
  }

  static std::string Use(const Anchor* a) {
    const Node* n = a->GetOwnerNodeBarePtr();
    const std::string r = Ref(n == nullptr ? "" : n->GetName());
    return a->IsInControl() ? absl::StrCat("^", r) : absl::StrCat(r, ":", a->GetIdx());
  }

  void NodeLine(const Node& node, size_t index, const std::map<const Node*, size_t>& pos,
                int indent) {
    const OpDesc& op = *node.GetOpDescBarePtr();
    *out_ += absl::StrCat(Ref(op.GetName()), " = ", Name(op.GetType()), "(");
    std::vector<std::string> ins;
    for (size_t i = 0; i < node.GetAllInDataAnchorsSize(); ++i) {
      const InDataAnchor* a = node.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
      const auto peers = a->PeerAnchors();
      ins.push_back(Source(peers.empty() ? nullptr : peers[0]));
    }
    for (const Anchor* p : node.InControlPeers()) {
      const Node* n = p->GetOwnerNodeBarePtr();
      const std::string r = Ref(n == nullptr ? "" : n->GetName());
      ins.push_back(p->IsOutControl() ? absl::StrCat("^", r)
                                      : absl::StrCat("^", r, ":", p->GetIdx()));
    }
    *out_ += absl::StrJoin(ins, ", ");
    *out_ += ")";
    Props(node, op, index);
    if (!op.GetAttrStore().empty()) {
      *out_ += " ";
      Dict(op.GetAttrStore(), indent);
    }
    *out_ += " : (";
    for (uint32_t i = 0; i < op.GetAllInputsSize(); ++i) {
      if (i > 0) *out_ += ", ";
      const std::string* name = op.GetInputNamePtr(i);
      const bool optional = op.IsOptionalInput(i);
      if ((name != nullptr && *name != absl::StrCat("__input", i)) || optional) {
        *out_ += Name(name == nullptr ? "" : *name);
        if (optional) *out_ += "?";
        *out_ += ": ";
      }
      Type(*op.GetInputDescBarePtr(i), indent);
    }
    *out_ += ") -> (";
    for (uint32_t i = 0; i < op.GetAllOutputsDescSize(); ++i) {
      if (i > 0) *out_ += ", ";
      const std::string* name = op.GetOutputNamePtr(i);
      if (name != nullptr && *name != absl::StrCat("__output", i)) {
        *out_ += absl::StrCat(Name(*name), ": ");
      }
      Type(*op.GetOutputDescBarePtr(i), indent);
    }
    *out_ += ")";
    // Consumer orders that are not canonical.
    std::vector<std::string> orders;
    auto order_of = [&](const Anchor* a, int32_t idx) {
      const auto peers = a->PeerAnchors();
      std::vector<const Anchor*> sorted(peers.begin(), peers.end());
      std::stable_sort(sorted.begin(), sorted.end(), [&pos](const Anchor* x, const Anchor* y) {
        return ConsumerKey(x, pos) < ConsumerKey(y, pos);
      });
      if (std::equal(sorted.begin(), sorted.end(), peers.begin())) return;
      std::vector<std::string> uses;
      for (const Anchor* p : peers) uses.push_back(Use(p));
      orders.push_back(absl::StrCat(idx, " = [", absl::StrJoin(uses, ", "), "]"));
    };
    for (size_t k = 0; k < node.GetAllOutDataAnchorsSize(); ++k) {
      order_of(node.GetOutDataAnchorBarePtr(static_cast<int32_t>(k)), static_cast<int32_t>(k));
    }
    if (node.HasControlAnchors()) order_of(node.GetOutControlAnchorBarePtr(), -1);
    if (!orders.empty()) *out_ += absl::StrCat(" order(", absl::StrJoin(orders, ", "), ")");
  }

  static std::string Ints(const std::vector<int64_t>& v) {
    return absl::StrCat("[", absl::StrJoin(v, ", "), "]");
  }
  static std::string Strings(const std::vector<std::string>& v) {
    std::vector<std::string> q;
    for (const std::string& s : v) q.push_back(Quote(s));
    return absl::StrCat("[", absl::StrJoin(q, ", "), "]");
  }

  void Props(const Node& node, const OpDesc& op, size_t index) {
    std::vector<std::string> p;
    if (op.GetId() != static_cast<int64_t>(index)) p.push_back(absl::StrCat("id = ", op.GetId()));
    if (op.GetStreamId() != 0) p.push_back(absl::StrCat("stream = ", op.GetStreamId()));
    if (node.GetAllOutDataAnchorsSize() != op.GetAllOutputsDescSize()) {
      p.push_back(absl::StrCat("out_anchors = ", node.GetAllOutDataAnchorsSize()));
    }
    auto ints = [&p](const char* key, const std::vector<int64_t>& v) {
      if (!v.empty()) p.push_back(absl::StrCat(key, " = ", Ints(v)));
    };
    auto strs = [&p](const char* key, const std::vector<std::string>& v) {
      if (!v.empty()) p.push_back(absl::StrCat(key, " = ", Strings(v)));
    };
    ints("input_offsets", op.GetInputOffset());
    ints("output_offsets", op.GetOutputOffset());
    ints("workspace", op.GetWorkspace());
    ints("workspace_bytes", op.GetWorkspaceBytes());
    if (!op.GetOpEngineName().empty())
      p.push_back(absl::StrCat("engine = ", Quote(op.GetOpEngineName())));
    if (!op.GetOpKernelLibName().empty()) {
      p.push_back(absl::StrCat("kernel_lib = ", Quote(op.GetOpKernelLibName())));
    }
    strs("src_names", op.GetSrcName());
    ints("src_indices", op.GetSrcIndex());
    strs("dst_names", op.GetDstName());
    ints("dst_indices", op.GetDstIndex());
    const std::vector<bool> is_const = op.GetIsInputConst();
    if (!is_const.empty()) {
      std::vector<std::string> b;
      for (bool x : is_const) b.push_back(x ? "true" : "false");
      p.push_back(absl::StrCat("is_input_const = [", absl::StrJoin(b, ", "), "]"));
    }
    if (!op.GetIrInputs().empty()) {
      std::vector<std::string> v;
      for (const auto& [n, k] : op.GetIrInputs()) {
        v.push_back(absl::StrCat(Quote(n), k == kIrInputOptional  ? "?"
                                           : k == kIrInputDynamic ? "*"
                                                                  : ""));
      }
      p.push_back(absl::StrCat("ir_inputs = [", absl::StrJoin(v, ", "), "]"));
    }
    if (!op.GetIrOutputs().empty()) {
      std::vector<std::string> v;
      for (const auto& [n, k] : op.GetIrOutputs()) {
        v.push_back(absl::StrCat(Quote(n), k == kIrOutputDynamic ? "*" : ""));
      }
      p.push_back(absl::StrCat("ir_outputs = [", absl::StrJoin(v, ", "), "]"));
    }
    strs("ir_attrs", op.GetIrAttrNames());
    if (!op.GetOrderedSubgraphIrNames().empty()) {
      std::vector<std::string> v;
      for (const auto& [n, k] : op.GetOrderedSubgraphIrNames()) {
        v.push_back(absl::StrCat(Quote(n), k == kDynamic ? "*" : ""));
      }
      p.push_back(absl::StrCat("ir_subgraphs = [", absl::StrJoin(v, ", "), "]"));
    }
    const std::vector<std::string>& inst = op.GetSubgraphInstanceNames();
    if (!inst.empty()) {
      std::vector<std::string> slot_of(inst.size());
      std::vector<bool> has_slot(inst.size(), false);
      for (const auto& [slot, idx] : op.GetSubgraphNameIndexes()) {
        if (idx < inst.size()) {
          slot_of[idx] = slot;
          has_slot[idx] = true;
        }
      }
      std::vector<std::string> v;
      for (size_t i = 0; i < inst.size(); ++i) {
        v.push_back(has_slot[i] ? absl::StrCat(Quote(slot_of[i]), ": ", Quote(inst[i]))
                                : Quote(inst[i]));
      }
      p.push_back(absl::StrCat("subgraphs = [", absl::StrJoin(v, ", "), "]"));
    }
    if (!p.empty()) *out_ += absl::StrCat(" <", absl::StrJoin(p, ", "), ">");
  }

  static std::string Dims(const GeShape& s) {
    return absl::StrCat("[", absl::StrJoin(s.GetDimsSpan(), ","), "]");
  }
  static std::string Ranges(const GeTensorDesc::ShapeRange& r) {
    std::vector<std::string> v;
    for (const auto& [lo, hi] : r) v.push_back(absl::StrCat("[", lo, ",", hi, "]"));
    return absl::StrCat("[", absl::StrJoin(v, ", "), "]");
  }
  static std::string FormatText(Format f) {
    StatusOr<std::string> s = GeTensorSerializeUtils::FormatToLayout(f);
    if (s.ok() && !s->empty() && IsBareStart((*s)[0])) return *s;
    return absl::StrCat(static_cast<int32_t>(f));
  }

  void Type(const GeTensorDesc& d, int indent) {
    *out_ += absl::StrCat(DtypeName(d.GetDataType()), Dims(d.GetShape()));
    if (d.GetFormat() != FORMAT_ND) *out_ += absl::StrCat(" ", FormatText(d.GetFormat()));
    std::vector<std::string> x;
    if (d.GetOriginShape() != d.GetShape())
      x.push_back(absl::StrCat("origin_shape = ", Dims(d.GetOriginShape())));
    if (d.GetOriginDataType() != d.GetDataType()) {
      x.push_back(absl::StrCat("origin_dtype = ", DtypeName(d.GetOriginDataType())));
    }
    if (d.GetOriginFormat() != d.GetFormat()) {
      x.push_back(absl::StrCat("origin_format = ", FormatText(d.GetOriginFormat())));
    }
    if (!d.GetName().empty()) x.push_back(absl::StrCat("name = ", Quote(d.GetName())));
    if (!d.GetShapeRange().empty())
      x.push_back(absl::StrCat("range = ", Ranges(d.GetShapeRange())));
    if (!d.GetOriginShapeRange().empty()) {
      x.push_back(absl::StrCat("origin_range = ", Ranges(d.GetOriginShapeRange())));
    }
    if (d.HasRealDimCnt()) x.push_back(absl::StrCat("real_dim_cnt = ", d.GetRealDimCnt()));
    if (d.GetSizeMeta() != 0) x.push_back(absl::StrCat("size = ", d.GetSizeMeta()));
    if (d.GetWeightSize() != 0) x.push_back(absl::StrCat("weight_size = ", d.GetWeightSize()));
    if (d.GetReuseInput()) x.push_back("reuse_input = true");
    if (d.GetReuseInputIndex() != 0) {
      x.push_back(absl::StrCat("reuse_input_index = ", d.GetReuseInputIndex()));
    }
    if (d.GetDataOffset() != 0) x.push_back(absl::StrCat("data_offset = ", d.GetDataOffset()));
    if (d.GetDeviceType() == DeviceType::kCpu) x.push_back("device = CPU");
    if (d.IsInputTensor()) x.push_back("input_tensor = true");
    if (d.IsOutputTensor()) x.push_back("output_tensor = true");
    if (x.empty() && d.GetAttrStore().empty()) return;
    *out_ += absl::StrCat(" {", absl::StrJoin(x, ", "));
    if (!d.GetAttrStore().empty()) {
      *out_ += x.empty() ? "attrs = " : ", attrs = ";
      Dict(d.GetAttrStore(), indent);
    }
    *out_ += "}";
  }

  void Dict(const AttrStore& store, int indent) {
    *out_ += "{";
    for (size_t i = 0; i < store.size(); ++i) {
      if (i > 0) *out_ += ", ";
      *out_ += absl::StrCat(Name(store.NameAt(i)), " = ");
      Value(store.ValueAt(i), indent);
    }
    *out_ += "}";
  }

  void Tensor(const GeTensor& t, int indent) {
    const GeTensorDesc& d = t.GetTensorDesc();
    *out_ += "tensor(";
    Type(d, indent);
    const absl::Span<const uint8_t> bytes = t.GetBytes();
    if (!bytes.empty()) {
      const size_t es = LiteralElementSize(d.GetDataType());
      StatusOr<int64_t> count = d.GetShape().GetShapeSize();
      bool literal = es != 0 && count.ok() && !d.GetShape().IsUnknownShape() && *count > 0 &&
                     *count <= kMaxLiteralElements &&
                     bytes.size() == static_cast<size_t>(*count) * es;
      std::vector<std::string> v;
      for (size_t i = 0; literal && i < bytes.size(); i += es) {
        std::string e = ElementText(d.GetDataType(), bytes.data() + i);
        if (e.empty()) literal = false;
        v.push_back(std::move(e));
      }
      if (literal) {
        *out_ += absl::StrCat(", [", absl::StrJoin(v, ", "), "]");
      } else {
        *out_ += absl::StrCat(", b64\"",
                              absl::Base64Escape(absl::string_view(
                                  reinterpret_cast<const char*>(bytes.data()), bytes.size())),
                              "\"");
      }
    }
    *out_ += ")";
  }

  void GraphValue(const ComputeGraphPtr& g, int indent) {
    if (g == nullptr) {
      *out_ += "null";
      return;
    }
    Printer nested(out_);
    nested.Tree(*g, indent);
  }

  void NamedValue(const NamedAttrs& n, int indent) {
    *out_ += absl::StrCat("named(", Quote(n.GetName()), ", ");
    Dict(n.GetAttrStore(), indent);
    *out_ += ")";
  }

  template <typename T, typename Fn>
  void List(const std::vector<T>& v, AttrValue::ValueType type, Fn fn) {
    if (v.empty()) absl::StrAppend(out_, AttrValue::ValueTypeName(type));
    *out_ += "[";
    for (size_t i = 0; i < v.size(); ++i) {
      if (i > 0) *out_ += ", ";
      fn(v[i]);
    }
    *out_ += "]";
  }

  void Value(const AttrValue& v, int indent) {
    using VT = AttrValue;
    switch (v.GetValueType()) {
      case VT::VT_NONE:
        *out_ += "none";
        return;
      case VT::VT_INT:
        *out_ += absl::StrCat(*v.Get<int64_t>());
        return;
      case VT::VT_FLOAT:
        *out_ += FloatText(*v.Get<float>());
        return;
      case VT::VT_BOOL:
        *out_ += *v.Get<bool>() ? "true" : "false";
        return;
      case VT::VT_STRING:
        *out_ += Quote(*v.Get<std::string>());
        return;
      case VT::VT_DATA_TYPE:
        *out_ += TypeUtils::DataTypeToSerialString(*v.Get<DataType>());
        return;
      case VT::VT_TENSOR_DESC:
        *out_ += "desc(";
        Type(*v.Get<GeTensorDesc>(), indent);
        *out_ += ")";
        return;
      case VT::VT_TENSOR:
        Tensor(*v.Get<GeTensor>(), indent);
        return;
      case VT::VT_BYTES: {
        const auto& b = *v.Get<AttrValue::Bytes>();
        *out_ += absl::StrCat(
            "b", Quote(absl::string_view(reinterpret_cast<const char*>(b.data()), b.size())));
        return;
      }
      case VT::VT_GRAPH:
        GraphValue(*v.Get<ComputeGraphPtr>(), indent);
        return;
      case VT::VT_NAMED_ATTRS:
        NamedValue(*v.Get<NamedAttrs>(), indent);
        return;
      case VT::VT_LIST_LIST_INT: {
        const auto& l = *v.Get<std::vector<std::vector<int64_t>>>();
        bool all_empty = true;
        for (const auto& x : l) all_empty = all_empty && x.empty();
        if (all_empty && !l.empty()) *out_ += "list_list_int";
        List(l, v.GetValueType(), [this](const std::vector<int64_t>& x) { *out_ += Ints(x); });
        return;
      }
      case VT::VT_LIST_LIST_FLOAT: {
        const auto& l = *v.Get<std::vector<std::vector<float>>>();
        bool all_empty = true;
        for (const auto& x : l) all_empty = all_empty && x.empty();
        if (all_empty && !l.empty()) *out_ += "list_list_float";
        List(l, v.GetValueType(), [this](const std::vector<float>& x) {
          std::vector<std::string> s;
          for (float f : x) s.push_back(FloatText(f));
          *out_ += absl::StrCat("[", absl::StrJoin(s, ", "), "]");
        });
        return;
      }
      case VT::VT_LIST_INT:
        List(*v.Get<std::vector<int64_t>>(), v.GetValueType(),
             [this](int64_t x) { *out_ += absl::StrCat(x); });
        return;
      case VT::VT_LIST_FLOAT:
        List(*v.Get<std::vector<float>>(), v.GetValueType(),
             [this](float x) { *out_ += FloatText(x); });
        return;
      case VT::VT_LIST_BOOL: {
        const std::vector<bool>& b = *v.Get<std::vector<bool>>();
        std::vector<int> as_int(b.begin(), b.end());
        List(as_int, v.GetValueType(), [this](int x) { *out_ += x ? "true" : "false"; });
        return;
      }
      case VT::VT_LIST_STRING:
        List(*v.Get<std::vector<std::string>>(), v.GetValueType(),
             [this](const std::string& x) { *out_ += Quote(x); });
        return;
      case VT::VT_LIST_DATA_TYPE:
        List(*v.Get<std::vector<DataType>>(), v.GetValueType(),
             [this](DataType x) { *out_ += TypeUtils::DataTypeToSerialString(x); });
        return;
      case VT::VT_LIST_TENSOR_DESC:
        List(*v.Get<std::vector<GeTensorDesc>>(), v.GetValueType(),
             [this, indent](const GeTensorDesc& x) {
               *out_ += "desc(";
               Type(x, indent);
               *out_ += ")";
             });
        return;
      case VT::VT_LIST_TENSOR:
        List(*v.Get<std::vector<GeTensor>>(), v.GetValueType(),
             [this, indent](const GeTensor& x) { Tensor(x, indent); });
        return;
      case VT::VT_LIST_BYTES:
        List(*v.Get<std::vector<AttrValue::Bytes>>(), v.GetValueType(),
             [this](const AttrValue::Bytes& b) {
               *out_ += absl::StrCat("b", Quote(absl::string_view(
                                              reinterpret_cast<const char*>(b.data()), b.size())));
             });
        return;
      case VT::VT_LIST_GRAPH:
        List(*v.Get<std::vector<ComputeGraphPtr>>(), v.GetValueType(),
             [this, indent](const ComputeGraphPtr& g) { GraphValue(g, indent); });
        return;
      case VT::VT_LIST_NAMED_ATTRS:
        List(*v.Get<std::vector<NamedAttrs>>(), v.GetValueType(),
             [this, indent](const NamedAttrs& n) { NamedValue(n, indent); });
        return;
      default:
        *out_ += "none";
        return;
    }
  }

  std::string* out_;
};

}  // namespace

std::vector<ComputeGraphPtr> SubgraphsBelow(const ComputeGraph& graph) {
  if (graph.GetParentGraphBarePtr() == nullptr) return graph.GetAllSubgraphs();
  const ComputeGraph* root = graph.GetRootGraphBarePtr();
  std::vector<ComputeGraphPtr> below;
  for (const ComputeGraphPtr& sg : root->GetAllSubgraphs()) {
    const ComputeGraph* g = sg.get();
    for (size_t steps = 0; g != nullptr && steps <= root->GetAllSubgraphs().size(); ++steps) {
      g = g->GetParentGraphBarePtr();
      if (g == &graph) {
        below.push_back(sg);
        break;
      }
    }
  }
  return below;
}

std::string PrintGraphText(const ComputeGraph& graph) {
  std::string out;
  Printer(&out).Tree(graph, 0);
  return out;
}

}  // namespace ge
