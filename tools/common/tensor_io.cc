// Implementation of tools/common/tensor_io.h.
#include "tools/common/tensor_io.h"

#include <complex>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/parser/onnx/onnx_tensor.h"
#include "graph/inc/graph/ge_tensor.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace tools {
namespace {

constexpr char kNpyMagic[] = "\x93NUMPY";
constexpr size_t kNpyMagicLen = 6;

struct NpyType {
  const char* code;  // without byte order
  DataType dtype;
};
constexpr NpyType kNpyTypes[] = {
    {"b1", DT_BOOL},      {"i1", DT_INT8},        {"i2", DT_INT16},  {"i4", DT_INT32},
    {"i8", DT_INT64},     {"u1", DT_UINT8},       {"u2", DT_UINT16}, {"u4", DT_UINT32},
    {"u8", DT_UINT64},    {"f2", DT_FLOAT16},     {"f4", DT_FLOAT},  {"f8", DT_DOUBLE},
    {"c8", DT_COMPLEX64}, {"c16", DT_COMPLEX128},
};

uint32_t ReadLe(const unsigned char* p, int n) {
  uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// The value text of `key` in the header dict ("'<f4'", "False", "(1, 3)").
StatusOr<std::string> DictValue(absl::string_view header, absl::string_view key,
                                absl::string_view what) {
  const std::string quoted1 = absl::StrCat("'", key, "'");
  const std::string quoted2 = absl::StrCat("\"", key, "\"");
  size_t pos = header.find(quoted1);
  size_t len = quoted1.size();
  if (pos == absl::string_view::npos) {
    pos = header.find(quoted2);
    len = quoted2.size();
  }
  if (pos == absl::string_view::npos) {
    return ParseFailed(what, ": .npy header has no '", key, "' entry: ", header);
  }
  size_t p = header.find(':', pos + len);
  if (p == absl::string_view::npos) return ParseFailed(what, ": .npy header entry '", key, "'");
  ++p;
  while (p < header.size() && header[p] == ' ') ++p;
  size_t end = p;
  if (p < header.size() && header[p] == '(') {
    end = header.find(')', p);
    if (end == absl::string_view::npos) {
      return ParseFailed(what, ": .npy header: unterminated '", key, "' tuple");
    }
    ++end;
  } else if (p < header.size() && (header[p] == '\'' || header[p] == '"')) {
    end = header.find(header[p], p + 1);
    if (end == absl::string_view::npos) {
      return ParseFailed(what, ": .npy header: unterminated '", key, "' string");
    }
    ++end;
  } else {
    while (end < header.size() && header[end] != ',' && header[end] != '}') ++end;
  }
  return std::string(absl::StripAsciiWhitespace(header.substr(p, end - p)));
}

uint16_t FloatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (((x >> 23) & 0xff) == 0xff)
    return static_cast<uint16_t>(sign | 0x7c00u | (mant ? 0x200u : 0));
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  if (exp <= 0) {
    if (exp < -10) return static_cast<uint16_t>(sign);
    mant |= 0x800000u;
    const uint32_t shift = static_cast<uint32_t>(14 - exp);
    uint32_t h = mant >> shift;
    if ((mant >> (shift - 1)) & 1u) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  if (mant & 0x1000u) ++h;
  return static_cast<uint16_t>(h);
}

float HalfToFloat(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else {
      exp = 127 - 15 + 1;
      while ((mant & 0x400u) == 0) {
        mant <<= 1;
        --exp;
      }
      mant &= 0x3ffu;
      bits = sign | (exp << 23) | (mant << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

}  // namespace

StatusOr<gert::HostTensor> ParseNpy(absl::string_view bytes, absl::string_view what) {
  if (bytes.size() < kNpyMagicLen + 2 || bytes.substr(0, kNpyMagicLen) != kNpyMagic) {
    return ParseFailed(what, ": not a .npy file (bad magic)");
  }
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const int major = p[6];
  size_t header_len_bytes = 0;
  if (major == 1) {
    header_len_bytes = 2;
  } else if (major == 2 || major == 3) {
    header_len_bytes = 4;
  } else {
    return NotSupported(what, ": .npy format version ", major, ".", static_cast<int>(p[7]),
                        " (supported: 1.0, 2.0, 3.0)");
  }
  if (bytes.size() < 8 + header_len_bytes) return ParseFailed(what, ": truncated .npy header");
  const uint64_t header_len = ReadLe(p + 8, static_cast<int>(header_len_bytes));
  const uint64_t data_start = 8 + header_len_bytes + header_len;
  if (data_start > bytes.size()) {
    return ParseFailed(what, ": .npy header length ", header_len, " exceeds the file size ",
                       bytes.size());
  }
  absl::string_view header = bytes.substr(8 + header_len_bytes, header_len);

  ASSIGN_OR_RETURN(std::string descr, DictValue(header, "descr", what));
  ASSIGN_OR_RETURN(std::string fortran, DictValue(header, "fortran_order", what));
  ASSIGN_OR_RETURN(std::string shape_text, DictValue(header, "shape", what));
  if (descr.size() < 3 || (descr.front() != '\'' && descr.front() != '"')) {
    return ParseFailed(what, ": .npy descr ", descr, " is not a simple type string");
  }
  descr = descr.substr(1, descr.size() - 2);
  if (fortran != "False") {
    return NotSupported(what, ": .npy fortran_order=", fortran, " (only C order is supported)");
  }
  const char order = descr[0];
  std::string code = descr.substr(1);
  if (order != '<' && order != '|' && order != '=' && order != '>') {
    return ParseFailed(what, ": .npy descr '", descr, "' has no byte-order character");
  }
  DataType dtype = DT_UNDEFINED;
  for (const NpyType& t : kNpyTypes) {
    if (code == t.code) dtype = t.dtype;
  }
  if (code == "?") dtype = DT_BOOL;
  if (dtype == DT_UNDEFINED) {
    return NotSupported(what, ": .npy dtype '", descr, "' is not supported");
  }
  ASSIGN_OR_RETURN(int64_t item, TypeUtils::GetDataTypeLength(dtype));
  if (order == '>' && item > 1) {
    return NotSupported(what, ": .npy dtype '", descr, "' is big-endian");
  }

  // Shape "(1, 3, 32, 32)", "(5,)", "()".
  if (shape_text.size() < 2 || shape_text.front() != '(' || shape_text.back() != ')') {
    return ParseFailed(what, ": .npy shape ", shape_text, " is not a tuple");
  }
  std::vector<int64_t> dims;
  for (absl::string_view d :
       absl::StrSplit(shape_text.substr(1, shape_text.size() - 2), ',', absl::SkipWhitespace())) {
    int64_t v = 0;
    if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(d), &v) || v < 0) {
      return ParseFailed(what, ": .npy shape ", shape_text, " has a bad dim '", d, "'");
    }
    dims.push_back(v);
  }
  auto shape = gert::Shape::FromDims(dims);
  if (!shape.ok()) return Annotate(shape.status(), what, ": .npy shape ", shape_text, ": ");
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d != 0 && count > std::numeric_limits<int64_t>::max() / d) {
      return Overflow(what, ": .npy shape ", shape_text, " overflows");
    }
    count *= d;
  }
  if (count > std::numeric_limits<int64_t>::max() / item) {
    return Overflow(what, ": .npy shape ", shape_text, " overflows");
  }
  const uint64_t need = static_cast<uint64_t>(count * item);
  const uint64_t have = bytes.size() - data_start;
  if (need != have) {
    return ParseFailed(what, ": .npy shape ", shape_text, " dtype '", descr, "' needs ", need,
                       " data bytes, the file has ", have);
  }
  auto t = gert::HostTensor::CreateFrom(dtype, *shape, bytes.data() + data_start, need);
  if (!t.ok()) return Annotate(t.status(), what, ": ");
  if (dtype == DT_BOOL) {
    bool* b = t->MutableData<bool>();
    const auto* raw = p + data_start;
    for (int64_t i = 0; i < count; ++i) b[i] = raw[i] != 0;
  }
  return std::move(*t);
}

StatusOr<std::string> TensorToNpy(const gert::Tensor& tensor) {
  const char* code = nullptr;
  for (const NpyType& t : kNpyTypes) {
    if (t.dtype == tensor.GetDataType()) code = t.code;
  }
  if (code == nullptr) {
    return NotSupported("data type ", TypeUtils::DataTypeToSerialString(tensor.GetDataType()),
                        " has no NumPy counterpart");
  }
  std::vector<std::string> dims;
  for (int64_t d : tensor.GetShape().GetDims()) dims.push_back(absl::StrCat(d));
  std::string shape = absl::StrCat("(", absl::StrJoin(dims, ", "), dims.size() == 1 ? ",)" : ")");
  const char order =
      (std::strcmp(code, "b1") == 0 || std::strcmp(code, "i1") == 0 || std::strcmp(code, "u1") == 0)
          ? '|'
          : '<';
  std::string header = absl::StrCat("{'descr': '", std::string(1, order), code,
                                    "', 'fortran_order': False, 'shape': ", shape, ", }");
  // Pad so that the data starts at a multiple of 64; ends with '\n'.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::string out(kNpyMagic, kNpyMagicLen);
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>((header.size() >> 8) & 0xff);
  out += header;
  ASSIGN_OR_RETURN(int64_t bytes, TypeUtils::GetSizeInBytes(tensor.GetDataType(),
                                                            tensor.GetShapeSize()));
  if (static_cast<uint64_t>(bytes) > tensor.GetSize()) {
    return ParamInvalid("tensor data (", tensor.GetSize(), " bytes) does not cover its shape ",
                        tensor.GetShape().ToString());
  }
  out.append(static_cast<const char*>(tensor.GetAddr()), static_cast<size_t>(bytes));
  return out;
}

StatusOr<gert::HostTensor> ParseOnnxTensor(absl::string_view bytes, absl::string_view what) {
  onnx::TensorProto proto;
  if (!proto.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return ParseFailed(what, ": not an ONNX TensorProto");
  }
  onnx_parser::TensorLoadContext ctx;  // no model dir: external data is an error
  ASSIGN_OR_RETURN(GeTensor ge_tensor, onnx_parser::TensorFromOnnx(proto, ctx, what));
  const GeTensorDesc& desc = ge_tensor.GetTensorDesc();
  auto shape = gert::Shape::FromDims(desc.GetShape().GetDims());
  if (!shape.ok()) return Annotate(shape.status(), what, ": ");
  const DataType dtype = desc.GetDataType();
  absl::Span<const uint8_t> data = ge_tensor.GetData();
  if (dtype == DT_STRING) {
    ASSIGN_OR_RETURN(gert::HostTensor t, gert::HostTensor::Create(dtype, *shape));
    ASSIGN_OR_RETURN(std::vector<std::string> strings,
                     onnx_parser::DecodeStringTensorData(data, shape->GetShapeSize()));
    std::string* out = t.MutableData<std::string>();
    for (size_t i = 0; i < strings.size(); ++i) out[i] = std::move(strings[i]);
    return t;
  }
  auto t = gert::HostTensor::CreateFrom(dtype, *shape, data.data(), data.size());
  if (!t.ok()) return Annotate(t.status(), what, ": ");
  return std::move(*t);
}

StatusOr<std::string> TensorToOnnxBytes(const gert::Tensor& tensor, const std::string& name) {
  auto elem = onnx_parser::DataTypeToOnnx(tensor.GetDataType());
  if (!elem.ok()) return Annotate(elem.status(), "tensor '", name, "': ");
  onnx::TensorProto proto;
  proto.set_name(name);
  proto.set_data_type(*elem);
  for (int64_t d : tensor.GetShape().GetDims()) proto.add_dims(d);
  const int64_t count = tensor.GetShapeSize();
  if (tensor.GetDataType() == DT_STRING) {
    const auto* s = tensor.GetData<std::string>();
    for (int64_t i = 0; i < count; ++i) proto.add_string_data(s[i]);
  } else if (tensor.GetDataType() == DT_VARIANT) {
    return NotSupported("tensor '", name, "': sequence / optional values cannot be written");
  } else {
    ASSIGN_OR_RETURN(int64_t bytes, TypeUtils::GetSizeInBytes(tensor.GetDataType(), count));
    if (static_cast<uint64_t>(bytes) > tensor.GetSize()) {
      return ParamInvalid("tensor '", name, "': data (", tensor.GetSize(),
                          " bytes) does not cover its shape ", tensor.GetShape().ToString());
    }
    proto.set_raw_data(static_cast<const char*>(tensor.GetAddr()), static_cast<size_t>(bytes));
  }
  std::string out;
  if (!proto.SerializeToString(&out)) return Internal("tensor '", name, "': serialization failed");
  return out;
}

StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return NotFound("cannot open '", path, "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return IoError("cannot read '", path, "'");
  return ss.str();
}

Status WriteFile(const std::string& path, absl::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return IoError("cannot create '", path, "'");
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return IoError("cannot write '", path, "'");
  return OkStatus();
}

StatusOr<gert::HostTensor> ReadTensorFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
  if (bytes.size() >= kNpyMagicLen && absl::string_view(bytes).substr(0, kNpyMagicLen) ==
                                          absl::string_view(kNpyMagic, kNpyMagicLen)) {
    return ParseNpy(bytes, path);
  }
  return ParseOnnxTensor(bytes, path);
}

StatusOr<gert::HostTensor> MakeDeterministicTensor(DataType dtype, const std::vector<int64_t>& dims,
                                                   uint64_t seed) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      return ParamInvalid("cannot generate an input with unknown dim ", i, " (shape [",
                          absl::StrJoin(dims, ","), "]); pass --input");
    }
  }
  ASSIGN_OR_RETURN(gert::Shape shape, gert::Shape::FromDims(dims));
  if (dtype == DT_STRING || dtype == DT_VARIANT) {
    return NotSupported("cannot generate ", TypeUtils::DataTypeToSerialString(dtype),
                        " inputs; pass --input");
  }
  ASSIGN_OR_RETURN(gert::HostTensor t, gert::HostTensor::Create(dtype, shape));
  const int64_t n = shape.GetShapeSize();
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull;
  auto next = [&state]() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  auto unit = [&]() { return static_cast<double>(next() >> 11) / 9007199254740992.0 * 2 - 1; };
  auto small = [&]() { return static_cast<int64_t>(next() % 10); };
  for (int64_t i = 0; i < n; ++i) {
    switch (dtype) {
      case DT_FLOAT:
        t.MutableData<float>()[i] = static_cast<float>(unit());
        break;
      case DT_DOUBLE:
        t.MutableData<double>()[i] = unit();
        break;
      case DT_FLOAT16:
        t.MutableData<uint16_t>()[i] = FloatToHalf(static_cast<float>(unit()));
        break;
      case DT_BF16: {
        const float f = static_cast<float>(unit());
        uint32_t bits;
        std::memcpy(&bits, &f, 4);
        t.MutableData<uint16_t>()[i] = static_cast<uint16_t>(bits >> 16);
        break;
      }
      case DT_BOOL:
        t.MutableData<bool>()[i] = (i % 2) == 0;
        break;
      case DT_INT8:
        t.MutableData<int8_t>()[i] = static_cast<int8_t>(small());
        break;
      case DT_UINT8:
        t.MutableData<uint8_t>()[i] = static_cast<uint8_t>(small());
        break;
      case DT_INT16:
        t.MutableData<int16_t>()[i] = static_cast<int16_t>(small());
        break;
      case DT_UINT16:
        t.MutableData<uint16_t>()[i] = static_cast<uint16_t>(small());
        break;
      case DT_INT32:
        t.MutableData<int32_t>()[i] = static_cast<int32_t>(small());
        break;
      case DT_UINT32:
        t.MutableData<uint32_t>()[i] = static_cast<uint32_t>(small());
        break;
      case DT_INT64:
        t.MutableData<int64_t>()[i] = small();
        break;
      case DT_UINT64:
        t.MutableData<uint64_t>()[i] = static_cast<uint64_t>(small());
        break;
      case DT_COMPLEX64:
        t.MutableData<std::complex<float>>()[i] =
            std::complex<float>(static_cast<float>(unit()), static_cast<float>(unit()));
        break;
      case DT_COMPLEX128:
        t.MutableData<std::complex<double>>()[i] = std::complex<double>(unit(), unit());
        break;
      default:
        return NotSupported("cannot generate ", TypeUtils::DataTypeToSerialString(dtype),
                            " inputs; pass --input");
    }
  }
  return t;
}

double ElementAsDouble(const gert::Tensor& tensor, int64_t i) {
  switch (tensor.GetDataType()) {
    case DT_FLOAT:
      return tensor.GetData<float>()[i];
    case DT_DOUBLE:
      return tensor.GetData<double>()[i];
    case DT_FLOAT16:
      return HalfToFloat(tensor.GetData<uint16_t>()[i]);
    case DT_BF16: {
      const uint32_t bits = static_cast<uint32_t>(tensor.GetData<uint16_t>()[i]) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      return f;
    }
    case DT_BOOL:
      return tensor.GetData<bool>()[i] ? 1 : 0;
    case DT_INT8:
      return tensor.GetData<int8_t>()[i];
    case DT_UINT8:
      return tensor.GetData<uint8_t>()[i];
    case DT_INT16:
      return tensor.GetData<int16_t>()[i];
    case DT_UINT16:
      return tensor.GetData<uint16_t>()[i];
    case DT_INT32:
      return tensor.GetData<int32_t>()[i];
    case DT_UINT32:
      return tensor.GetData<uint32_t>()[i];
    case DT_INT64:
      return static_cast<double>(tensor.GetData<int64_t>()[i]);
    case DT_UINT64:
      return static_cast<double>(tensor.GetData<uint64_t>()[i]);
    default:
      return 0;
  }
}

}  // namespace tools
}  // namespace ge
