// compiler/passes/refine_running_precision_pass.cc
#include "compiler/passes/refine_running_precision_pass.h"

#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "compiler/passes/const_value_util.h"
#include "compiler/passes/pass_framework/graph_rewriter.h"
#include "compiler/passes/pass_framework/pass_registry.h"
#include "compiler/passes/pass_utils.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_utils.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/element_types.h"

namespace ge {
namespace {

constexpr char kCast[] = "Cast";
constexpr char kOpTypePrefix[] = "OpType::";

struct ModeName {
  const char* text;
  PrecisionMode mode;
};
// GE's spellings; the "lowerprecision" / "_bf16" ones are its later names
// for the same modes.
constexpr ModeName kModeNames[] = {
    {"must_keep_origin_dtype", PrecisionMode::kMustKeepOriginDtype},
    {"allow_fp32_to_fp16", PrecisionMode::kAllowFp32ToFp16},
    {"force_fp32", PrecisionMode::kForceFp32},
    {"force_fp16", PrecisionMode::kForceFp16},
    {"force_lowerprecision", PrecisionMode::kForceFp16},
    {"allow_mix_precision", PrecisionMode::kAllowMixPrecision},
    {"allow_mix_precision_bf16", PrecisionMode::kAllowMixPrecision},
};

// Mixed precision's lists (GE's ops info "precision_reduce" true / false).
bool IsWhite(const std::string& t) {
  return t == "Conv" || t == "ConvTranspose" || t == "MatMul" || t == "Gemm";
}
bool IsBlack(const std::string& t) {
  static const auto* const kBlack =
      new absl::flat_hash_set<std::string>{"Softmax",
                                           "LogSoftmax",
                                           "Hardmax",
                                           "BatchNormalization",
                                           "InstanceNormalization",
                                           "LayerNormalization",
                                           "GroupNormalization",
                                           "LpNormalization",
                                           "MeanVarianceNormalization",
                                           "LRN",
                                           "ReduceSum",
                                           "ReduceMean",
                                           "ReduceProd",
                                           "ReduceL1",
                                           "ReduceL2",
                                           "ReduceLogSum",
                                           "ReduceLogSumExp",
                                           "ReduceSumSquare",
                                           "ReduceMax",
                                           "ReduceMin",
                                           "Exp",
                                           "Log",
                                           "Pow",
                                           "Sqrt",
                                           "Reciprocal",
                                           "Erf",
                                           "Div",
                                           "CumSum",
                                           "Einsum",
                                           "SoftmaxCrossEntropyLoss",
                                           "NegativeLogLikelihoodLoss"};
  return kBlack->contains(t);
}
// Gray ops a node may run in BF16 on the host engine: they only move data,
// so BF16 there costs no precision and no slow arithmetic.
bool MovesDataOnly(const std::string& t) {
  static const auto* const kMoves = new absl::flat_hash_set<std::string>{
      "Reshape",   "Flatten", "Squeeze", "Unsqueeze",    "Identity",
      "Transpose", "Concat",  "Split",   "Slice",        "Expand",
      "Tile",      "Gather",  "Pad",     "DepthToSpace", "SpaceToDepth"};
  return kMoves->contains(t);
}

bool NeverRetyped(const Node& n) {
  const std::string& t = n.GetType();
  return t == DATA || t == CONSTANT || t == CONSTANTOP || t == NETOUTPUT || t == kCast ||
         t == "CastLike" || !n.GetOpDescBarePtr()->GetSubgraphInstanceNames().empty();
}

const Node* Producer(const Node& n, uint32_t i) {
  const InDataAnchorPtr in = n.GetInDataAnchor(static_cast<int32_t>(i));
  if (in == nullptr || in->GetPeerOutAnchor() == nullptr) return nullptr;
  return in->GetPeerOutAnchor()->GetOwnerNode().get();
}

// The data types a mode retypes, and the type they become.
struct Retyping {
  std::vector<DataType> from;
  DataType to = DT_FLOAT;
  bool Takes(DataType dt) const {
    for (DataType f : from) {
      if (f == dt) return true;
    }
    return false;
  }
};

// What retyping one node changes.
struct Plan {
  std::vector<uint32_t> inputs;
  std::vector<uint32_t> outputs;
};

// The node's retypable inputs and outputs, or false when it has none.
bool PlanFor(const Node& n, const Retyping& r, Plan* p) {
  const OpDesc& op = *n.GetOpDescBarePtr();
  for (uint32_t i = 0; i < op.GetAllInputsSize(); ++i) {
    const GeTensorDesc* d = op.GetInputDescBarePtr(i);
    if (d != nullptr && Producer(n, i) != nullptr && r.Takes(d->GetDataType())) {
      p->inputs.push_back(i);
    }
  }
  for (uint32_t i = 0; i < op.GetAllOutputsDescSize(); ++i) {
    const GeTensorDesc* d = op.GetOutputDescBarePtr(i);
    if (d != nullptr && r.Takes(d->GetDataType())) p->outputs.push_back(i);
  }
  // A node without a retypable input takes its output type from an
  // attribute or from nothing (RandomNormal, ConstantOfShape): kept.
  return !p->inputs.empty() && !p->outputs.empty();
}

// Whether `n` may run with plan `p` applied: its registration takes the new
// input types and infers the new type for exactly the planned outputs, with
// the same shapes; a node the compute engine takes must stay on it; with
// `gray`, a node the compute engine would not take moves data only.
bool Eligible(const Node& n, const Plan& p, const Retyping& r, bool gray) {
  const OpDesc& op = *n.GetOpDescBarePtr();
  OpDesc trial(op);
  for (uint32_t i : p.inputs) trial.MutableInputDesc(i)->SetDataType(r.to);
  // Values of the Const producers of inputs that keep their type (shape
  // inputs of Reshape, Slice, ...); retyped ones would be read wrongly.
  const uint32_t n_in = op.GetAllInputsSize();
  std::vector<gert::Tensor> views(n_in);
  std::vector<const gert::Tensor*> consts(n_in, nullptr);
  for (uint32_t i = 0; i < n_in; ++i) {
    const Node* src = Producer(n, i);
    if (src == nullptr || !IsConstNode(*src)) continue;
    bool retyped = false;
    for (uint32_t j : p.inputs) retyped = retyped || j == i;
    if (retyped) continue;
    StatusOr<gert::Tensor> v = GetConstInputView(n, static_cast<int32_t>(i));
    if (!v.ok()) continue;
    views[i] = *v;
    consts[i] = &views[i];
  }
  if (!InferShapeAndTypeForOpDesc(trial, consts).ok()) return false;
  for (uint32_t o = 0; o < op.GetAllOutputsDescSize(); ++o) {
    const GeTensorDesc* before = op.GetOutputDescBarePtr(o);
    const GeTensorDesc* after = trial.GetOutputDescBarePtr(o);
    if (before == nullptr || after == nullptr) continue;
    bool planned = false;
    for (uint32_t j : p.outputs) planned = planned || j == o;
    const DataType want = planned ? r.to : before->GetDataType();
    if (after->GetDataType() != want) return false;
    if (after->GetShape().GetDims() != before->GetShape().GetDims()) return false;
  }
  const KernelDef* dev = FindKernel(op.GetType(), kEngineAiCore);
  const bool dev_before = dev != nullptr && dev->CheckSupported(op).ok();
  const bool dev_after = dev != nullptr && dev->CheckSupported(trial).ok();
  if (dev_before && !dev_after) return false;
  if (gray && !dev_after && !MovesDataOnly(op.GetType())) return false;
  return true;
}

void SetType(GeTensorDesc* d, DataType dt) {
  if (d->GetFormat() == d->GetOriginFormat()) d->SetOriginDataType(dt);
  d->SetDataType(dt);
}

// `v` (FLOAT, FLOAT16 or BF16) converted to `to` (FLOAT or BF16), rounding
// to nearest even as the Cast kernel does.
StatusOr<gert::HostTensor> Converted(const gert::HostTensor& v, DataType to) {
  ASSIGN_OR_RETURN(gert::HostTensor out, gert::HostTensor::Create(to, v.GetShape()));
  const int64_t n = v.GetShape().GetShapeSize();
  const DataType from = v.GetDataType();
  auto read = [&](int64_t i) -> float {
    if (from == DT_FLOAT) return v.GetData<float>()[i];
    const uint16_t bits = v.GetData<uint16_t>()[i];
    return from == DT_BF16 ? ops::Bf16ToFloat(bits) : ops::Fp16ToFloat(bits);
  };
  if (from != DT_FLOAT && from != DT_BF16 && from != DT_FLOAT16) {
    return NotSupported("converting a ", TypeUtils::DataTypeToSerialString(from), " constant");
  }
  if (to == DT_FLOAT) {
    float* dst = out.MutableData<float>();
    for (int64_t i = 0; i < n; ++i) dst[i] = read(i);
  } else if (to == DT_BF16) {
    uint16_t* dst = out.MutableData<uint16_t>();
    for (int64_t i = 0; i < n; ++i) dst[i] = ops::FloatToBf16(read(i));
  } else {
    return NotSupported("converting a constant to ", TypeUtils::DataTypeToSerialString(to));
  }
  return out;
}

// "bf16" for DT_BF16 (Cast names).
std::string TypeName(DataType dt) {
  std::string s = absl::AsciiStrToLower(TypeUtils::DataTypeToSerialString(dt));
  return absl::StartsWith(s, "dt_") ? s.substr(3) : s;
}

}  // namespace

std::vector<std::string> PrecisionModeNames() {
  std::vector<std::string> names;
  for (const ModeName& m : kModeNames) names.emplace_back(m.text);
  return names;
}

StatusOr<PrecisionMode> ParsePrecisionMode(absl::string_view text) {
  if (text.empty()) return PrecisionMode::kMustKeepOriginDtype;
  for (const ModeName& m : kModeNames) {
    if (text == m.text) return m.mode;
  }
  return ParamInvalid("precision_mode '", text,
                      "' is not one of: ", absl::StrJoin(PrecisionModeNames(), ", "));
}

StatusOr<std::vector<std::string>> ParseKeepDtypeList(absl::string_view text) {
  std::vector<std::string> entries;
  int line_no = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_no;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || absl::StartsWith(line, "#")) continue;
    if (line == kOpTypePrefix) {
      return ParamInvalid("keep_dtype line ", line_no, ": '", kOpTypePrefix, "' names no op type");
    }
    entries.emplace_back(line);
  }
  return entries;
}

void RefineRunningPrecisionPass::Configure(const PassSettings& settings) {
  mode_text_ = settings.precision_mode;
  keep_dtype_ = settings.keep_dtype;
}

StatusOr<bool> RefineRunningPrecisionPass::RunImpl(const ComputeGraphPtr& graph) {
  retyped_ = 0;
  inserted_ = 0;
  converted_ = 0;
  ASSIGN_OR_RETURN(PrecisionMode mode, ParsePrecisionMode(mode_text_));
  // The keep list: node names (each must name a node) and op types.
  absl::flat_hash_set<std::string> keep_names, keep_types;
  for (const std::string& e : keep_dtype_) {
    if (absl::StartsWith(e, kOpTypePrefix)) {
      keep_types.insert(e.substr(sizeof(kOpTypePrefix) - 1));
    } else {
      keep_names.insert(e);
    }
  }
  if (!keep_names.empty()) {
    absl::flat_hash_set<std::string> names;
    for (const Node* n : graph->GetAllNodesPtr()) names.insert(n->GetName());
    for (const std::string& e : keep_dtype_) {
      if (!absl::StartsWith(e, kOpTypePrefix) && !names.contains(e)) {
        return ParamInvalid("keep_dtype: graph '", graph->GetName(), "' has no node named '", e,
                            "'");
      }
    }
  }
  Retyping r;
  switch (mode) {
    case PrecisionMode::kMustKeepOriginDtype:
    case PrecisionMode::kAllowFp32ToFp16:
      return false;
    case PrecisionMode::kForceFp32:
      r.from = {DT_FLOAT16, DT_BF16};
      r.to = DT_FLOAT;
      break;
    case PrecisionMode::kForceFp16:
    case PrecisionMode::kAllowMixPrecision:
      r.from = {DT_FLOAT};
      r.to = DT_BF16;
      break;
  }
  const bool mix = mode == PrecisionMode::kAllowMixPrecision;

  // Retyping, in graph order: a gray node sees its producers' final types.
  std::vector<NodePtr> nodes(graph->DirectNodes().begin(), graph->DirectNodes().end());
  absl::flat_hash_set<const Node*> retyped;
  GraphRewriter rw(graph);
  for (const NodePtr& n : nodes) {
    if (NeverRetyped(*n) || keep_names.contains(n->GetName()) ||
        keep_types.contains(n->GetType())) {
      continue;
    }
    Plan p;
    if (!PlanFor(*n, r, &p)) continue;
    bool gray = false;
    if (mix && !IsWhite(n->GetType())) {
      if (IsBlack(n->GetType())) continue;
      gray = true;
      // Every non-constant retypable input must already come in BF16: its
      // producer was retyped (which retypes every FLOAT output).
      bool all_reduced = true, any_activation = false;
      for (uint32_t i : p.inputs) {
        const Node* src = Producer(*n, i);
        if (IsConstNode(*src)) continue;
        any_activation = true;
        all_reduced = all_reduced && retyped.contains(src);
      }
      if (!any_activation || !all_reduced) continue;
    }
    if (!Eligible(*n, p, r, gray)) continue;
    const OpDesc* op = n->GetOpDescBarePtr();
    for (uint32_t i : p.inputs) {
      GeTensorDesc d = op->GetInputDesc(i);
      SetType(&d, r.to);
      RETURN_IF_ERROR(rw.UpdateInputDesc(n, i, d));
    }
    for (uint32_t o : p.outputs) {
      GeTensorDesc d = op->GetOutputDesc(o);
      SetType(&d, r.to);
      RETURN_IF_ERROR(rw.UpdateOutputDesc(n, o, d));
    }
    retyped.insert(n.get());
    ++retyped_;
  }
  if (retyped.empty()) return false;

  // Where an edge's ends now disagree: a constant producer gets a converted
  // copy (the weights are stored in the new type; the original goes when
  // nothing else reads it), any other a Cast right after it; one per
  // (producer output, target type).
  std::map<std::tuple<std::string, int32_t, DataType>, NodePtr> casts;
  for (const NodePtr& n : nodes) {
    const OpDesc* op = n->GetOpDescBarePtr();
    for (uint32_t i = 0; i < op->GetAllInputsSize(); ++i) {
      const InDataAnchorPtr in = n->GetInDataAnchor(static_cast<int32_t>(i));
      if (in == nullptr || in->GetPeerOutAnchor() == nullptr) continue;
      const OutDataAnchorPtr src = in->GetPeerOutAnchor();
      const NodePtr p = src->GetOwnerNode();
      if (!retyped.contains(p.get()) && !retyped.contains(n.get())) continue;
      const GeTensorDesc* out =
          p->GetOpDescBarePtr()->GetOutputDescBarePtr(static_cast<uint32_t>(src->GetIdx()));
      const GeTensorDesc* want = op->GetInputDescBarePtr(i);
      if (out == nullptr || want == nullptr || out->GetDataType() == want->GetDataType()) continue;
      const DataType to = want->GetDataType();
      NodePtr& cast = casts[std::make_tuple(p->GetName(), src->GetIdx(), to)];
      if (cast == nullptr && IsConstNode(*p)) {
        ASSIGN_OR_RETURN(gert::HostTensor value, GetConstNodeValue(*p));
        ASSIGN_OR_RETURN(gert::HostTensor converted, Converted(value, to));
        ASSIGN_OR_RETURN(OpDescPtr const_op,
                         MakeConstOpDesc(UniqueName(*graph, absl::StrCat(p->GetName(), "_", TypeName(to))),
                                         converted));
        ASSIGN_OR_RETURN(cast, rw.AddNodeAfter(p, const_op));
        ++converted_;
      }
      if (cast == nullptr) {
        auto cast_op = std::make_shared<OpDesc>(
            UniqueName(*graph,
                       absl::StrCat(p->GetName(), "_", src->GetIdx(), "_to_", TypeName(to))),
            kCast);
        GeTensorDesc cast_in = *out;
        GeTensorDesc cast_out = *out;
        SetType(&cast_out, to);
        RETURN_IF_ERROR(cast_op->AddInputDesc("input", cast_in));
        RETURN_IF_ERROR(cast_op->AddOutputDesc("output", cast_out));
        RETURN_IF_ERROR(AttrUtils::SetDataType(*cast_op, "to", to));
        ASSIGN_OR_RETURN(cast, rw.AddNodeAfter(p, cast_op));
        RETURN_IF_ERROR(rw.LinkData(p, src->GetIdx(), cast, 0));
        ++inserted_;
      }
      RETURN_IF_ERROR(rw.ReplaceInput(in, cast->GetOutDataAnchor(0)));
    }
  }
  return true;
}

GE_REGISTER_GRAPH_PASS(RefineRunningPrecisionPass);

}  // namespace ge
