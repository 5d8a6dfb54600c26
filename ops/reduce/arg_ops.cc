// ops/reduce/arg_ops.cc
//
// ArgMax / ArgMin (ONNX opset 13): INT64 indices of the largest / smallest
// element along `axis` (default 0, negative counts from the back).
// keepdims (default 1) keeps the axis as size 1; select_last_index (default
// 0) picks the last of equal extremes instead of the first. NaN counts as
// the extreme (numpy): the first NaN wins, or the last one with
// select_last_index. Reducing an axis of size 0 is an error.
#include <cmath>
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

const ge::TensorType& ArgTypes() {
  static const ge::TensorType* t = new ge::TensorType(
      {ge::DT_UINT8, ge::DT_UINT16, ge::DT_UINT32, ge::DT_UINT64, ge::DT_INT8, ge::DT_INT16,
       ge::DT_INT32, ge::DT_INT64, ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_BF16});
  return *t;
}

struct ArgAttrs {
  int64_t axis = 0;
  bool keepdims = true;
  bool select_last = false;
};

ge::StatusOr<ArgAttrs> ReadArgAttrs(const gert::ContextBase& ctx) {
  ArgAttrs a;
  ASSIGN_OR_RETURN(a.axis, ctx.GetIntOr("axis", 0));
  ASSIGN_OR_RETURN(int64_t keepdims, ctx.GetIntOr("keepdims", 1));
  ASSIGN_OR_RETURN(int64_t last, ctx.GetIntOr("select_last_index", 0));
  a.keepdims = keepdims != 0;
  a.select_last = last != 0;
  return a;
}

// Output shape; *axis gets the normalised axis.
ge::StatusOr<gert::Shape> ArgShape(const gert::ContextBase& ctx, const gert::Shape& x,
                                   const ArgAttrs& a, size_t* axis) {
  if (x.IsUnknownRank()) return x;
  auto ax = NormalizeAxis(a.axis, static_cast<int64_t>(x.GetDimNum()));
  if (!ax.ok()) {
    return ctx.Error("attribute axis: ", ax.status().message(), " (input 0 shape ", x.ToString(),
                     ")");
  }
  *axis = static_cast<size_t>(*ax);
  if (x.GetDim(*axis) == 0) {
    return ctx.Error("cannot take the arg ", ctx.GetNodeType() == "ArgMin" ? "min" : "max",
                     " of an empty axis ", a.axis, " (input 0 shape ", x.ToString(), ")");
  }
  gert::Shape out;
  for (size_t i = 0; i < x.GetDimNum(); ++i) {
    if (i != *axis) {
      out.AppendDim(x.GetDim(i));
    } else if (a.keepdims) {
      out.AppendDim(1);
    }
  }
  return out;
}

ge::Status InferArg(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (data) is missing");
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 (reduced) is missing");
  ASSIGN_OR_RETURN(ArgAttrs a, ReadArgAttrs(ctx));
  size_t axis = 0;
  ASSIGN_OR_RETURN(*y, ArgShape(ctx, *x, a, &axis));
  if (!AnyInputRange(ctx) || x->IsUnknownRank()) return ge::OkStatus();
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  gert::ShapeRange range;
  for (size_t i = 0; i < xr.size(); ++i) {
    if (i != axis) {
      range.push_back(xr[i]);
    } else if (a.keepdims) {
      range.push_back(DimRange{1, 1});
    }
  }
  return SetOutputRange(ctx, 0, std::move(range));
}

ge::Status InferArgType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ge::DT_INT64);
  return ge::OkStatus();
}

template <typename C>
inline bool IsNan(C v) {
  if constexpr (std::is_floating_point<C>::value) {
    return v != v;
  } else {
    return false;
  }
}

// Whether v replaces best. kMax: larger wins; NaN beats numbers.
template <bool kMax, bool kLast, typename C>
inline bool Better(C v, C best) {
  if (IsNan(best)) return kLast && IsNan(v);
  if (IsNan(v)) return true;
  if constexpr (kMax) {
    return kLast ? v >= best : v > best;
  } else {
    return kLast ? v <= best : v < best;
  }
}

template <typename T, bool kMax, bool kLast>
void ArgLoop(const T* x, const OuterAxisInner& s, int64_t* y) {
  using C = ComputeType<T>;
  std::vector<C> best(static_cast<size_t>(s.inner));
  for (int64_t o = 0; o < s.outer; ++o) {
    const T* base = x + o * s.axis * s.inner;
    int64_t* yo = y + o * s.inner;
    for (int64_t j = 0; j < s.inner; ++j) {
      best[static_cast<size_t>(j)] = ToCompute(base[j]);
      yo[j] = 0;
    }
    for (int64_t a = 1; a < s.axis; ++a) {
      const T* row = base + a * s.inner;
      for (int64_t j = 0; j < s.inner; ++j) {
        const C v = ToCompute(row[j]);
        C& b = best[static_cast<size_t>(j)];
        if (Better<kMax, kLast>(v, b)) {
          b = v;
          yo[j] = a;
        }
      }
    }
  }
}

template <bool kMax>
ge::Status ArgKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(ArgAttrs a, ReadArgAttrs(ctx));
  size_t axis = 0;
  ASSIGN_OR_RETURN(gert::Shape ys, ArgShape(ctx, x->GetShape(), a, &axis));
  ASSIGN_OR_RETURN(gert::Tensor* y, PrepareOutput(ctx, 0, ys, ge::DT_INT64));
  if (ys.GetShapeSize() == 0) return ge::OkStatus();
  const OuterAxisInner s = SplitAtAxis(x->GetShape(), axis);
  return WithNode(ctx, DispatchType<kTgAllFloat | kTgInt>(
                           x->GetDataType(),
                           [&](auto tag) -> ge::Status {
                             using T = typename decltype(tag)::type;
                             if (a.select_last) {
                               ArgLoop<T, kMax, true>(x->GetData<T>(), s, y->GetData<int64_t>());
                             } else {
                               ArgLoop<T, kMax, false>(x->GetData<T>(), s, y->GetData<int64_t>());
                             }
                             return ge::OkStatus();
                           },
                           kMax ? "ArgMax input data" : "ArgMin input data"));
}

}  // namespace

REG_OP(ArgMax)
    .Input("data", ArgTypes())
    .Output("reduced", ge::TensorType(ge::DT_INT64))
    .Attr("axis", ge::AttrValue::CreateFrom<int64_t>(0))
    .Attr("keepdims", ge::AttrValue::CreateFrom<int64_t>(1))
    .Attr("select_last_index", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferArg)
    .InferDataType(InferArgType);
REG_KERNEL(ArgMax, ge::kEngineHostCpu).Fn(ArgKernel<true>);

REG_OP(ArgMin)
    .Input("data", ArgTypes())
    .Output("reduced", ge::TensorType(ge::DT_INT64))
    .Attr("axis", ge::AttrValue::CreateFrom<int64_t>(0))
    .Attr("keepdims", ge::AttrValue::CreateFrom<int64_t>(1))
    .Attr("select_last_index", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferArg)
    .InferDataType(InferArgType);
REG_KERNEL(ArgMin, ge::kEngineHostCpu).Fn(ArgKernel<false>);

}  // namespace ops
