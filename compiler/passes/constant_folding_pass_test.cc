// compiler/passes/constant_folding_pass_test.cc
//
// ConstantFoldingPass: folded graphs compute the same outputs in the
// reference interpreter and lose the folded nodes; caps, denylists, control
// edges and Shape / Size folding from descs.
#include "compiler/passes/constant_folding_pass.h"

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/passes/infer_shape_pass.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "graph/src/testing/status_matchers.h"
#include "ops/common/gemm.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_interpreter.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using reftest::F32;
using reftest::I64;
using reftest::Inputs;
using reftest::TestGraph;
using reftest::ToF32;
using reftest::ToI64;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

int CountType(const ComputeGraph& g, const std::string& type) {
  int n = 0;
  for (Node* node : g.GetDirectNodePtr()) n += node->GetType() == type ? 1 : 0;
  return n;
}

TEST(ConstantFoldingPassTest, FoldsConstChainAndKeepsOutputs) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {2});
  NodePtr a = g.Const("a", F32({2}, {1, 2}));
  NodePtr b = g.Const("b", F32({2}, {10, 20}));
  NodePtr c = g.Const("c", F32({2}, {2, 3}));
  NodePtr add = g.Op("add", "Add", {a, b});
  NodePtr mul = g.Op("mul", "Mul", {add, c});
  NodePtr out = g.Op("out", "Add", {mul, x});
  g.NetOutput({out});
  auto before = ReferenceInterpreter::Run(*g.graph(), Inputs(F32({2}, {0.5f, 1})));
  GE_ASSERT_OK(before.status());

  ConstantFoldingPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(pass.folded_count(), 2);
  EXPECT_EQ(g.graph()->FindNode("add"), nullptr);
  EXPECT_EQ(g.graph()->FindNode("mul"), nullptr);
  EXPECT_NE(g.graph()->FindNode("out"), nullptr);
  // a, b, c were orphaned and removed; only the folded Const remains.
  EXPECT_EQ(CountType(*g.graph(), CONSTANT), 1);
  EXPECT_EQ(g.graph()->GetDirectNodesSize(), 4u);  // x, const, out, NetOutput

  auto after = ReferenceInterpreter::Run(*g.graph(), Inputs(F32({2}, {0.5f, 1})));
  GE_ASSERT_OK(after.status());
  EXPECT_EQ(ToF32((*after)[0]), ToF32((*before)[0]));
  EXPECT_THAT(ToF32((*after)[0]), ElementsAre(22.5f, 67.0f));

  // A second run finds nothing.
  auto again = pass.Run(g.graph());
  GE_ASSERT_OK(again.status());
  EXPECT_FALSE(*again);
}

TEST(ConstantFoldingPassTest, NodesWithNonConstInputsStay) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {2});
  NodePtr a = g.Const("a", F32({2}, {1, 2}));
  NodePtr add = g.Op("add", "Add", {x, a});
  g.NetOutput({add});
  ConstantFoldingPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_FALSE(*changed);
  EXPECT_EQ(g.graph()->GetDirectNodesSize(), 4u);
}

TEST(ConstantFoldingPassTest, SizeCapKeepsLargeOutputs) {
  TestGraph g("g");
  NodePtr a = g.Const("a", F32({2}, {1, 2}));
  NodePtr b = g.Const("b", F32({2}, {3, 4}));
  NodePtr add = g.Op("add", "Add", {a, b});
  g.NetOutput({add});
  ConstantFoldingPass pass(/*max_output_bytes=*/4);
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_FALSE(*changed);
  EXPECT_EQ(pass.skipped_too_large(), 1);
  EXPECT_NE(g.graph()->FindNode("add"), nullptr);

  pass.set_max_output_bytes(8);  // exactly the output size
  changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  auto after = ReferenceInterpreter::Run(*g.graph(), {});
  GE_ASSERT_OK(after.status());
  EXPECT_THAT(ToF32((*after)[0]), ElementsAre(4.0f, 6.0f));
}

TEST(ConstantFoldingPassTest, DenylistedTypesStay) {
  TestGraph g("g");
  NodePtr a = g.Const("a", F32({1}, {1}));
  NodePtr b = g.Const("b", F32({1}, {3}));
  g.NetOutput({g.Op("add", "Add", {a, b})});
  ConstantFoldingPass pass;
  pass.AddToDenylist("Add");
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_FALSE(*changed);
}

TEST(ConstantFoldingPassTest, ControlEdgesMoveToTheConst) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {1});
  NodePtr a = g.Const("a", F32({1}, {1}));
  NodePtr b = g.Const("b", F32({1}, {3}));
  NodePtr add = g.Op("add", "Add", {a, b});
  NodePtr id = g.Op("id", "Identity", {x});
  NodePtr after_node = g.Op("neg", "Neg", {x});
  g.Control(id, add);
  g.Control(add, after_node);
  g.NetOutput({add, after_node});
  ConstantFoldingPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  ASSERT_TRUE(*changed);
  NodePtr c = g.graph()->FindNode("add_const_0");
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(c->GetInControlNodes().size(), 1u);
  EXPECT_EQ(c->GetInControlNodes()[0], id);
  ASSERT_EQ(c->GetOutControlNodes().size(), 1u);
  EXPECT_EQ(c->GetOutControlNodes()[0], after_node);
  auto run = ReferenceInterpreter::Run(*g.graph(), Inputs(F32({1}, {5})));
  GE_ASSERT_OK(run.status());
  EXPECT_THAT(ToF32((*run)[0]), ElementsAre(4.0f));
  EXPECT_THAT(ToF32((*run)[1]), ElementsAre(-5.0f));
}

TEST(ConstantFoldingPassTest, ShapeAndSizeFoldFromStaticDescs) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {3, 4});
  NodePtr dyn = g.TypedData("dyn", 1, {-1, 4});
  NodePtr shape = g.Op("shape", "Shape", {x});
  NodePtr size = g.Op("size", "Size", {x});
  NodePtr dyn_shape = g.Op("dyn_shape", "Shape", {dyn});
  GE_ASSERT_OK(shape->GetOpDescBarePtr()->UpdateInputDesc(0, x->GetOpDescBarePtr()->GetOutputDesc(0)));
  GE_ASSERT_OK(size->GetOpDescBarePtr()->UpdateInputDesc(0, x->GetOpDescBarePtr()->GetOutputDesc(0)));
  GE_ASSERT_OK(
      dyn_shape->GetOpDescBarePtr()->UpdateInputDesc(0, dyn->GetOpDescBarePtr()->GetOutputDesc(0)));
  g.NetOutput({shape, size, dyn_shape});
  auto inputs = [] { return Inputs(F32({3, 4}, std::vector<float>(12, 1.0f)),
                                   F32({2, 4}, std::vector<float>(8, 1.0f))); };
  auto before = ReferenceInterpreter::Run(*g.graph(), inputs());
  GE_ASSERT_OK(before.status());

  ConstantFoldingPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(g.graph()->FindNode("shape"), nullptr);
  EXPECT_EQ(g.graph()->FindNode("size"), nullptr);
  EXPECT_NE(g.graph()->FindNode("dyn_shape"), nullptr);  // input shape not static
  auto after = ReferenceInterpreter::Run(*g.graph(), inputs());
  GE_ASSERT_OK(after.status());
  EXPECT_THAT(ToI64((*after)[0]), ElementsAre(3, 4));
  EXPECT_THAT(ToI64((*after)[1]), ElementsAre(12));
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(ToI64((*after)[i]), ToI64((*before)[i]));
}

TEST(ConstantFoldingPassTest, FoldsReshapeAndGatherOfConsts) {
  TestGraph g("g");
  NodePtr data = g.Const("data", I64({4}, {3, 4, 5, 6}));
  NodePtr idx = g.Const("idx", I64({4}, {1, 0, 2, 3}));
  NodePtr gather = g.Op("gather", "Gather", {data, idx});
  NodePtr shape = g.Const("shape", I64({2}, {2, 2}));
  NodePtr reshape = g.Op("reshape", "Reshape", {gather, shape});
  g.NetOutput({reshape});
  ConstantFoldingPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(g.graph()->GetDirectNodesSize(), 2u);  // one Const + NetOutput
  auto after = ReferenceInterpreter::Run(*g.graph(), {});
  GE_ASSERT_OK(after.status());
  EXPECT_THAT(reftest::Dims((*after)[0]), ElementsAre(2, 2));
  EXPECT_THAT(ToI64((*after)[0]), ElementsAre(4, 3, 5, 6));
}

// Folded values go into the OM: a folded MatMul has the portable GEMM's
// bits (no fused multiply-adds), whatever the CPU atc runs on.
TEST(ConstantFoldingPassTest, FoldedMatMulHasThePortableBits) {
  constexpr int64_t kM = 64, kK = 300, kN = 50;
  std::vector<float> a(kM * kK), b(kK * kN);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i * 7919 % 1000) / 997 - 0.5f;
  for (size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i * 104729 % 1000) / 991 - 0.5f;
  TestGraph g("g");
  NodePtr ca = g.Const("a", F32({kM, kK}, a));
  NodePtr cb = g.Const("b", F32({kK, kN}, b));
  NodePtr mm = g.Op("mm", "MatMul", {ca, cb});
  g.NetOutput({mm});
  ConstantFoldingPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  ASSERT_TRUE(*changed);
  auto folded = ReferenceInterpreter::Run(*g.graph(), {});
  GE_ASSERT_OK(folded.status());

  std::vector<float> portable(kM * kN), fast(kM * kN);
  {
    const ops::ScopedGemmMode mode(ops::GemmMode::kPortable);
    ops::GemmF32(false, false, kM, kN, kK, 1.0f, a.data(), kK, b.data(), kN, 0.0f,
                 portable.data(), kN);
  }
  ops::GemmF32(false, false, kM, kN, kK, 1.0f, a.data(), kK, b.data(), kN, 0.0f, fast.data(), kN);
  EXPECT_EQ(ToF32((*folded)[0]), portable);
  if (ops::GemmUsesFma()) {
    EXPECT_NE(portable, fast) << "the check would not see fast folding";
  }
}

TEST(ConstantFoldingPassTest, KernelFailureNamesTheNode) {
  TestGraph g("g");
  NodePtr data = g.Const("data", I64({4}, {3, 4, 5, 6}));
  NodePtr shape = g.Const("shape", I64({2}, {3, 3}));  // 9 != 4 elements
  g.NetOutput({g.Op("bad_reshape", "Reshape", {data, shape})});
  ConstantFoldingPass pass;
  auto changed = pass.Run(g.graph());
  ASSERT_FALSE(changed.ok());
  EXPECT_THAT(std::string(changed.status().message()), HasSubstr("bad_reshape"));
  EXPECT_NE(g.graph()->FindNode("bad_reshape"), nullptr);
}

TEST(ConstantFoldingPassTest, ParsesTheMaxBytesOption) {
  auto ok = ConstantFoldingPass::ParseMaxBytesOption("1024");
  GE_ASSERT_OK(ok.status());
  EXPECT_EQ(*ok, 1024);
  EXPECT_FALSE(ConstantFoldingPass::ParseMaxBytesOption("-1").ok());
  EXPECT_FALSE(ConstantFoldingPass::ParseMaxBytesOption("64MiB").ok());
  EXPECT_FALSE(ConstantFoldingPass::ParseMaxBytesOption("").ok());
  EXPECT_EQ(ConstantFoldingPass().max_output_bytes(), int64_t{64} << 20);
}

TEST(ConstantFoldingPassTest, NullGraphIsAnError) {
  ConstantFoldingPass pass;
  EXPECT_FALSE(pass.Run(nullptr).ok());
}

// Inside a TopoOrderCache scope, after an inference walk recorded the Const
// nodes and the nodes fed only by them, folding tries just those nodes and,
// once one folds, walks the whole graph: a chain folds completely in one
// run, exactly as without the record.
TEST(ConstantFoldingPassTest, FoldsChainsFromTheRecordedConstUses) {
  auto build = [](TestGraph* g) {
    NodePtr x = g->TypedData("x", 0, {2});
    NodePtr a = g->Const("a", F32({2}, {1, 2}));
    NodePtr b = g->Const("b", F32({2}, {10, 20}));
    NodePtr c = g->Const("c", F32({2}, {2, 3}));
    NodePtr add = g->Op("add", "Add", {a, b});
    NodePtr mul = g->Op("mul", "Mul", {add, c});
    NodePtr neg = g->Op("neg", "Neg", {mul});
    NodePtr keep = g->Op("keep", "Mul", {x, c});  // fed by a Const and a Data
    g->NetOutput({g->Op("out", "Add", {neg, keep})});
  };
  TestGraph plain("plain");
  build(&plain);
  ConstantFoldingPass plain_pass;
  GE_ASSERT_OK(plain_pass.Run(plain.graph()).status());

  TestGraph g("g");
  build(&g);
  TopoOrderCache cache;
  TopoOrderCache::Scope scope(&cache);
  ASSERT_TRUE(g.graph()->TopologicalSorting().ok());
  InferShapePass infer;
  GE_ASSERT_OK(infer.Run(g.graph()).status());
  const TopoOrderCache::ConstUses* uses = cache.FindConstUses(*g.graph());
  ASSERT_NE(uses, nullptr);
  std::vector<std::string> consts, fed;
  for (Node* n : uses->consts) consts.push_back(n->GetName());
  for (Node* n : uses->const_fed) fed.push_back(n->GetName());
  EXPECT_THAT(consts, ElementsAre("a", "b", "c"));
  EXPECT_THAT(fed, ElementsAre("add"));  // mul / keep have other producers

  ConstantFoldingPass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(pass.folded_count(), 3);
  EXPECT_EQ(pass.folded_count(), plain_pass.folded_count());
  EXPECT_EQ(g.graph()->FindNode("neg"), nullptr);
  EXPECT_NE(g.graph()->FindNode("keep"), nullptr);
  EXPECT_EQ(g.graph()->GetDirectNodesSize(), plain.graph()->GetDirectNodesSize());
  auto run = ReferenceInterpreter::Run(*g.graph(), Inputs(F32({2}, {1, 1})));
  auto expected = ReferenceInterpreter::Run(*plain.graph(), Inputs(F32({2}, {1, 1})));
  GE_ASSERT_OK(run.status());
  GE_ASSERT_OK(expected.status());
  EXPECT_EQ(ToF32((*run)[0]), ToF32((*expected)[0]));
  // -(1+10)*2 + 2, -(2+20)*3 + 3
  EXPECT_THAT(ToF32((*run)[0]), ElementsAre(-20.0f, -63.0f));
  // The graph was edited: the record is gone with it.
  EXPECT_EQ(cache.FindConstUses(*g.graph()), nullptr);
}

}  // namespace
}  // namespace ge
