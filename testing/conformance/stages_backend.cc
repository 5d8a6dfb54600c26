// testing/conformance/stages_backend.cc
#include "testing/conformance/stages_backend.h"

#include <string>
#include <utility>
#include <vector>

#include "runtime/manager/graph_manager.h"
#include "runtime/reference/reference_interpreter.h"

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

// The GraphManager compiles (no model build); the reference interpreter runs
// the compiled graph.
class StagesInterpreterBackend : public Backend {
 public:
  std::string Name() const override { return "stages+interpreter"; }
  void WarmUp() override {
    // Registries and ONNX schemas are initialized by a first (failing)
    // parse; the children inherit them.
    GraphManager gm;
    if (gm.Initialize({}).ok()) (void)gm.AddOnnxGraph(0, OnnxSource::Bytes("warm-up"));
  }
  StatusOr<std::unique_ptr<CompiledModel>> Compile(const ModelSource& model) override {
    GraphManager gm;
    // The reference interpreter runs host-CPU kernels: no compute-engine
    // placement or layouts.
    RETURN_IF_ERROR(gm.Initialize({{"ge.computeEngine", "off"}}));
    gm.set_build_model(false);
    const OnnxSource source =
        model.path.empty() ? OnnxSource::Bytes(model.bytes) : OnnxSource::File(model.path);
    Status added = gm.AddOnnxGraph(0, source);
    if (!added.ok()) return Annotate(added, "parse: ");
    Status built = gm.BuildGraph(0);
    if (!built.ok()) return Annotate(built, "CompilerStages: ");
    ASSIGN_OR_RETURN(ComputeGraphPtr compiled, gm.GetCompiledGraph(0));
    if (compiled == nullptr) return Internal("CompilerStages returned no graph");
    return std::unique_ptr<CompiledModel>(new InterpretedModel(std::move(compiled)));
  }
};

}  // namespace

std::unique_ptr<Backend> MakeStagesInterpreterBackend() {
  return std::make_unique<StagesInterpreterBackend>();
}

}  // namespace conformance
}  // namespace ge
