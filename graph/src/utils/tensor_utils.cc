// graph/src/utils/tensor_utils.cc
//
// TensorUtils: memory sizes (fast path for plain formats, TensorDesc for the
// rest).
#include "graph/inc/graph/utils/tensor_utils.h"

#include <algorithm>
#include <cstdint>

#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/inc/graph/ge_tensor.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_desc.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

constexpr size_t kSample = 64;  // bytes of each SampledContentHash sample

// Formats whose physical layout is the logical shape itself.
bool IsPlainFormat(Format format) {
  if (HasSubFormat(format) || HasC0Format(format)) return false;
  switch (format) {
    case FORMAT_ND:
    case FORMAT_NCHW:
    case FORMAT_NHWC:
    case FORMAT_NCDHW:
    case FORMAT_NDHWC:
    case FORMAT_HWCN:
    case FORMAT_CHWN:
    case FORMAT_DHWCN:
    case FORMAT_DHWNC:
    case FORMAT_NC:
    case FORMAT_CN:
    case FORMAT_NCL:
    case FORMAT_MD:
      return true;
    default:
      return false;
  }
}

// Bits per element of every data type (0: no fixed size), from TypeUtils.
struct BitsTable {
  int64_t bits[DT_MAX] = {};
  BitsTable() {
    for (int32_t dt = 0; dt < DT_MAX; ++dt) {
      auto b = TypeUtils::GetSizeInBits(static_cast<DataType>(dt));
      bits[dt] = b.ok() ? *b : 0;
    }
  }
};

int64_t BitsOf(DataType dt) {
  static const BitsTable* const table = new BitsTable();
  return (dt >= 0 && dt < DT_MAX) ? table->bits[dt] : 0;
}

// Byte size of a known shape of a plain format; false when the fast path
// does not apply (the slow path then produces the value or the error).
bool FastDataSize(const GeShape& shape, DataType data_type, int64_t* bytes) {
  const int64_t bits = BitsOf(data_type);
  if (bits == 0) return false;
  int64_t count = 1;
  for (int64_t d : shape.GetDimsSpan()) {
    if (d < 0) return false;
    if (__builtin_mul_overflow(count, d, &count)) return false;
  }
  int64_t total_bits = 0;
  if (__builtin_mul_overflow(count, bits, &total_bits)) return false;
  *bytes = total_bits / 8 + (total_bits % 8 != 0 ? 1 : 0);
  return true;
}

StatusOr<int64_t> Align(int64_t bytes) {
  int64_t padded = 0;
  if (__builtin_add_overflow(bytes, kTensorAlignment - 1, &padded)) {
    return Overflow("tensor size ", bytes, " overflows int64 when aligned to ", kTensorAlignment,
                    " bytes");
  }
  return padded / kTensorAlignment * kTensorAlignment;
}

}  // namespace

StatusOr<int64_t> TensorUtils::CalcTensorMemSize(const GeShape& shape, Format format,
                                                 DataType data_type) {
  int64_t bytes = 0;
  if (IsPlainFormat(format) && FastDataSize(shape, data_type, &bytes)) return Align(bytes);
  return TensorDesc(shape.ToShape(), data_type, format).GetSize();
}

StatusOr<int64_t> TensorUtils::CalcTensorMemSize(const GeTensorDesc& desc) {
  int64_t bytes = 0;
  if (IsPlainFormat(desc.GetFormat()) &&
      FastDataSize(desc.GetShape(), desc.GetDataType(), &bytes)) {
    return Align(bytes);
  }
  return desc.GetSize();
}

StatusOr<int64_t> TensorUtils::GetTensorSizeInBytes(const GeTensorDesc& desc) {
  int64_t bytes = 0;
  if (IsPlainFormat(desc.GetFormat()) &&
      FastDataSize(desc.GetShape(), desc.GetDataType(), &bytes)) {
    return bytes;
  }
  return desc.GetDataSize();
}

size_t TensorUtils::SampledContentHash(const GeTensor& tensor) {
  const absl::Span<const uint8_t> data = tensor.GetBytes();
  auto part = [&data](size_t at) {
    const size_t from = std::min(at, data.size());
    return absl::string_view(reinterpret_cast<const char*>(data.data()) + from,
                             std::min(kSample, data.size() - from));
  };
  const size_t tail = data.size() > kSample ? data.size() - kSample : 0;
  const GeTensorDesc& d = tensor.GetTensorDesc();
  return absl::HashOf(data.size(), part(0), part(data.size() / 2), part(tail),
                      static_cast<int32_t>(d.GetDataType()), d.GetShape().GetDimsSpan());
}

}  // namespace ge
