// ops/control/control_util.cc
#include "ops/control/control_util.h"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_join.h"
#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "ops/common/op_util.h"

namespace ops {

// ------------------------------------------------------------ type sets

ge::TensorType ControlTensorTypes() {
  return ge::TensorType({ge::DT_UINT8, ge::DT_UINT16, ge::DT_UINT32, ge::DT_UINT64, ge::DT_INT8,
                         ge::DT_INT16, ge::DT_INT32, ge::DT_INT64, ge::DT_BF16, ge::DT_FLOAT16,
                         ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_STRING, ge::DT_BOOL, ge::DT_COMPLEX64,
                         ge::DT_COMPLEX128});
}

ge::TensorType ControlValueTypes() {
  return ge::TensorType({ge::DT_UINT8, ge::DT_UINT16, ge::DT_UINT32, ge::DT_UINT64, ge::DT_INT8,
                         ge::DT_INT16, ge::DT_INT32, ge::DT_INT64, ge::DT_BF16, ge::DT_FLOAT16,
                         ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_STRING, ge::DT_BOOL, ge::DT_COMPLEX64,
                         ge::DT_COMPLEX128, ge::DT_VARIANT});
}

ge::TensorType VariantType() { return ge::TensorType({ge::DT_VARIANT}); }

// ------------------------------------------------------------ scalars

namespace {

ge::Status CheckSingleElement(const gert::ContextBase& ctx, const gert::Tensor& t,
                              absl::string_view what) {
  if (t.GetShapeSize() != 1) {
    return ctx.Error(what, " must hold exactly one element, got shape ", t.GetShape().ToString());
  }
  const ge::Status st = CheckTensorData(t);
  if (!st.ok()) return ctx.Error(what, ": ", st.message());
  return ge::OkStatus();
}

}  // namespace

ge::StatusOr<bool> ReadBoolScalar(const gert::ContextBase& ctx, const gert::Tensor& t,
                                  absl::string_view what) {
  if (t.GetDataType() != ge::DT_BOOL) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, what, " must be DT_BOOL, got ",
                             DataTypeName(t.GetDataType()));
  }
  RETURN_IF_ERROR(CheckSingleElement(ctx, t, what));
  return t.GetData<bool>()[0];
}

ge::StatusOr<int64_t> ReadIntScalar(const gert::ContextBase& ctx, const gert::Tensor& t,
                                    absl::string_view what) {
  const ge::DataType dt = t.GetDataType();
  if (dt != ge::DT_INT32 && dt != ge::DT_INT64) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, what,
                             " must be DT_INT32 or DT_INT64, got ", DataTypeName(dt));
  }
  RETURN_IF_ERROR(CheckSingleElement(ctx, t, what));
  return dt == ge::DT_INT32 ? static_cast<int64_t>(t.GetData<int32_t>()[0])
                            : t.GetData<int64_t>()[0];
}

// ------------------------------------------------------------ kernel output

ge::Status WriteOutput(gert::KernelContext& ctx, size_t i, const gert::Tensor& src) {
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, i, src.GetShape(), src.GetDataType()));
  const ge::Status st = gert::CopyTensorData(src, y);
  if (!st.ok()) return ctx.Error("output ", i, ": ", st.message());
  return ge::OkStatus();
}

ge::Status RunSubgraph(gert::KernelContext& ctx, size_t index, absl::string_view name,
                       absl::Span<const gert::Tensor* const> inputs, size_t expected_outputs,
                       std::vector<gert::HostTensor>* outputs) {
  gert::SubgraphRunner* runner = ctx.GetSubgraphRunner();
  if (runner == nullptr) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "cannot run subgraph ", name,
                             ": the executor provided no SubgraphRunner");
  }
  outputs->clear();
  const ge::Status st = runner->Run(index, inputs, outputs);
  if (!st.ok()) {
    return WithNode(ctx, ge::Annotate(st, "subgraph ", name, " (index ", index, "): "));
  }
  if (outputs->size() != expected_outputs) {
    return ctx.Error("subgraph ", name, " produced ", outputs->size(), " outputs, expected ",
                     expected_outputs);
  }
  for (size_t k = 0; k < outputs->size(); ++k) {
    if (!(*outputs)[k].HasStorage()) {
      return ctx.Error("subgraph ", name, " output ", k, " holds no tensor");
    }
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------ infer

ge::Status SetUnknownOutput(gert::InferShapeContext& ctx, size_t i) {
  gert::Shape* y = ctx.GetOutputShape(i);
  if (y == nullptr) return ctx.Error("output ", i, " has no shape slot");
  *y = gert::Shape{ge::UNKNOWN_RANK};
  ctx.SetOutputDataType(i, ge::DT_UNDEFINED);
  return ge::OkStatus();
}

ge::Status ApplyOutputHints(gert::InferShapeContext& ctx) {
  const size_t n = ctx.GetOutputNum();
  if (const ge::AttrValue* v = ctx.GetAttr(kAttrOutputShapes); v != nullptr) {
    const auto* shapes = v->Get<std::vector<std::vector<int64_t>>>();
    if (shapes == nullptr) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "attribute ", kAttrOutputShapes,
                               " is ", ge::AttrValue::ValueTypeName(v->GetValueType()),
                               ", expected list_list_int");
    }
    if (shapes->size() != n) {
      return ctx.Error("attribute ", kAttrOutputShapes, " has ", shapes->size(), " entries for ", n,
                       " outputs");
    }
    for (size_t i = 0; i < n; ++i) {
      const std::vector<int64_t>& dims = (*shapes)[i];
      const bool unknown_rank = dims.size() == 1 && dims[0] == ge::UNKNOWN_RANK;
      for (int64_t d : dims) {
        if (d < -1 && !unknown_rank) {
          return ctx.Error("attribute ", kAttrOutputShapes, "[", i, "] has invalid dim ", d,
                           " in [", absl::StrJoin(dims, ","), "]");
        }
      }
      ge::StatusOr<gert::Shape> s = gert::Shape::FromDims(dims);
      if (!s.ok())
        return ctx.Error("attribute ", kAttrOutputShapes, "[", i, "]: ", s.status().message());
      gert::Shape* y = ctx.GetOutputShape(i);
      if (y == nullptr) return ctx.Error("output ", i, " has no shape slot");
      *y = *s;
    }
  }
  if (const ge::AttrValue* v = ctx.GetAttr(kAttrOutputDtypes); v != nullptr) {
    const auto* dtypes = v->Get<std::vector<ge::DataType>>();
    if (dtypes == nullptr) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "attribute ", kAttrOutputDtypes,
                               " is ", ge::AttrValue::ValueTypeName(v->GetValueType()),
                               ", expected list_data_type");
    }
    if (dtypes->size() != n) {
      return ctx.Error("attribute ", kAttrOutputDtypes, " has ", dtypes->size(), " entries for ", n,
                       " outputs");
    }
    for (size_t i = 0; i < n; ++i) ctx.SetOutputDataType(i, (*dtypes)[i]);
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------ elements

ge::StatusOr<size_t> ElementBytes(ge::DataType dtype) {
  ASSIGN_OR_RETURN(const size_t one, gert::HostStorageBytes(dtype, 1));
  ASSIGN_OR_RETURN(const size_t eight, gert::HostStorageBytes(dtype, 8));
  if (eight != 8 * one) {
    return ge::NotSupported("elements of sub-byte data type ", DataTypeName(dtype),
                            " cannot be addressed individually");
  }
  return one;
}

ge::Status CopyElements(ge::DataType dtype, const void* src, int64_t src_off, void* dst,
                        int64_t dst_off, int64_t count) {
  if (count <= 0) return ge::OkStatus();
  if (dtype == ge::DT_STRING) {
    const auto* s = static_cast<const std::string*>(src) + src_off;
    auto* d = static_cast<std::string*>(dst) + dst_off;
    for (int64_t i = 0; i < count; ++i) d[i] = s[i];
    return ge::OkStatus();
  }
  if (dtype == ge::DT_VARIANT) {
    const auto* s = static_cast<const gert::HostTensor*>(src) + src_off;
    auto* d = static_cast<gert::HostTensor*>(dst) + dst_off;
    for (int64_t i = 0; i < count; ++i) {
      ASSIGN_OR_RETURN(d[i], s[i].Clone());
    }
    return ge::OkStatus();
  }
  ASSIGN_OR_RETURN(const size_t each, ElementBytes(dtype));
  std::memcpy(static_cast<uint8_t*>(dst) + static_cast<size_t>(dst_off) * each,
              static_cast<const uint8_t*>(src) + static_cast<size_t>(src_off) * each,
              static_cast<size_t>(count) * each);
  return ge::OkStatus();
}

}  // namespace ops
