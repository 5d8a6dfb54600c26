// ops/compute/concat/concat_kernel_test.cc
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

// Input shapes for concatenating `parts` tensors of `base` along `axis`
// with axis sizes from `sizes`.
std::vector<Ints> Parts(Ints base, int64_t axis, const Ints& sizes) {
  const size_t a = static_cast<size_t>(axis < 0 ? axis + static_cast<int64_t>(base.size()) : axis);
  std::vector<Ints> out;
  for (int64_t s : sizes) {
    Ints d = base;
    d[a] = s;
    out.push_back(d);
  }
  return out;
}

::testing::AssertionResult Check(ge::DataType dt, const std::vector<Ints>& shapes, int64_t axis,
                                 uint32_t seed) {
  ComputeKernelTester t("Concat");
  t.Dynamic("inputs", static_cast<uint32_t>(shapes.size())).Attr("axis", axis);
  for (size_t i = 0; i < shapes.size(); ++i) {
    t.Input(RandomTensor(dt, shapes[i], seed + static_cast<uint32_t>(i), -100, 100));
  }
  return t.MatchesReference(0, 0, {1, 2});
}

TEST(ConcatKernelTest, EveryAxisIncludingNegative) {
  const Ints base = {2, 3, 4, 5};
  uint32_t seed = 1;
  for (int64_t axis = -4; axis < 4; ++axis) {
    EXPECT_TRUE(Check(ge::DT_FLOAT, Parts(base, axis, {1, 3, 2}), axis, seed += 10)) << axis;
  }
}

TEST(ConcatKernelTest, RanksCountsAndEmptyInputs) {
  EXPECT_TRUE(Check(ge::DT_FLOAT, {{3}, {5}}, 0, 1));
  EXPECT_TRUE(Check(ge::DT_FLOAT, {{7, 1}}, 1, 2));                   // one input
  EXPECT_TRUE(Check(ge::DT_FLOAT, {{1}, {1}, {1}, {1}, {1}}, 0, 3));  // 1 element each
  EXPECT_TRUE(Check(ge::DT_FLOAT, {{2, 0, 3}, {2, 4, 3}, {2, 0, 3}, {2, 1, 3}}, 1, 4));
  EXPECT_TRUE(Check(ge::DT_FLOAT, {{0, 3}, {0, 2}}, 1, 5));  // empty output
  EXPECT_TRUE(Check(ge::DT_FLOAT, Parts({2, 1, 3, 1, 2, 2, 3}, 4, {1, 2, 5}), 4, 6));  // rank 7
  EXPECT_TRUE(Check(ge::DT_FLOAT, Parts({3, 7, 11}, -1, {13, 1, 9}), -1, 7));
}

TEST(ConcatKernelTest, DataTypes) {
  uint32_t seed = 100;
  for (ge::DataType dt : {ge::DT_BF16, ge::DT_INT8, ge::DT_UINT8, ge::DT_INT32}) {
    EXPECT_TRUE(Check(dt, Parts({2, 3, 4}, 1, {2, 5, 1}), 1, seed += 10)) << static_cast<int>(dt);
    EXPECT_TRUE(Check(dt, Parts({2, 3, 4}, 2, {3, 3}), 2, seed += 10)) << static_cast<int>(dt);
  }
}

TEST(ConcatKernelTest, Nc1hwc0) {
  uint32_t seed = 200;
  struct Case {
    std::vector<Ints> shapes;
    int64_t axis;
  };
  const std::vector<Case> cases = {
      {{{1, 16, 3, 3}, {1, 32, 3, 3}, {1, 5, 3, 3}}, 1},  // the last may be padded
      {{{2, 20, 3, 3}, {1, 20, 3, 3}}, 0},
      {{{1, 20, 2, 3}, {1, 20, 4, 3}}, 2},
      {{{1, 7, 2, 3}, {1, 7, 2, 1}}, -1},
  };
  for (const Case& c : cases) {
    LayoutKernelTester t("Concat");
    t.Dynamic("inputs", static_cast<uint32_t>(c.shapes.size())).Attr("axis", c.axis);
    for (const Ints& s : c.shapes) {
      t.Input(RandomTensor(ge::DT_FLOAT, s, seed++), ge::FORMAT_NC1HWC0);
    }
    EXPECT_TRUE(t.MatchesReference(0, 0)) << c.axis;
  }
}

TEST(ConcatKernelTest, Rejections) {
  {
    LayoutKernelTester t("Concat");
    t.Dynamic("inputs", 2).Attr("axis", int64_t{1});
    t.Input(RandomTensor(ge::DT_FLOAT, {1, 20, 3, 3}, 1), ge::FORMAT_NC1HWC0)
        .Input(RandomTensor(ge::DT_FLOAT, {1, 16, 3, 3}, 2), ge::FORMAT_NC1HWC0);
    const ge::Status st = t.Supported();
    EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
    EXPECT_NE(st.message().find("multiple of 16"), absl::string_view::npos) << st;
  }
  {
    LayoutKernelTester t("Concat");
    t.Dynamic("inputs", 2).Attr("axis", int64_t{1});
    t.Input(RandomTensor(ge::DT_FLOAT, {1, 16, 3, 3}, 1), ge::FORMAT_NC1HWC0)
        .Input(RandomTensor(ge::DT_FLOAT, {1, 16, 3, 3}, 2));
    const ge::Status st = t.Supported();
    EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
    EXPECT_NE(st.message().find("NC1HWC0 only on every tensor"), absl::string_view::npos) << st;
  }
  {
    ComputeKernelTester t("Concat");
    t.Dynamic("inputs", 2).Attr("axis", int64_t{0});
    t.Input(RandomTensor(ge::DT_INT64, {2}, 1)).Input(RandomTensor(ge::DT_INT64, {2}, 2));
    const ge::Status st = t.Supported();
    EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
    EXPECT_NE(st.message().find("data type"), absl::string_view::npos) << st;
  }
}

TEST(ConcatKernelTest, ChannelsLastAlongEachAxis) {
  uint32_t seed = 900;
  for (int64_t axis : {1, 2, -1}) {
    std::vector<int64_t> a = {2, 5, 4, 3}, b = {2, 5, 4, 3};
    b[static_cast<size_t>(axis < 0 ? axis + 4 : axis)] = 7;
    ComputeKernelTester t("Concat");
    t.Dynamic("inputs", 2).Attr("axis", axis);
    t.Input(RandomTensor(ge::DT_FLOAT, a, seed));
    t.Input(RandomTensor(ge::DT_FLOAT, b, seed + 1));
    seed += 2;
    t.ChannelsLast();
    EXPECT_TRUE(t.MatchesReference(0, 0, {1, 2})) << axis;
  }
}

}  // namespace
}  // namespace compute
}  // namespace ops
