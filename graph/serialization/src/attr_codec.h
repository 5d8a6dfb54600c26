// graph/serialization/src/attr_codec.h
//
// Internal: attribute stores <-> repeated AttrEntry fields (key, AttrDef
// value). Values go through AttrSerializerRegistry (generated AttrDef
// objects), except int / float / bool / string values whose registered
// serializer is the built-in one: those are written and read inline, with
// the same bytes. Both directions count nesting depth in the context.
//
// Example
//   RETURN_IF_ERROR(EncodeAttrs(op.GetAttrStore(), POp::kAttrFieldNumber, ctx, w));
//   ...
//   RETURN_IF_ERROR(DecodeAttrs(entry_views, dctx, &op->MutableAttrStore()));
#ifndef GRAPH_SERIALIZATION_SRC_ATTR_CODEC_H_
#define GRAPH_SERIALIZATION_SRC_ATTR_CODEC_H_

#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/attr_store.h"
#include "graph/serialization/inc/serialize_context.h"
#include "graph/serialization/src/codec_common.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace codec {

// Writes every attribute of `store` as one `field` entry, in the store's
// (name) order.
Status EncodeAttrs(const AttrStore& store, uint32_t field, SerializeContext& ctx, WireWriter& w);

// Attribute entries (any order, the last of a repeated key wins) into a store.
Status DecodeAttrs(const std::vector<absl::string_view>& entries, DeserializeContext& ctx,
                   AttrStore* store);

}  // namespace codec
}  // namespace ge

#endif  // GRAPH_SERIALIZATION_SRC_ATTR_CODEC_H_
