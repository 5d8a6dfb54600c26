// compiler/parser/onnx/onnx_node_conformance_test.cc
//
// ONNX backend conformance through the front end and the reference
// interpreter: for every case directory of /usr/share/libonnx-testdata/data/
// {node, pytorch-converted, pytorch-operator, simple}, parse model.onnx, run
// every test_data_set_* (input_<i>.pb -> output_<i>.pb) and compare (rtol
// 1e-3, atol 1e-5; exact for integers, bools and strings).
//
// Each case runs in a forked child (a crash or a hang fails that case only;
// 60 s per case). The test prints "<suite>: N passed, M failed" per suite and
// the failures with their reasons, then compares with
// testdata/expected_status.txt ("suite/case PASS|FAIL"): it fails only when a
// case listed PASS does not pass now (a regression). Cases that newly pass
// are listed so the file can be updated.
//
// Environment:
//   ONNX_CONFORMANCE_FILTER=<a,b,...>     run only cases whose id contains one
//   ONNX_CONFORMANCE_CONVERTER=onnx|builtin|auto  version converter (default
//                                         auto); every case listed PASS must
//                                         pass with the chosen converter
//   ONNX_CONFORMANCE_MAX_OPSET=<n>        run only models whose default-domain
//                                         opset is at most n
//   ONNX_CONFORMANCE_WRITE=<path>         write the current statuses there
#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>  // NOLINT(build/c++11)
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/parser/onnx/onnx_parser.h"
#include "compiler/parser/onnx/onnx_test_util.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_interpreter.h"

namespace ge {
namespace {

constexpr char kDataRoot[] = "/usr/share/libonnx-testdata/data";
constexpr const char* kSuites[] = {"node", "pytorch-converted", "pytorch-operator", "simple"};
constexpr char kStatusFile[] = "compiler/parser/onnx/testdata/expected_status.txt";
constexpr int kCaseTimeoutMs = 60000;
constexpr double kRtol = 1e-3;
constexpr double kAtol = 1e-5;

std::vector<std::string> ListDir(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    if (absl::StartsWith(name, prefix)) out.push_back(name);
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

// input_0.pb, input_1.pb, ... in numeric order.
std::vector<std::string> Numbered(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> out;
  for (int i = 0;; ++i) {
    const std::string path = absl::StrCat(dir, "/", prefix, i, ".pb");
    if (access(path.c_str(), R_OK) != 0) break;
    out.push_back(path);
  }
  return out;
}

Status RunCase(const std::string& dir, OnnxVersionConverter converter) {
  const std::string model_path = dir + "/model.onnx";
  ASSIGN_OR_RETURN(std::string bytes, onnx_test::ReadFileBytes(model_path));
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes)) return ParseFailed("model.onnx is not a ModelProto");
  std::vector<const onnx::TypeProto*> in_types;
  {
    std::vector<std::string> inits;
    for (const auto& t : model.graph().initializer()) inits.push_back(t.name());
    for (const auto& vi : model.graph().input()) {
      if (std::find(inits.begin(), inits.end(), vi.name()) == inits.end()) {
        in_types.push_back(&vi.type());
      }
    }
  }
  OnnxModelParser parser;
  ParseOptions opts;
  opts.converter = converter;
  StatusOr<ComputeGraphPtr> graph = parser.ParseFile(model_path, opts);
  if (!graph.ok()) return Annotate(graph.status(), "parse: ");
  const std::vector<std::string> sets = ListDir(dir, "test_data_set_");
  if (sets.empty()) return NotFound("no test_data_set_* directory");
  for (const std::string& set : sets) {
    const std::string set_dir = dir + "/" + set;
    std::vector<gert::HostTensor> inputs;
    const std::vector<std::string> in_files = Numbered(set_dir, "input_");
    for (size_t i = 0; i < in_files.size(); ++i) {
      ASSIGN_OR_RETURN(std::string b, onnx_test::ReadFileBytes(in_files[i]));
      const onnx::TypeProto empty;
      const onnx::TypeProto& type = i < in_types.size() ? *in_types[i] : empty;
      StatusOr<gert::HostTensor> t = onnx_test::HostValueFromOnnxBytes(type, b);
      if (!t.ok()) return Annotate(t.status(), set, " input ", i, ": ");
      inputs.push_back(std::move(t).value());
    }
    StatusOr<std::vector<gert::HostTensor>> outs =
        ReferenceInterpreter::Run(**graph, std::move(inputs));
    if (!outs.ok()) return Annotate(outs.status(), "run (", set, "): ");
    const std::vector<std::string> out_files = Numbered(set_dir, "output_");
    if (outs->size() != out_files.size()) {
      return Failed(set, ": ", outs->size(), " outputs, expected ", out_files.size());
    }
    for (size_t i = 0; i < out_files.size(); ++i) {
      ASSIGN_OR_RETURN(std::string b, onnx_test::ReadFileBytes(out_files[i]));
      const onnx::TypeProto empty;
      const onnx::TypeProto& type = static_cast<int>(i) < model.graph().output_size()
                                        ? model.graph().output(static_cast<int>(i)).type()
                                        : empty;
      StatusOr<gert::HostTensor> want = onnx_test::HostValueFromOnnxBytes(type, b);
      if (!want.ok()) return Annotate(want.status(), set, " output ", i, ": ");
      RETURN_IF_ERROR(onnx_test::CompareHostTensors((*outs)[i].tensor(), want->tensor(), kRtol,
                                                    kAtol, absl::StrCat(set, " output ", i)));
    }
  }
  return OkStatus();
}

// The default-domain opset of a model file (0 when unreadable).
int64_t ModelOpset(const std::string& path) {
  StatusOr<std::string> bytes = onnx_test::ReadFileBytes(path);
  onnx::ModelProto model;
  if (!bytes.ok() || !model.ParseFromString(*bytes)) return 0;
  for (const auto& o : model.opset_import()) {
    if (o.domain().empty() || o.domain() == "ai.onnx") return o.version();
  }
  return 0;
}

struct Result {
  bool pass = false;
  std::string reason;
  double seconds = 0;
};

// Runs one case in a child process.
Result RunIsolated(const std::string& dir, OnnxVersionConverter converter) {
  const auto start = std::chrono::steady_clock::now();
  Result r;
  int fds[2];
  if (pipe(fds) != 0) {
    r.reason = "pipe failed";
    return r;
  }
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    r.reason = "fork failed";
    return r;
  }
  if (pid == 0) {
    close(fds[0]);
    // Quiet children: libonnx's converter prints warnings.
    if (std::freopen("/dev/null", "w", stderr) == nullptr) _exit(3);
    const Status st = RunCase(dir, converter);
    const std::string msg = st.ok() ? std::string("P") : absl::StrCat("F", st.ToString());
    size_t off = 0;
    while (off < msg.size()) {
      const ssize_t w = write(fds[1], msg.data() + off, msg.size() - off);
      if (w <= 0) break;
      off += static_cast<size_t>(w);
    }
    close(fds[1]);
    _exit(0);
  }
  close(fds[1]);
  std::string msg;
  bool timed_out = false;
  char buf[4096];
  while (true) {
    const int elapsed = static_cast<int>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                             std::chrono::steady_clock::now() - start)
                                             .count());
    if (elapsed >= kCaseTimeoutMs) {
      timed_out = true;
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, kCaseTimeoutMs - elapsed);
    if (ready <= 0) continue;
    const ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n <= 0) break;
    msg.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int wstatus = 0;
  waitpid(pid, &wstatus, 0);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (timed_out) {
    r.reason = absl::StrCat("timed out after ", kCaseTimeoutMs / 1000, " s");
  } else if (WIFSIGNALED(wstatus)) {
    r.reason = absl::StrCat("crashed (signal ", WTERMSIG(wstatus), ")");
  } else if (msg == "P") {
    r.pass = true;
  } else if (!msg.empty() && msg[0] == 'F') {
    r.reason = msg.substr(1);
  } else {
    r.reason = absl::StrCat("child exited without a result (status ", wstatus, ")");
  }
  return r;
}

std::map<std::string, bool> ReadExpected(const std::string& path) {
  std::map<std::string, bool> m;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> parts = absl::StrSplit(line, ' ', absl::SkipEmpty());
    if (parts.size() == 2) m[parts[0]] = parts[1] == "PASS";
  }
  return m;
}

std::string OneLine(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  if (s.size() > 400) s = s.substr(0, 400) + "...";
  return s;
}

TEST(OnnxNodeConformanceTest, BackendTestData) {
  const char* filter_env = std::getenv("ONNX_CONFORMANCE_FILTER");
  const std::string filter = filter_env == nullptr ? "" : filter_env;
  const char* conv_env = std::getenv("ONNX_CONFORMANCE_CONVERTER");
  const std::string conv = conv_env == nullptr ? "auto" : conv_env;
  OnnxVersionConverter converter = OnnxVersionConverter::kAuto;
  if (conv == "onnx") converter = OnnxVersionConverter::kOnnx;
  if (conv == "builtin") converter = OnnxVersionConverter::kBuiltin;
  const char* max_opset_env = std::getenv("ONNX_CONFORMANCE_MAX_OPSET");
  const int64_t max_opset = max_opset_env == nullptr ? 1000 : std::atoll(max_opset_env);
  std::cout << "converter: " << conv << ", max opset: " << max_opset << std::endl;

  // Warm up in the parent (the children inherit it): op registry, ONNX
  // schemas and the builtin mappings.
  {
    OnnxModelParser warm_up;
    (void)warm_up;
  }
  std::map<std::string, Result> results;
  for (const char* suite : kSuites) {
    const std::string suite_dir = absl::StrCat(kDataRoot, "/", suite);
    int passed = 0;
    int failed = 0;
    for (const std::string& c : ListDir(suite_dir, "")) {
      const std::string id = absl::StrCat(suite, "/", c);
      if (!filter.empty()) {
        bool match = false;
        for (absl::string_view f : absl::StrSplit(filter, ',')) {
          match = match || absl::StrContains(id, f);
        }
        if (!match) continue;
      }
      if (max_opset < 1000 && ModelOpset(suite_dir + "/" + c + "/model.onnx") > max_opset) {
        continue;
      }
      Result r = RunIsolated(suite_dir + "/" + c, converter);
      (r.pass ? passed : failed)++;
      results[id] = std::move(r);
    }
    std::cout << suite << ": " << passed << " passed, " << failed << " failed" << std::endl;
  }
  ASSERT_FALSE(results.empty()) << "no ONNX test cases found under " << kDataRoot
                                << " (run tools/setup.sh)";

  std::cout << "\nFailures:\n";
  for (const auto& [id, r] : results) {
    if (!r.pass) std::cout << "  " << id << ": " << OneLine(r.reason) << "\n";
  }
  std::vector<std::pair<double, std::string>> slow;
  for (const auto& [id, r] : results) slow.emplace_back(r.seconds, id);
  std::sort(slow.rbegin(), slow.rend());
  std::cout << "\nSlowest cases:\n";
  for (size_t i = 0; i < slow.size() && i < 5; ++i) {
    std::cout << "  " << slow[i].second << ": " << slow[i].first << " s\n";
  }

  if (const char* out = std::getenv("ONNX_CONFORMANCE_WRITE")) {
    std::ofstream f(out);
    f << "# ONNX backend conformance through //compiler/parser/onnx and the reference\n"
      << "# interpreter (onnx_node_conformance_test). PASS cases must keep passing.\n";
    for (const auto& [id, r] : results) f << id << (r.pass ? " PASS" : " FAIL") << "\n";
    std::cout << "\nwrote " << results.size() << " statuses to " << out << "\n";
  }

  const std::map<std::string, bool> expected = ReadExpected(kStatusFile);
  std::vector<std::string> regressions;
  std::vector<std::string> newly_passing;
  for (const auto& [id, r] : results) {
    auto it = expected.find(id);
    const bool was_pass = it != expected.end() && it->second;
    if (was_pass && !r.pass) regressions.push_back(absl::StrCat(id, ": ", OneLine(r.reason)));
    if (!was_pass && r.pass) newly_passing.push_back(id);
  }
  if (!newly_passing.empty()) {
    std::cout << "\nNewly passing (update " << kStatusFile << "):\n";
    for (const std::string& id : newly_passing) std::cout << "  " << id << "\n";
  }
  std::cout << std::flush;
  EXPECT_TRUE(regressions.empty())
      << regressions.size() << " regressions:\n  " << absl::StrJoin(regressions, "\n  ");
}

}  // namespace
}  // namespace ge
