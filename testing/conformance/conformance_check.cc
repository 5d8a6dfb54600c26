// testing/conformance/conformance_check.cc
#include "testing/conformance/conformance_check.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace ge {
namespace conformance {
namespace {

int32_t EnvInt(const char* name, int32_t fallback) {
  const char* v = std::getenv(name);
  int32_t n = 0;
  if (v == nullptr || !absl::SimpleAtoi(v, &n)) return fallback;
  return n;
}

}  // namespace

CheckResult CheckAgainstBaseline(Backend& backend, const CheckOptions& options) {
  CheckResult result;
  RunOptions run = options.run;
  if (const char* f = std::getenv("CONFORMANCE_FILTER")) {
    run.filter = absl::StrSplit(f, ',', absl::SkipEmpty());
  }
  run.jobs = std::max<int32_t>(EnvInt("CONFORMANCE_JOBS", run.jobs), 1);
  run.shard_count = std::max<int32_t>(run.shard_count, 1);
  if (run.shard_index < 0 || run.shard_index >= run.shard_count) {
    result.status =
        ParamInvalid("shard index ", run.shard_index, " is not in [0, ", run.shard_count, ")");
    return result;
  }

  StatusOr<Baseline> baseline = ReadBaseline(options.baseline);
  if (!baseline.ok()) {
    result.status = baseline.status();
    return result;
  }
  const std::vector<CaseSpec> cases = DiscoverCases(run);
  if (cases.empty()) {
    result.status = NotFound("no ONNX test cases under ", run.data_root,
                             " for this shard / filter (run tools/setup.sh)");
    return result;
  }
  result.cases = static_cast<int64_t>(cases.size());
  std::cout << "backend: " << backend.Name() << ", shard " << run.shard_index << "/"
            << run.shard_count << ", " << cases.size() << " cases" << std::endl;
  const ConformanceReport report = RunCases(backend, cases, run);
  std::cout << FormatSuiteTable(report) << "\nFailures by cause:\n"
            << FormatFailureGroups(report) << std::flush;

  if (const char* out = std::getenv("CONFORMANCE_WRITE")) {
    const Status st = WriteBaseline(out, report, absl::StrCat("backend ", backend.Name()));
    std::cout << (st.ok() ? absl::StrCat("wrote ", out) : st.ToString()) << "\n";
  }

  const BaselineDiff diff = CompareWithBaseline(report, *baseline);
  result.regressions = diff.regressions;
  result.newly_passing = diff.newly_passing;
  const std::string refresh = absl::StrCat(
      "bazel run //testing/conformance:conformance -- --backend=", options.backend_flag,
      " --update_baseline=$PWD/", options.baseline);
  if (!diff.newly_passing.empty()) {
    std::cout << "\nNewly passing (" << diff.newly_passing.size()
              << "), refresh the baseline with\n  " << refresh << "\n  "
              << absl::StrJoin(diff.newly_passing, "\n  ") << "\n";
  }
  if (!diff.regressions.empty()) {
    result.message =
        absl::StrCat(diff.regressions.size(), " regressions against ", options.baseline, ":\n  ",
                     absl::StrJoin(diff.regressions, "\n  "),
                     "\nIf intended, refresh the baseline with\n  ", refresh);
  }
  std::cout << std::flush;
  return result;
}

}  // namespace conformance
}  // namespace ge
