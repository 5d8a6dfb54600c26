// ops/elementwise/unary_ops.cc
//
// Unary elementwise ops (ONNX opset 17 semantics): math functions and
// activations. Output shape = input shape; dtype = input dtype except IsInf /
// IsNaN (BOOL). FLOAT16 / BF16 are computed in float.
//
//   Abs Neg Sign Relu (ints and floats)   Erf Shrink (ints computed in double)
//   Acos Acosh Asin Asinh Atan Atanh Cos Cosh Sin Sinh Tan Tanh Exp Log Sqrt
//   Reciprocal Ceil Floor Round (half to even) Sigmoid Softplus Softsign
//   Elu Celu Selu LeakyRelu ThresholdedRelu HardSigmoid HardSwish Gelu
//   IsInf IsNaN
// Gelu is not in opset 17; it follows the opset 20 definition (attribute
// "approximate": "none" or "tanh").
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

// Wrapping negation for integers (no UB on the minimum value).
template <typename C>
C NegateWrap(C x) {
  if constexpr (kIsIntC<C>) {
    return static_cast<C>(uint64_t{0} - static_cast<uint64_t>(x));
  } else {
    return -x;
  }
}

// ----------------------------------------------------------- integer + float

struct AbsOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C x) const {
    if constexpr (std::is_unsigned_v<C>) {
      return x;
    } else if constexpr (kIsIntC<C>) {
      return x < 0 ? NegateWrap(x) : x;
    } else {
      return std::fabs(x);
    }
  }
};

struct NegOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C x) const {
    return NegateWrap(x);
  }
};

struct SignOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C x) const {
    if constexpr (!kIsIntC<C>) {
      if (std::isnan(x)) return x;
    }
    if (x > C(0)) return C(1);
    if constexpr (std::is_signed_v<C> || !kIsIntC<C>) {
      if (x < C(0)) return C(-1);
    }
    return C(0);
  }
};

struct ReluOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C x) const {
    return x > C(0) ? x : (x == x ? C(0) : x);  // NaN stays NaN
  }
};

// Integer inputs are computed in double and converted back (saturating).
template <typename C, typename F>
C ViaDouble(C x, F f) {
  if constexpr (kIsIntC<C>) {
    return ConvertElement<C>(f(static_cast<double>(x)));
  } else {
    return f(x);
  }
}

struct ErfOp : ElementwiseOpBase {
  template <typename C>
  C operator()(C x) const {
    return ViaDouble(x, [](auto v) { return std::erf(v); });
  }
};

struct ShrinkOp : ElementwiseOpBase {
  float bias = 0.0f;
  float lambd = 0.5f;
  ge::Status Init(const gert::ContextBase& ctx, ge::DataType) {
    ASSIGN_OR_RETURN(bias, ctx.GetFloatOr("bias", 0.0f));
    ASSIGN_OR_RETURN(lambd, ctx.GetFloatOr("lambd", 0.5f));
    return ge::OkStatus();
  }
  template <typename C>
  C operator()(C x) const {
    return ViaDouble(x, [this](auto v) {
      using V = decltype(v);
      if (v < static_cast<V>(-lambd)) return static_cast<V>(v + static_cast<V>(bias));
      if (v > static_cast<V>(lambd)) return static_cast<V>(v - static_cast<V>(bias));
      return V(0);
    });
  }
};

// --------------------------------------------------------------- float only

#define OPS_FLOAT_UNARY_(Name, expr) \
  struct Name : ElementwiseOpBase {  \
    template <typename C>            \
    C operator()(C x) const {        \
      return static_cast<C>(expr);   \
    }                                \
  };

OPS_FLOAT_UNARY_(AcosOp, std::acos(x))
OPS_FLOAT_UNARY_(AcoshOp, std::acosh(x))
OPS_FLOAT_UNARY_(AsinOp, std::asin(x))
OPS_FLOAT_UNARY_(AsinhOp, std::asinh(x))
OPS_FLOAT_UNARY_(AtanOp, std::atan(x))
OPS_FLOAT_UNARY_(AtanhOp, std::atanh(x))
OPS_FLOAT_UNARY_(CosOp, std::cos(x))
OPS_FLOAT_UNARY_(CoshOp, std::cosh(x))
OPS_FLOAT_UNARY_(SinOp, std::sin(x))
OPS_FLOAT_UNARY_(SinhOp, std::sinh(x))
OPS_FLOAT_UNARY_(TanOp, std::tan(x))
OPS_FLOAT_UNARY_(TanhOp, std::tanh(x))
OPS_FLOAT_UNARY_(ExpOp, std::exp(x))
OPS_FLOAT_UNARY_(LogOp, std::log(x))
OPS_FLOAT_UNARY_(SqrtOp, std::sqrt(x))
OPS_FLOAT_UNARY_(ReciprocalOp, C(1) / x)
OPS_FLOAT_UNARY_(CeilOp, std::ceil(x))
OPS_FLOAT_UNARY_(FloorOp, std::floor(x))
OPS_FLOAT_UNARY_(RoundOp, std::nearbyint(x))  // default rounding: half to even
OPS_FLOAT_UNARY_(SigmoidOp,
                 x >= C(0) ? C(1) / (C(1) + std::exp(-x)) : std::exp(x) / (C(1) + std::exp(x)))
// log(1 + e^x) without overflow.
OPS_FLOAT_UNARY_(SoftplusOp, x > C(0) ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)))
OPS_FLOAT_UNARY_(SoftsignOp, x / (C(1) + std::fabs(x)))
OPS_FLOAT_UNARY_(HardSwishOp, x* std::fmax(C(0), std::fmin(C(1), x / C(6) + C(0.5))))
#undef OPS_FLOAT_UNARY_

struct EluOp : ElementwiseOpBase {
  float alpha = 1.0f;
  ge::Status Init(const gert::ContextBase& ctx, ge::DataType) {
    ASSIGN_OR_RETURN(alpha, ctx.GetFloatOr("alpha", 1.0f));
    return ge::OkStatus();
  }
  template <typename C>
  C operator()(C x) const {
    return x < C(0) ? static_cast<C>(alpha) * std::expm1(x) : x;
  }
};

struct CeluOp : ElementwiseOpBase {
  float alpha = 1.0f;
  ge::Status Init(const gert::ContextBase& ctx, ge::DataType) {
    ASSIGN_OR_RETURN(alpha, ctx.GetFloatOr("alpha", 1.0f));
    if (alpha == 0.0f) return ctx.Error("attribute alpha must not be 0");
    return ge::OkStatus();
  }
  template <typename C>
  C operator()(C x) const {
    const C a = static_cast<C>(alpha);
    return std::fmax(C(0), x) + std::fmin(C(0), a * std::expm1(x / a));
  }
};

struct SeluOp : ElementwiseOpBase {
  float alpha = 1.67326319217681884765625f;
  float gamma = 1.05070102214813232421875f;
  ge::Status Init(const gert::ContextBase& ctx, ge::DataType) {
    ASSIGN_OR_RETURN(alpha, ctx.GetFloatOr("alpha", alpha));
    ASSIGN_OR_RETURN(gamma, ctx.GetFloatOr("gamma", gamma));
    return ge::OkStatus();
  }
  template <typename C>
  C operator()(C x) const {
    const C g = static_cast<C>(gamma);
    return x > C(0) ? g * x : g * (static_cast<C>(alpha) * std::exp(x) - static_cast<C>(alpha));
  }
};

struct LeakyReluOp : ElementwiseOpBase {
  float alpha = 0.01f;
  ge::Status Init(const gert::ContextBase& ctx, ge::DataType) {
    ASSIGN_OR_RETURN(alpha, ctx.GetFloatOr("alpha", 0.01f));
    return ge::OkStatus();
  }
  template <typename C>
  C operator()(C x) const {
    return x < C(0) ? static_cast<C>(alpha) * x : x;
  }
};

struct ThresholdedReluOp : ElementwiseOpBase {
  float alpha = 1.0f;
  ge::Status Init(const gert::ContextBase& ctx, ge::DataType) {
    ASSIGN_OR_RETURN(alpha, ctx.GetFloatOr("alpha", 1.0f));
    return ge::OkStatus();
  }
  template <typename C>
  C operator()(C x) const {
    return x > static_cast<C>(alpha) ? x : C(0);
  }
};

struct HardSigmoidOp : ElementwiseOpBase {
  float alpha = 0.2f;
  float beta = 0.5f;
  ge::Status Init(const gert::ContextBase& ctx, ge::DataType) {
    ASSIGN_OR_RETURN(alpha, ctx.GetFloatOr("alpha", 0.2f));
    ASSIGN_OR_RETURN(beta, ctx.GetFloatOr("beta", 0.5f));
    return ge::OkStatus();
  }
  template <typename C>
  C operator()(C x) const {
    return std::fmax(C(0), std::fmin(C(1), static_cast<C>(alpha) * x + static_cast<C>(beta)));
  }
};

struct GeluOp : ElementwiseOpBase {
  bool tanh_approx = false;
  ge::Status Init(const gert::ContextBase& ctx, ge::DataType) {
    ASSIGN_OR_RETURN(std::string mode, ctx.GetStrOr("approximate", "none"));
    if (mode == "none") {
      tanh_approx = false;
    } else if (mode == "tanh") {
      tanh_approx = true;
    } else {
      return ctx.Error("attribute approximate must be \"none\" or \"tanh\", got \"", mode, "\"");
    }
    return ge::OkStatus();
  }
  template <typename C>
  C operator()(C x) const {
    if (tanh_approx) {
      const C k = static_cast<C>(0.7978845608028654);  // sqrt(2 / pi)
      return C(0.5) * x * (C(1) + std::tanh(k * (x + C(0.044715) * x * x * x)));
    }
    return C(0.5) * x * (C(1) + std::erf(x * static_cast<C>(0.7071067811865476)));
  }
};

struct IsNaNOp : ElementwiseOpBase {
  static constexpr bool kBoolOut = true;
  template <typename C>
  bool operator()(C x) const {
    return std::isnan(x);
  }
};

struct IsInfOp : ElementwiseOpBase {
  static constexpr bool kBoolOut = true;
  bool negative = true;
  bool positive = true;
  ge::Status Init(const gert::ContextBase& ctx, ge::DataType) {
    ASSIGN_OR_RETURN(int64_t n, ctx.GetIntOr("detect_negative", 1));
    ASSIGN_OR_RETURN(int64_t p, ctx.GetIntOr("detect_positive", 1));
    negative = n != 0;
    positive = p != 0;
    return ge::OkStatus();
  }
  template <typename C>
  bool operator()(C x) const {
    return std::isinf(x) && (x > 0 ? positive : negative);
  }
};

constexpr uint32_t kFloatG = kTgAllFloat;
constexpr uint32_t kSignedG = kTgAllFloat | kTgSigned;
constexpr uint32_t kRealG = kTgReal;

// ------------------------------------------------------------ registration

#define OPS_REG_FLOAT_UNARY_(Type, OpT, in, out) \
  REG_OP(Type)                                   \
      .Input(in, FloatTypes())                   \
      .Output(out, FloatTypes())                 \
      .InferShape(InferSameAsInput0)             \
      .InferDataType(InferSameAsInput0);         \
  REG_KERNEL(Type, ge::kEngineHostCpu).Fn(UnaryKernel<kFloatG, OpT>);

OPS_REG_FLOAT_UNARY_(Acos, AcosOp, "input", "output")
OPS_REG_FLOAT_UNARY_(Acosh, AcoshOp, "input", "output")
OPS_REG_FLOAT_UNARY_(Asin, AsinOp, "input", "output")
OPS_REG_FLOAT_UNARY_(Asinh, AsinhOp, "input", "output")
OPS_REG_FLOAT_UNARY_(Atan, AtanOp, "input", "output")
OPS_REG_FLOAT_UNARY_(Atanh, AtanhOp, "input", "output")
OPS_REG_FLOAT_UNARY_(Cos, CosOp, "input", "output")
OPS_REG_FLOAT_UNARY_(Cosh, CoshOp, "input", "output")
OPS_REG_FLOAT_UNARY_(Sin, SinOp, "input", "output")
OPS_REG_FLOAT_UNARY_(Sinh, SinhOp, "input", "output")
OPS_REG_FLOAT_UNARY_(Tan, TanOp, "input", "output")
OPS_REG_FLOAT_UNARY_(Tanh, TanhOp, "input", "output")
OPS_REG_FLOAT_UNARY_(Exp, ExpOp, "input", "output")
OPS_REG_FLOAT_UNARY_(Log, LogOp, "input", "output")
OPS_REG_FLOAT_UNARY_(Sqrt, SqrtOp, "X", "Y")
OPS_REG_FLOAT_UNARY_(Reciprocal, ReciprocalOp, "X", "Y")
OPS_REG_FLOAT_UNARY_(Ceil, CeilOp, "X", "Y")
OPS_REG_FLOAT_UNARY_(Floor, FloorOp, "X", "Y")
OPS_REG_FLOAT_UNARY_(Round, RoundOp, "X", "Y")
OPS_REG_FLOAT_UNARY_(Sigmoid, SigmoidOp, "X", "Y")
OPS_REG_FLOAT_UNARY_(Softplus, SoftplusOp, "X", "Y")
OPS_REG_FLOAT_UNARY_(Softsign, SoftsignOp, "input", "output")
OPS_REG_FLOAT_UNARY_(HardSwish, HardSwishOp, "X", "Y")
#undef OPS_REG_FLOAT_UNARY_

REG_OP(Abs)
    .Input("X", NumericTypes())
    .Output("Y", NumericTypes())
    .InferShape(InferSameAsInput0)
    .InferDataType(InferSameAsInput0);
REG_KERNEL(Abs, ge::kEngineHostCpu).Fn(UnaryKernel<kRealG, AbsOp>);

REG_OP(Neg)
    .Input("X", SignedNumericTypes())
    .Output("Y", SignedNumericTypes())
    .InferShape(InferSameAsInput0)
    .InferDataType(InferSameAsInput0);
REG_KERNEL(Neg, ge::kEngineHostCpu).Fn(UnaryKernel<kSignedG, NegOp>);

REG_OP(Sign)
    .Input("input", NumericTypes())
    .Output("output", NumericTypes())
    .InferShape(InferSameAsInput0)
    .InferDataType(InferSameAsInput0);
REG_KERNEL(Sign, ge::kEngineHostCpu).Fn(UnaryKernel<kRealG, SignOp>);

REG_OP(Relu)
    .Input("X", SignedNumericTypes())
    .Output("Y", SignedNumericTypes())
    .InferShape(InferSameAsInput0)
    .InferDataType(InferSameAsInput0);
REG_KERNEL(Relu, ge::kEngineHostCpu).Fn(UnaryKernel<kSignedG, ReluOp>);

REG_OP(Erf)
    .Input("input", NumericTypes())
    .Output("output", NumericTypes())
    .InferShape(InferSameAsInput0)
    .InferDataType(InferSameAsInput0);
REG_KERNEL(Erf, ge::kEngineHostCpu).Fn(UnaryKernel<kRealG, ErfOp>);

REG_OP(Shrink)
    .Input("input", NumericTypes())
    .Output("output", NumericTypes())
    .Attr("bias", ge::AttrValue::CreateFrom<float>(0.0f))
    .Attr("lambd", ge::AttrValue::CreateFrom<float>(0.5f))
    .InferShape(InferSameAsInput0)
    .InferDataType(InferSameAsInput0);
REG_KERNEL(Shrink, ge::kEngineHostCpu).Fn(UnaryKernel<kRealG, ShrinkOp>);

REG_OP(Elu)
    .Input("X", FloatTypes())
    .Output("Y", FloatTypes())
    .Attr("alpha", ge::AttrValue::CreateFrom<float>(1.0f))
    .InferShape(InferSameAsInput0)
    .InferDataType(InferSameAsInput0);
REG_KERNEL(Elu, ge::kEngineHostCpu).Fn(UnaryKernel<kFloatG, EluOp>);

REG_OP(Celu)
    .Input("X", FloatTypes())
    .Output("Y", FloatTypes())
    .Attr("alpha", ge::AttrValue::CreateFrom<float>(1.0f))
    .InferShape(InferSameAsInput0)
    .InferDataType(InferSameAsInput0);
REG_KERNEL(Celu, ge::kEngineHostCpu).Fn(UnaryKernel<kFloatG, CeluOp>);

REG_OP(Selu)
    .Input("X", FloatTypes())
    .Output("Y", FloatTypes())
    .Attr("alpha", ge::AttrValue::CreateFrom<float>(1.67326319217681884765625f))
    .Attr("gamma", ge::AttrValue::CreateFrom<float>(1.05070102214813232421875f))
    .InferShape(InferSameAsInput0)
    .InferDataType(InferSameAsInput0);
REG_KERNEL(Selu, ge::kEngineHostCpu).Fn(UnaryKernel<kFloatG, SeluOp>);

REG_OP(LeakyRelu)
    .Input("X", FloatTypes())
    .Output("Y", FloatTypes())
    .Attr("alpha", ge::AttrValue::CreateFrom<float>(0.01f))
    .InferShape(InferSameAsInput0)
    .InferDataType(InferSameAsInput0);
REG_KERNEL(LeakyRelu, ge::kEngineHostCpu).Fn(UnaryKernel<kFloatG, LeakyReluOp>);

REG_OP(ThresholdedRelu)
    .Input("X", FloatTypes())
    .Output("Y", FloatTypes())
    .Attr("alpha", ge::AttrValue::CreateFrom<float>(1.0f))
    .InferShape(InferSameAsInput0)
    .InferDataType(InferSameAsInput0);
REG_KERNEL(ThresholdedRelu, ge::kEngineHostCpu).Fn(UnaryKernel<kFloatG, ThresholdedReluOp>);

REG_OP(HardSigmoid)
    .Input("X", FloatTypes())
    .Output("Y", FloatTypes())
    .Attr("alpha", ge::AttrValue::CreateFrom<float>(0.2f))
    .Attr("beta", ge::AttrValue::CreateFrom<float>(0.5f))
    .InferShape(InferSameAsInput0)
    .InferDataType(InferSameAsInput0);
REG_KERNEL(HardSigmoid, ge::kEngineHostCpu).Fn(UnaryKernel<kFloatG, HardSigmoidOp>);

REG_OP(Gelu)
    .Input("X", FloatTypes())
    .Output("Y", FloatTypes())
    .Attr("approximate", ge::AttrValue::CreateFrom<std::string>("none"))
    .InferShape(InferSameAsInput0)
    .InferDataType(InferSameAsInput0);
REG_KERNEL(Gelu, ge::kEngineHostCpu).Fn(UnaryKernel<kFloatG, GeluOp>);

REG_OP(IsNaN)
    .Input("X", FloatTypes())
    .Output("Y", BoolTypes())
    .InferShape(InferShapeSameAsInput0)
    .InferDataType(InferDataTypeBool);
REG_KERNEL(IsNaN, ge::kEngineHostCpu).Fn(UnaryKernel<kFloatG, IsNaNOp>);

REG_OP(IsInf)
    .Input("X", FloatTypes())
    .Output("Y", BoolTypes())
    .Attr("detect_negative", ge::AttrValue::CreateFrom<int64_t>(1))
    .Attr("detect_positive", ge::AttrValue::CreateFrom<int64_t>(1))
    .InferShape(InferShapeSameAsInput0)
    .InferDataType(InferDataTypeBool);
REG_KERNEL(IsInf, ge::kEngineHostCpu).Fn(UnaryKernel<kFloatG, IsInfOp>);

}  // namespace
}  // namespace ops
