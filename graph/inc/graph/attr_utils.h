// graph/inc/graph/attr_utils.h
//
// AttrUtils: typed access to the attributes of any AttrHolder (ComputeGraph,
// OpDesc, GeTensorDesc, NamedAttrs), passed as a reference, a pointer or a
// shared_ptr (OpDescPtr, ComputeGraphPtr, GeTensorDescPtr, ...).
//
// Contract
//   * SetX(obj, name, value) inserts or replaces; ParamInvalid for a null
//     object or an empty name.
//   * GetX(obj, name) returns StatusOr<T>:
//       NotFound     when the attribute is absent ("attribute 'axis' not found"),
//       TypeMismatch when it holds another type; the message names the
//                    attribute, its actual type and the requested type
//                    ("attribute 'axis' is list_int, not int"),
//       ParamInvalid for a null object.
//   * GetPtr<T> avoids the copy of large values (valid until the attribute
//     changes).
//   * Integers are int64, floats are float (GE's AttrDef types).
//
// Example
//   RETURN_IF_ERROR(AttrUtils::SetInt(op_desc, "axis", 1));
//   ASSIGN_OR_RETURN(int64_t axis, AttrUtils::GetInt(op_desc, "axis"));
//   RETURN_IF_ERROR(AttrUtils::SetListInt(op_desc, "pads", {0, 0, 1, 1}));
#ifndef GRAPH_INC_GRAPH_ATTR_UTILS_H_
#define GRAPH_INC_GRAPH_ATTR_UTILS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {

class AttrUtils {
 public:
  // A mutable attribute holder.
  class HolderRef {
   public:
    HolderRef(AttrHolder& holder) : holder_(&holder) {}  // NOLINT: implicit by design
    HolderRef(AttrHolder* holder) : holder_(holder) {}   // NOLINT
    template <typename T, typename = std::enable_if_t<std::is_base_of_v<AttrHolder, T>>>
    HolderRef(const std::shared_ptr<T>& p) : holder_(p.get()) {}  // NOLINT
    AttrHolder* get() const { return holder_; }

   private:
    AttrHolder* holder_;
  };
  // A read-only attribute holder.
  class ConstHolderRef {
   public:
    ConstHolderRef(const AttrHolder& holder) : holder_(&holder) {}  // NOLINT
    ConstHolderRef(const AttrHolder* holder) : holder_(holder) {}   // NOLINT
    template <typename T,
              typename = std::enable_if_t<std::is_base_of_v<AttrHolder, std::remove_const_t<T>>>>
    ConstHolderRef(const std::shared_ptr<T>& p) : holder_(p.get()) {}  // NOLINT
    const AttrHolder* get() const { return holder_; }

   private:
    const AttrHolder* holder_;
  };

  // ---- untyped
  static bool HasAttr(ConstHolderRef obj, const std::string& name);
  static Status DelAttr(HolderRef obj, const std::string& name);
  static Status SetAttr(HolderRef obj, const std::string& name, AttrValue value);
  // NotFound when absent.
  static StatusOr<const AttrValue*> GetAttr(ConstHolderRef obj, const std::string& name);
  static StatusOr<std::map<std::string, AttrValue>> GetAllAttrs(ConstHolderRef obj);
  static StatusOr<std::vector<std::string>> GetAllAttrNames(ConstHolderRef obj);

  // ---- generic typed
  template <typename T>
  static Status Set(HolderRef obj, const std::string& name, T value) {
    return SetAttr(obj, name, AttrValue::CreateFrom<T>(std::move(value)));
  }
  template <typename T>
  static StatusOr<const T*> GetPtr(ConstHolderRef obj, const std::string& name) {
    ASSIGN_OR_RETURN(const AttrValue* v, GetAttr(obj, name));
    const T* typed = v->Get<T>();
    if (typed == nullptr) return Mismatch(name, *v, AttrValue::TypeOf<T>());
    return typed;
  }
  template <typename T>
  static StatusOr<T> Get(ConstHolderRef obj, const std::string& name) {
    ASSIGN_OR_RETURN(const T* typed, GetPtr<T>(obj, name));
    return *typed;
  }

  // ---- scalars
  static Status SetInt(HolderRef obj, const std::string& name, int64_t value) {
    return Set<int64_t>(obj, name, value);
  }
  static StatusOr<int64_t> GetInt(ConstHolderRef obj, const std::string& name) {
    return Get<int64_t>(obj, name);
  }
  static Status SetFloat(HolderRef obj, const std::string& name, float value) {
    return Set<float>(obj, name, value);
  }
  static StatusOr<float> GetFloat(ConstHolderRef obj, const std::string& name) {
    return Get<float>(obj, name);
  }
  static Status SetBool(HolderRef obj, const std::string& name, bool value) {
    return Set<bool>(obj, name, value);
  }
  static StatusOr<bool> GetBool(ConstHolderRef obj, const std::string& name) {
    return Get<bool>(obj, name);
  }
  static Status SetStr(HolderRef obj, const std::string& name, std::string value) {
    return Set<std::string>(obj, name, std::move(value));
  }
  static StatusOr<std::string> GetStr(ConstHolderRef obj, const std::string& name) {
    return Get<std::string>(obj, name);
  }
  static Status SetDataType(HolderRef obj, const std::string& name, DataType value) {
    return Set<DataType>(obj, name, value);
  }
  static StatusOr<DataType> GetDataType(ConstHolderRef obj, const std::string& name) {
    return Get<DataType>(obj, name);
  }
  static Status SetTensor(HolderRef obj, const std::string& name, GeTensor value) {
    return Set<GeTensor>(obj, name, std::move(value));
  }
  static StatusOr<GeTensor> GetTensor(ConstHolderRef obj, const std::string& name) {
    return Get<GeTensor>(obj, name);
  }
  static Status SetTensorDesc(HolderRef obj, const std::string& name, GeTensorDesc value) {
    return Set<GeTensorDesc>(obj, name, std::move(value));
  }
  static StatusOr<GeTensorDesc> GetTensorDesc(ConstHolderRef obj, const std::string& name) {
    return Get<GeTensorDesc>(obj, name);
  }
  static Status SetBytes(HolderRef obj, const std::string& name, AttrValue::Bytes value) {
    return Set<AttrValue::Bytes>(obj, name, std::move(value));
  }
  static StatusOr<AttrValue::Bytes> GetBytes(ConstHolderRef obj, const std::string& name) {
    return Get<AttrValue::Bytes>(obj, name);
  }
  static Status SetGraph(HolderRef obj, const std::string& name, ComputeGraphPtr value) {
    return Set<ComputeGraphPtr>(obj, name, std::move(value));
  }
  static StatusOr<ComputeGraphPtr> GetGraph(ConstHolderRef obj, const std::string& name) {
    return Get<ComputeGraphPtr>(obj, name);
  }
  static Status SetNamedAttrs(HolderRef obj, const std::string& name, NamedAttrs value) {
    return Set<NamedAttrs>(obj, name, std::move(value));
  }
  static StatusOr<NamedAttrs> GetNamedAttrs(ConstHolderRef obj, const std::string& name) {
    return Get<NamedAttrs>(obj, name);
  }

  // ---- lists
  static Status SetListInt(HolderRef obj, const std::string& name, std::vector<int64_t> value) {
    return Set<std::vector<int64_t>>(obj, name, std::move(value));
  }
  // Other integer element types are widened to int64.
  template <typename I,
            typename = std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, int64_t> &&
                                        !std::is_same_v<I, bool>>>
  static Status SetListInt(HolderRef obj, const std::string& name, const std::vector<I>& value) {
    return SetListInt(obj, name, std::vector<int64_t>(value.begin(), value.end()));
  }
  static StatusOr<std::vector<int64_t>> GetListInt(ConstHolderRef obj, const std::string& name) {
    return Get<std::vector<int64_t>>(obj, name);
  }
  static Status SetListFloat(HolderRef obj, const std::string& name, std::vector<float> value) {
    return Set<std::vector<float>>(obj, name, std::move(value));
  }
  static StatusOr<std::vector<float>> GetListFloat(ConstHolderRef obj, const std::string& name) {
    return Get<std::vector<float>>(obj, name);
  }
  static Status SetListBool(HolderRef obj, const std::string& name, std::vector<bool> value) {
    return Set<std::vector<bool>>(obj, name, std::move(value));
  }
  static StatusOr<std::vector<bool>> GetListBool(ConstHolderRef obj, const std::string& name) {
    return Get<std::vector<bool>>(obj, name);
  }
  static Status SetListStr(HolderRef obj, const std::string& name, std::vector<std::string> value) {
    return Set<std::vector<std::string>>(obj, name, std::move(value));
  }
  static StatusOr<std::vector<std::string>> GetListStr(ConstHolderRef obj,
                                                       const std::string& name) {
    return Get<std::vector<std::string>>(obj, name);
  }
  static Status SetListDataType(HolderRef obj, const std::string& name,
                                std::vector<DataType> value) {
    return Set<std::vector<DataType>>(obj, name, std::move(value));
  }
  static StatusOr<std::vector<DataType>> GetListDataType(ConstHolderRef obj,
                                                         const std::string& name) {
    return Get<std::vector<DataType>>(obj, name);
  }
  static Status SetListTensor(HolderRef obj, const std::string& name, std::vector<GeTensor> value) {
    return Set<std::vector<GeTensor>>(obj, name, std::move(value));
  }
  static StatusOr<std::vector<GeTensor>> GetListTensor(ConstHolderRef obj,
                                                       const std::string& name) {
    return Get<std::vector<GeTensor>>(obj, name);
  }
  static Status SetListTensorDesc(HolderRef obj, const std::string& name,
                                  std::vector<GeTensorDesc> value) {
    return Set<std::vector<GeTensorDesc>>(obj, name, std::move(value));
  }
  static StatusOr<std::vector<GeTensorDesc>> GetListTensorDesc(ConstHolderRef obj,
                                                               const std::string& name) {
    return Get<std::vector<GeTensorDesc>>(obj, name);
  }
  static Status SetListBytes(HolderRef obj, const std::string& name,
                             std::vector<AttrValue::Bytes> value) {
    return Set<std::vector<AttrValue::Bytes>>(obj, name, std::move(value));
  }
  static StatusOr<std::vector<AttrValue::Bytes>> GetListBytes(ConstHolderRef obj,
                                                              const std::string& name) {
    return Get<std::vector<AttrValue::Bytes>>(obj, name);
  }
  static Status SetListGraph(HolderRef obj, const std::string& name,
                             std::vector<ComputeGraphPtr> value) {
    return Set<std::vector<ComputeGraphPtr>>(obj, name, std::move(value));
  }
  static StatusOr<std::vector<ComputeGraphPtr>> GetListGraph(ConstHolderRef obj,
                                                             const std::string& name) {
    return Get<std::vector<ComputeGraphPtr>>(obj, name);
  }
  static Status SetListNamedAttrs(HolderRef obj, const std::string& name,
                                  std::vector<NamedAttrs> value) {
    return Set<std::vector<NamedAttrs>>(obj, name, std::move(value));
  }
  static StatusOr<std::vector<NamedAttrs>> GetListNamedAttrs(ConstHolderRef obj,
                                                             const std::string& name) {
    return Get<std::vector<NamedAttrs>>(obj, name);
  }
  static Status SetListListInt(HolderRef obj, const std::string& name,
                               std::vector<std::vector<int64_t>> value) {
    return Set<std::vector<std::vector<int64_t>>>(obj, name, std::move(value));
  }
  static StatusOr<std::vector<std::vector<int64_t>>> GetListListInt(ConstHolderRef obj,
                                                                    const std::string& name) {
    return Get<std::vector<std::vector<int64_t>>>(obj, name);
  }
  static Status SetListListFloat(HolderRef obj, const std::string& name,
                                 std::vector<std::vector<float>> value) {
    return Set<std::vector<std::vector<float>>>(obj, name, std::move(value));
  }
  static StatusOr<std::vector<std::vector<float>>> GetListListFloat(ConstHolderRef obj,
                                                                    const std::string& name) {
    return Get<std::vector<std::vector<float>>>(obj, name);
  }

 private:
  static Status Mismatch(const std::string& name, const AttrValue& actual,
                         AttrValue::ValueType requested);
};

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_ATTR_UTILS_H_
