// ops/reduce/cumsum_op.cc
//
// CumSum (ONNX opset 14): cumulative sum of x along the axis given by input 1
// (an INT32 / INT64 scalar or one-element 1-D tensor, negative counts from
// the back). exclusive = 1 leaves out the current element (the first output
// is 0); reverse = 1 sums from the end. y has x's shape and type. FLOAT16 /
// BF16 accumulate in float; integers wrap around.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"
#include "ops/reduce/reduce_util.h"

namespace ops {
namespace {

const ge::TensorType& CumSumTypes() {
  static const ge::TensorType* t =
      new ge::TensorType({ge::DT_UINT32, ge::DT_UINT64, ge::DT_INT32, ge::DT_INT64, ge::DT_FLOAT16,
                          ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_BF16});
  return *t;
}

// The normalised axis from the axis tensor.
ge::StatusOr<size_t> ReadAxis(const gert::ContextBase& ctx, const gert::Tensor& t,
                              const gert::Shape& x) {
  if (t.GetShape().GetDimNum() > 1 || t.GetShape().GetShapeSize() != 1) {
    return ctx.Error("input 1 (axis) must be a scalar or a one-element 1-D tensor, got shape ",
                     t.GetShape().ToString());
  }
  auto v = ReadIntTensor(t);
  if (!v.ok()) return ctx.Error("input 1 (axis): ", v.status().message());
  auto ax = NormalizeAxis((*v)[0], static_cast<int64_t>(x.GetDimNum()));
  if (!ax.ok()) {
    return ctx.Error("input 1 (axis): ", ax.status().message(), " (input 0 shape ", x.ToString(),
                     ")");
  }
  return static_cast<size_t>(*ax);
}

ge::Status InferCumSum(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (x) is missing");
  if (x->IsScalar()) return ctx.Error("input 0 (x) must have rank >= 1, got a scalar");
  const gert::Shape* as = ctx.GetInputShape(1);
  if (as == nullptr) return ctx.Error("input 1 (axis) is missing");
  if (!as->IsUnknownRank() && as->GetDimNum() > 1) {
    return ctx.Error("input 1 (axis) must be a scalar or 1-D, got shape ", as->ToString());
  }
  const gert::Tensor* av = ctx.GetInputTensor(1);
  if (av != nullptr && !x->IsUnknownRank()) {
    ASSIGN_OR_RETURN(size_t axis, ReadAxis(ctx, *av, *x));
    (void)axis;
  }
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 (y) is missing");
  *y = *x;
  return CopyInputRange(ctx, 0, 0);
}

ge::Status VerifyCumSum(gert::InferShapeContext& ctx) {
  const ge::DataType a = ctx.GetInputDataType(1);
  if (a != ge::DT_INT32 && a != ge::DT_INT64) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch,
                             "input 1 (axis) must be INT32 or INT64, got ", DataTypeName(a));
  }
  return ge::OkStatus();
}

// Accumulator: float for halves, wrap-around unsigned for integers.
template <typename T>
struct CumAcc {
  using type = ComputeType<T>;
};
template <>
struct CumAcc<int32_t> {
  using type = uint32_t;
};
template <>
struct CumAcc<int64_t> {
  using type = uint64_t;
};

template <typename T>
void CumSumLoop(const T* x, const OuterAxisInner& s, bool exclusive, bool reverse, T* y) {
  using A = typename CumAcc<T>::type;
  std::vector<A> acc(static_cast<size_t>(s.inner));
  for (int64_t o = 0; o < s.outer; ++o) {
    std::fill(acc.begin(), acc.end(), A{0});
    for (int64_t step = 0; step < s.axis; ++step) {
      const int64_t a = reverse ? s.axis - 1 - step : step;
      const int64_t off = (o * s.axis + a) * s.inner;
      const T* in = x + off;
      T* out = y + off;
      for (int64_t j = 0; j < s.inner; ++j) {
        A& r = acc[static_cast<size_t>(j)];
        const A v = static_cast<A>(ToCompute(in[j]));
        if (exclusive) {
          out[j] = FromCompute<T>(static_cast<ComputeType<T>>(r));
          r = static_cast<A>(r + v);
        } else {
          r = static_cast<A>(r + v);
          out[j] = FromCompute<T>(static_cast<ComputeType<T>>(r));
        }
      }
    }
  }
}

ge::Status CumSumKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* at, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(int64_t exclusive, ctx.GetIntOr("exclusive", 0));
  ASSIGN_OR_RETURN(int64_t reverse, ctx.GetIntOr("reverse", 0));
  const gert::Shape& xs = x->GetShape();
  if (xs.IsScalar()) {
    return ctx.Error("input 0 (x) must have rank >= 1, got a scalar");
  }
  ASSIGN_OR_RETURN(size_t axis, ReadAxis(ctx, *at, xs));
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, xs, x->GetDataType()));
  if (xs.GetShapeSize() == 0) return ge::OkStatus();
  const OuterAxisInner s = SplitAtAxis(xs, axis);
  return WithNode(ctx, DispatchType<kTgAllFloat | kTgInt>(
                           x->GetDataType(),
                           [&](auto tag) -> ge::Status {
                             using T = typename decltype(tag)::type;
                             CumSumLoop<T>(x->GetData<T>(), s, exclusive != 0, reverse != 0,
                                           y->GetData<T>());
                             return ge::OkStatus();
                           },
                           "CumSum input x"));
}

}  // namespace

REG_OP(CumSum)
    .Input("x", CumSumTypes())
    .Input("axis", ge::TensorType({ge::DT_INT32, ge::DT_INT64}))
    .Output("y", CumSumTypes())
    .Attr("exclusive", ge::AttrValue::CreateFrom<int64_t>(0))
    .Attr("reverse", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferCumSum)
    .Verify(VerifyCumSum)
    .ValueDependentInput("axis");
REG_KERNEL(CumSum, ge::kEngineHostCpu).Fn(CumSumKernel);

}  // namespace ops
