// build/memory/mem_planner.cc
#include "build/memory/mem_planner.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "build/model/ge_model.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"

namespace ge {
namespace {

constexpr uint64_t kNoBlock = ~uint64_t{0};

StatusOr<uint64_t> AlignUp(uint64_t v, uint64_t align) {
  if (v > ~uint64_t{0} - (align - 1)) return Overflow("tensor size ", v, " overflows alignment");
  return (v + align - 1) / align * align;
}

Status CheckIds(absl::Span<Node* const> nodes, const std::vector<NodeMemory>& mem) {
  if (mem.size() != nodes.size()) {
    return ParamInvalid("memory plan has ", mem.size(), " entries for ", nodes.size(), " nodes");
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i] == nullptr) return ParamInvalid("node ", i, " is null");
    const OpDesc* op = nodes[i]->GetOpDescBarePtr();
    if (op->GetId() != static_cast<int64_t>(i)) {
      return ParamInvalid("node '", op->GetName(), "' has id ", op->GetId(),
                          ", expected its position ", i);
    }
    if (mem[i].outputs.size() > nodes[i]->GetAllOutDataAnchorsSize()) {
      return ParamInvalid("node '", op->GetName(), "' has ", mem[i].outputs.size(),
                          " planned outputs but ", nodes[i]->GetAllOutDataAnchorsSize(),
                          " output anchors");
    }
  }
  return OkStatus();
}

// Last step at which output `out` of node `i` is read (i when never read).
uint64_t LastUse(absl::Span<Node* const> nodes, size_t i, uint32_t out) {
  uint64_t last = i;
  const OutDataAnchor* anchor = nodes[i]->GetOutDataAnchorBarePtr(static_cast<int32_t>(out));
  if (anchor == nullptr) return last;
  for (const Anchor* peer : anchor->PeerAnchors()) {
    const Node* owner = peer->GetOwnerNodeBarePtr();
    if (owner == nullptr) continue;
    const int64_t id = owner->GetOpDescBarePtr()->GetId();
    if (id < 0 || static_cast<uint64_t>(id) >= nodes.size() || nodes[id] != owner) continue;
    last = std::max<uint64_t>(last, static_cast<uint64_t>(id));
  }
  return last;
}

// Free blocks for best fit. The size classes are the distinct aligned sizes
// of the plan (known before the replay); each class holds a min-heap of free
// block ids, and a two-level bitmap of the non-empty classes finds the
// smallest non-empty class >= a given one in a few word scans. No allocation
// per free / take once the heaps have grown (std::set allocated a node each).
class FreeBlocks {
 public:
  explicit FreeBlocks(size_t num_classes)
      : heaps_(num_classes),
        bits_((num_classes + 63) / 64, 0),
        summary_((bits_.size() + 63) / 64, 0) {}

  void Add(size_t cls, uint64_t block) {
    std::vector<uint64_t>& h = heaps_[cls];
    h.push_back(block);
    std::push_heap(h.begin(), h.end(), std::greater<uint64_t>());
    bits_[cls >> 6] |= uint64_t{1} << (cls & 63);
    summary_[cls >> 12] |= uint64_t{1} << ((cls >> 6) & 63);
  }

  // The smallest free block id of the smallest non-empty class >= cls.
  bool Take(size_t cls, uint64_t* block) {
    size_t c = 0;
    if (!FindFrom(cls, &c)) return false;
    std::vector<uint64_t>& h = heaps_[c];
    std::pop_heap(h.begin(), h.end(), std::greater<uint64_t>());
    *block = h.back();
    h.pop_back();
    if (h.empty()) {
      bits_[c >> 6] &= ~(uint64_t{1} << (c & 63));
      if (bits_[c >> 6] == 0) summary_[c >> 12] &= ~(uint64_t{1} << ((c >> 6) & 63));
    }
    return true;
  }

 private:
  bool FindFrom(size_t cls, size_t* out) const {
    size_t w = cls >> 6;
    if (w >= bits_.size()) return false;
    const uint64_t word = bits_[w] & (~uint64_t{0} << (cls & 63));
    if (word != 0) {
      *out = (w << 6) + static_cast<size_t>(__builtin_ctzll(word));
      return true;
    }
    ++w;  // the first non-empty word after w, through the summary
    size_t s = w >> 6;
    if (s >= summary_.size()) return false;
    uint64_t sword = summary_[s] & (~uint64_t{0} << (w & 63));
    while (sword == 0) {
      if (++s >= summary_.size()) return false;
      sword = summary_[s];
    }
    const size_t wi = (s << 6) + static_cast<size_t>(__builtin_ctzll(sword));
    *out = (wi << 6) + static_cast<size_t>(__builtin_ctzll(bits_[wi]));
    return true;
  }

  std::vector<std::vector<uint64_t>> heaps_;
  std::vector<uint64_t> bits_;     // bit c: class c has a free block
  std::vector<uint64_t> summary_;  // bit w: bits_[w] != 0
};

}  // namespace

StatusOr<MemPlanStats> PlanArenaWithLifetimes(std::vector<NodeMemory>& mem,
                                              const MemPlanOptions& options) {
  const size_t n = mem.size();
  if (n >= (uint64_t{1} << 32)) return OutOfRange("memory plan of ", n, " nodes; at most 2^32 - 1");
  MemPlanStats stats;
  const bool reuse = !options.disable_reuse;

  // Aligned sizes (stored in `offset` until the replay puts a block id
  // there), no-reuse total and, for reuse, the size classes. Slots are
  // visited in replay order, so the first error is the one replay would meet.
  std::vector<uint64_t> classes;
  for (size_t i = 0; i < n; ++i) {
    NodeMemory& m = mem[i];
    for (size_t k = 0; k < m.outputs.size(); ++k) {
      TensorSlot& slot = m.outputs[k];
      if (slot.kind != proto::MEM_ARENA) continue;
      if (!slot.keep_alive && (slot.last_use < i || slot.last_use >= n)) {
        return ParamInvalid("output ", k, " of node ", i, " has last use ", slot.last_use,
                            " outside [", i, ", ", n, ")");
      }
      ASSIGN_OR_RETURN(slot.offset, AlignUp(slot.size, kMemAlign));
      if (stats.no_reuse_size > ~uint64_t{0} - slot.offset) return Overflow("arena size overflows");
      stats.no_reuse_size += slot.offset;
      if (reuse && slot.offset != 0 && (classes.empty() || classes.back() != slot.offset)) {
        classes.push_back(slot.offset);  // runs of one size (the common case) push once
      }
    }
    for (TensorSlot& slot : m.workspaces) {
      slot.kind = proto::MEM_ARENA;
      ASSIGN_OR_RETURN(slot.offset, AlignUp(slot.size, kMemAlign));
      if (stats.no_reuse_size > ~uint64_t{0} - slot.offset) return Overflow("arena size overflows");
      stats.no_reuse_size += slot.offset;
      if (reuse && slot.offset != 0 && (classes.empty() || classes.back() != slot.offset)) {
        classes.push_back(slot.offset);
      }
    }
  }
  std::sort(classes.begin(), classes.end());
  classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  auto class_of = [&](uint64_t aligned) {
    return static_cast<size_t>(std::lower_bound(classes.begin(), classes.end(), aligned) -
                               classes.begin());
  };

  std::vector<uint64_t> block_size;   // aligned
  std::vector<uint32_t> block_class;  // reuse only
  FreeBlocks free_blocks(classes.size());
  // Frees by step: pending_head[step] starts a list through pending_next
  // (indexed by block: a block is pending at most once at a time). The order
  // of the frees within a step does not matter (best fit is by size, id).
  std::vector<uint64_t> pending_head(reuse ? n : 0, kNoBlock);
  std::vector<uint64_t> pending_next;

  // aligned -> block id (kNoBlock for 0 bytes).
  auto alloc = [&](uint64_t aligned) -> uint64_t {
    if (aligned == 0) return kNoBlock;
    uint64_t block = 0;
    if (reuse) {
      const size_t cls = class_of(aligned);
      if (free_blocks.Take(cls, &block)) return block;
      block_class.push_back(static_cast<uint32_t>(cls));
      pending_next.push_back(kNoBlock);
    }
    block = block_size.size();
    block_size.push_back(aligned);
    return block;
  };
  auto release = [&](uint64_t block) {
    if (block != kNoBlock) free_blocks.Add(block_class[block], block);
  };

  for (size_t i = 0; i < n; ++i) {
    NodeMemory& m = mem[i];
    for (TensorSlot& slot : m.outputs) {
      if (slot.kind != proto::MEM_ARENA) continue;
      const uint64_t block = alloc(slot.offset);
      slot.offset = block;
      if (!reuse || block == kNoBlock || slot.keep_alive) continue;
      pending_next[block] = pending_head[slot.last_use];
      pending_head[slot.last_use] = block;
    }
    for (TensorSlot& slot : m.workspaces) slot.offset = alloc(slot.offset);
    if (!reuse) continue;
    for (const TensorSlot& slot : m.workspaces) release(slot.offset);
    for (uint64_t b = pending_head[i]; b != kNoBlock; b = pending_next[b]) release(b);
  }

  std::vector<uint64_t> block_offset(block_size.size());
  uint64_t offset = 0;
  for (size_t b = 0; b < block_size.size(); ++b) {
    block_offset[b] = offset;
    if (offset > ~uint64_t{0} - block_size[b]) return Overflow("arena size overflows");
    offset += block_size[b];
  }
  stats.arena_size = offset;
  stats.num_blocks = block_size.size();
  auto place = [&](TensorSlot& slot) {
    slot.offset = slot.offset == kNoBlock ? 0 : block_offset[slot.offset];
  };
  for (NodeMemory& m : mem) {
    for (TensorSlot& slot : m.outputs) {
      if (slot.kind == proto::MEM_ARENA) place(slot);
    }
    for (TensorSlot& slot : m.workspaces) place(slot);
  }
  return stats;
}

StatusOr<MemPlanStats> PlanArena(absl::Span<Node* const> nodes, std::vector<NodeMemory>& mem,
                                 const MemPlanOptions& options) {
  RETURN_IF_ERROR(CheckIds(nodes, mem));
  if (nodes.size() >= (uint64_t{1} << 32)) {
    return OutOfRange("memory plan of ", nodes.size(), " nodes; at most 2^32 - 1");
  }
  for (size_t i = 0; i < nodes.size(); ++i) {
    std::vector<TensorSlot>& outputs = mem[i].outputs;
    for (uint32_t k = 0; k < outputs.size(); ++k) {
      if (outputs[k].kind == proto::MEM_ARENA) {
        outputs[k].last_use = static_cast<uint32_t>(LastUse(nodes, i, k));
      }
    }
  }
  return PlanArenaWithLifetimes(mem, options);
}

Status VerifyArenaPlan(absl::Span<Node* const> nodes, const std::vector<NodeMemory>& mem,
                       uint64_t arena_size) {
  RETURN_IF_ERROR(CheckIds(nodes, mem));
  struct Live {
    uint64_t begin, end;   // bytes
    uint64_t first, last;  // steps
    size_t node;
    bool workspace;
    size_t index;
  };
  std::vector<Live> tensors;
  for (size_t i = 0; i < nodes.size(); ++i) {
    for (size_t k = 0; k < mem[i].outputs.size(); ++k) {
      const TensorSlot& slot = mem[i].outputs[k];
      if (slot.kind != proto::MEM_ARENA || slot.size == 0) continue;
      uint64_t last = slot.keep_alive ? nodes.size() : LastUse(nodes, i, static_cast<uint32_t>(k));
      tensors.push_back({slot.offset, slot.offset + slot.size, i, last, i, false, k});
    }
    for (size_t k = 0; k < mem[i].workspaces.size(); ++k) {
      const TensorSlot& slot = mem[i].workspaces[k];
      if (slot.size == 0) continue;
      tensors.push_back({slot.offset, slot.offset + slot.size, i, i, i, true, k});
    }
  }
  auto describe = [&](const Live& t) {
    return absl::StrCat(t.workspace ? "workspace " : "output ", t.index, " of '",
                        nodes[t.node]->GetName(), "' [", t.begin, ", ", t.end, ")");
  };
  for (const Live& t : tensors) {
    if (t.begin % kMemAlign != 0) return Internal(describe(t), " is not aligned to ", kMemAlign);
    if (t.end < t.begin || t.end > arena_size) {
      return Internal(describe(t), " exceeds the arena of ", arena_size, " bytes");
    }
  }
  // Sweep over steps: live tensors keyed by begin offset.
  std::vector<size_t> by_first(tensors.size()), by_last(tensors.size());
  for (size_t t = 0; t < tensors.size(); ++t) by_first[t] = by_last[t] = t;
  std::stable_sort(by_first.begin(), by_first.end(),
                   [&](size_t a, size_t b) { return tensors[a].first < tensors[b].first; });
  std::stable_sort(by_last.begin(), by_last.end(),
                   [&](size_t a, size_t b) { return tensors[a].last < tensors[b].last; });
  std::multimap<uint64_t, size_t> live;  // begin -> tensor
  size_t fi = 0, li = 0;
  while (fi < by_first.size()) {
    const uint64_t step = tensors[by_first[fi]].first;
    for (; li < by_last.size() && tensors[by_last[li]].last < step; ++li) {
      const Live& dead = tensors[by_last[li]];
      auto range = live.equal_range(dead.begin);
      for (auto it = range.first; it != range.second; ++it) {
        if (it->second == by_last[li]) {
          live.erase(it);
          break;
        }
      }
    }
    for (; fi < by_first.size() && tensors[by_first[fi]].first == step; ++fi) {
      const Live& t = tensors[by_first[fi]];
      auto it = live.lower_bound(t.begin);
      if (it != live.end() && tensors[it->second].begin < t.end) {
        return Internal(describe(t), " overlaps live ", describe(tensors[it->second]));
      }
      if (it != live.begin()) {
        --it;
        if (tensors[it->second].end > t.begin) {
          return Internal(describe(t), " overlaps live ", describe(tensors[it->second]));
        }
      }
      live.emplace(t.begin, by_first[fi]);
    }
  }
  return OkStatus();
}

}  // namespace ge
