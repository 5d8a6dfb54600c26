// compiler/parser/onnx/onnx_op_map.cc
#include "compiler/parser/onnx/onnx_op_map.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>  // NOLINT(build/c++11): std::call_once
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/parser/onnx/onnx_tensor.h"
#include "graph/inc/graph/ge_tensor.h"
#include "metadef/register/inc/register/framework_registry.h"
#include "metadef/register/inc/register/op_registry.h"
#include "onnx/defs/schema.h"

namespace ge {
namespace onnx_parser {
namespace {

using onnx::AttributeProto;

// The ONNX type of an attribute; infers it from the fields set when the
// `type` field is absent (IR version 1 models).
AttributeProto::AttributeType EffectiveType(const AttributeProto& a) {
  if (a.type() != AttributeProto::UNDEFINED) return a.type();
  if (a.has_f()) return AttributeProto::FLOAT;
  if (a.has_i()) return AttributeProto::INT;
  if (a.has_s()) return AttributeProto::STRING;
  if (a.has_t()) return AttributeProto::TENSOR;
  if (a.has_g()) return AttributeProto::GRAPH;
  if (a.has_sparse_tensor()) return AttributeProto::SPARSE_TENSOR;
  if (a.has_tp()) return AttributeProto::TYPE_PROTO;
  if (a.floats_size() > 0) return AttributeProto::FLOATS;
  if (a.ints_size() > 0) return AttributeProto::INTS;
  if (a.strings_size() > 0) return AttributeProto::STRINGS;
  if (a.tensors_size() > 0) return AttributeProto::TENSORS;
  if (a.graphs_size() > 0) return AttributeProto::GRAPHS;
  if (a.sparse_tensors_size() > 0) return AttributeProto::SPARSE_TENSORS;
  if (a.type_protos_size() > 0) return AttributeProto::TYPE_PROTOS;
  return AttributeProto::UNDEFINED;
}

bool IsListType(AttrValue::ValueType t) { return t > AttrValue::VT_LIST_BASE; }

StatusOr<AttrValue> FromInt(int64_t v, AttrValue::ValueType declared, absl::string_view what) {
  switch (declared) {
    case AttrValue::VT_DATA_TYPE: {
      if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
        return ParamInvalid(what, ": ", v, " is not an ONNX element type");
      }
      StatusOr<DataType> dt = DataTypeFromOnnx(static_cast<int32_t>(v));
      if (!dt.ok()) return Annotate(dt.status(), what, ": ");
      return AttrValue::CreateFrom<DataType>(*dt);
    }
    case AttrValue::VT_BOOL:
      return AttrValue::CreateFrom<bool>(v != 0);
    case AttrValue::VT_FLOAT:
      return AttrValue::CreateFrom<float>(static_cast<float>(v));
    case AttrValue::VT_LIST_INT:
      return AttrValue::CreateFrom<std::vector<int64_t>>({v});
    case AttrValue::VT_LIST_FLOAT:
      return AttrValue::CreateFrom<std::vector<float>>({static_cast<float>(v)});
    default:
      return AttrValue::CreateFrom<int64_t>(v);
  }
}

StatusOr<AttrValue> FromInts(const AttributeProto& a, AttrValue::ValueType declared,
                             absl::string_view what) {
  switch (declared) {
    case AttrValue::VT_LIST_DATA_TYPE: {
      std::vector<DataType> out;
      for (int64_t v : a.ints()) {
        ASSIGN_OR_RETURN(AttrValue one, FromInt(v, AttrValue::VT_DATA_TYPE, what));
        out.push_back(*one.Get<DataType>());
      }
      return AttrValue::CreateFrom(std::move(out));
    }
    case AttrValue::VT_LIST_BOOL: {
      std::vector<bool> out;
      for (int64_t v : a.ints()) out.push_back(v != 0);
      return AttrValue::CreateFrom(std::move(out));
    }
    case AttrValue::VT_LIST_FLOAT: {
      std::vector<float> out;
      for (int64_t v : a.ints()) out.push_back(static_cast<float>(v));
      return AttrValue::CreateFrom(std::move(out));
    }
    default:
      return AttrValue::CreateFrom(std::vector<int64_t>(a.ints().begin(), a.ints().end()));
  }
}

// An empty list attribute in the declared list type (ONNX cannot tell the
// element type of an empty list without the `type` field).
AttrValue EmptyList(AttrValue::ValueType declared, AttributeProto::AttributeType onnx_type) {
  switch (declared) {
    case AttrValue::VT_LIST_FLOAT:
      return AttrValue::CreateFrom(std::vector<float>());
    case AttrValue::VT_LIST_STRING:
      return AttrValue::CreateFrom(std::vector<std::string>());
    case AttrValue::VT_LIST_BOOL:
      return AttrValue::CreateFrom(std::vector<bool>());
    case AttrValue::VT_LIST_DATA_TYPE:
      return AttrValue::CreateFrom(std::vector<DataType>());
    case AttrValue::VT_LIST_TENSOR:
      return AttrValue::CreateFrom(std::vector<GeTensor>());
    case AttrValue::VT_LIST_INT:
      return AttrValue::CreateFrom(std::vector<int64_t>());
    default:
      break;
  }
  switch (onnx_type) {
    case AttributeProto::FLOATS:
      return AttrValue::CreateFrom(std::vector<float>());
    case AttributeProto::STRINGS:
      return AttrValue::CreateFrom(std::vector<std::string>());
    case AttributeProto::TENSORS:
    case AttributeProto::SPARSE_TENSORS:
      return AttrValue::CreateFrom(std::vector<GeTensor>());
    case AttributeProto::TYPE_PROTOS:
      return AttrValue::CreateFrom(std::vector<GeTensorDesc>());
    default:
      return AttrValue::CreateFrom(std::vector<int64_t>());
  }
}

// Attributes holding an ONNX element type, for ops whose registration does
// not declare them (they become DataType values).
bool IsDataTypeAttribute(absl::string_view op, absl::string_view attr) {
  static const std::pair<const char*, const char*> kAttrs[] = {
      {"Cast", "to"},
      {"EyeLike", "dtype"},
      {"RandomNormal", "dtype"},
      {"RandomUniform", "dtype"},
      {"RandomNormalLike", "dtype"},
      {"RandomUniformLike", "dtype"},
      {"Multinomial", "dtype"},
      {"Bernoulli", "dtype"},
      {"SequenceEmpty", "dtype"},
      {"BlackmanWindow", "output_datatype"},
      {"HannWindow", "output_datatype"},
      {"HammingWindow", "output_datatype"},
      {"MelWeightMatrix", "output_datatype"},
  };
  for (const auto& [o, a] : kAttrs) {
    if (op == o && attr == a) return true;
  }
  return false;
}

const TensorLoadContext& NoExternalData() {
  static const TensorLoadContext* ctx = new TensorLoadContext();
  return *ctx;
}

}  // namespace

bool IsAcceptedDomain(absl::string_view domain) {
  return domain.empty() || domain == kOnnxDomain || domain == kOnnxTrainingDomain;
}

std::string CanonicalDomain(absl::string_view domain) {
  return domain == kOnnxDomain ? std::string() : std::string(domain);
}

std::vector<std::string> BuiltinOnnxOpTypes(absl::string_view domain) {
  const std::string want = CanonicalDomain(domain);
  std::set<std::string> names;
  for (const onnx::OpSchema& s : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
    if (CanonicalDomain(s.domain()) == want) names.insert(s.Name());
  }
  return std::vector<std::string>(names.begin(), names.end());
}

StatusOr<AttrValue> ConvertOnnxAttribute(const AttributeProto& a, AttrValue::ValueType declared,
                                         absl::string_view what) {
  const AttributeProto::AttributeType type = EffectiveType(a);
  switch (type) {
    case AttributeProto::INT:
      return FromInt(a.i(), declared, what);
    case AttributeProto::FLOAT: {
      const float f = a.f();
      if (declared == AttrValue::VT_INT && std::isfinite(f) && std::floor(f) == f) {
        return AttrValue::CreateFrom<int64_t>(static_cast<int64_t>(f));
      }
      if (declared == AttrValue::VT_LIST_FLOAT) return AttrValue::CreateFrom(std::vector<float>{f});
      return AttrValue::CreateFrom<float>(f);
    }
    case AttributeProto::STRING:
      if (declared == AttrValue::VT_LIST_STRING) {
        return AttrValue::CreateFrom(std::vector<std::string>{a.s()});
      }
      return AttrValue::CreateFrom<std::string>(a.s());
    case AttributeProto::TENSOR: {
      ASSIGN_OR_RETURN(GeTensor t, TensorFromOnnx(a.t(), NoExternalData(), what));
      if (declared == AttrValue::VT_LIST_TENSOR) {
        return AttrValue::CreateFrom(std::vector<GeTensor>{std::move(t)});
      }
      return AttrValue::CreateFrom(std::move(t));
    }
    case AttributeProto::SPARSE_TENSOR: {
      ASSIGN_OR_RETURN(GeTensor t, SparseTensorFromOnnx(a.sparse_tensor(), NoExternalData(), what));
      return AttrValue::CreateFrom(std::move(t));
    }
    case AttributeProto::TYPE_PROTO: {
      ASSIGN_OR_RETURN(GeTensorDesc d, DescFromOnnxType(a.tp(), what));
      return AttrValue::CreateFrom(std::move(d));
    }
    case AttributeProto::INTS:
      if (a.ints_size() == 0) return EmptyList(declared, type);
      return FromInts(a, declared, what);
    case AttributeProto::FLOATS:
      if (a.floats_size() == 0) return EmptyList(declared, type);
      return AttrValue::CreateFrom(std::vector<float>(a.floats().begin(), a.floats().end()));
    case AttributeProto::STRINGS:
      if (a.strings_size() == 0) return EmptyList(declared, type);
      return AttrValue::CreateFrom(
          std::vector<std::string>(a.strings().begin(), a.strings().end()));
    case AttributeProto::TENSORS: {
      if (a.tensors_size() == 0) return EmptyList(declared, type);
      std::vector<GeTensor> out;
      for (int i = 0; i < a.tensors_size(); ++i) {
        ASSIGN_OR_RETURN(GeTensor t, TensorFromOnnx(a.tensors(i), NoExternalData(),
                                                    absl::StrCat(what, "[", i, "]")));
        out.push_back(std::move(t));
      }
      return AttrValue::CreateFrom(std::move(out));
    }
    case AttributeProto::SPARSE_TENSORS: {
      if (a.sparse_tensors_size() == 0) return EmptyList(declared, type);
      std::vector<GeTensor> out;
      for (int i = 0; i < a.sparse_tensors_size(); ++i) {
        ASSIGN_OR_RETURN(GeTensor t, SparseTensorFromOnnx(a.sparse_tensors(i), NoExternalData(),
                                                          absl::StrCat(what, "[", i, "]")));
        out.push_back(std::move(t));
      }
      return AttrValue::CreateFrom(std::move(out));
    }
    case AttributeProto::TYPE_PROTOS: {
      if (a.type_protos_size() == 0) return EmptyList(declared, type);
      std::vector<GeTensorDesc> out;
      for (int i = 0; i < a.type_protos_size(); ++i) {
        ASSIGN_OR_RETURN(GeTensorDesc d,
                         DescFromOnnxType(a.type_protos(i), absl::StrCat(what, "[", i, "]")));
        out.push_back(std::move(d));
      }
      return AttrValue::CreateFrom(std::move(out));
    }
    case AttributeProto::GRAPH:
    case AttributeProto::GRAPHS:
      return NotSupported(what, ": graph attributes are subgraphs, not attribute values");
    default:
      if (IsListType(declared)) return EmptyList(declared, type);
      return ParseFailed(what, ": attribute has no value");
  }
}

// A Constant's value_float / value_floats / value_int / value_ints as the
// 'value' tensor it stands for (float32 / int64; a scalar or 1-D), so that
// every numeric Constant carries a 'value' tensor like an initializer's Const.
// False when `a` is none of these attributes (value_string(s) stay as they
// are: the op library reads strings from value_strings).
StatusOr<bool> ConstantNumbersAsTensor(const AttributeProto& a, GeTensor* out) {
  const std::string& name = a.name();
  const AttributeProto::AttributeType type = EffectiveType(a);
  std::vector<int64_t> dims;
  if (name == "value_float" || name == "value_floats") {
    std::vector<float> v;
    if (name == "value_float") {
      if (type != AttributeProto::FLOAT) {
        return TypeMismatch("attribute '", name, "' must be a float, got attribute type ",
                            AttributeProto::AttributeType_Name(type));
      }
      v.push_back(a.f());
    } else {
      if (type != AttributeProto::FLOATS && type != AttributeProto::UNDEFINED) {
        return TypeMismatch("attribute '", name, "' must be a list of floats, got attribute type ",
                            AttributeProto::AttributeType_Name(type));
      }
      v.assign(a.floats().begin(), a.floats().end());
      dims.push_back(static_cast<int64_t>(v.size()));
    }
    *out = GeTensor(GeTensorDesc(GeShape(dims), FORMAT_ND, DT_FLOAT),
                    reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(float));
    return true;
  }
  if (name == "value_int" || name == "value_ints") {
    std::vector<int64_t> v;
    if (name == "value_int") {
      if (type != AttributeProto::INT) {
        return TypeMismatch("attribute '", name, "' must be an int, got attribute type ",
                            AttributeProto::AttributeType_Name(type));
      }
      v.push_back(a.i());
    } else {
      if (type != AttributeProto::INTS && type != AttributeProto::UNDEFINED) {
        return TypeMismatch("attribute '", name, "' must be a list of ints, got attribute type ",
                            AttributeProto::AttributeType_Name(type));
      }
      v.assign(a.ints().begin(), a.ints().end());
      dims.push_back(static_cast<int64_t>(v.size()));
    }
    *out = GeTensor(GeTensorDesc(GeShape(dims), FORMAT_ND, DT_INT64),
                    reinterpret_cast<const uint8_t*>(v.data()), v.size() * sizeof(int64_t));
    return true;
  }
  return false;
}

Status MapOnnxNodeAttributes(const onnx::NodeProto& node, OpDesc& op) {
  const OpRegistrationData* reg = OpRegistry::Instance().Find(op.GetType());
  const bool is_constant = node.op_type() == "Constant";
  for (const AttributeProto& a : node.attribute()) {
    const AttributeProto::AttributeType type = EffectiveType(a);
    if (type == AttributeProto::GRAPH || type == AttributeProto::GRAPHS) continue;
    if (!a.ref_attr_name().empty()) {
      return ParamInvalid("attribute '", a.name(), "' refers to function attribute '",
                          a.ref_attr_name(), "' outside a function body");
    }
    std::string name = a.name();
    if (is_constant && name == "sparse_value") name = "value";
    if (is_constant) {
      GeTensor numbers;
      StatusOr<bool> converted = ConstantNumbersAsTensor(a, &numbers);
      if (!converted.ok()) return converted.status();
      if (*converted) {
        RETURN_IF_ERROR(op.SetAttr("value", AttrValue::CreateFrom(std::move(numbers))));
        continue;
      }
    }
    const OpAttrDef* def = reg == nullptr ? nullptr : reg->FindAttr(name);
    AttrValue::ValueType declared = def == nullptr ? AttrValue::VT_NONE : def->type;
    if (declared == AttrValue::VT_NONE && IsDataTypeAttribute(node.op_type(), name)) {
      declared = AttrValue::VT_DATA_TYPE;
    }
    ASSIGN_OR_RETURN(AttrValue v,
                     ConvertOnnxAttribute(a, declared, absl::StrCat("attribute '", a.name(), "'")));
    RETURN_IF_ERROR(op.SetAttr(name, std::move(v)));
  }
  return OkStatus();
}

void EnsureOnnxMappingsRegistered() {
  static std::once_flag once;
  std::call_once(once, [] {
    FrameworkRegistry& registry = FrameworkRegistry::Instance();
    const AttrMappingFn fn = [](const void* node, OpDesc& op) -> Status {
      if (node == nullptr) return ParamInvalid("null ONNX node");
      return MapOnnxNodeAttributes(*static_cast<const onnx::NodeProto*>(node), op);
    };
    for (const char* domain : {"", kOnnxTrainingDomain}) {
      for (const std::string& type : BuiltinOnnxOpTypes(domain)) {
        FrameworkOpMapping m;
        m.framework = FrameworkType::ONNX;
        m.origin_type = type;
        m.domain = domain;
        m.op_type = type;
        m.attr_mapping = fn;
        m.source = "builtin ONNX parser";
        // AlreadyExists: a plugin mapped this type first; its mapping stays.
        registry.Register(std::move(m)).IgnoreError();
      }
    }
  });
}

}  // namespace onnx_parser
}  // namespace ge
