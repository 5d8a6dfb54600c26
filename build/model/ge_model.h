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
// Weights are a view with an owner: a freshly built model owns a heap blob;
// a model loaded from an OM file points into the mapped file (the owner keeps
// the mapping alive). Either way `weights.data` is aligned to kWeightAlign.
#ifndef BUILD_MODEL_GE_MODEL_H_
#define BUILD_MODEL_GE_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "build/proto/model_task.pb.h"
#include "graph/inc/graph/graph_fwd.h"

namespace ge {

// Alignment of ARENA offsets and of every constant inside the weight blob.
inline constexpr uint64_t kMemAlign = 64;
inline constexpr uint64_t kWeightAlign = 64;

struct WeightBuffer {
  std::shared_ptr<const void> owner;  // keeps `data` alive
  const uint8_t* data = nullptr;
  uint64_t size = 0;
};

struct GeModel {
  std::string name;
  ComputeGraphPtr graph;        // MODEL_DEF
  proto::ModelTaskDef task_def; // TASK_INFO
  WeightBuffer weights;         // WEIGHTS_DATA
  std::string kernel_store;     // KERNELS partition bytes (may be empty)
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
