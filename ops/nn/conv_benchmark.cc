// ops/nn/conv_benchmark.cc: host Conv kernel throughput on ResNet-50 shapes.
//   bazel run -c opt --config=opt //ops/nn:conv_benchmark
#include <cstdint>
#include <vector>

#include "benchmark/benchmark.h"
#include "ops/nn/nn_test_util.h"

namespace ops {
namespace nn {
namespace {

using testing::OpTester;

// args: C, H (= W), M, kernel, stride
void BM_Conv(benchmark::State& state) {
  const int64_t c = state.range(0), h = state.range(1), m = state.range(2);
  const int64_t k = state.range(3), s = state.range(4);
  const int64_t pad = k / 2;
  std::vector<double> x(static_cast<size_t>(c * h * h), 0.5);
  std::vector<double> w(static_cast<size_t>(m * c * k * k), 0.25);
  OpTester t("Conv");
  t.AttrInts("pads", {pad, pad, pad, pad})
      .AttrInts("strides", {s, s})
      .Input(testing::F32({1, c, h, h}, x))
      .Input(testing::F32({m, c, k, k}, w));
  for (auto _ : state) {
    ge::Status st = t.Run(1);
    if (!st.ok()) state.SkipWithError(std::string(st.message()).c_str());
  }
  const int64_t oh = (h + 2 * pad - k) / s + 1;
  state.counters["GFLOP/s"] = benchmark::Counter(2.0 * static_cast<double>(m * c * k * k * oh * oh),
                                                 benchmark::Counter::kIsIterationInvariantRate,
                                                 benchmark::Counter::kIs1000);
}
BENCHMARK(BM_Conv)
    ->Args({64, 56, 64, 3, 1})    // res2 3x3
    ->Args({256, 56, 64, 1, 1})   // res2 1x1 reduce
    ->Args({128, 28, 128, 3, 1})  // res3 3x3
    ->Args({3, 224, 64, 7, 2})    // stem
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace nn
}  // namespace ops
