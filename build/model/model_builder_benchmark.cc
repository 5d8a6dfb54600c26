// build/model/model_builder_benchmark.cc
//
// ModelBuilder::Build on the atc benchmark ladder (buildtest::MakeLadder:
// Add / Mul / Relu on [1,16], a Const every 4 Muls) at 10k and 100k ops, with
// one task-generation thread and with the default (hardware concurrency).
// Reports time_per_node (CPU seconds per node; 1.2u = 1.2 us/node) and, for
// one thread, heap_bytes_per_node (main malloc arena growth; the model's task
// list is most of it). Graph construction and teardown are not measured.
// Fresh heap pages are expensive (a fault each, very costly in VMs): compare
// with GLIBC_TUNABLES=glibc.malloc.hugetlb=1.
//   bazel run -c opt //build/model:model_builder_benchmark
#include <malloc.h>

#include <string>

#include "benchmark/benchmark.h"
#include "build/model/build_test_util.h"
#include "build/model/model_builder.h"
#include "graph/inc/graph/compute_graph.h"

namespace ge {
namespace {

void BM_BuildLadder(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  ModelBuildOptions options;
  options.num_threads = static_cast<int>(state.range(1));
  double heap_bytes = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ComputeGraphPtr graph = buildtest::MakeLadder(n);
    const size_t before = mallinfo2().uordblks + mallinfo2().hblkhd;
    state.ResumeTiming();
    {
      auto model = ModelBuilder(options).Build(graph);
      if (!model.ok()) state.SkipWithError(std::string(model.status().message()).c_str());
      benchmark::DoNotOptimize(model);
      state.PauseTiming();  // teardown is not measured
      const size_t after = mallinfo2().uordblks + mallinfo2().hblkhd;
      heap_bytes = static_cast<double>(after) - static_cast<double>(before);
    }
    graph.reset();
    state.ResumeTiming();
  }
  if (options.num_threads == 1) state.counters["heap_bytes_per_node"] = heap_bytes / static_cast<double>(n);
  state.counters["time_per_node"] = benchmark::Counter(
      static_cast<double>(state.iterations() * n), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK(BM_BuildLadder)
    ->ArgNames({"ops", "threads"})
    ->Args({10000, 1})
    ->Args({10000, 0})
    ->Args({100000, 1})
    ->Args({100000, 0})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ge
