// Tests of the default CompilerStages pipeline (the built-in passes wired
// into GraphPrepare / Stage 1 / Stage 2): the seed §8 Shape -> Gather ->
// Reshape chain ends static, options (disabled passes, folding cap) take
// effect, and every ONNX backend test case the reference interpreter runs
// computes the same outputs after compilation.
#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>  // NOLINT(build/c++11)
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler/parser/onnx/onnx_test_util.h"
#include "compiler/passes/testing/pass_test_util.h"
#include "compiler/stages/compiler_stages.h"
#include "compiler/tools/onnx_loader.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "runtime/reference/reference_interpreter.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using reftest::F32;
using reftest::I64;
using reftest::Inputs;
using reftest::TestGraph;
using reftest::ToF32;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::vector<float> Iota(int n) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = static_cast<float>(i) * 0.5f - 7.0f;
  return v;
}

size_t CountType(const ComputeGraph& g, const std::string& type) {
  size_t n = 0;
  for (Node* node : g.GetAllNodesPtr()) n += node->GetType() == type ? 1 : 0;
  return n;
}

// Data x[3,4,5,6] -> Shape -> Gather([1,0,2,3]) -> Reshape(x) -> Relu -> out.
ComputeGraphPtr SeedChain() {
  TestGraph g("seed_chain");
  NodePtr x = g.TypedData("x", 0, {3, 4, 5, 6});
  NodePtr shape = g.Op("shape", "Shape", {x});
  NodePtr idx = g.Const("idx", I64({4}, {1, 0, 2, 3}));
  NodePtr gather = g.Op("gather", "Gather", {shape, idx});
  NodePtr reshape = g.Op("reshape", "Reshape", {x, gather});
  g.NetOutput({g.Op("relu", "Relu", {reshape})});
  return g.graph();
}

TEST(CompilerPipelineTest, BuiltinPassesInSeedOrder) {
  CompilerStages stages;
  EXPECT_THAT(stages.optimizer.stage1().pass_names(),
              ElementsAre("RefineRunningPrecisionPass", "ConstantFuseSamePass",
                          "CommonSubexpressionEliminationPass", "FuseDataNodesWithCommonInputPass",
                          "TransOpBreadthFusionPass", "ShapeOptimizationPass", "NodeSimplifyPasses",
                          "DeadCodeEliminationPass", "ControlFlowLoweringPass"));
  EXPECT_THAT(stages.optimizer.stage2().pass_names(),
              ElementsAre("InnerIdentityDeletePass", "ShapeOptimizationPass", "CondRemovePass",
                          "DeadCodeEliminationPass"));
  // The managers hold exactly the stage lists.
  std::vector<std::string> s1;
  for (const StagePassEntry& e : Stage1Passes()) s1.push_back(e.name);
  EXPECT_EQ(stages.optimizer.stage1().pass_names(), s1);
  std::vector<std::string> s2;
  for (const StagePassEntry& e : Stage2Passes()) s2.push_back(e.name);
  EXPECT_EQ(stages.optimizer.stage2().pass_names(), s2);
  EXPECT_TRUE(IsBuiltinStagePass("CastRemovePass"));
  EXPECT_FALSE(IsBuiltinStagePass("PermutePass"));
  GraphOptimize empty(/*builtin_passes=*/false);
  EXPECT_EQ(empty.stage1().size(), 0u);
  EXPECT_EQ(empty.stage2().size(), 0u);
}

TEST(CompilerPipelineTest, SeedShapeGatherReshapeChainEndsStatic) {
  ComputeGraphPtr before = SeedChain();
  auto want = ReferenceInterpreter::Run(*before, Inputs(F32({3, 4, 5, 6}, Iota(360))));
  GE_ASSERT_OK(want.status());

  ComputeGraphPtr g = SeedChain();
  std::vector<std::string> seen;
  CompileOptions opts;
  bool unknown_after_prepare = false;
  opts.observer = [&](absl::string_view s) {
    if (s == "PrepareDynShape") {
      unknown_after_prepare = AttrUtils::HasAttr(g, kAttrGraphUnknownShape);
    }
  };
  CompilerStages stages;
  auto r = stages.Compile(g, opts);
  GE_ASSERT_OK(r.status());
  // After prepare the Reshape was dynamic; folding made it static.
  EXPECT_TRUE(unknown_after_prepare);
  EXPECT_FALSE(AttrUtils::HasAttr(g, kAttrGraphUnknownShape));
  NodePtr reshape = g->FindNode("reshape");
  ASSERT_NE(reshape, nullptr);
  EXPECT_EQ(reshape->GetOpDescBarePtr()->GetOutputDesc(0).GetShape(), GeShape({4, 3, 5, 6}));
  EXPECT_FALSE(AttrUtils::HasAttr(reshape->GetOpDesc(), kAttrIsUnknownShape));
  EXPECT_EQ(g->FindNode("relu")->GetOpDescBarePtr()->GetOutputDesc(0).GetShape(),
            GeShape({4, 3, 5, 6}));
  EXPECT_EQ(CountType(*g, "Shape"), 0u);
  EXPECT_EQ(CountType(*g, "Gather"), 0u);
  auto got = ReferenceInterpreter::Run(*g, Inputs(F32({3, 4, 5, 6}, Iota(360))));
  GE_ASSERT_OK(got.status());
  ASSERT_EQ(got->size(), 1u);
  EXPECT_EQ(reftest::Dims((*got)[0]), std::vector<int64_t>({4, 3, 5, 6}));
  EXPECT_EQ(ToF32((*got)[0]), ToF32((*want)[0]));
}

TEST(CompilerPipelineTest, DisabledConstantFoldingKeepsTheChainDynamic) {
  ComputeGraphPtr g = SeedChain();
  CompileOptions opts;
  opts.disabled_passes = {"ConstantFoldingPass"};
  CompilerStages stages;
  GE_ASSERT_OK(stages.Compile(g, opts).status());
  EXPECT_EQ(CountType(*g, "Shape"), 1u);
  EXPECT_TRUE(AttrUtils::HasAttr(g, kAttrGraphUnknownShape));
  NodePtr reshape = g->FindNode("reshape");
  EXPECT_TRUE(reshape->GetOpDescBarePtr()->GetOutputDesc(0).GetShape().IsUnknownShape());
  // Folding is left out of the shape fixed point; the rest of Stage 1 runs.
  for (const PassRunRecord& rec : stages.optimizer.stage1().last_run()) {
    EXPECT_EQ(rec.ran, rec.name != "ControlFlowLoweringPass") << rec.name;
  }
}

// x + (Const a + Const b): the constant Add folds unless the cap forbids.
ComputeGraphPtr ConstAddGraph() {
  TestGraph g("fold_cap");
  NodePtr x = g.TypedData("x", 0, {4});
  NodePtr a = g.Const("a", F32({4}, {1, 2, 3, 4}));
  NodePtr b = g.Const("b", F32({4}, {10, 20, 30, 40}));
  NodePtr ab = g.Op("ab", "Add", {a, b});
  g.NetOutput({g.Op("sum", "Add", {x, ab})});
  return g.graph();
}

TEST(CompilerPipelineTest, ConstantFoldingCapComesFromTheOptions) {
  {
    ComputeGraphPtr g = ConstAddGraph();
    CompilerStages stages;
    GE_ASSERT_OK(stages.Compile(g, CompileOptions()).status());
    EXPECT_EQ(CountType(*g, "Add"), 1u);
    auto run = ReferenceInterpreter::Run(*g, Inputs(F32({4}, {1, 1, 1, 1})));
    GE_ASSERT_OK(run.status());
    EXPECT_THAT(ToF32((*run)[0]), ElementsAre(12, 23, 34, 45));
  }
  {
    ComputeGraphPtr g = ConstAddGraph();
    CompileOptions opts;
    opts.constant_folding_max_bytes = 8;  // 16-byte result: too large
    CompilerStages stages;
    GE_ASSERT_OK(stages.Compile(g, opts).status());
    EXPECT_EQ(CountType(*g, "Add"), 2u);
  }
}

TEST(CompilerPipelineTest, ControlFlowLoweringIsOptIn) {
  auto build = [] {
    TestGraph g("cf");
    NodePtr x = g.TypedData("x", 0, {2});
    NodePtr p = g.TypedData("p", 1, {}, DT_BOOL);
    NodePtr sw = g.Op("sw", "Switch", {x, p});
    NodePtr m =
        g.Op("merge", "Merge", {g.Op("neg", "Neg", {{sw, 0}}), g.Op("relu", "Relu", {{sw, 1}})}, {},
             {{"x", 2}});
    g.NetOutput({m});
    return g.graph();
  };
  {
    ComputeGraphPtr g = build();
    CompilerStages stages;
    GE_ASSERT_OK(stages.Compile(g, CompileOptions()).status());
    EXPECT_EQ(CountType(*g, "Switch"), 1u);
    EXPECT_EQ(CountType(*g, "StreamSwitch"), 0u);
  }
  {
    ComputeGraphPtr g = build();
    CompileOptions opts;
    opts.lower_control_flow = true;
    CompilerStages stages;
    GE_ASSERT_OK(stages.Compile(g, opts).status());
    EXPECT_EQ(CountType(*g, "Switch"), 0u);
    EXPECT_EQ(CountType(*g, "StreamSwitch"), 2u);
    EXPECT_EQ(CountType(*g, "StreamMerge"), 1u);
  }
}

// ------------------------------------------------------- input / out nodes

TEST(CompilerPipelineTest, ParseInputShapeAndOutNodes) {
  auto shapes = ParseInputShapeOption("x:1,3,224,224;y:;z:-2");
  GE_ASSERT_OK(shapes.status());
  ASSERT_EQ(shapes->size(), 3u);
  EXPECT_EQ((*shapes)[0].name, "x");
  EXPECT_EQ((*shapes)[0].dims, std::vector<int64_t>({1, 3, 224, 224}));
  EXPECT_TRUE((*shapes)[1].dims.empty());
  EXPECT_EQ((*shapes)[2].dims, std::vector<int64_t>({-2}));
  for (const char* bad : {"x", ":1,2", "x:1,a", "x:-3", "x:1,-2"}) {
    auto r = ParseInputShapeOption(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid) << bad;
  }
  EXPECT_THAT(std::string(ParseInputShapeOption("x:1,a").status().message()), HasSubstr("'a'"));

  auto outs = ParseOutNodesOption("a:0;b;c:2");
  GE_ASSERT_OK(outs.status());
  ASSERT_EQ(outs->size(), 3u);
  EXPECT_EQ((*outs)[0].index, 0);
  EXPECT_EQ((*outs)[1].index, -1);
  EXPECT_EQ((*outs)[2].node, "c");
  for (const char* bad : {":0", "a:x", "a:-1", ";"}) {
    auto r = ParseOutNodesOption(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid) << bad;
  }
}

// x[-1,4] -> Relu -> Neg -> out; y[2] -> Abs (unused by the output).
ComputeGraphPtr TwoInputGraph() {
  TestGraph g("io");
  NodePtr x = g.TypedData("x", 0, {-1, 4});
  NodePtr y = g.TypedData("y", 1, {2});
  NodePtr relu = g.Op("relu", "Relu", {x});
  NodePtr neg = g.Op("neg", "Neg", {relu});
  g.Op("abs", "Abs", {y});
  g.NetOutput({neg});
  return g.graph();
}

TEST(CompilerPipelineTest, InputShapeMakesTheGraphStatic) {
  ComputeGraphPtr g = TwoInputGraph();
  CompileOptions opts;
  opts.input_shape = "x:3,4";
  CompilerStages stages;
  GE_ASSERT_OK(stages.Compile(g, opts).status());
  EXPECT_EQ(g->FindNode("x")->GetOpDescBarePtr()->GetOutputDesc(0).GetShape(), GeShape({3, 4}));
  EXPECT_EQ(g->FindNode("neg")->GetOpDescBarePtr()->GetOutputDesc(0).GetShape(), GeShape({3, 4}));
  EXPECT_FALSE(AttrUtils::HasAttr(g, kAttrGraphUnknownShape));

  ComputeGraphPtr g2 = TwoInputGraph();
  CompileOptions unknown_rank;
  unknown_rank.input_shape = "x:-2";
  GE_ASSERT_OK(CompilerStages().Compile(g2, unknown_rank).status());
  EXPECT_TRUE(
      g2->FindNode("neg")->GetOpDescBarePtr()->GetOutputDesc(0).GetShape().IsUnknownDimNum());
}

TEST(CompilerPipelineTest, InputShapeErrorsNameTheInput) {
  CompileOptions opts;
  opts.input_shape = "nope:1,2";
  auto r = CompilerStages().Compile(TwoInputGraph(), opts);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotFound);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("'nope'"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("x, y"));
  opts.input_shape = "x:1,4;x:2,4";
  r = CompilerStages().Compile(TwoInputGraph(), opts);
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
  opts.input_shape = "x:1,b";
  r = CompilerStages().Compile(TwoInputGraph(), opts);
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
}

TEST(CompilerPipelineTest, OutNodesReplaceTheGraphOutputs) {
  ComputeGraphPtr g = TwoInputGraph();
  CompileOptions opts;
  opts.out_nodes = "relu:0;abs";
  CompilerStages stages;
  GE_ASSERT_OK(stages.Compile(g, opts).status());
  // Neg no longer reaches an output: dead code.
  EXPECT_EQ(g->FindNode("neg"), nullptr);
  NodePtr out = g->FindFirstNodeMatchType("NetOutput");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->GetName(), "output");
  ASSERT_EQ(out->GetAllInDataAnchorsSize(), 2u);
  EXPECT_EQ(out->GetInDataNodes()[0]->GetName(), "relu");
  EXPECT_EQ(out->GetInDataNodes()[1]->GetName(), "abs");
  ASSERT_EQ(g->GetGraphOutNodesInfo().size(), 2u);
  EXPECT_EQ(g->GetGraphOutNodesInfo()[1].first->GetName(), "abs");
  auto run = ReferenceInterpreter::Run(*g, Inputs(F32({1, 4}, {-1, 2, -3, 4}), F32({2}, {-5, 6})));
  GE_ASSERT_OK(run.status());
  ASSERT_EQ(run->size(), 2u);
  EXPECT_THAT(ToF32((*run)[0]), ElementsAre(0, 2, 0, 4));
  EXPECT_THAT(ToF32((*run)[1]), ElementsAre(5, 6));
}

TEST(CompilerPipelineTest, OutNodesErrorsNameTheNode) {
  CompileOptions opts;
  opts.out_nodes = "ghost:0";
  auto r = CompilerStages().Compile(TwoInputGraph(), opts);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotFound);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("'ghost'"));
  opts.out_nodes = "relu:3";
  r = CompilerStages().Compile(TwoInputGraph(), opts);
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kOutOfRange);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("'relu'"));
  opts.out_nodes = "relu:z";
  r = CompilerStages().Compile(TwoInputGraph(), opts);
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
}

// ------------------------------------------------- ONNX backend test data

constexpr char kDataRoot[] = "/usr/share/libonnx-testdata/data";
constexpr const char* kSuites[] = {"node", "simple", "pytorch-converted", "pytorch-operator"};

std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") out.push_back(name);
  }
  closedir(d);
  std::sort(out.begin(), out.end());
  return out;
}

StatusOr<std::vector<gert::HostTensor>> LoadInputs(const std::string& dir) {
  ASSIGN_OR_RETURN(std::string bytes, onnx_test::ReadFileBytes(dir + "/model.onnx"));
  onnx::ModelProto model;
  if (!model.ParseFromString(bytes)) return ParseFailed("model.onnx is not a ModelProto");
  std::vector<const onnx::TypeProto*> in_types;
  std::vector<std::string> inits;
  for (const auto& t : model.graph().initializer()) inits.push_back(t.name());
  for (const auto& vi : model.graph().input()) {
    if (std::find(inits.begin(), inits.end(), vi.name()) == inits.end()) {
      in_types.push_back(&vi.type());
    }
  }
  std::vector<gert::HostTensor> inputs;
  for (size_t i = 0;; ++i) {
    const std::string path = absl::StrCat(dir, "/test_data_set_0/input_", i, ".pb");
    if (access(path.c_str(), R_OK) != 0) break;
    ASSIGN_OR_RETURN(std::string b, onnx_test::ReadFileBytes(path));
    const onnx::TypeProto empty;
    ASSIGN_OR_RETURN(gert::HostTensor t, onnx_test::HostValueFromOnnxBytes(
                                             i < in_types.size() ? *in_types[i] : empty, b));
    inputs.push_back(std::move(t));
  }
  return inputs;
}

std::vector<gert::HostTensor> Clone(const std::vector<gert::HostTensor>& v) {
  return passtest::CloneAll(v);
}

// Cases whose compiled graph may differ (none expected; an entry needs a
// reason).
const std::map<std::string, std::string>& KnownDifferences() {
  static const auto* m = new std::map<std::string, std::string>{};
  return *m;
}

TEST(CompilerPipelineTest, OnnxBackendCasesComputeTheSameAfterCompile) {
  int64_t compared = 0;
  std::vector<std::string> failures;
  const auto start = std::chrono::steady_clock::now();
  for (const char* suite : kSuites) {
    for (const std::string& name : ListDir(absl::StrCat(kDataRoot, "/", suite))) {
      const std::string id = absl::StrCat(suite, "/", name);
      const std::string dir = absl::StrCat(kDataRoot, "/", id);
      if (absl::StrContains(name, "random") || absl::StrContains(name, "dropout") ||
          absl::StrContains(name, "bernoulli")) {
        continue;  // not deterministic
      }
      StatusOr<ComputeGraphPtr> before = LoadOnnxModel(dir + "/model.onnx");
      if (!before.ok()) continue;
      StatusOr<std::vector<gert::HostTensor>> inputs = LoadInputs(dir);
      if (!inputs.ok()) continue;
      auto want = ReferenceInterpreter::Run(**before, Clone(*inputs));
      if (!want.ok()) continue;  // the front end / interpreter cannot run it anyway
      StatusOr<ComputeGraphPtr> after = LoadOnnxModel(dir + "/model.onnx");
      if (!after.ok()) continue;
      ++compared;
      const bool known = KnownDifferences().count(id) != 0;
      CompilerStages stages;
      auto compiled = stages.Compile(*after, CompileOptions());
      if (!compiled.ok()) {
        if (!known)
          failures.push_back(absl::StrCat(id, ": compile: ", compiled.status().ToString()));
        continue;
      }
      auto got = ReferenceInterpreter::Run(*compiled->graph, Clone(*inputs));
      if (!got.ok()) {
        if (!known) failures.push_back(absl::StrCat(id, ": run: ", got.status().ToString()));
        continue;
      }
      if (got->size() != want->size()) {
        if (!known) {
          failures.push_back(
              absl::StrCat(id, ": ", got->size(), " outputs, expected ", want->size()));
        }
        continue;
      }
      for (size_t i = 0; i < got->size(); ++i) {
        Status st = onnx_test::CompareHostTensors((*got)[i].tensor(), (*want)[i].tensor(), 1e-4,
                                                  1e-6, absl::StrCat("output ", i));
        if (!st.ok()) {
          if (!known) failures.push_back(absl::StrCat(id, ": ", st.ToString()));
          break;
        }
      }
    }
  }
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("compared %lld ONNX cases in %.1f s, %zu differ\n", static_cast<long long>(compared),
              secs, failures.size());
  EXPECT_GE(compared, 800);  // the test data is there and the front end runs it
  EXPECT_TRUE(failures.empty()) << failures.size() << " cases differ after compile:\n"
                                << absl::StrJoin(failures, "\n");
}

}  // namespace
}  // namespace ge
