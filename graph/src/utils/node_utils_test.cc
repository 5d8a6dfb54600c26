// graph/src/utils/node_utils_test.cc
#include "graph/inc/graph/utils/node_utils.h"

#include <memory>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/op_types.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using testing::EdgeStrings;
using testing::GraphBuilder;
using testing::Names;
using Strings = std::vector<std::string>;

TEST(NodeUtilsTest, NeighbourWrappers) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "T", 0, 1);
  NodePtr c = b.AddNode("c", "T", 1, 0);
  NodePtr k = b.AddNode("k", "T", 0, 0);
  b.AddDataEdge(a, 0, c, 0);
  b.AddControlEdge(k, c);
  EXPECT_EQ(Names(NodeUtils::GetInDataNodes(c)), Strings{"a"});
  EXPECT_EQ(Names(NodeUtils::GetOutDataNodes(a)), Strings{"c"});
  EXPECT_EQ(Names(NodeUtils::GetInControlNodes(c)), Strings{"k"});
  EXPECT_EQ(Names(NodeUtils::GetOutControlNodes(k)), Strings{"c"});
  EXPECT_TRUE(NodeUtils::GetInDataNodes(nullptr).empty());
}

TEST(NodeUtilsTest, MoveOutputEdgesKeepsConsumerPositions) {
  GraphBuilder b("g");
  NodePtr old_node = b.AddNode("old", "T", 0, 2);
  NodePtr new_node = b.AddNode("new", "T", 0, 2);
  NodePtr c0 = b.AddNode("c0", "T", 1, 0);
  NodePtr c1 = b.AddNode("c1", "T", 1, 0);
  NodePtr k = b.AddNode("k", "T", 0, 0);
  NodePtr other = b.AddNode("other", "T", 0, 0);
  b.AddDataEdge(old_node, 0, c0, 0);
  b.AddDataEdge(old_node, 1, c1, 0);
  b.AddControlEdge(other, k);
  b.AddControlEdge(old_node, k);
  b.AddControlEdge(new_node, c0);
  b.AddControlEdge(old_node, c0);  // duplicate once moved
  GE_ASSERT_OK(NodeUtils::MoveOutputEdges(old_node, new_node));
  EXPECT_EQ(EdgeStrings(*b.graph()),
            (Strings{"new:0->c0:0", "new:1->c1:0", "new->c0", "new->k", "other->k"}));
  // k's control producers keep their order: other first, then new (was old).
  EXPECT_EQ(Names(k->GetInControlNodes()), (Strings{"other", "new"}));
  NodePtr three = b.AddNode("three", "T", 0, 3);
  GE_EXPECT_CODE(NodeUtils::MoveOutputEdges(new_node, three), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(NodeUtils::MoveOutputEdges(nullptr, three), ErrorCode::kParamInvalid);
}

TEST(NodeUtilsTest, AppendAndRemoveAnchorsKeepOpDescInStep) {
  GraphBuilder b("g");
  NodePtr p = b.AddNode("p", "T", 0, 1);
  NodePtr n = b.AddNode("n", "T", 1, 1);
  GE_ASSERT_OK(NodeUtils::AppendInputAnchor(n, 3));
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 3u);
  EXPECT_EQ(n->GetOpDesc()->GetAllInputsSize(), 3u);
  b.AddDataEdge(p, 0, n, 2);
  GE_ASSERT_OK(NodeUtils::AppendInputAnchor(n, 2));  // no-op
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 3u);
  GE_ASSERT_OK(NodeUtils::RemoveInputAnchor(n, 1));
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 1u);
  EXPECT_EQ(n->GetOpDesc()->GetAllInputsSize(), 1u);
  EXPECT_FALSE(p->GetOutDataAnchor(0)->IsLinked());
  GE_ASSERT_OK(NodeUtils::AppendOutputAnchor(n, 4));
  EXPECT_EQ(n->GetAllOutDataAnchorsSize(), 4u);
  EXPECT_EQ(n->GetOpDesc()->GetOutputsSize(), 4u);
  GE_ASSERT_OK(NodeUtils::RemoveOutputAnchor(n, 0));
  EXPECT_EQ(n->GetAllOutDataAnchorsSize(), 0u);
  EXPECT_EQ(n->GetOpDesc()->GetOutputsSize(), 0u);
  GE_EXPECT_CODE(NodeUtils::AppendInputAnchor(nullptr, 1), ErrorCode::kParamInvalid);
}

TEST(NodeUtilsTest, ParentInputOfSubgraphData) {
  GraphBuilder r("root");
  NodePtr x = r.AddNode("x", "T", 0, 1);
  NodePtr y = r.AddNode("y", "T", 0, 1);
  NodePtr call = r.AddNode("call", PARTITIONEDCALL, 2, 1);
  r.AddDataEdge(x, 0, call, 0);
  r.AddDataEdge(y, 0, call, 1);
  GraphBuilder s("sub");
  NodePtr d0 = s.AddNode("d0", DATA, 0, 1);
  NodePtr d1 = s.AddNode("d1", DATA, 0, 1);
  NodePtr relu = s.AddNode("relu", "Relu", 1, 1);
  GE_ASSERT_OK(call->GetOpDesc()->AddSubgraphName("f"));
  GE_ASSERT_OK(NodeUtils::SetSubgraph(*call, 0, s.graph()));
  EXPECT_EQ(NodeUtils::GetSubgraph(*call, 0), s.graph());
  EXPECT_EQ(NodeUtils::GetSubgraph(*call, 3), nullptr);
  EXPECT_EQ(call->GetOpDesc()->GetSubgraphInstanceName(0), "sub");
  EXPECT_EQ(s.graph()->GetParentNode(), call);
  EXPECT_EQ(r.graph()->GetSubgraph("sub"), s.graph());

  GE_ASSERT_OK(AttrUtils::SetInt(d0->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX, 0));
  GE_ASSERT_OK(AttrUtils::SetInt(d1->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX, 1));
  EXPECT_EQ(*NodeUtils::GetParentInput(d0), x);
  EXPECT_EQ(*NodeUtils::GetParentInput(*d1), y);
  auto pair = NodeUtils::GetParentInputAndAnchor(*d1);
  ASSERT_TRUE(pair.ok());
  EXPECT_EQ(pair->second, y->GetOutDataAnchor(0));
  GE_EXPECT_CODE(NodeUtils::GetParentInput(relu), ErrorCode::kParamInvalid);
  GE_ASSERT_OK(AttrUtils::SetInt(d1->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX, 5));
  GE_EXPECT_CODE(NodeUtils::GetParentInput(d1), ErrorCode::kOutOfRange);
  GE_ASSERT_OK(d1->GetOpDesc()->DelAttr(ATTR_NAME_PARENT_NODE_INDEX));
  GE_EXPECT_CODE(NodeUtils::GetParentInput(d1), ErrorCode::kNotFound);
  GE_ASSERT_OK(r.graph()->RemoveNode(y));
  GE_ASSERT_OK(AttrUtils::SetInt(d1->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX, 1));
  GE_EXPECT_CODE(NodeUtils::GetParentInput(d1), ErrorCode::kNotFound);  // unlinked
  GraphBuilder lone("lone");
  NodePtr ld = lone.AddNode("ld", DATA, 0, 1);
  GE_EXPECT_CODE(NodeUtils::GetParentInput(ld), ErrorCode::kNotFound);
  GE_EXPECT_CODE(NodeUtils::GetParentInput(NodePtr()), ErrorCode::kParamInvalid);
}

TEST(NodeUtilsTest, SetSubgraphReplacesAndChecks) {
  GraphBuilder r("root");
  NodePtr if_node = r.AddNode("if", IF, 1, 1);
  GE_ASSERT_OK(if_node->GetOpDesc()->AddSubgraphName("then_branch"));
  auto g1 = std::make_shared<ComputeGraph>("then_1");
  auto g2 = std::make_shared<ComputeGraph>("then_2");
  GE_ASSERT_OK(NodeUtils::SetSubgraph(*if_node, 0, g1));
  GE_ASSERT_OK(NodeUtils::SetSubgraph(*if_node, 0, g2));
  EXPECT_EQ(r.graph()->GetSubgraph("then_1"), nullptr);
  EXPECT_EQ(r.graph()->GetSubgraph("then_2"), g2);
  GE_EXPECT_CODE(NodeUtils::SetSubgraph(*if_node, 1, g1), ErrorCode::kOutOfRange);
  GE_EXPECT_CODE(NodeUtils::SetSubgraph(*if_node, 0, nullptr), ErrorCode::kParamInvalid);
  auto loose = *Node::Create(testing::MakeOp("loose", IF, 0, 0));
  GE_ASSERT_OK(loose->GetOpDesc()->AddSubgraphName("b"));
  GE_EXPECT_CODE(NodeUtils::SetSubgraph(*loose, 0, g1), ErrorCode::kNotFound);
}

TEST(NodeUtilsTest, AnchorStatuses) {
  GraphBuilder b("g");
  NodePtr w = b.AddNode("w", CONSTANT, 0, 1);
  NodePtr d = b.AddNode("d", DATA, 0, 1);
  NodePtr n = b.AddNode("n", "T", 3, 1);
  b.AddDataEdge(w, 0, n, 0);
  b.AddDataEdge(d, 0, n, 1);
  EXPECT_TRUE(NodeUtils::IsConst(*w));
  EXPECT_FALSE(NodeUtils::IsConst(*d));
  EXPECT_FALSE(NodeUtils::IsAnchorStatusSet(*n));
  NodeUtils::SetAllAnchorStatus(*n);
  EXPECT_EQ(n->GetInDataAnchor(0)->GetStatus(), ANCHOR_CONST);
  EXPECT_EQ(n->GetInDataAnchor(1)->GetStatus(), ANCHOR_DATA);
  EXPECT_EQ(n->GetInDataAnchor(2)->GetStatus(), ANCHOR_SUSPEND);
  EXPECT_EQ(n->GetOutDataAnchor(0)->GetStatus(), ANCHOR_SUSPEND);
  EXPECT_TRUE(NodeUtils::IsAnchorStatusSet(*n));
  NodeUtils::UnlinkAll(*n);
  EXPECT_EQ(n->GetInNodesSize(), 0u);
}

}  // namespace
}  // namespace ge
