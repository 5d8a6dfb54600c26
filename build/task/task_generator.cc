// build/task/task_generator.cc
#include "build/task/task_generator.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/barrier.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/register/inc/register/op_registry.h"

namespace ge {

bool IsNonKernelType(const std::string& type) {
  return type == "Data" || type == "RefData" || type == "Const" || type == "Constant" ||
         type == "NetOutput" || type == "NoOp";
}

void FillTensorRef(const TensorSlot& slot, const GeTensorDesc& desc, proto::TensorRef* ref) {
  ref->set_kind(slot.kind);
  if (slot.kind == proto::MEM_MODEL_INPUT || slot.kind == proto::MEM_MODEL_OUTPUT) {
    ref->set_index(slot.index);
  }
  ref->set_offset(slot.offset);
  ref->set_size(slot.size);
  ref->set_data_type(static_cast<int32_t>(desc.GetDataType()));
  absl::Span<const int64_t> dims = desc.GetShape().GetDimsSpan();
  ref->mutable_dims()->Reserve(static_cast<int>(dims.size()));
  for (int64_t d : dims) ref->add_dims(d);
}

namespace {

// Read-only view of output `k` of `op`: PeekOutputDesc neither copies nor
// unshares the pooled description (GetOutputDescBarePtr would, per port),
// so workers on different nodes never write to the graph. A missing desc
// reads as the default one.
const GeTensorDesc& OutputDesc(const OpDesc& op, uint32_t k) {
  static const GeTensorDesc* const kNone = new GeTensorDesc();
  const GeTensorDesc* d = op.PeekOutputDesc(k);
  return d != nullptr ? *d : *kNone;
}

Status FillTask(Node* node, absl::Span<Node* const> nodes, const std::vector<NodeMemory>& mem,
                const std::string& default_engine, proto::TaskDef* task) {
  const OpDesc* op = node->GetOpDescBarePtr();
  const size_t id = static_cast<size_t>(op->GetId());
  task->set_type(proto::TASK_KERNEL);
  task->set_node_name(op->GetName());
  task->set_op_type(op->GetType());
  task->set_op_index(op->GetId());
  const std::string& engine = op->GetOpEngineName();
  task->set_engine(engine.empty() ? default_engine : engine);
  task->set_kernel_name(op->GetType());  // the host kernels are keyed by op type
  task->set_stream_id(static_cast<uint32_t>(op->GetStreamId()));

  const size_t num_in = node->GetAllInDataAnchorsSize();
  task->mutable_input()->Reserve(static_cast<int>(num_in));
  for (size_t i = 0; i < num_in; ++i) {
    proto::TensorRef* ref = task->add_input();
    const InDataAnchor* in = node->GetInDataAnchorBarePtr(static_cast<int32_t>(i));
    const OutDataAnchor* peer = in == nullptr ? nullptr : in->GetPeerOutAnchorPtr();
    if (peer == nullptr) {
      ref->set_kind(proto::MEM_ABSENT);  // unconnected (optional) input
      continue;
    }
    const Node* src = peer->GetOwnerNodeBarePtr();
    const int64_t src_id = src->GetOpDescBarePtr()->GetId();
    const uint32_t out = static_cast<uint32_t>(peer->GetIdx());
    if (src_id < 0 || static_cast<size_t>(src_id) >= nodes.size() || nodes[src_id] != src ||
        out >= mem[src_id].outputs.size()) {
      return GraphInvalid("input ", i, " of '", op->GetName(), "' comes from '", src->GetName(),
                          "':", out, " which has no planned memory");
    }
    FillTensorRef(mem[src_id].outputs[out], OutputDesc(*src->GetOpDescBarePtr(), out), ref);
  }
  const NodeMemory& m = mem[id];
  task->mutable_output()->Reserve(static_cast<int>(m.outputs.size()));
  // An optional output nothing reads (MaxPool's Indices, ...) is absent:
  // the kernel gets a null output and need not compute it.
  const OpRegistrationData* reg = OpRegistry::Instance().Find(op->GetType());
  const bool ir_outputs = reg != nullptr && reg->outputs.size() == m.outputs.size();
  for (size_t k = 0; k < m.outputs.size(); ++k) {
    proto::TensorRef* ref = task->add_output();
    const OutDataAnchor* out = node->GetOutDataAnchorBarePtr(static_cast<int32_t>(k));
    if (ir_outputs && reg->outputs[k].kind == IoKind::kOptional &&
        (out == nullptr || out->GetPeerInDataNodesSize() == 0)) {
      ref->set_kind(proto::MEM_ABSENT);
      continue;
    }
    FillTensorRef(m.outputs[k], OutputDesc(*op, static_cast<uint32_t>(k)), ref);
  }
  if (!m.workspaces.empty())
    task->mutable_workspace()->Reserve(static_cast<int>(m.workspaces.size()));
  for (const TensorSlot& ws : m.workspaces) {
    proto::TensorRef* ref = task->add_workspace();
    ref->set_kind(proto::MEM_ARENA);
    ref->set_offset(ws.offset);
    ref->set_size(ws.size);
    ref->set_data_type(static_cast<int32_t>(DT_UINT8));
    ref->add_dims(static_cast<int64_t>(ws.size));
  }
  return OkStatus();
}

}  // namespace

Status TaskGenerator::Generate(absl::Span<Node* const> nodes, const std::vector<NodeMemory>& mem,
                               proto::ModelTaskDef* task_def) const {
  if (task_def == nullptr) return ParamInvalid("task_def is null");
  if (mem.size() != nodes.size()) {
    return ParamInvalid("memory plan has ", mem.size(), " entries for ", nodes.size(), " nodes");
  }
  const int base = task_def->task_size();
  size_t threads = options_.num_threads > 0 ? static_cast<size_t>(options_.num_threads)
                                            : std::max(1u, std::thread::hardware_concurrency());
  const size_t min_chunk = std::max<size_t>(1, options_.min_nodes_per_thread);
  threads = std::max<size_t>(1, std::min(threads, (nodes.size() + min_chunk - 1) / min_chunk));
  const size_t chunk = (nodes.size() + threads - 1) / threads;

  // One pass per worker over a contiguous node chunk: check the node, pick
  // the kernel nodes (types are interned: one check per distinct type run)
  // and build their tasks. There is no serial pre-scan (it cost two cache
  // misses per node on the calling thread). Worker 0 knows its first task
  // id (base); the others number from 0 and, once every worker has counted
  // its tasks (barrier), add the count of the chunks before theirs, while
  // their tasks are still in their core's cache.
  std::vector<std::vector<proto::TaskDef*>> made(threads);
  std::vector<Status> results(threads, OkStatus());
  std::unique_ptr<absl::Barrier> barrier;
  if (threads > 1) barrier = std::make_unique<absl::Barrier>(static_cast<int>(threads));
  auto work = [&](size_t w) {
    const size_t begin = std::min(nodes.size(), w * chunk);
    const size_t end = std::min(nodes.size(), begin + chunk);
    std::vector<proto::TaskDef*>& out = made[w];
    out.reserve(end - begin);
    const uint32_t first_id = w == 0 ? static_cast<uint32_t>(base) : 0u;
    const std::string* last_type = nullptr;
    bool last_is_kernel = false;
    for (size_t i = begin; i < end; ++i) {
      Node* node = nodes[i];
      if (node == nullptr) {
        results[w] = ParamInvalid("node ", i, " is null");
        break;
      }
      const OpDesc* op = node->GetOpDescBarePtr();
      if (op->GetId() != static_cast<int64_t>(i)) {
        results[w] = ParamInvalid("node '", node->GetName(), "' has id ", op->GetId(),
                                  ", expected its position ", i);
        break;
      }
      const std::string* type = op->GetInternedType();
      if (type == nullptr || type != last_type) {
        last_is_kernel = !IsNonKernelType(op->GetType());
        last_type = type;
      }
      if (!last_is_kernel) continue;
      auto* task = new proto::TaskDef();
      out.push_back(task);
      task->set_task_id(first_id + static_cast<uint32_t>(out.size() - 1));
      Status st = FillTask(node, nodes, mem, options_.default_engine, task);
      if (!st.ok()) {
        results[w] = std::move(st);
        break;
      }
    }
    if (barrier == nullptr) return;
    barrier->Block();  // every worker gets here, also after an error
    if (w == 0) return;
    size_t offset = static_cast<size_t>(base);
    for (size_t v = 0; v < w; ++v) offset += made[v].size();
    const uint32_t add = static_cast<uint32_t>(offset);
    for (proto::TaskDef* t : out) t->set_task_id(t->task_id() + add);
  };
  if (threads <= 1) {
    work(0);
  } else {
    std::vector<std::thread> pool;
    pool.reserve(threads - 1);
    for (size_t w = 1; w < threads; ++w) pool.emplace_back(work, w);
    work(0);
    for (std::thread& th : pool) th.join();
  }
  size_t num_tasks = 0;
  for (const auto& m : made) num_tasks += m.size();
  Status error = OkStatus();
  for (const Status& st : results) {
    if (!st.ok()) {  // first error by node order
      error = st;
      break;
    }
  }
  if (error.ok() && num_tasks > static_cast<size_t>(std::numeric_limits<int>::max() - base)) {
    error = OutOfRange(num_tasks, " kernel tasks do not fit a task list of ", base, " tasks");
  }
  if (!error.ok()) {  // task_def is left untouched
    for (const auto& m : made) {
      for (proto::TaskDef* t : m) delete t;
    }
    return error;
  }
  auto* tasks = task_def->mutable_task();
  tasks->Reserve(base + static_cast<int>(num_tasks));
  // Heap-allocated tasks into a heap-owned list: no arena check (which
  // would read every task once more) is needed.
  const bool heap_list = task_def->GetArena() == nullptr;
  for (const auto& m : made) {
    for (proto::TaskDef* t : m) {
      if (heap_list) {
        tasks->UnsafeArenaAddAllocated(t);
      } else {
        tasks->AddAllocated(t);  // the arena takes ownership
      }
    }
  }
  return OkStatus();
}

}  // namespace ge
