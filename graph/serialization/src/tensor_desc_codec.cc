// graph/serialization/src/tensor_desc_codec.cc
#include "graph/serialization/src/tensor_desc_codec.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "graph/serialization/inc/tensor_serialize_utils.h"
#include "graph/serialization/src/attr_codec.h"
#include "graph/serialization/src/graph_codec.h"

namespace ge {
namespace codec {
namespace {

constexpr absl::string_view kDeviceCpu = "CPU";
constexpr absl::string_view kDeviceNpu = "NPU";

void EncodeShape(const GeShape& shape, uint32_t field, WireWriter& w) {
  const size_t m = w.BeginMessage(field);
  w.PackedInt64<int64_t>(proto::ShapeDef::kDimFieldNumber, shape.GetDimsSpan());
  w.EndMessage(m);
}

void EncodeRange(const GeTensorDesc::ShapeRange& range, uint32_t field, WireWriter& w) {
  if (range.empty()) return;
  absl::InlinedVector<int64_t, 8> lo, hi;
  for (const auto& [a, b] : range) {
    lo.push_back(a);
    hi.push_back(b);
  }
  const size_t m = w.BeginMessage(field);
  w.PackedInt64<int64_t>(proto::ShapeRange::kMinFieldNumber, lo);
  w.PackedInt64<int64_t>(proto::ShapeRange::kMaxFieldNumber, hi);
  w.EndMessage(m);
}

}  // namespace

Status EncodeDescBody(const GeTensorDesc& desc, SerializeContext& ctx, WireWriter& w) {
  const bool strings = ctx.options.layout_strings;
  const Format format = desc.GetFormat();
  const Format origin_format = desc.GetOriginFormat();
  ASSIGN_OR_RETURN(const proto::DataType dt,
                   GeTensorSerializeUtils::DataTypeToProto(desc.GetDataType()));
  ASSIGN_OR_RETURN(const proto::DataType origin_dt,
                   GeTensorSerializeUtils::DataTypeToProto(desc.GetOriginDataType()));
  w.String(PDesc::kNameFieldNumber, desc.GetName());
  w.Int32(PDesc::kDtypeFieldNumber, dt);
  EncodeShape(desc.GetShape(), PDesc::kShapeFieldNumber, w);
  if (strings) {
    ASSIGN_OR_RETURN(std::string layout, GeTensorSerializeUtils::FormatToLayout(format));
    w.String(PDesc::kLayoutFieldNumber, layout);
  } else if (!GeTensorSerializeUtils::IsSerializableFormat(format)) {
    return GeTensorSerializeUtils::FormatToLayout(format).status();
  }
  if (!desc.GetAttrStore().empty()) {
    RETURN_IF_ERROR(EncodeAttrs(desc.GetAttrStore(), PDesc::kAttrFieldNumber, ctx, w));
  }
  w.Int64(PDesc::kSizeFieldNumber, desc.GetSizeMeta());
  w.Int64(PDesc::kWeightSizeFieldNumber, desc.GetWeightSize());
  w.Bool(PDesc::kReuseInputFieldNumber, desc.GetReuseInput());
  w.Bool(PDesc::kOutputTensorFieldNumber, desc.IsOutputTensor());
  if (desc.GetDeviceType() == DeviceType::kCpu) {
    w.String(PDesc::kDeviceTypeFieldNumber, kDeviceCpu);
  } else if (desc.GetDeviceType() != DeviceType::kNpu) {
    return ParamInvalid("device type ", static_cast<int32_t>(desc.GetDeviceType()),
                        " is neither NPU nor CPU");
  }
  w.Bool(PDesc::kInputTensorFieldNumber, desc.IsInputTensor());
  if (GeTensorSerializeUtils::HasExplicitRealDimCnt(desc)) {
    w.Int64Always(PDesc::kRealDimCntFieldNumber, desc.GetRealDimCnt());
  }
  w.Int64(PDesc::kReuseInputIndexFieldNumber, desc.GetReuseInputIndex());
  w.Int64(PDesc::kDataOffsetFieldNumber, desc.GetDataOffset());
  if (desc.GetOriginShape() != desc.GetShape()) {
    EncodeShape(desc.GetOriginShape(), PDesc::kOriginShapeFieldNumber, w);
  }
  if (strings) {
    ASSIGN_OR_RETURN(std::string layout, GeTensorSerializeUtils::FormatToLayout(origin_format));
    w.String(PDesc::kOriginLayoutFieldNumber, layout);
  } else if (origin_format != format &&
             !GeTensorSerializeUtils::IsSerializableFormat(origin_format)) {
    return GeTensorSerializeUtils::FormatToLayout(origin_format).status();
  }
  if (strings || origin_dt != dt) w.Int32Always(PDesc::kOriginDtypeFieldNumber, origin_dt);
  EncodeRange(desc.GetShapeRange(), PDesc::kShapeRangeFieldNumber, w);
  w.Int32(PDesc::kFormatFieldNumber, format);
  if (origin_format != format) w.Int32Always(PDesc::kOriginFormatFieldNumber, origin_format);
  EncodeRange(desc.GetOriginShapeRange(), PDesc::kOriginShapeRangeFieldNumber, w);
  return OkStatus();
}

namespace {

using Dims = absl::InlinedVector<int64_t, 8>;

bool ReadShape(absl::string_view bytes, Dims* dims) {
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  while (r.Next(&f, &t)) {
    if (f == proto::ShapeDef::kDimFieldNumber) {
      if (!r.Repeated(t, [dims](int64_t v) {
            dims->push_back(v);
            return true;
          })) {
        return false;
      }
    } else if (!r.Skip(t)) {
      return false;
    }
  }
  return r.ok();
}

bool ReadRange(absl::string_view bytes, Dims* lo, Dims* hi) {
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  while (r.Next(&f, &t)) {
    Dims* target = f == proto::ShapeRange::kMinFieldNumber   ? lo
                   : f == proto::ShapeRange::kMaxFieldNumber ? hi
                                                             : nullptr;
    if (target != nullptr) {
      if (!r.Repeated(t, [target](int64_t v) {
            target->push_back(v);
            return true;
          })) {
        return false;
      }
    } else if (!r.Skip(t)) {
      return false;
    }
  }
  return r.ok();
}

Status CheckDims(const Dims& dims, const DeserializeContext& ctx, GeShape* shape) {
  const size_t n = dims.size();
  if (static_cast<int64_t>(n) > ctx.options.max_dim_num) {
    return OutOfRange("shape has ", n, " dims, more than the limit of ", ctx.options.max_dim_num);
  }
  GeShape out;
  for (size_t i = 0; i < n; ++i) {
    const int64_t d = dims[i];
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

StatusOr<GeTensorDesc::ShapeRange> CheckRange(const Dims& lo, const Dims& hi, const char* what,
                                              const DeserializeContext& ctx) {
  if (lo.size() != hi.size()) {
    return ParseFailed(what, " has ", lo.size(), " min values but ", hi.size(), " max values");
  }
  if (static_cast<int64_t>(lo.size()) > ctx.options.max_dim_num) {
    return OutOfRange(what, " has ", lo.size(), " entries, more than the limit of ",
                      ctx.options.max_dim_num);
  }
  GeTensorDesc::ShapeRange range;
  range.reserve(lo.size());
  for (size_t i = 0; i < lo.size(); ++i) range.emplace_back(lo[i], hi[i]);
  return range;
}

// Sets a (possibly stale) shape range: GeTensorDesc checks a range against
// the shape it is set on, but a shape changed after its range was set leaves
// a range that no longer matches; such a range is restored through a
// temporary shape of unknown dims.
Status SetRange(GeTensorDesc* desc, bool origin, GeTensorDesc::ShapeRange range) {
  if (range.empty()) return OkStatus();
  Status st = origin ? desc->SetOriginShapeRange(range) : desc->SetShapeRange(range);
  if (st.ok()) return st;
  const GeShape current = origin ? desc->GetOriginShape() : desc->GetShape();
  const GeShape temp(std::vector<int64_t>(range.size(), UNKNOWN_DIM));
  if (origin) {
    desc->SetOriginShape(temp);
  } else {
    desc->SetShape(temp);
  }
  st = origin ? desc->SetOriginShapeRange(std::move(range)) : desc->SetShapeRange(std::move(range));
  if (origin) {
    desc->SetOriginShape(current);
  } else {
    desc->SetShape(current);
  }
  return st;
}

}  // namespace

Status DecodeDesc(absl::string_view bytes, DeserializeContext& ctx, GeTensorDesc* desc) {
  absl::string_view name, layout, origin_layout, device_type;
  int64_t dtype = 0, origin_dtype = 0, format = 0, origin_format = 0;
  bool has_origin_dtype = false, has_origin_format = false, has_origin_shape = false;
  bool has_range = false, has_origin_range = false, has_real_dim = false;
  int64_t size = 0, weight_size = 0, reuse_input_index = 0, data_offset = 0, real_dim = 0;
  bool reuse_input = false, input_tensor = false, output_tensor = false;
  Dims dims, origin_dims, lo, hi, origin_lo, origin_hi;
  std::vector<absl::string_view> attrs;
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  bool ok = true;
  while (ok && r.Next(&f, &t)) {
    absl::string_view sub;
    switch (f) {
      case PDesc::kNameFieldNumber:
        ok = r.Bytes(t, &name);
        break;
      case PDesc::kDtypeFieldNumber:
        ok = r.Int64(t, &dtype);
        break;
      case PDesc::kShapeFieldNumber:
        ok = r.Bytes(t, &sub) && ReadShape(sub, &dims);
        break;
      case PDesc::kLayoutFieldNumber:
        ok = r.Bytes(t, &layout);
        break;
      case PDesc::kAttrFieldNumber:
        ok = r.Bytes(t, &sub);
        attrs.push_back(sub);
        break;
      case PDesc::kSizeFieldNumber:
        ok = r.Int64(t, &size);
        break;
      case PDesc::kWeightSizeFieldNumber:
        ok = r.Int64(t, &weight_size);
        break;
      case PDesc::kReuseInputFieldNumber:
        ok = r.Bool(t, &reuse_input);
        break;
      case PDesc::kOutputTensorFieldNumber:
        ok = r.Bool(t, &output_tensor);
        break;
      case PDesc::kDeviceTypeFieldNumber:
        ok = r.Bytes(t, &device_type);
        break;
      case PDesc::kInputTensorFieldNumber:
        ok = r.Bool(t, &input_tensor);
        break;
      case PDesc::kRealDimCntFieldNumber:
        ok = r.Int64(t, &real_dim);
        has_real_dim = true;
        break;
      case PDesc::kReuseInputIndexFieldNumber:
        ok = r.Int64(t, &reuse_input_index);
        break;
      case PDesc::kDataOffsetFieldNumber:
        ok = r.Int64(t, &data_offset);
        break;
      case PDesc::kOriginShapeFieldNumber:
        ok = r.Bytes(t, &sub) && ReadShape(sub, &origin_dims);
        has_origin_shape = true;
        break;
      case PDesc::kOriginLayoutFieldNumber:
        ok = r.Bytes(t, &origin_layout);
        break;
      case PDesc::kOriginDtypeFieldNumber:
        ok = r.Int64(t, &origin_dtype);
        has_origin_dtype = true;
        break;
      case PDesc::kShapeRangeFieldNumber:
        ok = r.Bytes(t, &sub) && ReadRange(sub, &lo, &hi);
        has_range = true;
        break;
      case PDesc::kFormatFieldNumber:
        ok = r.Int64(t, &format);
        break;
      case PDesc::kOriginFormatFieldNumber:
        ok = r.Int64(t, &origin_format);
        has_origin_format = true;
        break;
      case PDesc::kOriginShapeRangeFieldNumber:
        ok = r.Bytes(t, &sub) && ReadRange(sub, &origin_lo, &origin_hi);
        has_origin_range = true;
        break;
      default:
        ok = r.Skip(t);
    }
  }
  if (!ok || !r.ok()) return Malformed("tensor descriptor");

  // Enums are int32 on the wire.
  ASSIGN_OR_RETURN(const DataType dt,
                   GeTensorSerializeUtils::DataTypeFromProto(static_cast<int32_t>(dtype)));
  DataType origin_dt = dt;
  if (has_origin_dtype) {
    ASSIGN_OR_RETURN(origin_dt,
                     GeTensorSerializeUtils::DataTypeFromProto(static_cast<int32_t>(origin_dtype)));
  }
  Format fmt;
  if (!layout.empty()) {
    ASSIGN_OR_RETURN(fmt, GeTensorSerializeUtils::LayoutToFormat(layout));
  } else {
    ASSIGN_OR_RETURN(fmt, GeTensorSerializeUtils::CheckedFormat(static_cast<int32_t>(format)));
  }
  Format origin_fmt = fmt;
  if (!origin_layout.empty()) {
    ASSIGN_OR_RETURN(origin_fmt, GeTensorSerializeUtils::LayoutToFormat(origin_layout));
  } else if (has_origin_format) {
    ASSIGN_OR_RETURN(origin_fmt,
                     GeTensorSerializeUtils::CheckedFormat(static_cast<int32_t>(origin_format)));
  }
  GeShape shape;
  RETURN_IF_ERROR(Annotate(CheckDims(dims, ctx, &shape), "shape: "));
  GeShape origin_shape;
  if (has_origin_shape) {
    RETURN_IF_ERROR(Annotate(CheckDims(origin_dims, ctx, &origin_shape), "origin shape: "));
  }
  *desc = GeTensorDesc(shape, fmt, dt);
  GeTensorDesc& d = *desc;
  if (origin_fmt != fmt) d.SetOriginFormat(origin_fmt);
  if (origin_dt != dt) d.SetOriginDataType(origin_dt);
  if (has_range) {
    ASSIGN_OR_RETURN(GeTensorDesc::ShapeRange range, CheckRange(lo, hi, "shape range", ctx));
    RETURN_IF_ERROR(SetRange(&d, /*origin=*/false, std::move(range)));
  }
  if (has_origin_shape) d.SetOriginShape(origin_shape);
  if (has_origin_range) {
    ASSIGN_OR_RETURN(GeTensorDesc::ShapeRange range,
                     CheckRange(origin_lo, origin_hi, "origin shape range", ctx));
    RETURN_IF_ERROR(SetRange(&d, /*origin=*/true, std::move(range)));
  }
  if (!name.empty()) d.SetName(std::string(name));
  if (has_real_dim) d.SetRealDimCnt(real_dim);
  if (size != 0) d.SetSizeMeta(size);
  if (weight_size != 0) d.SetWeightSize(weight_size);
  if (reuse_input) d.SetReuseInput(true);
  if (reuse_input_index != 0) d.SetReuseInputIndex(reuse_input_index);
  if (data_offset != 0) d.SetDataOffset(data_offset);
  if (device_type == kDeviceCpu) {
    d.SetDeviceType(DeviceType::kCpu);
  } else if (!device_type.empty() && device_type != kDeviceNpu) {
    return ParseFailed("device type '", device_type, "' is neither NPU nor CPU");
  }
  if (input_tensor) d.SetInputTensor(true);
  if (output_tensor) d.SetOutputTensor(true);
  return DecodeAttrs(attrs, ctx, &d.MutableAttrStore());
}

Status EncodeTensorDesc(const GeTensorDesc& desc, SerializeContext& ctx, std::string* out) {
  WireWriter w(out);
  return EncodeDescBody(desc, ctx, w);
}

Status DecodeTensorDesc(absl::string_view bytes, DeserializeContext& ctx, GeTensorDesc* desc) {
  RETURN_IF_ERROR(CheckSize(bytes));
  return DecodeDesc(bytes, ctx, desc);
}
}  // namespace codec
}  // namespace ge
