// graph/serialization/inc/tensor_serialize_utils.h
//
// GeTensorSerializeUtils: GeShape / GeTensorDesc / GeTensor <-> the proto
// ShapeDef / TensorDescriptor / TensorDef (seed 000, section 6.2), and the
// DataType mapping between ge::DataType and ge::proto::DataType (the two
// enums number the types differently; kDataTypeMap in the .cc is the table).
//
// Mapping of a GeTensorDesc:
//   name, dtype, shape.dim, format (packed value: sub-format and C0
//   included), origin_shape / origin_format / origin_dtype (each only when it
//   differs), shape_range / origin_shape_range, real_dim_cnt (only when set
//   explicitly), size, weight_size, reuse_input, reuse_input_index,
//   data_offset, device_type ("CPU"; absent = NPU), input_tensor,
//   output_tensor, attr. With SerializeOptions::layout_strings (text dumps)
//   also layout / origin_layout ("FRACTAL_Z:1:C0_16") and origin_dtype, as
//   GE writes them; on input a non-empty layout string wins over the number.
//
// Contract (reading)
//   * dims: at most DeserializeOptions::max_dim_num; each >= -1, except a
//     single -2 (unknown rank). Shape ranges: one {min, max} per dim, as
//     GeTensorDesc::SetShapeRange checks. Data types must be in the proto
//     enum and map to a ge::DataType; formats must be valid packed formats.
//   * Errors name the offending value; callers prefix where it is (op, input).
//
// Example
//   proto::TensorDescriptor td;
//   RETURN_IF_ERROR(GeTensorSerializeUtils::GeTensorDescAsProto(desc, &td, ctx));
//   GeTensorDesc back;
//   RETURN_IF_ERROR(GeTensorSerializeUtils::AssembleGeTensorDescFromProto(td, &back, dctx));
#ifndef GRAPH_SERIALIZATION_INC_TENSOR_SERIALIZE_UTILS_H_
#define GRAPH_SERIALIZATION_INC_TENSOR_SERIALIZE_UTILS_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/proto/ge_ir.pb.h"
#include "graph/serialization/inc/serialize_context.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {

class GeTensorSerializeUtils {
 public:
  // ParamInvalid for a value outside ge::DataType (DT_MAX included).
  static StatusOr<proto::DataType> DataTypeToProto(DataType data_type);
  // ParseFailed for a value outside proto::DataType.
  static StatusOr<DataType> DataTypeFromProto(int64_t proto_value);

  // The layout string of a packed format; ParamInvalid when the value is not
  // a valid packed format (it would not read back).
  static StatusOr<std::string> FormatToLayout(int32_t format);
  // Inverse; ParseFailed naming the layout.
  static StatusOr<Format> LayoutToFormat(absl::string_view layout);
  // Checks a packed format value read from `format` / `origin_format`.
  static StatusOr<Format> CheckedFormat(int64_t value);
  // True when FormatToLayout succeeds (cheap for plain formats).
  static bool IsSerializableFormat(int32_t format);

  static Status GeShapeAsProto(const GeShape& shape, proto::ShapeDef* def);
  static Status AssembleGeShapeFromProto(const proto::ShapeDef& def, GeShape* shape,
                                         const DeserializeContext& ctx);

  static Status GeTensorDescAsProto(const GeTensorDesc& desc, proto::TensorDescriptor* def,
                                    SerializeContext& ctx);
  static Status AssembleGeTensorDescFromProto(const proto::TensorDescriptor& def,
                                              GeTensorDesc* desc, DeserializeContext& ctx);

  static Status GeTensorAsProto(const GeTensor& tensor, proto::TensorDef* def,
                                SerializeContext& ctx);
  static Status AssembleGeTensorFromProto(const proto::TensorDef& def, GeTensor* tensor,
                                          DeserializeContext& ctx);

  // True when the desc's real dim count was set explicitly
  // (GeTensorDesc::HasRealDimCnt()).
  static bool HasExplicitRealDimCnt(const GeTensorDesc& desc);
};

}  // namespace ge

#endif  // GRAPH_SERIALIZATION_INC_TENSOR_SERIALIZE_UTILS_H_
