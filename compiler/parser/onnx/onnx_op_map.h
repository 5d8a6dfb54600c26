// compiler/parser/onnx/onnx_op_map.h
//
// The ONNX -> AscendIR op mapping of the ONNX front end, kept in the
// FrameworkRegistry (framework ONNX): every op of the default domain ("" /
// "ai.onnx") and of "ai.onnx.preview.training" that libonnx knows maps to the
// op type of the same name (the op library follows ONNX opset-17 semantics),
// with MapOnnxNodeAttributes as the attribute mapping. Whether a mapped op is
// usable also depends on the op library linked into the binary (OpRegistry).
//
// Registration is lazy and idempotent (EnsureOnnxMappingsRegistered, called by
// the parser): a mapping that a plugin registered first for the same ONNX
// type and domain stays in place (the builtin one is skipped).
//
// Attribute conversion (ConvertOnnxAttribute): INT -> int64, FLOAT -> float,
// STRING -> string, TENSOR -> GeTensor, SPARSE_TENSOR -> dense GeTensor,
// TYPE_PROTO -> GeTensorDesc (see onnx_tensor.h), and the list forms to
// vectors. When the op registration declares the attribute's type, the value
// is coerced to it: INT -> DataType (ONNX element type numbers), bool or
// float; INTS -> list of DataType / bool / float; a scalar -> a one-element
// list. GRAPH attributes are subgraphs and are not attributes of the OpDesc.
// Constant's sparse_value becomes its dense "value"; its value_float /
// value_floats / value_int / value_ints become a "value" tensor too (float32 /
// int64, scalar or 1-D), so every numeric Constant has a "value" tensor (as
// the build stage requires); value_string(s) stay as they are.
//
// Example
//   onnx_parser::EnsureOnnxMappingsRegistered();
//   ASSIGN_OR_RETURN(FrameworkOpMapping m, FrameworkRegistry::Instance().Find(
//       FrameworkType::ONNX, "Conv", "", 17));
//   RETURN_IF_ERROR(m.MapAttrs(&node_proto, *op_desc));
#ifndef COMPILER_PARSER_ONNX_ONNX_OP_MAP_H_
#define COMPILER_PARSER_ONNX_ONNX_OP_MAP_H_

#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace onnx_parser {

inline constexpr char kOnnxDomain[] = "ai.onnx";
inline constexpr char kOnnxTrainingDomain[] = "ai.onnx.preview.training";

// "", "ai.onnx" and "ai.onnx.preview.training".
bool IsAcceptedDomain(absl::string_view domain);
// "" for "ai.onnx", the domain otherwise.
std::string CanonicalDomain(absl::string_view domain);

// Registers the builtin mappings once per process.
void EnsureOnnxMappingsRegistered();

// The ONNX op types (sorted) of `domain` ("" or the training domain) that get
// builtin mappings.
std::vector<std::string> BuiltinOnnxOpTypes(absl::string_view domain);

// One attribute as an AttrValue, coerced to `declared` unless it is VT_NONE.
// `what` names the attribute in errors.
StatusOr<AttrValue> ConvertOnnxAttribute(const onnx::AttributeProto& attr,
                                         AttrValue::ValueType declared, absl::string_view what);

// The builtin attribute mapping: every non-graph attribute of `node` onto
// `op` (declared types from the op's registration, see the file comment).
Status MapOnnxNodeAttributes(const onnx::NodeProto& node, OpDesc& op);

}  // namespace onnx_parser
}  // namespace ge

#endif  // COMPILER_PARSER_ONNX_ONNX_OP_MAP_H_
