// ops/nn/conv.cc
//
// Convolutions (ONNX opset 17): Conv, ConvTranspose, ConvInteger,
// QLinearConv, and Col2Im (opset 18).
//
// Layout NCHW (N, C, spatial...) with 1 or more spatial dims; weights
// (M, C / group, kernel...) for Conv and (C, M / group, kernel...) for
// ConvTranspose. Kernels run im2col + a blocked GEMM per (image, group):
//   Conv           Y_g[Mg, out] = W_g[Mg, Cg * k] * cols[Cg * k, out]
//   ConvTranspose  cols[Mg * k, in] = W_g^T * X_g[Cg, in], then col2im
// Integer convolutions subtract zero points first and accumulate in int32.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/gemm.h"
#include "ops/common/op_util.h"
#include "ops/common/scratch.h"
#include "ops/common/shape_range.h"
#include "ops/nn/nn_util.h"

namespace ops {
namespace nn {
namespace {

// A shape of `rank` unknown dims (for an input of unknown rank whose rank is
// implied by another input).
gert::Shape UnknownDims(size_t rank) {
  gert::Shape s;
  for (size_t i = 0; i < rank; ++i) s.AppendDim(-1);
  return s;
}

// ------------------------------------------------------------------ plans

// Shapes of a forward convolution (Conv, ConvInteger, QLinearConv). Dims may
// be -1 at compile time.
struct ConvPlan {
  int64_t n = -1;
  int64_t c = -1;
  int64_t m = -1;
  int64_t group = 1;
  WindowSpec spec;
  absl::InlinedVector<WindowDim, 8> dims;
  DimVec y_dims;
};

// x / w of known rank (callers substitute unknown-rank inputs). b may be null.
ge::StatusOr<ConvPlan> PlanConv(const gert::ContextBase& ctx, const gert::Shape& x,
                                const gert::Shape& w, const gert::Shape* b, size_t x_idx,
                                size_t w_idx, size_t b_idx) {
  const size_t rank = x.GetDimNum();
  if (rank < 3) {
    return ctx.Error("input ", x_idx, " (X) shape ", x.ToString(), " has rank ", rank,
                     "; expected (N, C, spatial...) with at least one spatial dim");
  }
  if (w.GetDimNum() != rank) {
    return ctx.Error("input ", w_idx, " (W) shape ", w.ToString(), " has rank ", w.GetDimNum(),
                     " but input ", x_idx, " (X) shape ", x.ToString(), " has rank ", rank);
  }
  ConvPlan p;
  ASSIGN_OR_RETURN(p.group, ctx.GetIntOr("group", 1));
  if (p.group < 1) return ctx.Error("attribute group (", p.group, ") must be >= 1");
  p.n = x.GetDim(0);
  p.c = x.GetDim(1);
  p.m = w.GetDim(0);
  const int64_t wc = w.GetDim(1);
  if (p.c >= 0 && wc >= 0 && p.c != wc * p.group) {
    return ctx.Error("input ", x_idx, " (X) has ", p.c, " channels but W ", w.ToString(),
                     " expects ", wc, " x group ", p.group, " = ", wc * p.group);
  }
  if (p.m >= 0 && p.m % p.group != 0) {
    return ctx.Error("W output channels (", p.m, ") are not divisible by group ", p.group);
  }
  if (b != nullptr && !b->IsUnknownRank()) {
    if (b->GetDimNum() != 1 || (p.m >= 0 && b->GetDim(0) >= 0 && b->GetDim(0) != p.m)) {
      return ctx.Error("input ", b_idx, " (B) shape ", b->ToString(), " must be [", p.m,
                       "] (the output channels)");
    }
  }
  const size_t nsp = rank - 2;
  const DimVec wk(w.GetDims().begin() + 2, w.GetDims().end());
  WindowSpecOptions opts;
  ASSIGN_OR_RETURN(p.spec, ReadWindowSpec(ctx, nsp, wk, opts));
  p.y_dims = {p.n, p.m};
  for (size_t i = 0; i < nsp; ++i) {
    ASSIGN_OR_RETURN(WindowDim d, ComputeWindowDim(ctx, p.spec, i, x.GetDim(i + 2)));
    p.dims.push_back(d);
    p.y_dims.push_back(d.out);
  }
  return p;
}

// Infer shape of a forward convolution with inputs X, W, B at the indices.
ge::Status InferConvAt(gert::InferShapeContext& ctx, size_t x_idx, size_t w_idx, size_t b_idx) {
  const gert::Shape* x = ctx.GetInputShape(x_idx);
  const gert::Shape* w = ctx.GetInputShape(w_idx);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr) return ctx.Error("input ", x_idx, " (X) is missing");
  if (w == nullptr) return ctx.Error("input ", w_idx, " (W) is missing");
  if (y == nullptr) return ctx.Error("output 0 (Y) is missing");
  if (x->IsUnknownRank() && w->IsUnknownRank()) {
    *y = gert::Shape{ge::UNKNOWN_RANK};
    return ge::OkStatus();
  }
  const gert::Shape xs = x->IsUnknownRank() ? UnknownDims(w->GetDimNum()) : *x;
  const gert::Shape ws = w->IsUnknownRank() ? UnknownDims(x->GetDimNum()) : *w;
  ASSIGN_OR_RETURN(ConvPlan p, PlanConv(ctx, xs, ws, ctx.GetInputShape(b_idx), x_idx, w_idx,
                                        b_idx));
  ASSIGN_OR_RETURN(*y, NnShape(ctx, p.y_dims));
  if (!AnyInputRange(ctx) || x->IsUnknownRank()) return ge::OkStatus();
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, x_idx));
  ASSIGN_OR_RETURN(gert::ShapeRange wr, InputRange(ctx, w_idx));
  const DimRange m = wr.empty() ? DimRangeOf(p.m) : wr[0];
  ASSIGN_OR_RETURN(gert::ShapeRange range, WindowOutputRange(ctx, p.spec, xr, m));
  return SetOutputRange(ctx, 0, std::move(range));
}

// Column buffers beyond this many elements are refused (NotSupported) rather
// than risking an allocation failure.
constexpr int64_t kMaxColumnElements = int64_t{1} << 31;

ge::Status CheckColumns(const gert::ContextBase& ctx, int64_t rows, int64_t cols) {
  int64_t n = 0;
  if (__builtin_mul_overflow(rows, cols, &n) || n > kMaxColumnElements) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "the im2col buffer (", rows, " x ", cols,
                             ") exceeds ", kMaxColumnElements, " elements");
  }
  return ge::OkStatus();
}

ConvGeometry ForwardGeometry(const ConvPlan& p, const gert::Shape& x) {
  ConvGeometry g;
  for (size_t i = 0; i < p.dims.size(); ++i) {
    g.image.push_back(x.GetDim(i + 2));
    g.kernel.push_back(p.spec.kernel[i]);
    g.strides.push_back(p.spec.strides[i]);
    g.dilations.push_back(p.spec.dilations[i]);
    g.pad_begin.push_back(p.dims[i].pad_begin);
    g.out.push_back(p.dims[i].out);
  }
  return g;
}

// ------------------------------------------------------------------ Conv

ge::Status InferConv(gert::InferShapeContext& ctx) { return InferConvAt(ctx, 0, 1, 2); }

ge::Status VerifyConv(gert::InferShapeContext& ctx) { return CheckSameDtype(ctx, {0, 1, 2}); }

template <typename C>
ge::Status ConvCompute(gert::KernelContext& ctx, const gert::Tensor& x, const gert::Tensor& w,
                       const gert::Tensor* b, const ConvPlan& p, gert::Tensor* y) {
  ComputeInput<C> xin, win, bin;
  ComputeOutput<C> yout;
  RETURN_IF_ERROR(WithNode(ctx, xin.Init(x)));
  RETURN_IF_ERROR(WithNode(ctx, win.Init(w)));
  if (b != nullptr) RETURN_IF_ERROR(WithNode(ctx, bin.Init(*b)));
  RETURN_IF_ERROR(WithNode(ctx, yout.Init(y)));
  ConvGeometry g = ForwardGeometry(p, x.GetShape());
  RETURN_IF_ERROR(WithNode(ctx, g.Finalize()));
  const int64_t cg = p.c / p.group;
  const int64_t mg = p.m / p.group;
  const int64_t kdim = cg * g.kernel_size;
  const bool pointwise = g.IsPointwise();
  if (!pointwise) RETURN_IF_ERROR(CheckColumns(ctx, kdim, g.out_size));
  // 2-D float convolutions pack their columns straight into the GEMM's
  // panels (no im2col matrix); the others, and should the GEMM's buffers
  // fail to grow, go through the im2col buffer.
  const bool fused = std::is_same_v<C, float> && !pointwise && g.rank() == 2;
  // The im2col buffer is per-thread scratch: no allocation per call.
  C* cols = nullptr;
  auto take_cols = [&]() -> ge::Status {
    cols = ThreadScratch<C>(ScratchSlot::kKernel0, static_cast<size_t>(kdim * g.out_size));
    if (cols != nullptr) return ge::OkStatus();
    return ctx.ErrorWithCode(ge::ErrorCode::kMemoryAllocFailed, "no memory for the im2col buffer (",
                             kdim, " x ", g.out_size, ")");
  };
  if (!pointwise && !fused) RETURN_IF_ERROR(take_cols());
  C* out = yout.data();
  for (int64_t n = 0; n < p.n; ++n) {
    for (int64_t grp = 0; grp < p.group; ++grp) {
      const C* image = xin.data() + (n * p.c + grp * cg) * g.image_size;
      C* yg = out + (n * p.m + grp * mg) * g.out_size;
      const C* wg = win.data() + grp * mg * kdim;
      const C* bias = b != nullptr ? bin.data() + grp * mg : nullptr;
      if constexpr (std::is_same_v<C, float>) {
        if (fused) {
          // The GEMM writes bias + W * columns (the output is written once).
          auto pack = [&](int64_t p0, int64_t kc, int64_t j0, int64_t nc, int64_t nr, float* to) {
            PackIm2Col2d(g, image, p0, kc, j0, nc, nr, to);
          };
          if (ops::GemmF32PackedB(mg, g.out_size, kdim, 1.0f, wg, kdim, pack, bias, yg,
                                  g.out_size)) {
            continue;
          }
          if (cols == nullptr) RETURN_IF_ERROR(take_cols());
        }
      }
      if constexpr (std::is_same_v<C, float>) {
        if (pointwise && bias != nullptr) {
          ops::GemmF32RowBias(mg, g.out_size, kdim, wg, kdim, image, g.out_size, bias, yg,
                              g.out_size);
          continue;
        }
      }
      // With a bias, each output plane starts as its bias and the GEMM adds
      // into it.
      if (bias != nullptr) {
        for (int64_t m = 0; m < mg; ++m) {
          std::fill(yg + m * g.out_size, yg + (m + 1) * g.out_size, bias[m]);
        }
      }
      const C* colp = image;
      if (!pointwise) {
        Im2Col<C>(g, cg, image, C{0}, cols);
        colp = cols;
      }
      Gemm<C>(mg, g.out_size, kdim, wg, kdim, colp, g.out_size, yg, g.out_size, b != nullptr);
    }
  }
  yout.Commit();
  return ge::OkStatus();
}

ge::Status ConvKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* w, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Tensor* b, GetOptionalInput(ctx, 2));
  ASSIGN_OR_RETURN(ConvPlan p, PlanConv(ctx, x->GetShape(), w->GetShape(),
                                        b ? &b->GetShape() : nullptr, 0, 1, 2));
  ASSIGN_OR_RETURN(gert::Shape ys, NnShape(ctx, p.y_dims));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, x->GetDataType()));
  return DispatchCompute(x->GetDataType(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    return ConvCompute<C>(ctx, *x, *w, b, p, y);
  });
}

// ------------------------------------------------------------------ ConvTranspose

struct ConvTransposePlan {
  int64_t n = -1;
  int64_t c = -1;
  int64_t m = -1;  // output channels = W.dim1 * group
  int64_t group = 1;
  WindowSpec spec;
  std::vector<int64_t> pad_begin;
  std::vector<int64_t> y_dims;
};

ge::StatusOr<ConvTransposePlan> PlanConvTranspose(const gert::ContextBase& ctx,
                                                  const gert::Shape& x, const gert::Shape& w,
                                                  const gert::Shape* b) {
  const size_t rank = x.GetDimNum();
  if (rank < 3) {
    return ctx.Error("input 0 (X) shape ", x.ToString(), " has rank ", rank,
                     "; expected (N, C, spatial...) with at least one spatial dim");
  }
  if (w.GetDimNum() != rank) {
    return ctx.Error("input 1 (W) shape ", w.ToString(), " has rank ", w.GetDimNum(),
                     " but input 0 (X) shape ", x.ToString(), " has rank ", rank);
  }
  ConvTransposePlan p;
  ASSIGN_OR_RETURN(p.group, ctx.GetIntOr("group", 1));
  if (p.group < 1) return ctx.Error("attribute group (", p.group, ") must be >= 1");
  p.n = x.GetDim(0);
  p.c = x.GetDim(1);
  const int64_t wc = w.GetDim(0);
  const int64_t wm = w.GetDim(1);
  if (p.c >= 0 && wc >= 0 && p.c != wc) {
    return ctx.Error("input 0 (X) has ", p.c, " channels but W ", w.ToString(), " has ", wc,
                     " input channels");
  }
  if (wc >= 0 && wc % p.group != 0) {
    return ctx.Error("W input channels (", wc, ") are not divisible by group ", p.group);
  }
  p.m = wm < 0 ? -1 : wm * p.group;
  if (b != nullptr && !b->IsUnknownRank()) {
    if (b->GetDimNum() != 1 || (p.m >= 0 && b->GetDim(0) >= 0 && b->GetDim(0) != p.m)) {
      return ctx.Error("input 2 (B) shape ", b->ToString(), " must be [", p.m,
                       "] (the output channels)");
    }
  }
  const size_t nsp = rank - 2;
  const DimVec wk(w.GetDims().begin() + 2, w.GetDims().end());
  ASSIGN_OR_RETURN(p.spec, ReadWindowSpec(ctx, nsp, wk, WindowSpecOptions{}));
  ASSIGN_OR_RETURN(std::vector<int64_t> out_pad, ctx.GetListIntOr("output_padding", {}));
  if (out_pad.empty()) out_pad.assign(nsp, 0);
  if (out_pad.size() != nsp) {
    return ctx.Error("attribute output_padding ", DimsStr(out_pad), " has ", out_pad.size(),
                     " entries, expected ", nsp);
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> out_shape, ctx.GetListIntOr("output_shape", {}));
  if (!out_shape.empty()) {
    if (out_shape.size() == nsp + 2) out_shape.erase(out_shape.begin(), out_shape.begin() + 2);
    if (out_shape.size() != nsp) {
      return ctx.Error("attribute output_shape ", DimsStr(out_shape), " has ", out_shape.size(),
                       " entries, expected ", nsp, " spatial dims");
    }
  }
  p.y_dims = {p.n, p.m};
  for (size_t i = 0; i < nsp; ++i) {
    const int64_t in = x.GetDim(i + 2);
    const int64_t k = p.spec.kernel[i];
    const int64_t s = p.spec.strides[i];
    const int64_t d = p.spec.dilations[i];
    const int64_t op = out_pad[i];
    if (op < 0 || (op >= s && op >= d)) {
      return ctx.Error("attribute output_padding ", DimsStr(out_pad), ": entry ", i, " (", op,
                       ") must be >= 0 and smaller than the stride (", s, ") or dilation (", d,
                       ")");
    }
    if (!out_shape.empty() && out_shape[i] < 1) {
      return ctx.Error("attribute output_shape ", DimsStr(out_shape), ": entry ", i,
                       " must be >= 1");
    }
    int64_t out = -1;
    int64_t pb = p.spec.pads[i];
    if (in == 0) return ctx.Error("input 0 (X) spatial dim ", i, " is 0");
    if (in >= 0 && k >= 0) {
      // full = s * (in - 1) + op + (k - 1) * d + 1: the output without pads.
      int64_t full = 0, dk = 0;
      constexpr int64_t kBig = int64_t{1} << 60;
      if (__builtin_mul_overflow(s, in > 0 ? in - 1 : 0, &full) ||
          __builtin_mul_overflow(k > 0 ? k - 1 : 0, d, &dk) || full > kBig || dk > kBig ||
          p.spec.pads[i] > kBig || p.spec.pads[i + nsp] > kBig) {
        return ctx.ErrorWithCode(ge::ErrorCode::kOverflow, "ConvTranspose spatial dim ", i,
                                 " is too large (input ", in, ", stride ", s, ", kernel ", k,
                                 ", dilation ", d, ")");
      }
      full += op + dk + 1;
      if (!out_shape.empty() || p.spec.auto_pad == AutoPad::kSameUpper ||
          p.spec.auto_pad == AutoPad::kSameLower) {
        out = !out_shape.empty() ? out_shape[i] : full - op - dk - 1 + s;  // in * s
        const int64_t total = full - out;
        if (total < 0) {
          pb = 0;  // positions past the full output only get the bias
        } else if (p.spec.auto_pad == AutoPad::kSameUpper) {
          pb = total / 2;
        } else {
          pb = total - total / 2;
        }
      } else {
        out = full - p.spec.pads[i] - p.spec.pads[i + nsp];
      }
      if (out < 1) {
        return ctx.Error("output spatial dim ", i, " is ", out, " (input ", in, ", stride ", s,
                         ", kernel ", k, ", dilation ", d, ", pads ", p.spec.pads[i], "+",
                         p.spec.pads[i + nsp], ")");
      }
    } else if (!out_shape.empty()) {
      out = out_shape[i];
    }
    p.pad_begin.push_back(pb);
    p.y_dims.push_back(out);
  }
  return p;
}

ge::Status InferConvTranspose(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  const gert::Shape* w = ctx.GetInputShape(1);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (X) is missing");
  if (w == nullptr) return ctx.Error("input 1 (W) is missing");
  if (y == nullptr) return ctx.Error("output 0 (Y) is missing");
  if (x->IsUnknownRank() && w->IsUnknownRank()) {
    *y = gert::Shape{ge::UNKNOWN_RANK};
    return ge::OkStatus();
  }
  const gert::Shape xs = x->IsUnknownRank() ? UnknownDims(w->GetDimNum()) : *x;
  const gert::Shape ws = w->IsUnknownRank() ? UnknownDims(x->GetDimNum()) : *w;
  ASSIGN_OR_RETURN(ConvTransposePlan p, PlanConvTranspose(ctx, xs, ws, ctx.GetInputShape(2)));
  ASSIGN_OR_RETURN(*y, NnShape(ctx, p.y_dims));
  if (!AnyInputRange(ctx) || x->IsUnknownRank()) return ge::OkStatus();
  // N from X; channels W.dim1 * group; each spatial dim maps its input range
  // through the (nondecreasing) output size formula, or is output_shape's.
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  ASSIGN_OR_RETURN(gert::ShapeRange wr, InputRange(ctx, 1));
  const size_t nsp = p.spec.rank();
  ASSIGN_OR_RETURN(std::vector<int64_t> out_pad, ctx.GetListIntOr("output_padding", {}));
  ASSIGN_OR_RETURN(std::vector<int64_t> out_shape, ctx.GetListIntOr("output_shape", {}));
  if (out_shape.size() == nsp + 2) out_shape.erase(out_shape.begin(), out_shape.begin() + 2);
  gert::ShapeRange range = {xr[0], wr.empty() ? DimRangeOf(p.m) : ScaleDimRange(wr[1], p.group)};
  const bool same =
      p.spec.auto_pad == AutoPad::kSameUpper || p.spec.auto_pad == AutoPad::kSameLower;
  for (size_t i = 0; i < nsp; ++i) {
    const int64_t k = p.spec.kernel[i], s = p.spec.strides[i], d = p.spec.dilations[i];
    const int64_t op = out_pad.size() == nsp ? out_pad[i] : 0;
    const int64_t pads = p.spec.pads[i] + p.spec.pads[i + nsp];
    if (out_shape.size() == nsp) {
      range.push_back(DimRangeOf(out_shape[i]));
      continue;
    }
    if (k < 0) {
      range.push_back(DimRange{0, kUnboundedDim});
      continue;
    }
    range.push_back(MapDimRange(xr[i + 2], [&](int64_t in) -> int64_t {
      constexpr int64_t kBig = int64_t{1} << 60;
      if (in > kBig / s) return kBig;
      return same ? in * s : s * (in - 1) + op + (k - 1) * d + 1 - pads;
    }));
  }
  return SetOutputRange(ctx, 0, std::move(range));
}

template <typename C>
ge::Status ConvTransposeCompute(gert::KernelContext& ctx, const gert::Tensor& x,
                                const gert::Tensor& w, const gert::Tensor* b,
                                const ConvTransposePlan& p, gert::Tensor* y) {
  ComputeInput<C> xin, win, bin;
  ComputeOutput<C> yout;
  RETURN_IF_ERROR(WithNode(ctx, xin.Init(x)));
  RETURN_IF_ERROR(WithNode(ctx, win.Init(w)));
  if (b != nullptr) RETURN_IF_ERROR(WithNode(ctx, bin.Init(*b)));
  RETURN_IF_ERROR(WithNode(ctx, yout.Init(y)));
  // In col2im terms the "image" is Y and the window positions are X's.
  ConvGeometry g;
  const size_t nsp = p.spec.rank();
  for (size_t i = 0; i < nsp; ++i) {
    g.image.push_back(p.y_dims[i + 2]);
    g.kernel.push_back(p.spec.kernel[i]);
    g.strides.push_back(p.spec.strides[i]);
    g.dilations.push_back(p.spec.dilations[i]);
    g.pad_begin.push_back(p.pad_begin[i]);
    g.out.push_back(x.GetShape().GetDim(i + 2));
  }
  RETURN_IF_ERROR(WithNode(ctx, g.Finalize()));
  const int64_t cg = p.c / p.group;
  const int64_t mg = p.m / p.group;
  const int64_t rows = mg * g.kernel_size;  // rows of W_g^T
  RETURN_IF_ERROR(CheckColumns(ctx, rows, g.out_size));
  // W_g is [cg, rows]; transpose every group once.
  std::vector<C> wt(static_cast<size_t>(p.group * rows * cg));
  for (int64_t grp = 0; grp < p.group; ++grp) {
    const C* wg = win.data() + grp * cg * rows;
    C* tg = wt.data() + grp * rows * cg;
    for (int64_t ci = 0; ci < cg; ++ci) {
      for (int64_t r = 0; r < rows; ++r) tg[r * cg + ci] = wg[ci * rows + r];
    }
  }
  std::vector<C> cols(static_cast<size_t>(rows * g.out_size));
  C* out = yout.data();
  std::fill(out, out + yout.size(), C{0});
  for (int64_t n = 0; n < p.n; ++n) {
    for (int64_t grp = 0; grp < p.group; ++grp) {
      const C* xg = xin.data() + (n * p.c + grp * cg) * g.out_size;
      Gemm<C>(rows, g.out_size, cg, wt.data() + grp * rows * cg, cg, xg, g.out_size, cols.data(),
              g.out_size, false);
      Col2ImAdd<C>(g, mg, cols.data(), out + (n * p.m + grp * mg) * g.image_size);
    }
    if (b != nullptr) {
      for (int64_t m = 0; m < p.m; ++m) {
        C* plane = out + (n * p.m + m) * g.image_size;
        const C bv = bin.data()[m];
        for (int64_t o = 0; o < g.image_size; ++o) plane[o] += bv;
      }
    }
  }
  yout.Commit();
  return ge::OkStatus();
}

ge::Status ConvTransposeKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* w, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Tensor* b, GetOptionalInput(ctx, 2));
  ASSIGN_OR_RETURN(ConvTransposePlan p, PlanConvTranspose(ctx, x->GetShape(), w->GetShape(),
                                                          b ? &b->GetShape() : nullptr));
  ASSIGN_OR_RETURN(gert::Shape ys, NnShape(ctx, p.y_dims));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, x->GetDataType()));
  return DispatchCompute(x->GetDataType(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    return ConvTransposeCompute<C>(ctx, *x, *w, b, p, y);
  });
}

// ------------------------------------------------------------------ integer convolutions

// Element i of an INT8 / UINT8 tensor as int32 (for scalars).
int32_t QuantAt(const gert::Tensor& t, int64_t i) {
  return t.GetDataType() == ge::DT_INT8 ? static_cast<int32_t>(t.GetData<int8_t>()[i])
                                        : static_cast<int32_t>(t.GetData<uint8_t>()[i]);
}

// out[j] = t[start + j] - sub for j < count (INT8 / UINT8 tensors).
void QuantToInt32(const gert::Tensor& t, int64_t start, int64_t count, int32_t sub, int32_t* out) {
  if (t.GetDataType() == ge::DT_INT8) {
    const int8_t* p = t.GetData<int8_t>() + start;
    for (int64_t j = 0; j < count; ++j) out[j] = static_cast<int32_t>(p[j]) - sub;
  } else {
    const uint8_t* p = t.GetData<uint8_t>() + start;
    for (int64_t j = 0; j < count; ++j) out[j] = static_cast<int32_t>(p[j]) - sub;
  }
}

// A zero point / scale: absent (default), a scalar / 1-element tensor, or
// (when per_channel > 0) a 1-D tensor of per_channel elements.
ge::Status CheckQuantParam(const gert::ContextBase& ctx, const gert::Tensor* t, size_t idx,
                           absl::string_view name, int64_t per_channel) {
  if (t == nullptr) return ge::OkStatus();
  const int64_t count = t->GetShapeSize();
  if (count == 1 && t->GetShape().GetDimNum() <= 1) return ge::OkStatus();
  if (per_channel > 0 && t->GetShape().GetDimNum() == 1 && count == per_channel) {
    return ge::OkStatus();
  }
  return ctx.Error("input ", idx, " (", name, ") shape ", t->GetShape().ToString(),
                   " must be a scalar",
                   per_channel > 0 ? absl::StrCat(" or [", per_channel, "]") : std::string());
}

// acc[n, m, out] (int32) = sum (x - x_zp) * (w - w_zp[m]) over the window.
ge::Status IntegerConvAccumulate(gert::KernelContext& ctx, const gert::Tensor& x,
                                 const gert::Tensor& w, const gert::Tensor* x_zp,
                                 const gert::Tensor* w_zp, const ConvPlan& p, int32_t* acc) {
  ConvGeometry g = ForwardGeometry(p, x.GetShape());
  RETURN_IF_ERROR(WithNode(ctx, g.Finalize()));
  const int64_t cg = p.c / p.group;
  const int64_t mg = p.m / p.group;
  const int64_t kdim = cg * g.kernel_size;
  RETURN_IF_ERROR(CheckColumns(ctx, kdim, g.out_size));
  const int32_t xz = x_zp != nullptr ? QuantAt(*x_zp, 0) : 0;
  // Weights minus their (per output channel) zero point.
  std::vector<int32_t> wq(static_cast<size_t>(p.m * kdim));
  const bool per_channel_w = w_zp != nullptr && w_zp->GetShapeSize() > 1;
  for (int64_t m = 0; m < p.m; ++m) {
    const int32_t wz = w_zp == nullptr ? 0 : QuantAt(*w_zp, per_channel_w ? m : 0);
    QuantToInt32(w, m * kdim, kdim, wz, wq.data() + m * kdim);
  }
  std::vector<int32_t> image(static_cast<size_t>(cg * g.image_size));
  std::vector<int32_t> cols(static_cast<size_t>(kdim * g.out_size));
  for (int64_t n = 0; n < p.n; ++n) {
    for (int64_t grp = 0; grp < p.group; ++grp) {
      const int64_t base = (n * p.c + grp * cg) * g.image_size;
      QuantToInt32(x, base, cg * g.image_size, xz, image.data());
      Im2Col<int32_t>(g, cg, image.data(), 0, cols.data());
      Gemm<int32_t>(mg, g.out_size, kdim, wq.data() + grp * mg * kdim, kdim, cols.data(),
                    g.out_size, acc + (n * p.m + grp * mg) * g.out_size, g.out_size, false);
    }
  }
  return ge::OkStatus();
}

ge::Status InferConvInteger(gert::InferShapeContext& ctx) { return InferConvAt(ctx, 0, 1, 99); }

ge::Status InferConvIntegerType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ge::DT_INT32);
  return ge::OkStatus();
}

ge::Status VerifyConvInteger(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(CheckSameDtype(ctx, {0, 2}));
  return CheckSameDtype(ctx, {1, 3});
}

ge::Status ConvIntegerKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* w, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Tensor* x_zp, GetOptionalInput(ctx, 2));
  ASSIGN_OR_RETURN(const gert::Tensor* w_zp, GetOptionalInput(ctx, 3));
  for (const gert::Tensor* t : {x, w, x_zp, w_zp}) {
    if (t != nullptr && t->GetDataType() != ge::DT_INT8 && t->GetDataType() != ge::DT_UINT8) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "data type ",
                               DataTypeName(t->GetDataType()),
                               " is not supported (expected INT8 or UINT8)");
    }
  }
  if (x_zp != nullptr && x_zp->GetDataType() != x->GetDataType()) {
    return ctx.Error("input 2 (x_zero_point) type differs from input 0 (x)");
  }
  if (w_zp != nullptr && w_zp->GetDataType() != w->GetDataType()) {
    return ctx.Error("input 3 (w_zero_point) type differs from input 1 (w)");
  }
  ASSIGN_OR_RETURN(ConvPlan p, PlanConv(ctx, x->GetShape(), w->GetShape(), nullptr, 0, 1, 99));
  RETURN_IF_ERROR(CheckQuantParam(ctx, x_zp, 2, "x_zero_point", 0));
  RETURN_IF_ERROR(CheckQuantParam(ctx, w_zp, 3, "w_zero_point", p.m));
  ASSIGN_OR_RETURN(gert::Shape ys, NnShape(ctx, p.y_dims));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, ge::DT_INT32));
  return IntegerConvAccumulate(ctx, *x, *w, x_zp, w_zp, p, y->GetData<int32_t>());
}

// QLinearConv inputs: x, x_scale, x_zero_point, w, w_scale, w_zero_point,
// y_scale, y_zero_point, B.
ge::Status InferQLinearConv(gert::InferShapeContext& ctx) { return InferConvAt(ctx, 0, 3, 8); }

ge::Status InferQLinearConvType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ctx.GetInputDataType(7));
  return ge::OkStatus();
}

ge::Status VerifyQLinearConv(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(CheckSameDtype(ctx, {0, 2}));
  return CheckSameDtype(ctx, {3, 5});
}

ge::Status QLinearConvKernel(gert::KernelContext& ctx) {
  const gert::Tensor* in[9] = {};
  for (size_t i = 0; i < 8; ++i) {
    ASSIGN_OR_RETURN(in[i], GetKernelInput(ctx, i));
  }
  ASSIGN_OR_RETURN(in[8], GetOptionalInput(ctx, 8));
  const gert::Tensor& x = *in[0];
  const gert::Tensor& w = *in[3];
  static const char* const kNames[] = {"x",       "x_scale",      "x_zero_point",
                                       "w",       "w_scale",      "w_zero_point",
                                       "y_scale", "y_zero_point", "B"};
  for (size_t i : {0, 2, 3, 5, 7}) {
    const ge::DataType dt = in[i]->GetDataType();
    if (dt != ge::DT_INT8 && dt != ge::DT_UINT8) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input ", i, " (", kNames[i],
                               ") has data type ", DataTypeName(dt), "; expected INT8 or UINT8");
    }
  }
  for (size_t i : {1, 4, 6}) {
    if (in[i]->GetDataType() != ge::DT_FLOAT) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input ", i, " (", kNames[i],
                               ") has data type ", DataTypeName(in[i]->GetDataType()),
                               "; expected DT_FLOAT");
    }
  }
  if (in[2]->GetDataType() != x.GetDataType() || in[5]->GetDataType() != w.GetDataType()) {
    return ctx.Error("zero point types must match x / w");
  }
  if (in[8] != nullptr && in[8]->GetDataType() != ge::DT_INT32) {
    return ctx.Error("input 8 (B) must be DT_INT32, got ", DataTypeName(in[8]->GetDataType()));
  }
  ASSIGN_OR_RETURN(ConvPlan p, PlanConv(ctx, x.GetShape(), w.GetShape(),
                                        in[8] ? &in[8]->GetShape() : nullptr, 0, 3, 8));
  RETURN_IF_ERROR(CheckQuantParam(ctx, in[1], 1, "x_scale", 0));
  RETURN_IF_ERROR(CheckQuantParam(ctx, in[2], 2, "x_zero_point", 0));
  RETURN_IF_ERROR(CheckQuantParam(ctx, in[4], 4, "w_scale", p.m));
  RETURN_IF_ERROR(CheckQuantParam(ctx, in[5], 5, "w_zero_point", p.m));
  RETURN_IF_ERROR(CheckQuantParam(ctx, in[6], 6, "y_scale", 0));
  RETURN_IF_ERROR(CheckQuantParam(ctx, in[7], 7, "y_zero_point", 0));
  const ge::DataType y_dt = in[7]->GetDataType();
  ASSIGN_OR_RETURN(gert::Shape ys, NnShape(ctx, p.y_dims));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, y_dt));
  const int64_t total = ys.GetShapeSize();
  std::vector<int32_t> acc(static_cast<size_t>(total));
  RETURN_IF_ERROR(IntegerConvAccumulate(ctx, x, w, in[2], in[5], p, acc.data()));
  const float x_scale = in[1]->GetData<float>()[0];
  const float y_scale = in[6]->GetData<float>()[0];
  const int32_t y_zp = QuantAt(*in[7], 0);
  const bool per_channel = in[4]->GetShapeSize() > 1;
  const int32_t qmin = y_dt == ge::DT_INT8 ? -128 : 0;
  const int32_t qmax = y_dt == ge::DT_INT8 ? 127 : 255;
  const int64_t plane = p.m > 0 && p.n > 0 ? total / (p.n * p.m) : 0;
  for (int64_t n = 0; n < p.n; ++n) {
    for (int64_t m = 0; m < p.m; ++m) {
      const float scale = x_scale * in[4]->GetData<float>()[per_channel ? m : 0] / y_scale;
      const int32_t bias = in[8] != nullptr ? in[8]->GetData<int32_t>()[m] : 0;
      const int64_t base = (n * p.m + m) * plane;
      for (int64_t o = 0; o < plane; ++o) {
        const float v = static_cast<float>(static_cast<int64_t>(acc[base + o]) + bias) * scale;
        float r = std::nearbyint(v) + static_cast<float>(y_zp);
        if (!(r >= static_cast<float>(qmin))) r = static_cast<float>(qmin);  // NaN too
        if (r > static_cast<float>(qmax)) r = static_cast<float>(qmax);
        const int32_t q = static_cast<int32_t>(r);
        if (y_dt == ge::DT_INT8) {
          y->GetData<int8_t>()[base + o] = static_cast<int8_t>(q);
        } else {
          y->GetData<uint8_t>()[base + o] = static_cast<uint8_t>(q);
        }
      }
    }
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------------ Col2Im

// Col2Im inputs: input [N, C * prod(block), L], image_shape [n], block_shape [n].
ge::Status InferCol2Im(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  const gert::Shape* img = ctx.GetInputShape(1);
  const gert::Shape* blk = ctx.GetInputShape(2);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr || img == nullptr || blk == nullptr || y == nullptr) {
    return ctx.Error("Col2Im needs inputs input, image_shape, block_shape and output Y");
  }
  if (!x->IsUnknownRank() && x->GetDimNum() != 3) {
    return ctx.Error("input 0 (input) shape ", x->ToString(), " must have rank 3 [N, C*k, L]");
  }
  for (size_t i : {1, 2}) {
    const gert::Shape* s = ctx.GetInputShape(i);
    if (!s->IsUnknownRank() && s->GetDimNum() != 1) {
      return ctx.Error("input ", i, " shape ", s->ToString(), " must be 1-D");
    }
  }
  int64_t nsp = -1;
  if (!img->IsUnknownRank()) nsp = img->GetDim(0);
  if (nsp < 0 && !blk->IsUnknownRank()) nsp = blk->GetDim(0);
  const gert::Tensor* img_v = ctx.GetInputTensor(1);
  const gert::Tensor* blk_v = ctx.GetInputTensor(2);
  std::vector<int64_t> image, block;
  if (img_v != nullptr) {
    ge::StatusOr<std::vector<int64_t>> v = ReadIntTensor(*img_v);
    if (!v.ok()) return WithNode(ctx, ge::Annotate(v.status(), "input 1 (image_shape): "));
    image = *std::move(v);
    nsp = static_cast<int64_t>(image.size());
  }
  if (blk_v != nullptr) {
    ge::StatusOr<std::vector<int64_t>> v = ReadIntTensor(*blk_v);
    if (!v.ok()) return WithNode(ctx, ge::Annotate(v.status(), "input 2 (block_shape): "));
    block = *std::move(v);
    if (nsp >= 0 && static_cast<int64_t>(block.size()) != nsp) {
      return ctx.Error("block_shape ", DimsStr(block), " and image_shape have different lengths");
    }
  }
  if (nsp < 0) {
    *y = gert::Shape{ge::UNKNOWN_RANK};
    return ge::OkStatus();
  }
  if (nsp < 1 || nsp + 2 > static_cast<int64_t>(gert::kMaxDimNum)) {
    return ctx.Error("image_shape has ", nsp, " entries; expected 1 to ", gert::kMaxDimNum - 2);
  }
  int64_t c = -1;
  if (!x->IsUnknownRank() && x->GetDim(1) >= 0 && !block.empty()) {
    int64_t kprod = 1;
    for (int64_t b : block) {
      if (b < 1 || __builtin_mul_overflow(kprod, b, &kprod)) {
        return ctx.Error("block_shape ", DimsStr(block), " entries must be >= 1");
      }
    }
    if (x->GetDim(1) % kprod != 0) {
      return ctx.Error("input dim 1 (", x->GetDim(1), ") is not divisible by the block size ",
                       kprod);
    }
    c = x->GetDim(1) / kprod;
  }
  std::vector<int64_t> dims = {x->IsUnknownRank() ? -1 : x->GetDim(0), c};
  for (int64_t i = 0; i < nsp; ++i) {
    if (!image.empty() && image[i] < 1) {
      return ctx.Error("image_shape ", DimsStr(image), " entries must be >= 1");
    }
    dims.push_back(image.empty() ? -1 : image[i]);
  }
  ASSIGN_OR_RETURN(*y, NnShape(ctx, dims));
  return ge::OkStatus();
}

ge::Status Col2ImKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* img_t, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Tensor* blk_t, GetKernelInput(ctx, 2));
  ge::StatusOr<std::vector<int64_t>> image = ReadIntTensor(*img_t);
  if (!image.ok()) return WithNode(ctx, ge::Annotate(image.status(), "input 1 (image_shape): "));
  ge::StatusOr<std::vector<int64_t>> block = ReadIntTensor(*blk_t);
  if (!block.ok()) return WithNode(ctx, ge::Annotate(block.status(), "input 2 (block_shape): "));
  const size_t nsp = image->size();
  if (nsp < 1 || block->size() != nsp || nsp + 2 > gert::kMaxDimNum) {
    return ctx.Error("image_shape ", DimsStr(*image), " and block_shape ", DimsStr(*block),
                     " must have the same length >= 1");
  }
  const gert::Shape& xs = x->GetShape();
  if (xs.GetDimNum() != 3) {
    return ctx.Error("input 0 (input) shape ", xs.ToString(), " must have rank 3 [N, C*k, L]");
  }
  WindowSpec spec;
  spec.kernel.assign(block->begin(), block->end());
  for (size_t i = 0; i < nsp; ++i) {
    if ((*block)[i] < 1 || (*image)[i] < 1) {
      return ctx.Error("image_shape ", DimsStr(*image), " and block_shape ", DimsStr(*block),
                       " entries must be >= 1");
    }
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> strides, ctx.GetListIntOr("strides", {}));
  ASSIGN_OR_RETURN(std::vector<int64_t> dilations, ctx.GetListIntOr("dilations", {}));
  ASSIGN_OR_RETURN(std::vector<int64_t> pads, ctx.GetListIntOr("pads", {}));
  if (strides.empty()) strides.assign(nsp, 1);
  if (dilations.empty()) dilations.assign(nsp, 1);
  if (pads.empty()) pads.assign(2 * nsp, 0);
  spec.strides.assign(strides.begin(), strides.end());
  spec.dilations.assign(dilations.begin(), dilations.end());
  spec.pads.assign(pads.begin(), pads.end());
  if (spec.strides.size() != nsp || spec.dilations.size() != nsp || spec.pads.size() != 2 * nsp) {
    return ctx.Error("attributes strides ", DimsStr(spec.strides), ", dilations ",
                     DimsStr(spec.dilations), ", pads ", DimsStr(spec.pads), " do not match ", nsp,
                     " spatial dims");
  }
  for (size_t i = 0; i < nsp; ++i) {
    if (spec.strides[i] < 1 || spec.dilations[i] < 1 || spec.pads[i] < 0 ||
        spec.pads[i + nsp] < 0) {
      return ctx.Error("strides / dilations must be >= 1 and pads >= 0");
    }
  }
  ConvGeometry g;
  g.image.assign(image->begin(), image->end());
  g.kernel.assign(block->begin(), block->end());
  g.strides = spec.strides;
  g.dilations = spec.dilations;
  for (size_t i = 0; i < nsp; ++i) {
    ASSIGN_OR_RETURN(WindowDim d, ComputeWindowDim(ctx, spec, i, (*image)[i]));
    g.pad_begin.push_back(d.pad_begin);
    g.out.push_back(d.out);
  }
  RETURN_IF_ERROR(WithNode(ctx, g.Finalize()));
  if (xs.GetDim(1) % g.kernel_size != 0) {
    return ctx.Error("input dim 1 (", xs.GetDim(1), ") is not divisible by the block size ",
                     g.kernel_size);
  }
  if (xs.GetDim(2) != g.out_size) {
    return ctx.Error("input dim 2 (", xs.GetDim(2), ") must equal the number of blocks ",
                     g.out_size, " for image_shape ", DimsStr(*image));
  }
  const int64_t n = xs.GetDim(0);
  const int64_t c = xs.GetDim(1) / g.kernel_size;
  std::vector<int64_t> ydims = {n, c};
  ydims.insert(ydims.end(), image->begin(), image->end());
  ASSIGN_OR_RETURN(gert::Shape ys, NnShape(ctx, ydims));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, x->GetDataType()));
  return DispatchCompute(x->GetDataType(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    ComputeInput<C> xin;
    ComputeOutput<C> yout;
    RETURN_IF_ERROR(WithNode(ctx, xin.Init(*x)));
    RETURN_IF_ERROR(WithNode(ctx, yout.Init(y)));
    std::fill(yout.data(), yout.data() + yout.size(), C{0});
    for (int64_t i = 0; i < n; ++i) {
      Col2ImAdd<C>(g, c, xin.data() + i * c * g.kernel_size * g.out_size,
                   yout.data() + i * c * g.image_size);
    }
    yout.Commit();
    return ge::OkStatus();
  });
}

ge::Status InferCol2ImVerify(gert::InferShapeContext& ctx) {
  for (size_t i : {1, 2}) {
    const ge::DataType dt = ctx.GetInputDataType(i);
    if (dt != ge::DT_INT64 && dt != ge::DT_UNDEFINED) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input ", i, " must be DT_INT64, got ",
                               DataTypeName(dt));
    }
  }
  return ge::OkStatus();
}

}  // namespace

REG_OP(Conv)
    .Input("X", FloatTypesBf16())
    .Input("W", FloatTypesBf16())
    .OptionalInput("B", FloatTypesBf16())
    .Output("Y", FloatTypesBf16())
    .Attr("auto_pad", AttrStr("NOTSET"))
    .Attr("dilations", AttrInts())
    .Attr("group", AttrInt(1))
    .Attr("kernel_shape", AttrInts())
    .Attr("pads", AttrInts())
    .Attr("strides", AttrInts())
    .InferShape(InferConv)
    .Verify(VerifyConv);
REG_KERNEL(Conv, ge::kEngineHostCpu).Fn(ConvKernel);

REG_OP(ConvTranspose)
    .Input("X", FloatTypesBf16())
    .Input("W", FloatTypesBf16())
    .OptionalInput("B", FloatTypesBf16())
    .Output("Y", FloatTypesBf16())
    .Attr("auto_pad", AttrStr("NOTSET"))
    .Attr("dilations", AttrInts())
    .Attr("group", AttrInt(1))
    .Attr("kernel_shape", AttrInts())
    .Attr("output_padding", AttrInts())
    .Attr("output_shape", AttrInts())
    .Attr("pads", AttrInts())
    .Attr("strides", AttrInts())
    .InferShape(InferConvTranspose)
    .Verify(VerifyConv);
REG_KERNEL(ConvTranspose, ge::kEngineHostCpu).Fn(ConvTransposeKernel);

REG_OP(ConvInteger)
    .Input("x", QuantTypes())
    .Input("w", QuantTypes())
    .OptionalInput("x_zero_point", QuantTypes())
    .OptionalInput("w_zero_point", QuantTypes())
    .Output("y", ge::TensorType{ge::DT_INT32})
    .Attr("auto_pad", AttrStr("NOTSET"))
    .Attr("dilations", AttrInts())
    .Attr("group", AttrInt(1))
    .Attr("kernel_shape", AttrInts())
    .Attr("pads", AttrInts())
    .Attr("strides", AttrInts())
    .InferShape(InferConvInteger)
    .InferDataType(InferConvIntegerType)
    .Verify(VerifyConvInteger);
REG_KERNEL(ConvInteger, ge::kEngineHostCpu).Fn(ConvIntegerKernel);

REG_OP(QLinearConv)
    .Input("x", QuantTypes())
    .Input("x_scale", ge::TensorType{ge::DT_FLOAT})
    .Input("x_zero_point", QuantTypes())
    .Input("w", QuantTypes())
    .Input("w_scale", ge::TensorType{ge::DT_FLOAT})
    .Input("w_zero_point", QuantTypes())
    .Input("y_scale", ge::TensorType{ge::DT_FLOAT})
    .Input("y_zero_point", QuantTypes())
    .OptionalInput("B", ge::TensorType{ge::DT_INT32})
    .Output("y", QuantTypes())
    .Attr("auto_pad", AttrStr("NOTSET"))
    .Attr("dilations", AttrInts())
    .Attr("group", AttrInt(1))
    .Attr("kernel_shape", AttrInts())
    .Attr("pads", AttrInts())
    .Attr("strides", AttrInts())
    .InferShape(InferQLinearConv)
    .InferDataType(InferQLinearConvType)
    .Verify(VerifyQLinearConv);
REG_KERNEL(QLinearConv, ge::kEngineHostCpu).Fn(QLinearConvKernel);

REG_OP(Col2Im)
    .Input("input", FloatTypesBf16())
    .Input("image_shape", ge::TensorType{ge::DT_INT64})
    .Input("block_shape", ge::TensorType{ge::DT_INT64})
    .Output("output", FloatTypesBf16())
    .Attr("dilations", AttrInts())
    .Attr("pads", AttrInts())
    .Attr("strides", AttrInts())
    .InferShape(InferCol2Im)
    .Verify(InferCol2ImVerify)
    .ValueDependentInput("image_shape")
    .ValueDependentInput("block_shape");
REG_KERNEL(Col2Im, ge::kEngineHostCpu).Fn(Col2ImKernel);

}  // namespace nn
}  // namespace ops
