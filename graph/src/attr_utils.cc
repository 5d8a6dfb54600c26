// graph/src/attr_utils.cc
//
// AttrUtils: the untyped entry points and the error messages.
#include "graph/inc/graph/attr_utils.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace {
Status NullHolder(const std::string& name) {
  return ParamInvalid("attribute '", name, "': the object holding it is null");
}
}  // namespace

bool AttrUtils::HasAttr(ConstHolderRef obj, const std::string& name) {
  return obj.get() != nullptr && obj.get()->HasAttr(name);
}

Status AttrUtils::DelAttr(HolderRef obj, const std::string& name) {
  if (obj.get() == nullptr) return NullHolder(name);
  return obj.get()->DelAttr(name);
}

Status AttrUtils::SetAttr(HolderRef obj, const std::string& name, AttrValue value) {
  if (obj.get() == nullptr) return NullHolder(name);
  return obj.get()->SetAttr(name, std::move(value));
}

StatusOr<const AttrValue*> AttrUtils::GetAttr(ConstHolderRef obj, const std::string& name) {
  if (obj.get() == nullptr) return NullHolder(name);
  const AttrValue* v = obj.get()->GetAttr(name);
  if (v == nullptr) return NotFound("attribute '", name, "' not found");
  return v;
}

StatusOr<std::map<std::string, AttrValue>> AttrUtils::GetAllAttrs(ConstHolderRef obj) {
  if (obj.get() == nullptr) return ParamInvalid("GetAllAttrs: the object is null");
  return obj.get()->GetAllAttrs();
}

StatusOr<std::vector<std::string>> AttrUtils::GetAllAttrNames(ConstHolderRef obj) {
  if (obj.get() == nullptr) return ParamInvalid("GetAllAttrNames: the object is null");
  return obj.get()->GetAllAttrNames();
}

Status AttrUtils::Mismatch(const std::string& name, const AttrValue& actual,
                           AttrValue::ValueType requested) {
  return TypeMismatch("attribute '", name, "' is ", AttrValue::ValueTypeName(actual.GetValueType()),
                      ", not ", AttrValue::ValueTypeName(requested));
}

}  // namespace ge
