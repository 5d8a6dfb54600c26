// Tests of TransOpBreadthFusionPass: identical trans ops on one fan-out are
// merged (checked against the reference interpreter), different ones kept.
#include "compiler/passes/trans_op_breadth_fusion_pass.h"

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/passes/testing/pass_test_util.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
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

reftest::Attrs Perm(std::vector<int64_t> p) {
  return {{"perm", AttrValue::CreateFrom<std::vector<int64_t>>(std::move(p))}};
}
reftest::Attrs To(DataType dt) { return {{"to", AttrValue::CreateFrom<DataType>(dt)}}; }

std::vector<float> Iota(int n) {
  std::vector<float> v;
  for (int i = 0; i < n; ++i) v.push_back(static_cast<float>(i) - 3.0f);
  return v;
}

TEST(TransOpBreadthFusionPassTest, MergesEqualTransposesKeepsDifferentOnes) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr t1 = g.Op("t1", "Transpose", {x}, Perm({1, 0, 2}));
  NodePtr t2 = g.Op("t2", "Transpose", {x}, Perm({1, 0, 2}));
  NodePtr t3 = g.Op("t3", "Transpose", {x}, Perm({2, 1, 0}));
  NodePtr a = g.Op("a", "Relu", {t1});
  NodePtr b = g.Op("b", "Neg", {t2});
  NodePtr c = g.Op("c", "Relu", {t3});
  g.NetOutput({a, b, c, t2});
  const auto inputs = Inputs(F32({2, 3, 4}, Iota(24)));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());

  TransOpBreadthFusionPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(pass.merged_count(), 1);
  EXPECT_EQ(CountType(*g.graph(), "Transpose"), 2u);
  EXPECT_EQ(g.graph()->FindNode("t2"), nullptr);
  // b reads t1 now.
  EXPECT_EQ(b->GetInDataNodes()[0], t1);
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));

  // A second run finds nothing.
  auto again = pass.Run(g.graph());
  GE_ASSERT_OK(again.status());
  EXPECT_FALSE(*again);
}

TEST(TransOpBreadthFusionPassTest, MergesCastsByTargetTypeAndMovesControlEdges) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr c1 = g.Op("c1", "Cast", {x}, To(DT_INT32));
  NodePtr c2 = g.Op("c2", "Cast", {x}, To(DT_INT32));
  NodePtr c3 = g.Op("c3", "Cast", {x}, To(DT_DOUBLE));
  NodePtr n = g.Op("n", "Neg", {x});
  g.Control(n, c2);
  NodePtr after = g.Op("after", "Relu", {x});
  g.Control(c2, after);
  g.NetOutput({c1, c2, c3, after});
  const auto inputs = Inputs(F32({4}, {-1.5f, 0.5f, 2.0f, 7.25f}));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());

  TransOpBreadthFusionPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(CountType(*g.graph(), "Cast"), 2u);
  // The kept cast got the duplicate's control predecessor and successor.
  std::vector<NodePtr> preds = c1->GetInControlNodes();
  EXPECT_NE(std::find(preds.begin(), preds.end(), n), preds.end());
  std::vector<NodePtr> succs = c1->GetOutControlNodes();
  EXPECT_NE(std::find(succs.begin(), succs.end(), after), succs.end());
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

TEST(TransOpBreadthFusionPassTest, LeavesOtherOpsAndSingleConsumersAlone) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr r1 = g.Op("r1", "Relu", {x});
  NodePtr r2 = g.Op("r2", "Relu", {x});  // not a trans op: CSE's job
  NodePtr t = g.Op("t", "Transpose", {r1}, Perm({0}));
  g.NetOutput({r2, t});
  const auto inputs = Inputs(F32({3}, {1, -2, 3}));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  TransOpBreadthFusionPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_FALSE(*changed);
  EXPECT_EQ(CountType(*g.graph(), "Relu"), 2u);
  EXPECT_TRUE(TransOpBreadthFusionPass::IsTransOpType("TransData"));
  EXPECT_FALSE(TransOpBreadthFusionPass::IsTransOpType("Relu"));
}

TEST(TransOpBreadthFusionPassTest, NullGraphIsAnError) {
  TransOpBreadthFusionPass pass;
  auto r = pass.Run(nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
}

}  // namespace
}  // namespace ge
