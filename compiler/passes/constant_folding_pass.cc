#include "compiler/passes/constant_folding_pass.h"

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler/passes/const_value_util.h"
#include "compiler/passes/pass_framework/graph_rewriter.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/passes/pass_framework/topo_order.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/gemm.h"

namespace ge {
namespace {

bool IsControlFlowOrStatefulType(const std::string& type) {
  static const char* const kTypes[] = {"If",
                                       "StatelessIf",
                                       "While",
                                       "StatelessWhile",
                                       "Loop",
                                       "Case",
                                       "Scan",
                                       "Switch",
                                       "Merge",
                                       "StreamSwitch",
                                       "StreamMerge",
                                       "StreamActive",
                                       "Enter",
                                       "Exit",
                                       "NextIteration",
                                       "LoopCond",
                                       "RefSwitch",
                                       "RefMerge",
                                       "Send",
                                       "Recv",
                                       "LabelSet",
                                       "LabelGoto",
                                       "LabelSwitchByIndex",
                                       "PartitionedCall",
                                       "Multinomial",
                                       "Variable",
                                       "VariableV2",
                                       "VarHandleOp",
                                       "Assign",
                                       "NoOp",
                                       "MemcpyAsync",
                                       "MemcpyAddrAsync"};
  for (const char* t : kTypes) {
    if (type == t) return true;
  }
  return absl::StrContains(type, "Random") || absl::StartsWith(type, "Dropout");
}

bool IsShapeOnlyType(const std::string& type) {
  return type == "Shape" || type == "Size" || type == "Rank";
}

// IR instances of the node's inputs: optional inputs are one slot (0 when
// unconnected), dynamic ones take the op's inputs named <ir><digits>.
std::vector<gert::IrInstance> MapIr(const Node& node, const OpRegistrationData& reg,
                                    const std::vector<const gert::Tensor*>& inputs) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  std::vector<gert::IrInstance> ir(reg.inputs.size());
  size_t pos = 0;
  for (size_t k = 0; k < reg.inputs.size(); ++k) {
    const OpIoDef& io = reg.inputs[k];
    ir[k].start = pos;
    if (io.kind == IoKind::kDynamic) {
      size_t count = 0;
      while (pos + count < inputs.size()) {
        const std::string n = op.GetInputNameByIndex(static_cast<uint32_t>(pos + count));
        if (!absl::StartsWith(n, io.name)) break;
        const std::string rest = n.substr(io.name.size());
        uint64_t unused = 0;
        if (rest.empty() || !absl::SimpleAtoi(rest, &unused)) break;
        ++count;
      }
      ir[k].count = count;
      pos += count;
    } else {
      ir[k].count = (pos < inputs.size() && inputs[pos] != nullptr) ? 1 : 0;
      pos += 1;
    }
  }
  return ir;
}

class FoldAllocator : public gert::OutputAllocator {
 public:
  explicit FoldAllocator(std::vector<gert::HostTensor>* outputs) : outputs_(outputs) {}
  Status Allocate(size_t i, gert::Tensor* tensor) override {
    if (i >= outputs_->size() || tensor != (*outputs_)[i].MutableTensor()) {
      return Internal("output ", i, " is not a tensor of this node");
    }
    ASSIGN_OR_RETURN(gert::HostTensor t,
                     gert::HostTensor::Create(tensor->GetDataType(), tensor->GetShape(),
                                              tensor->GetFormat()));
    (*outputs_)[i] = std::move(t);
    return OkStatus();
  }

 private:
  std::vector<gert::HostTensor>* outputs_;
};

// Shape / Size / Rank of a static input desc, or NotFound when the desc is
// not static.
StatusOr<gert::HostTensor> FoldShapeOnly(const Node& node) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  const GeTensorDesc* in = op.GetInputDescBarePtr(0);
  if (in == nullptr || in->GetShape().IsUnknownShape() || in->GetShape().IsUnknownDimNum()) {
    return NotFound("node ", node.GetName(), " has no static input shape");
  }
  const GeTensorDesc* out_desc = op.GetOutputDescBarePtr(0);
  DataType dt = out_desc == nullptr ? DT_INT64 : out_desc->GetDataType();
  if (dt != DT_INT32) dt = DT_INT64;
  const std::vector<int64_t> dims = in->GetShape().GetDims();
  std::vector<int64_t> values;
  gert::Shape shape;
  if (node.GetType() == "Shape") {
    int64_t start = 0;
    const AttrValue* a = op.GetAttr("start");
    if (a != nullptr && a->Get<int64_t>() != nullptr) start = *a->Get<int64_t>();
    const int64_t rank = static_cast<int64_t>(dims.size());
    if (start < 0) start += rank;
    if (start < 0) start = 0;
    if (start > rank) start = rank;
    int64_t end = rank;
    const AttrValue* e = op.GetAttr("end");
    if (e != nullptr && e->Get<int64_t>() != nullptr) end = *e->Get<int64_t>();
    if (end < 0) end += rank;
    if (end < start) end = start;
    if (end > rank) end = rank;
    values.assign(dims.begin() + start, dims.begin() + end);
    shape = gert::Shape{static_cast<int64_t>(values.size())};
  } else if (node.GetType() == "Size") {
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    values.push_back(n);
  } else {
    values.push_back(static_cast<int64_t>(dims.size()));
  }
  ASSIGN_OR_RETURN(gert::HostTensor t, gert::HostTensor::Create(dt, shape));
  for (size_t i = 0; i < values.size(); ++i) {
    if (dt == DT_INT32) {
      t.MutableData<int32_t>()[i] = static_cast<int32_t>(values[i]);
    } else {
      t.MutableData<int64_t>()[i] = values[i];
    }
  }
  return t;
}

}  // namespace

StatusOr<int64_t> ConstantFoldingPass::ParseMaxBytesOption(absl::string_view value) {
  int64_t bytes = 0;
  if (!absl::SimpleAtoi(value, &bytes) || bytes < 0) {
    return ParamInvalid("option ", kOptionConstantFoldingMaxBytes, " = '", value,
                        "' is not a non-negative byte count");
  }
  return bytes;
}

bool ConstantFoldingPass::IsFoldableType(const Node& node) const {
  const std::string& type = node.GetType();
  if (type == DATA || type == NETOUTPUT || IsConstNode(node)) return false;
  if (IsControlFlowOrStatefulType(type) || extra_denylist_.contains(type)) return false;
  if (!node.GetOpDescBarePtr()->GetSubgraphInstanceNames().empty()) return false;
  const OpRegistrationData* reg = OpRegistry::Instance().Find(type);
  if (reg == nullptr || !reg->subgraphs.empty()) return false;
  const OpKernelDef* k = reg->FindKernel(kEngineHostCpu);
  return k != nullptr && k->fn != nullptr;
}

StatusOr<std::vector<gert::HostTensor>> ConstantFoldingPass::Evaluate(const Node& node) {
  const std::string& type = node.GetType();
  const OpRegistrationData* reg = OpRegistry::Instance().Find(type);
  if (reg == nullptr) return NotFound("node ", node.GetName(), ": op type ", type, " is unknown");
  const OpKernelDef* kernel = reg->FindKernel(kEngineHostCpu);
  if (kernel == nullptr || kernel->fn == nullptr) {
    return NotSupported("node ", node.GetName(), ": op type ", type, " has no host-CPU kernel");
  }
  const size_t n_in = node.GetAllInDataAnchorsSize();
  std::vector<gert::HostTensor> values(n_in);
  std::vector<const gert::Tensor*> inputs(n_in, nullptr);
  for (size_t i = 0; i < n_in; ++i) {
    InDataAnchor* in = node.GetInDataAnchorBarePtr(static_cast<int32_t>(i));
    if (in == nullptr || in->GetPeerOutAnchorPtr() == nullptr) continue;
    ASSIGN_OR_RETURN(values[i], GetConstInputValue(node, static_cast<int32_t>(i)));
    inputs[i] = &values[i].tensor();
  }
  // Output metadata from inference with every value known, on a copy.
  OpDesc probe(*node.GetOpDescBarePtr());
  for (size_t i = 0; i < n_in; ++i) {
    if (inputs[i] == nullptr) continue;
    GeTensorDescPtr d = probe.MutableInputDesc(static_cast<uint32_t>(i));
    if (d == nullptr) continue;
    d->SetShape(GeShape(inputs[i]->GetShape().ToVector()));
    d->SetDataType(inputs[i]->GetDataType());
  }
  RETURN_IF_ERROR(InferShapeAndTypeForOpDesc(probe, inputs));
  const size_t n_out = node.GetAllOutDataAnchorsSize();
  std::vector<gert::HostTensor> outs(n_out);
  for (size_t i = 0; i < n_out; ++i) {
    const GeTensorDesc* d = probe.GetOutputDescBarePtr(static_cast<uint32_t>(i));
    if (d == nullptr) continue;
    const GeShape& s = d->GetShape();
    StatusOr<gert::Shape> shape = gert::Shape::FromDims(s.GetDimsSpan());
    if (shape.ok() && !s.IsUnknownShape() && !s.IsUnknownDimNum() &&
        d->GetDataType() != DT_UNDEFINED) {
      ASSIGN_OR_RETURN(outs[i], gert::HostTensor::Create(d->GetDataType(), *shape));
    } else {
      outs[i].MutableTensor()->SetDataType(d->GetDataType());
      if (shape.ok()) outs[i].MutableTensor()->SetShape(*shape);
    }
  }
  FoldAllocator allocator(&outs);
  std::vector<gert::Tensor*> out_ptrs(n_out);
  for (size_t i = 0; i < n_out; ++i) out_ptrs[i] = outs[i].MutableTensor();
  gert::KernelRunContextBuilder builder;
  gert::KernelContext& ctx = *builder.Node(node.GetName(), type)
                                  .Attrs(node.GetOpDescBarePtr())
                                  .Inputs(inputs)
                                  .Outputs(out_ptrs)
                                  .IrInputs(MapIr(node, *reg, inputs))
                                  .Allocator(&allocator)
                                  .Build();
  // Folded values are written into the OM: GEMMs round the same on every
  // machine (no fused multiply-adds), so atc's output does not depend on it.
  const ops::ScopedGemmMode portable(ops::GemmMode::kPortable);
  RETURN_IF_ERROR(
      Annotate(kernel->fn(ctx), "constant folding node ", node.GetName(), " (", type, "): "));
  for (size_t i = 0; i < n_out; ++i) {
    if (!outs[i].HasStorage()) {
      return Internal("constant folding node ", node.GetName(), ": the kernel left output ", i,
                      " unallocated");
    }
  }
  return outs;
}

StatusOr<bool> ConstantFoldingPass::TryFold(ComputeGraph& graph, const NodePtr& node) {
  const bool shape_only = IsShapeOnlyType(node->GetType());
  if (!shape_only) {
    // Cheap structural test first: most nodes have a non-Const input.
    bool any_input = false;
    for (uint32_t i = 0; i < node->GetAllInDataAnchorsSize(); ++i) {
      InDataAnchor* in = node->GetInDataAnchorBarePtr(static_cast<int32_t>(i));
      OutDataAnchor* peer = in == nullptr ? nullptr : in->GetPeerOutAnchorPtr();
      if (peer == nullptr) continue;
      if (!IsConstNode(*peer->GetOwnerNodeBarePtr())) return false;
      any_input = true;
    }
    if (!any_input) return false;  // source ops (generators) stay
  }
  if (!IsFoldableType(*node)) return false;
  std::vector<gert::HostTensor> outs;
  if (shape_only) {
    StatusOr<gert::HostTensor> t = FoldShapeOnly(*node);
    if (!t.ok()) return false;
    outs.push_back(std::move(t).value());
  } else {
    ASSIGN_OR_RETURN(outs, Evaluate(*node));
  }
  for (const gert::HostTensor& t : outs) {
    // Sequences / optionals have no constant form the executors accept.
    if (t.GetDataType() == DT_VARIANT || t.GetDataType() == DT_UNDEFINED) return false;
  }
  for (const gert::HostTensor& t : outs) {
    if (static_cast<int64_t>(t.tensor().GetSize()) > max_output_bytes_) {
      ++skipped_large_;
      return false;
    }
  }
  GraphRewriter rw(graph.shared_from_this());
  NodePtr first;
  for (size_t k = 0; k < outs.size(); ++k) {
    ASSIGN_OR_RETURN(OpDescPtr op, MakeConstOpDesc(absl::StrCat(node->GetName(), "_const_", k),
                                                   outs[k]));
    ASSIGN_OR_RETURN(NodePtr c, rw.AddNodeAfter(node, op));
    RETURN_IF_ERROR(rw.CopyInControlEdges(node, c));
    RETURN_IF_ERROR(rw.ReplaceAllUsesWith(node->GetOutDataAnchor(static_cast<int32_t>(k)),
                                          c->GetOutDataAnchor(0)));
    if (first == nullptr) first = c;
  }
  if (first != nullptr) RETURN_IF_ERROR(rw.MoveOutControlEdges(node, first));
  RETURN_IF_ERROR(rw.RemoveDeadNode(node));
  ++folded_;
  return true;
}

StatusOr<bool> ConstantFoldingPass::FoldGraph(ComputeGraph& graph) {
  bool changed = false;
  const int64_t skipped_before = skipped_large_;
  // Only a node whose producers are all Const folds (shape-only types
  // aside): when a walk listed those nodes (in node-list order, which is the
  // stable order of an unedited sorted graph) and there is no shape-only
  // op, only they are tried. If one folds, its consumers may fold now too:
  // the whole walk follows (it re-counts the large outputs skipped, and
  // finds nothing more to do among the nodes tried here).
  TopoOrderCache* cache = TopoOrderCache::Current();
  const TopoOrderCache::ConstUses* uses = cache == nullptr ? nullptr : cache->FindConstUses(graph);
  static constexpr const char* kShapeOnly[] = {"Shape", "Size", "Rank"};
  bool walk_all = true;
  if (uses != nullptr && !GraphTreeHasAnyType(graph, kShapeOnly)) {
    // (TryFold edits the graph: the list dies with the cache entry.)
    const std::vector<Node*> candidates = uses->const_fed;
    for (Node* node : candidates) {
      if (!graph.HasNode(node)) continue;  // removed as an orphaned input
      ASSIGN_OR_RETURN(bool folded, TryFold(graph, node->shared_from_this()));
      changed |= folded;
    }
    walk_all = changed;
    if (walk_all) skipped_large_ = skipped_before;
  }
  if (walk_all) {
    ASSIGN_OR_RETURN(const NodeOrder order, SharedTopologicalOrder(graph));
    for (const NodePtr& node : *order) {
      if (!graph.HasNode(node)) continue;  // removed as an orphaned input
      ASSIGN_OR_RETURN(bool folded, TryFold(graph, node));
      changed |= folded;
    }
  }
  for (const ComputeGraphPtr& sub : graph.GetAllSubgraphs()) {
    ASSIGN_OR_RETURN(bool c, FoldGraph(*sub));
    changed |= c;
  }
  return changed;
}

StatusOr<bool> ConstantFoldingPass::RunImpl(const ComputeGraphPtr& graph) {
  if (graph == nullptr) return ParamInvalid("ConstantFoldingPass: null graph");
  folded_ = 0;
  skipped_large_ = 0;
  // Unedited (descs included) since a run that folded nothing.
  TopoOrderCache* cache = TopoOrderCache::Current();
  using Fact = TopoOrderCache::Fact;
  if (cache != nullptr && cache->HasFact(*graph, Fact::kNothingToFold)) return false;
  ASSIGN_OR_RETURN(bool changed, FoldGraph(*graph));
  // The cap decides too: a run skipping large outputs proves nothing for
  // a pass with a larger cap.
  if (!changed && skipped_large_ == 0 && extra_denylist_.empty() && cache != nullptr) {
    cache->SetFact(*graph, Fact::kNothingToFold);
  }
  return changed;
}

GE_REGISTER_GRAPH_PASS(ConstantFoldingPass);

}  // namespace ge
