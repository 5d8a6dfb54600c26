// tools/atc/atc_parse.h
//
// Internal to //tools/atc:atc_lib: the ONNX front-end half of the pipeline,
// in its own translation unit (compiler/parser/onnx/onnx_parser.h and
// compiler/stages/compiler_stages.h both define ge::kAttrDataIndex, so no
// file may include both).
//
//   ParseOnnxForAtc   model file / bytes + --input_shape / --out_nodes -> graph
//   PreCheckOnnx      atc --mode 3: every unconvertible op at once
//
// Example
//   ASSIGN_OR_RETURN(ComputeGraphPtr g, atc_internal::ParseOnnxForAtc(opts));
#ifndef TOOLS_ATC_ATC_PARSE_H_
#define TOOLS_ATC_ATC_PARSE_H_

#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"
#include "tools/atc/atc_lib.h"

namespace ge {
namespace atc_internal {

// Parses options.model_path or options.model_bytes with the shapes and
// output nodes of `options`.
StatusOr<ComputeGraphPtr> ParseOnnxForAtc(const atc::AtcOptions& options);

// See atc::PreCheck.
StatusOr<atc::PreCheckReport> PreCheckOnnx(const atc::AtcOptions& options);

}  // namespace atc_internal
}  // namespace ge

#endif  // TOOLS_ATC_ATC_PARSE_H_
