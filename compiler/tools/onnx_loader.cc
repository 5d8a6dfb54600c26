// compiler/tools/onnx_loader.cc
#include "compiler/tools/onnx_loader.h"

#include "compiler/parser/onnx/onnx_parser.h"

namespace ge {

StatusOr<ComputeGraphPtr> LoadOnnxModel(
    const std::string& path, const std::map<std::string, std::vector<int64_t>>& input_shapes) {
  OnnxModelParser parser;
  ParseOptions opts;
  opts.input_shapes = input_shapes;
  return parser.ParseFile(path, opts);
}

}  // namespace ge
