// metadef/inc/external/graph/types.h
//
// DataType and Format enums (values follow GE's external/graph/types.h, so an
// OM file or dump from GE reads the same numbers), and the bit packing of a
// Format value: primary format in bits 0-7, sub-format in bits 8-23, C0 format
// in bits 24-27 (C0 = 2^(c0_format - 1); 0 means "no C0").
//
// Example
//   int32_t f = GetFormatFromSubAndC0(FORMAT_FRACTAL_Z, 1, 5);  // C0 = 16
//   GetPrimaryFormat(f) == FORMAT_FRACTAL_Z; GetSubFormat(f) == 1;
//   GetC0Value(f) == 16
//
// Checked construction from user values (C0 out of range, sub-format too big)
// is in type_utils.h (TypeUtils::MakeFormat), which returns a Status.
#ifndef METADEF_INC_EXTERNAL_GRAPH_TYPES_H_
#define METADEF_INC_EXTERNAL_GRAPH_TYPES_H_

#include <cstdint>

namespace ge {

constexpr int64_t UNKNOWN_DIM = -1;
constexpr int64_t UNKNOWN_DIM_NUM = -2;
constexpr int64_t UNKNOWN_RANK = -2;

enum DataType : int32_t {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_STRING = 13,
  DT_DUAL_SUB_INT8 = 14,
  DT_DUAL_SUB_UINT8 = 15,
  DT_COMPLEX64 = 16,
  DT_COMPLEX128 = 17,
  DT_QINT8 = 18,
  DT_QINT16 = 19,
  DT_QINT32 = 20,
  DT_QUINT8 = 21,
  DT_QUINT16 = 22,
  DT_RESOURCE = 23,
  DT_STRING_REF = 24,
  DT_DUAL = 25,
  DT_VARIANT = 26,
  DT_BF16 = 27,
  DT_UNDEFINED = 28,
  DT_INT4 = 29,
  DT_UINT1 = 30,
  DT_INT2 = 31,
  DT_UINT2 = 32,
  DT_COMPLEX32 = 33,
  DT_HIFLOAT8 = 34,
  DT_FLOAT8_E5M2 = 35,
  DT_FLOAT8_E4M3FN = 36,
  DT_FLOAT8_E8M0 = 37,
  DT_FLOAT6_E3M2 = 38,
  DT_FLOAT6_E2M3 = 39,
  DT_FLOAT4_E2M1 = 40,
  DT_FLOAT4_E1M2 = 41,
  DT_UINT4 = 42,
  DT_INT1 = 43,
  DT_MAX  // Not a type: one past the last value.
};

enum Format : int32_t {
  FORMAT_NCHW = 0,
  FORMAT_NHWC = 1,
  FORMAT_ND = 2,
  FORMAT_NC1HWC0 = 3,
  FORMAT_FRACTAL_Z = 4,
  FORMAT_NC1C0HWPAD = 5,
  FORMAT_NHWC1C0 = 6,
  FORMAT_FSR_NCHW = 7,
  FORMAT_FRACTAL_DECONV = 8,
  FORMAT_C1HWNC0 = 9,
  FORMAT_FRACTAL_DECONV_TRANSPOSE = 10,
  FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS = 11,
  FORMAT_NC1HWC0_C04 = 12,
  FORMAT_FRACTAL_Z_C04 = 13,
  FORMAT_CHWN = 14,
  FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS = 15,
  FORMAT_HWCN = 16,
  FORMAT_NC1KHKWHWC0 = 17,
  FORMAT_BN_WEIGHT = 18,
  FORMAT_FILTER_HWCK = 19,
  FORMAT_HASHTABLE_LOOKUP_LOOKUPS = 20,
  FORMAT_HASHTABLE_LOOKUP_KEYS = 21,
  FORMAT_HASHTABLE_LOOKUP_VALUE = 22,
  FORMAT_HASHTABLE_LOOKUP_OUTPUT = 23,
  FORMAT_HASHTABLE_LOOKUP_HITS = 24,
  FORMAT_C1HWNCoC0 = 25,
  FORMAT_MD = 26,
  FORMAT_NDHWC = 27,
  FORMAT_FRACTAL_ZZ = 28,
  FORMAT_FRACTAL_NZ = 29,
  FORMAT_NCDHW = 30,
  FORMAT_DHWCN = 31,
  FORMAT_NDC1HWC0 = 32,
  FORMAT_FRACTAL_Z_3D = 33,
  FORMAT_CN = 34,
  FORMAT_NC = 35,
  FORMAT_DHWNC = 36,
  FORMAT_FRACTAL_Z_3D_TRANSPOSE = 37,
  FORMAT_FRACTAL_ZN_LSTM = 38,
  FORMAT_FRACTAL_Z_G = 39,
  FORMAT_RESERVED = 40,
  FORMAT_ALL = 41,
  FORMAT_NULL = 42,
  FORMAT_ND_RNN_BIAS = 43,
  FORMAT_FRACTAL_ZN_RNN = 44,
  FORMAT_NYUV = 45,
  FORMAT_NYUV_A = 46,
  FORMAT_NCL = 47,
  FORMAT_FRACTAL_Z_WINO = 48,
  FORMAT_C1HWC0 = 49,
  FORMAT_END,  // Not a format: one past the last value.
  FORMAT_MAX = 0xff
};

// ---- Format bit packing (no validation; see TypeUtils::MakeFormat). ----
inline int32_t GetPrimaryFormat(int32_t format) {
  return static_cast<int32_t>(static_cast<uint32_t>(format) & 0xffU);
}
inline int32_t GetSubFormat(int32_t format) {
  return static_cast<int32_t>((static_cast<uint32_t>(format) & 0xffff00U) >> 8);
}
inline bool HasSubFormat(int32_t format) { return GetSubFormat(format) > 0; }
inline int32_t GetC0Format(int32_t format) {
  return static_cast<int32_t>((static_cast<uint32_t>(format) & 0xf000000U) >> 24);
}
inline bool HasC0Format(int32_t format) { return GetC0Format(format) > 0; }
// C0 value encoded in `format`, or -1 when it carries none.
inline int64_t GetC0Value(int32_t format) {
  const int32_t c0_format = GetC0Format(format);
  if (c0_format <= 0) return -1;
  return int64_t{1} << (c0_format - 1);
}
inline int32_t GetFormatFromSub(int32_t primary_format, int32_t sub_format) {
  return static_cast<int32_t>((static_cast<uint32_t>(primary_format) & 0xffU) |
                              ((static_cast<uint32_t>(sub_format) & 0xffffU) << 8));
}
inline int32_t GetFormatFromC0(int32_t format, int32_t c0_format) {
  return static_cast<int32_t>((static_cast<uint32_t>(format) & 0xf0ffffffU) |
                              ((static_cast<uint32_t>(c0_format) & 0xfU) << 24));
}
inline int32_t GetFormatFromSubAndC0(int32_t primary_format, int32_t sub_format,
                                     int32_t c0_format) {
  return GetFormatFromC0(GetFormatFromSub(primary_format, sub_format), c0_format);
}

}  // namespace ge

#endif  // METADEF_INC_EXTERNAL_GRAPH_TYPES_H_
