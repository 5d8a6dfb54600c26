// compiler/stages/stage_pass_lists.h
//
// The built-in pass pipelines of GraphOptimize (seed 002 §1.3), as data: each
// stage is a list of registered pass names (pass_registry.h) in seed order.
// This is the one place a built-in pass is put into the compile pipeline;
// ge.disabledPasses, dumps ("OptimizeStage1_<name>") and ge_opt use the same
// names.
//
//   Stage 1: RefineRunningPrecisionPass (ge.exec.precision_mode; first, so
//            the later passes see the final types), ConstantFuseSamePass,
//            CommonSubexpressionEliminationPass,
//            FuseDataNodesWithCommonInputPass, TransOpBreadthFusionPass,
//            ShapeOptimizationPass (InferShapePass <-> ConstantFoldingPass to a
//            fixed point, seed §8), NodeSimplifyPasses (CastRemovePass,
//            ReshapeRemovePass, IdentityDeletePass in one GEPass traversal),
//            DeadCodeEliminationPass, ControlFlowLoweringPass (only with
//            CompileOptions::lower_control_flow).
//   Subgraph (each partition, after placement): RefineRunningFormatPass (the
//            compute engine's layouts).
//   Stage 2: InnerIdentityDeletePass, ShapeOptimizationPass, CondRemovePass,
//            DeadCodeEliminationPass.
//
// Adding a pass: its files and test, its target in compiler/passes/BUILD.bazel
// (alwayslink, listed in BUILTIN_PASSES there), and its name in a list here.
//
// Example
//   PassManager stage1("OptimizeStage1");
//   RETURN_IF_ERROR(AddStagePasses(Stage1Passes(), &stage1));
#ifndef COMPILER_STAGES_STAGE_PASS_LISTS_H_
#define COMPILER_STAGES_STAGE_PASS_LISTS_H_

#include <string>
#include <vector>

#include "compiler/passes/pass_framework/pass_manager.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// When an entry runs; the stages evaluate it against the CompileOptions.
enum class PassCondition : int32_t {
  kAlways = 0,
  kLowerControlFlow = 1,  // CompileOptions::lower_control_flow
};

struct StagePassEntry {
  // A registered graph pass, a registered node pass (run alone in a
  // NodePassGroup of that name), or the name of a group of `node_passes`.
  std::string name;
  // Registered node passes run together in one GEPass traversal.
  std::vector<std::string> node_passes;
  PassCondition condition = PassCondition::kAlways;
};

const std::vector<StagePassEntry>& Stage1Passes();
const std::vector<StagePassEntry>& SubgraphPasses();
const std::vector<StagePassEntry>& Stage2Passes();

// Appends the entries' passes, created through the PassRegistry, to
// `manager`, each under its entry's name; NotFound naming the entry for an
// unregistered name.
Status AddStagePasses(const std::vector<StagePassEntry>& entries, PassManager* manager);

// Whether `name` is an entry or a node pass of any built-in stage list.
bool IsBuiltinStagePass(absl::string_view name);

}  // namespace ge

#endif  // COMPILER_STAGES_STAGE_PASS_LISTS_H_
