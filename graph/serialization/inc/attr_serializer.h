// graph/serialization/inc/attr_serializer.h
//
// Attribute serialization by type dispatch (seed 000, section 7.3): one
// AttrSerializer object per AttrValue::ValueType, looked up in the
// AttrSerializerRegistry. The built-in serializers cover every type (int,
// float, bool, string, data type, tensor desc, tensor, bytes, graph, named
// attrs, list-list-int, list-list-float and every list); a new value type
// plugs in by registering a serializer for it, without touching the
// framework.
//
// Encoding (ge.proto.AttrDef): scalars in the oneof (s, i, f, b, bt, dt,
// td, t, g, func, list_list_int, list_list_float); lists in `list` with
// `val_type` naming the element type, so empty lists keep their type. A
// VT_NONE value is an AttrDef with nothing set. Data types are written as
// proto::DataType numbers. A graph is a standalone GraphDef (its subgraphs
// nested).
//
// Contract
//   * Lookups are lock-free; Register may run concurrently with them.
//     A replaced serializer stays alive (lookups may still hold it).
//   * Deserialize checks that the AttrDef carries exactly the encoded type
//     (e.g. a list typed VT_LIST_INT must not carry strings) and the
//     DeserializeOptions limits; errors are ParseFailed / OutOfRange naming
//     the type and the count. Callers prefix the attribute name.
//
// Example
//   class MySerializer : public AttrSerializer { ... };
//   RETURN_IF_ERROR(AttrSerializerRegistry::Instance().Register(
//       AttrValue::VT_INT, std::make_unique<MySerializer>(), /*replace=*/true));
//   proto::AttrDef def;
//   RETURN_IF_ERROR(SerializeAttrValue(value, &def, ctx));
#ifndef GRAPH_SERIALIZATION_INC_ATTR_SERIALIZER_H_
#define GRAPH_SERIALIZATION_INC_ATTR_SERIALIZER_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "google/protobuf/repeated_ptr_field.h"
#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/proto/ge_ir.pb.h"
#include "graph/serialization/inc/serialize_context.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class AttrSerializer {
 public:
  virtual ~AttrSerializer() = default;
  // `value` holds the serializer's type.
  virtual Status Serialize(const AttrValue& value, proto::AttrDef* def,
                           SerializeContext& ctx) const = 0;
  // `def` encodes the serializer's type (AttrSerializerRegistry::ValueTypeOf).
  virtual Status Deserialize(const proto::AttrDef& def, AttrValue* value,
                             DeserializeContext& ctx) const = 0;
};

class AttrSerializerRegistry {
 public:
  // The process-wide registry with the built-in serializers.
  static AttrSerializerRegistry& Instance();

  // AlreadyExists when the type has a serializer and !replace; ParamInvalid
  // for a null serializer or a type outside [0, 64) and [1000, 1064).
  Status Register(AttrValue::ValueType type, std::unique_ptr<const AttrSerializer> serializer,
                  bool replace = false);
  // nullptr when none.
  const AttrSerializer* Get(AttrValue::ValueType type) const;
  // The built-in serializer of a type (nullptr for a type without one), for
  // codecs that inline a type's encoding as long as it is not replaced.
  const AttrSerializer* Builtin(AttrValue::ValueType type) const;

  // The value type an AttrDef encodes: the oneof case, or for a list its
  // val_type. VT_NONE for an empty AttrDef. ParseFailed for a list whose
  // val_type is missing or unknown.
  static StatusOr<AttrValue::ValueType> ValueTypeOf(const proto::AttrDef& def);

 private:
  AttrSerializerRegistry();
  template <typename T>
  void RegisterBuiltin();
  static constexpr size_t kSlots = 128;
  static int SlotOf(AttrValue::ValueType type);

  std::array<std::atomic<const AttrSerializer*>, kSlots> slots_{};
  std::array<const AttrSerializer*, kSlots> builtin_{};  // set in the constructor
  absl::Mutex mu_;
  std::vector<std::unique_ptr<const AttrSerializer>> owned_ ABSL_GUARDED_BY(mu_);
};

// Dispatch through the registry (with one level of attribute nesting).
// NotSupported when no serializer is registered for the type.
Status SerializeAttrValue(const AttrValue& value, proto::AttrDef* def, SerializeContext& ctx);
Status DeserializeAttrValue(const proto::AttrDef& def, AttrValue* value, DeserializeContext& ctx);

// A whole attribute store <-> AttrEntry lists (written in name order; read in
// any order, a repeated name overriding the earlier one as in a map). Errors
// name the attribute.
using AttrEntries = google::protobuf::RepeatedPtrField<proto::AttrEntry>;
Status SerializeAttrStore(const AttrStore& store, AttrEntries* attrs, SerializeContext& ctx);
Status DeserializeAttrStore(const AttrEntries& attrs, AttrStore* store, DeserializeContext& ctx);

}  // namespace ge

#endif  // GRAPH_SERIALIZATION_INC_ATTR_SERIALIZER_H_
