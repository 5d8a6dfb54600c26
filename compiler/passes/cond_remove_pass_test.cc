// Tests of CondRemovePass: an If with a constant condition is replaced by
// the inlined branch it takes (same results in the reference interpreter).
#include "compiler/passes/cond_remove_pass.h"

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/passes/testing/pass_test_util.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_interpreter.h"
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
using reftest::ToF32;
using ::testing::ElementsAre;

// cond -> If(x, y): then = relu(x) + y, else = -x. Data x also feeds a
// control successor of the If.
struct IfGraph {
  TestGraph root{"root"};
  NodePtr if_node;
  NodePtr tail;
};

void Build(IfGraph* g, const NodePtr& cond) {
  NodePtr x = g->root.Data("x", 0);
  NodePtr y = g->root.Data("y", 1);
  g->if_node = g->root.Op("if", "If", {cond, x, y}, {}, {{"input", 2}, {"output", 1}});
  g->tail = g->root.Op("tail", "Abs", {g->if_node});
  NodePtr side = g->root.Op("side", "Neg", {y});
  g->root.Control(g->if_node, side);
  g->root.NetOutput({g->tail, side});
  TestGraph t("then", g->if_node, 0);
  NodePtr tx = t.Data("tx", -1, 1);
  NodePtr ty = t.Data("ty", -1, 2);
  t.NetOutput({t.Op("add", "Add", {t.Op("relu", "Relu", {tx}), ty})});
  TestGraph e("else", g->if_node, 1);
  e.NetOutput({e.Op("neg", "Neg", {e.Data("ex", -1, 1)})});
}

TEST(CondRemovePassTest, ConstantConditionInlinesTheTakenBranch) {
  for (bool c : {true, false}) {
    SCOPED_TRACE(c);
    IfGraph g;
    Build(&g, g.root.Const("cond", Bool({}, {c})));
    const auto inputs = Inputs(F32({3}, {-1, 2, -3}), F32({3}, {10, 20, 30}));
    GE_ASSERT_OK(InferDescsByRunning(g.root.graph(), inputs));
    ComputeGraphPtr before = Snapshot(g.root.graph());
    EXPECT_EQ(CondRemovePass::TakenBranch(*g.if_node), std::optional<uint32_t>(c ? 0u : 1u));

    CondRemovePass pass;
    auto changed = pass.Run(g.root.graph());
    GE_ASSERT_OK(changed.status());
    EXPECT_TRUE(*changed);
    EXPECT_EQ(pass.removed_count(), 1);
    EXPECT_EQ(CountType(*g.root.graph(), "If"), 0u);
    EXPECT_EQ(g.root.graph()->FindNode("if"), nullptr);
    EXPECT_EQ(g.root.graph()->FindNode("cond"), nullptr);  // orphaned const removed
    EXPECT_TRUE(g.root.graph()->GetAllSubgraphs().empty());
    if (c) {
      EXPECT_NE(g.root.graph()->FindNode("if/relu"), nullptr);
      EXPECT_NE(g.root.graph()->FindNode("if/add"), nullptr);
    } else {
      EXPECT_NE(g.root.graph()->FindNode("if/neg"), nullptr);
    }
    // The If's control successor now follows the inlined nodes.
    NodePtr side = g.root.graph()->FindNode("side");
    EXPECT_FALSE(side->GetInControlNodes().empty());
    EXPECT_TRUE(SameResults(*before, *g.root.graph(), inputs));
    auto again = pass.Run(g.root.graph());
    GE_ASSERT_OK(again.status());
    EXPECT_FALSE(*again);
  }
}

TEST(CondRemovePassTest, IntegerConditionAndPassThroughBranch) {
  TestGraph root("root");
  NodePtr cond = root.Const("cond", I64({1}, {0}));  // 0 -> else
  NodePtr x = root.Data("x", 0);
  NodePtr if_node = root.Op("if", "If", {cond, x}, {}, {{"input", 1}, {"output", 1}});
  root.NetOutput({if_node});
  TestGraph t("then", if_node, 0);
  t.NetOutput({t.Op("neg", "Neg", {t.Data("tx", -1, 1)})});
  TestGraph e("else", if_node, 1);
  e.NetOutput({e.Data("ex", -1, 1)});  // returns x unchanged
  CondRemovePass pass;
  auto changed = pass.Run(root.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(root.graph()->GetDirectNodesSize(), 2u);  // x, output
  auto run = ReferenceInterpreter::Run(*root.graph(), Inputs(F32({2}, {1.5f, -4})));
  GE_ASSERT_OK(run.status());
  EXPECT_THAT(ToF32((*run)[0]), ElementsAre(1.5f, -4));
}

TEST(CondRemovePassTest, NonConstantConditionIsKept) {
  IfGraph g;
  Build(&g, g.root.Data("cond", 2));
  CondRemovePass pass;
  auto changed = pass.Run(g.root.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_FALSE(*changed);
  EXPECT_EQ(CountType(*g.root.graph(), "If"), 1u);
  EXPECT_EQ(CondRemovePass::TakenBranch(*g.if_node), std::nullopt);
}

TEST(CondRemovePassTest, MultiElementConditionIsKept) {
  IfGraph g;
  Build(&g, g.root.Const("cond", Bool({2}, {true, false})));
  CondRemovePass pass;
  auto changed = pass.Run(g.root.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_FALSE(*changed);
}

TEST(CondRemovePassTest, OutputWithoutBranchValueIsAnError) {
  TestGraph root("root");
  NodePtr cond = root.Const("cond", Bool({}, {true}));
  NodePtr x = root.Data("x", 0);
  NodePtr if_node = root.Op("if", "If", {cond, x}, {}, {{"input", 1}, {"output", 1}});
  root.NetOutput({if_node});
  TestGraph t("then_missing", if_node, 0);
  t.NetOutput({reftest::Out()});  // output 0 left unlinked
  TestGraph e("else", if_node, 1);
  e.NetOutput({e.Data("ex", -1, 1)});
  CondRemovePass pass;
  auto r = pass.Run(root.graph());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kGraphInvalid);
  EXPECT_THAT(std::string(r.status().message()), ::testing::HasSubstr("then_missing"));
}

}  // namespace
}  // namespace ge
