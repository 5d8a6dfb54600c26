// testing/conformance/conformance_runner.h
//
// The ONNX backend conformance runner: discovers the cases of the ONNX
// backend test data (/usr/share/libonnx-testdata/data/{node,
// pytorch-converted, pytorch-operator, simple}), compiles each model with a
// pluggable Backend, runs every test_data_set_* (input_<i>.pb ->
// output_<i>.pb) and compares the outputs (rtol 1e-3, atol 1e-5 for floating
// types; exact for integers, bools and strings; sequences and optionals
// element by element; see compiler/parser/onnx/onnx_test_util.h).
//
// Backends (the code under test):
//   * MakeStagesInterpreterBackend() (stages_backend.h): ONNX parser ->
//     CompilerStages::Compile (prepare + optimize) -> ReferenceInterpreter.
//   * MakeAtcRuntimeBackend() (atc_runtime_backend.h): atc library -> OM
//     bytes -> runtime Model::LoadFromBytes -> Model::Run.
//
// Isolation: every case runs in a forked child (RunCases keeps up to `jobs`
// children at once); a crash, an abort or a hang (timeout) fails that case
// only, with a one-line reason ("crashed (signal 11)", "timed out after 60 s").
//
// Baseline ("expected status") files, one case per line, '#' comments:
//   node/test_abs PASS
//   node/test_bernoulli FAIL: output 0: ... (one line)
// CompareWithBaseline reports regressions (listed PASS, fails now) and new
// passes (not listed PASS, passes now); only regressions are errors.
//
// Example
//   std::unique_ptr<Backend> backend = MakeStagesInterpreterBackend();
//   RunOptions opts;
//   opts.filter = {"test_add"};
//   std::vector<CaseSpec> cases = DiscoverCases(opts);
//   ConformanceReport report = RunCases(*backend, cases, opts);
//   std::cout << FormatSuiteTable(report);
//   ASSIGN_OR_RETURN(Baseline base, ReadBaseline(path));
//   BaselineDiff diff = CompareWithBaseline(report, base);
#ifndef TESTING_CONFORMANCE_CONFORMANCE_RUNNER_H_
#define TESTING_CONFORMANCE_CONFORMANCE_RUNNER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"

namespace onnx {
class ModelProto;
}  // namespace onnx

namespace ge {
namespace conformance {

inline constexpr char kDefaultDataRoot[] = "/usr/share/libonnx-testdata/data";
inline constexpr double kRtol = 1e-3;
inline constexpr double kAtol = 1e-5;

// "node", "pytorch-converted", "pytorch-operator", "simple".
const std::vector<std::string>& DefaultSuites();

// ------------------------------------------------------------ backends

// A model compiled by a backend, ready to run any number of times.
class CompiledModel {
 public:
  virtual ~CompiledModel() = default;
  // inputs[k] is graph input k (ONNX graph inputs that are not
  // initializers, in order); returns the graph outputs in order.
  virtual StatusOr<std::vector<gert::HostTensor>> Run(std::vector<gert::HostTensor> inputs) = 0;
};

// What is given to a backend: the model file and its bytes (already read);
// a model made in memory has an empty path.
struct ModelSource {
  std::string path;
  std::string bytes;
};

class Backend {
 public:
  virtual ~Backend() = default;
  // Short name for reports ("stages+interpreter", "atc+runtime").
  virtual std::string Name() const = 0;
  // Called once in the parent before any case is forked (registries,
  // schemas); the children inherit what it initializes.
  virtual void WarmUp() {}
  virtual StatusOr<std::unique_ptr<CompiledModel>> Compile(const ModelSource& model) = 0;
};

// ---------------------------------------------------------------- cases

struct CaseSpec {
  std::string suite;  // "node"
  std::string name;   // "test_abs"
  std::string dir;    // <root>/node/test_abs
  std::string Id() const { return suite + "/" + name; }
};

struct RunOptions {
  std::string data_root = kDefaultDataRoot;
  std::vector<std::string> suites = DefaultSuites();
  // Run only cases whose id contains one of these (empty: all).
  std::vector<std::string> filter;
  // Sharding: keep case k (in discovery order) when k % shard_count ==
  // shard_index.
  int32_t shard_index = 0;
  int32_t shard_count = 1;
  // Children running at once.
  int32_t jobs = 1;
  int32_t case_timeout_ms = 60000;
  double rtol = kRtol;
  double atol = kAtol;
};

// The case directories of every suite, sorted by id, after filter and shard.
// A missing suite directory yields no cases.
std::vector<CaseSpec> DiscoverCases(const RunOptions& options);

// The inputs of one test data set of a case (<case_dir>/<set>/input_0.pb,
// ...), typed by the model's graph inputs that are not initializers; errors
// name the set and the input ("test_data_set_0 input 1: ...").
StatusOr<std::vector<gert::HostTensor>> ReadCaseInputs(const onnx::ModelProto& model,
                                                       const std::string& case_dir,
                                                       const std::string& set);

// Compiles and runs one case in this process: every test_data_set_* must
// match. The error says which stage failed ("compile: ...",
// "run (test_data_set_0): ...", "test_data_set_0 output 1: ...").
Status RunCase(Backend& backend, const CaseSpec& spec, const RunOptions& options);

struct CaseResult {
  bool pass = false;
  std::string reason;  // one line; empty when passing
  double seconds = 0;
};

struct ConformanceReport {
  std::string backend;
  std::vector<std::string> suites;  // in run order
  // Keyed by case id; ordered.
  std::map<std::string, CaseResult> results;
};

// Runs every case in a forked child (at most options.jobs at once) and
// collects the results. Calls backend.WarmUp() first. A failing case's
// reason is its status message and error code name: "compile: ...
// (NOT_SUPPORTED)".
ConformanceReport RunCases(Backend& backend, const std::vector<CaseSpec>& cases,
                           const RunOptions& options);

// ------------------------------------------------------------ reporting

struct SuiteCounts {
  int64_t passed = 0;
  int64_t failed = 0;
};
// Per suite (every suite of report.suites, also those without cases) and
// "TOTAL".
std::map<std::string, SuiteCounts> CountBySuite(const ConformanceReport& report);

// "<suite>: N passed, M failed" per suite, then "total: N passed, M failed".
std::string FormatSuiteTable(const ConformanceReport& report);

// Failure reasons grouped by cause (GroupKey), most frequent first, with
// up to max_examples case ids and the full reason of the first:
//   "  12  compile: no kernel '_' (NOT_SUPPORTED)\n        e.g. node/a, node/b\n
//           node/a: compile: no kernel 'Foo' (NOT_SUPPORTED)\n"
std::string FormatFailureGroups(const ConformanceReport& report, int32_t max_examples = 4);

// A coarse cause of a failure reason, so that the same bug in many cases
// falls in one group: digit runs become '#', quoted names '_', repeated
// consecutive ": "-separated segments are dropped, cut at 160 characters.
std::string GroupKey(absl::string_view reason);

// Newlines and tabs to spaces, cut at 400 characters ("...").
std::string OneLine(absl::string_view text);

// ------------------------------------------------------------- baseline

struct BaselineEntry {
  bool pass = false;
  std::string reason;
};
using Baseline = std::map<std::string, BaselineEntry>;

// Parses baseline text (see the file comment). ParseFailed naming the line
// number for a line that is not "<id> PASS" or "<id> FAIL[: reason]", or a
// duplicate id.
StatusOr<Baseline> ParseBaseline(absl::string_view text);
// Reads and parses a file (IoError / NotFound when it cannot be read).
StatusOr<Baseline> ReadBaseline(const std::string& path);
// The baseline text of a report: `header` lines as '#' comments, then one
// line per case in id order.
std::string FormatBaseline(const ConformanceReport& report, absl::string_view header);
// Writes FormatBaseline to `path` (temp file + rename).
Status WriteBaseline(const std::string& path, const ConformanceReport& report,
                     absl::string_view header);

struct BaselineDiff {
  std::vector<std::string> regressions;    // "id: reason" (listed PASS, fails now)
  std::vector<std::string> newly_passing;  // ids not listed PASS that pass now
  std::vector<std::string> unlisted;       // ids that ran but are not in the baseline
};
// Only cases present in the report are compared (a filtered or sharded run
// checks its own cases).
BaselineDiff CompareWithBaseline(const ConformanceReport& report, const Baseline& baseline);

}  // namespace conformance
}  // namespace ge

#endif  // TESTING_CONFORMANCE_CONFORMANCE_RUNNER_H_
