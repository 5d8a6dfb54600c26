// GraphManager implementation; see graph_manager.h.
#include "runtime/manager/graph_manager.h"

#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler/manager/session_options.h"
#include "runtime/api/model_internal.h"

namespace ge {

GraphManager::~GraphManager() = default;

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

StatusOr<const GraphManager::GraphEntry*> GraphManager::FindBuilt(uint32_t graph_id,
                                                                  const char* what) const {
  ASSIGN_OR_RETURN(const GraphEntry* entry, Find(graph_id, what));
  if (entry->state != GraphState::kCompiled) {
    return ParamInvalid(
        what, ": graph id ", graph_id, " has not been built",
        entry->state == GraphState::kStopped ? " (stopped at a tuning break point)" : "");
  }
  return entry;
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
  entry.build_options.disable_reuse_memory =
      OptionOrDefault(entry.options, kOptDisableReuseMemory) == "1";
  graphs_.emplace(graph_id, std::move(entry));
  return OkStatus();
}

Status GraphManager::AddOnnxGraph(uint32_t graph_id, const OnnxSource& source,
                                  const std::map<std::string, std::string>& options) {
  RETURN_IF_ERROR(CheckInitialized("AddOnnxGraph"));
  if (source.path.empty() == source.bytes.empty()) {
    return ParamInvalid("AddOnnxGraph: graph id ", graph_id,
                        source.path.empty() ? ": no model given (set a path or bytes)"
                                            : ": both a model path and bytes are given");
  }
  if (graphs_.count(graph_id) != 0) {
    return AlreadyExists("AddOnnxGraph: graph id ", graph_id, " is already in use");
  }
  OnnxModelParser parser;
  StatusOr<ComputeGraphPtr> graph = source.path.empty()
                                        ? parser.ParseBytes(source.bytes, source.parse_options)
                                        : parser.ParseFile(source.path, source.parse_options);
  if (!graph.ok()) return graph.status();
  if (observer_) observer_("Parse");
  return AddGraph(graph_id, *graph, options);
}

Status GraphManager::SetModelBuildOptions(uint32_t graph_id, ModelBuildOptions options) {
  ASSIGN_OR_RETURN(GraphEntry * entry, Find(graph_id, "SetModelBuildOptions"));
  if (entry->state != GraphState::kAdded) {
    return ParamInvalid("SetModelBuildOptions: graph id ", graph_id, " is already built");
  }
  options.disable_reuse_memory = entry->build_options.disable_reuse_memory;
  entry->build_options = std::move(options);
  return OkStatus();
}

Status GraphManager::BuildGraph(uint32_t graph_id) {
  ASSIGN_OR_RETURN(GraphEntry * entry, Find(graph_id, "BuildGraph"));
  if (entry->state == GraphState::kCompiled) return OkStatus();
  ASSIGN_OR_RETURN(CompileOptions options, ToCompileOptions(entry->options));
  options.observer = observer_;
  options.pass_observer = pass_observer_;
  // An Executor (the reference interpreter) runs host-CPU kernels: the
  // graph it gets keeps every node there, in its plain layouts.
  if (executor_ != nullptr) options.use_compute_engine = false;
  auto result = stages_.Compile(entry->graph, options);
  if (!result.ok()) return Annotate(result.status(), "BuildGraph: graph id ", graph_id, ": ");
  entry->graph = result->graph;
  entry->graph->SetGraphID(graph_id);
  entry->tuning_file = result->tuning_file;
  if (result->stopped) {
    entry->state = GraphState::kStopped;
    return OkStatus();
  }
  // An Executor runs the compiled graph itself (the model builder moves the
  // constants into the weight blob).
  if (build_model_ && executor_ == nullptr) {
    ModelBuilder builder(entry->build_options);
    auto root = builder.Build(entry->graph);
    if (!root.ok()) return Annotate(root.status(), "BuildGraph: graph id ", graph_id, ": build: ");
    if (*root == nullptr || (*root)->root == nullptr) {
      return Internal("BuildGraph: graph id ", graph_id, ": ModelBuilder returned no root model");
    }
    for (const auto& [key, value] : entry->build_options.attrs) (*root)->root->attrs[key] = value;
    entry->root_model = std::move(*root);
    if (observer_) observer_("ModelBuild");
  }
  entry->state = GraphState::kCompiled;
  return OkStatus();
}

StatusOr<ComputeGraphPtr> GraphManager::GetCompiledGraph(uint32_t graph_id) const {
  ASSIGN_OR_RETURN(const GraphEntry* entry, FindBuilt(graph_id, "GetCompiledGraph"));
  return entry->graph;
}

StatusOr<GeRootModelPtr> GraphManager::GetRootModel(uint32_t graph_id) const {
  ASSIGN_OR_RETURN(const GraphEntry* entry, FindBuilt(graph_id, "GetRootModel"));
  if (entry->root_model == nullptr) {
    return ParamInvalid("GetRootModel: graph id ", graph_id, " was compiled without a model build");
  }
  return entry->root_model;
}

StatusOr<std::string> GraphManager::SaveModelToBytes(uint32_t graph_id,
                                                     const OmSaveOptions& options) const {
  ASSIGN_OR_RETURN(GeRootModelPtr root, GetRootModel(graph_id));
  return SaveOm(*root, options);
}

StatusOr<uint64_t> GraphManager::SaveModel(uint32_t graph_id, const std::string& path,
                                           const OmSaveOptions& options) const {
  ASSIGN_OR_RETURN(GeRootModelPtr root, GetRootModel(graph_id));
  return SaveOmToFile(*root, path, options);
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
  if (entry->state == GraphState::kAdded) RETURN_IF_ERROR(BuildGraph(graph_id));
  if (entry->state == GraphState::kStopped) {
    return ParamInvalid("RunGraph: graph id ", graph_id,
                        " stopped at a tuning break point; resume the build first");
  }
  if (executor_ != nullptr) {
    Status st = executor_->Run(*entry->graph, inputs, outputs);
    if (!st.ok()) return Annotate(st, "RunGraph: graph id ", graph_id, ": ");
    return OkStatus();
  }
  if (entry->root_model == nullptr) {
    return NotSupported("RunGraph: graph id ", graph_id,
                        " has no built model (built with set_build_model(false)) and no "
                        "executor is set");
  }
  if (!entry->loaded.has_value()) {
    ModelLoadOptions load_options;
    const std::string threads = OptionOrDefault(entry->options, kOptIntraOpThreads);
    if (!threads.empty() && !absl::SimpleAtoi(threads, &load_options.intra_op_threads)) {
      return ParamInvalid("RunGraph: graph id ", graph_id, ": option ", kOptIntraOpThreads, "='",
                          threads, "' is not an integer");
    }
    auto model = LoadModelFromGeRootModel(entry->root_model, load_options);
    if (!model.ok()) return Annotate(model.status(), "RunGraph: graph id ", graph_id, ": load: ");
    entry->loaded.emplace(std::move(*model));
  }
  auto outs = entry->loaded->Run(inputs);
  if (!outs.ok()) return Annotate(outs.status(), "RunGraph: graph id ", graph_id, ": ");
  *outputs = std::move(*outs);
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
