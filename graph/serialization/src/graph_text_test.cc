// graph/serialization/src/graph_text_test.cc
#include "graph/serialization/inc/graph_text.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "graph/serialization/testing/graph_compare.h"
#include "graph/serialization/testing/random_graph.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

// Print -> parse -> compare -> print again gives the same bytes.
void ExpectRoundTrip(const ComputeGraph& g) {
  const std::string text = PrintGraphText(g);
  StatusOr<ComputeGraphPtr> back = ParseGraphText(text);
  ASSERT_TRUE(back.ok()) << back.status() << "\n" << text;
  const Status same = testing::CompareGraphs(g, **back);
  EXPECT_TRUE(same.ok()) << same << "\n" << text;
  EXPECT_EQ(PrintGraphText(**back), text);
}

ComputeGraphPtr ConvGraph() {
  auto g = std::make_shared<ComputeGraph>("main");
  const GeTensorDesc x_desc(GeShape({1, 3, 8, 8}), FORMAT_NCHW, DT_FLOAT);
  const GeTensorDesc w_desc(GeShape({4, 3, 3, 3}), FORMAT_NCHW, DT_FLOAT);
  const GeTensorDesc y_desc(GeShape({1, 4, 6, 6}), FORMAT_NCHW, DT_FLOAT);
  auto x = OpDesc::Create("x", DATA);
  GE_EXPECT_OK(x->AddInputDesc(x_desc));
  GE_EXPECT_OK(x->AddOutputDesc(x_desc));
  GE_EXPECT_OK(x->SetAttr("index", AttrValue::CreateFrom<int64_t>(0)));
  auto w = OpDesc::Create("w", CONSTANT);
  GE_EXPECT_OK(w->AddOutputDesc(w_desc));
  GE_EXPECT_OK(w->SetAttr("value", AttrValue::CreateFrom<GeTensor>(
                                       GeTensor(w_desc, std::vector<uint8_t>(4 * 27 * 4, 1)))));
  auto b = OpDesc::Create("b", CONSTANT);
  const GeTensorDesc b_desc(GeShape({4}), FORMAT_ND, DT_FLOAT);
  GE_EXPECT_OK(b->AddOutputDesc(b_desc));
  std::vector<float> bias = {0.5f, -1.0f, 0.0f, 3.25f};
  GE_EXPECT_OK(
      b->SetAttr("value", AttrValue::CreateFrom<GeTensor>(GeTensor(
                              b_desc, reinterpret_cast<const uint8_t*>(bias.data()), 16))));
  auto conv = OpDesc::Create("conv1", "Conv2D");
  GE_EXPECT_OK(conv->AddInputDesc("x", x_desc));
  GE_EXPECT_OK(conv->AddInputDesc("filter", w_desc));
  GE_EXPECT_OK(conv->AddOptionalInputDesc("bias", b_desc));
  GE_EXPECT_OK(conv->AddOutputDesc("y", y_desc));
  GE_EXPECT_OK(conv->SetAttr("strides", AttrValue::CreateFrom<std::vector<int64_t>>({1, 1})));
  GE_EXPECT_OK(conv->SetAttr("pads", AttrValue::CreateFrom<std::vector<int64_t>>({0, 0, 0, 0})));
  GE_EXPECT_OK(conv->SetAttr("groups", AttrValue::CreateFrom<int64_t>(1)));
  GE_EXPECT_OK(conv->SetAttr("data_format", AttrValue::CreateFrom<std::string>("NCHW")));
  auto out = OpDesc::Create("out", NETOUTPUT);
  GE_EXPECT_OK(out->AddInputDesc(y_desc));
  NodePtr nx = *g->AddNode(x);
  NodePtr nw = *g->AddNode(w);
  NodePtr nb = *g->AddNode(b);
  NodePtr nc = *g->AddNode(conv);
  NodePtr no = *g->AddNode(out);
  GE_EXPECT_OK(nx->GetOutDataAnchor(0)->LinkTo(nc->GetInDataAnchor(0)));
  GE_EXPECT_OK(nw->GetOutDataAnchor(0)->LinkTo(nc->GetInDataAnchor(1)));
  GE_EXPECT_OK(nb->GetOutDataAnchor(0)->LinkTo(nc->GetInDataAnchor(2)));
  GE_EXPECT_OK(nc->GetOutDataAnchor(0)->LinkTo(no->GetInDataAnchor(0)));
  GE_EXPECT_OK(nx->GetOutControlAnchor()->LinkTo(nw->GetInControlAnchor()));
  GE_EXPECT_OK(g->AddOutputNodeByIndex(nc, 0));
  return g;
}

TEST(GraphTextTest, PrintsReadableLines) {
  const std::string text = PrintGraphText(*ConvGraph());
  const std::string w_bytes(4 * 27 * 4, '\1');
  EXPECT_EQ(
      text,
      absl::StrCat(
          "graph main {\n"
          "  %x = Data(_) {index = 0} : (float[1,3,8,8] NCHW) -> (float[1,3,8,8] NCHW)\n"
          "  %w = Const(^%x) {value = tensor(float[4,3,3,3] NCHW, b64\"",
          absl::Base64Escape(w_bytes),
          "\")} : () -> (float[4,3,3,3] NCHW)\n"
          "  %b = Const() {value = tensor(float[4], [0.5, -1.0, 0.0, 3.25])} : () -> (float[4])\n"
          "  %conv1 = Conv2D(%x:0, %w:0, %b:0) {data_format = \"NCHW\", groups = 1, pads = [0, 0, "
          "0, 0], "
          "strides = [1, 1]} : (x: float[1,3,8,8] NCHW, filter: float[4,3,3,3] NCHW, bias?: "
          "float[4]) -> "
          "(y: float[1,4,6,6] NCHW)\n"
          "  %out = NetOutput(%conv1:0) : (float[1,4,6,6] NCHW) -> ()\n"
          "  outputs(%conv1:0)\n"
          "}\n"));
  ExpectRoundTrip(*ConvGraph());
}

TEST(GraphTextTest, ParsesHandWrittenText) {
  const char* kText = R"(
# A comment.
graph main {
  %x = Data() <id = 0> {index = 0} : (float[1,3,8,8] NCHW) -> (float[1,3,8,8] NCHW)
  %w = Const() {value = tensor(float[2], [0.5, 1])} : () -> (float[2])
  %y = Add(%x:0, %w:0, ^%x) : (float[1,3,8,8] NCHW, float[2]) -> (float[1,3,8,8] NCHW)
  %out = NetOutput(%y:0) : (float[1,3,8,8] NCHW) -> ()
  outputs(%y:0)
}
)";
  StatusOr<ComputeGraphPtr> g = ParseGraphText(kText);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ((*g)->GetDirectNodesSize(), 4u);
  NodePtr y = (*g)->FindNode("y");
  ASSERT_NE(y, nullptr);
  EXPECT_EQ(y->GetInDataNodes()[0]->GetName(), "x");
  EXPECT_EQ(y->GetInControlNodes()[0]->GetName(), "x");
  const GeTensor* t = (*g)->FindNode("w")->GetOpDesc()->GetAttr("value")->Get<GeTensor>();
  ASSERT_NE(t, nullptr);
  ASSERT_EQ(t->GetDataSize(), 8u);
  EXPECT_EQ(reinterpret_cast<const float*>(t->GetData().data())[1], 1.0f);
  EXPECT_EQ((*g)->GetInputNodes().size(), 1u);
  ExpectRoundTrip(**g);
}

TEST(GraphTextTest, ForwardReferencesAndConsumerOrders) {
  // c feeds a which is listed first; b's consumers are linked in reverse.
  testing::GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "Relu", 1, 1);
  NodePtr src = b.AddNode("src", "Relu", 0, 1);
  NodePtr c1 = b.AddNode("c1", "Relu", 1, 1);
  NodePtr c2 = b.AddNode("c2", "Relu", 1, 1);
  b.AddDataEdge(src, 0, a, 0);
  b.AddDataEdge(a, 0, c2, 0);
  b.AddDataEdge(a, 0, c1, 0);
  b.AddControlEdge(c2, c1);
  b.AddControlEdge(src, c1);
  b.AddControlEdge(src, c2);
  GE_EXPECT_OK(src->GetOutDataAnchor(0)->LinkTo(c2->GetInControlAnchor()));
  const std::string text = PrintGraphText(*b.graph());
  EXPECT_TRUE(absl::StrContains(text, "order(0 = [%c2:0, %c1:0"));
  ExpectRoundTrip(*b.graph());
}

TEST(GraphTextTest, EveryAttrTypeRoundTrips) {
  std::mt19937_64 rng(7);
  auto g = std::make_shared<ComputeGraph>("attrs");
  auto op = OpDesc::Create("n", "Custom");
  for (const auto& [name, value] : testing::AllAttrTypes(rng, 2)) {
    GE_EXPECT_OK(op->SetAttr(name, value));
    GE_EXPECT_OK(g->SetAttr(name, value));
  }
  GE_EXPECT_OK(op->SetAttr("list_list_empty",
                           AttrValue::CreateFrom<std::vector<std::vector<int64_t>>>({{}, {}})));
  GE_EXPECT_OK(op->SetAttr("f_nan", AttrValue::CreateFrom<float>(std::nanf("1"))));
  GE_EXPECT_OK(op->SetAttr("f_neg_zero", AttrValue::CreateFrom<float>(-0.0f)));
  GE_EXPECT_OK(op->SetAttr("null_graph", AttrValue::CreateFrom<ComputeGraphPtr>(nullptr)));
  GE_EXPECT_OK(
      op->SetAttr("weird name\n", AttrValue::CreateFrom<std::string>(std::string("\0\xff\"", 3))));
  ASSERT_TRUE(g->AddNode(op).ok());
  ExpectRoundTrip(*g);
}

TEST(GraphTextTest, RandomGraphsRoundTrip) {
  for (uint64_t seed = 0; seed < 300; ++seed) {
    SCOPED_TRACE(seed);
    testing::RandomGraphOptions options;
    options.num_nodes = 4 + static_cast<int>(seed % 30);
    options.attr_graph_depth = seed % 3 == 0 ? 1 : 0;
    ExpectRoundTrip(*testing::RandomGraph(seed, options));
    if (HasFatalFailure()) return;
  }
}

TEST(GraphTextTest, ControlFlowSubgraphsRoundTrip) {
  const char* kText = R"(graph main {
  %c = Data() : (bool[]) -> (bool[])
  %x = Data() {index = 1} : (float[2]) -> (float[2])
  %if = If(%c:0, %x:0) <subgraphs = ["then_branch": "then", "else_branch": "else"]> : (bool[], float[2]) -> (float[2])
  %out = NetOutput(%if:0) : (float[2]) -> ()
}

subgraph then parent %if in main {
  %d = Data() {_parent_node_index = 1} : (float[2]) -> (float[2])
  %r = Relu(%d:0) : (float[2]) -> (float[2])
  %o = NetOutput(%r:0) : (float[2]) -> ()
  outputs(%r:0)
}

subgraph else parent %if in main {
  %d = Data() {_parent_node_index = 1} : (float[2]) -> (float[2])
  %o = NetOutput(%d:0) : (float[2]) -> ()
}
)";
  StatusOr<ComputeGraphPtr> g = ParseGraphText(kText);
  ASSERT_TRUE(g.ok()) << g.status();
  ASSERT_EQ((*g)->GetAllSubgraphs().size(), 2u);
  ComputeGraphPtr then = (*g)->GetSubgraph("then");
  ASSERT_NE(then, nullptr);
  EXPECT_EQ(then->GetParentNode()->GetName(), "if");
  EXPECT_EQ(then->GetParentGraph(), *g);
  EXPECT_EQ((*g)->GetAllNodesSize(), 9u);
  EXPECT_EQ(PrintGraphText(**g), kText);
  ExpectRoundTrip(**g);
}

struct BadCase {
  const char* what;
  const char* text;
  const char* message;
};

TEST(GraphTextTest, MalformedInputsNameLineAndColumn) {
  std::vector<BadCase> cases = {
      {"unknown node", "graph g {\n  %a = Relu(%b:0) : (float[1]) -> (float[1])\n}",
       "line 2, column 13: unknown node %b in graph 'g'"},
      {"duplicate name",
       "graph g {\n  %a = C() : () -> (float[1])\n  %a = C() : () -> (float[1])\n}",
       "line 3, column 3: duplicate node name %a"},
      {"bad dtype", "graph g {\n  %a = C() : () -> (flaot[1])\n}",
       "line 2, column 21: unknown data type 'flaot'"},
      {"unterminated string", "graph g {\n  %a = C() {s = \"abc} : () -> ()\n}",
       "line 2, column 17: unterminated string"},
      {"cycle",
       "graph g {\n  %a = C(%b:0) : (float[1]) -> (float[1])\n  %b = C(%a:0) : (float[1]) -> "
       "(float[1])\n}",
       "has a cycle: "},
      {"wrong attr literal", "graph g {\n  %a = C() {k = [1, \"x\"]} : () -> ()\n}",
       "line 2, column 21: expected an element of list_int, got string \"x\""},
      {"missing paren", "graph g {\n  %a = C(%b:0 : () -> ()\n}",
       "line 2, column 15: expected ','"},
      {"bad output index",
       "graph g {\n  %b = C() : () -> (float[1])\n  %a = C(%b:3) : (float[1]) -> ()\n}",
       "line 3, column 10: node %b has no output 3"},
      {"empty untyped list", "graph g {\n  %a = C() {k = []} : () -> ()\n}",
       "line 2, column 17: an empty list needs its type"},
      {"bad escape", "graph g {\n  %a = C() {k = \"\\q\"} : () -> ()\n}",
       "line 2, column 18: unknown escape \\q"},
      {"unknown format", "graph g {\n  %a = C() : () -> (float[1] NCWH)\n}",
       "line 2, column 30: unknown format 'NCWH'"},
      {"trailing tokens", "graph g {\n}\n}", "line 3, column 1: expected end of input"},
      {"unknown property", "graph g {\n  %a = C() <colour = 1> : () -> ()\n}",
       "line 2, column 13: unknown property 'colour'"},
      {"bad tensor values", "graph g {\n  %a = C() {v = tensor(float[3], [1.0])} : () -> ()\n}",
       "line 2, column 34: tensor of shape [3] has 1 values"},
      {"int out of range", "graph g {\n  %a = C() {v = 99999999999999999999} : () -> ()\n}",
       "line 2, column 17: integer out of range"},
      {"unknown parent", "graph g {\n}\nsubgraph s parent %p in g {\n}",
       "line 3, column 19: unknown node %p"},
      {"empty", "", "line 1, column 1: expected 'graph'"},
  };
  std::string deep = "graph g {\n  %a = C() {v = ";
  for (int i = 0; i < 100; ++i) deep += "named(\"n\", {v = ";
  cases.push_back({"deep nesting", deep.c_str(), "nesting deeper than 64"});
  for (const BadCase& c : cases) {
    StatusOr<ComputeGraphPtr> g = ParseGraphText(c.text);
    ASSERT_FALSE(g.ok()) << c.what;
    EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kParseFailed) << c.what << ": " << g.status();
    EXPECT_TRUE(absl::StrContains(g.status().message(), c.message))
        << c.what << ": " << g.status().message();
  }
}

}  // namespace
}  // namespace ge
