// testing/conformance/stages_backend.h
//
// The compile-through-GraphOptimize conformance backend: ONNX parser
// (//compiler/parser/onnx, every op family linked) -> CompilerStages::Compile
// (prepare, optimize stage 1, partition, subgraph optimize, stage 2, build
// pass-through) -> ReferenceInterpreter on the compiled graph. It checks that
// the compiler stages keep every model runnable and its results unchanged;
// it does not involve build/ or runtime/ (see atc_runtime_backend.h).
//
// Example
//   std::unique_ptr<ge::conformance::Backend> b = ge::conformance::MakeStagesInterpreterBackend();
//   ASSIGN_OR_RETURN(auto model, b->Compile({path, bytes}));
//   ASSIGN_OR_RETURN(std::vector<gert::HostTensor> outs, model->Run(std::move(inputs)));
#ifndef TESTING_CONFORMANCE_STAGES_BACKEND_H_
#define TESTING_CONFORMANCE_STAGES_BACKEND_H_

#include <memory>

#include "testing/conformance/conformance_runner.h"

namespace ge {
namespace conformance {

std::unique_ptr<Backend> MakeStagesInterpreterBackend();

}  // namespace conformance
}  // namespace ge

#endif  // TESTING_CONFORMANCE_STAGES_BACKEND_H_
