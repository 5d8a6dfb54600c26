// ops/training/training_ops.cc
//
// Optimizer ops of the ai.onnx.preview.training domain (version 1): Adagrad,
// Adam, Momentum, with reference host-CPU kernels. (Gradient, which needs
// automatic differentiation of a graph, is not an op here.)
//
// Inputs: R (FLOAT / DOUBLE scalar learning rate), T (INT64 scalar update
// count), then the dynamic input "inputs" holding n tensors of each group:
//   Adagrad   X1..Xn, G1..Gn, H1..Hn      -> X_new1..n, H_new1..n
//   Adam      X.., G.., V.., H..           -> X_new.., V_new.., H_new..
//   Momentum  X.., G.., V..                -> X_new.., V_new..
// (dynamic output "outputs"). Every tensor of index i has X_i's shape; all
// of them share one FLOAT / DOUBLE type. Updates follow the ONNX reference
// (computed in double):
//   Adagrad   r = R / (1 + T * decay_factor); g = norm_coefficient * X + G;
//             H' = H + g^2; X' = X - r * g / (sqrt(H') + epsilon)
//   Adam      g = norm_coefficient * X + G; V' = alpha V + (1 - alpha) g;
//             H' = beta H + (1 - beta) g^2;
//             r = T > 0 ? R sqrt(1 - beta^T) / (1 - alpha^T) : R;
//             X' = (1 - norm_coefficient_post) (X - r V' / (sqrt(H') + epsilon))
//   Momentum  g = norm_coefficient * X + G; b = T > 0 ? beta : 1;
//             V' = alpha V + b g; standard: X' = X - R V';
//             nesterov: X' = X - R (g + alpha V')
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"

namespace ops {
namespace {

enum class Optimizer { kAdagrad, kAdam, kMomentum };

// Input groups (X, G, ...) and output groups (X_new, ...).
size_t InGroups(Optimizer o) { return o == Optimizer::kAdam ? 4 : 3; }
size_t OutGroups(Optimizer o) { return o == Optimizer::kAdam ? 3 : 2; }
// Input group feeding output group k: X for X_new, the state input for the
// state outputs (Adagrad H = group 2; Adam V = 2, H = 3; Momentum V = 2).
size_t OutputSourceGroup(size_t k) { return k == 0 ? 0 : k + 1; }

const char* GroupName(Optimizer o, size_t g) {
  static const char* const kAdagrad[] = {"X", "G", "H"};
  static const char* const kAdam[] = {"X", "G", "V", "H"};
  static const char* const kMomentum[] = {"X", "G", "V"};
  switch (o) {
    case Optimizer::kAdagrad:
      return kAdagrad[g];
    case Optimizer::kAdam:
      return kAdam[g];
    case Optimizer::kMomentum:
      return kMomentum[g];
  }
  return "?";
}

// The count of tensors per group, n, from the dynamic input's instances.
template <typename Ctx>
ge::StatusOr<size_t> TensorsPerGroup(const Ctx& ctx, Optimizer o) {
  gert::IrInstance ir = ctx.GetIrInputInstance(2);
  size_t count = ir.count;
  if (ir.count == 0 && ir.start == 0) {
    count = ctx.GetInputNum() >= 2 ? ctx.GetInputNum() - 2 : 0;  // no IR information
  } else if (ir.start != 2) {
    return ctx.Error("dynamic input 'inputs' starts at index ", ir.start, ", expected 2");
  }
  const size_t groups = InGroups(o);
  if (count == 0 || count % groups != 0) {
    return ctx.Error("needs ", groups, " * n tensors after R and T (", GroupName(o, 0), ", ",
                     GroupName(o, 1), ", ...), got ", count);
  }
  const size_t n = count / groups;
  if (ctx.GetOutputNum() != OutGroups(o) * n) {
    return ctx.Error("has ", ctx.GetOutputNum(), " outputs, expected ", OutGroups(o) * n, " (",
                     OutGroups(o), " per optimized tensor, ", n, " tensors)");
  }
  return n;
}

bool IsScalarShape(const gert::Shape& s) {
  return s.IsUnknownRank() || s.GetDimNum() == 0 ||
         (s.GetDimNum() == 1 && (s.GetDim(0) == 1 || s.GetDim(0) < 0));
}

ge::Status InferOptimizer(gert::InferShapeContext& ctx, Optimizer o) {
  ASSIGN_OR_RETURN(size_t n, TensorsPerGroup(ctx, o));
  for (size_t i = 0; i < 2; ++i) {
    const gert::Shape* s = ctx.GetInputShape(i);
    if (s == nullptr) return ctx.Error("input ", i, " (", i == 0 ? "R" : "T", ") is required");
    if (!IsScalarShape(*s)) {
      return ctx.Error("input ", i, " (", i == 0 ? "R" : "T", ") must be a scalar, got ",
                       s->ToString());
    }
  }
  const size_t groups = InGroups(o);
  for (size_t i = 0; i < n; ++i) {
    // Merge the shapes of X_i, G_i, ... (same rank and dims).
    gert::Shape merged{ge::UNKNOWN_RANK};
    for (size_t g = 0; g < groups; ++g) {
      const size_t idx = 2 + g * n + i;
      const gert::Shape* s = ctx.GetInputShape(idx);
      if (s == nullptr)
        return ctx.Error("input ", idx, " (", GroupName(o, g), i + 1, ") is missing");
      if (s->IsUnknownRank()) continue;
      if (merged.IsUnknownRank()) {
        merged = *s;
        continue;
      }
      bool ok = merged.GetDimNum() == s->GetDimNum();
      for (size_t d = 0; ok && d < s->GetDimNum(); ++d) {
        const int64_t a = merged.GetDim(d), b = s->GetDim(d);
        if (a >= 0 && b >= 0 && a != b) ok = false;
        if (a < 0) merged.SetDim(d, b);
      }
      if (!ok) {
        return ctx.Error("input ", idx, " (", GroupName(o, g), i + 1, ") has shape ", s->ToString(),
                         " but ", GroupName(o, 0), i + 1, " and the others of its index have ",
                         merged.ToString());
      }
    }
    for (size_t k = 0; k < OutGroups(o); ++k) {
      if (gert::Shape* y = ctx.GetOutputShape(k * n + i)) *y = merged;
    }
  }
  return ge::OkStatus();
}

ge::Status InferOptimizerType(gert::InferShapeContext& ctx, Optimizer o) {
  ASSIGN_OR_RETURN(size_t n, TensorsPerGroup(ctx, o));
  for (size_t k = 0; k < OutGroups(o); ++k) {
    for (size_t i = 0; i < n; ++i) {
      ctx.SetOutputDataType(k * n + i, ctx.GetInputDataType(2 + OutputSourceGroup(k) * n + i));
    }
  }
  return ge::OkStatus();
}

ge::Status VerifyOptimizer(gert::InferShapeContext& ctx, Optimizer o) {
  const ge::DataType r = ctx.GetInputDataType(0);
  if (r != ge::DT_FLOAT && r != ge::DT_DOUBLE) {
    return ctx.Error("input 0 (R) must be DT_FLOAT or DT_DOUBLE, got ", DataTypeName(r));
  }
  if (ctx.GetInputDataType(1) != ge::DT_INT64) {
    return ctx.Error("input 1 (T) must be DT_INT64, got ", DataTypeName(ctx.GetInputDataType(1)));
  }
  ASSIGN_OR_RETURN(size_t n, TensorsPerGroup(ctx, o));
  const ge::DataType t = ctx.GetInputDataType(2);
  if (t != ge::DT_FLOAT && t != ge::DT_DOUBLE) {
    return ctx.Error("input 2 (X1) must be DT_FLOAT or DT_DOUBLE, got ", DataTypeName(t));
  }
  for (size_t idx = 3; idx < 2 + InGroups(o) * n; ++idx) {
    if (ctx.GetInputDataType(idx) != t) {
      const size_t g = (idx - 2) / n, i = (idx - 2) % n;
      return ctx.Error("input ", idx, " (", GroupName(o, g), i + 1, ") is ",
                       DataTypeName(ctx.GetInputDataType(idx)), " but X1 is ", DataTypeName(t));
    }
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------ kernels

struct OptimizerAttrs {
  // Adagrad
  double decay_factor = 0, epsilon = 1e-6, norm_coefficient = 0;
  // Adam / Momentum
  double alpha = 0.9, beta = 0.999, norm_coefficient_post = 0;
  bool nesterov = false;
};

ge::StatusOr<OptimizerAttrs> ReadOptimizerAttrs(const gert::ContextBase& ctx, Optimizer o) {
  OptimizerAttrs a;
  switch (o) {
    case Optimizer::kAdagrad: {
      ASSIGN_OR_RETURN(float d, ctx.GetFloatOr("decay_factor", 0.f));
      ASSIGN_OR_RETURN(float e, ctx.GetFloatOr("epsilon", 1e-6f));
      ASSIGN_OR_RETURN(float nc, ctx.GetFloatOr("norm_coefficient", 0.f));
      a.decay_factor = d;
      a.epsilon = e;
      a.norm_coefficient = nc;
      break;
    }
    case Optimizer::kAdam: {
      ASSIGN_OR_RETURN(float al, ctx.GetFloatOr("alpha", 0.9f));
      ASSIGN_OR_RETURN(float be, ctx.GetFloatOr("beta", 0.999f));
      ASSIGN_OR_RETURN(float e, ctx.GetFloatOr("epsilon", 1e-6f));
      ASSIGN_OR_RETURN(float nc, ctx.GetFloatOr("norm_coefficient", 0.f));
      ASSIGN_OR_RETURN(float ncp, ctx.GetFloatOr("norm_coefficient_post", 0.f));
      a.alpha = al;
      a.beta = be;
      a.epsilon = e;
      a.norm_coefficient = nc;
      a.norm_coefficient_post = ncp;
      break;
    }
    case Optimizer::kMomentum: {
      ASSIGN_OR_RETURN(float al, ctx.GetFloat("alpha"));
      ASSIGN_OR_RETURN(float be, ctx.GetFloat("beta"));
      ASSIGN_OR_RETURN(float nc, ctx.GetFloat("norm_coefficient"));
      ASSIGN_OR_RETURN(std::string mode, ctx.GetStr("mode"));
      if (mode != "standard" && mode != "nesterov") {
        return ctx.Error("attribute mode must be standard or nesterov, got \"", mode, "\"");
      }
      a.alpha = al;
      a.beta = be;
      a.norm_coefficient = nc;
      a.nesterov = mode == "nesterov";
      break;
    }
  }
  return a;
}

ge::StatusOr<std::vector<double>> ReadReal(const gert::KernelContext& ctx, size_t idx) {
  ASSIGN_OR_RETURN(const gert::Tensor* t, GetKernelInput(ctx, idx));
  if (t->GetDataType() != ge::DT_FLOAT && t->GetDataType() != ge::DT_DOUBLE) {
    return ctx.Error("input ", idx, " must be DT_FLOAT or DT_DOUBLE, got ",
                     DataTypeName(t->GetDataType()));
  }
  ge::StatusOr<std::vector<double>> v = ReadAsDoubles(*t);
  if (!v.ok()) return WithNode(ctx, v.status());
  return v;
}

ge::Status WriteReal(gert::KernelContext& ctx, size_t out, const gert::Shape& shape,
                     ge::DataType dt, const std::vector<double>& v) {
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, out, shape, dt));
  if (dt == ge::DT_DOUBLE) {
    std::copy(v.begin(), v.end(), y->GetData<double>());
  } else {
    float* p = y->GetData<float>();
    for (size_t i = 0; i < v.size(); ++i) p[i] = static_cast<float>(v[i]);
  }
  return ge::OkStatus();
}

ge::Status OptimizerKernel(gert::KernelContext& ctx, Optimizer o) {
  ASSIGN_OR_RETURN(OptimizerAttrs a, ReadOptimizerAttrs(ctx, o));
  ASSIGN_OR_RETURN(size_t n, TensorsPerGroup(ctx, o));
  ASSIGN_OR_RETURN(std::vector<double> rv, ReadReal(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* tt, GetKernelInput(ctx, 1));
  ge::StatusOr<std::vector<int64_t>> tv = ReadIntTensor(*tt);
  if (!tv.ok()) return WithNode(ctx, ge::Annotate(tv.status(), "input 1 (T): "));
  if (rv.size() != 1 || tv->size() != 1) {
    return ctx.Error("inputs 0 (R) and 1 (T) must be scalars, got ", rv.size(), " and ", tv->size(),
                     " elements");
  }
  const double r = rv[0];
  const int64_t t = (*tv)[0];
  const double td = static_cast<double>(t);
  const size_t groups = InGroups(o);
  for (size_t i = 0; i < n; ++i) {
    std::vector<std::vector<double>> in(groups);
    const gert::Tensor* x = ctx.GetInputTensor(2 + i);
    if (x == nullptr) return ctx.Error("input ", 2 + i, " (X", i + 1, ") is missing");
    for (size_t g = 0; g < groups; ++g) {
      const size_t idx = 2 + g * n + i;
      ASSIGN_OR_RETURN(in[g], ReadReal(ctx, idx));
      if (ctx.GetInputTensor(idx)->GetShape() != x->GetShape()) {
        return ctx.Error("input ", idx, " (", GroupName(o, g), i + 1, ") has shape ",
                         ctx.GetInputTensor(idx)->GetShape().ToString(), " but X", i + 1, " has ",
                         x->GetShape().ToString());
      }
    }
    const std::vector<double>& xv = in[0];
    const std::vector<double>& gv = in[1];
    const size_t m = xv.size();
    std::vector<double> x_new(m), s1(m), s2(m);
    switch (o) {
      case Optimizer::kAdagrad: {
        const std::vector<double>& h = in[2];
        const double lr = r / (1.0 + td * a.decay_factor);
        for (size_t k = 0; k < m; ++k) {
          const double g = a.norm_coefficient * xv[k] + gv[k];
          s1[k] = h[k] + g * g;
          x_new[k] = xv[k] - lr * g / (std::sqrt(s1[k]) + a.epsilon);
        }
        break;
      }
      case Optimizer::kAdam: {
        const std::vector<double>& v = in[2];
        const std::vector<double>& h = in[3];
        const double lr =
            t > 0 ? r * std::sqrt(1.0 - std::pow(a.beta, td)) / (1.0 - std::pow(a.alpha, td)) : r;
        for (size_t k = 0; k < m; ++k) {
          const double g = a.norm_coefficient * xv[k] + gv[k];
          s1[k] = a.alpha * v[k] + (1.0 - a.alpha) * g;
          s2[k] = a.beta * h[k] + (1.0 - a.beta) * g * g;
          x_new[k] = (1.0 - a.norm_coefficient_post) *
                     (xv[k] - lr * s1[k] / (std::sqrt(s2[k]) + a.epsilon));
        }
        break;
      }
      case Optimizer::kMomentum: {
        const std::vector<double>& v = in[2];
        const double beta = t > 0 ? a.beta : 1.0;
        for (size_t k = 0; k < m; ++k) {
          const double g = a.norm_coefficient * xv[k] + gv[k];
          s1[k] = a.alpha * v[k] + beta * g;
          x_new[k] = a.nesterov ? xv[k] - r * (g + a.alpha * s1[k]) : xv[k] - r * s1[k];
        }
        break;
      }
    }
    const std::vector<double>* outs[] = {&x_new, &s1, &s2};
    for (size_t k = 0; k < OutGroups(o); ++k) {
      const size_t out = k * n + i;
      if (ctx.GetOutputTensor(out) == nullptr) continue;
      const ge::DataType dt = ctx.GetInputTensor(2 + OutputSourceGroup(k) * n + i)->GetDataType();
      RETURN_IF_ERROR(WriteReal(ctx, out, x->GetShape(), dt, *outs[k]));
    }
  }
  return ge::OkStatus();
}

ge::Status InferAdagrad(gert::InferShapeContext& ctx) {
  return InferOptimizer(ctx, Optimizer::kAdagrad);
}
ge::Status InferAdam(gert::InferShapeContext& ctx) { return InferOptimizer(ctx, Optimizer::kAdam); }
ge::Status InferMomentum(gert::InferShapeContext& ctx) {
  return InferOptimizer(ctx, Optimizer::kMomentum);
}
ge::Status InferAdagradType(gert::InferShapeContext& ctx) {
  return InferOptimizerType(ctx, Optimizer::kAdagrad);
}
ge::Status InferAdamType(gert::InferShapeContext& ctx) {
  return InferOptimizerType(ctx, Optimizer::kAdam);
}
ge::Status InferMomentumType(gert::InferShapeContext& ctx) {
  return InferOptimizerType(ctx, Optimizer::kMomentum);
}
ge::Status VerifyAdagrad(gert::InferShapeContext& ctx) {
  return VerifyOptimizer(ctx, Optimizer::kAdagrad);
}
ge::Status VerifyAdam(gert::InferShapeContext& ctx) {
  return VerifyOptimizer(ctx, Optimizer::kAdam);
}
ge::Status VerifyMomentum(gert::InferShapeContext& ctx) {
  return VerifyOptimizer(ctx, Optimizer::kMomentum);
}
ge::Status AdagradKernel(gert::KernelContext& ctx) {
  return OptimizerKernel(ctx, Optimizer::kAdagrad);
}
ge::Status AdamKernel(gert::KernelContext& ctx) { return OptimizerKernel(ctx, Optimizer::kAdam); }
ge::Status MomentumKernel(gert::KernelContext& ctx) {
  return OptimizerKernel(ctx, Optimizer::kMomentum);
}

ge::TensorType RealTypes() { return ge::TensorType{ge::DT_FLOAT, ge::DT_DOUBLE}; }
ge::AttrValue AttrFloat(float v) { return ge::AttrValue::CreateFrom<float>(v); }

}  // namespace

REG_OP(Adagrad)
    .Input("R", RealTypes())
    .Input("T", ge::TensorType{ge::DT_INT64})
    .DynamicInput("inputs", RealTypes())
    .DynamicOutput("outputs", RealTypes())
    .Attr("decay_factor", AttrFloat(0.f))
    .Attr("epsilon", AttrFloat(1e-6f))
    .Attr("norm_coefficient", AttrFloat(0.f))
    .InferShape(InferAdagrad)
    .InferDataType(InferAdagradType)
    .Verify(VerifyAdagrad);
REG_KERNEL(Adagrad, ge::kEngineHostCpu).Fn(AdagradKernel);

REG_OP(Adam)
    .Input("R", RealTypes())
    .Input("T", ge::TensorType{ge::DT_INT64})
    .DynamicInput("inputs", RealTypes())
    .DynamicOutput("outputs", RealTypes())
    .Attr("alpha", AttrFloat(0.9f))
    .Attr("beta", AttrFloat(0.999f))
    .Attr("epsilon", AttrFloat(1e-6f))
    .Attr("norm_coefficient", AttrFloat(0.f))
    .Attr("norm_coefficient_post", AttrFloat(0.f))
    .InferShape(InferAdam)
    .InferDataType(InferAdamType)
    .Verify(VerifyAdam);
REG_KERNEL(Adam, ge::kEngineHostCpu).Fn(AdamKernel);

REG_OP(Momentum)
    .Input("R", RealTypes())
    .Input("T", ge::TensorType{ge::DT_INT64})
    .DynamicInput("inputs", RealTypes())
    .DynamicOutput("outputs", RealTypes())
    .RequiredAttr("alpha", ge::AttrValue::VT_FLOAT)
    .RequiredAttr("beta", ge::AttrValue::VT_FLOAT)
    .RequiredAttr("mode", ge::AttrValue::VT_STRING)
    .RequiredAttr("norm_coefficient", ge::AttrValue::VT_FLOAT)
    .InferShape(InferMomentum)
    .InferDataType(InferMomentumType)
    .Verify(VerifyMomentum);
REG_KERNEL(Momentum, ge::kEngineHostCpu).Fn(MomentumKernel);

}  // namespace ops
