// compiler/tools/onnx_loader.h
//
// LoadOnnxModel: parses an ONNX model file into a ComputeGraph with the ONNX
// front end and every op family linked (//compiler/parser/onnx:
// onnx_parser_with_ops). It exists so that code which also includes
// compiler/stages/compiler_stages.h can parse models: onnx_parser.h and
// compiler_stages.h both define ge::kAttrDataIndex, so one translation unit
// cannot include both.
//
// Contract: the parser's errors are returned as they are (IoError /
// NotFound for unreadable files, ParseFailed, GraphInvalid, NotSupported);
// input_shapes is ParseOptions::input_shapes (name -> dims, -1 keeps the
// model's dim).
//
// ParseRepeatFlag: the `--repeat=N` flag shared by the tools here
// (node_counts, onnx_parse_time). Returns false when `arg` is not a
// --repeat flag (*repeat untouched), true after storing N in *repeat, and
// ParamInvalid naming the argument when N is not an integer >= 1.
//
// ParseToolArgs: the command line of those tools: `--repeat=N`, the tool's
// own flags (`flag` returns true when it took the argument, false when it is
// not one of them, an error status when its value is bad), any other
// argument starting with "--" is ParamInvalid ("unknown flag '...'"), the
// rest are model paths in order.
//
// Example:
//   ASSIGN_OR_RETURN(ComputeGraphPtr g, LoadOnnxModel("/tmp/zoo/resnet50.onnx"));
//   StatusOr<bool> r = ParseRepeatFlag(argv[i], &repeat);  // "--repeat=5" -> true, 5
#ifndef COMPILER_TOOLS_ONNX_LOADER_H_
#define COMPILER_TOOLS_ONNX_LOADER_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/compute_graph.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

StatusOr<ComputeGraphPtr> LoadOnnxModel(
    const std::string& path, const std::map<std::string, std::vector<int64_t>>& input_shapes = {});

StatusOr<bool> ParseRepeatFlag(absl::string_view arg, int* repeat);

struct ToolArgs {
  int repeat = 1;
  std::vector<std::string> models;
};
StatusOr<ToolArgs> ParseToolArgs(int argc, const char* const* argv, int default_repeat,
                                 const std::function<StatusOr<bool>(const std::string&)>& flag);

}  // namespace ge

#endif  // COMPILER_TOOLS_ONNX_LOADER_H_
