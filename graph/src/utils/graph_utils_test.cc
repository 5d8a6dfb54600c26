// graph/src/utils/graph_utils_test.cc
#include "graph/inc/graph/utils/graph_utils.h"

#include <memory>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/op_types.h"
#include "graph/inc/graph/utils/node_utils.h"
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

TEST(GraphUtilsTest, AddAndRemoveEdges) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "T", 0, 1);
  NodePtr c = b.AddNode("c", "T", 2, 0);
  GE_ASSERT_OK(GraphUtils::AddEdge(a->GetOutDataAnchor(0), c->GetInDataAnchor(0)));
  GE_ASSERT_OK(GraphUtils::AddEdge(a->GetOutDataAnchor(0), c->GetInControlAnchor()));
  GE_ASSERT_OK(GraphUtils::AddEdge(a->GetOutControlAnchor(), c->GetInDataAnchor(1)));
  GE_ASSERT_OK(GraphUtils::AddEdge(c->GetOutControlAnchor(), a->GetInControlAnchor()));
  EXPECT_EQ(EdgeStrings(*b.graph()), (Strings{"a:0->c:0", "a:0->c:-1", "a:-1->c:1", "c->a"}));
  GE_EXPECT_CODE(
      GraphUtils::AddEdge(AnchorPtr(c->GetInDataAnchor(0)), AnchorPtr(a->GetOutDataAnchor(0))),
      ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(GraphUtils::AddEdge(a->GetOutDataAnchor(0), InDataAnchorPtr()),
                 ErrorCode::kParamInvalid);
  GE_ASSERT_OK(GraphUtils::RemoveEdge(a->GetOutDataAnchor(0), c->GetInDataAnchor(0)));
  GE_ASSERT_OK(GraphUtils::RemoveEdge(a->GetOutDataAnchor(0), c->GetInControlAnchor()));
  GE_ASSERT_OK(GraphUtils::RemoveEdge(a->GetOutControlAnchor(), c->GetInDataAnchor(1)));
  GE_ASSERT_OK(GraphUtils::RemoveEdge(c->GetOutControlAnchor(), a->GetInControlAnchor()));
  GE_EXPECT_CODE(GraphUtils::RemoveEdge(a->GetOutDataAnchor(0), c->GetInDataAnchor(0)),
                 ErrorCode::kNotFound);
  EXPECT_TRUE(EdgeStrings(*b.graph()).empty());
}

TEST(GraphUtilsTest, ReplaceEdgeSrcAndDst) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "T", 0, 1);
  NodePtr a2 = b.AddNode("a2", "T", 0, 1);
  NodePtr c = b.AddNode("c", "T", 1, 0);
  NodePtr d = b.AddNode("d", "T", 1, 0);
  NodePtr e = b.AddNode("e", "T", 1, 0);
  b.AddDataEdge(a, 0, c, 0);
  b.AddDataEdge(a, 0, d, 0);
  GE_ASSERT_OK(GraphUtils::ReplaceEdgeDst(a->GetOutDataAnchor(0), c->GetInDataAnchor(0),
                                          e->GetInDataAnchor(0)));
  EXPECT_EQ(Names(a->GetOutDataNodes()), (Strings{"e", "d"}));  // position kept
  GE_ASSERT_OK(GraphUtils::ReplaceEdgeSrc(a->GetOutDataAnchor(0), d->GetInDataAnchor(0),
                                          a2->GetOutDataAnchor(0)));
  EXPECT_EQ(d->GetInDataAnchor(0)->GetPeerOutAnchor(), a2->GetOutDataAnchor(0));
  EXPECT_EQ(Names(a->GetOutDataNodes()), Strings{"e"});
  // Replacing onto a fed input fails and changes nothing.
  GE_EXPECT_CODE(GraphUtils::ReplaceEdgeDst(a->GetOutDataAnchor(0), e->GetInDataAnchor(0),
                                            d->GetInDataAnchor(0)),
                 ErrorCode::kAlreadyExists);
  EXPECT_EQ(e->GetInDataAnchor(0)->GetPeerOutAnchor(), a->GetOutDataAnchor(0));
  GE_EXPECT_CODE(GraphUtils::ReplaceEdgeSrc(nullptr, nullptr, nullptr), ErrorCode::kParamInvalid);
}

TEST(GraphUtilsTest, InsertNodes) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "T", 0, 1);
  NodePtr c = b.AddNode("c", "T", 1, 0);
  NodePtr d = b.AddNode("d", "T", 1, 0);
  NodePtr e = b.AddNode("e", "T", 1, 0);
  NodePtr cast = b.AddNode("cast", "Cast", 1, 1);
  NodePtr id = b.AddNode("id", "Identity", 1, 1);
  NodePtr tr = b.AddNode("tr", "Transpose", 1, 1);
  b.AddDataEdge(a, 0, c, 0);
  b.AddDataEdge(a, 0, d, 0);
  b.AddDataEdge(a, 0, e, 0);
  GE_ASSERT_OK(GraphUtils::InsertNodeBetweenDataAnchors(a->GetOutDataAnchor(0),
                                                        d->GetInDataAnchor(0), cast));
  EXPECT_EQ(Names(a->GetOutDataNodes()), (Strings{"c", "cast", "e"}));
  EXPECT_EQ(Names(cast->GetOutDataNodes()), Strings{"d"});
  GE_ASSERT_OK(GraphUtils::InsertNodeAfter(a->GetOutDataAnchor(0), {}, id));
  EXPECT_EQ(Names(a->GetOutDataNodes()), Strings{"id"});
  EXPECT_EQ(Names(id->GetOutDataNodes()), (Strings{"c", "cast", "e"}));
  GE_ASSERT_OK(GraphUtils::InsertNodeBefore(e->GetInDataAnchor(0), tr));
  EXPECT_EQ(Names(id->GetOutDataNodes()), (Strings{"c", "cast", "tr"}));
  EXPECT_EQ(Names(tr->GetOutDataNodes()), Strings{"e"});
  // Failures change nothing.
  NodePtr busy = b.AddNode("busy", "T", 1, 1);
  b.AddDataEdge(a, 0, busy, 0);
  GE_EXPECT_CODE(GraphUtils::InsertNodeAfter(id->GetOutDataAnchor(0), {}, busy),
                 ErrorCode::kAlreadyExists);
  NodePtr fresh = b.AddNode("fresh", "T", 1, 1);
  GE_EXPECT_CODE(
      GraphUtils::InsertNodeAfter(id->GetOutDataAnchor(0), {d->GetInDataAnchor(0)}, fresh),
      ErrorCode::kNotFound);
  GE_EXPECT_CODE(GraphUtils::InsertNodeAfter(id->GetOutDataAnchor(0),
                                             {c->GetInDataAnchor(0), c->GetInDataAnchor(0)}, fresh),
                 ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(GraphUtils::InsertNodeAfter(id->GetOutDataAnchor(0), {}, fresh, 3, 0),
                 ErrorCode::kOutOfRange);
  GE_EXPECT_CODE(GraphUtils::InsertNodeBefore(fresh->GetInDataAnchor(0), fresh),
                 ErrorCode::kNotFound);
  EXPECT_EQ(Names(id->GetOutDataNodes()), (Strings{"c", "cast", "tr"}));
  EXPECT_FALSE(fresh->GetInDataAnchor(0)->IsLinked());
}

TEST(GraphUtilsTest, IsolateNodeOneIOAndRemoveWithoutRelink) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "T", 0, 1);
  NodePtr id = b.AddNode("id", "Identity", 1, 1);
  NodePtr c = b.AddNode("c", "T", 1, 0);
  NodePtr two = b.AddNode("two", "T", 2, 1);
  b.AddDataEdge(a, 0, id, 0);
  b.AddDataEdge(id, 0, c, 0);
  GE_ASSERT_OK(GraphUtils::IsolateNodeOneIO(id));
  EXPECT_EQ(c->GetInDataAnchor(0)->GetPeerOutAnchor(), a->GetOutDataAnchor(0));
  GE_EXPECT_CODE(GraphUtils::IsolateNodeOneIO(two), ErrorCode::kParamInvalid);
  GE_ASSERT_OK(GraphUtils::RemoveNodeWithoutRelink(b.graph(), c));
  EXPECT_FALSE(a->GetOutDataAnchor(0)->IsLinked());
  EXPECT_EQ(NodeNames(*b.graph()), (Strings{"a", "id", "two"}));
  GE_EXPECT_CODE(GraphUtils::RemoveNodeWithoutRelink(nullptr, a), ErrorCode::kParamInvalid);
}

TEST(GraphUtilsTest, CopyAndMoveControlEdges) {
  GraphBuilder b("g");
  NodePtr p1 = b.AddNode("p1", "T", 0, 0);
  NodePtr p2 = b.AddNode("p2", "T", 0, 1);
  NodePtr src = b.AddNode("src", "T", 0, 0);
  NodePtr dst = b.AddNode("dst", "T", 0, 0);
  NodePtr c1 = b.AddNode("c1", "T", 0, 0);
  NodePtr c2 = b.AddNode("c2", "T", 1, 0);
  b.AddControlEdge(p1, src);
  GE_ASSERT_OK(p2->GetOutDataAnchor(0)->LinkTo(src->GetInControlAnchor()));
  b.AddControlEdge(p1, dst);
  b.AddControlEdge(src, c1);
  GE_ASSERT_OK(src->GetOutControlAnchor()->LinkTo(c2->GetInDataAnchor(0)));
  GE_ASSERT_OK(GraphUtils::CopyInCtrlEdges(src, dst));
  EXPECT_EQ(Names(dst->GetInControlNodes()), (Strings{"p1", "p2"}));
  EXPECT_EQ(Names(src->GetInControlNodes()), (Strings{"p1", "p2"}));
  GE_ASSERT_OK(GraphUtils::CopyOutCtrlEdges(src, dst));
  EXPECT_EQ(Names(dst->GetOutControlNodes()), Strings{"c1"});  // not the control -> data one
  GE_ASSERT_OK(GraphUtils::MoveOutCtrlEdges(src, dst));
  EXPECT_TRUE(src->GetOutControlNodes().empty());
  EXPECT_EQ(Names(dst->GetOutControlNodes()), (Strings{"c1", "c2"}));
  EXPECT_EQ(Names(c2->GetInControlNodes()), Strings{"dst"});
  GE_ASSERT_OK(GraphUtils::MoveInCtrlEdges(src, dst));
  EXPECT_TRUE(src->GetInControlNodes().empty());
  EXPECT_EQ(Names(dst->GetInControlNodes()), (Strings{"p1", "p2"}));
  GE_EXPECT_CODE(GraphUtils::CopyInCtrlEdges(nullptr, dst), ErrorCode::kParamInvalid);
}

// root: data -> conv(w) -> if -> out, control k -> conv, plus attributes;
// if has a then-subgraph with a nested graph attribute.
ComputeGraphPtr BuildRichGraph() {
  GraphBuilder r("root");
  NodePtr data = r.AddNode("data", DATA, 0, 1);
  NodePtr w = r.AddNode("w", CONSTANT, 0, 1);
  NodePtr conv = r.AddNode("conv", "Conv2D", 2, 1, GeShape({1, 8, 4, 4}));
  NodePtr k = r.AddNode("k", "T", 0, 0);
  NodePtr k2 = r.AddNode("k2", "T", 0, 0);
  NodePtr if_node = r.AddNode("if", IF, 1, 1);
  NodePtr out = r.AddNode("out", NETOUTPUT, 1, 0);
  r.AddDataEdge(data, 0, conv, 0);
  r.AddDataEdge(w, 0, conv, 1);
  r.AddDataEdge(conv, 0, if_node, 0);
  r.AddDataEdge(if_node, 0, out, 0);
  r.AddControlEdge(k2, if_node);
  r.AddControlEdge(k, if_node);  // in-control order: k2, k
  r.AddControlEdge(k, conv);
  testing::CheckOk(r.graph()->AddOutputNodeByIndex(if_node, 0), "output");
  GeTensor weights(GeTensorDesc(GeShape({4}), FORMAT_ND, DT_UINT8),
                   std::vector<uint8_t>{1, 2, 3, 4});
  testing::CheckOk(AttrUtils::SetTensor(w->GetOpDesc(), "value", weights), "weights");
  testing::CheckOk(AttrUtils::SetListInt(conv->GetOpDesc(), "pads", {1, 1}), "pads");
  testing::CheckOk(AttrUtils::SetStr(r.graph(), "framework", "onnx"), "graph attr");
  testing::CheckOk(AttrUtils::SetInt(conv->GetOpDesc()->MutableOutputDesc(0), "tag", 5),
                   "desc attr");

  GraphBuilder t("then");
  NodePtr t_data = t.AddNode("t_data", DATA, 0, 1);
  NodePtr t_out = t.AddNode("t_out", NETOUTPUT, 1, 0);
  t.AddDataEdge(t_data, 0, t_out, 0);
  testing::CheckOk(if_node->GetOpDesc()->AddSubgraphName("then_branch"), "slot");
  testing::CheckOk(NodeUtils::SetSubgraph(*if_node, 0, t.graph()), "SetSubgraph");
  auto attr_graph = std::make_shared<ComputeGraph>("attr_graph");
  testing::CheckOk(attr_graph->AddNode(MakeOp("inner", "T", 0, 0)).status(), "inner");
  testing::CheckOk(AttrUtils::SetGraph(t_out->GetOpDesc(), "g", attr_graph), "graph attr");
  return r.graph();
}

TEST(GraphUtilsTest, CopyGraphReproducesEverything) {
  ComputeGraphPtr src = BuildRichGraph();
  auto copy_or = GraphUtils::CopyGraph(src, "copy");
  ASSERT_TRUE(copy_or.ok()) << copy_or.status();
  ComputeGraphPtr copy = *copy_or;
  EXPECT_EQ(copy->GetName(), "copy");
  EXPECT_EQ(NodeNames(*copy), NodeNames(*src));
  EXPECT_EQ(EdgeStrings(*copy), EdgeStrings(*src));
  for (const NodePtr& n : src->GetAllNodes()) {
    NodePtr m = GraphUtils::FindNodeFromAllNodes(copy, n->GetName());
    ASSERT_NE(m, nullptr) << n->GetName();
    EXPECT_NE(m, n);
    EXPECT_NE(m->GetOpDesc(), n->GetOpDesc());
    EXPECT_EQ(m->GetOpDesc()->GetId(), n->GetOpDesc()->GetId());
    EXPECT_EQ(Names(m->GetInControlNodes()), Names(n->GetInControlNodes())) << n->GetName();
    EXPECT_EQ(m->GetOpDesc()->GetAllAttrNames(), n->GetOpDesc()->GetAllAttrNames());
  }
  EXPECT_EQ(Names(copy->GetInputNodes()), Names(src->GetInputNodes()));
  ASSERT_EQ(copy->GetGraphOutNodesInfo().size(), 1u);
  EXPECT_EQ(copy->GetGraphOutNodesInfo()[0].first->GetName(), "if");
  EXPECT_EQ(*AttrUtils::GetStr(copy, "framework"), "onnx");
  // Subgraph tree.
  ComputeGraphPtr then_copy = copy->GetSubgraph("then");
  ASSERT_NE(then_copy, nullptr);
  EXPECT_NE(then_copy, src->GetSubgraph("then"));
  EXPECT_EQ(then_copy->GetParentGraph(), copy);
  EXPECT_EQ(then_copy->GetParentNode(), copy->FindNode("if"));
  EXPECT_EQ(Names(copy->GetAllNodes()), Names(src->GetAllNodes()));
  // Graph attributes are deep-copied too.
  NodePtr t_out_copy = then_copy->FindNode("t_out");
  auto g_copy = AttrUtils::GetGraph(t_out_copy->GetOpDesc(), "g");
  auto g_src = AttrUtils::GetGraph(src->GetSubgraph("then")->FindNode("t_out")->GetOpDesc(), "g");
  ASSERT_TRUE(g_copy.ok() && g_src.ok());
  EXPECT_NE(*g_copy, *g_src);
  EXPECT_EQ(NodeNames(**g_copy), Strings{"inner"});
}

TEST(GraphUtilsTest, MutatingTheCopyLeavesTheOriginalIntact) {
  ComputeGraphPtr src = BuildRichGraph();
  const Strings nodes_before = Names(src->GetAllNodes());
  const Strings edges_before = EdgeStrings(*src);
  ComputeGraphPtr copy = *GraphUtils::CopyGraph(src);
  EXPECT_EQ(copy->GetName(), "root");
  // Edit the copy thoroughly.
  NodePtr conv = copy->FindNode("conv");
  conv->GetOpDesc()->MutableOutputDesc(0)->SetDataType(DT_INT8);
  GE_ASSERT_OK(AttrUtils::SetInt(conv->GetOpDesc()->MutableOutputDesc(0), "tag", 6));
  GE_ASSERT_OK(AttrUtils::SetListInt(conv->GetOpDesc(), "pads", {9}));
  GE_ASSERT_OK(AttrUtils::SetStr(copy, "framework", "tf"));
  auto weights = *AttrUtils::GetTensor(copy->FindNode("w")->GetOpDesc(), "value");
  weights.MutableData()[0] = 99;
  GE_ASSERT_OK(AttrUtils::SetTensor(copy->FindNode("w")->GetOpDesc(), "value", weights));
  GE_ASSERT_OK(copy->RemoveNode(conv));
  GE_ASSERT_OK(
      copy->GetSubgraph("then")->RemoveNode(copy->GetSubgraph("then")->FindNode("t_data")));
  GE_ASSERT_OK(copy->TopologicalSorting(TopoSortingMode::kBFS));
  // The source is unchanged.
  EXPECT_EQ(Names(src->GetAllNodes()), nodes_before);
  EXPECT_EQ(EdgeStrings(*src), edges_before);
  NodePtr src_conv = src->FindNode("conv");
  EXPECT_EQ(src_conv->GetOpDesc()->GetOutputDesc(0).GetDataType(), DT_FLOAT);
  EXPECT_EQ(*AttrUtils::GetInt(src_conv->GetOpDesc()->MutableOutputDesc(0), "tag"), 5);
  EXPECT_EQ(*AttrUtils::GetListInt(src_conv->GetOpDesc(), "pads"), (std::vector<int64_t>{1, 1}));
  EXPECT_EQ(*AttrUtils::GetStr(src, "framework"), "onnx");
  EXPECT_EQ(AttrUtils::GetTensor(src->FindNode("w")->GetOpDesc(), "value")->GetData()[0], 1);
  EXPECT_EQ(src->GetSubgraph("then")->GetDirectNodesSize(), 2u);
}

TEST(GraphUtilsTest, CopyGraphRejectsEdgesLeavingTheTree) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "T", 0, 1);
  auto outside = *Node::Create(MakeOp("outside", "T", 1, 0));
  GE_ASSERT_OK(a->GetOutDataAnchor(0)->LinkTo(outside->GetInDataAnchor(0)));
  const Status st = GraphUtils::CopyGraph(b.graph()).status();
  GE_EXPECT_CODE(st, ErrorCode::kGraphInvalid);
  EXPECT_NE(std::string(st.message()).find("outside"), std::string::npos) << st;
  GE_EXPECT_CODE(GraphUtils::CopyGraph(nullptr), ErrorCode::kParamInvalid);
}

TEST(GraphUtilsTest, CopyGraphKeepsTheShapeOfGraphReferences) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "T", 0, 0);
  NodePtr a2 = b.AddNode("a2", "T", 0, 0);
  auto shared = std::make_shared<ComputeGraph>("shared");
  NodePtr inner = *shared->AddNode(MakeOp("inner", "T", 0, 0));
  GE_ASSERT_OK(AttrUtils::SetGraph(inner->GetOpDesc(), "self", shared));     // self reference
  GE_ASSERT_OK(AttrUtils::SetGraph(inner->GetOpDesc(), "root", b.graph()));  // back to the root
  GE_ASSERT_OK(AttrUtils::SetGraph(a->GetOpDesc(), "g", shared));
  GE_ASSERT_OK(AttrUtils::SetListGraph(a2->GetOpDesc(), "gs", {shared}));
  auto copy = GraphUtils::CopyGraph(b.graph());
  ASSERT_TRUE(copy.ok()) << copy.status();
  ComputeGraphPtr shared_copy = *AttrUtils::GetGraph((*copy)->FindNode("a")->GetOpDesc(), "g");
  EXPECT_NE(shared_copy, shared);
  EXPECT_EQ(AttrUtils::GetListGraph((*copy)->FindNode("a2")->GetOpDesc(), "gs")->at(0),
            shared_copy);  // copied once
  NodePtr inner_copy = shared_copy->FindNode("inner");
  EXPECT_EQ(*AttrUtils::GetGraph(inner_copy->GetOpDesc(), "self"), shared_copy);
  EXPECT_EQ(*AttrUtils::GetGraph(inner_copy->GetOpDesc(), "root"), *copy);
  // Break the ownership cycles (in the source and in the copy).
  for (const NodePtr& n : {inner, inner_copy}) {
    GE_ASSERT_OK(n->GetOpDesc()->DelAttr("self"));
    GE_ASSERT_OK(n->GetOpDesc()->DelAttr("root"));
  }
}

TEST(GraphUtilsTest, FindRootGraphAndNodes) {
  ComputeGraphPtr src = BuildRichGraph();
  ComputeGraphPtr then_graph = src->GetSubgraph("then");
  EXPECT_EQ(GraphUtils::FindRootGraph(then_graph), src);
  EXPECT_EQ(GraphUtils::FindRootGraph(src), src);
  EXPECT_EQ(GraphUtils::FindRootGraph(nullptr), nullptr);
  EXPECT_EQ(GraphUtils::FindNodeFromAllNodes(src, "t_out")->GetOwnerComputeGraph(), then_graph);
  EXPECT_EQ(GraphUtils::FindNodeFromAllNodes(src, "nope"), nullptr);
  EXPECT_EQ(GraphUtils::FindNodeFromAllNodes(nullptr, "t_out"), nullptr);
}

}  // namespace
}  // namespace ge
