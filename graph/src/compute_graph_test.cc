// graph/src/compute_graph_test.cc
#include "graph/inc/graph/compute_graph.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/op_types.h"
#include "graph/inc/graph/pool_allocator.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using testing::EdgeStrings;
using testing::GraphBuilder;
using testing::MakeOp;
using testing::Names;
using testing::NodeNames;
using Strings = std::vector<std::string>;

TEST(ComputeGraphTest, AddNodeAssignsIdsAndRegistersDataInputs) {
  auto g = std::make_shared<ComputeGraph>("g");
  EXPECT_EQ(g->GetName(), "g");
  auto data = g->AddNode(MakeOp("data", DATA, 0, 1));
  auto relu = g->AddNode(MakeOp("relu", "Relu", 1, 1));
  ASSERT_TRUE(data.ok() && relu.ok());
  EXPECT_EQ((*data)->GetOpDesc()->GetId(), 0);
  EXPECT_EQ((*relu)->GetOpDesc()->GetId(), 1);
  EXPECT_EQ(g->GetDirectNodesSize(), 2u);
  EXPECT_EQ(Names(g->GetInputNodes()), Strings{"data"});
  EXPECT_TRUE(g->HasNode(*relu));
  auto with_id = g->AddNode(MakeOp("kept", "T", 0, 0), 42);
  EXPECT_EQ((*with_id)->GetOpDesc()->GetId(), 42);
  GE_EXPECT_CODE(g->AddNode(OpDescPtr()), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(g->AddNode(NodePtr()), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(g->AddNode(*relu), ErrorCode::kAlreadyExists);
  auto other = std::make_shared<ComputeGraph>("other");
  const Status moved = other->AddNode(*relu).status();
  GE_EXPECT_CODE(moved, ErrorCode::kParamInvalid);
  EXPECT_NE(std::string(moved.message()).find("graph 'g'"), std::string::npos) << moved;
  EXPECT_EQ(g->GetDirectNodesSize(), 3u);
}

// Node blocks (and their anchors) come from a pool region of their own, so
// a walk over every node (a topological sort) reads them densely rather
// than strided by each node's descriptions and attributes; and a block
// holds only what such a walk reads (48 bytes and two 16-byte anchors for
// these nodes; 216 when the OpDesc handle, the list links, the shared_ptr
// control block and anchors' node pointers sat in it).
TEST(ComputeGraphTest, NodesSitTogetherApartFromTheirAttributes) {
  if (!internal::PoolEnabled()) GTEST_SKIP() << "pool disabled (sanitizer build)";
  auto g = std::make_shared<ComputeGraph>("dense");
  constexpr int kNodes = 500;
  std::vector<uintptr_t> at;
  for (int i = 0; i < kNodes; ++i) {
    OpDescPtr op = MakeOp("n" + std::to_string(i), "T", 1, 1);
    for (int k = 0; k < 8; ++k) GE_ASSERT_OK(AttrUtils::SetInt(op, "_attr" + std::to_string(k), k));
    auto node = g->AddNode(op);
    GE_ASSERT_OK(node.status());
    at.push_back(reinterpret_cast<uintptr_t>(node->get()));
  }
  int close = 0;
  for (int i = 1; i < kNodes; ++i) close += at[i] > at[i - 1] && at[i] - at[i - 1] <= 80 ? 1 : 0;
  EXPECT_GE(close, kNodes - 10);
}

TEST(ComputeGraphTest, MovingANodeBetweenGraphs) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "T", 0, 1);
  NodePtr c = b.AddNode("c", "T", 1, 0);
  b.AddDataEdge(a, 0, c, 0);
  auto other = std::make_shared<ComputeGraph>("other");
  GE_ASSERT_OK(b.graph()->RemoveJustNode(c));
  EXPECT_EQ(c->GetOwnerComputeGraph(), nullptr);
  EXPECT_TRUE(a->GetOutDataAnchor(0)->IsLinked());  // edges kept
  GE_ASSERT_OK(other->AddNode(c).status());
  EXPECT_EQ(c->GetOwnerComputeGraph(), other);
  GE_EXPECT_CODE(b.graph()->RemoveJustNode(c), ErrorCode::kNotFound);
}

// Membership is a per-graph token that a new graph may reuse once its
// holder is gone: a node that outlived its graph belongs to no graph.
TEST(ComputeGraphTest, NodesOutlivingTheirGraphBelongToNoNewGraph) {
  NodePtr kept;
  NodePtr peer;
  {
    GraphBuilder b("old");
    kept = b.AddNode("kept", "T", 0, 1);
    peer = b.AddNode("peer", "T", 1, 0);
    b.AddDataEdge(kept, 0, peer, 0);
  }
  EXPECT_EQ(kept->GetOwnerComputeGraph(), nullptr);
  std::vector<ComputeGraphPtr> fresh;
  for (int i = 0; i < 4; ++i) fresh.push_back(std::make_shared<ComputeGraph>("new"));
  for (const ComputeGraphPtr& g : fresh) {
    EXPECT_FALSE(g->HasNode(kept));
    auto only = g->AddNode(MakeOp("only", "T", 0, 0));
    GE_ASSERT_OK(only.status());
    // The old graph's edge leads outside every new graph: not a successor.
    GE_ASSERT_OK(g->TopologicalSorting(TopoSortingMode::kBFS));
  }
  GE_ASSERT_OK(fresh[0]->AddNode(kept).status());
  EXPECT_TRUE(fresh[0]->HasNode(kept));
  EXPECT_FALSE(fresh[1]->HasNode(kept));
  GE_EXPECT_CODE(fresh[1]->AddNode(kept).status(), ErrorCode::kParamInvalid);
  GE_ASSERT_OK(fresh[1]->AddNode(peer).status());
  // kept -> peer crosses graphs: each sort sees only its own node.
  GE_ASSERT_OK(fresh[0]->TopologicalSorting(TopoSortingMode::kDFS));
  GE_ASSERT_OK(fresh[1]->TopologicalSorting(TopoSortingMode::kDFS));
  EXPECT_EQ(NodeNames(*fresh[0]), (Strings{"only", "kept"}));
  EXPECT_EQ(NodeNames(*fresh[1]), (Strings{"only", "peer"}));
}

TEST(ComputeGraphTest, AddNodeFrontAndInsert) {
  GraphBuilder b("g");
  b.AddNode("data", DATA, 0, 1);
  NodePtr x = b.AddNode("x", "T", 0, 0);
  NodePtr y = b.AddNode("y", "T", 0, 0);
  const ComputeGraphPtr& g = b.graph();
  GE_ASSERT_OK(g->AddNodeFront(MakeOp("front", "T", 0, 0)).status());
  EXPECT_EQ(NodeNames(*g), (Strings{"data", "front", "x", "y"}));
  auto after_x = g->InsertNode(x, MakeOp("after_x", "T", 0, 0));
  ASSERT_TRUE(after_x.ok());
  EXPECT_EQ((*after_x)->GetOpDesc()->GetId(), x->GetOpDesc()->GetId());
  GE_ASSERT_OK(g->InsertNodeBefore(y, MakeOp("before_y", "T", 0, 0)).status());
  EXPECT_EQ(NodeNames(*g), (Strings{"data", "front", "x", "after_x", "before_y", "y"}));
  auto many = g->InsertNodes(x, {MakeOp("i1", "T", 0, 0), MakeOp("i2", "T", 0, 0)});
  ASSERT_TRUE(many.ok());
  EXPECT_EQ(NodeNames(*g), (Strings{"data", "front", "x", "i1", "i2", "after_x", "before_y", "y"}));
  GE_EXPECT_CODE(g->InsertNodes(x, {MakeOp("ok", "T", 0, 0), nullptr}), ErrorCode::kParamInvalid);
  EXPECT_EQ(g->GetDirectNodesSize(), 8u);  // nothing inserted
  auto foreign = *Node::Create(MakeOp("foreign", "T", 0, 0));
  GE_EXPECT_CODE(g->InsertNode(foreign, MakeOp("z", "T", 0, 0)), ErrorCode::kNotFound);
  GE_EXPECT_CODE(g->InsertNodeBefore(nullptr, MakeOp("z", "T", 0, 0)), ErrorCode::kNotFound);
}

TEST(ComputeGraphTest, FindNodeFollowsAddRemoveAndRename) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "T", 0, 0);
  NodePtr c = b.AddNode("c", "Conv", 0, 0);
  const ComputeGraphPtr& g = b.graph();
  EXPECT_EQ(g->FindNode("a"), a);
  EXPECT_EQ(g->FindNode("zz"), nullptr);
  NodePtr d = b.AddNode("d", "T", 0, 0);  // index maintained incrementally
  EXPECT_EQ(g->FindNode("d"), d);
  GE_ASSERT_OK(g->RemoveNode(d));
  EXPECT_EQ(g->FindNode("d"), nullptr);
  c->GetOpDesc()->SetName("c2");
  EXPECT_EQ(g->FindNode("c"), nullptr);
  EXPECT_EQ(g->FindNode("c2"), c);
  EXPECT_EQ(g->FindFirstNodeMatchType("Conv"), c);
  EXPECT_EQ(g->FindFirstNodeMatchType("Nope"), nullptr);
  // Duplicate names: the first in list order wins, also after removals.
  NodePtr a_dup = b.AddNode("a", "T", 0, 0);
  EXPECT_EQ(g->FindNode("a"), a);
  GE_ASSERT_OK(g->RemoveNode(a));
  EXPECT_EQ(g->FindNode("a"), a_dup);
  // A node replaced by UpdateOpDesc is found under its new name.
  GE_ASSERT_OK(a_dup->UpdateOpDesc(MakeOp("renamed", "T", 0, 0)));
  EXPECT_EQ(g->FindNode("renamed"), a_dup);
  EXPECT_EQ(g->FindNode("a"), nullptr);
}

TEST(ComputeGraphTest, RemoveNodeRemovesUnsharedConstInputs) {
  GraphBuilder b("g");
  NodePtr data = b.AddNode("data", DATA, 0, 1);
  NodePtr w = b.AddNode("w", CONSTANT, 0, 1);
  NodePtr shared = b.AddNode("shared", CONSTANTOP, 0, 1);
  NodePtr conv = b.AddNode("conv", "Conv2D", 3, 1);
  NodePtr other = b.AddNode("other", "Add", 1, 1);
  NodePtr out = b.AddNode("out", NETOUTPUT, 1, 0);
  b.AddDataEdge(data, 0, conv, 0);
  b.AddDataEdge(w, 0, conv, 1);
  b.AddDataEdge(shared, 0, conv, 2);
  b.AddDataEdge(shared, 0, other, 0);
  b.AddDataEdge(conv, 0, out, 0);
  const ComputeGraphPtr& g = b.graph();
  GE_ASSERT_OK(g->RemoveNode(conv));
  EXPECT_EQ(NodeNames(*g), (Strings{"data", "shared", "other", "out"}));
  EXPECT_FALSE(g->HasNode(w));
  EXPECT_FALSE(w->GetOutDataAnchor(0)->IsLinked());
  // Bypass: data now feeds out directly; shared keeps its other consumer.
  EXPECT_EQ(out->GetInDataAnchor(0)->GetPeerOutAnchor(), data->GetOutDataAnchor(0));
  EXPECT_EQ(Names(shared->GetOutDataNodes()), Strings{"other"});
  EXPECT_EQ(conv->GetOwnerComputeGraph(), nullptr);
  EXPECT_FALSE(conv->GetInControlAnchor()->IsLinked());
  EXPECT_EQ(conv->GetInNodesSize() + conv->GetOutNodesSize(), 0u);
  GE_EXPECT_CODE(g->RemoveNode(conv), ErrorCode::kNotFound);
  GE_EXPECT_CODE(g->RemoveNode(nullptr), ErrorCode::kParamInvalid);
}

TEST(ComputeGraphTest, RemoveNodeBypassKeepsEveryDependency) {
  // a -> n (in0), b -> n (in1), k -ctrl-> n; n:0 -> c, n:1 -> d, n -ctrl-> e
  GraphBuilder g("g");
  NodePtr a = g.AddNode("a", "T", 0, 1);
  NodePtr b = g.AddNode("b", "T", 0, 1);
  NodePtr k = g.AddNode("k", "T", 0, 0);
  NodePtr n = g.AddNode("n", "T", 2, 2);
  NodePtr c = g.AddNode("c", "T", 1, 0);
  NodePtr d = g.AddNode("d", "T", 1, 0);
  NodePtr e = g.AddNode("e", "T", 0, 0);
  g.AddDataEdge(a, 0, n, 0);
  g.AddDataEdge(b, 0, n, 1);
  g.AddControlEdge(k, n);
  g.AddDataEdge(n, 0, c, 0);
  g.AddDataEdge(n, 1, d, 0);
  g.AddControlEdge(n, e);
  GE_ASSERT_OK(g.graph()->RemoveNode(n));
  EXPECT_EQ(EdgeStrings(*g.graph()), (Strings{"a:0->c:0", "a:0->d:0", "a->e", "b->c", "b->d",
                                              "b->e", "k->c", "k->d", "k->e"}));
}

TEST(ComputeGraphTest, RemoveNodeDropsInputAndOutputEntries) {
  GraphBuilder b("g");
  NodePtr data = b.AddNode("data", DATA, 0, 1);
  NodePtr y = b.AddNode("y", "T", 1, 2);
  b.AddDataEdge(data, 0, y, 0);
  const ComputeGraphPtr& g = b.graph();
  GE_ASSERT_OK(g->AddOutputNodeByIndex(y, 1));
  GE_ASSERT_OK(g->AddOutputNodeByIndex(y, 0));
  GE_ASSERT_OK(g->AddOutputNodeByIndex(y, 1));  // once
  EXPECT_EQ(g->GetGraphOutNodesInfo().size(), 2u);
  EXPECT_EQ(g->GetGraphOutNodesInfo()[0].second, 1);
  GE_EXPECT_CODE(g->AddOutputNodeByIndex(y, 2), ErrorCode::kOutOfRange);
  GE_EXPECT_CODE(g->AddOutputNodeByIndex(y, -1), ErrorCode::kOutOfRange);
  GE_ASSERT_OK(g->RemoveNode(data));
  EXPECT_TRUE(g->GetInputNodes().empty());
  GE_ASSERT_OK(g->RemoveNode(y));
  EXPECT_TRUE(g->GetOutputNodes().empty());
  EXPECT_EQ(g->GetDirectNodesSize(), 0u);
}

TEST(ComputeGraphTest, InputAndOutputNodeLists) {
  GraphBuilder b("g");
  NodePtr x = b.AddNode("x", "Placeholder", 0, 1);
  const ComputeGraphPtr& g = b.graph();
  EXPECT_TRUE(g->GetInputNodes().empty());
  GE_ASSERT_OK(g->AddInputNode(x));
  GE_ASSERT_OK(g->AddInputNode(x));
  EXPECT_EQ(Names(g->GetInputNodes()), Strings{"x"});
  auto loose = *Node::Create(MakeOp("loose", "T", 0, 1));
  GE_ASSERT_OK(g->AddOutputNode(loose));  // added to the graph too
  EXPECT_TRUE(g->HasNode(loose));
  EXPECT_EQ(Names(g->GetOutputNodes()), Strings{"loose"});
  GE_ASSERT_OK(g->RemoveOutputNode(loose));
  GE_EXPECT_CODE(g->RemoveOutputNode(loose), ErrorCode::kNotFound);
  GE_ASSERT_OK(g->RemoveInputNode(x));
  GE_EXPECT_CODE(g->RemoveInputNode(x), ErrorCode::kNotFound);
  g->SetGraphOutNodesInfo({{x, 0}});
  EXPECT_EQ(Names(g->GetOutputNodes()), Strings{"x"});
}

TEST(ComputeGraphTest, IsolateNodeWithIoMap) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "T", 0, 1);
  NodePtr bb = b.AddNode("b", "T", 0, 1);
  NodePtr n = b.AddNode("n", "T", 2, 1);
  NodePtr c = b.AddNode("c", "T", 1, 0);
  b.AddDataEdge(a, 0, n, 0);
  b.AddDataEdge(bb, 0, n, 1);
  b.AddDataEdge(n, 0, c, 0);
  GE_EXPECT_CODE(ComputeGraph::IsolateNode(n, {2}), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(ComputeGraph::IsolateNode(n, {0, 0}), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(ComputeGraph::IsolateNode(nullptr, {}), ErrorCode::kParamInvalid);
  EXPECT_EQ(EdgeStrings(*b.graph()), (Strings{"a:0->n:0", "b:0->n:1", "n:0->c:0"}));
  GE_ASSERT_OK(ComputeGraph::IsolateNode(n, {1}));
  EXPECT_EQ(EdgeStrings(*b.graph()), (Strings{"a->c", "b:0->c:0"}));
  EXPECT_TRUE(b.graph()->HasNode(n));  // isolated, not removed
}

TEST(ComputeGraphTest, FuseNodeKeepTopoInsertsAfterSmallestIdAndInherits) {
  GraphBuilder b("g");
  NodePtr x = b.AddNode("x", "T", 0, 1);
  NodePtr m1 = b.AddNode("m1", "Mul", 1, 1);
  NodePtr y = b.AddNode("y", "T", 0, 0);
  NodePtr m2 = b.AddNode("m2", "Add", 1, 1);
  for (const NodePtr& n : {m1, m2}) {
    GE_ASSERT_OK(AttrUtils::SetStr(n->GetOpDesc(), USER_STREAM_LABEL, "s1"));
  }
  GE_ASSERT_OK(AttrUtils::SetStr(m2->GetOpDesc(), OP_AI_CORE_NUM, "8"));
  auto fused_op = MakeOp("fused", "MulAdd", 1, 1);
  auto fused = b.graph()->FuseNodeKeepTopo({m2, m1}, {fused_op});
  ASSERT_TRUE(fused.ok()) << fused.status();
  ASSERT_EQ(fused->size(), 1u);
  EXPECT_EQ(NodeNames(*b.graph()), (Strings{"x", "m1", "fused", "y", "m2"}));
  EXPECT_EQ(fused_op->GetId(), m1->GetOpDesc()->GetId());
  EXPECT_EQ(*AttrUtils::GetStr(fused_op, USER_STREAM_LABEL), "s1");
  EXPECT_EQ(*AttrUtils::GetStr(fused_op, OP_AI_CORE_NUM), "8");
  EXPECT_FALSE(AttrUtils::HasAttr(fused_op, ATTR_NAME_SUPER_KERNEL_SCOPE));
}

TEST(ComputeGraphTest, FuseNodeKeepTopoRejectsConflictingLabels) {
  GraphBuilder b("g");
  NodePtr m1 = b.AddNode("m1", "Mul", 1, 1);
  NodePtr m2 = b.AddNode("m2", "Add", 1, 1);
  GE_ASSERT_OK(AttrUtils::SetStr(m1->GetOpDesc(), USER_STREAM_LABEL, "s1"));
  GE_ASSERT_OK(AttrUtils::SetStr(m2->GetOpDesc(), USER_STREAM_LABEL, "s2"));
  const Status st = b.graph()->FuseNodeKeepTopo({m1, m2}, {MakeOp("f", "F", 1, 1)}).status();
  GE_EXPECT_CODE(st, ErrorCode::kNotSupported);
  EXPECT_NE(std::string(st.message()).find("s1, s2"), std::string::npos) << st;
  EXPECT_NE(std::string(st.message()).find("m1"), std::string::npos) << st;
  EXPECT_EQ(b.graph()->GetDirectNodesSize(), 2u);
  GE_EXPECT_CODE(b.graph()->FuseNodeKeepTopo({}, {}), ErrorCode::kParamInvalid);
  auto foreign = *Node::Create(MakeOp("foreign", "T", 0, 0));
  GE_EXPECT_CODE(b.graph()->FuseNodeKeepTopo({foreign}, {}), ErrorCode::kNotFound);
}

// root: data -> if -> out; if has subgraphs then (t_data -> t_relu) and else
// (e_data); then has a nested while with body (w_data).
struct SubgraphFixture {
  ComputeGraphPtr root, then_g, else_g, body_g;
  NodePtr data, if_node, out, t_data, t_relu, t_while, e_data, w_data;

  SubgraphFixture() {
    GraphBuilder r("root");
    data = r.AddNode("data", DATA, 0, 1);
    if_node = r.AddNode("if", IF, 1, 1);
    out = r.AddNode("out", NETOUTPUT, 1, 0);
    r.AddDataEdge(data, 0, if_node, 0);
    r.AddDataEdge(if_node, 0, out, 0);
    root = r.graph();

    GraphBuilder t("then");
    t_data = t.AddNode("t_data", DATA, 0, 1);
    t_relu = t.AddNode("t_relu", "Relu", 1, 1);
    t_while = t.AddNode("t_while", WHILE, 0, 0);
    t.AddDataEdge(t_data, 0, t_relu, 0);
    then_g = t.graph();
    GraphBuilder e("else");
    e_data = e.AddNode("e_data", DATA, 0, 1);
    else_g = e.graph();
    GraphBuilder w("body");
    w_data = w.AddNode("w_data", DATA, 0, 1);
    body_g = w.graph();

    auto bind = [](const NodePtr& parent, const ComputeGraphPtr& parent_graph,
                   const ComputeGraphPtr& sg, const std::string& slot) {
      testing::CheckOk(parent->GetOpDesc()->AddSubgraphName(slot), "AddSubgraphName");
      const uint32_t index =
          static_cast<uint32_t>(parent->GetOpDesc()->GetSubgraphInstanceNames().size() - 1);
      testing::CheckOk(parent->GetOpDesc()->SetSubgraphInstanceName(index, sg->GetName()),
                       "SetSubgraphInstanceName");
      sg->SetParentGraph(parent_graph);
      sg->SetParentNode(parent);
    };
    bind(if_node, root, then_g, "then_branch");
    bind(if_node, root, else_g, "else_branch");
    bind(t_while, then_g, body_g, "body");
    testing::CheckOk(AttrUtils::SetInt(t_data->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX, 0),
                     "SetInt");
  }
};

TEST(ComputeGraphTest, SubgraphsAndGetAllNodes) {
  SubgraphFixture f;
  GE_ASSERT_OK(f.root->AddSubgraph("then", f.then_g));
  GE_ASSERT_OK(f.root->AddSubgraph(f.else_g));
  GE_ASSERT_OK(f.root->AddSubgraph("body", f.body_g));
  EXPECT_EQ(f.root->GetAllSubgraphs().size(), 3u);
  EXPECT_EQ(f.root->GetSubgraph("then"), f.then_g);
  EXPECT_EQ(f.then_g->GetSubgraph("body"), f.body_g);  // looks up the root
  EXPECT_EQ(f.body_g->GetSubgraph("else"), f.else_g);
  EXPECT_EQ(f.root->GetSubgraph("nope"), nullptr);
  EXPECT_EQ(f.then_g->GetParentGraph(), f.root);
  EXPECT_EQ(f.then_g->GetParentNode(), f.if_node);
  EXPECT_EQ(f.body_g->GetRootGraphBarePtr(), f.root.get());
  EXPECT_EQ(Names(f.root->GetAllNodes()),
            (Strings{"data", "if", "t_data", "t_relu", "t_while", "w_data", "e_data", "out"}));
  EXPECT_EQ(f.root->GetAllNodesSize(), 8u);
  EXPECT_EQ(f.root->GetAllNodesPtr().size(), 8u);
  EXPECT_EQ(Names(f.then_g->GetAllNodes()), (Strings{"t_data", "t_relu", "t_while", "w_data"}));
  EXPECT_EQ(*AttrUtils::GetInt(f.t_data->GetOpDesc(), ATTR_NAME_PARENT_NODE_INDEX), 0);

  GE_ASSERT_OK(f.root->RemoveSubgraph("body"));
  GE_EXPECT_CODE(f.root->RemoveSubgraph("body"), ErrorCode::kNotFound);
  EXPECT_EQ(Names(f.root->GetAllNodes()),
            (Strings{"data", "if", "t_data", "t_relu", "t_while", "e_data", "out"}));
  GE_ASSERT_OK(f.root->RemoveSubGraph(f.else_g));
  GE_EXPECT_CODE(f.root->RemoveSubGraph(f.else_g), ErrorCode::kNotFound);
  EXPECT_EQ(f.root->GetAllSubgraphs().size(), 1u);
  f.root->ClearAllSubgraphs();
  EXPECT_EQ(f.root->GetAllNodesSize(), 3u);
}

TEST(ComputeGraphTest, SubgraphRegisteredName) {
  SubgraphFixture f;
  // Not registered yet.
  GE_EXPECT_CODE(f.root->GetSubgraphRegisteredName(*f.then_g).status(), ErrorCode::kNotFound);
  GE_ASSERT_OK(f.root->AddSubgraph(f.then_g));                // own name
  GE_ASSERT_OK(f.root->AddSubgraph("body_alias", f.body_g));  // an alias
  auto then_name = f.root->GetSubgraphRegisteredName(*f.then_g);
  ASSERT_TRUE(then_name.ok());
  EXPECT_EQ(*then_name, "then");
  // Any graph of the tree answers from the root's registry.
  auto body_name = f.body_g->GetSubgraphRegisteredName(*f.body_g);
  ASSERT_TRUE(body_name.ok());
  EXPECT_EQ(*body_name, "body_alias");
  // An instance name of the parent node wins over other aliases.
  GE_ASSERT_OK(f.if_node->GetOpDesc()->SetSubgraphInstanceName(1, "else_inst"));
  GE_ASSERT_OK(f.root->AddSubgraph("a_else", f.else_g));
  GE_ASSERT_OK(f.root->AddSubgraph("else_inst", f.else_g));
  auto else_name = f.root->GetSubgraphRegisteredName(*f.else_g);
  ASSERT_TRUE(else_name.ok());
  EXPECT_EQ(*else_name, "else_inst");
  GE_ASSERT_OK(f.root->RemoveSubgraph("else_inst"));
  else_name = f.root->GetSubgraphRegisteredName(*f.else_g);
  ASSERT_TRUE(else_name.ok());
  EXPECT_EQ(*else_name, "a_else");
  // A graph registered nowhere is NotFound, with its name in the message.
  auto stray = std::make_shared<ComputeGraph>("stray");
  auto missing = f.root->GetSubgraphRegisteredName(*stray);
  GE_EXPECT_CODE(missing.status(), ErrorCode::kNotFound);
  EXPECT_NE(missing.status().message().find("stray"), std::string::npos);
}

TEST(ComputeGraphTest, AddSubgraphChecks) {
  SubgraphFixture f;
  GE_EXPECT_CODE(f.root->AddSubgraph("x", nullptr), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(f.root->AddSubgraph("self", f.root), ErrorCode::kParamInvalid);
  // Must be added at the root.
  GE_EXPECT_CODE(f.then_g->AddSubgraph("body", f.body_g), ErrorCode::kParamInvalid);
  // Parent links missing / inconsistent.
  auto orphan = std::make_shared<ComputeGraph>("orphan");
  GE_EXPECT_CODE(f.root->AddSubgraph("orphan", orphan), ErrorCode::kParamInvalid);
  orphan->SetParentGraph(f.root);
  GE_EXPECT_CODE(f.root->AddSubgraph("orphan", orphan), ErrorCode::kParamInvalid);
  orphan->SetParentNode(f.t_relu);  // t_relu is not in root
  GE_EXPECT_CODE(f.root->AddSubgraph("orphan", orphan), ErrorCode::kParamInvalid);
  // A parent graph from another tree.
  auto stranger = std::make_shared<ComputeGraph>("stranger");
  NodePtr s = *stranger->AddNode(MakeOp("s", "T", 0, 0));
  orphan->SetParentGraph(stranger);
  orphan->SetParentNode(s);
  GE_EXPECT_CODE(f.root->AddSubgraph("orphan", orphan), ErrorCode::kParamInvalid);
  // Duplicate name.
  GE_ASSERT_OK(f.root->AddSubgraph("then", f.then_g));
  GE_EXPECT_CODE(f.root->AddSubgraph("then", f.else_g), ErrorCode::kAlreadyExists);
  // Unchecked registration (partitioned graphs).
  GE_ASSERT_OK(f.root->AddSubGraph(std::make_shared<ComputeGraph>("partition0")));
  GE_EXPECT_CODE(f.root->AddSubGraph(std::make_shared<ComputeGraph>("partition0")),
                 ErrorCode::kAlreadyExists);
  EXPECT_EQ(f.root->GetAllSubgraphs().size(), 2u);
}

TEST(ComputeGraphTest, GraphOwnsNodesWithoutCyclesOfOwnership) {
  std::weak_ptr<Node> weak_node;
  std::weak_ptr<ComputeGraph> weak_graph;
  {
    SubgraphFixture f;
    GE_ASSERT_OK(f.root->AddSubgraph("then", f.then_g));
    weak_node = f.t_relu;
    weak_graph = f.then_g;
  }
  EXPECT_TRUE(weak_node.expired());
  EXPECT_TRUE(weak_graph.expired());
}

TEST(ComputeGraphTest, AttributesOnTheGraph) {
  auto g = std::make_shared<ComputeGraph>("g");
  GE_ASSERT_OK(AttrUtils::SetInt(g, "iterations", 3));
  EXPECT_EQ(*AttrUtils::GetInt(g, "iterations"), 3);
  g->SetGraphID(5);
  EXPECT_EQ(g->GetGraphID(), 5u);
  EXPECT_EQ(g->DebugString(), "graph 'g'");
}

}  // namespace
}  // namespace ge
