// graph/serialization/inc/model_serialize.h
//
// ModelSerialize: a ComputeGraph tree <-> the bytes of a ge.proto.ModelDef or
// GraphDef (graph/proto/ge_ir.proto), after GE's ModelSerializeImp (seed 000,
// section 7). This header is the public API and does not expose protobuf;
// model_serialize_proto.h is the proto-level API. The bytes are written and
// read by a direct wire-format codec (src/graph_codec.h), not through
// generated message objects; they are canonical protobuf (parsing them with
// the generated classes and serializing again gives the same bytes).
//
// What is serialized (everything needed to rebuild an equal graph):
//   * graphs: name, graph id, attributes, ops in list order, input nodes (in
//     order), output nodes with their output index, and for a subgraph its
//     parent graph, parent node and registration name. A ModelDef holds the
//     root as graph[0] followed by the subgraphs of the tree in the root's
//     registration order; a standalone GraphDef (SerializeGraph, graph-valued
//     attributes) nests them in GraphDef.subgraph.
//   * ops: name, type, id, stream id, input / output descs and port names,
//     optional inputs, IR inputs / outputs / attribute names / subgraphs,
//     subgraph slots and instance names, compile state (offsets, workspaces,
//     engine and kernel lib names, src / dst names and indices, is-input-const),
//     attributes, and anchor counts when they differ from the desc counts.
//   * tensor descs: name, shape, data type, format (packed sub-format and C0
//     included), origin shape / format / data type, shape ranges, real dim
//     count, the extended meta and attributes.
//   * edges, GE style, in each op's `input` list: one entry per input anchor
//     in anchor order, "src:out" (data), "src:-1" (control -> data) or "" (not
//     connected), then one entry per control input, "src:-1" (control) or
//     "src:out" (data -> control), in peer order. Outputs whose consumers are
//     not in canonical order (consumers in op order, then input index) carry
//     an OutputOrder permutation, so every peer order survives.
//   * attributes of every AttrValue type, through AttrSerializerRegistry
//     (attr_serializer.h), as AttrEntry lists in name order (GE's attr maps
//     on the wire). Formats are packed numbers; text output (and
//     SerializeOptions::layout_strings) adds GE's layout strings.
// The function slots of an OpDesc (infer / verify) and transient state (the
// sorted flag of a graph) are not serialized.
//
// Contract
//   * Bytes are deterministic: equal graphs give equal bytes, and
//     serialize -> deserialize -> serialize gives the same bytes.
//   * Node names must be unique within a graph and every edge must stay
//     inside one graph (GraphInvalid otherwise); a format or data type outside
//     its enum is ParamInvalid; a graph-valued attribute nested deeper than
//     DeserializeOptions::max_graph_nesting is OutOfRange (a graph that holds
//     itself in an attribute fails this way).
//   * Deserialization never crashes on hostile bytes: every problem is a
//     Status naming it (ParseFailed for undecodable bytes, GraphInvalid for a
//     dangling / malformed / duplicate reference, OutOfRange for indices and
//     the DeserializeOptions limits, GraphCycle naming the nodes of a cycle,
//     NotFound for a missing subgraph).
//
// Cost (//graph/serialization:serialization_benchmark, one core): about
// 0.4 us/node to serialize and 0.8 us/node to deserialize (about 3x building
// the same graph through the graph API), linear up to 1M nodes.
//
// Example
//   ASSIGN_OR_RETURN(std::string bytes, ModelSerialize::SerializeModel(*graph));
//   ASSIGN_OR_RETURN(ComputeGraphPtr copy, ModelSerialize::DeserializeModel(bytes));
#ifndef GRAPH_SERIALIZATION_INC_MODEL_SERIALIZE_H_
#define GRAPH_SERIALIZATION_INC_MODEL_SERIALIZE_H_

#include <cstdint>
#include <string>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// Limits applied while deserializing (hostile input cannot exhaust memory or
// the stack through them). The defaults accept every graph the serializer
// writes for realistic models.
struct DeserializeOptions {
  // Graph-valued attributes inside graphs inside graph-valued attributes ...
  int32_t max_graph_nesting = 16;
  // Attribute values inside attribute values (named attrs, tensor descs,
  // tensors and graphs each add a level).
  int32_t max_attr_nesting = 64;
  // Dims of one shape, entries of one shape range.
  int64_t max_dim_num = 1024;
  // Ops of one graph.
  int64_t max_ops_per_graph = int64_t{1} << 27;
  // Graphs of one model (root and subgraphs, not counting attributes).
  int64_t max_graphs = int64_t{1} << 20;
  // Inputs / outputs (descs and anchors) and input entries of one op.
  int64_t max_ports_per_op = int64_t{1} << 20;
  // Elements of one list attribute (and of each inner list).
  int64_t max_list_size = int64_t{1} << 26;
  // Reject graphs with a cycle (data and control edges).
  bool check_cycles = true;
};

struct SerializeOptions {
  // Leave out the bytes of tensors (attribute tensors keep their descs); the
  // result is for reading, not for reloading weights.
  bool omit_tensor_data = false;
  // Only the root graph: subgraphs are not written (ops keep their instance
  // names). For dumps.
  bool omit_subgraphs = false;
  // Ops keep name, type and inputs only (no descs, attributes or compile
  // state). For dumps.
  bool structure_only = false;
  // Also write formats as layout strings ("NCHW", "FRACTAL_Z:1:C0_16") and
  // origin dtype / format even when equal to dtype / format, as GE does.
  // Text output always does; binary output writes packed numbers only
  // (smaller, faster), unless this is set.
  bool layout_strings = false;
};

class ModelSerialize {
 public:
  // ModelDef bytes: graph[0] = `graph`, then its subgraphs. For a graph that
  // is itself a subgraph, the subgraphs below it (from the root's registry)
  // are included and it is written as a root.
  static StatusOr<std::string> SerializeModel(const ComputeGraph& graph,
                                              const SerializeOptions& options = {});
  static StatusOr<ComputeGraphPtr> DeserializeModel(absl::string_view bytes,
                                                    const DeserializeOptions& options = {});

  // GraphDef bytes with the subgraphs nested (GraphDef.subgraph).
  static StatusOr<std::string> SerializeGraph(const ComputeGraph& graph,
                                              const SerializeOptions& options = {});
  static StatusOr<ComputeGraphPtr> DeserializeGraph(absl::string_view bytes,
                                                    const DeserializeOptions& options = {});

  // The ModelDef in protobuf text format (the dump format), and back.
  static StatusOr<std::string> SerializeModelToText(const ComputeGraph& graph,
                                                    const SerializeOptions& options = {});
  static StatusOr<ComputeGraphPtr> DeserializeModelFromText(absl::string_view text,
                                                            const DeserializeOptions& options = {});
};

}  // namespace ge

#endif  // GRAPH_SERIALIZATION_INC_MODEL_SERIALIZE_H_
