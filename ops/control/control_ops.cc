// ops/control/control_ops.cc
//
// Functional control flow (ONNX opset 16/17 semantics):
//
//   If    inputs cond (BOOL, one element), input* (GE style: values passed to
//         the branches; an ONNX If has none, its branches capture outer
//         values); outputs output*. Subgraphs then_branch (0), else_branch
//         (1). The kernel runs subgraph 0 or 1 with the `input` values and
//         copies its outputs.
//   Loop  inputs M (INT64, optional), cond (BOOL, optional), v_initial*;
//         outputs v_final_and_scan_outputs* (N loop-carried values, then K
//         scan outputs). Subgraph body (0): (iteration_num INT64 scalar, cond
//         BOOL scalar, N carried values) -> (cond, N carried values, K scan
//         elements). Termination per ONNX: M only -> for loop (the body's
//         cond is ignored), cond only -> while loop, both -> both; with
//         neither the loop never terminates, which the kernel reports as an
//         error instead of hanging. Scan outputs stack the per-iteration
//         values along a new axis 0 (every iteration must give the same
//         shape and dtype); after zero iterations a scan output has shape
//         [0] (or [0, d...] when its inferred shape gives the element dims).
//   Scan  (opset 9+) inputs initial_state_and_scan_inputs* (N states, then
//         M = num_scan_inputs scan inputs); outputs
//         final_state_and_scan_outputs* (N states, K scan outputs); attributes
//         num_scan_inputs, scan_input_axes, scan_input_directions,
//         scan_output_axes, scan_output_directions. Subgraph body (0):
//         (N states, M slices) -> (N states, K scan elements).
//
// Infer shape: outputs that depend on the subgraphs are unknown (unknown
// rank, DT_UNDEFINED) unless the node carries the "_output_shapes" /
// "_output_dtypes" hints (see control_util.h); the compiler refines them by
// inferring the subgraphs. Loop's carried values keep their input dtype, and
// Scan's states their input shape and dtype (ONNX requires it).
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

// ---------------------------------------------------------------------- If

constexpr size_t kIfThen = 0;
constexpr size_t kIfElse = 1;

ge::Status VerifyIf(gert::InferShapeContext& ctx) {
  const gert::Shape* cond = ctx.GetInputShape(0);
  if (cond == nullptr) return ctx.Error("input 0 (cond) is missing");
  if (!cond->IsUnknownShape() && cond->GetShapeSize() != 1) {
    return ctx.Error("input 0 (cond) must hold exactly one element, got shape ", cond->ToString());
  }
  return ge::OkStatus();
}

// Every output unknown, then the hints.
ge::Status InferAllUnknown(gert::InferShapeContext& ctx) {
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) RETURN_IF_ERROR(SetUnknownOutput(ctx, i));
  return ApplyOutputHints(ctx);
}

ge::Status IfKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const gert::Tensor* cond_t, GetKernelInput(ctx, 0));
  ASSIGN_OR_RETURN(const bool cond, ReadBoolScalar(ctx, *cond_t, "input 0 (cond)"));
  // Subgraph-runner convention (GE's parent node index): runner input k is
  // the If node's input k, cond included, so branch Data nodes carry the
  // index of the parent input they read (captured values start at 1).
  std::vector<const gert::Tensor*> inputs;
  inputs.reserve(ctx.GetInputNum());
  for (size_t i = 0; i < ctx.GetInputNum(); ++i) inputs.push_back(ctx.GetInputTensor(i));
  std::vector<gert::HostTensor> outs;
  RETURN_IF_ERROR(RunSubgraph(ctx, cond ? kIfThen : kIfElse, cond ? "then_branch" : "else_branch",
                              inputs, ctx.GetOutputNum(), &outs));
  for (size_t i = 0; i < outs.size(); ++i) RETURN_IF_ERROR(WriteOutput(ctx, i, outs[i].tensor()));
  return ge::OkStatus();
}

// -------------------------------------------------------------------- Loop

constexpr size_t kLoopM = 0;
constexpr size_t kLoopCond = 1;
constexpr size_t kLoopFirstCarried = 2;

size_t LoopCarriedNum(size_t input_num) {
  return input_num > kLoopFirstCarried ? input_num - kLoopFirstCarried : 0;
}

ge::Status VerifyLoop(gert::InferShapeContext& ctx) {
  const size_t n = LoopCarriedNum(ctx.GetInputNum());
  if (ctx.GetOutputNum() < n) {
    return ctx.Error("has ", n, " loop-carried inputs but only ", ctx.GetOutputNum(), " outputs");
  }
  const char* const kNames[] = {"M", "cond"};
  for (size_t i : {kLoopM, kLoopCond}) {
    const gert::Shape* s = ctx.GetInputShape(i);
    if (s != nullptr && !s->IsUnknownShape() && s->GetShapeSize() != 1) {
      return ctx.Error("input ", i, " (", kNames[i], ") must hold exactly one element, got shape ",
                       s->ToString());
    }
  }
  return ge::OkStatus();
}

ge::Status InferLoop(gert::InferShapeContext& ctx) {
  const size_t n = LoopCarriedNum(ctx.GetInputNum());
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) {
    RETURN_IF_ERROR(SetUnknownOutput(ctx, i));
    if (i < n) {
      // Loop-carried values keep their dtype; their shape may change.
      const ge::DataType dt = ctx.GetInputDataType(kLoopFirstCarried + i);
      ctx.SetOutputDataType(i, dt);
      if (dt == ge::DT_VARIANT) *ctx.GetOutputShape(i) = gert::Shape{-1};
    }
  }
  return ApplyOutputHints(ctx);
}

// Stacks `parts` (same dtype and shape) along a new leading axis, or along
// `axis` of the result with parts placed in `order` (scan position of each
// part). Writes output i.
ge::Status StackOutput(gert::KernelContext& ctx, size_t out_index, const char* what,
                       const std::vector<gert::HostTensor>& parts, int64_t axis, bool reverse) {
  const gert::HostTensor& first = parts.front();
  const gert::Shape& es = first.GetShape();
  const ge::DataType dt = first.GetDataType();
  for (size_t t = 1; t < parts.size(); ++t) {
    if (parts[t].GetDataType() != dt || parts[t].GetShape() != es) {
      return ctx.Error(what, " ", out_index, ": iteration ", t, " produced ",
                       parts[t].GetShape().ToString(), " ", DataTypeName(parts[t].GetDataType()),
                       ", iteration 0 produced ", es.ToString(), " ", DataTypeName(dt),
                       " (scan outputs must keep their shape and dtype)");
    }
  }
  const int64_t rank = static_cast<int64_t>(es.GetDimNum()) + 1;
  ge::StatusOr<int64_t> a = NormalizeAxis(axis, rank);
  if (!a.ok()) return ctx.Error(what, " ", out_index, ": ", a.status().message());
  if (!es.CanAppend()) return ctx.Error(what, " ", out_index, ": rank too large");
  const int64_t len = static_cast<int64_t>(parts.size());
  gert::Shape out_shape;
  for (int64_t d = 0; d < rank; ++d) {
    if (d == *a) {
      out_shape.AppendDim(len);
    } else {
      out_shape.AppendDim(es.GetDim(static_cast<size_t>(d < *a ? d : d - 1)));
    }
  }
  int64_t outer = 1;
  int64_t inner = 1;
  for (size_t d = 0; d < es.GetDimNum(); ++d) {
    (static_cast<int64_t>(d) < *a ? outer : inner) *= es.GetDim(d);
  }
  ASSIGN_OR_RETURN(gert::Tensor * y, PrepareOutput(ctx, out_index, out_shape, dt));
  for (int64_t t = 0; t < len; ++t) {
    const int64_t pos = reverse ? len - 1 - t : t;
    const void* src = parts[static_cast<size_t>(t)].tensor().GetAddr();
    for (int64_t o = 0; o < outer; ++o) {
      RETURN_IF_ERROR(WithNode(
          ctx, CopyElements(dt, src, o * inner, y->GetAddr(), (o * len + pos) * inner, inner)));
    }
  }
  return ge::OkStatus();
}

// A scan output after zero iterations: [0] plus the element dims when the
// prepared output shape tells them; its prepared dtype (FLOAT if unknown).
ge::Status EmptyScanOutput(gert::KernelContext& ctx, size_t out_index, int64_t axis) {
  gert::Tensor* y = ctx.GetOutputTensor(out_index);
  if (y == nullptr) return ctx.Error("output ", out_index, " is missing");
  gert::Shape shape{0};
  const gert::Shape& prepared = y->GetShape();
  if (!prepared.IsUnknownRank() && prepared.GetDimNum() >= 1) {
    ge::StatusOr<int64_t> a = NormalizeAxis(axis, static_cast<int64_t>(prepared.GetDimNum()));
    bool known = a.ok();
    for (size_t d = 0; known && d < prepared.GetDimNum(); ++d) {
      if (static_cast<int64_t>(d) != *a && prepared.GetDim(d) < 0) known = false;
    }
    if (known) {
      shape = prepared;
      shape.SetDim(static_cast<size_t>(*a), 0);
    }
  }
  const ge::DataType dt = y->GetDataType() == ge::DT_UNDEFINED ? ge::DT_FLOAT : y->GetDataType();
  return PrepareOutput(ctx, out_index, shape, dt).status();
}

// The loop never terminates without M and cond; refuse instead of hanging.
constexpr char kInfiniteLoop[] = "has neither M nor cond: per ONNX the loop never terminates";

ge::Status LoopKernel(gert::KernelContext& ctx) {
  const size_t n = LoopCarriedNum(ctx.GetInputNum());
  if (ctx.GetOutputNum() < n) {
    return ctx.Error("has ", n, " loop-carried inputs but only ", ctx.GetOutputNum(), " outputs");
  }
  const size_t k = ctx.GetOutputNum() - n;
  const bool has_m = ctx.GetInputTensor(kLoopM) != nullptr;
  const bool has_cond = ctx.GetInputTensor(kLoopCond) != nullptr;
  int64_t max_trip = 0;
  bool cond = true;
  if (has_m) {
    ASSIGN_OR_RETURN(const gert::Tensor* m, GetKernelInput(ctx, kLoopM));
    ASSIGN_OR_RETURN(max_trip, ReadIntScalar(ctx, *m, "input 0 (M)"));
  }
  if (has_cond) {
    ASSIGN_OR_RETURN(const gert::Tensor* c, GetKernelInput(ctx, kLoopCond));
    ASSIGN_OR_RETURN(cond, ReadBoolScalar(ctx, *c, "input 1 (cond)"));
  }
  if (!has_m && !has_cond) return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, kInfiniteLoop);

  std::vector<const gert::Tensor*> carried(n);
  for (size_t j = 0; j < n; ++j) {
    ASSIGN_OR_RETURN(carried[j], GetKernelInput(ctx, kLoopFirstCarried + j));
  }
  ASSIGN_OR_RETURN(gert::HostTensor iter_t, NodeStatusOr(ctx, gert::HostTensor::Create(
                                                               ge::DT_INT64, gert::Shape())));
  ASSIGN_OR_RETURN(gert::HostTensor cond_t, NodeStatusOr(ctx, gert::HostTensor::Create(
                                                               ge::DT_BOOL, gert::Shape())));
  std::vector<const gert::Tensor*> body_in(2 + n);
  body_in[0] = &iter_t.tensor();
  body_in[1] = &cond_t.tensor();
  std::vector<gert::HostTensor> state;  // the previous iteration's outputs
  std::vector<gert::HostTensor> outs;
  std::vector<std::vector<gert::HostTensor>> scans(k);
  for (int64_t i = 0; (!has_m || i < max_trip) && (!has_cond || cond); ++i) {
    iter_t.MutableData<int64_t>()[0] = i;
    cond_t.MutableData<bool>()[0] = cond;
    for (size_t j = 0; j < n; ++j) body_in[2 + j] = carried[j];
    RETURN_IF_ERROR(RunSubgraph(ctx, 0, "body", body_in, 1 + n + k, &outs));
    if (has_cond) {
      ASSIGN_OR_RETURN(cond, ReadBoolScalar(ctx, outs[0].tensor(), "body output 0 (cond)"));
    }
    for (size_t j = 0; j < n; ++j) {
      const ge::DataType want = carried[j]->GetDataType();
      const ge::DataType got = outs[1 + j].GetDataType();
      if (got != want) {
        return ctx.ErrorWithCode(ge::ErrorCode::kTypeMismatch, "iteration ", i, ": body output ",
                                 1 + j, " (loop-carried value ", j, ") is ", DataTypeName(got),
                                 ", expected ", DataTypeName(want));
      }
    }
    for (size_t s = 0; s < k; ++s) scans[s].push_back(std::move(outs[1 + n + s]));
    state.swap(outs);  // keeps the carried values alive for the next iteration
    for (size_t j = 0; j < n; ++j) carried[j] = &state[1 + j].tensor();
  }
  for (size_t j = 0; j < n; ++j) RETURN_IF_ERROR(WriteOutput(ctx, j, *carried[j]));
  for (size_t s = 0; s < k; ++s) {
    if (scans[s].empty()) {
      RETURN_IF_ERROR(EmptyScanOutput(ctx, n + s, 0));
    } else {
      RETURN_IF_ERROR(StackOutput(ctx, n + s, "scan output", scans[s], 0, false));
    }
  }
  return ge::OkStatus();
}

// -------------------------------------------------------------------- Scan

struct ScanConfig {
  size_t n = 0;  // states
  size_t m = 0;  // scan inputs
  size_t k = 0;  // scan outputs
  std::vector<int64_t> in_axes, in_dirs, out_axes, out_dirs;
};

ge::StatusOr<std::vector<int64_t>> ListOrZeros(const gert::ContextBase& ctx, const char* name,
                                               size_t count, bool directions) {
  ASSIGN_OR_RETURN(std::vector<int64_t> v,
                   ctx.GetListIntOr(name, std::vector<int64_t>(count, 0)));
  if (v.empty() && count != 0) v.assign(count, 0);  // an empty list means "omitted"
  if (v.size() != count) {
    return ctx.Error("attribute ", name, " has ", v.size(), " entries, expected ", count);
  }
  if (directions) {
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] != 0 && v[i] != 1) {
        return ctx.Error("attribute ", name, "[", i, "] is ", v[i],
                         ", expected 0 (forward) or 1 (reverse)");
      }
    }
  }
  return v;
}

ge::StatusOr<ScanConfig> GetScanConfig(const gert::ContextBase& ctx, size_t input_num,
                                       size_t output_num) {
  ASSIGN_OR_RETURN(const int64_t m, ctx.GetInt("num_scan_inputs"));
  if (m < 1 || static_cast<uint64_t>(m) > input_num) {
    return ctx.Error("num_scan_inputs is ", m, ", expected 1..", input_num,
                     " (the number of inputs)");
  }
  ScanConfig c;
  c.m = static_cast<size_t>(m);
  c.n = input_num - c.m;
  if (output_num < c.n) {
    return ctx.Error("has ", c.n, " state inputs but only ", output_num, " outputs");
  }
  c.k = output_num - c.n;
  ASSIGN_OR_RETURN(c.in_axes, ListOrZeros(ctx, "scan_input_axes", c.m, false));
  ASSIGN_OR_RETURN(c.in_dirs, ListOrZeros(ctx, "scan_input_directions", c.m, true));
  ASSIGN_OR_RETURN(c.out_axes, ListOrZeros(ctx, "scan_output_axes", c.k, false));
  ASSIGN_OR_RETURN(c.out_dirs, ListOrZeros(ctx, "scan_output_directions", c.k, true));
  return c;
}

ge::Status VerifyScan(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(ScanConfig c, GetScanConfig(ctx, ctx.GetInputNum(), ctx.GetOutputNum()));
  int64_t len = -1;
  size_t len_from = 0;
  for (size_t j = 0; j < c.m; ++j) {
    const size_t idx = c.n + j;
    const gert::Shape* s = ctx.GetInputShape(idx);
    if (s == nullptr) return ctx.Error("scan input ", j, " (input ", idx, ") is missing");
    if (s->IsUnknownRank()) continue;
    if (s->GetDimNum() == 0) {
      return ctx.Error("scan input ", j, " (input ", idx, ") must have rank >= 1, got a scalar");
    }
    ge::StatusOr<int64_t> a = NormalizeAxis(c.in_axes[j], static_cast<int64_t>(s->GetDimNum()));
    if (!a.ok()) return ctx.Error("scan_input_axes[", j, "]: ", a.status().message());
    const int64_t d = s->GetDim(static_cast<size_t>(*a));
    if (d < 0) continue;
    if (len >= 0 && d != len) {
      return ctx.Error("scan input ", j, " has sequence length ", d, " but scan input ", len_from,
                       " has ", len);
    }
    len = d;
    len_from = j;
  }
  return ge::OkStatus();
}

ge::Status InferScan(gert::InferShapeContext& ctx) {
  ASSIGN_OR_RETURN(ScanConfig c, GetScanConfig(ctx, ctx.GetInputNum(), ctx.GetOutputNum()));
  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) {
    RETURN_IF_ERROR(SetUnknownOutput(ctx, i));
    if (i < c.n) {
      const gert::Shape* s = ctx.GetInputShape(i);
      if (s == nullptr) return ctx.Error("state input ", i, " is missing");
      *ctx.GetOutputShape(i) = *s;
      ctx.SetOutputDataType(i, ctx.GetInputDataType(i));
    }
  }
  return ApplyOutputHints(ctx);
}

// A slice of one scan input per iteration. Axis 0 slices are views into the
// input; other axes are copied into a reusable buffer.
struct ScanSlicer {
  const gert::Tensor* input = nullptr;
  int64_t axis = 0;
  bool reverse = false;
  int64_t outer = 1, inner = 1, len = 0;
  size_t elem_bytes = 0;  // 0 for object types (STRING)
  gert::Shape slice_shape;
  gert::HostTensor buffer;  // for axis != 0 or object types
  gert::Tensor view;

  const gert::Tensor* At(int64_t t, ge::Status* st) {
    const int64_t idx = reverse ? len - 1 - t : t;
    if (axis == 0 && elem_bytes != 0) {
      const size_t bytes = static_cast<size_t>(inner) * elem_bytes;
      auto* base = static_cast<uint8_t*>(const_cast<void*>(input->GetAddr()));
      view = gert::Tensor(slice_shape, input->GetDataType(),
                          base == nullptr ? nullptr : base + static_cast<size_t>(idx) * bytes,
                          bytes, input->GetFormat());
      return &view;
    }
    for (int64_t o = 0; o < outer; ++o) {
      *st = CopyElements(input->GetDataType(), input->GetAddr(), (o * len + idx) * inner,
                         buffer.tensor().GetAddr(), o * inner, inner);
      if (!st->ok()) return nullptr;
    }
    return &buffer.tensor();
  }
};

ge::Status ScanKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(ScanConfig c, GetScanConfig(ctx, ctx.GetInputNum(), ctx.GetOutputNum()));
  std::vector<ScanSlicer> slicers(c.m);
  int64_t len = -1;
  for (size_t j = 0; j < c.m; ++j) {
    ScanSlicer& sl = slicers[j];
    ASSIGN_OR_RETURN(sl.input, GetKernelInput(ctx, c.n + j));
    const gert::Shape& s = sl.input->GetShape();
    if (sl.input->GetDataType() == ge::DT_VARIANT) {
      return ctx.ErrorWithCode(ge::ErrorCode::kNotSupported, "scan input ", j,
                               " is a sequence / optional value; Scan takes tensors");
    }
    if (s.GetDimNum() == 0) {
      return ctx.Error("scan input ", j, " (input ", c.n + j,
                       ") must have rank >= 1, got a scalar");
    }
    ge::StatusOr<int64_t> a = NormalizeAxis(c.in_axes[j], static_cast<int64_t>(s.GetDimNum()));
    if (!a.ok()) return ctx.Error("scan_input_axes[", j, "]: ", a.status().message());
    sl.axis = *a;
    sl.reverse = c.in_dirs[j] == 1;
    sl.len = s.GetDim(static_cast<size_t>(sl.axis));
    if (len >= 0 && sl.len != len) {
      return ctx.Error("scan input ", j, " has sequence length ", sl.len, " but scan input 0 has ",
                       len);
    }
    len = sl.len;
    for (size_t d = 0; d < s.GetDimNum(); ++d) {
      const int64_t v = s.GetDim(d);
      if (static_cast<int64_t>(d) < sl.axis) sl.outer *= v;
      if (static_cast<int64_t>(d) > sl.axis) sl.inner *= v;
      if (static_cast<int64_t>(d) != sl.axis) sl.slice_shape.AppendDim(v);
    }
    const ge::DataType dt = sl.input->GetDataType();
    if (dt != ge::DT_STRING) {
      ASSIGN_OR_RETURN(sl.elem_bytes, NodeStatusOr(ctx, ElementBytes(dt)));
    }
    if (sl.axis != 0 || sl.elem_bytes == 0) {
      ASSIGN_OR_RETURN(sl.buffer, NodeStatusOr(ctx, gert::HostTensor::Create(dt, sl.slice_shape)));
    }
  }
  std::vector<const gert::Tensor*> states(c.n);
  for (size_t i = 0; i < c.n; ++i) {
    ASSIGN_OR_RETURN(states[i], GetKernelInput(ctx, i));
  }

  std::vector<const gert::Tensor*> body_in(c.n + c.m);
  std::vector<gert::HostTensor> state_owner;
  std::vector<gert::HostTensor> outs;
  std::vector<std::vector<gert::HostTensor>> scans(c.k);
  for (int64_t t = 0; t < len; ++t) {
    for (size_t i = 0; i < c.n; ++i) body_in[i] = states[i];
    for (size_t j = 0; j < c.m; ++j) {
      ge::Status st;
      body_in[c.n + j] = slicers[j].At(t, &st);
      if (body_in[c.n + j] == nullptr) return WithNode(ctx, st);
    }
    RETURN_IF_ERROR(RunSubgraph(ctx, 0, "body", body_in, c.n + c.k, &outs));
    for (size_t i = 0; i < c.n; ++i) {
      const gert::Tensor& want = *states[i];
      const gert::HostTensor& got = outs[i];
      if (got.GetDataType() != want.GetDataType() || got.GetShape() != want.GetShape()) {
        return ctx.Error("iteration ", t, ": body output ", i, " (state ", i, ") is ",
                         got.GetShape().ToString(), " ", DataTypeName(got.GetDataType()),
                         ", expected ", want.GetShape().ToString(), " ",
                         DataTypeName(want.GetDataType()), " (states keep shape and dtype)");
      }
    }
    for (size_t s = 0; s < c.k; ++s) scans[s].push_back(std::move(outs[c.n + s]));
    state_owner.swap(outs);
    for (size_t i = 0; i < c.n; ++i) states[i] = &state_owner[i].tensor();
  }
  for (size_t i = 0; i < c.n; ++i) RETURN_IF_ERROR(WriteOutput(ctx, i, *states[i]));
  for (size_t s = 0; s < c.k; ++s) {
    if (scans[s].empty()) {
      RETURN_IF_ERROR(EmptyScanOutput(ctx, c.n + s, c.out_axes[s]));
    } else {
      RETURN_IF_ERROR(
          StackOutput(ctx, c.n + s, "scan output", scans[s], c.out_axes[s], c.out_dirs[s] == 1));
    }
  }
  return ge::OkStatus();
}

// ------------------------------------------------------------ registration

REG_OP(If)
    .Input("cond", ge::TensorType({ge::DT_BOOL}))
    .DynamicInput("input", ControlValueTypes())
    .DynamicOutput("output", ControlValueTypes())
    .Subgraph("then_branch")
    .Subgraph("else_branch")
    .Verify(VerifyIf)
    .InferDataType(InferAllUnknown)
    .InferShape(InferAllUnknown)
    .DataDependentOutputShape();
REG_KERNEL(If, ge::kEngineHostCpu).Fn(IfKernel);

REG_OP(Loop)
    .OptionalInput("M", ge::TensorType({ge::DT_INT64}))
    .OptionalInput("cond", ge::TensorType({ge::DT_BOOL}))
    .DynamicInput("v_initial", ControlValueTypes())
    .DynamicOutput("v_final_and_scan_outputs", ControlValueTypes())
    .Subgraph("body")
    .Verify(VerifyLoop)
    .InferDataType(InferLoop)
    .InferShape(InferLoop)
    .DataDependentOutputShape();
REG_KERNEL(Loop, ge::kEngineHostCpu).Fn(LoopKernel);

REG_OP(Scan)
    .DynamicInput("initial_state_and_scan_inputs", ControlTensorTypes())
    .DynamicOutput("final_state_and_scan_outputs", ControlTensorTypes())
    .RequiredAttr("num_scan_inputs", ge::AttrValue::VT_INT)
    .Attr("scan_input_axes", ge::AttrValue::CreateFrom<std::vector<int64_t>>({}))
    .Attr("scan_input_directions", ge::AttrValue::CreateFrom<std::vector<int64_t>>({}))
    .Attr("scan_output_axes", ge::AttrValue::CreateFrom<std::vector<int64_t>>({}))
    .Attr("scan_output_directions", ge::AttrValue::CreateFrom<std::vector<int64_t>>({}))
    .Subgraph("body")
    .Verify(VerifyScan)
    .InferDataType(InferScan)
    .InferShape(InferScan)
    .DataDependentOutputShape();
REG_KERNEL(Scan, ge::kEngineHostCpu).Fn(ScanKernel);

}  // namespace
}  // namespace ops
