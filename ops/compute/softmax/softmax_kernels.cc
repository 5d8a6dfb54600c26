// ops/compute/softmax/softmax_kernels.cc
//
// Softmax and LogSoftmax (opset 13: along the single dim `axis`) on the
// compute engine. X is viewed as [outer, n, inner] with n the axis dim.
//   inner == 1 (the axis is the last dim of size > 1, or every later dim
//     is 1): oneDNN 2.6's softmax_v2 (softmax_accurate / softmax_log) on
//     [outer, n], its JIT kernel.
//   inner > 1: oneDNN has only its reference kernel there (about 50x slower
//     than a plain loop on [1, 21, 128 * 128]), so the kernel sweeps the
//     axis itself, on tiles of up to 64 adjacent columns (sequential rows)
//     spread over the OpenMP pool, with the host kernel's arithmetic.
// Both subtract the row max first (a row of -inf uses 0), so large inputs
// stay finite. fp32 and bf16 (computed in f32, rounded once).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
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

// ---------------------------------------------------------------- strided

constexpr int64_t kTile = 64;

struct StridedSoftmax {
  const void* x;
  void* y;
  int64_t n, inner, tiles_per_outer;
};

// Element access: float, or bf16 bits (uint16_t) computed in float.
inline float Load(const float* p, int64_t i) { return p[i]; }
inline float Load(const uint16_t* p, int64_t i) { return Bf16ToFloat(p[i]); }
inline void Store(float* p, int64_t i, float v) { p[i] = v; }
inline void Store(uint16_t* p, int64_t i, float v) { p[i] = FloatToBf16(v); }

// Tiles [begin, end): tile t covers columns [c0, c0 + w) of outer slice
// t / tiles_per_outer.
template <bool kLog, typename T>
void SoftmaxTiles(const StridedSoftmax& s, int64_t begin, int64_t end) {
  constexpr bool kF32 = std::is_same<T, float>::value;
  const T* x = static_cast<const T*>(s.x);
  T* y = static_cast<T*>(s.y);
  float mx[kTile], sum[kTile];
  for (int64_t t = begin; t < end; ++t) {
    const int64_t o = t / s.tiles_per_outer;
    const int64_t c0 = (t % s.tiles_per_outer) * kTile;
    const int64_t w = std::min(kTile, s.inner - c0);
    const int64_t base = o * s.n * s.inner + c0;
    std::fill_n(mx, w, -std::numeric_limits<float>::infinity());
    for (int64_t j = 0; j < s.n; ++j) {
      const int64_t row = base + j * s.inner;
      for (int64_t i = 0; i < w; ++i) {
        const float v = Load(x, row + i);
        if (v > mx[i]) mx[i] = v;
      }
    }
    for (int64_t i = 0; i < w; ++i) {
      if (std::isinf(mx[i]) && mx[i] < 0) mx[i] = 0;
    }
    std::fill_n(sum, w, 0.0f);
    for (int64_t j = 0; j < s.n; ++j) {
      const int64_t row = base + j * s.inner;
      for (int64_t i = 0; i < w; ++i) {
        const float e = std::exp(Load(x, row + i) - mx[i]);
        sum[i] += e;
        // f32 keeps the exponentials in Y (the host kernel's order); bf16
        // computes them again below instead of rounding them twice.
        if constexpr (!kLog && kF32) y[row + i] = e;
      }
    }
    for (int64_t i = 0; i < w; ++i) sum[i] = kLog ? std::log(sum[i]) : 1.0f / sum[i];
    for (int64_t j = 0; j < s.n; ++j) {
      const int64_t row = base + j * s.inner;
      for (int64_t i = 0; i < w; ++i) {
        if constexpr (kLog) {
          Store(y, row + i, (Load(x, row + i) - mx[i]) - sum[i]);
        } else if constexpr (kF32) {
          y[row + i] *= sum[i];
        } else {
          Store(y, row + i, std::exp(Load(x, row + i) - mx[i]) * sum[i]);
        }
      }
    }
  }
}

// ---------------------------------------------------------------- kernel

template <bool kLog>
class SoftmaxKernel final : public ge::OpKernel {
 public:
  ge::Status Prepare(gert::TilingContext& ctx) override {
    const gert::Tensor* x = ctx.GetInputTensor(0);
    const gert::Tensor* y = ctx.GetOutputTensor(0);
    if (x == nullptr || y == nullptr) return ctx.Error("input and output are required");
    ASSIGN_OR_RETURN(dnnl::memory::data_type dt, DnnlType(x->GetDataType()));
    if (y->GetDataType() != x->GetDataType()) return ctx.Error("output must have input's type");
    const gert::Shape& xs = x->GetShape();
    ASSIGN_OR_RETURN(int64_t axis_attr, ctx.GetIntOr("axis", -1));
    ge::StatusOr<int64_t> axis = NormalizeAxis(axis_attr, static_cast<int64_t>(xs.GetDimNum()));
    if (!axis.ok()) return WithNode(ctx, axis.status());
    int64_t outer = 1, inner = 1;
    const size_t a = static_cast<size_t>(*axis);
    for (size_t i = 0; i < a; ++i) outer *= xs.GetDim(i);
    for (size_t i = a + 1; i < xs.GetDimNum(); ++i) inner *= xs.GetDim(i);
    const int64_t n = xs.GetDim(a);
    if (inner > 1) {
      outer_ = outer;
      n_ = n;
      inner_ = inner;
      bf16_ = x->GetDataType() == ge::DT_BF16;
      return ge::OkStatus();
    }
    dnnl::memory::desc md;
    dnnl::softmax_v2_forward::primitive_desc pd;
    RETURN_IF_ERROR(DnnlCall("softmax primitive", [&] {
      md = dnnl::memory::desc({outer, n}, dt, dnnl::memory::format_tag::ab);
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      pd = dnnl::softmax_v2_forward::primitive_desc(
          dnnl::softmax_v2_forward::desc(
              dnnl::prop_kind::forward_inference,
              kLog ? dnnl::algorithm::softmax_log : dnnl::algorithm::softmax_accurate, md, md, 1),
          attr, CpuEngine());
    }));
    RETURN_IF_ERROR(prim_.Init(dnnl::softmax_v2_forward(pd), pd.scratchpad_desc()));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_SRC, md));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_DST, md));
    if (prim_.scratchpad_bytes() > 0) {
      RETURN_IF_ERROR(ctx.SetWorkspaceSize(0, prim_.scratchpad_bytes()));
    }
    return ge::OkStatus();
  }

  ge::Status Run(gert::KernelContext& ctx) const override {
    const gert::Tensor* x = ctx.GetInputTensor(0);
    gert::Tensor* y = ctx.GetOutputTensor(0);
    if (x == nullptr || y == nullptr) return ctx.Error("input and output are required");
    if (prim_.initialized()) {
      const void* handles[2] = {x->GetAddr(), y->GetAddr()};
      return WithNode(ctx, prim_.Execute(absl::MakeConstSpan(handles, 2), ctx.GetWorkspaces()));
    }
    const int64_t tiles_per_outer = (inner_ + kTile - 1) / kTile;
    const StridedSoftmax s{x->GetAddr(), y->GetAddr(), n_, inner_, tiles_per_outer};
    // About 16K elements per chunk.
    const int64_t grain = std::max<int64_t>(1, 16384 / (n_ * std::min(kTile, inner_)));
    if (bf16_) {
      ParallelFor(outer_ * tiles_per_outer, grain, [&s](int64_t begin, int64_t end) {
        SoftmaxTiles<kLog, uint16_t>(s, begin, end);
      });
    } else {
      ParallelFor(outer_ * tiles_per_outer, grain,
                  [&s](int64_t begin, int64_t end) { SoftmaxTiles<kLog, float>(s, begin, end); });
    }
    return ge::OkStatus();
  }

 private:
  PreparedPrimitive prim_;                 // inner == 1
  int64_t outer_ = 0, n_ = 0, inner_ = 0;  // inner > 1
  bool bf16_ = false;
};

ge::Status SoftmaxSupports(const ge::OpDesc& op) {
  const ge::GeTensorDesc* x = op.GetInputDescBarePtr(0);
  const ge::GeTensorDesc* y = op.GetOutputDescBarePtr(0);
  if (x == nullptr || y == nullptr) return ge::NotSupported("input and output are required");
  if (y->GetDataType() != x->GetDataType()) {
    return ge::NotSupported("output must have the input's data type");
  }
  absl::Span<const int64_t> xd = x->GetShape().GetDimsSpan();
  if (xd.empty()) return ge::NotSupported("softmax of a scalar");
  for (int64_t d : xd) {
    if (d <= 0) {
      return ge::NotSupported("input has dim ", d,
                              "; the kernel takes known, non-empty shapes only");
    }
  }
  gert::ContextBase attrs;
  attrs.SetNode(op.GetName(), op.GetType());
  attrs.SetAttrHolder(&op);
  ge::StatusOr<int64_t> axis = attrs.GetIntOr("axis", -1);
  if (!axis.ok()) return ge::NotSupported(axis.status().message());
  ge::StatusOr<int64_t> a = NormalizeAxis(*axis, static_cast<int64_t>(xd.size()));
  if (!a.ok()) return ge::NotSupported(a.status().message());
  return ge::OkStatus();
}

}  // namespace

REG_KERNEL(Softmax, ge::kEngineAiCore)
    .Kernel<SoftmaxKernel<false>>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(SoftmaxSupports);

REG_KERNEL(LogSoftmax, ge::kEngineAiCore)
    .Kernel<SoftmaxKernel<true>>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(SoftmaxSupports);

}  // namespace compute
}  // namespace ops
