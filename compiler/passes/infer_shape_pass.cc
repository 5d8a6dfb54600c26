#include "compiler/passes/infer_shape_pass.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler/passes/const_value_util.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "graph/inc/graph/utils/node_utils.h"
#include "metadef/register/inc/register/op_registry.h"

namespace ge {
namespace {

constexpr int32_t kMaxSubgraphDepth = 32;

// Set for the duration of a lenient Run (InferGraph recurses statically).
thread_local bool g_lenient = false;

bool SameMeta(const GeTensorDesc& a, const GeTensorDesc& b) {
  return a.GetShape() == b.GetShape() && a.GetDataType() == b.GetDataType();
}

// Copies shape and dtype of `src` into `dst`; true when something changed.
bool CopyMeta(const GeTensorDesc& src, GeTensorDesc* dst) {
  if (SameMeta(src, *dst)) return false;
  dst->SetShape(src.GetShape());
  dst->SetDataType(src.GetDataType());
  return true;
}

bool IsIf(const Node& node) { return node.GetType() == IF || node.GetType() == "StatelessIf"; }

// Sets the Data nodes of `sub` from the descs in `parent_descs` (indexed by
// parent node index); true when one changed.
StatusOr<bool> SeedSubgraphData(ComputeGraph& sub, const std::vector<GeTensorDesc>& parent_descs) {
  bool changed = false;
  for (Node* n : sub.GetDirectNodePtr()) {
    if (n->GetType() != DATA) continue;
    OpDesc& op = *n->GetOpDescBarePtr();
    StatusOr<int64_t> idx = AttrUtils::GetInt(op, ATTR_NAME_PARENT_NODE_INDEX);
    if (!idx.ok()) continue;
    if (*idx < 0 || static_cast<size_t>(*idx) >= parent_descs.size()) {
      return GraphInvalid("subgraph '", sub.GetName(), "' Data node ", n->GetName(),
                          " has parent index ", *idx, " but the parent provides ",
                          parent_descs.size(), " inputs");
    }
    const GeTensorDesc& src = parent_descs[static_cast<size_t>(*idx)];
    for (uint32_t i = 0; i < op.GetAllInputsSize(); ++i) {
      GeTensorDescPtr d = op.MutableInputDesc(i);
      if (d != nullptr) changed |= CopyMeta(src, d.get());
    }
    for (uint32_t i = 0; i < op.GetAllOutputsDescSize(); ++i) {
      GeTensorDescPtr d = op.MutableOutputDesc(i);
      if (d != nullptr) changed |= CopyMeta(src, d.get());
    }
  }
  return changed;
}

// Input descs of the NetOutput of `sub`, by NetOutput input index.
std::vector<GeTensorDesc> SubgraphOutputDescs(const ComputeGraph& sub) {
  std::vector<GeTensorDesc> out;
  for (Node* n : sub.GetDirectNodePtr()) {
    if (n->GetType() != NETOUTPUT) continue;
    const OpDesc& op = *n->GetOpDescBarePtr();
    for (uint32_t i = 0; i < op.GetAllInputsSize(); ++i) out.push_back(op.GetInputDesc(i));
    break;
  }
  return out;
}

std::vector<GeTensorDesc> InputDescs(const OpDesc& op, uint32_t first) {
  std::vector<GeTensorDesc> descs;
  for (uint32_t i = first; i < op.GetAllInputsSize(); ++i) descs.push_back(op.GetInputDesc(i));
  return descs;
}

StatusOr<bool> InferIf(Node& node, int32_t depth) {
  OpDesc& op = *node.GetOpDescBarePtr();
  const std::vector<GeTensorDesc> ins = InputDescs(op, 0);  // parent index = input index
  bool changed = false;
  std::vector<std::vector<GeTensorDesc>> branch_outs;
  for (uint32_t b = 0; b < op.GetSubgraphInstanceNames().size(); ++b) {
    ComputeGraphPtr sub = NodeUtils::GetSubgraph(node, b);
    if (sub == nullptr) {
      return NotFound("If node ", node.GetName(), " has no subgraph ", b);
    }
    ASSIGN_OR_RETURN(bool seeded, SeedSubgraphData(*sub, ins));
    ASSIGN_OR_RETURN(bool inner, InferShapePass::InferGraph(*sub, depth + 1));
    changed |= seeded || inner;
    branch_outs.push_back(SubgraphOutputDescs(*sub));
  }
  if (branch_outs.empty()) return changed;
  for (uint32_t k = 0; k < op.GetAllOutputsDescSize(); ++k) {
    bool have = false;
    GeTensorDesc merged;
    for (const std::vector<GeTensorDesc>& outs : branch_outs) {
      if (k >= outs.size()) {
        return GraphInvalid("If node ", node.GetName(), " has output ", k,
                            " but a branch returns only ", outs.size(), " values");
      }
      merged = have ? InferShapePass::MergeDescs(merged, outs[k]) : outs[k];
      have = true;
    }
    GeTensorDescPtr d = op.MutableOutputDesc(k);
    if (d != nullptr) changed |= CopyMeta(merged, d.get());
  }
  return changed;
}

// ONNX Loop: inputs [M, cond, v...], body inputs [iter, cond, v...] (Data
// parent index = body input index), body outputs [cond, v..., scans...].
// The carried shapes are merged with the body's outputs until stable.
// Shapes and data types of every desc of the direct nodes of `graph`.
std::vector<std::pair<GeShape, DataType>> DescSignature(const ComputeGraph& graph) {
  std::vector<std::pair<GeShape, DataType>> sig;
  for (Node* n : graph.GetDirectNodePtr()) {
    const OpDesc& op = *n->GetOpDescBarePtr();
    for (uint32_t i = 0; i < op.GetAllInputsSize(); ++i) {
      const GeTensorDesc* d = op.GetInputDescBarePtr(i);
      if (d != nullptr) sig.emplace_back(d->GetShape(), d->GetDataType());
    }
    for (uint32_t i = 0; i < op.GetAllOutputsDescSize(); ++i) {
      const GeTensorDesc* d = op.GetOutputDescBarePtr(i);
      if (d != nullptr) sig.emplace_back(d->GetShape(), d->GetDataType());
    }
  }
  return sig;
}

StatusOr<bool> InferLoopIterations(Node& node, int32_t depth);

// The fixed point re-seeds the body from the loop inputs, so intermediate
// rounds change descs even when the end result is the same: "changed" is
// the body's descs and the Loop's outputs compared before / after.
StatusOr<bool> InferLoop(Node& node, int32_t depth) {
  ComputeGraphPtr body = NodeUtils::GetSubgraph(node, 0);
  if (body == nullptr) return NotFound("Loop node ", node.GetName(), " has no body subgraph");
  const auto before = DescSignature(*body);
  const std::vector<GeTensorDesc> outs_before = node.GetOpDescBarePtr()->GetAllOutputsDesc();
  ASSIGN_OR_RETURN(bool any, InferLoopIterations(node, depth));
  if (!any) return false;
  if (DescSignature(*body) != before) return true;
  const std::vector<GeTensorDesc> outs_after = node.GetOpDescBarePtr()->GetAllOutputsDesc();
  for (size_t i = 0; i < outs_before.size() && i < outs_after.size(); ++i) {
    if (!SameMeta(outs_before[i], outs_after[i])) return true;
  }
  return false;
}

StatusOr<bool> InferLoopIterations(Node& node, int32_t depth) {
  OpDesc& op = *node.GetOpDescBarePtr();
  ComputeGraphPtr body = NodeUtils::GetSubgraph(node, 0);
  if (body == nullptr) return NotFound("Loop node ", node.GetName(), " has no body subgraph");
  const uint32_t n_in = static_cast<uint32_t>(op.GetAllInputsSize());
  const size_t n = n_in > 2 ? n_in - 2 : 0;
  std::vector<GeTensorDesc> carried = InputDescs(op, 2);
  std::vector<GeTensorDesc> body_outs;
  bool changed = false;
  bool stable = false;
  int32_t iterations = 0;
  for (; iterations < InferShapePass::kMaxLoopIterations && !stable; ++iterations) {
    std::vector<GeTensorDesc> body_in;
    body_in.emplace_back(GeShape(), FORMAT_ND, DT_INT64);
    body_in.emplace_back(GeShape(), FORMAT_ND, DT_BOOL);
    body_in.insert(body_in.end(), carried.begin(), carried.end());
    ASSIGN_OR_RETURN(bool seeded, SeedSubgraphData(*body, body_in));
    ASSIGN_OR_RETURN(bool inner, InferShapePass::InferGraph(*body, depth + 1));
    changed |= seeded || inner;
    body_outs = SubgraphOutputDescs(*body);
    if (body_outs.size() < 1 + n) {
      return GraphInvalid("Loop node ", node.GetName(), ": body returns ", body_outs.size(),
                          " values, expected at least ", 1 + n, " (cond + carried)");
    }
    stable = true;
    for (size_t j = 0; j < n; ++j) {
      GeTensorDesc merged = InferShapePass::MergeDescs(carried[j], body_outs[1 + j]);
      if (merged.GetShape() != carried[j].GetShape()) {
        stable = false;
        carried[j] = merged;
      }
    }
  }
  if (!stable) {
    return Internal("Loop node ", node.GetName(), ": body shapes did not reach a fixed point after ",
                    InferShapePass::kMaxLoopIterations, " iterations");
  }
  for (uint32_t k = 0; k < op.GetAllOutputsDescSize(); ++k) {
    GeTensorDesc d;
    if (k < n) {
      d = carried[k];
    } else if (1 + k < body_outs.size()) {  // scan output: [-1] + element shape
      d = body_outs[1 + k];
      GeShape s = d.GetShape();
      if (!s.IsUnknownDimNum()) {
        std::vector<int64_t> dims = {-1};
        for (int64_t v : s.GetDims()) dims.push_back(v);
        d.SetShape(GeShape(dims));
      }
    } else {
      continue;
    }
    GeTensorDescPtr out = op.MutableOutputDesc(k);
    if (out != nullptr) changed |= CopyMeta(d, out.get());
  }
  return changed;
}

// Subgraph owners other than If: their subgraphs' Data nodes get the
// parent's input descs (parent index = input index), then are inferred.
StatusOr<bool> InferOtherSubgraphs(Node& node, int32_t depth) {
  OpDesc& op = *node.GetOpDescBarePtr();
  bool changed = false;
  const std::vector<GeTensorDesc> ins = InputDescs(op, 0);
  for (uint32_t b = 0; b < op.GetSubgraphInstanceNames().size(); ++b) {
    ComputeGraphPtr sub = NodeUtils::GetSubgraph(node, b);
    if (sub == nullptr) continue;
    StatusOr<bool> seeded = SeedSubgraphData(*sub, ins);
    if (seeded.ok()) changed |= *seeded;  // bodies may use their own indexing
    ASSIGN_OR_RETURN(bool inner, InferShapePass::InferGraph(*sub, depth + 1));
    changed |= inner;
  }
  return changed;
}

StatusOr<bool> InferRegistered(Node& node) {
  OpDesc& op = *node.GetOpDescBarePtr();
  const OpRegistrationData* reg = OpRegistry::Instance().Find(node.GetType());
  if (reg == nullptr) return false;
  std::vector<gert::HostTensor> values(node.GetAllInDataAnchorsSize());
  std::vector<const gert::Tensor*> const_inputs(values.size(), nullptr);
  for (size_t i = 0; i < values.size(); ++i) {
    StatusOr<gert::HostTensor> v = GetConstInputValue(node, static_cast<int32_t>(i));
    if (!v.ok()) continue;
    values[i] = std::move(v).value();
    const_inputs[i] = &values[i].tensor();
  }
  const std::vector<GeTensorDesc> before = op.GetAllOutputsDesc();
  RETURN_IF_ERROR(Annotate(InferShapeAndTypeForOpDesc(op, const_inputs), "InferShapePass: "));
  const std::vector<GeTensorDesc> after = op.GetAllOutputsDesc();
  for (size_t i = 0; i < before.size() && i < after.size(); ++i) {
    if (!SameMeta(before[i], after[i])) return true;
  }
  return false;
}

}  // namespace

GeTensorDesc InferShapePass::MergeDescs(const GeTensorDesc& a, const GeTensorDesc& b) {
  GeTensorDesc out = a;
  const GeShape& sa = a.GetShape();
  const GeShape& sb = b.GetShape();
  if (sa == sb) return out;
  GeShape merged;
  if (sa.IsUnknownDimNum() || sb.IsUnknownDimNum() || sa.GetDimNum() != sb.GetDimNum()) {
    merged.SetIsUnknownDimNum();
  } else {
    std::vector<int64_t> dims = sa.GetDims();
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] != sb.GetDim(i)) dims[i] = -1;
    }
    merged.SetDims(dims);
  }
  out.SetShape(merged);
  return out;
}

StatusOr<bool> InferShapePass::InferGraph(ComputeGraph& graph, int32_t depth) {
  if (depth > kMaxSubgraphDepth) {
    return OutOfRange("InferShapePass: subgraph nesting deeper than ", kMaxSubgraphDepth,
                      " at graph '", graph.GetName(), "'");
  }
  ASSIGN_OR_RETURN(std::vector<NodePtr> order, StableTopologicalOrder(graph));
  bool changed = false;
  for (const NodePtr& node : order) {
    OpDesc& op = *node->GetOpDescBarePtr();
    // Refresh input descs from the producers.
    for (uint32_t i = 0; i < node->GetAllInDataAnchorsSize(); ++i) {
      InDataAnchor* in = node->GetInDataAnchorBarePtr(static_cast<int32_t>(i));
      OutDataAnchor* peer = in == nullptr ? nullptr : in->GetPeerOutAnchorPtr();
      if (peer == nullptr) continue;
      const GeTensorDesc* src =
          peer->GetOwnerNodeBarePtr()->GetOpDescBarePtr()->GetOutputDescBarePtr(
              static_cast<uint32_t>(peer->GetIdx()));
      GeTensorDescPtr dst = op.MutableInputDesc(i);
      if (src != nullptr && dst != nullptr) changed |= CopyMeta(*src, dst.get());
    }
    const std::string& type = node->GetType();
    if (IsConstNode(*node)) {
      StatusOr<GeTensor> w = [&]() -> StatusOr<GeTensor> {
        const AttrValue* attr = op.GetAttr(ATTR_NAME_WEIGHTS);
        if (attr == nullptr || attr->Get<GeTensor>() == nullptr) {
          return NotFound("Const ", node->GetName(), " has no tensor value");
        }
        return *attr->Get<GeTensor>();
      }();
      GeTensorDescPtr d = op.MutableOutputDesc(0);
      if (w.ok() && d != nullptr) changed |= CopyMeta(w->GetTensorDesc(), d.get());
      continue;
    }
    if (type == DATA || type == NETOUTPUT) continue;
    StatusOr<bool> r = false;
    if (IsIf(*node)) {
      r = InferIf(*node, depth);
    } else if (type == "Loop") {
      r = InferLoop(*node, depth);
    } else {
      if (!op.GetSubgraphInstanceNames().empty() && type != "SequenceMap") {
        // (SequenceMap bodies take sequence elements, not the parent's
        // inputs: they are left to the executor.)
        ASSIGN_OR_RETURN(bool sub_changed, InferOtherSubgraphs(*node, depth));
        changed |= sub_changed;
      }
      r = InferRegistered(*node);
    }
    if (!r.ok() && g_lenient && GetErrorCode(r.status()) != ErrorCode::kGraphInvalid &&
        GetErrorCode(r.status()) != ErrorCode::kOutOfRange) {
      continue;  // keep the node's descs
    }
    if (!r.ok()) return Annotate(r.status(), "graph '", graph.GetName(), "': ");
    changed |= *r;
  }
  return changed;
}

StatusOr<bool> InferShapePass::RunImpl(const ComputeGraphPtr& graph) {
  if (graph == nullptr) return ParamInvalid("InferShapePass: null graph");
  const bool saved = g_lenient;
  g_lenient = lenient_;
  StatusOr<bool> r = InferGraph(*graph, 0);
  g_lenient = saved;
  return r;
}

}  // namespace ge
