// graph/inc/graph/ge_attr_define.h
//
// Attribute names the graph layer reads or writes (GE's ge_attr_define.h
// subset). Attribute names starting with '_' are private to the compiler.
//
//   ATTR_NAME_PARENT_NODE_INDEX  (int) on a subgraph DATA node: the index of
//       the parent node's input that feeds it; on a NETOUTPUT input tensor
//       desc: the index of the parent node's output it produces.
//   ATTR_NAME_WEIGHTS            (tensor) the value of a Const node.
//   USER_STREAM_LABEL, ATTR_NAME_STREAM_LABEL, ATTR_NAME_SUPER_KERNEL_SCOPE,
//   ATTR_NAME_SUPER_KERNEL_OPTIONS, OP_AI_CORE_NUM, OP_VECTOR_CORE_NUM
//       (string) placement attributes inherited by ComputeGraph::FuseNodeKeepTopo.
//
// Example
//   RETURN_IF_ERROR(AttrUtils::SetInt(data_op, ATTR_NAME_PARENT_NODE_INDEX, 0));
#ifndef GRAPH_INC_GRAPH_GE_ATTR_DEFINE_H_
#define GRAPH_INC_GRAPH_GE_ATTR_DEFINE_H_

namespace ge {

inline constexpr const char* ATTR_NAME_PARENT_NODE_INDEX = "_parent_node_index";
inline constexpr const char* ATTR_NAME_WEIGHTS = "value";
// Int on a root-graph Data op: its position among the graph inputs.
inline constexpr char kAttrDataIndex[] = "index";
inline constexpr const char* ATTR_NAME_STREAM_LABEL = "_stream_label";
inline constexpr const char* USER_STREAM_LABEL = "_user_stream_label";
inline constexpr const char* ATTR_NAME_SUPER_KERNEL_SCOPE = "_super_kernel_scope";
inline constexpr const char* ATTR_NAME_SUPER_KERNEL_OPTIONS = "_super_kernel_options";
inline constexpr const char* OP_AI_CORE_NUM = "_op_aicore_num";
inline constexpr const char* OP_VECTOR_CORE_NUM = "_op_vectorcore_num";

}  // namespace ge

#endif  // GRAPH_INC_GRAPH_GE_ATTR_DEFINE_H_
