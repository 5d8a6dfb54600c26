// runtime/testing/runtime_test_util.cc
#include "runtime/testing/runtime_test_util.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "build/model/model_builder.h"
#include "build/om/om_file.h"
#include "compiler/parser/onnx/onnx_parser.h"
#include "compiler/parser/onnx/onnx_test_util.h"

namespace ge {
namespace rttest {
namespace {

using onnx_test::AddIntAttr;
using onnx_test::AddIntsAttr;
using onnx_test::FloatTensor;
using onnx_test::MakeModel;
using onnx_test::MakeNode;
using onnx_test::TensorValueInfo;

constexpr int32_t kOnnxFloat = 1;
constexpr int32_t kOnnxInt64 = 7;

std::vector<float> PatternValues(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t s = seed * 2654435761u + 12345u;
  for (size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    v[i] = static_cast<float>((s >> 8) & 0xFFFF) / 32768.0f - 1.0f;
  }
  return v;
}

onnx::TensorProto Weight(const std::string& name, const std::vector<int64_t>& dims, uint32_t seed,
                         float scale = 0.5f) {
  size_t n = 1;
  for (int64_t d : dims) n *= static_cast<size_t>(d);
  std::vector<float> v = PatternValues(n, seed);
  for (float& f : v) f *= scale;
  return FloatTensor(name, dims, v);
}

}  // namespace

void CheckOk(const Status& status, const std::string& what) {
  if (!status.ok()) {
    std::fprintf(stderr, "%s: %s\n", what.c_str(), std::string(status.message()).c_str());
    std::abort();
  }
}

onnx::ModelProto SmallCnn(int64_t n, int64_t h, int64_t w) {
  onnx::GraphProto g;
  g.set_name("small_cnn");
  *g.add_input() = TensorValueInfo("x", kOnnxFloat, {n, 3, h, w});
  *g.add_output() = TensorValueInfo("y", kOnnxFloat, {n, 10});
  *g.add_initializer() = Weight("w1", {8, 3, 3, 3}, 11);
  *g.add_initializer() = Weight("b1", {8}, 12);
  *g.add_initializer() = Weight("w2", {8, 8, 3, 3}, 13, 0.2f);
  *g.add_initializer() = Weight("b2", {8}, 14);
  *g.add_initializer() = Weight("fc_w", {8, 10}, 15);
  *g.add_initializer() = Weight("fc_b", {10}, 16);
  onnx::NodeProto c1 = MakeNode("Conv", {"x", "w1", "b1"}, {"c1"}, "conv1");
  AddIntsAttr(&c1, "kernel_shape", {3, 3});
  AddIntsAttr(&c1, "pads", {1, 1, 1, 1});
  *g.add_node() = c1;
  *g.add_node() = MakeNode("Relu", {"c1"}, {"r1"}, "relu1");
  onnx::NodeProto c2 = MakeNode("Conv", {"r1", "w2", "b2"}, {"c2"}, "conv2");
  AddIntsAttr(&c2, "kernel_shape", {3, 3});
  AddIntsAttr(&c2, "pads", {1, 1, 1, 1});
  AddIntsAttr(&c2, "strides", {2, 2});
  *g.add_node() = c2;
  *g.add_node() = MakeNode("Relu", {"c2"}, {"r2"}, "relu2");
  *g.add_node() = MakeNode("GlobalAveragePool", {"r2"}, {"p"}, "gap");
  onnx::NodeProto fl = MakeNode("Flatten", {"p"}, {"f"}, "flatten");
  AddIntAttr(&fl, "axis", 1);
  *g.add_node() = fl;
  *g.add_node() = MakeNode("Gemm", {"f", "fc_w", "fc_b"}, {"y"}, "fc");
  return MakeModel(g, 13);
}

onnx::ModelProto ConvWithRuntimeWeights() {
  onnx::GraphProto g;
  g.set_name("conv_runtime_w");
  *g.add_input() = TensorValueInfo("x", kOnnxFloat, {1, 4, 8, 8});
  *g.add_input() = TensorValueInfo("w", kOnnxFloat, {4, 4, 3, 3});
  *g.add_output() = TensorValueInfo("y", kOnnxFloat, {1, 4, 8, 8});
  *g.add_initializer() = Weight("w1", {4, 4, 3, 3}, 51);
  onnx::NodeProto c1 = MakeNode("Conv", {"x", "w1"}, {"c1"}, "conv1");
  AddIntsAttr(&c1, "kernel_shape", {3, 3});
  AddIntsAttr(&c1, "pads", {1, 1, 1, 1});
  *g.add_node() = c1;
  *g.add_node() = MakeNode("Relu", {"c1"}, {"r1"}, "relu1");
  onnx::NodeProto c2 = MakeNode("Conv", {"r1", "w"}, {"y"}, "conv2");
  AddIntsAttr(&c2, "kernel_shape", {3, 3});
  AddIntsAttr(&c2, "pads", {1, 1, 1, 1});
  *g.add_node() = c2;
  return MakeModel(g, 13);
}

onnx::ModelProto Mlp() {
  onnx::GraphProto g;
  g.set_name("mlp");
  *g.add_input() = TensorValueInfo("x", kOnnxFloat, {2, 4});
  *g.add_output() = TensorValueInfo("y", kOnnxFloat, {2, 3});
  *g.add_output() = TensorValueInfo("x1", kOnnxFloat, {2, 4});
  *g.add_output() = TensorValueInfo("x", kOnnxFloat, {2, 4});
  *g.add_initializer() = Weight("w", {4, 3}, 21);
  *g.add_initializer() = Weight("b", {3}, 22);
  *g.add_initializer() = FloatTensor("one", {}, {1.0f});
  *g.add_node() = MakeNode("MatMul", {"x", "w"}, {"m"}, "matmul");
  *g.add_node() = MakeNode("Add", {"m", "b"}, {"a"}, "add");
  *g.add_node() = MakeNode("Relu", {"a"}, {"y"}, "relu");
  *g.add_node() = MakeNode("Add", {"x", "one"}, {"x1"}, "add_one");
  return MakeModel(g, 13);
}

onnx::ModelProto WideMatMul() {
  onnx::GraphProto g;
  g.set_name("wide_matmul");
  *g.add_input() = TensorValueInfo("x", kOnnxFloat, {2, 1024});
  *g.add_output() = TensorValueInfo("y", kOnnxFloat, {2, 1280});
  *g.add_initializer() = Weight("w", {1024, 1280}, 41);
  *g.add_node() = MakeNode("MatMul", {"x", "w"}, {"y"}, "matmul");
  return MakeModel(g, 13);
}

onnx::ModelProto NoAllocNet() {
  onnx::GraphProto g;
  g.set_name("no_alloc_net");
  *g.add_input() = TensorValueInfo("x", kOnnxFloat, {1, 3, 8, 8});
  *g.add_output() = TensorValueInfo("y", kOnnxFloat, {1, 4});
  *g.add_initializer() = Weight("w1", {3, 16}, 31);
  *g.add_initializer() = Weight("b1", {16}, 32);
  *g.add_initializer() = Weight("w2", {16, 4}, 33);
  *g.add_initializer() = Weight("b2", {4}, 34);
  *g.add_node() = MakeNode("GlobalAveragePool", {"x"}, {"p"}, "gap");
  *g.add_node() = MakeNode("Flatten", {"p"}, {"f"}, "flatten");
  *g.add_node() = MakeNode("Gemm", {"f", "w1", "b1"}, {"g1"}, "fc1");
  *g.add_node() = MakeNode("Relu", {"g1"}, {"r"}, "relu");
  *g.add_node() = MakeNode("Gemm", {"r", "w2", "b2"}, {"g2"}, "fc2");
  *g.add_node() = MakeNode("Tanh", {"g2"}, {"t"}, "tanh");
  *g.add_node() = MakeNode("Sigmoid", {"t"}, {"y"}, "sigmoid");
  return MakeModel(g, 13);
}

onnx::ModelProto DynamicBatch() {
  onnx::GraphProto g;
  g.set_name("dynamic_batch");
  *g.add_input() = TensorValueInfo("x", kOnnxFloat, {-1, 4});
  *g.add_output() = TensorValueInfo("y", kOnnxFloat, {-1});
  *g.add_initializer() = onnx_test::Int64Tensor("axes", {1}, {1});
  *g.add_node() = MakeNode("Relu", {"x"}, {"r"}, "relu");
  onnx::NodeProto rs = MakeNode("ReduceSum", {"r", "axes"}, {"y"}, "sum");
  AddIntAttr(&rs, "keepdims", 0);
  *g.add_node() = rs;
  return MakeModel(g, 13);
}

onnx::ModelProto NonZeroModel() {
  onnx::GraphProto g;
  g.set_name("nonzero");
  *g.add_input() = TensorValueInfo("x", kOnnxFloat, {6});
  *g.add_output() = TensorValueInfo("y", kOnnxInt64, {1, -1});
  *g.add_node() = MakeNode("Relu", {"x"}, {"r"}, "relu");
  *g.add_node() = MakeNode("NonZero", {"r"}, {"y"}, "nonzero");
  return MakeModel(g, 13);
}

StatusOr<ComputeGraphPtr> ParseOnnx(const onnx::ModelProto& model) {
  OnnxModelParser parser;
  return parser.ParseBytes(onnx_test::Serialize(model));
}

gert::HostTensor PatternF32(const std::vector<int64_t>& dims, uint32_t seed) {
  StatusOr<gert::Shape> shape = gert::Shape::FromDims(dims);
  CheckOk(shape.status(), "PatternF32 shape");
  StatusOr<gert::HostTensor> t = gert::HostTensor::Create(DT_FLOAT, *shape);
  CheckOk(t.status(), "PatternF32");
  const std::vector<float> v = PatternValues(static_cast<size_t>(shape->GetShapeSize()), seed);
  std::copy(v.begin(), v.end(), t->MutableData<float>());
  return std::move(t).value();
}

std::vector<float> Floats(const gert::Tensor& t) {
  const int64_t n = t.GetShapeSize();
  const float* p = t.GetData<float>();
  return n <= 0 || p == nullptr ? std::vector<float>() : std::vector<float>(p, p + n);
}

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

}  // namespace rttest
}  // namespace ge
