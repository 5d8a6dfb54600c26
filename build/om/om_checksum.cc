// build/om/om_checksum.cc
#include "build/om/om_checksum.h"

#include <openssl/evp.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "build/om/om_file.h"
#include "build/om/om_layout.h"
#include "xxhash.h"

namespace ge {
namespace {

// The canonical (big-endian) bytes of an XXH3-128 digest.
std::array<uint8_t, 16> Canonical16(XXH128_hash_t h) {
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, h);
  std::array<uint8_t, 16> out{};
  static_assert(sizeof(c.digest) == 16, "XXH3-128 digest");
  std::memcpy(out.data(), c.digest, sizeof(c.digest));
  return out;
}

}  // namespace

OmChecksumChunk::OmChecksumChunk() : state_(XXH3_createState()) {
  XXH3_128bits_reset(static_cast<XXH3_state_t*>(state_));
}

OmChecksumChunk::~OmChecksumChunk() { XXH3_freeState(static_cast<XXH3_state_t*>(state_)); }

void OmChecksumChunk::Update(absl::Span<const uint8_t> piece) {
  if (!piece.empty()) {
    XXH3_128bits_update(static_cast<XXH3_state_t*>(state_), piece.data(), piece.size());
  }
}

std::array<uint8_t, 16> OmChecksumChunk::Digest() const {
  return Canonical16(XXH3_128bits_digest(static_cast<XXH3_state_t*>(state_)));
}

std::array<uint8_t, 32> OmChecksumFromChunks(absl::Span<const std::array<uint8_t, 16>> digests) {
  const XXH128_hash_t h =
      XXH3_128bits(digests.empty() ? nullptr : digests.data()->data(), digests.size() * 16);
  std::array<uint8_t, 32> out{};
  const std::array<uint8_t, 16> c = Canonical16(h);
  std::memcpy(out.data(), c.data(), c.size());
  return out;
}

std::array<uint8_t, 32> OmChecksum(absl::Span<const uint8_t> bytes) {
  // Chunks hashed in one pass each (no streaming state for a whole chunk).
  std::vector<std::array<uint8_t, 16>> digests;
  digests.reserve(static_cast<size_t>(bytes.size() / kOmChecksumChunkBytes + 1));
  for (uint64_t at = 0; at < bytes.size(); at += kOmChecksumChunkBytes) {
    const size_t n =
        static_cast<size_t>(std::min<uint64_t>(kOmChecksumChunkBytes, bytes.size() - at));
    digests.push_back(Canonical16(XXH3_128bits(bytes.data() + at, n)));
  }
  return OmChecksumFromChunks(digests);
}

OmBodyChecksum::OmBodyChecksum() = default;
OmBodyChecksum::~OmBodyChecksum() = default;

void OmBodyChecksum::UpdateFile(absl::Span<const uint8_t> chunk) {
  if (pos_ < kOmHeaderSize) {
    const uint64_t skip = std::min<uint64_t>(kOmHeaderSize - pos_, chunk.size());
    pos_ += skip;
    chunk.remove_prefix(static_cast<size_t>(skip));
  }
  pos_ += chunk.size();
  UpdateBody(chunk);
}

void OmBodyChecksum::UpdateBody(absl::Span<const uint8_t> chunk) {
  while (!chunk.empty()) {
    const size_t n =
        static_cast<size_t>(std::min<uint64_t>(chunk.size(), kOmChecksumChunkBytes - in_chunk_));
    chunk_.Update(chunk.subspan(0, n));
    chunk.remove_prefix(n);
    in_chunk_ += n;
    if (in_chunk_ == kOmChecksumChunkBytes) {
      digests_.push_back(chunk_.Digest());
      chunk_.~OmChecksumChunk();
      new (&chunk_) OmChecksumChunk();
      in_chunk_ = 0;
    }
  }
}

std::array<uint8_t, 32> OmBodyChecksum::Digest() const {
  if (in_chunk_ == 0) return OmChecksumFromChunks(digests_);
  std::vector<std::array<uint8_t, 16>> all = digests_;
  all.push_back(chunk_.Digest());
  return OmChecksumFromChunks(all);
}

std::array<uint8_t, 32> Sha256(absl::Span<const uint8_t> bytes) {
  std::array<uint8_t, 32> md{};
  unsigned int len = 0;
  static const uint8_t kEmpty = 0;
  EVP_Digest(bytes.empty() ? &kEmpty : bytes.data(), bytes.size(), md.data(), &len, EVP_sha256(),
             nullptr);
  return md;
}

namespace om_internal {

// The body checksum (computed, or `precomputed` by the caller over these
// bytes) against the header's (bytes has at least the header).
Status VerifyChecksum(absl::Span<const uint8_t> bytes, const std::array<uint8_t, 32>* precomputed) {
  const std::array<uint8_t, 32> sum =
      precomputed != nullptr ? *precomputed : OmChecksum(bytes.subspan(kOmHeaderSize));
  if (std::memcmp(sum.data(), bytes.data() + kOffChecksum, kOmChecksumBytes) != 0) {
    return ParseFailed("OM file: XXH3-128 checksum mismatch (file corrupted)");
  }
  return OkStatus();
}

}  // namespace om_internal

Status VerifyOmBodyChecksum(absl::Span<const uint8_t> bytes,
                            const std::array<uint8_t, 32>& body_sum) {
  return bytes.size() < kOmHeaderSize ? OkStatus() : om_internal::VerifyChecksum(bytes, &body_sum);
}

}  // namespace ge
