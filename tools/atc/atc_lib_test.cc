// Tests of tools/atc/atc_lib.h: the conversion pipeline on the bundled small
// CNN and on bad models / options, flag-string parsers, the pre-check.
#include "tools/atc/atc_lib.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "build/om/om_file.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/compute_graph.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace atc {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kModel[] = "tools/models/small_cnn.onnx";
constexpr char kUnknown[] = "tools/models/unknown_ops.onnx";

std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

std::string TmpDir() {
  const char* d = std::getenv("TEST_TMPDIR");
  return d != nullptr ? d : "/tmp";
}

TEST(ParseInputShapeTest, Valid) {
  std::map<std::string, std::vector<int64_t>> shapes;
  ASSERT_TRUE(ParseInputShape("input:1,3,224,224; b:-1,10;s:", &shapes).ok());
  EXPECT_THAT(shapes["input"], ElementsAre(1, 3, 224, 224));
  EXPECT_THAT(shapes["b"], ElementsAre(-1, 10));
  EXPECT_TRUE(shapes["s"].empty());
  ASSERT_TRUE(ParseInputShape("ns:x:1,2", &shapes).ok());  // the last ':' splits
  EXPECT_THAT(shapes["ns:x"], ElementsAre(1, 2));
  ASSERT_TRUE(ParseInputShape("", &shapes).ok());
  EXPECT_TRUE(shapes.empty());
}

TEST(ParseInputShapeTest, Invalid) {
  std::map<std::string, std::vector<int64_t>> shapes;
  struct Case {
    const char* text;
    const char* message;
  };
  for (const Case& c :
       std::vector<Case>{{"input", "has no ':'"},
                         {":1,2", "empty name"},
                         {"a:1,,2", "dim ''"},
                         {"a:1,-2", "dim '-2'"},
                         {"a:1,x", "dim 'x'"},
                         {"a:1;a:2", "given twice"},
                         {"a:1;;b:2", "empty entry"},
                         {"a:99999999999999999999", "dim '99999999999999999999'"}}) {
    Status st = ParseInputShape(c.text, &shapes);
    EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid) << c.text;
    EXPECT_THAT(std::string(st.message()), HasSubstr(c.message)) << c.text;
  }
  EXPECT_FALSE(ParseInputShape("a:1", nullptr).ok());
}

TEST(ParseOutNodesTest, ValidAndInvalid) {
  std::vector<std::string> nodes;
  ASSERT_TRUE(ParseOutNodes("conv1:0; relu1:1;probs", &nodes).ok());
  EXPECT_THAT(nodes, ElementsAre("conv1:0", "relu1:1", "probs"));
  EXPECT_THAT(std::string(ParseOutNodes("a:-1", &nodes).message()), HasSubstr("'-1'"));
  EXPECT_THAT(std::string(ParseOutNodes("a:x", &nodes).message()), HasSubstr("'x'"));
  EXPECT_THAT(std::string(ParseOutNodes(":0", &nodes).message()), HasSubstr("empty name"));
  EXPECT_THAT(std::string(ParseOutNodes("a;;b", &nodes).message()), HasSubstr("empty entry"));
}

TEST(ConvertTest, SmallCnnInMemoryWithStages) {
  AtcOptions opts;
  opts.model_path = kModel;
  opts.soc_version = "Soc123";
  ASSERT_TRUE(ParseInputShape("input:1,3,32,32", &opts.input_shapes).ok());
  std::vector<std::string> seen;
  opts.on_stage = [&seen](absl::string_view stage, double ms) {
    EXPECT_GE(ms, 0.0);
    seen.emplace_back(stage);
  };
  auto r = ConvertOnnx(opts);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_THAT(seen, ElementsAre("parse", "prepare", "optimize", "build", "serialize"));
  ASSERT_EQ(r->stages.size(), 5u);
  EXPECT_EQ(r->stages[0].stage, "parse");
  ASSERT_NE(r->graph, nullptr);
  ASSERT_NE(r->root_model, nullptr);
  ASSERT_NE(r->root_model->root, nullptr);
  EXPECT_EQ(r->root_model->root->attrs.at(kAtcAttrSocVersion), "Soc123");
  EXPECT_EQ(r->root_model->root->attrs.at(kAtcAttrInputShape), "input:1,3,32,32");
  EXPECT_EQ(r->root_model->root->task_def.input_size(), 1);
  EXPECT_EQ(r->root_model->root->task_def.output_size(), 1);
  EXPECT_GT(r->root_model->root->task_def.task_size(), 0);

  // The OM bytes load back with the recorded SoC.
  auto view = ParseOmFile(AsBytes(r->om_bytes));
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_EQ(view->header.platform_version, "Soc123");

  // Same options from bytes: identical OM.
  AtcOptions from_bytes = opts;
  from_bytes.model_path.clear();
  from_bytes.model_bytes = Slurp(kModel);
  from_bytes.on_stage = nullptr;
  auto r2 = ConvertOnnx(from_bytes);
  ASSERT_TRUE(r2.ok()) << r2.status();
  EXPECT_EQ(r2->om_bytes, r->om_bytes);

  // ConvertOnnxToModel stops before serialization.
  auto m = ConvertOnnxToModel(from_bytes);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE(m->om_bytes.empty());
  EXPECT_EQ(m->stages.size(), 4u);
}

TEST(ConvertTest, OutNodesCutTheGraph) {
  AtcOptions opts;
  opts.model_path = kModel;
  opts.out_nodes = {"relu1:0"};
  auto r = ConvertOnnxToModel(opts);
  ASSERT_TRUE(r.ok()) << r.status();
  const auto& out = r->root_model->root->task_def.output();
  ASSERT_EQ(out.size(), 1);
  EXPECT_THAT(out[0].dims(), ElementsAre(1, 8, 32, 32));
  EXPECT_LT(r->root_model->root->task_def.task_size(), 5);
}

TEST(ConvertTest, Errors) {
  AtcOptions opts;
  // No model.
  EXPECT_EQ(GetErrorCode(ConvertOnnx(opts).status()), ErrorCode::kParamInvalid);
  opts.model_path = kModel;
  opts.model_bytes = "x";
  EXPECT_THAT(std::string(ConvertOnnx(opts).status().message()), HasSubstr("both"));
  opts.model_bytes.clear();
  for (int fw : {0, 1, 3}) {
    opts.framework = fw;
    Status st = ConvertOnnx(opts).status();
    EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotSupported) << fw;
    EXPECT_THAT(std::string(st.message()), HasSubstr("not supported yet"));
  }
  opts.framework = 7;
  EXPECT_THAT(std::string(ConvertOnnx(opts).status().message()), HasSubstr("framework 7"));
  opts.framework = 5;
  opts.input_shapes = {{"nosuch", {1}}};
  Status st = ConvertOnnx(opts).status();
  EXPECT_THAT(std::string(st.message()), HasSubstr("parse: "));
  EXPECT_THAT(std::string(st.message()), HasSubstr("nosuch"));
  opts.input_shapes.clear();
  opts.ge_options = {{"ge.noSuchOption", "1"}};
  EXPECT_THAT(std::string(ConvertOnnx(opts).status().message()), HasSubstr("ge.noSuchOption"));
  opts.ge_options.clear();
  opts.input_format = "XYZW";
  EXPECT_THAT(std::string(ConvertOnnx(opts).status().message()), HasSubstr("XYZW"));
  opts.input_format.clear();
  opts.model_path = "/nonexistent/model.onnx";
  EXPECT_THAT(std::string(ConvertOnnx(opts).status().message()), HasSubstr("model.onnx"));
  // Not a model at all.
  opts.model_path.clear();
  opts.model_bytes = std::string("\xff\xff\xff\xff garbage", 12);
  EXPECT_FALSE(ConvertOnnx(opts).ok());
}

TEST(ConvertToFileTest, FailureLeavesNoFile) {
  const std::string dir = TmpDir() + "/atc_lib_test_files";
  ::mkdir(dir.c_str(), 0755);
  const std::string good = dir + "/good.om";
  const std::string bad = dir + "/bad.om";
  AtcOptions opts;
  opts.model_path = kModel;
  auto r = ConvertOnnxToFile(opts, good);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_GE(r->stages.size(), 2u);
  EXPECT_EQ(r->stages[r->stages.size() - 2].stage, "serialize");
  EXPECT_EQ(r->stages.back().stage, "write");
  // The streamed file is byte-identical to ConvertOnnx's in-memory OM and
  // never assembled in memory.
  EXPECT_TRUE(r->om_bytes.empty());
  auto in_memory = ConvertOnnx(opts);
  ASSERT_TRUE(in_memory.ok()) << in_memory.status();
  const std::string expected = in_memory->om_bytes;
  EXPECT_EQ(r->om_size, expected.size());
  EXPECT_EQ(in_memory->om_size, expected.size());
  EXPECT_TRUE(Slurp(good) == expected);

  opts.model_path = kUnknown;
  Status st = ConvertOnnxToFile(opts, bad).status();
  EXPECT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("FooOp"));
  EXPECT_FALSE(Exists(bad));
  // An existing output is untouched by a failing conversion.
  st = ConvertOnnxToFile(opts, good).status();
  EXPECT_FALSE(st.ok());
  EXPECT_TRUE(Slurp(good) == expected);
  // A directory that does not exist.
  opts.model_path = kModel;
  st = ConvertOnnxToFile(opts, dir + "/no/such/dir/x.om").status();
  EXPECT_THAT(std::string(st.message()), HasSubstr("write: "));
  EXPECT_EQ(GetErrorCode(ConvertOnnxToFile(opts, "").status()), ErrorCode::kParamInvalid);
}

TEST(PreCheckTest, ListsEveryUnsupportedOp) {
  AtcOptions opts;
  opts.model_path = kUnknown;
  auto report = PreCheck(opts);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_FALSE(report->ok());
  EXPECT_EQ(report->op_count, 3);
  ASSERT_EQ(report->issues.size(), 2u);
  EXPECT_EQ(report->issues[0].op_type, "FooOp");
  EXPECT_EQ(report->issues[0].node, "foo");
  EXPECT_EQ(report->issues[1].op_type, "BarOp");
  EXPECT_FALSE(report->parse_error.empty());
  const std::string json = PreCheckReportJson(*report);
  EXPECT_THAT(json, HasSubstr("\"result\": \"failed\""));
  EXPECT_THAT(json, HasSubstr("\"op_type\": \"FooOp\""));
  EXPECT_THAT(json, HasSubstr("\"op_type\": \"BarOp\""));

  opts.model_path = kModel;
  report = PreCheck(opts);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_TRUE(report->ok());
  EXPECT_EQ(report->op_count, 9);
  EXPECT_THAT(PreCheckReportJson(*report), HasSubstr("\"result\": \"success\""));

  opts.model_path = "/nonexistent.onnx";
  EXPECT_EQ(GetErrorCode(PreCheck(opts).status()), ErrorCode::kNotFound);
  opts.model_path.clear();
  opts.model_bytes = "\xff\xff\xff";
  EXPECT_EQ(GetErrorCode(PreCheck(opts).status()), ErrorCode::kParseFailed);
}

TEST(PreCheckTest, JsonEscapes) {
  PreCheckReport report;
  report.model = "a\"b\\c\n";
  report.parse_error = std::string("x\x01y", 3);
  const std::string json = PreCheckReportJson(report);
  EXPECT_THAT(json, HasSubstr("\"a\\\"b\\\\c\\n\""));
  EXPECT_THAT(json, HasSubstr("x\\u0001y"));
}

}  // namespace
}  // namespace atc
}  // namespace ge
