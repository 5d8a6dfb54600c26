// compiler/passes/reshape_remove_pass.cc
#include "compiler/passes/reshape_remove_pass.h"

#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/passes/pass_utils.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/op_desc.h"

namespace ge {
namespace {

constexpr char kReshapeType[] = "Reshape";

bool AllowZero(const OpDesc& op) {
  const AttrValue* v = op.GetAttr("allowzero");
  if (v == nullptr) return false;
  if (const int64_t* i = v->Get<int64_t>()) return *i != 0;
  if (const bool* b = v->Get<bool>()) return *b;
  return false;
}

// The shape of Reshape input 0 when the producer's output desc and the
// input desc agree and it is static.
std::optional<GeShape> StaticInputShape(const Node& reshape) {
  const OutDataAnchor* producer = ProducerOf(reshape, 0);
  if (producer == nullptr) return std::nullopt;
  const GeTensorDesc* produced =
      producer->GetOwnerNodeBarePtr()->GetOpDescBarePtr()->GetOutputDescBarePtr(
          static_cast<uint32_t>(producer->GetIdx()));
  const GeTensorDesc* in = reshape.GetOpDescBarePtr()->GetInputDescBarePtr(0);
  if (produced == nullptr || in == nullptr) return std::nullopt;
  if (produced->GetShape() != in->GetShape() || produced->GetDataType() != in->GetDataType() ||
      !IsStaticShape(in->GetShape())) {
    return std::nullopt;
  }
  return in->GetShape();
}

bool IsReshape(const Node& node) {
  return node.GetType() == kReshapeType && node.GetAllInDataAnchorsSize() == 2 &&
         node.GetAllOutDataAnchorsSize() == 1;
}

}  // namespace

std::optional<GeShape> ResolveReshapeTarget(const GeShape& in, const std::vector<int64_t>& target,
                                            bool allowzero) {
  StatusOr<int64_t> total = in.GetShapeSize();
  if (!IsStaticShape(in) || !total.ok()) return std::nullopt;
  std::vector<int64_t> dims(target.size());
  int64_t known = 1;
  int infer = -1;
  for (size_t i = 0; i < target.size(); ++i) {
    int64_t d = target[i];
    if (d == 0 && !allowzero) {
      if (i >= in.GetDimNum()) return std::nullopt;
      d = in.GetDim(i);
    }
    if (d == -1) {
      if (infer >= 0) return std::nullopt;
      infer = static_cast<int>(i);
      continue;
    }
    if (d < 0) return std::nullopt;
    dims[i] = d;
    if (d != 0 && known > INT64_MAX / d) return std::nullopt;
    known *= d;
  }
  if (infer >= 0) {
    if (known == 0 || *total % known != 0) return std::nullopt;
    dims[static_cast<size_t>(infer)] = *total / known;
  } else if (known != *total) {
    return std::nullopt;
  }
  return GeShape(dims);
}

Status ReshapeRemovePass::RunImpl(const NodePtr& node) {
  if (!IsReshape(*node)) return OkStatus();
  const OpDesc& op = *node->GetOpDescBarePtr();
  const std::optional<std::vector<int64_t>> target = ConstIntInput(*node, 1);

  // 1. A Reshape that keeps its input's shape.
  const std::optional<GeShape> in_shape = StaticInputShape(*node);
  const GeTensorDesc* out = op.GetOutputDescBarePtr(0);
  if (in_shape.has_value() && out != nullptr && out->GetShape() == *in_shape &&
      out->GetDataType() == op.GetInputDescBarePtr(0)->GetDataType()) {
    const bool target_agrees =
        !target.has_value() || ResolveReshapeTarget(*in_shape, *target, AllowZero(op)) == in_shape;
    if (target_agrees) return rewriter().RemoveNode(node, {0});
  }

  // 2. Reshape(Reshape(x, s1), s2) with s2 independent of its input's dims.
  if (!target.has_value()) return OkStatus();
  if (!AllowZero(op)) {
    for (int64_t d : *target) {
      if (d == 0) return OkStatus();
    }
  }
  OutDataAnchor* mid = ProducerOf(*node, 0);
  if (mid == nullptr) return OkStatus();
  const NodePtr inner = mid->GetOwnerNodeBarePtr()->shared_from_this();
  if (!IsReshape(*inner)) return OkStatus();
  OutDataAnchor* x = ProducerOf(*inner, 0);
  if (x == nullptr) return OkStatus();
  const OutDataAnchorPtr x_ptr = x->GetOwnerNodeBarePtr()->GetOutDataAnchor(x->GetIdx());

  GraphRewriter& rw = rewriter();
  RETURN_IF_ERROR(rw.ReplaceInput(node->GetInDataAnchor(0), x_ptr));
  RETURN_IF_ERROR(rw.UpdateInputDesc(node, 0, inner->GetOpDescBarePtr()->GetInputDesc(0)));
  AddImmediateRePassNode(node);

  bool used = inner->GetOutDataAnchorBarePtr(0)->IsLinked() ||
              inner->GetOutControlAnchorBarePtr()->IsLinked();
  for (const auto& entry : rw.graph()->GetGraphOutNodesInfo()) {
    used = used || entry.first == inner;
  }
  if (!used && rw.graph()->HasNode(inner)) RETURN_IF_ERROR(rw.RemoveDeadNode(inner));
  return OkStatus();
}

GE_REGISTER_NODE_PASS(ReshapeRemovePass);

}  // namespace ge
