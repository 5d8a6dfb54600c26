// graph/serialization/tools/decode_time.cc
//
// Times the decoders on one ModelDef file (e.g. an OM's MODEL_DEF partition):
// ModelSerialize::DeserializeModel (full graph) and DecodeModelOpDescs (root
// OpDescs only), best of --loop runs each, in ms of thread CPU time on stdout.
//
// Example
//   bazel build -c opt //graph/serialization:decode_time
//   bazel-out/k8-opt/bin/graph/serialization/decode_time /tmp/model_def.pb --loop=5
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/match.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/pool_allocator.h"
#include "graph/serialization/inc/model_op_descs.h"
#include "graph/serialization/inc/model_serialize.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s <model_def file> [--loop=N] [--mode=both|full|light|encode]\n", argv[0]);
    return 2;
  }
  int loop = 3;
  std::string mode = "both";
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (absl::StartsWith(arg, "--mode=") &&
        (arg.substr(7) == "both" || arg.substr(7) == "full" || arg.substr(7) == "light" ||
         arg.substr(7) == "encode")) {
      mode = arg.substr(7);
      continue;
    }
    if (!absl::StartsWith(arg, "--loop=") || !absl::SimpleAtoi(arg.substr(7), &loop) || loop < 1) {
      std::fprintf(stderr, "bad argument '%s'\n", argv[i]);
      return 2;
    }
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string bytes = ss.str();
  if (!in) {
    std::fprintf(stderr, "cannot read '%s'\n", argv[1]);
    return 1;
  }
  // Thread CPU time: other processes on a shared machine distort wall time.
  struct Clock {
    static double now() {
      timespec ts;
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
      return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
    }
  };
  auto ms = [](double a, double b) { return b - a; };
  if (mode == "encode") {
    ge::StatusOr<ge::ComputeGraphPtr> g = ge::ModelSerialize::DeserializeModel(bytes);
    if (!g.ok()) {
      std::fprintf(stderr, "DeserializeModel: %s\n", std::string(g.status().message()).c_str());
      return 1;
    }
    double best = 0;
    for (int i = 0; i < loop; ++i) {
      const double t0 = Clock::now();
      ge::StatusOr<std::string> out = ge::ModelSerialize::SerializeModel(**g);
      const double t1 = Clock::now();
      if (!out.ok() || *out != bytes) {
        std::fprintf(stderr, "SerializeModel failed or gave other bytes\n");
        return 1;
      }
      best = i == 0 ? t1 - t0 : std::min(best, t1 - t0);
    }
    std::printf("SerializeModel %.1f ms (best of %d, thread CPU time)\n", best, loop);
    return 0;
  }
  double best_full = 0, best_light = 0;
  size_t nodes = 0;
  for (int i = 0; i < loop; ++i) {
    const auto t0 = Clock::now();
    if (mode != "light") {
      ge::StatusOr<ge::ComputeGraphPtr> g = ge::ModelSerialize::DeserializeModel(bytes);
      if (!g.ok()) {
        std::fprintf(stderr, "DeserializeModel: %s\n", std::string(g.status().message()).c_str());
        return 1;
      }
      nodes = (*g)->GetDirectNodesSize();
      const auto t1 = Clock::now();
      best_full = i == 0 ? ms(t0, t1) : std::min(best_full, ms(t0, t1));
    }
    const auto t2 = Clock::now();
    if (mode != "full") {
      ge::StatusOr<ge::ModelOpDescs> m = ge::DecodeModelOpDescs(bytes);
      if (!m.ok()) {
        std::fprintf(stderr, "DecodeModelOpDescs: %s\n", std::string(m.status().message()).c_str());
        return 1;
      }
      const auto t3 = Clock::now();
      nodes = m->ops.size();
      if (i == 0) {
        std::printf("light decode: graph pool carved %.1f MB\n",
                    static_cast<double>(ge::internal::GetPoolStats().carved_bytes) / 1e6);
      }
      best_light = i == 0 ? ms(t2, t3) : std::min(best_light, ms(t2, t3));
    }
  }
  std::printf("%zu bytes, %zu root nodes: DeserializeModel %.1f ms, DecodeModelOpDescs %.1f ms (best of %d, "
              "thread CPU time of the decode only; 0 = not run)\n",
              bytes.size(), nodes, best_full, best_light, loop);
  return 0;
}
