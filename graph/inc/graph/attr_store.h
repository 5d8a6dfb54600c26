// graph/inc/graph/attr_store.h
//
// AttrStore: the attribute map of a ComputeGraph, an OpDesc, a GeTensorDesc or
// a NamedAttrs: name -> AttrValue, kept sorted by name so that iteration (and
// hence serialization and dumps) is deterministic.
// AttrHolder: the mixin that gives an object an AttrStore and the untyped
// accessors; typed access is AttrUtils (attr_utils.h).
//
// Contract
//   * Iteration order is ascending byte order of the names.
//   * An empty store costs one pointer and allocates nothing; a non-empty one
//     is a single allocation (entries contiguous, binary search on lookup).
//   * Copying a store copies every value (AttrValue has value semantics; a
//     graph-valued attribute copies the ComputeGraphPtr, not the graph).
//   * Names may be any non-empty string; an empty name is ParamInvalid.
//
// Example
//   AttrStore store;
//   RETURN_IF_ERROR(store.Set("b", AttrValue::CreateFrom<int64_t>(1)));
//   RETURN_IF_ERROR(store.Set("a", AttrValue::CreateFrom<std::string>("x")));
//   store.NameAt(0) == "a";   // sorted
#ifndef GRAPH_INC_GRAPH_ATTR_STORE_H_
#define GRAPH_INC_GRAPH_ATTR_STORE_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class AttrStore {
 public:
  AttrStore() = default;
  AttrStore(const AttrStore& other);
  AttrStore(AttrStore&& other) noexcept : rep_(other.rep_) { other.rep_ = nullptr; }
  AttrStore& operator=(const AttrStore& other);
  AttrStore& operator=(AttrStore&& other) noexcept;
  ~AttrStore();

  size_t size() const;
  bool empty() const { return size() == 0; }

  // Inserts or replaces. ParamInvalid for an empty name.
  Status Set(absl::string_view name, AttrValue value);
  // nullptr when absent.
  const AttrValue* Get(absl::string_view name) const;
  AttrValue* GetMutable(absl::string_view name);
  bool Has(absl::string_view name) const { return Get(name) != nullptr; }
  // NotFound when absent (the message names the attribute).
  Status Delete(absl::string_view name);
  void Clear();

  // Sorted access: i in [0, size()).
  const std::string& NameAt(size_t i) const;
  const AttrValue& ValueAt(size_t i) const;
  AttrValue& MutableValueAt(size_t i);

  std::vector<std::string> GetAllNames() const;
  std::map<std::string, AttrValue> GetAll() const;

  bool operator==(const AttrStore& other) const;
  bool operator!=(const AttrStore& other) const { return !(*this == other); }

 private:
  struct Rep;
  // Index of the first entry whose name is >= name.
  size_t LowerBound(absl::string_view name) const;
  Rep* rep_ = nullptr;
};

// Mixin giving an object an attribute store. Not polymorphic; the protected
// destructor prevents deleting through it.
class AttrHolder {
 public:
  Status SetAttr(absl::string_view name, AttrValue value);
  // nullptr when absent.
  const AttrValue* GetAttr(absl::string_view name) const { return attrs_.Get(name); }
  bool HasAttr(absl::string_view name) const { return attrs_.Has(name); }
  Status DelAttr(absl::string_view name) { return attrs_.Delete(name); }
  std::map<std::string, AttrValue> GetAllAttrs() const;
  std::vector<std::string> GetAllAttrNames() const { return attrs_.GetAllNames(); }

  const AttrStore& GetAttrStore() const { return attrs_; }
  AttrStore& MutableAttrStore() { return attrs_; }

 protected:
  AttrHolder() = default;
  AttrHolder(const AttrHolder&) = default;
  AttrHolder(AttrHolder&&) noexcept = default;
  AttrHolder& operator=(const AttrHolder&) = default;
  AttrHolder& operator=(AttrHolder&&) noexcept = default;
  ~AttrHolder() = default;

 private:
  AttrStore attrs_;
};

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_ATTR_STORE_H_
