// graph/src/anchor.cc
//
// Anchors: peer lists and the link rules. Every mutating operation checks
// everything first and then changes both ends.
#include "graph/inc/graph/anchor.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/pool_allocator.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// ---------------------------------------------------------------- peer lists

namespace {
// Peer arrays sit with the node blocks: a topological sort reads them.
constexpr internal::PoolRegion kRegion = internal::PoolRegion::kNodes;
}  // namespace

int32_t Anchor::PeerIndexOf(const Anchor* a) const {
  Anchor* const* d = PeerData();
  for (uint32_t i = 0; i < num_peers_; ++i) {
    if (d[i] == a) return static_cast<int32_t>(i);
  }
  return -1;
}

namespace {
// A pooled peer array of `cap` peers behind its capacity slot.
Anchor** NewPeerArray(size_t cap) {
  void* p = internal::PoolAllocate((cap + 1) * sizeof(Anchor*), kRegion);
  Anchor** many = static_cast<Anchor**>(p);
  many[0] = reinterpret_cast<Anchor*>(static_cast<uintptr_t>(cap));
  return many;
}
size_t PeerArrayCap(Anchor* const* many) { return reinterpret_cast<uintptr_t>(many[0]); }
void DeletePeerArray(Anchor** many) {
  internal::PoolDeallocate(many, (PeerArrayCap(many) + 1) * sizeof(Anchor*), kRegion);
}
}  // namespace

void Anchor::PeerPushBack(Anchor* a) {
  if (num_peers_ == 0) {
    peers_.one = a;
  } else if (num_peers_ == 1) {
    Anchor** many = NewPeerArray(2);
    many[1] = peers_.one;
    many[2] = a;
    peers_.many = many;
  } else {
    const size_t cap = PeerArrayCap(peers_.many);
    if (num_peers_ == cap) {
      Anchor** many = NewPeerArray(2 * cap);
      std::memcpy(many + 1, peers_.many + 1, sizeof(Anchor*) * num_peers_);
      DeletePeerArray(peers_.many);
      peers_.many = many;
    }
    peers_.many[1 + num_peers_] = a;
  }
  ++num_peers_;
}

void Anchor::PeerEraseAt(size_t i) {
  Anchor** d = PeerData();
  for (size_t k = i; k + 1 < num_peers_; ++k) d[k] = d[k + 1];
  if (num_peers_ == 2) {  // back to the inline slot
    Anchor** many = peers_.many;
    peers_.one = d[0];
    DeletePeerArray(many);
  }
  --num_peers_;
}

void Anchor::PeerReset() {
  if (num_peers_ >= 2) DeletePeerArray(peers_.many);
  peers_.one = nullptr;
  num_peers_ = 0;
}

// ------------------------------------------------------------------- Anchor

const char* Anchor::KindName(Kind kind) {
  switch (kind) {
    case Kind::kInData:
      return "in_data";
    case Kind::kOutData:
      return "out_data";
    case Kind::kInControl:
      return "in_control";
    case Kind::kOutControl:
      return "out_control";
  }
  return "unknown";
}

std::string Anchor::DebugString() const {
  const Node* node = GetOwnerNodeBarePtr();
  const std::string owner = node == nullptr ? std::string("<no node>") : node->GetName();
  return absl::StrCat(owner, ":", GetIdx(), "(", KindName(GetKind()), ")");
}

NodePtr Anchor::GetOwnerNode() const {
  Node* node = GetOwnerNodeBarePtr();
  return node == nullptr ? nullptr : node->weak_from_this().lock();
}

AnchorPtr Anchor::GetSharedPtr() const {
  Node* owner = GetOwnerNodeBarePtr();
  if (owner == nullptr) return nullptr;
  NodePtr node = owner->weak_from_this().lock();
  if (node == nullptr) return nullptr;
  return AnchorPtr(std::move(node), const_cast<Anchor*>(this));
}

std::vector<AnchorPtr> Anchor::GetPeerAnchors() const {
  std::vector<AnchorPtr> out;
  out.reserve(num_peers_);
  for (Anchor* p : PeerSpan()) out.push_back(p->GetSharedPtr());
  return out;
}

std::vector<Anchor*> Anchor::GetPeerAnchorsPtr() const {
  auto s = PeerSpan();
  return std::vector<Anchor*>(s.begin(), s.end());
}

AnchorPtr Anchor::GetFirstPeerAnchor() const {
  return num_peers_ == 0 ? nullptr : PeerData()[0]->GetSharedPtr();
}

Status Anchor::CheckLink(const Anchor* src, const Anchor* dst) {
  if (src == nullptr || dst == nullptr) return ParamInvalid("cannot link a null anchor");
  if (!src->IsOutAnchor() || !dst->IsInAnchor()) {
    return ParamInvalid("cannot link ", src->DebugString(), " to ", dst->DebugString(),
                        ": a link goes from an output anchor to an input anchor");
  }
  constexpr uint32_t kMaxPeers = (1u << 30) - 1;  // num_peers_ has 30 bits
  if (src->num_peers_ == kMaxPeers || dst->num_peers_ == kMaxPeers) {
    return OutOfRange("cannot link ", src->DebugString(), " to ", dst->DebugString(), ": ",
                      kMaxPeers, " peers is the most an anchor can have");
  }
  if (dst->IsInData() && dst->IsLinked()) {
    const Anchor* existing = dst->PeerData()[0];
    if (existing == src) {
      return AlreadyExists(src->DebugString(), " is already linked to ", dst->DebugString());
    }
    return AlreadyExists("cannot link ", src->DebugString(), " to ", dst->DebugString(),
                         ": the input already has producer ", existing->DebugString());
  }
  return OkStatus();
}

void Anchor::LinkUnchecked(Anchor* src, Anchor* dst) {
  src->PeerPushBack(dst);
  dst->PeerPushBack(src);
}

Status Anchor::LinkWith(Anchor* peer) {
  if (peer == nullptr) return ParamInvalid("cannot link ", DebugString(), " with a null anchor");
  return IsOutAnchor() ? DoLink(this, peer) : DoLink(peer, this);
}

Status Anchor::Unlink(Anchor* peer) {
  if (peer == nullptr) return ParamInvalid("cannot unlink ", DebugString(), " from a null anchor");
  const int32_t i = PeerIndexOf(peer);
  if (i < 0) return NotFound(DebugString(), " is not linked with ", peer->DebugString());
  const int32_t j = peer->PeerIndexOf(this);
  if (j < 0) {
    return Internal("broken link: ", peer->DebugString(), " does not list ", DebugString());
  }
  PeerEraseAt(static_cast<size_t>(i));
  peer->PeerEraseAt(static_cast<size_t>(j));
  return OkStatus();
}

void Anchor::UnlinkAll() noexcept {
  for (Anchor* p : PeerSpan()) {
    const int32_t j = p->PeerIndexOf(this);
    if (j >= 0) p->PeerEraseAt(static_cast<size_t>(j));
  }
  PeerReset();
}

Status Anchor::Insert(Anchor* old_peer, Anchor* first_peer, Anchor* second_peer) {
  if (old_peer == nullptr || first_peer == nullptr || second_peer == nullptr) {
    return ParamInvalid("Insert on ", DebugString(), ": anchors must not be null");
  }
  const int32_t this_i = PeerIndexOf(old_peer);
  if (this_i < 0) return NotFound(DebugString(), " is not linked with ", old_peer->DebugString());
  const int32_t old_i = old_peer->PeerIndexOf(this);
  if (old_i < 0) {
    return Internal("broken link: ", old_peer->DebugString(), " does not list ", DebugString());
  }
  if (first_peer->kind_ != old_peer->kind_) {
    return ParamInvalid("Insert on ", DebugString(), ": first peer ", first_peer->DebugString(),
                        " must be of the kind of the old peer ", old_peer->DebugString());
  }
  if (second_peer->kind_ != kind_) {
    return ParamInvalid("Insert on ", DebugString(), ": second peer ", second_peer->DebugString(),
                        " must be of the kind of this anchor");
  }
  for (const Anchor* a : {first_peer, second_peer}) {
    if (a->IsInData() && a->IsLinked()) {
      return AlreadyExists("Insert on ", DebugString(), ": ", a->DebugString(),
                           " already has a producer");
    }
  }
  if (IsLinkedWith(first_peer)) {
    return AlreadyExists(DebugString(), " is already linked with ", first_peer->DebugString());
  }
  if (second_peer->IsLinkedWith(old_peer)) {
    return AlreadyExists(second_peer->DebugString(), " is already linked with ",
                         old_peer->DebugString());
  }
  PeerData()[this_i] = first_peer;
  first_peer->PeerPushBack(this);
  old_peer->PeerData()[old_i] = second_peer;
  second_peer->PeerPushBack(old_peer);
  return OkStatus();
}

Status Anchor::ReplacePeer(Anchor* old_peer, Anchor* new_peer) {
  if (old_peer == nullptr || new_peer == nullptr) {
    return ParamInvalid("ReplacePeer on ", DebugString(), ": anchors must not be null");
  }
  const int32_t this_i = PeerIndexOf(old_peer);
  if (this_i < 0) return NotFound(DebugString(), " is not linked with ", old_peer->DebugString());
  const int32_t old_i = old_peer->PeerIndexOf(this);
  if (old_i < 0) {
    return Internal("broken link: ", old_peer->DebugString(), " does not list ", DebugString());
  }
  if (new_peer->kind_ != old_peer->kind_) {
    return ParamInvalid("ReplacePeer on ", DebugString(), ": new peer ", new_peer->DebugString(),
                        " must be of the kind of the old peer ", old_peer->DebugString());
  }
  if (new_peer == old_peer) return OkStatus();
  if (new_peer->IsInData() && new_peer->IsLinked()) {
    return AlreadyExists("ReplacePeer on ", DebugString(), ": ", new_peer->DebugString(),
                         " already has a producer");
  }
  if (IsLinkedWith(new_peer)) {
    return AlreadyExists(DebugString(), " is already linked with ", new_peer->DebugString());
  }
  PeerData()[this_i] = new_peer;
  old_peer->PeerEraseAt(static_cast<size_t>(old_i));
  new_peer->PeerPushBack(this);
  return OkStatus();
}

Status Anchor::DoLink(Anchor* src, Anchor* dst) {
  if (src != nullptr && dst != nullptr && src->IsOutAnchor() && dst->IsInControl() &&
      src->IsLinkedWith(dst)) {
    return OkStatus();  // control dependency already present
  }
  RETURN_IF_ERROR(CheckLink(src, dst));
  LinkUnchecked(src, dst);
  return OkStatus();
}

// ------------------------------------------------------- concrete anchors

namespace {
template <typename T>
std::vector<std::shared_ptr<T>> PeersOfKind(const Anchor& a) {
  std::vector<std::shared_ptr<T>> out;
  for (Anchor* p : a.PeerAnchors()) {
    if (p->IsTypeOf<T>()) out.push_back(std::static_pointer_cast<T>(p->GetSharedPtr()));
  }
  return out;
}
template <typename T>
std::vector<T*> PeersOfKindPtr(const Anchor& a) {
  std::vector<T*> out;
  for (Anchor* p : a.PeerAnchors()) {
    if (p->IsTypeOf<T>()) out.push_back(static_cast<T*>(p));
  }
  return out;
}
}  // namespace

OutDataAnchorPtr InDataAnchor::GetPeerOutAnchor() const {
  OutDataAnchor* p = GetPeerOutAnchorPtr();
  return p == nullptr ? nullptr : std::static_pointer_cast<OutDataAnchor>(p->GetSharedPtr());
}
OutDataAnchor* InDataAnchor::GetPeerOutAnchorPtr() const {
  auto peers = PeerAnchors();
  if (peers.empty() || !peers[0]->IsOutData()) return nullptr;
  return static_cast<OutDataAnchor*>(peers[0]);
}
OutControlAnchor* InDataAnchor::GetPeerOutControlAnchorPtr() const {
  auto peers = PeerAnchors();
  if (peers.empty() || !peers[0]->IsOutControl()) return nullptr;
  return static_cast<OutControlAnchor*>(peers[0]);
}
Status InDataAnchor::LinkFrom(const OutDataAnchorPtr& src) { return DoLink(src.get(), this); }
Status InDataAnchor::LinkFrom(OutDataAnchor* src) { return DoLink(src, this); }

std::vector<InDataAnchorPtr> OutDataAnchor::GetPeerInDataAnchors() const {
  return PeersOfKind<InDataAnchor>(*this);
}
std::vector<InDataAnchor*> OutDataAnchor::GetPeerInDataAnchorsPtr() const {
  return PeersOfKindPtr<InDataAnchor>(*this);
}
std::vector<InControlAnchorPtr> OutDataAnchor::GetPeerInControlAnchors() const {
  return PeersOfKind<InControlAnchor>(*this);
}
std::vector<InControlAnchor*> OutDataAnchor::GetPeerInControlAnchorsPtr() const {
  return PeersOfKindPtr<InControlAnchor>(*this);
}
uint32_t OutDataAnchor::GetPeerInDataNodesSize() const {
  uint32_t n = 0;
  for (Anchor* p : PeerAnchors()) n += p->IsInData() ? 1 : 0;
  return n;
}
Status OutDataAnchor::LinkTo(const InDataAnchorPtr& dst) { return DoLink(this, dst.get()); }
Status OutDataAnchor::LinkTo(InDataAnchor* dst) { return DoLink(this, dst); }
Status OutDataAnchor::LinkTo(const InControlAnchorPtr& dst) { return DoLink(this, dst.get()); }
Status OutDataAnchor::LinkTo(InControlAnchor* dst) { return DoLink(this, dst); }

std::vector<OutControlAnchorPtr> InControlAnchor::GetPeerOutControlAnchors() const {
  return PeersOfKind<OutControlAnchor>(*this);
}
std::vector<OutControlAnchor*> InControlAnchor::GetPeerOutControlAnchorsPtr() const {
  return PeersOfKindPtr<OutControlAnchor>(*this);
}
std::vector<OutDataAnchorPtr> InControlAnchor::GetPeerOutDataAnchors() const {
  return PeersOfKind<OutDataAnchor>(*this);
}
Status InControlAnchor::LinkFrom(const OutControlAnchorPtr& src) { return DoLink(src.get(), this); }
Status InControlAnchor::LinkFrom(OutControlAnchor* src) { return DoLink(src, this); }

std::vector<InControlAnchorPtr> OutControlAnchor::GetPeerInControlAnchors() const {
  return PeersOfKind<InControlAnchor>(*this);
}
std::vector<InControlAnchor*> OutControlAnchor::GetPeerInControlAnchorsPtr() const {
  return PeersOfKindPtr<InControlAnchor>(*this);
}
std::vector<InDataAnchorPtr> OutControlAnchor::GetPeerInDataAnchors() const {
  return PeersOfKind<InDataAnchor>(*this);
}
Status OutControlAnchor::LinkTo(const InControlAnchorPtr& dst) { return DoLink(this, dst.get()); }
Status OutControlAnchor::LinkTo(InControlAnchor* dst) { return DoLink(this, dst); }
Status OutControlAnchor::LinkTo(const InDataAnchorPtr& dst) { return DoLink(this, dst.get()); }
Status OutControlAnchor::LinkTo(InDataAnchor* dst) { return DoLink(this, dst); }

}  // namespace ge
