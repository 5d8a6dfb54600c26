// compiler/passes/pass_utils_test.cc
#include "compiler/passes/pass_utils.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/op_types.h"
#include "graph/inc/graph/utils/node_utils.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using testing::GraphBuilder;

TEST(PassUtilsTest, TypeClasses) {
  EXPECT_TRUE(IsDataLikeType(DATA));
  EXPECT_TRUE(IsDataLikeType(AIPPDATA));
  EXPECT_FALSE(IsDataLikeType(CONSTANT));
  EXPECT_TRUE(IsConstType(CONSTANTOP));
  EXPECT_FALSE(IsConstType("ConstantOfShape"));
  EXPECT_TRUE(IsVariableType(VARHANDLEOP));
  EXPECT_TRUE(IsControlFlowType("Merge"));
  EXPECT_TRUE(IsControlFlowType(IF));
  EXPECT_FALSE(IsControlFlowType("Relu"));
  EXPECT_TRUE(IsSideEffectType("Send"));
  EXPECT_TRUE(IsSideEffectType("Assign"));
  EXPECT_FALSE(IsSideEffectType("Add"));
  EXPECT_TRUE(IsRandomType("RandomNormal"));
  EXPECT_FALSE(IsRandomType("Relu"));
}

TEST(PassUtilsTest, OpTypeClassOfMatchesTheTypeSets) {
  GraphBuilder b("g");
  NodePtr data = b.AddNode("d", DATA, 0, 1);
  NodePtr c = b.AddNode("c", CONSTANT, 0, 1);
  NodePtr var = b.AddNode("v", VARIABLE, 0, 1);
  NodePtr merge = b.AddNode("m", "Merge", 1, 1);
  NodePtr rnd = b.AddNode("r", "RandomNormal", 1, 1);
  NodePtr out = b.AddNode("o", NETOUTPUT, 1, 0);
  NodePtr add = b.AddNode("a", "Add", 2, 1);
  NodePtr add2 = b.AddNode("a2", "Add", 2, 1);
  EXPECT_EQ(OpTypeClassOf(*data), uint32_t{kOpTypeDataLike});
  EXPECT_EQ(OpTypeClassOf(*c), uint32_t{kOpTypeConst});
  EXPECT_EQ(OpTypeClassOf(*var), uint32_t{kOpTypeVariable | kOpTypeSideEffect});
  EXPECT_EQ(OpTypeClassOf(*merge), uint32_t{kOpTypeControlFlow});
  EXPECT_EQ(OpTypeClassOf(*rnd), uint32_t{kOpTypeRandom});
  EXPECT_EQ(OpTypeClassOf(*out), uint32_t{kOpTypeNetOutput});
  EXPECT_EQ(OpTypeClassOf(*add), 0u);
  EXPECT_EQ(OpTypeClassOf(*add2), 0u);  // the same type again (cached)
  EXPECT_EQ(OpTypeClassOf(*data), uint32_t{kOpTypeDataLike});
  // A type changed in place is classified by its new type.
  add->GetOpDescBarePtr()->SetType("Send");
  EXPECT_EQ(OpTypeClassOf(*add), uint32_t{kOpTypeSideEffect});
  EXPECT_TRUE(HasSideEffects(*add));
  EXPECT_FALSE(HasSideEffects(*add2));
  EXPECT_TRUE(IsNonDeterministic(*rnd));
  EXPECT_FALSE(IsNonDeterministic(*add2));
}

TEST(PassUtilsTest, SideEffectsFromTypeAttributeAndSubgraphs) {
  GraphBuilder b("root");
  NodePtr relu = b.AddNode("relu", "Relu", 1, 1);
  NodePtr send = b.AddNode("send", "Send", 1, 0);
  NodePtr rand = b.AddNode("rand", "RandomUniform", 0, 1);
  EXPECT_FALSE(HasSideEffects(*relu));
  EXPECT_TRUE(HasSideEffects(*send));
  EXPECT_FALSE(HasSideEffects(*rand));
  EXPECT_TRUE(IsNonDeterministic(*rand));
  EXPECT_TRUE(IsNonDeterministic(*send));
  EXPECT_FALSE(IsNonDeterministic(*relu));
  GE_ASSERT_OK(relu->GetOpDesc()->SetAttr(kAttrHasSideEffect, AttrValue::CreateFrom<bool>(true)));
  EXPECT_TRUE(HasSideEffects(*relu));
  GE_ASSERT_OK(relu->GetOpDesc()->SetAttr(kAttrHasSideEffect, AttrValue::CreateFrom<bool>(false)));
  EXPECT_FALSE(HasSideEffects(*relu));

  // A call whose (nested) subgraph prints.
  auto op = testing::MakeOp("call", PARTITIONEDCALL, 0, 0);
  GE_ASSERT_OK(op->AddSubgraphName("f"));
  auto call = b.graph()->AddNode(op);
  GE_ASSERT_OK(call);
  auto f = std::make_shared<ComputeGraph>("f");
  GE_ASSERT_OK(NodeUtils::SetSubgraph(**call, 0, f));
  GraphBuilder fb(f);
  auto inner_op = testing::MakeOp("inner", PARTITIONEDCALL, 0, 0);
  GE_ASSERT_OK(inner_op->AddSubgraphName("f"));
  auto inner = f->AddNode(inner_op);
  GE_ASSERT_OK(inner);
  auto g = std::make_shared<ComputeGraph>("g");
  GE_ASSERT_OK(NodeUtils::SetSubgraph(**inner, 0, g));
  GraphBuilder gb(g);
  NodePtr quiet = gb.AddNode("quiet", "Relu", 0, 0);
  EXPECT_FALSE(HasSideEffects(**call));
  gb.AddNode("print", "Print", 0, 0);
  EXPECT_TRUE(HasSideEffects(**call));
  EXPECT_TRUE(HasSideEffects(**inner));
  (void)quiet;
}

TEST(PassUtilsTest, ControlEdgesOfEveryKind) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", DATA, 0, 1);
  NodePtr n = b.AddNode("n", "Relu", 1, 1);
  NodePtr c = b.AddNode("c", "NoOp", 0, 0);
  b.AddDataEdge(a, 0, n, 0);
  EXPECT_FALSE(HasControlEdges(*n));
  GE_ASSERT_OK(n->GetOutDataAnchor(0)->LinkTo(c->GetInControlAnchor()));
  EXPECT_TRUE(HasControlEdges(*n));
  EXPECT_TRUE(HasControlEdges(*c));
  EXPECT_FALSE(HasControlEdges(*a));
}

TEST(PassUtilsTest, ShapesAndConstants) {
  EXPECT_TRUE(IsStaticShape(GeShape({2, 3})));
  EXPECT_TRUE(IsStaticShape(GeShape()));
  EXPECT_TRUE(IsStaticShape(GeShape({0})));
  EXPECT_FALSE(IsStaticShape(GeShape({-1, 3})));
  GeShape unknown_rank;
  unknown_rank.SetIsUnknownDimNum();
  EXPECT_FALSE(IsStaticShape(unknown_rank));

  GraphBuilder b("g");
  NodePtr k64 = b.AddNode("k64", CONSTANT, 0, 1);
  NodePtr k32 = b.AddNode("k32", CONSTANT, 0, 1);
  NodePtr kf = b.AddNode("kf", CONSTANT, 0, 1);
  NodePtr use = b.AddNode("use", "Reshape", 3, 1);
  std::vector<int64_t> v64 = {4, -1};
  std::vector<int32_t> v32 = {7, 8, 9};
  std::vector<uint8_t> b64(16), b32(12);
  std::memcpy(b64.data(), v64.data(), 16);
  std::memcpy(b32.data(), v32.data(), 12);
  GE_ASSERT_OK(k64->GetOpDesc()->SetAttr(
      ATTR_NAME_WEIGHTS, AttrValue::CreateFrom<GeTensor>(
                             GeTensor(GeTensorDesc(GeShape({2}), FORMAT_ND, DT_INT64), b64))));
  GE_ASSERT_OK(k32->GetOpDesc()->SetAttr(
      ATTR_NAME_WEIGHTS, AttrValue::CreateFrom<GeTensor>(
                             GeTensor(GeTensorDesc(GeShape({3}), FORMAT_ND, DT_INT32), b32))));
  GE_ASSERT_OK(kf->GetOpDesc()->SetAttr(
      ATTR_NAME_WEIGHTS, AttrValue::CreateFrom<GeTensor>(
                             GeTensor(GeTensorDesc(GeShape({3}), FORMAT_ND, DT_FLOAT), b32))));
  b.AddDataEdge(k64, 0, use, 0);
  b.AddDataEdge(k32, 0, use, 1);
  b.AddDataEdge(kf, 0, use, 2);
  EXPECT_EQ(ConstIntInput(*use, 0), (std::vector<int64_t>{4, -1}));
  EXPECT_EQ(ConstIntInput(*use, 1), (std::vector<int64_t>{7, 8, 9}));
  EXPECT_EQ(ConstIntInput(*use, 2), std::nullopt);  // float
  EXPECT_EQ(ConstIntInput(*use, 5), std::nullopt);  // no such input
  EXPECT_NE(ConstWeights(*k64), nullptr);
  EXPECT_EQ(ConstWeights(*use), nullptr);
  EXPECT_EQ(ProducerOf(*use, 1)->GetOwnerNodeBarePtr(), k32.get());
  EXPECT_EQ(ProducerOf(*k64, 0), nullptr);

  // Bytes that do not match the shape are not read.
  GE_ASSERT_OK(k32->GetOpDesc()->SetAttr(
      ATTR_NAME_WEIGHTS, AttrValue::CreateFrom<GeTensor>(
                             GeTensor(GeTensorDesc(GeShape({4}), FORMAT_ND, DT_INT32), b32))));
  EXPECT_EQ(ConstIntInput(*use, 1), std::nullopt);
}

TEST(PassUtilsTest, DataTypeAttributeAsTypeOrInt) {
  OpDesc op("cast", "Cast");
  EXPECT_EQ(DataTypeAttr(op, "to"), std::nullopt);
  GE_ASSERT_OK(op.SetAttr("to", AttrValue::CreateFrom<DataType>(DT_INT8)));
  EXPECT_EQ(DataTypeAttr(op, "to"), DT_INT8);
  GE_ASSERT_OK(op.SetAttr("to", AttrValue::CreateFrom<int64_t>(DT_DOUBLE)));
  EXPECT_EQ(DataTypeAttr(op, "to"), DT_DOUBLE);
  GE_ASSERT_OK(op.SetAttr("to", AttrValue::CreateFrom<int64_t>(-4)));
  EXPECT_EQ(DataTypeAttr(op, "to"), std::nullopt);
  GE_ASSERT_OK(op.SetAttr("to", AttrValue::CreateFrom<std::string>("float")));
  EXPECT_EQ(DataTypeAttr(op, "to"), std::nullopt);
}

}  // namespace
}  // namespace ge
