// ops/array/array_util.h
//
// Helpers shared by the array (shape manipulation / data movement) ops that
// are not in //ops/common:op_util:
//
//   DispatchMove      type-agnostic dispatch for data movement: calls
//                     f(TypeTag<T>{}) with T an unsigned integer (or Pod128)
//                     of the element's size, or std::string for STRING. A
//                     kernel that only copies elements is compiled 6 times
//                     instead of once per dtype.
//   AxisMapCopy       out[o_0, .., o_{r-1}] = in[sum_k maps[k][o_k]] (element
//                     offsets) or a fill value when any maps[k][o_k] < 0. One
//                     engine for Transpose, Slice, Tile, Expand, Pad and
//                     nearest Resize; trailing identity axes are merged into
//                     block copies.
//   CopyElements      in -> out element-wise copy (Reshape, Identity, ...).
//   Shapes            UnknownRankShape(), ShapeFromDims (checked rank),
//                     RowMajorStrides, ArrayTensorTypes() (every ONNX type).
//   Values            KnownInputInts: the value of an INT32/INT64 input in an
//                     infer shape context, when known.
//
// Errors from helpers that do not see a context carry no node prefix; wrap
// them with ops::WithNode.
//
// Example (a transpose by maps)
//   std::vector<std::vector<int64_t>> maps(rank);
//   for (size_t k = 0; k < rank; ++k)
//     for (int64_t i = 0; i < out_dims[k]; ++i) maps[k].push_back(i * in_strides[perm[k]]);
//   RETURN_IF_ERROR(ops::AxisMapCopy(*x, maps, nullptr, y));
#ifndef OPS_ARRAY_ARRAY_UTIL_H_
#define OPS_ARRAY_ARRAY_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "ops/common/op_util.h"

namespace ops {

// A 16-byte element moved as a unit (COMPLEX128).
struct Pod128 {
  uint64_t lo;
  uint64_t hi;
};

// Calls f(TypeTag<T>{}) with T the movement type of `dt`: uint8_t, uint16_t,
// uint32_t, uint64_t or Pod128 by element size, std::string for STRING.
// NotSupported naming the dtype for sub-byte and non-tensor types.
template <typename F>
ge::Status DispatchMove(ge::DataType dt, F&& f, absl::string_view what = "this op") {
  switch (dt) {
    case ge::DT_INT8:
    case ge::DT_UINT8:
    case ge::DT_BOOL:
    case ge::DT_QINT8:
    case ge::DT_QUINT8:
    case ge::DT_DUAL_SUB_INT8:
    case ge::DT_DUAL_SUB_UINT8:
    case ge::DT_HIFLOAT8:
    case ge::DT_FLOAT8_E5M2:
    case ge::DT_FLOAT8_E4M3FN:
    case ge::DT_FLOAT8_E8M0:
      return f(TypeTag<uint8_t>{});
    case ge::DT_FLOAT16:
    case ge::DT_BF16:
    case ge::DT_INT16:
    case ge::DT_UINT16:
    case ge::DT_QINT16:
    case ge::DT_QUINT16:
      return f(TypeTag<uint16_t>{});
    case ge::DT_FLOAT:
    case ge::DT_INT32:
    case ge::DT_UINT32:
    case ge::DT_QINT32:
    case ge::DT_COMPLEX32:
      return f(TypeTag<uint32_t>{});
    case ge::DT_DOUBLE:
    case ge::DT_INT64:
    case ge::DT_UINT64:
    case ge::DT_COMPLEX64:
      return f(TypeTag<uint64_t>{});
    case ge::DT_COMPLEX128:
      return f(TypeTag<Pod128>{});
    case ge::DT_STRING:
      return f(TypeTag<std::string>{});
    default:
      break;
  }
  return ge::NotSupported("data type ", DataTypeName(dt), " is not supported for ", what);
}

// DispatchMove / DispatchType with errors prefixed by the node (the lambda
// comes last, so call sites read like a loop body).
template <typename F>
ge::Status DispatchMoveFor(const gert::ContextBase& ctx, ge::DataType dt, F&& f) {
  return WithNode(ctx, DispatchMove(dt, std::forward<F>(f)));
}
template <uint32_t kGroups, typename F>
ge::Status DispatchTypeFor(const gert::ContextBase& ctx, ge::DataType dt, absl::string_view what,
                           F&& f) {
  return WithNode(ctx, DispatchType<kGroups>(dt, std::forward<F>(f), what));
}

// Every tensor type ONNX allows for the array ops: floats (incl. FLOAT16,
// BF16), signed / unsigned ints, BOOL, STRING, COMPLEX64 / COMPLEX128.
ge::TensorType ArrayTensorTypes();
// INT32 and INT64 (index inputs).
ge::TensorType IndexTensorTypes();
// Real numbers and BOOL (no STRING / complex).
ge::TensorType RealBoolTensorTypes();

// [-2]: a shape of unknown rank.
inline gert::Shape UnknownRankShape() { return gert::Shape{ge::UNKNOWN_RANK}; }
// A shape of `rank` unknown (-1) dims; unknown rank when rank < 0 or too big.
gert::Shape UnknownDimsShape(int64_t rank);
// Checked: rank <= gert::kMaxDimNum and dims >= -1.
ge::StatusOr<gert::Shape> ShapeFromDims(absl::Span<const int64_t> dims);
// Row-major element strides of `dims` (last stride 1).
std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dims);

// The known value of input i of an infer shape context as int64s: nullopt
// when the value is unknown (or its shape is), an error when it is present
// but not INT32/INT64 or its data is short.
ge::StatusOr<std::optional<std::vector<int64_t>>> KnownInputInts(const gert::InferShapeContext& ctx,
                                                                 size_t i);

// Input i's value tensor when known (shape known and data present), else
// nullptr.
const gert::Tensor* KnownInputTensor(const gert::InferShapeContext& ctx, size_t i);

// out[o] = in[sum_k maps[k][o_k]] for every multi-index o of out's shape,
// or *fill (default-constructed element when fill is null) when any
// maps[k][o_k] < 0. maps.size() must equal out's rank and maps[k].size() its
// dim k; offsets (elements) are checked against in's element count. in and
// out must have the same dtype. `fill` points at one element of that dtype
// (a std::string for STRING).
ge::Status AxisMapCopy(const gert::Tensor& in, const std::vector<std::vector<int64_t>>& maps,
                       const void* fill, gert::Tensor* out);

// Copies every element of `in` to `out` (same dtype and element count;
// shapes may differ). No-op when both point at the same memory.
ge::Status CopyElements(const gert::Tensor& in, gert::Tensor* out);

// Input i's shape; an error naming the node when the input is missing.
ge::StatusOr<const gert::Shape*> InputShape(const gert::InferShapeContext& ctx, size_t i);
// *ctx.GetOutputShape(i) = shape; an error naming the node when the context
// has no output i.
ge::Status SetOutputShape(gert::InferShapeContext& ctx, size_t i, const gert::Shape& shape);

// `v` with its error prefixed by the node (see ops::WithNode).
template <typename T>
ge::StatusOr<T> WithNodeOr(const gert::ContextBase& ctx, ge::StatusOr<T> v) {
  if (!v.ok()) return WithNode(ctx, v.status());
  return v;
}

// Fills every element of `out` with *value (an element of out's dtype).
ge::Status FillElements(const void* value, gert::Tensor* out);

}  // namespace ops

#endif  // OPS_ARRAY_ARRAY_UTIL_H_
