// ops/compute/norm/norm_kernels.cc
//
// BatchNormalization (inference) and LayerNormalization on the compute
// engine.
//
// BatchNormalization, training_mode 0: Y = (X - mean) * (scale /
// sqrt(var + eps)) + B per channel (dim 1) of X of any rank >= 2, with the
// host kernel's arithmetic, over (batch, channel) planes on the OpenMP pool.
// Not oneDNN: its batch_normalization on plain layouts (ncsp_bnorm) and a
// binary sub / mul / add chain (jit:uni) took 9x and 7x the time of this
// loop on [1, 64, 56, 56] (one thread; 190 / 150 vs 20 us). The optional
// running_mean / running_var outputs are, in inference mode, copies of
// input_mean / input_var (as the host kernel writes them).
//
// LayerNormalization (oneDNN layer_normalization) normalises over the dims
// [axis, rank), which are the trailing ones and contiguous: X is viewed as
// [prod(dims before axis), prod(dims from axis)] and oneDNN normalises over
// that last dim, so every axis is taken. Scale and B broadcast to the
// normalised dims (expanded to one value per normalised element). The
// optional outputs Mean and InvStdDev (stash_type 1: float) come from
// oneDNN's forward_training statistics (mean and biased variance;
// InvStdDev = 1 / sqrt(var + eps)), computed only when a Run asks for one
// of them.
//
// Parameters (scale, B, mean, var) are used as f32 vectors: a constant one
// is converted (and expanded) once at Prepare, a float input of the right
// size is read as is, any other (bf16, or broadcast) is converted at Run
// into the workspace (behind the primitive's scratchpad for LayerNorm).
// X and Y are fp32 or bf16 (computed in f32).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "absl/types/span.h"
#include "dnnl.hpp"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "ops/common/op_util.h"
#include "ops/compute/common/dnnl_common.h"

namespace ops {
namespace compute {
namespace {

using dims_t = dnnl::memory::dims;
using dnnl_dt = dnnl::memory::data_type;

size_t Align64(size_t n) { return (n + 63) / 64 * 64; }

gert::ContextBase AttrContext(const ge::OpDesc& op) {
  gert::ContextBase c;
  c.SetNode(op.GetName(), op.GetType());
  c.SetAttrHolder(&op);
  return c;
}

ge::Status AsNotSupported(const ge::Status& st) {
  if (st.ok() || ge::GetErrorCode(st) == ge::ErrorCode::kNotSupported) return st;
  return ge::NotSupported(st.message());
}

ge::Status CheckPositive(absl::Span<const int64_t> dims, const char* what) {
  for (int64_t d : dims) {
    if (d <= 0) {
      return ge::NotSupported(what, " has dim ", d,
                              "; the kernel takes known, non-empty shapes only");
    }
  }
  return ge::OkStatus();
}

const ge::GeTensorDesc* PresentInput(const ge::OpDesc& op, uint32_t i) {
  const ge::GeTensorDesc* d = op.GetInputDescBarePtr(i);
  return d == nullptr || d->GetDataType() == ge::DT_UNDEFINED ? nullptr : d;
}

// ---------------------------------------------------------------- parameters

// A parameter vector of `count` f32 values oneDNN reads: from a tensor of
// shape `shape` broadcast to `dims` (aligned to the right).
class ParamVector {
 public:
  enum class Source { kPrepared, kInput, kStaged };

  // `t`: the input's static facts (data set when constant); `staged_at`:
  // where a staged copy goes in the workspace (advanced by its size).
  ge::Status Prepare(const gert::Tensor& t, int input, absl::Span<const int64_t> dims,
                     size_t* staged_at) {
    input_ = input;
    dtype_ = t.GetDataType();
    rank_ = dims.size();
    count_ = 1;
    for (size_t d = 0; d < rank_; ++d) {
      dims_[d] = dims[d];
      count_ *= dims[d];
    }
    const gert::Shape& s = t.GetShape();
    if (s.GetDimNum() > rank_) return ge::NotSupported("a parameter has more dims than it spans");
    int64_t acc = 1;
    for (size_t j = 0; j < s.GetDimNum(); ++j) {
      const size_t d = rank_ - 1 - j;
      const int64_t sd = s.GetDim(s.GetDimNum() - 1 - j);
      strides_[d] = sd == 1 ? 0 : acc;
      acc *= sd;
    }
    if (t.GetAddr() != nullptr) {
      source_ = Source::kPrepared;
      ASSIGN_OR_RETURN(prepared_, AlignedBuffer::Allocate(static_cast<size_t>(count_) * 4));
      Fill(t.GetAddr(), static_cast<float*>(prepared_.data()));
    } else if (dtype_ == ge::DT_FLOAT && t.GetShapeSize() == count_) {
      source_ = Source::kInput;
    } else {
      source_ = Source::kStaged;
      staged_offset_ = *staged_at;
      *staged_at += Align64(static_cast<size_t>(count_) * 4);
    }
    return ge::OkStatus();
  }

  // The buffer bound at Prepare (null unless kPrepared).
  const void* fixed() const { return source_ == Source::kPrepared ? prepared_.data() : nullptr; }

  // The handle for a Run (null when bound at Prepare); converts a staged
  // parameter into `staging` (the workspace behind the scratchpad).
  const void* Handle(const gert::KernelContext& ctx, uint8_t* staging) const {
    if (source_ == Source::kPrepared) return nullptr;
    const gert::Tensor* t = ctx.GetInputTensor(static_cast<size_t>(input_));
    if (t == nullptr || t->GetAddr() == nullptr) return nullptr;
    if (source_ == Source::kInput) return t->GetAddr();
    float* out = reinterpret_cast<float*>(staging + staged_offset_);
    Fill(t->GetAddr(), out);
    return out;
  }

  bool bound() const { return source_ == Source::kPrepared; }

 private:
  void Fill(const void* src, float* out) const {
    std::array<int64_t, gert::kMaxDimNum> pos{};
    int64_t off = 0;
    for (int64_t i = 0; i < count_; ++i) {
      out[i] = ElementAsFloat(src, dtype_, off);
      for (size_t d = rank_; d-- > 0;) {
        off += strides_[d];
        if (++pos[d] < dims_[d]) break;
        off -= strides_[d] * dims_[d];
        pos[d] = 0;
      }
    }
  }

  Source source_ = Source::kInput;
  int input_ = 0;
  ge::DataType dtype_ = ge::DT_FLOAT;
  AlignedBuffer prepared_;
  size_t staged_offset_ = 0;
  size_t rank_ = 0;
  int64_t count_ = 0;
  std::array<int64_t, gert::kMaxDimNum> dims_{};
  std::array<int64_t, gert::kMaxDimNum> strides_{};
};

// The workspace's staging area: behind the scratchpad.
uint8_t* Staging(const gert::KernelContext& ctx, size_t scratch_bytes) {
  absl::Span<void* const> ws = ctx.GetWorkspaces();
  if (ws.empty() || ws[0] == nullptr) return nullptr;
  return static_cast<uint8_t*>(ws[0]) + Align64(scratch_bytes);
}

// ---------------------------------------------------------------- BatchNormalization

// Y = (X - mean[c]) * inv[c] + B[c] on planes [begin, end) of `spatial`
// elements (plane p is channel p % channels), the host kernel's arithmetic.
struct BatchNormPlanes {
  const void* x;
  void* y;
  const float *mean, *inv, *shift;
  int64_t channels, spatial;
};

template <typename T>
void BatchNormRows(const BatchNormPlanes& b, int64_t begin, int64_t end) {
  const T* x = static_cast<const T*>(b.x);
  T* y = static_cast<T*>(b.y);
  for (int64_t p = begin; p < end; ++p) {
    const int64_t c = p % b.channels;
    const float m = b.mean[c], inv = b.inv[c], shift = b.shift[c];
    const T* xp = x + p * b.spatial;
    T* yp = y + p * b.spatial;
    for (int64_t i = 0; i < b.spatial; ++i) {
      if constexpr (std::is_same<T, float>::value) {
        yp[i] = (xp[i] - m) * inv + shift;
      } else {
        yp[i] = FloatToBf16((Bf16ToFloat(xp[i]) - m) * inv + shift);
      }
    }
  }
}

class BatchNormKernel final : public ge::OpKernel {
 public:
  ge::Status Prepare(gert::TilingContext& ctx) override {
    const gert::Tensor* x = ctx.GetInputTensor(0);
    const gert::Tensor* y = ctx.GetOutputTensor(0);
    if (x == nullptr || y == nullptr) return ctx.Error("X and Y are required");
    ASSIGN_OR_RETURN(int64_t training, ctx.GetIntOr("training_mode", 0));
    if (training != 0) return ctx.Error("training_mode is not supported");
    ASSIGN_OR_RETURN(eps_, ctx.GetFloatOr("epsilon", 1e-5f));
    if (x->GetDataType() != ge::DT_FLOAT && x->GetDataType() != ge::DT_BF16) {
      return ctx.Error("X must be FLOAT or BF16");
    }
    if (y->GetDataType() != x->GetDataType()) return ctx.Error("Y must have X's data type");
    bf16_ = x->GetDataType() == ge::DT_BF16;
    const gert::Shape& xs = x->GetShape();
    if (xs.GetDimNum() < 2) return ctx.Error("X must have rank >= 2");
    channels_ = xs.GetDim(1);
    planes_ = xs.GetDim(0) * channels_;
    spatial_ = 1;
    for (size_t i = 2; i < xs.GetDimNum(); ++i) spatial_ *= xs.GetDim(i);
    size_t staged = 0;
    const int64_t cdims[1] = {channels_};
    for (int j = 0; j < 4; ++j) {
      const gert::Tensor* p = ctx.GetInputTensor(static_cast<size_t>(j + 1));
      if (p == nullptr) return ctx.Error("input ", j + 1, " is required");
      RETURN_IF_ERROR(params_[j].Prepare(*p, j + 1, cdims, &staged));
    }
    // inv = scale / sqrt(var + eps): once when scale and var are constant,
    // else per Run in the workspace.
    const size_t vec_bytes = static_cast<size_t>(channels_) * 4;
    if (params_[kScale].bound() && params_[kVar].bound()) {
      ASSIGN_OR_RETURN(inv_, AlignedBuffer::Allocate(vec_bytes));
      Invert(static_cast<const float*>(params_[kScale].fixed()),
             static_cast<const float*>(params_[kVar].fixed()), static_cast<float*>(inv_.data()));
    } else {
      inv_offset_ = staged;
      staged += Align64(vec_bytes);
    }
    if (staged > 0) RETURN_IF_ERROR(ctx.SetWorkspaceSize(0, staged));
    return ge::OkStatus();
  }

  ge::Status Run(gert::KernelContext& ctx) const override {
    const gert::Tensor* x = ctx.GetInputTensor(0);
    gert::Tensor* y = ctx.GetOutputTensor(0);
    if (x == nullptr || y == nullptr) return ctx.Error("X and Y are required");
    uint8_t* staging = Staging(ctx, 0);
    const float* p[4];
    for (int j = 0; j < 4; ++j) {
      p[j] = static_cast<const float*>(params_[j].bound() ? params_[j].fixed()
                                                          : params_[j].Handle(ctx, staging));
      if (p[j] == nullptr) return ctx.Error("input ", j + 1, " has no data");
    }
    const float* inv = static_cast<const float*>(inv_.data());
    if (inv == nullptr) {
      float* out = reinterpret_cast<float*>(staging + inv_offset_);
      Invert(p[kScale], p[kVar], out);
      inv = out;
    }
    const BatchNormPlanes b{x->GetAddr(), y->GetAddr(), p[kMean], inv,
                            p[kShift],    channels_,    spatial_};
    const int64_t grain = std::max<int64_t>(1, 16384 / spatial_);
    if (bf16_) {
      ParallelFor(planes_, grain,
                  [&b](int64_t begin, int64_t end) { BatchNormRows<uint16_t>(b, begin, end); });
    } else {
      ParallelFor(planes_, grain,
                  [&b](int64_t begin, int64_t end) { BatchNormRows<float>(b, begin, end); });
    }
    // running_mean / running_var: in inference mode the inputs' values.
    for (size_t o = 1; o < 3 && o < ctx.GetOutputNum(); ++o) {
      gert::Tensor* out = ctx.GetOutputTensor(o);
      const gert::Tensor* in = ctx.GetInputTensor(o + 2);
      if (out == nullptr || out->GetAddr() == nullptr || in == nullptr) continue;
      const size_t bytes =
          static_cast<size_t>(channels_) * (in->GetDataType() == ge::DT_BF16 ? 2 : 4);
      if (out->GetSize() < bytes || in->GetSize() < bytes) return ctx.Error("running stats size");
      std::memcpy(out->GetAddr(), in->GetAddr(), bytes);
    }
    return ge::OkStatus();
  }

 private:
  // Indices into params_ (inputs 1 to 4).
  static constexpr int kScale = 0, kShift = 1, kMean = 2, kVar = 3;

  void Invert(const float* scale, const float* var, float* inv) const {
    for (int64_t c = 0; c < channels_; ++c) inv[c] = scale[c] / std::sqrt(var[c] + eps_);
  }

  float eps_ = 1e-5f;
  bool bf16_ = false;
  int64_t channels_ = 0, planes_ = 0, spatial_ = 1;
  ParamVector params_[4];  // scale, B, input_mean, input_var as f32
  AlignedBuffer inv_;      // scale / sqrt(var + eps) when both are constant
  size_t inv_offset_ = 0;  // else its place in the workspace
};

ge::Status BatchNormSupports(const ge::OpDesc& op) {
  const ge::GeTensorDesc* x = PresentInput(op, 0);
  if (x == nullptr) return ge::NotSupported("BatchNormalization needs X");
  const ge::GeTensorDesc* y = op.GetOutputDescBarePtr(0);
  if (y == nullptr || y->GetDataType() != x->GetDataType()) {
    return ge::NotSupported("Y must have X's data type");
  }
  absl::Span<const int64_t> xd = x->GetShape().GetDimsSpan();
  if (xd.size() < 2) return ge::NotSupported("X must have rank >= 2, got ", xd.size());
  RETURN_IF_ERROR(CheckPositive(xd, "input 0 (X)"));
  for (uint32_t i = 1; i < 5; ++i) {
    const ge::GeTensorDesc* p = PresentInput(op, i);
    if (p == nullptr) return ge::NotSupported("input ", i, " is required");
    absl::Span<const int64_t> pd = p->GetShape().GetDimsSpan();
    if (pd.size() != 1 || pd[0] != xd[1]) {
      return ge::NotSupported("input ", i, " must be [C] = [", xd[1], "]");
    }
  }
  const gert::ContextBase attrs = AttrContext(op);
  ge::StatusOr<int64_t> training = attrs.GetIntOr("training_mode", 0);
  if (!training.ok()) return AsNotSupported(training.status());
  if (*training != 0) {
    return ge::NotSupported("training_mode 1 (batch statistics and running-stat updates)");
  }
  return AsNotSupported(attrs.GetFloatOr("epsilon", 1e-5f).status());
}

// ---------------------------------------------------------------- LayerNormalization

class DnnlLayerNorm final : public ge::OpKernel {
 public:
  ge::Status Prepare(gert::TilingContext& ctx) override {
    const gert::Tensor* x = ctx.GetInputTensor(0);
    const gert::Tensor* scale = PresentTensor(ctx.GetInputTensor(1));
    const gert::Tensor* bias = PresentTensor(ctx.GetInputTensor(2));
    const gert::Tensor* y = ctx.GetOutputTensor(0);
    if (x == nullptr || scale == nullptr || y == nullptr) {
      return ctx.Error("X, Scale and Y are required");
    }
    ASSIGN_OR_RETURN(int64_t stash, ctx.GetIntOr("stash_type", 1));
    if (stash != 1) return ctx.Error("stash_type ", stash, " is not supported");
    ASSIGN_OR_RETURN(eps_, ctx.GetFloatOr("epsilon", 1e-5f));
    ASSIGN_OR_RETURN(int64_t axis_attr, ctx.GetIntOr("axis", -1));
    const gert::Shape& xs = x->GetShape();
    ge::StatusOr<int64_t> axis = NormalizeAxis(axis_attr, static_cast<int64_t>(xs.GetDimNum()));
    if (!axis.ok()) return WithNode(ctx, axis.status());
    ASSIGN_OR_RETURN(dnnl_dt dt, DnnlType(x->GetDataType()));
    if (y->GetDataType() != x->GetDataType()) return ctx.Error("Y must have X's data type");
    int64_t rows = 1, cols = 1;
    std::array<int64_t, gert::kMaxDimNum> norm_dims{};
    const size_t norm_rank = xs.GetDimNum() - static_cast<size_t>(*axis);
    for (size_t i = 0; i < xs.GetDimNum(); ++i) {
      if (i < static_cast<size_t>(*axis)) {
        rows *= xs.GetDim(i);
      } else {
        norm_dims[i - static_cast<size_t>(*axis)] = xs.GetDim(i);
        cols *= xs.GetDim(i);
      }
    }
    rows_ = rows;
    has_shift_ = bias != nullptr;
    dnnl::memory::desc data, vec;
    dnnl::layer_normalization_forward::primitive_desc inf, train;
    RETURN_IF_ERROR(DnnlCall("layer normalization primitives", [&] {
      data = dnnl::memory::desc({rows, cols}, dt, dnnl::memory::format_tag::ab);
      vec = dnnl::memory::desc({cols}, dnnl_dt::f32, dnnl::memory::format_tag::a);
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      auto flags = dnnl::normalization_flags::use_scale;
      if (has_shift_) flags = flags | dnnl::normalization_flags::use_shift;
      inf = dnnl::layer_normalization_forward::primitive_desc(
          dnnl::layer_normalization_forward::desc(dnnl::prop_kind::forward_inference, data, eps_,
                                                  flags),
          attr, CpuEngine());
      train = dnnl::layer_normalization_forward::primitive_desc(
          dnnl::layer_normalization_forward::desc(dnnl::prop_kind::forward_training, data, eps_,
                                                  flags),
          attr, CpuEngine());
    }));
    RETURN_IF_ERROR(infer_.Init(dnnl::layer_normalization_forward(inf), inf.scratchpad_desc()));
    RETURN_IF_ERROR(train_.Init(dnnl::layer_normalization_forward(train), train.scratchpad_desc()));
    scratch_bytes_ = std::max(infer_.scratchpad_bytes(), train_.scratchpad_bytes());
    size_t staged = 0;
    const absl::Span<const int64_t> nd(norm_dims.data(), norm_rank);
    RETURN_IF_ERROR(params_[0].Prepare(*scale, 1, nd, &staged));
    if (has_shift_) RETURN_IF_ERROR(params_[1].Prepare(*bias, 2, nd, &staged));
    // Mean / variance of a Run that wants only one of them: the other here.
    stats_offset_ = staged;
    staged += 2 * Align64(static_cast<size_t>(rows) * 4);
    for (PreparedPrimitive* p : {&infer_, &train_}) {
      RETURN_IF_ERROR(p->AddArg(DNNL_ARG_SRC, data));
      RETURN_IF_ERROR(p->AddArg(DNNL_ARG_SCALE, vec, params_[0].fixed()));
      if (has_shift_) RETURN_IF_ERROR(p->AddArg(DNNL_ARG_SHIFT, vec, params_[1].fixed()));
      RETURN_IF_ERROR(p->AddArg(DNNL_ARG_DST, data));
    }
    RETURN_IF_ERROR(train_.AddArg(DNNL_ARG_MEAN, train.mean_desc()));
    RETURN_IF_ERROR(train_.AddArg(DNNL_ARG_VARIANCE, train.variance_desc()));
    return ctx.SetWorkspaceSize(0, Align64(scratch_bytes_) + staged);
  }

  ge::Status Run(gert::KernelContext& ctx) const override {
    const gert::Tensor* x = ctx.GetInputTensor(0);
    gert::Tensor* y = ctx.GetOutputTensor(0);
    if (x == nullptr || y == nullptr) return ctx.Error("X and Y are required");
    uint8_t* staging = Staging(ctx, scratch_bytes_);
    if (staging == nullptr) return ctx.Error("no workspace");
    const void* handles[6];
    size_t h = 0;
    handles[h++] = x->GetAddr();
    for (int j = 0; j < (has_shift_ ? 2 : 1); ++j) {
      if (params_[j].bound()) continue;
      const void* p = params_[j].Handle(ctx, staging);
      if (p == nullptr) return ctx.Error("input ", j + 1, " has no data");
      handles[h++] = p;
    }
    handles[h++] = y->GetAddr();
    gert::Tensor* mean = ctx.GetOutputNum() > 1 ? ctx.GetOutputTensor(1) : nullptr;
    gert::Tensor* inv = ctx.GetOutputNum() > 2 ? ctx.GetOutputTensor(2) : nullptr;
    if (mean != nullptr && mean->GetAddr() == nullptr) mean = nullptr;
    if (inv != nullptr && inv->GetAddr() == nullptr) inv = nullptr;
    if (mean == nullptr && inv == nullptr) {
      return WithNode(ctx, infer_.Execute(absl::MakeConstSpan(handles, h), ctx.GetWorkspaces()));
    }
    float* stats = reinterpret_cast<float*>(staging + stats_offset_);
    float* mean_p = mean != nullptr ? mean->GetData<float>() : stats;
    float* var_p = inv != nullptr ? inv->GetData<float>()
                                  : stats + Align64(static_cast<size_t>(rows_) * 4) / 4;
    handles[h++] = mean_p;
    handles[h++] = var_p;
    RETURN_IF_ERROR(
        WithNode(ctx, train_.Execute(absl::MakeConstSpan(handles, h), ctx.GetWorkspaces())));
    if (inv != nullptr) {
      for (int64_t r = 0; r < rows_; ++r) var_p[r] = 1.0f / std::sqrt(var_p[r] + eps_);
    }
    return ge::OkStatus();
  }

 private:
  PreparedPrimitive infer_, train_;  // without / with the statistics outputs
  size_t scratch_bytes_ = 0;
  size_t stats_offset_ = 0;
  int64_t rows_ = 0;
  float eps_ = 1e-5f;
  bool has_shift_ = false;
  ParamVector params_[2];  // Scale, B
};

ge::Status LayerNormSupports(const ge::OpDesc& op) {
  const ge::GeTensorDesc* x = PresentInput(op, 0);
  const ge::GeTensorDesc* scale = PresentInput(op, 1);
  if (x == nullptr || scale == nullptr) {
    return ge::NotSupported("LayerNormalization needs X and Scale");
  }
  const ge::GeTensorDesc* y = op.GetOutputDescBarePtr(0);
  if (y == nullptr || y->GetDataType() != x->GetDataType()) {
    return ge::NotSupported("Y must have X's data type");
  }
  absl::Span<const int64_t> xd = x->GetShape().GetDimsSpan();
  if (xd.empty()) return ge::NotSupported("X is a scalar");
  RETURN_IF_ERROR(CheckPositive(xd, "input 0 (X)"));
  RETURN_IF_ERROR(CheckPositive(scale->GetShape().GetDimsSpan(), "input 1 (Scale)"));
  const ge::GeTensorDesc* bias = PresentInput(op, 2);
  if (bias != nullptr)
    RETURN_IF_ERROR(CheckPositive(bias->GetShape().GetDimsSpan(), "input 2 (B)"));
  const gert::ContextBase attrs = AttrContext(op);
  ge::StatusOr<int64_t> stash = attrs.GetIntOr("stash_type", 1);
  if (!stash.ok()) return AsNotSupported(stash.status());
  if (*stash != 1) {
    return ge::NotSupported("stash_type ", *stash, ": only 1 (float statistics) is implemented");
  }
  ge::StatusOr<int64_t> axis = attrs.GetIntOr("axis", -1);
  if (!axis.ok()) return AsNotSupported(axis.status());
  RETURN_IF_ERROR(AsNotSupported(NormalizeAxis(*axis, static_cast<int64_t>(xd.size())).status()));
  for (uint32_t o = 1; o < 3 && o < op.GetOutputsSize(); ++o) {
    const ge::GeTensorDesc* d = op.GetOutputDescBarePtr(o);
    if (d != nullptr && d->GetDataType() != ge::DT_UNDEFINED && d->GetDataType() != ge::DT_FLOAT) {
      return ge::NotSupported("output ", o, " must be FLOAT (stash_type 1)");
    }
  }
  return AsNotSupported(attrs.GetFloatOr("epsilon", 1e-5f).status());
}

}  // namespace

REG_KERNEL(BatchNormalization, ge::kEngineAiCore)
    .Kernel<BatchNormKernel>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(BatchNormSupports);

REG_KERNEL(LayerNormalization, ge::kEngineAiCore)
    .Kernel<DnnlLayerNorm>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(LayerNormSupports);

}  // namespace compute
}  // namespace ops
