// ops/math/det_op.cc
//
// Det (ONNX opset 11): determinants of square matrices. X is [*, M, M], Y is
// [*]. Computed by LU decomposition with partial pivoting in double (FLOAT16
// and FLOAT results are rounded from the double value). A 0 x 0 matrix has
// determinant 1.
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

const ge::TensorType& DetTypes() {
  static const ge::TensorType* t =
      new ge::TensorType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE});
  return *t;
}

ge::Status DetShape(const gert::ContextBase& ctx, const gert::Shape& x, gert::Shape* y) {
  if (x.IsUnknownRank()) {
    *y = x;
    return ge::OkStatus();
  }
  const size_t r = x.GetDimNum();
  if (r < 2) {
    return ctx.Error("input 0 (X) must have rank >= 2 ([*, M, M]), got shape ", x.ToString());
  }
  const int64_t a = x.GetDim(r - 2), b = x.GetDim(r - 1);
  if (a < -1 || b < -1) return ctx.Error("input 0 (X) has invalid shape ", x.ToString());
  if (a >= 0 && b >= 0 && a != b) {
    return ctx.Error("input 0 (X) must hold square matrices, got shape ", x.ToString());
  }
  gert::Shape out;
  for (size_t i = 0; i + 2 < r; ++i) out.AppendDim(x.GetDim(i));
  *y = out;
  return ge::OkStatus();
}

ge::Status InferDet(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (X) is missing");
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 (Y) is missing");
  RETURN_IF_ERROR(DetShape(ctx, *x, y));
  if (!AnyInputRange(ctx) || x->IsUnknownRank()) return ge::OkStatus();
  // The batch dims' range; the two matrix dims must be able to agree.
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  const size_t r = xr.size();
  ge::StatusOr<DimRange> m = IntersectDimRange(xr[r - 2], xr[r - 1]);
  if (!m.ok()) return ctx.Error("the matrix dims cannot be equal: ", m.status().message());
  xr.resize(r - 2);
  return SetOutputRange(ctx, 0, std::move(xr));
}

// Determinant of the n x n matrix in `a` (destroyed).
double LuDet(double* a, int64_t n) {
  double det = 1.0;
  for (int64_t c = 0; c < n; ++c) {
    int64_t piv = c;
    double best = std::fabs(a[c * n + c]);
    for (int64_t r = c + 1; r < n; ++r) {
      const double v = std::fabs(a[r * n + c]);
      if (v > best) {
        best = v;
        piv = r;
      }
    }
    if (best == 0.0) return 0.0;
    if (std::isnan(best)) return best;
    if (piv != c) {
      for (int64_t j = 0; j < n; ++j) std::swap(a[c * n + j], a[piv * n + j]);
      det = -det;
    }
    const double d = a[c * n + c];
    det *= d;
    for (int64_t r = c + 1; r < n; ++r) {
      const double f = a[r * n + c] / d;
      if (f == 0.0) continue;
      for (int64_t j = c + 1; j < n; ++j) a[r * n + j] -= f * a[c * n + j];
    }
  }
  return det;
}

ge::Status DetKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  gert::Shape ys;
  RETURN_IF_ERROR(DetShape(ctx, x->GetShape(), &ys));
  const ge::DataType dt = x->GetDataType();
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, ys, dt));
  const size_t r = x->GetShape().GetDimNum();
  const int64_t n = x->GetShape().GetDim(r - 1);
  const int64_t batch = ys.GetShapeSize();
  return WithNode(ctx, DispatchType<kTgAllFloat>(
                           dt,
                           [&](auto tag) -> ge::Status {
                             using T = typename decltype(tag)::type;
                             const T* in = x->GetData<T>();
                             T* out = y->GetData<T>();
                             std::vector<double> work(static_cast<size_t>(n * n));
                             for (int64_t b = 0; b < batch; ++b) {
                               const T* src = in + b * n * n;
                               for (int64_t i = 0; i < n * n; ++i) {
                                 work[static_cast<size_t>(i)] =
                                     static_cast<double>(ToCompute(src[i]));
                               }
                               const double det = LuDet(work.data(), n);
                               out[b] = FromCompute<T>(static_cast<ComputeType<T>>(det));
                             }
                             return ge::OkStatus();
                           },
                           "Det input X"));
}

}  // namespace

REG_OP(Det).Input("X", DetTypes()).Output("Y", DetTypes()).InferShape(InferDet);
REG_KERNEL(Det, ge::kEngineHostCpu).Fn(DetKernel);

}  // namespace ops
