// build/task/task_generator_benchmark.cc
//
// TaskGenerator::Generate alone on the atc benchmark ladder
// (buildtest::MakeLadder) at 10k and 100k ops, one thread and hardware
// concurrency. Memory is planned once outside the timed loop (every output
// 64 bytes, PlanArena); each iteration generates into a fresh ModelTaskDef,
// whose destruction is not timed. Linked with atc's allocator.
//   bazel build -c opt //build/task:task_generator_benchmark &&
//   bazel-out/k8-opt/bin/build/task/task_generator_benchmark
#include <memory>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "build/memory/mem_planner.h"
#include "build/model/build_test_util.h"
#include "build/task/task_generator.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"

namespace ge {
namespace {

void BM_GenerateLadder(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  ComputeGraphPtr graph = buildtest::MakeLadder(n);
  std::vector<Node*> nodes;
  for (const NodePtr& node : graph->DirectNodes()) {
    node->GetOpDesc()->SetId(static_cast<int64_t>(nodes.size()));
    nodes.push_back(node.get());
  }
  std::vector<NodeMemory> mem(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i]->GetType() == "NetOutput") continue;
    mem[i].outputs.resize(nodes[i]->GetAllOutDataAnchorsSize());
    for (TensorSlot& s : mem[i].outputs) s.size = 64;
  }
  if (!PlanArena(nodes, mem, MemPlanOptions{}).ok()) {
    state.SkipWithError("PlanArena failed");
    return;
  }
  TaskGenOptions options;
  options.num_threads = static_cast<int>(state.range(1));
  const TaskGenerator gen(options);
  for (auto _ : state) {
    auto def = std::make_unique<proto::ModelTaskDef>();
    Status st = gen.Generate(nodes, mem, def.get());
    if (!st.ok()) state.SkipWithError(std::string(st.message()).c_str());
    benchmark::DoNotOptimize(def);
    state.PauseTiming();  // teardown is not measured
    def.reset();
    state.ResumeTiming();
  }
  state.counters["time_per_node"] =
      benchmark::Counter(static_cast<double>(state.iterations() * n),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK(BM_GenerateLadder)
    ->ArgNames({"ops", "threads"})
    ->Args({10000, 1})
    ->Args({100000, 1})
    ->Args({100000, 0})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace
}  // namespace ge
