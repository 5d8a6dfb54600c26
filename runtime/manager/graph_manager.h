// runtime/manager/graph_manager.h
//
// GraphManager: the one compile driver (seed 002 §1.1). Everything that
// compiles a model goes through it: atc, the conformance runner, the runtime
// test helpers, the benchmarks and node_counts.
//
//   Initialize(session options)
//   AddGraph(id, graph, options) / AddOnnxGraph(id, source, options)
//   BuildGraph(id)     CompilerStages (prepare, optimize, partition, graph
//                      build), then ModelBuilder: a GeRootModel
//   SaveModel(id, path) / SaveModelToBytes(id)   the OM file
//   RunGraph(id, inputs, outputs)                runs the model it built
//   RemoveGraph(id)
//
// It sits at the top of the runtime layer because it drives every layer
// below: the front end and the stages (compiler), the model builder and the
// OM writer (build), and the model loader and executors (runtime).
//
// Contract:
//  - Initialize validates the session options (compiler/manager/
//    session_options.h); a second Initialize is an error. Every other call
//    needs Initialize first.
//  - AddGraph: null graph / invalid options -> ParamInvalid; an id in use ->
//    AlreadyExists. Graph options override session options. AddOnnxGraph
//    parses first; a parse error names the model and is the call's error.
//  - BuildGraph: unknown id -> NotFound. Compiles the graph in place, then
//    builds the root model with ge.exec.disableReuseMemory and the graph's
//    ModelBuildOptions (SetModelBuildOptions). With ge.buildMode=tuning +
//    ge.buildStep the build stops at the break point (GetGraphState ==
//    kStopped, GetTuningFile names the written graph, no model is built);
//    with ge.tuningResumeFile it continues from the file instead of the
//    added graph. With set_build_model(false), or with an Executor set, it
//    stops after the stages (GetRootModel is then ParamInvalid). A second BuildGraph of a built
//    graph is a no-op.
//  - GetCompiledGraph / GetRootModel / SaveModel*: NotFound for an unknown
//    id, ParamInvalid if not built.
//  - RunGraph: builds first if needed; ParamInvalid for a graph stopped at a
//    tuning break point. With an Executor set (SetExecutor; the reference
//    interpreter in tests and the conformance runner) it runs the compiled
//    graph on it (compiled with every node on the host CPU engine: the
//    interpreter runs host kernels); otherwise it loads the root model into the runtime once
//    (LoadModelFromGeRootModel) and runs it.
//  - Not thread-safe (one session thread drives it).
//
// Example:
//   GraphManager gm;
//   RETURN_IF_ERROR(gm.Initialize({{"ge.graphRunMode", "0"}}));
//   RETURN_IF_ERROR(gm.AddOnnxGraph(1, OnnxSource::File("model.onnx")));
//   RETURN_IF_ERROR(gm.BuildGraph(1));
//   ASSIGN_OR_RETURN(uint64_t bytes, gm.SaveModel(1, "model.om"));
//   std::vector<gert::HostTensor> outs;
//   RETURN_IF_ERROR(gm.RunGraph(1, inputs, &outs));
#ifndef RUNTIME_MANAGER_GRAPH_MANAGER_H_
#define RUNTIME_MANAGER_GRAPH_MANAGER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "build/model/ge_model.h"
#include "build/model/model_builder.h"
#include "build/om/om_file.h"
#include "compiler/parser/onnx/onnx_parser.h"
#include "compiler/stages/compiler_stages.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"
#include "runtime/inc/runtime/model.h"

namespace ge {

// Runs a compiled graph in place of the runtime (the reference interpreter).
class Executor {
 public:
  virtual ~Executor() = default;
  virtual Status Run(const ComputeGraph& graph, const std::vector<gert::HostTensor>& inputs,
                     std::vector<gert::HostTensor>* outputs) = 0;
};

enum class GraphState : int32_t { kAdded = 0, kStopped = 1, kCompiled = 2 };

// An ONNX model to parse: a file, or bytes in memory (external data is then
// resolved against parse_options.model_dir), with the front end's options.
struct OnnxSource {
  std::string path;
  std::string bytes;
  ParseOptions parse_options;

  static OnnxSource File(std::string path, ParseOptions options = ParseOptions()) {
    OnnxSource s;
    s.path = std::move(path);
    s.parse_options = std::move(options);
    return s;
  }
  static OnnxSource Bytes(std::string bytes, ParseOptions options = ParseOptions()) {
    OnnxSource s;
    s.bytes = std::move(bytes);
    s.parse_options = std::move(options);
    return s;
  }
};

class GraphManager {
 public:
  GraphManager() = default;
  GraphManager(const GraphManager&) = delete;
  GraphManager& operator=(const GraphManager&) = delete;
  ~GraphManager();

  Status Initialize(const std::map<std::string, std::string>& options);
  bool initialized() const { return initialized_; }

  Status AddGraph(uint32_t graph_id, const ComputeGraphPtr& graph,
                  const std::map<std::string, std::string>& options = {});
  Status AddOnnxGraph(uint32_t graph_id, const OnnxSource& source,
                      const std::map<std::string, std::string>& options = {});
  // Task-generation threads and recorded attrs of the graph's model build
  // (disable_reuse_memory comes from ge.exec.disableReuseMemory).
  Status SetModelBuildOptions(uint32_t graph_id, ModelBuildOptions options);
  Status BuildGraph(uint32_t graph_id);

  StatusOr<ComputeGraphPtr> GetCompiledGraph(uint32_t graph_id) const;
  StatusOr<GeRootModelPtr> GetRootModel(uint32_t graph_id) const;
  StatusOr<std::string> SaveModelToBytes(uint32_t graph_id,
                                         const OmSaveOptions& options = OmSaveOptions()) const;
  // Streams the OM file to `path` (written whole or not at all); its size.
  StatusOr<uint64_t> SaveModel(uint32_t graph_id, const std::string& path,
                               const OmSaveOptions& options = OmSaveOptions()) const;

  Status RemoveGraph(uint32_t graph_id);
  Status RunGraph(uint32_t graph_id, const std::vector<gert::HostTensor>& inputs,
                  std::vector<gert::HostTensor>* outputs);

  StatusOr<GraphState> GetGraphState(uint32_t graph_id) const;
  // The break-point file of a graph stopped in tuning mode ("" otherwise).
  StatusOr<std::string> GetTuningFile(uint32_t graph_id) const;
  bool HasGraph(uint32_t graph_id) const { return graphs_.count(graph_id) != 0; }
  std::vector<uint32_t> GraphIds() const;

  // Graphs built after this run on `executor` and get no model build.
  void SetExecutor(std::unique_ptr<Executor> executor) { executor_ = std::move(executor); }
  // false: BuildGraph stops after the compile stages (no GeRootModel); for
  // callers that run the compiled graph on an Executor.
  void set_build_model(bool build_model) { build_model_ = build_model; }
  // The stages used by every build (tests instrument / replace parts).
  CompilerStages& stages() { return stages_; }
  // Told the name of every stage as it completes: the CompilerStages steps,
  // then "ModelBuild" after the model builder (per-stage timing).
  void SetStageObserver(StageObserver observer) { observer_ = std::move(observer); }
  // Told when a pass manager starts and after every pass it ran.
  void SetPassObserver(PassObserver observer) { pass_observer_ = std::move(observer); }

 private:
  struct GraphEntry {
    ComputeGraphPtr graph;
    std::map<std::string, std::string> options;  // merged, validated
    GraphState state = GraphState::kAdded;
    std::string tuning_file;
    ModelBuildOptions build_options;
    GeRootModelPtr root_model;
    std::optional<Model> loaded;  // the runtime's model, loaded on first run
  };
  Status CheckInitialized(const char* what) const;
  StatusOr<GraphEntry*> Find(uint32_t graph_id, const char* what);
  StatusOr<const GraphEntry*> Find(uint32_t graph_id, const char* what) const;
  StatusOr<const GraphEntry*> FindBuilt(uint32_t graph_id, const char* what) const;

  bool initialized_ = false;
  bool build_model_ = true;
  std::map<std::string, std::string> session_options_;
  std::map<uint32_t, GraphEntry> graphs_;
  CompilerStages stages_;
  std::unique_ptr<Executor> executor_;
  StageObserver observer_;
  PassObserver pass_observer_;
};

}  // namespace ge

#endif  // RUNTIME_MANAGER_GRAPH_MANAGER_H_
