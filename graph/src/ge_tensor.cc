// graph/src/ge_tensor.cc
//
// GeShape, GeTensorDesc (compact storage, lazily allocated extension) and
// GeTensor (copy-on-write aligned bytes).
#include "graph/inc/graph/ge_tensor.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/call_once.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/pool_allocator.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/shape.h"
#include "metadef/inc/external/graph/tensor_desc.h"
#include "metadef/inc/external/graph/type_utils.h"

namespace ge {

// ---------------------------------------------------------------- GeShape

GeShape::GeShape(const Shape& shape) : dims_(shape.GetDims().begin(), shape.GetDims().end()) {}

size_t GeShape::GetDimNum() const { return IsUnknownDimNum() ? 0 : dims_.size(); }

Status GeShape::SetDim(size_t idx, int64_t value) {
  if (idx >= dims_.size()) {
    return OutOfRange("dim index ", idx, " is out of range for shape ", ToString(), " of rank ",
                      dims_.size());
  }
  if (value < UNKNOWN_DIM) {
    return ParamInvalid("dim value ", value, " at index ", idx,
                        " is invalid (a dim is >= 0, or -1 when unknown)");
  }
  dims_[idx] = value;
  return OkStatus();
}

bool GeShape::IsUnknownShape() const {
  for (int64_t d : dims_) {
    if (d == UNKNOWN_DIM || d == UNKNOWN_RANK) return true;
  }
  return false;
}

StatusOr<int64_t> GeShape::GetShapeSize() const { return ToShape().GetShapeSize(); }

std::string GeShape::ToString() const { return absl::StrCat("[", absl::StrJoin(dims_, ","), "]"); }

// ----------------------------------------------------------- GeTensorDesc

// The extended meta. Hot (set on the descs of every compiled or named
// tensor): name, real dim count, size, data offset, 64 bytes; the rest
// (shape ranges, weight / reuse meta, device type, input / output flags) is
// rare and lives in a separate Cold block only when some field of it is not
// the default. Both are pooled like the descs that own them (OpDesc ports):
// a decoded model has one Ext per named desc, and the pool carves them
// densely from huge pages without malloc's per-object cost. unique_ptr's
// default deleter calls the class operators.
struct GeTensorDesc::Ext {
  struct Cold {
    ShapeRange shape_range;
    ShapeRange origin_shape_range;
    int64_t weight_size = 0;
    int64_t reuse_input_index = 0;
    DeviceType device_type = DeviceType::kNpu;
    bool reuse_input = false;
    bool input_tensor = false;
    bool output_tensor = false;

    static void* operator new(size_t bytes) { return internal::PoolAllocate(bytes); }
    static void operator delete(void* p, size_t bytes) noexcept {
      internal::PoolDeallocate(p, bytes);
    }

    bool operator==(const Cold& o) const {
      return shape_range == o.shape_range && origin_shape_range == o.origin_shape_range &&
             weight_size == o.weight_size && reuse_input_index == o.reuse_input_index &&
             device_type == o.device_type && reuse_input == o.reuse_input &&
             input_tensor == o.input_tensor && output_tensor == o.output_tensor;
    }
  };

  std::string name;
  int64_t real_dim_cnt = -1;
  int64_t size = 0;
  int64_t data_offset = 0;
  std::unique_ptr<Cold> cold;  // null: every cold field is its default

  Ext() = default;
  Ext(const Ext& o)
      : name(o.name),
        real_dim_cnt(o.real_dim_cnt),
        size(o.size),
        data_offset(o.data_offset),
        cold(o.cold == nullptr ? nullptr : std::make_unique<Cold>(*o.cold)) {}
  Ext& operator=(const Ext& o) {
    if (this == &o) return *this;
    name = o.name;
    real_dim_cnt = o.real_dim_cnt;
    size = o.size;
    data_offset = o.data_offset;
    if (o.cold == nullptr) {
      cold.reset();
    } else if (cold != nullptr) {
      *cold = *o.cold;
    } else {
      cold = std::make_unique<Cold>(*o.cold);
    }
    return *this;
  }

  static void* operator new(size_t bytes) { return internal::PoolAllocate(bytes); }
  static void operator delete(void* p, size_t bytes) noexcept {
    internal::PoolDeallocate(p, bytes);
  }

  static const Cold& DefaultCold() {
    static const Cold* const kDefault = new Cold();
    return *kDefault;
  }
  const Cold& GetCold() const { return cold == nullptr ? DefaultCold() : *cold; }
  Cold& MutableCold() {
    if (cold == nullptr) cold = std::make_unique<Cold>();
    return *cold;
  }

  bool operator==(const Ext& o) const {
    return name == o.name && real_dim_cnt == o.real_dim_cnt && size == o.size &&
           data_offset == o.data_offset && GetCold() == o.GetCold();
  }
};

namespace {
const GeTensorDesc::ShapeRange& EmptyRange() {
  static const GeTensorDesc::ShapeRange* const kEmpty = new GeTensorDesc::ShapeRange();
  return *kEmpty;
}
const std::string& EmptyString() {
  static const std::string* const kEmpty = new std::string();
  return *kEmpty;
}
}  // namespace

GeTensorDesc::GeTensorDesc() = default;

GeTensorDesc::GeTensorDesc(const GeShape& shape, Format format, DataType data_type)
    : shape_(shape),
      data_type_(data_type),
      format_(format),
      origin_data_type_(data_type),
      origin_format_(format) {}

GeTensorDesc::GeTensorDesc(const TensorDesc& desc)
    : shape_(desc.GetShape()),
      data_type_(desc.GetDataType()),
      format_(desc.GetFormat()),
      origin_data_type_(desc.GetOriginDataType()),
      origin_format_(desc.GetOriginFormat()) {
  SetOriginShape(GeShape(desc.GetOriginShape()));
  const bool has_ext = !desc.GetShapeRange().empty() || desc.GetSizeMeta() != 0 ||
                       desc.GetWeightSize() != 0 || desc.GetReuseInput() ||
                       desc.GetDataOffset() != 0 || desc.GetDeviceType() != DeviceType::kNpu;
  if (has_ext) {
    Ext& ext = MutableExt();
    ext.size = desc.GetSizeMeta();
    ext.data_offset = desc.GetDataOffset();
    if (!desc.GetShapeRange().empty() || desc.GetWeightSize() != 0 || desc.GetReuseInput() ||
        desc.GetDeviceType() != DeviceType::kNpu) {
      Ext::Cold& cold = ext.MutableCold();
      cold.shape_range = desc.GetShapeRange();
      cold.weight_size = desc.GetWeightSize();
      cold.reuse_input = desc.GetReuseInput();
      cold.device_type = desc.GetDeviceType();
    }
  }
  if (desc.HasRealDimCnt()) MutableExt().real_dim_cnt = desc.GetRealDimCnt();
}

GeTensorDesc::GeTensorDesc(const GeTensorDesc& other)
    : AttrHolder(other),
      shape_(other.shape_),
      origin_shape_(other.origin_shape_ == nullptr
                        ? nullptr
                        : std::make_unique<GeShape>(*other.origin_shape_)),
      data_type_(other.data_type_),
      format_(other.format_),
      origin_data_type_(other.origin_data_type_),
      origin_format_(other.origin_format_),
      ext_(other.ext_ == nullptr ? nullptr : std::make_unique<Ext>(*other.ext_)) {}

GeTensorDesc::GeTensorDesc(GeTensorDesc&& other) noexcept = default;

GeTensorDesc& GeTensorDesc::operator=(const GeTensorDesc& other) {
  if (this == &other) return *this;
  AttrHolder::operator=(other);
  shape_ = other.shape_;
  origin_shape_ =
      other.origin_shape_ == nullptr ? nullptr : std::make_unique<GeShape>(*other.origin_shape_);
  data_type_ = other.data_type_;
  format_ = other.format_;
  origin_data_type_ = other.origin_data_type_;
  origin_format_ = other.origin_format_;
  if (other.ext_ == nullptr) {
    ext_.reset();
  } else if (ext_ != nullptr) {
    *ext_ = *other.ext_;  // reuses this desc's storage
  } else {
    ext_ = std::make_unique<Ext>(*other.ext_);
  }
  return *this;
}

GeTensorDesc& GeTensorDesc::operator=(GeTensorDesc&& other) noexcept = default;
GeTensorDesc::~GeTensorDesc() = default;

void GeTensorDesc::SetOriginShape(const GeShape& shape) {
  if (origin_shape_ != nullptr) {
    *origin_shape_ = shape;
  } else if (shape != shape_) {
    origin_shape_ = std::make_unique<GeShape>(shape);
  }
}

GeTensorDesc::Ext& GeTensorDesc::MutableExt() {
  if (ext_ == nullptr) ext_ = std::make_unique<Ext>();
  return *ext_;
}

const std::string& GeTensorDesc::GetName() const {
  return ext_ == nullptr ? EmptyString() : ext_->name;
}
void GeTensorDesc::SetName(const std::string& name) {
  if (name.empty() && ext_ == nullptr) return;
  MutableExt().name = name;
}

namespace {
Status CheckRange(const GeShape& shape, const GeTensorDesc::ShapeRange& range, const char* what) {
  Shape s(shape.GetDims());
  return Annotate(s.SetShapeRange(range), what, " of shape ", shape.ToString(), ": ");
}
}  // namespace

Status GeTensorDesc::SetShapeRange(ShapeRange range) {
  RETURN_IF_ERROR(CheckRange(shape_, range, "shape range"));
  if (range.empty() && (ext_ == nullptr || ext_->cold == nullptr)) return OkStatus();
  MutableExt().MutableCold().shape_range = std::move(range);
  return OkStatus();
}
const GeTensorDesc::ShapeRange& GeTensorDesc::GetShapeRange() const {
  return ext_ == nullptr ? EmptyRange() : ext_->GetCold().shape_range;
}
Status GeTensorDesc::SetOriginShapeRange(ShapeRange range) {
  RETURN_IF_ERROR(CheckRange(GetOriginShape(), range, "origin shape range"));
  if (range.empty() && (ext_ == nullptr || ext_->cold == nullptr)) return OkStatus();
  MutableExt().MutableCold().origin_shape_range = std::move(range);
  return OkStatus();
}
const GeTensorDesc::ShapeRange& GeTensorDesc::GetOriginShapeRange() const {
  return ext_ == nullptr ? EmptyRange() : ext_->GetCold().origin_shape_range;
}

int64_t GeTensorDesc::GetRealDimCnt() const {
  if (ext_ != nullptr && ext_->real_dim_cnt >= 0) return ext_->real_dim_cnt;
  return static_cast<int64_t>(shape_.GetDimNum());
}
// Any negative count means "unset" (-1), so equality and HasExtMeta() agree.
void GeTensorDesc::SetRealDimCnt(int64_t cnt) { MutableExt().real_dim_cnt = cnt < 0 ? -1 : cnt; }
bool GeTensorDesc::HasRealDimCnt() const { return ext_ != nullptr && ext_->real_dim_cnt >= 0; }
bool GeTensorDesc::HasExtMeta() const {
  static const Ext* const kDefault = new Ext();
  return ext_ != nullptr && !(*ext_ == *kDefault);
}

int64_t GeTensorDesc::GetSizeMeta() const { return ext_ == nullptr ? 0 : ext_->size; }
void GeTensorDesc::SetSizeMeta(int64_t size) { MutableExt().size = size; }
// Cold setters given the default on a desc without cold meta change nothing.
#define GE_SET_COLD(field, value, default_value)                                    \
  do {                                                                              \
    if ((value) == (default_value) && (ext_ == nullptr || ext_->cold == nullptr)) { \
      return;                                                                       \
    }                                                                               \
    MutableExt().MutableCold().field = (value);                                     \
  } while (false)
int64_t GeTensorDesc::GetWeightSize() const {
  return ext_ == nullptr ? 0 : ext_->GetCold().weight_size;
}
void GeTensorDesc::SetWeightSize(int64_t size) { GE_SET_COLD(weight_size, size, 0); }
bool GeTensorDesc::GetReuseInput() const { return ext_ != nullptr && ext_->GetCold().reuse_input; }
void GeTensorDesc::SetReuseInput(bool reuse) { GE_SET_COLD(reuse_input, reuse, false); }
int64_t GeTensorDesc::GetReuseInputIndex() const {
  return ext_ == nullptr ? 0 : ext_->GetCold().reuse_input_index;
}
void GeTensorDesc::SetReuseInputIndex(int64_t index) { GE_SET_COLD(reuse_input_index, index, 0); }
int64_t GeTensorDesc::GetDataOffset() const { return ext_ == nullptr ? 0 : ext_->data_offset; }
void GeTensorDesc::SetDataOffset(int64_t offset) { MutableExt().data_offset = offset; }
DeviceType GeTensorDesc::GetDeviceType() const {
  return ext_ == nullptr ? DeviceType::kNpu : ext_->GetCold().device_type;
}
void GeTensorDesc::SetDeviceType(DeviceType type) {
  GE_SET_COLD(device_type, type, DeviceType::kNpu);
}
bool GeTensorDesc::IsInputTensor() const { return ext_ != nullptr && ext_->GetCold().input_tensor; }
void GeTensorDesc::SetInputTensor(bool is_input) { GE_SET_COLD(input_tensor, is_input, false); }
bool GeTensorDesc::IsOutputTensor() const {
  return ext_ != nullptr && ext_->GetCold().output_tensor;
}
void GeTensorDesc::SetOutputTensor(bool is_output) { GE_SET_COLD(output_tensor, is_output, false); }
#undef GE_SET_COLD

TensorDesc GeTensorDesc::ToTensorDesc() const {
  TensorDesc d(shape_.ToShape(), data_type_, format_);
  d.SetOriginShape(GetOriginShape().ToShape());
  d.SetOriginFormat(origin_format_);
  d.SetOriginDataType(origin_data_type_);
  if (ext_ != nullptr) {
    if (ext_->real_dim_cnt >= 0) d.SetRealDimCnt(ext_->real_dim_cnt);
    d.SetSizeMeta(ext_->size);
    const Ext::Cold& cold = ext_->GetCold();
    d.SetWeightSize(cold.weight_size);
    d.SetReuseInput(cold.reuse_input);
    d.SetDataOffset(ext_->data_offset);
    d.SetDeviceType(cold.device_type);
    // The range was validated when set; a later shape change may invalidate
    // it, in which case the TensorDesc simply carries no range.
    d.SetShapeRange(cold.shape_range).IgnoreError();
  }
  return d;
}

bool GeTensorDesc::operator==(const GeTensorDesc& other) const {
  if (!(shape_ == other.shape_ && GetOriginShape() == other.GetOriginShape() &&
        data_type_ == other.data_type_ && format_ == other.format_ &&
        origin_data_type_ == other.origin_data_type_ && origin_format_ == other.origin_format_)) {
    return false;
  }
  if (GetAttrStore() != other.GetAttrStore()) return false;
  static const Ext kDefault;
  const Ext& a = ext_ == nullptr ? kDefault : *ext_;
  const Ext& b = other.ext_ == nullptr ? kDefault : *other.ext_;
  return a == b;
}

std::string GeTensorDesc::DebugString() const {
  return absl::StrCat(TypeUtils::DataTypeToSerialString(data_type_), " ",
                      TypeUtils::FormatToSerialString(format_), " ", shape_.ToString());
}

// ----------------------------------------------------------- AlignedBuffer

AlignedBuffer::AlignedBuffer(size_t size) : size_(size) {
  if (size_ == 0) return;
  data_ = static_cast<uint8_t*>(::operator new (size_, std::align_val_t{kAlignment}));
  std::memset(data_, 0, size_);
}

AlignedBuffer::AlignedBuffer(const uint8_t* data, size_t size) : size_(size) {
  if (size_ == 0) return;
  data_ = static_cast<uint8_t*>(::operator new (size_, std::align_val_t{kAlignment}));
  std::memcpy(data_, data, size_);
}

std::shared_ptr<AlignedBuffer> AlignedBuffer::View(const uint8_t* data, size_t size,
                                                   std::shared_ptr<const void> owner) {
  if (owner == nullptr) return nullptr;
  if (size != 0 && reinterpret_cast<uintptr_t>(data) % kMinViewAlignment != 0) return nullptr;
  auto view = std::make_shared<AlignedBuffer>();
  view->data_ = const_cast<uint8_t*>(data);
  view->size_ = size;
  view->owner_ = std::move(owner);
  return view;
}

struct AlignedBuffer::FileState {
  FileExtent extent;
  bool unaligned = false;  // data() needs the aligned copy
  absl::once_flag once;
  uint8_t* copy = nullptr;  // kAlignment aligned, made on the first data()
  std::atomic<bool> made{false};
  ~FileState() {
    if (copy != nullptr) ::operator delete (copy, std::align_val_t{kAlignment});
  }
};

std::shared_ptr<AlignedBuffer> AlignedBuffer::FileView(const uint8_t* data, size_t size,
                                                       std::shared_ptr<const void> owner,
                                                       FileExtent extent) {
  if (owner == nullptr || extent.fd < 0) return nullptr;
  auto view = std::make_shared<AlignedBuffer>();
  view->data_ = const_cast<uint8_t*>(data);
  view->size_ = size;
  view->owner_ = std::move(owner);
  view->file_ = std::make_unique<FileState>();
  view->file_->extent = extent;
  view->file_->unaligned = size != 0 && reinterpret_cast<uintptr_t>(data) % kMinViewAlignment != 0;
  return view;
}

const FileExtent* AlignedBuffer::file_extent() const {
  return file_ == nullptr ? nullptr : &file_->extent;
}

bool AlignedBuffer::data_in_place() const { return file_ == nullptr || !file_->unaligned; }

bool AlignedBuffer::has_copy() const {
  return file_ != nullptr && file_->made.load(std::memory_order_acquire);
}

const uint8_t* AlignedBuffer::FileData() const {
  FileState& f = *file_;
  if (!f.unaligned) return data_;
  absl::call_once(f.once, [this, &f] {
    f.copy = static_cast<uint8_t*>(::operator new (size_, std::align_val_t{kAlignment}));
    std::memcpy(f.copy, data_, size_);
    f.made.store(true, std::memory_order_release);
  });
  return f.copy;
}

std::shared_ptr<AlignedBuffer> AlignedBuffer::Adopt(std::string&& bytes) {
  if (bytes.empty()) return std::make_shared<AlignedBuffer>(size_t{0});
  auto owner = std::make_shared<std::string>(std::move(bytes));
  const auto* data = reinterpret_cast<const uint8_t*>(owner->data());
  const size_t size = owner->size();
  std::shared_ptr<AlignedBuffer> view = View(data, size, owner);
  if (view != nullptr) return view;
  return std::make_shared<AlignedBuffer>(data, size);
}

AlignedBuffer::~AlignedBuffer() {
  if (data_ != nullptr && owner_ == nullptr)
    ::operator delete (data_, std::align_val_t{kAlignment});
}

// ---------------------------------------------------------------- GeTensor

GeTensor::GeTensor(const GeTensorDesc& desc, const std::vector<uint8_t>& data) : desc_(desc) {
  SetData(data.data(), data.size());
}

GeTensor::GeTensor(const GeTensorDesc& desc, const uint8_t* data, size_t size) : desc_(desc) {
  SetData(data, size);
}

absl::Span<const uint8_t> GeTensor::GetData() const {
  if (data_ == nullptr) return {};
  return absl::Span<const uint8_t>(data_->data(), data_->size());
}

absl::Span<const uint8_t> GeTensor::GetBytes() const {
  if (data_ == nullptr) return {};
  return data_->bytes();
}

uint8_t* GeTensor::MutableData() {
  if (data_ == nullptr) return nullptr;
  if (data_.use_count() > 1 || data_->is_view()) {
    const AlignedBuffer& from = *data_;
    data_ = std::make_shared<AlignedBuffer>(from.bytes().data(), from.size());
  }
  return data_->mutable_data();
}

void GeTensor::SetData(const uint8_t* data, size_t size) {
  if (size == 0 || data == nullptr) {
    data_ = std::make_shared<AlignedBuffer>(size_t{0});
    return;
  }
  data_ = std::make_shared<AlignedBuffer>(data, size);
}

bool GeTensor::operator==(const GeTensor& other) const {
  if (!(desc_ == other.desc_)) return false;
  const auto a = GetBytes();
  const auto b = other.GetBytes();
  if (a.size() != b.size()) return false;
  return a.empty() || std::memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace ge
