// Implementation of tools/atc/om_dump.h.
#include "tools/atc/om_dump.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "build/om/om_file.h"
#include "build/proto/model_task.pb.h"
#include "google/protobuf/util/json_util.h"
#include "graph/proto/ge_ir.pb.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "onnx/onnx_pb.h"

namespace ge {
namespace atc {
namespace {

std::string Quote(absl::string_view s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      static const char* kHex = "0123456789abcdef";
      out += "\\u00";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

StatusOr<std::string> ToJson(const google::protobuf::Message& message, absl::string_view what) {
  std::string out;
  google::protobuf::util::JsonPrintOptions options;
  options.add_whitespace = false;
  options.preserve_proto_field_names = true;
  auto st = google::protobuf::util::MessageToJsonString(message, &out, options);
  if (!st.ok()) return Internal(what, ": JSON conversion failed: ", st.ToString());
  return out;
}

std::string HexChecksum(const std::array<uint8_t, 64>& sum) {
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < kOmChecksumBytes; ++i) {
    out += kHex[sum[i] >> 4];
    out += kHex[sum[i] & 15];
  }
  return out;
}

std::string HeaderJson(const OmHeader& h) {
  return absl::StrCat(
      "{\"magic\":", h.magic, ",\"header_size\":", h.header_size, ",\"version\":", h.version,
      ",\"checksum_xxh3_128\":", Quote(HexChecksum(h.checksum)),
      ",\"total_length\":", h.total_length, ",\"model_type\":", h.model_type,
      ",\"generate_mode\":", h.generate_mode, ",\"name\":", Quote(h.name),
      ",\"op_count\":", h.op_count, ",\"model_count\":", h.model_count,
      ",\"platform_version\":", Quote(h.platform_version), ",\"platform_type\":", h.platform_type,
      ",\"is_unknown_model\":", static_cast<int>(h.is_unknown_model), "}");
}

std::string IoText(const proto::ModelIoDef& io) {
  return absl::StrCat(io.name(), " ",
                      TypeUtils::DataTypeToSerialString(static_cast<DataType>(io.data_type())),
                      " [", absl::StrJoin(io.dims(), ","), "] ", io.size(), " bytes");
}

// A tensor's layout name ("NCHW", "NC1HWC0", ...).
std::string LayoutOf(const proto::TensorDescriptor& d) {
  return d.layout().empty() ? TypeUtils::FormatToSerialString(d.format()) : d.layout();
}

bool RowMajor(const std::string& layout) {
  return layout == "ND" || layout == "NCHW" || layout == "NCDHW" || layout == "RESERVED";
}

std::string CountsText(const std::map<std::string, int64_t>& counts) {
  std::vector<std::string> parts;
  for (const auto& [k, n] : counts) parts.push_back(absl::StrCat(k, "=", n));
  return absl::StrJoin(parts, ", ");
}

// The compiler's choices in the graph: engines per op, output data types and
// layouts, and every op running on a layout other than row-major (the
// format pass's chains and their TransData).
void AppendGraphChoices(const proto::ModelDef& model_def, std::string* out) {
  std::map<std::string, int64_t> engines, dtypes, layouts;
  std::vector<std::string> laid_out;
  for (const proto::GraphDef& g : model_def.graph()) {
    for (const proto::OpDef& op : g.op()) {
      if (!op.engine_name().empty()) engines[op.engine_name()]++;
      bool chosen = false;
      auto descs = [&](const auto& list) {
        std::vector<std::string> parts;
        for (const proto::TensorDescriptor& d : list) {
          const std::string layout = LayoutOf(d);
          chosen = chosen || !RowMajor(layout);
          parts.push_back(absl::StrCat(layout, " ", proto::DataType_Name(d.dtype())));
        }
        return absl::StrJoin(parts, ", ");
      };
      for (const proto::TensorDescriptor& d : op.output_desc()) {
        dtypes[proto::DataType_Name(d.dtype())]++;
        layouts[LayoutOf(d)]++;
      }
      const std::string in = descs(op.input_desc());
      const std::string outs = descs(op.output_desc());
      if (chosen) {
        laid_out.push_back(absl::StrCat("  ", op.name(), " (", op.type(), ", ", op.engine_name(),
                                        "): in [", in, "] out [", outs, "]\n"));
      }
    }
  }
  absl::StrAppend(out, "engines (ops):    ", CountsText(engines), "\n");
  absl::StrAppend(out, "output dtypes:    ", CountsText(dtypes), "\n");
  absl::StrAppend(out, "output layouts:   ", CountsText(layouts), "\n");
  absl::StrAppend(out, "ops on non-row-major layouts: ", laid_out.size(), "\n");
  for (const std::string& line : laid_out) absl::StrAppend(out, line);
}

}  // namespace

StatusOr<std::string> OmToJson(absl::string_view om_bytes) {
  ASSIGN_OR_RETURN(OmFileView view, ParseOmFile(AsBytes(om_bytes)));
  std::string out = absl::StrCat("{\"header\":", HeaderJson(view.header), ",\"models\":[");
  for (size_t m = 0; m < view.models.size(); ++m) {
    const OmModelView& model = view.models[m];
    absl::StrAppend(&out, m == 0 ? "" : ",", "{\"name\":", Quote(model.name), ",\"partitions\":[");
    for (size_t p = 0; p < model.partitions.size(); ++p) {
      const OmPartition& part = model.partitions[p];
      absl::StrAppend(&out, p == 0 ? "" : ",", "{\"type\":", Quote(OmPartitionTypeName(part.type)),
                      ",\"offset\":", part.offset, ",\"size\":", part.size, "}");
    }
    proto::ModelDef model_def;
    if (!model_def.ParseFromArray(model.model_def.data(),
                                  static_cast<int>(model.model_def.size()))) {
      return ParseFailed("model '", model.name, "': MODEL_DEF is not a ge.proto.ModelDef");
    }
    ASSIGN_OR_RETURN(std::string graph_json, ToJson(model_def, "MODEL_DEF"));
    ASSIGN_OR_RETURN(std::string task_json, ToJson(model.task_def, "TASK_INFO"));
    absl::StrAppend(&out, "],\"model_def\":", graph_json, ",\"task_info\":", task_json, "}");
  }
  out += "]}\n";
  return out;
}

StatusOr<std::string> OnnxToJson(absl::string_view onnx_bytes) {
  onnx::ModelProto model;
  if (!model.ParseFromArray(onnx_bytes.data(), static_cast<int>(onnx_bytes.size()))) {
    return ParseFailed("not an ONNX ModelProto");
  }
  ASSIGN_OR_RETURN(std::string json, ToJson(model, "ONNX model"));
  return json + "\n";
}

StatusOr<std::string> OmInfoText(absl::string_view om_bytes) {
  ASSIGN_OR_RETURN(OmFileView view, ParseOmFile(AsBytes(om_bytes)));
  const OmHeader& h = view.header;
  std::string out;
  absl::StrAppend(&out, "============ OM header ============\n");
  absl::StrAppend(&out, "magic:            0x", absl::Hex(h.magic), "\n");
  absl::StrAppend(&out, "header size:      ", h.header_size, "\n");
  absl::StrAppend(&out, "version:          ", h.version, "\n");
  absl::StrAppend(&out, "checksum:         ", HexChecksum(h.checksum), "\n");
  absl::StrAppend(&out, "total length:     ", h.total_length, "\n");
  absl::StrAppend(&out, "model type:       ", h.model_type == 0 ? "static" : "dynamic", "\n");
  absl::StrAppend(&out, "generate mode:    ", h.generate_mode, "\n");
  absl::StrAppend(&out, "name:             ", h.name, "\n");
  absl::StrAppend(&out, "op count:         ", h.op_count, "\n");
  absl::StrAppend(&out, "model count:      ", h.model_count, "\n");
  absl::StrAppend(&out, "soc version:      ", h.platform_version, "\n");
  absl::StrAppend(&out, "is unknown model: ", static_cast<int>(h.is_unknown_model), "\n");
  for (const OmModelView& model : view.models) {
    const proto::ModelTaskDef& t = model.task_def;
    absl::StrAppend(&out, "============ model '", model.name, "' ============\n");
    for (const OmPartition& p : model.partitions) {
      absl::StrAppend(&out, "partition ", OmPartitionTypeName(p.type), ": ", p.size,
                      " bytes at offset ", p.offset, "\n");
    }
    std::map<std::string, int64_t> by_type;
    for (const proto::TaskDef& task : t.task()) {
      by_type[proto::TaskType_Name(task.type())]++;
    }
    std::vector<std::string> counts;
    for (const auto& [type, n] : by_type) counts.push_back(absl::StrCat(type, "=", n));
    absl::StrAppend(&out, "graph:            ", t.graph_name(), "\n");
    absl::StrAppend(&out, "dynamic:          ", t.dynamic() ? "true" : "false", "\n");
    absl::StrAppend(&out, "task count:       ", t.task_size(), " (", absl::StrJoin(counts, ", "),
                    ")\n");
    absl::StrAppend(&out, "memory size:      ", t.memory_size(), " bytes\n");
    absl::StrAppend(&out, "weight size:      ", t.weight_size(), " bytes\n");
    absl::StrAppend(&out, "stream num:       ", t.stream_num(), "\n");
    absl::StrAppend(&out, "event num:        ", t.event_num(), "\n");
    for (int i = 0; i < t.input_size(); ++i) {
      absl::StrAppend(&out, "input ", i, ":          ", IoText(t.input(i)), "\n");
    }
    for (int i = 0; i < t.output_size(); ++i) {
      absl::StrAppend(&out, "output ", i, ":         ", IoText(t.output(i)), "\n");
    }
    proto::ModelDef model_def;
    if (!model_def.ParseFromArray(model.model_def.data(),
                                  static_cast<int>(model.model_def.size()))) {
      return ParseFailed("model '", model.name, "': MODEL_DEF is not a ge.proto.ModelDef");
    }
    AppendGraphChoices(model_def, &out);
  }
  return out;
}

}  // namespace atc
}  // namespace ge
