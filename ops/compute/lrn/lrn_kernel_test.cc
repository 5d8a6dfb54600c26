// ops/compute/lrn/lrn_kernel_test.cc
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "ops/compute/common/compute_kernel_tester.h"
#include "ops/compute/common/dnnl_common.h"
#include "ops/compute/reorder/layout_kernel_tester.h"

namespace ops {
namespace compute {
namespace {

using testing::ComputeKernelTester;
using testing::LayoutKernelTester;
using testing::RandomTensor;
using Ints = std::vector<int64_t>;

TEST(LrnKernelTest, SizesShapesAndAttributes) {
  struct Case {
    Ints x;
    int64_t size;
    float alpha, beta, bias;
  };
  const std::vector<Case> cases = {
      {{2, 16, 7, 7}, 5, 1e-4f, 0.75f, 1.0f}, {{1, 3, 4, 4}, 3, 0.5f, 0.5f, 2.0f},
      {{1, 7, 5, 3}, 1, 1.0f, 1.0f, 1.0f},    {{2, 5, 9}, 7, 0.2f, 0.75f, 1.0f},
      {{3, 6}, 3, 0.1f, 1.5f, 0.5f},          {{1, 4, 2, 3, 2}, 5, 0.3f, 0.75f, 1.0f},
      {{1, 1, 1, 1}, 3, 1e-4f, 0.75f, 1.0f},  {{1, 33, 3, 5}, 9, 0.05f, 0.6f, 1.0f},
  };
  uint32_t seed = 1;
  for (const Case& c : cases) {
    ComputeKernelTester t("LRN");
    t.Attr("size", c.size)
        .Attr("alpha", c.alpha)
        .Attr("beta", c.beta)
        .Attr("bias", c.bias)
        .Input(RandomTensor(ge::DT_FLOAT, c.x, seed++, -3, 3));
    EXPECT_TRUE(t.MatchesReference(1e-5, 1e-6, {1, 2})) << ::testing::PrintToString(c.x);
  }
}

TEST(LrnKernelTest, Bf16) {
  if (!HasBf16()) GTEST_SKIP() << "no native BF16 on this CPU";
  ComputeKernelTester t("LRN");
  t.Attr("size", int64_t{5}).Attr("alpha", 0.1f).Input(RandomTensor(ge::DT_BF16, {2, 16, 5, 5}, 1));
  EXPECT_TRUE(t.MatchesReference(2e-2, 1e-2, {1, 2}));
}

TEST(LrnKernelTest, Nc1hwc0) {
  uint32_t seed = 100;
  for (const Ints& x : std::vector<Ints>{{2, 20, 5, 5}, {1, 32, 3, 3}, {1, 3, 2, 2}}) {
    LayoutKernelTester t("LRN");
    t.Attr("size", int64_t{5})
        .Attr("alpha", 0.2f)
        .Input(RandomTensor(ge::DT_FLOAT, x, seed++), ge::FORMAT_NC1HWC0);
    EXPECT_TRUE(t.MatchesReference(1e-5, 1e-6)) << ::testing::PrintToString(x);
  }
}

TEST(LrnKernelTest, Rejections) {
  for (int64_t size : {2, 4}) {
    ComputeKernelTester t("LRN");
    t.Attr("size", size).Input(RandomTensor(ge::DT_FLOAT, {1, 8, 2, 2}, 1));
    const ge::Status st = t.Supported();
    EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
    EXPECT_NE(st.message().find("even"), absl::string_view::npos) << st;
  }
  LayoutKernelTester t("LRN");
  t.Attr("size", int64_t{3}).Input(RandomTensor(ge::DT_FLOAT, {1, 4, 4, 8}, 1), ge::FORMAT_NHWC);
  const ge::Status st = t.Supported();
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
  EXPECT_NE(st.message().find("NHWC"), absl::string_view::npos) << st;
}

}  // namespace
}  // namespace compute
}  // namespace ops
