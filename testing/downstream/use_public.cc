// A downstream program: builds a tensor description with the public metadef
// API and prints its size. Exits non-zero if the API misbehaves.
#include <cstdio>

#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/shape.h"
#include "metadef/inc/external/graph/tensor_desc.h"
#include "metadef/inc/external/graph/type_utils.h"

int main() {
  ge::StatusOr<ge::Shape> shape = ge::Shape::Create({1, 3, 224, 224});
  if (!shape.ok()) return 1;
  ge::TensorDesc desc(*shape, ge::DT_FLOAT, ge::FORMAT_NCHW);
  ge::StatusOr<int64_t> size = desc.GetSize();
  if (!size.ok() || *size != 1 * 3 * 224 * 224 * 4) return 2;
  std::printf("downstream: %s %s tensor of %lld bytes\n",
              ge::TypeUtils::DataTypeToSerialString(desc.GetDataType()).c_str(),
              ge::TypeUtils::FormatToSerialString(desc.GetFormat()).c_str(),
              static_cast<long long>(*size));
  return 0;
}
