// graph/serialization/src/model_serialize.cc
//
// ModelSerialize (bytes, text) and ModelSerializeImp (generated proto
// objects) on top of the graph codec (graph_codec.h), which does the work.
#include "graph/serialization/inc/model_serialize.h"

#include <climits>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "google/protobuf/io/coded_stream.h"
#include "google/protobuf/io/tokenizer.h"
#include "google/protobuf/io/zero_copy_stream_impl_lite.h"
#include "google/protobuf/text_format.h"
#include "graph/serialization/inc/model_serialize_proto.h"
#include "graph/serialization/src/graph_codec.h"

namespace ge {
namespace {

// Protobuf's own nesting limit while parsing; DeserializeOptions limits are
// far below it, so they are what trips.
constexpr int kProtoRecursionLimit = 1024;

class TextErrors : public google::protobuf::io::ErrorCollector {
 public:
  void AddError(int line, int column, const std::string& message) override {
    if (errors_.size() < 5)
      errors_.push_back(absl::StrCat(line + 1, ":", column + 1, ": ", message));
  }
  std::string Joined() const { return absl::StrJoin(errors_, "; "); }

 private:
  std::vector<std::string> errors_;
};

// Generated objects from codec bytes (which are always parseable).
Status ToMessage(const std::string& bytes, google::protobuf::MessageLite* message) {
  Status st = ModelSerializeImp::ParseBytes(bytes, message);
  if (!st.ok())
    return Internal("the codec wrote unparseable ", message->GetTypeName(), ": ", st.message());
  return OkStatus();
}

}  // namespace

// ------------------------------------------------------- ModelSerializeImp

Status ModelSerializeImp::SerializeModel(const ComputeGraph& graph, proto::ModelDef* model,
                                         const SerializeOptions& options) {
  SerializeContext ctx;
  ctx.options = options;
  std::string bytes;
  RETURN_IF_ERROR(codec::EncodeModel(graph, ctx, &bytes));
  return ToMessage(bytes, model);
}

StatusOr<ComputeGraphPtr> ModelSerializeImp::UnserializeModel(const proto::ModelDef& model,
                                                              const DeserializeOptions& options) {
  ASSIGN_OR_RETURN(const std::string bytes, ToBytes(model));
  DeserializeContext ctx;
  ctx.options = options;
  return codec::DecodeModel(bytes, ctx);
}

Status ModelSerializeImp::SerializeGraph(const ComputeGraph& graph, proto::GraphDef* def,
                                         SerializeContext& ctx) {
  std::string bytes;
  RETURN_IF_ERROR(codec::EncodeGraph(graph, ctx, &bytes));
  return ToMessage(bytes, def);
}

StatusOr<ComputeGraphPtr> ModelSerializeImp::UnserializeGraph(const proto::GraphDef& def,
                                                              DeserializeContext& ctx) {
  ASSIGN_OR_RETURN(const std::string bytes, ToBytes(def));
  return codec::DecodeGraph(bytes, ctx);
}

Status ModelSerializeImp::SerializeOpDesc(const OpDesc& op, proto::OpDef* def,
                                          SerializeContext& ctx) {
  std::string bytes;
  RETURN_IF_ERROR(codec::EncodeOpDesc(op, ctx, &bytes));
  return ToMessage(bytes, def);
}

StatusOr<OpDescPtr> ModelSerializeImp::UnserializeOpDesc(const proto::OpDef& def,
                                                         DeserializeContext& ctx) {
  ASSIGN_OR_RETURN(const std::string bytes, ToBytes(def));
  return codec::DecodeOpDesc(bytes, ctx);
}

StatusOr<std::string> ModelSerializeImp::ToBytes(const google::protobuf::MessageLite& message) {
  const size_t size = message.ByteSizeLong();
  if (size > static_cast<size_t>(INT_MAX)) {
    return Overflow("the serialized ", message.GetTypeName(), " would be ", size,
                    " bytes, more than protobuf's 2 GiB limit");
  }
  std::string bytes(size, '\0');
  google::protobuf::io::ArrayOutputStream array(bytes.data(), static_cast<int>(size));
  google::protobuf::io::CodedOutputStream out(&array);
  out.SetSerializationDeterministic(true);
  message.SerializeWithCachedSizes(&out);
  if (out.HadError() || static_cast<size_t>(out.ByteCount()) != size) {
    return Internal("serializing ", message.GetTypeName(), " failed");
  }
  return bytes;
}

Status ModelSerializeImp::ParseBytes(absl::string_view bytes,
                                     google::protobuf::MessageLite* message) {
  if (bytes.size() > static_cast<size_t>(INT_MAX)) {
    return OutOfRange("input of ", bytes.size(), " bytes is larger than protobuf's 2 GiB limit");
  }
  google::protobuf::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()),
                                            static_cast<int>(bytes.size()));
  in.SetRecursionLimit(kProtoRecursionLimit);
  if (!message->ParseFromCodedStream(&in) || !in.ConsumedEntireMessage()) {
    return ParseFailed("cannot parse ", message->GetTypeName(), " from ", bytes.size(),
                       " bytes: truncated or malformed data");
  }
  return OkStatus();
}

// ---------------------------------------------------------- ModelSerialize

StatusOr<std::string> ModelSerialize::SerializeModel(const ComputeGraph& graph,
                                                     const SerializeOptions& options) {
  SerializeContext ctx;
  ctx.options = options;
  std::string bytes;
  RETURN_IF_ERROR(codec::EncodeModel(graph, ctx, &bytes));
  return bytes;
}

StatusOr<ComputeGraphPtr> ModelSerialize::DeserializeModel(absl::string_view bytes,
                                                           const DeserializeOptions& options) {
  DeserializeContext ctx;
  ctx.options = options;
  return codec::DecodeModel(bytes, ctx);
}

StatusOr<std::string> ModelSerialize::SerializeGraph(const ComputeGraph& graph,
                                                     const SerializeOptions& options) {
  SerializeContext ctx;
  ctx.options = options;
  std::string bytes;
  RETURN_IF_ERROR(codec::EncodeGraph(graph, ctx, &bytes));
  return bytes;
}

StatusOr<ComputeGraphPtr> ModelSerialize::DeserializeGraph(absl::string_view bytes,
                                                           const DeserializeOptions& options) {
  DeserializeContext ctx;
  ctx.options = options;
  return codec::DecodeGraph(bytes, ctx);
}

StatusOr<std::string> ModelSerialize::SerializeModelToText(const ComputeGraph& graph,
                                                           const SerializeOptions& options) {
  proto::ModelDef model;
  SerializeOptions text_options = options;
  text_options.layout_strings = true;
  RETURN_IF_ERROR(ModelSerializeImp::SerializeModel(graph, &model, text_options));
  std::string text;
  google::protobuf::TextFormat::Printer printer;
  if (!printer.PrintToString(model, &text)) return Internal("printing the model as text failed");
  return text;
}

StatusOr<ComputeGraphPtr> ModelSerialize::DeserializeModelFromText(
    absl::string_view text, const DeserializeOptions& options) {
  if (text.size() > static_cast<size_t>(INT_MAX)) {
    return OutOfRange("text of ", text.size(), " bytes is larger than 2 GiB");
  }
  proto::ModelDef model;
  google::protobuf::TextFormat::Parser parser;
  TextErrors errors;
  parser.RecordErrorsTo(&errors);
  parser.SetRecursionLimit(kProtoRecursionLimit);
  google::protobuf::io::ArrayInputStream input(text.data(), static_cast<int>(text.size()));
  if (!parser.Parse(&input, &model)) {
    return ParseFailed("cannot parse the model text: ", errors.Joined());
  }
  return ModelSerializeImp::UnserializeModel(model, options);
}

}  // namespace ge
