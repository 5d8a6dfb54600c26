// ops/detection/detection_test.cc: NonMaxSuppression.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ops/common/onnx_case_runner.h"
#include "ops/rnn/case_loader.h"
#include "ops/rnn/op_tester.h"

namespace ops {
namespace {

using optest::ErrorContains;
using optest::F32;
using optest::I64;
using optest::Near;
using optest::OpTester;

// ONNX 1.12 nonmaxsuppression node tests.
OPS_ONNX_CASE_SUITE(DetectionOnnxTest,
                    optest::LoadCasesOrDie("ops/detection/testdata/onnx_cases.txt"),
                    testing::CompareOptions());

// Box 1 overlaps box 0 with IOU 0.9 / 1.1 = 0.818; box 2 is apart.
const std::vector<double> kBoxes = {0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, 2, 1, 3};

std::vector<double> RunNms(OpTester& t) {
  ge::Status st = t.Run(1);
  EXPECT_TRUE(st.ok()) << st;
  if (!st.ok()) return {};
  EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_INT64);
  EXPECT_EQ(t.Out(0).GetShape().GetDimNum(), 2u);
  EXPECT_EQ(t.Out(0).GetShape().GetDim(1), 3);
  return t.OutValues(0);
}

TEST(NmsTest, SuppressesOverlaps) {
  OpTester t("NonMaxSuppression");
  t.Input(F32({1, 3, 4}, kBoxes))
      .Input(F32({1, 1, 3}, {0.9, 0.8, 0.7}))
      .Input(I64({1}, {3}))
      .Input(F32({1}, {0.5}));
  EXPECT_EQ(RunNms(t), (std::vector<double>{0, 0, 0, 0, 0, 2}));
  // Values known at inference: the exact row count, no allocation by the
  // kernel.
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{2, 3}));
  EXPECT_EQ(t.allocator_calls(), 0);
  // Unknown row count: the kernel allocates the output.
  ASSERT_TRUE(t.RunKernelOnly({{-1, 3}}, {ge::DT_INT64}).ok());
  EXPECT_EQ(t.allocator_calls(), 1);
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{2, 3}));
  EXPECT_EQ(t.OutValues(0), (std::vector<double>{0, 0, 0, 0, 0, 2}));
  // iou_threshold 0.85: nothing overlaps that much.
  OpTester loose("NonMaxSuppression");
  loose.Input(F32({1, 3, 4}, kBoxes))
      .Input(F32({1, 1, 3}, {0.9, 0.8, 0.7}))
      .Input(I64({}, {3}))
      .Input(F32({}, {0.85}));
  EXPECT_EQ(RunNms(loose), (std::vector<double>{0, 0, 0, 0, 0, 1, 0, 0, 2}));
}

TEST(NmsTest, LimitsAndDefaults) {
  // max_output_boxes_per_class absent = 0: no output.
  OpTester none("NonMaxSuppression");
  none.Input(F32({1, 3, 4}, kBoxes)).Input(F32({1, 1, 3}, {0.9, 0.8, 0.7}));
  EXPECT_TRUE(RunNms(none).empty());
  EXPECT_EQ(none.Out(0).GetShape(), (gert::Shape{0, 3}));
  // iou_threshold absent = 0: any overlap suppresses; limit 1.
  OpTester one("NonMaxSuppression");
  one.Input(F32({1, 3, 4}, kBoxes)).Input(F32({1, 1, 3}, {0.7, 0.8, 0.9})).Input(I64({1}, {1}));
  EXPECT_EQ(RunNms(one), (std::vector<double>{0, 0, 2}));
}

TEST(NmsTest, ScoreThresholdIsStrict) {
  OpTester t("NonMaxSuppression");
  t.Input(F32({1, 3, 4}, kBoxes))
      .Input(F32({1, 1, 3}, {0.9, 0.8, 0.7}))
      .Input(I64({1}, {10}))
      .Input(F32({1}, {0.5}))
      .Input(F32({1}, {0.7}));
  EXPECT_EQ(RunNms(t), (std::vector<double>{0, 0, 0}));
}

TEST(NmsTest, TiesPreferLowerIndexAndCenterFormat) {
  // Center format: boxes 0 and 2 identical (IOU 1), box 1 apart; equal
  // scores keep box 0.
  OpTester t("NonMaxSuppression");
  t.AttrInt("center_point_box", 1)
      .Input(F32({1, 3, 4}, {0.5, 0.5, 1, 1, 5, 5, 1, 1, 0.5, 0.5, 1, 1}))
      .Input(F32({1, 1, 3}, {0.6, 0.5, 0.6}))
      .Input(I64({1}, {3}))
      .Input(F32({1}, {0.5}));
  EXPECT_EQ(RunNms(t), (std::vector<double>{0, 0, 0, 0, 0, 1}));
}

TEST(NmsTest, BatchesAndClassesInOrder) {
  // 2 batches x 2 classes, 2 disjoint boxes per batch.
  OpTester t("NonMaxSuppression");
  t.Input(F32({2, 2, 4}, {0, 0, 1, 1, 2, 2, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3}))
      .Input(F32({2, 2, 2}, {0.1, 0.9, 0.8, 0.2, 0.3, 0.4, 0.6, 0.5}))
      .Input(I64({1}, {1}));
  EXPECT_EQ(RunNms(t), (std::vector<double>{0, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 0}));
}

TEST(NmsTest, InferShape) {
  OpTester t("NonMaxSuppression", "nms");
  ASSERT_TRUE(t.InferShapes({{-1, -1, 4}, {-1, 3, -1}, {1}, {1}, {}},
                            {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT64, ge::DT_FLOAT}, 1)
                  .ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 3}));
  EXPECT_EQ(t.InferredDtype(0), ge::DT_INT64);
  ASSERT_TRUE(t.InferShapes({{-2}, {-2}}, {ge::DT_FLOAT}, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 3}));
}

TEST(NmsTest, Errors) {
  OpTester t("NonMaxSuppression", "nms");
  EXPECT_TRUE(ErrorContains(
      t.InferShapes({{1, 3, 5}, {1, 1, 3}}, {ge::DT_FLOAT}, 1),
      "input 0 (boxes) must be [num_batches, spatial_dimension, 4], got [1,3,5]", "nms"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{2, 3, 4}, {1, 1, 3}}, {ge::DT_FLOAT}, 1),
                            "disagree on num_batches", "nms"));
  EXPECT_TRUE(ErrorContains(t.InferShapes({{1, 3, 4}, {1, 1, 4}}, {ge::DT_FLOAT}, 1),
                            "disagree on spatial_dimension", "nms"));
  EXPECT_TRUE(ErrorContains(
      t.InferShapes({{1, 3, 4}, {1, 1, 3}, {2}}, {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT64}, 1),
      "input 2 (max_output_boxes_per_class) must be a scalar", "nms"));
  EXPECT_TRUE(ErrorContains(
      t.InferShapes({{1, 3, 4}, {1, 1, 3}, {1}}, {ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_INT32}, 1),
      "input 2 must be DT_INT64, got DT_INT32", "nms"));
  OpTester iou("NonMaxSuppression", "nms");
  iou.Input(F32({1, 3, 4}, kBoxes))
      .Input(F32({1, 1, 3}, {0.9, 0.8, 0.7}))
      .Input(I64({1}, {3}))
      .Input(F32({1}, {1.5}));
  EXPECT_TRUE(ErrorContains(iou.Run(1), "iou_threshold must be in [0, 1], got 1.5", "nms"));
  OpTester neg("NonMaxSuppression", "nms");
  neg.Input(F32({1, 3, 4}, kBoxes)).Input(F32({1, 1, 3}, {0.9, 0.8, 0.7})).Input(I64({1}, {-1}));
  EXPECT_TRUE(ErrorContains(neg.Run(1), "max_output_boxes_per_class must be >= 0, got -1", "nms"));
  OpTester cpb("NonMaxSuppression", "nms");
  cpb.AttrInt("center_point_box", 2);
  EXPECT_TRUE(ErrorContains(cpb.InferShapes({{1, 3, 4}, {1, 1, 3}}, {ge::DT_FLOAT}, 1),
                            "center_point_box must be 0 or 1", "nms"));
}

TEST(NmsTest, NanScoresSortLast) {
  OpTester t("NonMaxSuppression");
  t.Input(F32({1, 3, 4}, {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}))
      .Input(F32({1, 1, 3}, {std::nan(""), 0.1, 0.2}))
      .Input(I64({1}, {3}));
  EXPECT_EQ(RunNms(t), (std::vector<double>{0, 0, 2, 0, 0, 1, 0, 0, 0}));
}

}  // namespace
}  // namespace ops
