// compiler/passes/constant_fuse_same_pass_test.cc
#include "compiler/passes/constant_fuse_same_pass.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "compiler/passes/infer_shape_pass.h"
#include "compiler/passes/pass_framework/pass_manager.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "compiler/passes/testing/pass_test_util.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/op_types.h"
#include "graph/inc/graph/utils/node_utils.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using passtest::CountType;
using passtest::SameResults;
using passtest::Snapshot;
using reftest::F32;
using reftest::I64;
using reftest::Inputs;
using reftest::TestGraph;
using ::testing::ElementsAre;
using testing::NodeNames;

StatusOr<bool> RunFuse(const ComputeGraphPtr& graph) {
  PassManager pm("fuse");
  pm.AddPass<ConstantFuseSamePass>();
  return pm.Run(graph);
}

gert::HostTensor I32(std::initializer_list<int64_t> shape, std::vector<int32_t> values) {
  auto t = gert::HostTensor::Create(DT_INT32, gert::Shape(shape));
  EXPECT_TRUE(t.ok()) << t.status();
  std::memcpy(t->MutableData<int32_t>(), values.data(), values.size() * sizeof(int32_t));
  return std::move(t).value();
}

TEST(ConstantFuseSamePassTest, MergesEqualConstants) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr c1 = g.Const("c1", F32({3}, {1, 2, 3}));
  NodePtr c2 = g.Const("c2", F32({3}, {1, 2, 3}));
  NodePtr c3 = g.Const("c3", F32({3}, {1, 2, 3}));
  NodePtr other = g.Const("other", F32({3}, {1, 2, 4}));
  NodePtr add = g.Op("add", "Add", {x, c1});
  NodePtr mul = g.Op("mul", "Mul", {x, c2});
  NodePtr sub = g.Op("sub", "Sub", {c3, other});
  g.NetOutput({add, mul, sub, c2});
  const auto inputs = Inputs(F32({3}, {10, 20, 30}));
  ComputeGraphPtr before = Snapshot(g.graph());
  auto changed = RunFuse(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_EQ(CountType(*g.graph(), CONSTANT), 2u);
  EXPECT_FALSE(g.graph()->HasNode(c2));
  EXPECT_FALSE(g.graph()->HasNode(c3));
  EXPECT_EQ(c1->GetOutDataNodesSize(), 4u);  // add, mul, sub, output
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));

  changed = RunFuse(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
}

// Big constants that agree in the bytes a sampled key looks at (start,
// middle, end) but differ elsewhere stay apart; equal ones merge.
TEST(ConstantFuseSamePassTest, BigConstantsDifferingOutsideTheSamplesStaySeparate) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  std::vector<float> v(4096, 0.5f);
  std::vector<float> w = v;
  w[300] = 7.0f;  // byte 1200: outside the 64-byte samples at 0, 8192, 16320
  NodePtr a = g.Const("a", F32({4096}, v));
  NodePtr b = g.Const("b", F32({4096}, w));
  NodePtr c = g.Const("c", F32({4096}, v));
  NodePtr add = g.Op("add", "Add", {x, a});
  NodePtr mul = g.Op("mul", "Mul", {add, b});
  NodePtr sub = g.Op("sub", "Sub", {mul, c});
  g.NetOutput({sub});
  auto changed = RunFuse(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_TRUE(g.graph()->HasNode(a));
  EXPECT_TRUE(g.graph()->HasNode(b));
  EXPECT_FALSE(g.graph()->HasNode(c));  // merged into a
  EXPECT_EQ(CountType(*g.graph(), CONSTANT), 2u);
}

TEST(ConstantFuseSamePassTest, EqualBytesOfAnotherTypeOrShapeStaySeparate) {
  TestGraph g("g");
  // 0.0f and int32 0 have the same bytes; [2] and [1,2] the same elements.
  NodePtr f = g.Const("f", F32({1}, {0}));
  NodePtr i = g.Const("i", I32({1}, {0}));
  NodePtr flat = g.Const("flat", I64({2}, {1, 2}));
  NodePtr row = g.Const("row", I64({1, 2}, {1, 2}));
  g.NetOutput({f, i, flat, row});
  const auto inputs = Inputs();
  ComputeGraphPtr before = Snapshot(g.graph());
  auto changed = RunFuse(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_FALSE(*changed);
  EXPECT_EQ(CountType(*g.graph(), CONSTANT), 4u);
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

TEST(ConstantFuseSamePassTest, ControlEdgesAndAttributes) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  NodePtr first = g.Const("first", F32({1}, {5}));
  NodePtr gated = g.Const("gated", F32({1}, {5}));        // has a control predecessor
  NodePtr labelled = g.Const("labelled", F32({1}, {5}));  // differs in an attribute
  NodePtr dup = g.Const("dup", F32({1}, {5}));            // has a control successor
  NodePtr relu = g.Op("relu", "Relu", {x});
  g.Control(relu, gated);
  GE_ASSERT_OK(
      labelled->GetOpDesc()->SetAttr("_stream_label", AttrValue::CreateFrom<std::string>("s1")));
  NodePtr neg = g.Op("neg", "Neg", {x});
  g.Control(dup, neg);
  g.NetOutput({g.Op("a", "Add", {relu, first}), g.Op("b", "Add", {relu, gated}),
               g.Op("c", "Add", {neg, labelled}), g.Op("d", "Add", {neg, dup})});
  const auto inputs = Inputs(F32({1}, {-2}));
  ComputeGraphPtr before = Snapshot(g.graph());
  auto changed = RunFuse(g.graph());
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_TRUE(g.graph()->HasNode(gated));
  EXPECT_TRUE(g.graph()->HasNode(labelled));
  EXPECT_FALSE(g.graph()->HasNode(dup));
  EXPECT_TRUE(first->GetOutControlAnchor()->IsLinkedWith(neg->GetInControlAnchor()));
  EXPECT_TRUE(SameResults(*before, *g.graph(), inputs));
}

TEST(ConstantFuseSamePassTest, WorksPerGraphInsideSubgraphs) {
  testing::GraphBuilder root("root");
  auto mk_const = [](testing::GraphBuilder& b, const std::string& name) {
    NodePtr c = b.AddNode(name, CONSTANT, 0, 1);
    GeTensor t(GeTensorDesc(GeShape({1}), FORMAT_ND, DT_FLOAT),
               std::vector<uint8_t>{0, 0, 128, 63});
    testing::CheckOk(c->GetOpDesc()->SetAttr("value", AttrValue::CreateFrom<GeTensor>(t)), "value");
    return c;
  };
  NodePtr r1 = mk_const(root, "r1");
  auto op = testing::MakeOp("call", PARTITIONEDCALL, 1, 1);
  GE_ASSERT_OK(op->AddSubgraphName("f"));
  auto call = root.graph()->AddNode(op);
  GE_ASSERT_OK(call);
  root.AddDataEdge(r1, 0, *call, 0);
  NodePtr out = root.AddNode("out", NETOUTPUT, 1, 0);
  root.AddDataEdge(*call, 0, out, 0);
  auto sub = std::make_shared<ComputeGraph>("f");
  GE_ASSERT_OK(NodeUtils::SetSubgraph(**call, 0, sub));
  testing::GraphBuilder inner(sub);
  NodePtr s1 = mk_const(inner, "s1");
  NodePtr s2 = mk_const(inner, "s2");
  NodePtr add = inner.AddNode("add", "Add", 2, 1);
  NodePtr sub_out = inner.AddNode("sub_out", NETOUTPUT, 1, 0);
  inner.AddDataEdge(s1, 0, add, 0);
  inner.AddDataEdge(s2, 0, add, 1);
  inner.AddDataEdge(add, 0, sub_out, 0);
  auto changed = RunFuse(root.graph());
  GE_ASSERT_OK(changed);
  EXPECT_TRUE(*changed);
  EXPECT_THAT(NodeNames(*sub), ElementsAre("s1", "add", "sub_out"));
  EXPECT_TRUE(root.graph()->HasNode(r1));  // not merged across graphs
  EXPECT_EQ(s1->GetOutDataNodesSize(), 2u);
}

// After an inference walk recorded the Const nodes (TopoOrderCache scope),
// only they are visited; the merges are the same as from a full walk.
TEST(ConstantFuseSamePassTest, VisitsTheRecordedConstNodes) {
  auto build = [](TestGraph* g) {
    NodePtr x = g->TypedData("x", 0, {3});
    NodePtr c1 = g->Const("c1", F32({3}, {1, 2, 3}));
    NodePtr c2 = g->Const("c2", F32({3}, {1, 2, 3}));
    NodePtr other = g->Const("other", F32({3}, {1, 2, 4}));
    NodePtr add = g->Op("add", "Add", {x, c1});
    NodePtr mul = g->Op("mul", "Mul", {add, c2});
    g->NetOutput({g->Op("sub", "Sub", {mul, other})});
    EXPECT_TRUE(g->graph()->TopologicalSorting().ok());
  };
  TestGraph plain("plain");
  build(&plain);
  auto plain_changed = ConstantFuseSamePass().Run(plain.graph());
  GE_ASSERT_OK(plain_changed.status());
  EXPECT_TRUE(*plain_changed);

  TestGraph g("g");
  build(&g);
  TopoOrderCache cache;
  TopoOrderCache::Scope scope(&cache);
  InferShapePass infer;
  GE_ASSERT_OK(infer.Run(g.graph()).status());
  ASSERT_NE(cache.FindConstUses(*g.graph()), nullptr);
  EXPECT_EQ(cache.FindConstUses(*g.graph())->consts.size(), 3u);
  auto changed = ConstantFuseSamePass().Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(g.graph()->FindNode("c2"), nullptr);  // merged into c1
  EXPECT_NE(g.graph()->FindNode("c1"), nullptr);
  EXPECT_NE(g.graph()->FindNode("other"), nullptr);
  EXPECT_EQ(NodeNames(*g.graph()), NodeNames(*plain.graph()));
  EXPECT_EQ(g.graph()->FindNode("mul")->GetInDataNodes()[1]->GetName(), "c1");
}

}  // namespace
}  // namespace ge
