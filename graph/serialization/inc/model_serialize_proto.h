// graph/serialization/inc/model_serialize_proto.h
//
// ModelSerializeImp: the proto-level API (seed 000, section 7.1): ComputeGraph
// trees <-> generated ge::proto::ModelDef / GraphDef objects, one op <-> OpDef
// (without edges); see model_serialize.h for the format and the contract.
// These run the graph codec and a generated parse (or a generated serialize
// and the codec), so they give exactly what the byte-level API gives; use
// them for text dumps, tests and tools, and the byte-level API for speed.
// Also the deterministic byte encoding of any message and a bounded parser.
//
// Example
//   proto::ModelDef model;
//   RETURN_IF_ERROR(ModelSerializeImp::SerializeModel(*graph, &model));
//   ASSIGN_OR_RETURN(ComputeGraphPtr back, ModelSerializeImp::UnserializeModel(model));
#ifndef GRAPH_SERIALIZATION_INC_MODEL_SERIALIZE_PROTO_H_
#define GRAPH_SERIALIZATION_INC_MODEL_SERIALIZE_PROTO_H_

#include <string>

#include "absl/strings/string_view.h"
#include "google/protobuf/message_lite.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/graph_fwd.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/proto/ge_ir.pb.h"
#include "graph/serialization/inc/model_serialize.h"
#include "graph/serialization/inc/serialize_context.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class ModelSerializeImp {
 public:
  // graph[0] = graph, then the subgraphs of its tree (see model_serialize.h).
  static Status SerializeModel(const ComputeGraph& graph, proto::ModelDef* model,
                               const SerializeOptions& options = {});
  static StatusOr<ComputeGraphPtr> UnserializeModel(const proto::ModelDef& model,
                                                    const DeserializeOptions& options = {});

  // A standalone GraphDef: the tree's subgraphs nested in GraphDef.subgraph.
  static Status SerializeGraph(const ComputeGraph& graph, proto::GraphDef* def,
                               SerializeContext& ctx);
  static StatusOr<ComputeGraphPtr> UnserializeGraph(const proto::GraphDef& def,
                                                    DeserializeContext& ctx);

  // One op without its edges.
  static Status SerializeOpDesc(const OpDesc& op, proto::OpDef* def, SerializeContext& ctx);
  static StatusOr<OpDescPtr> UnserializeOpDesc(const proto::OpDef& def, DeserializeContext& ctx);

  // Deterministic bytes of a message (map entries sorted).
  static StatusOr<std::string> ToBytes(const google::protobuf::MessageLite& message);
  // Parses bytes completely (ParseFailed naming the message type and size
  // when they are truncated or malformed); protobuf's own recursion limit is
  // raised so that DeserializeOptions' nesting limits are what trips.
  static Status ParseBytes(absl::string_view bytes, google::protobuf::MessageLite* message);
};

}  // namespace ge

#endif  // GRAPH_SERIALIZATION_INC_MODEL_SERIALIZE_PROTO_H_
