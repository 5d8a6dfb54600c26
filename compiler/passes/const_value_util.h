// Helpers shared by the shape / constant passes (seed 002 section 8): reading
// the value of a Const producer as a gert::HostTensor and building Const
// OpDescs from host tensors.
//
// Contract: GetConstValue returns NotFound when the producer of input
// `in_index` is not a Const / Constant node (or the input is unconnected);
// any malformed "value" attribute is an error naming the node.
//
// Example:
//   StatusOr<gert::HostTensor> v = GetConstInputValue(*node, 1);
//   if (v.ok()) { ... v->GetData<int64_t>() ... }
#ifndef COMPILER_PASSES_CONST_VALUE_UTIL_H_
#define COMPILER_PASSES_CONST_VALUE_UTIL_H_

#include <cstdint>
#include <string>

#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/graph_fwd.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ge {

// True for Const / Constant nodes that hold their tensor ("value").
bool IsConstNode(const Node& node);

// The "value" attribute of a Const node as a host tensor (a copy).
StatusOr<gert::HostTensor> GetConstNodeValue(const Node& node);

// The value of the Const feeding input `in_index` of `node`.
StatusOr<gert::HostTensor> GetConstInputValue(const Node& node, int32_t in_index);

// A read-only view of the value of the Const feeding input `in_index` of
// `node`, without copying it: valid while that Const node and its "value"
// attribute are unchanged. Same checks and errors as GetConstInputValue
// (STRING / VARIANT values are NotSupported: they have no raw-byte view).
StatusOr<gert::Tensor> GetConstInputView(const Node& node, int32_t in_index);

// As GetConstInputView, except that a value whose aligned bytes would first
// have to be made (a view of unaligned bytes of a mapped model file; see
// AlignedBuffer::FileView) is returned pending: shape, data type and size
// set, data null (gert::InputValueLoader then makes it with
// GetConstInputView only if a function reads it).
StatusOr<gert::Tensor> GetConstInputViewOrPending(const Node& node, int32_t in_index);

// A GeTensor holding a copy of `t` (ND format).
GeTensor HostTensorToGeTensor(const gert::HostTensor& t);

// A Const OpDesc named `name` with `value` as its "value" attribute and
// output desc.
StatusOr<OpDescPtr> MakeConstOpDesc(const std::string& name, const gert::HostTensor& value);

}  // namespace ge

#endif  // COMPILER_PASSES_CONST_VALUE_UTIL_H_
