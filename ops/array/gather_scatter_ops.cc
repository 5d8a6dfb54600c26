// ops/array/gather_scatter_ops.cc
//
// Indexed reads and writes (ONNX opset 17 semantics; negative indices count
// from the end, out-of-range indices are OutOfRange errors naming the index):
//   Gather           data[:axis] + indices + data[axis+1:]
//   GatherElements   out[i] = data[i with i[axis] = indices[i]]
//   GatherND         batch_dims; out = indices[:-1] + data[b + indices[-1]:]
//   ScatterElements  (data, indices, updates) axis, reduction none / add /
//                    mul / max / min; Scatter is its deprecated alias
//                    (no reduction).
//   ScatterND        (data, indices, updates) reduction none / add / mul /
//                    max / min.
//   Compress         (input, condition) axis (absent: flattened input).
//   NonZero          INT64 [rank, nnz] coordinates (row-major order).
// Compress and NonZero have data-dependent output shapes: -1 dims unless the
// condition / input value is known; their kernels allocate the output.
// Updates are applied in row-major order of the indices, so with duplicate
// indices and reduction none the last one wins.
#include <algorithm>
#include <complex>
#include <cstdint>
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
const ge::TensorType kBool{ge::DT_BOOL};

int64_t Product(absl::Span<const int64_t> dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= d;
  return p;
}

// indices[i] normalised into [0, dim) (negative ones count from the end).
ge::Status NormalizeIndices(const gert::ContextBase& ctx, std::vector<int64_t>* indices,
                            int64_t dim, absl::string_view what) {
  for (size_t i = 0; i < indices->size(); ++i) {
    int64_t& v = (*indices)[i];
    if (v < -dim || v >= dim) {
      return ctx.ErrorWithCode(ge::ErrorCode::kOutOfRange, what, "[", i, "] = ", v,
                               " is out of range [", -dim, ", ", dim - 1, "]");
    }
    if (v < 0) v += dim;
  }
  return ge::OkStatus();
}

ge::Status VerifySameType02(gert::InferShapeContext& ctx) {
  if (ctx.GetInputShape(2) != nullptr && ctx.GetInputDataType(0) != ctx.GetInputDataType(2)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input 2 is ",
                             DataTypeName(ctx.GetInputDataType(2)), " but input 0 is ",
                             DataTypeName(ctx.GetInputDataType(0)));
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------------- Gather

ge::StatusOr<gert::Shape> GatherShape(const gert::ContextBase& ctx, const gert::Shape& data,
                                      const gert::Shape& indices, int64_t* axis_out) {
  if (data.IsUnknownRank() || indices.IsUnknownRank()) return UnknownRankShape();
  ASSIGN_OR_RETURN(int64_t axis, ctx.GetIntOr("axis", 0));
  const int64_t r = static_cast<int64_t>(data.GetDimNum());
  if (r == 0) return ctx.Error("data must have rank >= 1, got a scalar");
  ASSIGN_OR_RETURN(axis, WithNodeOr(ctx, NormalizeAxis(axis, r)));
  if (axis_out != nullptr) *axis_out = axis;
  if (r - 1 + indices.GetDimNum() > gert::kMaxDimNum) {
    return ctx.Error("output rank ", r - 1 + indices.GetDimNum(), " exceeds the maximum");
  }
  gert::Shape out;
  for (int64_t k = 0; k < axis; ++k) out.AppendDim(data.GetDim(k));
  for (int64_t d : indices.GetDims()) out.AppendDim(d);
  for (int64_t k = axis + 1; k < r; ++k) out.AppendDim(data.GetDim(k));
  return out;
}

ge::Status InferGather(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* data, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Shape* indices, InputShape(ctx, 1));
  int64_t axis = 0;
  ASSIGN_OR_RETURN(gert::Shape out, GatherShape(ctx, *data, *indices, &axis));
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (!AnyInputRange(ctx) || out.IsUnknownRank() || data->IsUnknownRank() ||
      indices->IsUnknownRank()) {
    return ge::OkStatus();
  }
  // data dims before and after the axis, with the indices' dims in between.
  ASSIGN_OR_RETURN(gert::ShapeRange dr, InputRange(ctx, 0));
  ASSIGN_OR_RETURN(gert::ShapeRange ir, InputRange(ctx, 1));
  gert::ShapeRange range(dr.begin(), dr.begin() + axis);
  range.insert(range.end(), ir.begin(), ir.end());
  range.insert(range.end(), dr.begin() + axis + 1, dr.end());
  return SetOutputRange(ctx, 0, std::move(range));
}

ge::Status GatherKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* data, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* ind_t, GetKernelInput(ctx, 1));
  int64_t axis = 0;
  ASSIGN_OR_RETURN(gert::Shape out, GatherShape(ctx, data->GetShape(), ind_t->GetShape(), &axis));
  ASSIGN_OR_RETURN(std::vector<int64_t> indices, WithNodeOr(ctx, ReadIntTensor(*ind_t)));
  const absl::Span<const int64_t> dims = data->GetShape().GetDims();
  const int64_t n = dims[axis];
  RETURN_IF_ERROR(NormalizeIndices(ctx, &indices, n, "indices"));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, out, data->GetDataType()));
  const int64_t outer = Product(dims.subspan(0, axis));
  const int64_t inner = Product(dims.subspan(axis + 1));
  const int64_t m = static_cast<int64_t>(indices.size());
  if (out.GetShapeSize() == 0) return ge::OkStatus();
  return DispatchMoveFor(ctx, data->GetDataType(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = data->GetData<T>();
    T* o = y->GetData<T>();
    for (int64_t b = 0; b < outer; ++b) {
      const T* base = in + b * n * inner;
      for (int64_t j = 0; j < m; ++j) o = std::copy_n(base + indices[j] * inner, inner, o);
    }
    return ge::OkStatus();
  });
}

// ----------------------------------------------------------- GatherElements

// Checks shapes for GatherElements / ScatterElements: same rank, indices
// dims <= data dims off the axis. Returns the normalised axis.
ge::StatusOr<int64_t> ElementsAxis(const gert::ContextBase& ctx, const gert::Shape& data,
                                   const gert::Shape& indices) {
  ASSIGN_OR_RETURN(int64_t axis, ctx.GetIntOr("axis", 0));
  if (data.IsUnknownRank() || indices.IsUnknownRank()) return axis;
  const int64_t r = static_cast<int64_t>(data.GetDimNum());
  if (r == 0) return ctx.Error("data must have rank >= 1, got a scalar");
  if (indices.GetDimNum() != data.GetDimNum()) {
    return ctx.Error("indices ", indices.ToString(), " must have the rank of data ",
                     data.ToString());
  }
  ASSIGN_OR_RETURN(axis, WithNodeOr(ctx, NormalizeAxis(axis, r)));
  for (int64_t k = 0; k < r; ++k) {
    const int64_t di = indices.GetDim(k), dd = data.GetDim(k);
    if (k != axis && di >= 0 && dd >= 0 && di > dd) {
      return ctx.Error("indices ", indices.ToString(), " dim ", k, " exceeds data ",
                       data.ToString());
    }
  }
  return axis;
}

ge::Status InferGatherElements(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* data, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Shape* indices, InputShape(ctx, 1));
  RETURN_IF_ERROR(ElementsAxis(ctx, *data, *indices).status());
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, *indices));
  // The output has the indices' shape.
  return CopyInputRange(ctx, 1, 0);
}

// Calls f(index_position, data_offset_without_axis) for each element of
// `indices` (row-major), where the data offset leaves out the axis term.
template <typename F>
void ForEachElementsIndex(absl::Span<const int64_t> idims, absl::Span<const int64_t> dstrides,
                          int64_t axis, F&& f) {
  const size_t r = idims.size();
  const int64_t total = Product(idims);
  if (total == 0) return;
  std::vector<int64_t> counter(r, 0);
  int64_t off = 0;
  for (int64_t i = 0; i < total; ++i) {
    f(i, off);
    for (size_t k = r; k-- > 0;) {
      const int64_t s = static_cast<int64_t>(k) == axis ? 0 : dstrides[k];
      if (++counter[k] < idims[k]) {
        off += s;
        break;
      }
      off -= s * (idims[k] - 1);
      counter[k] = 0;
    }
  }
}

ge::Status GatherElementsKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* data, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* ind_t, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(int64_t axis, ElementsAxis(ctx, data->GetShape(), ind_t->GetShape()));
  ASSIGN_OR_RETURN(std::vector<int64_t> indices, WithNodeOr(ctx, ReadIntTensor(*ind_t)));
  const absl::Span<const int64_t> ddims = data->GetShape().GetDims();
  RETURN_IF_ERROR(NormalizeIndices(ctx, &indices, ddims[axis], "indices"));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, ind_t->GetShape(), data->GetDataType()));
  const std::vector<int64_t> ds = RowMajorStrides(ddims);
  return DispatchMoveFor(ctx, data->GetDataType(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = data->GetData<T>();
    T* o = y->GetData<T>();
    ForEachElementsIndex(ind_t->GetShape().GetDims(), ds, axis,
                         [&](int64_t i, int64_t off) { o[i] = in[off + indices[i] * ds[axis]]; });
    return ge::OkStatus();
  });
}

// ----------------------------------------------------------------- GatherND

struct GatherNdDims {
  int64_t b = 0;  // batch_dims
  int64_t m = 0;  // indices.shape[-1]
};

ge::StatusOr<gert::Shape> GatherNdShape(const gert::ContextBase& ctx, const gert::Shape& data,
                                        const gert::Shape& indices, GatherNdDims* nd) {
  ASSIGN_OR_RETURN(int64_t b, ctx.GetIntOr("batch_dims", 0));
  if (b < 0) return ctx.Error("batch_dims ", b, " is negative");
  if (data.IsUnknownRank() || indices.IsUnknownRank()) return UnknownRankShape();
  const int64_t r = static_cast<int64_t>(data.GetDimNum());
  const int64_t q = static_cast<int64_t>(indices.GetDimNum());
  if (r < 1 || q < 1) {
    return ctx.Error("data ", data.ToString(), " and indices ", indices.ToString(),
                     " must have rank >= 1");
  }
  if (b >= std::min(r, q)) {
    return ctx.Error("batch_dims ", b, " must be less than the ranks of data ", data.ToString(),
                     " and indices ", indices.ToString());
  }
  for (int64_t k = 0; k < b; ++k) {
    const int64_t dd = data.GetDim(k), di = indices.GetDim(k);
    if (dd >= 0 && di >= 0 && dd != di) {
      return ctx.Error("batch dim ", k, " of data ", data.ToString(), " and indices ",
                       indices.ToString(), " differ");
    }
  }
  const int64_t m = indices.GetDim(q - 1);
  if (m < 0) return UnknownRankShape();
  if (m < 1 || m > r - b) {
    return ctx.Error("indices ", indices.ToString(), " last dim ", m, " must be in [1, ", r - b,
                     "] for data ", data.ToString(), " and batch_dims ", b);
  }
  if (nd != nullptr) *nd = GatherNdDims{b, m};
  gert::Shape out;
  for (int64_t k = 0; k < q - 1; ++k) out.AppendDim(indices.GetDim(k));
  for (int64_t k = b + m; k < r; ++k) {
    if (!out.CanAppend()) return ctx.Error("output rank exceeds the maximum");
    out.AppendDim(data.GetDim(k));
  }
  return out;
}

ge::Status InferGatherNd(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* data, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Shape* indices, InputShape(ctx, 1));
  ASSIGN_OR_RETURN(gert::Shape out, GatherNdShape(ctx, *data, *indices, nullptr));
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (!AnyInputRange(ctx) || out.IsUnknownRank()) return ge::OkStatus();
  // indices[:-1] (batch dims shared with data) then data[b + m:].
  ASSIGN_OR_RETURN(gert::ShapeRange dr, InputRange(ctx, 0));
  ASSIGN_OR_RETURN(gert::ShapeRange ir, InputRange(ctx, 1));
  ASSIGN_OR_RETURN(int64_t b, ctx.GetIntOr("batch_dims", 0));
  const size_t q = ir.size();
  const size_t m = static_cast<size_t>(indices->GetDim(q - 1));
  gert::ShapeRange range;
  for (size_t k = 0; k + 1 < q; ++k) {
    if (k < static_cast<size_t>(b)) {
      ge::StatusOr<DimRange> d = IntersectDimRange(ir[k], dr[k]);
      if (!d.ok())
        return ctx.Error("batch dim ", k, " of data and indices: ", d.status().message());
      range.push_back(*d);
    } else {
      range.push_back(ir[k]);
    }
  }
  for (size_t k = static_cast<size_t>(b) + m; k < dr.size(); ++k) range.push_back(dr[k]);
  return SetOutputRange(ctx, 0, std::move(range));
}

// Data element offsets (within one batch) of each index tuple; tuples are
// rows of `m` values in `indices`, for data dims `ddims` (from b).
ge::StatusOr<std::vector<int64_t>> TupleOffsets(const gert::ContextBase& ctx,
                                                absl::Span<const int64_t> indices,
                                                absl::Span<const int64_t> ddims, int64_t m,
                                                int64_t slice) {
  std::vector<int64_t> offsets(indices.size() / m);
  std::vector<int64_t> strides(m);
  int64_t s = slice;
  for (int64_t j = m; j-- > 0;) {
    strides[j] = s;
    s *= ddims[j];
  }
  for (size_t t = 0; t < offsets.size(); ++t) {
    int64_t off = 0;
    for (int64_t j = 0; j < m; ++j) {
      int64_t v = indices[t * m + j];
      const int64_t d = ddims[j];
      if (v < -d || v >= d) {
        return ctx.ErrorWithCode(ge::ErrorCode::kOutOfRange, "index tuple ", t, " component ", j,
                                 " = ", v, " is out of range [", -d, ", ", d - 1, "]");
      }
      if (v < 0) v += d;
      off += v * strides[j];
    }
    offsets[t] = off;
  }
  return offsets;
}

ge::Status GatherNdKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* data, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* ind_t, GetKernelInput(ctx, 1));
  GatherNdDims nd;
  ASSIGN_OR_RETURN(gert::Shape out, GatherNdShape(ctx, data->GetShape(), ind_t->GetShape(), &nd));
  ASSIGN_OR_RETURN(std::vector<int64_t> indices, WithNodeOr(ctx, ReadIntTensor(*ind_t)));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, out, data->GetDataType()));
  const absl::Span<const int64_t> ddims = data->GetShape().GetDims();
  const int64_t batches = Product(ddims.subspan(0, nd.b));
  const int64_t slice = Product(ddims.subspan(nd.b + nd.m));
  const int64_t batch_size = Product(ddims.subspan(nd.b));
  if (batches == 0 || indices.empty()) return ge::OkStatus();
  const int64_t per_batch = static_cast<int64_t>(indices.size()) / batches;  // values
  ASSIGN_OR_RETURN(std::vector<int64_t> offsets,
                   TupleOffsets(ctx, indices, ddims.subspan(nd.b), nd.m, slice));
  const int64_t tuples_per_batch = per_batch / nd.m;
  return DispatchMoveFor(ctx, data->GetDataType(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = data->GetData<T>();
    T* o = y->GetData<T>();
    for (int64_t bi = 0; bi < batches; ++bi) {
      const T* base = in + bi * batch_size;
      for (int64_t t = 0; t < tuples_per_batch; ++t) {
        o = std::copy_n(base + offsets[bi * tuples_per_batch + t], slice, o);
      }
    }
    return ge::OkStatus();
  });
}

// --------------------------------------------------------- scatter helpers

enum class Reduction { kNone, kAdd, kMul, kMax, kMin };

ge::StatusOr<Reduction> GetReduction(const gert::ContextBase& ctx) {
  ASSIGN_OR_RETURN(std::string r, ctx.GetStrOr("reduction", "none"));
  if (r == "none") return Reduction::kNone;
  if (r == "add") return Reduction::kAdd;
  if (r == "mul") return Reduction::kMul;
  if (r == "max") return Reduction::kMax;
  if (r == "min") return Reduction::kMin;
  return ctx.Error("unknown reduction \"", r, "\" (expected none, add, mul, max or min)");
}

// Runs body(combine) with combine(T& dst, const T& src) implementing the
// reduction for the element type of dt (movement types for kNone).
template <typename Body>
ge::Status DispatchScatter(const gert::ContextBase& ctx, ge::DataType dt, Reduction red,
                           Body&& body) {
  if (red == Reduction::kNone) {
    return DispatchMoveFor(ctx, dt, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return body(tag, [](T& d, const T& s) { d = s; });
    });
  }
  return DispatchTypeFor<kTgReal>(ctx, dt, "scatter with a reduction", [&](auto tag) {
    using T = typename decltype(tag)::type;
    switch (red) {
      case Reduction::kAdd:
        return body(tag, [](T& d, const T& s) { d = FromCompute<T>(ToCompute(d) + ToCompute(s)); });
      case Reduction::kMul:
        return body(tag, [](T& d, const T& s) { d = FromCompute<T>(ToCompute(d) * ToCompute(s)); });
      case Reduction::kMax:
        return body(tag, [](T& d, const T& s) {
          d = FromCompute<T>(std::max(ToCompute(d), ToCompute(s)));
        });
      default:
        return body(tag, [](T& d, const T& s) {
          d = FromCompute<T>(std::min(ToCompute(d), ToCompute(s)));
        });
    }
  });
}

// ---------------------------------------------------------- ScatterElements

ge::Status CheckSameShape(const gert::ContextBase& ctx, const gert::Shape& indices,
                          const gert::Shape& updates) {
  if (indices.IsUnknownRank() || updates.IsUnknownRank()) return ge::OkStatus();
  bool ok = indices.GetDimNum() == updates.GetDimNum();
  for (size_t k = 0; ok && k < indices.GetDimNum(); ++k) {
    const int64_t a = indices.GetDim(k), b = updates.GetDim(k);
    ok = a < 0 || b < 0 || a == b;
  }
  if (!ok) {
    return ctx.Error("updates ", updates.ToString(), " must have the shape of indices ",
                     indices.ToString());
  }
  return ge::OkStatus();
}

ge::Status InferScatterElements(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* data, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Shape* indices, InputShape(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Shape* updates, InputShape(ctx, 2));
  RETURN_IF_ERROR(GetReduction(ctx).status());
  RETURN_IF_ERROR(ElementsAxis(ctx, *data, *indices).status());
  RETURN_IF_ERROR(CheckSameShape(ctx, *indices, *updates));
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, *data));
  return CopyInputRange(ctx, 0, 0);  // the output has data's shape
}

ge::Status ScatterElementsKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* data, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* ind_t, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Tensor* upd, GetKernelInput(ctx, 2));
  ASSIGN_OR_RETURN(Reduction red, GetReduction(ctx));
  ASSIGN_OR_RETURN(int64_t axis, ElementsAxis(ctx, data->GetShape(), ind_t->GetShape()));
  RETURN_IF_ERROR(CheckSameShape(ctx, ind_t->GetShape(), upd->GetShape()));
  if (upd->GetDataType() != data->GetDataType()) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "updates are ",
                             DataTypeName(upd->GetDataType()), " but data is ",
                             DataTypeName(data->GetDataType()));
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> indices, WithNodeOr(ctx, ReadIntTensor(*ind_t)));
  const absl::Span<const int64_t> ddims = data->GetShape().GetDims();
  RETURN_IF_ERROR(NormalizeIndices(ctx, &indices, ddims[axis], "indices"));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, data->GetShape(), data->GetDataType()));
  RETURN_IF_ERROR(WithNode(ctx, CopyElements(*data, y)));
  const std::vector<int64_t> ds = RowMajorStrides(ddims);
  return DispatchScatter(ctx, data->GetDataType(), red, [&](auto tag, auto combine) {
    using T = typename decltype(tag)::type;
    const T* u = upd->GetData<T>();
    T* o = y->GetData<T>();
    ForEachElementsIndex(ind_t->GetShape().GetDims(), ds, axis, [&](int64_t i, int64_t off) {
      combine(o[off + indices[i] * ds[axis]], u[i]);
    });
    return ge::OkStatus();
  });
}

// ---------------------------------------------------------------- ScatterND

// Checks ranks and updates' shape; returns indices.shape[-1] (or -1).
ge::StatusOr<int64_t> ScatterNdCheck(const gert::ContextBase& ctx, const gert::Shape& data,
                                     const gert::Shape& indices, const gert::Shape& updates) {
  if (data.IsUnknownRank() || indices.IsUnknownRank()) return -1;
  const int64_t r = static_cast<int64_t>(data.GetDimNum());
  const int64_t q = static_cast<int64_t>(indices.GetDimNum());
  if (r < 1 || q < 1) {
    return ctx.Error("data ", data.ToString(), " and indices ", indices.ToString(),
                     " must have rank >= 1");
  }
  const int64_t k = indices.GetDim(q - 1);
  if (k < 0) return -1;
  if (k > r) {
    return ctx.Error("indices ", indices.ToString(), " last dim ", k, " exceeds the rank of data ",
                     data.ToString());
  }
  if (updates.IsUnknownRank()) return k;
  gert::Shape expect;
  for (int64_t i = 0; i < q - 1; ++i) expect.AppendDim(indices.GetDim(i));
  for (int64_t i = k; i < r; ++i) {
    if (!expect.CanAppend()) return ctx.Error("updates rank exceeds the maximum");
    expect.AppendDim(data.GetDim(i));
  }
  bool ok = expect.GetDimNum() == updates.GetDimNum();
  for (size_t i = 0; ok && i < expect.GetDimNum(); ++i) {
    ok = expect.GetDim(i) < 0 || updates.GetDim(i) < 0 || expect.GetDim(i) == updates.GetDim(i);
  }
  if (!ok) {
    return ctx.Error("updates ", updates.ToString(), " must have shape ", expect.ToString(),
                     " (indices[:-1] + data[", k, ":])");
  }
  return k;
}

ge::Status InferScatterNd(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* data, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Shape* indices, InputShape(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Shape* updates, InputShape(ctx, 2));
  RETURN_IF_ERROR(GetReduction(ctx).status());
  RETURN_IF_ERROR(ScatterNdCheck(ctx, *data, *indices, *updates).status());
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, *data));
  return CopyInputRange(ctx, 0, 0);  // the output has data's shape
}

ge::Status ScatterNdKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* data, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* ind_t, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Tensor* upd, GetKernelInput(ctx, 2));
  ASSIGN_OR_RETURN(Reduction red, GetReduction(ctx));
  ASSIGN_OR_RETURN(int64_t k,
                   ScatterNdCheck(ctx, data->GetShape(), ind_t->GetShape(), upd->GetShape()));
  if (upd->GetDataType() != data->GetDataType()) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "updates are ",
                             DataTypeName(upd->GetDataType()), " but data is ",
                             DataTypeName(data->GetDataType()));
  }
  ASSIGN_OR_RETURN(std::vector<int64_t> indices, WithNodeOr(ctx, ReadIntTensor(*ind_t)));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, data->GetShape(), data->GetDataType()));
  RETURN_IF_ERROR(WithNode(ctx, CopyElements(*data, y)));
  const absl::Span<const int64_t> ddims = data->GetShape().GetDims();
  const int64_t slice = Product(ddims.subspan(k));
  std::vector<int64_t> offsets;
  if (k == 0) {
    offsets.assign(ind_t->GetShapeSize() == 0 ? 0
                                              : Product(ind_t->GetShape().GetDims().subspan(
                                                    0, ind_t->GetShape().GetDimNum() - 1)),
                   0);
  } else {
    ASSIGN_OR_RETURN(offsets, TupleOffsets(ctx, indices, ddims, k, slice));
  }
  return DispatchScatter(ctx, data->GetDataType(), red, [&](auto tag, auto combine) {
    using T = typename decltype(tag)::type;
    const T* u = upd->GetData<T>();
    T* o = y->GetData<T>();
    for (size_t t = 0; t < offsets.size(); ++t) {
      T* dst = o + offsets[t];
      const T* src = u + static_cast<int64_t>(t) * slice;
      for (int64_t j = 0; j < slice; ++j) combine(dst[j], src[j]);
    }
    return ge::OkStatus();
  });
}

// ----------------------------------------------------------------- Compress

// Number of true values in condition that select along a dim of size `dim`
// (condition may be shorter; a true beyond dim is an error).
ge::StatusOr<int64_t> CountSelected(const gert::ContextBase& ctx, const gert::Tensor& cond,
                                    int64_t dim) {
  if (cond.GetDataType() != ge::DT_BOOL) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "condition must be DT_BOOL, got ",
                             DataTypeName(cond.GetDataType()));
  }
  RETURN_IF_ERROR(WithNode(ctx, CheckTensorData(cond)));
  const bool* c = cond.GetData<bool>();
  const int64_t n = cond.GetShapeSize();
  int64_t count = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!c[i]) continue;
    if (dim >= 0 && i >= dim) {
      return ctx.ErrorWithCode(ge::ErrorCode::kOutOfRange, "condition[", i,
                               "] is true but the compressed axis has size ", dim);
    }
    ++count;
  }
  return count;
}

ge::Status InferCompress(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Shape* cond, InputShape(ctx, 1));
  if (!cond->IsUnknownRank() && cond->GetDimNum() != 1) {
    return ctx.Error("condition must be 1-D, got ", cond->ToString());
  }
  const bool has_axis = ctx.HasAttr("axis");
  gert::Shape out;
  int64_t dim = -1;
  int64_t axis = 0;
  if (!has_axis) {
    out = gert::Shape{-1};
    dim = x->IsUnknownRank() ? -1 : x->GetShapeSize();
  } else {
    if (x->IsUnknownRank()) return SetOutputShape(ctx, 0, UnknownRankShape());
    ASSIGN_OR_RETURN(axis, ctx.GetInt("axis"));
    ASSIGN_OR_RETURN(axis,
                     WithNodeOr(ctx, NormalizeAxis(axis, static_cast<int64_t>(x->GetDimNum()))));
    out = *x;
    out.SetDim(axis, -1);
    dim = x->GetDim(axis);
  }
  if (const gert::Tensor* cv = KnownInputTensor(ctx, 1); cv != nullptr) {
    ASSIGN_OR_RETURN(int64_t count, CountSelected(ctx, *cv, dim));
    out.SetDim(has_axis ? axis : 0, count);
  }
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (x->IsUnknownRank() || !WantDataDependentRange(ctx, 0)) return ge::OkStatus();
  // At most every element (without axis) or every slice along the axis.
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  if (!has_axis) return SetOutputRange(ctx, 0, {SelectedCountRange(NumelRange(xr))});
  xr[static_cast<size_t>(axis)] = SelectedCountRange(xr[static_cast<size_t>(axis)]);
  return SetOutputRange(ctx, 0, std::move(xr));
}

ge::Status CompressKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* cond, GetKernelInput(ctx, 1));
  const gert::Shape& xs = x->GetShape();
  const bool has_axis = ctx.HasAttr("axis");
  int64_t axis = 0, outer = 1, dim = xs.GetShapeSize(), inner = 1;
  if (has_axis) {
    ASSIGN_OR_RETURN(axis, ctx.GetInt("axis"));
    ASSIGN_OR_RETURN(axis,
                     WithNodeOr(ctx, NormalizeAxis(axis, static_cast<int64_t>(xs.GetDimNum()))));
    outer = Product(xs.GetDims().subspan(0, axis));
    dim = xs.GetDim(axis);
    inner = Product(xs.GetDims().subspan(axis + 1));
  }
  ASSIGN_OR_RETURN(int64_t count, CountSelected(ctx, *cond, dim));
  gert::Shape out{count};
  if (has_axis) {
    out = xs;
    out.SetDim(axis, count);
  }
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, out, x->GetDataType()));
  const bool* c = cond->GetData<bool>();
  const int64_t n = std::min(cond->GetShapeSize(), dim);
  return DispatchMoveFor(ctx, x->GetDataType(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* in = x->GetData<T>();
    T* o = y->GetData<T>();
    for (int64_t b = 0; b < outer; ++b) {
      for (int64_t i = 0; i < n; ++i) {
        if (c[i]) o = std::copy_n(in + (b * dim + i) * inner, inner, o);
      }
    }
    return ge::OkStatus();
  });
}

// ------------------------------------------------------------------ NonZero

template <typename T>
bool IsNonZero(const T& v) {
  if constexpr (std::is_same_v<T, std::string>) {
    return !v.empty();
  } else if constexpr (kIsHalf<T>) {
    return (v.bits & 0x7fffu) != 0;
  } else {
    return v != T{};
  }
}

// Count of non-zero elements of t.
ge::StatusOr<int64_t> CountNonZero(const gert::ContextBase& ctx, const gert::Tensor& t) {
  int64_t count = 0;
  RETURN_IF_ERROR(WithNode(ctx, CheckTensorData(t)));
  RETURN_IF_ERROR(DispatchTypeFor<kTgAll>(ctx, t.GetDataType(), "NonZero", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = t.GetData<T>();
    for (int64_t i = 0, n = t.GetShapeSize(); i < n; ++i) count += IsNonZero(p[i]) ? 1 : 0;
    return ge::OkStatus();
  }));
  return count;
}

ge::Status InferNonZero(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  const int64_t r = x->IsUnknownRank() ? -1 : static_cast<int64_t>(x->GetDimNum());
  int64_t count = -1;
  if (const gert::Tensor* v = KnownInputTensor(ctx, 0); v != nullptr) {
    ASSIGN_OR_RETURN(count, CountNonZero(ctx, *v));
  }
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, gert::Shape{r, count}));
  if (r < 0 || !WantDataDependentRange(ctx, 0)) return ge::OkStatus();
  // [rank, count] with count in [0, numel(x)].
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  return SetOutputRange(ctx, 0, {DimRange{r, r}, SelectedCountRange(NumelRange(xr))});
}

ge::Status NonZeroKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(int64_t count, CountNonZero(ctx, *x));
  const gert::Shape& xs = x->GetShape();
  const int64_t r = static_cast<int64_t>(xs.GetDimNum());
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, gert::Shape{r, count}, ge::DT_INT64));
  int64_t* o = y->GetData<int64_t>();
  return DispatchTypeFor<kTgAll>(ctx, x->GetDataType(), "NonZero", [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = x->GetData<T>();
    std::vector<int64_t> coord(r, 0);
    int64_t j = 0;
    for (int64_t i = 0, n = x->GetShapeSize(); i < n; ++i) {
      if (IsNonZero(p[i])) {
        for (int64_t d = 0; d < r; ++d) o[d * count + j] = coord[d];
        ++j;
      }
      for (int64_t d = r; d-- > 0;) {
        if (++coord[d] < xs.GetDim(d)) break;
        coord[d] = 0;
      }
    }
    return ge::OkStatus();
  });
}

ge::Status InferInt64Output(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ge::DT_INT64);
  return ge::OkStatus();
}

// ------------------------------------------------------------- registration

REG_OP(Gather)
    .Input("data", ArrayTensorTypes())
    .Input("indices", IndexTensorTypes())
    .Output("output", ArrayTensorTypes())
    .Attr("axis", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferGather);
REG_KERNEL(Gather, ge::kEngineHostCpu).Fn(GatherKernel);

REG_OP(GatherElements)
    .Input("data", ArrayTensorTypes())
    .Input("indices", IndexTensorTypes())
    .Output("output", ArrayTensorTypes())
    .Attr("axis", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferGatherElements);
REG_KERNEL(GatherElements, ge::kEngineHostCpu).Fn(GatherElementsKernel);

REG_OP(GatherND)
    .Input("data", ArrayTensorTypes())
    .Input("indices", kInt64)
    .Output("output", ArrayTensorTypes())
    .Attr("batch_dims", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferGatherNd);
REG_KERNEL(GatherND, ge::kEngineHostCpu).Fn(GatherNdKernel);

REG_OP(ScatterElements)
    .Input("data", ArrayTensorTypes())
    .Input("indices", IndexTensorTypes())
    .Input("updates", ArrayTensorTypes())
    .Output("output", ArrayTensorTypes())
    .Attr("axis", ge::AttrValue::CreateFrom<int64_t>(0))
    .Attr("reduction", ge::AttrValue::CreateFrom<std::string>("none"))
    .InferShape(InferScatterElements)
    .Verify(VerifySameType02);
REG_KERNEL(ScatterElements, ge::kEngineHostCpu).Fn(ScatterElementsKernel);

// Deprecated alias (opset 9-10): ScatterElements without reduction.
REG_OP(Scatter)
    .Input("data", ArrayTensorTypes())
    .Input("indices", IndexTensorTypes())
    .Input("updates", ArrayTensorTypes())
    .Output("output", ArrayTensorTypes())
    .Attr("axis", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferScatterElements)
    .Verify(VerifySameType02);
REG_KERNEL(Scatter, ge::kEngineHostCpu).Fn(ScatterElementsKernel);

REG_OP(ScatterND)
    .Input("data", ArrayTensorTypes())
    .Input("indices", kInt64)
    .Input("updates", ArrayTensorTypes())
    .Output("output", ArrayTensorTypes())
    .Attr("reduction", ge::AttrValue::CreateFrom<std::string>("none"))
    .InferShape(InferScatterNd)
    .Verify(VerifySameType02);
REG_KERNEL(ScatterND, ge::kEngineHostCpu).Fn(ScatterNdKernel);

REG_OP(Compress)
    .Input("input", ArrayTensorTypes())
    .Input("condition", kBool)
    .Output("output", ArrayTensorTypes())
    .InferShape(InferCompress)
    .DataDependentOutputShape()
    .ValueDependentInput("condition");
REG_KERNEL(Compress, ge::kEngineHostCpu).Fn(CompressKernel);

REG_OP(NonZero)
    .Input("X", ArrayTensorTypes())
    .Output("Y", kInt64)
    .InferShape(InferNonZero)
    .InferDataType(InferInt64Output)
    .DataDependentOutputShape()
    .ValueDependentInput("X");
REG_KERNEL(NonZero, ge::kEngineHostCpu).Fn(NonZeroKernel);

}  // namespace
}  // namespace ops
