// compiler/passes/dead_code_elimination_pass_test.cc
#include "compiler/passes/dead_code_elimination_pass.h"

#include <string>
#include <vector>

#include "compiler/passes/pass_framework/graph_verifier.h"
#include "compiler/passes/pass_framework/pass_manager.h"
#include "compiler/passes/pass_utils.h"
#include "compiler/passes/testing/pass_test_util.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/op_types.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using passtest::CountType;
using passtest::InferDescsByRunning;
using passtest::SameResults;
using passtest::Snapshot;
using reftest::F32;
using reftest::Inputs;
using reftest::TestGraph;
using ::testing::ElementsAre;

StatusOr<bool> RunDce(const ComputeGraphPtr& graph) {
  PassManager pm("dce");  // verifies before and after
  pm.AddPass<DeadCodeEliminationPass>();
  return pm.Run(graph);
}

TEST(DeadCodeEliminationPassTest, RemovesNodesThatNeverReachTheOutput) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr unused_input = g.Data("unused", 1);
  NodePtr relu = g.Op("relu", "Relu", {x});
  NodePtr neg = g.Op("neg", "Neg", {x});
  NodePtr exp = g.Op("exp", "Exp", {neg});
  NodePtr bias = g.Const("bias", F32({3}, {1, 2, 3}));
  g.Op("add", "Add", {exp, bias});
  g.NetOutput({relu});
  (void)unused_input;
  const auto inputs = Inputs(F32({3}, {-1, 0, 2}), F32({1}, {7}));
  ComputeGraphPtr before = Snapshot(g.graph());

  auto changed = RunDce(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_EQ(g.graph()->GetDirectNodesSize(), before->GetDirectNodesSize() - 4);
  EXPECT_THAT(testing::NodeNames(*g.graph()), ElementsAre("x", "unused", "relu", "output"));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));

  // Nothing left to remove.
  changed = RunDce(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
}

}  // namespace
}  // namespace ge
