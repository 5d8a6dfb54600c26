// GraphManager implementation; see graph_manager.h.
#include "compiler/manager/graph_manager.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler/manager/session_options.h"

namespace ge {

Status GraphManager::Initialize(const std::map<std::string, std::string>& options) {
  if (initialized_) return ParamInvalid("GraphManager is already initialized");
  Status st = ValidateOptions(options);
  if (!st.ok()) return Annotate(st, "session options: ");
  // Combinations (e.g. buildStep without tuning) are checked here too.
  auto compile = ToCompileOptions(options);
  if (!compile.ok()) return Annotate(compile.status(), "session options: ");
  session_options_ = options;
  initialized_ = true;
  return OkStatus();
}

Status GraphManager::CheckInitialized(const char* what) const {
  if (!initialized_) return ParamInvalid(what, ": GraphManager is not initialized");
  return OkStatus();
}

StatusOr<GraphManager::GraphEntry*> GraphManager::Find(uint32_t graph_id, const char* what) {
  RETURN_IF_ERROR(CheckInitialized(what));
  auto it = graphs_.find(graph_id);
  if (it == graphs_.end()) return NotFound(what, ": graph id ", graph_id, " has not been added");
  return &it->second;
}

StatusOr<const GraphManager::GraphEntry*> GraphManager::Find(uint32_t graph_id,
                                                             const char* what) const {
  RETURN_IF_ERROR(CheckInitialized(what));
  auto it = graphs_.find(graph_id);
  if (it == graphs_.end()) return NotFound(what, ": graph id ", graph_id, " has not been added");
  return &it->second;
}

Status GraphManager::AddGraph(uint32_t graph_id, const ComputeGraphPtr& graph,
                              const std::map<std::string, std::string>& options) {
  RETURN_IF_ERROR(CheckInitialized("AddGraph"));
  if (graph == nullptr) return ParamInvalid("AddGraph: graph id ", graph_id, " is null");
  if (graphs_.count(graph_id) != 0) {
    return AlreadyExists("AddGraph: graph id ", graph_id, " is already in use by graph '",
                         graphs_[graph_id].graph->GetName(), "'");
  }
  Status st = ValidateOptions(options);
  if (!st.ok()) return Annotate(st, "AddGraph: graph id ", graph_id, " options: ");
  std::map<std::string, std::string> merged = MergeOptions(session_options_, options);
  auto compile = ToCompileOptions(merged);
  if (!compile.ok()) return Annotate(compile.status(), "AddGraph: graph id ", graph_id, ": ");
  graph->SetGraphID(graph_id);
  GraphEntry entry;
  entry.graph = graph;
  entry.options = std::move(merged);
  graphs_.emplace(graph_id, std::move(entry));
  return OkStatus();
}

Status GraphManager::BuildGraph(uint32_t graph_id) {
  ASSIGN_OR_RETURN(GraphEntry * entry, Find(graph_id, "BuildGraph"));
  if (entry->state == GraphState::kCompiled) return OkStatus();
  ASSIGN_OR_RETURN(CompileOptions options, ToCompileOptions(entry->options));
  options.observer = observer_;
  auto result = stages_.Compile(entry->graph, options);
  if (!result.ok()) return Annotate(result.status(), "BuildGraph: graph id ", graph_id, ": ");
  entry->graph = result->graph;
  entry->graph->SetGraphID(graph_id);
  entry->state = result->stopped ? GraphState::kStopped : GraphState::kCompiled;
  entry->tuning_file = result->tuning_file;
  return OkStatus();
}

StatusOr<ComputeGraphPtr> GraphManager::GetCompiledGraph(uint32_t graph_id) const {
  ASSIGN_OR_RETURN(const GraphEntry* entry, Find(graph_id, "GetCompiledGraph"));
  if (entry->state != GraphState::kCompiled) {
    return ParamInvalid("GetCompiledGraph: graph id ", graph_id, " has not been built",
                        entry->state == GraphState::kStopped ? " (stopped at a tuning break point)"
                                                             : "");
  }
  return entry->graph;
}

Status GraphManager::RemoveGraph(uint32_t graph_id) {
  RETURN_IF_ERROR(Find(graph_id, "RemoveGraph").status());
  graphs_.erase(graph_id);
  return OkStatus();
}

Status GraphManager::RunGraph(uint32_t graph_id, const std::vector<gert::HostTensor>& inputs,
                              std::vector<gert::HostTensor>* outputs) {
  if (outputs == nullptr) return ParamInvalid("RunGraph: graph id ", graph_id, ": null outputs");
  ASSIGN_OR_RETURN(GraphEntry * entry, Find(graph_id, "RunGraph"));
  if (executor_ == nullptr) {
    return NotSupported("RunGraph: graph id ", graph_id, ": no executor is set");
  }
  if (entry->state == GraphState::kAdded) RETURN_IF_ERROR(BuildGraph(graph_id));
  if (entry->state == GraphState::kStopped) {
    return ParamInvalid("RunGraph: graph id ", graph_id,
                        " stopped at a tuning break point; resume the build first");
  }
  Status st = executor_->Run(*entry->graph, inputs, outputs);
  if (!st.ok()) return Annotate(st, "RunGraph: graph id ", graph_id, ": ");
  return OkStatus();
}

StatusOr<GraphState> GraphManager::GetGraphState(uint32_t graph_id) const {
  ASSIGN_OR_RETURN(const GraphEntry* entry, Find(graph_id, "GetGraphState"));
  return entry->state;
}

StatusOr<std::string> GraphManager::GetTuningFile(uint32_t graph_id) const {
  ASSIGN_OR_RETURN(const GraphEntry* entry, Find(graph_id, "GetTuningFile"));
  return entry->tuning_file;
}

std::vector<uint32_t> GraphManager::GraphIds() const {
  std::vector<uint32_t> ids;
  for (const auto& [id, entry] : graphs_) ids.push_back(id);
  return ids;
}

}  // namespace ge
