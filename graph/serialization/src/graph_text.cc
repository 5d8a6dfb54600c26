// graph/serialization/src/graph_text.cc
//
// Printer and parser of the graph text form (inc/graph_text.h). The parser
// lexes the whole text into tokens with positions, parses each graph block
// into a GraphAst (OpDescs built directly, references by name), then builds
// the graphs: nodes, anchor counts, edges (in an order that reproduces every
// recorded peer order), cycle check, inputs / outputs, subgraph registration.
#include "graph/serialization/inc/graph_text.h"

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
#include "graph/serialization/inc/tensor_serialize_utils.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

// ================================================================ shared

bool IsBareStart(char c) { return absl::ascii_isalpha(c) || c == '_'; }
bool IsBareChar(char c) { return absl::ascii_isalnum(c) || c == '_' || c == '.' || c == '/'; }

bool IsDataTypeNode(const std::string& type) {
  return type == "Data" || type == "RefData" || type == "AippData";
}

std::string Quote(absl::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c >= 0x20 && c < 0x7f) {
          out += static_cast<char>(c);
        } else {
          static const char kHex[] = "0123456789abcdef";
          out += "\\x";
          out += kHex[c >> 4];
          out += kHex[c & 15];
        }
    }
  }
  out += '"';
  return out;
}

// A name: bare when it lexes as one identifier, quoted otherwise.
std::string Name(absl::string_view s) {
  if (s.empty() || !IsBareStart(s[0])) return Quote(s);
  for (char c : s) {
    if (!IsBareChar(c)) return Quote(s);
  }
  return std::string(s);
}

std::string Ref(absl::string_view s) {
  bool bare = !s.empty();
  for (char c : s) bare = bare && IsBareChar(c);
  return bare ? absl::StrCat("%", s) : absl::StrCat("%", Quote(s));
}

std::string DtypeName(DataType dt) {
  std::string s = TypeUtils::DataTypeToSerialString(dt);
  if (absl::StartsWith(s, "DT_")) s = s.substr(3);
  return absl::AsciiStrToLower(s);
}

std::string FloatText(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  if (std::isnan(f)) return bits == 0x7fc00000u ? "nan" : absl::StrCat("nan(", bits, ")");
  if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
  char buf[64];
  for (int prec = 6; prec <= 9; ++prec) {
    std::snprintf(buf, sizeof(buf), "%.*g", prec, static_cast<double>(f));
    if (std::strtof(buf, nullptr) == f &&
        std::signbit(std::strtof(buf, nullptr)) == std::signbit(f)) {
      break;
    }
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

std::string DoubleText(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof(bits));
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  char buf[64];
  for (int prec = 15; prec <= 17; ++prec) {
    std::snprintf(buf, sizeof(buf), "%.*g", prec, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

// Element size of the dtypes whose tensors may print as literal values.
size_t LiteralElementSize(DataType dt) {
  switch (dt) {
    case DT_FLOAT:
    case DT_INT32:
    case DT_UINT32:
      return 4;
    case DT_DOUBLE:
    case DT_INT64:
    case DT_UINT64:
      return 8;
    case DT_INT16:
    case DT_UINT16:
      return 2;
    case DT_INT8:
    case DT_UINT8:
    case DT_BOOL:
      return 1;
    default:
      return 0;
  }
}
constexpr int64_t kMaxLiteralElements = 16;

std::string ElementText(DataType dt, const uint8_t* p) {
  switch (dt) {
    case DT_FLOAT: {
      float v;
      std::memcpy(&v, p, 4);
      return FloatText(v);
    }
    case DT_DOUBLE: {
      double v;
      std::memcpy(&v, p, 8);
      return std::isnan(v) ? "" : DoubleText(v);
    }
    case DT_INT32: {
      int32_t v;
      std::memcpy(&v, p, 4);
      return absl::StrCat(v);
    }
    case DT_UINT32: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return absl::StrCat(v);
    }
    case DT_INT64: {
      int64_t v;
      std::memcpy(&v, p, 8);
      return absl::StrCat(v);
    }
    case DT_UINT64: {
      uint64_t v;
      std::memcpy(&v, p, 8);
      return absl::StrCat(v);
    }
    case DT_INT16: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return absl::StrCat(v);
    }
    case DT_UINT16: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return absl::StrCat(v);
    }
    case DT_INT8:
      return absl::StrCat(static_cast<int8_t>(*p));
    case DT_UINT8:
      return absl::StrCat(*p);
    case DT_BOOL:
      return *p == 0 ? "false" : *p == 1 ? "true" : "";
    default:
      return "";
  }
}

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

// ================================================================= lexer

enum class Tok { kEnd, kIdent, kInt, kFloat, kString, kBytes, kB64, kRef, kPunct };

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;  // identifier / number spelling, decoded string, ref name, punctuation
  int line = 1;
  int col = 1;
};

std::string Where(int line, int col) { return absl::StrCat("line ", line, ", column ", col, ": "); }

class Lexer {
 public:
  explicit Lexer(absl::string_view s) : s_(s) {}

  Status Run(std::vector<Token>* out) {
    while (true) {
      SkipSpace();
      Token t;
      t.line = line_;
      t.col = col_;
      if (i_ >= s_.size()) {
        out->push_back(t);
        return OkStatus();
      }
      const char c = s_[i_];
      if (c == '%') {
        Advance();
        t.kind = Tok::kRef;
        if (i_ < s_.size() && s_[i_] == '"') {
          RETURN_IF_ERROR(String(&t.text));
        } else {
          const size_t b = i_;
          while (i_ < s_.size() && IsBareChar(s_[i_])) Advance();
          if (i_ == b) return Err(t, "expected a node name after '%'");
          t.text = std::string(s_.substr(b, i_ - b));
        }
      } else if (c == '"') {
        t.kind = Tok::kString;
        RETURN_IF_ERROR(String(&t.text));
      } else if (c == 'b' && Peek(1) == '"') {
        Advance();
        t.kind = Tok::kBytes;
        RETURN_IF_ERROR(String(&t.text));
      } else if (c == 'b' && Peek(1) == '6' && Peek(2) == '4' && Peek(3) == '"') {
        Advance();
        Advance();
        Advance();
        t.kind = Tok::kB64;
        RETURN_IF_ERROR(String(&t.text));
      } else if (IsBareStart(c)) {
        const size_t b = i_;
        while (i_ < s_.size() && IsBareChar(s_[i_])) Advance();
        t.kind = Tok::kIdent;
        t.text = std::string(s_.substr(b, i_ - b));
      } else if (absl::ascii_isdigit(c) || (c == '-' && absl::ascii_isdigit(Peek(1)))) {
        const size_t b = i_;
        bool is_float = false;
        Advance();
        while (i_ < s_.size() && absl::ascii_isdigit(s_[i_])) Advance();
        if (i_ < s_.size() && s_[i_] == '.') {
          is_float = true;
          Advance();
          while (i_ < s_.size() && absl::ascii_isdigit(s_[i_])) Advance();
        }
        if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
          is_float = true;
          Advance();
          if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) Advance();
          if (i_ >= s_.size() || !absl::ascii_isdigit(s_[i_])) return Err(t, "malformed number");
          while (i_ < s_.size() && absl::ascii_isdigit(s_[i_])) Advance();
        }
        t.kind = is_float ? Tok::kFloat : Tok::kInt;
        t.text = std::string(s_.substr(b, i_ - b));
      } else if (c == '-' && s_.substr(i_, 4) == "-inf") {
        for (int k = 0; k < 4; ++k) Advance();
        t.kind = Tok::kFloat;
        t.text = "-inf";
      } else if (c == '-' && Peek(1) == '>') {
        Advance();
        Advance();
        t.kind = Tok::kPunct;
        t.text = "->";
      } else if (std::strchr("=()[]{}<>,:?*^", c) != nullptr) {
        Advance();
        t.kind = Tok::kPunct;
        t.text = std::string(1, c);
      } else {
        return Err(t, absl::StrCat("unexpected character ", Quote(absl::string_view(&s_[i_], 1))));
      }
      out->push_back(std::move(t));
    }
  }

 private:
  char Peek(size_t k) const { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; }
  void Advance() {
    if (s_[i_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++i_;
  }
  void SkipSpace() {
    while (i_ < s_.size()) {
      const char c = s_[i_];
      if (c == '#') {
        while (i_ < s_.size() && s_[i_] != '\n') Advance();
      } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        Advance();
      } else {
        return;
      }
    }
  }
  static Status Err(const Token& t, absl::string_view msg) {
    return ParseFailed(Where(t.line, t.col), msg);
  }
  static int HexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }
  // At the opening quote.
  Status String(std::string* out) {
    Token start;
    start.line = line_;
    start.col = col_;
    Advance();
    while (true) {
      if (i_ >= s_.size() || s_[i_] == '\n') return Err(start, "unterminated string");
      const char c = s_[i_];
      if (c == '"') {
        Advance();
        return OkStatus();
      }
      if (c != '\\') {
        out->push_back(c);
        Advance();
        continue;
      }
      Token esc;
      esc.line = line_;
      esc.col = col_;
      Advance();
      if (i_ >= s_.size()) return Err(start, "unterminated string");
      const char e = s_[i_];
      Advance();
      switch (e) {
        case '"':
          out->push_back('"');
          break;
        case '\\':
          out->push_back('\\');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 'x': {
          const int h = HexDigit(Peek(0));
          const int l = HexDigit(Peek(1));
          if (h < 0 || l < 0) return Err(esc, "\\x needs two hex digits");
          Advance();
          Advance();
          out->push_back(static_cast<char>(h * 16 + l));
          break;
        }
        default:
          return Err(esc, absl::StrCat("unknown escape \\", std::string(1, e)));
      }
    }
  }

  absl::string_view s_;
  size_t i_ = 0;
  int line_ = 1;
  int col_ = 1;
};

// ================================================================ parser

struct Pos {
  int line = 1;
  int col = 1;
};

struct NameRef {
  std::string name;
  Pos pos;
};

struct InputAst {
  bool connected = false;
  NameRef src;
  int32_t index = 0;  // output index; -1: the control output
};

struct UseAst {
  NameRef node;
  int32_t input = -1;  // -1: the control input
};

struct OrderAst {
  int32_t output = 0;
  Pos pos;
  std::vector<UseAst> uses;
};

struct NodeAst {
  OpDescPtr op;
  NameRef name;
  bool has_id = false;
  int64_t id = 0;
  int64_t out_anchors = -1;
  std::vector<InputAst> inputs;
  std::vector<InputAst> controls;  // index -1: control, >= 0: data -> control
  std::vector<OrderAst> orders;
};

struct GraphAst {
  NameRef name;
  uint32_t id = 0;
  AttrStore attrs;
  std::vector<NodeAst> nodes;
  bool has_inputs = false;
  std::vector<NameRef> inputs;
  bool has_outputs = false;
  std::vector<std::pair<NameRef, int32_t>> outputs;
  // Subgraph blocks only.
  bool has_alias = false;
  std::string alias;
  bool has_parent = false;
  NameRef parent_node;
  NameRef parent_graph;
};

constexpr int kMaxDepth = 64;

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  StatusOr<ComputeGraphPtr> File() {
    ASSIGN_OR_RETURN(ComputeGraphPtr g, Tree());
    if (Cur().kind != Tok::kEnd)
      return Err(Cur(), absl::StrCat("expected end of input, got ", Show(Cur())));
    return g;
  }

 private:
  const Token& Cur() const { return t_[p_]; }
  const Token& Next() {
    const Token& t = t_[p_];
    if (t.kind != Tok::kEnd) ++p_;
    return t;
  }
  bool IsPunct(absl::string_view s) const { return Cur().kind == Tok::kPunct && Cur().text == s; }
  bool IsIdent(absl::string_view s) const { return Cur().kind == Tok::kIdent && Cur().text == s; }
  static Pos PosOf(const Token& t) { return {t.line, t.col}; }
  static Status Err(const Token& t, absl::string_view msg) {
    return ParseFailed(Where(t.line, t.col), msg);
  }
  static Status ErrAt(const Pos& p, absl::string_view msg) {
    return ParseFailed(Where(p.line, p.col), msg);
  }
  static std::string Show(const Token& t) {
    switch (t.kind) {
      case Tok::kEnd:
        return "end of input";
      case Tok::kString:
        return absl::StrCat("string ", Quote(t.text));
      case Tok::kRef:
        return absl::StrCat("'", Ref(t.text), "'");
      default:
        return absl::StrCat("'", t.text, "'");
    }
  }
  Status Expect(absl::string_view punct) {
    if (!IsPunct(punct))
      return Err(Cur(), absl::StrCat("expected '", punct, "', got ", Show(Cur())));
    Next();
    return OkStatus();
  }
  Status ExpectIdent(absl::string_view word) {
    if (!IsIdent(word)) return Err(Cur(), absl::StrCat("expected '", word, "', got ", Show(Cur())));
    Next();
    return OkStatus();
  }
  StatusOr<std::string> NameTok(const char* what) {
    if (Cur().kind == Tok::kIdent || Cur().kind == Tok::kString) return Next().text;
    return Err(Cur(), absl::StrCat("expected ", what, ", got ", Show(Cur())));
  }
  StatusOr<std::string> StringTok(const char* what) {
    if (Cur().kind == Tok::kString) return Next().text;
    return Err(Cur(), absl::StrCat("expected ", what, " (a string), got ", Show(Cur())));
  }
  StatusOr<NameRef> RefTok() {
    if (Cur().kind != Tok::kRef)
      return Err(Cur(), absl::StrCat("expected a node reference, got ", Show(Cur())));
    NameRef r{Cur().text, PosOf(Cur())};
    Next();
    return r;
  }
  StatusOr<int64_t> IntTok(const char* what) {
    if (Cur().kind != Tok::kInt)
      return Err(Cur(), absl::StrCat("expected ", what, " (an integer), got ", Show(Cur())));
    int64_t v;
    if (!absl::SimpleAtoi(Cur().text, &v))
      return Err(Cur(), absl::StrCat("integer out of range: ", Cur().text));
    Next();
    return v;
  }
  StatusOr<int32_t> Int32Tok(const char* what) {
    const Token& t = Cur();
    ASSIGN_OR_RETURN(int64_t v, IntTok(what));
    if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
      return Err(t, absl::StrCat(what, " out of range: ", v));
    }
    return static_cast<int32_t>(v);
  }
  StatusOr<bool> BoolTok() {
    if (IsIdent("true") || IsIdent("false")) return Next().text == "true";
    return Err(Cur(), absl::StrCat("expected true or false, got ", Show(Cur())));
  }
  Status Enter() {
    if (++depth_ > kMaxDepth) return Err(Cur(), absl::StrCat("nesting deeper than ", kMaxDepth));
    return OkStatus();
  }

  // ---------------------------------------------------------- graph trees

  StatusOr<ComputeGraphPtr> Tree() {
    RETURN_IF_ERROR(Enter());
    std::vector<GraphAst> graphs;
    RETURN_IF_ERROR(ExpectIdent("graph"));
    graphs.emplace_back();
    RETURN_IF_ERROR(Block(&graphs.back(), false));
    while (IsIdent("subgraph")) {
      Next();
      graphs.emplace_back();
      RETURN_IF_ERROR(Block(&graphs.back(), true));
    }
    ASSIGN_OR_RETURN(ComputeGraphPtr root, Build(graphs));
    --depth_;
    return root;
  }

  Status Block(GraphAst* g, bool sub) {
    g->name.pos = PosOf(Cur());
    ASSIGN_OR_RETURN(g->name.name, NameTok("a graph name"));
    if (sub && IsIdent("as")) {
      Next();
      g->has_alias = true;
      ASSIGN_OR_RETURN(g->alias, StringTok("a registered name"));
    }
    if (sub && IsIdent("parent")) {
      Next();
      g->has_parent = true;
      ASSIGN_OR_RETURN(g->parent_node, RefTok());
      RETURN_IF_ERROR(ExpectIdent("in"));
      g->parent_graph.pos = PosOf(Cur());
      ASSIGN_OR_RETURN(g->parent_graph.name, NameTok("a graph name"));
    }
    RETURN_IF_ERROR(Expect("{"));
    while (!IsPunct("}")) {
      if (Cur().kind == Tok::kRef) {
        g->nodes.emplace_back();
        RETURN_IF_ERROR(NodeStmt(&g->nodes.back()));
      } else if (IsIdent("id")) {
        Next();
        RETURN_IF_ERROR(Expect("="));
        const Token& t = Cur();
        ASSIGN_OR_RETURN(int64_t id, IntTok("a graph id"));
        if (id < 0 || id > std::numeric_limits<uint32_t>::max())
          return Err(t, "graph id out of range");
        g->id = static_cast<uint32_t>(id);
      } else if (IsIdent("attrs")) {
        Next();
        RETURN_IF_ERROR(Dict(&g->attrs));
      } else if (IsIdent("inputs")) {
        Next();
        g->has_inputs = true;
        RETURN_IF_ERROR(Expect("("));
        while (!IsPunct(")")) {
          if (!g->inputs.empty()) RETURN_IF_ERROR(Expect(","));
          ASSIGN_OR_RETURN(NameRef r, RefTok());
          g->inputs.push_back(std::move(r));
        }
        Next();
      } else if (IsIdent("outputs")) {
        Next();
        g->has_outputs = true;
        RETURN_IF_ERROR(Expect("("));
        while (!IsPunct(")")) {
          if (!g->outputs.empty()) RETURN_IF_ERROR(Expect(","));
          ASSIGN_OR_RETURN(NameRef r, RefTok());
          RETURN_IF_ERROR(Expect(":"));
          ASSIGN_OR_RETURN(int32_t idx, Int32Tok("an output index"));
          g->outputs.emplace_back(std::move(r), idx);
        }
        Next();
      } else {
        return Err(Cur(),
                   absl::StrCat("expected a node, 'id', 'attrs', 'inputs', 'outputs' or '}', got ",
                                Show(Cur())));
      }
    }
    Next();
    return OkStatus();
  }

  // ref [":" int]
  StatusOr<InputAst> Source(bool index_required) {
    InputAst in;
    in.connected = true;
    ASSIGN_OR_RETURN(in.src, RefTok());
    in.index = -1;
    if (index_required || IsPunct(":")) {
      RETURN_IF_ERROR(Expect(":"));
      ASSIGN_OR_RETURN(in.index, Int32Tok("an output index"));
      if (in.index < -1) return ErrAt(in.src.pos, "output index must be >= -1");
    }
    return in;
  }

  Status NodeStmt(NodeAst* n) {
    ASSIGN_OR_RETURN(n->name, RefTok());
    RETURN_IF_ERROR(Expect("="));
    ASSIGN_OR_RETURN(std::string type, NameTok("an op type"));
    n->op = OpDesc::Create(n->name.name, type);
    RETURN_IF_ERROR(Expect("("));
    while (!IsPunct(")")) {
      if (!n->inputs.empty() || !n->controls.empty()) RETURN_IF_ERROR(Expect(","));
      if (IsPunct("^")) {
        Next();
        ASSIGN_OR_RETURN(InputAst c, Source(false));
        n->controls.push_back(std::move(c));
      } else if (!n->controls.empty()) {
        return Err(Cur(), "data inputs must come before control inputs ('^')");
      } else if (IsIdent("_")) {
        Next();
        n->inputs.emplace_back();
      } else {
        ASSIGN_OR_RETURN(InputAst in, Source(true));
        n->inputs.push_back(std::move(in));
      }
    }
    Next();
    if (IsPunct("<")) RETURN_IF_ERROR(Props(n));
    if (IsPunct("{")) RETURN_IF_ERROR(Dict(&n->op->MutableAttrStore()));
    RETURN_IF_ERROR(Expect(":"));
    RETURN_IF_ERROR(Ports(n->op.get(), true));
    RETURN_IF_ERROR(Expect("->"));
    RETURN_IF_ERROR(Ports(n->op.get(), false));
    if (IsIdent("order")) {
      Next();
      RETURN_IF_ERROR(Expect("("));
      while (!IsPunct(")")) {
        if (!n->orders.empty()) RETURN_IF_ERROR(Expect(","));
        OrderAst o;
        o.pos = PosOf(Cur());
        ASSIGN_OR_RETURN(o.output, Int32Tok("an output index"));
        RETURN_IF_ERROR(Expect("="));
        RETURN_IF_ERROR(Expect("["));
        while (!IsPunct("]")) {
          if (!o.uses.empty()) RETURN_IF_ERROR(Expect(","));
          UseAst u;
          if (IsPunct("^")) {
            Next();
            ASSIGN_OR_RETURN(u.node, RefTok());
          } else {
            ASSIGN_OR_RETURN(u.node, RefTok());
            RETURN_IF_ERROR(Expect(":"));
            ASSIGN_OR_RETURN(u.input, Int32Tok("an input index"));
            if (u.input < 0) return ErrAt(u.node.pos, "input index must be >= 0");
          }
          o.uses.push_back(std::move(u));
        }
        Next();
        n->orders.push_back(std::move(o));
      }
      Next();
    }
    return OkStatus();
  }

  Status Ports(OpDesc* op, bool inputs) {
    RETURN_IF_ERROR(Expect("("));
    uint32_t i = 0;
    while (!IsPunct(")")) {
      if (i > 0) RETURN_IF_ERROR(Expect(","));
      std::string name = absl::StrCat(inputs ? "__input" : "__output", i);
      bool optional = false;
      const Token& at = Cur();
      const bool named =
          (Cur().kind == Tok::kString) ||
          (Cur().kind == Tok::kIdent && p_ + 1 < t_.size() && t_[p_ + 1].kind == Tok::kPunct &&
           (t_[p_ + 1].text == ":" || t_[p_ + 1].text == "?"));
      if (named) {
        name = Next().text;
        if (IsPunct("?")) {
          if (!inputs) return Err(Cur(), "only inputs can be optional");
          Next();
          optional = true;
        }
        RETURN_IF_ERROR(Expect(":"));
      }
      GeTensorDesc desc;
      RETURN_IF_ERROR(Type(&desc));
      Status st = !inputs    ? op->AddOutputDesc(name, desc)
                  : optional ? op->AddOptionalInputDesc(name, desc)
                             : op->AddInputDesc(name, desc);
      if (!st.ok()) return Err(at, st.message());
      ++i;
    }
    Next();
    return OkStatus();
  }

  // ---------------------------------------------------------------- props

  StatusOr<std::vector<int64_t>> IntList() {
    RETURN_IF_ERROR(Expect("["));
    std::vector<int64_t> v;
    while (!IsPunct("]")) {
      if (!v.empty()) RETURN_IF_ERROR(Expect(","));
      ASSIGN_OR_RETURN(int64_t x, IntTok("a list element"));
      v.push_back(x);
    }
    Next();
    return v;
  }
  StatusOr<std::vector<std::string>> StringList() {
    RETURN_IF_ERROR(Expect("["));
    std::vector<std::string> v;
    while (!IsPunct("]")) {
      if (!v.empty()) RETURN_IF_ERROR(Expect(","));
      ASSIGN_OR_RETURN(std::string x, StringTok("a list element"));
      v.push_back(std::move(x));
    }
    Next();
    return v;
  }
  // ["name" [suffix], ...]; suffix: 0 none, 1 '?', 2 '*'.
  StatusOr<std::vector<std::pair<std::string, int>>> KindList(bool allow_optional) {
    RETURN_IF_ERROR(Expect("["));
    std::vector<std::pair<std::string, int>> v;
    while (!IsPunct("]")) {
      if (!v.empty()) RETURN_IF_ERROR(Expect(","));
      ASSIGN_OR_RETURN(std::string x, StringTok("a name"));
      int kind = 0;
      if (allow_optional && IsPunct("?")) {
        Next();
        kind = 1;
      } else if (IsPunct("*")) {
        Next();
        kind = 2;
      }
      v.emplace_back(std::move(x), kind);
    }
    Next();
    return v;
  }

  Status Props(NodeAst* n) {
    OpDesc& op = *n->op;
    Next();  // '<'
    std::set<std::string> seen;
    while (!IsPunct(">")) {
      if (!seen.empty()) RETURN_IF_ERROR(Expect(","));
      const Token key_tok = Cur();
      ASSIGN_OR_RETURN(std::string key, NameTok("a property name"));
      if (!seen.insert(key).second)
        return Err(key_tok, absl::StrCat("duplicate property '", key, "'"));
      RETURN_IF_ERROR(Expect("="));
      if (key == "id") {
        n->has_id = true;
        ASSIGN_OR_RETURN(n->id, IntTok("an op id"));
      } else if (key == "stream") {
        ASSIGN_OR_RETURN(int64_t s, IntTok("a stream id"));
        op.SetStreamId(s);
      } else if (key == "out_anchors") {
        ASSIGN_OR_RETURN(n->out_anchors, IntTok("an anchor count"));
        if (n->out_anchors < 0 || n->out_anchors > Anchor::kMaxIdx)
          return Err(key_tok, "bad anchor count");
      } else if (key == "input_offsets") {
        ASSIGN_OR_RETURN(auto v, IntList());
        op.SetInputOffset(v);
      } else if (key == "output_offsets") {
        ASSIGN_OR_RETURN(auto v, IntList());
        op.SetOutputOffset(v);
      } else if (key == "workspace") {
        ASSIGN_OR_RETURN(auto v, IntList());
        op.SetWorkspace(v);
      } else if (key == "workspace_bytes") {
        ASSIGN_OR_RETURN(auto v, IntList());
        op.SetWorkspaceBytes(v);
      } else if (key == "engine") {
        ASSIGN_OR_RETURN(std::string s, StringTok("an engine name"));
        op.SetOpEngineName(s);
      } else if (key == "kernel_lib") {
        ASSIGN_OR_RETURN(std::string s, StringTok("a kernel lib name"));
        op.SetOpKernelLibName(s);
      } else if (key == "src_names") {
        ASSIGN_OR_RETURN(auto v, StringList());
        op.SetSrcName(v);
      } else if (key == "src_indices") {
        ASSIGN_OR_RETURN(auto v, IntList());
        op.SetSrcIndex(v);
      } else if (key == "dst_names") {
        ASSIGN_OR_RETURN(auto v, StringList());
        op.SetDstName(v);
      } else if (key == "dst_indices") {
        ASSIGN_OR_RETURN(auto v, IntList());
        op.SetDstIndex(v);
      } else if (key == "is_input_const") {
        RETURN_IF_ERROR(Expect("["));
        std::vector<bool> v;
        while (!IsPunct("]")) {
          if (!v.empty()) RETURN_IF_ERROR(Expect(","));
          ASSIGN_OR_RETURN(bool b, BoolTok());
          v.push_back(b);
        }
        Next();
        op.SetIsInputConst(v);
      } else if (key == "ir_inputs") {
        ASSIGN_OR_RETURN(auto v, KindList(true));
        for (const auto& [name, k] : v) {
          RETURN_IF_ERROR(Wrap(key_tok, op.AppendIrInput(name, k == 1   ? kIrInputOptional
                                                               : k == 2 ? kIrInputDynamic
                                                                        : kIrInputRequired)));
        }
      } else if (key == "ir_outputs") {
        ASSIGN_OR_RETURN(auto v, KindList(false));
        for (const auto& [name, k] : v) {
          RETURN_IF_ERROR(Wrap(
              key_tok, op.AppendIrOutput(name, k == 2 ? kIrOutputDynamic : kIrOutputRequired)));
        }
      } else if (key == "ir_attrs") {
        ASSIGN_OR_RETURN(auto v, StringList());
        for (const std::string& s : v) RETURN_IF_ERROR(Wrap(key_tok, op.AppendIrAttrName(s)));
      } else if (key == "ir_subgraphs") {
        ASSIGN_OR_RETURN(auto v, KindList(false));
        for (const auto& [name, k] : v) {
          RETURN_IF_ERROR(
              Wrap(key_tok, op.RegisterSubgraphIrName(name, k == 2 ? kDynamic : kStatic)));
        }
      } else if (key == "subgraphs") {
        RETURN_IF_ERROR(Expect("["));
        uint32_t i = 0;
        while (!IsPunct("]")) {
          if (i > 0) RETURN_IF_ERROR(Expect(","));
          const Token& at = Cur();
          ASSIGN_OR_RETURN(std::string first, StringTok("a subgraph instance name"));
          if (IsPunct(":")) {
            Next();
            ASSIGN_OR_RETURN(std::string inst, StringTok("a subgraph instance name"));
            RETURN_IF_ERROR(Wrap(at, op.AddSubgraphName(first)));
            RETURN_IF_ERROR(Wrap(at, op.SetSubgraphInstanceName(i, inst)));
          } else {
            op.AddSubgraphInstanceName(first);
          }
          ++i;
        }
        Next();
      } else {
        return Err(key_tok, absl::StrCat("unknown property '", key, "'"));
      }
    }
    Next();
    return OkStatus();
  }

  static Status Wrap(const Token& at, const Status& st) {
    return st.ok() ? st : Err(at, st.message());
  }

  // ---------------------------------------------------------------- types

  StatusOr<Format> FormatTok() {
    const Token& at = Cur();
    if (Cur().kind == Tok::kInt) {
      ASSIGN_OR_RETURN(int64_t v, IntTok("a format"));
      StatusOr<Format> f = GeTensorSerializeUtils::CheckedFormat(v);
      if (!f.ok()) return Err(at, f.status().message());
      return *f;
    }
    std::string layout = Next().text;
    // Packed formats: NAME[:SUB][:C0_<n>].
    while (IsPunct(":") && p_ + 1 < t_.size() &&
           (t_[p_ + 1].kind == Tok::kInt || t_[p_ + 1].kind == Tok::kIdent)) {
      Next();
      absl::StrAppend(&layout, ":", Next().text);
    }
    StatusOr<Format> f = GeTensorSerializeUtils::LayoutToFormat(layout);
    if (!f.ok()) return Err(at, absl::StrCat("unknown format '", layout, "'"));
    return *f;
  }

  StatusOr<DataType> DtypeTok() {
    const Token& at = Cur();
    if (Cur().kind != Tok::kIdent)
      return Err(at, absl::StrCat("expected a data type, got ", Show(at)));
    const std::string name = Next().text;
    if (name != absl::AsciiStrToLower(name))
      return Err(at, absl::StrCat("unknown data type '", name, "'"));
    StatusOr<DataType> dt = TypeUtils::SerialStringToDataType(absl::AsciiStrToUpper(name));
    if (!dt.ok() || DtypeName(*dt) != name)
      return Err(at, absl::StrCat("unknown data type '", name, "'"));
    return *dt;
  }

  StatusOr<GeShape> DimsTok() {
    ASSIGN_OR_RETURN(std::vector<int64_t> dims, IntList());
    return GeShape(dims);
  }

  StatusOr<GeTensorDesc::ShapeRange> RangeTok() {
    RETURN_IF_ERROR(Expect("["));
    GeTensorDesc::ShapeRange r;
    while (!IsPunct("]")) {
      if (!r.empty()) RETURN_IF_ERROR(Expect(","));
      RETURN_IF_ERROR(Expect("["));
      ASSIGN_OR_RETURN(int64_t lo, IntTok("a range minimum"));
      RETURN_IF_ERROR(Expect(","));
      ASSIGN_OR_RETURN(int64_t hi, IntTok("a range maximum"));
      RETURN_IF_ERROR(Expect("]"));
      r.emplace_back(lo, hi);
    }
    Next();
    return r;
  }

  // A (possibly stale) range, through a temporary shape of unknown dims.
  static Status SetRange(GeTensorDesc* d, bool origin, GeTensorDesc::ShapeRange range) {
    Status st = origin ? d->SetOriginShapeRange(range) : d->SetShapeRange(range);
    if (st.ok()) return st;
    const GeShape current = origin ? d->GetOriginShape() : d->GetShape();
    const GeShape temp(std::vector<int64_t>(range.size(), UNKNOWN_DIM));
    if (origin) {
      d->SetOriginShape(temp);
    } else {
      d->SetShape(temp);
    }
    st = origin ? d->SetOriginShapeRange(std::move(range)) : d->SetShapeRange(std::move(range));
    if (origin) {
      d->SetOriginShape(current);
    } else {
      d->SetShape(current);
    }
    return st;
  }

  Status Type(GeTensorDesc* out) {
    ASSIGN_OR_RETURN(DataType dt, DtypeTok());
    ASSIGN_OR_RETURN(GeShape shape, DimsTok());
    Format fmt = FORMAT_ND;
    if (Cur().kind == Tok::kIdent || Cur().kind == Tok::kInt) {
      ASSIGN_OR_RETURN(fmt, FormatTok());
    }
    *out = GeTensorDesc(shape, fmt, dt);
    GeTensorDesc& d = *out;
    if (!IsPunct("{")) return OkStatus();
    Next();
    std::set<std::string> seen;
    bool has_origin_shape = false, has_range = false, has_origin_range = false;
    GeShape origin_shape;
    GeTensorDesc::ShapeRange range, origin_range;
    Pos range_pos, origin_range_pos;
    while (!IsPunct("}")) {
      if (!seen.empty()) RETURN_IF_ERROR(Expect(","));
      const Token key_tok = Cur();
      ASSIGN_OR_RETURN(std::string key, NameTok("a tensor desc field"));
      if (!seen.insert(key).second)
        return Err(key_tok, absl::StrCat("duplicate field '", key, "'"));
      RETURN_IF_ERROR(Expect("="));
      if (key == "origin_shape") {
        has_origin_shape = true;
        ASSIGN_OR_RETURN(origin_shape, DimsTok());
      } else if (key == "origin_dtype") {
        ASSIGN_OR_RETURN(DataType odt, DtypeTok());
        d.SetOriginDataType(odt);
      } else if (key == "origin_format") {
        ASSIGN_OR_RETURN(Format of, FormatTok());
        d.SetOriginFormat(of);
      } else if (key == "name") {
        ASSIGN_OR_RETURN(std::string s, StringTok("a tensor name"));
        d.SetName(s);
      } else if (key == "range") {
        has_range = true;
        range_pos = PosOf(key_tok);
        ASSIGN_OR_RETURN(range, RangeTok());
      } else if (key == "origin_range") {
        has_origin_range = true;
        origin_range_pos = PosOf(key_tok);
        ASSIGN_OR_RETURN(origin_range, RangeTok());
      } else if (key == "real_dim_cnt") {
        ASSIGN_OR_RETURN(int64_t v, IntTok("a dim count"));
        d.SetRealDimCnt(v);
      } else if (key == "size") {
        ASSIGN_OR_RETURN(int64_t v, IntTok("a size"));
        d.SetSizeMeta(v);
      } else if (key == "weight_size") {
        ASSIGN_OR_RETURN(int64_t v, IntTok("a size"));
        d.SetWeightSize(v);
      } else if (key == "reuse_input") {
        ASSIGN_OR_RETURN(bool b, BoolTok());
        d.SetReuseInput(b);
      } else if (key == "reuse_input_index") {
        ASSIGN_OR_RETURN(int64_t v, IntTok("an index"));
        d.SetReuseInputIndex(v);
      } else if (key == "data_offset") {
        ASSIGN_OR_RETURN(int64_t v, IntTok("an offset"));
        d.SetDataOffset(v);
      } else if (key == "device") {
        if (IsIdent("CPU")) {
          d.SetDeviceType(DeviceType::kCpu);
        } else if (!IsIdent("NPU")) {
          return Err(Cur(), absl::StrCat("expected NPU or CPU, got ", Show(Cur())));
        }
        Next();
      } else if (key == "input_tensor") {
        ASSIGN_OR_RETURN(bool b, BoolTok());
        d.SetInputTensor(b);
      } else if (key == "output_tensor") {
        ASSIGN_OR_RETURN(bool b, BoolTok());
        d.SetOutputTensor(b);
      } else if (key == "attrs") {
        RETURN_IF_ERROR(Dict(&d.MutableAttrStore()));
      } else {
        return Err(key_tok, absl::StrCat("unknown tensor desc field '", key, "'"));
      }
    }
    Next();
    if (has_range) {
      Status st = SetRange(&d, false, std::move(range));
      if (!st.ok()) return ErrAt(range_pos, st.message());
    }
    if (has_origin_shape) d.SetOriginShape(origin_shape);
    if (has_origin_range) {
      Status st = SetRange(&d, true, std::move(origin_range));
      if (!st.ok()) return ErrAt(origin_range_pos, st.message());
    }
    return OkStatus();
  }

  // ---------------------------------------------------------------- values

  Status Dict(AttrStore* store) {
    RETURN_IF_ERROR(Enter());
    RETURN_IF_ERROR(Expect("{"));
    bool first = true;
    while (!IsPunct("}")) {
      if (!first) RETURN_IF_ERROR(Expect(","));
      first = false;
      const Token key_tok = Cur();
      ASSIGN_OR_RETURN(std::string key, NameTok("an attribute name"));
      if (key.empty()) return Err(key_tok, "attribute names must not be empty");
      if (store->Has(key)) return Err(key_tok, absl::StrCat("duplicate attribute '", key, "'"));
      RETURN_IF_ERROR(Expect("="));
      ASSIGN_OR_RETURN(AttrValue v, Value());
      RETURN_IF_ERROR(Wrap(key_tok, store->Set(key, std::move(v))));
    }
    Next();
    --depth_;
    return OkStatus();
  }

  StatusOr<float> FloatOf(const Token& t) {
    if (t.kind == Tok::kInt || t.kind == Tok::kFloat) {
      if (t.text == "-inf") return -std::numeric_limits<float>::infinity();
      char* end = nullptr;
      const float f = std::strtof(t.text.c_str(), &end);
      if (end == nullptr || *end != '\0') return Err(t, absl::StrCat("malformed number ", t.text));
      return f;
    }
    return Err(t, absl::StrCat("expected a number, got ", Show(t)));
  }

  // A float literal at Cur(): number, inf, -inf, nan [ "(" bits ")" ].
  StatusOr<float> FloatTok() {
    if (IsIdent("inf")) {
      Next();
      return std::numeric_limits<float>::infinity();
    }
    if (IsIdent("nan")) {
      Next();
      uint32_t bits = 0x7fc00000u;
      if (IsPunct("(")) {
        Next();
        const Token& at = Cur();
        ASSIGN_OR_RETURN(int64_t b, IntTok("NaN bits"));
        if (b < 0 || b > 0xffffffffLL) return Err(at, "NaN bits out of range");
        bits = static_cast<uint32_t>(b);
        RETURN_IF_ERROR(Expect(")"));
      }
      float f;
      std::memcpy(&f, &bits, sizeof(f));
      return f;
    }
    const Token& t = Cur();
    ASSIGN_OR_RETURN(float f, FloatOf(t));
    Next();
    return f;
  }

  bool AtFloatLiteral() const {
    return Cur().kind == Tok::kFloat || IsIdent("inf") || IsIdent("nan");
  }

  // A literal element of a tensor of `dt` appended to `bytes`.
  Status Element(DataType dt, std::string* bytes) {
    const Token& t = Cur();
    auto put = [bytes](const void* p, size_t n) { bytes->append(static_cast<const char*>(p), n); };
    auto int_in = [&](int64_t lo, int64_t hi) -> StatusOr<int64_t> {
      ASSIGN_OR_RETURN(int64_t v, IntTok("a tensor element"));
      if (v < lo || v > hi)
        return Err(t, absl::StrCat("element ", v, " out of range for ", DtypeName(dt)));
      return v;
    };
    switch (dt) {
      case DT_FLOAT: {
        ASSIGN_OR_RETURN(float f, FloatTok());
        put(&f, 4);
        return OkStatus();
      }
      case DT_DOUBLE: {
        double d;
        if (IsIdent("inf")) {
          Next();
          d = std::numeric_limits<double>::infinity();
        } else if (Cur().kind == Tok::kFloat || Cur().kind == Tok::kInt) {
          d = Cur().text == "-inf" ? -std::numeric_limits<double>::infinity()
                                   : std::strtod(Cur().text.c_str(), nullptr);
          Next();
        } else {
          return Err(t, absl::StrCat("expected a number, got ", Show(t)));
        }
        put(&d, 8);
        return OkStatus();
      }
      case DT_UINT64: {
        uint64_t v;
        if (Cur().kind != Tok::kInt || !absl::SimpleAtoi(Cur().text, &v)) {
          return Err(t, absl::StrCat("expected a uint64 element, got ", Show(t)));
        }
        Next();
        put(&v, 8);
        return OkStatus();
      }
      case DT_INT64: {
        ASSIGN_OR_RETURN(int64_t v, IntTok("a tensor element"));
        put(&v, 8);
        return OkStatus();
      }
      case DT_INT32: {
        ASSIGN_OR_RETURN(int64_t v, int_in(INT32_MIN, INT32_MAX));
        const int32_t x = static_cast<int32_t>(v);
        put(&x, 4);
        return OkStatus();
      }
      case DT_UINT32: {
        ASSIGN_OR_RETURN(int64_t v, int_in(0, UINT32_MAX));
        const uint32_t x = static_cast<uint32_t>(v);
        put(&x, 4);
        return OkStatus();
      }
      case DT_INT16: {
        ASSIGN_OR_RETURN(int64_t v, int_in(INT16_MIN, INT16_MAX));
        const int16_t x = static_cast<int16_t>(v);
        put(&x, 2);
        return OkStatus();
      }
      case DT_UINT16: {
        ASSIGN_OR_RETURN(int64_t v, int_in(0, UINT16_MAX));
        const uint16_t x = static_cast<uint16_t>(v);
        put(&x, 2);
        return OkStatus();
      }
      case DT_INT8: {
        ASSIGN_OR_RETURN(int64_t v, int_in(INT8_MIN, INT8_MAX));
        const int8_t x = static_cast<int8_t>(v);
        put(&x, 1);
        return OkStatus();
      }
      case DT_UINT8: {
        ASSIGN_OR_RETURN(int64_t v, int_in(0, UINT8_MAX));
        const uint8_t x = static_cast<uint8_t>(v);
        put(&x, 1);
        return OkStatus();
      }
      case DT_BOOL: {
        ASSIGN_OR_RETURN(bool b, BoolTok());
        const uint8_t x = b ? 1 : 0;
        put(&x, 1);
        return OkStatus();
      }
      default:
        return Err(t, absl::StrCat("tensors of ", DtypeName(dt),
                                   " take base64 data (b64\"...\"), not values"));
    }
  }

  StatusOr<GeTensor> TensorValue() {
    Next();  // tensor
    RETURN_IF_ERROR(Expect("("));
    GeTensorDesc desc;
    RETURN_IF_ERROR(Type(&desc));
    GeTensor t(desc);
    if (IsPunct(",")) {
      Next();
      if (Cur().kind == Tok::kB64) {
        std::string bytes;
        if (!absl::Base64Unescape(Cur().text, &bytes)) return Err(Cur(), "malformed base64 data");
        Next();
        t.SetData(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      } else {
        const Token at = Cur();
        RETURN_IF_ERROR(Expect("["));
        std::string bytes;
        int64_t count = 0;
        while (!IsPunct("]")) {
          if (count > 0) RETURN_IF_ERROR(Expect(","));
          RETURN_IF_ERROR(Element(desc.GetDataType(), &bytes));
          ++count;
        }
        Next();
        StatusOr<int64_t> expect = desc.GetShape().GetShapeSize();
        if (!expect.ok() || desc.GetShape().IsUnknownShape() || *expect != count) {
          return Err(at, absl::StrCat("tensor of shape ", desc.GetShape().ToString(), " has ",
                                      count, " values"));
        }
        t.SetData(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
      }
    }
    RETURN_IF_ERROR(Expect(")"));
    return t;
  }

  StatusOr<NamedAttrs> NamedValue() {
    Next();  // named
    RETURN_IF_ERROR(Expect("("));
    ASSIGN_OR_RETURN(std::string name, StringTok("a name"));
    RETURN_IF_ERROR(Expect(","));
    NamedAttrs n(name);
    RETURN_IF_ERROR(Dict(&n.MutableAttrStore()));
    RETURN_IF_ERROR(Expect(")"));
    return n;
  }

  StatusOr<GeTensorDesc> DescValue() {
    Next();  // desc
    RETURN_IF_ERROR(Expect("("));
    GeTensorDesc d;
    RETURN_IF_ERROR(Type(&d));
    RETURN_IF_ERROR(Expect(")"));
    return d;
  }

  StatusOr<ComputeGraphPtr> GraphValue() {
    if (IsIdent("null")) {
      Next();
      return ComputeGraphPtr();
    }
    return Tree();
  }

  StatusOr<AttrValue> Value() {
    RETURN_IF_ERROR(Enter());
    ASSIGN_OR_RETURN(AttrValue v, ValueInner());
    --depth_;
    return v;
  }

  StatusOr<AttrValue> ValueInner() {
    const Token& t = Cur();
    switch (t.kind) {
      case Tok::kInt: {
        ASSIGN_OR_RETURN(int64_t v, IntTok("an integer"));
        return AttrValue::CreateFrom<int64_t>(v);
      }
      case Tok::kFloat: {
        ASSIGN_OR_RETURN(float f, FloatTok());
        return AttrValue::CreateFrom<float>(f);
      }
      case Tok::kString:
        return AttrValue::CreateFrom<std::string>(Next().text);
      case Tok::kBytes: {
        const std::string& s = Next().text;
        return AttrValue::CreateFrom<AttrValue::Bytes>(AttrValue::Bytes(s.begin(), s.end()));
      }
      case Tok::kPunct:
        if (t.text == "[") return ListValue(AttrValue::VT_NONE);
        break;
      case Tok::kIdent: {
        const std::string& w = t.text;
        if (w == "true" || w == "false") return AttrValue::CreateFrom<bool>(Next().text == "true");
        if (w == "inf" || w == "nan") {
          ASSIGN_OR_RETURN(float f, FloatTok());
          return AttrValue::CreateFrom<float>(f);
        }
        if (w == "none") {
          Next();
          return AttrValue();
        }
        if (w == "desc") {
          ASSIGN_OR_RETURN(GeTensorDesc d, DescValue());
          return AttrValue::CreateFrom<GeTensorDesc>(std::move(d));
        }
        if (w == "tensor") {
          ASSIGN_OR_RETURN(GeTensor x, TensorValue());
          return AttrValue::CreateFrom<GeTensor>(std::move(x));
        }
        if (w == "named") {
          ASSIGN_OR_RETURN(NamedAttrs n, NamedValue());
          return AttrValue::CreateFrom<NamedAttrs>(std::move(n));
        }
        if (w == "graph" || w == "null") {
          ASSIGN_OR_RETURN(ComputeGraphPtr g, GraphValue());
          return AttrValue::CreateFrom<ComputeGraphPtr>(std::move(g));
        }
        if (absl::StartsWith(w, "DT_") || w == "UNDEFINED_DT") {
          StatusOr<DataType> dt = TypeUtils::SerialStringToDataType(w);
          if (!dt.ok() || TypeUtils::DataTypeToSerialString(*dt) != w) {
            return Err(t, absl::StrCat("unknown data type '", w, "'"));
          }
          Next();
          return AttrValue::CreateFrom<DataType>(*dt);
        }
        if (absl::StartsWith(w, "list_")) {
          const AttrValue::ValueType type = ListTypeOf(w);
          if (type == AttrValue::VT_NONE)
            return Err(t, absl::StrCat("unknown list type '", w, "'"));
          Next();
          if (!IsPunct("[")) return Err(Cur(), absl::StrCat("expected '[' after ", w));
          return ListValue(type);
        }
        return Err(t, absl::StrCat("unknown value '", w, "'"));
      }
      default:
        break;
    }
    return Err(t, absl::StrCat("expected a value, got ", Show(t)));
  }

  static AttrValue::ValueType ListTypeOf(absl::string_view w) {
    for (int32_t v : {10, 12, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009, 1011}) {
      const auto type = static_cast<AttrValue::ValueType>(v);
      if (AttrValue::ValueTypeName(type) == w) return type;
    }
    return AttrValue::VT_NONE;
  }

  // The list element kind a token starts.
  AttrValue::ValueType ElementTypeAtCur() const {
    const Token& t = Cur();
    switch (t.kind) {
      case Tok::kInt:
        return AttrValue::VT_INT;
      case Tok::kFloat:
        return AttrValue::VT_FLOAT;
      case Tok::kString:
        return AttrValue::VT_STRING;
      case Tok::kBytes:
        return AttrValue::VT_BYTES;
      case Tok::kIdent:
        if (t.text == "true" || t.text == "false") return AttrValue::VT_BOOL;
        if (t.text == "inf" || t.text == "nan") return AttrValue::VT_FLOAT;
        if (t.text == "desc") return AttrValue::VT_TENSOR_DESC;
        if (t.text == "tensor") return AttrValue::VT_TENSOR;
        if (t.text == "named") return AttrValue::VT_NAMED_ATTRS;
        if (t.text == "graph" || t.text == "null") return AttrValue::VT_GRAPH;
        if (absl::StartsWith(t.text, "DT_")) return AttrValue::VT_DATA_TYPE;
        return AttrValue::VT_NONE;
      default:
        return AttrValue::VT_NONE;
    }
  }

  // A list of `type` (VT_NONE: inferred from the elements). At '['.
  StatusOr<AttrValue> ListValue(AttrValue::ValueType type) {
    const Token start = Cur();
    Next();  // '['
    if (type == AttrValue::VT_NONE) {
      if (IsPunct("]")) return Err(start, "an empty list needs its type, e.g. list_int[]");
      if (IsPunct("[")) {
        // A list of lists: floats if any element is one.
        size_t q = p_;
        int depth = 0;
        type = AttrValue::VT_LIST_LIST_INT;
        for (; q < t_.size() && t_[q].kind != Tok::kEnd; ++q) {
          if (t_[q].kind == Tok::kPunct && t_[q].text == "[") ++depth;
          if (t_[q].kind == Tok::kPunct && t_[q].text == "]" && --depth < 0) break;
          if (t_[q].kind == Tok::kFloat ||
              (t_[q].kind == Tok::kIdent && (t_[q].text == "inf" || t_[q].text == "nan"))) {
            type = AttrValue::VT_LIST_LIST_FLOAT;
          }
        }
      } else {
        const AttrValue::ValueType elem = ElementTypeAtCur();
        if (elem == AttrValue::VT_NONE)
          return Err(Cur(), absl::StrCat("expected a list element, got ", Show(Cur())));
        type = static_cast<AttrValue::ValueType>(AttrValue::VT_LIST_BASE + elem);
        if (elem == AttrValue::VT_INT) {
          // [1, 2.5]: floats if any element is one.
          for (size_t q = p_; q < t_.size() && !(t_[q].kind == Tok::kPunct && t_[q].text == "]");
               ++q) {
            if (t_[q].kind == Tok::kFloat ||
                (t_[q].kind == Tok::kIdent && (t_[q].text == "inf" || t_[q].text == "nan"))) {
              type = AttrValue::VT_LIST_FLOAT;
            }
          }
        }
      }
    }
    std::vector<int64_t> ints;
    std::vector<float> floats;
    std::vector<bool> bools;
    std::vector<std::string> strings;
    std::vector<DataType> dtypes;
    std::vector<GeTensorDesc> descs;
    std::vector<GeTensor> tensors;
    std::vector<AttrValue::Bytes> bytes;
    std::vector<ComputeGraphPtr> graphs;
    std::vector<NamedAttrs> nameds;
    std::vector<std::vector<int64_t>> int_lists;
    std::vector<std::vector<float>> float_lists;
    size_t n = 0;
    while (!IsPunct("]")) {
      if (n++ > 0) RETURN_IF_ERROR(Expect(","));
      const Token& at = Cur();
      auto mismatch = [&]() {
        return Err(at, absl::StrCat("expected an element of ", AttrValue::ValueTypeName(type),
                                    ", got ", Show(at)));
      };
      switch (type) {
        case AttrValue::VT_LIST_INT: {
          if (at.kind != Tok::kInt) return mismatch();
          ASSIGN_OR_RETURN(int64_t v, IntTok("a list element"));
          ints.push_back(v);
          break;
        }
        case AttrValue::VT_LIST_FLOAT: {
          if (at.kind != Tok::kInt && !AtFloatLiteral()) return mismatch();
          ASSIGN_OR_RETURN(float f, FloatTok());
          floats.push_back(f);
          break;
        }
        case AttrValue::VT_LIST_BOOL: {
          ASSIGN_OR_RETURN(bool b, BoolTok());
          bools.push_back(b);
          break;
        }
        case AttrValue::VT_LIST_STRING: {
          if (at.kind != Tok::kString) return mismatch();
          strings.push_back(Next().text);
          break;
        }
        case AttrValue::VT_LIST_BYTES: {
          if (at.kind != Tok::kBytes) return mismatch();
          const std::string& s = Next().text;
          bytes.emplace_back(s.begin(), s.end());
          break;
        }
        case AttrValue::VT_LIST_DATA_TYPE: {
          if (ElementTypeAtCur() != AttrValue::VT_DATA_TYPE && !IsIdent("UNDEFINED_DT"))
            return mismatch();
          ASSIGN_OR_RETURN(AttrValue v, ValueInner());
          dtypes.push_back(*v.Get<DataType>());
          break;
        }
        case AttrValue::VT_LIST_TENSOR_DESC: {
          if (!IsIdent("desc")) return mismatch();
          ASSIGN_OR_RETURN(GeTensorDesc d, DescValue());
          descs.push_back(std::move(d));
          break;
        }
        case AttrValue::VT_LIST_TENSOR: {
          if (!IsIdent("tensor")) return mismatch();
          ASSIGN_OR_RETURN(GeTensor x, TensorValue());
          tensors.push_back(std::move(x));
          break;
        }
        case AttrValue::VT_LIST_GRAPH: {
          if (!IsIdent("graph") && !IsIdent("null")) return mismatch();
          ASSIGN_OR_RETURN(ComputeGraphPtr g, GraphValue());
          graphs.push_back(std::move(g));
          break;
        }
        case AttrValue::VT_LIST_NAMED_ATTRS: {
          if (!IsIdent("named")) return mismatch();
          ASSIGN_OR_RETURN(NamedAttrs x, NamedValue());
          nameds.push_back(std::move(x));
          break;
        }
        case AttrValue::VT_LIST_LIST_INT:
        case AttrValue::VT_LIST_LIST_FLOAT: {
          if (!IsPunct("[")) return mismatch();
          RETURN_IF_ERROR(Enter());
          Next();
          std::vector<int64_t> li;
          std::vector<float> lf;
          while (!IsPunct("]")) {
            if (!li.empty() || !lf.empty()) RETURN_IF_ERROR(Expect(","));
            if (type == AttrValue::VT_LIST_LIST_INT) {
              ASSIGN_OR_RETURN(int64_t v, IntTok("a list element"));
              li.push_back(v);
            } else {
              ASSIGN_OR_RETURN(float f, FloatTok());
              lf.push_back(f);
            }
          }
          Next();
          --depth_;
          if (type == AttrValue::VT_LIST_LIST_INT) {
            int_lists.push_back(std::move(li));
          } else {
            float_lists.push_back(std::move(lf));
          }
          break;
        }
        default:
          return Err(start, "unsupported list type");
      }
    }
    Next();  // ']'
    switch (type) {
      case AttrValue::VT_LIST_INT:
        return AttrValue::CreateFrom(std::move(ints));
      case AttrValue::VT_LIST_FLOAT:
        return AttrValue::CreateFrom(std::move(floats));
      case AttrValue::VT_LIST_BOOL:
        return AttrValue::CreateFrom(std::move(bools));
      case AttrValue::VT_LIST_STRING:
        return AttrValue::CreateFrom(std::move(strings));
      case AttrValue::VT_LIST_DATA_TYPE:
        return AttrValue::CreateFrom(std::move(dtypes));
      case AttrValue::VT_LIST_TENSOR_DESC:
        return AttrValue::CreateFrom(std::move(descs));
      case AttrValue::VT_LIST_TENSOR:
        return AttrValue::CreateFrom(std::move(tensors));
      case AttrValue::VT_LIST_BYTES:
        return AttrValue::CreateFrom(std::move(bytes));
      case AttrValue::VT_LIST_GRAPH:
        return AttrValue::CreateFrom(std::move(graphs));
      case AttrValue::VT_LIST_NAMED_ATTRS:
        return AttrValue::CreateFrom(std::move(nameds));
      case AttrValue::VT_LIST_LIST_INT:
        return AttrValue::CreateFrom(std::move(int_lists));
      default:
        return AttrValue::CreateFrom(std::move(float_lists));
    }
  }

  // ---------------------------------------------------------------- build

  struct Built {
    ComputeGraphPtr graph;
    std::map<std::string, NodePtr> nodes;
  };

  static StatusOr<NodePtr> Lookup(const Built& b, const NameRef& r) {
    auto it = b.nodes.find(r.name);
    if (it == b.nodes.end()) {
      return ErrAt(r.pos, absl::StrCat("unknown node ", Ref(r.name), " in graph '",
                                       b.graph->GetName(), "'"));
    }
    return it->second;
  }

  struct Edge {
    Anchor* from;
    Anchor* to;
  };

  StatusOr<ComputeGraphPtr> Build(std::vector<GraphAst>& graphs) {
    std::vector<Built> built(graphs.size());
    std::map<std::string, size_t> by_name;
    for (size_t gi = 0; gi < graphs.size(); ++gi) {
      GraphAst& ga = graphs[gi];
      if (!by_name.emplace(ga.name.name, gi).second) {
        return ErrAt(ga.name.pos, absl::StrCat("duplicate graph name '", ga.name.name, "'"));
      }
      RETURN_IF_ERROR(BuildGraph(ga, &built[gi]));
    }
    const ComputeGraphPtr& root = built[0].graph;
    for (size_t gi = 1; gi < graphs.size(); ++gi) {
      GraphAst& ga = graphs[gi];
      if (!ga.has_parent) continue;
      auto it = by_name.find(ga.parent_graph.name);
      if (it == by_name.end()) {
        return ErrAt(ga.parent_graph.pos,
                     absl::StrCat("unknown graph '", ga.parent_graph.name, "'"));
      }
      ASSIGN_OR_RETURN(NodePtr parent, Lookup(built[it->second], ga.parent_node));
      built[gi].graph->SetParentGraph(built[it->second].graph);
      built[gi].graph->SetParentNode(parent);
    }
    for (size_t gi = 1; gi < graphs.size(); ++gi) {
      GraphAst& ga = graphs[gi];
      const ComputeGraphPtr& sg = built[gi].graph;
      Status st;
      if (ga.has_parent) {
        st = root->AddSubgraph(ga.has_alias ? ga.alias : ga.name.name, sg);
      } else if (ga.has_alias && ga.alias != ga.name.name) {
        st = NotSupported("a subgraph without a parent is registered under its own name");
      } else {
        st = root->AddSubGraph(sg);
      }
      if (!st.ok()) return ErrAt(ga.name.pos, st.message());
    }
    return root;
  }

  Status BuildGraph(GraphAst& ga, Built* b) {
    b->graph = std::make_shared<ComputeGraph>(ga.name.name);
    ComputeGraph& g = *b->graph;
    g.SetGraphID(ga.id);
    g.MutableAttrStore() = std::move(ga.attrs);
    std::vector<NodePtr> nodes;
    for (size_t i = 0; i < ga.nodes.size(); ++i) {
      NodeAst& na = ga.nodes[i];
      if (b->nodes.count(na.name.name) != 0) {
        return ErrAt(na.name.pos, absl::StrCat("duplicate node name ", Ref(na.name.name)));
      }
      StatusOr<NodePtr> node = g.AddNode(na.op, na.has_id ? na.id : static_cast<int64_t>(i));
      if (!node.ok()) return ErrAt(na.name.pos, node.status().message());
      Node& n = **node;
      const size_t want_in = na.inputs.size();
      const size_t have_in = n.GetAllInDataAnchorsSize();
      Status st = want_in > have_in   ? n.AppendInDataAnchors(want_in - have_in)
                  : want_in < have_in ? n.RemoveInDataAnchors(have_in - want_in)
                                      : OkStatus();
      if (st.ok() && na.out_anchors >= 0) {
        const size_t want = static_cast<size_t>(na.out_anchors);
        const size_t have = n.GetAllOutDataAnchorsSize();
        st = want > have   ? n.AppendOutDataAnchors(want - have)
             : want < have ? n.RemoveOutDataAnchors(have - want)
                           : OkStatus();
      }
      if (!st.ok()) return ErrAt(na.name.pos, st.message());
      b->nodes.emplace(na.name.name, *node);
      nodes.push_back(*node);
    }
    RETURN_IF_ERROR(LinkEdges(ga, *b, nodes));
    RETURN_IF_ERROR(CheckCycles(ga, nodes));
    if (ga.has_inputs) {
      for (const NodePtr& n : std::vector<NodePtr>(g.GetInputNodes())) {
        RETURN_IF_ERROR(g.RemoveInputNode(n));
      }
      std::set<std::string> seen;
      for (const NameRef& r : ga.inputs) {
        if (!seen.insert(r.name).second)
          return ErrAt(r.pos, absl::StrCat("duplicate input ", Ref(r.name)));
        ASSIGN_OR_RETURN(NodePtr n, Lookup(*b, r));
        RETURN_IF_ERROR(g.AddInputNode(n));
      }
    }
    std::vector<std::pair<NodePtr, int32_t>> outs;
    for (const auto& [r, idx] : ga.outputs) {
      ASSIGN_OR_RETURN(NodePtr n, Lookup(*b, r));
      if (idx < 0 || static_cast<size_t>(idx) >= n->GetAllOutDataAnchorsSize()) {
        return ErrAt(r.pos, absl::StrCat("node ", Ref(r.name), " has no output ", idx));
      }
      outs.emplace_back(n, idx);
    }
    g.SetGraphOutNodesInfo(outs);
    return OkStatus();
  }

  static StatusOr<Anchor*> SourceAnchor(const Built& b, const InputAst& in) {
    ASSIGN_OR_RETURN(NodePtr src, Lookup(b, in.src));
    if (in.index == -1) return static_cast<Anchor*>(src->GetOutControlAnchorBarePtr());
    if (static_cast<size_t>(in.index) >= src->GetAllOutDataAnchorsSize()) {
      return ErrAt(in.src.pos, absl::StrCat("node ", Ref(in.src.name), " has no output ", in.index,
                                            " (it has ", src->GetAllOutDataAnchorsSize(), ")"));
    }
    return static_cast<Anchor*>(src->GetOutDataAnchorBarePtr(in.index));
  }

  // Links every edge: in canonical order (consumers in list order, data
  // inputs, then control inputs), or, when a node records the order of an
  // output's consumers, in an order that gives every out anchor its
  // recorded order and every in-control anchor its listed order.
  Status LinkEdges(const GraphAst& ga, const Built& b, const std::vector<NodePtr>& nodes) {
    std::vector<Edge> edges;
    std::vector<Pos> where;
    bool any_order = false;
    for (size_t i = 0; i < ga.nodes.size(); ++i) {
      const NodeAst& na = ga.nodes[i];
      Node& n = *nodes[i];
      any_order = any_order || !na.orders.empty();
      for (size_t k = 0; k < na.inputs.size(); ++k) {
        if (!na.inputs[k].connected) continue;
        ASSIGN_OR_RETURN(Anchor * from, SourceAnchor(b, na.inputs[k]));
        edges.push_back({from, n.GetInDataAnchorBarePtr(static_cast<int32_t>(k))});
        where.push_back(na.inputs[k].src.pos);
      }
      std::set<Anchor*> seen;
      for (const InputAst& c : na.controls) {
        ASSIGN_OR_RETURN(Anchor * from, SourceAnchor(b, c));
        if (!seen.insert(from).second) {
          return ErrAt(c.src.pos, absl::StrCat("duplicate control input ", Ref(c.src.name)));
        }
        edges.push_back({from, n.GetInControlAnchorBarePtr()});
        where.push_back(c.src.pos);
      }
    }
    std::vector<size_t> order(edges.size());
    for (size_t e = 0; e < edges.size(); ++e) order[e] = e;
    if (any_order) RETURN_IF_ERROR(OrderEdges(ga, b, nodes, edges, &order));
    for (size_t e : order) {
      Status st = edges[e].from->LinkWith(edges[e].to);
      if (!st.ok()) return ErrAt(where[e], st.message());
    }
    return OkStatus();
  }

  Status OrderEdges(const GraphAst& ga, const Built& b, const std::vector<NodePtr>& nodes,
                    const std::vector<Edge>& edges, std::vector<size_t>* order) {
    // Chains: per out anchor (recorded or canonical order), per in-control
    // anchor (listed order).
    std::map<const Anchor*, std::vector<size_t>> by_from, by_to;
    for (size_t e = 0; e < edges.size(); ++e) {
      by_from[edges[e].from].push_back(e);
      if (edges[e].to->IsInControl()) by_to[edges[e].to].push_back(e);
    }
    for (size_t i = 0; i < ga.nodes.size(); ++i) {
      for (const OrderAst& o : ga.nodes[i].orders) {
        const Node& n = *nodes[i];
        const Anchor* from = nullptr;
        if (o.output == -1) {
          from = n.GetOutControlAnchorBarePtr();
        } else if (o.output >= 0 && static_cast<size_t>(o.output) < n.GetAllOutDataAnchorsSize()) {
          from = n.GetOutDataAnchorBarePtr(o.output);
        } else {
          return ErrAt(o.pos, absl::StrCat("node ", Ref(n.GetName()), " has no output ", o.output));
        }
        std::vector<size_t>& chain = by_from[from];
        std::vector<size_t> recorded;
        for (const UseAst& u : o.uses) {
          ASSIGN_OR_RETURN(NodePtr c, Lookup(b, u.node));
          const Anchor* to = u.input < 0
                                 ? static_cast<const Anchor*>(c->GetInControlAnchorBarePtr())
                                 : c->GetInDataAnchorBarePtr(u.input);
          auto it =
              std::find_if(chain.begin(), chain.end(), [&](size_t e) { return edges[e].to == to; });
          if (to == nullptr || it == chain.end() ||
              std::find(recorded.begin(), recorded.end(), *it) != recorded.end()) {
            return ErrAt(u.node.pos,
                         absl::StrCat("order of ", Ref(n.GetName()), " output ", o.output, ": ",
                                      Ref(u.node.name), " is not one of its consumers"));
          }
          recorded.push_back(*it);
        }
        if (recorded.size() != chain.size()) {
          return ErrAt(o.pos,
                       absl::StrCat("order of ", Ref(n.GetName()), " output ", o.output, " lists ",
                                    recorded.size(), " of its ", chain.size(), " consumers"));
        }
        chain = std::move(recorded);
      }
    }
    std::vector<int> indegree(edges.size(), 0);
    std::vector<std::vector<size_t>> next(edges.size());
    auto chain_edges = [&](const std::map<const Anchor*, std::vector<size_t>>& chains) {
      for (const auto& [a, chain] : chains) {
        for (size_t k = 1; k < chain.size(); ++k) {
          next[chain[k - 1]].push_back(chain[k]);
          ++indegree[chain[k]];
        }
      }
    };
    chain_edges(by_from);
    chain_edges(by_to);
    std::priority_queue<size_t, std::vector<size_t>, std::greater<size_t>> ready;
    for (size_t e = 0; e < edges.size(); ++e) {
      if (indegree[e] == 0) ready.push(e);
    }
    order->clear();
    std::vector<bool> done(edges.size(), false);
    while (!ready.empty()) {
      const size_t e = ready.top();
      ready.pop();
      order->push_back(e);
      done[e] = true;
      for (size_t s : next[e]) {
        if (--indegree[s] == 0) ready.push(s);
      }
    }
    // Orders that contradict each other: the rest canonically.
    for (size_t e = 0; e < edges.size(); ++e) {
      if (!done[e]) order->push_back(e);
    }
    return OkStatus();
  }

  static Status CheckCycles(const GraphAst& ga, const std::vector<NodePtr>& nodes) {
    std::map<const Node*, size_t> index;
    for (size_t i = 0; i < nodes.size(); ++i) index[nodes[i].get()] = i;
    std::vector<std::vector<size_t>> preds(nodes.size());
    std::vector<size_t> pending(nodes.size(), 0);
    std::vector<std::vector<size_t>> succs(nodes.size());
    for (size_t i = 0; i < nodes.size(); ++i) {
      auto add = [&](const Anchor* peer) {
        auto it = index.find(peer->GetOwnerNodeBarePtr());
        if (it == index.end()) return;
        preds[i].push_back(it->second);
        succs[it->second].push_back(i);
        ++pending[i];
      };
      for (size_t k = 0; k < nodes[i]->GetAllInDataAnchorsSize(); ++k) {
        for (const Anchor* p :
             nodes[i]->GetInDataAnchorBarePtr(static_cast<int32_t>(k))->PeerAnchors())
          add(p);
      }
      for (const Anchor* p : nodes[i]->InControlPeers()) add(p);
    }
    std::vector<size_t> stack;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (pending[i] == 0) stack.push_back(i);
    }
    size_t visited = 0;
    while (!stack.empty()) {
      const size_t i = stack.back();
      stack.pop_back();
      ++visited;
      for (size_t s : succs[i]) {
        if (--pending[s] == 0) stack.push_back(s);
      }
    }
    if (visited == nodes.size()) return OkStatus();
    // Walk back through unfinished predecessors until a node repeats.
    size_t start = 0;
    while (pending[start] == 0) ++start;
    std::vector<size_t> path;
    std::map<size_t, size_t> at;
    size_t cur = start;
    while (at.count(cur) == 0) {
      at[cur] = path.size();
      path.push_back(cur);
      for (size_t p : preds[cur]) {
        if (pending[p] != 0) {
          cur = p;
          break;
        }
      }
    }
    std::vector<std::string> names;
    for (size_t k = path.size(); k-- > at[cur];) names.push_back(nodes[path[k]]->GetName());
    names.push_back(nodes[path.back()]->GetName());
    return ErrAt(
        ga.nodes[cur].name.pos,
        absl::StrCat("graph '", ga.name.name, "' has a cycle: ", absl::StrJoin(names, " -> ")));
  }

  std::vector<Token> t_;
  size_t p_ = 0;
  int depth_ = 0;
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

StatusOr<ComputeGraphPtr> ParseGraphText(absl::string_view text) {
  std::vector<Token> tokens;
  RETURN_IF_ERROR(Lexer(text).Run(&tokens));
  return Parser(std::move(tokens)).File();
}

}  // namespace ge
