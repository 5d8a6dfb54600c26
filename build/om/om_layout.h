// build/om/om_layout.h
//
// The OM file's fixed layout as the writer and the reader of //build/om:om_file
// see it (internal: a header in that target's srcs, namespace om_internal):
// the header's field offsets, the partition table's sizes, the limit on
// model attributes, and little-endian loads and stores of the file's
// integers. The layout itself is described in build/om/om_file.h.
//
// Example
//   PutU32(header + kOffMagic, kOmMagic);
//   if (LoadU32(bytes.data() + kOffMagic) != kOmMagic) ... not an OM file ...
#ifndef BUILD_OM_OM_LAYOUT_H_
#define BUILD_OM_OM_LAYOUT_H_

#include <cstddef>
#include <cstdint>

#include "build/om/om_file.h"

namespace ge {
namespace om_internal {

// Header field offsets (bytes).
constexpr size_t kOffMagic = 0;
constexpr size_t kOffHeaderSize = 4;
constexpr size_t kOffVersion = 8;
constexpr size_t kOffChecksum = 12;  // 64 bytes
constexpr size_t kOffTotalLength = 76;
constexpr size_t kOffModelType = 84;
constexpr size_t kOffGenerateMode = 88;
constexpr size_t kOffName = 92;  // 32 bytes
constexpr size_t kNameBytes = 32;
constexpr size_t kOffOpCount = 124;
constexpr size_t kOffModelCount = 128;
constexpr size_t kOffPlatformVersion = 132;  // 20 bytes
constexpr size_t kPlatformVersionBytes = 20;
constexpr size_t kOffPlatformType = 152;
constexpr size_t kOffIsUnknown = 156;
constexpr size_t kOffReserved = 157;
static_assert(kOffReserved < kOmHeaderSize, "header fields exceed the header");
static_assert(kOffName + kNameBytes == kOffOpCount, "header layout");
static_assert(kOffPlatformVersion + kPlatformVersionBytes == kOffPlatformType, "header layout");

constexpr uint32_t kNumRequiredPartitions = 4;
constexpr uint32_t kPartitionEntryBytes = 24;
constexpr uint32_t kAttrsPartition = 4;  // optional 5th partition: model attrs
constexpr uint32_t kMaxAttrs = 1u << 16;

inline uint32_t LoadU32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | static_cast<uint32_t>(p[1]) << 8 |
         static_cast<uint32_t>(p[2]) << 16 | static_cast<uint32_t>(p[3]) << 24;
}
inline uint64_t LoadU64(const uint8_t* p) {
  return static_cast<uint64_t>(LoadU32(p)) | static_cast<uint64_t>(LoadU32(p + 4)) << 32;
}

inline void PutU32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}
inline void PutU64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<uint8_t>(v >> (8 * i));
}

}  // namespace om_internal
}  // namespace ge

#endif  // BUILD_OM_OM_LAYOUT_H_
