// compiler/parser/onnx/onnx_parser.h
//
// OnnxModelParser: the ONNX front end. Reads an ONNX ModelProto (file or
// bytes) and builds a ComputeGraph whose ops follow the op library's opset-17
// semantics (op types and attribute names are ONNX's).
//
// Graph structure
//   * Graph inputs that are not initializers -> Data nodes, in input order,
//     with int attribute "index" (the input position, kAttrDataIndex) and
//     their input / output desc from the input's ValueInfo (or the
//     ParseOptions::input_shapes override).
//   * Initializers (and sparse initializers, densified) -> Const nodes with
//     the tensor in attribute "value" (ATTR_NAME_WEIGHTS). An initializer that
//     is also a graph input is a Const (IR < 4 style), not a Data node.
//   * Every other node -> a node of the mapped op type (FrameworkRegistry,
//     see onnx_op_map.h), created by the OperatorFactory (IR metadata,
//     attribute defaults); ONNX input k feeds input slot k (a variadic input
//     expands to instances), an empty input name leaves an optional slot
//     unlinked, ONNX outputs map to output slots in order. Output descs come
//     from the model's value_info (completed by ONNX shape inference when
//     that adds anything, see ParseOptions::infer_shapes) when known, else
//     unknown rank. Node names are the ONNX names (made unique
//     per graph with "_<n>"; empty names become "<op_type>_<index>").
//   * The graph outputs -> one NetOutput node whose input i is output i
//     (descs from the output ValueInfo); the root graph's output info
//     (GetGraphOutNodesInfo) lists the producers in the same order.
//   * Node order: Data, Const, then the ONNX nodes in a topological order
//     that keeps the model's order when it is one.
//
// Subgraphs (If then/else_branch, Loop / Scan body, SequenceMap body)
//   Each becomes a ComputeGraph registered at the root (AddSubgraph), named
//   "<node>_<attribute>", bound to the node's subgraph slot of that name,
//   with Data nodes carrying ATTR_NAME_PARENT_NODE_INDEX (the index of the
//   parent node input that stands for the body input) and a NetOutput whose
//   input descs carry ATTR_NAME_PARENT_NODE_INDEX (the parent output index).
//     If           the branches take no formal inputs.
//     Loop         body inputs (iteration, cond, v...) <-> parent inputs
//                  (M, cond, v_initial...): index 0, 1, 2+j.
//     Scan         body inputs (states, scan slices) <-> parent input i.
//     SequenceMap  body input i <-> parent input i.
//   Outer-scope values a body uses are captured: appended to the parent
//   node's inputs (after its ONNX inputs; for If the `input` list) and read in
//   the body through extra Data nodes. Loop and Scan take captures as extra
//   loop-carried values / states (so their kernels pass them on each
//   iteration): the node gets one extra output per capture after its
//   loop-carried / state outputs and the body passes the value through to
//   its NetOutput; Scan's captures sit between its states and scan inputs.
//   The node attribute kAttrCapturedInputs counts them. Captures propagate
//   through nested bodies.
//
// Descs: dim_param and unknown dims -> -1, with the names in the desc
// attribute "_dim_params"; sequence / optional values are DT_VARIANT (see
// onnx_tensor.h).
//
// Functions: calls of model-local functions, and ops the linked op library
// lacks whose ONNX schema has a function body, are inlined (onnx_function.h).
//
// Versioning: models with a default-domain opset below 17 are converted
// (onnx_version.h, ParseOptions::converter); newer ones are NotSupported.
// Domains "", "ai.onnx" and "ai.onnx.preview.training" are accepted; a node
// of any other domain is an error naming the domain and the node.
//
// Errors: a model with problems gives ONE status listing all of them (one
// line each, in model order): unsupported op types and domains, undefined
// inputs, duplicate node / value / input / initializer names, graph outputs
// nobody produces, bad initializers, nodes the op library rejects:
//   GraphInvalid "ONNX model 'm': 2 errors:
//                   graph 'main': node 'n1' (Foo): unsupported op type 'Foo' (domain '')
//                   graph 'main': node 'n2' (Add): input 'x' is not defined"
// (NotSupported when every problem is an unsupported op / domain / type).
// Unreadable files are IoError / NotFound, bytes that are not a ModelProto
// ParseFailed, IR versions outside 3..8 NotSupported.
//
// Example
//   ge::OnnxModelParser parser;
//   ge::ParseOptions opts;
//   opts.input_shapes["x"] = {1, 3, 224, 224};
//   ASSIGN_OR_RETURN(ge::ComputeGraphPtr graph, parser.ParseFile("model.onnx", opts));
#ifndef COMPILER_PARSER_ONNX_ONNX_PARSER_H_
#define COMPILER_PARSER_ONNX_ONNX_PARSER_H_

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "compiler/parser/onnx/onnx_version.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// kAttrDataIndex ("index" on Data ops) comes from graph/inc/graph/ge_attr_define.h.
// Parent node attribute (If / Loop / Scan / SequenceMap): number of captured
// outer-scope values among its inputs.
inline constexpr char kAttrCapturedInputs[] = "_captured_input_num";

// What the parser did (filled when ParseOptions::info is set).
struct OnnxParseInfo {
  int64_t ir_version = 0;
  int64_t source_opset = 0;          // default-domain opset of the model as given
  int64_t opset = 0;                 // after conversion
  std::string converter;             // "none", "onnx", "builtin"
  std::string onnx_converter_error;  // set when kAuto fell back to the builtin adapters
  int64_t inlined_functions = 0;     // calls replaced by their function bodies
  bool shapes_inferred = false;      // ONNX shape inference ran (see ParseOptions; not
                                     // when a node would crash it)
  // Wall time of each parse phase in order ("read", "decode", "validate",
  // "convert", "infer_shapes", "inline", "build"), in milliseconds.
  std::vector<std::pair<std::string, double>> phase_ms;
};

struct ParseOptions {
  // Shapes of graph inputs (atc --input_shape): input name -> dims. A dim >= 0
  // fixes the dim; -1 keeps the model's dim (value or dim_param). Rules: see
  // ParseBytes.
  std::map<std::string, std::vector<int64_t>> input_shapes;
  // Graph outputs to use instead of the model's (atc --out_nodes): each a
  // value name, "node_name:output_index", or a node name (all its outputs).
  std::vector<std::string> output_nodes;
  // The opset the ops must follow; only onnx_parser::kTargetOpset (17) is
  // supported.
  int64_t target_opset = 17;
  OnnxVersionConverter converter = OnnxVersionConverter::kAuto;
  // Directory for external data when parsing bytes (ParseFile uses the
  // file's directory).
  std::string model_dir;
  // Run ONNX shape inference to fill intermediate descs (best effort) when it
  // adds something the compiler's InferShape pass (which recomputes the
  // output descs of every op with an infer function) does not: skipped when
  // the model has no local functions, no dim_param symbols on its inputs,
  // no subgraphs, and every op type has an infer shape function in the op
  // library; then intermediate descs come from value_info only (unknown
  // rank, DT_UNDEFINED otherwise). always_infer_shapes runs it regardless.
  bool infer_shapes = true;
  bool always_infer_shapes = false;
  OnnxParseInfo* info = nullptr;
};

class OnnxModelParser {
 public:
  OnnxModelParser();

  // Reads and parses `path` (external data relative to its directory).
  StatusOr<ComputeGraphPtr> ParseFile(const std::string& path,
                                      const ParseOptions& options = ParseOptions()) const;
  // Parses a serialized ModelProto. Input shape rules: an unknown input name
  // (or an initializer), a rank different from the model's, a dim below -1,
  // or a fixed model dim replaced by another fixed value is ParamInvalid
  // naming the input and the dim.
  StatusOr<ComputeGraphPtr> ParseBytes(absl::string_view bytes,
                                       const ParseOptions& options = ParseOptions()) const;
};

}  // namespace ge

#endif  // COMPILER_PARSER_ONNX_ONNX_PARSER_H_
