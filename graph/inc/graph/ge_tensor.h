// graph/inc/graph/ge_tensor.h
//
// GeShape, GeTensorDesc and GeTensor: the tensor metadata of the AscendIR
// graph (seed 000, section 6).
//
// GeShape is a compact Shape (dims inline up to rank 4, no heap for the common
// case) with the same conventions as ge::Shape: -1 is an unknown dim, {-2} is
// an unknown rank, rank 0 is a scalar.
//
// GeTensorDesc carries the fields of the base ge::TensorDesc (shape, data
// type, format, origin shape / format / data type, real dim count, shape
// range and the extended meta: size, weight size, reuse input, data offset,
// device type) plus a name, the input/output tensor flags and an attribute
// store. It is stored compactly (80 bytes): the hot fields inline, the
// rarely set ones in a side structure allocated on first write, and the
// origin shape only once it differs from the shape (MutableShape() /
// SetShape() pin the current shape as origin first). Convert with
// ToTensorDesc() / GeTensorDesc(const TensorDesc&); GetSize() is the
// format-aware aligned byte size computed by TensorDesc::GetSize().
// Origin shape / format / data type start equal to the constructor's shape /
// format / data type, as in TensorDesc.
//
// GeTensor is a GeTensorDesc plus data bytes (64-byte aligned). Copies share
// the bytes until one side writes (copy-on-write): MutableData() unshares.
// Copies are therefore cheap and independent.
//
// Example
//   GeTensorDesc desc(GeShape({1, 3, 224, 224}), FORMAT_NCHW, DT_FLOAT);
//   ASSIGN_OR_RETURN(int64_t bytes, desc.GetSize());   // 602112
//   GeTensor weight(desc, std::vector<uint8_t>(bytes));
#ifndef GRAPH_INC_GRAPH_GE_TENSOR_H_
#define GRAPH_INC_GRAPH_GE_TENSOR_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"
#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/shape.h"
#include "metadef/inc/external/graph/tensor_desc.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {

class GeShape {
 public:
  using DimVector = absl::InlinedVector<int64_t, 4>;

  GeShape() = default;  // scalar
  // Unchecked, like Shape(std::vector): dims are taken as given.
  explicit GeShape(const std::vector<int64_t>& dims) : dims_(dims.begin(), dims.end()) {}
  GeShape(std::initializer_list<int64_t> dims) : dims_(dims) {}
  explicit GeShape(const Shape& shape);

  // 0 for a scalar and for an unknown rank.
  size_t GetDimNum() const;
  // The dim at idx; 0 when idx >= rank (GE convention; use GetDimNum()).
  int64_t GetDim(size_t idx) const { return idx < dims_.size() ? dims_[idx] : 0; }
  // OutOfRange past the rank; ParamInvalid for a value < -2 or for -2 (use
  // SetIsUnknownDimNum for an unknown rank).
  Status SetDim(size_t idx, int64_t value);
  // A copy of the dims (GE returns by value too).
  std::vector<int64_t> GetDims() const { return std::vector<int64_t>(dims_.begin(), dims_.end()); }
  absl::Span<const int64_t> GetDimsSpan() const { return absl::MakeConstSpan(dims_); }
  void SetDims(const std::vector<int64_t>& dims) { dims_.assign(dims.begin(), dims.end()); }
  void AppendDim(int64_t dim) { dims_.push_back(dim); }

  bool IsScalar() const { return dims_.empty(); }
  bool IsUnknownDimNum() const { return dims_.size() == 1 && dims_[0] == UNKNOWN_RANK; }
  void SetIsUnknownDimNum() { dims_.assign(1, UNKNOWN_RANK); }
  bool IsUnknownShape() const;

  // Product of the dims (1 for a scalar); errors as Shape::GetShapeSize.
  StatusOr<int64_t> GetShapeSize() const;

  Shape ToShape() const { return Shape(GetDims()); }
  std::string ToString() const;  // "[1,-1,224]", "[]" for a scalar

  bool operator==(const GeShape& other) const { return dims_ == other.dims_; }
  bool operator!=(const GeShape& other) const { return !(*this == other); }

 private:
  DimVector dims_;
};

class GeTensorDesc : public AttrHolder {
 public:
  using ShapeRange = std::vector<std::pair<int64_t, int64_t>>;

  GeTensorDesc();
  explicit GeTensorDesc(const GeShape& shape, Format format = FORMAT_ND,
                        DataType data_type = DT_FLOAT);
  explicit GeTensorDesc(const TensorDesc& desc);
  GeTensorDesc(const GeTensorDesc& other);
  GeTensorDesc(GeTensorDesc&& other) noexcept;
  GeTensorDesc& operator=(const GeTensorDesc& other);
  GeTensorDesc& operator=(GeTensorDesc&& other) noexcept;
  ~GeTensorDesc();

  const GeShape& GetShape() const { return shape_; }
  GeShape& MutableShape() {
    PinOriginShape();
    return shape_;
  }
  void SetShape(const GeShape& shape) {
    if (origin_shape_ == nullptr && shape != shape_) PinOriginShape();
    shape_ = shape;
  }
  DataType GetDataType() const { return data_type_; }
  void SetDataType(DataType dt) { data_type_ = dt; }
  Format GetFormat() const { return format_; }
  void SetFormat(Format format) { format_ = format; }

  const GeShape& GetOriginShape() const {
    return origin_shape_ == nullptr ? shape_ : *origin_shape_;
  }
  void SetOriginShape(const GeShape& shape);
  DataType GetOriginDataType() const { return origin_data_type_; }
  void SetOriginDataType(DataType dt) { origin_data_type_ = dt; }
  Format GetOriginFormat() const { return origin_format_; }
  void SetOriginFormat(Format format) { origin_format_ = format; }

  // Tensor name (GE keeps one per desc; not the port name of the OpDesc).
  const std::string& GetName() const;
  void SetName(const std::string& name);

  // Shape ranges (one {min, max} per dim, max -1 = unbounded). Set checks
  // the count against the rank, min >= 0 and max >= min (unless -1).
  Status SetShapeRange(ShapeRange range);
  const ShapeRange& GetShapeRange() const;
  Status SetOriginShapeRange(ShapeRange range);
  const ShapeRange& GetOriginShapeRange() const;

  // Logical rank; -1 until set, then GetRealDimCnt() is the shape's rank.
  int64_t GetRealDimCnt() const;
  void SetRealDimCnt(int64_t cnt);
  // True when a real dim count (>= 0) was set, even one equal to the rank
  // (GetRealDimCnt() cannot tell those apart). Serialization writes the
  // field exactly when this is true.
  bool HasRealDimCnt() const;

  // Extended meta (memory planning, weights).
  int64_t GetSizeMeta() const;
  void SetSizeMeta(int64_t size);
  int64_t GetWeightSize() const;
  void SetWeightSize(int64_t size);
  bool GetReuseInput() const;
  void SetReuseInput(bool reuse);
  int64_t GetReuseInputIndex() const;
  void SetReuseInputIndex(int64_t index);
  int64_t GetDataOffset() const;
  void SetDataOffset(int64_t offset);
  DeviceType GetDeviceType() const;
  void SetDeviceType(DeviceType type);
  bool IsInputTensor() const;
  void SetInputTensor(bool is_input);
  bool IsOutputTensor() const;
  void SetOutputTensor(bool is_output);
  // True when any field of the extended meta above (name, shape ranges, real
  // dim count, size, weight size, reuse input / index, data offset, device
  // type, input / output flags) differs from its default.
  bool HasExtMeta() const;

  // A desc is invalid when it marks an absent optional input: data type
  // DT_UNDEFINED and format FORMAT_RESERVED.
  bool IsValid() const { return !(data_type_ == DT_UNDEFINED && format_ == FORMAT_RESERVED); }

  // Conversion to the base TensorDesc (every field except name, flags and
  // attributes) and its format-aware sizes.
  TensorDesc ToTensorDesc() const;
  StatusOr<int64_t> GetDataSize() const { return ToTensorDesc().GetDataSize(); }
  StatusOr<int64_t> GetSize() const { return ToTensorDesc().GetSize(); }

  // Field-wise, including attributes.
  bool operator==(const GeTensorDesc& other) const;
  bool operator!=(const GeTensorDesc& other) const { return !(*this == other); }

  std::string DebugString() const;  // "DT_FLOAT ND [1,2]"

 private:
  struct Ext;
  Ext& MutableExt();
  // Gives the origin shape its own storage (it equals the shape until then).
  void PinOriginShape() {
    if (origin_shape_ == nullptr) origin_shape_ = std::make_unique<GeShape>(shape_);
  }

  GeShape shape_;
  std::unique_ptr<GeShape> origin_shape_;  // null: the origin shape is shape_
  DataType data_type_ = DT_FLOAT;
  Format format_ = FORMAT_ND;
  DataType origin_data_type_ = DT_FLOAT;
  Format origin_format_ = FORMAT_ND;
  std::unique_ptr<Ext> ext_;
};

// Where a view's bytes come from when they are a file's bytes: [offset,
// offset + size) of `fd`, kept open by the view's owner. A writer may copy
// them file to file in the kernel (copy_file_range) without reading them.
struct FileExtent {
  int fd = -1;
  uint64_t offset = 0;
};

// Immutable-size byte buffer (the data of a GeTensor). Either owned (64-byte
// aligned, allocated here) or a read-only view of bytes kept alive by an owner
// (no copy; e.g. the raw_data string of a parsed ONNX initializer or a mapped
// file). data() is at least kMinViewAlignment aligned, so kernels may read any
// fixed-size element type from it. bytes() are the same bytes at whatever
// alignment they have, for byte-wise readers (hashing, comparing, writing).
class AlignedBuffer {
 public:
  static constexpr size_t kAlignment = 64;
  static constexpr size_t kMinViewAlignment = 16;
  AlignedBuffer() = default;
  explicit AlignedBuffer(size_t size);  // zero-filled
  AlignedBuffer(const uint8_t* data, size_t size);
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  ~AlignedBuffer();

  // A view of [data, data + size) that keeps `owner` alive. Returns nullptr
  // when `data` is not kMinViewAlignment aligned (the caller then copies).
  static std::shared_ptr<AlignedBuffer> View(const uint8_t* data, size_t size,
                                             std::shared_ptr<const void> owner);
  // A view of mapped file bytes at any alignment, which are the bytes of
  // `extent` in the file. When `data` is less than kMinViewAlignment aligned,
  // the first data() call makes an aligned copy (once; thread-safe) that
  // later calls return; bytes() and file_extent() never copy. So a compiler
  // that only hashes, compares and writes the weights never copies them.
  // nullptr when `owner` is null or `extent.fd` is negative.
  static std::shared_ptr<AlignedBuffer> FileView(const uint8_t* data, size_t size,
                                                 std::shared_ptr<const void> owner,
                                                 FileExtent extent);
  // Takes `bytes` without copying when its storage is suitably aligned (heap
  // strings from malloc are 16-byte aligned); copies otherwise.
  static std::shared_ptr<AlignedBuffer> Adopt(std::string&& bytes);

  const uint8_t* data() const { return file_ == nullptr ? data_ : FileData(); }
  absl::Span<const uint8_t> bytes() const { return absl::Span<const uint8_t>(data_, size_); }
  // Writable bytes of an owned buffer; nullptr for a view.
  uint8_t* mutable_data() { return owner_ == nullptr ? data_ : nullptr; }
  size_t size() const { return size_; }
  bool is_view() const { return owner_ != nullptr; }
  // The file bytes a FileView mirrors; nullptr for other buffers.
  const FileExtent* file_extent() const;
  // False for a FileView whose data() would make (or has made) an aligned
  // copy: its bytes() are not kMinViewAlignment aligned.
  bool data_in_place() const;
  // True once data() has made a FileView's aligned copy.
  bool has_copy() const;

 private:
  struct FileState;  // the extent, and the aligned copy made on first use
  const uint8_t* FileData() const;

  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  std::shared_ptr<const void> owner_;  // non-null: a view, data_ not ours
  std::unique_ptr<FileState> file_;    // non-null: a FileView
};

class GeTensor {
 public:
  GeTensor() = default;
  explicit GeTensor(const GeTensorDesc& desc) : desc_(desc) {}
  GeTensor(const GeTensorDesc& desc, const std::vector<uint8_t>& data);
  GeTensor(const GeTensorDesc& desc, const uint8_t* data, size_t size);

  const GeTensorDesc& GetTensorDesc() const { return desc_; }
  GeTensorDesc& MutableTensorDesc() { return desc_; }
  void SetTensorDesc(const GeTensorDesc& desc) { desc_ = desc; }

  // The data bytes, at least AlignedBuffer::kMinViewAlignment aligned (a
  // FileView of unaligned file bytes is copied on the first call).
  absl::Span<const uint8_t> GetData() const;
  // The same bytes at any alignment, never copied: for byte-wise readers
  // (hashing, comparing, serializing, writing).
  absl::Span<const uint8_t> GetBytes() const;
  size_t GetDataSize() const { return data_ == nullptr ? 0 : data_->size(); }
  // Writable bytes; unshares them first if another copy shares them.
  // nullptr when the tensor has no data.
  uint8_t* MutableData();
  void SetData(const std::vector<uint8_t>& data) { SetData(data.data(), data.size()); }
  void SetData(const uint8_t* data, size_t size);
  // Shares `buffer` (no copy); MutableData() copies first when it is a view
  // or shared.
  void SetData(std::shared_ptr<AlignedBuffer> buffer) { data_ = std::move(buffer); }
  // Takes the bytes of `bytes` without copying when possible.
  void SetData(std::string&& bytes) { data_ = AlignedBuffer::Adopt(std::move(bytes)); }
  const std::shared_ptr<AlignedBuffer>& GetBuffer() const { return data_; }
  void ClearData() { data_.reset(); }
  // True when this and `other` share the same bytes (copy-on-write not yet
  // triggered).
  bool SharesDataWith(const GeTensor& other) const {
    return data_ != nullptr && data_ == other.data_;
  }

  // Desc and bytes equal.
  bool operator==(const GeTensor& other) const;
  bool operator!=(const GeTensor& other) const { return !(*this == other); }

 private:
  GeTensorDesc desc_;
  std::shared_ptr<AlignedBuffer> data_;
};

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_GE_TENSOR_H_
