// ops/nn/pool_test.cc: AveragePool, MaxPool, MaxUnpool, LpPool, global pools.
#include <cmath>
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
using testing::T;

// ------------------------------------------------------------------ AveragePool

TEST(AveragePoolTest, Default2d) {
  OpTester t("AveragePool");
  t.AttrInts("kernel_shape", {2, 2}).Input(Iota(ge::DT_FLOAT, {1, 1, 4, 4}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 3, 3}));
  EXPECT_TRUE(Near(t.OutValues(0), {2.5, 3.5, 4.5, 6.5, 7.5, 8.5, 10.5, 11.5, 12.5}));
}

TEST(AveragePoolTest, CountIncludePad) {
  for (int64_t cip : {0, 1}) {
    OpTester t("AveragePool");
    t.AttrInts("kernel_shape", {3, 3})
        .AttrInts("pads", {1, 1, 1, 1})
        .AttrInt("count_include_pad", cip)
        .Input(Iota(ge::DT_FLOAT, {1, 1, 3, 3}));
    ASSERT_TRUE(t.Run(1).ok());
    const std::vector<double> y = t.OutValues(0);
    ASSERT_EQ(y.size(), 9u);
    if (cip == 0) {
      EXPECT_TRUE(Near({y[0], y[1], y[4], y[8]}, {2, 2.5, 4, 6}));
    } else {
      EXPECT_TRUE(Near({y[0], y[1], y[4], y[8]}, {8.0 / 9, 15.0 / 9, 4, 24.0 / 9}));
    }
  }
}

TEST(AveragePoolTest, CeilModeAndDroppedWindow) {
  OpTester t("AveragePool");
  t.AttrInts("kernel_shape", {3, 3})
      .AttrInts("strides", {2, 2})
      .AttrInt("ceil_mode", 1)
      .Input(Iota(ge::DT_FLOAT, {1, 1, 4, 4}, 1));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 2, 2}));
  EXPECT_TRUE(Near(t.OutValues(0), {6, 7.5, 12, 13.5}));

  // in 5, k 2, s 2: the third window [4, 6) is partial and kept.
  OpTester p("AveragePool");
  p.AttrInts("kernel_shape", {2}).AttrInts("strides", {2}).AttrInt("ceil_mode", 1);
  p.Input(F32({1, 1, 5}, {1, 2, 3, 4, 10}));
  ASSERT_TRUE(p.Run(1).ok());
  EXPECT_TRUE(Near(p.OutValues(0), {1.5, 3.5, 10}));

  // in 4, pad_end 1: a third window would start in the padding and is dropped.
  OpTester d("AveragePool");
  d.AttrInts("kernel_shape", {2}).AttrInts("strides", {2}).AttrInts("pads", {0, 1});
  d.AttrInt("ceil_mode", 1);
  ASSERT_TRUE(d.InferShapes({{1, 1, 4}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(d.InferredShape(0), (gert::Shape{1, 1, 2}));
}

TEST(AveragePoolTest, SamePaddingExcludesPads) {
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER"}) {
    OpTester t("AveragePool");
    t.AttrInts("kernel_shape", {2}).AttrStr("auto_pad", mode);
    t.Input(F32({1, 1, 5}, {1, 2, 3, 4, 5}));
    ASSERT_TRUE(t.Run(1).ok()) << mode;
    const std::vector<double> want = std::string(mode) == "SAME_UPPER"
                                         ? std::vector<double>{1.5, 2.5, 3.5, 4.5, 5}
                                         : std::vector<double>{1, 1.5, 2.5, 3.5, 4.5};
    EXPECT_TRUE(Near(t.OutValues(0), want)) << mode;
  }
}

TEST(AveragePoolTest, ThreeDimensionalAndFloat16) {
  OpTester t("AveragePool");
  t.AttrInts("kernel_shape", {2, 2, 2}).Input(Iota(ge::DT_FLOAT16, {1, 2, 2, 2, 2}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 2, 1, 1, 1}));
  EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_FLOAT16);
  EXPECT_TRUE(Near(t.OutValues(0), {3.5, 11.5}));
}

TEST(AveragePoolTest, InferShapes) {
  OpTester t("AveragePool");
  t.AttrInts("kernel_shape", {3, 3}).AttrInts("strides", {2, 2});
  ASSERT_TRUE(t.InferShapes({{-1, 3, 9, -1}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 3, 4, -1}));
  ASSERT_TRUE(t.InferShapes({{-2}}, ge::DT_FLOAT, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, -1, -1, -1}));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 3, 9}}, ge::DT_FLOAT, 1), "kernel_shape"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{9, 9}}, ge::DT_FLOAT, 1), "rank 2"));
  OpTester m("AveragePool");
  EXPECT_TRUE(ErrorContains(m.InferShapes({{1, 3, 9, 9}}, ge::DT_FLOAT, 1),
                            "missing required attribute kernel_shape"));
}

// ------------------------------------------------------------------ MaxPool

TEST(MaxPoolTest, Default2dWithIndices) {
  OpTester t("MaxPool");
  t.AttrInts("kernel_shape", {2, 2}).Input(Iota(ge::DT_FLOAT, {1, 2, 3, 3}));
  ASSERT_TRUE(t.Run(2).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 2, 2, 2}));
  EXPECT_EQ(t.Out(1).GetDataType(), ge::DT_INT64);
  EXPECT_TRUE(Near(t.OutValues(0), {4, 5, 7, 8, 13, 14, 16, 17}));
  // Indices are flat over the whole input (channel 1 starts at 9).
  EXPECT_TRUE(Near(t.OutValues(1), {4, 5, 7, 8, 13, 14, 16, 17}));
}

TEST(MaxPoolTest, IndicesIsOptional) {
  const ge::OpRegistrationData* reg = ge::OpRegistry::Instance().Find("MaxPool");
  ASSERT_NE(reg, nullptr);
  ASSERT_EQ(reg->outputs.size(), 2u);
  EXPECT_EQ(reg->outputs[1].kind, ge::IoKind::kOptional);
  OpTester t("MaxPool");
  t.AttrInts("kernel_shape", {2, 2}).Input(Iota(ge::DT_FLOAT, {1, 1, 3, 3}));
  ASSERT_TRUE(t.Run(2, {1}).ok());
  EXPECT_TRUE(Near(t.OutValues(0), {4, 5, 7, 8}));
  EXPECT_FALSE(t.HasOut(1));
}

TEST(MaxPoolTest, StorageOrderColumnMajor) {
  for (int64_t order : {0, 1}) {
    OpTester t("MaxPool");
    t.AttrInts("kernel_shape", {2, 2})
        .AttrInts("strides", {2, 2})
        .AttrInt("storage_order", order)
        .Input(Iota(ge::DT_FLOAT, {1, 1, 5, 5}, 1));
    ASSERT_TRUE(t.Run(2).ok());
    EXPECT_TRUE(Near(t.OutValues(0), {7, 9, 17, 19}));
    EXPECT_TRUE(Near(t.OutValues(1), order == 0 ? std::vector<double>{6, 8, 16, 18}
                                                : std::vector<double>{6, 16, 8, 18}));
  }
}

TEST(MaxPoolTest, DilationsCeilAndPads) {
  OpTester d("MaxPool");
  d.AttrInts("kernel_shape", {2, 2}).AttrInts("dilations", {2, 2});
  d.Input(Iota(ge::DT_FLOAT, {1, 1, 4, 4}, 1));
  ASSERT_TRUE(d.Run(1).ok());
  EXPECT_TRUE(Near(d.OutValues(0), {11, 12, 15, 16}));

  OpTester c("MaxPool");
  c.AttrInts("kernel_shape", {3, 3}).AttrInts("strides", {2, 2}).AttrInt("ceil_mode", 1);
  c.Input(Iota(ge::DT_FLOAT, {1, 1, 4, 4}, 1));
  ASSERT_TRUE(c.Run(1).ok());
  EXPECT_TRUE(Near(c.OutValues(0), {11, 12, 15, 16}));

  // Padding never wins, even against negative values.
  OpTester p("MaxPool");
  p.AttrInts("kernel_shape", {3}).AttrInts("pads", {1, 1});
  p.Input(F32({1, 1, 3}, {-5, -2, -9}));
  ASSERT_TRUE(p.Run(2).ok());
  EXPECT_TRUE(Near(p.OutValues(0), {-2, -2, -2}));
  EXPECT_TRUE(Near(p.OutValues(1), {1, 1, 1}));
}

TEST(MaxPoolTest, IntegerAndHalfTypes) {
  OpTester u("MaxPool");
  u.AttrInts("kernel_shape", {2, 2}).Input(T(ge::DT_UINT8, {1, 1, 2, 2}, {1, 200, 3, 4}));
  ASSERT_TRUE(u.Run(1).ok());
  EXPECT_EQ(u.Out(0).GetDataType(), ge::DT_UINT8);
  EXPECT_TRUE(Near(u.OutValues(0), {200}));
  OpTester s("MaxPool");
  s.AttrInts("kernel_shape", {2}).Input(T(ge::DT_INT8, {1, 1, 3}, {-5, -3, -128}));
  ASSERT_TRUE(s.Run(1).ok());
  EXPECT_TRUE(Near(s.OutValues(0), {-3, -3}));
  OpTester h("MaxPool");
  h.AttrInts("kernel_shape", {2}).Input(T(ge::DT_FLOAT16, {1, 1, 3}, {0.5, -1, 1.25}));
  ASSERT_TRUE(h.Run(1).ok());
  EXPECT_TRUE(Near(h.OutValues(0), {0.5, 1.25}));
}

TEST(MaxPoolTest, InferShapesAndErrors) {
  OpTester t("MaxPool");
  t.AttrInts("kernel_shape", {3}).AttrStr("auto_pad", "SAME_LOWER").AttrInts("strides", {2});
  ASSERT_TRUE(t.InferShapes({{-1, 4, 11}}, ge::DT_FLOAT, 2).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 4, 6}));
  EXPECT_EQ(t.InferredShape(1), (gert::Shape{-1, 4, 6}));
  EXPECT_EQ(t.InferredDtype(1), ge::DT_INT64);
  OpTester b("MaxPool");
  b.AttrInts("kernel_shape", {3}).AttrInt("storage_order", 2);
  b.Input(F32({1, 1, 3}, {1, 2, 3}));
  EXPECT_TRUE(ErrorContains(b.Run(1), "storage_order"));
  OpTester k("MaxPool");
  k.AttrInts("kernel_shape", {0});
  EXPECT_TRUE(ErrorContains(k.InferShapes({{1, 1, 3}}, ge::DT_FLOAT, 1), "kernel_shape"));
  OpTester d("MaxPool");
  d.AttrInts("kernel_shape", {2}).AttrInts("dilations", {1, 1});
  EXPECT_TRUE(ErrorContains(d.InferShapes({{1, 1, 3}}, ge::DT_FLOAT, 1), "dilations"));
}

// ------------------------------------------------------------------ MaxUnpool

TEST(MaxUnpoolTest, DefaultAndExplicitOutputShape) {
  OpTester t("MaxUnpool");
  t.AttrInts("kernel_shape", {2, 2})
      .AttrInts("strides", {2, 2})
      .Input(F32({1, 1, 2, 2}, {1, 2, 3, 4}))
      .Input(I64({1, 1, 2, 2}, {5, 7, 13, 15}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 4, 4}));
  EXPECT_TRUE(Near(t.OutValues(0), {0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 0, 0, 3, 0, 4}));

  OpTester o("MaxUnpool");
  o.AttrInts("kernel_shape", {2, 2})
      .AttrInts("strides", {2, 2})
      .Input(F32({1, 1, 2, 2}, {1, 2, 3, 4}))
      .Input(I64({1, 1, 2, 2}, {5, 7, 13, 15}))
      .Input(I64({4}, {1, 1, 5, 5}));
  ASSERT_TRUE(o.Run(1).ok());
  ASSERT_EQ(o.Out(0).GetShape(), (gert::Shape{1, 1, 5, 5}));
  // Indices address the default 4x4 output; its elements keep their
  // coordinates in the 5x5 one (ONNX test_maxunpool_export_with_output_shape).
  std::vector<double> want(25, 0);
  want[6] = 1;
  want[8] = 2;
  want[16] = 3;
  want[18] = 4;
  EXPECT_TRUE(Near(o.OutValues(0), want));
}

TEST(MaxUnpoolTest, DataDependentShapeIsAllocatedByTheKernel) {
  OpTester t("MaxUnpool");
  t.AttrInts("kernel_shape", {2})
      .HideInputValues()
      .Input(F32({1, 1, 2}, {1, 2}))
      .Input(I64({1, 1, 2}, {1, 2}))
      .Input(I64({3}, {1, 1, 5}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{1, 1, -1}));
  EXPECT_EQ(t.allocator_calls(), 1);
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 5}));
  EXPECT_TRUE(Near(t.OutValues(0), {0, 1, 2, 0, 0}));
}

TEST(PoolTest, AdversarialSizesFailCleanly) {
  OpTester k("MaxPool");
  k.AttrInts("kernel_shape", {int64_t{1} << 40}).AttrInts("pads", {int64_t{1} << 39, 0});
  EXPECT_TRUE(ErrorContains(k.InferShapes({{1, 1, 3}}, ge::DT_FLOAT, 1), "smaller than"));
  OpTester d("MaxPool");
  d.AttrInts("kernel_shape", {3}).AttrInts("dilations", {int64_t{1} << 62});
  EXPECT_EQ(ge::GetErrorCode(d.InferShapes({{1, 1, 3}}, ge::DT_FLOAT, 1)),
            ge::ErrorCode::kOverflow);
  OpTester u("MaxUnpool");
  u.AttrInts("kernel_shape", {2}).AttrInts("strides", {int64_t{1} << 62});
  EXPECT_EQ(ge::GetErrorCode(u.InferShapes({{1, 1, 4}, {1, 1, 4}}, ge::DT_FLOAT, 1,
                                           {ge::DT_FLOAT, ge::DT_INT64})),
            ge::ErrorCode::kOverflow);
  // A huge kernel with matching pads is fine: only the taps inside count.
  OpTester a("AveragePool");
  a.AttrInts("kernel_shape", {int64_t{1} << 40})
      .AttrInts("pads", {int64_t{1} << 39, int64_t{1} << 39})
      .Input(F32({1, 1, 3}, {1, 2, 6}));
  ASSERT_TRUE(a.Run(1).ok());
  EXPECT_TRUE(Near(a.OutValues(0), {3, 3, 3, 3}));  // (3 + 2^40 - 2^40) / 1 + 1 windows
}

TEST(MaxUnpoolTest, InferAndErrors) {
  OpTester t("MaxUnpool");
  t.AttrInts("kernel_shape", {2, 2}).AttrInts("strides", {2, 2});
  ASSERT_TRUE(
      t.InferShapes({{-1, 3, 4, 5}, {-1, 3, 4, 5}}, ge::DT_FLOAT, 1, {ge::DT_FLOAT, ge::DT_INT64})
          .ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 3, 8, 10}));
  // output_shape present but unknown: rank known, dims unknown.
  ASSERT_TRUE(t.InferShapes({{2, 3, 4, 5}, {2, 3, 4, 5}, {4}}, ge::DT_FLOAT, 1,
                            {ge::DT_FLOAT, ge::DT_INT64, ge::DT_INT64})
                  .ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{2, 3, -1, -1}));
  EXPECT_TRUE(ErrorContains(
      t.InferShapes({{2, 3, 4, 5}, {2, 3, 4, 4}}, ge::DT_FLOAT, 1, {ge::DT_FLOAT, ge::DT_INT64}),
      "(I) shape"));

  OpTester r("MaxUnpool");
  r.AttrInts("kernel_shape", {2}).Input(F32({1, 1, 2}, {1, 2})).Input(I64({1, 1, 2}, {0, 3}));
  const ge::Status s = r.Run(1);
  EXPECT_TRUE(ErrorContains(s, "(3) is outside"));
  EXPECT_EQ(ge::GetErrorCode(s), ge::ErrorCode::kOutOfRange);
}

// ------------------------------------------------------------------ LpPool

TEST(LpPoolTest, NormsOverWindows) {
  struct Case {
    int64_t p;
    std::vector<double> want;
  };
  for (const Case& c : {Case{1, {7, 4}}, Case{2, {5, 4}}, Case{3, {std::cbrt(91.0), 4}}}) {
    OpTester t("LpPool");
    t.AttrInts("kernel_shape", {1, 2}).AttrInt("p", c.p).Input(F32({1, 1, 1, 3}, {3, -4, 0}));
    ASSERT_TRUE(t.Run(1).ok()) << c.p;
    EXPECT_TRUE(Near(t.OutValues(0), c.want)) << c.p;
  }
  OpTester b("LpPool");
  b.AttrInts("kernel_shape", {2}).AttrInt("p", 0);
  EXPECT_TRUE(ErrorContains(b.InferShapes({{1, 1, 3}}, ge::DT_FLOAT, 1), "attribute p"));
}

// ------------------------------------------------------------------ global pools

TEST(GlobalPoolTest, AverageAndMax) {
  OpTester a("GlobalAveragePool");
  a.Input(Iota(ge::DT_FLOAT, {1, 2, 2, 2}));
  ASSERT_TRUE(a.Run(1).ok());
  EXPECT_EQ(a.Out(0).GetShape(), (gert::Shape{1, 2, 1, 1}));
  EXPECT_TRUE(Near(a.OutValues(0), {1.5, 5.5}));
  OpTester m("GlobalMaxPool");
  m.Input(F32({2, 1, 3}, {1, 9, 2, -3, -1, -2}));
  ASSERT_TRUE(m.Run(1).ok());
  EXPECT_EQ(m.Out(0).GetShape(), (gert::Shape{2, 1, 1}));
  EXPECT_TRUE(Near(m.OutValues(0), {9, -1}));
  OpTester s("GlobalAveragePool");
  ASSERT_TRUE(s.InferShapes({{-1, 8, -1, 7, 7}}, ge::DT_DOUBLE, 1).ok());
  EXPECT_EQ(s.InferredShape(0), (gert::Shape{-1, 8, 1, 1, 1}));
  EXPECT_TRUE(ErrorContains(s.InferShapes({{8}}, ge::DT_FLOAT, 1), "rank 1"));
}

}  // namespace
}  // namespace nn
}  // namespace ops
