// graph/serialization/tools/decode_time.cc
//
// Times the decoders on one ModelDef file (e.g. an OM's MODEL_DEF partition):
// ModelSerialize::DeserializeModel (full graph) and DecodeModelOpDescs (root
// OpDescs only), best of --loop runs each, in ms of thread CPU time on stdout.
// --mode=stats instead decodes once (light) and prints the memory per op:
// operator new calls and bytes (temporaries included) and graph-pool bytes
// carved, and how many distinct tensor desc objects the ports point at.
//
// Example
//   bazel build -c opt //graph/serialization:decode_time
//   bazel-out/k8-opt/bin/graph/serialization/decode_time /tmp/model_def.pb --loop=5
//   bazel-out/k8-opt/bin/graph/serialization/decode_time /tmp/model_def.pb --mode=stats
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <new>
#include <sstream>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/pool_allocator.h"
#include "graph/serialization/inc/model_op_descs.h"
#include "graph/serialization/inc/model_serialize.h"

// --mode=stats counts operator new calls and bytes during one light decode.
namespace {
std::atomic<uint64_t> g_new_calls{0};
std::atomic<uint64_t> g_new_bytes{0};
}  // namespace

void* operator new(size_t n) {
  g_new_calls.fetch_add(1, std::memory_order_relaxed);
  g_new_bytes.fetch_add(n, std::memory_order_relaxed);
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }

namespace {

// One light decode: heap (operator new) and graph-pool bytes per op, and how
// many distinct tensor desc objects the ops' ports point at.
int PrintStats(const std::string& bytes) {
  const uint64_t pool0 = ge::internal::GetPoolStats().carved_bytes;
  const uint64_t calls0 = g_new_calls.load(), bytes0 = g_new_bytes.load();
  ge::StatusOr<ge::ModelOpDescs> m = ge::DecodeModelOpDescs(bytes);
  const uint64_t calls1 = g_new_calls.load(), bytes1 = g_new_bytes.load();
  const uint64_t pool1 = ge::internal::GetPoolStats().carved_bytes;
  if (!m.ok()) {
    std::fprintf(stderr, "DecodeModelOpDescs: %s\n", std::string(m.status().message()).c_str());
    return 1;
  }
  const double n = static_cast<double>(std::max<size_t>(1, m->ops.size()));
  absl::flat_hash_set<const void*> descs;
  size_t ports = 0, name_bytes = 0, long_names = 0, attrs = 0;
  for (const ge::OpDescPtr& op : m->ops) {
    name_bytes += op->GetName().size();
    long_names += op->GetName().size() > 15 ? 1 : 0;
    attrs += op->GetAttrStore().size();
    for (size_t i = 0; i < op->GetAllInputsSize(); ++i)
      descs.insert(op->PeekInputDesc(static_cast<uint32_t>(i)));
    for (size_t i = 0; i < op->GetAllOutputsDescSize(); ++i) {
      descs.insert(op->PeekOutputDesc(static_cast<uint32_t>(i)));
    }
    ports += op->GetAllInputsSize() + op->GetAllOutputsDescSize();
  }
  std::printf(
      "%zu ops, %zu ports, %zu distinct desc objects; names %.1f bytes/op (%zu > 15); attrs "
      "%.2f/op\n",
      m->ops.size(), ports, descs.size(), static_cast<double>(name_bytes) / n, long_names,
      static_cast<double>(attrs) / n);
  std::printf("per op: operator new %.2f calls, %.1f bytes; graph pool carved %.1f bytes\n",
              static_cast<double>(calls1 - calls0) / n, static_cast<double>(bytes1 - bytes0) / n,
              static_cast<double>(pool1 - pool0) / n);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr,
                 "usage: %s <model_def file> [--loop=N] [--mode=both|full|light|encode|stats]\n",
                 argv[0]);
    return 2;
  }
  int loop = 3;
  std::string mode = "both";
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (absl::StartsWith(arg, "--mode=") &&
        (arg.substr(7) == "both" || arg.substr(7) == "full" || arg.substr(7) == "light" ||
         arg.substr(7) == "encode" || arg.substr(7) == "stats")) {
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
  if (mode == "stats") return PrintStats(bytes);
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
  std::printf(
      "%zu bytes, %zu root nodes: DeserializeModel %.1f ms, DecodeModelOpDescs %.1f ms (best of "
      "%d, "
      "thread CPU time of the decode only; 0 = not run)\n",
      bytes.size(), nodes, best_full, best_light, loop);
  return 0;
}
