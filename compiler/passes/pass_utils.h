// compiler/passes/pass_utils.h
//
// Node classification shared by the graph passes: which op types are graph
// inputs, constants, variables, control flow, which nodes have side effects
// (must not be removed) and which are non-deterministic (must not be merged),
// plus small desc / constant helpers.
//
// Side effects (HasSideEffects): an op type whose registration declares
// the SideEffect trait (OpTraitsOf: communication, assignment, printing,
// stream / label control, variables, which hold state), a node whose OpDesc
// carries the bool attribute kAttrHasSideEffect = true, or a node whose
// subgraphs (recursively) contain such a node.
//
// Non-determinism (IsNonDeterministic): op types with the Random trait and
// nodes with side effects; two such nodes with equal inputs may produce
// different values.
//
// The traits come from the op registry: a binary answers for the op types
// it links (the op families, and //ops/internal for the framework types
// the library does not define).
//
// Example
//   if (HasSideEffects(*node) || IsDataLikeType(node->GetType())) continue;
#ifndef COMPILER_PASSES_PASS_UTILS_H_
#define COMPILER_PASSES_PASS_UTILS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/graph_fwd.h"
#include "graph/inc/graph/node.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {

// Bool OpDesc attribute: the node has a side effect the type does not show.
inline constexpr char kAttrHasSideEffect[] = "_has_side_effect";

bool IsDataLikeType(absl::string_view type);     // Data, RefData, AippData
bool IsConstType(absl::string_view type);        // Const, Constant
bool IsVariableType(absl::string_view type);     // Variable, VariableV2, VarHandleOp, RefData
bool IsControlFlowType(absl::string_view type);  // Switch/Merge/Enter/..., If/While/Case/...
bool IsSideEffectType(absl::string_view type);   // the SideEffect trait
bool IsRandomType(absl::string_view type);       // the Random trait

// The classes above as bits, for the op type of a node: computed once per
// interned op type (per thread), so a per-node test is one pointer lookup
// instead of hashing the type name once per class.
enum OpTypeClass : uint32_t {
  kOpTypeDataLike = 1u << 0,
  kOpTypeConst = 1u << 1,
  kOpTypeVariable = 1u << 2,
  kOpTypeControlFlow = 1u << 3,
  kOpTypeSideEffect = 1u << 4,
  kOpTypeRandom = 1u << 5,
  kOpTypeNetOutput = 1u << 6,
};
uint32_t OpTypeClassOf(const Node& node);

bool HasSideEffects(const Node& node);
bool IsNonDeterministic(const Node& node);

// True when the node has any control edge: in-control or out-control peers,
// data -> control consumers, or control -> data producers.
bool HasControlEdges(const Node& node);

// Known rank and every dim >= 0.
bool IsStaticShape(const GeShape& shape);

// The producing output of input `index`; nullptr when unlinked.
OutDataAnchor* ProducerOf(const Node& node, int32_t index);

// The weights of a Const / Constant node (its ATTR_NAME_WEIGHTS tensor);
// nullptr for other nodes or when absent.
const GeTensor* ConstWeights(const Node& node);

// The values of an integer (INT32 / INT64) constant feeding input `index`;
// nullopt when the producer is not such a constant.
std::optional<std::vector<int64_t>> ConstIntInput(const Node& node, int32_t index);

// `base` when no node of `graph` has that name, else base_1, base_2, ...
std::string UniqueName(const ComputeGraph& graph, const std::string& base);

// A DataType attribute (stored as a data type, or as an int that is a valid
// DataType); nullopt when absent or of another type.
std::optional<DataType> DataTypeAttr(const OpDesc& op, absl::string_view name);

}  // namespace ge

#endif  // COMPILER_PASSES_PASS_UTILS_H_
