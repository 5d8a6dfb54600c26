// ops/array/resize_ops.cc
//
// Resize (opset 13 semantics) and Upsample (opset 9/10, via the same code).
//
// Resize(X, roi?, scales?, sizes?): exactly one of scales / sizes (an empty
// tensor counts as absent). With sizes, out = sizes and scale = out / in;
// with scales, out = floor(in * scale).
//   mode                            nearest | linear | cubic (n-dimensional)
//   coordinate_transformation_mode  half_pixel (default) | asymmetric |
//                                   pytorch_half_pixel | tf_crop_and_resize |
//                                   align_corners | tf_half_pixel_for_nn
//   nearest_mode                    round_prefer_floor (default) |
//                                   round_prefer_ceil | floor | ceil
//   exclude_outside, cubic_coeff_a (-0.75), extrapolation_value (0)
// The coordinate transforms follow the ONNX reference implementation: the
// "resized length" of align_corners / tf_crop_and_resize is in * scale (not
// rounded), and neighbours outside the input repeat the edge value unless
// exclude_outside drops them (weights renormalised). pytorch_half_pixel with
// a resized length of 1 maps to 0 (the spec's formula).
// Upsample(X, scales) mode nearest | linear ("bilinear" accepted): the
// asymmetric transform with floor rounding.
//
// Nearest works for every dtype (data movement); linear / cubic compute in
// double for real types and round integer results to nearest (saturating).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/array/array_util.h"
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

enum class Mode { kNearest, kLinear, kCubic };
enum class Coord {
  kHalfPixel,
  kAsymmetric,
  kPytorchHalfPixel,
  kTfCropAndResize,
  kAlignCorners,
  kTfHalfPixelForNn
};
enum class NearestMode { kRoundPreferFloor, kRoundPreferCeil, kFloor, kCeil };

struct ResizeParams {
  Mode mode = Mode::kNearest;
  Coord coord = Coord::kHalfPixel;
  NearestMode nearest = NearestMode::kRoundPreferFloor;
  bool exclude_outside = false;
  double cubic_a = -0.75;
  double extrapolation = 0.0;
  // Input indices of scales / sizes (-1: none) and roi.
  int scales_index = 2;
  int sizes_index = 3;
  int roi_index = 1;
};

bool IsUpsample(const gert::ContextBase& ctx) { return ctx.GetNodeType() == "Upsample"; }

ge::StatusOr<ResizeParams> GetParams(const gert::ContextBase& ctx) {
  ResizeParams p;
  ASSIGN_OR_RETURN(std::string mode, ctx.GetStrOr("mode", "nearest"));
  if (mode == "nearest") {
    p.mode = Mode::kNearest;
  } else if (mode == "linear" || mode == "bilinear") {
    p.mode = Mode::kLinear;
  } else if (mode == "cubic" && !IsUpsample(ctx)) {
    p.mode = Mode::kCubic;
  } else {
    return ctx.Error("unknown mode \"", mode, "\"");
  }
  if (IsUpsample(ctx)) {
    p.coord = Coord::kAsymmetric;
    p.nearest = NearestMode::kFloor;
    p.scales_index = 1;
    p.sizes_index = -1;
    p.roi_index = -1;
    return p;
  }
  ASSIGN_OR_RETURN(std::string coord, ctx.GetStrOr("coordinate_transformation_mode", "half_pixel"));
  if (coord == "half_pixel") {
    p.coord = Coord::kHalfPixel;
  } else if (coord == "asymmetric") {
    p.coord = Coord::kAsymmetric;
  } else if (coord == "pytorch_half_pixel") {
    p.coord = Coord::kPytorchHalfPixel;
  } else if (coord == "tf_crop_and_resize") {
    p.coord = Coord::kTfCropAndResize;
  } else if (coord == "align_corners") {
    p.coord = Coord::kAlignCorners;
  } else if (coord == "tf_half_pixel_for_nn") {
    p.coord = Coord::kTfHalfPixelForNn;
  } else {
    return ctx.Error("unknown coordinate_transformation_mode \"", coord, "\"");
  }
  ASSIGN_OR_RETURN(std::string nearest, ctx.GetStrOr("nearest_mode", "round_prefer_floor"));
  if (nearest == "round_prefer_floor") {
    p.nearest = NearestMode::kRoundPreferFloor;
  } else if (nearest == "round_prefer_ceil") {
    p.nearest = NearestMode::kRoundPreferCeil;
  } else if (nearest == "floor") {
    p.nearest = NearestMode::kFloor;
  } else if (nearest == "ceil") {
    p.nearest = NearestMode::kCeil;
  } else {
    return ctx.Error("unknown nearest_mode \"", nearest, "\"");
  }
  ASSIGN_OR_RETURN(p.exclude_outside, ctx.GetBoolOr("exclude_outside", false));
  ASSIGN_OR_RETURN(float a, ctx.GetFloatOr("cubic_coeff_a", -0.75f));
  ASSIGN_OR_RETURN(float e, ctx.GetFloatOr("extrapolation_value", 0.0f));
  p.cubic_a = a;
  p.extrapolation = e;
  return p;
}

// --------------------------------------------------------------- out shape

// Scales and output dims for input dims `in` (all known).
struct Target {
  std::vector<int64_t> out;
  std::vector<double> scales;
  std::vector<double> widths;  // resized length as the coordinate transforms see it
};

// roi: [starts..., ends...] (2 x rank); the output dims are
// floor(in * (end - start) * scale), so only tf_crop_and_resize passes a
// non-default roi.
ge::StatusOr<Target> TargetFromScales(const gert::ContextBase& ctx, const gert::Shape& x,
                                      absl::Span<const double> scales,
                                      absl::Span<const double> roi) {
  if (scales.size() != x.GetDimNum()) {
    return ctx.Error("scales has ", scales.size(), " values but X ", x.ToString(), " has rank ",
                     x.GetDimNum());
  }
  Target t;
  for (size_t k = 0; k < scales.size(); ++k) {
    const double s = scales[k];
    if (!(s > 0) || !std::isfinite(s)) {
      return ctx.Error("scales[", k, "] = ", s, " must be positive and finite");
    }
    const int64_t d = x.GetDim(k);
    const double extent = roi[scales.size() + k] - roi[k];
    const double width = static_cast<double>(d) * extent * s;
    if (d >= 0 && (!(width >= 0) || width > 9.0e15)) {
      return ctx.Error("scales[", k, "] = ", s, " and roi extent ", extent, " give dim ", width,
                       " for input dim ", d);
    }
    t.out.push_back(d >= 0 ? static_cast<int64_t>(std::floor(width)) : -1);
    t.scales.push_back(s);
    t.widths.push_back(width);
  }
  return t;
}

ge::StatusOr<Target> TargetFromSizes(const gert::ContextBase& ctx, const gert::Shape& x,
                                     absl::Span<const int64_t> sizes) {
  if (sizes.size() != x.GetDimNum()) {
    return ctx.Error("sizes has ", sizes.size(), " values but X ", x.ToString(), " has rank ",
                     x.GetDimNum());
  }
  Target t;
  for (size_t k = 0; k < sizes.size(); ++k) {
    if (sizes[k] < 0) return ctx.Error("sizes[", k, "] = ", sizes[k], " is negative");
    const int64_t d = x.GetDim(k);
    t.out.push_back(sizes[k]);
    t.scales.push_back(d > 0 ? static_cast<double>(sizes[k]) / static_cast<double>(d) : 0.0);
    t.widths.push_back(static_cast<double>(sizes[k]));
  }
  return t;
}

// The roi that applies: the roi input's value for tf_crop_and_resize (when
// given), otherwise [0, .., 0, 1, .., 1]. roi_t may be null.
ge::StatusOr<std::vector<double>> GetRoi(const gert::ContextBase& ctx, const ResizeParams& p,
                                         const gert::Tensor* roi_t, size_t rank) {
  std::vector<double> roi(2 * rank, 0.0);
  for (size_t k = 0; k < rank; ++k) roi[rank + k] = 1.0;
  if (p.coord != Coord::kTfCropAndResize || roi_t == nullptr || roi_t->GetShapeSize() == 0) {
    return roi;
  }
  ASSIGN_OR_RETURN(roi, WithNodeOr(ctx, ReadAsDoubles(*roi_t)));
  if (roi.size() != 2 * rank) {
    return ctx.Error("roi has ", roi.size(), " values; expected ", 2 * rank, " (2 x rank)");
  }
  return roi;
}

// A present, non-empty optional input (shape level).
bool HasValueInput(const gert::InferShapeContext& ctx, int i) {
  if (i < 0) return false;
  const gert::Shape* s = ctx.GetInputShape(i);
  return s != nullptr && !(!s->IsUnknownShape() && s->GetShapeSize() == 0);
}

ge::Status InferResize(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(ResizeParams p, GetParams(ctx));
  const bool has_scales = HasValueInput(ctx, p.scales_index);
  const bool has_sizes = HasValueInput(ctx, p.sizes_index);
  if (has_scales == has_sizes) {
    return ctx.Error(has_scales ? "both scales and sizes are given"
                                : "one of scales and sizes must be given");
  }
  const int idx = has_scales ? p.scales_index : p.sizes_index;
  const gert::Shape* vs = ctx.GetInputShape(idx);
  if (!vs->IsUnknownRank() && vs->GetDimNum() != 1) {
    return ctx.Error(has_scales ? "scales" : "sizes", " must be 1-D, got ", vs->ToString());
  }
  const int64_t n = vs->IsUnknownRank() ? -1 : vs->GetDim(0);
  if (!x->IsUnknownRank() && n >= 0 && n != static_cast<int64_t>(x->GetDimNum())) {
    return ctx.Error(has_scales ? "scales" : "sizes", " has ", n, " values but X ", x->ToString(),
                     " has rank ", x->GetDimNum());
  }
  const int64_t rank = x->IsUnknownRank() ? n : static_cast<int64_t>(x->GetDimNum());
  const gert::Tensor* v = KnownInputTensor(ctx, idx);
  if (v == nullptr || x->IsUnknownRank()) {
    if (v != nullptr && has_sizes) {  // sizes alone give the output
      ASSIGN_OR_RETURN(std::vector<int64_t> sizes, WithNodeOr(ctx, ReadIntTensor(*v)));
      ASSIGN_OR_RETURN(gert::Shape out, WithNodeOr(ctx, ShapeFromDims(sizes)));
      return SetOutputShape(ctx, 0, out);
    }
    return SetOutputShape(ctx, 0, UnknownDimsShape(rank));
  }
  Target t;
  // Output dim = floor(input dim * extent * scale) (scales), as TargetFromScales.
  std::vector<std::pair<double, double>> factors;
  if (has_scales) {
    const gert::Tensor* roi_t = nullptr;
    if (p.coord == Coord::kTfCropAndResize && HasValueInput(ctx, p.roi_index)) {
      roi_t = KnownInputTensor(ctx, p.roi_index);
      if (roi_t == nullptr) return SetOutputShape(ctx, 0, UnknownDimsShape(rank));
    }
    ASSIGN_OR_RETURN(std::vector<double> roi, GetRoi(ctx, p, roi_t, x->GetDimNum()));
    ASSIGN_OR_RETURN(std::vector<double> scales, WithNodeOr(ctx, ReadAsDoubles(*v)));
    ASSIGN_OR_RETURN(t, TargetFromScales(ctx, *x, scales, roi));
    for (size_t k = 0; k < scales.size(); ++k) {
      factors.push_back({roi[scales.size() + k] - roi[k], scales[k]});
    }
  } else {
    ASSIGN_OR_RETURN(std::vector<int64_t> sizes, WithNodeOr(ctx, ReadIntTensor(*v)));
    ASSIGN_OR_RETURN(t, TargetFromSizes(ctx, *x, sizes));
  }
  ASSIGN_OR_RETURN(gert::Shape out, WithNodeOr(ctx, ShapeFromDims(t.out)));
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (!AnyInputRange(ctx) || !has_scales) return ge::OkStatus();  // sizes: all dims known
  // Each dim maps through floor(d * roi extent * scale), nondecreasing in d.
  ASSIGN_OR_RETURN(gert::ShapeRange range, InputRange(ctx, 0));
  for (size_t k = 0; k < range.size() && k < factors.size(); ++k) {
    const auto [extent, scale] = factors[k];
    range[k] = MapDimRange(range[k], [extent, scale](int64_t d) -> int64_t {
      const double w = std::floor(static_cast<double>(d) * extent * scale);
      if (!(w >= 0)) return 0;
      return w >= 9.0e15 ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(w);
    });
    if (IsBounded(range[k]) && range[k].second == std::numeric_limits<int64_t>::max()) {
      range[k].second = kUnboundedDim;
    }
  }
  return SetOutputRange(ctx, 0, std::move(range));
}

// ----------------------------------------------------------------- weights

// Original coordinate of output index x along one axis; nullopt when
// tf_crop_and_resize extrapolates.
std::optional<double> OriginalCoord(const ResizeParams& p, double x, double scale, int64_t in_len,
                                    int64_t out_len, double width, double roi_start,
                                    double roi_end) {
  const double L = static_cast<double>(in_len);
  switch (p.coord) {
    case Coord::kHalfPixel:
      return (x + 0.5) / scale - 0.5;
    case Coord::kAsymmetric:
      return x / scale;
    case Coord::kPytorchHalfPixel:
      return out_len > 1 ? (x + 0.5) / scale - 0.5 : 0.0;
    case Coord::kAlignCorners:
      return out_len > 1 ? x * (L - 1) / (width - 1) : 0.0;
    case Coord::kTfHalfPixelForNn:
      return (x + 0.5) / scale;
    case Coord::kTfCropAndResize: {
      const double xo =
          out_len > 1 ? roi_start * (L - 1) + x * (roi_end - roi_start) * (L - 1) / (width - 1)
                      : 0.5 * (roi_start + roi_end) * (L - 1);
      if (xo < 0 || xo > L - 1) return std::nullopt;
      return xo;
    }
  }
  return 0.0;
}

// Per output index: `taps` (input index, weight) pairs; extrapolated ones
// are flagged.
struct AxisWeights {
  int64_t taps = 1;
  std::vector<int64_t> idx;
  std::vector<double> w;
  std::vector<uint8_t> extrapolated;
  bool any_extrapolated = false;
  bool identity = true;
};

int64_t NearestIndex(const ResizeParams& p, double xo) {
  const double fl = std::floor(xo);
  const double ratio = xo - fl;
  if (ratio == 0) return static_cast<int64_t>(fl);
  switch (p.nearest) {
    case NearestMode::kRoundPreferFloor:
      return static_cast<int64_t>(ratio <= 0.5 ? fl : fl + 1);
    case NearestMode::kRoundPreferCeil:
      return static_cast<int64_t>(ratio < 0.5 ? fl : fl + 1);
    case NearestMode::kFloor:
      return static_cast<int64_t>(fl);
    case NearestMode::kCeil:
      return static_cast<int64_t>(fl + 1);
  }
  return static_cast<int64_t>(fl);
}

void CubicCoeffs(double s, double a, double c[4]) {
  const double s1 = s + 1, s2 = 1 - s, s3 = 2 - s;
  c[0] = ((a * s1 - 5 * a) * s1 + 8 * a) * s1 - 4 * a;
  c[1] = ((a + 2) * s - (a + 3)) * s * s + 1;
  c[2] = ((a + 2) * s2 - (a + 3)) * s2 * s2 + 1;
  c[3] = ((a * s3 - 5 * a) * s3 + 8 * a) * s3 - 4 * a;
}

AxisWeights BuildWeights(const ResizeParams& p, int64_t in_len, int64_t out_len, double scale,
                         double width, double roi_start, double roi_end) {
  AxisWeights aw;
  aw.taps = p.mode == Mode::kNearest ? 1 : (p.mode == Mode::kLinear ? 2 : 4);
  aw.idx.assign(out_len * aw.taps, 0);
  aw.w.assign(out_len * aw.taps, 0.0);
  aw.extrapolated.assign(out_len, 0);
  aw.identity = in_len == out_len;
  const int64_t last = in_len - 1;
  // Large coordinates are clamped before the integer conversion.
  const double lim = static_cast<double>(in_len) + 8;
  for (int64_t x = 0; x < out_len; ++x) {
    int64_t* idx = &aw.idx[x * aw.taps];
    double* w = &aw.w[x * aw.taps];
    const std::optional<double> xo_opt =
        OriginalCoord(p, static_cast<double>(x), scale, in_len, out_len, width, roi_start, roi_end);
    if (!xo_opt.has_value() || std::isnan(*xo_opt)) {
      aw.extrapolated[x] = 1;
      aw.any_extrapolated = true;
      aw.identity = false;
      continue;
    }
    const double xo = std::clamp(*xo_opt, -lim, lim);
    if (p.mode == Mode::kNearest) {
      idx[0] = std::clamp<int64_t>(NearestIndex(p, xo), 0, last);
      w[0] = 1;
    } else {
      const double fl = std::floor(xo);
      const double s = xo - fl;
      const int64_t base = static_cast<int64_t>(fl) - (p.mode == Mode::kCubic ? 1 : 0);
      if (p.mode == Mode::kLinear) {
        w[0] = 1 - s;
        w[1] = s;
      } else {
        CubicCoeffs(s, p.cubic_a, w);
      }
      double sum = 0;
      for (int64_t t = 0; t < aw.taps; ++t) {
        const int64_t i = base + t;
        if (p.exclude_outside && (i < 0 || i > last)) w[t] = 0;
        sum += w[t];
        idx[t] = std::clamp<int64_t>(i, 0, last);
      }
      if (p.exclude_outside) {
        if (sum == 0) {  // every neighbour outside: take the nearest edge
          std::fill(w, w + aw.taps, 0.0);
          w[0] = 1;
          idx[0] = std::clamp<int64_t>(static_cast<int64_t>(fl), 0, last);
        } else {
          for (int64_t t = 0; t < aw.taps; ++t) w[t] /= sum;
        }
      }
    }
    // Identity: total weight 1 on index x, 0 elsewhere.
    if (aw.identity) {
      double on_x = 0;
      for (int64_t t = 0; t < aw.taps; ++t) {
        if (idx[t] == x) {
          on_x += w[t];
        } else if (w[t] != 0) {
          aw.identity = false;
        }
      }
      if (on_x != 1) aw.identity = false;
    }
  }
  return aw;
}

// out[o, x, i] = sum_t w[x][t] * in[o, idx[x][t], i].
void ResampleAxis(const std::vector<double>& in, std::vector<double>* out, int64_t outer,
                  int64_t in_len, int64_t inner, const AxisWeights& aw, int64_t out_len) {
  out->assign(outer * out_len * inner, 0.0);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t x = 0; x < out_len; ++x) {
      double* dst = out->data() + (o * out_len + x) * inner;
      if (aw.extrapolated[x]) continue;
      for (int64_t t = 0; t < aw.taps; ++t) {
        const double w = aw.w[x * aw.taps + t];
        if (w == 0) continue;
        const double* src = in.data() + (o * in_len + aw.idx[x * aw.taps + t]) * inner;
        for (int64_t i = 0; i < inner; ++i) dst[i] += w * src[i];
      }
    }
  }
}

template <typename T>
T FromDouble(double v) {
  if constexpr (kIsInteger<T>) {
    if (std::isnan(v)) return T{0};
    const double r = std::nearbyint(v);
    if (r <= static_cast<double>(std::numeric_limits<T>::lowest())) {
      return std::numeric_limits<T>::lowest();
    }
    if (r >= static_cast<double>(std::numeric_limits<T>::max())) {
      return std::numeric_limits<T>::max();
    }
    return static_cast<T>(r);
  } else {
    return FromCompute<T>(static_cast<ComputeType<T>>(v));
  }
}

// --------------------------------------------------------------- kernel

ge::Status ResizeKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(ResizeParams p, GetParams(ctx));
  const gert::Shape& xs = x->GetShape();
  const size_t r = xs.GetDimNum();
  auto present = [&](int i) -> const gert::Tensor* {
    if (i < 0) return nullptr;
    const gert::Tensor* t = ctx.GetInputTensor(i);
    return t != nullptr && t->GetShapeSize() != 0 ? t : nullptr;
  };
  const gert::Tensor* scales_t = present(p.scales_index);
  const gert::Tensor* sizes_t = present(p.sizes_index);
  if ((scales_t == nullptr) == (sizes_t == nullptr)) {
    return ctx.Error(scales_t != nullptr ? "both scales and sizes are given"
                                         : "one of scales and sizes must be given");
  }
  ASSIGN_OR_RETURN(std::vector<double> roi, GetRoi(ctx, p, present(p.roi_index), r));
  Target t;
  if (scales_t != nullptr) {
    ASSIGN_OR_RETURN(std::vector<double> scales, WithNodeOr(ctx, ReadAsDoubles(*scales_t)));
    ASSIGN_OR_RETURN(t, TargetFromScales(ctx, xs, scales, roi));
  } else {
    ASSIGN_OR_RETURN(std::vector<int64_t> sizes, WithNodeOr(ctx, ReadIntTensor(*sizes_t)));
    ASSIGN_OR_RETURN(t, TargetFromSizes(ctx, xs, sizes));
  }
  ASSIGN_OR_RETURN(gert::Shape out_shape, WithNodeOr(ctx, ShapeFromDims(t.out)));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, out_shape, x->GetDataType()));
  if (out_shape.GetShapeSize() == 0) return ge::OkStatus();
  for (size_t k = 0; k < r; ++k) {
    if (xs.GetDim(k) == 0) {
      return ctx.Error("cannot resize empty axis ", k, " of X ", xs.ToString(), " to ", t.out[k]);
    }
  }
  std::vector<AxisWeights> weights(r);
  for (size_t k = 0; k < r; ++k) {
    weights[k] =
        BuildWeights(p, xs.GetDim(k), t.out[k], t.scales[k], t.widths[k], roi[k], roi[r + k]);
  }

  if (p.mode == Mode::kNearest) {
    const std::vector<int64_t> strides = RowMajorStrides(xs.GetDims());
    std::vector<std::vector<int64_t>> maps(r);
    for (size_t k = 0; k < r; ++k) {
      maps[k].resize(t.out[k]);
      for (int64_t i = 0; i < t.out[k]; ++i) {
        maps[k][i] = weights[k].extrapolated[i] ? -1 : weights[k].idx[i] * strides[k];
      }
    }
    // The extrapolation value as an element of X's type (real types only).
    alignas(16) uint8_t fill[16] = {};
    if (IsInGroups(x->GetDataType(), kTgReal)) {
      RETURN_IF_ERROR(DispatchType<kTgReal>(x->GetDataType(), [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T v = FromDouble<T>(p.extrapolation);
        static_assert(sizeof(T) <= sizeof(fill), "fill buffer too small");
        std::memcpy(fill, &v, sizeof(T));
        return ge::OkStatus();
      }));
    }
    const bool use_fill = IsInGroups(x->GetDataType(), kTgReal);
    return WithNode(ctx, AxisMapCopy(*x, maps, use_fill ? fill : nullptr, y));
  }

  return DispatchTypeFor<kTgReal>(ctx, x->GetDataType(), "linear / cubic Resize", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = x->GetData<T>();
    const int64_t n_in = xs.GetShapeSize();
    std::vector<double> cur(n_in), next;
    for (int64_t i = 0; i < n_in; ++i) cur[i] = static_cast<double>(ToCompute(in[i]));
    std::vector<int64_t> dims = xs.ToVector();
    for (size_t k = 0; k < r; ++k) {
      if (weights[k].identity) continue;
      int64_t outer = 1, inner = 1;
      for (size_t j = 0; j < k; ++j) outer *= dims[j];
      for (size_t j = k + 1; j < r; ++j) inner *= dims[j];
      ResampleAxis(cur, &next, outer, dims[k], inner, weights[k], t.out[k]);
      dims[k] = t.out[k];
      cur.swap(next);
    }
    // tf_crop_and_resize: any extrapolated coordinate gives the value.
    for (size_t k = 0; k < r; ++k) {
      if (!weights[k].any_extrapolated) continue;
      int64_t outer = 1, inner = 1;
      for (size_t j = 0; j < k; ++j) outer *= dims[j];
      for (size_t j = k + 1; j < r; ++j) inner *= dims[j];
      for (int64_t o = 0; o < outer; ++o) {
        for (int64_t i = 0; i < dims[k]; ++i) {
          if (!weights[k].extrapolated[i]) continue;
          std::fill_n(cur.data() + (o * dims[k] + i) * inner, inner, p.extrapolation);
        }
      }
    }
    T* o = y->GetData<T>();
    for (size_t i = 0; i < cur.size(); ++i) o[i] = FromDouble<T>(cur[i]);
    return ge::OkStatus();
  });
}

ge::TensorType ResizeTypes() { return ArrayTensorTypes(); }

REG_OP(Resize)
    .Input("X", ResizeTypes())
    .OptionalInput("roi", ge::TensorType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE}))
    .OptionalInput("scales", ge::TensorType({ge::DT_FLOAT}))
    .OptionalInput("sizes", ge::TensorType({ge::DT_INT64}))
    .Output("Y", ResizeTypes())
    .Attr("mode", ge::AttrValue::CreateFrom<std::string>("nearest"))
    .Attr("coordinate_transformation_mode", ge::AttrValue::CreateFrom<std::string>("half_pixel"))
    .Attr("nearest_mode", ge::AttrValue::CreateFrom<std::string>("round_prefer_floor"))
    .Attr("exclude_outside", ge::AttrValue::CreateFrom<int64_t>(0))
    .Attr("cubic_coeff_a", ge::AttrValue::CreateFrom<float>(-0.75f))
    .Attr("extrapolation_value", ge::AttrValue::CreateFrom<float>(0.0f))
    .InferShape(InferResize)
    .ValueDependentInput("roi")
    .ValueDependentInput("scales")
    .ValueDependentInput("sizes");
REG_KERNEL(Resize, ge::kEngineHostCpu).Fn(ResizeKernel);

REG_OP(Upsample)
    .Input("X", ResizeTypes())
    .Input("scales", ge::TensorType({ge::DT_FLOAT}))
    .Output("Y", ResizeTypes())
    .Attr("mode", ge::AttrValue::CreateFrom<std::string>("nearest"))
    .InferShape(InferResize)
    .ValueDependentInput("scales");
REG_KERNEL(Upsample, ge::kEngineHostCpu).Fn(ResizeKernel);

}  // namespace
}  // namespace ops
