// Implementation of tools/atc/atc_build.h.
#include "tools/atc/atc_build.h"

#include "build/model/model_builder.h"

namespace ge {
namespace atc_internal {

StatusOr<GeRootModelPtr> BuildRootModel(const ComputeGraphPtr& graph,
                                        const atc::AtcOptions& options,
                                        const std::map<std::string, std::string>& attrs) {
  ModelBuildOptions build;
  build.disable_reuse_memory = options.disable_reuse_memory;
  build.attrs = attrs;
  ModelBuilder builder(build);
  ASSIGN_OR_RETURN(GeRootModelPtr model, builder.Build(graph));
  if (model == nullptr || model->root == nullptr) {
    return Internal("ModelBuilder returned no root model");
  }
  for (const auto& [k, v] : attrs) model->root->attrs[k] = v;
  return model;
}

}  // namespace atc_internal
}  // namespace ge
