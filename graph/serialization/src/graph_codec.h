// graph/serialization/src/graph_codec.h
//
// Internal: the graph codec. Writes ComputeGraph trees, ops and tensor descs
// directly as ge_ir.proto wire bytes and reads them back without building
// generated message objects (see model_serialize.h for the format and the
// contract). Attribute values go through AttrSerializerRegistry (generated
// AttrDef objects), except int / float / bool / string values whose
// registered serializer is the built-in one, which are written and read
// inline with the same bytes.
//
// The bytes are canonical: parsing them with the generated classes and
// serializing again gives the same bytes (tested), so the proto-level API
// (ModelSerializeImp, GeTensorSerializeUtils) is this codec plus a
// generated parse / serialize.
//
// Where each part lives (all internal, in this package's srcs):
//   graph_writer.cc       EncodeModel, EncodeGraph: GraphDef trees out
//   graph_reader.cc       DecodeModel, DecodeGraph, DecodeModelOpDescs
//   op_desc_codec.{h,cc}  OpDef fields; EncodeOpDesc, DecodeOpDesc
//   tensor_desc_codec.{h,cc}  TensorDescriptor fields, the decoded-desc
//                         cache; EncodeTensorDesc, DecodeTensorDesc
//   attr_codec.{h,cc}     AttrEntry lists <-> attribute stores
//   duplicate_names.{h,cc}  the duplicate-name check of writer and reader
//   codec_common.h        wire primitives, message aliases, shared checks
//
// Example
//   std::string bytes;
//   SerializeContext ctx;
//   RETURN_IF_ERROR(codec::EncodeModel(*graph, ctx, &bytes));
//   DeserializeContext dctx;
//   ASSIGN_OR_RETURN(ComputeGraphPtr back, codec::DecodeModel(bytes, dctx));
#ifndef GRAPH_SERIALIZATION_SRC_GRAPH_CODEC_H_
#define GRAPH_SERIALIZATION_SRC_GRAPH_CODEC_H_

#include <string>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/serialization/inc/model_op_descs.h"
#include "graph/serialization/inc/serialize_context.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace codec {

// ModelDef: graph[0] = graph, then the subgraphs of its tree.
Status EncodeModel(const ComputeGraph& graph, SerializeContext& ctx, std::string* out);
StatusOr<ComputeGraphPtr> DecodeModel(absl::string_view bytes, DeserializeContext& ctx);

// The root graph's OpDescs only (see model_op_descs.h).
StatusOr<ModelOpDescs> DecodeModelOpDescs(absl::string_view bytes, DeserializeContext& ctx);

// A standalone GraphDef with the subgraphs nested.
Status EncodeGraph(const ComputeGraph& graph, SerializeContext& ctx, std::string* out);
StatusOr<ComputeGraphPtr> DecodeGraph(absl::string_view bytes, DeserializeContext& ctx);

// One OpDef without edges.
Status EncodeOpDesc(const OpDesc& op, SerializeContext& ctx, std::string* out);
StatusOr<OpDescPtr> DecodeOpDesc(absl::string_view bytes, DeserializeContext& ctx);

// One TensorDescriptor.
Status EncodeTensorDesc(const GeTensorDesc& desc, SerializeContext& ctx, std::string* out);
Status DecodeTensorDesc(absl::string_view bytes, DeserializeContext& ctx, GeTensorDesc* desc);

}  // namespace codec
}  // namespace ge

#endif  // GRAPH_SERIALIZATION_SRC_GRAPH_CODEC_H_
