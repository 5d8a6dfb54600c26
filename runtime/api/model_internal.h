// runtime/api/model_internal.h
//
// Runtime-internal entry points of ge::Model (not part of the public API):
// loading a model that was built in memory (a GeRootModel from the model
// builder, or from LoadGeRootModelFromOm), as GE's LoadModelFromData does
// for an in-memory model. The root model picks the executor: static
// (task_def.dynamic == false) or dynamic. Submodels are not run separately
// (a dynamic root runs its whole graph, subgraphs included).
//
// Example
//   ASSIGN_OR_RETURN(ge::Model m, ge::LoadModelFromGeRootModel(root, {}));
#ifndef RUNTIME_API_MODEL_INTERNAL_H_
#define RUNTIME_API_MODEL_INTERNAL_H_

#include "build/model/ge_model.h"
#include "metadef/inc/external/base/status.h"
#include "runtime/inc/runtime/model.h"

namespace ge {

StatusOr<Model> LoadModelFromGeRootModel(GeRootModelPtr root, const ModelLoadOptions& options);

}  // namespace ge

#endif  // RUNTIME_API_MODEL_INTERNAL_H_
