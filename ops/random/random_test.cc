// ops/random/random_test.cc: RandomUniform(Like), RandomNormal(Like),
// Bernoulli, Multinomial. Values are random: the tests check shapes, dtypes,
// determinism for a seed and sample statistics (bounds chosen > 6 standard
// errors away, so they do not fail by chance).
#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ops/rnn/op_tester.h"

namespace ops {
namespace {

using optest::ErrorContains;
using optest::F32;
using optest::I32;
using optest::OpTester;

double Mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}
double Variance(const std::vector<double>& v) {
  const double m = Mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return v.empty() ? 0 : s / static_cast<double>(v.size());
}

constexpr int64_t kN = 20000;

TEST(RandomUniformTest, RangeAndMoments) {
  OpTester t("RandomUniform");
  t.AttrInts("shape", {100, kN / 100})
      .AttrFloat("low", 2.f)
      .AttrFloat("high", 5.f)
      .AttrFloat("seed", 7.f);
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{100, kN / 100}));
  EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_FLOAT);
  std::vector<double> v = t.OutValues(0);
  for (double x : v) {
    ASSERT_GE(x, 2.0);
    ASSERT_LT(x, 5.0);
  }
  // Uniform(2, 5): mean 3.5 (se 0.006), variance 0.75 (se 0.003).
  EXPECT_NEAR(Mean(v), 3.5, 0.04);
  EXPECT_NEAR(Variance(v), 0.75, 0.02);
}

TEST(RandomUniformTest, SeedIsDeterministic) {
  auto run = [](float seed, bool with_seed) {
    OpTester t("RandomUniform");
    t.AttrInts("shape", {64});
    if (with_seed) t.AttrFloat("seed", seed);
    EXPECT_TRUE(t.Run(1).ok());
    return t.OutValues(0);
  };
  EXPECT_EQ(run(3.f, true), run(3.f, true));
  EXPECT_NE(run(3.f, true), run(4.f, true));
  EXPECT_NE(run(0.f, false), run(0.f, false));  // fresh seed per run
}

TEST(RandomNormalTest, MomentsAndDtypes) {
  OpTester t("RandomNormal");
  t.AttrInts("shape", {kN})
      .AttrFloat("mean", 1.f)
      .AttrFloat("scale", 2.f)
      .AttrFloat("seed", 1.f)
      .AttrDtype("dtype", ge::DT_DOUBLE);
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_DOUBLE);
  std::vector<double> v = t.OutValues(0);
  // N(1, 4): mean se 0.014, variance se 0.04.
  EXPECT_NEAR(Mean(v), 1.0, 0.1);
  EXPECT_NEAR(Variance(v), 4.0, 0.3);
  // Roughly 68% within one sigma.
  int64_t inside = 0;
  for (double x : v) inside += std::fabs(x - 1.0) < 2.0;
  EXPECT_NEAR(static_cast<double>(inside) / kN, 0.6827, 0.02);
  OpTester h("RandomNormal");
  h.AttrInts("shape", {2, 3}).AttrDtype("dtype", ge::DT_FLOAT16);
  ASSERT_TRUE(h.Run(1).ok());
  EXPECT_EQ(h.Out(0).GetDataType(), ge::DT_FLOAT16);
  EXPECT_EQ(h.Out(0).GetShape(), (gert::Shape{2, 3}));
}

TEST(RandomGeneratorTest, InferAndErrors) {
  OpTester t("RandomUniform", "ru");
  t.AttrInts("shape", {2, -1});
  EXPECT_TRUE(ErrorContains(t.InferShapes({}, {}, 1), "shape[1] = -1 is negative", "ru"));
  OpTester d("RandomNormal", "rn");
  d.AttrInts("shape", {2}).AttrDtype("dtype", ge::DT_INT32);
  ge::Status st = d.InferShapes({}, {}, 1);
  EXPECT_TRUE(ErrorContains(st, "dtype DT_INT32 is not supported", "rn"));
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported);
  OpTester m("RandomNormal", "rn");
  EXPECT_TRUE(ErrorContains(m.InferShapes({}, {}, 1), "shape", "rn"));  // required attribute
  OpTester s("RandomUniform");
  s.AttrInts("shape", {});
  ASSERT_TRUE(s.Run(1).ok());
  EXPECT_EQ(s.Out(0).GetShape(), gert::Shape{});
}

TEST(RandomLikeTest, ShapeAndDtype) {
  OpTester t("RandomUniformLike");
  t.Input(optest::T(ge::DT_DOUBLE, {3, 4}, std::vector<double>(12, 0)));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{3, 4}));
  EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_DOUBLE);
  OpTester n("RandomNormalLike", "rnl");
  n.AttrDtype("dtype", ge::DT_FLOAT).Input(I32({5}, {1, 2, 3, 4, 5}));
  ASSERT_TRUE(n.Run(1).ok());
  EXPECT_EQ(n.Out(0).GetDataType(), ge::DT_FLOAT);
  ASSERT_TRUE(n.InferShapes({{-1, 7}}, {ge::DT_INT32}, 1).ok());
  EXPECT_EQ(n.InferredShape(0), (gert::Shape{-1, 7}));
  OpTester bad("RandomNormalLike", "rnl");
  EXPECT_TRUE(ErrorContains(bad.InferShapes({{5}}, {ge::DT_INT32}, 1),
                            "input 0 is DT_INT32: set the dtype attribute", "rnl"));
}

TEST(BernoulliTest, FrequencyAndEdges) {
  std::vector<double> p(kN, 0.3);
  p[0] = 0;
  p[1] = 1;
  OpTester t("Bernoulli");
  t.AttrFloat("seed", 5.f).Input(F32({kN}, p));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_FLOAT);
  std::vector<double> v = t.OutValues(0);
  EXPECT_EQ(v[0], 0.0);
  EXPECT_EQ(v[1], 1.0);
  int64_t ones = 0;
  for (double x : v) {
    ASSERT_TRUE(x == 0.0 || x == 1.0);
    ones += x == 1.0;
  }
  // p = 0.3: se 0.0032.
  EXPECT_NEAR(static_cast<double>(ones) / kN, 0.3, 0.02);
}

TEST(BernoulliTest, DtypeAttrAndErrors) {
  OpTester t("Bernoulli");
  t.AttrDtype("dtype", ge::DT_BOOL).Input(F32({2}, {1, 0}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_BOOL);
  EXPECT_EQ(t.OutValues(0), (std::vector<double>{1, 0}));
  OpTester i("Bernoulli");
  i.AttrDtype("dtype", ge::DT_INT64).Input(F32({1}, {1}));
  ASSERT_TRUE(i.Run(1).ok());
  EXPECT_EQ(i.OutValues(0), (std::vector<double>{1}));
  OpTester bad("Bernoulli", "b");
  bad.Input(F32({3}, {0.5, 1.5, 0}));
  EXPECT_TRUE(ErrorContains(bad.Run(1), "element 1 = 1.5 is not a probability", "b"));
  OpTester nan("Bernoulli", "b");
  nan.Input(F32({1}, {std::nan("")}));
  EXPECT_TRUE(ErrorContains(nan.Run(1), "element 0", "b"));
  OpTester str("Bernoulli", "b");
  str.AttrDtype("dtype", ge::DT_STRING);
  EXPECT_TRUE(
      ErrorContains(str.InferShapes({{2}}, {ge::DT_FLOAT}, 1), "DT_STRING is not supported", "b"));
}

TEST(MultinomialTest, FrequenciesAndZeroMass) {
  // log-probabilities of [0.2, 0.8, 0]; row 2 puts all mass on class 0.
  const double ninf = -HUGE_VAL;
  OpTester t("Multinomial");
  t.AttrInt("sample_size", kN)
      .AttrFloat("seed", 11.f)
      .Input(F32({2, 3}, {std::log(0.2), std::log(0.8), ninf, 5, ninf, ninf}));
  ASSERT_TRUE(t.Run(1).ok());
  EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{2, kN}));
  EXPECT_EQ(t.Out(0).GetDataType(), ge::DT_INT32);
  std::vector<double> v = t.OutValues(0);
  int64_t ones = 0;
  for (int64_t i = 0; i < kN; ++i) {
    ASSERT_TRUE(v[i] == 0 || v[i] == 1) << v[i];
    ones += v[i] == 1;
  }
  EXPECT_NEAR(static_cast<double>(ones) / kN, 0.8, 0.02);  // se 0.0028
  for (int64_t i = kN; i < 2 * kN; ++i) ASSERT_EQ(v[i], 0);
}

TEST(MultinomialTest, InferAndErrors) {
  OpTester t("Multinomial", "mn");
  t.AttrInt("sample_size", 4).AttrDtype("dtype", ge::DT_INT64);
  ASSERT_TRUE(t.InferShapes({{-1, 10}}, {ge::DT_FLOAT}, 1).ok());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{-1, 4}));
  EXPECT_EQ(t.InferredDtype(0), ge::DT_INT64);
  EXPECT_TRUE(
      ErrorContains(t.InferShapes({{10}}, {ge::DT_FLOAT}, 1), "[batch_size, class_size]", "mn"));
  OpTester dt("Multinomial", "mn");
  dt.AttrDtype("dtype", ge::DT_FLOAT);
  EXPECT_TRUE(ErrorContains(dt.InferShapes({{1, 2}}, {ge::DT_FLOAT}, 1),
                            "dtype DT_FLOAT is not supported", "mn"));
  OpTester inf("Multinomial", "mn");
  inf.Input(F32({1, 2}, {-HUGE_VAL, -HUGE_VAL}));
  EXPECT_TRUE(ErrorContains(inf.Run(1), "row 0 has no finite maximum", "mn"));
  OpTester nan("Multinomial", "mn");
  nan.Input(F32({1, 2}, {0, std::nan("")}));
  EXPECT_TRUE(ErrorContains(nan.Run(1), "row 0 has NaN at class 1", "mn"));
  OpTester neg("Multinomial", "mn");
  neg.AttrInt("sample_size", -1);
  EXPECT_TRUE(ErrorContains(neg.InferShapes({{1, 2}}, {ge::DT_FLOAT}, 1),
                            "sample_size must be >= 0", "mn"));
}

}  // namespace
}  // namespace ops
