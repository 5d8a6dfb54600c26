// testing/conformance/conformance_runner.cc
#include "testing/conformance/conformance_runner.h"

#include <dirent.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>  // NOLINT(build/c++11)
#include <cstdio>
#include <fstream>
#include <sstream>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "compiler/parser/onnx/onnx_test_util.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace conformance {
namespace {

using Clock = std::chrono::steady_clock;

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

bool IsDir(const std::string& path) {
  DIR* d = opendir(path.c_str());
  if (d == nullptr) return false;
  closedir(d);
  return true;
}

// input_0.pb, input_1.pb, ... in numeric order, up to the first gap.
std::vector<std::string> Numbered(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> out;
  for (int i = 0;; ++i) {
    std::string path = absl::StrCat(dir, "/", prefix, i, ".pb");
    if (access(path.c_str(), R_OK) != 0) break;
    out.push_back(std::move(path));
  }
  return out;
}

bool MatchesFilter(const std::string& id, const std::vector<std::string>& filter) {
  if (filter.empty()) return true;
  for (const std::string& f : filter) {
    if (!f.empty() && absl::StrContains(id, f)) return true;
  }
  return false;
}

void WriteAll(int fd, const std::string& msg) {
  size_t off = 0;
  while (off < msg.size()) {
    const ssize_t w = write(fd, msg.data() + off, msg.size() - off);
    if (w <= 0) return;
    off += static_cast<size_t>(w);
  }
}

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// One forked case in flight.
struct Child {
  size_t case_index = 0;
  pid_t pid = -1;
  int fd = -1;
  Clock::time_point start;
  std::string msg;
  bool eof = false;
};

CaseResult Finish(Child& c, bool timed_out, int32_t timeout_ms) {
  if (timed_out) kill(c.pid, SIGKILL);
  if (c.fd >= 0) close(c.fd);
  c.fd = -1;
  int wstatus = 0;
  while (waitpid(c.pid, &wstatus, 0) < 0 && errno == EINTR) {
  }
  CaseResult r;
  r.seconds = SecondsSince(c.start);
  if (timed_out) {
    r.reason = absl::StrCat("timed out after ", timeout_ms / 1000.0, " s");
  } else if (WIFSIGNALED(wstatus)) {
    r.reason = absl::StrCat("crashed (signal ", WTERMSIG(wstatus), ")");
  } else if (c.msg == "P") {
    r.pass = true;
  } else if (!c.msg.empty() && c.msg[0] == 'F') {
    r.reason = OneLine(absl::string_view(c.msg).substr(1));
    if (r.reason.empty()) r.reason = "failed (no message)";
  } else {
    r.reason = absl::StrCat("child exited without a result (exit status ",
                            WIFEXITED(wstatus) ? WEXITSTATUS(wstatus) : -1, ")");
  }
  return r;
}

}  // namespace

const std::vector<std::string>& DefaultSuites() {
  static const auto* suites =
      new std::vector<std::string>{"node", "pytorch-converted", "pytorch-operator", "simple"};
  return *suites;
}

std::vector<CaseSpec> DiscoverCases(const RunOptions& options) {
  std::vector<CaseSpec> all;
  for (const std::string& suite : options.suites) {
    const std::string suite_dir = absl::StrCat(options.data_root, "/", suite);
    for (const std::string& name : ListDir(suite_dir, "")) {
      CaseSpec spec{suite, name, absl::StrCat(suite_dir, "/", name)};
      if (!IsDir(spec.dir)) continue;
      if (!MatchesFilter(spec.Id(), options.filter)) continue;
      all.push_back(std::move(spec));
    }
  }
  std::sort(all.begin(), all.end(),
            [](const CaseSpec& a, const CaseSpec& b) { return a.Id() < b.Id(); });
  const int32_t count = std::max<int32_t>(options.shard_count, 1);
  if (count == 1) return all;
  std::vector<CaseSpec> shard;
  for (size_t k = 0; k < all.size(); ++k) {
    if (static_cast<int32_t>(k % static_cast<size_t>(count)) == options.shard_index) {
      shard.push_back(std::move(all[k]));
    }
  }
  return shard;
}

StatusOr<std::vector<gert::HostTensor>> ReadCaseInputs(const onnx::ModelProto& model,
                                                       const std::string& case_dir,
                                                       const std::string& set) {
  // Graph inputs fed by the test data: those that are not initializers.
  std::vector<const onnx::TypeProto*> in_types;
  {
    std::vector<std::string> inits;
    for (const auto& t : model.graph().initializer()) inits.push_back(t.name());
    std::sort(inits.begin(), inits.end());
    for (const auto& vi : model.graph().input()) {
      if (!std::binary_search(inits.begin(), inits.end(), vi.name())) {
        in_types.push_back(&vi.type());
      }
    }
  }
  const onnx::TypeProto no_type;
  std::vector<gert::HostTensor> inputs;
  const std::vector<std::string> in_files = Numbered(case_dir + "/" + set, "input_");
  for (size_t i = 0; i < in_files.size(); ++i) {
    ASSIGN_OR_RETURN(std::string b, onnx_test::ReadFileBytes(in_files[i]));
    const onnx::TypeProto& type = i < in_types.size() ? *in_types[i] : no_type;
    StatusOr<gert::HostTensor> t = onnx_test::HostValueFromOnnxBytes(type, b);
    if (!t.ok()) return Annotate(t.status(), set, " input ", i, ": ");
    inputs.push_back(std::move(t).value());
  }
  return inputs;
}

Status RunCase(Backend& backend, const CaseSpec& spec, const RunOptions& options) {
  ModelSource source;
  source.path = spec.dir + "/model.onnx";
  ASSIGN_OR_RETURN(source.bytes, onnx_test::ReadFileBytes(source.path));
  onnx::ModelProto model;
  if (!model.ParseFromString(source.bytes)) {
    return ParseFailed(source.path, " is not an ONNX ModelProto");
  }
  StatusOr<std::unique_ptr<CompiledModel>> compiled = backend.Compile(source);
  if (!compiled.ok()) return Annotate(compiled.status(), "compile: ");
  if (*compiled == nullptr) return Internal("compile: the backend returned no model");

  const std::vector<std::string> sets = ListDir(spec.dir, "test_data_set_");
  if (sets.empty()) return NotFound("no test_data_set_* directory in ", spec.dir);
  const onnx::TypeProto no_type;
  for (const std::string& set : sets) {
    const std::string set_dir = spec.dir + "/" + set;
    ASSIGN_OR_RETURN(std::vector<gert::HostTensor> inputs, ReadCaseInputs(model, spec.dir, set));
    StatusOr<std::vector<gert::HostTensor>> outs = (*compiled)->Run(std::move(inputs));
    if (!outs.ok()) return Annotate(outs.status(), "run (", set, "): ");
    const std::vector<std::string> out_files = Numbered(set_dir, "output_");
    if (outs->size() != out_files.size()) {
      return Failed(set, ": ", outs->size(), " outputs, expected ", out_files.size());
    }
    for (size_t i = 0; i < out_files.size(); ++i) {
      ASSIGN_OR_RETURN(std::string b, onnx_test::ReadFileBytes(out_files[i]));
      const int idx = static_cast<int>(i);
      const onnx::TypeProto& type =
          idx < model.graph().output_size() ? model.graph().output(idx).type() : no_type;
      StatusOr<gert::HostTensor> want = onnx_test::HostValueFromOnnxBytes(type, b);
      if (!want.ok()) return Annotate(want.status(), set, " output ", i, ": ");
      RETURN_IF_ERROR(onnx_test::CompareHostTensors((*outs)[i].tensor(), want->tensor(),
                                                    options.rtol, options.atol,
                                                    absl::StrCat(set, " output ", i)));
    }
  }
  return OkStatus();
}

ConformanceReport RunCases(Backend& backend, const std::vector<CaseSpec>& cases,
                           const RunOptions& options) {
  ConformanceReport report;
  report.backend = backend.Name();
  report.suites = options.suites;
  backend.WarmUp();
  const size_t jobs = static_cast<size_t>(std::max<int32_t>(options.jobs, 1));
  const int32_t timeout_ms = std::max<int32_t>(options.case_timeout_ms, 1);
  std::vector<Child> running;
  size_t next = 0;
  while (next < cases.size() || !running.empty()) {
    // Start children up to `jobs`.
    while (next < cases.size() && running.size() < jobs) {
      const size_t index = next++;
      Child c;
      c.case_index = index;
      c.start = Clock::now();
      int fds[2];
      if (pipe(fds) != 0) {
        report.results[cases[index].Id()] = CaseResult{false, "pipe failed", 0};
        continue;
      }
      std::fflush(stdout);
      std::fflush(stderr);
      const pid_t pid = fork();
      if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        report.results[cases[index].Id()] = CaseResult{false, "fork failed", 0};
        continue;
      }
      if (pid == 0) {
        close(fds[0]);
        for (const Child& other : running) close(other.fd);
        // Quiet children: libonnx's converter and kernels may print.
        if (std::freopen("/dev/null", "w", stderr) == nullptr) _exit(3);
        const Status st = RunCase(backend, cases[index], options);
        WriteAll(fds[1], st.ok() ? std::string("P")
                                 : absl::StrCat("F", st.message(), " (",
                                                ErrorCodeName(GetErrorCode(st)), ")"));
        close(fds[1]);
        _exit(0);
      }
      close(fds[1]);
      c.pid = pid;
      c.fd = fds[0];
      running.push_back(std::move(c));
    }
    if (running.empty()) continue;
    // Wait for output or the nearest deadline.
    int wait_ms = timeout_ms;
    std::vector<pollfd> pfds;
    for (const Child& c : running) {
      const int elapsed = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - c.start).count());
      wait_ms = std::min(wait_ms, std::max(timeout_ms - elapsed, 0));
      pfds.push_back(pollfd{c.fd, POLLIN, 0});
    }
    const int ready = poll(pfds.data(), pfds.size(), wait_ms);
    char buf[4096];
    for (size_t k = 0; k < running.size(); ++k) {
      if (ready > 0 && (pfds[k].revents & (POLLIN | POLLHUP | POLLERR)) != 0) {
        const ssize_t n = read(running[k].fd, buf, sizeof(buf));
        if (n > 0) {
          running[k].msg.append(buf, static_cast<size_t>(n));
        } else if (n == 0 || errno != EINTR) {
          running[k].eof = true;
        }
      }
    }
    // Reap finished and timed-out children.
    std::vector<Child> still;
    for (Child& c : running) {
      const bool timed_out = !c.eof && SecondsSince(c.start) * 1000.0 >= timeout_ms;
      if (c.eof || timed_out) {
        report.results[cases[c.case_index].Id()] = Finish(c, timed_out, timeout_ms);
      } else {
        still.push_back(std::move(c));
      }
    }
    running = std::move(still);
  }
  return report;
}

// ------------------------------------------------------------ reporting

std::map<std::string, SuiteCounts> CountBySuite(const ConformanceReport& report) {
  std::map<std::string, SuiteCounts> counts;
  for (const std::string& s : report.suites) counts[s];
  SuiteCounts& total = counts["TOTAL"];
  for (const auto& [id, r] : report.results) {
    const std::string suite = id.substr(0, id.find('/'));
    SuiteCounts& c = counts[suite];
    (r.pass ? c.passed : c.failed)++;
    (r.pass ? total.passed : total.failed)++;
  }
  return counts;
}

std::string FormatSuiteTable(const ConformanceReport& report) {
  const std::map<std::string, SuiteCounts> counts = CountBySuite(report);
  std::vector<std::string> order = report.suites;
  for (const auto& [suite, c] : counts) {
    if (suite != "TOTAL" && std::find(order.begin(), order.end(), suite) == order.end()) {
      order.push_back(suite);
    }
  }
  std::string out;
  for (const std::string& suite : order) {
    const SuiteCounts& c = counts.at(suite);
    absl::StrAppend(&out, suite, ": ", c.passed, " passed, ", c.failed, " failed\n");
  }
  const SuiteCounts& t = counts.at("TOTAL");
  absl::StrAppend(&out, "total: ", t.passed, " passed, ", t.failed, " failed\n");
  return out;
}

std::string OneLine(absl::string_view text) {
  std::string s(text);
  for (char& ch : s) {
    if (ch == '\n' || ch == '\r' || ch == '\t') ch = ' ';
  }
  constexpr size_t kMax = 400;
  if (s.size() > kMax) s = s.substr(0, kMax) + "...";
  return s;
}

std::string GroupKey(absl::string_view reason) {
  std::string out;
  bool in_quote = false;
  char quote = 0;
  bool last_hash = false;
  for (const char ch : reason) {
    if (in_quote) {
      if (ch == quote) {
        in_quote = false;
        out += ch;
      }
      continue;
    }
    if (ch == '\'' || ch == '"') {
      in_quote = true;
      quote = ch;
      out += ch;
      out += '_';
      last_hash = false;
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(ch)) != 0) {
      if (!last_hash) out += '#';
      last_hash = true;
      continue;
    }
    last_hash = false;
    out += ch;
  }
  // "pass '_' on graph '_': pass '_' on graph '_': x" -> "pass '_' on graph '_': x".
  std::vector<absl::string_view> segments;
  for (absl::string_view seg : absl::StrSplit(out, ": ")) {
    if (segments.empty() || segments.back() != seg) segments.push_back(seg);
  }
  std::string key = absl::StrJoin(segments, ": ");
  constexpr size_t kMax = 160;
  if (key.size() > kMax) key.resize(kMax);
  return key;
}

std::string FormatFailureGroups(const ConformanceReport& report, int32_t max_examples) {
  std::map<std::string, std::vector<std::string>> groups;
  for (const auto& [id, r] : report.results) {
    if (!r.pass) groups[GroupKey(r.reason)].push_back(id);
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> sorted(groups.begin(),
                                                                       groups.end());
  std::stable_sort(sorted.begin(), sorted.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  std::string out;
  for (const auto& [key, ids] : sorted) {
    absl::StrAppend(&out, "  ", ids.size(), "  ", key, "\n        e.g. ");
    const size_t n = std::min(ids.size(), static_cast<size_t>(std::max(max_examples, 1)));
    absl::StrAppend(&out, absl::StrJoin(ids.begin(), ids.begin() + static_cast<ptrdiff_t>(n), ", "),
                    ids.size() > n ? ", ..." : "", "\n        ", ids[0], ": ",
                    report.results.at(ids[0]).reason, "\n");
  }
  return out;
}

// ------------------------------------------------------------- baseline

StatusOr<Baseline> ParseBaseline(absl::string_view text) {
  Baseline baseline;
  int64_t line_no = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_no;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    const size_t space = line.find(' ');
    if (space == absl::string_view::npos) {
      return ParseFailed("baseline line ", line_no, ": expected '<suite/case> PASS|FAIL', got '",
                         line, "'");
    }
    const std::string id(line.substr(0, space));
    absl::string_view rest = absl::StripLeadingAsciiWhitespace(line.substr(space + 1));
    BaselineEntry entry;
    if (rest == "PASS") {
      entry.pass = true;
    } else if (absl::ConsumePrefix(&rest, "FAIL")) {
      if (!rest.empty() && rest[0] != ':') {
        return ParseFailed("baseline line ", line_no, ": unknown status '", line.substr(space + 1),
                           "' (PASS or FAIL[: reason])");
      }
      absl::ConsumePrefix(&rest, ":");
      entry.reason = std::string(absl::StripAsciiWhitespace(rest));
    } else {
      return ParseFailed("baseline line ", line_no, ": unknown status '", rest,
                         "' (PASS or FAIL[: reason])");
    }
    if (id.find('/') == std::string::npos) {
      return ParseFailed("baseline line ", line_no, ": case id '", id, "' is not '<suite>/<case>'");
    }
    if (!baseline.emplace(id, std::move(entry)).second) {
      return ParseFailed("baseline line ", line_no, ": duplicate case '", id, "'");
    }
  }
  return baseline;
}

StatusOr<Baseline> ReadBaseline(const std::string& path) {
  if (access(path.c_str(), F_OK) != 0) return NotFound("baseline file '", path, "' not found");
  StatusOr<std::string> text = onnx_test::ReadFileBytes(path);
  if (!text.ok()) return Annotate(text.status(), "baseline '", path, "': ");
  StatusOr<Baseline> parsed = ParseBaseline(*text);
  if (!parsed.ok()) return Annotate(parsed.status(), path, ": ");
  return parsed;
}

std::string FormatBaseline(const ConformanceReport& report, absl::string_view header) {
  std::string out;
  if (!header.empty()) {
    for (absl::string_view line : absl::StrSplit(header, '\n')) {
      absl::StrAppend(&out, "# ", line, "\n");
    }
  }
  for (const auto& [id, r] : report.results) {
    if (r.pass) {
      absl::StrAppend(&out, id, " PASS\n");
    } else {
      absl::StrAppend(&out, id, " FAIL: ", OneLine(r.reason), "\n");
    }
  }
  return out;
}

Status WriteBaseline(const std::string& path, const ConformanceReport& report,
                     absl::string_view header) {
  const std::string tmp = absl::StrCat(path, ".tmp.", getpid());
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f) return IoError("cannot write '", tmp, "'");
    f << FormatBaseline(report, header);
    f.flush();
    if (!f) {
      std::remove(tmp.c_str());
      return IoError("write to '", tmp, "' failed");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    return IoError("cannot rename '", tmp, "' to '", path, "'");
  }
  return OkStatus();
}

BaselineDiff CompareWithBaseline(const ConformanceReport& report, const Baseline& baseline) {
  BaselineDiff diff;
  for (const auto& [id, r] : report.results) {
    auto it = baseline.find(id);
    if (it == baseline.end()) diff.unlisted.push_back(id);
    const bool was_pass = it != baseline.end() && it->second.pass;
    if (was_pass && !r.pass) diff.regressions.push_back(absl::StrCat(id, ": ", r.reason));
    if (!was_pass && r.pass) diff.newly_passing.push_back(id);
  }
  return diff;
}

}  // namespace conformance
}  // namespace ge
