// ops/compute/eltwise/eltwise_kernels_test.cc
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "ops/compute/common/compute_kernel_tester.h"
#include "ops/compute/common/dnnl_common.h"
#include "ops/compute/reorder/layout_kernel_tester.h"

namespace ops {
namespace compute {
namespace {

using testing::ComputeKernelTester;
using testing::LayoutKernelTester;
using testing::RandomTensor;
using testing::TensorOf;

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct UnaryCase {
  const char* type;
  double lo, hi;  // input range
};

// Every op type on the compute engine but Clip, with an input range where
// it is defined.
const std::vector<UnaryCase>& Cases() {
  static const std::vector<UnaryCase> cases = {
      {"Relu", -2, 2}, {"LeakyRelu", -2, 2}, {"Sigmoid", -6, 6},     {"Tanh", -4, 4},
      {"Elu", -3, 3},  {"Exp", -5, 5},       {"Log", 0.01, 5},       {"Sqrt", 0, 9},
      {"Abs", -3, 3},  {"HardSwish", -5, 5}, {"HardSigmoid", -4, 4}, {"Softplus", -8, 8},
      {"Gelu", -4, 4}, {"Round", -6, 6},     {"Neg", -3, 3},         {"Reciprocal", 0.1, 4},
  };
  return cases;
}

TEST(EltwiseKernelsTest, EveryOpMatchesTheReferenceOnPlainShapes) {
  const std::vector<std::vector<int64_t>> shapes = {
      {2, 16, 9, 9}, {7, 13}, {1}, {}, {3, 1, 5, 1, 2}, {1, 2, 1, 3, 1, 2, 2}};
  uint32_t seed = 1;
  for (const UnaryCase& c : Cases()) {
    for (const auto& shape : shapes) {
      ComputeKernelTester t(c.type);
      t.Input(RandomTensor(ge::DT_FLOAT, shape, seed++, c.lo, c.hi));
      EXPECT_TRUE(t.MatchesReference(1e-5, 1e-5, {1, 2}))
          << c.type << " shape of rank " << shape.size();
    }
  }
}

TEST(EltwiseKernelsTest, Attributes) {
  for (float alpha : {0.3f, 0.0f, -0.5f}) {
    ComputeKernelTester t("LeakyRelu");
    t.Attr("alpha", alpha).Input(RandomTensor(ge::DT_FLOAT, {4, 33}, 3, -2, 2));
    EXPECT_TRUE(t.MatchesReference(1e-6, 1e-6, {1, 2})) << alpha;
  }
  {
    ComputeKernelTester t("Elu");
    t.Attr("alpha", 0.5f).Input(RandomTensor(ge::DT_FLOAT, {4, 33}, 4, -3, 3));
    EXPECT_TRUE(t.MatchesReference(1e-5, 1e-5, {1, 2}));
  }
  {
    ComputeKernelTester t("HardSigmoid");
    t.Attr("alpha", 0.3f).Attr("beta", 0.4f).Input(RandomTensor(ge::DT_FLOAT, {4, 33}, 5, -4, 4));
    EXPECT_TRUE(t.MatchesReference(1e-6, 1e-6, {1, 2}));
  }
  {
    ComputeKernelTester t("Gelu");
    t.Attr("approximate", std::string("tanh")).Input(RandomTensor(ge::DT_FLOAT, {4, 33}, 6, -4, 4));
    EXPECT_TRUE(t.MatchesReference(1e-5, 1e-5, {1, 2}));
  }
}

TEST(EltwiseKernelsTest, EmptyTensor) {
  ComputeKernelTester t("Sigmoid");
  t.Input(RandomTensor(ge::DT_FLOAT, {0, 3}, 1));
  EXPECT_TRUE(t.MatchesReference(0, 0, {1}));
}

TEST(EltwiseKernelsTest, Bf16) {
  if (!HasBf16()) GTEST_SKIP() << "no native BF16 on this CPU";
  uint32_t seed = 100;
  for (const UnaryCase& c : Cases()) {
    if (std::string(c.type) == "Round") continue;  // FLOAT only (see Rejections)
    ComputeKernelTester t(c.type);
    t.Input(RandomTensor(ge::DT_BF16, {3, 17, 5, 5}, seed++, c.lo, c.hi));
    EXPECT_TRUE(t.MatchesReference(2e-2, 1e-2, {1, 2})) << c.type;
  }
}

// NaN, infinities, signed zeros and large values: the host kernel's results.
TEST(EltwiseKernelsTest, SpecialValues) {
  std::vector<double> v = {kNan,  -kNan,  kInf, -kInf, 0.0, -0.0, 1.0, -1.0, 100.0, -100.0,
                           1e-30, -1e-30, 0.5,  -0.5,  2.5, -2.5, 3.0, -3.0, 88.0,  -88.0};
  std::vector<double> x;
  for (int r = 0; r < 4; ++r) x.insert(x.end(), v.begin(), v.end());  // vector and tail paths
  for (const UnaryCase& c : Cases()) {
    for (ge::DataType dt : {ge::DT_FLOAT, ge::DT_BF16}) {
      if (dt == ge::DT_BF16 && (!HasBf16() || std::string(c.type) == "Round")) continue;
      LayoutKernelTester t(c.type);
      t.Input(TensorOf(dt, {static_cast<int64_t>(x.size())}, x));
      const double tol = dt == ge::DT_FLOAT ? 1e-5 : 2e-2;
      EXPECT_TRUE(t.MatchesReference(tol, tol)) << c.type << " " << static_cast<int>(dt);
    }
  }
  for (ge::DataType dt : {ge::DT_FLOAT, ge::DT_BF16}) {
    if (dt == ge::DT_BF16 && !HasBf16()) continue;
    LayoutKernelTester leaky0("LeakyRelu");
    leaky0.Attr("alpha", 0.0f).Input(TensorOf(dt, {static_cast<int64_t>(x.size())}, x));
    EXPECT_TRUE(leaky0.MatchesReference(0, 0)) << static_cast<int>(dt);
  }
}

TEST(EltwiseKernelsTest, Nc1hwc0KeepsThePaddingZero) {
  uint32_t seed = 200;
  for (const UnaryCase& c : Cases()) {
    for (const std::vector<int64_t>& shape :
         std::vector<std::vector<int64_t>>{{2, 20, 3, 5}, {1, 32, 2, 2}, {1, 1, 1, 1}}) {
      LayoutKernelTester t(c.type);
      t.Input(RandomTensor(ge::DT_FLOAT, shape, seed++, c.lo, c.hi), ge::FORMAT_NC1HWC0);
      EXPECT_TRUE(t.MatchesReference(1e-5, 1e-5)) << c.type << " C " << shape[1];
    }
    if (HasBf16() && std::string(c.type) != "Round") {
      LayoutKernelTester t(c.type);
      t.Input(RandomTensor(ge::DT_BF16, {2, 20, 3, 5}, seed++, c.lo, c.hi), ge::FORMAT_NC1HWC0);
      EXPECT_TRUE(t.MatchesReference(2e-2, 1e-2)) << c.type << " bf16";
    }
  }
}

// ------------------------------------------------------------------ Clip

gert::HostTensor Scalar(ge::DataType dt, double v) { return TensorOf(dt, {}, {v}); }

TEST(EltwiseKernelsTest, ClipConstantBounds) {
  struct Bounds {
    bool has_lo;
    double lo;
    bool has_hi;
    double hi;
  };
  const std::vector<Bounds> bounds = {{true, -0.5, true, 0.5}, {true, -0.5, false, 0},
                                      {false, 0, true, 0.25},  {false, 0, false, 0},
                                      {true, 0.5, true, -0.5}, {true, kNan, true, 0.5}};
  uint32_t seed = 300;
  for (const Bounds& b : bounds) {
    for (ge::DataType dt : {ge::DT_FLOAT, ge::DT_BF16}) {
      if (dt == ge::DT_BF16 && !HasBf16()) continue;
      ComputeKernelTester t("Clip");
      t.Input(RandomTensor(dt, {3, 7, 11}, seed++));
      if (b.has_lo) {
        t.Const(Scalar(dt, b.lo));
      } else {
        t.Absent();
      }
      if (b.has_hi) {
        t.Const(Scalar(dt, b.hi));
      } else if (b.has_lo) {
        t.Absent();
      }
      EXPECT_TRUE(t.MatchesReference(0, 0, {1, 2}))
          << b.has_lo << " " << b.lo << " " << b.has_hi << " " << b.hi;
    }
  }
}

TEST(EltwiseKernelsTest, ClipRunTimeBounds) {
  for (ge::DataType dt : {ge::DT_FLOAT, ge::DT_BF16}) {
    if (dt == ge::DT_BF16 && !HasBf16()) continue;
    ComputeKernelTester t("Clip");
    t.Input(RandomTensor(dt, {3, 7, 11}, 400)).Input(Scalar(dt, -0.25)).Input(Scalar(dt, 0.5));
    EXPECT_TRUE(t.MatchesReference(0, 0, {1, 2}));
    ComputeKernelTester only_hi("Clip");
    only_hi.Input(RandomTensor(dt, {5, 9}, 401)).Absent().Input(Scalar(dt, 0.0));
    EXPECT_TRUE(only_hi.MatchesReference(0, 0, {1, 2}));
  }
}

TEST(EltwiseKernelsTest, ClipSpecialValuesAndNc1hwc0) {
  const std::vector<double> x = {kNan, kInf, -kInf, 0.0, -0.0, 0.3, -0.3, 5.0, -5.0};
  for (bool constant : {true, false}) {
    LayoutKernelTester t("Clip");
    t.Input(TensorOf(ge::DT_FLOAT, {static_cast<int64_t>(x.size())}, x));
    if (constant) {
      t.Const(Scalar(ge::DT_FLOAT, -1.0)).Const(Scalar(ge::DT_FLOAT, 1.0));
    } else {
      t.Input(Scalar(ge::DT_FLOAT, -1.0)).Input(Scalar(ge::DT_FLOAT, 1.0));
    }
    EXPECT_TRUE(t.MatchesReference(0, 0)) << constant;
    // Bounds that do not hold 0: the padding must stay 0 all the same.
    LayoutKernelTester b("Clip");
    b.Input(RandomTensor(ge::DT_FLOAT, {2, 20, 3, 3}, 402), ge::FORMAT_NC1HWC0);
    if (constant) {
      b.Const(Scalar(ge::DT_FLOAT, 0.25)).Const(Scalar(ge::DT_FLOAT, 0.75));
    } else {
      b.Input(Scalar(ge::DT_FLOAT, 0.25)).Input(Scalar(ge::DT_FLOAT, 0.75));
    }
    b.OutputFormat(ge::FORMAT_NC1HWC0);
    EXPECT_TRUE(b.MatchesReference(0, 0)) << constant;
  }
}

// ------------------------------------------------------------ rejections

TEST(EltwiseKernelsTest, Rejections) {
  {
    ComputeKernelTester t("Gelu");
    t.Attr("approximate", std::string("fast")).Input(RandomTensor(ge::DT_FLOAT, {4}, 1));
    // The op's own verify has nothing against the value; the kernel rejects it.
    const ge::Status st = t.Supported();
    EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
    EXPECT_NE(st.message().find("approximate"), absl::string_view::npos) << st;
  }
  {
    ComputeKernelTester t("Relu");
    t.Input(RandomTensor(ge::DT_DOUBLE, {4}, 1));
    const ge::Status st = t.Supported();
    EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
    EXPECT_NE(st.message().find("data type"), absl::string_view::npos) << st;
  }
  {
    LayoutKernelTester t("Relu");
    t.Input(RandomTensor(ge::DT_FLOAT, {1, 20, 2, 2}, 1), ge::FORMAT_NC1HWC0)
        .OutputFormat(ge::FORMAT_NCHW);
    const ge::Status st = t.Supported();
    EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
    EXPECT_NE(st.message().find("keeps the layout"), absl::string_view::npos) << st;
  }
  {
    LayoutKernelTester t("Relu");
    t.Input(RandomTensor(ge::DT_FLOAT, {1, 2, 2, 2, 16}, 1), ge::FORMAT_NC1HWC0);
    const ge::Status st = t.Supported();
    EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
    EXPECT_NE(st.message().find("4 logical dims"), absl::string_view::npos) << st;
  }
  {
    ComputeKernelTester t("Round");
    t.Input(RandomTensor(ge::DT_BF16, {4}, 1));
    const ge::Status st = t.Supported();
    EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
    EXPECT_NE(st.message().find("FLOAT only"), absl::string_view::npos) << st;
  }
  for (const char* type :
       {"Celu", "Selu", "Softsign", "Sign", "Ceil", "Floor", "Sin", "ThresholdedRelu", "IsNaN"}) {
    EXPECT_EQ(ge::FindKernel(type, ge::kEngineAiCore), nullptr) << type;
  }
}

TEST(EltwiseKernelsTest, ChannelsLast) {
  uint32_t seed = 900;
  for (const char* type : {"Relu", "Sigmoid", "Tanh", "HardSwish"}) {
    for (const std::vector<int64_t>& x :
         std::vector<std::vector<int64_t>>{{1, 8, 5, 3}, {2, 3, 2, 2, 3}}) {
      ComputeKernelTester t(type);
      t.Input(RandomTensor(ge::DT_FLOAT, x, seed++, -4, 4)).ChannelsLast();
      EXPECT_TRUE(t.MatchesReference(1e-5, 1e-6, {1, 2})) << type;
    }
  }
}

TEST(EltwiseKernelsTest, ErfAndPowOwnLoops) {
  uint32_t seed = 950;
  for (const std::vector<int64_t>& x : std::vector<std::vector<int64_t>>{{7}, {2, 128, 768}}) {
    ComputeKernelTester erf("Erf");
    erf.Input(RandomTensor(ge::DT_FLOAT, x, seed++, -3, 3));
    EXPECT_TRUE(erf.MatchesReference(0, 0, {1, 2}));
    for (float e : {2.0f, 3.0f, 0.5f}) {
      ComputeKernelTester pow("Pow");
      pow.Input(RandomTensor(ge::DT_FLOAT, x, seed++, -3, 3));
      pow.Const(RandomTensor(ge::DT_FLOAT, {}, 1, e, e));
      EXPECT_TRUE(pow.MatchesReference(2e-7, 0, {1, 2})) << e;  // x * x vs the host powf: 1 ulp
    }
    // A runtime exponent runs the host function.
    ComputeKernelTester rt("Pow");
    rt.Input(RandomTensor(ge::DT_FLOAT, x, seed++, 0.5, 3));
    rt.Input(RandomTensor(ge::DT_FLOAT, {1}, seed++, -2, 2));
    EXPECT_TRUE(rt.MatchesReference(0, 0, {1, 2}));
  }
  ComputeKernelTester broadcast("Pow");
  broadcast.Input(RandomTensor(ge::DT_FLOAT, {4}, seed));
  broadcast.Input(RandomTensor(ge::DT_FLOAT, {2, 4}, seed + 1));
  EXPECT_FALSE(broadcast.Supported().ok());
}

}  // namespace
}  // namespace compute
}  // namespace ops
