// ops/array/transform_ops.cc
//
// Data movement ops that rearrange elements (ONNX opset 17 semantics):
//   Transpose        perm attr (default: reversed axes).
//   Concat           dynamic input list, axis attr (required).
//   Split            (input, split?) axis attr; without split the axis is
//                    divided equally among the outputs (must divide exactly).
//   Slice            (data, starts, ends, axes?, steps?) with ONNX clamping,
//                    negative indices and negative steps.
//   Pad              (data, pads, constant_value?, axes?) modes constant /
//                    reflect / edge / wrap; negative pads crop.
//   Tile             (input, repeats).
//   Expand           (input, shape) bidirectional broadcast.
//   Trilu            (input, k?) upper attr: keeps the upper / lower triangle
//                    of the last two dims.
//   ReverseSequence  (input, sequence_lens) batch_axis / time_axis attrs.
// Every kernel is type-agnostic (DispatchMove): STRING and BOOL included.
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
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

const ge::TensorType kInt64{ge::DT_INT64};

// Inputs that share ONNX's type variable T must have input 0's dtype.
ge::Status CheckSameType(const gert::InferShapeContext& ctx, size_t i) {
  if (ctx.GetInputShape(i) != nullptr && ctx.GetInputDataType(i) != ctx.GetInputDataType(0)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input ", i, " is ",
                             DataTypeName(ctx.GetInputDataType(i)), " but input 0 is ",
                             DataTypeName(ctx.GetInputDataType(0)));
  }
  return ge::OkStatus();
}

ge::Status VerifyConcat(gert::InferShapeContext& ctx) {
  for (size_t i = 1; i < ctx.GetInputNum(); ++i) RETURN_IF_ERROR(CheckSameType(ctx, i));
  return ge::OkStatus();
}

ge::Status VerifyPad(gert::InferShapeContext& ctx) { return CheckSameType(ctx, 2); }

// ---------------------------------------------------------------- Transpose

// The permutation (validated) for rank r: the perm attr or reversed axes.
ge::StatusOr<std::vector<int64_t>> GetPerm(const gert::ContextBase& ctx, int64_t r) {
  ASSIGN_OR_RETURN(std::vector<int64_t> perm, ctx.GetListIntOr("perm", {}));
  if (perm.empty() && r != 0) {
    perm.resize(r);
    for (int64_t i = 0; i < r; ++i) perm[i] = r - 1 - i;
    return perm;
  }
  if (static_cast<int64_t>(perm.size()) != r) {
    return ctx.Error("perm [", absl::StrJoin(perm, ","), "] has ", perm.size(),
                     " entries but the input has rank ", r);
  }
  std::vector<bool> seen(r, false);
  for (int64_t p : perm) {
    if (p < 0 || p >= r || seen[p]) {
      return ctx.Error("perm [", absl::StrJoin(perm, ","), "] is not a permutation of [0, ", r,
                       ")");
    }
    seen[p] = true;
  }
  return perm;
}

ge::Status InferTranspose(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  if (x->IsUnknownRank()) {
    ASSIGN_OR_RETURN(std::vector<int64_t> perm, ctx.GetListIntOr("perm", {}));
    return SetOutputShape(ctx, 0,
                          perm.empty() ? UnknownRankShape() : UnknownDimsShape(perm.size()));
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> perm, GetPerm(ctx, static_cast<int64_t>(x->GetDimNum())));
  gert::Shape out;
  for (int64_t p : perm) out.AppendDim(x->GetDim(p));
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  gert::ShapeRange range;
  for (int64_t p : perm) range.push_back(xr[p]);
  return SetOutputRange(ctx, 0, std::move(range));
}

ge::Status TransposeKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const gert::Shape& xs = x->GetShape();
  const int64_t r = static_cast<int64_t>(xs.GetDimNum());
  ASSIGN_OR_RETURN(std::vector<int64_t> perm, GetPerm(ctx, r));
  const std::vector<int64_t> strides = RowMajorStrides(xs.GetDims());
  gert::Shape out;
  std::vector<std::vector<int64_t>> maps(r);
  for (int64_t k = 0; k < r; ++k) {
    const int64_t d = xs.GetDim(perm[k]);
    out.AppendDim(d);
    maps[k].resize(d);
    for (int64_t i = 0; i < d; ++i) maps[k][i] = i * strides[perm[k]];
  }
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, out, x->GetDataType()));
  return WithNode(ctx, AxisMapCopy(*x, maps, nullptr, y));
}

// ------------------------------------------------------------------- Concat

ge::StatusOr<gert::Shape> ConcatShape(const gert::ContextBase& ctx,
                                      absl::Span<const gert::Shape* const> in, int64_t* axis_out) {
  if (in.empty()) return ctx.Error("Concat needs at least one input");
  ASSIGN_OR_RETURN(int64_t axis, ctx.GetInt("axis"));
  int64_t rank = -1;
  size_t rank_src = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i]->IsUnknownRank()) continue;
    const int64_t r = static_cast<int64_t>(in[i]->GetDimNum());
    if (rank < 0) {
      rank = r;
      rank_src = i;
    } else if (r != rank) {
      return ctx.Error("input ", i, " ", in[i]->ToString(), " has rank ", r, " but input ",
                       rank_src, " ", in[rank_src]->ToString(), " has rank ", rank);
    }
  }
  if (rank < 0) return UnknownRankShape();
  if (rank == 0) return ctx.Error("cannot concatenate scalars (input ", rank_src, ")");
  ASSIGN_OR_RETURN(axis, WithNodeOr(ctx, NormalizeAxis(axis, rank)));
  if (axis_out != nullptr) *axis_out = axis;
  gert::Shape out = *in[rank_src];
  int64_t axis_sum = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i]->IsUnknownRank()) {
      axis_sum = -1;
      continue;
    }
    for (int64_t d = 0; d < rank; ++d) {
      const int64_t v = in[i]->GetDim(d);
      if (d == axis) {
        if (v < 0 || axis_sum < 0) {
          axis_sum = -1;
        } else if (__builtin_add_overflow(axis_sum, v, &axis_sum)) {
          return ctx.ErrorWithCode(ge::ErrorCode::kOverflow, "concatenated dim overflows");
        }
        continue;
      }
      const int64_t cur = out.GetDim(d);
      if (cur < 0) {
        out.SetDim(d, v);
      } else if (v >= 0 && v != cur) {
        return ctx.Error("input ", i, " ", in[i]->ToString(), " has dim ", d, " = ", v,
                         " but another input has ", cur, " (only axis ", axis, " may differ)");
      }
    }
  }
  out.SetDim(axis, axis_sum);
  return out;
}

ge::Status InferConcat(gert::InferShapeContext& ctx) {
  std::vector<const gert::Shape*> shapes;
  for (size_t i = 0; i < ctx.GetInputNum(); ++i) {
    ASSIGN_OR_RETURN(const gert::Shape* s, InputShape(ctx, i));
    shapes.push_back(s);
  }
  int64_t axis = 0;
  ASSIGN_OR_RETURN(gert::Shape out, ConcatShape(ctx, shapes, &axis));
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (!AnyInputRange(ctx) || out.IsUnknownRank()) return ge::OkStatus();
  // The axis sums the inputs' ranges; the other dims must agree.
  gert::ShapeRange range;
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (shapes[i]->IsUnknownRank()) return ge::OkStatus();
    ASSIGN_OR_RETURN(gert::ShapeRange r, InputRange(ctx, i));
    if (i == 0) {
      range = std::move(r);
      continue;
    }
    for (size_t d = 0; d < r.size(); ++d) {
      if (static_cast<int64_t>(d) == axis) {
        range[d] = AddDimRange(range[d], r[d]);
        continue;
      }
      ge::StatusOr<DimRange> m = IntersectDimRange(range[d], r[d]);
      if (!m.ok()) {
        return ctx.Error("input ", i, " dim ", d, " range ", DimRangeString(r[d]),
                         " conflicts with the other inputs' ", DimRangeString(range[d]));
      }
      range[d] = *m;
    }
  }
  return SetOutputRange(ctx, 0, std::move(range));
}

ge::Status ConcatKernel(gert::KernelContext& ctx) {
  std::vector<const gert::Tensor*> in;
  std::vector<const gert::Shape*> shapes;
  for (size_t i = 0; i < ctx.GetInputNum(); ++i) {
    ASSIGN_OR_RETURN(const gert::Tensor* t, GetKernelInput(ctx, i));
    if (t->GetDataType() != ctx.GetInputTensor(0)->GetDataType()) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input ", i, " is ",
                               DataTypeName(t->GetDataType()), " but input 0 is ",
                               DataTypeName(ctx.GetInputTensor(0)->GetDataType()));
    }
    in.push_back(t);
    shapes.push_back(&t->GetShape());
  }
  int64_t axis = 0;
  ASSIGN_OR_RETURN(gert::Shape out, ConcatShape(ctx, shapes, &axis));
  const ge::DataType dt = in[0]->GetDataType();
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, out, dt));
  if (out.GetShapeSize() == 0) return ge::OkStatus();
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= out.GetDim(d);
  for (size_t d = axis + 1; d < out.GetDimNum(); ++d) inner *= out.GetDim(d);
  return DispatchMoveFor(ctx, dt, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = y->GetData<T>();
    for (int64_t b = 0; b < outer; ++b) {
      for (const gert::Tensor* t : in) {
        const int64_t chunk = t->GetShape().GetDim(axis) * inner;
        o = std::copy_n(t->GetData<T>() + b * chunk, chunk, o);
      }
    }
    return ge::OkStatus();
  });
}

// -------------------------------------------------------------------- Split

// Sizes of the n outputs along axis (dim may be -1: then -1 sizes unless
// split is known). split: nullopt = equal split.
ge::StatusOr<std::vector<int64_t>> SplitSizes(const gert::ContextBase& ctx, int64_t dim, size_t n,
                                              const std::optional<std::vector<int64_t>>& split) {
  if (n == 0) return ctx.Error("Split has no outputs");
  if (split.has_value()) {
    if (split->size() != n) {
      return ctx.Error("split input [", absl::StrJoin(*split, ","), "] has ", split->size(),
                       " values for ", n, " outputs");
    }
    int64_t sum = 0;
    for (int64_t v : *split) {
      if (v < 0) {
        return ctx.Error("split input [", absl::StrJoin(*split, ","), "] has a negative size");
      }
      if (__builtin_add_overflow(sum, v, &sum)) return ctx.Error("split sizes overflow");
    }
    if (dim >= 0 && sum != dim) {
      return ctx.Error("split input [", absl::StrJoin(*split, ","), "] sums to ", sum,
                       " but the split axis has size ", dim);
    }
    return *split;
  }
  if (dim < 0) return std::vector<int64_t>(n, -1);
  if (dim % static_cast<int64_t>(n) != 0) {
    return ctx.Error("axis of size ", dim, " cannot be split equally into ", n, " outputs");
  }
  return std::vector<int64_t>(n, dim / static_cast<int64_t>(n));
}

ge::Status InferSplit(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  const size_t n = ctx.GetOutputNum();
  if (x->IsUnknownRank()) {
    for (size_t i = 0; i < n; ++i) RETURN_IF_ERROR(SetOutputShape(ctx, i, UnknownRankShape()));
    return ge::OkStatus();
  }
  ASSIGN_OR_RETURN(int64_t axis, ctx.GetIntOr("axis", 0));
  ASSIGN_OR_RETURN(axis,
                   WithNodeOr(ctx, NormalizeAxis(axis, static_cast<int64_t>(x->GetDimNum()))));
  std::optional<std::vector<int64_t>> split;
  bool split_unknown = false;
  if (ctx.GetInputShape(1) != nullptr) {
    ASSIGN_OR_RETURN(split, WithNodeOr(ctx, KnownInputInts(ctx, 1)));
    split_unknown = !split.has_value();
  }
  std::vector<int64_t> sizes(n, -1);
  if (!split_unknown) {
    ASSIGN_OR_RETURN(sizes, SplitSizes(ctx, x->GetDim(axis), n, split));
  }
  for (size_t i = 0; i < n; ++i) {
    gert::Shape s = *x;
    s.SetDim(axis, sizes[i]);
    RETURN_IF_ERROR(SetOutputShape(ctx, i, s));
  }
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  // Other dims keep the input's range; an unknown piece of the axis is at
  // most the whole axis (an equal split: the axis range divided by n).
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  for (size_t i = 0; i < n; ++i) {
    gert::ShapeRange r = xr;
    const DimRange whole = xr[axis];
    r[axis] = split.has_value() || split_unknown ? DimRange{0, whole.second}
                                                 : DivDimRange(whole, static_cast<int64_t>(n));
    RETURN_IF_ERROR(SetOutputRange(ctx, i, std::move(r)));
  }
  return ge::OkStatus();
}

ge::Status SplitKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const gert::Shape& xs = x->GetShape();
  ASSIGN_OR_RETURN(int64_t axis, ctx.GetIntOr("axis", 0));
  ASSIGN_OR_RETURN(axis,
                   WithNodeOr(ctx, NormalizeAxis(axis, static_cast<int64_t>(xs.GetDimNum()))));
  std::optional<std::vector<int64_t>> split;
  if (ctx.GetInputTensor(1) != nullptr) {
    ASSIGN_OR_RETURN(split, WithNodeOr(ctx, ReadIntTensor(*ctx.GetInputTensor(1))));
  }
  const size_t n = ctx.GetOutputNum();
  ASSIGN_OR_RETURN(std::vector<int64_t> sizes, SplitSizes(ctx, xs.GetDim(axis), n, split));
  std::vector<gert::Tensor*> outs(n);
  for (size_t i = 0; i < n; ++i) {
    gert::Shape s = xs;
    s.SetDim(axis, sizes[i]);
    ASSIGN_OR_RETURN(outs[i], PrepareOutput(ctx, i, s, x->GetDataType()));
  }
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= xs.GetDim(d);
  for (size_t d = axis + 1; d < xs.GetDimNum(); ++d) inner *= xs.GetDim(d);
  const int64_t row = xs.GetDim(axis) * inner;
  return DispatchMoveFor(ctx, x->GetDataType(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* src = x->GetData<T>();
    int64_t offset = 0;
    for (size_t i = 0; i < n; ++i) {
      const int64_t chunk = sizes[i] * inner;
      T* o = outs[i]->GetData<T>();
      for (int64_t b = 0; b < outer && chunk > 0; ++b) {
        o = std::copy_n(src + b * row + offset, chunk, o);
      }
      offset += chunk;
    }
    return ge::OkStatus();
  });
}

// -------------------------------------------------------------------- Slice

struct SliceAxis {
  int64_t start = 0;
  int64_t step = 1;
  int64_t count = 0;
};

// ONNX slice of one axis of size dim (>= 0).
ge::StatusOr<SliceAxis> SliceOneAxis(const gert::ContextBase& ctx, int64_t axis, int64_t dim,
                                     int64_t start, int64_t end, int64_t step) {
  if (step == 0) return ctx.Error("slice step for axis ", axis, " is 0");
  if (start < 0) start += dim;  // no overflow: start < 0 <= dim
  if (end < 0) end += dim;
  SliceAxis s;
  s.step = step;
  if (step > 0) {
    start = std::clamp<int64_t>(start, 0, dim);
    end = std::clamp<int64_t>(end, 0, dim);
    s.count = end > start ? (end - start + step - 1) / step : 0;
  } else {
    start = std::clamp<int64_t>(start, 0, dim - 1);
    end = std::clamp<int64_t>(end, -1, dim - 1);
    // -step may overflow for INT64_MIN; (start - end) <= dim so divide safely.
    const uint64_t neg_step = static_cast<uint64_t>(-(step + 1)) + 1;
    s.count =
        start > end
            ? static_cast<int64_t>((static_cast<uint64_t>(start - end) + neg_step - 1) / neg_step)
            : 0;
  }
  s.start = start;
  return s;
}

struct SliceSpec {
  std::vector<int64_t> starts, ends, axes, steps;
};

// Validates lengths and normalises axes (default 0..n-1), steps (default 1).
ge::Status NormalizeSliceSpec(const gert::ContextBase& ctx, int64_t rank, SliceSpec* spec,
                              bool has_axes, bool has_steps) {
  const size_t n = spec->starts.size();
  if (spec->ends.size() != n) {
    return ctx.Error("starts has ", n, " values but ends has ", spec->ends.size());
  }
  if (!has_axes) {
    spec->axes.resize(n);
    std::iota(spec->axes.begin(), spec->axes.end(), 0);
  } else if (spec->axes.size() != n) {
    return ctx.Error("starts has ", n, " values but axes has ", spec->axes.size());
  }
  if (!has_steps) {
    spec->steps.assign(n, 1);
  } else if (spec->steps.size() != n) {
    return ctx.Error("starts has ", n, " values but steps has ", spec->steps.size());
  }
  ASSIGN_OR_RETURN(spec->axes, WithNodeOr(ctx, NormalizeAxes(spec->axes, rank)));
  return ge::OkStatus();
}

// Output shape and per-axis slices (axes not sliced: start 0, step 1).
ge::StatusOr<gert::Shape> SliceShape(const gert::ContextBase& ctx, const gert::Shape& x,
                                     const SliceSpec& spec, std::vector<SliceAxis>* axes) {
  const size_t r = x.GetDimNum();
  std::vector<SliceAxis> per(r);
  gert::Shape out = x;
  for (size_t k = 0; k < r; ++k) per[k] = SliceAxis{0, 1, x.GetDim(k)};
  for (size_t i = 0; i < spec.axes.size(); ++i) {
    const int64_t a = spec.axes[i];
    const int64_t dim = x.GetDim(a);
    if (spec.steps[i] == 0) return ctx.Error("slice step for axis ", a, " is 0");
    if (dim < 0) {
      out.SetDim(a, -1);
      continue;
    }
    ASSIGN_OR_RETURN(per[a],
                     SliceOneAxis(ctx, a, dim, spec.starts[i], spec.ends[i], spec.steps[i]));
    out.SetDim(a, per[a].count);
  }
  if (axes != nullptr) *axes = std::move(per);
  return out;
}

ge::Status InferSlice(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Shape* starts_shape, InputShape(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Shape* ends_shape, InputShape(ctx, 2));
  for (const gert::Shape* s :
       {starts_shape, ends_shape, ctx.GetInputShape(3), ctx.GetInputShape(4)}) {
    if (s != nullptr && !s->IsUnknownRank() && s->GetDimNum() != 1) {
      return ctx.Error("starts / ends / axes / steps must be 1-D, got ", s->ToString());
    }
  }
  if (x->IsUnknownRank()) return SetOutputShape(ctx, 0, UnknownRankShape());
  const int64_t r = static_cast<int64_t>(x->GetDimNum());
  const bool has_axes = ctx.GetInputShape(3) != nullptr;
  const bool has_steps = ctx.GetInputShape(4) != nullptr;
  SliceSpec spec;
  std::optional<std::vector<int64_t>> v[4];
  for (int i = 0; i < 4; ++i) {
    if (i >= 2 && ctx.GetInputShape(i + 1) == nullptr) continue;
    ASSIGN_OR_RETURN(v[i], WithNodeOr(ctx, KnownInputInts(ctx, i + 1)));
  }
  const bool known = v[0].has_value() && v[1].has_value() && (!has_axes || v[2].has_value()) &&
                     (!has_steps || v[3].has_value());
  std::vector<bool> sliced(static_cast<size_t>(r), true);
  gert::Shape out = *x;
  if (!known) {
    // Only the sliced axes change; which those are needs axes (or their count).
    if (has_axes && v[2].has_value()) {
      ASSIGN_OR_RETURN(std::vector<int64_t> axes, WithNodeOr(ctx, NormalizeAxes(*v[2], r)));
      sliced.assign(static_cast<size_t>(r), false);
      for (int64_t a : axes) {
        out.SetDim(a, -1);
        sliced[a] = true;
      }
    } else if (!has_axes && !starts_shape->IsUnknownShape()) {
      // Default axes: the first len(starts) axes.
      const int64_t n = starts_shape->GetDim(0);
      if (n > r) return ctx.Error("starts has ", n, " values for input rank ", r);
      sliced.assign(static_cast<size_t>(r), false);
      for (int64_t a = 0; a < n; ++a) {
        out.SetDim(a, -1);
        sliced[a] = true;
      }
    } else {
      out = UnknownDimsShape(r);
    }
  } else {
    spec.starts = *v[0];
    spec.ends = *v[1];
    if (has_axes) spec.axes = *v[2];
    if (has_steps) spec.steps = *v[3];
    RETURN_IF_ERROR(NormalizeSliceSpec(ctx, r, &spec, has_axes, has_steps));
    ASSIGN_OR_RETURN(out, SliceShape(ctx, *x, spec, nullptr));
    sliced.assign(static_cast<size_t>(r), false);
    for (int64_t a : spec.axes) sliced[a] = true;
  }
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  // A sliced axis holds at most the input's extent; the others are copied.
  ASSIGN_OR_RETURN(gert::ShapeRange range, InputRange(ctx, 0));
  for (int64_t d = 0; d < r; ++d) {
    if (sliced[d]) range[d] = DimRange{0, range[d].second};
  }
  return SetOutputRange(ctx, 0, std::move(range));
}

ge::Status SliceKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const gert::Shape& xs = x->GetShape();
  SliceSpec spec;
  std::vector<int64_t>* dst[4] = {&spec.starts, &spec.ends, &spec.axes, &spec.steps};
  bool present[4] = {true, true, false, false};
  for (size_t i = 0; i < 4; ++i) {
    const gert::Tensor* t = ctx.GetInputTensor(i + 1);
    if (t == nullptr) {
      if (i < 2) return ctx.Error("input ", i + 1, " is missing");
      continue;
    }
    present[i] = true;
    ASSIGN_OR_RETURN(*dst[i], WithNodeOr(ctx, ReadIntTensor(*t)));
  }
  RETURN_IF_ERROR(
      NormalizeSliceSpec(ctx, static_cast<int64_t>(xs.GetDimNum()), &spec, present[2], present[3]));
  std::vector<SliceAxis> per;
  ASSIGN_OR_RETURN(gert::Shape out, SliceShape(ctx, xs, spec, &per));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, out, x->GetDataType()));
  const std::vector<int64_t> strides = RowMajorStrides(xs.GetDims());
  std::vector<std::vector<int64_t>> maps(per.size());
  for (size_t k = 0; k < per.size(); ++k) {
    maps[k].resize(per[k].count);
    for (int64_t i = 0; i < per[k].count; ++i) {
      maps[k][i] = (per[k].start + i * per[k].step) * strides[k];
    }
  }
  return WithNode(ctx, AxisMapCopy(*x, maps, nullptr, y));
}

// ---------------------------------------------------------------------- Pad

enum class PadMode { kConstant, kReflect, kEdge, kWrap };

ge::StatusOr<PadMode> GetPadMode(const gert::ContextBase& ctx) {
  ASSIGN_OR_RETURN(std::string mode, ctx.GetStrOr("mode", "constant"));
  if (mode == "constant") return PadMode::kConstant;
  if (mode == "reflect") return PadMode::kReflect;
  if (mode == "edge") return PadMode::kEdge;
  if (mode == "wrap") return PadMode::kWrap;
  return ctx.Error("unknown pad mode \"", mode, "\" (expected constant, reflect, edge or wrap)");
}

// Per-axis [begin, end] pads for rank r from the pads and (optional) axes.
ge::StatusOr<std::vector<std::pair<int64_t, int64_t>>> PerAxisPads(
    const gert::ContextBase& ctx, int64_t r, absl::Span<const int64_t> pads,
    const std::optional<std::vector<int64_t>>& axes_in) {
  std::vector<int64_t> axes;
  if (axes_in.has_value()) {
    ASSIGN_OR_RETURN(axes, WithNodeOr(ctx, NormalizeAxes(*axes_in, r)));
  } else {
    axes.resize(r);
    std::iota(axes.begin(), axes.end(), 0);
  }
  if (pads.size() != 2 * axes.size()) {
    return ctx.Error("pads has ", pads.size(), " values; expected ", 2 * axes.size(),
                     " (2 per padded axis)");
  }
  std::vector<std::pair<int64_t, int64_t>> per(r, {0, 0});
  for (size_t i = 0; i < axes.size(); ++i) per[axes[i]] = {pads[i], pads[i + axes.size()]};
  return per;
}

ge::StatusOr<gert::Shape> PadShape(const gert::ContextBase& ctx, const gert::Shape& x,
                                   const std::vector<std::pair<int64_t, int64_t>>& per) {
  gert::Shape out = x;
  for (size_t k = 0; k < x.GetDimNum(); ++k) {
    const int64_t d = x.GetDim(k);
    if (d < 0) continue;
    int64_t o = 0;
    if (__builtin_add_overflow(d, per[k].first, &o) ||
        __builtin_add_overflow(o, per[k].second, &o)) {
      return ctx.ErrorWithCode(ge::ErrorCode::kOverflow, "padded dim ", k, " overflows");
    }
    if (o < 0) {
      return ctx.Error("pads (", per[k].first, ", ", per[k].second, ") on axis ", k, " of size ", d,
                       " give a negative size ", o);
    }
    out.SetDim(k, o);
  }
  return out;
}

ge::Status InferPad(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  RETURN_IF_ERROR(GetPadMode(ctx).status());
  if (x->IsUnknownRank()) return SetOutputShape(ctx, 0, UnknownRankShape());
  const int64_t r = static_cast<int64_t>(x->GetDimNum());
  ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> pads,
                   WithNodeOr(ctx, KnownInputInts(ctx, 1)));
  std::optional<std::vector<int64_t>> axes;
  bool axes_unknown = false;
  if (ctx.GetInputShape(3) != nullptr) {
    ASSIGN_OR_RETURN(axes, WithNodeOr(ctx, KnownInputInts(ctx, 3)));
    axes_unknown = !axes.has_value();
  }
  if (!pads.has_value() || axes_unknown) return SetOutputShape(ctx, 0, UnknownDimsShape(r));
  ASSIGN_OR_RETURN(auto per, PerAxisPads(ctx, r, *pads, axes));
  ASSIGN_OR_RETURN(gert::Shape out, PadShape(ctx, *x, per));
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  ASSIGN_OR_RETURN(gert::ShapeRange range, InputRange(ctx, 0));
  for (int64_t d = 0; d < r; ++d) {
    const int64_t add = per[d].first + per[d].second;  // may be negative (cropping)
    range[d] = MapDimRange(range[d], [add](int64_t v) { return v + add; });
  }
  return SetOutputRange(ctx, 0, std::move(range));
}

// Source index along one axis for output index i, or -1 (constant fill).
int64_t PadSource(PadMode mode, int64_t i, int64_t begin, int64_t dim) {
  const int64_t src = i - begin;
  if (src >= 0 && src < dim) return src;
  switch (mode) {
    case PadMode::kConstant:
      return -1;
    case PadMode::kEdge:
      return src < 0 ? 0 : dim - 1;
    case PadMode::kWrap:
      return ((src % dim) + dim) % dim;
    case PadMode::kReflect: {
      if (dim == 1) return 0;
      const int64_t period = 2 * (dim - 1);
      const int64_t m = ((src % period) + period) % period;
      return m < dim ? m : period - m;
    }
  }
  return -1;
}

ge::Status PadKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* pads_t, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(PadMode mode, GetPadMode(ctx));
  const gert::Shape& xs = x->GetShape();
  const int64_t r = static_cast<int64_t>(xs.GetDimNum());
  ASSIGN_OR_RETURN(std::vector<int64_t> pads, WithNodeOr(ctx, ReadIntTensor(*pads_t)));
  std::optional<std::vector<int64_t>> axes;
  if (ctx.GetInputTensor(3) != nullptr) {
    ASSIGN_OR_RETURN(axes, WithNodeOr(ctx, ReadIntTensor(*ctx.GetInputTensor(3))));
  }
  ASSIGN_OR_RETURN(auto per, PerAxisPads(ctx, r, pads, axes));
  ASSIGN_OR_RETURN(gert::Shape out, PadShape(ctx, xs, per));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, out, x->GetDataType()));
  const gert::Tensor* cv = ctx.GetInputTensor(2);
  const void* fill = nullptr;
  if (cv != nullptr && mode == PadMode::kConstant) {
    RETURN_IF_ERROR(WithNode(ctx, CheckTensorData(*cv)));
    if (cv->GetDataType() != x->GetDataType()) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "constant_value is ",
                               DataTypeName(cv->GetDataType()), " but data is ",
                               DataTypeName(x->GetDataType()));
    }
    if (cv->GetShapeSize() > 1) {
      return ctx.Error("constant_value must have one element, got ", cv->GetShape().ToString());
    }
    if (cv->GetShapeSize() == 1) fill = cv->GetAddr();
  }
  const std::vector<int64_t> strides = RowMajorStrides(xs.GetDims());
  std::vector<std::vector<int64_t>> maps(r);
  for (int64_t k = 0; k < r; ++k) {
    const int64_t dim = xs.GetDim(k);
    const int64_t od = out.GetDim(k);
    if (dim == 0 && od > 0 && mode != PadMode::kConstant) {
      return ctx.Error("cannot pad empty axis ", k, " in a non-constant mode");
    }
    maps[k].resize(od);
    for (int64_t i = 0; i < od; ++i) {
      const int64_t s = PadSource(mode, i, per[k].first, dim);
      maps[k][i] = s < 0 ? -1 : s * strides[k];
    }
  }
  return WithNode(ctx, AxisMapCopy(*x, maps, fill, y));
}

// --------------------------------------------------------------------- Tile

ge::StatusOr<gert::Shape> TileShape(const gert::ContextBase& ctx, const gert::Shape& x,
                                    absl::Span<const int64_t> repeats) {
  if (repeats.size() != x.GetDimNum()) {
    return ctx.Error("repeats has ", repeats.size(), " values but the input ", x.ToString(),
                     " has rank ", x.GetDimNum());
  }
  gert::Shape out = x;
  for (size_t k = 0; k < repeats.size(); ++k) {
    if (repeats[k] < 0) return ctx.Error("repeats[", k, "] = ", repeats[k], " is negative");
    const int64_t d = x.GetDim(k);
    if (d < 0) continue;
    int64_t o;
    if (__builtin_mul_overflow(d, repeats[k], &o)) {
      return ctx.ErrorWithCode(ge::ErrorCode::kOverflow, "tiled dim ", k, " overflows");
    }
    out.SetDim(k, o);
  }
  return out;
}

ge::Status InferTile(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Shape* rep, InputShape(ctx, 1));
  if (!rep->IsUnknownRank() && rep->GetDimNum() != 1) {
    return ctx.Error("repeats must be 1-D, got ", rep->ToString());
  }
  ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> repeats,
                   WithNodeOr(ctx, KnownInputInts(ctx, 1)));
  if (x->IsUnknownRank()) {
    const int64_t n = rep->IsUnknownRank() ? -1 : rep->GetDim(0);
    return SetOutputShape(ctx, 0, UnknownDimsShape(n));
  }
  if (!repeats.has_value()) {
    return SetOutputShape(ctx, 0, UnknownDimsShape(static_cast<int64_t>(x->GetDimNum())));
  }
  ASSIGN_OR_RETURN(gert::Shape out, TileShape(ctx, *x, *repeats));
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  ASSIGN_OR_RETURN(gert::ShapeRange range, InputRange(ctx, 0));
  for (size_t d = 0; d < range.size() && d < repeats->size(); ++d) {
    range[d] = ScaleDimRange(range[d], (*repeats)[d]);
  }
  return SetOutputRange(ctx, 0, std::move(range));
}

ge::Status TileKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* rep, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(std::vector<int64_t> repeats, WithNodeOr(ctx, ReadIntTensor(*rep)));
  const gert::Shape& xs = x->GetShape();
  ASSIGN_OR_RETURN(gert::Shape out, TileShape(ctx, xs, repeats));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, out, x->GetDataType()));
  const std::vector<int64_t> strides = RowMajorStrides(xs.GetDims());
  std::vector<std::vector<int64_t>> maps(xs.GetDimNum());
  for (size_t k = 0; k < maps.size(); ++k) {
    const int64_t d = xs.GetDim(k);
    maps[k].resize(out.GetDim(k));
    for (int64_t i = 0; i < out.GetDim(k); ++i) maps[k][i] = (i % d) * strides[k];
  }
  return WithNode(ctx, AxisMapCopy(*x, maps, nullptr, y));
}

// ------------------------------------------------------------------- Expand

ge::StatusOr<gert::Shape> ExpandShape(const gert::ContextBase& ctx, const gert::Shape& x,
                                      absl::Span<const int64_t> shape) {
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] < 0) {
      return ctx.Error("shape input [", absl::StrJoin(shape, ","), "] has a negative dim at ", i);
    }
  }
  ASSIGN_OR_RETURN(gert::Shape target, WithNodeOr(ctx, ShapeFromDims(shape)));
  gert::Shape out;
  ge::Status st = InferBroadcastShape(x, target, &out);
  if (!st.ok()) {
    return ctx.Error("cannot expand input ", x.ToString(), " to shape ", target.ToString(), ": ",
                     st.message());
  }
  return out;
}

ge::Status InferExpand(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Shape* s, InputShape(ctx, 1));
  if (!s->IsUnknownRank() && s->GetDimNum() != 1) {
    return ctx.Error("shape input must be 1-D, got ", s->ToString());
  }
  ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> shape,
                   WithNodeOr(ctx, KnownInputInts(ctx, 1)));
  if (!shape.has_value()) {
    const int64_t n = s->IsUnknownRank() ? -1 : s->GetDim(0);
    if (x->IsUnknownRank() || n < 0) return SetOutputShape(ctx, 0, UnknownRankShape());
    return SetOutputShape(ctx, 0, UnknownDimsShape(std::max<int64_t>(n, x->GetDimNum())));
  }
  ASSIGN_OR_RETURN(gert::Shape out, ExpandShape(ctx, *x, *shape));
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (!AnyInputRange(ctx) || x->IsUnknownRank()) return ge::OkStatus();
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  gert::ShapeRange target;
  for (int64_t d : *shape) target.push_back(DimRangeOf(d));
  const gert::ShapeRange* rs[] = {&xr, &target};
  ge::StatusOr<gert::ShapeRange> range = BroadcastShapeRanges(rs);
  if (!range.ok()) {
    return ctx.Error("input range ", ShapeRangeString(xr), " cannot expand to shape [",
                     absl::StrJoin(*shape, ","), "]: ", range.status().message());
  }
  return SetOutputRange(ctx, 0, *std::move(range));
}

ge::Status ExpandKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* s, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(std::vector<int64_t> shape, WithNodeOr(ctx, ReadIntTensor(*s)));
  const gert::Shape& xs = x->GetShape();
  ASSIGN_OR_RETURN(gert::Shape out, ExpandShape(ctx, xs, shape));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, out, x->GetDataType()));
  const std::vector<int64_t> strides = RowMajorStrides(xs.GetDims());
  const int64_t R = static_cast<int64_t>(out.GetDimNum());
  const int64_t r = static_cast<int64_t>(xs.GetDimNum());
  std::vector<std::vector<int64_t>> maps(R);
  for (int64_t k = 0; k < R; ++k) {
    const int64_t j = k - (R - r);
    maps[k].assign(out.GetDim(k), 0);
    if (j < 0 || xs.GetDim(j) == 1) continue;
    for (int64_t i = 0; i < out.GetDim(k); ++i) maps[k][i] = i * strides[j];
  }
  return WithNode(ctx, AxisMapCopy(*x, maps, nullptr, y));
}

// -------------------------------------------------------------------- Trilu

ge::Status InferTrilu(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  if (!x->IsUnknownRank() && x->GetDimNum() < 2) {
    return ctx.Error("input must have rank >= 2, got ", x->ToString());
  }
  const gert::Shape* k = ctx.GetInputShape(1);
  if (k != nullptr && !k->IsUnknownRank() && k->GetShapeSize() > 1) {
    return ctx.Error("k must be a scalar, got ", k->ToString());
  }
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, *x));
  return CopyInputRange(ctx, 0, 0);
}

ge::Status TriluKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const gert::Shape& xs = x->GetShape();
  if (xs.GetDimNum() < 2) return ctx.Error("input must have rank >= 2, got ", xs.ToString());
  ASSIGN_OR_RETURN(bool upper, ctx.GetBoolOr("upper", true));
  int64_t k = 0;
  if (ctx.GetInputTensor(1) != nullptr) {
    ASSIGN_OR_RETURN(std::vector<int64_t> kv,
                     WithNodeOr(ctx, ReadIntTensor(*ctx.GetInputTensor(1))));
    if (kv.size() != 1) return ctx.Error("k must have one value, got ", kv.size());
    k = kv[0];
  }
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, xs, x->GetDataType()));
  const int64_t rows = xs.GetDim(xs.GetDimNum() - 2);
  const int64_t cols = xs.GetDim(xs.GetDimNum() - 1);
  const int64_t total = xs.GetShapeSize();
  const int64_t mat = rows * cols;
  if (mat == 0) return ge::OkStatus();
  // Clamping k keeps i + k from overflowing without changing the result.
  const int64_t kc = std::clamp<int64_t>(k, -rows - 1, cols + 1);
  return DispatchMoveFor(ctx, x->GetDataType(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = x->GetData<T>();
    T* out = y->GetData<T>();
    for (int64_t m = 0; m < total; m += mat) {
      for (int64_t i = 0; i < rows; ++i) {
        // Keep j >= i + k (upper) or j <= i + k (lower).
        const int64_t lo = upper ? std::clamp<int64_t>(i + kc, 0, cols) : 0;
        const int64_t hi = upper ? cols : std::clamp<int64_t>(i + kc + 1, 0, cols);
        const T* src = in + m + i * cols;
        T* dst = out + m + i * cols;
        std::fill(dst, dst + lo, T{});
        std::copy(src + lo, src + hi, dst + lo);
        std::fill(dst + hi, dst + cols, T{});
      }
    }
    return ge::OkStatus();
  });
}

// ---------------------------------------------------------- ReverseSequence

struct ReverseSeqAxes {
  int64_t batch = 1;
  int64_t time = 0;
};

ge::StatusOr<ReverseSeqAxes> GetReverseSeqAxes(const gert::ContextBase& ctx) {
  ReverseSeqAxes a;
  ASSIGN_OR_RETURN(a.batch, ctx.GetIntOr("batch_axis", 1));
  ASSIGN_OR_RETURN(a.time, ctx.GetIntOr("time_axis", 0));
  if (!((a.batch == 0 && a.time == 1) || (a.batch == 1 && a.time == 0))) {
    return ctx.Error("batch_axis ", a.batch, " and time_axis ", a.time,
                     " must be 0 and 1 in some order");
  }
  return a;
}

ge::Status InferReverseSequence(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Shape* lens, InputShape(ctx, 1));
  ASSIGN_OR_RETURN(ReverseSeqAxes axes, GetReverseSeqAxes(ctx));
  if (!x->IsUnknownRank() && x->GetDimNum() < 2) {
    return ctx.Error("input must have rank >= 2, got ", x->ToString());
  }
  if (!lens->IsUnknownRank()) {
    if (lens->GetDimNum() != 1) {
      return ctx.Error("sequence_lens must be 1-D, got ", lens->ToString());
    }
    const int64_t b = x->IsUnknownRank() ? -1 : x->GetDim(axes.batch);
    if (b >= 0 && lens->GetDim(0) >= 0 && lens->GetDim(0) != b) {
      return ctx.Error("sequence_lens ", lens->ToString(), " does not match batch size ", b,
                       " of input ", x->ToString());
    }
  }
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, *x));
  if (!AnyInputRange(ctx) || x->IsUnknownRank()) return ge::OkStatus();
  // x's range, its batch dim also bounded by sequence_lens' length.
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  ASSIGN_OR_RETURN(gert::ShapeRange lr, InputRange(ctx, 1));
  if (lr.size() == 1) {
    const size_t b = static_cast<size_t>(axes.batch);
    ge::StatusOr<DimRange> d = IntersectDimRange(xr[b], lr[0]);
    if (!d.ok()) {
      return ctx.Error("sequence_lens range ", ShapeRangeString(lr), " conflicts with batch dim ",
                       b, " of input 0: ", d.status().message());
    }
    xr[b] = *d;
  }
  return SetOutputRange(ctx, 0, std::move(xr));
}

ge::Status ReverseSequenceKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* lens_t, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(ReverseSeqAxes axes, GetReverseSeqAxes(ctx));
  const gert::Shape& xs = x->GetShape();
  if (xs.GetDimNum() < 2) return ctx.Error("input must have rank >= 2, got ", xs.ToString());
  ASSIGN_OR_RETURN(std::vector<int64_t> lens, WithNodeOr(ctx, ReadIntTensor(*lens_t)));
  const int64_t batch = xs.GetDim(axes.batch);
  const int64_t time = xs.GetDim(axes.time);
  if (static_cast<int64_t>(lens.size()) != batch) {
    return ctx.Error("sequence_lens has ", lens.size(), " values for batch size ", batch);
  }
  for (size_t b = 0; b < lens.size(); ++b) {
    if (lens[b] < 0 || lens[b] > time) {
      return ctx.ErrorWithCode(ge::ErrorCode::kOutOfRange, "sequence_lens[", b, "] = ", lens[b],
                               " is outside [0, ", time, "]");
    }
  }
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, xs, x->GetDataType()));
  const std::vector<int64_t> strides = RowMajorStrides(xs.GetDims());
  const int64_t inner = strides[1];  // elements after axes 0 and 1
  const int64_t bs = strides[axes.batch], ts = strides[axes.time];
  return DispatchMoveFor(ctx, x->GetDataType(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = x->GetData<T>();
    T* out = y->GetData<T>();
    for (int64_t b = 0; b < batch; ++b) {
      for (int64_t t = 0; t < time; ++t) {
        const int64_t src_t = t < lens[b] ? lens[b] - 1 - t : t;
        std::copy_n(in + b * bs + src_t * ts, inner, out + b * bs + t * ts);
      }
    }
    return ge::OkStatus();
  });
}

// ------------------------------------------------------------- registration

REG_OP(Transpose)
    .Input("data", ArrayTensorTypes())
    .Output("transposed", ArrayTensorTypes())
    .InferShape(InferTranspose);
REG_KERNEL(Transpose, ge::kEngineHostCpu).Fn(TransposeKernel);

REG_OP(Concat)
    .DynamicInput("inputs", ArrayTensorTypes())
    .Output("concat_result", ArrayTensorTypes())
    .RequiredAttr("axis", ge::AttrValue::VT_INT)
    .InferShape(InferConcat)
    .Verify(VerifyConcat);
REG_KERNEL(Concat, ge::kEngineHostCpu).Fn(ConcatKernel);

REG_OP(Split)
    .Input("input", ArrayTensorTypes())
    .OptionalInput("split", kInt64)
    .DynamicOutput("outputs", ArrayTensorTypes())
    .Attr("axis", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferSplit)
    .ValueDependentInput("split");
REG_KERNEL(Split, ge::kEngineHostCpu).Fn(SplitKernel);

REG_OP(Slice)
    .Input("data", ArrayTensorTypes())
    .Input("starts", IndexTensorTypes())
    .Input("ends", IndexTensorTypes())
    .OptionalInput("axes", IndexTensorTypes())
    .OptionalInput("steps", IndexTensorTypes())
    .Output("output", ArrayTensorTypes())
    .InferShape(InferSlice)
    .ValueDependentInput("starts")
    .ValueDependentInput("ends")
    .ValueDependentInput("axes")
    .ValueDependentInput("steps");
REG_KERNEL(Slice, ge::kEngineHostCpu).Fn(SliceKernel);

REG_OP(Pad)
    .Input("data", ArrayTensorTypes())
    .Input("pads", kInt64)
    .OptionalInput("constant_value", ArrayTensorTypes())
    .OptionalInput("axes", IndexTensorTypes())
    .Output("output", ArrayTensorTypes())
    .Attr("mode", ge::AttrValue::CreateFrom<std::string>("constant"))
    .InferShape(InferPad)
    .Verify(VerifyPad)
    .ValueDependentInput("pads")
    .ValueDependentInput("axes");
REG_KERNEL(Pad, ge::kEngineHostCpu).Fn(PadKernel);

REG_OP(Tile)
    .Input("input", ArrayTensorTypes())
    .Input("repeats", kInt64)
    .Output("output", ArrayTensorTypes())
    .InferShape(InferTile)
    .ValueDependentInput("repeats");
REG_KERNEL(Tile, ge::kEngineHostCpu).Fn(TileKernel);

REG_OP(Expand)
    .Input("input", ArrayTensorTypes())
    .Input("shape", kInt64)
    .Output("output", ArrayTensorTypes())
    .InferShape(InferExpand)
    .ValueDependentInput("shape");
REG_KERNEL(Expand, ge::kEngineHostCpu).Fn(ExpandKernel);

REG_OP(Trilu)
    .Input("input", ArrayTensorTypes())
    .OptionalInput("k", kInt64)
    .Output("output", ArrayTensorTypes())
    .Attr("upper", ge::AttrValue::CreateFrom<int64_t>(1))
    .InferShape(InferTrilu);
REG_KERNEL(Trilu, ge::kEngineHostCpu).Fn(TriluKernel);

REG_OP(ReverseSequence)
    .Input("input", ArrayTensorTypes())
    .Input("sequence_lens", kInt64)
    .Output("Y", ArrayTensorTypes())
    .Attr("batch_axis", ge::AttrValue::CreateFrom<int64_t>(1))
    .Attr("time_axis", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferReverseSequence);
REG_KERNEL(ReverseSequence, ge::kEngineHostCpu).Fn(ReverseSequenceKernel);

}  // namespace
}  // namespace ops
