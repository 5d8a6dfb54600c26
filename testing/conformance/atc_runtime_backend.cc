// testing/conformance/atc_runtime_backend.cc
#include "testing/conformance/atc_runtime_backend.h"

#include <string>
#include <utility>
#include <vector>

#include "runtime/inc/runtime/model.h"
#include "tools/atc/atc_lib.h"

namespace ge {
namespace conformance {
namespace {

class RuntimeModel : public CompiledModel {
 public:
  explicit RuntimeModel(Model model) : model_(std::move(model)) {}
  StatusOr<std::vector<gert::HostTensor>> Run(std::vector<gert::HostTensor> inputs) override {
    return model_.Run(inputs);
  }

 private:
  Model model_;
};

class AtcRuntimeBackend : public Backend {
 public:
  std::string Name() const override { return "atc+runtime"; }
  void WarmUp() override {
    // Registries and ONNX schemas are initialized by a first (failing)
    // conversion; the children inherit them.
    atc::AtcOptions opts;
    opts.model_bytes = "warm-up";
    (void)atc::ConvertOnnx(opts);
  }
  StatusOr<std::unique_ptr<CompiledModel>> Compile(const ModelSource& model) override {
    atc::AtcOptions opts;
    // From the file when there is one (external data is found beside it),
    // else from the bytes (e.g. a model made in memory by a fuzzer).
    if (model.path.empty()) {
      opts.model_bytes = model.bytes;
    } else {
      opts.model_path = model.path;
    }
    StatusOr<atc::AtcResult> converted = atc::ConvertOnnx(opts);
    if (!converted.ok()) return Annotate(converted.status(), "atc: ");
    if (converted->om_bytes.empty()) return Internal("atc: no OM bytes");
    StatusOr<Model> loaded = Model::LoadFromBytes(converted->om_bytes);
    if (!loaded.ok()) return Annotate(loaded.status(), "load: ");
    return std::unique_ptr<CompiledModel>(new RuntimeModel(std::move(loaded).value()));
  }
};

}  // namespace

std::unique_ptr<Backend> MakeAtcRuntimeBackend() { return std::make_unique<AtcRuntimeBackend>(); }

}  // namespace conformance
}  // namespace ge
