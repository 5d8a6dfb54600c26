// Tests of the GraphManager lifecycle, option handling, tuning through the
// manager, the model build, OM saving, ONNX input, and end-to-end runs
// through the runtime and through the reference interpreter.
#include "runtime/manager/graph_manager.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "build/om/om_file.h"
#include "compiler/manager/session_options.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/op_types.h"
#include "graph/serialization/inc/model_serialize.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "runtime/reference/reference_interpreter.h"
#include "runtime/reference/reference_test_util.h"
#include "runtime/testing/runtime_test_util.h"

namespace ge {
namespace {

using gert::HostTensor;
using reftest::F32;
using reftest::Inputs;
using reftest::TestGraph;
using reftest::ToF32;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Msg(const Status& s) { return std::string(s.message()); }

// Runs graphs with the reference interpreter (the test stand-in for the runtime).
class InterpreterExecutor : public Executor {
 public:
  explicit InterpreterExecutor(int* runs = nullptr) : runs_(runs) {}
  Status Run(const ComputeGraph& graph, const std::vector<HostTensor>& inputs,
             std::vector<HostTensor>* outputs) override {
    if (runs_ != nullptr) ++*runs_;
    std::vector<const gert::Tensor*> views;
    for (const HostTensor& t : inputs) views.push_back(&t.tensor());
    ASSIGN_OR_RETURN(*outputs, ReferenceInterpreter::RunWithViews(graph, views));
    return OkStatus();
  }

 private:
  int* runs_;
};

// y = relu(x * w + b) and z = x + b; "dead" = relu(x) feeds nothing. `x`
// has no shape, or with `typed` a [4] float one (what the runtime's static
// model needs).
ComputeGraphPtr MathGraph(const std::string& name = "math", bool typed = false) {
  TestGraph g(name);
  NodePtr x = typed ? g.TypedData("x", 0, {4}) : g.Data("x", 0);
  NodePtr w = g.Const("w", F32({4}, {1, -2, 0.5f, 3}));
  NodePtr b = g.Const("b", F32({4}, {0.25f, 1, -1, 2}));
  NodePtr mul = g.Op("mul", "Mul", {x, w});
  NodePtr add = g.Op("add", "Add", {mul, b});
  NodePtr relu = g.Op("relu", "Relu", {add});
  NodePtr z = g.Op("z", "Add", {x, b});
  g.Op("dead", "Relu", {x});
  g.NetOutput({relu, z});
  return g.graph();
}

ComputeGraphPtr TypedMathGraph() { return MathGraph("math", /*typed=*/true); }

// Stage-1 test pass: removes nodes whose outputs feed nothing.
class DeadNodePass : public GraphPass {
 public:
  absl::string_view name() const override { return "TestDeadNodePass"; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override {
    bool changed = false;
    for (const NodePtr& n : graph->GetDirectNode()) {
      if (n->GetType() == NETOUTPUT || n->GetType() == DATA) continue;
      if (n->GetOutAllNodes().empty()) {
        RETURN_IF_ERROR(graph->RemoveNode(n));
        changed = true;
      }
    }
    return changed;
  }
};

std::string TempDir(const std::string& leaf) {
  const char* base = getenv("TEST_TMPDIR");
  std::string dir = absl::StrCat(base != nullptr ? base : "/tmp", "/", leaf);
  mkdir(dir.c_str(), 0755);
  return dir;
}

std::string Text(const ComputeGraph& g) {
  auto t = ModelSerialize::SerializeModelToText(g);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : "";
}

// -------------------------------------------------------------- lifecycle

TEST(GraphManagerTest, Lifecycle) {
  GraphManager gm;
  ASSERT_TRUE(gm.Initialize({}).ok());
  EXPECT_TRUE(gm.initialized());
  ASSERT_TRUE(gm.AddGraph(7, MathGraph("a")).ok());
  ASSERT_TRUE(gm.AddGraph(3, MathGraph("b")).ok());
  EXPECT_THAT(gm.GraphIds(), ElementsAre(3, 7));
  EXPECT_EQ(*gm.GetGraphState(7), GraphState::kAdded);

  auto not_built = gm.GetCompiledGraph(7);
  EXPECT_EQ(GetErrorCode(not_built.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(not_built.status()), HasSubstr("graph id 7"));

  ASSERT_TRUE(gm.BuildGraph(7).ok());
  EXPECT_EQ(*gm.GetGraphState(7), GraphState::kCompiled);
  auto compiled = gm.GetCompiledGraph(7);
  ASSERT_TRUE(compiled.ok());
  EXPECT_EQ((*compiled)->GetName(), "a");
  EXPECT_EQ((*compiled)->GetGraphID(), 7u);
  EXPECT_TRUE(gm.BuildGraph(7).ok());  // already compiled: no-op

  ASSERT_TRUE(gm.RemoveGraph(7).ok());
  EXPECT_FALSE(gm.HasGraph(7));
  EXPECT_EQ(GetErrorCode(gm.RemoveGraph(7)), ErrorCode::kNotFound);
  EXPECT_EQ(GetErrorCode(gm.BuildGraph(7)), ErrorCode::kNotFound);
  // The id can be reused after removal.
  EXPECT_TRUE(gm.AddGraph(7, MathGraph("c")).ok());
}

TEST(GraphManagerTest, DuplicateIdAndBadArguments) {
  GraphManager gm;
  ASSERT_TRUE(gm.Initialize({}).ok());
  ASSERT_TRUE(gm.AddGraph(1, MathGraph("first")).ok());
  Status dup = gm.AddGraph(1, MathGraph("second"));
  EXPECT_EQ(GetErrorCode(dup), ErrorCode::kAlreadyExists);
  EXPECT_THAT(Msg(dup), HasSubstr("graph id 1"));
  EXPECT_THAT(Msg(dup), HasSubstr("'first'"));
  EXPECT_EQ(GetErrorCode(gm.AddGraph(2, nullptr)), ErrorCode::kParamInvalid);
  EXPECT_FALSE(gm.HasGraph(2));
}

TEST(GraphManagerTest, BuildBeforeAddAndUninitialized) {
  GraphManager fresh;
  EXPECT_THAT(Msg(fresh.AddGraph(1, MathGraph())), HasSubstr("not initialized"));
  EXPECT_EQ(GetErrorCode(fresh.BuildGraph(1)), ErrorCode::kParamInvalid);

  GraphManager gm;
  ASSERT_TRUE(gm.Initialize({}).ok());
  Status st = gm.BuildGraph(42);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotFound);
  EXPECT_THAT(Msg(st), HasSubstr("42"));
  EXPECT_EQ(GetErrorCode(gm.GetCompiledGraph(42).status()), ErrorCode::kNotFound);
  EXPECT_EQ(GetErrorCode(gm.Initialize({})), ErrorCode::kParamInvalid);  // twice
}

TEST(GraphManagerTest, OptionsValidation) {
  GraphManager unknown;
  Status st = unknown.Initialize({{"ge.notAnOption", "1"}});
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(st), HasSubstr("ge.notAnOption"));
  EXPECT_FALSE(unknown.initialized());

  GraphManager range;
  Status r = range.Initialize({{kOptConstantFoldingMaxBytes, "-5"}});
  EXPECT_EQ(GetErrorCode(r), ErrorCode::kOutOfRange);
  EXPECT_THAT(Msg(r), HasSubstr("ge.constantFoldingMaxBytes"));

  GraphManager bad_enum;
  Status e = bad_enum.Initialize({{kOptTopoSortingMode, "DFS"}});
  EXPECT_THAT(Msg(e), HasSubstr("allowed: 0, 1, 2, 3"));

  GraphManager combo;
  EXPECT_FALSE(combo.Initialize({{kOptBuildStep, "after_build"}}).ok());

  GraphManager gm;
  ASSERT_TRUE(gm.Initialize({{kOptGraphRunMode, "1"}}).ok());
  Status g = gm.AddGraph(1, MathGraph(), {{kOptBuildMode, "turbo"}});
  EXPECT_THAT(Msg(g), HasSubstr("ge.buildMode"));
  EXPECT_THAT(Msg(g), HasSubstr("normal, tuning"));
  EXPECT_FALSE(gm.HasGraph(1));
  EXPECT_TRUE(gm.AddGraph(1, MathGraph(), {{kOptTopoSortingMode, "2"}}).ok());
}

TEST(GraphManagerTest, StageObserverSeesStagesInOrder) {
  GraphManager gm;
  ASSERT_TRUE(gm.Initialize({}).ok());
  std::vector<std::string> seen;
  gm.SetStageObserver([&seen](absl::string_view s) {
    if (s == "PrepareDynShape" || s == "OptimizeStage1" || s == "EnginePartition" ||
        s == "MergeSubgraph" || s == "OptimizeStage2" || s == "Build") {
      seen.emplace_back(s);
    }
  });
  ASSERT_TRUE(gm.AddGraph(1, MathGraph()).ok());
  ASSERT_TRUE(gm.BuildGraph(1).ok());
  EXPECT_THAT(seen, ElementsAre("PrepareDynShape", "OptimizeStage1", "EnginePartition",
                                "MergeSubgraph", "OptimizeStage2", "Build"));
}

TEST(GraphManagerTest, BuildErrorNamesTheGraph) {
  GraphManager gm;
  ASSERT_TRUE(gm.Initialize({}).ok());
  TestGraph g("broken");
  g.Data("x", 0);  // no NetOutput
  ASSERT_TRUE(gm.AddGraph(5, g.graph()).ok());
  Status st = gm.BuildGraph(5);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kGraphInvalid);
  EXPECT_THAT(Msg(st), HasSubstr("graph id 5"));
  EXPECT_EQ(*gm.GetGraphState(5), GraphState::kAdded);
}

// ------------------------------------------------------------------- run

TEST(GraphManagerTest, EndToEndMatchesTheOriginalGraph) {
  const std::vector<float> x = {1, 2, -3, 0.5f};
  auto expected = ReferenceInterpreter::Run(*MathGraph(), Inputs(F32({4}, x)));
  ASSERT_TRUE(expected.ok()) << expected.status();

  GraphManager gm;
  ASSERT_TRUE(gm.Initialize({{kOptGraphRunMode, "0"}}).ok());
  gm.stages().optimizer.stage1().AddPass<DeadNodePass>();
  int runs = 0;
  gm.SetExecutor(std::make_unique<InterpreterExecutor>(&runs));
  ComputeGraphPtr graph = MathGraph();
  const size_t before = graph->GetDirectNodesSize();
  ASSERT_TRUE(gm.AddGraph(11, graph).ok());

  std::vector<HostTensor> outs;
  // RunGraph builds the graph first.
  Status first = gm.RunGraph(11, Inputs(F32({4}, x)), &outs);
  ASSERT_TRUE(first.ok()) << first;
  EXPECT_EQ(runs, 1);
  EXPECT_EQ(*gm.GetGraphState(11), GraphState::kCompiled);
  auto compiled = gm.GetCompiledGraph(11);
  ASSERT_TRUE(compiled.ok());
  EXPECT_EQ((*compiled)->FindNode("dead"), nullptr);
  EXPECT_EQ((*compiled)->GetDirectNodesSize(), before - 1);
  for (const NodePtr& n : (*compiled)->GetDirectNode()) {
    EXPECT_EQ(n->GetOpDesc()->GetOpEngineName(), kEngineHostCpu) << n->GetName();
  }

  ASSERT_EQ(outs.size(), expected->size());
  for (size_t i = 0; i < outs.size(); ++i) {
    EXPECT_EQ(ToF32(outs[i]), ToF32((*expected)[i])) << "output " << i;
  }
  EXPECT_EQ(ToF32(outs[0]), (std::vector<float>{1.25f, 0, 0, 3.5f}));

  // Runs again without rebuilding; a bad input count is the executor's error.
  ASSERT_TRUE(gm.RunGraph(11, Inputs(F32({4}, x)), &outs).ok());
  EXPECT_EQ(runs, 2);
  Status bad = gm.RunGraph(11, {}, &outs);
  EXPECT_FALSE(bad.ok());
  EXPECT_THAT(Msg(bad), HasSubstr("graph id 11"));
  EXPECT_EQ(GetErrorCode(gm.RunGraph(11, {}, nullptr)), ErrorCode::kParamInvalid);
  EXPECT_EQ(GetErrorCode(gm.RunGraph(99, {}, &outs)), ErrorCode::kNotFound);
}

TEST(GraphManagerTest, RunWithoutExecutorRunsTheBuiltModel) {
  const std::vector<float> x = {1, 2, -3, 0.5f};
  auto expected = ReferenceInterpreter::Run(*TypedMathGraph(), Inputs(F32({4}, x)));
  ASSERT_TRUE(expected.ok()) << expected.status();
  GraphManager gm;
  ASSERT_TRUE(gm.Initialize({}).ok());
  ASSERT_TRUE(gm.AddGraph(1, TypedMathGraph()).ok());
  std::vector<HostTensor> outs;
  Status run = gm.RunGraph(1, Inputs(F32({4}, x)), &outs);
  ASSERT_TRUE(run.ok()) << run;
  ASSERT_EQ(outs.size(), expected->size());
  for (size_t i = 0; i < outs.size(); ++i) {
    EXPECT_EQ(ToF32(outs[i]), ToF32((*expected)[i])) << "output " << i;
  }
  // The loaded model is reused; a bad input is the runtime's error.
  ASSERT_TRUE(gm.RunGraph(1, Inputs(F32({4}, x)), &outs).ok());
  Status bad = gm.RunGraph(1, {}, &outs);
  EXPECT_FALSE(bad.ok());
  EXPECT_THAT(Msg(bad), HasSubstr("graph id 1"));
}

TEST(GraphManagerTest, CompileOnlyHasNoModel) {
  GraphManager gm;
  ASSERT_TRUE(gm.Initialize({}).ok());
  gm.set_build_model(false);
  ASSERT_TRUE(gm.AddGraph(1, TypedMathGraph()).ok());
  ASSERT_TRUE(gm.BuildGraph(1).ok());
  EXPECT_TRUE(gm.GetCompiledGraph(1).ok());
  EXPECT_EQ(GetErrorCode(gm.GetRootModel(1).status()), ErrorCode::kParamInvalid);
  std::vector<HostTensor> outs;
  EXPECT_EQ(GetErrorCode(gm.RunGraph(1, Inputs(F32({4}, {1, 2, 3, 4})), &outs)),
            ErrorCode::kNotSupported);
}

// ------------------------------------------------------------ model build

TEST(GraphManagerTest, BuildsARootModelAndSavesIt) {
  GraphManager gm;
  ASSERT_TRUE(gm.Initialize({{kOptDisableReuseMemory, "1"}}).ok());
  std::vector<std::string> seen;
  gm.SetStageObserver([&seen](absl::string_view s) { seen.emplace_back(s); });
  ASSERT_TRUE(gm.AddGraph(1, TypedMathGraph()).ok());
  EXPECT_EQ(GetErrorCode(gm.GetRootModel(1).status()), ErrorCode::kParamInvalid);
  ModelBuildOptions build;
  build.num_threads = 1;
  build.attrs["soc_version"] = "HostCpu";
  ASSERT_TRUE(gm.SetModelBuildOptions(1, build).ok());
  ASSERT_TRUE(gm.BuildGraph(1).ok());
  ASSERT_FALSE(seen.empty());
  EXPECT_EQ(seen.back(), "ModelBuild");
  EXPECT_EQ(GetErrorCode(gm.SetModelBuildOptions(1, build)), ErrorCode::kParamInvalid);
  auto root = gm.GetRootModel(1);
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ((*root)->root->attrs.at("soc_version"), "HostCpu");

  auto bytes = gm.SaveModelToBytes(1);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  auto direct = SaveOm(**root);
  ASSERT_TRUE(direct.ok());
  EXPECT_EQ(*bytes, *direct);
  const std::string path = TempDir("gm_save") + "/math.om";
  auto size = gm.SaveModel(1, path);
  ASSERT_TRUE(size.ok()) << size.status();
  EXPECT_EQ(*size, bytes->size());
  auto loaded = Model::LoadFromFile(path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  auto outs = loaded->Run(Inputs(F32({4}, {1, 2, -3, 0.5f})));
  ASSERT_TRUE(outs.ok()) << outs.status();
  EXPECT_EQ(ToF32((*outs)[0]), (std::vector<float>{1.25f, 0, 0, 3.5f}));
  EXPECT_EQ(GetErrorCode(gm.SaveModel(9, path).status()), ErrorCode::kNotFound);
}

TEST(GraphManagerTest, AddsOnnxModels) {
  std::string onnx;
  ASSERT_TRUE(rttest::SmallCnn().SerializeToString(&onnx));
  GraphManager gm;
  ASSERT_TRUE(gm.Initialize({}).ok());
  ASSERT_TRUE(gm.AddOnnxGraph(1, OnnxSource::Bytes(onnx)).ok());
  ASSERT_TRUE(gm.BuildGraph(1).ok());
  auto om = gm.SaveModelToBytes(1);
  ASSERT_TRUE(om.ok()) << om.status();
  // The same bytes as the test helpers' compile (which is this driver too)
  // and as a second manager's.
  GraphManager again;
  ASSERT_TRUE(again.Initialize({}).ok());
  ASSERT_TRUE(again.AddOnnxGraph(1, OnnxSource::Bytes(onnx)).ok());
  ASSERT_TRUE(again.BuildGraph(1).ok());
  EXPECT_EQ(*again.SaveModelToBytes(1), *om);

  Status garbage = gm.AddOnnxGraph(2, OnnxSource::Bytes("not a model"));
  EXPECT_FALSE(garbage.ok());
  EXPECT_FALSE(gm.HasGraph(2));
  EXPECT_EQ(GetErrorCode(gm.AddOnnxGraph(2, OnnxSource())), ErrorCode::kParamInvalid);
  Status missing = gm.AddOnnxGraph(3, OnnxSource::File("/nonexistent/model.onnx"));
  EXPECT_FALSE(missing.ok());
  EXPECT_THAT(Msg(missing), HasSubstr("/nonexistent/model.onnx"));
  EXPECT_EQ(GetErrorCode(gm.AddOnnxGraph(1, OnnxSource::Bytes(onnx))), ErrorCode::kAlreadyExists);
}

// ----------------------------------------------------------------- tuning

TEST(GraphManagerTest, TuningStopThenResumeThroughOptions) {
  const std::string dir = TempDir("gm_tuning");
  GraphManager reference;
  // As the executor sees it: every node on the host CPU engine.
  ASSERT_TRUE(reference.Initialize({{kOptComputeEngine, "off"}}).ok());
  reference.set_build_model(false);  // the compiled graph as the executor sees it
  reference.stages().optimizer.stage1().AddPass<DeadNodePass>();
  // Same id as the resumed graph below (the id is serialized).
  ASSERT_TRUE(reference.AddGraph(2, MathGraph()).ok());
  ASSERT_TRUE(reference.BuildGraph(2).ok());
  const std::string expected = Text(**reference.GetCompiledGraph(2));

  GraphManager gm;
  ASSERT_TRUE(gm.Initialize({{kOptTuningPath, dir}}).ok());
  gm.stages().optimizer.stage1().AddPass<DeadNodePass>();
  gm.SetExecutor(std::make_unique<InterpreterExecutor>());
  ASSERT_TRUE(
      gm.AddGraph(1, MathGraph(), {{kOptBuildMode, "tuning"}, {kOptBuildStep, "before_partition"}})
          .ok());
  ASSERT_TRUE(gm.BuildGraph(1).ok());
  EXPECT_EQ(*gm.GetGraphState(1), GraphState::kStopped);
  const std::string file = *gm.GetTuningFile(1);
  EXPECT_EQ(file, absl::StrCat(dir, "/math.before_partition.pb"));
  EXPECT_THAT(Msg(gm.GetCompiledGraph(1).status()), HasSubstr("tuning break point"));
  std::vector<HostTensor> outs;
  EXPECT_THAT(Msg(gm.RunGraph(1, Inputs(F32({4}, {1, 2, 3, 4})), &outs)),
              HasSubstr("tuning break point"));

  // Resume under a new id; the added graph is a placeholder replaced by the file.
  ASSERT_TRUE(gm.AddGraph(2, MathGraph("placeholder"), {{kOptTuningResumeFile, file}}).ok());
  ASSERT_TRUE(gm.BuildGraph(2).ok());
  auto resumed = gm.GetCompiledGraph(2);
  ASSERT_TRUE(resumed.ok());
  EXPECT_EQ((*resumed)->GetGraphID(), 2u);
  EXPECT_EQ((*resumed)->FindNode("dead"), nullptr);
  EXPECT_EQ(Text(**resumed), expected);
  ASSERT_TRUE(gm.RunGraph(2, Inputs(F32({4}, {1, 2, -3, 0.5f})), &outs).ok());
  EXPECT_EQ(ToF32(outs[0]), (std::vector<float>{1.25f, 0, 0, 3.5f}));
}

// ge.inputShape / ge.outNodes through the manager (applied by GraphPrepare).
TEST(GraphManagerTest, InputShapeAndOutNodesOptionsAreApplied) {
  GraphManager gm;
  ASSERT_TRUE(gm.Initialize({}).ok());
  gm.SetExecutor(std::make_unique<InterpreterExecutor>());
  ASSERT_TRUE(
      gm.AddGraph(1, MathGraph(), {{kOptInputShape, "x:4"}, {kOptOutNodes, "z:0;mul"}}).ok());
  ASSERT_TRUE(gm.BuildGraph(1).ok());
  auto g = gm.GetCompiledGraph(1);
  ASSERT_TRUE(g.ok());
  EXPECT_EQ((*g)->FindNode("x")->GetOpDescBarePtr()->GetOutputDesc(0).GetShape(), GeShape({4}));
  EXPECT_EQ((*g)->FindNode("relu"), nullptr);  // no longer an output: dead
  std::vector<HostTensor> outs;
  ASSERT_TRUE(gm.RunGraph(1, Inputs(F32({4}, {1, 2, -3, 0.5f})), &outs).ok());
  ASSERT_EQ(outs.size(), 2u);
  EXPECT_EQ(ToF32(outs[0]), (std::vector<float>{1.25f, 3, -4, 2.5f}));  // z = x + b
  EXPECT_EQ(ToF32(outs[1]), (std::vector<float>{1, -4, -1.5f, 1.5f}));  // mul = x * w
}

TEST(GraphManagerTest, InputShapeAndOutNodesErrors) {
  GraphManager gm;
  ASSERT_TRUE(gm.Initialize({}).ok());
  // Bad syntax is rejected when the graph is added.
  Status bad = gm.AddGraph(1, MathGraph(), {{kOptInputShape, "x:1,q"}});
  EXPECT_EQ(GetErrorCode(bad), ErrorCode::kParamInvalid);
  EXPECT_THAT(Msg(bad), HasSubstr("q"));
  bad = gm.AddGraph(1, MathGraph(), {{kOptOutNodes, "relu:-1"}});
  EXPECT_EQ(GetErrorCode(bad), ErrorCode::kParamInvalid);
  // Unknown names fail the build, naming the graph id and the name.
  ASSERT_TRUE(gm.AddGraph(2, MathGraph(), {{kOptInputShape, "w_in:4"}}).ok());
  Status st = gm.BuildGraph(2);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotFound);
  EXPECT_THAT(Msg(st), HasSubstr("'w_in'"));
  EXPECT_THAT(Msg(st), HasSubstr("graph id 2"));
  ASSERT_TRUE(gm.AddGraph(3, MathGraph(), {{kOptOutNodes, "nobody:0"}}).ok());
  st = gm.BuildGraph(3);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotFound);
  EXPECT_THAT(Msg(st), HasSubstr("'nobody'"));
  ASSERT_TRUE(gm.AddGraph(4, MathGraph(), {{kOptOutNodes, "relu:1"}}).ok());
  st = gm.BuildGraph(4);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kOutOfRange);
  EXPECT_THAT(Msg(st), HasSubstr("'relu'"));
}

TEST(GraphManagerTest, FoldingCapAndLoweringOptionsReachTheCompileOptions) {
  auto c = ToCompileOptions({{kOptConstantFoldingMaxBytes, "123"},
                             {kOptLowerControlFlow, "true"},
                             {kOptInputShape, "x:1,2"},
                             {kOptOutNodes, "a:0"}});
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->constant_folding_max_bytes, 123);
  EXPECT_TRUE(c->lower_control_flow);
  EXPECT_EQ(c->input_shape, "x:1,2");
  EXPECT_EQ(c->out_nodes, "a:0");
  auto d = ToCompileOptions({});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->constant_folding_max_bytes, 1048576);  // the table default
  EXPECT_FALSE(d->lower_control_flow);
  EXPECT_FALSE(ToCompileOptions({{kOptLowerControlFlow, "yes"}}).ok());
}

}  // namespace
}  // namespace ge
