// Tests of FuseDataNodesWithCommonInputPass: If branches whose Data nodes
// stand for the same parent value are merged; loops are left alone.
#include "compiler/passes/fuse_data_nodes_with_common_input_pass.h"

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
using reftest::Bool;
using reftest::F32;
using reftest::I64;
using reftest::Inputs;
using reftest::TestGraph;
using ::testing::HasSubstr;

// If(cond, x, x, y): then = a + b (a, b: parent 1, 2) * c (parent 3);
// else = a - b.
struct IfGraph {
  TestGraph root{"root"};
  NodePtr if_node;
  ComputeGraphPtr then_g;
  ComputeGraphPtr else_g;
};

void Build(IfGraph* g) {
  NodePtr cond = g->root.Data("cond", 0);
  NodePtr x = g->root.Data("x", 1);
  NodePtr y = g->root.Data("y", 2);
  NodePtr relu = g->root.Op("relu", "Relu", {x});
  g->if_node = g->root.Op("if", "If", {cond, relu, relu, y}, {}, {{"input", 3}, {"output", 1}});
  g->root.NetOutput({g->if_node});
  TestGraph t("then", g->if_node, 0);
  NodePtr ta = t.Data("ta", -1, 1);
  NodePtr tb = t.Data("tb", -1, 2);
  NodePtr tc = t.Data("tc", -1, 3);
  t.NetOutput({t.Op("mul", "Mul", {t.Op("add", "Add", {ta, tb}), tc})});
  TestGraph e("else", g->if_node, 1);
  NodePtr ea = e.Data("ea", -1, 1);
  NodePtr eb = e.Data("eb", -1, 2);
  e.NetOutput({e.Op("sub", "Sub", {eb, ea})});
  g->then_g = t.graph();
  g->else_g = e.graph();
}

TEST(FuseDataNodesWithCommonInputPassTest, MergesDataOfTheSameParentValue) {
  for (bool c : {true, false}) {
    SCOPED_TRACE(c);
    IfGraph fresh;
    Build(&fresh);
    const auto inputs = Inputs(Bool({}, {c}), F32({3}, {1, -2, 3}), F32({3}, {2, 2, 2}));
    GE_ASSERT_OK(InferDescsByRunning(fresh.root.graph(), inputs));
    ComputeGraphPtr before = Snapshot(fresh.root.graph());
    FuseDataNodesWithCommonInputPass pass;
    auto changed = pass.Run(fresh.root.graph());
    GE_ASSERT_OK(changed.status());
    EXPECT_TRUE(*changed);
    EXPECT_EQ(pass.fused_count(), 2);  // tb and eb
    EXPECT_NE(fresh.then_g->FindNode("ta"), nullptr);
    EXPECT_EQ(fresh.then_g->FindNode("tb"), nullptr);
    EXPECT_NE(fresh.then_g->FindNode("tc"), nullptr);  // y is another value
    EXPECT_EQ(fresh.else_g->FindNode("eb"), nullptr);
    NodePtr add = fresh.then_g->FindNode("add");
    ASSERT_NE(add, nullptr);
    EXPECT_EQ(add->GetInDataNodes()[0]->GetName(), "ta");
    EXPECT_EQ(add->GetInDataNodes()[1]->GetName(), "ta");
    EXPECT_TRUE(SameResults(*before, *fresh.root.graph(), inputs));
    auto again = pass.Run(fresh.root.graph());
    GE_ASSERT_OK(again.status());
    EXPECT_FALSE(*again);
  }
}

TEST(FuseDataNodesWithCommonInputPassTest, DistinctInputsAreKept) {
  TestGraph root("root");
  NodePtr cond = root.Data("cond", 0);
  NodePtr x = root.Data("x", 1);
  NodePtr y = root.Data("y", 2);
  NodePtr if_node = root.Op("if", "If", {cond, x, y}, {}, {{"input", 2}, {"output", 1}});
  root.NetOutput({if_node});
  TestGraph t("then", if_node, 0);
  t.NetOutput({t.Op("add", "Add", {t.Data("a", -1, 1), t.Data("b", -1, 2)})});
  TestGraph e("else", if_node, 1);
  e.NetOutput({e.Op("neg", "Neg", {e.Data("c", -1, 1)})});
  FuseDataNodesWithCommonInputPass pass;
  auto changed = pass.Run(root.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_FALSE(*changed);
  EXPECT_EQ(CountType(*t.graph(), "Data"), 2u);
}

TEST(FuseDataNodesWithCommonInputPassTest, LoopCarriedValuesAreNotMerged) {
  // Loop(M, cond, v, v): the two carried values start equal but differ later.
  TestGraph root("root");
  NodePtr m = root.Const("m", I64({}, {2}));
  NodePtr c = root.Const("c", Bool({}, {true}));
  NodePtr v = root.Data("v", 0);
  NodePtr loop = root.Op("loop", "Loop", {m, c, v, v}, {},
                         {{"v_initial", 2}, {"v_final_and_scan_outputs", 2}});
  root.NetOutput({loop, {loop, 1}});
  TestGraph body("body", loop, 0);
  body.Data("i", -1, 0);
  NodePtr bc = body.Data("bc", -1, 1);
  NodePtr a = body.Data("a", -1, 2);
  NodePtr b = body.Data("b", -1, 3);
  body.NetOutput({bc, body.Op("neg", "Neg", {a}), b});
  FuseDataNodesWithCommonInputPass pass;
  auto changed = pass.Run(root.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_FALSE(*changed);
  EXPECT_EQ(CountType(*body.graph(), "Data"), 4u);
}

TEST(FuseDataNodesWithCommonInputPassTest, BadParentIndexIsAnError) {
  TestGraph root("root");
  NodePtr cond = root.Data("cond", 0);
  NodePtr x = root.Data("x", 1);
  NodePtr if_node = root.Op("if", "If", {cond, x}, {}, {{"input", 1}, {"output", 1}});
  root.NetOutput({if_node});
  TestGraph t("then", if_node, 0);
  t.NetOutput({t.Op("neg", "Neg", {t.Data("bad_data", -1, 7)})});
  TestGraph e("else", if_node, 1);
  e.NetOutput({e.Op("neg", "Neg", {e.Data("c", -1, 1)})});
  FuseDataNodesWithCommonInputPass pass;
  auto r = pass.Run(root.graph());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kGraphInvalid);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("bad_data"));
}

}  // namespace
}  // namespace ge
