// testing/conformance/stages_backend_internal.h
//
// Internal to :stages_backend. The ONNX parse step lives in its own
// translation unit because compiler/parser/onnx/onnx_parser.h and
// compiler/stages/compiler_stages.h both define ge::kAttrDataIndex and cannot
// be included together.
#ifndef TESTING_CONFORMANCE_STAGES_BACKEND_INTERNAL_H_
#define TESTING_CONFORMANCE_STAGES_BACKEND_INTERNAL_H_

#include <string>

#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace conformance {
namespace internal {

// Creates an OnnxModelParser once (registries, schemas).
void WarmUpOnnxParser();
// OnnxModelParser::ParseFile with default options.
StatusOr<ComputeGraphPtr> ParseOnnxFile(const std::string& path);

}  // namespace internal
}  // namespace conformance
}  // namespace ge

#endif  // TESTING_CONFORMANCE_STAGES_BACKEND_INTERNAL_H_
