// compiler/parser/onnx/onnx_op_resolver.cc
#include "compiler/parser/onnx/onnx_op_resolver.h"

namespace ge {
namespace onnx_parser {

absl::flat_hash_map<std::string, int64_t> OpsetMap(const onnx::ModelProto& model) {
  absl::flat_hash_map<std::string, int64_t> m;
  for (const onnx::OperatorSetIdProto& o : model.opset_import()) {
    m[onnx_parser::CanonicalDomain(o.domain())] = o.version();
  }
  return m;
}
}  // namespace onnx_parser
}  // namespace ge
