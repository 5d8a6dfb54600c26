// runtime/executor/static_executor.cc
#include "runtime/executor/static_executor.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
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

}  // namespace

// One prepared task. Its vectors are sized once at load and never resized,
// so the pointers into them (context spans, patches) stay valid.
struct StaticExecutor::Task {
  proto::TaskType type = proto::TASK_KERNEL;
  const proto::TaskDef* def = nullptr;
  KernelFn fn = nullptr;
  std::vector<gert::Tensor> inputs;
  std::vector<gert::Tensor> outputs;
  std::vector<void*> workspaces;
  gert::KernelRunContextBuilder builder;
  gert::KernelContext* ctx = nullptr;
  // TASK_MEMCPY
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

  OpRegistry& registry = OpRegistry::Instance();
  tasks_.reserve(static_cast<size_t>(td.task_size()));
  for (int ti = 0; ti < td.task_size(); ++ti) {
    const proto::TaskDef& def = td.task(ti);
    const size_t pos = static_cast<size_t>(ti);
    // Message prefixes are built only on failure (no per-task strings).
    auto head = [&def, pos]() { return TaskHead(def, pos); };
    auto task = std::make_unique<Task>();
    task->type = def.type();
    task->def = &def;
    if (def.stream_id() != 0 && def.stream_id() >= td.stream_num()) {
      return OutOfRange(head(), "stream_id ", def.stream_id(), " >= stream_num ", td.stream_num());
    }

    // Views of every ref.
    auto make_view = [&](const proto::TensorRef& ref, const char* role, int i,
                         gert::Tensor* view, bool writable) -> Status {
      auto where = [&]() { return absl::StrCat(head(), role, " ", i, " (", KindName(ref.kind()), "): "); };
      if (!proto::MemKind_IsValid(ref.kind())) {
        return ParamInvalid(where(), "invalid memory kind ", static_cast<int>(ref.kind()));
      }
      if (ref.kind() == proto::MEM_ABSENT) return OkStatus();
      if (!TypeUtils::IsDataTypeValid(ref.data_type())) {
        return ParamInvalid(where(), "invalid data type ", ref.data_type());
      }
      const DataType dt = static_cast<DataType>(ref.data_type());
      if (dt == DT_UNDEFINED || dt == DT_STRING || dt == DT_VARIANT || dt == DT_RESOURCE ||
          dt == DT_STRING_REF) {
        return NotSupported(where(), "data type ", DtName(dt), " cannot live in a static model");
      }
      StatusOr<gert::Shape> shape = gert::Shape::FromDims(ref.dims());
      if (!shape.ok()) return Annotate(shape.status(), where());
      if (shape->IsUnknownShape()) {
        return ParamInvalid(where(), "dims ", shape->ToString(), " are not static");
      }
      const int64_t count = shape->GetShapeSize();
      if (count < 0) return Overflow(where(), "element count of ", shape->ToString(), " overflows");
      StatusOr<size_t> need = gert::HostStorageBytes(dt, count);
      if (!need.ok()) return Annotate(need.status(), where());
      if (ref.size() < *need) {
        return ParamInvalid(where(), "size ", ref.size(), " is smaller than the ", *need,
                            " bytes of ", shape->ToString(), " ", DtName(dt));
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
          break;
      }
      *view = gert::Tensor(*shape, dt, data, static_cast<size_t>(ref.size()));
      return OkStatus();
    };

    task->inputs.resize(static_cast<size_t>(def.input_size()));
    task->outputs.resize(static_cast<size_t>(def.output_size()));
    for (int i = 0; i < def.input_size(); ++i) {
      RETURN_IF_ERROR(make_view(def.input(i), "input", i, &task->inputs[i], false));
    }
    for (int i = 0; i < def.output_size(); ++i) {
      if (def.output(i).kind() == proto::MEM_ABSENT) continue;  // unused optional output
      RETURN_IF_ERROR(make_view(def.output(i), "output", i, &task->outputs[i], true));
    }
    task->workspaces.resize(static_cast<size_t>(def.workspace_size()), nullptr);
    for (int i = 0; i < def.workspace_size(); ++i) {
      const proto::TensorRef& ref = def.workspace(i);
      if (ref.kind() != proto::MEM_ARENA || !FitsIn(ref.offset(), ref.size(), arena_size_)) {
        return ParamInvalid(head(), "workspace ", i, " must be an ARENA ref within memory_size ",
                            arena_size_);
      }
      task->workspaces[i] = arena_ == nullptr ? nullptr : arena_ + ref.offset();
    }

    switch (def.type()) {
      case proto::TASK_KERNEL:
        break;
      case proto::TASK_MEMCPY: {
        if (def.input_size() != 1 || def.output_size() != 1 ||
            def.input(0).kind() == proto::MEM_ABSENT ||
            def.output(0).kind() == proto::MEM_ABSENT) {
          return ParamInvalid(head(), "a memcpy needs one input and one output, got ",
                              def.input_size(), " and ", def.output_size());
        }
        if (def.output(0).size() < def.input(0).size()) {
          return ParamInvalid(head(), "output of ", def.output(0).size(),
                              " bytes cannot hold the input of ", def.input(0).size());
        }
        task->copy_bytes = static_cast<size_t>(def.input(0).size());
        tasks_.push_back(std::move(task));
        continue;
      }
      case proto::TASK_EVENT_RECORD:
      case proto::TASK_EVENT_WAIT:
        if (def.event_id() >= td.event_num()) {
          return OutOfRange(head(), "event_id ", def.event_id(), " >= event_num ", td.event_num());
        }
        tasks_.push_back(std::move(task));
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
    const OpRegistrationData* reg = registry.Find(kernel_key);
    if (reg == nullptr) {
      StatusOr<const OpRegistrationData*> r = registry.Get(kernel_key);
      return Annotate(r.ok() ? NotFound("op type ", kernel_key, " is not registered") : r.status(),
                      head());
    }
    const OpKernelDef* kernel = reg->FindKernel(def.engine());
    if (kernel == nullptr || kernel->fn == nullptr) {
      std::vector<std::string> engines;
      for (const OpKernelDef& k : reg->kernels) engines.push_back(k.engine);
      return NotSupported(head(), "op ", kernel_key, " has no kernel for engine '", def.engine(),
                          "' (kernels: ", engines.empty() ? "none" : absl::StrJoin(engines, ", "),
                          ")");
    }
    task->fn = kernel->fn;

    // IR mapping and input data types.
    const size_t slots = task->inputs.size();
    StatusOr<std::vector<gert::IrInstance>> mapped = MapInputSlotsToIr(op, *reg, slots);
    if (!mapped.ok()) return Annotate(mapped.status(), head());
    std::vector<gert::IrInstance> ir = std::move(mapped).value();
    std::vector<const gert::Tensor*> in_ptrs(slots, nullptr);
    for (size_t s = 0; s < slots; ++s) {
      if (def.input(static_cast<int>(s)).kind() != proto::MEM_ABSENT) in_ptrs[s] = &task->inputs[s];
    }
    for (size_t k = 0; k < reg->inputs.size(); ++k) {
      const OpIoDef& io = reg->inputs[k];
      if (io.kind == IoKind::kOptional && ir[k].count == 1 && in_ptrs[ir[k].start] == nullptr) {
        ir[k].count = 0;
      }
      for (size_t s = ir[k].start; s < ir[k].start + ir[k].count; ++s) {
        if (in_ptrs[s] != nullptr && io.types.Contains(in_ptrs[s]->GetDataType())) continue;
        const std::string in_name = absl::StrCat("input ", s, " ('", io.name, "')");
        if (in_ptrs[s] == nullptr) return GraphInvalid(head(), in_name, " is absent but required");
        RETURN_IF_ERROR(Annotate(io.types.Check(in_name, in_ptrs[s]->GetDataType()), head()));
      }
    }

    // Verify / infer: the declared outputs are exactly what the op produces.
    gert::InferShapeContextBuilder ib;
    ib.Node(node.GetName(), node.GetType()).Attrs(&op);
    for (size_t s = 0; s < slots; ++s) {
      if (in_ptrs[s] == nullptr) {
        ib.AbsentInput();
      } else {
        const bool known = def.input(static_cast<int>(s)).kind() == proto::MEM_WEIGHTS;
        ib.Input(in_ptrs[s]->GetShape(), in_ptrs[s]->GetDataType(), known ? in_ptrs[s] : nullptr);
      }
    }
    const size_t n_out = task->outputs.size();
    ib.Outputs(n_out).IrInputs(ir);
    gert::Shape unknown_rank;
    unknown_rank.AppendDim(UNKNOWN_RANK);
    for (size_t i = 0; i < n_out; ++i) ib.OutputShape(i) = unknown_rank;
    gert::InferShapeContext& ictx = *ib.Build();
    for (size_t i = 0; i < n_out; ++i) {
      const GeTensorDesc* desc = op.GetOutputDescBarePtr(static_cast<uint32_t>(i));
      if (desc != nullptr) ictx.SetOutputDataType(i, desc->GetDataType());
    }
    if (reg->verify != nullptr) RETURN_IF_ERROR(Annotate(reg->verify(ictx), head(), "verify: "));
    if (reg->infer_data_type != nullptr) {
      RETURN_IF_ERROR(Annotate(reg->infer_data_type(ictx), head(), "infer data type: "));
    } else if (ictx.GetInputShape(0) != nullptr) {
      for (size_t i = 0; i < n_out; ++i) ictx.SetOutputDataType(i, ictx.GetInputDataType(0));
    }
    if (reg->infer_shape == nullptr) {
      return NotSupported(head(), "op ", reg->type,
                          " has no infer shape function; its outputs cannot be checked");
    }
    RETURN_IF_ERROR(Annotate(reg->infer_shape(ictx), head(), "infer shape: "));
    std::vector<gert::Tensor*> out_ptrs(n_out, nullptr);
    for (size_t i = 0; i < n_out; ++i) {
      if (def.output(static_cast<int>(i)).kind() == proto::MEM_ABSENT) continue;
      const gert::Tensor& t = task->outputs[i];
      const gert::Shape& inferred = *ictx.GetOutputShape(i);
      if (inferred != t.GetShape()) {
        return ParamInvalid(head(), "output ", i, " is declared ", t.GetShape().ToString(),
                            " but the op infers ", inferred.ToString());
      }
      if (ictx.GetOutputDataType(i) != t.GetDataType()) {
        return ParamInvalid(head(), "output ", i, " is declared ", DtName(t.GetDataType()),
                            " but the op infers ", DtName(ictx.GetOutputDataType(i)));
      }
      out_ptrs[i] = &task->outputs[i];
    }

    task->ctx = task->builder.Node(node.GetName(), node.GetType())
                    .Attrs(&op)
                    .Inputs(std::move(in_ptrs))
                    .Outputs(std::move(out_ptrs))
                    .IrInputs(std::move(ir))
                    .Allocator(&g_refusing_allocator)
                    .Workspaces(task->workspaces)
                    .Build();
    ++kernel_tasks_;
    tasks_.push_back(std::move(task));
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
    Task& t = *tasks_[i];
    switch (t.type) {
      case proto::TASK_KERNEL: {
        Status st = t.fn(*t.ctx);
        if (!st.ok()) return Annotate(st, TaskHead(*t.def, i), "kernel: ");
        break;
      }
      case proto::TASK_MEMCPY:
        if (t.copy_bytes > 0) {
          std::memmove(t.outputs[0].GetAddr(), t.inputs[0].GetAddr(), t.copy_bytes);
        }
        break;
      default:  // events: tasks already run in a valid sequential order
        break;
    }
  }
  return OkStatus();
}

}  // namespace ge
