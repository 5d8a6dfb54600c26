// compiler/passes/inner_identity_delete_pass_test.cc
#include "compiler/passes/inner_identity_delete_pass.h"

#include <string>
#include <vector>

#include "compiler/passes/testing/pass_test_util.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/op_types.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using passtest::CountType;
using passtest::RunNodePass;
using passtest::SameResults;
using passtest::Snapshot;
using reftest::F32;
using reftest::Inputs;
using reftest::TestGraph;
using ::testing::ElementsAre;
using testing::NodeNames;

TEST(InnerIdentityDeletePassTest, RemovesOnlyIdentitiesBetweenComputeNodes) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr after_data = g.Op("after_data", "Identity", {x});  // boundary: Data
  NodePtr relu = g.Op("relu", "Relu", {after_data});
  NodePtr inner = g.Op("inner", "Identity", {relu});  // removed
  NodePtr neg = g.Op("neg", "Neg", {inner});
  NodePtr k = g.Const("k", F32({2}, {1, 2}));
  NodePtr after_const = g.Op("after_const", "Identity", {k});  // boundary: Const
  NodePtr add = g.Op("add", "Add", {neg, after_const});
  NodePtr before_out = g.Op("before_out", "Identity", {add});  // boundary: NetOutput
  NodePtr ordered = g.Op("ordered", "Identity", {relu});       // control edge
  NodePtr abs = g.Op("abs", "Abs", {ordered});
  g.Control(neg, ordered);
  g.NetOutput({before_out, abs});
  const auto inputs = Inputs(F32({2}, {-1, 3}));
  ComputeGraphPtr before = Snapshot(g.graph());

  InnerIdentityDeletePass pass;
  auto changed = RunNodePass(g.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_FALSE(g.graph()->HasNode(inner));
  EXPECT_EQ(CountType(*g.graph(), "Identity"), 4u);
  EXPECT_TRUE(relu->GetOutDataAnchor(0)->IsLinkedWith(neg->GetInDataAnchor(0)));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));

  changed = RunNodePass(g.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
}

TEST(InnerIdentityDeletePassTest, KeepsGraphOutputEntriesAndControlFlowNeighbours) {
  testing::GraphBuilder b("g");
  NodePtr d = b.AddNode("d", DATA, 0, 1);
  NodePtr relu = b.AddNode("relu", "Relu", 1, 1);
  NodePtr id_out = b.AddNode("id_out", "Identity", 1, 1);
  NodePtr id_merge = b.AddNode("id_merge", "Identity", 1, 1);
  NodePtr merge = b.AddNode("merge", "Merge", 1, 1);
  b.AddDataEdge(d, 0, relu, 0);
  b.AddDataEdge(relu, 0, id_out, 0);
  b.AddDataEdge(relu, 0, id_merge, 0);
  b.AddDataEdge(id_merge, 0, merge, 0);
  b.graph()->SetGraphOutNodesInfo({{id_out, 0}, {merge, 0}});
  InnerIdentityDeletePass pass;
  auto changed = RunNodePass(b.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
  EXPECT_THAT(NodeNames(*b.graph()), ElementsAre("d", "relu", "id_out", "id_merge", "merge"));
}

}  // namespace
}  // namespace ge
