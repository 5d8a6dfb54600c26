// tools/ge_opt/ge_opt_lib.h
//
// ge_opt: reads a graph (the text form of graph/serialization/inc/graph_text.h
// or an ONNX model), runs named passes or compiler stages on it, and returns
// the result in the text form. The ge_opt binary is a thin main over
// RunGeOpt; the golden pass tests call RunGeOpt with the arguments of their
// RUN line.
//
// Arguments (flags; the one positional argument is the input file):
//   --passes=A,B,...   run these passes in order: the passes of the
//                      PassRegistry (compiler/passes/pass_framework/
//                      pass_registry.h), by class name; KnownPassNames()
//   --stage=S          run a compiler stage: prepare (GraphPrepare),
//                      stage1 (GraphOptimize Stage 1), stage2 (Stage 2),
//                      all (CompilerStages::Compile); with --passes the
//                      stage runs first
//   --format=text|onnx the input format (default: by extension, .onnx is
//                      ONNX, anything else text)
//   --output=PATH      also write the result there (RunGeOpt always returns
//                      it)
//
// Contract
//   * Errors are Status values: an unknown pass name is NotFound listing
//     the known passes; an unknown flag or stage ParamInvalid; a malformed
//     text file ParseFailed with "<file>: line L, column C: ...".
//   * Passes run as in the compiler: node passes (CastRemovePass, ...)
//     through a NodePassGroup (GEPass traversal), graph passes directly.
//
// Example
//   ASSIGN_OR_RETURN(std::string text,
//                    ge_opt::RunGeOpt({"in.getxt", "--passes=DeadCodeEliminationPass"}));
#ifndef TOOLS_GE_OPT_GE_OPT_LIB_H_
#define TOOLS_GE_OPT_GE_OPT_LIB_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace ge_opt {

struct GeOptOptions {
  std::string input;
  std::string format;  // "", "text" or "onnx"
  std::vector<std::string> passes;
  std::string stage;  // "", "prepare", "stage1", "stage2" or "all"
  std::string output;
};

// The pass names --passes accepts (the registry's graph and node passes),
// sorted.
std::vector<std::string> KnownPassNames();

StatusOr<GeOptOptions> ParseArgs(const std::vector<std::string>& args);

// Loads the input graph (text or ONNX).
StatusOr<ComputeGraphPtr> LoadGraph(const GeOptOptions& options);
// Parses text (errors are prefixed with `source_name`).
StatusOr<ComputeGraphPtr> ParseText(absl::string_view text, absl::string_view source_name);

// Runs the stage, then the passes, on `graph` (in place).
Status Run(const ComputeGraphPtr& graph, const GeOptOptions& options);

// ParseArgs + LoadGraph + Run + print (+ write --output).
StatusOr<std::string> RunGeOpt(const std::vector<std::string>& args);

}  // namespace ge_opt
}  // namespace ge

#endif  // TOOLS_GE_OPT_GE_OPT_LIB_H_
