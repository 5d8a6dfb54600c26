// compiler/passes/pass_framework/graph_rewriter_test.cc
#include "compiler/passes/pass_framework/graph_rewriter.h"

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "compiler/passes/pass_framework/graph_verifier.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/op_types.h"
#include "graph/inc/graph/utils/node_utils.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using testing::EdgeStrings;
using ::testing::ElementsAre;
using testing::GraphBuilder;
using ::testing::HasSubstr;
using testing::NodeNames;
using ::testing::UnorderedElementsAre;

class Recorder : public RewriteListener {
 public:
  void OnNodeAdded(const NodePtr& node) override { added.insert(node->GetName()); }
  void OnNodeChanged(const NodePtr& node) override { changed.insert(node->GetName()); }
  void OnNodeRemoved(const NodePtr& node) override { removed.insert(node->GetName()); }
  std::set<std::string> added, changed, removed;
};

void ExpectValid(const ComputeGraphPtr& g) { GE_EXPECT_OK(GraphVerifier::Verify(*g)); }

TEST(GraphRewriterTest, AddNodeReportsTheNewNode) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", DATA, 0, 1);
  NodePtr z = b.AddNode("z", "Relu", 1, 1);
  Recorder rec;
  GraphRewriter rw(b.graph(), &rec);
  EXPECT_FALSE(rw.changed());
  auto n = rw.AddNodeAfter(a, testing::MakeOp("n", "Relu", 1, 1));
  GE_ASSERT_OK(n);
  EXPECT_THAT(NodeNames(*b.graph()), ElementsAre("a", "n", "z"));
  auto m = rw.AddNode(testing::MakeOp("m", "Relu", 1, 1));
  GE_ASSERT_OK(m);
  EXPECT_THAT(NodeNames(*b.graph()), ElementsAre("a", "n", "z", "m"));
  EXPECT_THAT(rec.added, UnorderedElementsAre("n", "m"));
  EXPECT_TRUE(rw.changed());
  EXPECT_EQ(rw.nodes_added(), 2);

  GraphBuilder other("other");
  NodePtr stranger = other.AddNode("stranger", "Relu", 1, 1);
  auto bad = rw.AddNodeAfter(stranger, testing::MakeOp("x", "Relu", 1, 1));
  GE_EXPECT_CODE(bad, ErrorCode::kParamInvalid);
  EXPECT_THAT(bad.status().message(), HasSubstr("'stranger' is not a node of this graph"));
  GE_EXPECT_CODE(rw.AddNode(nullptr), ErrorCode::kParamInvalid);
}

// a -> id -> {b, c}; p -ctrl-> id; id -ctrl-> q.
struct Bypass {
  Bypass() : b("g") {
    a = b.AddNode("a", DATA, 0, 1);
    p = b.AddNode("p", "NoOp", 0, 0);
    id = b.AddNode("id", "Identity", 1, 1);
    x = b.AddNode("b", "Relu", 1, 1);
    y = b.AddNode("c", "Relu", 1, 1);
    q = b.AddNode("q", "NoOp", 0, 0);
    b.AddDataEdge(a, 0, id, 0);
    b.AddDataEdge(id, 0, x, 0);
    b.AddDataEdge(id, 0, y, 0);
    b.AddControlEdge(p, id);
    b.AddControlEdge(id, q);
  }
  GraphBuilder b;
  NodePtr a, p, id, x, y, q;
};

TEST(GraphRewriterTest, RemoveNodeBypassesDataAndFoldsControlEdges) {
  Bypass t;
  Recorder rec;
  GraphRewriter rw(t.b.graph(), &rec);
  GE_ASSERT_OK(rw.RemoveNode(t.id));
  EXPECT_THAT(NodeNames(*t.b.graph()), ElementsAre("a", "p", "b", "c", "q"));
  // Data goes around; p still precedes everything id preceded; a precedes q.
  EXPECT_THAT(EdgeStrings(*t.b.graph()),
              UnorderedElementsAre("a:0->b:0", "a:0->c:0", "a->q", "p->b", "p->c", "p->q"));
  EXPECT_THAT(rec.removed, ElementsAre("id"));
  EXPECT_THAT(rec.changed, UnorderedElementsAre("a", "b", "c", "p", "q"));
  EXPECT_EQ(rw.nodes_removed(), 1);
  EXPECT_EQ(t.id->GetOwnerComputeGraphBarePtr(), nullptr);
  ExpectValid(t.b.graph());
}

TEST(GraphRewriterTest, RemoveNodeAddsNoRedundantControlEdges) {
  Bypass t;
  t.b.AddControlEdge(t.p, t.x);                                               // p -> b exists
  GE_ASSERT_OK(t.a->GetOutDataAnchor(0)->LinkTo(t.q->GetInControlAnchor()));  // a -> q exists
  GraphRewriter rw(t.b.graph());
  GE_ASSERT_OK(rw.RemoveNode(t.id));
  EXPECT_THAT(EdgeStrings(*t.b.graph()),
              UnorderedElementsAre("a:0->b:0", "a:0->c:0", "a:0->q:-1", "p->b", "p->c", "p->q"));
  ExpectValid(t.b.graph());
}

TEST(GraphRewriterTest, RemoveNodeMovesDataToControlConsumersToTheBypass) {
  Bypass t;
  NodePtr w = t.b.AddNode("w", "NoOp", 0, 0);
  GE_ASSERT_OK(t.id->GetOutDataAnchor(0)->LinkTo(w->GetInControlAnchor()));
  GraphRewriter rw(t.b.graph());
  GE_ASSERT_OK(rw.RemoveNode(t.id));
  EXPECT_TRUE(t.a->GetOutDataAnchor(0)->IsLinkedWith(w->GetInControlAnchor()));
  EXPECT_TRUE(t.p->GetOutControlAnchor()->IsLinkedWith(w->GetInControlAnchor()));
  ExpectValid(t.b.graph());
}

TEST(GraphRewriterTest, RemoveNodeWithAnIoMap) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", DATA, 0, 1);
  NodePtr c = b.AddNode("c", DATA, 0, 1);
  NodePtr idn = b.AddNode("idn", "IdentityN", 2, 2);
  NodePtr u = b.AddNode("u", "Add", 2, 1);
  b.AddDataEdge(a, 0, idn, 0);
  b.AddDataEdge(c, 0, idn, 1);
  b.AddDataEdge(idn, 1, u, 0);
  b.AddDataEdge(idn, 0, u, 1);
  GraphRewriter rw(b.graph());
  GE_EXPECT_CODE(rw.RemoveNode(idn, {0}), ErrorCode::kParamInvalid);     // wrong size
  GE_EXPECT_CODE(rw.RemoveNode(idn, {0, 2}), ErrorCode::kParamInvalid);  // not an input
  EXPECT_FALSE(rw.changed());
  GE_ASSERT_OK(rw.RemoveNode(idn, {0, 1}));
  EXPECT_THAT(EdgeStrings(*b.graph()), UnorderedElementsAre("a:0->u:1", "c:0->u:0"));
  ExpectValid(b.graph());
}

TEST(GraphRewriterTest, RemoveNodeWithoutABypassInputFailsAndChangesNothing) {
  GraphBuilder b("g");
  NodePtr src = b.AddNode("src", "RandomUniform", 0, 1);
  NodePtr use = b.AddNode("use", "Relu", 1, 1);
  b.AddDataEdge(src, 0, use, 0);
  const std::vector<std::string> before = EdgeStrings(*b.graph());
  Recorder rec;
  GraphRewriter rw(b.graph(), &rec);
  Status st = rw.RemoveNode(src);
  GE_EXPECT_CODE(st, ErrorCode::kParamInvalid);
  EXPECT_THAT(st.message(), HasSubstr("cannot remove node 'src': output 0 feeds [use:0(in_data)]"));
  EXPECT_EQ(EdgeStrings(*b.graph()), before);
  EXPECT_TRUE(b.graph()->HasNode(src));
  EXPECT_FALSE(rw.changed());
  EXPECT_TRUE(rec.changed.empty() && rec.removed.empty());

  // Removing a node that is not in the graph is rejected too.
  GraphBuilder other("other");
  NodePtr stranger = other.AddNode("stranger", "Relu", 1, 1);
  GE_EXPECT_CODE(rw.RemoveNode(stranger), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(rw.RemoveNode(nullptr), ErrorCode::kParamInvalid);
}

TEST(GraphRewriterTest, RemoveNodeRedirectsGraphOutputEntries) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", DATA, 0, 1);
  NodePtr id = b.AddNode("id", "Identity", 1, 1);
  b.AddDataEdge(a, 0, id, 0);
  b.graph()->SetGraphOutNodesInfo({{id, 0}});
  GraphRewriter rw(b.graph());
  GE_ASSERT_OK(rw.RemoveNode(id));
  ASSERT_EQ(b.graph()->GetGraphOutNodesInfo().size(), 1u);
  EXPECT_EQ(b.graph()->GetGraphOutNodesInfo()[0].first, a);
  EXPECT_EQ(b.graph()->GetGraphOutNodesInfo()[0].second, 0);

  // A graph output with nothing to bypass to blocks the removal.
  NodePtr gen = b.AddNode("gen", "RandomUniform", 0, 1);
  b.graph()->SetGraphOutNodesInfo({{gen, 0}});
  Status st = rw.RemoveNode(gen);
  GE_EXPECT_CODE(st, ErrorCode::kParamInvalid);
  EXPECT_THAT(st.message(), HasSubstr("graph output"));
}

TEST(GraphRewriterTest, RemovingANodeRemovesConstantsLeftWithoutConsumers) {
  GraphBuilder b("g");
  NodePtr x = b.AddNode("x", DATA, 0, 1);
  NodePtr shape = b.AddNode("shape", CONSTANT, 0, 1);
  NodePtr shared = b.AddNode("shared", CONSTANT, 0, 1);
  NodePtr r = b.AddNode("r", "Reshape", 2, 1);
  NodePtr r2 = b.AddNode("r2", "Reshape", 2, 1);
  NodePtr out = b.AddNode("out", NETOUTPUT, 2, 0);
  b.AddDataEdge(x, 0, r, 0);
  b.AddDataEdge(shape, 0, r, 1);
  b.AddDataEdge(x, 0, r2, 0);
  b.AddDataEdge(shared, 0, r2, 1);
  b.AddDataEdge(r, 0, out, 0);
  b.AddDataEdge(r2, 0, out, 1);
  Recorder rec;
  GraphRewriter rw(b.graph(), &rec);
  GE_ASSERT_OK(rw.RemoveNode(r));
  EXPECT_THAT(NodeNames(*b.graph()), ElementsAre("x", "shared", "r2", "out"));
  EXPECT_THAT(rec.removed, UnorderedElementsAre("r", "shape"));
  EXPECT_EQ(rw.nodes_removed(), 2);

  rw.set_remove_orphaned_consts(false);
  GE_ASSERT_OK(rw.RemoveNode(r2));
  EXPECT_THAT(NodeNames(*b.graph()), ElementsAre("x", "shared", "out"));
  ExpectValid(b.graph());
}

TEST(GraphRewriterTest, RemoveDeadNodeRequiresNoConsumers) {
  GraphBuilder b("g");
  NodePtr x = b.AddNode("x", DATA, 0, 1);
  NodePtr k = b.AddNode("k", CONSTANT, 0, 1);
  NodePtr dead = b.AddNode("dead", "Add", 2, 1);
  NodePtr tail = b.AddNode("tail", "NoOp", 0, 0);
  b.AddDataEdge(x, 0, dead, 0);
  b.AddDataEdge(k, 0, dead, 1);
  b.AddControlEdge(dead, tail);
  Recorder rec;
  GraphRewriter rw(b.graph(), &rec);
  Status st = rw.RemoveDeadNode(dead);
  GE_EXPECT_CODE(st, ErrorCode::kParamInvalid);
  EXPECT_THAT(st.message(), HasSubstr("still has consumers [tail:-1(in_control)]"));
  GE_ASSERT_OK(rw.UnlinkControl(dead, tail));
  GE_EXPECT_CODE(rw.UnlinkControl(dead, tail), ErrorCode::kNotFound);
  GE_ASSERT_OK(rw.RemoveDeadNode(dead));
  EXPECT_THAT(NodeNames(*b.graph()), ElementsAre("x", "tail"));  // k went with it
  EXPECT_THAT(rec.removed, UnorderedElementsAre("dead", "k"));
  EXPECT_TRUE(rec.changed.count("x"));
  EXPECT_EQ(x->GetOutDataNodesSize(), 0u);
  ExpectValid(b.graph());
}

// dup and keep compute the same thing; dup has consumers of every kind.
TEST(GraphRewriterTest, ReplaceNodeMovesEveryUse) {
  GraphBuilder b("g");
  NodePtr x = b.AddNode("x", DATA, 0, 1);
  NodePtr pre = b.AddNode("pre", "NoOp", 0, 0);
  NodePtr keep = b.AddNode("keep", "Relu", 1, 1);
  NodePtr dup = b.AddNode("dup", "Relu", 1, 1);
  NodePtr u1 = b.AddNode("u1", "Relu", 1, 1);
  NodePtr u2 = b.AddNode("u2", "Add", 2, 1);
  NodePtr after = b.AddNode("after", "NoOp", 0, 0);
  b.AddDataEdge(x, 0, keep, 0);
  b.AddDataEdge(x, 0, dup, 0);
  b.AddDataEdge(dup, 0, u1, 0);
  b.AddDataEdge(keep, 0, u2, 0);
  b.AddDataEdge(dup, 0, u2, 1);
  b.AddControlEdge(pre, dup);
  b.AddControlEdge(dup, after);
  b.graph()->SetGraphOutNodesInfo({{dup, 0}});
  Recorder rec;
  GraphRewriter rw(b.graph(), &rec);
  GE_EXPECT_CODE(rw.ReplaceNode(dup, dup), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(rw.ReplaceNode(dup, u1), ErrorCode::kParamInvalid);  // u1 consumes dup
  GE_ASSERT_OK(rw.ReplaceNode(dup, keep));
  EXPECT_THAT(EdgeStrings(*b.graph()),
              UnorderedElementsAre("x:0->keep:0", "pre->keep", "keep:0->u2:0", "keep:0->u1:0",
                                   "keep:0->u2:1", "keep->after"));
  EXPECT_EQ(b.graph()->GetGraphOutNodesInfo()[0].first, keep);
  EXPECT_THAT(rec.removed, ElementsAre("dup"));
  EXPECT_TRUE(rec.changed.count("u1") && rec.changed.count("u2") && rec.changed.count("keep"));
  ExpectValid(b.graph());

  NodePtr two = b.AddNode("two", "Split", 1, 2);
  NodePtr one = b.AddNode("one", "Relu", 1, 1);
  Status st = rw.ReplaceNode(two, one);
  GE_EXPECT_CODE(st, ErrorCode::kParamInvalid);
  EXPECT_THAT(st.message(), HasSubstr("(2 outputs) by 'one' (1 outputs)"));
}

TEST(GraphRewriterTest, ReplaceAllUsesWithSupportsInsertAfter) {
  GraphBuilder b("g");
  NodePtr x = b.AddNode("x", DATA, 0, 1);
  NodePtr u1 = b.AddNode("u1", "Relu", 1, 1);
  NodePtr u2 = b.AddNode("u2", "Relu", 1, 1);
  NodePtr c = b.AddNode("c", "NoOp", 0, 0);
  b.AddDataEdge(x, 0, u1, 0);
  b.AddDataEdge(x, 0, u2, 0);
  GE_ASSERT_OK(x->GetOutDataAnchor(0)->LinkTo(c->GetInControlAnchor()));
  b.graph()->SetGraphOutNodesInfo({{x, 0}});
  Recorder rec;
  GraphRewriter rw(b.graph(), &rec);
  auto cast = rw.AddNodeAfter(x, testing::MakeOp("cast", "Cast", 1, 1));
  GE_ASSERT_OK(cast);
  GE_ASSERT_OK(rw.LinkData(x->GetOutDataAnchor(0), (*cast)->GetInDataAnchor(0)));
  GE_ASSERT_OK(rw.ReplaceAllUsesWith(x->GetOutDataAnchor(0), (*cast)->GetOutDataAnchor(0)));
  EXPECT_THAT(EdgeStrings(*b.graph()),
              UnorderedElementsAre("x:0->cast:0", "cast:0->u1:0", "cast:0->u2:0", "cast:0->c:-1"));
  EXPECT_EQ(b.graph()->GetGraphOutNodesInfo()[0].first, *cast);
  EXPECT_TRUE(rec.changed.count("u1") && rec.changed.count("c") && rec.changed.count("x"));
  ExpectValid(b.graph());

  GE_EXPECT_CODE(rw.ReplaceAllUsesWith(x->GetOutDataAnchor(0), x->GetOutDataAnchor(0)),
                 ErrorCode::kParamInvalid);
  GraphBuilder other("other");
  NodePtr stranger = other.AddNode("stranger", "Relu", 1, 1);
  GE_EXPECT_CODE(rw.ReplaceAllUsesWith(x->GetOutDataAnchor(0), stranger->GetOutDataAnchor(0)),
                 ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(rw.ReplaceAllUsesWith(x->GetOutDataAnchor(0), nullptr), ErrorCode::kParamInvalid);
}

TEST(GraphRewriterTest, InsertNodeBetweenKeepsPeerPositions) {
  GraphBuilder b("g");
  NodePtr x = b.AddNode("x", DATA, 0, 1);
  NodePtr u1 = b.AddNode("u1", "Relu", 1, 1);
  NodePtr u2 = b.AddNode("u2", "Relu", 1, 1);
  NodePtr mid = b.AddNode("mid", "Cast", 1, 1);
  b.AddDataEdge(x, 0, u1, 0);
  b.AddDataEdge(x, 0, u2, 0);
  GraphRewriter rw(b.graph());
  GE_ASSERT_OK(rw.InsertNodeBetween(x->GetOutDataAnchor(0), u1->GetInDataAnchor(0), mid));
  EXPECT_THAT(EdgeStrings(*b.graph()), ElementsAre("x:0->mid:0", "x:0->u2:0", "mid:0->u1:0"));
  // Not linked any more / input already used / bad index.
  GE_EXPECT_CODE(rw.InsertNodeBetween(x->GetOutDataAnchor(0), u1->GetInDataAnchor(0), mid),
                 ErrorCode::kParamInvalid);
  NodePtr mid2 = b.AddNode("mid2", "Cast", 1, 1);
  GE_EXPECT_CODE(rw.InsertNodeBetween(x->GetOutDataAnchor(0), u2->GetInDataAnchor(0), mid2, 3),
                 ErrorCode::kOutOfRange);
  GE_EXPECT_CODE(rw.InsertNodeBetween(x->GetOutDataAnchor(0), u2->GetInDataAnchor(0), mid),
                 ErrorCode::kParamInvalid);
  ExpectValid(b.graph());
}

TEST(GraphRewriterTest, EdgeEdits) {
  GraphBuilder b("g");
  NodePtr x = b.AddNode("x", DATA, 0, 1);
  NodePtr y = b.AddNode("y", DATA, 0, 1);
  NodePtr u = b.AddNode("u", "Relu", 1, 1);
  NodePtr n = b.AddNode("n", "NoOp", 0, 0);
  Recorder rec;
  GraphRewriter rw(b.graph(), &rec);
  GE_ASSERT_OK(rw.LinkData(x, 0, u, 0));
  GE_EXPECT_CODE(rw.LinkData(y, 0, u, 0), ErrorCode::kAlreadyExists);
  GE_EXPECT_CODE(rw.LinkData(y, 1, u, 0), ErrorCode::kOutOfRange);
  GE_EXPECT_CODE(rw.LinkData(y, 0, u, 5), ErrorCode::kOutOfRange);
  GE_ASSERT_OK(rw.ReplaceInput(u->GetInDataAnchor(0), y->GetOutDataAnchor(0)));
  EXPECT_THAT(EdgeStrings(*b.graph()), ElementsAre("y:0->u:0"));
  EXPECT_TRUE(rec.changed.count("x"));  // lost its consumer
  GE_ASSERT_OK(rw.UnlinkData(u->GetInDataAnchor(0)));
  GE_ASSERT_OK(rw.UnlinkData(u->GetInDataAnchor(0)));  // no-op
  GE_EXPECT_CODE(rw.ReplaceInput(u->GetInDataAnchor(0), x->GetOutDataAnchor(0)),
                 ErrorCode::kParamInvalid);
  EXPECT_TRUE(EdgeStrings(*b.graph()).empty());

  GE_ASSERT_OK(rw.LinkControl(x, n));
  GE_ASSERT_OK(rw.LinkControl(x, n));  // already linked: no-op
  GE_EXPECT_CODE(rw.LinkControl(n, n), ErrorCode::kParamInvalid);
  GE_ASSERT_OK(rw.LinkControl(y, n));
  GE_ASSERT_OK(rw.MoveOutControlEdges(x, u));
  EXPECT_THAT(EdgeStrings(*b.graph()), UnorderedElementsAre("u->n", "y->n"));
  GE_ASSERT_OK(rw.CopyInControlEdges(n, x));
  GE_ASSERT_OK(rw.CopyInControlEdges(n, x));  // nothing new
  EXPECT_THAT(EdgeStrings(*b.graph()), UnorderedElementsAre("u->n", "y->n", "y->x", "u->x"));
  EXPECT_EQ(x->GetInControlNodes().size(), 2u);
  ExpectValid(b.graph());
}

TEST(GraphRewriterTest, RemovingANodeRemovesItsSubgraphs) {
  GraphBuilder root("root");
  NodePtr x = root.AddNode("x", DATA, 0, 1);
  auto op = testing::MakeOp("if", IF, 1, 1);
  GE_ASSERT_OK(op->AddSubgraphName("then_branch"));
  auto if_node = root.graph()->AddNode(op);
  GE_ASSERT_OK(if_node);
  root.AddDataEdge(x, 0, *if_node, 0);
  auto then_graph = std::make_shared<ComputeGraph>("then");
  GE_ASSERT_OK(NodeUtils::SetSubgraph(**if_node, 0, then_graph));
  // A nested subgraph inside "then".
  GraphBuilder inner(then_graph);
  auto inner_op = testing::MakeOp("inner_if", IF, 0, 0);
  GE_ASSERT_OK(inner_op->AddSubgraphName("then_branch"));
  auto inner_if = then_graph->AddNode(inner_op);
  GE_ASSERT_OK(inner_if);
  GE_ASSERT_OK(NodeUtils::SetSubgraph(**inner_if, 0, std::make_shared<ComputeGraph>("nested")));
  ASSERT_EQ(root.graph()->GetAllSubgraphs().size(), 2u);
  ExpectValid(root.graph());

  GraphRewriter rw(root.graph());
  GE_ASSERT_OK(rw.RemoveDeadNode(*if_node));
  EXPECT_TRUE(root.graph()->GetAllSubgraphs().empty());
  EXPECT_EQ(root.graph()->GetSubgraph("nested"), nullptr);
  ExpectValid(root.graph());
}

TEST(GraphRewriterTest, DescAndAttributeEditsAreReported) {
  GraphBuilder b("g");
  NodePtr n = b.AddNode("n", "Cast", 1, 1);
  Recorder rec;
  GraphRewriter rw(b.graph(), &rec);
  GE_ASSERT_OK(rw.UpdateInputDesc(n, 0, GeTensorDesc(GeShape({4}), FORMAT_ND, DT_INT8)));
  EXPECT_EQ(n->GetOpDesc()->GetInputDesc(0).GetDataType(), DT_INT8);
  GE_ASSERT_OK(rw.UpdateOutputDesc(n, 0, GeTensorDesc(GeShape({4}), FORMAT_ND, DT_INT32)));
  EXPECT_EQ(n->GetOpDesc()->GetOutputDesc(0).GetShape(), GeShape({4}));
  GE_ASSERT_OK(rw.SetAttr(n, "to", AttrValue::CreateFrom<DataType>(DT_INT32)));
  EXPECT_NE(n->GetOpDesc()->GetAttr("to"), nullptr);
  EXPECT_THAT(rec.changed, ElementsAre("n"));
  GE_EXPECT_CODE(rw.UpdateInputDesc(n, 3, GeTensorDesc()), ErrorCode::kOutOfRange);
  GE_EXPECT_CODE(rw.SetAttr(n, "", AttrValue()), ErrorCode::kParamInvalid);
}

TEST(GraphRewriterTest, EditsOnADetachedRewriterFail) {
  GraphRewriter rw(nullptr);
  GraphBuilder b("g");
  NodePtr x = b.AddNode("x", DATA, 0, 1);
  GE_EXPECT_CODE(rw.AddNode(testing::MakeOp("n", "Relu", 1, 1)), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(rw.RemoveNode(x), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(rw.LinkControl(x, x), ErrorCode::kParamInvalid);
  EXPECT_FALSE(rw.changed());
}

}  // namespace
}  // namespace ge
