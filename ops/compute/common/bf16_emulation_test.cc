// ops/compute/common/bf16_emulation_test.cc
//
// The BF16 decorator forced on (as on a CPU without native BF16): MatMul
// with runtime and constant B, Conv with constant weights and bias, Relu,
// Add with broadcast and MaxPool on BF16 tensors match the host kernels on
// the same values; FLOAT nodes pass through unwrapped.
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ops/compute/common/compute_kernel_tester.h"

namespace ops {
namespace compute {
namespace {

using testing::ComputeKernelTester;
using testing::RandomTensor;

// One BF16 rounding of the output apart from the FLOAT reference on the
// same (BF16) values.
constexpr double kTol = 2e-2;

TEST(Bf16EmulationTest, MatMulRuntimeAndConstantB) {
  for (bool b_const : {false, true}) {
    ComputeKernelTester t("MatMul");
    t.ForceBf16Emulation().Input(RandomTensor(ge::DT_BF16, {2, 17, 33}, 1));
    if (b_const) {
      t.Const(RandomTensor(ge::DT_BF16, {33, 19}, 2));
    } else {
      t.Input(RandomTensor(ge::DT_BF16, {33, 19}, 2));
    }
    EXPECT_TRUE(t.MatchesReference(kTol, kTol, {1, 2})) << "const B " << b_const;
    EXPECT_TRUE(t.last_run_emulated());
  }
}

TEST(Bf16EmulationTest, ConvWithConstantWeightsAndBias) {
  ComputeKernelTester t("Conv");
  t.ForceBf16Emulation()
      .Attr("kernel_shape", std::vector<int64_t>{3, 3})
      .Attr("pads", std::vector<int64_t>{1, 1, 1, 1})
      .Input(RandomTensor(ge::DT_BF16, {1, 8, 9, 9}, 3))
      .Const(RandomTensor(ge::DT_BF16, {16, 8, 3, 3}, 4))
      .Const(RandomTensor(ge::DT_BF16, {16}, 5));
  EXPECT_TRUE(t.MatchesReference(kTol, kTol, {1, 2}));
  EXPECT_TRUE(t.last_run_emulated());
}

TEST(Bf16EmulationTest, EltwiseBinaryAndPool) {
  {
    ComputeKernelTester t("Relu");
    t.ForceBf16Emulation().Input(RandomTensor(ge::DT_BF16, {2, 16, 5, 5}, 6));
    EXPECT_TRUE(t.MatchesReference(kTol, kTol, {1, 2}));
    EXPECT_TRUE(t.last_run_emulated());
  }
  {
    ComputeKernelTester t("Add");
    t.ForceBf16Emulation()
        .Input(RandomTensor(ge::DT_BF16, {2, 16, 7, 7}, 7))
        .Input(RandomTensor(ge::DT_BF16, {1, 16, 1, 1}, 8));
    EXPECT_TRUE(t.MatchesReference(kTol, kTol, {1, 2}));
    EXPECT_TRUE(t.last_run_emulated());
  }
  {
    ComputeKernelTester t("MaxPool");
    t.ForceBf16Emulation()
        .Attr("kernel_shape", std::vector<int64_t>{3, 3})
        .Attr("strides", std::vector<int64_t>{2, 2})
        .Input(RandomTensor(ge::DT_BF16, {1, 4, 9, 9}, 9));
    // Max of BF16 values is exact.
    EXPECT_TRUE(t.MatchesReference(0, 0, {1, 2}));
    EXPECT_TRUE(t.last_run_emulated());
  }
}

TEST(Bf16EmulationTest, FloatNodesAreNotEmulated) {
  ComputeKernelTester t("MatMul");
  t.ForceBf16Emulation()
      .Input(RandomTensor(ge::DT_FLOAT, {17, 33}, 10))
      .Input(RandomTensor(ge::DT_FLOAT, {33, 19}, 11));
  EXPECT_TRUE(t.MatchesReference(1e-4, 1e-4, {1}));
  EXPECT_FALSE(t.last_run_emulated());
}

}  // namespace
}  // namespace compute
}  // namespace ops
