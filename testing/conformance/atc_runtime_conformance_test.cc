// testing/conformance/atc_runtime_conformance_test.cc
//
// (a) The full pipeline on every ONNX backend test case: atc library -> OM
// bytes -> runtime Model -> Run, compared with the expected outputs. Fails
// when a case listed PASS in testdata/expected_status.txt fails; new passes
// are listed with the command that refreshes the baseline (see
// conformance_check.h for the environment knobs).
#include <cstdint>
#include <memory>

#include "gtest/gtest.h"
#include "testing/conformance/atc_runtime_backend.h"
#include "testing/conformance/conformance_check.h"

namespace ge {
namespace conformance {
namespace {

// The cases are split into kChunks chunks (case k goes to chunk k % kChunks),
// one test each, so that gtest spreads them over the target's shards.
constexpr int32_t kChunks = 4;

class AtcRuntimeConformanceTest : public ::testing::TestWithParam<int32_t> {};

TEST_P(AtcRuntimeConformanceTest, NoRegressionAgainstBaseline) {
  std::unique_ptr<Backend> backend = MakeAtcRuntimeBackend();
  CheckOptions options;
  options.baseline = "testing/conformance/testdata/expected_status.txt";
  options.backend_flag = "atc";
  options.run.shard_index = GetParam();
  options.run.shard_count = kChunks;
  const CheckResult r = CheckAgainstBaseline(*backend, options);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_GT(r.cases, 0);
  EXPECT_TRUE(r.regressions.empty()) << r.message;
}

INSTANTIATE_TEST_SUITE_P(Chunks, AtcRuntimeConformanceTest, ::testing::Range(0, kChunks));

}  // namespace
}  // namespace conformance
}  // namespace ge
