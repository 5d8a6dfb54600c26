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
// std::string objects (HostTensor constructs and destroys them), VARIANT
// gert::HostTensor objects (see below). Sub-byte types are packed (bits
// rounded up to bytes).
//
// Sequence and optional values (ONNX seq(...) / optional(...)) are DT_VARIANT
// tensors whose elements are HostTensor objects, constructed, destroyed and
// deep-copied by the owning HostTensor like strings:
//   * a sequence of n tensors has shape [n]; element i is the i-th tensor
//     (ONNX requires one element dtype; elements may differ in shape);
//   * an optional value has shape [0] (empty) or [1] (element 0 is the value,
//     a tensor or itself a sequence).
// The two are told apart by the op reading them (ONNX types are static); a
// DT_VARIANT of shape [0] / [1] given where an optional is expected reads as
// an optional (any other value there counts as present and is its own
// element, as ONNX opset 18 allows). The element dtype of a sequence is known only at run time: an
// infer function that cannot see the value reports DT_UNDEFINED / unknown
// rank for element tensors it extracts. Memory holding DT_VARIANT elements
// must hold constructed HostTensor objects: allocate it with
// HostTensor::Create (an executor's OutputAllocator must do so for DT_VARIANT
// outputs) and fill it by assigning or moving HostTensors into the elements,
// never with memcpy. CopyTensorData / HostTensor::CopyFrom copy any dtype
// correctly.
//
// Example
//   gert::Shape s{2, 3};
//   ASSIGN_OR_RETURN(gert::HostTensor t, gert::HostTensor::Create(ge::DT_FLOAT, s));
//   float* p = t.MutableData<float>();   // 6 zero-initialised floats
//
//   // A sequence of two tensors, and its elements through a view:
//   std::vector<gert::HostTensor> elems;  // ... two HostTensors
//   ASSIGN_OR_RETURN(gert::HostTensor seq, gert::HostTensor::CreateSequence(std::move(elems)));
//   ASSIGN_OR_RETURN(absl::Span<const gert::HostTensor> e, gert::VariantElements(seq.tensor()));
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
  const T* GetData() const {
    return static_cast<const T*>(data_);
  }
  template <typename T>
  T* GetData() {
    return static_cast<T*>(data_);
  }

 private:
  Shape shape_;
  ge::DataType dtype_ = ge::DT_UNDEFINED;
  ge::Format format_ = ge::FORMAT_ND;
  void* data_ = nullptr;
  size_t size_ = 0;
};

// Bytes needed for `count` elements of `dtype` in host storage (see the file
// comment; STRING counts sizeof(std::string), VARIANT sizeof(HostTensor) per
// element). Errors for UNDEFINED / RESOURCE / STRING_REF, negative counts and
// overflow.
ge::StatusOr<size_t> HostStorageBytes(ge::DataType dtype, int64_t count);

// Owns 64-byte aligned memory for one tensor; move-only. Strings (and the
// HostTensor elements of a DT_VARIANT tensor) are constructed (empty) on
// creation and destroyed with the tensor. A default HostTensor owns nothing
// (DT_UNDEFINED, null data).
class HostTensor {
 public:
  HostTensor() = default;
  // Zero-filled. Errors for unknown dims, unsupported dtypes, overflow.
  static ge::StatusOr<HostTensor> Create(ge::DataType dtype, const Shape& shape,
                                         ge::Format format = ge::FORMAT_ND);
  // Copies `bytes` (must equal the storage size; not for STRING / VARIANT).
  static ge::StatusOr<HostTensor> CreateFrom(ge::DataType dtype, const Shape& shape,
                                             const void* bytes, size_t size);
  // Deep copy of a view (shape, dtype, format and elements; strings and
  // variant elements included). ParamInvalid when `src` has an unknown shape
  // or its data does not cover the shape.
  static ge::StatusOr<HostTensor> CopyFrom(const Tensor& src);
  // A sequence (DT_VARIANT, shape [n]) taking ownership of `elements`.
  // ParamInvalid naming the index when an element owns no storage (a default
  // HostTensor).
  static ge::StatusOr<HostTensor> CreateSequence(std::vector<HostTensor> elements);
  // An optional value holding `element` (DT_VARIANT, shape [1]); errors as
  // CreateSequence.
  static ge::StatusOr<HostTensor> CreateOptional(HostTensor element);
  // An empty optional value (DT_VARIANT, shape [0]); also an empty sequence.
  static ge::StatusOr<HostTensor> CreateEmptyOptional();
  HostTensor(HostTensor&& other) noexcept;
  HostTensor& operator=(HostTensor&& other) noexcept;
  HostTensor(const HostTensor&) = delete;
  HostTensor& operator=(const HostTensor&) = delete;
  ~HostTensor();

  // Deep copy (strings and variant elements included).
  ge::StatusOr<HostTensor> Clone() const;

  const Tensor& tensor() const { return tensor_; }
  Tensor& tensor() { return tensor_; }
  Tensor* MutableTensor() { return &tensor_; }
  const Shape& GetShape() const { return tensor_.GetShape(); }
  ge::DataType GetDataType() const { return tensor_.GetDataType(); }
  template <typename T>
  const T* GetData() const {
    return tensor_.GetData<T>();
  }
  template <typename T>
  T* MutableData() {
    return tensor_.GetData<T>();
  }
  // True when this tensor owns storage (false for a default / moved-from one).
  bool HasStorage() const { return owned_ != nullptr; }

 private:
  void Release();
  Tensor tensor_;
  void* owned_ = nullptr;
  int64_t string_count_ = 0;   // strings constructed in owned_
  int64_t variant_count_ = 0;  // HostTensors constructed in owned_
};

// The elements of a DT_VARIANT view (a sequence or an optional value).
// ParamInvalid unless `t` is DT_VARIANT of rank 1 with a known dim and data
// covering it (an empty value may have null data).
ge::StatusOr<absl::Span<const HostTensor>> VariantElements(const Tensor& t);
ge::StatusOr<absl::Span<HostTensor>> MutableVariantElements(Tensor& t);

// Copies the elements of `src` into `dst`, which must have the same dtype,
// the same element count and storage covering it (e.g. an output allocated
// for src's shape). Strings are assigned, variant elements deep-copied, other
// types memcpy'd; shapes may differ in rank (a reshape). Errors name the
// mismatch.
ge::Status CopyTensorData(const Tensor& src, Tensor* dst);

}  // namespace gert

#endif  // METADEF_REGISTER_INC_GERT_TENSOR_H_
