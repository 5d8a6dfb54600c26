// ops/compute/matmul/matmul_benchmark.cc
//
// MatMul on the compute engine at BERT-base shapes, against the host-CPU
// kernel in the same run: the dense layers [128, K] x constant [K, N]
// (QKV / output projection 768 x 768, FFN 768 x 3072 and 3072 x 768) and
// the attention products [12, 128, 64] x [12, 64, 128] and
// [12, 128, 128] x [12, 128, 64] (both operands runtime inputs). Arguments:
// M, K, N, batch, bf16 (0 / 1), threads. Reports GFLOP/s (2 * batch * M *
// N * K per run). DNNL_VERBOSE=1 prints the implementation oneDNN chose.
//
//   bazel run -c opt //ops/compute/matmul:matmul_benchmark
#include <cstdint>
#include <memory>
#include <vector>

#include "benchmark/benchmark.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/compute/common/compute_kernel_tester.h"
#include "ops/compute/common/dnnl_common.h"

namespace ops {
namespace compute {
namespace {

using testing::RandomTensor;

// One MatMul node: inputs, output, and the workspace its kernel asked for.
struct Node {
  ge::OpDescPtr op;
  gert::HostTensor a, b, y;
  std::unique_ptr<ge::OpKernel> kernel;
  std::unique_ptr<AlignedBuffer> workspace;
  gert::KernelRunContextBuilder run;
  gert::KernelContext* ctx = nullptr;
};

bool MakeNode(benchmark::State& state, const char* engine, Node* n) {
  const int64_t m = state.range(0), k = state.range(1), nn = state.range(2);
  const int64_t batch = state.range(3);
  const ge::DataType dt = state.range(4) ? ge::DT_BF16 : ge::DT_FLOAT;
  SetIntraOpThreads(static_cast<int>(state.range(5)));
  std::vector<int64_t> ad = {m, k}, bd = {k, nn}, yd = {m, nn};
  if (batch > 1) {
    ad.insert(ad.begin(), batch);
    bd.insert(bd.begin(), batch);
    yd.insert(yd.begin(), batch);
  }
  const bool b_const = batch == 1;  // dense layers: B is the weight
  n->a = RandomTensor(dt, ad, 1);
  n->b = RandomTensor(dt, bd, 2);
  n->y = *gert::HostTensor::Create(dt, *gert::Shape::FromDims(yd));
  const ge::KernelDef* def = ge::FindKernel("MatMul", engine);
  ge::StatusOr<ge::OpDescPtr> op = ge::OperatorFactory::CreateOpDesc("mm", "MatMul");
  if (def == nullptr || !op.ok()) {
    state.SkipWithError("no MatMul kernel or op");
    return false;
  }
  n->op = *op;
  if (def->stateless()) {
    n->run.Node("mm", "MatMul").Attrs(n->op.get()).Inputs({&n->a.tensor(), &n->b.tensor()});
    n->run.Outputs({n->y.MutableTensor()});
    n->ctx = n->run.Build();
    n->kernel = nullptr;
    return true;
  }
  n->kernel = def->NewKernel();
  gert::Tensor a_fact = n->a.tensor(), b_fact = n->b.tensor(), y_fact = n->y.tensor();
  a_fact.SetData(nullptr, 0);
  if (!b_const) b_fact.SetData(nullptr, 0);
  y_fact.SetData(nullptr, 0);
  gert::TilingContextBuilder tb;
  gert::TilingContext* tctx = tb.Node("mm", "MatMul")
                                  .Attrs(n->op.get())
                                  .Inputs({&a_fact, &b_fact})
                                  .Outputs({&y_fact})
                                  .Build();
  ge::Status st = n->kernel->Prepare(*tctx);
  if (!st.ok()) {
    state.SkipWithError(st.ToString().c_str());
    return false;
  }
  std::vector<void*> ws;
  for (size_t bytes : tctx->GetWorkspaceSizes()) {
    n->workspace = std::make_unique<AlignedBuffer>(*AlignedBuffer::Allocate(bytes));
    ws.push_back(n->workspace->data());
  }
  n->run.Node("mm", "MatMul").Attrs(n->op.get()).Inputs({&n->a.tensor(), &n->b.tensor()});
  n->run.Outputs({n->y.MutableTensor()}).Workspaces(ws);
  n->ctx = n->run.Build();
  return true;
}

void Run(benchmark::State& state, const char* engine) {
  Node n;
  if (!MakeNode(state, engine, &n)) return;
  const ge::OpKernel* k =
      n.kernel != nullptr ? n.kernel.get() : ge::FindKernel("MatMul", engine)->shared_kernel();
  for (auto _ : state) {
    ge::Status st = k->Run(*n.ctx);
    if (!st.ok()) {
      state.SkipWithError(st.ToString().c_str());
      break;
    }
  }
  const double flops = 2.0 * state.range(3) * state.range(0) * state.range(1) * state.range(2);
  state.counters["GFLOP/s"] =
      benchmark::Counter(flops * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  SetIntraOpThreads(1);
}

void BM_ComputeMatMul(benchmark::State& state) { Run(state, ge::kEngineAiCore); }
void BM_HostMatMul(benchmark::State& state) { Run(state, ge::kEngineHostCpu); }

void BertShapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"M", "K", "N", "batch", "bf16", "threads"});
  for (int threads : {1, 2}) {
    for (int bf16 : {0, 1}) {
      b->Args({128, 768, 768, 1, bf16, threads});
      b->Args({128, 768, 3072, 1, bf16, threads});
      b->Args({128, 3072, 768, 1, bf16, threads});
      b->Args({128, 64, 128, 12, bf16, threads});
      b->Args({128, 128, 64, 12, bf16, threads});
    }
  }
  b->UseRealTime();
}

BENCHMARK(BM_ComputeMatMul)->Apply(BertShapes);
BENCHMARK(BM_HostMatMul)->Apply(BertShapes);

}  // namespace
}  // namespace compute
}  // namespace ops
