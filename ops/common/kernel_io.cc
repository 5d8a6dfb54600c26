// ops/common/kernel_io.cc
#include "ops/common/kernel_io.h"

#include <cstdint>

#include "ops/common/element_types.h"
#include "ops/common/node_status.h"
#include "ops/common/tensor_values.h"

namespace ops {

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
    return ctx.Error("output ", i, " is missing (the node has ", ctx.GetOutputNum(), " outputs)");
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

}  // namespace ops
