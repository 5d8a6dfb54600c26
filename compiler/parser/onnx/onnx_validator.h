// compiler/parser/onnx/onnx_validator.h
//
// Internal to the ONNX parser: structural checks of the model as given
// (before version conversion): names defined once and before use (or in an
// outer scope for subgraphs), every op known for its opset, graph inputs
// and outputs, initializers, subgraphs recursively. Problems are collected,
// not returned at the first one. The root graph's values are indexed on the
// way and the index is returned for the builder to reuse.
//
// Example
//   Problems problems;
//   OpResolver ops(OpsetMap(model));
//   GraphIndex root_index = ValidateModel(model, "main", &ops, &problems);
//   RETURN_IF_ERROR(problems.ToStatus(name));
#ifndef COMPILER_PARSER_ONNX_ONNX_VALIDATOR_H_
#define COMPILER_PARSER_ONNX_ONNX_VALIDATOR_H_

#include <string>

#include "compiler/parser/onnx/onnx_graph_index.h"
#include "compiler/parser/onnx/onnx_op_resolver.h"
#include "compiler/parser/onnx/onnx_problems.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace onnx_parser {

// Checks the model, its root graph named `root_name`, adding what is wrong
// to *problems; returns the root graph's index (valid while the root graph
// is not changed).
GraphIndex ValidateModel(const onnx::ModelProto& model, const std::string& root_name,
                         OpResolver* ops, Problems* problems);

}  // namespace onnx_parser
}  // namespace ge

#endif  // COMPILER_PARSER_ONNX_ONNX_VALIDATOR_H_
