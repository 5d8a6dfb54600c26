// compiler/passes/refine_running_format_pass.cc
#include "compiler/passes/refine_running_format_pass.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "compiler/passes/pass_framework/graph_rewriter.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "metadef/register/inc/register/op_registry.h"

namespace ge {
namespace {

constexpr char kTransData[] = "TransData";

bool IsFloat(DataType dt) { return dt == DT_FLOAT || dt == DT_BF16 || dt == DT_FLOAT16; }

bool FromConst(const Node& node, int32_t i) {
  const InDataAnchorPtr in = node.GetInDataAnchor(i);
  if (in == nullptr || in->GetPeerOutAnchor() == nullptr) return false;
  const std::string& t = in->GetPeerOutAnchor()->GetOwnerNode()->GetType();
  return t == CONSTANT || t == CONSTANTOP;
}

// The channels-first / channels-last pair of a rank (none for others).
bool LayoutsOf(size_t rank, Format* first, Format* last) {
  if (rank == 4) {
    *first = FORMAT_NCHW;
    *last = FORMAT_NHWC;
    return true;
  }
  if (rank == 5) {
    *first = FORMAT_NCDHW;
    *last = FORMAT_NDHWC;
    return true;
  }
  return false;
}

bool IsActivation(const GeTensorDesc* d, size_t rank) {
  return d != nullptr && IsFloat(d->GetDataType()) && d->GetShape().GetDimNum() == rank &&
         !d->GetShape().IsUnknownShape();
}

// What the pass knows of one candidate node.
struct Candidate {
  size_t rank = 0;
  std::vector<int32_t> act_inputs;   // activation input indices
  std::vector<int32_t> act_outputs;  // activation output indices
};

// Whether `node` can run with its activations channels-last; fills `c`.
bool CanRunChannelsLast(const Node& node, Candidate* c) {
  const OpDesc& op = *node.GetOpDescBarePtr();
  if (op.GetOpEngineName() != kEngineAiCore) return false;
  const KernelDef* def = FindKernel(op.GetType(), kEngineAiCore);
  if (def == nullptr) return false;
  // The node's rank: that of its first output.
  const GeTensorDesc* out0 = op.GetOutputDescBarePtr(0);
  if (out0 == nullptr) return false;
  const size_t rank = out0->GetShape().GetDimNum();
  Format first, last;
  if (!LayoutsOf(rank, &first, &last)) return false;
  if (std::find(def->formats.begin(), def->formats.end(), last) == def->formats.end()) return false;
  c->rank = rank;
  for (uint32_t i = 0; i < op.GetAllInputsSize(); ++i) {
    const GeTensorDesc* d = op.GetInputDescBarePtr(i);
    if (IsActivation(d, rank) && !FromConst(node, static_cast<int32_t>(i))) {
      c->act_inputs.push_back(static_cast<int32_t>(i));
    }
  }
  for (uint32_t i = 0; i < op.GetAllOutputsDescSize(); ++i) {
    if (IsActivation(op.GetOutputDescBarePtr(i), rank))
      c->act_outputs.push_back(static_cast<int32_t>(i));
  }
  if (c->act_outputs.empty()) return false;
  // The declaration must still accept the node channels-last.
  OpDesc trial(op);
  for (int32_t i : c->act_inputs) trial.MutableInputDesc(static_cast<uint32_t>(i))->SetFormat(last);
  for (int32_t i : c->act_outputs)
    trial.MutableOutputDesc(static_cast<uint32_t>(i))->SetFormat(last);
  return def->CheckSupported(trial).ok();
}

bool IsConvolution(const std::string& type) { return type == "Conv" || type == "ConvTranspose"; }

}  // namespace

StatusOr<bool> RefineRunningFormatPass::RunImpl(const ComputeGraphPtr& graph) {
  converted_ = 0;
  inserted_ = 0;
  std::vector<NodePtr> nodes(graph->DirectNodes().begin(), graph->DirectNodes().end());
  absl::flat_hash_map<const Node*, Candidate> cand;
  for (const NodePtr& n : nodes) {
    Candidate c;
    if (CanRunChannelsLast(*n, &c)) cand.emplace(n.get(), std::move(c));
  }
  if (cand.empty()) return false;

  // Groups: candidates linked by activation edges of the same rank
  // (union-find over node order).
  absl::flat_hash_map<const Node*, const Node*> parent;
  std::function<const Node*(const Node*)> find = [&](const Node* x) {
    const Node* p = parent[x];
    if (p == x) return x;
    const Node* r = find(p);
    parent[x] = r;
    return r;
  };
  for (const NodePtr& n : nodes) {
    if (cand.count(n.get())) parent[n.get()] = n.get();
  }
  for (const NodePtr& n : nodes) {
    auto it = cand.find(n.get());
    if (it == cand.end()) continue;
    for (int32_t i : it->second.act_inputs) {
      const OutDataAnchorPtr src = n->GetInDataAnchor(i)->GetPeerOutAnchor();
      if (src == nullptr) continue;
      const Node* p = src->GetOwnerNode().get();
      auto pc = cand.find(p);
      if (pc == cand.end() || pc->second.rank != it->second.rank) continue;
      const auto& outs = pc->second.act_outputs;
      if (std::find(outs.begin(), outs.end(), src->GetIdx()) == outs.end()) continue;
      const Node* a = find(n.get());
      const Node* b = find(p);
      if (a != b) parent[a] = b;
    }
  }
  absl::flat_hash_set<const Node*> has_conv;
  for (const NodePtr& n : nodes) {
    if (cand.count(n.get()) && IsConvolution(n->GetType())) has_conv.insert(find(n.get()));
  }
  absl::flat_hash_set<const Node*> members;
  for (const NodePtr& n : nodes) {
    if (cand.count(n.get()) && has_conv.count(find(n.get()))) members.insert(n.get());
  }
  if (members.empty()) return false;

  GraphRewriter rw(graph);
  auto is_member_input = [&](const InDataAnchorPtr& in) {
    const Node* owner = in->GetOwnerNode().get();
    if (!members.count(owner)) return false;
    const auto& acts = cand.at(owner).act_inputs;
    return std::find(acts.begin(), acts.end(), in->GetIdx()) != acts.end();
  };
  auto make_transdata = [&](const std::string& name, const GeTensorDesc& like, Format from,
                            Format to) -> StatusOr<NodePtr> {
    ASSIGN_OR_RETURN(OpDescPtr op, OperatorFactory::CreateOpDesc(name, kTransData));
    RETURN_IF_ERROR(op->SetAttr(
        "src_format", AttrValue::CreateFrom<std::string>(TypeUtils::FormatToSerialString(from))));
    RETURN_IF_ERROR(op->SetAttr(
        "dst_format", AttrValue::CreateFrom<std::string>(TypeUtils::FormatToSerialString(to))));
    RETURN_IF_ERROR(op->SetAttr("_logical_dims", AttrValue::CreateFrom<bool>(true)));
    GeTensorDesc in = like, out = like;
    in.SetFormat(from);
    out.SetFormat(to);
    RETURN_IF_ERROR(op->UpdateInputDesc(0, in));
    RETURN_IF_ERROR(op->UpdateOutputDesc(0, out));
    const KernelDef* def = FindKernel(kTransData, kEngineAiCore);
    op->SetOpEngineName(def != nullptr && def->CheckSupported(*op).ok() ? kEngineAiCore
                                                                        : kEngineHostCpu);
    ++inserted_;
    return rw.AddNode(op);
  };

  // Activations entering a group: one TransData per source tensor.
  std::map<std::pair<std::string, int32_t>, NodePtr> entering;
  for (const NodePtr& n : nodes) {
    if (!members.count(n.get())) continue;
    const Candidate& c = cand.at(n.get());
    Format first, last;
    LayoutsOf(c.rank, &first, &last);
    for (int32_t i : c.act_inputs) {
      const InDataAnchorPtr in = n->GetInDataAnchor(i);
      const OutDataAnchorPtr src = in->GetPeerOutAnchor();
      if (src == nullptr) continue;
      const Node* p = src->GetOwnerNode().get();
      const bool from_member =
          members.count(p) &&
          std::find(cand.at(p).act_outputs.begin(), cand.at(p).act_outputs.end(), src->GetIdx()) !=
              cand.at(p).act_outputs.end();
      GeTensorDescPtr d = n->GetOpDescBarePtr()->MutableInputDesc(static_cast<uint32_t>(i));
      if (!from_member) {
        const auto key = std::make_pair(p->GetName(), src->GetIdx());
        NodePtr& td = entering[key];
        if (td == nullptr) {
          GeTensorDesc like = *d;
          like.SetOriginFormat(first);
          ASSIGN_OR_RETURN(td, make_transdata(absl::StrCat(p->GetName(), "_", src->GetIdx(),
                                                           "_to_", TypeUtils::FormatToSerialString(last)),
                                              like, first, last));
          RETURN_IF_ERROR(rw.LinkData(src, td->GetInDataAnchor(0)));
        }
        RETURN_IF_ERROR(rw.ReplaceInput(in, td->GetOutDataAnchor(0)));
      }
      d->SetFormat(last);
    }
  }
  // Activations leaving a group: one TransData back per output tensor with
  // consumers outside the group.
  for (const NodePtr& n : nodes) {
    if (!members.count(n.get())) continue;
    const Candidate& c = cand.at(n.get());
    Format first, last;
    LayoutsOf(c.rank, &first, &last);
    ++converted_;
    for (int32_t o : c.act_outputs) {
      GeTensorDescPtr d = n->GetOpDescBarePtr()->MutableOutputDesc(static_cast<uint32_t>(o));
      GeTensorDesc plain = *d;
      d->SetFormat(last);
      const OutDataAnchorPtr out = n->GetOutDataAnchor(o);
      std::vector<InDataAnchorPtr> outside;
      for (const InDataAnchorPtr& peer : out->GetPeerInDataAnchors()) {
        if (!is_member_input(peer)) outside.push_back(peer);
      }
      if (outside.empty()) continue;
      plain.SetFormat(first);
      ASSIGN_OR_RETURN(NodePtr td, make_transdata(absl::StrCat(n->GetName(), "_", o, "_to_",
                                                               TypeUtils::FormatToSerialString(first)),
                                                  plain, last, first));
      RETURN_IF_ERROR(rw.LinkData(out, td->GetInDataAnchor(0)));
      for (const InDataAnchorPtr& peer : outside) {
        RETURN_IF_ERROR(rw.ReplaceInput(peer, td->GetOutDataAnchor(0)));
      }
    }
  }
  return true;
}

GE_REGISTER_GRAPH_PASS(RefineRunningFormatPass);

}  // namespace ge
