// testing/conformance/conformance_runner_test.cc
//
// The conformance runner on its own: baselines (parse, format, compare),
// reports, case discovery with filters and shards, forked runs with fake
// backends (pass, wrong values, compile error, crash, hang), and the
// stages+interpreter backend on a generated case and a real test-data case.
#include "testing/conformance/conformance_runner.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/parser/onnx/onnx_test_util.h"
#include "gtest/gtest.h"
#include "testing/conformance/conformance_check.h"
#include "testing/conformance/stages_backend.h"

namespace ge {
namespace conformance {
namespace {

// ------------------------------------------------------------- baseline

TEST(ParseBaselineTest, ParsesPassFailCommentsAndReasons) {
  StatusOr<Baseline> b = ParseBaseline(
      "# header\n"
      "\n"
      "node/test_abs PASS\n"
      "node/test_x FAIL: compile: NotSupported: no kernel 'Foo'\n"
      "simple/test_y FAIL\n"
      "  node/test_z   PASS  \n");
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ASSERT_EQ(b->size(), 4u);
  EXPECT_TRUE(b->at("node/test_abs").pass);
  EXPECT_FALSE(b->at("node/test_x").pass);
  EXPECT_EQ(b->at("node/test_x").reason, "compile: NotSupported: no kernel 'Foo'");
  EXPECT_FALSE(b->at("simple/test_y").pass);
  EXPECT_EQ(b->at("simple/test_y").reason, "");
  EXPECT_TRUE(b->at("node/test_z").pass);
}

TEST(ParseBaselineTest, RejectsBadLinesNamingTheLine) {
  struct Bad {
    const char* text;
    const char* needle;
  };
  const Bad cases[] = {
      {"node/a PASS\nnode/b\n", "line 2"},
      {"node/a PASSED\n", "unknown status 'PASSED'"},
      {"node/a FAILED\n", "unknown status 'FAILED'"},
      {"node/a PASS\nnode/a FAIL\n", "duplicate case 'node/a'"},
      {"test_a PASS\n", "is not '<suite>/<case>'"},
  };
  for (const Bad& c : cases) {
    StatusOr<Baseline> b = ParseBaseline(c.text);
    ASSERT_FALSE(b.ok()) << c.text;
    EXPECT_EQ(GetErrorCode(b.status()), ErrorCode::kParseFailed);
    EXPECT_TRUE(absl::StrContains(b.status().message(), c.needle)) << b.status().ToString();
  }
}

TEST(ReadBaselineTest, MissingFileIsNotFound) {
  StatusOr<Baseline> b = ReadBaseline("/nonexistent/dir/expected.txt");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(GetErrorCode(b.status()), ErrorCode::kNotFound);
  EXPECT_TRUE(absl::StrContains(b.status().message(), "/nonexistent/dir/expected.txt"));
}

ConformanceReport SampleReport() {
  ConformanceReport r;
  r.backend = "fake";
  r.suites = {"node", "simple", "pytorch-operator"};
  r.results["node/test_a"] = CaseResult{true, "", 0.1};
  r.results["node/test_b"] = CaseResult{false, "run (test_data_set_0): boom\nsecond line", 0.1};
  r.results["node/test_c"] = CaseResult{false, "compile: no kernel for 'Foo3'", 0.1};
  r.results["simple/test_d"] = CaseResult{true, "", 0.1};
  return r;
}

TEST(BaselineTest, FormatThenParseRoundTripsOnOneLinePerCase) {
  const ConformanceReport report = SampleReport();
  const std::string text = FormatBaseline(report, "line one\nline two");
  EXPECT_TRUE(absl::StartsWith(text, "# line one\n# line two\n")) << text;
  EXPECT_TRUE(
      absl::StrContains(text, "node/test_b FAIL: run (test_data_set_0): boom second line\n"))
      << text;
  StatusOr<Baseline> b = ParseBaseline(text);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  ASSERT_EQ(b->size(), report.results.size());
  for (const auto& [id, r] : report.results) EXPECT_EQ(b->at(id).pass, r.pass) << id;
}

TEST(BaselineTest, WriteThenReadFile) {
  const std::string path = absl::StrCat(::testing::TempDir(), "/baseline_rw.txt");
  ASSERT_TRUE(WriteBaseline(path, SampleReport(), "hdr").ok());
  StatusOr<Baseline> b = ReadBaseline(path);
  ASSERT_TRUE(b.ok()) << b.status().ToString();
  EXPECT_EQ(b->size(), 4u);
  EXPECT_TRUE(b->at("simple/test_d").pass);
  // No temp file left behind.
  EXPECT_NE(access(absl::StrCat(path, ".tmp.", getpid()).c_str(), F_OK), 0);
  EXPECT_FALSE(WriteBaseline("/nonexistent/dir/b.txt", SampleReport(), "").ok());
}

TEST(CompareWithBaselineTest, RegressionsNewPassesAndUnlisted) {
  const ConformanceReport report = SampleReport();
  Baseline base;
  base["node/test_a"] = BaselineEntry{false, "was failing"};  // now passes
  base["node/test_b"] = BaselineEntry{true, ""};              // regression
  base["node/test_c"] = BaselineEntry{false, ""};             // still failing
  base["node/test_not_run"] = BaselineEntry{true, ""};        // not in the report
  const BaselineDiff diff = CompareWithBaseline(report, base);
  ASSERT_EQ(diff.regressions.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(diff.regressions[0], "node/test_b: run (test_data_set_0)"));
  // simple/test_d passes and is not listed: a new pass and unlisted.
  EXPECT_EQ(diff.newly_passing, (std::vector<std::string>{"node/test_a", "simple/test_d"}));
  EXPECT_EQ(diff.unlisted, (std::vector<std::string>{"simple/test_d"}));
}

// ------------------------------------------------------------ reporting

TEST(ReportTest, SuiteTableCountsEverySuiteAndTotal) {
  const std::string table = FormatSuiteTable(SampleReport());
  EXPECT_EQ(table,
            "node: 1 passed, 2 failed\n"
            "simple: 1 passed, 0 failed\n"
            "pytorch-operator: 0 passed, 0 failed\n"
            "total: 2 passed, 2 failed\n");
}

TEST(ReportTest, GroupKeyMasksNumbersAndQuotedNames) {
  EXPECT_EQ(GroupKey("run (test_data_set_12): node 'add_3' (Add): dims 2 vs 34"),
            "run (test_data_set_#): node '_' (Add): dims # vs #");
  EXPECT_EQ(GroupKey("a \"x1\" b"), "a \"_\" b");
  EXPECT_LE(GroupKey(std::string(500, 'x')).size(), 160u);
  EXPECT_EQ(GroupKey("stage: pass 'A' on graph 'g1': pass 'B' on graph 'g2': graph 'x': "
                     "graph 'y': node N_3 failed"),
            "stage: pass '_' on graph '_': graph '_': node N_# failed");
  EXPECT_EQ(GroupKey(""), "");
}

TEST(ReportTest, FailureGroupsMostFrequentFirst) {
  ConformanceReport r;
  r.suites = {"node"};
  r.results["node/a"] = CaseResult{false, "compile: no kernel 'A1'", 0};
  r.results["node/b"] = CaseResult{false, "compile: no kernel 'B2'", 0};
  r.results["node/c"] = CaseResult{false, "run: timed out", 0};
  r.results["node/d"] = CaseResult{true, "", 0};
  const std::string groups = FormatFailureGroups(r, 1);
  EXPECT_TRUE(absl::StartsWith(groups,
                               "  2  compile: no kernel '_'\n        e.g. node/a, ...\n"
                               "        node/a: compile: no kernel 'A1'\n"))
      << groups;
  EXPECT_TRUE(absl::StrContains(groups, "  1  run: timed out\n        e.g. node/c\n")) << groups;
  EXPECT_FALSE(absl::StrContains(groups, "node/d"));
}

TEST(ReportTest, OneLineJoinsAndCuts) {
  EXPECT_EQ(OneLine("a\nb\tc\r"), "a b c ");
  const std::string long_text(1000, 'y');
  EXPECT_EQ(OneLine(long_text).size(), 403u);
}

// ------------------------------------------------- discovery and running

// A data root with suites s1 (3 cases) and s2 (1 case), each case an
// Identity-like model with `y = Relu(x)` and one data set.
class CaseTreeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = absl::StrCat(::testing::TempDir(), "/conf_root_", getpid(), "_",
                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    mkdir(root_.c_str(), 0755);
    for (const char* suite : {"s1", "s2"}) mkdir(absl::StrCat(root_, "/", suite).c_str(), 0755);
    MakeCase("s1/test_relu_a", {-1.0f, 2.0f, -3.0f, 4.0f}, {0.0f, 2.0f, 0.0f, 4.0f});
    MakeCase("s1/test_relu_b", {5.0f, -6.0f, 7.0f, -8.0f}, {5.0f, 0.0f, 7.0f, 0.0f});
    // Expected values that Relu does not produce.
    MakeCase("s1/test_relu_wrong", {1.0f, 1.0f, 1.0f, 1.0f}, {1.0f, 1.0f, 1.0f, 9.0f});
    MakeCase("s2/test_relu_c", {0.5f, -0.5f, 0.0f, 1.0f}, {0.5f, 0.0f, 0.0f, 1.0f});
    // A file at case level is ignored.
    std::ofstream(absl::StrCat(root_, "/s2/README")) << "not a case";
  }

  void MakeCase(const std::string& id, const std::vector<float>& in,
                const std::vector<float>& out) {
    const std::string dir = absl::StrCat(root_, "/", id);
    mkdir(dir.c_str(), 0755);
    onnx::GraphProto g;
    g.set_name("relu");
    *g.add_input() = onnx_test::TensorValueInfo("x", onnx::TensorProto::FLOAT, {2, 2});
    *g.add_output() = onnx_test::TensorValueInfo("y", onnx::TensorProto::FLOAT, {2, 2});
    *g.add_node() = onnx_test::MakeNode("Relu", {"x"}, {"y"}, "relu0");
    std::ofstream(dir + "/model.onnx", std::ios::binary)
        << onnx_test::Serialize(onnx_test::MakeModel(g, 13));
    const std::string set = dir + "/test_data_set_0";
    mkdir(set.c_str(), 0755);
    std::ofstream(set + "/input_0.pb", std::ios::binary)
        << onnx_test::FloatTensor("x", {2, 2}, in).SerializeAsString();
    std::ofstream(set + "/output_0.pb", std::ios::binary)
        << onnx_test::FloatTensor("y", {2, 2}, out).SerializeAsString();
  }

  RunOptions Options() const {
    RunOptions o;
    o.data_root = root_;
    o.suites = {"s1", "s2", "missing_suite"};
    return o;
  }

  std::string root_;
};

std::vector<std::string> Ids(const std::vector<CaseSpec>& cases) {
  std::vector<std::string> ids;
  for (const CaseSpec& c : cases) ids.push_back(c.Id());
  return ids;
}

TEST_F(CaseTreeTest, DiscoversSortedCasesSkippingFilesAndMissingSuites) {
  const std::vector<CaseSpec> cases = DiscoverCases(Options());
  EXPECT_EQ(Ids(cases), (std::vector<std::string>{"s1/test_relu_a", "s1/test_relu_b",
                                                  "s1/test_relu_wrong", "s2/test_relu_c"}));
  EXPECT_EQ(cases[0].dir, root_ + "/s1/test_relu_a");
}

TEST_F(CaseTreeTest, FilterKeepsCasesContainingAnEntry) {
  RunOptions o = Options();
  o.filter = {"relu_b", "s2/"};
  EXPECT_EQ(Ids(DiscoverCases(o)), (std::vector<std::string>{"s1/test_relu_b", "s2/test_relu_c"}));
  o.filter = {"nothing_matches"};
  EXPECT_TRUE(DiscoverCases(o).empty());
}

TEST_F(CaseTreeTest, ShardsAreDisjointAndCoverEverything) {
  RunOptions o = Options();
  o.shard_count = 3;
  std::multiset<std::string> seen;
  for (int32_t k = 0; k < 3; ++k) {
    o.shard_index = k;
    const std::vector<CaseSpec> shard = DiscoverCases(o);
    EXPECT_LE(shard.size(), 2u);
    for (const CaseSpec& c : shard) seen.insert(c.Id());
  }
  EXPECT_EQ(seen.size(), 4u);
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), 4u);
}

// Fake backends.
class ReluModel : public CompiledModel {
 public:
  StatusOr<std::vector<gert::HostTensor>> Run(std::vector<gert::HostTensor> inputs) override {
    if (inputs.size() != 1) return ParamInvalid("want 1 input, got ", inputs.size());
    float* d = inputs[0].MutableData<float>();
    const int64_t n = inputs[0].GetShape().GetShapeSize();
    for (int64_t i = 0; i < n; ++i) d[i] = d[i] < 0 ? 0.0f : d[i];
    std::vector<gert::HostTensor> out;
    out.push_back(std::move(inputs[0]));
    return out;
  }
};

enum class Mode { kRelu, kCompileError, kAbort, kHang, kNoOutputs };

class FakeBackend : public Backend {
 public:
  explicit FakeBackend(Mode mode) : mode_(mode) {}
  std::string Name() const override { return "fake"; }
  void WarmUp() override { ++warm_ups; }
  StatusOr<std::unique_ptr<CompiledModel>> Compile(const ModelSource& model) override {
    if (model.bytes.empty()) return ParamInvalid("no bytes for ", model.path);
    switch (mode_) {
      case Mode::kCompileError:
        return NotSupported("no kernel for 'Foo'");
      case Mode::kAbort:
        std::abort();
      case Mode::kHang:
        sleep(30);
        return Internal("woke up");
      case Mode::kNoOutputs:
        return std::unique_ptr<CompiledModel>(nullptr);
      case Mode::kRelu:
        break;
    }
    return std::unique_ptr<CompiledModel>(new ReluModel());
  }
  int warm_ups = 0;

 private:
  Mode mode_;
};

TEST_F(CaseTreeTest, RunCasesPassesAndReportsMismatches) {
  FakeBackend backend(Mode::kRelu);
  RunOptions o = Options();
  o.jobs = 2;
  const ConformanceReport report = RunCases(backend, DiscoverCases(o), o);
  EXPECT_EQ(backend.warm_ups, 1);
  EXPECT_EQ(report.backend, "fake");
  ASSERT_EQ(report.results.size(), 4u);
  EXPECT_TRUE(report.results.at("s1/test_relu_a").pass)
      << report.results.at("s1/test_relu_a").reason;
  EXPECT_TRUE(report.results.at("s1/test_relu_b").pass);
  EXPECT_TRUE(report.results.at("s2/test_relu_c").pass);
  const CaseResult& wrong = report.results.at("s1/test_relu_wrong");
  EXPECT_FALSE(wrong.pass);
  EXPECT_TRUE(absl::StrContains(wrong.reason, "test_data_set_0 output 0")) << wrong.reason;
  EXPECT_EQ(FormatSuiteTable(report),
            "s1: 2 passed, 1 failed\ns2: 1 passed, 0 failed\nmissing_suite: 0 passed, 0 failed\n"
            "total: 3 passed, 1 failed\n");
}

TEST_F(CaseTreeTest, CompileErrorIsOneLineReasonWithStage) {
  FakeBackend backend(Mode::kCompileError);
  RunOptions o = Options();
  o.filter = {"relu_a"};
  const ConformanceReport report = RunCases(backend, DiscoverCases(o), o);
  ASSERT_EQ(report.results.size(), 1u);
  const CaseResult& r = report.results.begin()->second;
  EXPECT_FALSE(r.pass);
  EXPECT_EQ(r.reason, "compile: no kernel for 'Foo' (NOT_SUPPORTED)");
}

TEST_F(CaseTreeTest, NullModelIsAnError) {
  FakeBackend backend(Mode::kNoOutputs);
  RunOptions o = Options();
  o.filter = {"relu_a"};
  const CaseSpec spec = DiscoverCases(o).at(0);
  const Status st = RunCase(backend, spec, o);
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(absl::StrContains(st.message(), "returned no model")) << st.ToString();
}

TEST_F(CaseTreeTest, CrashFailsOnlyThatCase) {
  FakeBackend backend(Mode::kAbort);
  RunOptions o = Options();
  o.jobs = 2;
  const ConformanceReport report = RunCases(backend, DiscoverCases(o), o);
  ASSERT_EQ(report.results.size(), 4u);
  for (const auto& [id, r] : report.results) {
    EXPECT_FALSE(r.pass) << id;
    EXPECT_EQ(r.reason, "crashed (signal 6)") << id;
  }
}

TEST_F(CaseTreeTest, HangTimesOut) {
  FakeBackend backend(Mode::kHang);
  RunOptions o = Options();
  o.filter = {"relu_a", "relu_b"};
  o.jobs = 2;
  o.case_timeout_ms = 300;
  const ConformanceReport report = RunCases(backend, DiscoverCases(o), o);
  ASSERT_EQ(report.results.size(), 2u);
  for (const auto& [id, r] : report.results) {
    EXPECT_FALSE(r.pass);
    EXPECT_EQ(r.reason, "timed out after 0.3 s") << id;
    EXPECT_LT(r.seconds, 10.0);
  }
}

TEST_F(CaseTreeTest, MissingModelFileIsReported) {
  FakeBackend backend(Mode::kRelu);
  RunOptions o = Options();
  CaseSpec spec{"s1", "test_none", root_ + "/s1/test_none"};
  const Status st = RunCase(backend, spec, o);
  ASSERT_FALSE(st.ok());
  EXPECT_TRUE(absl::StrContains(st.message(), "model.onnx")) << st.ToString();
}

// ------------------------------------------------- the baseline check

TEST_F(CaseTreeTest, CheckReportsRegressionsAndNewPasses) {
  const std::string baseline = root_ + "/baseline.txt";
  std::ofstream(baseline) << "# test\n"
                          << "s1/test_relu_a FAIL: was broken\n"
                          << "s1/test_relu_b PASS\n"
                          << "s1/test_relu_wrong PASS\n"
                          << "s2/test_relu_c PASS\n";
  FakeBackend backend(Mode::kRelu);
  CheckOptions options;
  options.baseline = baseline;
  options.backend_flag = "fake";
  options.run = Options();
  const CheckResult r = CheckAgainstBaseline(backend, options);
  ASSERT_TRUE(r.status.ok()) << r.status.ToString();
  EXPECT_EQ(r.cases, 4);
  ASSERT_EQ(r.regressions.size(), 1u);
  EXPECT_TRUE(absl::StartsWith(r.regressions[0], "s1/test_relu_wrong: ")) << r.regressions[0];
  EXPECT_EQ(r.newly_passing, (std::vector<std::string>{"s1/test_relu_a"}));
  EXPECT_TRUE(absl::StrContains(r.message, "--backend=fake --update_baseline=$PWD/" + baseline))
      << r.message;
}

TEST_F(CaseTreeTest, CheckChunksSplitTheCases) {
  const std::string baseline = root_ + "/baseline_all_pass.txt";
  std::ofstream(baseline) << "s1/test_relu_a PASS\ns1/test_relu_b PASS\ns2/test_relu_c PASS\n";
  FakeBackend backend(Mode::kRelu);
  CheckOptions options;
  options.baseline = baseline;
  options.run = Options();
  options.run.shard_count = 2;
  int64_t total = 0;
  for (int32_t k = 0; k < 2; ++k) {
    options.run.shard_index = k;
    const CheckResult r = CheckAgainstBaseline(backend, options);
    ASSERT_TRUE(r.status.ok()) << r.status.ToString();
    EXPECT_TRUE(r.regressions.empty()) << r.message;
    total += r.cases;
  }
  EXPECT_EQ(total, 4);
  options.run.shard_index = 2;
  const CheckResult bad = CheckAgainstBaseline(backend, options);
  EXPECT_EQ(GetErrorCode(bad.status), ErrorCode::kParamInvalid);
}

TEST_F(CaseTreeTest, CheckFailsWithoutBaselineOrCases) {
  FakeBackend backend(Mode::kRelu);
  CheckOptions options;
  options.baseline = root_ + "/no_such_baseline.txt";
  options.run = Options();
  EXPECT_EQ(GetErrorCode(CheckAgainstBaseline(backend, options).status), ErrorCode::kNotFound);
  const std::string baseline = root_ + "/empty_baseline.txt";
  std::ofstream(baseline) << "# nothing\n";
  options.baseline = baseline;
  options.run.filter = {"no_case_matches"};
  const CheckResult r = CheckAgainstBaseline(backend, options);
  EXPECT_EQ(GetErrorCode(r.status), ErrorCode::kNotFound);
  EXPECT_EQ(backend.warm_ups, 0);
}

// ------------------------------------------------- the stages backend

TEST_F(CaseTreeTest, StagesBackendRunsGeneratedCases) {
  std::unique_ptr<Backend> backend = MakeStagesInterpreterBackend();
  EXPECT_EQ(backend->Name(), "stages+interpreter");
  RunOptions o = Options();
  const ConformanceReport report = RunCases(*backend, DiscoverCases(o), o);
  ASSERT_EQ(report.results.size(), 4u);
  EXPECT_TRUE(report.results.at("s1/test_relu_a").pass)
      << report.results.at("s1/test_relu_a").reason;
  EXPECT_TRUE(report.results.at("s2/test_relu_c").pass);
  EXPECT_FALSE(report.results.at("s1/test_relu_wrong").pass);
}

TEST_F(CaseTreeTest, StagesBackendRejectsBrokenModel) {
  const std::string dir = root_ + "/s2/test_broken";
  mkdir(dir.c_str(), 0755);
  std::ofstream(dir + "/model.onnx", std::ios::binary) << "\x08\x07 not a model";
  std::unique_ptr<Backend> backend = MakeStagesInterpreterBackend();
  const Status st = RunCase(*backend, CaseSpec{"s2", "test_broken", dir}, Options());
  ASSERT_FALSE(st.ok());
}

TEST(StagesBackendTest, RealTestDataCase) {
  RunOptions o;
  o.filter = {"node/test_add_bcast", "node/test_sub_example"};
  const std::vector<CaseSpec> cases = DiscoverCases(o);
  ASSERT_EQ(cases.size(), 2u) << "ONNX test data missing under " << o.data_root
                              << " (run tools/setup.sh)";
  std::unique_ptr<Backend> backend = MakeStagesInterpreterBackend();
  for (const CaseSpec& c : cases) {
    const Status st = RunCase(*backend, c, o);
    EXPECT_TRUE(st.ok()) << c.Id() << ": " << st.ToString();
  }
}

}  // namespace
}  // namespace conformance
}  // namespace ge
