// compiler/passes/infer_shape_pass_test.cc
//
// InferShapePass: descs propagate in topological order with Const values
// as const inputs; If outputs merge the branches; Loop bodies iterate to a
// shape fixed point. Graphs still run in the reference interpreter and the
// inferred shapes match the computed ones.
#include "compiler/passes/infer_shape_pass.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/passes/const_value_util.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "graph/src/testing/file_view_testing.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/register/op_registry.h"
#include "runtime/reference/reference_interpreter.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using reftest::Bool;
using reftest::F32;
using reftest::I64;
using reftest::Inputs;
using reftest::TestGraph;
using reftest::ToF32;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

GeShape OutShape(const NodePtr& n, uint32_t i = 0) {
  return n->GetOpDescBarePtr()->GetOutputDesc(i).GetShape();
}

TEST(InferShapePassTest, PropagatesDescsAndUsesConstValues) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {2, 3});
  NodePtr b = g.Const("b", F32({3}, {1, 2, 3}));
  NodePtr add = g.Op("add", "Add", {x, b});
  NodePtr shape = g.Const("shape", I64({2}, {3, 2}));
  NodePtr reshape = g.Op("reshape", "Reshape", {add, shape});
  NodePtr out = g.NetOutput({reshape});
  InferShapePass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(OutShape(b), GeShape({3}));
  EXPECT_EQ(OutShape(add), GeShape({2, 3}));
  EXPECT_EQ(add->GetOpDescBarePtr()->GetInputDesc(1).GetShape(), GeShape({3}));
  EXPECT_EQ(OutShape(reshape), GeShape({3, 2}));
  EXPECT_EQ(OutShape(reshape).GetDimNum(), 2u);
  EXPECT_EQ(out->GetOpDescBarePtr()->GetInputDesc(0).GetShape(), GeShape({3, 2}));
  EXPECT_EQ(out->GetOpDescBarePtr()->GetInputDesc(0).GetDataType(), DT_FLOAT);

  auto again = pass.Run(g.graph());
  GE_ASSERT_OK(again.status());
  EXPECT_FALSE(*again);

  auto run = ReferenceInterpreter::Run(*g.graph(), Inputs(F32({2, 3}, {0, 0, 0, 1, 1, 1})));
  GE_ASSERT_OK(run.status());
  EXPECT_THAT(reftest::Dims((*run)[0]), ElementsAre(3, 2));
}

// An input in its origin format gets the origin shape / dtype of its inferred
// shape / dtype, like outputs do (no stale placeholder origin left behind):
// it then matches its producer's output desc.
TEST(InferShapePassTest, InputOriginFollowsTheProducer) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {2, 3});
  NodePtr relu1 = g.Op("relu1", "Relu", {x});
  NodePtr relu2 = g.Op("relu2", "Relu", {relu1});
  g.NetOutput({relu2});
  GeTensorDescPtr in = relu2->GetOpDescBarePtr()->MutableInputDesc(0);
  ASSERT_NE(in, nullptr);
  in->SetOriginShape(GeShape({-2}));
  in->SetOriginDataType(DT_UNDEFINED);
  InferShapePass pass;
  GE_ASSERT_OK(pass.Run(g.graph()).status());
  const GeTensorDesc& produced = relu1->GetOpDescBarePtr()->GetOutputDesc(0);
  const GeTensorDesc& consumed = relu2->GetOpDescBarePtr()->GetInputDesc(0);
  EXPECT_EQ(consumed.GetShape(), GeShape({2, 3}));
  EXPECT_EQ(consumed.GetOriginShape(), GeShape({2, 3}));
  EXPECT_EQ(consumed.GetOriginDataType(), DT_FLOAT);
  EXPECT_EQ(consumed.GetOriginShape(), produced.GetOriginShape());
  EXPECT_EQ(consumed.GetOriginDataType(), produced.GetOriginDataType());
  // Nothing left to refresh: a second run changes nothing.
  auto again = pass.Run(g.graph());
  GE_ASSERT_OK(again.status());
  EXPECT_FALSE(*again);
}

TEST(InferShapePassTest, InferErrorsNameTheGraph) {
  TestGraph g("bad_graph");
  NodePtr x = g.TypedData("x", 0, {2, 3});
  NodePtr y = g.TypedData("y", 1, {4});
  g.NetOutput({g.Op("add", "Add", {x, y})});  // not broadcastable
  InferShapePass pass;
  auto r = pass.Run(g.graph());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("bad_graph"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("add"));
}

struct IfGraph {
  TestGraph root{"root"};
  NodePtr x;
  NodePtr cond;
  NodePtr if_node;
};

// then: -x ([2]); else: concat(x, x) ([4]) or -x when `same`.
void BuildIf(IfGraph* g, bool same) {
  g->cond = g->root.TypedData("cond", 0, {}, DT_BOOL);
  g->x = g->root.TypedData("x", 1, {2});
  g->if_node = g->root.Op("if", "If", {g->cond, g->x}, {}, {{"input", 1}, {"output", 1}});
  g->root.NetOutput({g->if_node});
  TestGraph then_g("then", g->if_node, 0);
  then_g.NetOutput({then_g.Op("neg", "Neg", {then_g.Data("tx", -1, 1)})});
  TestGraph else_g("else", g->if_node, 1);
  NodePtr ex = else_g.Data("ex", -1, 1);
  if (same) {
    else_g.NetOutput({else_g.Op("abs", "Abs", {ex})});
  } else {
    else_g.NetOutput({else_g.Op("cat", "Concat", {ex, ex},
                                {{"axis", AttrValue::CreateFrom<int64_t>(0)}}, {{"inputs", 2}})});
  }
}

TEST(InferShapePassTest, IfOutputsAgreeingBranchesAreStatic) {
  IfGraph g;
  BuildIf(&g, /*same=*/true);
  InferShapePass pass;
  GE_ASSERT_OK(pass.Run(g.root.graph()).status());
  EXPECT_EQ(OutShape(g.if_node), GeShape({2}));
  EXPECT_EQ(g.if_node->GetOpDescBarePtr()->GetOutputDesc(0).GetDataType(), DT_FLOAT);
  auto run =
      ReferenceInterpreter::Run(*g.root.graph(), Inputs(Bool({}, {true}), F32({2}, {1, -2})));
  GE_ASSERT_OK(run.status());
  EXPECT_THAT(ToF32((*run)[0]), ElementsAre(-1, 2));
}

TEST(InferShapePassTest, IfOutputsDifferingBranchesGetUnknownDims) {
  IfGraph g;
  BuildIf(&g, /*same=*/false);
  InferShapePass pass;
  GE_ASSERT_OK(pass.Run(g.root.graph()).status());
  EXPECT_EQ(OutShape(g.if_node), GeShape({-1}));
  auto run =
      ReferenceInterpreter::Run(*g.root.graph(), Inputs(Bool({}, {false}), F32({2}, {1, -2})));
  GE_ASSERT_OK(run.status());
  EXPECT_THAT(ToF32((*run)[0]), ElementsAre(1, -2, 1, -2));
}

TEST(InferShapePassTest, BadParentIndexIsAnError) {
  TestGraph root("root");
  NodePtr cond = root.TypedData("cond", 0, {}, DT_BOOL);
  NodePtr x = root.TypedData("x", 1, {2});
  NodePtr if_node = root.Op("if", "If", {cond, x}, {}, {{"input", 1}, {"output", 1}});
  root.NetOutput({if_node});
  TestGraph then_g("then", if_node, 0);
  then_g.NetOutput({then_g.Data("tx", -1, 5)});
  TestGraph else_g("else", if_node, 1);
  else_g.NetOutput({else_g.Data("ex", -1, 1)});
  InferShapePass pass;
  auto r = pass.Run(root.graph());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("tx"));
}

// Loop with M = 3 and one carried value; the body applies `grow` (concat
// with itself -> the shape changes) or Neg (shape stays).
NodePtr BuildLoop(TestGraph& root, bool grow) {
  NodePtr m = root.Const("m", I64({}, {3}));
  NodePtr c = root.Const("c", Bool({}, {true}));
  NodePtr v = root.TypedData("v", 0, {2});
  NodePtr loop =
      root.Op("loop", "Loop", {m, c, v}, {}, {{"v_initial", 1}, {"v_final_and_scan_outputs", 1}});
  root.NetOutput({loop});
  TestGraph body("body", loop, 0);
  body.Data("i", -1, 0);
  NodePtr bc = body.Data("bc", -1, 1);
  NodePtr bv = body.Data("bv", -1, 2);
  NodePtr next = grow ? body.Op("cat", "Concat", {bv, bv},
                                {{"axis", AttrValue::CreateFrom<int64_t>(0)}}, {{"inputs", 2}})
                      : body.Op("neg", "Neg", {bv});
  body.NetOutput({bc, next});
  return loop;
}

TEST(InferShapePassTest, LoopWithStableBodyKeepsStaticShape) {
  TestGraph root("root");
  NodePtr loop = BuildLoop(root, /*grow=*/false);
  InferShapePass pass;
  GE_ASSERT_OK(pass.Run(root.graph()).status());
  EXPECT_EQ(OutShape(loop), GeShape({2}));
  auto run = ReferenceInterpreter::Run(*root.graph(), Inputs(F32({2}, {1, 2})));
  GE_ASSERT_OK(run.status());
  EXPECT_THAT(ToF32((*run)[0]), ElementsAre(-1, -2));
}

TEST(InferShapePassTest, LoopWithGrowingBodyReachesUnknownDim) {
  TestGraph root("root");
  NodePtr loop = BuildLoop(root, /*grow=*/true);
  InferShapePass pass;
  GE_ASSERT_OK(pass.Run(root.graph()).status());
  EXPECT_EQ(OutShape(loop), GeShape({-1}));
  // The body's Data saw the merged (fixed-point) shape.
  ComputeGraphPtr body = root.graph()->GetSubgraph("body");
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(OutShape(body->FindNode("bv")), GeShape({-1}));
  auto run = ReferenceInterpreter::Run(*root.graph(), Inputs(F32({2}, {1, 2})));
  GE_ASSERT_OK(run.status());
  EXPECT_EQ(reftest::Dims((*run)[0]), std::vector<int64_t>({16}));
}

TEST(InferShapePassTest, MergeDescs) {
  GeTensorDesc a(GeShape({2, 3}), FORMAT_ND, DT_FLOAT);
  GeTensorDesc b(GeShape({2, 4}), FORMAT_ND, DT_FLOAT);
  GeTensorDesc c(GeShape({2}), FORMAT_ND, DT_FLOAT);
  EXPECT_EQ(InferShapePass::MergeDescs(a, a).GetShape(), GeShape({2, 3}));
  EXPECT_EQ(InferShapePass::MergeDescs(a, b).GetShape(), GeShape({2, -1}));
  EXPECT_TRUE(InferShapePass::MergeDescs(a, c).GetShape().IsUnknownDimNum());
}

TEST(InferShapePassTest, NullGraphIsAnError) {
  InferShapePass pass;
  EXPECT_FALSE(pass.Run(nullptr).ok());
}

TEST(InferShapePassTest, ConstValuesAreViewedInPlaceAndOrdersSurviveInference) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {2, 3});
  NodePtr shape = g.Const("shape", I64({2}, {3, 2}));
  NodePtr reshape = g.Op("reshape", "Reshape", {x, shape});
  g.NetOutput({reshape});
  auto view = GetConstInputView(*reshape, 1);
  GE_ASSERT_OK(view.status());
  EXPECT_EQ(view->GetDataType(), DT_INT64);
  EXPECT_EQ(view->GetShapeSize(), 2);
  EXPECT_EQ(view->GetData<int64_t>()[0], 3);
  EXPECT_EQ(view->GetData<int64_t>()[1], 2);
  EXPECT_EQ(GetErrorCode(GetConstInputView(*reshape, 0).status()), ErrorCode::kNotFound);
  EXPECT_EQ(GetErrorCode(GetConstInputView(*reshape, 7).status()), ErrorCode::kNotFound);

  TopoOrderCache cache;
  TopoOrderCache::Scope scope(&cache);
  InferShapePass pass;
  auto changed = pass.Run(g.graph());
  GE_ASSERT_OK(changed.status());
  EXPECT_TRUE(*changed);
  EXPECT_EQ(OutShape(reshape), GeShape({3, 2}));
  // Inference changed descs, not the structure: the order is still cached.
  const int64_t hits = cache.hits();
  GE_ASSERT_OK(SharedTopologicalOrder(*g.graph()).status());
  EXPECT_EQ(cache.hits(), hits + 1);

  // A value whose bytes do not cover its shape is an error naming the Const.
  const int64_t one = 1;
  GeTensor bad(GeTensorDesc(GeShape({3}), FORMAT_ND, DT_INT64),
               reinterpret_cast<const uint8_t*>(&one), sizeof(one));
  GE_ASSERT_OK(
      shape->GetOpDescBarePtr()->SetAttr(ATTR_NAME_WEIGHTS, AttrValue::CreateFrom<GeTensor>(bad)));
  auto bad_view = GetConstInputView(*reshape, 1);
  EXPECT_EQ(GetErrorCode(bad_view.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(bad_view.status().message(), HasSubstr("shape"));
}

TEST(InferShapePassTest, FileWeightsAreCopiedOnlyWhenAnInferFunctionReadsTheirValues) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {2, 3});
  NodePtr w = g.Const("w", F32({2, 3}, {1, 2, 3, 4, 5, 6}));
  NodePtr shape = g.Const("shape", I64({2}, {3, 2}));
  NodePtr add = g.Op("add", "Add", {x, w});
  NodePtr reshape = g.Op("reshape", "Reshape", {add, shape});
  g.NetOutput({reshape});
  std::shared_ptr<AlignedBuffer> w_bytes =
      testing::ViewTensorAttrAsUnalignedFile(w->GetOpDescBarePtr(), ATTR_NAME_WEIGHTS);
  std::shared_ptr<AlignedBuffer> shape_bytes =
      testing::ViewTensorAttrAsUnalignedFile(shape->GetOpDescBarePtr(), ATTR_NAME_WEIGHTS);
  ASSERT_NE(w_bytes, nullptr);
  ASSERT_NE(shape_bytes, nullptr);

  auto pending = GetConstInputViewOrPending(*add, 1);
  GE_ASSERT_OK(pending.status());
  EXPECT_EQ(pending->GetAddr(), nullptr);
  EXPECT_EQ(pending->GetSize(), 24u);
  EXPECT_EQ(pending->GetShapeSize(), 6);
  EXPECT_FALSE(w_bytes->has_copy());

  InferShapePass pass;
  GE_ASSERT_OK(pass.Run(g.graph()).status());
  EXPECT_EQ(OutShape(add), GeShape({2, 3}));
  EXPECT_EQ(OutShape(reshape), GeShape({3, 2}));  // Reshape read its shape value
  EXPECT_TRUE(shape_bytes->has_copy());
  EXPECT_FALSE(w_bytes->has_copy());  // Add's inference needs the shape only
  // A reader asking for the values gets them, aligned.
  auto view = GetConstInputView(*add, 1);
  GE_ASSERT_OK(view.status());
  EXPECT_EQ(view->GetData<float>()[5], 6.0f);
  EXPECT_TRUE(w_bytes->has_copy());
}

TEST(InferShapePassTest, MemoSkipsUnchangedNodesAndSeesChangedInputs) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {2, 3});
  NodePtr relu = g.Op("relu", "Relu", {x});
  NodePtr neg = g.Op("neg", "Neg", {relu});
  g.NetOutput({neg});
  InferShapeMemo memo;
  InferShapeMemo::Scope scope(&memo);
  EXPECT_EQ(InferShapeMemo::Current(), &memo);
  InferShapePass pass;
  auto first = pass.Run(g.graph());
  GE_ASSERT_OK(first.status());
  EXPECT_EQ(memo.hits(), 0);
  EXPECT_EQ(memo.size(), 2u);  // relu, neg
  auto second = pass.Run(g.graph());
  GE_ASSERT_OK(second.status());
  EXPECT_FALSE(*second);
  EXPECT_EQ(memo.hits(), 2);
  // A new input shape: both nodes are inferred again.
  GeTensorDesc desc(GeShape({4, 5}), FORMAT_ND, DT_FLOAT);
  GE_ASSERT_OK(x->GetOpDescBarePtr()->UpdateOutputDesc(0, desc));
  auto third = pass.Run(g.graph());
  GE_ASSERT_OK(third.status());
  EXPECT_TRUE(*third);
  EXPECT_EQ(memo.hits(), 2);
  EXPECT_EQ(OutShape(neg), GeShape({4, 5}));
  // An output desc overwritten by someone else is not trusted either.
  GE_ASSERT_OK(neg->GetOpDescBarePtr()->UpdateOutputDesc(0, GeTensorDesc(GeShape({9}))));
  auto fourth = pass.Run(g.graph());
  GE_ASSERT_OK(fourth.status());
  EXPECT_TRUE(*fourth);
  EXPECT_EQ(OutShape(neg), GeShape({4, 5}));
  memo.Clear();
  EXPECT_EQ(memo.size(), 0u);
}

TEST(InferShapePassTest, RangesFlowToConsumersAndChangesAreDetected) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {-1, 3});
  GeTensorDesc desc = x->GetOpDescBarePtr()->GetOutputDesc(0);
  GE_ASSERT_OK(desc.SetShapeRange({{1, 8}, {3, 3}}));
  GE_ASSERT_OK(x->GetOpDescBarePtr()->UpdateOutputDesc(0, desc));
  NodePtr relu = g.Op("relu", "Relu", {x});
  NodePtr out = g.NetOutput({relu});
  InferShapePass pass;
  auto r = pass.Run(g.graph());
  GE_ASSERT_OK(r.status());
  EXPECT_TRUE(*r);
  EXPECT_EQ(relu->GetOpDescBarePtr()->GetInputDesc(0).GetShapeRange(),
            (GeTensorDesc::ShapeRange{{1, 8}, {3, 3}}));
  EXPECT_EQ(out->GetOpDescBarePtr()->GetInputDesc(0).GetShapeRange(),
            (GeTensorDesc::ShapeRange{{1, 8}, {3, 3}}));
  // Only the range changes: still a change, and it propagates.
  GE_ASSERT_OK(desc.SetShapeRange({{2, 4}, {3, 3}}));
  GE_ASSERT_OK(x->GetOpDescBarePtr()->UpdateOutputDesc(0, desc));
  r = pass.Run(g.graph());
  GE_ASSERT_OK(r.status());
  EXPECT_TRUE(*r);
  EXPECT_EQ(out->GetOpDescBarePtr()->GetInputDesc(0).GetShapeRange(),
            (GeTensorDesc::ShapeRange{{2, 4}, {3, 3}}));
}

TEST(InferShapePassTest, NodeHookSeesEveryNodeRightAfterItsInference) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {2, 3});
  NodePtr relu = g.Op("relu", "Relu", {x});
  NodePtr neg = g.Op("neg", "Neg", {relu});
  g.NetOutput({neg});
  ASSERT_TRUE(g.graph()->TopologicalSorting().ok());
  std::vector<std::string> seen;
  std::vector<GeShape> shapes;
  InferShapePass pass;
  pass.set_node_hook([&](Node& node) {
    seen.push_back(node.GetName());
    const GeTensorDesc* d = node.GetOpDescBarePtr()->PeekOutputDesc(0);
    shapes.push_back(d == nullptr ? GeShape({-9}) : d->GetShape());
    return OkStatus();
  });
  TopoOrderCache cache;
  TopoOrderCache::Scope scope(&cache);
  GE_ASSERT_OK(pass.Run(g.graph()).status());
  EXPECT_TRUE(pass.walked());
  ASSERT_EQ(seen.size(), 4u);
  EXPECT_EQ(seen[0], "x");
  EXPECT_EQ(seen[1], "relu");
  EXPECT_EQ(seen[2], "neg");
  EXPECT_EQ(shapes[1], GeShape({2, 3}));  // already inferred when the hook ran
  EXPECT_EQ(shapes[2], GeShape({2, 3}));
  // Nothing edited since: the run is skipped, the hook not called.
  seen.clear();
  auto again = pass.Run(g.graph());
  GE_ASSERT_OK(again.status());
  EXPECT_FALSE(*again);
  EXPECT_FALSE(pass.walked());
  EXPECT_TRUE(seen.empty());
  // The walk recorded the op types (no Const: no Const uses to speak of).
  EXPECT_NE(cache.FindTypes(*g.graph()), nullptr);
  EXPECT_TRUE(GraphTreeHasAnyType(*g.graph(), {"Neg"}));
  EXPECT_FALSE(GraphTreeHasAnyType(*g.graph(), {"Conv2D"}));

  // A hook error stops the run and is its error.
  NoteGraphEdit();
  pass.set_node_hook([](Node& node) -> Status {
    if (node.GetName() == "relu") return Internal("hook failed at ", node.GetName());
    return OkStatus();
  });
  auto failed = pass.Run(g.graph());
  ASSERT_FALSE(failed.ok());
  EXPECT_THAT(std::string(failed.status().message()), HasSubstr("hook failed at relu"));
  EXPECT_FALSE(pass.walked());
}

// A node whose inference fails keeps its descs in a lenient run (no
// message is built for it) and fails a strict run with the full message:
// a data type outside the op's allowed set, and shapes that do not
// broadcast.
TEST(InferShapePassTest, LenientRunKeepsNodesItCannotInferStrictNamesThem) {
  for (bool lenient : {true, false}) {
    TestGraph g("g");
    NodePtr s = g.TypedData("s", 0, {2}, DT_STRING);
    NodePtr relu = g.Op("relu", "Relu", {s});  // Relu takes no strings
    NodePtr x = g.TypedData("x", 1, {2, 3});
    NodePtr y = g.TypedData("y", 2, {4});
    NodePtr add = g.Op("add", "Add", {x, y});
    NodePtr ok = g.Op("ok", "Neg", {x});
    g.NetOutput({relu, add, ok});
    const GeTensorDesc relu_before = relu->GetOpDescBarePtr()->GetOutputDesc(0);
    const GeTensorDesc add_before = add->GetOpDescBarePtr()->GetOutputDesc(0);
    InferShapePass pass;
    pass.set_lenient(lenient);
    auto r = pass.Run(g.graph());
    if (lenient) {
      GE_ASSERT_OK(r.status());
      EXPECT_EQ(relu->GetOpDescBarePtr()->GetOutputDesc(0).GetShape(), relu_before.GetShape());
      EXPECT_EQ(relu->GetOpDescBarePtr()->GetOutputDesc(0).GetDataType(),
                relu_before.GetDataType());
      EXPECT_EQ(add->GetOpDescBarePtr()->GetOutputDesc(0).GetShape(), add_before.GetShape());
      EXPECT_EQ(OutShape(ok), GeShape({2, 3}));
    } else {
      ASSERT_FALSE(r.ok());
      EXPECT_THAT(std::string(r.status().message()), HasSubstr("relu"));
      EXPECT_THAT(std::string(r.status().message()), HasSubstr("DT_STRING"));
    }
  }
}

// The pass writes what InferShapeAndTypeForOpDesc writes: inferring a copy
// of each inferred op again with the full function changes nothing
// (shape, data type, origin shape / type, range).
TEST(InferShapePassTest, OutputsEqualTheFullInferFunction) {
  TestGraph g("g");
  NodePtr x = g.TypedData("x", 0, {2, 3});
  NodePtr b = g.Const("b", F32({3}, {1, 2, 3}));
  NodePtr add = g.Op("add", "Add", {x, b});
  NodePtr cast = g.Op("cast", "Cast", {add}, {{"to", AttrValue::CreateFrom<DataType>(DT_INT64)}});
  NodePtr cat = g.Op("cat", "Concat", {add, add}, {{"axis", AttrValue::CreateFrom<int64_t>(1)}},
                     {{"inputs", 2}});
  NodePtr shape = g.Const("shape", I64({2}, {3, 4}));
  NodePtr reshape = g.Op("reshape", "Reshape", {cat, shape});
  g.NetOutput({cast, reshape});
  InferShapePass pass;
  GE_ASSERT_OK(pass.Run(g.graph()).status());
  EXPECT_EQ(OutShape(cat), GeShape({2, 6}));
  EXPECT_EQ(OutShape(reshape), GeShape({3, 4}));
  EXPECT_EQ(cast->GetOpDescBarePtr()->GetOutputDesc(0).GetDataType(), DT_INT64);
  for (const NodePtr& n : {add, cast, cat, reshape}) {
    OpDesc copy(*n->GetOpDescBarePtr());
    std::vector<const gert::Tensor*> consts(copy.GetAllInputsSize(), nullptr);
    std::vector<gert::Tensor> views(copy.GetAllInputsSize());
    for (uint32_t i = 0; i < copy.GetAllInputsSize(); ++i) {
      auto v = GetConstInputView(*n, static_cast<int32_t>(i));
      if (!v.ok()) continue;
      views[i] = *v;
      consts[i] = &views[i];
    }
    GE_ASSERT_OK(InferShapeAndTypeForOpDesc(copy, consts));
    const GeTensorDesc mine = n->GetOpDescBarePtr()->GetOutputDesc(0);
    const GeTensorDesc full = copy.GetOutputDesc(0);
    EXPECT_EQ(mine.GetShape(), full.GetShape()) << n->GetName();
    EXPECT_EQ(mine.GetDataType(), full.GetDataType()) << n->GetName();
    EXPECT_EQ(mine.GetOriginShape(), full.GetOriginShape()) << n->GetName();
    EXPECT_EQ(mine.GetOriginDataType(), full.GetOriginDataType()) << n->GetName();
    EXPECT_EQ(mine.GetShapeRange(), full.GetShapeRange()) << n->GetName();
  }
}

}  // namespace
}  // namespace ge
