// tools/ge_opt/ge_opt_lib_test.cc
#include "tools/ge_opt/ge_opt_lib.h"

#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "compiler/parser/onnx/onnx_parser.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/serialization/inc/graph_text.h"
#include "graph/serialization/testing/graph_compare.h"
#include "gtest/gtest.h"

namespace ge {
namespace ge_opt {
namespace {

std::string TempFile(const std::string& name, const std::string& contents) {
  const char* dir = std::getenv("TEST_TMPDIR");
  const std::string path = absl::StrCat(dir == nullptr ? "/tmp" : dir, "/", name);
  std::ofstream(path, std::ios::binary) << contents;
  return path;
}

constexpr char kGraph[] = R"(graph g {
  %x = Data(_) {index = 0} : (float[2]) -> (float[2])
  %dead = Neg(%x:0) : (float[2]) -> (float[2])
  %r = Relu(%x:0) : (float[2]) -> (float[2])
  %out = NetOutput(%r:0) : (float[2]) -> ()
}
)";

TEST(GeOptTest, RunsNamedPasses) {
  const std::string in = TempFile("dce.getxt", kGraph);
  StatusOr<std::string> text = RunGeOpt({in, "--passes=DeadCodeEliminationPass"});
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_FALSE(absl::StrContains(*text, "%dead"));
  EXPECT_TRUE(absl::StrContains(*text, "%r = Relu(%x:0)"));
}

TEST(GeOptTest, WritesTheOutputFile) {
  const std::string in = TempFile("out_in.getxt", kGraph);
  const std::string out = TempFile("out.getxt", "");
  StatusOr<std::string> text = RunGeOpt({in, absl::StrCat("--output=", out)});
  ASSERT_TRUE(text.ok()) << text.status();
  std::ifstream f(out);
  std::string written((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_EQ(written, *text);
  EXPECT_EQ(written, kGraph);
}

TEST(GeOptTest, UnknownPassListsTheKnownOnes) {
  const std::string in = TempFile("unknown.getxt", kGraph);
  StatusOr<std::string> text = RunGeOpt({in, "--passes=DeadCodeEliminationPass,NoSuchPass"});
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(GetErrorCode(text.status()), ErrorCode::kNotFound);
  EXPECT_TRUE(absl::StrContains(text.status().message(), "unknown pass 'NoSuchPass'"));
  EXPECT_TRUE(absl::StrContains(text.status().message(), "CastRemovePass"));
  EXPECT_TRUE(absl::StrContains(text.status().message(), "ReshapeRemovePass"));
}

TEST(GeOptTest, BadArgumentsAreErrors) {
  EXPECT_FALSE(RunGeOpt({}).ok());
  EXPECT_FALSE(RunGeOpt({"a.getxt", "--stage=stage9"}).ok());
  EXPECT_FALSE(RunGeOpt({"a.getxt", "--colour=red"}).ok());
  EXPECT_EQ(GetErrorCode(RunGeOpt({"/nonexistent/a.getxt"}).status()), ErrorCode::kNotFound);
}

TEST(GeOptTest, MalformedFileNamesLineAndColumn) {
  const std::string in =
      TempFile("bad.getxt", "graph g {\n  %a = Relu(%b:0) : (float[1]) -> (float[1])\n}\n");
  StatusOr<std::string> text = RunGeOpt({in});
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(GetErrorCode(text.status()), ErrorCode::kParseFailed);
  EXPECT_TRUE(absl::StrContains(text.status().message(),
                                absl::StrCat(in, ": line 2, column 13: unknown node %b")))
      << text.status();
}

TEST(GeOptTest, RunsStages) {
  const std::string in = TempFile("stage.getxt", kGraph);
  for (const char* stage : {"prepare", "stage1", "stage2", "all"}) {
    StatusOr<std::string> text = RunGeOpt({in, absl::StrCat("--stage=", stage)});
    ASSERT_TRUE(text.ok()) << stage << ": " << text.status();
    EXPECT_TRUE(absl::StrContains(*text, "%r = Relu(%x:0)")) << stage;
  }
  StatusOr<std::string> text = RunGeOpt({in, "--stage=stage1"});
  ASSERT_TRUE(text.ok());
  EXPECT_FALSE(absl::StrContains(*text, "%dead")) << *text;
}

// Real models: a sample of the ONNX backend node tests, parsed by the ONNX
// front end, round trip through the text form.
TEST(GeOptTest, OnnxModelsRoundTripThroughText) {
  const std::string root = "/usr/share/libonnx-testdata/data/node";
  DIR* dir = opendir(root.c_str());
  if (dir == nullptr) GTEST_SKIP() << "no ONNX test data at " << root;
  std::vector<std::string> names;
  while (dirent* e = readdir(dir)) {
    if (e->d_name[0] != '.') names.emplace_back(e->d_name);
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  int parsed = 0;
  for (size_t i = 0; i < names.size(); i += 4) {
    const std::string path = absl::StrCat(root, "/", names[i], "/model.onnx");
    ParseOptions popts;
    popts.model_dir = absl::StrCat(root, "/", names[i]);
    StatusOr<ComputeGraphPtr> g = OnnxModelParser().ParseFile(path, popts);
    if (!g.ok()) continue;  // models the front end rejects
    ++parsed;
    SCOPED_TRACE(names[i]);
    const std::string text = PrintGraphText(**g);
    StatusOr<ComputeGraphPtr> back = ParseGraphText(text);
    ASSERT_TRUE(back.ok()) << back.status() << "\n" << text;
    Status same = testing::CompareGraphs(**g, **back);
    EXPECT_TRUE(same.ok()) << same << "\n" << text;
    EXPECT_EQ(PrintGraphText(**back), text);
  }
  EXPECT_GT(parsed, 100);
}

}  // namespace
}  // namespace ge_opt
}  // namespace ge
