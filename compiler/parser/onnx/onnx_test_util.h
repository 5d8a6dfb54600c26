// compiler/parser/onnx/onnx_test_util.h
//
// Test helpers (testonly) for the ONNX front end: ONNX test-data values as
// gert::HostTensor (TensorProto, SequenceProto, OptionalProto, picked by the
// graph input / output TypeProto), comparison of run results against expected
// values, and small builders for ONNX models in C++.
//
// Comparison: dtype and shape must match; floating types (incl. float16,
// bfloat16, complex parts) pass when |a - e| <= atol + rtol * |e| (NaN equals
// NaN, infinities must match); everything else is exact. Sequences compare
// element by element, optionals by presence then value. The error names the
// path ("output 0[2]") and the first mismatching element.
//
// Example
//   ASSIGN_OR_RETURN(gert::HostTensor x, HostValueFromOnnxBytes(vi.type(), bytes));
//   RETURN_IF_ERROR(CompareHostTensors(actual.tensor(), expected.tensor(), 1e-3, 1e-5, "output
//   0"));
#ifndef COMPILER_PARSER_ONNX_ONNX_TEST_UTIL_H_
#define COMPILER_PARSER_ONNX_ONNX_TEST_UTIL_H_

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"
#include "onnx/onnx-data_pb.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace onnx_test {

StatusOr<gert::HostTensor> HostTensorFromOnnx(const onnx::TensorProto& t);
StatusOr<gert::HostTensor> HostTensorFromSequence(const onnx::SequenceProto& s);
StatusOr<gert::HostTensor> HostTensorFromOptional(const onnx::OptionalProto& o);
// Parses `bytes` as the proto matching `type` (tensor -> TensorProto,
// seq -> SequenceProto, optional -> OptionalProto; no type: TensorProto).
StatusOr<gert::HostTensor> HostValueFromOnnxBytes(const onnx::TypeProto& type,
                                                  absl::string_view bytes);

Status CompareHostTensors(const gert::Tensor& actual, const gert::Tensor& expected, double rtol,
                          double atol, const std::string& path);

StatusOr<std::string> ReadFileBytes(const std::string& path);

// ---- host tensors
// A FLOAT / INT64 host tensor (aborts the test binary on bad arguments).
gert::HostTensor FloatHost(const std::vector<int64_t>& dims, const std::vector<float>& values);
gert::HostTensor Int64Host(const std::vector<int64_t>& dims, const std::vector<int64_t>& values);
gert::HostTensor BoolHost(const std::vector<int64_t>& dims, const std::vector<bool>& values);
std::vector<float> FloatsOf(const gert::HostTensor& t);
std::vector<int64_t> Int64sOf(const gert::HostTensor& t);

// ---- model builders
onnx::ValueInfoProto TensorValueInfo(const std::string& name, int32_t elem_type,
                                     const std::vector<int64_t>& dims);
onnx::TensorProto FloatTensor(const std::string& name, const std::vector<int64_t>& dims,
                              const std::vector<float>& values);
onnx::TensorProto Int64Tensor(const std::string& name, const std::vector<int64_t>& dims,
                              const std::vector<int64_t>& values);
onnx::NodeProto MakeNode(const std::string& op_type, const std::vector<std::string>& inputs,
                         const std::vector<std::string>& outputs, const std::string& name = "");
void AddIntAttr(onnx::NodeProto* n, const std::string& name, int64_t v);
void AddIntsAttr(onnx::NodeProto* n, const std::string& name, const std::vector<int64_t>& v);
void AddFloatAttr(onnx::NodeProto* n, const std::string& name, float v);
void AddStringAttr(onnx::NodeProto* n, const std::string& name, const std::string& v);
void AddGraphAttr(onnx::NodeProto* n, const std::string& name, const onnx::GraphProto& g);
// A model with IR version 8 importing the default domain at `opset`.
onnx::ModelProto MakeModel(const onnx::GraphProto& graph, int64_t opset);
std::string Serialize(const onnx::ModelProto& model);

}  // namespace onnx_test
}  // namespace ge

#endif  // COMPILER_PARSER_ONNX_ONNX_TEST_UTIL_H_
