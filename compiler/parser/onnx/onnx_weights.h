// compiler/parser/onnx/onnx_weights.h
//
// Internal to the ONNX parser: held-out weights. HoldOutWeights rewrites
// the model bytes without the raw_data of the root graph's big initializers
// (read with the shared wire reader, //metadef:wire_format) before protobuf
// parses them, so the weights are never copied by the parse, the version
// conversion or shape inference; their Const tensors then view the mapped
// model file, or the arena MaterializeHeldWeights copies them into.
//
// Example
//   HeldWeights held;
//   std::string stripped;
//   const bool holding = HoldOutWeights(bytes, &stripped, &held);
//   ... parse holding ? stripped : bytes ...
//   if (holding && file == nullptr) RETURN_IF_ERROR(MaterializeHeldWeights(name, &held));
#ifndef COMPILER_PARSER_ONNX_ONNX_WEIGHTS_H_
#define COMPILER_PARSER_ONNX_ONNX_WEIGHTS_H_

#include <cstddef>
#include <memory>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace onnx_parser {

// Large initializer bytes are held out of the ModelProto: the wire bytes are
// rewritten without the raw_data of the root graph's big initializers before
// protobuf parses them, so the weights are never copied by the parse, the
// version conversion or shape inference (their tensors view the mapped model
// file, or MaterializeHeldWeights copies them into one arena).
//   ModelProto.graph = 7, GraphProto.initializer = 5, TensorProto.name = 8,
//   TensorProto.data_type = 2, TensorProto.raw_data = 9.
constexpr size_t kHoldOutMinBytes = 4096;  // shape-like tensors stay in the message

struct HeldWeights {
  // Initializer name -> its raw_data bytes (inside the model bytes; after
  // MaterializeHeldWeights inside the arena `owner` keeps alive).
  absl::flat_hash_map<std::string, absl::string_view> raw;
  std::shared_ptr<const void> owner;
  // When the model bytes are a mapped file that `owner` keeps mapped and
  // open: its descriptor and the mapping's start (the tensors then view the
  // file; see AlignedBuffer::FileView).
  int fd = -1;
  const char* file_base = nullptr;
};

// The model bytes with the big initializers' raw_data of the root graph held
// out (recorded in *held); false when nothing is held out (parse `bytes` as
// they are; malformed bytes also end here and fail in the real parse).
bool HoldOutWeights(absl::string_view bytes, std::string* out, HeldWeights* held);

// Copies the held-out weights into one anonymous arena (64-byte aligned
// slots, transparent huge pages where the kernel allows: few page faults)
// that their Const tensors then view. For model bytes that are not a file
// (ParseBytes: the caller owns them only for the call).
Status MaterializeHeldWeights(const std::string& source, HeldWeights* held);

}  // namespace onnx_parser
}  // namespace ge

#endif  // COMPILER_PARSER_ONNX_ONNX_WEIGHTS_H_
