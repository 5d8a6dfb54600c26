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

using passtest::CountType;
using passtest::InferDescsByRunning;
using passtest::SameResults;
using passtest::Snapshot;
using reftest::F32;
using reftest::Inputs;
using reftest::TestGraph;
using ::testing::ElementsAre;
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

}  // namespace
}  // namespace ge
