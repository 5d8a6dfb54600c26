// GraphManager: the compiler entry point and graph lifecycle (seed 002 §1.1):
// Initialize(session options) -> AddGraph(id, graph, options) ->
// BuildGraph(id) (runs the CompilerStages) -> RunGraph(id, inputs) through an
// injected Executor -> RemoveGraph(id).
//
// Contract:
//  - Initialize validates the session options (see session_options.h); a
//    second Initialize is an error. Every other call needs Initialize first.
//  - AddGraph: null graph / invalid options -> ParamInvalid; an id in use ->
//    AlreadyExists. Graph options override session options.
//  - BuildGraph: unknown id -> NotFound. Compiles the graph in place. With
//    ge.buildMode=tuning + ge.buildStep the build stops at the break point
//    (GetGraphState == kStopped, GetTuningFile names the written graph);
//    with ge.tuningResumeFile it continues from the file instead of the
//    added graph. A second BuildGraph of a compiled graph is a no-op.
//  - GetCompiledGraph: NotFound for an unknown id, ParamInvalid if not built.
//  - RunGraph: builds first if needed; NotSupported without an executor;
//    ParamInvalid for a graph stopped at a tuning break point.
//  - Not thread-safe (one session thread drives it).
//
// Example:
//   GraphManager gm;
//   RETURN_IF_ERROR(gm.Initialize({{"ge.graphRunMode", "0"}}));
//   RETURN_IF_ERROR(gm.AddGraph(1, graph, {}));
//   RETURN_IF_ERROR(gm.BuildGraph(1));
//   gm.SetExecutor(std::make_unique<MyExecutor>());
//   std::vector<gert::HostTensor> outs;
//   RETURN_IF_ERROR(gm.RunGraph(1, inputs, &outs));
#ifndef COMPILER_MANAGER_GRAPH_MANAGER_H_
#define COMPILER_MANAGER_GRAPH_MANAGER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "compiler/stages/compiler_stages.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ge {

// Runs a compiled graph. The runtime plugs in here; tests wrap the reference
// interpreter.
class Executor {
 public:
  virtual ~Executor() = default;
  virtual Status Run(const ComputeGraph& graph, const std::vector<gert::HostTensor>& inputs,
                     std::vector<gert::HostTensor>* outputs) = 0;
};

enum class GraphState : int32_t { kAdded = 0, kStopped = 1, kCompiled = 2 };

class GraphManager {
 public:
  GraphManager() = default;
  GraphManager(const GraphManager&) = delete;
  GraphManager& operator=(const GraphManager&) = delete;

  Status Initialize(const std::map<std::string, std::string>& options);
  bool initialized() const { return initialized_; }

  Status AddGraph(uint32_t graph_id, const ComputeGraphPtr& graph,
                  const std::map<std::string, std::string>& options = {});
  Status BuildGraph(uint32_t graph_id);
  StatusOr<ComputeGraphPtr> GetCompiledGraph(uint32_t graph_id) const;
  Status RemoveGraph(uint32_t graph_id);
  Status RunGraph(uint32_t graph_id, const std::vector<gert::HostTensor>& inputs,
                  std::vector<gert::HostTensor>* outputs);

  StatusOr<GraphState> GetGraphState(uint32_t graph_id) const;
  // The break-point file of a graph stopped in tuning mode ("" otherwise).
  StatusOr<std::string> GetTuningFile(uint32_t graph_id) const;
  bool HasGraph(uint32_t graph_id) const { return graphs_.count(graph_id) != 0; }
  std::vector<uint32_t> GraphIds() const;

  void SetExecutor(std::unique_ptr<Executor> executor) { executor_ = std::move(executor); }
  // The stages used by every build (tests instrument / replace parts).
  CompilerStages& stages() { return stages_; }
  // Observer passed to every compile (stage-order instrumentation).
  void SetStageObserver(StageObserver observer) { observer_ = std::move(observer); }

 private:
  struct GraphEntry {
    ComputeGraphPtr graph;
    std::map<std::string, std::string> options;  // merged, validated
    GraphState state = GraphState::kAdded;
    std::string tuning_file;
  };
  Status CheckInitialized(const char* what) const;
  StatusOr<GraphEntry*> Find(uint32_t graph_id, const char* what);
  StatusOr<const GraphEntry*> Find(uint32_t graph_id, const char* what) const;

  bool initialized_ = false;
  std::map<std::string, std::string> session_options_;
  std::map<uint32_t, GraphEntry> graphs_;
  CompilerStages stages_;
  std::unique_ptr<Executor> executor_;
  StageObserver observer_;
};

}  // namespace ge

#endif  // COMPILER_MANAGER_GRAPH_MANAGER_H_
