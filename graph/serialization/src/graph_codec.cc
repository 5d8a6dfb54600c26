// graph/serialization/src/graph_codec.cc
//
// Writing: GraphWriter emits one GraphDef (fields in number order: name,
// input nodes, outputs, ops, attrs, parent links, nested subgraphs, id); an
// op's input entries are produced from its anchors while the OpDef is
// written, and an OutputOrder is added for each output whose consumers are
// not in canonical order.
//
// Reading runs in phases: (1) every GraphDef of the tree is split into field
// views and built: ops -> OpDescs -> nodes (ids kept), input entries parsed
// and checked into an edge list, the edges linked (in canonical order, or,
// when an op carries OutputOrder permutations, in an order reproducing both
// the input-side and the output-side peer orders), the graph checked for
// cycles, input / output nodes restored; (2) parent links of the subgraphs
// are resolved and checked (the chain must reach the root); (3) subgraphs
// are registered at the root in order; (4) every subgraph instance name of
// every op must name a registered subgraph.
#include "graph/serialization/src/graph_codec.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <memory>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "absl/hash/hash.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/io/coded_stream.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/node.h"
#include "graph/proto/ge_ir.pb.h"
#include "graph/serialization/inc/attr_serializer.h"
#include "graph/serialization/inc/tensor_serialize_utils.h"
#include "metadef/inc/base/wire_format.h"

namespace ge {
namespace codec {
namespace {

using wire::WireReader;
using wire::WireType;
using wire::WireWriter;

// Field numbers, from the generated classes.
using PModel = proto::ModelDef;
using PGraph = proto::GraphDef;
using POp = proto::OpDef;
using PDesc = proto::TensorDescriptor;
using PEntry = proto::AttrEntry;
using PAttr = proto::AttrDef;
using PIo = proto::IrIoDef;
using PSlot = proto::SubgraphSlot;
using POrder = proto::OutputOrder;

constexpr absl::string_view kInputPrefix = "__input";
constexpr absl::string_view kOutputPrefix = "__output";
constexpr absl::string_view kDeviceCpu = "CPU";
constexpr absl::string_view kDeviceNpu = "NPU";
// Protobuf's own nesting limit for attribute values parsed by the generated
// classes; DeserializeOptions limits are far below it.
constexpr int kProtoRecursionLimit = 1024;
constexpr size_t kMaxCycleNamesShown = 32;

Status Malformed(absl::string_view what) {
  return ParseFailed("truncated or malformed ", what);
}

// True when `name` is the default port name prefix + index ("__input3").
bool IsDefaultPortName(const std::string& name, absl::string_view prefix, size_t index) {
  if (name.size() <= prefix.size() || absl::string_view(name).substr(0, prefix.size()) != prefix) {
    return false;
  }
  char buf[absl::numbers_internal::kFastToBufferSize];
  char* end = absl::numbers_internal::FastIntToBuffer(static_cast<uint64_t>(index), buf);
  return absl::string_view(name).substr(prefix.size()) == absl::string_view(buf, end - buf);
}

// Writes a "node:index" string field.
void WriteEntry(WireWriter& w, uint32_t field, const std::string& node_name, int32_t index) {
  char buf[absl::numbers_internal::kFastToBufferSize];
  char* end = absl::numbers_internal::FastIntToBuffer(index, buf);
  const size_t digits = static_cast<size_t>(end - buf);
  w.Tag(field, wire::kLen);
  w.Varint(node_name.size() + 1 + digits);
  char* p = w.Reserve(node_name.size() + 1 + digits);
  std::memcpy(p, node_name.data(), node_name.size());
  p[node_name.size()] = ':';
  std::memcpy(p + node_name.size() + 1, buf, digits);
  w.Commit(node_name.size() + 1 + digits);
}

// Parses "node:index": the last ':' separates the name (which may contain
// ':'), the index is a decimal int32 with an optional '-'.
Status ParseEntry(absl::string_view entry, absl::string_view* name, int32_t* index) {
  const size_t colon = entry.rfind(':');
  if (colon == absl::string_view::npos) {
    return GraphInvalid("malformed entry '", entry, "' (expected \"node:index\")");
  }
  *name = entry.substr(0, colon);
  absl::string_view digits = entry.substr(colon + 1);
  if (name->empty()) return GraphInvalid("entry '", entry, "' has an empty node name");
  bool negative = false;
  if (!digits.empty() && digits[0] == '-') {
    negative = true;
    digits.remove_prefix(1);
  }
  if (digits.empty() || digits.size() > 10) {
    return GraphInvalid("malformed entry '", entry, "': '", entry.substr(colon + 1),
                        "' is not an index");
  }
  int64_t v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') {
      return GraphInvalid("malformed entry '", entry, "': '", entry.substr(colon + 1),
                          "' is not an index");
    }
    v = v * 10 + (c - '0');
  }
  if (negative) v = -v;
  if (v < std::numeric_limits<int32_t>::min() || v > std::numeric_limits<int32_t>::max()) {
    return OutOfRange("entry '", entry, "': index ", v, " does not fit in int32");
  }
  *index = static_cast<int32_t>(v);
  return OkStatus();
}

// ================================================================ attributes

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

// ===================================================== duplicate names

// Sorts 64-bit keys: LSD radix sort (16-bit digits) for large inputs, whose
// sequential passes beat hash-table inserts once the table leaves the cache.
void SortKeys(std::vector<uint64_t>* keys) {
  const size_t n = keys->size();
  if (n < 4096) {
    std::sort(keys->begin(), keys->end());
    return;
  }
  // LSD radix sort: 16-bit digits (4 passes) for big inputs, 11-bit digits
  // (6 passes, a counter table that stays in L1) otherwise. Both pass counts
  // are even, so the result ends up back in *keys.
  const int bits = n >= (size_t{1} << 20) ? 16 : 11;
  const uint64_t mask = (uint64_t{1} << bits) - 1;
  std::unique_ptr<uint64_t[]> tmp(new uint64_t[n]);  // no zeroing
  std::vector<uint32_t> count(size_t{1} << bits);
  uint64_t* from = keys->data();
  uint64_t* to = tmp.get();
  for (int shift = 0; shift < 64; shift += bits) {
    std::fill(count.begin(), count.end(), 0);
    for (size_t i = 0; i < n; ++i) ++count[(from[i] >> shift) & mask];
    uint32_t sum = 0;
    for (uint32_t& c : count) {
      const uint32_t v = c;
      c = sum;
      sum += v;
    }
    for (size_t i = 0; i < n; ++i) to[count[(from[i] >> shift) & mask]++] = from[i];
    std::swap(from, to);
  }
}

uint64_t NameHash(absl::string_view name) { return absl::HashOf(name); }

// The first pair (i < j) of equal names among n names with the given hashes,
// or {n, n} when all are distinct. name_of(i) returns name i.
template <typename NameFn>
std::pair<size_t, size_t> FindDuplicateName(const std::vector<uint64_t>& hashes, NameFn name_of) {
  const size_t n = hashes.size();
  std::vector<uint64_t> sorted(hashes);
  SortKeys(&sorted);
  absl::flat_hash_set<uint64_t> repeated;
  for (size_t i = 1; i < n; ++i) {
    if (sorted[i] == sorted[i - 1]) repeated.insert(sorted[i]);
  }
  if (repeated.empty()) return {n, n};
  // Rare: equal hashes. Compare the names of each group, in op order.
  absl::flat_hash_map<uint64_t, std::vector<size_t>> groups;
  std::pair<size_t, size_t> first = {n, n};
  for (size_t j = 0; j < n; ++j) {
    if (!repeated.contains(hashes[j])) continue;
    std::vector<size_t>& g = groups[hashes[j]];
    for (size_t i : g) {
      if (name_of(i) == name_of(j) && j < first.second) first = {i, j};
    }
    g.push_back(j);
  }
  return first;
}

// ============================================================ tensor descs

void EncodeShape(const GeShape& shape, uint32_t field, WireWriter& w) {
  const size_t m = w.BeginMessage(field);
  w.PackedInt64<int64_t>(proto::ShapeDef::kDimFieldNumber, shape.GetDimsSpan());
  w.EndMessage(m);
}

void EncodeRange(const GeTensorDesc::ShapeRange& range, uint32_t field, WireWriter& w) {
  if (range.empty()) return;
  absl::InlinedVector<int64_t, 8> lo, hi;
  for (const auto& [a, b] : range) {
    lo.push_back(a);
    hi.push_back(b);
  }
  const size_t m = w.BeginMessage(field);
  w.PackedInt64<int64_t>(proto::ShapeRange::kMinFieldNumber, lo);
  w.PackedInt64<int64_t>(proto::ShapeRange::kMaxFieldNumber, hi);
  w.EndMessage(m);
}

Status EncodeDescBody(const GeTensorDesc& desc, SerializeContext& ctx, WireWriter& w) {
  const bool strings = ctx.options.layout_strings;
  const Format format = desc.GetFormat();
  const Format origin_format = desc.GetOriginFormat();
  ASSIGN_OR_RETURN(const proto::DataType dt, GeTensorSerializeUtils::DataTypeToProto(desc.GetDataType()));
  ASSIGN_OR_RETURN(const proto::DataType origin_dt,
                   GeTensorSerializeUtils::DataTypeToProto(desc.GetOriginDataType()));
  w.String(PDesc::kNameFieldNumber, desc.GetName());
  w.Int32(PDesc::kDtypeFieldNumber, dt);
  EncodeShape(desc.GetShape(), PDesc::kShapeFieldNumber, w);
  if (strings) {
    ASSIGN_OR_RETURN(std::string layout, GeTensorSerializeUtils::FormatToLayout(format));
    w.String(PDesc::kLayoutFieldNumber, layout);
  } else if (!GeTensorSerializeUtils::IsSerializableFormat(format)) {
    return GeTensorSerializeUtils::FormatToLayout(format).status();
  }
  if (!desc.GetAttrStore().empty()) {
    RETURN_IF_ERROR(EncodeAttrs(desc.GetAttrStore(), PDesc::kAttrFieldNumber, ctx, w));
  }
  w.Int64(PDesc::kSizeFieldNumber, desc.GetSizeMeta());
  w.Int64(PDesc::kWeightSizeFieldNumber, desc.GetWeightSize());
  w.Bool(PDesc::kReuseInputFieldNumber, desc.GetReuseInput());
  w.Bool(PDesc::kOutputTensorFieldNumber, desc.IsOutputTensor());
  if (desc.GetDeviceType() == DeviceType::kCpu) {
    w.String(PDesc::kDeviceTypeFieldNumber, kDeviceCpu);
  } else if (desc.GetDeviceType() != DeviceType::kNpu) {
    return ParamInvalid("device type ", static_cast<int32_t>(desc.GetDeviceType()),
                        " is neither NPU nor CPU");
  }
  w.Bool(PDesc::kInputTensorFieldNumber, desc.IsInputTensor());
  if (GeTensorSerializeUtils::HasExplicitRealDimCnt(desc)) {
    w.Int64Always(PDesc::kRealDimCntFieldNumber, desc.GetRealDimCnt());
  }
  w.Int64(PDesc::kReuseInputIndexFieldNumber, desc.GetReuseInputIndex());
  w.Int64(PDesc::kDataOffsetFieldNumber, desc.GetDataOffset());
  if (desc.GetOriginShape() != desc.GetShape()) {
    EncodeShape(desc.GetOriginShape(), PDesc::kOriginShapeFieldNumber, w);
  }
  if (strings) {
    ASSIGN_OR_RETURN(std::string layout, GeTensorSerializeUtils::FormatToLayout(origin_format));
    w.String(PDesc::kOriginLayoutFieldNumber, layout);
  } else if (origin_format != format && !GeTensorSerializeUtils::IsSerializableFormat(origin_format)) {
    return GeTensorSerializeUtils::FormatToLayout(origin_format).status();
  }
  if (strings || origin_dt != dt) w.Int32Always(PDesc::kOriginDtypeFieldNumber, origin_dt);
  EncodeRange(desc.GetShapeRange(), PDesc::kShapeRangeFieldNumber, w);
  w.Int32(PDesc::kFormatFieldNumber, format);
  if (origin_format != format) w.Int32Always(PDesc::kOriginFormatFieldNumber, origin_format);
  EncodeRange(desc.GetOriginShapeRange(), PDesc::kOriginShapeRangeFieldNumber, w);
  return OkStatus();
}

using Dims = absl::InlinedVector<int64_t, 8>;

bool ReadShape(absl::string_view bytes, Dims* dims) {
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  while (r.Next(&f, &t)) {
    if (f == proto::ShapeDef::kDimFieldNumber) {
      if (!r.Repeated(t, [dims](int64_t v) {
            dims->push_back(v);
            return true;
          })) {
        return false;
      }
    } else if (!r.Skip(t)) {
      return false;
    }
  }
  return r.ok();
}

bool ReadRange(absl::string_view bytes, Dims* lo, Dims* hi) {
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  while (r.Next(&f, &t)) {
    Dims* target = f == proto::ShapeRange::kMinFieldNumber   ? lo
                   : f == proto::ShapeRange::kMaxFieldNumber ? hi
                                                             : nullptr;
    if (target != nullptr) {
      if (!r.Repeated(t, [target](int64_t v) {
            target->push_back(v);
            return true;
          })) {
        return false;
      }
    } else if (!r.Skip(t)) {
      return false;
    }
  }
  return r.ok();
}

Status CheckDims(const Dims& dims, const DeserializeContext& ctx, GeShape* shape) {
  const size_t n = dims.size();
  if (static_cast<int64_t>(n) > ctx.options.max_dim_num) {
    return OutOfRange("shape has ", n, " dims, more than the limit of ", ctx.options.max_dim_num);
  }
  GeShape out;
  for (size_t i = 0; i < n; ++i) {
    const int64_t d = dims[i];
    if (d == UNKNOWN_RANK) {
      if (n != 1) {
        return ParamInvalid("dim ", i, " is -2 (unknown rank) in a shape of ", n,
                            " dims; -2 must be the only dim");
      }
    } else if (d < UNKNOWN_DIM) {
      return ParamInvalid("dim ", i, " is ", d, "; dims must be >= 0, -1 (unknown) or a sole -2");
    }
    out.AppendDim(d);
  }
  *shape = out;
  return OkStatus();
}

StatusOr<GeTensorDesc::ShapeRange> CheckRange(const Dims& lo, const Dims& hi, const char* what,
                                              const DeserializeContext& ctx) {
  if (lo.size() != hi.size()) {
    return ParseFailed(what, " has ", lo.size(), " min values but ", hi.size(), " max values");
  }
  if (static_cast<int64_t>(lo.size()) > ctx.options.max_dim_num) {
    return OutOfRange(what, " has ", lo.size(), " entries, more than the limit of ",
                      ctx.options.max_dim_num);
  }
  GeTensorDesc::ShapeRange range;
  range.reserve(lo.size());
  for (size_t i = 0; i < lo.size(); ++i) range.emplace_back(lo[i], hi[i]);
  return range;
}

// Sets a (possibly stale) shape range: GeTensorDesc checks a range against
// the shape it is set on, but a shape changed after its range was set leaves
// a range that no longer matches; such a range is restored through a
// temporary shape of unknown dims.
Status SetRange(GeTensorDesc* desc, bool origin, GeTensorDesc::ShapeRange range) {
  if (range.empty()) return OkStatus();
  Status st = origin ? desc->SetOriginShapeRange(range) : desc->SetShapeRange(range);
  if (st.ok()) return st;
  const GeShape current = origin ? desc->GetOriginShape() : desc->GetShape();
  const GeShape temp(std::vector<int64_t>(range.size(), UNKNOWN_DIM));
  if (origin) {
    desc->SetOriginShape(temp);
  } else {
    desc->SetShape(temp);
  }
  st = origin ? desc->SetOriginShapeRange(std::move(range)) : desc->SetShapeRange(std::move(range));
  if (origin) {
    desc->SetOriginShape(current);
  } else {
    desc->SetShape(current);
  }
  return st;
}

Status DecodeDesc(absl::string_view bytes, DeserializeContext& ctx, GeTensorDesc* desc) {
  absl::string_view name, layout, origin_layout, device_type;
  int64_t dtype = 0, origin_dtype = 0, format = 0, origin_format = 0;
  bool has_origin_dtype = false, has_origin_format = false, has_origin_shape = false;
  bool has_range = false, has_origin_range = false, has_real_dim = false;
  int64_t size = 0, weight_size = 0, reuse_input_index = 0, data_offset = 0, real_dim = 0;
  bool reuse_input = false, input_tensor = false, output_tensor = false;
  Dims dims, origin_dims, lo, hi, origin_lo, origin_hi;
  std::vector<absl::string_view> attrs;
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  bool ok = true;
  while (ok && r.Next(&f, &t)) {
    absl::string_view sub;
    switch (f) {
      case PDesc::kNameFieldNumber:
        ok = r.Bytes(t, &name);
        break;
      case PDesc::kDtypeFieldNumber:
        ok = r.Int64(t, &dtype);
        break;
      case PDesc::kShapeFieldNumber:
        ok = r.Bytes(t, &sub) && ReadShape(sub, &dims);
        break;
      case PDesc::kLayoutFieldNumber:
        ok = r.Bytes(t, &layout);
        break;
      case PDesc::kAttrFieldNumber:
        ok = r.Bytes(t, &sub);
        attrs.push_back(sub);
        break;
      case PDesc::kSizeFieldNumber:
        ok = r.Int64(t, &size);
        break;
      case PDesc::kWeightSizeFieldNumber:
        ok = r.Int64(t, &weight_size);
        break;
      case PDesc::kReuseInputFieldNumber:
        ok = r.Bool(t, &reuse_input);
        break;
      case PDesc::kOutputTensorFieldNumber:
        ok = r.Bool(t, &output_tensor);
        break;
      case PDesc::kDeviceTypeFieldNumber:
        ok = r.Bytes(t, &device_type);
        break;
      case PDesc::kInputTensorFieldNumber:
        ok = r.Bool(t, &input_tensor);
        break;
      case PDesc::kRealDimCntFieldNumber:
        ok = r.Int64(t, &real_dim);
        has_real_dim = true;
        break;
      case PDesc::kReuseInputIndexFieldNumber:
        ok = r.Int64(t, &reuse_input_index);
        break;
      case PDesc::kDataOffsetFieldNumber:
        ok = r.Int64(t, &data_offset);
        break;
      case PDesc::kOriginShapeFieldNumber:
        ok = r.Bytes(t, &sub) && ReadShape(sub, &origin_dims);
        has_origin_shape = true;
        break;
      case PDesc::kOriginLayoutFieldNumber:
        ok = r.Bytes(t, &origin_layout);
        break;
      case PDesc::kOriginDtypeFieldNumber:
        ok = r.Int64(t, &origin_dtype);
        has_origin_dtype = true;
        break;
      case PDesc::kShapeRangeFieldNumber:
        ok = r.Bytes(t, &sub) && ReadRange(sub, &lo, &hi);
        has_range = true;
        break;
      case PDesc::kFormatFieldNumber:
        ok = r.Int64(t, &format);
        break;
      case PDesc::kOriginFormatFieldNumber:
        ok = r.Int64(t, &origin_format);
        has_origin_format = true;
        break;
      case PDesc::kOriginShapeRangeFieldNumber:
        ok = r.Bytes(t, &sub) && ReadRange(sub, &origin_lo, &origin_hi);
        has_origin_range = true;
        break;
      default:
        ok = r.Skip(t);
    }
  }
  if (!ok || !r.ok()) return Malformed("tensor descriptor");

  // Enums are int32 on the wire.
  ASSIGN_OR_RETURN(const DataType dt, GeTensorSerializeUtils::DataTypeFromProto(static_cast<int32_t>(dtype)));
  DataType origin_dt = dt;
  if (has_origin_dtype) {
    ASSIGN_OR_RETURN(origin_dt, GeTensorSerializeUtils::DataTypeFromProto(static_cast<int32_t>(origin_dtype)));
  }
  Format fmt;
  if (!layout.empty()) {
    ASSIGN_OR_RETURN(fmt, GeTensorSerializeUtils::LayoutToFormat(layout));
  } else {
    ASSIGN_OR_RETURN(fmt, GeTensorSerializeUtils::CheckedFormat(static_cast<int32_t>(format)));
  }
  Format origin_fmt = fmt;
  if (!origin_layout.empty()) {
    ASSIGN_OR_RETURN(origin_fmt, GeTensorSerializeUtils::LayoutToFormat(origin_layout));
  } else if (has_origin_format) {
    ASSIGN_OR_RETURN(origin_fmt, GeTensorSerializeUtils::CheckedFormat(static_cast<int32_t>(origin_format)));
  }
  GeShape shape;
  RETURN_IF_ERROR(Annotate(CheckDims(dims, ctx, &shape), "shape: "));
  GeShape origin_shape;
  if (has_origin_shape) {
    RETURN_IF_ERROR(Annotate(CheckDims(origin_dims, ctx, &origin_shape), "origin shape: "));
  }
  *desc = GeTensorDesc(shape, fmt, dt);
  GeTensorDesc& d = *desc;
  if (origin_fmt != fmt) d.SetOriginFormat(origin_fmt);
  if (origin_dt != dt) d.SetOriginDataType(origin_dt);
  if (has_range) {
    ASSIGN_OR_RETURN(GeTensorDesc::ShapeRange range, CheckRange(lo, hi, "shape range", ctx));
    RETURN_IF_ERROR(SetRange(&d, /*origin=*/false, std::move(range)));
  }
  if (has_origin_shape) d.SetOriginShape(origin_shape);
  if (has_origin_range) {
    ASSIGN_OR_RETURN(GeTensorDesc::ShapeRange range,
                     CheckRange(origin_lo, origin_hi, "origin shape range", ctx));
    RETURN_IF_ERROR(SetRange(&d, /*origin=*/true, std::move(range)));
  }
  if (!name.empty()) d.SetName(std::string(name));
  if (has_real_dim) d.SetRealDimCnt(real_dim);
  if (size != 0) d.SetSizeMeta(size);
  if (weight_size != 0) d.SetWeightSize(weight_size);
  if (reuse_input) d.SetReuseInput(true);
  if (reuse_input_index != 0) d.SetReuseInputIndex(reuse_input_index);
  if (data_offset != 0) d.SetDataOffset(data_offset);
  if (device_type == kDeviceCpu) {
    d.SetDeviceType(DeviceType::kCpu);
  } else if (!device_type.empty() && device_type != kDeviceNpu) {
    return ParseFailed("device type '", device_type, "' is neither NPU nor CPU");
  }
  if (input_tensor) d.SetInputTensor(true);
  if (output_tensor) d.SetOutputTensor(true);
  return DecodeAttrs(attrs, ctx, &d.MutableAttrStore());
}

// ===================================================================== ops

// Writes the OpDef fields of `op` in field order; `inputs(w)` writes field 5
// (edges), `tail(w, n_in_descs, n_out_descs)` fields 49-51.
template <typename InputsFn, typename TailFn>
Status EncodeOp(const OpDesc& op, SerializeContext& ctx, WireWriter& w, InputsFn inputs,
                TailFn tail) {
  w.String(POp::kNameFieldNumber, op.GetName());
  w.String(POp::kTypeFieldNumber, op.GetType());
  RETURN_IF_ERROR(inputs(w));
  const bool structure = ctx.options.structure_only;
  if (!structure && !op.GetAttrStore().empty()) {
    RETURN_IF_ERROR(EncodeAttrs(op.GetAttrStore(), POp::kAttrFieldNumber, ctx, w));
  }
  w.Int64(POp::kIdFieldNumber, op.GetId());
  w.Int64(POp::kStreamIdFieldNumber, op.GetStreamId());
  if (structure) return tail(w, 0, 0);

  const size_t n_in = op.GetAllInputsSize();
  const size_t n_out = op.GetAllOutputsDescSize();
  // Without the extension state the compile state and subgraph names are
  // all empty: skip them.
  const bool has_ext = op.HasExtState();
  bool default_names = true;
  for (size_t i = 0; i < n_in && default_names; ++i) {
    default_names = IsDefaultPortName(*op.GetInputNamePtr(static_cast<uint32_t>(i)), kInputPrefix, i);
  }
  if (!default_names) {
    for (size_t i = 0; i < n_in; ++i) {
      w.StringAlways(POp::kInputNameFieldNumber, *op.GetInputNamePtr(static_cast<uint32_t>(i)));
    }
  }
  if (has_ext) {
    for (const std::string& s : op.GetSrcName()) w.StringAlways(POp::kSrcNameFieldNumber, s);
    w.PackedInt64<int64_t>(POp::kSrcIndexFieldNumber, op.GetSrcIndex());
    for (const std::string& s : op.GetDstName()) w.StringAlways(POp::kDstNameFieldNumber, s);
    w.PackedInt64<int64_t>(POp::kDstIndexFieldNumber, op.GetDstIndex());
    w.PackedInt64<int64_t>(POp::kInputIFieldNumber, op.GetInputOffset());
    w.PackedInt64<int64_t>(POp::kOutputIFieldNumber, op.GetOutputOffset());
    w.PackedInt64<int64_t>(POp::kWorkspaceFieldNumber, op.GetWorkspace());
    w.PackedInt64<int64_t>(POp::kWorkspaceBytesFieldNumber, op.GetWorkspaceBytes());
    const std::vector<bool> is_const = op.GetIsInputConst();
    if (!is_const.empty()) {
      const std::vector<uint8_t> bytes(is_const.begin(), is_const.end());
      w.PackedUInt32<uint8_t>(POp::kIsInputConstFieldNumber, bytes);
    }
  }
  for (size_t i = 0; i < n_in; ++i) {
    const size_t m = w.BeginMessage(POp::kInputDescFieldNumber);
    RETURN_IF_ERROR(Annotate(EncodeDescBody(*op.PeekInputDesc(static_cast<uint32_t>(i)), ctx, w),
                             "input desc ", i, ": "));
    w.EndMessage(m);
  }
  for (size_t i = 0; i < n_out; ++i) {
    const size_t m = w.BeginMessage(POp::kOutputDescFieldNumber);
    RETURN_IF_ERROR(Annotate(EncodeDescBody(*op.PeekOutputDesc(static_cast<uint32_t>(i)), ctx, w),
                             "output desc ", i, ": "));
    w.EndMessage(m);
  }
  const std::vector<std::string>& instances = op.GetSubgraphInstanceNames();
  for (const std::string& inst : instances) w.StringAlways(POp::kSubgraphNameFieldNumber, inst);
  default_names = true;
  for (size_t i = 0; i < n_out && default_names; ++i) {
    default_names = IsDefaultPortName(*op.GetOutputNamePtr(static_cast<uint32_t>(i)), kOutputPrefix, i);
  }
  if (!default_names) {
    for (size_t i = 0; i < n_out; ++i) {
      w.StringAlways(POp::kOutputNameFieldNumber, *op.GetOutputNamePtr(static_cast<uint32_t>(i)));
    }
  }
  auto io = [&w](uint32_t field, const std::string& name, PIo::Kind kind) {
    const size_t m = w.BeginMessage(field);
    w.String(PIo::kNameFieldNumber, name);
    w.Int32(PIo::kKindFieldNumber, kind);
    w.EndMessage(m);
  };
  for (const auto& [name, kind] : op.GetIrInputs()) {
    io(POp::kIrInputFieldNumber, name,
       kind == kIrInputOptional ? PIo::OPTIONAL : kind == kIrInputDynamic ? PIo::DYNAMIC : PIo::REQUIRED);
  }
  for (const auto& [name, kind] : op.GetIrOutputs()) {
    io(POp::kIrOutputFieldNumber, name, kind == kIrOutputDynamic ? PIo::DYNAMIC : PIo::REQUIRED);
  }
  for (const auto& [name, kind] : op.GetOrderedSubgraphIrNames()) {
    io(POp::kIrSubgraphFieldNumber, name, kind == kDynamic ? PIo::DYNAMIC : PIo::STATIC);
  }
  for (const std::string& name : op.GetIrAttrNames()) w.StringAlways(POp::kIrAttrNameFieldNumber, name);
  // Engine names live inline (set on every op of a compiled graph).
  w.String(POp::kEngineNameFieldNumber, op.GetOpEngineName());
  w.String(POp::kKernelLibNameFieldNumber, op.GetOpKernelLibName());
  if (!has_ext) return tail(w, n_in, n_out);
  absl::InlinedVector<uint32_t, 4> optional;
  for (size_t i = 0; i < n_in; ++i) {
    if (op.IsOptionalInput(static_cast<uint32_t>(i))) optional.push_back(static_cast<uint32_t>(i));
  }
  w.PackedUInt32<uint32_t>(POp::kOptionalInputFieldNumber, optional);
  if (!instances.empty()) {
    for (const auto& [name, index] : op.GetSubgraphNameIndexes()) {  // sorted by name
      const size_t m = w.BeginMessage(POp::kSubgraphSlotFieldNumber);
      w.String(PSlot::kNameFieldNumber, name);
      w.UInt32(PSlot::kIndexFieldNumber, index);
      w.EndMessage(m);
    }
  }
  return tail(w, n_in, n_out);
}

struct IoView {
  absl::string_view name;
  int32_t kind = 0;
};

bool ReadIo(absl::string_view bytes, IoView* io) {
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  *io = IoView();
  while (r.Next(&f, &t)) {
    if (f == PIo::kNameFieldNumber) {
      if (!r.Bytes(t, &io->name)) return false;
    } else if (f == PIo::kKindFieldNumber) {
      if (!r.Int32(t, &io->kind)) return false;
    } else if (!r.Skip(t)) {
      return false;
    }
  }
  return r.ok();
}

struct OutputOrderView {
  int32_t index = 0;
  std::vector<uint32_t> ranks;
};

// The fields of one OpDef, as views into the bytes. Reused across ops.
struct OpFields {
  absl::string_view name, type, engine, kernel;
  int64_t id = 0, stream_id = 0;
  bool has_in_anchor_num = false, has_out_anchor_num = false;
  uint32_t in_anchor_num = 0, out_anchor_num = 0;
  std::vector<absl::string_view> inputs, attrs, input_names, output_names, src_names, dst_names,
      subgraph_names, ir_attr_names, input_descs, output_descs;
  std::vector<int64_t> src_index, dst_index, input_i, output_i, workspace, workspace_bytes;
  std::vector<uint8_t> is_input_const;
  std::vector<uint32_t> optional_inputs;
  std::vector<IoView> ir_inputs, ir_outputs, ir_subgraphs;
  std::vector<std::pair<absl::string_view, uint32_t>> slots;
  std::vector<OutputOrderView> output_orders;

  void Clear() {
    name = type = engine = kernel = absl::string_view();
    id = stream_id = 0;
    has_in_anchor_num = has_out_anchor_num = false;
    in_anchor_num = out_anchor_num = 0;
    for (auto* v : {&inputs, &attrs, &input_names, &output_names, &src_names, &dst_names,
                    &subgraph_names, &ir_attr_names, &input_descs, &output_descs}) {
      v->clear();
    }
    for (auto* v : {&src_index, &dst_index, &input_i, &output_i, &workspace, &workspace_bytes}) {
      v->clear();
    }
    is_input_const.clear();
    optional_inputs.clear();
    ir_inputs.clear();
    ir_outputs.clear();
    ir_subgraphs.clear();
    slots.clear();
    output_orders.clear();
  }
};

// Appends one length-delimited field (a view into the bytes) to *out.
bool AppendBytes(WireReader& r, WireType t, std::vector<absl::string_view>* out) {
  absl::string_view s;
  if (!r.Bytes(t, &s)) return false;
  out->push_back(s);
  return true;
}

bool ReadInts(WireReader& r, WireType t, std::vector<int64_t>* out) {
  return r.Repeated(t, [out](int64_t v) {
    out->push_back(v);
    return true;
  });
}

bool ReadOpFields(absl::string_view bytes, OpFields* op) {
  op->Clear();
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  bool ok = true;
  while (ok && r.Next(&f, &t)) {
    absl::string_view s;
    switch (f) {
      case POp::kNameFieldNumber:
        ok = r.Bytes(t, &op->name);
        break;
      case POp::kTypeFieldNumber:
        ok = r.Bytes(t, &op->type);
        break;
      case POp::kInputFieldNumber:
        ok = AppendBytes(r, t, &op->inputs);
        break;
      case POp::kAttrFieldNumber:
        ok = AppendBytes(r, t, &op->attrs);
        break;
      case POp::kIdFieldNumber:
        ok = r.Int64(t, &op->id);
        break;
      case POp::kStreamIdFieldNumber:
        ok = r.Int64(t, &op->stream_id);
        break;
      case POp::kInputNameFieldNumber:
        ok = AppendBytes(r, t, &op->input_names);
        break;
      case POp::kSrcNameFieldNumber:
        ok = AppendBytes(r, t, &op->src_names);
        break;
      case POp::kSrcIndexFieldNumber:
        ok = ReadInts(r, t, &op->src_index);
        break;
      case POp::kDstNameFieldNumber:
        ok = AppendBytes(r, t, &op->dst_names);
        break;
      case POp::kDstIndexFieldNumber:
        ok = ReadInts(r, t, &op->dst_index);
        break;
      case POp::kInputIFieldNumber:
        ok = ReadInts(r, t, &op->input_i);
        break;
      case POp::kOutputIFieldNumber:
        ok = ReadInts(r, t, &op->output_i);
        break;
      case POp::kWorkspaceFieldNumber:
        ok = ReadInts(r, t, &op->workspace);
        break;
      case POp::kWorkspaceBytesFieldNumber:
        ok = ReadInts(r, t, &op->workspace_bytes);
        break;
      case POp::kIsInputConstFieldNumber:
        ok = r.Repeated(t, [op](int64_t v) {
          op->is_input_const.push_back(v != 0 ? 1 : 0);
          return true;
        });
        break;
      case POp::kInputDescFieldNumber:
        ok = AppendBytes(r, t, &op->input_descs);
        break;
      case POp::kOutputDescFieldNumber:
        ok = AppendBytes(r, t, &op->output_descs);
        break;
      case POp::kSubgraphNameFieldNumber:
        ok = AppendBytes(r, t, &op->subgraph_names);
        break;
      case POp::kOutputNameFieldNumber:
        ok = AppendBytes(r, t, &op->output_names);
        break;
      case POp::kIrInputFieldNumber:
      case POp::kIrOutputFieldNumber:
      case POp::kIrSubgraphFieldNumber: {
        IoView io;
        ok = r.Bytes(t, &s) && ReadIo(s, &io);
        (f == POp::kIrInputFieldNumber    ? op->ir_inputs
         : f == POp::kIrOutputFieldNumber ? op->ir_outputs
                                          : op->ir_subgraphs)
            .push_back(io);
        break;
      }
      case POp::kIrAttrNameFieldNumber:
        ok = AppendBytes(r, t, &op->ir_attr_names);
        break;
      case POp::kEngineNameFieldNumber:
        ok = r.Bytes(t, &op->engine);
        break;
      case POp::kKernelLibNameFieldNumber:
        ok = r.Bytes(t, &op->kernel);
        break;
      case POp::kOptionalInputFieldNumber:
        ok = r.Repeated(t, [op](int64_t v) {
          op->optional_inputs.push_back(static_cast<uint32_t>(v));
          return true;
        });
        break;
      case POp::kSubgraphSlotFieldNumber: {
        ok = r.Bytes(t, &s);
        WireReader sr(s);
        uint32_t sf;
        WireType st;
        std::pair<absl::string_view, uint32_t> slot;
        while (ok && sr.Next(&sf, &st)) {
          if (sf == PSlot::kNameFieldNumber) {
            ok = sr.Bytes(st, &slot.first);
          } else if (sf == PSlot::kIndexFieldNumber) {
            ok = sr.UInt32(st, &slot.second);
          } else {
            ok = sr.Skip(st);
          }
        }
        ok = ok && sr.ok();
        op->slots.push_back(slot);
        break;
      }
      case POp::kInAnchorNumFieldNumber:
        ok = r.UInt32(t, &op->in_anchor_num);
        op->has_in_anchor_num = true;
        break;
      case POp::kOutAnchorNumFieldNumber:
        ok = r.UInt32(t, &op->out_anchor_num);
        op->has_out_anchor_num = true;
        break;
      case POp::kOutputOrderFieldNumber: {
        ok = r.Bytes(t, &s);
        WireReader orr(s);
        uint32_t of;
        WireType ot;
        OutputOrderView order;
        while (ok && orr.Next(&of, &ot)) {
          if (of == POrder::kIndexFieldNumber) {
            ok = orr.Int32(ot, &order.index);
          } else if (of == POrder::kPeerRankFieldNumber) {
            ok = orr.Repeated(ot, [&order](int64_t v) {
              order.ranks.push_back(static_cast<uint32_t>(v));
              return true;
            });
          } else {
            ok = orr.Skip(ot);
          }
        }
        ok = ok && orr.ok();
        op->output_orders.push_back(std::move(order));
        break;
      }
      default:
        ok = r.Skip(t);
    }
  }
  return ok && r.ok();
}

template <typename Kind>
StatusOr<Kind> IrKind(int32_t kind, const char* what,
                      std::initializer_list<std::pair<PIo::Kind, Kind>> table) {
  for (const auto& [k, v] : table) {
    if (k == kind) return v;
  }
  return ParseFailed(what, " kind ", kind, " is not allowed");
}

// Appends the IR metadata of `f` to `op`.
Status AddIrMeta(const OpFields& f, OpDesc& op) {
  for (const IoView& io : f.ir_inputs) {
    ASSIGN_OR_RETURN(IrInputType kind,
                     IrKind<IrInputType>(io.kind, "IR input",
                                         {{PIo::REQUIRED, kIrInputRequired},
                                          {PIo::OPTIONAL, kIrInputOptional},
                                          {PIo::DYNAMIC, kIrInputDynamic}}));
    RETURN_IF_ERROR(op.AppendIrInput(std::string(io.name), kind));
  }
  for (const IoView& io : f.ir_outputs) {
    ASSIGN_OR_RETURN(IrOutputType kind,
                     IrKind<IrOutputType>(io.kind, "IR output",
                                          {{PIo::REQUIRED, kIrOutputRequired},
                                           {PIo::DYNAMIC, kIrOutputDynamic}}));
    RETURN_IF_ERROR(op.AppendIrOutput(std::string(io.name), kind));
  }
  for (const IoView& io : f.ir_subgraphs) {
    ASSIGN_OR_RETURN(SubgraphType kind,
                     IrKind<SubgraphType>(io.kind, "IR subgraph",
                                          {{PIo::STATIC, kStatic}, {PIo::DYNAMIC, kDynamic}}));
    RETURN_IF_ERROR(op.RegisterSubgraphIrName(std::string(io.name), kind));
  }
  for (absl::string_view name : f.ir_attr_names) {
    RETURN_IF_ERROR(op.AppendIrAttrName(std::string(name)));
  }
  return OkStatus();
}

// Ops of one type usually carry the same IR metadata: the first op of each
// type that has some donates it (shared copy-on-write) to the later ones, so
// a model decodes one copy per type instead of one per op.
using IrDonors = absl::flat_hash_map<std::string, OpDescPtr>;

template <typename Kind, typename Pairs>
bool SameIo(const Pairs& have, const std::vector<IoView>& want,
            std::initializer_list<std::pair<int32_t, Kind>> table) {
  if (have.size() != want.size()) return false;
  for (size_t i = 0; i < want.size(); ++i) {
    if (have[i].first != want[i].name) return false;
    bool match = false;
    for (const auto& [k, v] : table) {
      if (k == want[i].kind) {
        match = v == have[i].second;
        break;
      }
    }
    if (!match) return false;  // includes unknown kinds: the slow path reports them
  }
  return true;
}

bool SameIrMeta(const OpDesc& donor, const OpFields& f) {
  const std::vector<std::string>& attrs = donor.GetIrAttrNames();
  if (attrs.size() != f.ir_attr_names.size()) return false;
  for (size_t i = 0; i < attrs.size(); ++i) {
    if (attrs[i] != f.ir_attr_names[i]) return false;
  }
  return SameIo<IrInputType>(donor.GetIrInputs(), f.ir_inputs,
                             {{PIo::REQUIRED, kIrInputRequired},
                              {PIo::OPTIONAL, kIrInputOptional},
                              {PIo::DYNAMIC, kIrInputDynamic}}) &&
         SameIo<IrOutputType>(donor.GetIrOutputs(), f.ir_outputs,
                              {{PIo::REQUIRED, kIrOutputRequired},
                               {PIo::DYNAMIC, kIrOutputDynamic}}) &&
         SameIo<SubgraphType>(donor.GetOrderedSubgraphIrNames(), f.ir_subgraphs,
                              {{PIo::STATIC, kStatic}, {PIo::DYNAMIC, kDynamic}});
}

// Recently decoded tensor descriptions by their bytes, for one graph (so
// under one DeserializeContext): descs repeat (a producer's output desc is
// usually its consumers' input desc; unnamed descs of a layer repeat), and a
// hit skips the decode and its checks, which passed for the same bytes.
// Direct-mapped; only short descs without attributes are kept.
class DescCache {
 public:
  // The desc of `bytes`: the cached one when the same bytes were decoded
  // last into their slot, else decoded (into the cache when they fit,
  // otherwise into `scratch`). The bytes are hashed once.
  StatusOr<const GeTensorDesc*> Get(absl::string_view bytes, DeserializeContext& ctx,
                                    GeTensorDesc* scratch) {
    if (bytes.size() > kMaxBytes) {
      RETURN_IF_ERROR(DecodeDesc(bytes, ctx, scratch));
      return scratch;
    }
    if (slots_ == nullptr) slots_ = std::make_unique<std::array<Slot, kSlots>>();
    Slot& s = (*slots_)[SlotOf(bytes)];
    if (s.valid && s.len == bytes.size() && std::memcmp(s.bytes, bytes.data(), bytes.size()) == 0) {
      return &s.desc;
    }
    s.valid = false;
    RETURN_IF_ERROR(DecodeDesc(bytes, ctx, &s.desc));
    if (s.desc.GetAttrStore().empty()) {
      std::memcpy(s.bytes, bytes.data(), bytes.size());
      s.len = static_cast<uint8_t>(bytes.size());
      s.valid = true;
    }
    return &s.desc;
  }

 private:
  static constexpr size_t kSlots = 64;
  static constexpr size_t kMaxBytes = 64;
  struct Slot {
    bool valid = false;
    uint8_t len = 0;
    char bytes[kMaxBytes];
    GeTensorDesc desc;
  };
  static size_t SlotOf(absl::string_view bytes) { return absl::HashOf(bytes) % kSlots; }
  std::unique_ptr<std::array<Slot, kSlots>> slots_;
};

// Builds the OpDesc of an op (everything but its edges). `donors` (optional)
// shares IR metadata between ops of a type; `descs` (optional) caches
// decoded tensor descs.
StatusOr<OpDescPtr> BuildOpDesc(const OpFields& f, DeserializeContext& ctx, IrDonors* donors = nullptr,
                                DescCache* descs = nullptr) {
  const size_t n_in = f.input_descs.size();
  const size_t n_out = f.output_descs.size();
  if (static_cast<int64_t>(n_in) > ctx.options.max_ports_per_op ||
      static_cast<int64_t>(n_out) > ctx.options.max_ports_per_op) {
    return OutOfRange("op has ", n_in, " input and ", n_out, " output descs, more than the limit of ",
                      ctx.options.max_ports_per_op);
  }
  if (!f.input_names.empty() && f.input_names.size() != n_in) {
    return ParseFailed("op has ", n_in, " input descs but ", f.input_names.size(), " input names");
  }
  if (!f.output_names.empty() && f.output_names.size() != n_out) {
    return ParseFailed("op has ", n_out, " output descs but ", f.output_names.size(),
                       " output names");
  }
  absl::InlinedVector<uint8_t, 8> optional(n_in, 0);
  for (uint32_t idx : f.optional_inputs) {
    if (idx >= n_in) {
      return OutOfRange("optional input index ", idx, " is out of range (", n_in, " inputs)");
    }
    optional[idx] = 1;
  }
  // Pooled (huge-page backed, no per-object malloc): decoding builds many.
  OpDescPtr op = OpDesc::Create(std::string(f.name), std::string(f.type));
  op->SetId(f.id);
  op->SetStreamId(f.stream_id);
  op->ReservePorts(n_in + n_out);

  GeTensorDesc scratch;
  // The decoded desc of `bytes` (cached or in `scratch`).
  auto decode = [&ctx, descs, &scratch](absl::string_view bytes) -> StatusOr<const GeTensorDesc*> {
    if (descs == nullptr) {
      RETURN_IF_ERROR(DecodeDesc(bytes, ctx, &scratch));
      return &scratch;
    }
    return descs->Get(bytes, ctx, &scratch);
  };
  for (size_t i = 0; i < n_in; ++i) {
    StatusOr<const GeTensorDesc*> decoded = decode(f.input_descs[i]);
    if (!decoded.ok()) return Annotate(decoded.status(), "input desc ", i, ": ");
    const GeTensorDesc& desc = **decoded;
    if (optional[i] != 0) {
      RETURN_IF_ERROR(op->AddOptionalInputDesc(
          f.input_names.empty() ? absl::StrCat(kInputPrefix, i) : std::string(f.input_names[i]), desc));
    } else if (!f.input_names.empty()) {
      RETURN_IF_ERROR(op->AddInputDesc(std::string(f.input_names[i]), desc));
    } else {
      RETURN_IF_ERROR(op->AddInputDesc(desc));
    }
  }
  for (size_t i = 0; i < n_out; ++i) {
    StatusOr<const GeTensorDesc*> decoded = decode(f.output_descs[i]);
    if (!decoded.ok()) return Annotate(decoded.status(), "output desc ", i, ": ");
    const GeTensorDesc& desc = **decoded;
    if (!f.output_names.empty()) {
      RETURN_IF_ERROR(op->AddOutputDesc(std::string(f.output_names[i]), desc));
    } else {
      RETURN_IF_ERROR(op->AddOutputDesc(desc));
    }
  }

  const bool has_ir = !f.ir_inputs.empty() || !f.ir_outputs.empty() || !f.ir_subgraphs.empty() ||
                      !f.ir_attr_names.empty();
  OpDesc* donor = nullptr;
  if (has_ir && donors != nullptr) {
    auto it = donors->find(f.type);
    if (it != donors->end() && SameIrMeta(*it->second, f)) donor = it->second.get();
  }
  if (donor != nullptr) {
    op->ShareIrMetaFrom(*donor);
  } else {
    RETURN_IF_ERROR(AddIrMeta(f, *op));
    if (has_ir && donors != nullptr) donors->try_emplace(std::string(f.type), op);
  }

  // Subgraph slots: slot k was registered when there were k instances.
  const size_t n_inst = f.subgraph_names.size();
  std::vector<absl::string_view> slot_at(n_inst);
  std::vector<bool> has_slot(n_inst, false);
  for (const auto& [name, index] : f.slots) {
    if (index >= n_inst) {
      return OutOfRange("subgraph slot '", name, "' has index ", index, " but the op has ", n_inst,
                        " subgraph instances");
    }
    if (has_slot[index]) {
      return GraphInvalid("subgraph slots '", slot_at[index], "' and '", name, "' share index ", index);
    }
    has_slot[index] = true;
    slot_at[index] = name;
  }
  for (size_t i = 0; i < n_inst; ++i) {
    if (has_slot[i]) {
      RETURN_IF_ERROR(op->AddSubgraphName(std::string(slot_at[i])));
      RETURN_IF_ERROR(op->SetSubgraphInstanceName(static_cast<uint32_t>(i), std::string(f.subgraph_names[i])));
    } else {
      op->AddSubgraphInstanceName(std::string(f.subgraph_names[i]));
    }
  }

  auto strings = [](const std::vector<absl::string_view>& v) {
    return std::vector<std::string>(v.begin(), v.end());
  };
  if (!f.input_i.empty()) op->SetInputOffset(f.input_i);
  if (!f.output_i.empty()) op->SetOutputOffset(f.output_i);
  if (!f.workspace.empty()) op->SetWorkspace(f.workspace);
  if (!f.workspace_bytes.empty()) op->SetWorkspaceBytes(f.workspace_bytes);
  if (!f.src_index.empty()) op->SetSrcIndex(f.src_index);
  if (!f.dst_index.empty()) op->SetDstIndex(f.dst_index);
  if (!f.src_names.empty()) op->SetSrcName(strings(f.src_names));
  if (!f.dst_names.empty()) op->SetDstName(strings(f.dst_names));
  if (!f.is_input_const.empty()) {
    op->SetIsInputConst(std::vector<bool>(f.is_input_const.begin(), f.is_input_const.end()));
  }
  if (!f.engine.empty()) op->SetOpEngineName(std::string(f.engine));
  if (!f.kernel.empty()) op->SetOpKernelLibName(std::string(f.kernel));
  RETURN_IF_ERROR(DecodeAttrs(f.attrs, ctx, &op->MutableAttrStore()));
  return op;
}

// ================================================================= writing

// The subgraphs written with `graph`: its registry when it is a root,
// otherwise the root's subgraphs below it.
std::vector<ComputeGraphPtr> CollectSubgraphs(const ComputeGraph& graph) {
  if (graph.GetParentGraphBarePtr() == nullptr) return graph.GetAllSubgraphs();
  const ComputeGraph* root = graph.GetRootGraphBarePtr();
  const std::vector<ComputeGraphPtr>& all = root->GetAllSubgraphs();
  std::vector<ComputeGraphPtr> below;
  for (const ComputeGraphPtr& sg : all) {
    const ComputeGraph* g = sg.get();
    for (size_t steps = 0; g != nullptr && steps <= all.size(); ++steps) {
      g = g->GetParentGraphBarePtr();
      if (g == &graph) {
        below.push_back(sg);
        break;
      }
    }
  }
  return below;
}

// The name `sg` is registered under at `registry`'s root (see
// ComputeGraph::GetSubgraphRegisteredName).
StatusOr<std::string> RegisteredName(const ComputeGraph& registry, const ComputeGraphPtr& sg) {
  StatusOr<std::string> name = registry.GetSubgraphRegisteredName(*sg);
  if (!name.ok()) {
    return GraphInvalid("subgraph '", sg->GetName(), "' is not registered at its root graph: ",
                        name.status().message());
  }
  return name;
}

// Where a graph sits in its tree (written after its attributes).
struct GraphLinks {
  std::string parent_node;
  std::string parent_graph;
  std::string registered_name;  // empty when equal to the name
};

// The tree written with `graph`, with the links of each subgraph; checks
// unique graph names and that every instance name resolves within it.
struct Tree {
  std::vector<ComputeGraphPtr> subgraphs;
  std::vector<GraphLinks> links;
  const ComputeGraph* root = nullptr;
  const ComputeGraph* registry = nullptr;  // null: subgraphs are not written
  absl::flat_hash_set<std::string> graph_names;

  Status CheckInstances(const ComputeGraph& g, const Node& node) const;
};

class GraphWriter {
 public:
  GraphWriter(const ComputeGraph& graph, const Tree& tree, SerializeContext& ctx)
      : graph_(graph), tree_(tree), ctx_(ctx) {}

  // Writes the GraphDef body; `nested(w)` writes field 15 (nested subgraphs).
  template <typename NestedFn>
  Status Write(const GraphLinks& links, WireWriter& w, NestedFn nested) {
    const size_t start = w.size();
    Status st = WriteBody(links, w, nested);
    if (st.ok() || !restart_) return st;
    // OpDesc ids are not list positions: write again with a position table.
    w.Truncate(start);
    RETURN_IF_ERROR(IndexByName());
    return WriteBody(links, w, nested);
  }

 private:
  template <typename NestedFn>
  Status WriteBody(const GraphLinks& links, WireWriter& w, NestedFn nested) {
    w.String(PGraph::kNameFieldNumber, graph_.GetName());
    for (const NodePtr& in : graph_.GetInputNodes()) {
      if (in == nullptr || !InThisGraph(in.get())) {
        return GraphInvalid("graph '", graph_.GetName(), "': input node '",
                            in == nullptr ? std::string("<null>") : in->GetName(),
                            "' is not a node of the graph");
      }
      w.StringAlways(PGraph::kInputFieldNumber, in->GetName());
    }
    for (const auto& [out, index] : graph_.GetGraphOutNodesInfo()) {
      if (out == nullptr || !InThisGraph(out.get())) {
        return GraphInvalid("graph '", graph_.GetName(), "': output node '",
                            out == nullptr ? std::string("<null>") : out->GetName(),
                            "' is not a node of the graph");
      }
      WriteEntry(w, PGraph::kOutputFieldNumber, out->GetName(), index);
    }
    // One pass: names are hashed for the duplicate check, consumer
    // positions are assumed to be the OpDesc ids (true after a topological
    // sort or a deserialization) and the ids are checked on the way; a
    // mismatch makes Write start over with a position table.
    hashes_.clear();
    nodes_.clear();
    uint32_t i = 0;
    // Large graphs do not fit the caches: the nodes ahead (their anchors,
    // which consumers' output orders read, OpDescs and bodies) are
    // prefetched, two steps deep, so the misses overlap.
    const NodeList& list = graph_.DirectNodes();
    // After the first kSizeSample nodes of a large graph, the bytes they took
    // size the rest (EncodeModel's up-front guess is per node, not per graph).
    constexpr uint32_t kSizeSample = 4096;
    const size_t ops_start = w.size();
    const size_t num_nodes = graph_.GetDirectNodesSize();
    constexpr int kFar = 8, kNear = 4;
    NodeList::const_iterator far = list.begin(), near = list.begin();
    for (int k = 0; k < kFar && far != list.end(); ++k) ++far;
    for (int k = 0; k < kNear && near != list.end(); ++k) ++near;
    for (const NodePtr& node : list) {
      if (far != list.end()) {
        const Node* a = far->get();
        __builtin_prefetch(a->GetOpDescBarePtr());
        __builtin_prefetch(reinterpret_cast<const char*>(a) + 64);
        __builtin_prefetch(reinterpret_cast<const char*>(a) + 128);
        ++far;
      }
      if (near != list.end()) {
        const OpDesc* op = near->get()->GetOpDescBarePtr();
        if (op != nullptr) __builtin_prefetch(&op->GetName());
        ++near;
      }
      const std::string& name = node->GetName();
      if (name.empty()) {
        return GraphInvalid("graph '", graph_.GetName(), "': node ", i, " (type ", node->GetType(),
                            ") has an empty name");
      }
      if (by_name_.empty() && node->GetOpDescBarePtr()->GetId() != i) {
        restart_ = true;
        return Internal("restart");
      }
      hashes_.push_back(NameHash(name));
      nodes_.push_back(node.get());
      const size_t m = w.BeginMessage(PGraph::kOpFieldNumber);
      Status st = WriteOp(*node, w);
      if (!st.ok()) {
        return Annotate(st, "graph '", graph_.GetName(), "' node '", node->GetName(), "': ");
      }
      w.EndMessage(m);
      ++i;
      if (i == kSizeSample && num_nodes >= 2 * kSizeSample) {
        const size_t per_node = (w.size() - ops_start) / kSizeSample;
        w.ReserveTotal(w.size() + per_node * (num_nodes - i) / 8 * 9 + (size_t{64} << 10));
      }
    }
    const auto [a, b] =
        FindDuplicateName(hashes_, [this](size_t k) -> const std::string& { return nodes_[k]->GetName(); });
    if (b < nodes_.size()) {
      return GraphInvalid("graph '", graph_.GetName(), "' has two nodes named '", nodes_[b]->GetName(), "'");
    }
    if (!ctx_.options.structure_only && !graph_.GetAttrStore().empty()) {
      RETURN_IF_ERROR(Annotate(EncodeAttrs(graph_.GetAttrStore(), PGraph::kAttrFieldNumber, ctx_, w),
                               "graph '", graph_.GetName(), "': "));
    }
    w.String(PGraph::kParentNodeFieldNumber, links.parent_node);
    w.String(PGraph::kParentGraphFieldNumber, links.parent_graph);
    w.String(PGraph::kRegisteredNameFieldNumber, links.registered_name);
    RETURN_IF_ERROR(nested(w));
    w.UInt32(PGraph::kGraphIdFieldNumber, graph_.GetGraphID());
    return OkStatus();
  }

 private:
  // The position table used when OpDesc ids are not list positions.
  Status IndexByName() {
    by_name_.reserve(graph_.GetDirectNodesSize());
    uint32_t i = 0;
    for (const NodePtr& node : graph_.DirectNodes()) {
      if (!by_name_.emplace(node->GetName(), i++).second) {
        return GraphInvalid("graph '", graph_.GetName(), "' has two nodes named '", node->GetName(), "'");
      }
    }
    return OkStatus();
  }

  uint32_t PositionOf(const Node* node) const {
    if (by_name_.empty()) return static_cast<uint32_t>(node->GetOpDescBarePtr()->GetId());
    return by_name_.at(node->GetName());
  }

  bool InThisGraph(const Node* node) const {
    return node != nullptr && node->GetOwnerComputeGraphBarePtr() == &graph_;
  }

  Status InputEntry(size_t entry, const Anchor* peer, WireWriter& w) const {
    const Node* src = peer->GetOwnerNodeBarePtr();
    if (!InThisGraph(src)) {
      return GraphInvalid("input entry ", entry, " comes from node '",
                          src == nullptr ? std::string("<null>") : src->GetName(),
                          "', which is not in graph '", graph_.GetName(), "'");
    }
    WriteEntry(w, POp::kInputFieldNumber, src->GetName(), peer->GetIdx());
    return OkStatus();
  }

  Status WriteOp(const Node& node, WireWriter& w) {
    const size_t n_in = node.GetAllInDataAnchorsSize();
    const size_t n_out = node.GetAllOutDataAnchorsSize();
    auto inputs = [this, &node, n_in](WireWriter& w) -> Status {
      for (size_t i = 0; i < n_in; ++i) {
        const InDataAnchor* a = node.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
        const Anchor* peer = a->GetPeerOutAnchorPtr();
        if (peer == nullptr) peer = a->GetPeerOutControlAnchorPtr();
        if (peer == nullptr) {
          w.StringAlways(POp::kInputFieldNumber, absl::string_view());
        } else {
          RETURN_IF_ERROR(InputEntry(i, peer, w));
        }
      }
      const absl::Span<Anchor* const> ctrl = node.InControlPeers();
      for (size_t k = 0; k < ctrl.size(); ++k) RETURN_IF_ERROR(InputEntry(n_in + k, ctrl[k], w));
      return OkStatus();
    };
    auto tail = [this, &node, n_in, n_out](WireWriter& w, size_t descs_in, size_t descs_out) -> Status {
      // Against the descs written (none in a structure-only dump).
      if (n_in != descs_in) w.UInt32Always(POp::kInAnchorNumFieldNumber, static_cast<uint32_t>(n_in));
      if (n_out != descs_out) w.UInt32Always(POp::kOutAnchorNumFieldNumber, static_cast<uint32_t>(n_out));
      for (size_t k = 0; k < n_out; ++k) {
        RETURN_IF_ERROR(OutputOrder(node.GetOutDataAnchorBarePtr(static_cast<int32_t>(k))->PeerAnchors(),
                                    static_cast<int32_t>(k), w));
      }
      return OutputOrder(node.OutControlPeers(), -1, w);
    };
    if (!node.GetOpDescBarePtr()->GetSubgraphInstanceNames().empty() && !ctx_.options.omit_subgraphs) {
      RETURN_IF_ERROR(tree_.CheckInstances(graph_, node));
    }
    return EncodeOp(*node.GetOpDescBarePtr(), ctx_, w, inputs, tail);
  }

  // Checks that every consumer of one output is in this graph and records
  // the consumer order when it is not canonical.
  Status OutputOrder(absl::Span<Anchor* const> peers, int32_t index, WireWriter& w) {
    for (const Anchor* p : peers) {
      const Node* dst = p->GetOwnerNodeBarePtr();
      if (!InThisGraph(dst)) {
        return GraphInvalid("output ", index, " feeds node '",
                            dst == nullptr ? std::string("<null>") : dst->GetName(),
                            "', which is not in graph '", graph_.GetName(), "'");
      }
    }
    if (peers.size() < 2) return OkStatus();
    keys_.clear();
    for (const Anchor* p : peers) {
      const uint32_t slot = p->IsInControl() ? UINT32_MAX : static_cast<uint32_t>(p->GetIdx());
      const uint32_t pos = PositionOf(p->GetOwnerNodeBarePtr());
      keys_.push_back((static_cast<uint64_t>(pos) << 32) | slot);
    }
    if (std::is_sorted(keys_.begin(), keys_.end())) return OkStatus();
    order_.resize(keys_.size());
    for (size_t i = 0; i < order_.size(); ++i) order_[i] = static_cast<uint32_t>(i);
    std::sort(order_.begin(), order_.end(), [this](uint32_t a, uint32_t b) { return keys_[a] < keys_[b]; });
    std::vector<uint32_t> rank(order_.size());
    for (size_t r = 0; r < order_.size(); ++r) rank[order_[r]] = static_cast<uint32_t>(r);
    const size_t m = w.BeginMessage(POp::kOutputOrderFieldNumber);
    w.Int32(POrder::kIndexFieldNumber, index);
    w.PackedUInt32<uint32_t>(POrder::kPeerRankFieldNumber, rank);
    w.EndMessage(m);
    return OkStatus();
  }

  const ComputeGraph& graph_;
  const Tree& tree_;
  SerializeContext& ctx_;
  absl::flat_hash_map<absl::string_view, uint32_t> by_name_;  // positions, when ids are not
  std::vector<const Node*> nodes_;
  std::vector<uint64_t> hashes_;
  bool restart_ = false;
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> order_;
};



StatusOr<Tree> CollectTree(const ComputeGraph& graph, const SerializeContext& ctx) {
  Tree tree;
  if (ctx.options.omit_subgraphs) return tree;
  tree.subgraphs = CollectSubgraphs(graph);
  const ComputeGraph* registry = graph.GetRootGraphBarePtr();
  absl::flat_hash_set<std::string> graph_names = {graph.GetName()};
  for (const ComputeGraphPtr& sg : tree.subgraphs) {
    if (!graph_names.insert(sg->GetName()).second) {
      return GraphInvalid("the graph tree of '", graph.GetName(), "' has two graphs named '",
                          sg->GetName(), "'");
    }
    GraphLinks links;
    ASSIGN_OR_RETURN(std::string registered, RegisteredName(*registry, sg));
    if (registered != sg->GetName()) links.registered_name = std::move(registered);
    const ComputeGraph* parent_graph = sg->GetParentGraphBarePtr();
    const NodePtr parent_node = sg->GetParentNode();
    if (parent_graph != nullptr) links.parent_graph = parent_graph->GetName();
    if (parent_node != nullptr) links.parent_node = parent_node->GetName();
    tree.links.push_back(std::move(links));
  }
  tree.root = &graph;
  tree.registry = registry;
  tree.graph_names = std::move(graph_names);
  return tree;
}

// Every instance name of an op must name a subgraph written with the tree
// (the reader checks the same).
Status Tree::CheckInstances(const ComputeGraph& g, const Node& node) const {
  for (const std::string& inst : node.GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
    if (inst.empty()) continue;
    const ComputeGraphPtr sg = registry == nullptr ? nullptr : registry->GetSubgraph(inst);
    if (sg == nullptr || (sg.get() != root && !graph_names.contains(sg->GetName()))) {
      return GraphInvalid("graph '", g.GetName(), "' node '", node.GetName(), "' refers to subgraph '",
                          inst, "', which is not registered in the graph tree");
    }
  }
  return OkStatus();
}

Status NoNested(WireWriter&) { return OkStatus(); }

// Expected GraphDef size (for the length bytes reserved in front of it).
size_t SizeHint(const ComputeGraph& graph) { return 96 * graph.GetDirectNodesSize(); }

// =================================================================== reading

struct Edge {
  uint32_t src;
  int32_t src_idx;  // -1: control output
  uint32_t dst;
  int32_t dst_idx;  // -1: control input
};

// One GraphDef split into field views.
struct GraphView {
  absl::string_view name, parent_node, parent_graph, registered_name;
  uint32_t graph_id = 0;
  std::vector<absl::string_view> inputs, outputs, ops, attrs, subgraphs;
};

bool ReadGraphView(absl::string_view bytes, GraphView* g) {
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  bool ok = true;
  while (ok && r.Next(&f, &t)) {
    switch (f) {
      case PGraph::kNameFieldNumber:
        ok = r.Bytes(t, &g->name);
        break;
      case PGraph::kInputFieldNumber:
        ok = AppendBytes(r, t, &g->inputs);
        break;
      case PGraph::kOutputFieldNumber:
        ok = AppendBytes(r, t, &g->outputs);
        break;
      case PGraph::kOpFieldNumber:
        ok = AppendBytes(r, t, &g->ops);
        break;
      case PGraph::kAttrFieldNumber:
        ok = AppendBytes(r, t, &g->attrs);
        break;
      case PGraph::kParentNodeFieldNumber:
        ok = r.Bytes(t, &g->parent_node);
        break;
      case PGraph::kParentGraphFieldNumber:
        ok = r.Bytes(t, &g->parent_graph);
        break;
      case PGraph::kRegisteredNameFieldNumber:
        ok = r.Bytes(t, &g->registered_name);
        break;
      case PGraph::kSubgraphFieldNumber:
        ok = AppendBytes(r, t, &g->subgraphs);
        break;
      case PGraph::kGraphIdFieldNumber:
        ok = r.UInt32(t, &g->graph_id);
        break;
      default:
        ok = r.Skip(t);
    }
  }
  return ok && r.ok();
}

// Reads one GraphDef. Full mode builds the ComputeGraph; light mode
// (DecodeModelOpDescs) builds only the OpDescs and runs the same checks on
// the same bytes in the same order, with the same messages, tracking anchor
// counts by index instead of building nodes.
class GraphReader {
 public:
  GraphReader(const GraphView& view, DeserializeContext& ctx, ModelOpDescs* light = nullptr)
      : view_(view), ctx_(ctx), light_(light) {}

  const ComputeGraphPtr& graph() const { return graph_; }
  absl::string_view name() const { return view_.name; }
  const GraphView& view() const { return view_; }
  const std::vector<NodePtr>& nodes() const { return nodes_; }
  // The nodes whose ops name subgraph instances.
  const std::vector<Node*>& nodes_with_subgraphs() const { return with_subgraphs_; }

  NodePtr FindNode(absl::string_view name) {
    const uint32_t i = Find(static_cast<uint32_t>(nodes_.size()), name);
    return i == kUnresolved ? nullptr : nodes_[i];
  }

  Status Read() {
    const std::string gname(view_.name);
    if (static_cast<int64_t>(view_.ops.size()) > ctx_.options.max_ops_per_graph) {
      return OutOfRange("graph '", gname, "' has ", view_.ops.size(), " ops, more than the limit of ",
                        ctx_.options.max_ops_per_graph);
    }
    if (light_ != nullptr) {
      light_->graph_name = gname;
      light_->graph_id = view_.graph_id;
      RETURN_IF_ERROR(Annotate(DecodeAttrs(view_.attrs, ctx_, &light_->attrs), "graph '", gname, "': "));
    } else {
      graph_ = std::make_shared<ComputeGraph>(gname);
      if (view_.graph_id != 0) graph_->SetGraphID(view_.graph_id);
      RETURN_IF_ERROR(Annotate(DecodeAttrs(view_.attrs, ctx_, &graph_->MutableAttrStore()), "graph '",
                               gname, "': "));
    }
    RETURN_IF_ERROR(ReadNodesAndEdges());
    RETURN_IF_ERROR(FinishEdges());
    if (ctx_.options.check_cycles && deferred_) RETURN_IF_ERROR(CheckAcyclic());
    std::vector<Edge>().swap(edges_);
    return light_ != nullptr ? ReadInputsOutputsLight() : ReadInputsOutputs();
  }


 private:
  static constexpr uint32_t kUnresolved = UINT32_MAX;

  // One pass over the ops: each op becomes a node, then its input entries
  // become edges. While every entry names an earlier op, the edges are linked
  // at once, in canonical order, and the graph is acyclic by construction.
  // The first entry naming a later op (or the op itself) switches to
  // deferred mode: the rest is linked by FinishEdges, still in canonical
  // order, and the cycle check runs.
  Status ReadNodesAndEdges() {
    const size_t n = view_.ops.size();
    if (light_ != nullptr) {
      light_->ops.reserve(n);
    } else {
      nodes_.reserve(n);
    }
    names_.reserve(n);
    in_count_.reserve(n);
    out_count_.reserve(n);
    hashes_.reserve(n);
    edges_.reserve(2 * n);
    OpFields fields;
    for (size_t i = 0; i < n; ++i) {
      if (!ReadOpFields(view_.ops[i], &fields)) {
        return Malformed(absl::StrCat("op ", i, " of graph '", view_.name, "'"));
      }
      if (fields.name.empty()) {
        return GraphInvalid("graph '", view_.name, "' op ", i, " (type '", fields.type,
                            "') has an empty name");
      }
      names_.push_back(fields.name);
      hashes_.push_back(NameHash(fields.name));
      if (index_built_) {
        auto [it, inserted] = index_.emplace(fields.name, static_cast<uint32_t>(i));
        if (!inserted) return Duplicate(it->second, i);
      }
      StatusOr<OpDescPtr> op = BuildOpDesc(fields, ctx_, &ir_donors_, &desc_cache_);
      if (!op.ok()) {
        return Annotate(op.status(), "graph '", view_.name, "' node '", fields.name, "': ");
      }
      if (light_ != nullptr) {
        RETURN_IF_ERROR(Annotate(CheckAnchorNums(fields), "graph '", view_.name, "' node '",
                                 fields.name, "': "));
        const OpDesc& desc = **op;
        in_count_.push_back(fields.has_in_anchor_num ? fields.in_anchor_num
                                                     : static_cast<uint32_t>(desc.GetAllInputsSize()));
        out_count_.push_back(fields.has_out_anchor_num
                                 ? fields.out_anchor_num
                                 : static_cast<uint32_t>(desc.GetAllOutputsDescSize()));
        if (light_subgraph_op_ == SIZE_MAX) {
          for (const std::string& inst : desc.GetSubgraphInstanceNames()) {
            if (!inst.empty()) {
              light_subgraph_op_ = i;
              light_subgraph_inst_ = inst;
              break;
            }
          }
        }
        light_->ops.push_back(std::move(op).value());
      } else {
        StatusOr<NodePtr> node = graph_->AddNode(*op, fields.id);
        if (!node.ok()) {
          return Annotate(node.status(), "graph '", view_.name, "' node '", fields.name, "': ");
        }
        RETURN_IF_ERROR(Annotate(AdjustAnchors(fields, **node), "graph '", view_.name, "' node '",
                                 fields.name, "': "));
        if (!(*node)->GetOpDescBarePtr()->GetSubgraphInstanceNames().empty()) {
          with_subgraphs_.push_back(node->get());
        }
        in_count_.push_back(static_cast<uint32_t>((*node)->GetAllInDataAnchorsSize()));
        out_count_.push_back(static_cast<uint32_t>((*node)->GetAllOutDataAnchorsSize()));
        nodes_.push_back(std::move(node).value());
      }
      if (!fields.output_orders.empty()) {
        orders_.emplace_back(static_cast<uint32_t>(i), std::move(fields.output_orders));
        fields.output_orders.clear();
        needs_kahn_ = true;
      }
      RETURN_IF_ERROR(ReadEntries(static_cast<uint32_t>(i), fields.inputs));
    }
    if (!index_built_) {  // the duplicate check the index would have made
      const auto [a, b] = FindDuplicateName(hashes_, [this](size_t k) { return names_[k]; });
      if (b < n) return Duplicate(a, b);
    }
    return OkStatus();
  }

  Status Duplicate(size_t a, size_t b) const {
    return GraphInvalid("graph '", view_.name, "' has duplicate node name '", names_[b], "' (ops ", a,
                        " and ", b, ")");
  }

  // Builds the name index over the ops read so far (it is then kept up to
  // date); graphs whose entries all name recent ops never need it.
  Status EnsureIndex() {
    if (index_built_ || !index_status_.ok()) return index_status_;
    index_.reserve(view_.ops.size());
    for (size_t k = 0; k < names_.size(); ++k) {
      auto [it, inserted] = index_.emplace(names_[k], static_cast<uint32_t>(k));
      if (!inserted) {
        index_status_ = Duplicate(it->second, k);
        return index_status_;
      }
    }
    index_built_ = true;
    return OkStatus();
  }

  // The limit checks of AdjustAnchors (light mode: no anchors to adjust).
  Status CheckAnchorNums(const OpFields& f) const {
    if (f.has_in_anchor_num && f.in_anchor_num > ctx_.options.max_ports_per_op) {
      return OutOfRange("in_anchor_num ", f.in_anchor_num, " is more than the limit of ",
                        ctx_.options.max_ports_per_op);
    }
    if (f.has_out_anchor_num && f.out_anchor_num > ctx_.options.max_ports_per_op) {
      return OutOfRange("out_anchor_num ", f.out_anchor_num, " is more than the limit of ",
                        ctx_.options.max_ports_per_op);
    }
    return OkStatus();
  }

  Status AdjustAnchors(const OpFields& f, Node& node) const {
    if (f.has_in_anchor_num) {
      const int64_t want = f.in_anchor_num;
      const int64_t have = static_cast<int64_t>(node.GetAllInDataAnchorsSize());
      if (want > ctx_.options.max_ports_per_op) {
        return OutOfRange("in_anchor_num ", want, " is more than the limit of ",
                          ctx_.options.max_ports_per_op);
      }
      if (want > have) {
        RETURN_IF_ERROR(node.AppendInDataAnchors(static_cast<size_t>(want - have)));
      } else if (want < have) {
        RETURN_IF_ERROR(node.RemoveInDataAnchors(static_cast<size_t>(have - want)));
      }
    }
    if (f.has_out_anchor_num) {
      const int64_t want = f.out_anchor_num;
      const int64_t have = static_cast<int64_t>(node.GetAllOutDataAnchorsSize());
      if (want > ctx_.options.max_ports_per_op) {
        return OutOfRange("out_anchor_num ", want, " is more than the limit of ",
                          ctx_.options.max_ports_per_op);
      }
      if (want > have) {
        RETURN_IF_ERROR(node.AppendOutDataAnchors(static_cast<size_t>(want - have)));
      } else if (want < have) {
        RETURN_IF_ERROR(node.RemoveOutDataAnchors(static_cast<size_t>(have - want)));
      }
    }
    return OkStatus();
  }

  // Looks a producer name up among the ops read so far (ops before `dst`
  // first; kUnresolved when absent or on a duplicate, which Read reports).
  uint32_t Find(uint32_t dst, absl::string_view name) {
    // Producers are usually among the last few ops: compare names before
    // hashing (the hash table is cold in large graphs, and often not built).
    constexpr uint32_t kWindow = 8;
    for (uint32_t j = 1; j <= kWindow && j <= dst; ++j) {
      if (names_[dst - j] == name) return dst - j;
    }
    if (!index_built_) {
      // Then the hashes of a wider window (sequential, cache-friendly):
      // shared producers (weights, graph inputs) are usually not far back,
      // and a graph never needing the index skips its per-op inserts.
      constexpr uint32_t kHashWindow = 512;
      const uint64_t h = NameHash(name);
      const uint32_t stop = dst > kHashWindow ? dst - kHashWindow : 0;
      for (uint32_t j = dst > kWindow ? dst - kWindow : 0; j > stop; --j) {
        if (hashes_[j - 1] == h && names_[j - 1] == name) return j - 1;
      }
    }
    if (!EnsureIndex().ok()) return kUnresolved;
    auto it = index_.find(name);
    return it == index_.end() ? kUnresolved : it->second;
  }

  // Checks output index `idx` of op `src` for entry k of op `dst`.
  Status CheckIndex(uint32_t dst, size_t k, absl::string_view entry, uint32_t src, int32_t idx) const {
    if (idx < -1) {
      return OutOfRange("node '", names_[dst], "' input ", k, " ('", entry,
                        "') has negative output index ", idx, "; only -1 (control) is allowed");
    }
    if (idx >= static_cast<int32_t>(out_count_[src])) {
      return OutOfRange("node '", names_[dst], "' input ", k, " refers to output ", idx, " of node '",
                        names_[src], "', which has ", out_count_[src], " outputs");
    }
    return OkStatus();
  }

  Status ReadEntries(uint32_t dst, const std::vector<absl::string_view>& entries) {
    const absl::string_view node_name = names_[dst];
    const size_t count = entries.size();
    const size_t n_in = in_count_[dst];
    if (count < n_in) {
      return GraphInvalid("node '", node_name, "' has ", n_in, " input anchors but only ", count,
                          " input entries");
    }
    if (static_cast<int64_t>(count - n_in) > ctx_.options.max_ports_per_op) {
      return OutOfRange("node '", node_name, "' has ", count - n_in,
                        " control input entries, more than the limit of ",
                        ctx_.options.max_ports_per_op);
    }
    const bool check_ctrl = count > n_in + 1;
    if (check_ctrl) seen_ctrl_.clear();
    for (size_t k = 0; k < count; ++k) {
      const absl::string_view entry = entries[k];
      const bool data = k < n_in;
      if (entry.empty()) {
        if (data) continue;
        return GraphInvalid("node '", node_name, "' input ", k, " is an empty control input entry");
      }
      absl::string_view name;
      int32_t idx = 0;
      Status st = ParseEntry(entry, &name, &idx);
      if (!st.ok()) return Annotate(st, "node '", node_name, "' input ", k, ": ");
      const uint32_t src = Find(dst, name);
      const int32_t dst_idx = data ? static_cast<int32_t>(k) : -1;
      if (src == kUnresolved || src == dst) {
        // A later op (or this one): resolved and checked by FinishEdges.
        deferred_ = true;
        unresolved_.push_back({static_cast<uint32_t>(edges_.size()), static_cast<uint32_t>(k), entry});
        edges_.push_back(Edge{kUnresolved, idx, dst, dst_idx});
        continue;
      }
      RETURN_IF_ERROR(CheckIndex(dst, k, entry, src, idx));
      if (!data && check_ctrl) {
        const uint64_t key = (static_cast<uint64_t>(src) << 32) | static_cast<uint32_t>(idx + 1);
        if (!seen_ctrl_.insert(key).second) {
          return GraphInvalid("node '", node_name, "' lists control input '", entry, "' twice");
        }
      }
      edges_.push_back(Edge{src, idx, dst, dst_idx});
      if (!deferred_ && !needs_kahn_) {
        RETURN_IF_ERROR(Link(edges_.back()));
        linked_ = edges_.size();
      }
    }
    return OkStatus();
  }

  // Resolves the deferred entries and links what is not linked yet.
  Status FinishEdges() {
    for (const Unresolved& u : unresolved_) {
      Edge& e = edges_[u.edge];
      absl::string_view name;
      int32_t idx = 0;
      RETURN_IF_ERROR(ParseEntry(u.entry, &name, &idx));
      RETURN_IF_ERROR(EnsureIndex());
      auto it = index_.find(name);
      if (it == index_.end()) {
        return GraphInvalid("node '", names_[e.dst], "' input ", u.k, " refers to missing node '",
                            name, "'");
      }
      RETURN_IF_ERROR(CheckIndex(e.dst, u.k, u.entry, it->second, idx));
      e.src = it->second;
    }
    // Duplicate control inputs among deferred entries.
    if (!unresolved_.empty()) {
      absl::flat_hash_set<std::pair<uint32_t, uint64_t>> seen;
      for (const Edge& e : edges_) {
        if (e.dst_idx >= 0) continue;
        const uint64_t key = (static_cast<uint64_t>(e.src) << 32) | static_cast<uint32_t>(e.src_idx + 1);
        if (!seen.insert({e.dst, key}).second) {
          return GraphInvalid("node '", names_[e.dst], "' lists control input '", names_[e.src], ":",
                              e.src_idx, "' twice");
        }
      }
    }
    std::vector<Unresolved>().swap(unresolved_);
    if (needs_kahn_) {
      // Undo the early links; LinkInPeerOrder links everything.
      for (size_t k = linked_; k > 0; --k) RETURN_IF_ERROR(Unlink(edges_[k - 1]));
      linked_ = 0;
      return LinkInPeerOrder();
    }
    for (size_t k = linked_; k < edges_.size(); ++k) RETURN_IF_ERROR(Link(edges_[k]));
    linked_ = edges_.size();
    return OkStatus();
  }

  std::pair<Anchor*, Anchor*> Ends(const Edge& e) const {
    Node& s = *nodes_[e.src];
    Node& d = *nodes_[e.dst];
    Anchor* from = e.src_idx < 0 ? static_cast<Anchor*>(s.GetOutControlAnchorBarePtr())
                                 : static_cast<Anchor*>(s.GetOutDataAnchorBarePtr(e.src_idx));
    Anchor* to = e.dst_idx < 0 ? static_cast<Anchor*>(d.GetInControlAnchorBarePtr())
                               : static_cast<Anchor*>(d.GetInDataAnchorBarePtr(e.dst_idx));
    return {from, to};
  }

  Status Link(const Edge& e) const {
    if (light_ != nullptr) return OkStatus();
    const auto [from, to] = Ends(e);
    Status st = from->LinkWith(to);
    if (!st.ok()) {
      return Annotate(st, "graph '", view_.name, "': linking ", nodes_[e.src]->GetName(), ":",
                      e.src_idx, " -> ", nodes_[e.dst]->GetName(), ":", e.dst_idx, ": ");
    }
    return OkStatus();
  }

  Status Unlink(const Edge& e) const {
    if (light_ != nullptr) return OkStatus();
    const auto [from, to] = Ends(e);
    return from->Unlink(to);
  }

  static uint64_t OutKey(uint32_t src, int32_t idx) {
    return (static_cast<uint64_t>(src) << 32) | static_cast<uint32_t>(idx + 1);
  }

  // Links so that every out anchor's peers end up in the recorded order and
  // every in-control anchor's peers in entry order: a topological order of
  // the edges under both chains (Kahn, smallest canonical index first).
  Status LinkInPeerOrder() {
    const size_t m = edges_.size();
    absl::flat_hash_map<uint64_t, std::vector<uint32_t>> groups;
    for (uint32_t e = 0; e < m; ++e) groups[OutKey(edges_[e].src, edges_[e].src_idx)].push_back(e);
    for (const auto& [src, orders] : orders_) {
      const absl::string_view node_name = names_[src];
      const uint32_t n_out = out_count_[src];
      absl::flat_hash_set<int32_t> seen;
      for (const OutputOrderView& o : orders) {
        if (o.index < -1 || o.index >= static_cast<int32_t>(n_out)) {
          return OutOfRange("node '", node_name, "' output order for output ", o.index,
                            ", which does not exist (", n_out, " outputs)");
        }
        if (!seen.insert(o.index).second) {
          return GraphInvalid("node '", node_name, "' has two output orders for output ", o.index);
        }
        auto it = groups.find(OutKey(src, o.index));
        const size_t n = it == groups.end() ? 0 : it->second.size();
        if (o.ranks.size() != n) {
          return GraphInvalid("node '", node_name, "' output ", o.index, " order has ",
                              o.ranks.size(), " ranks but the output has ", n, " consumers");
        }
        if (n == 0) continue;
        std::vector<uint32_t> actual(n);
        std::vector<bool> used(n, false);
        for (size_t i = 0; i < n; ++i) {
          const uint32_t r = o.ranks[i];
          if (r >= n || used[r]) {
            return GraphInvalid("node '", node_name, "' output ", o.index,
                                " order is not a permutation of 0..", n - 1);
          }
          used[r] = true;
          actual[i] = it->second[r];
        }
        it->second = std::move(actual);
      }
    }
    if (light_ != nullptr) return OkStatus();  // the orders are valid; nothing to link
    constexpr uint32_t kNone = UINT32_MAX;
    std::vector<uint32_t> out_next(m, kNone), in_next(m, kNone);
    std::vector<uint8_t> pending(m, 0);
    for (const auto& kv : groups) {
      const std::vector<uint32_t>& g = kv.second;
      for (size_t i = 1; i < g.size(); ++i) {
        out_next[g[i - 1]] = g[i];
        ++pending[g[i]];
      }
    }
    // Control entries of one consumer are consecutive in edges_.
    for (uint32_t e = 1; e < m; ++e) {
      if (edges_[e].dst_idx < 0 && edges_[e - 1].dst_idx < 0 && edges_[e].dst == edges_[e - 1].dst) {
        in_next[e - 1] = e;
        ++pending[e];
      }
    }
    std::priority_queue<uint32_t, std::vector<uint32_t>, std::greater<uint32_t>> ready;
    for (uint32_t e = 0; e < m; ++e) {
      if (pending[e] == 0) ready.push(e);
    }
    std::vector<bool> linked(m, false);
    size_t done = 0;
    while (!ready.empty()) {
      const uint32_t e = ready.top();
      ready.pop();
      RETURN_IF_ERROR(Link(edges_[e]));
      linked[e] = true;
      ++done;
      for (uint32_t next : {out_next[e], in_next[e]}) {
        if (next != kNone && --pending[next] == 0) ready.push(next);
      }
    }
    // The recorded orders contradict each other (possible only for peer
    // orders not produced by appending links): link the rest canonically.
    if (done < m) {
      for (uint32_t e = 0; e < m; ++e) {
        if (!linked[e]) RETURN_IF_ERROR(Link(edges_[e]));
      }
    }
    return OkStatus();
  }

  Status CheckAcyclic() const {
    const size_t n = names_.size();
    std::vector<uint32_t> offsets(n + 1, 0), indeg(n, 0);
    for (const Edge& e : edges_) {
      ++offsets[e.src + 1];
      ++indeg[e.dst];
    }
    for (size_t i = 0; i < n; ++i) offsets[i + 1] += offsets[i];
    std::vector<uint32_t> succ(edges_.size());
    {
      std::vector<uint32_t> fill(offsets.begin(), offsets.end() - 1);
      for (const Edge& e : edges_) succ[fill[e.src]++] = e.dst;
    }
    std::vector<uint32_t> queue;
    queue.reserve(n);
    for (uint32_t i = 0; i < n; ++i) {
      if (indeg[i] == 0) queue.push_back(i);
    }
    for (size_t head = 0; head < queue.size(); ++head) {
      const uint32_t v = queue[head];
      for (uint32_t k = offsets[v]; k < offsets[v + 1]; ++k) {
        if (--indeg[succ[k]] == 0) queue.push_back(succ[k]);
      }
    }
    if (queue.size() == n) return OkStatus();
    // Every node left has a predecessor left: walk predecessors until one
    // repeats.
    std::vector<std::vector<uint32_t>> pred(n);
    for (const Edge& e : edges_) {
      if (indeg[e.src] > 0 && indeg[e.dst] > 0) pred[e.dst].push_back(e.src);
    }
    uint32_t cur = 0;
    while (indeg[cur] == 0) ++cur;
    std::vector<int64_t> step(n, -1);
    std::vector<uint32_t> path;
    while (step[cur] < 0) {
      step[cur] = static_cast<int64_t>(path.size());
      path.push_back(cur);
      cur = pred[cur].front();
    }
    // path[j] <- path[j+1] <- ... <- path.back() <- path[j]: print forwards.
    const size_t j = static_cast<size_t>(step[cur]);
    std::vector<std::string> names;
    names.push_back(std::string(names_[path[j]]));
    const size_t len = path.size() - j;
    for (size_t k = path.size() - 1; k > j; --k) {
      if (names.size() >= kMaxCycleNamesShown) {
        names.push_back(absl::StrCat("... (", len, " nodes)"));
        break;
      }
      names.push_back(std::string(names_[path[k]]));
    }
    names.push_back(std::string(names_[path[j]]));
    return GraphCycle("graph '", view_.name, "' has a cycle: ", absl::StrJoin(names, " -> "));
  }

  Status ReadInputsOutputs() {
    const absl::string_view gname = view_.name;
    const std::vector<NodePtr>& current_inputs = graph_->GetInputNodes();
    bool same = current_inputs.size() == view_.inputs.size();
    for (size_t k = 0; same && k < current_inputs.size(); ++k) {
      same = current_inputs[k]->GetName() == view_.inputs[k];
    }
    std::vector<NodePtr> inputs;
    inputs.reserve(view_.inputs.size());
    for (absl::string_view name : same ? std::vector<absl::string_view>() : view_.inputs) {
      NodePtr node = FindNode(name);
      if (node == nullptr) return GraphInvalid("graph '", gname, "' input node '", name, "' is missing");
      inputs.push_back(std::move(node));
    }
    if (!same && graph_->GetInputNodes() != inputs) {
      const std::vector<NodePtr> current = graph_->GetInputNodes();
      for (const NodePtr& node : current) RETURN_IF_ERROR(graph_->RemoveInputNode(node));
      for (const NodePtr& node : inputs) RETURN_IF_ERROR(graph_->AddInputNode(node));
      if (graph_->GetInputNodes() != inputs) {
        return GraphInvalid("graph '", gname, "' lists an input node twice");
      }
    }
    std::vector<std::pair<NodePtr, int32_t>> outputs;
    outputs.reserve(view_.outputs.size());
    RETURN_IF_ERROR(ReadOutputEntries(
        [this](absl::string_view name, size_t* out_count) {
          NodePtr node = FindNode(name);
          if (node != nullptr) *out_count = node->GetAllOutDataAnchorsSize();
          return node;
        },
        [&outputs](NodePtr node, int32_t idx) { outputs.emplace_back(std::move(node), idx); }));
    graph_->SetGraphOutNodesInfo(outputs);
    return OkStatus();
  }

  // The graph's output entries "node:index", in order: each node resolved by
  // `find(name, &out_count)` (null / kUnresolved: missing), the index checked
  // against its output count, then handed to `add(handle, index)`.
  template <typename Find, typename Add>
  Status ReadOutputEntries(Find find, Add add) {
    const absl::string_view gname = view_.name;
    for (size_t k = 0; k < view_.outputs.size(); ++k) {
      absl::string_view name;
      int32_t idx = 0;
      RETURN_IF_ERROR(Annotate(ParseEntry(view_.outputs[k], &name, &idx), "graph '", gname,
                               "' output ", k, ": "));
      size_t out_count = 0;
      auto handle = find(name, &out_count);
      if (!Resolved(handle)) {
        return GraphInvalid("graph '", gname, "' output ", k, " refers to missing node '", name, "'");
      }
      if (idx < 0 || static_cast<size_t>(idx) >= out_count) {
        return OutOfRange("graph '", gname, "' output ", k, " refers to output ", idx, " of node '",
                          name, "', which has ", out_count, " outputs");
      }
      add(std::move(handle), idx);
    }
    return OkStatus();
  }
  static bool Resolved(const NodePtr& node) { return node != nullptr; }
  static bool Resolved(uint32_t index) { return index != kUnresolved; }

  // ReadInputsOutputs without nodes: the same checks, indices into the ops.
  Status ReadInputsOutputsLight() {
    const absl::string_view gname = view_.name;
    const uint32_t n = static_cast<uint32_t>(names_.size());
    std::vector<uint32_t>& inputs = light_->input_ops;
    inputs.reserve(view_.inputs.size());
    for (absl::string_view name : view_.inputs) {
      const uint32_t i = Find(n, name);
      if (i == kUnresolved) return GraphInvalid("graph '", gname, "' input node '", name, "' is missing");
      inputs.push_back(i);
    }
    if (inputs.size() > 1) {
      absl::flat_hash_set<uint32_t> seen;
      for (uint32_t i : inputs) {
        if (!seen.insert(i).second) return GraphInvalid("graph '", gname, "' lists an input node twice");
      }
    }
    auto& outputs = light_->outputs;
    outputs.reserve(view_.outputs.size());
    return ReadOutputEntries(
        [this, n](absl::string_view name, size_t* out_count) {
          const uint32_t i = Find(n, name);
          if (i != kUnresolved) *out_count = out_count_[i];
          return i;
        },
        [&outputs](uint32_t i, int32_t idx) { outputs.emplace_back(i, idx); });
  }

 public:
  // The first op naming a subgraph instance, and the name (light mode).
  size_t light_subgraph_op() const { return light_subgraph_op_; }
  const std::string& light_subgraph_inst() const { return light_subgraph_inst_; }

 private:
  struct Unresolved {
    uint32_t edge;  // into edges_
    uint32_t k;     // entry index
    absl::string_view entry;
  };

  const GraphView& view_;
  DeserializeContext& ctx_;
  ComputeGraphPtr graph_;
  std::vector<NodePtr> nodes_;
  std::vector<Node*> with_subgraphs_;
  std::vector<absl::string_view> names_;  // op names, views into the bytes
  std::vector<uint32_t> in_count_, out_count_;  // data anchors of each op's node
  ModelOpDescs* light_ = nullptr;              // light mode: the result
  size_t light_subgraph_op_ = SIZE_MAX;
  std::string light_subgraph_inst_;
  std::vector<uint64_t> hashes_;          // NameHash of names_
  absl::flat_hash_map<absl::string_view, uint32_t> index_;  // see EnsureIndex
  bool index_built_ = false;
  Status index_status_;  // a duplicate name found while building index_
  std::vector<std::pair<uint32_t, std::vector<OutputOrderView>>> orders_;
  std::vector<Edge> edges_;  // canonical order: consumers in op order, entries in order
  std::vector<Unresolved> unresolved_;
  absl::flat_hash_set<uint64_t> seen_ctrl_;
  IrDonors ir_donors_;  // see BuildOpDesc
  DescCache desc_cache_;
  size_t linked_ = 0;        // edges_[0, linked_) are linked
  bool deferred_ = false;    // an entry named a later op (or its own op)
  bool needs_kahn_ = false;  // some op carries an OutputOrder
};

// Builds a tree from its root GraphDef and its subgraph GraphDefs.
StatusOr<ComputeGraphPtr> ReadTree(const GraphView& root_view, const std::vector<GraphView>& sub_views,
                                   DeserializeContext& ctx) {
  if (static_cast<int64_t>(sub_views.size()) + 1 > ctx.options.max_graphs) {
    return OutOfRange("the model has ", sub_views.size() + 1, " graphs, more than the limit of ",
                      ctx.options.max_graphs);
  }
  if (!root_view.parent_graph.empty() || !root_view.parent_node.empty() ||
      !root_view.registered_name.empty()) {
    return GraphInvalid("root graph '", root_view.name,
                        "' must not have a parent graph, parent node or registered name");
  }
  std::vector<std::unique_ptr<GraphReader>> readers;
  readers.reserve(sub_views.size() + 1);
  readers.push_back(std::make_unique<GraphReader>(root_view, ctx));
  for (const GraphView& v : sub_views) {
    if (!v.subgraphs.empty()) {
      return GraphInvalid("subgraph '", v.name, "' nests ", v.subgraphs.size(),
                          " subgraphs; only the root graph may");
    }
    readers.push_back(std::make_unique<GraphReader>(v, ctx));
  }
  absl::flat_hash_map<absl::string_view, size_t> by_name;
  for (size_t i = 0; i < readers.size(); ++i) {
    if (!by_name.emplace(readers[i]->name(), i).second) {
      return GraphInvalid("the model has two graphs named '", readers[i]->name(), "'");
    }
  }
  for (auto& r : readers) RETURN_IF_ERROR(r->Read());

  const size_t n = readers.size();
  std::vector<int64_t> parent(n, -1);
  std::vector<NodePtr> parent_node(n);
  for (size_t i = 1; i < n; ++i) {
    const GraphView& v = readers[i]->view();
    if (v.parent_graph.empty()) {
      if (!v.parent_node.empty()) {
        return GraphInvalid("subgraph '", v.name, "' has parent node '", v.parent_node,
                            "' but no parent graph");
      }
      continue;
    }
    auto it = by_name.find(v.parent_graph);
    if (it == by_name.end()) {
      return GraphInvalid("subgraph '", v.name, "' refers to missing parent graph '", v.parent_graph, "'");
    }
    if (it->second == i) return GraphInvalid("subgraph '", v.name, "' is its own parent graph");
    parent[i] = static_cast<int64_t>(it->second);
    parent_node[i] = readers[it->second]->FindNode(v.parent_node);
    if (parent_node[i] == nullptr) {
      return GraphInvalid("subgraph '", v.name, "' refers to missing parent node '", v.parent_node,
                          "' in graph '", v.parent_graph, "'");
    }
  }
  for (size_t i = 1; i < n; ++i) {
    if (parent[i] < 0) continue;
    int64_t g = static_cast<int64_t>(i);
    size_t steps = 0;
    while (g > 0 && parent[static_cast<size_t>(g)] >= 0 && steps <= n) {
      g = parent[static_cast<size_t>(g)];
      ++steps;
    }
    if (g != 0) {
      return GraphInvalid("the parent chain of subgraph '", readers[i]->name(),
                          "' does not reach the root graph '", root_view.name, "'");
    }
  }
  const ComputeGraphPtr& root = readers[0]->graph();
  for (size_t i = 1; i < n; ++i) {
    if (parent[i] < 0) continue;
    readers[i]->graph()->SetParentGraph(readers[static_cast<size_t>(parent[i])]->graph());
    readers[i]->graph()->SetParentNode(parent_node[i]);
  }
  for (size_t i = 1; i < n; ++i) {
    const GraphView& v = readers[i]->view();
    const std::string reg(v.registered_name.empty() ? v.name : v.registered_name);
    Status st;
    if (parent[i] >= 0) {
      st = root->AddSubgraph(reg, readers[i]->graph());
    } else if (reg != v.name) {
      st = GraphInvalid("a subgraph without a parent is registered under its own name only");
    } else {
      st = root->AddSubGraph(readers[i]->graph());
    }
    if (!st.ok()) return Annotate(st, "registering subgraph '", v.name, "': ");
  }
  for (const auto& r : readers) {
    for (const Node* node : r->nodes_with_subgraphs()) {
      for (const std::string& inst : node->GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
        if (!inst.empty() && root->GetSubgraph(inst) == nullptr) {
          return NotFound("graph '", r->name(), "' node '", node->GetName(),
                          "' refers to missing subgraph '", inst, "'");
        }
      }
    }
  }
  return root;
}

Status CheckSize(absl::string_view bytes) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return OutOfRange("input of ", bytes.size(), " bytes is larger than protobuf's 2 GiB limit");
  }
  return OkStatus();
}

}  // namespace

// ================================================================== public

Status EncodeModel(const ComputeGraph& graph, SerializeContext& ctx, std::string* out) {
  ASSIGN_OR_RETURN(const Tree tree, CollectTree(graph, ctx));
  // On small pages: huge-page advice here made the first round trip of a
  // 1M-node graph 3.4 us/node instead of 1.4 in a third of the runs on the
  // build VM (fresh 2 MiB pages; see graph/src/pool_allocator.cc).
  out->reserve(out->size() + 128 * (graph.GetDirectNodesSize() + 1));
  WireWriter w(out);
  w.String(PModel::kNameFieldNumber, graph.GetName());
  size_t m = w.BeginMessage(PModel::kGraphFieldNumber, SizeHint(graph));
  RETURN_IF_ERROR(GraphWriter(graph, tree, ctx).Write(GraphLinks(), w, NoNested));
  w.EndMessage(m);
  for (size_t i = 0; i < tree.subgraphs.size(); ++i) {
    m = w.BeginMessage(PModel::kGraphFieldNumber, SizeHint(*tree.subgraphs[i]));
    RETURN_IF_ERROR(GraphWriter(*tree.subgraphs[i], tree, ctx).Write(tree.links[i], w, NoNested));
    w.EndMessage(m);
  }
  if (w.size() > static_cast<size_t>(INT_MAX)) {
    return Overflow("the serialized model is ", w.size(), " bytes, more than protobuf's 2 GiB limit");
  }
  return OkStatus();
}

Status EncodeGraph(const ComputeGraph& graph, SerializeContext& ctx, std::string* out) {
  ASSIGN_OR_RETURN(const Tree tree, CollectTree(graph, ctx));
  WireWriter w(out);
  auto nested = [&tree, &ctx](WireWriter& w) -> Status {
    for (size_t i = 0; i < tree.subgraphs.size(); ++i) {
      const size_t m = w.BeginMessage(PGraph::kSubgraphFieldNumber, SizeHint(*tree.subgraphs[i]));
      RETURN_IF_ERROR(GraphWriter(*tree.subgraphs[i], tree, ctx).Write(tree.links[i], w, NoNested));
      w.EndMessage(m);
    }
    return OkStatus();
  };
  return GraphWriter(graph, tree, ctx).Write(GraphLinks(), w, nested);
}

namespace {

// The ModelDef envelope: every GraphDef split into field views, root first.
StatusOr<std::vector<GraphView>> ReadModelViews(absl::string_view bytes, DeserializeContext& ctx) {
  RETURN_IF_ERROR(CheckSize(bytes));
  std::vector<absl::string_view> graphs;
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  while (r.Next(&f, &t)) {
    if (f == PModel::kGraphFieldNumber) {
      absl::string_view g;
      if (!r.Bytes(t, &g)) break;
      graphs.push_back(g);
    } else if (!r.Skip(t)) {
      break;
    }
  }
  if (!r.ok()) return Malformed("ModelDef");
  if (graphs.empty()) return GraphInvalid("the model has no graph");
  if (static_cast<int64_t>(graphs.size()) > ctx.options.max_graphs) {
    return OutOfRange("the model has ", graphs.size(), " graphs, more than the limit of ",
                      ctx.options.max_graphs);
  }
  std::vector<GraphView> views(graphs.size());
  for (size_t i = 0; i < graphs.size(); ++i) {
    if (!ReadGraphView(graphs[i], &views[i])) return Malformed(absl::StrCat("graph ", i, " of the model"));
  }
  if (!views[0].subgraphs.empty()) {
    return GraphInvalid("graph '", views[0].name,
                        "' of a model nests subgraphs; a model lists them as sibling graphs");
  }
  return views;
}

}  // namespace

StatusOr<ComputeGraphPtr> DecodeModel(absl::string_view bytes, DeserializeContext& ctx) {
  ASSIGN_OR_RETURN(std::vector<GraphView> views, ReadModelViews(bytes, ctx));
  const GraphView root = std::move(views[0]);
  views.erase(views.begin());
  return ReadTree(root, views, ctx);
}

StatusOr<ComputeGraphPtr> DecodeGraph(absl::string_view bytes, DeserializeContext& ctx) {
  RETURN_IF_ERROR(CheckSize(bytes));
  GraphView root;
  if (!ReadGraphView(bytes, &root)) return Malformed("GraphDef");
  if (static_cast<int64_t>(root.subgraphs.size()) + 1 > ctx.options.max_graphs) {
    return OutOfRange("the model has ", root.subgraphs.size() + 1, " graphs, more than the limit of ",
                      ctx.options.max_graphs);
  }
  std::vector<GraphView> subs(root.subgraphs.size());
  for (size_t i = 0; i < subs.size(); ++i) {
    if (!ReadGraphView(root.subgraphs[i], &subs[i])) {
      return Malformed(absl::StrCat("subgraph ", i, " of graph '", root.name, "'"));
    }
  }
  return ReadTree(root, subs, ctx);
}

StatusOr<ModelOpDescs> DecodeModelOpDescs(absl::string_view bytes, DeserializeContext& ctx) {
  ASSIGN_OR_RETURN(const std::vector<GraphView> views, ReadModelViews(bytes, ctx));
  // ReadTree's checks before it reads the root.
  const GraphView& root = views[0];
  if (!root.parent_graph.empty() || !root.parent_node.empty() || !root.registered_name.empty()) {
    return GraphInvalid("root graph '", root.name,
                        "' must not have a parent graph, parent node or registered name");
  }
  absl::flat_hash_set<absl::string_view> names;
  names.reserve(views.size());
  for (size_t i = 1; i < views.size(); ++i) {
    if (!views[i].subgraphs.empty()) {
      return GraphInvalid("subgraph '", views[i].name, "' nests ", views[i].subgraphs.size(),
                          " subgraphs; only the root graph may");
    }
  }
  for (const GraphView& v : views) {
    if (!names.insert(v.name).second) {
      return GraphInvalid("the model has two graphs named '", v.name, "'");
    }
  }
  ModelOpDescs result;
  result.num_graphs = views.size();
  GraphReader reader(root, ctx, &result);
  RETURN_IF_ERROR(reader.Read());
  if (views.size() == 1 && reader.light_subgraph_op() != SIZE_MAX) {
    return NotFound("graph '", root.name, "' node '", result.ops[reader.light_subgraph_op()]->GetName(),
                    "' refers to missing subgraph '", reader.light_subgraph_inst(), "'");
  }
  return result;
}

Status EncodeOpDesc(const OpDesc& op, SerializeContext& ctx, std::string* out) {
  WireWriter w(out);
  return EncodeOp(
      op, ctx, w, [](WireWriter&) { return OkStatus(); },
      [](WireWriter&, size_t, size_t) { return OkStatus(); });
}

StatusOr<OpDescPtr> DecodeOpDesc(absl::string_view bytes, DeserializeContext& ctx) {
  RETURN_IF_ERROR(CheckSize(bytes));
  OpFields fields;
  if (!ReadOpFields(bytes, &fields)) return Malformed("OpDef");
  return BuildOpDesc(fields, ctx);
}

Status EncodeTensorDesc(const GeTensorDesc& desc, SerializeContext& ctx, std::string* out) {
  WireWriter w(out);
  return EncodeDescBody(desc, ctx, w);
}

Status DecodeTensorDesc(absl::string_view bytes, DeserializeContext& ctx, GeTensorDesc* desc) {
  RETURN_IF_ERROR(CheckSize(bytes));
  return DecodeDesc(bytes, ctx, desc);
}

}  // namespace codec

StatusOr<ModelOpDescs> DecodeModelOpDescs(absl::string_view model_def, const DeserializeOptions& options) {
  DeserializeContext ctx;
  ctx.options = options;
  return codec::DecodeModelOpDescs(model_def, ctx);
}

}  // namespace ge
