// ops/common/element_types.h
//
// Element types of the op library's kernels and their conversions:
//   fp16_t / bf16_t     FLOAT16 / BF16 storage (uint16_t bits; distinct types
//                       so that dispatch tells them apart);
//   Fp16/Bf16 <-> float round to nearest even; NaN, Inf and subnormals exact;
//   ComputeType<T>      the type kernels compute in (float for the half
//                       types), ToCompute / FromCompute<T>;
//   DataTypeOf<T>()     the DataType stored as T; DataTypeName(dt);
//   ConvertElement<To>  numpy astype without undefined behaviour
//                       (saturating float -> int, NaN -> 0);
//   SaturateCast<Int>   clamp a double into an integer type (NaN -> 0).
// Nothing here fails: every conversion is defined for every input.
//
// Example
//   const ops::fp16_t h = ops::FromCompute<ops::fp16_t>(1.5f);
//   float f = ops::ToCompute(h);                    // 1.5f
//   int8_t i = ops::ConvertElement<int8_t>(300.0);  // 127
#ifndef OPS_COMMON_ELEMENT_TYPES_H_
#define OPS_COMMON_ELEMENT_TYPES_H_

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "metadef/inc/external/graph/types.h"

namespace ops {

// FLOAT16 / BF16 elements as stored in tensors (IEEE binary16 / bfloat16
// bits). Distinct types so that dispatch can tell them apart; read them with
// tensor.GetData<ops::fp16_t>().
struct fp16_t {
  uint16_t bits;
};
struct bf16_t {
  uint16_t bits;
};
static_assert(sizeof(fp16_t) == 2 && alignof(fp16_t) == 2, "fp16_t layout");
static_assert(sizeof(bf16_t) == 2 && alignof(bf16_t) == 2, "bf16_t layout");

inline uint32_t FloatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}
inline float BitsToFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}

// binary16 -> float: exact (every half value is a float).
inline float Fp16ToFloat(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    // Zero or subnormal: mant * 2^-24 (exact in float).
    const float mag = static_cast<float>(mant) * 5.9604644775390625e-8f;
    return BitsToFloat(sign | FloatBits(mag));
  }
  if (exp == 0x1f) return BitsToFloat(sign | 0x7f800000u | (mant << 13));  // Inf / NaN
  return BitsToFloat(sign | ((exp + 112u) << 23) | (mant << 13));
}

// float -> binary16, round to nearest even; overflow gives +-Inf, NaN stays a
// (quiet) NaN keeping the sign and top payload bits, underflow gives
// subnormals / signed zero.
inline uint16_t FloatToFp16(float f) {
  uint32_t u = FloatBits(f);
  const uint32_t sign = u & 0x80000000u;
  u ^= sign;
  uint32_t out;
  if (u >= (143u << 23)) {  // |f| >= 65536 (or Inf / NaN)
    out = u > 0x7f800000u ? (0x7e00u | ((u >> 13) & 0x3ffu)) : 0x7c00u;
  } else if (u < (113u << 23)) {  // |f| < 2^-14: half subnormal or zero
    // Adding 0.5 aligns the 10 subnormal mantissa bits at the bottom of the
    // float mantissa; the FPU rounds to nearest even.
    const float magic = BitsToFloat(126u << 23);
    out = FloatBits(BitsToFloat(u) + magic) - (126u << 23);
  } else {
    const uint32_t mant_odd = (u >> 13) & 1u;
    u += (static_cast<uint32_t>(15 - 127) << 23) + 0xfffu + mant_odd;
    out = u >> 13;  // a carry into the exponent gives Inf for >= 65520
  }
  return static_cast<uint16_t>(out | (sign >> 16));
}

inline float Bf16ToFloat(uint16_t b) { return BitsToFloat(static_cast<uint32_t>(b) << 16); }

// float -> bfloat16, round to nearest even; NaN stays a quiet NaN.
inline uint16_t FloatToBf16(float f) {
  const uint32_t u = FloatBits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);
  const uint32_t rounded = u + 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(rounded >> 16);
}

// The type kernels compute in: float for fp16_t / bf16_t, T otherwise.
template <typename T>
struct ComputeTypeOf {
  using type = T;
};
template <>
struct ComputeTypeOf<fp16_t> {
  using type = float;
};
template <>
struct ComputeTypeOf<bf16_t> {
  using type = float;
};
template <typename T>
using ComputeType = typename ComputeTypeOf<T>::type;

template <typename T>
inline T ToCompute(T v) {
  return v;
}
inline float ToCompute(fp16_t v) { return Fp16ToFloat(v.bits); }
inline float ToCompute(bf16_t v) { return Bf16ToFloat(v.bits); }

template <typename T>
inline T FromCompute(ComputeType<T> v) {
  return v;
}
template <>
inline fp16_t FromCompute<fp16_t>(float v) {
  return fp16_t{FloatToFp16(v)};
}
template <>
inline bf16_t FromCompute<bf16_t>(float v) {
  return bf16_t{FloatToBf16(v)};
}

template <typename T>
struct IsHalfType : std::bool_constant<std::is_same_v<T, fp16_t> || std::is_same_v<T, bf16_t>> {};
template <typename T>
inline constexpr bool kIsHalf = IsHalfType<T>::value;
// Floating point element types (float, double, fp16_t, bf16_t).
template <typename T>
inline constexpr bool kIsFloatLike = std::is_floating_point_v<T> || kIsHalf<T>;
// Integer element types, bool excluded.
template <typename T>
inline constexpr bool kIsInteger = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// The DataType whose storage type is T (DT_UNDEFINED for other T).
template <typename T>
constexpr ge::DataType DataTypeOf() {
  if constexpr (std::is_same_v<T, float>)
    return ge::DT_FLOAT;
  else if constexpr (std::is_same_v<T, double>)
    return ge::DT_DOUBLE;
  else if constexpr (std::is_same_v<T, fp16_t>)
    return ge::DT_FLOAT16;
  else if constexpr (std::is_same_v<T, bf16_t>)
    return ge::DT_BF16;
  else if constexpr (std::is_same_v<T, int8_t>)
    return ge::DT_INT8;
  else if constexpr (std::is_same_v<T, int16_t>)
    return ge::DT_INT16;
  else if constexpr (std::is_same_v<T, int32_t>)
    return ge::DT_INT32;
  else if constexpr (std::is_same_v<T, int64_t>)
    return ge::DT_INT64;
  else if constexpr (std::is_same_v<T, uint8_t>)
    return ge::DT_UINT8;
  else if constexpr (std::is_same_v<T, uint16_t>)
    return ge::DT_UINT16;
  else if constexpr (std::is_same_v<T, uint32_t>)
    return ge::DT_UINT32;
  else if constexpr (std::is_same_v<T, uint64_t>)
    return ge::DT_UINT64;
  else if constexpr (std::is_same_v<T, bool>)
    return ge::DT_BOOL;
  else if constexpr (std::is_same_v<T, std::string>)
    return ge::DT_STRING;
  else if constexpr (std::is_same_v<T, std::complex<float>>)
    return ge::DT_COMPLEX64;
  else if constexpr (std::is_same_v<T, std::complex<double>>)
    return ge::DT_COMPLEX128;
  else
    return ge::DT_UNDEFINED;
}

// "DT_FLOAT", ... (TypeUtils' names).
std::string DataTypeName(ge::DataType dt);

// double -> float rounded to odd (inexact results get an odd last bit):
// converting that float to FP16 / BF16 then rounds like a single rounding of
// the double (no double-rounding error).
inline float DoubleToFloatRoundOdd(double d) {
  float f = static_cast<float>(d);
  if (static_cast<double>(f) != d && f - f == 0.0f && (FloatBits(f) & 1u) == 0) {
    f = std::nextafter(f, static_cast<float>(d > static_cast<double>(f) ? HUGE_VALF : -HUGE_VALF));
  }
  return f;
}

// Converts one element between storage types (real types, fp16_t, bf16_t,
// bool), numpy astype style but without undefined behaviour:
//   x -> bool: x != 0 (NaN -> true); bool -> x: 0 / 1;
//   float -> int: truncates toward zero, saturates, NaN -> 0;
//   int -> int: wraps (two's complement), as numpy;
//   -> fp16_t / bf16_t: round to nearest even (from double without double
//   rounding); fp16_t / bf16_t -> x: through float.
template <typename To, typename From>
inline To ConvertElement(From v) {
  if constexpr (kIsHalf<From>) {
    return ConvertElement<To, float>(ToCompute(v));
  } else if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    return v != From(0);
  } else if constexpr (kIsHalf<To>) {
    if constexpr (std::is_same_v<From, double> || (kIsInteger<From> && sizeof(From) <= 4)) {
      // Exact in double; one rounding to the half type.
      return FromCompute<To>(DoubleToFloatRoundOdd(static_cast<double>(v)));
    } else {
      return FromCompute<To>(static_cast<float>(v));
    }
  } else if constexpr (std::is_floating_point_v<To>) {
    return static_cast<To>(v);
  } else if constexpr (std::is_floating_point_v<From>) {
    // float -> integer.
    if (!(v == v)) return To(0);
    if (v <= static_cast<From>(std::numeric_limits<To>::min()))
      return std::numeric_limits<To>::min();
    // max() may round up when converted (e.g. INT64_MAX -> 2^63): >= catches it.
    if (v >= static_cast<From>(std::numeric_limits<To>::max()))
      return std::numeric_limits<To>::max();
    return static_cast<To>(v);
  } else {
    // integer / bool -> integer: modular.
    return static_cast<To>(v);
  }
}

// Clamps v to integer type T's range (NaN -> 0) and converts, truncating
// toward zero for a non-integral v (callers that want rounding round first):
// quantization and integer reductions computed in double.
template <typename T>
inline T SaturateCast(double v) {
  static_assert(std::is_integral<T>::value, "SaturateCast is for integer targets");
  if (std::isnan(v)) return T{0};
  constexpr double kLo = static_cast<double>(std::numeric_limits<T>::lowest());
  // max() of 64-bit types is not representable in double; compare with 2^bits.
  constexpr double kHiExclusive = static_cast<double>(std::numeric_limits<T>::max() / 2 + 1) * 2.0;
  if (v <= kLo) return std::numeric_limits<T>::lowest();
  if (v >= kHiExclusive) return std::numeric_limits<T>::max();
  return static_cast<T>(v);
}

}  // namespace ops

#endif  // OPS_COMMON_ELEMENT_TYPES_H_
