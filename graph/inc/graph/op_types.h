// graph/inc/graph/op_types.h
//
// Op type names the graph layer itself interprets (GE's ge_op_types.h subset):
// DATA nodes feed a (sub)graph, NETOUTPUT collects its outputs, Const and
// Variable chains are special to RemoveNode and the delayed topological sort.
// Everything else is opaque to this layer.
//
// Example
//   if (node->GetType() == ge::DATA) { ... }
#ifndef GRAPH_INC_GRAPH_OP_TYPES_H_
#define GRAPH_INC_GRAPH_OP_TYPES_H_

namespace ge {

inline constexpr const char* DATA = "Data";
inline constexpr const char* REFDATA = "RefData";
inline constexpr const char* AIPPDATA = "AippData";
inline constexpr const char* NETOUTPUT = "NetOutput";
inline constexpr const char* CONSTANT = "Const";
inline constexpr const char* CONSTANTOP = "Constant";
inline constexpr const char* VARIABLE = "Variable";
inline constexpr const char* VARIABLEV2 = "VariableV2";
inline constexpr const char* VARHANDLEOP = "VarHandleOp";
inline constexpr const char* NOOP = "NoOp";
inline constexpr const char* IF = "If";
inline constexpr const char* WHILE = "While";
inline constexpr const char* CASE = "Case";
inline constexpr const char* PARTITIONEDCALL = "PartitionedCall";

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_OP_TYPES_H_
