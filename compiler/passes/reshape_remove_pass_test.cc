// compiler/passes/reshape_remove_pass_test.cc
#include "compiler/passes/reshape_remove_pass.h"

#include <optional>
#include <string>
#include <vector>

#include "compiler/passes/pass_framework/ge_pass.h"
#include "compiler/passes/testing/pass_test_util.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using passtest::CountType;
using passtest::InferDescsByRunning;
using passtest::RunNodePass;
using passtest::SameResults;
using passtest::Snapshot;
using reftest::F32;
using reftest::I64;
using reftest::Inputs;
using reftest::TestGraph;
using testing::NodeNames;

std::vector<float> Iota(int n) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = static_cast<float>(i) - 3.5f;
  return v;
}

TEST(ResolveReshapeTargetTest, OnnxRules) {
  const GeShape in({2, 3, 4});
  EXPECT_EQ(ResolveReshapeTarget(in, {6, 4}, false), GeShape({6, 4}));
  EXPECT_EQ(ResolveReshapeTarget(in, {0, -1}, false), GeShape({2, 12}));
  EXPECT_EQ(ResolveReshapeTarget(in, {0, 0, 0}, false), in);
  EXPECT_EQ(ResolveReshapeTarget(in, {-1}, false), GeShape({24}));
  EXPECT_EQ(ResolveReshapeTarget(in, {5, -1}, false), std::nullopt);   // 24 % 5
  EXPECT_EQ(ResolveReshapeTarget(in, {-1, -1}, false), std::nullopt);  // two -1
  EXPECT_EQ(ResolveReshapeTarget(in, {7}, false), std::nullopt);       // wrong size
  EXPECT_EQ(ResolveReshapeTarget(in, {-3, 8}, false), std::nullopt);
  EXPECT_EQ(ResolveReshapeTarget(in, {0, 0, 0, 0}, false), std::nullopt);  // copies past rank
  EXPECT_EQ(ResolveReshapeTarget(GeShape({0, 3}), {0, 3}, true), GeShape({0, 3}));
  EXPECT_EQ(ResolveReshapeTarget(GeShape({0, 3}), {0, -1}, true), std::nullopt);
  EXPECT_EQ(ResolveReshapeTarget(GeShape({-1, 3}), {3, -1}, false), std::nullopt);
}

TEST(ReshapeRemovePassTest, RemovesReshapesThatKeepTheShape) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr same = g.Op("same", "Reshape", {x, g.Const("s1", I64({2}, {2, 3}))});
  NodePtr relu = g.Op("relu", "Relu", {same});
  NodePtr copy_dims = g.Op("copy_dims", "Reshape", {relu, g.Const("s2", I64({2}, {0, -1}))});
  NodePtr real = g.Op("real", "Reshape", {copy_dims, g.Const("s3", I64({2}, {3, 2}))});
  g.NetOutput({real, copy_dims});
  const auto inputs = Inputs(F32({2, 3}, Iota(6)));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());
  ReshapeRemovePass pass;
  auto changed = RunNodePass(g.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  // Both no-op reshapes and their shape constants are gone.
  EXPECT_THAT(NodeNames(*g.graph()), ElementsAre("x", "relu", "s3", "real", "output"));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));

  changed = RunNodePass(g.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
}

TEST(ReshapeRemovePassTest, FoldsChainsAndThenTheResultingNoOp) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  // [2,3,4] -> [6,4] -> [4,6]: the outer reads x directly.
  NodePtr r1 = g.Op("r1", "Reshape", {x, g.Const("s1", I64({2}, {6, 4}))});
  NodePtr r2 = g.Op("r2", "Reshape", {r1, g.Const("s2", I64({2}, {4, -1}))});
  // [2,3,4] -> [24] -> [2,3,4]: folds into a no-op and disappears.
  NodePtr r3 = g.Op("r3", "Reshape", {x, g.Const("s3", I64({1}, {24}))});
  NodePtr r4 = g.Op("r4", "Reshape", {r3, g.Const("s4", I64({3}, {2, 3, 4}))});
  g.NetOutput({r2, g.Op("neg", "Neg", {r4})});
  const auto inputs = Inputs(F32({2, 3, 4}, Iota(24)));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());
  ReshapeRemovePass pass;
  GEPass driver(g.graph());
  auto changed = driver.Run({{"ReshapeRemovePass", &pass}});
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_EQ(CountType(*g.graph(), "Reshape"), 1u);
  EXPECT_TRUE(g.graph()->HasNode(r2));
  EXPECT_TRUE(x->GetOutDataAnchor(0)->IsLinkedWith(r2->GetInDataAnchor(0)));
  EXPECT_THAT(NodeNames(*g.graph()), ElementsAre("x", "s2", "r2", "neg", "output"));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

TEST(ReshapeRemovePassTest, NoOpsGoFirstThenChainsFoldAndUnusedInnersGo) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr r1 = g.Op("r1", "Reshape", {x, g.Const("s1", I64({2}, {6, 4}))});
  // [6,4] -> [0,-1] copies r1's dim 0: a no-op here, removed.
  NodePtr r2 = g.Op("r2", "Reshape", {r1, g.Const("s2", I64({2}, {0, -1}))});
  NodePtr r3 = g.Op("r3", "Reshape", {r2, g.Const("s3", I64({1}, {-1}))});
  NodePtr keep = g.Op("keep", "Reshape", {r1, g.Const("s4", I64({2}, {12, 2}))});
  g.NetOutput({r3, keep});
  const auto inputs = Inputs(F32({2, 3, 4}, Iota(24)));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());
  ReshapeRemovePass pass;
  GE_ASSERT_OK(RunNodePass(g.graph(), pass));
  // r2 goes; r3 and keep then fold onto x, which leaves r1 unused.
  EXPECT_FALSE(g.graph()->HasNode(r2));
  EXPECT_FALSE(g.graph()->HasNode(r1));
  EXPECT_EQ(CountType(*g.graph(), "Reshape"), 2u);
  EXPECT_TRUE(x->GetOutDataAnchor(0)->IsLinkedWith(r3->GetInDataAnchor(0)));
  EXPECT_TRUE(x->GetOutDataAnchor(0)->IsLinkedWith(keep->GetInDataAnchor(0)));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

TEST(ReshapeRemovePassTest, DoesNotFoldAChainWhoseTargetCopiesDims) {
  // [2,3,4] -> [6,4] -> [0,2,2] = [6,2,2]; folded it would copy x's dim 0
  // (2) instead of 6.
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr r1 = g.Op("r1", "Reshape", {x, g.Const("s1", I64({2}, {6, 4}))});
  NodePtr r2 = g.Op("r2", "Reshape", {r1, g.Const("s2", I64({3}, {0, 2, 2}))});
  g.NetOutput({r2});
  const auto inputs = Inputs(F32({2, 3, 4}, Iota(24)));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ComputeGraphPtr before = Snapshot(g.graph());
  ReshapeRemovePass pass;
  auto changed = RunNodePass(g.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
  EXPECT_EQ(CountType(*g.graph(), "Reshape"), 2u);
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

TEST(ReshapeRemovePassTest, UnknownOrInconsistentShapesAreLeftAlone) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr r = g.Op("r", "Reshape", {x, g.Const("s", I64({2}, {2, 3}))});
  g.NetOutput({r});
  const auto inputs = Inputs(F32({2, 3}, Iota(6)));
  GE_ASSERT_OK(InferDescsByRunning(g.graph(), inputs));
  ReshapeRemovePass pass;
  // An unknown dim in the descs.
  x->GetOpDesc()->MutableOutputDesc(0)->SetShape(GeShape({-1, 3}));
  r->GetOpDesc()->MutableInputDesc(0)->SetShape(GeShape({-1, 3}));
  auto changed = RunNodePass(g.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
  // Descs that claim a no-op the shape constant contradicts.
  x->GetOpDesc()->MutableOutputDesc(0)->SetShape(GeShape({3, 2}));
  r->GetOpDesc()->MutableInputDesc(0)->SetShape(GeShape({3, 2}));
  r->GetOpDesc()->MutableOutputDesc(0)->SetShape(GeShape({3, 2}));
  changed = RunNodePass(g.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
  EXPECT_TRUE(g.graph()->HasNode(r));
}

}  // namespace
}  // namespace ge
