// build/om/om_checksum.h
//
// The reader's side of the OM body checksum (internal to //build/om:om_file,
// namespace om_internal): VerifyChecksum compares the checksum of a file's
// body with the one its header holds. The checksum itself (OmChecksum,
// OmBodyChecksum, OmChecksumChunk) is declared in build/om/om_file.h and
// defined in om_checksum.cc.
//
// Example
//   RETURN_IF_ERROR(VerifyChecksum(bytes));               // hashes the body
//   RETURN_IF_ERROR(VerifyChecksum(bytes, &caller_sum));  // compares only
#ifndef BUILD_OM_OM_CHECKSUM_H_
#define BUILD_OM_OM_CHECKSUM_H_

#include <array>
#include <cstdint>

#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace om_internal {

// The body checksum (computed, or `precomputed` by the caller over these
// bytes) against the header's (bytes has at least the header): ParseFailed
// "checksum mismatch" when they differ.
Status VerifyChecksum(absl::Span<const uint8_t> bytes,
                      const std::array<uint8_t, 32>* precomputed = nullptr);

}  // namespace om_internal
}  // namespace ge

#endif  // BUILD_OM_OM_CHECKSUM_H_
