// ops/signal/signal_ops.cc
//
// Signal ops (ONNX opset 17): DFT, STFT, BlackmanWindow, HammingWindow,
// HannWindow, MelWeightMatrix with reference host-CPU kernels.
//
// Complex values are a trailing dim of 2 (real, imaginary); real inputs have
// a trailing dim of 1. Transforms run in double: a radix-2 FFT when the
// length is a power of two, otherwise a direct DFT over a twiddle table.
//
// DFT      input [batch, n1, ..., nk, 1|2], optional dft_length (scalar:
//          zero-pads or truncates the signal along `axis`); attributes axis
//          (default 1; range [-r, -2] or [0, r-2] for rank r), inverse
//          (scaled by 1/n, as numpy's ifft), onesided (only the first
//          floor(n/2)+1 bins; real input only). Output [..., 2] with the axis
//          dim = n (or n/2+1).
// STFT     signal [batch, length, 1|2], frame_step (scalar), window
//          [frame_length]?, frame_length (scalar)?, attribute onesided
//          (default 1; real signal only). Output [batch, frames, bins, 2],
//          frames = (length - frame_length) / frame_step + 1.
// Windows  size (INT32 / INT64 scalar) -> [size] of output_datatype
//          (default FLOAT), periodic (default 1: N = size, else N = size-1):
//          Hann 0.5 - 0.5 cos(2 pi n / N), Hamming a0 - (1 - a0) cos(2 pi n / N)
//          with a0 = 25/46, Blackman 0.42 - 0.5 cos(2 pi n / N) +
//          0.08 cos(4 pi n / N). A symmetric window of size 1 is [1] (numpy).
//          Integer output types truncate toward zero.
// MelWeightMatrix  num_mel_bins, dft_length, sample_rate (int scalars),
//          lower_edge_hertz, upper_edge_hertz (float scalars) ->
//          [dft_length/2 + 1, num_mel_bins] of output_datatype, following
//          the ONNX reference (mel scale 2595 log10(1 + hz/700), num_mel_bins
//          + 2 points spaced by (high - low) / (num_mel_bins + 2), bins
//          floor((dft_length + 1) * hz / sample_rate), triangular filters).
//          A bin beyond the spectrum (e.g. upper_edge_hertz above the
//          Nyquist frequency) is an error.
// Output shapes that depend on input values are -1 while those values are
// unknown.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"

namespace ops {
namespace {

constexpr double kPi = 3.14159265358979323846;
using Complex = std::complex<double>;

// ------------------------------------------------------------ transform

// Transforms of one length (forward or inverse, inverse scaled by 1/n).
class DftPlan {
 public:
  DftPlan(int64_t n, bool inverse) : n_(n), inverse_(inverse) {
    twiddle_.resize(static_cast<size_t>(n));
    const double sign = inverse ? 1.0 : -1.0;
    for (int64_t m = 0; m < n; ++m) {
      const double angle = 2.0 * kPi * static_cast<double>(m) / static_cast<double>(n);
      twiddle_[m] = Complex(std::cos(angle), sign * std::sin(angle));
    }
    pow2_ = n > 0 && (n & (n - 1)) == 0;
    if (pow2_) {
      int bits = 0;
      while ((int64_t{1} << bits) < n) ++bits;
      rev_.resize(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) {
        int64_t r = 0;
        for (int b = 0; b < bits; ++b) r |= ((i >> b) & 1) << (bits - 1 - b);
        rev_[i] = r;
      }
      work_.resize(static_cast<size_t>(n));
    }
  }

  // out[f] for f < n_out (n_out <= n) from in[0..n).
  void Run(const Complex* in, Complex* out, int64_t n_out) {
    const double scale = inverse_ ? 1.0 / static_cast<double>(n_) : 1.0;
    if (pow2_) {
      for (int64_t i = 0; i < n_; ++i) work_[rev_[i]] = in[i];
      for (int64_t len = 2; len <= n_; len <<= 1) {
        const int64_t half = len / 2, step = n_ / len;
        for (int64_t start = 0; start < n_; start += len) {
          for (int64_t k = 0; k < half; ++k) {
            const Complex t = twiddle_[k * step] * work_[start + k + half];
            const Complex u = work_[start + k];
            work_[start + k] = u + t;
            work_[start + k + half] = u - t;
          }
        }
      }
      for (int64_t f = 0; f < n_out; ++f) out[f] = work_[f] * scale;
      return;
    }
    for (int64_t f = 0; f < n_out; ++f) {
      Complex s = 0;
      int64_t m = 0;  // f * k mod n
      for (int64_t k = 0; k < n_; ++k) {
        s += in[k] * twiddle_[m];
        m += f;
        if (m >= n_) m -= n_;
      }
      out[f] = s * scale;
    }
  }

 private:
  int64_t n_;
  bool inverse_;
  bool pow2_ = false;
  std::vector<Complex> twiddle_;
  std::vector<int64_t> rev_;
  std::vector<Complex> work_;
};

// ------------------------------------------------------------ helpers

// A scalar integer input (rank 0 or a single element) when its value is
// known; nullopt-like (-1, false) otherwise.
struct KnownInt {
  bool known = false;
  int64_t value = 0;
};

ge::StatusOr<KnownInt> ScalarIntValue(const gert::InferShapeContext& ctx, size_t i,
                                      const char* name) {
  KnownInt k;
  const gert::Tensor* t = ctx.GetInputTensor(i);
  if (t == nullptr) return k;
  ge::StatusOr<std::vector<int64_t>> v = ReadIntTensor(*t);
  if (!v.ok()) return WithNode(ctx, ge::Annotate(v.status(), "input ", i, " (", name, "): "));
  if (v->size() != 1) {
    return ctx.Error("input ", i, " (", name, ") must be a scalar, got shape ",
                     t->GetShape().ToString());
  }
  k.known = true;
  k.value = (*v)[0];
  return k;
}

ge::StatusOr<int64_t> KernelScalarInt(const gert::KernelContext& ctx, size_t i, const char* name) {
  ASSIGN_OR_RETURN(const gert::Tensor* t, GetKernelInput(ctx, i));
  ge::StatusOr<std::vector<int64_t>> v = ReadIntTensor(*t);
  if (!v.ok()) return WithNode(ctx, ge::Annotate(v.status(), "input ", i, " (", name, "): "));
  if (v->size() != 1) {
    return ctx.Error("input ", i, " (", name, ") must be a scalar, got shape ",
                     t->GetShape().ToString());
  }
  return (*v)[0];
}

ge::StatusOr<double> KernelScalarFloat(const gert::KernelContext& ctx, size_t i, const char* name) {
  ASSIGN_OR_RETURN(const gert::Tensor* t, GetKernelInput(ctx, i));
  ge::StatusOr<std::vector<double>> v = ReadAsDoubles(*t);
  if (!v.ok()) return WithNode(ctx, ge::Annotate(v.status(), "input ", i, " (", name, "): "));
  if (v->size() != 1) {
    return ctx.Error("input ", i, " (", name, ") must be a scalar, got shape ",
                     t->GetShape().ToString());
  }
  return (*v)[0];
}

ge::Status CheckScalarShape(const gert::InferShapeContext& ctx, size_t i, const char* name) {
  const gert::Shape* s = ctx.GetInputShape(i);
  if (s == nullptr || s->IsUnknownRank()) return ge::OkStatus();
  if (s->GetDimNum() == 0 || (s->GetDimNum() == 1 && (s->GetDim(0) == 1 || s->GetDim(0) < 0))) {
    return ge::OkStatus();
  }
  return ctx.Error("input ", i, " (", name, ") must be a scalar, got shape ", s->ToString());
}

// Reads a real (last dim 1) or complex (last dim 2) float tensor as complex.
ge::StatusOr<std::vector<Complex>> ReadComplex(const gert::Tensor& t) {
  const int64_t total = t.GetShapeSize();
  const gert::Shape& s = t.GetShape();
  const int64_t comp = s.GetDim(s.GetDimNum() - 1);
  std::vector<Complex> out(static_cast<size_t>(comp > 0 ? total / comp : 0));
  RETURN_IF_ERROR(DispatchType<kTgAllFloat>(
      t.GetDataType(),
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* p = t.GetData<T>();
        for (size_t i = 0; i < out.size(); ++i) {
          const double re = static_cast<double>(ToCompute(p[i * comp]));
          const double im = comp == 2 ? static_cast<double>(ToCompute(p[i * comp + 1])) : 0.0;
          out[i] = Complex(re, im);
        }
        return ge::OkStatus();
      },
      "signal input"));
  return out;
}

ge::Status WriteComplex(const std::vector<Complex>& v, gert::Tensor* t) {
  return DispatchType<kTgAllFloat>(
      t->GetDataType(),
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* p = t->GetData<T>();
        for (size_t i = 0; i < v.size(); ++i) {
          p[2 * i] = ConvertElement<T>(v[i].real());
          p[2 * i + 1] = ConvertElement<T>(v[i].imag());
        }
        return ge::OkStatus();
      },
      "signal output");
}

ge::TensorType SignalFloatTypes() { return ge::TensorType::FloatingDataType(); }
ge::TensorType IndexTypes() { return ge::TensorType{ge::DT_INT32, ge::DT_INT64}; }
// Output types of the window / mel ops (T2 / T3 in ONNX).
ge::TensorType WindowOutputTypes() {
  return ge::TensorType{ge::DT_UINT8,   ge::DT_UINT16, ge::DT_UINT32, ge::DT_UINT64,
                        ge::DT_INT8,    ge::DT_INT16,  ge::DT_INT32,  ge::DT_INT64,
                        ge::DT_FLOAT16, ge::DT_FLOAT,  ge::DT_DOUBLE, ge::DT_BF16};
}

// ------------------------------------------------------------ DFT

struct DftAttrs {
  int64_t axis = 1;
  bool inverse = false;
  bool onesided = false;
};

ge::StatusOr<DftAttrs> ReadDftAttrs(const gert::ContextBase& ctx) {
  DftAttrs a;
  ASSIGN_OR_RETURN(a.axis, ctx.GetIntOr("axis", 1));
  ASSIGN_OR_RETURN(int64_t inv, ctx.GetIntOr("inverse", 0));
  ASSIGN_OR_RETURN(int64_t one, ctx.GetIntOr("onesided", 0));
  if ((inv != 0 && inv != 1) || (one != 0 && one != 1)) {
    return ctx.Error("attributes inverse and onesided must be 0 or 1, got ", inv, " and ", one);
  }
  a.inverse = inv == 1;
  a.onesided = one == 1;
  return a;
}

// The signal axis for rank r: [-r, -2] or [0, r-2].
ge::StatusOr<int64_t> DftAxis(const gert::ContextBase& ctx, int64_t axis, int64_t rank) {
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a > rank - 2) {
    return ctx.ErrorWithCode(ge::ErrorCode::kOutOfRange, "axis ", axis, " is out of range [-", rank,
                             ", -2] or [0, ", rank - 2, "] for input rank ", rank);
  }
  return a;
}

ge::Status InferDft(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(DftAttrs a, ReadDftAttrs(ctx));
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 is required");
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 is missing");
  if (ctx.GetInputShape(1) != nullptr) RETURN_IF_ERROR(CheckScalarShape(ctx, 1, "dft_length"));
  if (x->IsUnknownRank()) {
    *y = gert::Shape{ge::UNKNOWN_RANK};
    return ge::OkStatus();
  }
  const int64_t rank = static_cast<int64_t>(x->GetDimNum());
  if (rank < 3) {
    return ctx.Error("input 0 must have rank >= 3 ([batch, n1, ..., 1|2]), got ", x->ToString());
  }
  const int64_t comp = x->GetDim(rank - 1);
  if (comp >= 0 && comp != 1 && comp != 2) {
    return ctx.Error("input 0 has shape ", x->ToString(),
                     ": the last dim must be 1 (real) or 2 (complex)");
  }
  if (a.onesided && comp == 2) {
    return ctx.Error("onesided = 1 needs a real input (last dim 1), got ", x->ToString());
  }
  ASSIGN_OR_RETURN(int64_t axis, DftAxis(ctx, a.axis, rank));
  int64_t n = x->GetDim(axis);
  if (ctx.GetInputShape(1) != nullptr) {
    ASSIGN_OR_RETURN(KnownInt len, ScalarIntValue(ctx, 1, "dft_length"));
    n = len.known ? len.value : -1;
    if (len.known && len.value <= 0) {
      return ctx.Error("input 1 (dft_length) must be positive, got ", len.value);
    }
  }
  if (n == 0) return ctx.Error("input 0 has shape ", x->ToString(), ": axis ", axis, " is empty");
  *y = *x;
  y->SetDim(axis, n < 0 ? -1 : (a.onesided ? n / 2 + 1 : n));
  y->SetDim(rank - 1, 2);
  return ge::OkStatus();
}

ge::Status VerifyDft(gert::InferShapeContext& ctx) {
  if (ctx.GetInputShape(1) != nullptr && !IndexTypes().Contains(ctx.GetInputDataType(1))) {
    return ctx.Error("input 1 (dft_length) must be DT_INT32 or DT_INT64, got ",
                     DataTypeName(ctx.GetInputDataType(1)));
  }
  return ge::OkStatus();
}

ge::Status DftKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(DftAttrs a, ReadDftAttrs(ctx));
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const gert::Shape& xs = x->GetShape();
  const int64_t rank = static_cast<int64_t>(xs.GetDimNum());
  if (rank < 3) return ctx.Error("input 0 must have rank >= 3, got ", xs.ToString());
  const int64_t comp = xs.GetDim(rank - 1);
  if (comp != 1 && comp != 2) {
    return ctx.Error("input 0 has shape ", xs.ToString(), ": the last dim must be 1 or 2");
  }
  if (a.onesided && comp == 2) {
    return ctx.Error("onesided = 1 needs a real input (last dim 1), got ", xs.ToString());
  }
  ASSIGN_OR_RETURN(int64_t axis, DftAxis(ctx, a.axis, rank));
  const int64_t n_in = xs.GetDim(axis);
  int64_t n = n_in;
  if (ctx.GetInputTensor(1) != nullptr) {
    ASSIGN_OR_RETURN(n, KernelScalarInt(ctx, 1, "dft_length"));
    if (n <= 0) return ctx.Error("input 1 (dft_length) must be positive, got ", n);
  }
  if (n == 0) return ctx.Error("input 0 has shape ", xs.ToString(), ": axis ", axis, " is empty");
  const int64_t n_out = a.onesided ? n / 2 + 1 : n;
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < axis; ++i) outer *= xs.GetDim(i);
  for (int64_t i = axis + 1; i < rank - 1; ++i) inner *= xs.GetDim(i);
  gert::Shape ys = xs;
  ys.SetDim(axis, n_out);
  ys.SetDim(rank - 1, 2);
  // The output first: its allocation bounds the work buffers below.
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ys, x->GetDataType()));
  if (outer * inner == 0) return ge::OkStatus();
  ge::StatusOr<std::vector<Complex>> in = ReadComplex(*x);
  if (!in.ok()) return WithNode(ctx, in.status());
  std::vector<Complex> out(static_cast<size_t>(outer * n_out * inner));
  DftPlan plan(n, a.inverse);
  std::vector<Complex> line(static_cast<size_t>(n)), res(static_cast<size_t>(n_out));
  const int64_t copy = std::min(n, n_in);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const Complex* src = in->data() + o * n_in * inner + i;
      for (int64_t k = 0; k < copy; ++k) line[k] = src[k * inner];
      std::fill(line.begin() + copy, line.end(), Complex(0));
      plan.Run(line.data(), res.data(), n_out);
      Complex* dst = out.data() + o * n_out * inner + i;
      for (int64_t f = 0; f < n_out; ++f) dst[f * inner] = res[f];
    }
  }
  return WithNode(ctx, WriteComplex(out, y));
}

// ------------------------------------------------------------ STFT

constexpr size_t kSignal = 0, kFrameStep = 1, kWindow = 2, kFrameLength = 3;

ge::StatusOr<bool> ReadOnesided(const gert::ContextBase& ctx) {
  ASSIGN_OR_RETURN(int64_t one, ctx.GetIntOr("onesided", 1));
  if (one != 0 && one != 1) return ctx.Error("attribute onesided must be 0 or 1, got ", one);
  return one == 1;
}

ge::Status InferStft(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(bool onesided, ReadOnesided(ctx));
  const gert::Shape* sig = ctx.GetInputShape(kSignal);
  if (sig == nullptr || ctx.GetInputShape(kFrameStep) == nullptr) {
    return ctx.Error("inputs 0 (signal) and 1 (frame_step) are required");
  }
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 is missing");
  RETURN_IF_ERROR(CheckScalarShape(ctx, kFrameStep, "frame_step"));
  int64_t batch = -1, length = -1;
  if (!sig->IsUnknownRank()) {
    if (sig->GetDimNum() != 3) {
      return ctx.Error("input 0 (signal) must be [batch, length, 1|2], got ", sig->ToString());
    }
    const int64_t comp = sig->GetDim(2);
    if (comp >= 0 && comp != 1 && comp != 2) {
      return ctx.Error("input 0 (signal) has shape ", sig->ToString(),
                       ": the last dim must be 1 (real) or 2 (complex)");
    }
    if (onesided && comp == 2) {
      return ctx.Error("onesided = 1 needs a real signal (last dim 1), got ", sig->ToString());
    }
    batch = sig->GetDim(0);
    length = sig->GetDim(1);
  }
  const gert::Shape* win = ctx.GetInputShape(kWindow);
  const bool has_fl = ctx.GetInputShape(kFrameLength) != nullptr;
  if (win == nullptr && !has_fl) {
    return ctx.Error("needs input 2 (window) or input 3 (frame_length)");
  }
  int64_t frame_length = -1;
  if (win != nullptr && !win->IsUnknownRank()) {
    if (win->GetDimNum() != 1)
      return ctx.Error("input 2 (window) must be 1-D, got ", win->ToString());
    frame_length = win->GetDim(0);
  }
  if (has_fl) {
    RETURN_IF_ERROR(CheckScalarShape(ctx, kFrameLength, "frame_length"));
    ASSIGN_OR_RETURN(KnownInt fl, ScalarIntValue(ctx, kFrameLength, "frame_length"));
    if (fl.known) {
      if (fl.value <= 0)
        return ctx.Error("input 3 (frame_length) must be positive, got ", fl.value);
      if (frame_length >= 0 && frame_length != fl.value) {
        return ctx.Error("input 3 (frame_length) is ", fl.value, " but input 2 (window) has ",
                         frame_length, " elements");
      }
      frame_length = fl.value;
    }
  }
  ASSIGN_OR_RETURN(KnownInt step, ScalarIntValue(ctx, kFrameStep, "frame_step"));
  if (step.known && step.value <= 0) {
    return ctx.Error("input 1 (frame_step) must be positive, got ", step.value);
  }
  int64_t frames = -1;
  if (length >= 0 && frame_length >= 0) {
    if (frame_length > length) {
      return ctx.Error("frame length ", frame_length, " exceeds the signal length ", length);
    }
    if (step.known) frames = (length - frame_length) / step.value + 1;
  }
  const int64_t bins = frame_length < 0 ? -1 : (onesided ? frame_length / 2 + 1 : frame_length);
  *y = gert::Shape{batch, frames, bins, 2};
  return ge::OkStatus();
}

ge::Status VerifyStft(gert::InferShapeContext& ctx) {
  const ge::DataType sig = ctx.GetInputDataType(kSignal);
  if (ctx.GetInputShape(kWindow) != nullptr && ctx.GetInputDataType(kWindow) != sig) {
    return ctx.Error("input 2 (window) is ", DataTypeName(ctx.GetInputDataType(kWindow)),
                     " but input 0 (signal) is ", DataTypeName(sig));
  }
  for (size_t i : {kFrameStep, kFrameLength}) {
    if (ctx.GetInputShape(i) != nullptr && !IndexTypes().Contains(ctx.GetInputDataType(i))) {
      return ctx.Error("input ", i, " must be DT_INT32 or DT_INT64, got ",
                       DataTypeName(ctx.GetInputDataType(i)));
    }
  }
  return ge::OkStatus();
}

ge::Status StftKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(bool onesided, ReadOnesided(ctx));
  ASSIGN_OR_RETURN(const gert::Tensor* sig, GetKernelInput(ctx, kSignal));
  const gert::Shape& ss = sig->GetShape();
  if (ss.GetDimNum() != 3 || (ss.GetDim(2) != 1 && ss.GetDim(2) != 2)) {
    return ctx.Error("input 0 (signal) must be [batch, length, 1|2], got ", ss.ToString());
  }
  if (onesided && ss.GetDim(2) == 2) {
    return ctx.Error("onesided = 1 needs a real signal (last dim 1), got ", ss.ToString());
  }
  ASSIGN_OR_RETURN(int64_t step, KernelScalarInt(ctx, kFrameStep, "frame_step"));
  if (step <= 0) return ctx.Error("input 1 (frame_step) must be positive, got ", step);
  std::vector<double> window;
  int64_t frame_length = -1;
  if (ctx.GetInputTensor(kWindow) != nullptr) {
    ASSIGN_OR_RETURN(const gert::Tensor* w, GetKernelInput(ctx, kWindow));
    if (w->GetShape().GetDimNum() != 1) {
      return ctx.Error("input 2 (window) must be 1-D, got ", w->GetShape().ToString());
    }
    ge::StatusOr<std::vector<double>> wv = ReadAsDoubles(*w);
    if (!wv.ok()) return WithNode(ctx, wv.status());
    window = *std::move(wv);
    frame_length = static_cast<int64_t>(window.size());
  }
  if (ctx.GetInputTensor(kFrameLength) != nullptr) {
    ASSIGN_OR_RETURN(int64_t fl, KernelScalarInt(ctx, kFrameLength, "frame_length"));
    if (frame_length >= 0 && fl != frame_length) {
      return ctx.Error("input 3 (frame_length) is ", fl, " but input 2 (window) has ", frame_length,
                       " elements");
    }
    frame_length = fl;
  }
  if (frame_length < 0) return ctx.Error("needs input 2 (window) or input 3 (frame_length)");
  if (frame_length == 0) return ctx.Error("the frame length must be positive");
  const int64_t batch = ss.GetDim(0), length = ss.GetDim(1);
  if (frame_length > length) {
    return ctx.Error("frame length ", frame_length, " exceeds the signal length ", length);
  }
  const int64_t frames = (length - frame_length) / step + 1;
  const int64_t bins = onesided ? frame_length / 2 + 1 : frame_length;
  ASSIGN_OR_RETURN(gert::Tensor * y,
                   PrepareOutput(ctx, 0, {batch, frames, bins, 2}, sig->GetDataType()));
  if (batch == 0) return ge::OkStatus();
  ge::StatusOr<std::vector<Complex>> in = ReadComplex(*sig);
  if (!in.ok()) return WithNode(ctx, in.status());
  std::vector<Complex> out(static_cast<size_t>(batch * frames * bins));
  DftPlan plan(frame_length, false);
  std::vector<Complex> frame(static_cast<size_t>(frame_length));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t f = 0; f < frames; ++f) {
      const Complex* src = in->data() + b * length + f * step;
      for (int64_t k = 0; k < frame_length; ++k) {
        frame[k] = window.empty() ? src[k] : src[k] * window[k];
      }
      plan.Run(frame.data(), out.data() + (b * frames + f) * bins, bins);
    }
  }
  return WithNode(ctx, WriteComplex(out, y));
}

// ------------------------------------------------------------ windows

ge::StatusOr<ge::DataType> OutputDatatype(const gert::ContextBase& ctx) {
  ge::DataType dt = ge::DT_FLOAT;
  if (ctx.HasAttr("output_datatype")) {
    ASSIGN_OR_RETURN(dt, ctx.GetDataType("output_datatype"));
  }
  if (!WindowOutputTypes().Contains(dt)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "output_datatype ", DataTypeName(dt),
                             " is not supported");
  }
  return dt;
}

ge::Status InferOutputDatatype(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(ge::DataType dt, OutputDatatype(ctx));
  ctx.SetOutputDataType(0, dt);
  return ge::OkStatus();
}

ge::Status InferWindow(gert::InferShapeContext& ctx) {
  if (ctx.GetInputShape(0) == nullptr) return ctx.Error("input 0 (size) is required");
  RETURN_IF_ERROR(CheckScalarShape(ctx, 0, "size"));
  ASSIGN_OR_RETURN(KnownInt size, ScalarIntValue(ctx, 0, "size"));
  if (size.known && size.value < 0)
    return ctx.Error("input 0 (size) must be >= 0, got ", size.value);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 is missing");
  *y = gert::Shape{size.known ? size.value : -1};
  return ge::OkStatus();
}

ge::Status VerifyIndexInput0(gert::InferShapeContext& ctx) {
  if (!IndexTypes().Contains(ctx.GetInputDataType(0))) {
    return ctx.Error("input 0 must be DT_INT32 or DT_INT64, got ",
                     DataTypeName(ctx.GetInputDataType(0)));
  }
  return ge::OkStatus();
}

// Writes values (computed in double) into y as its dtype.
ge::Status WriteReal(gert::KernelContext& ctx, const std::vector<double>& v, gert::Tensor* y) {
  return WithNode(ctx, DispatchType<kTgReal>(
                           y->GetDataType(),
                           [&](auto tag) {
                             using T = typename decltype(tag)::type;
                             T* p = y->GetData<T>();
                             for (size_t i = 0; i < v.size(); ++i) p[i] = ConvertElement<T>(v[i]);
                             return ge::OkStatus();
                           },
                           "output_datatype"));
}

// Cosine-sum window a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N).
ge::Status WindowKernel(gert::KernelContext& ctx, double a0, double a1, double a2) {
  ASSIGN_OR_RETURN(ge::DataType dt, OutputDatatype(ctx));
  ASSIGN_OR_RETURN(int64_t periodic, ctx.GetIntOr("periodic", 1));
  ASSIGN_OR_RETURN(int64_t size, KernelScalarInt(ctx, 0, "size"));
  if (size < 0) return ctx.Error("input 0 (size) must be >= 0, got ", size);
  const int64_t denom = periodic != 0 ? size : size - 1;
  // The output first: its allocation bounds the buffer below.
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, gert::Shape{size}, dt));
  std::vector<double> v(static_cast<size_t>(size));
  for (int64_t i = 0; i < size; ++i) {
    if (denom == 0) {
      v[i] = 1.0;  // symmetric window of size 1
      continue;
    }
    const double x = 2.0 * kPi * static_cast<double>(i) / static_cast<double>(denom);
    v[i] = a0 - a1 * std::cos(x) + a2 * std::cos(2.0 * x);
  }
  return WriteReal(ctx, v, y);
}

ge::Status HannKernel(gert::KernelContext& ctx) { return WindowKernel(ctx, 0.5, 0.5, 0.0); }
ge::Status HammingKernel(gert::KernelContext& ctx) {
  return WindowKernel(ctx, 25.0 / 46.0, 21.0 / 46.0, 0.0);
}
ge::Status BlackmanKernel(gert::KernelContext& ctx) { return WindowKernel(ctx, 0.42, 0.5, 0.08); }

// ------------------------------------------------------------ MelWeightMatrix

ge::Status InferMel(gert::InferShapeContext& ctx) {
  for (size_t i = 0; i < 5; ++i) {
    if (ctx.GetInputShape(i) == nullptr) return ctx.Error("all 5 inputs are required");
  }
  static const char* const kNames[] = {"num_mel_bins", "dft_length", "sample_rate",
                                       "lower_edge_hertz", "upper_edge_hertz"};
  for (size_t i = 0; i < 5; ++i) RETURN_IF_ERROR(CheckScalarShape(ctx, i, kNames[i]));
  ASSIGN_OR_RETURN(KnownInt mel, ScalarIntValue(ctx, 0, "num_mel_bins"));
  ASSIGN_OR_RETURN(KnownInt dft, ScalarIntValue(ctx, 1, "dft_length"));
  if (mel.known && mel.value <= 0)
    return ctx.Error("input 0 (num_mel_bins) must be positive, got ", mel.value);
  if (dft.known && dft.value <= 0)
    return ctx.Error("input 1 (dft_length) must be positive, got ", dft.value);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 is missing");
  *y = gert::Shape{dft.known ? dft.value / 2 + 1 : -1, mel.known ? mel.value : -1};
  return ge::OkStatus();
}

ge::Status VerifyMel(gert::InferShapeContext& ctx) {
  for (size_t i = 0; i < 3; ++i) {
    if (!IndexTypes().Contains(ctx.GetInputDataType(i))) {
      return ctx.Error("input ", i, " must be DT_INT32 or DT_INT64, got ",
                       DataTypeName(ctx.GetInputDataType(i)));
    }
  }
  for (size_t i = 3; i < 5; ++i) {
    if (!SignalFloatTypes().Contains(ctx.GetInputDataType(i))) {
      return ctx.Error("input ", i, " must be a float type, got ",
                       DataTypeName(ctx.GetInputDataType(i)));
    }
  }
  return ge::OkStatus();
}

ge::Status MelKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(ge::DataType dt, OutputDatatype(ctx));
  ASSIGN_OR_RETURN(int64_t mel_bins, KernelScalarInt(ctx, 0, "num_mel_bins"));
  ASSIGN_OR_RETURN(int64_t dft_length, KernelScalarInt(ctx, 1, "dft_length"));
  ASSIGN_OR_RETURN(int64_t sample_rate, KernelScalarInt(ctx, 2, "sample_rate"));
  ASSIGN_OR_RETURN(double lower, KernelScalarFloat(ctx, 3, "lower_edge_hertz"));
  ASSIGN_OR_RETURN(double upper, KernelScalarFloat(ctx, 4, "upper_edge_hertz"));
  if (mel_bins <= 0) return ctx.Error("input 0 (num_mel_bins) must be positive, got ", mel_bins);
  if (dft_length <= 0) return ctx.Error("input 1 (dft_length) must be positive, got ", dft_length);
  if (sample_rate <= 0)
    return ctx.Error("input 2 (sample_rate) must be positive, got ", sample_rate);
  if (!(lower >= 0) || !(upper > lower) || !std::isfinite(upper)) {
    return ctx.Error("need 0 <= lower_edge_hertz < upper_edge_hertz (finite), got ", lower, " and ",
                     upper);
  }
  const int64_t spec_bins = dft_length / 2 + 1;
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, gert::Shape{spec_bins, mel_bins}, dt));
  const double low_mel = 2595.0 * std::log10(1.0 + lower / 700.0);
  const double high_mel = 2595.0 * std::log10(1.0 + upper / 700.0);
  const double mel_step = (high_mel - low_mel) / static_cast<double>(mel_bins + 2);
  std::vector<int64_t> bins(static_cast<size_t>(mel_bins + 2));
  for (int64_t i = 0; i < mel_bins + 2; ++i) {
    const double m = static_cast<double>(i) * mel_step + low_mel;
    const double hz = 700.0 * (std::pow(10.0, m / 2595.0) - 1.0);
    const double bin =
        std::floor(static_cast<double>(dft_length + 1) * hz / static_cast<double>(sample_rate));
    if (!(bin >= 0 && bin < static_cast<double>(spec_bins))) {  // also NaN
      return ctx.Error("mel point ", i, " (", hz, " Hz) maps to spectrogram bin ", bin,
                       ", outside [0, ", spec_bins,
                       "); is upper_edge_hertz above sample_rate / 2?");
    }
    bins[i] = static_cast<int64_t>(bin);
  }
  std::vector<double> out(static_cast<size_t>(spec_bins * mel_bins), 0.0);
  for (int64_t i = 0; i < mel_bins; ++i) {
    const int64_t lo = bins[i], center = bins[i + 1], hi = bins[i + 2];
    const int64_t low_to_center = center - lo;
    if (low_to_center == 0) {
      out[center * mel_bins + i] = 1.0;
    } else {
      for (int64_t j = lo; j <= center; ++j) {
        out[j * mel_bins + i] = static_cast<double>(j - lo) / static_cast<double>(low_to_center);
      }
    }
    const int64_t center_to_high = hi - center;
    for (int64_t j = center; center_to_high > 0 && j < hi; ++j) {
      out[j * mel_bins + i] = static_cast<double>(hi - j) / static_cast<double>(center_to_high);
    }
  }
  return WriteReal(ctx, out, y);
}

ge::AttrValue AttrInt(int64_t v) { return ge::AttrValue::CreateFrom<int64_t>(v); }
ge::AttrValue AttrDt(ge::DataType dt) { return ge::AttrValue::CreateFrom<ge::DataType>(dt); }

}  // namespace

REG_OP(DFT)
    .Input("input", SignalFloatTypes())
    .OptionalInput("dft_length", IndexTypes())
    .Output("output", SignalFloatTypes())
    .Attr("axis", AttrInt(1))
    .Attr("inverse", AttrInt(0))
    .Attr("onesided", AttrInt(0))
    .InferShape(InferDft)
    .Verify(VerifyDft)
    .ValueDependentInput("dft_length");
REG_KERNEL(DFT, ge::kEngineHostCpu).Fn(DftKernel);

REG_OP(STFT)
    .Input("signal", SignalFloatTypes())
    .Input("frame_step", IndexTypes())
    .OptionalInput("window", SignalFloatTypes())
    .OptionalInput("frame_length", IndexTypes())
    .Output("output", SignalFloatTypes())
    .Attr("onesided", AttrInt(1))
    .InferShape(InferStft)
    .Verify(VerifyStft)
    .ValueDependentInput("frame_step")
    .ValueDependentInput("frame_length");
REG_KERNEL(STFT, ge::kEngineHostCpu).Fn(StftKernel);

REG_OP(BlackmanWindow)
    .Input("size", IndexTypes())
    .Output("output", WindowOutputTypes())
    .Attr("output_datatype", AttrDt(ge::DT_FLOAT))
    .Attr("periodic", AttrInt(1))
    .InferShape(InferWindow)
    .InferDataType(InferOutputDatatype)
    .Verify(VerifyIndexInput0)
    .ValueDependentInput("size");
REG_KERNEL(BlackmanWindow, ge::kEngineHostCpu).Fn(BlackmanKernel);

REG_OP(HammingWindow)
    .Input("size", IndexTypes())
    .Output("output", WindowOutputTypes())
    .Attr("output_datatype", AttrDt(ge::DT_FLOAT))
    .Attr("periodic", AttrInt(1))
    .InferShape(InferWindow)
    .InferDataType(InferOutputDatatype)
    .Verify(VerifyIndexInput0)
    .ValueDependentInput("size");
REG_KERNEL(HammingWindow, ge::kEngineHostCpu).Fn(HammingKernel);

REG_OP(HannWindow)
    .Input("size", IndexTypes())
    .Output("output", WindowOutputTypes())
    .Attr("output_datatype", AttrDt(ge::DT_FLOAT))
    .Attr("periodic", AttrInt(1))
    .InferShape(InferWindow)
    .InferDataType(InferOutputDatatype)
    .Verify(VerifyIndexInput0)
    .ValueDependentInput("size");
REG_KERNEL(HannWindow, ge::kEngineHostCpu).Fn(HannKernel);

REG_OP(MelWeightMatrix)
    .Input("num_mel_bins", IndexTypes())
    .Input("dft_length", IndexTypes())
    .Input("sample_rate", IndexTypes())
    .Input("lower_edge_hertz", SignalFloatTypes())
    .Input("upper_edge_hertz", SignalFloatTypes())
    .Output("output", WindowOutputTypes())
    .Attr("output_datatype", AttrDt(ge::DT_FLOAT))
    .InferShape(InferMel)
    .InferDataType(InferOutputDatatype)
    .Verify(VerifyMel)
    .ValueDependentInput("num_mel_bins")
    .ValueDependentInput("dft_length");
REG_KERNEL(MelWeightMatrix, ge::kEngineHostCpu).Fn(MelKernel);

}  // namespace ops
