// compiler/parser/onnx/onnx_test_util.cc
#include "compiler/parser/onnx/onnx_test_util.h"

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/parser/onnx/onnx_tensor.h"
#include "graph/inc/graph/ge_tensor.h"
#include "ops/common/op_util.h"

namespace ge {
namespace onnx_test {
namespace {

std::string DtName(DataType dt) {
  StatusOr<int32_t> t = onnx_parser::DataTypeToOnnx(dt);
  if (dt == DT_VARIANT) return "variant";
  return t.ok() ? onnx_parser::OnnxElemTypeName(*t) : absl::StrCat("DataType(", dt, ")");
}

bool Close(double a, double e, double rtol, double atol) {
  if (std::isnan(e)) return std::isnan(a);
  if (std::isinf(e)) return a == e;
  if (std::isnan(a) || std::isinf(a)) return false;
  return std::fabs(a - e) <= atol + rtol * std::fabs(e);
}

// Element i of a floating tensor as double.
double FloatAt(const gert::Tensor& t, int64_t i) {
  switch (t.GetDataType()) {
    case DT_FLOAT:
      return t.GetData<float>()[i];
    case DT_DOUBLE:
      return t.GetData<double>()[i];
    case DT_FLOAT16:
      return ops::Fp16ToFloat(t.GetData<uint16_t>()[i]);
    case DT_BF16:
      return ops::Bf16ToFloat(t.GetData<uint16_t>()[i]);
    case DT_COMPLEX64:
      return t.GetData<float>()[i];
    case DT_COMPLEX128:
      return t.GetData<double>()[i];
    default:
      return 0;
  }
}

std::string ValueString(const gert::Tensor& t, int64_t i) {
  switch (t.GetDataType()) {
    case DT_FLOAT:
    case DT_DOUBLE:
    case DT_FLOAT16:
    case DT_BF16:
    case DT_COMPLEX64:
    case DT_COMPLEX128:
      return absl::StrCat(FloatAt(t, i));
    case DT_BOOL:
      return t.GetData<bool>()[i] ? "true" : "false";
    case DT_INT8:
      return absl::StrCat(t.GetData<int8_t>()[i]);
    case DT_UINT8:
      return absl::StrCat(t.GetData<uint8_t>()[i]);
    case DT_INT16:
      return absl::StrCat(t.GetData<int16_t>()[i]);
    case DT_UINT16:
      return absl::StrCat(t.GetData<uint16_t>()[i]);
    case DT_INT32:
      return absl::StrCat(t.GetData<int32_t>()[i]);
    case DT_UINT32:
      return absl::StrCat(t.GetData<uint32_t>()[i]);
    case DT_INT64:
      return absl::StrCat(t.GetData<int64_t>()[i]);
    case DT_UINT64:
      return absl::StrCat(t.GetData<uint64_t>()[i]);
    case DT_STRING:
      return absl::StrCat("\"", t.GetData<std::string>()[i], "\"");
    default:
      return "?";
  }
}

}  // namespace

StatusOr<gert::HostTensor> HostTensorFromOnnx(const onnx::TensorProto& t) {
  ASSIGN_OR_RETURN(GeTensor g,
                   onnx_parser::TensorFromOnnx(t, onnx_parser::TensorLoadContext(),
                                               absl::StrCat("tensor '", t.name(), "'")));
  const GeTensorDesc& desc = g.GetTensorDesc();
  ASSIGN_OR_RETURN(gert::Shape shape, gert::Shape::FromDims(desc.GetShape().GetDimsSpan()));
  if (desc.GetDataType() == DT_STRING) {
    ASSIGN_OR_RETURN(std::vector<std::string> strings,
                     onnx_parser::DecodeStringTensorData(g.GetData(), shape.GetShapeSize()));
    ASSIGN_OR_RETURN(gert::HostTensor h, gert::HostTensor::Create(DT_STRING, shape));
    for (size_t i = 0; i < strings.size(); ++i) h.MutableData<std::string>()[i] = strings[i];
    return h;
  }
  const absl::Span<const uint8_t> data = g.GetData();
  if (data.empty()) return gert::HostTensor::Create(desc.GetDataType(), shape);
  return gert::HostTensor::CreateFrom(desc.GetDataType(), shape, data.data(), data.size());
}

StatusOr<gert::HostTensor> HostTensorFromSequence(const onnx::SequenceProto& s) {
  std::vector<gert::HostTensor> elems;
  switch (s.elem_type()) {
    case onnx::SequenceProto::TENSOR:
      for (const onnx::TensorProto& t : s.tensor_values()) {
        ASSIGN_OR_RETURN(gert::HostTensor h, HostTensorFromOnnx(t));
        elems.push_back(std::move(h));
      }
      break;
    case onnx::SequenceProto::SEQUENCE:
      for (const onnx::SequenceProto& sub : s.sequence_values()) {
        ASSIGN_OR_RETURN(gert::HostTensor h, HostTensorFromSequence(sub));
        elems.push_back(std::move(h));
      }
      break;
    case onnx::SequenceProto::OPTIONAL:
      for (const onnx::OptionalProto& sub : s.optional_values()) {
        ASSIGN_OR_RETURN(gert::HostTensor h, HostTensorFromOptional(sub));
        elems.push_back(std::move(h));
      }
      break;
    case onnx::SequenceProto::UNDEFINED:
      break;
    default:
      return NotSupported("sequence '", s.name(), "': element type ", s.elem_type(),
                          " is not supported");
  }
  if (elems.empty()) return gert::HostTensor::CreateEmptyOptional();
  return gert::HostTensor::CreateSequence(std::move(elems));
}

StatusOr<gert::HostTensor> HostTensorFromOptional(const onnx::OptionalProto& o) {
  switch (o.elem_type()) {
    case onnx::OptionalProto::TENSOR: {
      ASSIGN_OR_RETURN(gert::HostTensor h, HostTensorFromOnnx(o.tensor_value()));
      return gert::HostTensor::CreateOptional(std::move(h));
    }
    case onnx::OptionalProto::SEQUENCE: {
      ASSIGN_OR_RETURN(gert::HostTensor h, HostTensorFromSequence(o.sequence_value()));
      return gert::HostTensor::CreateOptional(std::move(h));
    }
    case onnx::OptionalProto::UNDEFINED:
      return gert::HostTensor::CreateEmptyOptional();
    default:
      return NotSupported("optional '", o.name(), "': element type ", o.elem_type(),
                          " is not supported");
  }
}

StatusOr<gert::HostTensor> HostValueFromOnnxBytes(const onnx::TypeProto& type,
                                                  absl::string_view bytes) {
  const int size = static_cast<int>(bytes.size());
  if (type.has_sequence_type()) {
    onnx::SequenceProto s;
    if (!s.ParseFromArray(bytes.data(), size)) return ParseFailed("not a SequenceProto");
    return HostTensorFromSequence(s);
  }
  if (type.has_optional_type()) {
    onnx::OptionalProto o;
    if (!o.ParseFromArray(bytes.data(), size)) return ParseFailed("not an OptionalProto");
    return HostTensorFromOptional(o);
  }
  onnx::TensorProto t;
  if (!t.ParseFromArray(bytes.data(), size)) return ParseFailed("not a TensorProto");
  // The ONNX test generator stores bfloat16 values as uint16 (numpy has no
  // bfloat16): take the declared type.
  if (type.has_tensor_type() && type.tensor_type().elem_type() == onnx::TensorProto::BFLOAT16 &&
      t.data_type() == onnx::TensorProto::UINT16) {
    t.set_data_type(onnx::TensorProto::BFLOAT16);
  }
  return HostTensorFromOnnx(t);
}

Status CompareHostTensors(const gert::Tensor& actual, const gert::Tensor& expected, double rtol,
                          double atol, const std::string& path) {
  const DataType dt = expected.GetDataType();
  if (dt == DT_VARIANT) {
    if (actual.GetDataType() != DT_VARIANT) {
      return Failed(path, ": expected a sequence / optional, got ", DtName(actual.GetDataType()),
                    " ", actual.GetShape().ToString());
    }
    ASSIGN_OR_RETURN(absl::Span<const gert::HostTensor> e, gert::VariantElements(expected));
    ASSIGN_OR_RETURN(absl::Span<const gert::HostTensor> a, gert::VariantElements(actual));
    if (a.size() != e.size()) {
      return Failed(path, ": expected ", e.size(), " elements, got ", a.size());
    }
    for (size_t i = 0; i < e.size(); ++i) {
      RETURN_IF_ERROR(CompareHostTensors(a[i].tensor(), e[i].tensor(), rtol, atol,
                                         absl::StrCat(path, "[", i, "]")));
    }
    return OkStatus();
  }
  if (actual.GetDataType() != dt) {
    return Failed(path, ": expected ", DtName(dt), ", got ", DtName(actual.GetDataType()));
  }
  if (actual.GetShape() != expected.GetShape()) {
    return Failed(path, ": expected shape ", expected.GetShape().ToString(), ", got ",
                  actual.GetShape().ToString());
  }
  int64_t n = expected.GetShapeSize();
  if (n <= 0) return OkStatus();
  const bool complex = dt == DT_COMPLEX64 || dt == DT_COMPLEX128;
  const bool floating =
      complex || dt == DT_FLOAT || dt == DT_DOUBLE || dt == DT_FLOAT16 || dt == DT_BF16;
  if (complex) n *= 2;
  if (actual.GetAddr() == nullptr || expected.GetAddr() == nullptr) {
    return Failed(path, ": tensor without data");
  }
  for (int64_t i = 0; i < n; ++i) {
    bool same;
    if (floating) {
      same = Close(FloatAt(actual, i), FloatAt(expected, i), rtol, atol);
    } else if (dt == DT_STRING) {
      same = actual.GetData<std::string>()[i] == expected.GetData<std::string>()[i];
    } else if (dt == DT_BOOL) {
      same = actual.GetData<bool>()[i] == expected.GetData<bool>()[i];
    } else {
      StatusOr<size_t> esize = gert::HostStorageBytes(dt, 1);
      if (!esize.ok()) return esize.status();
      same = std::memcmp(static_cast<const uint8_t*>(actual.GetAddr()) + i * *esize,
                         static_cast<const uint8_t*>(expected.GetAddr()) + i * *esize, *esize) == 0;
    }
    if (!same) {
      const int64_t shown = complex ? i / 2 : i;
      return Failed(path, ": element ", shown, complex ? (i % 2 ? " (imag)" : " (real)") : "",
                    " expected ", ValueString(expected, i), ", got ", ValueString(actual, i), " (",
                    DtName(dt), " ", expected.GetShape().ToString(), ")");
    }
  }
  return OkStatus();
}

StatusOr<std::string> ReadFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("cannot open '", path, "'");
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

namespace {
template <typename T>
gert::HostTensor MakeHost(DataType dt, const std::vector<int64_t>& dims, const std::vector<T>& v) {
  StatusOr<gert::Shape> shape = gert::Shape::FromDims(dims);
  StatusOr<gert::HostTensor> t = shape.ok() ? gert::HostTensor::Create(dt, *shape)
                                            : StatusOr<gert::HostTensor>(shape.status());
  if (!t.ok() || static_cast<int64_t>(v.size()) != t->GetShape().GetShapeSize()) {
    std::fprintf(stderr, "MakeHost: bad test tensor\n");
    std::abort();
  }
  for (size_t i = 0; i < v.size(); ++i) t->MutableData<T>()[i] = v[i];
  return std::move(t).value();
}
}  // namespace

gert::HostTensor FloatHost(const std::vector<int64_t>& dims, const std::vector<float>& values) {
  return MakeHost<float>(DT_FLOAT, dims, values);
}

gert::HostTensor Int64Host(const std::vector<int64_t>& dims, const std::vector<int64_t>& values) {
  return MakeHost<int64_t>(DT_INT64, dims, values);
}

gert::HostTensor BoolHost(const std::vector<int64_t>& dims, const std::vector<bool>& values) {
  std::vector<char> v(values.begin(), values.end());
  StatusOr<gert::Shape> shape = gert::Shape::FromDims(dims);
  StatusOr<gert::HostTensor> t = gert::HostTensor::Create(DT_BOOL, *shape);
  if (!t.ok() || static_cast<int64_t>(v.size()) != t->GetShape().GetShapeSize()) std::abort();
  for (size_t i = 0; i < v.size(); ++i) t->MutableData<bool>()[i] = v[i] != 0;
  return std::move(t).value();
}

std::vector<float> FloatsOf(const gert::HostTensor& t) {
  if (t.GetDataType() != DT_FLOAT) return {};
  const int64_t n = t.GetShape().GetShapeSize();
  return std::vector<float>(t.GetData<float>(), t.GetData<float>() + (n > 0 ? n : 0));
}

std::vector<int64_t> Int64sOf(const gert::HostTensor& t) {
  if (t.GetDataType() != DT_INT64) return {};
  const int64_t n = t.GetShape().GetShapeSize();
  return std::vector<int64_t>(t.GetData<int64_t>(), t.GetData<int64_t>() + (n > 0 ? n : 0));
}

onnx::ValueInfoProto TensorValueInfo(const std::string& name, int32_t elem_type,
                                     const std::vector<int64_t>& dims) {
  onnx::ValueInfoProto vi;
  vi.set_name(name);
  auto* tt = vi.mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elem_type);
  auto* shape = tt->mutable_shape();
  for (int64_t d : dims) {
    if (d >= 0) {
      shape->add_dim()->set_dim_value(d);
    } else {
      shape->add_dim();
    }
  }
  return vi;
}

onnx::TensorProto FloatTensor(const std::string& name, const std::vector<int64_t>& dims,
                              const std::vector<float>& values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::FLOAT);
  for (int64_t d : dims) t.add_dims(d);
  for (float v : values) t.add_float_data(v);
  return t;
}

onnx::TensorProto Int64Tensor(const std::string& name, const std::vector<int64_t>& dims,
                              const std::vector<int64_t>& values) {
  onnx::TensorProto t;
  t.set_name(name);
  t.set_data_type(onnx::TensorProto::INT64);
  for (int64_t d : dims) t.add_dims(d);
  for (int64_t v : values) t.add_int64_data(v);
  return t;
}

onnx::NodeProto MakeNode(const std::string& op_type, const std::vector<std::string>& inputs,
                         const std::vector<std::string>& outputs, const std::string& name) {
  onnx::NodeProto n;
  n.set_op_type(op_type);
  n.set_name(name);
  for (const std::string& i : inputs) n.add_input(i);
  for (const std::string& o : outputs) n.add_output(o);
  return n;
}

void AddIntAttr(onnx::NodeProto* n, const std::string& name, int64_t v) {
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

void AddIntsAttr(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v) {
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INTS);
  for (int64_t x : v) a->add_ints(x);
}

void AddFloatAttr(onnx::NodeProto* n, const std::string& name, float v) {
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(v);
}

void AddStringAttr(onnx::NodeProto* n, const std::string& name, const std::string& v) {
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s(v);
}

void AddGraphAttr(onnx::NodeProto* n, const std::string& name, const onnx::GraphProto& g) {
  onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::GRAPH);
  *a->mutable_g() = g;
}

onnx::ModelProto MakeModel(const onnx::GraphProto& graph, int64_t opset) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("ge_onnx_test");
  onnx::OperatorSetIdProto* o = m.add_opset_import();
  o->set_domain("");
  o->set_version(opset);
  *m.mutable_graph() = graph;
  return m;
}

std::string Serialize(const onnx::ModelProto& model) {
  std::string s;
  model.SerializeToString(&s);
  return s;
}

}  // namespace onnx_test
}  // namespace ge
