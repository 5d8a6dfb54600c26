// metadef/register/src/gert_tensor.cc
//
// gert::Shape helpers, HostStorageBytes and HostTensor (64-byte aligned owned
// memory; STRING and VARIANT elements are constructed / destroyed in place),
// sequence / optional helpers and CopyTensorData.
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
#include "metadef/register/inc/gert/tensor.h"

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
  const size_t rounded =
      bytes == 0 ? kHostAlignment : (bytes + kHostAlignment - 1) / kHostAlignment * kHostAlignment;
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
  if (dtype == ge::DT_VARIANT) {
    constexpr size_t kEach = sizeof(HostTensor);
    if (static_cast<uint64_t>(count) > std::numeric_limits<size_t>::max() / kEach) {
      return ge::Overflow("host storage of ", count, " DT_VARIANT elements overflows");
    }
    return static_cast<size_t>(count) * kEach;
  }
  switch (dtype) {
    case ge::DT_UNDEFINED:
    case ge::DT_RESOURCE:
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
  } else if (dtype == ge::DT_VARIANT) {
    auto* elems = static_cast<HostTensor*>(mem);
    for (int64_t i = 0; i < count; ++i) new (&elems[i]) HostTensor();
    t.variant_count_ = count;
  }
  return t;
}

ge::StatusOr<HostTensor> HostTensor::CreateFrom(ge::DataType dtype, const Shape& shape,
                                                const void* bytes, size_t size) {
  if (dtype == ge::DT_STRING || dtype == ge::DT_VARIANT) {
    return ge::NotSupported("HostTensor::CreateFrom cannot copy raw bytes into ", DtName(dtype),
                            " elements; create the tensor and assign the elements");
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
    : tensor_(other.tensor_),
      owned_(other.owned_),
      string_count_(other.string_count_),
      variant_count_(other.variant_count_) {
  other.tensor_ = Tensor();
  other.owned_ = nullptr;
  other.string_count_ = 0;
  other.variant_count_ = 0;
}

HostTensor& HostTensor::operator=(HostTensor&& other) noexcept {
  if (this != &other) {
    // Take other's state first: `other` may be one of our own elements.
    Tensor tensor = other.tensor_;
    void* owned = other.owned_;
    const int64_t strings = other.string_count_;
    const int64_t variants = other.variant_count_;
    other.tensor_ = Tensor();
    other.owned_ = nullptr;
    other.string_count_ = 0;
    other.variant_count_ = 0;
    Release();
    tensor_ = tensor;
    owned_ = owned;
    string_count_ = strings;
    variant_count_ = variants;
  }
  return *this;
}

HostTensor::~HostTensor() { Release(); }

void HostTensor::Release() {
  if (owned_ != nullptr && string_count_ > 0) {
    auto* strs = static_cast<std::string*>(owned_);
    for (int64_t i = 0; i < string_count_; ++i) strs[i].~basic_string();
  }
  if (owned_ != nullptr && variant_count_ > 0) {
    auto* elems = static_cast<HostTensor*>(owned_);
    for (int64_t i = 0; i < variant_count_; ++i) elems[i].~HostTensor();
  }
  FreeAligned(owned_);
  owned_ = nullptr;
  string_count_ = 0;
  variant_count_ = 0;
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
  } else if (variant_count_ > 0) {
    const auto* src = static_cast<const HostTensor*>(owned_);
    auto* dst = static_cast<HostTensor*>(copy.owned_);
    for (int64_t i = 0; i < variant_count_; ++i) {
      ASSIGN_OR_RETURN(dst[i], src[i].Clone());
    }
  } else if (tensor_.GetSize() != 0) {
    std::memcpy(copy.owned_, owned_, tensor_.GetSize());
  }
  return copy;
}

ge::StatusOr<HostTensor> HostTensor::CopyFrom(const Tensor& src) {
  if (src.GetShape().IsUnknownShape()) {
    return ge::ParamInvalid("cannot copy a tensor of unknown shape ", src.GetShape().ToString());
  }
  ASSIGN_OR_RETURN(HostTensor copy, Create(src.GetDataType(), src.GetShape(), src.GetFormat()));
  RETURN_IF_ERROR(CopyTensorData(src, &copy.tensor_));
  return copy;
}

ge::StatusOr<HostTensor> HostTensor::CreateSequence(std::vector<HostTensor> elements) {
  for (size_t i = 0; i < elements.size(); ++i) {
    if (!elements[i].HasStorage()) {
      return ge::ParamInvalid("sequence element ", i,
                              " owns no storage (a default or moved-from "
                              "HostTensor)");
    }
  }
  ASSIGN_OR_RETURN(HostTensor seq,
                   Create(ge::DT_VARIANT, Shape{static_cast<int64_t>(elements.size())}));
  auto* dst = static_cast<HostTensor*>(seq.owned_);
  for (size_t i = 0; i < elements.size(); ++i) dst[i] = std::move(elements[i]);
  return seq;
}

ge::StatusOr<HostTensor> HostTensor::CreateOptional(HostTensor element) {
  if (!element.HasStorage()) {
    return ge::ParamInvalid(
        "optional element owns no storage (a default or moved-from "
        "HostTensor)");
  }
  ASSIGN_OR_RETURN(HostTensor opt, Create(ge::DT_VARIANT, Shape{1}));
  static_cast<HostTensor*>(opt.owned_)[0] = std::move(element);
  return opt;
}

ge::StatusOr<HostTensor> HostTensor::CreateEmptyOptional() {
  return Create(ge::DT_VARIANT, Shape{0});
}

// ---------------------------------------------------------------- variant views

namespace {

// Element count of a DT_VARIANT view, validated.
ge::StatusOr<int64_t> CheckVariant(const Tensor& t) {
  if (t.GetDataType() != ge::DT_VARIANT) {
    return ge::ParamInvalid("expected a DT_VARIANT (sequence / optional) tensor, got ",
                            DtName(t.GetDataType()));
  }
  const Shape& s = t.GetShape();
  if (s.GetDimNum() != 1 || s.GetDim(0) < 0) {
    return ge::ParamInvalid("a DT_VARIANT tensor must have a known 1-D shape [n], got ",
                            s.ToString());
  }
  const int64_t n = s.GetDim(0);
  ASSIGN_OR_RETURN(const size_t bytes, HostStorageBytes(ge::DT_VARIANT, n));
  if (n > 0 && (t.GetAddr() == nullptr || t.GetSize() < bytes)) {
    return ge::ParamInvalid("DT_VARIANT tensor of shape ", s.ToString(), " needs ", bytes,
                            " bytes of elements, has ", t.GetAddr() == nullptr ? 0 : t.GetSize());
  }
  return n;
}

}  // namespace

ge::StatusOr<absl::Span<const HostTensor>> VariantElements(const Tensor& t) {
  ASSIGN_OR_RETURN(const int64_t n, CheckVariant(t));
  if (n == 0) return absl::Span<const HostTensor>();
  return absl::Span<const HostTensor>(t.GetData<HostTensor>(), static_cast<size_t>(n));
}

ge::StatusOr<absl::Span<HostTensor>> MutableVariantElements(Tensor& t) {
  ASSIGN_OR_RETURN(const int64_t n, CheckVariant(t));
  if (n == 0) return absl::Span<HostTensor>();
  return absl::Span<HostTensor>(t.GetData<HostTensor>(), static_cast<size_t>(n));
}

ge::Status CopyTensorData(const Tensor& src, Tensor* dst) {
  if (dst == nullptr) return ge::ParamInvalid("CopyTensorData: null destination");
  const ge::DataType dt = src.GetDataType();
  if (dst->GetDataType() != dt) {
    return ge::ParamInvalid("CopyTensorData: source is ", DtName(dt), ", destination is ",
                            DtName(dst->GetDataType()));
  }
  const int64_t n = src.GetShapeSize();
  if (n < 0) {
    return ge::ParamInvalid("CopyTensorData: source shape ", src.GetShape().ToString(),
                            " is unknown");
  }
  if (dst->GetShapeSize() != n) {
    return ge::ParamInvalid("CopyTensorData: source shape ", src.GetShape().ToString(),
                            " and destination shape ", dst->GetShape().ToString(),
                            " differ in element count");
  }
  ASSIGN_OR_RETURN(const size_t bytes, HostStorageBytes(dt, n));
  if (bytes == 0) return ge::OkStatus();
  if (src.GetAddr() == nullptr || src.GetSize() < bytes) {
    return ge::ParamInvalid("CopyTensorData: source ", src.GetShape().ToString(), " ", DtName(dt),
                            " needs ", bytes, " bytes, has ",
                            src.GetAddr() == nullptr ? 0 : src.GetSize());
  }
  if (dst->GetAddr() == nullptr || dst->GetSize() < bytes) {
    return ge::ParamInvalid("CopyTensorData: destination ", dst->GetShape().ToString(), " ",
                            DtName(dt), " needs ", bytes, " bytes, has ",
                            dst->GetAddr() == nullptr ? 0 : dst->GetSize());
  }
  if (src.GetAddr() == dst->GetAddr()) return ge::OkStatus();
  if (dt == ge::DT_STRING) {
    const auto* s = src.GetData<std::string>();
    auto* d = dst->GetData<std::string>();
    for (int64_t i = 0; i < n; ++i) d[i] = s[i];
  } else if (dt == ge::DT_VARIANT) {
    const auto* s = src.GetData<HostTensor>();
    auto* d = dst->GetData<HostTensor>();
    for (int64_t i = 0; i < n; ++i) {
      ASSIGN_OR_RETURN(d[i], s[i].Clone());
    }
  } else {
    std::memmove(dst->GetAddr(), src.GetAddr(), bytes);
  }
  return ge::OkStatus();
}

}  // namespace gert
