// Every built-in pass is registered under its class name and can be created
// by it (//compiler/passes:builtin_passes).
#include <memory>
#include <string>

#include "compiler/passes/pass_framework/pass_registry.h"
#include "gmock/gmock.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::IsSupersetOf;

TEST(BuiltinPassesTest, EveryPassIsRegisteredByItsClassName) {
  const PassRegistry& registry = PassRegistry::Instance();
  EXPECT_THAT(
      registry.GraphPassNames(),
      IsSupersetOf({"CommonSubexpressionEliminationPass", "CondRemovePass", "ConstantFoldingPass",
                    "ConstantFuseSamePass", "ControlFlowLoweringPass", "DeadCodeEliminationPass",
                    "FuseDataNodesWithCommonInputPass", "InferShapePass", "ShapeOptimizationPass",
                    "TransOpBreadthFusionPass"}));
  EXPECT_THAT(registry.NodePassNames(),
              IsSupersetOf({"CastRemovePass", "IdentityDeletePass", "InnerIdentityDeletePass",
                            "ReshapeRemovePass"}));
  for (const std::string& name : registry.GraphPassNames()) {
    auto pass = registry.CreateGraphPass(name);
    GE_ASSERT_OK(pass.status());
    EXPECT_EQ((*pass)->name(), name);
  }
  for (const std::string& name : registry.NodePassNames()) {
    auto pass = registry.CreateNodePass(name);
    GE_ASSERT_OK(pass.status());
    EXPECT_EQ((*pass)->name(), name);
  }
}

}  // namespace
}  // namespace ge
