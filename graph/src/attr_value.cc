// graph/src/attr_value.cc
//
// AttrValue: value type names and the variant-index -> ValueType mapping.
#include "graph/inc/graph/attr_value.h"

#include <type_traits>
#include <variant>

#include "absl/strings/string_view.h"

namespace ge {
namespace {

template <typename S>
struct Unbox {
  using type = S;
};
template <typename T>
struct Unbox<attr_internal::Box<T>> {
  using type = T;
};

}  // namespace

absl::string_view AttrValue::ValueTypeName(ValueType type) {
  switch (type) {
    case VT_NONE:
      return "none";
    case VT_STRING:
      return "string";
    case VT_FLOAT:
      return "float";
    case VT_BOOL:
      return "bool";
    case VT_INT:
      return "int";
    case VT_TENSOR_DESC:
      return "tensor_desc";
    case VT_TENSOR:
      return "tensor";
    case VT_BYTES:
      return "bytes";
    case VT_GRAPH:
      return "graph";
    case VT_NAMED_ATTRS:
      return "named_attrs";
    case VT_LIST_LIST_INT:
      return "list_list_int";
    case VT_DATA_TYPE:
      return "data_type";
    case VT_LIST_LIST_FLOAT:
      return "list_list_float";
    case VT_LIST_BASE:
      return "list";
    case VT_LIST_STRING:
      return "list_string";
    case VT_LIST_FLOAT:
      return "list_float";
    case VT_LIST_BOOL:
      return "list_bool";
    case VT_LIST_INT:
      return "list_int";
    case VT_LIST_TENSOR_DESC:
      return "list_tensor_desc";
    case VT_LIST_TENSOR:
      return "list_tensor";
    case VT_LIST_BYTES:
      return "list_bytes";
    case VT_LIST_GRAPH:
      return "list_graph";
    case VT_LIST_NAMED_ATTRS:
      return "list_named_attrs";
    case VT_LIST_DATA_TYPE:
      return "list_data_type";
  }
  return "unknown";
}

AttrValue::ValueType AttrValue::GetValueType() const {
  return std::visit(
      [](const auto& v) -> ValueType {
        using S = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<S, std::monostate>) {
          return VT_NONE;
        } else {
          return TypeOf<typename Unbox<S>::type>();
        }
      },
      value_);
}

}  // namespace ge
