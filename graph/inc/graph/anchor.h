// graph/inc/graph/anchor.h
//
// Anchors: the connection points of a Node (seed 000, section 2). The graph
// has no edge objects; an edge is a pair of anchors that list each other as
// peers.
//
//   InDataAnchor   (index = input index)   at most ONE peer: an OutDataAnchor
//                                           or (control -> data) an
//                                           OutControlAnchor.
//   OutDataAnchor  (index = output index)  any number of peers: InDataAnchors
//                                           or (data -> control)
//                                           InControlAnchors (fan-out).
//   InControlAnchor  (index -1)            any number of OutControlAnchor /
//                                           OutDataAnchor peers.
//   OutControlAnchor (index -1)            any number of InControlAnchor /
//                                           InDataAnchor peers.
//
// Contract
//   * LinkTo / LinkFrom / Unlink / Insert / ReplacePeer change both ends or
//     neither; every failure is a Status and leaves both ends unchanged:
//       - linking into an InDataAnchor that already has a peer is
//         AlreadyExists (the message names the existing producer);
//       - an impossible direction / kind pair (in -> in, data out -> data
//         out, ...) or a null anchor is ParamInvalid;
//       - linking a control pair that is already linked is a no-op (OK).
//   * Peer order is link order (Insert / ReplacePeer keep the position of
//     the replaced peer); it is what serialization and the sorts see, so it
//     is deterministic.
//   * Anchors live inside their Node; the pointer aliases returned here
//     (AnchorPtr, InDataAnchorPtr, ...) keep the Node alive. The bare-pointer
//     accessors (..Ptr(), ..BarePtr()) do not: use them in hot loops while
//     the graph is held.
//   * Anchors are not polymorphic: the kind is a tag (GetKind, IsTypeOf<T>,
//     DynamicAnchorCast<T>).
//
// Example
//   auto out = a->GetOutDataAnchor(0);
//   RETURN_IF_ERROR(out->LinkTo(b->GetInDataAnchor(0)));
//   RETURN_IF_ERROR(out->LinkTo(c->GetInControlAnchor()));   // data -> control
//   b->GetInDataAnchor(0)->GetPeerOutAnchor() == out;
#ifndef GRAPH_INC_GRAPH_ANCHOR_H_
#define GRAPH_INC_GRAPH_ANCHOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "absl/types/span.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

namespace internal {
struct AnchorAccess;
}  // namespace internal

// Data anchor status (GE's AnchorUtils): what feeds an input.
enum AnchorStatus : uint8_t {
  ANCHOR_SUSPEND = 0,  // dangling
  ANCHOR_CONST = 1,    // fed by a constant
  ANCHOR_DATA = 2,     // fed by data
  ANCHOR_RESERVED = 3
};

class Anchor {
 public:
  enum class Kind : uint8_t { kInData = 0, kOutData = 1, kInControl = 2, kOutControl = 3 };

  Anchor(const Anchor&) = delete;
  Anchor& operator=(const Anchor&) = delete;

  Kind GetKind() const { return static_cast<Kind>(kind_); }
  bool IsInData() const { return GetKind() == Kind::kInData; }
  bool IsOutData() const { return GetKind() == Kind::kOutData; }
  bool IsInControl() const { return GetKind() == Kind::kInControl; }
  bool IsOutControl() const { return GetKind() == Kind::kOutControl; }
  bool IsDataAnchor() const { return IsInData() || IsOutData(); }
  bool IsControlAnchor() const { return IsInControl() || IsOutControl(); }
  bool IsInAnchor() const { return IsInData() || IsInControl(); }
  bool IsOutAnchor() const { return IsOutData() || IsOutControl(); }
  static const char* KindName(Kind kind);

  // T is Anchor, DataAnchor, ControlAnchor or one of the four concrete kinds.
  template <typename T>
  bool IsTypeOf() const;
  // nullptr when the anchor is not a T.
  template <typename T>
  static std::shared_ptr<T> DynamicAnchorCast(const AnchorPtr& anchor);
  template <typename T>
  static T* DynamicAnchorPtrCast(Anchor* anchor);

  // Input / output index; -1 for control anchors.
  int32_t GetIdx() const { return idx_; }
  // The largest input / output index an anchor can have.
  static constexpr int32_t kMaxIdx = (1 << 27) - 1;
  // nullptr for an anchor that no node made.
  Node* GetOwnerNodeBarePtr() const;
  NodePtr GetOwnerNode() const;
  // An owning pointer to this anchor (keeps the node alive).
  AnchorPtr GetSharedPtr() const;

  size_t GetPeerAnchorsSize() const { return num_peers_; }
  bool IsLinked() const { return num_peers_ != 0; }
  std::vector<AnchorPtr> GetPeerAnchors() const;
  std::vector<Anchor*> GetPeerAnchorsPtr() const;
  // Zero-copy view of the peers (invalidated by any link change).
  absl::Span<Anchor* const> PeerAnchors() const { return PeerSpan(); }
  AnchorPtr GetFirstPeerAnchor() const;
  bool IsLinkedWith(const Anchor* peer) const { return PeerIndexOf(peer) >= 0; }
  bool IsLinkedWith(const AnchorPtr& peer) const { return IsLinkedWith(peer.get()); }

  // Links in either direction: exactly one of this / peer must be an out
  // anchor (see the file comment for the allowed pairs).
  Status LinkWith(Anchor* peer);
  // NotFound when not linked with `peer`.
  Status Unlink(Anchor* peer);
  Status Unlink(const AnchorPtr& peer) { return Unlink(peer.get()); }
  void UnlinkAll() noexcept;

  // Puts a node between this and old_peer: `this -> old_peer` becomes
  // `this -> first_peer` (at old_peer's position in this anchor's peers) and
  // `second_peer -> old_peer` (at this anchor's position in old_peer's
  // peers). first_peer must be of old_peer's kind and second_peer of this
  // anchor's kind; an InDataAnchor among them must be unlinked.
  Status Insert(Anchor* old_peer, Anchor* first_peer, Anchor* second_peer);
  Status Insert(const AnchorPtr& old_peer, const AnchorPtr& first_peer,
                const AnchorPtr& second_peer) {
    return Insert(old_peer.get(), first_peer.get(), second_peer.get());
  }
  // Replaces old_peer by new_peer (same kind) at old_peer's position; old_peer
  // loses this anchor, new_peer gains it at the end of its peers.
  Status ReplacePeer(Anchor* old_peer, Anchor* new_peer);
  Status ReplacePeer(const AnchorPtr& old_peer, const AnchorPtr& new_peer) {
    return ReplacePeer(old_peer.get(), new_peer.get());
  }

  AnchorStatus GetStatus() const { return static_cast<AnchorStatus>(status_); }
  void SetStatus(AnchorStatus status) { status_ = status; }

  // "node_name:idx(in_data)".
  std::string DebugString() const;

 protected:
  explicit Anchor(Kind kind)
      : num_peers_(0),
        owner_at_(kNoOwner),
        idx_(0),
        kind_(static_cast<uint32_t>(kind)),
        status_(ANCHOR_SUSPEND) {}
  ~Anchor() { PeerReset(); }
  // Validates and links src (an out anchor) -> dst (an in anchor); linking an
  // already linked control pair is OK and changes nothing.
  static Status DoLink(Anchor* src, Anchor* dst);

 private:
  friend class Node;
  friend struct internal::AnchorAccess;

  // The peers: one inline, two or more in a pooled array whose first slot
  // holds its capacity (so an anchor is 16 bytes: a whole-graph walk
  // streams the anchors of every node).
  Anchor* const* PeerData() const { return num_peers_ <= 1 ? &peers_.one : peers_.many + 1; }
  Anchor** PeerData() { return num_peers_ <= 1 ? &peers_.one : peers_.many + 1; }
  absl::Span<Anchor* const> PeerSpan() const {
    return absl::Span<Anchor* const>(PeerData(), num_peers_);
  }
  int32_t PeerIndexOf(const Anchor* a) const;
  void PeerPushBack(Anchor* a);
  void PeerEraseAt(size_t i);
  void PeerReset();

  // Where an anchor finds its node: anchors hold no pointer to it (a
  // whole-graph walk streams every anchor, so each is 16 bytes).
  enum OwnerAt : uint32_t {
    kNoOwner = 0,
    // In the node's block: out anchors right before the node's fields in
    // reverse index order, in anchors right after them in index order
    // (Node::InAt / OutAt), so the index locates the node.
    kInNodeBlock = 1,
    // Elsewhere (control anchors, anchors appended beyond the block): the
    // node pointer sits in the 8 bytes before the anchor.
    kSlotBefore = 2,
  };
  // sizeof(Node) (checked in node.cc).
  static constexpr size_t kNodeFieldBytes = 48;
  void Init(OwnerAt at, int32_t idx) {
    owner_at_ = at;
    idx_ = idx;
  }
  // Validates a link from `src` (an out anchor) to `dst` (an in anchor).
  static Status CheckLink(const Anchor* src, const Anchor* dst);
  // Links without checks (caller validated).
  static void LinkUnchecked(Anchor* src, Anchor* dst);

  union {
    Anchor* one;    // num_peers_ <= 1
    Anchor** many;  // num_peers_ >= 2: [capacity, peer 0, peer 1, ...]
  } peers_ = {nullptr};
  uint32_t num_peers_ : 30;
  uint32_t owner_at_ : 2;  // OwnerAt
  int32_t idx_ : 28;
  uint32_t kind_ : 2;    // Kind
  uint32_t status_ : 2;  // AnchorStatus
};

class DataAnchor : public Anchor {
 protected:
  explicit DataAnchor(Kind kind) : Anchor(kind) {}
  ~DataAnchor() = default;
};

class ControlAnchor : public Anchor {
 protected:
  explicit ControlAnchor(Kind kind) : Anchor(kind) {}
  ~ControlAnchor() = default;
};

class InDataAnchor : public DataAnchor {
 public:
  InDataAnchor() : DataAnchor(Kind::kInData) {}
  ~InDataAnchor() = default;

  // The producing data output; nullptr when unlinked or fed by a control
  // anchor.
  OutDataAnchorPtr GetPeerOutAnchor() const;
  OutDataAnchor* GetPeerOutAnchorPtr() const;
  // The producing control output (control -> data link); nullptr otherwise.
  OutControlAnchor* GetPeerOutControlAnchorPtr() const;

  Status LinkFrom(const OutDataAnchorPtr& src);
  Status LinkFrom(OutDataAnchor* src);
};

class OutDataAnchor : public DataAnchor {
 public:
  OutDataAnchor() : DataAnchor(Kind::kOutData) {}
  ~OutDataAnchor() = default;

  std::vector<InDataAnchorPtr> GetPeerInDataAnchors() const;
  std::vector<InDataAnchor*> GetPeerInDataAnchorsPtr() const;
  std::vector<InControlAnchorPtr> GetPeerInControlAnchors() const;
  std::vector<InControlAnchor*> GetPeerInControlAnchorsPtr() const;
  uint32_t GetPeerInDataNodesSize() const;

  Status LinkTo(const InDataAnchorPtr& dst);
  Status LinkTo(InDataAnchor* dst);
  Status LinkTo(const InControlAnchorPtr& dst);
  Status LinkTo(InControlAnchor* dst);
};

class InControlAnchor : public ControlAnchor {
 public:
  InControlAnchor() : ControlAnchor(Kind::kInControl) {}
  ~InControlAnchor() = default;

  std::vector<OutControlAnchorPtr> GetPeerOutControlAnchors() const;
  std::vector<OutControlAnchor*> GetPeerOutControlAnchorsPtr() const;
  std::vector<OutDataAnchorPtr> GetPeerOutDataAnchors() const;
  bool IsPeerOutAnchorsEmpty() const { return !IsLinked(); }

  Status LinkFrom(const OutControlAnchorPtr& src);
  Status LinkFrom(OutControlAnchor* src);
};

class OutControlAnchor : public ControlAnchor {
 public:
  OutControlAnchor() : ControlAnchor(Kind::kOutControl) {}
  ~OutControlAnchor() = default;

  std::vector<InControlAnchorPtr> GetPeerInControlAnchors() const;
  std::vector<InControlAnchor*> GetPeerInControlAnchorsPtr() const;
  std::vector<InDataAnchorPtr> GetPeerInDataAnchors() const;

  Status LinkTo(const InControlAnchorPtr& dst);
  Status LinkTo(InControlAnchor* dst);
  Status LinkTo(const InDataAnchorPtr& dst);
  Status LinkTo(InDataAnchor* dst);
};

// ---- implementation details ----

inline Node* Anchor::GetOwnerNodeBarePtr() const {
  char* self = reinterpret_cast<char*>(const_cast<Anchor*>(this));
  const ptrdiff_t idx = idx_;
  switch (owner_at_) {
    case kInNodeBlock:
      return reinterpret_cast<Node*>(
          IsInData() ? self - static_cast<ptrdiff_t>(kNodeFieldBytes) - idx * sizeof(Anchor)
                     : self + (idx + 1) * static_cast<ptrdiff_t>(sizeof(Anchor)));
    case kSlotBefore:
      return *reinterpret_cast<Node* const*>(self - sizeof(Node*));
    default:
      return nullptr;
  }
}

template <typename T>
bool Anchor::IsTypeOf() const {
  if constexpr (std::is_same_v<T, Anchor>) {
    return true;
  } else if constexpr (std::is_same_v<T, DataAnchor>) {
    return IsDataAnchor();
  } else if constexpr (std::is_same_v<T, ControlAnchor>) {
    return IsControlAnchor();
  } else if constexpr (std::is_same_v<T, InDataAnchor>) {
    return IsInData();
  } else if constexpr (std::is_same_v<T, OutDataAnchor>) {
    return IsOutData();
  } else if constexpr (std::is_same_v<T, InControlAnchor>) {
    return IsInControl();
  } else {
    static_assert(std::is_same_v<T, OutControlAnchor>, "not an anchor type");
    return IsOutControl();
  }
}

template <typename T>
std::shared_ptr<T> Anchor::DynamicAnchorCast(const AnchorPtr& anchor) {
  if (anchor == nullptr || !anchor->IsTypeOf<T>()) return nullptr;
  return std::static_pointer_cast<T>(anchor);
}

template <typename T>
T* Anchor::DynamicAnchorPtrCast(Anchor* anchor) {
  if (anchor == nullptr || !anchor->IsTypeOf<T>()) return nullptr;
  return static_cast<T*>(anchor);
}

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_ANCHOR_H_
