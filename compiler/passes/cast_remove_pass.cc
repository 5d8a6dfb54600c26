// compiler/passes/cast_remove_pass.cc
#include "compiler/passes/cast_remove_pass.h"

#include <optional>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/passes/pass_utils.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/op_desc.h"

namespace ge {
namespace {

constexpr char kCastType[] = "Cast";
constexpr char kToAttr[] = "to";

// Exact widenings (the same type is handled separately).
const absl::flat_hash_map<DataType, absl::flat_hash_set<DataType>>& Widenings() {
  static const auto* m = new absl::flat_hash_map<DataType, absl::flat_hash_set<DataType>>{
      {DT_BOOL,
       {DT_INT8, DT_UINT8, DT_INT16, DT_UINT16, DT_INT32, DT_UINT32, DT_INT64, DT_UINT64,
        DT_FLOAT16, DT_BF16, DT_FLOAT, DT_DOUBLE}},
      {DT_INT8, {DT_INT16, DT_INT32, DT_INT64, DT_FLOAT16, DT_BF16, DT_FLOAT, DT_DOUBLE}},
      {DT_UINT8,
       {DT_INT16, DT_UINT16, DT_INT32, DT_UINT32, DT_INT64, DT_UINT64, DT_FLOAT16, DT_BF16,
        DT_FLOAT, DT_DOUBLE}},
      {DT_INT16, {DT_INT32, DT_INT64, DT_FLOAT, DT_DOUBLE}},
      {DT_UINT16, {DT_INT32, DT_UINT32, DT_INT64, DT_UINT64, DT_FLOAT, DT_DOUBLE}},
      {DT_INT32, {DT_INT64, DT_DOUBLE}},
      {DT_UINT32, {DT_INT64, DT_UINT64, DT_DOUBLE}},
      {DT_FLOAT16, {DT_FLOAT, DT_DOUBLE}},
      {DT_BF16, {DT_FLOAT, DT_DOUBLE}},
      {DT_FLOAT, {DT_DOUBLE}},
  };
  return *m;
}

bool IsCastNumeric(DataType dt) {
  return dt == DT_BOOL || Widenings().contains(dt) || dt == DT_INT64 || dt == DT_UINT64 ||
         dt == DT_DOUBLE;
}

// The types of a Cast node when its descs agree with its producer:
// (input type, target type).
struct CastTypes {
  DataType from;
  DataType to;
};

std::optional<CastTypes> ConsistentCast(const Node& cast) {
  if (cast.GetType() != kCastType || cast.GetAllInDataAnchorsSize() != 1 ||
      cast.GetAllOutDataAnchorsSize() != 1) {
    return std::nullopt;
  }
  const OutDataAnchor* producer = ProducerOf(cast, 0);
  if (producer == nullptr) return std::nullopt;
  const OpDesc& op = *cast.GetOpDescBarePtr();
  const GeTensorDesc* produced =
      producer->GetOwnerNodeBarePtr()->GetOpDescBarePtr()->GetOutputDescBarePtr(
          static_cast<uint32_t>(producer->GetIdx()));
  const GeTensorDesc* in = op.GetInputDescBarePtr(0);
  const GeTensorDesc* out = op.GetOutputDescBarePtr(0);
  const std::optional<DataType> to = DataTypeAttr(op, kToAttr);
  if (produced == nullptr || in == nullptr || out == nullptr || !to.has_value()) {
    return std::nullopt;
  }
  const DataType from = in->GetDataType();
  if (produced->GetDataType() != from || out->GetDataType() != *to || from == DT_UNDEFINED) {
    return std::nullopt;
  }
  return CastTypes{from, *to};
}

}  // namespace

bool IsLosslessCast(DataType from, DataType to) {
  if (from == to) return IsCastNumeric(from);
  auto it = Widenings().find(from);
  return it != Widenings().end() && it->second.contains(to);
}

Status CastRemovePass::RunImpl(const NodePtr& node) {
  const std::optional<CastTypes> outer = ConsistentCast(*node);
  if (!outer.has_value()) return OkStatus();

  // 1. Same type.
  if (outer->from == outer->to) return rewriter().RemoveNode(node);

  // 2 / 3. A Cast feeding this one.
  OutDataAnchor* mid = ProducerOf(*node, 0);
  const NodePtr inner = mid->GetOwnerNodeBarePtr()->shared_from_this();
  const std::optional<CastTypes> first = ConsistentCast(*inner);
  if (!first.has_value()) return OkStatus();
  const DataType a = first->from;
  const DataType b = first->to;
  const DataType c = outer->to;
  if (b != outer->from || !IsLosslessCast(a, b)) return OkStatus();
  const OutDataAnchorPtr x = ProducerOf(*inner, 0)->GetOwnerNodeBarePtr()->GetOutDataAnchor(
      ProducerOf(*inner, 0)->GetIdx());

  if (c != a && !IsLosslessCast(a, c)) return OkStatus();

  // Read x directly: the Cast becomes x: A -> C, and for C == A it is gone
  // (bypassed, its control edges folded onto the neighbours).
  GraphRewriter& rw = rewriter();
  RETURN_IF_ERROR(rw.ReplaceInput(node->GetInDataAnchor(0), x));
  GeTensorDesc in_desc = node->GetOpDescBarePtr()->GetInputDesc(0);
  in_desc.SetDataType(a);
  in_desc.SetOriginDataType(a);
  RETURN_IF_ERROR(rw.UpdateInputDesc(node, 0, in_desc));
  if (c == a) {
    RETURN_IF_ERROR(rw.RemoveNode(node));
  } else {
    AddImmediateRePassNode(node);
  }
  // The inner Cast may have lost its last consumer.
  const ComputeGraph& graph = *rw.graph();
  bool used = inner->GetOutDataAnchorBarePtr(0)->IsLinked() ||
              inner->GetOutControlAnchorBarePtr()->IsLinked();
  for (const auto& entry : graph.GetGraphOutNodesInfo()) used = used || entry.first == inner;
  if (!used && graph.HasNode(inner)) RETURN_IF_ERROR(rw.RemoveDeadNode(inner));
  return OkStatus();
}

GE_REGISTER_NODE_PASS(CastRemovePass);

}  // namespace ge
