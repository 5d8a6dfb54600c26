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

using ::testing::ElementsAre;
using passtest::CountType;
using passtest::InferDescsByRunning;
using passtest::SameResults;
using passtest::Snapshot;
using reftest::F32;
using reftest::Inputs;
using reftest::TestGraph;

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

TEST(DeadCodeEliminationPassTest, ControlEdgesToLiveNodesKeepTheirSources) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr abs = g.Op("abs", "Abs", {x});  // no data consumer, but ordered before relu
  NodePtr relu = g.Op("relu", "Relu", {x});
  NodePtr dead = g.Op("dead", "Neg", {abs});
  g.Control(abs, relu);
  g.NetOutput({relu});
  (void)dead;
  const auto inputs = Inputs(F32({2}, {-3, 4}));
  ComputeGraphPtr before = Snapshot(g.graph());
  GE_ASSERT_OK(RunDce(g.graph()));
  EXPECT_THAT(testing::NodeNames(*g.graph()), ElementsAre("x", "abs", "relu", "output"));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

TEST(DeadCodeEliminationPassTest, NodesWithSideEffectsAndTheirInputsStay) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr sq = g.Op("sq", "Mul", {x, x});
  NodePtr effect = g.Op("effect", "Neg", {sq});
  GE_ASSERT_OK(effect->GetOpDesc()->SetAttr(kAttrHasSideEffect, AttrValue::CreateFrom<bool>(true)));
  NodePtr pure = g.Op("pure", "Neg", {sq});
  g.NetOutput({g.Op("relu", "Relu", {x})});
  (void)pure;
  const auto inputs = Inputs(F32({2}, {-3, 4}));
  ComputeGraphPtr before = Snapshot(g.graph());
  auto changed = RunDce(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_THAT(testing::NodeNames(*g.graph()), ElementsAre("x", "sq", "effect", "relu", "output"));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));

  // Side-effect op types are kept without the attribute.
  testing::GraphBuilder b("typed");
  NodePtr d = b.AddNode("d", DATA, 0, 1);
  NodePtr send = b.AddNode("send", "Send", 1, 0);
  NodePtr var = b.AddNode("var", VARIABLE, 0, 1);
  NodePtr out = b.AddNode("out", NETOUTPUT, 1, 0);
  NodePtr junk = b.AddNode("junk", "Relu", 1, 1);
  b.AddDataEdge(d, 0, send, 0);
  b.AddDataEdge(d, 0, out, 0);
  b.AddDataEdge(d, 0, junk, 0);
  (void)var;
  GE_ASSERT_OK(RunDce(b.graph()));
  EXPECT_THAT(testing::NodeNames(*b.graph()), ElementsAre("d", "send", "var", "out"));
}

TEST(DeadCodeEliminationPassTest, GraphOutputEntriesAreRootsAndGraphsWithoutOutputsStay) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr relu = g.Op("relu", "Relu", {x});
  NodePtr neg = g.Op("neg", "Neg", {x});
  (void)neg;
  // No outputs declared yet: nothing is dead.
  auto changed = RunDce(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
  EXPECT_EQ(g.graph()->GetDirectNodesSize(), 3u);

  g.graph()->SetGraphOutNodesInfo({{relu, 0}});
  const auto inputs = Inputs(F32({2}, {-3, 4}));
  ComputeGraphPtr before = Snapshot(g.graph());
  changed = RunDce(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_THAT(testing::NodeNames(*g.graph()), ElementsAre("x", "relu"));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

// root: x -> call(f) -> output, plus a dead call(h). f: data -> relu -> out,
// with a dead neg.
TEST(DeadCodeEliminationPassTest, CleansSubgraphsAndDropsThoseOfDeadNodes) {
  TestGraph g("root");
  NodePtr x = g.Data("x", 0);
  NodePtr call = g.Op("call", PARTITIONEDCALL, {x}, {}, {{"args", 1}, {"output", 1}});
  NodePtr dead_call = g.Op("dead_call", PARTITIONEDCALL, {x}, {}, {{"args", 1}, {"output", 1}});
  g.NetOutput({call});
  TestGraph f("f", call, 0);
  NodePtr fd = f.Data("fd", -1, 0);
  NodePtr frelu = f.Op("frelu", "Relu", {fd});
  f.Op("fneg", "Neg", {fd});
  f.NetOutput({frelu}, "f_out");
  TestGraph h("h", dead_call, 0);
  NodePtr hd = h.Data("hd", -1, 0);
  h.NetOutput({h.Op("hrelu", "Relu", {hd})}, "h_out");
  GE_ASSERT_OK(GraphVerifier::Verify(*g.graph()));
  ASSERT_EQ(g.graph()->GetAllSubgraphs().size(), 2u);

  const auto inputs = Inputs(F32({3}, {-1, 0, 5}));
  ComputeGraphPtr before = Snapshot(g.graph());
  auto changed = RunDce(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_THAT(testing::NodeNames(*g.graph()), ElementsAre("x", "call", "output"));
  ASSERT_EQ(g.graph()->GetAllSubgraphs().size(), 1u);
  EXPECT_THAT(testing::NodeNames(*f.graph()), ElementsAre("fd", "frelu", "f_out"));
  EXPECT_EQ(CountType(*g.graph(), "Neg"), 0u);
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

}  // namespace
}  // namespace ge
