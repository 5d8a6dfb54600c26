// graph/src/utils/op_desc_utils_test.cc
#include "graph/inc/graph/utils/op_desc_utils.h"

#include <memory>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_utils.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using testing::GraphBuilder;
using testing::MakeOp;

TEST(OpDescUtilsTest, SetSubgraphInstanceNameBySlotName) {
  OpDesc op("while", "While");
  GE_ASSERT_OK(op.AddSubgraphName("cond"));
  GE_ASSERT_OK(op.AddSubgraphName("body"));
  GE_ASSERT_OK(OpDescUtils::SetSubgraphInstanceName("body", "while_body_1", op));
  EXPECT_EQ(op.GetSubgraphInstanceNames(), (std::vector<std::string>{"", "while_body_1"}));
  GE_EXPECT_CODE(OpDescUtils::SetSubgraphInstanceName("nope", "x", op), ErrorCode::kNotFound);
}

TEST(OpDescUtilsTest, ClearDescsShiftTheRest) {
  OpDesc op("n", "N");
  GE_ASSERT_OK(op.AddInputDesc("a", GeTensorDesc(GeShape({1}))));
  GE_ASSERT_OK(op.AddInputDesc("b", GeTensorDesc(GeShape({2}))));
  GE_ASSERT_OK(op.AddOutputDesc("y", GeTensorDesc()));
  GE_ASSERT_OK(OpDescUtils::ClearInputDesc(op, 0));
  EXPECT_EQ(op.GetAllInputNames(), std::vector<std::string>{"b"});
  EXPECT_EQ(op.GetInputDesc(0).GetShape(), GeShape({2}));
  GE_EXPECT_CODE(OpDescUtils::ClearInputDesc(op, 5), ErrorCode::kOutOfRange);
  GE_ASSERT_OK(OpDescUtils::ClearOutputDesc(op, 0));
  EXPECT_EQ(op.GetOutputsSize(), 0u);
}

TEST(OpDescUtilsTest, ClearUnlinkedInputDescsRenumbersLinkedOnes) {
  GraphBuilder b("g");
  NodePtr p0 = b.AddNode("p0", "T", 0, 1);
  NodePtr p2 = b.AddNode("p2", "T", 0, 1);
  NodePtr n = b.AddNode("n", "T", 4, 0);
  b.AddDataEdge(p0, 0, n, 0);
  b.AddDataEdge(p2, 0, n, 2);
  GE_ASSERT_OK(OpDescUtils::ClearUnlinkedInputDescs(n));
  EXPECT_EQ(n->GetAllInDataAnchorsSize(), 2u);
  EXPECT_EQ(n->GetOpDesc()->GetAllInputNames(), (std::vector<std::string>{"__input0", "__input2"}));
  EXPECT_EQ(n->GetInDataAnchor(1)->GetPeerOutAnchor(), p2->GetOutDataAnchor(0));
  EXPECT_EQ(n->GetInDataAnchor(0)->GetPeerOutAnchor(), p0->GetOutDataAnchor(0));
  GE_ASSERT_OK(OpDescUtils::ClearUnlinkedInputDescs(n));  // nothing to do
  GE_EXPECT_CODE(OpDescUtils::ClearUnlinkedInputDescs(nullptr), ErrorCode::kParamInvalid);
  // An input fed by a control anchor cannot be renumbered: nothing changes.
  NodePtr m = b.AddNode("m", "T", 2, 0);
  GE_ASSERT_OK(p0->GetOutControlAnchor()->LinkTo(m->GetInDataAnchor(1)));
  GE_EXPECT_CODE(OpDescUtils::ClearUnlinkedInputDescs(m), ErrorCode::kNotSupported);
  EXPECT_EQ(m->GetAllInDataAnchorsSize(), 2u);
}

TEST(OpDescUtilsTest, CopyOpDescIsDeep) {
  auto op = MakeOp("n", "T", 1, 1);
  GE_ASSERT_OK(AttrUtils::SetInt(op, "k", 1));
  auto copy = OpDescUtils::CopyOpDesc(op);
  ASSERT_TRUE(copy.ok());
  (*copy)->MutableInputDesc(0)->SetDataType(DT_INT64);
  GE_ASSERT_OK(AttrUtils::SetInt(*copy, "k", 2));
  EXPECT_EQ(op->GetInputDesc(0).GetDataType(), DT_FLOAT);
  EXPECT_EQ(*AttrUtils::GetInt(op, "k"), 1);
  GE_EXPECT_CODE(OpDescUtils::CopyOpDesc(nullptr), ErrorCode::kParamInvalid);
}

TEST(OpDescUtilsTest, Weights) {
  OpDesc c("w", "Const");
  GE_EXPECT_CODE(OpDescUtils::GetWeights(c), ErrorCode::kNotFound);
  GeTensor w(GeTensorDesc(GeShape({2}), FORMAT_ND, DT_INT8), std::vector<uint8_t>{1, 2});
  GE_ASSERT_OK(OpDescUtils::SetWeights(c, w));
  auto got = OpDescUtils::GetWeights(c);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(*got, w);
}

}  // namespace
}  // namespace ge
