// runtime/testing/compile_util.cc
//
// The compile half of runtime_test_util.h: every helper compiles through the
// GraphManager, as atc does.
#include <string>
#include <utility>

#include "runtime/manager/graph_manager.h"
#include "runtime/testing/runtime_test_util.h"

namespace ge {
namespace rttest {
namespace {

// Builds `graph` on a fresh manager (one task-generation thread) and returns
// the manager.
StatusOr<std::unique_ptr<GraphManager>> Build(const ComputeGraphPtr& graph, bool build_model) {
  auto gm = std::make_unique<GraphManager>();
  RETURN_IF_ERROR(gm->Initialize({}));
  gm->set_build_model(build_model);
  RETURN_IF_ERROR(gm->AddGraph(0, graph));
  ModelBuildOptions build;
  build.num_threads = 1;
  RETURN_IF_ERROR(gm->SetModelBuildOptions(0, build));
  RETURN_IF_ERROR(gm->BuildGraph(0));
  return gm;
}

}  // namespace

StatusOr<ComputeGraphPtr> CompileGraph(const ComputeGraphPtr& graph) {
  ASSIGN_OR_RETURN(std::unique_ptr<GraphManager> gm, Build(graph, /*build_model=*/false));
  return gm->GetCompiledGraph(0);
}

StatusOr<GeRootModelPtr> CompileToRootModel(const ComputeGraphPtr& graph) {
  ASSIGN_OR_RETURN(std::unique_ptr<GraphManager> gm, Build(graph, /*build_model=*/true));
  return gm->GetRootModel(0);
}

StatusOr<std::string> CompileOnnxToOm(const onnx::ModelProto& model) {
  ASSIGN_OR_RETURN(ComputeGraphPtr graph, ParseOnnx(model));
  ASSIGN_OR_RETURN(std::unique_ptr<GraphManager> gm, Build(graph, /*build_model=*/true));
  return gm->SaveModelToBytes(0);
}

}  // namespace rttest
}  // namespace ge
