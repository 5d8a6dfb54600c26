// ops/compute/binary/binary_kernels_test.cc
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
using Dims = std::vector<int64_t>;

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

bool Variadic(const std::string& type) {
  return type == "Max" || type == "Min" || type == "Sum" || type == "Mean";
}

// Shape pairs: equal, B broadcast (per channel, trailing, scalar, lower
// rank), A broadcast (swapped or reference path), both broadcast, 1
// element, odd sizes, rank 7, an empty output.
const std::vector<std::pair<Dims, Dims>>& ShapePairs() {
  static const std::vector<std::pair<Dims, Dims>> pairs = {
      {{2, 16, 7, 7}, {2, 16, 7, 7}},
      {{2, 16, 7, 7}, {1, 16, 1, 1}},
      {{2, 16, 7, 7}, {16, 1, 1}},
      {{2, 3, 5}, {5}},
      {{2, 3, 5}, {}},
      {{4, 9}, {1}},
      {{1, 16, 1, 1}, {2, 16, 7, 7}},
      {{5}, {2, 3, 5}},
      {{3, 1, 5}, {1, 4, 1}},
      {{1}, {1}},
      {{13, 1}, {13, 17}},
      {{2, 1, 3, 1, 2, 1, 3}, {1, 2, 3, 2, 2, 1, 1}},
      {{0, 3}, {1, 3}},
  };
  return pairs;
}

ComputeKernelTester Make(const std::string& type) {
  ComputeKernelTester t(type);
  if (Variadic(type)) t.Dynamic("data_0", 2);
  return t;
}

bool BothBroadcast(const Dims& a, const Dims& b) {
  // The output shape is neither a nor b (padded).
  const size_t r = std::max(a.size(), b.size());
  bool a_full = true, b_full = true;
  for (size_t i = 0; i < r; ++i) {
    const int64_t ai = i + a.size() >= r ? a[i + a.size() - r] : 1;
    const int64_t bi = i + b.size() >= r ? b[i + b.size() - r] : 1;
    const int64_t c = std::max(ai, bi);
    a_full = a_full && (ai == c || c == 1);
    b_full = b_full && (bi == c || c == 1);
  }
  return !a_full && !b_full;
}

TEST(BinaryKernelsTest, EveryOpAndBroadcastMatchesTheReference) {
  uint32_t seed = 1;
  for (const char* type : {"Add", "Sub", "Mul", "Div", "Max", "Min", "Sum", "Mean"}) {
    for (const auto& [a, b] : ShapePairs()) {
      if ((std::string(type) == "Max" || std::string(type) == "Min") && BothBroadcast(a, b)) {
        continue;  // rejected (see Rejections)
      }
      ComputeKernelTester t = Make(type);
      const double lo = std::string(type) == "Div" ? 0.5 : -2.0;
      t.Input(RandomTensor(ge::DT_FLOAT, a, seed, -2, 2))
          .Input(RandomTensor(ge::DT_FLOAT, b, seed + 1, lo, 2));
      seed += 2;
      EXPECT_TRUE(t.MatchesReference(1e-6, 1e-6, {1, 2}))
          << type << " " << ::testing::PrintToString(a) << " " << ::testing::PrintToString(b);
    }
  }
}

TEST(BinaryKernelsTest, Bf16) {
  uint32_t seed = 100;
  for (const char* type : {"Add", "Sub", "Mul", "Div", "Max", "Min", "Mean"}) {
    for (const auto& [a, b] : std::vector<std::pair<Dims, Dims>>{
             {{2, 16, 7, 7}, {1, 16, 1, 1}}, {{1, 16, 1, 1}, {2, 16, 7, 7}}, {{3, 33}, {3, 33}}}) {
      ComputeKernelTester t = Make(type);
      t.Input(RandomTensor(ge::DT_BF16, a, seed, 0.5, 2))
          .Input(RandomTensor(ge::DT_BF16, b, seed + 1, 0.5, 2));
      seed += 2;
      EXPECT_TRUE(t.MatchesReference(2e-2, 1e-2, {1, 2})) << type;
    }
  }
}

// NaN in either input (in the broadcast one too), infinities, zeros.
TEST(BinaryKernelsTest, SpecialValues) {
  const std::vector<double> v = {kNan, 1.0, -kInf, kInf, 0.0, -0.0, 2.0, kNan, -3.0, 0.5, 7.0};
  std::vector<double> a, b;
  for (int r = 0; r < 5; ++r) {
    for (size_t i = 0; i < v.size(); ++i) {
      a.push_back(v[i]);
      b.push_back(v[(i * 3 + r) % v.size()]);
    }
  }
  const int64_t n = static_cast<int64_t>(a.size());
  for (const char* type : {"Add", "Sub", "Mul", "Div", "Max", "Min", "Mean"}) {
    for (ge::DataType dt : {ge::DT_FLOAT, ge::DT_BF16}) {
      const double tol = dt == ge::DT_FLOAT ? 1e-6 : 2e-2;
      {
        LayoutKernelTester t(type);
        if (Variadic(type)) t.Dynamic("data_0", 2);
        t.Input(TensorOf(dt, {n}, a)).Input(TensorOf(dt, {n}, b));
        EXPECT_TRUE(t.MatchesReference(tol, tol)) << type;
      }
      for (bool swapped : {false, true}) {  // a NaN / inf in the broadcast input
        LayoutKernelTester t(type);
        if (Variadic(type)) t.Dynamic("data_0", 2);
        gert::HostTensor full = TensorOf(dt, {5, 11}, a);
        gert::HostTensor row = TensorOf(dt, {11}, v);
        if (swapped) {
          t.Input(std::move(row)).Input(std::move(full));
        } else {
          t.Input(std::move(full)).Input(std::move(row));
        }
        EXPECT_TRUE(t.MatchesReference(tol, tol)) << type << " swapped " << swapped;
      }
    }
  }
}

TEST(BinaryKernelsTest, Nc1hwc0KeepsThePaddingZero) {
  uint32_t seed = 200;
  for (const char* type : {"Add", "Sub", "Mul", "Div", "Max", "Min", "Mean"}) {
    for (const Dims& shape : std::vector<Dims>{{2, 20, 3, 5}, {1, 32, 2, 2}}) {
      LayoutKernelTester t(type);
      if (Variadic(type)) t.Dynamic("data_0", 2);
      t.Input(RandomTensor(ge::DT_FLOAT, shape, seed, 0.5, 2), ge::FORMAT_NC1HWC0)
          .Input(RandomTensor(ge::DT_FLOAT, shape, seed + 1, 0.5, 2), ge::FORMAT_NC1HWC0);
      seed += 2;
      EXPECT_TRUE(t.MatchesReference(1e-6, 1e-6)) << type << " C " << shape[1];
    }
  }
}

TEST(BinaryKernelsTest, PRelu) {
  uint32_t seed = 300;
  for (const auto& [x, s] : std::vector<std::pair<Dims, Dims>>{{{2, 16, 7, 7}, {16, 1, 1}},
                                                               {{2, 16, 7, 7}, {1, 16, 1, 1}},
                                                               {{2, 3, 5}, {1}},
                                                               {{2, 3, 5}, {5}},
                                                               {{2, 3, 5}, {2, 3, 5}},
                                                               {{3, 4, 5, 6, 7}, {4, 1, 1, 1}},
                                                               {{7}, {7}}}) {
    for (bool constant : {true, false}) {
      ComputeKernelTester t("PRelu");
      t.Input(RandomTensor(ge::DT_FLOAT, x, seed++, -2, 2));
      gert::HostTensor slope = RandomTensor(ge::DT_FLOAT, s, seed++, -1, 1);
      if (constant) {
        t.Const(std::move(slope));
      } else {
        t.Input(std::move(slope));
      }
      EXPECT_TRUE(t.MatchesReference(1e-6, 1e-6, {1, 2})) << ::testing::PrintToString(x);
    }
  }
  {
    ComputeKernelTester t("PRelu");
    t.Input(RandomTensor(ge::DT_BF16, {2, 16, 7, 7}, 1, -2, 2))
        .Const(RandomTensor(ge::DT_BF16, {16, 1, 1}, 2, -1, 1));
    EXPECT_TRUE(t.MatchesReference(2e-2, 1e-2, {1, 2}));
  }
}

// ------------------------------------------------------------ rejections

void ExpectRejected(ge::Status st, const std::string& reason) {
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
  EXPECT_NE(st.message().find(reason), absl::string_view::npos) << st;
}

TEST(BinaryKernelsTest, Rejections) {
  {
    ComputeKernelTester t("Max");
    t.Dynamic("data_0", 3)
        .Input(RandomTensor(ge::DT_FLOAT, {4}, 1))
        .Input(RandomTensor(ge::DT_FLOAT, {4}, 2))
        .Input(RandomTensor(ge::DT_FLOAT, {4}, 3));
    ExpectRejected(t.Supported(), "exactly 2 inputs");
  }
  {
    ComputeKernelTester t("Min");
    t.Dynamic("data_0", 2)
        .Input(RandomTensor(ge::DT_FLOAT, {3, 1}, 1))
        .Input(RandomTensor(ge::DT_FLOAT, {1, 4}, 2));
    ExpectRejected(t.Supported(), "NaN");
  }
  {
    ComputeKernelTester t("Add");
    t.Input(RandomTensor(ge::DT_INT32, {4}, 1)).Input(RandomTensor(ge::DT_INT32, {4}, 2));
    ExpectRejected(t.Supported(), "data type");
  }
  {
    LayoutKernelTester t("Add");
    t.Input(RandomTensor(ge::DT_FLOAT, {1, 20, 2, 2}, 1), ge::FORMAT_NC1HWC0)
        .Input(RandomTensor(ge::DT_FLOAT, {1, 20, 1, 1}, 2), ge::FORMAT_NC1HWC0);
    ExpectRejected(t.Supported(), "no broadcast");
  }
  {
    LayoutKernelTester t("Add");
    t.Input(RandomTensor(ge::DT_FLOAT, {1, 20, 2, 2}, 1), ge::FORMAT_NC1HWC0)
        .Input(RandomTensor(ge::DT_FLOAT, {1, 20, 2, 2}, 2));
    ExpectRejected(t.Supported(), "all three");
  }
  for (const char* type : {"Pow", "Mod", "BitShift"}) {
    EXPECT_EQ(ge::FindKernel(type, ge::kEngineAiCore), nullptr) << type;
  }
}

TEST(BinaryKernelsTest, ChannelsLastSameShape) {
  uint32_t seed = 900;
  for (const char* type : {"Add", "Mul", "Sub"}) {
    ComputeKernelTester t(type);
    t.Input(RandomTensor(ge::DT_FLOAT, {2, 16, 5, 3}, seed));
    t.Input(RandomTensor(ge::DT_FLOAT, {2, 16, 5, 3}, seed + 1)).ChannelsLast();
    seed += 2;
    EXPECT_TRUE(t.MatchesReference(1e-6, 1e-6, {1, 2})) << type;
  }
  // A broadcast operand is not taken channels-last.
  ComputeKernelTester b("Add");
  b.Input(RandomTensor(ge::DT_FLOAT, {2, 16, 5, 3}, seed));
  b.Input(RandomTensor(ge::DT_FLOAT, {1, 16, 1, 1}, seed + 1)).ChannelsLast();
  EXPECT_FALSE(b.Supported().ok());
}

}  // namespace
}  // namespace compute
}  // namespace ops
