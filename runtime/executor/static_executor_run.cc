// runtime/executor/static_executor_run.cc
//
// StaticExecutor's run path (Run): the user tensors checked, the patches
// pointed at the user's buffers, then each task's KernelContext made on the
// stack from the records of static_executor_records.h and its kernel
// called. Nothing here allocates but an error message.
#include <chrono>
#include <cstring>

#include "absl/types/span.h"
#include "build/om/launch_plan.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/register/inc/gert/contexts.h"
#include "runtime/executor/io_check.h"
#include "runtime/executor/static_executor.h"
#include "runtime/executor/static_executor_records.h"

namespace ge {
namespace {

// An OutputAllocator that refuses: static models have no data-dependent
// outputs (the builder marks such models dynamic).
class RefusingAllocator final : public gert::OutputAllocator {
 public:
  Status Allocate(size_t output_index, gert::Tensor* tensor) override {
    return Internal("a kernel of a static model asked to allocate output ", output_index,
                    " (data-dependent outputs need the dynamic executor)");
  }
};

RefusingAllocator g_refusing_allocator;

uint64_t NowNs() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

}  // namespace

absl::string_view StaticExecutor::NodeNameAt(size_t i, const Task& t) const {
  return parts_.plan != nullptr ? parts_.plan->task_name(i) : absl::string_view(t.op->GetName());
}

Status StaticExecutor::Run(absl::Span<const gert::Tensor> inputs,
                           absl::Span<gert::Tensor> outputs) {
  const proto::ModelTaskDef& td = *td_;
  RETURN_IF_ERROR(
      CheckUserTensorCount(static_cast<size_t>(td.input_size()), inputs.size(), "input"));
  RETURN_IF_ERROR(
      CheckUserTensorCount(static_cast<size_t>(td.output_size()), outputs.size(), "output"));
  for (size_t i = 0; i < inputs.size(); ++i) {
    RETURN_IF_ERROR(CheckUserTensor(td.input(static_cast<int>(i)), inputs[i], "input", i));
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    RETURN_IF_ERROR(CheckUserTensor(td.output(static_cast<int>(i)), outputs[i], "output", i));
  }
  // Zero copy: point the views at the user's buffers.
  for (const Patch& p : patches_) {
    uint8_t* base = p.is_output
                        ? static_cast<uint8_t*>(outputs[p.index].GetAddr())
                        : static_cast<uint8_t*>(const_cast<void*>(inputs[p.index].GetAddr()));
    p.tensor->SetData(base == nullptr ? nullptr : base + p.offset, static_cast<size_t>(p.size));
  }
  for (Engine* e : engines_) e->BeginRun(run_config_);
  if (profiling_) ++profiled_runs_;
  if (parts_.plan != nullptr) return RunPlan();
  for (size_t i = 0; i < tasks_.size(); ++i) {
    const uint64_t t0 = profiling_ ? NowNs() : 0;
    RETURN_IF_ERROR(RunTask(i, tasks_[i]));
    if (profiling_) task_ns_[i] += NowNs() - t0;
  }
  return OkStatus();
}

Status StaticExecutor::RunPlan() {
  const LaunchPlanView& plan = *parts_.plan;
  // A plan task has fewer than 256 inputs, outputs and workspaces each.
  const gert::Tensor* ins[256];
  gert::Tensor* outs[256];
  void* ws[256];
  for (size_t i = 0; i < plan_code_.size(); ++i) {
    const uint32_t code = plan_code_[i];
    const uint64_t t0 = profiling_ ? NowNs() : 0;
    if ((code & kPlanRecord) != 0) {
      RETURN_IF_ERROR(RunTask(i, tasks_[code & ~kPlanRecord]));
      if (profiling_) task_ns_[i] += NowNs() - t0;
      continue;
    }
    const PlanEntry& e = plan_entries_[code];
    const LaunchPlanView::Task t = plan.task(i);
    for (size_t k = 0; k < t.inputs.size(); ++k) ins[k] = plan_views_[t.inputs[k]];
    for (size_t k = 0; k < t.outputs.size(); ++k) outs[k] = plan_views_[t.outputs[k]];
    for (size_t k = 0; k < t.workspaces.size(); ++k) {
      ws[k] = arena_ == nullptr ? nullptr : arena_ + plan.tensor(t.workspaces[k]).offset;
    }
    gert::KernelContext ctx;
    ctx.SetNode(t.name, e.op->GetType());
    ctx.SetAttrHolder(e.op);
    ctx.SetOutputAllocator(&g_refusing_allocator);
    ctx.SetTensors(absl::MakeConstSpan(ins, t.inputs.size()),
                   absl::MakeConstSpan(outs, t.outputs.size()));
    ctx.SetIrInputs(absl::MakeConstSpan(ir_.data() + e.ir_begin, e.ir_count));
    ctx.SetWorkspaces(absl::MakeConstSpan(ws, t.workspaces.size()));
    Status st = e.kernel->Run(ctx);
    if (!st.ok()) return Annotate(st, TaskHeadAt(i), "kernel: ");  // the error path may allocate
    if (profiling_) task_ns_[i] += NowNs() - t0;
  }
  return OkStatus();
}

Status StaticExecutor::RunTask(size_t i, const Task& t) {
  switch (t.type) {
    case proto::TASK_KERNEL: {
      gert::KernelContext ctx;
      ctx.SetNode(NodeNameAt(i, t), t.op->GetType());
      ctx.SetAttrHolder(t.op);
      ctx.SetOutputAllocator(&g_refusing_allocator);
      ctx.SetTensors(absl::MakeConstSpan(slots_.data() + t.in_begin, t.in_count),
                     absl::MakeConstSpan(slots_.data() + t.in_begin + t.in_count, t.out_count));
      ctx.SetIrInputs(absl::MakeConstSpan(ir_.data() + t.ir_begin, t.ir_count));
      ctx.SetWorkspaces(absl::MakeConstSpan(workspaces_.data() + t.ws_begin, t.ws_count));
      Status st = t.kernel->Run(ctx);
      if (!st.ok()) return Annotate(st, TaskHeadAt(i), "kernel: ");  // the error path may allocate
      return OkStatus();
    }
    case proto::TASK_MEMCPY:
      if (t.copy_bytes > 0) {
        std::memmove(slots_[t.in_begin + 1]->GetAddr(), slots_[t.in_begin]->GetAddr(),
                     t.copy_bytes);
      }
      return OkStatus();
    default:  // events: tasks already run in a valid sequential order
      return OkStatus();
  }
}

}  // namespace ge
