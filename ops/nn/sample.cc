// ops/nn/sample.cc
//
// Sampling ops (ONNX opset 16/17): RoiAlign and GridSample (4-D).
//
// RoiAlign follows the ONNX definition as implemented by onnxruntime:
// coordinate_transformation_mode "half_pixel" shifts ROI corners by -0.5
// ("output_half_pixel" keeps them and forces ROIs to be at least 1x1); each
// output bin averages (mode "avg") sampling_ratio^2 bilinear samples (an
// adaptive ceil(roi / bins) per dim when sampling_ratio is 0); samples more
// than one pixel outside the map contribute 0. Mode "max" takes, over the
// samples, the largest of the four weighted corner values w_i * v_i (the
// onnxruntime behaviour that the ONNX reference reproduces).
//
// GridSample (mode bilinear / nearest / bicubic, padding_mode zeros /
// border / reflection, align_corners) follows torch.nn.functional.grid_sample
// as onnxruntime implements it; nearest rounds half to even. Non-finite grid
// coordinates produce 0.
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

// ------------------------------------------------------------------ RoiAlign

struct RoiAlignAttrs {
  bool half_pixel = true;
  bool max_mode = false;
  int64_t oh = 1;
  int64_t ow = 1;
  int64_t sampling_ratio = 0;
  float spatial_scale = 1.0f;
};

ge::StatusOr<RoiAlignAttrs> ReadRoiAlignAttrs(const gert::ContextBase& ctx) {
  RoiAlignAttrs a;
  ASSIGN_OR_RETURN(std::string ctm, ctx.GetStrOr("coordinate_transformation_mode", "half_pixel"));
  if (ctm != "half_pixel" && ctm != "output_half_pixel") {
    return ctx.Error("attribute coordinate_transformation_mode \"", ctm,
                     "\" must be half_pixel or output_half_pixel");
  }
  a.half_pixel = ctm == "half_pixel";
  ASSIGN_OR_RETURN(std::string mode, ctx.GetStrOr("mode", "avg"));
  if (mode != "avg" && mode != "max") {
    return ctx.Error("attribute mode \"", mode, "\" must be avg or max");
  }
  a.max_mode = mode == "max";
  ASSIGN_OR_RETURN(a.oh, ctx.GetIntOr("output_height", 1));
  ASSIGN_OR_RETURN(a.ow, ctx.GetIntOr("output_width", 1));
  ASSIGN_OR_RETURN(a.sampling_ratio, ctx.GetIntOr("sampling_ratio", 0));
  ASSIGN_OR_RETURN(a.spatial_scale, ctx.GetFloatOr("spatial_scale", 1.0f));
  constexpr int64_t kMaxBins = int64_t{1} << 20;
  if (a.oh < 1 || a.ow < 1 || a.oh > kMaxBins || a.ow > kMaxBins) {
    return ctx.Error("attributes output_height (", a.oh, ") and output_width (", a.ow,
                     ") must be in [1, 2^20]");
  }
  if (a.sampling_ratio < 0 || a.sampling_ratio > kMaxBins) {
    return ctx.Error("attribute sampling_ratio (", a.sampling_ratio, ") must be in [0, 2^20]");
  }
  return a;
}

ge::Status InferRoiAlign(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  const gert::Shape* rois = ctx.GetInputShape(1);
  const gert::Shape* bi = ctx.GetInputShape(2);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr || rois == nullptr || bi == nullptr || y == nullptr) {
    return ctx.Error("RoiAlign needs inputs X, rois, batch_indices and output Y");
  }
  ASSIGN_OR_RETURN(RoiAlignAttrs a, ReadRoiAlignAttrs(ctx));
  if (!x->IsUnknownRank() && x->GetDimNum() != 4) {
    return ctx.Error("input 0 (X) shape ", x->ToString(), " must have rank 4 (N, C, H, W)");
  }
  if (!rois->IsUnknownRank() &&
      (rois->GetDimNum() != 2 || (rois->GetDim(1) >= 0 && rois->GetDim(1) != 4))) {
    return ctx.Error("input 1 (rois) shape ", rois->ToString(), " must be [num_rois, 4]");
  }
  if (!bi->IsUnknownRank() && bi->GetDimNum() != 1) {
    return ctx.Error("input 2 (batch_indices) shape ", bi->ToString(), " must be [num_rois]");
  }
  int64_t num = rois->IsUnknownRank() ? -1 : rois->GetDim(0);
  const int64_t num_b = bi->IsUnknownRank() ? -1 : bi->GetDim(0);
  if (num >= 0 && num_b >= 0 && num != num_b) {
    return ctx.Error("input 1 (rois) has ", num, " rows but input 2 (batch_indices) has ", num_b,
                     " entries");
  }
  if (num < 0) num = num_b;
  *y = gert::Shape{num, x->IsUnknownRank() ? -1 : x->GetDim(1), a.oh, a.ow};
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  // num_rois from rois and batch_indices (met), C from X.
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  ASSIGN_OR_RETURN(gert::ShapeRange rr, InputRange(ctx, 1));
  ASSIGN_OR_RETURN(gert::ShapeRange br, InputRange(ctx, 2));
  ge::StatusOr<DimRange> n =
      IntersectDimRange(rr.empty() ? DimRangeOf(-1) : rr[0], br.empty() ? DimRangeOf(-1) : br[0]);
  if (!n.ok()) return ctx.Error("rois and batch_indices ranges: ", n.status().message());
  return SetOutputRange(
      ctx, 0, {*n, xr.empty() ? DimRangeOf(-1) : xr[1], DimRangeOf(a.oh), DimRangeOf(a.ow)});
}

ge::Status VerifyRoiAlign(gert::InferShapeContext& ctx) { return CheckSameDtype(ctx, {0, 1}); }

template <typename C>
void RoiAlignCompute(const C* x, const C* rois, const int64_t* batch, int64_t num, int64_t c,
                     int64_t h, int64_t w, const RoiAlignAttrs& a, C* y) {
  const C offset = a.half_pixel ? C{0.5} : C{0};
  const C scale = static_cast<C>(a.spatial_scale);
  for (int64_t r = 0; r < num; ++r) {
    const C* roi = rois + r * 4;
    const C x0 = roi[0] * scale - offset;
    const C y0 = roi[1] * scale - offset;
    C rw = roi[2] * scale - offset - x0;
    C rh = roi[3] * scale - offset - y0;
    if (!a.half_pixel) {
      rw = std::max(rw, C{1});
      rh = std::max(rh, C{1});
    }
    const C bin_h = rh / static_cast<C>(a.oh);
    const C bin_w = rw / static_cast<C>(a.ow);
    // Negative ROI extents (x2 < x1) give empty sample grids.
    const int64_t gh =
        a.sampling_ratio > 0
            ? a.sampling_ratio
            : std::max<int64_t>(0, static_cast<int64_t>(std::ceil(rh / static_cast<C>(a.oh))));
    const int64_t gw =
        a.sampling_ratio > 0
            ? a.sampling_ratio
            : std::max<int64_t>(0, static_cast<int64_t>(std::ceil(rw / static_cast<C>(a.ow))));
    const int64_t count = std::max<int64_t>(gh * gw, 1);
    // Sample positions and corner weights per (bin, sample), shared by channels.
    struct Sample {
      int64_t o[4];
      C wt[4];
      bool valid;
    };
    std::vector<Sample> samples;
    samples.reserve(static_cast<size_t>(a.oh * a.ow * std::max<int64_t>(gh * gw, 0)));
    for (int64_t ph = 0; ph < a.oh; ++ph) {
      for (int64_t pw = 0; pw < a.ow; ++pw) {
        for (int64_t iy = 0; iy < gh; ++iy) {
          C yy = y0 + ph * bin_h + (iy + C{0.5}) * bin_h / static_cast<C>(gh);
          for (int64_t ix = 0; ix < gw; ++ix) {
            C xx = x0 + pw * bin_w + (ix + C{0.5}) * bin_w / static_cast<C>(gw);
            Sample s{};
            if (!(yy >= C{-1} && yy <= static_cast<C>(h) && xx >= C{-1} &&
                  xx <= static_cast<C>(w))) {
              s.valid = false;
              samples.push_back(s);
              continue;
            }
            s.valid = true;
            C sy = std::max(yy, C{0});
            C sx = std::max(xx, C{0});
            int64_t ylo = static_cast<int64_t>(sy);
            int64_t xlo = static_cast<int64_t>(sx);
            int64_t yhi, xhi;
            if (ylo >= h - 1) {
              yhi = ylo = h - 1;
              sy = static_cast<C>(ylo);
            } else {
              yhi = ylo + 1;
            }
            if (xlo >= w - 1) {
              xhi = xlo = w - 1;
              sx = static_cast<C>(xlo);
            } else {
              xhi = xlo + 1;
            }
            const C ly = sy - ylo, lx = sx - xlo, hy = 1 - ly, hx = 1 - lx;
            s.o[0] = ylo * w + xlo;
            s.o[1] = ylo * w + xhi;
            s.o[2] = yhi * w + xlo;
            s.o[3] = yhi * w + xhi;
            s.wt[0] = hy * hx;
            s.wt[1] = hy * lx;
            s.wt[2] = ly * hx;
            s.wt[3] = ly * lx;
            samples.push_back(s);
          }
        }
      }
    }
    const int64_t per_bin = gh * gw;
    for (int64_t ch = 0; ch < c; ++ch) {
      const C* plane = x + (batch[r] * c + ch) * h * w;
      C* out = y + (r * c + ch) * a.oh * a.ow;
      for (int64_t bin = 0; bin < a.oh * a.ow; ++bin) {
        const Sample* sb = samples.data() + bin * per_bin;
        C acc = 0;
        bool first = true;
        for (int64_t k = 0; k < per_bin; ++k) {
          const Sample& s = sb[k];
          if (!a.max_mode) {
            if (s.valid) {
              acc += s.wt[0] * plane[s.o[0]] + s.wt[1] * plane[s.o[1]] + s.wt[2] * plane[s.o[2]] +
                     s.wt[3] * plane[s.o[3]];
            }
            continue;
          }
          C v = 0;
          if (s.valid) {
            v = std::max(std::max(s.wt[0] * plane[s.o[0]], s.wt[1] * plane[s.o[1]]),
                         std::max(s.wt[2] * plane[s.o[2]], s.wt[3] * plane[s.o[3]]));
          }
          acc = first ? v : std::max(acc, v);
          first = false;
        }
        out[bin] = a.max_mode ? acc : acc / static_cast<C>(count);
      }
    }
  }
}

ge::Status RoiAlignKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* rois, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Tensor* bi, GetKernelInput(ctx, 2));
  ASSIGN_OR_RETURN(RoiAlignAttrs a, ReadRoiAlignAttrs(ctx));
  const gert::Shape& xs = x->GetShape();
  if (xs.GetDimNum() != 4) {
    return ctx.Error("input 0 (X) shape ", xs.ToString(), " must have rank 4 (N, C, H, W)");
  }
  const gert::Shape& rs = rois->GetShape();
  if (rs.GetDimNum() != 2 || rs.GetDim(1) != 4) {
    return ctx.Error("input 1 (rois) shape ", rs.ToString(), " must be [num_rois, 4]");
  }
  const int64_t num = rs.GetDim(0);
  if (bi->GetShape().GetDimNum() != 1 || bi->GetShape().GetDim(0) != num) {
    return ctx.Error("input 2 (batch_indices) shape ", bi->GetShape().ToString(), " must be [", num,
                     "]");
  }
  ge::StatusOr<std::vector<int64_t>> batch = ReadIntTensor(*bi);
  if (!batch.ok()) return WithNode(ctx, ge::Annotate(batch.status(), "input 2 (batch_indices): "));
  const int64_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
  for (int64_t r = 0; r < num; ++r) {
    if ((*batch)[r] < 0 || (*batch)[r] >= n) {
      return ctx.ErrorWithCode(ge::ErrorCode::kOutOfRange, "input 2 (batch_indices) element ", r,
                               " (", (*batch)[r], ") is outside [0, ", n, ")");
    }
  }
  const gert::Shape ys{num, c, a.oh, a.ow};
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, x->GetDataType()));
  if (ys.GetShapeSize() == 0) return ge::OkStatus();
  if (h == 0 || w == 0) {
    return ctx.Error("input 0 (X) shape ", xs.ToString(), " has an empty feature map");
  }
  return DispatchCompute(x->GetDataType(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    ComputeInput<C> xin, rin;
    ComputeOutput<C> yout;
    RETURN_IF_ERROR(WithNode(ctx, xin.Init(*x)));
    RETURN_IF_ERROR(WithNode(ctx, rin.Init(*rois)));
    RETURN_IF_ERROR(WithNode(ctx, yout.Init(y)));
    // Reject ROIs whose sample grid is not finite or absurdly large.
    const C scale = static_cast<C>(a.spatial_scale);
    for (int64_t r = 0; r < num; ++r) {
      for (int k = 0; k < 4; ++k) {
        const C v = rin.data()[r * 4 + k] * scale;
        if (!std::isfinite(v) || std::fabs(v) > C{1e9}) {
          return ctx.Error("input 1 (rois) row ", r, " has a non-finite or huge coordinate");
        }
      }
      // Bound the per-ROI sample table (about 56 bytes per sample).
      double gh = static_cast<double>(a.sampling_ratio), gw = gh;
      if (a.sampling_ratio == 0) {
        const double rh = std::fabs(static_cast<double>(rin.data()[r * 4 + 3]) -
                                    static_cast<double>(rin.data()[r * 4 + 1])) *
                              scale +
                          1;
        const double rw = std::fabs(static_cast<double>(rin.data()[r * 4 + 2]) -
                                    static_cast<double>(rin.data()[r * 4 + 0])) *
                              scale +
                          1;
        gh = std::ceil(rh / static_cast<double>(a.oh));
        gw = std::ceil(rw / static_cast<double>(a.ow));
      }
      const double samples = gh * gw * static_cast<double>(a.oh) * static_cast<double>(a.ow);
      if (samples > static_cast<double>(int64_t{1} << 24)) {
        return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input 1 (rois) row ", r, " needs ",
                                 samples,
                                 " samples (more than 2^24); lower sampling_ratio or the "
                                 "output size");
      }
    }
    RoiAlignCompute<C>(xin.data(), rin.data(), batch->data(), num, c, h, w, a, yout.data());
    yout.Commit();
    return ge::OkStatus();
  });
}

// ------------------------------------------------------------------ GridSample

enum class GsMode { kBilinear, kNearest, kBicubic };
enum class GsPad { kZeros, kBorder, kReflection };

struct GridSampleAttrs {
  GsMode mode = GsMode::kBilinear;
  GsPad pad = GsPad::kZeros;
  bool align_corners = false;
};

ge::StatusOr<GridSampleAttrs> ReadGridSampleAttrs(const gert::ContextBase& ctx) {
  GridSampleAttrs a;
  ASSIGN_OR_RETURN(std::string mode, ctx.GetStrOr("mode", "bilinear"));
  if (mode == "bilinear") {
    a.mode = GsMode::kBilinear;
  } else if (mode == "nearest") {
    a.mode = GsMode::kNearest;
  } else if (mode == "bicubic") {
    a.mode = GsMode::kBicubic;
  } else {
    return ctx.Error("attribute mode \"", mode, "\" must be bilinear, nearest or bicubic");
  }
  ASSIGN_OR_RETURN(std::string pad, ctx.GetStrOr("padding_mode", "zeros"));
  if (pad == "zeros") {
    a.pad = GsPad::kZeros;
  } else if (pad == "border") {
    a.pad = GsPad::kBorder;
  } else if (pad == "reflection") {
    a.pad = GsPad::kReflection;
  } else {
    return ctx.Error("attribute padding_mode \"", pad, "\" must be zeros, border or reflection");
  }
  ASSIGN_OR_RETURN(int64_t ac, ctx.GetIntOr("align_corners", 0));
  a.align_corners = ac != 0;
  return a;
}

ge::Status InferGridSample(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  const gert::Shape* grid = ctx.GetInputShape(1);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr || grid == nullptr || y == nullptr) {
    return ctx.Error("GridSample needs inputs X, grid and output Y");
  }
  RETURN_IF_ERROR(ReadGridSampleAttrs(ctx).status());
  if (!x->IsUnknownRank() && x->GetDimNum() != 4) {
    return ctx.Error("input 0 (X) shape ", x->ToString(), " must have rank 4 (N, C, H, W)");
  }
  if (!grid->IsUnknownRank() &&
      (grid->GetDimNum() != 4 || (grid->GetDim(3) >= 0 && grid->GetDim(3) != 2))) {
    return ctx.Error("input 1 (grid) shape ", grid->ToString(), " must be [N, H_out, W_out, 2]");
  }
  int64_t n = x->IsUnknownRank() ? -1 : x->GetDim(0);
  const int64_t gn = grid->IsUnknownRank() ? -1 : grid->GetDim(0);
  if (n >= 0 && gn >= 0 && n != gn) {
    return ctx.Error("input 0 (X) batch ", n, " differs from input 1 (grid) batch ", gn);
  }
  if (n < 0) n = gn;
  *y = gert::Shape{n, x->IsUnknownRank() ? -1 : x->GetDim(1),
                   grid->IsUnknownRank() ? -1 : grid->GetDim(1),
                   grid->IsUnknownRank() ? -1 : grid->GetDim(2)};
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  // N from X and grid (met), C from X, H_out / W_out from grid.
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  ASSIGN_OR_RETURN(gert::ShapeRange gr, InputRange(ctx, 1));
  const DimRange any = DimRangeOf(-1);
  ge::StatusOr<DimRange> nr = IntersectDimRange(xr.empty() ? any : xr[0], gr.empty() ? any : gr[0]);
  if (!nr.ok()) return ctx.Error("X and grid batch ranges: ", nr.status().message());
  return SetOutputRange(
      ctx, 0, {*nr, xr.empty() ? any : xr[1], gr.empty() ? any : gr[1], gr.empty() ? any : gr[2]});
}

template <typename C>
C GsReflect(C x, C lo, C hi) {
  const C range = hi - lo;
  if (!(range > 0)) return lo;
  if (x < lo) {
    const C dx = lo - x;
    const C n = std::floor(dx / range);
    const C r = dx - n * range;
    return std::fmod(n, C{2}) == 0 ? lo + r : hi - r;
  }
  if (x > hi) {
    const C dx = x - hi;
    const C n = std::floor(dx / range);
    const C r = dx - n * range;
    return std::fmod(n, C{2}) == 0 ? hi - r : lo + r;
  }
  return x;
}

template <typename C>
void CubicCoeffs(C t, C* coeffs) {
  constexpr C kA = C{-0.75};
  t = std::fabs(t);
  coeffs[0] = ((kA * (t + 1) - 5 * kA) * (t + 1) + 8 * kA) * (t + 1) - 4 * kA;
  coeffs[1] = ((kA + 2) * t - (kA + 3)) * t * t + 1;
  coeffs[2] = ((kA + 2) * (1 - t) - (kA + 3)) * (1 - t) * (1 - t) + 1;
  coeffs[3] = ((kA * (2 - t) - 5 * kA) * (2 - t) + 8 * kA) * (2 - t) - 4 * kA;
}

template <typename C>
void GridSampleCompute(const C* x, const C* grid, int64_t n, int64_t c, int64_t h, int64_t w,
                       int64_t ho, int64_t wo, const GridSampleAttrs& a, C* y) {
  const C x_min = a.align_corners ? C{0} : C{-0.5};
  const C y_min = x_min;
  const C x_max = a.align_corners ? static_cast<C>(w - 1) : static_cast<C>(w) - C{0.5};
  const C y_max = a.align_corners ? static_cast<C>(h - 1) : static_cast<C>(h) - C{0.5};
  // Pixel (r, col) of a plane with the padding rule.
  auto pixel = [&](const C* plane, int64_t r, int64_t col) -> C {
    if (a.pad == GsPad::kZeros) {
      return (col >= 0 && col < w && r >= 0 && r < h) ? plane[r * w + col] : C{0};
    }
    if (a.pad == GsPad::kReflection) {
      col = static_cast<int64_t>(GsReflect(static_cast<C>(col), x_min, x_max));
      r = static_cast<int64_t>(GsReflect(static_cast<C>(r), y_min, y_max));
    }
    col = std::clamp<int64_t>(col, 0, w - 1);
    r = std::clamp<int64_t>(r, 0, h - 1);
    return plane[r * w + col];
  };
  for (int64_t b = 0; b < n; ++b) {
    for (int64_t oy = 0; oy < ho; ++oy) {
      for (int64_t ox = 0; ox < wo; ++ox) {
        const C* g = grid + ((b * ho + oy) * wo + ox) * 2;
        C xx = a.align_corners ? (g[0] + 1) / 2 * static_cast<C>(w - 1)
                               : ((g[0] + 1) * static_cast<C>(w) - 1) / 2;
        C yy = a.align_corners ? (g[1] + 1) / 2 * static_cast<C>(h - 1)
                               : ((g[1] + 1) * static_cast<C>(h) - 1) / 2;
        const int64_t out_off = (b * c * ho + oy) * wo + ox;  // + ch * ho * wo
        if (!std::isfinite(xx) || !std::isfinite(yy)) {
          for (int64_t ch = 0; ch < c; ++ch) y[out_off + ch * ho * wo] = 0;
          continue;
        }
        if (a.mode == GsMode::kNearest) {
          xx = std::nearbyint(xx);
          yy = std::nearbyint(yy);
        }
        if (xx < x_min || xx > x_max || yy < y_min || yy > y_max) {
          if (a.pad == GsPad::kBorder) {
            xx = std::clamp(xx, C{0}, static_cast<C>(w - 1));
            yy = std::clamp(yy, C{0}, static_cast<C>(h - 1));
          } else if (a.pad == GsPad::kReflection) {
            xx = GsReflect(xx, x_min, x_max);
            yy = GsReflect(yy, y_min, y_max);
          }
        }
        // Far outside (zeros padding) every read is 0; keep the casts defined.
        xx = std::clamp(xx, static_cast<C>(-w - 8), static_cast<C>(2 * w + 8));
        yy = std::clamp(yy, static_cast<C>(-h - 8), static_cast<C>(2 * h + 8));
        for (int64_t ch = 0; ch < c; ++ch) {
          const C* plane = x + (b * c + ch) * h * w;
          C v;
          if (a.mode == GsMode::kNearest) {
            v = pixel(plane, static_cast<int64_t>(yy), static_cast<int64_t>(xx));
          } else if (a.mode == GsMode::kBilinear) {
            const int64_t x1 = static_cast<int64_t>(std::floor(xx));
            const int64_t y1 = static_cast<int64_t>(std::floor(yy));
            const C dx1 = xx - x1, dx2 = x1 + 1 - xx, dy1 = yy - y1, dy2 = y1 + 1 - yy;
            v = dy2 * (dx2 * pixel(plane, y1, x1) + dx1 * pixel(plane, y1, x1 + 1)) +
                dy1 * (dx2 * pixel(plane, y1 + 1, x1) + dx1 * pixel(plane, y1 + 1, x1 + 1));
          } else {
            const int64_t x0 = static_cast<int64_t>(std::floor(xx)) - 1;
            const int64_t y0 = static_cast<int64_t>(std::floor(yy)) - 1;
            C cx[4], cy[4];
            CubicCoeffs<C>(xx - x0 - 1, cx);
            CubicCoeffs<C>(yy - y0 - 1, cy);
            v = 0;
            for (int64_t i = 0; i < 4; ++i) {
              C row = 0;
              for (int64_t j = 0; j < 4; ++j) row += cx[j] * pixel(plane, y0 + i, x0 + j);
              v += cy[i] * row;
            }
          }
          y[out_off + ch * ho * wo] = v;
        }
      }
    }
  }
}

ge::Status GridSampleKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* grid, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(GridSampleAttrs a, ReadGridSampleAttrs(ctx));
  const gert::Shape& xs = x->GetShape();
  const gert::Shape& gs = grid->GetShape();
  if (xs.GetDimNum() != 4) {
    return ctx.Error("input 0 (X) shape ", xs.ToString(), " must have rank 4 (N, C, H, W)");
  }
  if (gs.GetDimNum() != 4 || gs.GetDim(3) != 2 || gs.GetDim(0) != xs.GetDim(0)) {
    return ctx.Error("input 1 (grid) shape ", gs.ToString(), " must be [", xs.GetDim(0),
                     ", H_out, W_out, 2]");
  }
  const int64_t n = xs.GetDim(0), c = xs.GetDim(1), h = xs.GetDim(2), w = xs.GetDim(3);
  const int64_t ho = gs.GetDim(1), wo = gs.GetDim(2);
  const gert::Shape ys{n, c, ho, wo};
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, x->GetDataType()));
  if (ys.GetShapeSize() == 0) return ge::OkStatus();
  if (h == 0 || w == 0) {
    return ctx.Error("input 0 (X) shape ", xs.ToString(), " has an empty image");
  }
  return DispatchCompute(x->GetDataType(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    ComputeInput<C> xin, gin;
    ComputeOutput<C> yout;
    RETURN_IF_ERROR(WithNode(ctx, xin.Init(*x)));
    RETURN_IF_ERROR(WithNode(ctx, gin.Init(*grid)));
    RETURN_IF_ERROR(WithNode(ctx, yout.Init(y)));
    GridSampleCompute<C>(xin.data(), gin.data(), n, c, h, w, ho, wo, a, yout.data());
    yout.Commit();
    return ge::OkStatus();
  });
}

}  // namespace

REG_OP(RoiAlign)
    .Input("X", FloatTypes())
    .Input("rois", FloatTypes())
    .Input("batch_indices", ge::TensorType{ge::DT_INT64})
    .Output("Y", FloatTypes())
    .Attr("coordinate_transformation_mode", AttrStr("half_pixel"))
    .Attr("mode", AttrStr("avg"))
    .Attr("output_height", AttrInt(1))
    .Attr("output_width", AttrInt(1))
    .Attr("sampling_ratio", AttrInt(0))
    .Attr("spatial_scale", AttrFloat(1.0f))
    .InferShape(InferRoiAlign)
    .Verify(VerifyRoiAlign);
REG_KERNEL(RoiAlign, ge::kEngineHostCpu).Fn(RoiAlignKernel);

REG_OP(GridSample)
    .Input("X", FloatTypes())
    .Input("grid", FloatTypes())
    .Output("Y", FloatTypes())
    .Attr("align_corners", AttrInt(0))
    .Attr("mode", AttrStr("bilinear"))
    .Attr("padding_mode", AttrStr("zeros"))
    .InferShape(InferGridSample);
REG_KERNEL(GridSample, ge::kEngineHostCpu).Fn(GridSampleKernel);

}  // namespace nn
}  // namespace ops
