// graph/serialization/inc/model_op_descs.h
//
// DecodeModelOpDescs: a light decode of ModelDef bytes (the bytes
// ModelSerialize::DeserializeModel takes, e.g. an OM's MODEL_DEF partition)
// into the root graph's OpDescs only, for a runtime's static path that needs
// per op its name, type, id, attributes, input / output tensor descs (names,
// dtype, format, shape ...), IR metadata and compile state, but no graph:
// no Node, no anchors, no ComputeGraph, no subgraphs are built.
//
// API (namespace ge)
//   struct ModelOpDescs {
//     std::string graph_name;                 // the root graph's name
//     uint32_t graph_id;                      // its graph id (0 when unset)
//     AttrStore attrs;                        // its attributes
//     size_t num_graphs;                      // graphs in the model, root included
//     std::vector<OpDescPtr> ops;             // root ops, in node order
//     std::vector<uint32_t> input_ops;        // graph input nodes, as indices into ops
//     std::vector<std::pair<uint32_t, int32_t>> outputs;  // graph outputs (op index, output index)
//   };
//   StatusOr<ModelOpDescs> DecodeModelOpDescs(absl::string_view model_def,
//                                             const DeserializeOptions& options = {});
//
// Contract
//   * ops[i] is equal (OpDesc::operator==-wise: name, type, id, stream id,
//     descs, port names, IR metadata, compile state, attributes) to the
//     OpDesc of node i of DeserializeModel(model_def)'s root graph, in
//     GetDirectNode() order; ops[i]->GetId() is the serialized id.
//     input_ops / outputs match the root graph's GetInputNodes() /
//     GetGraphOutNodesInfo().
//   * The OpDescs are not attached to any node; they may be added to a graph
//     later (ComputeGraph::AddNode).
//   * Validation: every check DeserializeModel makes on the ModelDef envelope
//     and on the root graph is made here, in the same order, with the same
//     Status code and message: undecodable bytes ("truncated or malformed
//     ..."), the DeserializeOptions limits, bad descs / attributes / counts,
//     empty or duplicate op names, and (the edges are checked, not built)
//     every input entry: syntax, missing producers, output indices out of
//     range, duplicate control inputs, output orders, cycles (when
//     options.check_cycles), input / output nodes. So for a model whose
//     first defect is in the root graph, both fail with the same status.
//     Not checked: the contents of the subgraphs (num_graphs > 1; each
//     GraphDef must still split into fields, as DeserializeModel checks
//     before anything else) and whether subgraph instance names resolve,
//     except that a model without subgraphs (num_graphs == 1) whose op names
//     a subgraph instance fails with DeserializeModel's NotFound. A caller
//     that needs the subgraphs (or their checks) uses DeserializeModel.
//   * Never crashes on hostile bytes.
//
// Cost: the OpDescs are most of a decode: on the ladder 100k OM's MODEL_DEF
// (18 MB, 108k ops; 2-core VM, thread CPU time, fresh process) 126 ms vs 138
// ms for DeserializeModel (220 ms before this change's decoder speedups),
// about 40% of it the kernel zeroing fresh pages for the descs. Time it with
// //graph/serialization:decode_time.
//
// Example
//   ASSIGN_OR_RETURN(ModelOpDescs m, DecodeModelOpDescs(model_def_bytes));
//   for (const OpDescPtr& op : m.ops) { ... op->GetName(), op->GetType(),
//     op->GetInputDescPtr(0)->GetShape(), AttrUtils::GetInt(op, "axis", v) ... }
#ifndef GRAPH_SERIALIZATION_INC_MODEL_OP_DESCS_H_
#define GRAPH_SERIALIZATION_INC_MODEL_OP_DESCS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/attr_store.h"
#include "graph/inc/graph/graph_fwd.h"
#include "graph/serialization/inc/model_serialize.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

struct ModelOpDescs {
  std::string graph_name;
  uint32_t graph_id = 0;
  AttrStore attrs;
  size_t num_graphs = 0;
  std::vector<OpDescPtr> ops;
  std::vector<uint32_t> input_ops;
  std::vector<std::pair<uint32_t, int32_t>> outputs;
};

StatusOr<ModelOpDescs> DecodeModelOpDescs(absl::string_view model_def,
                                          const DeserializeOptions& options = {});

}  // namespace ge

#endif  // GRAPH_SERIALIZATION_INC_MODEL_OP_DESCS_H_
