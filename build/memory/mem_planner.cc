// build/memory/mem_planner.cc
#include "build/memory/mem_planner.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <queue>
#include <set>
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
      return ParamInvalid("node '", op->GetName(), "' has id ", op->GetId(), ", expected its position ", i);
    }
    if (mem[i].outputs.size() > nodes[i]->GetAllOutDataAnchorsSize()) {
      return ParamInvalid("node '", op->GetName(), "' has ", mem[i].outputs.size(),
                          " planned outputs but ", nodes[i]->GetAllOutDataAnchorsSize(), " output anchors");
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

}  // namespace

StatusOr<MemPlanStats> PlanArena(absl::Span<Node* const> nodes, std::vector<NodeMemory>& mem,
                                 const MemPlanOptions& options) {
  RETURN_IF_ERROR(CheckIds(nodes, mem));
  const size_t n = nodes.size();
  MemPlanStats stats;

  std::vector<uint64_t> block_size;                   // aligned
  std::set<std::pair<uint64_t, uint64_t>> free_list;  // (size, block)
  // Frees scheduled by step: a min-heap of (step, block). The release order
  // within a step does not matter (free_list is ordered).
  using Pending = std::pair<uint64_t, uint64_t>;
  std::priority_queue<Pending, std::vector<Pending>, std::greater<Pending>> pending;

  auto alloc = [&](uint64_t size, uint64_t* block) -> Status {
    ASSIGN_OR_RETURN(uint64_t aligned, AlignUp(size, kMemAlign));
    if (aligned == 0) {
      *block = kNoBlock;
      return OkStatus();
    }
    if (stats.no_reuse_size > ~uint64_t{0} - aligned) return Overflow("arena size overflows");
    stats.no_reuse_size += aligned;
    if (!options.disable_reuse) {
      auto it = free_list.lower_bound({aligned, 0});
      if (it != free_list.end()) {
        *block = it->second;
        free_list.erase(it);
        return OkStatus();
      }
    }
    *block = block_size.size();
    block_size.push_back(aligned);
    return OkStatus();
  };
  auto release = [&](uint64_t block) {
    if (block == kNoBlock || options.disable_reuse) return;
    free_list.emplace(block_size[block], block);
  };

  // block id per slot (outputs then workspaces), flattened.
  std::vector<size_t> first_slot(n + 1, 0);
  for (size_t i = 0; i < n; ++i) {
    first_slot[i + 1] = first_slot[i] + mem[i].outputs.size() + mem[i].workspaces.size();
  }
  std::vector<uint64_t> slot_block(first_slot[n], kNoBlock);

  for (size_t i = 0; i < n; ++i) {
    NodeMemory& m = mem[i];
    size_t s = first_slot[i];
    for (uint32_t k = 0; k < m.outputs.size(); ++k, ++s) {
      TensorSlot& slot = m.outputs[k];
      if (slot.kind != proto::MEM_ARENA) continue;
      RETURN_IF_ERROR(alloc(slot.size, &slot_block[s]));
      if (slot_block[s] == kNoBlock || slot.keep_alive) continue;
      pending.emplace(LastUse(nodes, i, k), slot_block[s]);
    }
    const size_t ws_begin = s;
    for (TensorSlot& slot : m.workspaces) {
      slot.kind = proto::MEM_ARENA;
      RETURN_IF_ERROR(alloc(slot.size, &slot_block[s]));
      ++s;
    }
    for (size_t w = ws_begin; w < s; ++w) release(slot_block[w]);
    while (!pending.empty() && pending.top().first <= i) {
      release(pending.top().second);
      pending.pop();
    }
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
  for (size_t i = 0; i < n; ++i) {
    size_t s = first_slot[i];
    for (TensorSlot& slot : mem[i].outputs) {
      if (slot.kind == proto::MEM_ARENA) {
        slot.offset = slot_block[s] == kNoBlock ? 0 : block_offset[slot_block[s]];
      }
      ++s;
    }
    for (TensorSlot& slot : mem[i].workspaces) {
      slot.offset = slot_block[s] == kNoBlock ? 0 : block_offset[slot_block[s]];
      ++s;
    }
  }
  return stats;
}

Status VerifyArenaPlan(absl::Span<Node* const> nodes, const std::vector<NodeMemory>& mem,
                       uint64_t arena_size) {
  RETURN_IF_ERROR(CheckIds(nodes, mem));
  struct Live {
    uint64_t begin, end;  // bytes
    uint64_t first, last; // steps
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
