// ops/array/generator_ops.cc
//
// Ops that create tensors (ONNX opset 17 semantics):
//   Range            (start, limit, delta) scalars: max(ceil((limit - start) /
//                    delta), 0) elements start + i * delta.
//   ConstantOfShape  (shape) filled with the `value` tensor attribute's single
//                    element (default FLOAT 0).
//   Constant         no inputs; exactly one of the attributes value (tensor),
//                    value_float(s), value_int(s), value_string(s).
//   EyeLike          2-D, ones on the diagonal shifted by k; dtype attribute
//                    (ge::DataType) or the input's type.
//   OneHot           (indices, depth, values = [off, on]) axis attr; negative
//                    indices count from depth, out-of-range ones give all-off.
// Output shapes depending on values (Range, ConstantOfShape, OneHot depth)
// are -1 when the value is unknown at compile time.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/array/array_util.h"
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

const ge::TensorType kInt64{ge::DT_INT64};

// -------------------------------------------------------------------- Range

// Element count of a range; the values are read from the three tensors.
ge::StatusOr<int64_t> RangeCount(const gert::ContextBase& ctx, const gert::Tensor* const in[3]) {
  for (int i = 0; i < 3; ++i) {
    if (in[i]->GetShapeSize() != 1) {
      return ctx.Error("input ", i, " must be a scalar, got ", in[i]->GetShape().ToString());
    }
    if (in[i]->GetDataType() != in[0]->GetDataType()) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input ", i, " is ",
                               DataTypeName(in[i]->GetDataType()), " but input 0 is ",
                               DataTypeName(in[0]->GetDataType()));
    }
  }
  const ge::DataType dt = in[0]->GetDataType();
  if (dt == ge::DT_INT32 || dt == ge::DT_INT64) {
    int64_t v[3];
    for (int i = 0; i < 3; ++i) {
      ASSIGN_OR_RETURN(std::vector<int64_t> x, WithNodeOr(ctx, ReadIntTensor(*in[i])));
      v[i] = x[0];
    }
    if (v[2] == 0) return ctx.Error("delta is 0");
    const __int128 diff = static_cast<__int128>(v[1]) - v[0];
    const __int128 d = v[2];
    __int128 n = 0;
    if ((diff > 0 && d > 0) || (diff < 0 && d < 0)) {
      const __int128 ad = d > 0 ? d : -d, adiff = diff > 0 ? diff : -diff;
      n = (adiff + ad - 1) / ad;
    }
    return static_cast<int64_t>(n);
  }
  double v[3];
  for (int i = 0; i < 3; ++i) {
    ASSIGN_OR_RETURN(std::vector<double> x, WithNodeOr(ctx, ReadAsDoubles(*in[i])));
    v[i] = x[0];
  }
  if (v[2] == 0) return ctx.Error("delta is 0");
  const double n = std::ceil((v[1] - v[0]) / v[2]);
  if (!std::isfinite(n) || n > 9.0e15) {
    return ctx.Error("range (", v[0], ", ", v[1], ", ", v[2], ") has no finite element count");
  }
  return n > 0 ? static_cast<int64_t>(n) : 0;
}

// The range of Range's element count when some input value is unknown:
// integer start and limit bound it by |limit - start| (|delta| >= 1);
// otherwise it is unbounded.
DimRange RangeCountBound(const gert::Tensor* const in[3]) {
  if (in[0] == nullptr || in[1] == nullptr) return DimRange{0, kUnboundedDim};
  const ge::DataType dt = in[0]->GetDataType();
  if ((dt != ge::DT_INT32 && dt != ge::DT_INT64) || in[1]->GetDataType() != dt) {
    return DimRange{0, kUnboundedDim};
  }
  ge::StatusOr<std::vector<int64_t>> start = ReadIntTensor(*in[0]);
  ge::StatusOr<std::vector<int64_t>> limit = ReadIntTensor(*in[1]);
  if (!start.ok() || !limit.ok() || start->size() != 1 || limit->size() != 1) {
    return DimRange{0, kUnboundedDim};
  }
  const __int128 diff = static_cast<__int128>((*limit)[0]) - (*start)[0];
  const __int128 ad = diff < 0 ? -diff : diff;
  if (ad >= std::numeric_limits<int64_t>::max()) return DimRange{0, kUnboundedDim};
  return DimRange{0, static_cast<int64_t>(ad)};
}

ge::Status InferRange(gert::InferShapeContext& ctx) {
  const gert::Tensor* in[3];
  for (size_t i = 0; i < 3; ++i) {
    ASSIGN_OR_RETURN(const gert::Shape* s, InputShape(ctx, i));
    if (!s->IsUnknownShape() && s->GetShapeSize() != 1) {
      return ctx.Error("input ", i, " must be a scalar, got ", s->ToString());
    }
    in[i] = KnownInputTensor(ctx, i);
  }
  if (in[0] == nullptr || in[1] == nullptr || in[2] == nullptr) {
    RETURN_IF_ERROR(SetOutputShape(ctx, 0, gert::Shape{ge::UNKNOWN_DIM}));
    return SetOutputRange(ctx, 0, {RangeCountBound(in)});
  }
  ASSIGN_OR_RETURN(int64_t n, RangeCount(ctx, in));
  return SetOutputShape(ctx, 0, gert::Shape{n});
}

ge::Status VerifyRange(gert::InferShapeContext& ctx) {
  for (size_t i = 1; i < 3; ++i) {
    if (ctx.GetInputDataType(i) != ctx.GetInputDataType(0)) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input ", i, " is ",
                               DataTypeName(ctx.GetInputDataType(i)), " but input 0 is ",
                               DataTypeName(ctx.GetInputDataType(0)));
    }
  }
  return ge::OkStatus();
}

ge::Status RangeKernel(gert::KernelContext& ctx) {
  const gert::Tensor* in[3];
  for (size_t i = 0; i < 3; ++i) {
    ASSIGN_OR_RETURN(in[i], GetKernelInput(ctx, i));
  }
  ASSIGN_OR_RETURN(int64_t n, RangeCount(ctx, in));
  const ge::DataType dt = in[0]->GetDataType();
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, gert::Shape{n}, dt));
  return DispatchTypeFor<kTgReal>(ctx, dt, "Range", [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = ComputeType<T>;
    const C start = ToCompute(*in[0]->GetData<T>());
    const C delta = ToCompute(*in[2]->GetData<T>());
    T* o = y->GetData<T>();
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (std::is_integral_v<C>) {
        // Wrapping arithmetic: the true value fits T, intermediate products
        // need not.
        o[i] = static_cast<T>(static_cast<uint64_t>(start) +
                              static_cast<uint64_t>(i) * static_cast<uint64_t>(delta));
      } else {
        o[i] = FromCompute<T>(static_cast<C>(start + static_cast<C>(i) * delta));
      }
    }
    return ge::OkStatus();
  });
}

// ---------------------------------------------------------- ConstantOfShape

// The fill element of ConstantOfShape: dtype and one element's bytes.
struct FillValue {
  ge::DataType dtype = ge::DT_FLOAT;
  alignas(16) uint8_t bytes[16] = {};
};

ge::StatusOr<FillValue> GetFillValue(const gert::ContextBase& ctx) {
  FillValue f;
  const ge::GeTensor* t = ctx.GetTensorAttr("value");
  if (t == nullptr) {
    if (ctx.HasAttr("value")) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "attribute value must be a tensor");
    }
    return f;  // FLOAT 0
  }
  f.dtype = t->GetTensorDesc().GetDataType();
  if (f.dtype == ge::DT_STRING) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "value must not be a STRING tensor");
  }
  ASSIGN_OR_RETURN(size_t size, WithNodeOr(ctx, gert::HostStorageBytes(f.dtype, 1)));
  const absl::Span<const uint8_t> data = t->GetData();
  if (data.size() != size || size > sizeof(f.bytes)) {
    return ctx.Error("value must hold exactly one ", DataTypeName(f.dtype), " element (", size,
                     " bytes), got ", data.size(), " bytes");
  }
  std::memcpy(f.bytes, data.data(), size);
  return f;
}

ge::StatusOr<gert::Shape> ConstantOfShapeShape(const gert::ContextBase& ctx,
                                               absl::Span<const int64_t> dims) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      return ctx.Error("shape input [", absl::StrJoin(dims, ","), "] has a negative dim at ", i);
    }
  }
  return WithNodeOr(ctx, ShapeFromDims(dims));
}

ge::Status InferConstantOfShape(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* s, InputShape(ctx, 0));
  if (!s->IsUnknownRank() && s->GetDimNum() != 1) {
    return ctx.Error("input must be 1-D, got ", s->ToString());
  }
  ASSIGN_OR_RETURN(std::optional<std::vector<int64_t>> dims,
                   WithNodeOr(ctx, KnownInputInts(ctx, 0)));
  if (!dims.has_value()) {
    return SetOutputShape(ctx, 0,
                          s->IsUnknownRank() ? UnknownRankShape() : UnknownDimsShape(s->GetDim(0)));
  }
  ASSIGN_OR_RETURN(gert::Shape out, ConstantOfShapeShape(ctx, *dims));
  return SetOutputShape(ctx, 0, out);
}

ge::Status InferConstantOfShapeType(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(FillValue f, GetFillValue(ctx));
  ctx.SetOutputDataType(0, f.dtype);
  return ge::OkStatus();
}

ge::Status ConstantOfShapeKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* s, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(std::vector<int64_t> dims, WithNodeOr(ctx, ReadIntTensor(*s)));
  ASSIGN_OR_RETURN(gert::Shape shape, ConstantOfShapeShape(ctx, dims));
  ASSIGN_OR_RETURN(FillValue f, GetFillValue(ctx));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, shape, f.dtype));
  return WithNode(ctx, FillElements(f.bytes, y));
}

// ----------------------------------------------------------------- Constant

// What a Constant node outputs: a tensor attribute, or numbers / strings.
struct ConstantValue {
  ge::DataType dtype = ge::DT_UNDEFINED;
  gert::Shape shape;
  const ge::GeTensor* tensor = nullptr;  // for `value`
  std::vector<float> floats;
  std::vector<int64_t> ints;
  std::vector<std::string> strings;
};

ge::StatusOr<ConstantValue> GetConstantValue(const gert::ContextBase& ctx) {
  static const char* const kNames[] = {"value",         "value_float", "value_floats",
                                       "value_int",     "value_ints",  "value_string",
                                       "value_strings", "sparse_value"};
  std::vector<std::string> present;
  for (const char* n : kNames) {
    if (ctx.HasAttr(n)) present.push_back(n);
  }
  if (present.size() != 1) {
    return ctx.Error(
        "exactly one of value, value_float(s), value_int(s), value_string(s) must "
        "be set, got ",
        present.empty() ? std::string("none") : absl::StrJoin(present, ", "));
  }
  const std::string& name = present[0];
  ConstantValue v;
  if (name == "value") {
    v.tensor = ctx.GetTensorAttr("value");
    if (v.tensor == nullptr) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "attribute value must be a tensor");
    }
    const ge::GeTensorDesc& desc = v.tensor->GetTensorDesc();
    v.dtype = desc.GetDataType();
    if (v.dtype == ge::DT_STRING) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported,
                               "STRING tensors in attribute value are not supported; use "
                               "value_strings");
    }
    const absl::Span<const int64_t> dims = desc.GetShape().GetDimsSpan();
    ASSIGN_OR_RETURN(v.shape, WithNodeOr(ctx, ShapeFromDims(dims)));
    if (v.shape.IsUnknownShape()) {
      return ctx.Error("attribute value has unknown shape ", v.shape.ToString());
    }
    ASSIGN_OR_RETURN(size_t bytes,
                     WithNodeOr(ctx, gert::HostStorageBytes(v.dtype, v.shape.GetShapeSize())));
    if (v.tensor->GetDataSize() != bytes) {
      return ctx.Error("attribute value ", v.shape.ToString(), " ", DataTypeName(v.dtype),
                       " needs ", bytes, " bytes but holds ", v.tensor->GetDataSize());
    }
  } else if (name == "value_float") {
    ASSIGN_OR_RETURN(float f, ctx.GetFloat(name));
    v.dtype = ge::DT_FLOAT;
    v.floats = {f};
  } else if (name == "value_floats") {
    ASSIGN_OR_RETURN(v.floats, ctx.GetListFloat(name));
    v.dtype = ge::DT_FLOAT;
    v.shape = gert::Shape{static_cast<int64_t>(v.floats.size())};
  } else if (name == "value_int") {
    ASSIGN_OR_RETURN(int64_t i, ctx.GetInt(name));
    v.dtype = ge::DT_INT64;
    v.ints = {i};
  } else if (name == "value_ints") {
    ASSIGN_OR_RETURN(v.ints, ctx.GetListInt(name));
    v.dtype = ge::DT_INT64;
    v.shape = gert::Shape{static_cast<int64_t>(v.ints.size())};
  } else if (name == "value_string") {
    ASSIGN_OR_RETURN(std::string s, ctx.GetStr(name));
    v.dtype = ge::DT_STRING;
    v.strings = {s};
  } else if (name == "value_strings") {
    ASSIGN_OR_RETURN(v.strings, ctx.GetListStr(name));
    v.dtype = ge::DT_STRING;
    v.shape = gert::Shape{static_cast<int64_t>(v.strings.size())};
  } else {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "sparse_value is not supported");
  }
  return v;
}

ge::Status InferConstant(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(ConstantValue v, GetConstantValue(ctx));
  return SetOutputShape(ctx, 0, v.shape);
}

ge::Status InferConstantType(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(ConstantValue v, GetConstantValue(ctx));
  ctx.SetOutputDataType(0, v.dtype);
  return ge::OkStatus();
}

ge::Status ConstantKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(ConstantValue v, GetConstantValue(ctx));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, v.shape, v.dtype));
  if (v.tensor != nullptr) {
    const absl::Span<const uint8_t> data = v.tensor->GetData();
    if (!data.empty()) std::memcpy(y->GetAddr(), data.data(), data.size());
  } else if (v.dtype == ge::DT_FLOAT) {
    std::copy(v.floats.begin(), v.floats.end(), y->GetData<float>());
  } else if (v.dtype == ge::DT_INT64) {
    std::copy(v.ints.begin(), v.ints.end(), y->GetData<int64_t>());
  } else {
    std::copy(v.strings.begin(), v.strings.end(), y->GetData<std::string>());
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------------ EyeLike

ge::StatusOr<ge::DataType> EyeLikeType(const gert::ContextBase& ctx, ge::DataType input) {
  if (!ctx.HasAttr("dtype")) return input;
  return ctx.GetDataType("dtype");
}

ge::Status InferEyeLike(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  if (!x->IsUnknownRank() && x->GetDimNum() != 2) {
    return ctx.Error("input must be 2-D, got ", x->ToString());
  }
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, x->IsUnknownRank() ? UnknownDimsShape(2) : *x));
  return CopyInputRange(ctx, 0, 0);
}

ge::Status InferEyeLikeType(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(ge::DataType dt, EyeLikeType(ctx, ctx.GetInputDataType(0)));
  if (!RealBoolTensorTypes().Contains(dt)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "dtype ", DataTypeName(dt),
                             " is not supported");
  }
  ctx.SetOutputDataType(0, dt);
  return ge::OkStatus();
}

ge::Status EyeLikeKernel(gert::KernelContext& ctx) {
  const gert::Tensor* x = ctx.GetInputTensor(0);  // only the shape is read
  if (x == nullptr) return ctx.Error("input 0 is missing");
  const gert::Shape& xs = x->GetShape();
  if (xs.GetDimNum() != 2 || xs.IsUnknownShape()) {
    return ctx.Error("input must be 2-D with known dims, got ", xs.ToString());
  }
  ASSIGN_OR_RETURN(ge::DataType dt, EyeLikeType(ctx, x->GetDataType()));
  ASSIGN_OR_RETURN(int64_t k, ctx.GetIntOr("k", 0));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, xs, dt));
  const int64_t rows = xs.GetDim(0), cols = xs.GetDim(1);
  return DispatchTypeFor<kTgRealBool>(ctx, dt, "EyeLike", [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* o = y->GetData<T>();
    std::fill_n(o, rows * cols, FromCompute<T>(ComputeType<T>(0)));
    const T one = FromCompute<T>(ComputeType<T>(1));
    // (i, i + k) for i with 0 <= i < rows and 0 <= i + k < cols.
    const int64_t kc = std::clamp<int64_t>(k, -rows, cols);
    for (int64_t i = std::max<int64_t>(0, -kc); i < rows && i + kc < cols; ++i) {
      o[i * cols + i + kc] = one;
    }
    return ge::OkStatus();
  });
}

// ------------------------------------------------------------------- OneHot

ge::StatusOr<int64_t> OneHotDepth(const gert::ContextBase& ctx, const gert::Tensor& t) {
  if (t.GetShapeSize() != 1) {
    return ctx.Error("depth must have one element, got ", t.GetShape().ToString());
  }
  ASSIGN_OR_RETURN(std::vector<double> d, WithNodeOr(ctx, ReadAsDoubles(t)));
  if (!(d[0] >= 1) || d[0] > 9.0e15) return ctx.Error("depth ", d[0], " must be >= 1");
  return static_cast<int64_t>(d[0]);
}

// Output shape for indices `x`, depth (-1 unknown); sets *axis_out.
ge::StatusOr<gert::Shape> OneHotShape(const gert::ContextBase& ctx, const gert::Shape& x,
                                      int64_t depth, int64_t* axis_out) {
  ASSIGN_OR_RETURN(int64_t axis, ctx.GetIntOr("axis", -1));
  if (x.IsUnknownRank()) return UnknownRankShape();
  const int64_t r = static_cast<int64_t>(x.GetDimNum());
  ASSIGN_OR_RETURN(axis, WithNodeOr(ctx, NormalizeAxis(axis, r + 1)));
  if (r + 1 > static_cast<int64_t>(gert::kMaxDimNum)) return ctx.Error("output rank too big");
  if (axis_out != nullptr) *axis_out = axis;
  gert::Shape out;
  for (int64_t k = 0; k <= r; ++k) {
    if (k == axis) out.AppendDim(depth);
    if (k < r) out.AppendDim(x.GetDim(k));
  }
  return out;
}

ge::Status InferOneHot(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Shape* x, InputShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Shape* depth_shape, InputShape(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Shape* values, InputShape(ctx, 2));
  if (!values->IsUnknownShape() && values->GetShapeSize() != 2) {
    return ctx.Error("values must have 2 elements [off, on], got ", values->ToString());
  }
  if (!depth_shape->IsUnknownShape() && depth_shape->GetShapeSize() != 1) {
    return ctx.Error("depth must have one element, got ", depth_shape->ToString());
  }
  int64_t depth = -1;
  if (const gert::Tensor* d = KnownInputTensor(ctx, 1); d != nullptr) {
    ASSIGN_OR_RETURN(depth, OneHotDepth(ctx, *d));
  }
  int64_t axis = 0;
  ASSIGN_OR_RETURN(gert::Shape out, OneHotShape(ctx, *x, depth, &axis));
  RETURN_IF_ERROR(SetOutputShape(ctx, 0, out));
  if (!AnyInputRange(ctx) || out.IsUnknownRank()) return ge::OkStatus();
  // The indices' range with the depth dim inserted at the axis.
  ASSIGN_OR_RETURN(gert::ShapeRange range, InputRange(ctx, 0));
  range.insert(range.begin() + axis, DimRangeOf(depth));
  return SetOutputRange(ctx, 0, std::move(range));
}

ge::Status InferOneHotType(gert::InferShapeContext& ctx) {
  ctx.SetOutputDataType(0, ctx.GetInputDataType(2));
  return ge::OkStatus();
}

ge::Status OneHotKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* ind_t, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* depth_t, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const gert::Tensor* values, GetKernelInput(ctx, 2));
  if (values->GetShapeSize() != 2) {
    return ctx.Error("values must have 2 elements [off, on], got ", values->GetShape().ToString());
  }
  ASSIGN_OR_RETURN(int64_t depth, OneHotDepth(ctx, *depth_t));
  int64_t axis = 0;
  ASSIGN_OR_RETURN(gert::Shape out, OneHotShape(ctx, ind_t->GetShape(), depth, &axis));
  ASSIGN_OR_RETURN(std::vector<double> indices, WithNodeOr(ctx, ReadAsDoubles(*ind_t)));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, out, values->GetDataType()));
  const absl::Span<const int64_t> idims = ind_t->GetShape().GetDims();
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < axis; ++k) outer *= idims[k];
  for (size_t k = axis; k < idims.size(); ++k) inner *= idims[k];
  return DispatchMoveFor(ctx, values->GetDataType(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* v = values->GetData<T>();
    T* o = y->GetData<T>();
    std::fill_n(o, outer * depth * inner, v[0]);
    for (int64_t b = 0; b < outer; ++b) {
      for (int64_t i = 0; i < inner; ++i) {
        const double raw = indices[b * inner + i];
        if (!(raw > -static_cast<double>(depth) - 1 && raw < static_cast<double>(depth))) continue;
        int64_t idx = static_cast<int64_t>(raw);  // truncates like a cast to int64
        if (idx < 0) idx += depth;
        if (idx < 0 || idx >= depth) continue;
        o[(b * depth + idx) * inner + i] = v[1];
      }
    }
    return ge::OkStatus();
  });
}

// ------------------------------------------------------------- registration

REG_OP(Range)
    .Input("start",
           ge::TensorType({ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_INT16, ge::DT_INT32, ge::DT_INT64}))
    .Input("limit",
           ge::TensorType({ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_INT16, ge::DT_INT32, ge::DT_INT64}))
    .Input("delta",
           ge::TensorType({ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_INT16, ge::DT_INT32, ge::DT_INT64}))
    .Output("output",
            ge::TensorType({ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_INT16, ge::DT_INT32, ge::DT_INT64}))
    .InferShape(InferRange)
    .Verify(VerifyRange)
    .ValueDependentInput("start")
    .ValueDependentInput("limit")
    .ValueDependentInput("delta");
REG_KERNEL(Range, ge::kEngineHostCpu).Fn(RangeKernel);

REG_OP(ConstantOfShape)
    .Input("input", kInt64)
    .Output("output", RealBoolTensorTypes())
    .InferShape(InferConstantOfShape)
    .InferDataType(InferConstantOfShapeType)
    .ValueDependentInput("input");
REG_KERNEL(ConstantOfShape, ge::kEngineHostCpu).Fn(ConstantOfShapeKernel);

REG_OP(Constant)
    .Output("output", ArrayTensorTypes())
    .InferShape(InferConstant)
    .InferDataType(InferConstantType);
REG_KERNEL(Constant, ge::kEngineHostCpu).Fn(ConstantKernel);

REG_OP(EyeLike)
    .Input("input", RealBoolTensorTypes())
    .Output("output", RealBoolTensorTypes())
    .Attr("k", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferShape(InferEyeLike)
    .InferDataType(InferEyeLikeType);
REG_KERNEL(EyeLike, ge::kEngineHostCpu).Fn(EyeLikeKernel);

REG_OP(OneHot)
    .Input("indices", RealBoolTensorTypes())
    .Input("depth", RealBoolTensorTypes())
    .Input("values", ArrayTensorTypes())
    .Output("output", ArrayTensorTypes())
    .Attr("axis", ge::AttrValue::CreateFrom<int64_t>(-1))
    .InferShape(InferOneHot)
    .InferDataType(InferOneHotType)
    .ValueDependentInput("depth");
REG_KERNEL(OneHot, ge::kEngineHostCpu).Fn(OneHotKernel);

}  // namespace
}  // namespace ops
