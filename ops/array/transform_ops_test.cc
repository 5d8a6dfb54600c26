// ops/array/transform_ops_test.cc
// Transpose, Concat, Split, Slice, Pad, Tile, Expand, Trilu, ReverseSequence.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/array/array_test_util.h"

namespace ops {
namespace test {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::IsEmpty;

// ---------------------------------------------------------------- Transpose

// Naive transpose of iota([2, 3, 4]) for checking.
std::vector<float> NaiveTranspose(const std::vector<int64_t>& dims,
                                  const std::vector<int64_t>& perm) {
  const int64_t r = static_cast<int64_t>(dims.size());
  std::vector<int64_t> strides(r, 1);
  for (int64_t i = r - 2; i >= 0; --i) strides[i] = strides[i + 1] * dims[i + 1];
  std::vector<int64_t> od(r);
  for (int64_t k = 0; k < r; ++k) od[k] = dims[perm[k]];
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  std::vector<float> out;
  std::vector<int64_t> c(r, 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t off = 0;
    for (int64_t k = 0; k < r; ++k) off += c[k] * strides[perm[k]];
    out.push_back(static_cast<float>(off));
    for (int64_t k = r - 1; k >= 0; --k) {
      if (++c[k] < od[k]) break;
      c[k] = 0;
    }
  }
  return out;
}

TEST(TransposeTest, AllPermutationsOfRank3) {
  // ONNX test_transpose_all_permutations_0..5.
  std::vector<int64_t> perm = {0, 1, 2};
  do {
    OpTester t("Transpose");
    t.Attr<std::vector<int64_t>>("perm", perm).Input(Iota({2, 3, 4}));
    ASSERT_OK(t.Run());
    EXPECT_EQ(t.OutShape(0), (gert::Shape{std::vector<int64_t>{2, 3, 4}[perm[0]],
                                          std::vector<int64_t>{2, 3, 4}[perm[1]],
                                          std::vector<int64_t>{2, 3, 4}[perm[2]]}));
    EXPECT_THAT(t.Values<float>(0), ElementsAreArray(NaiveTranspose({2, 3, 4}, perm)));
  } while (std::next_permutation(perm.begin(), perm.end()));
}

TEST(TransposeTest, DefaultReversesAxesForStrings) {
  OpTester t("Transpose");
  t.Input(Str({2, 3}, {"a", "b", "c", "d", "e", "f"}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{3, 2}));
  EXPECT_THAT(t.Values<std::string>(0), ElementsAre("a", "d", "b", "e", "c", "f"));
}

TEST(TransposeTest, Rank5MatchesNaive) {
  const std::vector<int64_t> perm = {4, 2, 0, 3, 1};
  OpTester t("Transpose");
  t.Attr<std::vector<int64_t>>("perm", perm).Input(Iota({2, 3, 1, 4, 2}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{2, 1, 2, 4, 3}));
  EXPECT_THAT(t.Values<float>(0), ElementsAreArray(NaiveTranspose({2, 3, 1, 4, 2}, perm)));
}

TEST(TransposeInferTest, UnknownDimsAndBadPerm) {
  ge::NamedAttrs a;
  ASSERT_OK(a.SetAttr("perm", ge::AttrValue::CreateFrom<std::vector<int64_t>>({1, 2, 0})));
  auto r = InferOp("Transpose", &a, {In{{-1, 3, 4}}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{3, 4, -1}));
  r = InferOp("Transpose", &a, {In{{-2}}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1, -1}));
  EXPECT_TRUE(IsNodeError(InferOp("Transpose", &a, {In{{2, 3}}}, 1).status, "rank 2"));
  ge::NamedAttrs dup;
  ASSERT_OK(dup.SetAttr("perm", ge::AttrValue::CreateFrom<std::vector<int64_t>>({0, 0})));
  EXPECT_TRUE(IsNodeError(InferOp("Transpose", &dup, {In{{2, 3}}}, 1).status, "not a permutation"));
  ge::NamedAttrs oob;
  ASSERT_OK(oob.SetAttr("perm", ge::AttrValue::CreateFrom<std::vector<int64_t>>({0, 2})));
  EXPECT_TRUE(IsNodeError(InferOp("Transpose", &oob, {In{{2, 3}}}, 1).status, "[0,2]"));
}

// ------------------------------------------------------------------- Concat

TEST(ConcatTest, OnnxTwoDimensional) {
  // test_concat_2d_axis_*: [[1, 2], [3, 4]] and [[5, 6], [7, 8]].
  for (int64_t axis : {0, -2}) {
    OpTester t("Concat");
    t.Attr<int64_t>("axis", axis).Input(F32({2, 2}, {1, 2, 3, 4})).Input(F32({2, 2}, {5, 6, 7, 8}));
    ASSERT_OK(t.Run());
    EXPECT_EQ(t.OutShape(0), (gert::Shape{4, 2}));
    EXPECT_THAT(t.Values<float>(0), ElementsAre(1, 2, 3, 4, 5, 6, 7, 8));
  }
  for (int64_t axis : {1, -1}) {
    OpTester t("Concat");
    t.Attr<int64_t>("axis", axis).Input(F32({2, 2}, {1, 2, 3, 4})).Input(F32({2, 2}, {5, 6, 7, 8}));
    ASSERT_OK(t.Run());
    EXPECT_EQ(t.OutShape(0), (gert::Shape{2, 4}));
    EXPECT_THAT(t.Values<float>(0), ElementsAre(1, 2, 5, 6, 3, 4, 7, 8));
  }
}

TEST(ConcatTest, UnequalAxisSizesAndEmptyInput) {
  OpTester t("Concat");
  t.Attr<int64_t>("axis", 1)
      .Input(I64({2, 1}, {1, 2}))
      .Input(I64({2, 0}, {}))
      .Input(I64({2, 3}, {3, 4, 5, 6, 7, 8}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{2, 4}));
  EXPECT_THAT(t.Values<int64_t>(0), ElementsAre(1, 3, 4, 5, 2, 6, 7, 8));
}

TEST(ConcatTest, Strings) {
  OpTester t("Concat");
  t.Attr<int64_t>("axis", 0).Input(Str({1}, {"x"})).Input(Str({2}, {"yy", "zzz"}));
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<std::string>(0), ElementsAre("x", "yy", "zzz"));
}

TEST(ConcatInferTest, UnknownDimsAndErrors) {
  ge::NamedAttrs a;
  ASSERT_OK(a.SetAttr("axis", ge::AttrValue::CreateFrom<int64_t>(1)));
  auto r = InferOp("Concat", &a, {In{{2, 3}}, In{{-1, 4}}, In{{-2}}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{2, -1}));
  r = InferOp("Concat", &a, {In{{-1, 3}}, In{{5, 4}}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{5, 7}));
  EXPECT_TRUE(IsNodeError(InferOp("Concat", &a, {In{{2, 3}}, In{{3, 3}}}, 1).status, "input 1"));
  EXPECT_TRUE(IsNodeError(InferOp("Concat", &a, {In{{2, 3}}, In{{2, 3, 1}}}, 1).status, "rank 3"));
  ge::NamedAttrs oob;
  ASSERT_OK(oob.SetAttr("axis", ge::AttrValue::CreateFrom<int64_t>(2)));
  EXPECT_TRUE(IsNodeError(InferOp("Concat", &oob, {In{{2, 3}}}, 1).status, "axis 2"));
  ge::NamedAttrs none;
  EXPECT_TRUE(IsNodeError(InferOp("Concat", &none, {In{{2, 3}}}, 1).status, "axis"));
}

TEST(ConcatInferTest, MixedTypesFailVerify) {
  ge::NamedAttrs a;
  ASSERT_OK(a.SetAttr("axis", ge::AttrValue::CreateFrom<int64_t>(0)));
  EXPECT_TRUE(IsNodeError(InferOp("Concat", &a, {In{{2}}, In{{2}, ge::DT_INT32}}, 1).status,
                          "input 1 is DT_INT32"));
  EXPECT_TRUE(IsNodeError(
      InferOp("Pad", &a, {In{{2}}, In{{2}, ge::DT_INT64}, In{{}, ge::DT_DOUBLE}}, 1).status,
      "input 2 is DT_DOUBLE"));
}

// -------------------------------------------------------------------- Split

TEST(SplitTest, VariableParts2d) {
  OpTester t("Split");
  t.Attr<int64_t>("axis", 1)
      .Input(F32({2, 6}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}))
      .Input(I64({2}, {2, 4}))
      .Outputs(2);
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{2, 2}));
  EXPECT_THAT(t.Values<float>(0), ElementsAre(1, 2, 7, 8));
  EXPECT_EQ(t.OutShape(1), (gert::Shape{2, 4}));
  EXPECT_THAT(t.Values<float>(1), ElementsAre(3, 4, 5, 6, 9, 10, 11, 12));
}

TEST(SplitTest, EqualPartsWithoutSplitInput) {
  OpTester t("Split");
  t.Input(F32({6}, {1, 2, 3, 4, 5, 6})).AbsentInput().Outputs(3);
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<float>(0), ElementsAre(1, 2));
  EXPECT_THAT(t.Values<float>(1), ElementsAre(3, 4));
  EXPECT_THAT(t.Values<float>(2), ElementsAre(5, 6));
}

TEST(SplitTest, ZeroSizeSplits) {
  OpTester t("Split");
  t.Input(F32({0}, {})).Input(I64({3}, {0, 0, 0})).Outputs(3);
  ASSERT_OK(t.Run());
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(t.OutShape(i), (gert::Shape{0}));
}

TEST(SplitTest, BoolsAlongAxis0) {
  OpTester t("Split");
  t.Input(Bool({3, 2}, {1, 0, 0, 1, 1, 1})).Input(I64({2}, {1, 2})).Outputs(2);
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<bool>(0), ElementsAre(true, false));
  EXPECT_THAT(t.Values<bool>(1), ElementsAre(false, true, true, true));
}

TEST(SplitInferTest, UnknownAndErrors) {
  ge::NamedAttrs a;
  auto r = InferOp("Split", &a, {In{{6, 2}}, In{{2}, ge::DT_INT64}}, 2);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 2}));
  EXPECT_EQ(r.shapes[1], (gert::Shape{-1, 2}));
  r = InferOp("Split", &a, {In{{-1, 2}}, AbsentIn()}, 2);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[1], (gert::Shape{-1, 2}));
  EXPECT_TRUE(IsNodeError(InferOp("Split", &a, {In{{7, 2}}, AbsentIn()}, 2).status, "equally"));
  gert::HostTensor bad = I64({2}, {3, 3});
  EXPECT_TRUE(IsNodeError(InferOp("Split", &a, {In{{7, 2}}, Val(bad)}, 2).status, "sums to 6"));
  EXPECT_TRUE(IsNodeError(InferOp("Split", &a, {In{{6, 2}}, Val(bad)}, 3).status, "3 outputs"));
}

// -------------------------------------------------------------------- Slice

// Naive slice of iota(dims) with per-axis (start, step, count) after clamping.
std::vector<float> NaiveSlice(const std::vector<int64_t>& dims,
                              const std::vector<std::vector<int64_t>>& picks) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (int64_t i = static_cast<int64_t>(dims.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * dims[i + 1];
  }
  std::vector<float> out;
  std::vector<size_t> c(dims.size(), 0);
  for (const auto& p : picks) {
    if (p.empty()) return out;
  }
  while (true) {
    int64_t off = 0;
    for (size_t k = 0; k < dims.size(); ++k) off += picks[k][c[k]] * strides[k];
    out.push_back(static_cast<float>(off));
    size_t k = dims.size();
    while (k > 0) {
      --k;
      if (++c[k] < picks[k].size()) break;
      c[k] = 0;
      if (k == 0) return out;
    }
  }
}

std::vector<int64_t> Range(int64_t start, int64_t end, int64_t step) {
  std::vector<int64_t> v;
  for (int64_t i = start; step > 0 ? i < end : i > end; i += step) v.push_back(i);
  return v;
}

TEST(SliceTest, OnnxNegativeSteps) {
  // test_slice_neg_steps: [20, 10, 5], starts [20, 10, 4], ends [0, 0, 1],
  // steps [-1, -3, -2] -> [19, 3, 2].
  OpTester t("Slice");
  t.Input(Iota({20, 10, 5}))
      .Input(I64({3}, {20, 10, 4}))
      .Input(I64({3}, {0, 0, 1}))
      .Input(I64({3}, {0, 1, 2}))
      .Input(I64({3}, {-1, -3, -2}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{19, 3, 2}));
  EXPECT_THAT(t.Values<float>(0),
              ElementsAreArray(NaiveSlice({20, 10, 5}, {Range(19, 0, -1), {9, 6, 3}, {4, 2}})));
}

TEST(SliceTest, OnnxBoundsAndDefaults) {
  // test_slice: starts [0, 0], ends [3, 10], axes [0, 1], steps [1, 1].
  OpTester t("Slice");
  t.Input(Iota({20, 10, 5}))
      .Input(I64({2}, {0, 0}))
      .Input(I64({2}, {3, 10}))
      .Input(I64({2}, {0, 1}))
      .Input(I64({2}, {1, 1}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{3, 10, 5}));
  EXPECT_THAT(
      t.Values<float>(0),
      ElementsAreArray(NaiveSlice({20, 10, 5}, {Range(0, 3, 1), Range(0, 10, 1), Range(0, 5, 1)})));
  // test_slice_end_out_of_bounds / start_out_of_bounds.
  OpTester e("Slice");
  e.Input(Iota({20, 10, 5}))
      .Input(I64({1}, {1}))
      .Input(I64({1}, {1000}))
      .Input(I64({1}, {1}))
      .Input(I64({1}, {1}));
  ASSERT_OK(e.Run());
  EXPECT_EQ(e.OutShape(0), (gert::Shape{20, 9, 5}));
  OpTester s("Slice");
  s.Input(Iota({20, 10, 5}))
      .Input(I64({1}, {1000}))
      .Input(I64({1}, {1000}))
      .Input(I64({1}, {1}))
      .Input(I64({1}, {1}));
  ASSERT_OK(s.Run());
  EXPECT_EQ(s.OutShape(0), (gert::Shape{20, 0, 5}));
  // test_slice_negative_axes and default axes / steps with int32 indices.
  OpTester n("Slice");
  n.Input(Iota({20, 10, 5}))
      .Input(I32({3}, {0, 0, 3}))
      .Input(I32({3}, {20, 10, 4}))
      .Input(I32({3}, {0, -2, -1}));
  ASSERT_OK(n.Run());
  EXPECT_EQ(n.OutShape(0), (gert::Shape{20, 10, 1}));
  EXPECT_THAT(n.Values<float>(0),
              ElementsAreArray(NaiveSlice({20, 10, 5}, {Range(0, 20, 1), Range(0, 10, 1), {3}})));
  // test_slice_neg: starts [0], ends [-1], axes [1], steps [1].
  OpTester g("Slice");
  g.Input(Iota({20, 10, 5}))
      .Input(I64({1}, {0}))
      .Input(I64({1}, {-1}))
      .Input(I64({1}, {1}))
      .Input(I64({1}, {1}));
  ASSERT_OK(g.Run());
  EXPECT_EQ(g.OutShape(0), (gert::Shape{20, 9, 5}));
}

TEST(SliceTest, ExtremeValuesReverseWholeAxis) {
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  OpTester t("Slice");
  t.Input(Str({4}, {"a", "b", "c", "d"}))
      .Input(I64({1}, {kMax}))
      .Input(I64({1}, {kMin}))
      .Input(I64({1}, {0}))
      .Input(I64({1}, {kMin}));
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<std::string>(0), ElementsAre("d"));
  OpTester r("Slice");
  r.Input(F32({4}, {1, 2, 3, 4}))
      .Input(I64({1}, {-1}))
      .Input(I64({1}, {kMin}))
      .Input(I64({1}, {0}))
      .Input(I64({1}, {-1}));
  ASSERT_OK(r.Run());
  EXPECT_THAT(r.Values<float>(0), ElementsAre(4, 3, 2, 1));
}

TEST(SliceInferTest, UnknownValuesAndErrors) {
  ge::NamedAttrs a;
  gert::HostTensor axes = I64({1}, {1});
  auto r = InferOp("Slice", &a,
                   {In{{4, 5, 6}}, In{{1}, ge::DT_INT64}, In{{1}, ge::DT_INT64}, Val(axes)}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{4, -1, 6}));
  r = InferOp("Slice", &a, {In{{4, 5}}, In{{1}, ge::DT_INT64}, In{{1}, ge::DT_INT64}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 5}));
  r = InferOp("Slice", &a, {In{{4, 5}}, In{{-1}, ge::DT_INT64}, In{{-1}, ge::DT_INT64}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1}));
  gert::HostTensor st = I64({1}, {1}), en = I64({1}, {3});
  r = InferOp("Slice", &a, {In{{-1, 5}}, Val(st), Val(en)}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 5}));
  gert::HostTensor zero = I64({1}, {0});
  EXPECT_TRUE(IsNodeError(
      InferOp("Slice", &a, {In{{4}}, Val(st), Val(en), Val(zero), Val(zero)}, 1).status, "step"));
  gert::HostTensor two = I64({2}, {0, 0});
  EXPECT_TRUE(
      IsNodeError(InferOp("Slice", &a, {In{{4, 4}}, Val(two), Val(en)}, 1).status, "ends has 1"));
  gert::HostTensor dup_axes = I64({2}, {0, -2});
  gert::HostTensor en2 = I64({2}, {1, 1});
  EXPECT_TRUE(IsNodeError(
      InferOp("Slice", &a, {In{{4, 4}}, Val(two), Val(en2), Val(dup_axes)}, 1).status, ""));
}

// ---------------------------------------------------------------------- Pad

TEST(PadTest, ModesMatchNumpy) {
  const std::vector<std::pair<std::string, std::vector<int32_t>>> cases = {
      // np.pad([[1, 2, 3], [4, 5, 6]], ((1, 1), (2, 2)), mode=...).
      {"reflect",
       {6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1, 6, 5, 4, 5, 6, 5, 4, 3, 2, 1, 2, 3, 2, 1}},
      {"edge",
       {1, 1, 1, 2, 3, 3, 3, 1, 1, 1, 2, 3, 3, 3, 4, 4, 4, 5, 6, 6, 6, 4, 4, 4, 5, 6, 6, 6}},
      {"wrap",
       {5, 6, 4, 5, 6, 4, 5, 2, 3, 1, 2, 3, 1, 2, 5, 6, 4, 5, 6, 4, 5, 2, 3, 1, 2, 3, 1, 2}},
  };
  for (const auto& c : cases) {
    OpTester t("Pad");
    t.Attr<std::string>("mode", c.first)
        .Input(I32({2, 3}, {1, 2, 3, 4, 5, 6}))
        .Input(I64({4}, {1, 2, 1, 2}));
    ASSERT_OK(t.Run());
    EXPECT_EQ(t.OutShape(0), (gert::Shape{4, 7})) << c.first;
    EXPECT_THAT(t.Values<int32_t>(0), ElementsAreArray(c.second)) << c.first;
  }
}

TEST(PadTest, ReflectBeyondTheAxisRepeats) {
  OpTester t("Pad");
  t.Attr<std::string>("mode", "reflect").Input(F32({3}, {1, 2, 3})).Input(I64({2}, {5, 4}));
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<float>(0), ElementsAre(2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3));
}

TEST(PadTest, ConstantValueNegativePadsAndAxes) {
  // Like test_constant_pad (pads [0, 0, 1, 3, 0, 0, 2, 4], value 1.2) on a small input.
  OpTester t("Pad");
  t.Input(F32({1, 2}, {5, 6})).Input(I64({4}, {0, 1, 1, 2})).Input(F32({}, {1.5f}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{2, 5}));
  EXPECT_THAT(t.Values<float>(0), ElementsAre(1.5, 5, 6, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5));
  // Negative pads crop.
  OpTester c("Pad");
  c.Input(F32({2, 3}, {1, 2, 3, 4, 5, 6})).Input(I64({4}, {0, -1, 0, 0}));
  ASSERT_OK(c.Run());
  EXPECT_EQ(c.OutShape(0), (gert::Shape{2, 2}));
  EXPECT_THAT(c.Values<float>(0), ElementsAre(2, 3, 5, 6));
  // axes input: pad only axis -1, default constant 0.
  OpTester x("Pad");
  x.Input(F32({2, 1}, {7, 8})).Input(I64({2}, {1, 0})).AbsentInput().Input(I64({1}, {-1}));
  ASSERT_OK(x.Run());
  EXPECT_EQ(x.OutShape(0), (gert::Shape{2, 2}));
  EXPECT_THAT(x.Values<float>(0), ElementsAre(0, 7, 0, 8));
}

TEST(PadTest, StringsWithConstant) {
  OpTester t("Pad");
  t.Input(Str({2}, {"a", "b"})).Input(I64({2}, {1, 1})).Input(Str({}, {"pad"}));
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<std::string>(0), ElementsAre("pad", "a", "b", "pad"));
}

TEST(PadInferTest, UnknownAndErrors) {
  ge::NamedAttrs a;
  auto r = InferOp("Pad", &a, {In{{2, 3}}, In{{4}, ge::DT_INT64}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1}));
  gert::HostTensor p = I64({4}, {1, 1, 1, 1});
  r = InferOp("Pad", &a, {In{{-1, 3}}, Val(p)}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 5}));
  gert::HostTensor neg = I64({4}, {0, -2, 0, -2});
  EXPECT_TRUE(IsNodeError(InferOp("Pad", &a, {In{{2, 3}}, Val(neg)}, 1).status, "negative size"));
  gert::HostTensor short_pads = I64({2}, {1, 1});
  EXPECT_TRUE(
      IsNodeError(InferOp("Pad", &a, {In{{2, 3}}, Val(short_pads)}, 1).status, "expected 4"));
  ge::NamedAttrs bad;
  ASSERT_OK(bad.SetAttr("mode", ge::AttrValue::CreateFrom<std::string>("mirror")));
  EXPECT_TRUE(IsNodeError(InferOp("Pad", &bad, {In{{2, 3}}, Val(p)}, 1).status, "mirror"));
}

TEST(PadTest, EdgeOnEmptyAxisFails) {
  OpTester t("Pad");
  t.Attr<std::string>("mode", "edge").Input(F32({0}, {})).Input(I64({2}, {1, 1}));
  EXPECT_TRUE(IsNodeError(t.Run(), "empty axis"));
}

// --------------------------------------------------------------------- Tile

TEST(TileTest, OnnxPrecomputed) {
  OpTester t("Tile");
  t.Input(F32({2, 2}, {0, 1, 2, 3})).Input(I64({2}, {2, 2}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{4, 4}));
  EXPECT_THAT(t.Values<float>(0), ElementsAre(0, 1, 0, 1, 2, 3, 2, 3, 0, 1, 0, 1, 2, 3, 2, 3));
}

TEST(TileTest, StringsAndZeroRepeat) {
  OpTester t("Tile");
  t.Input(Str({1, 2}, {"p", "q"})).Input(I64({2}, {2, 1}));
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<std::string>(0), ElementsAre("p", "q", "p", "q"));
  OpTester z("Tile");
  z.Input(F32({2}, {1, 2})).Input(I64({1}, {0}));
  ASSERT_OK(z.Run());
  EXPECT_EQ(z.OutShape(0), (gert::Shape{0}));
}

TEST(TileInferTest, UnknownAndErrors) {
  ge::NamedAttrs a;
  auto r = InferOp("Tile", &a, {In{{2, 3}}, In{{2}, ge::DT_INT64}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1}));
  gert::HostTensor rep = I64({2}, {3, 2});
  r = InferOp("Tile", &a, {In{{-1, 3}}, Val(rep)}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 6}));
  gert::HostTensor short_rep = I64({1}, {3});
  EXPECT_TRUE(IsNodeError(InferOp("Tile", &a, {In{{2, 3}}, Val(short_rep)}, 1).status, "rank 2"));
  gert::HostTensor neg = I64({2}, {1, -1});
  EXPECT_TRUE(IsNodeError(InferOp("Tile", &a, {In{{2, 3}}, Val(neg)}, 1).status, "negative"));
}

// ------------------------------------------------------------------- Expand

TEST(ExpandTest, OnnxCases) {
  // test_expand_dim_changed: [3, 1] -> [2, 1, 6] gives [2, 3, 6].
  OpTester t("Expand");
  t.Input(F32({3, 1}, {1, 2, 3})).Input(I64({3}, {2, 1, 6}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{2, 3, 6}));
  std::vector<float> expect;
  for (int b = 0; b < 2; ++b) {
    for (float v : {1.f, 2.f, 3.f}) expect.insert(expect.end(), 6, v);
  }
  EXPECT_THAT(t.Values<float>(0), ElementsAreArray(expect));
  // test_expand_dim_unchanged: [3, 1] -> [3, 4].
  OpTester u("Expand");
  u.Input(F32({3, 1}, {1, 2, 3})).Input(I64({2}, {3, 4}));
  ASSERT_OK(u.Run());
  EXPECT_THAT(u.Values<float>(0), ElementsAre(1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3));
  // A shape dim of 1 keeps the input dim; a smaller target rank is fine.
  OpTester k("Expand");
  k.Input(Str({1, 2}, {"a", "b"})).Input(I64({1}, {1}));
  ASSERT_OK(k.Run());
  EXPECT_EQ(k.OutShape(0), (gert::Shape{1, 2}));
  EXPECT_THAT(k.Values<std::string>(0), ElementsAre("a", "b"));
}

TEST(ExpandInferTest, UnknownAndIncompatible) {
  ge::NamedAttrs a;
  auto r = InferOp("Expand", &a, {In{{3, 1}}, In{{3}, ge::DT_INT64}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1, -1}));
  gert::HostTensor s = I64({2}, {-1 + 5, 4});
  r = InferOp("Expand", &a, {In{{-1, 1}}, Val(s)}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{4, 4}));
  gert::HostTensor bad = I64({2}, {3, 4});
  EXPECT_TRUE(IsNodeError(InferOp("Expand", &a, {In{{2, 1}}, Val(bad)}, 1).status,
                          "cannot expand input [2,1] to shape [3,4]"));
  gert::HostTensor neg = I64({1}, {-2});
  EXPECT_TRUE(IsNodeError(InferOp("Expand", &a, {In{{2}}, Val(neg)}, 1).status, "negative"));
}

// -------------------------------------------------------------------- Trilu

const std::vector<int64_t> kTriluInput = {5, 0, 3, 3, 7, 9, 3, 5, 2, 4,
                                          7, 6, 8, 8, 1, 6, 7, 7, 8, 1};

TEST(TriluTest, OnnxCases) {
  // test_tril_neg (upper=0, k=-1) and test_triu_pos (k=2) on the same [4, 5].
  OpTester l("Trilu");
  l.Attr<int64_t>("upper", 0).Input(I64({4, 5}, kTriluInput)).Input(I64({}, {-1}));
  ASSERT_OK(l.Run());
  EXPECT_THAT(l.Values<int64_t>(0),
              ElementsAre(0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 7, 6, 0, 0, 0, 6, 7, 7, 0, 0));
  OpTester u("Trilu");
  u.Input(I64({4, 5}, kTriluInput)).Input(I64({}, {2}));
  ASSERT_OK(u.Run());
  EXPECT_THAT(u.Values<int64_t>(0),
              ElementsAre(0, 0, 3, 3, 7, 0, 0, 0, 2, 4, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0));
}

TEST(TriluTest, DefaultKBatchesAndExtremeK) {
  OpTester t("Trilu");
  t.Input(F32({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})).AbsentInput();
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<float>(0), ElementsAre(1, 2, 0, 4, 5, 6, 0, 8));
  OpTester big("Trilu");
  big.Attr<int64_t>("upper", 0)
      .Input(F32({2, 2}, {1, 2, 3, 4}))
      .Input(I64({}, {std::numeric_limits<int64_t>::max()}));
  ASSERT_OK(big.Run());
  EXPECT_THAT(big.Values<float>(0), ElementsAre(1, 2, 3, 4));
  OpTester small("Trilu");
  small.Input(F32({2, 2}, {1, 2, 3, 4})).Input(I64({}, {std::numeric_limits<int64_t>::min()}));
  ASSERT_OK(small.Run());
  EXPECT_THAT(small.Values<float>(0), ElementsAre(1, 2, 3, 4));
  OpTester s("Trilu");
  s.Attr<int64_t>("upper", 0).Input(Str({2, 2}, {"a", "b", "c", "d"})).AbsentInput();
  ASSERT_OK(s.Run());
  EXPECT_THAT(s.Values<std::string>(0), ElementsAre("a", "", "c", "d"));
}

TEST(TriluInferTest, RankError) {
  ge::NamedAttrs a;
  EXPECT_TRUE(IsNodeError(InferOp("Trilu", &a, {In{{3}}, AbsentIn()}, 1).status, "rank >= 2"));
  auto r = InferOp("Trilu", &a, {In{{-1, 3, -1}}, AbsentIn()}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 3, -1}));
}

// ---------------------------------------------------------- ReverseSequence

TEST(ReverseSequenceTest, OnnxBatchAndTime) {
  OpTester b("ReverseSequence");
  b.Attr<int64_t>("batch_axis", 0)
      .Attr<int64_t>("time_axis", 1)
      .Input(Iota({4, 4}))
      .Input(I64({4}, {1, 2, 3, 4}));
  ASSERT_OK(b.Run());
  EXPECT_THAT(b.Values<float>(0),
              ElementsAre(0, 1, 2, 3, 5, 4, 6, 7, 10, 9, 8, 11, 15, 14, 13, 12));
  OpTester t("ReverseSequence");
  t.Input(F32({4, 4}, {0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15}))
      .Input(I64({4}, {4, 3, 2, 1}));
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<float>(0),
              ElementsAre(3, 6, 9, 12, 2, 5, 8, 13, 1, 4, 10, 14, 0, 7, 11, 15));
}

TEST(ReverseSequenceTest, Errors) {
  OpTester t("ReverseSequence");
  t.Input(Iota({2, 2})).Input(I64({2}, {3, 1}));
  EXPECT_TRUE(IsNodeError(t.Run(), "sequence_lens[0] = 3"));
  ge::NamedAttrs a;
  ASSERT_OK(a.SetAttr("batch_axis", ge::AttrValue::CreateFrom<int64_t>(0)));
  EXPECT_TRUE(
      IsNodeError(InferOp("ReverseSequence", &a, {In{{2, 2}}, In{{2}, ge::DT_INT64}}, 1).status,
                  "batch_axis 0"));
  ge::NamedAttrs d;
  EXPECT_TRUE(
      IsNodeError(InferOp("ReverseSequence", &d, {In{{2, 3}}, In{{2}, ge::DT_INT64}}, 1).status,
                  "batch size 3"));
}

}  // namespace
}  // namespace test
}  // namespace ops
