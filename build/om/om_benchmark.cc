// build/om/om_benchmark.cc
//
// Build + save + load of a synthetic Data -> {Add(const), Relu}* -> NetOutput
// chain with 10k and 100k nodes; reports per-node times (ns/node counters),
// and BM_CompileVsLoad the compile (build + SaveOmToFile) and load (read +
// ParseOmFile + MODEL_DEF) per-node times with their ratio in one run.
//   bazel run -c opt //build/om:om_benchmark
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

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
  state.counters["time_per_node"] =
      benchmark::Counter(static_cast<double>(state.iterations() * n),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
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
  state.counters["time_per_node"] =
      benchmark::Counter(static_cast<double>(state.iterations() * n),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_LoadOm(benchmark::State& state) {
  const size_t n = static_cast<size_t>(state.range(0));
  auto model = ModelBuilder().Build(buildtest::MakeAddReluChain(n, {16}));
  if (!model.ok()) {
    state.SkipWithError("build failed");
    return;
  }
  auto om = SaveOm(**model);
  auto buf =
      std::make_shared<AlignedBuffer>(reinterpret_cast<const uint8_t*>(om->data()), om->size());
  for (auto _ : state) {
    auto loaded = LoadGeRootModelFromOm(absl::Span<const uint8_t>(buf->data(), buf->size()), buf);
    if (!loaded.ok()) state.SkipWithError(std::string(loaded.status().message()).c_str());
    benchmark::DoNotOptimize(loaded);
  }
  state.counters["time_per_node"] =
      benchmark::Counter(static_cast<double>(state.iterations() * n),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// Compile (build + SaveOmToFile) vs load (mmap-free: read back + parse +
// deserialize) of the same chain in one run: per-node times and the ratio
// load / compile (target: < 0.1).
void BM_CompileVsLoad(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  const size_t n = static_cast<size_t>(state.range(0));
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string path = std::string(tmp != nullptr ? tmp : "/tmp") + "/om_benchmark_" +
                           std::to_string(n) + "_" + std::to_string(::getpid()) + ".om";
  double compile_s = 0, load_s = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ComputeGraphPtr graph = buildtest::MakeAddReluChain(n, {16});
    state.ResumeTiming();
    {
      const Clock::time_point t0 = Clock::now();
      auto model = ModelBuilder().Build(graph);
      if (!model.ok()) {
        state.SkipWithError(std::string(model.status().message()).c_str());
        break;
      }
      auto size = SaveOmToFile(**model, path);
      if (!size.ok()) {
        state.SkipWithError(std::string(size.status().message()).c_str());
        break;
      }
      const Clock::time_point t1 = Clock::now();
      auto bytes = ReadFileToString(path);
      if (!bytes.ok()) {
        state.SkipWithError(std::string(bytes.status().message()).c_str());
        break;
      }
      auto holder = std::make_shared<std::string>(std::move(*bytes));
      auto loaded = LoadGeRootModelFromOm(AsBytes(*holder), holder);
      if (!loaded.ok()) state.SkipWithError(std::string(loaded.status().message()).c_str());
      const Clock::time_point t2 = Clock::now();
      compile_s += std::chrono::duration<double>(t1 - t0).count();
      load_s += std::chrono::duration<double>(t2 - t1).count();
      state.PauseTiming();
    }  // teardown is not measured
    graph.reset();
    state.ResumeTiming();
  }
  ::unlink(path.c_str());
  const double nodes = static_cast<double>(state.iterations()) * static_cast<double>(n);
  if (nodes > 0) {
    state.counters["compile_ns_per_node"] = compile_s * 1e9 / nodes;
    state.counters["load_ns_per_node"] = load_s * 1e9 / nodes;
    state.counters["load_over_compile"] = compile_s > 0 ? load_s / compile_s : 0;
  }
}

BENCHMARK(BM_CompileVsLoad)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ModelBuild)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SaveOm)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_LoadOm)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace ge
