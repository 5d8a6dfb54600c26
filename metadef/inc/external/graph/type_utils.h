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
  // Also accepts GE's spellings "DT_BFLOAT16" (DT_BF16) and "DT_FLOAT32"
  // (DT_FLOAT), with or without "DT_". Unknown name: NotFound quoting it.
  static StatusOr<DataType> SerialStringToDataType(absl::string_view name);
  // True for every enumerator except DT_MAX (DT_UNDEFINED is valid; the hole
  // at 5 and negative values are not).
  static bool IsDataTypeValid(int32_t value);
  static std::vector<DataType> AllDataTypes();  // every valid enum value

  // Primary format names ("NCHW", "FRACTAL_Z"); a packed format prints as
  // "FRACTAL_Z:1:C0_16" style. Unknown values print "UNDEFINED_FORMAT(<n>)".
  // The sub-format part is printed only when non-zero, the C0 part only when
  // present ("NC1HWC0:C0_32"); a value with bits 28-31 set prints as undefined.
  static std::string FormatToSerialString(int32_t format);
  // Inverse of FormatToSerialString: "NAME[:SUB][:C0_<n>]", NAME with or
  // without "FORMAT_"; the enum spellings of formats whose GE name differs
  // ("FRACTAL_DECONV_SP_STRIDE8_TRANS", "HASHTABLE_LOOKUP_KEYS") are accepted.
  // Unknown name: NotFound; malformed SUB / C0 part: ParamInvalid.
  static StatusOr<Format> SerialStringToFormat(absl::string_view name);
  static bool IsFormatValid(int32_t format);  // primary in range (packing ignored)

  // Size of one element in bits (4 for INT4, 1 for UINT1, 32 for FLOAT, 64 for
  // COMPLEX64 ...). STRING / STRING_REF / RESOURCE / VARIANT / UNDEFINED:
  // NotSupported; a value outside the enum: ParamInvalid.
  static StatusOr<int64_t> GetSizeInBits(DataType data_type);
  // Whole bytes of one element; sub-byte types are an error (use GetSizeInBytes).
  static StatusOr<int64_t> GetDataTypeLength(DataType data_type);
  // Bytes for `count` elements, sub-byte types rounded up; Overflow / negative
  // count errors.
  static StatusOr<int64_t> GetSizeInBytes(DataType data_type, int64_t count);

  static bool IsFloatType(DataType dt);    // floating point incl. FP8/FP6/FP4, BF16
  static bool IsIntegerType(DataType dt);  // signed / unsigned ints incl. sub-byte
  // Can hold negative values: signed ints (incl. INT4/INT2/INT1), QINT*,
  // DUAL_SUB_INT8, every float except FLOAT8_E8M0 (no sign bit), complex.
  static bool IsSignedType(DataType dt);
  static bool IsComplexType(DataType dt);

  // Checked packing: sub_format in [0, 0xffff], c0_value 0 (none) or a power of
  // two in [1, 16384]; primary must be a valid format. Errors name the value:
  // bad primary / C0 not a power of two -> ParamInvalid, out of range ->
  // OutOfRange.
  static StatusOr<int32_t> MakeFormat(Format primary, int32_t sub_format, int64_t c0_value);
};

}  // namespace ge

#endif  // METADEF_INC_EXTERNAL_GRAPH_TYPE_UTILS_H_
