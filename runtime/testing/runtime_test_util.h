// runtime/testing/runtime_test_util.h
//
// Test helpers (testonly) for the runtime: small ONNX models built in C++,
// the user's pipeline (parse -> CompilerStages -> ModelBuilder -> SaveOm),
// deterministic input tensors and temp paths.
//
// Example
//   onnx::ModelProto onnx = rttest::SmallCnn();
//   ASSIGN_OR_RETURN(std::string om, rttest::CompileOnnxToOm(onnx));
//   ASSIGN_OR_RETURN(ge::Model model, ge::Model::LoadFromBytes(om));
#ifndef RUNTIME_TESTING_RUNTIME_TEST_UTIL_H_
#define RUNTIME_TESTING_RUNTIME_TEST_UTIL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "build/model/ge_model.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace rttest {

// ---- models (opset 13, deterministic weights)
// x[n,3,h,w] -> Conv(8, 3x3, pad 1) -> Relu -> Conv(8, 3x3, pad 1, stride 2)
// -> Relu -> GlobalAveragePool -> Flatten -> Gemm(10) -> y[n,10].
onnx::ModelProto SmallCnn(int64_t n = 1, int64_t h = 16, int64_t w = 16);
// x[1,4,8,8] -> Conv(w1, 3x3, pad 1) -> Relu -> Conv(w, 3x3, pad 1) -> y,
// w[4,4,3,3] a second graph input: two convolutions with equal attributes,
// the first channels-last in the compute engine's chain, the second plain
// (its weights are not constant).
onnx::ModelProto ConvWithRuntimeWeights();
// x[2,4] -> MatMul(w[4,3]) -> Add(b[3]) -> Relu -> y[2,3]; also x + 1 as a
// second output, and x itself as a third (a model output that is an input).
onnx::ModelProto Mlp();
// Ops whose host kernels allocate nothing per call:
// x[1,3,8,8] -> GlobalAveragePool -> Flatten -> Gemm(16) -> Relu -> Gemm(4)
// -> Tanh -> Sigmoid -> y[1,4].
onnx::ModelProto NoAllocNet();
// x[2,1024] MatMul w[1024,1280]: an OM file of more than 5 MiB (the loader
// hashes files of 4 MiB or more on a helper thread).
onnx::ModelProto WideMatMul();
// x[?, 4] (unknown batch) -> Relu -> ReduceSum(axis 1, keepdims 0) -> y[?]:
// compiled as a dynamic model.
onnx::ModelProto DynamicBatch();
// x[6] -> NonZero(Relu(x)) -> y[1, ?]: data-dependent, a dynamic model.
onnx::ModelProto NonZeroModel();

// ---- the user's pipeline
StatusOr<ComputeGraphPtr> ParseOnnx(const onnx::ModelProto& model);
// The compile stages through the GraphManager (no model build).
StatusOr<ComputeGraphPtr> CompileGraph(const ComputeGraphPtr& graph);
// Stages + model build through the GraphManager.
StatusOr<GeRootModelPtr> CompileToRootModel(const ComputeGraphPtr& graph);
// Everything up to the OM bytes.
StatusOr<std::string> CompileOnnxToOm(const onnx::ModelProto& model);

// ---- tensors and files
// A FLOAT tensor with a deterministic pattern (values in [-1, 1)).
gert::HostTensor PatternF32(const std::vector<int64_t>& dims, uint32_t seed = 1);
std::vector<float> Floats(const gert::Tensor& t);
// $TEST_TMPDIR/<name> (or /tmp/<name>).
std::string TempPath(const std::string& name);
// Aborts the test binary with the message when !status.ok().
void CheckOk(const Status& status, const std::string& what);

}  // namespace rttest
}  // namespace ge

#endif  // RUNTIME_TESTING_RUNTIME_TEST_UTIL_H_
