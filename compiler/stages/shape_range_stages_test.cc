// compiler/stages/shape_range_stages_test.cc
//
// Shape ranges through GraphPrepare: a Data input [-1, 3] with
// range [(1, 8), (3, 3)] feeds Relu -> MatMul -> Concat -> If, and every
// downstream desc carries the derived range: producer output -> consumer
// input, parent input -> subgraph Data, branch NetOutput -> If output
// (the union of the branches' ranges), and the root NetOutput. The graph is
// then optimised and still runs in the reference interpreter.
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "compiler/passes/infer_shape_pass.h"
#include "compiler/stages/compiler_stages.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_interpreter.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using reftest::Bool;
using reftest::F32;
using reftest::F32Fill;
using reftest::Inputs;
using reftest::TestGraph;
using ::testing::ElementsAre;
using ::testing::Pair;

using Range = GeTensorDesc::ShapeRange;

NodePtr RangedData(TestGraph& g, const std::string& name, int64_t index,
                   const std::vector<int64_t>& dims, const Range& range, DataType dt = DT_FLOAT) {
  NodePtr d = g.Data(name, index);
  GeTensorDesc desc(GeShape(dims), FORMAT_ND, dt);
  EXPECT_TRUE(desc.SetShapeRange(range).ok());
  EXPECT_TRUE(d->GetOpDescBarePtr()->UpdateInputDesc(0, desc).ok());
  EXPECT_TRUE(d->GetOpDescBarePtr()->UpdateOutputDesc(0, desc).ok());
  return d;
}

const GeTensorDesc& Out(const NodePtr& n, uint32_t i = 0) {
  return *n->GetOpDescBarePtr()->GetOutputDescBarePtr(i);
}
const GeTensorDesc& In(const NodePtr& n, uint32_t i = 0) {
  return *n->GetOpDescBarePtr()->GetInputDescBarePtr(i);
}

struct RangeGraph {
  TestGraph root{"root"};
  NodePtr cond, x, relu, mm, cat, if_node, output;
  std::unique_ptr<TestGraph> then_g, else_g;
  NodePtr tx, neg, then_out, ex, ecat, else_out;
};

// root: x[-1,3] (1..8) -> Relu -> MatMul(w[3,4]) -> Concat(mm, mm, axis 0)
//       -> If(cond): then Neg(tx); else Concat(ex, ex, axis 0) -> output.
void Build(RangeGraph* g) {
  g->cond = RangedData(g->root, "cond", 0, {}, {}, DT_BOOL);
  g->x = RangedData(g->root, "x", 1, {-1, 3}, {{1, 8}, {3, 3}});
  g->relu = g->root.Op("relu", "Relu", {g->x});
  NodePtr w = g->root.Const("w", F32Fill({3, 4}, 0.5f));
  g->mm = g->root.Op("mm", "MatMul", {g->relu, w});
  g->cat = g->root.Op("cat", "Concat", {g->mm, g->mm},
                      {{"axis", AttrValue::CreateFrom<int64_t>(0)}}, {{"inputs", 2}});
  g->if_node = g->root.Op("if", "If", {g->cond, g->cat}, {}, {{"input", 1}, {"output", 1}});
  g->output = g->root.NetOutput({g->if_node});
  g->then_g = std::make_unique<TestGraph>("then", g->if_node, 0);
  g->tx = g->then_g->Data("tx", -1, 1);
  g->neg = g->then_g->Op("neg", "Neg", {g->tx});
  g->then_out = g->then_g->NetOutput({g->neg});
  g->else_g = std::make_unique<TestGraph>("else", g->if_node, 1);
  g->ex = g->else_g->Data("ex", -1, 1);
  g->ecat = g->else_g->Op("ecat", "Concat", {g->ex, g->ex},
                          {{"axis", AttrValue::CreateFrom<int64_t>(0)}}, {{"inputs", 2}});
  g->else_out = g->else_g->NetOutput({g->ecat});
}

TEST(ShapeRangeStagesTest, RangesFlowThroughPrepare) {
  RangeGraph g;
  Build(&g);
  CompileOptions opts;
  GE_ASSERT_OK(GraphPrepare().Prepare(g.root.graph(), opts));

  const Range x_range = {{1, 8}, {3, 3}};
  EXPECT_EQ(Out(g.x).GetShapeRange(), x_range);
  EXPECT_EQ(In(g.relu).GetShape(), GeShape({-1, 3}));
  EXPECT_EQ(In(g.relu).GetShapeRange(), x_range);
  EXPECT_EQ(Out(g.relu).GetShapeRange(), x_range);
  EXPECT_EQ(In(g.mm, 0).GetShapeRange(), x_range);
  EXPECT_EQ(Out(g.mm).GetShape(), GeShape({-1, 4}));
  EXPECT_THAT(Out(g.mm).GetShapeRange(), ElementsAre(Pair(1, 8), Pair(4, 4)));
  EXPECT_THAT(In(g.cat, 0).GetShapeRange(), ElementsAre(Pair(1, 8), Pair(4, 4)));
  EXPECT_THAT(In(g.cat, 1).GetShapeRange(), ElementsAre(Pair(1, 8), Pair(4, 4)));
  EXPECT_EQ(Out(g.cat).GetShape(), GeShape({-1, 4}));
  EXPECT_THAT(Out(g.cat).GetShapeRange(), ElementsAre(Pair(2, 16), Pair(4, 4)));
  EXPECT_THAT(In(g.if_node, 1).GetShapeRange(), ElementsAre(Pair(2, 16), Pair(4, 4)));

  // Parent input -> branch Data nodes.
  for (const NodePtr& d : {g.tx, g.ex}) {
    SCOPED_TRACE(d->GetName());
    EXPECT_EQ(Out(d).GetShape(), GeShape({-1, 4}));
    EXPECT_THAT(Out(d).GetShapeRange(), ElementsAre(Pair(2, 16), Pair(4, 4)));
  }
  EXPECT_THAT(In(g.neg).GetShapeRange(), ElementsAre(Pair(2, 16), Pair(4, 4)));
  EXPECT_THAT(Out(g.neg).GetShapeRange(), ElementsAre(Pair(2, 16), Pair(4, 4)));
  EXPECT_THAT(In(g.then_out).GetShapeRange(), ElementsAre(Pair(2, 16), Pair(4, 4)));
  EXPECT_THAT(Out(g.ecat).GetShapeRange(), ElementsAre(Pair(4, 32), Pair(4, 4)));
  EXPECT_THAT(In(g.else_out).GetShapeRange(), ElementsAre(Pair(4, 32), Pair(4, 4)));

  // If output: the union of the branches; then the root NetOutput.
  EXPECT_EQ(Out(g.if_node).GetShape(), GeShape({-1, 4}));
  EXPECT_THAT(Out(g.if_node).GetShapeRange(), ElementsAre(Pair(2, 32), Pair(4, 4)));
  EXPECT_EQ(In(g.output).GetShape(), GeShape({-1, 4}));
  EXPECT_THAT(In(g.output).GetShapeRange(), ElementsAre(Pair(2, 32), Pair(4, 4)));
}

TEST(ShapeRangeStagesTest, RangesSurviveTheWholeCompileAndTheGraphRuns) {
  RangeGraph g;
  Build(&g);
  CompilerStages stages;
  auto r = stages.Compile(g.root.graph(), CompileOptions());
  GE_ASSERT_OK(r.status());
  EXPECT_THAT(In(g.output).GetShapeRange(), ElementsAre(Pair(2, 32), Pair(4, 4)));
  EXPECT_THAT(Out(g.mm).GetShapeRange(), ElementsAre(Pair(1, 8), Pair(4, 4)));
  // A second inference changes nothing (ranges are part of the fixed point).
  InferShapePass pass;
  auto again = pass.Run(g.root.graph());
  GE_ASSERT_OK(again.status());
  EXPECT_FALSE(*again);

  auto run = ReferenceInterpreter::Run(*g.root.graph(),
                                       Inputs(Bool({}, {false}), F32({2, 3}, {1, 1, 1, 2, 2, 2})));
  GE_ASSERT_OK(run.status());
  EXPECT_EQ(reftest::Dims((*run)[0]), std::vector<int64_t>({8, 4}));
}

TEST(ShapeRangeStagesTest, InputShapeOptionWithoutRangeKeepsRangesEmpty) {
  RangeGraph g;
  Build(&g);
  // A static input: the ranges collapse to the known dims or disappear,
  // never contradict the shape.
  CompileOptions opts;
  opts.input_shape = "x:2,3";
  GE_ASSERT_OK(GraphPrepare().Prepare(g.root.graph(), opts));
  EXPECT_EQ(Out(g.cat).GetShape(), GeShape({4, 4}));
  for (const NodePtr& n : {g.relu, g.mm, g.cat, g.if_node}) {
    SCOPED_TRACE(n->GetName());
    const GeTensorDesc& d = Out(n);
    const Range& range = d.GetShapeRange();
    if (range.empty()) continue;
    ASSERT_EQ(range.size(), d.GetShape().GetDimNum());
    for (size_t i = 0; i < range.size(); ++i) {
      const int64_t dim = d.GetShape().GetDim(i);
      if (dim >= 0) {
        EXPECT_LE(range[i].first, dim);
        EXPECT_TRUE(range[i].second == -1 || range[i].second >= dim);
      }
    }
  }
}

TEST(ShapeRangeStagesTest, MergeDescsUnitesRanges) {
  GeTensorDesc a(GeShape({-1, 4}), FORMAT_ND, DT_FLOAT);
  ASSERT_TRUE(a.SetShapeRange({{2, 16}, {4, 4}}).ok());
  GeTensorDesc b(GeShape({-1, 4}), FORMAT_ND, DT_FLOAT);
  ASSERT_TRUE(b.SetShapeRange({{4, 32}, {4, 4}}).ok());
  GeTensorDesc c(GeShape({3, 4}), FORMAT_ND, DT_FLOAT);   // no range: dims count
  GeTensorDesc d(GeShape({-1, 4}), FORMAT_ND, DT_FLOAT);  // no range: -1 is unbounded
  EXPECT_THAT(InferShapePass::MergeDescs(a, b).GetShapeRange(),
              ElementsAre(Pair(2, 32), Pair(4, 4)));
  EXPECT_THAT(InferShapePass::MergeDescs(c, a).GetShapeRange(),
              ElementsAre(Pair(2, 16), Pair(4, 4)));
  EXPECT_EQ(InferShapePass::MergeDescs(c, a).GetShape(), GeShape({-1, 4}));
  EXPECT_THAT(InferShapePass::MergeDescs(a, d).GetShapeRange(),
              ElementsAre(Pair(0, -1), Pair(4, 4)));
  EXPECT_TRUE(InferShapePass::MergeDescs(c, d).GetShapeRange().empty());
  GeTensorDesc e(GeShape({-1}), FORMAT_ND, DT_FLOAT);
  EXPECT_TRUE(InferShapePass::MergeDescs(a, e).GetShape().IsUnknownDimNum());
  EXPECT_TRUE(InferShapePass::MergeDescs(a, e).GetShapeRange().empty());
  // Loop widening: a bound that moves is dropped.
  EXPECT_THAT(InferShapePass::WidenDescs(a, b).GetShapeRange(),
              ElementsAre(Pair(2, -1), Pair(4, 4)));
  EXPECT_THAT(InferShapePass::WidenDescs(a, a).GetShapeRange(),
              ElementsAre(Pair(2, 16), Pair(4, 4)));
}

bool Marked(const NodePtr& n) {
  const AttrValue* v = n->GetOpDescBarePtr()->GetAttr(kAttrIsUnknownShape);
  return v != nullptr && v->Get<bool>() != nullptr && *v->Get<bool>();
}

// In a compile the dynamic-shape marks of a graph without subgraphs are set
// during the inference walk: nodes whose inferred output has an unknown dim
// are marked, a stale mark on a node now static is removed, and the graph
// mark follows; the marks equal those of a separate PrepareDynShape.
TEST(DynShapeStagesTest, MarksAreSetDuringInference) {
  for (bool dynamic : {true, false}) {
    TestGraph g(dynamic ? "dyn" : "static");
    NodePtr x = g.TypedData("x", 0, {dynamic ? -1 : 2, 3});
    NodePtr relu = g.Op("relu", "Relu", {x});
    NodePtr neg = g.Op("neg", "Neg", {relu});
    NodePtr y = g.TypedData("y", 1, {2, 3});
    NodePtr abs = g.Op("abs", "Abs", {y});
    g.NetOutput({neg, abs});
    ASSERT_TRUE(abs->GetOpDescBarePtr()
                    ->SetAttr(kAttrIsUnknownShape, AttrValue::CreateFrom<bool>(true))
                    .ok());
    ASSERT_TRUE(g.graph()->SetAttr(kAttrGraphUnknownShape, AttrValue::CreateFrom<bool>(true)).ok());
    CompilerStages stages;
    std::vector<std::string> stage_names;
    CompileOptions opts;
    opts.observer = [&](absl::string_view st) { stage_names.emplace_back(st); };
    GE_ASSERT_OK(stages.Compile(g.graph(), opts).status());
    EXPECT_EQ(Marked(relu), dynamic);
    EXPECT_EQ(Marked(neg), dynamic);
    EXPECT_EQ(Marked(x), dynamic);
    EXPECT_FALSE(Marked(abs));
    EXPECT_FALSE(abs->GetOpDescBarePtr()->HasAttr(kAttrIsUnknownShape));
    EXPECT_EQ(g.graph()->HasAttr(kAttrGraphUnknownShape), dynamic);
    EXPECT_NE(std::find(stage_names.begin(), stage_names.end(), "PrepareDynShape"),
              stage_names.end());

    // A separate marking pass agrees.
    ASSERT_TRUE(abs->GetOpDescBarePtr()
                    ->SetAttr(kAttrIsUnknownShape, AttrValue::CreateFrom<bool>(true))
                    .ok());
    GE_ASSERT_OK(GraphPrepare::PrepareDynShape(g.graph()));
    EXPECT_EQ(Marked(relu), dynamic);
    EXPECT_FALSE(Marked(abs));
  }
}

}  // namespace
}  // namespace ge
