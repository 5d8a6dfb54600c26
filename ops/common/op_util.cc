// ops/common/op_util.cc: see op_util.h.
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "metadef/inc/external/graph/type_utils.h"

namespace ops {

std::string DataTypeName(ge::DataType dt) { return ge::TypeUtils::DataTypeToSerialString(dt); }

uint32_t TypeGroupOf(ge::DataType dt) {
  switch (dt) {
    case ge::DT_FLOAT:
    case ge::DT_DOUBLE:
      return kTgFloat;
    case ge::DT_FLOAT16:
    case ge::DT_BF16:
      return kTgHalf;
    case ge::DT_INT8:
    case ge::DT_INT16:
    case ge::DT_INT32:
    case ge::DT_INT64:
      return kTgSigned;
    case ge::DT_UINT8:
    case ge::DT_UINT16:
    case ge::DT_UINT32:
    case ge::DT_UINT64:
      return kTgUnsigned;
    case ge::DT_BOOL:
      return kTgBool;
    case ge::DT_STRING:
      return kTgString;
    case ge::DT_COMPLEX64:
    case ge::DT_COMPLEX128:
      return kTgComplex;
    default:
      return 0;
  }
}

// ------------------------------------------------------------- broadcasting

namespace {

ge::Status CheckDims(const gert::Shape& s) {
  if (s.IsUnknownRank()) return ge::OkStatus();
  for (size_t i = 0; i < s.GetDimNum(); ++i) {
    if (s.GetDim(i) < -1) {
      return ge::ParamInvalid("shape ", s.ToString(), " has invalid dim ", s.GetDim(i),
                              " at index ", i);
    }
  }
  return ge::OkStatus();
}

}  // namespace

ge::Status InferBroadcastShape(const gert::Shape& a, const gert::Shape& b, gert::Shape* out) {
  if (out == nullptr) return ge::ParamInvalid("InferBroadcastShape: null output shape");
  RETURN_IF_ERROR(CheckDims(a));
  RETURN_IF_ERROR(CheckDims(b));
  if (a.IsUnknownRank() || b.IsUnknownRank()) {
    gert::Shape r;
    r.AppendDim(ge::UNKNOWN_RANK);
    *out = r;
    return ge::OkStatus();
  }
  const size_t ra = a.GetDimNum();
  const size_t rb = b.GetDimNum();
  const size_t rank = std::max(ra, rb);
  gert::Shape r;
  r.SetDimNum(rank);
  for (size_t i = 0; i < rank; ++i) {
    // i counts from the right.
    const int64_t da = i < ra ? a.GetDim(ra - 1 - i) : 1;
    const int64_t db = i < rb ? b.GetDim(rb - 1 - i) : 1;
    int64_t d;
    if (da == db) {
      d = da;
    } else if (da == 1) {
      d = db;
    } else if (db == 1) {
      d = da;
    } else if (da == -1) {
      d = db;
    } else if (db == -1) {
      d = da;
    } else {
      return ge::ParamInvalid("shapes ", a.ToString(), " and ", b.ToString(),
                              " cannot broadcast: dim ", da, " vs ", db);
    }
    r.SetDim(rank - 1 - i, d);
  }
  *out = r;
  return ge::OkStatus();
}

ge::Status InferBroadcastShape(absl::Span<const gert::Shape* const> shapes, gert::Shape* out) {
  if (out == nullptr) return ge::ParamInvalid("InferBroadcastShape: null output shape");
  gert::Shape acc;  // scalar broadcasts with anything
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (shapes[i] == nullptr) return ge::ParamInvalid("InferBroadcastShape: shape ", i, " is null");
    const gert::Shape prev = acc;
    ge::Status st = InferBroadcastShape(prev, *shapes[i], &acc);
    if (!st.ok()) {
      return ge::MakeStatus(ge::GetErrorCode(st),
                            absl::StrCat("shape ", i, " ", shapes[i]->ToString(),
                                         " does not broadcast with ", prev.ToString(),
                                         " (the broadcast of shapes 0..", i, "): ",
                                         st.message()));
    }
  }
  *out = acc;
  return ge::OkStatus();
}

ge::StatusOr<BroadcastIndex> BroadcastIndex::Create(absl::Span<const gert::Shape* const> inputs,
                                                    const gert::Shape& out) {
  const size_t n = inputs.size();
  const size_t rank = out.GetDimNum();
  for (size_t d = 0; d < rank; ++d) {
    if (out.GetDim(d) < 0) {
      return ge::ParamInvalid("BroadcastIndex: output shape ", out.ToString(),
                              " has unknown dims");
    }
  }
  const int64_t out_size = out.GetShapeSize();
  if (out_size < 0) return ge::Overflow("BroadcastIndex: output shape ", out.ToString(), " is too large");

  BroadcastIndex bi;
  bi.input_num_ = n;
  bi.output_size_ = out_size;
  bi.same_.assign(n, false);
  bi.scalar_.assign(n, false);
  // Raw strides over the full output rank.
  absl::InlinedVector<int64_t, 24> raw(rank * n, 0);
  for (size_t k = 0; k < n; ++k) {
    const gert::Shape* s = inputs[k];
    if (s == nullptr) return ge::ParamInvalid("BroadcastIndex: input ", k, " shape is null");
    const size_t r = s->GetDimNum();
    if (r > rank) {
      return ge::ParamInvalid("BroadcastIndex: input ", k, " shape ", s->ToString(),
                              " has a higher rank than the output ", out.ToString());
    }
    int64_t stride = 1;
    for (size_t j = 0; j < r; ++j) {
      const size_t in_d = r - 1 - j;
      const size_t out_d = rank - 1 - j;
      const int64_t dim = s->GetDim(in_d);
      const int64_t od = out.GetDim(out_d);
      if (dim < 0) {
        return ge::ParamInvalid("BroadcastIndex: input ", k, " shape ", s->ToString(),
                                " has unknown dims");
      }
      if (dim != od && dim != 1) {
        return ge::ParamInvalid("BroadcastIndex: input ", k, " shape ", s->ToString(),
                                " does not broadcast to ", out.ToString());
      }
      raw[out_d * n + k] = (dim == 1) ? 0 : stride;
      stride *= dim;  // cannot overflow: bounded by out_size per dim
    }
    const int64_t in_size = s->GetShapeSize();
    bi.scalar_[k] = in_size == 1;
    bi.same_[k] = in_size == out_size;
  }
  // Drop size-1 output dims, then merge dims contiguous for every input.
  absl::InlinedVector<int64_t, 8>& dims = bi.dims_;
  absl::InlinedVector<int64_t, 24>& strides = bi.strides_;
  for (size_t d = 0; d < rank; ++d) {
    const int64_t od = out.GetDim(d);
    if (od == 1) continue;
    const int64_t* s = raw.data() + d * n;
    if (!dims.empty()) {
      // Can the previous (outer) dim merge into this one?
      int64_t* prev = strides.data() + (dims.size() - 1) * n;
      bool mergeable = true;
      for (size_t k = 0; k < n; ++k) {
        if (prev[k] != s[k] * od) {
          mergeable = false;
          break;
        }
      }
      if (mergeable) {
        dims.back() *= od;
        for (size_t k = 0; k < n; ++k) prev[k] = s[k];
        continue;
      }
    }
    dims.push_back(od);
    strides.insert(strides.end(), s, s + n);
  }
  return bi;
}

bool BroadcastIndex::AllSameAsOutput() const {
  for (size_t k = 0; k < input_num_; ++k) {
    if (!same_[k]) return false;
  }
  return true;
}

std::vector<int64_t> BroadcastIndex::Strides(size_t i) const {
  std::vector<int64_t> r;
  if (i >= input_num_) return r;
  for (size_t d = 0; d < dims_.size(); ++d) r.push_back(strides_[d * input_num_ + i]);
  return r;
}

// -------------------------------------------------------------------- axes

ge::StatusOr<int64_t> NormalizeAxis(int64_t axis, int64_t rank) {
  if (rank < 0) return ge::ParamInvalid("cannot normalise axis ", axis, " for rank ", rank);
  if (axis < -rank || axis >= rank) {
    return ge::OutOfRange("axis ", axis, " is out of range [", -rank, ", ", rank - 1,
                          "] for rank ", rank);
  }
  return axis < 0 ? axis + rank : axis;
}

ge::StatusOr<std::vector<int64_t>> NormalizeAxes(absl::Span<const int64_t> axes, int64_t rank,
                                                 bool allow_duplicates) {
  std::vector<int64_t> out;
  out.reserve(axes.size());
  for (size_t i = 0; i < axes.size(); ++i) {
    ge::StatusOr<int64_t> a = NormalizeAxis(axes[i], rank);
    if (!a.ok()) return ge::Annotate(a.status(), "axes[", i, "]: ");
    if (!allow_duplicates && std::find(out.begin(), out.end(), *a) != out.end()) {
      return ge::ParamInvalid("axes[", i, "] = ", axes[i], " duplicates axis ", *a);
    }
    out.push_back(*a);
  }
  return out;
}

// ------------------------------------------------------------ tensor values

ge::Status CheckTensorData(const gert::Tensor& t) {
  const int64_t count = t.GetShape().GetShapeSize();
  if (count < 0) {
    return ge::ParamInvalid("tensor shape ", t.GetShape().ToString(), " is not fully known");
  }
  if (count == 0) return ge::OkStatus();
  ASSIGN_OR_RETURN(size_t bytes, gert::HostStorageBytes(t.GetDataType(), count));
  if (t.GetAddr() == nullptr) {
    return ge::ParamInvalid("tensor of shape ", t.GetShape().ToString(), " has no data");
  }
  if (t.GetSize() < bytes) {
    return ge::ParamInvalid("tensor of shape ", t.GetShape().ToString(), " and ",
                            DataTypeName(t.GetDataType()), " needs ", bytes, " bytes, has ",
                            t.GetSize());
  }
  return ge::OkStatus();
}

ge::StatusOr<std::vector<int64_t>> ReadIntTensor(const gert::Tensor& t) {
  const ge::DataType dt = t.GetDataType();
  if (dt != ge::DT_INT32 && dt != ge::DT_INT64) {
    return ge::TypeMismatch("expected an INT32 or INT64 tensor, got ", DataTypeName(dt));
  }
  RETURN_IF_ERROR(CheckTensorData(t));
  const int64_t count = t.GetShape().GetShapeSize();
  std::vector<int64_t> out(static_cast<size_t>(count));
  if (dt == ge::DT_INT32) {
    const int32_t* p = t.GetData<int32_t>();
    for (int64_t i = 0; i < count; ++i) out[i] = p[i];
  } else {
    const int64_t* p = t.GetData<int64_t>();
    for (int64_t i = 0; i < count; ++i) out[i] = p[i];
  }
  return out;
}

ge::StatusOr<std::vector<double>> ReadAsDoubles(const gert::Tensor& t) {
  RETURN_IF_ERROR(CheckTensorData(t));
  const int64_t count = t.GetShape().GetShapeSize();
  std::vector<double> out(static_cast<size_t>(count));
  RETURN_IF_ERROR(DispatchType<kTgRealBool>(
      t.GetDataType(),
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* p = t.GetData<T>();
        for (int64_t i = 0; i < count; ++i) out[i] = static_cast<double>(ToCompute(p[i]));
        return ge::OkStatus();
      },
      "ReadAsDoubles"));
  return out;
}

// ---------------------------------------------------------- infer functions

ge::Status InferSameAsInput0(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 is missing");
  const ge::DataType dt = ctx.GetInputDataType(0);
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) {
    gert::Shape* y = ctx.GetOutputShape(i);
    if (y == nullptr) return ctx.Error("output ", i, " has no shape slot");
    *y = *x;
    ctx.SetOutputDataType(i, dt);
  }
  return CopyInputRangeToOutputs(ctx, 0);
}

ge::Status InferShapeSameAsInput0(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 is missing");
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) {
    gert::Shape* y = ctx.GetOutputShape(i);
    if (y == nullptr) return ctx.Error("output ", i, " has no shape slot");
    *y = *x;
  }
  return CopyInputRangeToOutputs(ctx, 0);
}

ge::Status InferBroadcast(gert::InferShapeContext& ctx) {
  const size_t n = ctx.GetInputNum();
  gert::Shape acc;
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    const gert::Shape* s = ctx.GetInputShape(i);
    if (s == nullptr) continue;  // absent optional input
    if (!any) {
      RETURN_IF_ERROR(WithNode(ctx, InferBroadcastShape(*s, gert::Shape(), &acc)));
      any = true;
      continue;
    }
    const gert::Shape prev = acc;
    ge::Status st = InferBroadcastShape(prev, *s, &acc);
    if (!st.ok()) {
      return ctx.Error("input ", i, " shape ", s->ToString(), " does not broadcast with ",
                       prev.ToString(), " (inputs 0..", i - 1, "): ", st.message());
    }
  }
  if (!any) return ctx.Error("no inputs to broadcast");
  if (ctx.GetOutputNum() == 0) return ctx.Error("has no outputs");
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) {
    gert::Shape* y = ctx.GetOutputShape(i);
    if (y == nullptr) return ctx.Error("output ", i, " has no shape slot");
    *y = acc;
  }
  return BroadcastInputRangesToOutputs(ctx);
}

// --------------------------------------------------------------- kernel I/O

ge::StatusOr<const gert::Tensor*> GetKernelInput(const gert::KernelContext& ctx, size_t i) {
  const gert::Tensor* t = ctx.GetInputTensor(i);
  if (t == nullptr) {
    return ctx.Error("input ", i, " is missing (the node has ", ctx.GetInputNum(), " inputs)");
  }
  ge::Status st = CheckTensorData(*t);
  if (!st.ok()) return ctx.Error("input ", i, ": ", st.message());
  return t;
}

ge::StatusOr<gert::Tensor*> PrepareOutput(gert::KernelContext& ctx, size_t i,
                                          const gert::Shape& shape, ge::DataType dtype) {
  gert::Tensor* t = ctx.GetOutputTensor(i);
  if (t == nullptr) {
    return ctx.Error("output ", i, " is missing (the node has ", ctx.GetOutputNum(),
                     " outputs)");
  }
  const int64_t count = shape.GetShapeSize();
  if (count < 0) {
    return ctx.Error("output ", i, " shape ", shape.ToString(), " is not fully known");
  }
  ge::StatusOr<size_t> bytes = gert::HostStorageBytes(dtype, count);
  if (!bytes.ok()) return WithNode(ctx, ge::Annotate(bytes.status(), "output ", i, ": "));
  const bool has_memory = t->GetAddr() != nullptr || *bytes == 0;
  if (!t->GetShape().IsUnknownShape() && has_memory) {
    if (t->GetShape() != shape || t->GetDataType() != dtype) {
      return ctx.Error("output ", i, " was prepared as ", t->GetShape().ToString(), " ",
                       DataTypeName(t->GetDataType()), " but the kernel computed ",
                       shape.ToString(), " ", DataTypeName(dtype));
    }
    if (t->GetSize() < *bytes) {
      return ctx.Error("output ", i, " has ", t->GetSize(), " bytes, ", shape.ToString(), " ",
                       DataTypeName(dtype), " needs ", *bytes);
    }
    return t;
  }
  ge::StatusOr<gert::Tensor*> r = ctx.AllocateOutput(i, shape, dtype);
  if (!r.ok()) return WithNode(ctx, ge::Annotate(r.status(), "allocating output ", i, ": "));
  if (*r == nullptr || ((*r)->GetAddr() == nullptr && *bytes != 0) || (*r)->GetSize() < *bytes) {
    return ctx.ErrorWithCode(ge::ErrorCode::kInternal, "allocator gave output ", i,
                             " too little memory");
  }
  return *r;
}

// ------------------------------------------------------------- host tensors

ge::StatusOr<gert::HostTensor> MakeHostTensorFromDoubles(ge::DataType dtype,
                                                         const gert::Shape& shape,
                                                         absl::Span<const double> values) {
  const int64_t count = shape.GetShapeSize();
  if (count < 0 || static_cast<uint64_t>(count) != values.size()) {
    return ge::ParamInvalid("MakeHostTensorFromDoubles: shape ", shape.ToString(), " needs ",
                            count, " elements, got ", values.size());
  }
  ASSIGN_OR_RETURN(gert::HostTensor t, gert::HostTensor::Create(dtype, shape));
  RETURN_IF_ERROR(DispatchType<kTgRealBool>(
      dtype,
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* p = t.MutableData<T>();
        for (size_t i = 0; i < values.size(); ++i) {
          p[i] = ConvertElement<T>(values[i]);
        }
        return ge::OkStatus();
      },
      "MakeHostTensorFromDoubles"));
  return t;
}

}  // namespace ops
