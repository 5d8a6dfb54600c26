// ops/common/tensor_values.cc
#include "ops/common/tensor_values.h"

#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "ops/common/dtype_dispatch.h"

namespace ops {

ge::Status CheckTensorData(const gert::Tensor& t) {
  const int64_t count = t.GetShape().GetShapeSize();
  if (count < 0) {
    return ge::ParamInvalid("tensor shape ", t.GetShape().ToString(), " is not fully known");
  }
  if (count == 0) return ge::OkStatus();
  ASSIGN_OR_RETURN(size_t bytes, gert::HostStorageBytes(t.GetDataType(), count));
  if (t.GetAddr() == nullptr) {
    return ge::ParamInvalid("tensor of shape ", t.GetShape().ToString(), " has no data");
  }
  if (t.GetSize() < bytes) {
    return ge::ParamInvalid("tensor of shape ", t.GetShape().ToString(), " and ",
                            DataTypeName(t.GetDataType()), " needs ", bytes, " bytes, has ",
                            t.GetSize());
  }
  return ge::OkStatus();
}

ge::StatusOr<std::vector<int64_t>> ReadIntTensor(const gert::Tensor& t) {
  const ge::DataType dt = t.GetDataType();
  if (dt != ge::DT_INT32 && dt != ge::DT_INT64) {
    return ge::TypeMismatch("expected an INT32 or INT64 tensor, got ", DataTypeName(dt));
  }
  RETURN_IF_ERROR(CheckTensorData(t));
  const int64_t count = t.GetShape().GetShapeSize();
  std::vector<int64_t> out(static_cast<size_t>(count));
  if (dt == ge::DT_INT32) {
    const int32_t* p = t.GetData<int32_t>();
    for (int64_t i = 0; i < count; ++i) out[i] = p[i];
  } else {
    const int64_t* p = t.GetData<int64_t>();
    for (int64_t i = 0; i < count; ++i) out[i] = p[i];
  }
  return out;
}

ge::StatusOr<std::vector<double>> ReadAsDoubles(const gert::Tensor& t) {
  RETURN_IF_ERROR(CheckTensorData(t));
  const int64_t count = t.GetShape().GetShapeSize();
  std::vector<double> out(static_cast<size_t>(count));
  RETURN_IF_ERROR(DispatchType<kTgRealBool>(
      t.GetDataType(),
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* p = t.GetData<T>();
        for (int64_t i = 0; i < count; ++i) out[i] = static_cast<double>(ToCompute(p[i]));
        return ge::OkStatus();
      },
      "ReadAsDoubles"));
  return out;
}

ge::StatusOr<gert::HostTensor> MakeHostTensorFromDoubles(ge::DataType dtype,
                                                         const gert::Shape& shape,
                                                         absl::Span<const double> values) {
  const int64_t count = shape.GetShapeSize();
  if (count < 0 || static_cast<uint64_t>(count) != values.size()) {
    return ge::ParamInvalid("MakeHostTensorFromDoubles: shape ", shape.ToString(), " needs ", count,
                            " elements, got ", values.size());
  }
  ASSIGN_OR_RETURN(gert::HostTensor t, gert::HostTensor::Create(dtype, shape));
  RETURN_IF_ERROR(DispatchType<kTgRealBool>(
      dtype,
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* p = t.MutableData<T>();
        for (size_t i = 0; i < values.size(); ++i) {
          p[i] = ConvertElement<T>(values[i]);
        }
        return ge::OkStatus();
      },
      "MakeHostTensorFromDoubles"));
  return t;
}

}  // namespace ops
