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
// Cost: Compile() keeps, for the whole compile, an InferShapeMemo
// (nodes whose inputs did not change skip their infer function) and a
// TopoOrderCache (one topological order and graph facts such as "inferred",
// "no dead code", "nothing to fold", "dyn-shape marks current", reused while
// the graph is not edited). Every edit made here outside the GraphRewriter
// (sorting, input shapes, out nodes, custom passes, a caller's hooks,
// partitioner or builder) advances the edit epoch (NoteGraphEdit), so a
// fact never outlives the graph state it describes. prepare + optimize of an
// unchanging graph is then one inference plus a few linear scans: the
// default inference also sets the dynamic-shape marks of a graph without
// subgraphs node by node (PrepareDynShape then has nothing to do) and
// records the Const nodes for ConstantFuseSame / ConstantFolding.
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
#include "compiler/stages/stage_pass_lists.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_attr_define.h"
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
// kAttrDataIndex ("index" on Data ops) comes from graph/inc/graph/ge_attr_define.h.
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
// Told when a pass manager starts (pass "", starting = true) and after every
// pass it ran (starting = false): per-pass timing (tools/node_counts).
using PassObserver =
    std::function<void(absl::string_view manager, absl::string_view pass, bool starting)>;

// Default of CompileOptions::constant_folding_max_bytes (64 MiB, equal to
// kDefaultConstantFoldingMaxBytes of compiler/passes/constant_folding_pass.h).
inline constexpr int64_t kDefaultFoldingMaxBytes = int64_t{64} << 20;

struct CompileOptions {
  TopoSortingMode topo_mode = TopoSortingMode::kDFS;
  std::set<std::string> disabled_passes;  // ge.disabledPasses
  // ge.constantFoldingMaxBytes: outputs larger than this are not folded.
  int64_t constant_folding_max_bytes = kDefaultFoldingMaxBytes;
  // ge.inputShape: "name:d0,d1;name2:d0" (-1 unknown dim, -2 unknown rank),
  // applied to the root graph's Data descs before InferShape.
  std::string input_shape;
  // ge.outNodes: "node:index;node2" (no index: every output of the node),
  // replaces the graph outputs (the NetOutput inputs) before InferShape.
  std::string out_nodes;
  // ge.lowerControlFlow: Stage 1 lowers Switch / Merge to StreamSwitch /
  // StreamActive / StreamMerge (ControlFlowLoweringPass). Off by default: the
  // host executors run Switch / Merge directly.
  bool lower_control_flow = false;
  // ge.computeEngine: the partitioner places the nodes the compute engine
  // accepts on it (the rest stays on the host CPU). Off when the options
  // are built by hand (the graph then stays runnable by the reference
  // interpreter); ToCompileOptions turns it on by default, as ge.* does.
  bool use_compute_engine = false;
  // ge.exec.precision_mode and the entries of the ge.keepDtype file
  // (RefineRunningPrecisionPass, first in Stage 1).
  std::string precision_mode;
  std::vector<std::string> keep_dtype;
  BuildMode build_mode = BuildMode::kNormal;
  bool has_stop_step = false;
  BuildStep stop_after = BuildStep::kAfterBuild;  // with kTuning and has_stop_step
  std::string tuning_path;                        // directory for break-point files
  std::string resume_from;                        // a break-point file to continue
  StageObserver observer;
  PassObserver pass_observer;
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
//   1a. ApplyOutNodes(options.out_nodes), ApplyInputShape(options.input_shape)
//   2. NormalizeGraph:
//      - exactly one NetOutput in the root graph (GraphInvalid otherwise);
//      - Data index attrs: if no Data has kAttrDataIndex, they are numbered
//        in graph input order; otherwise every Data must have one and they
//        must be exactly 0..n-1 (GraphInvalid naming the node);
//      - unused Data nodes are KEPT: they are part of the input signature
//        and removing one would renumber the inputs;
//      - topological sort in options.topo_mode.
//   3. InferShape (infer_shape hook; by default the InferShapePass, lenient:
//      a node it cannot infer keeps its descs)
//   4. custom passes kAfterInferShape
//   5. PrepareDynShape: nodes with an unknown output shape get
//      kAttrIsUnknownShape=true, the graph kAttrGraphUnknownShape; stale
//      marks (shape now static) are removed. It runs again after Stage 1
//      and Stage 2 (folding can make shapes static).
//
// Input shapes / out nodes:
//   ParseInputShapeOption("x:1,3,224,224;y:-1,8") -> [(x, [1,3,224,224]),
//   (y, [-1,8])] ("x:" is a scalar); ParseOutNodesOption("a:0;b") ->
//   [(a, 0), (b, -1 = every output)]. Bad syntax is ParamInvalid naming the
//   entry. ApplyInputShape sets the shape of the root Data node named so
//   (input and output desc; -2 = unknown rank); an unknown name is NotFound
//   listing the graph's inputs, a repeated name ParamInvalid. ApplyOutNodes
//   replaces the NetOutput's inputs (and the graph out-node info) by the
//   listed outputs in order; an unknown node is NotFound, an output index
//   the node does not have OutOfRange (both name the node). Nodes no longer
//   reaching the output are left to dead-code elimination.
struct InputShapeEntry {
  std::string name;
  std::vector<int64_t> dims;
};
struct OutNodeEntry {
  std::string node;
  int32_t index = -1;  // -1: every output
};
StatusOr<std::vector<InputShapeEntry>> ParseInputShapeOption(absl::string_view value);
StatusOr<std::vector<OutNodeEntry>> ParseOutNodesOption(absl::string_view value);

class GraphPrepare {
 public:
  // infer_shape defaults to the InferShapePass.
  GraphPrepare();

  Status Prepare(const ComputeGraphPtr& graph, const CompileOptions& options) const;
  static Status NormalizeGraph(const ComputeGraphPtr& graph, TopoSortingMode mode);
  // Skipped inside a compile when nothing was edited since the last run.
  static Status PrepareDynShape(const ComputeGraphPtr& graph);
  static Status ApplyInputShape(const ComputeGraphPtr& graph, absl::string_view option_value);
  static Status ApplyOutNodes(const ComputeGraphPtr& graph, absl::string_view option_value);

  GraphHook infer_shape;

 private:
  static Status MarkDynShape(const ComputeGraphPtr& graph);
};

// --------------------------------------------------------------- optimize
//
// Three phases (seed §1.3). Stage 1 / subgraph / Stage 2 are PassManagers
// holding the built-in passes of stage_pass_lists.h (one registered name per
// entry; ge.disabledPasses disables it; callers may AddPass more after
// them). Before each phase runs, its manager is configured (PassSettings)
// from the CompileOptions: disabled passes (and entries whose condition does
// not hold), the folding cap, lenient inference. GraphOptimize(false) starts
// with empty managers (tests).
class GraphOptimize {
 public:
  explicit GraphOptimize(bool builtin_passes = true);

  // Stage 1 + custom passes kAfterOriginGraphOptimize.
  Status OptimizeOriginalGraph(const ComputeGraphPtr& graph, const CompileOptions& options);
  // Per subgraph (engine-specific passes), then custom kAfterBuiltinFusion.
  Status OptimizeSubgraph(const ComputeGraphPtr& subgraph, const CompileOptions& options);
  // Stage 2 on the merged graph.
  Status OptimizeAfterMerge(const ComputeGraphPtr& graph, const CompileOptions& options);

  PassManager& stage1() { return stage1_; }
  PassManager& subgraph_passes() { return subgraph_; }
  PassManager& stage2() { return stage2_; }

 private:
  Status RunManager(PassManager& manager, const std::vector<StagePassEntry>* entries,
                    const ComputeGraphPtr& graph, const CompileOptions& options);
  PassManager stage1_;
  PassManager subgraph_;
  PassManager stage2_;
  bool builtin_ = true;
  // An error building the built-in pipelines (an unregistered list name),
  // returned by every phase.
  Status init_status_;
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
  // Default: one partition = the graph itself. Every node gets an engine
  // (op desc engine name): the compute engine (kEngineAiCore) when
  // use_compute_engine is set and its kernel accepts the node
  // (KernelDef::CheckSupported, which refuses unknown dims for static-only
  // kernels; its planned workspace is set on the op desc), else
  // kDefaultEngineName; in a graph with subgraphs, kDefaultEngineName.
  virtual StatusOr<PartitionResult> Partition(const ComputeGraphPtr& graph);
  // Default: nothing to merge (the partition is the graph).
  virtual Status Merge(const ComputeGraphPtr& graph, const PartitionResult& partitions);
  void set_use_compute_engine(bool on) { use_compute_engine_ = on; }

 private:
  bool use_compute_engine_ = false;
};

// ------------------------------------------------------------------ build

class GraphBuilder {
 public:
  virtual ~GraphBuilder() = default;
  // Default: the graph as it is. The model build (memory plan, tasks, the
  // GeRootModel) runs after the stages, in the GraphManager
  // (runtime/manager/graph_manager.h).
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
