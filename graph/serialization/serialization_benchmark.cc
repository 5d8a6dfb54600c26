// graph/serialization/serialization_benchmark.cc
//
// Serialization cost of N-node graphs (N = 10k and 1M; chains, fan-out,
// control edges, an attribute on every node, the shape of
// //graph:compute_graph_benchmark): ModelSerialize::SerializeModel,
// DeserializeModel and the round trip, in CPU time per node; building the
// same graph through the graph API (BM_Construct) for reference; the memory
// per node of a deserialized graph (BM_Memory: VmRSS growth and live heap
// bytes of the first deserialization at each size) and the serialized bytes
// per node. BM_Summary reports the 1M / 10k per-node cost ratios (1.0 =
// linear) and deserialization against API construction.
//
// The process keeps the memory it frees (glibc: no trimming, no mmap'd
// chunks, as a long-running compiler's allocator does), so repeated
// iterations measure the work, not the kernel faulting fresh pages in;
// BM_Memory runs first, before anything is freed, so its RSS growth is real.
//
//   bazel run -c opt //graph/serialization:serialization_benchmark
//
// Budget (one core): round trip <= 2 us/node, memory <= 1 KiB/node, per-node
// cost at 1M within 1.5x of 10k.
#include <malloc.h>
#include <time.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "graph/serialization/inc/model_serialize.h"

namespace ge {
namespace {

// Keep freed memory in the process (see the file comment).
const bool kMallocTuned = [] {
  return mallopt(M_TRIM_THRESHOLD, 1 << 30) == 1 && mallopt(M_MMAP_MAX, 0) == 1;
}();

int64_t VmRssBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  }
  return 0;
}

int64_t HeapBytes() { return static_cast<int64_t>(mallinfo2().uordblks); }

double CpuSeconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

void Check(const Status& st) {
  if (!st.ok()) {
    std::fprintf(stderr, "benchmark failed: %s\n", st.ToString().c_str());
    std::abort();
  }
}

// Node i: one output [1, 64] float; input 0 from node i-1 (the chain); every
// 4th node a second input from an earlier node (fan-out up to ~4 consumers);
// every 16th node a control edge from node i-3; attribute "_index" = i.
ComputeGraphPtr BuildGraph(int64_t n) {
  auto graph = std::make_shared<ComputeGraph>("bench");
  std::vector<Node*> nodes;
  nodes.reserve(static_cast<size_t>(n));
  const GeTensorDesc desc(GeShape({1, 64}), FORMAT_ND, DT_FLOAT);
  for (int64_t i = 0; i < n; ++i) {
    const bool second_input = i >= 8 && i % 4 == 0;
    auto op = std::make_shared<OpDesc>(absl::StrCat("node_", i), i == 0 ? DATA : "Add");
    if (i > 0) Check(op->AddInputDesc(desc));
    if (second_input) Check(op->AddInputDesc(desc));
    Check(op->AddOutputDesc(desc));
    Check(AttrUtils::SetInt(op, "_index", i));
    StatusOr<NodePtr> node = graph->AddNode(op);
    Check(node.status());
    Node* cur = node->get();
    nodes.push_back(cur);
    if (i > 0)
      Check(nodes[i - 1]->GetOutDataAnchorBarePtr(0)->LinkTo(cur->GetInDataAnchorBarePtr(0)));
    if (second_input) {
      Check(nodes[i - 5 - (i / 4) % 3]->GetOutDataAnchorBarePtr(0)->LinkTo(
          cur->GetInDataAnchorBarePtr(1)));
    }
    if (i >= 3 && i % 16 == 0) {
      Check(nodes[i - 3]->GetOutControlAnchorBarePtr()->LinkTo(cur->GetInControlAnchorBarePtr()));
    }
  }
  return graph;
}

struct Fixture {
  ComputeGraphPtr graph;
  std::string bytes;
};

// One graph and its bytes per size, built once.
Fixture& FixtureFor(int64_t n) {
  static std::map<int64_t, Fixture>* const kFixtures = new std::map<int64_t, Fixture>();
  Fixture& f = (*kFixtures)[n];
  if (f.graph == nullptr) {
    f.graph = BuildGraph(n);
    StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*f.graph);
    Check(bytes.status());
    f.bytes = std::move(bytes).value();
  }
  return f;
}

// Measured CPU seconds per node, by benchmark name and size (for BM_Summary).
std::map<std::pair<std::string, int64_t>, double>& PerNode() {
  static auto* const kPerNode = new std::map<std::pair<std::string, int64_t>, double>();
  return *kPerNode;
}

void Report(benchmark::State& state, const std::string& name, int64_t n, double cpu_seconds) {
  PerNode()[{name, n}] =
      cpu_seconds / static_cast<double>(state.iterations()) / static_cast<double>(n);
  state.counters["s_per_node"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                     benchmark::Counter::kInvert);
}

// Memory of the first deserialization at each size (nothing freed before).
void BM_Memory(benchmark::State& state) {
  if (!kMallocTuned) state.SkipWithError("mallopt failed");
  const int64_t n = state.range(0);
  Fixture& f = FixtureFor(n);
  for (auto _ : state) {
    const int64_t heap0 = HeapBytes();
    const int64_t rss0 = VmRssBytes();
    StatusOr<ComputeGraphPtr> graph = ModelSerialize::DeserializeModel(f.bytes);
    Check(graph.status());
    state.counters["heap_B_per_node"] =
        static_cast<double>(HeapBytes() - heap0) / static_cast<double>(n);
    state.counters["rss_B_per_node"] =
        static_cast<double>(VmRssBytes() - rss0) / static_cast<double>(n);
    state.counters["bytes_per_node"] = static_cast<double>(f.bytes.size()) / static_cast<double>(n);
  }
}

void BM_Construct(benchmark::State& state) {
  const int64_t n = state.range(0);
  double cpu = 0;
  for (auto _ : state) {
    const double t0 = CpuSeconds();
    ComputeGraphPtr graph = BuildGraph(n);
    cpu += CpuSeconds() - t0;
    state.PauseTiming();
    graph = ComputeGraphPtr();
    state.ResumeTiming();
  }
  Report(state, "construct", n, cpu);
}

void BM_Serialize(benchmark::State& state) {
  const int64_t n = state.range(0);
  Fixture& f = FixtureFor(n);
  double cpu = 0;
  for (auto _ : state) {
    const double t0 = CpuSeconds();
    StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*f.graph);
    cpu += CpuSeconds() - t0;
    Check(bytes.status());
    state.PauseTiming();
    bytes = std::string();
    state.ResumeTiming();
  }
  Report(state, "serialize", n, cpu);
}

void BM_Deserialize(benchmark::State& state) {
  const int64_t n = state.range(0);
  Fixture& f = FixtureFor(n);
  double cpu = 0;
  for (auto _ : state) {
    const double t0 = CpuSeconds();
    StatusOr<ComputeGraphPtr> graph = ModelSerialize::DeserializeModel(f.bytes);
    cpu += CpuSeconds() - t0;
    Check(graph.status());
    state.PauseTiming();
    graph = ComputeGraphPtr();
    state.ResumeTiming();
  }
  Report(state, "deserialize", n, cpu);
}

void BM_RoundTrip(benchmark::State& state) {
  const int64_t n = state.range(0);
  Fixture& f = FixtureFor(n);
  double cpu = 0;
  for (auto _ : state) {
    const double t0 = CpuSeconds();
    StatusOr<std::string> bytes = ModelSerialize::SerializeModel(*f.graph);
    Check(bytes.status());
    StatusOr<ComputeGraphPtr> graph = ModelSerialize::DeserializeModel(*bytes);
    cpu += CpuSeconds() - t0;
    Check(graph.status());
    state.PauseTiming();
    graph = ComputeGraphPtr();
    bytes = std::string();
    state.ResumeTiming();
  }
  Report(state, "round_trip", n, cpu);
}

// Linearity (per-node cost at 1M over 10k), the round trip per node, and
// deserialization over building the same graph through the API.
void BM_Summary(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(PerNode().size());
  auto get = [](const char* name, int64_t n) {
    auto it = PerNode().find({name, n});
    return it == PerNode().end() ? 0.0 : it->second;
  };
  for (const char* name : {"serialize", "deserialize", "round_trip", "construct"}) {
    if (get(name, 10000) > 0 && get(name, 1000000) > 0) {
      state.counters[absl::StrCat(name, "_1M_over_10k")] = get(name, 1000000) / get(name, 10000);
    }
  }
  for (int64_t n : {10000, 1000000}) {
    const std::string size = n == 10000 ? "10k" : "1M";
    if (get("round_trip", n) > 0) {
      state.counters[absl::StrCat("round_trip_ns_per_node_", size)] = get("round_trip", n) * 1e9;
    }
    if (get("construct", n) > 0 && get("deserialize", n) > 0) {
      state.counters[absl::StrCat("deserialize_over_construct_", size)] =
          get("deserialize", n) / get("construct", n);
    }
  }
}

BENCHMARK(BM_Memory)->Arg(10000)->Arg(1000000)->Iterations(1)->Unit(benchmark::kMillisecond);
// 1M-node runs take about a second each: a fixed 3 iterations (the first
// one warms the allocator).
#define GE_SIZES(bm)                                        \
  BENCHMARK(bm)->Arg(10000)->Unit(benchmark::kMillisecond); \
  BENCHMARK(bm)->Arg(1000000)->Iterations(3)->Unit(benchmark::kMillisecond)
GE_SIZES(BM_Construct);
GE_SIZES(BM_Serialize);
GE_SIZES(BM_Deserialize);
GE_SIZES(BM_RoundTrip);
#undef GE_SIZES
BENCHMARK(BM_Summary)->Iterations(1);

}  // namespace
}  // namespace ge
