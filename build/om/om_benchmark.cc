// build/om/om_benchmark.cc
//
// Build + save + load of a synthetic Data -> {Add(const), Relu}* -> NetOutput
// chain with 10k and 100k nodes; reports per-node times (ns/node counters).
//   bazel run -c opt //build/om:om_benchmark
#include <memory>
#include <string>

#include "benchmark/benchmark.h"
#include "build/model/build_test_util.h"
#include "build/model/model_builder.h"
#include "build/om/om_file.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"

namespace ge {
namespace {

void BM_ModelBuild(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  for (auto _ : state) {
    state.PauseTiming();
    ComputeGraphPtr graph = buildtest::MakeAddReluChain(n, {16});
    state.ResumeTiming();
    {
      auto model = ModelBuilder().Build(graph);
      if (!model.ok()) state.SkipWithError(std::string(model.status().message()).c_str());
      benchmark::DoNotOptimize(model);
      state.PauseTiming();  // teardown is not measured
    }
    graph.reset();
    state.ResumeTiming();
  }
  // Seconds per node (shown with an SI suffix: 1.2u = 1.2 us/node).
  state.counters["time_per_node"] = benchmark::Counter(
      static_cast<double>(state.iterations() * n), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_SaveOm(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  auto model = ModelBuilder().Build(buildtest::MakeAddReluChain(n, {16}));
  if (!model.ok()) {
    state.SkipWithError("build failed");
    return;
  }
  size_t bytes = 0;
  for (auto _ : state) {
    auto om = SaveOm(**model);
    bytes = om.ok() ? om->size() : 0;
    benchmark::DoNotOptimize(om);
  }
  state.counters["om_bytes"] = static_cast<double>(bytes);
  state.counters["time_per_node"] = benchmark::Counter(
      static_cast<double>(state.iterations() * n), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_LoadOm(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  auto model = ModelBuilder().Build(buildtest::MakeAddReluChain(n, {16}));
  if (!model.ok()) {
    state.SkipWithError("build failed");
    return;
  }
  auto om = SaveOm(**model);
  auto buf = std::make_shared<AlignedBuffer>(reinterpret_cast<const uint8_t*>(om->data()), om->size());
  for (auto _ : state) {
    auto loaded = LoadGeRootModelFromOm(absl::Span<const uint8_t>(buf->data(), buf->size()), buf);
    if (!loaded.ok()) state.SkipWithError(std::string(loaded.status().message()).c_str());
    benchmark::DoNotOptimize(loaded);
  }
  state.counters["time_per_node"] = benchmark::Counter(
      static_cast<double>(state.iterations() * n), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

BENCHMARK(BM_ModelBuild)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SaveOm)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadOm)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ge
