// ops/nn/pool.cc
//
// Pooling (ONNX opset 17): AveragePool, MaxPool (dilations, ceil_mode,
// storage_order, Indices), MaxUnpool, LpPool, GlobalAveragePool,
// GlobalMaxPool. Layout (N, C, spatial...), 1 or more spatial dims.
//
// Kernels precompute, per spatial dim and output position, the input
// positions ("taps") of the window that lie inside the input; a window is
// the Cartesian product of its per-dim taps. Padding never contributes a
// value; AveragePool with count_include_pad divides by the window size
// clipped to the padded input.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/common/scratch.h"
#include "ops/common/shape_range.h"
#include "ops/nn/nn_util.h"

namespace ops {
namespace nn {
namespace {

// ------------------------------------------------------------------ plans

struct PoolPlan {
  WindowSpec spec;
  absl::InlinedVector<WindowDim, 8> dims;
  DimVec y_dims;
};

ge::StatusOr<PoolPlan> PlanPool(const gert::ContextBase& ctx, const gert::Shape& x,
                                const WindowSpecOptions& opts) {
  const size_t rank = x.GetDimNum();
  if (rank < 3) {
    return ctx.Error("input 0 (X) shape ", x.ToString(), " has rank ", rank,
                     "; expected (N, C, spatial...) with at least one spatial dim");
  }
  PoolPlan p;
  ASSIGN_OR_RETURN(p.spec, ReadWindowSpec(ctx, rank - 2, {}, opts));
  p.y_dims = {x.GetDim(0), x.GetDim(1)};
  for (size_t i = 0; i + 2 < rank; ++i) {
    ASSIGN_OR_RETURN(WindowDim d, ComputeWindowDim(ctx, p.spec, i, x.GetDim(i + 2)));
    p.dims.push_back(d);
    p.y_dims.push_back(d.out);
  }
  return p;
}

// Infer shape for the windowed pools; an unknown-rank X takes its rank from
// kernel_shape.
ge::Status InferPoolWith(gert::InferShapeContext& ctx, const WindowSpecOptions& opts) {
  const gert::Shape* x = ctx.GetInputShape(0);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (X) is missing");
  if (y == nullptr) return ctx.Error("output 0 (Y) is missing");
  gert::Shape xs = *x;
  if (x->IsUnknownRank()) {
    ASSIGN_OR_RETURN(std::vector<int64_t> k, ctx.GetListIntOr("kernel_shape", {}));
    if (k.empty()) return ctx.Error("missing required attribute kernel_shape");
    if (k.size() + 2 > gert::kMaxDimNum) {
      return ctx.Error("attribute kernel_shape ", DimsStr(k), " has too many entries");
    }
    xs = gert::Shape();
    for (size_t i = 0; i < k.size() + 2; ++i) xs.AppendDim(-1);
  }
  ASSIGN_OR_RETURN(PoolPlan p, PlanPool(ctx, xs, opts));
  ASSIGN_OR_RETURN(*y, NnShape(ctx, p.y_dims));
  for (size_t i = 1; i < ctx.GetOutputNum(); ++i) {  // MaxPool Indices
    if (ctx.GetOutputShape(i) != nullptr) *ctx.GetOutputShape(i) = *y;
  }
  if (!AnyInputRange(ctx) || x->IsUnknownRank()) return ge::OkStatus();
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  ASSIGN_OR_RETURN(gert::ShapeRange range, WindowOutputRange(ctx, p.spec, xr, xr[1]));
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) {
    if (ctx.GetOutputShape(i) != nullptr) RETURN_IF_ERROR(SetOutputRange(ctx, i, range));
  }
  return ge::OkStatus();
}

WindowSpecOptions AvgPoolOptions() {
  WindowSpecOptions o;
  o.kernel_required = true;
  o.read_dilations = false;
  o.read_ceil_mode = true;
  return o;
}
WindowSpecOptions MaxPoolOptions() {
  WindowSpecOptions o;
  o.kernel_required = true;
  o.read_dilations = true;
  o.read_ceil_mode = true;
  return o;
}
WindowSpecOptions LpPoolOptions() {
  WindowSpecOptions o;
  o.kernel_required = true;
  o.read_dilations = false;
  o.read_ceil_mode = false;
  return o;
}

ge::Status InferAvgPool(gert::InferShapeContext& ctx) {
  return InferPoolWith(ctx, AvgPoolOptions());
}
ge::Status InferMaxPool(gert::InferShapeContext& ctx) {
  return InferPoolWith(ctx, MaxPoolOptions());
}
ge::Status InferLpPool(gert::InferShapeContext& ctx) { return InferPoolWith(ctx, LpPoolOptions()); }

ge::Status InferMaxPoolType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ctx.GetInputDataType(0));
  if (ctx.GetOutputNum() > 1) ctx.SetOutputDataType(1, ge::DT_INT64);
  return ge::OkStatus();
}

// ------------------------------------------------------------------ taps

// Per spatial dim d and output position o: taps [start[d][o], start[d][o+1])
// into pos[d] (input positions inside the input) and, for count_include_pad,
// padded[d][o] (window positions inside the padded input). The tables live
// in per-thread scratch (kKernel1): no allocation per call once warm.
struct Taps {
  size_t rank = 0;
  DimVec in;         // input spatial dims
  DimVec out;        // output spatial dims
  DimVec in_stride;  // row-major strides of the input plane
  absl::InlinedVector<int64_t*, 8> start;
  absl::InlinedVector<int64_t*, 8> pos;
  absl::InlinedVector<int64_t*, 8> padded;
  int64_t in_size = 1;
  int64_t out_size = 1;
};

// ceil(a / b) for b > 0 and any sign of a.
int64_t CeilDivPos(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && a > 0) ? q + 1 : q;
}

ge::StatusOr<Taps> MakeTaps(const gert::ContextBase& ctx, const PoolPlan& p, const gert::Shape& x) {
  Taps t;
  t.rank = p.dims.size();
  t.in_stride.assign(t.rank, 1);
  size_t table = 0;  // int64 entries of every table
  for (size_t d = 0; d < t.rank; ++d) {
    t.in.push_back(x.GetDim(d + 2));
    t.out.push_back(p.dims[d].out);
    t.in_size *= t.in.back();
    t.out_size *= t.out.back();
    // A window has at most min(kernel, input) taps inside the input.
    const size_t o = static_cast<size_t>(t.out[d]);
    const size_t taps =
        static_cast<size_t>(std::min(p.spec.kernel[d], std::max<int64_t>(t.in[d], 0)));
    table += (o + 1) + o + o * taps;
  }
  for (size_t d = t.rank; d-- > 1;) t.in_stride[d - 1] = t.in_stride[d] * t.in[d];
  int64_t* mem = ThreadScratch<int64_t>(ScratchSlot::kKernel1, table);
  if (mem == nullptr) {
    return ctx.ErrorWithCode(ge::ErrorCode::kMemoryAllocFailed,
                             "no memory for the pool tap tables (", table, " entries)");
  }
  for (size_t d = 0; d < t.rank; ++d) {
    const int64_t k = p.spec.kernel[d];
    const int64_t s = p.spec.strides[d];
    const int64_t dil = p.spec.dilations[d];
    const int64_t pb = p.dims[d].pad_begin;
    const int64_t pe = p.dims[d].pad_end;
    t.start.push_back(mem);
    mem += t.out[d] + 1;
    t.padded.push_back(mem);
    mem += t.out[d];
    t.pos.push_back(mem);
    mem += t.out[d] * std::min(k, std::max<int64_t>(t.in[d], 0));
    int64_t npos = 0;
    t.start[d][0] = 0;
    for (int64_t o = 0; o < t.out[d]; ++o) {
      // Kernel offsets j in [0, k) with position o * s - pb + j * dil in
      // [lo, hi) form the range [CeilDiv(lo - base), CeilDiv(hi - base)).
      const int64_t base = o * s - pb;
      auto j_range = [&](int64_t lo, int64_t hi, int64_t* first, int64_t* last) {
        *first = std::clamp<int64_t>(CeilDivPos(lo - base, dil), 0, k);
        *last = std::clamp<int64_t>(CeilDivPos(hi - base, dil), *first, k);
      };
      int64_t j0, j1, p0, p1;
      j_range(0, t.in[d], &j0, &j1);
      j_range(-pb, t.in[d] + pe, &p0, &p1);
      for (int64_t j = j0; j < j1; ++j) t.pos[d][npos++] = base + j * dil;
      t.start[d][o + 1] = npos;
      t.padded[d][o] = p1 - p0;
    }
  }
  return t;
}

// Calls f(plane_offset) for every tap of the window at output position
// `opos`; returns false (calling nothing) for a window entirely in padding.
template <typename F>
bool ForEachTap(const Taps& t, const int64_t* opos, F&& f) {
  int64_t b[gert::kMaxDimNum], e[gert::kMaxDimNum], cur[gert::kMaxDimNum];
  const size_t n = t.rank;
  for (size_t d = 0; d < n; ++d) {
    b[d] = t.start[d][opos[d]];
    e[d] = t.start[d][opos[d] + 1];
    if (b[d] == e[d]) return false;
    cur[d] = b[d];
  }
  const int64_t* last = t.pos[n - 1];
  const int64_t last_stride = t.in_stride[n - 1];
  while (true) {
    int64_t base = 0;
    for (size_t d = 0; d + 1 < n; ++d) base += t.pos[d][cur[d]] * t.in_stride[d];
    for (int64_t j = b[n - 1]; j < e[n - 1]; ++j) f(base + last[j] * last_stride);
    size_t d = n - 1;
    while (d-- > 0) {
      if (++cur[d] < e[d]) break;
      cur[d] = b[d];
    }
    if (d == static_cast<size_t>(-1)) break;
  }
  return true;
}

// Advances an output position odometer.
void NextPos(const Taps& t, int64_t* opos) {
  for (size_t d = t.rank; d-- > 0;) {
    if (++opos[d] < t.out[d]) return;
    opos[d] = 0;
  }
}

// ------------------------------------------------------------------ AveragePool / LpPool

template <typename C>
ge::Status AvgOrLpCompute(gert::KernelContext& ctx, const gert::Tensor& x, const PoolPlan& p,
                          bool count_include_pad, int64_t lp, gert::Tensor* y) {
  ComputeInput<C> xin;
  ComputeOutput<C> yout;
  RETURN_IF_ERROR(WithNode(ctx, xin.Init(x)));
  RETURN_IF_ERROR(WithNode(ctx, yout.Init(y)));
  ASSIGN_OR_RETURN(const Taps t, MakeTaps(ctx, p, x.GetShape()));
  const int64_t planes = x.GetShape().GetDim(0) * x.GetShape().GetDim(1);
  int64_t opos[gert::kMaxDimNum];
  for (int64_t pl = 0; pl < planes; ++pl) {
    const C* src = xin.data() + pl * t.in_size;
    C* dst = yout.data() + pl * t.out_size;
    std::fill(opos, opos + t.rank, 0);
    for (int64_t o = 0; o < t.out_size; ++o, NextPos(t, opos)) {
      C acc = 0;
      int64_t count = 0;
      if (lp == 0) {
        ForEachTap(t, opos, [&](int64_t off) {
          acc += src[off];
          ++count;
        });
        if (count_include_pad) {
          count = 1;
          for (size_t d = 0; d < t.rank; ++d) count *= t.padded[d][opos[d]];
        }
        dst[o] = count > 0 ? acc / static_cast<C>(count) : C{0};
      } else if (lp == 1) {
        ForEachTap(t, opos, [&](int64_t off) { acc += std::fabs(src[off]); });
        dst[o] = acc;
      } else if (lp == 2) {
        ForEachTap(t, opos, [&](int64_t off) { acc += src[off] * src[off]; });
        dst[o] = std::sqrt(acc);
      } else {
        const C pw = static_cast<C>(lp);
        ForEachTap(t, opos, [&](int64_t off) { acc += std::pow(std::fabs(src[off]), pw); });
        dst[o] = std::pow(acc, C{1} / pw);
      }
    }
  }
  yout.Commit();
  return ge::OkStatus();
}

ge::Status AvgPoolKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(PoolPlan p, PlanPool(ctx, x->GetShape(), AvgPoolOptions()));
  ASSIGN_OR_RETURN(int64_t cip, ctx.GetIntOr("count_include_pad", 0));
  ASSIGN_OR_RETURN(gert::Shape ys, NnShape(ctx, p.y_dims));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, x->GetDataType()));
  return DispatchCompute(x->GetDataType(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    return AvgOrLpCompute<C>(ctx, *x, p, cip != 0, 0, y);
  });
}

ge::Status LpPoolKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(PoolPlan p, PlanPool(ctx, x->GetShape(), LpPoolOptions()));
  ASSIGN_OR_RETURN(int64_t lp, ctx.GetIntOr("p", 2));
  if (lp < 1) return ctx.Error("attribute p (", lp, ") must be >= 1");
  ASSIGN_OR_RETURN(gert::Shape ys, NnShape(ctx, p.y_dims));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, x->GetDataType()));
  return DispatchCompute(x->GetDataType(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    return AvgOrLpCompute<C>(ctx, *x, p, false, lp, y);
  });
}

ge::Status VerifyLpPool(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(int64_t lp, ctx.GetIntOr("p", 2));
  if (lp < 1) return ctx.Error("attribute p (", lp, ") must be >= 1");
  return ge::OkStatus();
}

// ------------------------------------------------------------------ MaxPool

constexpr uint32_t kMaxPoolGroups = kTgReal;

ge::Status MaxPoolKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(PoolPlan p, PlanPool(ctx, x->GetShape(), MaxPoolOptions()));
  ASSIGN_OR_RETURN(int64_t storage_order, ctx.GetIntOr("storage_order", 0));
  if (storage_order != 0 && storage_order != 1) {
    return ctx.Error("attribute storage_order (", storage_order, ") must be 0 or 1");
  }
  ASSIGN_OR_RETURN(gert::Shape ys, NnShape(ctx, p.y_dims));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, x->GetDataType()));
  ASSIGN_OR_RETURN(gert::Tensor * ind, PrepareOptionalOutput(ctx, 1, ys, ge::DT_INT64));
  ASSIGN_OR_RETURN(const Taps t, MakeTaps(ctx, p, x->GetShape()));
  const int64_t planes = x->GetShape().GetDim(0) * x->GetShape().GetDim(1);
  // Column-major strides of the input plane (storage_order 1).
  DimVec col_stride(t.rank, 1);
  for (size_t d = 1; d < t.rank; ++d) col_stride[d] = col_stride[d - 1] * t.in[d - 1];
  return WithNode(ctx, DispatchType<kMaxPoolGroups>(
                           x->GetDataType(),
                           [&](auto tag) {
                             using T = typename decltype(tag)::type;
                             using C = ComputeType<T>;
                             int64_t* idx = ind != nullptr ? ind->GetData<int64_t>() : nullptr;
                             int64_t opos[gert::kMaxDimNum];
                             for (int64_t pl = 0; pl < planes; ++pl) {
                               const T* src = x->GetData<T>() + pl * t.in_size;
                               T* dst = y->GetData<T>() + pl * t.out_size;
                               std::fill(opos, opos + t.rank, 0);
                               for (int64_t o = 0; o < t.out_size; ++o, NextPos(t, opos)) {
                                 int64_t best = -1;
                                 C best_v = C{};
                                 ForEachTap(t, opos, [&](int64_t off) {
                                   const C v = ToCompute(src[off]);
                                   if (best < 0 || v > best_v) {
                                     best = off;
                                     best_v = v;
                                   }
                                 });
                                 if (best < 0) {
                                   dst[o] = FromCompute<T>(std::numeric_limits<C>::lowest());
                                 } else {
                                   dst[o] = src[best];
                                 }
                                 if (idx == nullptr) continue;
                                 if (best < 0) {
                                   idx[pl * t.out_size + o] = -1;
                                   continue;
                                 }
                                 int64_t flat = best;
                                 if (storage_order == 1) {
                                   flat = 0;
                                   int64_t rem = best;
                                   for (size_t d = 0; d < t.rank; ++d) {
                                     const int64_t ip = rem / t.in_stride[d];
                                     rem -= ip * t.in_stride[d];
                                     flat += ip * col_stride[d];
                                   }
                                 }
                                 idx[pl * t.out_size + o] = pl * t.in_size + flat;
                               }
                             }
                             return ge::OkStatus();
                           },
                           "MaxPool input X"));
}

// ------------------------------------------------------------------ MaxUnpool

// Inputs X, I (int64, X's shape), output_shape (optional int64 [rank]).
ge::StatusOr<std::vector<int64_t>> MaxUnpoolDims(const gert::ContextBase& ctx,
                                                 const gert::Shape& x) {
  const size_t rank = x.GetDimNum();
  if (rank < 3) {
    return ctx.Error("input 0 (X) shape ", x.ToString(), " has rank ", rank,
                     "; expected (N, C, spatial...)");
  }
  WindowSpecOptions o;
  o.kernel_required = true;
  o.read_dilations = false;
  ASSIGN_OR_RETURN(WindowSpec spec, ReadWindowSpec(ctx, rank - 2, {}, o));
  if (spec.auto_pad != AutoPad::kNotSet) {
    return ctx.Error("MaxUnpool has no auto_pad attribute");
  }
  std::vector<int64_t> dims = {x.GetDim(0), x.GetDim(1)};
  const size_t nsp = rank - 2;
  for (size_t i = 0; i < nsp; ++i) {
    const int64_t in = x.GetDim(i + 2);
    if (in < 0) {
      dims.push_back(-1);
      continue;
    }
    int64_t out = 0;
    if (__builtin_mul_overflow(in > 0 ? in - 1 : 0, spec.strides[i], &out) ||
        out > (int64_t{1} << 60) || spec.kernel[i] > (int64_t{1} << 60) ||
        spec.pads[i] > (int64_t{1} << 60) || spec.pads[i + nsp] > (int64_t{1} << 60)) {
      return ctx.ErrorWithCode(ge::ErrorCode::kOverflow, "spatial dim ", i,
                               " of the unpooled output is too large");
    }
    out += spec.kernel[i] - spec.pads[i] - spec.pads[i + nsp];
    if (out < 1) {
      return ctx.Error("output spatial dim ", i, " would be ", out, " (input ", in, ", kernel ",
                       spec.kernel[i], ", stride ", spec.strides[i], ")");
    }
    dims.push_back(out);
  }
  return dims;
}

ge::Status CheckOutputShapeValue(const gert::ContextBase& ctx, const std::vector<int64_t>& v,
                                 const gert::Shape& x) {
  if (v.size() != x.GetDimNum()) {
    return ctx.Error("input 2 (output_shape) ", DimsStr(v), " must have ", x.GetDimNum(),
                     " entries (the rank of X)");
  }
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] < 0 || (i < 2 && x.GetDim(i) >= 0 && v[i] != x.GetDim(i))) {
      return ctx.Error("input 2 (output_shape) ", DimsStr(v), " does not fit X ", x.ToString());
    }
  }
  return ge::OkStatus();
}

ge::Status InferMaxUnpool(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  const gert::Shape* ind = ctx.GetInputShape(1);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr || ind == nullptr || y == nullptr) {
    return ctx.Error("MaxUnpool needs inputs X, I and output Y");
  }
  if (!x->IsUnknownRank() && !ind->IsUnknownRank()) {
    bool ok = x->GetDimNum() == ind->GetDimNum();
    for (size_t i = 0; ok && i < x->GetDimNum(); ++i) {
      ok = x->GetDim(i) < 0 || ind->GetDim(i) < 0 || x->GetDim(i) == ind->GetDim(i);
    }
    if (!ok) {
      return ctx.Error("input 1 (I) shape ", ind->ToString(), " must equal input 0 (X) shape ",
                       x->ToString());
    }
  }
  const gert::Shape* os = ctx.GetInputShape(2);
  if (os != nullptr) {
    const gert::Tensor* v = ctx.GetInputTensor(2);
    if (v != nullptr) {
      ge::StatusOr<std::vector<int64_t>> dims = ReadIntTensor(*v);
      if (!dims.ok()) return WithNode(ctx, ge::Annotate(dims.status(), "input 2 (output_shape): "));
      if (!x->IsUnknownRank()) RETURN_IF_ERROR(CheckOutputShapeValue(ctx, *dims, *x));
      ASSIGN_OR_RETURN(*y, NnShape(ctx, *dims));
      return ge::OkStatus();
    }
    int64_t rank = x->IsUnknownRank() ? -1 : static_cast<int64_t>(x->GetDimNum());
    if (rank < 0 && !os->IsUnknownRank() && os->GetDimNum() == 1) rank = os->GetDim(0);
    if (rank < 0) {
      *y = gert::Shape{ge::UNKNOWN_RANK};
      return ge::OkStatus();
    }
    if (rank > static_cast<int64_t>(gert::kMaxDimNum)) {
      return ctx.Error("input 2 (output_shape) has ", rank, " entries; the rank limit is ",
                       gert::kMaxDimNum);
    }
    std::vector<int64_t> dims(static_cast<size_t>(rank), -1);
    if (!x->IsUnknownRank() && rank >= 2) {
      dims[0] = x->GetDim(0);
      dims[1] = x->GetDim(1);
    }
    ASSIGN_OR_RETURN(*y, NnShape(ctx, dims));
    return ge::OkStatus();
  }
  if (x->IsUnknownRank()) {
    *y = gert::Shape{ge::UNKNOWN_RANK};
    return ge::OkStatus();
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> dims, MaxUnpoolDims(ctx, *x));
  ASSIGN_OR_RETURN(*y, NnShape(ctx, dims));
  return ge::OkStatus();
}

ge::Status MaxUnpoolKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* ind, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Tensor* os, GetOptionalInput(ctx, 2));
  if (ind->GetDataType() != ge::DT_INT64) {
    return ctx.Error("input 1 (I) must be DT_INT64, got ", DataTypeName(ind->GetDataType()));
  }
  if (ind->GetShape() != x->GetShape()) {
    return ctx.Error("input 1 (I) shape ", ind->GetShape().ToString(),
                     " must equal input 0 (X) shape ", x->GetShape().ToString());
  }
  // Indices address the default output (from kernel / strides / pads); an
  // explicit output_shape places that output's elements at the same
  // coordinates of a (larger) tensor, as the ONNX reference does.
  ASSIGN_OR_RETURN(std::vector<int64_t> ddims, MaxUnpoolDims(ctx, x->GetShape()));
  std::vector<int64_t> dims = ddims;
  if (os != nullptr) {
    ge::StatusOr<std::vector<int64_t>> v = ReadIntTensor(*os);
    if (!v.ok()) return WithNode(ctx, ge::Annotate(v.status(), "input 2 (output_shape): "));
    RETURN_IF_ERROR(CheckOutputShapeValue(ctx, *v, x->GetShape()));
    dims = *std::move(v);
  }
  ASSIGN_OR_RETURN(gert::Shape ys, NnShape(ctx, dims));
  ASSIGN_OR_RETURN(gert::Shape ds, NnShape(ctx, ddims));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, x->GetDataType()));
  const int64_t total = ds.GetShapeSize();
  const int64_t count = x->GetShapeSize();
  const int64_t* idx = ind->GetData<int64_t>();
  const size_t rank = dims.size();
  // Output offset of every default-output position: identical shapes map 1:1.
  std::vector<int64_t> target(static_cast<size_t>(count));
  for (int64_t j = 0; j < count; ++j) {
    if (idx[j] < 0 || idx[j] >= total) {
      return ctx.ErrorWithCode(ge::ErrorCode::kOutOfRange, "input 1 (I) element ", j, " (", idx[j],
                               ") is outside the unpooled output of ", total, " elements ",
                               ds.ToString());
    }
    int64_t rem = idx[j];
    int64_t off = 0;
    int64_t stride_d = 1;
    int64_t stride_y = 1;
    for (size_t d = rank; d-- > 0;) {
      const int64_t coord = rem / stride_d % ddims[d];
      if (coord >= dims[d]) {
        return ctx.ErrorWithCode(ge::ErrorCode::kOutOfRange, "input 1 (I) element ", j, " (",
                                 idx[j], ") falls outside output_shape ", ys.ToString());
      }
      off += coord * stride_y;
      stride_d *= ddims[d];
      stride_y *= dims[d];
    }
    target[j] = off;
  }
  const int64_t out_total = ys.GetShapeSize();
  return WithNode(ctx, DispatchType<kTgAllFloat>(
                           x->GetDataType(),
                           [&](auto tag) {
                             using T = typename decltype(tag)::type;
                             T* out = y->GetData<T>();
                             std::fill(out, out + out_total, FromCompute<T>(0));
                             const T* in = x->GetData<T>();
                             for (int64_t j = 0; j < count; ++j) out[target[j]] = in[j];
                             return ge::OkStatus();
                           },
                           "MaxUnpool input X"));
}

// ------------------------------------------------------------------ global pools

ge::Status InferGlobalPool(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (X) is missing");
  if (y == nullptr) return ctx.Error("output 0 (Y) is missing");
  if (x->IsUnknownRank()) {
    *y = *x;
    return ge::OkStatus();
  }
  if (x->GetDimNum() < 2) {
    return ctx.Error("input 0 (X) shape ", x->ToString(), " has rank ", x->GetDimNum(),
                     "; expected (N, C, spatial...)");
  }
  *y = *x;
  for (size_t i = 2; i < x->GetDimNum(); ++i) y->SetDim(i, 1);
  return ge::OkStatus();
}

gert::Shape GlobalPoolShape(const gert::Shape& x) {
  gert::Shape y = x;
  for (size_t i = 2; i < x.GetDimNum(); ++i) y.SetDim(i, 1);
  return y;
}

ge::Status GlobalAveragePoolKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  if (x->GetShape().GetDimNum() < 2) {
    return ctx.Error("input 0 (X) shape ", x->GetShape().ToString(), " has rank < 2");
  }
  ASSIGN_OR_RETURN(gert::Tensor * y,
                   PrepareOutput(ctx, 0, GlobalPoolShape(x->GetShape()), x->GetDataType()));
  const int64_t planes = x->GetShape().GetDim(0) * x->GetShape().GetDim(1);
  const int64_t size = planes > 0 ? x->GetShapeSize() / planes : 0;
  return DispatchCompute(x->GetDataType(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    ComputeInput<C> xin;
    ComputeOutput<C> yout;
    RETURN_IF_ERROR(WithNode(ctx, xin.Init(*x)));
    RETURN_IF_ERROR(WithNode(ctx, yout.Init(y)));
    for (int64_t pl = 0; pl < planes; ++pl) {
      const C* src = xin.data() + pl * size;
      C acc = 0;
      for (int64_t i = 0; i < size; ++i) acc += src[i];
      yout.data()[pl] = size > 0 ? acc / static_cast<C>(size) : C{0};
    }
    yout.Commit();
    return ge::OkStatus();
  });
}

ge::Status GlobalMaxPoolKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  if (x->GetShape().GetDimNum() < 2) {
    return ctx.Error("input 0 (X) shape ", x->GetShape().ToString(), " has rank < 2");
  }
  ASSIGN_OR_RETURN(gert::Tensor * y,
                   PrepareOutput(ctx, 0, GlobalPoolShape(x->GetShape()), x->GetDataType()));
  const int64_t planes = x->GetShape().GetDim(0) * x->GetShape().GetDim(1);
  const int64_t size = planes > 0 ? x->GetShapeSize() / planes : 0;
  if (size == 0 && planes > 0) {
    return ctx.Error("input 0 (X) shape ", x->GetShape().ToString(),
                     " has empty spatial dims; the max is undefined");
  }
  return WithNode(ctx, DispatchType<kTgAllFloat>(
                           x->GetDataType(),
                           [&](auto tag) {
                             using T = typename decltype(tag)::type;
                             const T* in = x->GetData<T>();
                             T* out = y->GetData<T>();
                             for (int64_t pl = 0; pl < planes; ++pl) {
                               const T* src = in + pl * size;
                               int64_t best = 0;
                               auto best_v = ToCompute(src[0]);
                               for (int64_t i = 1; i < size; ++i) {
                                 const auto v = ToCompute(src[i]);
                                 if (v > best_v) {
                                   best_v = v;
                                   best = i;
                                 }
                               }
                               out[pl] = src[best];
                             }
                             return ge::OkStatus();
                           },
                           "GlobalMaxPool input X"));
}

}  // namespace

REG_OP(AveragePool)
    .Input("X", FloatTypesBf16())
    .Output("Y", FloatTypesBf16())
    .Attr("auto_pad", AttrStr("NOTSET"))
    .Attr("ceil_mode", AttrInt(0))
    .Attr("count_include_pad", AttrInt(0))
    .RequiredAttr("kernel_shape", ge::AttrValue::VT_LIST_INT)
    .Attr("pads", AttrInts())
    .Attr("strides", AttrInts())
    .InferShape(InferAvgPool);
REG_KERNEL(AveragePool, ge::kEngineHostCpu).Fn(AvgPoolKernel);

REG_OP(MaxPool)
    .Input("X", ge::TensorType{ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_DOUBLE,
                               ge::DT_INT8, ge::DT_UINT8})
    .Output("Y", ge::TensorType{ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_DOUBLE,
                                ge::DT_INT8, ge::DT_UINT8})
    .OptionalOutput("Indices", ge::TensorType{ge::DT_INT64})
    .Attr("auto_pad", AttrStr("NOTSET"))
    .Attr("ceil_mode", AttrInt(0))
    .Attr("dilations", AttrInts())
    .RequiredAttr("kernel_shape", ge::AttrValue::VT_LIST_INT)
    .Attr("pads", AttrInts())
    .Attr("storage_order", AttrInt(0))
    .Attr("strides", AttrInts())
    .InferShape(InferMaxPool)
    .InferDataType(InferMaxPoolType);
REG_KERNEL(MaxPool, ge::kEngineHostCpu).Fn(MaxPoolKernel);

REG_OP(MaxUnpool)
    .Input("X", FloatTypes())
    .Input("I", ge::TensorType{ge::DT_INT64})
    .OptionalInput("output_shape", ge::TensorType{ge::DT_INT64})
    .Output("output", FloatTypes())
    .RequiredAttr("kernel_shape", ge::AttrValue::VT_LIST_INT)
    .Attr("pads", AttrInts())
    .Attr("strides", AttrInts())
    .InferShape(InferMaxUnpool)
    .ValueDependentInput("output_shape");
REG_KERNEL(MaxUnpool, ge::kEngineHostCpu).Fn(MaxUnpoolKernel);

REG_OP(LpPool)
    .Input("X", FloatTypes())
    .Output("Y", FloatTypes())
    .Attr("auto_pad", AttrStr("NOTSET"))
    .RequiredAttr("kernel_shape", ge::AttrValue::VT_LIST_INT)
    .Attr("p", AttrInt(2))
    .Attr("pads", AttrInts())
    .Attr("strides", AttrInts())
    .InferShape(InferLpPool)
    .Verify(VerifyLpPool);
REG_KERNEL(LpPool, ge::kEngineHostCpu).Fn(LpPoolKernel);

REG_OP(GlobalAveragePool)
    .Input("X", FloatTypesBf16())
    .Output("Y", FloatTypesBf16())
    .InferShape(InferGlobalPool);
REG_KERNEL(GlobalAveragePool, ge::kEngineHostCpu).Fn(GlobalAveragePoolKernel);

REG_OP(GlobalMaxPool)
    .Input("X", FloatTypesBf16())
    .Output("Y", FloatTypesBf16())
    .InferShape(InferGlobalPool);
REG_KERNEL(GlobalMaxPool, ge::kEngineHostCpu).Fn(GlobalMaxPoolKernel);

}  // namespace nn
}  // namespace ops
