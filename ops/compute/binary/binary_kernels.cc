// ops/compute/binary/binary_kernels.cc
//
// The compute engine's binary elementwise kernels on oneDNN binary (and
// prelu), FLOAT / BF16:
//   Add Sub Mul Div          two inputs, ONNX multidirectional broadcasting
//   Max Min Sum Mean         the variadic ops with exactly two inputs (Mean:
//                            add with a 0.5 post-op, as the host's sum / 2)
//   PRelu                    slope broadcast onto X (oneDNN prelu)
//
// Broadcasting: both inputs are padded with leading 1s to the output's
// rank, dims of size 1 in the output are dropped, and runs of dims with the
// same broadcast pattern are merged, so any rank becomes a few oneDNN dims
// (row-major strided descs, at most 12). oneDNN's fast (jit) binary wants
// src0 in the output's shape: when only input 1 has it, commutative ops
// swap their inputs and Sub computes -(B - A) (a linear -1 post-op: exact,
// IEEE subtraction is sign-symmetric); otherwise oneDNN's reference
// implementation broadcasts both (exact, slower).
//
// NaN: oneDNN's max / min return src1 when src0 is NaN; the kernel puts
// the NaN back from src0 (PropagateNan), which needs src0 in the output's
// shape: Max / Min where neither input has it are rejected.
//
// NC1HWC0: Add Sub Mul Div Max Min Sum Mean of three NC1HWC0 tensors of one
// shape (no broadcast), oneDNN keeping the padding zero.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "dnnl.hpp"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "ops/compute/common/dnnl_common.h"
#include "ops/compute/eltwise/eltwise_loops.h"
#include "ops/compute/reorder/layout.h"

namespace ops {
namespace compute {
namespace {

enum class BinOp { kAdd, kSub, kMul, kDiv, kMax, kMin, kMean };

bool Commutative(BinOp op) { return op != BinOp::kSub && op != BinOp::kDiv; }
bool NeedsNanFix(BinOp op) { return op == BinOp::kMax || op == BinOp::kMin; }

dnnl::algorithm AlgorithmOf(BinOp op) {
  switch (op) {
    case BinOp::kAdd:
    case BinOp::kMean:
      return dnnl::algorithm::binary_add;
    case BinOp::kSub:
      return dnnl::algorithm::binary_sub;
    case BinOp::kMul:
      return dnnl::algorithm::binary_mul;
    case BinOp::kDiv:
      return dnnl::algorithm::binary_div;
    case BinOp::kMax:
      return dnnl::algorithm::binary_max;
    case BinOp::kMin:
      return dnnl::algorithm::binary_min;
  }
  return dnnl::algorithm::binary_add;
}

constexpr size_t kMaxDnnlDims = 12;

// Two operands broadcast onto an output, in collapsed dims.
struct Broadcast {
  std::vector<int64_t> a, b, c;
  bool a_full = true;  // a has c's dims
  bool b_full = true;
  bool empty = false;  // the output has no elements
};

ge::StatusOr<Broadcast> Collapse(absl::Span<const int64_t> a, absl::Span<const int64_t> b,
                                 absl::Span<const int64_t> c) {
  const size_t r = c.size();
  if (a.size() > r || b.size() > r) {
    return ge::NotSupported("an input has a higher rank than the output");
  }
  Broadcast out;
  int last = -1;
  for (size_t i = 0; i < r; ++i) {
    const int64_t ci = c[i];
    const int64_t ai = i + a.size() >= r ? a[i + a.size() - r] : 1;
    const int64_t bi = i + b.size() >= r ? b[i + b.size() - r] : 1;
    if ((ai != ci && ai != 1) || (bi != ci && bi != 1)) {
      return ge::NotSupported("input dims do not broadcast to the output's");
    }
    if (ci == 0) out.empty = true;
    if (ci == 1) continue;
    const int cls = (ai == ci ? 1 : 0) | (bi == ci ? 2 : 0);
    out.a_full = out.a_full && ai == ci;
    out.b_full = out.b_full && bi == ci;
    if (cls == last) {
      out.c.back() *= ci;
      out.a.back() *= ai;
      out.b.back() *= bi;
    } else {
      out.c.push_back(ci);
      out.a.push_back(ai);
      out.b.push_back(bi);
      last = cls;
    }
  }
  if (out.c.empty()) out.a = out.b = out.c = {1};
  if (out.c.size() > kMaxDnnlDims) {
    return ge::NotSupported("the broadcast needs ", out.c.size(), " oneDNN dims (at most ",
                            kMaxDnnlDims, ")");
  }
  return out;
}

ge::StatusOr<dnnl::memory::desc> RowMajorDesc(const std::vector<int64_t>& dims, ge::DataType dt) {
  ASSIGN_OR_RETURN(dnnl::memory::data_type t, DnnlType(dt));
  dnnl::memory::dims strides(dims.size());
  int64_t acc = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = acc;
    acc *= dims[i] > 0 ? dims[i] : 1;
  }
  dnnl::memory::desc md;
  RETURN_IF_ERROR(DnnlCall("strided memory desc", [&] {
    md = dnnl::memory::desc(dnnl::memory::dims(dims.begin(), dims.end()), t, strides);
  }));
  return md;
}

std::vector<int64_t> DimsOf(const ge::GeTensorDesc& d) { return d.GetShape().GetDims(); }

// ------------------------------------------------------------ Supports

template <BinOp kOp>
ge::Status BinarySupports(const ge::OpDesc& op) {
  if (op.GetAllInputsSize() != 2) {
    return ge::NotSupported("the kernel takes exactly 2 inputs, the node has ",
                            op.GetAllInputsSize());
  }
  const ge::GeTensorDesc* a = op.GetInputDescBarePtr(0);
  const ge::GeTensorDesc* b = op.GetInputDescBarePtr(1);
  const ge::GeTensorDesc* y = op.GetOutputDescBarePtr(0);
  if (a == nullptr || b == nullptr || y == nullptr) {
    return ge::NotSupported("the node needs inputs 0, 1 and output 0");
  }
  const bool ba = IsNc1hwc0(a->GetFormat()) || IsChannelsLast(a->GetFormat());
  const bool bb = IsNc1hwc0(b->GetFormat()) || IsChannelsLast(b->GetFormat());
  const bool by = IsNc1hwc0(y->GetFormat()) || IsChannelsLast(y->GetFormat());
  if (ba || bb || by) {
    if (!(ba && bb && by) ||
        ge::GetPrimaryFormat(a->GetFormat()) != ge::GetPrimaryFormat(y->GetFormat()) ||
        ge::GetPrimaryFormat(b->GetFormat()) != ge::GetPrimaryFormat(y->GetFormat())) {
      return ge::NotSupported(
          "inputs ", FormatName(a->GetFormat()), ", ", FormatName(b->GetFormat()), " and output ",
          FormatName(y->GetFormat()), ": NC1HWC0 / channels-last only on all three tensors");
    }
    const size_t rank = ge::GetPrimaryFormat(y->GetFormat()) == ge::FORMAT_NDHWC ? 5 : 4;
    if (DimsOf(*a) != DimsOf(*y) || DimsOf(*b) != DimsOf(*y) || DimsOf(*y).size() != rank) {
      return ge::NotSupported(
          "NC1HWC0 / channels-last inputs must have the output's logical dims (no broadcast)");
    }
    return ge::OkStatus();
  }
  ASSIGN_OR_RETURN(Broadcast bc, Collapse(DimsOf(*a), DimsOf(*b), DimsOf(*y)));
  if (NeedsNanFix(kOp) && !bc.a_full && !bc.b_full) {
    return ge::NotSupported(
        "neither input has the output's shape: oneDNN's max / min would lose a NaN of the "
        "broadcast input");
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------ kernel

template <typename T>
ge::StatusOr<T*> Required(const gert::ContextBase& ctx, T* t, const char* what) {
  if (t == nullptr) return ctx.Error(what, " is missing");
  return t;
}

template <BinOp kOp>
class DnnlBinaryKernel final : public ge::OpKernel {
 public:
  ge::Status Prepare(gert::TilingContext& ctx) override {
    ASSIGN_OR_RETURN(const gert::Tensor* a, Required(ctx, ctx.GetInputTensor(0), "input 0"));
    ASSIGN_OR_RETURN(const gert::Tensor* b, Required(ctx, ctx.GetInputTensor(1), "input 1"));
    ASSIGN_OR_RETURN(const gert::Tensor* y, Required(ctx, ctx.GetOutputTensor(0), "output 0"));
    if (ctx.GetInputNum() != 2) return ctx.Error("the kernel takes exactly 2 inputs");
    dt_ = y->GetDataType();
    if (a->GetDataType() != dt_ || b->GetDataType() != dt_) {
      return ctx.Error("inputs and output must have one data type");
    }
    dnnl::memory::desc m0, m1, md;
    if (IsNc1hwc0(y->GetFormat()) || IsChannelsLast(y->GetFormat())) {
      if (a->GetFormat() != y->GetFormat() || b->GetFormat() != y->GetFormat() ||
          a->GetShape() != y->GetShape() || b->GetShape() != y->GetShape()) {
        return ctx.Error("NC1HWC0 takes three tensors of one shape");
      }
      ASSIGN_OR_RETURN(md, DescOf(*y));
      m0 = m1 = md;
    } else {
      ASSIGN_OR_RETURN(Broadcast bc, Collapse(a->GetShape().GetDims(), b->GetShape().GetDims(),
                                              y->GetShape().GetDims()));
      if (bc.empty) return ge::OkStatus();
      if (NeedsNanFix(kOp) && !bc.a_full && !bc.b_full) {
        return ctx.Error("neither input has the output's shape");
      }
      swap_ = !bc.a_full && bc.b_full && (Commutative(kOp) || kOp == BinOp::kSub);
      if (swap_) std::swap(bc.a, bc.b);
      ASSIGN_OR_RETURN(m0, RowMajorDesc(bc.a, dt_));
      ASSIGN_OR_RETURN(m1, RowMajorDesc(bc.b, dt_));
      ASSIGN_OR_RETURN(md, RowMajorDesc(bc.c, dt_));
    }
    count_ = static_cast<int64_t>(md.get_size() / (dt_ == ge::DT_BF16 ? 2 : 4));
    dnnl::primitive prim;
    dnnl::memory::desc scratchpad;
    RETURN_IF_ERROR(DnnlCall("binary primitive", [&] {
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      dnnl::post_ops po;
      if (swap_ && kOp == BinOp::kSub) {
        po.append_eltwise(1.0f, dnnl::algorithm::eltwise_linear, -1.0f, 0.0f);
      }
      if (kOp == BinOp::kMean) po.append_eltwise(1.0f, dnnl::algorithm::eltwise_linear, 0.5f, 0.0f);
      attr.set_post_ops(po);
      auto d = dnnl::binary::desc(AlgorithmOf(kOp), m0, m1, md);
      auto pd = dnnl::binary::primitive_desc(d, attr, CpuEngine());
      prim = dnnl::binary(pd);
      scratchpad = pd.scratchpad_desc();
    }));
    RETURN_IF_ERROR(prim_.Init(std::move(prim), scratchpad));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_SRC_0, m0));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_SRC_1, m1));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_DST, md));
    if (prim_.scratchpad_bytes() > 0) {
      RETURN_IF_ERROR(ctx.SetWorkspaceSize(0, prim_.scratchpad_bytes()));
    }
    return ge::OkStatus();
  }

  ge::Status Run(gert::KernelContext& ctx) const override {
    if (!prim_.initialized()) return ge::OkStatus();  // no elements
    ASSIGN_OR_RETURN(const gert::Tensor* a, Required(ctx, ctx.GetInputTensor(0), "input 0"));
    ASSIGN_OR_RETURN(const gert::Tensor* b, Required(ctx, ctx.GetInputTensor(1), "input 1"));
    ASSIGN_OR_RETURN(gert::Tensor * y, Required(ctx, ctx.GetOutputTensor(0), "output 0"));
    const void* src0 = swap_ ? b->GetAddr() : a->GetAddr();
    const void* src1 = swap_ ? a->GetAddr() : b->GetAddr();
    RETURN_IF_ERROR(prim_.Execute({src0, src1, y->GetAddr()}, ctx.GetWorkspaces()));
    // src0 has the output's shape here (Supports).
    if (NeedsNanFix(kOp) && src0 != y->GetAddr()) PropagateNan(dt_, src0, y->GetAddr(), count_);
    return ge::OkStatus();
  }

 private:
  PreparedPrimitive prim_;
  bool swap_ = false;
  ge::DataType dt_ = ge::DT_FLOAT;
  int64_t count_ = 0;
};

// ------------------------------------------------------------------ PRelu

ge::Status PReluSupports(const ge::OpDesc& op) {
  const ge::GeTensorDesc* x = op.GetInputDescBarePtr(0);
  const ge::GeTensorDesc* s = op.GetInputDescBarePtr(1);
  const ge::GeTensorDesc* y = op.GetOutputDescBarePtr(0);
  if (x == nullptr || s == nullptr || y == nullptr) {
    return ge::NotSupported("the node needs inputs X, slope and output Y");
  }
  for (const ge::GeTensorDesc* d : {x, s, y}) {
    if (IsNc1hwc0(d->GetFormat())) return ge::NotSupported("PRelu takes plain layouts only");
  }
  return Collapse(DimsOf(*x), DimsOf(*s), DimsOf(*x)).status();
}

class DnnlPReluKernel final : public ge::OpKernel {
 public:
  ge::Status Prepare(gert::TilingContext& ctx) override {
    ASSIGN_OR_RETURN(const gert::Tensor* x, Required(ctx, ctx.GetInputTensor(0), "input 0"));
    ASSIGN_OR_RETURN(const gert::Tensor* s, Required(ctx, ctx.GetInputTensor(1), "input 1"));
    ASSIGN_OR_RETURN(const gert::Tensor* y, Required(ctx, ctx.GetOutputTensor(0), "output 0"));
    const ge::DataType dt = x->GetDataType();
    if (s->GetDataType() != dt || y->GetDataType() != dt) {
      return ctx.Error("inputs and output must have one data type");
    }
    ASSIGN_OR_RETURN(Broadcast bc, Collapse(x->GetShape().GetDims(), s->GetShape().GetDims(),
                                            x->GetShape().GetDims()));
    if (bc.empty) return ge::OkStatus();
    ASSIGN_OR_RETURN(dnnl::memory::desc mx, RowMajorDesc(bc.c, dt));
    ASSIGN_OR_RETURN(dnnl::memory::desc mw, RowMajorDesc(bc.b, dt));
    dnnl::primitive prim;
    dnnl::memory::desc scratchpad;
    RETURN_IF_ERROR(DnnlCall("prelu primitive", [&] {
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      auto d = dnnl::prelu_forward::desc(dnnl::prop_kind::forward_inference, mx, mw);
      auto pd = dnnl::prelu_forward::primitive_desc(d, attr, CpuEngine());
      prim = dnnl::prelu_forward(pd);
      scratchpad = pd.scratchpad_desc();
    }));
    RETURN_IF_ERROR(prim_.Init(std::move(prim), scratchpad));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_SRC, mx));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_WEIGHTS, mw));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_DST, mx));
    if (prim_.scratchpad_bytes() > 0) {
      RETURN_IF_ERROR(ctx.SetWorkspaceSize(0, prim_.scratchpad_bytes()));
    }
    return ge::OkStatus();
  }

  ge::Status Run(gert::KernelContext& ctx) const override {
    if (!prim_.initialized()) return ge::OkStatus();
    ASSIGN_OR_RETURN(const gert::Tensor* x, Required(ctx, ctx.GetInputTensor(0), "input 0"));
    ASSIGN_OR_RETURN(const gert::Tensor* s, Required(ctx, ctx.GetInputTensor(1), "input 1"));
    ASSIGN_OR_RETURN(gert::Tensor * y, Required(ctx, ctx.GetOutputTensor(0), "output 0"));
    return prim_.Execute({x->GetAddr(), s->GetAddr(), y->GetAddr()}, ctx.GetWorkspaces());
  }

 private:
  PreparedPrimitive prim_;
};

// ------------------------------------------------------------ registration

#define GE_COMPUTE_BINARY_(Type, Op)                                                               \
  REG_KERNEL(Type, ge::kEngineAiCore)                                                              \
      .Kernel<DnnlBinaryKernel<Op>>()                                                              \
      .DataTypes({ge::DT_FLOAT, ge::DT_BF16})                                                      \
      .Formats(                                                                                    \
          {ge::FORMAT_ND, ge::FORMAT_NCHW, ge::FORMAT_NC1HWC0, ge::FORMAT_NHWC, ge::FORMAT_NDHWC}) \
      .ShapeKinds(ge::kKernelStaticShape)                                                          \
      .Supports(BinarySupports<Op>)

GE_COMPUTE_BINARY_(Add, BinOp::kAdd);
GE_COMPUTE_BINARY_(Sub, BinOp::kSub);
GE_COMPUTE_BINARY_(Mul, BinOp::kMul);
GE_COMPUTE_BINARY_(Div, BinOp::kDiv);
GE_COMPUTE_BINARY_(Max, BinOp::kMax);
GE_COMPUTE_BINARY_(Min, BinOp::kMin);
GE_COMPUTE_BINARY_(Sum, BinOp::kAdd);
GE_COMPUTE_BINARY_(Mean, BinOp::kMean);
#undef GE_COMPUTE_BINARY_

REG_KERNEL(PRelu, ge::kEngineAiCore)
    .Kernel<DnnlPReluKernel>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .Formats({ge::FORMAT_ND, ge::FORMAT_NCHW})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(PReluSupports);

}  // namespace
}  // namespace compute
}  // namespace ops
