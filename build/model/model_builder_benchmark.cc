// build/model/model_builder_benchmark.cc
//
// ModelBuilder::Build on the atc benchmark ladder (buildtest::MakeLadder:
// Add / Mul / Relu on [1,16], a Const every 4 Muls) at 10k and 100k ops, with
// one task-generation thread and with the default (hardware concurrency).
// Linked with atc's allocator (tcmalloc, //third_party:malloc), so the figures are
// atc's. Reports time_per_node (CPU seconds per node; 1.2u = 1.2 us/node) and,
// for one thread, heap_bytes_per_node (heap growth during Build: the model's
// task list is most of it). Graph construction and teardown are not
// measured.
//   bazel build -c opt //build/model:model_builder_benchmark &&
//   bazel-out/k8-opt/bin/build/model/model_builder_benchmark
#include <malloc.h>

#include <cstddef>
#include <string>

#include "benchmark/benchmark.h"
#include "build/model/build_test_util.h"
#include "build/model/model_builder.h"
#include "graph/inc/graph/compute_graph.h"

// tcmalloc's statistics (gperftools C API); absent in the sanitizer builds,
// which use the system malloc (mallinfo2 then).
extern "C" int MallocExtension_GetNumericProperty(const char* property, size_t* value)
    __attribute__((weak));

namespace ge {
namespace {

size_t HeapInUse() {
  size_t bytes = 0;
  if (MallocExtension_GetNumericProperty != nullptr &&
      MallocExtension_GetNumericProperty("generic.current_allocated_bytes", &bytes) != 0) {
    return bytes;
  }
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

void BM_BuildLadder(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  ModelBuildOptions options;
  options.num_threads = static_cast<int>(state.range(1));
  double heap_bytes = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ComputeGraphPtr graph = buildtest::MakeLadder(n);
    const size_t before = HeapInUse();
    state.ResumeTiming();
    {
      auto model = ModelBuilder(options).Build(graph);
      if (!model.ok()) state.SkipWithError(std::string(model.status().message()).c_str());
      benchmark::DoNotOptimize(model);
      state.PauseTiming();  // teardown is not measured
      heap_bytes = static_cast<double>(HeapInUse()) - static_cast<double>(before);
    }
    graph.reset();
    state.ResumeTiming();
  }
  if (options.num_threads == 1)
    state.counters["heap_bytes_per_node"] = heap_bytes / static_cast<double>(n);
  state.counters["time_per_node"] =
      benchmark::Counter(static_cast<double>(state.iterations() * n),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
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
