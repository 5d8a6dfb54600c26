// Benchmarks of TransferFormat on its hot pair, NCHW <-> NC1HWC0 (FP32), with
// a plain memcpy of the same tensor as the bandwidth ceiling.
//
// Bytes processed per iteration = bytes read + bytes written, so the GB/s
// figure is memory traffic and directly comparable with the memcpy baseline.
//
//   bazel run -c opt //metadef:format_transfer_benchmark
#include <cstdint>
#include <cstring>
#include <vector>

#include "benchmark/benchmark.h"
#include "metadef/inc/external/graph/format_transfer.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

std::vector<int64_t> NchwFromArgs(const benchmark::State& state) {
  return {state.range(0), state.range(1), state.range(2), state.range(3)};
}

std::vector<uint8_t> Pattern(int64_t bytes) {
  std::vector<uint8_t> v(static_cast<size_t>(bytes));
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(i * 131 + 7);
  return v;
}

int64_t Count(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return n;
}

void BM_NchwToNc1hwc0Fp32(benchmark::State& state) {
  const std::vector<int64_t> nchw = NchwFromArgs(state);
  const std::vector<uint8_t> src = Pattern(Count(nchw) * 4);
  TransArgs args;
  args.data = src.data();
  args.src_format = FORMAT_NCHW;
  args.dst_format = FORMAT_NC1HWC0;
  args.src_shape = nchw;
  args.src_data_type = DT_FLOAT;
  std::vector<uint8_t> out;
  for (auto _ : state) {
    if (!TransferFormat(args, &out).ok()) {
      state.SkipWithError("TransferFormat failed");
      break;
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(src.size() + out.size()));
}

void BM_Nc1hwc0ToNchwFp32(benchmark::State& state) {
  const std::vector<int64_t> nchw = NchwFromArgs(state);
  const std::vector<int64_t> blocked =
      TransferShape(FORMAT_NCHW, FORMAT_NC1HWC0, DT_FLOAT, nchw).value();
  const std::vector<uint8_t> src = Pattern(Count(blocked) * 4);
  TransArgs args;
  args.data = src.data();
  args.src_format = FORMAT_NC1HWC0;
  args.dst_format = FORMAT_NCHW;
  args.src_shape = blocked;
  args.dst_shape = nchw;
  args.src_data_type = DT_FLOAT;
  std::vector<uint8_t> out;
  for (auto _ : state) {
    if (!TransferFormat(args, &out).ok()) {
      state.SkipWithError("TransferFormat failed");
      break;
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(src.size() + out.size()));
}

// Ceiling: copying the same number of bytes.
void BM_MemcpyBaseline(benchmark::State& state) {
  const std::vector<int64_t> nchw = NchwFromArgs(state);
  const std::vector<uint8_t> src = Pattern(Count(nchw) * 4);
  std::vector<uint8_t> out(src.size());
  for (auto _ : state) {
    std::memcpy(out.data(), src.data(), src.size());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(2 * src.size()));
}

// The acceptance shape first, then a padded one (C = 3, as in an image input).
BENCHMARK(BM_NchwToNc1hwc0Fp32)->Args({1, 64, 56, 56})->Args({1, 3, 224, 224});
BENCHMARK(BM_Nc1hwc0ToNchwFp32)->Args({1, 64, 56, 56})->Args({1, 3, 224, 224});
BENCHMARK(BM_MemcpyBaseline)->Args({1, 64, 56, 56});

}  // namespace
}  // namespace ge
