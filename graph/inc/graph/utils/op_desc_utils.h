// graph/inc/graph/utils/op_desc_utils.h
//
// OpDescUtils: stateless helpers on OpDesc (GE's OpDescUtils).
//
// Example
//   RETURN_IF_ERROR(OpDescUtils::SetSubgraphInstanceName("then_branch", "if_then", *if_op));
//   ASSIGN_OR_RETURN(OpDescPtr copy, OpDescUtils::CopyOpDesc(op));
#ifndef GRAPH_INC_GRAPH_UTILS_OP_DESC_UTILS_H_
#define GRAPH_INC_GRAPH_UTILS_OP_DESC_UTILS_H_

#include <cstdint>
#include <string>

#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/graph_fwd.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

class OpDescUtils {
 public:
  // Binds the IR subgraph slot `subgraph_name` (OpDesc::AddSubgraphName) to
  // the graph instance `instance_name`. NotFound for an unknown slot name.
  static Status SetSubgraphInstanceName(const std::string& subgraph_name,
                                        const std::string& instance_name, OpDesc& op_desc);
  // Removes input / output `index`, shifting the later ones (names move with
  // their descs). OutOfRange for a bad index.
  static Status ClearInputDesc(OpDesc& op_desc, uint32_t index);
  static Status ClearOutputDesc(OpDesc& op_desc, uint32_t index);
  // Removes the input descs (and anchors) of `node` whose anchors are not
  // linked, from the last one down. Linked inputs keep their relative order.
  static Status ClearUnlinkedInputDescs(const NodePtr& node);
  // Deep copy (see OpDesc's copy constructor). ParamInvalid for null.
  static StatusOr<OpDescPtr> CopyOpDesc(const ConstOpDescPtr& op_desc);
  // The weights of a Const node: its ATTR_NAME_WEIGHTS tensor attribute.
  static StatusOr<GeTensor> GetWeights(const OpDesc& op_desc);
  static Status SetWeights(OpDesc& op_desc, const GeTensor& weights);
};

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_UTILS_OP_DESC_UTILS_H_
