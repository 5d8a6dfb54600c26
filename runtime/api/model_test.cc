// runtime/api/model_test.cc
//
// The runtime driven the way a user drives it: an ONNX model is parsed,
// compiled (CompilerStages), built (ModelBuilder), written as an OM file,
// loaded with ge::Model and run; results are compared with the reference
// interpreter on the original (uncompiled) graph. Static and dynamic models,
// both Run paths, input checking.
#include "runtime/inc/runtime/model.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "build/om/launch_plan.h"
#include "build/om/om_file.h"
#include "compiler/parser/onnx/onnx_test_util.h"
#include "gtest/gtest.h"
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
  StatusOr<std::vector<gert::HostTensor>> out =
      ReferenceInterpreter::Run(**graph, std::move(copies));
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

// Wrong inputs are rejected before the outputs are allocated: this model's
// output is 4 TiB, so allocating it first answered RESOURCE_EXHAUSTED (or,
// at 16 GiB, spent minutes zeroing it) instead of naming the input.
TEST(ModelTest, WrongInputsAreRejectedBeforeHugeOutputsAreAllocated) {
  onnx::GraphProto g;
  g.set_name("huge");
  *g.add_node() = onnx_test::MakeNode("Relu", {"x"}, {"y"});
  *g.add_input() = onnx_test::TensorValueInfo("x", onnx::TensorProto::FLOAT, {1 << 20, 1 << 20});
  *g.add_output() = onnx_test::TensorValueInfo("y", onnx::TensorProto::FLOAT, {1 << 20, 1 << 20});
  StatusOr<std::string> om = rttest::CompileOnnxToOm(onnx_test::MakeModel(g, 17));
  ASSERT_TRUE(om.ok()) << om.status();
  StatusOr<Model> model = Model::LoadFromBytes(*om);
  ASSERT_TRUE(model.ok()) << model.status();
  StatusOr<std::vector<gert::HostTensor>> r = model->Run(One(rttest::PatternF32({2})));
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid) << r.status();
  EXPECT_NE(r.status().message().find("input 0 'x': shape is [2]"), std::string::npos)
      << r.status();
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
  StatusOr<GeRootModelPtr> root = rttest::CompileToRootModel(*g);
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

// ---------------------------------------------- sequence / optional values

constexpr int32_t kOnnxFloat = 1;
constexpr int32_t kOnnxInt64 = 7;

onnx::ValueInfoProto SeqValueInfo(const std::string& name, int32_t elem_type) {
  onnx::ValueInfoProto vi;
  vi.set_name(name);
  vi.mutable_type()
      ->mutable_sequence_type()
      ->mutable_elem_type()
      ->mutable_tensor_type()
      ->set_elem_type(elem_type);
  return vi;
}

onnx::ValueInfoProto OptionalValueInfo(const std::string& name, int32_t elem_type) {
  onnx::ValueInfoProto vi;
  vi.set_name(name);
  vi.mutable_type()
      ->mutable_optional_type()
      ->mutable_elem_type()
      ->mutable_tensor_type()
      ->set_elem_type(elem_type);
  return vi;
}

// s: seq(float), t: float[2] -> s2 = SequenceInsert(s, t) (seq),
// last = SequenceAt(s2, -1) (float), len = SequenceLength(s2) (int64 scalar).
onnx::ModelProto SequenceModel(int64_t opset) {
  onnx::GraphProto g;
  g.set_name("seq");
  *g.add_input() = SeqValueInfo("s", kOnnxFloat);
  *g.add_input() = onnx_test::TensorValueInfo("t", kOnnxFloat, {2});
  *g.add_initializer() = onnx_test::Int64Tensor("minus_one", {}, {-1});
  *g.add_node() = onnx_test::MakeNode("SequenceInsert", {"s", "t"}, {"s2"}, "insert");
  *g.add_node() = onnx_test::MakeNode("SequenceAt", {"s2", "minus_one"}, {"last"}, "at");
  *g.add_node() = onnx_test::MakeNode("SequenceLength", {"s2"}, {"len"}, "length");
  *g.add_output() = SeqValueInfo("s2", kOnnxFloat);
  *g.add_output() = onnx_test::TensorValueInfo("last", kOnnxFloat, {2});
  *g.add_output() = onnx_test::TensorValueInfo("len", kOnnxInt64, {});
  return onnx_test::MakeModel(g, opset);
}

gert::HostTensor Sequence(std::vector<gert::HostTensor> elements) {
  StatusOr<gert::HostTensor> seq = gert::HostTensor::CreateSequence(std::move(elements));
  CheckOk(seq.status(), "CreateSequence");
  return std::move(seq).value();
}

std::vector<gert::HostTensor> SequenceModelInputs() {
  std::vector<gert::HostTensor> elems;
  elems.push_back(onnx_test::FloatHost({3}, {1, 2, 3}));
  elems.push_back(onnx_test::FloatHost({1, 2}, {4, 5}));
  std::vector<gert::HostTensor> in;
  in.push_back(Sequence(std::move(elems)));
  in.push_back(onnx_test::FloatHost({2}, {6, 7}));
  return in;
}

void ExpectSequenceModelOutputs(const std::vector<gert::HostTensor>& out) {
  ASSERT_EQ(out.size(), 3u);
  StatusOr<absl::Span<const gert::HostTensor>> e = gert::VariantElements(out[0].tensor());
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->size(), 3u);
  EXPECT_EQ(onnx_test::FloatsOf((*e)[0]), (std::vector<float>{1, 2, 3}));
  EXPECT_EQ((*e)[1].GetShape(), (gert::Shape{1, 2}));
  EXPECT_EQ(onnx_test::FloatsOf((*e)[2]), (std::vector<float>{6, 7}));
  EXPECT_EQ(out[1].GetDataType(), DT_FLOAT);
  EXPECT_EQ(onnx_test::FloatsOf(out[1]), (std::vector<float>{6, 7}));
  EXPECT_EQ(onnx_test::Int64sOf(out[2]), (std::vector<int64_t>{3}));
}

TEST(ModelTest, SequenceInputsAndOutputs) {
  const onnx::ModelProto onnx = SequenceModel(17);
  const std::string path = WriteOm(onnx, "seq.om");
  StatusOr<Model> model = Model::LoadFromFile(path);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_TRUE(model->is_dynamic());
  ASSERT_EQ(model->inputs().size(), 2u);
  EXPECT_EQ(model->inputs()[0].name, "s");
  EXPECT_EQ(model->inputs()[0].dtype, DT_VARIANT);
  EXPECT_EQ(model->inputs()[0].kind, ModelIoKind::kSequence);
  EXPECT_EQ(model->inputs()[0].source_type, "seq(tensor(float))");
  EXPECT_EQ(model->inputs()[1].kind, ModelIoKind::kTensor);
  EXPECT_EQ(model->inputs()[1].source_type, "");
  ASSERT_EQ(model->outputs().size(), 3u);
  EXPECT_EQ(model->outputs()[0].dtype, DT_VARIANT);
  EXPECT_EQ(model->outputs()[0].kind, ModelIoKind::kSequence);
  EXPECT_EQ(model->outputs()[0].source_type, "seq(tensor(float))");
  EXPECT_EQ(model->outputs()[2].kind, ModelIoKind::kTensor);

  std::vector<gert::HostTensor> in = SequenceModelInputs();
  StatusOr<std::vector<gert::HostTensor>> out = model->Run(in);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectSequenceModelOutputs(*out);
  ExpectClose(*out, Reference(onnx, in));
  // The inputs are not consumed: a second run gives the same.
  out = model->Run(in);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectSequenceModelOutputs(*out);

  // An empty sequence.
  std::vector<gert::HostTensor> empty_in;
  empty_in.push_back(Sequence({}));
  empty_in.push_back(onnx_test::FloatHost({2}, {8, 9}));
  out = model->Run(empty_in);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ((*out)[0].GetShape(), (gert::Shape{1}));
  EXPECT_EQ(onnx_test::Int64sOf((*out)[2]), (std::vector<int64_t>{1}));
}

TEST(ModelTest, SequenceOutputsThroughCallerBuffers) {
  StatusOr<std::string> om = rttest::CompileOnnxToOm(SequenceModel(17));
  ASSERT_TRUE(om.ok()) << om.status();
  StatusOr<Model> model = Model::LoadFromBytes(*om);
  ASSERT_TRUE(model.ok()) << model.status();
  std::vector<gert::HostTensor> in = SequenceModelInputs();
  std::vector<gert::Tensor> in_views = {in[0].tensor(), in[1].tensor()};
  StatusOr<gert::HostTensor> seq_buf = gert::HostTensor::Create(DT_VARIANT, gert::Shape{4});
  ASSERT_TRUE(seq_buf.ok()) << seq_buf.status();
  std::vector<float> last(2, 0.f);
  int64_t len = 0;
  std::vector<gert::Tensor> outs = {seq_buf->tensor(),
                                    gert::Tensor(gert::Shape{2}, DT_FLOAT, last.data(), 8),
                                    gert::Tensor(gert::Shape{}, DT_INT64, &len, sizeof(len))};
  Status st = model->Run(in_views, absl::MakeSpan(outs));
  ASSERT_TRUE(st.ok()) << st;
  EXPECT_EQ(outs[0].GetShape(), (gert::Shape{3}));
  StatusOr<absl::Span<const gert::HostTensor>> e = gert::VariantElements(outs[0]);
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->size(), 3u);
  EXPECT_EQ(onnx_test::FloatsOf((*e)[2]), (std::vector<float>{6, 7}));
  EXPECT_EQ(last, (std::vector<float>{6, 7}));
  EXPECT_EQ(len, 3);

  // Too few elements in the caller's sequence buffer.
  StatusOr<gert::HostTensor> small = gert::HostTensor::Create(DT_VARIANT, gert::Shape{2});
  ASSERT_TRUE(small.ok());
  outs[0] = small->tensor();
  st = model->Run(in_views, absl::MakeSpan(outs));
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kOutOfRange) << st;
  EXPECT_NE(st.message().find("output 0 '"), std::string::npos) << st;
  // A tensor buffer where the model produces a sequence.
  std::vector<float> floats(8);
  outs[0] = gert::Tensor(gert::Shape{8}, DT_FLOAT, floats.data(), 32);
  st = model->Run(in_views, absl::MakeSpan(outs));
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid) << st;
}

TEST(ModelTest, WrongSequenceInputsAreParamInvalid) {
  StatusOr<std::string> om = rttest::CompileOnnxToOm(SequenceModel(17));
  ASSERT_TRUE(om.ok()) << om.status();
  StatusOr<Model> model = Model::LoadFromBytes(*om);
  ASSERT_TRUE(model.ok()) << model.status();
  // A tensor where the model expects a sequence.
  std::vector<gert::HostTensor> in;
  in.push_back(onnx_test::FloatHost({2}, {1, 2}));
  in.push_back(onnx_test::FloatHost({2}, {6, 7}));
  StatusOr<std::vector<gert::HostTensor>> r = model->Run(in);
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
  EXPECT_NE(r.status().message().find("input 0 's': data type is DT_FLOAT, the model expects "
                                      "DT_VARIANT (a sequence or optional value)"),
            std::string::npos)
      << r.status();
  // A sequence where the model expects a tensor.
  std::vector<gert::HostTensor> swapped = SequenceModelInputs();
  std::swap(swapped[0], swapped[1]);
  r = model->Run(swapped);
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid) << r.status();
  // A sequence whose elements the kernel cannot take (int64 into a float
  // sequence) fails the run with the node named, it does not crash.
  std::vector<gert::HostTensor> elems;
  elems.push_back(onnx_test::Int64Host({1}, {1}));
  std::vector<gert::HostTensor> mixed;
  mixed.push_back(Sequence(std::move(elems)));
  mixed.push_back(onnx_test::FloatHost({2}, {6, 7}));
  r = model->Run(mixed);
  EXPECT_FALSE(r.ok());
}

// An old-opset model: whatever the opset conversion leaves of the sequence
// type (the description may say DT_VARIANT or "unknown until run time"), the
// model loads and runs.
TEST(ModelTest, OldOpsetSequenceModelRuns) {
  const onnx::ModelProto onnx = SequenceModel(11);
  StatusOr<std::string> om = rttest::CompileOnnxToOm(onnx);
  ASSERT_TRUE(om.ok()) << om.status();
  StatusOr<Model> model = Model::LoadFromBytes(*om);
  ASSERT_TRUE(model.ok()) << model.status();
  EXPECT_NE(model->inputs()[0].kind, ModelIoKind::kTensor);
  std::vector<gert::HostTensor> in = SequenceModelInputs();
  StatusOr<std::vector<gert::HostTensor>> out = model->Run(in);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectSequenceModelOutputs(*out);
}

// o: optional(float) -> has = OptionalHasElement(o) (bool scalar).
TEST(ModelTest, OptionalInput) {
  onnx::GraphProto g;
  g.set_name("opt");
  *g.add_input() = OptionalValueInfo("o", kOnnxFloat);
  *g.add_node() = onnx_test::MakeNode("OptionalHasElement", {"o"}, {"has"}, "has");
  *g.add_output() = onnx_test::TensorValueInfo("has", 9, {});
  const onnx::ModelProto onnx = onnx_test::MakeModel(g, 17);
  StatusOr<std::string> om = rttest::CompileOnnxToOm(onnx);
  ASSERT_TRUE(om.ok()) << om.status();
  StatusOr<Model> model = Model::LoadFromBytes(*om);
  ASSERT_TRUE(model.ok()) << model.status();
  ASSERT_EQ(model->inputs().size(), 1u);
  EXPECT_EQ(model->inputs()[0].kind, ModelIoKind::kOptional);
  EXPECT_EQ(model->inputs()[0].source_type, "optional(tensor(float))");

  StatusOr<gert::HostTensor> empty = gert::HostTensor::CreateEmptyOptional();
  ASSERT_TRUE(empty.ok());
  StatusOr<std::vector<gert::HostTensor>> out = model->Run(One(std::move(empty).value()));
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 1u);
  ASSERT_EQ((*out)[0].GetDataType(), DT_BOOL);
  EXPECT_FALSE(*(*out)[0].GetData<bool>());

  StatusOr<gert::HostTensor> full =
      gert::HostTensor::CreateOptional(onnx_test::FloatHost({2}, {1, 2}));
  ASSERT_TRUE(full.ok());
  out = model->Run(One(std::move(full).value()));
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_TRUE(*(*out)[0].GetData<bool>());
}

void ExpectChecksumMismatch(const Status& st, const std::string& file) {
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParseFailed) << st;
  EXPECT_NE(st.message().find("checksum mismatch"), std::string::npos) << st;
  EXPECT_NE(st.message().find(file), std::string::npos) << st;
}

// Writes `onnx` compiled as `<name>.om`, loads it with Model::LoadFromFile
// and runs it on an input of `dims` against the reference; then a flip at
// the model record (a structure error but for the checksum, which wins), the
// middle and the last byte each fail the load as a checksum mismatch naming
// the file (BodyCheck::kAtLoad; a small file always).
void ExpectFileLoadsAndFlipsFailTheChecksum(const onnx::ModelProto& onnx,
                                            const std::vector<int64_t>& dims,
                                            const std::string& name, bool large) {
  StatusOr<std::string> om = rttest::CompileOnnxToOm(onnx);
  ASSERT_TRUE(om.ok()) << om.status();
  // Model::LoadFromFile's two checksum paths: 4 MiB and more on a thread.
  if (large) {
    ASSERT_GE(om->size(), size_t{5} << 20);
  } else {
    ASSERT_LT(om->size(), size_t{4} << 20);
  }
  const std::string path = rttest::TempPath(name + ".om");
  ASSERT_TRUE(WriteFileAtomically(path, *om).ok());
  StatusOr<Model> model = Model::LoadFromFile(path);
  ASSERT_TRUE(model.ok()) << model.status();
  std::vector<gert::HostTensor> in = One(rttest::PatternF32(dims, 3));
  StatusOr<std::vector<gert::HostTensor>> out = model->Run(in);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectClose(*out, Reference(onnx, in));
  for (size_t at : {size_t{300}, om->size() / 2, om->size() - 1}) {
    std::string bad = *om;
    bad[at] ^= 0x10;
    const std::string bad_path = rttest::TempPath(name + "_bad.om");
    ASSERT_TRUE(WriteFileAtomically(bad_path, bad).ok());
    ModelLoadOptions at_load;
    at_load.body_check = BodyCheck::kAtLoad;
    StatusOr<Model> m = Model::LoadFromFile(bad_path, at_load);
    ASSERT_FALSE(m.ok()) << at;
    ExpectChecksumMismatch(m.status(), name + "_bad.om");
  }
}

// The default BodyCheck::kBeforeFirstRun on a large file: a flip in the
// weights loads (every structural check passes) and the first Run fails
// with the checksum mismatch before using them, as does every later Run
// and VerifyBody; a flip in the model record still fails the load (the
// structure error waits for the checksum, whose mismatch wins).
TEST(ModelTest, LargeFileChecksumFailsTheFirstRunByDefault) {
  StatusOr<std::string> om = rttest::CompileOnnxToOm(rttest::WideMatMul());
  ASSERT_TRUE(om.ok()) << om.status();
  ASSERT_GE(om->size(), size_t{5} << 20);
  const std::string path = rttest::TempPath("deferred.om");
  std::vector<gert::HostTensor> in = One(rttest::PatternF32({2, 1024}, 3));

  ASSERT_TRUE(WriteFileAtomically(path, *om).ok());
  {
    StatusOr<Model> good = Model::LoadFromFile(path);
    ASSERT_TRUE(good.ok()) << good.status();
    StatusOr<std::vector<gert::HostTensor>> out = good->Run(in);
    ASSERT_TRUE(out.ok()) << out.status();
    ExpectClose(*out, Reference(rttest::WideMatMul(), in));
    EXPECT_TRUE(good->VerifyBody().ok());
  }

  std::string bad = *om;
  bad[om->size() / 2] ^= 0x10;
  ASSERT_TRUE(WriteFileAtomically(path, bad).ok());
  StatusOr<Model> m = Model::LoadFromFile(path);
  ASSERT_TRUE(m.ok()) << m.status();
  for (int run = 0; run < 2; ++run) {
    StatusOr<std::vector<gert::HostTensor>> out = m->Run(in);
    ASSERT_FALSE(out.ok()) << run;
    ExpectChecksumMismatch(out.status(), "deferred.om");
  }
  std::vector<gert::Tensor> in_views = {in[0].tensor()};
  StatusOr<gert::HostTensor> y = gert::HostTensor::Create(DT_FLOAT, {2, 1280});
  ASSERT_TRUE(y.ok());
  std::vector<gert::Tensor> out_views = {y->tensor()};
  ExpectChecksumMismatch(m->Run(in_views, absl::MakeSpan(out_views)), "deferred.om");
  ExpectChecksumMismatch(m->VerifyBody(), "deferred.om");

  bad = *om;
  bad[300] ^= 0x10;
  ASSERT_TRUE(WriteFileAtomically(path, bad).ok());
  StatusOr<Model> broken = Model::LoadFromFile(path);
  ASSERT_FALSE(broken.ok());
  ExpectChecksumMismatch(broken.status(), "deferred.om");
}

// A model dropped right after the load, while its helper thread is still
// hashing, and one moved before its first Run: no hang, no use after free
// (the asan config runs this test too).
TEST(ModelTest, DeferredChecksumSurvivesEarlyDestructionAndMoves) {
  StatusOr<std::string> om = rttest::CompileOnnxToOm(rttest::WideMatMul());
  ASSERT_TRUE(om.ok()) << om.status();
  const std::string path = rttest::TempPath("early.om");
  ASSERT_TRUE(WriteFileAtomically(path, *om).ok());
  for (int i = 0; i < 4; ++i) {
    StatusOr<Model> m = Model::LoadFromFile(path);
    ASSERT_TRUE(m.ok()) << m.status();
  }
  StatusOr<Model> m = Model::LoadFromFile(path);
  ASSERT_TRUE(m.ok()) << m.status();
  Model moved = std::move(*m);
  std::vector<gert::HostTensor> in = One(rttest::PatternF32({2, 1024}, 5));
  StatusOr<std::vector<gert::HostTensor>> out = moved.Run(in);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectClose(*out, Reference(rttest::WideMatMul(), in));
}

// Large files: Model::LoadFromFile hashes them with pread beside the decode
// (not through the mapping) and the weights are used in place.
TEST(ModelTest, LargeFileChecksumReadsTheFile) {
  ExpectFileLoadsAndFlipsFailTheChecksum(rttest::WideMatMul(), {2, 1024}, "wide", /*large=*/true);
}

// Small files: hashed with pread before the decode, the loader given the sum.
TEST(ModelTest, SmallFileChecksumIsReadBeforeTheDecode) {
  ExpectFileLoadsAndFlipsFailTheChecksum(rttest::SmallCnn(), {1, 3, 16, 16}, "small",
                                         /*large=*/false);
}

// x [1, 3] -> Expand to [2, 3] and to [4, 3] (shape constants of one shape,
// different values), each then Relu. In the launch plan the two Expands
// share an op, and so do the two Relus: the static executor's per-op
// verdict memo must key the Expands on where their shape values lie (the
// verdict reads them) and the Relus on their input shapes; reusing either
// verdict wrongly fails the load (declared output shape != inferred).
TEST(ModelTest, SharedPlanOpsWithDifferentContextsLoadAndRun) {
  onnx::GraphProto g;
  g.set_name("shared_ops");
  *g.add_input() = onnx_test::TensorValueInfo("x", kOnnxFloat, {1, 3});
  *g.add_initializer() = onnx_test::Int64Tensor("s2", {2}, {2, 3});
  *g.add_initializer() = onnx_test::Int64Tensor("s4", {2}, {4, 3});
  *g.add_node() = onnx_test::MakeNode("Expand", {"x", "s2"}, {"e2"}, "expand2");
  *g.add_node() = onnx_test::MakeNode("Expand", {"x", "s4"}, {"e4"}, "expand4");
  *g.add_node() = onnx_test::MakeNode("Relu", {"e2"}, {"r2"}, "relu2");
  *g.add_node() = onnx_test::MakeNode("Relu", {"e4"}, {"r4"}, "relu4");
  *g.add_output() = onnx_test::TensorValueInfo("r2", kOnnxFloat, {2, 3});
  *g.add_output() = onnx_test::TensorValueInfo("r4", kOnnxFloat, {4, 3});
  const onnx::ModelProto onnx = onnx_test::MakeModel(g, 13);
  StatusOr<std::string> om = rttest::CompileOnnxToOm(onnx);
  ASSERT_TRUE(om.ok()) << om.status();

  // The plan shares the ops (else this test would not reach the memo).
  StatusOr<OmFileView> view = ParseOmFile(AsBytes(*om));
  ASSERT_TRUE(view.ok()) << view.status();
  const OmModelView& root = view->models[0];
  proto::ModelTaskDef td;
  ASSERT_TRUE(td.ParseFromArray(root.task_info.data(), static_cast<int>(root.task_info.size())));
  ASSERT_TRUE(td.has_plan());
  StatusOr<ModelOpDescs> ops = DecodeLaunchPlanOps(td.plan());
  ASSERT_TRUE(ops.ok()) << ops.status();
  StatusOr<LaunchPlanView> plan = LaunchPlanView::Create(td.plan(), ops->ops.size());
  ASSERT_TRUE(plan.ok()) << plan.status();
  std::map<std::string, std::set<uint32_t>> ops_of_type;
  std::map<std::string, int> tasks_of_type;
  for (size_t t = 0; t < plan->num_tasks(); ++t) {
    const LaunchPlanView::Task task = plan->task(t);
    if (task.type != proto::TASK_KERNEL) continue;
    const std::string type(plan->kind_op_type(task.kind));
    ops_of_type[type].insert(task.op);
    ++tasks_of_type[type];
  }
  ASSERT_EQ(tasks_of_type["Expand"], 2);
  ASSERT_EQ(ops_of_type["Expand"].size(), 1u);
  ASSERT_EQ(tasks_of_type["Relu"], 2);
  ASSERT_EQ(ops_of_type["Relu"].size(), 1u);

  StatusOr<Model> model = Model::LoadFromBytes(*om);
  ASSERT_TRUE(model.ok()) << model.status();
  std::vector<gert::HostTensor> in = One(rttest::PatternF32({1, 3}, 9));
  StatusOr<std::vector<gert::HostTensor>> out = model->Run(in);
  ASSERT_TRUE(out.ok()) << out.status();
  ExpectClose(*out, Reference(onnx, in));
}

// The OM's two forms of a static task list (a launch plan, the default, and
// TaskDefs) load to executors that compute the same bytes.
TEST(ModelTest, LaunchPlanAndTaskDefFormsRunAlike) {
  const std::vector<std::pair<onnx::ModelProto, std::vector<int64_t>>> models = {
      {rttest::SmallCnn(), {1, 3, 16, 16}},
      {rttest::NoAllocNet(), {1, 3, 8, 8}},
      {rttest::Mlp(), {2, 4}}};
  for (const auto& [onnx, dims] : models) {
    StatusOr<ComputeGraphPtr> graph = rttest::ParseOnnx(onnx);
    ASSERT_TRUE(graph.ok()) << graph.status();
    StatusOr<GeRootModelPtr> root = rttest::CompileToRootModel(*graph);
    ASSERT_TRUE(root.ok()) << root.status();
    OmSaveOptions task_defs;
    task_defs.launch_plan = false;
    StatusOr<std::string> planned = SaveOm(**root);
    StatusOr<std::string> plain = SaveOm(**root, task_defs);
    ASSERT_TRUE(planned.ok() && plain.ok());
    ASSERT_NE(*planned, *plain) << onnx.graph().name();
    StatusOr<Model> a = Model::LoadFromBytes(*planned);
    StatusOr<Model> b = Model::LoadFromBytes(*plain);
    ASSERT_TRUE(a.ok()) << a.status();
    ASSERT_TRUE(b.ok()) << b.status();
    EXPECT_EQ(a->arena_bytes(), b->arena_bytes());
    std::vector<gert::HostTensor> in = One(rttest::PatternF32(dims, 5));
    StatusOr<std::vector<gert::HostTensor>> out_a = a->Run(in);
    StatusOr<std::vector<gert::HostTensor>> out_b = b->Run(in);
    ASSERT_TRUE(out_a.ok()) << out_a.status();
    ASSERT_TRUE(out_b.ok()) << out_b.status();
    ASSERT_EQ(out_a->size(), out_b->size());
    for (size_t i = 0; i < out_a->size(); ++i) {
      EXPECT_EQ(rttest::Floats((*out_a)[i].tensor()), rttest::Floats((*out_b)[i].tensor()))
          << onnx.graph().name() << " output " << i;
    }
    ExpectClose(*out_a, Reference(onnx, in));
  }
}

TEST(ModelTest, MissingFile) {
  StatusOr<Model> m = Model::LoadFromFile(rttest::TempPath("does_not_exist.om"));
  EXPECT_EQ(GetErrorCode(m.status()), ErrorCode::kNotFound);
  EXPECT_NE(m.status().message().find("does_not_exist.om"), std::string::npos);
}

}  // namespace
}  // namespace ge
