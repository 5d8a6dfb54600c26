// ops/common/common_infer_test.cc
#include "ops/common/common_infer.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/gert/contexts.h"

namespace ops {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

gert::Shape UnknownRank() {
  gert::Shape s;
  s.AppendDim(ge::UNKNOWN_RANK);
  return s;
}

// ------------------------------------------------------- infer functions

TEST(InferFunctionsTest, SameAsInput0) {
  gert::InferShapeContextBuilder b;
  b.Node("relu1", "Relu").Input(gert::Shape{2, -1}, ge::DT_FLOAT16).Outputs(2);
  ASSERT_TRUE(InferSameAsInput0(*b.Build()).ok());
  EXPECT_EQ(b.OutputShape(0), (gert::Shape{2, -1}));
  EXPECT_EQ(b.OutputShape(1), (gert::Shape{2, -1}));
  EXPECT_EQ(b.OutputDataType(0), ge::DT_FLOAT16);
  EXPECT_EQ(b.OutputDataType(1), ge::DT_FLOAT16);

  gert::InferShapeContextBuilder none;
  none.Node("relu2", "Relu").AbsentInput().Outputs(1);
  ge::Status st = InferSameAsInput0(*none.Build());
  EXPECT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("relu2"));
}

TEST(InferFunctionsTest, ShapeSameAsInput0KeepsDtypes) {
  gert::InferShapeContextBuilder b;
  b.Node("isnan1", "IsNaN").Input(gert::Shape{3, -1}, ge::DT_FLOAT).Outputs(1);
  gert::InferShapeContext* ctx = b.Build();
  ctx->SetOutputDataType(0, ge::DT_BOOL);
  ASSERT_TRUE(InferShapeSameAsInput0(*ctx).ok());
  EXPECT_EQ(b.OutputShape(0), (gert::Shape{3, -1}));
  EXPECT_EQ(b.OutputDataType(0), ge::DT_BOOL);
  gert::InferShapeContextBuilder none;
  none.Node("isnan2", "IsNaN").Outputs(1);
  ge::Status st = InferShapeSameAsInput0(*none.Build());
  EXPECT_THAT(std::string(st.message()), HasSubstr("isnan2"));
}

TEST(InferFunctionsTest, Broadcast) {
  gert::InferShapeContextBuilder b;
  b.Node("add1", "Add")
      .Input(gert::Shape{2, 1}, ge::DT_FLOAT)
      .Input(gert::Shape{-1}, ge::DT_FLOAT)
      .Outputs(1);
  ASSERT_TRUE(InferBroadcast(*b.Build()).ok());
  EXPECT_EQ(b.OutputShape(0), (gert::Shape{2, -1}));

  gert::InferShapeContextBuilder opt;
  opt.Node("clip", "Clip")
      .Input(gert::Shape{4}, ge::DT_FLOAT)
      .AbsentInput()
      .Input(gert::Shape{}, ge::DT_FLOAT)
      .Outputs(1);
  ASSERT_TRUE(InferBroadcast(*opt.Build()).ok());
  EXPECT_EQ(opt.OutputShape(0), (gert::Shape{4}));

  gert::InferShapeContextBuilder unk;
  unk.Node("add3", "Add")
      .Input(UnknownRank(), ge::DT_FLOAT)
      .Input(gert::Shape{3}, ge::DT_FLOAT)
      .Outputs(1);
  ASSERT_TRUE(InferBroadcast(*unk.Build()).ok());
  EXPECT_TRUE(unk.OutputShape(0).IsUnknownRank());

  gert::InferShapeContextBuilder bad;
  bad.Node("add2", "Add")
      .Input(gert::Shape{2, 3}, ge::DT_FLOAT)
      .Input(gert::Shape{4}, ge::DT_FLOAT)
      .Outputs(1);
  ge::Status st = InferBroadcast(*bad.Build());
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kParamInvalid);
  EXPECT_THAT(std::string(st.message()), HasSubstr("add2"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("input 1"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("[2,3]"));
  EXPECT_THAT(std::string(st.message()), HasSubstr("[4]"));
}

}  // namespace
}  // namespace ops
