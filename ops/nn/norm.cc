// ops/nn/norm.cc
//
// Normalization (ONNX opset 17): BatchNormalization (inference and
// training_mode), InstanceNormalization, LayerNormalization (axis, Mean /
// InvStdDev outputs), LRN, MeanVarianceNormalization.
//
// Statistics are computed in double for DOUBLE inputs and in float
// otherwise (FLOAT16 / BF16 are converted once per kernel call), with
// two-pass mean / variance (biased variance, as ONNX specifies).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"
#include "ops/nn/nn_util.h"

namespace ops {
namespace nn {
namespace {

// Checks that input i is a 1-D tensor of `c` elements (c or the dim may be -1).
ge::Status CheckChannelVector(const gert::ContextBase& ctx, const gert::Shape* s, size_t i,
                              absl::string_view name, int64_t c) {
  if (s == nullptr || s->IsUnknownRank()) return ge::OkStatus();
  if (s->GetDimNum() != 1 || (c >= 0 && s->GetDim(0) >= 0 && s->GetDim(0) != c)) {
    return ctx.Error("input ", i, " (", name, ") shape ", s->ToString(), " must be [", c,
                     "] (the channels of input 0)");
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------------ BatchNormalization

// Inputs X, scale, B, input_mean, input_var; outputs Y, running_mean,
// running_var.
ge::Status InferBatchNorm(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (X) is missing");
  if (y == nullptr) return ctx.Error("output 0 (Y) is missing");
  static const char* const kNames[] = {"X", "scale", "B", "input_mean", "input_var"};
  for (size_t i = 1; i < 5; ++i) {
    if (ctx.GetInputShape(i) == nullptr) {
      return ctx.Error("input ", i, " (", kNames[i], ") is missing");
    }
  }
  int64_t c = -1;
  if (!x->IsUnknownRank()) {
    if (x->GetDimNum() < 2) {
      return ctx.Error("input 0 (X) shape ", x->ToString(), " has rank ", x->GetDimNum(),
                       "; expected (N, C, ...)");
    }
    c = x->GetDim(1);
  }
  for (size_t i = 1; i < 5; ++i) {
    RETURN_IF_ERROR(CheckChannelVector(ctx, ctx.GetInputShape(i), i, kNames[i], c));
    if (c < 0 && !ctx.GetInputShape(i)->IsUnknownRank() && ctx.GetInputShape(i)->GetDimNum() == 1) {
      c = ctx.GetInputShape(i)->GetDim(0);
    }
  }
  *y = *x;
  for (size_t i = 1; i < 3; ++i) {
    gert::Shape* s = ctx.GetOutputShape(i);
    if (s != nullptr) *s = gert::Shape{c};
  }
  RETURN_IF_ERROR(CopyInputRange(ctx, 0, 0));
  if (!AnyInputRange(ctx) || x->IsUnknownRank()) return ge::OkStatus();
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  for (size_t i = 1; i < 3; ++i) {
    if (ctx.GetOutputShape(i) != nullptr) RETURN_IF_ERROR(SetOutputRange(ctx, i, {xr[1]}));
  }
  return ge::OkStatus();
}

ge::Status InferBatchNormType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ctx.GetInputDataType(0));
  ctx.SetOutputDataType(1, ctx.GetInputDataType(3));
  ctx.SetOutputDataType(2, ctx.GetInputDataType(3));
  return ge::OkStatus();
}

ge::Status VerifyBatchNorm(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(CheckSameDtype(ctx, {1, 2}));
  RETURN_IF_ERROR(CheckSameDtype(ctx, {3, 4}));
  ASSIGN_OR_RETURN(int64_t training, ctx.GetIntOr("training_mode", 0));
  if (training != 0 && training != 1) {
    return ctx.Error("attribute training_mode (", training, ") must be 0 or 1");
  }
  return ge::OkStatus();
}

template <typename C>
ge::Status BatchNormCompute(gert::KernelContext& ctx, const gert::Tensor* const* in,
                            gert::Tensor* y, gert::Tensor* run_mean, gert::Tensor* run_var,
                            bool training, C eps, C momentum) {
  ComputeInput<C> xin, sc, bi, mean_in, var_in;
  RETURN_IF_ERROR(WithNode(ctx, xin.Init(*in[0])));
  RETURN_IF_ERROR(WithNode(ctx, sc.Init(*in[1])));
  RETURN_IF_ERROR(WithNode(ctx, bi.Init(*in[2])));
  RETURN_IF_ERROR(WithNode(ctx, mean_in.Init(*in[3])));
  RETURN_IF_ERROR(WithNode(ctx, var_in.Init(*in[4])));
  ComputeOutput<C> yout, rm, rv;
  RETURN_IF_ERROR(WithNode(ctx, yout.Init(y)));
  if (run_mean != nullptr) RETURN_IF_ERROR(WithNode(ctx, rm.Init(run_mean)));
  if (run_var != nullptr) RETURN_IF_ERROR(WithNode(ctx, rv.Init(run_var)));
  const gert::Shape& xs = in[0]->GetShape();
  const int64_t n = xs.GetDim(0);
  const int64_t c = xs.GetDim(1);
  const int64_t plane = n * c > 0 ? xs.GetShapeSize() / (n * c) : 0;
  std::vector<C> mean(mean_in.data(), mean_in.data() + c);
  std::vector<C> var(var_in.data(), var_in.data() + c);
  if (training) {
    const int64_t count = n * plane;
    for (int64_t ch = 0; ch < c; ++ch) {
      C sum = 0;
      for (int64_t b = 0; b < n; ++b) {
        const C* p = xin.data() + (b * c + ch) * plane;
        for (int64_t i = 0; i < plane; ++i) sum += p[i];
      }
      const C m = count > 0 ? sum / static_cast<C>(count) : C{0};
      C sq = 0;
      for (int64_t b = 0; b < n; ++b) {
        const C* p = xin.data() + (b * c + ch) * plane;
        for (int64_t i = 0; i < plane; ++i) sq += (p[i] - m) * (p[i] - m);
      }
      mean[ch] = m;
      var[ch] = count > 0 ? sq / static_cast<C>(count) : C{0};
    }
  }
  for (int64_t ch = 0; ch < c; ++ch) {
    const C inv = sc.data()[ch] / std::sqrt(var[ch] + eps);
    const C m = mean[ch];
    const C shift = bi.data()[ch];
    for (int64_t b = 0; b < n; ++b) {
      const C* p = xin.data() + (b * c + ch) * plane;
      C* q = yout.data() + (b * c + ch) * plane;
      for (int64_t i = 0; i < plane; ++i) q[i] = (p[i] - m) * inv + shift;
    }
    if (run_mean != nullptr) {
      rm.data()[ch] =
          training ? mean_in.data()[ch] * momentum + mean[ch] * (1 - momentum) : mean_in.data()[ch];
    }
    if (run_var != nullptr) {
      rv.data()[ch] =
          training ? var_in.data()[ch] * momentum + var[ch] * (1 - momentum) : var_in.data()[ch];
    }
  }
  yout.Commit();
  if (run_mean != nullptr) rm.Commit();
  if (run_var != nullptr) rv.Commit();
  return ge::OkStatus();
}

ge::Status BatchNormKernel(gert::KernelContext& ctx) {
  const gert::Tensor* in[5];
  for (size_t i = 0; i < 5; ++i) {
    ASSIGN_OR_RETURN(in[i], GetKernelInput(ctx, i));
  }
  const gert::Shape& xs = in[0]->GetShape();
  if (xs.GetDimNum() < 2) {
    return ctx.Error("input 0 (X) shape ", xs.ToString(), " has rank ", xs.GetDimNum(),
                     "; expected (N, C, ...)");
  }
  static const char* const kNames[] = {"X", "scale", "B", "input_mean", "input_var"};
  for (size_t i = 1; i < 5; ++i) {
    const gert::Shape& s = in[i]->GetShape();
    RETURN_IF_ERROR(CheckChannelVector(ctx, &s, i, kNames[i], xs.GetDim(1)));
  }
  ASSIGN_OR_RETURN(float eps, ctx.GetFloatOr("epsilon", 1e-5f));
  ASSIGN_OR_RETURN(float momentum, ctx.GetFloatOr("momentum", 0.9f));
  ASSIGN_OR_RETURN(int64_t training, ctx.GetIntOr("training_mode", 0));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, xs, in[0]->GetDataType()));
  const gert::Shape cs{xs.GetDim(1)};
  ASSIGN_OR_RETURN(gert::Tensor * rm, PrepareOptionalOutput(ctx, 1, cs, in[3]->GetDataType()));
  ASSIGN_OR_RETURN(gert::Tensor * rv, PrepareOptionalOutput(ctx, 2, cs, in[4]->GetDataType()));
  return DispatchCompute(in[0]->GetDataType(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    return BatchNormCompute<C>(ctx, in, y, rm, rv, training != 0, static_cast<C>(eps),
                               static_cast<C>(momentum));
  });
}

// ------------------------------------------------------------------ InstanceNormalization

ge::Status InferInstanceNorm(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr || ctx.GetInputShape(1) == nullptr || ctx.GetInputShape(2) == nullptr) {
    return ctx.Error("InstanceNormalization needs inputs input, scale and B");
  }
  if (y == nullptr) return ctx.Error("output 0 (output) is missing");
  int64_t c = -1;
  if (!x->IsUnknownRank()) {
    if (x->GetDimNum() < 3) {
      return ctx.Error("input 0 (input) shape ", x->ToString(), " has rank ", x->GetDimNum(),
                       "; expected (N, C, spatial...)");
    }
    c = x->GetDim(1);
  }
  RETURN_IF_ERROR(CheckChannelVector(ctx, ctx.GetInputShape(1), 1, "scale", c));
  RETURN_IF_ERROR(CheckChannelVector(ctx, ctx.GetInputShape(2), 2, "B", c));
  *y = *x;
  return CopyInputRange(ctx, 0, 0);
}

ge::Status VerifySame012(gert::InferShapeContext& ctx) { return CheckSameDtype(ctx, {0, 1, 2}); }

ge::Status InstanceNormKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* scale, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Tensor* bias, GetKernelInput(ctx, 2));
  const gert::Shape& xs = x->GetShape();
  if (xs.GetDimNum() < 3) {
    return ctx.Error("input 0 (input) shape ", xs.ToString(), " has rank ", xs.GetDimNum(),
                     "; expected (N, C, spatial...)");
  }
  const gert::Shape& ss = scale->GetShape();
  const gert::Shape& bs = bias->GetShape();
  RETURN_IF_ERROR(CheckChannelVector(ctx, &ss, 1, "scale", xs.GetDim(1)));
  RETURN_IF_ERROR(CheckChannelVector(ctx, &bs, 2, "B", xs.GetDim(1)));
  ASSIGN_OR_RETURN(float eps, ctx.GetFloatOr("epsilon", 1e-5f));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, xs, x->GetDataType()));
  const int64_t n = xs.GetDim(0);
  const int64_t c = xs.GetDim(1);
  const int64_t plane = n * c > 0 ? xs.GetShapeSize() / (n * c) : 0;
  return DispatchCompute(x->GetDataType(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    ComputeInput<C> xin, sc, bi;
    ComputeOutput<C> yout;
    RETURN_IF_ERROR(WithNode(ctx, xin.Init(*x)));
    RETURN_IF_ERROR(WithNode(ctx, sc.Init(*scale)));
    RETURN_IF_ERROR(WithNode(ctx, bi.Init(*bias)));
    RETURN_IF_ERROR(WithNode(ctx, yout.Init(y)));
    for (int64_t pl = 0; pl < n * c; ++pl) {
      const C* p = xin.data() + pl * plane;
      C* q = yout.data() + pl * plane;
      C sum = 0;
      for (int64_t i = 0; i < plane; ++i) sum += p[i];
      const C mean = plane > 0 ? sum / static_cast<C>(plane) : C{0};
      C sq = 0;
      for (int64_t i = 0; i < plane; ++i) sq += (p[i] - mean) * (p[i] - mean);
      const C var = plane > 0 ? sq / static_cast<C>(plane) : C{0};
      const C inv = sc.data()[pl % c] / std::sqrt(var + static_cast<C>(eps));
      const C shift = bi.data()[pl % c];
      for (int64_t i = 0; i < plane; ++i) q[i] = (p[i] - mean) * inv + shift;
    }
    yout.Commit();
    return ge::OkStatus();
  });
}

// ------------------------------------------------------------------ LayerNormalization

// Maps the stash_type attribute (an ONNX TensorProto data type) to ours.
ge::StatusOr<ge::DataType> StashType(const gert::ContextBase& ctx) {
  ASSIGN_OR_RETURN(int64_t st, ctx.GetIntOr("stash_type", 1));
  switch (st) {
    case 1:
      return ge::DT_FLOAT;
    case 10:
      return ge::DT_FLOAT16;
    case 11:
      return ge::DT_DOUBLE;
    case 16:
      return ge::DT_BF16;
    default:
      return ctx.Error("attribute stash_type (", st,
                       ") must be an ONNX float type (1 FLOAT, 10 FLOAT16, 11 DOUBLE, 16 BF16)");
  }
}

// Checks that `s` (Scale or B) broadcasts to x's dims [axis, rank).
ge::Status CheckNormParam(const gert::ContextBase& ctx, const gert::Shape& x, size_t axis,
                          const gert::Shape* s, size_t i, absl::string_view name) {
  if (s == nullptr || s->IsUnknownRank() || x.IsUnknownRank()) return ge::OkStatus();
  const size_t norm_rank = x.GetDimNum() - axis;
  bool ok = s->GetDimNum() <= norm_rank;
  for (size_t j = 0; ok && j < s->GetDimNum(); ++j) {
    const int64_t sd = s->GetDim(s->GetDimNum() - 1 - j);
    const int64_t xd = x.GetDim(x.GetDimNum() - 1 - j);
    ok = sd == 1 || sd < 0 || xd < 0 || sd == xd;
  }
  if (!ok) {
    return ctx.Error("input ", i, " (", name, ") shape ", s->ToString(),
                     " does not broadcast to the normalized dims of X ", x.ToString(),
                     " from axis ", axis);
  }
  return ge::OkStatus();
}

ge::Status InferLayerNorm(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr || ctx.GetInputShape(1) == nullptr) {
    return ctx.Error("LayerNormalization needs inputs X and Scale");
  }
  if (y == nullptr) return ctx.Error("output 0 (Y) is missing");
  *y = *x;
  ASSIGN_OR_RETURN(int64_t axis, ctx.GetIntOr("axis", -1));
  if (x->IsUnknownRank()) {
    for (size_t i = 1; i < 3; ++i) {
      if (ctx.GetOutputShape(i) != nullptr) *ctx.GetOutputShape(i) = *x;
    }
    return ge::OkStatus();
  }
  ge::StatusOr<int64_t> a = NormalizeAxis(axis, static_cast<int64_t>(x->GetDimNum()));
  if (!a.ok()) return WithNode(ctx, ge::Annotate(a.status(), "attribute axis: "));
  RETURN_IF_ERROR(CheckNormParam(ctx, *x, *a, ctx.GetInputShape(1), 1, "Scale"));
  RETURN_IF_ERROR(CheckNormParam(ctx, *x, *a, ctx.GetInputShape(2), 2, "B"));
  gert::Shape stat = *x;
  for (size_t i = static_cast<size_t>(*a); i < x->GetDimNum(); ++i) stat.SetDim(i, 1);
  for (size_t i = 1; i < 3; ++i) {
    if (ctx.GetOutputShape(i) != nullptr) *ctx.GetOutputShape(i) = stat;
  }
  RETURN_IF_ERROR(CopyInputRange(ctx, 0, 0));
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  // Mean / InvStdDev: X's range with the normalised dims 1.
  ASSIGN_OR_RETURN(gert::ShapeRange stat_range, InputRange(ctx, 0));
  for (size_t i = static_cast<size_t>(*a); i < stat_range.size(); ++i) stat_range[i] = {1, 1};
  for (size_t i = 1; i < 3; ++i) {
    if (ctx.GetOutputShape(i) != nullptr) RETURN_IF_ERROR(SetOutputRange(ctx, i, stat_range));
  }
  return ge::OkStatus();
}

ge::Status InferLayerNormType(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(ge::DataType u, StashType(ctx));
  ctx.SetOutputDataType(0, ctx.GetInputDataType(0));
  ctx.SetOutputDataType(1, u);
  ctx.SetOutputDataType(2, u);
  return ge::OkStatus();
}

// Expands a Scale / B tensor (broadcast to the normalized dims `norm`) into
// a dense vector of prod(norm) values.
template <typename C>
std::vector<C> ExpandNormParam(const C* v, const gert::Shape& s, const std::vector<int64_t>& norm,
                               int64_t norm_size) {
  std::vector<C> out(static_cast<size_t>(norm_size));
  const size_t r = norm.size();
  const size_t sr = s.GetDimNum();
  // Strides of s aligned to the right of `norm` (0 on broadcast dims).
  std::vector<int64_t> st(r, 0);
  int64_t acc = 1;
  for (size_t j = 0; j < sr; ++j) {
    const size_t d = r - 1 - j;
    const int64_t sd = s.GetDim(sr - 1 - j);
    st[d] = sd == 1 ? 0 : acc;
    acc *= sd;
  }
  std::vector<int64_t> pos(r, 0);
  int64_t off = 0;
  for (int64_t i = 0; i < norm_size; ++i) {
    out[i] = v[off];
    for (size_t d = r; d-- > 0;) {
      off += st[d];
      if (++pos[d] < norm[d]) break;
      off -= st[d] * norm[d];
      pos[d] = 0;
    }
  }
  return out;
}

ge::Status LayerNormKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* scale, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Tensor* bias, GetOptionalInput(ctx, 2));
  const gert::Shape& xs = x->GetShape();
  ASSIGN_OR_RETURN(int64_t axis_attr, ctx.GetIntOr("axis", -1));
  ge::StatusOr<int64_t> a = NormalizeAxis(axis_attr, static_cast<int64_t>(xs.GetDimNum()));
  if (!a.ok()) return WithNode(ctx, ge::Annotate(a.status(), "attribute axis: "));
  const size_t axis = static_cast<size_t>(*a);
  RETURN_IF_ERROR(CheckNormParam(ctx, xs, axis, &scale->GetShape(), 1, "Scale"));
  if (bias != nullptr) RETURN_IF_ERROR(CheckNormParam(ctx, xs, axis, &bias->GetShape(), 2, "B"));
  ASSIGN_OR_RETURN(float eps, ctx.GetFloatOr("epsilon", 1e-5f));
  ASSIGN_OR_RETURN(ge::DataType u, StashType(ctx));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, xs, x->GetDataType()));
  gert::Shape stat = xs;
  std::vector<int64_t> norm;
  for (size_t i = axis; i < xs.GetDimNum(); ++i) {
    stat.SetDim(i, 1);
    norm.push_back(xs.GetDim(i));
  }
  ASSIGN_OR_RETURN(gert::Tensor * mean_t, PrepareOptionalOutput(ctx, 1, stat, u));
  ASSIGN_OR_RETURN(gert::Tensor * inv_t, PrepareOptionalOutput(ctx, 2, stat, u));
  int64_t norm_size = 1;
  for (int64_t d : norm) norm_size *= d;
  const int64_t rows = norm_size > 0 ? xs.GetShapeSize() / norm_size : stat.GetShapeSize();
  return DispatchCompute(x->GetDataType(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    ComputeInput<C> xin, sc, bi;
    ComputeOutput<C> yout, mo, io;
    RETURN_IF_ERROR(WithNode(ctx, xin.Init(*x)));
    RETURN_IF_ERROR(WithNode(ctx, sc.Init(*scale)));
    if (bias != nullptr) RETURN_IF_ERROR(WithNode(ctx, bi.Init(*bias)));
    RETURN_IF_ERROR(WithNode(ctx, yout.Init(y)));
    if (mean_t != nullptr) RETURN_IF_ERROR(WithNode(ctx, mo.Init(mean_t)));
    if (inv_t != nullptr) RETURN_IF_ERROR(WithNode(ctx, io.Init(inv_t)));
    const std::vector<C> s = ExpandNormParam<C>(sc.data(), scale->GetShape(), norm, norm_size);
    std::vector<C> b(static_cast<size_t>(norm_size), C{0});
    if (bias != nullptr) b = ExpandNormParam<C>(bi.data(), bias->GetShape(), norm, norm_size);
    for (int64_t r = 0; r < rows; ++r) {
      const C* p = xin.data() + r * norm_size;
      C* q = yout.data() + r * norm_size;
      C sum = 0;
      for (int64_t i = 0; i < norm_size; ++i) sum += p[i];
      const C mean = norm_size > 0 ? sum / static_cast<C>(norm_size) : C{0};
      C sq = 0;
      for (int64_t i = 0; i < norm_size; ++i) sq += (p[i] - mean) * (p[i] - mean);
      const C var = norm_size > 0 ? sq / static_cast<C>(norm_size) : C{0};
      const C inv = C{1} / std::sqrt(var + static_cast<C>(eps));
      for (int64_t i = 0; i < norm_size; ++i) q[i] = (p[i] - mean) * inv * s[i] + b[i];
      if (mean_t != nullptr) mo.data()[r] = mean;
      if (inv_t != nullptr) io.data()[r] = inv;
    }
    yout.Commit();
    if (mean_t != nullptr) mo.Commit();
    if (inv_t != nullptr) io.Commit();
    return ge::OkStatus();
  });
}

ge::Status VerifyLayerNorm(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(CheckSameDtype(ctx, {0, 1, 2}));
  return StashType(ctx).status();
}

// ------------------------------------------------------------------ LRN

ge::Status InferLrn(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (X) is missing");
  if (y == nullptr) return ctx.Error("output 0 (Y) is missing");
  if (!x->IsUnknownRank() && x->GetDimNum() < 2) {
    return ctx.Error("input 0 (X) shape ", x->ToString(), " has rank ", x->GetDimNum(),
                     "; expected (N, C, ...)");
  }
  *y = *x;
  return CopyInputRange(ctx, 0, 0);
}

ge::Status VerifyLrn(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(int64_t size, ctx.GetInt("size"));
  if (size < 1) return ctx.Error("attribute size (", size, ") must be >= 1");
  return ge::OkStatus();
}

ge::Status LrnKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const gert::Shape& xs = x->GetShape();
  if (xs.GetDimNum() < 2) {
    return ctx.Error("input 0 (X) shape ", xs.ToString(), " has rank ", xs.GetDimNum(),
                     "; expected (N, C, ...)");
  }
  ASSIGN_OR_RETURN(int64_t size, ctx.GetInt("size"));
  if (size < 1) return ctx.Error("attribute size (", size, ") must be >= 1");
  ASSIGN_OR_RETURN(float alpha, ctx.GetFloatOr("alpha", 1e-4f));
  ASSIGN_OR_RETURN(float beta, ctx.GetFloatOr("beta", 0.75f));
  ASSIGN_OR_RETURN(float bias, ctx.GetFloatOr("bias", 1.0f));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, xs, x->GetDataType()));
  const int64_t n = xs.GetDim(0);
  const int64_t c = xs.GetDim(1);
  const int64_t plane = n * c > 0 ? xs.GetShapeSize() / (n * c) : 0;
  const int64_t before = (size - 1) / 2;
  const int64_t after = size - 1 - before;
  return DispatchCompute(x->GetDataType(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    ComputeInput<C> xin;
    ComputeOutput<C> yout;
    RETURN_IF_ERROR(WithNode(ctx, xin.Init(*x)));
    RETURN_IF_ERROR(WithNode(ctx, yout.Init(y)));
    const C scale = static_cast<C>(alpha) / static_cast<C>(size);
    std::vector<C> sq(static_cast<size_t>(plane));
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t ch = 0; ch < c; ++ch) {
        std::fill(sq.begin(), sq.end(), C{0});
        const int64_t lo = std::max<int64_t>(0, ch - before);
        const int64_t hi = std::min<int64_t>(c - 1, ch + after);
        for (int64_t k = lo; k <= hi; ++k) {
          const C* p = xin.data() + (b * c + k) * plane;
          for (int64_t i = 0; i < plane; ++i) sq[i] += p[i] * p[i];
        }
        const C* p = xin.data() + (b * c + ch) * plane;
        C* q = yout.data() + (b * c + ch) * plane;
        for (int64_t i = 0; i < plane; ++i) {
          q[i] = p[i] / std::pow(static_cast<C>(bias) + scale * sq[i], static_cast<C>(beta));
        }
      }
    }
    yout.Commit();
    return ge::OkStatus();
  });
}

// ------------------------------------------------------------------ MeanVarianceNormalization

ge::StatusOr<std::vector<int64_t>> MvnAxes(const gert::ContextBase& ctx, int64_t rank) {
  ASSIGN_OR_RETURN(std::vector<int64_t> axes, ctx.GetListIntOr("axes", {0, 2, 3}));
  ge::StatusOr<std::vector<int64_t>> norm = NormalizeAxes(axes, rank);
  if (!norm.ok()) return WithNode(ctx, ge::Annotate(norm.status(), "attribute axes: "));
  return norm;
}

ge::Status InferMvn(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (X) is missing");
  if (y == nullptr) return ctx.Error("output 0 (Y) is missing");
  if (!x->IsUnknownRank()) {
    ASSIGN_OR_RETURN(std::vector<int64_t> axes,
                     MvnAxes(ctx, static_cast<int64_t>(x->GetDimNum())));
    (void)axes;
  }
  *y = *x;
  return CopyInputRange(ctx, 0, 0);
}

ge::Status MvnKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const gert::Shape& xs = x->GetShape();
  const size_t rank = xs.GetDimNum();
  ASSIGN_OR_RETURN(std::vector<int64_t> axes, MvnAxes(ctx, static_cast<int64_t>(rank)));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, xs, x->GetDataType()));
  // Group (statistics) strides: kept dims get row-major strides, reduced 0.
  std::vector<bool> reduced(rank, false);
  for (int64_t a : axes) reduced[static_cast<size_t>(a)] = true;
  std::vector<int64_t> gstride(rank, 0);
  int64_t groups = 1;
  for (size_t d = rank; d-- > 0;) {
    if (!reduced[d]) {
      gstride[d] = groups;
      groups *= xs.GetDim(d);
    }
  }
  const int64_t total = xs.GetShapeSize();
  const int64_t per_group = groups > 0 ? total / groups : 0;
  // Group index of each element, by odometer.
  std::vector<int64_t> gidx(static_cast<size_t>(total));
  {
    std::vector<int64_t> pos(rank, 0);
    int64_t g = 0;
    for (int64_t i = 0; i < total; ++i) {
      gidx[i] = g;
      for (size_t d = rank; d-- > 0;) {
        g += gstride[d];
        if (++pos[d] < xs.GetDim(d)) break;
        g -= gstride[d] * xs.GetDim(d);
        pos[d] = 0;
      }
    }
  }
  return DispatchCompute(x->GetDataType(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    ComputeInput<C> xin;
    ComputeOutput<C> yout;
    RETURN_IF_ERROR(WithNode(ctx, xin.Init(*x)));
    RETURN_IF_ERROR(WithNode(ctx, yout.Init(y)));
    std::vector<C> mean(static_cast<size_t>(groups), C{0});
    std::vector<C> sq(static_cast<size_t>(groups), C{0});
    const C* p = xin.data();
    for (int64_t i = 0; i < total; ++i) mean[gidx[i]] += p[i];
    for (C& m : mean) m = per_group > 0 ? m / static_cast<C>(per_group) : C{0};
    for (int64_t i = 0; i < total; ++i) {
      const C d = p[i] - mean[gidx[i]];
      sq[gidx[i]] += d * d;
    }
    // ONNX's function body: (X - E[X]) / (sqrt(Var[X]) + 1e-9).
    for (C& v : sq) {
      v = std::sqrt(per_group > 0 ? v / static_cast<C>(per_group) : C{0}) + static_cast<C>(1e-9f);
    }
    C* q = yout.data();
    for (int64_t i = 0; i < total; ++i) q[i] = (p[i] - mean[gidx[i]]) / sq[gidx[i]];
    yout.Commit();
    return ge::OkStatus();
  });
}

}  // namespace

REG_OP(BatchNormalization)
    .Input("X", FloatTypesBf16())
    .Input("scale", FloatTypesBf16())
    .Input("B", FloatTypesBf16())
    .Input("input_mean", FloatTypesBf16())
    .Input("input_var", FloatTypesBf16())
    .Output("Y", FloatTypesBf16())
    .OptionalOutput("running_mean", FloatTypesBf16())
    .OptionalOutput("running_var", FloatTypesBf16())
    .Attr("epsilon", AttrFloat(1e-5f))
    .Attr("momentum", AttrFloat(0.9f))
    .Attr("training_mode", AttrInt(0))
    .InferShape(InferBatchNorm)
    .InferDataType(InferBatchNormType)
    .Verify(VerifyBatchNorm);
REG_KERNEL(BatchNormalization, ge::kEngineHostCpu).Fn(BatchNormKernel);

REG_OP(InstanceNormalization)
    .Input("input", FloatTypes())
    .Input("scale", FloatTypes())
    .Input("B", FloatTypes())
    .Output("output", FloatTypes())
    .Attr("epsilon", AttrFloat(1e-5f))
    .InferShape(InferInstanceNorm)
    .Verify(VerifySame012);
REG_KERNEL(InstanceNormalization, ge::kEngineHostCpu).Fn(InstanceNormKernel);

REG_OP(LayerNormalization)
    .Input("X", FloatTypesBf16())
    .Input("Scale", FloatTypesBf16())
    .OptionalInput("B", FloatTypesBf16())
    .Output("Y", FloatTypesBf16())
    .OptionalOutput("Mean", FloatTypesBf16())
    .OptionalOutput("InvStdDev", FloatTypesBf16())
    .Attr("axis", AttrInt(-1))
    .Attr("epsilon", AttrFloat(1e-5f))
    .Attr("stash_type", AttrInt(1))
    .InferShape(InferLayerNorm)
    .InferDataType(InferLayerNormType)
    .Verify(VerifyLayerNorm);
REG_KERNEL(LayerNormalization, ge::kEngineHostCpu).Fn(LayerNormKernel);

REG_OP(LRN)
    .Input("X", FloatTypesBf16())
    .Output("Y", FloatTypesBf16())
    .Attr("alpha", AttrFloat(1e-4f))
    .Attr("beta", AttrFloat(0.75f))
    .Attr("bias", AttrFloat(1.0f))
    .RequiredAttr("size", ge::AttrValue::VT_INT)
    .InferShape(InferLrn)
    .Verify(VerifyLrn);
REG_KERNEL(LRN, ge::kEngineHostCpu).Fn(LrnKernel);

REG_OP(MeanVarianceNormalization)
    .Input("X", FloatTypesBf16())
    .Output("Y", FloatTypesBf16())
    .Attr("axes", AttrInts({0, 2, 3}))
    .InferShape(InferMvn);
REG_KERNEL(MeanVarianceNormalization, ge::kEngineHostCpu).Fn(MvnKernel);

}  // namespace nn
}  // namespace ops
