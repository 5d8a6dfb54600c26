// ops/internal/internal_ops.cc
//
// GE-internal graph ops the compiler creates (host CPU kernels):
//
//   Data             optional input x (the value fed to the graph), output y,
//                    attribute index (>= 0, the graph input position). Infer:
//                    y = x's shape / dtype; without x, the optional
//                    attributes "shape" (list of int) / "dtype" (data type)
//                    when present, else the node's output desc is kept.
//                    Kernel: forwards x.
//   Const            output y, required attribute value (ge::GeTensor).
//                    Infer: the tensor's shape / dtype. Kernel: copies it.
//                    STRING / VARIANT tensors are NotSupported (no byte
//                    representation).
//   NetOutput        dynamic input x, no outputs: collects a graph's results
//                    (the kernel does nothing; executors read its inputs).
//   PartitionedCall  dynamic input args, dynamic output output, subgraph f
//                    (0). Infer: unknown unless "_output_shapes" /
//                    "_output_dtypes" hints. Kernel: runs f with args.
//   TransData        input src, output dst, required string attributes
//                    src_format / dst_format ("NCHW", "NC1HWC0", ...). Uses
//                    ge::TransferShape / ge::TransferFormat
//                    (metadef/inc/external/graph/format_transfer.h). Going
//                    plain -> blocked the output shape is derived; going
//                    blocked -> plain the logical shape cannot be (padding),
//                    so it must come from the node's output desc (kept by
//                    infer when consistent, read by the kernel from its
//                    prepared output); the output dtype is src's.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/format_transfer.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/common/shape_range.h"
#include "ops/control/control_util.h"

namespace ops {
namespace {

ge::Status SetOutput(gert::InferShapeContext& ctx, size_t i, const gert::Shape& s,
                     ge::DataType dt) {
  gert::Shape* y = ctx.GetOutputShape(i);
  if (y == nullptr) return ctx.Error("output ", i, " has no shape slot");
  *y = s;
  ctx.SetOutputDataType(i, dt);
  return ge::OkStatus();
}

// ---------------------------------------------------------------------- Data

ge::Status VerifyData(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const int64_t index, ctx.GetIntOr("index", 0));
  if (index < 0) return ctx.Error("attribute index is ", index, ", expected >= 0");
  return ge::OkStatus();
}

ge::Status InferData(gert::InferShapeContext& ctx) {
  if (const gert::Shape* x = ctx.GetInputShape(0); x != nullptr) {
    RETURN_IF_ERROR(SetOutput(ctx, 0, *x, ctx.GetInputDataType(0)));
    return CopyInputRange(ctx, 0, 0);  // the graph input's range flows on
  }
  if (ctx.HasAttr("shape")) {
    ASSIGN_OR_RETURN(const std::vector<int64_t> dims, ctx.GetListInt("shape"));
    for (size_t i = 0; i < dims.size(); ++i) {
      const bool unknown_rank = dims.size() == 1 && dims[0] == ge::UNKNOWN_RANK;
      if (dims[i] < -1 && !unknown_rank) {
        return ctx.Error("attribute shape [", absl::StrJoin(dims, ","), "] has invalid dim ",
                         dims[i]);
      }
    }
    ge::StatusOr<gert::Shape> s = gert::Shape::FromDims(dims);
    if (!s.ok()) return ctx.Error("attribute shape: ", s.status().message());
    *ctx.GetOutputShape(0) = *s;
  }
  if (ctx.HasAttr("dtype")) {
    ASSIGN_OR_RETURN(const ge::DataType dt, ctx.GetDataType("dtype"));
    ctx.SetOutputDataType(0, dt);
  }
  return ge::OkStatus();
}

ge::Status DataKernel(gert::KernelContext& ctx) {
  if (ctx.GetInputTensor(0) == nullptr) {
    return ctx.Error("has no input value to forward (the executor feeds Data through input 0)");
  }
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  return WriteOutput(ctx, 0, *x);
}

// --------------------------------------------------------------------- Const

struct ConstValue {
  const ge::GeTensor* tensor = nullptr;
  gert::Shape shape;
  ge::DataType dtype = ge::DT_UNDEFINED;
};

ge::StatusOr<ConstValue> GetConstValue(const gert::ContextBase& ctx) {
  const ge::AttrValue* attr = ctx.GetAttr("value");
  if (attr == nullptr) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotFound, "attribute 'value' not found");
  }
  ConstValue v;
  v.tensor = attr->Get<ge::GeTensor>();
  if (v.tensor == nullptr) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "attribute value is ",
                             ge::AttrValue::ValueTypeName(attr->GetValueType()),
                             ", expected tensor");
  }
  const ge::GeTensorDesc& desc = v.tensor->GetTensorDesc();
  v.dtype = desc.GetDataType();
  if (v.dtype == ge::DT_STRING || v.dtype == ge::DT_VARIANT) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "attribute value of ",
                             DataTypeName(v.dtype), " has no byte representation");
  }
  ge::StatusOr<gert::Shape> s = gert::Shape::FromDims(desc.GetShape().GetDimsSpan());
  if (!s.ok()) return ctx.Error("attribute value: ", s.status().message());
  v.shape = *s;
  if (v.shape.IsUnknownShape()) {
    return ctx.Error("attribute value has unknown shape ", v.shape.ToString());
  }
  ge::StatusOr<size_t> bytes = gert::HostStorageBytes(v.dtype, v.shape.GetShapeSize());
  if (!bytes.ok()) return ctx.Error("attribute value: ", bytes.status().message());
  if (v.tensor->GetDataSize() != *bytes) {
    return ctx.Error("attribute value ", v.shape.ToString(), " ", DataTypeName(v.dtype), " needs ",
                     *bytes, " bytes but holds ", v.tensor->GetDataSize());
  }
  return v;
}

ge::Status InferConst(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(ConstValue v, GetConstValue(ctx));
  return SetOutput(ctx, 0, v.shape, v.dtype);
}

ge::Status ConstKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(ConstValue v, GetConstValue(ctx));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, v.shape, v.dtype));
  const absl::Span<const uint8_t> data = v.tensor->GetData();
  if (!data.empty()) std::memcpy(y->GetAddr(), data.data(), data.size());
  return ge::OkStatus();
}

// ----------------------------------------------------------------- NetOutput

ge::Status InferNothing(gert::InferShapeContext& ctx) { return ge::OkStatus(); }

ge::Status NoOpKernel(gert::KernelContext& ctx) { return ge::OkStatus(); }

// ----------------------------------------------------------- PartitionedCall

ge::Status InferPartitionedCall(gert::InferShapeContext& ctx) {
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) RETURN_IF_ERROR(SetUnknownOutput(ctx, i));
  return ApplyOutputHints(ctx);
}

ge::Status PartitionedCallKernel(gert::KernelContext& ctx) {
  std::vector<const gert::Tensor*> args(ctx.GetInputNum());
  for (size_t i = 0; i < args.size(); ++i) {
    ASSIGN_OR_RETURN(args[i], GetKernelInput(ctx, i));
  }
  std::vector<gert::HostTensor> outs;
  RETURN_IF_ERROR(RunSubgraph(ctx, 0, "f", args, ctx.GetOutputNum(), &outs));
  for (size_t i = 0; i < outs.size(); ++i) RETURN_IF_ERROR(WriteOutput(ctx, i, outs[i].tensor()));
  return ge::OkStatus();
}

// ----------------------------------------------------------------- TransData

// With the attribute kAttrLogicalDims (the compute engine's layout
// changes), dims stay the logical ones on both sides and only the memory
// layout changes: NCHW <-> NHWC, NCDHW <-> NDHWC.
constexpr char kAttrLogicalDims[] = "_logical_dims";

struct TransFormats {
  ge::Format src = ge::FORMAT_ND;
  ge::Format dst = ge::FORMAT_ND;
  bool identity = false;
};

ge::StatusOr<ge::Format> FormatAttr(const gert::ContextBase& ctx, const char* name) {
  ASSIGN_OR_RETURN(const std::string s, ctx.GetStr(name));
  ge::StatusOr<ge::Format> f = ge::TypeUtils::SerialStringToFormat(s);
  if (!f.ok()) return ctx.Error("attribute ", name, " \"", s, "\": ", f.status().message());
  return *f;
}

ge::StatusOr<TransFormats> GetTransFormats(const gert::ContextBase& ctx) {
  TransFormats f;
  ASSIGN_OR_RETURN(f.src, FormatAttr(ctx, "src_format"));
  ASSIGN_OR_RETURN(f.dst, FormatAttr(ctx, "dst_format"));
  f.identity = ge::GetPrimaryFormat(f.src) == ge::GetPrimaryFormat(f.dst);
  // A logical-dims TransData (LogicalDims below) checks its own pairs.
  ASSIGN_OR_RETURN(const bool logical, ctx.GetBoolOr(kAttrLogicalDims, false));
  if (!logical && !ge::IsTransferSupported(f.src, f.dst)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "transfer from ",
                             ge::TypeUtils::FormatToSerialString(f.src), " to ",
                             ge::TypeUtils::FormatToSerialString(f.dst), " is not supported");
  }
  return f;
}

// The physical shape of plain -> blocked, or NotSupported for blocked -> plain.
ge::StatusOr<std::vector<int64_t>> ForwardShape(const TransFormats& f, ge::DataType dt,
                                                const gert::Shape& x) {
  return ge::TransferShape(f.src, f.dst, dt, x.ToVector());
}

// True when `logical` (a plain dst-format shape) maps to the blocked `x`.
bool BackwardConsistent(const TransFormats& f, ge::DataType dt, const gert::Shape& logical,
                        const gert::Shape& x) {
  if (logical.IsUnknownShape() || logical.GetDimNum() == 0) return false;
  ge::StatusOr<std::vector<int64_t>> phys = ge::TransferShape(f.dst, f.src, dt, logical.ToVector());
  return phys.ok() && *phys == x.ToVector();
}

ge::Status VerifyTransData(gert::InferShapeContext& ctx) { return GetTransFormats(ctx).status(); }

// Whether the node is a logical-dims TransData; TransFormats must then be a
// channels-first <-> channels-last pair of the tensor's rank.
ge::StatusOr<bool> LogicalDims(const gert::ContextBase& ctx, const TransFormats& f, size_t rank) {
  ASSIGN_OR_RETURN(const bool logical, ctx.GetBoolOr(kAttrLogicalDims, false));
  if (!logical || f.identity) return logical && !f.identity;
  const bool ok4 = rank == 4 && ((f.src == ge::FORMAT_NCHW && f.dst == ge::FORMAT_NHWC) ||
                                 (f.src == ge::FORMAT_NHWC && f.dst == ge::FORMAT_NCHW));
  const bool ok5 = rank == 5 && ((f.src == ge::FORMAT_NCDHW && f.dst == ge::FORMAT_NDHWC) ||
                                 (f.src == ge::FORMAT_NDHWC && f.dst == ge::FORMAT_NCDHW));
  if (!ok4 && !ok5) {
    return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported,
                             "a logical-dims TransData changes channels-first <-> channels-last "
                             "of a 4-D / 5-D tensor, not ",
                             ge::TypeUtils::FormatToSerialString(f.src), " -> ",
                             ge::TypeUtils::FormatToSerialString(f.dst), " of rank ", rank);
  }
  return true;
}

// Channels-first <-> channels-last of logical dims [N, C, S...]: `to_last`
// reads NC(S) memory and writes N(S)C memory.
void PermuteChannels(const uint8_t* src, uint8_t* dst, const gert::Shape& dims, size_t elem,
                     bool to_last) {
  const int64_t n = dims.GetDim(0), c = dims.GetDim(1);
  int64_t spatial = 1;
  for (size_t i = 2; i < dims.GetDimNum(); ++i) spatial *= dims.GetDim(i);
  for (int64_t b = 0; b < n; ++b) {
    const int64_t base = b * c * spatial;
    for (int64_t ch = 0; ch < c; ++ch) {
      for (int64_t s = 0; s < spatial; ++s) {
        const int64_t first = base + ch * spatial + s, last = base + s * c + ch;
        std::memcpy(dst + (to_last ? last : first) * elem, src + (to_last ? first : last) * elem,
                    elem);
      }
    }
  }
}

ge::Status InferTransData(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(TransFormats f, GetTransFormats(ctx));
  if (const gert::Shape* in = ctx.GetInputShape(0); in != nullptr && !in->IsUnknownRank()) {
    ASSIGN_OR_RETURN(const bool logical, LogicalDims(ctx, f, in->GetDimNum()));
    if (logical) {
      RETURN_IF_ERROR(SetOutput(ctx, 0, *in, ctx.GetInputDataType(0)));
      return CopyInputRange(ctx, 0, 0);
    }
  }
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (src) is missing");
  const ge::DataType dt = ctx.GetInputDataType(0);
  if (f.identity || x->IsUnknownRank()) {
    RETURN_IF_ERROR(SetOutput(ctx, 0, *x, dt));
    return CopyInputRange(ctx, 0, 0);
  }
  ge::StatusOr<std::vector<int64_t>> fwd = ForwardShape(f, dt, *x);
  if (fwd.ok()) {
    ge::StatusOr<gert::Shape> s = gert::Shape::FromDims(*fwd);
    if (!s.ok()) return ctx.Error(s.status().message());
    return SetOutput(ctx, 0, *s, dt);
  }
  if (ge::GetErrorCode(fwd.status()) != ge::ErrorCode::kNotSupported) {
    return ctx.Error(fwd.status().message());
  }
  // blocked -> plain: keep the output desc's logical shape when it matches.
  gert::Shape* y = ctx.GetOutputShape(0);
  if (y == nullptr) return ctx.Error("output 0 has no shape slot");
  if (!x->IsUnknownShape() && !y->IsUnknownShape() && y->GetDimNum() != 0 &&
      !BackwardConsistent(f, dt, *y, *x)) {
    return ctx.Error("output shape ", y->ToString(), " in ",
                     ge::TypeUtils::FormatToSerialString(f.dst), " does not match input shape ",
                     x->ToString(), " in ", ge::TypeUtils::FormatToSerialString(f.src));
  }
  if (y->IsUnknownShape() || y->GetDimNum() == 0) *y = gert::Shape{ge::UNKNOWN_RANK};
  ctx.SetOutputDataType(0, dt);
  return ge::OkStatus();
}

ge::Status TransDataKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(TransFormats f, GetTransFormats(ctx));
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const ge::DataType dt = x->GetDataType();
  if (f.identity) return WriteOutput(ctx, 0, *x);
  ASSIGN_OR_RETURN(const bool logical, LogicalDims(ctx, f, x->GetShape().GetDimNum()));
  if (logical) {
    ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, x->GetShape(), dt));
    ASSIGN_OR_RETURN(size_t elem, gert::HostStorageBytes(dt, 1));
    if (x->GetShapeSize() > 0) {
      PermuteChannels(static_cast<const uint8_t*>(x->GetAddr()),
                      static_cast<uint8_t*>(y->GetAddr()), x->GetShape(), elem,
                      f.dst == ge::FORMAT_NHWC || f.dst == ge::FORMAT_NDHWC);
    }
    return ge::OkStatus();
  }
  ge::TransArgs args;
  args.data = static_cast<const uint8_t*>(x->GetAddr());
  args.src_format = f.src;
  args.dst_format = f.dst;
  args.src_shape = x->GetShape().ToVector();
  args.src_data_type = dt;
  gert::Shape out_shape;
  ge::StatusOr<std::vector<int64_t>> fwd = ForwardShape(f, dt, x->GetShape());
  if (fwd.ok()) {
    ge::StatusOr<gert::Shape> s = gert::Shape::FromDims(*fwd);
    if (!s.ok()) return ctx.Error(s.status().message());
    out_shape = *s;
  } else if (ge::GetErrorCode(fwd.status()) == ge::ErrorCode::kNotSupported) {
    const gert::Tensor* y = ctx.GetOutputTensor(0);
    if (y == nullptr) return ctx.Error("output 0 is missing");
    if (!BackwardConsistent(f, dt, y->GetShape(), x->GetShape())) {
      return ctx.Error("converting ", x->GetShape().ToString(), " from ",
                       ge::TypeUtils::FormatToSerialString(f.src), " to ",
                       ge::TypeUtils::FormatToSerialString(f.dst),
                       " needs the logical output shape in the output desc; got ",
                       y->GetShape().ToString());
    }
    out_shape = y->GetShape();
    args.dst_shape = out_shape.ToVector();
  } else {
    return ctx.Error(fwd.status().message());
  }
  std::vector<uint8_t> bytes;
  const ge::Status st = ge::TransferFormat(args, &bytes);
  if (!st.ok()) return WithNode(ctx, st);
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, out_shape, dt));
  if (y->GetSize() < bytes.size()) {
    return ctx.ErrorWithCode(ge::ErrorCode::kInternal, "output 0 holds ", y->GetSize(),
                             " bytes, the transfer produced ", bytes.size());
  }
  if (!bytes.empty()) std::memcpy(y->GetAddr(), bytes.data(), bytes.size());
  y->SetFormat(f.dst);
  return ge::OkStatus();
}

// ------------------------------------------------------------ registration

REG_OP(Data)
    .OptionalInput("x", ge::TensorType::ALL())
    .Output("y", ge::TensorType::ALL())
    .Attr("index", ge::AttrValue::CreateFrom<int64_t>(0))
    .Verify(VerifyData)
    .InferDataType(InferData)
    .InferShape(InferData);
REG_KERNEL(Data, ge::kEngineHostCpu).Fn(DataKernel);

REG_OP(Const)
    .Output("y", ge::TensorType::ALL())
    .RequiredAttr("value", ge::AttrValue::VT_TENSOR)
    .InferDataType(InferConst)
    .InferShape(InferConst);
REG_KERNEL(Const, ge::kEngineHostCpu).Fn(ConstKernel);

REG_OP(NetOutput).DynamicInput("x", ge::TensorType::ALL()).InferShape(InferNothing);
REG_KERNEL(NetOutput, ge::kEngineHostCpu).Fn(NoOpKernel);

REG_OP(PartitionedCall)
    .DynamicInput("args", ge::TensorType::ALL())
    .DynamicOutput("output", ge::TensorType::ALL())
    .Subgraph("f")
    .InferDataType(InferPartitionedCall)
    .InferShape(InferPartitionedCall);
REG_KERNEL(PartitionedCall, ge::kEngineHostCpu).Fn(PartitionedCallKernel);

REG_OP(TransData)
    .Input("src", ge::TensorType::ALL())
    .Output("dst", ge::TensorType::ALL())
    .RequiredAttr("src_format", ge::AttrValue::VT_STRING)
    .RequiredAttr("dst_format", ge::AttrValue::VT_STRING)
    .Verify(VerifyTransData)
    .InferShape(InferTransData);
REG_KERNEL(TransData, ge::kEngineHostCpu).Fn(TransDataKernel);

}  // namespace
}  // namespace ops
