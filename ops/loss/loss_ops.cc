// ops/loss/loss_ops.cc
//
// Loss ops (ONNX opset 13-17): NegativeLogLikelihoodLoss and
// SoftmaxCrossEntropyLoss with reference host-CPU kernels.
//
//   input / scores [N, C, d1, ..., dk] (k >= 0), target / labels
//   [N, d1, ..., dk] (INT32 / INT64), optional weight(s) [C].
//   loss[n, d] = -weight[t] * input[n, t, d] with t = target[n, d]
//   (SoftmaxCrossEntropyLoss: input = log_softmax(scores, axis 1), also
//   returned as the optional second output log_prob, shape of scores).
//   Elements whose target equals ignore_index (attribute, absent = none)
//   contribute 0 and weigh 0.
//   reduction: "none" -> [N, d1, ..., dk]; "sum" -> scalar;
//   "mean" (default) -> sum(loss) / sum(weight[t] over non-ignored elements)
//   (the ONNX reference: NaN when every element is ignored).
// Targets outside [0, C) that are not ignore_index are errors naming the
// element. Kernels accumulate in double.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
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
#include "ops/common/shape_range.h"

namespace ops {
namespace {

enum class Reduction { kNone, kSum, kMean };

struct LossAttrs {
  Reduction reduction = Reduction::kMean;
  bool has_ignore = false;
  int64_t ignore_index = 0;
};

ge::StatusOr<LossAttrs> ReadLossAttrs(const gert::ContextBase& ctx) {
  LossAttrs a;
  ASSIGN_OR_RETURN(std::string r, ctx.GetStrOr("reduction", "mean"));
  if (r == "none") {
    a.reduction = Reduction::kNone;
  } else if (r == "sum") {
    a.reduction = Reduction::kSum;
  } else if (r == "mean") {
    a.reduction = Reduction::kMean;
  } else {
    return ctx.Error("attribute reduction must be none, sum or mean, got \"", r, "\"");
  }
  if (ctx.HasAttr("ignore_index")) {
    ASSIGN_OR_RETURN(a.ignore_index, ctx.GetInt("ignore_index"));
    a.has_ignore = true;
  }
  return a;
}

// ------------------------------------------------------------ infer

// Shared by both ops: input 0 [N, C, d...], input 1 [N, d...], input 2 [C].
ge::Status InferLossShapes(gert::InferShapeContext& ctx, bool has_log_prob) {
  ASSIGN_OR_RETURN(LossAttrs a, ReadLossAttrs(ctx));
  const gert::Shape* x = ctx.GetInputShape(0);
  const gert::Shape* t = ctx.GetInputShape(1);
  if (x == nullptr || t == nullptr) return ctx.Error("inputs 0 and 1 are required");
  if (!x->IsUnknownRank() && x->GetDimNum() < 2) {
    return ctx.Error("input 0 must have rank >= 2 ([N, C, d1, ...]), got ", x->ToString());
  }
  if (!x->IsUnknownRank() && !t->IsUnknownRank() && t->GetDimNum() + 1 != x->GetDimNum()) {
    return ctx.Error("input 1 has shape ", t->ToString(), ", expected rank ", x->GetDimNum() - 1,
                     " to match input 0 ", x->ToString());
  }
  if (t->IsUnknownRank() == false && t->GetDimNum() < 1) {
    return ctx.Error("input 1 must have rank >= 1 ([N, d1, ...]), got ", t->ToString());
  }
  // Output (reduction none): target dims merged with input 0's N, d...
  gert::Shape out;
  bool out_unknown_rank = false;
  if (!t->IsUnknownRank()) {
    out = *t;
    if (!x->IsUnknownRank()) {
      for (size_t i = 0; i < t->GetDimNum(); ++i) {
        const int64_t xd = x->GetDim(i == 0 ? 0 : i + 1);
        const int64_t td = t->GetDim(i);
        if (xd >= 0 && td >= 0 && xd != td) {
          return ctx.Error("input 1 has shape ", t->ToString(), " but input 0 has shape ",
                           x->ToString(), ": target dim ", i, " must be ", xd);
        }
        if (td < 0) out.SetDim(i, xd);
      }
    }
  } else if (!x->IsUnknownRank()) {
    for (size_t i = 0; i < x->GetDimNum(); ++i) {
      if (i != 1) out.AppendDim(x->GetDim(i));
    }
  } else {
    out_unknown_rank = true;
  }
  if (const gert::Shape* w = ctx.GetInputShape(2)) {
    if (!w->IsUnknownRank()) {
      if (w->GetDimNum() != 1)
        return ctx.Error("input 2 (weight) must be 1-D, got ", w->ToString());
      const int64_t c = x->IsUnknownRank() ? -1 : x->GetDim(1);
      if (c >= 0 && w->GetDim(0) >= 0 && w->GetDim(0) != c) {
        return ctx.Error("input 2 (weight) has shape ", w->ToString(), " but input 0 has C = ", c,
                         " classes");
      }
    }
  }
  if (gert::Shape* y = ctx.GetOutputShape(0)) {
    if (a.reduction != Reduction::kNone) {
      *y = gert::Shape{};
    } else if (out_unknown_rank) {
      *y = gert::Shape{ge::UNKNOWN_RANK};
    } else {
      *y = out;
    }
  }
  const size_t max_outputs = has_log_prob ? 2 : 1;
  if (ctx.GetOutputNum() > max_outputs) {
    return ctx.Error("has ", ctx.GetOutputNum(), " outputs, at most ", max_outputs, " allowed");
  }
  if (has_log_prob) {
    if (gert::Shape* lp = ctx.GetOutputShape(1)) *lp = *x;
  }
  if (!AnyInputRange(ctx) || x->IsUnknownRank()) return ge::OkStatus();
  // Reduction none: [N, d1, ...] from input 0 (C dropped) met with the
  // target's range; log_prob copies input 0's range.
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, 0));
  if (has_log_prob && ctx.GetOutputShape(1) != nullptr) {
    RETURN_IF_ERROR(SetOutputRange(ctx, 1, xr));
  }
  if (a.reduction != Reduction::kNone) return ge::OkStatus();  // scalar
  ASSIGN_OR_RETURN(gert::ShapeRange tr, InputRange(ctx, 1));
  gert::ShapeRange range;
  for (size_t i = 0; i < xr.size(); ++i) {
    if (i != 1) range.push_back(xr[i]);
  }
  if (tr.size() == range.size()) {
    for (size_t i = 0; i < range.size(); ++i) {
      ge::StatusOr<DimRange> d = IntersectDimRange(range[i], tr[i]);
      if (!d.ok()) {
        return ctx.Error("input 1 dim ", i, " range ", DimRangeString(tr[i]),
                         " conflicts with input 0: ", d.status().message());
      }
      range[i] = *d;
    }
  }
  return SetOutputRange(ctx, 0, std::move(range));
}

ge::Status InferNll(gert::InferShapeContext& ctx) { return InferLossShapes(ctx, false); }
ge::Status InferSce(gert::InferShapeContext& ctx) { return InferLossShapes(ctx, true); }

ge::Status VerifyLoss(gert::InferShapeContext& ctx) {
  const ge::DataType t = ctx.GetInputDataType(1);
  if (t != ge::DT_INT32 && t != ge::DT_INT64) {
    return ctx.Error("input 1 (target) must be DT_INT32 or DT_INT64, got ", DataTypeName(t));
  }
  if (ctx.GetInputShape(2) != nullptr && ctx.GetInputDataType(2) != ctx.GetInputDataType(0)) {
    return ctx.Error("input 2 (weight) is ", DataTypeName(ctx.GetInputDataType(2)),
                     " but input 0 is ", DataTypeName(ctx.GetInputDataType(0)));
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------ kernel

template <typename T>
std::vector<double> ToDoubles(const gert::Tensor& t) {
  const int64_t n = t.GetShapeSize();
  std::vector<double> v(static_cast<size_t>(n));
  const T* p = t.GetData<T>();
  for (int64_t i = 0; i < n; ++i) v[i] = static_cast<double>(ToCompute(p[i]));
  return v;
}

template <typename T>
void FromDoubles(const std::vector<double>& v, gert::Tensor* t) {
  T* p = t->GetData<T>();
  for (size_t i = 0; i < v.size(); ++i) p[i] = ConvertElement<T>(v[i]);
}

ge::Status LossKernel(gert::KernelContext& ctx, bool softmax) {
  ASSIGN_OR_RETURN(LossAttrs a, ReadLossAttrs(ctx));
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* target, GetKernelInput(ctx, 1));
  const gert::Tensor* weight = nullptr;
  if (ctx.GetInputTensor(2) != nullptr) {
    ASSIGN_OR_RETURN(weight, GetKernelInput(ctx, 2));
  }
  const gert::Shape& xs = x->GetShape();
  const gert::Shape& ts = target->GetShape();
  if (xs.GetDimNum() < 2) return ctx.Error("input 0 must have rank >= 2, got ", xs.ToString());
  bool target_ok = ts.GetDimNum() + 1 == xs.GetDimNum() && ts.GetDim(0) == xs.GetDim(0);
  for (size_t i = 1; target_ok && i < ts.GetDimNum(); ++i)
    target_ok = ts.GetDim(i) == xs.GetDim(i + 1);
  if (!target_ok) {
    return ctx.Error("input 1 has shape ", ts.ToString(), ", expected input 0's ", xs.ToString(),
                     " without dim 1");
  }
  const int64_t n = xs.GetDim(0), c = xs.GetDim(1);
  const int64_t d =
      n == 0 || c == 0 ? ts.GetShapeSize() / std::max<int64_t>(n, 1) : xs.GetShapeSize() / (n * c);
  if (weight != nullptr && weight->GetShape() != gert::Shape{c}) {
    return ctx.Error("input 2 (weight) has shape ", weight->GetShape().ToString(), ", expected [",
                     c, "]");
  }
  ge::StatusOr<std::vector<int64_t>> target_values = ReadIntTensor(*target);
  if (!target_values.ok()) return WithNode(ctx, target_values.status());
  const std::vector<int64_t>& tv = *target_values;
  const ge::DataType dt = x->GetDataType();
  std::vector<double> xv, wv;
  RETURN_IF_ERROR(WithNode(ctx, DispatchType<kTgAllFloat>(
                                    dt,
                                    [&](auto tag) {
                                      using T = typename decltype(tag)::type;
                                      xv = ToDoubles<T>(*x);
                                      if (weight != nullptr) {
                                        if (weight->GetDataType() != dt) {
                                          return ge::ParamInvalid(
                                              "input 2 (weight) dtype differs from input 0");
                                        }
                                        wv = ToDoubles<T>(*weight);
                                      }
                                      return ge::OkStatus();
                                    },
                                    "loss input 0")));
  if (softmax) {
    // log_softmax over C for every (n, d), in place.
    for (int64_t i = 0; i < n; ++i) {
      double* base = xv.data() + i * c * d;
      for (int64_t k = 0; k < d; ++k) {
        double m = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < c; ++j) m = std::max(m, base[j * d + k]);
        double s = 0;
        for (int64_t j = 0; j < c; ++j) s += std::exp(base[j * d + k] - m);
        const double lse = m + std::log(s);
        for (int64_t j = 0; j < c; ++j) base[j * d + k] -= lse;
      }
    }
  }
  std::vector<double> loss(static_cast<size_t>(n * d), 0.0);
  double loss_sum = 0, weight_sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t k = 0; k < d; ++k) {
      const int64_t idx = i * d + k;
      const int64_t t = tv[idx];
      if (a.has_ignore && t == a.ignore_index) continue;
      if (t < 0 || t >= c) {
        return ctx.Error("target value ", t, " at element ", idx, " is out of range [0, ", c, ")");
      }
      const double w = wv.empty() ? 1.0 : wv[t];
      const double l = -xv[(i * c + t) * d + k] * w;
      loss[idx] = l;
      loss_sum += l;
      weight_sum += w;
    }
  }
  gert::Shape out_shape;  // scalar for sum / mean
  std::vector<double> out;
  if (a.reduction == Reduction::kNone) {
    out_shape = ts;
    out = std::move(loss);
  } else if (a.reduction == Reduction::kSum) {
    out = {loss_sum};
  } else {
    out = {loss_sum / weight_sum};
  }
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, out_shape, dt));
  gert::Tensor* lp = nullptr;
  if (softmax && ctx.GetOutputNum() > 1 && ctx.GetOutputTensor(1) != nullptr) {
    ASSIGN_OR_RETURN(lp, PrepareOutput(ctx, 1, xs, dt));
  }
  return WithNode(ctx, DispatchType<kTgAllFloat>(
                           dt,
                           [&](auto tag) {
                             using T = typename decltype(tag)::type;
                             FromDoubles<T>(out, y);
                             if (lp != nullptr) FromDoubles<T>(xv, lp);
                             return ge::OkStatus();
                           },
                           "loss output"));
}

ge::Status NllKernel(gert::KernelContext& ctx) { return LossKernel(ctx, false); }
ge::Status SceKernel(gert::KernelContext& ctx) { return LossKernel(ctx, true); }

ge::TensorType IndexTypes() { return ge::TensorType{ge::DT_INT32, ge::DT_INT64}; }

}  // namespace

// ignore_index has no ONNX default: read when present.
REG_OP(NegativeLogLikelihoodLoss)
    .Input("input", ge::TensorType{ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE})
    .Input("target", IndexTypes())
    .OptionalInput("weight", ge::TensorType{ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE})
    .Output("loss", ge::TensorType{ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_DOUBLE})
    .Attr("reduction", ge::AttrValue::CreateFrom<std::string>("mean"))
    .InferShape(InferNll)
    .Verify(VerifyLoss);
REG_KERNEL(NegativeLogLikelihoodLoss, ge::kEngineHostCpu).Fn(NllKernel);

REG_OP(SoftmaxCrossEntropyLoss)
    .Input("scores", ge::TensorType::FloatingDataType())
    .Input("labels", IndexTypes())
    .OptionalInput("weights", ge::TensorType::FloatingDataType())
    .Output("output", ge::TensorType::FloatingDataType())
    .Output("log_prob", ge::TensorType::FloatingDataType())
    .Attr("reduction", ge::AttrValue::CreateFrom<std::string>("mean"))
    .InferShape(InferSce)
    .Verify(VerifyLoss);
REG_KERNEL(SoftmaxCrossEntropyLoss, ge::kEngineHostCpu).Fn(SceKernel);

}  // namespace ops
