// compiler/parser/onnx/onnx_version.cc
#include "compiler/parser/onnx/onnx_version.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx/version_converter/convert.h"

namespace ge {
namespace onnx_parser {
namespace {

using onnx::AttributeProto;
using onnx::GraphProto;
using onnx::ModelProto;
using onnx::NodeProto;
using onnx::TensorProto;

bool IsDefaultDomain(const std::string& d) { return d.empty() || d == "ai.onnx"; }

// ------------------------------------------------------------ attributes

const AttributeProto* FindAttr(const NodeProto& n, absl::string_view name) {
  for (const AttributeProto& a : n.attribute()) {
    if (a.name() == name) return &a;
  }
  return nullptr;
}

void RemoveAttr(NodeProto* n, absl::string_view name) {
  auto* attrs = n->mutable_attribute();
  for (int i = attrs->size() - 1; i >= 0; --i) {
    if (attrs->Get(i).name() == name) attrs->DeleteSubrange(i, 1);
  }
}

AttributeProto* SetAttr(NodeProto* n, absl::string_view name, AttributeProto::AttributeType type) {
  RemoveAttr(n, name);
  AttributeProto* a = n->add_attribute();
  a->set_name(std::string(name));
  a->set_type(type);
  return a;
}

void SetIntAttr(NodeProto* n, absl::string_view name, int64_t v) {
  SetAttr(n, name, AttributeProto::INT)->set_i(v);
}

void SetStrAttr(NodeProto* n, absl::string_view name, const std::string& v) {
  SetAttr(n, name, AttributeProto::STRING)->set_s(v);
}

// ------------------------------------------------------------ value types

struct TypeInfo {
  int32_t elem_type = 0;
  int64_t rank = -1;  // -1: unknown
};
using TypeMap = absl::flat_hash_map<std::string, TypeInfo>;

void AddType(const onnx::ValueInfoProto& vi, TypeMap* m) {
  if (!vi.type().has_tensor_type()) return;
  TypeInfo& t = (*m)[vi.name()];
  t.elem_type = vi.type().tensor_type().elem_type();
  if (vi.type().tensor_type().has_shape()) t.rank = vi.type().tensor_type().shape().dim_size();
}

void CollectTypes(const GraphProto& g, TypeMap* m) {
  for (const auto& vi : g.input()) AddType(vi, m);
  for (const auto& vi : g.output()) AddType(vi, m);
  for (const auto& vi : g.value_info()) AddType(vi, m);
  for (const TensorProto& t : g.initializer()) {
    TypeInfo& info = (*m)[t.name()];
    info.elem_type = t.data_type();
    info.rank = t.dims_size();
  }
  for (const NodeProto& n : g.node()) {
    for (const AttributeProto& a : n.attribute()) {
      if (a.has_g()) CollectTypes(a.g(), m);
      for (const GraphProto& sub : a.graphs()) CollectTypes(sub, m);
    }
  }
}

// OnnxShapeInferenceHazard with the model's declared types at hand.
std::string ShapeInferenceHazard(const ModelProto& model, const TypeMap& declared);

// Best-effort types: ONNX shape inference on a copy (failures ignored;
// skipped when a node would crash it, see OnnxShapeInferenceHazard).
TypeMap InferTypes(const ModelProto& model) {
  TypeMap declared;
  CollectTypes(model.graph(), &declared);
  if (!ShapeInferenceHazard(model, declared).empty()) return declared;
  ModelProto copy = model;
  try {
    onnx::ShapeInferenceOptions opts(/*check_type_val=*/false, /*strict_mode_val=*/0,
                                     /*data_prop_val=*/false);
    onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(), opts);
  } catch (const std::exception&) {
    copy = model;
  }
  TypeMap m;
  CollectTypes(copy.graph(), &m);
  return m;
}

// ------------------------------------------------------------ names

void CollectNames(const GraphProto& g, absl::flat_hash_set<std::string>* names,
                  absl::flat_hash_set<std::string>* used) {
  for (const auto& vi : g.input()) names->insert(vi.name());
  for (const auto& vi : g.output()) {
    names->insert(vi.name());
    used->insert(vi.name());
  }
  for (const TensorProto& t : g.initializer()) names->insert(t.name());
  for (const NodeProto& n : g.node()) {
    names->insert(n.name());
    for (const std::string& o : n.output()) names->insert(o);
    for (const std::string& i : n.input()) used->insert(i);
    for (const AttributeProto& a : n.attribute()) {
      if (a.has_g()) CollectNames(a.g(), names, used);
      for (const GraphProto& sub : a.graphs()) CollectNames(sub, names, used);
    }
  }
}

// ------------------------------------------------------------ constants

uint16_t FloatToHalfBits(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const int32_t exp = static_cast<int32_t>((x >> 23) & 0xFF);
  uint32_t mant = x & 0x7FFFFFu;
  if (exp == 0xFF) return static_cast<uint16_t>(sign | 0x7C00u | (mant != 0 ? 0x200u : 0u));
  int32_t e = exp - 127 + 15;
  if (e >= 0x1F) return static_cast<uint16_t>(sign | 0x7C00u);
  if (e <= 0) {
    if (e < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - e);
    uint32_t half = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1);
    const uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1u))) ++half;
    return static_cast<uint16_t>(sign | half);
  }
  uint32_t half = (static_cast<uint32_t>(e) << 10) | (mant >> 13);
  const uint32_t rem = mant & 0x1FFFu;
  if (rem > 0x1000u || (rem == 0x1000u && (half & 1u))) ++half;
  return static_cast<uint16_t>(sign | half);
}

// A one-type scalar or vector of `values` as a TensorProto of `elem_type`
// (a float type; integer types get truncated values).
TensorProto NumberTensor(const std::vector<double>& values, int32_t elem_type,
                         const std::vector<int64_t>& dims) {
  TensorProto t;
  t.set_data_type(elem_type);
  for (int64_t d : dims) t.add_dims(d);
  for (double v : values) {
    switch (elem_type) {
      case TensorProto::DOUBLE:
        t.add_double_data(v);
        break;
      case TensorProto::FLOAT16:
        t.add_int32_data(FloatToHalfBits(static_cast<float>(v)));
        break;
      case TensorProto::INT64:
        t.add_int64_data(static_cast<int64_t>(v));
        break;
      case TensorProto::INT32:
      case TensorProto::INT16:
      case TensorProto::INT8:
      case TensorProto::UINT16:
      case TensorProto::UINT8:
        t.add_int32_data(static_cast<int32_t>(v));
        break;
      case TensorProto::UINT32:
      case TensorProto::UINT64:
        t.add_uint64_data(static_cast<uint64_t>(v));
        break;
      default:
        t.set_data_type(TensorProto::FLOAT);
        t.add_float_data(static_cast<float>(v));
        break;
    }
  }
  return t;
}

TensorProto Int64Tensor(const std::vector<int64_t>& values) {
  TensorProto t;
  t.set_data_type(TensorProto::INT64);
  t.add_dims(static_cast<int64_t>(values.size()));
  for (int64_t v : values) t.add_int64_data(v);
  return t;
}

// ------------------------------------------------------------ adapter

constexpr absl::string_view kLegacyBroadcastOps[] = {"Add", "Sub", "Mul",   "Div",     "Pow", "And",
                                                     "Or",  "Xor", "Equal", "Greater", "Less"};

bool IsLegacyBroadcastOp(const std::string& t) {
  for (absl::string_view op : kLegacyBroadcastOps) {
    if (t == op) return true;
  }
  return false;
}

// Every adapter that reads value types (TypeOf) applies to opsets below this.
constexpr int64_t kLastTypedAdapterOpset = 13;

class BuiltinAdapter {
 public:
  // Value types are only consulted by adapters of opsets below 13 (ONNX shape
  // inference on a copy of the model: skipped when no adapter can use it).
  BuiltinAdapter(const ModelProto& model, int64_t from)
      : from_(from), types_(from < kLastTypedAdapterOpset ? InferTypes(model) : TypeMap()) {
    CollectNames(model.graph(), &names_, &used_);
  }

  Status AdaptGraph(GraphProto* g) {
    std::vector<NodeProto> out;
    out.reserve(static_cast<size_t>(g->node_size()));
    for (int i = 0; i < g->node_size(); ++i) {
      // Moved out (no copy): the node list is rebuilt from `out` below.
      NodeProto node = std::move(*g->mutable_node(i));
      for (AttributeProto& a : *node.mutable_attribute()) {
        if (a.has_g()) RETURN_IF_ERROR(AdaptGraph(a.mutable_g()));
        for (GraphProto& sub : *a.mutable_graphs()) RETURN_IF_ERROR(AdaptGraph(&sub));
      }
      if (!IsDefaultDomain(node.domain())) {
        out.push_back(std::move(node));
        continue;
      }
      RETURN_IF_ERROR(AdaptNode(std::move(node), g, &out));
    }
    g->clear_node();
    g->mutable_node()->Reserve(static_cast<int>(out.size()));
    for (NodeProto& n : out) *g->add_node() = std::move(n);
    return OkStatus();
  }

 private:
  std::string Where(const NodeProto& n) const {
    return absl::StrCat("node '", n.name(), "' (", n.op_type(), ", opset ", from_, "): ");
  }

  std::string NewName(const std::string& hint) {
    std::string base = hint.empty() ? std::string("adapted") : hint;
    for (int64_t k = 0;; ++k) {
      std::string name = absl::StrCat(base, "__v", kTargetOpset, "_", k);
      if (names_.insert(name).second) return name;
    }
  }

  // Adds `t` as an initializer of `g`; returns its name.
  std::string AddConst(GraphProto* g, TensorProto t, const std::string& hint) {
    std::string name = NewName(hint);
    t.set_name(name);
    *g->add_initializer() = std::move(t);
    return name;
  }

  TypeInfo TypeOf(const std::string& name) const {
    auto it = types_.find(name);
    return it == types_.end() ? TypeInfo() : it->second;
  }

  // The element type to use for constants matching `name`'s type (float when
  // unknown).
  int32_t FloatTypeOf(const std::string& name) const {
    const int32_t t = TypeOf(name).elem_type;
    return t == 0 ? static_cast<int32_t>(TensorProto::FLOAT) : t;
  }

  std::vector<int64_t> Ints(const AttributeProto* a) const {
    return a == nullptr ? std::vector<int64_t>()
                        : std::vector<int64_t>(a->ints().begin(), a->ints().end());
  }

  // Moves an INTS attribute to input `index` (an int64 initializer); pads
  // missing inputs before it with "". Absent attribute: nothing.
  void IntsAttrToInput(NodeProto* n, GraphProto* g, absl::string_view attr, int index) {
    const AttributeProto* a = FindAttr(*n, attr);
    if (a == nullptr) return;
    const std::string c = AddConst(g, Int64Tensor(Ints(a)), absl::StrCat(n->name(), "_", attr));
    RemoveAttr(n, attr);
    SetInput(n, index, c);
  }

  static void SetInput(NodeProto* n, int index, const std::string& name) {
    while (n->input_size() <= index) n->add_input("");
    n->set_input(index, name);
  }

  Status AdaptNode(NodeProto n, GraphProto* g, std::vector<NodeProto>* out);
  Status AdaptSoftmax(NodeProto n, std::vector<NodeProto>* out);
  Status AdaptScan8(NodeProto n, std::vector<NodeProto>* out);
  Status AdaptPRelu6(NodeProto n, GraphProto* g, std::vector<NodeProto>* out);
  Status AdaptLegacyBroadcast(NodeProto n, GraphProto* g, std::vector<NodeProto>* out);

  const int64_t from_;
  const TypeMap types_;
  absl::flat_hash_set<std::string> names_;
  absl::flat_hash_set<std::string> used_;
};

Status BuiltinAdapter::AdaptLegacyBroadcast(NodeProto n, GraphProto* g,
                                            std::vector<NodeProto>* out) {
  const AttributeProto* bc = FindAttr(n, "broadcast");
  const AttributeProto* ax = FindAttr(n, "axis");
  const bool broadcast = bc != nullptr && bc->i() != 0;
  if (broadcast && ax != nullptr && n.input_size() >= 2) {
    const int64_t ra = TypeOf(n.input(0)).rank;
    const int64_t rb = TypeOf(n.input(1)).rank;
    if (ra < 0 || rb < 0) {
      return NotSupported(Where(n), "legacy broadcast with axis ", ax->i(),
                          " needs the ranks of both inputs, which are unknown");
    }
    const int64_t axis = ax->i() < 0 ? ax->i() + ra : ax->i();
    const int64_t trailing = ra - axis - rb;
    if (axis < 0 || trailing < 0) {
      return ParamInvalid(Where(n), "legacy broadcast axis ", ax->i(),
                          " does not fit input B of rank ", rb, " into input A of rank ", ra);
    }
    if (trailing > 0) {
      std::vector<int64_t> axes;
      for (int64_t k = 0; k < trailing; ++k) axes.push_back(rb + k);
      NodeProto unsq;
      unsq.set_op_type("Unsqueeze");
      unsq.set_name(NewName(n.name() + "_align_b"));
      unsq.add_input(n.input(1));
      unsq.add_input(AddConst(g, Int64Tensor(axes), n.name() + "_align_axes"));
      const std::string aligned = NewName(n.input(1) + "_aligned");
      unsq.add_output(aligned);
      n.set_input(1, aligned);
      out->push_back(std::move(unsq));
    }
  }
  RemoveAttr(&n, "broadcast");
  RemoveAttr(&n, "axis");
  out->push_back(std::move(n));
  return OkStatus();
}

Status BuiltinAdapter::AdaptSoftmax(NodeProto n, std::vector<NodeProto>* out) {
  const AttributeProto* ax = FindAttr(n, "axis");
  const int64_t axis = ax == nullptr ? 1 : ax->i();
  const int64_t rank = n.input_size() > 0 ? TypeOf(n.input(0)).rank : -1;
  if (axis == -1 || (rank >= 0 && (axis == rank - 1 || axis + rank == rank - 1))) {
    SetIntAttr(&n, "axis", -1);
    out->push_back(std::move(n));
    return OkStatus();
  }
  if (n.input_size() < 1 || n.output_size() < 1) {
    return ParamInvalid(Where(n), "needs one input and one output");
  }
  const std::string x = n.input(0);
  const std::string y = n.output(0);
  NodeProto shape;
  shape.set_op_type("Shape");
  shape.set_name(NewName(n.name() + "_shape"));
  shape.add_input(x);
  const std::string s = NewName(x + "_shape");
  shape.add_output(s);
  NodeProto flat;
  flat.set_op_type("Flatten");
  flat.set_name(NewName(n.name() + "_flatten"));
  flat.add_input(x);
  const std::string f = NewName(x + "_2d");
  flat.add_output(f);
  SetIntAttr(&flat, "axis", axis);
  NodeProto reshape;
  reshape.set_op_type("Reshape");
  reshape.set_name(NewName(n.name() + "_reshape"));
  const std::string r = NewName(y + "_2d");
  reshape.add_input(r);
  reshape.add_input(s);
  reshape.add_output(y);
  n.set_input(0, f);
  n.set_output(0, r);
  SetIntAttr(&n, "axis", 1);
  out->push_back(std::move(shape));
  out->push_back(std::move(flat));
  out->push_back(std::move(n));
  out->push_back(std::move(reshape));
  return OkStatus();
}

// Scan-8 runs a batch of independent scans (axis 0 of every input is the
// batch, axis 1 the sequence). As opset 9: an outer Scan over the batch axis
// (no states; every input is scanned) whose body runs the original body with
// an inner Scan-9 over the sequence.
Status BuiltinAdapter::AdaptScan8(NodeProto n, std::vector<NodeProto>* out) {
  const AttributeProto* m_attr = FindAttr(n, "num_scan_inputs");
  const AttributeProto* body = FindAttr(n, "body");
  if (m_attr == nullptr || body == nullptr || !body->has_g()) {
    return ParamInvalid(Where(n), "needs attributes num_scan_inputs and body");
  }
  if (n.input_size() > 0 && !n.input(0).empty()) {
    return NotSupported(Where(n), "sequence_lens is not supported");
  }
  const int64_t m = m_attr->i();
  const int64_t n_states = static_cast<int64_t>(n.input_size()) - 1 - m;
  if (m < 1 || n_states < 0) {
    return ParamInvalid(Where(n), "num_scan_inputs ", m, " does not fit its ", n.input_size(),
                        " inputs");
  }
  NodeProto inner;
  inner.set_op_type("Scan");
  inner.set_name(NewName(n.name() + "_sequence"));
  GraphProto outer_body;
  outer_body.set_name(NewName(n.name() + "_batch_body"));
  for (int i = 1; i < n.input_size(); ++i) {
    const std::string name = NewName(n.input(i) + "_item");
    outer_body.add_input()->set_name(name);
    inner.add_input(name);
  }
  for (int i = 0; i < n.output_size(); ++i) {
    const std::string name = NewName(n.output(i) + "_item");
    inner.add_output(name);
    outer_body.add_output()->set_name(name);
  }
  *inner.add_attribute() = *body;
  SetIntAttr(&inner, "num_scan_inputs", m);
  if (const AttributeProto* dirs = FindAttr(n, "directions")) {
    AttributeProto* a = SetAttr(&inner, "scan_input_directions", AttributeProto::INTS);
    a->mutable_ints()->CopyFrom(dirs->ints());
  }
  *outer_body.add_node() = std::move(inner);

  NodeProto outer;
  outer.set_op_type("Scan");
  outer.set_name(n.name());
  for (int i = 1; i < n.input_size(); ++i) outer.add_input(n.input(i));
  for (const std::string& o : n.output()) outer.add_output(o);
  SetIntAttr(&outer, "num_scan_inputs", n_states + m);
  AttributeProto* b = SetAttr(&outer, "body", AttributeProto::GRAPH);
  *b->mutable_g() = std::move(outer_body);
  out->push_back(std::move(outer));
  return OkStatus();
}

// PRelu before opset 7 applies a 1-D slope of C > 1 values per channel (axis
// 1); opset 7 broadcasts from the right. Reshape the slope to [C, 1, ...].
Status BuiltinAdapter::AdaptPRelu6(NodeProto n, GraphProto* g, std::vector<NodeProto>* out) {
  if (n.input_size() >= 2) {
    const int64_t rx = TypeOf(n.input(0)).rank;
    const TypeInfo slope = TypeOf(n.input(1));
    if (rx > 2 && slope.rank == 1) {
      std::vector<int64_t> axes;
      for (int64_t k = 1; k <= rx - 2; ++k) axes.push_back(k);
      NodeProto unsq;
      unsq.set_op_type("Unsqueeze");
      unsq.set_name(NewName(n.name() + "_slope"));
      unsq.add_input(n.input(1));
      unsq.add_input(AddConst(g, Int64Tensor(axes), n.name() + "_slope_axes"));
      const std::string s = NewName(n.input(1) + "_per_channel");
      unsq.add_output(s);
      n.set_input(1, s);
      out->push_back(std::move(unsq));
    }
  }
  out->push_back(std::move(n));
  return OkStatus();
}

Status BuiltinAdapter::AdaptNode(NodeProto n, GraphProto* g, std::vector<NodeProto>* out) {
  const std::string op = n.op_type();
  if (from_ < 7) {
    RemoveAttr(&n, "consumed_inputs");
    RemoveAttr(&n, "is_test");
  }
  if (from_ < 7 && IsLegacyBroadcastOp(op)) return AdaptLegacyBroadcast(std::move(n), g, out);
  if (op == "Gemm" && from_ < 7) RemoveAttr(&n, "broadcast");
  if ((op == "RNN" || op == "GRU" || op == "LSTM") && from_ < 7) {
    RemoveAttr(&n, "output_sequence");
  }
  if (op == "Concat" && from_ < 4 && FindAttr(n, "axis") == nullptr) SetIntAttr(&n, "axis", 1);
  if (op == "Reshape" && from_ < 5) IntsAttrToInput(&n, g, "shape", 1);
  if (op == "Cast" && from_ < 6) {
    const AttributeProto* to = FindAttr(n, "to");
    if (to != nullptr && (to->type() == AttributeProto::STRING || to->has_s())) {
      onnx::TensorProto_DataType value = TensorProto::UNDEFINED;
      const std::string name = absl::AsciiStrToUpper(to->s());
      if (!onnx::TensorProto_DataType_Parse(name, &value) || value == TensorProto::UNDEFINED) {
        return ParamInvalid(Where(n), "unknown type name '", to->s(), "' in attribute 'to'");
      }
      SetIntAttr(&n, "to", static_cast<int64_t>(value));
    }
  }
  if (op == "Tile" && from_ < 6) {
    return NotSupported(Where(n),
                        "Tile-1 (tiles, axis) has a different signature than "
                        "opset 17 and cannot be converted");
  }
  if (op == "Scan" && from_ < 9) return AdaptScan8(std::move(n), out);
  if (op == "PRelu" && from_ < 7) return AdaptPRelu6(std::move(n), g, out);
  if ((op == "LpPool" || op == "GlobalLpPool") && from_ < 2) {
    const AttributeProto* p = FindAttr(n, "p");
    if (p != nullptr && (p->type() == AttributeProto::FLOAT || p->has_f())) {
      SetIntAttr(&n, "p", static_cast<int64_t>(std::lround(p->f())));
    }
  }
  if (op == "BatchNormalization") {
    if (from_ < 9) {
      const AttributeProto* spatial = FindAttr(n, "spatial");
      if (spatial != nullptr && spatial->i() == 0) {
        const int64_t rank = n.input_size() > 0 ? TypeOf(n.input(0)).rank : -1;
        if (rank != 2) {
          return NotSupported(Where(n), "spatial=0 (per-activation statistics) is not supported");
        }
      }
      RemoveAttr(&n, "spatial");
    }
    if (from_ < 14 && n.output_size() > 1) {
      for (int i = 1; i < n.output_size(); ++i) {
        if (!n.output(i).empty() && used_.contains(n.output(i))) {
          return NotSupported(Where(n), "training-mode output ", i, " ('", n.output(i),
                              "') is used; only inference BatchNormalization is supported");
        }
      }
      while (n.output_size() > 1) n.mutable_output()->RemoveLast();
    }
  }
  if (op == "Dropout" && from_ < 12) {
    const AttributeProto* ratio = FindAttr(n, "ratio");
    if (ratio != nullptr) {
      const std::string c =
          AddConst(g, NumberTensor({ratio->f()}, TensorProto::FLOAT, {}), n.name() + "_ratio");
      RemoveAttr(&n, "ratio");
      SetInput(&n, 1, c);
    }
  }
  if (op == "TopK" && from_ < 10) {
    const AttributeProto* k = FindAttr(n, "k");
    if (k != nullptr) {
      const std::string c = AddConst(g, Int64Tensor({k->i()}), n.name() + "_k");
      RemoveAttr(&n, "k");
      SetInput(&n, 1, c);
    }
  }
  if (op == "Slice" && from_ < 10) {
    const AttributeProto* axes = FindAttr(n, "axes");
    IntsAttrToInput(&n, g, "starts", 1);
    IntsAttrToInput(&n, g, "ends", 2);
    if (axes != nullptr) IntsAttrToInput(&n, g, "axes", 3);
  }
  if (op == "Upsample" && from_ < 9) {
    const AttributeProto* mode = FindAttr(n, "mode");
    if (mode != nullptr && mode->s() == "bilinear") SetStrAttr(&n, "mode", "linear");
    std::vector<double> scales;
    if (const AttributeProto* s = FindAttr(n, "scales")) {
      scales.assign(s->floats().begin(), s->floats().end());
    } else {
      const AttributeProto* h = FindAttr(n, "height_scale");
      const AttributeProto* w = FindAttr(n, "width_scale");
      if (h == nullptr || w == nullptr) {
        return ParamInvalid(Where(n),
                            "needs attribute 'scales' (or 'height_scale' and 'width_scale')");
      }
      scales = {1.0, 1.0, h->f(), w->f()};
    }
    RemoveAttr(&n, "scales");
    RemoveAttr(&n, "height_scale");
    RemoveAttr(&n, "width_scale");
    const int64_t count = static_cast<int64_t>(scales.size());
    SetInput(&n, 1,
             AddConst(g, NumberTensor(scales, TensorProto::FLOAT, {count}), n.name() + "_scales"));
  }
  if (op == "Resize" && from_ == 10) {
    if (n.input_size() >= 2) {
      const std::string scales = n.input(1);
      n.set_input(1, "");
      SetInput(&n, 2, scales);
    }
    SetStrAttr(&n, "coordinate_transformation_mode", "asymmetric");
    const AttributeProto* mode = FindAttr(n, "mode");
    if (mode == nullptr || mode->s() == "nearest") SetStrAttr(&n, "nearest_mode", "floor");
  }
  if (op == "Pad" && from_ < 11) {
    const AttributeProto* pads = FindAttr(n, "pads");
    if (pads == nullptr) pads = FindAttr(n, "paddings");
    if (pads == nullptr) return ParamInvalid(Where(n), "needs attribute 'pads'");
    SetInput(&n, 1, AddConst(g, Int64Tensor(Ints(pads)), n.name() + "_pads"));
    RemoveAttr(&n, "pads");
    RemoveAttr(&n, "paddings");
    const AttributeProto* value = FindAttr(n, "value");
    if (value != nullptr) {
      if (value->f() != 0.0f) {
        const int32_t type = FloatTypeOf(n.input(0));
        SetInput(&n, 2, AddConst(g, NumberTensor({value->f()}, type, {}), n.name() + "_value"));
      }
      RemoveAttr(&n, "value");
    }
  }
  if (op == "Clip" && from_ < 11) {
    const AttributeProto* lo = FindAttr(n, "min");
    const AttributeProto* hi = FindAttr(n, "max");
    const int32_t type = n.input_size() > 0 ? FloatTypeOf(n.input(0)) : TensorProto::FLOAT;
    if (lo != nullptr) {
      SetInput(&n, 1, AddConst(g, NumberTensor({lo->f()}, type, {}), n.name() + "_min"));
    }
    if (hi != nullptr) {
      SetInput(&n, 2, AddConst(g, NumberTensor({hi->f()}, type, {}), n.name() + "_max"));
    }
    RemoveAttr(&n, "min");
    RemoveAttr(&n, "max");
  }
  if ((op == "Squeeze" || op == "Unsqueeze" || op == "ReduceSum") && from_ < 13) {
    IntsAttrToInput(&n, g, "axes", 1);
  }
  if (op == "Split" && from_ < 13) IntsAttrToInput(&n, g, "split", 1);
  if ((op == "Softmax" || op == "LogSoftmax" || op == "Hardmax") && from_ < 13) {
    return AdaptSoftmax(std::move(n), out);
  }
  out->push_back(std::move(n));
  return OkStatus();
}

// A node ONNX's version converter (1.12) is known to convert with other
// semantics although it reports no error: Scan-8's batch axis is dropped from
// the value sizes only; PRelu-6's per-channel slope is left as is; Upsample /
// Resize-10 become Resize with half_pixel coordinates instead of asymmetric
// ones; Reshape-4's shape becomes a constant without dims; a legacy broadcast
// `axis` gets a wrongly placed Unsqueeze.
// kAuto upgrades models of this opset or newer with the builtin adapters.
constexpr int64_t kFirstCompatibleOpset = 13;

// Ops whose libonnx inference is convPoolShapeInference (or sizes outputs
// the same way from strides, dilations and kernel shape).
bool IsConvPoolOp(const std::string& op) {
  return op == "Conv" || op == "ConvInteger" || op == "QLinearConv" || op == "ConvTranspose" ||
         op == "MaxPool" || op == "AveragePool" || op == "LpPool" || op == "MaxUnpool";
}

// The opset each domain of `model` imports ("" for the default domain).
absl::flat_hash_map<std::string, int64_t> ImportedOpsets(const ModelProto& model) {
  absl::flat_hash_map<std::string, int64_t> opsets;
  for (const onnx::OperatorSetIdProto& o : model.opset_import()) {
    opsets[IsDefaultDomain(o.domain()) ? std::string() : o.domain()] = o.version();
  }
  return opsets;
}

// libonnx's shape inference functions and version adapters take every node
// as its schema describes it (required attributes, input counts, no absent
// single input): a node that breaks it crashes them (a one-input Add
// segfaults the broadcast adapter, an EyeLike without its input
// propagateShape, a Scan without num_scan_inputs its inference). Some
// inference functions also use attribute values they do not check
// (LayerNormalization's axis indexes dims; Conv / pooling divide by their
// strides). "" when every node of `g` and its subgraphs is safe; else the
// first that is not (the parser then reports it properly). `ranks` holds the
// declared ranks of values (-1: unknown).
class SchemaChecker {
 public:
  SchemaChecker(const ModelProto& model, const TypeMap* ranks)
      : opsets_(ImportedOpsets(model)), ranks_(ranks) {}

  std::string Check(const GraphProto& g) {
    for (const NodeProto& n : g.node()) {
      std::string gap = CheckNode(n);
      for (int k = 0; gap.empty() && k < n.attribute_size(); ++k) {
        const AttributeProto& a = n.attribute(k);
        if (a.has_g()) gap = Check(a.g());
        for (int j = 0; gap.empty() && j < a.graphs_size(); ++j) gap = Check(a.graphs(j));
      }
      if (!gap.empty()) return gap;
    }
    return "";
  }

 private:
  std::string CheckNode(const NodeProto& n) {
    const bool default_domain = IsDefaultDomain(n.domain());
    const std::string domain = default_domain ? std::string() : n.domain();
    auto it = opsets_.find(domain);
    const int64_t version = it == opsets_.end() ? 0 : it->second;
    const onnx::OpSchema* schema = nullptr;
    if (version > 0 && version <= std::numeric_limits<int>::max()) {
      schema = onnx::OpSchemaRegistry::Schema(n.op_type(), static_cast<int>(version),
                                              default_domain ? onnx::ONNX_DOMAIN : domain);
    }
    if (schema == nullptr) {
      // Ops of other domains that libonnx does not know are skipped by it.
      if (!default_domain) return "";
      return absl::StrCat(n.op_type(), " (node '", n.name(), "') has no opset ", version,
                          " schema");
    }
    try {
      schema->Verify(n);
    } catch (const std::exception& e) {
      std::string why = e.what();
      why.resize(std::min(why.find('\n'), why.size()));
      return absl::StrCat(n.op_type(), " (node '", n.name(), "') does not match its opset ",
                          version, " schema: ", why);
    }
    if (default_domain && IsConvPoolOp(n.op_type())) {
      // convPoolShapeInference divides by the strides (a zero one raised
      // SIGFPE) and sizes outputs from kernel shape and dilations.
      for (const char* name : {"strides", "dilations", "kernel_shape"}) {
        const AttributeProto* a = FindAttr(n, name);
        if (a == nullptr) continue;
        for (int64_t v : a->ints()) {
          if (v <= 0) {
            return absl::StrCat(n.op_type(), " (node '", n.name(), "'): ", name, " has ", v,
                                ", not positive");
          }
        }
      }
    }
    if (default_domain && n.op_type() == "LayerNormalization" && n.input_size() > 0) {
      const AttributeProto* axis = FindAttr(n, "axis");
      if (axis != nullptr) {
        int64_t rank = -1;
        if (ranks_ != nullptr) {
          auto r = ranks_->find(n.input(0));
          if (r != ranks_->end()) rank = r->second.rank;
        }
        // An unknown rank is at least 1.
        const int64_t lowest = rank >= 0 ? -rank : -1;
        if (axis->i() < lowest || axis->i() > std::numeric_limits<int32_t>::max()) {
          return absl::StrCat(n.op_type(), " (node '", n.name(), "'): axis ", axis->i(),
                              " is out of range for its input",
                              rank >= 0 ? absl::StrCat(" of rank ", rank) : std::string());
        }
      }
    }
    return "";
  }

  absl::flat_hash_map<std::string, int64_t> opsets_;
  const TypeMap* ranks_;
};

std::string ShapeInferenceHazard(const ModelProto& model, const TypeMap& declared) {
  return SchemaChecker(model, &declared).Check(model.graph());
}

std::string OnnxConverterGap(const GraphProto& g, int64_t from) {
  for (const NodeProto& n : g.node()) {
    if (IsDefaultDomain(n.domain())) {
      const std::string& op = n.op_type();
      const bool legacy_axis =
          from < 7 && IsLegacyBroadcastOp(op) && FindAttr(n, "axis") != nullptr;
      if ((op == "Scan" && from < 9) || (op == "PRelu" && from < 7) ||
          (op == "Reshape" && from < 5) || legacy_axis ||
          ((op == "Upsample" || op == "Resize") && from < 11)) {
        return absl::StrCat(op, " at opset ", from, " (node '", n.name(),
                            "') is converted with different semantics");
      }
    }
    for (const AttributeProto& a : n.attribute()) {
      if (a.has_g()) {
        std::string gap = OnnxConverterGap(a.g(), from);
        if (!gap.empty()) return gap;
      }
    }
  }
  return "";
}

// ONNX's converter (1.12) rebuilds the model from its IR, which loses
// external-data references (the tensor comes back empty), sparse
// initializers and model-local functions: take them from the original.
void RestoreDroppedParts(const ModelProto& original, ModelProto* converted) {
  absl::flat_hash_map<std::string, const TensorProto*> external;
  for (const TensorProto& t : original.graph().initializer()) {
    if (t.data_location() == TensorProto::EXTERNAL) external.emplace(t.name(), &t);
  }
  for (TensorProto& t : *converted->mutable_graph()->mutable_initializer()) {
    auto it = external.find(t.name());
    if (it != external.end()) t = *it->second;
  }
  if (converted->graph().sparse_initializer_size() == 0) {
    *converted->mutable_graph()->mutable_sparse_initializer() =
        original.graph().sparse_initializer();
  }
  if (converted->functions_size() == 0) *converted->mutable_functions() = original.functions();
}

void SetDefaultOpset(ModelProto* model, int64_t version) {
  for (onnx::OperatorSetIdProto& o : *model->mutable_opset_import()) {
    if (IsDefaultDomain(o.domain())) o.set_version(version);
  }
}

}  // namespace

int64_t DefaultDomainOpset(const ModelProto& model) {
  for (const onnx::OperatorSetIdProto& o : model.opset_import()) {
    if (IsDefaultDomain(o.domain())) return o.version();
  }
  return 0;
}

std::string OnnxShapeInferenceHazard(const ModelProto& model) {
  TypeMap declared;
  CollectTypes(model.graph(), &declared);
  return ShapeInferenceHazard(model, declared);
}

// Whether any node of g (or its subgraphs) may be rewritten by
// BuiltinAdapter::AdaptNode from opset `from`: every node below opset 13;
// from 13 only BatchNormalization (its training-mode outputs are dropped
// before opset 14); nothing from 14 on. Saves collecting every name of a
// large model that needs no rewrite.
bool NeedsAdapting(const GraphProto& g, int64_t from) {
  if (from < 13) return true;
  if (from >= 14) return false;
  for (const NodeProto& n : g.node()) {
    if (n.op_type() == "BatchNormalization") return true;
    for (const AttributeProto& a : n.attribute()) {
      if (a.has_g() && NeedsAdapting(a.g(), from)) return true;
      for (const GraphProto& sub : a.graphs()) {
        if (NeedsAdapting(sub, from)) return true;
      }
    }
  }
  return false;
}

Status ApplyBuiltinAdapters(ModelProto* model, int64_t target, bool* rewritten) {
  if (rewritten != nullptr) *rewritten = false;
  const int64_t from = DefaultDomainOpset(*model);
  if (target > kTargetOpset) {
    return NotSupported("builtin adapters convert up to opset ", kTargetOpset, ", not ", target);
  }
  if (from >= target) return OkStatus();
  if (!NeedsAdapting(model->graph(), from)) {
    SetDefaultOpset(model, target);
    return OkStatus();
  }
  BuiltinAdapter adapter(*model, from);
  if (rewritten != nullptr) *rewritten = true;
  RETURN_IF_ERROR(adapter.AdaptGraph(model->mutable_graph()));
  SetDefaultOpset(model, target);
  return OkStatus();
}

StatusOr<OpsetConversion> NormalizeOpset(ModelProto* model, int64_t target,
                                         OnnxVersionConverter kind) {
  OpsetConversion c;
  c.from_opset = DefaultDomainOpset(*model);
  c.to_opset = c.from_opset;
  c.converter = "none";
  if (c.from_opset > target) {
    return NotSupported("model opset ", c.from_opset, " is newer than the supported opset ",
                        target);
  }
  if (c.from_opset < 0) return ParamInvalid("model opset ", c.from_opset, " is negative");
  if (c.from_opset == 0 || c.from_opset == target) return c;

  // From opset 13 on, every change up to 17 is backward compatible (new
  // attributes whose defaults keep the old behaviour, wider type lists), so
  // the builtin adapters have nothing to rewrite; ONNX's converter would only
  // cost time (its IR rebuild checks name uniqueness per node: quadratic,
  // seconds at 10k nodes). kAuto takes the builtin path directly, in place.
  if (kind == OnnxVersionConverter::kAuto && c.from_opset >= kFirstCompatibleOpset) {
    RETURN_IF_ERROR(Annotate(ApplyBuiltinAdapters(model, target, &c.rewritten),
                             "converting from opset ", c.from_opset, " to ", target, ": "));
    c.to_opset = target;
    c.converter = "builtin";
    return c;
  }
  std::string gap;
  if (kind != OnnxVersionConverter::kBuiltin) {
    gap = SchemaChecker(*model, nullptr).Check(model->graph());
    if (!gap.empty() && kind == OnnxVersionConverter::kOnnx) {
      return NotSupported("ONNX version converter cannot convert from opset ", c.from_opset, ": ",
                          gap);
    }
  }
  if (gap.empty() && kind == OnnxVersionConverter::kAuto) {
    gap = OnnxConverterGap(model->graph(), c.from_opset);
  }
  if (!gap.empty()) {
    c.onnx_error = absl::StrCat("not used: ", gap);
  } else if (kind != OnnxVersionConverter::kBuiltin) {
    std::string error;
    try {
      ModelProto converted =
          onnx::version_conversion::ConvertVersion(*model, static_cast<int>(target));
      if (DefaultDomainOpset(converted) == target) {
        RestoreDroppedParts(*model, &converted);
        *model = std::move(converted);
        c.to_opset = target;
        c.converter = "onnx";
        c.rewritten = true;
        return c;
      }
      error = "the model was returned unconverted";
    } catch (const std::exception& e) {
      error = e.what();
    } catch (...) {
      error = "unknown exception";
    }
    // Keep the first line of multi-line ONNX messages.
    const size_t nl = error.find('\n');
    if (nl != std::string::npos) error.resize(nl);
    if (kind == OnnxVersionConverter::kOnnx) {
      return NotSupported("ONNX version converter failed from opset ", c.from_opset, " to ", target,
                          ": ", error);
    }
    c.onnx_error = error;
  }
  ModelProto copy = *model;
  Status st = ApplyBuiltinAdapters(&copy, target);
  if (!st.ok()) {
    if (c.onnx_error.empty()) {
      return Annotate(st, "converting from opset ", c.from_opset, " to ", target, ": ");
    }
    return Annotate(st, "converting from opset ", c.from_opset, " to ", target,
                    " (ONNX version converter: ", c.onnx_error, "; builtin adapters): ");
  }
  *model = std::move(copy);
  c.to_opset = target;
  c.converter = "builtin";
  c.rewritten = true;
  return c;
}

}  // namespace onnx_parser
}  // namespace ge
