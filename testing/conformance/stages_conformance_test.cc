// testing/conformance/stages_conformance_test.cc
//
// Every ONNX backend test case through the ONNX parser, CompilerStages
// (prepare + optimize) and the reference interpreter; fails when a case
// listed PASS in testdata/expected_status_stages.txt fails (see
// conformance_check.h for the environment knobs).
#include <cstdint>
#include <memory>

#include "gtest/gtest.h"
#include "testing/conformance/conformance_check.h"
#include "testing/conformance/stages_backend.h"

namespace ge {
namespace conformance {
namespace {

// The cases are split into kChunks chunks (case k goes to chunk k % kChunks),
// one test each, so that gtest spreads them over the target's shards.
constexpr int32_t kChunks = 4;

class StagesConformanceTest : public ::testing::TestWithParam<int32_t> {};

TEST_P(StagesConformanceTest, NoRegressionAgainstBaseline) {
  std::unique_ptr<Backend> backend = MakeStagesInterpreterBackend();
  CheckOptions options;
  options.baseline = "testing/conformance/testdata/expected_status_stages.txt";
  options.backend_flag = "stages";
  options.run.shard_index = GetParam();
  options.run.shard_count = kChunks;
  const CheckResult r = CheckAgainstBaseline(*backend, options);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_GT(r.cases, 0);
  EXPECT_TRUE(r.regressions.empty()) << r.message;
}

INSTANTIATE_TEST_SUITE_P(Chunks, StagesConformanceTest, ::testing::Range(0, kChunks));

}  // namespace
}  // namespace conformance
}  // namespace ge
