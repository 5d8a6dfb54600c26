// ops/elementwise/binary_ops.cc
//
// Binary and variadic elementwise ops (ONNX opset 17 semantics), all with
// numpy broadcasting:
//   Add Sub Mul   integers wrap (two's complement), floats IEEE
//   Div           integers truncate toward zero; integer division by zero is
//                 an error (ParamInvalid naming the node); INT_MIN / -1 wraps
//   Mod           fmod = 0: integer only, result has the divisor's sign
//                 (Python %); fmod = 1: C fmod (the dividend's sign), ints and
//                 floats; integer modulo by zero is an error
//   Pow           X in {INT32, INT64, floats}, Y any numeric type; integer
//                 base and non-negative integer exponent use exact wrapping
//                 integer power, otherwise pow in double (float for FLOAT),
//                 converted back (saturating for integer X)
//   BitShift      unsigned ints, attr direction "LEFT" / "RIGHT"; shifting by
//                 >= the bit width gives 0
//   PRelu         slope broadcasts to X (unidirectional): y = x < 0 ? s*x : x
//   Clip          optional scalar min / max inputs (absent = no bound); min >
//                 max gives max everywhere; NaN stays NaN
//   Max Min       variadic, ints and floats; NaN propagates
//   Sum Mean      variadic, floats (FLOAT16 / BF16 accumulate in float)
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/elementwise/elementwise_util.h"

namespace ops {
namespace {

template <typename C>
constexpr bool kIsIntC = std::is_integral_v<C>;

// ------------------------------------------------------------ arithmetic

struct AddOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C a, C b) const {
    if constexpr (kIsIntC<C>) {
      return static_cast<C>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
    } else {
      return a + b;
    }
  }
};

struct SubOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C a, C b) const {
    if constexpr (kIsIntC<C>) {
      return static_cast<C>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
    } else {
      return a - b;
    }
  }
};

struct MulOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C a, C b) const {
    if constexpr (kIsIntC<C>) {
      return static_cast<C>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
    } else {
      return a * b;
    }
  }
};

// Rejects integer zero divisors before the loop.
template <typename T>
ge::Status CheckNoIntegerZero(const gert::ContextBase& ctx, const T* b, int64_t n,
                              const char* what) {
  if constexpr (kIsInteger<T>) {
    for (int64_t i = 0; i < n; ++i) {
      if (b[i] == 0) {
        return ctx.Error("integer ", what, " by zero (input 1 element ", i, " is 0)");
      }
    }
  }
  return ge::OkStatus();
}

struct DivOp : ElementwiseOpBase {
  template <typename T>
  ge::Status CheckRhs(const gert::ContextBase& ctx, const T* b, int64_t n) const {
    return CheckNoIntegerZero(ctx, b, n, "division");
  }
  template <typename C>
  C operator()(C a, C b) const {
    if constexpr (kIsIntC<C>) {
      if constexpr (std::is_signed_v<C>) {
        if (b == C(-1)) return static_cast<C>(uint64_t{0} - static_cast<uint64_t>(a));
      }
      return b == 0 ? C(0) : static_cast<C>(a / b);  // b == 0 rejected by CheckRhs
    } else {
      return a / b;
    }
  }
};

struct ModOp : ElementwiseOpBase {
  bool fmod = false;
  ge::Status Init(const gert::ContextBase& ctx, ge::DataType dt) {
    ASSIGN_OR_RETURN(int64_t f, ctx.GetIntOr("fmod", 0));
    if (f != 0 && f != 1) return ctx.Error("attribute fmod must be 0 or 1, got ", f);
    fmod = f == 1;
    if (!fmod && IsInGroups(dt, kTgAllFloat)) {
      return ctx.Error("attribute fmod must be 1 for floating point input ", DataTypeName(dt));
    }
    return ge::OkStatus();
  }
  template <typename T>
  ge::Status CheckRhs(const gert::ContextBase& ctx, const T* b, int64_t n) const {
    return CheckNoIntegerZero(ctx, b, n, "modulo");
  }
  template <typename C>
  C operator()(C a, C b) const {
    if constexpr (kIsIntC<C>) {
      if (b == 0) return C(0);  // rejected by CheckRhs
      if constexpr (std::is_signed_v<C>) {
        if (b == C(-1)) return C(0);  // avoids INT_MIN % -1
        C r = static_cast<C>(a % b);
        if (!fmod && r != 0 && ((r < 0) != (b < 0))) r = static_cast<C>(r + b);
        return r;
      } else {
        return static_cast<C>(a % b);
      }
    } else {
      return std::fmod(a, b);
    }
  }
};

struct BitShiftOp : ElementwiseOpBase {
  bool left = true;
  ge::Status Init(const gert::ContextBase& ctx, ge::DataType) {
    ASSIGN_OR_RETURN(std::string dir, ctx.GetStr("direction"));
    if (dir == "LEFT") {
      left = true;
    } else if (dir == "RIGHT") {
      left = false;
    } else {
      return ctx.Error("attribute direction must be \"LEFT\" or \"RIGHT\", got \"", dir, "\"");
    }
    return ge::OkStatus();
  }
  template <typename C>
  C operator()(C a, C b) const {
    if constexpr (std::is_unsigned_v<C>) {
      constexpr C kBits = static_cast<C>(sizeof(C) * 8);
      if (b >= kBits) return C(0);
      return left ? static_cast<C>(a << b) : static_cast<C>(a >> b);
    } else {
      return a;  // not instantiated for non-unsigned types (dispatch group)
    }
  }
};

struct PReluOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C x, C slope) const {
    if constexpr (kIsIntC<C>) {
      return x < 0 ? static_cast<C>(static_cast<uint64_t>(x) * static_cast<uint64_t>(slope)) : x;
    } else {
      return x < C(0) ? slope * x : x;
    }
  }
};

// ----------------------------------------------------------- variadic

template <typename C>
bool IsNan(C v) {
  if constexpr (kIsIntC<C>) {
    return false;
  } else {
    return std::isnan(v);
  }
}

struct MaxOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C a, C b) const {
    if (IsNan(a)) return a;
    if (IsNan(b)) return b;
    return a < b ? b : a;
  }
  template <typename C>
  C Finish(C acc, int64_t) const {
    return acc;
  }
};

struct MinOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C a, C b) const {
    if (IsNan(a)) return a;
    if (IsNan(b)) return b;
    return b < a ? b : a;
  }
  template <typename C>
  C Finish(C acc, int64_t) const {
    return acc;
  }
};

struct SumOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C a, C b) const {
    return a + b;
  }
  template <typename C>
  C Finish(C acc, int64_t) const {
    return acc;
  }
};

struct MeanOp : SumOp {
  template <typename C>
  C Finish(C acc, int64_t n) const {
    return acc / static_cast<C>(n);
  }
};

// ------------------------------------------------------------------ Pow

template <typename T>
T IntPowWrap(T base, uint64_t exp) {
  uint64_t result = 1;
  uint64_t b = static_cast<uint64_t>(base);
  while (exp != 0) {
    if (exp & 1u) result *= b;
    exp >>= 1;
    b *= b;
  }
  return static_cast<T>(result);
}

template <typename TX, typename TY>
TX PowElement(TX x, TY y) {
  if constexpr (kIsInteger<TX> && kIsInteger<TY>) {
    if (y >= 0) return IntPowWrap<TX>(x, static_cast<uint64_t>(y));
    // Negative integer exponent: 1 / x^|y| truncated (1, -1 or 0; x = 0 -> 0).
    if (x == 1) return 1;
    if (x == -1) return (static_cast<uint64_t>(y) & 1u) ? TX(-1) : TX(1);
    return 0;
  } else if constexpr (std::is_same_v<ComputeType<TX>, float> &&
                       !std::is_same_v<ComputeType<TY>, double>) {
    // FLOAT / FLOAT16 / BF16 base: computed in float.
    return FromCompute<TX>(std::pow(ToCompute(x), static_cast<float>(ToCompute(y))));
  } else {
    const double r = std::pow(static_cast<double>(ToCompute(x)), static_cast<double>(ToCompute(y)));
    return ConvertElement<TX>(r);
  }
}

ge::Status PowKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* y, GetKernelInput(ctx, 1));
  gert::Shape zs;
  ge::Status st = InferBroadcastShape(x->GetShape(), y->GetShape(), &zs);
  if (!st.ok()) return ctx.Error("inputs 0 and 1: ", st.message());
  const ge::DataType xt = x->GetDataType();
  if (xt != ge::DT_INT32 && xt != ge::DT_INT64 && !IsInGroups(xt, kTgAllFloat)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input 0 (X) data type ",
                             DataTypeName(xt), " is not supported");
  }
  ASSIGN_OR_RETURN(gert::Tensor* z, PrepareOutput(ctx, 0, zs, xt));
  ge::StatusOr<BroadcastIndex> bi = BroadcastIndex::Create({&x->GetShape(), &y->GetShape()}, zs);
  if (!bi.ok()) return WithNode(ctx, bi.status());
  return WithNode(ctx,
                  DispatchType<kTgAllFloat | kTgSigned>(
                      xt,
                      [&](auto xtag) {
                        using TX = typename decltype(xtag)::type;
                        if constexpr (std::is_same_v<TX, int8_t> || std::is_same_v<TX, int16_t>) {
                          return ge::NotSupported("X type ", DataTypeName(DataTypeOf<TX>()));
                        } else {
                          return DispatchType<kTgReal>(
                              y->GetDataType(),
                              [&](auto ytag) {
                                using TY = typename decltype(ytag)::type;
                                const TX* px = x->GetData<TX>();
                                const TY* py = y->GetData<TY>();
                                TX* pz = z->GetData<TX>();
                                bi->ForEach2([&](int64_t o, int64_t ia, int64_t ib) {
                                  pz[o] = PowElement(px[ia], py[ib]);
                                });
                                return ge::OkStatus();
                              },
                              "input 1 (Y)");
                        }
                      },
                      "input 0 (X)"));
}

// ---------------------------------------------------------------- PRelu

ge::Status InferPRelu(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  const gert::Shape* slope = ctx.GetInputShape(1);
  if (x == nullptr || slope == nullptr) return ctx.Error("inputs X and slope are required");
  gert::Shape b;
  ge::Status st = InferBroadcastShape(*x, *slope, &b);
  if (!st.ok()) return ctx.Error("slope does not broadcast to X: ", st.message());
  if (!x->IsUnknownRank() && !b.IsUnknownRank() && b.GetDimNum() != x->GetDimNum()) {
    return ctx.Error("slope ", slope->ToString(), " has a higher rank than X ", x->ToString());
  }
  if (!x->IsUnknownRank() && !slope->IsUnknownRank()) {
    const size_t r = x->GetDimNum();
    const size_t rs = slope->GetDimNum();
    for (size_t i = 0; i < rs; ++i) {
      const int64_t ds = slope->GetDim(rs - 1 - i);
      const int64_t dx = x->GetDim(r - 1 - i);
      if (ds != 1 && dx >= 0 && ds >= 0 && ds != dx) {
        return ctx.Error("slope ", slope->ToString(), " does not broadcast to X ", x->ToString(),
                         " (unidirectional)");
      }
    }
  }
  *ctx.GetOutputShape(0) = *x;
  return ge::OkStatus();
}

ge::Status PReluKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* s, GetKernelInput(ctx, 1));
  gert::Shape b;
  ge::Status st = InferBroadcastShape(x->GetShape(), s->GetShape(), &b);
  if (!st.ok() || b != x->GetShape()) {
    return ctx.Error("slope ", s->GetShape().ToString(), " does not broadcast to X ",
                     x->GetShape().ToString(), " (unidirectional)");
  }
  return BinaryKernel<kTgAllFloat | kTgSigned | kTgUnsigned, PReluOp>(ctx);
}

// ----------------------------------------------------------------- Clip

ge::Status VerifyClip(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(VerifySameInputTypes(ctx));
  for (size_t i = 1; i < 3; ++i) {
    const gert::Shape* s = ctx.GetInputShape(i);
    if (s == nullptr || s->IsUnknownRank()) continue;
    const int64_t n = s->GetShapeSize();
    if (n >= 0 && n != 1) {
      return ctx.Error("input ", i, (i == 1 ? " (min)" : " (max)"), " must be a scalar, got ",
                       s->ToString());
    }
  }
  return ge::OkStatus();
}

ge::Status ClipKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const gert::Tensor* bounds[2] = {nullptr, nullptr};
  const ge::DataType dt = x->GetDataType();
  for (size_t i = 1; i < 3 && i < ctx.GetInputNum(); ++i) {
    if (ctx.GetInputTensor(i) == nullptr) continue;
    ASSIGN_OR_RETURN(bounds[i - 1], GetKernelInput(ctx, i));
    if (bounds[i - 1]->GetShapeSize() != 1) {
      return ctx.Error("input ", i, (i == 1 ? " (min)" : " (max)"), " must be a scalar, got ",
                       bounds[i - 1]->GetShape().ToString());
    }
    if (bounds[i - 1]->GetDataType() != dt) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input ", i, " is ",
                               DataTypeName(bounds[i - 1]->GetDataType()), " but input 0 is ",
                               DataTypeName(dt));
    }
  }
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, x->GetShape(), dt));
  const int64_t n = x->GetShapeSize();
  return WithNode(ctx, DispatchType<kTgReal>(
                           dt,
                           [&](auto tag) {
                             using T = typename decltype(tag)::type;
                             using C = ComputeType<T>;
                             const bool has_lo = bounds[0] != nullptr;
                             const bool has_hi = bounds[1] != nullptr;
                             const C lo = has_lo ? ToCompute(bounds[0]->GetData<T>()[0]) : C();
                             const C hi = has_hi ? ToCompute(bounds[1]->GetData<T>()[0]) : C();
                             const T* in = x->GetData<T>();
                             T* out = y->GetData<T>();
                             for (int64_t i = 0; i < n; ++i) {
                               C v = ToCompute(in[i]);
                               if (has_lo && v < lo) v = lo;
                               if (has_hi && v > hi) v = hi;
                               out[i] = FromCompute<T>(v);
                             }
                             return ge::OkStatus();
                           },
                           "input 0"));
}

// ---------------------------------------------------------- registration

constexpr uint32_t kRealG = kTgReal;

#define OPS_REG_ARITH_(Type, OpT)       \
  REG_OP(Type)                          \
      .Input("A", NumericTypes())       \
      .Input("B", NumericTypes())       \
      .Output("C", NumericTypes())      \
      .InferShape(InferBroadcast)       \
      .InferDataType(InferSameAsInput0) \
      .Verify(VerifySameInputTypes);    \
  REG_KERNEL(Type, ge::kEngineHostCpu).Fn(BinaryKernel<kRealG, OpT>);

OPS_REG_ARITH_(Add, AddOp)
OPS_REG_ARITH_(Sub, SubOp)
OPS_REG_ARITH_(Mul, MulOp)
OPS_REG_ARITH_(Div, DivOp)
#undef OPS_REG_ARITH_

REG_OP(Mod)
    .Input("A", NumericTypes())
    .Input("B", NumericTypes())
    .Output("C", NumericTypes())
    .Attr("fmod", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferBroadcast)
    .InferDataType(InferSameAsInput0)
    .Verify(VerifySameInputTypes);
REG_KERNEL(Mod, ge::kEngineHostCpu).Fn(BinaryKernel<kRealG, ModOp>);

REG_OP(Pow)
    .Input("X", ge::TensorType{ge::DT_INT32, ge::DT_INT64, ge::DT_FLOAT16, ge::DT_FLOAT,
                               ge::DT_DOUBLE, ge::DT_BF16})
    .Input("Y", NumericTypes())
    .Output("Z", ge::TensorType{ge::DT_INT32, ge::DT_INT64, ge::DT_FLOAT16, ge::DT_FLOAT,
                                ge::DT_DOUBLE, ge::DT_BF16})
    .InferShape(InferBroadcast)
    .InferDataType(InferSameAsInput0);
REG_KERNEL(Pow, ge::kEngineHostCpu).Fn(PowKernel);

REG_OP(BitShift)
    .Input("X", UnsignedIntTypes())
    .Input("Y", UnsignedIntTypes())
    .Output("Z", UnsignedIntTypes())
    .RequiredAttr("direction", ge::AttrValue::VT_STRING)
    .InferShape(InferBroadcast)
    .InferDataType(InferSameAsInput0)
    .Verify(VerifySameInputTypes);
REG_KERNEL(BitShift, ge::kEngineHostCpu).Fn(BinaryKernel<kTgUnsigned, BitShiftOp>);

REG_OP(PRelu)
    .Input("X", ge::TensorType{ge::DT_BF16, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE,
                               ge::DT_UINT32, ge::DT_UINT64, ge::DT_INT32, ge::DT_INT64})
    .Input("slope", ge::TensorType{ge::DT_BF16, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE,
                                   ge::DT_UINT32, ge::DT_UINT64, ge::DT_INT32, ge::DT_INT64})
    .Output("Y", ge::TensorType{ge::DT_BF16, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE,
                                ge::DT_UINT32, ge::DT_UINT64, ge::DT_INT32, ge::DT_INT64})
    .InferShape(InferPRelu)
    .InferDataType(InferSameAsInput0)
    .Verify(VerifySameInputTypes);
REG_KERNEL(PRelu, ge::kEngineHostCpu).Fn(PReluKernel);

REG_OP(Clip)
    .Input("input", NumericTypes())
    .OptionalInput("min", NumericTypes())
    .OptionalInput("max", NumericTypes())
    .Output("output", NumericTypes())
    .InferShape(InferSameAsInput0)
    .InferDataType(InferSameAsInput0)
    .Verify(VerifyClip);
REG_KERNEL(Clip, ge::kEngineHostCpu).Fn(ClipKernel);

REG_OP(Max)
    .DynamicInput("data_0", NumericTypes())
    .Output("max", NumericTypes())
    .InferShape(InferBroadcast)
    .InferDataType(InferSameAsInput0)
    .Verify(VerifySameInputTypes);
REG_KERNEL(Max, ge::kEngineHostCpu).Fn(VariadicKernel<kRealG, MaxOp>);

REG_OP(Min)
    .DynamicInput("data_0", NumericTypes())
    .Output("min", NumericTypes())
    .InferShape(InferBroadcast)
    .InferDataType(InferSameAsInput0)
    .Verify(VerifySameInputTypes);
REG_KERNEL(Min, ge::kEngineHostCpu).Fn(VariadicKernel<kRealG, MinOp>);

REG_OP(Sum)
    .DynamicInput("data_0", FloatTypes())
    .Output("sum", FloatTypes())
    .InferShape(InferBroadcast)
    .InferDataType(InferSameAsInput0)
    .Verify(VerifySameInputTypes);
REG_KERNEL(Sum, ge::kEngineHostCpu).Fn(VariadicKernel<kTgAllFloat, SumOp>);

REG_OP(Mean)
    .DynamicInput("data_0", FloatTypes())
    .Output("mean", FloatTypes())
    .InferShape(InferBroadcast)
    .InferDataType(InferSameAsInput0)
    .Verify(VerifySameInputTypes);
REG_KERNEL(Mean, ge::kEngineHostCpu).Fn(VariadicKernel<kTgAllFloat, MeanOp>);

}  // namespace
}  // namespace ops
