// graph/serialization/src/attr_codec.cc
#include "graph/serialization/src/attr_codec.h"

#include <climits>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "google/protobuf/io/coded_stream.h"
#include "graph/serialization/inc/attr_serializer.h"

namespace ge {
namespace codec {
namespace {

// Protobuf's own nesting limit for attribute values parsed by the generated
// classes; DeserializeOptions limits are far below it.
constexpr int kProtoRecursionLimit = 1024;

Status EncodeAttrValue(const AttrValue& value, SerializeContext& ctx, WireWriter& w) {
  const AttrValue::ValueType type = value.GetValueType();
  if (type == AttrValue::VT_NONE) return OkStatus();
  const AttrSerializerRegistry& registry = AttrSerializerRegistry::Instance();
  const AttrSerializer* s = registry.Get(type);
  if (s != nullptr && s == registry.Builtin(type)) {
    switch (type) {
      case AttrValue::VT_INT: {
        AttrDepthGuard<SerializeContext> guard(ctx);
        RETURN_IF_ERROR(guard.status());
        w.Int64Always(PAttr::kIFieldNumber, *value.Get<int64_t>());
        return OkStatus();
      }
      case AttrValue::VT_FLOAT: {
        AttrDepthGuard<SerializeContext> guard(ctx);
        RETURN_IF_ERROR(guard.status());
        w.FloatAlways(PAttr::kFFieldNumber, *value.Get<float>());
        return OkStatus();
      }
      case AttrValue::VT_BOOL: {
        AttrDepthGuard<SerializeContext> guard(ctx);
        RETURN_IF_ERROR(guard.status());
        w.BoolAlways(PAttr::kBFieldNumber, *value.Get<bool>());
        return OkStatus();
      }
      case AttrValue::VT_STRING: {
        AttrDepthGuard<SerializeContext> guard(ctx);
        RETURN_IF_ERROR(guard.status());
        w.StringAlways(PAttr::kSFieldNumber, *value.Get<std::string>());
        return OkStatus();
      }
      default:
        break;
    }
  }
  PAttr def;
  RETURN_IF_ERROR(SerializeAttrValue(value, &def, ctx));
  const size_t size = def.ByteSizeLong();
  if (size > static_cast<size_t>(INT_MAX)) {
    return Overflow("an attribute value of ", size, " bytes is larger than protobuf's 2 GiB limit");
  }
  def.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(w.Reserve(size)));
  w.Commit(size);
  return OkStatus();
}

}  // namespace

Status EncodeAttrs(const AttrStore& store, uint32_t field, SerializeContext& ctx, WireWriter& w) {
  for (size_t i = 0; i < store.size(); ++i) {
    const std::string& name = store.NameAt(i);
    const size_t entry = w.BeginMessage(field);
    w.String(PEntry::kKeyFieldNumber, name);
    const size_t value = w.BeginMessage(PEntry::kValueFieldNumber);
    Status st = EncodeAttrValue(store.ValueAt(i), ctx, w);
    if (!st.ok()) return Annotate(st, "attribute '", name, "': ");
    w.EndMessage(value);
    w.EndMessage(entry);
  }
  return OkStatus();
}

namespace {

// One AttrEntry as views.
struct AttrEntryView {
  absl::string_view key;
  absl::string_view value;
};

bool ReadAttrEntry(absl::string_view bytes, AttrEntryView* e) {
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  *e = AttrEntryView();
  while (r.Next(&f, &t)) {
    if (f == PEntry::kKeyFieldNumber) {
      if (!r.Bytes(t, &e->key)) return false;
    } else if (f == PEntry::kValueFieldNumber) {
      if (!r.Bytes(t, &e->value)) return false;
    } else if (!r.Skip(t)) {
      return false;
    }
  }
  return r.ok();
}

// Decodes an int / float / bool / string value written as its single oneof
// field, when the built-in serializer is registered; false otherwise (the
// caller takes the generic path).
bool DecodeScalarAttr(absl::string_view bytes, AttrValue* value) {
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  if (!r.Next(&f, &t)) return false;
  const AttrSerializerRegistry& registry = AttrSerializerRegistry::Instance();
  auto builtin = [&registry](AttrValue::ValueType type) {
    return registry.Get(type) == registry.Builtin(type);
  };
  AttrValue v;
  if (f == PAttr::kIFieldNumber && t == wire::kVarint && builtin(AttrValue::VT_INT)) {
    int64_t i;
    if (!r.Int64(t, &i)) return false;
    v.Set<int64_t>(i);
  } else if (f == PAttr::kFFieldNumber && t == wire::kFixed32 && builtin(AttrValue::VT_FLOAT)) {
    uint32_t bits;
    if (!r.ReadFixed32(&bits)) return false;
    float x;
    std::memcpy(&x, &bits, sizeof(x));
    v.Set<float>(x);
  } else if (f == PAttr::kBFieldNumber && t == wire::kVarint && builtin(AttrValue::VT_BOOL)) {
    bool b;
    if (!r.Bool(t, &b)) return false;
    v.Set<bool>(b);
  } else if (f == PAttr::kSFieldNumber && t == wire::kLen && builtin(AttrValue::VT_STRING)) {
    absl::string_view s;
    if (!r.Bytes(t, &s)) return false;
    v.Set<std::string>(std::string(s));
  } else {
    return false;
  }
  if (!r.AtEnd()) return false;  // more fields: let the generic path decide
  *value = std::move(v);
  return true;
}

Status DecodeAttrValue(absl::string_view bytes, DeserializeContext& ctx, AttrValue* value) {
  if (DecodeScalarAttr(bytes, value)) {
    AttrDepthGuard<DeserializeContext> guard(ctx);
    return guard.status();
  }
  PAttr def;
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  in.SetRecursionLimit(kProtoRecursionLimit);
  if (!def.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) {
    return Malformed("attribute value");
  }
  return DeserializeAttrValue(def, value, ctx);
}

}  // namespace

// Attribute entries (any order, the last of a repeated key wins) into a store.
Status DecodeAttrs(const std::vector<absl::string_view>& entries, DeserializeContext& ctx,
                   AttrStore* store) {
  if (entries.empty()) return OkStatus();
  if (entries.size() == 1) {
    AttrEntryView e;
    if (!ReadAttrEntry(entries[0], &e)) return Malformed("attribute entry");
    AttrValue value;
    Status st = DecodeAttrValue(e.value, ctx, &value);
    if (st.ok()) st = store->Set(e.key, std::move(value));
    if (!st.ok()) return Annotate(st, "attribute '", e.key, "': ");
    return OkStatus();
  }
  absl::InlinedVector<AttrEntryView, 4> views(entries.size());
  bool sorted = true;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!ReadAttrEntry(entries[i], &views[i])) return Malformed("attribute entry");
    if (i > 0 && !(views[i - 1].key < views[i].key)) sorted = false;
  }
  if (!sorted) {
    std::stable_sort(views.begin(), views.end(),
                     [](const AttrEntryView& a, const AttrEntryView& b) { return a.key < b.key; });
  }
  for (const AttrEntryView& e : views) {
    AttrValue value;
    Status st = DecodeAttrValue(e.value, ctx, &value);
    if (st.ok()) st = store->Set(e.key, std::move(value));
    if (!st.ok()) return Annotate(st, "attribute '", e.key, "': ");
  }
  return OkStatus();
}
}  // namespace codec
}  // namespace ge
