// build/om/om_validation.h
//
// The reader's checks of a model's task list (internal to //build/om:om_file,
// namespace om_internal): every task and every TensorRef against the
// model's ModelTaskDef (memory_size, weight_size, model io counts and
// sizes, stream_num), a launch plan's tasks the same way, and op indices
// against the decoded MODEL_DEF. Errors name the model, the task, the
// ref's role and index, and the values.
//
// Example
//   RETURN_IF_ERROR(ValidateTaskDef(task_def, weights.size(), model_name));
//   RETURN_IF_ERROR(CheckOpIndices(task_def, num_ops, model_name));
#ifndef BUILD_OM_OM_VALIDATION_H_
#define BUILD_OM_OM_VALIDATION_H_

#include <cstdint>
#include <string>

#include "build/om/launch_plan.h"
#include "build/proto/model_task.pb.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace om_internal {

// Task `t` of the model against its ModelTaskDef `def` (whose own task list
// is not read: the task may come from elsewhere, see the reader's
// SplitTaskInfo).
Status ValidateTask(const proto::TaskDef& task, int t, const proto::ModelTaskDef& def,
                    const std::string& model);

// def.weight_size() against the WEIGHTS_DATA partition's size.
Status ValidateWeightSize(const proto::ModelTaskDef& def, uint64_t weights_size,
                          const std::string& model);

// ValidateWeightSize, then ValidateTask of every task of `def`.
Status ValidateTaskDef(const proto::ModelTaskDef& def, uint64_t weights_size,
                       const std::string& model);

// The tasks of a launch plan (validated by LaunchPlanView) against their
// ModelTaskDef: what ValidateTask checks of a TaskDef. Each distinct tensor
// is checked once (named by the first task that uses it).
Status ValidatePlanTasks(const LaunchPlanView& plan, const proto::ModelTaskDef& def,
                         const std::string& model);

// The op_index of every task of `td` is below `num_ops`.
Status CheckOpIndices(const proto::ModelTaskDef& td, int64_t num_ops, const std::string& model);

}  // namespace om_internal
}  // namespace ge

#endif  // BUILD_OM_OM_VALIDATION_H_
