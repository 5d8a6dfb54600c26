// ops/nn/layout_test.cc: DepthToSpace, SpaceToDepth, Dropout.
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ops/nn/nn_test_util.h"

namespace ops {
namespace nn {
namespace {

using testing::ErrorContains;
using testing::F32;
using testing::Iota;
using testing::Near;
using testing::OpTester;
using testing::T;

TEST(DepthToSpaceTest, DcrAndCrd) {
  OpTester d("DepthToSpace");
  d.AttrInt("blocksize", 2).Input(Iota(ge::DT_FLOAT, {1, 8, 2, 3}));
  ASSERT_TRUE(d.Run(1).ok());
  EXPECT_EQ(d.Out(0).GetShape(), (gert::Shape{1, 2, 4, 6}));
  EXPECT_TRUE(
      Near(d.OutValues(0), {0,  12, 1,  13, 2,  14, 24, 36, 25, 37, 26, 38, 3,  15, 4,  16,
                            5,  17, 27, 39, 28, 40, 29, 41, 6,  18, 7,  19, 8,  20, 30, 42,
                            31, 43, 32, 44, 9,  21, 10, 22, 11, 23, 33, 45, 34, 46, 35, 47}));
  OpTester c("DepthToSpace");
  c.AttrInt("blocksize", 2).AttrStr("mode", "CRD").Input(Iota(ge::DT_FLOAT, {1, 8, 2, 3}));
  ASSERT_TRUE(c.Run(1).ok());
  EXPECT_TRUE(
      Near(c.OutValues(0), {0,  6,  1,  7,  2,  8,  12, 18, 13, 19, 14, 20, 3,  9,  4,  10,
                            5,  11, 15, 21, 16, 22, 17, 23, 24, 30, 25, 31, 26, 32, 36, 42,
                            37, 43, 38, 44, 27, 33, 28, 34, 29, 35, 39, 45, 40, 46, 41, 47}));
}

TEST(DepthToSpaceTest, SpaceToDepthInvertsDcr) {
  OpTester s("SpaceToDepth");
  s.AttrInt("blocksize", 2).Input(F32({1, 1, 2, 2}, {1, 2, 3, 4}));
  ASSERT_TRUE(s.Run(1).ok());
  EXPECT_EQ(s.Out(0).GetShape(), (gert::Shape{1, 4, 1, 1}));
  EXPECT_TRUE(Near(s.OutValues(0), {1, 2, 3, 4}));

  OpTester d("DepthToSpace");
  d.AttrInt("blocksize", 3).Input(Iota(ge::DT_INT32, {2, 18, 2, 2}));
  ASSERT_TRUE(d.Run(1).ok());
  OpTester back("SpaceToDepth");
  ge::StatusOr<gert::HostTensor> y = d.Out(0).Clone();
  ASSERT_TRUE(y.ok());
  back.AttrInt("blocksize", 3).Input(*std::move(y));
  ASSERT_TRUE(back.Run(1).ok());
  EXPECT_EQ(back.Out(0).GetShape(), (gert::Shape{2, 18, 2, 2}));
  std::vector<double> want(144);
  for (size_t i = 0; i < want.size(); ++i) want[i] = static_cast<double>(i);
  EXPECT_TRUE(Near(back.OutValues(0), want));
}

TEST(DepthToSpaceTest, StringElements) {
  std::vector<std::string> v = {"a", "b", "c", "d"};
  ge::StatusOr<gert::HostTensor> x =
      MakeHostTensor<std::string>(ge::DT_STRING, {1, 4, 1, 1}, absl::MakeConstSpan(v));
  ASSERT_TRUE(x.ok());
  OpTester t("DepthToSpace");
  t.AttrInt("blocksize", 2).Input(*std::move(x));
  ASSERT_TRUE(t.Run(1).ok());
  const std::string* y = t.Out(0).GetData<std::string>();
  EXPECT_EQ(y[0] + y[1] + y[2] + y[3], "abcd");
}

TEST(DepthToSpaceTest, InferAndErrors) {
  OpTester t("DepthToSpace");
  t.AttrInt("blocksize", 2);
  ASSERT_TRUE(t.InferShapes({{-1, 12, 5, -1}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 3, 10, -1}));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 6, 5, 5}}, ge::DT_FLOAT, 1), "divisible"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 8, 5}}, ge::DT_FLOAT, 1), "rank 4"));
  OpTester m("DepthToSpace");
  m.AttrInt("blocksize", 2).AttrStr("mode", "XYZ");
  EXPECT_TRUE(ErrorContains(m.InferShapes({{1, 8, 5, 5}}, ge::DT_FLOAT, 1), "mode"));
  OpTester s("SpaceToDepth");
  s.AttrInt("blocksize", 2);
  ASSERT_TRUE(s.InferShapes({{2, 3, -1, 6}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(s.InferredShape(0), (gert::Shape{2, 12, -1, 3}));
  EXPECT_TRUE(ErrorContains(s.InferShapes({{2, 3, 5, 6}}, ge::DT_FLOAT, 1), "divisible"));
  OpTester big("DepthToSpace");
  big.AttrInt("blocksize", 1024);
  EXPECT_EQ(ge::GetErrorCode(big.InferShapes({{1, 1 << 20, int64_t{1} << 50, 1}}, ge::DT_FLOAT, 1)),
            ge::ErrorCode::kOverflow);
  OpTester b("SpaceToDepth");
  b.AttrInt("blocksize", 0);
  EXPECT_TRUE(ErrorContains(b.InferShapes({{2, 3, 4, 6}}, ge::DT_FLOAT, 1), "blocksize"));
}

TEST(DropoutTest, InferenceIsIdentityWithTrueMask) {
  OpTester t("Dropout");
  t.Input(F32({2, 2}, {1, -2, 3, 4})).Input(F32({}, {0.7}));
  ASSERT_TRUE(t.Run(2).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {1, -2, 3, 4}));
  EXPECT_EQ(t.Out(1).GetDataType(), ge::DT_BOOL);
  EXPECT_TRUE(Near(t.OutValues(1), {1, 1, 1, 1}));
  OpTester f("Dropout");
  f.Input(T(ge::DT_BF16, {3}, {1, 2, 3})).Absent().Input(T(ge::DT_BOOL, {}, {0}));
  ASSERT_TRUE(f.Run(1).ok());
  EXPECT_TRUE(Near(f.OutValues(0), {1, 2, 3}));
}

TEST(DropoutTest, TrainingModeDropsAndScales) {
  OpTester t("Dropout");
  t.AttrInt("seed", 7)
      .Input(F32({1000}, std::vector<double>(1000, 3.0)))
      .Input(F32({}, {0.5}))
      .Input(T(ge::DT_BOOL, {}, {1}));
  ASSERT_TRUE(t.Run(2).ok());
  const std::vector<double> y = t.OutValues(0);
  const std::vector<double> m = t.OutValues(1);
  int kept = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    EXPECT_DOUBLE_EQ(y[i], m[i] != 0 ? 6.0 : 0.0) << i;
    kept += m[i] != 0;
  }
  EXPECT_GT(kept, 400);
  EXPECT_LT(kept, 600);
}

TEST(DropoutTest, InferAndErrors) {
  OpTester t("Dropout");
  ASSERT_TRUE(
      t.InferShapes({{-1, 5}, {}, {}}, ge::DT_FLOAT, 2, {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_BOOL})
          .ok());
  EXPECT_EQ(t.InferredShape(1), (gert::Shape{-1, 5}));
  EXPECT_EQ(t.InferredDtype(1), ge::DT_BOOL);
  EXPECT_TRUE(ErrorContains(t.InferShapes({{4}, {2}}, ge::DT_FLOAT, 1), "(ratio)"));
  OpTester r("Dropout");
  r.Input(F32({2}, {1, 2})).Input(F32({}, {1.0})).Input(T(ge::DT_BOOL, {}, {1}));
  EXPECT_TRUE(ErrorContains(r.Run(1), "[0, 1)"));
}

}  // namespace
}  // namespace nn
}  // namespace ops
