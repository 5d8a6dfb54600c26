// graph/inc/graph/utils/tensor_utils.h
//
// TensorUtils: stateless helpers on tensor descriptions (GE's TensorUtils).
//
// CalcTensorMemSize is the memory a tensor occupies: the format-aware byte
// size of TensorDesc::GetSize() (blocked formats are sized from the origin
// shape; sub-byte types round up), aligned to kTensorAlignment. Plain formats
// (ND, NCHW, NHWC, ...) take a fast path with the same result. Errors: unknown
// shape, STRING / UNDEFINED data type, overflow; messages name the shape and
// type.
//
// The Get/Set pairs are GE's spellings of the GeTensorDesc extended meta.
//
// Example
//   ASSIGN_OR_RETURN(int64_t bytes, TensorUtils::CalcTensorMemSize(
//       GeShape({2, 3}), FORMAT_ND, DT_FLOAT));   // 64 (24 aligned to 64)
#ifndef GRAPH_INC_GRAPH_UTILS_TENSOR_UTILS_H_
#define GRAPH_INC_GRAPH_UTILS_TENSOR_UTILS_H_

#include <cstdint>

#include "graph/inc/graph/ge_tensor.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {

class TensorUtils {
 public:
  static StatusOr<int64_t> CalcTensorMemSize(const GeShape& shape, Format format,
                                             DataType data_type);
  static StatusOr<int64_t> CalcTensorMemSize(const GeTensorDesc& desc);
  // Unaligned byte size of the data.
  static StatusOr<int64_t> GetTensorSizeInBytes(const GeTensorDesc& desc);
  // A cheap key of a tensor's content: its byte size, data type, dims and
  // up to 3 x 64 bytes sampled at its start, middle and end. Equal tensors
  // have equal keys; callers that dedup compare the bytes of tensors whose
  // keys agree. Reads GetBytes() (never a FileView's aligned copy), so a
  // weight in a mapped model file is touched in at most three places.
  static size_t SampledContentHash(const GeTensor& tensor);

  // Extended meta (the `size` field is what memory planning records).
  static int64_t GetSize(const GeTensorDesc& desc) { return desc.GetSizeMeta(); }
  static void SetSize(GeTensorDesc& desc, int64_t size) { desc.SetSizeMeta(size); }
  static int64_t GetWeightSize(const GeTensorDesc& desc) { return desc.GetWeightSize(); }
  static void SetWeightSize(GeTensorDesc& desc, int64_t size) { desc.SetWeightSize(size); }
  static bool GetReuseInput(const GeTensorDesc& desc) { return desc.GetReuseInput(); }
  static void SetReuseInput(GeTensorDesc& desc, bool reuse) { desc.SetReuseInput(reuse); }
  static int64_t GetReuseInputIndex(const GeTensorDesc& desc) { return desc.GetReuseInputIndex(); }
  static void SetReuseInputIndex(GeTensorDesc& desc, int64_t index) {
    desc.SetReuseInputIndex(index);
  }
  static int64_t GetDataOffset(const GeTensorDesc& desc) { return desc.GetDataOffset(); }
  static void SetDataOffset(GeTensorDesc& desc, int64_t offset) { desc.SetDataOffset(offset); }
  static int64_t GetRealDimCnt(const GeTensorDesc& desc) { return desc.GetRealDimCnt(); }
  static void SetRealDimCnt(GeTensorDesc& desc, int64_t cnt) { desc.SetRealDimCnt(cnt); }
  static bool IsInputTensor(const GeTensorDesc& desc) { return desc.IsInputTensor(); }
  static void SetInputTensor(GeTensorDesc& desc, bool flag) { desc.SetInputTensor(flag); }
  static bool IsOutputTensor(const GeTensorDesc& desc) { return desc.IsOutputTensor(); }
  static void SetOutputTensor(GeTensorDesc& desc, bool flag) { desc.SetOutputTensor(flag); }
};

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_UTILS_TENSOR_UTILS_H_
