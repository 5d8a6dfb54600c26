// compiler/passes/refine_running_precision_pass.h
//
// RefineRunningPrecisionPass (seed 002's RefineRunningPrecision; atc
// --precision_mode, ge.exec.precision_mode, and --keep_dtype). It runs first
// in Stage 1, so the later passes and placement see the final types.
//
// On this hardware the reduced type is BF16 (FLOAT accumulation in the
// compute engine's convolutions and matrix products); GE's "fp16" modes
// mean BF16 here. The modes:
//   must_keep_origin_dtype  (default) every node keeps its type;
//   allow_fp32_to_fp16      FLOAT stays FLOAT where an op supports FLOAT,
//                           which every op here does: no change;
//   force_fp32              FLOAT16 / BF16 nodes run in FLOAT where the op
//                           takes FLOAT;
//   force_fp16              every FLOAT node whose op takes BF16 runs in BF16;
//   allow_mix_precision     the compute-bound ops (white list: Conv,
//                           ConvTranspose, MatMul, Gemm) run in BF16; the
//                           precision-sensitive ones (black list: softmax,
//                           normalisations, reductions, Exp, Log, Pow, Sqrt,
//                           Reciprocal, Erf, Div) stay FLOAT; every other op
//                           (gray) runs in BF16 when all its non-constant
//                           FLOAT inputs already come in BF16, so chains such
//                           as Conv -> Relu -> MaxPool -> Conv need no Cast.
//
// A node is retyped only when nothing stops it: its op registration takes
// the new type on the retyped inputs (CheckOpDescAgainstRegistration); a
// node the compute engine takes in the old type must still be taken in the
// new one (KernelDef::CheckSupported), and a gray node the compute engine
// cannot take runs on the host only when it merely moves data (Reshape,
// Transpose, Concat, ...). Nodes with subgraphs, Cast, Data, Const and
// NetOutput are never retyped, nor nodes named by keep_dtype (a node name, or
// "OpType::<type>" for every node of a type).
//
// Casts: after retyping, every data edge whose two ends disagree gets a
// Cast, one per (producer output, target type) shared by its consumers;
// a Const producer instead gets a converted copy of its value (weights are
// stored in BF16, whatever their size: constant folding caps what it
// folds). The graph's inputs and outputs keep their types.
//
// Deterministic: nodes are visited in the graph's (topological) order and
// Casts named after their producer.
#ifndef COMPILER_PASSES_REFINE_RUNNING_PRECISION_PASS_H_
#define COMPILER_PASSES_REFINE_RUNNING_PRECISION_PASS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "compiler/passes/pass_framework/graph_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

enum class PrecisionMode : int32_t {
  kMustKeepOriginDtype = 0,
  kAllowFp32ToFp16 = 1,
  kForceFp32 = 2,
  kForceFp16 = 3,
  kAllowMixPrecision = 4,
};

// GE's spelling ("" is the default) -> mode; ParamInvalid listing the values.
StatusOr<PrecisionMode> ParsePrecisionMode(absl::string_view text);
// Every spelling ParsePrecisionMode takes (the ge.* option table's list).
std::vector<std::string> PrecisionModeNames();

// A keep_dtype list's text: one entry per line (a node name, or
// "OpType::<type>"); blank lines and lines starting with '#' are skipped.
// ParamInvalid naming the line for "OpType::" without a type.
StatusOr<std::vector<std::string>> ParseKeepDtypeList(absl::string_view text);

class RefineRunningPrecisionPass : public GraphPass {
 public:
  absl::string_view name() const override { return "RefineRunningPrecisionPass"; }
  void Configure(const PassSettings& settings) override;

  // Nodes retyped, Casts inserted and constants converted (last Run).
  int64_t retyped_nodes() const { return retyped_; }
  int64_t inserted_casts() const { return inserted_; }
  int64_t converted_constants() const { return converted_; }

 protected:
  StatusOr<bool> RunImpl(const ComputeGraphPtr& graph) override;

 private:
  std::string mode_text_;
  std::vector<std::string> keep_dtype_;
  int64_t retyped_ = 0;
  int64_t inserted_ = 0;
  int64_t converted_ = 0;
};

}  // namespace ge

#endif  // COMPILER_PASSES_REFINE_RUNNING_PRECISION_PASS_H_
