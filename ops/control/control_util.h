// ops/control/control_util.h
//
// Helpers shared by the control-flow (If, Loop, Scan), sequence / optional
// and GE-internal op families:
//
//   Scalars        ReadBoolScalar / ReadIntScalar: the single element of a
//                  BOOL / INT32 / INT64 tensor (any shape with one element).
//   Kernel output  WriteOutput: output i becomes a deep copy of a tensor
//                  (PrepareOutput + gert::CopyTensorData, so strings and
//                  DT_VARIANT sequences / optionals copy correctly).
//   Subgraphs      RunSubgraph: runs subgraph `index` through the context's
//                  SubgraphRunner and checks the number of outputs; errors
//                  name the node and the subgraph.
//   Infer          SetUnknownOutput (unknown rank, DT_UNDEFINED) and
//                  ApplyOutputHints: the optional node attributes
//                  "_output_shapes" (list of list of int, one per output; [-2]
//                  = unknown rank) and "_output_dtypes" (list of data types;
//                  DT_UNDEFINED = unknown) override what an infer function
//                  could not tell (If / Loop / Scan / PartitionedCall outputs).
//   Elements       CopyElements: copies `count` elements between buffers of
//                  one dtype (memcpy, string assignment or HostTensor clone);
//                  sub-byte types are NotSupported.
//
// Example (a pass-through kernel)
//   ge::Status ForwardKernel(gert::KernelContext& ctx) {
//     ASSIGN_OR_RETURN(const gert::Tensor* x, ops::GetKernelInput(ctx, 0));
//     return ops::WriteOutput(ctx, 0, *x);
//   }
#ifndef OPS_CONTROL_CONTROL_UTIL_H_
#define OPS_CONTROL_CONTROL_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ops {

inline constexpr char kAttrOutputShapes[] = "_output_shapes";
inline constexpr char kAttrOutputDtypes[] = "_output_dtypes";

// ------------------------------------------------------------ type sets

// Every ONNX tensor element type (no VARIANT).
ge::TensorType ControlTensorTypes();
// The same plus DT_VARIANT (sequences and optional values).
ge::TensorType ControlValueTypes();
// DT_VARIANT only.
ge::TensorType VariantType();

// ------------------------------------------------------------ errors

// `v`, or its error with "node <name> (<type>): " prepended.
template <typename T>
ge::StatusOr<T> NodeStatusOr(const gert::ContextBase& ctx, ge::StatusOr<T> v) {
  if (!v.ok()) {
    return ge::Annotate(v.status(), "node ", ctx.GetNodeName(), " (", ctx.GetNodeType(), "): ");
  }
  return v;
}

// ------------------------------------------------------------ scalars

// The single element of a BOOL tensor with one element; errors name the node
// and `what` (e.g. "input 0 (cond)").
ge::StatusOr<bool> ReadBoolScalar(const gert::ContextBase& ctx, const gert::Tensor& t,
                                  absl::string_view what);
// The single element of an INT32 / INT64 tensor with one element.
ge::StatusOr<int64_t> ReadIntScalar(const gert::ContextBase& ctx, const gert::Tensor& t,
                                    absl::string_view what);

// ------------------------------------------------------------ kernel output

// Output i gets src's shape and dtype (through ops::PrepareOutput) and a deep
// copy of its elements.
ge::Status WriteOutput(gert::KernelContext& ctx, size_t i, const gert::Tensor& src);

// Runs subgraph `index` (named `name` in messages) with `inputs`; the runner
// must produce exactly `expected_outputs` tensors, each owning storage.
ge::Status RunSubgraph(gert::KernelContext& ctx, size_t index, absl::string_view name,
                       absl::Span<const gert::Tensor* const> inputs, size_t expected_outputs,
                       std::vector<gert::HostTensor>* outputs);

// ------------------------------------------------------------ infer

// Output i: unknown rank ([-2]) and DT_UNDEFINED.
ge::Status SetUnknownOutput(gert::InferShapeContext& ctx, size_t i);
// Applies "_output_shapes" / "_output_dtypes" when present (each must have
// one entry per output).
ge::Status ApplyOutputHints(gert::InferShapeContext& ctx);

// ------------------------------------------------------------ elements

// Copies `count` elements of `dtype` from src[src_off..] to dst[dst_off..]
// (offsets in elements). The caller guarantees the ranges are in bounds and
// do not overlap.
ge::Status CopyElements(ge::DataType dtype, const void* src, int64_t src_off, void* dst,
                        int64_t dst_off, int64_t count);
// Bytes of one element for CopyElements' memcpy path (NotSupported for
// sub-byte types).
ge::StatusOr<size_t> ElementBytes(ge::DataType dtype);

}  // namespace ops

#endif  // OPS_CONTROL_CONTROL_UTIL_H_
