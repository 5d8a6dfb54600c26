// CompilerStages implementation; see compiler_stages.h.
#include "compiler/stages/compiler_stages.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <typeinfo>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/passes/infer_shape_pass.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "graph/serialization/inc/graph_dumper.h"
#include "graph/serialization/inc/model_serialize.h"
#include "metadef/register/inc/register/kernel_registry.h"
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
  const CustomPassRegistry& registry = CustomPassRegistry::Instance();
  const bool any = registry.size() != 0 && !registry.GetPassNames(stage).empty();
  RETURN_IF_ERROR(registry.RunPasses(stage, graph));
  if (any) {
    // A custom pass may edit anything (attributes in place too).
    if (InferShapeMemo* memo = InferShapeMemo::Current()) memo->Clear();
    NoteGraphEdit();
    if (TopoOrderCache* cache = TopoOrderCache::Current()) cache->Clear();
  }
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
  return ParamInvalid("unknown build step '", name,
                      "'; allowed: ", absl::StrJoin(BuildStepSpellings(), ", "));
}

// ------------------------------------------------ input shapes / out nodes

StatusOr<std::vector<InputShapeEntry>> ParseInputShapeOption(absl::string_view value) {
  std::vector<InputShapeEntry> out;
  if (value.empty()) return out;
  for (absl::string_view item : absl::StrSplit(value, ';')) {
    if (item.empty()) continue;  // "a:1;" trailing separator
    std::vector<absl::string_view> parts = absl::StrSplit(item, absl::MaxSplits(':', 1));
    if (parts.size() != 2 || parts[0].empty()) {
      return ParamInvalid("ge.inputShape: entry '", item, "' is not 'name:d0,d1,...'");
    }
    InputShapeEntry e;
    e.name = std::string(parts[0]);
    if (!parts[1].empty()) {
      for (absl::string_view d : absl::StrSplit(parts[1], ',')) {
        int64_t dim = 0;
        if (!absl::SimpleAtoi(d, &dim) || dim < -2) {
          return ParamInvalid("ge.inputShape: dim '", d, "' of input '", e.name,
                              "' is not an integer >= -2");
        }
        e.dims.push_back(dim);
      }
    }
    if (e.dims.size() > 1 && std::find(e.dims.begin(), e.dims.end(), int64_t{-2}) != e.dims.end()) {
      return ParamInvalid("ge.inputShape: input '", e.name,
                          "': -2 (unknown rank) must be the only dim");
    }
    out.push_back(std::move(e));
  }
  return out;
}

StatusOr<std::vector<OutNodeEntry>> ParseOutNodesOption(absl::string_view value) {
  std::vector<OutNodeEntry> out;
  if (value.empty()) return out;
  for (absl::string_view item : absl::StrSplit(value, ';')) {
    if (item.empty()) continue;
    std::vector<absl::string_view> parts = absl::StrSplit(item, absl::MaxSplits(':', 1));
    if (parts[0].empty()) return ParamInvalid("ge.outNodes: entry '", item, "' has no node name");
    OutNodeEntry e;
    e.node = std::string(parts[0]);
    if (parts.size() == 2) {
      int32_t idx = 0;
      if (!absl::SimpleAtoi(parts[1], &idx) || idx < 0) {
        return ParamInvalid("ge.outNodes: output index '", parts[1], "' of node '", e.node,
                            "' is not an integer >= 0");
      }
      e.index = idx;
    }
    out.push_back(std::move(e));
  }
  if (out.empty()) return ParamInvalid("ge.outNodes: '", value, "' lists no node");
  return out;
}

Status GraphPrepare::ApplyInputShape(const ComputeGraphPtr& graph, absl::string_view option_value) {
  if (graph == nullptr) return ParamInvalid("ApplyInputShape: null graph");
  ASSIGN_OR_RETURN(std::vector<InputShapeEntry> entries, ParseInputShapeOption(option_value));
  std::map<std::string, NodePtr> datas;
  for (const NodePtr& n : graph->GetDirectNode()) {
    if (n->GetType() == DATA) datas.emplace(n->GetName(), n);
  }
  std::set<std::string> done;
  for (const InputShapeEntry& e : entries) {
    if (!done.insert(e.name).second) {
      return ParamInvalid("ge.inputShape: input '", e.name, "' is given more than once");
    }
    auto it = datas.find(e.name);
    if (it == datas.end()) {
      std::vector<std::string> names;
      for (const auto& [name, node] : datas) names.push_back(name);
      return NotFound("ge.inputShape: graph '", graph->GetName(), "' has no input named '", e.name,
                      "' (inputs: ", absl::StrJoin(names, ", "), ")");
    }
    GeShape shape;
    if (e.dims.size() == 1 && e.dims[0] == -2) {
      shape.SetIsUnknownDimNum();
    } else {
      shape.SetDims(e.dims);
    }
    OpDesc& op = *it->second->GetOpDescBarePtr();
    for (uint32_t i = 0; i < op.GetAllInputsSize(); ++i) {
      GeTensorDescPtr d = op.MutableInputDesc(i);
      if (d != nullptr) d->SetShape(shape);
    }
    for (uint32_t i = 0; i < op.GetAllOutputsDescSize(); ++i) {
      GeTensorDescPtr d = op.MutableOutputDesc(i);
      if (d != nullptr) d->SetShape(shape);
    }
  }
  return OkStatus();
}

Status GraphPrepare::ApplyOutNodes(const ComputeGraphPtr& graph, absl::string_view option_value) {
  if (graph == nullptr) return ParamInvalid("ApplyOutNodes: null graph");
  ASSIGN_OR_RETURN(std::vector<OutNodeEntry> entries, ParseOutNodesOption(option_value));
  std::map<std::string, NodePtr> by_name;
  NodePtr old_output;
  for (const NodePtr& n : graph->GetDirectNode()) {
    by_name.emplace(n->GetName(), n);
    if (n->GetType() == NETOUTPUT) {
      if (old_output != nullptr) {
        return GraphInvalid("ge.outNodes: graph '", graph->GetName(),
                            "' has two NetOutput nodes ('", old_output->GetName(), "', '",
                            n->GetName(), "')");
      }
      old_output = n;
    }
  }
  std::vector<std::pair<NodePtr, int32_t>> outs;
  for (const OutNodeEntry& e : entries) {
    auto it = by_name.find(e.node);
    if (it == by_name.end() || it->second->GetType() == NETOUTPUT) {
      return NotFound("ge.outNodes: graph '", graph->GetName(), "' has no node named '", e.node,
                      "'");
    }
    const NodePtr& n = it->second;
    const int32_t n_out = static_cast<int32_t>(n->GetAllOutDataAnchorsSize());
    if (e.index >= n_out) {
      return OutOfRange("ge.outNodes: node '", e.node, "' has ", n_out, " outputs; index ", e.index,
                        " is out of range");
    }
    if (e.index < 0) {
      if (n_out == 0) return ParamInvalid("ge.outNodes: node '", e.node, "' has no outputs");
      for (int32_t i = 0; i < n_out; ++i) outs.emplace_back(n, i);
    } else {
      outs.emplace_back(n, e.index);
    }
  }
  std::string name = "NetOutput";
  std::vector<NodePtr> ctrl_preds;
  if (old_output != nullptr) {
    name = old_output->GetName();
    ctrl_preds = old_output->GetInControlNodes();
    (void)graph->RemoveOutputNode(old_output);  // NotFound when not registered
    RETURN_IF_ERROR(graph->RemoveNodeWithoutRelink(old_output));
  }
  auto op = std::make_shared<OpDesc>(name, NETOUTPUT);
  for (size_t i = 0; i < outs.size(); ++i) {
    const GeTensorDesc* d = outs[i].first->GetOpDescBarePtr()->GetOutputDescBarePtr(
        static_cast<uint32_t>(outs[i].second));
    RETURN_IF_ERROR(op->AddInputDesc(absl::StrCat("x", i), d != nullptr ? *d : GeTensorDesc()));
  }
  ASSIGN_OR_RETURN(NodePtr net_output, graph->AddNode(op));
  for (size_t i = 0; i < outs.size(); ++i) {
    RETURN_IF_ERROR(outs[i]
                        .first->GetOutDataAnchor(outs[i].second)
                        ->LinkTo(net_output->GetInDataAnchor(static_cast<int32_t>(i))));
  }
  for (const NodePtr& p : ctrl_preds) {
    if (p != nullptr && graph->HasNode(p)) {
      RETURN_IF_ERROR(p->GetOutControlAnchor()->LinkTo(net_output->GetInControlAnchor()));
    }
  }
  graph->SetGraphOutNodesInfo(outs);
  return OkStatus();
}

// ---------------------------------------------------------------- prepare

Status GraphPrepare::NormalizeGraph(const ComputeGraphPtr& graph, TopoSortingMode mode) {
  if (graph == nullptr) return ParamInvalid("NormalizeGraph: null graph");
  std::vector<NodePtr> net_outputs;
  std::vector<NodePtr> datas;
  for (const NodePtr& node : graph->DirectNodes()) {
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
        return GraphInvalid("Data node '", d->GetName(), "' has no int attribute '", kAttrDataIndex,
                            "' while other Data nodes do");
      }
      if (*idx < 0 || *idx >= static_cast<int64_t>(datas.size())) {
        return GraphInvalid("Data node '", d->GetName(), "' has index ", *idx, " outside [0, ",
                            datas.size(), ")");
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
  // The marks depend on the output descs only: unedited since the last
  // marking (inference advances the edit epoch when it changes a desc).
  TopoOrderCache* cache = TopoOrderCache::Current();
  if (cache != nullptr && cache->HasFact(*graph, TopoOrderCache::Fact::kDynShapeMarked)) {
    return OkStatus();
  }
  RETURN_IF_ERROR(MarkDynShape(graph));
  if (cache != nullptr) cache->SetFact(*graph, TopoOrderCache::Fact::kDynShapeMarked);
  return OkStatus();
}

namespace {

// Sets or clears the kAttrIsUnknownShape mark of one node from its output
// descs; *any becomes true when it is marked.
Status MarkNodeDynShape(OpDesc& op, bool* any) {
  bool unknown = false;
  const uint32_t n_out = static_cast<uint32_t>(op.GetAllOutputsDescSize());
  for (uint32_t i = 0; i < n_out && !unknown; ++i) {
    const GeTensorDesc* desc = op.PeekOutputDesc(i);
    unknown = desc != nullptr && desc->GetShape().IsUnknownShape();
  }
  if (unknown) {
    const AttrValue* mark = op.GetAttr(kAttrIsUnknownShape);
    if (mark == nullptr || mark->Get<bool>() == nullptr || !*mark->Get<bool>()) {
      RETURN_IF_ERROR(op.SetAttr(kAttrIsUnknownShape, AttrValue::CreateFrom<bool>(true)));
    }
    *any = true;
  } else if (op.HasAttr(kAttrIsUnknownShape)) {
    RETURN_IF_ERROR(op.DelAttr(kAttrIsUnknownShape));
  }
  return OkStatus();
}

// The graph mark once every node was marked.
Status MarkGraphDynShape(const ComputeGraphPtr& graph, bool any) {
  if (any) {
    RETURN_IF_ERROR(AttrUtils::SetBool(graph, kAttrGraphUnknownShape, true));
  } else if (AttrUtils::HasAttr(graph, kAttrGraphUnknownShape)) {
    RETURN_IF_ERROR(graph->DelAttr(kAttrGraphUnknownShape));
  }
  return OkStatus();
}

}  // namespace

Status GraphPrepare::MarkDynShape(const ComputeGraphPtr& graph) {
  bool any = false;
  // Bare pointers and in-place reads: no allocation per node. Without
  // subgraphs the tree is the direct node list.
  if (!graph->GetAllSubgraphs().empty() || graph->GetParentGraph() != nullptr) {
    for (Node* node : graph->GetAllNodesPtr()) {
      RETURN_IF_ERROR(MarkNodeDynShape(*node->GetOpDescBarePtr(), &any));
    }
  } else {
    for (const NodePtr& node : graph->DirectNodes()) {
      RETURN_IF_ERROR(MarkNodeDynShape(*node->GetOpDescBarePtr(), &any));
    }
  }
  return MarkGraphDynShape(graph, any);
}

namespace {

// The default GraphPrepare::infer_shape (a named type, so Prepare can tell
// it from a caller's hook).
// A graph without subgraphs is marked for dynamic shapes (see
// PrepareDynShape) node by node during the inference walk, while each
// node's descs are in cache, instead of by another walk afterwards.
struct DefaultInferShape {
  Status operator()(const ComputeGraphPtr& graph) const {
    InferShapePass pass;
    pass.set_lenient(true);
    TopoOrderCache* cache = TopoOrderCache::Current();
    const bool flat =
        cache != nullptr && graph->GetAllSubgraphs().empty() && graph->GetParentGraph() == nullptr;
    bool any = false;
    if (flat) {
      pass.set_node_hook(
          [&any](Node& node) { return MarkNodeDynShape(*node.GetOpDescBarePtr(), &any); });
    }
    RETURN_IF_ERROR(pass.Run(graph).status());
    if (flat && pass.walked()) {
      RETURN_IF_ERROR(MarkGraphDynShape(graph, any));
      // After the inference's own edit-epoch step: current until the next
      // edit (a custom pass after inference, ...).
      cache->SetFact(*graph, TopoOrderCache::Fact::kDynShapeMarked);
    }
    return OkStatus();
  }
};

}  // namespace

GraphPrepare::GraphPrepare() : infer_shape(DefaultInferShape()) {}

Status GraphPrepare::Prepare(const ComputeGraphPtr& graph, const CompileOptions& options) const {
  if (graph == nullptr) return ParamInvalid("GraphPrepare: null graph");
  RETURN_IF_ERROR(RunCustomPasses(CustomPassStage::kBeforeInferShape, graph, options));
  if (!options.out_nodes.empty()) RETURN_IF_ERROR(ApplyOutNodes(graph, options.out_nodes));
  if (!options.input_shape.empty()) RETURN_IF_ERROR(ApplyInputShape(graph, options.input_shape));
  RETURN_IF_ERROR(NormalizeGraph(graph, options.topo_mode));
  NoteGraphEdit();  // the list was reordered (and maybe descs / outputs set)
  if (TopoOrderCache* cache = TopoOrderCache::Current()) {
    // Just sorted: the stable order is the list itself.
    cache->Store(*graph, std::make_shared<const std::vector<NodePtr>>(graph->GetDirectNode()));
  }
  RETURN_IF_ERROR(StageDone(graph, "PrepareNormalizeGraph", options));
  if (infer_shape) {
    Status st = infer_shape(graph);
    if (!st.ok()) return Annotate(st, "InferShape: ");
  }
  if (infer_shape && infer_shape.target<DefaultInferShape>() == nullptr) {
    NoteGraphEdit();  // a caller's hook may edit anything
  }
  RETURN_IF_ERROR(StageDone(graph, "PrepareInferShape", options));
  RETURN_IF_ERROR(RunCustomPasses(CustomPassStage::kAfterInferShape, graph, options));
  RETURN_IF_ERROR(PrepareDynShape(graph));
  return StageDone(graph, "PrepareDynShape", options);
}

// --------------------------------------------------------------- optimize

namespace {

// Registered names of the built-in passes (they edit the graph through the
// GraphRewriter and never change a node's attributes in place, which the
// InferShapeMemo relies on).
bool IsBuiltinPassName(absl::string_view name) { return IsBuiltinStagePass(name); }

bool ConditionHolds(PassCondition condition, const CompileOptions& options) {
  switch (condition) {
    case PassCondition::kAlways:
      return true;
    case PassCondition::kLowerControlFlow:
      return options.lower_control_flow;
  }
  return false;
}

// The settings a phase's passes run with.
PassSettings SettingsFor(const std::vector<StagePassEntry>* entries,
                         const CompileOptions& options) {
  PassSettings settings;
  settings.disabled_passes = options.disabled_passes;
  settings.constant_folding_max_bytes = options.constant_folding_max_bytes;
  settings.lenient_infer = true;
  settings.precision_mode = options.precision_mode;
  settings.keep_dtype = options.keep_dtype;
  if (entries != nullptr) {
    for (const StagePassEntry& entry : *entries) {
      if (!ConditionHolds(entry.condition, options)) settings.disabled_passes.insert(entry.name);
    }
  }
  return settings;
}

}  // namespace

GraphOptimize::GraphOptimize(bool builtin_passes)
    : stage1_("OptimizeStage1"),
      subgraph_("OptimizeSubgraph"),
      stage2_("OptimizeStage2"),
      builtin_(builtin_passes) {
  if (!builtin_passes) return;
  init_status_ = AddStagePasses(Stage1Passes(), &stage1_);
  if (init_status_.ok()) init_status_ = AddStagePasses(SubgraphPasses(), &subgraph_);
  if (init_status_.ok()) init_status_ = AddStagePasses(Stage2Passes(), &stage2_);
}

Status GraphOptimize::RunManager(PassManager& manager, const std::vector<StagePassEntry>* entries,
                                 const ComputeGraphPtr& graph, const CompileOptions& options) {
  RETURN_IF_ERROR(init_status_);
  manager.Configure(SettingsFor(builtin_ ? entries : nullptr, options));
  const std::string stage(manager.name());
  const PassObserver observer = options.pass_observer;
  manager.mutable_options().dump_hook =
      [stage, observer](const ComputeGraph& g, absl::string_view pass, bool changed) -> Status {
    if (observer) observer(stage, pass, false);
    if (!changed) return OkStatus();
    if (!IsBuiltinPassName(pass)) {
      // A caller's pass may edit attributes in place: infer afresh.
      if (InferShapeMemo* memo = InferShapeMemo::Current()) memo->Clear();
      NoteGraphEdit();
    }
    return GraphDumper::DumpIfEnabled(g, absl::StrCat(stage, "_", pass));
  };
  if (observer) observer(stage, "", true);
  auto changed = manager.Run(graph);
  if (!changed.ok()) return Annotate(changed.status(), stage, ": ");
  return OkStatus();
}

Status GraphOptimize::OptimizeOriginalGraph(const ComputeGraphPtr& graph,
                                            const CompileOptions& options) {
  RETURN_IF_ERROR(RunManager(stage1_, &Stage1Passes(), graph, options));
  RETURN_IF_ERROR(GraphPrepare::PrepareDynShape(graph));
  RETURN_IF_ERROR(StageDone(graph, "OptimizeStage1", options));
  return RunCustomPasses(CustomPassStage::kAfterOriginGraphOptimize, graph, options);
}

Status GraphOptimize::OptimizeSubgraph(const ComputeGraphPtr& subgraph,
                                       const CompileOptions& options) {
  RETURN_IF_ERROR(RunManager(subgraph_, &SubgraphPasses(), subgraph, options));
  RETURN_IF_ERROR(StageDone(subgraph, "OptimizeSubgraph", options));
  return RunCustomPasses(CustomPassStage::kAfterBuiltinFusion, subgraph, options);
}

Status GraphOptimize::OptimizeAfterMerge(const ComputeGraphPtr& graph,
                                         const CompileOptions& options) {
  RETURN_IF_ERROR(RunManager(stage2_, &Stage2Passes(), graph, options));
  RETURN_IF_ERROR(GraphPrepare::PrepareDynShape(graph));
  return StageDone(graph, "OptimizeStage2", options);
}

// -------------------------------------------------------------- partition

namespace {

// Places each node of a static graph on the compute engine when its kernel
// there accepts the node, else on the host CPU engine.
StatusOr<PartitionResult> PlaceOnEngines(const ComputeGraphPtr& graph) {
  static const std::string* const kHost = new std::string(kDefaultEngineName);
  static const std::string* const kCompute = new std::string(kEngineAiCore);
  const KernelRegistry& kernels = KernelRegistry::Instance();
  for (const NodePtr& n : graph->DirectNodes()) {
    OpDesc* op = n->GetOpDescBarePtr();
    const KernelDef* def = kernels.Find(op->GetType(), kEngineAiCore);
    if (def == nullptr || !def->CheckSupported(*op).ok()) {
      op->SetOpEngineName(*kHost);
      continue;
    }
    ASSIGN_OR_RETURN(std::vector<int64_t> ws, def->PlannedWorkspace(*op));
    if (!ws.empty()) op->SetWorkspaceBytes(ws);
    op->SetOpEngineName(*kCompute);
  }
  PartitionResult result;
  result.subgraphs.push_back(graph);
  result.engines.emplace_back(kDefaultEngineName);
  return result;
}

}  // namespace

StatusOr<PartitionResult> EnginePartitioner::Partition(const ComputeGraphPtr& graph) {
  if (graph == nullptr) return ParamInvalid("EnginePartitioner: null graph");
  static const std::string* const kEngine = new std::string(kDefaultEngineName);
  // Per node: a kernel declaring static shapes only (every compute kernel
  // today) refuses a node with unknown dims in CheckSupported.
  if (use_compute_engine_ && graph->GetAllSubgraphs().empty() &&
      graph->GetParentGraph() == nullptr) {
    return PlaceOnEngines(graph);
  }
  if (graph->GetAllSubgraphs().empty() && graph->GetParentGraph() == nullptr) {
    // The cached order (when current) is the same node set in an array: its
    // loads do not wait on each other as the node list's links do.
    TopoOrderCache* cache = TopoOrderCache::Current();
    const NodeOrder order = cache == nullptr ? nullptr : cache->FindShared(*graph);
    if (order != nullptr) {
      for (const NodePtr& n : *order) n->GetOpDescBarePtr()->SetOpEngineName(*kEngine);
    } else {
      for (const NodePtr& n : graph->DirectNodes()) {
        n->GetOpDescBarePtr()->SetOpEngineName(*kEngine);
      }
    }
  } else {
    for (Node* node : graph->GetAllNodesPtr()) node->GetOpDescBarePtr()->SetOpEngineName(*kEngine);
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

  // One inference memo for the whole compile: prepare infers every node, the
  // ShapeOptimization rounds of Stage 1 / 2 then re-infer only the nodes
  // whose inputs changed (see InferShapeMemo).
  InferShapeMemo memo;
  InferShapeMemo::Scope memo_scope(&memo);
  // Topological orders and graph facts (inferred, no dead code) reused
  // across passes and pipelines while the graph is not edited; every edit
  // this file makes outside the GraphRewriter calls NoteGraphEdit().
  TopoOrderCache topo_cache;
  TopoOrderCache::Scope topo_scope(&topo_cache);
  CompileResult result;
  result.graph = graph;
  PartitionResult partitions;
  bool have_partitions = false;
  for (int32_t i = first; i < kNumBuildSteps; ++i) {
    const BuildStep step = static_cast<BuildStep>(i);
    switch (step) {
      case BuildStep::kAfterPrepare:
        memo.set_recording(false);
        RETURN_IF_ERROR(preparer.Prepare(graph, options));
        memo.set_recording(true);
        break;
      case BuildStep::kBeforePartition:
        RETURN_IF_ERROR(optimizer.OptimizeOriginalGraph(graph, options));
        break;
      case BuildStep::kAfterPartition: {
        partitioner->set_use_compute_engine(options.use_compute_engine);
        ASSIGN_OR_RETURN(partitions, partitioner->Partition(graph));
        // A caller's partitioner may restructure the graph (the default one
        // only names engines).
        if (typeid(*partitioner) != typeid(EnginePartitioner)) NoteGraphEdit();
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
        if (typeid(*partitioner) != typeid(EnginePartitioner)) NoteGraphEdit();
        RETURN_IF_ERROR(StageDone(graph, "MergeSubgraph", options));
        break;
      }
      case BuildStep::kAfterOptimize:
        RETURN_IF_ERROR(optimizer.OptimizeAfterMerge(graph, options));
        break;
      case BuildStep::kAfterBuild: {
        ASSIGN_OR_RETURN(ComputeGraphPtr built, builder->Build(graph));
        NoteGraphEdit();
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
