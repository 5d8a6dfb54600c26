// ops/array/array_range_test.cc
//
// Shape ranges through the array ops' infer functions: inputs with -1 dims
// and recorded ranges give output ranges; conflicting ranges are errors that
// name the node.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/shape_range.h"

namespace ops {
namespace {

using namespace op_test;  // NOLINT(build/namespaces): the shared test runner
using ::testing::ElementsAre, ::testing::HasSubstr, ::testing::Pair;

constexpr int64_t kInf = kUnboundedDim;

In Value(const gert::HostTensor& t) { return In{t.GetShape(), t.GetDataType(), &t.tensor()}; }

TEST(ArrayRangeTest, NoInputRangeGivesNoOutputRange) {
  InferResult r = Infer("Transpose", {{gert::Shape{-1, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.ranges[0].empty());
}

TEST(ArrayRangeTest, TransposePermutesRanges) {
  InferResult r = Infer("Transpose", {Ranged({-1, 3, -1}, {{1, 4}, {3, 3}, {2, kInf}})}, 1,
                        Attrs().Set<std::vector<int64_t>>("perm", {2, 0, 1}));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1, 3}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, kInf), Pair(1, 4), Pair(3, 3)));
}

TEST(ArrayRangeTest, ConcatSumsTheAxisAndIntersectsTheRest) {
  InferResult r =
      Infer("Concat", {Ranged({-1, -1}, {{1, 4}, {2, 8}}), Ranged({3, -1}, {{3, 3}, {5, 10}})}, 1,
            Attrs().Set<int64_t>("axis", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(4, 7), Pair(5, 8)));

  r = Infer("Concat", {Ranged({-1, -1}, {{1, 4}, {2, 3}}), Ranged({3, -1}, {{3, 3}, {5, 10}})}, 1,
            Attrs().Set<int64_t>("axis", 0));
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_Concat"));
  EXPECT_THAT(Msg(r.status), HasSubstr("input 1 dim 1"));
}

TEST(ArrayRangeTest, SplitEqualAndUnknownPieces) {
  InferResult r =
      Infer("Split", {Ranged({-1, 5}, {{4, 12}, {5, 5}})}, 2, Attrs().Set<int64_t>("axis", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 6), Pair(5, 5)));
  EXPECT_THAT(r.ranges[1], ElementsAre(Pair(2, 6), Pair(5, 5)));
}

TEST(ArrayRangeTest, SliceBoundsSlicedAxesByTheInput) {
  gert::HostTensor starts = Make(ge::DT_INT64, {1}, {1});
  gert::HostTensor ends = Make(ge::DT_INT64, {1}, {100});
  gert::HostTensor axes = Make(ge::DT_INT64, {1}, {1});
  InferResult r =
      Infer("Slice", {Ranged({-1, -1}, {{2, 3}, {1, 9}}), Value(starts), Value(ends), Value(axes)});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 3), Pair(0, 9)));
}

TEST(ArrayRangeTest, PadTileExpand) {
  gert::HostTensor pads = Make(ge::DT_INT64, {4}, {0, 1, 0, 2});
  InferResult r = Infer("Pad", {Ranged({-1, -1}, {{2, 3}, {1, 9}}), Value(pads)});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 3), Pair(4, 12)));

  gert::HostTensor reps = Make(ge::DT_INT64, {2}, {2, 3});
  r = Infer("Tile", {Ranged({-1, -1}, {{2, 3}, {1, kInf}}), Value(reps)});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(4, 6), Pair(3, kInf)));

  // A ranged -1 dim broadcast against a known target dim.
  gert::HostTensor shape = Make(ge::DT_INT64, {3}, {2, 1, 6});
  r = Infer("Expand", {Ranged({-1, -1}, {{1, 4}, {1, 6}}), Value(shape)});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{2, -1, 6}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 2), Pair(1, 4), Pair(6, 6)));

  gert::HostTensor bad = Make(ge::DT_INT64, {1}, {7});
  r = Infer("Expand", {Ranged({-1}, {{2, 4}}), Value(bad)});
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_Expand"));
}

TEST(ArrayRangeTest, ReshapeFlattenSqueezeUnsqueeze) {
  gert::HostTensor spec = Make(ge::DT_INT64, {2}, {0, -1});
  InferResult r = Infer("Reshape", {Ranged({-1, 4, 3}, {{1, 8}, {4, 4}, {3, 3}}), Value(spec)});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1}));
  // dim 0 copies [1, 8]; the -1 dim is [4, 96] / [1, 8]: at most 96.
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 8), Pair(0, 96)));

  gert::HostTensor spec2 = Make(ge::DT_INT64, {2}, {-1, 6});
  r = Infer("Reshape", {Ranged({-1, 4, 3}, {{1, 8}, {4, 4}, {3, 3}}), Value(spec2)});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 16), Pair(6, 6)));

  r = Infer("Flatten", {Ranged({-1, 3, -1}, {{1, 2}, {3, 3}, {4, 5}})}, 1,
            Attrs().Set<int64_t>("axis", 1));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 2), Pair(12, 15)));

  gert::HostTensor axes = Make(ge::DT_INT64, {1}, {1});
  r = Infer("Squeeze", {Ranged({-1, -1, 3}, {{2, 5}, {1, 1}, {3, 3}}), Value(axes)});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 5), Pair(3, 3)));
  r = Infer("Squeeze", {Ranged({-1, -1, 3}, {{2, 5}, {2, 3}, {3, 3}}), Value(axes)});
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("excludes 1"));

  gert::HostTensor uaxes = Make(ge::DT_INT64, {2}, {0, -1});
  r = Infer("Unsqueeze", {Ranged({-1}, {{2, 5}}), Value(uaxes)});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 1), Pair(2, 5), Pair(1, 1)));
}

TEST(ArrayRangeTest, GatherCombinesDataAndIndices) {
  InferResult r =
      Infer("Gather",
            {Ranged({-1, 4, -1}, {{1, 3}, {4, 4}, {6, 7}}), Ranged({-1}, {{0, 10}}, ge::DT_INT64)},
            1, Attrs().Set<int64_t>("axis", 1));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 3), Pair(0, 10), Pair(6, 7)));
}

TEST(ArrayRangeTest, UnknownRankStaysUnknown) {
  InferResult r = Infer("Concat", {Ranged({-1}, {{1, 2}}), {UnknownRank()}}, 1,
                        Attrs().Set<int64_t>("axis", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_TRUE(r.ranges[0].empty());
}

// ---------------------------------------------------------------- gather / scatter

TEST(ArrayRangeTest, GatherElementsTakesTheIndicesRange) {
  InferResult r =
      Infer("GatherElements",
            {Ranged({-1, 4}, {{2, 9}, {4, 4}}), Ranged({-1, 4}, {{1, 3}, {4, 4}}, ge::DT_INT64)}, 1,
            Attrs().Set<int64_t>("axis", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 3), Pair(4, 4)));
}

TEST(ArrayRangeTest, GatherNdJoinsIndicesAndTrailingDataDims) {
  // data [B, 5, D], indices [B, K, 1] with batch_dims 1 -> [B, K, D].
  InferResult r = Infer("GatherND",
                        {Ranged({-1, 5, -1}, {{2, 6}, {5, 5}, {3, 7}}),
                         Ranged({-1, -1, 1}, {{4, 8}, {0, 10}, {1, 1}}, ge::DT_INT64)},
                        1, Attrs().Set<int64_t>("batch_dims", 1));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1, -1}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(4, 6), Pair(0, 10), Pair(3, 7)));

  // Batch dims whose ranges cannot meet are an error naming the node.
  r = Infer("GatherND",
            {Ranged({-1, 5, -1}, {{2, 3}, {5, 5}, {3, 7}}),
             Ranged({-1, -1, 1}, {{4, 8}, {0, 10}, {1, 1}}, ge::DT_INT64)},
            1, Attrs().Set<int64_t>("batch_dims", 1));
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_GatherND"));
  EXPECT_THAT(Msg(r.status), HasSubstr("batch dim 0"));
}

TEST(ArrayRangeTest, ScattersKeepTheDataRange) {
  InferResult r = Infer(
      "ScatterElements",
      {Ranged({-1, 3}, {{2, 5}, {3, 3}}), {gert::Shape{1, 3}, ge::DT_INT64}, {gert::Shape{1, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 5), Pair(3, 3)));

  r = Infer(
      "ScatterND",
      {Ranged({-1, 3}, {{2, 5}, {3, 3}}), {gert::Shape{2, 1}, ge::DT_INT64}, {gert::Shape{2, 3}}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 5), Pair(3, 3)));
}

// ---------------------------------------------------------------- data-dependent sizes

TEST(ArrayRangeTest, NonZeroCountIsBoundedByTheElementCount) {
  InferResult r = Infer("NonZero", {Ranged({-1, 3}, {{1, 4}, {3, 3}})});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{2, -1}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 2), Pair(0, 12)));

  // A fully known input bounds the count even with no range recorded.
  r = Infer("NonZero", {{gert::Shape{2, 5}}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 2), Pair(0, 10)));

  // Unbounded input: unbounded count.
  r = Infer("NonZero", {Ranged({-1, 3}, {{1, kInf}, {3, 3}})});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 2), Pair(0, kInf)));
}

TEST(ArrayRangeTest, UniqueCountsAndInverse) {
  InferResult r = Infer("Unique", {Ranged({-1, 2}, {{1, 5}, {2, 2}})}, 4);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(0, 10)));  // Y
  EXPECT_THAT(r.ranges[1], ElementsAre(Pair(0, 10)));  // indices
  EXPECT_THAT(r.ranges[2], ElementsAre(Pair(2, 10)));  // inverse_indices: every element
  EXPECT_THAT(r.ranges[3], ElementsAre(Pair(0, 10)));  // counts

  r = Infer("Unique", {Ranged({-1, 2}, {{1, 5}, {2, 2}})}, 4, Attrs().Set<int64_t>("axis", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 2}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(0, 5), Pair(2, 2)));
  EXPECT_THAT(r.ranges[2], ElementsAre(Pair(1, 5)));
}

TEST(ArrayRangeTest, CompressWithAndWithoutAxis) {
  InferResult r =
      Infer("Compress", {Ranged({-1, 3}, {{2, 4}, {3, 3}}), {gert::Shape{-1}, ge::DT_BOOL}}, 1,
            Attrs().Set<int64_t>("axis", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(0, 4), Pair(3, 3)));

  r = Infer("Compress", {Ranged({-1, 3}, {{2, 4}, {3, 3}}), {gert::Shape{-1}, ge::DT_BOOL}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(0, 12)));
}

TEST(ArrayRangeTest, TopKWithUnknownAndKnownK) {
  InferResult r =
      Infer("TopK", {Ranged({-1, 7}, {{1, 3}, {7, 7}}), {gert::Shape{1}, ge::DT_INT64}}, 2);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 3), Pair(0, 7)));
  EXPECT_THAT(r.ranges[1], ElementsAre(Pair(1, 3), Pair(0, 7)));

  gert::HostTensor k = Make(ge::DT_INT64, {1}, {2});
  r = Infer("TopK", {Ranged({-1, 7}, {{1, 3}, {7, 7}}), Value(k)}, 2);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 3), Pair(2, 2)));

  // Known x, unknown k: k's range comes from the axis dim.
  r = Infer("TopK", {{gert::Shape{4, 6}}, {gert::Shape{1}, ge::DT_INT64}}, 2);
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(4, 4), Pair(0, 6)));
}

TEST(ArrayRangeTest, RangeCountFromKnownEnds) {
  gert::HostTensor start = Make(ge::DT_INT64, {}, {2});
  gert::HostTensor limit = Make(ge::DT_INT64, {}, {12});
  InferResult r = Infer("Range", {Value(start), Value(limit), {gert::Shape{}, ge::DT_INT64}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1}));
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(0, 10)));

  r = Infer("Range", {{gert::Shape{}, ge::DT_INT64}, Value(limit), {gert::Shape{}, ge::DT_INT64}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(0, kInf)));
}

TEST(ArrayRangeTest, OneHotInsertsTheDepth) {
  gert::HostTensor depth = Make(ge::DT_INT64, {}, {5});
  gert::HostTensor values = Make(ge::DT_FLOAT, {2}, {0, 1});
  InferResult r =
      Infer("OneHot", {Ranged({-1}, {{1, 8}}, ge::DT_INT64), Value(depth), Value(values)}, 1,
            Attrs().Set<int64_t>("axis", -1));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 8), Pair(5, 5)));

  r = Infer("OneHot",
            {Ranged({-1}, {{1, 8}}, ge::DT_INT64), {gert::Shape{}, ge::DT_INT64}, Value(values)}, 1,
            Attrs().Set<int64_t>("axis", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(0, kInf), Pair(1, 8)));
}

TEST(ArrayRangeTest, ShapeAndSameShapeOps) {
  InferResult r = Infer("Shape", {Ranged({-1, 3}, {{1, 4}, {3, 3}})});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 2)));
  r = Infer("Shape", {{UnknownRank()}});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(0, static_cast<int64_t>(gert::kMaxDimNum))));

  for (const char* op : {"Trilu", "EyeLike"}) {
    r = Infer(op, {Ranged({-1, 3}, {{2, 6}, {3, 3}})});
    ASSERT_TRUE(r.status.ok()) << op << ": " << r.status;
    EXPECT_THAT(r.ranges[0], ElementsAre(Pair(2, 6), Pair(3, 3))) << op;
  }

  // ReverseSequence: the batch dim also meets sequence_lens' length.
  r = Infer("ReverseSequence",
            {Ranged({-1, -1, 2}, {{1, 9}, {2, 8}, {2, 2}}), Ranged({-1}, {{4, 20}}, ge::DT_INT64)},
            1, Attrs().Set<int64_t>("batch_axis", 1).Set<int64_t>("time_axis", 0));
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 9), Pair(4, 8), Pair(2, 2)));
  r = Infer("ReverseSequence",
            {Ranged({-1, -1, 2}, {{1, 9}, {2, 3}, {2, 2}}), Ranged({-1}, {{4, 20}}, ge::DT_INT64)},
            1, Attrs().Set<int64_t>("batch_axis", 1).Set<int64_t>("time_axis", 0));
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_ReverseSequence"));
}

TEST(ArrayRangeTest, ResizeScalesMapTheRange) {
  gert::HostTensor scales = Make(ge::DT_FLOAT, {4}, {1, 1, 2, 0.5});
  InferResult r = Infer("Resize", {Ranged({1, 3, -1, -1}, {{1, 1}, {3, 3}, {4, 10}, {5, kInf}}),
                                   AbsentIn(), Value(scales)});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_THAT(r.ranges[0], ElementsAre(Pair(1, 1), Pair(3, 3), Pair(8, 20), Pair(2, kInf)));
}

TEST(ArrayRangeTest, BadInputRangeNamesTheNodeAndInput) {
  InferResult r = Infer("Transpose", {Ranged({-1, 3}, {{1, 4}})}, 1);
  ASSERT_FALSE(r.status.ok());
  EXPECT_THAT(Msg(r.status), HasSubstr("node_Transpose"));
  EXPECT_THAT(Msg(r.status), HasSubstr("input 0"));
}

}  // namespace
}  // namespace ops
