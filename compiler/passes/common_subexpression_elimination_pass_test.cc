// compiler/passes/common_subexpression_elimination_pass_test.cc
#include "compiler/passes/common_subexpression_elimination_pass.h"

#include <string>
#include <vector>

#include "compiler/passes/pass_framework/pass_manager.h"
#include "compiler/passes/pass_framework/topo_order.h"
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
using testing::NodeNames;

StatusOr<bool> RunCse(const ComputeGraphPtr& graph) {
  PassManager pm("cse");
  pm.AddPass<CommonSubexpressionEliminationPass>();
  return pm.Run(graph);
}

TEST(CommonSubexpressionEliminationPassTest, UnchangedGraphLeavesItsTypeCensusInTheCache) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr n1 = g.Op("n1", "Neg", {x});
  NodePtr r = g.Op("r", "Relu", {n1});
  g.NetOutput({r});
  TopoOrderCache cache;
  TopoOrderCache::Scope scope(&cache);
  auto changed = RunCse(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_FALSE(*changed);
  const auto* types = cache.FindTypes(*g.graph());
  ASSERT_NE(types, nullptr);
  EXPECT_EQ(types->size(), 4u);  // Data, Neg, Relu, NetOutput
  static constexpr const char* kRelu[] = {"Relu"};
  static constexpr const char* kCast[] = {"Cast"};
  EXPECT_TRUE(GraphTreeHasAnyType(*g.graph(), kRelu));
  EXPECT_FALSE(GraphTreeHasAnyType(*g.graph(), kCast));
  // After a change the census is not stored (it would list removed nodes).
  NodePtr n2 = g.Op("n2", "Neg", {x});
  NodePtr sum = g.Op("sum", "Add", {r, n2});
  (void)sum;
  NoteGraphEdit();
  cache.Clear();
  auto merged = RunCse(g.graph());
  GE_ASSERT_OK(merged.status());
  EXPECT_TRUE(*merged);
  EXPECT_EQ(cache.FindTypes(*g.graph()), nullptr);
}

TEST(CommonSubexpressionEliminationPassTest, MergesDuplicateChainsInOneRun) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr n1 = g.Op("n1", "Neg", {x});
  NodePtr n2 = g.Op("n2", "Neg", {x});
  NodePtr e1 = g.Op("e1", "Exp", {n1});
  NodePtr e2 = g.Op("e2", "Exp", {n2});
  NodePtr sum = g.Op("sum", "Add", {e1, e2});
  g.NetOutput({sum, e2});
  const auto inputs = Inputs(F32({3}, {-1, 0, 0.5f}));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());
  auto changed = RunCse(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_THAT(NodeNames(*g.graph()), ElementsAre("x", "n1", "e1", "sum", "output"));
  EXPECT_TRUE(e1->GetOutDataAnchor(0)->IsLinkedWith(sum->GetInDataAnchor(1)));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));

  changed = RunCse(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
}

TEST(CommonSubexpressionEliminationPassTest, InputOrderAttributesAndControlInputsMatter) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr y = g.Data("y", 1);
  NodePtr s1 = g.Op("s1", "Sub", {x, y});
  NodePtr s2 = g.Op("s2", "Sub", {y, x});  // other order
  NodePtr c1 = g.Op("c1", "Cast", {x}, {{"to", AttrValue::CreateFrom<DataType>(DT_INT32)}});
  NodePtr c2 = g.Op("c2", "Cast", {x}, {{"to", AttrValue::CreateFrom<DataType>(DT_DOUBLE)}});
  NodePtr gate = g.Op("gate", "Abs", {x});
  NodePtr r1 = g.Op("r1", "Relu", {y});
  NodePtr r2 = g.Op("r2", "Relu", {y});
  g.Control(gate, r2);  // r2 must wait for gate; r1 need not
  NodePtr r3 = g.Op("r3", "Relu", {y});
  g.Control(gate, r3);  // same control inputs as r2: merged
  g.NetOutput({s1, s2, c1, c2, gate, r1, r2, r3});
  const auto inputs = Inputs(F32({2}, {1.5f, -4}), F32({2}, {2, 3}));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());
  auto changed = RunCse(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_THAT(NodeNames(*g.graph()),
              ElementsAre("x", "y", "s1", "s2", "c1", "c2", "gate", "r1", "r2", "output"));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

TEST(CommonSubexpressionEliminationPassTest, NeverMergesSpecialOrEffectfulNodes) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr k1 = g.Const("k1", F32({1}, {2}));
  NodePtr k2 = g.Const("k2", F32({1}, {2}));  // ConstantFuseSamePass's job
  NodePtr e1 = g.Op("e1", "Neg", {x});
  NodePtr e2 = g.Op("e2", "Neg", {x});
  GE_ASSERT_OK(e1->GetOpDesc()->SetAttr(kAttrHasSideEffect, AttrValue::CreateFrom<bool>(true)));
  GE_ASSERT_OK(e2->GetOpDesc()->SetAttr(kAttrHasSideEffect, AttrValue::CreateFrom<bool>(true)));
  g.NetOutput({e1, e2, k1, k2});
  const auto inputs = Inputs(F32({1}, {3}));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  auto changed = RunCse(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
  EXPECT_EQ(g.graph()->GetDirectNodesSize(), 6u);

  // Random ops and nodes without data inputs, built without the oracle.
  testing::GraphBuilder b("raw");
  NodePtr seed = b.AddNode("seed", DATA, 0, 1);
  NodePtr rand1 = b.AddNode("rand1", "RandomUniformLike", 1, 1);
  NodePtr rand2 = b.AddNode("rand2", "RandomUniformLike", 1, 1);
  NodePtr gen1 = b.AddNode("gen1", "Range", 0, 1);
  NodePtr gen2 = b.AddNode("gen2", "Range", 0, 1);
  NodePtr out = b.AddNode("out", NETOUTPUT, 4, 0);
  b.AddDataEdge(seed, 0, rand1, 0);
  b.AddDataEdge(seed, 0, rand2, 0);
  b.AddDataEdge(rand1, 0, out, 0);
  b.AddDataEdge(rand2, 0, out, 1);
  b.AddDataEdge(gen1, 0, out, 2);
  b.AddDataEdge(gen2, 0, out, 3);
  changed = RunCse(b.graph());
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
  EXPECT_EQ(b.graph()->GetDirectNodesSize(), 6u);
}

TEST(CommonSubexpressionEliminationPassTest, MovesGraphOutputsAndControlSuccessors) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr a = g.Op("a", "Abs", {x});
  NodePtr b = g.Op("b", "Abs", {x});
  NodePtr later = g.Op("later", "Neg", {x});
  g.Control(b, later);
  g.graph()->SetGraphOutNodesInfo({{a, 0}, {b, 0}, {later, 0}});
  const auto inputs = Inputs(F32({2}, {-7, 7}));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());
  auto changed = RunCse(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_FALSE(g.graph()->HasNode(b));
  EXPECT_EQ(g.graph()->GetGraphOutNodesInfo()[1].first, a);
  EXPECT_TRUE(a->GetOutControlAnchor()->IsLinkedWith(later->GetInControlAnchor()));
  EXPECT_EQ(CountType(*g.graph(), "Abs"), 1u);
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

}  // namespace
}  // namespace ge
