// ops/common/tensor_values.h
//
// Tensor values: reading them (ReadIntTensor: INT32 / INT64 as int64;
// ReadAsDoubles: any real / BOOL; CheckTensorData) and making host tensors
// from values (MakeHostTensor<T>, MakeHostTensorFromDoubles). Errors name
// the dtype, the shape or the count; nothing aborts.
//
// Example
//   ASSIGN_OR_RETURN(std::vector<int64_t> shape, ops::ReadIntTensor(*t));
//   ASSIGN_OR_RETURN(gert::HostTensor h,
//                    ops::MakeHostTensor<float>(ge::DT_FLOAT, {2}, {1.0f, 2.0f}));
#ifndef OPS_COMMON_TENSOR_VALUES_H_
#define OPS_COMMON_TENSOR_VALUES_H_

#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/tensor.h"
#include "ops/common/element_types.h"

namespace ops {

// The elements of an INT32 / INT64 tensor (any rank) as int64. TypeMismatch
// for other dtypes; ParamInvalid for unknown shapes, null data or a buffer
// smaller than the shape needs.
ge::StatusOr<std::vector<int64_t>> ReadIntTensor(const gert::Tensor& t);
// The elements of any real / BOOL tensor as double (int64 beyond 2^53 loses
// precision). NotSupported for STRING / complex / other dtypes.
ge::StatusOr<std::vector<double>> ReadAsDoubles(const gert::Tensor& t);
// OK when t has a known shape and, if it has elements, data covering them.
ge::Status CheckTensorData(const gert::Tensor& t);

// A HostTensor of `dtype` / `shape` holding `values` (row-major). T must be
// the storage type of dtype (fp16_t / bf16_t or uint16_t bits for FLOAT16 /
// BF16, std::string for STRING); TypeMismatch otherwise, ParamInvalid when
// the count differs from the shape's.
template <typename T>
ge::StatusOr<gert::HostTensor> MakeHostTensor(ge::DataType dtype, const gert::Shape& shape,
                                              absl::Span<const T> values);
template <typename T>
ge::StatusOr<gert::HostTensor> MakeHostTensor(ge::DataType dtype, const gert::Shape& shape,
                                              std::initializer_list<T> values) {
  return MakeHostTensor<T>(dtype, shape, absl::Span<const T>(values.begin(), values.size()));
}
// Converts each value to dtype (any real type or BOOL; integers truncate
// toward zero and saturate, NaN -> 0; FP16/BF16 round to nearest even).
ge::StatusOr<gert::HostTensor> MakeHostTensorFromDoubles(ge::DataType dtype,
                                                         const gert::Shape& shape,
                                                         absl::Span<const double> values);

// ------------------------------------------------------------ implementation

template <typename T>
ge::StatusOr<gert::HostTensor> MakeHostTensor(ge::DataType dtype, const gert::Shape& shape,
                                              absl::Span<const T> values) {
  constexpr ge::DataType kDt = DataTypeOf<T>();
  const bool ok_type = kDt == dtype || (std::is_same_v<T, uint16_t> &&
                                        (dtype == ge::DT_FLOAT16 || dtype == ge::DT_BF16));
  if (!ok_type) {
    return ge::TypeMismatch("MakeHostTensor: values of ", DataTypeName(kDt),
                            " cannot fill a tensor of ", DataTypeName(dtype));
  }
  const int64_t count = shape.GetShapeSize();
  if (count < 0 || static_cast<uint64_t>(count) != values.size()) {
    return ge::ParamInvalid("MakeHostTensor: shape ", shape.ToString(), " needs ", count,
                            " elements, got ", values.size());
  }
  ASSIGN_OR_RETURN(gert::HostTensor t, gert::HostTensor::Create(dtype, shape));
  T* p = t.template MutableData<T>();
  for (size_t i = 0; i < values.size(); ++i) p[i] = values[i];
  return t;
}

}  // namespace ops

#endif  // OPS_COMMON_TENSOR_VALUES_H_
