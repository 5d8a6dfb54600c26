// graph/serialization/src/graph_dumper_test.cc
//
// GraphDumper: the DUMP_GE_GRAPH / DUMP_GRAPH_LEVEL / DUMP_GRAPH_PATH switch
// (set in-process), the files of each level, the DOT text, bad settings.
#include "graph/serialization/inc/graph_dumper.h"

#include <dirent.h>
#include <stdlib.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/serialization/inc/model_serialize.h"
#include "graph/serialization/testing/graph_compare.h"
#include "graph/serialization/testing/random_graph.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::string TempDir(const std::string& name) {
  const char* base = std::getenv("TEST_TMPDIR");
  return std::string(base == nullptr ? "/tmp" : base) + "/" + name;
}

std::vector<std::string> ListDir(const std::string& dir) {
  std::vector<std::string> names;
  DIR* d = opendir(dir.c_str());
  if (d == nullptr) return names;
  while (dirent* e = readdir(d)) {
    const std::string n = e->d_name;
    if (n != "." && n != "..") names.push_back(n);
  }
  closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class EnvGuard {
 public:
  EnvGuard() { Clear(); }
  ~EnvGuard() { Clear(); }
  static void Clear() {
    unsetenv(GraphDumper::kEnvDumpGeGraph);
    unsetenv(GraphDumper::kEnvDumpGraphLevel);
    unsetenv(GraphDumper::kEnvDumpGraphPath);
  }
};

ComputeGraphPtr SampleGraph() {
  ge::testing::GraphBuilder b("sample");
  NodePtr a = b.AddNode("a", "Data", 0, 1);
  NodePtr r = b.AddNode("r\"elu", "Relu", 1, 1);
  NodePtr o = b.AddNode("out", "NetOutput", 1, 0);
  b.AddDataEdge(a, 0, r, 0);
  b.AddDataEdge(r, 0, o, 0);
  b.AddControlEdge(a, o);
  return b.graph();
}

TEST(GraphDumperTest, DisabledByDefault) {
  EnvGuard env;
  const std::string dir = TempDir("dump_off");
  setenv(GraphDumper::kEnvDumpGraphPath, dir.c_str(), 1);
  GE_EXPECT_OK(GraphDumper::DumpIfEnabled(*SampleGraph(), "Stage"));
  setenv(GraphDumper::kEnvDumpGeGraph, "0", 1);
  GE_EXPECT_OK(GraphDumper::DumpIfEnabled(*SampleGraph(), "Stage"));
  EXPECT_TRUE(ListDir(dir).empty());
}

TEST(GraphDumperTest, FullDumpWritesTextDotAndLoadableBinary) {
  EnvGuard env;
  const std::string dir = TempDir("dump_full/nested");
  setenv(GraphDumper::kEnvDumpGeGraph, "1", 1);
  setenv(GraphDumper::kEnvDumpGraphPath, dir.c_str(), 1);
  const ComputeGraphPtr g = ge::testing::RandomGraph(4);
  GE_ASSERT_OK(GraphDumper::DumpIfEnabled(*g, "After Infer/Shape"));
  const std::vector<std::string> files = ListDir(dir);
  ASSERT_EQ(files.size(), 3u);
  for (const std::string& f : files) {
    EXPECT_TRUE(absl::StartsWith(f, "ge_proto_")) << f;
    EXPECT_THAT(f, HasSubstr("_After_Infer_Shape."));
  }
  const std::string stem = files[0].substr(0, files[0].rfind('.'));
  EXPECT_EQ(files, (std::vector<std::string>{stem + ".dot", stem + ".pb", stem + ".txt"}));

  const std::string text = ReadFile(dir + "/" + stem + ".txt");
  EXPECT_THAT(text, HasSubstr("name: \"g4\""));
  StatusOr<ComputeGraphPtr> from_text = ModelSerialize::DeserializeModelFromText(text);
  ASSERT_TRUE(from_text.ok()) << from_text.status();
  GE_EXPECT_OK(ge::testing::CompareGraphs(*g, **from_text));
  StatusOr<ComputeGraphPtr> from_pb =
      ModelSerialize::DeserializeModel(ReadFile(dir + "/" + stem + ".pb"));
  ASSERT_TRUE(from_pb.ok()) << from_pb.status();
  GE_EXPECT_OK(ge::testing::CompareGraphs(*g, **from_pb));

  const std::string dot = ReadFile(dir + "/" + stem + ".dot");
  EXPECT_TRUE(absl::StartsWith(dot, "digraph \"g4\" {"));
  EXPECT_THAT(dot, HasSubstr("subgraph cluster_0"));
  EXPECT_THAT(dot, HasSubstr("lhead=cluster_"));
}

TEST(GraphDumperTest, SequenceNumbersIncrease) {
  EnvGuard env;
  const std::string dir = TempDir("dump_seq");
  setenv(GraphDumper::kEnvDumpGeGraph, "2", 1);
  setenv(GraphDumper::kEnvDumpGraphPath, dir.c_str(), 1);
  GE_ASSERT_OK(GraphDumper::DumpIfEnabled(*SampleGraph(), "first"));
  GE_ASSERT_OK(GraphDumper::DumpIfEnabled(*SampleGraph(), "second"));
  const std::vector<std::string> files = ListDir(dir);
  ASSERT_EQ(files.size(), 4u);  // .txt + .dot each, no .pb without tensor data
  EXPECT_THAT(files[0], HasSubstr("_first.dot"));
  EXPECT_THAT(files[2], HasSubstr("_second.dot"));
  EXPECT_LT(files[0], files[2]);
}

TEST(GraphDumperTest, LevelsAndContent) {
  const ComputeGraphPtr g = ge::testing::RandomGraph(6);
  DumpConfig config;
  config.path = TempDir("dump_levels");
  config.content = DumpConfig::Content::kStructure;
  config.level = DumpConfig::Level::kRootOnly;
  StatusOr<std::vector<std::string>> files = GraphDumper::Dump(*g, "s", config);
  ASSERT_TRUE(files.ok()) << files.status();
  ASSERT_EQ(files->size(), 2u);
  const std::string text = ReadFile((*files)[0]);
  EXPECT_THAT(text, Not(HasSubstr("input_desc")));
  EXPECT_THAT(text, Not(HasSubstr("parent_graph")));
  EXPECT_THAT(text, HasSubstr("input: \"g6/n0:0\""));
  const std::string dot = ReadFile((*files)[1]);
  EXPECT_THAT(dot, Not(HasSubstr("cluster_")));
  EXPECT_THAT(dot, HasSubstr("subgraphs: g6_then"));

  config.content = DumpConfig::Content::kNoTensorData;
  config.level = DumpConfig::Level::kAll;
  files = GraphDumper::Dump(*g, "s", config);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_EQ(files->size(), 2u);
  EXPECT_THAT(ReadFile((*files)[0]), HasSubstr("name: \"g6_then\""));

  config.content = DumpConfig::Content::kOff;
  files = GraphDumper::Dump(*g, "s", config);
  ASSERT_TRUE(files.ok());
  EXPECT_TRUE(files->empty());
}

TEST(GraphDumperTest, DotText) {
  const std::string dot = GraphDumper::ToDot(*SampleGraph());
  EXPECT_THAT(dot, HasSubstr("[label=\"r\\\"elu\\nRelu\"]"));  // quotes escaped
  EXPECT_THAT(dot, HasSubstr("n0 -> n1 [label=\"0:0\"];"));
  EXPECT_THAT(dot, HasSubstr("n0 -> n2 [style=dashed];"));
  EXPECT_TRUE(absl::EndsWith(dot, "}\n"));
}

TEST(GraphDumperTest, BadSettingsAreReported) {
  EnvGuard env;
  setenv(GraphDumper::kEnvDumpGeGraph, "yes", 1);
  Status st = GraphDumper::DumpIfEnabled(*SampleGraph(), "x");
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_THAT(st.message(), HasSubstr("DUMP_GE_GRAPH='yes'"));
  setenv(GraphDumper::kEnvDumpGeGraph, "1", 1);
  setenv(GraphDumper::kEnvDumpGraphLevel, "9", 1);
  st = GraphDumper::DumpIfEnabled(*SampleGraph(), "x");
  EXPECT_THAT(st.message(), HasSubstr("DUMP_GRAPH_LEVEL='9'"));
  unsetenv(GraphDumper::kEnvDumpGraphLevel);
  // A path that is a file, not a directory.
  const std::string file = TempDir("dump_not_a_dir");
  std::ofstream(file) << "x";
  setenv(GraphDumper::kEnvDumpGraphPath, file.c_str(), 1);
  st = GraphDumper::DumpIfEnabled(*SampleGraph(), "x");
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kIoError);
  EXPECT_THAT(st.message(), HasSubstr("dump_not_a_dir"));
}

TEST(GraphDumperTest, FileStem) {
  EXPECT_EQ(GraphDumper::FileStem(7, "After Fusion"), "ge_proto_00000007_After_Fusion");
  EXPECT_EQ(GraphDumper::FileStem(12345678, "a/b:c.d-e"), "ge_proto_12345678_a_b_c.d-e");
}

}  // namespace
}  // namespace ge
