// Tests of ControlFlowLoweringPass on a hand-built Switch / Merge diamond:
// the structure after lowering (StreamSwitch / StreamActive / StreamMerge,
// control edges, stream labels).
#include "compiler/passes/control_flow_lowering_pass.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/passes/pass_framework/graph_verifier.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using reftest::TestGraph;
using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

std::vector<NodePtr> OfType(const ComputeGraph& g, const std::string& type) {
  std::vector<NodePtr> out;
  for (const NodePtr& n : g.GetDirectNode()) {
    if (n->GetType() == type) out.push_back(n);
  }
  return out;
}

bool HasControl(const NodePtr& from, const NodePtr& to) {
  std::vector<NodePtr> succ = from->GetOutControlNodes();
  return std::find(succ.begin(), succ.end(), to) != succ.end();
}

std::string Label(const NodePtr& n) {
  auto l = AttrUtils::GetStr(n->GetOpDesc(), kAttrStreamLabel);
  return l.ok() ? *l : "";
}

// x, p -> Switch -> false: Neg -> Abs, true: Relu -> Merge -> Exp -> out.
struct Diamond {
  TestGraph g{"g"};
  NodePtr x, p, sw, neg, abs, relu, merge, exp;
};

void Build(Diamond* d) {
  d->x = d->g.Data("x", 0);
  d->p = d->g.Data("p", 1);
  d->sw = d->g.Op("sw", "Switch", {d->x, d->p});
  d->neg = d->g.Op("neg", "Neg", {{d->sw, 0}});
  d->abs = d->g.Op("abs", "Abs", {d->neg});
  d->relu = d->g.Op("relu", "Relu", {{d->sw, 1}});
  d->merge = d->g.Op("merge", "Merge", {d->abs, d->relu}, {}, {{"x", 2}});
  d->exp = d->g.Op("exp", "Exp", {d->merge});
  d->g.NetOutput({d->exp, {d->merge, 1}});
}

TEST(ControlFlowLoweringPassTest, LowersSwitchMergeDiamond) {
  Diamond d;
  Build(&d);
  ControlFlowLoweringPass pass;
  auto changed = pass.Run(d.g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(pass.lowered_switches(), 1);
  EXPECT_EQ(pass.lowered_merges(), 1);
  const ComputeGraph& g = *d.g.graph();
  EXPECT_TRUE(OfType(g, "Switch").empty());
  EXPECT_TRUE(OfType(g, "Merge").empty());
  std::vector<NodePtr> switches = OfType(g, "StreamSwitch");
  std::vector<NodePtr> actives = OfType(g, "StreamActive");
  std::vector<NodePtr> merges = OfType(g, "StreamMerge");
  ASSERT_EQ(switches.size(), 2u);
  ASSERT_EQ(actives.size(), 1u);
  ASSERT_EQ(merges.size(), 1u);

  NodePtr sw_false = g.FindNode("sw/stream_switch_false");
  NodePtr sw_true = g.FindNode("sw/stream_switch_true");
  ASSERT_NE(sw_false, nullptr);
  ASSERT_NE(sw_true, nullptr);
  EXPECT_EQ(*AttrUtils::GetInt(sw_true->GetOpDesc(), "switch_condition"), kStreamSwitchEqual);
  EXPECT_EQ(*AttrUtils::GetInt(sw_false->GetOpDesc(), "switch_condition"), kStreamSwitchNotEqual);
  // x1 = Cast(p -> INT32), x2 = Const 1.
  NodePtr cast = sw_true->GetInDataNodes()[0];
  EXPECT_EQ(cast->GetType(), "Cast");
  EXPECT_EQ(cast->GetInDataNodes()[0], d.p);
  EXPECT_EQ(sw_true->GetInDataNodes()[1]->GetType(), "Const");
  EXPECT_EQ(sw_false->GetInDataNodes()[0], cast);

  // StreamActive -> both switches -> their branch heads.
  EXPECT_TRUE(HasControl(actives[0], sw_true));
  EXPECT_TRUE(HasControl(actives[0], sw_false));
  EXPECT_TRUE(HasControl(sw_false, d.neg));
  EXPECT_TRUE(HasControl(sw_true, d.relu));
  auto active_labels = AttrUtils::GetListStr(actives[0]->GetOpDesc(), kAttrActiveLabelList);
  ASSERT_TRUE(active_labels.ok());
  EXPECT_THAT(*active_labels, UnorderedElementsAre("sw_false", "sw_true"));

  // Branch heads read x directly; labels spread to the merge.
  EXPECT_EQ(d.neg->GetInDataNodes()[0], d.x);
  EXPECT_EQ(d.relu->GetInDataNodes()[0], d.x);
  EXPECT_EQ(Label(d.neg), "sw_false");
  EXPECT_EQ(Label(d.abs), "sw_false");
  EXPECT_EQ(Label(d.relu), "sw_true");
  EXPECT_EQ(Label(d.exp), "");  // after the merge

  // The StreamMerge took over the Merge's inputs and both outputs.
  NodePtr sm = merges[0];
  EXPECT_EQ(Label(sm), "merge_merge");
  EXPECT_THAT(sm->GetInDataNodes(), ElementsAre(d.abs, d.relu));
  EXPECT_EQ(d.exp->GetInDataNodes()[0], sm);
  auto in_labels = AttrUtils::GetListStr(sm->GetOpDesc(), kAttrMergeInputLabels);
  ASSERT_TRUE(in_labels.ok());
  EXPECT_THAT(*in_labels, ElementsAre("sw_false", "sw_true"));
  NodePtr out = g.FindNode("output");
  EXPECT_EQ(out->GetInDataNodes()[1], sm);

  GE_EXPECT_OK(GraphVerifier::Verify(*d.g.graph()));
  auto again = pass.Run(d.g.graph());
  GE_ASSERT_OK(again.status());
  EXPECT_FALSE(*again);
}

TEST(ControlFlowLoweringPassTest, SwitchWithOneUsedBranchGetsOneStreamSwitch) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr p = g.Data("p", 1);
  NodePtr sw = g.Op("sw", "Switch", {x, p});
  NodePtr relu = g.Op("relu", "Relu", {{sw, 1}});
  g.NetOutput({relu});
  ControlFlowLoweringPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(OfType(*g.graph(), "StreamSwitch").size(), 1u);
  EXPECT_EQ(Label(relu), "sw_true");
}

TEST(ControlFlowLoweringPassTest, GraphWithoutControlFlowIsUnchanged) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  g.NetOutput({g.Op("relu", "Relu", {x})});
  ControlFlowLoweringPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_FALSE(*changed);
}

TEST(ControlFlowLoweringPassTest, UnlinkedPredIsAnError) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr sw = g.Op("sw", "Switch", {reftest::Out(x), reftest::Out()});
  g.NetOutput({{sw, 1}});
  ControlFlowLoweringPass pass;
  auto r = pass.Run(g.graph());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kGraphInvalid);
  EXPECT_THAT(std::string(r.status().message()), ::testing::HasSubstr("sw"));
}

}  // namespace
}  // namespace ge
