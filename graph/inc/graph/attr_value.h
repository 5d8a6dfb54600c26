// graph/inc/graph/attr_value.h
//
// AttrValue: one attribute value of the AscendIR graph, and NamedAttrs (a
// name plus a map of attributes; GE's "function" value).
//
// Value types (GE's AttrDef numbering, so the serializer maps 1:1):
//   scalar: int64_t (VT_INT), float (VT_FLOAT), bool (VT_BOOL),
//           std::string (VT_STRING), DataType (VT_DATA_TYPE),
//           GeTensorDesc (VT_TENSOR_DESC), GeTensor (VT_TENSOR),
//           AttrValue::Bytes (VT_BYTES), ComputeGraphPtr (VT_GRAPH),
//           NamedAttrs (VT_NAMED_ATTRS),
//           std::vector<std::vector<int64_t>> (VT_LIST_LIST_INT),
//           std::vector<std::vector<float>> (VT_LIST_LIST_FLOAT);
//   lists:  std::vector<T> of each of int64_t, float, bool, std::string,
//           DataType, GeTensorDesc, GeTensor, Bytes, ComputeGraphPtr,
//           NamedAttrs (VT_LIST_INT, ...).
// A default AttrValue is VT_NONE.
//
// Contract
//   * Value semantics: copying an AttrValue copies the value. A GeTensor copy
//     shares its bytes copy-on-write; a ComputeGraphPtr copy shares the graph
//     (GraphUtils::CopyGraph deep-copies graph-valued attributes).
//   * Get<T>() returns nullptr unless the value holds exactly T.
//   * Large values (tensor, tensor desc, named attrs, list of bool) are boxed, so
//     sizeof(AttrValue) stays 40 bytes.
//
// Example
//   AttrValue v = AttrValue::CreateFrom<std::vector<int64_t>>({1, 2});
//   v.GetValueType() == AttrValue::VT_LIST_INT;
//   const std::vector<int64_t>* dims = v.Get<std::vector<int64_t>>();
#ifndef GRAPH_INC_GRAPH_ATTR_VALUE_H_
#define GRAPH_INC_GRAPH_ATTR_VALUE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {

// A name plus attributes (sorted by name), e.g. a function reference.
class NamedAttrs : public AttrHolder {
 public:
  NamedAttrs() = default;
  explicit NamedAttrs(std::string name) : name_(std::move(name)) {}

  const std::string& GetName() const { return name_; }
  void SetName(const std::string& name) { name_ = name; }

  bool operator==(const NamedAttrs& other) const {
    return name_ == other.name_ && GetAttrStore() == other.GetAttrStore();
  }
  bool operator!=(const NamedAttrs& other) const { return !(*this == other); }

 private:
  std::string name_;
};

namespace attr_internal {
// Heap box with value semantics (deep copy, deep equality); never null.
template <typename T>
class Box {
 public:
  Box() : p_(std::make_unique<T>()) {}
  explicit Box(T value) : p_(std::make_unique<T>(std::move(value))) {}
  Box(const Box& other) : p_(std::make_unique<T>(*other.p_)) {}
  Box(Box&& other) noexcept : p_(std::move(other.p_)) {}
  Box& operator=(const Box& other) {
    if (this != &other) p_ = std::make_unique<T>(*other.p_);
    return *this;
  }
  Box& operator=(Box&& other) noexcept {
    p_ = std::move(other.p_);
    return *this;
  }
  // A moved-from box is only assigned to or destroyed.
  const T& get() const { return *p_; }
  T& get() { return *p_; }
  bool operator==(const Box& other) const { return *p_ == *other.p_; }

 private:
  std::unique_ptr<T> p_;
};
}  // namespace attr_internal

class AttrValue {
 public:
  using INT = int64_t;
  using FLOAT = float;
  using BOOL = bool;
  using STR = std::string;
  using Bytes = std::vector<uint8_t>;

  enum ValueType : int32_t {
    VT_NONE = 0,
    VT_STRING = 1,
    VT_FLOAT = 2,
    VT_BOOL = 3,
    VT_INT = 4,
    VT_TENSOR_DESC = 5,
    VT_TENSOR = 6,
    VT_BYTES = 7,
    VT_GRAPH = 8,
    VT_NAMED_ATTRS = 9,
    VT_LIST_LIST_INT = 10,
    VT_DATA_TYPE = 11,
    VT_LIST_LIST_FLOAT = 12,

    VT_LIST_BASE = 1000,
    VT_LIST_STRING = VT_LIST_BASE + VT_STRING,
    VT_LIST_FLOAT = VT_LIST_BASE + VT_FLOAT,
    VT_LIST_BOOL = VT_LIST_BASE + VT_BOOL,
    VT_LIST_INT = VT_LIST_BASE + VT_INT,
    VT_LIST_TENSOR_DESC = VT_LIST_BASE + VT_TENSOR_DESC,
    VT_LIST_TENSOR = VT_LIST_BASE + VT_TENSOR,
    VT_LIST_BYTES = VT_LIST_BASE + VT_BYTES,
    VT_LIST_GRAPH = VT_LIST_BASE + VT_GRAPH,
    VT_LIST_NAMED_ATTRS = VT_LIST_BASE + VT_NAMED_ATTRS,
    VT_LIST_DATA_TYPE = VT_LIST_BASE + VT_DATA_TYPE,
  };

  // Type name for messages: "int", "list_int", "tensor", "none", ...
  static absl::string_view ValueTypeName(ValueType type);

  // The value type of T (VT_NONE for an unsupported T, a compile error when
  // used with CreateFrom / Set).
  template <typename T>
  static constexpr ValueType TypeOf();

  AttrValue() = default;

  template <typename T>
  static AttrValue CreateFrom(T value) {
    AttrValue v;
    v.Set(std::move(value));
    return v;
  }

  template <typename T>
  void Set(T value);

  // nullptr unless the value holds exactly T.
  template <typename T>
  const T* Get() const;
  template <typename T>
  T* GetMutable();

  ValueType GetValueType() const;
  bool IsEmpty() const { return value_.index() == 0; }

  bool operator==(const AttrValue& other) const { return value_ == other.value_; }
  bool operator!=(const AttrValue& other) const { return !(*this == other); }

 private:
  template <typename T>
  using Boxed = attr_internal::Box<T>;

  // The order of alternatives is internal; ValueType is what callers see.
  using Variant =
      std::variant<std::monostate, int64_t, float, bool, std::string, DataType, Boxed<GeTensorDesc>,
                   Boxed<GeTensor>, Bytes, ComputeGraphPtr, Boxed<NamedAttrs>,
                   std::vector<std::vector<int64_t>>, std::vector<std::vector<float>>,
                   std::vector<int64_t>, std::vector<float>, Boxed<std::vector<bool>>,
                   std::vector<std::string>, std::vector<DataType>, std::vector<GeTensorDesc>,
                   std::vector<GeTensor>, std::vector<Bytes>, std::vector<ComputeGraphPtr>,
                   std::vector<NamedAttrs>>;

  // Storage type of T inside the variant.
  template <typename T>
  struct Storage {
    using type = T;
  };

  Variant value_;
};

// ---- implementation details ----

template <>
struct AttrValue::Storage<GeTensorDesc> {
  using type = attr_internal::Box<GeTensorDesc>;
};
template <>
struct AttrValue::Storage<GeTensor> {
  using type = attr_internal::Box<GeTensor>;
};
template <>
struct AttrValue::Storage<NamedAttrs> {
  using type = attr_internal::Box<NamedAttrs>;
};
// std::vector<bool> is 40 bytes in libstdc++.
template <>
struct AttrValue::Storage<std::vector<bool>> {
  using type = attr_internal::Box<std::vector<bool>>;
};

template <typename T>
constexpr AttrValue::ValueType AttrValue::TypeOf() {
  if constexpr (std::is_same_v<T, int64_t>)
    return VT_INT;
  else if constexpr (std::is_same_v<T, float>)
    return VT_FLOAT;
  else if constexpr (std::is_same_v<T, bool>)
    return VT_BOOL;
  else if constexpr (std::is_same_v<T, std::string>)
    return VT_STRING;
  else if constexpr (std::is_same_v<T, DataType>)
    return VT_DATA_TYPE;
  else if constexpr (std::is_same_v<T, GeTensorDesc>)
    return VT_TENSOR_DESC;
  else if constexpr (std::is_same_v<T, GeTensor>)
    return VT_TENSOR;
  else if constexpr (std::is_same_v<T, Bytes>)
    return VT_BYTES;
  else if constexpr (std::is_same_v<T, ComputeGraphPtr>)
    return VT_GRAPH;
  else if constexpr (std::is_same_v<T, NamedAttrs>)
    return VT_NAMED_ATTRS;
  else if constexpr (std::is_same_v<T, std::vector<std::vector<int64_t>>>)
    return VT_LIST_LIST_INT;
  else if constexpr (std::is_same_v<T, std::vector<std::vector<float>>>)
    return VT_LIST_LIST_FLOAT;
  else if constexpr (std::is_same_v<T, std::vector<int64_t>>)
    return VT_LIST_INT;
  else if constexpr (std::is_same_v<T, std::vector<float>>)
    return VT_LIST_FLOAT;
  else if constexpr (std::is_same_v<T, std::vector<bool>>)
    return VT_LIST_BOOL;
  else if constexpr (std::is_same_v<T, std::vector<std::string>>)
    return VT_LIST_STRING;
  else if constexpr (std::is_same_v<T, std::vector<DataType>>)
    return VT_LIST_DATA_TYPE;
  else if constexpr (std::is_same_v<T, std::vector<GeTensorDesc>>)
    return VT_LIST_TENSOR_DESC;
  else if constexpr (std::is_same_v<T, std::vector<GeTensor>>)
    return VT_LIST_TENSOR;
  else if constexpr (std::is_same_v<T, std::vector<Bytes>>)
    return VT_LIST_BYTES;
  else if constexpr (std::is_same_v<T, std::vector<ComputeGraphPtr>>)
    return VT_LIST_GRAPH;
  else if constexpr (std::is_same_v<T, std::vector<NamedAttrs>>)
    return VT_LIST_NAMED_ATTRS;
  else
    return VT_NONE;
}

template <typename T>
void AttrValue::Set(T value) {
  static_assert(TypeOf<T>() != VT_NONE, "unsupported attribute value type");
  using S = typename Storage<T>::type;
  if constexpr (std::is_same_v<S, T>) {
    value_.template emplace<S>(std::move(value));
  } else {
    value_.template emplace<S>(S(std::move(value)));
  }
}

template <typename T>
const T* AttrValue::Get() const {
  static_assert(TypeOf<T>() != VT_NONE, "unsupported attribute value type");
  using S = typename Storage<T>::type;
  const S* s = std::get_if<S>(&value_);
  if (s == nullptr) return nullptr;
  if constexpr (std::is_same_v<S, T>) {
    return s;
  } else {
    return &s->get();
  }
}

template <typename T>
T* AttrValue::GetMutable() {
  return const_cast<T*>(static_cast<const AttrValue*>(this)->Get<T>());
}

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_ATTR_VALUE_H_
