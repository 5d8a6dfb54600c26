// runtime/api/compute_engine_test.cc
//
// The static executor with a stateful compute-engine kernel: the
// partitioner places the node on AIcoreEngine (its kernel accepts it), the
// load creates one kernel per node and prepares it once with the node's
// static facts (attributes, the weight's value), re-plans the workspace the
// kernel asks beyond the plan, and Run uses the prepared state without
// allocating, from the first run on; results equal the host-CPU kernel's.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "build/model/model_builder.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "metadef/register/inc/register/op_registry.h"
#include "metadef/register/testing/alloc_counter.h"
#include "runtime/api/model_internal.h"
#include "runtime/executor/dynamic_executor.h"
#include "runtime/executor/static_executor.h"
#include "runtime/manager/graph_manager.h"
#include "runtime/reference/reference_test_util.h"
#include "runtime/testing/runtime_test_util.h"

namespace ge {
namespace {

using reftest::F32;
using reftest::TestGraph;
using reftest::ToF32;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

std::atomic<int> g_prepares{0};

// y = alpha * x + w (w: a weight input of x's shape).
Status InferSame(gert::InferShapeContext& ctx) {
  *ctx.GetOutputShape(0) = *ctx.GetInputShape(0);
  return OkStatus();
}

Status AxpyHost(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(float alpha, ctx.GetFloatOr("alpha", 1.0f));
  const gert::Tensor* x = ctx.GetInputTensor(0);
  const gert::Tensor* w = ctx.GetInputTensor(1);
  gert::Tensor* y = ctx.GetOutputTensor(0);
  for (int64_t i = 0; i < y->GetShapeSize(); ++i) {
    y->GetData<float>()[i] = alpha * x->GetData<float>()[i] + w->GetData<float>()[i];
  }
  return OkStatus();
}

// The compute-engine kernel: alpha and a copy of w taken at Prepare; a
// 4 KiB workspace (beyond any plan) used as staging.
class AxpyKernel final : public OpKernel {
 public:
  Status Prepare(gert::TilingContext& ctx) override {
    ++g_prepares;
    ASSIGN_OR_RETURN(alpha_, ctx.GetFloatOr("alpha", 1.0f));
    const gert::Tensor* w = ctx.GetInputTensor(1);
    if (w == nullptr || w->GetAddr() == nullptr) return NotSupported("w must be a weight");
    if (ctx.GetInputTensor(0)->GetAddr() != nullptr) return Internal("x has data at Prepare");
    const float* p = w->GetData<float>();
    w_.assign(p, p + w->GetShapeSize());
    return ctx.SetWorkspaceSize(0, kWorkspace);
  }
  Status Run(gert::KernelContext& ctx) const override {
    if (ctx.GetWorkspaces().empty() || ctx.GetWorkspaces()[0] == nullptr) {
      return Internal("no workspace");
    }
    float* stage = static_cast<float*>(ctx.GetWorkspaces()[0]);
    const gert::Tensor* x = ctx.GetInputTensor(0);
    gert::Tensor* y = ctx.GetOutputTensor(0);
    const int64_t n = y->GetShapeSize();
    if (static_cast<size_t>(n) * sizeof(float) > kWorkspace) return Internal("too large");
    for (int64_t i = 0; i < n; ++i) stage[i] = alpha_ * x->GetData<float>()[i];
    for (int64_t i = 0; i < n; ++i) y->GetData<float>()[i] = stage[i] + w_[i];
    return OkStatus();
  }

 private:
  static constexpr size_t kWorkspace = 4096;
  float alpha_ = 1.0f;
  std::vector<float> w_;
};

Status AxpySupports(const OpDesc& op) {
  if (op.GetInputDescBarePtr(0)->GetShape().GetDimNum() != 1) return NotSupported("1-D only");
  return OkStatus();
}

REG_OP(CeTestAxpy)
    .Input("x", TensorType{DT_FLOAT})
    .Input("w", TensorType{DT_FLOAT})
    .Output("y", TensorType{DT_FLOAT})
    .Attr("alpha", AttrValue::CreateFrom<float>(1.0f))
    .InferShape(InferSame);
REG_KERNEL(CeTestAxpy, kEngineHostCpu).Fn(AxpyHost);
REG_KERNEL(CeTestAxpy, kEngineAiCore)
    .Kernel<AxpyKernel>()
    .DataTypes({DT_FLOAT})
    .ShapeKinds(kKernelStaticShape)
    .Supports(AxpySupports);

// x -> axpy(alpha 2, w1) -> axpy(alpha -1, w2) -> y, and a 2-D axpy the
// compute kernel does not take (host CPU).
ComputeGraphPtr AxpyGraph() {
  TestGraph g("axpy");
  NodePtr x = g.TypedData("x", 0, {4});
  NodePtr x2 = g.TypedData("x2", 1, {2, 2});
  NodePtr w1 = g.Const("w1", F32({4}, {1, 2, 3, 4}));
  NodePtr w2 = g.Const("w2", F32({4}, {0.5f, 0.5f, 0.5f, 0.5f}));
  NodePtr w3 = g.Const("w3", F32({2, 2}, {10, 20, 30, 40}));
  NodePtr a = g.Op("a", "CeTestAxpy", {x, w1}, {{"alpha", AttrValue::CreateFrom<float>(2.0f)}});
  NodePtr b = g.Op("b", "CeTestAxpy", {a, w2}, {{"alpha", AttrValue::CreateFrom<float>(-1.0f)}});
  NodePtr c = g.Op("c", "CeTestAxpy", {x2, w3}, {{"alpha", AttrValue::CreateFrom<float>(3.0f)}});
  g.NetOutput({b, c});
  return g.graph();
}

StatusOr<GeRootModelPtr> Build(const ComputeGraphPtr& graph,
                               std::map<std::string, std::string> options = {}) {
  GraphManager gm;
  RETURN_IF_ERROR(gm.Initialize({}));
  RETURN_IF_ERROR(gm.AddGraph(0, graph, options));
  RETURN_IF_ERROR(gm.BuildGraph(0));
  return gm.GetRootModel(0);
}

std::string EngineOf(const GeRootModelPtr& root, const std::string& node) {
  for (const NodePtr& n : root->root->graph->DirectNodes()) {
    if (n->GetName() == node) return n->GetOpDesc()->GetOpEngineName();
  }
  return "";
}

TEST(ComputeEngineTest, PlacesPreparesAndRunsStatefulKernels) {
  StatusOr<GeRootModelPtr> root = Build(AxpyGraph());
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(EngineOf(*root, "a"), kEngineAiCore);
  EXPECT_EQ(EngineOf(*root, "b"), kEngineAiCore);
  EXPECT_EQ(EngineOf(*root, "c"), kEngineHostCpu);  // 2-D: Supports says no

  g_prepares = 0;
  StatusOr<std::unique_ptr<StaticExecutor>> exec = StaticExecutor::Create((*root)->root);
  ASSERT_TRUE(exec.ok()) << exec.status();
  EXPECT_EQ(g_prepares.load(), 2);  // once per compute node, at load
  EXPECT_EQ((*exec)->prepared_kernel_count(), 2u);
  EXPECT_EQ((*exec)->replanned_workspace_bytes(), 4096u);  // one buffer shared
  EXPECT_THAT((*exec)->engines(), ElementsAre(kEngineAiCore, kEngineHostCpu));

  std::vector<float> x = {1, -1, 0.5f, 0}, x2 = {1, 2, 3, 4}, y(4), z(4);
  std::vector<gert::Tensor> in = {gert::Tensor(gert::Shape{4}, DT_FLOAT, x.data(), 16),
                                  gert::Tensor(gert::Shape{2, 2}, DT_FLOAT, x2.data(), 16)};
  std::vector<gert::Tensor> out = {gert::Tensor(gert::Shape{4}, DT_FLOAT, y.data(), 16),
                                   gert::Tensor(gert::Shape{2, 2}, DT_FLOAT, z.data(), 16)};
  {
    // No warm-up: the first run allocates nothing either.
    ::alloc_counter::AllocCountingScope scope;
    ASSERT_TRUE((*exec)->Run(in, absl::MakeSpan(out)).ok());
    EXPECT_EQ(scope.count(), 0);
  }
  // b = -(2x + w1) + w2
  EXPECT_THAT(y, ElementsAre(-(2 * 1 + 1) + 0.5f, -(2 * -1 + 2) + 0.5f, -(2 * 0.5f + 3) + 0.5f,
                             -(0 + 4) + 0.5f));
  EXPECT_THAT(z, ElementsAre(13, 26, 39, 52));
  EXPECT_EQ(g_prepares.load(), 2);  // Run prepares nothing
}

TEST(ComputeEngineTest, OptionOffKeepsEveryNodeOnTheHost) {
  StatusOr<GeRootModelPtr> root = Build(AxpyGraph(), {{"ge.computeEngine", "off"}});
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(EngineOf(*root, "a"), kEngineHostCpu);
  StatusOr<std::unique_ptr<StaticExecutor>> exec = StaticExecutor::Create((*root)->root);
  ASSERT_TRUE(exec.ok()) << exec.status();
  EXPECT_EQ((*exec)->prepared_kernel_count(), 0u);
  EXPECT_THAT((*exec)->engines(), ElementsAre(kEngineHostCpu));
}

TEST(ComputeEngineTest, ConcurrentRunsOfOneModelAgree) {
  StatusOr<GeRootModelPtr> root = Build(AxpyGraph());
  ASSERT_TRUE(root.ok()) << root.status();
  StatusOr<Model> model = LoadModelFromGeRootModel(*root, ModelLoadOptions());
  ASSERT_TRUE(model.ok()) << model.status();
  std::atomic<int> bad{0};
  auto worker = [&](float base) {
    for (int r = 0; r < 200; ++r) {
      std::vector<gert::HostTensor> in;
      in.push_back(F32({4}, {base, base + 1, base + 2, base + 3}));
      in.push_back(F32({2, 2}, {base, base, base, base}));
      StatusOr<std::vector<gert::HostTensor>> out = model->Run(in);
      if (!out.ok()) {
        ++bad;
        continue;
      }
      std::vector<float> y = ToF32((*out)[0].tensor());
      for (int i = 0; i < 4; ++i) {
        const float want = -(2 * (base + i) + (i + 1)) + 0.5f;
        if (y[i] != want) ++bad;
      }
    }
  };
  std::thread t1(worker, 1.0f), t2(worker, 100.0f);
  t1.join();
  t2.join();
  EXPECT_EQ(bad.load(), 0);
}

TEST(ComputeEngineTest, PrepareFailureFailsTheLoadNamingTheNode) {
  // A compute node whose "weight" is not a weight: Prepare refuses.
  TestGraph g("bad");
  NodePtr x = g.TypedData("x", 0, {4});
  NodePtr w = g.TypedData("w", 1, {4});
  NodePtr a = g.Op("not_weight", "CeTestAxpy", {x, w});
  g.NetOutput({a});
  StatusOr<GeRootModelPtr> root = Build(g.graph());
  ASSERT_TRUE(root.ok()) << root.status();
  StatusOr<std::unique_ptr<StaticExecutor>> exec = StaticExecutor::Create((*root)->root);
  ASSERT_FALSE(exec.ok());
  EXPECT_THAT(std::string(exec.status().message()), ::testing::HasSubstr("not_weight"));
  EXPECT_THAT(std::string(exec.status().message()), ::testing::HasSubstr("w must be a weight"));
}

// x [-1] -> axpy(alpha 2, w1 [4]) -> y: a dynamic model.
ComputeGraphPtr DynamicAxpyGraph() {
  TestGraph g("dyn_axpy");
  NodePtr x = g.TypedData("x", 0, {-1});
  NodePtr w1 = g.Const("w1", F32({4}, {1, 2, 3, 4}));
  NodePtr w2 = g.Const("w2", F32({4}, {0.5f, 0.5f, 0.5f, 0.5f}));
  NodePtr a = g.Op("a", "CeTestAxpy", {x, w1}, {{"alpha", AttrValue::CreateFrom<float>(2.0f)}});
  NodePtr b = g.Op("b", "CeTestAxpy", {a, w2}, {{"alpha", AttrValue::CreateFrom<float>(-1.0f)}});
  g.NetOutput({b});
  return g.graph();
}

TEST(ComputeEngineTest, DynamicModelsPrepareOncePerShapeInAnLruCache) {
  StatusOr<GeRootModelPtr> root = Build(DynamicAxpyGraph());
  ASSERT_TRUE(root.ok()) << root.status();
  ASSERT_TRUE((*root)->root->task_def.dynamic());
  ASSERT_TRUE(RestoreConstValues(*(*root)->root).ok());
  for (size_t capacity : {size_t{256}, size_t{1}}) {
    DynamicExecutorOptions options;
    options.kernel_cache_size = capacity;
    StatusOr<std::unique_ptr<DynamicExecutor>> exec =
        DynamicExecutor::Create((*root)->root, options);
    ASSERT_TRUE(exec.ok()) << exec.status();
    g_prepares = 0;
    gert::HostTensor x = F32({4}, {1, -1, 0.5f, 0});
    for (int run = 0; run < 3; ++run) {
      StatusOr<std::vector<gert::HostTensor>> out = (*exec)->Run({&x.tensor()});
      ASSERT_TRUE(out.ok()) << out.status();
      EXPECT_THAT(ToF32((*out)[0].tensor()), ElementsAre(-(2 * 1 + 1) + 0.5f, -(2 * -1 + 2) + 0.5f,
                                                         -(2 * 0.5f + 3) + 0.5f, -(0 + 4) + 0.5f));
    }
    const ComputeKernelCache* cache = (*exec)->kernel_cache();
    ASSERT_NE(cache, nullptr);
    if (capacity == 256) {
      // Two nodes, one shape: prepared on the first run, served after.
      EXPECT_EQ(g_prepares.load(), 2);
      EXPECT_EQ(cache->prepares(), 2);
      EXPECT_EQ(cache->hits(), 4);
      EXPECT_EQ(cache->size(), 2u);
    } else {
      // One entry for two nodes: each run evicts the other's.
      EXPECT_EQ(g_prepares.load(), 6);
      EXPECT_EQ(cache->size(), 1u);
    }
  }
  // A cache of 0 leaves every node to the host-CPU kernels.
  DynamicExecutorOptions off;
  off.kernel_cache_size = 0;
  StatusOr<std::unique_ptr<DynamicExecutor>> exec = DynamicExecutor::Create((*root)->root, off);
  ASSERT_TRUE(exec.ok()) << exec.status();
  g_prepares = 0;
  gert::HostTensor x = F32({4}, {1, 2, 3, 4});
  ASSERT_TRUE((*exec)->Run({&x.tensor()}).ok());
  EXPECT_EQ(g_prepares.load(), 0);
  EXPECT_EQ((*exec)->kernel_cache(), nullptr);
}

// Real models compiled with and without the compute engine: the engines
// used, the outputs (within fp32 reordering tolerance) at 1 and 2 threads,
// and a run that allocates nothing from the first on.
struct Compiled {
  std::string om;
  Model model;
};

StatusOr<Compiled> CompileOnnx(const onnx::ModelProto& onnx, bool compute) {
  GraphManager gm;
  RETURN_IF_ERROR(gm.Initialize({}));
  RETURN_IF_ERROR(gm.AddOnnxGraph(0, OnnxSource::Bytes(onnx.SerializeAsString()),
                                  {{"ge.computeEngine", compute ? "on" : "off"}}));
  RETURN_IF_ERROR(gm.BuildGraph(0));
  ASSIGN_OR_RETURN(std::string om, gm.SaveModelToBytes(0));
  ASSIGN_OR_RETURN(Model model, Model::LoadFromBytes(om));
  return Compiled{std::move(om), std::move(model)};
}

// `library_steady`: oneDNN allocates the same on the first and second Run
// (not for its gemm-based convolution on runtime weights, which builds its
// jit kernels on the first execute).
void ExpectSameOutputs(const onnx::ModelProto& onnx, const std::string& name,
                       bool library_steady = true) {
  StatusOr<Compiled> host = CompileOnnx(onnx, false);
  ASSERT_TRUE(host.ok()) << name << ": " << host.status();
  EXPECT_THAT(host->model.engines(), ElementsAre(kEngineHostCpu)) << name;
  for (int threads : {1, 2}) {
    GraphManager gm;
    StatusOr<Compiled> ce = CompileOnnx(onnx, true);
    ASSERT_TRUE(ce.ok()) << name << ": " << ce.status();
    std::vector<std::string> engines = ce->model.engines();
    EXPECT_NE(std::find(engines.begin(), engines.end(), kEngineAiCore), engines.end()) << name;
    ModelLoadOptions options;
    options.intra_op_threads = threads;
    StatusOr<Model> model = Model::LoadFromBytes(ce->om, options);
    ASSERT_TRUE(model.ok()) << model.status();
    std::vector<gert::HostTensor> inputs;
    for (const ModelIoDesc& d : model->inputs()) inputs.push_back(rttest::PatternF32(d.dims, 7));
    std::vector<gert::HostTensor> out_storage;
    std::vector<gert::Tensor> in_views, out_views;
    for (const gert::HostTensor& t : inputs) in_views.push_back(t.tensor());
    for (const ModelIoDesc& d : model->outputs())
      out_storage.push_back(rttest::PatternF32(d.dims, 1));
    for (gert::HostTensor& t : out_storage) out_views.push_back(t.tensor());
    int64_t library_first = 0;
    {
      ::alloc_counter::AllocCountingScope scope;  // no warm-up run before
      Status st = model->Run(in_views, absl::MakeSpan(out_views));
      ASSERT_TRUE(st.ok()) << name << ": " << st;
      EXPECT_EQ(scope.count(), 0) << name << " at " << threads << " threads";
      library_first = scope.library_count();
    }
    {
      // oneDNN's own per-execute argument map is the same every run: the
      // run grows nothing.
      ::alloc_counter::AllocCountingScope scope;
      ASSERT_TRUE(model->Run(in_views, absl::MakeSpan(out_views)).ok());
      EXPECT_EQ(scope.count(), 0) << name;
      if (library_steady) {
        EXPECT_EQ(scope.library_count(), library_first) << name;
      }
    }
    StatusOr<std::vector<gert::HostTensor>> want = host->model.Run(inputs);
    ASSERT_TRUE(want.ok()) << want.status();
    for (size_t o = 0; o < want->size(); ++o) {
      std::vector<float> a = ToF32(out_views[o]), b = ToF32((*want)[o].tensor());
      ASSERT_EQ(a.size(), b.size());
      for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_NEAR(a[i], b[i], 1e-4f + 1e-4f * std::fabs(b[i]))
            << name << " output " << o << " element " << i << " at " << threads << " threads";
      }
    }
  }
}

TEST(ComputeEngineTest, RealModelsMatchTheHostEngine) {
  ExpectSameOutputs(rttest::SmallCnn(), "small_cnn_1x16x16");
  ExpectSameOutputs(rttest::SmallCnn(2, 17, 15), "small_cnn");
  ExpectSameOutputs(rttest::Mlp(), "mlp");
  ExpectSameOutputs(rttest::NoAllocNet(), "no_alloc_net");
  // Equal convolutions on different layouts: each is prepared on its own.
  ExpectSameOutputs(rttest::ConvWithRuntimeWeights(), "conv_runtime_w",
                    /*library_steady=*/false);
}

}  // namespace
}  // namespace ge
