// compiler/parser/onnx/onnx_version.h
//
// Opset normalisation of the ONNX front end: rewrites a model whose
// default-domain opset is older than the target (17, the op library's
// semantics) so that every default-domain node, in the main graph and in
// every subgraph, follows the target opset.
//
// Converters
//   kOnnx     onnx::version_conversion::ConvertVersion. Its failures (an
//             exception, or a model returned unconverted) are errors. What
//             its IR round trip loses is taken from the original model:
//             external-data initializers (main graph), sparse initializers,
//             model-local functions.
//   kBuiltin  the parser's own per-op adapters (below).
//   kAuto     from opset 13 on (every later change is backward compatible):
//             kBuiltin. Older: kOnnx first; when it fails, kBuiltin on the
//             original model.
//             Models with nodes that ONNX's converter (1.12) converts with
//             other semantics go to kBuiltin directly: Scan-8, PRelu-6,
//             Upsample / Resize before opset 11, Reshape-4, legacy
//             broadcast `axis` (OpsetConversion::onnx_error says why).
//
// Builtin adapters (source opset -> opset-17 form); values that moved from
// attributes to inputs become initializers of the node's graph:
//   every op (opset < 7)     consumed_inputs dropped; is_test dropped
//   Add/Sub/Mul/Div/Pow/And/Or/Xor/Equal/Greater/Less (< 7)
//                            broadcast dropped; a legacy `axis` aligns B by
//                            an Unsqueeze (needs the ranks from ONNX shape
//                            inference, else NotSupported)
//   Gemm (< 7)               broadcast dropped
//   Concat (< 4)             axis defaults to 1
//   Reshape (< 5)            shape -> input
//   Cast (< 6)               `to` given as a type name -> element type number
//   BatchNormalization       spatial (< 9) dropped when 1 (0 NotSupported
//                            unless the input is 2-D); training outputs
//                            (< 14) trimmed when unused
//   Dropout (< 12)           ratio -> input
//   TopK (< 10)              k -> input
//   Slice (< 10)             starts / ends / axes -> inputs
//   Upsample (< 9)           scales (or height_scale / width_scale, opset 1)
//                            -> input; "bilinear" -> "linear"
//   Resize (10)              empty roi input added; asymmetric coordinates,
//                            nearest_mode floor (Resize-10 semantics)
//   Pad (< 11)               pads (paddings, opset 1) / value -> inputs
//   Clip (< 11)              min / max -> inputs
//   Squeeze/Unsqueeze/ReduceSum (< 13)  axes -> input
//   Split (< 13)             split -> input
//   Softmax/LogSoftmax/Hardmax (< 13)   the 2-D coercion becomes
//                            Flatten(axis) -> op(axis=1) -> Reshape(Shape(x)),
//                            unless axis is the last dim
//   LpPool/GlobalLpPool (< 2) float p -> int
//   RNN/GRU/LSTM (< 7)       output_sequence dropped
//   Scan (< 9), Tile (< 6)   NotSupported (different signatures)
// Errors name the node, its op type and the source opset.
//
// Example
//   ASSIGN_OR_RETURN(OpsetConversion c,
//                    onnx_parser::NormalizeOpset(&model, 17, OnnxVersionConverter::kAuto));
#ifndef COMPILER_PARSER_ONNX_ONNX_VERSION_H_
#define COMPILER_PARSER_ONNX_ONNX_VERSION_H_

#include <cstdint>
#include <string>

#include "metadef/inc/external/base/status.h"
#include "onnx/onnx_pb.h"

namespace ge {

enum class OnnxVersionConverter : int32_t { kAuto = 0, kOnnx = 1, kBuiltin = 2 };

namespace onnx_parser {

// The opset the op library implements.
inline constexpr int64_t kTargetOpset = 17;

struct OpsetConversion {
  int64_t from_opset = 0;  // default-domain opset of the model as given
  int64_t to_opset = 0;    // after conversion
  std::string converter;   // "none", "onnx" or "builtin"
  std::string onnx_error;  // why ONNX's converter was not used (kAuto fallback)
  // False when only the opset import changed: the graphs' nodes,
  // initializers and value names are the model's as given (same objects).
  bool rewritten = false;
};

// The default-domain ("" / "ai.onnx") opset the model imports; 0 when none.
int64_t DefaultDomainOpset(const onnx::ModelProto& model);

// Whether libonnx's shape inference may run on `model`: "" when it may;
// else the first node that would crash it (one that breaks its schema at
// the model's opset: a missing required attribute, an absent single input,
// a wrong input count; or a LayerNormalization axis out of its input's
// range; or a Conv / pooling stride, dilation or kernel dim that is not
// positive). Callers skip the (best-effort) inference then; the parser
// reports the node.
std::string OnnxShapeInferenceHazard(const onnx::ModelProto& model);

// Converts `model` in place (see the file comment). A model already at
// `target` is left alone ("none"); a newer one is NotSupported.
StatusOr<OpsetConversion> NormalizeOpset(onnx::ModelProto* model, int64_t target,
                                         OnnxVersionConverter kind);

// The builtin adapters alone, from the model's opset to `target` (<= 17).
// *rewritten (optional) tells whether the graphs were rewritten (false when
// no adapter applies and only the opset import changed).
Status ApplyBuiltinAdapters(onnx::ModelProto* model, int64_t target, bool* rewritten = nullptr);

}  // namespace onnx_parser
}  // namespace ge

#endif  // COMPILER_PARSER_ONNX_ONNX_VERSION_H_
