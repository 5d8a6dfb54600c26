// metadef/inc/external/graph/type_utils.h
//
// TypeUtils: DataType / Format names both ways, sizes, and checked format
// packing. TensorType / ListTensorType (allowed-type constraints) and Promote
// (type promotion) live in tensor_type.h.
//
// Names are GE's: "DT_FLOAT", "DT_FLOAT16", ... and "NCHW", "NC1HWC0",
// "FRACTAL_Z", ...; parsing also accepts the short forms without "DT_" /
// "FORMAT_" and is case-sensitive. An unknown name is a NotFound/ParamInvalid
// status that quotes the name.
//
// Example
//   ASSIGN_OR_RETURN(DataType dt, TypeUtils::SerialStringToDataType("DT_BF16"));
//   ASSIGN_OR_RETURN(int64_t bytes, TypeUtils::GetSizeInBytes(DT_INT4, 3));  // 2
#ifndef METADEF_INC_EXTERNAL_GRAPH_TYPE_UTILS_H_
#define METADEF_INC_EXTERNAL_GRAPH_TYPE_UTILS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {

class TypeUtils {
 public:
  // "DT_FLOAT" etc.; "UNDEFINED_DT(<n>)" for a value outside the enum.
  static std::string DataTypeToSerialString(DataType data_type);
  static StatusOr<DataType> SerialStringToDataType(absl::string_view name);
  static bool IsDataTypeValid(int32_t value);
  static std::vector<DataType> AllDataTypes();  // every valid enum value

  // Primary format names ("NCHW", "FRACTAL_Z"); a packed format prints as
  // "FRACTAL_Z:1:C0_16" style. Unknown values print "UNDEFINED_FORMAT(<n>)".
  static std::string FormatToSerialString(int32_t format);
  static StatusOr<Format> SerialStringToFormat(absl::string_view name);
  static bool IsFormatValid(int32_t format);  // primary in range (packing ignored)

  // Size of one element in bits (4 for INT4, 1 for UINT1, 32 for FLOAT, 64 for
  // COMPLEX64 ...). STRING / RESOURCE / VARIANT / UNDEFINED: NotSupported.
  static StatusOr<int64_t> GetSizeInBits(DataType data_type);
  // Whole bytes of one element; sub-byte types are an error (use GetSizeInBytes).
  static StatusOr<int64_t> GetDataTypeLength(DataType data_type);
  // Bytes for `count` elements, sub-byte types rounded up; Overflow / negative
  // count errors.
  static StatusOr<int64_t> GetSizeInBytes(DataType data_type, int64_t count);

  static bool IsFloatType(DataType dt);    // floating point incl. FP8/FP6/FP4, BF16
  static bool IsIntegerType(DataType dt);  // signed / unsigned ints incl. sub-byte
  static bool IsSignedType(DataType dt);
  static bool IsComplexType(DataType dt);

  // Checked packing: sub_format in [0, 0xffff], c0_value 0 (none) or a power of
  // two in [1, 16384]; primary must be a valid format. Errors name the value.
  static StatusOr<int32_t> MakeFormat(Format primary, int32_t sub_format,
                                      int64_t c0_value);
};

}  // namespace ge

#endif  // METADEF_INC_EXTERNAL_GRAPH_TYPE_UTILS_H_
