// ops/array/array_util.cc
#include "ops/array/array_util.h"

#include <algorithm>
#include <utility>

namespace ops {

ge::TensorType ArrayTensorTypes() {
  return ge::TensorType{ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16,      ge::DT_DOUBLE,
                        ge::DT_INT8,  ge::DT_INT16,   ge::DT_INT32,     ge::DT_INT64,
                        ge::DT_UINT8, ge::DT_UINT16,  ge::DT_UINT32,    ge::DT_UINT64,
                        ge::DT_BOOL,  ge::DT_STRING,  ge::DT_COMPLEX64, ge::DT_COMPLEX128};
}

ge::TensorType IndexTensorTypes() { return ge::TensorType{ge::DT_INT32, ge::DT_INT64}; }

ge::TensorType RealBoolTensorTypes() {
  return ge::TensorType{ge::DT_FLOAT,  ge::DT_FLOAT16, ge::DT_BF16,  ge::DT_DOUBLE, ge::DT_INT8,
                        ge::DT_INT16,  ge::DT_INT32,   ge::DT_INT64, ge::DT_UINT8,  ge::DT_UINT16,
                        ge::DT_UINT32, ge::DT_UINT64,  ge::DT_BOOL};
}

gert::Shape UnknownDimsShape(int64_t rank) {
  if (rank < 0 || rank > static_cast<int64_t>(gert::kMaxDimNum)) return UnknownRankShape();
  gert::Shape s;
  for (int64_t i = 0; i < rank; ++i) s.AppendDim(ge::UNKNOWN_DIM);
  return s;
}

ge::StatusOr<gert::Shape> ShapeFromDims(absl::Span<const int64_t> dims) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < -1) return ge::ParamInvalid("dim ", i, " is ", dims[i], " (< -1)");
  }
  return gert::Shape::FromDims(dims);
}

std::vector<int64_t> RowMajorStrides(absl::Span<const int64_t> dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  return strides;
}

const gert::Tensor* KnownInputTensor(const gert::InferShapeContext& ctx, size_t i) {
  const gert::Tensor* t = ctx.GetInputTensor(i);
  if (t == nullptr || t->GetShape().IsUnknownShape()) return nullptr;
  if (t->GetAddr() == nullptr && t->GetShapeSize() > 0) return nullptr;  // shape only
  return t;
}

ge::StatusOr<std::optional<std::vector<int64_t>>> KnownInputInts(const gert::InferShapeContext& ctx,
                                                                 size_t i) {
  const gert::Tensor* t = KnownInputTensor(ctx, i);
  if (t == nullptr) return std::optional<std::vector<int64_t>>();
  auto v = ReadIntTensor(*t);
  if (!v.ok()) return ge::Annotate(v.status(), "input ", i, ": ");
  return std::optional<std::vector<int64_t>>(std::move(v).value());
}

ge::StatusOr<const gert::Shape*> InputShape(const gert::InferShapeContext& ctx, size_t i) {
  const gert::Shape* s = ctx.GetInputShape(i);
  if (s == nullptr) {
    return ctx.Error("input ", i, " is missing (the node has ", ctx.GetInputNum(), " inputs)");
  }
  return s;
}

ge::Status SetOutputShape(gert::InferShapeContext& ctx, size_t i, const gert::Shape& shape) {
  gert::Shape* out = ctx.GetOutputShape(i);
  if (out == nullptr) {
    return ctx.Error("output ", i, " is missing (the node has ", ctx.GetOutputNum(), " outputs)");
  }
  *out = shape;
  return ge::OkStatus();
}

namespace {

template <typename T>
void MapCopyImpl(const T* in, T* out, absl::Span<const int64_t> dims,
                 const std::vector<std::vector<int64_t>>& maps, const T& fill) {
  const size_t rank = dims.size();
  if (rank == 0) {
    out[0] = in[0];
    return;
  }
  // Merge trailing axes whose map is the identity over a contiguous block.
  int64_t block = 1;
  size_t m = rank;
  while (m > 0) {
    const std::vector<int64_t>& mp = maps[m - 1];
    bool identity = true;
    for (int64_t i = 0; i < dims[m - 1]; ++i) {
      if (mp[i] != i * block) {
        identity = false;
        break;
      }
    }
    if (!identity) break;
    block *= dims[m - 1];
    --m;
  }
  if (m == 0) {
    std::copy_n(in, block, out);
    return;
  }
  const std::vector<int64_t>& inner = maps[m - 1];
  const int64_t n_inner = dims[m - 1];
  bool inner_contiguous = block == 1 && inner[0] >= 0;
  for (int64_t j = 1; inner_contiguous && j < n_inner; ++j) {
    inner_contiguous = inner[j] == inner[0] + j;
  }
  int64_t outer = 1;
  for (size_t k = 0; k + 1 < m; ++k) outer *= dims[k];

  std::vector<int64_t> counter(m, 0);
  int64_t base = 0;
  int64_t invalid = 0;
  for (size_t k = 0; k + 1 < m; ++k) {
    if (maps[k][0] < 0) {
      ++invalid;
    } else {
      base += maps[k][0];
    }
  }
  const int64_t row = n_inner * block;
  T* o = out;
  for (int64_t it = 0; it < outer; ++it, o += row) {
    if (invalid > 0) {
      std::fill_n(o, row, fill);
    } else if (inner_contiguous) {
      std::copy_n(in + base + inner[0], n_inner, o);
    } else if (block == 1) {
      for (int64_t j = 0; j < n_inner; ++j) o[j] = inner[j] < 0 ? fill : in[base + inner[j]];
    } else {
      for (int64_t j = 0; j < n_inner; ++j) {
        if (inner[j] < 0) {
          std::fill_n(o + j * block, block, fill);
        } else {
          std::copy_n(in + base + inner[j], block, o + j * block);
        }
      }
    }
    // Odometer over axes [0, m - 1).
    for (size_t k = m - 1; k-- > 0;) {
      const std::vector<int64_t>& mp = maps[k];
      int64_t v = mp[counter[k]];
      if (v < 0) {
        --invalid;
      } else {
        base -= v;
      }
      if (++counter[k] == dims[k]) counter[k] = 0;
      v = mp[counter[k]];
      if (v < 0) {
        ++invalid;
      } else {
        base += v;
      }
      if (counter[k] != 0) break;
    }
  }
}

ge::Status CheckSameDtype(const gert::Tensor& in, const gert::Tensor& out) {
  if (in.GetDataType() != out.GetDataType()) {
    return ge::TypeMismatch("output data type ", DataTypeName(out.GetDataType()),
                            " differs from input data type ", DataTypeName(in.GetDataType()));
  }
  return ge::OkStatus();
}

}  // namespace

ge::Status AxisMapCopy(const gert::Tensor& in, const std::vector<std::vector<int64_t>>& maps,
                       const void* fill, gert::Tensor* out) {
  if (out == nullptr) return ge::ParamInvalid("AxisMapCopy: null output");
  RETURN_IF_ERROR(CheckSameDtype(in, *out));
  RETURN_IF_ERROR(CheckTensorData(in));
  RETURN_IF_ERROR(CheckTensorData(*out));
  const gert::Shape& os = out->GetShape();
  const absl::Span<const int64_t> dims = os.GetDims();
  if (maps.size() != dims.size()) {
    return ge::ParamInvalid("AxisMapCopy: ", maps.size(), " axis maps for output rank ",
                            dims.size());
  }
  const int64_t out_count = os.GetShapeSize();
  if (out_count == 0) return ge::OkStatus();
  const int64_t in_count = in.GetShapeSize();
  int64_t max_offset = 0;
  for (size_t k = 0; k < dims.size(); ++k) {
    if (static_cast<int64_t>(maps[k].size()) != dims[k]) {
      return ge::ParamInvalid("AxisMapCopy: map ", k, " has ", maps[k].size(),
                              " entries for output dim ", dims[k]);
    }
    int64_t axis_max = 0;
    for (int64_t v : maps[k]) {
      if (v >= 0) axis_max = std::max(axis_max, v);
    }
    max_offset += axis_max;
  }
  bool all_fill = false;
  for (size_t k = 0; k < dims.size(); ++k) {
    all_fill =
        all_fill || std::all_of(maps[k].begin(), maps[k].end(), [](int64_t v) { return v < 0; });
  }
  if (!all_fill && max_offset >= in_count) {
    return ge::OutOfRange("AxisMapCopy: input offset ", max_offset, " outside ", in_count,
                          " input elements");
  }
  return DispatchMove(in.GetDataType(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T fill_value = fill == nullptr ? T{} : *static_cast<const T*>(fill);
    MapCopyImpl<T>(in.GetData<T>(), out->GetData<T>(), dims, maps, fill_value);
    return ge::OkStatus();
  });
}

ge::Status CopyElements(const gert::Tensor& in, gert::Tensor* out) {
  if (out == nullptr) return ge::ParamInvalid("CopyElements: null output");
  RETURN_IF_ERROR(CheckSameDtype(in, *out));
  RETURN_IF_ERROR(CheckTensorData(in));
  RETURN_IF_ERROR(CheckTensorData(*out));
  const int64_t n = in.GetShapeSize();
  if (n != out->GetShapeSize()) {
    return ge::ParamInvalid("CopyElements: input ", in.GetShape().ToString(), " has ", n,
                            " elements, output ", out->GetShape().ToString(), " has ",
                            out->GetShapeSize());
  }
  if (n == 0 || in.GetAddr() == out->GetAddr()) return ge::OkStatus();
  return DispatchMove(in.GetDataType(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::copy_n(in.GetData<T>(), n, out->GetData<T>());
    return ge::OkStatus();
  });
}

ge::Status FillElements(const void* value, gert::Tensor* out) {
  if (out == nullptr || value == nullptr) return ge::ParamInvalid("FillElements: null argument");
  RETURN_IF_ERROR(CheckTensorData(*out));
  const int64_t n = out->GetShapeSize();
  return DispatchMove(out->GetDataType(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    std::fill_n(out->GetData<T>(), n, *static_cast<const T*>(value));
    return ge::OkStatus();
  });
}

}  // namespace ops
