// build/model/model_builder.cc
#include "build/model/model_builder.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "build/task/task_generator.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/utils/tensor_utils.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/register/op_registry.h"
#include "xxhash.h"

namespace ge {
namespace {

constexpr char kAttrValue[] = "value";
constexpr char kAttrIndex[] = "index";

bool IsConstType(const std::string& type) { return type == "Const" || type == "Constant"; }
bool IsDataType(const std::string& type) { return type == "Data" || type == "RefData"; }

bool IsSizeUnknownDataType(DataType dt) {
  return dt == DT_STRING || dt == DT_STRING_REF || dt == DT_RESOURCE || dt == DT_VARIANT ||
         dt == DT_UNDEFINED;
}

uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

std::string NodeHead(const Node& node) {
  return absl::StrCat("node '", node.GetName(), "' (", node.GetType(), ")");
}

// What Build needs to know about a node's type. Computed once per distinct
// type (types are interned: one pointer per type), not by string compares
// per node.
enum class NodeKind : uint8_t { kKernel, kData, kConst, kNetOutput, kNonKernel };
struct TypeInfo {
  NodeKind kind = NodeKind::kKernel;
  bool data_dependent = false;
};

TypeInfo ClassifyType(const std::string& type) {
  TypeInfo info;
  if (IsConstType(type)) {
    info.kind = NodeKind::kConst;
  } else if (IsDataType(type)) {
    info.kind = NodeKind::kData;
  } else if (type == "NetOutput") {
    info.kind = NodeKind::kNetOutput;
  } else if (IsNonKernelType(type)) {
    info.kind = NodeKind::kNonKernel;
  }
  info.data_dependent = OpTraitsOf(type).Has(kOpTraitDataDependentOutputShape);
  return info;
}

// ------------------------------------------------------------------ sizes

// Formats whose bytes are plain dims x element size (GetDataSize converts
// the desc to a TensorDesc first, a copy per call; blocked formats go there).
bool IsPlainFormat(Format format) {
  switch (GetPrimaryFormat(static_cast<int32_t>(format))) {
    case FORMAT_ND:
    case FORMAT_NCHW:
    case FORMAT_NHWC:
    case FORMAT_HWCN:
    case FORMAT_CHWN:
    case FORMAT_NCDHW:
    case FORMAT_NDHWC:
      return true;
    default:
      return false;
  }
}

// Bytes of a known plain-format tensor without building a TensorDesc; false
// when the slow path has to decide (unknown / negative dims, overflow,
// blocked formats, types of no fixed size: it also words the error).
bool FastTensorBytes(const GeTensorDesc& d, uint64_t* bytes) {
  if (!IsPlainFormat(d.GetFormat())) return false;
  int64_t count = 1;
  bool zero = false;
  for (int64_t dim : d.GetShape().GetDimsSpan()) {
    if (dim < 0) return false;
    if (dim == 0) zero = true;
    if (!zero && __builtin_mul_overflow(count, dim, &count)) return false;
  }
  if (zero) count = 0;
  StatusOr<int64_t> size = TypeUtils::GetSizeInBytes(d.GetDataType(), count);
  if (!size.ok() || *size < 0) return false;
  *bytes = static_cast<uint64_t>(*size);
  return true;
}

StatusOr<uint64_t> TensorBytes(const Node& node, uint32_t k, const GeTensorDesc& d) {
  uint64_t fast = 0;
  if (FastTensorBytes(d, &fast)) return fast;
  StatusOr<int64_t> size = d.GetDataSize();
  if (!size.ok()) {
    return Annotate(size.status(), "output ", k, " of ", NodeHead(node), ": ");
  }
  if (*size < 0) return ParamInvalid("output ", k, " of ", NodeHead(node), " has size ", *size);
  return static_cast<uint64_t>(*size);
}

// ------------------------------------------------------------------- scan

// What one walk over the root graph learns (Scan). Every node's memory is
// touched there once, in node order; later steps read these arrays (and the
// few Data / Const / NetOutput nodes) instead of walking the graph again.
struct GraphScan {
  std::vector<Node*> nodes;     // node order; op ids are positions
  std::vector<TypeInfo> info;   // parallel to nodes
  std::vector<NodeMemory> mem;  // parallel to nodes; see Scan
  std::vector<Node*> data;      // Data / RefData nodes, in node order
  std::vector<Node*> net_outputs;
  std::vector<Node*> consts;  // root Const nodes, in node order
  bool sorted = true;
  // Set at the first node (in node order) that makes the model dynamic;
  // sizes are not computed from there on.
  std::string dynamic_reason;
  // The first error CalcOpParam meets (output size, negative workspace) in
  // node order; reported only when the model is static.
  Status deferred = OkStatus();
};

// The reason output k of `node` (desc `d`) makes the model dynamic, or "".
std::string DynamicOutputReason(const Node& node, size_t k, const GeTensorDesc& d, NodeKind kind) {
  const GeShape& shape = d.GetShape();
  if (shape.IsUnknownShape() || shape.IsUnknownDimNum()) {
    return absl::StrCat("output ", k, " of ", NodeHead(node), " has unknown shape ",
                        shape.ToString());
  }
  if (IsSizeUnknownDataType(d.GetDataType()) && kind != NodeKind::kConst) {
    return absl::StrCat("output ", k, " of ", NodeHead(node), " has data type ",
                        static_cast<int32_t>(d.GetDataType()), " of unknown size");
  }
  return "";
}

// One pass over the root graph in its node order: numbers the ops, classifies
// them (once per distinct interned type), checks that every producer comes
// earlier (sorted == false otherwise: the caller sorts and scans again), finds
// the first reason to be dynamic, and for every node but NetOutput sizes its
// outputs (mem[i].outputs, ARENA unless Const / Data output 0, which the
// caller binds), reads its workspaces, and records in each producer slot the
// position of its last reader (TensorSlot::last_use).
void Scan(const ComputeGraph& graph, GraphScan* scan) {
  GraphScan& s = *scan;
  const size_t num_nodes = graph.GetDirectNodesSize();
  s.nodes.clear();
  s.nodes.reserve(num_nodes);
  s.info.clear();
  s.info.reserve(num_nodes);
  s.mem.clear();
  s.mem.resize(num_nodes);
  s.data.clear();
  s.net_outputs.clear();
  s.consts.clear();
  s.sorted = true;
  s.dynamic_reason.clear();
  s.deferred = OkStatus();
  if (!graph.GetAllSubgraphs().empty()) {
    s.dynamic_reason = absl::StrCat("graph has ", graph.GetAllSubgraphs().size(), " subgraph(s)");
  }
  absl::flat_hash_map<const std::string*, TypeInfo> cache;
  const std::string* last_type = nullptr;
  TypeInfo last_info;
  // Marks the producer of `peer` as read at step i; false when the producer
  // does not come earlier in this graph.
  auto read = [&s](const Anchor* peer, size_t i) {
    const Node* src = peer->GetOwnerNodeBarePtr();
    const uint64_t id = static_cast<uint64_t>(src->GetOpDescBarePtr()->GetId());
    // A producer not visited yet has a stale id: nodes[id] is another node.
    if (id >= i || s.nodes[id] != src) return false;
    if (peer->IsOutData()) {
      std::vector<TensorSlot>& outs = s.mem[id].outputs;
      const size_t k = static_cast<size_t>(peer->GetIdx());
      if (k < outs.size()) outs[k].last_use = static_cast<uint32_t>(i);
    }
    return true;
  };
  for (const NodePtr& ptr : graph.DirectNodes()) {
    Node* n = ptr.get();
    OpDesc* op = n->GetOpDescBarePtr();
    const size_t i = s.nodes.size();
    op->SetId(static_cast<int64_t>(i));
    s.nodes.push_back(n);
    if (i >= s.mem.size()) s.mem.resize(i + 1);  // the list outgrew its count
    const std::string* type = op->GetInternedType();
    if (type == nullptr || type != last_type) {
      if (type == nullptr) {
        last_info = ClassifyType(op->GetType());
      } else {
        auto [it, inserted] = cache.try_emplace(type);
        if (inserted) it->second = ClassifyType(*type);
        last_info = it->second;
      }
      last_type = type;
    }
    const TypeInfo info = last_info;
    s.info.push_back(info);
    if (!s.sorted) continue;  // only numbering and types matter now

    for (const Anchor* a : n->InControlPeers()) {  // does not create control anchors
      if (!read(a, i)) s.sorted = false;
    }
    const size_t num_in = n->GetAllInDataAnchorsSize();
    for (size_t k = 0; k < num_in; ++k) {
      for (const Anchor* a : n->GetInDataAnchorBarePtr(static_cast<int32_t>(k))->PeerAnchors()) {
        if (!read(a, i)) s.sorted = false;
      }
    }
    if (!s.sorted) continue;

    switch (info.kind) {
      case NodeKind::kData:
        s.data.push_back(n);
        break;
      case NodeKind::kConst:
        s.consts.push_back(n);
        break;
      case NodeKind::kNetOutput:
        s.net_outputs.push_back(n);
        break;
      default:
        break;
    }
    const size_t num_desc = op->GetOutputsSize();
    if (s.dynamic_reason.empty()) {
      if (info.data_dependent) {
        s.dynamic_reason = absl::StrCat(NodeHead(*n), " has data-dependent output shapes");
      } else {
        for (size_t k = 0; k < num_desc; ++k) {
          s.dynamic_reason =
              DynamicOutputReason(*n, k, *op->PeekOutputDesc(static_cast<uint32_t>(k)), info.kind);
          if (!s.dynamic_reason.empty()) break;
        }
      }
    }
    if (info.kind == NodeKind::kNetOutput) continue;
    NodeMemory& m = s.mem[i];
    const size_t num_out = std::min<size_t>(n->GetAllOutDataAnchorsSize(), num_desc);
    m.outputs.resize(num_out);
    for (size_t k = 0; k < num_out; ++k) m.outputs[k].last_use = static_cast<uint32_t>(i);
    // Sizes matter for static models only: the first error waits until the
    // model is known to be static.
    if (info.kind == NodeKind::kConst || !s.dynamic_reason.empty() || !s.deferred.ok()) continue;
    for (size_t k = 0; k < num_out; ++k) {
      const GeTensorDesc& d = *op->PeekOutputDesc(static_cast<uint32_t>(k));  // read here only
      if (FastTensorBytes(d, &m.outputs[k].size)) continue;
      StatusOr<uint64_t> size = TensorBytes(*n, static_cast<uint32_t>(k), d);
      if (!size.ok()) {
        s.deferred = size.status();
        break;
      }
      m.outputs[k].size = *size;
    }
    if (!s.deferred.ok()) continue;
    std::vector<int64_t> ws = op->GetWorkspaceBytes();
    if (ws.empty()) continue;
    m.workspaces.resize(ws.size());
    for (size_t w = 0; w < ws.size(); ++w) {
      if (ws[w] < 0) {
        s.deferred = ParamInvalid(NodeHead(*n), " has workspace ", w, " of ", ws[w], " bytes");
        break;
      }
      m.workspaces[w].size = static_cast<uint64_t>(ws[w]);
    }
  }
  s.mem.resize(s.nodes.size());
}

// Scan, and when the node order is not topological, sort and scan again.
Status ScanInTopologicalOrder(const ComputeGraphPtr& graph, GraphScan* scan) {
  if (graph->GetDirectNodesSize() >= (uint64_t{1} << 32)) {
    return OutOfRange("graph '", graph->GetName(), "' has ", graph->GetDirectNodesSize(),
                      " nodes; at most 2^32 - 1");
  }
  Scan(*graph, scan);
  if (scan->sorted) return OkStatus();
  RETURN_IF_ERROR(graph->TopologicalSorting());
  Scan(*graph, scan);
  if (!scan->sorted) {
    return GraphInvalid("graph '", graph->GetName(),
                        "' has an edge from another graph or a cycle; cannot order it");
  }
  return OkStatus();
}

// ---------------------------------------------------------------- weights

struct WeightPlan {
  WeightBuffer weights;  // pieces: the unique constants, no copy
  uint64_t size = 0;
  uint64_t num_consts = 0;
  uint64_t num_unique = 0;
  // The Const nodes, those of the root graph first (in node order), then
  // those of the subgraphs; slots[c] is where consts[c]'s value lives.
  std::vector<Node*> consts;
  std::vector<TensorSlot> slots;
};

void CollectConsts(const ComputeGraph& graph, std::vector<Node*>* out) {
  for (const NodePtr& n : graph.DirectNodes()) {
    if (IsConstType(n->GetOpDescBarePtr()->GetType())) out->push_back(n.get());
  }
}

// Constants are deduplicated by TensorUtils::SampledContentHash; candidates
// with equal keys get a full XXH3 of their bytes (computed once, lazily)
// before the memcmp, so a model of many same-size constants stays linear.
// `root_consts`: the Const nodes of the root graph in node order.
StatusOr<WeightPlan> MergeWeights(const ComputeGraphPtr& graph,
                                  absl::Span<Node* const> root_consts) {
  WeightPlan plan;
  std::vector<Node*>& consts = plan.consts;
  consts.assign(root_consts.begin(), root_consts.end());
  for (const ComputeGraphPtr& sub : graph->GetAllSubgraphs()) {
    if (sub != nullptr) CollectConsts(*sub, &consts);
  }
  plan.num_consts = consts.size();
  struct Unique {
    const GeTensor* tensor;
    uint64_t offset;
    bool hashed;
    uint64_t full_hash;
  };
  auto full_hash = [](Unique& u) {
    if (!u.hashed) {
      absl::Span<const uint8_t> data = u.tensor->GetBytes();
      u.full_hash = XXH3_64bits(data.data(), data.size());
      u.hashed = true;
    }
    return u.full_hash;
  };
  std::vector<Unique> uniques;
  uniques.reserve(consts.size());
  std::vector<uint32_t> unique_of(consts.size());
  // Uniques by sampled key: the newest one per key, older ones chained through
  // same_key (no allocation per key). At most one unique can match a
  // constant (uniques differ pairwise), so the chain order does not matter.
  constexpr uint32_t kEndOfChain = ~uint32_t{0};
  absl::flat_hash_map<size_t, uint32_t> newest_by_key;
  newest_by_key.reserve(consts.size());
  std::vector<uint32_t> same_key;
  same_key.reserve(consts.size());
  std::vector<const GeTensor*> tensors(consts.size());
  uint64_t total = 0;
  for (size_t c = 0; c < consts.size(); ++c) {
    const OpDesc* op = consts[c]->GetOpDescBarePtr();
    const AttrValue* v = op->GetAttr(kAttrValue);
    if (v == nullptr) {
      return NotFound(NodeHead(*consts[c]), " has no '", kAttrValue, "' tensor attribute");
    }
    const GeTensor* t = v->Get<GeTensor>();
    if (t == nullptr) {
      return TypeMismatch(NodeHead(*consts[c]), " attribute '", kAttrValue, "' is not a tensor");
    }
    tensors[c] = t;
    // Bytes at any alignment: hashing and comparing never make the aligned
    // copy of a FileView.
    absl::Span<const uint8_t> data = t->GetBytes();
    const GeTensorDesc& d = t->GetTensorDesc();
    auto newest = newest_by_key.try_emplace(TensorUtils::SampledContentHash(*t), kEndOfChain).first;
    bool found = false;
    Unique candidate{t, 0, false, 0};
    for (uint32_t u = newest->second; u != kEndOfChain; u = same_key[u]) {
      const GeTensor* o = uniques[u].tensor;
      absl::Span<const uint8_t> od = o->GetBytes();
      if (od.size() != data.size() || o->GetTensorDesc().GetDataType() != d.GetDataType() ||
          o->GetTensorDesc().GetShape() != d.GetShape()) {
        continue;
      }
      if (data.size() > 4096 && full_hash(uniques[u]) != full_hash(candidate)) continue;
      if (data.empty() || od.data() == data.data() ||
          std::memcmp(od.data(), data.data(), data.size()) == 0) {
        unique_of[c] = u;
        found = true;
        break;
      }
    }
    if (found) continue;
    const uint32_t u = static_cast<uint32_t>(uniques.size());
    same_key.push_back(newest->second);  // kEndOfChain for a new key
    newest->second = u;
    unique_of[c] = u;
    candidate.offset = total;
    uniques.push_back(candidate);
    const uint64_t aligned = AlignUp(std::max<uint64_t>(data.size(), 1), kWeightAlign);
    if (total > (uint64_t{1} << 62) - aligned) return Overflow("weights exceed 2^62 bytes");
    total += aligned;
  }
  plan.num_unique = uniques.size();
  plan.size = uniques.empty() ? 0 : total;
  plan.weights.size = plan.size;
  plan.weights.pieces.reserve(uniques.size());
  for (const Unique& u : uniques) {
    absl::Span<const uint8_t> data = u.tensor->GetBytes();
    if (data.empty()) continue;
    const std::shared_ptr<AlignedBuffer>& buffer = u.tensor->GetBuffer();
    const FileExtent* file = buffer->file_extent();
    plan.weights.pieces.push_back(WeightPiece{u.offset, data.data(), data.size(), buffer, buffer,
                                              file == nullptr ? FileExtent{} : *file});
  }
  plan.slots.resize(consts.size());
  for (size_t c = 0; c < consts.size(); ++c) {
    TensorSlot& slot = plan.slots[c];
    slot.kind = proto::MEM_WEIGHTS;
    slot.offset = uniques[unique_of[c]].offset;
    slot.size = tensors[c]->GetDataSize();
  }
  // Replace the value tensors by weight references (tensors[] dies here).
  // dtype / format / dims are recorded only when the value's desc differs
  // from the Const's output desc (which names them otherwise).
  for (size_t c = 0; c < consts.size(); ++c) {
    OpDesc* op = consts[c]->GetOpDescBarePtr();
    const GeTensorDesc& d = tensors[c]->GetTensorDesc();
    const TensorSlot& slot = plan.slots[c];
    const GeTensorDesc* out = op->PeekOutputDesc(0);  // read here only
    const bool same_desc = out != nullptr && out->GetDataType() == d.GetDataType() &&
                           out->GetFormat() == d.GetFormat() && out->GetShape() == d.GetShape();
    if (!same_desc) {
      RETURN_IF_ERROR(op->SetAttr(
          kAttrWeightDtype, AttrValue::CreateFrom<int64_t>(static_cast<int64_t>(d.GetDataType()))));
      RETURN_IF_ERROR(op->SetAttr(
          kAttrWeightFormat, AttrValue::CreateFrom<int64_t>(static_cast<int64_t>(d.GetFormat()))));
      RETURN_IF_ERROR(op->SetAttr(
          kAttrWeightDims, AttrValue::CreateFrom<std::vector<int64_t>>(d.GetShape().GetDims())));
    }
    RETURN_IF_ERROR(op->SetAttr(kAttrWeightOffset,
                                AttrValue::CreateFrom<int64_t>(static_cast<int64_t>(slot.offset))));
    RETURN_IF_ERROR(op->SetAttr(kAttrWeightSize,
                                AttrValue::CreateFrom<int64_t>(static_cast<int64_t>(slot.size))));
    RETURN_IF_ERROR(op->DelAttr(kAttrValue));
  }
  return plan;
}

// ---------------------------------------------------------------- model io

struct ModelIo {
  std::vector<Node*> data_by_index;
  Node* net_output = nullptr;
};

// From the Data and NetOutput nodes of the scan (each in node order).
StatusOr<ModelIo> FindModelIo(const GraphScan& scan) {
  ModelIo io;
  if (scan.net_outputs.size() > 1) {
    return GraphInvalid("graph has two NetOutput nodes: '", scan.net_outputs[0]->GetName(),
                        "' and '", scan.net_outputs[1]->GetName(), "'");
  }
  if (!scan.net_outputs.empty()) io.net_output = scan.net_outputs[0];
  std::vector<std::pair<int64_t, Node*>> data;
  data.reserve(scan.data.size());
  for (Node* n : scan.data) {
    const AttrValue* v = n->GetOpDescBarePtr()->GetAttr(kAttrIndex);
    const int64_t* index = v == nullptr ? nullptr : v->Get<int64_t>();
    if (index == nullptr) {
      return GraphInvalid(NodeHead(*n), " has no int attribute '", kAttrIndex, "'");
    }
    if (n->GetAllOutDataAnchorsSize() < 1 || n->GetOpDescBarePtr()->GetOutputsSize() < 1) {
      return GraphInvalid(NodeHead(*n), " has no output");
    }
    data.emplace_back(*index, n);
  }
  if (io.net_output == nullptr) return GraphInvalid("graph has no NetOutput node");
  std::sort(data.begin(), data.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < data.size(); ++i) {
    if (data[i].first != static_cast<int64_t>(i)) {
      return GraphInvalid(NodeHead(*data[i].second), " has input index ", data[i].first,
                          "; Data indices must be exactly 0..", data.size() - 1);
    }
    io.data_by_index.push_back(data[i].second);
  }
  return io;
}

void FillIoDef(const std::string& name, const GeTensorDesc& d, uint64_t size,
               proto::ModelIoDef* io) {
  io->set_name(name);
  io->set_data_type(static_cast<int32_t>(d.GetDataType()));
  for (int64_t dim : d.GetShape().GetDimsSpan()) io->add_dims(dim);
  io->set_size(size);
  io->set_format(static_cast<int32_t>(d.GetFormat()));
}

}  // namespace

StatusOr<GeRootModelPtr> ModelBuilder::Build(const ComputeGraphPtr& graph) {
  stats_ = ModelBuildStats{};
  if (graph == nullptr) return ParamInvalid("ModelBuilder::Build: graph is null");
  GraphScan scan;
  RETURN_IF_ERROR(ScanInTopologicalOrder(graph, &scan));
  const std::vector<Node*>& nodes = scan.nodes;
  std::vector<NodeMemory>& mem = scan.mem;
  ASSIGN_OR_RETURN(ModelIo io, FindModelIo(scan));
  ASSIGN_OR_RETURN(WeightPlan weights, MergeWeights(graph, scan.consts));
  stats_.num_consts = weights.num_consts;
  stats_.num_unique_weights = weights.num_unique;

  auto model = std::make_shared<GeModel>();
  model->name = graph->GetName();
  model->graph = graph;
  model->attrs = options_.attrs;
  model->weights = std::move(weights.weights);
  proto::ModelTaskDef& def = model->task_def;
  def.set_graph_name(graph->GetName());
  def.set_weight_size(weights.size);
  def.set_stream_num(1);

  stats_.dynamic_reason = std::move(scan.dynamic_reason);
  const bool dynamic = !stats_.dynamic_reason.empty();
  def.set_dynamic(dynamic);

  // Model inputs.
  std::vector<uint64_t> input_size(io.data_by_index.size(), 0);
  for (size_t i = 0; i < io.data_by_index.size(); ++i) {
    Node* n = io.data_by_index[i];
    const GeTensorDesc* d = n->GetOpDescBarePtr()->PeekOutputDesc(0);  // read here only
    if (!dynamic) {
      ASSIGN_OR_RETURN(input_size[i], TensorBytes(*n, 0, *d));
    }
    FillIoDef(n->GetName(), *d, input_size[i], def.add_input());
  }
  // Model outputs: NetOutput input k <- producer.
  Node* net = io.net_output;
  const size_t num_outputs = net->GetAllInDataAnchorsSize();
  std::vector<const OutDataAnchor*> out_src(num_outputs, nullptr);
  for (size_t k = 0; k < num_outputs; ++k) {
    const InDataAnchor* in = net->GetInDataAnchorBarePtr(static_cast<int32_t>(k));
    out_src[k] = in == nullptr ? nullptr : in->GetPeerOutAnchorPtr();
    if (out_src[k] == nullptr) {
      return GraphInvalid("input ", k, " of NetOutput '", net->GetName(), "' is not connected");
    }
  }
  std::vector<uint64_t> output_size(num_outputs, 0);
  for (size_t k = 0; k < num_outputs; ++k) {
    const Node* src = out_src[k]->GetOwnerNodeBarePtr();
    const GeTensorDesc* d = src->GetOpDescBarePtr()->PeekOutputDesc(
        static_cast<uint32_t>(out_src[k]->GetIdx()));  // read here only
    if (d == nullptr) {
      return GraphInvalid("output ", out_src[k]->GetIdx(), " of ", NodeHead(*src), " has no desc");
    }
    if (!dynamic) {
      ASSIGN_OR_RETURN(output_size[k],
                       TensorBytes(*src, static_cast<uint32_t>(out_src[k]->GetIdx()), *d));
    }
    FillIoDef(absl::StrCat(src->GetName(), ":", out_src[k]->GetIdx()), *d, output_size[k],
              def.add_output());
  }
  if (dynamic) {
    stats_.memory = MemPlanStats{};
    auto root = std::make_shared<GeRootModel>();
    root->root = std::move(model);
    return root;
  }

  // ---- CalcOpParam: the scan sized every output; bind the non-ARENA ones.
  RETURN_IF_ERROR(scan.deferred);
  if (weights.consts.size() < scan.consts.size()) return Internal("weight plan lost constants");
  for (size_t c = 0; c < scan.consts.size(); ++c) {  // root consts come first, in node order
    for (TensorSlot& s : mem[scan.consts[c]->GetOpDescBarePtr()->GetId()].outputs) {
      const uint32_t last_use = s.last_use;
      s = weights.slots[c];
      s.last_use = last_use;
    }
  }
  for (size_t i = 0; i < io.data_by_index.size(); ++i) {
    TensorSlot& s = mem[io.data_by_index[i]->GetOpDescBarePtr()->GetId()].outputs[0];
    s.kind = proto::MEM_MODEL_INPUT;
    s.index = static_cast<uint32_t>(i);  // FindModelIo: index attribute == i
  }
  // A kernel output feeding exactly one NetOutput input k lives in
  // MODEL_OUTPUT k; other ARENA tensors feeding NetOutput stay alive for the
  // copies at the end. (anchor, k) sorted by anchor groups the feeds.
  std::vector<std::pair<const OutDataAnchor*, uint32_t>> feeds(num_outputs);
  for (size_t k = 0; k < num_outputs; ++k) feeds[k] = {out_src[k], static_cast<uint32_t>(k)};
  std::sort(feeds.begin(), feeds.end());
  for (size_t f = 0; f < feeds.size();) {
    size_t g = f + 1;
    while (g < feeds.size() && feeds[g].first == feeds[f].first) ++g;
    const OutDataAnchor* anchor = feeds[f].first;
    const int64_t src = anchor->GetOwnerNodeBarePtr()->GetOpDescBarePtr()->GetId();
    const size_t idx = static_cast<size_t>(anchor->GetIdx());
    if (idx < mem[src].outputs.size()) {
      TensorSlot& s = mem[src].outputs[idx];
      if (s.kind == proto::MEM_ARENA) {  // not a weight / model input
        if (g - f == 1 && scan.info[src].kind == NodeKind::kKernel) {
          s.kind = proto::MEM_MODEL_OUTPUT;
          s.index = feeds[f].second;
        } else {
          s.keep_alive = true;  // copied to the model outputs at the end
        }
      }
    }
    f = g;
  }
  MemPlanOptions mem_options;
  mem_options.disable_reuse = options_.disable_reuse_memory;
  ASSIGN_OR_RETURN(stats_.memory, PlanArenaWithLifetimes(mem, mem_options));
  def.set_memory_size(stats_.memory.arena_size);

  // Tensor locations are recorded in TASK_INFO only: the op descs get no
  // input / output / workspace offsets (writing them allocated the op's
  // compile-state block per node and put every offset into MODEL_DEF again).

  // ---- tasks
  TaskGenOptions task_options;
  task_options.num_threads = options_.num_threads;
  RETURN_IF_ERROR(TaskGenerator(task_options).Generate(nodes, mem, &def));
  for (size_t k = 0; k < num_outputs; ++k) {
    const Node* src = out_src[k]->GetOwnerNodeBarePtr();
    const int64_t src_id = src->GetOpDescBarePtr()->GetId();
    const uint32_t idx = static_cast<uint32_t>(out_src[k]->GetIdx());
    if (idx >= mem[src_id].outputs.size()) {
      return GraphInvalid("output ", idx, " of ", NodeHead(*src),
                          " feeds NetOutput but has no memory");
    }
    const TensorSlot& s = mem[src_id].outputs[idx];
    if (s.kind == proto::MEM_MODEL_OUTPUT) continue;                       // written in place
    const GeTensorDesc* d = src->GetOpDescBarePtr()->PeekOutputDesc(idx);  // read here only
    if (d == nullptr) return GraphInvalid("output ", idx, " of ", NodeHead(*src), " has no desc");
    proto::TaskDef* t = def.add_task();
    t->set_task_id(static_cast<uint32_t>(def.task_size() - 1));
    t->set_type(proto::TASK_MEMCPY);
    t->set_node_name(net->GetName());
    t->set_op_type("MemcpyAsync");
    t->set_op_index(net->GetOpDescBarePtr()->GetId());
    t->set_engine("DNN_VM_RTS");
    t->set_kernel_name("MemcpyAsync");
    FillTensorRef(s, *d, t->add_input());
    TensorSlot dst;
    dst.kind = proto::MEM_MODEL_OUTPUT;
    dst.index = static_cast<uint32_t>(k);
    dst.size = s.size;
    FillTensorRef(dst, *d, t->add_output());
  }
  auto root = std::make_shared<GeRootModel>();
  root->root = std::move(model);
  return root;
}

// ---------------------------------------------------------------- restore

namespace {

Status RestoreGraphConsts(ComputeGraph& graph, const WeightBuffer& weights) {
  for (const NodePtr& n : graph.DirectNodes()) {
    OpDesc* op = n->GetOpDescBarePtr();
    const AttrValue* off_v = op->GetAttr(kAttrWeightOffset);
    if (off_v == nullptr) continue;
    const AttrValue* size_v = op->GetAttr(kAttrWeightSize);
    const AttrValue* dtype_v = op->GetAttr(kAttrWeightDtype);
    const AttrValue* dims_v = op->GetAttr(kAttrWeightDims);
    const AttrValue* format_v = op->GetAttr(kAttrWeightFormat);
    const int64_t* off = off_v->Get<int64_t>();
    const int64_t* size = size_v == nullptr ? nullptr : size_v->Get<int64_t>();
    if (off == nullptr || size == nullptr) {
      return GraphInvalid(NodeHead(*n), " has incomplete weight attributes (", kAttrWeightOffset,
                          ", ", kAttrWeightSize, ")");
    }
    if (*off < 0 || *size < 0 || static_cast<uint64_t>(*off) > weights.size ||
        static_cast<uint64_t>(*size) > weights.size - static_cast<uint64_t>(*off)) {
      return OutOfRange(NodeHead(*n), " weight [", *off, ", +", *size, ") is outside the ",
                        weights.size, "-byte weight blob");
    }
    GeTensorDesc desc;
    if (dtype_v != nullptr || dims_v != nullptr || format_v != nullptr) {
      const int64_t* dtype = dtype_v == nullptr ? nullptr : dtype_v->Get<int64_t>();
      const auto* dims = dims_v == nullptr ? nullptr : dims_v->Get<std::vector<int64_t>>();
      const int64_t* format = format_v == nullptr ? nullptr : format_v->Get<int64_t>();
      if (dtype == nullptr || dims == nullptr || format == nullptr) {
        return GraphInvalid(NodeHead(*n), " has incomplete weight attributes (", kAttrWeightDtype,
                            ", ", kAttrWeightFormat, ", ", kAttrWeightDims, ")");
      }
      if (*dtype < 0 || *dtype >= static_cast<int64_t>(DT_MAX)) {
        return ParamInvalid(NodeHead(*n), " weight data type ", *dtype, " is out of range");
      }
      if (*format < 0 || *format > std::numeric_limits<int32_t>::max()) {
        return ParamInvalid(NodeHead(*n), " weight format ", *format, " is out of range");
      }
      desc =
          GeTensorDesc(GeShape(*dims), static_cast<Format>(*format), static_cast<DataType>(*dtype));
    } else {
      const GeTensorDesc* out = op->GetOutputDescBarePtr(0);
      if (out == nullptr) return GraphInvalid(NodeHead(*n), " has no output desc for its weight");
      desc = GeTensorDesc(out->GetShape(), out->GetFormat(), out->GetDataType());
    }
    GeTensor t(desc);
    const uint64_t off_u = static_cast<uint64_t>(*off);
    const uint64_t size_u = static_cast<uint64_t>(*size);
    const uint8_t* bytes = weights.Find(off_u, size_u);
    std::shared_ptr<AlignedBuffer> view =
        bytes == nullptr || size_u == 0
            ? nullptr
            : AlignedBuffer::View(bytes, static_cast<size_t>(size_u), weights.OwnerAt(off_u));
    if (view != nullptr) {
      t.SetData(std::move(view));  // no copy: the tensor shares the weights
    } else if (bytes != nullptr || size_u == 0) {
      t.SetData(bytes, static_cast<size_t>(size_u));
    } else {
      // Across pieces or in a zero gap (hand-made references): copy.
      std::vector<uint8_t> copy(static_cast<size_t>(size_u), 0);
      for (const WeightPiece& p : weights.pieces) {
        const uint64_t lo = std::max(p.offset, off_u);
        const uint64_t hi = std::min(p.offset + p.size, off_u + size_u);
        if (lo < hi) std::memcpy(copy.data() + (lo - off_u), p.data + (lo - p.offset), hi - lo);
      }
      t.SetData(copy);
    }
    RETURN_IF_ERROR(op->SetAttr(kAttrValue, AttrValue::CreateFrom<GeTensor>(std::move(t))));
    for (const char* a : {kAttrWeightOffset, kAttrWeightSize, kAttrWeightDtype, kAttrWeightDims,
                          kAttrWeightFormat}) {
      if (op->HasAttr(a)) RETURN_IF_ERROR(op->DelAttr(a));
    }
  }
  return OkStatus();
}

}  // namespace

Status RestoreConstValues(GeModel& model) {
  if (model.graph == nullptr) return ParamInvalid("RestoreConstValues: model has no graph");
  RETURN_IF_ERROR(RestoreGraphConsts(*model.graph, model.weights));
  for (const ComputeGraphPtr& sub : model.graph->GetAllSubgraphs()) {
    if (sub != nullptr) RETURN_IF_ERROR(RestoreGraphConsts(*sub, model.weights));
  }
  return OkStatus();
}

}  // namespace ge
