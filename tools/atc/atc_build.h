// tools/atc/atc_build.h
//
// Internal to //tools/atc:atc_lib: the build step (compiled graph ->
// GeRootModel through build/model/model_builder.h) with atc's recorded
// options.
//
// Example
//   ASSIGN_OR_RETURN(GeRootModelPtr m, atc_internal::BuildRootModel(g, opts, attrs));
#ifndef TOOLS_ATC_ATC_BUILD_H_
#define TOOLS_ATC_ATC_BUILD_H_

#include <map>
#include <string>

#include "build/model/ge_model.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"
#include "tools/atc/atc_lib.h"

namespace ge {
namespace atc_internal {

// Builds `graph` (modified in place) with options.disable_reuse_memory; the
// model's attrs get `attrs`.
StatusOr<GeRootModelPtr> BuildRootModel(const ComputeGraphPtr& graph,
                                        const atc::AtcOptions& options,
                                        const std::map<std::string, std::string>& attrs);

}  // namespace atc_internal
}  // namespace ge

#endif  // TOOLS_ATC_ATC_BUILD_H_
