#include "compiler/passes/infer_shape_pass.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "compiler/passes/const_value_util.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "graph/inc/graph/utils/node_utils.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_infer_runner.h"
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

// Whether an input desc `in` in its origin format has origin shape / dtype
// other than its shape / dtype (what InferShape sets on outputs).
bool StaleOrigin(const GeTensorDesc& in) {
  return in.GetFormat() == in.GetOriginFormat() &&
         (in.GetOriginDataType() != in.GetDataType() || in.GetOriginShape() != in.GetShape());
}

// Gives `in` (in its origin format) the origin shape / dtype of its current
// shape / dtype, as outputs get them: the input then equals its producer's
// output desc (and serializes as the same desc).
void RefreshOrigin(GeTensorDesc* in) {
  if (!StaleOrigin(*in)) return;
  if (in->GetOriginShape() != in->GetShape()) in->SetOriginShape(in->GetShape());
  in->SetOriginDataType(in->GetDataType());
}

// Copies shape, dtype and shape range of `src` into `dst`; true when
// something changed. A range that does not fit the shape (it cannot be set)
// is dropped.
bool CopyMeta(const GeTensorDesc& src, GeTensorDesc* dst) {
  if (SameMeta(src, *dst)) return false;
  dst->SetShape(src.GetShape());
  dst->SetDataType(src.GetDataType());
  if (dst->GetShapeRange() != src.GetShapeRange() &&
      !dst->SetShapeRange(src.GetShapeRange()).ok()) {
    (void)dst->SetShapeRange({});
  }
  return true;
}

// Makes input (or output) `index` of `op` carry the meta of `*src`; true
// when it changed.
bool RefreshDesc(const GeTensorDesc* src, OpDesc& op, uint32_t index, bool output) {
  // Compared in place first: pinning a port may unshare its desc (a copy).
  const GeTensorDesc* cur = output ? op.PeekOutputDesc(index) : op.PeekInputDesc(index);
  if (cur == nullptr || src == nullptr || SameMeta(*src, *cur)) return false;
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
    return Internal("Loop node ", node.GetName(),
                    ": body shapes did not reach a fixed point after ",
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
    h = Mix(h,
            reinterpret_cast<uintptr_t>(peer == nullptr ? nullptr : peer->GetOwnerNodeBarePtr()));
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

// The IR input mapping of one registered type for one sequence of input
// names (MapInputSlotsToIr depends on nothing else): nodes of a type mostly
// share their port names (interned), so the mapping is computed once.
struct IrMapping {
  std::vector<const std::string*> names;
  std::vector<gert::IrInstance> ir;
};

// Per-graph scratch of InferRegistered (reused node to node, so inferring a
// node allocates nothing in the common case).
struct InferScratch {
  OutputMetas metas;
  std::vector<gert::Tensor> views;
  std::vector<const gert::Tensor*> const_inputs;
  // Registry entry per interned op type.
  absl::flat_hash_map<const std::string*, const OpRegistrationData*> regs;
  absl::flat_hash_map<const OpRegistrationData*, IrMapping> ir_maps;
  // Context storage of FastInfer (grown, never shrunk).
  std::vector<gert::IrInstance> ir;
  std::vector<gert::Shape> in_shapes;
  std::vector<const gert::Shape*> in_shape_ptrs;
  std::vector<DataType> in_dtypes;
  std::vector<const gert::Tensor*> in_tensors;
  std::vector<const gert::ShapeRange*> in_ranges;
  std::vector<gert::ShapeRange> in_range_store;
  std::vector<gert::Shape> out_shapes;
  std::vector<gert::Shape*> out_shape_ptrs;
  std::vector<DataType> out_dtypes;
  std::vector<DataType*> out_dtype_ptrs;
  std::vector<gert::ShapeRange> out_ranges;
  std::vector<gert::ShapeRange*> out_range_ptrs;
  std::vector<int64_t> dims;
};

const OpRegistrationData* FindRegistration(const OpDesc& op, InferScratch* scratch) {
  auto [it, inserted] = scratch->regs.try_emplace(op.GetInternedType(), nullptr);
  if (inserted) it->second = OpRegistry::Instance().Find(op.GetType());
  return it->second;
}

// The IR instances of `op`'s inputs as InferShapeAndTypeForOpDesc maps them
// (absent optional inputs get count 0) in scratch->ir; false when the
// mapping fails.
bool MapIr(const OpDesc& op, const OpRegistrationData& reg, InferScratch* scratch) {
  const uint32_t slots = static_cast<uint32_t>(op.GetAllInputsSize());
  IrMapping& m = scratch->ir_maps[&reg];
  bool same = m.names.size() == slots && m.ir.size() == reg.inputs.size();
  for (uint32_t i = 0; i < slots && same; ++i) same = m.names[i] == op.GetInputNamePtr(i);
  if (!same) {
    StatusOr<std::vector<gert::IrInstance>> mapped = MapInputSlotsToIr(op, reg, slots);
    if (!mapped.ok()) {
      m.names.clear();
      m.ir.clear();
      return false;
    }
    m.ir = std::move(mapped).value();
    m.names.resize(slots);
    for (uint32_t i = 0; i < slots; ++i) m.names[i] = op.GetInputNamePtr(i);
  }
  scratch->ir.assign(m.ir.begin(), m.ir.end());
  for (size_t k = 0; k < reg.inputs.size(); ++k) {
    gert::IrInstance& inst = scratch->ir[k];
    if (reg.inputs[k].kind != IoKind::kOptional || inst.count != 1) continue;
    const GeTensorDesc* d = op.PeekInputDesc(static_cast<uint32_t>(inst.start));
    if (d == nullptr || !d->IsValid()) inst.count = 0;
  }
  return true;
}

template <typename T>
void GrowTo(std::vector<T>* v, size_t n) {
  if (v->size() < n) v->resize(n);
}

enum class FastResult {
  kDone,      // inferred; *changed says whether an output desc changed
  kFailed,    // the full function fails before writing, with *code
  kFallBack,  // run the full function
};

// Makes a pending Const input value (GetConstInputViewOrPending) when an
// infer function reads it: a weight in the mapped model file is copied to
// aligned memory only if a function needs its values, not for its shape.
class PendingConstLoader : public gert::InputValueLoader {
 public:
  PendingConstLoader(const Node& node, std::vector<gert::Tensor>* views)
      : node_(node), views_(views) {}
  const gert::Tensor* Load(size_t i) const override {
    if (i >= views_->size()) return nullptr;
    StatusOr<gert::Tensor> v = GetConstInputView(node_, static_cast<int32_t>(i));
    if (!v.ok()) return nullptr;
    (*views_)[i] = *v;
    return &(*views_)[i];
  }

 private:
  const Node& node_;
  std::vector<gert::Tensor>* views_;
};

// InferShapeAndTypeForOpDesc for the common case, over a context wired to
// the scratch storage (no per-node strings, vectors or desc copies), writing
// only the output descs that change. kFailed when the full function would
// fail before writing anything: a registration check (ParamInvalid, or
// TypeMismatch for an attribute type), no infer function (NotSupported) or
// an op function error (its code); a lenient run skips the node without
// the message, a strict one runs the full function for it. kFallBack
// whenever the full function might do something else (a rank above
// gert::kMaxDimNum; an invalid output range, which may leave outputs partly
// written as the full function does before it reports the same error).
FastResult FastInfer(OpDesc& op, const OpRegistrationData& reg,
                     const std::vector<const gert::Tensor*>& const_inputs,
                     const gert::InputValueLoader* loader, InferScratch* scratch, bool* changed,
                     ErrorCode* code) {
  if (!MapIr(op, reg, scratch)) {
    *code = ErrorCode::kParamInvalid;  // as MapInputsToIr reports it
    return FastResult::kFailed;
  }
  // The registration checks of InferShapeAndTypeForOpDesc, no message built.
  if (const RegistrationCheckFailure f = FindRegistrationCheckFailure(op, reg, scratch->ir);
      f.kind != RegistrationCheckFailure::Kind::kNone) {
    *code = f.code();
    return FastResult::kFailed;
  }
  if (reg.infer_shape == nullptr) {
    *code = ErrorCode::kNotSupported;
    return FastResult::kFailed;
  }
  const size_t n_in = op.GetAllInputsSize();
  const size_t n_out = op.GetOutputsSize();
  InferScratch& s = *scratch;
  GrowTo(&s.in_shapes, n_in);
  GrowTo(&s.in_shape_ptrs, n_in);
  GrowTo(&s.in_dtypes, n_in);
  GrowTo(&s.in_tensors, n_in);
  GrowTo(&s.in_ranges, n_in);
  GrowTo(&s.in_range_store, n_in);
  // Read in place (peeked: nothing is pinned, no desc is unshared).
  for (size_t i = 0; i < n_in; ++i) {
    const GeTensorDesc* desc = op.PeekInputDesc(static_cast<uint32_t>(i));
    s.in_tensors[i] = nullptr;
    s.in_ranges[i] = nullptr;
    if (desc == nullptr || !desc->IsValid()) {
      s.in_shape_ptrs[i] = nullptr;
      s.in_dtypes[i] = DT_UNDEFINED;
      continue;
    }
    const absl::Span<const int64_t> dims = desc->GetShape().GetDimsSpan();
    if (dims.size() > gert::kMaxDimNum) return FastResult::kFallBack;
    gert::Shape& shape = s.in_shapes[i];
    shape.SetDimNum(dims.size());
    for (size_t d = 0; d < dims.size(); ++d) shape.SetDim(d, dims[d]);
    s.in_shape_ptrs[i] = &shape;
    s.in_dtypes[i] = desc->GetDataType();
    if (i < const_inputs.size()) s.in_tensors[i] = const_inputs[i];
    if (!desc->GetShapeRange().empty()) {
      s.in_range_store[i] = desc->GetShapeRange();
      s.in_ranges[i] = &s.in_range_store[i];
    }
  }
  GrowTo(&s.out_shapes, n_out);
  GrowTo(&s.out_shape_ptrs, n_out);
  GrowTo(&s.out_dtypes, n_out);
  GrowTo(&s.out_dtype_ptrs, n_out);
  GrowTo(&s.out_ranges, n_out);
  GrowTo(&s.out_range_ptrs, n_out);
  for (size_t i = 0; i < n_out; ++i) {
    const GeTensorDesc* desc = op.PeekOutputDesc(static_cast<uint32_t>(i));
    gert::Shape& shape = s.out_shapes[i];
    shape.SetScalar();
    s.out_dtypes[i] = DT_UNDEFINED;
    if (desc != nullptr) {
      const absl::Span<const int64_t> dims = desc->GetShape().GetDimsSpan();
      // (The full function leaves a shape it cannot convert a scalar.)
      if (dims.size() <= gert::kMaxDimNum) {
        shape.SetDimNum(dims.size());
        for (size_t d = 0; d < dims.size(); ++d) shape.SetDim(d, dims[d]);
      }
      s.out_dtypes[i] = desc->GetDataType();
    }
    s.out_ranges[i].clear();
    s.out_shape_ptrs[i] = &s.out_shapes[i];
    s.out_dtype_ptrs[i] = &s.out_dtypes[i];
    s.out_range_ptrs[i] = &s.out_ranges[i];
  }
  gert::InferShapeContext ctx;
  ctx.SetNode(op.GetName(), op.GetType());
  ctx.SetAttrHolder(&op);
  ctx.SetInputs(absl::MakeConstSpan(s.in_shape_ptrs.data(), n_in),
                absl::MakeConstSpan(s.in_dtypes.data(), n_in),
                absl::MakeConstSpan(s.in_tensors.data(), n_in),
                absl::MakeConstSpan(s.in_ranges.data(), n_in));
  ctx.SetOutputs(absl::MakeSpan(s.out_shape_ptrs.data(), n_out),
                 absl::MakeSpan(s.out_dtype_ptrs.data(), n_out),
                 absl::MakeSpan(s.out_range_ptrs.data(), n_out));
  ctx.SetIrInputs(s.ir);
  ctx.SetInputValueLoader(loader);
  auto failed = [code](const Status& st) {
    *code = GetErrorCode(st);
    return FastResult::kFailed;
  };
  if (Status st = RunOpInfer(reg, ctx); !st.ok()) return failed(st);

  // Write back as the full function does (shape, data type, origin shape /
  // type while the format is the origin format, range), skipping equal
  // values (those writes are no-ops).
  bool any = false;
  for (size_t i = 0; i < n_out; ++i) {
    const GeTensorDesc* peek = op.PeekOutputDesc(static_cast<uint32_t>(i));
    if (peek == nullptr) continue;
    const absl::Span<const int64_t> dims = s.out_shapes[i].GetDims();
    const DataType dt = s.out_dtypes[i];
    const gert::ShapeRange& range = s.out_ranges[i];
    const bool shape_same = peek->GetShape().GetDimsSpan() == dims;
    const bool origin = peek->GetFormat() == peek->GetOriginFormat();
    const bool need_write =
        !shape_same || peek->GetDataType() != dt || !range.empty() ||
        !peek->GetShapeRange().empty() ||
        (origin && (peek->GetOriginDataType() != dt || peek->GetOriginShape() != peek->GetShape()));
    if (!need_write) continue;
    GeTensorDesc* desc =
        const_cast<GeTensorDesc*>(op.GetOutputDescBarePtr(static_cast<uint32_t>(i)));
    if (desc == nullptr) continue;
    if (!shape_same) {
      s.dims.assign(dims.begin(), dims.end());
      desc->SetShape(GeShape(s.dims));
      any = true;
    }
    if (desc->GetDataType() != dt) {
      desc->SetDataType(dt);
      any = true;
    }
    if (origin) {
      if (desc->GetOriginShape() != desc->GetShape()) desc->SetOriginShape(desc->GetShape());
      desc->SetOriginDataType(dt);
    }
    if (!range.empty() || !desc->GetShapeRange().empty()) {
      if (range != desc->GetShapeRange()) any = true;
      if (!desc->SetShapeRange(range).ok()) return FastResult::kFallBack;
    }
  }
  *changed = any;
  return FastResult::kDone;
}

// Whether a lenient run keeps a node whose inference failed with `code`
// (structure errors fail the run).
bool LenientSkips(ErrorCode code) {
  return g_lenient && code != ErrorCode::kGraphInvalid && code != ErrorCode::kOutOfRange;
}

// Infers a registered op. *skipped: a lenient run keeps the node's descs
// (its inference failed; the caller moves on).
StatusOr<bool> InferRegistered(Node& node, InferScratch* scratch, bool* skipped) {
  OpDesc& op = *node.GetOpDescBarePtr();
  InferShapeMemo* memo = g_memo;
  // (The signature is only computed for nodes inferred before.)
  if (memo != nullptr && memo->Has(&op) && memo->Matches(&op, NodeSignature(node))) return false;
  const OpRegistrationData* reg = FindRegistration(op, scratch);
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
      StatusOr<gert::Tensor> v = GetConstInputViewOrPending(node, static_cast<int32_t>(i));
      if (!v.ok()) continue;
      views[i] = *v;
      const_inputs[i] = &views[i];
    }
  }
  const PendingConstLoader loader(node, &views);
  bool changed = false;
  ErrorCode code = ErrorCode::kSuccess;
  const FastResult fast = FastInfer(op, *reg, const_inputs, &loader, scratch, &changed, &code);
  if (fast == FastResult::kFailed && LenientSkips(code)) {
    *skipped = true;  // the full function's message is not needed
    return false;
  }
  if (fast != FastResult::kDone) {
    // The full function: its messages, and whatever made the fast path
    // give up.
    SnapshotOutputs(op, &scratch->metas);
    RETURN_IF_ERROR(
        Annotate(InferShapeAndTypeForOpDesc(op, const_inputs, &loader), "InferShapePass: "));
    changed = OutputsChanged(op, scratch->metas);
  }
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

namespace {

// Infers one node of `graph` (inputs refreshed from the producers first);
// true when a desc changed. A node a lenient run cannot infer keeps its
// descs (false).
StatusOr<bool> InferNode(ComputeGraph& graph, Node& node, int32_t depth, InferScratch* scratch) {
  OpDesc& op = *node.GetOpDescBarePtr();
  bool changed = false;
  // Refresh input descs from the producers.
  const uint32_t n_in = static_cast<uint32_t>(node.GetAllInDataAnchorsSize());
  for (uint32_t i = 0; i < n_in; ++i) {
    InDataAnchor* in = node.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
    OutDataAnchor* peer = in == nullptr ? nullptr : in->GetPeerOutAnchorPtr();
    if (peer == nullptr) continue;
    const OpDesc& producer = *peer->GetOwnerNodeBarePtr()->GetOpDescBarePtr();
    const uint32_t out_idx = static_cast<uint32_t>(peer->GetIdx());
    // Compared in place first: pinning the input may unshare its desc.
    const GeTensorDesc* cur = op.PeekInputDesc(i);
    const GeTensorDesc* src = producer.PeekOutputDesc(out_idx);
    if (cur == nullptr || src == nullptr || (SameMeta(*src, *cur) && !StaleOrigin(*cur))) {
      continue;
    }
    // The input is pinned first: the peeked producer desc stays valid
    // until the next pointer handed out.
    GeTensorDesc* dst = const_cast<GeTensorDesc*>(op.GetInputDescBarePtr(i));
    src = producer.PeekOutputDesc(out_idx);
    if (dst == nullptr || src == nullptr) continue;
    changed |= CopyMeta(*src, dst);
    RefreshOrigin(dst);
  }
  const std::string& type = op.GetType();
  if (IsConstNode(node)) {
    const AttrValue* attr = op.GetAttr(ATTR_NAME_WEIGHTS);
    const GeTensor* w = attr == nullptr ? nullptr : attr->Get<GeTensor>();
    if (w != nullptr) {
      changed |= RefreshDesc(&w->GetTensorDesc(), op, 0, /*output=*/true);
    }
    return changed;
  }
  if (type == DATA || type == NETOUTPUT) return changed;
  StatusOr<bool> r = false;
  if (IsIf(node)) {
    r = InferIf(node, depth);
  } else if (type == "Loop") {
    r = InferLoop(node, depth);
  } else {
    if (!op.GetSubgraphInstanceNames().empty() && type != "SequenceMap") {
      // (SequenceMap bodies take sequence elements, not the parent's
      // inputs: they are left to the executor.)
      ASSIGN_OR_RETURN(bool sub_changed, InferOtherSubgraphs(node, depth));
      changed |= sub_changed;
    }
    bool skipped = false;
    r = InferRegistered(node, scratch, &skipped);
    if (skipped) return changed;  // keep the node's descs
  }
  if (!r.ok() && LenientSkips(GetErrorCode(r.status()))) {
    return changed;  // keep the node's descs
  }
  if (!r.ok()) return Annotate(r.status(), "graph '", graph.GetName(), "': ");
  return changed || *r;
}

// The node hook of the running pass (depth 0 only), or null.
thread_local const InferShapePass::NodeHook* g_hook = nullptr;

// The Const nodes and their consumers met by a depth-0 walk, for the
// TopoOrderCache (the walk touches every node anyway).
// Also the op types met (the TopoOrderCache type set of a graph without
// subgraphs).
struct ConstUseCollector {
  TopoOrderCache::ConstUses uses;
  bool in_list_order = true;  // the walk followed the node list
  absl::flat_hash_set<const std::string*> types;
  const std::string* last_type = nullptr;
};
thread_local ConstUseCollector* g_collect = nullptr;

// Every linked data input comes from a Const node, and one is linked.
bool AllProducersConst(const Node& node) {
  const uint32_t n_in = static_cast<uint32_t>(node.GetAllInDataAnchorsSize());
  bool any = false;
  for (uint32_t i = 0; i < n_in; ++i) {
    const Node* p = ProducerNode(node, i);
    if (p == nullptr) continue;
    if (!IsConstNode(*p)) return false;
    any = true;
  }
  return any;
}

}  // namespace

StatusOr<bool> InferShapePass::InferGraph(ComputeGraph& graph, int32_t depth) {
  if (depth > kMaxSubgraphDepth) {
    return OutOfRange("InferShapePass: subgraph nesting deeper than ", kMaxSubgraphDepth,
                      " at graph '", graph.GetName(), "'");
  }
  ASSIGN_OR_RETURN(const NodeOrder order, SharedTopologicalOrder(graph));
  const NodeHook* hook = depth == 0 ? g_hook : nullptr;
  ConstUseCollector* collect = depth == 0 ? g_collect : nullptr;
  NodeList::const_iterator list_it = graph.DirectNodes().begin();
  const NodeList::const_iterator list_end = graph.DirectNodes().end();
  bool changed = false;
  InferScratch scratch;
  for (const NodePtr& node : *order) {
    ASSIGN_OR_RETURN(bool c, InferNode(graph, *node, depth, &scratch));
    changed |= c;
    if (hook != nullptr) RETURN_IF_ERROR((*hook)(*node));
    if (collect != nullptr) {
      if (collect->in_list_order) {
        if (list_it == list_end || list_it->get() != node.get()) {
          collect->in_list_order = false;
        } else {
          ++list_it;
        }
      }
      if (IsConstNode(*node)) {
        collect->uses.consts.push_back(node.get());
      } else if (AllProducersConst(*node)) {
        collect->uses.const_fed.push_back(node.get());
      }
      const std::string* t = node->GetOpDescBarePtr()->GetInternedType();
      if (t != collect->last_type) collect->types.insert(t);
      collect->last_type = t;
    }
  }
  if (collect != nullptr && list_it != list_end) collect->in_list_order = false;
  return changed;
}

StatusOr<bool> InferShapePass::RunImpl(const ComputeGraphPtr& graph) {
  if (graph == nullptr) return ParamInvalid("InferShapePass: null graph");
  // Nothing edited since a complete inference (descs included: inference
  // is the only desc edit that does not advance the edit epoch): skip.
  TopoOrderCache* cache = TopoOrderCache::Current();
  using Fact = TopoOrderCache::Fact;
  walked_ = false;
  if (cache != nullptr && (cache->HasFact(*graph, Fact::kInferredStrict) ||
                           (lenient_ && cache->HasFact(*graph, Fact::kInferredLenient)))) {
    return false;
  }
  const bool saved = g_lenient;
  const NodeHook* saved_hook = g_hook;
  ConstUseCollector* saved_collect = g_collect;
  ConstUseCollector collector;
  g_lenient = lenient_;
  g_hook = node_hook_ ? &node_hook_ : nullptr;
  g_collect = cache != nullptr ? &collector : nullptr;
  const uint64_t epoch_before = GraphEditEpoch();
  StatusOr<bool> r = InferGraph(*graph, 0);
  g_lenient = saved;
  g_hook = saved_hook;
  g_collect = saved_collect;
  walked_ = r.ok();
  // Recorded at the walk's epoch; the step below carries it over.
  if (r.ok() && cache != nullptr && GraphEditEpoch() == epoch_before) {
    if (collector.in_list_order) cache->StoreConstUses(*graph, std::move(collector.uses));
    if (graph->GetParentGraph() == nullptr && graph->GetAllSubgraphs().empty()) {
      cache->StoreTypes(*graph, std::move(collector.types));
    }
  }
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

GE_REGISTER_GRAPH_PASS(InferShapePass);

}  // namespace ge
