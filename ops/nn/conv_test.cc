// ops/nn/conv_test.cc: Conv, ConvTranspose, ConvInteger, QLinearConv, Col2Im.
#include <cstdint>
#include <random>
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
using testing::T;

std::vector<double> Ones(size_t n) { return std::vector<double>(n, 1.0); }

// ------------------------------------------------------------------ Conv results

TEST(ConvTest, Basic2dWithoutPadding) {
  OpTester t("Conv");
  t.AttrInts("kernel_shape", {3, 3})
      .Input(Iota(ge::DT_FLOAT, {1, 1, 5, 5}))
      .Input(F32({1, 1, 3, 3}, Ones(9)));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 3, 3}));
  EXPECT_TRUE(Near(t.OutValues(0), {54, 63, 72, 99, 108, 117, 144, 153, 162}));
}

TEST(ConvTest, Basic2dWithPadding) {
  OpTester t("Conv");
  t.AttrInts("pads", {1, 1, 1, 1})
      .Input(Iota(ge::DT_FLOAT, {1, 1, 5, 5}))
      .Input(F32({1, 1, 3, 3}, Ones(9)));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {12,  21, 27, 33,  24,  33,  54,  63, 72,  51,  63,  99, 108,
                                    117, 81, 93, 144, 153, 162, 111, 72, 111, 117, 123, 84}));
}

TEST(ConvTest, StridesAndPadding) {
  OpTester t("Conv");
  t.AttrInts("pads", {1, 1, 1, 1})
      .AttrInts("strides", {2, 2})
      .Input(Iota(ge::DT_FLOAT, {1, 1, 7, 5}))
      .Input(F32({1, 1, 3, 3}, Ones(9)));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 4, 3}));
  EXPECT_TRUE(Near(t.OutValues(0), {12, 27, 24, 63, 108, 81, 123, 198, 141, 112, 177, 124}));
}

TEST(ConvTest, AsymmetricPadding) {
  OpTester t("Conv");
  t.AttrInts("pads", {1, 0, 1, 0})
      .AttrInts("strides", {2, 2})
      .Input(Iota(ge::DT_FLOAT, {1, 1, 7, 5}))
      .Input(F32({1, 1, 3, 3}, Ones(9)));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 4, 2}));
  EXPECT_TRUE(Near(t.OutValues(0), {21, 33, 99, 117, 189, 207, 171, 183}));
}

TEST(ConvTest, GroupAndBias) {
  // Depthwise: channel 0 * 2 + 1, channel 1 * 3 - 1.
  OpTester t("Conv");
  t.AttrInt("group", 2)
      .Input(F32({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}))
      .Input(F32({2, 1, 1, 1}, {2, 3}))
      .Input(F32({2}, {1, -1}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {3, 5, 7, 9, 14, 17, 20, 23}));
}

TEST(ConvTest, OneDimensionalWithDilation) {
  OpTester t("Conv");
  t.AttrInts("dilations", {2})
      .Input(F32({1, 1, 5}, {1, 2, 4, 8, 16}))
      .Input(F32({1, 1, 2}, {1, -1}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 3}));
  EXPECT_TRUE(Near(t.OutValues(0), {-3, -6, -12}));
}

TEST(ConvTest, ThreeDimensional) {
  OpTester t("Conv");
  t.Input(Iota(ge::DT_FLOAT, {1, 1, 2, 3, 2})).Input(F32({1, 1, 2, 2, 2}, Ones(8)));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 1, 2, 1}));
  // Windows {0,1,2,3,6,7,8,9} and {2,3,4,5,8,9,10,11}.
  EXPECT_TRUE(Near(t.OutValues(0), {36, 52}));
}

TEST(ConvTest, AutoPadSameUpperAndLower) {
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER"}) {
    OpTester t("Conv");
    t.AttrStr("auto_pad", mode)
        .Input(F32({1, 1, 5}, {1, 2, 3, 4, 5}))
        .Input(F32({1, 1, 2}, {1, 1}));
    ASSERT_TRUE(t.Run(1).ok()) << mode;
    // One pad: at the end for SAME_UPPER, at the start for SAME_LOWER.
    const std::vector<double> want = std::string(mode) == "SAME_UPPER"
                                         ? std::vector<double>{3, 5, 7, 9, 5}
                                         : std::vector<double>{1, 3, 5, 7, 9};
    EXPECT_TRUE(Near(t.OutValues(0), want)) << mode;
  }
}

TEST(ConvTest, AutoPadSameWithStride) {
  OpTester t("Conv");
  t.AttrStr("auto_pad", "SAME_UPPER")
      .AttrInts("strides", {2, 2})
      .Input(Iota(ge::DT_FLOAT, {1, 1, 5, 5}))
      .Input(F32({1, 1, 3, 3}, Ones(9)));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 3, 3}));
  // ONNX test_conv_with_autopad_same.
  EXPECT_TRUE(Near(t.OutValues(0), {12, 27, 24, 63, 108, 81, 72, 117, 84}));
}

TEST(ConvTest, DoubleAndFloat16) {
  for (ge::DataType dt : {ge::DT_DOUBLE, ge::DT_FLOAT16}) {
    OpTester t("Conv");
    t.Input(Iota(dt, {1, 1, 5, 5})).Input(T(dt, {1, 1, 3, 3}, Ones(9)));
    ASSERT_TRUE(t.Run(1).ok());
    EXPECT_EQ(t.Out(0).GetDataType(), dt);
    EXPECT_TRUE(Near(t.OutValues(0), {54, 63, 72, 99, 108, 117, 144, 153, 162}));
  }
}

// Direct 2-D convolution for comparison.
std::vector<double> NaiveConv2d(const std::vector<double>& x, const std::vector<double>& w,
                                int64_t n, int64_t c, int64_t h, int64_t wd, int64_t m, int64_t kh,
                                int64_t kw, int64_t group, int64_t sh, int64_t sw, int64_t dh,
                                int64_t dw, int64_t pt, int64_t pl, int64_t pb, int64_t pr,
                                int64_t* oh_out, int64_t* ow_out) {
  const int64_t oh = (h + pt + pb - ((kh - 1) * dh + 1)) / sh + 1;
  const int64_t ow = (wd + pl + pr - ((kw - 1) * dw + 1)) / sw + 1;
  *oh_out = oh;
  *ow_out = ow;
  const int64_t cg = c / group, mg = m / group;
  std::vector<double> y(static_cast<size_t>(n * m * oh * ow), 0.0);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t oc = 0; oc < m; ++oc)
      for (int64_t i = 0; i < oh; ++i)
        for (int64_t j = 0; j < ow; ++j) {
          double acc = 0;
          const int64_t g = oc / mg;
          for (int64_t ic = 0; ic < cg; ++ic)
            for (int64_t a = 0; a < kh; ++a)
              for (int64_t bb = 0; bb < kw; ++bb) {
                const int64_t ih = i * sh - pt + a * dh;
                const int64_t iw = j * sw - pl + bb * dw;
                if (ih < 0 || ih >= h || iw < 0 || iw >= wd) continue;
                acc += x[((b * c + g * cg + ic) * h + ih) * wd + iw] *
                       w[((oc * cg + ic) * kh + a) * kw + bb];
              }
          y[((b * m + oc) * oh + i) * ow + j] = acc;
        }
  return y;
}

TEST(ConvTest, MatchesNaiveConvolutionOnRandomData) {
  struct Case {
    int64_t n, c, h, w, m, kh, kw, group, sh, sw, dh, dw, pt, pl, pb, pr;
  };
  const Case cases[] = {
      {1, 8, 20, 20, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1},  // GEMM tiles + remainders
      {2, 4, 9, 7, 6, 3, 2, 2, 2, 1, 1, 2, 1, 0, 2, 1},     // groups, strides, dilations
      {1, 3, 11, 13, 5, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},   // pointwise
      {1, 300, 4, 5, 7, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},   // K > one GEMM K block
      {1, 6, 8, 8, 6, 3, 3, 6, 2, 2, 1, 1, 1, 1, 0, 0},     // depthwise
  };
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> uni(-1, 1);
  for (const Case& k : cases) {
    std::vector<double> x(static_cast<size_t>(k.n * k.c * k.h * k.w));
    std::vector<double> w(static_cast<size_t>(k.m * (k.c / k.group) * k.kh * k.kw));
    for (double& v : x) v = uni(rng);
    for (double& v : w) v = uni(rng);
    int64_t oh, ow;
    const std::vector<double> want =
        NaiveConv2d(x, w, k.n, k.c, k.h, k.w, k.m, k.kh, k.kw, k.group, k.sh, k.sw, k.dh, k.dw,
                    k.pt, k.pl, k.pb, k.pr, &oh, &ow);
    OpTester t("Conv");
    t.AttrInt("group", k.group)
        .AttrInts("strides", {k.sh, k.sw})
        .AttrInts("dilations", {k.dh, k.dw})
        .AttrInts("pads", {k.pt, k.pl, k.pb, k.pr})
        .Input(F32({k.n, k.c, k.h, k.w}, x))
        .Input(F32({k.m, k.c / k.group, k.kh, k.kw}, w));
    ASSERT_TRUE(t.Run(1).ok());
    EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{k.n, k.m, oh, ow}));
    EXPECT_TRUE(Near(t.OutValues(0), want, 1e-4)) << "case c=" << k.c << " m=" << k.m;
  }
}

// ------------------------------------------------------------------ Conv shapes and errors

TEST(ConvTest, InferUnknownBatchAndSpatial) {
  OpTester t("Conv");
  t.AttrInts("pads", {1, 1, 1, 1});
  ASSERT_TRUE(t.InferShapes({{-1, 3, 32, 32}, {16, 3, 3, 3}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 16, 32, 32}));
  EXPECT_EQ(t.InferredDtype(0), ge::DT_FLOAT);
  ASSERT_TRUE(t.InferShapes({{2, 3, -1, 17}, {16, 3, 3, 3}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{2, 16, -1, 17}));
}

TEST(ConvTest, InferUnknownRank) {
  OpTester t("Conv");
  ASSERT_TRUE(t.InferShapes({{-2}, {16, 3, 3, 3}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 16, -1, -1}));
  ASSERT_TRUE(t.InferShapes({{-2}, {-2}}, ge::DT_FLOAT, 1).ok());
  EXPECT_TRUE(t.InferredShape(0).IsUnknownRank());
  // Unknown weight spatial dims without kernel_shape give unknown outputs.
  ASSERT_TRUE(t.InferShapes({{1, 3, 8, 8}, {4, 3, -1, 3}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{1, 4, -1, 6}));
}

TEST(ConvTest, InferAutoPadVariants) {
  struct Case {
    const char* mode;
    int64_t want;
  };
  for (const Case& c :
       {Case{"VALID", 15}, Case{"SAME_UPPER", 16}, Case{"SAME_LOWER", 16}, Case{"NOTSET", 15}}) {
    OpTester t("Conv");
    t.AttrStr("auto_pad", c.mode).AttrInts("strides", {2, 2});
    ASSERT_TRUE(t.InferShapes({{1, 3, 32, 31}, {8, 3, 3, 3}}, ge::DT_FLOAT, 1).ok()) << c.mode;
    EXPECT_EQ(t.InferredShape(0).GetDim(2), c.want) << c.mode;
  }
  OpTester t("Conv");
  t.AttrStr("auto_pad", "SAME_UPPER").AttrInts("pads", {5, 5, 5, 5});  // pads ignored
  ASSERT_TRUE(t.InferShapes({{1, 3, 10, 10}, {8, 3, 3, 3}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{1, 8, 10, 10}));
}

TEST(ConvTest, InferErrorsNameTheNode) {
  {
    OpTester t("Conv");
    EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 3}, {8, 3}}, ge::DT_FLOAT, 1), "rank 2"));
  }
  {
    OpTester t("Conv");
    EXPECT_TRUE(
        ErrorContains(t.InferShapes({{1, 4, 8, 8}, {8, 3, 3, 3}}, ge::DT_FLOAT, 1), "channels"));
  }
  {
    OpTester t("Conv");
    t.AttrInt("group", 2);
    EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 4, 8, 8}, {7, 2, 3, 3}}, ge::DT_FLOAT, 1),
                              "not divisible by group 2"));
  }
  {
    OpTester t("Conv");
    EXPECT_TRUE(
        ErrorContains(t.InferShapes({{1, 3, 8, 8}, {8, 3, 3}}, ge::DT_FLOAT, 1), "has rank 3"));
  }
  {
    OpTester t("Conv");
    t.AttrStr("auto_pad", "SAME");
    EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 3, 8, 8}, {8, 3, 3, 3}}, ge::DT_FLOAT, 1),
                              "auto_pad \"SAME\""));
  }
  {
    OpTester t("Conv");
    t.AttrInts("kernel_shape", {5, 5});
    EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 3, 8, 8}, {8, 3, 3, 3}}, ge::DT_FLOAT, 1),
                              "kernel_shape"));
  }
  {
    OpTester t("Conv");
    t.AttrInts("pads", {1, 1});
    EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 3, 8, 8}, {8, 3, 3, 3}}, ge::DT_FLOAT, 1),
                              "pads [1,1] has 2 entries, expected 4"));
  }
  {
    OpTester t("Conv");
    t.AttrInts("strides", {0, 1});
    EXPECT_TRUE(
        ErrorContains(t.InferShapes({{1, 3, 8, 8}, {8, 3, 3, 3}}, ge::DT_FLOAT, 1), "strides"));
  }
  {
    OpTester t("Conv");
    EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 3, 2, 8}, {8, 3, 3, 3}}, ge::DT_FLOAT, 1),
                              "smaller than the dilated kernel"));
  }
  {
    OpTester t("Conv");
    EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 3, 8, 8}, {8, 3, 3, 3}, {7}}, ge::DT_FLOAT, 1),
                              "(B) shape [7]"));
  }
  {
    OpTester t("Conv");
    const ge::Status s =
        t.InferShapes({{1, 3, 8, 8}, {8, 3, 3, 3}}, ge::DT_FLOAT, 1, {ge::DT_FLOAT, ge::DT_DOUBLE});
    EXPECT_TRUE(ErrorContains(s, "data type"));
    EXPECT_EQ(ge::GetErrorCode(s), ge::ErrorCode::kTypeMismatch);
  }
}

TEST(ConvTest, KernelRejectsInconsistentInputs) {
  OpTester t("Conv");
  t.Input(Iota(ge::DT_FLOAT, {1, 2, 3, 3})).Input(F32({1, 3, 1, 1}, {1, 1, 1}));
  EXPECT_TRUE(ErrorContains(t.Run(1), "channels"));
}

// ------------------------------------------------------------------ ConvTranspose

const std::vector<double> kConvTransposeOnes5x5 = {
    0, 1, 3, 3, 2, 3, 8, 15, 12, 7, 9, 21, 36, 27, 15, 9, 20, 33, 24, 13, 6, 13, 21, 15, 8};

TEST(ConvTransposeTest, Basic) {
  OpTester t("ConvTranspose");
  t.Input(Iota(ge::DT_FLOAT, {1, 1, 3, 3})).Input(F32({1, 2, 3, 3}, Ones(18)));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 2, 5, 5}));
  std::vector<double> want = kConvTransposeOnes5x5;
  want.insert(want.end(), kConvTransposeOnes5x5.begin(), kConvTransposeOnes5x5.end());
  EXPECT_TRUE(Near(t.OutValues(0), want));
}

TEST(ConvTransposeTest, OneDimensional) {
  OpTester t("ConvTranspose");
  t.Input(F32({1, 1, 3}, {0, 1, 2})).Input(F32({1, 2, 3}, Ones(6)));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {0, 1, 3, 3, 2, 0, 1, 3, 3, 2}));
}

TEST(ConvTransposeTest, Dilations) {
  OpTester t("ConvTranspose");
  t.AttrInts("dilations", {2, 2})
      .Input(F32({1, 1, 3, 3}, {3, 8, 1, 9, 5, 7, 3, 2, 6}))
      .Input(F32({1, 1, 2, 2}, {7, 2, 1, 9}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 5, 5}));
  EXPECT_TRUE(Near(t.OutValues(0), {21, 56, 13, 16, 2,  63, 35, 67, 10, 14, 24, 22, 76,
                                    76, 21, 9,  5,  88, 45, 63, 3,  2,  33, 18, 54}));
}

TEST(ConvTransposeTest, PadsCropTheFullOutput) {
  OpTester t("ConvTranspose");
  t.AttrInts("pads", {1, 1, 1, 1})
      .Input(Iota(ge::DT_FLOAT, {1, 1, 3, 3}))
      .Input(F32({1, 1, 3, 3}, Ones(9)))
      .Input(F32({1}, {0.5}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 3, 3}));
  EXPECT_TRUE(Near(t.OutValues(0), {8.5, 15.5, 12.5, 21.5, 36.5, 27.5, 20.5, 33.5, 24.5}));
}

TEST(ConvTransposeTest, AutoPadSameUpper) {
  OpTester t("ConvTranspose");
  t.AttrStr("auto_pad", "SAME_UPPER")
      .AttrInts("strides", {2, 2})
      .Input(Iota(ge::DT_FLOAT, {1, 1, 3, 3}))
      .Input(F32({1, 1, 3, 3}, Ones(9)));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 6, 6}));
  // ONNX test_convtranspose_autopad_same: the odd pad goes to the end.
  EXPECT_TRUE(Near(t.OutValues(0), {0, 0, 1, 1, 3, 2, 0, 0, 1,  1,  3,  2,  3, 3, 8,  5, 12, 7,
                                    3, 3, 7, 4, 9, 5, 9, 9, 20, 11, 24, 13, 6, 6, 13, 7, 15, 8}));
}

TEST(ConvTransposeTest, OutputShapeExtendsWithZeros) {
  OpTester t("ConvTranspose");
  t.AttrInts("strides", {3, 2})
      .AttrInts("output_shape", {10, 8})
      .Input(Iota(ge::DT_FLOAT, {1, 1, 3, 3}))
      .Input(F32({1, 1, 3, 3}, Ones(9)));
  ASSERT_TRUE(t.Run(1).ok());
  ASSERT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 10, 8}));
  const std::vector<double> y = t.OutValues(0);
  const std::vector<double> row0 = {0, 0, 1, 1, 3, 2, 2, 0};
  const std::vector<double> row3 = {3, 3, 7, 4, 9, 5, 5, 0};
  EXPECT_TRUE(Near(std::vector<double>(y.begin(), y.begin() + 8), row0));
  EXPECT_TRUE(Near(std::vector<double>(y.begin() + 24, y.begin() + 32), row3));
  EXPECT_TRUE(Near(std::vector<double>(y.begin() + 72, y.end()), std::vector<double>(8, 0)));
}

TEST(ConvTransposeTest, GroupsAndOutputPaddingShape) {
  OpTester t("ConvTranspose");
  t.AttrInt("group", 2).Input(F32({1, 2, 1, 1}, {1, 2})).Input(F32({2, 1, 1, 1}, {3, 4}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {3, 8}));

  OpTester s("ConvTranspose");
  s.AttrInts("strides", {3, 2}).AttrInts("output_padding", {1, 1});
  ASSERT_TRUE(s.InferShapes({{-1, 1, 3, 3}, {1, 2, 3, 3}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(s.InferredShape(0), (gert::Shape{-1, 2, 10, 8}));
  ASSERT_TRUE(s.InferShapes({{1, 1, -1, 3}, {1, 2, 3, 3}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(s.InferredShape(0), (gert::Shape{1, 2, -1, 8}));
}

TEST(ConvTransposeTest, Errors) {
  {
    OpTester t("ConvTranspose");
    EXPECT_TRUE(
        ErrorContains(t.InferShapes({{1, 2, 3, 3}, {1, 2, 3, 3}}, ge::DT_FLOAT, 1), "channels"));
  }
  {
    OpTester t("ConvTranspose");
    t.AttrInts("output_padding", {2, 0});
    EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 1, 3, 3}, {1, 2, 3, 3}}, ge::DT_FLOAT, 1),
                              "output_padding"));
  }
  {
    OpTester t("ConvTranspose");
    t.AttrInts("pads", {3, 3, 3, 3});
    EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 1, 2, 2}, {1, 1, 2, 2}}, ge::DT_FLOAT, 1),
                              "output spatial dim 0"));
  }
  {
    OpTester t("ConvTranspose");
    t.AttrInts("output_shape", {4});
    EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 1, 2, 2}, {1, 1, 2, 2}}, ge::DT_FLOAT, 1),
                              "output_shape"));
  }
}

TEST(ConvTransposeTest, AdversarialSizesFailCleanly) {
  OpTester s("ConvTranspose");
  s.AttrInts("strides", {int64_t{1} << 62, 1});
  EXPECT_EQ(ge::GetErrorCode(s.InferShapes({{1, 1, 5, 5}, {1, 1, 2, 2}}, ge::DT_FLOAT, 1)),
            ge::ErrorCode::kOverflow);
  OpTester c("Conv");
  c.AttrInts("dilations", {int64_t{1} << 62, 1});
  EXPECT_EQ(ge::GetErrorCode(c.InferShapes({{1, 1, 5, 5}, {1, 1, 3, 3}}, ge::DT_FLOAT, 1)),
            ge::ErrorCode::kOverflow);
  OpTester z("ConvTranspose");
  EXPECT_TRUE(ErrorContains(z.InferShapes({{1, 1, 0, 5}, {1, 1, 2, 2}}, ge::DT_FLOAT, 1),
                            "spatial dim 0 is 0"));
}

// ------------------------------------------------------------------ ConvInteger / QLinearConv

TEST(ConvIntegerTest, ZeroPointAndPadding) {
  OpTester t("ConvInteger");
  t.Input(T(ge::DT_UINT8, {1, 1, 3, 3}, {2, 3, 4, 5, 6, 7, 8, 9, 10}))
      .Input(T(ge::DT_UINT8, {1, 1, 2, 2}, Ones(4)))
      .Input(T(ge::DT_UINT8, {}, {1}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_INT32);
  EXPECT_TRUE(Near(t.OutValues(0), {12, 16, 24, 28}));

  OpTester p("ConvInteger");
  p.AttrInts("pads", {1, 1, 1, 1})
      .Input(T(ge::DT_UINT8, {1, 1, 3, 3}, {2, 3, 4, 5, 6, 7, 8, 9, 10}))
      .Input(T(ge::DT_UINT8, {1, 1, 2, 2}, Ones(4)))
      .Input(T(ge::DT_UINT8, {}, {1}));
  ASSERT_TRUE(p.Run(1).ok());
  // Padding contributes x_zero_point, i.e. nothing after the subtraction.
  EXPECT_TRUE(Near(p.OutValues(0), {1, 3, 5, 3, 5, 12, 16, 9, 11, 24, 28, 15, 7, 15, 17, 9}));
}

TEST(ConvIntegerTest, SignedWeightsPerChannelZeroPoint) {
  OpTester t("ConvInteger");
  t.Input(T(ge::DT_INT8, {1, 1, 1, 2}, {-3, 4}))
      .Input(T(ge::DT_INT8, {2, 1, 1, 1}, {5, -7}))
      .Absent()
      .Input(T(ge::DT_INT8, {2}, {1, -1}));
  ASSERT_TRUE(t.Run(1).ok());
  // Channel 0 weight 4, channel 1 weight -6.
  EXPECT_TRUE(Near(t.OutValues(0), {-12, 16, 18, -24}));
  OpTester s("ConvInteger");
  ASSERT_TRUE(s.InferShapes({{-1, 1, 4, 4}, {2, 1, 3, 3}}, ge::DT_UINT8, 1).ok());
  EXPECT_EQ(s.InferredShape(0), (gert::Shape{-1, 2, 2, 2}));
  EXPECT_EQ(s.InferredDtype(0), ge::DT_INT32);
}

TEST(QLinearConvTest, RequantizesWithRoundingAndSaturation) {
  OpTester t("QLinearConv");
  t.Input(T(ge::DT_UINT8, {1, 1, 2, 2}, {10, 20, 30, 40}))  // real 0, 5, 10, 15
      .Input(F32({}, {0.5}))
      .Input(T(ge::DT_UINT8, {}, {10}))
      .Input(T(ge::DT_UINT8, {1, 1, 1, 1}, {4}))  // real 0.5
      .Input(F32({}, {0.25}))
      .Input(T(ge::DT_UINT8, {}, {2}))
      .Input(F32({}, {0.5}))
      .Input(T(ge::DT_UINT8, {}, {5}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_UINT8);
  EXPECT_TRUE(Near(t.OutValues(0), {5, 10, 15, 20}));

  // Bias 2 (acc units): 0.25 * (acc + 2) = 0.5, 5.5, 10.5, 15.5 -> half to even.
  OpTester b("QLinearConv");
  b.Input(T(ge::DT_UINT8, {1, 1, 2, 2}, {10, 20, 30, 40}))
      .Input(F32({}, {0.5}))
      .Input(T(ge::DT_UINT8, {}, {10}))
      .Input(T(ge::DT_UINT8, {1, 1, 1, 1}, {4}))
      .Input(F32({}, {0.25}))
      .Input(T(ge::DT_UINT8, {}, {2}))
      .Input(F32({}, {0.5}))
      .Input(T(ge::DT_UINT8, {}, {250}))
      .Input(T(ge::DT_INT32, {1}, {2}));
  ASSERT_TRUE(b.Run(1).ok());
  EXPECT_TRUE(Near(b.OutValues(0), {250, 255, 255, 255}));
}

TEST(QLinearConvTest, PerChannelScalesAndInt8Output) {
  OpTester t("QLinearConv");
  t.Input(T(ge::DT_INT8, {1, 1, 1, 1}, {10}))
      .Input(F32({}, {1}))
      .Input(T(ge::DT_INT8, {}, {0}))
      .Input(T(ge::DT_INT8, {2, 1, 1, 1}, {3, -3}))
      .Input(F32({2}, {1, 10}))
      .Input(T(ge::DT_INT8, {2}, {0, 0}))
      .Input(F32({}, {1}))
      .Input(T(ge::DT_INT8, {}, {0}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_INT8);
  EXPECT_TRUE(Near(t.OutValues(0), {30, -128}));

  OpTester bad("QLinearConv");
  bad.Input(T(ge::DT_INT8, {1, 1, 1, 1}, {10}))
      .Input(F32({}, {1}))
      .Input(T(ge::DT_INT8, {}, {0}))
      .Input(T(ge::DT_INT8, {2, 1, 1, 1}, {3, -3}))
      .Input(F32({3}, {1, 1, 1}))
      .Input(T(ge::DT_INT8, {}, {0}))
      .Input(F32({}, {1}))
      .Input(T(ge::DT_INT8, {}, {0}));
  EXPECT_TRUE(ErrorContains(bad.Run(1), "w_scale"));
}

// ------------------------------------------------------------------ Col2Im

TEST(Col2ImTest, OverlappingBlocksSum) {
  OpTester t("Col2Im");
  t.Input(F32({1, 4, 4}, Ones(16))).Input(I64({2}, {3, 3})).Input(I64({2}, {2, 2}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 3, 3}));
  EXPECT_TRUE(Near(t.OutValues(0), {1, 2, 1, 2, 4, 2, 1, 2, 1}));
}

TEST(Col2ImTest, NonOverlappingIsInverseOfIm2Col) {
  // 1 channel, 2x2 blocks with stride 2 over a 2x4 image: columns are blocks.
  OpTester t("Col2Im");
  t.AttrInts("strides", {2, 2})
      .Input(F32({1, 4, 2}, {0, 2, 1, 3, 4, 6, 5, 7}))
      .Input(I64({2}, {2, 4}))
      .Input(I64({2}, {2, 2}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(Col2ImTest, InferShapeAndErrors) {
  OpTester t("Col2Im");
  ASSERT_TRUE(t.InferShapes({{1, 4, 4}, {2}, {2}}, ge::DT_FLOAT, 1,
                            {ge::DT_FLOAT, ge::DT_INT64, ge::DT_INT64})
                  .ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{1, -1, -1, -1}));
  OpTester bad("Col2Im");
  bad.Input(F32({1, 4, 5}, Ones(20))).Input(I64({2}, {3, 3})).Input(I64({2}, {2, 2}));
  EXPECT_TRUE(ErrorContains(bad.Run(1), "number of blocks"));
}

}  // namespace
}  // namespace nn
}  // namespace ops
