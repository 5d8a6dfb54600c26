// ops/sequence/sequence_ops.cc
//
// ONNX sequence and optional ops (opset 17). Values follow the convention of
// metadef/register/inc/gert/tensor.h: a sequence is a DT_VARIANT tensor of
// shape [n] whose elements are gert::HostTensor objects; an optional value is
// DT_VARIANT of shape [0] (empty) or [1].
//
//   SequenceConstruct(inputs*)                 -> sequence of copies
//   SequenceEmpty[dtype]                       -> []
//   SequenceAt(seq, position)                  -> copy of seq[position]
//   SequenceInsert(seq, tensor, position?)     -> seq with tensor inserted
//   SequenceErase(seq, position?)              -> seq without one element
//   SequenceLength(seq)                        -> INT64 scalar
//   SplitToSequence(input, split?)[axis, keepdims]
//   ConcatFromSequence(seq)[axis, new_axis]
//   SequenceMap(input_sequence, additional_inputs*) -> out_sequence*, running
//       subgraph body (0) once per element (sequence inputs give their i-th
//       element, tensor inputs are passed whole)
//   Optional(input?)[type]                     -> [1] holding a copy, or []
//   OptionalHasElement(input?)                 -> BOOL scalar
//   OptionalGetElement(input)                  -> the held value
//
// Positions are INT32 / INT64 scalars; negative positions count from the
// back (SequenceAt / SequenceErase accept [-n, n-1], SequenceInsert [-n, n]).
//
// Infer shape: sequence outputs get [n] when the length is known, else [-1].
// Element-producing ops (SequenceAt, ConcatFromSequence, OptionalGetElement)
// give DT_UNDEFINED / unknown rank unless the input sequence value is known
// (always at run time), in which case the exact shape and dtype. The kernels
// allocate element outputs with the real shape / dtype.
//
// OptionalHasElement / OptionalGetElement also accept a non-optional value
// (ONNX opset 18, and what a Loop whose carried optional becomes a sequence
// passes, e.g. test_loop16_seq_none): a tensor or a DT_VARIANT whose shape is
// not [0] / [1] counts as a present value and is its own element; an absent
// input to OptionalHasElement gives false.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"
#include "ops/control/control_util.h"

namespace ops {
namespace {

// ------------------------------------------------------------ helpers

ge::TensorType PositionTypes() { return ge::TensorType({ge::DT_INT32, ge::DT_INT64}); }

// Length of a sequence input from its shape: n, -1 when unknown. Errors for
// shapes that are not 1-D.
ge::StatusOr<int64_t> SeqLenFromShape(const gert::InferShapeContext& ctx, size_t i) {
  const gert::Shape* s = ctx.GetInputShape(i);
  if (s == nullptr) return ctx.Error("input ", i, " (sequence) is missing");
  if (s->IsUnknownRank()) return int64_t{-1};
  if (s->GetDimNum() != 1) {
    return ctx.Error("input ", i, " must be a sequence (DT_VARIANT of shape [n]), got shape ",
                     s->ToString());
  }
  return s->GetDim(0) < 0 ? int64_t{-1} : s->GetDim(0);
}

// The elements of sequence input i (kernel).
ge::StatusOr<absl::Span<const gert::HostTensor>> SequenceInput(const gert::KernelContext& ctx,
                                                               size_t i) {
  const gert::Tensor* t = ctx.GetInputTensor(i);
  if (t == nullptr) return ctx.Error("input ", i, " (sequence) is missing");
  ge::StatusOr<absl::Span<const gert::HostTensor>> e = gert::VariantElements(*t);
  if (!e.ok()) return ctx.Error("input ", i, ": ", e.status().message());
  for (size_t k = 0; k < e->size(); ++k) {
    if (!(*e)[k].HasStorage()) return ctx.Error("input ", i, " element ", k, " holds no tensor");
  }
  return e;
}

// The elements of a known input value at infer time; nullopt-like null span
// pointer when the value is unknown.
bool KnownSequence(const gert::InferShapeContext& ctx, size_t i,
                   absl::Span<const gert::HostTensor>* out) {
  const gert::Tensor* t = ctx.GetInputTensor(i);
  if (t == nullptr) return false;
  ge::StatusOr<absl::Span<const gert::HostTensor>> e = gert::VariantElements(*t);
  if (!e.ok()) return false;
  for (const gert::HostTensor& h : *e) {
    if (!h.HasStorage()) return false;
  }
  *out = *e;
  return true;
}

// Writes a sequence output from owned elements.
ge::Status WriteSequence(gert::KernelContext& ctx, size_t i, std::vector<gert::HostTensor> elems) {
  ASSIGN_OR_RETURN(gert::Tensor * y,
                   PrepareOutput(ctx, i, gert::Shape{static_cast<int64_t>(elems.size())},
                                 ge::DT_VARIANT));
  ge::StatusOr<absl::Span<gert::HostTensor>> dst = gert::MutableVariantElements(*y);
  if (!dst.ok()) return ctx.Error("output ", i, ": ", dst.status().message());
  for (size_t k = 0; k < elems.size(); ++k) (*dst)[k] = std::move(elems[k]);
  return ge::OkStatus();
}

ge::StatusOr<gert::HostTensor> Copy(const gert::ContextBase& ctx, const gert::Tensor& t) {
  return NodeStatusOr(ctx, gert::HostTensor::CopyFrom(t));
}

ge::Status SetOutput(gert::InferShapeContext& ctx, size_t i, const gert::Shape& s,
                     ge::DataType dt) {
  gert::Shape* y = ctx.GetOutputShape(i);
  if (y == nullptr) return ctx.Error("output ", i, " has no shape slot");
  *y = s;
  ctx.SetOutputDataType(i, dt);
  return ge::OkStatus();
}

ge::Status SetSequenceOutput(gert::InferShapeContext& ctx, size_t i, int64_t len) {
  return SetOutput(ctx, i, gert::Shape{len < 0 ? -1 : len}, ge::DT_VARIANT);
}

// Normalises `pos` into [-n, n - 1 + extra] (extra = 1 for insertion).
ge::StatusOr<int64_t> NormalizePosition(const gert::ContextBase& ctx, int64_t pos, int64_t n,
                                        int64_t extra) {
  if (pos < -n || pos > n - 1 + extra) {
    return ctx.ErrorWithCode(ge::ErrorCode::kOutOfRange, "position ", pos, " is out of range [", -n,
                             ", ", n - 1 + extra, "] for a sequence of length ", n);
  }
  return pos < 0 ? pos + n : pos;
}

// Position input i at infer time: its value when known (nullptr otherwise).
ge::StatusOr<const gert::Tensor*> CheckPositionShape(const gert::InferShapeContext& ctx, size_t i) {
  const gert::Shape* s = ctx.GetInputShape(i);
  if (s == nullptr) return static_cast<const gert::Tensor*>(nullptr);
  if (!s->IsUnknownShape() && s->GetShapeSize() != 1) {
    return ctx.Error("input ", i, " (position) must be a scalar, got shape ", s->ToString());
  }
  return ctx.GetInputTensor(i);
}

// ------------------------------------------------------------ SequenceConstruct

ge::Status VerifySequenceConstruct(gert::InferShapeContext& ctx) {
  for (size_t i = 1; i < ctx.GetInputNum(); ++i) {
    if (ctx.GetInputDataType(i) != ctx.GetInputDataType(0)) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input ", i, " is ",
                               DataTypeName(ctx.GetInputDataType(i)), " but input 0 is ",
                               DataTypeName(ctx.GetInputDataType(0)),
                               " (sequence elements share one dtype)");
    }
  }
  return ge::OkStatus();
}

ge::Status InferSequenceConstruct(gert::InferShapeContext& ctx) {
  return SetSequenceOutput(ctx, 0, static_cast<int64_t>(ctx.GetInputNum()));
}

ge::Status SequenceConstructKernel(gert::KernelContext& ctx) {
  std::vector<gert::HostTensor> elems;
  elems.reserve(ctx.GetInputNum());
  for (size_t i = 0; i < ctx.GetInputNum(); ++i) {
    ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, i));
    if (i > 0 && x->GetDataType() != elems[0].GetDataType()) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input ", i, " is ",
                               DataTypeName(x->GetDataType()), " but input 0 is ",
                               DataTypeName(elems[0].GetDataType()));
    }
    ASSIGN_OR_RETURN(gert::HostTensor c, Copy(ctx, *x));
    elems.push_back(std::move(c));
  }
  return WriteSequence(ctx, 0, std::move(elems));
}

// ------------------------------------------------------------ SequenceEmpty

ge::Status VerifySequenceEmpty(gert::InferShapeContext& ctx) {
  if (!ctx.HasAttr("dtype")) return ge::OkStatus();
  ASSIGN_OR_RETURN(const ge::DataType dt, ctx.GetDataType("dtype"));
  const ge::Status st = ControlTensorTypes().Check("attribute dtype", dt);
  if (!st.ok()) return ctx.Error(st.message());
  return ge::OkStatus();
}

ge::Status InferSequenceEmpty(gert::InferShapeContext& ctx) { return SetSequenceOutput(ctx, 0, 0); }

ge::Status SequenceEmptyKernel(gert::KernelContext& ctx) { return WriteSequence(ctx, 0, {}); }

// ------------------------------------------------------------ SequenceAt

ge::Status VerifySequenceAt(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const int64_t n, SeqLenFromShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* pos_t, CheckPositionShape(ctx, 1));
  if (n >= 0 && pos_t != nullptr) {
    ASSIGN_OR_RETURN(const int64_t pos, ReadIntScalar(ctx, *pos_t, "input 1 (position)"));
    RETURN_IF_ERROR(NormalizePosition(ctx, pos, n, 0).status());
  }
  return ge::OkStatus();
}

ge::Status InferSequenceAt(gert::InferShapeContext& ctx) {
  absl::Span<const gert::HostTensor> elems;
  const gert::Tensor* pos_t = ctx.GetInputTensor(1);
  if (KnownSequence(ctx, 0, &elems) && pos_t != nullptr) {
    ASSIGN_OR_RETURN(const int64_t pos, ReadIntScalar(ctx, *pos_t, "input 1 (position)"));
    ASSIGN_OR_RETURN(const int64_t p,
                     NormalizePosition(ctx, pos, static_cast<int64_t>(elems.size()), 0));
    const gert::HostTensor& e = elems[static_cast<size_t>(p)];
    return SetOutput(ctx, 0, e.GetShape(), e.GetDataType());
  }
  return SetUnknownOutput(ctx, 0);
}

ge::Status SequenceAtKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(absl::Span<const gert::HostTensor> elems, SequenceInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* pos_t, GetKernelInput(ctx, 1));
  ASSIGN_OR_RETURN(const int64_t pos, ReadIntScalar(ctx, *pos_t, "input 1 (position)"));
  ASSIGN_OR_RETURN(const int64_t p,
                   NormalizePosition(ctx, pos, static_cast<int64_t>(elems.size()), 0));
  return WriteOutput(ctx, 0, elems[static_cast<size_t>(p)].tensor());
}

// ------------------------------------------------------------ SequenceInsert

ge::Status VerifySequenceInsert(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const int64_t n, SeqLenFromShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* pos_t, CheckPositionShape(ctx, 2));
  if (n >= 0 && pos_t != nullptr) {
    ASSIGN_OR_RETURN(const int64_t pos, ReadIntScalar(ctx, *pos_t, "input 2 (position)"));
    RETURN_IF_ERROR(NormalizePosition(ctx, pos, n, 1).status());
  }
  absl::Span<const gert::HostTensor> elems;
  if (KnownSequence(ctx, 0, &elems) && !elems.empty() &&
      elems[0].GetDataType() != ctx.GetInputDataType(1)) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input 1 (tensor) is ",
                             DataTypeName(ctx.GetInputDataType(1)), " but the sequence holds ",
                             DataTypeName(elems[0].GetDataType()));
  }
  return ge::OkStatus();
}

ge::Status InferSequenceInsert(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const int64_t n, SeqLenFromShape(ctx, 0));
  return SetSequenceOutput(ctx, 0, n < 0 ? -1 : n + 1);
}

ge::Status SequenceInsertKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(absl::Span<const gert::HostTensor> elems, SequenceInput(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 1));
  const int64_t n = static_cast<int64_t>(elems.size());
  int64_t p = n;
  if (ctx.GetInputTensor(2) != nullptr) {
    ASSIGN_OR_RETURN(const gert::Tensor* pos_t, GetKernelInput(ctx, 2));
    ASSIGN_OR_RETURN(const int64_t pos, ReadIntScalar(ctx, *pos_t, "input 2 (position)"));
    ASSIGN_OR_RETURN(p, NormalizePosition(ctx, pos, n, 1));
  }
  if (n > 0 && elems[0].GetDataType() != x->GetDataType()) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "input 1 (tensor) is ",
                             DataTypeName(x->GetDataType()), " but the sequence holds ",
                             DataTypeName(elems[0].GetDataType()));
  }
  std::vector<gert::HostTensor> out;
  out.reserve(elems.size() + 1);
  for (int64_t k = 0; k <= n; ++k) {
    if (k == p) {
      ASSIGN_OR_RETURN(gert::HostTensor c, Copy(ctx, *x));
      out.push_back(std::move(c));
    }
    if (k < n) {
      ASSIGN_OR_RETURN(gert::HostTensor c, Copy(ctx, elems[static_cast<size_t>(k)].tensor()));
      out.push_back(std::move(c));
    }
  }
  return WriteSequence(ctx, 0, std::move(out));
}

// ------------------------------------------------------------ SequenceErase

ge::Status VerifySequenceErase(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const int64_t n, SeqLenFromShape(ctx, 0));
  ASSIGN_OR_RETURN(const gert::Tensor* pos_t, CheckPositionShape(ctx, 1));
  if (n == 0) return ctx.Error("cannot erase from an empty sequence");
  if (n > 0 && pos_t != nullptr) {
    ASSIGN_OR_RETURN(const int64_t pos, ReadIntScalar(ctx, *pos_t, "input 1 (position)"));
    RETURN_IF_ERROR(NormalizePosition(ctx, pos, n, 0).status());
  }
  return ge::OkStatus();
}

ge::Status InferSequenceErase(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const int64_t n, SeqLenFromShape(ctx, 0));
  if (n == 0) return ctx.Error("cannot erase from an empty sequence");
  return SetSequenceOutput(ctx, 0, n < 0 ? -1 : n - 1);
}

ge::Status SequenceEraseKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(absl::Span<const gert::HostTensor> elems, SequenceInput(ctx, 0));
  const int64_t n = static_cast<int64_t>(elems.size());
  if (n == 0) return ctx.Error("cannot erase from an empty sequence");
  int64_t p = n - 1;
  if (ctx.GetInputTensor(1) != nullptr) {
    ASSIGN_OR_RETURN(const gert::Tensor* pos_t, GetKernelInput(ctx, 1));
    ASSIGN_OR_RETURN(const int64_t pos, ReadIntScalar(ctx, *pos_t, "input 1 (position)"));
    ASSIGN_OR_RETURN(p, NormalizePosition(ctx, pos, n, 0));
  }
  std::vector<gert::HostTensor> out;
  out.reserve(elems.size() - 1);
  for (int64_t k = 0; k < n; ++k) {
    if (k == p) continue;
    ASSIGN_OR_RETURN(gert::HostTensor c, Copy(ctx, elems[static_cast<size_t>(k)].tensor()));
    out.push_back(std::move(c));
  }
  return WriteSequence(ctx, 0, std::move(out));
}

// ------------------------------------------------------------ SequenceLength

ge::Status InferSequenceLength(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(SeqLenFromShape(ctx, 0).status());
  return SetOutput(ctx, 0, gert::Shape(), ge::DT_INT64);
}

ge::Status SequenceLengthKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(absl::Span<const gert::HostTensor> elems, SequenceInput(ctx, 0));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, gert::Shape(), ge::DT_INT64));
  y->GetData<int64_t>()[0] = static_cast<int64_t>(elems.size());
  return ge::OkStatus();
}

// ------------------------------------------------------------ SplitToSequence

// Chunk lengths along a dim of size `dim` (known), from the split value
// (null: chunks of 1). `keep` is false when the split dim is dropped.
struct SplitPlan {
  std::vector<int64_t> lengths;
  bool keep = true;
};

ge::StatusOr<SplitPlan> PlanSplit(const gert::ContextBase& ctx, int64_t dim,
                                  const gert::Tensor* split, bool keepdims) {
  SplitPlan plan;
  if (split == nullptr) {
    plan.lengths.assign(static_cast<size_t>(dim), 1);
    plan.keep = keepdims;
    return plan;
  }
  ge::StatusOr<std::vector<int64_t>> v = ReadIntTensor(*split);
  if (!v.ok()) return ctx.Error("input 1 (split): ", v.status().message());
  const size_t rank = split->GetShape().GetDimNum();
  if (rank > 1) {
    return ctx.Error("input 1 (split) must be a scalar or 1-D, got shape ",
                     split->GetShape().ToString());
  }
  // A scalar split is a chunk length (> 0); 1-D entries may be 0 (empty pieces).
  for (size_t i = 0; i < v->size(); ++i) {
    if ((*v)[i] < 0 || (rank == 0 && (*v)[i] == 0)) {
      return ctx.Error("input 1 (split) ", rank == 0 ? "must be positive" : "entries must be >= 0",
                       ", split[", i, "] is ", (*v)[i]);
    }
  }
  if (rank == 0) {
    const int64_t s = (*v)[0];
    for (int64_t start = 0; start < dim; start += s) {
      plan.lengths.push_back(std::min(s, dim - start));
    }
    return plan;
  }
  int64_t sum = 0;
  for (int64_t l : *v) {
    if (l > dim - sum) {
      return ctx.Error("input 1 (split) sums to more than the dim ", dim, " being split");
    }
    sum += l;
  }
  if (sum != dim) {
    return ctx.Error("input 1 (split) sums to ", sum, " but the dim being split is ", dim);
  }
  plan.lengths = std::move(*v);
  return plan;
}

ge::StatusOr<bool> SplitKeepDims(const gert::ContextBase& ctx) {
  ASSIGN_OR_RETURN(const int64_t k, ctx.GetIntOr("keepdims", 1));
  if (k != 0 && k != 1) return ctx.Error("attribute keepdims is ", k, ", expected 0 or 1");
  return k == 1;
}

ge::Status InferSplitToSequence(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (input) is missing");
  ASSIGN_OR_RETURN(const int64_t axis_attr, ctx.GetIntOr("axis", 0));
  ASSIGN_OR_RETURN(const bool keepdims, SplitKeepDims(ctx));
  const gert::Shape* split_s = ctx.GetInputShape(1);
  const gert::Tensor* split_v = ctx.GetInputTensor(1);
  if (split_s != nullptr && !split_s->IsUnknownRank() && split_s->GetDimNum() > 1) {
    return ctx.Error("input 1 (split) must be a scalar or 1-D, got shape ", split_s->ToString());
  }
  int64_t dim = -1;
  if (!x->IsUnknownRank()) {
    if (x->GetDimNum() == 0) {
      return ctx.Error("input 0 (input) must have rank >= 1, got a scalar");
    }
    ge::StatusOr<int64_t> axis = NormalizeAxis(axis_attr, static_cast<int64_t>(x->GetDimNum()));
    if (!axis.ok()) return ctx.Error("attribute axis: ", axis.status().message());
    dim = x->GetDim(static_cast<size_t>(*axis));
  }
  if (split_s == nullptr) return SetSequenceOutput(ctx, 0, dim);
  if (dim >= 0 && split_v != nullptr) {
    ASSIGN_OR_RETURN(SplitPlan plan, PlanSplit(ctx, dim, split_v, keepdims));
    return SetSequenceOutput(ctx, 0, static_cast<int64_t>(plan.lengths.size()));
  }
  // A 1-D split gives the count by its length alone.
  if (!split_s->IsUnknownRank() && split_s->GetDimNum() == 1) {
    return SetSequenceOutput(ctx, 0, split_s->GetDim(0));
  }
  return SetSequenceOutput(ctx, 0, -1);
}

ge::Status SplitToSequenceKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const gert::Tensor* split = nullptr;
  if (ctx.GetInputTensor(1) != nullptr) {
    ASSIGN_OR_RETURN(split, GetKernelInput(ctx, 1));
  }
  ASSIGN_OR_RETURN(const int64_t axis_attr, ctx.GetIntOr("axis", 0));
  ASSIGN_OR_RETURN(const bool keepdims, SplitKeepDims(ctx));
  const gert::Shape& xs = x->GetShape();
  if (xs.GetDimNum() == 0) return ctx.Error("input 0 (input) must have rank >= 1, got a scalar");
  ge::StatusOr<int64_t> axis = NormalizeAxis(axis_attr, static_cast<int64_t>(xs.GetDimNum()));
  if (!axis.ok()) return ctx.Error("attribute axis: ", axis.status().message());
  const int64_t dim = xs.GetDim(static_cast<size_t>(*axis));
  ASSIGN_OR_RETURN(SplitPlan plan, PlanSplit(ctx, dim, split, keepdims));
  int64_t outer = 1, inner = 1;
  for (size_t d = 0; d < xs.GetDimNum(); ++d) {
    if (static_cast<int64_t>(d) < *axis) outer *= xs.GetDim(d);
    if (static_cast<int64_t>(d) > *axis) inner *= xs.GetDim(d);
  }
  const ge::DataType dt = x->GetDataType();
  std::vector<gert::HostTensor> out;
  out.reserve(plan.lengths.size());
  int64_t start = 0;
  for (int64_t len : plan.lengths) {
    gert::Shape s;
    for (size_t d = 0; d < xs.GetDimNum(); ++d) {
      if (static_cast<int64_t>(d) != *axis) {
        s.AppendDim(xs.GetDim(d));
      } else if (plan.keep) {
        s.AppendDim(len);
      }
    }
    ASSIGN_OR_RETURN(gert::HostTensor e,
                     NodeStatusOr(ctx, gert::HostTensor::Create(dt, s, x->GetFormat())));
    for (int64_t o = 0; o < outer; ++o) {
      RETURN_IF_ERROR(
          WithNode(ctx, CopyElements(dt, x->GetAddr(), (o * dim + start) * inner,
                                     e.tensor().GetAddr(), o * len * inner, len * inner)));
    }
    out.push_back(std::move(e));
    start += len;
  }
  return WriteSequence(ctx, 0, std::move(out));
}

// ------------------------------------------------------------ ConcatFromSequence

struct ConcatPlan {
  gert::Shape shape;
  ge::DataType dtype = ge::DT_UNDEFINED;
  int64_t axis = 0;  // in the output
  bool new_axis = false;
};

ge::StatusOr<ConcatPlan> PlanConcat(const gert::ContextBase& ctx,
                                    absl::Span<const gert::HostTensor> elems) {
  ASSIGN_OR_RETURN(const int64_t axis_attr, ctx.GetInt("axis"));
  ASSIGN_OR_RETURN(const int64_t new_axis, ctx.GetIntOr("new_axis", 0));
  if (new_axis != 0 && new_axis != 1) {
    return ctx.Error("attribute new_axis is ", new_axis, ", expected 0 or 1");
  }
  if (elems.empty()) {
    return ctx.Error("cannot concatenate an empty sequence (the result has no dtype)");
  }
  ConcatPlan p;
  p.new_axis = new_axis == 1;
  const gert::Shape& s0 = elems[0].GetShape();
  p.dtype = elems[0].GetDataType();
  const int64_t rank = static_cast<int64_t>(s0.GetDimNum());
  ge::StatusOr<int64_t> a = NormalizeAxis(axis_attr, p.new_axis ? rank + 1 : rank);
  if (!a.ok()) return ctx.Error("attribute axis: ", a.status().message());
  p.axis = *a;
  int64_t total = 0;
  for (size_t k = 0; k < elems.size(); ++k) {
    const gert::Shape& s = elems[k].GetShape();
    if (elems[k].GetDataType() != p.dtype) {
      return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "sequence element ", k, " is ",
                               DataTypeName(elems[k].GetDataType()), " but element 0 is ",
                               DataTypeName(p.dtype));
    }
    bool ok = s.GetDimNum() == s0.GetDimNum();
    for (size_t d = 0; ok && d < s.GetDimNum(); ++d) {
      if (!p.new_axis && static_cast<int64_t>(d) == p.axis) continue;
      ok = s.GetDim(d) == s0.GetDim(d);
    }
    if (!ok) {
      return ctx.Error(
          "sequence element ", k, " has shape ", s.ToString(), ", element 0 has ", s0.ToString(),
          p.new_axis ? " (stacking needs equal shapes)" : " (only the axis dim may differ)");
    }
    total += p.new_axis ? 1 : s.GetDim(static_cast<size_t>(p.axis));
  }
  if (p.new_axis && !s0.CanAppend()) return ctx.Error("result rank exceeds the maximum");
  for (int64_t d = 0, src = 0; d < (p.new_axis ? rank + 1 : rank); ++d) {
    if (d == p.axis) {
      p.shape.AppendDim(total);
      if (!p.new_axis) ++src;
    } else {
      p.shape.AppendDim(s0.GetDim(static_cast<size_t>(src++)));
    }
  }
  return p;
}

ge::Status InferConcatFromSequence(gert::InferShapeContext& ctx) {
  RETURN_IF_ERROR(SeqLenFromShape(ctx, 0).status());
  ASSIGN_OR_RETURN(const int64_t new_axis, ctx.GetIntOr("new_axis", 0));
  if (new_axis != 0 && new_axis != 1) {
    return ctx.Error("attribute new_axis is ", new_axis, ", expected 0 or 1");
  }
  RETURN_IF_ERROR(ctx.GetInt("axis").status());
  absl::Span<const gert::HostTensor> elems;
  if (KnownSequence(ctx, 0, &elems)) {
    ASSIGN_OR_RETURN(ConcatPlan p, PlanConcat(ctx, elems));
    return SetOutput(ctx, 0, p.shape, p.dtype);
  }
  return SetUnknownOutput(ctx, 0);
}

ge::Status ConcatFromSequenceKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(absl::Span<const gert::HostTensor> elems, SequenceInput(ctx, 0));
  ASSIGN_OR_RETURN(ConcatPlan p, PlanConcat(ctx, elems));
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, p.shape, p.dtype));
  int64_t outer = 1;
  for (int64_t d = 0; d < p.axis; ++d) outer *= p.shape.GetDim(static_cast<size_t>(d));
  // Elements per outer row of each input, and of the output.
  std::vector<int64_t> chunk(elems.size());
  int64_t row = 0;
  for (size_t k = 0; k < elems.size(); ++k) {
    const gert::Shape& s = elems[k].GetShape();
    int64_t c = 1;
    for (size_t d = static_cast<size_t>(p.axis); d < s.GetDimNum(); ++d) c *= s.GetDim(d);
    chunk[k] = c;
    row += c;
  }
  for (int64_t o = 0; o < outer; ++o) {
    int64_t at = o * row;
    for (size_t k = 0; k < elems.size(); ++k) {
      RETURN_IF_ERROR(WithNode(ctx, CopyElements(p.dtype, elems[k].tensor().GetAddr(), o * chunk[k],
                                                 y->GetAddr(), at, chunk[k])));
      at += chunk[k];
    }
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------ SequenceMap

ge::Status VerifySequenceMap(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const int64_t n, SeqLenFromShape(ctx, 0));
  if (ctx.GetInputDataType(0) != ge::DT_VARIANT) {
    return ctx.Error("input 0 (input_sequence) must be a sequence, got ",
                     DataTypeName(ctx.GetInputDataType(0)));
  }
  for (size_t i = 1; i < ctx.GetInputNum(); ++i) {
    if (ctx.GetInputDataType(i) != ge::DT_VARIANT) continue;
    ASSIGN_OR_RETURN(const int64_t m, SeqLenFromShape(ctx, i));
    if (n >= 0 && m >= 0 && m != n) {
      return ctx.Error("input ", i, " is a sequence of length ", m,
                       " but input 0 (input_sequence) has length ", n);
    }
  }
  return ge::OkStatus();
}

ge::Status InferSequenceMap(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(const int64_t n, SeqLenFromShape(ctx, 0));
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) RETURN_IF_ERROR(SetSequenceOutput(ctx, i, n));
  return ge::OkStatus();
}

ge::Status SequenceMapKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(absl::Span<const gert::HostTensor> seq0, SequenceInput(ctx, 0));
  const size_t n = seq0.size();
  const size_t n_in = ctx.GetInputNum();
  // Per input: the elements when it is a sequence, else the tensor itself.
  std::vector<absl::Span<const gert::HostTensor>> seqs(n_in);
  std::vector<const gert::Tensor*> whole(n_in, nullptr);
  seqs[0] = seq0;
  for (size_t i = 1; i < n_in; ++i) {
    ASSIGN_OR_RETURN(const gert::Tensor* t, GetKernelInput(ctx, i));
    if (t->GetDataType() == ge::DT_VARIANT) {
      ASSIGN_OR_RETURN(seqs[i], SequenceInput(ctx, i));
      if (seqs[i].size() != n) {
        return ctx.Error("input ", i, " is a sequence of length ", seqs[i].size(),
                         " but input 0 (input_sequence) has length ", n);
      }
    } else {
      whole[i] = t;
    }
  }
  const size_t n_out = ctx.GetOutputNum();
  std::vector<std::vector<gert::HostTensor>> results(n_out);
  for (auto& r : results) r.reserve(n);
  std::vector<const gert::Tensor*> body_in(n_in);
  std::vector<gert::HostTensor> outs;
  for (size_t e = 0; e < n; ++e) {
    for (size_t i = 0; i < n_in; ++i) {
      body_in[i] = whole[i] != nullptr ? whole[i] : &seqs[i][e].tensor();
    }
    RETURN_IF_ERROR(RunSubgraph(ctx, 0, "body", body_in, n_out, &outs));
    for (size_t k = 0; k < n_out; ++k) {
      if (outs[k].GetDataType() == ge::DT_VARIANT) {
        return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "body output ", k,
                                 " is a sequence / optional value; sequences hold tensors");
      }
      if (e > 0 && outs[k].GetDataType() != results[k][0].GetDataType()) {
        return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "body output ", k, " for element ",
                                 e, " is ", DataTypeName(outs[k].GetDataType()),
                                 ", for element 0 it was ",
                                 DataTypeName(results[k][0].GetDataType()));
      }
      results[k].push_back(std::move(outs[k]));
    }
  }
  for (size_t k = 0; k < n_out; ++k) RETURN_IF_ERROR(WriteSequence(ctx, k, std::move(results[k])));
  return ge::OkStatus();
}

// ------------------------------------------------------------ Optional

ge::Status VerifyOptional(gert::InferShapeContext& ctx) {
  if (ctx.GetInputShape(0) != nullptr) return ge::OkStatus();
  const ge::AttrValue* type = ctx.GetAttr("type");
  const ge::DataType* dt = type == nullptr ? nullptr : type->Get<ge::DataType>();
  if (type != nullptr && dt == nullptr) {
    return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "attribute type is ",
                             ge::AttrValue::ValueTypeName(type->GetValueType()),
                             ", expected data_type");
  }
  if (dt == nullptr || *dt == ge::DT_UNDEFINED) {
    return ctx.Error("an Optional without input needs attribute type (the element type)");
  }
  return ge::OkStatus();
}

ge::Status InferOptional(gert::InferShapeContext& ctx) {
  return SetOutput(ctx, 0, gert::Shape{ctx.GetInputShape(0) != nullptr ? 1 : 0}, ge::DT_VARIANT);
}

ge::Status OptionalKernel(gert::KernelContext& ctx) {
  std::vector<gert::HostTensor> elems;
  if (ctx.GetInputTensor(0) != nullptr) {
    ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
    ASSIGN_OR_RETURN(gert::HostTensor c, Copy(ctx, *x));
    elems.push_back(std::move(c));
  }
  return WriteSequence(ctx, 0, std::move(elems));
}

// An input read as an optional: 0 / 1 for a DT_VARIANT of shape [0] / [1],
// -1 for any other (present) value.
int OptionalState(const gert::Shape& s, ge::DataType dt) {
  if (dt != ge::DT_VARIANT || s.GetDimNum() != 1) return -1;
  if (s.GetDim(0) == 0) return 0;
  if (s.GetDim(0) == 1) return 1;
  return -1;
}

ge::Status InferOptionalHasElement(gert::InferShapeContext& ctx) {
  return SetOutput(ctx, 0, gert::Shape(), ge::DT_BOOL);
}

ge::Status OptionalHasElementKernel(gert::KernelContext& ctx) {
  bool has = false;
  if (const gert::Tensor* x = ctx.GetInputTensor(0); x != nullptr) {
    has = OptionalState(x->GetShape(), x->GetDataType()) != 0;
  }
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, 0, gert::Shape(), ge::DT_BOOL));
  y->GetData<bool>()[0] = has;
  return ge::OkStatus();
}

ge::Status InferOptionalGetElement(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 (input) is missing");
  const ge::DataType dt = ctx.GetInputDataType(0);
  const int state = OptionalState(*x, dt);
  if (dt != ge::DT_VARIANT || state == -1) {
    // A tensor, or a sequence of known length other than 0 / 1: itself.
    if (dt != ge::DT_VARIANT || !x->IsUnknownShape()) return SetOutput(ctx, 0, *x, dt);
    return SetUnknownOutput(ctx, 0);
  }
  if (state == 0) return ctx.Error("input 0 is an empty optional value");
  absl::Span<const gert::HostTensor> elems;
  if (KnownSequence(ctx, 0, &elems)) {
    return SetOutput(ctx, 0, elems[0].GetShape(), elems[0].GetDataType());
  }
  return SetUnknownOutput(ctx, 0);
}

ge::Status OptionalGetElementKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* x, GetKernelInput(ctx, 0));
  const int state = OptionalState(x->GetShape(), x->GetDataType());
  if (state == -1) return WriteOutput(ctx, 0, *x);
  if (state == 0) return ctx.Error("input 0 is an empty optional value");
  ASSIGN_OR_RETURN(absl::Span<const gert::HostTensor> elems, SequenceInput(ctx, 0));
  return WriteOutput(ctx, 0, elems[0].tensor());
}

// ------------------------------------------------------------ registration

REG_OP(SequenceConstruct)
    .DynamicInput("inputs", ControlTensorTypes())
    .Output("output_sequence", VariantType())
    .Verify(VerifySequenceConstruct)
    .InferDataType(InferSequenceConstruct)
    .InferShape(InferSequenceConstruct)
    .DataDependentOutputShape();
REG_KERNEL(SequenceConstruct, ge::kEngineHostCpu).Fn(SequenceConstructKernel);

REG_OP(SequenceEmpty)
    .Output("output", VariantType())
    .Attr("dtype", ge::AttrValue::CreateFrom<ge::DataType>(ge::DT_FLOAT))
    .Verify(VerifySequenceEmpty)
    .InferDataType(InferSequenceEmpty)
    .InferShape(InferSequenceEmpty)
    .DataDependentOutputShape();
REG_KERNEL(SequenceEmpty, ge::kEngineHostCpu).Fn(SequenceEmptyKernel);

REG_OP(SequenceAt)
    .Input("input_sequence", VariantType())
    .Input("position", PositionTypes())
    .Output("tensor", ControlTensorTypes())
    .Verify(VerifySequenceAt)
    .InferDataType(InferSequenceAt)
    .InferShape(InferSequenceAt)
    .DataDependentOutputShape()
    .ValueDependentInput("input_sequence")
    .ValueDependentInput("position");
REG_KERNEL(SequenceAt, ge::kEngineHostCpu).Fn(SequenceAtKernel);

REG_OP(SequenceInsert)
    .Input("input_sequence", VariantType())
    .Input("tensor", ControlTensorTypes())
    .OptionalInput("position", PositionTypes())
    .Output("output_sequence", VariantType())
    .Verify(VerifySequenceInsert)
    .InferDataType(InferSequenceInsert)
    .InferShape(InferSequenceInsert)
    .DataDependentOutputShape()
    .ValueDependentInput("input_sequence")
    .ValueDependentInput("position");
REG_KERNEL(SequenceInsert, ge::kEngineHostCpu).Fn(SequenceInsertKernel);

REG_OP(SequenceErase)
    .Input("input_sequence", VariantType())
    .OptionalInput("position", PositionTypes())
    .Output("output_sequence", VariantType())
    .Verify(VerifySequenceErase)
    .InferDataType(InferSequenceErase)
    .InferShape(InferSequenceErase)
    .DataDependentOutputShape()
    .ValueDependentInput("position");
REG_KERNEL(SequenceErase, ge::kEngineHostCpu).Fn(SequenceEraseKernel);

REG_OP(SequenceLength)
    .Input("input_sequence", VariantType())
    .Output("length", ge::TensorType({ge::DT_INT64}))
    .InferDataType(InferSequenceLength)
    .InferShape(InferSequenceLength);
REG_KERNEL(SequenceLength, ge::kEngineHostCpu).Fn(SequenceLengthKernel);

REG_OP(SplitToSequence)
    .Input("input", ControlTensorTypes())
    .OptionalInput("split", PositionTypes())
    .Output("output_sequence", VariantType())
    .Attr("axis", ge::AttrValue::CreateFrom<int64_t>(0))
    .Attr("keepdims", ge::AttrValue::CreateFrom<int64_t>(1))
    .InferDataType(InferSplitToSequence)
    .InferShape(InferSplitToSequence)
    .DataDependentOutputShape()
    .ValueDependentInput("split");
REG_KERNEL(SplitToSequence, ge::kEngineHostCpu).Fn(SplitToSequenceKernel);

REG_OP(ConcatFromSequence)
    .Input("input_sequence", VariantType())
    .Output("concat_result", ControlTensorTypes())
    .RequiredAttr("axis", ge::AttrValue::VT_INT)
    .Attr("new_axis", ge::AttrValue::CreateFrom<int64_t>(0))
    .InferDataType(InferConcatFromSequence)
    .InferShape(InferConcatFromSequence)
    .DataDependentOutputShape()
    .ValueDependentInput("input_sequence");
REG_KERNEL(ConcatFromSequence, ge::kEngineHostCpu).Fn(ConcatFromSequenceKernel);

REG_OP(SequenceMap)
    .Input("input_sequence", VariantType())
    .DynamicInput("additional_inputs", ControlValueTypes())
    .DynamicOutput("out_sequence", VariantType())
    .Subgraph("body")
    .Verify(VerifySequenceMap)
    .InferDataType(InferSequenceMap)
    .InferShape(InferSequenceMap);
REG_KERNEL(SequenceMap, ge::kEngineHostCpu).Fn(SequenceMapKernel);

REG_OP(Optional)
    .OptionalInput("input", ControlValueTypes())
    .Output("output", VariantType())
    .Attr("type", ge::AttrValue::CreateFrom<ge::DataType>(ge::DT_UNDEFINED))
    .Verify(VerifyOptional)
    .InferDataType(InferOptional)
    .InferShape(InferOptional)
    .DataDependentOutputShape();
REG_KERNEL(Optional, ge::kEngineHostCpu).Fn(OptionalKernel);

REG_OP(OptionalHasElement)
    .OptionalInput("input", ControlValueTypes())
    .Output("output", ge::TensorType({ge::DT_BOOL}))
    .InferDataType(InferOptionalHasElement)
    .InferShape(InferOptionalHasElement)
    .DataDependentOutputShape();
REG_KERNEL(OptionalHasElement, ge::kEngineHostCpu).Fn(OptionalHasElementKernel);

REG_OP(OptionalGetElement)
    .Input("input", ControlValueTypes())
    .Output("output", ControlValueTypes())
    .InferDataType(InferOptionalGetElement)
    .InferShape(InferOptionalGetElement)
    .DataDependentOutputShape()
    .ValueDependentInput("input");
REG_KERNEL(OptionalGetElement, ge::kEngineHostCpu).Fn(OptionalGetElementKernel);

}  // namespace
}  // namespace ops
