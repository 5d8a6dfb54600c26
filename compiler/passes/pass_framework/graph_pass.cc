// compiler/passes/pass_framework/graph_pass.cc
#include "compiler/passes/pass_framework/graph_pass.h"

#include <string>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace ge {

StatusOr<bool> GraphPass::Run(const ComputeGraphPtr& graph) {
  if (graph == nullptr) return ParamInvalid("pass '", name(), "': cannot run on a null graph");
  StatusOr<bool> result = RunImpl(graph);
  if (result.ok()) return result;
  const std::string prefix =
      absl::StrCat("pass '", name(), "' on graph '", graph->GetName(), "': ");
  // A wrapper that runs a pass of the same name (PassFix) does not repeat it.
  if (absl::StartsWith(result.status().message(), prefix)) return result.status();
  return Annotate(result.status(), prefix);
}

}  // namespace ge
