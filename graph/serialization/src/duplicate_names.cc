// graph/serialization/src/duplicate_names.cc
#include "graph/serialization/src/duplicate_names.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

namespace ge {
namespace codec {

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
}  // namespace codec
}  // namespace ge
