// testing/conformance/atc_runtime_backend.h
//
// The full-pipeline conformance backend, what a user of the product does:
//   atc library (//tools/atc:atc_lib: ONNX parse -> CompilerStages ->
//   ModelBuilder -> OM writer) -> OM bytes -> runtime Model::LoadFromBytes
//   (OM reader, validation, static or dynamic executor) -> Model::Run.
// Compile errors carry the atc stage ("atc: parse: ...", "atc: build: ...");
// load errors "load: ...". Every case goes through the OM bytes: nothing of
// the compiler's in-memory graph reaches the runtime.
//
// Example
//   std::unique_ptr<ge::conformance::Backend> b = ge::conformance::MakeAtcRuntimeBackend();
//   ASSIGN_OR_RETURN(auto model, b->Compile({path, bytes}));
//   ASSIGN_OR_RETURN(std::vector<gert::HostTensor> outs, model->Run(std::move(inputs)));
#ifndef TESTING_CONFORMANCE_ATC_RUNTIME_BACKEND_H_
#define TESTING_CONFORMANCE_ATC_RUNTIME_BACKEND_H_

#include <memory>

#include "testing/conformance/conformance_runner.h"

namespace ge {
namespace conformance {

std::unique_ptr<Backend> MakeAtcRuntimeBackend();

}  // namespace conformance
}  // namespace ge

#endif  // TESTING_CONFORMANCE_ATC_RUNTIME_BACKEND_H_
