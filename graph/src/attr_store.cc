// graph/src/attr_store.cc
//
// AttrStore: a sorted array of (name, AttrValue) in one allocation.
#include "graph/inc/graph/attr_store.h"

#include <cstdint>
#include <map>
#include <new>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/pool_allocator.h"
#include "graph/src/string_interner.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace {

// Names are interned: attribute names repeat on every node.
struct Entry {
  const std::string* name;
  AttrValue value;
};

}  // namespace

// Header of the single allocation; the entries follow it.
struct AttrStore::Rep {
  uint32_t size;
  uint32_t cap;

  Entry* entries() { return reinterpret_cast<Entry*>(this + 1); }
  const Entry* entries() const { return reinterpret_cast<const Entry*>(this + 1); }

  static size_t Bytes(uint32_t cap) {
    return sizeof(Rep) + static_cast<size_t>(cap) * sizeof(Entry);
  }

  static Rep* Allocate(uint32_t cap) {
    static_assert(sizeof(Rep) % alignof(Entry) == 0, "entries must be aligned");
    void* mem = internal::PoolAllocate(Bytes(cap));
    return new (mem) Rep{0, cap};
  }

  static void Free(Rep* rep) {
    if (rep == nullptr) return;
    Entry* e = rep->entries();
    for (uint32_t i = 0; i < rep->size; ++i) e[i].~Entry();
    const uint32_t cap = rep->cap;
    rep->~Rep();
    internal::PoolDeallocate(rep, Bytes(cap));
  }
};

AttrStore::AttrStore(const AttrStore& other) {
  if (other.rep_ == nullptr || other.rep_->size == 0) return;
  rep_ = Rep::Allocate(other.rep_->size);
  const Entry* src = other.rep_->entries();
  Entry* dst = rep_->entries();
  for (uint32_t i = 0; i < other.rep_->size; ++i) {
    new (&dst[i]) Entry(src[i]);
    rep_->size = i + 1;
  }
}

AttrStore& AttrStore::operator=(const AttrStore& other) {
  if (this == &other) return *this;
  AttrStore copy(other);
  *this = std::move(copy);
  return *this;
}

AttrStore& AttrStore::operator=(AttrStore&& other) noexcept {
  if (this == &other) return *this;
  Rep::Free(rep_);
  rep_ = other.rep_;
  other.rep_ = nullptr;
  return *this;
}

AttrStore::~AttrStore() { Rep::Free(rep_); }

size_t AttrStore::size() const { return rep_ == nullptr ? 0 : rep_->size; }

size_t AttrStore::LowerBound(absl::string_view name) const {
  if (rep_ == nullptr) return 0;
  const Entry* e = rep_->entries();
  size_t lo = 0;
  size_t hi = rep_->size;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (absl::string_view(*e[mid].name) < name) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

Status AttrStore::Set(absl::string_view name, AttrValue value) {
  if (name.empty()) return ParamInvalid("attribute name must not be empty");
  const size_t pos = LowerBound(name);
  const size_t n = size();
  if (pos < n && *rep_->entries()[pos].name == name) {
    rep_->entries()[pos].value = std::move(value);
    return OkStatus();
  }
  if (rep_ == nullptr || rep_->size == rep_->cap) {
    const uint32_t new_cap = rep_ == nullptr ? 1U : rep_->cap * 2U;
    Rep* grown = Rep::Allocate(new_cap);
    Entry* dst = grown->entries();
    Entry* src = rep_ == nullptr ? nullptr : rep_->entries();
    for (size_t i = 0; i < pos; ++i) new (&dst[i]) Entry(std::move(src[i]));
    new (&dst[pos]) Entry{internal::InternString(name), std::move(value)};
    for (size_t i = pos; i < n; ++i) new (&dst[i + 1]) Entry(std::move(src[i]));
    grown->size = static_cast<uint32_t>(n + 1);
    Rep::Free(rep_);
    rep_ = grown;
    return OkStatus();
  }
  Entry* e = rep_->entries();
  if (pos == n) {
    new (&e[n]) Entry{internal::InternString(name), std::move(value)};
  } else {
    new (&e[n]) Entry(std::move(e[n - 1]));
    for (size_t i = n - 1; i > pos; --i) e[i] = std::move(e[i - 1]);
    e[pos].name = internal::InternString(name);
    e[pos].value = std::move(value);
  }
  rep_->size = static_cast<uint32_t>(n + 1);
  return OkStatus();
}

const AttrValue* AttrStore::Get(absl::string_view name) const {
  const size_t pos = LowerBound(name);
  if (pos < size() && *rep_->entries()[pos].name == name) return &rep_->entries()[pos].value;
  return nullptr;
}

AttrValue* AttrStore::GetMutable(absl::string_view name) {
  return const_cast<AttrValue*>(static_cast<const AttrStore*>(this)->Get(name));
}

Status AttrStore::Delete(absl::string_view name) {
  const size_t pos = LowerBound(name);
  const size_t n = size();
  if (pos >= n || *rep_->entries()[pos].name != name) {
    return NotFound("attribute '", name, "' does not exist");
  }
  if (n == 1) {
    Clear();
    return OkStatus();
  }
  Entry* e = rep_->entries();
  for (size_t i = pos; i + 1 < n; ++i) e[i] = std::move(e[i + 1]);
  e[n - 1].~Entry();
  rep_->size = static_cast<uint32_t>(n - 1);
  return OkStatus();
}

void AttrStore::Clear() {
  Rep::Free(rep_);
  rep_ = nullptr;
}

const std::string& AttrStore::NameAt(size_t i) const { return *rep_->entries()[i].name; }
const AttrValue& AttrStore::ValueAt(size_t i) const { return rep_->entries()[i].value; }
AttrValue& AttrStore::MutableValueAt(size_t i) { return rep_->entries()[i].value; }

std::vector<std::string> AttrStore::GetAllNames() const {
  std::vector<std::string> names;
  names.reserve(size());
  for (size_t i = 0; i < size(); ++i) names.push_back(NameAt(i));
  return names;
}

std::map<std::string, AttrValue> AttrStore::GetAll() const {
  std::map<std::string, AttrValue> all;
  for (size_t i = 0; i < size(); ++i) all.emplace_hint(all.end(), NameAt(i), ValueAt(i));
  return all;
}

bool AttrStore::operator==(const AttrStore& other) const {
  if (size() != other.size()) return false;
  for (size_t i = 0; i < size(); ++i) {
    if (NameAt(i) != other.NameAt(i) || ValueAt(i) != other.ValueAt(i)) return false;
  }
  return true;
}

Status AttrHolder::SetAttr(absl::string_view name, AttrValue value) {
  return attrs_.Set(name, std::move(value));
}

std::map<std::string, AttrValue> AttrHolder::GetAllAttrs() const { return attrs_.GetAll(); }

}  // namespace ge
