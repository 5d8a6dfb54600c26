// build/task/task_generator.cc
#include "build/task/task_generator.h"

#include <algorithm>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"

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

Status FillTask(Node* node, absl::Span<Node* const> nodes, const std::vector<NodeMemory>& mem,
                const std::string& default_engine, proto::TaskDef* task) {
  const OpDesc* op = node->GetOpDescBarePtr();
  const size_t id = static_cast<size_t>(op->GetId());
  task->set_type(proto::TASK_KERNEL);
  task->set_node_name(op->GetName());
  task->set_op_type(op->GetType());
  task->set_op_index(op->GetId());
  std::string engine = op->GetOpEngineName();
  task->set_engine(engine.empty() ? default_engine : std::move(engine));
  task->set_kernel_name(op->GetType());
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
    const GeTensorDesc* desc = src->GetOpDescBarePtr()->GetOutputDescBarePtr(out);
    FillTensorRef(mem[src_id].outputs[out], desc != nullptr ? *desc : GeTensorDesc(), ref);
  }
  const NodeMemory& m = mem[id];
  task->mutable_output()->Reserve(static_cast<int>(m.outputs.size()));
  for (size_t k = 0; k < m.outputs.size(); ++k) {
    const GeTensorDesc* desc = op->GetOutputDescBarePtr(static_cast<uint32_t>(k));
    FillTensorRef(m.outputs[k], desc != nullptr ? *desc : GeTensorDesc(), task->add_output());
  }
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
  // Which nodes get a task, and the task slot of each.
  std::vector<Node*> kernel_nodes;
  kernel_nodes.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    Node* node = nodes[i];
    if (node == nullptr) return ParamInvalid("node ", i, " is null");
    if (node->GetOpDescBarePtr()->GetId() != static_cast<int64_t>(i)) {
      return ParamInvalid("node '", node->GetName(), "' has id ", node->GetOpDescBarePtr()->GetId(),
                          ", expected its position ", i);
    }
    if (!IsNonKernelType(node->GetType())) kernel_nodes.push_back(node);
  }
  const int base = task_def->task_size();
  auto* tasks = task_def->mutable_task();
  tasks->Reserve(base + static_cast<int>(kernel_nodes.size()));
  for (size_t t = 0; t < kernel_nodes.size(); ++t) tasks->Add()->set_task_id(static_cast<uint32_t>(base + t));

  size_t threads = options_.num_threads > 0 ? static_cast<size_t>(options_.num_threads)
                                            : std::max(1u, std::thread::hardware_concurrency());
  const size_t min_chunk = std::max<size_t>(1, options_.min_nodes_per_thread);
  threads = std::max<size_t>(1, std::min(threads, (kernel_nodes.size() + min_chunk - 1) / min_chunk));
  const size_t chunk = threads == 0 ? 0 : (kernel_nodes.size() + threads - 1) / threads;
  std::vector<Status> results(threads, OkStatus());
  auto work = [&](size_t w) {
    const size_t begin = w * chunk;
    const size_t end = std::min(kernel_nodes.size(), begin + chunk);
    for (size_t t = begin; t < end; ++t) {
      Status st = FillTask(kernel_nodes[t], nodes, mem, options_.default_engine,
                           tasks->Mutable(base + static_cast<int>(t)));
      if (!st.ok()) {
        results[w] = std::move(st);
        return;
      }
    }
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
  for (const Status& st : results) RETURN_IF_ERROR(st);  // first error by node order
  return OkStatus();
}

}  // namespace ge
