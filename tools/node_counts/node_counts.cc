// tools/node_counts/node_counts.cc
//
// node_counts: parses ONNX models, compiles each through the GraphManager's
// CompilerStages (prepare, Stage 1, partition, subgraph optimisation,
// Stage 2, graph build; no model build, nothing is executed) and prints, per model, the number of
// nodes per op type before and after, and the wall time of every stage and
// built-in pass.
//
// Usage:
//   node_counts [--repeat=N] [--options=k=v,k=v] model.onnx...
//     --repeat=N    compile N times (fresh parse each time) and report the
//                   fastest run's times (default 1)
//     --options=... ge.* options for the compile (e.g.
//                   ge.disabledPasses=CastRemovePass)
//     --quiet       times and totals only (no per-type table)
// Exit status 1 when a model fails to parse or compile (the error is
// printed, naming the model).
//
// Example:
//   bazel run -c opt //tools/node_counts -- /tmp/zoo/resnet50.onnx
#include <algorithm>
#include <chrono>  // NOLINT(build/c++11)
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "compiler/manager/session_options.h"
#include "compiler/tools/onnx_loader.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "runtime/manager/graph_manager.h"

namespace ge {
namespace {

using Clock = std::chrono::steady_clock;

std::map<std::string, int64_t> CountTypes(const ComputeGraph& graph) {
  std::map<std::string, int64_t> counts;
  for (Node* n : graph.GetAllNodesPtr()) ++counts[n->GetType()];
  return counts;
}

int64_t Total(const std::map<std::string, int64_t>& counts) {
  int64_t t = 0;
  for (const auto& [type, n] : counts) t += n;
  return t;
}

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

struct RunTimes {
  std::vector<std::pair<std::string, double>> stages;  // (stage, ms since the previous event)
  std::vector<std::pair<std::string, double>> passes;  // (manager/pass, ms)
  double total_ms = 0;
};

struct Compiled {
  std::map<std::string, int64_t> before;
  std::map<std::string, int64_t> after;
  double parse_ms = 0;
  RunTimes times;
};

StatusOr<Compiled> CompileOnce(const std::string& path,
                               const std::map<std::string, std::string>& options) {
  Compiled c;
  const auto t0 = Clock::now();
  ASSIGN_OR_RETURN(ComputeGraphPtr graph, LoadOnnxModel(path));
  c.parse_ms = Ms(Clock::now() - t0);
  c.before = CountTypes(*graph);
  GraphManager gm;
  RETURN_IF_ERROR(gm.Initialize(options));
  gm.set_build_model(false);
  RETURN_IF_ERROR(gm.AddGraph(0, graph));
  auto last = Clock::now();
  gm.SetStageObserver([&c, &last](absl::string_view stage) {
    const auto now = Clock::now();
    c.times.stages.emplace_back(std::string(stage), Ms(now - last));
    last = now;
  });
  auto pass_last = Clock::now();
  gm.SetPassObserver(
      [&c, &pass_last](absl::string_view manager, absl::string_view pass, bool starting) {
        const auto now = Clock::now();
        if (!starting) {
          c.times.passes.emplace_back(absl::StrCat(manager, "/", pass), Ms(now - pass_last));
        }
        pass_last = now;
      });
  const auto start = Clock::now();
  last = start;
  RETURN_IF_ERROR(gm.BuildGraph(0));
  c.times.total_ms = Ms(Clock::now() - start);
  ASSIGN_OR_RETURN(ComputeGraphPtr compiled, gm.GetCompiledGraph(0));
  c.after = CountTypes(*compiled);
  return c;
}

void Print(const std::string& path, const Compiled& c, bool quiet) {
  std::printf("== %s\n", path.c_str());
  std::printf("nodes: %lld before, %lld after (parse %.1f ms, compile %.1f ms)\n",
              static_cast<long long>(Total(c.before)), static_cast<long long>(Total(c.after)),
              c.parse_ms, c.times.total_ms);
  if (!quiet) {
    std::map<std::string, std::pair<int64_t, int64_t>> rows;
    for (const auto& [t, n] : c.before) rows[t].first = n;
    for (const auto& [t, n] : c.after) rows[t].second = n;
    std::vector<std::pair<std::string, std::pair<int64_t, int64_t>>> sorted(rows.begin(),
                                                                            rows.end());
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.second.first > b.second.first; });
    std::printf("%-28s %8s %8s\n", "op type", "before", "after");
    for (const auto& [t, ba] : sorted) {
      std::printf("%-28s %8lld %8lld\n", t.c_str(), static_cast<long long>(ba.first),
                  static_cast<long long>(ba.second));
    }
  }
  std::printf("stage times (ms):\n");
  for (const auto& [s, ms] : c.times.stages) std::printf("  %-40s %9.2f\n", s.c_str(), ms);
  std::printf("pass times (ms):\n");
  for (const auto& [p, ms] : c.times.passes) std::printf("  %-40s %9.2f\n", p.c_str(), ms);
}

int Main(int argc, char** argv) {
  bool quiet = false;
  std::map<std::string, std::string> options;
  const StatusOr<ToolArgs> args = ParseToolArgs(
      argc, argv, /*default_repeat=*/1, [&](const std::string& arg) -> StatusOr<bool> {
        if (arg == "--quiet") {
          quiet = true;
          return true;
        }
        if (!absl::StartsWith(arg, "--options=")) return false;
        for (absl::string_view kv : absl::StrSplit(arg.substr(10), ',', absl::SkipEmpty())) {
          std::vector<std::string> p = absl::StrSplit(kv, absl::MaxSplits('=', 1));
          if (p.size() != 2) return ParamInvalid("bad option '", kv, "' (want key=value)");
          options[p[0]] = p[1];
        }
        return true;
      });
  if (!args.ok()) {
    std::fprintf(stderr, "%s\n", std::string(args.status().message()).c_str());
    return 2;
  }
  const int repeat = args->repeat;
  const std::vector<std::string>& models = args->models;
  if (models.empty()) {
    std::fprintf(stderr,
                 "usage: node_counts [--repeat=N] [--quiet] [--options=k=v,...] model.onnx...\n");
    return 2;
  }
  Status valid = ValidateOptions(options);
  if (!valid.ok()) {
    std::fprintf(stderr, "options: %s\n", valid.ToString().c_str());
    return 2;
  }
  int rc = 0;
  for (const std::string& path : models) {
    StatusOr<Compiled> best = NotFound("no run");
    for (int r = 0; r < repeat; ++r) {
      StatusOr<Compiled> c = CompileOnce(path, options);
      if (!c.ok()) {
        best = c.status();
        break;
      }
      if (!best.ok() || c->times.total_ms < best->times.total_ms) best = std::move(c);
    }
    if (!best.ok()) {
      std::fprintf(stderr, "%s: %s\n", path.c_str(), best.status().ToString().c_str());
      rc = 1;
      continue;
    }
    Print(path, *best, quiet);
  }
  return rc;
}

}  // namespace
}  // namespace ge

int main(int argc, char** argv) { return ge::Main(argc, argv); }
