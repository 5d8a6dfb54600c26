// build/model/model_builder.h
//
// ModelBuilder (seed 002 §5.1-5.2): a compiled ComputeGraph (after
// CompilerStages: topologically sorted, shapes inferred, Data nodes carrying
// the "index" attribute, exactly one NetOutput) -> GeRootModel.
//
// Steps of Build():
//   1. scan: one walk over the root graph in node order numbers the ops (node
//      ids = positions), classifies them, checks that the order is
//      topological (the graph is re-sorted and scanned again only when it is
//      not), finds the first reason to be dynamic (step 3), sizes every
//      output, reads the workspaces and records each tensor's last reader.
//      Later steps read what the scan collected (and the few Data / Const /
//      NetOutput nodes), not the whole graph again;
//   2. weights (MergeWeights): every Const / Constant value of the root graph
//      and its subgraphs goes into one blob, each at a kWeightAlign offset;
//      identical constants (same bytes, dtype and dims) are stored once. In
//      the graph the "value" tensor is replaced by the attributes
//      kAttrWeightOffset / kAttrWeightSize, plus kAttrWeightDtype /
//      kAttrWeightFormat / kAttrWeightDims when the value's desc differs from
//      the Const's output desc (which names dtype and dims otherwise);
//      RestoreConstValues puts the tensors back;
//   3. dynamic check: an unknown shape, an output whose size is not known at
//      compile time (strings, resources, variants, op types with the
//      DataDependentOutputShape trait such as NonZero / Unique, see
//      OpTraitsOf) or a subgraph makes the model dynamic: task_def.dynamic
//      = true, no memory plan and no tasks (the runtime runs MODEL_DEF);
//   4. CalcOpParam (static models): Data outputs are MODEL_INPUT refs, Const
//      outputs WEIGHTS refs, a kernel output feeding NetOutput input k exactly
//      once (and no other NetOutput input) lives in MODEL_OUTPUT k, everything
//      else in the ARENA planned by PlanArenaWithLifetimes from the scan's
//      lifetimes (lifetime reuse unless disable_reuse_memory; the same plan
//      PlanArena makes from the graph). Tensor locations are recorded in the
//      tasks' TensorRefs only: op descs get no input / output / workspace
//      offsets (one record, no per-node compile-state allocation, a smaller
//      MODEL_DEF);
//   5. tasks: TaskGenerator kernel tasks, then one TASK_MEMCPY per model output
//      that is not written in place (a Data / Const / duplicated output);
//   6. model io: ModelTaskDef.input (Data nodes by index) and .output
//      (NetOutput inputs, named "<producer>:<output index>").
// The graph is modified in place and becomes GeModel::graph.
//
// Contract: deterministic (same graph and options -> same model, whatever
// num_threads); errors name the node / index / value; never crashes on a
// malformed graph. Cost: linear in nodes + edges, each node's memory read
// once by the builder (then once more by the TaskGenerator); node types are
// classified once per distinct type, tensor descs are read without being
// copied or unshared (OpDesc::PeekOutputDesc); no per-node string is built on
// the success path.
//
// Example
//   ModelBuilder builder(ModelBuildOptions{});
//   ASSIGN_OR_RETURN(GeRootModelPtr model, builder.Build(compiled_graph));
#ifndef BUILD_MODEL_MODEL_BUILDER_H_
#define BUILD_MODEL_MODEL_BUILDER_H_

#include <cstdint>
#include <map>
#include <string>

#include "build/memory/mem_planner.h"
#include "build/model/ge_model.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// Attributes of a Const op whose value lives in the weight blob.
inline constexpr char kAttrWeightOffset[] = "_weight_offset";  // int
inline constexpr char kAttrWeightSize[] = "_weight_size";      // int (exact bytes)
inline constexpr char kAttrWeightDtype[] = "_weight_dtype";    // int (ge::DataType)
inline constexpr char kAttrWeightDims[] = "_weight_dims";      // list int
inline constexpr char kAttrWeightFormat[] = "_weight_format";  // int (ge::Format)

struct ModelBuildOptions {
  bool disable_reuse_memory = false;
  int num_threads = 0;  // task generation threads; <= 0: hardware concurrency
  // Recorded in GeModel::attrs (soc_version, ...), written into the OM.
  std::map<std::string, std::string> attrs;
};

struct ModelBuildStats {
  MemPlanStats memory;
  uint64_t num_consts = 0;
  uint64_t num_unique_weights = 0;
  std::string dynamic_reason;  // why the model is dynamic ("" when static)
};

class ModelBuilder {
 public:
  explicit ModelBuilder(ModelBuildOptions options = {}) : options_(std::move(options)) {}

  StatusOr<GeRootModelPtr> Build(const ComputeGraphPtr& graph);

  const ModelBuildStats& stats() const { return stats_; }

 private:
  ModelBuildOptions options_;
  ModelBuildStats stats_;
};

// Puts the "value" tensors of the Const nodes of model.graph (and its
// subgraphs) back from model.weights and removes the weight attributes.
// OutOfRange when a reference falls outside the blob.
Status RestoreConstValues(GeModel& model);

}  // namespace ge

#endif  // BUILD_MODEL_MODEL_BUILDER_H_
