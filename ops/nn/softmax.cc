// ops/nn/softmax.cc
//
// Softmax, LogSoftmax and Hardmax with opset 13 semantics: the reduction
// runs along the single dimension `axis` (default -1), not over the
// flattened trailing dims as in opset < 13.
//
// The input is viewed as [outer, n, inner] with n the axis dim; for
// inner > 1 the kernels sweep the axis with `inner`-wide rows so that the
// memory access stays sequential. Softmax subtracts the row max before
// exponentiating (stable for large inputs); Hardmax marks the first maximum.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/common/scratch.h"
#include "ops/common/shape_range.h"
#include "ops/nn/nn_util.h"

namespace ops {
namespace nn {
namespace {

ge::StatusOr<size_t> SoftmaxAxis(const gert::ContextBase& ctx, const gert::Shape& x) {
  ASSIGN_OR_RETURN(int64_t axis, ctx.GetIntOr("axis", -1));
  ge::StatusOr<int64_t> a = NormalizeAxis(axis, static_cast<int64_t>(x.GetDimNum()));
  if (!a.ok()) return WithNode(ctx, ge::Annotate(a.status(), "attribute axis: "));
  return static_cast<size_t>(*a);
}

ge::Status InferSoftmax(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  gert::Shape* y = ctx.GetOutputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (input) is missing");
  if (y == nullptr) return ctx.Error("output 0 (output) is missing");
  if (!x->IsUnknownRank()) RETURN_IF_ERROR(SoftmaxAxis(ctx, *x).status());
  *y = *x;
  return CopyInputRange(ctx, 0, 0);
}

enum class Mode { kSoftmax, kLogSoftmax, kHardmax };

// mx / sum / arg: `inner` elements of scratch each.
template <typename C>
void SoftmaxRows(const C* x, C* y, int64_t outer, int64_t n, int64_t inner, Mode mode, C* mx,
                 C* sum, int64_t* arg) {
  for (int64_t o = 0; o < outer; ++o) {
    const C* xb = x + o * n * inner;
    C* yb = y + o * n * inner;
    std::fill(mx, mx + inner, -std::numeric_limits<C>::infinity());
    std::fill(arg, arg + inner, 0);
    for (int64_t j = 0; j < n; ++j) {
      const C* row = xb + j * inner;
      for (int64_t i = 0; i < inner; ++i) {
        if (row[i] > mx[i]) {
          mx[i] = row[i];
          arg[i] = j;
        }
      }
    }
    if (mode == Mode::kHardmax) {
      std::fill(yb, yb + n * inner, C{0});
      for (int64_t i = 0; i < inner; ++i) yb[arg[i] * inner + i] = C{1};
      continue;
    }
    // A row of -inf (or all NaN) keeps max -inf; use 0 so that exp stays defined.
    for (int64_t i = 0; i < inner; ++i) {
      if (std::isinf(mx[i]) && mx[i] < 0) mx[i] = 0;
    }
    std::fill(sum, sum + inner, C{0});
    for (int64_t j = 0; j < n; ++j) {
      const C* row = xb + j * inner;
      C* out = yb + j * inner;
      for (int64_t i = 0; i < inner; ++i) {
        out[i] = std::exp(row[i] - mx[i]);
        sum[i] += out[i];
      }
    }
    if (mode == Mode::kSoftmax) {
      for (int64_t i = 0; i < inner; ++i) sum[i] = C{1} / sum[i];
      for (int64_t j = 0; j < n; ++j) {
        C* out = yb + j * inner;
        for (int64_t i = 0; i < inner; ++i) out[i] *= sum[i];
      }
    } else {
      // (x - max) - log(sum): subtracting the max first keeps large inputs exact.
      for (int64_t i = 0; i < inner; ++i) sum[i] = std::log(sum[i]);
      for (int64_t j = 0; j < n; ++j) {
        const C* row = xb + j * inner;
        C* out = yb + j * inner;
        for (int64_t i = 0; i < inner; ++i) out[i] = (row[i] - mx[i]) - sum[i];
      }
    }
  }
}

template <Mode kMode>
ge::Status SoftmaxKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const gert::Shape& xs = x->GetShape();
  ASSIGN_OR_RETURN(size_t axis, SoftmaxAxis(ctx, xs));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, xs, x->GetDataType()));
  int64_t outer = 1;
  int64_t inner = 1;
  for (size_t i = 0; i < axis; ++i) outer *= xs.GetDim(i);
  for (size_t i = axis + 1; i < xs.GetDimNum(); ++i) inner *= xs.GetDim(i);
  const int64_t n = xs.GetDim(axis);
  if (outer * n * inner == 0) return ge::OkStatus();
  return DispatchCompute(x->GetDataType(), [&](auto tag) {
    using C = typename decltype(tag)::type;
    ComputeInput<C> xin;
    ComputeOutput<C> yout;
    RETURN_IF_ERROR(WithNode(ctx, xin.Init(*x)));
    RETURN_IF_ERROR(WithNode(ctx, yout.Init(y)));
    // Row statistics in per-thread scratch: no allocation per call.
    const size_t w = static_cast<size_t>(inner);
    C* mx = ThreadScratch<C>(ScratchSlot::kKernel0, w);
    C* sum = ThreadScratch<C>(ScratchSlot::kKernel1, w);
    int64_t* arg = ThreadScratch<int64_t>(ScratchSlot::kKernel2, w);
    if (mx == nullptr || sum == nullptr || arg == nullptr) {
      return ctx.ErrorWithCode(ge::ErrorCode::kMemoryAllocFailed, "no memory for ", inner,
                               " row statistics");
    }
    SoftmaxRows<C>(xin.data(), yout.data(), outer, n, inner, kMode, mx, sum, arg);
    yout.Commit();
    return ge::OkStatus();
  });
}

}  // namespace

REG_OP(Softmax)
    .Input("input", FloatTypesBf16())
    .Output("output", FloatTypesBf16())
    .Attr("axis", AttrInt(-1))
    .InferShape(InferSoftmax);
REG_KERNEL(Softmax, ge::kEngineHostCpu).Fn(SoftmaxKernel<Mode::kSoftmax>);

REG_OP(LogSoftmax)
    .Input("input", FloatTypesBf16())
    .Output("output", FloatTypesBf16())
    .Attr("axis", AttrInt(-1))
    .InferShape(InferSoftmax);
REG_KERNEL(LogSoftmax, ge::kEngineHostCpu).Fn(SoftmaxKernel<Mode::kLogSoftmax>);

REG_OP(Hardmax)
    .Input("input", FloatTypesBf16())
    .Output("output", FloatTypesBf16())
    .Attr("axis", AttrInt(-1))
    .InferShape(InferSoftmax);
REG_KERNEL(Hardmax, ge::kEngineHostCpu).Fn(SoftmaxKernel<Mode::kHardmax>);

}  // namespace nn
}  // namespace ops
