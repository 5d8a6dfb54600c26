// runtime/executor/static_executor.cc
//
// The StaticExecutor object: Create (argument checks, then the load-time
// preparation of static_executor_prepare.cc) and its lifetime. The run path
// is static_executor_run.cc.
#include "runtime/executor/static_executor.h"

#include <sys/mman.h>

#include <cstdlib>
#include <memory>
#include <new>
#include <utility>
#include <vector>

#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "runtime/executor/static_executor_records.h"

namespace ge {

using static_executor_internal::kViewChunk;

StaticExecutor::StaticExecutor(StaticModelParts parts)
    : parts_(std::move(parts)), td_(parts_.task_def) {}

void StaticExecutor::ViewChunkDeleter::operator()(gert::Tensor* chunk) const {
  std::destroy_n(chunk, kViewChunk);
  ::operator delete(chunk);
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
  if (parts.plan != nullptr &&
      (!parts.task_bytes.empty() || parts.task_def->task_size() != 0 || !parts.ops.empty())) {
    return ParamInvalid("model '", parts.name, "': a launch plan and also tasks or ops");
  }
  if (!parts.task_bytes.empty() && parts.task_def->task_size() != 0) {
    return ParamInvalid("model '", parts.name, "': tasks both in task_def (",
                        parts.task_def->task_size(), ") and as bytes (", parts.task_bytes.size(),
                        ")");
  }
  std::unique_ptr<StaticExecutor> exec(new StaticExecutor(std::move(parts)));
  RETURN_IF_ERROR(Annotate(exec->Prepare(options), "model '", exec->parts_.name, "': "));
  return exec;
}

}  // namespace ge

namespace ge {

void StaticExecutor::FreeDeleter::operator()(void* p) const { std::free(p); }

uint64_t StaticExecutor::replanned_workspace_bytes() const {
  uint64_t total = 0;
  for (uint64_t b : overflow_bytes_) total += b;
  return total;
}

std::vector<std::string> StaticExecutor::engines() const {
  return std::vector<std::string>(engines_used_.begin(), engines_used_.end());
}

}  // namespace ge
