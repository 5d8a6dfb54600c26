// Implementation of compiler/stages/stage_pass_lists.h.
#include "compiler/stages/stage_pass_lists.h"

#include <memory>
#include <utility>

#include "compiler/passes/pass_framework/ge_pass.h"
#include "compiler/passes/pass_framework/pass_registry.h"

namespace ge {

const std::vector<StagePassEntry>& Stage1Passes() {
  static const auto* const list = new std::vector<StagePassEntry>{
      {"RefineRunningPrecisionPass"},
      {"ConstantFuseSamePass"},
      {"CommonSubexpressionEliminationPass"},
      {"FuseDataNodesWithCommonInputPass"},
      {"TransOpBreadthFusionPass"},
      {"ShapeOptimizationPass"},
      {"NodeSimplifyPasses", {"CastRemovePass", "ReshapeRemovePass", "IdentityDeletePass"}},
      {"DeadCodeEliminationPass"},
      {"ControlFlowLoweringPass", {}, PassCondition::kLowerControlFlow},
  };
  return *list;
}

const std::vector<StagePassEntry>& SubgraphPasses() {
  static const auto* const list = new std::vector<StagePassEntry>{
      {"RefineRunningFormatPass"},
  };
  return *list;
}

const std::vector<StagePassEntry>& Stage2Passes() {
  static const auto* const list = new std::vector<StagePassEntry>{
      {"InnerIdentityDeletePass"},
      {"ShapeOptimizationPass"},
      {"CondRemovePass"},
      {"DeadCodeEliminationPass"},
  };
  return *list;
}

namespace {

StatusOr<std::unique_ptr<GraphPass>> CreateEntryPass(const StagePassEntry& entry) {
  const PassRegistry& registry = PassRegistry::Instance();
  if (entry.node_passes.empty() && registry.HasGraphPass(entry.name)) {
    return registry.CreateGraphPass(entry.name);
  }
  std::vector<std::string> members = entry.node_passes;
  if (members.empty()) members.push_back(entry.name);
  auto group = std::make_unique<NodePassGroup>(entry.name);
  for (const std::string& member : members) {
    auto pass = registry.CreateNodePass(member);
    if (!pass.ok()) return Annotate(pass.status(), "stage pass '", entry.name, "': ");
    RETURN_IF_ERROR(group->AddPass(member, std::move(*pass)));
  }
  return std::unique_ptr<GraphPass>(std::move(group));
}

}  // namespace

Status AddStagePasses(const std::vector<StagePassEntry>& entries, PassManager* manager) {
  if (manager == nullptr) return ParamInvalid("AddStagePasses: null manager");
  for (const StagePassEntry& entry : entries) {
    ASSIGN_OR_RETURN(std::unique_ptr<GraphPass> pass, CreateEntryPass(entry));
    RETURN_IF_ERROR(manager->AddPass(entry.name, std::move(pass)));
  }
  return OkStatus();
}

bool IsBuiltinStagePass(absl::string_view name) {
  for (const auto* list : {&Stage1Passes(), &SubgraphPasses(), &Stage2Passes()}) {
    for (const StagePassEntry& entry : *list) {
      if (entry.name == name) return true;
      for (const std::string& member : entry.node_passes) {
        if (member == name) return true;
      }
    }
  }
  return false;
}

}  // namespace ge
