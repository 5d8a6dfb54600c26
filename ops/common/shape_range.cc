// ops/common/shape_range.cc
#include "ops/common/shape_range.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"

namespace ops {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

int64_t SatAdd(int64_t a, int64_t b) {  // a, b >= 0
  return a > kMax - b ? kMax : a + b;
}
int64_t SatMul(int64_t a, int64_t b) {  // a, b >= 0
  if (a == 0 || b == 0) return 0;
  return a > kMax / b ? kMax : a * b;
}
// kMax stands for "no bound" once saturated.
int64_t ToMax(int64_t v) { return v == kMax ? kUnboundedDim : v; }
int64_t FromMax(const DimRange& r) { return IsBounded(r) ? r.second : kMax; }

}  // namespace

std::string DimRangeString(const DimRange& r) {
  return IsBounded(r) ? absl::StrCat("[", r.first, ", ", r.second, "]")
                      : absl::StrCat("[", r.first, ", inf]");
}

std::string ShapeRangeString(const gert::ShapeRange& r) {
  std::string s = "[";
  for (size_t i = 0; i < r.size(); ++i) {
    absl::StrAppend(&s, i == 0 ? "" : ", ", DimRangeString(r[i]));
  }
  return s + "]";
}

DimRange AddDimRange(const DimRange& a, const DimRange& b) {
  return {SatAdd(a.first, b.first), ToMax(SatAdd(FromMax(a), FromMax(b)))};
}

DimRange MulDimRange(const DimRange& a, const DimRange& b) {
  const int64_t lo = SatMul(a.first, b.first);
  // An unbounded side times a max of 0 stays 0.
  if ((IsBounded(a) && a.second == 0) || (IsBounded(b) && b.second == 0)) return {0, 0};
  return {lo == kMax ? kMax - 1 : lo, ToMax(SatMul(FromMax(a), FromMax(b)))};
}

DimRange DivDimRange(const DimRange& a, int64_t k) {
  if (k <= 0) return {0, kUnboundedDim};
  const int64_t lo = a.first / k + (a.first % k != 0 ? 1 : 0);
  if (!IsBounded(a)) return {lo, kUnboundedDim};
  const int64_t hi = a.second / k;
  return {std::min(lo, hi), hi};
}

ge::StatusOr<DimRange> IntersectDimRange(const DimRange& a, const DimRange& b) {
  const int64_t lo = std::max(a.first, b.first);
  const int64_t hi = std::min(FromMax(a), FromMax(b));
  if (lo > hi) {
    return ge::ParamInvalid("dim ranges ", DimRangeString(a), " and ", DimRangeString(b),
                            " do not overlap");
  }
  return DimRange{lo, ToMax(hi)};
}

DimRange UnionDimRange(const DimRange& a, const DimRange& b) {
  return {std::min(a.first, b.first), ToMax(std::max(FromMax(a), FromMax(b)))};
}

ge::StatusOr<DimRange> BroadcastDimRange(const DimRange& a, const DimRange& b) {
  const bool a1 = InDimRange(1, a);
  const bool b1 = InDimRange(1, b);
  // A dim fixed at 1 broadcasts to the other.
  if (a == DimRange{1, 1}) return b;
  if (b == DimRange{1, 1}) return a;
  if (a1 && b1) return UnionDimRange(a, b);
  if (a1) return b;
  if (b1) return a;
  ge::StatusOr<DimRange> r = IntersectDimRange(a, b);
  if (!r.ok()) {
    return ge::ParamInvalid("dim ranges ", DimRangeString(a), " and ", DimRangeString(b),
                            " cannot broadcast (no common value and neither may be 1)");
  }
  return r;
}

gert::ShapeRange ShapeRangeOf(const gert::Shape& shape) {
  gert::ShapeRange r;
  if (shape.IsUnknownRank()) return r;
  r.reserve(shape.GetDimNum());
  for (int64_t d : shape.GetDims()) r.push_back(DimRangeOf(d));
  return r;
}

ge::StatusOr<gert::ShapeRange> BroadcastShapeRanges(
    absl::Span<const gert::ShapeRange* const> ranges) {
  size_t rank = 0;
  for (const gert::ShapeRange* r : ranges) rank = std::max(rank, r->size());
  gert::ShapeRange out(rank, DimRange{1, 1});
  for (size_t k = 0; k < ranges.size(); ++k) {
    const gert::ShapeRange& r = *ranges[k];
    const size_t off = rank - r.size();
    for (size_t d = 0; d < r.size(); ++d) {
      ge::StatusOr<DimRange> b = BroadcastDimRange(out[off + d], r[d]);
      if (!b.ok()) {
        return ge::Annotate(b.status(), "input ", k, " range ", ShapeRangeString(r),
                            " does not broadcast at dim ", d, ": ");
      }
      out[off + d] = *b;
    }
  }
  return out;
}

ge::StatusOr<gert::ShapeRange> MatMulShapeRange(const gert::ShapeRange& a,
                                                const gert::ShapeRange& b) {
  if (a.empty() || b.empty()) return ge::ParamInvalid("matmul operands must not be scalars");
  gert::ShapeRange pa = a, pb = b;
  if (a.size() == 1) pa.insert(pa.begin(), DimRange{1, 1});
  if (b.size() == 1) pb.push_back(DimRange{1, 1});
  ge::StatusOr<DimRange> k = IntersectDimRange(pa.back(), pb[pb.size() - 2]);
  if (!k.ok()) {
    return ge::ParamInvalid("the contracted dims' ranges ", DimRangeString(pa.back()), " and ",
                            DimRangeString(pb[pb.size() - 2]), " do not overlap");
  }
  const gert::ShapeRange ba(pa.begin(), pa.end() - 2), bb(pb.begin(), pb.end() - 2);
  const gert::ShapeRange* rs[] = {&ba, &bb};
  ASSIGN_OR_RETURN(gert::ShapeRange out, BroadcastShapeRanges(rs));
  if (a.size() != 1) out.push_back(pa[pa.size() - 2]);
  if (b.size() != 1) out.push_back(pb.back());
  return out;
}

DimRange NumelRange(const gert::ShapeRange& r) {
  DimRange n{1, 1};
  for (const DimRange& d : r) n = MulDimRange(n, d);
  return n;
}

bool WantDataDependentRange(const gert::InferShapeContext& ctx, size_t i) {
  if (AnyInputRange(ctx)) return true;
  const gert::Shape* s = ctx.GetInputShape(i);
  return s != nullptr && !s->IsUnknownRank() && !s->IsUnknownShape();
}

bool AnyInputRange(const gert::InferShapeContext& ctx) {
  for (size_t i = 0; i < ctx.GetInputNum(); ++i) {
    const gert::Shape* s = ctx.GetInputShape(i);
    const gert::ShapeRange* r = ctx.GetInputShapeRange(i);
    if (s != nullptr && !s->IsUnknownRank() && r != nullptr && !r->empty()) return true;
  }
  return false;
}

ge::StatusOr<gert::ShapeRange> InputRange(const gert::InferShapeContext& ctx, size_t i) {
  const gert::Shape* s = ctx.GetInputShape(i);
  if (s == nullptr || s->IsUnknownRank()) return gert::ShapeRange();
  gert::ShapeRange out = ShapeRangeOf(*s);
  const gert::ShapeRange* rec = ctx.GetInputShapeRange(i);
  if (rec == nullptr || rec->empty()) return out;
  if (rec->size() != s->GetDimNum()) {
    return ctx.Error("input ", i, " has shape ", s->ToString(), " but a shape range of ",
                     rec->size(), " dims ", ShapeRangeString(*rec));
  }
  for (size_t d = 0; d < rec->size(); ++d) {
    const DimRange& e = (*rec)[d];
    if (e.first < 0 || (IsBounded(e) && e.second < e.first) || e.second < kUnboundedDim) {
      return ctx.Error("input ", i, " dim ", d, " has an invalid range ", e.first, "..", e.second);
    }
    const int64_t dim = s->GetDim(d);
    if (dim >= 0) {
      if (!InDimRange(dim, e)) {
        return ctx.Error("input ", i, " dim ", d, " is ", dim, " but its range is ",
                         DimRangeString(e));
      }
      continue;
    }
    out[d] = e;
  }
  return out;
}

ge::Status SetOutputRange(gert::InferShapeContext& ctx, size_t i, gert::ShapeRange range) {
  gert::ShapeRange* dst = ctx.GetOutputShapeRange(i);
  const gert::Shape* s = ctx.GetOutputShape(i);
  if (dst == nullptr || s == nullptr || s->IsUnknownRank()) return ge::OkStatus();
  if (range.size() != s->GetDimNum()) {
    return ge::Internal("node ", ctx.GetNodeName(), " (", ctx.GetNodeType(), "): output ", i,
                        " range ", ShapeRangeString(range), " does not match shape ",
                        s->ToString());
  }
  for (size_t d = 0; d < range.size(); ++d) {
    const int64_t dim = s->GetDim(d);
    if (dim < 0) continue;
    if (!InDimRange(dim, range[d])) {
      return ctx.Error("output ", i, " dim ", d, " is ", dim,
                       " but the input ranges give it the range ", DimRangeString(range[d]),
                       " (conflicting ranges)");
    }
    range[d] = DimRange{dim, dim};
  }
  *dst = std::move(range);
  return ge::OkStatus();
}

ge::Status BroadcastInputRangesToOutputs(gert::InferShapeContext& ctx) {
  // Drop ranges an earlier step (e.g. InferSameAsInput0 as infer data type)
  // may have left: only the broadcast decides them.
  for (size_t o = 0; o < ctx.GetOutputNum(); ++o) {
    if (ctx.GetOutputShapeRange(o) != nullptr) ctx.GetOutputShapeRange(o)->clear();
  }
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  std::vector<gert::ShapeRange> rs;
  std::vector<size_t> index;
  for (size_t i = 0; i < ctx.GetInputNum(); ++i) {
    const gert::Shape* s = ctx.GetInputShape(i);
    if (s == nullptr) continue;
    if (s->IsUnknownRank()) return ge::OkStatus();
    ASSIGN_OR_RETURN(gert::ShapeRange r, InputRange(ctx, i));
    rs.push_back(std::move(r));
    index.push_back(i);
  }
  gert::ShapeRange acc;
  for (size_t k = 0; k < rs.size(); ++k) {
    const gert::ShapeRange* pair[] = {&acc, &rs[k]};
    ge::StatusOr<gert::ShapeRange> b = BroadcastShapeRanges(pair);
    if (!b.ok()) {
      return ctx.Error("input ", index[k], " range ", ShapeRangeString(rs[k]),
                       " conflicts with the broadcast range ", ShapeRangeString(acc),
                       " of the inputs before it: ", b.status().message());
    }
    acc = std::move(b).value();
  }
  for (size_t o = 0; o < ctx.GetOutputNum(); ++o) {
    const gert::Shape* s = ctx.GetOutputShape(o);
    if (s == nullptr || s->IsUnknownRank() || s->GetDimNum() != acc.size()) continue;
    RETURN_IF_ERROR(SetOutputRange(ctx, o, acc));
  }
  return ge::OkStatus();
}

ge::Status CopyInputRange(gert::InferShapeContext& ctx, size_t from, size_t to) {
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  ASSIGN_OR_RETURN(gert::ShapeRange r, InputRange(ctx, from));
  const gert::Shape* s = ctx.GetOutputShape(to);
  if (r.empty() && (s == nullptr || !s->IsScalar())) return ge::OkStatus();
  if (s == nullptr || s->IsUnknownRank() || s->GetDimNum() != r.size()) return ge::OkStatus();
  return SetOutputRange(ctx, to, std::move(r));
}

ge::Status CopyInputRangeToOutputs(gert::InferShapeContext& ctx, size_t from) {
  if (!AnyInputRange(ctx)) return ge::OkStatus();
  ASSIGN_OR_RETURN(gert::ShapeRange r, InputRange(ctx, from));
  const gert::Shape* in = ctx.GetInputShape(from);
  if (in == nullptr || in->IsUnknownRank()) return ge::OkStatus();
  for (size_t o = 0; o < ctx.GetOutputNum(); ++o) {
    const gert::Shape* s = ctx.GetOutputShape(o);
    if (s == nullptr || s->GetDimNum() != r.size() || s->IsUnknownRank()) continue;
    RETURN_IF_ERROR(SetOutputRange(ctx, o, r));
  }
  return ge::OkStatus();
}

}  // namespace ops
