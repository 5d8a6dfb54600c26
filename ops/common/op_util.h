// ops/common/op_util.h
//
// Shared helpers for the op library (layer 3). Small and stable: every ops
// family uses it.
//
//   Element types     fp16_t / bf16_t (FLOAT16 / BF16 storage, uint16_t bits),
//                     Fp16/Bf16 <-> float (round to nearest even; NaN, Inf
//                     and subnormals exact), ComputeType<T> / ToCompute /
//                     FromCompute<T> (FP16/BF16 are computed in float),
//                     DataTypeOf<T>(), ConvertElement<To>(from) (numpy
//                     astype without UB: saturating float -> int, NaN -> 0),
//                     SaturateCast<Int>(double) (clamp, NaN -> 0).
//   Dtype dispatch    DispatchType<kGroups>(dt, f, what): calls
//                     f(TypeTag<T>{}) with T the element type of dt;
//                     NotSupported naming the dtype for types outside kGroups.
//   Broadcasting      InferBroadcastShape (numpy rules, -1 dims, unknown
//                     rank), the multi-input form, and BroadcastIndex (input
//                     offsets for every output element, with coalesced dims
//                     so that equal shapes / scalars run as a single loop).
//   Axes              NormalizeAxis / NormalizeAxes.
//   Tensor values     ReadIntTensor (INT32/INT64 -> int64), ReadAsDoubles.
//   Infer functions   InferSameAsInput0 (shape and dtype),
//                     InferShapeSameAsInput0 (shape only), InferBroadcast.
//   Kernel I/O        GetKernelInput (validated), PrepareOutput (reuses the
//                     executor's allocation or calls ctx.AllocateOutput).
//   HostTensors       MakeHostTensor<T>(dtype, shape, values),
//                     MakeHostTensorFromDoubles(dtype, shape, values).
//   Errors            WithNode(ctx, status) prefixes "node <name> (<type>): ".
//
// Errors are ge::Status values with messages naming the offending value;
// helpers that do not see a context return messages without the node prefix
// (wrap them with WithNode). Nothing here aborts on bad input.
//
// Example (a unary float kernel)
//   ge::Status ReluKernel(gert::KernelContext& ctx) {
//     ASSIGN_OR_RETURN(const gert::Tensor* x, ops::GetKernelInput(ctx, 0));
//     ASSIGN_OR_RETURN(gert::Tensor* y,
//                      ops::PrepareOutput(ctx, 0, x->GetShape(), x->GetDataType()));
//     return ops::WithNode(ctx, ops::DispatchType<ops::kTgAllFloat>(
//         x->GetDataType(), [&](auto tag) {
//           using T = typename decltype(tag)::type;
//           const T* in = x->GetData<T>();
//           T* out = y->GetData<T>();
//           for (int64_t i = 0, n = x->GetShapeSize(); i < n; ++i) {
//             auto v = ops::ToCompute(in[i]);
//             out[i] = ops::FromCompute<T>(v > 0 ? v : 0);
//           }
//           return ge::OkStatus();
//         }, "Relu input x"));
//   }
#ifndef OPS_COMMON_OP_UTIL_H_
#define OPS_COMMON_OP_UTIL_H_

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ops {

// ============================================================ element types

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
  if constexpr (std::is_same_v<T, float>) return ge::DT_FLOAT;
  else if constexpr (std::is_same_v<T, double>) return ge::DT_DOUBLE;
  else if constexpr (std::is_same_v<T, fp16_t>) return ge::DT_FLOAT16;
  else if constexpr (std::is_same_v<T, bf16_t>) return ge::DT_BF16;
  else if constexpr (std::is_same_v<T, int8_t>) return ge::DT_INT8;
  else if constexpr (std::is_same_v<T, int16_t>) return ge::DT_INT16;
  else if constexpr (std::is_same_v<T, int32_t>) return ge::DT_INT32;
  else if constexpr (std::is_same_v<T, int64_t>) return ge::DT_INT64;
  else if constexpr (std::is_same_v<T, uint8_t>) return ge::DT_UINT8;
  else if constexpr (std::is_same_v<T, uint16_t>) return ge::DT_UINT16;
  else if constexpr (std::is_same_v<T, uint32_t>) return ge::DT_UINT32;
  else if constexpr (std::is_same_v<T, uint64_t>) return ge::DT_UINT64;
  else if constexpr (std::is_same_v<T, bool>) return ge::DT_BOOL;
  else if constexpr (std::is_same_v<T, std::string>) return ge::DT_STRING;
  else if constexpr (std::is_same_v<T, std::complex<float>>) return ge::DT_COMPLEX64;
  else if constexpr (std::is_same_v<T, std::complex<double>>) return ge::DT_COMPLEX128;
  else return ge::DT_UNDEFINED;
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
    if (v <= static_cast<From>(std::numeric_limits<To>::min())) return std::numeric_limits<To>::min();
    // max() may round up when converted (e.g. INT64_MAX -> 2^63): >= catches it.
    if (v >= static_cast<From>(std::numeric_limits<To>::max())) return std::numeric_limits<To>::max();
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

// ============================================================ dtype dispatch

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
inline constexpr uint32_t kTgReal = kTgAllFloat | kTgInt;           // ints and floats
inline constexpr uint32_t kTgRealBool = kTgReal | kTgBool;
inline constexpr uint32_t kTgAll = kTgRealBool | kTgString | kTgComplex;

// The group a data type belongs to (0 for types DispatchType never handles).
uint32_t TypeGroupOf(ge::DataType dt);
inline bool IsInGroups(ge::DataType dt, uint32_t groups) {
  return (TypeGroupOf(dt) & groups) != 0;
}

// Calls f(TypeTag<T>{}) (f returns ge::Status) with T the storage type of `dt`
// when dt belongs to kGroups; only those instantiations are compiled.
// Otherwise NotSupported("data type DT_X is not supported for <what>").
//   DispatchType<kTgReal>(dt, [&](auto tag) {
//     using T = typename decltype(tag)::type; ...; return ge::OkStatus(); },
//     "input x");
template <uint32_t kGroups, typename F>
ge::Status DispatchType(ge::DataType dt, F&& f, absl::string_view what = "this op") {
#define OPS_DISPATCH_CASE_(DT, GROUP, TYPE)                \
  case DT:                                                 \
    if constexpr ((kGroups & (GROUP)) != 0) {              \
      return f(TypeTag<TYPE>{});                           \
    }                                                      \
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

// ============================================================ broadcasting

// Numpy broadcasting of two shapes into *out. Dims align from the right; a
// pair (a, b) gives: a == b -> a; 1 vs x -> x (so 1 vs -1 -> -1); -1 vs n
// (n != 1) -> n; anything else is ParamInvalid naming both shapes. Either
// shape of unknown rank gives unknown rank ([-2]). Dims < -1 are
// ParamInvalid. `out` may alias `a` or `b`.
ge::Status InferBroadcastShape(const gert::Shape& a, const gert::Shape& b, gert::Shape* out);
// Broadcast of every shape (none may be null); an empty list gives a scalar.
// The error names the index of the shape that does not broadcast.
ge::Status InferBroadcastShape(absl::Span<const gert::Shape* const> shapes, gert::Shape* out);

// Input element offsets for every element of a broadcast output.
//
// Create() checks that every input broadcasts to `out` (all dims known) and
// precomputes per-input strides over the output dims (0 on broadcast dims),
// dropping size-1 output dims and merging dims that are contiguous for every
// input: equal shapes and scalars then run as one flat loop.
//
//   ASSIGN_OR_RETURN(ops::BroadcastIndex bi,
//                    ops::BroadcastIndex::Create({&a_shape, &b_shape}, y_shape));
//   bi.ForEach2([&](int64_t o, int64_t ia, int64_t ib) { y[o] = a[ia] + b[ib]; });
class BroadcastIndex {
 public:
  BroadcastIndex() = default;
  static ge::StatusOr<BroadcastIndex> Create(absl::Span<const gert::Shape* const> inputs,
                                             const gert::Shape& out);
  static ge::StatusOr<BroadcastIndex> Create(std::initializer_list<const gert::Shape*> inputs,
                                             const gert::Shape& out) {
    return Create(absl::Span<const gert::Shape* const>(inputs.begin(), inputs.size()), out);
  }

  size_t input_num() const { return input_num_; }
  int64_t output_size() const { return output_size_; }
  // Input i has exactly the output's elements (its offset is the output index).
  bool IsSameAsOutput(size_t i) const { return i < same_.size() && same_[i]; }
  // Input i has a single element (offset always 0).
  bool IsScalar(size_t i) const { return i < scalar_.size() && scalar_[i]; }
  bool AllSameAsOutput() const;
  // Coalesced output dims (outermost first) and input i's element strides.
  absl::Span<const int64_t> dims() const { return dims_; }
  std::vector<int64_t> Strides(size_t i) const;

  // Calls f(out_index, const int64_t* in_offsets) for every output element
  // in row-major order; in_offsets has input_num() entries.
  template <typename F>
  void ForEach(F&& f) const;
  // Two / three input forms: f(out_index, offset0, offset1[, offset2]).
  template <typename F>
  void ForEach2(F&& f) const;
  template <typename F>
  void ForEach3(F&& f) const;

 private:
  // Runs `row(out_start, offsets, inner_count, inner_strides)` for every
  // innermost row.
  template <typename Row>
  void ForEachRow(Row&& row) const;

  // Inline capacity covers rank <= 8 with up to 3 inputs: creating an index
  // for such shapes allocates nothing (kernels on the run path).
  size_t input_num_ = 0;
  int64_t output_size_ = 0;
  absl::InlinedVector<int64_t, 8> dims_;      // coalesced, no size-1 dims
  absl::InlinedVector<int64_t, 24> strides_;  // dims_.size() x input_num_, row-major
  absl::InlinedVector<bool, 8> same_;
  absl::InlinedVector<bool, 8> scalar_;
};

// ============================================================ axes

// Maps axis in [-rank, rank - 1] to [0, rank - 1]; otherwise OutOfRange
// naming the axis and the range ("axis 3 is out of range [-3, 2] for rank 3").
// rank < 0 is ParamInvalid.
ge::StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank);
// Every axis normalised, order kept; duplicates (after normalisation) are
// ParamInvalid unless allow_duplicates.
ge::StatusOr<std::vector<int64_t>> NormalizeAxes(absl::Span<const int64_t> axes, int64_t rank,
                                                 bool allow_duplicates = false);

// ============================================================ tensor values

// The elements of an INT32 / INT64 tensor (any rank) as int64. TypeMismatch
// for other dtypes; ParamInvalid for unknown shapes, null data or a buffer
// smaller than the shape needs.
ge::StatusOr<std::vector<int64_t>> ReadIntTensor(const gert::Tensor& t);
// The elements of any real / BOOL tensor as double (int64 beyond 2^53 loses
// precision). NotSupported for STRING / complex / other dtypes.
ge::StatusOr<std::vector<double>> ReadAsDoubles(const gert::Tensor& t);
// OK when t has a known shape and, if it has elements, data covering them.
ge::Status CheckTensorData(const gert::Tensor& t);

// ============================================================ infer functions

// Every output gets input 0's shape and dtype (usable as InferShape and as
// InferDataType).
ge::Status InferSameAsInput0(gert::InferShapeContext& ctx);
// Every output gets input 0's shape; dtypes are left alone (for ops whose
// InferDataType sets another type, e.g. IsNaN -> BOOL).
ge::Status InferShapeSameAsInput0(gert::InferShapeContext& ctx);
// Every output's shape is the broadcast of all present inputs; the error
// names the node, the input index and the shapes. Absent (optional) inputs
// are skipped.
ge::Status InferBroadcast(gert::InferShapeContext& ctx);

// ============================================================ kernel I/O

// Input i, present with a known shape and data covering it; errors name the
// node and the index.
ge::StatusOr<const gert::Tensor*> GetKernelInput(const gert::KernelContext& ctx, size_t i);
// Output i with `shape` and `dtype`: returns the executor's tensor when it
// already has that shape / dtype and enough memory; calls ctx.AllocateOutput
// when its shape has unknown dims or it has no memory; otherwise (a
// conflicting known shape or dtype) ParamInvalid naming both.
ge::StatusOr<gert::Tensor*> PrepareOutput(gert::KernelContext& ctx, size_t i,
                                          const gert::Shape& shape, ge::DataType dtype);

// ============================================================ host tensors

// A HostTensor of `dtype` / `shape` holding `values` (row-major). T must be
// the storage type of dtype (fp16_t / bf16_t or uint16_t bits for FLOAT16 /
// BF16, std::string for STRING); TypeMismatch otherwise, ParamInvalid when
// the count differs from the shape's.
template <typename T>
ge::StatusOr<gert::HostTensor> MakeHostTensor(ge::DataType dtype, const gert::Shape& shape,
                                              absl::Span<const T> values);
template <typename T>
ge::StatusOr<gert::HostTensor> MakeHostTensor(ge::DataType dtype, const gert::Shape& shape,
                                              std::initializer_list<T> values) {
  return MakeHostTensor<T>(dtype, shape, absl::Span<const T>(values.begin(), values.size()));
}
// Converts each value to dtype (any real type or BOOL; integers truncate
// toward zero and saturate, NaN -> 0; FP16/BF16 round to nearest even).
ge::StatusOr<gert::HostTensor> MakeHostTensorFromDoubles(ge::DataType dtype,
                                                         const gert::Shape& shape,
                                                         absl::Span<const double> values);

// ============================================================ errors

// `status` with "node <name> (<type>): " prepended (code kept); OK stays OK.
inline ge::Status WithNode(const gert::ContextBase& ctx, const ge::Status& status) {
  if (status.ok()) return status;
  return ge::Annotate(status, "node ", ctx.GetNodeName(), " (", ctx.GetNodeType(), "): ");
}

// ============================================================ implementation

template <typename Row>
void BroadcastIndex::ForEachRow(Row&& row) const {
  if (output_size_ <= 0) return;
  const size_t n = input_num_;
  const size_t rank = dims_.size();
  absl::InlinedVector<int64_t, 8> offsets(n, 0);
  if (rank == 0) {
    absl::InlinedVector<int64_t, 8> zero(n, 0);
    row(int64_t{0}, offsets.data(), int64_t{1}, zero.data());
    return;
  }
  const int64_t inner = dims_[rank - 1];
  const int64_t* inner_strides = strides_.data() + (rank - 1) * n;
  absl::InlinedVector<int64_t, 8> counter(rank, 0);
  for (int64_t out = 0; out < output_size_; out += inner) {
    row(out, offsets.data(), inner, inner_strides);
    // Advance the outer dims (odometer).
    for (size_t d = rank - 1; d-- > 0;) {
      const int64_t* s = strides_.data() + d * n;
      if (++counter[d] < dims_[d]) {
        for (size_t k = 0; k < n; ++k) offsets[k] += s[k];
        break;
      }
      for (size_t k = 0; k < n; ++k) offsets[k] -= s[k] * (dims_[d] - 1);
      counter[d] = 0;
    }
  }
}

template <typename F>
void BroadcastIndex::ForEach(F&& f) const {
  const size_t n = input_num_;
  absl::InlinedVector<int64_t, 8> cur(n, 0);
  ForEachRow([&](int64_t out, const int64_t* offs, int64_t count, const int64_t* st) {
    for (size_t k = 0; k < n; ++k) cur[k] = offs[k];
    for (int64_t j = 0; j < count; ++j) {
      f(out + j, static_cast<const int64_t*>(cur.data()));
      for (size_t k = 0; k < n; ++k) cur[k] += st[k];
    }
  });
}

template <typename F>
void BroadcastIndex::ForEach2(F&& f) const {
  ForEachRow([&](int64_t out, const int64_t* offs, int64_t count, const int64_t* st) {
    int64_t a = offs[0], b = offs[1];
    const int64_t sa = st[0], sb = st[1];
    for (int64_t j = 0; j < count; ++j, a += sa, b += sb) f(out + j, a, b);
  });
}

template <typename F>
void BroadcastIndex::ForEach3(F&& f) const {
  ForEachRow([&](int64_t out, const int64_t* offs, int64_t count, const int64_t* st) {
    int64_t a = offs[0], b = offs[1], c = offs[2];
    const int64_t sa = st[0], sb = st[1], sc = st[2];
    for (int64_t j = 0; j < count; ++j, a += sa, b += sb, c += sc) f(out + j, a, b, c);
  });
}

template <typename T>
ge::StatusOr<gert::HostTensor> MakeHostTensor(ge::DataType dtype, const gert::Shape& shape,
                                              absl::Span<const T> values) {
  constexpr ge::DataType kDt = DataTypeOf<T>();
  const bool ok_type =
      kDt == dtype ||
      (std::is_same_v<T, uint16_t> && (dtype == ge::DT_FLOAT16 || dtype == ge::DT_BF16));
  if (!ok_type) {
    return ge::TypeMismatch("MakeHostTensor: values of ", DataTypeName(kDt),
                            " cannot fill a tensor of ", DataTypeName(dtype));
  }
  const int64_t count = shape.GetShapeSize();
  if (count < 0 || static_cast<uint64_t>(count) != values.size()) {
    return ge::ParamInvalid("MakeHostTensor: shape ", shape.ToString(), " needs ", count,
                            " elements, got ", values.size());
  }
  ASSIGN_OR_RETURN(gert::HostTensor t, gert::HostTensor::Create(dtype, shape));
  T* p = t.template MutableData<T>();
  for (size_t i = 0; i < values.size(); ++i) p[i] = values[i];
  return t;
}

}  // namespace ops

#endif  // OPS_COMMON_OP_UTIL_H_
