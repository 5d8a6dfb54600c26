// compiler/tools/onnx_parse_time.cc
//
// onnx_parse_time: times the ONNX front end alone (OnnxModelParser::ParseFile)
// on each model given, reporting the fastest of --repeat runs, the node count,
// the time per node and the time of each parse phase (OnnxParseInfo::phase_ms),
// so a change to the parser can be timed against the same models.
// Also the process CPU time of the fastest run ("cpu N ms"): on a shared
// machine it is less disturbed by other processes than the wall time.
//
// Usage:
//   onnx_parse_time [--repeat=N] [--bytes] model.onnx...
//     --repeat=N   parse N times, report the fastest (default 3)
//     --bytes      read the file into memory first and time ParseBytes
// Exit status 1 when a model fails to parse (the error is printed).
//
// Example:
//   bazel run -c opt //compiler/tools:onnx_parse_time -- $PWD/model.onnx
#include <time.h>

#include <chrono>  // NOLINT(build/c++11)
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "compiler/parser/onnx/onnx_parser.h"
#include "compiler/tools/onnx_loader.h"
#include "graph/inc/graph/compute_graph.h"

namespace ge {
namespace {

using Clock = std::chrono::steady_clock;

// CPU time of the process so far, in milliseconds.
double CpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
}

int Main(int argc, char** argv) {
  bool bytes_mode = false;
  const StatusOr<ToolArgs> args = ParseToolArgs(argc, argv, /*default_repeat=*/3,
                                                [&](const std::string& arg) -> StatusOr<bool> {
                                                  if (arg != "--bytes") return false;
                                                  bytes_mode = true;
                                                  return true;
                                                });
  if (!args.ok()) {
    std::fprintf(stderr, "%s\n", std::string(args.status().message()).c_str());
    return 2;
  }
  const int repeat = args->repeat;
  const std::vector<std::string>& models = args->models;
  if (models.empty()) {
    std::fprintf(stderr, "usage: onnx_parse_time [--repeat=N] [--bytes] model.onnx...\n");
    return 2;
  }
  int rc = 0;
  OnnxModelParser parser;
  for (const std::string& path : models) {
    double best = -1;
    double best_cpu = -1;
    size_t nodes = 0;
    OnnxParseInfo best_info;
    std::string bytes;
    if (bytes_mode) {
      std::ifstream in(path, std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      bytes = ss.str();
    }
    for (int r = 0; r < repeat; ++r) {
      OnnxParseInfo info;
      ParseOptions opts;
      opts.info = &info;
      const auto t0 = Clock::now();
      const double cpu0 = CpuMs();
      StatusOr<ComputeGraphPtr> g =
          bytes_mode ? parser.ParseBytes(bytes, opts) : parser.ParseFile(path, opts);
      const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
      const double cpu = CpuMs() - cpu0;
      if (g.ok() && (best_cpu < 0 || cpu < best_cpu)) best_cpu = cpu;
      if (!g.ok()) {
        std::fprintf(stderr, "%s: %s\n", path.c_str(), g.status().ToString().c_str());
        rc = 1;
        break;
      }
      nodes = (*g)->GetAllNodesSize();
      if (best < 0 || ms < best) {
        best = ms;
        best_info = std::move(info);
      }
    }
    if (best >= 0) {
      std::printf("%s: %zu nodes, parse %.1f ms (%.2f us/node), cpu %.1f ms\n", path.c_str(), nodes,
                  best, nodes == 0 ? 0.0 : best * 1000.0 / static_cast<double>(nodes), best_cpu);
      for (const auto& [phase, ms] : best_info.phase_ms) {
        std::printf("  %-14s %9.1f ms\n", phase.c_str(), ms);
      }
    }
  }
  return rc;
}

}  // namespace
}  // namespace ge

int main(int argc, char** argv) { return ge::Main(argc, argv); }
