// graph/serialization/src/tensor_serialize_utils.cc
#include "graph/serialization/inc/tensor_serialize_utils.h"

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "graph/serialization/inc/attr_serializer.h"
#include "graph/serialization/inc/model_serialize_proto.h"
#include "graph/serialization/src/graph_codec.h"
#include "metadef/inc/external/graph/tensor_desc.h"
#include "metadef/inc/external/graph/type_utils.h"

namespace ge {
namespace {

// kDataTypeMap: ge::DataType <-> ge::proto::DataType (same names, different
// numbers).
#define GE_DT_PAIR(name) \
  { ::ge::name, ::ge::proto::name }
constexpr std::pair<DataType, proto::DataType> kDataTypeMap[] = {
    GE_DT_PAIR(DT_UNDEFINED),      GE_DT_PAIR(DT_FLOAT),       GE_DT_PAIR(DT_FLOAT16),
    GE_DT_PAIR(DT_INT8),           GE_DT_PAIR(DT_UINT8),       GE_DT_PAIR(DT_INT16),
    GE_DT_PAIR(DT_UINT16),         GE_DT_PAIR(DT_INT32),       GE_DT_PAIR(DT_INT64),
    GE_DT_PAIR(DT_UINT32),         GE_DT_PAIR(DT_UINT64),      GE_DT_PAIR(DT_BOOL),
    GE_DT_PAIR(DT_DOUBLE),         GE_DT_PAIR(DT_STRING),      GE_DT_PAIR(DT_DUAL_SUB_INT8),
    GE_DT_PAIR(DT_DUAL_SUB_UINT8), GE_DT_PAIR(DT_COMPLEX64),   GE_DT_PAIR(DT_COMPLEX128),
    GE_DT_PAIR(DT_QINT8),          GE_DT_PAIR(DT_QINT16),      GE_DT_PAIR(DT_QINT32),
    GE_DT_PAIR(DT_QUINT8),         GE_DT_PAIR(DT_QUINT16),     GE_DT_PAIR(DT_RESOURCE),
    GE_DT_PAIR(DT_STRING_REF),     GE_DT_PAIR(DT_DUAL),        GE_DT_PAIR(DT_VARIANT),
    GE_DT_PAIR(DT_BF16),           GE_DT_PAIR(DT_INT4),        GE_DT_PAIR(DT_UINT1),
    GE_DT_PAIR(DT_INT2),           GE_DT_PAIR(DT_UINT2),       GE_DT_PAIR(DT_COMPLEX32),
    GE_DT_PAIR(DT_HIFLOAT8),       GE_DT_PAIR(DT_FLOAT8_E5M2), GE_DT_PAIR(DT_FLOAT8_E4M3FN),
    GE_DT_PAIR(DT_FLOAT8_E8M0),    GE_DT_PAIR(DT_FLOAT6_E3M2), GE_DT_PAIR(DT_FLOAT6_E2M3),
    GE_DT_PAIR(DT_FLOAT4_E2M1),    GE_DT_PAIR(DT_FLOAT4_E1M2), GE_DT_PAIR(DT_UINT4),
    GE_DT_PAIR(DT_INT1),
};
#undef GE_DT_PAIR

constexpr int kProtoDataTypeCount = proto::DataType_ARRAYSIZE;

struct DataTypeTables {
  std::array<int32_t, DT_MAX> to_proto;
  std::array<int32_t, kProtoDataTypeCount> from_proto;
  DataTypeTables() {
    to_proto.fill(-1);
    from_proto.fill(-1);
    for (const auto& [ge_type, proto_type] : kDataTypeMap) {
      to_proto[static_cast<size_t>(ge_type)] = proto_type;
      from_proto[static_cast<size_t>(proto_type)] = ge_type;
    }
  }
};

const DataTypeTables& Tables() {
  static const DataTypeTables* const kTables = new DataTypeTables();
  return *kTables;
}

// Layout strings of the plain (unpacked) formats, and their inverse.
struct FormatTables {
  std::array<std::string, FORMAT_END> names;
  std::array<bool, FORMAT_END> ok{};
  absl::flat_hash_map<std::string, Format> by_name;
  FormatTables() {
    for (int32_t f = 0; f < FORMAT_END; ++f) {
      std::string name = TypeUtils::FormatToSerialString(f);
      StatusOr<Format> back = TypeUtils::SerialStringToFormat(name);
      if (back.ok() && *back == f) {
        ok[static_cast<size_t>(f)] = true;
        by_name.emplace(name, static_cast<Format>(f));
      }
      names[static_cast<size_t>(f)] = std::move(name);
    }
  }
};

const FormatTables& Formats() {
  static const FormatTables* const kTables = new FormatTables();
  return *kTables;
}

}  // namespace

StatusOr<proto::DataType> GeTensorSerializeUtils::DataTypeToProto(DataType data_type) {
  const auto v = static_cast<int32_t>(data_type);
  if (v < 0 || v >= DT_MAX || Tables().to_proto[static_cast<size_t>(v)] < 0) {
    return ParamInvalid("data type ", v, " is not a ge::DataType");
  }
  return static_cast<proto::DataType>(Tables().to_proto[static_cast<size_t>(v)]);
}

StatusOr<DataType> GeTensorSerializeUtils::DataTypeFromProto(int64_t proto_value) {
  if (proto_value < 0 || proto_value >= kProtoDataTypeCount ||
      Tables().from_proto[static_cast<size_t>(proto_value)] < 0) {
    return ParseFailed("data type ", proto_value, " is not a ge.proto.DataType");
  }
  return static_cast<DataType>(Tables().from_proto[static_cast<size_t>(proto_value)]);
}

StatusOr<std::string> GeTensorSerializeUtils::FormatToLayout(int32_t format) {
  if (format >= 0 && format < FORMAT_END) {
    if (Formats().ok[static_cast<size_t>(format)])
      return Formats().names[static_cast<size_t>(format)];
  } else {
    std::string name = TypeUtils::FormatToSerialString(format);
    StatusOr<Format> back = TypeUtils::SerialStringToFormat(name);
    if (back.ok() && *back == format) return name;
  }
  return ParamInvalid("format ", format, " (", TypeUtils::FormatToSerialString(format),
                      ") is not a valid packed format");
}

StatusOr<Format> GeTensorSerializeUtils::LayoutToFormat(absl::string_view layout) {
  const auto& by_name = Formats().by_name;
  auto it = by_name.find(layout);
  if (it != by_name.end()) return it->second;
  StatusOr<Format> f = TypeUtils::SerialStringToFormat(layout);
  if (!f.ok()) return ParseFailed("layout '", layout, "': ", f.status().message());
  // A name that parses must also print back (sub-format / C0 in range).
  if (!FormatToLayout(*f).ok()) return ParseFailed("layout '", layout, "' is not a valid format");
  return *f;
}

StatusOr<Format> GeTensorSerializeUtils::CheckedFormat(int64_t value) {
  if (value < std::numeric_limits<int32_t>::min() || value > std::numeric_limits<int32_t>::max() ||
      !IsSerializableFormat(static_cast<int32_t>(value))) {
    return ParseFailed("format value ", value, " is not a valid packed format");
  }
  return static_cast<Format>(value);
}

bool GeTensorSerializeUtils::IsSerializableFormat(int32_t format) {
  // Every plain format's layout string prints and parses back (the test
  // PlainFormatsRoundTrip checks each), so a decoder's check of a plain
  // format needs no table: building the name tables was ~0.2 ms of every OM
  // load, whose op descs are the first to ask.
  if (format >= 0 && format < FORMAT_END) return true;
  return FormatToLayout(format).ok();
}

Status GeTensorSerializeUtils::GeShapeAsProto(const GeShape& shape, proto::ShapeDef* def) {
  const absl::Span<const int64_t> dims = shape.GetDimsSpan();
  def->mutable_dim()->Reserve(static_cast<int>(dims.size()));
  for (int64_t d : dims) def->add_dim(d);
  return OkStatus();
}

Status GeTensorSerializeUtils::AssembleGeShapeFromProto(const proto::ShapeDef& def, GeShape* shape,
                                                        const DeserializeContext& ctx) {
  const int n = def.dim_size();
  if (n > ctx.options.max_dim_num) {
    return OutOfRange("shape has ", n, " dims, more than the limit of ", ctx.options.max_dim_num);
  }
  GeShape out;
  for (int i = 0; i < n; ++i) {
    const int64_t d = def.dim(i);
    if (d == UNKNOWN_RANK) {
      if (n != 1) {
        return ParamInvalid("dim ", i, " is -2 (unknown rank) in a shape of ", n,
                            " dims; -2 must be the only dim");
      }
    } else if (d < UNKNOWN_DIM) {
      return ParamInvalid("dim ", i, " is ", d, "; dims must be >= 0, -1 (unknown) or a sole -2");
    }
    out.AppendDim(d);
  }
  *shape = out;
  return OkStatus();
}

bool GeTensorSerializeUtils::HasExplicitRealDimCnt(const GeTensorDesc& desc) {
  return desc.HasRealDimCnt();
}

Status GeTensorSerializeUtils::GeTensorDescAsProto(const GeTensorDesc& desc,
                                                   proto::TensorDescriptor* def,
                                                   SerializeContext& ctx) {
  std::string bytes;
  RETURN_IF_ERROR(codec::EncodeTensorDesc(desc, ctx, &bytes));
  Status st = ModelSerializeImp::ParseBytes(bytes, def);
  if (!st.ok()) return Internal("the codec wrote an unparseable tensor descriptor: ", st.message());
  return OkStatus();
}

Status GeTensorSerializeUtils::AssembleGeTensorDescFromProto(const proto::TensorDescriptor& def,
                                                             GeTensorDesc* desc,
                                                             DeserializeContext& ctx) {
  ASSIGN_OR_RETURN(const std::string bytes, ModelSerializeImp::ToBytes(def));
  return codec::DecodeTensorDesc(bytes, ctx, desc);
}

Status GeTensorSerializeUtils::GeTensorAsProto(const GeTensor& tensor, proto::TensorDef* def,
                                               SerializeContext& ctx) {
  RETURN_IF_ERROR(GeTensorDescAsProto(tensor.GetTensorDesc(), def->mutable_desc(), ctx));
  if (!ctx.options.omit_tensor_data) {
    const absl::Span<const uint8_t> data = tensor.GetBytes();  // byte-wise: no aligned copy
    if (!data.empty()) def->set_data(data.data(), data.size());
  }
  return OkStatus();
}

Status GeTensorSerializeUtils::AssembleGeTensorFromProto(const proto::TensorDef& def,
                                                         GeTensor* tensor,
                                                         DeserializeContext& ctx) {
  GeTensorDesc desc;
  RETURN_IF_ERROR(AssembleGeTensorDescFromProto(def.desc(), &desc, ctx));
  if (def.data().empty()) {
    *tensor = GeTensor(desc);
  } else {
    *tensor =
        GeTensor(desc, reinterpret_cast<const uint8_t*>(def.data().data()), def.data().size());
  }
  return OkStatus();
}

}  // namespace ge
