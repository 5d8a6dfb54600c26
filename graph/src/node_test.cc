// graph/src/node_test.cc
#include "graph/inc/graph/node.h"

#include <memory>
#include <string>
#include <vector>

#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using testing::GraphBuilder;
using testing::MakeOp;
using testing::Names;

TEST(NodeTest, CreateMakesAnchorsFromTheOpDesc) {
  auto node = Node::Create(MakeOp("n", "T", 3, 2));
  ASSERT_TRUE(node.ok());
  EXPECT_EQ((*node)->GetAllInDataAnchorsSize(), 3u);
  EXPECT_EQ((*node)->GetAllOutDataAnchorsSize(), 2u);
  EXPECT_EQ((*node)->GetAllInAnchors().size(), 4u);  // + control
  EXPECT_EQ((*node)->GetAllOutAnchors().size(), 3u);
  EXPECT_EQ((*node)->GetInDataAnchor(3), nullptr);
  EXPECT_EQ((*node)->GetInDataAnchor(-1), nullptr);
  EXPECT_EQ((*node)->GetInAnchor(-1), AnchorPtr((*node)->GetInControlAnchor()));
  EXPECT_EQ((*node)->GetOutAnchor(1)->GetIdx(), 1);
  EXPECT_EQ((*node)->GetName(), "n");
  EXPECT_EQ((*node)->GetType(), "T");
  EXPECT_EQ((*node)->GetOwnerComputeGraph(), nullptr);
  GE_EXPECT_CODE(Node::Create(nullptr), ErrorCode::kParamInvalid);
}

TEST(NodeTest, ControlAnchorsAreCreatedOnFirstAccess) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "T", 0, 1);
  NodePtr c = b.AddNode("c", "T", 1, 0);
  b.AddDataEdge(a, 0, c, 0);
  // Reading never creates them.
  EXPECT_TRUE(a->InControlPeers().empty());
  EXPECT_TRUE(c->OutControlPeers().empty());
  EXPECT_TRUE(a->GetInControlNodes().empty());
  EXPECT_TRUE(a->GetOutControlNodes().empty());
  EXPECT_EQ(a->GetInNodesSize(), 0u);
  EXPECT_EQ(a->GetOutNodesSize(), 1u);
  EXPECT_EQ(Names(a->GetOutAllNodes()), std::vector<std::string>{"c"});
  GE_EXPECT_OK(b.graph()->TopologicalSorting());
  EXPECT_FALSE(a->HasControlAnchors());
  EXPECT_FALSE(c->HasControlAnchors());
  // First access creates both, owned by the node, with index -1.
  OutControlAnchor* out = a->GetOutControlAnchorBarePtr();
  EXPECT_TRUE(a->HasControlAnchors());
  EXPECT_EQ(out, a->GetOutControlAnchorBarePtr());  // stable
  EXPECT_EQ(out->GetIdx(), -1);
  EXPECT_EQ(out->GetOwnerNodeBarePtr(), a.get());
  EXPECT_EQ(a->GetInControlAnchorBarePtr()->GetOwnerNodeBarePtr(), a.get());
  GE_ASSERT_OK(out->LinkTo(c->GetInControlAnchorBarePtr()));
  ASSERT_EQ(c->InControlPeers().size(), 1u);
  EXPECT_EQ(c->InControlPeers()[0], out);
  EXPECT_EQ(a->OutControlPeers().size(), 1u);
  EXPECT_EQ(Names(c->GetInControlNodes()), std::vector<std::string>{"a"});
  // The shared pointer keeps the node (and its control anchors) alive.
  InControlAnchorPtr in = c->GetInControlAnchor();
  std::weak_ptr<Node> weak = c;
  b.graph()->RemoveNodeWithoutRelink(c).IgnoreError();
  c.reset();
  EXPECT_FALSE(weak.expired());
  EXPECT_EQ(in->GetOwnerNodeBarePtr()->GetName(), "c");
  EXPECT_TRUE(in->IsLinked() == false);  // RemoveNodeWithoutRelink unlinked it
  EXPECT_TRUE(a->OutControlPeers().empty());
  in.reset();
  EXPECT_TRUE(weak.expired());
}

TEST(NodeTest, NeighbourQueriesInAnchorOrder) {
  GraphBuilder b("g");
  NodePtr x = b.AddNode("x", "T", 0, 1);
  NodePtr y = b.AddNode("y", "T", 0, 1);
  NodePtr n = b.AddNode("n", "T", 2, 2);
  NodePtr c0 = b.AddNode("c0", "T", 1, 0);
  NodePtr c1 = b.AddNode("c1", "T", 1, 0);
  NodePtr k = b.AddNode("k", "T", 0, 0);
  NodePtr m = b.AddNode("m", "T", 0, 0);
  b.AddDataEdge(y, 0, n, 1);
  b.AddDataEdge(x, 0, n, 0);
  b.AddDataEdge(n, 1, c0, 0);
  b.AddDataEdge(n, 0, c1, 0);
  b.AddControlEdge(k, n);
  b.AddControlEdge(n, m);
  GE_ASSERT_OK(n->GetOutDataAnchor(1)->LinkTo(k->GetInControlAnchor()));  // data -> control
  EXPECT_EQ(Names(n->GetInDataNodes()), (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(Names(n->GetInControlNodes()), (std::vector<std::string>{"k"}));
  EXPECT_EQ(Names(n->GetInAllNodes()), (std::vector<std::string>{"x", "y", "k"}));
  EXPECT_EQ(Names(n->GetOutDataNodes()), (std::vector<std::string>{"c1", "c0"}));
  EXPECT_EQ(Names(n->GetOutControlNodes()), (std::vector<std::string>{"m", "k"}));
  EXPECT_EQ(Names(n->GetOutAllNodes()), (std::vector<std::string>{"c1", "c0", "m", "k"}));
  EXPECT_EQ(n->GetInNodesPtr().size(), 3u);
  EXPECT_EQ(n->GetOutNodesPtr().size(), 4u);
  EXPECT_EQ(n->GetInDataNodesSize(), 2u);
  EXPECT_EQ(n->GetOutDataNodesSize(), 2u);
  EXPECT_EQ(n->GetInNodesSize(), 3u);
  EXPECT_EQ(n->GetOutNodesSize(), 4u);
  auto in_pairs = n->GetInDataNodesAndAnchors();
  ASSERT_EQ(in_pairs.size(), 2u);
  EXPECT_EQ(in_pairs[1].first, y);
  EXPECT_EQ(in_pairs[1].second, y->GetOutDataAnchor(0));
  auto out_pairs = n->GetOutDataNodesAndAnchors();
  ASSERT_EQ(out_pairs.size(), 2u);
  EXPECT_EQ(out_pairs[0].first, c1);
  EXPECT_EQ(out_pairs[0].second, c1->GetInDataAnchor(0));
}

TEST(NodeTest, ControlToDataCountsAsControlInput) {
  GraphBuilder b("g");
  NodePtr s = b.AddNode("s", "T", 0, 0);
  NodePtr n = b.AddNode("n", "T", 1, 0);
  GE_ASSERT_OK(s->GetOutControlAnchor()->LinkTo(n->GetInDataAnchor(0)));
  EXPECT_TRUE(n->GetInDataNodes().empty());
  EXPECT_EQ(Names(n->GetInControlNodes()), std::vector<std::string>{"s"});
  EXPECT_EQ(Names(s->GetOutControlNodes()), std::vector<std::string>{"n"});
  EXPECT_TRUE(s->GetOutDataNodes().empty());
}

TEST(NodeTest, AppendedAnchorsDoNotMoveExistingOnes) {
  auto node = *Node::Create(MakeOp("n", "T", 2, 1));
  InDataAnchor* first = node->GetInDataAnchorBarePtr(0);
  InDataAnchor* second = node->GetInDataAnchorBarePtr(1);
  GE_ASSERT_OK(node->AppendInDataAnchors(5));
  GE_ASSERT_OK(node->AppendOutDataAnchors(3));
  EXPECT_EQ(node->GetAllInDataAnchorsSize(), 7u);
  EXPECT_EQ(node->GetAllOutDataAnchorsSize(), 4u);
  EXPECT_EQ(node->GetInDataAnchorBarePtr(0), first);
  EXPECT_EQ(node->GetInDataAnchorBarePtr(1), second);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(node->GetInDataAnchorBarePtr(i)->GetIdx(), i);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(node->GetOutDataAnchorBarePtr(i)->GetIdx(), i);
}

// Anchors hold no node pointer: each finds its node from where it sits
// (before or after the node's fields in its block, or behind a pointer
// slot for control and appended anchors).
TEST(NodeTest, EveryAnchorFindsItsNode) {
  auto node = *Node::Create(MakeOp("n", "T", 3, 4));
  GE_ASSERT_OK(node->AppendInDataAnchors(2));
  GE_ASSERT_OK(node->AppendOutDataAnchors(3));
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(node->GetInDataAnchorBarePtr(i)->GetOwnerNodeBarePtr(), node.get()) << i;
    EXPECT_EQ(node->GetInDataAnchor(i)->GetOwnerNode(), node) << i;
    EXPECT_EQ(node->GetInDataAnchorBarePtr(i)->GetIdx(), i);
  }
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(node->GetOutDataAnchorBarePtr(i)->GetOwnerNodeBarePtr(), node.get()) << i;
    EXPECT_EQ(node->GetOutDataAnchorBarePtr(i)->GetIdx(), i);
  }
  EXPECT_EQ(node->GetInControlAnchorBarePtr()->GetOwnerNodeBarePtr(), node.get());
  EXPECT_EQ(node->GetOutControlAnchorBarePtr()->GetOwnerNodeBarePtr(), node.get());
  // Retired and reused slots keep their node.
  GE_ASSERT_OK(node->RemoveOutDataAnchors(5));
  GE_ASSERT_OK(node->AppendOutDataAnchors(5));
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(node->GetOutDataAnchorBarePtr(i)->GetOwnerNodeBarePtr(), node.get()) << i;
  }
  // Nodes without inputs or outputs, and an anchor no node made.
  auto source = *Node::Create(MakeOp("s", "T", 0, 1));
  EXPECT_EQ(source->GetOutDataAnchorBarePtr(0)->GetOwnerNodeBarePtr(), source.get());
  auto sink = *Node::Create(MakeOp("k", "T", 1, 0));
  EXPECT_EQ(sink->GetInDataAnchorBarePtr(0)->GetOwnerNodeBarePtr(), sink.get());
  GE_ASSERT_OK(source->GetOutDataAnchorBarePtr(0)->LinkTo(sink->GetInDataAnchorBarePtr(0)));
  EXPECT_EQ(sink->GetInDataNodes().front(), source);
  InDataAnchor loose;
  EXPECT_EQ(loose.GetOwnerNodeBarePtr(), nullptr);
  EXPECT_EQ(loose.GetOwnerNode(), nullptr);
}

TEST(NodeTest, AnchorIndexesBeyondTheirRangeAreRefused) {
  auto node = *Node::Create(MakeOp("n", "T", 2, 1));
  const size_t max = static_cast<size_t>(Anchor::kMaxIdx) + 1;
  GE_EXPECT_CODE(node->AppendInDataAnchors(max - 1), ErrorCode::kOutOfRange);
  GE_EXPECT_CODE(node->AppendOutDataAnchors(max), ErrorCode::kOutOfRange);
  EXPECT_EQ(node->GetAllInDataAnchorsSize(), 2u);
  EXPECT_EQ(node->GetAllOutDataAnchorsSize(), 1u);
}

TEST(NodeTest, RemovedAnchorsAreUnlinkedAndRetired) {
  auto src = *Node::Create(MakeOp("src", "T", 0, 1));
  auto node = *Node::Create(MakeOp("n", "T", 3, 2));
  GE_ASSERT_OK(src->GetOutDataAnchor(0)->LinkTo(node->GetInDataAnchor(2)));
  InDataAnchorPtr held = node->GetInDataAnchor(2);
  GE_ASSERT_OK(node->RemoveInDataAnchors(1));
  EXPECT_EQ(node->GetAllInDataAnchorsSize(), 2u);
  EXPECT_EQ(node->GetInDataAnchor(2), nullptr);
  EXPECT_FALSE(src->GetOutDataAnchor(0)->IsLinked());
  EXPECT_FALSE(held->IsLinked());  // still a valid object
  GE_EXPECT_CODE(node->RemoveInDataAnchors(3), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(node->RemoveOutDataAnchors(3), ErrorCode::kParamInvalid);
  GE_ASSERT_OK(node->AppendInDataAnchors(1));  // reuses the retired slot
  EXPECT_EQ(node->GetInDataAnchorBarePtr(2), held.get());
  GE_ASSERT_OK(node->RemoveOutDataAnchors(2));
  EXPECT_EQ(node->GetAllOutDataAnchorsSize(), 0u);
}

TEST(NodeTest, AddLinkFromAppendsOrUsesInputs) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "T", 0, 1, GeShape({3, 3}), DT_INT8);
  NodePtr a2 = b.AddNode("a2", "T", 0, 1);
  NodePtr a3 = b.AddNode("a3", "T", 0, 1);
  NodePtr two_out = b.AddNode("two_out", "T", 0, 2);
  NodePtr n = b.AddNode("n", "T", 1, 0);
  GE_ASSERT_OK(n->AddLinkFrom(a));  // appends input 1
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 2u);
  EXPECT_EQ(n->GetOpDesc()->GetAllInputsSize(), 2u);
  EXPECT_EQ(n->GetOpDesc()->GetInputDesc(1).GetDataType(), DT_INT8);
  EXPECT_EQ(n->GetInDataAnchor(1)->GetPeerOutAnchor(), a->GetOutDataAnchor(0));
  GE_ASSERT_OK(n->AddLinkFrom(0u, a2));  // existing slot 0
  EXPECT_EQ(n->GetInDataAnchor(0)->GetPeerOutAnchor(), a2->GetOutDataAnchor(0));
  GE_EXPECT_CODE(n->AddLinkFrom(0u, a3), ErrorCode::kAlreadyExists);
  GE_EXPECT_CODE(n->AddLinkFrom(7u, a3), ErrorCode::kOutOfRange);
  GE_EXPECT_CODE(n->AddLinkFrom(two_out), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(n->AddLinkFrom(NodePtr()), ErrorCode::kParamInvalid);
  GE_ASSERT_OK(n->AddLinkFrom("named", a3));
  EXPECT_EQ(n->GetOpDesc()->GetInputIndexByName("named"), 2);
  EXPECT_EQ(n->GetInDataAnchor(2)->GetPeerOutAnchor(), a3->GetOutDataAnchor(0));
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 3u);
}

TEST(NodeTest, UpdateOpDescRequiresSameShapeOfPorts) {
  auto node = *Node::Create(MakeOp("n", "T", 1, 1));
  GE_EXPECT_CODE(node->UpdateOpDesc(MakeOp("m", "T", 2, 1)), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(node->UpdateOpDesc(nullptr), ErrorCode::kParamInvalid);
  EXPECT_EQ(node->GetName(), "n");
  GE_ASSERT_OK(node->UpdateOpDesc(MakeOp("m", "U", 1, 1)));
  EXPECT_EQ(node->GetName(), "m");
  EXPECT_EQ(node->GetType(), "U");
}

TEST(NodeTest, OwnerGraphFollowsTheGraph) {
  NodePtr node;
  {
    auto graph = std::make_shared<ComputeGraph>("g");
    node = *graph->AddNode(MakeOp("n", "T", 0, 0));
    EXPECT_EQ(node->GetOwnerComputeGraph(), graph);
    EXPECT_EQ(node->GetOwnerComputeGraphBarePtr(), graph.get());
  }
  EXPECT_EQ(node->GetOwnerComputeGraphBarePtr(), nullptr);
  EXPECT_EQ(node->GetOwnerComputeGraph(), nullptr);
}

}  // namespace
}  // namespace ge
