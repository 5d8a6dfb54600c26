// ops/array/generator_ops_test.cc
// Range, ConstantOfShape, Constant, EyeLike, OneHot.
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/ge_tensor.h"
#include "gtest/gtest.h"
#include "ops/array/array_test_util.h"

namespace ops {
namespace test {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::FloatEq;

template <typename T>
ge::GeTensor GeTensorOf(ge::DataType dt, std::vector<int64_t> dims, std::vector<T> values) {
  ge::GeTensorDesc desc(ge::GeShape(dims), ge::FORMAT_ND, dt);
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  if (!bytes.empty()) std::memcpy(bytes.data(), values.data(), bytes.size());
  return ge::GeTensor(desc, bytes);
}

// -------------------------------------------------------------------- Range

TEST(RangeTest, OnnxCases) {
  // test_range_float_type_positive_delta: 1, 5, 2 -> [1, 3].
  OpTester f("Range");
  f.Input(F32({}, {1})).Input(F32({}, {5})).Input(F32({}, {2}));
  ASSERT_OK(f.Run());
  EXPECT_EQ(f.OutShape(0), (gert::Shape{2}));
  EXPECT_THAT(f.Values<float>(0), ElementsAre(1, 3));
  // test_range_int32_type_negative_delta: 10, 6, -3 -> [10, 7].
  OpTester i("Range");
  i.Input(I32({}, {10})).Input(I32({}, {6})).Input(I32({}, {-3}));
  ASSERT_OK(i.Run());
  EXPECT_THAT(i.Values<int32_t>(0), ElementsAre(10, 7));
}

TEST(RangeTest, EmptyFractionalAndInt64Extremes) {
  OpTester e("Range");
  e.Input(I64({}, {5})).Input(I64({}, {5})).Input(I64({}, {1}));
  ASSERT_OK(e.Run());
  EXPECT_EQ(e.OutShape(0), (gert::Shape{0}));
  OpTester w("Range");
  w.Input(I64({}, {3})).Input(I64({}, {10})).Input(I64({}, {-1}));
  ASSERT_OK(w.Run());
  EXPECT_EQ(w.OutShape(0), (gert::Shape{0}));
  OpTester d("Range");
  d.Input(F64({}, {0})).Input(F64({}, {1})).Input(F64({}, {0.3}));
  ASSERT_OK(d.Run());
  EXPECT_THAT(d.Values<double>(0), ElementsAre(0, 0.3, 0.6, 0.3 * 3));
  OpTester big("Range");
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  big.Input(I64({}, {kMax - 2})).Input(I64({}, {kMax})).Input(I64({}, {1}));
  ASSERT_OK(big.Run());
  EXPECT_THAT(big.Values<int64_t>(0), ElementsAre(kMax - 2, kMax - 1));
}

TEST(RangeInferTest, UnknownAndErrors) {
  ge::NamedAttrs a;
  gert::HostTensor s = F32({}, {0}), l = F32({}, {10}), z = F32({}, {0});
  auto r = InferOp("Range", &a, {Val(s), In{{}}, In{{}}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1}));
  EXPECT_TRUE(IsNodeError(InferOp("Range", &a, {Val(s), Val(l), Val(z)}, 1).status, "delta is 0"));
  EXPECT_TRUE(IsNodeError(InferOp("Range", &a, {Val(s), In{{}, ge::DT_INT32}, In{{}}}, 1).status,
                          "input 1 is DT_INT32"));
  EXPECT_TRUE(IsNodeError(InferOp("Range", &a, {In{{2}}, In{{}}, In{{}}}, 1).status, "scalar"));
  gert::HostTensor inf = F32({}, {std::numeric_limits<float>::infinity()});
  gert::HostTensor one = F32({}, {1});
  EXPECT_TRUE(IsNodeError(InferOp("Range", &a, {Val(s), Val(inf), Val(one)}, 1).status,
                          "no finite element count"));
}

// ---------------------------------------------------------- ConstantOfShape

TEST(ConstantOfShapeTest, OnnxCases) {
  // test_constantofshape_int_zeros: value INT32 [0], shape [10, 6].
  OpTester z("ConstantOfShape");
  z.Attr<ge::GeTensor>("value", GeTensorOf<int32_t>(ge::DT_INT32, {1}, {0}))
      .Input(I64({2}, {10, 6}));
  ASSERT_OK(z.Run());
  EXPECT_EQ(z.InferredType(0), ge::DT_INT32);
  EXPECT_EQ(z.OutShape(0), (gert::Shape{10, 6}));
  EXPECT_THAT(z.Values<int32_t>(0), ElementsAreArray(std::vector<int32_t>(60, 0)));
  // test_constantofshape_float_ones: FLOAT 1, shape [4, 3, 2].
  OpTester o("ConstantOfShape");
  o.Attr<ge::GeTensor>("value", GeTensorOf<float>(ge::DT_FLOAT, {1}, {1.f}))
      .Input(I64({3}, {4, 3, 2}));
  ASSERT_OK(o.Run());
  EXPECT_THAT(o.Values<float>(0), ElementsAreArray(std::vector<float>(24, 1.f)));
  // test_constantofshape_int_shape_zero: shape [0].
  OpTester e("ConstantOfShape");
  e.Attr<ge::GeTensor>("value", GeTensorOf<int32_t>(ge::DT_INT32, {1}, {7})).Input(I64({1}, {0}));
  ASSERT_OK(e.Run());
  EXPECT_EQ(e.OutShape(0), (gert::Shape{0}));
}

TEST(ConstantOfShapeTest, WideValues) {
  OpTester i("ConstantOfShape");
  i.Attr<ge::GeTensor>("value", GeTensorOf<int64_t>(ge::DT_INT64, {1}, {-5})).Input(I64({1}, {3}));
  ASSERT_OK(i.Run());
  EXPECT_THAT(i.Values<int64_t>(0), ElementsAre(-5, -5, -5));
  OpTester d("ConstantOfShape");
  d.Attr<ge::GeTensor>("value", GeTensorOf<double>(ge::DT_DOUBLE, {}, {0.25}))
      .Input(I64({2}, {1, 2}));
  ASSERT_OK(d.Run());
  EXPECT_THAT(d.Values<double>(0), ElementsAre(0.25, 0.25));
}

TEST(ConstantOfShapeTest, DefaultIsFloatZeroAndEmptyShapeIsScalar) {
  OpTester t("ConstantOfShape");
  t.Input(I64({0}, {}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.InferredType(0), ge::DT_FLOAT);
  EXPECT_EQ(t.OutShape(0), gert::Shape{});
  EXPECT_THAT(t.Values<float>(0), ElementsAre(0.f));
  OpTester b("ConstantOfShape");
  b.Attr<ge::GeTensor>("value", GeTensorOf<uint8_t>(ge::DT_BOOL, {1}, {1})).Input(I64({1}, {2}));
  ASSERT_OK(b.Run());
  EXPECT_THAT(b.Values<bool>(0), ElementsAre(true, true));
}

TEST(ConstantOfShapeInferTest, UnknownAndErrors) {
  ge::NamedAttrs a;
  auto r = InferOp("ConstantOfShape", &a, {In{{3}, ge::DT_INT64}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{-1, -1, -1}));
  gert::HostTensor neg = I64({2}, {2, -1});
  EXPECT_TRUE(IsNodeError(InferOp("ConstantOfShape", &a, {Val(neg)}, 1).status, "negative"));
  ge::NamedAttrs two;
  ASSERT_OK(two.SetAttr("value", ge::AttrValue::CreateFrom<ge::GeTensor>(
                                     GeTensorOf<float>(ge::DT_FLOAT, {2}, {1, 2}))));
  EXPECT_TRUE(IsNodeError(InferOp("ConstantOfShape", &two, {In{{1}, ge::DT_INT64}}, 1).status,
                          "exactly one"));
}

// ----------------------------------------------------------------- Constant

TEST(ConstantTest, TensorAttribute) {
  OpTester t("Constant");
  t.Attr<ge::GeTensor>("value", GeTensorOf<float>(ge::DT_FLOAT, {2, 2}, {1, 2, 3, 4}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.InferredType(0), ge::DT_FLOAT);
  EXPECT_EQ(t.OutShape(0), (gert::Shape{2, 2}));
  EXPECT_THAT(t.Values<float>(0), ElementsAre(1, 2, 3, 4));
}

TEST(ConstantTest, ScalarAndListAttributes) {
  OpTester f("Constant");
  f.Attr<float>("value_float", 2.5f);
  ASSERT_OK(f.Run());
  EXPECT_EQ(f.OutShape(0), gert::Shape{});
  EXPECT_THAT(f.Values<float>(0), ElementsAre(2.5f));
  OpTester fs("Constant");
  fs.Attr<std::vector<float>>("value_floats", {1, 2});
  ASSERT_OK(fs.Run());
  EXPECT_EQ(fs.OutShape(0), (gert::Shape{2}));
  OpTester i("Constant");
  i.Attr<int64_t>("value_int", -7);
  ASSERT_OK(i.Run());
  EXPECT_EQ(i.InferredType(0), ge::DT_INT64);
  EXPECT_THAT(i.Values<int64_t>(0), ElementsAre(-7));
  OpTester is("Constant");
  is.Attr<std::vector<int64_t>>("value_ints", {3, 4, 5});
  ASSERT_OK(is.Run());
  EXPECT_THAT(is.Values<int64_t>(0), ElementsAre(3, 4, 5));
  OpTester s("Constant");
  s.Attr<std::string>("value_string", "hello");
  ASSERT_OK(s.Run());
  EXPECT_EQ(s.InferredType(0), ge::DT_STRING);
  EXPECT_THAT(s.Values<std::string>(0), ElementsAre("hello"));
  OpTester ss("Constant");
  ss.Attr<std::vector<std::string>>("value_strings", {"a", "", "c"});
  ASSERT_OK(ss.Run());
  EXPECT_THAT(ss.Values<std::string>(0), ElementsAre("a", "", "c"));
}

TEST(ConstantInferTest, Errors) {
  ge::NamedAttrs none;
  EXPECT_TRUE(IsNodeError(InferOp("Constant", &none, {}, 1).status, "got none"));
  ge::NamedAttrs two;
  ASSERT_OK(two.SetAttr("value_int", ge::AttrValue::CreateFrom<int64_t>(1)));
  ASSERT_OK(two.SetAttr("value_float", ge::AttrValue::CreateFrom<float>(1)));
  EXPECT_TRUE(IsNodeError(InferOp("Constant", &two, {}, 1).status, "value_float, value_int"));
  ge::NamedAttrs wrong;
  ASSERT_OK(wrong.SetAttr("value_int", ge::AttrValue::CreateFrom<float>(1)));
  EXPECT_TRUE(IsNodeError(InferOp("Constant", &wrong, {}, 1).status, "value_int"));
  ge::NamedAttrs short_data;
  ASSERT_OK(short_data.SetAttr("value", ge::AttrValue::CreateFrom<ge::GeTensor>(
                                            GeTensorOf<float>(ge::DT_FLOAT, {3}, {1, 2}))));
  EXPECT_TRUE(IsNodeError(InferOp("Constant", &short_data, {}, 1).status, "needs 12 bytes"));
}

// ------------------------------------------------------------------ EyeLike

TEST(EyeLikeTest, OnnxCases) {
  // test_eyelike_populate_off_main_diagonal: [4, 5], k 1, dtype FLOAT.
  OpTester t("EyeLike");
  t.Attr<ge::DataType>("dtype", ge::DT_FLOAT)
      .Attr<int64_t>("k", 1)
      .Input(I32({4, 5}, std::vector<int32_t>(20, 3)));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.InferredType(0), ge::DT_FLOAT);
  EXPECT_THAT(t.Values<float>(0),
              ElementsAre(0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1));
  // test_eyelike_with_dtype: DOUBLE [3, 4].
  OpTester d("EyeLike");
  d.Attr<ge::DataType>("dtype", ge::DT_DOUBLE).Input(I32({3, 4}, std::vector<int32_t>(12, 1)));
  ASSERT_OK(d.Run());
  EXPECT_THAT(d.Values<double>(0), ElementsAre(1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0));
  // test_eyelike_without_dtype: the input's type.
  OpTester w("EyeLike");
  w.Attr<int64_t>("k", -1).Input(I32({3, 2}, std::vector<int32_t>(6, 9)));
  ASSERT_OK(w.Run());
  EXPECT_EQ(w.OutType(0), ge::DT_INT32);
  EXPECT_THAT(w.Values<int32_t>(0), ElementsAre(0, 0, 1, 0, 0, 1));
  OpTester far("EyeLike");
  far.Attr<int64_t>("k", 100).Input(Bool({2, 2}, {1, 1, 1, 1}));
  ASSERT_OK(far.Run());
  EXPECT_THAT(far.Values<bool>(0), ElementsAre(false, false, false, false));
}

TEST(EyeLikeInferTest, Errors) {
  ge::NamedAttrs a;
  EXPECT_TRUE(IsNodeError(InferOp("EyeLike", &a, {In{{3}}}, 1).status, "2-D"));
  ge::NamedAttrs s;
  ASSERT_OK(s.SetAttr("dtype", ge::AttrValue::CreateFrom<ge::DataType>(ge::DT_STRING)));
  EXPECT_TRUE(IsNodeError(InferOp("EyeLike", &s, {In{{2, 2}}}, 1).status, "DT_STRING"));
}

// ------------------------------------------------------------------- OneHot

TEST(OneHotTest, OnnxCases) {
  std::vector<float> expect(40, 1);
  // indices [[1, 9], [2, 4]], axis 1: y[i][idx][j] = 3.
  expect[0 * 20 + 1 * 2 + 0] = 3;
  expect[0 * 20 + 9 * 2 + 1] = 3;
  expect[1 * 20 + 2 * 2 + 0] = 3;
  expect[1 * 20 + 4 * 2 + 1] = 3;
  for (int64_t axis : {1, -2}) {
    OpTester t("OneHot");
    t.Attr<int64_t>("axis", axis)
        .Input(F32({2, 2}, {1, 9, 2, 4}))
        .Input(F32({}, {10}))
        .Input(F32({2}, {1, 3}));
    ASSERT_OK(t.Run());
    EXPECT_EQ(t.OutShape(0), (gert::Shape{2, 10, 2}));
    EXPECT_THAT(t.Values<float>(0), ElementsAreArray(expect));
  }
  // test_onehot_negative_indices: [0, -7, -8], depth 10.
  OpTester n("OneHot");
  n.Attr<int64_t>("axis", 1)
      .Input(I64({3}, {0, -7, -8}))
      .Input(F32({}, {10}))
      .Input(F32({2}, {1, 3}));
  ASSERT_OK(n.Run());
  std::vector<float> ne(30, 1);
  ne[0] = 3;
  ne[10 + 3] = 3;
  ne[20 + 2] = 3;
  EXPECT_THAT(n.Values<float>(0), ElementsAreArray(ne));
}

TEST(OneHotTest, DefaultAxisOutOfRangeAndStrings) {
  OpTester t("OneHot");
  t.Input(I32({3}, {0, 5, -4})).Input(I64({}, {3})).Input(Str({2}, {"off", "on"}));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.OutShape(0), (gert::Shape{3, 3}));
  EXPECT_EQ(t.OutType(0), ge::DT_STRING);
  EXPECT_THAT(t.Values<std::string>(0),
              ElementsAre("on", "off", "off", "off", "off", "off", "off", "off", "off"));
}

TEST(OneHotInferTest, UnknownDepthAndErrors) {
  ge::NamedAttrs a;
  auto r = InferOp("OneHot", &a, {In{{2, -1}, ge::DT_INT64}, In{{}}, In{{2}, ge::DT_INT32}}, 1);
  ASSERT_OK(r.status);
  EXPECT_EQ(r.shapes[0], (gert::Shape{2, -1, -1}));
  EXPECT_EQ(r.dtypes[0], ge::DT_INT32);
  EXPECT_TRUE(IsNodeError(InferOp("OneHot", &a, {In{{2}, ge::DT_INT64}, In{{}}, In{{3}}}, 1).status,
                          "[off, on]"));
  gert::HostTensor zero = F32({}, {0});
  EXPECT_TRUE(IsNodeError(
      InferOp("OneHot", &a, {In{{2}, ge::DT_INT64}, Val(zero), In{{2}}}, 1).status, ">= 1"));
  ge::NamedAttrs oob;
  ASSERT_OK(oob.SetAttr("axis", ge::AttrValue::CreateFrom<int64_t>(3)));
  EXPECT_TRUE(IsNodeError(
      InferOp("OneHot", &oob, {In{{2}, ge::DT_INT64}, In{{}}, In{{2}}}, 1).status, "axis 3"));
}

}  // namespace
}  // namespace test
}  // namespace ops
