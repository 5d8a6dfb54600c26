// ops/compute/eltwise/eltwise_kernels.cc
//
// The compute engine's unary elementwise kernels: oneDNN eltwise_forward
// (inference) on FLOAT / BF16, plain layouts (any rank, as one 1-D buffer)
// and NC1HWC0 (4-D, oneDNN keeps the channel padding zero). Where oneDNN's
// result differs from the op's and a selection loop computes the op exactly
// (Relu, LeakyRelu with slope 0, Clip), that loop runs instead: these ops
// are memory-bound and the loop takes about the primitive's time (16M
// floats, one thread: 11.4 ms against oneDNN relu's 12.0 ms).
//
//   op           oneDNN                       where oneDNN differs
//   Relu         - (ReluLoop)                 relu gives 0 for NaN
//   LeakyRelu    relu (slope alpha)           alpha 0 (ZeroSlopeLoop): relu
//                                             gives 0 for NaN and -inf, the
//                                             op 0 * x (NaN)
//   Sigmoid      logistic
//   Tanh         tanh
//   Elu          elu (alpha)
//   Exp          exp                          NaN -> inf: NaN put back
//   Log          log
//   Sqrt         sqrt
//   Abs          abs
//   HardSwish    hardswish
//   HardSigmoid  linear (alpha, beta), then clip [0, 1] in place; a NaN
//                pre-activation gives 1 as the host kernel's fmin / fmax
//   Softplus     soft_relu
//   Gelu         gelu_erf ("none") / gelu_tanh ("tanh")
//   Round        round (half to even), FLOAT only
//   Neg          linear (-1, 0)
//   Reciprocal   pow (1, -1)
//   Clip         - (ClampLoop, the host kernel's rule: NaN kept, min > max
//                gives max; oneDNN's clip differs on both), bounds read at
//                Prepare when constant, at Run otherwise; the NC1HWC0
//                padding zeroed again.
// Not here (no exact oneDNN counterpart): Celu, Selu, Softsign,
// ThresholdedRelu, Erf, Sign, Ceil, Floor, trigonometric ops, IsNaN, IsInf,
// Shrink; the host-CPU engine keeps them.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

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

using dnnl::algorithm;

// What runs after (or between) the primitives to match the op's NaN rule.
enum class NanFix {
  kNone,
  kPropagate,  // after the last step: y = x where x is NaN
  kDstToOne,   // after step 0: y = 1 where y is NaN
};

// A loop that stands for the primitives (eltwise_loops.h).
enum class Loop { kNone, kRelu, kZeroSlope };

struct Step {
  algorithm alg = algorithm::eltwise_linear;
  float alpha = 0.0f;
  float beta = 0.0f;
};

struct EltwisePlan {
  Step steps[2];
  int num_steps = 1;
  NanFix fix = NanFix::kNone;
  Loop loop = Loop::kNone;
};

// The plan of a node from its attributes and data type.
using PlanFn = ge::StatusOr<EltwisePlan> (*)(const gert::ContextBase& attrs, ge::DataType dt);

EltwisePlan One(algorithm alg, float alpha = 0.0f, float beta = 0.0f, NanFix fix = NanFix::kNone) {
  EltwisePlan p;
  p.steps[0] = Step{alg, alpha, beta};
  p.fix = fix;
  return p;
}

EltwisePlan LoopPlan(Loop loop) {
  EltwisePlan p;
  p.num_steps = 0;
  p.loop = loop;
  return p;
}

ge::StatusOr<EltwisePlan> PlanRelu(const gert::ContextBase&, ge::DataType) {
  return LoopPlan(Loop::kRelu);
}
ge::StatusOr<EltwisePlan> PlanLeakyRelu(const gert::ContextBase& a, ge::DataType) {
  ASSIGN_OR_RETURN(float alpha, a.GetFloatOr("alpha", 0.01f));
  // Slope 0: 0 * x keeps NaN and makes -inf NaN, oneDNN gives 0 for both.
  if (alpha == 0.0f) return LoopPlan(Loop::kZeroSlope);
  return One(algorithm::eltwise_relu, alpha);
}
ge::StatusOr<EltwisePlan> PlanSigmoid(const gert::ContextBase&, ge::DataType) {
  return One(algorithm::eltwise_logistic);
}
ge::StatusOr<EltwisePlan> PlanTanh(const gert::ContextBase&, ge::DataType) {
  return One(algorithm::eltwise_tanh);
}
ge::StatusOr<EltwisePlan> PlanElu(const gert::ContextBase& a, ge::DataType) {
  ASSIGN_OR_RETURN(float alpha, a.GetFloatOr("alpha", 1.0f));
  return One(algorithm::eltwise_elu, alpha);
}
ge::StatusOr<EltwisePlan> PlanExp(const gert::ContextBase&, ge::DataType) {
  return One(algorithm::eltwise_exp, 0.0f, 0.0f, NanFix::kPropagate);
}
ge::StatusOr<EltwisePlan> PlanLog(const gert::ContextBase&, ge::DataType) {
  return One(algorithm::eltwise_log);
}
ge::StatusOr<EltwisePlan> PlanSqrt(const gert::ContextBase&, ge::DataType) {
  return One(algorithm::eltwise_sqrt);
}
ge::StatusOr<EltwisePlan> PlanAbs(const gert::ContextBase&, ge::DataType) {
  return One(algorithm::eltwise_abs);
}
ge::StatusOr<EltwisePlan> PlanHardSwish(const gert::ContextBase&, ge::DataType) {
  return One(algorithm::eltwise_hardswish);
}
ge::StatusOr<EltwisePlan> PlanHardSigmoid(const gert::ContextBase& a, ge::DataType) {
  ASSIGN_OR_RETURN(float alpha, a.GetFloatOr("alpha", 0.2f));
  ASSIGN_OR_RETURN(float beta, a.GetFloatOr("beta", 0.5f));
  EltwisePlan p = One(algorithm::eltwise_linear, alpha, beta, NanFix::kDstToOne);
  p.steps[1] = Step{algorithm::eltwise_clip, 0.0f, 1.0f};
  p.num_steps = 2;
  return p;
}
ge::StatusOr<EltwisePlan> PlanSoftplus(const gert::ContextBase&, ge::DataType) {
  return One(algorithm::eltwise_soft_relu);
}
ge::StatusOr<EltwisePlan> PlanGelu(const gert::ContextBase& a, ge::DataType) {
  ASSIGN_OR_RETURN(std::string mode, a.GetStrOr("approximate", "none"));
  if (mode == "none") return One(algorithm::eltwise_gelu_erf);
  if (mode == "tanh") return One(algorithm::eltwise_gelu_tanh);
  return ge::NotSupported("attribute approximate \"", mode, "\" is neither \"none\" nor \"tanh\"");
}
ge::StatusOr<EltwisePlan> PlanRound(const gert::ContextBase&, ge::DataType dt) {
  if (dt != ge::DT_FLOAT) return ge::NotSupported("oneDNN rounds FLOAT only");
  return One(algorithm::eltwise_round);
}
ge::StatusOr<EltwisePlan> PlanNeg(const gert::ContextBase&, ge::DataType) {
  return One(algorithm::eltwise_linear, -1.0f, 0.0f);
}
ge::StatusOr<EltwisePlan> PlanReciprocal(const gert::ContextBase&, ge::DataType) {
  return One(algorithm::eltwise_pow, 1.0f, -1.0f);
}

// ------------------------------------------------------------ primitives

// The steps of a plan prepared on one buffer layout.
class EltwisePrimitives {
 public:
  ge::Status Prepare(gert::TilingContext& ctx, const EltwisePlan& plan, const gert::Tensor& x,
                     const gert::Tensor& y) {
    if (x.GetDataType() != y.GetDataType()) {
      return ctx.Error("input 0 is ", static_cast<int>(x.GetDataType()), " but output 0 is ",
                       static_cast<int>(y.GetDataType()));
    }
    dt_ = x.GetDataType();
    ASSIGN_OR_RETURN(dnnl::memory::desc md, ElementwiseDesc(x, &count_));
    num_steps_ = 0;
    fix_ = plan.fix;
    loop_ = plan.loop;
    if (count_ == 0 || loop_ != Loop::kNone) return ge::OkStatus();
    size_t scratch = 0;
    for (int s = 0; s < plan.num_steps; ++s) {
      const Step& st = plan.steps[s];
      dnnl::primitive prim;
      dnnl::memory::desc scratchpad;
      RETURN_IF_ERROR(DnnlCall("eltwise primitive", [&] {
        dnnl::primitive_attr attr;
        attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        auto d = dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference, st.alg, md,
                                             st.alpha, st.beta);
        auto pd = dnnl::eltwise_forward::primitive_desc(d, attr, CpuEngine());
        prim = dnnl::eltwise_forward(pd);
        scratchpad = pd.scratchpad_desc();
      }));
      RETURN_IF_ERROR(prims_[s].Init(std::move(prim), scratchpad));
      RETURN_IF_ERROR(prims_[s].AddArg(DNNL_ARG_SRC, md));
      RETURN_IF_ERROR(prims_[s].AddArg(DNNL_ARG_DST, md));
      if (prims_[s].scratchpad_bytes() > scratch) scratch = prims_[s].scratchpad_bytes();
    }
    num_steps_ = plan.num_steps;
    if (scratch > 0) RETURN_IF_ERROR(ctx.SetWorkspaceSize(0, scratch));
    return ge::OkStatus();
  }

  ge::Status Run(const void* x, void* y, absl::Span<void* const> ws) const {
    if (loop_ == Loop::kRelu) ReluLoop(dt_, x, y, count_);
    if (loop_ == Loop::kZeroSlope) ZeroSlopeLoop(dt_, x, y, count_);
    if (num_steps_ == 0) return ge::OkStatus();
    RETURN_IF_ERROR(prims_[0].Execute({x, y}, ws));
    if (fix_ == NanFix::kDstToOne) ReplaceNan(dt_, y, count_, 1.0f);
    for (int s = 1; s < num_steps_; ++s) RETURN_IF_ERROR(prims_[s].Execute({y, y}, ws));
    // In place (x == y) the input is gone and its NaN with it.
    if (fix_ == NanFix::kPropagate && x != y) PropagateNan(dt_, x, y, count_);
    return ge::OkStatus();
  }

 private:
  PreparedPrimitive prims_[2];
  int num_steps_ = 0;
  NanFix fix_ = NanFix::kNone;
  Loop loop_ = Loop::kNone;
  ge::DataType dt_ = ge::DT_FLOAT;
  int64_t count_ = 0;
};

template <typename T>
ge::StatusOr<T*> Required(const gert::ContextBase& ctx, T* t, const char* what) {
  if (t == nullptr) return ctx.Error(what, " is missing");
  return t;
}

template <PlanFn kPlan>
class DnnlEltwiseKernel final : public ge::OpKernel {
 public:
  ge::Status Prepare(gert::TilingContext& ctx) override {
    ASSIGN_OR_RETURN(const gert::Tensor* x, Required(ctx, ctx.GetInputTensor(0), "input 0"));
    ASSIGN_OR_RETURN(const gert::Tensor* y, Required(ctx, ctx.GetOutputTensor(0), "output 0"));
    ge::StatusOr<EltwisePlan> plan = kPlan(ctx, x->GetDataType());
    if (!plan.ok())
      return ctx.ErrorWithCode(ge::GetErrorCode(plan.status()), plan.status().message());
    return prims_.Prepare(ctx, *plan, *x, *y);
  }
  ge::Status Run(gert::KernelContext& ctx) const override {
    ASSIGN_OR_RETURN(const gert::Tensor* x, Required(ctx, ctx.GetInputTensor(0), "input 0"));
    ASSIGN_OR_RETURN(gert::Tensor * y, Required(ctx, ctx.GetOutputTensor(0), "output 0"));
    return prims_.Run(x->GetAddr(), y->GetAddr(), ctx.GetWorkspaces());
  }

 private:
  EltwisePrimitives prims_;
};

ge::Status CheckUnaryDescs(const ge::OpDesc& op) {
  const ge::GeTensorDesc* x = op.GetInputDescBarePtr(0);
  const ge::GeTensorDesc* y = op.GetOutputDescBarePtr(0);
  if (x == nullptr || y == nullptr) return ge::NotSupported("the node needs input 0 and output 0");
  return CheckSameLayout(*x, *y);
}

template <PlanFn kPlan>
ge::Status EltwiseSupports(const ge::OpDesc& op) {
  RETURN_IF_ERROR(CheckUnaryDescs(op));
  return kPlan(AttrsOf(op), op.GetInputDescBarePtr(0)->GetDataType()).status();
}

// ------------------------------------------------------------------ Clip

// A Clip bound: absent, constant (value known at Prepare) or known only at
// run time.
struct Bound {
  bool present = false;
  bool constant = false;
  float value = 0.0f;
};

float ReadScalar(const gert::Tensor& t) {
  if (t.GetDataType() == ge::DT_BF16) return Bf16ToFloat(*t.GetData<uint16_t>());
  return *t.GetData<float>();
}

class ClipKernel final : public ge::OpKernel {
 public:
  ge::Status Prepare(gert::TilingContext& ctx) override {
    ASSIGN_OR_RETURN(const gert::Tensor* x, Required(ctx, ctx.GetInputTensor(0), "input 0"));
    ASSIGN_OR_RETURN(const gert::Tensor* y, Required(ctx, ctx.GetOutputTensor(0), "output 0"));
    if (x->GetDataType() != y->GetDataType()) return ctx.Error("input and output types differ");
    for (size_t i = 1; i < 3; ++i) {
      Bound& b = bounds_[i - 1];
      const gert::Tensor* t = ctx.GetInputTensor(i);
      b = Bound();
      if (t == nullptr) continue;
      if (t->GetShapeSize() != 1) {
        return ctx.Error("input ", i, " must be a scalar, got ", t->GetShape().ToString());
      }
      if (t->GetDataType() != x->GetDataType()) {
        return ctx.Error("input ", i, " has another data type than input 0");
      }
      b.present = true;
      b.constant = t->GetAddr() != nullptr;
      if (b.constant) b.value = ReadScalar(*t);
    }
    dt_ = x->GetDataType();
    ASSIGN_OR_RETURN(dnnl::memory::desc md, ElementwiseDesc(*x, &count_));
    (void)md;
    blocked_ = IsNc1hwc0(x->GetFormat());
    if (blocked_) {
      const gert::Shape& s = x->GetShape();
      n_ = s.GetDim(0);
      c_ = s.GetDim(1);
      hw_ = s.GetDim(2) * s.GetDim(3);
    }
    return ge::OkStatus();
  }

  ge::Status Run(gert::KernelContext& ctx) const override {
    ASSIGN_OR_RETURN(const gert::Tensor* x, Required(ctx, ctx.GetInputTensor(0), "input 0"));
    ASSIGN_OR_RETURN(gert::Tensor * y, Required(ctx, ctx.GetOutputTensor(0), "output 0"));
    float v[2] = {0.0f, 0.0f};
    for (size_t i = 0; i < 2; ++i) {
      if (!bounds_[i].present) continue;
      if (bounds_[i].constant) {
        v[i] = bounds_[i].value;
        continue;
      }
      const gert::Tensor* t = ctx.GetInputTensor(i + 1);
      if (t == nullptr || t->GetAddr() == nullptr)
        return ctx.Error("input ", i + 1, " has no data");
      v[i] = ReadScalar(*t);
    }
    ClampLoop(dt_, x->GetAddr(), y->GetAddr(), count_, bounds_[0].present, v[0], bounds_[1].present,
              v[1]);
    if (blocked_) ZeroChannelTail(y->GetAddr(), dt_ == ge::DT_BF16 ? 2 : 4, n_, c_, hw_, 16);
    return ge::OkStatus();
  }

 private:
  Bound bounds_[2];
  bool blocked_ = false;
  ge::DataType dt_ = ge::DT_FLOAT;
  int64_t count_ = 0;
  int64_t n_ = 0, c_ = 0, hw_ = 0;
};

ge::Status ClipSupports(const ge::OpDesc& op) {
  RETURN_IF_ERROR(CheckUnaryDescs(op));
  for (uint32_t i = 1; i < 3 && i < op.GetAllInputsSize(); ++i) {
    const ge::GeTensorDesc* d = op.GetInputDescBarePtr(i);
    if (d == nullptr || d->GetDataType() == ge::DT_UNDEFINED) continue;
    int64_t n = 1;
    for (int64_t v : d->GetShape().GetDimsSpan()) n *= v;
    if (n != 1) return ge::NotSupported("input ", i, " (a bound) must hold one value");
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------ registration

#define GE_COMPUTE_ELTWISE_(Type, Plan)                                                            \
  REG_KERNEL(Type, ge::kEngineAiCore)                                                              \
      .Kernel<DnnlEltwiseKernel<Plan>>()                                                           \
      .DataTypes({ge::DT_FLOAT, ge::DT_BF16})                                                      \
      .Formats(                                                                                    \
          {ge::FORMAT_ND, ge::FORMAT_NCHW, ge::FORMAT_NC1HWC0, ge::FORMAT_NHWC, ge::FORMAT_NDHWC}) \
      .ShapeKinds(ge::kKernelStaticShape)                                                          \
      .Supports(EltwiseSupports<Plan>)

GE_COMPUTE_ELTWISE_(Relu, PlanRelu);
GE_COMPUTE_ELTWISE_(LeakyRelu, PlanLeakyRelu);
GE_COMPUTE_ELTWISE_(Sigmoid, PlanSigmoid);
GE_COMPUTE_ELTWISE_(Tanh, PlanTanh);
GE_COMPUTE_ELTWISE_(Elu, PlanElu);
GE_COMPUTE_ELTWISE_(Exp, PlanExp);
GE_COMPUTE_ELTWISE_(Log, PlanLog);
GE_COMPUTE_ELTWISE_(Sqrt, PlanSqrt);
GE_COMPUTE_ELTWISE_(Abs, PlanAbs);
GE_COMPUTE_ELTWISE_(HardSwish, PlanHardSwish);
GE_COMPUTE_ELTWISE_(HardSigmoid, PlanHardSigmoid);
GE_COMPUTE_ELTWISE_(Softplus, PlanSoftplus);
GE_COMPUTE_ELTWISE_(Gelu, PlanGelu);
GE_COMPUTE_ELTWISE_(Round, PlanRound);
GE_COMPUTE_ELTWISE_(Neg, PlanNeg);
GE_COMPUTE_ELTWISE_(Reciprocal, PlanReciprocal);
#undef GE_COMPUTE_ELTWISE_

REG_KERNEL(Clip, ge::kEngineAiCore)
    .Kernel<ClipKernel>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .Formats({ge::FORMAT_ND, ge::FORMAT_NCHW, ge::FORMAT_NC1HWC0, ge::FORMAT_NHWC,
              ge::FORMAT_NDHWC})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(ClipSupports);

// ------------------------------------------------------------ own loops

// Erf: oneDNN has no erf; the host's arithmetic (std::erf on float) on the
// intra-op pool.
ge::Status ErfKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, Required(ctx, ctx.GetInputTensor(0), "input 0"));
  ASSIGN_OR_RETURN(gert::Tensor * y, Required(ctx, ctx.GetOutputTensor(0), "output 0"));
  const float* s = x->GetData<float>();
  float* d = y->GetData<float>();
  ParallelFor(x->GetShapeSize(), 1 << 12, [=](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) d[i] = std::erf(s[i]);
  });
  return ge::OkStatus();
}

ge::Status FloatUnarySupports(const ge::OpDesc& op) {
  RETURN_IF_ERROR(CheckUnaryDescs(op));
  if (op.GetInputDescBarePtr(0)->GetDataType() != ge::DT_FLOAT) {
    return ge::NotSupported("the kernel takes FLOAT");
  }
  return ge::OkStatus();
}

// Pow with a one-element exponent: x * x for a constant 2 (what LayerNorm
// decompositions use; correctly rounded, within 1 ulp of the host powf), on
// the intra-op pool;
// any other or a runtime exponent runs the host-CPU kernel's function.
class PowKernel final : public ge::OpKernel {
 public:
  ge::Status Prepare(gert::TilingContext& ctx) override {
    host_ = ge::FindKernel("Pow", ge::kEngineHostCpu);
    if (host_ == nullptr) return ctx.Error("no host-CPU Pow kernel");
    const gert::Tensor* p = ctx.GetInputTensor(1);
    square_ = false;
    if (p != nullptr && p->GetAddr() != nullptr && p->GetShapeSize() == 1) {
      double e = 0;
      switch (p->GetDataType()) {
        case ge::DT_FLOAT:
          e = *p->GetData<float>();
          break;
        case ge::DT_DOUBLE:
          e = *p->GetData<double>();
          break;
        case ge::DT_INT32:
          e = *p->GetData<int32_t>();
          break;
        case ge::DT_INT64:
          e = static_cast<double>(*p->GetData<int64_t>());
          break;
        default:
          e = 0;
      }
      square_ = e == 2.0;
    }
    return ge::OkStatus();
  }
  ge::Status Run(gert::KernelContext& ctx) const override {
    if (!square_) return host_->shared_kernel()->Run(ctx);
    ASSIGN_OR_RETURN(const gert::Tensor* x, Required(ctx, ctx.GetInputTensor(0), "input 0"));
    ASSIGN_OR_RETURN(gert::Tensor * y, Required(ctx, ctx.GetOutputTensor(0), "output 0"));
    const float* s = x->GetData<float>();
    float* d = y->GetData<float>();
    ParallelFor(x->GetShapeSize(), 1 << 14, [=](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) d[i] = s[i] * s[i];
    });
    return ge::OkStatus();
  }

 private:
  const ge::KernelDef* host_ = nullptr;
  bool square_ = false;
};

ge::Status PowSupports(const ge::OpDesc& op) {
  RETURN_IF_ERROR(FloatUnarySupports(op));
  const ge::GeTensorDesc* e = op.GetInputDescBarePtr(1);
  if (e == nullptr) return ge::NotSupported("the node needs input 1");
  int64_t count = 1;
  for (int64_t v : e->GetShape().GetDimsSpan()) count *= v;
  if (count != 1) return ge::NotSupported("the exponent must hold one value");
  if (op.GetOutputDescBarePtr(0)->GetShape() != op.GetInputDescBarePtr(0)->GetShape()) {
    return ge::NotSupported("the output must have input 0's shape");
  }
  return ge::OkStatus();
}

REG_KERNEL(Erf, ge::kEngineAiCore)
    .Fn(ErfKernel)
    .DataTypes({ge::DT_FLOAT})
    .Formats({ge::FORMAT_ND, ge::FORMAT_NCHW, ge::FORMAT_NHWC, ge::FORMAT_NDHWC})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(FloatUnarySupports);

REG_KERNEL(Pow, ge::kEngineAiCore)
    .Kernel<PowKernel>()
    .DataTypes({ge::DT_FLOAT, ge::DT_DOUBLE, ge::DT_INT32, ge::DT_INT64})
    .Formats({ge::FORMAT_ND, ge::FORMAT_NCHW})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(PowSupports);

}  // namespace
}  // namespace compute
}  // namespace ops
