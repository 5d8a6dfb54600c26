// graph/src/string_interner.cc
#include "graph/src/string_interner.h"

#include <cstring>
#include <string>

#include "absl/container/node_hash_set.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"

namespace ge {
namespace internal {
namespace {

struct Table {
  absl::Mutex mu;
  // node_hash_set: element addresses are stable across rehashing.
  absl::node_hash_set<std::string> strings ABSL_GUARDED_BY(mu);
};

Table& GetTable() {
  static Table* const table = new Table();  // reachable for the whole run
  return *table;
}

}  // namespace

const std::string* InternString(absl::string_view s) {
  // Graphs repeat a handful of types / port / attribute names: a per-thread
  // direct-mapped cache of recent results (indexed by a cheap hash of the
  // length and three characters) avoids the lock and the table's hash most
  // of the time.
  constexpr size_t kCacheSize = 64;
  thread_local const std::string* cache[kCacheSize] = {};
  const size_t n = s.size();
  const size_t slot = n == 0 ? 0
                             : (n * 0x9E3779B1u + static_cast<unsigned char>(s[0]) * 131u +
                                static_cast<unsigned char>(s[n - 1]) * 7u +
                                static_cast<unsigned char>(s[n / 2]) * 17u) %
                                   kCacheSize;
  const std::string* c = cache[slot];
  if (c != nullptr && c->size() == n && std::memcmp(c->data(), s.data(), n) == 0) return c;
  Table& t = GetTable();
  const std::string* result;
  {
    absl::MutexLock lock(&t.mu);
    auto it = t.strings.find(s);
    if (it == t.strings.end()) it = t.strings.emplace(s).first;
    result = &*it;
  }
  cache[slot] = result;
  return result;
}

const std::string* EmptyInternedString() {
  static const std::string* const empty = InternString("");
  return empty;
}

}  // namespace internal
}  // namespace ge
