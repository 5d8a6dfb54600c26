// runtime/executor/static_executor_records.h
//
// The run-time records of a prepared StaticExecutor (internal: a header in
// //runtime/executor:static_executor's srcs). Load (static_executor_prepare.cc)
// builds them once, in flat arrays sized at load; Run
// (static_executor_run.cc) reads them to make each task's KernelContext on
// the stack, allocating nothing:
//   * Task: a 40-byte record per task that is not a plain plan kernel;
//   * PlanEntry: what a plan kernel task without a record needs beside the
//     plan's words (one per op and kernel);
//   * Patch: a view whose data pointer Run points at a user buffer.
//
// Example (the run path)
//   const StaticExecutor::Task& t = tasks_[i];
//   ctx.SetTensors(absl::MakeConstSpan(slots_.data() + t.in_begin, t.in_count), ...);
#ifndef RUNTIME_EXECUTOR_STATIC_EXECUTOR_RECORDS_H_
#define RUNTIME_EXECUTOR_STATIC_EXECUTOR_RECORDS_H_

#include <cstddef>
#include <cstdint>

#include "build/proto/model_task.pb.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "metadef/register/inc/register/op_registry.h"
#include "runtime/executor/static_executor.h"

namespace ge {

// One prepared task: a fixed-size record (40 bytes: load touches fresh
// memory per byte, see static_executor.h). Its slices of the executor's
// flat arrays are recorded as [begin, begin + count): its inputs and then its
// outputs in slots_, its IR mapping in ir_, its workspaces in workspaces_.
// The KernelContext is made on the stack per run from these; the node name
// its kernel sees is the op's, or the plan's task name (NodeNameAt).
struct StaticExecutor::Task {
  const OpKernel* kernel = nullptr;  // TASK_KERNEL: shared (stateless) or this node's
  union {
    const OpDesc* op = nullptr;  // TASK_KERNEL: attributes, type
    size_t copy_bytes;           // TASK_MEMCPY: input 0 -> output 0
  };
  uint32_t in_begin = 0;  // in slots_; the outputs follow the inputs
  uint32_t ir_begin = 0;
  uint32_t ws_begin = 0;
  uint16_t in_count = 0, out_count = 0, ir_count = 0, ws_count = 0;
  proto::TaskType type = proto::TASK_KERNEL;
};
static_assert(sizeof(proto::TaskType) <= 4, "TaskType is an int enum");

// A plan kernel task without a record: what its KernelContext needs beside
// the plan's words (shared by the tasks of an op).
struct StaticExecutor::PlanEntry {
  const OpKernel* kernel = nullptr;
  const OpDesc* op = nullptr;
  uint32_t ir_begin = 0;
  uint16_t ir_count = 0;
  bool Matches(const Task& t) const {
    return kernel == t.kernel && op == t.op && ir_begin == t.ir_begin && ir_count == t.ir_count;
  }
};

// A tensor view whose data pointer is the user's buffer + offset.
struct StaticExecutor::Patch {
  gert::Tensor* tensor = nullptr;
  bool is_output = false;
  uint32_t index = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
};

namespace static_executor_internal {

// Views per chunk of StaticExecutor::view_chunks_.
constexpr size_t kViewChunk = 256;

}  // namespace static_executor_internal
}  // namespace ge

#endif  // RUNTIME_EXECUTOR_STATIC_EXECUTOR_RECORDS_H_
