// ops/common/op_util.h
//
// The op library's shared helpers in one include (every ops family used to
// include this; new code includes the piece it uses):
//   element_types.h   fp16_t / bf16_t and their float conversions,
//                     ComputeType, DataTypeOf, DataTypeName,
//                     ConvertElement, SaturateCast;
//   dtype_dispatch.h  DispatchType<kGroups> over TypeGroup bits;
//   broadcast.h       InferBroadcastShape, BroadcastIndex;
//   axes.h            NormalizeAxis / NormalizeAxes;
//   tensor_values.h   ReadIntTensor, ReadAsDoubles, CheckTensorData,
//                     MakeHostTensor, MakeHostTensorFromDoubles;
//   common_infer.h    InferSameAsInput0, InferShapeSameAsInput0,
//                     InferBroadcast;
//   kernel_io.h       GetKernelInput, PrepareOutput;
//   node_status.h     WithNode;
//   shape_range.h     shape ranges through infer functions.
// The //ops/common:op_util target depends on all of them.
//
// Example
//   #include "ops/common/op_util.h"  // or just "ops/common/kernel_io.h"
//   ASSIGN_OR_RETURN(const gert::Tensor* x, ops::GetKernelInput(ctx, 0));
#ifndef OPS_COMMON_OP_UTIL_H_
#define OPS_COMMON_OP_UTIL_H_

#include "ops/common/axes.h"
#include "ops/common/broadcast.h"
#include "ops/common/common_infer.h"
#include "ops/common/dtype_dispatch.h"
#include "ops/common/element_types.h"
#include "ops/common/kernel_io.h"
#include "ops/common/node_status.h"
#include "ops/common/shape_range.h"
#include "ops/common/tensor_values.h"

#endif  // OPS_COMMON_OP_UTIL_H_
