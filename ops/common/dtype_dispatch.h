// ops/common/dtype_dispatch.h
//
// Dtype dispatch: DispatchType<kGroups>(dt, f, what) calls f(TypeTag<T>{})
// with T the storage type (element_types.h) of dt when dt is in one of the
// TypeGroup bits kGroups (only those instantiations are compiled), and
// returns NotSupported naming the dtype and `what` otherwise. TypeGroupOf /
// IsInGroups classify a dtype.
//
// Example
//   return ops::DispatchType<ops::kTgReal>(dt, [&](auto tag) {
//     using T = typename decltype(tag)::type;
//     ...;
//     return ge::OkStatus();
//   }, "input x");
#ifndef OPS_COMMON_DTYPE_DISPATCH_H_
#define OPS_COMMON_DTYPE_DISPATCH_H_

#include <complex>
#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "ops/common/element_types.h"

namespace ops {

template <typename T>
struct TypeTag {
  using type = T;
};

// Groups of data types for DispatchType (bit mask).
enum TypeGroup : uint32_t {
  kTgFloat = 1u << 0,     // FLOAT (float), DOUBLE (double)
  kTgHalf = 1u << 1,      // FLOAT16 (fp16_t), BF16 (bf16_t)
  kTgSigned = 1u << 2,    // INT8, INT16, INT32, INT64
  kTgUnsigned = 1u << 3,  // UINT8, UINT16, UINT32, UINT64
  kTgBool = 1u << 4,      // BOOL (bool)
  kTgString = 1u << 5,    // STRING (std::string)
  kTgComplex = 1u << 6,   // COMPLEX64, COMPLEX128 (std::complex)
};
inline constexpr uint32_t kTgAllFloat = kTgFloat | kTgHalf;
inline constexpr uint32_t kTgInt = kTgSigned | kTgUnsigned;
inline constexpr uint32_t kTgReal = kTgAllFloat | kTgInt;  // ints and floats
inline constexpr uint32_t kTgRealBool = kTgReal | kTgBool;
inline constexpr uint32_t kTgAll = kTgRealBool | kTgString | kTgComplex;

// The group a data type belongs to (0 for types DispatchType never handles).
uint32_t TypeGroupOf(ge::DataType dt);
inline bool IsInGroups(ge::DataType dt, uint32_t groups) { return (TypeGroupOf(dt) & groups) != 0; }

// Calls f(TypeTag<T>{}) (f returns ge::Status) with T the storage type of `dt`
// when dt belongs to kGroups; only those instantiations are compiled.
// Otherwise NotSupported("data type DT_X is not supported for <what>").
//   DispatchType<kTgReal>(dt, [&](auto tag) {
//     using T = typename decltype(tag)::type; ...; return ge::OkStatus(); },
//     "input x");
template <uint32_t kGroups, typename F>
ge::Status DispatchType(ge::DataType dt, F&& f, absl::string_view what = "this op") {
#define OPS_DISPATCH_CASE_(DT, GROUP, TYPE)   \
  case DT:                                    \
    if constexpr ((kGroups & (GROUP)) != 0) { \
      return f(TypeTag<TYPE>{});              \
    }                                         \
    break;
  switch (dt) {
    OPS_DISPATCH_CASE_(ge::DT_FLOAT, kTgFloat, float)
    OPS_DISPATCH_CASE_(ge::DT_DOUBLE, kTgFloat, double)
    OPS_DISPATCH_CASE_(ge::DT_FLOAT16, kTgHalf, fp16_t)
    OPS_DISPATCH_CASE_(ge::DT_BF16, kTgHalf, bf16_t)
    OPS_DISPATCH_CASE_(ge::DT_INT8, kTgSigned, int8_t)
    OPS_DISPATCH_CASE_(ge::DT_INT16, kTgSigned, int16_t)
    OPS_DISPATCH_CASE_(ge::DT_INT32, kTgSigned, int32_t)
    OPS_DISPATCH_CASE_(ge::DT_INT64, kTgSigned, int64_t)
    OPS_DISPATCH_CASE_(ge::DT_UINT8, kTgUnsigned, uint8_t)
    OPS_DISPATCH_CASE_(ge::DT_UINT16, kTgUnsigned, uint16_t)
    OPS_DISPATCH_CASE_(ge::DT_UINT32, kTgUnsigned, uint32_t)
    OPS_DISPATCH_CASE_(ge::DT_UINT64, kTgUnsigned, uint64_t)
    OPS_DISPATCH_CASE_(ge::DT_BOOL, kTgBool, bool)
    OPS_DISPATCH_CASE_(ge::DT_STRING, kTgString, std::string)
    OPS_DISPATCH_CASE_(ge::DT_COMPLEX64, kTgComplex, std::complex<float>)
    OPS_DISPATCH_CASE_(ge::DT_COMPLEX128, kTgComplex, std::complex<double>)
    default:
      break;
  }
#undef OPS_DISPATCH_CASE_
  return ge::NotSupported("data type ", DataTypeName(dt), " is not supported for ", what);
}

}  // namespace ops

#endif  // OPS_COMMON_DTYPE_DISPATCH_H_
