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
#include "gtest/gtest.h"
#include "ops/common/gemm.h"
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
    ops::GemmF32(false, false, kM, kN, kK, 1.0f, a.data(), kK, b.data(), kN, 0.0f, portable.data(),
                 kN);
  }
  ops::GemmF32(false, false, kM, kN, kK, 1.0f, a.data(), kK, b.data(), kN, 0.0f, fast.data(), kN);
  EXPECT_EQ(ToF32((*folded)[0]), portable);
  if (ops::GemmUsesFma()) {
    EXPECT_NE(portable, fast) << "the check would not see fast folding";
  }
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
