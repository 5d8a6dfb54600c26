// tools/common/tensor_io.h
//
// Tensor files for the command line tools (om_run, atc tests): ONNX
// TensorProto (.pb) and NumPy (.npy) <-> gert::HostTensor, plus
// deterministic generated inputs.
//
// Contract
//   * .npy: format versions 1.0, 2.0 and 3.0 headers; little-endian ('<'),
//     native ('=') or byte-order-free ('|') descr of b1, i1/i2/i4/i8,
//     u1/u2/u4/u8, f2/f4/f8, c8/c16; C order only (fortran_order True,
//     big-endian data and object arrays are NotSupported); the payload must
//     be exactly shape-size * itemsize bytes (ParseFailed naming both).
//   * .pb: an onnx.TensorProto (raw_data or typed fields, see
//     compiler/parser/onnx/onnx_tensor.h); external data is not allowed.
//   * ReadTensorFile picks the format from the NumPy magic, else TensorProto.
//   * Every error names the file (or `what`) and the offending value.
//   * Writing: TensorProto with raw_data (string tensors: string_data);
//     .npy version 1.0 (for the numeric types NumPy has).
//
// Example
//   ASSIGN_OR_RETURN(gert::HostTensor x, ge::tools::ReadTensorFile("in.npy"));
//   ASSIGN_OR_RETURN(std::string pb, ge::tools::TensorToOnnxBytes(x.tensor(), "output_0"));
#ifndef TOOLS_COMMON_TENSOR_IO_H_
#define TOOLS_COMMON_TENSOR_IO_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ge {
namespace tools {

// NumPy .npy bytes -> tensor. `what` names the source in errors.
StatusOr<gert::HostTensor> ParseNpy(absl::string_view bytes, absl::string_view what);
// Tensor -> .npy (v1.0) bytes; NotSupported for types NumPy lacks (bf16,
// strings, sub-byte types, variants).
StatusOr<std::string> TensorToNpy(const gert::Tensor& tensor);

// Serialized onnx.TensorProto -> tensor.
StatusOr<gert::HostTensor> ParseOnnxTensor(absl::string_view bytes, absl::string_view what);
// Tensor -> serialized onnx.TensorProto named `name`.
StatusOr<std::string> TensorToOnnxBytes(const gert::Tensor& tensor, const std::string& name);

// Reads `path` (NumPy or TensorProto, see the file comment).
StatusOr<gert::HostTensor> ReadTensorFile(const std::string& path);

// Whole-file helpers (IoError / NotFound naming the path).
StatusOr<std::string> ReadFile(const std::string& path);
Status WriteFile(const std::string& path, absl::string_view bytes);

// Deterministic values for a model input: the same (dtype, dims, seed)
// always gives the same tensor. Floats in [-1, 1), integers in [0, 10),
// bools alternate. ParamInvalid for unknown dims, NotSupported for strings /
// variants.
StatusOr<gert::HostTensor> MakeDeterministicTensor(DataType dtype, const std::vector<int64_t>& dims,
                                                   uint64_t seed);

// Element i of a numeric tensor as double (float16 / bf16 decoded); 0 for
// non-numeric types.
double ElementAsDouble(const gert::Tensor& tensor, int64_t i);

}  // namespace tools
}  // namespace ge

#endif  // TOOLS_COMMON_TENSOR_IO_H_
