// ops/array/reshape_ops.cc
//
// Ops that change only the shape of their input, or read it:
//   Reshape    (data, shape) allowzero: 0 copies the input dim (or is a real 0
//              with allowzero=1), one -1 is inferred from the element count.
//   Flatten    axis in [-r, r]: [prod(d[:axis]), prod(d[axis:])].
//   Squeeze    (data, axes?) removes the listed size-1 dims (all when absent
//              or empty).
//   Unsqueeze  (data, axes) inserts size-1 dims at the output positions axes.
//   Identity   copy.
//   Shape      INT64 [end - start] with start / end clamped to [0, r].
//   Size       INT64 scalar element count.
// When a value input (shape, axes) is unknown at compile time the output has
// the right rank with -1 dims when that is known, unknown rank otherwise.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
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

// Product of dims; -1 when any is unknown; Overflow error past int64.
ge::StatusOr<int64_t> DimProduct(const gert::ContextBase& ctx, absl::Span<const int64_t> dims) {
  int64_t p = 1;
  bool unknown = false;
  for (int64_t d : dims) {
    if (d < 0) {
      unknown = true;
      continue;
    }
    if (__builtin_mul_overflow(p, d, &p)) {
      return ctx.ErrorWithCode(ge::ErrorCode::kOverflow, "element count of dims [",
                               absl::StrJoin(dims, ","), "] overflows int64");
    }
  }
  return unknown ? -1 : p;
}

ge::Status InferInt64Outputs(gert::InferShapeContext& ctx) {
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) ctx.SetOutputDataType(i, ge::DT_INT64);
  return ge::OkStatus();
}

// ------------------------------------------------------------------ Reshape

ge::StatusOr<gert::Shape> ReshapeShape(const gert::ContextBase& ctx, const gert::Shape& x,
                                       absl::Span<const int64_t> spec, bool allowzero) {
  if (spec.size() > gert::kMaxDimNum) {
    return ctx.Error("shape input has ", spec.size(), " values, more than the maximum rank ",
                     gert::kMaxDimNum);
  }
  const bool rank_known = !x.IsUnknownRank();
  int64_t infer_idx = -1;
  bool has_zero = false;
  std::vector<int64_t> dims(spec.size());
  for (size_t i = 0; i < spec.size(); ++i) {
    const int64_t v = spec[i];
    if (v == -1) {
      if (infer_idx >= 0) {
        return ctx.Error("shape input has more than one -1 (at ", infer_idx, " and ", i, ")");
      }
      infer_idx = static_cast<int64_t>(i);
      dims[i] = -1;
    } else if (v < -1) {
      return ctx.Error("shape input value ", v, " at index ", i, " is invalid (must be >= -1)");
    } else if (v == 0) {
      has_zero = true;
      if (allowzero) {
        dims[i] = 0;
      } else if (!rank_known) {
        dims[i] = -1;
      } else if (i >= x.GetDimNum()) {
        return ctx.Error("shape input value 0 at index ", i, " copies input dim ", i,
                         " but the input ", x.ToString(), " has rank ", x.GetDimNum());
      } else {
        dims[i] = x.GetDim(i);
      }
    } else {
      dims[i] = v;
    }
  }
  if (allowzero && has_zero && infer_idx >= 0) {
    return ctx.Error("shape input [", absl::StrJoin(spec, ","),
                     "] has both 0 and -1, which is invalid with allowzero=1");
  }
  const int64_t total = rank_known ? x.GetShapeSize() : -1;
  int64_t known_prod = 1;
  bool all_known = true;
  for (size_t j = 0; j < dims.size(); ++j) {
    if (static_cast<int64_t>(j) == infer_idx) continue;
    if (dims[j] < 0) {
      all_known = false;
    } else if (__builtin_mul_overflow(known_prod, dims[j], &known_prod)) {
      return ctx.ErrorWithCode(ge::ErrorCode::kOverflow, "shape input [", absl::StrJoin(spec, ","),
                               "] overflows int64");
    }
  }
  if (all_known && total >= 0) {
    if (infer_idx >= 0) {
      if (known_prod == 0 || total % known_prod != 0) {
        return ctx.Error("cannot reshape input ", x.ToString(), " (", total,
                         " elements) to shape [", absl::StrJoin(spec, ","),
                         "]: the -1 dim cannot be inferred");
      }
      dims[infer_idx] = total / known_prod;
    } else if (known_prod != total) {
      return ctx.Error("cannot reshape input ", x.ToString(), " (", total, " elements) to [",
                       absl::StrJoin(dims, ","), "] (", known_prod, " elements)");
    }
  }
  return ShapeFromDims(dims);
}

ge::Status InferReshape(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Shape* s, InputShape(ctx, 1));
  ASSIGN_OR_RETURN(const bool allowzero, ctx.GetBoolOr("allowzero", false));
  if (!s->IsUnknownRank() && s->GetDimNum() != 1) {
    return ctx.Error("shape input must be 1-D, got ", s->ToString());
  }
  ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> spec,
                   WithNodeOr(ctx, KnownInputInts(ctx, 1)));
  if (!spec.has_value()) {
    return SetOutputShape(ctx, 0,
                          s->IsUnknownRank() ? UnknownRankShape() : UnknownDimsShape(s->GetDim(0)));
  }
  ASSIGN_OR_RETURN(gert::Shape out, ReshapeShape(ctx, *x, *spec, allowzero));
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (!AnyInputRange(ctx) || x->IsUnknownRank()) return ge::OkStatus();
  // Spec 0 copies the input dim's range; the -1 dim is the element count's
  // range divided by the other dims.
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  DimRange total{1, 1};
  for (const DimRange& r : xr) total = MulDimRange(total, r);
  gert::ShapeRange range(out.GetDimNum());
  DimRange others{1, 1};
  int64_t infer_idx = -1;
  for (size_t i = 0; i < range.size(); ++i) {
    const int64_t v = (*spec)[i];
    if (v == -1) {
      infer_idx = static_cast<int64_t>(i);
      continue;
    }
    range[i] = v == 0 && !allowzero && i < xr.size() ? xr[i] : DimRangeOf(out.GetDim(i));
    others = MulDimRange(others, range[i]);
  }
  if (infer_idx >= 0) {
    if (others.first == others.second) {
      range[infer_idx] = DivDimRange(total, others.first);
    } else {
      const int64_t lo = others.first > 0 ? others.first : 1;
      range[infer_idx] = IsBounded(total) ? DimRange{0, total.second / lo} : DimRangeOf(-1);
    }
  }
  return SetOutputRange(ctx, 0, std::move(range));
}

// Copies input 0 into output 0 with `shape`.
ge::Status CopyToShape(gert::KernelContext& ctx, const gert::Tensor& x, const gert::Shape& shape) {
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, shape, x.GetDataType()));
  return WithNode(ctx, CopyElements(x, y));
}

ge::Status ReshapeKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* s, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const bool allowzero, ctx.GetBoolOr("allowzero", false));
  ASSIGN_OR_RETURN(std::vector<int64_t> spec, WithNodeOr(ctx, ReadIntTensor(*s)));
  ASSIGN_OR_RETURN(gert::Shape out, ReshapeShape(ctx, x->GetShape(), spec, allowzero));
  return CopyToShape(ctx, *x, out);
}

// ------------------------------------------------------------------ Flatten

ge::StatusOr<gert::Shape> FlattenShape(const gert::ContextBase& ctx, const gert::Shape& x) {
  ASSIGN_OR_RETURN(int64_t axis, ctx.GetIntOr("axis", 1));
  if (x.IsUnknownRank()) {
    return gert::Shape{axis == 0 ? 1 : ge::UNKNOWN_DIM, ge::UNKNOWN_DIM};
  }
  const int64_t r = static_cast<int64_t>(x.GetDimNum());
  if (axis < -r || axis > r) {
    return ctx.ErrorWithCode(ge::ErrorCode::kOutOfRange, "axis ", axis, " is out of range [", -r,
                             ", ", r, "] for input ", x.ToString());
  }
  if (axis < 0) axis += r;
  const absl::Span<const int64_t> dims = x.GetDims();
  ASSIGN_OR_RETURN(int64_t outer, DimProduct(ctx, dims.subspan(0, axis)));
  ASSIGN_OR_RETURN(int64_t inner, DimProduct(ctx, dims.subspan(axis)));
  return gert::Shape{outer, inner};
}

ge::Status InferFlatten(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(gert::Shape out, FlattenShape(ctx, *x));
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (!AnyInputRange(ctx) || x->IsUnknownRank()) return ge::OkStatus();
  ASSIGN_OR_RETURN(int64_t axis, ctx.GetIntOr("axis", 1));
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  if (axis < 0) axis += static_cast<int64_t>(xr.size());
  DimRange outer{1, 1}, inner{1, 1};
  for (size_t d = 0; d < xr.size(); ++d) {
    DimRange& acc = static_cast<int64_t>(d) < axis ? outer : inner;
    acc = MulDimRange(acc, xr[d]);
  }
  return SetOutputRange(ctx, 0, {outer, inner});
}

ge::Status FlattenKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(gert::Shape out, FlattenShape(ctx, x->GetShape()));
  return CopyToShape(ctx, *x, out);
}

// ------------------------------------------------------------------ Squeeze

// axes: nullopt = squeeze every size-1 dim.
ge::StatusOr<gert::Shape> SqueezeShape(const gert::ContextBase& ctx, const gert::Shape& x,
                                       const std::optional<std::vector<int64_t>>& axes) {
  if (x.IsUnknownRank()) return UnknownRankShape();
  const int64_t r = static_cast<int64_t>(x.GetDimNum());
  std::vector<bool> drop(r, false);
  if (!axes.has_value() || axes->empty()) {
    for (int64_t i = 0; i < r; ++i) {
      if (x.GetDim(i) < 0) return UnknownRankShape();  // may or may not be 1
      drop[i] = x.GetDim(i) == 1;
    }
  } else {
    ASSIGN_OR_RETURN(std::vector<int64_t> norm, WithNodeOr(ctx, NormalizeAxes(*axes, r)));
    for (int64_t a : norm) {
      const int64_t d = x.GetDim(a);
      if (d >= 0 && d != 1) {
        return ctx.Error("cannot squeeze axis ", a, " of input ", x.ToString(), ": its size is ", d,
                         ", not 1");
      }
      drop[a] = true;
    }
  }
  gert::Shape out;
  for (int64_t i = 0; i < r; ++i) {
    if (!drop[i]) out.AppendDim(x.GetDim(i));
  }
  return out;
}

ge::Status InferSqueeze(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  const gert::Shape* axes_shape = ctx.GetInputShape(1);
  if (axes_shape == nullptr) {
    ASSIGN_OR_RETURN(gert::Shape out, SqueezeShape(ctx, *x, std::nullopt));
    return SetOutputShape(ctx, 0, out);
  }
  // ONNX says 1-D; a 0-D axes tensor (one axis) is accepted as ONNX Runtime does.
  if (!axes_shape->IsUnknownRank() && axes_shape->GetDimNum() > 1) {
    return ctx.Error("axes input must be 1-D (or a scalar), got ", axes_shape->ToString());
  }
  ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> axes,
                   WithNodeOr(ctx, KnownInputInts(ctx, 1)));
  if (!axes.has_value()) {
    const int64_t n = axes_shape->IsUnknownRank()    ? -1
                      : axes_shape->GetDimNum() == 0 ? 1
                                                     : axes_shape->GetDim(0);
    if (x->IsUnknownRank() || n <= 0) return SetOutputShape(ctx, 0, UnknownRankShape());
    const int64_t r = static_cast<int64_t>(x->GetDimNum());
    if (n > r) {
      return ctx.Error(n, " axes to squeeze but the input ", x->ToString(), " has rank ", r);
    }
    return SetOutputShape(ctx, 0, UnknownDimsShape(r - n));
  }
  ASSIGN_OR_RETURN(gert::Shape out, SqueezeShape(ctx, *x, axes));
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (!AnyInputRange(ctx) || x->IsUnknownRank() || axes->empty()) return ge::OkStatus();
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  const int64_t r = static_cast<int64_t>(xr.size());
  ASSIGN_OR_RETURN(std::vector<int64_t> norm, WithNodeOr(ctx, NormalizeAxes(*axes, r)));
  std::vector<bool> drop(xr.size(), false);
  for (int64_t a : norm) {
    if (!InDimRange(1, xr[a])) {
      return ctx.Error("cannot squeeze axis ", a, ": its range ", DimRangeString(xr[a]),
                       " excludes 1");
    }
    drop[a] = true;
  }
  gert::ShapeRange range;
  for (size_t d = 0; d < xr.size(); ++d) {
    if (!drop[d]) range.push_back(xr[d]);
  }
  return SetOutputRange(ctx, 0, std::move(range));
}

ge::Status SqueezeKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  std::optional<std::vector<int64_t>> axes;
  if (ctx.GetInputTensor(1) != nullptr) {
    ASSIGN_OR_RETURN(axes, WithNodeOr(ctx, ReadIntTensor(*ctx.GetInputTensor(1))));
  }
  ASSIGN_OR_RETURN(gert::Shape out, SqueezeShape(ctx, x->GetShape(), axes));
  return CopyToShape(ctx, *x, out);
}

// ---------------------------------------------------------------- Unsqueeze

ge::StatusOr<gert::Shape> UnsqueezeShape(const gert::ContextBase& ctx, const gert::Shape& x,
                                         absl::Span<const int64_t> axes) {
  if (x.IsUnknownRank()) return UnknownRankShape();
  const int64_t out_rank = static_cast<int64_t>(x.GetDimNum() + axes.size());
  if (out_rank > static_cast<int64_t>(gert::kMaxDimNum)) {
    return ctx.Error("output rank ", out_rank, " exceeds the maximum ", gert::kMaxDimNum);
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> norm, WithNodeOr(ctx, NormalizeAxes(axes, out_rank)));
  std::vector<bool> ones(out_rank, false);
  for (int64_t a : norm) ones[a] = true;
  gert::Shape out;
  size_t next = 0;
  for (int64_t i = 0; i < out_rank; ++i) out.AppendDim(ones[i] ? 1 : x.GetDim(next++));
  return out;
}

ge::Status InferUnsqueeze(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Shape* axes_shape, InputShape(ctx, 1));
  // ONNX says 1-D; a 0-D axes tensor (one axis) is accepted as ONNX Runtime does.
  if (!axes_shape->IsUnknownRank() && axes_shape->GetDimNum() > 1) {
    return ctx.Error("axes input must be 1-D (or a scalar), got ", axes_shape->ToString());
  }
  ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> axes,
                   WithNodeOr(ctx, KnownInputInts(ctx, 1)));
  if (!axes.has_value()) {
    const int64_t n = axes_shape->IsUnknownRank()    ? -1
                      : axes_shape->GetDimNum() == 0 ? 1
                                                     : axes_shape->GetDim(0);
    if (x->IsUnknownRank() || n < 0) return SetOutputShape(ctx, 0, UnknownRankShape());
    return SetOutputShape(ctx, 0, UnknownDimsShape(static_cast<int64_t>(x->GetDimNum()) + n));
  }
  ASSIGN_OR_RETURN(gert::Shape out, UnsqueezeShape(ctx, *x, *axes));
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (!AnyInputRange(ctx) || x->IsUnknownRank()) return ge::OkStatus();
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  const int64_t out_rank = static_cast<int64_t>(out.GetDimNum());
  ASSIGN_OR_RETURN(std::vector<int64_t> norm, WithNodeOr(ctx, NormalizeAxes(*axes, out_rank)));
  std::vector<bool> ones(out.GetDimNum(), false);
  for (int64_t a : norm) ones[a] = true;
  gert::ShapeRange range;
  size_t next = 0;
  for (size_t d = 0; d < ones.size(); ++d) range.push_back(ones[d] ? DimRange{1, 1} : xr[next++]);
  return SetOutputRange(ctx, 0, std::move(range));
}

ge::Status UnsqueezeKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* a, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(std::vector<int64_t> axes, WithNodeOr(ctx, ReadIntTensor(*a)));
  ASSIGN_OR_RETURN(gert::Shape out, UnsqueezeShape(ctx, x->GetShape(), axes));
  return CopyToShape(ctx, *x, out);
}

// ----------------------------------------------------------------- Identity

ge::TensorType IdentityTensorTypes() {
  std::set<ge::DataType> types = ArrayTensorTypes().GetAllowedDataTypes();
  types.insert(ge::DT_VARIANT);
  return ge::TensorType(std::vector<ge::DataType>(types.begin(), types.end()));
}

ge::Status IdentityKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  if (x->GetDataType() == ge::DT_VARIANT) {
    // Sequences / optionals hold HostTensor objects: deep copy, never memcpy.
    // Output memory must hold constructed HostTensors (HostTensor::Create).
    gert::Tensor* y = ctx.GetOutputTensor(0);
    if (y == nullptr) return ctx.Error("output 0 is missing");
    if (y->GetAddr() == nullptr) {
      ASSIGN_OR_RETURN(y, ctx.AllocateOutput(0, x->GetShape(), ge::DT_VARIANT));
    }
    return WithNode(ctx, gert::CopyTensorData(*x, y));
  }
  return CopyToShape(ctx, *x, x->GetShape());
}

// -------------------------------------------------------------- Shape, Size

// [start, end) of the dims Shape reports, clamped to [0, rank].
ge::StatusOr<std::pair<int64_t, int64_t>> ShapeOpRange(const gert::ContextBase& ctx, int64_t rank) {
  ASSIGN_OR_RETURN(int64_t start, ctx.GetIntOr("start", 0));
  ASSIGN_OR_RETURN(int64_t end, ctx.GetIntOr("end", rank));
  auto clamp = [rank](int64_t v) {
    if (v < 0) v += rank;
    return std::min(std::max<int64_t>(v, 0), rank);
  };
  start = clamp(start);
  end = clamp(end);
  return std::make_pair(start, std::max(start, end));
}

ge::Status InferShapeOp(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  if (x->IsUnknownRank()) {
    // Any rank up to the maximum.
    RETURN_IF_ERROR(SetOutputShape(ctx, 0, gert::Shape{ge::UNKNOWN_DIM}));
    return SetOutputRange(ctx, 0, {DimRange{0, static_cast<int64_t>(gert::kMaxDimNum)}});
  }
  ASSIGN_OR_RETURN(auto range, ShapeOpRange(ctx, static_cast<int64_t>(x->GetDimNum())));
  const int64_t n = range.second - range.first;
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, gert::Shape{n}));
  // The output's one dim is known whatever x's dims are.
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  return SetOutputRange(ctx, 0, {DimRange{n, n}});
}

ge::Status ShapeKernel(gert::KernelContext& ctx) {
  const gert::Tensor* x = ctx.GetInputTensor(0);  // only the shape is read
  if (x == nullptr) return ctx.Error("input 0 is missing");
  const gert::Shape& xs = x->GetShape();
  if (xs.IsUnknownShape()) return ctx.Error("input 0 shape ", xs.ToString(), " is not known");
  ASSIGN_OR_RETURN(auto range, ShapeOpRange(ctx, static_cast<int64_t>(xs.GetDimNum())));
  ASSIGN_OR_RETURN(gert::Tensor * y,
                   PrepareOutput(ctx, 0, gert::Shape{range.second - range.first}, ge::DT_INT64));
  int64_t* out = y->GetData<int64_t>();
  for (int64_t i = range.first; i < range.second; ++i) *out++ = xs.GetDim(i);
  return ge::OkStatus();
}

ge::Status InferSize(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  (void)x;
  return SetOutputShape(ctx, 0, gert::Shape{});
}

ge::Status SizeKernel(gert::KernelContext& ctx) {
  const gert::Tensor* x = ctx.GetInputTensor(0);
  if (x == nullptr) return ctx.Error("input 0 is missing");
  ASSIGN_OR_RETURN(int64_t n, DimProduct(ctx, x->GetShape().GetDims()));
  if (n < 0 || x->GetShape().IsUnknownRank()) {
    return ctx.Error("input 0 shape ", x->GetShape().ToString(), " is not known");
  }
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, gert::Shape{}, ge::DT_INT64));
  *y->GetData<int64_t>() = n;
  return ge::OkStatus();
}

const ge::TensorType kInt64{ge::DT_INT64};

REG_OP(Reshape)
    .Input("data", ArrayTensorTypes())
    .Input("shape", kInt64)
    .Output("reshaped", ArrayTensorTypes())
    .Attr("allowzero", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferReshape)
    .ValueDependentInput("shape");
REG_KERNEL(Reshape, ge::kEngineHostCpu).Fn(ReshapeKernel);

REG_OP(Flatten)
    .Input("input", ArrayTensorTypes())
    .Output("output", ArrayTensorTypes())
    .Attr("axis", ge::AttrValue::CreateFrom<int64_t>(1))
    .InferShape(InferFlatten);
REG_KERNEL(Flatten, ge::kEngineHostCpu).Fn(FlattenKernel);

REG_OP(Squeeze)
    .Input("data", ArrayTensorTypes())
    .OptionalInput("axes", kInt64)
    .Output("squeezed", ArrayTensorTypes())
    .InferShape(InferSqueeze)
    .ValueDependentInput("axes");
REG_KERNEL(Squeeze, ge::kEngineHostCpu).Fn(SqueezeKernel);

REG_OP(Unsqueeze)
    .Input("data", ArrayTensorTypes())
    .Input("axes", kInt64)
    .Output("expanded", ArrayTensorTypes())
    .InferShape(InferUnsqueeze)
    .ValueDependentInput("axes");
REG_KERNEL(Unsqueeze, ge::kEngineHostCpu).Fn(UnsqueezeKernel);

// Identity also forwards sequence / optional values (DT_VARIANT).
REG_OP(Identity)
    .Input("input", IdentityTensorTypes())
    .Output("output", IdentityTensorTypes())
    .InferShape(InferSameAsInput0);
REG_KERNEL(Identity, ge::kEngineHostCpu).Fn(IdentityKernel);

REG_OP(Shape)
    .Input("data", ArrayTensorTypes())
    .Output("shape", kInt64)
    .Attr("start", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferShapeOp)
    .InferDataType(InferInt64Outputs);
REG_KERNEL(Shape, ge::kEngineHostCpu).Fn(ShapeKernel);

REG_OP(Size)
    .Input("data", ArrayTensorTypes())
    .Output("size", kInt64)
    .InferShape(InferSize)
    .InferDataType(InferInt64Outputs);
REG_KERNEL(Size, ge::kEngineHostCpu).Fn(SizeKernel);

}  // namespace
}  // namespace ops
