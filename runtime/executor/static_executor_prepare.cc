// runtime/executor/static_executor_prepare.cc
//
// StaticExecutor's load-time preparation (Prepare): the arena, the checks of
// every task and TensorRef, the registry lookups, IR mappings and verify /
// infer verdicts, and the run-time records of static_executor_records.h
// (tasks, views, patches, plan entries) that the run path reads.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/attributes.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "build/om/launch_plan.h"
#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/base/prefault.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/op_infer_runner.h"
#include "metadef/register/inc/register/op_registry.h"
#include "runtime/engine/engine.h"
#include "runtime/executor/infer_verdict_cache.h"
#include "runtime/executor/io_check.h"
#include "runtime/executor/static_executor.h"
#include "runtime/executor/static_executor_records.h"

namespace ge {
namespace {

using static_executor_internal::InferVerdictCache;
using static_executor_internal::kMaxVerdictEntries;
using static_executor_internal::kViewChunk;

std::string DtName(DataType dt) { return TypeUtils::DataTypeToSerialString(dt); }

const char* KindName(proto::MemKind kind) {
  switch (kind) {
    case proto::MEM_ABSENT:
      return "ABSENT";
    case proto::MEM_ARENA:
      return "ARENA";
    case proto::MEM_WEIGHTS:
      return "WEIGHTS";
    case proto::MEM_MODEL_INPUT:
      return "MODEL_INPUT";
    case proto::MEM_MODEL_OUTPUT:
      return "MODEL_OUTPUT";
    default:
      return "UNKNOWN";
  }
}

// One task's fields, from a TaskDef or a launch plan (views into either).
struct TaskFields {
  proto::TaskType type = proto::TASK_KERNEL;
  uint32_t stream_id = 0;
  uint32_t event_id = 0;
  int64_t op_index = -1;
  absl::string_view node_name, op_type, engine, kernel_name;
  size_t n_in = 0, n_out = 0, n_ws = 0;
};

TaskFields FieldsOf(const proto::TaskDef& t) {
  TaskFields f;
  f.type = t.type();
  f.stream_id = t.stream_id();
  f.event_id = t.event_id();
  f.op_index = t.op_index();
  f.node_name = t.node_name();
  f.op_type = t.op_type();
  f.engine = t.engine();
  f.kernel_name = t.kernel_name();
  f.n_in = static_cast<size_t>(t.input_size());
  f.n_out = static_cast<size_t>(t.output_size());
  f.n_ws = static_cast<size_t>(t.workspace_size());
  return f;
}

TaskFields FieldsOf(const LaunchPlanView& plan, const LaunchPlanView::Task& t) {
  TaskFields f;
  f.type = t.type;
  f.stream_id = t.stream_id;
  f.event_id = t.event_id;
  f.op_index = t.op_index;
  f.node_name = t.name;
  f.op_type = plan.kind_op_type(t.kind);
  f.engine = plan.kind_engine(t.kind);
  f.kernel_name = plan.kind_kernel_name(t.kind);
  f.n_in = t.inputs.size();
  f.n_out = t.outputs.size();
  f.n_ws = t.workspaces.size();
  return f;
}

// One TensorRef's fields, from a TaskDef or a launch plan.
struct RefFields {
  proto::MemKind kind = proto::MEM_ABSENT;
  int32_t data_type = 0;
  uint32_t index = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
  absl::Span<const int64_t> dims;
};

RefFields FieldsOf(const proto::TensorRef& r) {
  return RefFields{
      r.kind(),  r.data_type(),
      r.index(), r.offset(),
      r.size(),  absl::MakeConstSpan(r.dims().data(), static_cast<size_t>(r.dims_size()))};
}

RefFields FieldsOf(const LaunchPlanView& plan, uint32_t id) {
  const LaunchPlanView::Tensor t = plan.tensor(id);
  return RefFields{t.kind,   t.data_type, static_cast<uint32_t>(t.index),
                   t.offset, t.size,      plan.shape(t.shape)};
}

std::string TaskHead(const TaskFields& t, size_t pos) {
  return absl::StrCat("task ", pos, " (", proto::TaskType_Name(t.type), ", node '", t.node_name,
                      "' ", t.op_type, "): ");
}

// a + b <= limit without overflow.
bool FitsIn(uint64_t offset, uint64_t size, uint64_t limit) {
  return offset <= limit && size <= limit - offset;
}

uint64_t PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);  // NOLINT(runtime/int)
  const long page = sysconf(_SC_PAGESIZE);     // NOLINT(runtime/int)
  if (pages <= 0 || page <= 0) return uint64_t{1} << 34;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
}

// Identity of an input ref: equal keys give identical (read-only) views, so
// tasks reading the same tensor share one view (and one patch).
struct InputRefKey {
  int kind;
  int32_t data_type;
  uint32_t index;
  uint64_t offset;
  uint64_t size;
  absl::Span<const int64_t> dims;  // into the TaskDef

  explicit InputRefKey(const RefFields& ref)
      : kind(static_cast<int>(ref.kind)),
        data_type(ref.data_type),
        index(ref.index),
        offset(ref.offset),
        size(ref.size),
        dims(ref.dims) {}
  bool operator==(const InputRefKey& o) const {
    return kind == o.kind && data_type == o.data_type && index == o.index && offset == o.offset &&
           size == o.size && dims == o.dims;
  }
  template <typename H>
  friend H AbslHashValue(H h, const InputRefKey& k) {
    return H::combine(std::move(h), k.kind, k.data_type, k.index, k.offset, k.size, k.dims);
  }
};

}  // namespace

namespace {

// Per distinct kernel key: the registration, and the IR mapping of the last
// op seen with it (ops of one type mostly have the same input names).
struct RegEntry {
  const OpRegistrationData* reg = nullptr;
  // The last successful MapInputSlotsToIr of this registration: the op's
  // input names (views into a live op desc) and slot count it was made for.
  bool has_ir = false;
  size_t ir_slots = 0;
  std::vector<absl::string_view> ir_names;
  const OpDesc* ir_op = nullptr;  // the op it was made for (plan ops are shared)
  // Its tasks' last IR instances in the executor's ir_ array.
  bool has_slice = false;
  uint32_t slice_begin = 0, slice_count = 0;
  // The kernel of the last engine looked up (tasks of a key mostly share it).
  std::string kernel_engine;
  const OpKernelDef* kernel = nullptr;
  std::vector<gert::IrInstance> ir;
};

// True when `op` has exactly the input names `names` (in index order).
bool SameInputNames(const OpDesc& op, const std::vector<absl::string_view>& names) {
  if (op.GetAllInputsSize() != names.size()) return false;
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string* n = op.GetInputNamePtr(static_cast<uint32_t>(i));
    if (n == nullptr || *n != names[i]) return false;
  }
  return true;
}

}  // namespace

namespace {

// Per plan op: its last kernel task's kind, kernel, IR slice and verify /
// infer verdict (an InferVerdictCache index), and the inputs it was for.
// No PlanEntry yet.
constexpr uint32_t kNoPlanEntry = 0xFFFFFFFFu;

struct PlanVerdictMemo {
  uint32_t plan_entry = kNoPlanEntry;  // the op's last PlanEntry
  int32_t entry = -1;
  uint32_t kind = 0;  // the task's kind id (registration and kernel)
  size_t n_in = 0;
  const KernelDef* def = nullptr;
  uint32_t ir_begin = 0;
  uint16_t ir_count = 0;
  bool valued = false;  // the verdict read input values: weight locations are keyed
  std::vector<uint64_t> sig;
};

// A plan task's inputs as plan ids: per input its presence, data type and
// shape id (equal ids: equal dims), and with `valued` where a weight lies.
void PlanSignature(const LaunchPlanView& plan, const LaunchPlanView::Task& t, bool valued,
                   std::vector<uint64_t>* sig) {
  sig->clear();
  for (size_t s = 0; s < t.inputs.size(); ++s) {
    const LaunchPlanView::Tensor x = plan.tensor(t.inputs[s]);
    if (x.kind == proto::MEM_ABSENT) {
      sig->push_back(~uint64_t{0});
      continue;
    }
    sig->push_back(static_cast<uint64_t>(static_cast<uint32_t>(x.data_type)) << 32 | x.shape);
    if (valued) {
      const bool weight = x.kind == proto::MEM_WEIGHTS;
      sig->push_back(weight ? x.offset : ~uint64_t{0});
      sig->push_back(weight ? x.size : 0);
    }
  }
}

}  // namespace

// Inputs, outputs and workspaces of one task (Task's counts are 16 bits).
constexpr size_t kMaxTaskRefs = std::numeric_limits<uint16_t>::max();
// The one kernel that rebinds an output view (ops/internal/rts_ops.cc).
constexpr absl::string_view kRebindingKernel = "Switch";

gert::Tensor* StaticExecutor::NewView() {
  if (view_chunks_.empty() || views_in_last_chunk_ == kViewChunk) {
    // A view is ~240 bytes (gert::Shape holds 25 dims inline): a chunk is
    // 15 pages, populated in one call before the constructors touch them
    // (the 100k-node ladder's views were 58% of its load's page faults).
    void* raw = ::operator new(sizeof(gert::Tensor) * kViewChunk);
    PrefaultForWrite(raw, sizeof(gert::Tensor) * kViewChunk);
    gert::Tensor* chunk = static_cast<gert::Tensor*>(raw);
    std::uninitialized_default_construct_n(chunk, kViewChunk);
    std::unique_ptr<gert::Tensor, ViewChunkDeleter> owned(chunk);
    view_chunks_.push_back(std::move(owned));
    views_in_last_chunk_ = 0;
  }
  return view_chunks_.back().get() + views_in_last_chunk_++;
}

const proto::TaskDef* StaticExecutor::TaskDefAt(size_t i, proto::TaskDef* scratch) const {
  if (parts_.task_bytes.empty()) return &td_->task(static_cast<int>(i));
  const absl::Span<const uint8_t> b = parts_.task_bytes[i];
  if (b.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !scratch->ParseFromArray(b.data(), static_cast<int>(b.size()))) {
    return nullptr;
  }
  return scratch;
}

std::string StaticExecutor::TaskHeadAt(size_t i) const {
  if (parts_.plan != nullptr) return TaskHead(FieldsOf(*parts_.plan, parts_.plan->task(i)), i);
  proto::TaskDef scratch;
  const proto::TaskDef* def = TaskDefAt(i, &scratch);
  return def != nullptr ? TaskHead(FieldsOf(*def), i) : absl::StrCat("task ", i, ": ");
}

// One Prepare: the validated task walk that builds the run-time records. The
// walk's lookups (ops by id, registrations, views by ref, verify / infer
// verdicts) and the scratch reused by every task live here, one method per
// step of a task; the records go to the executor. The steps every task
// takes are forced inline into the walk (as calls they made the 100k-task
// ladder's load ~25% slower); the rare ones (a new view, registration,
// IR mapping or verdict) stay out of line.
class StaticExecutor::Preparer {
 public:
  explicit Preparer(StaticExecutor& exec)
      : x_(exec), td_(*exec.td_), w_(*exec.parts_.weights), plan_(exec.parts_.plan) {}

  Status Run(const StaticExecutorOptions& options);

 private:
  // The task being prepared: its fields, and its plan entry or TaskDef.
  struct Cursor {
    size_t pos = 0;
    TaskFields f;
    LaunchPlanView::Task ptask;
    const proto::TaskDef* def = nullptr;
  };
  // Op lookup by OpDesc id; a null op with `shared` set marks an id used by
  // several ops.
  struct IdEntry {
    const OpDesc* op = nullptr;
    bool shared = false;
  };
  // Per plan tensor id: the kind of the ref its view was made for,
  // MEM_ABSENT for an absent one, kKindUnknown before its first use.
  static constexpr uint8_t kKindUnknown = 0xFF;

  Status CheckIoAndMapArena(const StaticExecutorOptions& options);
  // After the tasks: re-planned workspaces allocated, engines looked up.
  Status FinishEngines(const StaticExecutorOptions& options);
  void IndexOps();
  const IdEntry* FindId(int64_t id) const;
  ABSL_ATTRIBUTE_ALWAYS_INLINE Status PrepareTask(size_t pos);

  // Message prefixes are built only on failure (no per-task strings).
  static std::string Head(const Cursor& c) { return TaskHead(c.f, c.pos); }
  // Role 0: input, 1: output, 2: workspace.
  ABSL_ATTRIBUTE_ALWAYS_INLINE RefFields RefAt(const Cursor& c, int role, size_t i) const;
  StatusOr<gert::Tensor*> MakeView(const Cursor& c, const RefFields& ref, const char* role,
                                   size_t i, bool writable);
  StatusOr<gert::Tensor*> SlotView(const Cursor& c, int role, size_t i, const RefFields& ref,
                                   bool own);
  ABSL_ATTRIBUTE_ALWAYS_INLINE Status BindInputs(const Cursor& c, Task& task);
  ABSL_ATTRIBUTE_ALWAYS_INLINE Status BindOutputs(const Cursor& c, Task& task,
                                                  bool rebinds_outputs);
  ABSL_ATTRIBUTE_ALWAYS_INLINE Status BindWorkspaces(const Cursor& c, Task& task);
  // Checks a non-kernel task; false for a kernel task (checked by the rest).
  ABSL_ATTRIBUTE_ALWAYS_INLINE StatusOr<bool> CheckOtherTask(const Cursor& c, Task& task);

  ABSL_ATTRIBUTE_ALWAYS_INLINE StatusOr<const OpDesc*> FindOp(const Cursor& c) const;
  StatusOr<RegEntry*> Registration(const Cursor& c, absl::string_view kernel_key);
  Status SetKernel(const Cursor& c, absl::string_view kernel_key, RegEntry& re, Task& task);
  // The IR mapping of the task's input slots (in s_ir_), their data types
  // checked, and the task's slice of ir_.
  Status MapInputs(const Cursor& c, RegEntry& re, const OpDesc& op, Task& task);
  // The verify / infer verdict of the task's inputs: an InferVerdictCache
  // index (-1 when the cache is full; `shapes` / `dtypes` then point into
  // the scratch).
  StatusOr<int32_t> InferOutputs(const Cursor& c, const OpRegistrationData& reg, const OpDesc& op,
                                 const Task& task, const gert::Shape** shapes,
                                 const DataType** dtypes);
  ABSL_ATTRIBUTE_ALWAYS_INLINE void Remember(const Cursor& c, int32_t verdict, const Task& task);
  ABSL_ATTRIBUTE_ALWAYS_INLINE Status CheckOutputs(const Cursor& c, const Task& task,
                                                   const gert::Shape* inferred_shapes,
                                                   const DataType* inferred_dtypes) const;
  // A plain kernel task of a plan leaves no record: a PlanEntry names it.
  ABSL_ATTRIBUTE_ALWAYS_INLINE void ToPlanEntry(const Cursor& c, Task& task);
  // A stateful kernel (cur_def_) for the task: created, prepared with the
  // node's static facts, its workspaces checked against the plan.
  Status PrepareStatefulKernel(const Cursor& c, const OpDesc& op, Task& task);

  StaticExecutor& x_;
  const proto::ModelTaskDef& td_;
  const WeightBuffer& w_;
  const LaunchPlanView* const plan_;

  // Root graph ops by id: ids are the node positions in a built model, so a
  // dense table; other ids (hand-made graphs) go to a map.
  std::vector<IdEntry> dense_;
  absl::flat_hash_map<int64_t, IdEntry> sparse_;

  proto::TaskDef scratch_def_;           // the current task when the tasks are bytes
  std::deque<std::string> kernel_keys_;  // stable keys of `regs_`
  // One registry lookup per distinct kernel key; consecutive tasks mostly
  // share theirs.
  OpRegistry* registry_ = nullptr;
  absl::flat_hash_map<absl::string_view, RegEntry> regs_;
  absl::string_view last_key_;
  RegEntry* last_reg_ = nullptr;

  // Views shared by equal refs: inputs among inputs (read-only to kernels),
  // outputs among outputs (kernels write the data, never rebind the view).
  absl::flat_hash_map<InputRefKey, gert::Tensor*> shared_inputs_;
  absl::flat_hash_map<InputRefKey, gert::Tensor*> shared_outputs_;
  // Plan: per op id, its last task's PlanEntry, kind, kernel, IR slice and
  // verdict (tasks of one op mostly share them); per tensor id, its kind.
  std::vector<PlanVerdictMemo> memos_;
  std::vector<uint8_t> plan_kinds_;

  // Scratch reused by every task (no per-task allocation once it has grown
  // to the widest task).
  InferVerdictCache verdicts_;
  std::vector<const gert::Shape*> s_in_shapes_;
  std::vector<DataType> s_in_dtypes_;
  std::vector<const gert::Tensor*> s_in_values_;
  std::vector<gert::Shape> s_out_shapes_;
  std::vector<DataType> s_out_dtypes_;
  std::vector<DataType> s_out_dtypes_initial_;
  std::vector<gert::Shape*> s_out_shape_ptrs_;
  std::vector<DataType*> s_out_dtype_ptrs_;
  std::vector<gert::IrInstance> s_ir_;
  std::vector<uint64_t> s_sig_;
  std::vector<proto::MemKind> s_in_kinds_;
  std::vector<InferVerdictCache::WeightLoc> s_in_weights_;
  std::vector<InferVerdictCache::WeightLoc> s_no_weights_;
  gert::Shape unknown_rank_;
  // The kernel definition of the task being prepared.
  const KernelDef* cur_def_ = nullptr;
  // Prepare's view of a task's tensors (weights with data, others without).
  std::vector<gert::Tensor> s_facts_;
  std::vector<const gert::Tensor*> s_fact_ptrs_;
};

Status StaticExecutor::Prepare(const StaticExecutorOptions& options) {
  Preparer preparer(*this);
  return preparer.Run(options);
}

Status StaticExecutor::Preparer::Run(const StaticExecutorOptions& options) {
  RETURN_IF_ERROR(CheckIoAndMapArena(options));
  IndexOps();
  // The flat arrays grow with the task list (the contexts' spans are wired
  // once they are final; views live in chunks that never move).
  const size_t n_tasks = plan_ != nullptr               ? plan_->num_tasks()
                         : x_.parts_.task_bytes.empty() ? static_cast<size_t>(td_.task_size())
                                                        : x_.parts_.task_bytes.size();
  if (n_tasks > std::numeric_limits<uint32_t>::max() / 8) {
    return OutOfRange("the task list has ", n_tasks, " tasks (limit ",
                      std::numeric_limits<uint32_t>::max() / 8, ")");
  }
  if (plan_ == nullptr) {
    x_.tasks_.reserve(n_tasks);
    x_.slots_.reserve(n_tasks * 3);
  } else {
    ReservePrefaulted(&x_.plan_code_, n_tasks);
    x_.plan_code_.resize(n_tasks);
    // Plan: one view per tensor id, for inputs and outputs alike (a tensor
    // id is one tensor; kernels write through output views and never rebind
    // them, so a reader can share the writer's view).
    x_.plan_views_.assign(plan_->num_tensors(), nullptr);
    memos_.resize(plan_->num_ops());
    plan_kinds_.assign(plan_->num_tensors(), kKindUnknown);
  }
  registry_ = &OpRegistry::Instance();
  unknown_rank_.AppendDim(UNKNOWN_RANK);
  // oneDNN sizes a primitive's work split by the thread count at creation:
  // the compute engine's threads are set before any kernel is prepared.
  x_.run_config_.intra_op_threads = options.intra_op_threads;
  ASSIGN_OR_RETURN(Engine * compute, FindEngine(kEngineAiCore));
  compute->BeginRun(x_.run_config_);
  for (size_t pos = 0; pos < n_tasks; ++pos) RETURN_IF_ERROR(PrepareTask(pos));
  return FinishEngines(options);
}

Status StaticExecutor::Preparer::FinishEngines(const StaticExecutorOptions& options) {
  // Re-planned workspaces: one buffer per index, shared by the tasks that
  // asked more than planned.
  for (uint64_t bytes : x_.overflow_bytes_) {
    void* p = bytes == 0 ? nullptr : std::aligned_alloc(64, (bytes + 63) / 64 * 64);
    if (bytes != 0 && p == nullptr) {
      return MemoryAllocFailed("cannot allocate a re-planned workspace of ", bytes, " bytes");
    }
    x_.overflow_buffers_.emplace_back(p);
  }
  for (const OverflowUse& u : x_.overflow_uses_) {
    x_.workspaces_[u.slot] = x_.overflow_buffers_[u.index].get();
  }
  x_.run_config_.intra_op_threads = options.intra_op_threads;
  for (const std::string& name : x_.engines_used_) {
    ASSIGN_OR_RETURN(Engine * e, FindEngine(name));
    x_.engines_.push_back(e);
    // Set up the engine's threads now, so the first Run starts none.
    e->BeginRun(x_.run_config_);
  }
  return OkStatus();
}

Status StaticExecutor::Preparer::CheckIoAndMapArena(const StaticExecutorOptions& options) {
  for (int i = 0; i < td_.input_size(); ++i) {
    RETURN_IF_ERROR(CheckIoDef(td_.input(i), "input", static_cast<size_t>(i), false));
  }
  for (int i = 0; i < td_.output_size(); ++i) {
    RETURN_IF_ERROR(CheckIoDef(td_.output(i), "output", static_cast<size_t>(i), false));
  }
  const uint64_t limit =
      options.max_arena_bytes != 0 ? options.max_arena_bytes : PhysicalMemoryBytes();
  if (td_.memory_size() > limit) {
    return MemoryAllocFailed("memory_size ", td_.memory_size(), " bytes exceeds the limit of ",
                             limit, " bytes");
  }
  x_.arena_size_ = td_.memory_size();
  if (x_.arena_size_ > 0) {
    const uint64_t rounded = (x_.arena_size_ + kMemAlign - 1) / kMemAlign * kMemAlign;
    // Zero pages from the kernel: no memset, and pages are faulted in by the
    // first Run instead of at load (page aligned, so kMemAlign aligned).
    void* p = ::mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      return MemoryAllocFailed("cannot allocate the arena of ", x_.arena_size_, " bytes");
    }
    x_.arena_ = static_cast<uint8_t*>(p);
    x_.arena_mapped_bytes_ = rounded;
  }
  return OkStatus();
}

void StaticExecutor::Preparer::IndexOps() {
  const std::vector<const OpDesc*>& graph_ops = x_.parts_.ops;
  dense_.resize(graph_ops.size());
  for (const OpDesc* op : graph_ops) {
    if (op == nullptr) continue;
    const int64_t id = op->GetId();
    IdEntry& e = id >= 0 && static_cast<uint64_t>(id) < dense_.size()
                     ? dense_[static_cast<size_t>(id)]
                     : sparse_[id];
    if (e.op != nullptr) e.shared = true;
    e.op = op;
  }
}

const StaticExecutor::Preparer::IdEntry* StaticExecutor::Preparer::FindId(int64_t id) const {
  if (id >= 0 && static_cast<uint64_t>(id) < dense_.size()) {
    const IdEntry& e = dense_[static_cast<size_t>(id)];
    return e.op == nullptr ? nullptr : &e;
  }
  auto it = sparse_.find(id);
  return it == sparse_.end() ? nullptr : &it->second;
}

inline Status StaticExecutor::Preparer::PrepareTask(size_t pos) {
  Cursor c;
  c.pos = pos;
  if (plan_ != nullptr) {
    c.ptask = plan_->task(pos);
    c.f = FieldsOf(*plan_, c.ptask);
  } else {
    c.def = x_.TaskDefAt(pos, &scratch_def_);
    if (c.def == nullptr) return ParseFailed("task ", pos, ": not a valid TaskDef");
    c.f = FieldsOf(*c.def);
  }
  const TaskFields& f = c.f;
  if (x_.slots_.size() + f.n_in + f.n_out > std::numeric_limits<uint32_t>::max() ||
      x_.workspaces_.size() + f.n_ws > std::numeric_limits<uint32_t>::max()) {
    return OutOfRange("the task list has more than ", std::numeric_limits<uint32_t>::max(),
                      " tensor refs or workspaces");
  }
  if (f.n_in > kMaxTaskRefs || f.n_out > kMaxTaskRefs || f.n_ws > kMaxTaskRefs) {
    return OutOfRange(TaskHead(f, pos), f.n_in, " inputs, ", f.n_out, " outputs and ", f.n_ws,
                      " workspaces: a task has at most ", kMaxTaskRefs, " of each");
  }
  // `task` stays valid until the next emplace (or ToPlanEntry's pop).
  Task& task = x_.tasks_.emplace_back();
  task.type = f.type;
  if (plan_ != nullptr) {
    x_.plan_code_[pos] = kPlanRecord | static_cast<uint32_t>(x_.tasks_.size() - 1);
  }
  if (f.stream_id != 0 && f.stream_id >= td_.stream_num()) {
    return OutOfRange(Head(c), "stream_id ", f.stream_id, " >= stream_num ", td_.stream_num());
  }
  RETURN_IF_ERROR(BindInputs(c, task));
  const absl::string_view kernel_key = f.kernel_name.empty() ? f.op_type : f.kernel_name;
  // Switch's kernel rebinds its dead output (SetData(nullptr, 0)): its
  // outputs get views of their own.
  const bool rebinds_outputs = kernel_key == kRebindingKernel;
  RETURN_IF_ERROR(BindOutputs(c, task, rebinds_outputs));
  RETURN_IF_ERROR(BindWorkspaces(c, task));
  ASSIGN_OR_RETURN(const bool other, CheckOtherTask(c, task));
  if (other) return OkStatus();

  // TASK_KERNEL: the op, the registration, the kernel.
  ASSIGN_OR_RETURN(const OpDesc* op_ptr, FindOp(c));
  const OpDesc& op = *op_ptr;
  // Infer functions and kernels write every output their op declares.
  if (task.out_count != op.GetAllOutputsDescSize()) {
    return ParamInvalid(Head(c), task.out_count, " outputs, but op '", op.GetName(), "' (",
                        op.GetType(), ") has ", op.GetAllOutputsDescSize());
  }
  const gert::Shape* inferred_shapes = nullptr;
  const DataType* inferred_dtypes = nullptr;
  // Plan: a task of the op's last kind whose inputs match that task's (the
  // op fixes names, attributes and initial output types; the kind fixes the
  // registration and kernel; presence, data types and shape ids, and for a
  // verdict that read values the weight locations, fix the IR mapping, the
  // type checks and the verify / infer verdict) takes that task's kernel,
  // IR slice and verdict. Its declared outputs are still checked below.
  PlanVerdictMemo* memo = plan_ != nullptr ? &memos_[c.ptask.op] : nullptr;
  bool same_as_last = false;
  if (memo != nullptr && memo->entry >= 0 && memo->kind == c.ptask.kind && memo->n_in == f.n_in) {
    PlanSignature(*plan_, c.ptask, memo->valued, &s_sig_);
    same_as_last = s_sig_ == memo->sig;
  }
  if (same_as_last) {
    cur_def_ = memo->def;
    task.kernel = cur_def_->shared_kernel();
    task.ir_begin = memo->ir_begin;
    task.ir_count = memo->ir_count;
    inferred_shapes = verdicts_.at(memo->entry).out_shapes.data();
    inferred_dtypes = verdicts_.at(memo->entry).out_dtypes.data();
  } else {
    ASSIGN_OR_RETURN(RegEntry * re, Registration(c, kernel_key));
    RETURN_IF_ERROR(SetKernel(c, kernel_key, *re, task));
    RETURN_IF_ERROR(MapInputs(c, *re, op, task));
    ASSIGN_OR_RETURN(const int32_t verdict,
                     InferOutputs(c, *re->reg, op, task, &inferred_shapes, &inferred_dtypes));
    if (memo != nullptr && verdict >= 0) Remember(c, verdict, task);
  }
  RETURN_IF_ERROR(CheckOutputs(c, task, inferred_shapes, inferred_dtypes));

  // What the kernel context is made of at run time.
  task.op = &op;
  ++x_.kernel_tasks_;
  if (!cur_def_->stateless()) {
    // This node's own kernel, prepared now; it keeps its record (its
    // workspaces may be re-planned).
    RETURN_IF_ERROR(PrepareStatefulKernel(c, op, task));
    return OkStatus();
  }
  if (plan_ != nullptr && !rebinds_outputs) ToPlanEntry(c, task);
  return OkStatus();
}

inline RefFields StaticExecutor::Preparer::RefAt(const Cursor& c, int role, size_t i) const {
  if (plan_ != nullptr) {
    const LaunchPlanView::Ids& ids = role == 0   ? c.ptask.inputs
                                     : role == 1 ? c.ptask.outputs
                                                 : c.ptask.workspaces;
    return FieldsOf(*plan_, ids[i]);
  }
  const int k = static_cast<int>(i);
  return FieldsOf(role == 0 ? c.def->input(k) : role == 1 ? c.def->output(k) : c.def->workspace(k));
}

// A view of `ref` (kind MEM_ABSENT excluded), appended to the views.
StatusOr<gert::Tensor*> StaticExecutor::Preparer::MakeView(const Cursor& c, const RefFields& ref,
                                                           const char* role, size_t i,
                                                           bool writable) {
  auto where = [&]() {
    return absl::StrCat(Head(c), role, " ", i, " (", KindName(ref.kind), "): ");
  };
  if (!proto::MemKind_IsValid(ref.kind)) {
    return ParamInvalid(where(), "invalid memory kind ", static_cast<int>(ref.kind));
  }
  if (!TypeUtils::IsDataTypeValid(ref.data_type)) {
    return ParamInvalid(where(), "invalid data type ", ref.data_type);
  }
  const DataType dt = static_cast<DataType>(ref.data_type);
  if (dt == DT_UNDEFINED || dt == DT_STRING || dt == DT_VARIANT || dt == DT_RESOURCE ||
      dt == DT_STRING_REF) {
    return NotSupported(where(), "data type ", DtName(dt), " cannot live in a static model");
  }
  if (ref.dims.size() > gert::kMaxDimNum) {
    return ParamInvalid(where(), ref.dims.size(), " dims exceed the limit of ", gert::kMaxDimNum);
  }
  gert::Shape shape;
  for (int64_t d : ref.dims) shape.AppendDim(d);
  if (shape.IsUnknownShape()) {
    return ParamInvalid(where(), "dims ", shape.ToString(), " are not static");
  }
  const int64_t count = shape.GetShapeSize();
  if (count < 0) return Overflow(where(), "element count of ", shape.ToString(), " overflows");
  StatusOr<size_t> need = gert::HostStorageBytes(dt, count);
  if (!need.ok()) return Annotate(need.status(), where());
  if (ref.size < *need) {
    return ParamInvalid(where(), "size ", ref.size, " is smaller than the ", *need, " bytes of ",
                        shape.ToString(), " ", DtName(dt));
  }
  void* data = nullptr;
  bool patch = false;
  switch (ref.kind) {
    case proto::MEM_ARENA:
      if (!FitsIn(ref.offset, ref.size, x_.arena_size_)) {
        return OutOfRange(where(), "[", ref.offset, ", +", ref.size, ") exceeds memory_size ",
                          x_.arena_size_);
      }
      if (ref.offset % kMemAlign != 0) {
        return ParamInvalid(where(), "offset ", ref.offset, " is not ", kMemAlign, "-byte aligned");
      }
      data = x_.arena_ == nullptr ? nullptr : x_.arena_ + ref.offset;
      break;
    case proto::MEM_WEIGHTS:
      if (writable) return ParamInvalid(where(), "weights are read-only");
      if (!FitsIn(ref.offset, ref.size, w_.size)) {
        return OutOfRange(where(), "[", ref.offset, ", +", ref.size, ") exceeds the weights (",
                          w_.size, " bytes)");
      }
      if (ref.size > 0) {
        // A fresh build's weights are pieces (the constants in place); a
        // ref across pieces or into a zero gap reads a contiguous copy.
        WeightBuffer& copy = x_.weights_copy_;
        const uint8_t* p = copy.data != nullptr ? nullptr : w_.Find(ref.offset, ref.size);
        if (p == nullptr) {
          if (copy.data == nullptr) {
            copy = MakeContiguousWeights(w_);
            if (copy.data == nullptr || copy.size != w_.size) {
              return MemoryAllocFailed(where(), "cannot copy the ", w_.size, " weight bytes");
            }
          }
          p = copy.data + ref.offset;
        }
        // Kernels read weights as their element type: a misaligned ref
        // would make every such read undefined behaviour.
        const size_t elem = *need / static_cast<size_t>(count == 0 ? 1 : count);
        size_t align = 1;
        while (align < elem && align < 16 && elem % (align * 2) == 0) align *= 2;
        if (reinterpret_cast<uintptr_t>(p) % align != 0) {
          return ParamInvalid(where(), "offset ", ref.offset, " is not aligned to its ", align,
                              "-byte ", DtName(dt), " elements");
        }
        data = const_cast<uint8_t*>(p);
      }
      break;
    case proto::MEM_MODEL_INPUT:
    case proto::MEM_MODEL_OUTPUT: {
      const bool out = ref.kind == proto::MEM_MODEL_OUTPUT;
      if (!out && writable) return ParamInvalid(where(), "model inputs are read-only");
      const int n = out ? td_.output_size() : td_.input_size();
      if (ref.index >= static_cast<uint32_t>(n)) {
        return OutOfRange(where(), "index ", ref.index, " but the model has ", n,
                          out ? " outputs" : " inputs");
      }
      const proto::ModelIoDef& io =
          out ? td_.output(static_cast<int>(ref.index)) : td_.input(static_cast<int>(ref.index));
      if (!FitsIn(ref.offset, ref.size, io.size())) {
        return OutOfRange(where(), "[", ref.offset, ", +", ref.size, ") exceeds the ", io.size(),
                          " bytes of model ", out ? "output " : "input ", ref.index);
      }
      patch = true;
      break;
    }
    default:
      return ParamInvalid(where(), "invalid memory kind ", static_cast<int>(ref.kind));
  }
  gert::Tensor* view = x_.NewView();
  view->SetShape(shape);
  view->SetDataType(dt);
  view->SetData(data, static_cast<size_t>(ref.size));
  if (patch) {
    Patch p;
    p.tensor = view;
    p.is_output = ref.kind == proto::MEM_MODEL_OUTPUT;
    p.index = ref.index;
    p.offset = ref.offset;
    p.size = ref.size;
    x_.patches_.push_back(p);
  }
  return view;
}

// The view of slot i of `role` (its ref `ref`; null for MEM_ABSENT), shared
// by equal refs unless `own`: by tensor id in a plan, else through a map
// whose keys' dims point into the view's own shape (the TaskDef may be a
// reused message).
StatusOr<gert::Tensor*> StaticExecutor::Preparer::SlotView(const Cursor& c, int role, size_t i,
                                                           const RefFields& ref, bool own) {
  // An unconnected optional input / an unused optional output.
  if (ref.kind == proto::MEM_ABSENT) return static_cast<gert::Tensor*>(nullptr);
  const bool writable = role != 0;
  const char* role_name = role == 0 ? "input" : "output";
  if (own) return MakeView(c, ref, role_name, i, writable);
  if (plan_ != nullptr) {
    const uint32_t id = (role == 0 ? c.ptask.inputs : c.ptask.outputs)[i];
    gert::Tensor*& view = x_.plan_views_[id];
    // A view made for a reader passed every check but the read-only ones: a
    // writer of a read-only kind gets MakeView's error.
    if (view == nullptr ||
        (writable && (ref.kind == proto::MEM_WEIGHTS || ref.kind == proto::MEM_MODEL_INPUT))) {
      ASSIGN_OR_RETURN(view, MakeView(c, ref, role_name, i, writable));
    }
    return view;
  }
  absl::flat_hash_map<InputRefKey, gert::Tensor*>& map =
      role == 0 ? shared_inputs_ : shared_outputs_;
  const InputRefKey probe(ref);
  auto it = map.find(probe);
  if (it != map.end()) return it->second;
  ASSIGN_OR_RETURN(gert::Tensor * view, MakeView(c, ref, role_name, i, writable));
  InputRefKey stable = probe;
  stable.dims = view->GetShape().GetDims();
  map.emplace(stable, view);
  return view;
}

inline Status StaticExecutor::Preparer::BindInputs(const Cursor& c, Task& task) {
  const size_t n_in = c.f.n_in;
  task.in_begin = static_cast<uint32_t>(x_.slots_.size());
  task.in_count = static_cast<uint16_t>(n_in);
  s_in_kinds_.resize(n_in);
  s_in_weights_.assign(n_in, InferVerdictCache::WeightLoc());
  for (size_t i = 0; i < n_in; ++i) {
    if (plan_ != nullptr) {
      // A tensor id seen before: its view (or absence) and kind are known.
      const uint32_t id = c.ptask.inputs[i];
      const uint8_t kind = plan_kinds_[id];
      if (kind != kKindUnknown) {
        s_in_kinds_[i] = static_cast<proto::MemKind>(kind);
        if (kind == proto::MEM_WEIGHTS) {
          const LaunchPlanView::Tensor t = plan_->tensor(id);
          s_in_weights_[i] = {t.offset, t.size};
        }
        x_.slots_.push_back(x_.plan_views_[id]);
        continue;
      }
    }
    const RefFields ref = RefAt(c, 0, i);
    ASSIGN_OR_RETURN(gert::Tensor * view, SlotView(c, 0, i, ref, false));
    s_in_kinds_[i] = view == nullptr ? proto::MEM_ABSENT : ref.kind;
    if (s_in_kinds_[i] == proto::MEM_WEIGHTS) s_in_weights_[i] = {ref.offset, ref.size};
    if (plan_ != nullptr) plan_kinds_[c.ptask.inputs[i]] = static_cast<uint8_t>(s_in_kinds_[i]);
    x_.slots_.push_back(view);
  }
  return OkStatus();
}

inline Status StaticExecutor::Preparer::BindOutputs(const Cursor& c, Task& task,
                                                    bool rebinds_outputs) {
  task.out_count = static_cast<uint16_t>(c.f.n_out);
  // Equal refs passed every check of MakeView but the read-only ones, which
  // depend on the kind alone (always writable here).
  for (size_t i = 0; i < c.f.n_out; ++i) {
    if (plan_ != nullptr && !rebinds_outputs) {
      // Known and writable (a read-only kind gets MakeView's error).
      const uint32_t id = c.ptask.outputs[i];
      const uint8_t kind = plan_kinds_[id];
      if (kind != kKindUnknown && kind != proto::MEM_WEIGHTS && kind != proto::MEM_MODEL_INPUT) {
        x_.slots_.push_back(x_.plan_views_[id]);
        continue;
      }
    }
    const RefFields ref = RefAt(c, 1, i);
    ASSIGN_OR_RETURN(gert::Tensor * view, SlotView(c, 1, i, ref, rebinds_outputs));
    if (plan_ != nullptr && !rebinds_outputs) {
      plan_kinds_[c.ptask.outputs[i]] =
          static_cast<uint8_t>(view == nullptr ? proto::MEM_ABSENT : ref.kind);
    }
    x_.slots_.push_back(view);
  }
  return OkStatus();
}

inline Status StaticExecutor::Preparer::BindWorkspaces(const Cursor& c, Task& task) {
  task.ws_begin = static_cast<uint32_t>(x_.workspaces_.size());
  task.ws_count = static_cast<uint16_t>(c.f.n_ws);
  for (size_t i = 0; i < c.f.n_ws; ++i) {
    const RefFields ref = RefAt(c, 2, i);
    if (ref.kind != proto::MEM_ARENA || !FitsIn(ref.offset, ref.size, x_.arena_size_)) {
      return ParamInvalid(Head(c), "workspace ", i, " must be an ARENA ref within memory_size ",
                          x_.arena_size_);
    }
    x_.workspaces_.push_back(x_.arena_ == nullptr ? nullptr : x_.arena_ + ref.offset);
  }
  return OkStatus();
}

inline StatusOr<bool> StaticExecutor::Preparer::CheckOtherTask(const Cursor& c, Task& task) {
  const TaskFields& f = c.f;
  switch (f.type) {
    case proto::TASK_KERNEL:
      return false;
    case proto::TASK_MEMCPY: {
      if (f.n_in != 1 || f.n_out != 1 || x_.slots_[task.in_begin] == nullptr ||
          x_.slots_[task.in_begin + 1] == nullptr) {
        return ParamInvalid(Head(c), "a memcpy needs one input and one output, got ", f.n_in,
                            " and ", f.n_out);
      }
      const uint64_t in_size = RefAt(c, 0, 0).size;
      const uint64_t out_size = RefAt(c, 1, 0).size;
      if (out_size < in_size) {
        return ParamInvalid(Head(c), "output of ", out_size, " bytes cannot hold the input of ",
                            in_size);
      }
      task.copy_bytes = static_cast<size_t>(in_size);
      return true;
    }
    case proto::TASK_EVENT_RECORD:
    case proto::TASK_EVENT_WAIT:
      if (f.event_id >= td_.event_num()) {
        return OutOfRange(Head(c), "event_id ", f.event_id, " >= event_num ", td_.event_num());
      }
      return true;
    default:
      return NotSupported(Head(c), "task type ", static_cast<int>(f.type),
                          " is not supported by the static executor");
  }
}

inline StatusOr<const OpDesc*> StaticExecutor::Preparer::FindOp(const Cursor& c) const {
  const TaskFields& f = c.f;
  const OpDesc* op = nullptr;
  if (plan_ != nullptr) {
    const std::vector<const OpDesc*>& plan_ops = x_.parts_.plan_ops;
    if (c.ptask.op >= plan_ops.size() || plan_ops[c.ptask.op] == nullptr) {
      return NotFound(Head(c), "op ", c.ptask.op, " is not an op of the launch plan (",
                      plan_ops.size(), " ops)");
    }
    op = plan_ops[c.ptask.op];
  } else {
    const IdEntry* entry = FindId(f.op_index);
    if (entry == nullptr) {
      return NotFound(Head(c), "op_index ", f.op_index, " is not a node of graph '",
                      x_.parts_.graph_name, "'");
    }
    if (entry->shared) {
      return GraphInvalid(Head(c), "op_index ", f.op_index, " is shared by several nodes");
    }
    op = entry->op;
  }
  if (op->GetType() != f.op_type) {
    return GraphInvalid(Head(c), plan_ != nullptr ? "op " : "op_index ",
                        plan_ != nullptr ? static_cast<int64_t>(c.ptask.op) : f.op_index,
                        " is node '", op->GetName(), "' of type ", op->GetType(), ", not ",
                        f.op_type);
  }
  return op;
}

StatusOr<RegEntry*> StaticExecutor::Preparer::Registration(const Cursor& c,
                                                           absl::string_view kernel_key) {
  if (last_reg_ != nullptr && last_key_ == kernel_key) return last_reg_;
  auto it = regs_.find(kernel_key);
  if (it == regs_.end()) {
    it = regs_.try_emplace(kernel_keys_.emplace_back(kernel_key)).first;
    it->second.reg = registry_->Find(kernel_key);
    if (it->second.reg == nullptr) {
      StatusOr<const OpRegistrationData*> r = registry_->Get(kernel_key);
      return Annotate(r.ok() ? NotFound("op type ", kernel_key, " is not registered") : r.status(),
                      Head(c));
    }
  }
  last_key_ = it->first;
  last_reg_ = &it->second;
  return last_reg_;
}

Status StaticExecutor::Preparer::SetKernel(const Cursor& c, absl::string_view kernel_key,
                                           RegEntry& re, Task& task) {
  const absl::string_view engine = c.f.engine;
  const OpKernelDef* kernel = re.kernel;
  if (kernel == nullptr || re.kernel_engine != engine) {
    kernel = re.reg->FindKernel(engine);
    re.kernel = kernel;
    re.kernel_engine.assign(engine.data(), engine.size());
  }
  if (kernel == nullptr) {
    std::vector<std::string> engines;
    for (const KernelDef* k : KernelRegistry::Instance().FindAll(re.reg->type)) {
      engines.push_back(k->engine);
    }
    return NotSupported(Head(c), "op ", kernel_key, " has no kernel for engine '", engine,
                        "' (kernels: ", engines.empty() ? "none" : absl::StrJoin(engines, ", "),
                        ")");
  }
  cur_def_ = kernel;
  task.kernel = kernel->shared_kernel();
  if (x_.engines_used_.count(kernel->engine) == 0) x_.engines_used_.insert(kernel->engine);
  return OkStatus();
}

Status StaticExecutor::Preparer::MapInputs(const Cursor& c, RegEntry& re, const OpDesc& op,
                                           Task& task) {
  const OpRegistrationData* reg = re.reg;
  const gert::Tensor* const* ins = x_.slots_.data() + task.in_begin;
  // The mapping is reused while the op, or its input names, and the slot
  // count repeat.
  const size_t slots = task.in_count;
  if (!re.has_ir || re.ir_slots != slots || (re.ir_op != &op && !SameInputNames(op, re.ir_names))) {
    StatusOr<std::vector<gert::IrInstance>> mapped = MapInputSlotsToIr(op, *reg, slots);
    if (!mapped.ok()) return Annotate(mapped.status(), Head(c));
    re.ir = std::move(mapped).value();
    re.ir_slots = slots;
    re.ir_names.clear();
    for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
      const std::string* n = op.GetInputNamePtr(static_cast<uint32_t>(i));
      re.ir_names.push_back(n == nullptr ? absl::string_view() : absl::string_view(*n));
    }
    re.has_ir = true;
  }
  re.ir_op = &op;
  s_ir_.assign(re.ir.begin(), re.ir.end());
  std::vector<gert::IrInstance>& ir = s_ir_;
  for (size_t k = 0; k < reg->inputs.size(); ++k) {
    const OpIoDef& io = reg->inputs[k];
    if (io.kind == IoKind::kOptional && ir[k].count == 1 && ins[ir[k].start] == nullptr) {
      ir[k].count = 0;
    }
    for (size_t s = ir[k].start; s < ir[k].start + ir[k].count; ++s) {
      if (ins[s] != nullptr && io.types.Contains(ins[s]->GetDataType())) continue;
      const std::string in_name = absl::StrCat("input ", s, " ('", io.name, "')");
      if (ins[s] == nullptr) return GraphInvalid(Head(c), in_name, " is absent but required");
      if (Status st = io.types.Check(in_name, ins[s]->GetDataType()); !st.ok()) {
        return Annotate(st, Head(c));
      }
    }
  }
  // ir_ holds each registration's last mapping once (tasks of a kernel key
  // mostly map alike, whatever runs between them).
  std::vector<gert::IrInstance>& all_ir = x_.ir_;
  const bool same_ir = re.has_slice && re.slice_count == ir.size() &&
                       std::equal(ir.begin(), ir.end(), all_ir.begin() + re.slice_begin,
                                  [](const gert::IrInstance& a, const gert::IrInstance& b) {
                                    return a.start == b.start && a.count == b.count;
                                  });
  if (!same_ir) {
    re.slice_begin = static_cast<uint32_t>(all_ir.size());
    re.slice_count = static_cast<uint32_t>(ir.size());
    all_ir.insert(all_ir.end(), ir.begin(), ir.end());
    re.has_slice = true;
  }
  task.ir_begin = re.slice_begin;
  task.ir_count = static_cast<uint16_t>(re.slice_count);  // one per input slot
  return OkStatus();
}

// Verify / infer: the declared outputs are exactly what the op produces.
StatusOr<int32_t> StaticExecutor::Preparer::InferOutputs(const Cursor& c,
                                                         const OpRegistrationData& reg,
                                                         const OpDesc& op, const Task& task,
                                                         const gert::Shape** shapes,
                                                         const DataType** dtypes) {
  const gert::Tensor* const* ins = x_.slots_.data() + task.in_begin;
  const size_t slots = task.in_count;
  const size_t n_outs = task.out_count;
  const absl::Span<const gert::IrInstance> ir(s_ir_);
  s_in_shapes_.resize(slots);
  s_in_dtypes_.resize(slots);
  s_in_values_.resize(slots);
  for (size_t s = 0; s < slots; ++s) {
    const gert::Tensor* t = ins[s];
    s_in_shapes_[s] = t == nullptr ? nullptr : &t->GetShape();
    s_in_dtypes_[s] = t == nullptr ? DT_UNDEFINED : t->GetDataType();
    // Weight inputs' values are known (data-dependent shapes: Reshape, ...).
    s_in_values_[s] = t != nullptr && s_in_kinds_[s] == proto::MEM_WEIGHTS ? t : nullptr;
  }
  if (s_out_shapes_.size() < n_outs) {
    s_out_shapes_.resize(n_outs);
    s_out_dtypes_.resize(n_outs);
    s_out_dtypes_initial_.resize(n_outs);
    s_out_shape_ptrs_.resize(n_outs);
    s_out_dtype_ptrs_.resize(n_outs);
  }
  for (size_t i = 0; i < n_outs; ++i) {
    const GeTensorDesc* desc = op.GetOutputDescBarePtr(static_cast<uint32_t>(i));
    s_out_dtypes_initial_[i] = desc != nullptr ? desc->GetDataType() : DT_UNDEFINED;
  }
  const absl::Span<const gert::Shape* const> in_shapes(s_in_shapes_.data(), slots);
  const absl::Span<const DataType> in_dtypes(s_in_dtypes_.data(), slots);
  const absl::Span<const DataType> out_initial(s_out_dtypes_initial_.data(), n_outs);
  const AttrStore& attrs = op.GetAttrStore();
  // A verdict that did not read input values is keyed without them (no
  // weight locations); one that did, on where its weight inputs lie.
  using WeightLoc = InferVerdictCache::WeightLoc;
  s_no_weights_.assign(slots, WeightLoc());
  const absl::Span<const WeightLoc> no_weights(s_no_weights_.data(), slots);
  const absl::Span<const WeightLoc> in_weights(s_in_weights_.data(), slots);
  const bool has_weights =
      std::any_of(in_weights.begin(), in_weights.end(),
                  [](const WeightLoc& w) { return w.size != 0 || w.offset != ~uint64_t{0}; });
  auto hash_plain = [&]() {
    return InferVerdictCache::Hash(&reg, ir, in_shapes, in_dtypes, no_weights, out_initial,
                                   attrs.size());
  };
  int32_t cached =
      verdicts_.Find(hash_plain(), &reg, attrs, ir, in_shapes, in_dtypes, no_weights, out_initial);
  const uint64_t hash_valued = has_weights && cached < 0
                                   ? InferVerdictCache::Hash(&reg, ir, in_shapes, in_dtypes,
                                                             in_weights, out_initial, attrs.size())
                                   : 0;
  if (has_weights && cached < 0) {
    cached =
        verdicts_.Find(hash_valued, &reg, attrs, ir, in_shapes, in_dtypes, in_weights, out_initial);
  }
  if (cached >= 0) {
    *shapes = verdicts_.at(cached).out_shapes.data();
    *dtypes = verdicts_.at(cached).out_dtypes.data();
    return cached;
  }
  for (size_t i = 0; i < n_outs; ++i) {
    s_out_shapes_[i] = unknown_rank_;
    s_out_dtypes_[i] = s_out_dtypes_initial_[i];
    s_out_shape_ptrs_[i] = &s_out_shapes_[i];
    s_out_dtype_ptrs_[i] = &s_out_dtypes_[i];
  }
  // The node name the kernel sees: a plan's op is shared by equal nodes.
  const absl::string_view node_name =
      plan_ != nullptr ? c.f.node_name : absl::string_view(op.GetName());
  gert::InferShapeContext ictx;
  ictx.SetNode(node_name, op.GetType());
  ictx.SetAttrHolder(&op);
  ictx.SetInputs(in_shapes, in_dtypes, absl::MakeConstSpan(s_in_values_.data(), slots));
  ictx.SetOutputs(absl::MakeConstSpan(s_out_shape_ptrs_.data(), n_outs),
                  absl::MakeConstSpan(s_out_dtype_ptrs_.data(), n_outs));
  ictx.SetIrInputs(ir);
  // (Messages are built on failure only.)
  InferStep step = InferStep::kNone;
  if (Status st = RunOpInfer(reg, ictx, {}, &step); !st.ok()) {
    if (step == InferStep::kNoInferShape) {
      return NotSupported(Head(c), "op ", reg.type,
                          " has no infer shape function; its outputs cannot be checked");
    }
    return Annotate(st, Head(c), InferStepName(step), ": ");
  }
  *shapes = s_out_shapes_.data();
  *dtypes = s_out_dtypes_.data();
  if (verdicts_.size() >= kMaxVerdictEntries) return -1;
  const bool valued = has_weights && ictx.InputValuesRead();
  InferVerdictCache::Entry e;
  e.reg = &reg;
  e.attrs = &attrs;
  e.ir.assign(ir.begin(), ir.end());
  e.in_shapes.resize(slots);
  e.in_present.resize(slots);
  for (size_t s = 0; s < slots; ++s) {
    e.in_present[s] = in_shapes[s] != nullptr ? 1 : 0;
    if (in_shapes[s] != nullptr) e.in_shapes[s] = *in_shapes[s];
  }
  e.in_dtypes.assign(in_dtypes.begin(), in_dtypes.end());
  const absl::Span<const WeightLoc> key = valued ? in_weights : no_weights;
  e.in_weights.assign(key.begin(), key.end());
  e.out_dtypes_initial.assign(out_initial.begin(), out_initial.end());
  e.out_shapes.assign(s_out_shapes_.begin(), s_out_shapes_.begin() + n_outs);
  e.out_dtypes.assign(s_out_dtypes_.begin(), s_out_dtypes_.begin() + n_outs);
  verdicts_.Add(valued ? hash_valued : hash_plain(), std::move(e));
  return static_cast<int32_t>(verdicts_.size() - 1);
}

// Remembers this task for the op's next one (the verdict keyed as it was).
inline void StaticExecutor::Preparer::Remember(const Cursor& c, int32_t verdict, const Task& task) {
  PlanVerdictMemo& memo = memos_[c.ptask.op];
  const std::vector<InferVerdictCache::WeightLoc>& w = verdicts_.at(verdict).in_weights;
  memo.entry = verdict;
  memo.kind = c.ptask.kind;
  memo.n_in = c.f.n_in;
  memo.def = cur_def_;
  memo.ir_begin = task.ir_begin;
  memo.ir_count = task.ir_count;
  memo.valued = std::any_of(w.begin(), w.end(), [](const InferVerdictCache::WeightLoc& l) {
    return l.size != 0 || l.offset != ~uint64_t{0};
  });
  PlanSignature(*plan_, c.ptask, memo.valued, &memo.sig);
}

inline Status StaticExecutor::Preparer::CheckOutputs(const Cursor& c, const Task& task,
                                                     const gert::Shape* inferred_shapes,
                                                     const DataType* inferred_dtypes) const {
  const gert::Tensor* const* outs = x_.slots_.data() + task.in_begin + task.in_count;
  for (size_t i = 0; i < task.out_count; ++i) {
    const gert::Tensor* t = outs[i];
    if (t == nullptr) continue;  // MEM_ABSENT
    const gert::Shape& inferred = inferred_shapes[i];
    if (inferred != t->GetShape()) {
      return ParamInvalid(Head(c), "output ", i, " is declared ", t->GetShape().ToString(),
                          " but the op infers ", inferred.ToString());
    }
    if (inferred_dtypes[i] != t->GetDataType()) {
      return ParamInvalid(Head(c), "output ", i, " is declared ", DtName(t->GetDataType()),
                          " but the op infers ", DtName(inferred_dtypes[i]));
    }
  }
  return OkStatus();
}

// Every slot is plan_views_[id] and every workspace arena + offset: the
// plan's words and an entry describe the task; the record goes (`task`
// dangles afterwards).
inline void StaticExecutor::Preparer::ToPlanEntry(const Cursor& c, Task& task) {
  uint32_t& entry = memos_[c.ptask.op].plan_entry;
  if (entry == kNoPlanEntry || !x_.plan_entries_[entry].Matches(task)) {
    entry = static_cast<uint32_t>(x_.plan_entries_.size());
    x_.plan_entries_.push_back(PlanEntry{task.kernel, task.op, task.ir_begin, task.ir_count});
  }
  x_.plan_code_[c.pos] = entry;
  x_.slots_.resize(task.in_begin);
  x_.workspaces_.resize(task.ws_begin);
  x_.tasks_.pop_back();
}

}  // namespace ge

namespace ge {

Status StaticExecutor::Preparer::PrepareStatefulKernel(const Cursor& c, const OpDesc& op,
                                                       Task& task) {
  ASSIGN_OR_RETURN(Engine * engine, FindEngine(cur_def_->engine));
  std::unique_ptr<OpKernel> kernel = engine->NewKernel(*cur_def_);
  if (kernel == nullptr) return Internal(Head(c), "kernel ", cur_def_->op_type, " created nothing");
  // The node's static facts: every tensor's shape, data type and format;
  // data only for weights (values known at load).
  const size_t n = task.in_count + task.out_count;
  s_facts_.assign(n, gert::Tensor());
  s_fact_ptrs_.assign(n, nullptr);
  for (size_t i = 0; i < n; ++i) {
    const gert::Tensor* v = x_.slots_[task.in_begin + i];
    if (v == nullptr) continue;
    s_facts_[i] = *v;
    const bool weight = i < task.in_count && RefAt(c, 0, i).kind == proto::MEM_WEIGHTS;
    if (!weight) s_facts_[i].SetData(nullptr, 0);
    // The memory layout the compiler chose (dims stay logical): the op
    // desc's tensor desc format.
    const GeTensorDesc* d = i < task.in_count
                                ? op.GetInputDescBarePtr(static_cast<uint32_t>(i))
                                : op.GetOutputDescBarePtr(static_cast<uint32_t>(i - task.in_count));
    if (d != nullptr) s_facts_[i].SetFormat(static_cast<Format>(GetPrimaryFormat(d->GetFormat())));
    s_fact_ptrs_[i] = &s_facts_[i];
  }
  gert::TilingContext ctx;
  ctx.SetNode(x_.NodeNameAt(c.pos, task), op.GetType());
  ctx.SetAttrHolder(&op);
  ctx.SetTensors(absl::MakeConstSpan(s_fact_ptrs_.data(), task.in_count),
                 absl::MakeConstSpan(s_fact_ptrs_.data() + task.in_count, task.out_count));
  Status st = kernel->Prepare(ctx);
  if (!st.ok()) return Annotate(st, Head(c), "prepare (", cur_def_->engine, "): ");
  // Workspaces: the plan's when they hold what Prepare asks; otherwise the
  // load re-plans that workspace into the executor's shared overflow
  // buffer of its index (tasks run one at a time).
  const absl::Span<const size_t> asked = ctx.GetWorkspaceSizes();
  if (asked.size() > task.ws_count) {
    if (task.ws_begin + task.ws_count != x_.workspaces_.size()) {
      return Internal(Head(c), "workspaces are not the last in the flat array");
    }
    x_.workspaces_.resize(task.ws_begin + asked.size(), nullptr);
  }
  for (size_t k = 0; k < asked.size(); ++k) {
    const uint64_t planned = k < task.ws_count ? RefAt(c, 2, k).size : 0;
    if (asked[k] <= planned) continue;
    if (x_.overflow_bytes_.size() <= k) x_.overflow_bytes_.resize(k + 1, 0);
    x_.overflow_bytes_[k] = std::max<uint64_t>(x_.overflow_bytes_[k], asked[k]);
    x_.overflow_uses_.push_back(
        {task.ws_begin + static_cast<uint32_t>(k), static_cast<uint32_t>(k)});
  }
  task.ws_count = static_cast<uint16_t>(std::max<size_t>(task.ws_count, asked.size()));
  task.kernel = kernel.get();
  x_.owned_kernels_.push_back(std::move(kernel));
  return OkStatus();
}

}  // namespace ge

namespace ge {

void StaticExecutor::SetProfiling(bool on) {
  profiling_ = on;
  const size_t n = parts_.plan != nullptr ? plan_code_.size() : tasks_.size();
  if (on) task_ns_.assign(n, 0);
  profiled_runs_ = 0;
}

std::vector<StaticExecutor::TaskTime> StaticExecutor::Profile(uint64_t* runs) const {
  if (runs != nullptr) *runs = profiled_runs_;
  std::vector<TaskTime> out;
  proto::TaskDef scratch;
  for (size_t i = 0; i < task_ns_.size(); ++i) {
    TaskFields f;
    if (parts_.plan != nullptr) {
      f = FieldsOf(*parts_.plan, parts_.plan->task(i));
    } else {
      const proto::TaskDef* def = TaskDefAt(i, &scratch);
      if (def == nullptr) continue;
      f = FieldsOf(*def);
    }
    out.push_back(TaskTime{std::string(f.node_name), std::string(f.op_type), std::string(f.engine),
                           task_ns_[i]});
  }
  return out;
}

}  // namespace ge
