// ops/nn/nn_util.cc
#include "ops/nn/nn_util.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "ops/common/gemm.h"

namespace ops {
namespace nn {
namespace {

// floor(a / b) and ceil(a / b) for b > 0 and any sign of a.
int64_t FloorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}
int64_t CeilDiv(int64_t a, int64_t b) { return -FloorDiv(-a, b); }

// An optional list attribute without copying it (empty when absent).
ge::StatusOr<absl::Span<const int64_t>> ListIntView(const gert::ContextBase& ctx,
                                                    absl::string_view name) {
  if (!ctx.HasAttr(name)) return absl::Span<const int64_t>();
  return ctx.GetListIntView(name);
}

// Reads an optional list attribute into *out; an absent or empty list gives
// `fill` repeated n times. Otherwise it must have n entries, each >= min_value.
template <typename Vec>
ge::Status ReadListAttr(const gert::ContextBase& ctx, absl::string_view name, size_t n,
                        int64_t fill, int64_t min_value, size_t nspatial, Vec* out) {
  ASSIGN_OR_RETURN(absl::Span<const int64_t> v, ListIntView(ctx, name));
  if (v.empty()) {
    out->assign(n, fill);
    return ge::OkStatus();
  }
  if (v.size() != n) {
    return ctx.Error("attribute ", name, " ", DimsStr(v), " has ", v.size(), " entries, expected ",
                     n, " for ", nspatial, " spatial dims");
  }
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i] < min_value) {
      return ctx.Error("attribute ", name, " ", DimsStr(v), ": entry ", i, " (", v[i],
                       ") must be >= ", min_value);
    }
  }
  out->assign(v.begin(), v.end());
  return ge::OkStatus();
}

}  // namespace

// ============================================================ type sets

ge::TensorType FloatTypes() { return ge::TensorType{ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE}; }

ge::TensorType FloatTypesBf16() {
  return ge::TensorType{ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_BF16};
}

ge::TensorType QuantTypes() { return ge::TensorType{ge::DT_INT8, ge::DT_UINT8}; }

ge::TensorType AllOnnxTypes() {
  return ge::TensorType{ge::DT_UINT8,  ge::DT_UINT16,  ge::DT_UINT32,    ge::DT_UINT64,
                        ge::DT_INT8,   ge::DT_INT16,   ge::DT_INT32,     ge::DT_INT64,
                        ge::DT_BF16,   ge::DT_FLOAT16, ge::DT_FLOAT,     ge::DT_DOUBLE,
                        ge::DT_STRING, ge::DT_BOOL,    ge::DT_COMPLEX64, ge::DT_COMPLEX128};
}

// ============================================================ windows

ge::StatusOr<WindowSpec> ReadWindowSpec(const gert::ContextBase& ctx, size_t nspatial,
                                        absl::Span<const int64_t> weight_kernel,
                                        const WindowSpecOptions& options) {
  WindowSpec spec;
  ASSIGN_OR_RETURN(std::string auto_pad, ctx.GetStrOr("auto_pad", "NOTSET"));
  if (auto_pad == "NOTSET" || auto_pad.empty()) {
    spec.auto_pad = AutoPad::kNotSet;
  } else if (auto_pad == "SAME_UPPER") {
    spec.auto_pad = AutoPad::kSameUpper;
  } else if (auto_pad == "SAME_LOWER") {
    spec.auto_pad = AutoPad::kSameLower;
  } else if (auto_pad == "VALID") {
    spec.auto_pad = AutoPad::kValid;
  } else {
    return ctx.Error("attribute auto_pad \"", auto_pad,
                     "\" is not one of NOTSET, SAME_UPPER, SAME_LOWER, VALID");
  }

  ASSIGN_OR_RETURN(absl::Span<const int64_t> kernel, ListIntView(ctx, "kernel_shape"));
  if (!kernel.empty()) {
    if (kernel.size() != nspatial) {
      return ctx.Error("attribute kernel_shape ", DimsStr(kernel), " has ", kernel.size(),
                       " entries, expected ", nspatial, " (the spatial rank of input 0)");
    }
    for (size_t i = 0; i < kernel.size(); ++i) {
      if (kernel[i] < 1) {
        return ctx.Error("attribute kernel_shape ", DimsStr(kernel), ": entry ", i, " (", kernel[i],
                         ") must be >= 1");
      }
      if (weight_kernel.size() == nspatial && weight_kernel[i] >= 0 &&
          weight_kernel[i] != kernel[i]) {
        return ctx.Error("attribute kernel_shape ", DimsStr(kernel),
                         " does not match the weight's spatial dims ", DimsStr(weight_kernel));
      }
    }
    spec.kernel.assign(kernel.begin(), kernel.end());
  } else if (options.kernel_required || weight_kernel.size() != nspatial) {
    return ctx.Error("missing required attribute kernel_shape");
  } else {
    spec.kernel.assign(weight_kernel.begin(), weight_kernel.end());
    for (size_t i = 0; i < spec.kernel.size(); ++i) {
      if (spec.kernel[i] == 0) {
        return ctx.Error("weight spatial dim ", i, " is 0 (kernel ", DimsStr(spec.kernel), ")");
      }
    }
  }

  RETURN_IF_ERROR(ReadListAttr(ctx, "strides", nspatial, 1, 1, nspatial, &spec.strides));
  if (options.read_dilations) {
    RETURN_IF_ERROR(ReadListAttr(ctx, "dilations", nspatial, 1, 1, nspatial, &spec.dilations));
  } else {
    spec.dilations.assign(nspatial, 1);
  }
  RETURN_IF_ERROR(ReadListAttr(ctx, "pads", 2 * nspatial, 0, 0, nspatial, &spec.pads));
  if (spec.auto_pad != AutoPad::kNotSet) std::fill(spec.pads.begin(), spec.pads.end(), 0);
  if (options.read_ceil_mode) {
    ASSIGN_OR_RETURN(int64_t ceil_mode, ctx.GetIntOr("ceil_mode", 0));
    spec.ceil_mode = ceil_mode != 0;
  }
  return spec;
}

ge::StatusOr<gert::ShapeRange> WindowOutputRange(const gert::ContextBase& ctx,
                                                 const WindowSpec& spec,
                                                 const gert::ShapeRange& x_range,
                                                 std::pair<int64_t, int64_t> channels) {
  const size_t nsp = spec.rank();
  if (x_range.size() != nsp + 2) {
    return ctx.ErrorWithCode(ge::ErrorCode::kInternal, "input range of ", x_range.size(),
                             " dims for ", nsp, " spatial dims");
  }
  gert::ShapeRange out = {x_range[0], channels};
  for (size_t i = 0; i < nsp; ++i) {
    const std::pair<int64_t, int64_t>& r = x_range[i + 2];
    std::pair<int64_t, int64_t> o{0, -1};
    if (spec.kernel[i] >= 0) {
      ge::StatusOr<WindowDim> lo = ComputeWindowDim(ctx, spec, i, r.first);
      o.first = lo.ok() ? std::max<int64_t>(lo->out, 0) : 1;
      if (r.second >= 0) {
        ge::StatusOr<WindowDim> hi = ComputeWindowDim(ctx, spec, i, r.second);
        if (!hi.ok()) {
          return ctx.Error("spatial dim ", i, " of input 0 has the range [", r.first, ", ",
                           r.second, "], too small for the window: ", hi.status().message());
        }
        o.second = std::max(hi->out, o.first);
      }
    }
    out.push_back(o);
  }
  return out;
}

ge::StatusOr<WindowDim> ComputeWindowDim(const gert::ContextBase& ctx, const WindowSpec& spec,
                                         size_t i, int64_t in) {
  const size_t n = spec.rank();
  if (i >= n) return ctx.ErrorWithCode(ge::ErrorCode::kInternal, "window dim ", i, " >= ", n);
  WindowDim r;
  if (spec.auto_pad == AutoPad::kNotSet) {
    r.pad_begin = spec.pads[i];
    r.pad_end = spec.pads[i + n];
  }
  const int64_t k = spec.kernel[i];
  const int64_t s = spec.strides[i];
  const int64_t d = spec.dilations[i];
  if (in < 0 || k < 0) return r;  // unknown
  int64_t dk;
  if (__builtin_mul_overflow(k - 1, d, &dk) || __builtin_add_overflow(dk, 1, &dk)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kOverflow, "dilated kernel of spatial dim ", i,
                             " overflows (kernel ", k, ", dilation ", d, ")");
  }
  constexpr int64_t kBig = int64_t{1} << 60;
  if (in > kBig || r.pad_begin > kBig || r.pad_end > kBig || dk > kBig) {
    return ctx.ErrorWithCode(ge::ErrorCode::kOverflow, "spatial dim ", i, " size ", in,
                             ", its pads or its dilated kernel (", dk, ") are too large");
  }
  switch (spec.auto_pad) {
    case AutoPad::kNotSet: {
      const int64_t span = in + r.pad_begin + r.pad_end - dk;
      if (span < 0) {
        return ctx.Error("spatial dim ", i, " of input 0 (size ", in, ", pads ", r.pad_begin, "+",
                         r.pad_end, ") is smaller than the dilated kernel (", dk, ")");
      }
      if (spec.ceil_mode) {
        r.out = CeilDiv(span, s) + 1;
        // A last window that starts inside the end padding is dropped.
        if ((r.out - 1) * s >= in + r.pad_begin) --r.out;
      } else {
        r.out = span / s + 1;
      }
      break;
    }
    case AutoPad::kValid: {
      const int64_t span = in - dk;
      if (span < 0) {
        return ctx.Error("spatial dim ", i, " of input 0 (size ", in,
                         ") is smaller than the dilated kernel (", dk, ") with auto_pad VALID");
      }
      r.out = span / s + 1;
      break;
    }
    case AutoPad::kSameUpper:
    case AutoPad::kSameLower: {
      r.out = CeilDiv(in, s);
      const int64_t total = std::max<int64_t>(0, (r.out - 1) * s + dk - in);
      if (spec.auto_pad == AutoPad::kSameUpper) {
        r.pad_begin = total / 2;
        r.pad_end = total - r.pad_begin;
      } else {
        r.pad_end = total / 2;
        r.pad_begin = total - r.pad_end;
      }
      break;
    }
  }
  return r;
}

// ============================================================ geometry

ge::Status ConvGeometry::Finalize() {
  const size_t n = image.size();
  if (kernel.size() != n || strides.size() != n || dilations.size() != n || pad_begin.size() != n ||
      out.size() != n) {
    return ge::Internal("ConvGeometry: inconsistent ranks");
  }
  image_size = kernel_size = out_size = 1;
  for (size_t i = 0; i < n; ++i) {
    if (image[i] < 0 || kernel[i] < 0 || out[i] < 0) {
      return ge::Internal("ConvGeometry: negative dim at ", i);
    }
    if (__builtin_mul_overflow(image_size, image[i], &image_size) ||
        __builtin_mul_overflow(kernel_size, kernel[i], &kernel_size) ||
        __builtin_mul_overflow(out_size, out[i], &out_size)) {
      return ge::Overflow("convolution geometry overflows: image ", DimsStr(image), " kernel ",
                          DimsStr(kernel), " output ", DimsStr(out));
    }
  }
  return ge::OkStatus();
}

bool ConvGeometry::IsPointwise() const {
  for (size_t i = 0; i < image.size(); ++i) {
    if (kernel[i] != 1 || strides[i] != 1 || pad_begin[i] != 0 || out[i] != image[i]) {
      return false;
    }
  }
  return true;
}

namespace {

// Calls row(kidx_offsets...) machinery shared by Im2Col and Col2ImAdd: for
// every (channel, kernel offset, outer output position) it calls
//   seg(col_row, image_offset_or_-1, lo, hi, off_last)
// where col_row indexes the first column of the segment, the image offset
// is that of the (outer dims) image row or -1 when the row is padding, and
// output positions [lo, hi) of the last dim read image row element
// o * stride + off_last.
template <typename Seg>
void ForEachSegment(const ConvGeometry& g, int64_t channels, Seg&& seg) {
  const size_t n = g.rank();
  if (g.out_size == 0 || g.kernel_size == 0 || channels <= 0) return;
  const size_t last = n - 1;
  const int64_t out_last = g.out[last];
  const int64_t in_last = g.image[last];
  const int64_t s_last = g.strides[last];
  const int64_t outer_out = g.out_size / out_last;
  DimVec img_stride(n, 1);
  for (size_t d = last; d-- > 0;) img_stride[d] = img_stride[d + 1] * g.image[d + 1];
  DimVec kpos(n, 0);
  DimVec opos(n, 0);
  int64_t col_row = 0;
  for (int64_t c = 0; c < channels; ++c) {
    const int64_t img_c = c * g.image_size;
    std::fill(kpos.begin(), kpos.end(), 0);
    for (int64_t kidx = 0; kidx < g.kernel_size; ++kidx) {
      const int64_t off_last = kpos[last] * g.dilations[last] - g.pad_begin[last];
      int64_t lo = std::clamp<int64_t>(CeilDiv(-off_last, s_last), 0, out_last);
      int64_t hi = std::clamp<int64_t>(CeilDiv(in_last - off_last, s_last), lo, out_last);
      std::fill(opos.begin(), opos.end(), 0);
      for (int64_t oi = 0; oi < outer_out; ++oi) {
        int64_t offset = img_c;
        for (size_t d = 0; d < last; ++d) {
          const int64_t ip = opos[d] * g.strides[d] - g.pad_begin[d] + kpos[d] * g.dilations[d];
          if (ip < 0 || ip >= g.image[d]) {
            offset = -1;
            break;
          }
          offset += ip * img_stride[d];
        }
        seg(col_row + oi * out_last, offset, lo, hi, off_last);
        for (size_t d = last; d-- > 0;) {
          if (++opos[d] < g.out[d]) break;
          opos[d] = 0;
        }
      }
      col_row += g.out_size;
      for (size_t d = n; d-- > 0;) {
        if (++kpos[d] < g.kernel[d]) break;
        kpos[d] = 0;
      }
    }
  }
}

}  // namespace

template <typename T>
void Im2Col(const ConvGeometry& g, int64_t channels, const T* image, T pad_value, T* cols) {
  if (g.rank() == 0) {
    std::copy(image, image + channels, cols);
    return;
  }
  const int64_t out_last = g.out.back();
  const int64_t s_last = g.strides.back();
  ForEachSegment(g, channels,
                 [&](int64_t col, int64_t offset, int64_t lo, int64_t hi, int64_t off_last) {
                   T* row = cols + col;
                   if (offset < 0) {
                     std::fill(row, row + out_last, pad_value);
                     return;
                   }
                   std::fill(row, row + lo, pad_value);
                   if (hi <= lo) {
                     // the whole segment reads padding
                   } else if (s_last == 1) {
                     const T* src = image + (offset + off_last + lo);
                     std::copy(src, src + (hi - lo), row + lo);
                   } else {
                     const T* src = image + offset;
                     for (int64_t o = lo; o < hi; ++o) row[o] = src[o * s_last + off_last];
                   }
                   std::fill(row + hi, row + out_last, pad_value);
                 });
}

void PackIm2Col2d(const ConvGeometry& g, const float* image, int64_t p0, int64_t kc, int64_t j0,
                  int64_t nc, int64_t nr, float* out) {
  const int64_t in_h = g.image[0], in_w = g.image[1];
  const int64_t k_h = g.kernel[0], k_w = g.kernel[1];
  const int64_t out_w = g.out[1];
  const int64_t s_h = g.strides[0], s_w = g.strides[1];
  const int64_t panel = kc * nr;  // elements per panel
  for (int64_t p = p0; p < p0 + kc; ++p) {
    const int64_t c = p / (k_h * k_w);
    const int64_t ky = (p / k_w) % k_h;
    const int64_t kx = p % k_w;
    const float* plane = image + c * in_h * in_w;
    const int64_t y_off = ky * g.dilations[0] - g.pad_begin[0];
    const int64_t x_off = kx * g.dilations[1] - g.pad_begin[1];
    float* row = out + (p - p0) * nr;
    // Runs of columns contiguous both in one output row and in one panel.
    int64_t oy = j0 / out_w, ox = j0 % out_w;
    int64_t q = 0, jj = 0;
    for (int64_t left = nc; left > 0;) {
      const int64_t run = std::min({out_w - ox, left, nr - jj});
      float* dst = row + q * panel + jj;
      const int64_t iy = oy * s_h + y_off;
      if (iy < 0 || iy >= in_h) {
        std::fill(dst, dst + run, 0.0f);
      } else {
        const float* src = plane + iy * in_w;
        const int64_t ix0 = ox * s_w + x_off;
        if (s_w == 1) {
          // [lo, hi) of the run reads inside the row.
          const int64_t lo = std::clamp<int64_t>(-ix0, 0, run);
          const int64_t hi = std::clamp<int64_t>(in_w - ix0, lo, run);
          std::fill(dst, dst + lo, 0.0f);
          std::copy(src + ix0 + lo, src + ix0 + hi, dst + lo);
          std::fill(dst + hi, dst + run, 0.0f);
        } else {
          for (int64_t t = 0; t < run; ++t) {
            const int64_t ix = ix0 + t * s_w;
            dst[t] = ix >= 0 && ix < in_w ? src[ix] : 0.0f;
          }
        }
      }
      left -= run;
      ox += run;
      if (ox == out_w) {
        ox = 0;
        ++oy;
      }
      jj += run;
      if (jj == nr) {
        jj = 0;
        ++q;
      }
    }
    if (jj > 0) std::fill(row + q * panel + jj, row + q * panel + nr, 0.0f);
  }
}

template <typename T>
void Col2ImAdd(const ConvGeometry& g, int64_t channels, const T* cols, T* image) {
  if (g.rank() == 0) {
    for (int64_t c = 0; c < channels; ++c) image[c] += cols[c];
    return;
  }
  const int64_t s_last = g.strides.back();
  ForEachSegment(g, channels,
                 [&](int64_t col, int64_t offset, int64_t lo, int64_t hi, int64_t off_last) {
                   if (offset < 0) return;
                   const T* row = cols + col;
                   T* dst = image + offset;
                   for (int64_t o = lo; o < hi; ++o) dst[o * s_last + off_last] += row[o];
                 });
}

template void Im2Col<float>(const ConvGeometry&, int64_t, const float*, float, float*);
template void Im2Col<double>(const ConvGeometry&, int64_t, const double*, double, double*);
template void Im2Col<int32_t>(const ConvGeometry&, int64_t, const int32_t*, int32_t, int32_t*);
template void Col2ImAdd<float>(const ConvGeometry&, int64_t, const float*, float*);
template void Col2ImAdd<double>(const ConvGeometry&, int64_t, const double*, double*);

// ============================================================ GEMM

template <typename T>
void Gemm(int64_t m, int64_t n, int64_t k, const T* a, int64_t lda, const T* b, int64_t ldb, T* c,
          int64_t ldc, bool accumulate) {
  if (m <= 0 || n <= 0) return;
  if constexpr (std::is_same_v<T, float>) {
    GemmF32(false, false, m, n, k, 1.0f, a, lda, b, ldb, accumulate ? 1.0f : 0.0f, c, ldc);
  } else if constexpr (std::is_same_v<T, double>) {
    GemmF64(false, false, m, n, k, 1.0, a, lda, b, ldb, accumulate ? 1.0 : 0.0, c, ldc);
  } else {
    GemmInt<T>(false, false, m, n, k, T{1}, a, lda, b, ldb, accumulate ? T{1} : T{0}, c, ldc);
  }
}

template void Gemm<float>(int64_t, int64_t, int64_t, const float*, int64_t, const float*, int64_t,
                          float*, int64_t, bool);
template void Gemm<double>(int64_t, int64_t, int64_t, const double*, int64_t, const double*,
                           int64_t, double*, int64_t, bool);
template void Gemm<int32_t>(int64_t, int64_t, int64_t, const int32_t*, int64_t, const int32_t*,
                            int64_t, int32_t*, int64_t, bool);

// ============================================================ buffers

namespace {

// C -> storage type T: half types round to nearest even, integers round
// half to even and saturate (NaN -> 0).
template <typename T, typename C>
inline T StoreAs(C v) {
  if constexpr (kIsHalf<T>) {
    return FromCompute<T>(static_cast<float>(v));
  } else if constexpr (std::is_floating_point_v<T>) {
    return static_cast<T>(v);
  } else {
    if (std::isnan(v)) return T{0};
    const C r = std::nearbyint(v);
    if (r <= static_cast<C>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
    if (r >= static_cast<C>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return static_cast<T>(r);
  }
}

constexpr uint32_t kComputeGroups = kTgAllFloat | kTgInt;

}  // namespace

template <typename C>
ge::Status ComputeInput<C>::Init(const gert::Tensor& t) {
  size_ = t.GetShapeSize();
  if (size_ < 0) return ge::ParamInvalid("tensor shape ", t.GetShape().ToString(), " is unknown");
  if (t.GetDataType() == DataTypeOf<C>()) {
    ptr_ = t.GetData<C>();
    return ge::OkStatus();
  }
  return DispatchType<kComputeGroups>(
      t.GetDataType(),
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* src = t.GetData<T>();
        buf_.resize(static_cast<size_t>(size_));
        for (int64_t i = 0; i < size_; ++i) buf_[i] = static_cast<C>(ToCompute(src[i]));
        ptr_ = buf_.data();
        return ge::OkStatus();
      },
      "an nn kernel input");
}

template <typename C>
ge::Status ComputeOutput<C>::Init(gert::Tensor* t) {
  t_ = t;
  size_ = t->GetShapeSize();
  if (size_ < 0) return ge::ParamInvalid("tensor shape ", t->GetShape().ToString(), " is unknown");
  if (t->GetDataType() == DataTypeOf<C>()) {
    ptr_ = t->GetData<C>();
    return ge::OkStatus();
  }
  if (!IsInGroups(t->GetDataType(), kComputeGroups)) {
    return ge::NotSupported("data type ", DataTypeName(t->GetDataType()),
                            " is not supported for an nn kernel output");
  }
  buf_.assign(static_cast<size_t>(size_), C{0});
  ptr_ = buf_.data();
  return ge::OkStatus();
}

template <typename C>
void ComputeOutput<C>::Commit() {
  if (t_ == nullptr || ptr_ != buf_.data() || buf_.empty()) return;
  (void)DispatchType<kComputeGroups>(
      t_->GetDataType(),
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* dst = t_->GetData<T>();
        for (int64_t i = 0; i < size_; ++i) dst[i] = StoreAs<T>(buf_[i]);
        return ge::OkStatus();
      },
      "an nn kernel output");
}

template class ComputeInput<float>;
template class ComputeInput<double>;
template class ComputeOutput<float>;
template class ComputeOutput<double>;

// ============================================================ kernel I/O

ge::StatusOr<const gert::Tensor*> GetOptionalInput(const gert::KernelContext& ctx, size_t i) {
  if (ctx.GetInputTensor(i) == nullptr) return nullptr;
  return GetKernelInput(ctx, i);
}

ge::StatusOr<gert::Tensor*> PrepareOptionalOutput(gert::KernelContext& ctx, size_t i,
                                                  const gert::Shape& shape, ge::DataType dtype) {
  if (ctx.GetOutputTensor(i) == nullptr) return nullptr;
  return PrepareOutput(ctx, i, shape, dtype);
}

ge::Status CheckSameDtype(const gert::InferShapeContext& ctx,
                          std::initializer_list<size_t> indices) {
  size_t first = 0;
  ge::DataType dt = ge::DT_UNDEFINED;
  for (size_t i : indices) {
    if (ctx.GetInputShape(i) == nullptr) continue;  // absent optional input
    const ge::DataType d = ctx.GetInputDataType(i);
    if (d == ge::DT_UNDEFINED) continue;
    if (dt == ge::DT_UNDEFINED) {
      dt = d;
      first = i;
    } else if (d != dt) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input ", i, " has data type ",
                               DataTypeName(d), " but input ", first, " has ", DataTypeName(dt));
    }
  }
  return ge::OkStatus();
}

// ============================================================ shapes

std::string DimsStr(absl::Span<const int64_t> dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

ge::StatusOr<gert::Shape> NnShape(const gert::ContextBase& ctx, absl::Span<const int64_t> dims) {
  ge::StatusOr<gert::Shape> s = gert::Shape::FromDims(dims);
  if (!s.ok()) return WithNode(ctx, s.status());
  return s;
}

}  // namespace nn
}  // namespace ops
