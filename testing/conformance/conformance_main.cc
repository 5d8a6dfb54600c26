// testing/conformance/conformance_main.cc
//
// //testing/conformance:conformance — runs the ONNX backend conformance
// cases through a backend and prints "<suite>: N passed, M failed" per suite
// and a total, then the failures grouped by cause.
//
//   bazel run //testing/conformance:conformance -- [flags]
//     --backend=atc|stages     atc+runtime (default) or stages+interpreter
//     --filter=a,b             only cases whose id contains one of them
//     --data_root=<dir>        default /usr/share/libonnx-testdata/data
//     --jobs=N                 cases run at once (default 2)
//     --timeout_s=S            per case (default 60)
//     --baseline=<path>        compare with an expected-status file; exit 1
//                              on a regression (a case listed PASS fails)
//     --update_baseline=<path> write the statuses there (also env
//                              CONFORMANCE_UPDATE_BASELINE)
//     --failures               list every failing case with its reason
//
// Paths are used as given; under `bazel run` use absolute paths (e.g.
// $PWD/testing/conformance/testdata/expected_status.txt).
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "testing/conformance/atc_runtime_backend.h"
#include "testing/conformance/conformance_runner.h"
#include "testing/conformance/stages_backend.h"

namespace {

constexpr char kUsage[] =
    "usage: conformance [--backend=atc|stages] [--filter=a,b] [--data_root=DIR] [--jobs=N]\n"
    "                   [--timeout_s=S] [--baseline=FILE] [--update_baseline=FILE] "
    "[--failures]\n";

// "--name=value" -> true and *value; anything else -> false.
bool FlagValue(absl::string_view arg, absl::string_view name, std::string* value) {
  if (!absl::ConsumePrefix(&arg, name) || !absl::ConsumePrefix(&arg, "=")) return false;
  *value = std::string(arg);
  return true;
}

int Main(int argc, char** argv) {
  using ge::conformance::Backend;
  ge::conformance::RunOptions options;
  options.jobs = 2;
  std::string backend_name = "atc";
  std::string baseline_path;
  std::string update_path;
  bool list_failures = false;
  if (const char* env = std::getenv("CONFORMANCE_UPDATE_BASELINE")) update_path = env;
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    std::string value;
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      return 0;
    }
    if (arg == "--failures") {
      list_failures = true;
      continue;
    }
    int32_t n = 0;
    if (FlagValue(arg, "--backend", &value)) {
      backend_name = value;
    } else if (FlagValue(arg, "--filter", &value)) {
      options.filter = absl::StrSplit(value, ',', absl::SkipEmpty());
    } else if (FlagValue(arg, "--data_root", &value)) {
      options.data_root = value;
    } else if (FlagValue(arg, "--jobs", &value)) {
      if (!absl::SimpleAtoi(value, &n) || n < 1 || n > 64) {
        std::cerr << "conformance: bad --jobs value '" << value << "' (1..64)\n";
        return 2;
      }
      options.jobs = n;
    } else if (FlagValue(arg, "--timeout_s", &value)) {
      if (!absl::SimpleAtoi(value, &n) || n < 1 || n > 3600) {
        std::cerr << "conformance: bad --timeout_s value '" << value << "' (1..3600)\n";
        return 2;
      }
      options.case_timeout_ms = n * 1000;
    } else if (FlagValue(arg, "--baseline", &value)) {
      baseline_path = value;
    } else if (FlagValue(arg, "--update_baseline", &value)) {
      update_path = value;
    } else {
      std::cerr << "conformance: unknown flag '" << arg << "'\n" << kUsage;
      return 2;
    }
  }
  std::unique_ptr<Backend> backend;
  if (backend_name == "atc") {
    backend = ge::conformance::MakeAtcRuntimeBackend();
  } else if (backend_name == "stages") {
    backend = ge::conformance::MakeStagesInterpreterBackend();
  } else {
    std::cerr << "conformance: unknown --backend '" << backend_name << "' (atc or stages)\n";
    return 2;
  }
  // Read the baseline first: a bad file should fail before a long run.
  ge::conformance::Baseline baseline;
  if (!baseline_path.empty()) {
    ge::StatusOr<ge::conformance::Baseline> b = ge::conformance::ReadBaseline(baseline_path);
    if (!b.ok()) {
      std::cerr << "conformance: " << b.status().ToString() << "\n";
      return 2;
    }
    baseline = std::move(b).value();
  }
  const std::vector<ge::conformance::CaseSpec> cases = ge::conformance::DiscoverCases(options);
  if (cases.empty()) {
    std::cerr << "conformance: no cases under " << options.data_root
              << (options.filter.empty() ? "" : " matching the filter")
              << " (run tools/setup.sh)\n";
    return 2;
  }
  std::cout << "backend: " << backend->Name() << ", " << cases.size() << " cases, " << options.jobs
            << " jobs" << std::endl;
  const ge::conformance::ConformanceReport report =
      ge::conformance::RunCases(*backend, cases, options);
  std::cout << ge::conformance::FormatSuiteTable(report);
  std::cout << "\nFailures by cause:\n" << ge::conformance::FormatFailureGroups(report);
  if (list_failures) {
    std::cout << "\nFailures:\n";
    for (const auto& [id, r] : report.results) {
      if (!r.pass) std::cout << "  " << id << ": " << r.reason << "\n";
    }
  }
  if (!update_path.empty()) {
    const ge::Status st = ge::conformance::WriteBaseline(
        update_path, report,
        "ONNX backend conformance (//testing/conformance), backend " + backend->Name() +
            ".\nRefresh: bazel run //testing/conformance:conformance -- --backend=" + backend_name +
            " --update_baseline=$PWD/<this file>");
    if (!st.ok()) {
      std::cerr << "conformance: " << st.ToString() << "\n";
      return 2;
    }
    std::cout << "\nwrote " << report.results.size() << " statuses to " << update_path << "\n";
  }
  if (!baseline_path.empty()) {
    const ge::conformance::BaselineDiff diff =
        ge::conformance::CompareWithBaseline(report, baseline);
    if (!diff.newly_passing.empty()) {
      std::cout << "\nNewly passing (" << diff.newly_passing.size() << "):\n  "
                << absl::StrJoin(diff.newly_passing, "\n  ") << "\n";
    }
    if (!diff.regressions.empty()) {
      std::cout << "\nRegressions (" << diff.regressions.size() << "):\n  "
                << absl::StrJoin(diff.regressions, "\n  ") << "\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Main(argc, argv); }
