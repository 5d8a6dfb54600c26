// metadef/inc/external/graph/tensor_desc.h
//
// TensorDesc: shape + data type + format bound together (seed 003), with the
// origin (pre-optimisation) shape / format / dtype, RealDimCnt (logical rank
// when the physical format has more dims), and the extended meta that memory
// planning fills in (size, weight size, reuse-input, data offset, device type).
//
// GetSize() is format-aware: for a blocked format (NC1HWC0, FRACTAL_Z,
// FRACTAL_NZ, NDC1HWC0, ...) it sizes the physical shape derived from the
// origin shape (see format_transfer.h), counts sub-byte types in bits rounded
// up to bytes, and aligns to kTensorAlignment. It fails on unknown shapes,
// STRING / UNDEFINED data types and overflow.
//
// Example
//   TensorDesc d(Shape({1, 3, 224, 224}), DT_FLOAT, FORMAT_NCHW);
//   ASSIGN_OR_RETURN(int64_t bytes, d.GetSize());   // 602112 (aligned up)
#ifndef METADEF_INC_EXTERNAL_GRAPH_TENSOR_DESC_H_
#define METADEF_INC_EXTERNAL_GRAPH_TENSOR_DESC_H_

#include <cstdint>
#include <string>
#include <utility>

#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/shape.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {

// Memory alignment of every tensor (bytes): GE aligns to 32 and adds 32; we
// align to 64 so AVX-512 kernels can use aligned loads.
constexpr int64_t kTensorAlignment = 64;

enum class DeviceType : int32_t { kNpu = 0, kCpu = 1 };

class TensorDesc {
 public:
  TensorDesc() = default;
  // Origin shape / format / dtype start equal to the given ones.
  TensorDesc(const Shape& shape, DataType data_type = DT_FLOAT, Format format = FORMAT_ND);

  const Shape& GetShape() const { return shape_; }
  Shape& MutableShape() { return shape_; }
  void SetShape(const Shape& shape) { shape_ = shape; }
  DataType GetDataType() const { return data_type_; }
  void SetDataType(DataType dt) { data_type_ = dt; }
  Format GetFormat() const { return format_; }
  void SetFormat(Format format) { format_ = format; }

  const Shape& GetOriginShape() const { return origin_shape_; }
  void SetOriginShape(const Shape& shape) { origin_shape_ = shape; }
  Format GetOriginFormat() const { return origin_format_; }
  void SetOriginFormat(Format format) { origin_format_ = format; }
  DataType GetOriginDataType() const { return origin_data_type_; }
  void SetOriginDataType(DataType dt) { origin_data_type_ = dt; }

  // Logical rank; -1 until set (then the shape's rank is used).
  void SetRealDimCnt(int64_t real_dim_cnt) { real_dim_cnt_ = real_dim_cnt; }
  int64_t GetRealDimCnt() const;
  // True when a real dim count (>= 0) was set, even one equal to the rank.
  bool HasRealDimCnt() const { return real_dim_cnt_ >= 0; }

  // Shape range for dynamic dims (forwarded to the shape).
  Status SetShapeRange(std::vector<std::pair<int64_t, int64_t>> range) {
    return shape_.SetShapeRange(std::move(range));
  }
  const std::vector<std::pair<int64_t, int64_t>>& GetShapeRange() const {
    return shape_.GetShapeRange();
  }

  // Extended meta (filled by memory planning / weights handling).
  int64_t GetSizeMeta() const { return size_; }
  void SetSizeMeta(int64_t size) { size_ = size; }
  int64_t GetWeightSize() const { return weight_size_; }
  void SetWeightSize(int64_t size) { weight_size_ = size; }
  bool GetReuseInput() const { return reuse_input_; }
  void SetReuseInput(bool reuse) { reuse_input_ = reuse; }
  int64_t GetDataOffset() const { return data_offset_; }
  void SetDataOffset(int64_t offset) { data_offset_ = offset; }
  DeviceType GetDeviceType() const { return device_type_; }
  void SetDeviceType(DeviceType type) { device_type_ = type; }

  // Byte size of the data (format-aware), unaligned.
  StatusOr<int64_t> GetDataSize() const;
  // GetDataSize() rounded up to kTensorAlignment (0 stays 0).
  StatusOr<int64_t> GetSize() const;

  bool operator==(const TensorDesc& other) const;
  bool operator!=(const TensorDesc& other) const { return !(*this == other); }

 private:
  Shape shape_;
  DataType data_type_ = DT_FLOAT;
  Format format_ = FORMAT_ND;
  Shape origin_shape_;
  Format origin_format_ = FORMAT_ND;
  DataType origin_data_type_ = DT_FLOAT;
  int64_t real_dim_cnt_ = -1;
  int64_t size_ = 0;
  int64_t weight_size_ = 0;
  bool reuse_input_ = false;
  int64_t data_offset_ = 0;
  DeviceType device_type_ = DeviceType::kNpu;
  // ABI reserve (seed 003): room to grow without changing the class size.
  int64_t reserved_[4] = {0, 0, 0, 0};
};

}  // namespace ge

#endif  // METADEF_INC_EXTERNAL_GRAPH_TENSOR_DESC_H_
