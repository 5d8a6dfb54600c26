// graph/serialization/src/tensor_desc_codec.h
//
// Internal: GeTensorDesc <-> TensorDescriptor fields (name, dtype, format,
// shape, origin dtype / format / shape only when they differ, shape ranges,
// size / offset / reuse fields, attributes). DecodeDesc checks what it
// reads (dims, ranges, dtypes, formats) against the context's options.
// DescCache keeps recently decoded short descs of one graph by their bytes.
//
// Example
//   const size_t m = w.BeginMessage(POp::kInputDescFieldNumber);
//   RETURN_IF_ERROR(EncodeDescBody(desc, ctx, w));
//   w.EndMessage(m);
//   ...
//   DescCache cache;
//   GeTensorDesc scratch;
//   ASSIGN_OR_RETURN(const GeTensorDesc* d, cache.Get(desc_bytes, dctx, &scratch));
#ifndef GRAPH_SERIALIZATION_SRC_TENSOR_DESC_CODEC_H_
#define GRAPH_SERIALIZATION_SRC_TENSOR_DESC_CODEC_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/serialization/inc/serialize_context.h"
#include "graph/serialization/src/codec_common.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace codec {

// Writes the fields of a TensorDescriptor body (the caller opens and closes
// the message).
Status EncodeDescBody(const GeTensorDesc& desc, SerializeContext& ctx, WireWriter& w);

// Reads one TensorDescriptor body into *desc, checking its values.
Status DecodeDesc(absl::string_view bytes, DeserializeContext& ctx, GeTensorDesc* desc);

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

}  // namespace codec
}  // namespace ge

#endif  // GRAPH_SERIALIZATION_SRC_TENSOR_DESC_CODEC_H_
