// runtime/executor/static_executor.cc
#include "runtime/executor/static_executor.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/op_registry.h"
#include "runtime/executor/io_check.h"

namespace ge {
namespace {

std::string DtName(DataType dt) { return TypeUtils::DataTypeToSerialString(dt); }

const char* KindName(proto::MemKind kind) {
  switch (kind) {
    case proto::MEM_ABSENT: return "ABSENT";
    case proto::MEM_ARENA: return "ARENA";
    case proto::MEM_WEIGHTS: return "WEIGHTS";
    case proto::MEM_MODEL_INPUT: return "MODEL_INPUT";
    case proto::MEM_MODEL_OUTPUT: return "MODEL_OUTPUT";
    default: return "UNKNOWN";
  }
}

std::string TaskHead(const proto::TaskDef& t, size_t pos) {
  return absl::StrCat("task ", pos, " (", proto::TaskType_Name(t.type()), ", node '",
                      t.node_name(), "' ", t.op_type(), "): ");
}

// a + b <= limit without overflow.
bool FitsIn(uint64_t offset, uint64_t size, uint64_t limit) {
  return offset <= limit && size <= limit - offset;
}

uint64_t PhysicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);     // NOLINT(runtime/int)
  const long page = sysconf(_SC_PAGESIZE);        // NOLINT(runtime/int)
  if (pages <= 0 || page <= 0) return uint64_t{1} << 34;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(page);
}

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

// Identity of an input ref: equal keys give identical (read-only) views, so
// tasks reading the same tensor share one view (and one patch).
struct InputRefKey {
  int kind;
  int32_t data_type;
  uint32_t index;
  uint64_t offset;
  uint64_t size;
  absl::Span<const int64_t> dims;  // into the TaskDef

  explicit InputRefKey(const proto::TensorRef& ref)
      : kind(static_cast<int>(ref.kind())),
        data_type(ref.data_type()),
        index(ref.index()),
        offset(ref.offset()),
        size(ref.size()),
        dims(ref.dims().data(), static_cast<size_t>(ref.dims_size())) {}
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

// One prepared task: a fixed-size record. Its slices of the executor's flat
// arrays are recorded as [begin, begin + count) and turned into the
// context's spans once every array has its final size.
struct StaticExecutor::Task {
  proto::TaskType type = proto::TASK_KERNEL;
  uint32_t in_begin = 0, in_count = 0;
  uint32_t out_begin = 0, out_count = 0;
  uint32_t ir_begin = 0, ir_count = 0;
  uint32_t ws_begin = 0, ws_count = 0;
  KernelFn fn = nullptr;  // TASK_KERNEL
  gert::KernelContext ctx;
  size_t copy_bytes = 0;  // TASK_MEMCPY: input 0 -> output 0
};

// A tensor view whose data pointer is the user's buffer + offset.
struct StaticExecutor::Patch {
  gert::Tensor* tensor = nullptr;
  bool is_output = false;
  uint32_t index = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
};

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

// The verdict of verify / infer data type / infer shape for one context.
// Caching is exact: an entry is reused only for a context with the same
// registration (hence the same functions), IR mapping, input shapes and data
// types, no known input values, the same initial output data types and an
// equal attribute store. The registered op functions are pure functions of
// those (they read nothing else of the context but the node name / type,
// which only enter error messages, and only successes are cached), so the
// reused outputs are exactly what the functions would compute again.
class InferVerdictCache {
 public:
  struct Entry {
    const OpRegistrationData* reg = nullptr;
    const AttrStore* attrs = nullptr;  // of the first op (live for the load)
    std::vector<gert::IrInstance> ir;
    std::vector<gert::Shape> in_shapes;  // default (scalar) where absent
    std::vector<uint8_t> in_present;
    std::vector<DataType> in_dtypes;
    std::vector<DataType> out_dtypes_initial;
    // The result.
    std::vector<gert::Shape> out_shapes;
    std::vector<DataType> out_dtypes;
    int32_t next = -1;  // hash chain
  };

  static uint64_t Hash(const OpRegistrationData* reg, absl::Span<const gert::IrInstance> ir,
                       absl::Span<const gert::Shape* const> in_shapes,
                       absl::Span<const DataType> in_dtypes,
                       absl::Span<const DataType> out_dtypes, size_t n_attrs) {
    uint64_t h = reinterpret_cast<uintptr_t>(reg) * 0x9E3779B97F4A7C15ull;
    auto mix = [&h](uint64_t v) { h = (h ^ v) * 0x100000001B3ull + (h >> 29); };
    mix(ir.size());
    for (const gert::IrInstance& i : ir) {
      mix(i.start);
      mix(i.count);
    }
    mix(in_shapes.size());
    for (size_t s = 0; s < in_shapes.size(); ++s) {
      mix(static_cast<uint64_t>(in_dtypes[s]));
      if (in_shapes[s] == nullptr) {
        mix(0xABCDull);
        continue;
      }
      mix(in_shapes[s]->GetDimNum());
      for (int64_t d : in_shapes[s]->GetDims()) mix(static_cast<uint64_t>(d));
    }
    mix(out_dtypes.size());
    for (DataType d : out_dtypes) mix(static_cast<uint64_t>(d));
    mix(n_attrs);
    return h;
  }

  // The cached entry equal to the context, or nullptr.
  const Entry* Find(uint64_t hash, const OpRegistrationData* reg, const AttrStore& attrs,
                    absl::Span<const gert::IrInstance> ir,
                    absl::Span<const gert::Shape* const> in_shapes,
                    absl::Span<const DataType> in_dtypes,
                    absl::Span<const DataType> out_dtypes) const {
    auto it = heads_.find(hash);
    if (it == heads_.end()) return nullptr;
    for (int32_t e = it->second; e >= 0; e = entries_[static_cast<size_t>(e)].next) {
      const Entry& c = entries_[static_cast<size_t>(e)];
      if (c.reg != reg || c.ir.size() != ir.size() || c.in_shapes.size() != in_shapes.size() ||
          c.out_dtypes_initial.size() != out_dtypes.size()) {
        continue;
      }
      bool same = true;
      for (size_t k = 0; k < ir.size() && same; ++k) {
        same = c.ir[k].start == ir[k].start && c.ir[k].count == ir[k].count;
      }
      for (size_t s = 0; s < in_shapes.size() && same; ++s) {
        const bool present = in_shapes[s] != nullptr;
        same = (c.in_present[s] != 0) == present && c.in_dtypes[s] == in_dtypes[s] &&
               (!present || c.in_shapes[s] == *in_shapes[s]);
      }
      for (size_t i = 0; i < out_dtypes.size() && same; ++i) {
        same = c.out_dtypes_initial[i] == out_dtypes[i];
      }
      if (same && (c.attrs == &attrs || *c.attrs == attrs)) return &c;
    }
    return nullptr;
  }

  void Add(uint64_t hash, Entry entry) {
    auto [it, inserted] = heads_.try_emplace(hash, static_cast<int32_t>(entries_.size()));
    if (!inserted) {
      entry.next = it->second;
      it->second = static_cast<int32_t>(entries_.size());
    }
    entries_.push_back(std::move(entry));
  }
  size_t size() const { return entries_.size(); }

 private:
  absl::flat_hash_map<uint64_t, int32_t> heads_;
  std::vector<Entry> entries_;
};

// Entries beyond which the verdict cache stops growing (a model of all
// distinct ops gains nothing from it).
constexpr size_t kMaxVerdictEntries = 1 << 16;

}  // namespace

constexpr size_t kViewChunk = 256;
// The one kernel that rebinds an output view (ops/internal/rts_ops.cc).
constexpr absl::string_view kRebindingKernel = "Switch";

StaticExecutor::StaticExecutor(StaticModelParts parts)
    : parts_(std::move(parts)), td_(parts_.task_def) {}

gert::Tensor* StaticExecutor::NewView() {
  if (view_chunks_.empty() || views_in_last_chunk_ == kViewChunk) {
    view_chunks_.emplace_back(new gert::Tensor[kViewChunk]);
    views_in_last_chunk_ = 0;
  }
  return &view_chunks_.back()[views_in_last_chunk_++];
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

StaticExecutor::~StaticExecutor() {
  if (arena_ != nullptr) ::munmap(arena_, arena_mapped_bytes_);
}

StatusOr<std::unique_ptr<StaticExecutor>> StaticExecutor::Create(
    GeModelPtr model, const StaticExecutorOptions& options) {
  if (model == nullptr) return ParamInvalid("StaticExecutor: null model");
  if (model->graph == nullptr && !model->task_def.dynamic()) {
    return ParamInvalid("model '", model->name, "' has no graph");
  }
  StaticModelParts parts;
  parts.name = model->name;
  parts.task_def = &model->task_def;
  parts.weights = &model->weights;
  if (model->graph != nullptr) {
    parts.graph_name = model->graph->GetName();
    const std::vector<Node*>& nodes = model->graph->GetDirectNodePtr();
    parts.ops.reserve(nodes.size());
    for (const Node* n : nodes) parts.ops.push_back(n->GetOpDescBarePtr());
  }
  parts.keepalive = std::move(model);
  return Create(std::move(parts), options);
}

StatusOr<std::unique_ptr<StaticExecutor>> StaticExecutor::Create(
    StaticModelParts parts, const StaticExecutorOptions& options) {
  if (parts.task_def == nullptr || parts.weights == nullptr) {
    return ParamInvalid("StaticExecutor: model '", parts.name, "' has no task list or weights");
  }
  if (parts.task_def->dynamic()) {
    return ParamInvalid("model '", parts.name,
                        "' is dynamic (task_def.dynamic); use the dynamic executor");
  }
  if (!parts.task_bytes.empty() && parts.task_def->task_size() != 0) {
    return ParamInvalid("model '", parts.name, "': tasks both in task_def (", parts.task_def->task_size(),
                        ") and as bytes (", parts.task_bytes.size(), ")");
  }
  std::unique_ptr<StaticExecutor> exec(new StaticExecutor(std::move(parts)));
  RETURN_IF_ERROR(Annotate(exec->Prepare(options), "model '", exec->parts_.name, "': "));
  return exec;
}

Status StaticExecutor::Prepare(const StaticExecutorOptions& options) {
  const proto::ModelTaskDef& td = *td_;
  for (int i = 0; i < td.input_size(); ++i) {
    RETURN_IF_ERROR(CheckIoDef(td.input(i), "input", static_cast<size_t>(i), false));
  }
  for (int i = 0; i < td.output_size(); ++i) {
    RETURN_IF_ERROR(CheckIoDef(td.output(i), "output", static_cast<size_t>(i), false));
  }

  // The arena.
  const uint64_t limit = options.max_arena_bytes != 0 ? options.max_arena_bytes
                                                      : PhysicalMemoryBytes();
  if (td.memory_size() > limit) {
    return MemoryAllocFailed("memory_size ", td.memory_size(), " bytes exceeds the limit of ",
                             limit, " bytes");
  }
  arena_size_ = td.memory_size();
  if (arena_size_ > 0) {
    const uint64_t rounded = (arena_size_ + kMemAlign - 1) / kMemAlign * kMemAlign;
    // Zero pages from the kernel: no memset, and pages are faulted in by the
    // first Run instead of at load (page aligned, so kMemAlign aligned).
    void* p = ::mmap(nullptr, rounded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      return MemoryAllocFailed("cannot allocate the arena of ", arena_size_, " bytes");
    }
    arena_ = static_cast<uint8_t*>(p);
    arena_mapped_bytes_ = rounded;
  }
  const WeightBuffer& w = *parts_.weights;

  // Op lookup by OpDesc id (root graph): ids are the node positions in a
  // built model, so a dense table; other ids (hand-made graphs) go to a map.
  // A null entry with `shared` set marks an id used by several ops.
  const std::vector<const OpDesc*>& graph_ops = parts_.ops;
  struct IdEntry {
    const OpDesc* op = nullptr;
    bool shared = false;
  };
  std::vector<IdEntry> dense(graph_ops.size());
  absl::flat_hash_map<int64_t, IdEntry> sparse;
  for (const OpDesc* op : graph_ops) {
    if (op == nullptr) continue;
    const int64_t id = op->GetId();
    IdEntry& e = id >= 0 && static_cast<uint64_t>(id) < dense.size() ? dense[static_cast<size_t>(id)]
                                                                     : sparse[id];
    if (e.op != nullptr) e.shared = true;
    e.op = op;
  }
  auto find_id = [&](int64_t id) -> const IdEntry* {
    if (id >= 0 && static_cast<uint64_t>(id) < dense.size()) {
      const IdEntry& e = dense[static_cast<size_t>(id)];
      return e.op == nullptr ? nullptr : &e;
    }
    auto it = sparse.find(id);
    return it == sparse.end() ? nullptr : &it->second;
  };

  // The flat arrays grow with the task list (the contexts' spans are wired
  // once they are final; views live in chunks that never move).
  const size_t n_tasks =
      parts_.task_bytes.empty() ? static_cast<size_t>(td.task_size()) : parts_.task_bytes.size();
  if (n_tasks > std::numeric_limits<uint32_t>::max() / 8) {
    return OutOfRange("the task list has ", n_tasks, " tasks (limit ",
                      std::numeric_limits<uint32_t>::max() / 8, ")");
  }
  tasks_.reserve(n_tasks);
  in_ptrs_.reserve(n_tasks * 2);
  out_ptrs_.reserve(n_tasks);
  proto::TaskDef scratch_def;  // the current task when the tasks are bytes
  std::deque<std::string> kernel_keys;  // stable keys of `regs`

  // Scratch of the output check, reused by every task (no per-task
  // allocation once it has grown to the widest task).
  std::vector<const gert::Shape*> s_in_shapes;
  std::vector<DataType> s_in_dtypes;
  std::vector<const gert::Tensor*> s_in_values;
  std::vector<gert::Shape> s_out_shapes;
  std::vector<DataType> s_out_dtypes;
  std::vector<DataType> s_out_dtypes_initial;
  std::vector<gert::Shape*> s_out_shape_ptrs;
  std::vector<DataType*> s_out_dtype_ptrs;
  std::vector<gert::IrInstance> s_ir;
  gert::Shape unknown_rank;
  unknown_rank.AppendDim(UNKNOWN_RANK);
  InferVerdictCache verdicts;

  // Views shared by equal refs: inputs among inputs (read-only to kernels),
  // outputs among outputs (kernels write the data, never rebind the view).
  absl::flat_hash_map<InputRefKey, gert::Tensor*> shared_inputs;
  absl::flat_hash_map<InputRefKey, gert::Tensor*> shared_outputs;
  // Patched views already listed (a shared MODEL_* view is patched once).
  OpRegistry& registry = OpRegistry::Instance();
  // One registry lookup per distinct kernel key; consecutive tasks mostly
  // share theirs.
  absl::flat_hash_map<absl::string_view, RegEntry> regs;
  absl::string_view last_key;
  RegEntry* last_reg = nullptr;
  // IR instances of consecutive kernel tasks are mostly equal: ir_ holds each
  // run of equal mappings once.
  uint32_t last_ir_begin = 0, last_ir_count = 0;
  bool have_last_ir = false;

  for (size_t pos = 0; pos < n_tasks; ++pos) {
    const proto::TaskDef* def_ptr = TaskDefAt(pos, &scratch_def);
    if (def_ptr == nullptr) return ParseFailed("task ", pos, ": not a valid TaskDef");
    const proto::TaskDef& def = *def_ptr;
    if (in_ptrs_.size() + static_cast<size_t>(def.input_size()) > std::numeric_limits<uint32_t>::max() ||
        out_ptrs_.size() + static_cast<size_t>(def.output_size()) > std::numeric_limits<uint32_t>::max() ||
        workspaces_.size() + static_cast<size_t>(def.workspace_size()) >
            std::numeric_limits<uint32_t>::max()) {
      return OutOfRange("the task list has more than ", std::numeric_limits<uint32_t>::max(),
                        " tensor refs or workspaces");
    }
    // Message prefixes are built only on failure (no per-task strings).
    auto head = [&def, pos]() { return TaskHead(def, pos); };
    Task& task = tasks_.emplace_back();
    task.type = def.type();
    if (def.stream_id() != 0 && def.stream_id() >= td.stream_num()) {
      return OutOfRange(head(), "stream_id ", def.stream_id(), " >= stream_num ", td.stream_num());
    }

    // A view of `ref` (kind MEM_ABSENT excluded), appended to views_.
    auto make_view = [&](const proto::TensorRef& ref, const char* role, int i,
                         bool writable) -> StatusOr<gert::Tensor*> {
      auto where = [&]() { return absl::StrCat(head(), role, " ", i, " (", KindName(ref.kind()), "): "); };
      if (!proto::MemKind_IsValid(ref.kind())) {
        return ParamInvalid(where(), "invalid memory kind ", static_cast<int>(ref.kind()));
      }
      if (!TypeUtils::IsDataTypeValid(ref.data_type())) {
        return ParamInvalid(where(), "invalid data type ", ref.data_type());
      }
      const DataType dt = static_cast<DataType>(ref.data_type());
      if (dt == DT_UNDEFINED || dt == DT_STRING || dt == DT_VARIANT || dt == DT_RESOURCE ||
          dt == DT_STRING_REF) {
        return NotSupported(where(), "data type ", DtName(dt), " cannot live in a static model");
      }
      if (ref.dims_size() > static_cast<int>(gert::kMaxDimNum)) {
        return ParamInvalid(where(), ref.dims_size(), " dims exceed the limit of ",
                            gert::kMaxDimNum);
      }
      gert::Shape shape;
      for (int64_t d : ref.dims()) shape.AppendDim(d);
      if (shape.IsUnknownShape()) {
        return ParamInvalid(where(), "dims ", shape.ToString(), " are not static");
      }
      const int64_t count = shape.GetShapeSize();
      if (count < 0) return Overflow(where(), "element count of ", shape.ToString(), " overflows");
      StatusOr<size_t> need = gert::HostStorageBytes(dt, count);
      if (!need.ok()) return Annotate(need.status(), where());
      if (ref.size() < *need) {
        return ParamInvalid(where(), "size ", ref.size(), " is smaller than the ", *need,
                            " bytes of ", shape.ToString(), " ", DtName(dt));
      }
      void* data = nullptr;
      bool patch = false;
      switch (ref.kind()) {
        case proto::MEM_ARENA:
          if (!FitsIn(ref.offset(), ref.size(), arena_size_)) {
            return OutOfRange(where(), "[", ref.offset(), ", +", ref.size(),
                              ") exceeds memory_size ", arena_size_);
          }
          if (ref.offset() % kMemAlign != 0) {
            return ParamInvalid(where(), "offset ", ref.offset(), " is not ", kMemAlign,
                                "-byte aligned");
          }
          data = arena_ == nullptr ? nullptr : arena_ + ref.offset();
          break;
        case proto::MEM_WEIGHTS:
          if (writable) return ParamInvalid(where(), "weights are read-only");
          if (!FitsIn(ref.offset(), ref.size(), w.size)) {
            return OutOfRange(where(), "[", ref.offset(), ", +", ref.size(),
                              ") exceeds the weights (", w.size, " bytes)");
          }
          if (ref.size() > 0) {
            // A fresh build's weights are pieces (the constants in place); a
            // ref across pieces or into a zero gap reads a contiguous copy.
            const uint8_t* p = weights_copy_.data != nullptr ? nullptr : w.Find(ref.offset(), ref.size());
            if (p == nullptr) {
              if (weights_copy_.data == nullptr) {
                weights_copy_ = MakeContiguousWeights(w);
                if (weights_copy_.data == nullptr || weights_copy_.size != w.size) {
                  return MemoryAllocFailed(where(), "cannot copy the ", w.size, " weight bytes");
                }
              }
              p = weights_copy_.data + ref.offset();
            }
            data = const_cast<uint8_t*>(p);
          }
          break;
        case proto::MEM_MODEL_INPUT:
        case proto::MEM_MODEL_OUTPUT: {
          const bool out = ref.kind() == proto::MEM_MODEL_OUTPUT;
          if (!out && writable) return ParamInvalid(where(), "model inputs are read-only");
          const int n = out ? td.output_size() : td.input_size();
          if (ref.index() >= static_cast<uint32_t>(n)) {
            return OutOfRange(where(), "index ", ref.index(), " but the model has ", n,
                              out ? " outputs" : " inputs");
          }
          const proto::ModelIoDef& io = out ? td.output(static_cast<int>(ref.index()))
                                            : td.input(static_cast<int>(ref.index()));
          if (!FitsIn(ref.offset(), ref.size(), io.size())) {
            return OutOfRange(where(), "[", ref.offset(), ", +", ref.size(), ") exceeds the ",
                              io.size(), " bytes of model ", out ? "output " : "input ",
                              ref.index());
          }
          patch = true;
          break;
        }
        default:
          return ParamInvalid(where(), "invalid memory kind ", static_cast<int>(ref.kind()));
      }
      gert::Tensor* view = NewView();
      view->SetShape(shape);
      view->SetDataType(dt);
      view->SetData(data, static_cast<size_t>(ref.size()));
      if (patch) {
        Patch p;
        p.tensor = view;
        p.is_output = ref.kind() == proto::MEM_MODEL_OUTPUT;
        p.index = ref.index();
        p.offset = ref.offset();
        p.size = ref.size();
        patches_.push_back(p);
      }
      return view;
    };

    // The view of `ref` shared by equal refs. The map keys' dims point into
    // the view's own shape (the TaskDef may be a reused message).
    using ViewMap = absl::flat_hash_map<InputRefKey, gert::Tensor*>;
    auto shared_view = [&](ViewMap* map, const proto::TensorRef& ref, const char* role, int i,
                           bool writable) -> StatusOr<gert::Tensor*> {
      const InputRefKey probe(ref);
      auto it = map->find(probe);
      if (it != map->end()) return it->second;
      ASSIGN_OR_RETURN(gert::Tensor * view, make_view(ref, role, i, writable));
      InputRefKey stable = probe;
      stable.dims = view->GetShape().GetDims();
      map->emplace(stable, view);
      return view;
    };

    task.in_begin = static_cast<uint32_t>(in_ptrs_.size());
    task.in_count = static_cast<uint32_t>(def.input_size());
    for (int i = 0; i < def.input_size(); ++i) {
      const proto::TensorRef& ref = def.input(i);
      if (ref.kind() == proto::MEM_ABSENT) {  // an unconnected optional input
        in_ptrs_.push_back(nullptr);
        continue;
      }
      ASSIGN_OR_RETURN(gert::Tensor * view,
                       shared_view(&shared_inputs, ref, "input", i, false));
      in_ptrs_.push_back(view);
    }
    task.out_begin = static_cast<uint32_t>(out_ptrs_.size());
    task.out_count = static_cast<uint32_t>(def.output_size());
    const bool rebinds_outputs =
        (def.kernel_name().empty() ? def.op_type() : def.kernel_name()) == kRebindingKernel;
    for (int i = 0; i < def.output_size(); ++i) {
      const proto::TensorRef& ref = def.output(i);
      if (ref.kind() == proto::MEM_ABSENT) {  // an unused optional output
        out_ptrs_.push_back(nullptr);
        continue;
      }
      // Equal refs passed every check of make_view but the read-only ones,
      // which depend on the kind alone (always writable here).
      // Switch's kernel rebinds its dead output (SetData(nullptr, 0)): its
      // outputs get views of their own.
      ASSIGN_OR_RETURN(gert::Tensor * view,
                       rebinds_outputs ? make_view(ref, "output", i, true)
                                       : shared_view(&shared_outputs, ref, "output", i, true));
      out_ptrs_.push_back(view);
    }
    task.ws_begin = static_cast<uint32_t>(workspaces_.size());
    task.ws_count = static_cast<uint32_t>(def.workspace_size());
    for (int i = 0; i < def.workspace_size(); ++i) {
      const proto::TensorRef& ref = def.workspace(i);
      if (ref.kind() != proto::MEM_ARENA || !FitsIn(ref.offset(), ref.size(), arena_size_)) {
        return ParamInvalid(head(), "workspace ", i, " must be an ARENA ref within memory_size ",
                            arena_size_);
      }
      workspaces_.push_back(arena_ == nullptr ? nullptr : arena_ + ref.offset());
    }
    const gert::Tensor* const* ins = in_ptrs_.data() + task.in_begin;
    gert::Tensor* const* outs = out_ptrs_.data() + task.out_begin;

    switch (def.type()) {
      case proto::TASK_KERNEL:
        break;
      case proto::TASK_MEMCPY: {
        if (def.input_size() != 1 || def.output_size() != 1 || ins[0] == nullptr ||
            outs[0] == nullptr) {
          return ParamInvalid(head(), "a memcpy needs one input and one output, got ",
                              def.input_size(), " and ", def.output_size());
        }
        if (def.output(0).size() < def.input(0).size()) {
          return ParamInvalid(head(), "output of ", def.output(0).size(),
                              " bytes cannot hold the input of ", def.input(0).size());
        }
        task.copy_bytes = static_cast<size_t>(def.input(0).size());
        continue;
      }
      case proto::TASK_EVENT_RECORD:
      case proto::TASK_EVENT_WAIT:
        if (def.event_id() >= td.event_num()) {
          return OutOfRange(head(), "event_id ", def.event_id(), " >= event_num ", td.event_num());
        }
        continue;
      default:
        return NotSupported(head(), "task type ", static_cast<int>(def.type()),
                            " is not supported by the static executor");
    }

    // TASK_KERNEL: the op, the registration, the kernel.
    const IdEntry* entry = find_id(def.op_index());
    if (entry == nullptr) {
      return NotFound(head(), "op_index ", def.op_index(), " is not a node of graph '",
                      parts_.graph_name, "'");
    }
    if (entry->shared) {
      return GraphInvalid(head(), "op_index ", def.op_index(), " is shared by several nodes");
    }
    const OpDesc& op = *entry->op;
    if (op.GetType() != def.op_type()) {
      return GraphInvalid(head(), "op_index ", def.op_index(), " is node '", op.GetName(),
                          "' of type ", op.GetType(), ", not ", def.op_type());
    }
    const std::string& kernel_key = def.kernel_name().empty() ? def.op_type() : def.kernel_name();
    RegEntry* re = nullptr;
    if (last_reg != nullptr && last_key == kernel_key) {
      re = last_reg;
    } else {
      auto it = regs.find(absl::string_view(kernel_key));
      if (it == regs.end()) {
        it = regs.try_emplace(kernel_keys.emplace_back(kernel_key)).first;
        it->second.reg = registry.Find(kernel_key);
        if (it->second.reg == nullptr) {
          StatusOr<const OpRegistrationData*> r = registry.Get(kernel_key);
          return Annotate(r.ok() ? NotFound("op type ", kernel_key, " is not registered") : r.status(),
                          head());
        }
      }
      re = &it->second;
      last_key = it->first;
      last_reg = re;
    }
    const OpRegistrationData* reg = re->reg;
    const OpKernelDef* kernel = reg->FindKernel(def.engine());
    if (kernel == nullptr || kernel->fn == nullptr) {
      std::vector<std::string> engines;
      for (const OpKernelDef& k : reg->kernels) engines.push_back(k.engine);
      return NotSupported(head(), "op ", kernel_key, " has no kernel for engine '", def.engine(),
                          "' (kernels: ", engines.empty() ? "none" : absl::StrJoin(engines, ", "),
                          ")");
    }
    task.fn = kernel->fn;

    // IR mapping (reused while the input names and slot count repeat) and
    // input data types.
    const size_t slots = task.in_count;
    if (!re->has_ir || re->ir_slots != slots || !SameInputNames(op, re->ir_names)) {
      StatusOr<std::vector<gert::IrInstance>> mapped = MapInputSlotsToIr(op, *reg, slots);
      if (!mapped.ok()) return Annotate(mapped.status(), head());
      re->ir = std::move(mapped).value();
      re->ir_slots = slots;
      re->ir_names.clear();
      for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
        const std::string* n = op.GetInputNamePtr(static_cast<uint32_t>(i));
        re->ir_names.push_back(n == nullptr ? absl::string_view() : absl::string_view(*n));
      }
      re->has_ir = true;
    }
    s_ir.assign(re->ir.begin(), re->ir.end());
    std::vector<gert::IrInstance>& ir = s_ir;
    for (size_t k = 0; k < reg->inputs.size(); ++k) {
      const OpIoDef& io = reg->inputs[k];
      if (io.kind == IoKind::kOptional && ir[k].count == 1 && ins[ir[k].start] == nullptr) {
        ir[k].count = 0;
      }
      for (size_t s = ir[k].start; s < ir[k].start + ir[k].count; ++s) {
        if (ins[s] != nullptr && io.types.Contains(ins[s]->GetDataType())) continue;
        const std::string in_name = absl::StrCat("input ", s, " ('", io.name, "')");
        if (ins[s] == nullptr) return GraphInvalid(head(), in_name, " is absent but required");
        RETURN_IF_ERROR(Annotate(io.types.Check(in_name, ins[s]->GetDataType()), head()));
      }
    }
    const bool same_ir = have_last_ir && last_ir_count == ir.size() &&
                         std::equal(ir.begin(), ir.end(), ir_.begin() + last_ir_begin,
                                    [](const gert::IrInstance& a, const gert::IrInstance& b) {
                                      return a.start == b.start && a.count == b.count;
                                    });
    if (!same_ir) {
      last_ir_begin = static_cast<uint32_t>(ir_.size());
      last_ir_count = static_cast<uint32_t>(ir.size());
      ir_.insert(ir_.end(), ir.begin(), ir.end());
      have_last_ir = true;
    }
    task.ir_begin = last_ir_begin;
    task.ir_count = last_ir_count;

    // Verify / infer: the declared outputs are exactly what the op produces.
    const size_t n_outs = task.out_count;
    s_in_shapes.resize(slots);
    s_in_dtypes.resize(slots);
    s_in_values.resize(slots);
    bool has_values = false;
    for (size_t s = 0; s < slots; ++s) {
      const gert::Tensor* t = ins[s];
      s_in_shapes[s] = t == nullptr ? nullptr : &t->GetShape();
      s_in_dtypes[s] = t == nullptr ? DT_UNDEFINED : t->GetDataType();
      // Weight inputs' values are known (data-dependent shapes: Reshape, ...).
      s_in_values[s] =
          t != nullptr && def.input(static_cast<int>(s)).kind() == proto::MEM_WEIGHTS ? t : nullptr;
      has_values = has_values || s_in_values[s] != nullptr;
    }
    if (s_out_shapes.size() < n_outs) {
      s_out_shapes.resize(n_outs);
      s_out_dtypes.resize(n_outs);
      s_out_dtypes_initial.resize(n_outs);
      s_out_shape_ptrs.resize(n_outs);
      s_out_dtype_ptrs.resize(n_outs);
    }
    for (size_t i = 0; i < n_outs; ++i) {
      const GeTensorDesc* desc = op.GetOutputDescBarePtr(static_cast<uint32_t>(i));
      s_out_dtypes_initial[i] = desc != nullptr ? desc->GetDataType() : DT_UNDEFINED;
    }
    const absl::Span<const gert::Shape* const> in_shapes(s_in_shapes.data(), slots);
    const absl::Span<const DataType> in_dtypes(s_in_dtypes.data(), slots);
    const absl::Span<const DataType> out_initial(s_out_dtypes_initial.data(), n_outs);
    const AttrStore& attrs = op.GetAttrStore();
    const uint64_t hash = has_values ? 0
                                     : InferVerdictCache::Hash(reg, ir, in_shapes, in_dtypes,
                                                               out_initial, attrs.size());
    const InferVerdictCache::Entry* cached =
        has_values ? nullptr
                   : verdicts.Find(hash, reg, attrs, ir, in_shapes, in_dtypes, out_initial);
    const gert::Shape* inferred_shapes = nullptr;
    const DataType* inferred_dtypes = nullptr;
    if (cached != nullptr) {
      inferred_shapes = cached->out_shapes.data();
      inferred_dtypes = cached->out_dtypes.data();
    } else {
      for (size_t i = 0; i < n_outs; ++i) {
        s_out_shapes[i] = unknown_rank;
        s_out_dtypes[i] = s_out_dtypes_initial[i];
        s_out_shape_ptrs[i] = &s_out_shapes[i];
        s_out_dtype_ptrs[i] = &s_out_dtypes[i];
      }
      gert::InferShapeContext ictx;
      ictx.SetNode(op.GetName(), op.GetType());
      ictx.SetAttrHolder(&op);
      ictx.SetInputs(in_shapes, in_dtypes, absl::MakeConstSpan(s_in_values.data(), slots));
      ictx.SetOutputs(absl::MakeConstSpan(s_out_shape_ptrs.data(), n_outs),
                      absl::MakeConstSpan(s_out_dtype_ptrs.data(), n_outs));
      ictx.SetIrInputs(ir);
      if (reg->verify != nullptr) RETURN_IF_ERROR(Annotate(reg->verify(ictx), head(), "verify: "));
      if (reg->infer_data_type != nullptr) {
        RETURN_IF_ERROR(Annotate(reg->infer_data_type(ictx), head(), "infer data type: "));
      } else if (ictx.GetInputShape(0) != nullptr) {
        for (size_t i = 0; i < n_outs; ++i) ictx.SetOutputDataType(i, ictx.GetInputDataType(0));
      }
      if (reg->infer_shape == nullptr) {
        return NotSupported(head(), "op ", reg->type,
                            " has no infer shape function; its outputs cannot be checked");
      }
      RETURN_IF_ERROR(Annotate(reg->infer_shape(ictx), head(), "infer shape: "));
      inferred_shapes = s_out_shapes.data();
      inferred_dtypes = s_out_dtypes.data();
      if (!has_values && verdicts.size() < kMaxVerdictEntries) {
        InferVerdictCache::Entry e;
        e.reg = reg;
        e.attrs = &attrs;
        e.ir = ir;
        e.in_shapes.resize(slots);
        e.in_present.resize(slots);
        for (size_t s = 0; s < slots; ++s) {
          e.in_present[s] = in_shapes[s] != nullptr ? 1 : 0;
          if (in_shapes[s] != nullptr) e.in_shapes[s] = *in_shapes[s];
        }
        e.in_dtypes.assign(in_dtypes.begin(), in_dtypes.end());
        e.out_dtypes_initial.assign(out_initial.begin(), out_initial.end());
        e.out_shapes.assign(s_out_shapes.begin(), s_out_shapes.begin() + n_outs);
        e.out_dtypes.assign(s_out_dtypes.begin(), s_out_dtypes.begin() + n_outs);
        verdicts.Add(hash, std::move(e));
      }
    }
    for (size_t i = 0; i < n_outs; ++i) {
      const gert::Tensor* t = outs[i];
      if (t == nullptr) continue;  // MEM_ABSENT
      const gert::Shape& inferred = inferred_shapes[i];
      if (inferred != t->GetShape()) {
        return ParamInvalid(head(), "output ", i, " is declared ", t->GetShape().ToString(),
                            " but the op infers ", inferred.ToString());
      }
      if (inferred_dtypes[i] != t->GetDataType()) {
        return ParamInvalid(head(), "output ", i, " is declared ", DtName(t->GetDataType()),
                            " but the op infers ", DtName(inferred_dtypes[i]));
      }
    }

    // The kernel context (spans are wired below, once the arrays are final).
    gert::KernelContext& kctx = task.ctx;
    kctx.SetNode(op.GetName(), op.GetType());
    kctx.SetAttrHolder(&op);
    kctx.SetOutputAllocator(&g_refusing_allocator);
    ++kernel_tasks_;
  }

  // Every array has its final size: wire the contexts' spans.
  for (Task& task : tasks_) {
    if (task.type != proto::TASK_KERNEL) continue;
    task.ctx.SetTensors(absl::MakeConstSpan(in_ptrs_.data() + task.in_begin, task.in_count),
                        absl::MakeConstSpan(out_ptrs_.data() + task.out_begin, task.out_count));
    task.ctx.SetIrInputs(absl::MakeConstSpan(ir_.data() + task.ir_begin, task.ir_count));
    task.ctx.SetWorkspaces(absl::MakeConstSpan(workspaces_.data() + task.ws_begin, task.ws_count));
  }
  return OkStatus();
}

Status StaticExecutor::Run(absl::Span<const gert::Tensor> inputs,
                           absl::Span<gert::Tensor> outputs) {
  const proto::ModelTaskDef& td = *td_;
  RETURN_IF_ERROR(CheckUserTensorCount(static_cast<size_t>(td.input_size()), inputs.size(), "input"));
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
    uint8_t* base = p.is_output ? static_cast<uint8_t*>(outputs[p.index].GetAddr())
                                : static_cast<uint8_t*>(const_cast<void*>(inputs[p.index].GetAddr()));
    p.tensor->SetData(base == nullptr ? nullptr : base + p.offset, static_cast<size_t>(p.size));
  }
  for (size_t i = 0; i < tasks_.size(); ++i) {
    Task& t = tasks_[i];
    switch (t.type) {
      case proto::TASK_KERNEL: {
        Status st = t.fn(t.ctx);
        if (!st.ok()) {
          proto::TaskDef scratch;  // the error path may allocate
          const proto::TaskDef* def = TaskDefAt(i, &scratch);
          return Annotate(st, def != nullptr ? TaskHead(*def, i) : absl::StrCat("task ", i, ": "),
                          "kernel: ");
        }
        break;
      }
      case proto::TASK_MEMCPY:
        if (t.copy_bytes > 0) {
          std::memmove(out_ptrs_[t.out_begin]->GetAddr(), in_ptrs_[t.in_begin]->GetAddr(),
                       t.copy_bytes);
        }
        break;
      default:  // events: tasks already run in a valid sequential order
        break;
    }
  }
  return OkStatus();
}

}  // namespace ge
