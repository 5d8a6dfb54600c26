// graph/src/node.cc
//
// Node: anchor storage (one block for the data anchors created at Create(),
// individually allocated overflow for anchors appended later), neighbour
// queries, AddLinkFrom.
#include "graph/inc/graph/node.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/pool_allocator.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

static_assert(sizeof(InDataAnchor) == sizeof(OutDataAnchor), "anchor block layout");
static_assert(sizeof(InDataAnchor) == 16, "an anchor is 16 bytes (node blocks are streamed)");
static_assert(alignof(InDataAnchor) == alignof(OutDataAnchor), "anchor block layout");

namespace {

constexpr size_t kAnchorSize = sizeof(InDataAnchor);
static_assert(alignof(Node) % alignof(InDataAnchor) == 0 &&
                  sizeof(Node) % alignof(InDataAnchor) == 0,
              "anchors placed right behind a node are aligned");

// Anchor indexes are 28-bit (see Anchor).
Status CheckAnchorCount(const OpDesc& op, const char* what, size_t have, size_t more) {
  if (more <= static_cast<size_t>(Anchor::kMaxIdx) + 1 - have) return OkStatus();
  return OutOfRange("node ", op.DebugString(), " would have ", have + more, " ", what,
                    " anchors; at most ", static_cast<int64_t>(Anchor::kMaxIdx) + 1,
                    " are supported");
}

}  // namespace

size_t Node::BlockBytes(size_t anchors) {
  static_assert(sizeof(Node) == Anchor::kNodeFieldBytes, "Anchor::GetOwnerNodeBarePtr needs it");
  return sizeof(Node) + anchors * kAnchorSize;
}

StatusOr<NodePtr> Node::Create(const OpDescPtr& op_desc) {
  if (op_desc == nullptr) return ParamInvalid("cannot create a node from a null OpDesc");
  const size_t nin = op_desc->GetAllInputsSize();
  const size_t nout = op_desc->GetAllOutputsDescSize();
  RETURN_IF_ERROR(CheckAnchorCount(*op_desc, "input", 0, nin));
  RETURN_IF_ERROR(CheckAnchorCount(*op_desc, "output", 0, nout));
  const size_t anchors = nin + nout;
  char* block =
      static_cast<char*>(internal::PoolAllocate(BlockBytes(anchors), internal::PoolRegion::kNodes));
  Node* raw = new (block + nout * kAnchorSize) Node(Passkey{}, op_desc);
  // The control block goes with the cold part, apart from the node block.
  NodePtr node(raw, BlockDeleter{},
               internal::PoolStdAllocator<Node, internal::PoolRegion::kNodeCold>());
  raw->cold_->self = node;
  return node;
}

void Node::BlockDeleter::operator()(Node* node) const noexcept {
  const size_t bytes = BlockBytes(size_t{node->cap_in_} + node->cap_out_);
  void* start = node->BlockStart();
  node->~Node();
  internal::PoolDeallocate(start, bytes, internal::PoolRegion::kNodes);
}

Node::Node(Passkey, OpDescPtr op_desc)
    : op_body_(op_desc->b_), cold_(internal::PoolNewIn<Cold>(internal::PoolRegion::kNodeCold)) {
  cold_->op = std::move(op_desc);
  op_body_->attached_to_node_ = true;
  const size_t nin = cold_->op->GetAllInputsSize();
  const size_t nout = cold_->op->GetAllOutputsDescSize();
  InDataAnchor* in_block = InBlock();
  for (size_t i = 0; i < nin; ++i) {
    InDataAnchor* a = new (&in_block[i]) InDataAnchor();
    static_cast<Anchor*>(a)->Init(Anchor::kInNodeBlock, static_cast<int32_t>(i));
  }
  for (size_t i = 0; i < nout; ++i) {
    OutDataAnchor* a = new (OutSlot(i)) OutDataAnchor();
    static_cast<Anchor*>(a)->Init(Anchor::kInNodeBlock, static_cast<int32_t>(i));
  }
  cap_in_ = num_in_ = static_cast<uint32_t>(nin);
  cap_out_ = num_out_ = static_cast<uint32_t>(nout);
}

Node::~Node() {
  UnlinkAllAnchors();
  for (uint32_t i = 0; i < cap_in_; ++i) InBlock()[i].~InDataAnchor();
  for (uint32_t i = 0; i < cap_out_; ++i) OutSlot(i)->~OutDataAnchor();
  internal::PoolDelete(ctrl_.load(std::memory_order_acquire), internal::PoolRegion::kNodes);
  internal::PoolDelete(cold_, internal::PoolRegion::kNodeCold);
}

Node::ControlAnchors& Node::MakeCtrl() const {
  ControlAnchors* fresh = internal::PoolNewIn<ControlAnchors>(internal::PoolRegion::kNodes);
  Node* self = const_cast<Node*>(this);
  fresh->in_owner = self;
  fresh->out_owner = self;
  static_cast<Anchor&>(fresh->in).Init(Anchor::kSlotBefore, -1);
  static_cast<Anchor&>(fresh->out).Init(Anchor::kSlotBefore, -1);
  ControlAnchors* expected = nullptr;
  if (ctrl_.compare_exchange_strong(expected, fresh, std::memory_order_acq_rel,
                                    std::memory_order_acquire)) {
    return *fresh;
  }
  internal::PoolDelete(fresh, internal::PoolRegion::kNodes);  // another thread created them first
  return *expected;
}

absl::Span<Anchor* const> Node::InControlPeers() const {
  ControlAnchors* c = ctrl_.load(std::memory_order_acquire);
  return c == nullptr ? absl::Span<Anchor* const>() : c->in.PeerAnchors();
}
absl::Span<Anchor* const> Node::OutControlPeers() const {
  ControlAnchors* c = ctrl_.load(std::memory_order_acquire);
  return c == nullptr ? absl::Span<Anchor* const>() : c->out.PeerAnchors();
}

void Node::UnlinkAllAnchors() {
  for (uint32_t i = 0; i < num_in_; ++i) InAt(i)->UnlinkAll();
  for (uint32_t i = 0; i < num_out_; ++i) OutAt(i)->UnlinkAll();
  if (ControlAnchors* c = ctrl_.load(std::memory_order_acquire)) {
    c->in.UnlinkAll();
    c->out.UnlinkAll();
  }
}

InDataAnchor* Node::InOverflowAt(size_t i) const {
  return &cold_->overflow->in[i - cap_in_]->anchor;
}
OutDataAnchor* Node::OutOverflowAt(size_t i) const {
  return &cold_->overflow->out[i - cap_out_]->anchor;
}

const std::string& Node::GetName() const { return op_body_->name_; }
const std::string& Node::GetType() const { return *op_body_->type_; }

Status Node::UpdateOpDesc(const OpDescPtr& op_desc) {
  if (op_desc == nullptr) return ParamInvalid("node ", DebugString(), ": the new OpDesc is null");
  if (op_desc->GetAllInputsSize() != num_in_ || op_desc->GetAllOutputsDescSize() != num_out_) {
    return ParamInvalid("node ", DebugString(), " has ", num_in_, " inputs and ", num_out_,
                        " outputs; OpDesc ", op_desc->DebugString(), " has ",
                        op_desc->GetAllInputsSize(), " and ", op_desc->GetAllOutputsDescSize());
  }
  op_desc->b_->attached_to_node_ = true;
  cold_->op = op_desc;
  op_body_ = op_desc->b_;
  BumpOpDescRenameEpoch();
  BumpOpDescIdEpoch();
  return OkStatus();
}

ComputeGraphPtr Node::GetOwnerComputeGraph() const {
  return cold_->owner_graph == nullptr ? nullptr : cold_->owner_graph->weak_from_this().lock();
}

std::string Node::DebugString() const { return cold_->op->DebugString(); }

// ------------------------------------------------------------------ anchors

InDataAnchorPtr Node::GetInDataAnchor(int32_t idx) const {
  InDataAnchor* a = GetInDataAnchorBarePtr(idx);
  return a == nullptr ? nullptr : std::static_pointer_cast<InDataAnchor>(a->GetSharedPtr());
}
OutDataAnchorPtr Node::GetOutDataAnchor(int32_t idx) const {
  OutDataAnchor* a = GetOutDataAnchorBarePtr(idx);
  return a == nullptr ? nullptr : std::static_pointer_cast<OutDataAnchor>(a->GetSharedPtr());
}
InDataAnchor* Node::GetInDataAnchorBarePtr(int32_t idx) const {
  if (idx < 0 || static_cast<uint32_t>(idx) >= num_in_) return nullptr;
  return InAt(static_cast<size_t>(idx));
}
OutDataAnchor* Node::GetOutDataAnchorBarePtr(int32_t idx) const {
  if (idx < 0 || static_cast<uint32_t>(idx) >= num_out_) return nullptr;
  return OutAt(static_cast<size_t>(idx));
}
InControlAnchorPtr Node::GetInControlAnchor() const {
  return std::static_pointer_cast<InControlAnchor>(Ctrl().in.GetSharedPtr());
}
OutControlAnchorPtr Node::GetOutControlAnchor() const {
  return std::static_pointer_cast<OutControlAnchor>(Ctrl().out.GetSharedPtr());
}
AnchorPtr Node::GetInAnchor(int32_t idx) const {
  if (idx == -1) return Ctrl().in.GetSharedPtr();
  return GetInDataAnchor(idx);
}
AnchorPtr Node::GetOutAnchor(int32_t idx) const {
  if (idx == -1) return Ctrl().out.GetSharedPtr();
  return GetOutDataAnchor(idx);
}
std::vector<InDataAnchorPtr> Node::GetAllInDataAnchors() const {
  std::vector<InDataAnchorPtr> out;
  out.reserve(num_in_);
  for (uint32_t i = 0; i < num_in_; ++i) {
    out.push_back(std::static_pointer_cast<InDataAnchor>(InAt(i)->GetSharedPtr()));
  }
  return out;
}
std::vector<OutDataAnchorPtr> Node::GetAllOutDataAnchors() const {
  std::vector<OutDataAnchorPtr> out;
  out.reserve(num_out_);
  for (uint32_t i = 0; i < num_out_; ++i) {
    out.push_back(std::static_pointer_cast<OutDataAnchor>(OutAt(i)->GetSharedPtr()));
  }
  return out;
}
std::vector<InDataAnchor*> Node::GetAllInDataAnchorsPtr() const {
  std::vector<InDataAnchor*> out;
  out.reserve(num_in_);
  for (uint32_t i = 0; i < num_in_; ++i) out.push_back(InAt(i));
  return out;
}
std::vector<OutDataAnchor*> Node::GetAllOutDataAnchorsPtr() const {
  std::vector<OutDataAnchor*> out;
  out.reserve(num_out_);
  for (uint32_t i = 0; i < num_out_; ++i) out.push_back(OutAt(i));
  return out;
}
std::vector<AnchorPtr> Node::GetAllInAnchors() const {
  std::vector<AnchorPtr> out;
  out.reserve(num_in_ + 1);
  for (uint32_t i = 0; i < num_in_; ++i) out.push_back(InAt(i)->GetSharedPtr());
  out.push_back(Ctrl().in.GetSharedPtr());
  return out;
}
std::vector<AnchorPtr> Node::GetAllOutAnchors() const {
  std::vector<AnchorPtr> out;
  out.reserve(num_out_ + 1);
  for (uint32_t i = 0; i < num_out_; ++i) out.push_back(OutAt(i)->GetSharedPtr());
  out.push_back(Ctrl().out.GetSharedPtr());
  return out;
}

template <typename A>
Status Node::AppendAnchors(size_t num, const char* what, uint32_t cap, uint32_t* count,
                           std::vector<std::unique_ptr<Slotted<A>>> Overflow::*list) {
  RETURN_IF_ERROR(CheckAnchorCount(*cold_->op, what, *count, num));
  for (size_t k = 0; k < num; ++k, ++*count) {
    const uint32_t i = *count;
    A* a;
    if (i < cap) {
      if constexpr (std::is_same_v<A, InDataAnchor>) {
        a = &InBlock()[i];
      } else {
        a = OutSlot(i);
      }
    } else {
      if (cold_->overflow == nullptr) cold_->overflow = std::make_unique<Overflow>();
      auto& slots = cold_->overflow.get()->*list;
      if (i - cap == slots.size()) {  // else a retired one is reused
        slots.push_back(std::make_unique<Slotted<A>>());
        slots.back()->owner = this;
        Anchor& fresh = slots.back()->anchor;
        fresh.Init(Anchor::kSlotBefore, static_cast<int32_t>(i));
      }
      a = &slots[i - cap]->anchor;
    }
    a->SetStatus(ANCHOR_SUSPEND);
  }
  return OkStatus();
}

Status Node::AppendInDataAnchors(size_t num) {
  return AppendAnchors(num, "input", cap_in_, &num_in_, &Overflow::in);
}

Status Node::AppendOutDataAnchors(size_t num) {
  return AppendAnchors(num, "output", cap_out_, &num_out_, &Overflow::out);
}

Status Node::RemoveInDataAnchors(size_t num) {
  if (num > num_in_) {
    return ParamInvalid("node ", DebugString(), " has ", num_in_, " input anchors, cannot remove ",
                        num);
  }
  for (size_t k = 0; k < num; ++k) {
    InAt(num_in_ - 1)->UnlinkAll();
    --num_in_;
  }
  return OkStatus();
}

Status Node::RemoveOutDataAnchors(size_t num) {
  if (num > num_out_) {
    return ParamInvalid("node ", DebugString(), " has ", num_out_,
                        " output anchors, cannot remove ", num);
  }
  for (size_t k = 0; k < num; ++k) {
    OutAt(num_out_ - 1)->UnlinkAll();
    --num_out_;
  }
  return OkStatus();
}

// --------------------------------------------------------------- neighbours

namespace {
NodePtr OwnerOf(const Anchor* a) { return a->GetOwnerNode(); }
}  // namespace

std::vector<NodePtr> Node::GetInDataNodes() const {
  std::vector<NodePtr> out;
  for (uint32_t i = 0; i < num_in_; ++i) {
    if (OutDataAnchor* p = InAt(i)->GetPeerOutAnchorPtr()) out.push_back(OwnerOf(p));
  }
  return out;
}

std::vector<NodePtr> Node::GetInControlNodes() const {
  std::vector<NodePtr> out;
  for (Anchor* p : InControlPeers()) out.push_back(OwnerOf(p));
  for (uint32_t i = 0; i < num_in_; ++i) {
    if (OutControlAnchor* p = InAt(i)->GetPeerOutControlAnchorPtr()) out.push_back(OwnerOf(p));
  }
  return out;
}

std::vector<NodePtr> Node::GetInAllNodes() const {
  std::vector<NodePtr> out = GetInDataNodes();
  std::vector<NodePtr> ctrl = GetInControlNodes();
  out.insert(out.end(), ctrl.begin(), ctrl.end());
  return out;
}

std::vector<Node*> Node::GetInNodesPtr() const {
  std::vector<Node*> out;
  for (uint32_t i = 0; i < num_in_; ++i) {
    if (OutDataAnchor* p = InAt(i)->GetPeerOutAnchorPtr()) out.push_back(p->GetOwnerNodeBarePtr());
  }
  for (Anchor* p : InControlPeers()) out.push_back(p->GetOwnerNodeBarePtr());
  for (uint32_t i = 0; i < num_in_; ++i) {
    if (OutControlAnchor* p = InAt(i)->GetPeerOutControlAnchorPtr()) {
      out.push_back(p->GetOwnerNodeBarePtr());
    }
  }
  return out;
}

std::vector<NodePtr> Node::GetOutDataNodes() const {
  std::vector<NodePtr> out;
  for (uint32_t i = 0; i < num_out_; ++i) {
    for (Anchor* p : OutAt(i)->PeerAnchors()) {
      if (p->IsInData()) out.push_back(OwnerOf(p));
    }
  }
  return out;
}

std::vector<NodePtr> Node::GetOutControlNodes() const {
  std::vector<NodePtr> out;
  for (Anchor* p : OutControlPeers()) out.push_back(OwnerOf(p));
  for (uint32_t i = 0; i < num_out_; ++i) {
    for (Anchor* p : OutAt(i)->PeerAnchors()) {
      if (p->IsInControl()) out.push_back(OwnerOf(p));
    }
  }
  return out;
}

std::vector<NodePtr> Node::GetOutAllNodes() const {
  std::vector<NodePtr> out = GetOutDataNodes();
  std::vector<NodePtr> ctrl = GetOutControlNodes();
  out.insert(out.end(), ctrl.begin(), ctrl.end());
  return out;
}

std::vector<Node*> Node::GetOutNodesPtr() const {
  std::vector<Node*> out;
  for (uint32_t i = 0; i < num_out_; ++i) {
    for (Anchor* p : OutAt(i)->PeerAnchors()) {
      if (p->IsInData()) out.push_back(p->GetOwnerNodeBarePtr());
    }
  }
  for (Anchor* p : OutControlPeers()) out.push_back(p->GetOwnerNodeBarePtr());
  for (uint32_t i = 0; i < num_out_; ++i) {
    for (Anchor* p : OutAt(i)->PeerAnchors()) {
      if (p->IsInControl()) out.push_back(p->GetOwnerNodeBarePtr());
    }
  }
  return out;
}

size_t Node::GetInDataNodesSize() const {
  size_t n = 0;
  for (uint32_t i = 0; i < num_in_; ++i) n += InAt(i)->GetPeerOutAnchorPtr() != nullptr ? 1 : 0;
  return n;
}
size_t Node::GetOutDataNodesSize() const {
  size_t n = 0;
  for (uint32_t i = 0; i < num_out_; ++i) n += OutAt(i)->GetPeerInDataNodesSize();
  return n;
}
size_t Node::GetInNodesSize() const {
  size_t n = InControlPeers().size();
  for (uint32_t i = 0; i < num_in_; ++i) n += InAt(i)->GetPeerAnchorsSize();
  return n;
}
size_t Node::GetOutNodesSize() const {
  size_t n = OutControlPeers().size();
  for (uint32_t i = 0; i < num_out_; ++i) n += OutAt(i)->GetPeerAnchorsSize();
  return n;
}

std::vector<std::pair<NodePtr, OutDataAnchorPtr>> Node::GetInDataNodesAndAnchors() const {
  std::vector<std::pair<NodePtr, OutDataAnchorPtr>> out;
  for (uint32_t i = 0; i < num_in_; ++i) {
    if (OutDataAnchor* p = InAt(i)->GetPeerOutAnchorPtr()) {
      out.emplace_back(OwnerOf(p), std::static_pointer_cast<OutDataAnchor>(p->GetSharedPtr()));
    }
  }
  return out;
}

std::vector<std::pair<NodePtr, InDataAnchorPtr>> Node::GetOutDataNodesAndAnchors() const {
  std::vector<std::pair<NodePtr, InDataAnchorPtr>> out;
  for (uint32_t i = 0; i < num_out_; ++i) {
    for (Anchor* p : OutAt(i)->PeerAnchors()) {
      if (p->IsInData()) {
        out.emplace_back(OwnerOf(p), std::static_pointer_cast<InDataAnchor>(p->GetSharedPtr()));
      }
    }
  }
  return out;
}

// ------------------------------------------------------------ AddLinkFrom

namespace {
Status CheckSingleOutput(const Node& self, const NodePtr& input_node) {
  if (input_node == nullptr) {
    return ParamInvalid("node ", self.DebugString(), ": AddLinkFrom a null node");
  }
  if (input_node->GetAllOutDataAnchorsSize() != 1) {
    return ParamInvalid("node ", self.DebugString(), ": AddLinkFrom ", input_node->DebugString(),
                        " needs a node with exactly one output, it has ",
                        input_node->GetAllOutDataAnchorsSize());
  }
  return OkStatus();
}
}  // namespace

Status Node::AddLinkFrom(const NodePtr& input_node) {
  return AddLinkFrom(static_cast<uint32_t>(num_in_), input_node);
}

Status Node::AddLinkFrom(uint32_t index, const NodePtr& input_node) {
  RETURN_IF_ERROR(CheckSingleOutput(*this, input_node));
  const GeTensorDesc desc = input_node->GetOpDesc()->GetOutputDesc(0);
  OutDataAnchor* src = input_node->GetOutDataAnchorBarePtr(0);
  if (index < num_in_) {
    InDataAnchor* dst = InAt(index);
    RETURN_IF_ERROR(Anchor::CheckLink(src, dst));
    RETURN_IF_ERROR(cold_->op->UpdateInputDesc(index, desc));
    Anchor::LinkUnchecked(src, dst);
    return OkStatus();
  }
  if (index != num_in_ || cold_->op->GetAllInputsSize() != num_in_) {
    return OutOfRange("node ", DebugString(), ": AddLinkFrom input index ", index,
                      " must be an existing input or the next one (", num_in_, " anchors, ",
                      cold_->op->GetAllInputsSize(), " input descs)");
  }
  RETURN_IF_ERROR(cold_->op->AddInputDesc(desc));
  RETURN_IF_ERROR(AppendInDataAnchors(1));
  Anchor::LinkUnchecked(src, InAt(num_in_ - 1));
  return OkStatus();
}

Status Node::AddLinkFrom(const std::string& name, const NodePtr& input_node) {
  RETURN_IF_ERROR(CheckSingleOutput(*this, input_node));
  const int32_t index = cold_->op->GetInputIndexByName(name);
  if (index >= 0) {
    if (static_cast<uint32_t>(index) >= num_in_) {
      return OutOfRange("node ", DebugString(), ": input '", name, "' (index ", index,
                        ") has no anchor (", num_in_, " anchors)");
    }
    return AddLinkFrom(static_cast<uint32_t>(index), input_node);
  }
  if (cold_->op->GetAllInputsSize() != num_in_) {
    return ParamInvalid("node ", DebugString(), ": ", cold_->op->GetAllInputsSize(),
                        " input descs but ", num_in_, " input anchors");
  }
  OutDataAnchor* src = input_node->GetOutDataAnchorBarePtr(0);
  RETURN_IF_ERROR(cold_->op->AddInputDesc(name, input_node->GetOpDesc()->GetOutputDesc(0)));
  RETURN_IF_ERROR(AppendInDataAnchors(1));
  Anchor::LinkUnchecked(src, InAt(num_in_ - 1));
  return OkStatus();
}

}  // namespace ge
