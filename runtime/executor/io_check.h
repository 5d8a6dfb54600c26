// runtime/executor/io_check.h
//
// Checks of user tensors against a model's input / output descriptions
// (proto::ModelIoDef of TASK_INFO), shared by the static and the dynamic
// executor, and checks of the descriptions themselves at load.
//
// Contract
//   * CheckIoDef: a description the runtime can rely on: at most
//     gert::kMaxDimNum dims, dims >= -1, and (static models, !allow_unknown)
//     a valid tensor data type and `size` >= the bytes of the shape. Dynamic
//     models (`allow_unknown`) may also say "known only at run time":
//       - dims -1 (that dim) or exactly [-2] (UNKNOWN_RANK: any rank);
//       - data type DT_UNDEFINED (the compiler could not infer it, e.g. the
//         element read out of a sequence: any value is accepted / produced);
//       - data type DT_VARIANT: a sequence or optional value (gert tensor.h:
//         a DT_VARIANT tensor of gert::HostTensor elements, shape [n]).
//   * CheckUserTensor: the tensor has the description's data type (any but
//     DT_UNDEFINED when the description says DT_UNDEFINED), its rank and
//     every known dim (any shape for [-2]); its data covers its shape and
//     the description's `size` (the bytes the model's tasks may address;
//     null data only for zero bytes).
//     Errors are ParamInvalid and name the tensor ("input 1 'x'") and the
//     mismatch.
//   * Nothing here allocates on success.
//
// Example
//   RETURN_IF_ERROR(CheckUserTensor(task_def.input(i), inputs[i], "input", i));
#ifndef RUNTIME_EXECUTOR_IO_CHECK_H_
#define RUNTIME_EXECUTOR_IO_CHECK_H_

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"
#include "build/proto/model_task.pb.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ge {

// Validates one ModelIoDef (see the file comment). `what` is "input" or
// "output".
Status CheckIoDef(const proto::ModelIoDef& def, absl::string_view what, size_t index,
                  bool allow_unknown);

// Validates a user tensor against its description (see the file comment).
Status CheckUserTensor(const proto::ModelIoDef& def, const gert::Tensor& tensor,
                       absl::string_view what, size_t index);

// Checks the count of user tensors ("expects 2 inputs, got 3").
Status CheckUserTensorCount(size_t expected, size_t got, absl::string_view what);

// True when the description's dims are exactly [-2] (UNKNOWN_RANK).
bool IsUnknownRankIoDef(const proto::ModelIoDef& def);

}  // namespace ge

#endif  // RUNTIME_EXECUTOR_IO_CHECK_H_
