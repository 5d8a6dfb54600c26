// graph/serialization/inc/graph_text.h
//
// The text form of a ComputeGraph tree: a readable, line-oriented IR in the
// spirit of MLIR's textual IR and XLA's HLO text, one node per line in list
// order, that carries everything the graph carries (what ModelSerialize
// carries) so that passes can be tested as "graph in, expected graph out".
//
// Contract
//   * PrintGraphText is deterministic (attributes in name order, nodes in
//     list order, subgraphs in registration order) and total: every graph
//     prints. ParseGraphText(PrintGraphText(g)) gives a graph equal to `g`
//     (graph/serialization/testing/graph_compare.h), and printing it again
//     gives the same bytes.
//   * ParseGraphText never crashes: every problem is a ParseFailed status
//     whose message starts with the position, "line 3, column 17: expected
//     ')'", or names the nodes of a cycle. Nodes may be referenced before
//     they are defined (list order need not be topological); names must be
//     unique within a graph.
//   * Defaults are left out when printing and assumed when parsing: format
//     ND, origin shape / format / dtype equal to shape / format / dtype, op id
//     equal to the node's position in its graph, port names "__input<i>" /
//     "__output<i>", anchor counts equal to the desc counts, graph inputs =
//     the Data / RefData / AippData nodes in list order, consumers of an
//     output in canonical order (consumer nodes in list order, data inputs by
//     index before the control input).
//
// Grammar (EBNF-ish; `#` starts a comment to the end of the line, other
// whitespace is free):
//   file      = graph { subgraph } ;
//   graph     = "graph" name "{" { gstmt } "}" ;
//   subgraph  = "subgraph" name [ "as" string ]
//               [ "parent" ref "in" name ] "{" { gstmt } "}" ;
//   gstmt     = "id" "=" int | "attrs" dict | node
//             | "inputs" "(" [ ref { "," ref } ] ")"
//             | "outputs" "(" [ ref ":" int { "," ref ":" int } ] ")" ;
//   node      = ref "=" name "(" [ input { "," input } ] ")" [ props ] [ dict ]
//               ":" "(" [ port { "," port } ] ")" "->" "(" [ port { "," port } ] ")"
//               [ "order" "(" out "=" "[" use { "," use } "]" { "," ... } ")" ] ;
//   input     = ref ":" int          (data input from output <int>; -1: control -> data)
//             | "_"                  (unconnected input anchor)
//             | "^" ref [ ":" int ]  (control input; with <int>: data -> control) ;
//   use       = ref ":" int | "^" ref ;   (a consumer: its data input, its control input)
//   out       = int ;                    (output index; -1: the control output)
//   port      = [ (name | string) [ "?" ] ":" ] type ;   ("?": optional input)
//   type      = dtype "[" [ int { "," int } ] "]" [ format ] [ dict ] ;
//               dtype lower case without "DT_" (float, int64, bf16, ...);
//               format a layout string (NCHW, FRACTAL_Z:1:C0_16) or a number;
//               the dict holds the rest of the desc: origin_shape,
//               origin_dtype, origin_format, name, range, origin_range,
//               real_dim_cnt, size, weight_size, reuse_input,
//               reuse_input_index, data_offset, device (NPU / CPU),
//               input_tensor, output_tensor, attrs ;
//   props     = "<" key "=" value { "," key "=" value } ">" ;
//               keys: id, stream, out_anchors, input_offsets, output_offsets,
//               workspace, workspace_bytes, engine, kernel_lib, src_names,
//               src_indices, dst_names, dst_indices, is_input_const,
//               ir_inputs ("x", "opt"?, "dyn"*), ir_outputs ("y", "ys"*),
//               ir_attrs, ir_subgraphs ("then", "branches"*),
//               subgraphs ("slot": "instance" or "instance" per instance) ;
//   dict      = "{" [ key "=" value { "," key "=" value } ] "}" ;  key = name | string
//   value     = int | float | "inf" | "-inf" | "nan" [ "(" int ")" ] | "true" | "false"
//             | string | bytes | "none" | DT_name
//             | "desc" "(" type ")"
//             | "tensor" "(" type [ "," ( "[" numbers "]" | b64 ) ] ")"
//             | "graph" graph-body-with-name { subgraph } | "null"
//             | "named" "(" string "," dict ")"
//             | [ list_type ] "[" [ value { "," value } ] "]" ;
//   ref       = "%" bare-name | "%" string ;
//   name      = [A-Za-z_][A-Za-z0-9_./]* | string ;
//   string    = '"' chars with \" \\ \n \t \r \xHH '"' ;  bytes = 'b' string ;
//   b64       = 'b64' '"' base64 '"' ;
// A float always has a '.', an exponent, or is inf / nan; a list's type is
// that of its elements (list_type such as list_int[] is printed only when the
// elements cannot tell: empty lists, lists of empty lists). Tensors with at
// most 16 elements of a plain numeric type whose bytes match the shape print
// as literal values, others as base64 of the exact bytes.
//
// Example
//   graph main {
//     %x = Data() {index = 0} : () -> (float[1,3,8,8] NCHW)
//     %w = Const() {value = tensor(float[2], [0.5, 1.0])} : () -> (float[2])
//     %y = Add(%x:0, %w:0, ^%x) : (float[1,3,8,8] NCHW, float[2]) -> (float[1,3,8,8] NCHW)
//     %out = NetOutput(%y:0) : (float[1,3,8,8] NCHW) -> ()
//     outputs(%y:0)
//   }
//
//   ASSIGN_OR_RETURN(ComputeGraphPtr g, ParseGraphText(text));
//   std::string again = PrintGraphText(*g);   // == text when text was printed
#ifndef GRAPH_SERIALIZATION_INC_GRAPH_TEXT_H_
#define GRAPH_SERIALIZATION_INC_GRAPH_TEXT_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

// The text form of `graph` and its subgraphs (for a subgraph: it as a root,
// and the subgraphs below it).
std::string PrintGraphText(const ComputeGraph& graph);

// The subgraphs printed with `graph`: the root's registry for a root, the
// root's subgraphs below `graph` otherwise, in registration order.
std::vector<ComputeGraphPtr> SubgraphsBelow(const ComputeGraph& graph);

// A graph tree from its text form. ParseFailed with "line L, column C: ..."
// on any error.
StatusOr<ComputeGraphPtr> ParseGraphText(absl::string_view text);

}  // namespace ge

#endif  // GRAPH_SERIALIZATION_INC_GRAPH_TEXT_H_
