// metadef/register/inc/gert/tensor.h
//
// Compact run-time tensor structs in the style of gert (seed 003): what infer
// shape, tiling and kernels see. No heap allocation: a Shape holds its dims
// inline (at most kMaxDimNum), a Tensor is a view (shape, dtype, format, data
// pointer, byte size). HostTensor owns memory for a Tensor (reference kernels,
// the interpreter, constant folding).
//
// Element storage by data type: FLOAT float, DOUBLE double, FLOAT16 / BF16
// uint16_t bits, INT*/UINT* the C++ integer of that width, BOOL bool (1 byte),
// COMPLEX64 std::complex<float>, COMPLEX128 std::complex<double>, STRING
// std::string objects (HostTensor constructs and destroys them). Sub-byte
// types are packed (bits rounded up to bytes).
//
// Example
//   gert::Shape s{2, 3};
//   ASSIGN_OR_RETURN(gert::HostTensor t, gert::HostTensor::Create(ge::DT_FLOAT, s));
//   float* p = t.MutableData<float>();   // 6 zero-initialised floats
#ifndef METADEF_REGISTER_INC_GERT_TENSOR_H_
#define METADEF_REGISTER_INC_GERT_TENSOR_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"

namespace gert {

constexpr size_t kMaxDimNum = 25;

class Shape {
 public:
  Shape() = default;  // scalar
  Shape(std::initializer_list<int64_t> dims);
  // Fails (ParamInvalid) when dims.size() > kMaxDimNum.
  static ge::StatusOr<Shape> FromDims(absl::Span<const int64_t> dims);

  size_t GetDimNum() const { return dim_num_; }
  int64_t GetDim(size_t i) const { return i < dim_num_ ? dims_[i] : 0; }
  void SetDim(size_t i, int64_t v) {
    if (i < dim_num_) dims_[i] = v;
  }
  // Ignored beyond kMaxDimNum (callers building from user data use FromDims
  // or check CanAppend()).
  Shape& AppendDim(int64_t v) {
    if (dim_num_ < kMaxDimNum) dims_[dim_num_++] = v;
    return *this;
  }
  bool CanAppend() const { return dim_num_ < kMaxDimNum; }
  void SetDimNum(size_t n) { dim_num_ = n <= kMaxDimNum ? n : kMaxDimNum; }
  void SetScalar() { dim_num_ = 0; }
  bool IsScalar() const { return dim_num_ == 0; }
  // Unknown rank is the single dim -2, as in ge::Shape.
  bool IsUnknownRank() const { return dim_num_ == 1 && dims_[0] == ge::UNKNOWN_RANK; }
  bool IsUnknownShape() const;  // any dim < 0
  // Element count: 1 for a scalar; -1 if any dim is unknown or on overflow.
  int64_t GetShapeSize() const;
  absl::Span<const int64_t> GetDims() const { return {dims_, dim_num_}; }
  std::vector<int64_t> ToVector() const { return {dims_, dims_ + dim_num_}; }
  std::string ToString() const;  // "[2,3]"

  bool operator==(const Shape& o) const;
  bool operator!=(const Shape& o) const { return !(*this == o); }

 private:
  size_t dim_num_ = 0;
  int64_t dims_[kMaxDimNum] = {};
};

// {min, max} per dim; max -1 means unbounded.
using ShapeRange = std::vector<std::pair<int64_t, int64_t>>;

// Origin (logical) and storage (physical, e.g. NC1HWC0) shapes.
struct StorageShape {
  Shape origin;
  Shape storage;
};

// A non-owning tensor view.
class Tensor {
 public:
  Tensor() = default;
  Tensor(const Shape& shape, ge::DataType dtype, void* data, size_t size_bytes,
         ge::Format format = ge::FORMAT_ND)
      : shape_(shape), dtype_(dtype), format_(format), data_(data), size_(size_bytes) {}

  const Shape& GetShape() const { return shape_; }
  Shape& MutableShape() { return shape_; }
  void SetShape(const Shape& s) { shape_ = s; }
  ge::DataType GetDataType() const { return dtype_; }
  void SetDataType(ge::DataType dt) { dtype_ = dt; }
  ge::Format GetFormat() const { return format_; }
  void SetFormat(ge::Format f) { format_ = f; }
  int64_t GetShapeSize() const { return shape_.GetShapeSize(); }

  const void* GetAddr() const { return data_; }
  void* GetAddr() { return data_; }
  size_t GetSize() const { return size_; }  // bytes available at GetAddr()
  void SetData(void* data, size_t size_bytes) {
    data_ = data;
    size_ = size_bytes;
  }
  template <typename T>
  const T* GetData() const { return static_cast<const T*>(data_); }
  template <typename T>
  T* GetData() { return static_cast<T*>(data_); }

 private:
  Shape shape_;
  ge::DataType dtype_ = ge::DT_UNDEFINED;
  ge::Format format_ = ge::FORMAT_ND;
  void* data_ = nullptr;
  size_t size_ = 0;
};

// Bytes needed for `count` elements of `dtype` in host storage (see the file
// comment; STRING counts sizeof(std::string) per element). Errors for
// UNDEFINED / RESOURCE / VARIANT, negative counts and overflow.
ge::StatusOr<size_t> HostStorageBytes(ge::DataType dtype, int64_t count);

// Owns 64-byte aligned memory for one tensor; move-only. Strings are
// constructed (empty) on creation and destroyed with the tensor.
class HostTensor {
 public:
  HostTensor() = default;
  // Zero-filled. Errors for unknown dims, unsupported dtypes, overflow.
  static ge::StatusOr<HostTensor> Create(ge::DataType dtype, const Shape& shape,
                                         ge::Format format = ge::FORMAT_ND);
  // Copies `bytes` (must equal the storage size; not for STRING).
  static ge::StatusOr<HostTensor> CreateFrom(ge::DataType dtype, const Shape& shape,
                                             const void* bytes, size_t size);
  HostTensor(HostTensor&& other) noexcept;
  HostTensor& operator=(HostTensor&& other) noexcept;
  HostTensor(const HostTensor&) = delete;
  HostTensor& operator=(const HostTensor&) = delete;
  ~HostTensor();

  // Deep copy (strings included).
  ge::StatusOr<HostTensor> Clone() const;

  const Tensor& tensor() const { return tensor_; }
  Tensor& tensor() { return tensor_; }
  Tensor* MutableTensor() { return &tensor_; }
  const Shape& GetShape() const { return tensor_.GetShape(); }
  ge::DataType GetDataType() const { return tensor_.GetDataType(); }
  template <typename T>
  const T* GetData() const { return tensor_.GetData<T>(); }
  template <typename T>
  T* MutableData() { return tensor_.GetData<T>(); }

 private:
  void Release();
  Tensor tensor_;
  void* owned_ = nullptr;
  int64_t string_count_ = 0;  // strings constructed in owned_
};

}  // namespace gert

#endif  // METADEF_REGISTER_INC_GERT_TENSOR_H_
