// build/memory/mem_planner.h
//
// Memory planning for a static model (seed 002 §5.4, GE's BlockMemAssigner in
// its simplest correct form): every node output / workspace that lives in the
// model's ARENA gets an offset aligned to kMemAlign. Other tensors (model
// inputs, weights, model outputs) are bound by the caller before planning and
// passed through untouched.
//
// Algorithm: tensors are replayed in topological order. A node's outputs and
// workspaces are allocated when the node runs; its workspaces are freed right
// after it, an output is freed after its last consumer (or right after the node
// when it has no consumer), unless `keep_alive` (e.g. read by a MEMCPY to a
// model output at the end). Allocation is best fit over the free blocks (the
// smallest free block that is large enough, ties broken by block id); a block
// keeps the size it was created with. With `disable_reuse` every tensor gets its
// own block. Block offsets are the prefix sums of the aligned block sizes.
// Cost: O(T log F) for T tensors and F free blocks; frees are bucketed by step
// (no heap), the free list is a map of per-size min-heaps of block ids.
//
// Two entry points: PlanArena reads the lifetimes from the graph (one walk of
// every output's consumers); PlanArenaWithLifetimes takes them from
// TensorSlot::last_use (the model builder finds them while it scans the graph
// anyway) and never touches the graph.
//
// Contract
//   * nodes[i]->GetOpDesc()->GetId() == i (the model builder numbers them);
//     ParamInvalid otherwise. Consumers outside `nodes` are ignored.
//   * Two ARENA tensors whose lifetimes overlap never overlap in memory
//     (VerifyArenaPlan checks this; tests run it).
//   * Deterministic: no unordered iteration reaches the result.
//
// Example
//   std::vector<NodeMemory> mem(nodes.size());
//   ... fill mem[i].outputs[k].size / kind, mem[i].workspaces ...
//   ASSIGN_OR_RETURN(uint64_t arena, PlanArena(nodes, mem, MemPlanOptions{}));
#ifndef BUILD_MEMORY_MEM_PLANNER_H_
#define BUILD_MEMORY_MEM_PLANNER_H_

#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "build/proto/model_task.pb.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// Where one tensor lives (a TensorRef without dtype / dims).
struct TensorSlot {
  proto::MemKind kind = proto::MEM_ARENA;
  uint32_t index = 0;       // model input / output index
  uint64_t offset = 0;      // filled by PlanArena for MEM_ARENA
  uint64_t size = 0;        // exact bytes
  bool keep_alive = false;  // ARENA tensor never freed (read at the end)
  // ARENA outputs: position of the last node reading the tensor (the
  // producer's own position when nothing reads it). Input of
  // PlanArenaWithLifetimes; PlanArena fills it from the graph.
  uint32_t last_use = 0;
};

struct NodeMemory {
  std::vector<TensorSlot> outputs;     // one per output anchor
  std::vector<TensorSlot> workspaces;  // ARENA
};

struct MemPlanOptions {
  bool disable_reuse = false;
};

struct MemPlanStats {
  uint64_t arena_size = 0;     // bytes (multiple of kMemAlign)
  uint64_t no_reuse_size = 0;  // what the plan would need without reuse
  uint64_t num_blocks = 0;
};

// Assigns offsets to every MEM_ARENA slot of `mem` (parallel to `nodes`);
// sets the last_use of every ARENA output from the graph.
StatusOr<MemPlanStats> PlanArena(absl::Span<Node* const> nodes, std::vector<NodeMemory>& mem,
                                 const MemPlanOptions& options);

// Same plan from the lifetimes in `mem` alone: every MEM_ARENA output of
// mem[i] has i <= last_use < mem.size() (ParamInvalid naming the node index
// and output otherwise). mem.size() < 2^32.
StatusOr<MemPlanStats> PlanArenaWithLifetimes(std::vector<NodeMemory>& mem,
                                              const MemPlanOptions& options);

// Checks a plan: every ARENA offset aligned, inside [0, arena_size), and no two
// simultaneously live ARENA tensors overlapping (same lifetime rules as
// PlanArena). Internal naming the two tensors otherwise.
Status VerifyArenaPlan(absl::Span<Node* const> nodes, const std::vector<NodeMemory>& mem,
                       uint64_t arena_size);

}  // namespace ge

#endif  // BUILD_MEMORY_MEM_PLANNER_H_
