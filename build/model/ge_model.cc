// build/model/ge_model.cc
#include "build/model/ge_model.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace ge {
namespace {

// The last piece whose offset is <= `offset`, or nullptr.
const WeightPiece* PieceAt(const std::vector<WeightPiece>& pieces, uint64_t offset) {
  auto it = std::upper_bound(pieces.begin(), pieces.end(), offset,
                             [](uint64_t o, const WeightPiece& p) { return o < p.offset; });
  if (it == pieces.begin()) return nullptr;
  return &*(it - 1);
}

}  // namespace

const uint8_t* WeightBuffer::Find(uint64_t offset, uint64_t len) const {
  if (offset > size || len > size - offset) return nullptr;
  if (data != nullptr) return data + offset;
  const WeightPiece* p = PieceAt(pieces, offset);
  if (p == nullptr || p->data == nullptr) return nullptr;
  const uint64_t in = offset - p->offset;
  if (in > p->size || len > p->size - in || (len == 0 && in == p->size)) return nullptr;
  if (p->buffer != nullptr && p->buffer->size() >= p->size) return p->buffer->data() + in;
  return p->data + in;
}

std::shared_ptr<const void> WeightBuffer::OwnerAt(uint64_t offset) const {
  if (data != nullptr) return owner;
  const WeightPiece* p = PieceAt(pieces, offset);
  return p == nullptr ? nullptr : p->owner;
}

WeightBuffer MakeContiguousWeights(const WeightBuffer& weights) {
  if (weights.is_contiguous()) return weights;
  const size_t rounded =
      static_cast<size_t>((weights.size + kWeightAlign - 1) / kWeightAlign * kWeightAlign);
  void* mem = std::aligned_alloc(kWeightAlign, rounded);
  if (mem == nullptr) return WeightBuffer{};  // size 0 / null: callers report it
  uint8_t* dst = static_cast<uint8_t*>(mem);
  std::memset(dst, 0, rounded);
  for (const WeightPiece& p : weights.pieces) {
    if (p.size == 0 || p.data == nullptr) continue;
    if (p.offset > weights.size || p.size > weights.size - p.offset) continue;
    std::memcpy(dst + p.offset, p.data, static_cast<size_t>(p.size));
  }
  WeightBuffer out;
  out.owner =
      std::shared_ptr<const void>(dst, [](const void* q) { std::free(const_cast<void*>(q)); });
  out.data = dst;
  out.size = weights.size;
  return out;
}

}  // namespace ge
