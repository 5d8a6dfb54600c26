// build/om/om_validation.cc
#include "build/om/om_validation.h"

#include <vector>

#include "absl/strings/str_cat.h"

namespace ge {
namespace om_internal {
namespace {

// Names a ref in messages; built only when a check fails.
struct RefWhere {
  const std::string& model;
  int task;
  const char* role;  // "" for the task itself
  int index;
  std::string str() const {
    if (role[0] == '\0') return absl::StrCat("OM model '", model, "' task ", task);
    return absl::StrCat("OM model '", model, "' task ", task, " ", role, " ", index);
  }
};

Status CheckRange(uint64_t offset, uint64_t size, uint64_t limit, absl::string_view region,
                  const RefWhere& where) {
  if (offset > limit || size > limit - offset) {
    return OutOfRange(where.str(), ": ", region, " ref [", offset, ", +", size, ") exceeds the ",
                      limit, "-byte ", region, " region");
  }
  return OkStatus();
}

Status ValidateRef(const proto::TensorRef& ref, const proto::ModelTaskDef& def,
                   const RefWhere& where) {
  if (ref.dims_size() > 64) {
    return OutOfRange(where.str(), ": ", ref.dims_size(), " dims (limit 64)");
  }
  switch (ref.kind()) {
    case proto::MEM_ABSENT:
      return OkStatus();
    case proto::MEM_ARENA:
      return CheckRange(ref.offset(), ref.size(), def.memory_size(), "ARENA", where);
    case proto::MEM_WEIGHTS:
      return CheckRange(ref.offset(), ref.size(), def.weight_size(), "WEIGHTS", where);
    case proto::MEM_MODEL_INPUT:
      if (ref.index() >= static_cast<uint32_t>(def.input_size())) {
        return OutOfRange(where.str(), ": model input index ", ref.index(), " but the model has ",
                          def.input_size(), " inputs");
      }
      if (!def.dynamic()) {
        return CheckRange(ref.offset(), ref.size(), def.input(ref.index()).size(), "MODEL_INPUT",
                          where);
      }
      return OkStatus();
    case proto::MEM_MODEL_OUTPUT:
      if (ref.index() >= static_cast<uint32_t>(def.output_size())) {
        return OutOfRange(where.str(), ": model output index ", ref.index(), " but the model has ",
                          def.output_size(), " outputs");
      }
      if (!def.dynamic()) {
        return CheckRange(ref.offset(), ref.size(), def.output(ref.index()).size(), "MODEL_OUTPUT",
                          where);
      }
      return OkStatus();
    default:
      return ParseFailed(where.str(), ": unknown memory kind ", static_cast<int>(ref.kind()));
  }
}

}  // namespace

Status ValidateTask(const proto::TaskDef& task, int t, const proto::ModelTaskDef& def,
                    const std::string& model) {
  const RefWhere where{model, t, "", 0};
  if (task.task_id() != static_cast<uint32_t>(t)) {
    return ParseFailed(where.str(), ": task_id ", task.task_id(), " differs from its position");
  }
  if (!proto::TaskType_IsValid(task.type())) {
    return ParseFailed(where.str(), ": unknown task type ", static_cast<int>(task.type()));
  }
  if (def.stream_num() > 0 && task.stream_id() >= def.stream_num()) {
    return OutOfRange(where.str(), ": stream_id ", task.stream_id(), " >= stream_num ",
                      def.stream_num());
  }
  if (task.op_index() < -1) return OutOfRange(where.str(), ": op_index ", task.op_index());
  if (task.type() == proto::TASK_MEMCPY && (task.input_size() != 1 || task.output_size() != 1)) {
    return ParseFailed(where.str(), ": MEMCPY needs 1 input and 1 output, has ", task.input_size(),
                       " and ", task.output_size());
  }
  for (int i = 0; i < task.input_size(); ++i) {
    RETURN_IF_ERROR(ValidateRef(task.input(i), def, RefWhere{model, t, "input", i}));
  }
  for (int i = 0; i < task.output_size(); ++i) {
    RETURN_IF_ERROR(ValidateRef(task.output(i), def, RefWhere{model, t, "output", i}));
    if (task.output(i).kind() == proto::MEM_WEIGHTS) {
      return ParseFailed(where.str(), " output ", i, ": writes into WEIGHTS");
    }
  }
  for (int i = 0; i < task.workspace_size(); ++i) {
    if (task.workspace(i).kind() != proto::MEM_ARENA) {
      return ParseFailed(where.str(), " workspace ", i, ": kind ",
                         static_cast<int>(task.workspace(i).kind()), " is not ARENA");
    }
    RETURN_IF_ERROR(ValidateRef(task.workspace(i), def, RefWhere{model, t, "workspace", i}));
  }
  return OkStatus();
}

Status ValidateWeightSize(const proto::ModelTaskDef& def, uint64_t weights_size,
                          const std::string& model) {
  if (def.weight_size() != weights_size) {
    return ParseFailed("OM model '", model, "': TASK_INFO weight_size ", def.weight_size(),
                       " differs from the WEIGHTS_DATA partition size ", weights_size);
  }
  return OkStatus();
}

Status ValidateTaskDef(const proto::ModelTaskDef& def, uint64_t weights_size,
                       const std::string& model) {
  RETURN_IF_ERROR(ValidateWeightSize(def, weights_size, model));
  for (int t = 0; t < def.task_size(); ++t) {
    RETURN_IF_ERROR(ValidateTask(def.task(t), t, def, model));
  }
  return OkStatus();
}

Status ValidatePlanTasks(const LaunchPlanView& plan, const proto::ModelTaskDef& def,
                         const std::string& model) {
  std::vector<uint8_t> checked(plan.num_tensors(), 0);
  proto::TensorRef ref;  // scratch, one per distinct tensor
  for (size_t t = 0; t < plan.num_tasks(); ++t) {
    const LaunchPlanView::Task task = plan.task(t);
    const RefWhere where{model, static_cast<int>(t), "", 0};
    if (def.stream_num() > 0 && task.stream_id >= def.stream_num()) {
      return OutOfRange(where.str(), ": stream_id ", task.stream_id, " >= stream_num ",
                        def.stream_num());
    }
    if (task.op_index < -1) return OutOfRange(where.str(), ": op_index ", task.op_index);
    if (task.type == proto::TASK_MEMCPY && (task.inputs.size() != 1 || task.outputs.size() != 1)) {
      return ParseFailed(where.str(), ": MEMCPY needs 1 input and 1 output, has ",
                         task.inputs.size(), " and ", task.outputs.size());
    }
    auto check = [&](uint32_t id, const char* role, size_t i) -> Status {
      if (checked[id]) return OkStatus();
      ref.Clear();
      plan.FillTensorRef(id, &ref);
      RETURN_IF_ERROR(
          ValidateRef(ref, def, RefWhere{model, static_cast<int>(t), role, static_cast<int>(i)}));
      checked[id] = 1;
      return OkStatus();
    };
    for (size_t i = 0; i < task.inputs.size(); ++i) {
      RETURN_IF_ERROR(check(task.inputs[i], "input", i));
    }
    for (size_t i = 0; i < task.outputs.size(); ++i) {
      RETURN_IF_ERROR(check(task.outputs[i], "output", i));
      if (plan.tensor(task.outputs[i]).kind == proto::MEM_WEIGHTS) {
        return ParseFailed(where.str(), " output ", i, ": writes into WEIGHTS");
      }
    }
    for (size_t i = 0; i < task.workspaces.size(); ++i) {
      const proto::MemKind kind = plan.tensor(task.workspaces[i]).kind;
      if (kind != proto::MEM_ARENA) {
        return ParseFailed(where.str(), " workspace ", i, ": kind ", static_cast<int>(kind),
                           " is not ARENA");
      }
      RETURN_IF_ERROR(check(task.workspaces[i], "workspace", i));
    }
  }
  return OkStatus();
}

Status CheckOpIndices(const proto::ModelTaskDef& td, int64_t num_ops, const std::string& model) {
  for (int t = 0; t < td.task_size(); ++t) {
    if (td.task(t).op_index() >= num_ops) {
      return OutOfRange("OM model '", model, "' task ", t, ": op_index ", td.task(t).op_index(),
                        " but MODEL_DEF has ", num_ops, " ops");
    }
  }
  return OkStatus();
}

}  // namespace om_internal
}  // namespace ge
