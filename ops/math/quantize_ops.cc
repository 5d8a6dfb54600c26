// ops/math/quantize_ops.cc
//
// Linear quantization (ONNX opset 13 QuantizeLinear / DequantizeLinear,
// opset 11 DynamicQuantizeLinear).
//   QuantizeLinear    y = saturate(round_half_even(x / y_scale) + y_zero_point);
//                     y's type is y_zero_point's (UINT8 when it is absent).
//   DequantizeLinear  y = (x - x_zero_point) * x_scale, FLOAT.
//   Scale / zero point: one element (per tensor) or a 1-D tensor with
//   x.shape[axis] elements (per axis; attribute `axis`, default 1, negative
//   counts from the back); zero point and scale must have the same shape.
//   DynamicQuantizeLinear  x FLOAT -> y UINT8, y_scale (FLOAT scalar) and
//                     y_zero_point (UINT8 scalar): the range [min(0, min x),
//                     max(0, max x)] maps onto [0, 255]. An all-zero (or
//                     empty) x gives scale 0, zero point 0, y all 0; NaN
//                     elements are ignored for the range and quantize to 0.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"
#include "ops/math/math_util.h"

namespace ops {
namespace {

// How scale / zero point elements map onto x: element e uses parameter
// (e / inner) % channels (channels == 1: per tensor).
struct AxisParams {
  int64_t channels = 1;
  int64_t inner = 1;
  int64_t Index(int64_t e) const { return channels == 1 ? 0 : (e / inner) % channels; }
};

// Validates scale (input 1) and zero point (input 2, optional) shapes against
// x; with known dims fills *p. x dims may be -1 (infer), then checks are
// skipped where they depend on them.
ge::Status CheckQuantParams(const gert::ContextBase& ctx, const gert::Shape& x,
                            const gert::Shape& scale, const gert::Shape* zp, const char* scale_name,
                            const char* zp_name, AxisParams* p) {
  if (zp != nullptr && !zp->IsUnknownRank() && !scale.IsUnknownRank() && *zp != scale &&
      !(zp->GetShapeSize() == 1 && scale.GetShapeSize() == 1)) {
    return ctx.Error(zp_name, " shape ", zp->ToString(), " must equal ", scale_name, " shape ",
                     scale.ToString());
  }
  if (scale.IsUnknownRank()) return ge::OkStatus();
  const int64_t count = scale.GetShapeSize();
  if (scale.GetDimNum() > 1) {
    return ctx.Error(scale_name, " must be a scalar or 1-D, got shape ", scale.ToString());
  }
  if (count == 1 || scale.IsScalar()) return ge::OkStatus();  // per tensor
  if (count < 0) return ge::OkStatus();                       // unknown length
  ASSIGN_OR_RETURN(int64_t axis, ctx.GetIntOr("axis", 1));
  if (x.IsUnknownRank()) return ge::OkStatus();
  const int64_t rank = static_cast<int64_t>(x.GetDimNum());
  auto ax = NormalizeAxis(axis, rank);
  if (!ax.ok()) {
    return ctx.Error("attribute axis: ", ax.status().message(), " (per-axis ", scale_name, " with ",
                     count, " elements)");
  }
  const int64_t c = x.GetDim(static_cast<size_t>(*ax));
  if (c >= 0 && c != count) {
    return ctx.Error(scale_name, " has ", count, " elements but input 0 (x) ", x.ToString(),
                     " has ", c, " along axis ", axis);
  }
  p->channels = count;
  p->inner = 1;
  for (size_t i = static_cast<size_t>(*ax) + 1; i < x.GetDimNum(); ++i) p->inner *= x.GetDim(i);
  return ge::OkStatus();
}

ge::Status InferSameShape(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (x) is missing");
  const gert::Shape* s = ctx.GetInputShape(1);
  if (s == nullptr) return ctx.Error("input 1 (scale) is missing");
  AxisParams p;
  RETURN_IF_ERROR(CheckQuantParams(ctx, *x, *s, ctx.GetInputShape(2), "input 1 (scale)",
                                   "input 2 (zero_point)", &p));
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 (y) is missing");
  *y = *x;
  return CopyInputRange(ctx, 0, 0);
}

ge::Status CheckScaleType(const gert::ContextBase& ctx, ge::DataType dt, const char* name) {
  if (dt != ge::DT_FLOAT) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, name, " must be DT_FLOAT, got ",
                             DataTypeName(dt));
  }
  return ge::OkStatus();
}

// ---------------------------------------------------------------- QuantizeLinear

ge::Status InferQuantizeType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0,
                        ctx.GetInputShape(2) != nullptr ? ctx.GetInputDataType(2) : ge::DT_UINT8);
  return ge::OkStatus();
}

ge::Status VerifyQuantize(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(CheckScaleType(ctx, ctx.GetInputDataType(1), "input 1 (y_scale)"));
  if (ctx.GetInputShape(2) != nullptr) {
    const ge::DataType z = ctx.GetInputDataType(2);
    if (z != ge::DT_INT8 && z != ge::DT_UINT8) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch,
                               "input 2 (y_zero_point) must be INT8 or UINT8, got ",
                               DataTypeName(z));
    }
  }
  return ge::OkStatus();
}

template <typename X, typename Y>
void Quantize(const X* x, int64_t count, const float* scale, const Y* zp, const AxisParams& p,
              Y* y) {
  for (int64_t e = 0; e < count; ++e) {
    const int64_t c = p.Index(e);
    const float v = RoundHalfEven(static_cast<float>(ToCompute(x[e])) / scale[c]);
    const double z = zp != nullptr ? static_cast<double>(zp[c]) : 0.0;
    y[e] = SaturateCast<Y>(static_cast<double>(v) + z);
  }
}

ge::Status QuantizeKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* s, GetKernelInput(ctx, 1));
  const gert::Tensor* z = nullptr;
  if (ctx.GetInputTensor(2) != nullptr) {
    ASSIGN_OR_RETURN(z, GetKernelInput(ctx, 2));
  }
  RETURN_IF_ERROR(CheckScaleType(ctx, s->GetDataType(), "input 1 (y_scale)"));
  const ge::DataType ydt = z != nullptr ? z->GetDataType() : ge::DT_UINT8;
  if (ydt != ge::DT_INT8 && ydt != ge::DT_UINT8) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch,
                             "input 2 (y_zero_point) must be INT8 or UINT8, got ",
                             DataTypeName(ydt));
  }
  AxisParams p;
  RETURN_IF_ERROR(CheckQuantParams(ctx, x->GetShape(), s->GetShape(), z ? &z->GetShape() : nullptr,
                                   "input 1 (y_scale)", "input 2 (y_zero_point)", &p));
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, x->GetShape(), ydt));
  const int64_t count = x->GetShapeSize();
  if (count == 0) return ge::OkStatus();
  const float* scale = s->GetData<float>();
  return WithNode(
      ctx, DispatchType<kTgAllFloat | kTgSigned>(
               x->GetDataType(),
               [&](auto tag) -> ge::Status {
                 using X = typename decltype(tag)::type;
                 if constexpr (kIsInteger<X>) {
                   if (!std::is_same<X, int32_t>::value) {
                     return ge::NotSupported(
                         "QuantizeLinear input 0 (x) must be a float type or INT32, got ",
                         DataTypeName(x->GetDataType()));
                   }
                 }
                 if (ydt == ge::DT_UINT8) {
                   Quantize<X, uint8_t>(x->GetData<X>(), count, scale,
                                        z ? z->GetData<uint8_t>() : nullptr, p,
                                        y->GetData<uint8_t>());
                 } else {
                   Quantize<X, int8_t>(x->GetData<X>(), count, scale,
                                       z ? z->GetData<int8_t>() : nullptr, p, y->GetData<int8_t>());
                 }
                 return ge::OkStatus();
               },
               "QuantizeLinear input x"));
}

// ---------------------------------------------------------------- DequantizeLinear

ge::Status InferDequantizeType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ge::DT_FLOAT);
  return ge::OkStatus();
}

ge::Status VerifyDequantize(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(CheckScaleType(ctx, ctx.GetInputDataType(1), "input 1 (x_scale)"));
  if (ctx.GetInputShape(2) != nullptr && ctx.GetInputDataType(2) != ctx.GetInputDataType(0)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input 2 (x_zero_point) is ",
                             DataTypeName(ctx.GetInputDataType(2)), " but input 0 (x) is ",
                             DataTypeName(ctx.GetInputDataType(0)));
  }
  return ge::OkStatus();
}

ge::Status DequantizeKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* s, GetKernelInput(ctx, 1));
  const gert::Tensor* z = nullptr;
  if (ctx.GetInputTensor(2) != nullptr) {
    ASSIGN_OR_RETURN(z, GetKernelInput(ctx, 2));
  }
  RETURN_IF_ERROR(CheckScaleType(ctx, s->GetDataType(), "input 1 (x_scale)"));
  if (z != nullptr && z->GetDataType() != x->GetDataType()) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input 2 (x_zero_point) is ",
                             DataTypeName(z->GetDataType()), " but input 0 (x) is ",
                             DataTypeName(x->GetDataType()));
  }
  AxisParams p;
  RETURN_IF_ERROR(CheckQuantParams(ctx, x->GetShape(), s->GetShape(), z ? &z->GetShape() : nullptr,
                                   "input 1 (x_scale)", "input 2 (x_zero_point)", &p));
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, x->GetShape(), ge::DT_FLOAT));
  const int64_t count = x->GetShapeSize();
  if (count == 0) return ge::OkStatus();
  const float* scale = s->GetData<float>();
  float* out = y->GetData<float>();
  return WithNode(
      ctx, DispatchType<kTgSigned | kTgUnsigned>(
               x->GetDataType(),
               [&](auto tag) -> ge::Status {
                 using X = typename decltype(tag)::type;
                 if constexpr (!std::is_same<X, int8_t>::value &&
                               !std::is_same<X, uint8_t>::value &&
                               !std::is_same<X, int32_t>::value) {
                   return ge::NotSupported(
                       "DequantizeLinear input 0 (x) must be INT8, UINT8 or INT32, got ",
                       DataTypeName(x->GetDataType()));
                 } else {
                   const X* in = x->GetData<X>();
                   const X* zp = z ? z->GetData<X>() : nullptr;
                   for (int64_t e = 0; e < count; ++e) {
                     const int64_t c = p.Index(e);
                     const int64_t diff =
                         static_cast<int64_t>(in[e]) - (zp ? static_cast<int64_t>(zp[c]) : 0);
                     out[e] = static_cast<float>(diff) * scale[c];
                   }
                   return ge::OkStatus();
                 }
               },
               "DequantizeLinear input x"));
}

// ---------------------------------------------------------------- DynamicQuantizeLinear

ge::Status InferDynamicQuantize(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (x) is missing");
  if (ctx.GetOutputNum() < 3) {
    return ctx.Error("expects 3 outputs (y, y_scale, y_zero_point), got ", ctx.GetOutputNum());
  }
  *ctx.GetOutputShape(0) = *x;
  *ctx.GetOutputShape(1) = gert::Shape{};
  *ctx.GetOutputShape(2) = gert::Shape{};
  return CopyInputRange(ctx, 0, 0);  // y_scale / y_zero_point are scalars
}

ge::Status InferDynamicQuantizeType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ge::DT_UINT8);
  ctx.SetOutputDataType(1, ge::DT_FLOAT);
  ctx.SetOutputDataType(2, ge::DT_UINT8);
  return ge::OkStatus();
}

ge::Status DynamicQuantizeKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  if (x->GetDataType() != ge::DT_FLOAT) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input 0 (x) must be DT_FLOAT, got ",
                             DataTypeName(x->GetDataType()));
  }
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, x->GetShape(), ge::DT_UINT8));
  ASSIGN_OR_RETURN(gert::Tensor* ys, PrepareOutput(ctx, 1, gert::Shape{}, ge::DT_FLOAT));
  ASSIGN_OR_RETURN(gert::Tensor* yz, PrepareOutput(ctx, 2, gert::Shape{}, ge::DT_UINT8));
  const int64_t count = x->GetShapeSize();
  const float* in = x->GetData<float>();
  float lo = 0.0f, hi = 0.0f;
  for (int64_t i = 0; i < count; ++i) {
    const float v = in[i];
    if (v < lo) lo = v;  // NaN compares false: ignored
    if (v > hi) hi = v;
  }
  const float scale = (hi - lo) / 255.0f;
  uint8_t zp = 0;
  if (scale > 0.0f && std::isfinite(scale)) {
    zp = SaturateCast<uint8_t>(static_cast<double>(RoundHalfEven(0.0f - lo / scale)));
  }
  uint8_t* out = y->GetData<uint8_t>();
  if (scale > 0.0f && std::isfinite(scale)) {
    for (int64_t i = 0; i < count; ++i) {
      const float q = RoundHalfEven(in[i] / scale) + static_cast<float>(zp);
      out[i] = SaturateCast<uint8_t>(static_cast<double>(q));
    }
  } else {
    std::fill(out, out + count, uint8_t{0});
  }
  ys->GetData<float>()[0] = scale;
  yz->GetData<uint8_t>()[0] = zp;
  return ge::OkStatus();
}

}  // namespace

REG_OP(QuantizeLinear)
    .Input("x", ge::TensorType({ge::DT_FLOAT, ge::DT_INT32}))
    .Input("y_scale", ge::TensorType(ge::DT_FLOAT))
    .OptionalInput("y_zero_point", ge::TensorType({ge::DT_INT8, ge::DT_UINT8}))
    .Output("y", ge::TensorType({ge::DT_INT8, ge::DT_UINT8}))
    .Attr("axis", ge::AttrValue::CreateFrom<int64_t>(1))
    .InferShape(InferSameShape)
    .InferDataType(InferQuantizeType)
    .Verify(VerifyQuantize);
REG_KERNEL(QuantizeLinear, ge::kEngineHostCpu).Fn(QuantizeKernel);

REG_OP(DequantizeLinear)
    .Input("x", ge::TensorType({ge::DT_INT8, ge::DT_UINT8, ge::DT_INT32}))
    .Input("x_scale", ge::TensorType(ge::DT_FLOAT))
    .OptionalInput("x_zero_point", ge::TensorType({ge::DT_INT8, ge::DT_UINT8, ge::DT_INT32}))
    .Output("y", ge::TensorType(ge::DT_FLOAT))
    .Attr("axis", ge::AttrValue::CreateFrom<int64_t>(1))
    .InferShape(InferSameShape)
    .InferDataType(InferDequantizeType)
    .Verify(VerifyDequantize);
REG_KERNEL(DequantizeLinear, ge::kEngineHostCpu).Fn(DequantizeKernel);

REG_OP(DynamicQuantizeLinear)
    .Input("x", ge::TensorType(ge::DT_FLOAT))
    .Output("y", ge::TensorType(ge::DT_UINT8))
    .Output("y_scale", ge::TensorType(ge::DT_FLOAT))
    .Output("y_zero_point", ge::TensorType(ge::DT_UINT8))
    .InferShape(InferDynamicQuantize)
    .InferDataType(InferDynamicQuantizeType);
REG_KERNEL(DynamicQuantizeLinear, ge::kEngineHostCpu).Fn(DynamicQuantizeKernel);

}  // namespace ops
