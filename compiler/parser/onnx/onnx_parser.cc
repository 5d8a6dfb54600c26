// compiler/parser/onnx/onnx_parser.cc
//
// OnnxModelParser, the entry: maps or takes the model bytes and runs the
// parse in order: hold out the big weights (onnx_weights.h), decode,
// validate (onnx_validator.h), apply the input-shape options, convert the
// opset (onnx_version.h), infer shapes, inline functions
// (onnx_function.h), build the graph (onnx_graph_builder.h).
#include "compiler/parser/onnx/onnx_parser.h"

#include <chrono>  // NOLINT(build/c++11)
#include <cstdint>
#include <exception>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "compiler/parser/onnx/onnx_function.h"
#include "compiler/parser/onnx/onnx_graph_builder.h"
#include "compiler/parser/onnx/onnx_graph_index.h"
#include "compiler/parser/onnx/onnx_op_map.h"
#include "compiler/parser/onnx/onnx_op_resolver.h"
#include "compiler/parser/onnx/onnx_problems.h"
#include "compiler/parser/onnx/onnx_tensor.h"
#include "compiler/parser/onnx/onnx_validator.h"
#include "compiler/parser/onnx/onnx_version.h"
#include "compiler/parser/onnx/onnx_weights.h"
#include "google/protobuf/arena.h"
#include "graph/inc/graph/attr_utils.h"
#include "onnx/common/constants.h"
#include "onnx/shape_inference/implementation.h"

// After the ONNX headers: <sys/mman.h> (through the POSIX headers) defines
// MAP_TYPE, an enumerator name in onnx/defs/parser.h.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ge {
namespace {

using onnx::AttributeProto;
using onnx::GraphProto;
using onnx::ModelProto;
using onnx::NodeProto;
using onnx::ValueInfoProto;
using onnx_parser::BuildGraph;
using onnx_parser::GraphIndex;
using onnx_parser::HasSubgraphs;
using onnx_parser::HeldWeights;
using onnx_parser::HoldOutWeights;
using onnx_parser::kDefaultGraphName;
using onnx_parser::MaterializeHeldWeights;
using onnx_parser::OpLookup;
using onnx_parser::OpResolver;
using onnx_parser::OpsetMap;
using onnx_parser::Problems;
using onnx_parser::TensorLoadContext;
using onnx_parser::ValidateModel;

constexpr int64_t kMinIrVersion = 3;

// ------------------------------------------------------------ options

Status ApplyInputShapes(const ParseOptions& options, ModelProto* model) {
  if (options.input_shapes.empty()) return OkStatus();
  GraphProto* g = model->mutable_graph();
  absl::flat_hash_set<std::string> inits;
  for (const onnx::TensorProto& t : g->initializer()) inits.insert(t.name());
  std::vector<std::string> names;
  absl::flat_hash_map<std::string, ValueInfoProto*> inputs;
  for (ValueInfoProto& vi : *g->mutable_input()) {
    if (inits.contains(vi.name())) continue;
    names.push_back(vi.name());
    inputs.emplace(vi.name(), &vi);
  }
  for (const auto& [name, dims] : options.input_shapes) {
    auto it = inputs.find(name);
    if (it == inputs.end()) {
      return ParamInvalid("input_shapes: '", name, "' is not a graph input of the model (inputs: ",
                          names.empty() ? std::string("none") : absl::StrJoin(names, ", "), ")");
    }
    for (size_t d = 0; d < dims.size(); ++d) {
      if (dims[d] < -1) {
        return ParamInvalid("input_shapes: input '", name, "' dim ", d, " is ", dims[d],
                            ", expected >= -1");
      }
    }
    onnx::TypeProto* type = it->second->mutable_type();
    if (type->value_case() != onnx::TypeProto::kTensorType &&
        type->value_case() != onnx::TypeProto::VALUE_NOT_SET) {
      return ParamInvalid("input_shapes: input '", name, "' is a ",
                          onnx_parser::OnnxTypeString(*type), ", not a tensor");
    }
    onnx::TypeProto::Tensor* tt = type->mutable_tensor_type();
    if (tt->has_shape()) {
      const onnx::TensorShapeProto& shape = tt->shape();
      if (shape.dim_size() != static_cast<int>(dims.size())) {
        return ParamInvalid("input_shapes: input '", name, "' has rank ", shape.dim_size(),
                            " in the model, the override [", absl::StrJoin(dims, ","),
                            "] has rank ", dims.size());
      }
      for (size_t d = 0; d < dims.size(); ++d) {
        const auto& md = shape.dim(static_cast<int>(d));
        if (md.has_dim_value() && dims[d] >= 0 && md.dim_value() != dims[d]) {
          return ParamInvalid("input_shapes: input '", name, "' dim ", d, " is fixed to ",
                              md.dim_value(), " in the model, the override gives ", dims[d]);
        }
      }
    }
    onnx::TensorShapeProto old = tt->shape();
    const bool had_shape = tt->has_shape();
    onnx::TensorShapeProto* shape = tt->mutable_shape();
    shape->clear_dim();
    for (size_t d = 0; d < dims.size(); ++d) {
      onnx::TensorShapeProto::Dimension* nd = shape->add_dim();
      if (dims[d] >= 0) {
        nd->set_dim_value(dims[d]);
      } else if (had_shape) {
        *nd = old.dim(static_cast<int>(d));
      }
    }
  }
  return OkStatus();
}

// Records the wall time of each parse phase in OnnxParseInfo::phase_ms.
class PhaseTimer {
 public:
  explicit PhaseTimer(OnnxParseInfo* info) : info_(info), last_(Clock::now()) {}
  void Mark(const char* phase) {
    if (info_ == nullptr) return;
    const Clock::time_point now = Clock::now();
    info_->phase_ms.emplace_back(phase,
                                 std::chrono::duration<double, std::milli>(now - last_).count());
    last_ = now;
  }

 private:
  using Clock = std::chrono::steady_clock;
  OnnxParseInfo* info_;
  Clock::time_point last_;
};

// ONNX shape inference on the model in place (value_info for intermediate
// descs; no copy of the model). Best effort: per-node failures are skipped
// (strict mode off); an error that stops inference keeps what was inferred
// before it (every entry added is a valid inference).
// False when it did not run: a node libonnx's inference would crash on
// (OnnxShapeInferenceHazard) is reported by the build instead.
bool InferShapesBestEffort(ModelProto* model) {
  if (!onnx_parser::OnnxShapeInferenceHazard(*model).empty()) return false;
  try {
    onnx::ShapeInferenceOptions opts(/*check_type_val=*/false, /*strict_mode_val=*/0,
                                     /*data_prop_val=*/false);
    onnx::shape_inference::InferShapes(*model, onnx::OpSchemaRegistry::Instance(), opts);
  } catch (const std::exception&) {
    // The descs stay as the model (and inference so far) gives them.
  }
  return true;
}

// Whether ONNX shape inference can add anything to the graph that the
// compiler's InferShape pass does not compute again: false only when the
// model has no local functions, the root graph's inputs carry no dim_param
// symbols, and every node is a plain op (no subgraph) whose op type is in
// the linked op library with an infer shape function.
//
// When it returns false, *root_ops holds the lookup of every root graph node
// (by index) for the build; else it is empty.
bool NeedsOnnxShapeInference(const ModelProto& model, OpResolver* ops,
                             std::vector<OpLookup>* root_ops) {
  root_ops->clear();
  if (model.functions_size() > 0) return true;
  const GraphProto& g = model.graph();
  for (const ValueInfoProto& vi : g.input()) {
    if (!vi.type().has_tensor_type()) {
      if (vi.type().value_case() != onnx::TypeProto::VALUE_NOT_SET) return true;
      continue;
    }
    for (const auto& d : vi.type().tensor_type().shape().dim()) {
      if (d.has_dim_param()) return true;
    }
  }
  root_ops->reserve(static_cast<size_t>(g.node_size()));
  for (const NodeProto& n : g.node()) {
    StatusOr<OpLookup> op = ops->Find(n);
    if (HasSubgraphs(n) || !op.ok() || op->reg->infer_shape == nullptr) {
      root_ops->clear();
      return true;
    }
    root_ops->push_back(*op);
  }
  return false;
}

// `file` (null for ParseBytes) is the mapped model file whose bytes `bytes`
// are: the Const tensors of the held-out weights then view it
// (AlignedBuffer::FileView) instead of copying them; otherwise they are
// copied into one arena.
StatusOr<ComputeGraphPtr> ParseModel(absl::string_view bytes,
                                     std::shared_ptr<const onnx_parser::MappedFileRegion> file,
                                     const ParseOptions& options, const std::string& file_name,
                                     const std::string& model_dir) {
  if (options.target_opset != onnx_parser::kTargetOpset) {
    return NotSupported("target opset ", options.target_opset,
                        " is not supported: the op library implements opset ",
                        onnx_parser::kTargetOpset);
  }
  const std::string source = file_name.empty() ? std::string("<bytes>") : file_name;
  PhaseTimer timer(options.info);
  // The message tree lives on an arena: decoding allocates from large
  // blocks instead of one malloc per message / string, and tearing the tree
  // down after the build frees the blocks, not every message.
  google::protobuf::ArenaOptions arena_options;
  arena_options.start_block_size = 64 << 10;
  arena_options.max_block_size = 4 << 20;
  google::protobuf::Arena arena(arena_options);
  ModelProto& model = *google::protobuf::Arena::CreateMessage<ModelProto>(&arena);
  HeldWeights held;
  std::string stripped;
  const bool holding = HoldOutWeights(bytes, &stripped, &held);
  const absl::string_view proto_bytes = holding ? absl::string_view(stripped) : bytes;
  if (proto_bytes.size() > static_cast<size_t>(std::numeric_limits<int>::max()) ||
      !model.ParseFromArray(proto_bytes.data(), static_cast<int>(proto_bytes.size()))) {
    return ParseFailed("ONNX model '", source, "': the ", bytes.size(),
                       " bytes are not a valid ONNX ModelProto");
  }
  if (!model.has_graph()) {
    return ParseFailed("ONNX model '", source, "': the ", bytes.size(),
                       " bytes hold no graph (not an ONNX model?)");
  }
  const std::string name = !file_name.empty()             ? file_name
                           : model.graph().name().empty() ? std::string(kDefaultGraphName)
                                                          : model.graph().name();
  const int64_t ir = model.ir_version();
  if (ir < kMinIrVersion || ir > onnx::IR_VERSION) {
    return NotSupported("ONNX model '", name, "': IR version ", ir,
                        " is not supported (supported: ", kMinIrVersion, " to ",
                        static_cast<int64_t>(onnx::IR_VERSION), ")");
  }
  const int64_t opset = onnx_parser::DefaultDomainOpset(model);
  if (opset > options.target_opset) {
    return NotSupported("ONNX model '", name, "': default-domain opset ", opset,
                        " is newer than the supported opset ", options.target_opset);
  }

  timer.Mark("decode");
  Problems problems;
  OpResolver ops(OpsetMap(model));
  // The root graph's value index, reused by the build while the graph is
  // unchanged (no version adapter or function inlining rewrote it).
  GraphIndex root_index = ValidateModel(
      model, model.graph().name().empty() ? std::string(kDefaultGraphName) : model.graph().name(),
      &ops, &problems);
  RETURN_IF_ERROR(problems.ToStatus(name));
  timer.Mark("validate");
  RETURN_IF_ERROR(ApplyInputShapes(options, &model));

  StatusOr<onnx_parser::OpsetConversion> conv =
      onnx_parser::NormalizeOpset(&model, options.target_opset, options.converter);
  if (!conv.ok()) return Annotate(conv.status(), "ONNX model '", name, "': ");
  if (options.info != nullptr) {
    options.info->ir_version = ir;
    options.info->source_opset = conv->from_opset;
    options.info->opset = conv->to_opset;
    options.info->converter = conv->converter;
    options.info->onnx_converter_error = conv->onnx_error;
  }
  timer.Mark("convert");
  OpResolver converted_ops(OpsetMap(model));
  std::vector<OpLookup> root_ops;  // by root node index, when known here
  bool infer = options.infer_shapes && (options.always_infer_shapes ||
                                        NeedsOnnxShapeInference(model, &converted_ops, &root_ops));
  if (infer) root_ops.clear();
  if (infer) infer = InferShapesBestEffort(&model);
  if (options.info != nullptr) options.info->shapes_inferred = infer;
  timer.Mark("infer_shapes");

  // Function inlining; context-dependent bodies need the input types, so
  // shapes are inferred again after each round that inlined something.
  const onnx_parser::NodeSupportFn supported = [&converted_ops](const NodeProto& n) {
    return converted_ops.Find(n).ok();
  };
  bool rewritten = conv->rewritten;
  // Every root node resolved, no subgraph, no local function: nothing to
  // inline (HasInlinableCalls would look every node up again).
  const bool nothing_to_inline = !root_ops.empty() || model.graph().node_size() == 0;
  for (int round = 0; round < 8 && !nothing_to_inline; ++round) {
    if (!onnx_parser::HasInlinableCalls(model, supported)) break;
    rewritten = true;
    int64_t inlined = 0;
    Status st = onnx_parser::InlineFunctions(
        &model, options.target_opset, onnx_parser::CollectValueTypes(model), supported, &inlined);
    if (!st.ok()) return Annotate(st, "ONNX model '", name, "': ");
    if (options.info != nullptr) options.info->inlined_functions += inlined;
    if (inlined == 0) break;
    InferShapesBestEffort(&model);
  }
  timer.Mark("inline");
  if (holding && file != nullptr) {
    held.fd = file->fd();
    held.file_base = bytes.data();
    held.owner = std::move(file);
  } else if (holding) {
    RETURN_IF_ERROR(MaterializeHeldWeights(name, &held));
  }
  // External data files are mapped once each and viewed by their tensors.
  TensorLoadContext tensors{model_dir, std::make_shared<onnx_parser::ExternalDataFiles>()};
  StatusOr<ComputeGraphPtr> graph =
      BuildGraph(model, options, std::move(tensors), holding ? &held : nullptr, &converted_ops,
                 &problems, rewritten ? nullptr : &root_index, rewritten ? nullptr : &root_ops);
  if (!graph.ok()) return Annotate(graph.status(), "ONNX model '", name, "': ");
  RETURN_IF_ERROR(problems.ToStatus(name));
  RETURN_IF_ERROR(AttrUtils::SetInt(*graph, "_onnx_ir_version", ir));
  RETURN_IF_ERROR(AttrUtils::SetInt(*graph, "_onnx_source_opset", conv->from_opset));
  timer.Mark("build");
  return graph;
}

}  // namespace

OnnxModelParser::OnnxModelParser() { onnx_parser::EnsureOnnxMappingsRegistered(); }

StatusOr<ComputeGraphPtr> OnnxModelParser::ParseFile(const std::string& path,
                                                     const ParseOptions& options) const {
  std::error_code ec;
  if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
    return ParamInvalid("ONNX model file '", path, "' is not a regular file");
  }
  // The file is mapped read-only, not read into a buffer: no copy of the
  // bytes (page-cache pages are mapped, not zeroed and filled); the big
  // weights' tensors view the mapping, and the OM writer copies them from
  // this file to the OM file in the kernel.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NotFound("ONNX model file '", path, "' cannot be opened");
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return IoError("ONNX model file '", path, "': cannot stat it");
  }
  // The mapping and the descriptor live as long as a tensor views them.
  const size_t size = static_cast<size_t>(st.st_size);
  std::shared_ptr<const onnx_parser::MappedFileRegion> file =
      onnx_parser::MappedFileRegion::Map(fd, size);
  if (file == nullptr) {
    return IoError("ONNX model file '", path, "': cannot map its ", size, " bytes");
  }
  const absl::string_view bytes(reinterpret_cast<const char*>(file->data()), size);
  std::string dir = options.model_dir;
  if (dir.empty()) {
    const size_t slash = path.rfind('/');
    dir = slash == std::string::npos ? std::string(".") : path.substr(0, slash == 0 ? 1 : slash);
  }
  return ParseModel(bytes, std::move(file), options, path, dir);
}

StatusOr<ComputeGraphPtr> OnnxModelParser::ParseBytes(absl::string_view bytes,
                                                      const ParseOptions& options) const {
  return ParseModel(bytes, nullptr, options, "", options.model_dir);
}

}  // namespace ge
