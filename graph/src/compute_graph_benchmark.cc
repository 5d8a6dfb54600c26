// graph/src/compute_graph_benchmark.cc
//
// Construction and topological-sort cost of ComputeGraph on N-node graphs
// (N = 10k and 1M) with chains, fan-out, control edges and an attribute on
// every node. Reports ns per node and memory per node (heap bytes from
// mallinfo2 and the VmRSS growth of the first build).
//
//   bazel run -c opt //graph:compute_graph_benchmark
//
// Budget (one core): construction <= 1 us/node, each sort <= 0.5 us/node,
// memory <= 1 KiB/node. BM_Construct/1000000 must run first in a fresh
// process to see the first-touch cost (--benchmark_filter=Construct/1000000).
// BM_ConstructPhases splits construction into OpDesc creation, AddNode,
// linking and destruction.
#include <malloc.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"

namespace ge {
namespace {

int64_t VmRssBytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) {
      return std::stoll(line.substr(6)) * 1024;  // "VmRSS:   1234 kB"
    }
  }
  return 0;
}

int64_t HeapBytes() { return static_cast<int64_t>(mallinfo2().uordblks); }

void Check(const Status& st) {
  if (!st.ok()) {
    std::fprintf(stderr, "benchmark setup failed: %s\n", st.ToString().c_str());
    std::abort();
  }
}

// How the benchmark creates its OpDescs.
enum class OpAlloc { kPooled, kMakeShared };

bool SecondInput(int64_t i) { return i >= 8 && i % 4 == 0; }

OpDescPtr MakeBenchOp(int64_t i, const GeTensorDesc& desc, OpAlloc alloc) {
  const std::string name = absl::StrCat("node_", i);
  const std::string& type = i == 0 ? DATA : std::string("Add");
  OpDescPtr op = alloc == OpAlloc::kPooled ? OpDesc::Create(name, type)
                                           : std::make_shared<OpDesc>(name, type);
  if (i > 0) Check(op->AddInputDesc(desc));
  if (SecondInput(i)) Check(op->AddInputDesc(desc));
  Check(op->AddOutputDesc(desc));
  Check(AttrUtils::SetInt(op, "_index", i));
  return op;
}

void LinkBenchNode(const std::vector<Node*>& nodes, int64_t i) {
  Node* cur = nodes[i];
  if (i > 0) Check(nodes[i - 1]->GetOutDataAnchorBarePtr(0)->LinkTo(cur->GetInDataAnchorBarePtr(0)));
  if (SecondInput(i)) {
    Check(nodes[i - 5 - (i / 4) % 3]->GetOutDataAnchorBarePtr(0)->LinkTo(
        cur->GetInDataAnchorBarePtr(1)));
  }
  if (i >= 3 && i % 16 == 0) {
    Check(nodes[i - 3]->GetOutControlAnchorBarePtr()->LinkTo(cur->GetInControlAnchorBarePtr()));
  }
}

// Node i: 1 output [1, 64] float; input 0 from node i-1 (the chain); every
// 4th node a second input from an earlier node (fan-out up to ~4 consumers);
// every 16th node a control edge from node i-3; attribute "_index" = i.
// OpDescs come from std::make_shared unless alloc says otherwise.
ComputeGraphPtr BuildGraph(int64_t n, OpAlloc alloc = OpAlloc::kMakeShared) {
  auto graph = std::make_shared<ComputeGraph>("bench");
  std::vector<Node*> nodes;
  nodes.reserve(static_cast<size_t>(n));
  const GeTensorDesc desc(GeShape({1, 64}), FORMAT_ND, DT_FLOAT);
  for (int64_t i = 0; i < n; ++i) {
    auto node = graph->AddNode(MakeBenchOp(i, desc, alloc));
    Check(node.status());
    nodes.push_back(node->get());
    LinkBenchNode(nodes, i);
  }
  return graph;
}

void RunConstruct(benchmark::State& state, OpAlloc alloc) {
  const int64_t n = state.range(0);
  double heap_per_node = 0;
  double rss_per_node = -1;
  for (auto _ : state) {
    state.PauseTiming();
    const int64_t heap0 = HeapBytes();
    const int64_t rss0 = VmRssBytes();
    state.ResumeTiming();
    ComputeGraphPtr graph = BuildGraph(n, alloc);
    state.PauseTiming();
    heap_per_node = static_cast<double>(HeapBytes() - heap0) / static_cast<double>(n);
    if (rss_per_node < 0) {  // later builds reuse freed pages
      rss_per_node = static_cast<double>(VmRssBytes() - rss0) / static_cast<double>(n);
    }
    graph.reset();
    state.ResumeTiming();
  }
  // Seconds per node (printed with an SI prefix: "850n" = 850 ns).
  state.counters["s_per_node"] = benchmark::Counter(
      static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                  benchmark::Counter::kInvert);
  state.counters["heap_B_per_node"] = heap_per_node;
  state.counters["rss_B_per_node"] = rss_per_node;
}

// OpDescs from std::make_shared (glibc), the rest of the graph pooled.
// heap_B_per_node counts glibc only; pooled objects show in rss_B_per_node.
void BM_Construct(benchmark::State& state) { RunConstruct(state, OpAlloc::kMakeShared); }
BENCHMARK(BM_Construct)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);
// The same graph with OpDescs from OpDesc::Create (pooled too).
void BM_ConstructPooledOps(benchmark::State& state) { RunConstruct(state, OpAlloc::kPooled); }
BENCHMARK(BM_ConstructPooledOps)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);

// Construction split in phases (ns per node each): creating the OpDescs
// (ports, descs, attribute), adding the nodes, linking, and destruction.
void BM_ConstructPhases(benchmark::State& state) {
  const int64_t n = state.range(0);
  using Clock = std::chrono::steady_clock;
  double ops_ns = 0, add_ns = 0, link_ns = 0, destroy_ns = 0;
  const GeTensorDesc desc(GeShape({1, 64}), FORMAT_ND, DT_FLOAT);
  for (auto _ : state) {
    const auto t0 = Clock::now();
    std::vector<OpDescPtr> ops;
    ops.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) ops.push_back(MakeBenchOp(i, desc, OpAlloc::kMakeShared));
    const auto t1 = Clock::now();
    auto graph = std::make_shared<ComputeGraph>("bench");
    std::vector<Node*> nodes;
    nodes.reserve(static_cast<size_t>(n));
    for (const OpDescPtr& op : ops) {
      auto node = graph->AddNode(op);
      Check(node.status());
      nodes.push_back(node->get());
    }
    ops.clear();
    const auto t2 = Clock::now();
    for (int64_t i = 0; i < n; ++i) LinkBenchNode(nodes, i);
    const auto t3 = Clock::now();
    graph.reset();
    const auto t4 = Clock::now();
    auto ns = [](Clock::duration d) { return std::chrono::duration<double, std::nano>(d).count(); };
    ops_ns += ns(t1 - t0);
    add_ns += ns(t2 - t1);
    link_ns += ns(t3 - t2);
    destroy_ns += ns(t4 - t3);
  }
  const double per = static_cast<double>(n) * static_cast<double>(state.iterations());
  state.counters["ops_ns_per_node"] = ops_ns / per;
  state.counters["add_ns_per_node"] = add_ns / per;
  state.counters["link_ns_per_node"] = link_ns / per;
  state.counters["destroy_ns_per_node"] = destroy_ns / per;
}
BENCHMARK(BM_ConstructPhases)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);

void RunSort(benchmark::State& state, TopoSortingMode mode, bool memory_priority) {
  const int64_t n = state.range(0);
  ComputeGraphPtr graph = BuildGraph(n);
  TopoSortOptions options;
  options.mode = mode;
  options.memory_priority = memory_priority;
  for (auto _ : state) Check(graph->TopologicalSorting(options));
  state.counters["s_per_node"] = benchmark::Counter(
      static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                  benchmark::Counter::kInvert);
}

void BM_SortBFS(benchmark::State& state) { RunSort(state, TopoSortingMode::kBFS, false); }
void BM_SortDFS(benchmark::State& state) { RunSort(state, TopoSortingMode::kDFS, false); }
void BM_SortRDFS(benchmark::State& state) { RunSort(state, TopoSortingMode::kRDFS, false); }
void BM_SortStableRDFS(benchmark::State& state) {
  RunSort(state, TopoSortingMode::kStableRDFS, false);
}
void BM_SortMemoryPriority(benchmark::State& state) {
  RunSort(state, TopoSortingMode::kDFS, true);
}
BENCHMARK(BM_SortBFS)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SortDFS)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SortRDFS)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SortStableRDFS)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SortMemoryPriority)->Arg(10000)->Arg(1000000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ge
