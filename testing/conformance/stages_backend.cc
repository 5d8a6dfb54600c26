// testing/conformance/stages_backend.cc
#include "testing/conformance/stages_backend.h"

#include <string>
#include <utility>
#include <vector>

#include "compiler/stages/compiler_stages.h"
#include "runtime/reference/reference_interpreter.h"
#include "testing/conformance/stages_backend_internal.h"

namespace ge {
namespace conformance {
namespace {

class InterpretedModel : public CompiledModel {
 public:
  explicit InterpretedModel(ComputeGraphPtr graph) : graph_(std::move(graph)) {}
  StatusOr<std::vector<gert::HostTensor>> Run(std::vector<gert::HostTensor> inputs) override {
    return ReferenceInterpreter::Run(*graph_, std::move(inputs));
  }

 private:
  ComputeGraphPtr graph_;
};

class StagesInterpreterBackend : public Backend {
 public:
  std::string Name() const override { return "stages+interpreter"; }
  void WarmUp() override {
    internal::WarmUpOnnxParser();
  }
  StatusOr<std::unique_ptr<CompiledModel>> Compile(const ModelSource& model) override {
    StatusOr<ComputeGraphPtr> graph = internal::ParseOnnxFile(model.path);
    if (!graph.ok()) return Annotate(graph.status(), "parse: ");
    CompilerStages stages;
    StatusOr<CompileResult> compiled = stages.Compile(*graph, CompileOptions());
    if (!compiled.ok()) return Annotate(compiled.status(), "CompilerStages: ");
    if (compiled->graph == nullptr) return Internal("CompilerStages returned no graph");
    return std::unique_ptr<CompiledModel>(new InterpretedModel(compiled->graph));
  }
};

}  // namespace

std::unique_ptr<Backend> MakeStagesInterpreterBackend() {
  return std::make_unique<StagesInterpreterBackend>();
}

}  // namespace conformance
}  // namespace ge
