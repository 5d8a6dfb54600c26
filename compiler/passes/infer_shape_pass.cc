#include "compiler/passes/infer_shape_pass.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
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

// The meta inference propagates: shape, data type and shape range.
bool SameMeta(const GeTensorDesc& a, const GeTensorDesc& b) {
  return a.GetShape() == b.GetShape() && a.GetDataType() == b.GetDataType() &&
         a.GetShapeRange() == b.GetShapeRange();
}

// Copies shape, dtype and shape range of `src` into `dst`; true when
// something changed. A range that does not fit the shape (it cannot be set)
// is dropped.
bool CopyMeta(const GeTensorDesc& src, GeTensorDesc* dst) {
  if (SameMeta(src, *dst)) return false;
  dst->SetShape(src.GetShape());
  dst->SetDataType(src.GetDataType());
  if (dst->GetShapeRange() != src.GetShapeRange() && !dst->SetShapeRange(src.GetShapeRange()).ok()) {
    (void)dst->SetShapeRange({});
  }
  return true;
}

// Makes input (or output) `index` of `op` carry the meta of `*src`; true
// when it changed.
bool RefreshDesc(const GeTensorDesc* src, OpDesc& op, uint32_t index, bool output) {
  // The desc is owned by `op`, which this pass edits (the bare pointer
  // saves MutableInputDesc's shared_ptr copy).
  GeTensorDesc* dst = const_cast<GeTensorDesc*>(output ? op.GetOutputDescBarePtr(index)
                                                       : op.GetInputDescBarePtr(index));
  if (dst == nullptr || src == nullptr) return false;
  return CopyMeta(*src, dst);
}

// Snapshot of the meta of a node's output descs (change detection without
// copying whole descs).
struct OutputMeta {
  GeShape shape;
  DataType dtype = DT_UNDEFINED;
  GeTensorDesc::ShapeRange range;
};
using OutputMetas = absl::InlinedVector<OutputMeta, 2>;

void SnapshotOutputs(const OpDesc& op, OutputMetas* out) {
  out->clear();
  const uint32_t n = static_cast<uint32_t>(op.GetAllOutputsDescSize());
  for (uint32_t i = 0; i < n; ++i) {
    const GeTensorDesc* d = op.GetOutputDescBarePtr(i);
    OutputMeta m;
    if (d != nullptr) {
      m.shape = d->GetShape();
      m.dtype = d->GetDataType();
      m.range = d->GetShapeRange();
    }
    out->push_back(std::move(m));
  }
}

bool OutputsChanged(const OpDesc& op, const OutputMetas& before) {
  const uint32_t n = static_cast<uint32_t>(op.GetAllOutputsDescSize());
  if (n != before.size()) return true;
  for (uint32_t i = 0; i < n; ++i) {
    const GeTensorDesc* d = op.GetOutputDescBarePtr(i);
    if (d == nullptr) continue;
    const OutputMeta& m = before[i];
    if (d->GetShape() != m.shape || d->GetDataType() != m.dtype || d->GetShapeRange() != m.range) {
      return true;
    }
  }
  return false;
}

// The range of dim i of `d`: its recorded range, else the dim itself.
std::pair<int64_t, int64_t> DimRangeAt(const GeTensorDesc& d, size_t i) {
  const GeTensorDesc::ShapeRange& r = d.GetShapeRange();
  if (i < r.size()) return r[i];
  const int64_t dim = d.GetShape().GetDim(i);
  return dim >= 0 ? std::make_pair(dim, dim) : std::make_pair(int64_t{0}, int64_t{-1});
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
struct DescSig {
  GeShape shape;
  DataType dtype;
  GeTensorDesc::ShapeRange range;
  bool operator==(const DescSig& o) const {
    return shape == o.shape && dtype == o.dtype && range == o.range;
  }
  bool operator!=(const DescSig& o) const { return !(*this == o); }
};
std::vector<DescSig> DescSignature(const ComputeGraph& graph) {
  std::vector<DescSig> sig;
  for (Node* n : graph.GetDirectNodePtr()) {
    const OpDesc& op = *n->GetOpDescBarePtr();
    for (uint32_t i = 0; i < op.GetAllInputsSize(); ++i) {
      const GeTensorDesc* d = op.GetInputDescBarePtr(i);
      if (d != nullptr) sig.push_back({d->GetShape(), d->GetDataType(), d->GetShapeRange()});
    }
    for (uint32_t i = 0; i < op.GetAllOutputsDescSize(); ++i) {
      const GeTensorDesc* d = op.GetOutputDescBarePtr(i);
      if (d != nullptr) sig.push_back({d->GetShape(), d->GetDataType(), d->GetShapeRange()});
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
      GeTensorDesc merged = InferShapePass::WidenDescs(carried[j], body_outs[1 + j]);
      if (!SameMeta(merged, carried[j])) {
        stable = false;
        carried[j] = std::move(merged);
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

thread_local InferShapeMemo* g_memo = nullptr;

inline uint64_t Mix(uint64_t h, uint64_t v) {
  // splitmix64 step over the running hash.
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 31;
  h *= 0xbf58476d1ce4e5b9ULL;
  return h ^ (h >> 29);
}

uint64_t MixDesc(uint64_t h, const GeTensorDesc* d) {
  if (d == nullptr) return Mix(h, 0x5a5a);
  h = Mix(h, static_cast<uint64_t>(d->GetDataType()));
  const absl::Span<const int64_t> dims = d->GetShape().GetDimsSpan();
  h = Mix(h, dims.size());
  for (int64_t v : dims) h = Mix(h, static_cast<uint64_t>(v));
  for (const auto& [lo, hi] : d->GetShapeRange()) {
    h = Mix(h, static_cast<uint64_t>(lo));
    h = Mix(h, static_cast<uint64_t>(hi));
  }
  return h;
}

// The memo signature of a node without subgraphs (see InferShapeMemo).
uint64_t NodeSignature(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  uint64_t h = Mix(0, reinterpret_cast<uintptr_t>(op.GetInternedType()));
  const uint32_t n_in = static_cast<uint32_t>(node.GetAllInDataAnchorsSize());
  h = Mix(h, n_in);
  for (uint32_t i = 0; i < n_in; ++i) {
    const InDataAnchor* in = node.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
    const OutDataAnchor* peer = in == nullptr ? nullptr : in->GetPeerOutAnchorPtr();
    h = Mix(h, reinterpret_cast<uintptr_t>(peer == nullptr ? nullptr : peer->GetOwnerNodeBarePtr()));
    h = Mix(h, peer == nullptr ? 0 : static_cast<uint64_t>(peer->GetIdx()));
    h = MixDesc(h, op.GetInputDescBarePtr(i));
  }
  const uint32_t n_out = static_cast<uint32_t>(op.GetAllOutputsDescSize());
  h = Mix(h, n_out);
  for (uint32_t i = 0; i < n_out; ++i) h = MixDesc(h, op.GetOutputDescBarePtr(i));
  return h;
}

// Producer node of data input i, or null.
const Node* ProducerNode(const Node& node, uint32_t i) {
  const InDataAnchor* in = node.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
  const OutDataAnchor* peer = in == nullptr ? nullptr : in->GetPeerOutAnchorPtr();
  return peer == nullptr ? nullptr : peer->GetOwnerNodeBarePtr();
}

// Per-graph scratch of InferRegistered (reused node to node).
struct InferScratch {
  OutputMetas metas;
  std::vector<gert::Tensor> views;
  std::vector<const gert::Tensor*> const_inputs;
};

StatusOr<bool> InferRegistered(Node& node, InferScratch* scratch) {
  OpDesc& op = *node.GetOpDescBarePtr();
  InferShapeMemo* memo = g_memo;
  // (The signature is only computed for nodes inferred before.)
  if (memo != nullptr && memo->Has(&op) && memo->Matches(&op, NodeSignature(node))) return false;
  const OpRegistrationData* reg = OpRegistry::Instance().Find(node.GetType());
  if (reg == nullptr) return false;
  const uint32_t n_in = static_cast<uint32_t>(node.GetAllInDataAnchorsSize());
  bool any_const = false;
  for (uint32_t i = 0; i < n_in && !any_const; ++i) {
    const Node* p = ProducerNode(node, i);
    any_const = p != nullptr && IsConstNode(*p);
  }
  // Views of the Const producers' values (no copy; most nodes have none).
  std::vector<gert::Tensor>& views = scratch->views;
  std::vector<const gert::Tensor*>& const_inputs = scratch->const_inputs;
  const_inputs.clear();
  if (any_const) {
    views.assign(n_in, gert::Tensor());  // sized first: the pointers stay put
    const_inputs.assign(n_in, nullptr);
    for (uint32_t i = 0; i < n_in; ++i) {
      const Node* p = ProducerNode(node, i);
      if (p == nullptr || !IsConstNode(*p)) continue;
      StatusOr<gert::Tensor> v = GetConstInputView(node, static_cast<int32_t>(i));
      if (!v.ok()) continue;
      views[i] = *v;
      const_inputs[i] = &views[i];
    }
  }
  SnapshotOutputs(op, &scratch->metas);
  RETURN_IF_ERROR(Annotate(InferShapeAndTypeForOpDesc(op, const_inputs), "InferShapePass: "));
  const bool changed = OutputsChanged(op, scratch->metas);
  if (memo != nullptr && memo->recording()) memo->Record(node.GetOpDesc(), NodeSignature(node));
  return changed;
}

}  // namespace

InferShapeMemo::Scope::Scope(InferShapeMemo* memo) : saved_(g_memo) { g_memo = memo; }
InferShapeMemo::Scope::~Scope() { g_memo = saved_; }

InferShapeMemo* InferShapeMemo::Current() { return g_memo; }

bool InferShapeMemo::Matches(const OpDesc* op, uint64_t sig) {
  auto it = entries_.find(op);
  if (it == entries_.end() || it->second.sig != sig) return false;
  ++hits_;
  return true;
}

void InferShapeMemo::Record(const OpDescPtr& op, uint64_t sig) {
  if (op == nullptr) return;
  Entry& e = entries_[op.get()];
  if (e.op == nullptr) e.op = op;
  e.sig = sig;
}

GeTensorDesc InferShapePass::MergeDescs(const GeTensorDesc& a, const GeTensorDesc& b) {
  GeTensorDesc out = a;
  const GeShape& sa = a.GetShape();
  const GeShape& sb = b.GetShape();
  if (sa == sb && a.GetShapeRange() == b.GetShapeRange()) return out;
  GeShape merged;
  GeTensorDesc::ShapeRange range;
  if (sa.IsUnknownDimNum() || sb.IsUnknownDimNum() || sa.GetDimNum() != sb.GetDimNum()) {
    merged.SetIsUnknownDimNum();  // no range for an unknown rank
  } else {
    std::vector<int64_t> dims = sa.GetDims();
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] != sb.GetDim(i)) dims[i] = -1;
    }
    merged.SetDims(dims);
    // Ranges: the union per dim, when either side records one.
    if (!a.GetShapeRange().empty() || !b.GetShapeRange().empty()) {
      for (size_t i = 0; i < dims.size(); ++i) {
        const auto ra = DimRangeAt(a, i);
        const auto rb = DimRangeAt(b, i);
        const int64_t lo = std::min(ra.first, rb.first);
        const int64_t hi = (ra.second < 0 || rb.second < 0) ? -1 : std::max(ra.second, rb.second);
        range.emplace_back(lo, hi);
      }
    }
  }
  out.SetShape(merged);
  if (!out.SetShapeRange(std::move(range)).ok()) (void)out.SetShapeRange({});
  return out;
}

GeTensorDesc InferShapePass::WidenDescs(const GeTensorDesc& carried, const GeTensorDesc& next) {
  GeTensorDesc merged = MergeDescs(carried, next);
  const GeTensorDesc::ShapeRange& old_range = carried.GetShapeRange();
  const GeTensorDesc::ShapeRange& new_range = merged.GetShapeRange();
  if (new_range.empty() || new_range == old_range) return merged;
  // A bound that moved is dropped, so the Loop fixed point ends.
  GeTensorDesc::ShapeRange widened = new_range;
  for (size_t i = 0; i < widened.size(); ++i) {
    if (i >= old_range.size() || old_range[i].second != widened[i].second) widened[i].second = -1;
    if (i < old_range.size() && old_range[i].first != widened[i].first) widened[i].first = 0;
  }
  if (!merged.SetShapeRange(std::move(widened)).ok()) (void)merged.SetShapeRange({});
  return merged;
}

StatusOr<bool> InferShapePass::InferGraph(ComputeGraph& graph, int32_t depth) {
  if (depth > kMaxSubgraphDepth) {
    return OutOfRange("InferShapePass: subgraph nesting deeper than ", kMaxSubgraphDepth,
                      " at graph '", graph.GetName(), "'");
  }
  ASSIGN_OR_RETURN(const NodeOrder order, SharedTopologicalOrder(graph));
  bool changed = false;
  InferScratch scratch;
  for (const NodePtr& node : *order) {
    OpDesc& op = *node->GetOpDescBarePtr();
    // Refresh input descs from the producers.
    const uint32_t n_in = static_cast<uint32_t>(node->GetAllInDataAnchorsSize());
    for (uint32_t i = 0; i < n_in; ++i) {
      InDataAnchor* in = node->GetInDataAnchorBarePtr(static_cast<int32_t>(i));
      OutDataAnchor* peer = in == nullptr ? nullptr : in->GetPeerOutAnchorPtr();
      if (peer == nullptr) continue;
      const OpDesc& producer = *peer->GetOwnerNodeBarePtr()->GetOpDescBarePtr();
      const uint32_t out_idx = static_cast<uint32_t>(peer->GetIdx());
      // The input is pinned first: the peeked producer desc stays valid
      // until the next pointer handed out.
      GeTensorDesc* dst = const_cast<GeTensorDesc*>(op.GetInputDescBarePtr(i));
      const GeTensorDesc* src = producer.PeekOutputDesc(out_idx);
      if (dst != nullptr && src != nullptr) changed |= CopyMeta(*src, dst);
    }
    const std::string& type = op.GetType();
    if (IsConstNode(*node)) {
      const AttrValue* attr = op.GetAttr(ATTR_NAME_WEIGHTS);
      const GeTensor* w = attr == nullptr ? nullptr : attr->Get<GeTensor>();
      if (w != nullptr) {
        changed |= RefreshDesc(&w->GetTensorDesc(), op, 0, /*output=*/true);
      }
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
      r = InferRegistered(*node, &scratch);
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
  // Nothing edited since a complete inference (descs included: inference
  // is the only desc edit that does not advance the edit epoch): skip.
  TopoOrderCache* cache = TopoOrderCache::Current();
  using Fact = TopoOrderCache::Fact;
  if (cache != nullptr && (cache->HasFact(*graph, Fact::kInferredStrict) ||
                           (lenient_ && cache->HasFact(*graph, Fact::kInferredLenient)))) {
    return false;
  }
  const bool saved = g_lenient;
  g_lenient = lenient_;
  const uint64_t epoch_before = GraphEditEpoch();
  StatusOr<bool> r = InferGraph(*graph, 0);
  g_lenient = saved;
  // Changed descs are an edit for the other passes' facts (folding, ...);
  // the structure is untouched, so the cached orders stay.
  if (r.ok() && *r) {
    NoteGraphEdit();
    if (cache != nullptr) cache->KeepStructureSince(epoch_before);
  }
  if (r.ok() && cache != nullptr) {
    cache->SetFact(*graph, lenient_ ? Fact::kInferredLenient : Fact::kInferredStrict);
  }
  return r;
}

}  // namespace ge
