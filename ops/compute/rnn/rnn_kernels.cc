// ops/compute/rnn/rnn_kernels.cc
//
// LSTM, GRU and RNN (ONNX, layout 0) on the compute engine: oneDNN 2.6
// lstm_forward, gru_forward / lbr_gru_forward and vanilla_rnn_forward
// (forward_inference), prepared at load. The reference is the host-CPU
// kernel of ops/rnn/rnn_ops.cc.
//
// One unidirectional primitive per ONNX direction (forward: left2right,
// reverse: right2left; bidirectional: direction 0 left2right, 1
// right2left), so that every tensor of the node is bound in place:
//   X [seq, batch, input]             src_layer tnc (the same for each
//                                     direction)
//   initial_h / initial_c [dirs, batch, hidden]
//                                     src_iter / src_iter_c ldnc [1, 1,
//                                     batch, hidden] at direction d's slice
//   Y [seq, dirs, batch, hidden]      dst_layer [seq, batch, hidden] with
//                                     strides (dirs * batch * hidden,
//                                     hidden, 1) at direction d's slice
//   Y_h / Y_c [dirs, batch, hidden]   dst_iter / dst_iter_c like the
//                                     initial states
// oneDNN 2.6 takes the states all or none: src_iter with src_iter_c, and
// (for BF16) src_iter with dst_iter. A node with no initial state and no
// Y_h / Y_c has none; any other binds every state, an absent initial one
// reading zeros (a buffer made at Prepare) and an unused final one (null
// at Prepare) written to the workspace. Y, which oneDNN always writes, goes
// to the workspace when unused.
//
// Weights. ONNX W [dirs, G*hidden, input] and R [dirs, G*hidden, hidden]
// are, per direction, [gate][out][in]; oneDNN wants ldigo [1, 1, in, gate,
// out]. The gates are permuted on the way:
//   LSTM  ONNX i, o, f, c    -> oneDNN i, f, c, o
//   GRU   ONNX z, r, h       -> oneDNN u, r, o (u is z; the same order)
//   RNN   one gate
// ONNX B [dirs, 2*G*hidden] is Wb then Rb; oneDNN has one f32 bias [1, 1,
// G', hidden] added once per gate: Wb + Rb, except for linear_before_reset
// GRU whose fourth gate keeps Rb_h apart (below). No B is a zero bias.
// LSTM peepholes P [dirs, 3*hidden] (ONNX i, o, f) are oneDNN's
// weights_peephole (f32, i, f, o); oneDNN applies them as ONNX does (i and
// f on c[t-1], o on c[t]).
// Constant W / R are packed to ldigo once at Prepare and reordered into the
// layout the primitive prefers (format_tag::any); constant B / P are
// converted once. Non-constant ones are packed at Run into the workspace
// (the primitive then takes plain ldigo weights).
//
// The formulas oneDNN computes match ONNX's with the default activations:
//   LSTM  i, f, o = sigmoid, c~ = tanh, c = f*c + i*c~, h = o*tanh(c).
//   GRU (linear_before_reset 0, oneDNN "GRU"): u, r = sigmoid(W x + U h +
//         b); o = tanh(W_o x + U_o (r * h) + b_o), h = u*h + (1-u)*o: ONNX
//         h~ = tanh(X Wh + (r . H) Rh + Wbh + Rbh), H = (1-z) h~ + z H.
//   GRU (linear_before_reset 1, oneDNN "Linear-Before-Reset GRU"): o =
//         tanh(W_o x + b_o + r * (U_o h + b_u')): ONNX h~ = tanh(X Wh +
//         Wbh + r . (H Rh + Rbh)), so b_o = Wbh and b_u' = Rbh.
//   RNN   h = act(W x + U h + b), act Tanh (eltwise_tanh) or Relu
//         (eltwise_relu); each direction may have its own.
//
// Supported: FLOAT and BF16 (bias and peepholes f32; a BF16 node on a CPU
// without a BF16 primitive goes through the FLOAT decorator), static
// shapes, directions forward / reverse / bidirectional, every subset of the
// outputs, optional B, initial_h, initial_c and P. Rejected (the node stays
// on the host engine): sequence_lens, layout 1, clip, input_forget 1,
// activations other than the defaults (RNN: Tanh or Relu), any
// activation_alpha / activation_beta.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_join.h"
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

namespace ops {
namespace compute {
namespace {

using dims_t = dnnl::memory::dims;
using dnnl_dt = dnnl::memory::data_type;
using tag = dnnl::memory::format_tag;

// ONNX input / output indices.
constexpr size_t kX = 0, kW = 1, kR = 2, kB = 3, kSeqLens = 4, kInitH = 5, kInitC = 6, kP = 7;
constexpr size_t kY = 0, kYh = 1, kYc = 2;

enum class Cell { kRnn, kGru, kLstm };

size_t Align64(size_t n) { return (n + 63) / 64 * 64; }

gert::ContextBase AttrContext(const ge::OpDesc& op) {
  gert::ContextBase c;
  c.SetNode(op.GetName(), op.GetType());
  c.SetAttrHolder(&op);
  return c;
}

// A Status of another code as NotSupported with the same message: the
// placement reads any failure of a Supports function as "not here".
ge::Status AsNotSupported(const ge::Status& st) {
  if (st.ok() || ge::GetErrorCode(st) == ge::ErrorCode::kNotSupported) return st;
  return ge::NotSupported(st.message());
}

const ge::GeTensorDesc* PresentInput(const ge::OpDesc& op, size_t i) {
  if (i >= op.GetAllInputsSize()) return nullptr;
  const ge::GeTensorDesc* d = op.GetInputDescBarePtr(static_cast<uint32_t>(i));
  return d == nullptr || d->GetDataType() == ge::DT_UNDEFINED ? nullptr : d;
}

// ---------------------------------------------------------------- attributes

// What the attributes ask, in oneDNN's terms.
struct RnnConfig {
  Cell cell = Cell::kRnn;
  bool lbr = false;  // GRU linear_before_reset
  int64_t dirs = 1;
  bool reverse = false;                    // a single direction running right to left
  int64_t gates = 1;                       // ONNX G (and oneDNN's weight gates)
  int64_t bias_gates = 1;                  // oneDNN's bias gates (4 for the LBR GRU)
  std::array<int, 4> perm = {0, 1, 2, 3};  // oneDNN gate g <- ONNX gate perm[g]
  std::array<dnnl::algorithm, 2> act = {dnnl::algorithm::eltwise_tanh,
                                        dnnl::algorithm::eltwise_tanh};  // RNN, per direction
  int64_t hidden_attr = -1;                                              // -1: not given
};

const char* CellName(Cell c) {
  switch (c) {
    case Cell::kRnn:
      return "RNN";
    case Cell::kGru:
      return "GRU";
    case Cell::kLstm:
      return "LSTM";
  }
  return "?";
}

// Reads and checks the attributes (NotSupported for what the kernel lacks),
// the same way the host kernel reads them.
ge::StatusOr<RnnConfig> ReadConfig(const gert::ContextBase& attrs, Cell cell) {
  RnnConfig c;
  c.cell = cell;
  ASSIGN_OR_RETURN(std::string dir, attrs.GetStrOr("direction", "forward"));
  if (dir == "forward") {
    c.reverse = false;
  } else if (dir == "reverse") {
    c.reverse = true;
  } else if (dir == "bidirectional") {
    c.dirs = 2;
  } else {
    return ge::NotSupported("attribute direction \"", dir, "\" is not an ONNX direction");
  }
  ASSIGN_OR_RETURN(int64_t layout, attrs.GetIntOr("layout", 0));
  if (layout != 0) {
    return ge::NotSupported("attribute layout ", layout,
                            ": the kernel takes layout 0 (time-major) only");
  }
  if (attrs.HasAttr("clip")) {
    return ge::NotSupported("attribute clip: oneDNN's RNN primitives do not clip");
  }
  if (attrs.HasAttr("hidden_size")) {
    ASSIGN_OR_RETURN(c.hidden_attr, attrs.GetInt("hidden_size"));
  }
  ASSIGN_OR_RETURN(std::vector<float> alphas, attrs.GetListFloatOr("activation_alpha", {}));
  ASSIGN_OR_RETURN(std::vector<float> betas, attrs.GetListFloatOr("activation_beta", {}));
  if (!alphas.empty() || !betas.empty()) {
    return ge::NotSupported("attributes activation_alpha / activation_beta are not supported");
  }
  std::vector<std::string> defaults;
  switch (cell) {
    case Cell::kRnn:
      c.gates = c.bias_gates = 1;
      defaults = {"tanh"};
      break;
    case Cell::kGru: {
      c.gates = 3;
      ASSIGN_OR_RETURN(int64_t lbr, attrs.GetIntOr("linear_before_reset", 0));
      c.lbr = lbr != 0;
      c.bias_gates = c.lbr ? 4 : 3;
      defaults = {"sigmoid", "tanh"};
      break;
    }
    case Cell::kLstm: {
      c.gates = c.bias_gates = 4;
      c.perm = {0, 2, 3, 1};
      ASSIGN_OR_RETURN(int64_t input_forget, attrs.GetIntOr("input_forget", 0));
      if (input_forget != 0) {
        return ge::NotSupported("attribute input_forget 1: oneDNN has no coupled forget gate");
      }
      defaults = {"sigmoid", "tanh", "tanh"};
      break;
    }
  }
  // Activations as the host reads them: one list per direction, a single
  // list for both, or a single direction taking the first half of two.
  const size_t per_dir = defaults.size();
  ASSIGN_OR_RETURN(std::vector<std::string> names, attrs.GetListStrOr("activations", {}));
  if (names.empty()) names = defaults;
  if (c.dirs == 1 && names.size() == 2 * per_dir) names.resize(per_dir);
  if (names.size() != per_dir && names.size() != per_dir * static_cast<size_t>(c.dirs)) {
    return ge::NotSupported("attribute activations has ", names.size(), " entries (",
                            absl::StrJoin(names, ", "), ")");
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const std::string lower = absl::AsciiStrToLower(names[i]);
    if (cell == Cell::kRnn) {
      dnnl::algorithm alg;
      if (lower == "tanh") {
        alg = dnnl::algorithm::eltwise_tanh;
      } else if (lower == "relu") {
        alg = dnnl::algorithm::eltwise_relu;
      } else {
        return ge::NotSupported("RNN activation \"", names[i], "\": the kernel takes Tanh or Relu");
      }
      if (names.size() == 1) {
        c.act = {alg, alg};
      } else {
        c.act[i] = alg;
      }
    } else if (lower != defaults[i % per_dir]) {
      return ge::NotSupported(CellName(cell), " activations (", absl::StrJoin(names, ", "),
                              "): the kernel takes the defaults only (",
                              absl::StrJoin(defaults, ", "), ")");
    }
  }
  return c;
}

// ---------------------------------------------------------------- geometry

struct RnnGeometry {
  int64_t seq = 0, batch = 0, input = 0, hidden = 0;
};

// The dims of the node's inputs (empty span: absent), checked against one
// another; NotSupported for what the kernel does not take.
struct InputDims {
  absl::Span<const int64_t> x, w, r, b, h0, c0, p;
};

ge::Status ExpectDims(absl::Span<const int64_t> got, std::initializer_list<int64_t> want,
                      const char* what) {
  if (got.size() != want.size() || !std::equal(got.begin(), got.end(), want.begin())) {
    return ge::NotSupported(what, " has dims [", absl::StrJoin(got, ", "), "], expected [",
                            absl::StrJoin(want, ", "), "]");
  }
  return ge::OkStatus();
}

ge::StatusOr<RnnGeometry> PlanGeometry(const InputDims& in, const RnnConfig& c, bool has_b,
                                       bool has_h0, bool has_c0, bool has_p) {
  if (in.x.size() != 3 || in.r.size() != 3) {
    return ge::NotSupported("X and R must have rank 3");
  }
  for (int64_t d : in.x) {
    if (d <= 0) {
      return ge::NotSupported("input 0 (X) has dim ", d,
                              "; the kernel takes known, non-empty shapes only");
    }
  }
  RnnGeometry g;
  g.seq = in.x[0];
  g.batch = in.x[1];
  g.input = in.x[2];
  g.hidden = in.r[2];
  if (g.hidden <= 0) return ge::NotSupported("hidden size ", g.hidden, " is not positive");
  if (c.hidden_attr >= 0 && c.hidden_attr != g.hidden) {
    return ge::NotSupported("attribute hidden_size ", c.hidden_attr, " differs from R's ",
                            g.hidden);
  }
  const int64_t gh = c.gates * g.hidden;
  RETURN_IF_ERROR(ExpectDims(in.w, {c.dirs, gh, g.input}, "input 1 (W)"));
  RETURN_IF_ERROR(ExpectDims(in.r, {c.dirs, gh, g.hidden}, "input 2 (R)"));
  if (has_b) RETURN_IF_ERROR(ExpectDims(in.b, {c.dirs, 2 * gh}, "input 3 (B)"));
  if (has_h0) {
    RETURN_IF_ERROR(ExpectDims(in.h0, {c.dirs, g.batch, g.hidden}, "input 5 (initial_h)"));
  }
  if (has_c0) {
    RETURN_IF_ERROR(ExpectDims(in.c0, {c.dirs, g.batch, g.hidden}, "input 6 (initial_c)"));
  }
  if (has_p) RETURN_IF_ERROR(ExpectDims(in.p, {c.dirs, 3 * g.hidden}, "input 7 (P)"));
  return g;
}

// ---------------------------------------------------------------- packing

// One direction's ONNX weights [G][H][K] (src) as oneDNN's plain ldigo
// [K][G][H] (dst), gates permuted.
template <typename T>
void PackWeights(const T* src, int64_t gates, int64_t hidden, int64_t k_dim,
                 const std::array<int, 4>& perm, T* dst) {
  for (int64_t g = 0; g < gates; ++g) {
    const T* gate = src + perm[static_cast<size_t>(g)] * hidden * k_dim;
    for (int64_t o = 0; o < hidden; ++o) {
      const T* row = gate + o * k_dim;
      T* out = dst + g * hidden + o;
      for (int64_t k = 0; k < k_dim; ++k) out[k * gates * hidden] = row[k];
    }
  }
}

void PackWeightsOf(const void* src, size_t elem_bytes, int64_t gates, int64_t hidden, int64_t k_dim,
                   const std::array<int, 4>& perm, void* dst) {
  if (elem_bytes == 2) {
    PackWeights(static_cast<const uint16_t*>(src), gates, hidden, k_dim, perm,
                static_cast<uint16_t*>(dst));
  } else {
    PackWeights(static_cast<const uint32_t*>(src), gates, hidden, k_dim, perm,
                static_cast<uint32_t*>(dst));
  }
}

// One direction's oneDNN bias [G'][H] in f32 from ONNX B's slice [2][G][H]
// (`b` null: zeros).
void PackBias(const void* b, ge::DataType dt, int64_t dir, const RnnConfig& c, int64_t hidden,
              float* out) {
  const int64_t gh = c.gates * hidden;
  if (b == nullptr) {
    std::fill_n(out, c.bias_gates * hidden, 0.0f);
    return;
  }
  const int64_t base = dir * 2 * gh;
  for (int64_t g = 0; g < c.gates; ++g) {
    const int64_t src = c.perm[static_cast<size_t>(g)] * hidden;
    for (int64_t o = 0; o < hidden; ++o) {
      const float wb = ElementAsFloat(b, dt, base + src + o);
      const float rb = ElementAsFloat(b, dt, base + gh + src + o);
      if (c.lbr && g == 2) {
        out[g * hidden + o] = wb;  // b_o = Wb_h
        out[3 * hidden + o] = rb;  // b_u' = Rb_h
      } else {
        out[g * hidden + o] = wb + rb;
      }
    }
  }
}

// One direction's peepholes [3][H] in oneDNN's order (i, f, o) in f32
// from ONNX P's slice (i, o, f).
void PackPeephole(const void* p, ge::DataType dt, int64_t dir, int64_t hidden, float* out) {
  static constexpr int kFrom[3] = {0, 2, 1};
  for (int g = 0; g < 3; ++g) {
    for (int64_t o = 0; o < hidden; ++o) {
      out[g * hidden + o] = ElementAsFloat(p, dt, dir * 3 * hidden + kFrom[g] * hidden + o);
    }
  }
}

// ---------------------------------------------------------------- kernel

// Where an argument of a primitive finds its buffer at Run.
struct ArgSource {
  enum Kind { kInput, kOutput, kStaging } kind;
  size_t index;   // input / output index (kInput / kOutput)
  size_t offset;  // bytes into the tensor or the staging area
};

constexpr size_t kMaxArgs = 12;

class DnnlRnnKernel : public ge::OpKernel {
 public:
  explicit DnnlRnnKernel(Cell cell) : cell_(cell) {}

  ge::Status Prepare(gert::TilingContext& ctx) override {
    const size_t max_inputs = cell_ == Cell::kLstm ? 8 : 6;
    std::array<const gert::Tensor*, 8> in{};
    for (size_t i = 0; i < max_inputs && i < ctx.GetInputNum(); ++i) {
      in[i] = PresentTensor(ctx.GetInputTensor(i));
    }
    if (in[kX] == nullptr || in[kW] == nullptr || in[kR] == nullptr) {
      return ctx.Error("inputs X, W and R are required");
    }
    if (in[kSeqLens] != nullptr) return ctx.Error("input 4 (sequence_lens) is not supported");
    ge::StatusOr<RnnConfig> config = ReadConfig(ctx, cell_);
    if (!config.ok()) return WithNode(ctx, config.status());
    c_ = *config;
    dtype_ = in[kX]->GetDataType();
    if (dtype_ != ge::DT_FLOAT && dtype_ != ge::DT_BF16) {
      return ctx.Error("X must be FLOAT or BF16");
    }
    const dnnl_dt dt = dtype_ == ge::DT_BF16 ? dnnl_dt::bf16 : dnnl_dt::f32;
    elem_ = dtype_ == ge::DT_BF16 ? 2 : 4;
    const size_t num_outputs = cell_ == Cell::kLstm ? 3 : 2;
    std::array<const gert::Tensor*, 3> out{};
    for (size_t i = 0; i < num_outputs && i < ctx.GetOutputNum(); ++i) {
      out[i] = PresentTensor(ctx.GetOutputTensor(i));
    }
    for (size_t i = 1; i < in.size(); ++i) {
      if (in[i] != nullptr && in[i]->GetDataType() != dtype_) {
        return ctx.Error("input ", i, " has another data type than X");
      }
    }
    for (size_t i = 0; i < out.size(); ++i) {
      if (out[i] != nullptr && out[i]->GetDataType() != dtype_) {
        return ctx.Error("output ", i, " has another data type than X");
      }
    }
    InputDims dims;
    dims.x = in[kX]->GetShape().GetDims();
    dims.w = in[kW]->GetShape().GetDims();
    dims.r = in[kR]->GetShape().GetDims();
    if (in[kB] != nullptr) dims.b = in[kB]->GetShape().GetDims();
    if (in[kInitH] != nullptr) dims.h0 = in[kInitH]->GetShape().GetDims();
    if (in[kInitC] != nullptr) dims.c0 = in[kInitC]->GetShape().GetDims();
    if (in[kP] != nullptr) dims.p = in[kP]->GetShape().GetDims();
    ge::StatusOr<RnnGeometry> geometry =
        PlanGeometry(dims, c_, in[kB] != nullptr, in[kInitH] != nullptr, in[kInitC] != nullptr,
                     in[kP] != nullptr);
    if (!geometry.ok()) return WithNode(ctx, geometry.status());
    g_ = *geometry;
    const int64_t T = g_.seq, N = g_.batch, I = g_.input, H = g_.hidden;
    const size_t state_bytes = static_cast<size_t>(N * H) * elem_;
    for (size_t i = 0; i < out.size(); ++i) has_out_[i] = out[i] != nullptr;
    const bool lstm = cell_ == Cell::kLstm;
    // Every state or none (see the file comment).
    const bool iter = in[kInitH] != nullptr || (lstm && in[kInitC] != nullptr) || has_out_[kYh] ||
                      (lstm && has_out_[kYc]);

    // The staging area (behind the scratchpad): what Run writes or packs.
    size_t staged = 0;
    auto stage = [&staged](size_t bytes) {
      const size_t at = staged;
      staged += Align64(bytes);
      return at;
    };
    const size_t y_stage = has_out_[kY] ? 0 : stage(static_cast<size_t>(T) * state_bytes);
    const size_t yh_stage = iter && !has_out_[kYh] ? stage(state_bytes) : 0;
    const size_t yc_stage = lstm && iter && !has_out_[kYc] ? stage(state_bytes) : 0;
    const int64_t G = c_.gates;
    w_staged_ = in[kW]->GetAddr() == nullptr;
    r_staged_ = in[kR]->GetAddr() == nullptr;
    has_b_ = in[kB] != nullptr;
    b_staged_ = has_b_ && in[kB]->GetAddr() == nullptr;
    has_p_ = in[kP] != nullptr;
    p_staged_ = has_p_ && in[kP]->GetAddr() == nullptr;
    if (w_staged_) w_off_ = stage(static_cast<size_t>(I * G * H) * elem_);
    if (r_staged_) r_off_ = stage(static_cast<size_t>(H * G * H) * elem_);
    if (b_staged_) b_off_ = stage(static_cast<size_t>(c_.bias_gates * H) * 4);
    if (p_staged_) p_off_ = stage(static_cast<size_t>(3 * H) * 4);
    // An absent initial state reads zeros.
    if (iter && (in[kInitH] == nullptr || (lstm && in[kInitC] == nullptr))) {
      ASSIGN_OR_RETURN(zeros_, AlignedBuffer::Allocate(state_bytes));
      std::memset(zeros_.data(), 0, state_bytes);
    }

    dnnl::memory::desc src_layer, state, state_none, dst_layer, wl_plain, wi_plain, wl_pd, wi_pd,
        bias, peephole;
    RETURN_IF_ERROR(DnnlCall("RNN descs", [&] {
      src_layer = dnnl::memory::desc({T, N, I}, dt, tag::tnc);
      state = dnnl::memory::desc({1, 1, N, H}, dt, tag::ldnc);
      dst_layer = has_out_[kY] ? dnnl::memory::desc({T, N, H}, dt, dims_t{c_.dirs * N * H, H, 1})
                               : dnnl::memory::desc({T, N, H}, dt, tag::tnc);
      wl_plain = dnnl::memory::desc({1, 1, I, G, H}, dt, tag::ldigo);
      wi_plain = dnnl::memory::desc({1, 1, H, G, H}, dt, tag::ldigo);
      wl_pd = w_staged_ ? wl_plain : dnnl::memory::desc({1, 1, I, G, H}, dt, tag::any);
      wi_pd = r_staged_ ? wi_plain : dnnl::memory::desc({1, 1, H, G, H}, dt, tag::any);
      bias = dnnl::memory::desc({1, 1, c_.bias_gates, H}, dnnl_dt::f32, tag::ldgo);
      if (has_p_) peephole = dnnl::memory::desc({1, 1, 3, H}, dnnl_dt::f32, tag::ldgo);
    }));
    const dnnl::memory::desc iter_md = iter ? state : state_none;

    scratch_bytes_ = 0;
    for (int64_t d = 0; d < c_.dirs; ++d) {
      Direction& dir = dirs_[d];
      dir.sources.clear();
      const dnnl::rnn_direction rd = (c_.dirs == 2 ? d == 1 : c_.reverse)
                                         ? dnnl::rnn_direction::unidirectional_right2left
                                         : dnnl::rnn_direction::unidirectional_left2right;
      const size_t state_at = static_cast<size_t>(d) * state_bytes;
      dnnl::primitive prim;
      dnnl::memory::desc scratchpad, wl_md, wi_md;
      RETURN_IF_ERROR(DnnlCall("RNN primitive", [&] {
        dnnl::primitive_attr attr;
        attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
        const auto inference = dnnl::prop_kind::forward_inference;
        auto take = [&](const auto& pd, dnnl::primitive p) {
          prim = std::move(p);
          scratchpad = pd.scratchpad_desc();
          wl_md = pd.weights_layer_desc();
          wi_md = pd.weights_iter_desc();
        };
        switch (cell_) {
          case Cell::kLstm: {
            const dnnl::lstm_forward::primitive_desc pd(
                has_p_
                    ? dnnl::lstm_forward::desc(inference, rd, src_layer, iter_md, iter_md, wl_pd,
                                               wi_pd, peephole, bias, dst_layer, iter_md, iter_md)
                    : dnnl::lstm_forward::desc(inference, rd, src_layer, iter_md, iter_md, wl_pd,
                                               wi_pd, bias, dst_layer, iter_md, iter_md),
                attr, CpuEngine());
            take(pd, dnnl::lstm_forward(pd));
            break;
          }
          case Cell::kGru:
            if (c_.lbr) {
              const dnnl::lbr_gru_forward::primitive_desc pd(
                  dnnl::lbr_gru_forward::desc(inference, rd, src_layer, iter_md, wl_pd, wi_pd, bias,
                                              dst_layer, iter_md),
                  attr, CpuEngine());
              take(pd, dnnl::lbr_gru_forward(pd));
            } else {
              const dnnl::gru_forward::primitive_desc pd(
                  dnnl::gru_forward::desc(inference, rd, src_layer, iter_md, wl_pd, wi_pd, bias,
                                          dst_layer, iter_md),
                  attr, CpuEngine());
              take(pd, dnnl::gru_forward(pd));
            }
            break;
          case Cell::kRnn: {
            const dnnl::vanilla_rnn_forward::primitive_desc pd(
                dnnl::vanilla_rnn_forward::desc(inference, c_.act[static_cast<size_t>(d)], rd,
                                                src_layer, iter_md, wl_pd, wi_pd, bias, dst_layer,
                                                iter_md),
                attr, CpuEngine());
            take(pd, dnnl::vanilla_rnn_forward(pd));
            break;
          }
        }
      }));
      RETURN_IF_ERROR(dir.prim.Init(prim, scratchpad));
      scratch_bytes_ = std::max(scratch_bytes_, dir.prim.scratchpad_bytes());

      // Arguments, in the order Run's handles come (ArgSource per unbound one).
      RETURN_IF_ERROR(dir.prim.AddArg(DNNL_ARG_SRC_LAYER, src_layer));
      dir.sources.push_back({ArgSource::kInput, kX, 0});
      if (iter) {
        const std::array<std::pair<int, size_t>, 2> states = {
            std::make_pair(DNNL_ARG_SRC_ITER, kInitH), std::make_pair(DNNL_ARG_SRC_ITER_C, kInitC)};
        for (size_t s = 0; s < (lstm ? 2u : 1u); ++s) {
          const size_t input = states[s].second;
          if (in[input] != nullptr) {
            RETURN_IF_ERROR(dir.prim.AddArg(states[s].first, state));
            dir.sources.push_back({ArgSource::kInput, input, state_at});
          } else {
            RETURN_IF_ERROR(dir.prim.AddArg(states[s].first, state, zeros_.data()));
          }
        }
      }
      // Weights: constant ones packed and reordered now, others at Run.
      const int64_t w_dir = d * G * H * I;
      const int64_t r_dir = d * G * H * H;
      if (w_staged_) {
        RETURN_IF_ERROR(dir.prim.AddArg(DNNL_ARG_WEIGHTS_LAYER, wl_plain));
        dir.sources.push_back({ArgSource::kStaging, 0, w_off_});
      } else {
        ASSIGN_OR_RETURN(dir.w_layer,
                         PackAndReorder(in[kW]->GetAddr(), w_dir, I, wl_plain, wl_md));
        RETURN_IF_ERROR(dir.prim.AddArg(DNNL_ARG_WEIGHTS_LAYER, wl_md, dir.w_layer.data()));
      }
      if (r_staged_) {
        RETURN_IF_ERROR(dir.prim.AddArg(DNNL_ARG_WEIGHTS_ITER, wi_plain));
        dir.sources.push_back({ArgSource::kStaging, 0, r_off_});
      } else {
        ASSIGN_OR_RETURN(dir.w_iter, PackAndReorder(in[kR]->GetAddr(), r_dir, H, wi_plain, wi_md));
        RETURN_IF_ERROR(dir.prim.AddArg(DNNL_ARG_WEIGHTS_ITER, wi_md, dir.w_iter.data()));
      }
      if (has_p_) {
        if (p_staged_) {
          RETURN_IF_ERROR(dir.prim.AddArg(DNNL_ARG_WEIGHTS_PEEPHOLE, peephole));
          dir.sources.push_back({ArgSource::kStaging, 0, p_off_});
        } else {
          ASSIGN_OR_RETURN(dir.peephole, AlignedBuffer::Allocate(static_cast<size_t>(3 * H) * 4));
          PackPeephole(in[kP]->GetAddr(), dtype_, d, H, static_cast<float*>(dir.peephole.data()));
          RETURN_IF_ERROR(
              dir.prim.AddArg(DNNL_ARG_WEIGHTS_PEEPHOLE, peephole, dir.peephole.data()));
        }
      }
      if (b_staged_) {
        RETURN_IF_ERROR(dir.prim.AddArg(DNNL_ARG_BIAS, bias));
        dir.sources.push_back({ArgSource::kStaging, 0, b_off_});
      } else {
        ASSIGN_OR_RETURN(dir.bias,
                         AlignedBuffer::Allocate(static_cast<size_t>(c_.bias_gates * H) * 4));
        PackBias(has_b_ ? in[kB]->GetAddr() : nullptr, dtype_, d, c_, H,
                 static_cast<float*>(dir.bias.data()));
        RETURN_IF_ERROR(dir.prim.AddArg(DNNL_ARG_BIAS, bias, dir.bias.data()));
      }
      RETURN_IF_ERROR(dir.prim.AddArg(DNNL_ARG_DST_LAYER, dst_layer));
      dir.sources.push_back(has_out_[kY] ? ArgSource{ArgSource::kOutput, kY, state_at}
                                         : ArgSource{ArgSource::kStaging, 0, y_stage});
      if (iter) {
        RETURN_IF_ERROR(dir.prim.AddArg(DNNL_ARG_DST_ITER, state));
        dir.sources.push_back(has_out_[kYh] ? ArgSource{ArgSource::kOutput, kYh, state_at}
                                            : ArgSource{ArgSource::kStaging, 0, yh_stage});
        if (lstm) {
          RETURN_IF_ERROR(dir.prim.AddArg(DNNL_ARG_DST_ITER_C, state));
          dir.sources.push_back(has_out_[kYc] ? ArgSource{ArgSource::kOutput, kYc, state_at}
                                              : ArgSource{ArgSource::kStaging, 0, yc_stage});
        }
      }
      if (dir.sources.size() > kMaxArgs) return ctx.Error("too many primitive arguments");
    }
    staged_bytes_ = staged;
    const size_t total = (staged > 0 ? Align64(scratch_bytes_) : scratch_bytes_) + staged;
    if (total > 0) RETURN_IF_ERROR(ctx.SetWorkspaceSize(0, total));
    return ge::OkStatus();
  }

  ge::Status Run(gert::KernelContext& ctx) const override {
    const gert::Tensor* w = ctx.GetInputTensor(kW);
    const gert::Tensor* r = ctx.GetInputTensor(kR);
    const gert::Tensor* b = has_b_ ? ctx.GetInputTensor(kB) : nullptr;
    const gert::Tensor* p = has_p_ ? ctx.GetInputTensor(kP) : nullptr;
    uint8_t* staging = nullptr;
    if (staged_bytes_ > 0) {
      absl::Span<void* const> ws = ctx.GetWorkspaces();
      if (ws.empty() || ws[0] == nullptr) return ctx.Error("no workspace");
      staging = static_cast<uint8_t*>(ws[0]) + Align64(scratch_bytes_);
    }
    if ((w_staged_ && (w == nullptr || w->GetAddr() == nullptr)) ||
        (r_staged_ && (r == nullptr || r->GetAddr() == nullptr)) ||
        (b_staged_ && (b == nullptr || b->GetAddr() == nullptr)) ||
        (p_staged_ && (p == nullptr || p->GetAddr() == nullptr))) {
      return ctx.Error("a weight input has no data");
    }
    const int64_t G = c_.gates, H = g_.hidden, I = g_.input;
    for (int64_t d = 0; d < c_.dirs; ++d) {
      const Direction& dir = dirs_[d];
      if (w_staged_) {
        PackWeightsOf(
            static_cast<const uint8_t*>(w->GetAddr()) + static_cast<size_t>(d * G * H * I) * elem_,
            elem_, G, H, I, c_.perm, staging + w_off_);
      }
      if (r_staged_) {
        PackWeightsOf(
            static_cast<const uint8_t*>(r->GetAddr()) + static_cast<size_t>(d * G * H * H) * elem_,
            elem_, G, H, H, c_.perm, staging + r_off_);
      }
      if (b_staged_) {
        PackBias(b->GetAddr(), dtype_, d, c_, H, reinterpret_cast<float*>(staging + b_off_));
      }
      if (p_staged_) {
        PackPeephole(p->GetAddr(), dtype_, d, H, reinterpret_cast<float*>(staging + p_off_));
      }
      std::array<const void*, kMaxArgs> handles{};
      size_t n = 0;
      for (const ArgSource& s : dir.sources) {
        const void* base = nullptr;
        switch (s.kind) {
          case ArgSource::kInput: {
            const gert::Tensor* t = ctx.GetInputTensor(s.index);
            if (t == nullptr || t->GetAddr() == nullptr) {
              return ctx.Error("input ", s.index, " has no data");
            }
            base = t->GetAddr();
            break;
          }
          case ArgSource::kOutput: {
            gert::Tensor* t = ctx.GetOutputTensor(s.index);
            if (t == nullptr || t->GetAddr() == nullptr) {
              return ctx.Error("output ", s.index, " was given at Prepare and is missing at Run");
            }
            base = t->GetAddr();
            break;
          }
          case ArgSource::kStaging:
            base = staging;
            break;
        }
        handles[n++] = static_cast<const uint8_t*>(base) + s.offset;
      }
      RETURN_IF_ERROR(WithNode(
          ctx, dir.prim.Execute(absl::MakeConstSpan(handles.data(), n), ctx.GetWorkspaces())));
    }
    return ge::OkStatus();
  }

 private:
  struct Direction {
    PreparedPrimitive prim;
    std::vector<ArgSource> sources;  // per argument Run binds, in AddArg order
    AlignedBuffer w_layer, w_iter;   // constant weights in the primitive's layout
    AlignedBuffer bias, peephole;    // f32, when not staged
  };

  // One direction of a constant W / R (`elem_offset` elements into it,
  // `k_dim` its last dim) packed to plain ldigo, then reordered to `to`.
  ge::StatusOr<AlignedBuffer> PackAndReorder(const void* src, int64_t elem_offset, int64_t k_dim,
                                             const dnnl::memory::desc& plain,
                                             const dnnl::memory::desc& to) const {
    ASSIGN_OR_RETURN(AlignedBuffer packed, AlignedBuffer::Allocate(plain.get_size()));
    PackWeightsOf(static_cast<const uint8_t*>(src) + static_cast<size_t>(elem_offset) * elem_,
                  elem_, c_.gates, g_.hidden, k_dim, c_.perm, packed.data());
    return ReorderOnce(plain, packed.data(), to);
  }

  Cell cell_;
  RnnConfig c_;
  RnnGeometry g_;
  ge::DataType dtype_ = ge::DT_FLOAT;
  size_t elem_ = 4;
  std::array<bool, 3> has_out_{};  // Y, Y_h, Y_c given at Prepare
  Direction dirs_[2];
  AlignedBuffer zeros_;  // the LSTM state of initial_h / initial_c that is absent
  size_t scratch_bytes_ = 0, staged_bytes_ = 0;
  bool has_b_ = false, has_p_ = false;
  bool w_staged_ = false, r_staged_ = false, b_staged_ = false, p_staged_ = false;
  size_t w_off_ = 0, r_off_ = 0, b_off_ = 0, p_off_ = 0;  // in the staging area
};

class DnnlRnn final : public DnnlRnnKernel {
 public:
  DnnlRnn() : DnnlRnnKernel(Cell::kRnn) {}
};

class DnnlGru final : public DnnlRnnKernel {
 public:
  DnnlGru() : DnnlRnnKernel(Cell::kGru) {}
};

class DnnlLstm final : public DnnlRnnKernel {
 public:
  DnnlLstm() : DnnlRnnKernel(Cell::kLstm) {}
};

// ---------------------------------------------------------------- Supports

ge::Status RnnSupports(const ge::OpDesc& op, Cell cell) {
  const ge::GeTensorDesc* x = PresentInput(op, kX);
  const ge::GeTensorDesc* w = PresentInput(op, kW);
  const ge::GeTensorDesc* r = PresentInput(op, kR);
  if (x == nullptr || w == nullptr || r == nullptr) {
    return ge::NotSupported(CellName(cell), " needs X, W and R");
  }
  if (PresentInput(op, kSeqLens) != nullptr) {
    return ge::NotSupported(
        "input 4 (sequence_lens): oneDNN's RNN primitives run every sequence to the full length");
  }
  const gert::ContextBase attrs = AttrContext(op);
  ge::StatusOr<RnnConfig> c = ReadConfig(attrs, cell);
  if (!c.ok()) return AsNotSupported(c.status());
  const ge::DataType dt = x->GetDataType();
  if (dt != ge::DT_FLOAT && dt != ge::DT_BF16) {
    return ge::NotSupported("X has data type ", static_cast<int>(dt),
                            "; the kernel takes FLOAT and BF16");
  }
  const size_t max_inputs = cell == Cell::kLstm ? 8 : 6;
  if (op.GetAllInputsSize() > max_inputs) {
    for (size_t i = max_inputs; i < op.GetAllInputsSize(); ++i) {
      if (PresentInput(op, i) != nullptr) return ge::NotSupported("input ", i, " is unexpected");
    }
  }
  for (size_t i = 1; i < max_inputs; ++i) {
    const ge::GeTensorDesc* d = PresentInput(op, i);
    if (d != nullptr && d->GetDataType() != dt) {
      return ge::NotSupported("input ", i, " has another data type than X");
    }
  }
  const size_t num_outputs = cell == Cell::kLstm ? 3 : 2;
  for (size_t o = 0; o < num_outputs && o < op.GetOutputsSize(); ++o) {
    const ge::GeTensorDesc* d = op.GetOutputDescBarePtr(static_cast<uint32_t>(o));
    if (d != nullptr && d->GetDataType() != ge::DT_UNDEFINED && d->GetDataType() != dt) {
      return ge::NotSupported("output ", o, " has another data type than X");
    }
  }
  InputDims dims;
  dims.x = x->GetShape().GetDimsSpan();
  dims.w = w->GetShape().GetDimsSpan();
  dims.r = r->GetShape().GetDimsSpan();
  const ge::GeTensorDesc* b = PresentInput(op, kB);
  const ge::GeTensorDesc* h0 = PresentInput(op, kInitH);
  const ge::GeTensorDesc* c0 = cell == Cell::kLstm ? PresentInput(op, kInitC) : nullptr;
  const ge::GeTensorDesc* p = cell == Cell::kLstm ? PresentInput(op, kP) : nullptr;
  if (b != nullptr) dims.b = b->GetShape().GetDimsSpan();
  if (h0 != nullptr) dims.h0 = h0->GetShape().GetDimsSpan();
  if (c0 != nullptr) dims.c0 = c0->GetShape().GetDimsSpan();
  if (p != nullptr) dims.p = p->GetShape().GetDimsSpan();
  return PlanGeometry(dims, *c, b != nullptr, h0 != nullptr, c0 != nullptr, p != nullptr).status();
}

ge::Status RnnOpSupports(const ge::OpDesc& op) { return RnnSupports(op, Cell::kRnn); }
ge::Status GruSupports(const ge::OpDesc& op) { return RnnSupports(op, Cell::kGru); }
ge::Status LstmSupports(const ge::OpDesc& op) { return RnnSupports(op, Cell::kLstm); }

}  // namespace

REG_KERNEL(LSTM, ge::kEngineAiCore)
    .Kernel<DnnlLstm>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(LstmSupports);

REG_KERNEL(GRU, ge::kEngineAiCore)
    .Kernel<DnnlGru>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(GruSupports);

REG_KERNEL(RNN, ge::kEngineAiCore)
    .Kernel<DnnlRnn>()
    .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
    .ShapeKinds(ge::kKernelStaticShape)
    .Supports(RnnOpSupports);

}  // namespace compute
}  // namespace ops
