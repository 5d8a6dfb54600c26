// runtime/executor/static_executor.h
//
// StaticExecutor: runs the task list of a static GeModel (task_def.dynamic ==
// false) out of ONE pre-planned arena (seed 002 §6-7, DESIGN "compile-time
// decisions stay at compile time").
//
// Load (Create) does every check and every allocation:
//   * the arena: task_def.memory_size bytes, kMemAlign (64) aligned,
//     zero-filled, at most options.max_arena_bytes (default: the machine's
//     physical memory);
//   * every TensorRef is validated: its region exists (ARENA within
//     memory_size and 64-byte aligned, WEIGHTS within the weight blob,
//     MODEL_INPUT / MODEL_OUTPUT index in range and within the I/O size), its
//     data type is a fixed-size type, its dims are known and its size holds
//     them; outputs and workspaces are never written to WEIGHTS or
//     MODEL_INPUT;
//   * every TASK_KERNEL: op_index names a node of the MODEL_DEF graph whose
//     type is op_type, the op (kernel_name, default op_type) is registered and
//     has a kernel for the task's engine (a missing kernel is NotSupported at
//     load, never at run), inputs map onto the IR (required inputs present,
//     data types allowed), and verify / infer data type / infer shape (with
//     weight inputs' values known) reproduce exactly the output dims and data
//     types the task declares, so that no kernel can write past its buffer;
//   * for every task, gert::Tensor views and a 40-byte record (kernel, op,
//     slices of the flat arrays) are built once; Run makes each
//     KernelContext on the stack from them; the refs to MODEL_INPUT /
//     MODEL_OUTPUT are collected as "patches". From a launch plan, a kernel
//     task on shared views keeps no record: a 4-byte code names a PlanEntry
//     (kernel, op, IR slice; one per op) and Run reads its tensor ids from
//     the plan's words (memcpy, event and Switch tasks keep records).
//
// Load cost is linear and allocation-light: the tasks, pointer slots, IR
// mappings and workspaces live in a handful of flat arrays, views in fixed
// chunks; equal refs share one view (on the build VM, fresh memory costs
// more than the CPU work of a load, so its bytes are kept few);
// the verify / infer check runs on an InferShapeContext wired over those
// views and scratch reused by every task. Tasks given as wire bytes
// (StaticModelParts::task_bytes) are parsed one at a time into one reused
// message, so no per-task message objects exist after the load.
//   * TASK_MEMCPY copies input 0 to output 0 (output size >= input size);
//     TASK_EVENT_RECORD / TASK_EVENT_WAIT are no-ops (tasks run in list order
//     on one thread, which the builder's order makes valid); stream switch /
//     active and label tasks are NotSupported at load.
//
// Run binds the user's buffers by patching the pre-collected tensor data
// pointers (zero copy), then calls the kernels in task order. After the
// checks of the user tensors it allocates nothing (no operator new, no
// malloc) as long as the kernels do not. Kernels that need an OutputAllocator
// never appear in static models; if one asks, the run fails (Internal).
//
// Thread safety: Run mutates the arena and the views; callers serialise Runs
// of one executor (Model does).
//
// Load without a graph. The executor reads of the MODEL_DEF only the op
// descs of the root graph (attributes, name, type, input names, output
// desc data types), so a loaded OM is prepared from StaticModelParts: the
// task list, the weights and the op descs (build/om decodes just those, no
// ComputeGraph). Create(GeModelPtr) takes them from the model's graph.
// An OM whose tasks are a LaunchPlan (build/om/launch_plan.h, the writer's
// default for static models) needs not even those: the plan holds the
// distinct op descs, tensors and shapes once, and each task is a few words
// (StaticModelParts::plan); MODEL_DEF is then not read at all. One view per
// plan tensor serves its writer and its readers.
//
// Repeated ops are prepared once per distinct shape: the registry lookup is
// made once per distinct kernel key, the IR mapping once per distinct
// (registration, input names, slot count), and verify / infer once per
// distinct (registration, IR mapping, input shapes and data types, weight
// inputs' locations in the weights, output desc data types, attributes)
// (see InferVerdictCache in infer_verdict_cache.h: the op functions are pure
// functions of the context, so an equal context gives an equal verdict).
// Equal output refs share one view (kernels write through their output
// views and do not rebind them; Switch, which rebinds its dead output, gets
// views of its own), as equal input refs do.
//
// Files: static_executor.cc (Create), static_executor_prepare.cc (the load),
// static_executor_run.cc (Run), over the internal headers
// static_executor_records.h (what the load builds and Run reads) and
// infer_verdict_cache.h.
//
// Example
//   ASSIGN_OR_RETURN(std::unique_ptr<StaticExecutor> exec, StaticExecutor::Create(ge_model));
//   RETURN_IF_ERROR(exec->Run(inputs, outputs));  // caller-owned gert::Tensor views
#ifndef RUNTIME_EXECUTOR_STATIC_EXECUTOR_H_
#define RUNTIME_EXECUTOR_STATIC_EXECUTOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "build/model/ge_model.h"
#include "build/proto/model_task.pb.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "runtime/engine/engine.h"

namespace ge {

class LaunchPlanView;  // build/om/launch_plan.h

// What the static executor reads of a static model. Every pointer must stay
// valid while `keepalive` lives (the executor holds it).
struct StaticModelParts {
  std::string name;        // the model name (messages)
  std::string graph_name;  // the root graph's name (messages)
  const proto::ModelTaskDef* task_def = nullptr;
  // When non-empty, the task list: the wire bytes of each TaskDef (e.g.
  // OmRuntimeModel::task_bytes), parsed one at a time into a reused message
  // (task_def's own task list must then be empty). Bytes that do not parse
  // fail the load (ParseFailed naming the task).
  std::vector<absl::Span<const uint8_t>> task_bytes;
  const WeightBuffer* weights = nullptr;
  // The op descs of the root graph in any order; a task finds its op by
  // OpDesc id (op_index). Null entries are ignored.
  std::vector<const OpDesc*> ops;
  // Or a validated launch plan (e.g. OmRuntimeModel::plan) with its op
  // descs by op id (its op_model decoded): the task list instead of
  // task_def's tasks, task_bytes and ops (which must then be empty). A
  // plan's op is shared by equal nodes; each task's kernel sees its own
  // node name.
  const LaunchPlanView* plan = nullptr;
  std::vector<const OpDesc*> plan_ops;
  std::shared_ptr<const void> keepalive;
};

struct StaticExecutorOptions {
  // Largest arena accepted; 0 means the machine's physical memory.
  uint64_t max_arena_bytes = 0;
  // Intra-op threads of the compute engine's kernels; <= 0: one per core.
  int intra_op_threads = 0;
};

class StaticExecutor {
 public:
  // Validates and prepares `model` (see the file comment). The model (graph,
  // weights) is kept alive by the executor.
  static StatusOr<std::unique_ptr<StaticExecutor>> Create(
      GeModelPtr model, const StaticExecutorOptions& options = StaticExecutorOptions());
  // The same from the parts of a model (no graph needed).
  static StatusOr<std::unique_ptr<StaticExecutor>> Create(
      StaticModelParts parts, const StaticExecutorOptions& options = StaticExecutorOptions());
  ~StaticExecutor();
  StaticExecutor(const StaticExecutor&) = delete;
  StaticExecutor& operator=(const StaticExecutor&) = delete;

  // inputs[i] / outputs[i] must match task_def.input(i) / output(i) exactly
  // (data type and dims) and cover their size; ParamInvalid naming the
  // tensor otherwise. Output buffers must not overlap input buffers.
  Status Run(absl::Span<const gert::Tensor> inputs, absl::Span<gert::Tensor> outputs);

  const proto::ModelTaskDef& task_def() const { return *td_; }
  uint64_t arena_bytes() const { return arena_size_; }
  // The arena base (64-byte aligned; null when memory_size is 0).
  const uint8_t* arena() const { return arena_; }
  size_t kernel_task_count() const { return kernel_tasks_; }
  // Kernels prepared for their node at load (stateful kernels).
  size_t prepared_kernel_count() const { return owned_kernels_.size(); }
  // Bytes of workspace the load re-planned beyond the model's plan (a
  // prepared kernel asked more than the builder planned; tasks run one at a
  // time, so one buffer per workspace index serves them all).
  uint64_t replanned_workspace_bytes() const;
  // The engines whose kernels the tasks run, sorted by name.
  std::vector<std::string> engines() const;

  // Per-task wall time (profiling). SetProfiling(true) allocates the
  // counters (zeroed) and makes each Run time every task; Profile returns
  // them with the number of Runs counted. Not on the path of an unprofiled
  // Run beyond one branch per task.
  struct TaskTime {
    std::string node_name, op_type, engine;
    uint64_t total_ns = 0;
  };
  void SetProfiling(bool on);
  std::vector<TaskTime> Profile(uint64_t* runs) const;

 private:
  struct Task;
  struct Patch;
  struct PlanEntry;
  class Preparer;  // the task walk of Prepare (static_executor_prepare.cc)
  // plan_code_: the task's record in tasks_ (this bit | index), else its
  // PlanEntry index.
  static constexpr uint32_t kPlanRecord = 0x80000000u;
  explicit StaticExecutor(StaticModelParts parts);
  Status Prepare(const StaticExecutorOptions& options);
  gert::Tensor* NewView();
  // The TaskDef of task `i` (parsed into `scratch` when the tasks are bytes).
  const proto::TaskDef* TaskDefAt(size_t i, proto::TaskDef* scratch) const;
  // "task i (TYPE, node 'name' type): " for messages.
  std::string TaskHeadAt(size_t i) const;
  Status RunTask(size_t i, const Task& t);
  Status RunPlan();
  // The node name task i's kernel sees (`t`: its record).
  absl::string_view NodeNameAt(size_t i, const Task& t) const;

  StaticModelParts parts_;
  const proto::ModelTaskDef* td_ = nullptr;
  WeightBuffer weights_copy_;  // only when a weight ref is not contiguous in model_->weights
  uint8_t* arena_ = nullptr;
  uint64_t arena_size_ = 0;
  size_t arena_mapped_bytes_ = 0;  // the anonymous mapping holding the arena
  // Flat storage, sized once at load and never resized afterwards: the
  // contexts' spans and the patches point into it.
  std::vector<Task> tasks_;
  // One view per distinct ref (equal refs share), in fixed-size chunks so
  // that their addresses stay put while more are made; a chunk's pages are
  // populated before its views are constructed (see NewView).
  struct ViewChunkDeleter {
    void operator()(gert::Tensor* chunk) const;
  };
  std::vector<std::unique_ptr<gert::Tensor, ViewChunkDeleter>> view_chunks_;
  size_t views_in_last_chunk_ = 0;
  std::vector<gert::Tensor*> slots_;  // per task, its inputs then its outputs
  // A plan: per task, its record or entry (kPlanRecord); records are kept
  // only for tasks that are not plain kernels on shared views (memcpy,
  // events, Switch): a plan load touches ~4 bytes of fresh memory per task.
  std::vector<uint32_t> plan_code_;
  std::vector<PlanEntry> plan_entries_;
  std::vector<gert::Tensor*> plan_views_;  // per plan tensor id (null: absent)
  std::vector<gert::IrInstance> ir_;       // per kernel task, its IR mapping
  std::vector<void*> workspaces_;          // per task, its workspaces
  std::vector<Patch> patches_;
  size_t kernel_tasks_ = 0;
  // Stateful kernels, one per node that has one, prepared at load.
  std::vector<std::unique_ptr<OpKernel>> owned_kernels_;
  // Re-planned workspaces: per workspace index the largest size asked
  // beyond the plan, the buffers, and the workspaces_ slots pointing there.
  struct OverflowUse {
    uint32_t slot;
    uint32_t index;
  };
  std::vector<uint64_t> overflow_bytes_;
  std::vector<OverflowUse> overflow_uses_;
  struct FreeDeleter {
    void operator()(void* p) const;
  };
  std::vector<std::unique_ptr<void, FreeDeleter>> overflow_buffers_;
  // Engines of the tasks' kernels (BeginRun before each Run).
  std::set<std::string> engines_used_;
  std::vector<Engine*> engines_;
  RunConfig run_config_;
  bool profiling_ = false;
  std::vector<uint64_t> task_ns_;
  uint64_t profiled_runs_ = 0;
};

}  // namespace ge

#endif  // RUNTIME_EXECUTOR_STATIC_EXECUTOR_H_
