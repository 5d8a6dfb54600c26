// CompilerStages implementation; see compiler_stages.h.
#include "compiler/stages/compiler_stages.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "graph/serialization/inc/graph_dumper.h"
#include "graph/serialization/inc/model_serialize.h"
#include "metadef/register/inc/register/register_custom_pass.h"

namespace ge {
namespace {

struct StepSpelling {
  const char* name;
  BuildStep step;
};

constexpr StepSpelling kStepNames[] = {
    {"after_prepare", BuildStep::kAfterPrepare},
    {"before_partition", BuildStep::kBeforePartition},
    {"after_partition", BuildStep::kAfterPartition},
    {"after_optimize_subgraph", BuildStep::kAfterOptimizeSubgraph},
    {"after_optimize", BuildStep::kAfterOptimize},
    {"after_build", BuildStep::kAfterBuild},
};
constexpr StepSpelling kStepAliases[] = {
    {"before_ub_match", BuildStep::kAfterPartition},
    {"after_ub_match", BuildStep::kAfterOptimizeSubgraph},
};

// Dumps the graph after a stage and tells the observer.
Status StageDone(const ComputeGraphPtr& graph, absl::string_view stage,
                 const CompileOptions& options) {
  if (options.observer) options.observer(stage);
  Status st = GraphDumper::DumpIfEnabled(*graph, stage);
  if (!st.ok()) return Annotate(st, "dump after stage ", stage, ": ");
  return OkStatus();
}

Status RunCustomPasses(CustomPassStage stage, const ComputeGraphPtr& graph,
                       const CompileOptions& options) {
  RETURN_IF_ERROR(CustomPassRegistry::Instance().RunPasses(stage, graph));
  return StageDone(graph, absl::StrCat("CustomPass_", CustomPassStageName(stage)), options);
}

StatusOr<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return IoError("cannot open tuning file '", path, "'");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return IoError("cannot read tuning file '", path, "'");
  return ss.str();
}

Status WriteFile(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return IoError("cannot create tuning file '", path, "'");
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) return IoError("cannot write tuning file '", path, "'");
  return OkStatus();
}

}  // namespace

const char* BuildStepName(BuildStep step) {
  for (const StepSpelling& s : kStepNames) {
    if (s.step == step) return s.name;
  }
  return "unknown_step";
}

std::vector<std::string> BuildStepSpellings() {
  std::vector<std::string> out;
  for (const StepSpelling& s : kStepNames) out.emplace_back(s.name);
  for (const StepSpelling& s : kStepAliases) out.emplace_back(s.name);
  return out;
}

StatusOr<BuildStep> ParseBuildStep(absl::string_view name) {
  for (const StepSpelling& s : kStepNames) {
    if (name == s.name) return s.step;
  }
  for (const StepSpelling& s : kStepAliases) {
    if (name == s.name) return s.step;
  }
  return ParamInvalid("unknown build step '", name, "'; allowed: ",
                      absl::StrJoin(BuildStepSpellings(), ", "));
}

// ---------------------------------------------------------------- prepare

Status GraphPrepare::NormalizeGraph(const ComputeGraphPtr& graph, TopoSortingMode mode) {
  if (graph == nullptr) return ParamInvalid("NormalizeGraph: null graph");
  std::vector<NodePtr> net_outputs;
  std::vector<NodePtr> datas;
  for (const NodePtr& node : graph->GetDirectNode()) {
    if (node->GetType() == NETOUTPUT) net_outputs.push_back(node);
    if (node->GetType() == DATA) datas.push_back(node);
  }
  if (net_outputs.empty()) {
    return GraphInvalid("graph '", graph->GetName(), "' has no NetOutput node");
  }
  if (net_outputs.size() > 1) {
    return GraphInvalid("graph '", graph->GetName(), "' has ", net_outputs.size(),
                        " NetOutput nodes ('", net_outputs[0]->GetName(), "', '",
                        net_outputs[1]->GetName(), "', ...); exactly one is required");
  }
  size_t with_index = 0;
  for (const NodePtr& d : datas) {
    if (AttrUtils::HasAttr(d->GetOpDesc(), kAttrDataIndex)) ++with_index;
  }
  if (with_index == 0) {
    // Number them in graph input order, then any Data not registered as input.
    int64_t next = 0;
    std::vector<NodePtr> ordered = graph->GetInputNodes();
    for (const NodePtr& d : datas) {
      if (std::find(ordered.begin(), ordered.end(), d) == ordered.end()) ordered.push_back(d);
    }
    for (const NodePtr& d : ordered) {
      if (d->GetType() != DATA) continue;
      RETURN_IF_ERROR(AttrUtils::SetInt(d->GetOpDesc(), kAttrDataIndex, next++));
    }
  } else {
    std::vector<const Node*> by_index(datas.size(), nullptr);
    for (const NodePtr& d : datas) {
      auto idx = AttrUtils::GetInt(d->GetOpDesc(), kAttrDataIndex);
      if (!idx.ok()) {
        return GraphInvalid("Data node '", d->GetName(), "' has no int attribute '",
                            kAttrDataIndex, "' while other Data nodes do");
      }
      if (*idx < 0 || *idx >= static_cast<int64_t>(datas.size())) {
        return GraphInvalid("Data node '", d->GetName(), "' has index ", *idx,
                            " outside [0, ", datas.size(), ")");
      }
      if (by_index[*idx] != nullptr) {
        return GraphInvalid("Data nodes '", by_index[*idx]->GetName(), "' and '", d->GetName(),
                            "' have the same index ", *idx);
      }
      by_index[*idx] = d.get();
    }
  }
  return graph->TopologicalSorting(mode);
}

Status GraphPrepare::PrepareDynShape(const ComputeGraphPtr& graph) {
  if (graph == nullptr) return ParamInvalid("PrepareDynShape: null graph");
  bool any = false;
  for (const NodePtr& node : graph->GetAllNodes()) {
    const OpDescPtr& op = node->GetOpDesc();
    bool unknown = false;
    for (const GeTensorDescPtr& desc : op->GetAllOutputsDescPtr()) {
      if (desc != nullptr && desc->GetShape().IsUnknownShape()) unknown = true;
    }
    if (unknown) {
      RETURN_IF_ERROR(AttrUtils::SetBool(op, kAttrIsUnknownShape, true));
      any = true;
    }
  }
  if (any) RETURN_IF_ERROR(AttrUtils::SetBool(graph, kAttrGraphUnknownShape, true));
  return OkStatus();
}

Status GraphPrepare::Prepare(const ComputeGraphPtr& graph, const CompileOptions& options) const {
  if (graph == nullptr) return ParamInvalid("GraphPrepare: null graph");
  RETURN_IF_ERROR(RunCustomPasses(CustomPassStage::kBeforeInferShape, graph, options));
  RETURN_IF_ERROR(NormalizeGraph(graph, options.topo_mode));
  RETURN_IF_ERROR(StageDone(graph, "PrepareNormalizeGraph", options));
  if (infer_shape) {
    Status st = infer_shape(graph);
    if (!st.ok()) return Annotate(st, "InferShape: ");
  }
  RETURN_IF_ERROR(StageDone(graph, "PrepareInferShape", options));
  RETURN_IF_ERROR(RunCustomPasses(CustomPassStage::kAfterInferShape, graph, options));
  RETURN_IF_ERROR(PrepareDynShape(graph));
  return StageDone(graph, "PrepareDynShape", options);
}

// --------------------------------------------------------------- optimize

GraphOptimize::GraphOptimize()
    : stage1_("OptimizeStage1"), subgraph_("OptimizeSubgraph"), stage2_("OptimizeStage2") {}

const std::vector<std::string>& GraphOptimize::Stage1PassOrder() {
  static const auto* order = new std::vector<std::string>{
      "MergeInputMemcpyPass",       "SwitchDataEdgesBypass",
      "ConstantFuseSamePass",       "CommonSubexpressionEliminationPass",
      "FuseDataNodesWithCommonInputPass", "PermutePass",
      "SameTransdataBreadthFusionPass",   "TransOpBreadthFusionPass",
      "VariableOpPass",             "ConstantFoldingPass",
      "CastRemovePass",             "ReshapeRemovePass",
      "IdentityDeletePass",         "DeadCodeEliminationPass",
  };
  return *order;
}

const std::vector<std::string>& GraphOptimize::Stage2PassOrder() {
  static const auto* order = new std::vector<std::string>{
      "InnerIdentityDeletePass", "ConstantFoldingPass", "CondRemovePass",
      "AssignRemovePass",        "DeadCodeEliminationPass",
  };
  return *order;
}

Status GraphOptimize::RunManager(PassManager& manager, const ComputeGraphPtr& graph,
                                 const CompileOptions& options) {
  manager.mutable_options().disabled_passes = options.disabled_passes;
  const std::string stage(manager.name());
  manager.mutable_options().dump_hook = [stage](const ComputeGraph& g, absl::string_view pass,
                                                bool changed) -> Status {
    if (!changed) return OkStatus();
    return GraphDumper::DumpIfEnabled(g, absl::StrCat(stage, "_", pass));
  };
  auto changed = manager.Run(graph);
  if (!changed.ok()) return Annotate(changed.status(), stage, ": ");
  return OkStatus();
}

Status GraphOptimize::OptimizeOriginalGraph(const ComputeGraphPtr& graph,
                                            const CompileOptions& options) {
  RETURN_IF_ERROR(RunManager(stage1_, graph, options));
  RETURN_IF_ERROR(StageDone(graph, "OptimizeStage1", options));
  return RunCustomPasses(CustomPassStage::kAfterOriginGraphOptimize, graph, options);
}

Status GraphOptimize::OptimizeSubgraph(const ComputeGraphPtr& subgraph,
                                       const CompileOptions& options) {
  RETURN_IF_ERROR(RunManager(subgraph_, subgraph, options));
  RETURN_IF_ERROR(StageDone(subgraph, "OptimizeSubgraph", options));
  return RunCustomPasses(CustomPassStage::kAfterBuiltinFusion, subgraph, options);
}

Status GraphOptimize::OptimizeAfterMerge(const ComputeGraphPtr& graph,
                                         const CompileOptions& options) {
  RETURN_IF_ERROR(RunManager(stage2_, graph, options));
  return StageDone(graph, "OptimizeStage2", options);
}

// -------------------------------------------------------------- partition

StatusOr<PartitionResult> EnginePartitioner::Partition(const ComputeGraphPtr& graph) {
  if (graph == nullptr) return ParamInvalid("EnginePartitioner: null graph");
  for (const NodePtr& node : graph->GetAllNodes()) {
    node->GetOpDesc()->SetOpEngineName(kDefaultEngineName);
  }
  PartitionResult result;
  result.subgraphs.push_back(graph);
  result.engines.emplace_back(kDefaultEngineName);
  return result;
}

Status EnginePartitioner::Merge(const ComputeGraphPtr& graph, const PartitionResult& partitions) {
  if (graph == nullptr) return ParamInvalid("EnginePartitioner::Merge: null graph");
  if (partitions.subgraphs.size() != 1 || partitions.subgraphs[0] != graph) {
    return NotSupported("the default EnginePartitioner merges only its own single partition (got ",
                        partitions.subgraphs.size(), " subgraphs)");
  }
  return OkStatus();
}

// ------------------------------------------------------------------ build

StatusOr<ComputeGraphPtr> GraphBuilder::Build(const ComputeGraphPtr& graph) {
  if (graph == nullptr) return ParamInvalid("GraphBuilder: null graph");
  return graph;
}

// ----------------------------------------------------------------- stages

StatusOr<CompileResult> CompilerStages::Compile(const ComputeGraphPtr& input,
                                                const CompileOptions& options) {
  if (partitioner == nullptr || builder == nullptr) {
    return ParamInvalid("CompilerStages: partitioner and builder must be set");
  }
  ComputeGraphPtr graph = input;
  int32_t first = 0;
  if (!options.resume_from.empty()) {
    ASSIGN_OR_RETURN(std::string bytes, ReadFile(options.resume_from));
    auto loaded = ModelSerialize::DeserializeModel(bytes);
    if (!loaded.ok()) {
      return Annotate(loaded.status(), "tuning file '", options.resume_from, "': ");
    }
    graph = *loaded;
    auto step_name = AttrUtils::GetStr(graph, kAttrTuningStep);
    if (!step_name.ok()) {
      return ParseFailed("tuning file '", options.resume_from, "' has no '", kAttrTuningStep,
                         "' graph attribute (not written at a break point)");
    }
    auto step = ParseBuildStep(*step_name);
    if (!step.ok()) return Annotate(step.status(), "tuning file '", options.resume_from, "': ");
    RETURN_IF_ERROR(graph->DelAttr(kAttrTuningStep));
    first = static_cast<int32_t>(*step) + 1;
  }
  if (graph == nullptr) return ParamInvalid("CompilerStages::Compile: null graph");

  CompileResult result;
  result.graph = graph;
  PartitionResult partitions;
  bool have_partitions = false;
  for (int32_t i = first; i < kNumBuildSteps; ++i) {
    const BuildStep step = static_cast<BuildStep>(i);
    switch (step) {
      case BuildStep::kAfterPrepare:
        RETURN_IF_ERROR(preparer.Prepare(graph, options));
        break;
      case BuildStep::kBeforePartition:
        RETURN_IF_ERROR(optimizer.OptimizeOriginalGraph(graph, options));
        break;
      case BuildStep::kAfterPartition: {
        ASSIGN_OR_RETURN(partitions, partitioner->Partition(graph));
        have_partitions = true;
        RETURN_IF_ERROR(StageDone(graph, "EnginePartition", options));
        break;
      }
      case BuildStep::kAfterOptimizeSubgraph: {
        if (!have_partitions) {
          // Resumed after the partition step: the default partition (the
          // engine names travel with the graph) is the graph itself.
          partitions.subgraphs = {graph};
          partitions.engines = {kDefaultEngineName};
        }
        for (const ComputeGraphPtr& sub : partitions.subgraphs) {
          RETURN_IF_ERROR(optimizer.OptimizeSubgraph(sub, options));
        }
        RETURN_IF_ERROR(partitioner->Merge(graph, partitions));
        RETURN_IF_ERROR(StageDone(graph, "MergeSubgraph", options));
        break;
      }
      case BuildStep::kAfterOptimize:
        RETURN_IF_ERROR(optimizer.OptimizeAfterMerge(graph, options));
        break;
      case BuildStep::kAfterBuild: {
        ASSIGN_OR_RETURN(ComputeGraphPtr built, builder->Build(graph));
        if (built == nullptr) return Internal("GraphBuilder returned a null graph");
        graph = built;
        result.graph = graph;
        RETURN_IF_ERROR(StageDone(graph, "Build", options));
        break;
      }
    }
    result.last_step = step;
    if (options.build_mode == BuildMode::kTuning && options.has_stop_step &&
        options.stop_after == step) {
      if (options.tuning_path.empty()) {
        return ParamInvalid("tuning break point '", BuildStepName(step),
                            "' needs a tuning path (ge.tuningPath)");
      }
      RETURN_IF_ERROR(AttrUtils::SetStr(graph, kAttrTuningStep, BuildStepName(step)));
      auto bytes = ModelSerialize::SerializeModel(*graph);
      Status del = graph->DelAttr(kAttrTuningStep);
      if (!bytes.ok()) return Annotate(bytes.status(), "serializing the tuning graph: ");
      RETURN_IF_ERROR(del);
      result.tuning_file =
          absl::StrCat(options.tuning_path, "/", graph->GetName(), ".", BuildStepName(step), ".pb");
      RETURN_IF_ERROR(WriteFile(result.tuning_file, *bytes));
      result.stopped = true;
      return result;
    }
  }
  return result;
}

}  // namespace ge
