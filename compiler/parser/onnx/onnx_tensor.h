// compiler/parser/onnx/onnx_tensor.h
//
// Conversions between ONNX protobuf values and the AscendIR tensor types:
// element types, TensorProto / SparseTensorProto -> GeTensor, TypeProto ->
// GeTensorDesc, plus the GE layout of string tensors.
//
// Element storage in a GeTensor follows gert::HostTensor (tensor.h): FLOAT16
// and BF16 as uint16_t bits, BOOL as one byte, COMPLEX64 / COMPLEX128 as
// (real, imag) pairs, integers at their width, little-endian. STRING tensors
// use GE's layout (see EncodeStringTensorData).
//
// TensorProto contract
//   * Data from raw_data or the typed field of the element type (float_data,
//     int32_data for 8/16-bit types, bool, float16 and bfloat16 bits,
//     int64_data, uint64_data for UINT32 / UINT64, double_data, string_data;
//     complex values as pairs in float_data / double_data).
//   * The element count must match the dims (ParseFailed naming the tensor,
//     the dims and both counts); negative dims are ParseFailed; overflow is
//     Overflow.
//   * data_location EXTERNAL: "location" is a path relative to the model
//     directory; "offset" / "length" select the bytes (length defaults to the
//     rest of the file). The resolved file must stay inside the model
//     directory (after resolving "..", symlinks): anything else, a missing
//     model directory, a missing file or a short read is an error naming the
//     tensor and the location.
//   * Segmented tensors (TensorProto.segment) are NotSupported.
//
// TypeProto contract
//   * tensor_type: data type from elem_type (0 -> DT_UNDEFINED), shape from
//     the dims: dim_value as is, dim_param or an empty dim -> -1; no shape ->
//     unknown rank (-2). When any dim has a dim_param, the desc carries
//     kAttrDimParams: one string per dim ("" for dims without a name).
//   * sequence_type / optional_type: DT_VARIANT, shape [-1] (a sequence of
//     unknown length / an optional of unknown presence), with kAttrOnnxType
//     naming the ONNX type ("seq(tensor(float))", "optional(seq(tensor(int64)))").
//   * A TypeProto with no value: DT_UNDEFINED, unknown rank.
//   * map / sparse_tensor / opaque types: NotSupported naming the value.
//
// Example
//   ASSIGN_OR_RETURN(GeTensor w, onnx_parser::TensorFromOnnx(init, {model_dir}, "W"));
//   ASSIGN_OR_RETURN(GeTensorDesc d, onnx_parser::DescFromOnnxType(vi.type(), vi.name()));
#ifndef COMPILER_PARSER_ONNX_ONNX_TENSOR_H_
#define COMPILER_PARSER_ONNX_ONNX_TENSOR_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/inc/graph/ge_tensor.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace onnx_parser {

// Desc attribute: the dim_param names of a shape (list of strings, one per dim).
inline constexpr char kAttrDimParams[] = "_dim_params";
// Desc attribute: the ONNX type of a DT_VARIANT value ("seq(tensor(float))").
inline constexpr char kAttrOnnxType[] = "_onnx_type";

// ONNX TensorProto element type -> DataType. DT_UNDEFINED for 0 (UNDEFINED);
// NotSupported for types without a counterpart; ParamInvalid for unknown
// numbers.
StatusOr<DataType> DataTypeFromOnnx(int32_t elem_type);
// DataType -> ONNX element type; NotSupported when ONNX has no such type.
StatusOr<int32_t> DataTypeToOnnx(DataType dtype);
// "float", "int64", ... as ONNX spells element types; "elem_type(<n>)" for unknown.
std::string OnnxElemTypeName(int32_t elem_type);

// A read-only private mapping of a whole file and its descriptor, both
// released with the last owner (the tensors viewing the file hold it).
class MappedFileRegion {
 public:
  // Maps the `size` bytes of `fd`, taking `fd` over (closed on failure too);
  // nullptr when mmap fails. Size 0 maps nothing (data() null).
  static std::shared_ptr<const MappedFileRegion> Map(int fd, size_t size);
  MappedFileRegion(void* addr, size_t size, int fd) : addr_(addr), size_(size), fd_(fd) {}
  MappedFileRegion(const MappedFileRegion&) = delete;
  MappedFileRegion& operator=(const MappedFileRegion&) = delete;
  ~MappedFileRegion();

  const uint8_t* data() const { return static_cast<const uint8_t*>(addr_); }
  size_t size() const { return size_; }
  int fd() const { return fd_; }

 private:
  void* addr_;
  size_t size_;
  int fd_;
};

// External data files mapped once each, for the tensors that view them
// (AlignedBuffer::FileView: no copy of the bytes; the OM writer copies them
// file to file). A file stays mapped and open while a tensor views it.
class ExternalDataFiles {
 public:
  ExternalDataFiles();
  ~ExternalDataFiles();
  ExternalDataFiles(const ExternalDataFiles&) = delete;
  ExternalDataFiles& operator=(const ExternalDataFiles&) = delete;

  // A view of `length` bytes at `offset` of the file at `path` (resolved,
  // and the range checked against its size by the caller). `location` names
  // the file in errors.
  StatusOr<std::shared_ptr<AlignedBuffer>> View(const std::string& path, uint64_t offset,
                                                uint64_t length, absl::string_view location,
                                                absl::string_view what);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

struct TensorLoadContext {
  // Directory of the model file; external data is resolved against it. Empty:
  // external data is an error.
  std::string model_dir;
  // When set, external data (but BOOL, which is normalized) is viewed in
  // place in its mapped file instead of read into memory.
  std::shared_ptr<ExternalDataFiles> files;
};

// A TensorProto as a GeTensor (desc: dims, dtype, FORMAT_ND). `what` names the
// tensor in errors (e.g. "initializer 'W'").
StatusOr<GeTensor> TensorFromOnnx(const onnx::TensorProto& tensor, const TensorLoadContext& ctx,
                                  absl::string_view what);
// TensorFromOnnx for a tensor whose raw_data is held outside the message
// (`raw_data` stands for tensor.raw_data(); e.g. a range of a mapped model
// file). When `owner` is non-null it keeps the bytes alive and the tensor
// views them without a copy if they are AlignedBuffer::kMinViewAlignment
// aligned; when `extent` is non-null too (the bytes are that range of a file
// `owner` keeps open) it views them at any alignment (AlignedBuffer::FileView:
// aligned on first use by a kernel, written file to file by the OM writer).
// BOOL tensors are copied. Same checks as TensorFromOnnx; external-data
// tensors are ParseFailed.
StatusOr<GeTensor> TensorFromOnnxWithRawData(const onnx::TensorProto& tensor,
                                             absl::string_view raw_data,
                                             std::shared_ptr<const void> owner,
                                             absl::string_view what, const FileExtent* extent);
// A SparseTensorProto as a dense GeTensor (values scattered into zeros).
// Indices are [NNZ] linear or [NNZ, rank] coordinates; out-of-range or
// mismatched indices are ParseFailed.
StatusOr<GeTensor> SparseTensorFromOnnx(const onnx::SparseTensorProto& sparse,
                                        const TensorLoadContext& ctx, absl::string_view what);
// Reads an external-data tensor's bytes (see the file comment).
StatusOr<std::string> ReadExternalData(const onnx::TensorProto& tensor,
                                       const TensorLoadContext& ctx, absl::string_view what);

// A TypeProto as a GeTensorDesc (see the file comment). `what` names the value.
StatusOr<GeTensorDesc> DescFromOnnxType(const onnx::TypeProto& type, absl::string_view what);
// "tensor(float)", "seq(tensor(int64))", "optional(...)", "map(...)".
std::string OnnxTypeString(const onnx::TypeProto& type);

// GE's string tensor layout: for n strings, n headers {int64 offset, int64
// length} followed by the bytes of each string plus a terminating '\0';
// offsets count from the start of the data.
std::vector<uint8_t> EncodeStringTensorData(absl::Span<const std::string> strings);
// The inverse; ParseFailed when the data does not hold `count` well-formed
// entries.
StatusOr<std::vector<std::string>> DecodeStringTensorData(absl::Span<const uint8_t> data,
                                                          int64_t count);

}  // namespace onnx_parser
}  // namespace ge

#endif  // COMPILER_PARSER_ONNX_ONNX_TENSOR_H_
