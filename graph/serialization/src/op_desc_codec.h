// graph/serialization/src/op_desc_codec.h
//
// Internal: OpDesc <-> OpDef fields. EncodeOp writes an op in field order
// (its edges and the graph-level tail fields come from the caller: the graph
// writer); ReadOpFields splits OpDef bytes into views (OpFields) and
// BuildOpDesc makes the OpDesc from them (everything but edges), checking
// port counts, names and IR metadata. Ops of one type share one decoded copy
// of equal IR metadata (IrDonors).
//
// Example
//   RETURN_IF_ERROR(EncodeOp(op, ctx, w, [](WireWriter&) { return OkStatus(); },
//                            [](WireWriter&, size_t, size_t) { return OkStatus(); }));
//   ...
//   OpFields fields;
//   if (!ReadOpFields(bytes, &fields)) return Malformed("OpDef");
//   ASSIGN_OR_RETURN(OpDescPtr op, BuildOpDesc(fields, dctx));
#ifndef GRAPH_SERIALIZATION_SRC_OP_DESC_CODEC_H_
#define GRAPH_SERIALIZATION_SRC_OP_DESC_CODEC_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/string_view.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/serialization/inc/serialize_context.h"
#include "graph/serialization/src/attr_codec.h"
#include "graph/serialization/src/codec_common.h"
#include "graph/serialization/src/tensor_desc_codec.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace codec {

constexpr absl::string_view kInputPrefix = "__input";
constexpr absl::string_view kOutputPrefix = "__output";

// True when `name` is the default port name prefix + index ("__input3").
inline bool IsDefaultPortName(const std::string& name, absl::string_view prefix, size_t index) {
  if (name.size() <= prefix.size() || absl::string_view(name).substr(0, prefix.size()) != prefix) {
    return false;
  }
  char buf[absl::numbers_internal::kFastToBufferSize];
  char* end = absl::numbers_internal::FastIntToBuffer(static_cast<uint64_t>(index), buf);
  return absl::string_view(name).substr(prefix.size()) == absl::string_view(buf, end - buf);
}

// Writes the OpDef fields of `op` in field order; `inputs(w)` writes field 5
// (edges), `tail(w, n_in_descs, n_out_descs)` fields 49-51.
template <typename InputsFn, typename TailFn>
Status EncodeOp(const OpDesc& op, SerializeContext& ctx, WireWriter& w, InputsFn inputs,
                TailFn tail) {
  w.String(POp::kNameFieldNumber, op.GetName());
  w.String(POp::kTypeFieldNumber, op.GetType());
  RETURN_IF_ERROR(inputs(w));
  const bool structure = ctx.options.structure_only;
  if (!structure && !op.GetAttrStore().empty()) {
    RETURN_IF_ERROR(EncodeAttrs(op.GetAttrStore(), POp::kAttrFieldNumber, ctx, w));
  }
  w.Int64(POp::kIdFieldNumber, op.GetId());
  w.Int64(POp::kStreamIdFieldNumber, op.GetStreamId());
  if (structure) return tail(w, 0, 0);

  const size_t n_in = op.GetAllInputsSize();
  const size_t n_out = op.GetAllOutputsDescSize();
  // Without the extension state the compile state and subgraph names are
  // all empty: skip them.
  const bool has_ext = op.HasExtState();
  bool default_names = true;
  for (size_t i = 0; i < n_in && default_names; ++i) {
    default_names =
        IsDefaultPortName(*op.GetInputNamePtr(static_cast<uint32_t>(i)), kInputPrefix, i);
  }
  if (!default_names) {
    for (size_t i = 0; i < n_in; ++i) {
      w.StringAlways(POp::kInputNameFieldNumber, *op.GetInputNamePtr(static_cast<uint32_t>(i)));
    }
  }
  if (has_ext) {
    for (const std::string& s : op.GetSrcName()) w.StringAlways(POp::kSrcNameFieldNumber, s);
    w.PackedInt64<int64_t>(POp::kSrcIndexFieldNumber, op.GetSrcIndex());
    for (const std::string& s : op.GetDstName()) w.StringAlways(POp::kDstNameFieldNumber, s);
    w.PackedInt64<int64_t>(POp::kDstIndexFieldNumber, op.GetDstIndex());
    w.PackedInt64<int64_t>(POp::kInputIFieldNumber, op.GetInputOffset());
    w.PackedInt64<int64_t>(POp::kOutputIFieldNumber, op.GetOutputOffset());
    w.PackedInt64<int64_t>(POp::kWorkspaceFieldNumber, op.GetWorkspace());
    w.PackedInt64<int64_t>(POp::kWorkspaceBytesFieldNumber, op.GetWorkspaceBytes());
    const std::vector<bool> is_const = op.GetIsInputConst();
    if (!is_const.empty()) {
      const std::vector<uint8_t> bytes(is_const.begin(), is_const.end());
      w.PackedUInt32<uint8_t>(POp::kIsInputConstFieldNumber, bytes);
    }
  }
  for (size_t i = 0; i < n_in; ++i) {
    const size_t m = w.BeginMessage(POp::kInputDescFieldNumber);
    RETURN_IF_ERROR(Annotate(EncodeDescBody(*op.PeekInputDesc(static_cast<uint32_t>(i)), ctx, w),
                             "input desc ", i, ": "));
    w.EndMessage(m);
  }
  for (size_t i = 0; i < n_out; ++i) {
    const size_t m = w.BeginMessage(POp::kOutputDescFieldNumber);
    RETURN_IF_ERROR(Annotate(EncodeDescBody(*op.PeekOutputDesc(static_cast<uint32_t>(i)), ctx, w),
                             "output desc ", i, ": "));
    w.EndMessage(m);
  }
  const std::vector<std::string>& instances = op.GetSubgraphInstanceNames();
  for (const std::string& inst : instances) w.StringAlways(POp::kSubgraphNameFieldNumber, inst);
  default_names = true;
  for (size_t i = 0; i < n_out && default_names; ++i) {
    default_names =
        IsDefaultPortName(*op.GetOutputNamePtr(static_cast<uint32_t>(i)), kOutputPrefix, i);
  }
  if (!default_names) {
    for (size_t i = 0; i < n_out; ++i) {
      w.StringAlways(POp::kOutputNameFieldNumber, *op.GetOutputNamePtr(static_cast<uint32_t>(i)));
    }
  }
  auto io = [&w](uint32_t field, const std::string& name, PIo::Kind kind) {
    const size_t m = w.BeginMessage(field);
    w.String(PIo::kNameFieldNumber, name);
    w.Int32(PIo::kKindFieldNumber, kind);
    w.EndMessage(m);
  };
  for (const auto& [name, kind] : op.GetIrInputs()) {
    io(POp::kIrInputFieldNumber, name,
       kind == kIrInputOptional  ? PIo::OPTIONAL
       : kind == kIrInputDynamic ? PIo::DYNAMIC
                                 : PIo::REQUIRED);
  }
  for (const auto& [name, kind] : op.GetIrOutputs()) {
    io(POp::kIrOutputFieldNumber, name, kind == kIrOutputDynamic ? PIo::DYNAMIC : PIo::REQUIRED);
  }
  for (const auto& [name, kind] : op.GetOrderedSubgraphIrNames()) {
    io(POp::kIrSubgraphFieldNumber, name, kind == kDynamic ? PIo::DYNAMIC : PIo::STATIC);
  }
  for (const std::string& name : op.GetIrAttrNames())
    w.StringAlways(POp::kIrAttrNameFieldNumber, name);
  // Engine names live inline (set on every op of a compiled graph).
  w.String(POp::kEngineNameFieldNumber, op.GetOpEngineName());
  w.String(POp::kKernelLibNameFieldNumber, op.GetOpKernelLibName());
  if (!has_ext) return tail(w, n_in, n_out);
  absl::InlinedVector<uint32_t, 4> optional;
  for (size_t i = 0; i < n_in; ++i) {
    if (op.IsOptionalInput(static_cast<uint32_t>(i))) optional.push_back(static_cast<uint32_t>(i));
  }
  w.PackedUInt32<uint32_t>(POp::kOptionalInputFieldNumber, optional);
  if (!instances.empty()) {
    for (const auto& [name, index] : op.GetSubgraphNameIndexes()) {  // sorted by name
      const size_t m = w.BeginMessage(POp::kSubgraphSlotFieldNumber);
      w.String(PSlot::kNameFieldNumber, name);
      w.UInt32(PSlot::kIndexFieldNumber, index);
      w.EndMessage(m);
    }
  }
  return tail(w, n_in, n_out);
}

struct IoView {
  absl::string_view name;
  int32_t kind = 0;
};

struct OutputOrderView {
  int32_t index = 0;
  std::vector<uint32_t> ranks;
};

// The fields of one OpDef, as views into the bytes. Reused across ops.
struct OpFields {
  absl::string_view name, type, engine, kernel;
  int64_t id = 0, stream_id = 0;
  bool has_in_anchor_num = false, has_out_anchor_num = false;
  uint32_t in_anchor_num = 0, out_anchor_num = 0;
  std::vector<absl::string_view> inputs, attrs, input_names, output_names, src_names, dst_names,
      subgraph_names, ir_attr_names, input_descs, output_descs;
  std::vector<int64_t> src_index, dst_index, input_i, output_i, workspace, workspace_bytes;
  std::vector<uint8_t> is_input_const;
  std::vector<uint32_t> optional_inputs;
  std::vector<IoView> ir_inputs, ir_outputs, ir_subgraphs;
  std::vector<std::pair<absl::string_view, uint32_t>> slots;
  std::vector<OutputOrderView> output_orders;

  void Clear() {
    name = type = engine = kernel = absl::string_view();
    id = stream_id = 0;
    has_in_anchor_num = has_out_anchor_num = false;
    in_anchor_num = out_anchor_num = 0;
    for (auto* v : {&inputs, &attrs, &input_names, &output_names, &src_names, &dst_names,
                    &subgraph_names, &ir_attr_names, &input_descs, &output_descs}) {
      v->clear();
    }
    for (auto* v : {&src_index, &dst_index, &input_i, &output_i, &workspace, &workspace_bytes}) {
      v->clear();
    }
    is_input_const.clear();
    optional_inputs.clear();
    ir_inputs.clear();
    ir_outputs.clear();
    ir_subgraphs.clear();
    slots.clear();
    output_orders.clear();
  }
};

// Splits OpDef bytes into views (reusing the vectors of *op); false when
// the bytes are malformed.
bool ReadOpFields(absl::string_view bytes, OpFields* op);

// Ops of one type usually carry the same IR metadata: the first op of each
// type that has some donates it (shared copy-on-write) to the later ones, so
// a model decodes one copy per type instead of one per op.
using IrDonors = absl::flat_hash_map<std::string, OpDescPtr>;

// Builds the OpDesc of an op (everything but its edges). `donors` (optional)
// shares IR metadata between ops of a type; `descs` (optional) caches
// decoded tensor descs.
StatusOr<OpDescPtr> BuildOpDesc(const OpFields& f, DeserializeContext& ctx,
                                IrDonors* donors = nullptr, DescCache* descs = nullptr);

}  // namespace codec
}  // namespace ge

#endif  // GRAPH_SERIALIZATION_SRC_OP_DESC_CODEC_H_
