// metadef/register/src/gert_tensor.cc
//
// gert::Shape helpers, HostStorageBytes and HostTensor (64-byte aligned owned
// memory; STRING elements are constructed / destroyed in place).
#include "metadef/register/inc/gert/tensor.h"

#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"

namespace gert {
namespace {

constexpr size_t kHostAlignment = 64;
// Refuse single host tensors above 1 TiB: such a request is a malformed shape,
// not a real allocation (and sanitizers abort on it instead of failing).
constexpr size_t kMaxHostTensorBytes = size_t{1} << 40;

std::string DtName(ge::DataType dt) { return ge::TypeUtils::DataTypeToSerialString(dt); }

void* AllocateAligned(size_t bytes) {
  // At least one alignment unit so that an empty tensor still has a valid,
  // non-null address (kernels treat null as "absent").
  const size_t rounded = bytes == 0 ? kHostAlignment
                                    : (bytes + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
  return ::operator new(rounded, std::align_val_t(kHostAlignment), std::nothrow);
}

void FreeAligned(void* p) {
  if (p != nullptr) ::operator delete(p, std::align_val_t(kHostAlignment));
}

}  // namespace

// ---------------------------------------------------------------- Shape

Shape::Shape(std::initializer_list<int64_t> dims) {
  for (int64_t d : dims) {
    if (dim_num_ == kMaxDimNum) break;
    dims_[dim_num_++] = d;
  }
}

ge::StatusOr<Shape> Shape::FromDims(absl::Span<const int64_t> dims) {
  if (dims.size() > kMaxDimNum) {
    return ge::ParamInvalid("shape rank ", dims.size(), " exceeds the maximum of ", kMaxDimNum,
                            " dims");
  }
  Shape s;
  for (int64_t d : dims) s.dims_[s.dim_num_++] = d;
  return s;
}

bool Shape::IsUnknownShape() const {
  for (size_t i = 0; i < dim_num_; ++i) {
    if (dims_[i] < 0) return true;
  }
  return false;
}

int64_t Shape::GetShapeSize() const {
  for (size_t i = 0; i < dim_num_; ++i) {
    if (dims_[i] < 0) return -1;
  }
  for (size_t i = 0; i < dim_num_; ++i) {
    if (dims_[i] == 0) return 0;  // a zero dim wins over an overflow
  }
  int64_t n = 1;
  for (size_t i = 0; i < dim_num_; ++i) {
    if (n > std::numeric_limits<int64_t>::max() / dims_[i]) return -1;
    n *= dims_[i];
  }
  return n;
}

std::string Shape::ToString() const {
  return absl::StrCat("[", absl::StrJoin(GetDims(), ","), "]");
}

bool Shape::operator==(const Shape& o) const {
  if (dim_num_ != o.dim_num_) return false;
  for (size_t i = 0; i < dim_num_; ++i) {
    if (dims_[i] != o.dims_[i]) return false;
  }
  return true;
}

// ---------------------------------------------------------------- sizes

ge::StatusOr<size_t> HostStorageBytes(ge::DataType dtype, int64_t count) {
  if (count < 0) {
    return ge::ParamInvalid("element count ", count, " of data type ", DtName(dtype),
                            " is negative");
  }
  if (dtype == ge::DT_STRING) {
    constexpr size_t kEach = sizeof(std::string);
    if (static_cast<uint64_t>(count) > std::numeric_limits<size_t>::max() / kEach) {
      return ge::Overflow("host storage of ", count, " DT_STRING elements overflows");
    }
    return static_cast<size_t>(count) * kEach;
  }
  switch (dtype) {
    case ge::DT_UNDEFINED:
    case ge::DT_RESOURCE:
    case ge::DT_VARIANT:
    case ge::DT_STRING_REF:
      return ge::NotSupported("data type ", DtName(dtype), " has no host storage");
    default:
      break;
  }
  ASSIGN_OR_RETURN(const int64_t bytes, ge::TypeUtils::GetSizeInBytes(dtype, count));
  return static_cast<size_t>(bytes);
}

// ---------------------------------------------------------------- HostTensor

ge::StatusOr<HostTensor> HostTensor::Create(ge::DataType dtype, const Shape& shape,
                                            ge::Format format) {
  if (shape.IsUnknownShape()) {
    return ge::ParamInvalid("cannot allocate a host tensor of unknown shape ", shape.ToString());
  }
  const int64_t count = shape.GetShapeSize();
  if (count < 0) {
    return ge::Overflow("element count of shape ", shape.ToString(), " overflows int64");
  }
  ASSIGN_OR_RETURN(const size_t bytes, HostStorageBytes(dtype, count));
  if (bytes > kMaxHostTensorBytes) {
    return ge::MemoryAllocFailed("host tensor of shape ", shape.ToString(), " ", DtName(dtype),
                                 " needs ", bytes, " bytes, above the limit of ",
                                 kMaxHostTensorBytes);
  }
  void* mem = AllocateAligned(bytes);
  if (mem == nullptr) {
    return ge::MemoryAllocFailed("cannot allocate ", bytes, " bytes for a host tensor of shape ",
                                 shape.ToString(), " ", DtName(dtype));
  }
  std::memset(mem, 0, bytes);
  HostTensor t;
  t.owned_ = mem;
  t.tensor_ = Tensor(shape, dtype, mem, bytes, format);
  if (dtype == ge::DT_STRING) {
    auto* strs = static_cast<std::string*>(mem);
    for (int64_t i = 0; i < count; ++i) new (&strs[i]) std::string();
    t.string_count_ = count;
  }
  return t;
}

ge::StatusOr<HostTensor> HostTensor::CreateFrom(ge::DataType dtype, const Shape& shape,
                                                const void* bytes, size_t size) {
  if (dtype == ge::DT_STRING) {
    return ge::NotSupported("HostTensor::CreateFrom cannot copy raw bytes into DT_STRING "
                            "elements; create the tensor and assign the strings");
  }
  ASSIGN_OR_RETURN(HostTensor t, Create(dtype, shape));
  if (size != t.tensor_.GetSize()) {
    return ge::ParamInvalid("host tensor of shape ", shape.ToString(), " ", DtName(dtype),
                            " needs ", t.tensor_.GetSize(), " bytes, got ", size);
  }
  if (size != 0) {
    if (bytes == nullptr) return ge::ParamInvalid("null source for ", size, " bytes");
    std::memcpy(t.owned_, bytes, size);
  }
  return t;
}

HostTensor::HostTensor(HostTensor&& other) noexcept
    : tensor_(other.tensor_), owned_(other.owned_), string_count_(other.string_count_) {
  other.tensor_ = Tensor();
  other.owned_ = nullptr;
  other.string_count_ = 0;
}

HostTensor& HostTensor::operator=(HostTensor&& other) noexcept {
  if (this != &other) {
    Release();
    tensor_ = other.tensor_;
    owned_ = other.owned_;
    string_count_ = other.string_count_;
    other.tensor_ = Tensor();
    other.owned_ = nullptr;
    other.string_count_ = 0;
  }
  return *this;
}

HostTensor::~HostTensor() { Release(); }

void HostTensor::Release() {
  if (owned_ != nullptr && string_count_ > 0) {
    auto* strs = static_cast<std::string*>(owned_);
    for (int64_t i = 0; i < string_count_; ++i) strs[i].~basic_string();
  }
  FreeAligned(owned_);
  owned_ = nullptr;
  string_count_ = 0;
  tensor_ = Tensor();
}

ge::StatusOr<HostTensor> HostTensor::Clone() const {
  if (owned_ == nullptr) {
    // A default (empty) HostTensor clones to another empty one.
    return HostTensor();
  }
  ASSIGN_OR_RETURN(HostTensor copy,
                   Create(tensor_.GetDataType(), tensor_.GetShape(), tensor_.GetFormat()));
  if (string_count_ > 0) {
    const auto* src = static_cast<const std::string*>(owned_);
    auto* dst = static_cast<std::string*>(copy.owned_);
    for (int64_t i = 0; i < string_count_; ++i) dst[i] = src[i];
  } else if (tensor_.GetSize() != 0) {
    std::memcpy(copy.owned_, owned_, tensor_.GetSize());
  }
  return copy;
}

}  // namespace gert
