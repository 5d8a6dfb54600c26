// runtime/executor/infer_verdict_cache.h
//
// InferVerdictCache: the static executor's load-time memo of verify / infer
// data type / infer shape verdicts (internal: a header in
// //runtime/executor:static_executor's srcs, namespace
// static_executor_internal). A repeated op with equal inputs is checked
// once: Hash and Find key an entry by everything the op functions read
// (see the class comment); Add records a success.
//
// Example
//   const uint64_t h = InferVerdictCache::Hash(reg, ir, shapes, dtypes, weights, out_dtypes, n);
//   int32_t e = cache.Find(h, reg, attrs, ir, shapes, dtypes, weights, out_dtypes);
//   if (e < 0) { ... run the op functions ...; cache.Add(h, std::move(entry)); }
//   const InferVerdictCache::Entry& verdict = cache.at(e);
#ifndef RUNTIME_EXECUTOR_INFER_VERDICT_CACHE_H_
#define RUNTIME_EXECUTOR_INFER_VERDICT_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/types/span.h"
#include "graph/inc/graph/attr_store.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"

namespace ge {
namespace static_executor_internal {

// The verdict of verify / infer data type / infer shape for one context.
// Caching is exact: an entry is reused only for a context with the same
// registration (hence the same functions), IR mapping, input shapes and data
// types, the same initial output data types and an equal attribute store,
// and when the functions read input values (InputValuesRead), the same
// values: weight inputs at the same location in the read-only weights. The registered op functions
// are pure functions of those (they read nothing else of the context but the node name / type,
// which only enter error messages, and only successes are cached), so the
// reused outputs are exactly what the functions would compute again.
class InferVerdictCache {
 public:
  // A weight input's bytes: [offset, offset + size) of the weights, which
  // are read-only, so equal locations hold equal values. kNoWeight for an
  // input whose value is unknown at load.
  struct WeightLoc {
    uint64_t offset = ~uint64_t{0};
    uint64_t size = 0;
    bool operator==(const WeightLoc& o) const { return offset == o.offset && size == o.size; }
  };

  struct Entry {
    const OpRegistrationData* reg = nullptr;
    const AttrStore* attrs = nullptr;  // of the first op (live for the load)
    std::vector<gert::IrInstance> ir;
    std::vector<gert::Shape> in_shapes;  // default (scalar) where absent
    std::vector<uint8_t> in_present;
    std::vector<DataType> in_dtypes;
    std::vector<WeightLoc> in_weights;  // per slot: where its value lies in the weights
    std::vector<DataType> out_dtypes_initial;
    // The result.
    std::vector<gert::Shape> out_shapes;
    std::vector<DataType> out_dtypes;
    int32_t next = -1;  // hash chain
  };

  static uint64_t Hash(const OpRegistrationData* reg, absl::Span<const gert::IrInstance> ir,
                       absl::Span<const gert::Shape* const> in_shapes,
                       absl::Span<const DataType> in_dtypes, absl::Span<const WeightLoc> in_weights,
                       absl::Span<const DataType> out_dtypes, size_t n_attrs) {
    uint64_t h = reinterpret_cast<uintptr_t>(reg) * 0x9E3779B97F4A7C15ull;
    auto mix = [&h](uint64_t v) { h = (h ^ v) * 0x100000001B3ull + (h >> 29); };
    mix(ir.size());
    for (const gert::IrInstance& i : ir) {
      mix(i.start);
      mix(i.count);
    }
    mix(in_shapes.size());
    for (size_t s = 0; s < in_shapes.size(); ++s) {
      mix(static_cast<uint64_t>(in_dtypes[s]));
      mix(in_weights[s].offset);
      mix(in_weights[s].size);
      if (in_shapes[s] == nullptr) {
        mix(0xABCDull);
        continue;
      }
      mix(in_shapes[s]->GetDimNum());
      for (int64_t d : in_shapes[s]->GetDims()) mix(static_cast<uint64_t>(d));
    }
    mix(out_dtypes.size());
    for (DataType d : out_dtypes) mix(static_cast<uint64_t>(d));
    mix(n_attrs);
    return h;
  }

  // The index of the cached entry equal to the context, or -1.
  int32_t Find(uint64_t hash, const OpRegistrationData* reg, const AttrStore& attrs,
               absl::Span<const gert::IrInstance> ir,
               absl::Span<const gert::Shape* const> in_shapes, absl::Span<const DataType> in_dtypes,
               absl::Span<const WeightLoc> in_weights,
               absl::Span<const DataType> out_dtypes) const {
    auto it = heads_.find(hash);
    if (it == heads_.end()) return -1;
    for (int32_t e = it->second; e >= 0; e = entries_[static_cast<size_t>(e)].next) {
      const Entry& c = entries_[static_cast<size_t>(e)];
      if (c.reg != reg || c.ir.size() != ir.size() || c.in_shapes.size() != in_shapes.size() ||
          c.out_dtypes_initial.size() != out_dtypes.size()) {
        continue;
      }
      bool same = true;
      for (size_t k = 0; k < ir.size() && same; ++k) {
        same = c.ir[k].start == ir[k].start && c.ir[k].count == ir[k].count;
      }
      for (size_t s = 0; s < in_shapes.size() && same; ++s) {
        const bool present = in_shapes[s] != nullptr;
        same = (c.in_present[s] != 0) == present && c.in_dtypes[s] == in_dtypes[s] &&
               c.in_weights[s] == in_weights[s] && (!present || c.in_shapes[s] == *in_shapes[s]);
      }
      for (size_t i = 0; i < out_dtypes.size() && same; ++i) {
        same = c.out_dtypes_initial[i] == out_dtypes[i];
      }
      if (same && (c.attrs == &attrs || *c.attrs == attrs)) return e;
    }
    return -1;
  }
  const Entry& at(int32_t index) const { return entries_[static_cast<size_t>(index)]; }

  void Add(uint64_t hash, Entry entry) {
    auto [it, inserted] = heads_.try_emplace(hash, static_cast<int32_t>(entries_.size()));
    if (!inserted) {
      entry.next = it->second;
      it->second = static_cast<int32_t>(entries_.size());
    }
    entries_.push_back(std::move(entry));
  }
  size_t size() const { return entries_.size(); }

 private:
  absl::flat_hash_map<uint64_t, int32_t> heads_;
  std::vector<Entry> entries_;
};

// Entries beyond which the verdict cache stops growing (a model of all
// distinct ops gains nothing from it).
constexpr size_t kMaxVerdictEntries = 1 << 16;

}  // namespace static_executor_internal
}  // namespace ge

#endif  // RUNTIME_EXECUTOR_INFER_VERDICT_CACHE_H_
