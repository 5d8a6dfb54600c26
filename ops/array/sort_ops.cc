// ops/array/sort_ops.cc
//
// Ordering ops (ONNX opset 17 semantics):
//   TopK    (X, K) axis / largest / sorted attrs -> Values, Indices (INT64).
//           Ties keep the lower index first; the result is always sorted
//           (sorted=0 allows any order, so sorted output is valid).
//   Unique  (X) sorted / axis attrs -> Y, indices, inverse_indices, counts
//           (the last three optional, INT64). Without axis the input is
//           flattened; with axis, slices along it are compared
//           lexicographically. sorted=0 keeps first-occurrence order.
// Floating point order is total: NaN sorts after +Inf and NaNs compare equal
// to each other (numpy's sort order; Unique collapses NaNs like numpy >=
// 1.21). Unique's outputs are data-dependent: infer shape gives -1 dims and
// the kernel allocates them.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

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

// Three-way comparison with NaN greatest (and equal to NaN).
template <typename C>
int Compare(const C& a, const C& b) {
  if constexpr (std::is_floating_point_v<C>) {
    const bool na = std::isnan(a), nb = std::isnan(b);
    if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
    return a < b ? -1 : (b < a ? 1 : 0);
  } else if constexpr (std::is_same_v<C, std::complex<float>> ||
                       std::is_same_v<C, std::complex<double>>) {
    const int r = Compare(a.real(), b.real());
    return r != 0 ? r : Compare(a.imag(), b.imag());
  } else {
    return a < b ? -1 : (b < a ? 1 : 0);
  }
}

// The value compared for an element: float for FLOAT16 / BF16, the element
// itself (by reference: no string copies) otherwise.
template <typename T>
decltype(auto) Key(const T& v) {
  if constexpr (kIsHalf<T>) {
    return ToCompute(v);
  } else {
    return (v);
  }
}

int64_t Product(absl::Span<const int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= d;
  return p;
}

// --------------------------------------------------------------------- TopK

ge::StatusOr<int64_t> TopKAxis(const gert::ContextBase& ctx, const gert::Shape& x) {
  ASSIGN_OR_RETURN(int64_t axis, ctx.GetIntOr("axis", -1));
  const int64_t r = static_cast<int64_t>(x.GetDimNum());
  if (r == 0) return ctx.Error("X must have rank >= 1, got a scalar");
  return WithNodeOr(ctx, NormalizeAxis(axis, r));
}

ge::StatusOr<int64_t> ReadK(const gert::ContextBase& ctx, const gert::Tensor& t, int64_t dim) {
  ASSIGN_OR_RETURN(std::vector<int64_t> kv, WithNodeOr(ctx, ReadIntTensor(t)));
  if (kv.size() != 1) return ctx.Error("K must have one value, got ", kv.size());
  const int64_t k = kv[0];
  if (k < 0 || (dim >= 0 && k > dim)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kOutOfRange, "K = ", k, " is outside [0, ", dim,
                             "] (the size of the axis)");
  }
  return k;
}

ge::Status InferTopK(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Shape* ks, InputShape(ctx, 1));
  if (!ks->IsUnknownShape() && ks->GetShapeSize() != 1) {
    return ctx.Error("K must have one element, got ", ks->ToString());
  }
  gert::Shape out = UnknownRankShape();
  if (!x->IsUnknownRank()) {
    ASSIGN_OR_RETURN(int64_t axis, TopKAxis(ctx, *x));
    int64_t k = -1;
    if (const gert::Tensor* kt = KnownInputTensor(ctx, 1); kt != nullptr) {
      ASSIGN_OR_RETURN(k, ReadK(ctx, *kt, x->GetDim(axis)));
    }
    out = *x;
    out.SetDim(axis, k);
  }
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  RETURN_IF_ERROR(SetOutputShape(ctx, 1, out));
  if (x->IsUnknownRank()) return ge::OkStatus();
  ASSIGN_OR_RETURN(int64_t axis, TopKAxis(ctx, *x));
  // With no recorded range, an unknown k on a known x still gets [0, dim].
  const bool k_unknown = out.GetDim(axis) < 0;
  if (!AnyInputRange(ctx) && !(k_unknown && WantDataDependentRange(ctx, 0))) {
    return ge::OkStatus();
  }
  // x's range with the axis dim k: known, or at most the axis dim.
  ASSIGN_OR_RETURN(gert::ShapeRange range, InputRange(ctx, 0));
  DimRange& a = range[static_cast<size_t>(axis)];
  a = out.GetDim(axis) >= 0 ? DimRangeOf(out.GetDim(axis)) : SelectedCountRange(a);
  RETURN_IF_ERROR(SetOutputRange(ctx, 0, range));
  return SetOutputRange(ctx, 1, std::move(range));
}

ge::Status InferTopKType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ctx.GetInputDataType(0));
  ctx.SetOutputDataType(1, ge::DT_INT64);
  return ge::OkStatus();
}

ge::Status TopKKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* kt, GetKernelInput(ctx, 1));
  const gert::Shape& xs = x->GetShape();
  ASSIGN_OR_RETURN(int64_t axis, TopKAxis(ctx, xs));
  const int64_t dim = xs.GetDim(axis);
  ASSIGN_OR_RETURN(int64_t k, ReadK(ctx, *kt, dim));
  ASSIGN_OR_RETURN(bool largest, ctx.GetBoolOr("largest", true));
  gert::Shape out = xs;
  out.SetDim(axis, k);
  ASSIGN_OR_RETURN(gert::Tensor * values, PrepareOutput(ctx, 0, out, x->GetDataType()));
  ASSIGN_OR_RETURN(gert::Tensor * indices, PrepareOutput(ctx, 1, out, ge::DT_INT64));
  const int64_t outer = Product(xs.GetDims().subspan(0, axis));
  const int64_t inner = Product(xs.GetDims().subspan(axis + 1));
  if (out.GetShapeSize() == 0) return ge::OkStatus();
  return DispatchTypeFor<kTgReal>(ctx, x->GetDataType(), "TopK", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = ComputeType<T>;
    const T* in = x->GetData<T>();
    T* vo = values->GetData<T>();
    int64_t* io = indices->GetData<int64_t>();
    std::vector<C> keys(dim);
    std::vector<int64_t> order(dim);
    auto before = [&](int64_t a, int64_t b) {
      const int c = Compare(keys[a], keys[b]);
      if (c != 0) return largest ? c > 0 : c < 0;
      return a < b;
    };
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        const T* line = in + o * dim * inner + i;
        for (int64_t j = 0; j < dim; ++j) keys[j] = ToCompute(line[j * inner]);
        std::iota(order.begin(), order.end(), 0);
        std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
        const int64_t base = o * k * inner + i;
        for (int64_t j = 0; j < k; ++j) {
          vo[base + j * inner] = line[order[j] * inner];
          io[base + j * inner] = order[j];
        }
      }
    }
    return ge::OkStatus();
  });
}

// ------------------------------------------------------------------- Unique

ge::Status InferUnique(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  const size_t n_out = ctx.GetOutputNum();
  gert::Shape y{ge::UNKNOWN_DIM};
  gert::Shape inverse{ge::UNKNOWN_DIM};
  if (ctx.HasAttr("axis")) {
    if (x->IsUnknownRank()) {
      y = UnknownRankShape();
    } else {
      ASSIGN_OR_RETURN(int64_t axis, ctx.GetInt("axis"));
      ASSIGN_OR_RETURN(axis,
                       WithNodeOr(ctx, NormalizeAxis(axis, static_cast<int64_t>(x->GetDimNum()))));
      y = *x;
      y.SetDim(axis, ge::UNKNOWN_DIM);
      inverse = gert::Shape{x->GetDim(axis)};
    }
  } else if (!x->IsUnknownRank()) {
    inverse = gert::Shape{x->GetShapeSize()};
  }
  const gert::Shape shapes[4] = {y, gert::Shape{ge::UNKNOWN_DIM}, inverse,
                                 gert::Shape{ge::UNKNOWN_DIM}};
  for (size_t i = 0; i < n_out && i < 4; ++i) {
    if (ctx.GetOutputShape(i) != nullptr) *ctx.GetOutputShape(i) = shapes[i];
  }
  if (x->IsUnknownRank() || !WantDataDependentRange(ctx, 0)) return ge::OkStatus();
  // The unique count lies in [0, n] for n the number of elements (slices
  // along the axis); inverse_indices has n entries.
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  gert::ShapeRange ranges[4];
  DimRange n = NumelRange(xr);
  if (ctx.HasAttr("axis")) {
    ASSIGN_OR_RETURN(int64_t axis, ctx.GetInt("axis"));
    ASSIGN_OR_RETURN(axis,
                     WithNodeOr(ctx, NormalizeAxis(axis, static_cast<int64_t>(x->GetDimNum()))));
    n = xr[static_cast<size_t>(axis)];
    ranges[0] = xr;
    ranges[0][static_cast<size_t>(axis)] = SelectedCountRange(n);
  } else {
    ranges[0] = {SelectedCountRange(n)};
  }
  ranges[1] = {SelectedCountRange(n)};
  ranges[2] = {n};
  ranges[3] = {SelectedCountRange(n)};
  for (size_t i = 0; i < n_out && i < 4; ++i) {
    if (ctx.GetOutputShape(i) != nullptr) RETURN_IF_ERROR(SetOutputRange(ctx, i, ranges[i]));
  }
  return ge::OkStatus();
}

ge::Status InferUniqueType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ctx.GetInputDataType(0));
  for (size_t i = 1; i < ctx.GetOutputNum(); ++i) ctx.SetOutputDataType(i, ge::DT_INT64);
  return ge::OkStatus();
}

ge::Status UniqueKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const gert::Shape& xs = x->GetShape();
  ASSIGN_OR_RETURN(bool sorted, ctx.GetBoolOr("sorted", true));
  const bool has_axis = ctx.HasAttr("axis");
  int64_t axis = 0, outer = 1, n = xs.GetShapeSize(), inner = 1;
  if (has_axis) {
    if (xs.GetDimNum() == 0) return ctx.Error("axis is set but X is a scalar");
    ASSIGN_OR_RETURN(axis, ctx.GetInt("axis"));
    ASSIGN_OR_RETURN(axis,
                     WithNodeOr(ctx, NormalizeAxis(axis, static_cast<int64_t>(xs.GetDimNum()))));
    outer = Product(xs.GetDims().subspan(0, axis));
    n = xs.GetDim(axis);
    inner = Product(xs.GetDims().subspan(axis + 1));
  }
  // Items are elements (no axis) or slices along axis; item i's element
  // (o, j) is at (o * n + i) * inner + j.
  std::vector<int64_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  // Unique groups: first item of each group (in output order), count, and
  // the group of every item.
  std::vector<int64_t> first, counts, inverse(n);
  RETURN_IF_ERROR(DispatchTypeFor<kTgAll>(ctx, x->GetDataType(), "Unique", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = x->GetData<T>();
    auto cmp = [&](int64_t a, int64_t b) {
      for (int64_t o = 0; o < outer; ++o) {
        const T* pa = in + (o * n + a) * inner;
        const T* pb = in + (o * n + b) * inner;
        for (int64_t j = 0; j < inner; ++j) {
          const int c = Compare(Key(pa[j]), Key(pb[j]));
          if (c != 0) return c;
        }
      }
      return 0;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](int64_t a, int64_t b) { return cmp(a, b) < 0; });
    for (int64_t p = 0; p < n; ++p) {
      if (p == 0 || cmp(order[p - 1], order[p]) != 0) {
        first.push_back(order[p]);  // stable: the lowest index of its group
        counts.push_back(0);
      }
      ++counts.back();
      inverse[order[p]] = static_cast<int64_t>(first.size()) - 1;
    }
    return ge::OkStatus();
  }));
  const int64_t u = static_cast<int64_t>(first.size());
  std::vector<int64_t> rank(u);  // group -> output position
  std::iota(rank.begin(), rank.end(), 0);
  if (!sorted) {
    std::vector<int64_t> by_first(u);
    std::iota(by_first.begin(), by_first.end(), 0);
    std::sort(by_first.begin(), by_first.end(),
              [&](int64_t a, int64_t b) { return first[a] < first[b]; });
    for (int64_t p = 0; p < u; ++p) rank[by_first[p]] = p;
  }
  std::vector<int64_t> out_first(u), out_counts(u);
  for (int64_t g = 0; g < u; ++g) {
    out_first[rank[g]] = first[g];
    out_counts[rank[g]] = counts[g];
  }
  gert::Shape yshape{u};
  if (has_axis) {
    yshape = xs;
    yshape.SetDim(axis, u);
  }
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, yshape, x->GetDataType()));
  RETURN_IF_ERROR(DispatchMoveFor(ctx, x->GetDataType(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = x->GetData<T>();
    T* o = y->GetData<T>();
    for (int64_t b = 0; b < outer; ++b) {
      for (int64_t p = 0; p < u; ++p) {
        o = std::copy_n(in + (b * n + out_first[p]) * inner, inner, o);
      }
    }
    return ge::OkStatus();
  }));
  auto write = [&](size_t i, const std::vector<int64_t>& v) -> ge::Status {
    if (i >= ctx.GetOutputNum() || ctx.GetOutputTensor(i) == nullptr) return ge::OkStatus();
    ASSIGN_OR_RETURN(
        gert::Tensor * t,
        PrepareOutput(ctx, i, gert::Shape{static_cast<int64_t>(v.size())}, ge::DT_INT64));
    std::copy(v.begin(), v.end(), t->GetData<int64_t>());
    return ge::OkStatus();
  };
  RETURN_IF_ERROR(write(1, out_first));
  for (int64_t& g : inverse) g = rank[g];
  RETURN_IF_ERROR(write(2, inverse));
  return write(3, out_counts);
}

// ------------------------------------------------------------- registration

REG_OP(TopK)
    .Input("X", ge::TensorType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16, ge::DT_DOUBLE,
                                ge::DT_INT8, ge::DT_INT16, ge::DT_INT32, ge::DT_INT64, ge::DT_UINT8,
                                ge::DT_UINT16, ge::DT_UINT32, ge::DT_UINT64}))
    .Input("K", kInt64)
    .Output("Values", ge::TensorType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16, ge::DT_DOUBLE,
                                      ge::DT_INT8, ge::DT_INT16, ge::DT_INT32, ge::DT_INT64,
                                      ge::DT_UINT8, ge::DT_UINT16, ge::DT_UINT32, ge::DT_UINT64}))
    .Output("Indices", kInt64)
    .Attr("axis", ge::AttrValue::CreateFrom<int64_t>(-1))
    .Attr("largest", ge::AttrValue::CreateFrom<int64_t>(1))
    .Attr("sorted", ge::AttrValue::CreateFrom<int64_t>(1))
    .InferShape(InferTopK)
    .InferDataType(InferTopKType)
    .ValueDependentInput("K");
REG_KERNEL(TopK, ge::kEngineHostCpu).Fn(TopKKernel);

REG_OP(Unique)
    .Input("X", ArrayTensorTypes())
    .Output("Y", ArrayTensorTypes())
    .OptionalOutput("indices", kInt64)
    .OptionalOutput("inverse_indices", kInt64)
    .OptionalOutput("counts", kInt64)
    .Attr("sorted", ge::AttrValue::CreateFrom<int64_t>(1))
    .InferShape(InferUnique)
    .InferDataType(InferUniqueType)
    .DataDependentOutputShape();
REG_KERNEL(Unique, ge::kEngineHostCpu).Fn(UniqueKernel);

}  // namespace
}  // namespace ops
