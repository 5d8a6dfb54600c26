// graph/serialization/src/attr_serializer.cc
//
// The registry and the built-in serializers: TypedSerializer<T> with one
// Write / Read pair per value type (IntSerializer = TypedSerializer<int64_t>,
// TensorSerializer = TypedSerializer<GeTensor>, ...).
#include "graph/serialization/inc/attr_serializer.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/serialization/inc/model_serialize_proto.h"
#include "graph/serialization/inc/tensor_serialize_utils.h"

namespace ge {
namespace {

using ListValue = proto::AttrDef::ListValue;
using Bytes = AttrValue::Bytes;

absl::string_view TypeName(AttrValue::ValueType type) { return AttrValue::ValueTypeName(type); }

// ListValue::val_type numbers <-> AttrValue list types (the enums differ).
constexpr std::pair<ListValue::ListValueType, AttrValue::ValueType> kListTypes[] = {
    {ListValue::VT_LIST_STRING, AttrValue::VT_LIST_STRING},
    {ListValue::VT_LIST_INT, AttrValue::VT_LIST_INT},
    {ListValue::VT_LIST_FLOAT, AttrValue::VT_LIST_FLOAT},
    {ListValue::VT_LIST_BOOL, AttrValue::VT_LIST_BOOL},
    {ListValue::VT_LIST_BYTES, AttrValue::VT_LIST_BYTES},
    {ListValue::VT_LIST_TENSOR_DESC, AttrValue::VT_LIST_TENSOR_DESC},
    {ListValue::VT_LIST_TENSOR, AttrValue::VT_LIST_TENSOR},
    {ListValue::VT_LIST_GRAPH, AttrValue::VT_LIST_GRAPH},
    {ListValue::VT_LIST_NAMED_ATTRS, AttrValue::VT_LIST_NAMED_ATTRS},
    {ListValue::VT_LIST_DATA_TYPE, AttrValue::VT_LIST_DATA_TYPE},
};

constexpr ListValue::ListValueType ListValueTypeOf(AttrValue::ValueType type) {
  for (const auto& [lv, vt] : kListTypes) {
    if (vt == type) return lv;
  }
  return ListValue::VT_LIST_NONE;
}

Status CheckListSize(int64_t size, const DeserializeContext& ctx, absl::string_view what) {
  if (size > ctx.options.max_list_size) {
    return OutOfRange(what, " has ", size, " elements, more than the limit of ",
                      ctx.options.max_list_size);
  }
  return OkStatus();
}

// Element counts of every repeated field of a ListValue, by list type.
struct ListCounts {
  std::pair<AttrValue::ValueType, int> fields[10];
};
ListCounts CountsOf(const ListValue& l) {
  return ListCounts{{{AttrValue::VT_LIST_STRING, l.s_size()},
                     {AttrValue::VT_LIST_INT, l.i_size()},
                     {AttrValue::VT_LIST_FLOAT, l.f_size()},
                     {AttrValue::VT_LIST_BOOL, l.b_size()},
                     {AttrValue::VT_LIST_BYTES, l.bt_size()},
                     {AttrValue::VT_LIST_TENSOR_DESC, l.td_size()},
                     {AttrValue::VT_LIST_TENSOR, l.t_size()},
                     {AttrValue::VT_LIST_GRAPH, l.g_size()},
                     {AttrValue::VT_LIST_NAMED_ATTRS, l.na_size()},
                     {AttrValue::VT_LIST_DATA_TYPE, l.dt_size()}}};
}

// A list typed `type` must carry no element of another type.
Status CheckListFields(const ListValue& l, AttrValue::ValueType type,
                       const DeserializeContext& ctx) {
  for (const auto& [field_type, count] : CountsOf(l).fields) {
    if (field_type == type) {
      RETURN_IF_ERROR(CheckListSize(count, ctx, TypeName(type)));
    } else if (count != 0) {
      return ParseFailed(TypeName(type), " attribute also carries ", count, " ",
                         TypeName(field_type), " elements");
    }
  }
  return OkStatus();
}

// ---------------------------------------------------------------- Write/Read

template <typename T>
struct Codec;

template <>
struct Codec<int64_t> {
  static Status Write(const int64_t& v, proto::AttrDef* d, SerializeContext&) {
    d->set_i(v);
    return OkStatus();
  }
  static Status Read(const proto::AttrDef& d, int64_t* v, DeserializeContext&) {
    *v = d.i();
    return OkStatus();
  }
};
template <>
struct Codec<float> {
  static Status Write(const float& v, proto::AttrDef* d, SerializeContext&) {
    d->set_f(v);
    return OkStatus();
  }
  static Status Read(const proto::AttrDef& d, float* v, DeserializeContext&) {
    *v = d.f();
    return OkStatus();
  }
};
template <>
struct Codec<bool> {
  static Status Write(const bool& v, proto::AttrDef* d, SerializeContext&) {
    d->set_b(v);
    return OkStatus();
  }
  static Status Read(const proto::AttrDef& d, bool* v, DeserializeContext&) {
    *v = d.b();
    return OkStatus();
  }
};
template <>
struct Codec<std::string> {
  static Status Write(const std::string& v, proto::AttrDef* d, SerializeContext&) {
    d->set_s(v);
    return OkStatus();
  }
  static Status Read(const proto::AttrDef& d, std::string* v, DeserializeContext&) {
    *v = d.s();
    return OkStatus();
  }
};
template <>
struct Codec<DataType> {
  static Status Write(const DataType& v, proto::AttrDef* d, SerializeContext&) {
    ASSIGN_OR_RETURN(proto::DataType p, GeTensorSerializeUtils::DataTypeToProto(v));
    d->set_dt(p);
    return OkStatus();
  }
  static Status Read(const proto::AttrDef& d, DataType* v, DeserializeContext&) {
    ASSIGN_OR_RETURN(*v, GeTensorSerializeUtils::DataTypeFromProto(d.dt()));
    return OkStatus();
  }
};
template <>
struct Codec<Bytes> {
  static Status Write(const Bytes& v, proto::AttrDef* d, SerializeContext&) {
    d->set_bt(v.data(), v.size());
    return OkStatus();
  }
  static Status Read(const proto::AttrDef& d, Bytes* v, DeserializeContext&) {
    v->assign(d.bt().begin(), d.bt().end());
    return OkStatus();
  }
};
template <>
struct Codec<GeTensorDesc> {
  static Status Write(const GeTensorDesc& v, proto::AttrDef* d, SerializeContext& ctx) {
    return GeTensorSerializeUtils::GeTensorDescAsProto(v, d->mutable_td(), ctx);
  }
  static Status Read(const proto::AttrDef& d, GeTensorDesc* v, DeserializeContext& ctx) {
    return GeTensorSerializeUtils::AssembleGeTensorDescFromProto(d.td(), v, ctx);
  }
};
template <>
struct Codec<GeTensor> {
  static Status Write(const GeTensor& v, proto::AttrDef* d, SerializeContext& ctx) {
    return GeTensorSerializeUtils::GeTensorAsProto(v, d->mutable_t(), ctx);
  }
  static Status Read(const proto::AttrDef& d, GeTensor* v, DeserializeContext& ctx) {
    return GeTensorSerializeUtils::AssembleGeTensorFromProto(d.t(), v, ctx);
  }
};

Status WriteGraph(const ComputeGraphPtr& g, proto::GraphDef* def, SerializeContext& ctx) {
  if (g == nullptr) return GraphInvalid("graph attribute holds a null graph");
  GraphDepthGuard<SerializeContext> guard(ctx);
  RETURN_IF_ERROR(guard.status());
  return ModelSerializeImp::SerializeGraph(*g, def, ctx);
}
StatusOr<ComputeGraphPtr> ReadGraph(const proto::GraphDef& def, DeserializeContext& ctx) {
  GraphDepthGuard<DeserializeContext> guard(ctx);
  RETURN_IF_ERROR(guard.status());
  return ModelSerializeImp::UnserializeGraph(def, ctx);
}

template <>
struct Codec<ComputeGraphPtr> {
  static Status Write(const ComputeGraphPtr& v, proto::AttrDef* d, SerializeContext& ctx) {
    return WriteGraph(v, d->mutable_g(), ctx);
  }
  static Status Read(const proto::AttrDef& d, ComputeGraphPtr* v, DeserializeContext& ctx) {
    ASSIGN_OR_RETURN(*v, ReadGraph(d.g(), ctx));
    return OkStatus();
  }
};

Status WriteNamedAttrs(const NamedAttrs& v, proto::NamedAttrs* def, SerializeContext& ctx) {
  def->set_name(v.GetName());
  return SerializeAttrStore(v.GetAttrStore(), def->mutable_attr(), ctx);
}
Status ReadNamedAttrs(const proto::NamedAttrs& def, NamedAttrs* v, DeserializeContext& ctx) {
  v->SetName(def.name());
  return DeserializeAttrStore(def.attr(), &v->MutableAttrStore(), ctx);
}

template <>
struct Codec<NamedAttrs> {
  static Status Write(const NamedAttrs& v, proto::AttrDef* d, SerializeContext& ctx) {
    return WriteNamedAttrs(v, d->mutable_func(), ctx);
  }
  static Status Read(const proto::AttrDef& d, NamedAttrs* v, DeserializeContext& ctx) {
    return ReadNamedAttrs(d.func(), v, ctx);
  }
};

template <>
struct Codec<std::vector<std::vector<int64_t>>> {
  using T = std::vector<std::vector<int64_t>>;
  static Status Write(const T& v, proto::AttrDef* d, SerializeContext&) {
    auto* l = d->mutable_list_list_int();
    for (const auto& inner : v) {
      auto* li = l->add_list_list_i();
      li->mutable_list_i()->Add(inner.begin(), inner.end());
    }
    return OkStatus();
  }
  static Status Read(const proto::AttrDef& d, T* v, DeserializeContext& ctx) {
    const auto& l = d.list_list_int().list_list_i();
    RETURN_IF_ERROR(CheckListSize(l.size(), ctx, "list_list_int"));
    v->reserve(static_cast<size_t>(l.size()));
    for (const auto& inner : l) {
      RETURN_IF_ERROR(CheckListSize(inner.list_i_size(), ctx, "inner list of list_list_int"));
      v->emplace_back(inner.list_i().begin(), inner.list_i().end());
    }
    return OkStatus();
  }
};
template <>
struct Codec<std::vector<std::vector<float>>> {
  using T = std::vector<std::vector<float>>;
  static Status Write(const T& v, proto::AttrDef* d, SerializeContext&) {
    auto* l = d->mutable_list_list_float();
    for (const auto& inner : v) {
      auto* lf = l->add_list_list_f();
      lf->mutable_list_f()->Add(inner.begin(), inner.end());
    }
    return OkStatus();
  }
  static Status Read(const proto::AttrDef& d, T* v, DeserializeContext& ctx) {
    const auto& l = d.list_list_float().list_list_f();
    RETURN_IF_ERROR(CheckListSize(l.size(), ctx, "list_list_float"));
    v->reserve(static_cast<size_t>(l.size()));
    for (const auto& inner : l) {
      RETURN_IF_ERROR(CheckListSize(inner.list_f_size(), ctx, "inner list of list_list_float"));
      v->emplace_back(inner.list_f().begin(), inner.list_f().end());
    }
    return OkStatus();
  }
};

// Lists: the element field of ListValue and an element codec.
template <typename E>
struct ListCodec;

#define GE_SIMPLE_LIST_CODEC(E, FIELD)                                               \
  template <>                                                                        \
  struct ListCodec<E> {                                                              \
    static Status Write(const std::vector<E>& v, ListValue* l, SerializeContext&) {  \
      l->mutable_##FIELD()->Reserve(static_cast<int>(v.size()));                     \
      for (const auto& e : v) l->add_##FIELD(e);                                     \
      return OkStatus();                                                             \
    }                                                                                \
    static Status Read(const ListValue& l, std::vector<E>* v, DeserializeContext&) { \
      v->assign(l.FIELD().begin(), l.FIELD().end());                                 \
      return OkStatus();                                                             \
    }                                                                                \
  };
GE_SIMPLE_LIST_CODEC(int64_t, i)
GE_SIMPLE_LIST_CODEC(float, f)
GE_SIMPLE_LIST_CODEC(std::string, s)
#undef GE_SIMPLE_LIST_CODEC

template <>
struct ListCodec<bool> {
  static Status Write(const std::vector<bool>& v, ListValue* l, SerializeContext&) {
    l->mutable_b()->Reserve(static_cast<int>(v.size()));
    for (bool e : v) l->add_b(e);
    return OkStatus();
  }
  static Status Read(const ListValue& l, std::vector<bool>* v, DeserializeContext&) {
    v->assign(l.b().begin(), l.b().end());
    return OkStatus();
  }
};
template <>
struct ListCodec<DataType> {
  static Status Write(const std::vector<DataType>& v, ListValue* l, SerializeContext&) {
    for (DataType e : v) {
      ASSIGN_OR_RETURN(proto::DataType p, GeTensorSerializeUtils::DataTypeToProto(e));
      l->add_dt(p);
    }
    return OkStatus();
  }
  static Status Read(const ListValue& l, std::vector<DataType>* v, DeserializeContext&) {
    v->reserve(static_cast<size_t>(l.dt_size()));
    for (int i = 0; i < l.dt_size(); ++i) {
      StatusOr<DataType> dt = GeTensorSerializeUtils::DataTypeFromProto(l.dt(i));
      if (!dt.ok()) return Annotate(dt.status(), "element ", i, ": ");
      v->push_back(*dt);
    }
    return OkStatus();
  }
};
template <>
struct ListCodec<Bytes> {
  static Status Write(const std::vector<Bytes>& v, ListValue* l, SerializeContext&) {
    for (const Bytes& e : v) l->add_bt(e.data(), e.size());
    return OkStatus();
  }
  static Status Read(const ListValue& l, std::vector<Bytes>* v, DeserializeContext&) {
    v->reserve(static_cast<size_t>(l.bt_size()));
    for (const std::string& e : l.bt()) v->emplace_back(e.begin(), e.end());
    return OkStatus();
  }
};
template <>
struct ListCodec<GeTensorDesc> {
  static Status Write(const std::vector<GeTensorDesc>& v, ListValue* l, SerializeContext& ctx) {
    for (size_t i = 0; i < v.size(); ++i) {
      RETURN_IF_ERROR(Annotate(GeTensorSerializeUtils::GeTensorDescAsProto(v[i], l->add_td(), ctx),
                               "element ", i, ": "));
    }
    return OkStatus();
  }
  static Status Read(const ListValue& l, std::vector<GeTensorDesc>* v, DeserializeContext& ctx) {
    v->resize(static_cast<size_t>(l.td_size()));
    for (int i = 0; i < l.td_size(); ++i) {
      RETURN_IF_ERROR(Annotate(GeTensorSerializeUtils::AssembleGeTensorDescFromProto(
                                   l.td(i), &(*v)[static_cast<size_t>(i)], ctx),
                               "element ", i, ": "));
    }
    return OkStatus();
  }
};
template <>
struct ListCodec<GeTensor> {
  static Status Write(const std::vector<GeTensor>& v, ListValue* l, SerializeContext& ctx) {
    for (size_t i = 0; i < v.size(); ++i) {
      RETURN_IF_ERROR(Annotate(GeTensorSerializeUtils::GeTensorAsProto(v[i], l->add_t(), ctx),
                               "element ", i, ": "));
    }
    return OkStatus();
  }
  static Status Read(const ListValue& l, std::vector<GeTensor>* v, DeserializeContext& ctx) {
    v->resize(static_cast<size_t>(l.t_size()));
    for (int i = 0; i < l.t_size(); ++i) {
      RETURN_IF_ERROR(Annotate(GeTensorSerializeUtils::AssembleGeTensorFromProto(
                                   l.t(i), &(*v)[static_cast<size_t>(i)], ctx),
                               "element ", i, ": "));
    }
    return OkStatus();
  }
};
template <>
struct ListCodec<ComputeGraphPtr> {
  static Status Write(const std::vector<ComputeGraphPtr>& v, ListValue* l, SerializeContext& ctx) {
    for (size_t i = 0; i < v.size(); ++i) {
      RETURN_IF_ERROR(Annotate(WriteGraph(v[i], l->add_g(), ctx), "element ", i, ": "));
    }
    return OkStatus();
  }
  static Status Read(const ListValue& l, std::vector<ComputeGraphPtr>* v, DeserializeContext& ctx) {
    v->reserve(static_cast<size_t>(l.g_size()));
    for (int i = 0; i < l.g_size(); ++i) {
      StatusOr<ComputeGraphPtr> g = ReadGraph(l.g(i), ctx);
      if (!g.ok()) return Annotate(g.status(), "element ", i, ": ");
      v->push_back(std::move(g).value());
    }
    return OkStatus();
  }
};
template <>
struct ListCodec<NamedAttrs> {
  static Status Write(const std::vector<NamedAttrs>& v, ListValue* l, SerializeContext& ctx) {
    for (size_t i = 0; i < v.size(); ++i) {
      RETURN_IF_ERROR(Annotate(WriteNamedAttrs(v[i], l->add_na(), ctx), "element ", i, ": "));
    }
    return OkStatus();
  }
  static Status Read(const ListValue& l, std::vector<NamedAttrs>* v, DeserializeContext& ctx) {
    v->resize(static_cast<size_t>(l.na_size()));
    for (int i = 0; i < l.na_size(); ++i) {
      RETURN_IF_ERROR(Annotate(ReadNamedAttrs(l.na(i), &(*v)[static_cast<size_t>(i)], ctx),
                               "element ", i, ": "));
    }
    return OkStatus();
  }
};

template <typename E>
struct Codec<std::vector<E>> {
  static Status Write(const std::vector<E>& v, proto::AttrDef* d, SerializeContext& ctx) {
    ListValue* l = d->mutable_list();
    static_assert(ListValueTypeOf(AttrValue::TypeOf<std::vector<E>>()) != ListValue::VT_LIST_NONE,
                  "list type without a ListValue type");
    l->set_val_type(ListValueTypeOf(AttrValue::TypeOf<std::vector<E>>()));
    return ListCodec<E>::Write(v, l, ctx);
  }
  static Status Read(const proto::AttrDef& d, std::vector<E>* v, DeserializeContext& ctx) {
    RETURN_IF_ERROR(CheckListFields(d.list(), AttrValue::TypeOf<std::vector<E>>(), ctx));
    return ListCodec<E>::Read(d.list(), v, ctx);
  }
};

// ------------------------------------------------------------ serializers

template <typename T>
class TypedSerializer final : public AttrSerializer {
 public:
  Status Serialize(const AttrValue& value, proto::AttrDef* def,
                   SerializeContext& ctx) const override {
    const T* v = value.Get<T>();
    if (v == nullptr) {
      return Internal("the ", TypeName(AttrValue::TypeOf<T>()), " serializer got a ",
                      TypeName(value.GetValueType()), " value");
    }
    return Codec<T>::Write(*v, def, ctx);
  }
  Status Deserialize(const proto::AttrDef& def, AttrValue* value,
                     DeserializeContext& ctx) const override {
    T v{};
    RETURN_IF_ERROR(Codec<T>::Read(def, &v, ctx));
    value->Set<T>(std::move(v));
    return OkStatus();
  }
};

using IntSerializer = TypedSerializer<int64_t>;
using FloatSerializer = TypedSerializer<float>;
using BoolSerializer = TypedSerializer<bool>;
using StringSerializer = TypedSerializer<std::string>;
using DataTypeSerializer = TypedSerializer<DataType>;
using TensorDescSerializer = TypedSerializer<GeTensorDesc>;
using TensorSerializer = TypedSerializer<GeTensor>;
using BytesSerializer = TypedSerializer<Bytes>;
using GraphSerializer = TypedSerializer<ComputeGraphPtr>;
using NamedAttrsSerializer = TypedSerializer<NamedAttrs>;
using ListListIntSerializer = TypedSerializer<std::vector<std::vector<int64_t>>>;
using ListListFloatSerializer = TypedSerializer<std::vector<std::vector<float>>>;

}  // namespace

// ---------------------------------------------------------------- registry

template <typename T>
void AttrSerializerRegistry::RegisterBuiltin() {
  constexpr AttrValue::ValueType type = AttrValue::TypeOf<T>();
  Status st = Register(type, std::make_unique<TypedSerializer<T>>());
  (void)st;  // built-in types are distinct: cannot fail
  builtin_[static_cast<size_t>(SlotOf(type))] = Get(type);
}

AttrSerializerRegistry::AttrSerializerRegistry() {
  for (auto& slot : slots_) slot.store(nullptr, std::memory_order_relaxed);
  RegisterBuiltin<int64_t>();
  RegisterBuiltin<float>();
  RegisterBuiltin<bool>();
  RegisterBuiltin<std::string>();
  RegisterBuiltin<DataType>();
  RegisterBuiltin<GeTensorDesc>();
  RegisterBuiltin<GeTensor>();
  RegisterBuiltin<Bytes>();
  RegisterBuiltin<ComputeGraphPtr>();
  RegisterBuiltin<NamedAttrs>();
  RegisterBuiltin<std::vector<std::vector<int64_t>>>();
  RegisterBuiltin<std::vector<std::vector<float>>>();
  RegisterBuiltin<std::vector<int64_t>>();
  RegisterBuiltin<std::vector<float>>();
  RegisterBuiltin<std::vector<bool>>();
  RegisterBuiltin<std::vector<std::string>>();
  RegisterBuiltin<std::vector<DataType>>();
  RegisterBuiltin<std::vector<GeTensorDesc>>();
  RegisterBuiltin<std::vector<GeTensor>>();
  RegisterBuiltin<std::vector<Bytes>>();
  RegisterBuiltin<std::vector<ComputeGraphPtr>>();
  RegisterBuiltin<std::vector<NamedAttrs>>();
}

AttrSerializerRegistry& AttrSerializerRegistry::Instance() {
  static AttrSerializerRegistry* const kInstance = new AttrSerializerRegistry();
  return *kInstance;
}

int AttrSerializerRegistry::SlotOf(AttrValue::ValueType type) {
  const int32_t t = static_cast<int32_t>(type);
  if (t >= 0 && t < 64) return t;
  if (t >= AttrValue::VT_LIST_BASE && t < AttrValue::VT_LIST_BASE + 64) {
    return 64 + (t - AttrValue::VT_LIST_BASE);
  }
  return -1;
}

Status AttrSerializerRegistry::Register(AttrValue::ValueType type,
                                        std::unique_ptr<const AttrSerializer> serializer,
                                        bool replace) {
  const int slot = SlotOf(type);
  if (slot < 0) {
    return ParamInvalid("cannot register an attribute serializer for value type ",
                        static_cast<int32_t>(type), " (outside [0, 64) and [1000, 1064))");
  }
  if (serializer == nullptr) {
    return ParamInvalid("null attribute serializer for ", TypeName(type));
  }
  absl::MutexLock lock(&mu_);
  auto& cell = slots_[static_cast<size_t>(slot)];
  if (!replace && cell.load(std::memory_order_relaxed) != nullptr) {
    return AlreadyExists("an attribute serializer for ", TypeName(type), " is already registered");
  }
  owned_.push_back(std::move(serializer));
  cell.store(owned_.back().get(), std::memory_order_release);
  return OkStatus();
}

const AttrSerializer* AttrSerializerRegistry::Builtin(AttrValue::ValueType type) const {
  const int slot = SlotOf(type);
  return slot < 0 ? nullptr : builtin_[static_cast<size_t>(slot)];
}

const AttrSerializer* AttrSerializerRegistry::Get(AttrValue::ValueType type) const {
  const int slot = SlotOf(type);
  if (slot < 0) return nullptr;
  return slots_[static_cast<size_t>(slot)].load(std::memory_order_acquire);
}

StatusOr<AttrValue::ValueType> AttrSerializerRegistry::ValueTypeOf(const proto::AttrDef& def) {
  switch (def.value_case()) {
    case proto::AttrDef::VALUE_NOT_SET:
      return AttrValue::VT_NONE;
    case proto::AttrDef::kS:
      return AttrValue::VT_STRING;
    case proto::AttrDef::kI:
      return AttrValue::VT_INT;
    case proto::AttrDef::kF:
      return AttrValue::VT_FLOAT;
    case proto::AttrDef::kB:
      return AttrValue::VT_BOOL;
    case proto::AttrDef::kBt:
      return AttrValue::VT_BYTES;
    case proto::AttrDef::kFunc:
      return AttrValue::VT_NAMED_ATTRS;
    case proto::AttrDef::kTd:
      return AttrValue::VT_TENSOR_DESC;
    case proto::AttrDef::kT:
      return AttrValue::VT_TENSOR;
    case proto::AttrDef::kG:
      return AttrValue::VT_GRAPH;
    case proto::AttrDef::kListListInt:
      return AttrValue::VT_LIST_LIST_INT;
    case proto::AttrDef::kDt:
      return AttrValue::VT_DATA_TYPE;
    case proto::AttrDef::kListListFloat:
      return AttrValue::VT_LIST_LIST_FLOAT;
    case proto::AttrDef::kList: {
      const int vt = def.list().val_type();
      if (vt == ListValue::VT_LIST_NONE) {
        return ParseFailed("list attribute without a value type (val_type VT_LIST_NONE)");
      }
      for (const auto& [lv, type] : kListTypes) {
        if (lv == vt) return type;
      }
      return ParseFailed("list attribute with unknown value type ", vt);
    }
  }
  return ParseFailed("attribute with unknown value case ", static_cast<int>(def.value_case()));
}

// ---------------------------------------------------------------- dispatch

Status SerializeAttrValue(const AttrValue& value, proto::AttrDef* def, SerializeContext& ctx) {
  const AttrValue::ValueType type = value.GetValueType();
  if (type == AttrValue::VT_NONE) return OkStatus();
  AttrDepthGuard<SerializeContext> guard(ctx);
  RETURN_IF_ERROR(guard.status());
  const AttrSerializer* s = AttrSerializerRegistry::Instance().Get(type);
  if (s == nullptr) {
    return NotSupported("no attribute serializer is registered for ", TypeName(type));
  }
  return s->Serialize(value, def, ctx);
}

Status DeserializeAttrValue(const proto::AttrDef& def, AttrValue* value, DeserializeContext& ctx) {
  ASSIGN_OR_RETURN(AttrValue::ValueType type, AttrSerializerRegistry::ValueTypeOf(def));
  if (type == AttrValue::VT_NONE) {
    *value = AttrValue();
    return OkStatus();
  }
  AttrDepthGuard<DeserializeContext> guard(ctx);
  RETURN_IF_ERROR(guard.status());
  const AttrSerializer* s = AttrSerializerRegistry::Instance().Get(type);
  if (s == nullptr) {
    return NotSupported("no attribute serializer is registered for ", TypeName(type));
  }
  return s->Deserialize(def, value, ctx);
}

Status SerializeAttrStore(const AttrStore& store, AttrEntries* attrs, SerializeContext& ctx) {
  attrs->Reserve(attrs->size() + static_cast<int>(store.size()));
  for (size_t i = 0; i < store.size(); ++i) {
    const std::string& name = store.NameAt(i);
    proto::AttrEntry* entry = attrs->Add();
    entry->set_key(name);
    Status st = SerializeAttrValue(store.ValueAt(i), entry->mutable_value(), ctx);
    if (!st.ok()) return Annotate(st, "attribute '", name, "': ");
  }
  return OkStatus();
}

Status DeserializeAttrStore(const AttrEntries& attrs, AttrStore* store, DeserializeContext& ctx) {
  auto set = [store, &ctx](const proto::AttrEntry& entry) -> Status {
    AttrValue value;
    Status st = DeserializeAttrValue(entry.value(), &value, ctx);
    if (st.ok()) st = store->Set(entry.key(), std::move(value));
    if (!st.ok()) return Annotate(st, "attribute '", entry.key(), "': ");
    return OkStatus();
  };
  bool sorted = true;
  for (int i = 1; i < attrs.size() && sorted; ++i)
    sorted = attrs.Get(i - 1).key() < attrs.Get(i).key();
  if (sorted) {  // what the serializer writes: the sorted store only appends
    for (const proto::AttrEntry& entry : attrs) RETURN_IF_ERROR(set(entry));
    return OkStatus();
  }
  // Any order, repeated keys: insert in name order, the last one winning.
  std::vector<const proto::AttrEntry*> entries;
  entries.reserve(static_cast<size_t>(attrs.size()));
  for (const proto::AttrEntry& entry : attrs) entries.push_back(&entry);
  std::stable_sort(
      entries.begin(), entries.end(),
      [](const proto::AttrEntry* a, const proto::AttrEntry* b) { return a->key() < b->key(); });
  for (const proto::AttrEntry* entry : entries) RETURN_IF_ERROR(set(*entry));
  return OkStatus();
}

}  // namespace ge
