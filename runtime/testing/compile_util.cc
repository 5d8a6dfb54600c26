// runtime/testing/compile_util.cc
//
// The compile half of runtime_test_util.h, in its own translation unit:
// compiler_stages.h and onnx_parser.h both define ge::kAttrDataIndex.
#include <string>
#include <utility>

#include "build/model/model_builder.h"
#include "build/om/om_file.h"
#include "compiler/stages/compiler_stages.h"
#include "runtime/testing/runtime_test_util.h"

namespace ge {
namespace rttest {

StatusOr<ComputeGraphPtr> CompileGraph(const ComputeGraphPtr& graph) {
  CompilerStages stages;
  ASSIGN_OR_RETURN(CompileResult r, stages.Compile(graph, CompileOptions{}));
  return r.graph;
}

StatusOr<GeRootModelPtr> BuildModel(const ComputeGraphPtr& compiled) {
  ModelBuildOptions opts;
  opts.num_threads = 1;
  ModelBuilder builder(opts);
  return builder.Build(compiled);
}

StatusOr<std::string> CompileOnnxToOm(const onnx::ModelProto& model) {
  ASSIGN_OR_RETURN(ComputeGraphPtr graph, ParseOnnx(model));
  ASSIGN_OR_RETURN(ComputeGraphPtr compiled, CompileGraph(graph));
  ASSIGN_OR_RETURN(GeRootModelPtr root, BuildModel(compiled));
  return SaveOm(*root);
}

}  // namespace rttest
}  // namespace ge
