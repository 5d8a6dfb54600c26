// tools/atc/om_dump.h
//
// atc's inspection modes:
//   --mode 1  OmToJson: the whole OM as JSON (header, every model with its
//             partitions, the MODEL_DEF graph as ge.proto.ModelDef JSON and
//             the TASK_INFO tasks as ge.proto.ModelTaskDef JSON);
//             OnnxToJson: an ONNX model as onnx.ModelProto JSON.
//   --mode 6  OmInfoText: a human summary (header fields, partition sizes,
//             op count, memory / weight sizes, inputs and outputs), and the
//             compiler's choices: ops per engine, output data types and
//             layouts, and each op on a non-row-major layout.
//
// Contract: the bytes are validated by ParseOmFile (build/om/om_file.h)
// first; anything malformed is an error naming the field, never a crash.
//
// Example
//   ASSIGN_OR_RETURN(std::string json, ge::atc::OmToJson(AsBytes(om_bytes)));
#ifndef TOOLS_ATC_OM_DUMP_H_
#define TOOLS_ATC_OM_DUMP_H_

#include <string>

#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace atc {

StatusOr<std::string> OmToJson(absl::string_view om_bytes);
StatusOr<std::string> OnnxToJson(absl::string_view onnx_bytes);
StatusOr<std::string> OmInfoText(absl::string_view om_bytes);

}  // namespace atc
}  // namespace ge

#endif  // TOOLS_ATC_OM_DUMP_H_
