// ops/nn/sample_test.cc: RoiAlign and GridSample.
#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "ops/nn/nn_test_util.h"

namespace ops {
namespace nn {
namespace {

using testing::ErrorContains;
using testing::F32;
using testing::I64;
using testing::Iota;
using testing::Near;
using testing::OpTester;

// The 4x4 image f(y, x) = 4y + x: bilinear sampling is exact inside it.
gert::HostTensor Ramp() { return Iota(ge::DT_FLOAT, {1, 1, 4, 4}); }

// ------------------------------------------------------------------ RoiAlign

TEST(RoiAlignTest, HalfPixelModes) {
  OpTester o("RoiAlign");
  o.AttrStr("coordinate_transformation_mode", "output_half_pixel")
      .AttrInt("sampling_ratio", 1)
      .Input(Ramp())
      .Input(F32({1, 4}, {0, 0, 3, 3}))
      .Input(I64({1}, {0}));
  ASSERT_TRUE(o.Run(1).ok());
  EXPECT_EQ(o.Out(0).GetShape(), (gert::Shape{1, 1, 1, 1}));
  EXPECT_TRUE(Near(o.OutValues(0), {7.5}));  // sample at (1.5, 1.5)

  OpTester h("RoiAlign");
  h.AttrInt("sampling_ratio", 1)
      .Input(Ramp())
      .Input(F32({1, 4}, {0, 0, 3, 3}))
      .Input(I64({1}, {0}));
  ASSERT_TRUE(h.Run(1).ok());
  EXPECT_TRUE(Near(h.OutValues(0), {5}));  // corners shifted by -0.5: sample at (1, 1)
}

TEST(RoiAlignTest, BinsSamplesAndScale) {
  OpTester t("RoiAlign");
  t.AttrStr("coordinate_transformation_mode", "output_half_pixel")
      .AttrInt("output_height", 2)
      .AttrInt("output_width", 2)
      .AttrInt("sampling_ratio", 2)
      .AttrFloat("spatial_scale", 0.5)
      .Input(Ramp())
      .Input(F32({2, 4}, {0, 0, 6, 6, 20, 20, 24, 24}))
      .Input(I64({2}, {0, 0}));
  ASSERT_TRUE(t.Run(1).ok());
  ASSERT_EQ(t.Out(0).GetShape(), (gert::Shape{2, 1, 2, 2}));
  const std::vector<double> y = t.OutValues(0);
  // Bin sample means (0.75, 2.25) per dim on 4y + x; the second ROI is
  // entirely more than one pixel outside the map.
  EXPECT_TRUE(Near(y, {3.75, 5.25, 9.75, 11.25, 0, 0, 0, 0}));

  OpTester a("RoiAlign");  // adaptive: ceil(3 / 1) = 3 samples per dim
  a.AttrStr("coordinate_transformation_mode", "output_half_pixel")
      .Input(Ramp())
      .Input(F32({1, 4}, {0, 0, 3, 3}))
      .Input(I64({1}, {0}));
  ASSERT_TRUE(a.Run(1).ok());
  EXPECT_TRUE(Near(a.OutValues(0), {7.5}));
}

TEST(RoiAlignTest, MaxModeUsesWeightedCorners) {
  OpTester t("RoiAlign");
  t.AttrStr("coordinate_transformation_mode", "output_half_pixel")
      .AttrStr("mode", "max")
      .AttrInt("sampling_ratio", 1)
      .Input(F32({1, 1, 4, 4}, std::vector<double>(16, 1.0)))
      .Input(F32({2, 4}, {0, 0, 3, 3, 0, 0, 2, 2}))
      .Input(I64({2}, {0, 0}));
  ASSERT_TRUE(t.Run(1).ok());
  // (1.5, 1.5): four corners of weight 0.25; (1, 1): one corner of weight 1.
  EXPECT_TRUE(Near(t.OutValues(0), {0.25, 1}));
}

TEST(RoiAlignTest, InferAndErrors) {
  OpTester t("RoiAlign");
  t.AttrInt("output_height", 7).AttrInt("output_width", 5);
  ASSERT_TRUE(t.InferShapes({{-1, 256, -1, -1}, {-1, 4}, {-1}}, ge::DT_FLOAT, 1,
                            {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT64})
                  .ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 256, 7, 5}));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 3, 8, 8}, {2, 5}, {2}}, ge::DT_FLOAT, 1,
                                          {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT64}),
                            "(rois)"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 3, 8, 8}, {2, 4}, {3}}, ge::DT_FLOAT, 1,
                                          {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT64}),
                            "2 rows"));
  OpTester m("RoiAlign");
  m.AttrStr("mode", "median");
  EXPECT_TRUE(ErrorContains(m.InferShapes({{1, 3, 8, 8}, {2, 4}, {2}}, ge::DT_FLOAT, 1,
                                          {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT64}),
                            "mode"));
  OpTester b("RoiAlign");
  b.Input(Ramp()).Input(F32({1, 4}, {0, 0, 1, 1})).Input(I64({1}, {1}));
  const ge::Status s = b.Run(1);
  EXPECT_TRUE(ErrorContains(s, "batch_indices"));
  EXPECT_EQ(ge::GetErrorCode(s), ge::ErrorCode::kOutOfRange);
  OpTester huge("RoiAlign");
  huge.AttrInt("sampling_ratio", 1 << 20)
      .Input(Ramp())
      .Input(F32({1, 4}, {0, 0, 1, 1}))
      .Input(I64({1}, {0}));
  EXPECT_EQ(ge::GetErrorCode(huge.Run(1)), ge::ErrorCode::kNotSupported);
  OpTester n("RoiAlign");
  n.Input(Ramp()).Input(F32({1, 4}, {0, 0, 1e30, 1})).Input(I64({1}, {0}));
  EXPECT_TRUE(ErrorContains(n.Run(1), "huge"));
}

// ------------------------------------------------------------------ GridSample

gert::HostTensor Image2x2() { return F32({1, 1, 2, 2}, {1, 2, 3, 4}); }

TEST(GridSampleTest, AlignCornersIdentityAndCenter) {
  OpTester t("GridSample");
  t.AttrInt("align_corners", 1)
      .Input(Image2x2())
      .Input(F32({1, 2, 2, 2}, {-1, -1, 1, -1, -1, 1, 1, 1}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 2, 2}));
  EXPECT_TRUE(Near(t.OutValues(0), {1, 2, 3, 4}));
  OpTester c("GridSample");
  c.Input(Image2x2()).Input(F32({1, 1, 1, 2}, {0, 0}));
  ASSERT_TRUE(c.Run(1).ok());
  EXPECT_TRUE(Near(c.OutValues(0), {2.5}));
}

TEST(GridSampleTest, PaddingModes) {
  struct Case {
    const char* pad;
    double want;
  };
  // Grid (-1, -1) without align_corners: pixel (-0.5, -0.5).
  for (const Case& c : {Case{"zeros", 0.25}, Case{"border", 1}, Case{"reflection", 1}}) {
    OpTester t("GridSample");
    t.AttrStr("padding_mode", c.pad).Input(Image2x2()).Input(F32({1, 1, 1, 2}, {-1, -1}));
    ASSERT_TRUE(t.Run(1).ok()) << c.pad;
    EXPECT_TRUE(Near(t.OutValues(0), {c.want})) << c.pad;
  }
  // Far outside: reflection folds back into the image, border clamps.
  OpTester r("GridSample");
  r.AttrStr("padding_mode", "reflection").AttrInt("align_corners", 1);
  r.Input(F32({1, 1, 1, 3}, {0, 1, 2})).Input(F32({1, 1, 2, 2}, {2, 0, 4, 0}));
  ASSERT_TRUE(r.Run(1).ok());
  // x = 3 reflects to 1, x = 5 reflects to 1 (period 4 over [0, 2]).
  EXPECT_TRUE(Near(r.OutValues(0), {1, 1}));
}

TEST(GridSampleTest, NearestAndBicubic) {
  OpTester n("GridSample");
  n.AttrStr("mode", "nearest").AttrInt("align_corners", 1);
  n.Input(Image2x2()).Input(F32({1, 1, 1, 2}, {0.1, -0.6}));
  ASSERT_TRUE(n.Run(1).ok());
  EXPECT_TRUE(Near(n.OutValues(0), {2}));  // x 0.55 -> 1, y 0.2 -> 0
  OpTester b("GridSample");
  b.AttrStr("mode", "bicubic").AttrInt("align_corners", 1);
  b.Input(Iota(ge::DT_FLOAT, {1, 1, 3, 3})).Input(F32({1, 1, 1, 2}, {0, 0}));
  ASSERT_TRUE(b.Run(1).ok());
  EXPECT_TRUE(Near(b.OutValues(0), {4}));  // exactly on a pixel
  OpTester k("GridSample");                // bicubic weights sum to 1
  k.AttrStr("mode", "bicubic").AttrStr("padding_mode", "border");
  k.Input(F32({1, 1, 3, 3}, std::vector<double>(9, 3.0))).Input(F32({1, 1, 1, 2}, {0.3, -0.7}));
  ASSERT_TRUE(k.Run(1).ok());
  EXPECT_TRUE(Near(k.OutValues(0), {3}));
}

TEST(GridSampleTest, NonFiniteGridGivesZero) {
  OpTester t("GridSample");
  t.Input(Image2x2()).Input(F32({1, 1, 2, 2}, {std::nan(""), 0, 1e30, 0}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {0, 0}));
}

TEST(GridSampleTest, InferAndErrors) {
  OpTester t("GridSample");
  ASSERT_TRUE(t.InferShapes({{-1, 3, 10, 10}, {2, 5, 6, 2}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{2, 3, 5, 6}));
  EXPECT_TRUE(
      ErrorContains(t.InferShapes({{1, 3, 10, 10}, {1, 5, 6, 3}}, ge::DT_FLOAT, 1), "(grid)"));
  EXPECT_TRUE(
      ErrorContains(t.InferShapes({{1, 3, 10, 10}, {2, 5, 6, 2}}, ge::DT_FLOAT, 1), "batch"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{3, 10, 10}, {2, 5, 6, 2}}, ge::DT_FLOAT, 1), "rank 4"));
  OpTester m("GridSample");
  m.AttrStr("padding_mode", "wrap");
  EXPECT_TRUE(ErrorContains(m.InferShapes({{1, 3, 10, 10}, {1, 5, 6, 2}}, ge::DT_FLOAT, 1),
                            "padding_mode"));
}

}  // namespace
}  // namespace nn
}  // namespace ops
