// testing/conformance/stages_backend_parse.cc
#include "compiler/parser/onnx/onnx_parser.h"
#include "testing/conformance/stages_backend_internal.h"

namespace ge {
namespace conformance {
namespace internal {

void WarmUpOnnxParser() {
  OnnxModelParser warm_up;
  (void)warm_up;
}

StatusOr<ComputeGraphPtr> ParseOnnxFile(const std::string& path) {
  OnnxModelParser parser;
  return parser.ParseFile(path);
}

}  // namespace internal
}  // namespace conformance
}  // namespace ge
