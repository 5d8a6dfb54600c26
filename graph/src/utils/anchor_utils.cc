// graph/src/utils/anchor_utils.cc
#include "graph/inc/graph/utils/anchor_utils.h"

#include <cstdint>

#include "graph/inc/graph/anchor.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

StatusOr<AnchorStatus> AnchorUtils::GetStatus(const AnchorPtr& data_anchor) {
  if (data_anchor == nullptr) return ParamInvalid("GetStatus: null anchor");
  if (!data_anchor->IsDataAnchor()) {
    return ParamInvalid("GetStatus: ", data_anchor->DebugString(), " is not a data anchor");
  }
  return data_anchor->GetStatus();
}

Status AnchorUtils::SetStatus(const AnchorPtr& data_anchor, AnchorStatus status) {
  if (data_anchor == nullptr) return ParamInvalid("SetStatus: null anchor");
  if (!data_anchor->IsDataAnchor()) {
    return ParamInvalid("SetStatus: ", data_anchor->DebugString(), " is not a data anchor");
  }
  if (static_cast<uint32_t>(status) > static_cast<uint32_t>(ANCHOR_RESERVED)) {
    return ParamInvalid("SetStatus on ", data_anchor->DebugString(), ": invalid status ",
                        static_cast<uint32_t>(status));
  }
  data_anchor->SetStatus(status);
  return OkStatus();
}

StatusOr<int32_t> AnchorUtils::GetIdx(const AnchorPtr& anchor) {
  if (anchor == nullptr) return ParamInvalid("GetIdx: null anchor");
  return anchor->GetIdx();
}

bool AnchorUtils::HasControlEdge(const AnchorPtr& anchor) {
  if (anchor == nullptr) return false;
  if (anchor->IsControlAnchor()) return anchor->IsLinked();
  for (const Anchor* peer : anchor->PeerAnchors()) {
    if (peer->IsControlAnchor()) return true;
  }
  return false;
}

bool AnchorUtils::IsControlEdge(const AnchorPtr& src, const AnchorPtr& dst) {
  if (src == nullptr || dst == nullptr) return false;
  if (!src->IsControlAnchor() && !dst->IsControlAnchor()) return false;
  return src->IsLinkedWith(dst);
}

}  // namespace ge
