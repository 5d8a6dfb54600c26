// ops/common/kernel_io.h
//
// A kernel's inputs and outputs: GetKernelInput (present, known shape, data
// covering it) and PrepareOutput (the executor's tensor when it already has
// the shape, dtype and memory; else ctx.AllocateOutput). Errors name the
// node and the index.
//
// Example
//   ASSIGN_OR_RETURN(const gert::Tensor* x, ops::GetKernelInput(ctx, 0));
//   ASSIGN_OR_RETURN(gert::Tensor* y,
//                    ops::PrepareOutput(ctx, 0, x->GetShape(), x->GetDataType()));
#ifndef OPS_COMMON_KERNEL_IO_H_
#define OPS_COMMON_KERNEL_IO_H_

#include <cstddef>

#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ops {

// Input i, present with a known shape and data covering it; errors name the
// node and the index.
ge::StatusOr<const gert::Tensor*> GetKernelInput(const gert::KernelContext& ctx, size_t i);
// Output i with `shape` and `dtype`: returns the executor's tensor when it
// already has that shape / dtype and enough memory; calls ctx.AllocateOutput
// when its shape has unknown dims or it has no memory; otherwise (a
// conflicting known shape or dtype) ParamInvalid naming both.
ge::StatusOr<gert::Tensor*> PrepareOutput(gert::KernelContext& ctx, size_t i,
                                          const gert::Shape& shape, ge::DataType dtype);

}  // namespace ops

#endif  // OPS_COMMON_KERNEL_IO_H_
