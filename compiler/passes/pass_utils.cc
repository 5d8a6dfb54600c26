// compiler/passes/pass_utils.cc
#include "compiler/passes/pass_utils.h"

#include <cstring>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "graph/inc/graph/anchor.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_attr_define.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/inc/graph/op_types.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/register/inc/register/op_registry.h"

namespace ge {
namespace {

using TypeSet = absl::flat_hash_set<absl::string_view>;

const TypeSet& DataLikeTypes() {
  static const TypeSet* s = new TypeSet{DATA, REFDATA, AIPPDATA};
  return *s;
}

const TypeSet& VariableTypes() {
  static const TypeSet* s = new TypeSet{VARIABLE, VARIABLEV2, VARHANDLEOP, REFDATA};
  return *s;
}

const TypeSet& ControlFlowTypes() {
  static const TypeSet* s = new TypeSet{"Switch",
                                        "RefSwitch",
                                        "Merge",
                                        "RefMerge",
                                        "Enter",
                                        "RefEnter",
                                        "Exit",
                                        "RefExit",
                                        "NextIteration",
                                        "RefNextIteration",
                                        "LoopCond",
                                        "StreamSwitch",
                                        "StreamSwitchN",
                                        "StreamMerge",
                                        "StreamActive",
                                        "LabelSet",
                                        "LabelGoto",
                                        "LabelGotoEx",
                                        "LabelSwitchByIndex",
                                        IF,
                                        "StatelessIf",
                                        WHILE,
                                        "StatelessWhile",
                                        CASE,
                                        "Loop",
                                        "Scan",
                                        "For",
                                        PARTITIONEDCALL,
                                        "StatefulPartitionedCall",
                                        "SequenceMap"};
  return *s;
}

bool SubgraphsHaveSideEffects(const Node& node, int depth) {
  const ComputeGraph* owner = node.GetOwnerComputeGraphBarePtr();
  if (owner == nullptr || depth > 64) return depth > 64;  // absurd nesting: be safe
  for (const std::string& inst : node.GetOpDescBarePtr()->GetSubgraphInstanceNames()) {
    if (inst.empty()) continue;
    ComputeGraphPtr sub = owner->GetSubgraph(inst);
    if (sub == nullptr) continue;
    for (const NodePtr& inner : sub->DirectNodes()) {
      if (IsSideEffectType(inner->GetType())) return true;
      const AttrValue* flag = inner->GetOpDescBarePtr()->GetAttr(kAttrHasSideEffect);
      if (flag != nullptr && flag->Get<bool>() != nullptr && *flag->Get<bool>()) return true;
      if (SubgraphsHaveSideEffects(*inner, depth + 1)) return true;
    }
  }
  return false;
}

uint32_t ComputeTypeClass(const std::string& type) {
  uint32_t c = 0;
  if (IsDataLikeType(type)) c |= kOpTypeDataLike;
  if (IsConstType(type)) c |= kOpTypeConst;
  if (IsVariableType(type)) c |= kOpTypeVariable;
  if (IsControlFlowType(type)) c |= kOpTypeControlFlow;
  if (IsSideEffectType(type)) c |= kOpTypeSideEffect;
  if (IsRandomType(type)) c |= kOpTypeRandom;
  if (type == NETOUTPUT) c |= kOpTypeNetOutput;
  return c;
}

}  // namespace

uint32_t OpTypeClassOf(const Node& node) {
  // Interned types live as long as the process: their addresses are keys.
  struct Cache {
    const std::string* last = nullptr;
    uint32_t last_class = 0;
    absl::flat_hash_map<const std::string*, uint32_t> classes;
  };
  thread_local Cache cache;
  const std::string* type = node.GetOpDescBarePtr()->GetInternedType();
  if (type == cache.last && type != nullptr) return cache.last_class;
  if (type == nullptr) return ComputeTypeClass(node.GetType());
  auto it = cache.classes.find(type);
  const uint32_t c = it != cache.classes.end()
                         ? it->second
                         : cache.classes.emplace(type, ComputeTypeClass(*type)).first->second;
  cache.last = type;
  cache.last_class = c;
  return c;
}

bool IsDataLikeType(absl::string_view type) { return DataLikeTypes().contains(type); }
bool IsConstType(absl::string_view type) { return type == CONSTANT || type == CONSTANTOP; }
bool IsVariableType(absl::string_view type) { return VariableTypes().contains(type); }
bool IsControlFlowType(absl::string_view type) { return ControlFlowTypes().contains(type); }
bool IsSideEffectType(absl::string_view type) { return OpTraitsOf(type).Has(kOpTraitSideEffect); }
bool IsRandomType(absl::string_view type) { return OpTraitsOf(type).Has(kOpTraitRandom); }

bool HasSideEffects(const Node& node) {
  if ((OpTypeClassOf(node) & kOpTypeSideEffect) != 0) return true;
  const AttrValue* flag = node.GetOpDescBarePtr()->GetAttr(kAttrHasSideEffect);
  if (flag != nullptr && flag->Get<bool>() != nullptr && *flag->Get<bool>()) return true;
  return SubgraphsHaveSideEffects(node, 0);
}

bool IsNonDeterministic(const Node& node) {
  return (OpTypeClassOf(node) & kOpTypeRandom) != 0 || HasSideEffects(node);
}

bool HasControlEdges(const Node& node) {
  if (node.GetInControlAnchorBarePtr()->IsLinked()) return true;
  if (node.GetOutControlAnchorBarePtr()->IsLinked()) return true;
  for (size_t i = 0; i < node.GetAllInDataAnchorsSize(); ++i) {
    for (const Anchor* peer : node.GetInDataAnchorBarePtr(static_cast<int32_t>(i))->PeerAnchors()) {
      if (peer->IsOutControl()) return true;
    }
  }
  for (size_t i = 0; i < node.GetAllOutDataAnchorsSize(); ++i) {
    for (const Anchor* peer :
         node.GetOutDataAnchorBarePtr(static_cast<int32_t>(i))->PeerAnchors()) {
      if (peer->IsInControl()) return true;
    }
  }
  return false;
}

bool IsStaticShape(const GeShape& shape) {
  if (shape.IsUnknownDimNum()) return false;
  for (int64_t d : shape.GetDimsSpan()) {
    if (d < 0) return false;
  }
  return true;
}

OutDataAnchor* ProducerOf(const Node& node, int32_t index) {
  const InDataAnchor* in = node.GetInDataAnchorBarePtr(index);
  return in == nullptr ? nullptr : in->GetPeerOutAnchorPtr();
}

const GeTensor* ConstWeights(const Node& node) {
  if (!IsConstType(node.GetType())) return nullptr;
  const AttrValue* v = node.GetOpDescBarePtr()->GetAttr(ATTR_NAME_WEIGHTS);
  return v == nullptr ? nullptr : v->Get<GeTensor>();
}

std::optional<std::vector<int64_t>> ConstIntInput(const Node& node, int32_t index) {
  const OutDataAnchor* producer = ProducerOf(node, index);
  if (producer == nullptr) return std::nullopt;
  const GeTensor* w = ConstWeights(*producer->GetOwnerNodeBarePtr());
  if (w == nullptr) return std::nullopt;
  const DataType dt = w->GetTensorDesc().GetDataType();
  const size_t elem = dt == DT_INT64 ? 8 : dt == DT_INT32 ? 4 : 0;
  if (elem == 0) return std::nullopt;
  StatusOr<int64_t> count = w->GetTensorDesc().GetShape().GetShapeSize();
  absl::Span<const uint8_t> bytes = w->GetData();
  if (!count.ok() || *count < 0 || bytes.size() != static_cast<size_t>(*count) * elem) {
    return std::nullopt;
  }
  std::vector<int64_t> values(static_cast<size_t>(*count));
  for (size_t i = 0; i < values.size(); ++i) {
    if (elem == 8) {
      std::memcpy(&values[i], bytes.data() + i * 8, 8);
    } else {
      int32_t v;
      std::memcpy(&v, bytes.data() + i * 4, 4);
      values[i] = v;
    }
  }
  return values;
}

std::optional<DataType> DataTypeAttr(const OpDesc& op, absl::string_view name) {
  const AttrValue* v = op.GetAttr(name);
  if (v == nullptr) return std::nullopt;
  if (const DataType* dt = v->Get<DataType>()) return *dt;
  if (const int64_t* i = v->Get<int64_t>()) {
    if (*i >= 0 && *i <= INT32_MAX && TypeUtils::IsDataTypeValid(static_cast<int32_t>(*i))) {
      return static_cast<DataType>(*i);
    }
  }
  return std::nullopt;
}

std::string UniqueName(const ComputeGraph& graph, const std::string& base) {
  if (graph.FindNode(base) == nullptr) return base;
  for (int i = 1;; ++i) {
    std::string n = absl::StrCat(base, "_", i);
    if (graph.FindNode(n) == nullptr) return n;
  }
}

}  // namespace ge
