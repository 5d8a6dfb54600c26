// ops/nn/layout.cc
//
// Dropout (opset 13), DepthToSpace (DCR / CRD) and SpaceToDepth.
//
// Dropout: in inference (training_mode absent or false, or ratio 0) the
// output is the input and the optional mask is all true. In training mode
// each element is kept with probability 1 - ratio and scaled by
// 1 / (1 - ratio); the random stream is seeded by the `seed` attribute
// (a fixed default when absent, so runs are reproducible).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"
#include "ops/nn/nn_util.h"

namespace ops {
namespace nn {
namespace {

// ------------------------------------------------------------------ Dropout

ge::Status InferDropout(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (data) is missing");
  if (y == nullptr) return ctx.Error("output 0 (output) is missing");
  for (size_t i : {1, 2}) {
    const gert::Shape* s = ctx.GetInputShape(i);
    if (s != nullptr && !s->IsUnknownRank() && s->GetShapeSize() > 1) {
      return ctx.Error("input ", i, i == 1 ? " (ratio)" : " (training_mode)", " shape ",
                       s->ToString(), " must be a scalar");
    }
  }
  *y = *x;
  if (ctx.GetOutputShape(1) != nullptr) *ctx.GetOutputShape(1) = *x;
  return CopyInputRangeToOutputs(ctx, 0);  // output and mask have data's shape
}

ge::Status InferDropoutType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ctx.GetInputDataType(0));
  ctx.SetOutputDataType(1, ge::DT_BOOL);
  return ge::OkStatus();
}

ge::Status DropoutKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* ratio_t, GetOptionalInput(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Tensor* train_t, GetOptionalInput(ctx, 2));
  double ratio = 0.5;
  if (ratio_t != nullptr) {
    if (ratio_t->GetShapeSize() != 1) {
      return ctx.Error("input 1 (ratio) shape ", ratio_t->GetShape().ToString(),
                       " must be a scalar");
    }
    ge::StatusOr<std::vector<double>> v = ReadAsDoubles(*ratio_t);
    if (!v.ok()) return WithNode(ctx, ge::Annotate(v.status(), "input 1 (ratio): "));
    ratio = (*v)[0];
  }
  bool training = false;
  if (train_t != nullptr) {
    if (train_t->GetShapeSize() != 1 || train_t->GetDataType() != ge::DT_BOOL) {
      return ctx.Error("input 2 (training_mode) must be a BOOL scalar, got ",
                       train_t->GetShape().ToString(), " ", DataTypeName(train_t->GetDataType()));
    }
    training = train_t->GetData<bool>()[0];
  }
  if (!(ratio >= 0.0 && ratio < 1.0)) {
    return ctx.Error("input 1 (ratio) is ", ratio, "; it must be in [0, 1)");
  }
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, x->GetShape(), x->GetDataType()));
  ASSIGN_OR_RETURN(gert::Tensor * mask,
                   PrepareOptionalOutput(ctx, 1, x->GetShape(), ge::DT_BOOL));
  const int64_t count = x->GetShapeSize();
  bool* m = mask != nullptr ? mask->GetData<bool>() : nullptr;
  if (!training || ratio == 0.0) {
    ASSIGN_OR_RETURN(size_t bytes, gert::HostStorageBytes(x->GetDataType(), count));
    if (bytes > 0 && y->GetAddr() != x->GetAddr()) std::memcpy(y->GetAddr(), x->GetAddr(), bytes);
    if (m != nullptr) std::fill(m, m + count, true);
    return ge::OkStatus();
  }
  ASSIGN_OR_RETURN(int64_t seed, ctx.GetIntOr("seed", 0));
  std::mt19937_64 rng(static_cast<uint64_t>(seed));
  std::uniform_real_distribution<double> uni(0.0, 1.0);
  const double scale = 1.0 / (1.0 - ratio);
  return WithNode(ctx, DispatchType<kTgAllFloat>(
                           x->GetDataType(),
                           [&](auto tag) {
                             using T = typename decltype(tag)::type;
                             using C = ComputeType<T>;
                             const T* in = x->GetData<T>();
                             T* out = y->GetData<T>();
                             for (int64_t i = 0; i < count; ++i) {
                               const bool keep = uni(rng) >= ratio;
                               out[i] =
                                   keep ? FromCompute<T>(static_cast<C>(ToCompute(in[i]) * scale))
                                        : FromCompute<T>(C{0});
                               if (m != nullptr) m[i] = keep;
                             }
                             return ge::OkStatus();
                           },
                           "Dropout input data"));
}

// ------------------------------------------------------------------ DepthToSpace / SpaceToDepth

ge::StatusOr<int64_t> BlockSize(const gert::ContextBase& ctx) {
  ASSIGN_OR_RETURN(int64_t b, ctx.GetInt("blocksize"));
  if (b < 1 || b > (int64_t{1} << 20)) {
    return ctx.Error("attribute blocksize (", b, ") must be in [1, 2^20]");
  }
  return b;
}

ge::StatusOr<bool> IsCrd(const gert::ContextBase& ctx) {
  ASSIGN_OR_RETURN(std::string mode, ctx.GetStrOr("mode", "DCR"));
  if (mode != "DCR" && mode != "CRD") {
    return ctx.Error("attribute mode \"", mode, "\" must be DCR or CRD");
  }
  return mode == "CRD";
}

// Output dims of DepthToSpace (to_space) or SpaceToDepth; -1 propagates.
ge::StatusOr<std::vector<int64_t>> BlockDims(const gert::ContextBase& ctx, const gert::Shape& x,
                                             int64_t b, bool to_space) {
  if (x.GetDimNum() != 4) {
    return ctx.Error("input 0 (input) shape ", x.ToString(), " must have rank 4 (N, C, H, W)");
  }
  const int64_t n = x.GetDim(0), c = x.GetDim(1), h = x.GetDim(2), w = x.GetDim(3);
  const int64_t bb = b * b;
  constexpr int64_t kMaxDim = int64_t{1} << 40;  // b <= 2^20, so dim * b fits
  if (c > kMaxDim || h > kMaxDim || w > kMaxDim) {
    return ctx.ErrorWithCode(ge::ErrorCode::kOverflow, "input 0 (input) shape ", x.ToString(),
                             " is too large");
  }
  if (to_space) {
    if (c >= 0 && c % bb != 0) {
      return ctx.Error("input channels (", c, ") are not divisible by blocksize^2 (", bb, ")");
    }
    return std::vector<int64_t>{n, c < 0 ? -1 : c / bb, h < 0 ? -1 : h * b, w < 0 ? -1 : w * b};
  }
  if ((h >= 0 && h % b != 0) || (w >= 0 && w % b != 0)) {
    return ctx.Error("input height / width (", h, ", ", w, ") are not divisible by blocksize ", b);
  }
  return std::vector<int64_t>{n, c < 0 ? -1 : c * bb, h < 0 ? -1 : h / b, w < 0 ? -1 : w / b};
}

template <bool kToSpace>
ge::Status InferBlock(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (input) is missing");
  if (y == nullptr) return ctx.Error("output 0 (output) is missing");
  ASSIGN_OR_RETURN(int64_t b, BlockSize(ctx));
  if (kToSpace) RETURN_IF_ERROR(IsCrd(ctx).status());
  if (x->IsUnknownRank()) {
    *y = gert::Shape{-1, -1, -1, -1};
    return ge::OkStatus();
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> dims, BlockDims(ctx, *x, b, kToSpace));
  ASSIGN_OR_RETURN(*y, NnShape(ctx, dims));
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  // N copied; channels divided (multiplied) by b^2, H and W multiplied
  // (divided) by b, over the values the divisibility rules allow.
  ASSIGN_OR_RETURN(gert::ShapeRange r, InputRange(ctx, 0));
  const int64_t bb = b * b;
  if (kToSpace) {
    r[1] = DivDimRange(r[1], bb);
    r[2] = ScaleDimRange(r[2], b);
    r[3] = ScaleDimRange(r[3], b);
  } else {
    r[1] = ScaleDimRange(r[1], bb);
    r[2] = DivDimRange(r[2], b);
    r[3] = DivDimRange(r[3], b);
  }
  return SetOutputRange(ctx, 0, std::move(r));
}

// out[n, oc, oh, ow] for DepthToSpace reads in[n, ic, h, w] with
// oh = h * b + i, ow = w * b + j and ic = (i * b + j) * oc_count + oc (DCR)
// or oc * b * b + i * b + j (CRD). SpaceToDepth is the inverse of DCR.
template <bool kToSpace>
ge::Status BlockKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(int64_t b, BlockSize(ctx));
  bool crd = false;
  if (kToSpace) {
    ASSIGN_OR_RETURN(crd, IsCrd(ctx));
  }
  const gert::Shape& xs = x->GetShape();
  ASSIGN_OR_RETURN(std::vector<int64_t> dims, BlockDims(ctx, xs, b, kToSpace));
  ASSIGN_OR_RETURN(gert::Shape ys, NnShape(ctx, dims));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, x->GetDataType()));
  // Work in DepthToSpace terms: "deep" = [N, D, H, W], "space" = [N, D/bb, H*b, W*b].
  const gert::Shape& deep = kToSpace ? xs : ys;
  const int64_t n = deep.GetDim(0), d = deep.GetDim(1), h = deep.GetDim(2), w = deep.GetDim(3);
  const int64_t oc_count = d / (b * b);
  const int64_t sh = h * b, sw = w * b;
  return WithNode(ctx, DispatchType<kTgAll>(
                           x->GetDataType(),
                           [&](auto tag) {
                             using T = typename decltype(tag)::type;
                             const T* in = x->GetData<T>();
                             T* out = y->GetData<T>();
                             for (int64_t bn = 0; bn < n; ++bn) {
                               for (int64_t oc = 0; oc < oc_count; ++oc) {
                                 for (int64_t i = 0; i < b; ++i) {
                                   for (int64_t j = 0; j < b; ++j) {
                                     const int64_t ic =
                                         crd ? oc * b * b + i * b + j : (i * b + j) * oc_count + oc;
                                     for (int64_t hh = 0; hh < h; ++hh) {
                                       const int64_t deep_row = ((bn * d + ic) * h + hh) * w;
                                       const int64_t space_row =
                                           ((bn * oc_count + oc) * sh + hh * b + i) * sw + j;
                                       for (int64_t ww = 0; ww < w; ++ww) {
                                         if (kToSpace) {
                                           out[space_row + ww * b] = in[deep_row + ww];
                                         } else {
                                           out[deep_row + ww] = in[space_row + ww * b];
                                         }
                                       }
                                     }
                                   }
                                 }
                               }
                             }
                             return ge::OkStatus();
                           },
                           kToSpace ? "DepthToSpace input" : "SpaceToDepth input"));
}

}  // namespace

REG_OP(Dropout)
    .Input("data", FloatTypesBf16())
    .OptionalInput("ratio", FloatTypes())
    .OptionalInput("training_mode", ge::TensorType{ge::DT_BOOL})
    .Output("output", FloatTypesBf16())
    .OptionalOutput("mask", ge::TensorType{ge::DT_BOOL})
    .Attr("seed", AttrInt(0))
    .InferShape(InferDropout)
    .InferDataType(InferDropoutType)
    .Random();
REG_KERNEL(Dropout, ge::kEngineHostCpu).Fn(DropoutKernel);

REG_OP(DepthToSpace)
    .Input("input", AllOnnxTypes())
    .Output("output", AllOnnxTypes())
    .RequiredAttr("blocksize", ge::AttrValue::VT_INT)
    .Attr("mode", AttrStr("DCR"))
    .InferShape(InferBlock<true>);
REG_KERNEL(DepthToSpace, ge::kEngineHostCpu).Fn(BlockKernel<true>);

REG_OP(SpaceToDepth)
    .Input("input", AllOnnxTypes())
    .Output("output", AllOnnxTypes())
    .RequiredAttr("blocksize", ge::AttrValue::VT_INT)
    .InferShape(InferBlock<false>);
REG_KERNEL(SpaceToDepth, ge::kEngineHostCpu).Fn(BlockKernel<false>);

}  // namespace nn
}  // namespace ops
