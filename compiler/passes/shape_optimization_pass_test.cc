// compiler/passes/shape_optimization_pass_test.cc
//
// The InferShape <-> ConstantFolding fixed point of seed 002 section 8: the
// Shape -> Gather -> Reshape chain becomes static and the graph computes the
// same outputs in the reference interpreter.
#include "compiler/passes/shape_optimization_pass.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_interpreter.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using reftest::F32;
using reftest::I64;
using reftest::Inputs;
using reftest::TestGraph;
using reftest::ToF32;
using ::testing::ElementsAre;

std::vector<float> Iota(int n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i);
  return v;
}

TEST(ShapeOptimizationPassTest, SeedShapeGatherReshapeChainEndsStatic) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {3, 4, 5, 6});
  NodePtr shape = g.Op("shape", "Shape", {x});
  NodePtr idx = g.Const("idx", I64({4}, {1, 0, 2, 3}));
  NodePtr gather = g.Op("gather", "Gather", {shape, idx});
  NodePtr reshape = g.Op("reshape", "Reshape", {x, gather});
  g.NetOutput({reshape});
  auto before = ReferenceInterpreter::Run(*g.graph(), Inputs(F32({3, 4, 5, 6}, Iota(360))));
  GE_ASSERT_OK(before.status());

  ShapeOptimizationPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  EXPECT_GE(pass.last_iterations(), 2);
  EXPECT_EQ(g.graph()->FindNode("shape"), nullptr);
  EXPECT_EQ(g.graph()->FindNode("gather"), nullptr);
  ASSERT_EQ(g.graph()->FindNode("reshape"), reshape);
  EXPECT_EQ(reshape->GetOpDescBarePtr()->GetOutputDesc(0).GetShape(), GeShape({4, 3, 5, 6}));
  EXPECT_EQ(reshape->GetOpDescBarePtr()->GetOutputDesc(0).GetDataType(), DT_FLOAT);
  // The shape input of the Reshape is now a Const.
  NodePtr shape_src = reshape->GetInDataAnchor(1)->GetPeerOutAnchor()->GetOwnerNode();
  EXPECT_EQ(shape_src->GetType(), CONSTANT);
  // NetOutput's input desc is static too.
  NodePtr out = g.graph()->FindFirstNodeMatchType(NETOUTPUT);
  EXPECT_EQ(out->GetOpDescBarePtr()->GetInputDesc(0).GetShape(), GeShape({4, 3, 5, 6}));

  auto after = ReferenceInterpreter::Run(*g.graph(), Inputs(F32({3, 4, 5, 6}, Iota(360))));
  GE_ASSERT_OK(after.status());
  EXPECT_THAT(reftest::Dims((*after)[0]), ElementsAre(4, 3, 5, 6));
  EXPECT_EQ(ToF32((*after)[0]), ToF32((*before)[0]));

  // Converged: running again changes nothing in one round.
  auto again = pass.Run(g.graph());
  GE_ASSERT_OK(again.status());
  EXPECT_FALSE(*again);
  EXPECT_EQ(pass.last_iterations(), 1);
}

TEST(ShapeOptimizationPassTest, DynamicInputKeepsTheChain) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {-1, 4});
  NodePtr shape = g.Op("shape", "Shape", {x});
  NodePtr idx = g.Const("idx", I64({2}, {1, 0}));
  NodePtr gather = g.Op("gather", "Gather", {shape, idx});
  NodePtr reshape = g.Op("reshape", "Reshape", {x, gather});
  g.NetOutput({reshape});
  ShapeOptimizationPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);  // descs were inferred
  EXPECT_NE(g.graph()->FindNode("shape"), nullptr);
  EXPECT_NE(g.graph()->FindNode("gather"), nullptr);
  EXPECT_TRUE(reshape->GetOpDescBarePtr()->GetOutputDesc(0).GetShape().IsUnknownShape());
  auto after = ReferenceInterpreter::Run(*g.graph(), Inputs(F32({2, 4}, Iota(8))));
  GE_ASSERT_OK(after.status());
  EXPECT_THAT(reftest::Dims((*after)[0]), ElementsAre(4, 2));
}

TEST(ShapeOptimizationPassTest, ConstSubexpressionsFoldAndShapesPropagate) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {2, 3});
  NodePtr a = g.Const("a", F32({3}, {1, 2, 3}));
  NodePtr b = g.Const("b", F32({3}, {1, 1, 1}));
  NodePtr ab = g.Op("ab", "Add", {a, b});
  NodePtr y = g.Op("y", "Mul", {x, ab});
  g.NetOutput({y});
  auto before = ReferenceInterpreter::Run(*g.graph(), Inputs(F32({2, 3}, Iota(6))));
  GE_ASSERT_OK(before.status());
  ShapeOptimizationPass pass;
  GE_ASSERT_OK(pass.Run(g.graph()).status());
  EXPECT_EQ(g.graph()->FindNode("ab"), nullptr);
  EXPECT_EQ(y->GetOpDescBarePtr()->GetOutputDesc(0).GetShape(), GeShape({2, 3}));
  auto after = ReferenceInterpreter::Run(*g.graph(), Inputs(F32({2, 3}, Iota(6))));
  GE_ASSERT_OK(after.status());
  EXPECT_EQ(ToF32((*after)[0]), ToF32((*before)[0]));
}

TEST(ShapeOptimizationPassTest, RoundCapIsReported) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {3, 4});
  NodePtr shape = g.Op("shape", "Shape", {x});
  NodePtr reshape = g.Op("reshape", "Reshape", {x, shape});
  g.NetOutput({reshape});
  ShapeOptimizationPass pass;
  pass.set_max_iterations(1);  // the first round changes the graph
  auto r = pass.Run(g.graph());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kInternal);
}

}  // namespace
}  // namespace ge
