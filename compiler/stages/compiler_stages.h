// CompilerStages: the four compilation stages of GE (seed 002 §1.1-1.4).
//
//   struct CompilerStages {
//     GraphPrepare preparer;          // normalisation, InferShape, dyn-shape marks
//     GraphOptimize optimizer;        // OriginalGraph / SubGraph / AfterMerge
//     EnginePartitioner partitioner;  // engine placement + partition (pass-through)
//     GraphBuilder builder;           // streams, memory, tasks (pass-through)
//   };
//
// Compile() runs them as a fixed list of BUILD STEPS; after every step the
// graph is dumped under the step's stage name (GraphDumper::DumpIfEnabled,
// driven by DUMP_GE_GRAPH) and the observer (tests) is told:
//
//   step                      runs
//   after_prepare             GraphPrepare::Prepare
//   before_partition          GraphOptimize::OptimizeOriginalGraph (Stage 1)
//   after_partition           EnginePartitioner::Partition
//   after_optimize_subgraph   GraphOptimize::OptimizeSubgraph (per subgraph) + merge
//   after_optimize            GraphOptimize::OptimizeAfterMerge (Stage 2)
//   after_build               GraphBuilder::Build
//
// Aliases (seed §1.4): before_ub_match = after_partition (UB fusion happens
// in subgraph optimisation), after_ub_match = after_optimize_subgraph.
//
// Tuning (seed §1.4): with build_mode kTuning and stop_after = S, Compile
// stops after step S, records S in the graph attribute kAttrTuningStep and
// writes the serialized ModelDef to <tuning_path>/<graph name>.<S>.pb
// (CompileResult::tuning_file). Compile() with resume_from = that file loads
// the graph and continues with the step after S; the result equals an
// uninterrupted build.
//
// Example:
//   CompilerStages stages;
//   CompileOptions opts;
//   ASSIGN_OR_RETURN(CompileResult r, stages.Compile(graph, opts));
//   // r.graph is the compiled graph (the same object as `graph`).
#ifndef COMPILER_STAGES_COMPILER_STAGES_H_
#define COMPILER_STAGES_COMPILER_STAGES_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/pass_manager.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// The engine every node is placed on by the default partitioner; equal to
// kEngineHostCpu of metadef/register/inc/register/op_registry.h.
inline constexpr char kDefaultEngineName[] = "DNN_VM_HOST_CPU";
// Bool on an op desc: some output shape has an unknown dim / rank.
inline constexpr char kAttrIsUnknownShape[] = "_is_unknown_shape";
// Bool on the root graph: some node carries kAttrIsUnknownShape.
inline constexpr char kAttrGraphUnknownShape[] = "_graph_unknown_shape";
// Int on a Data op: its position in the graph's inputs.
inline constexpr char kAttrDataIndex[] = "index";
// String on a graph written at a tuning break point: the step it stopped after.
inline constexpr char kAttrTuningStep[] = "_ge_tuning_step";

enum class BuildStep : int32_t {
  kAfterPrepare = 0,
  kBeforePartition = 1,
  kAfterPartition = 2,
  kAfterOptimizeSubgraph = 3,
  kAfterOptimize = 4,
  kAfterBuild = 5,
};
inline constexpr int32_t kNumBuildSteps = 6;

// "after_prepare", ...
const char* BuildStepName(BuildStep step);
// Names and aliases; ParamInvalid naming the allowed values otherwise.
StatusOr<BuildStep> ParseBuildStep(absl::string_view name);
// Every accepted spelling (names, then aliases).
std::vector<std::string> BuildStepSpellings();

enum class BuildMode : int32_t { kNormal = 0, kTuning = 1 };

using GraphHook = std::function<Status(const ComputeGraphPtr&)>;
// Told the name of every stage / sub-stage as it completes (instrumentation).
using StageObserver = std::function<void(absl::string_view stage)>;

struct CompileOptions {
  TopoSortingMode topo_mode = TopoSortingMode::kDFS;
  std::set<std::string> disabled_passes;  // ge.disabledPasses
  BuildMode build_mode = BuildMode::kNormal;
  bool has_stop_step = false;
  BuildStep stop_after = BuildStep::kAfterBuild;  // with kTuning and has_stop_step
  std::string tuning_path;                        // directory for break-point files
  std::string resume_from;                        // a break-point file to continue
  StageObserver observer;
};

struct CompileResult {
  ComputeGraphPtr graph;
  bool stopped = false;  // a tuning break point was hit
  BuildStep last_step = BuildStep::kAfterBuild;
  std::string tuning_file;  // written when stopped
};

// ---------------------------------------------------------------- prepare
//
// Prepare() =
//   1. custom passes kBeforeInferShape (CustomPassRegistry)
//   2. NormalizeGraph:
//      - exactly one NetOutput in the root graph (GraphInvalid otherwise);
//      - Data index attrs: if no Data has kAttrDataIndex, they are numbered
//        in graph input order; otherwise every Data must have one and they
//        must be exactly 0..n-1 (GraphInvalid naming the node);
//      - unused Data nodes are KEPT: they are part of the input signature
//        and removing one would renumber the inputs;
//      - topological sort in options.topo_mode.
//   3. InferShape (infer_shape hook; a no-op until the InferShape pass lands)
//   4. custom passes kAfterInferShape
//   5. PrepareDynShape: nodes with an unknown output shape get
//      kAttrIsUnknownShape=true, the graph kAttrGraphUnknownShape.
class GraphPrepare {
 public:
  Status Prepare(const ComputeGraphPtr& graph, const CompileOptions& options) const;
  static Status NormalizeGraph(const ComputeGraphPtr& graph, TopoSortingMode mode);
  static Status PrepareDynShape(const ComputeGraphPtr& graph);

  // Wired to the InferShape pass when it exists.
  GraphHook infer_shape;
};

// --------------------------------------------------------------- optimize
//
// Three phases (seed §1.3). Stage 1 / subgraph / Stage 2 are PassManagers;
// the built-in passes are added by name in seed order as they land
// (Stage1PassOrder() / Stage2PassOrder() document the intended order).
class GraphOptimize {
 public:
  GraphOptimize();

  // Stage 1 + custom passes kAfterOriginGraphOptimize.
  Status OptimizeOriginalGraph(const ComputeGraphPtr& graph, const CompileOptions& options);
  // Per subgraph (engine-specific passes), then custom kAfterBuiltinFusion.
  Status OptimizeSubgraph(const ComputeGraphPtr& subgraph, const CompileOptions& options);
  // Stage 2 on the merged graph.
  Status OptimizeAfterMerge(const ComputeGraphPtr& graph, const CompileOptions& options);

  PassManager& stage1() { return stage1_; }
  PassManager& subgraph_passes() { return subgraph_; }
  PassManager& stage2() { return stage2_; }

  static const std::vector<std::string>& Stage1PassOrder();
  static const std::vector<std::string>& Stage2PassOrder();

 private:
  Status RunManager(PassManager& manager, const ComputeGraphPtr& graph,
                    const CompileOptions& options);
  PassManager stage1_;
  PassManager subgraph_;
  PassManager stage2_;
};

// -------------------------------------------------------------- partition

struct PartitionResult {
  // Subgraphs, each on one engine. The default: the whole graph.
  std::vector<ComputeGraphPtr> subgraphs;
  std::vector<std::string> engines;  // parallel to subgraphs
};

class EnginePartitioner {
 public:
  virtual ~EnginePartitioner() = default;
  // Default: every node (subgraphs included) on kDefaultEngineName (op desc
  // engine name), one partition = the graph itself.
  virtual StatusOr<PartitionResult> Partition(const ComputeGraphPtr& graph);
  // Default: nothing to merge (the partition is the graph).
  virtual Status Merge(const ComputeGraphPtr& graph, const PartitionResult& partitions);
};

// ------------------------------------------------------------------ build

class GraphBuilder {
 public:
  virtual ~GraphBuilder() = default;
  // Default: the graph as it is (stream assignment, memory planning and
  // task generation come with the build issue).
  virtual StatusOr<ComputeGraphPtr> Build(const ComputeGraphPtr& graph);
};

// ----------------------------------------------------------------- stages

struct CompilerStages {
  GraphPrepare preparer;
  GraphOptimize optimizer;
  std::unique_ptr<EnginePartitioner> partitioner = std::make_unique<EnginePartitioner>();
  std::unique_ptr<GraphBuilder> builder = std::make_unique<GraphBuilder>();

  // Runs the build steps on `graph` (in place), or on the graph loaded from
  // options.resume_from (then `graph` may be null). See the file comment.
  StatusOr<CompileResult> Compile(const ComputeGraphPtr& graph, const CompileOptions& options);
};

}  // namespace ge

#endif  // COMPILER_STAGES_COMPILER_STAGES_H_
