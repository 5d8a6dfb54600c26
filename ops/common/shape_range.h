// ops/common/shape_range.h
//
// Shape ranges for infer shape functions. A gert::ShapeRange holds one
// {min, max} pair per dim of a shape; max == kUnboundedDim (-1) means "no
// upper bound". Graph inputs with -1 dims may carry ranges (GeTensorDesc's
// shape range, handed to infer shape by the registry as
// ctx.GetInputShapeRange(i)); infer functions derive their outputs' ranges
// from them (ctx.GetOutputShapeRange(i)) with the helpers here:
//
//   Inputs       InputRange(ctx, i): input i's range merged with its shape
//                (known dims pinned to {d, d}, -1 dims {0, unbounded} when
//                nothing is recorded); AnyInputRange(ctx): whether any
//                input carries a range (when none does, infer functions
//                leave output ranges empty, as before).
//   Dim algebra  DimRangeOf (a known or -1 dim), Add / Mul / Scale / Div
//                (sums: Concat; products: Flatten / Reshape / Tile),
//                Intersect (dims that must be equal: MatMul's K, Concat's
//                other dims), Broadcast (numpy: 1 vs n), Map (a
//                nondecreasing function of the dim: conv / pool outputs),
//                Union (If branches, Where).
//   Shapes       BroadcastShapeRanges (numpy alignment over several inputs).
//   Counts       NumelRange (element counts), SelectedCountRange ({0, max}:
//                data-dependent counts, e.g. NonZero / Unique / Compress);
//                WantDataDependentRange(ctx, i): such outputs get a range
//                also when input i is fully known and nothing is recorded.
//   Outputs      SetOutputRange(ctx, i, range): writes output i's range when
//                the caller tracks ranges, pinning known output dims; a
//                known output dim outside the derived range is an error
//                naming the node (the inputs' ranges conflict).
//
// Conventions: unknown rank has no range (empty ShapeRange); arithmetic
// saturates at INT64_MAX -> unbounded; errors are ParamInvalid naming the
// node (ctx.Error) and, where there is one, the input index.
//
// Example (a broadcasting infer function)
//   ASSIGN_OR_RETURN(bool ranged, ops::AnyInputRange(ctx));
//   if (ranged) {
//     ASSIGN_OR_RETURN(gert::ShapeRange a, ops::InputRange(ctx, 0));
//     ASSIGN_OR_RETURN(gert::ShapeRange b, ops::InputRange(ctx, 1));
//     const gert::ShapeRange* rs[] = {&a, &b};
//     ge::StatusOr<gert::ShapeRange> out = ops::BroadcastShapeRanges(rs);
//     if (!out.ok()) return ops::WithNode(ctx, out.status());
//     RETURN_IF_ERROR(ops::SetOutputRange(ctx, 0, *out));
//   }
#ifndef OPS_COMMON_SHAPE_RANGE_H_
#define OPS_COMMON_SHAPE_RANGE_H_

#include <cstdint>
#include <limits>
#include <string>
#include <utility>

#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ops {

using DimRange = std::pair<int64_t, int64_t>;
inline constexpr int64_t kUnboundedDim = -1;

inline bool IsBounded(const DimRange& r) { return r.second != kUnboundedDim; }
// A known dim d -> {d, d}; -1 (or any negative dim) -> {0, unbounded}.
inline DimRange DimRangeOf(int64_t dim) {
  return dim >= 0 ? DimRange{dim, dim} : DimRange{0, kUnboundedDim};
}
// "[2, 8]", "[1, inf]".
std::string DimRangeString(const DimRange& r);
// "[[2, 8], [3, 3]]".
std::string ShapeRangeString(const gert::ShapeRange& r);
// Whether v lies in r.
inline bool InDimRange(int64_t v, const DimRange& r) {
  return v >= r.first && (!IsBounded(r) || v <= r.second);
}

// ---------------------------------------------------------------- dims

// a + b (saturating; unbounded if either is).
DimRange AddDimRange(const DimRange& a, const DimRange& b);
// a * b (saturating; 0 * unbounded max is 0 only when the other max is 0).
DimRange MulDimRange(const DimRange& a, const DimRange& b);
// a * k for k >= 0.
inline DimRange ScaleDimRange(const DimRange& a, int64_t k) {
  return MulDimRange(a, DimRangeOf(k));
}
// The values x with x * k in a (k > 0): {ceil(min / k), floor(max / k)}
// (Reshape's inferred dim: the element count divided by the known dims).
DimRange DivDimRange(const DimRange& a, int64_t k);
// The intersection of a and b; ParamInvalid naming both ranges when they do not overlap.
ge::StatusOr<DimRange> IntersectDimRange(const DimRange& a, const DimRange& b);
// The smallest range holding a and b.
DimRange UnionDimRange(const DimRange& a, const DimRange& b);
// The range of numpy broadcasting two dims a, b: b when a may be 1, a when b
// may be 1 (their union when both may), else their intersection (ParamInvalid when empty).
ge::StatusOr<DimRange> BroadcastDimRange(const DimRange& a, const DimRange& b);
// {f(min), f(max)} for a nondecreasing f over dims (an unbounded max stays
// unbounded); results are clamped at 0 (e.g. a conv output that is empty for
// the smallest inputs).
template <typename F>
DimRange MapDimRange(const DimRange& r, F&& f) {
  int64_t lo = f(r.first);
  if (lo < 0) lo = 0;
  if (!IsBounded(r)) return {lo, kUnboundedDim};
  int64_t hi = f(r.second);
  if (hi < lo) hi = lo;
  return {lo, hi};
}

// ---------------------------------------------------------------- shapes

// The range of every dim of `shape` with no recorded range (unknown rank ->
// empty).
gert::ShapeRange ShapeRangeOf(const gert::Shape& shape);
// Numpy broadcast of ranges aligned from the right (none may be null); the
// error names the index of the range that conflicts. An empty input list
// gives a scalar (empty range).
ge::StatusOr<gert::ShapeRange> BroadcastShapeRanges(
    absl::Span<const gert::ShapeRange* const> ranges);

// numpy matmul of ranges (1-D operands promoted and their dim dropped
// again, batch dims broadcast): [..., M, K] x [..., K, N] -> [..., M, N].
// ParamInvalid when K's ranges do not overlap, a batch dim conflicts or an
// operand is a scalar.
ge::StatusOr<gert::ShapeRange> MatMulShapeRange(const gert::ShapeRange& a,
                                                const gert::ShapeRange& b);

// The element count of a shape whose dims lie in `r` (the product of the
// dims; a scalar, the empty range, has one element).
DimRange NumelRange(const gert::ShapeRange& r);
// The count of items selected from `total` by data (NonZero, Unique,
// Compress, NonMaxSuppression): {0, max of total}.
inline DimRange SelectedCountRange(const DimRange& total) { return {0, total.second}; }

// ---------------------------------------------------------------- context

// Whether any present input of known rank carries a recorded range.
bool AnyInputRange(const gert::InferShapeContext& ctx);
// Input i's range: the recorded one when present (validated: one entry per
// dim, 0 <= min <= max or max unbounded, a known dim inside its entry), with
// known dims pinned to {d, d}; ShapeRangeOf(shape) when none is recorded.
// Absent inputs and unknown rank give an empty range. Errors name the node
// and the input index.
ge::StatusOr<gert::ShapeRange> InputRange(const gert::InferShapeContext& ctx, size_t i);
// Sets output i's range to `range` (size = the output's rank) when the
// context tracks output ranges and the output has known rank; known output
// dims are pinned to {d, d}, and a known dim outside the given entry is
// ParamInvalid naming the node, the output and both values. A range for a
// shape with no -1 dims is still written (all points). Mismatched sizes are
// Internal (a bug in the infer function).
ge::Status SetOutputRange(gert::InferShapeContext& ctx, size_t i, gert::ShapeRange range);
// Every output gets the numpy broadcast of the present inputs' ranges (ops
// whose output is the broadcast of all inputs); output ranges are cleared
// first, and stay empty unless AnyInputRange and every input has known rank; the error names the
// node and the input whose range conflicts.
ge::Status BroadcastInputRangesToOutputs(gert::InferShapeContext& ctx);
// Output `to` gets input `from`'s range (same rank required, else no-op).
// No-op unless AnyInputRange.
ge::Status CopyInputRange(gert::InferShapeContext& ctx, size_t from, size_t to);
// Every output gets input `from`'s range (ops whose outputs have an input's
// shape). No-op unless AnyInputRange.
ge::Status CopyInputRangeToOutputs(gert::InferShapeContext& ctx, size_t from = 0);
// Whether a data-dependent output (NonZero's count, Unique's, Compress's,
// TopK's k from a runtime value) should get a range: some input carries a
// range, or input `i` has a fully known shape (its element count bounds the
// output even though no range was recorded).
bool WantDataDependentRange(const gert::InferShapeContext& ctx, size_t i);

}  // namespace ops

#endif  // OPS_COMMON_SHAPE_RANGE_H_
