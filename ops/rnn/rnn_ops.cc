// ops/rnn/rnn_ops.cc
//
// Recurrent ops (ONNX opset 14-17): RNN, GRU, LSTM with reference host-CPU
// kernels.
//
// Inputs (ONNX order): X, W, R, B?, sequence_lens?, initial_h?
// [, initial_c?, P? for LSTM]; outputs Y, Y_h [, Y_c] (every output may be
// left unconnected: infer shape fills the ones the node has, the kernel
// skips null output tensors).
//   layout 0: X [seq, batch, input], Y [seq, dirs, batch, hidden],
//             initial_h / Y_h [dirs, batch, hidden]
//   layout 1: X [batch, seq, input], Y [batch, seq, dirs, hidden],
//             initial_h / Y_h [batch, dirs, hidden]
//   W [dirs, G*hidden, input], R [dirs, G*hidden, hidden],
//   B [dirs, 2*G*hidden] (Wb then Rb), P [dirs, 3*hidden] (LSTM i, o, f);
//   G = 1 (RNN), 3 (GRU: z, r, h), 4 (LSTM: i, o, f, c).
//
// Attributes: hidden_size (optional; taken from R when absent), direction
// (forward / reverse / bidirectional), layout, clip (absent = no clipping;
// clamps every gate pre-activation to [-clip, clip]), activations
// (case-insensitive names: Relu, Tanh, Sigmoid, Affine, LeakyRelu,
// ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign, Softplus; one
// list per direction; bidirectional accepts a single per-direction list used
// for both, a single direction the first half of a two-direction list), activation_alpha /
// activation_beta (consumed in order by the functions that take an alpha / a beta, as onnxruntime
// does; missing ones take the ONNX operator defaults), GRU linear_before_reset, LSTM input_forget
// (f = 1 - i).
//
// sequence_lens[b] in [0, seq]: steps at and beyond the length produce zero
// Y rows; the reverse direction runs from step len-1 down to 0; Y_h / Y_c
// hold the state after the last processed step (zeros when len is 0, as
// onnxruntime).
//
// Kernels compute in float (FLOAT16 / FLOAT) or double (DOUBLE); X*W^T is
// computed for all steps up front, then one recurrent product per step.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
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

enum class Cell { kRnn, kGru, kLstm };

constexpr size_t kX = 0, kW = 1, kR = 2, kB = 3, kSeqLens = 4, kInitH = 5, kInitC = 6, kP = 7;

int64_t NumGates(Cell cell) {
  switch (cell) {
    case Cell::kRnn:
      return 1;
    case Cell::kGru:
      return 3;
    case Cell::kLstm:
      return 4;
  }
  return 1;
}
// Activation functions per direction: RNN f; GRU f, g; LSTM f, g, h.
size_t NumActivations(Cell cell) {
  switch (cell) {
    case Cell::kRnn:
      return 1;
    case Cell::kGru:
      return 2;
    case Cell::kLstm:
      return 3;
  }
  return 1;
}
const char* InputName(size_t i) {
  static const char* const kNames[] = {"X",         "W",         "R", "B", "sequence_lens",
                                       "initial_h", "initial_c", "P"};
  return i < 8 ? kNames[i] : "?";
}

// ------------------------------------------------------------ activations

enum class ActKind {
  kRelu,
  kTanh,
  kSigmoid,
  kAffine,
  kLeakyRelu,
  kThresholdedRelu,
  kScaledTanh,
  kHardSigmoid,
  kElu,
  kSoftsign,
  kSoftplus,
};

struct ActInfo {
  const char* name;  // lower case
  ActKind kind;
  bool uses_alpha;
  bool uses_beta;
  float default_alpha;
  float default_beta;
};

constexpr ActInfo kActs[] = {
    {"relu", ActKind::kRelu, false, false, 0.f, 0.f},
    {"tanh", ActKind::kTanh, false, false, 0.f, 0.f},
    {"sigmoid", ActKind::kSigmoid, false, false, 0.f, 0.f},
    {"affine", ActKind::kAffine, true, true, 1.f, 0.f},
    {"leakyrelu", ActKind::kLeakyRelu, true, false, 0.01f, 0.f},
    {"thresholdedrelu", ActKind::kThresholdedRelu, true, false, 1.f, 0.f},
    {"scaledtanh", ActKind::kScaledTanh, true, true, 1.f, 1.f},
    {"hardsigmoid", ActKind::kHardSigmoid, true, true, 0.2f, 0.5f},
    {"elu", ActKind::kElu, true, false, 1.f, 0.f},
    {"softsign", ActKind::kSoftsign, false, false, 0.f, 0.f},
    {"softplus", ActKind::kSoftplus, false, false, 0.f, 0.f},
};

struct Activation {
  ActKind kind = ActKind::kTanh;
  float alpha = 0.f;
  float beta = 0.f;
};

template <typename C>
inline C Sigmoid(C x) {
  if (x >= 0) return C(1) / (C(1) + std::exp(-x));
  const C e = std::exp(x);
  return e / (C(1) + e);
}

// Applies `a` to n values in place (one switch per call, not per element).
template <typename C>
void ApplyActivation(const Activation& a, C* v, int64_t n) {
  const C alpha = static_cast<C>(a.alpha), beta = static_cast<C>(a.beta);
  switch (a.kind) {
    case ActKind::kRelu:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] > 0 ? v[i] : C(0);
      break;
    case ActKind::kTanh:
      for (int64_t i = 0; i < n; ++i) v[i] = std::tanh(v[i]);
      break;
    case ActKind::kSigmoid:
      for (int64_t i = 0; i < n; ++i) v[i] = Sigmoid(v[i]);
      break;
    case ActKind::kAffine:
      for (int64_t i = 0; i < n; ++i) v[i] = alpha * v[i] + beta;
      break;
    case ActKind::kLeakyRelu:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] >= 0 ? v[i] : alpha * v[i];
      break;
    case ActKind::kThresholdedRelu:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] > alpha ? v[i] : C(0);
      break;
    case ActKind::kScaledTanh:
      for (int64_t i = 0; i < n; ++i) v[i] = alpha * std::tanh(beta * v[i]);
      break;
    case ActKind::kHardSigmoid:
      for (int64_t i = 0; i < n; ++i) v[i] = std::max(C(0), std::min(C(1), alpha * v[i] + beta));
      break;
    case ActKind::kElu:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] >= 0 ? v[i] : alpha * (std::exp(v[i]) - C(1));
      break;
    case ActKind::kSoftsign:
      for (int64_t i = 0; i < n; ++i) v[i] = v[i] / (C(1) + std::fabs(v[i]));
      break;
    case ActKind::kSoftplus:
      for (int64_t i = 0; i < n; ++i) {
        v[i] = v[i] > 0 ? v[i] + std::log1p(std::exp(-v[i])) : std::log1p(std::exp(v[i]));
      }
      break;
  }
}

// ------------------------------------------------------------ attributes

enum class Direction { kForward, kReverse, kBidirectional };

struct RnnAttrs {
  Cell cell = Cell::kRnn;
  int64_t hidden_size = -1;  // -1: not given (taken from R)
  Direction direction = Direction::kForward;
  int64_t num_directions = 1;
  int64_t layout = 0;
  bool has_clip = false;
  float clip = 0.f;
  std::vector<Activation> acts;  // NumActivations(cell) per direction
  bool linear_before_reset = false;
  bool input_forget = false;
};

ge::StatusOr<RnnAttrs> ReadRnnAttrs(const gert::ContextBase& ctx, Cell cell) {
  RnnAttrs a;
  a.cell = cell;
  if (ctx.HasAttr("hidden_size")) {
    ASSIGN_OR_RETURN(a.hidden_size, ctx.GetInt("hidden_size"));
    if (a.hidden_size <= 0) {
      return ctx.Error("attribute hidden_size must be positive, got ", a.hidden_size);
    }
  }
  ASSIGN_OR_RETURN(std::string dir, ctx.GetStrOr("direction", "forward"));
  if (dir == "forward") {
    a.direction = Direction::kForward;
  } else if (dir == "reverse") {
    a.direction = Direction::kReverse;
  } else if (dir == "bidirectional") {
    a.direction = Direction::kBidirectional;
    a.num_directions = 2;
  } else {
    return ctx.Error("attribute direction must be forward, reverse or bidirectional, got \"", dir,
                     "\"");
  }
  ASSIGN_OR_RETURN(a.layout, ctx.GetIntOr("layout", 0));
  if (a.layout != 0 && a.layout != 1) {
    return ctx.Error("attribute layout must be 0 or 1, got ", a.layout);
  }
  if (ctx.HasAttr("clip")) {
    ASSIGN_OR_RETURN(a.clip, ctx.GetFloat("clip"));
    if (!(a.clip > 0.f)) return ctx.Error("attribute clip must be positive, got ", a.clip);
    a.has_clip = true;
  }
  if (cell == Cell::kGru) {
    ASSIGN_OR_RETURN(int64_t lbr, ctx.GetIntOr("linear_before_reset", 0));
    a.linear_before_reset = lbr != 0;
  }
  if (cell == Cell::kLstm) {
    ASSIGN_OR_RETURN(int64_t f, ctx.GetIntOr("input_forget", 0));
    a.input_forget = f != 0;
  }

  // Activations.
  const size_t per_dir = NumActivations(cell);
  std::vector<std::string> names;
  ASSIGN_OR_RETURN(names, ctx.GetListStrOr("activations", {}));
  if (names.empty()) {
    if (cell == Cell::kRnn) {
      names = {"Tanh"};
    } else if (cell == Cell::kGru) {
      names = {"Sigmoid", "Tanh"};
    } else {
      names = {"Sigmoid", "Tanh", "Tanh"};
    }
  }
  const size_t want = per_dir * static_cast<size_t>(a.num_directions);
  // A single direction given a two-direction list (RNN's ONNX default is
  // {Tanh, Tanh}) uses the first half.
  if (a.num_directions == 1 && names.size() == 2 * per_dir) names.resize(per_dir);
  if (names.size() != want && names.size() != per_dir) {
    return ctx.Error("attribute activations has ", names.size(), " entries (",
                     absl::StrJoin(names, ", "), "), expected ", want, " (", per_dir,
                     " per direction)");
  }
  ASSIGN_OR_RETURN(std::vector<float> alphas, ctx.GetListFloatOr("activation_alpha", {}));
  ASSIGN_OR_RETURN(std::vector<float> betas, ctx.GetListFloatOr("activation_beta", {}));
  size_t next_alpha = 0, next_beta = 0;
  for (const std::string& name : names) {
    const std::string lower = absl::AsciiStrToLower(name);
    const ActInfo* info = nullptr;
    for (const ActInfo& k : kActs) {
      if (lower == k.name) info = &k;
    }
    if (info == nullptr) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "activation \"", name,
                               "\" is not supported");
    }
    Activation act;
    act.kind = info->kind;
    act.alpha = info->default_alpha;
    act.beta = info->default_beta;
    if (info->uses_alpha && next_alpha < alphas.size()) act.alpha = alphas[next_alpha++];
    if (info->uses_beta && next_beta < betas.size()) act.beta = betas[next_beta++];
    a.acts.push_back(act);
  }
  if (a.acts.size() == per_dir && a.num_directions == 2) {
    for (size_t i = 0; i < per_dir; ++i) a.acts.push_back(a.acts[i]);
  }
  return a;
}

// ------------------------------------------------------------ infer shape

// Expected dims of every input given the known sizes (-1 = unknown).
struct RnnDims {
  int64_t seq = -1, batch = -1, input = -1, hidden = -1, dirs = 1, gates = 1;
};

// Merges a dim seen in input `idx` into *known (-1 = unknown so far).
ge::Status MergeDim(const gert::InferShapeContext& ctx, size_t idx, const gert::Shape& s,
                    size_t dim, int64_t* known, const char* what) {
  const int64_t d = s.GetDim(dim);
  if (d < 0) return ge::OkStatus();
  if (*known >= 0 && *known != d) {
    return ctx.Error("input ", idx, " (", InputName(idx), ") has shape ", s.ToString(), ": dim ",
                     dim, " is ", d, " but ", what, " is ", *known);
  }
  *known = d;
  return ge::OkStatus();
}

ge::Status CheckRank(const gert::InferShapeContext& ctx, size_t idx, const gert::Shape& s,
                     size_t rank) {
  if (s.IsUnknownRank() || s.GetDimNum() == rank) return ge::OkStatus();
  return ctx.Error("input ", idx, " (", InputName(idx), ") must have rank ", rank, ", got ",
                   s.ToString());
}

// Checks dim `dim` of input idx equals `want` when both are known.
ge::Status CheckDimIs(const gert::InferShapeContext& ctx, size_t idx, const gert::Shape& s,
                      size_t dim, int64_t want, const std::string& what) {
  if (s.IsUnknownRank() || want < 0) return ge::OkStatus();
  const int64_t d = s.GetDim(dim);
  if (d < 0 || d == want) return ge::OkStatus();
  return ctx.Error("input ", idx, " (", InputName(idx), ") has shape ", s.ToString(), ": dim ", dim,
                   " must be ", what, " = ", want);
}

ge::Status InferRnnShapes(gert::InferShapeContext& ctx, Cell cell) {
  ASSIGN_OR_RETURN(RnnAttrs a, ReadRnnAttrs(ctx, cell));
  const gert::Shape* x = ctx.GetInputShape(kX);
  const gert::Shape* w = ctx.GetInputShape(kW);
  const gert::Shape* r = ctx.GetInputShape(kR);
  if (x == nullptr || w == nullptr || r == nullptr) {
    return ctx.Error("inputs X, W and R are required");
  }
  const size_t max_inputs = cell == Cell::kLstm ? 8 : 6;
  if (ctx.GetInputNum() > max_inputs) {
    return ctx.Error("has ", ctx.GetInputNum(), " inputs, at most ", max_inputs, " allowed");
  }
  RETURN_IF_ERROR(CheckRank(ctx, kX, *x, 3));
  RETURN_IF_ERROR(CheckRank(ctx, kW, *w, 3));
  RETURN_IF_ERROR(CheckRank(ctx, kR, *r, 3));
  RnnDims d;
  d.dirs = a.num_directions;
  d.gates = NumGates(cell);
  d.hidden = a.hidden_size;
  const size_t seq_dim = a.layout == 0 ? 0 : 1, batch_dim = a.layout == 0 ? 1 : 0;
  if (!x->IsUnknownRank()) {
    d.seq = x->GetDim(seq_dim);
    d.batch = x->GetDim(batch_dim);
    d.input = x->GetDim(2);
  }
  if (!r->IsUnknownRank()) RETURN_IF_ERROR(MergeDim(ctx, kR, *r, 2, &d.hidden, "hidden_size"));
  if (d.hidden < 0 && !w->IsUnknownRank() && w->GetDim(1) >= 0) {
    if (w->GetDim(1) % d.gates != 0) {
      return ctx.Error("input 1 (W) has shape ", w->ToString(), ": dim 1 is not a multiple of ",
                       d.gates);
    }
    d.hidden = w->GetDim(1) / d.gates;
  }
  const int64_t gh = d.hidden < 0 ? -1 : d.gates * d.hidden;
  const std::string gh_what = absl::StrCat(d.gates, "*hidden_size");
  RETURN_IF_ERROR(CheckDimIs(ctx, kW, *w, 0, d.dirs, "num_directions"));
  RETURN_IF_ERROR(CheckDimIs(ctx, kW, *w, 1, gh, gh_what));
  if (!w->IsUnknownRank())
    RETURN_IF_ERROR(MergeDim(ctx, kW, *w, 2, &d.input, "input_size (X dim 2)"));
  RETURN_IF_ERROR(CheckDimIs(ctx, kR, *r, 0, d.dirs, "num_directions"));
  RETURN_IF_ERROR(CheckDimIs(ctx, kR, *r, 1, gh, gh_what));
  if (const gert::Shape* b = ctx.GetInputShape(kB)) {
    RETURN_IF_ERROR(CheckRank(ctx, kB, *b, 2));
    RETURN_IF_ERROR(CheckDimIs(ctx, kB, *b, 0, d.dirs, "num_directions"));
    RETURN_IF_ERROR(CheckDimIs(ctx, kB, *b, 1, gh < 0 ? -1 : 2 * gh, absl::StrCat("2*", gh_what)));
  }
  if (const gert::Shape* sl = ctx.GetInputShape(kSeqLens)) {
    RETURN_IF_ERROR(CheckRank(ctx, kSeqLens, *sl, 1));
    if (!sl->IsUnknownRank())
      RETURN_IF_ERROR(MergeDim(ctx, kSeqLens, *sl, 0, &d.batch, "batch_size"));
  }
  const size_t state_dir_dim = a.layout == 0 ? 0 : 1, state_batch_dim = a.layout == 0 ? 1 : 0;
  for (size_t idx : {kInitH, kInitC}) {
    if (idx == kInitC && cell != Cell::kLstm) continue;
    const gert::Shape* s = ctx.GetInputShape(idx);
    if (s == nullptr) continue;
    RETURN_IF_ERROR(CheckRank(ctx, idx, *s, 3));
    RETURN_IF_ERROR(CheckDimIs(ctx, idx, *s, state_dir_dim, d.dirs, "num_directions"));
    RETURN_IF_ERROR(CheckDimIs(ctx, idx, *s, 2, d.hidden, "hidden_size"));
    if (!s->IsUnknownRank())
      RETURN_IF_ERROR(MergeDim(ctx, idx, *s, state_batch_dim, &d.batch, "batch_size"));
  }
  if (cell == Cell::kLstm) {
    if (const gert::Shape* p = ctx.GetInputShape(kP)) {
      RETURN_IF_ERROR(CheckRank(ctx, kP, *p, 2));
      RETURN_IF_ERROR(CheckDimIs(ctx, kP, *p, 0, d.dirs, "num_directions"));
      RETURN_IF_ERROR(
          CheckDimIs(ctx, kP, *p, 1, d.hidden < 0 ? -1 : 3 * d.hidden, "3*hidden_size"));
    }
  }

  // Outputs.
  if (gert::Shape* y = ctx.GetOutputShape(0)) {
    *y = a.layout == 0 ? gert::Shape{d.seq, d.dirs, d.batch, d.hidden}
                       : gert::Shape{d.batch, d.seq, d.dirs, d.hidden};
  }
  const gert::Shape state = a.layout == 0 ? gert::Shape{d.dirs, d.batch, d.hidden}
                                          : gert::Shape{d.batch, d.dirs, d.hidden};
  const size_t max_outputs = cell == Cell::kLstm ? 3 : 2;
  if (ctx.GetOutputNum() > max_outputs) {
    return ctx.Error("has ", ctx.GetOutputNum(), " outputs, at most ", max_outputs, " allowed");
  }
  for (size_t i = 1; i < max_outputs; ++i) {
    if (gert::Shape* s = ctx.GetOutputShape(i)) *s = state;
  }
  if (!AnyInputRange(ctx) || x->IsUnknownRank()) return ge::OkStatus();
  // seq_length from X; batch_size from X, sequence_lens and the initial
  // states (intersected); hidden_size known or from R.
  ASSIGN_OR_RETURN(gert::ShapeRange xr, InputRange(ctx, kX));
  const DimRange seq = xr[seq_dim];
  DimRange batch = xr[batch_dim];
  DimRange hidden = DimRangeOf(d.hidden);
  if (d.hidden < 0 && !r->IsUnknownRank()) {
    ASSIGN_OR_RETURN(gert::ShapeRange rr, InputRange(ctx, kR));
    hidden = rr[2];
  }
  const DimRange dirs = DimRangeOf(d.dirs);
  auto narrow_batch = [&](size_t idx, size_t dim) -> ge::Status {
    const gert::Shape* s = ctx.GetInputShape(idx);
    if (s == nullptr || s->IsUnknownRank()) return ge::OkStatus();
    ASSIGN_OR_RETURN(gert::ShapeRange sr, InputRange(ctx, idx));
    ge::StatusOr<DimRange> b = IntersectDimRange(batch, sr[dim]);
    if (!b.ok()) {
      return ctx.Error("input ", idx, " range ", ShapeRangeString(sr),
                       " conflicts with the batch_size range ", DimRangeString(batch));
    }
    batch = *b;
    return ge::OkStatus();
  };
  RETURN_IF_ERROR(narrow_batch(kSeqLens, 0));
  RETURN_IF_ERROR(narrow_batch(kInitH, state_batch_dim));
  if (cell == Cell::kLstm) RETURN_IF_ERROR(narrow_batch(kInitC, state_batch_dim));
  if (ctx.GetOutputShape(0) != nullptr) {
    RETURN_IF_ERROR(SetOutputRange(ctx, 0,
                                   a.layout == 0 ? gert::ShapeRange{seq, dirs, batch, hidden}
                                                 : gert::ShapeRange{batch, seq, dirs, hidden}));
  }
  const gert::ShapeRange state_range =
      a.layout == 0 ? gert::ShapeRange{dirs, batch, hidden} : gert::ShapeRange{batch, dirs, hidden};
  for (size_t i = 1; i < max_outputs; ++i) {
    if (ctx.GetOutputShape(i) != nullptr) RETURN_IF_ERROR(SetOutputRange(ctx, i, state_range));
  }
  return ge::OkStatus();
}

ge::Status InferRnn(gert::InferShapeContext& ctx) { return InferRnnShapes(ctx, Cell::kRnn); }
ge::Status InferGru(gert::InferShapeContext& ctx) { return InferRnnShapes(ctx, Cell::kGru); }
ge::Status InferLstm(gert::InferShapeContext& ctx) { return InferRnnShapes(ctx, Cell::kLstm); }

ge::Status VerifyRnn(gert::InferShapeContext& ctx) {
  const ge::DataType t = ctx.GetInputDataType(kX);
  for (size_t i = 1; i < ctx.GetInputNum(); ++i) {
    if (ctx.GetInputShape(i) == nullptr) continue;
    const ge::DataType dt = ctx.GetInputDataType(i);
    if (i == kSeqLens) {
      if (dt != ge::DT_INT32) {
        return ctx.Error("input 4 (sequence_lens) must be DT_INT32, got ", DataTypeName(dt));
      }
    } else if (dt != t) {
      return ctx.Error("input ", i, " (", InputName(i), ") is ", DataTypeName(dt), " but X is ",
                       DataTypeName(t));
    }
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------ kernel

// Reads a float tensor of any float dtype into compute-type values.
template <typename C>
ge::Status ReadFloats(const gert::Tensor& t, std::vector<C>* out) {
  const int64_t n = t.GetShapeSize();
  out->resize(static_cast<size_t>(n));
  return DispatchType<kTgAllFloat>(
      t.GetDataType(),
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        const T* p = t.GetData<T>();
        for (int64_t i = 0; i < n; ++i) (*out)[i] = static_cast<C>(ToCompute(p[i]));
        return ge::OkStatus();
      },
      "RNN inputs");
}

template <typename C>
ge::Status WriteFloats(const std::vector<C>& v, gert::Tensor* t) {
  return DispatchType<kTgAllFloat>(
      t->GetDataType(),
      [&](auto tag) {
        using T = typename decltype(tag)::type;
        T* p = t->GetData<T>();
        for (size_t i = 0; i < v.size(); ++i) {
          p[i] = FromCompute<T>(static_cast<ComputeType<T>>(v[i]));
        }
        return ge::OkStatus();
      },
      "RNN outputs");
}

// Exact shape check in the kernel (inference may have seen -1 dims).
ge::Status ExpectShape(const gert::KernelContext& ctx, size_t idx, const gert::Tensor& t,
                       const gert::Shape& want) {
  if (t.GetShape() != want) {
    return ctx.Error("input ", idx, " (", InputName(idx), ") has shape ", t.GetShape().ToString(),
                     ", expected ", want.ToString());
  }
  return ge::OkStatus();
}

// Optional input: nullptr when absent, validated data otherwise.
ge::StatusOr<const gert::Tensor*> OptionalInput(const gert::KernelContext& ctx, size_t i) {
  const gert::Tensor* t = ctx.GetInputTensor(i);
  if (t == nullptr) return static_cast<const gert::Tensor*>(nullptr);
  return GetKernelInput(ctx, i);
}

// sum_k a[k] * b[k]
template <typename C>
inline C Dot(const C* a, const C* b, int64_t n) {
  C s = 0;
  for (int64_t k = 0; k < n; ++k) s += a[k] * b[k];
  return s;
}

template <typename C>
void Clip(C* v, int64_t n, const RnnAttrs& a) {
  if (!a.has_clip) return;
  const C c = static_cast<C>(a.clip);
  for (int64_t i = 0; i < n; ++i) v[i] = std::min(c, std::max(-c, v[i]));
}

struct KernelDims {
  int64_t seq, batch, input, hidden, dirs, gates;
};

// One direction over all batches. x: [seq][batch][input] (time-major);
// w: [G*H][I], r: [G*H][H], wb / rb: [G*H] or null, p: [3H] or null,
// h0 / c0: [batch][H] (zeros when absent). Writes y (time-major, layout-0
// [seq][dirs][batch][H], this direction's slice), yh / yc [batch][H].
template <typename C>
void RunDirection(const RnnAttrs& a, const KernelDims& d, int64_t dir, bool reverse,
                  const std::vector<C>& x, const C* w, const C* r, const C* wb, const C* rb,
                  const C* p, const std::vector<int32_t>& lens, std::vector<C> h, std::vector<C> c,
                  std::vector<C>* y, std::vector<C>* yh, std::vector<C>* yc) {
  const int64_t H = d.hidden, G = d.gates, GH = G * H, B = d.batch, I = d.input;
  const Activation* acts = a.acts.data() + dir * static_cast<int64_t>(NumActivations(a.cell));
  // GRU h gate with linear_before_reset keeps Rbh separate; every other
  // recurrent bias folds into the input projection.
  const bool separate_rbh = a.cell == Cell::kGru && a.linear_before_reset;
  // xw[t][b][j] = x[t][b] . w[j] + wb[j] + rb[j]
  std::vector<C> xw(static_cast<size_t>(d.seq * B * GH));
  for (int64_t tb = 0; tb < d.seq * B; ++tb) {
    const C* xv = x.data() + tb * I;
    C* out = xw.data() + tb * GH;
    for (int64_t j = 0; j < GH; ++j) {
      C s = Dot(xv, w + j * I, I);
      if (wb != nullptr) s += wb[j];
      if (rb != nullptr && !(separate_rbh && j >= 2 * H)) s += rb[j];
      out[j] = s;
    }
  }
  std::vector<C> gates(static_cast<size_t>(GH));
  std::vector<C> tmp(static_cast<size_t>(H));
  int64_t max_len = 0;
  for (int32_t l : lens) max_len = std::max<int64_t>(max_len, l);
  for (int64_t s = 0; s < max_len; ++s) {
    for (int64_t b = 0; b < B; ++b) {
      const int64_t len = lens[b];
      if (s >= len) continue;
      const int64_t t = reverse ? len - 1 - s : s;
      C* hb = h.data() + b * H;
      const C* xwb = xw.data() + (t * B + b) * GH;
      C* g = gates.data();
      switch (a.cell) {
        case Cell::kRnn: {
          for (int64_t j = 0; j < H; ++j) g[j] = xwb[j] + Dot(hb, r + j * H, H);
          Clip(g, H, a);
          ApplyActivation(acts[0], g, H);
          std::copy(g, g + H, hb);
          break;
        }
        case Cell::kGru: {
          // z, r gates.
          for (int64_t j = 0; j < 2 * H; ++j) g[j] = xwb[j] + Dot(hb, r + j * H, H);
          Clip(g, 2 * H, a);
          ApplyActivation(acts[0], g, 2 * H);
          const C* zg = g;
          const C* rg = g + H;
          C* hg = g + 2 * H;
          const C* rh = r + 2 * H * H;
          if (a.linear_before_reset) {
            for (int64_t j = 0; j < H; ++j) {
              C lin = Dot(hb, rh + j * H, H);
              if (rb != nullptr) lin += rb[2 * H + j];
              hg[j] = xwb[2 * H + j] + rg[j] * lin;
            }
          } else {
            for (int64_t k = 0; k < H; ++k) tmp[k] = rg[k] * hb[k];
            for (int64_t j = 0; j < H; ++j) hg[j] = xwb[2 * H + j] + Dot(tmp.data(), rh + j * H, H);
          }
          Clip(hg, H, a);
          ApplyActivation(acts[1], hg, H);
          for (int64_t j = 0; j < H; ++j) hb[j] = (C(1) - zg[j]) * hg[j] + zg[j] * hb[j];
          break;
        }
        case Cell::kLstm: {
          C* cb = c.data() + b * H;
          for (int64_t j = 0; j < GH; ++j) g[j] = xwb[j] + Dot(hb, r + j * H, H);
          C* ig = g;
          C* og = g + H;
          C* fg = g + 2 * H;
          C* cg = g + 3 * H;
          if (p != nullptr) {
            for (int64_t j = 0; j < H; ++j) ig[j] += p[j] * cb[j];
          }
          Clip(ig, H, a);
          ApplyActivation(acts[0], ig, H);
          if (a.input_forget) {
            for (int64_t j = 0; j < H; ++j) fg[j] = C(1) - ig[j];
          } else {
            if (p != nullptr) {
              for (int64_t j = 0; j < H; ++j) fg[j] += p[2 * H + j] * cb[j];
            }
            Clip(fg, H, a);
            ApplyActivation(acts[0], fg, H);
          }
          Clip(cg, H, a);
          ApplyActivation(acts[1], cg, H);
          for (int64_t j = 0; j < H; ++j) cb[j] = fg[j] * cb[j] + ig[j] * cg[j];
          if (p != nullptr) {
            for (int64_t j = 0; j < H; ++j) og[j] += p[H + j] * cb[j];
          }
          Clip(og, H, a);
          ApplyActivation(acts[0], og, H);
          std::copy(cb, cb + H, tmp.data());
          ApplyActivation(acts[2], tmp.data(), H);
          for (int64_t j = 0; j < H; ++j) hb[j] = og[j] * tmp[j];
          break;
        }
      }
      if (y != nullptr) {
        std::copy(hb, hb + H, y->data() + ((t * d.dirs + dir) * B + b) * H);
      }
    }
  }
  for (int64_t b = 0; b < B; ++b) {
    const bool empty = lens[b] == 0;
    for (int64_t j = 0; j < H; ++j) {
      (*yh)[(dir * B + b) * H + j] = empty ? C(0) : h[b * H + j];
      if (yc != nullptr) (*yc)[(dir * B + b) * H + j] = empty ? C(0) : c[b * H + j];
    }
  }
}

// [a][b][H] <-> [b][a][H]
template <typename C>
std::vector<C> SwapOuter(const std::vector<C>& v, int64_t n0, int64_t n1, int64_t inner) {
  std::vector<C> out(v.size());
  for (int64_t i = 0; i < n0; ++i) {
    for (int64_t j = 0; j < n1; ++j) {
      std::copy(v.begin() + (i * n1 + j) * inner, v.begin() + (i * n1 + j + 1) * inner,
                out.begin() + (j * n0 + i) * inner);
    }
  }
  return out;
}

template <typename C>
ge::Status RnnCompute(gert::KernelContext& ctx, const RnnAttrs& a) {
  const Cell cell = a.cell;
  ASSIGN_OR_RETURN(const gert::Tensor* xt, GetKernelInput(ctx, kX));
  ASSIGN_OR_RETURN(const gert::Tensor* wt, GetKernelInput(ctx, kW));
  ASSIGN_OR_RETURN(const gert::Tensor* rt, GetKernelInput(ctx, kR));
  ASSIGN_OR_RETURN(const gert::Tensor* bt, OptionalInput(ctx, kB));
  ASSIGN_OR_RETURN(const gert::Tensor* st, OptionalInput(ctx, kSeqLens));
  ASSIGN_OR_RETURN(const gert::Tensor* ht, OptionalInput(ctx, kInitH));
  const gert::Tensor* ct = nullptr;
  const gert::Tensor* pt = nullptr;
  if (cell == Cell::kLstm) {
    ASSIGN_OR_RETURN(ct, OptionalInput(ctx, kInitC));
    ASSIGN_OR_RETURN(pt, OptionalInput(ctx, kP));
  }
  const gert::Shape& xs = xt->GetShape();
  if (xs.GetDimNum() != 3) return ctx.Error("input 0 (X) must have rank 3, got ", xs.ToString());
  if (rt->GetShape().GetDimNum() != 3) {
    return ctx.Error("input 2 (R) must have rank 3, got ", rt->GetShape().ToString());
  }
  KernelDims d;
  d.seq = xs.GetDim(a.layout == 0 ? 0 : 1);
  d.batch = xs.GetDim(a.layout == 0 ? 1 : 0);
  d.input = xs.GetDim(2);
  d.hidden = a.hidden_size > 0 ? a.hidden_size : rt->GetShape().GetDim(2);
  d.dirs = a.num_directions;
  d.gates = NumGates(cell);
  const int64_t GH = d.gates * d.hidden;
  if (d.hidden <= 0) return ctx.Error("hidden_size must be positive, got ", d.hidden);
  RETURN_IF_ERROR(ExpectShape(ctx, kW, *wt, {d.dirs, GH, d.input}));
  RETURN_IF_ERROR(ExpectShape(ctx, kR, *rt, {d.dirs, GH, d.hidden}));
  if (bt != nullptr) RETURN_IF_ERROR(ExpectShape(ctx, kB, *bt, {d.dirs, 2 * GH}));
  const gert::Shape state = a.layout == 0 ? gert::Shape{d.dirs, d.batch, d.hidden}
                                          : gert::Shape{d.batch, d.dirs, d.hidden};
  if (ht != nullptr) RETURN_IF_ERROR(ExpectShape(ctx, kInitH, *ht, state));
  if (ct != nullptr) RETURN_IF_ERROR(ExpectShape(ctx, kInitC, *ct, state));
  if (pt != nullptr) RETURN_IF_ERROR(ExpectShape(ctx, kP, *pt, {d.dirs, 3 * d.hidden}));
  std::vector<int32_t> lens(static_cast<size_t>(d.batch), static_cast<int32_t>(d.seq));
  if (st != nullptr) {
    RETURN_IF_ERROR(ExpectShape(ctx, kSeqLens, *st, {d.batch}));
    if (st->GetDataType() != ge::DT_INT32) {
      return ctx.Error("input 4 (sequence_lens) must be DT_INT32, got ",
                       DataTypeName(st->GetDataType()));
    }
    const int32_t* sl = st->GetData<int32_t>();
    for (int64_t b = 0; b < d.batch; ++b) {
      if (sl[b] < 0 || sl[b] > d.seq) {
        return ctx.Error("sequence_lens[", b, "] = ", sl[b], " is out of range [0, ", d.seq, "]");
      }
      lens[b] = sl[b];
    }
  }

  // Compute-type copies; X and the initial states become time-major.
  std::vector<C> x, w, r, bias, h0, c0, p;
  RETURN_IF_ERROR(WithNode(ctx, ReadFloats(*xt, &x)));
  if (a.layout == 1) x = SwapOuter(x, d.batch, d.seq, d.input);
  RETURN_IF_ERROR(WithNode(ctx, ReadFloats(*wt, &w)));
  RETURN_IF_ERROR(WithNode(ctx, ReadFloats(*rt, &r)));
  if (bt != nullptr) RETURN_IF_ERROR(WithNode(ctx, ReadFloats(*bt, &bias)));
  if (pt != nullptr) RETURN_IF_ERROR(WithNode(ctx, ReadFloats(*pt, &p)));
  const size_t state_size = static_cast<size_t>(d.dirs * d.batch * d.hidden);
  h0.assign(state_size, C(0));
  c0.assign(state_size, C(0));
  if (ht != nullptr) {
    RETURN_IF_ERROR(WithNode(ctx, ReadFloats(*ht, &h0)));
    if (a.layout == 1) h0 = SwapOuter(h0, d.batch, d.dirs, d.hidden);
  }
  if (ct != nullptr) {
    RETURN_IF_ERROR(WithNode(ctx, ReadFloats(*ct, &c0)));
    if (a.layout == 1) c0 = SwapOuter(c0, d.batch, d.dirs, d.hidden);
  }

  gert::Tensor* y_out = ctx.GetOutputNum() > 0 ? ctx.GetOutputTensor(0) : nullptr;
  std::vector<C> y;
  if (y_out != nullptr) y.assign(static_cast<size_t>(d.seq * d.dirs * d.batch * d.hidden), C(0));
  std::vector<C> yh(state_size), yc(state_size);
  const int64_t BH = d.batch * d.hidden;
  for (int64_t dir = 0; dir < d.dirs; ++dir) {
    const bool reverse = a.direction == Direction::kReverse || dir == 1;
    const C* wb = bias.empty() ? nullptr : bias.data() + dir * 2 * GH;
    const C* rb = bias.empty() ? nullptr : wb + GH;
    std::vector<C> h(h0.begin() + dir * BH, h0.begin() + (dir + 1) * BH);
    std::vector<C> c(c0.begin() + dir * BH, c0.begin() + (dir + 1) * BH);
    RunDirection<C>(
        a, d, dir, reverse, x, w.data() + dir * GH * d.input, r.data() + dir * GH * d.hidden, wb,
        rb, p.empty() ? nullptr : p.data() + dir * 3 * d.hidden, lens, std::move(h), std::move(c),
        y_out != nullptr ? &y : nullptr, &yh, cell == Cell::kLstm ? &yc : nullptr);
  }

  const ge::DataType dt = xt->GetDataType();
  if (y_out != nullptr) {
    const gert::Shape ys = a.layout == 0 ? gert::Shape{d.seq, d.dirs, d.batch, d.hidden}
                                         : gert::Shape{d.batch, d.seq, d.dirs, d.hidden};
    // layout 1: [seq][dirs][batch][H] -> [batch][seq][dirs][H]
    if (a.layout == 1) y = SwapOuter(y, d.seq * d.dirs, d.batch, d.hidden);
    ASSIGN_OR_RETURN(gert::Tensor * out, PrepareOutput(ctx, 0, ys, dt));
    RETURN_IF_ERROR(WithNode(ctx, WriteFloats(y, out)));
  }
  const size_t num_state_outputs = cell == Cell::kLstm ? 2 : 1;
  for (size_t k = 0; k < num_state_outputs; ++k) {
    const size_t i = 1 + k;
    if (i >= ctx.GetOutputNum() || ctx.GetOutputTensor(i) == nullptr) continue;
    std::vector<C>& v = k == 0 ? yh : yc;
    if (a.layout == 1) v = SwapOuter(v, d.dirs, d.batch, d.hidden);
    ASSIGN_OR_RETURN(gert::Tensor * out, PrepareOutput(ctx, i, state, dt));
    RETURN_IF_ERROR(WithNode(ctx, WriteFloats(v, out)));
  }
  return ge::OkStatus();
}

ge::Status RnnKernelFor(gert::KernelContext& ctx, Cell cell) {
  ASSIGN_OR_RETURN(RnnAttrs a, ReadRnnAttrs(ctx, cell));
  const gert::Tensor* x = ctx.GetInputTensor(kX);
  if (x == nullptr) return ctx.Error("input 0 (X) is missing");
  switch (x->GetDataType()) {
    case ge::DT_DOUBLE:
      return RnnCompute<double>(ctx, a);
    case ge::DT_FLOAT:
    case ge::DT_FLOAT16:
    case ge::DT_BF16:
      return RnnCompute<float>(ctx, a);
    default:
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "input 0 (X) data type ",
                               DataTypeName(x->GetDataType()), " is not supported");
  }
}

ge::Status RnnKernel(gert::KernelContext& ctx) { return RnnKernelFor(ctx, Cell::kRnn); }
ge::Status GruKernel(gert::KernelContext& ctx) { return RnnKernelFor(ctx, Cell::kGru); }
ge::Status LstmKernel(gert::KernelContext& ctx) { return RnnKernelFor(ctx, Cell::kLstm); }

ge::TensorType RnnTypes() {
  return ge::TensorType{ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_DOUBLE};
}

ge::AttrValue AttrStr(const char* s) { return ge::AttrValue::CreateFrom<std::string>(s); }
ge::AttrValue AttrInt(int64_t v) { return ge::AttrValue::CreateFrom<int64_t>(v); }
ge::AttrValue AttrFloats() { return ge::AttrValue::CreateFrom<std::vector<float>>({}); }
ge::AttrValue AttrStrs() { return ge::AttrValue::CreateFrom<std::vector<std::string>>({}); }

}  // namespace

// Attributes without an ONNX default (hidden_size, clip) are not declared
// with one: they are read when present.
REG_OP(RNN)
    .Input("X", RnnTypes())
    .Input("W", RnnTypes())
    .Input("R", RnnTypes())
    .OptionalInput("B", RnnTypes())
    .OptionalInput("sequence_lens", ge::TensorType{ge::DT_INT32})
    .OptionalInput("initial_h", RnnTypes())
    .OptionalOutput("Y", RnnTypes())
    .OptionalOutput("Y_h", RnnTypes())
    .Attr("activation_alpha", AttrFloats())
    .Attr("activation_beta", AttrFloats())
    .Attr("activations", ge::AttrValue::CreateFrom<std::vector<std::string>>({"Tanh", "Tanh"}))
    .Attr("direction", AttrStr("forward"))
    .Attr("layout", AttrInt(0))
    .InferShape(InferRnn)
    .Verify(VerifyRnn);
REG_KERNEL(RNN, ge::kEngineHostCpu).Fn(RnnKernel);

REG_OP(GRU)
    .Input("X", RnnTypes())
    .Input("W", RnnTypes())
    .Input("R", RnnTypes())
    .OptionalInput("B", RnnTypes())
    .OptionalInput("sequence_lens", ge::TensorType{ge::DT_INT32})
    .OptionalInput("initial_h", RnnTypes())
    .OptionalOutput("Y", RnnTypes())
    .OptionalOutput("Y_h", RnnTypes())
    .Attr("activation_alpha", AttrFloats())
    .Attr("activation_beta", AttrFloats())
    .Attr("activations", AttrStrs())
    .Attr("direction", AttrStr("forward"))
    .Attr("layout", AttrInt(0))
    .Attr("linear_before_reset", AttrInt(0))
    .InferShape(InferGru)
    .Verify(VerifyRnn);
REG_KERNEL(GRU, ge::kEngineHostCpu).Fn(GruKernel);

REG_OP(LSTM)
    .Input("X", RnnTypes())
    .Input("W", RnnTypes())
    .Input("R", RnnTypes())
    .OptionalInput("B", RnnTypes())
    .OptionalInput("sequence_lens", ge::TensorType{ge::DT_INT32})
    .OptionalInput("initial_h", RnnTypes())
    .OptionalInput("initial_c", RnnTypes())
    .OptionalInput("P", RnnTypes())
    .OptionalOutput("Y", RnnTypes())
    .OptionalOutput("Y_h", RnnTypes())
    .OptionalOutput("Y_c", RnnTypes())
    .Attr("activation_alpha", AttrFloats())
    .Attr("activation_beta", AttrFloats())
    .Attr("activations", AttrStrs())
    .Attr("direction", AttrStr("forward"))
    .Attr("input_forget", AttrInt(0))
    .Attr("layout", AttrInt(0))
    .InferShape(InferLstm)
    .Verify(VerifyRnn);
REG_KERNEL(LSTM, ge::kEngineHostCpu).Fn(LstmKernel);

}  // namespace ops
