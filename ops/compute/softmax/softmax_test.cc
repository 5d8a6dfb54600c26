// ops/compute/softmax/softmax_test.cc
//
// Softmax and LogSoftmax on the compute engine against the host-CPU
// reference kernels: every axis (negative too) of ranks 1 to 5, odd sizes,
// large inputs, fp32 and bf16, 1 and 2 threads; and what Supports rejects.
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
using Dims = std::vector<int64_t>;

std::string Str(const Dims& d) {
  std::string s = "[";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + "]";
}

::testing::AssertionResult Matches(const std::string& type, const Dims& x, int64_t axis,
                                   ge::DataType dt, double range = 4.0) {
  ComputeKernelTester t(type);
  t.Attr("axis", axis).Input(RandomTensor(dt, x, 7, -range, range));
  const double tol = dt == ge::DT_BF16 ? 2e-2 : 1e-5;
  return t.MatchesReference(tol, tol, {1, 2});
}

TEST(DnnlSoftmaxTest, EveryAxis) {
  const std::vector<Dims> shapes = {{7}, {3, 5}, {2, 3, 4}, {2, 3, 4, 5}, {2, 1, 3, 5, 2}};
  for (const char* type : {"Softmax", "LogSoftmax"}) {
    for (const Dims& x : shapes) {
      const int64_t r = static_cast<int64_t>(x.size());
      for (int64_t axis = -r; axis < r; ++axis) {
        EXPECT_TRUE(Matches(type, x, axis, ge::DT_FLOAT))
            << type << " " << Str(x) << " axis " << axis;
      }
    }
  }
}

TEST(DnnlSoftmaxTest, OddSizesAndLargeInputs) {
  for (const char* type : {"Softmax", "LogSoftmax"}) {
    EXPECT_TRUE(Matches(type, {3, 17, 33}, -1, ge::DT_FLOAT)) << type;
    EXPECT_TRUE(Matches(type, {3, 17, 33}, 1, ge::DT_FLOAT)) << type;
    EXPECT_TRUE(Matches(type, {12, 128, 128}, -1, ge::DT_FLOAT)) << type;  // attention scores
    EXPECT_TRUE(Matches(type, {1, 1}, 0, ge::DT_FLOAT)) << type;
    // Middle axes over several 64-column tiles (150 = 64 + 64 + 22).
    EXPECT_TRUE(Matches(type, {2, 5, 150}, 1, ge::DT_FLOAT)) << type;
    EXPECT_TRUE(Matches(type, {3, 4, 10, 13}, -3, ge::DT_FLOAT)) << type;
    // Inputs far beyond exp's range: the row max is subtracted first.
    EXPECT_TRUE(Matches(type, {4, 9}, -1, ge::DT_FLOAT, 200.0)) << type;
    EXPECT_TRUE(Matches(type, {4, 9, 70}, 1, ge::DT_FLOAT, 200.0)) << type;
  }
}

TEST(DnnlSoftmaxTest, Bf16) {
  for (const char* type : {"Softmax", "LogSoftmax"}) {
    for (int64_t axis : {-1, 0, 1}) {
      EXPECT_TRUE(Matches(type, {3, 17, 20}, axis, ge::DT_BF16)) << type << " axis " << axis;
    }
    EXPECT_TRUE(Matches(type, {2, 5, 150}, 1, ge::DT_BF16)) << type;
  }
}

void ExpectNotSupported(ComputeKernelTester& t, const std::string& what) {
  ge::Status st = t.Supported();
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << what << ": " << st;
}

TEST(DnnlSoftmaxTest, Rejections) {
  for (const char* type : {"Softmax", "LogSoftmax"}) {
    {
      ComputeKernelTester t(type);
      t.Input(RandomTensor(ge::DT_DOUBLE, {2, 3}, 1));
      ExpectNotSupported(t, "double");
    }
    {
      ComputeKernelTester t(type);
      t.Input(RandomTensor(ge::DT_FLOAT16, {2, 3}, 1));
      ExpectNotSupported(t, "float16");
    }
    {
      ComputeKernelTester t(type);
      t.Input(RandomTensor(ge::DT_FLOAT, {2, 0, 3}, 1));
      ExpectNotSupported(t, "empty");
    }
  }
}

}  // namespace
}  // namespace compute
}  // namespace ops
