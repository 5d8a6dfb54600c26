// runtime/api/load_benchmark.cc
//
// Load time vs compile time, and Run latency vs the reference interpreter.
//   bazel run -c opt //runtime:load_benchmark
//
//   BM_Compile/<model>   parse-free compile: CompilerStages + ModelBuilder +
//                        SaveOm of a fresh graph
//   BM_Load/<model>      Model::LoadFromBytes of that OM (validate, decode,
//                        executor preparation)
//   BM_LoadFile/<model>  Model::LoadFromFile (mmap, weights used in place)
//   BM_CompileVsLoad/<m> compile (stages + build + SaveOmToFile) and
//                        LoadFromFile in one run: per-node times and the
//                        load / compile ratio (chain10k, cnn, chain100k),
//                        also with the wait for the body checksum
//                        (Model::VerifyBody)
//   BM_RunRuntime/cnn    Model::Run with caller buffers (static executor)
//   BM_RunReference/cnn  ReferenceInterpreter::Run on the compiled graph
// Models: chain10k (Data -> {Add(const), Relu} x 3333 -> NetOutput, [64]
// floats) and a conv net (rttest::SmallCnn at 1x3x64x64). Target: load <
// 10% of compile.
#include <chrono>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "build/model/build_test_util.h"
#include "build/om/om_file.h"
#include "graph/inc/graph/compute_graph.h"
#include "metadef/inc/external/base/status.h"
#include "runtime/inc/runtime/model.h"
#include "runtime/reference/reference_interpreter.h"
#include "runtime/testing/runtime_test_util.h"

namespace ge {
namespace {

using rttest::CheckOk;

ComputeGraphPtr MakeGraph(int which) {
  if (which == 0) return buildtest::MakeAddReluChain(10000, {64});
  StatusOr<ComputeGraphPtr> g = rttest::ParseOnnx(rttest::SmallCnn(1, 64, 64));
  CheckOk(g.status(), "parse cnn");
  return *g;
}

const char* Name(int which) { return which == 0 ? "chain10k" : "cnn"; }

std::string CompileToOm(const ComputeGraphPtr& graph) {
  StatusOr<GeRootModelPtr> root = rttest::CompileToRootModel(graph);
  CheckOk(root.status(), "compile");
  StatusOr<std::string> om = SaveOm(**root);
  CheckOk(om.status(), "save");
  return std::move(om).value();
}

const std::string& OmBytes(int which) {
  static std::string* cache[2] = {nullptr, nullptr};
  if (cache[which] == nullptr) cache[which] = new std::string(CompileToOm(MakeGraph(which)));
  return *cache[which];
}

void BM_Compile(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  state.SetLabel(Name(which));
  for (auto _ : state) {
    state.PauseTiming();
    ComputeGraphPtr g = MakeGraph(which);
    state.ResumeTiming();
    benchmark::DoNotOptimize(CompileToOm(g));
  }
}
BENCHMARK(BM_Compile)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Load(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  state.SetLabel(Name(which));
  const std::string& om = OmBytes(which);
  for (auto _ : state) {
    StatusOr<Model> m = Model::LoadFromBytes(om);
    CheckOk(m.status(), "load");
    benchmark::DoNotOptimize(m);
  }
  state.counters["om_bytes"] = static_cast<double>(om.size());
}
BENCHMARK(BM_Load)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_LoadFile(benchmark::State& state) {
  const int which = static_cast<int>(state.range(0));
  state.SetLabel(Name(which));
  const std::string path = rttest::TempPath(std::string("load_benchmark_") + Name(which) + ".om");
  CheckOk(WriteFileAtomically(path, OmBytes(which)), "write");
  for (auto _ : state) {
    StatusOr<Model> m = Model::LoadFromFile(path);
    CheckOk(m.status(), "load file");
    benchmark::DoNotOptimize(m);
  }
}
BENCHMARK(BM_LoadFile)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

// Compile (CompilerStages + ModelBuilder + SaveOmToFile) vs Model::LoadFromFile
// of the result, in one run: per-node times and load / compile (target < 0.1).
// Arg: 0 chain10k, 1 cnn, 2 chain100k.
void BM_CompileVsLoad(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  const int which = static_cast<int>(state.range(0));
  state.SetLabel(which == 2 ? "chain100k" : Name(which));
  const std::string path =
      rttest::TempPath(std::string("compile_vs_load_") + std::to_string(which) + ".om");
  double compile_s = 0, load_s = 0, check_s = 0, nodes = 0;
  for (auto _ : state) {
    state.PauseTiming();
    ComputeGraphPtr g = which == 2 ? buildtest::MakeAddReluChain(100000, {64}) : MakeGraph(which);
    state.ResumeTiming();
    {
      const Clock::time_point t0 = Clock::now();
      StatusOr<GeRootModelPtr> root = rttest::CompileToRootModel(g);
      CheckOk(root.status(), "compile");
      nodes += static_cast<double>((*root)->root->graph->GetDirectNodesSize());
      CheckOk(SaveOmToFile(**root, path).status(), "save");
      const Clock::time_point t1 = Clock::now();
      StatusOr<Model> m = Model::LoadFromFile(path);
      CheckOk(m.status(), "load file");
      const Clock::time_point t2 = Clock::now();
      CheckOk(m->VerifyBody(), "body checksum");  // what the first Run waits for
      const Clock::time_point t3 = Clock::now();
      compile_s += std::chrono::duration<double>(t1 - t0).count();
      load_s += std::chrono::duration<double>(t2 - t1).count();
      check_s += std::chrono::duration<double>(t3 - t2).count();
      state.PauseTiming();
    }  // teardown is not measured
    g.reset();
    state.ResumeTiming();
  }
  if (nodes > 0) {
    state.counters["compile_ns_per_node"] = compile_s * 1e9 / nodes;
    state.counters["load_ns_per_node"] = load_s * 1e9 / nodes;
    state.counters["load_over_compile"] = compile_s > 0 ? load_s / compile_s : 0;
    // The load plus the wait for a large file's body checksum.
    state.counters["checked_load_over_compile"] =
        compile_s > 0 ? (load_s + check_s) / compile_s : 0;
  }
}
BENCHMARK(BM_CompileVsLoad)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond);

void BM_RunRuntime(benchmark::State& state) {
  StatusOr<Model> m = Model::LoadFromBytes(OmBytes(1));
  CheckOk(m.status(), "load");
  gert::HostTensor x = rttest::PatternF32(m->inputs()[0].dims);
  gert::HostTensor y = rttest::PatternF32(m->outputs()[0].dims);
  gert::Tensor in = x.tensor();
  gert::Tensor out = y.tensor();
  for (auto _ : state) {
    CheckOk(m->Run(absl::MakeConstSpan(&in, 1), absl::MakeSpan(&out, 1)), "run");
  }
}
BENCHMARK(BM_RunRuntime)->Unit(benchmark::kMicrosecond);

void BM_RunReference(benchmark::State& state) {
  StatusOr<ComputeGraphPtr> compiled = rttest::CompileGraph(MakeGraph(1));
  CheckOk(compiled.status(), "compile");
  for (auto _ : state) {
    std::vector<gert::HostTensor> in;
    in.push_back(rttest::PatternF32({1, 3, 64, 64}));
    StatusOr<std::vector<gert::HostTensor>> out =
        ReferenceInterpreter::Run(**compiled, std::move(in));
    CheckOk(out.status(), "reference run");
    benchmark::DoNotOptimize(out);
  }
}
BENCHMARK(BM_RunReference)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace ge
