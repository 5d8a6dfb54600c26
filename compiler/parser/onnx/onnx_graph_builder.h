// compiler/parser/onnx/onnx_graph_builder.h
//
// Internal to the ONNX parser: the graph builder. Makes the ComputeGraph of
// a checked (and converted, shape-inferred, inlined) ModelProto: Data and
// Const nodes, one node per ONNX node through the OperatorFactory, edges by
// value id, subgraphs of control-flow nodes with their captures, NetOutput
// (see onnx_parser.h for the graph it builds). Problems of single nodes are
// collected; the status is for what stops the build.
//
// Example
//   TensorLoadContext tensors{model_dir, std::make_shared<ExternalDataFiles>()};
//   ASSIGN_OR_RETURN(ComputeGraphPtr graph,
//                    BuildGraph(model, options, std::move(tensors), held, &ops, &problems,
//                               &root_index, &root_ops));
#ifndef COMPILER_PARSER_ONNX_ONNX_GRAPH_BUILDER_H_
#define COMPILER_PARSER_ONNX_ONNX_GRAPH_BUILDER_H_

#include <vector>

#include "compiler/parser/onnx/onnx_graph_index.h"
#include "compiler/parser/onnx/onnx_op_resolver.h"
#include "compiler/parser/onnx/onnx_parser.h"
#include "compiler/parser/onnx/onnx_problems.h"
#include "compiler/parser/onnx/onnx_tensor.h"
#include "compiler/parser/onnx/onnx_weights.h"
#include "graph/inc/graph/compute_graph.h"
#include "metadef/inc/external/base/status.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace onnx_parser {

// The name of a root graph that has none.
constexpr char kDefaultGraphName[] = "onnx_graph";

// Builds the graph of `model`. `held` (may be null): the held-out weights;
// `root_index` (may be null): the root graph's index made by the validator,
// when the root graph has not changed since; `root_ops` (may be null or
// empty): the op lookups of the root graph's nodes by index.
StatusOr<ComputeGraphPtr> BuildGraph(const onnx::ModelProto& model, const ParseOptions& options,
                                     TensorLoadContext tensors, const HeldWeights* held,
                                     OpResolver* ops, Problems* problems, GraphIndex* root_index,
                                     const std::vector<OpLookup>* root_ops);

}  // namespace onnx_parser
}  // namespace ge

#endif  // COMPILER_PARSER_ONNX_ONNX_GRAPH_BUILDER_H_
