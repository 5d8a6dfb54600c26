// graph/src/utils/anchor_utils_test.cc
#include "graph/inc/graph/utils/anchor_utils.h"

#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using testing::GraphBuilder;

TEST(AnchorUtilsTest, StatusOnDataAnchorsOnly) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "T", 0, 1);
  NodePtr c = b.AddNode("c", "T", 1, 0);
  b.AddDataEdge(a, 0, c, 0);
  InDataAnchorPtr in = c->GetInDataAnchor(0);
  EXPECT_EQ(*AnchorUtils::GetStatus(in), ANCHOR_SUSPEND);
  GE_ASSERT_OK(AnchorUtils::SetStatus(in, ANCHOR_DATA));
  EXPECT_EQ(*AnchorUtils::GetStatus(in), ANCHOR_DATA);
  GE_EXPECT_CODE(AnchorUtils::SetStatus(in, static_cast<AnchorStatus>(9)),
                 ErrorCode::kParamInvalid);
  EXPECT_EQ(*AnchorUtils::GetStatus(in), ANCHOR_DATA);
  GE_EXPECT_CODE(AnchorUtils::GetStatus(c->GetInControlAnchor()), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(AnchorUtils::SetStatus(a->GetOutControlAnchor(), ANCHOR_CONST),
                 ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(AnchorUtils::GetStatus(nullptr), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(AnchorUtils::SetStatus(nullptr, ANCHOR_DATA), ErrorCode::kParamInvalid);
}

TEST(AnchorUtilsTest, IdxAndControlEdges) {
  GraphBuilder b("g");
  NodePtr a = b.AddNode("a", "T", 0, 2);
  NodePtr c = b.AddNode("c", "T", 1, 0);
  EXPECT_EQ(*AnchorUtils::GetIdx(a->GetOutDataAnchor(1)), 1);
  EXPECT_EQ(*AnchorUtils::GetIdx(a->GetOutControlAnchor()), -1);
  GE_EXPECT_CODE(AnchorUtils::GetIdx(nullptr), ErrorCode::kParamInvalid);
  EXPECT_FALSE(AnchorUtils::HasControlEdge(a->GetOutDataAnchor(0)));
  EXPECT_FALSE(AnchorUtils::HasControlEdge(a->GetOutControlAnchor()));
  GE_ASSERT_OK(a->GetOutDataAnchor(0)->LinkTo(c->GetInControlAnchor()));
  EXPECT_TRUE(AnchorUtils::HasControlEdge(a->GetOutDataAnchor(0)));
  EXPECT_TRUE(AnchorUtils::IsControlEdge(a->GetOutDataAnchor(0), c->GetInControlAnchor()));
  b.AddDataEdge(a, 1, c, 0);
  EXPECT_FALSE(AnchorUtils::IsControlEdge(a->GetOutDataAnchor(1), c->GetInDataAnchor(0)));
  EXPECT_FALSE(AnchorUtils::IsControlEdge(nullptr, c->GetInDataAnchor(0)));
  EXPECT_FALSE(AnchorUtils::HasControlEdge(nullptr));
}

}  // namespace
}  // namespace ge
