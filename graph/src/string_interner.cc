// graph/src/string_interner.cc
#include "graph/src/string_interner.h"

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
  // Graphs repeat a handful of types / attribute names: a small per-thread
  // cache of recent results avoids the lock and the hash most of the time.
  constexpr size_t kCacheSize = 8;
  thread_local const std::string* cache[kCacheSize] = {};
  thread_local size_t next_slot = 0;
  for (const std::string* c : cache) {
    if (c != nullptr && absl::string_view(*c) == s) return c;
  }
  Table& t = GetTable();
  const std::string* result;
  {
    absl::MutexLock lock(&t.mu);
    auto it = t.strings.find(s);
    if (it == t.strings.end()) it = t.strings.emplace(s).first;
    result = &*it;
  }
  cache[next_slot] = result;
  next_slot = (next_slot + 1) % kCacheSize;
  return result;
}

const std::string* EmptyInternedString() {
  static const std::string* const empty = InternString("");
  return empty;
}

}  // namespace internal
}  // namespace ge
