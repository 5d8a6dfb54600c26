// compiler/passes/pass_framework/graph_verifier_test.cc
#include "compiler/passes/pass_framework/graph_verifier.h"

#include <memory>
#include <string>

#include "gmock/gmock.h"
#include "graph/inc/graph/op_types.h"
#include "graph/inc/graph/utils/node_utils.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using testing::GraphBuilder;
using ::testing::HasSubstr;

// data -> relu -> out, plus a control edge data -> out.
struct Small {
  Small() : b("g") {
    data = b.AddNode("data", DATA, 0, 1);
    relu = b.AddNode("relu", "Relu", 1, 1);
    out = b.AddNode("out", NETOUTPUT, 1, 0);
    b.AddDataEdge(data, 0, relu, 0);
    b.AddDataEdge(relu, 0, out, 0);
    b.AddControlEdge(data, out);
  }
  GraphBuilder b;
  NodePtr data, relu, out;
};

TEST(GraphVerifierTest, AcceptsAValidGraph) {
  Small s;
  GE_EXPECT_OK(GraphVerifier::Verify(*s.b.graph()));
  GraphBuilder empty("empty");
  GE_EXPECT_OK(GraphVerifier::Verify(*empty.graph()));
}

TEST(GraphVerifierTest, CatchesACycle) {
  Small s;
  s.b.AddControlEdge(s.out, s.relu);
  Status st = GraphVerifier::Verify(*s.b.graph());
  GE_EXPECT_CODE(st, ErrorCode::kGraphCycle);
  EXPECT_THAT(st.message(),
              ::testing::AnyOf(HasSubstr("relu -> out -> relu"), HasSubstr("out -> relu -> out")));
  GraphVerifierOptions no_cycles;
  no_cycles.check_cycles = false;
  GE_EXPECT_OK(GraphVerifier::Verify(*s.b.graph(), no_cycles));
}

TEST(GraphVerifierTest, CatchesADanglingPeer) {
  Small s;
  // RemoveJustNode takes the node out of the list but keeps its edges.
  GE_ASSERT_OK(s.b.graph()->RemoveJustNode(s.relu));
  Status st = GraphVerifier::Verify(*s.b.graph());
  GE_EXPECT_CODE(st, ErrorCode::kGraphInvalid);
  EXPECT_THAT(st.message(), HasSubstr("dangling peer"));
  EXPECT_THAT(st.message(), HasSubstr("relu"));
}

TEST(GraphVerifierTest, CatchesAWrongOwnerGraph) {
  Small s;
  auto other = std::make_shared<ComputeGraph>("other");
  s.relu->SetOwnerComputeGraph(other);
  Status st = GraphVerifier::Verify(*s.b.graph());
  GE_EXPECT_CODE(st, ErrorCode::kGraphInvalid);
  EXPECT_THAT(st.message(), HasSubstr("node 'relu' is in its node list but its owner graph is "
                                      "graph 'other'"));
  s.relu->SetOwnerComputeGraph(s.b.graph());
  GE_EXPECT_OK(GraphVerifier::Verify(*s.b.graph()));
}

TEST(GraphVerifierTest, CatchesAnchorsOutOfStepWithTheOpDesc) {
  Small s;
  GE_ASSERT_OK(s.relu->GetOpDesc()->AddInputDesc("extra", GeTensorDesc()));
  Status st = GraphVerifier::Verify(*s.b.graph());
  GE_EXPECT_CODE(st, ErrorCode::kGraphInvalid);
  EXPECT_THAT(st.message(), HasSubstr("node 'relu' has 1 input anchors but its OpDesc has 2"));
  GraphVerifierOptions lax;
  lax.check_desc_anchor_counts = false;
  GE_EXPECT_OK(GraphVerifier::Verify(*s.b.graph(), lax));
}

TEST(GraphVerifierTest, CatchesABadGraphOutputEntry) {
  Small s;
  s.b.graph()->SetGraphOutNodesInfo({{s.relu, 3}});
  Status st = GraphVerifier::Verify(*s.b.graph());
  GE_EXPECT_CODE(st, ErrorCode::kGraphInvalid);
  EXPECT_THAT(st.message(), HasSubstr("graph output relu:3"));

  GraphBuilder other("other");
  NodePtr stranger = other.AddNode("stranger", "Relu", 0, 1);
  s.b.graph()->SetGraphOutNodesInfo({{stranger, 0}});
  st = GraphVerifier::Verify(*s.b.graph());
  EXPECT_THAT(st.message(), HasSubstr("output node 'stranger' is not in the graph"));
}

TEST(GraphVerifierTest, OptionallyRequiresUniqueNames) {
  Small s;
  s.b.AddNode("relu", "Relu", 0, 0);
  GE_EXPECT_OK(GraphVerifier::Verify(*s.b.graph()));
  GraphVerifierOptions strict;
  strict.check_unique_names = true;
  Status st = GraphVerifier::Verify(*s.b.graph(), strict);
  GE_EXPECT_CODE(st, ErrorCode::kGraphInvalid);
  EXPECT_THAT(st.message(), HasSubstr("two nodes are named 'relu'"));
}

// root: data -> if -> out, with subgraph "then" bound to if.
struct WithSubgraph {
  WithSubgraph() : root("root") {
    data = root.AddNode("data", DATA, 0, 1);
    auto op = testing::MakeOp("if", IF, 1, 1);
    testing::CheckOk(op->AddSubgraphName("then_branch"), "AddSubgraphName");
    auto n = root.graph()->AddNode(op);
    testing::CheckOk(n.status(), "AddNode");
    if_node = *n;
    root.AddDataEdge(data, 0, if_node, 0);
    sub = std::make_shared<ComputeGraph>("then");
    testing::CheckOk(NodeUtils::SetSubgraph(*if_node, 0, sub), "SetSubgraph");
    GraphBuilder inner(sub);
    NodePtr sd = inner.AddNode("sub_data", DATA, 0, 1);
    NodePtr so = inner.AddNode("sub_out", NETOUTPUT, 1, 0);
    inner.AddDataEdge(sd, 0, so, 0);
    sub_out = so;
  }
  GraphBuilder root;
  NodePtr data, if_node, sub_out;
  ComputeGraphPtr sub;
};

TEST(GraphVerifierTest, AcceptsSubgraphsAndChecksThemToo) {
  WithSubgraph w;
  GE_EXPECT_OK(GraphVerifier::Verify(*w.root.graph()));
  // A cycle inside the subgraph is found from the root.
  testing::GraphBuilder inner(w.sub);
  NodePtr x = inner.AddNode("x", "Relu", 1, 1);
  inner.AddDataEdge(x, 0, x, 0);
  Status st = GraphVerifier::Verify(*w.root.graph());
  GE_EXPECT_CODE(st, ErrorCode::kGraphCycle);
  EXPECT_THAT(st.message(), HasSubstr("graph 'then'"));
  GraphVerifierOptions root_only;
  root_only.check_subgraphs = false;
  GE_EXPECT_OK(GraphVerifier::Verify(*w.root.graph(), root_only));
}

TEST(GraphVerifierTest, CatchesASubgraphWhoseParentNodeLeftTheGraph) {
  WithSubgraph w;
  GE_ASSERT_OK(w.root.graph()->RemoveNodeWithoutRelink(w.if_node));
  Status st = GraphVerifier::Verify(*w.root.graph());
  GE_EXPECT_CODE(st, ErrorCode::kGraphInvalid);
  EXPECT_THAT(st.message(), HasSubstr("subgraph 'then' has parent node 'if', which is not in"));
}

TEST(GraphVerifierTest, CatchesANodeNamingAnUnregisteredSubgraph) {
  WithSubgraph w;
  GE_ASSERT_OK(w.if_node->GetOpDesc()->AddSubgraphName("else_branch"));
  GE_ASSERT_OK(w.if_node->GetOpDesc()->SetSubgraphInstanceName(1, "missing"));
  Status st = GraphVerifier::Verify(*w.root.graph());
  GE_EXPECT_CODE(st, ErrorCode::kGraphInvalid);
  EXPECT_THAT(st.message(),
              HasSubstr("node 'if' names subgraph 'missing', which is not registered"));
}

TEST(GraphVerifierTest, CatchesAParentNodeThatDoesNotNameItsSubgraph) {
  WithSubgraph w;
  GE_ASSERT_OK(w.if_node->GetOpDesc()->SetSubgraphInstanceName(0, ""));
  Status st = GraphVerifier::Verify(*w.root.graph());
  GE_EXPECT_CODE(st, ErrorCode::kGraphInvalid);
  EXPECT_THAT(st.message(), HasSubstr("whose OpDesc does not name it"));
}

}  // namespace
}  // namespace ge
