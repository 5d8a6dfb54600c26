// compiler/parser/onnx/onnx_function.h
//
// Function inlining of the ONNX front end. Two kinds of calls are replaced by
// the nodes of their function body:
//   * calls of the model's local functions (ModelProto.functions, matched by
//     domain and name);
//   * ops of the accepted ONNX domains that the linked op library lacks but
//     whose ONNX schema defines a function body (static, or built from the
//     call's input types for context-dependent functions such as
//     SoftmaxCrossEntropyLoss).
// Inlining renames the body's values (formal inputs / outputs to the call's
// values, internal values to fresh names prefixed with the call), resolves
// attribute references (ref_attr_name: the call's attribute, else the schema
// default, else dropped), recurses into the nodes' subgraphs, and repeats on
// the result (nested calls, up to 8 levels). Body nodes written for an older
// default-domain opset than `target_opset` are converted with the builtin
// adapters (onnx_version.h).
//
// Example
//   RETURN_IF_ERROR(onnx_parser::InlineFunctions(&model, 17, types, supported));
#ifndef COMPILER_PARSER_ONNX_ONNX_FUNCTION_H_
#define COMPILER_PARSER_ONNX_ONNX_FUNCTION_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "metadef/inc/external/base/status.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace onnx_parser {

// Whether the op library supports a node as it is.
using NodeSupportFn = std::function<bool(const onnx::NodeProto&)>;
// Value name -> type (for context-dependent function bodies).
using ValueTypes = absl::flat_hash_map<std::string, onnx::TypeProto>;

// True when `node` can be inlined: a model-local function, or an op whose
// schema (at `opset` of its domain) has a function body.
bool CanInline(const onnx::ModelProto& model, const onnx::NodeProto& node, int64_t opset);

// True when InlineFunctions may have something to do: some node of the main
// graph or a subgraph calls a model-local function, or is rejected by
// `supported` and has a schema function body. Cheap (no copies); lets callers
// skip collecting value types for models without calls.
bool HasInlinableCalls(const onnx::ModelProto& model, const NodeSupportFn& supported);

// Inlines every inlinable call that `supported` rejects (model-local
// functions always) in the main graph and its subgraphs. Sets *inlined to the
// number of calls replaced.
Status InlineFunctions(onnx::ModelProto* model, int64_t target_opset, const ValueTypes& types,
                       const NodeSupportFn& supported, int64_t* inlined);

// Every value type a model declares (inputs, outputs, value_info,
// initializers), subgraphs included.
ValueTypes CollectValueTypes(const onnx::ModelProto& model);

}  // namespace onnx_parser
}  // namespace ge

#endif  // COMPILER_PARSER_ONNX_ONNX_FUNCTION_H_
