// Tests of the CompilerStages: normalisation, dyn-shape marks, stage order,
// custom pass stages, per-stage dumps, tuning stop / resume.
#include "compiler/stages/compiler_stages.h"

#include <dirent.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/op_types.h"
#include "graph/serialization/inc/model_serialize.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/register/register_custom_pass.h"
#include "runtime/reference/reference_test_util.h"

namespace ge {
namespace {

using reftest::TestGraph;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// Data(x) -> Relu-like RawOp "a" -> "b" -> NetOutput; Data(y) unused.
ComputeGraphPtr SmallGraph(const std::string& name = "g", bool with_index = true) {
  TestGraph g(name);
  NodePtr x = g.Data("x", with_index ? 0 : -1);
  g.Data("y", with_index ? 1 : -1);
  NodePtr a = g.RawOp("a", "Foo", {x}, 1, 1);
  NodePtr b = g.RawOp("b", "Bar", {a}, 1, 1);
  g.NetOutput({b});
  return g.graph();
}

// Marks every node with an attribute naming the pass (changes the graph).
class MarkPass : public GraphPass {
 public:
  explicit MarkPass(std::string name) : name_(std::move(name)) {}
  absl::string_view name() const override { return name_; }
  int runs = 0;

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override {
    ++runs;
    for (const NodePtr& n : graph->GetDirectNode()) {
      RETURN_IF_ERROR(AttrUtils::SetInt(n->GetOpDesc(), name_, runs));
    }
    return true;
  }

 private:
  std::string name_;
};

std::string Text(const ComputeGraph& g) {
  auto t = ModelSerialize::SerializeModelToText(g);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *t : "";
}

std::string TempDir(const std::string& leaf) {
  const char* base = getenv("TEST_TMPDIR");
  std::string dir = absl::StrCat(base != nullptr ? base : "/tmp", "/", leaf);
  mkdir(dir.c_str(), 0755);
  return dir;
}

std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> out;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return out;
  while (dirent* e = readdir(d)) {
    std::string n = e->d_name;
    if (n != "." && n != "..") out.push_back(n);
  }
  closedir(d);
  return out;
}

// Stages with a stage-1 and a stage-2 pass, as a fresh process would build them.
std::unique_ptr<CompilerStages> MakeStages() {
  auto s = std::make_unique<CompilerStages>();
  s->optimizer.stage1().AddPass<MarkPass>("Stage1Mark");
  s->optimizer.subgraph_passes().AddPass<MarkPass>("SubgraphMark");
  s->optimizer.stage2().AddPass<MarkPass>("Stage2Mark");
  return s;
}

// ------------------------------------------------------------ build steps

TEST(BuildStepTest, NamesAndAliases) {
  for (int32_t i = 0; i < kNumBuildSteps; ++i) {
    BuildStep s = static_cast<BuildStep>(i);
    auto parsed = ParseBuildStep(BuildStepName(s));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, s);
  }
  EXPECT_EQ(*ParseBuildStep("before_ub_match"), BuildStep::kAfterPartition);
  EXPECT_EQ(*ParseBuildStep("after_ub_match"), BuildStep::kAfterOptimizeSubgraph);
  auto bad = ParseBuildStep("after_lunch");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(GetErrorCode(bad.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("after_lunch"));
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("before_partition"));
}

// ---------------------------------------------------------------- prepare

TEST(GraphPrepareTest, NoNetOutputIsAnError) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  g.RawOp("a", "Foo", {x}, 1, 1);
  Status st = GraphPrepare::NormalizeGraph(g.graph(), TopoSortingMode::kDFS);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kGraphInvalid);
  EXPECT_THAT(std::string(st.message()), HasSubstr("no NetOutput"));
}

TEST(GraphPrepareTest, TwoNetOutputsIsAnError) {
  TestGraph g("g");
  NodePtr x = g.Data("x", 0);
  g.NetOutput({x}, "out1");
  g.NetOutput({x}, "out2");
  Status st = GraphPrepare::NormalizeGraph(g.graph(), TopoSortingMode::kDFS);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kGraphInvalid);
  EXPECT_THAT(std::string(st.message()), HasSubstr("out2"));
}

TEST(GraphPrepareTest, MissingIndicesAreAssignedAndUnusedDataKept) {
  ComputeGraphPtr g = SmallGraph("g", /*with_index=*/false);
  ASSERT_TRUE(GraphPrepare::NormalizeGraph(g, TopoSortingMode::kDFS).ok());
  NodePtr x = g->FindNode("x");
  NodePtr y = g->FindNode("y");
  ASSERT_NE(y, nullptr);  // unused Data kept
  auto ix = AttrUtils::GetInt(x->GetOpDesc(), kAttrDataIndex);
  auto iy = AttrUtils::GetInt(y->GetOpDesc(), kAttrDataIndex);
  ASSERT_TRUE(ix.ok() && iy.ok());
  EXPECT_NE(*ix, *iy);
  EXPECT_TRUE((*ix == 0 && *iy == 1) || (*ix == 1 && *iy == 0));
}

TEST(GraphPrepareTest, BadIndices) {
  {
    TestGraph g("dup");
    NodePtr x = g.Data("x", 0);
    NodePtr y = g.Data("y", 0);
    g.NetOutput({x, y});
    Status st = GraphPrepare::NormalizeGraph(g.graph(), TopoSortingMode::kDFS);
    EXPECT_EQ(GetErrorCode(st), ErrorCode::kGraphInvalid);
    EXPECT_THAT(std::string(st.message()), HasSubstr("same index 0"));
  }
  {
    TestGraph g("range");
    NodePtr x = g.Data("x", 0);
    NodePtr y = g.Data("y", 5);
    g.NetOutput({x, y});
    Status st = GraphPrepare::NormalizeGraph(g.graph(), TopoSortingMode::kDFS);
    EXPECT_EQ(GetErrorCode(st), ErrorCode::kGraphInvalid);
    EXPECT_THAT(std::string(st.message()), HasSubstr("'y' has index 5"));
  }
  {
    TestGraph g("mixed");
    NodePtr x = g.Data("x", 0);
    NodePtr y = g.Data("y", -1);
    g.NetOutput({x, y});
    Status st = GraphPrepare::NormalizeGraph(g.graph(), TopoSortingMode::kDFS);
    EXPECT_EQ(GetErrorCode(st), ErrorCode::kGraphInvalid);
    EXPECT_THAT(std::string(st.message()), HasSubstr("'y'"));
  }
}

TEST(GraphPrepareTest, DynShapeMarksUnknownNodes) {
  ComputeGraphPtr g = SmallGraph();
  NodePtr a = g->FindNode("a");
  GeTensorDesc dyn(GeShape({-1, 3}), FORMAT_ND, DT_FLOAT);
  ASSERT_TRUE(a->GetOpDesc()->UpdateOutputDesc(0, dyn).ok());
  ASSERT_TRUE(GraphPrepare::PrepareDynShape(g).ok());
  EXPECT_TRUE(*AttrUtils::GetBool(a->GetOpDesc(), kAttrIsUnknownShape));
  EXPECT_FALSE(AttrUtils::HasAttr(g->FindNode("b")->GetOpDesc(), kAttrIsUnknownShape));
  EXPECT_TRUE(*AttrUtils::GetBool(g, kAttrGraphUnknownShape));

  ComputeGraphPtr s = SmallGraph("static");
  ASSERT_TRUE(GraphPrepare::PrepareDynShape(s).ok());
  EXPECT_FALSE(AttrUtils::HasAttr(s, kAttrGraphUnknownShape));
}

TEST(GraphPrepareTest, InferShapeHookErrorIsAnnotated) {
  CompilerStages stages;
  stages.preparer.infer_shape = [](const ComputeGraphPtr&) { return TypeMismatch("boom"); };
  auto r = stages.Compile(SmallGraph(), CompileOptions());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kTypeMismatch);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("InferShape"));
}

// ------------------------------------------------------------ stage order

TEST(CompilerStagesTest, StageOrder) {
  std::vector<std::string> seen;
  auto stages = MakeStages();
  stages->preparer.infer_shape = [&seen](const ComputeGraphPtr&) {
    seen.push_back("infer_shape_hook");
    return OkStatus();
  };
  CompileOptions opts;
  opts.observer = [&seen](absl::string_view s) { seen.emplace_back(s); };
  ComputeGraphPtr g = SmallGraph();
  auto r = stages->Compile(g, opts);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->stopped);
  EXPECT_EQ(r->graph, g);
  EXPECT_EQ(r->last_step, BuildStep::kAfterBuild);
  EXPECT_THAT(
      seen, ElementsAre("CustomPass_BeforeInferShape", "PrepareNormalizeGraph", "infer_shape_hook",
                        "PrepareInferShape", "CustomPass_AfterInferShape", "PrepareDynShape",
                        "OptimizeStage1", "CustomPass_AfterOriginGraphOptimize", "EnginePartition",
                        "OptimizeSubgraph", "CustomPass_AfterBuiltinFusion", "MergeSubgraph",
                        "OptimizeStage2", "Build"));
  // Each pass manager ran once; the partition placed every node.
  for (const NodePtr& n : g->GetDirectNode()) {
    EXPECT_EQ(*AttrUtils::GetInt(n->GetOpDesc(), "Stage1Mark"), 1) << n->GetName();
    EXPECT_EQ(*AttrUtils::GetInt(n->GetOpDesc(), "Stage2Mark"), 1) << n->GetName();
    EXPECT_EQ(n->GetOpDesc()->GetOpEngineName(), kDefaultEngineName) << n->GetName();
  }
}

TEST(CompilerStagesTest, DisabledPassesDoNotRun) {
  auto stages = MakeStages();
  CompileOptions opts;
  opts.disabled_passes = {"Stage1Mark"};
  ComputeGraphPtr g = SmallGraph();
  ASSERT_TRUE(stages->Compile(g, opts).ok());
  NodePtr a = g->FindNode("a");
  EXPECT_FALSE(AttrUtils::HasAttr(a->GetOpDesc(), "Stage1Mark"));
  EXPECT_TRUE(AttrUtils::HasAttr(a->GetOpDesc(), "Stage2Mark"));
}

TEST(CompilerStagesTest, NullGraphAndBadGraph) {
  CompilerStages stages;
  auto r = stages.Compile(nullptr, CompileOptions());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
  TestGraph g("no_out");
  g.Data("x", 0);
  auto r2 = stages.Compile(g.graph(), CompileOptions());
  EXPECT_EQ(GetErrorCode(r2.status()), ErrorCode::kGraphInvalid);
}

TEST(EnginePartitionerTest, DefaultMergeRejectsForeignPartitions) {
  EnginePartitioner p;
  ComputeGraphPtr g = SmallGraph();
  auto parts = p.Partition(g);
  ASSERT_TRUE(parts.ok());
  ASSERT_EQ(parts->subgraphs.size(), 1u);
  EXPECT_EQ(parts->subgraphs[0], g);
  EXPECT_THAT(parts->engines, ElementsAre(kDefaultEngineName));
  EXPECT_TRUE(p.Merge(g, *parts).ok());
  PartitionResult other;
  other.subgraphs = {SmallGraph("h")};
  EXPECT_EQ(GetErrorCode(p.Merge(g, other)), ErrorCode::kNotSupported);
  EXPECT_EQ(GetErrorCode(p.Partition(nullptr).status()), ErrorCode::kParamInvalid);
}

// ----------------------------------------------------------- custom passes

TEST(CompilerStagesTest, CustomPassesRunAtTheirStage) {
  std::vector<std::string> seen;
  const CustomPassStage kStages[] = {
      CustomPassStage::kBeforeInferShape, CustomPassStage::kAfterInferShape,
      CustomPassStage::kAfterOriginGraphOptimize, CustomPassStage::kAfterBuiltinFusion};
  std::vector<std::string> names;
  for (CustomPassStage s : kStages) {
    std::string name = absl::StrCat("test_custom_", CustomPassStageName(s));
    names.push_back(name);
    ASSERT_TRUE(CustomPassRegistry::Instance()
                    .Register(PassRegistrationData(name).Stage(s).CustomPassFn(
                        CustomPassFunc([&seen, name](const ComputeGraphPtr& g) -> Status {
                          // A before-infer-shape pass sees the graph before
                          // normalisation: x has its index but no engine yet.
                          seen.push_back(name);
                          if (g->FindNode("a") == nullptr) return NotFound("a");
                          return OkStatus();
                        })))
                    .ok());
  }
  CompileOptions opts;
  opts.observer = [&seen](absl::string_view s) {
    if (s == "PrepareNormalizeGraph" || s == "PrepareDynShape" || s == "OptimizeStage1" ||
        s == "OptimizeSubgraph" || s == "MergeSubgraph") {
      seen.emplace_back(s);
    }
  };
  CompilerStages stages;
  auto r = stages.Compile(SmallGraph(), opts);
  for (const std::string& n : names) CustomPassRegistry::Instance().UnregisterForTest(n);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(
      seen, ElementsAre(names[0], "PrepareNormalizeGraph", names[1], "PrepareDynShape",
                        "OptimizeStage1", names[2], "OptimizeSubgraph", names[3], "MergeSubgraph"));
}

TEST(CompilerStagesTest, CustomPassErrorStopsTheBuild) {
  ASSERT_TRUE(CustomPassRegistry::Instance()
                  .Register(PassRegistrationData("test_failing_pass")
                                .Stage(CustomPassStage::kAfterInferShape)
                                .CustomPassFn(CustomPassFunc(
                                    [](const ComputeGraphPtr&) { return Internal("custom"); })))
                  .ok());
  CompilerStages stages;
  auto r = stages.Compile(SmallGraph(), CompileOptions());
  CustomPassRegistry::Instance().UnregisterForTest("test_failing_pass");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kInternal);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("test_failing_pass"));
}

// ------------------------------------------------------------------ dumps

TEST(CompilerStagesTest, DumpsWrittenPerStage) {
  const std::string dir = TempDir("stage_dumps");
  setenv("DUMP_GE_GRAPH", "3", 1);
  setenv("DUMP_GRAPH_PATH", dir.c_str(), 1);
  auto stages = MakeStages();
  auto r = stages->Compile(SmallGraph(), CompileOptions());
  unsetenv("DUMP_GE_GRAPH");
  unsetenv("DUMP_GRAPH_PATH");
  ASSERT_TRUE(r.ok()) << r.status();
  std::vector<std::string> files = ListDir(dir);
  for (const char* stage :
       {"CustomPass_BeforeInferShape", "PrepareNormalizeGraph", "PrepareInferShape",
        "CustomPass_AfterInferShape", "PrepareDynShape", "OptimizeStage1_Stage1Mark",
        "OptimizeStage1", "EnginePartition", "OptimizeSubgraph_SubgraphMark", "MergeSubgraph",
        "OptimizeStage2_Stage2Mark", "OptimizeStage2", "Build"}) {
    bool found = false;
    for (const std::string& f : files) {
      if (absl::EndsWith(f, absl::StrCat("_", stage, ".txt"))) found = true;
    }
    EXPECT_TRUE(found) << "no dump for stage " << stage;
  }
}

TEST(CompilerStagesTest, NoDumpsWhenSwitchOff) {
  const std::string dir = TempDir("no_dumps");
  unsetenv("DUMP_GE_GRAPH");
  setenv("DUMP_GRAPH_PATH", dir.c_str(), 1);
  CompilerStages stages;
  ASSERT_TRUE(stages.Compile(SmallGraph(), CompileOptions()).ok());
  unsetenv("DUMP_GRAPH_PATH");
  EXPECT_TRUE(ListDir(dir).empty());
}

TEST(CompilerStagesTest, BadDumpSwitchIsReported) {
  setenv("DUMP_GE_GRAPH", "banana", 1);
  CompilerStages stages;
  auto r = stages.Compile(SmallGraph(), CompileOptions());
  unsetenv("DUMP_GE_GRAPH");
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("DUMP_GE_GRAPH"));
}

// ----------------------------------------------------------------- tuning

TEST(CompilerStagesTest, TuningStopAndResumeEqualsUninterrupted) {
  auto full_stages = MakeStages();
  ComputeGraphPtr full = SmallGraph();
  ASSERT_TRUE(full_stages->Compile(full, CompileOptions()).ok());
  const std::string expected = Text(*full);
  const std::string dir = TempDir("tuning");

  for (int32_t i = 0; i < kNumBuildSteps; ++i) {
    const BuildStep step = static_cast<BuildStep>(i);
    SCOPED_TRACE(BuildStepName(step));
    CompileOptions stop;
    stop.build_mode = BuildMode::kTuning;
    stop.has_stop_step = true;
    stop.stop_after = step;
    stop.tuning_path = dir;
    std::vector<std::string> first_run;
    stop.observer = [&first_run](absl::string_view s) { first_run.emplace_back(s); };
    auto s1 = MakeStages();
    auto r1 = s1->Compile(SmallGraph(), stop);
    ASSERT_TRUE(r1.ok()) << r1.status();
    EXPECT_TRUE(r1->stopped);
    EXPECT_EQ(r1->last_step, step);
    EXPECT_EQ(r1->tuning_file, absl::StrCat(dir, "/g.", BuildStepName(step), ".pb"));
    EXPECT_FALSE(AttrUtils::HasAttr(r1->graph, kAttrTuningStep));
    if (step != BuildStep::kAfterBuild) {
      EXPECT_EQ(std::count(first_run.begin(), first_run.end(), "Build"), 0);
    }

    CompileOptions resume;
    resume.resume_from = r1->tuning_file;
    std::vector<std::string> second_run;
    resume.observer = [&second_run](absl::string_view s) { second_run.emplace_back(s); };
    auto s2 = MakeStages();
    auto r2 = s2->Compile(nullptr, resume);
    ASSERT_TRUE(r2.ok()) << r2.status();
    EXPECT_FALSE(r2->stopped);
    EXPECT_EQ(Text(*r2->graph), expected);
    // No stage ran twice across the two halves.
    for (const std::string& s : second_run) {
      EXPECT_EQ(std::count(first_run.begin(), first_run.end(), s), 0) << s;
    }
  }
}

TEST(CompilerStagesTest, TuningErrors) {
  CompilerStages stages;
  CompileOptions no_path;
  no_path.build_mode = BuildMode::kTuning;
  no_path.has_stop_step = true;
  no_path.stop_after = BuildStep::kAfterPrepare;
  EXPECT_EQ(GetErrorCode(stages.Compile(SmallGraph(), no_path).status()), ErrorCode::kParamInvalid);

  CompileOptions missing;
  missing.resume_from = "/nonexistent/dir/file.pb";
  auto r = stages.Compile(nullptr, missing);
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kIoError);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("/nonexistent/dir/file.pb"));

  // A valid model written outside a break point has no step attribute.
  const std::string path = absl::StrCat(TempDir("tuning_err"), "/plain.pb");
  {
    auto bytes = ModelSerialize::SerializeModel(*SmallGraph());
    ASSERT_TRUE(bytes.ok());
    std::ofstream(path, std::ios::binary) << *bytes;
  }
  CompileOptions plain;
  plain.resume_from = path;
  EXPECT_EQ(GetErrorCode(stages.Compile(nullptr, plain).status()), ErrorCode::kParseFailed);

  // Garbage bytes.
  const std::string junk = absl::StrCat(TempDir("tuning_err"), "/junk.pb");
  std::ofstream(junk, std::ios::binary) << "not a model";
  CompileOptions bad;
  bad.resume_from = junk;
  EXPECT_FALSE(stages.Compile(nullptr, bad).ok());
}

}  // namespace
}  // namespace ge
