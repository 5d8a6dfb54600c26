// build/model/ge_model.h
//
// GeModel / GeRootModel: the in-memory result of a build (seed 002 §6), what
// the OM writer serializes and the OM loader reconstructs.
//
//   GeModel      one compiled graph: the graph (MODEL_DEF), its task list and
//                memory sizes (TASK_INFO), its weights (WEIGHTS_DATA), its
//                kernel store (KERNELS; empty when every kernel is built in).
//   GeRootModel  the root model and a map from subgraph instance name to the
//                model compiled for that subgraph (GE keeps one GeModel per
//                known-shape subgraph of a dynamic root graph).
//
// Weights are views with owners. A model loaded from an OM file points into
// the mapped file (`weights.data`, aligned to kWeightAlign; the owner keeps
// the mapping alive). A freshly built model does not copy its constants into
// one blob: `weights.data` is null and `weights.pieces` lists where each
// unique constant sits in the blob and the tensor buffer that holds it (the
// OM writer streams the pieces; WeightBuffer::Find / MakeContiguousWeights
// give bytes to readers). A piece whose constant views the source model file
// (AlignedBuffer::FileView) names that file range, so the OM writer copies it
// file to file in the kernel; its aligned copy is made only if a reader asks.
#ifndef BUILD_MODEL_GE_MODEL_H_
#define BUILD_MODEL_GE_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "build/proto/model_task.pb.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/graph_fwd.h"

namespace ge {

// Alignment of ARENA offsets and of every constant inside the weight blob.
inline constexpr uint64_t kMemAlign = 64;
inline constexpr uint64_t kWeightAlign = 64;

// Bytes [offset, offset + size) of a weight blob held elsewhere.
struct WeightPiece {
  uint64_t offset = 0;            // inside the blob
  const uint8_t* data = nullptr;  // at any alignment (see `buffer`)
  uint64_t size = 0;
  std::shared_ptr<const void> owner;  // keeps `data` alive
  // A constant's piece: the buffer `data` is the bytes() of. Readers take
  // its data() (aligned; a FileView of unaligned file bytes copies them on
  // first use), writers `data`.
  std::shared_ptr<const AlignedBuffer> buffer;
  // fd >= 0: `data` are the bytes of this range of a file kept open by
  // `owner` (AlignedBuffer::FileView).
  FileExtent file;
};

// The WEIGHTS_DATA blob of `size` bytes: contiguous at `data`, or (data ==
// nullptr) described by `pieces`: sorted by offset, disjoint, inside
// [0, size); bytes outside every piece are zero.
struct WeightBuffer {
  std::shared_ptr<const void> owner;  // keeps `data` alive
  const uint8_t* data = nullptr;
  uint64_t size = 0;
  std::vector<WeightPiece> pieces;

  bool is_contiguous() const { return data != nullptr || size == 0; }
  // Pointer to bytes [offset, offset + len) when they are contiguous in
  // memory (inside `data`, or inside one piece); nullptr otherwise (out of
  // range, across pieces, or in a zero gap). len 0 inside the blob: non-null
  // when the blob has a contiguous byte at `offset`. Inside a piece with a
  // buffer, the pointer is into buffer->data() (as aligned as the offset).
  const uint8_t* Find(uint64_t offset, uint64_t len) const;
  // The owner of the bytes Find returns for `offset`.
  std::shared_ptr<const void> OwnerAt(uint64_t offset) const;
};

// A contiguous copy of `weights` (64-byte aligned, zero gaps filled), or
// `weights` itself when it is already contiguous.
WeightBuffer MakeContiguousWeights(const WeightBuffer& weights);

struct GeModel {
  std::string name;
  ComputeGraphPtr graph;         // MODEL_DEF
  proto::ModelTaskDef task_def;  // TASK_INFO
  WeightBuffer weights;          // WEIGHTS_DATA
  std::string kernel_store;      // KERNELS partition bytes (may be empty)
  // Recorded options (soc_version, ...), written into the OM.
  std::map<std::string, std::string> attrs;
};
using GeModelPtr = std::shared_ptr<GeModel>;

struct GeRootModel {
  GeModelPtr root;
  // Subgraph instance name -> its model (empty for a single-model build).
  std::map<std::string, GeModelPtr> submodels;
};
using GeRootModelPtr = std::shared_ptr<GeRootModel>;

}  // namespace ge

#endif  // BUILD_MODEL_GE_MODEL_H_
