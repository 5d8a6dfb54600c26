// runtime/api/run_alloc_test.cc
//
// The static executor allocates nothing on its run path: a static model is
// compiled from ONNX, loaded, warmed up, and then Model::Run with
// caller-owned buffers is called with global operator new / delete replaced
// by counting versions (every form). The count must be 0. The models use
// ops whose host kernels allocate nothing per call. ALLOC_TRACE=1 in the
// environment prints the stacks of the first counted allocations.
#include <cstdint>
#include <string>
#include <vector>

#include "compiler/parser/onnx/onnx_test_util.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/testing/alloc_counter.h"
#include "runtime/inc/runtime/model.h"
#include "runtime/testing/runtime_test_util.h"

namespace ge {
namespace {

using CountingScope = ::alloc_counter::AllocCountingScope;

// Caller-owned buffers for every input / output of `model`.
struct Buffers {
  explicit Buffers(const Model& model) {
    for (const ModelIoDesc& d : model.inputs()) {
      in_storage.push_back(rttest::PatternF32(d.dims, 3));
      in.push_back(in_storage.back().tensor());
    }
    for (const ModelIoDesc& d : model.outputs()) {
      out_storage.push_back(rttest::PatternF32(d.dims, 4));
      out.push_back(out_storage.back().tensor());
    }
  }
  std::vector<gert::HostTensor> in_storage, out_storage;
  std::vector<gert::Tensor> in, out;
};

int64_t CountRunAllocations(const onnx::ModelProto& onnx, bool* ok) {
  *ok = false;
  StatusOr<std::string> om = rttest::CompileOnnxToOm(onnx);
  EXPECT_TRUE(om.ok()) << om.status();
  if (!om.ok()) return -1;
  StatusOr<Model> model = Model::LoadFromBytes(*om);
  EXPECT_TRUE(model.ok()) << model.status();
  if (!model.ok()) return -1;
  EXPECT_FALSE(model->is_dynamic());
  Buffers b(*model);
  Status warm = model->Run(b.in, absl::MakeSpan(b.out));  // warm-up
  EXPECT_TRUE(warm.ok()) << warm;
  int64_t count = -1;
  Status st;
  {
    CountingScope scope;
    for (int i = 0; i < 5; ++i) st.Update(model->Run(b.in, absl::MakeSpan(b.out)));
    count = scope.count();
  }
  EXPECT_TRUE(st.ok()) << st;
  *ok = st.ok() && warm.ok();
  return count;
}

TEST(RunAllocTest, CountingWorks) {
  CountingScope scope;
  std::vector<int>* v = new std::vector<int>(3);
  delete v;
  EXPECT_GE(scope.count(), 2);  // the vector and its buffer
}

TEST(RunAllocTest, StaticNetRunAllocatesNothing) {
  bool ok = false;
  EXPECT_EQ(CountRunAllocations(rttest::NoAllocNet(), &ok), 0);
  EXPECT_TRUE(ok);
}

onnx::ModelProto SingleOp(const std::string& op, std::vector<int64_t> xdims,
                          std::vector<std::pair<std::string, std::vector<int64_t>>> weights,
                          std::vector<int64_t> ydims) {
  onnx::GraphProto g;
  g.set_name("single");
  *g.add_input() = onnx_test::TensorValueInfo("x", 1, xdims);
  *g.add_output() = onnx_test::TensorValueInfo("y", 1, ydims);
  std::vector<std::string> ins = {"x"};
  for (auto& w : weights) {
    size_t n = 1;
    for (int64_t d : w.second) n *= d;
    *g.add_initializer() = onnx_test::FloatTensor(w.first, w.second, std::vector<float>(n, 0.5f));
    ins.push_back(w.first);
  }
  onnx::NodeProto node = onnx_test::MakeNode(op, ins, {"y"}, "op");
  if (op == "Conv") onnx_test::AddIntsAttr(&node, "kernel_shape", {3, 3});
  if (op == "MaxPool") onnx_test::AddIntsAttr(&node, "kernel_shape", {2, 2});
  *g.add_node() = node;
  return onnx_test::MakeModel(g, 13);
}

// Each op whose host kernel is allocation-free, alone in a static model.
// (At the time of writing the Add / Sub / Mul, MatMul, Conv, MaxPool and
// Softmax host kernels allocate per call: they are not listed.)
TEST(RunAllocTest, SingleOpModelsAllocateNothing) {
  struct Case {
    std::string op;
    std::vector<int64_t> x;
    std::vector<std::pair<std::string, std::vector<int64_t>>> w;
    std::vector<int64_t> y;
  };
  const std::vector<Case> cases = {
      {"Relu", {2, 8}, {}, {2, 8}},
      {"Sigmoid", {2, 8}, {}, {2, 8}},
      {"Tanh", {2, 8}, {}, {2, 8}},
      {"Gemm", {2, 8}, {{"b", {8, 4}}}, {2, 4}},
      {"GlobalAveragePool", {1, 2, 6, 6}, {}, {1, 2, 1, 1}},
      {"Flatten", {1, 2, 6, 6}, {}, {1, 72}},
  };
  for (const Case& c : cases) {
    bool ok = false;
    EXPECT_EQ(CountRunAllocations(SingleOp(c.op, c.x, c.w, c.y), &ok), 0) << c.op;
    EXPECT_TRUE(ok) << c.op;
  }
}

TEST(RunAllocTest, ErrorPathMayAllocateButRunsStillWork) {
  StatusOr<std::string> om = rttest::CompileOnnxToOm(rttest::Mlp());
  ASSERT_TRUE(om.ok()) << om.status();
  StatusOr<Model> model = Model::LoadFromBytes(*om);
  ASSERT_TRUE(model.ok()) << model.status();
  Buffers b(*model);
  EXPECT_FALSE(model->Run({}, absl::MakeSpan(b.out)).ok());
  EXPECT_TRUE(model->Run(b.in, absl::MakeSpan(b.out)).ok());
}

}  // namespace
}  // namespace ge
