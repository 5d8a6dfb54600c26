// graph/src/anchor_access.h
//
// Internal (graph package only): privileged operations on anchors that the
// public API does not offer, used by graph utilities that rebuild graphs
// (GraphUtils::CopyGraph reproduces the exact peer order of every anchor).
//
// Example
//   internal::AnchorAccess::SetPeerOrder(copy_in_ctrl, {a, b, c});
#ifndef GRAPH_SRC_ANCHOR_ACCESS_H_
#define GRAPH_SRC_ANCHOR_ACCESS_H_

#include <algorithm>
#include <vector>

#include "graph/inc/graph/anchor.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace internal {

struct AnchorAccess {
  // Reorders the peers of `anchor` to `order`, which must be a permutation of
  // the current peers (Internal error otherwise; nothing changes).
  static Status SetPeerOrder(Anchor* anchor, const std::vector<Anchor*>& order) {
    auto current = anchor->PeerSpan();
    std::vector<Anchor*> a(current.begin(), current.end());
    std::vector<Anchor*> b = order;
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    if (a != b) {
      return Internal("SetPeerOrder on ", anchor->DebugString(),
                      ": the new order is not a permutation of the peers");
    }
    std::copy(order.begin(), order.end(), anchor->PeerData());
    return OkStatus();
  }
};

}  // namespace internal
}  // namespace ge

#endif  // GRAPH_SRC_ANCHOR_ACCESS_H_
