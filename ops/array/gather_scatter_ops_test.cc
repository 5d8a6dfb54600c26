// ops/array/gather_scatter_ops_test.cc
// Gather, GatherElements, GatherND, Scatter, ScatterElements, ScatterND,
// Compress, NonZero.
#include <cstdint>
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
using ::testing::FloatEq;

// ------------------------------------------------------------------- Gather

TEST(GatherTest, OnnxAxis1MatchesNaive) {
  // test_gather_1: data [5, 4, 3, 2], indices [0, 1, 3], axis 1.
  OpTester t("Gather");
  t.Attr<int64_t>("axis", 1).Input(Iota({5, 4, 3, 2})).Input(I64({3}, {0, 1, 3}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{5, 3, 3, 2}));
  std::vector<float> expect;
  for (int a = 0; a < 5; ++a) {
    for (int idx : {0, 1, 3}) {
      for (int c = 0; c < 6; ++c) expect.push_back(static_cast<float>(a * 24 + idx * 6 + c));
    }
  }
  EXPECT_THAT(t.Values<float>(0), ElementsAreArray(expect));
}

TEST(GatherTest, NegativeAnd2dIndices) {
  // test_gather_negative_indices.
  OpTester n("Gather");
  n.Input(Iota({10})).Input(I64({3}, {0, -9, -10}));
  ASSERT_OK(n.Run());
  EXPECT_THAT(n.Values<float>(0), ElementsAre(0, 1, 0));
  // test_gather_2d_indices shape: [3, 3] axis 1 with [1, 2] indices -> [3, 1, 2].
  OpTester t("Gather");
  t.Attr<int64_t>("axis", 1).Input(Iota({3, 3})).Input(I32({1, 2}, {0, 2}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{3, 1, 2}));
  EXPECT_THAT(t.Values<float>(0), ElementsAre(0, 2, 3, 5, 6, 8));
  // Scalar index removes the axis; strings move.
  OpTester s("Gather");
  s.Input(Str({3}, {"a", "b", "c"})).Input(I64({}, {-1}));
  ASSERT_OK(s.Run());
  EXPECT_EQ(s.OutShape(0), gert::Shape{});
  EXPECT_THAT(s.Values<std::string>(0), ElementsAre("c"));
}

TEST(GatherTest, OutOfRangeIndex) {
  OpTester t("Gather");
  t.Input(Iota({3})).Input(I64({2}, {0, 3}));
  EXPECT_TRUE(IsNodeError(t.Run(), "indices[1] = 3 is out of range [-3, 2]"));
}

TEST(GatherInferTest, ShapesAndErrors) {
  ge::NamedAttrs a;
  ASSERT_OK(a.SetAttr("axis", ge::AttrValue::CreateFrom<int64_t>(-1)));
  auto r = InferOp("Gather", &a, {In{{-1, 4}}, In{{2, -1}, ge::DT_INT64}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 2, -1}));
  r = InferOp("Gather", &a, {In{{2, 4}}, In{{-2}, ge::DT_INT64}}, 1);
  ASSERT_OK(r.status);
  EXPECT_TRUE(r.shapes[0].IsUnknownRank());
  ge::NamedAttrs oob;
  ASSERT_OK(oob.SetAttr("axis", ge::AttrValue::CreateFrom<int64_t>(2)));
  EXPECT_TRUE(IsNodeError(InferOp("Gather", &oob, {In{{2, 4}}, In{{1}, ge::DT_INT64}}, 1).status,
                          "axis 2"));
}

// ----------------------------------------------------------- GatherElements

TEST(GatherElementsTest, OnnxCases) {
  OpTester t0("GatherElements");
  t0.Attr<int64_t>("axis", 1).Input(F32({2, 2}, {1, 2, 3, 4})).Input(I64({2, 2}, {0, 0, 1, 0}));
  ASSERT_OK(t0.Run());
  EXPECT_THAT(t0.Values<float>(0), ElementsAre(1, 1, 4, 3));
  OpTester t1("GatherElements");
  t1.Input(F32({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})).Input(I64({2, 3}, {1, 2, 0, 2, 0, 0}));
  ASSERT_OK(t1.Run());
  EXPECT_EQ(t1.OutShape(0), (gert::Shape{2, 3}));
  EXPECT_THAT(t1.Values<float>(0), ElementsAre(4, 8, 3, 7, 2, 3));
  OpTester tn("GatherElements");
  tn.Input(F32({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})).Input(I32({2, 3}, {-1, -2, 0, -2, 0, 0}));
  ASSERT_OK(tn.Run());
  EXPECT_THAT(tn.Values<float>(0), ElementsAre(7, 5, 3, 4, 2, 3));
}

TEST(GatherElementsTest, Errors) {
  OpTester t("GatherElements");
  t.Input(Iota({2, 2})).Input(I64({2, 2}, {0, 2, 0, 0}));
  EXPECT_TRUE(IsNodeError(t.Run(), "indices[1] = 2"));
  ge::NamedAttrs a;
  EXPECT_TRUE(IsNodeError(
      InferOp("GatherElements", &a, {In{{2, 2}}, In{{2}, ge::DT_INT64}}, 1).status, "rank"));
  EXPECT_TRUE(
      IsNodeError(InferOp("GatherElements", &a, {In{{2, 2}}, In{{2, 3}, ge::DT_INT64}}, 1).status,
                  "dim 1 exceeds"));
}

// ----------------------------------------------------------------- GatherND

TEST(GatherNdTest, OnnxCases) {
  OpTester f("GatherND");
  f.Input(Iota({2, 2, 2})).Input(I64({2, 1, 2}, {0, 1, 1, 0}));
  ASSERT_OK(f.Run());
  EXPECT_EQ(f.OutShape(0), (gert::Shape{2, 1, 2}));
  EXPECT_THAT(f.Values<float>(0), ElementsAre(2, 3, 4, 5));
  OpTester b("GatherND");
  b.Attr<int64_t>("batch_dims", 1)
      .Input(I32({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}))
      .Input(I64({2, 1}, {1, 0}));
  ASSERT_OK(b.Run());
  EXPECT_EQ(b.OutShape(0), (gert::Shape{2, 2}));
  EXPECT_THAT(b.Values<int32_t>(0), ElementsAre(2, 3, 4, 5));
  // test_gathernd_example_int32: full index tuples -> scalars.
  OpTester s("GatherND");
  s.Input(I32({2, 2}, {0, 1, 2, 3})).Input(I64({2, 2}, {0, 0, 1, -1}));
  ASSERT_OK(s.Run());
  EXPECT_EQ(s.OutShape(0), (gert::Shape{2}));
  EXPECT_THAT(s.Values<int32_t>(0), ElementsAre(0, 3));
}

TEST(GatherNdInferTest, ShapesAndErrors) {
  ge::NamedAttrs a;
  auto r = InferOp("GatherND", &a, {In{{4, 5, 6}}, In{{-1, 3, 2}, ge::DT_INT64}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, 3, 6}));
  r = InferOp("GatherND", &a, {In{{4, 5, 6}}, In{{3, -1}, ge::DT_INT64}}, 1);
  ASSERT_OK(r.status);
  EXPECT_TRUE(r.shapes[0].IsUnknownRank());
  EXPECT_TRUE(IsNodeError(InferOp("GatherND", &a, {In{{4, 5}}, In{{3, 3}, ge::DT_INT64}}, 1).status,
                          "last dim 3"));
  ge::NamedAttrs b;
  ASSERT_OK(b.SetAttr("batch_dims", ge::AttrValue::CreateFrom<int64_t>(1)));
  EXPECT_TRUE(IsNodeError(InferOp("GatherND", &b, {In{{4, 5}}, In{{3, 1}, ge::DT_INT64}}, 1).status,
                          "batch dim 0"));
  OpTester t("GatherND");
  t.Input(Iota({2, 2})).Input(I64({1, 2}, {0, 2}));
  EXPECT_TRUE(IsNodeError(t.Run(), "component 1 = 2"));
}

// ---------------------------------------------------------- ScatterElements

TEST(ScatterElementsTest, OnnxCases) {
  // test_scatter_elements_with_axis / test_scatter_with_axis.
  for (const char* type : {"ScatterElements", "Scatter"}) {
    OpTester t(type);
    t.Attr<int64_t>("axis", 1)
        .Input(F32({1, 5}, {1, 2, 3, 4, 5}))
        .Input(I64({1, 2}, {1, 3}))
        .Input(F32({1, 2}, {1.1f, 2.1f}));
    ASSERT_OK(t.Run());
    EXPECT_THAT(t.Values<float>(0), ElementsAre(1, FloatEq(1.1f), 3, FloatEq(2.1f), 5)) << type;
  }
  OpTester n("ScatterElements");
  n.Attr<int64_t>("axis", 1)
      .Input(F32({1, 5}, {1, 2, 3, 4, 5}))
      .Input(I64({1, 2}, {1, -3}))
      .Input(F32({1, 2}, {1.1f, 2.1f}));
  ASSERT_OK(n.Run());
  EXPECT_THAT(n.Values<float>(0), ElementsAre(1, FloatEq(1.1f), FloatEq(2.1f), 4, 5));
  OpTester d("ScatterElements");
  d.Attr<int64_t>("axis", 1)
      .Attr<std::string>("reduction", "add")
      .Input(F32({1, 5}, {1, 2, 3, 4, 5}))
      .Input(I64({1, 2}, {1, 1}))
      .Input(F32({1, 2}, {1.1f, 2.1f}));
  ASSERT_OK(d.Run());
  EXPECT_THAT(d.Values<float>(0), ElementsAre(1, FloatEq(5.2f), 3, 4, 5));
  // test_scatter_elements_without_axis.
  OpTester w("ScatterElements");
  w.Input(F32({3, 3}, std::vector<float>(9, 0)))
      .Input(I64({2, 3}, {1, 0, 2, 0, 2, 1}))
      .Input(F32({2, 3}, {1, 1.1f, 1.2f, 2, 2.1f, 2.2f}));
  ASSERT_OK(w.Run());
  EXPECT_THAT(w.Values<float>(0), ElementsAre(2, 1.1f, 0, 1, 0, 2.2f, 0, 2.1f, 1.2f));
}

TEST(ScatterElementsTest, ReductionsAndStrings) {
  OpTester m("ScatterElements");
  m.Attr<std::string>("reduction", "mul")
      .Input(I32({3}, {2, 3, 4}))
      .Input(I64({3}, {0, 0, 2}))
      .Input(I32({3}, {5, 7, 10}));
  ASSERT_OK(m.Run());
  EXPECT_THAT(m.Values<int32_t>(0), ElementsAre(70, 3, 40));
  OpTester mx("ScatterElements");
  mx.Attr<std::string>("reduction", "max")
      .Input(F32({2}, {1, 5}))
      .Input(I64({2}, {0, 1}))
      .Input(F32({2}, {3, 4}));
  ASSERT_OK(mx.Run());
  EXPECT_THAT(mx.Values<float>(0), ElementsAre(3, 5));
  OpTester h("ScatterElements");
  h.Attr<std::string>("reduction", "add")
      .Input(F16({2}, {1.5f, 2}))
      .Input(I64({1}, {1}))
      .Input(F16({1}, {0.25f}));
  ASSERT_OK(h.Run());
  EXPECT_THAT(h.HalfValues(0), ElementsAre(1.5f, 2.25f));
  OpTester s("ScatterElements");
  s.Input(Str({3}, {"a", "b", "c"})).Input(I64({1}, {-1})).Input(Str({1}, {"z"}));
  ASSERT_OK(s.Run());
  EXPECT_THAT(s.Values<std::string>(0), ElementsAre("a", "b", "z"));
  OpTester bad("ScatterElements");
  bad.Attr<std::string>("reduction", "add")
      .Input(Str({1}, {"a"}))
      .Input(I64({1}, {0}))
      .Input(Str({1}, {"b"}));
  EXPECT_TRUE(IsNodeError(bad.Run(), "DT_STRING"));
}

TEST(ScatterElementsInferTest, Errors) {
  ge::NamedAttrs a;
  EXPECT_TRUE(IsNodeError(
      InferOp("ScatterElements", &a, {In{{3, 3}}, In{{2, 3}, ge::DT_INT64}, In{{2, 2}}}, 1).status,
      "updates [2,2]"));
  EXPECT_TRUE(
      IsNodeError(InferOp("ScatterElements", &a,
                          {In{{3, 3}}, In{{2, 3}, ge::DT_INT64}, In{{2, 3}, ge::DT_INT32}}, 1)
                      .status,
                  "input 2 is DT_INT32"));
  ge::NamedAttrs r;
  ASSERT_OK(r.SetAttr("reduction", ge::AttrValue::CreateFrom<std::string>("avg")));
  EXPECT_TRUE(IsNodeError(
      InferOp("ScatterElements", &r, {In{{3, 3}}, In{{2, 3}, ge::DT_INT64}, In{{2, 3}}}, 1).status,
      "avg"));
  auto ok = InferOp("ScatterElements", &a, {In{{-1, 3}}, In{{2, 3}, ge::DT_INT64}, In{{2, -1}}}, 1);
  ASSERT_OK(ok.status);
  EXPECT_EQ(ok.shapes[0], (gert::Shape{-1, 3}));
}

// ---------------------------------------------------------------- ScatterND

std::vector<float> ScatterNdData() {
  return {1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6,
          7, 8, 8, 7, 6, 5, 4, 3, 2, 1, 8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4,
          5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8};
}
std::vector<float> ScatterNdUpdates() {
  return {5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8,
          1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4};
}

TEST(ScatterNdTest, OnnxAddAndMultiply) {
  std::vector<float> data = ScatterNdData();
  OpTester add("ScatterND");
  add.Attr<std::string>("reduction", "add")
      .Input(F32({4, 4, 4}, data))
      .Input(I64({2, 1}, {0, 0}))
      .Input(F32({2, 4, 4}, ScatterNdUpdates()));
  ASSERT_OK(add.Run());
  std::vector<float> expect = data;
  const std::vector<float> head = {7, 8, 9, 10, 13, 14, 15, 16, 18, 17, 16, 15, 16, 15, 14, 13};
  std::copy(head.begin(), head.end(), expect.begin());
  EXPECT_THAT(add.Values<float>(0), ElementsAreArray(expect));
  OpTester mul("ScatterND");
  mul.Attr<std::string>("reduction", "mul")
      .Input(F32({4, 4, 4}, data))
      .Input(I64({2, 1}, {0, 0}))
      .Input(F32({2, 4, 4}, ScatterNdUpdates()));
  ASSERT_OK(mul.Run());
  const std::vector<float> mhead = {5,   10,  15,  20,  60,  72, 84, 96,
                                    168, 147, 126, 105, 128, 96, 64, 32};
  std::copy(mhead.begin(), mhead.end(), expect.begin());
  EXPECT_THAT(mul.Values<float>(0), ElementsAreArray(expect));
}

TEST(ScatterNdTest, ElementUpdatesAndNegativeIndex) {
  // test_scatternd-like 1-D: data [1..8], indices [[4], [3], [1], [7]].
  OpTester t("ScatterND");
  t.Input(F32({8}, {1, 2, 3, 4, 5, 6, 7, 8}))
      .Input(I64({4, 1}, {4, 3, 1, -1}))
      .Input(F32({4}, {9, 10, 11, 12}));
  ASSERT_OK(t.Run());
  EXPECT_THAT(t.Values<float>(0), ElementsAre(1, 11, 3, 10, 9, 6, 7, 12));
}

TEST(ScatterNdInferTest, Errors) {
  ge::NamedAttrs a;
  EXPECT_TRUE(IsNodeError(
      InferOp("ScatterND", &a, {In{{4, 4}}, In{{2, 1}, ge::DT_INT64}, In{{2, 3}}}, 1).status,
      "must have shape [2,4]"));
  EXPECT_TRUE(IsNodeError(
      InferOp("ScatterND", &a, {In{{4, 4}}, In{{2, 3}, ge::DT_INT64}, In{{2}}}, 1).status,
      "exceeds the rank"));
  OpTester t("ScatterND");
  t.Input(Iota({2, 2})).Input(I64({1, 2}, {0, 5})).Input(F32({1}, {1}));
  EXPECT_TRUE(IsNodeError(t.Run(), "component 1 = 5"));
}

// ----------------------------------------------------------------- Compress

TEST(CompressTest, OnnxCases) {
  OpTester a0("Compress");
  a0.Attr<int64_t>("axis", 0).Input(F32({3, 2}, {1, 2, 3, 4, 5, 6})).Input(Bool({3}, {0, 1, 1}));
  ASSERT_OK(a0.Run());
  EXPECT_EQ(a0.OutShape(0), (gert::Shape{2, 2}));
  EXPECT_THAT(a0.Values<float>(0), ElementsAre(3, 4, 5, 6));
  // test_compress_1 (axis 1) and negative axis.
  for (int64_t axis : {1, -1}) {
    OpTester a1("Compress");
    a1.Attr<int64_t>("axis", axis).Input(F32({3, 2}, {1, 2, 3, 4, 5, 6})).Input(Bool({2}, {0, 1}));
    ASSERT_OK(a1.Run());
    EXPECT_EQ(a1.OutShape(0), (gert::Shape{3, 1}));
    EXPECT_THAT(a1.Values<float>(0), ElementsAre(2, 4, 6));
  }
  // test_compress_default_axis: condition longer than... flattened size 6.
  OpTester d("Compress");
  d.Input(F32({3, 2}, {1, 2, 3, 4, 5, 6})).Input(Bool({5}, {0, 1, 0, 0, 1}));
  ASSERT_OK(d.Run());
  EXPECT_EQ(d.OutShape(0), (gert::Shape{2}));
  EXPECT_THAT(d.Values<float>(0), ElementsAre(2, 5));
}

TEST(CompressTest, KernelAllocatesWhenShapeUnknown) {
  OpTester t("Compress");
  t.Preallocate(false).Input(Str({3}, {"a", "b", "c"})).Input(Bool({3}, {1, 0, 1}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.allocations(), 1);
  EXPECT_THAT(t.Values<std::string>(0), ElementsAre("a", "c"));
}

TEST(CompressInferTest, UnknownConditionAndErrors) {
  ge::NamedAttrs a;
  ASSERT_OK(a.SetAttr("axis", ge::AttrValue::CreateFrom<int64_t>(1)));
  auto r = InferOp("Compress", &a, {In{{3, 4}}, In{{4}, ge::DT_BOOL}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{3, -1}));
  gert::HostTensor c = Bool({2}, {1, 1});
  r = InferOp("Compress", &a, {In{{3, 4}}, Val(c)}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{3, 2}));
  gert::HostTensor too_long = Bool({5}, {0, 0, 0, 0, 1});
  EXPECT_TRUE(
      IsNodeError(InferOp("Compress", &a, {In{{3, 4}}, Val(too_long)}, 1).status, "condition[4]"));
  ge::NamedAttrs none;
  r = InferOp("Compress", &none, {In{{3, 4}}, In{{4}, ge::DT_BOOL}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1}));
}

// ------------------------------------------------------------------ NonZero

TEST(NonZeroTest, OnnxExample) {
  OpTester t("NonZero");
  t.Input(Bool({2, 2}, {1, 0, 1, 1}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.InferredType(0), ge::DT_INT64);
  EXPECT_EQ(t.OutShape(0), (gert::Shape{2, 3}));
  EXPECT_THAT(t.Values<int64_t>(0), ElementsAre(0, 1, 1, 0, 0, 1));
}

TEST(NonZeroTest, AllocatesAndHandlesTypes) {
  OpTester f("NonZero");
  f.Preallocate(false).Input(F32({3}, {0.f, -0.f, 2.5f}));
  ASSERT_OK(f.Run());
  EXPECT_EQ(f.allocations(), 1);
  EXPECT_EQ(f.OutShape(0), (gert::Shape{1, 1}));
  EXPECT_THAT(f.Values<int64_t>(0), ElementsAre(2));
  OpTester s("NonZero");
  s.Input(Str({2, 2}, {"", "x", "y", ""}));
  ASSERT_OK(s.Run());
  EXPECT_THAT(s.Values<int64_t>(0), ElementsAre(0, 1, 1, 0));
  OpTester h("NonZero");
  h.Input(F16({2}, {-0.f, 1.f}));
  ASSERT_OK(h.Run());
  EXPECT_THAT(h.Values<int64_t>(0), ElementsAre(1));
  OpTester z("NonZero");
  z.Input(I32({2, 2}, {0, 0, 0, 0}));
  ASSERT_OK(z.Run());
  EXPECT_EQ(z.OutShape(0), (gert::Shape{2, 0}));
}

TEST(NonZeroInferTest, UnknownValue) {
  ge::NamedAttrs a;
  auto r = InferOp("NonZero", &a, {In{{3, 4, 5}}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{3, -1}));
  EXPECT_EQ(r.dtypes[0], ge::DT_INT64);
  r = InferOp("NonZero", &a, {In{{-2}}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1}));
}

}  // namespace
}  // namespace test
}  // namespace ops
