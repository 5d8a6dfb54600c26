// ops/compute/reorder/layout.h
//
// The compute engine's tensor layouts as its kernels check and map them.
// Convention (ops/compute/common/dnnl_common.h): a tensor's dims are its
// logical ones (N, C, spatial... for the NCHW family) whatever its format;
// the format says how the buffer holds them. Plain formats (ND, NCHW, NCDHW,
// ...) are row-major in the dims' order; NHWC / NDHWC hold a 4-D / 5-D
// (N, C, spatial...) tensor channels-last (oneDNN's acdb / acdeb: what the
// format pass gives conv chains); NC1HWC0 holds a 4-D (N, C, H, W)
// tensor as oneDNN's aBcd16b (C padded to a multiple of 16 with zeros).
//
//   IsNc1hwc0          the format (primary) is NC1HWC0
//   IsChannelsLast     the format (primary) is NHWC or NDHWC
//   IsNchwOrder        a plain format whose dims read N, C, spatial (ND,
//                      NCHW, NCDHW): what pooling / LRN take (NHWC, HWCN, ...
//                      keep their dims in another order)
//   CheckSameLayout    Supports' check of an input / output pair that a
//                      layout-preserving kernel maps element by element
//                      (eltwise): both plain, both NC1HWC0 of rank 4, or
//                      both channels-last of the format's rank and shape
//   CheckNchwLayout    Supports' check of an (N, C, spatial...) tensor
//   AttrsOf            an attribute context over an OpDesc (Supports reads
//                      attributes the way Prepare does)
//   ElementwiseDesc    a tensor's buffer as one oneDNN desc for an
//                      elementwise primitive: plain -> 1-D of its element
//                      count (any rank), NC1HWC0 -> its aBcd16b desc
#ifndef OPS_COMPUTE_REORDER_LAYOUT_H_
#define OPS_COMPUTE_REORDER_LAYOUT_H_

#include <cstdint>
#include <string>

#include "dnnl.hpp"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ops {
namespace compute {

bool IsNc1hwc0(ge::Format f);
bool IsChannelsLast(ge::Format f);
bool IsNchwOrder(ge::Format f);
std::string FormatName(ge::Format f);

// NotSupported naming `what` ("input 0", ...) and the formats otherwise.
ge::Status CheckSameLayout(const ge::GeTensorDesc& in, const ge::GeTensorDesc& out);
// `allow_blocked`: NC1HWC0 of rank 4 and channels-last (NHWC rank 4, NDHWC
// rank 5) are accepted too.
ge::Status CheckNchwLayout(const ge::GeTensorDesc& d, const std::string& what, bool allow_blocked);

gert::ContextBase AttrsOf(const ge::OpDesc& op);

// `count` receives the buffer's element count (padding included).
ge::StatusOr<dnnl::memory::desc> ElementwiseDesc(const gert::Tensor& t, int64_t* count);

}  // namespace compute
}  // namespace ops

#endif  // OPS_COMPUTE_REORDER_LAYOUT_H_
