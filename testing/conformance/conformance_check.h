// testing/conformance/conformance_check.h
//
// The body of the conformance test targets: run the cases of one chunk
// (RunOptions::shard_index of shard_count; the tests are parameterized over
// the chunks so that gtest spreads them over Bazel's shards) through a
// backend, print the per-suite table and the failures grouped by cause, and
// compare with a checked-in baseline. Only regressions (a case listed PASS
// that fails now) are errors; new passes are listed with the command that
// refreshes the baseline.
//
// Environment:
//   CONFORMANCE_FILTER=a,b      only cases whose id contains one of them
//   CONFORMANCE_JOBS=N          cases run at once (default 1)
//   CONFORMANCE_WRITE=<path>    also write this run's statuses there
//
// Example (a gtest body)
//   CheckResult r = CheckAgainstBaseline(*MakeStagesInterpreterBackend(), {
//       "testing/conformance/testdata/expected_status_stages.txt", "stages"});
//   EXPECT_TRUE(r.regressions.empty()) << r.message;
#ifndef TESTING_CONFORMANCE_CONFORMANCE_CHECK_H_
#define TESTING_CONFORMANCE_CONFORMANCE_CHECK_H_

#include <string>
#include <vector>

#include "testing/conformance/conformance_runner.h"

namespace ge {
namespace conformance {

struct CheckOptions {
  // Workspace-relative (runfiles) path of the baseline.
  std::string baseline;
  // The binary's --backend value, for the refresh command.
  std::string backend_flag;
  // Data root, timeout, chunk (shard_index / shard_count); filter and jobs
  // come from the environment.
  RunOptions run;
};

struct CheckResult {
  int64_t cases = 0;
  std::vector<std::string> regressions;
  std::vector<std::string> newly_passing;
  std::string message;  // what to print on failure (regressions, refresh)
  Status status;        // bad chunk, a baseline that cannot be read, no cases
};

CheckResult CheckAgainstBaseline(Backend& backend, const CheckOptions& options);

}  // namespace conformance
}  // namespace ge

#endif  // TESTING_CONFORMANCE_CONFORMANCE_CHECK_H_
