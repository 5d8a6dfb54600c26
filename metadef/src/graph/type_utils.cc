// metadef/src/graph/type_utils.cc
//
// TypeUtils: one table per enum (DataType, Format) drives names, parsing,
// sizes and classification, so a new enum value needs one new table row.
#include "metadef/inc/external/graph/type_utils.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

constexpr absl::string_view kDataTypePrefix = "DT_";
constexpr absl::string_view kFormatPrefix = "FORMAT_";
constexpr absl::string_view kC0Prefix = "C0_";
constexpr int32_t kMaxSubFormat = 0xffff;
constexpr int64_t kMaxC0Value = 16384;  // 2^(15 - 1): the largest 4-bit C0 code.

// ---------------------------------------------------------------------------
// DataType table
// ---------------------------------------------------------------------------

enum class Kind : uint8_t {
  kInvalid,  // the value is not a DataType (a hole in the enum)
  kFloat,
  kSignedInt,
  kUnsignedInt,
  kComplex,
  kBool,
  kQuantSigned,
  kQuantUnsigned,
  kDualSigned,
  kDualUnsigned,
  kOpaque,  // STRING, STRING_REF, RESOURCE, VARIANT, UNDEFINED: no fixed size
};

struct DataTypeInfo {
  const char* name;  // nullptr for a hole
  int32_t bits;      // 0 when the type has no fixed size
  Kind kind;
  bool is_signed;
};

// Indexed by enum value; value 5 is a hole, as in GE.
constexpr DataTypeInfo kDataTypeInfo[] = {
    {"DT_FLOAT", 32, Kind::kFloat, true},                  // 0
    {"DT_FLOAT16", 16, Kind::kFloat, true},                // 1
    {"DT_INT8", 8, Kind::kSignedInt, true},                // 2
    {"DT_INT32", 32, Kind::kSignedInt, true},              // 3
    {"DT_UINT8", 8, Kind::kUnsignedInt, false},            // 4
    {nullptr, 0, Kind::kInvalid, false},                   // 5
    {"DT_INT16", 16, Kind::kSignedInt, true},              // 6
    {"DT_UINT16", 16, Kind::kUnsignedInt, false},          // 7
    {"DT_UINT32", 32, Kind::kUnsignedInt, false},          // 8
    {"DT_INT64", 64, Kind::kSignedInt, true},              // 9
    {"DT_UINT64", 64, Kind::kUnsignedInt, false},          // 10
    {"DT_DOUBLE", 64, Kind::kFloat, true},                 // 11
    {"DT_BOOL", 8, Kind::kBool, false},                    // 12
    {"DT_STRING", 0, Kind::kOpaque, false},                // 13
    {"DT_DUAL_SUB_INT8", 8, Kind::kDualSigned, true},      // 14
    {"DT_DUAL_SUB_UINT8", 8, Kind::kDualUnsigned, false},  // 15
    {"DT_COMPLEX64", 64, Kind::kComplex, true},            // 16
    {"DT_COMPLEX128", 128, Kind::kComplex, true},          // 17
    {"DT_QINT8", 8, Kind::kQuantSigned, true},             // 18
    {"DT_QINT16", 16, Kind::kQuantSigned, true},           // 19
    {"DT_QINT32", 32, Kind::kQuantSigned, true},           // 20
    {"DT_QUINT8", 8, Kind::kQuantUnsigned, false},         // 21
    {"DT_QUINT16", 16, Kind::kQuantUnsigned, false},       // 22
    {"DT_RESOURCE", 0, Kind::kOpaque, false},              // 23
    {"DT_STRING_REF", 0, Kind::kOpaque, false},            // 24
    {"DT_DUAL", 40, Kind::kDualUnsigned, false},           // 25: 5 bytes, as GE
    {"DT_VARIANT", 0, Kind::kOpaque, false},               // 26
    {"DT_BF16", 16, Kind::kFloat, true},                   // 27
    {"DT_UNDEFINED", 0, Kind::kOpaque, false},             // 28
    {"DT_INT4", 4, Kind::kSignedInt, true},                // 29
    {"DT_UINT1", 1, Kind::kUnsignedInt, false},            // 30
    {"DT_INT2", 2, Kind::kSignedInt, true},                // 31
    {"DT_UINT2", 2, Kind::kUnsignedInt, false},            // 32
    {"DT_COMPLEX32", 32, Kind::kComplex, true},            // 33
    {"DT_HIFLOAT8", 8, Kind::kFloat, true},                // 34
    {"DT_FLOAT8_E5M2", 8, Kind::kFloat, true},             // 35
    {"DT_FLOAT8_E4M3FN", 8, Kind::kFloat, true},           // 36
    {"DT_FLOAT8_E8M0", 8, Kind::kFloat, false},            // 37: no sign bit
    {"DT_FLOAT6_E3M2", 6, Kind::kFloat, true},             // 38
    {"DT_FLOAT6_E2M3", 6, Kind::kFloat, true},             // 39
    {"DT_FLOAT4_E2M1", 4, Kind::kFloat, true},             // 40
    {"DT_FLOAT4_E1M2", 4, Kind::kFloat, true},             // 41
    {"DT_UINT4", 4, Kind::kUnsignedInt, false},            // 42
    {"DT_INT1", 1, Kind::kSignedInt, true},                // 43
};
static_assert(sizeof(kDataTypeInfo) / sizeof(kDataTypeInfo[0]) == DT_MAX,
              "kDataTypeInfo needs one row per DataType value");

// nullptr when `value` is not a DataType.
const DataTypeInfo* FindDataTypeInfo(int32_t value) {
  if (value < 0 || value >= DT_MAX) return nullptr;
  const DataTypeInfo* info = &kDataTypeInfo[value];
  return info->kind == Kind::kInvalid ? nullptr : info;
}

// Extra spellings accepted by SerialStringToDataType (GE's names).
struct NameAlias {
  const char* name;
  int32_t value;
};
constexpr NameAlias kDataTypeAliases[] = {
    {"DT_BFLOAT16", DT_BF16},
    {"DT_FLOAT32", DT_FLOAT},
};

// std::map rather than absl::flat_hash_map: with gold and --as-needed, a
// shared library that only references absl_hash loses it at link time.
using NameMap = std::map<std::string, int32_t, std::less<>>;

// Adds `name` and, if it carries `prefix`, the short form without it.
void AddName(NameMap& map, absl::string_view name, absl::string_view prefix, int32_t value) {
  map.emplace(std::string(name), value);
  if (absl::StartsWith(name, prefix)) {
    map.emplace(std::string(name.substr(prefix.size())), value);
  } else {
    map.emplace(absl::StrCat(prefix, name), value);
  }
}

const NameMap& DataTypeNameMap() {
  static const NameMap* const map = [] {
    auto* m = new NameMap();
    for (int32_t v = 0; v < DT_MAX; ++v) {
      const DataTypeInfo* info = FindDataTypeInfo(v);
      if (info != nullptr) AddName(*m, info->name, kDataTypePrefix, v);
    }
    for (const NameAlias& alias : kDataTypeAliases) {
      AddName(*m, alias.name, kDataTypePrefix, alias.value);
    }
    return m;
  }();
  return *map;
}

// ---------------------------------------------------------------------------
// Format table
// ---------------------------------------------------------------------------

// Indexed by enum value: GE's serial names.
constexpr const char* kFormatNames[] = {
    "NCHW",                            // 0
    "NHWC",                            // 1
    "ND",                              // 2
    "NC1HWC0",                         // 3
    "FRACTAL_Z",                       // 4
    "NC1C0HWPAD",                      // 5
    "NHWC1C0",                         // 6
    "FSR_NCHW",                        // 7
    "FRACTAL_DECONV",                  // 8
    "C1HWNC0",                         // 9
    "FRACTAL_DECONV_TRANSPOSE",        // 10
    "FRACTAL_DECONV_SP_STRIDE_TRANS",  // 11
    "NC1HWC0_C04",                     // 12
    "FRACTAL_Z_C04",                   // 13
    "CHWN",                            // 14
    "DECONV_SP_STRIDE8_TRANS",         // 15
    "HWCN",                            // 16
    "NC1KHKWHWC0",                     // 17
    "BN_WEIGHT",                       // 18
    "FILTER_HWCK",                     // 19
    "LOOKUP_LOOKUPS",                  // 20
    "LOOKUP_KEYS",                     // 21
    "LOOKUP_VALUE",                    // 22
    "LOOKUP_OUTPUT",                   // 23
    "LOOKUP_HITS",                     // 24
    "C1HWNCoC0",                       // 25
    "MD",                              // 26
    "NDHWC",                           // 27
    "FRACTAL_ZZ",                      // 28
    "FRACTAL_NZ",                      // 29
    "NCDHW",                           // 30
    "DHWCN",                           // 31
    "NDC1HWC0",                        // 32
    "FRACTAL_Z_3D",                    // 33
    "CN",                              // 34
    "NC",                              // 35
    "DHWNC",                           // 36
    "FRACTAL_Z_3D_TRANSPOSE",          // 37
    "FRACTAL_ZN_LSTM",                 // 38
    "FRACTAL_Z_G",                     // 39
    "RESERVED",                        // 40
    "ALL",                             // 41
    "NULL",                            // 42
    "ND_RNN_BIAS",                     // 43
    "FRACTAL_ZN_RNN",                  // 44
    "NYUV",                            // 45
    "NYUV_A",                          // 46
    "NCL",                             // 47
    "FRACTAL_Z_WINO",                  // 48
    "C1HWC0",                          // 49
};
static_assert(sizeof(kFormatNames) / sizeof(kFormatNames[0]) == FORMAT_END,
              "kFormatNames needs one row per Format value");

// The enum identifiers where GE's serial name differs from them.
constexpr NameAlias kFormatAliases[] = {
    {"FRACTAL_DECONV_SP_STRIDE8_TRANS", FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS},
    {"HASHTABLE_LOOKUP_LOOKUPS", FORMAT_HASHTABLE_LOOKUP_LOOKUPS},
    {"HASHTABLE_LOOKUP_KEYS", FORMAT_HASHTABLE_LOOKUP_KEYS},
    {"HASHTABLE_LOOKUP_VALUE", FORMAT_HASHTABLE_LOOKUP_VALUE},
    {"HASHTABLE_LOOKUP_OUTPUT", FORMAT_HASHTABLE_LOOKUP_OUTPUT},
    {"HASHTABLE_LOOKUP_HITS", FORMAT_HASHTABLE_LOOKUP_HITS},
};

const NameMap& FormatNameMap() {
  static const NameMap* const map = [] {
    auto* m = new NameMap();
    for (int32_t v = 0; v < FORMAT_END; ++v) {
      AddName(*m, kFormatNames[v], kFormatPrefix, v);
    }
    for (const NameAlias& alias : kFormatAliases) {
      AddName(*m, alias.name, kFormatPrefix, alias.value);
    }
    return m;
  }();
  return *map;
}

constexpr uint32_t kFormatReservedBits = 0xf0000000U;

bool IsPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// log2(c0) + 1 for a power of two c0 in [1, kMaxC0Value].
int32_t C0FormatFromValue(int64_t c0_value) {
  int32_t c0_format = 1;
  while ((int64_t{1} << (c0_format - 1)) < c0_value) ++c0_format;
  return c0_format;
}

Status CheckC0Value(int64_t c0_value, absl::string_view context) {
  if (c0_value < 0 || c0_value > kMaxC0Value) {
    return OutOfRange("C0 value ", c0_value, context, " is outside [1, ", kMaxC0Value,
                      "] (0 means no C0)");
  }
  if (c0_value != 0 && !IsPowerOfTwo(c0_value)) {
    return ParamInvalid("C0 value ", c0_value, context, " is not a power of two");
  }
  return OkStatus();
}

// Parses a decimal string of digits only (no sign, no spaces) up to `max`.
bool ParseBoundedDecimal(absl::string_view s, int64_t max, int64_t* out) {
  if (s.empty()) return false;
  int64_t v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
    if (v > max) return false;
  }
  *out = v;
  return true;
}

}  // namespace

// ---------------------------------------------------------------------------
// DataType
// ---------------------------------------------------------------------------

std::string TypeUtils::DataTypeToSerialString(DataType data_type) {
  const DataTypeInfo* info = FindDataTypeInfo(data_type);
  if (info == nullptr) {
    return absl::StrCat("UNDEFINED_DT(", static_cast<int32_t>(data_type), ")");
  }
  return info->name;
}

StatusOr<DataType> TypeUtils::SerialStringToDataType(absl::string_view name) {
  const NameMap& map = DataTypeNameMap();
  const auto it = map.find(name);
  if (it == map.end()) {
    return NotFound("unknown data type name \"", name,
                    "\" (expected e.g. \"DT_FLOAT\" or \"FLOAT\")");
  }
  return static_cast<DataType>(it->second);
}

bool TypeUtils::IsDataTypeValid(int32_t value) { return FindDataTypeInfo(value) != nullptr; }

std::vector<DataType> TypeUtils::AllDataTypes() {
  std::vector<DataType> result;
  for (int32_t v = 0; v < DT_MAX; ++v) {
    if (FindDataTypeInfo(v) != nullptr) result.push_back(static_cast<DataType>(v));
  }
  return result;
}

// ---------------------------------------------------------------------------
// Format
// ---------------------------------------------------------------------------

std::string TypeUtils::FormatToSerialString(int32_t format) {
  if (!IsFormatValid(format) || (static_cast<uint32_t>(format) & kFormatReservedBits) != 0) {
    return absl::StrCat("UNDEFINED_FORMAT(", format, ")");
  }
  std::string result = kFormatNames[GetPrimaryFormat(format)];
  if (HasSubFormat(format)) absl::StrAppend(&result, ":", GetSubFormat(format));
  if (HasC0Format(format)) {
    absl::StrAppend(&result, ":", kC0Prefix, GetC0Value(format));
  }
  return result;
}

StatusOr<Format> TypeUtils::SerialStringToFormat(absl::string_view name) {
  const std::vector<absl::string_view> parts = absl::StrSplit(name, ':');
  const NameMap& map = FormatNameMap();
  const auto it = map.find(parts[0]);
  if (it == map.end()) {
    return NotFound("unknown format name \"", parts[0], "\"",
                    parts.size() > 1 ? absl::StrCat(" in \"", name, "\"") : "",
                    " (expected e.g. \"NCHW\" or \"FORMAT_NCHW\")");
  }
  if (parts.size() > 3) {
    return ParamInvalid("format \"", name,
                        "\" has too many ':' parts (expected "
                        "NAME[:SUB_FORMAT][:C0_<n>])");
  }
  int64_t sub_format = 0;
  int64_t c0_value = 0;
  bool seen_c0 = false;
  for (size_t i = 1; i < parts.size(); ++i) {
    const absl::string_view part = parts[i];
    if (absl::StartsWith(part, kC0Prefix)) {
      if (seen_c0) {
        return ParamInvalid("format \"", name, "\" has more than one C0 part");
      }
      seen_c0 = true;
      const absl::string_view digits = part.substr(kC0Prefix.size());
      if (!ParseBoundedDecimal(digits, kMaxC0Value, &c0_value) || !IsPowerOfTwo(c0_value)) {
        return ParamInvalid("C0 part \"", part, "\" of format \"", name,
                            "\" is not C0_<n> with n a power of two in [1, ", kMaxC0Value,
                            "] (omit the part for no C0)");
      }
    } else {
      if (i != 1) {
        return ParamInvalid("sub-format part \"", part, "\" of format \"", name,
                            "\" must directly follow the primary name");
      }
      if (!ParseBoundedDecimal(part, kMaxSubFormat, &sub_format)) {
        return ParamInvalid("sub-format \"", part, "\" of format \"", name,
                            "\" is not a decimal number in [0, ", kMaxSubFormat, "]");
      }
    }
  }
  return static_cast<Format>(GetFormatFromSubAndC0(it->second, static_cast<int32_t>(sub_format),
                                                   seen_c0 ? C0FormatFromValue(c0_value) : 0));
}

bool TypeUtils::IsFormatValid(int32_t format) { return GetPrimaryFormat(format) < FORMAT_END; }

StatusOr<int32_t> TypeUtils::MakeFormat(Format primary, int32_t sub_format, int64_t c0_value) {
  if (primary < 0 || primary >= FORMAT_END) {
    return ParamInvalid("primary format ", static_cast<int32_t>(primary),
                        " is not a valid format (expected a value in [0, ",
                        static_cast<int32_t>(FORMAT_END), "))");
  }
  if (sub_format < 0 || sub_format > kMaxSubFormat) {
    return OutOfRange("sub-format ", sub_format, " for format ", kFormatNames[primary],
                      " is outside [0, ", kMaxSubFormat, "]");
  }
  RETURN_IF_ERROR(CheckC0Value(c0_value, absl::StrCat(" for format ", kFormatNames[primary])));
  const int32_t c0_format = c0_value == 0 ? 0 : C0FormatFromValue(c0_value);
  return GetFormatFromSubAndC0(primary, sub_format, c0_format);
}

// ---------------------------------------------------------------------------
// Sizes
// ---------------------------------------------------------------------------

StatusOr<int64_t> TypeUtils::GetSizeInBits(DataType data_type) {
  const DataTypeInfo* info = FindDataTypeInfo(data_type);
  if (info == nullptr) {
    return ParamInvalid("data type value ", static_cast<int32_t>(data_type),
                        " is not a valid DataType");
  }
  if (info->bits == 0) {
    return NotSupported("data type ", info->name, " has no fixed element size");
  }
  return int64_t{info->bits};
}

StatusOr<int64_t> TypeUtils::GetDataTypeLength(DataType data_type) {
  ASSIGN_OR_RETURN(const int64_t bits, GetSizeInBits(data_type));
  if (bits % 8 != 0) {
    return NotSupported("data type ", DataTypeToSerialString(data_type), " is ", bits,
                        " bits, not a whole number of bytes; use "
                        "GetSizeInBytes for a count of elements");
  }
  return bits / 8;
}

StatusOr<int64_t> TypeUtils::GetSizeInBytes(DataType data_type, int64_t count) {
  ASSIGN_OR_RETURN(const int64_t bits, GetSizeInBits(data_type));
  if (count < 0) {
    return ParamInvalid("element count ", count, " of data type ",
                        DataTypeToSerialString(data_type), " is negative");
  }
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const auto overflow = [&] {
    return Overflow("size in bytes of ", count, " elements of data type ",
                    DataTypeToSerialString(data_type), " (", bits, " bits each) overflows int64");
  };
  if (bits % 8 == 0) {
    const int64_t bytes_each = bits / 8;
    if (count > kMax / bytes_each) return overflow();
    return count * bytes_each;
  }
  // ceil(bits * count / 8) without forming bits * count: split count into
  // whole groups of 8 elements (bits bytes each) and a remainder.
  const int64_t groups = count / 8;
  const int64_t tail_bytes = ((count % 8) * bits + 7) / 8;
  if (groups > (kMax - tail_bytes) / bits) return overflow();
  return groups * bits + tail_bytes;
}

// ---------------------------------------------------------------------------
// Classification
// ---------------------------------------------------------------------------

bool TypeUtils::IsFloatType(DataType dt) {
  const DataTypeInfo* info = FindDataTypeInfo(dt);
  return info != nullptr && info->kind == Kind::kFloat;
}

bool TypeUtils::IsIntegerType(DataType dt) {
  const DataTypeInfo* info = FindDataTypeInfo(dt);
  return info != nullptr && (info->kind == Kind::kSignedInt || info->kind == Kind::kUnsignedInt);
}

bool TypeUtils::IsSignedType(DataType dt) {
  const DataTypeInfo* info = FindDataTypeInfo(dt);
  return info != nullptr && info->is_signed;
}

bool TypeUtils::IsComplexType(DataType dt) {
  const DataTypeInfo* info = FindDataTypeInfo(dt);
  return info != nullptr && info->kind == Kind::kComplex;
}

}  // namespace ge
