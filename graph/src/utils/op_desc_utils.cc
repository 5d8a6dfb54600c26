// graph/src/utils/op_desc_utils.cc
#include "graph/inc/graph/utils/op_desc_utils.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

Status OpDescUtils::SetSubgraphInstanceName(const std::string& subgraph_name,
                                            const std::string& instance_name, OpDesc& op_desc) {
  const auto indexes = op_desc.GetSubgraphNameIndexes();
  auto it = indexes.find(subgraph_name);
  if (it == indexes.end()) {
    return NotFound("op ", op_desc.DebugString(), " has no subgraph named '", subgraph_name, "'");
  }
  return op_desc.SetSubgraphInstanceName(it->second, instance_name);
}

Status OpDescUtils::ClearInputDesc(OpDesc& op_desc, uint32_t index) {
  return op_desc.RemoveInputDesc(index);
}

Status OpDescUtils::ClearOutputDesc(OpDesc& op_desc, uint32_t index) {
  return op_desc.RemoveOutputDesc(index);
}

Status OpDescUtils::ClearUnlinkedInputDescs(const NodePtr& node) {
  if (node == nullptr) return ParamInvalid("ClearUnlinkedInputDescs: null node");
  OpDesc& op = *node->GetOpDescBarePtr();
  const uint32_t n = static_cast<uint32_t>(node->GetAllInDataAnchorsSize());
  if (op.GetAllInputsSize() != n) {
    return ParamInvalid("node ", node->DebugString(), " has ", op.GetAllInputsSize(),
                        " input descs but ", n, " input anchors");
  }
  std::vector<bool> linked(n, false);
  std::vector<OutDataAnchor*> producers;  // of the linked inputs, in order
  for (uint32_t i = 0; i < n; ++i) {
    InDataAnchor* in = node->GetInDataAnchorBarePtr(static_cast<int32_t>(i));
    if (!in->IsLinked()) continue;
    if (in->GetPeerOutAnchorPtr() == nullptr) {
      return NotSupported("node ", node->DebugString(), ": input ", i,
                          " is fed by a control anchor; cannot renumber it");
    }
    linked[i] = true;
    producers.push_back(in->GetPeerOutAnchorPtr());
  }
  if (producers.size() == n) return OkStatus();
  // Linked inputs move down: unlink them, drop the unlinked slots, relink.
  for (uint32_t i = 0; i < n; ++i) {
    if (linked[i]) node->GetInDataAnchorBarePtr(static_cast<int32_t>(i))->UnlinkAll();
  }
  for (uint32_t i = n; i-- > 0;) {
    if (!linked[i]) RETURN_IF_ERROR(op.RemoveInputDesc(i));
  }
  RETURN_IF_ERROR(node->RemoveInDataAnchors(n - producers.size()));
  for (size_t k = 0; k < producers.size(); ++k) {
    RETURN_IF_ERROR(producers[k]->LinkTo(node->GetInDataAnchorBarePtr(static_cast<int32_t>(k))));
  }
  return OkStatus();
}

StatusOr<OpDescPtr> OpDescUtils::CopyOpDesc(const ConstOpDescPtr& op_desc) {
  if (op_desc == nullptr) return ParamInvalid("CopyOpDesc: null OpDesc");
  return std::make_shared<OpDesc>(*op_desc);
}

StatusOr<GeTensor> OpDescUtils::GetWeights(const OpDesc& op_desc) {
  auto weights = AttrUtils::GetTensor(op_desc, ATTR_NAME_WEIGHTS);
  if (!weights.ok()) return Annotate(weights.status(), "weights of ", op_desc.DebugString(), ": ");
  return weights;
}

Status OpDescUtils::SetWeights(OpDesc& op_desc, const GeTensor& weights) {
  return AttrUtils::SetTensor(op_desc, ATTR_NAME_WEIGHTS, weights);
}

}  // namespace ge
