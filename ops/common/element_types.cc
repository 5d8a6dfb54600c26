// ops/common/element_types.cc
#include "ops/common/element_types.h"

#include <string>

#include "metadef/inc/external/graph/type_utils.h"

namespace ops {

std::string DataTypeName(ge::DataType dt) { return ge::TypeUtils::DataTypeToSerialString(dt); }

}  // namespace ops
