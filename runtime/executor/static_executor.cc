// runtime/executor/static_executor.cc
#include "runtime/executor/static_executor.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
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
  const proto::TaskDef* def = nullptr;
  KernelFn fn = nullptr;
  gert::KernelContext ctx;
  uint32_t in_begin = 0, in_count = 0;
  uint32_t out_begin = 0, out_count = 0;
  uint32_t ir_begin = 0, ir_count = 0;
  uint32_t ws_begin = 0, ws_count = 0;
  // TASK_MEMCPY
  const gert::Tensor* copy_src = nullptr;
  gert::Tensor* copy_dst = nullptr;
  size_t copy_bytes = 0;
};

// A tensor view whose data pointer is the user's buffer + offset.
struct StaticExecutor::Patch {
  gert::Tensor* tensor = nullptr;
  bool is_output = false;
  uint32_t index = 0;
  uint64_t offset = 0;
  uint64_t size = 0;
};

StaticExecutor::StaticExecutor(GeModelPtr model) : model_(std::move(model)) {}

StaticExecutor::~StaticExecutor() {
  if (arena_ != nullptr) ::munmap(arena_, arena_mapped_bytes_);
}

StatusOr<std::unique_ptr<StaticExecutor>> StaticExecutor::Create(
    GeModelPtr model, const StaticExecutorOptions& options) {
  if (model == nullptr) return ParamInvalid("StaticExecutor: null model");
  if (model->task_def.dynamic()) {
    return ParamInvalid("model '", model->name,
                        "' is dynamic (task_def.dynamic); use the dynamic executor");
  }
  if (model->graph == nullptr) return ParamInvalid("model '", model->name, "' has no graph");
  std::unique_ptr<StaticExecutor> exec(new StaticExecutor(std::move(model)));
  RETURN_IF_ERROR(Annotate(exec->Prepare(options), "model '", exec->model_->name, "': "));
  return exec;
}

Status StaticExecutor::Prepare(const StaticExecutorOptions& options) {
  const proto::ModelTaskDef& td = model_->task_def;
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
  const WeightBuffer& w = model_->weights;

  // Node lookup by OpDesc id (root graph): ids are the node positions in a
  // built model, so a dense table; other ids (hand-made graphs) go to a map.
  // A null entry with `shared` set marks an id used by several nodes.
  const std::vector<Node*>& graph_nodes = model_->graph->GetDirectNodePtr();
  struct IdEntry {
    Node* node = nullptr;
    bool shared = false;
  };
  std::vector<IdEntry> dense(graph_nodes.size());
  absl::flat_hash_map<int64_t, IdEntry> sparse;
  for (Node* n : graph_nodes) {
    const int64_t id = n->GetOpDescBarePtr()->GetId();
    IdEntry& e = id >= 0 && static_cast<uint64_t>(id) < dense.size() ? dense[static_cast<size_t>(id)]
                                                                     : sparse[id];
    if (e.node != nullptr) e.shared = true;
    e.node = n;
  }
  auto find_id = [&](int64_t id) -> const IdEntry* {
    if (id >= 0 && static_cast<uint64_t>(id) < dense.size()) {
      const IdEntry& e = dense[static_cast<size_t>(id)];
      return e.node == nullptr ? nullptr : &e;
    }
    auto it = sparse.find(id);
    return it == sparse.end() ? nullptr : &it->second;
  };

  // Sizes of the flat arrays: one pass over the task list, so that they are
  // allocated once and the pointers into them stay valid.
  size_t n_views = 0, n_in = 0, n_out = 0, n_ws = 0;
  for (const proto::TaskDef& def : td.task()) {
    n_in += static_cast<size_t>(def.input_size());
    n_out += static_cast<size_t>(def.output_size());
    n_ws += static_cast<size_t>(def.workspace_size());
  }
  n_views = n_in + n_out;
  if (n_views > std::numeric_limits<uint32_t>::max() || n_ws > std::numeric_limits<uint32_t>::max()) {
    return OutOfRange("the task list has ", n_views, " tensor refs and ", n_ws,
                      " workspaces (limit ", std::numeric_limits<uint32_t>::max(), ")");
  }
  tasks_.reserve(static_cast<size_t>(td.task_size()));
  views_.reserve(n_views);
  in_ptrs_.reserve(n_in);
  out_ptrs_.reserve(n_out);
  workspaces_.reserve(n_ws);
  ir_.reserve(n_in);

  // Scratch of the output check, reused by every task (no per-task
  // allocation once it has grown to the widest task).
  std::vector<const gert::Shape*> s_in_shapes;
  std::vector<DataType> s_in_dtypes;
  std::vector<const gert::Tensor*> s_in_values;
  std::vector<gert::Shape> s_out_shapes;
  std::vector<DataType> s_out_dtypes;
  std::vector<gert::Shape*> s_out_shape_ptrs;
  std::vector<DataType*> s_out_dtype_ptrs;
  gert::Shape unknown_rank;
  unknown_rank.AppendDim(UNKNOWN_RANK);

  // Input views shared by equal refs (read-only to kernels).
  absl::flat_hash_map<InputRefKey, gert::Tensor*> shared_inputs;

  OpRegistry& registry = OpRegistry::Instance();
  // Consecutive tasks mostly share their kernel key: one registry lookup per
  // run of equal keys.
  const std::string* last_key = nullptr;
  const OpRegistrationData* last_reg = nullptr;

  for (int ti = 0; ti < td.task_size(); ++ti) {
    const proto::TaskDef& def = td.task(ti);
    const size_t pos = static_cast<size_t>(ti);
    // Message prefixes are built only on failure (no per-task strings).
    auto head = [&def, pos]() { return TaskHead(def, pos); };
    Task& task = tasks_.emplace_back();
    task.type = def.type();
    task.def = &def;
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
      gert::Tensor* view = &views_.emplace_back();
      gert::Shape& shape = view->MutableShape();
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
          Patch p;
          p.tensor = view;
          p.is_output = out;
          p.index = ref.index();
          p.offset = ref.offset();
          p.size = ref.size();
          patches_.push_back(p);
          break;
        }
        default:
          return ParamInvalid(where(), "invalid memory kind ", static_cast<int>(ref.kind()));
      }
      view->SetDataType(dt);
      view->SetData(data, static_cast<size_t>(ref.size()));
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
      auto [it, inserted] = shared_inputs.try_emplace(InputRefKey(ref), nullptr);
      if (inserted) {
        StatusOr<gert::Tensor*> view = make_view(ref, "input", i, false);
        if (!view.ok()) return view.status();
        it->second = *view;
      }
      in_ptrs_.push_back(it->second);
    }
    task.out_begin = static_cast<uint32_t>(out_ptrs_.size());
    task.out_count = static_cast<uint32_t>(def.output_size());
    for (int i = 0; i < def.output_size(); ++i) {
      const proto::TensorRef& ref = def.output(i);
      if (ref.kind() == proto::MEM_ABSENT) {  // an unused optional output
        out_ptrs_.push_back(nullptr);
        continue;
      }
      ASSIGN_OR_RETURN(gert::Tensor * view, make_view(ref, "output", i, true));
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
        task.copy_src = ins[0];
        task.copy_dst = outs[0];
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

    // TASK_KERNEL: the node, the registration, the kernel.
    const IdEntry* entry = find_id(def.op_index());
    if (entry == nullptr) {
      return NotFound(head(), "op_index ", def.op_index(), " is not a node of graph '",
                      model_->graph->GetName(), "'");
    }
    if (entry->shared) {
      return GraphInvalid(head(), "op_index ", def.op_index(), " is shared by several nodes");
    }
    const Node& node = *entry->node;
    const OpDesc& op = *node.GetOpDescBarePtr();
    if (node.GetType() != def.op_type()) {
      return GraphInvalid(head(), "op_index ", def.op_index(), " is node '", node.GetName(),
                          "' of type ", node.GetType(), ", not ", def.op_type());
    }
    const std::string& kernel_key = def.kernel_name().empty() ? def.op_type() : def.kernel_name();
    const OpRegistrationData* reg = nullptr;
    if (last_key != nullptr && *last_key == kernel_key) {
      reg = last_reg;
    } else {
      reg = registry.Find(kernel_key);
      if (reg == nullptr) {
        StatusOr<const OpRegistrationData*> r = registry.Get(kernel_key);
        return Annotate(r.ok() ? NotFound("op type ", kernel_key, " is not registered") : r.status(),
                        head());
      }
      last_key = &kernel_key;
      last_reg = reg;
    }
    const OpKernelDef* kernel = reg->FindKernel(def.engine());
    if (kernel == nullptr || kernel->fn == nullptr) {
      std::vector<std::string> engines;
      for (const OpKernelDef& k : reg->kernels) engines.push_back(k.engine);
      return NotSupported(head(), "op ", kernel_key, " has no kernel for engine '", def.engine(),
                          "' (kernels: ", engines.empty() ? "none" : absl::StrJoin(engines, ", "),
                          ")");
    }
    task.fn = kernel->fn;

    // IR mapping and input data types.
    const size_t slots = task.in_count;
    StatusOr<std::vector<gert::IrInstance>> mapped = MapInputSlotsToIr(op, *reg, slots);
    if (!mapped.ok()) return Annotate(mapped.status(), head());
    std::vector<gert::IrInstance>& ir = *mapped;
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
    task.ir_begin = static_cast<uint32_t>(ir_.size());
    task.ir_count = static_cast<uint32_t>(ir.size());
    ir_.insert(ir_.end(), ir.begin(), ir.end());

    // Verify / infer: the declared outputs are exactly what the op produces.
    // The context is wired over the views and the reused scratch.
    const size_t n_outs = task.out_count;
    s_in_shapes.resize(slots);
    s_in_dtypes.resize(slots);
    s_in_values.resize(slots);
    for (size_t s = 0; s < slots; ++s) {
      const gert::Tensor* t = ins[s];
      s_in_shapes[s] = t == nullptr ? nullptr : &t->GetShape();
      s_in_dtypes[s] = t == nullptr ? DT_UNDEFINED : t->GetDataType();
      // Weight inputs' values are known (data-dependent shapes: Reshape, ...).
      s_in_values[s] =
          t != nullptr && def.input(static_cast<int>(s)).kind() == proto::MEM_WEIGHTS ? t : nullptr;
    }
    if (s_out_shapes.size() < n_outs) {
      s_out_shapes.resize(n_outs);
      s_out_dtypes.resize(n_outs);
      s_out_shape_ptrs.resize(n_outs);
      s_out_dtype_ptrs.resize(n_outs);
    }
    for (size_t i = 0; i < n_outs; ++i) {
      s_out_shapes[i] = unknown_rank;
      const GeTensorDesc* desc = op.GetOutputDescBarePtr(static_cast<uint32_t>(i));
      s_out_dtypes[i] = desc != nullptr ? desc->GetDataType() : DT_UNDEFINED;
      s_out_shape_ptrs[i] = &s_out_shapes[i];
      s_out_dtype_ptrs[i] = &s_out_dtypes[i];
    }
    gert::InferShapeContext ictx;
    ictx.SetNode(node.GetName(), node.GetType());
    ictx.SetAttrHolder(&op);
    ictx.SetInputs(absl::MakeConstSpan(s_in_shapes.data(), slots),
                   absl::MakeConstSpan(s_in_dtypes.data(), slots),
                   absl::MakeConstSpan(s_in_values.data(), slots));
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
    for (size_t i = 0; i < n_outs; ++i) {
      const gert::Tensor* t = outs[i];
      if (t == nullptr) continue;  // MEM_ABSENT
      const gert::Shape& inferred = s_out_shapes[i];
      if (inferred != t->GetShape()) {
        return ParamInvalid(head(), "output ", i, " is declared ", t->GetShape().ToString(),
                            " but the op infers ", inferred.ToString());
      }
      if (s_out_dtypes[i] != t->GetDataType()) {
        return ParamInvalid(head(), "output ", i, " is declared ", DtName(t->GetDataType()),
                            " but the op infers ", DtName(s_out_dtypes[i]));
      }
    }

    // The kernel context (spans are wired below, once the arrays are final).
    gert::KernelContext& kctx = task.ctx;
    kctx.SetNode(node.GetName(), node.GetType());
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
  const proto::ModelTaskDef& td = model_->task_def;
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
        if (!st.ok()) return Annotate(st, TaskHead(*t.def, i), "kernel: ");
        break;
      }
      case proto::TASK_MEMCPY:
        if (t.copy_bytes > 0) {
          std::memmove(t.copy_dst->GetAddr(), t.copy_src->GetAddr(), t.copy_bytes);
        }
        break;
      default:  // events: tasks already run in a valid sequential order
        break;
    }
  }
  return OkStatus();
}

}  // namespace ge
