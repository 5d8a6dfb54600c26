// ops/common/dtype_dispatch.cc
#include "ops/common/dtype_dispatch.h"

namespace ops {

uint32_t TypeGroupOf(ge::DataType dt) {
  switch (dt) {
    case ge::DT_FLOAT:
    case ge::DT_DOUBLE:
      return kTgFloat;
    case ge::DT_FLOAT16:
    case ge::DT_BF16:
      return kTgHalf;
    case ge::DT_INT8:
    case ge::DT_INT16:
    case ge::DT_INT32:
    case ge::DT_INT64:
      return kTgSigned;
    case ge::DT_UINT8:
    case ge::DT_UINT16:
    case ge::DT_UINT32:
    case ge::DT_UINT64:
      return kTgUnsigned;
    case ge::DT_BOOL:
      return kTgBool;
    case ge::DT_STRING:
      return kTgString;
    case ge::DT_COMPLEX64:
    case ge::DT_COMPLEX128:
      return kTgComplex;
    default:
      return 0;
  }
}

}  // namespace ops
