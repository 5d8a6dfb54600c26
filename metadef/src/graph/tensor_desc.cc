// metadef/src/graph/tensor_desc.cc
//
// TensorDesc: format-aware byte sizes and field-wise equality.
#include "metadef/inc/external/graph/tensor_desc.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/format_transfer.h"
#include "metadef/inc/external/graph/shape.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

// Blocked formats whose physical shape is derived from the origin shape.
bool IsBlockedFormat(Format format) {
  switch (GetPrimaryFormat(format)) {
    case FORMAT_NC1HWC0:
    case FORMAT_FRACTAL_Z:
    case FORMAT_FRACTAL_NZ:
    case FORMAT_NDC1HWC0:
      return true;
    default:
      return false;
  }
}

}  // namespace

TensorDesc::TensorDesc(const Shape& shape, DataType data_type, Format format)
    : shape_(shape),
      data_type_(data_type),
      format_(format),
      origin_shape_(shape),
      origin_format_(format),
      origin_data_type_(data_type) {}

int64_t TensorDesc::GetRealDimCnt() const {
  if (real_dim_cnt_ >= 0) return real_dim_cnt_;
  return static_cast<int64_t>(shape_.GetDimNum());
}

StatusOr<int64_t> TensorDesc::GetDataSize() const {
  if (data_type_ == DT_STRING || data_type_ == DT_UNDEFINED) {
    return NotSupported("cannot size a tensor of data type ",
                        TypeUtils::DataTypeToSerialString(data_type_),
                        ": it has no fixed element size");
  }
  std::vector<int64_t> physical;
  if (IsBlockedFormat(format_)) {
    if (origin_shape_.IsUnknownShape()) {
      return ParamInvalid("cannot size a tensor with unknown origin shape ",
                          origin_shape_.ToString(), " (format ",
                          TypeUtils::FormatToSerialString(format_), ")");
    }
    RETURN_IF_ERROR(Annotate(Shape::Create(origin_shape_.GetDims()).status(), "origin shape: "));
    auto transferred = TransferShape(origin_format_, format_, data_type_, origin_shape_.GetDims());
    if (!transferred.ok()) {
      return Annotate(transferred.status(), "physical shape of ",
                      TypeUtils::FormatToSerialString(origin_format_), " ",
                      origin_shape_.ToString(), " as ", TypeUtils::FormatToSerialString(format_),
                      ": ");
    }
    physical = std::move(transferred).value();
  } else {
    if (shape_.IsUnknownShape()) {
      return ParamInvalid("cannot size a tensor with unknown shape ", shape_.ToString());
    }
    physical = shape_.GetDims();
  }
  ASSIGN_OR_RETURN(const int64_t count, Shape(physical).GetShapeSize());
  auto bytes = TypeUtils::GetSizeInBytes(data_type_, count);
  if (!bytes.ok()) {
    return Annotate(bytes.status(), "size of ", count, " elements of ",
                    TypeUtils::DataTypeToSerialString(data_type_), " (shape ",
                    Shape(physical).ToString(), "): ");
  }
  return *bytes;
}

StatusOr<int64_t> TensorDesc::GetSize() const {
  ASSIGN_OR_RETURN(const int64_t bytes, GetDataSize());
  int64_t padded = 0;
  if (__builtin_add_overflow(bytes, kTensorAlignment - 1, &padded)) {
    return Overflow("tensor size ", bytes, " overflows int64 when aligned to ", kTensorAlignment,
                    " bytes");
  }
  return padded / kTensorAlignment * kTensorAlignment;
}

bool TensorDesc::operator==(const TensorDesc& other) const {
  return shape_ == other.shape_ && shape_.GetShapeRange() == other.shape_.GetShapeRange() &&
         data_type_ == other.data_type_ && format_ == other.format_ &&
         origin_shape_ == other.origin_shape_ &&
         origin_shape_.GetShapeRange() == other.origin_shape_.GetShapeRange() &&
         origin_format_ == other.origin_format_ && origin_data_type_ == other.origin_data_type_ &&
         real_dim_cnt_ == other.real_dim_cnt_ && size_ == other.size_ &&
         weight_size_ == other.weight_size_ && reuse_input_ == other.reuse_input_ &&
         data_offset_ == other.data_offset_ && device_type_ == other.device_type_;
}

}  // namespace ge
