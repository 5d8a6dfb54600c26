// ops/common/gemm_benchmark.cc
//
// Packed GemmF32 against a naive i-k-j loop (the baseline), square sizes.
//   bazel run -c opt //ops/common:gemm_benchmark   (or --config=opt)
// Counters report GFLOP/s (2 * n^3 per iteration).
#include <cstdint>
#include <random>
#include <vector>

#include "benchmark/benchmark.h"
#include "ops/common/gemm.h"

namespace {

void Fill(std::vector<float>* v) {
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (float& x : *v) x = d(rng);
}

void NaiveGemm(int64_t n, const float* a, const float* b, float* c) {
  for (int64_t i = 0; i < n * n; ++i) c[i] = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t p = 0; p < n; ++p) {
      const float av = a[i * n + p];
      for (int64_t j = 0; j < n; ++j) c[i * n + j] += av * b[p * n + j];
    }
  }
}

void BM_GemmF32(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<float> a(n * n), b(n * n), c(n * n);
  Fill(&a);
  Fill(&b);
  for (auto _ : state) {
    ops::GemmF32(false, false, n, n, n, 1.0f, a.data(), n, b.data(), n, 0.0f, c.data(), n);
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOPs"] = benchmark::Counter(
      2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_GemmF32)->Arg(64)->Arg(256)->Arg(512)->Arg(1024);

void BM_NaiveBaseline(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<float> a(n * n), b(n * n), c(n * n);
  Fill(&a);
  Fill(&b);
  for (auto _ : state) {
    NaiveGemm(n, a.data(), b.data(), c.data());
    benchmark::DoNotOptimize(c.data());
  }
  state.counters["GFLOPs"] = benchmark::Counter(
      2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate, benchmark::Counter::kIs1000);
}
BENCHMARK(BM_NaiveBaseline)->Arg(64)->Arg(256)->Arg(512)->Arg(1024);

}  // namespace
