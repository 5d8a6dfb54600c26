// compiler/tools/onnx_loader.cc
#include "compiler/tools/onnx_loader.h"

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "compiler/parser/onnx/onnx_parser.h"

namespace ge {

StatusOr<ComputeGraphPtr> LoadOnnxModel(
    const std::string& path, const std::map<std::string, std::vector<int64_t>>& input_shapes) {
  OnnxModelParser parser;
  ParseOptions opts;
  opts.input_shapes = input_shapes;
  return parser.ParseFile(path, opts);
}

StatusOr<bool> ParseRepeatFlag(absl::string_view arg, int* repeat) {
  constexpr absl::string_view kPrefix = "--repeat=";
  if (!absl::StartsWith(arg, kPrefix)) return false;
  int n = 0;
  if (!absl::SimpleAtoi(arg.substr(kPrefix.size()), &n) || n < 1) {
    return ParamInvalid("bad --repeat value '", arg, "' (want an integer >= 1)");
  }
  *repeat = n;
  return true;
}

StatusOr<ToolArgs> ParseToolArgs(int argc, const char* const* argv, int default_repeat,
                                 const std::function<StatusOr<bool>(const std::string&)>& flag) {
  ToolArgs args;
  args.repeat = default_repeat;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    ASSIGN_OR_RETURN(bool is_repeat, ParseRepeatFlag(arg, &args.repeat));
    if (is_repeat) continue;
    ASSIGN_OR_RETURN(bool taken, flag(arg));
    if (taken) continue;
    if (absl::StartsWith(arg, "--")) return ParamInvalid("unknown flag '", arg, "'");
    args.models.push_back(arg);
  }
  return args;
}

}  // namespace ge
