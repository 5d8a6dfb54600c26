// metadef/inc/external/graph/format_transfer.h
//
// Format transfer: the physical shape of a tensor in a blocked format, and the
// data reordering itself (zero padding on the way in, padding dropped on the
// way out). Later layers use it to feed blocked kernels.
//
// Supported pairs (both directions for the data):
//   NCHW / NHWC  <-> NC1HWC0     physical {N, C1, H, W, C0}
//   NCHW / HWCN  <-> FRACTAL_Z   physical {C1*H*W, N1, 16, C0}  (N padded to 16)
//   ND (rank>=2) <-> FRACTAL_NZ  physical {..., W1, H1, 16, C0} with
//                                H1 = ceil(H/16), W1 = ceil(W/C0)
//   NCDHW        <-> NDC1HWC0    physical {N, D, C1, H, W, C0}
// C0 is chosen by data type (GetCubeC0): 16 for FP16 / FP32 / BF16 and other
// 16-/32-bit types, 32 for INT8 / UINT8, 64 for INT4 / UINT4; a format value
// that carries a C0 (see types.h) overrides it.
//
// Unknown dims (-1) in the logical shape stay -1 in the physical shape where
// they map to an output dim. Errors name the formats, the shape and the reason.
//
// Example
//   ASSIGN_OR_RETURN(auto dims, TransferShape(FORMAT_NCHW, FORMAT_NC1HWC0,
//                                             DT_FLOAT, {1, 64, 56, 56}));
//   // dims == {1, 4, 56, 56, 16}
#ifndef METADEF_INC_EXTERNAL_GRAPH_FORMAT_TRANSFER_H_
#define METADEF_INC_EXTERNAL_GRAPH_FORMAT_TRANSFER_H_

#include <cstdint>
#include <vector>

#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {

// C0 for blocked formats by data type. NotSupported for STRING / UNDEFINED.
StatusOr<int64_t> GetCubeC0(DataType data_type);

// True when TransferShape / TransferFormat support src -> dst.
bool IsTransferSupported(Format src_format, Format dst_format);

// Physical shape of `src_dims` (in src_format) stored as dst_format. When the
// formats are equal (primary formats), returns src_dims. Only plain -> blocked
// is defined (blocked -> plain cannot recover the padded dim, as in GE:
// NotSupported). Grouped FRACTAL_Z (sub-format > 1) is NotSupported.
StatusOr<std::vector<int64_t>> TransferShape(Format src_format, Format dst_format,
                                             DataType data_type,
                                             const std::vector<int64_t>& src_dims);

struct TransArgs {
  const uint8_t* data = nullptr;  // source elements, densely packed
  Format src_format = FORMAT_ND;
  Format dst_format = FORMAT_ND;
  std::vector<int64_t> src_shape;  // shape of `data` in src_format
  std::vector<int64_t> dst_shape;  // logical (unblocked) target shape when
                                   // going blocked -> plain; else ignored
  DataType src_data_type = DT_FLOAT;
};

// Reorders `args.data` into `dst_format`. Going plain -> blocked, the padding
// is zero; going blocked -> plain, `args.dst_shape` gives the logical shape
// (the padding is dropped). Byte-addressable types only (sub-byte types are
// NotSupported). `out` is resized to the exact result size and must not
// alias `args.data`.
Status TransferFormat(const TransArgs& args, std::vector<uint8_t>* out);

}  // namespace ge

#endif  // METADEF_INC_EXTERNAL_GRAPH_FORMAT_TRANSFER_H_
