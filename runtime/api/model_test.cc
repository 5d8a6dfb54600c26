// runtime/api/model_test.cc
//
// The runtime driven the way a user drives it: an ONNX model is parsed,
// compiled (CompilerStages), built (ModelBuilder), written as an OM file,
// loaded with ge::Model and run; results are compared with the reference
// interpreter on the original (uncompiled) graph. Static and dynamic models,
// both Run paths, input checking.
#include "runtime/inc/runtime/model.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "build/om/om_file.h"
#include "compiler/parser/onnx/onnx_test_util.h"
#include "metadef/inc/external/base/status.h"
#include "runtime/api/model_internal.h"
#include "runtime/reference/reference_interpreter.h"
#include "runtime/testing/runtime_test_util.h"

namespace ge {
namespace {

using rttest::CheckOk;

// The reference result of `onnx` on `inputs` (original graph, no compilation).
std::vector<gert::HostTensor> Reference(const onnx::ModelProto& onnx,
                                        const std::vector<gert::HostTensor>& inputs) {
  StatusOr<ComputeGraphPtr> graph = rttest::ParseOnnx(onnx);
  CheckOk(graph.status(), "parse");
  std::vector<gert::HostTensor> copies;
  for (const gert::HostTensor& t : inputs) {
    StatusOr<gert::HostTensor> c = t.Clone();
    CheckOk(c.status(), "clone");
    copies.push_back(std::move(c).value());
  }
  StatusOr<std::vector<gert::HostTensor>> out = ReferenceInterpreter::Run(**graph, std::move(copies));
  CheckOk(out.status(), "reference run");
  return std::move(out).value();
}

void ExpectClose(const std::vector<gert::HostTensor>& got,
                 const std::vector<gert::HostTensor>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    Status st = onnx_test::CompareHostTensors(got[i].tensor(), want[i].tensor(), 1e-4, 1e-5,
                                              absl::StrCat("output ", i));
    EXPECT_TRUE(st.ok()) << st;
  }
}

std::string WriteOm(const onnx::ModelProto& onnx, const std::string& name) {
  StatusOr<std::string> om = rttest::CompileOnnxToOm(onnx);
  CheckOk(om.status(), "compile " + name);
  const std::string path = rttest::TempPath(name);
  CheckOk(WriteFileAtomically(path, *om), "write " + path);
  return path;
}

std::vector<gert::HostTensor> One(gert::HostTensor t) {
  std::vector<gert::HostTensor> v;
  v.push_back(std::move(t));
  return v;
}

TEST(ModelTest, StaticCnnFromFileMatchesReference) {
  const onnx::ModelProto onnx = rttest::SmallCnn();
  const std::string path = WriteOm(onnx, "cnn.om");
  StatusOr<Model> model = Model::LoadFromFile(path);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_FALSE(model->is_dynamic());
  EXPECT_GT(model->arena_bytes(), 0u);
  ASSERT_EQ(model->inputs().size(), 1u);
  EXPECT_EQ(model->inputs()[0].name, "x");
  EXPECT_EQ(model->inputs()[0].dtype, DT_FLOAT);
  EXPECT_EQ(model->inputs()[0].dims, (std::vector<int64_t>{1, 3, 16, 16}));
  EXPECT_EQ(model->inputs()[0].size, 3u * 16 * 16 * 4);
  ASSERT_EQ(model->outputs().size(), 1u);
  EXPECT_EQ(model->outputs()[0].dims, (std::vector<int64_t>{1, 10}));

  for (uint32_t seed : {1u, 2u}) {
    std::vector<gert::HostTensor> in = One(rttest::PatternF32({1, 3, 16, 16}, seed));
    StatusOr<std::vector<gert::HostTensor>> out = model->Run(in);
    ASSERT_TRUE(out.ok()) << out.status();
    ExpectClose(*out, Reference(onnx, in));
  }
}

TEST(ModelTest, ZeroCopyRunWithCallerBuffers) {
  const onnx::ModelProto onnx = rttest::SmallCnn();
  StatusOr<std::string> om = rttest::CompileOnnxToOm(onnx);
  ASSERT_TRUE(om.ok()) << om.status();
  StatusOr<Model> model = Model::LoadFromBytes(*om);
  ASSERT_TRUE(model.ok()) << model.status();
  std::vector<gert::HostTensor> in = One(rttest::PatternF32({1, 3, 16, 16}, 7));
  std::vector<float> y(10, -1.f);
  gert::Tensor out(gert::Shape{1, 10}, DT_FLOAT, y.data(), y.size() * 4);
  Status st = model->Run(absl::MakeConstSpan(&in[0].tensor(), 1), absl::MakeSpan(&out, 1));
  ASSERT_TRUE(st.ok()) << st;
  std::vector<gert::HostTensor> want = Reference(onnx, in);
  const std::vector<float> w = rttest::Floats(want[0].tensor());
  ASSERT_EQ(w.size(), y.size());
  for (size_t i = 0; i < y.size(); ++i) EXPECT_NEAR(y[i], w[i], 1e-4 + 1e-4 * std::abs(w[i]));
}

TEST(ModelTest, MultipleOutputsIncludingAnInput) {
  const onnx::ModelProto onnx = rttest::Mlp();
  StatusOr<std::string> om = rttest::CompileOnnxToOm(onnx);
  ASSERT_TRUE(om.ok()) << om.status();
  StatusOr<Model> model = Model::LoadFromBytes(*om);
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(model->outputs().size(), 3u);
  std::vector<gert::HostTensor> in = One(rttest::PatternF32({2, 4}, 3));
  StatusOr<std::vector<gert::HostTensor>> out = model->Run(in);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectClose(*out, Reference(onnx, in));
  EXPECT_EQ(rttest::Floats((*out)[2].tensor()), rttest::Floats(in[0].tensor()));
}

TEST(ModelTest, WrongInputsAreParamInvalidNamingTheInput) {
  StatusOr<std::string> om = rttest::CompileOnnxToOm(rttest::SmallCnn());
  ASSERT_TRUE(om.ok()) << om.status();
  StatusOr<Model> model = Model::LoadFromBytes(*om);
  ASSERT_TRUE(model.ok()) << model.status();

  std::vector<gert::HostTensor> none;
  EXPECT_EQ(GetErrorCode(model->Run(none).status()), ErrorCode::kParamInvalid);

  StatusOr<std::vector<gert::HostTensor>> r = model->Run(One(rttest::PatternF32({1, 3, 16, 15})));
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
  EXPECT_NE(r.status().message().find("input 0 'x': shape is [1,3,16,15]"), std::string::npos)
      << r.status();

  StatusOr<gert::HostTensor> ints = gert::HostTensor::Create(DT_INT32, gert::Shape{1, 3, 16, 16});
  ASSERT_TRUE(ints.ok());
  r = model->Run(One(std::move(ints).value()));
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
  EXPECT_NE(r.status().message().find("input 0 'x': data type is DT_INT32"), std::string::npos)
      << r.status();

  std::vector<gert::HostTensor> two = One(rttest::PatternF32({1, 3, 16, 16}));
  two.push_back(rttest::PatternF32({1}));
  EXPECT_EQ(GetErrorCode(model->Run(two).status()), ErrorCode::kParamInvalid);

  std::vector<gert::HostTensor> moved_from(1);
  EXPECT_EQ(GetErrorCode(model->Run(moved_from).status()), ErrorCode::kParamInvalid);
}

TEST(ModelTest, DynamicBatchModel) {
  const onnx::ModelProto onnx = rttest::DynamicBatch();
  const std::string path = WriteOm(onnx, "dyn.om");
  StatusOr<Model> model = Model::LoadFromFile(path);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_TRUE(model->is_dynamic());
  EXPECT_EQ(model->arena_bytes(), 0u);
  ASSERT_EQ(model->inputs().size(), 1u);
  EXPECT_EQ(model->inputs()[0].dims, (std::vector<int64_t>{-1, 4}));
  for (int64_t batch : {1, 3, 5}) {
    std::vector<gert::HostTensor> in = One(rttest::PatternF32({batch, 4}, 9));
    StatusOr<std::vector<gert::HostTensor>> out = model->Run(in);
    ASSERT_TRUE(out.ok()) << out.status();
    ASSERT_EQ((*out)[0].GetShape().GetDim(0), batch);
    ExpectClose(*out, Reference(onnx, in));
  }
  // Zero-copy path: the output's shape is set by the run.
  std::vector<gert::HostTensor> in = One(rttest::PatternF32({3, 4}, 9));
  std::vector<float> y(8, 0.f);
  gert::Tensor out(gert::Shape{8}, DT_FLOAT, y.data(), y.size() * 4);
  Status st = model->Run(absl::MakeConstSpan(&in[0].tensor(), 1), absl::MakeSpan(&out, 1));
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(out.GetShape(), (gert::Shape{3}));
  std::vector<gert::HostTensor> want = Reference(onnx, in);
  EXPECT_EQ(rttest::Floats(out), rttest::Floats(want[0].tensor()));
  gert::Tensor small(gert::Shape{2}, DT_FLOAT, y.data(), 8);
  st = model->Run(absl::MakeConstSpan(&in[0].tensor(), 1), absl::MakeSpan(&small, 1));
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kOutOfRange) << st;
  // Rank is still checked.
  StatusOr<std::vector<gert::HostTensor>> bad = model->Run(One(rttest::PatternF32({4})));
  EXPECT_EQ(GetErrorCode(bad.status()), ErrorCode::kParamInvalid);
}

TEST(ModelTest, DataDependentModelIsDynamic) {
  const onnx::ModelProto onnx = rttest::NonZeroModel();
  StatusOr<std::string> om = rttest::CompileOnnxToOm(onnx);
  ASSERT_TRUE(om.ok()) << om.status();
  StatusOr<Model> model = Model::LoadFromBytes(*om);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_TRUE(model->is_dynamic());
  std::vector<gert::HostTensor> in = One(rttest::PatternF32({6}, 4));
  StatusOr<std::vector<gert::HostTensor>> out = model->Run(in);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectClose(*out, Reference(onnx, in));
}

TEST(ModelTest, InMemoryModelAndMoves) {
  StatusOr<ComputeGraphPtr> g = rttest::ParseOnnx(rttest::Mlp());
  ASSERT_TRUE(g.ok());
  StatusOr<ComputeGraphPtr> compiled = rttest::CompileGraph(*g);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  StatusOr<GeRootModelPtr> root = rttest::BuildModel(*compiled);
  ASSERT_TRUE(root.ok()) << root.status();
  StatusOr<Model> model = LoadModelFromGeRootModel(*root, ModelLoadOptions{});
  ASSERT_TRUE(model.ok()) << model.status();
  Model moved = std::move(model).value();
  std::vector<gert::HostTensor> in = One(rttest::PatternF32({2, 4}, 5));
  StatusOr<std::vector<gert::HostTensor>> out = moved.Run(in);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectClose(*out, Reference(rttest::Mlp(), in));
  EXPECT_FALSE(LoadModelFromGeRootModel(nullptr, ModelLoadOptions{}).ok());
}

TEST(ModelTest, NoAllocNetMatchesReference) {
  const onnx::ModelProto onnx = rttest::NoAllocNet();
  StatusOr<std::string> om = rttest::CompileOnnxToOm(onnx);
  ASSERT_TRUE(om.ok()) << om.status();
  StatusOr<Model> model = Model::LoadFromBytes(*om);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_FALSE(model->is_dynamic());
  std::vector<gert::HostTensor> in = One(rttest::PatternF32({1, 3, 8, 8}, 6));
  StatusOr<std::vector<gert::HostTensor>> out = model->Run(in);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectClose(*out, Reference(onnx, in));
}

TEST(ModelTest, MissingFile) {
  StatusOr<Model> m = Model::LoadFromFile(rttest::TempPath("does_not_exist.om"));
  EXPECT_EQ(GetErrorCode(m.status()), ErrorCode::kNotFound);
  EXPECT_NE(m.status().message().find("does_not_exist.om"), std::string::npos);
}

}  // namespace
}  // namespace ge
