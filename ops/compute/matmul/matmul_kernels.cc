// ops/compute/matmul/matmul_kernels.cc
//
// MatMul and Gemm on the compute engine: one oneDNN matmul primitive per
// node, prepared at load.
//
// MatMul (numpy.matmul). A 1-D A is [1, K], a 1-D B is [K, 1] (the added
// dim is not in Y). Batch dims broadcast: they are aligned to the right,
// the ones of Y that are 1 dropped and runs of adjacent dims that broadcast
// the same way (in both, in A only, in B only) merged, so oneDNN sees at
// most a few batch dims with a 1 where an operand broadcasts. When B has no
// batch (the weights of a dense layer) A's batch folds into M: one 2-D
// product [batch * M, K] x [K, N].
//
// Gemm: Y = act(alpha * op(A) x op(B) + beta * C). transA / transB are
// strides on the plain operands; alpha is the primitive's output scale; the
// C term, by what C is:
//   constant C       beta * C in f32, computed once: the bias when alpha is
//                    1 and C is a row [N] / [1, N] (the bias is added before
//                    the output scale), else a binary add post-op (after
//                    it); a [M, 1] C is expanded to [M, N] (oneDNN's
//                    optimised kernels take per-row src1 only from [1, N],
//                    [M, N] and [1, 1]).
//   C an input with beta == 1, C [N] / [1, N] / [M, N] / [1, 1]: bound as
//                    the bias or the binary post-op's src1 as is.
//   any other C      Run copies C, broadcast, into Y and a sum post-op with
//                    scale beta adds it.
//
// A constant B (weights) is reordered once into the layout the primitive
// prefers (format_tag::any); a B that is an input stays plain. The fused
// activation (matmul_post_ops.h) is the last post-op. fp32 and bf16; every
// operand of one dtype (the op's Verify holds A, B and C to one).
#include <algorithm>
#include <cstdint>
#include <cstring>
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
#include "ops/common/op_util.h"
#include "ops/compute/common/dnnl_common.h"
#include "ops/compute/matmul/matmul_post_ops.h"

namespace ops {
namespace compute {
namespace {

using dims_t = dnnl::memory::dims;
using dnnl_dt = dnnl::memory::data_type;

// A row-major desc of `dims` with explicit strides (any rank oneDNN takes).
dnnl::memory::desc RowMajor(const dims_t& dims, dnnl_dt dt) {
  dims_t strides(dims.size());
  int64_t s = 1;
  for (size_t i = dims.size(); i-- > 0;) {
    strides[i] = s;
    s *= dims[i];
  }
  return dnnl::memory::desc(dims, dt, strides);
}

int64_t Product(const dims_t& d) {
  int64_t p = 1;
  for (int64_t v : d) p *= v;
  return p;
}

ge::Status CheckFloatType(ge::DataType dt, const char* what) {
  if (dt != ge::DT_FLOAT && dt != ge::DT_BF16) {
    return ge::NotSupported(what, " has data type ", static_cast<int>(dt),
                            "; the kernel takes FLOAT and BF16");
  }
  return ge::OkStatus();
}

ge::Status CheckPositive(absl::Span<const int64_t> dims, const char* what) {
  for (int64_t d : dims) {
    if (d <= 0) {
      return ge::NotSupported(what, " has dim ", d,
                              "; the kernel takes known, non-empty shapes only");
    }
  }
  return ge::OkStatus();
}

// ---------------------------------------------------------------- geometry

// oneDNN dims of MatMul's src, weights and dst (one rank, >= 2).
struct MatMulShape {
  dims_t a, b, y;
};

ge::StatusOr<MatMulShape> PlanMatMul(absl::Span<const int64_t> a_in,
                                     absl::Span<const int64_t> b_in) {
  if (a_in.empty() || b_in.empty()) return ge::NotSupported("MatMul of a scalar");
  RETURN_IF_ERROR(CheckPositive(a_in, "input 0 (A)"));
  RETURN_IF_ERROR(CheckPositive(b_in, "input 1 (B)"));
  std::vector<int64_t> a(a_in.begin(), a_in.end());
  std::vector<int64_t> b(b_in.begin(), b_in.end());
  if (a.size() == 1) a.insert(a.begin(), 1);
  if (b.size() == 1) b.push_back(1);
  const int64_t m = a[a.size() - 2], k = a.back();
  const int64_t kb = b[b.size() - 2], n = b.back();
  if (k != kb) return ge::NotSupported("MatMul inner dims differ: ", k, " and ", kb);
  const size_t ab = a.size() - 2, bb = b.size() - 2, nb = std::max(ab, bb);
  enum Kind { kBoth, kAOnly, kBOnly };
  struct Group {
    Kind kind;
    int64_t size;
  };
  std::vector<Group> groups;
  bool b_batched = false;
  for (size_t i = 0; i < nb; ++i) {
    const int64_t ad = i >= nb - ab ? a[i - (nb - ab)] : 1;
    const int64_t bd = i >= nb - bb ? b[i - (nb - bb)] : 1;
    if (ad != bd && ad != 1 && bd != 1) {
      return ge::NotSupported("MatMul batch dims ", ad, " and ", bd, " do not broadcast");
    }
    const int64_t od = std::max(ad, bd);
    if (od == 1) continue;
    const Kind kind = ad == bd ? kBoth : (bd == 1 ? kAOnly : kBOnly);
    if (kind != kAOnly) b_batched = true;
    if (!groups.empty() && groups.back().kind == kind) {
      groups.back().size *= od;
    } else {
      groups.push_back({kind, od});
    }
  }
  MatMulShape s;
  if (!b_batched) {
    int64_t p = 1;
    for (const Group& g : groups) p *= g.size;
    s.a = {p * m, k};
    s.b = {k, n};
    s.y = {p * m, n};
    return s;
  }
  if (groups.size() + 2 > DNNL_MAX_NDIMS) {
    return ge::NotSupported("MatMul batch dims need ", groups.size() + 2,
                            " oneDNN dims, more than its ", DNNL_MAX_NDIMS);
  }
  for (const Group& g : groups) {
    s.a.push_back(g.kind != kBOnly ? g.size : 1);
    s.b.push_back(g.kind != kAOnly ? g.size : 1);
    s.y.push_back(g.size);
  }
  s.a.insert(s.a.end(), {m, k});
  s.b.insert(s.b.end(), {k, n});
  s.y.insert(s.y.end(), {m, n});
  return s;
}

struct GemmAttrs {
  bool trans_a = false, trans_b = false;
  float alpha = 1.0f, beta = 1.0f;
};

ge::StatusOr<GemmAttrs> ReadGemmAttrs(const gert::ContextBase& ctx) {
  GemmAttrs g;
  ASSIGN_OR_RETURN(int64_t ta, ctx.GetIntOr("transA", 0));
  ASSIGN_OR_RETURN(int64_t tb, ctx.GetIntOr("transB", 0));
  ASSIGN_OR_RETURN(g.alpha, ctx.GetFloatOr("alpha", 1.0f));
  ASSIGN_OR_RETURN(g.beta, ctx.GetFloatOr("beta", 1.0f));
  g.trans_a = ta != 0;
  g.trans_b = tb != 0;
  return g;
}

struct GemmShape {
  int64_t m = 0, n = 0, k = 0;
  int64_t cm = 1, cn = 1;  // C's dims as [cm, cn] (1 where it broadcasts)
  bool has_c = false;
};

// `c` null when absent.
ge::StatusOr<GemmShape> PlanGemm(absl::Span<const int64_t> a, absl::Span<const int64_t> b,
                                 const absl::Span<const int64_t>* c, const GemmAttrs& attrs) {
  if (a.size() != 2 || b.size() != 2) return ge::NotSupported("Gemm operands must be 2-D");
  RETURN_IF_ERROR(CheckPositive(a, "input 0 (A)"));
  RETURN_IF_ERROR(CheckPositive(b, "input 1 (B)"));
  GemmShape g;
  g.m = attrs.trans_a ? a[1] : a[0];
  g.k = attrs.trans_a ? a[0] : a[1];
  const int64_t kb = attrs.trans_b ? b[1] : b[0];
  g.n = attrs.trans_b ? b[0] : b[1];
  if (g.k != kb) return ge::NotSupported("Gemm inner dims differ: ", g.k, " and ", kb);
  if (c != nullptr) {
    g.has_c = true;
    if (c->size() > 2) return ge::NotSupported("Gemm C has rank ", c->size());
    RETURN_IF_ERROR(CheckPositive(*c, "input 2 (C)"));
    g.cm = c->size() == 2 ? (*c)[0] : 1;
    g.cn = c->empty() ? 1 : c->back();
    if ((g.cm != 1 && g.cm != g.m) || (g.cn != 1 && g.cn != g.n)) {
      return ge::NotSupported("Gemm C does not broadcast to [", g.m, ", ", g.n, "]");
    }
  }
  return g;
}

// ---------------------------------------------------------------- C prefill

// Y[i, j] = C[i or 0, j or 0] (elements of `es` bytes).
struct PrefillArgs {
  const uint8_t* c;
  uint8_t* y;
  int64_t n, cm, cn;
  size_t es;
};

void PrefillRows(const PrefillArgs& p, int64_t begin, int64_t end) {
  for (int64_t i = begin; i < end; ++i) {
    const uint8_t* src = p.c + static_cast<size_t>((p.cm == 1 ? 0 : i) * p.cn) * p.es;
    uint8_t* dst = p.y + static_cast<size_t>(i * p.n) * p.es;
    if (p.cn == p.n) {
      std::memcpy(dst, src, static_cast<size_t>(p.n) * p.es);
    } else if (p.es == 4) {
      uint32_t v;
      std::memcpy(&v, src, 4);
      std::fill_n(reinterpret_cast<uint32_t*>(dst), p.n, v);
    } else {
      uint16_t v;
      std::memcpy(&v, src, 2);
      std::fill_n(reinterpret_cast<uint16_t*>(dst), p.n, v);
    }
  }
}

// ---------------------------------------------------------------- kernel

class DnnlMatMulKernel : public ge::OpKernel {
 public:
  explicit DnnlMatMulKernel(bool gemm) : gemm_(gemm) {}

  ge::Status Prepare(gert::TilingContext& ctx) override {
    const gert::Tensor* a = ctx.GetInputTensor(0);
    const gert::Tensor* b = ctx.GetInputTensor(1);
    const gert::Tensor* y = ctx.GetOutputTensor(0);
    if (a == nullptr || b == nullptr || y == nullptr) return ctx.Error("A, B and Y are required");
    ASSIGN_OR_RETURN(FusedActivation act, ReadFusedActivation(ctx));
    ASSIGN_OR_RETURN(dnnl_dt dt, DnnlType(a->GetDataType()));
    if (b->GetDataType() != a->GetDataType() || y->GetDataType() != a->GetDataType()) {
      return ctx.Error("A, B and Y must have one data type");
    }
    dnnl::memory::desc src, wei, dst;
    float alpha = 1.0f;
    const gert::Tensor* c = nullptr;
    GemmShape g;
    if (gemm_) {
      ASSIGN_OR_RETURN(GemmAttrs attrs, ReadGemmAttrs(ctx));
      alpha = attrs.alpha;
      c = ctx.GetInputTensor(2);
      if (c != nullptr && c->GetDataType() == ge::DT_UNDEFINED) c = nullptr;
      if (attrs.beta == 0.0f) c = nullptr;  // C is not read (as the host kernel)
      absl::Span<const int64_t> cdims;
      if (c != nullptr) cdims = c->GetShape().GetDims();
      ASSIGN_OR_RETURN(g, PlanGemm(a->GetShape().GetDims(), b->GetShape().GetDims(),
                                   c != nullptr ? &cdims : nullptr, attrs));
      if (y->GetShapeSize() != g.m * g.n) return ctx.Error("Y does not hold [M, N]");
      RETURN_IF_ERROR(DnnlCall("Gemm descs", [&] {
        src = dnnl::memory::desc({g.m, g.k}, dt, attrs.trans_a ? dims_t{1, g.m} : dims_t{g.k, 1});
        wei = dnnl::memory::desc({g.k, g.n}, dt, attrs.trans_b ? dims_t{1, g.k} : dims_t{g.n, 1});
        dst = RowMajor({g.m, g.n}, dt);
      }));
      if (c != nullptr) {
        if (c->GetDataType() != a->GetDataType()) return ctx.Error("C must have A's data type");
        RETURN_IF_ERROR(PlanC(*c, g, attrs, dt));
      }
    } else {
      ASSIGN_OR_RETURN(MatMulShape s, PlanMatMul(a->GetShape().GetDims(), b->GetShape().GetDims()));
      if (y->GetShapeSize() != Product(s.y)) return ctx.Error("Y does not hold the product");
      RETURN_IF_ERROR(DnnlCall("MatMul descs", [&] {
        src = RowMajor(s.a, dt);
        wei = RowMajor(s.b, dt);
        dst = RowMajor(s.y, dt);
      }));
    }
    const bool b_const = b->GetAddr() != nullptr;
    dnnl::post_ops po;
    RETURN_IF_ERROR(DnnlCall("Gemm C post-op", [&] {
      if (c_mode_ == CMode::kBinary) po.append_binary(dnnl::algorithm::binary_add, c_md_);
      if (c_mode_ == CMode::kPrefill) po.append_sum(beta_);
    }));
    RETURN_IF_ERROR(AppendFusedActivation(act, &po));
    dnnl::matmul::primitive_desc pd;
    RETURN_IF_ERROR(DnnlCall("matmul primitive", [&] {
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      if (alpha != 1.0f) attr.set_output_scales(0, {alpha});
      attr.set_post_ops(po);
      const dnnl::memory::desc wei_pd =
          b_const ? dnnl::memory::desc(wei.dims(), dt, dnnl::memory::format_tag::any) : wei;
      const dnnl::matmul::desc d = c_mode_ == CMode::kBias
                                       ? dnnl::matmul::desc(src, wei_pd, c_md_, dst)
                                       : dnnl::matmul::desc(src, wei_pd, dst);
      pd = dnnl::matmul::primitive_desc(d, attr, CpuEngine());
    }));
    RETURN_IF_ERROR(prim_.Init(dnnl::matmul(pd), pd.scratchpad_desc()));
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_SRC, src));
    b_fixed_ = b_const;
    if (b_const) {
      ASSIGN_OR_RETURN(weights_, ReorderOnce(wei, b->GetAddr(), pd.weights_desc()));
      RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_WEIGHTS, pd.weights_desc(), weights_.data()));
    } else {
      RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_WEIGHTS, wei));
    }
    if (c_mode_ == CMode::kBias || c_mode_ == CMode::kBinary) {
      const int arg = c_mode_ == CMode::kBias
                          ? DNNL_ARG_BIAS
                          : (DNNL_ARG_ATTR_MULTIPLE_POST_OP(0) | DNNL_ARG_SRC_1);
      RETURN_IF_ERROR(prim_.AddArg(arg, c_md_, c_from_input_ ? nullptr : c_const_.data()));
    }
    RETURN_IF_ERROR(prim_.AddArg(DNNL_ARG_DST, dst));
    if (prim_.scratchpad_bytes() > 0) {
      RETURN_IF_ERROR(ctx.SetWorkspaceSize(0, prim_.scratchpad_bytes()));
    }
    return ge::OkStatus();
  }

  ge::Status Run(gert::KernelContext& ctx) const override {
    const gert::Tensor* a = ctx.GetInputTensor(0);
    const gert::Tensor* b = ctx.GetInputTensor(1);
    const gert::Tensor* c = gemm_ ? ctx.GetInputTensor(2) : nullptr;
    gert::Tensor* y = ctx.GetOutputTensor(0);
    const bool needs_c = c_from_input_ || c_mode_ == CMode::kPrefill;
    if (a == nullptr || b == nullptr || y == nullptr || (needs_c && c == nullptr)) {
      return ctx.Error("an input or output tensor is missing");
    }
    const void* handles[4];
    size_t n = 0;
    handles[n++] = a->GetAddr();
    if (!b_fixed_) handles[n++] = b->GetAddr();
    if (c_from_input_) handles[n++] = c->GetAddr();
    handles[n++] = y->GetAddr();
    if (c_mode_ == CMode::kPrefill) {
      PrefillArgs p{static_cast<const uint8_t*>(c->GetAddr()),
                    static_cast<uint8_t*>(y->GetAddr()),
                    n_,
                    cm_,
                    cn_,
                    elem_bytes_};
      ParallelFor(m_, std::max<int64_t>(1, 16384 / n_),
                  [&p](int64_t begin, int64_t end) { PrefillRows(p, begin, end); });
    }
    return WithNode(ctx, prim_.Execute(absl::MakeConstSpan(handles, n), ctx.GetWorkspaces()));
  }

 private:
  enum class CMode { kNone, kBias, kBinary, kPrefill };

  // Chooses how Gemm's C term is applied (see the file comment).
  ge::Status PlanC(const gert::Tensor& c, const GemmShape& g, const GemmAttrs& attrs, dnnl_dt dt) {
    const bool row = g.cm == 1 && g.cn == g.n;
    const bool full = g.cm == g.m && g.cn == g.n;
    const bool scalar = g.cm == 1 && g.cn == 1;
    m_ = g.m;
    n_ = g.n;
    cm_ = g.cm;
    cn_ = g.cn;
    beta_ = attrs.beta;
    elem_bytes_ = c.GetDataType() == ge::DT_BF16 ? 2 : 4;
    if (c.GetAddr() != nullptr) {
      // beta * C in f32 once, [M, 1] expanded to [M, N].
      const bool expand = !(row || full || scalar);
      const int64_t rows = expand ? g.m : g.cm, cols = expand ? g.n : g.cn;
      ASSIGN_OR_RETURN(c_const_, AlignedBuffer::Allocate(static_cast<size_t>(rows * cols) * 4));
      float* out = static_cast<float*>(c_const_.data());
      for (int64_t i = 0; i < rows; ++i) {
        for (int64_t j = 0; j < cols; ++j) {
          const int64_t src = (g.cm == 1 ? 0 : i) * g.cn + (g.cn == 1 ? 0 : j);
          out[i * cols + j] = attrs.beta * ElementAsFloat(c.GetAddr(), c.GetDataType(), src);
        }
      }
      c_mode_ = attrs.alpha == 1.0f && row ? CMode::kBias : CMode::kBinary;
      return DnnlCall("Gemm C desc", [&] { c_md_ = RowMajor({rows, cols}, dnnl_dt::f32); });
    }
    if (attrs.beta == 1.0f && (row || full || scalar)) {
      c_mode_ = attrs.alpha == 1.0f && row ? CMode::kBias : CMode::kBinary;
      c_from_input_ = true;
      return DnnlCall("Gemm C desc", [&] { c_md_ = RowMajor({g.cm, g.cn}, dt); });
    }
    c_mode_ = CMode::kPrefill;
    return ge::OkStatus();
  }

  bool gemm_;
  PreparedPrimitive prim_;
  bool b_fixed_ = false;
  AlignedBuffer weights_;  // constant B in the primitive's layout
  CMode c_mode_ = CMode::kNone;
  dnnl::memory::desc c_md_;    // bias / binary src1
  AlignedBuffer c_const_;      // beta * C (f32) of a constant C
  bool c_from_input_ = false;  // bias / src1 is input 2 as is
  float beta_ = 1.0f;
  int64_t m_ = 0, n_ = 0, cm_ = 1, cn_ = 1;  // prefill geometry
  size_t elem_bytes_ = 4;
};

class DnnlMatMul final : public DnnlMatMulKernel {
 public:
  DnnlMatMul() : DnnlMatMulKernel(false) {}
};

class DnnlGemm final : public DnnlMatMulKernel {
 public:
  DnnlGemm() : DnnlMatMulKernel(true) {}
};

// ---------------------------------------------------------------- Supports

ge::Status SameFloatTypes(const ge::OpDesc& op, std::initializer_list<int> inputs) {
  const ge::GeTensorDesc* y = op.GetOutputDescBarePtr(0);
  if (y == nullptr) return ge::NotSupported("output 0 has no desc");
  RETURN_IF_ERROR(CheckFloatType(y->GetDataType(), "output 0"));
  for (int i : inputs) {
    const ge::GeTensorDesc* d = op.GetInputDescBarePtr(static_cast<uint32_t>(i));
    if (d == nullptr || d->GetDataType() == ge::DT_UNDEFINED) continue;
    if (d->GetDataType() != y->GetDataType()) {
      return ge::NotSupported("input ", i, " and output 0 have different data types");
    }
  }
  return ge::OkStatus();
}

const ge::GeTensorDesc* PresentInput(const ge::OpDesc& op, uint32_t i) {
  const ge::GeTensorDesc* d = op.GetInputDescBarePtr(i);
  return d == nullptr || d->GetDataType() == ge::DT_UNDEFINED ? nullptr : d;
}

ge::Status MatMulSupports(const ge::OpDesc& op) {
  const ge::GeTensorDesc* a = PresentInput(op, 0);
  const ge::GeTensorDesc* b = PresentInput(op, 1);
  if (a == nullptr || b == nullptr) return ge::NotSupported("MatMul needs A and B");
  RETURN_IF_ERROR(SameFloatTypes(op, {0, 1}));
  RETURN_IF_ERROR(PlanMatMul(a->GetShape().GetDimsSpan(), b->GetShape().GetDimsSpan()).status());
  return ReadFusedActivation(op).status();
}

ge::Status GemmSupports(const ge::OpDesc& op) {
  const ge::GeTensorDesc* a = PresentInput(op, 0);
  const ge::GeTensorDesc* b = PresentInput(op, 1);
  const ge::GeTensorDesc* c = PresentInput(op, 2);
  if (a == nullptr || b == nullptr) return ge::NotSupported("Gemm needs A and B");
  RETURN_IF_ERROR(SameFloatTypes(op, {0, 1, 2}));
  ge::StatusOr<GemmAttrs> attrs = ReadGemmAttrs(AttrContext(op));
  if (!attrs.ok()) return ge::NotSupported(attrs.status().message());
  absl::Span<const int64_t> cdims;
  if (c != nullptr) cdims = c->GetShape().GetDimsSpan();
  RETURN_IF_ERROR(PlanGemm(a->GetShape().GetDimsSpan(), b->GetShape().GetDimsSpan(),
                           c != nullptr ? &cdims : nullptr, *attrs)
                      .status());
  return ReadFusedActivation(op).status();
}

}  // namespace

REG_KERNEL(MatMul, ge::kEngineAiCore)
    .Kernel<DnnlMatMul>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(MatMulSupports);

REG_KERNEL(Gemm, ge::kEngineAiCore)
    .Kernel<DnnlGemm>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(GemmSupports);

}  // namespace compute
}  // namespace ops
