// compiler/passes/identity_delete_pass_test.cc
#include "compiler/passes/identity_delete_pass.h"

#include <string>
#include <vector>

#include "compiler/passes/pass_framework/ge_pass.h"
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
using testing::EdgeStrings;
using ::testing::ElementsAre;
using testing::GraphBuilder;
using ::testing::HasSubstr;
using testing::NodeNames;
using ::testing::UnorderedElementsAre;

TEST(IdentityDeletePassTest, RemovesIdentitiesKeepingResults) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr id1 = g.Op("id1", "Identity", {x});
  NodePtr relu = g.Op("relu", "Relu", {id1});
  NodePtr id2 = g.Op("id2", "Identity", {relu});
  NodePtr id3 = g.Op("id3", "Identity", {id2});
  g.NetOutput({id3, g.Op("neg", "Neg", {id1})});
  const auto inputs = Inputs(F32({4}, {-2, -1, 0, 3}));
  ComputeGraphPtr before = Snapshot(g.graph());

  IdentityDeletePass pass;
  auto changed = RunNodePass(g.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_EQ(CountType(*g.graph(), "Identity"), 0u);
  EXPECT_EQ(g.graph()->GetDirectNodesSize(), before->GetDirectNodesSize() - 3);
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));

  changed = RunNodePass(g.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
}

TEST(IdentityDeletePassTest, FoldsControlEdgesOntoNeighbours) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr first = g.Op("first", "Abs", {x});
  NodePtr id = g.Op("id", "Identity", {x});
  NodePtr relu = g.Op("relu", "Relu", {id});
  NodePtr last = g.Op("last", "Neg", {x});
  g.Control(first, id);  // first before id
  g.Control(id, last);   // id before last
  g.NetOutput({relu, first, last});
  const auto inputs = Inputs(F32({2}, {-5, 5}));
  ComputeGraphPtr before = Snapshot(g.graph());
  IdentityDeletePass pass;
  GE_ASSERT_OK(RunNodePass(g.graph(), pass));
  EXPECT_EQ(CountType(*g.graph(), "Identity"), 0u);
  // first still precedes what id preceded; x (id's producer) precedes last
  // already by data, so no edge is added for it.
  EXPECT_TRUE(first->GetOutControlAnchor()->IsLinkedWith(relu->GetInControlAnchor()));
  EXPECT_TRUE(first->GetOutControlAnchor()->IsLinkedWith(last->GetInControlAnchor()));
  EXPECT_FALSE(x->GetOutControlAnchor()->IsLinkedWith(last->GetInControlAnchor()));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

TEST(IdentityDeletePassTest, BypassesGraphOutputEntries) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr relu = g.Op("relu", "Relu", {x});
  NodePtr id = g.Op("id", "Identity", {relu});
  g.graph()->SetGraphOutNodesInfo({{id, 0}});
  const auto inputs = Inputs(F32({2}, {-5, 5}));
  ComputeGraphPtr before = Snapshot(g.graph());
  IdentityDeletePass pass;
  GE_ASSERT_OK(RunNodePass(g.graph(), pass));
  EXPECT_THAT(NodeNames(*g.graph()), ElementsAre("x", "relu"));
  EXPECT_EQ(g.graph()->GetGraphOutNodesInfo()[0].first, relu);
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

TEST(IdentityDeletePassTest, IdentityNMapsEachOutputToItsInput) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", DATA, 0, 1);
  NodePtr c = b.AddNode("c", DATA, 0, 1);
  NodePtr idn = b.AddNode("idn", "IdentityN", 2, 2);
  NodePtr out = b.AddNode("out", NETOUTPUT, 2, 0);
  b.AddDataEdge(a, 0, idn, 0);
  b.AddDataEdge(c, 0, idn, 1);
  b.AddDataEdge(idn, 1, out, 0);
  b.AddDataEdge(idn, 0, out, 1);
  IdentityDeletePass pass;
  GE_ASSERT_OK(RunNodePass(b.graph(), pass));
  EXPECT_THAT(EdgeStrings(*b.graph()), UnorderedElementsAre("a:0->out:1", "c:0->out:0"));

  GraphBuilder bad("bad");
  NodePtr d = bad.AddNode("d", DATA, 0, 1);
  NodePtr odd = bad.AddNode("odd", "IdentityN", 1, 2);
  bad.AddDataEdge(d, 0, odd, 0);
  auto r = RunNodePass(bad.graph(), pass);
  GE_EXPECT_CODE(r, ErrorCode::kParamInvalid);
  EXPECT_THAT(r.status().message(), HasSubstr("IdentityN node 'odd' has 1 inputs but 2 outputs"));
}

TEST(IdentityDeletePassTest, KeepsControlFlowPivotsUnlessForced) {
  GraphBuilder b("g");
  NodePtr x = b.AddNode("x", DATA, 0, 1);
  NodePtr pred = b.AddNode("pred", DATA, 0, 1);
  NodePtr sw = b.AddNode("switch", "Switch", 2, 2);
  NodePtr pivot = b.AddNode("pivot", "Identity", 1, 1);
  NodePtr work = b.AddNode("work", "Relu", 1, 1);
  NodePtr to_merge = b.AddNode("to_merge", "Identity", 1, 1);
  NodePtr merge = b.AddNode("merge", "Merge", 2, 1);
  NodePtr out = b.AddNode("out", NETOUTPUT, 1, 0);
  b.AddDataEdge(x, 0, sw, 0);
  b.AddDataEdge(pred, 0, sw, 1);
  b.AddDataEdge(sw, 1, pivot, 0);
  b.AddDataEdge(pivot, 0, work, 0);
  b.AddDataEdge(work, 0, to_merge, 0);
  b.AddDataEdge(to_merge, 0, merge, 0);
  b.AddDataEdge(sw, 0, merge, 1);
  b.AddDataEdge(merge, 0, out, 0);
  IdentityDeletePass pass;
  auto changed = RunNodePass(b.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
  EXPECT_EQ(CountType(*b.graph(), "Identity"), 2u);

  IdentityDeletePass forced(true);
  changed = RunNodePass(b.graph(), forced);
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_EQ(CountType(*b.graph(), "Identity"), 0u);
  EXPECT_TRUE(sw->GetOutDataAnchor(1)->IsLinkedWith(work->GetInDataAnchor(0)));
}

TEST(IdentityDeletePassTest, KeepsVariableSnapshotsOrderedBeforeAWrite) {
  GraphBuilder b("g");
  NodePtr var = b.AddNode("var", VARIABLE, 0, 1);
  NodePtr read = b.AddNode("read", "Identity", 1, 1);
  NodePtr use = b.AddNode("use", "Relu", 1, 1);
  NodePtr value = b.AddNode("value", DATA, 0, 1);
  NodePtr assign = b.AddNode("assign", "Assign", 2, 1);
  NodePtr out = b.AddNode("out", NETOUTPUT, 1, 0);
  b.AddDataEdge(var, 0, read, 0);
  b.AddDataEdge(read, 0, use, 0);
  b.AddDataEdge(var, 0, assign, 0);
  b.AddDataEdge(value, 0, assign, 1);
  b.AddControlEdge(read, assign);  // read the old value, then write
  b.AddDataEdge(use, 0, out, 0);
  IdentityDeletePass pass;
  auto changed = RunNodePass(b.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
  EXPECT_TRUE(b.graph()->HasNode(read));

  // Without the ordering edge the read is an ordinary identity.
  GE_ASSERT_OK(read->GetOutControlAnchor()->Unlink(assign->GetInControlAnchor()));
  changed = RunNodePass(b.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_FALSE(b.graph()->HasNode(read));
}

TEST(IdentityDeletePassTest, LeavesAnIdentityWithoutProducerAlone) {
  GraphBuilder b("g");
  NodePtr id = b.AddNode("id", "Identity", 1, 1);
  NodePtr out = b.AddNode("out", NETOUTPUT, 1, 0);
  b.AddDataEdge(id, 0, out, 0);
  IdentityDeletePass pass;
  auto changed = RunNodePass(b.graph(), pass);
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
}

TEST(IdentityDeletePassTest, RunsInsideANodePassGroup) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  g.NetOutput({g.Op("id", "Identity", {g.Op("id0", "Identity", {x})})});
  NodePassGroup group("Stage1Nodes");
  group.AddPass<IdentityDeletePass>();
  auto changed = group.Run(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_THAT(NodeNames(*g.graph()), ElementsAre("x", "output"));
}

}  // namespace
}  // namespace ge
