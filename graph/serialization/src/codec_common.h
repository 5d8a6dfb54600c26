// graph/serialization/src/codec_common.h
//
// Internal: what every part of the graph codec shares: the wire primitives
// (//metadef:wire_format) under short names, the ge_ir.proto message aliases
// whose k...FieldNumber constants name the fields, the "truncated or
// malformed" status, the 2 GiB input check, and AppendBytes (collects the
// views of a repeated length-delimited field).
//
// Example
//   WireReader r(bytes);
//   uint32_t f;
//   WireType t;
//   std::vector<absl::string_view> ops;
//   while (r.Next(&f, &t)) {
//     if (f == PGraph::kOpFieldNumber) { if (!AppendBytes(r, t, &ops)) break; }
//     else if (!r.Skip(t)) break;
//   }
//   if (!r.ok()) return Malformed("GraphDef");
#ifndef GRAPH_SERIALIZATION_SRC_CODEC_COMMON_H_
#define GRAPH_SERIALIZATION_SRC_CODEC_COMMON_H_

#include <climits>
#include <cstddef>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/proto/ge_ir.pb.h"
#include "metadef/inc/base/wire_format.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace codec {

using wire::WireReader;
using wire::WireType;
using wire::WireWriter;

// Field numbers, from the generated classes.
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

inline Status Malformed(absl::string_view what) {
  return ParseFailed("truncated or malformed ", what);
}

// Inputs above protobuf's 2 GiB message limit are refused before decoding.
inline Status CheckSize(absl::string_view bytes) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return OutOfRange("input of ", bytes.size(), " bytes is larger than protobuf's 2 GiB limit");
  }
  return OkStatus();
}

// Appends one length-delimited field (a view into the bytes) to *out.
inline bool AppendBytes(WireReader& r, WireType t, std::vector<absl::string_view>* out) {
  absl::string_view s;
  if (!r.Bytes(t, &s)) return false;
  out->push_back(s);
  return true;
}

}  // namespace codec
}  // namespace ge

#endif  // GRAPH_SERIALIZATION_SRC_CODEC_COMMON_H_
