// graph/serialization/src/duplicate_names.h
//
// Internal: the duplicate-name check of the graph writer and reader. Names
// are hashed once (NameHash); FindDuplicateName sorts the hashes (radix sort
// for large inputs, SortKeys) and compares names only where hashes repeat,
// so the first pair of equal names is found without a hash set of strings.
//
// Example
//   std::vector<uint64_t> hashes;
//   for (const Node* n : nodes) hashes.push_back(NameHash(n->GetName()));
//   auto [i, j] = FindDuplicateName(hashes, [&](size_t k) -> absl::string_view {
//     return nodes[k]->GetName();
//   });
//   if (j != nodes.size()) ... nodes i and j share a name ...
#ifndef GRAPH_SERIALIZATION_SRC_DUPLICATE_NAMES_H_
#define GRAPH_SERIALIZATION_SRC_DUPLICATE_NAMES_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/hash/hash.h"
#include "absl/strings/string_view.h"

namespace ge {
namespace codec {

// Sorts 64-bit keys: LSD radix sort (16-bit digits) for large inputs, whose
// sequential passes beat hash-table inserts once the table leaves the cache.
void SortKeys(std::vector<uint64_t>* keys);

inline uint64_t NameHash(absl::string_view name) { return absl::HashOf(name); }

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

}  // namespace codec
}  // namespace ge

#endif  // GRAPH_SERIALIZATION_SRC_DUPLICATE_NAMES_H_
