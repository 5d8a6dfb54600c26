// compiler/stages/stages_bench.cc
//
// stages_bench: the prepare / optimize cost of the default CompilerStages on
// ONNX models, in wall and thread-CPU time (the CPU figure is the stable one
// on a shared machine), with the CPU time of every built-in pass.
//
// Usage:
//   stages_bench [--repeat=N] [--passes] model.onnx...
//     --repeat=N  parse and compile N times, report the run with the least
//                 prepare + optimize CPU time (default 1)
//     --passes    also print the CPU time of each stage (since the previous
//                 stage ended) and of each pass of that run
// Output per model:
//   <model> nodes=<n> prepare=<wall>/<cpu> ms optimize=<wall>/<cpu> ms
//   cpu_us_per_node=<(prepare + optimize cpu) / n>
// Exit status 1 when a model fails to load or compile.
//
// Example:
//   bazel build -c opt //compiler/stages:stages_bench
//   bazel-bin/compiler/stages/stages_bench --repeat=3 /tmp/zoo/synth_ladder_10k.onnx
#include <time.h>

#include <chrono>  // NOLINT(build/c++11)
#include <cstdio>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler/stages/compiler_stages.h"
#include "compiler/tools/onnx_loader.h"
#include "graph/inc/graph/compute_graph.h"

namespace ge {
namespace {

double CpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double WallMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

struct Run {
  size_t nodes = 0;
  double prepare_wall = 0, prepare_cpu = 0, optimize_wall = 0, optimize_cpu = 0;
  std::vector<std::pair<std::string, double>> passes;  // (manager/pass, cpu ms)
  std::vector<std::pair<std::string, double>> stages;  // (stage, cpu ms since the last one)
};

StatusOr<Run> CompileOnce(const std::string& path) {
  ASSIGN_OR_RETURN(ComputeGraphPtr graph, LoadOnnxModel(path));
  Run run;
  run.nodes = graph->GetAllNodesSize();
  CompilerStages stages;
  CompileOptions opts;
  const double wall0 = WallMs();
  const double cpu0 = CpuMs();
  bool prepared = false;
  double stage_start = cpu0;
  opts.observer = [&](absl::string_view stage) {
    const double now = CpuMs();
    run.stages.emplace_back(std::string(stage), now - stage_start);
    stage_start = now;
    if (!prepared && stage == "PrepareDynShape") {
      prepared = true;
      run.prepare_wall = WallMs() - wall0;
      run.prepare_cpu = CpuMs() - cpu0;
    }
  };
  double pass_start = 0;
  opts.pass_observer = [&](absl::string_view manager, absl::string_view pass, bool starting) {
    const double now = CpuMs();
    if (!starting) run.passes.emplace_back(absl::StrCat(manager, "/", pass), now - pass_start);
    pass_start = now;
  };
  RETURN_IF_ERROR(stages.Compile(graph, opts).status());
  run.optimize_wall = WallMs() - wall0 - run.prepare_wall;
  run.optimize_cpu = CpuMs() - cpu0 - run.prepare_cpu;
  return run;
}

int Main(int argc, char** argv) {
  int repeat = 1;
  bool passes = false;
  std::vector<std::string> models;
  for (int i = 1; i < argc; ++i) {
    const absl::string_view arg = argv[i];
    if (absl::StartsWith(arg, "--repeat=")) {
      if (!absl::SimpleAtoi(arg.substr(9), &repeat) || repeat < 1) {
        std::fprintf(stderr, "bad --repeat value '%s'\n", argv[i]);
        return 1;
      }
    } else if (arg == "--passes") {
      passes = true;
    } else {
      models.emplace_back(arg);
    }
  }
  if (models.empty()) {
    std::fprintf(stderr, "usage: stages_bench [--repeat=N] [--passes] model.onnx...\n");
    return 1;
  }
  for (const std::string& model : models) {
    Run best;
    double best_cpu = std::numeric_limits<double>::max();
    for (int r = 0; r < repeat; ++r) {
      StatusOr<Run> run = CompileOnce(model);
      if (!run.ok()) {
        std::fprintf(stderr, "%s: %s\n", model.c_str(),
                     std::string(run.status().message()).c_str());
        return 1;
      }
      const double cpu = run->prepare_cpu + run->optimize_cpu;
      if (cpu < best_cpu) {
        best_cpu = cpu;
        best = std::move(run).value();
      }
    }
    std::printf(
        "%s nodes=%zu prepare=%.1f/%.1f ms optimize=%.1f/%.1f ms (wall/cpu) "
        "cpu_us_per_node=%.2f\n",
        model.c_str(), best.nodes, best.prepare_wall, best.prepare_cpu, best.optimize_wall,
        best.optimize_cpu, best.nodes == 0 ? 0.0 : best_cpu * 1e3 / best.nodes);
    if (passes) {
      for (const auto& [name, ms] : best.stages)
        std::printf("  stage %-44s %8.2f\n", name.c_str(), ms);
      for (const auto& [name, ms] : best.passes) std::printf("  %-50s %8.2f\n", name.c_str(), ms);
    }
  }
  return 0;
}

}  // namespace
}  // namespace ge

int main(int argc, char** argv) { return ge::Main(argc, argv); }
