// graph/serialization/src/op_desc_codec.cc
#include "graph/serialization/src/op_desc_codec.h"

#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/serialization/src/graph_codec.h"

namespace ge {
namespace codec {
namespace {

bool ReadIo(absl::string_view bytes, IoView* io) {
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  *io = IoView();
  while (r.Next(&f, &t)) {
    if (f == PIo::kNameFieldNumber) {
      if (!r.Bytes(t, &io->name)) return false;
    } else if (f == PIo::kKindFieldNumber) {
      if (!r.Int32(t, &io->kind)) return false;
    } else if (!r.Skip(t)) {
      return false;
    }
  }
  return r.ok();
}

bool ReadInts(WireReader& r, WireType t, std::vector<int64_t>* out) {
  return r.Repeated(t, [out](int64_t v) {
    out->push_back(v);
    return true;
  });
}

}  // namespace

bool ReadOpFields(absl::string_view bytes, OpFields* op) {
  op->Clear();
  WireReader r(bytes);
  uint32_t f;
  WireType t;
  bool ok = true;
  while (ok && r.Next(&f, &t)) {
    absl::string_view s;
    switch (f) {
      case POp::kNameFieldNumber:
        ok = r.Bytes(t, &op->name);
        break;
      case POp::kTypeFieldNumber:
        ok = r.Bytes(t, &op->type);
        break;
      case POp::kInputFieldNumber:
        ok = AppendBytes(r, t, &op->inputs);
        break;
      case POp::kAttrFieldNumber:
        ok = AppendBytes(r, t, &op->attrs);
        break;
      case POp::kIdFieldNumber:
        ok = r.Int64(t, &op->id);
        break;
      case POp::kStreamIdFieldNumber:
        ok = r.Int64(t, &op->stream_id);
        break;
      case POp::kInputNameFieldNumber:
        ok = AppendBytes(r, t, &op->input_names);
        break;
      case POp::kSrcNameFieldNumber:
        ok = AppendBytes(r, t, &op->src_names);
        break;
      case POp::kSrcIndexFieldNumber:
        ok = ReadInts(r, t, &op->src_index);
        break;
      case POp::kDstNameFieldNumber:
        ok = AppendBytes(r, t, &op->dst_names);
        break;
      case POp::kDstIndexFieldNumber:
        ok = ReadInts(r, t, &op->dst_index);
        break;
      case POp::kInputIFieldNumber:
        ok = ReadInts(r, t, &op->input_i);
        break;
      case POp::kOutputIFieldNumber:
        ok = ReadInts(r, t, &op->output_i);
        break;
      case POp::kWorkspaceFieldNumber:
        ok = ReadInts(r, t, &op->workspace);
        break;
      case POp::kWorkspaceBytesFieldNumber:
        ok = ReadInts(r, t, &op->workspace_bytes);
        break;
      case POp::kIsInputConstFieldNumber:
        ok = r.Repeated(t, [op](int64_t v) {
          op->is_input_const.push_back(v != 0 ? 1 : 0);
          return true;
        });
        break;
      case POp::kInputDescFieldNumber:
        ok = AppendBytes(r, t, &op->input_descs);
        break;
      case POp::kOutputDescFieldNumber:
        ok = AppendBytes(r, t, &op->output_descs);
        break;
      case POp::kSubgraphNameFieldNumber:
        ok = AppendBytes(r, t, &op->subgraph_names);
        break;
      case POp::kOutputNameFieldNumber:
        ok = AppendBytes(r, t, &op->output_names);
        break;
      case POp::kIrInputFieldNumber:
      case POp::kIrOutputFieldNumber:
      case POp::kIrSubgraphFieldNumber: {
        IoView io;
        ok = r.Bytes(t, &s) && ReadIo(s, &io);
        (f == POp::kIrInputFieldNumber    ? op->ir_inputs
         : f == POp::kIrOutputFieldNumber ? op->ir_outputs
                                          : op->ir_subgraphs)
            .push_back(io);
        break;
      }
      case POp::kIrAttrNameFieldNumber:
        ok = AppendBytes(r, t, &op->ir_attr_names);
        break;
      case POp::kEngineNameFieldNumber:
        ok = r.Bytes(t, &op->engine);
        break;
      case POp::kKernelLibNameFieldNumber:
        ok = r.Bytes(t, &op->kernel);
        break;
      case POp::kOptionalInputFieldNumber:
        ok = r.Repeated(t, [op](int64_t v) {
          op->optional_inputs.push_back(static_cast<uint32_t>(v));
          return true;
        });
        break;
      case POp::kSubgraphSlotFieldNumber: {
        ok = r.Bytes(t, &s);
        WireReader sr(s);
        uint32_t sf;
        WireType st;
        std::pair<absl::string_view, uint32_t> slot;
        while (ok && sr.Next(&sf, &st)) {
          if (sf == PSlot::kNameFieldNumber) {
            ok = sr.Bytes(st, &slot.first);
          } else if (sf == PSlot::kIndexFieldNumber) {
            ok = sr.UInt32(st, &slot.second);
          } else {
            ok = sr.Skip(st);
          }
        }
        ok = ok && sr.ok();
        op->slots.push_back(slot);
        break;
      }
      case POp::kInAnchorNumFieldNumber:
        ok = r.UInt32(t, &op->in_anchor_num);
        op->has_in_anchor_num = true;
        break;
      case POp::kOutAnchorNumFieldNumber:
        ok = r.UInt32(t, &op->out_anchor_num);
        op->has_out_anchor_num = true;
        break;
      case POp::kOutputOrderFieldNumber: {
        ok = r.Bytes(t, &s);
        WireReader orr(s);
        uint32_t of;
        WireType ot;
        OutputOrderView order;
        while (ok && orr.Next(&of, &ot)) {
          if (of == POrder::kIndexFieldNumber) {
            ok = orr.Int32(ot, &order.index);
          } else if (of == POrder::kPeerRankFieldNumber) {
            ok = orr.Repeated(ot, [&order](int64_t v) {
              order.ranks.push_back(static_cast<uint32_t>(v));
              return true;
            });
          } else {
            ok = orr.Skip(ot);
          }
        }
        ok = ok && orr.ok();
        op->output_orders.push_back(std::move(order));
        break;
      }
      default:
        ok = r.Skip(t);
    }
  }
  return ok && r.ok();
}

namespace {

template <typename Kind>
StatusOr<Kind> IrKind(int32_t kind, const char* what,
                      std::initializer_list<std::pair<PIo::Kind, Kind>> table) {
  for (const auto& [k, v] : table) {
    if (k == kind) return v;
  }
  return ParseFailed(what, " kind ", kind, " is not allowed");
}

// Appends the IR metadata of `f` to `op`.
Status AddIrMeta(const OpFields& f, OpDesc& op) {
  for (const IoView& io : f.ir_inputs) {
    ASSIGN_OR_RETURN(IrInputType kind, IrKind<IrInputType>(io.kind, "IR input",
                                                           {{PIo::REQUIRED, kIrInputRequired},
                                                            {PIo::OPTIONAL, kIrInputOptional},
                                                            {PIo::DYNAMIC, kIrInputDynamic}}));
    RETURN_IF_ERROR(op.AppendIrInput(std::string(io.name), kind));
  }
  for (const IoView& io : f.ir_outputs) {
    ASSIGN_OR_RETURN(IrOutputType kind, IrKind<IrOutputType>(io.kind, "IR output",
                                                             {{PIo::REQUIRED, kIrOutputRequired},
                                                              {PIo::DYNAMIC, kIrOutputDynamic}}));
    RETURN_IF_ERROR(op.AppendIrOutput(std::string(io.name), kind));
  }
  for (const IoView& io : f.ir_subgraphs) {
    ASSIGN_OR_RETURN(SubgraphType kind,
                     IrKind<SubgraphType>(io.kind, "IR subgraph",
                                          {{PIo::STATIC, kStatic}, {PIo::DYNAMIC, kDynamic}}));
    RETURN_IF_ERROR(op.RegisterSubgraphIrName(std::string(io.name), kind));
  }
  for (absl::string_view name : f.ir_attr_names) {
    RETURN_IF_ERROR(op.AppendIrAttrName(std::string(name)));
  }
  return OkStatus();
}

template <typename Kind, typename Pairs>
bool SameIo(const Pairs& have, const std::vector<IoView>& want,
            std::initializer_list<std::pair<int32_t, Kind>> table) {
  if (have.size() != want.size()) return false;
  for (size_t i = 0; i < want.size(); ++i) {
    if (have[i].first != want[i].name) return false;
    bool match = false;
    for (const auto& [k, v] : table) {
      if (k == want[i].kind) {
        match = v == have[i].second;
        break;
      }
    }
    if (!match) return false;  // includes unknown kinds: the slow path reports them
  }
  return true;
}

bool SameIrMeta(const OpDesc& donor, const OpFields& f) {
  const std::vector<std::string>& attrs = donor.GetIrAttrNames();
  if (attrs.size() != f.ir_attr_names.size()) return false;
  for (size_t i = 0; i < attrs.size(); ++i) {
    if (attrs[i] != f.ir_attr_names[i]) return false;
  }
  return SameIo<IrInputType>(donor.GetIrInputs(), f.ir_inputs,
                             {{PIo::REQUIRED, kIrInputRequired},
                              {PIo::OPTIONAL, kIrInputOptional},
                              {PIo::DYNAMIC, kIrInputDynamic}}) &&
         SameIo<IrOutputType>(
             donor.GetIrOutputs(), f.ir_outputs,
             {{PIo::REQUIRED, kIrOutputRequired}, {PIo::DYNAMIC, kIrOutputDynamic}}) &&
         SameIo<SubgraphType>(donor.GetOrderedSubgraphIrNames(), f.ir_subgraphs,
                              {{PIo::STATIC, kStatic}, {PIo::DYNAMIC, kDynamic}});
}

}  // namespace

StatusOr<OpDescPtr> BuildOpDesc(const OpFields& f, DeserializeContext& ctx, IrDonors* donors,
                                DescCache* descs) {
  const size_t n_in = f.input_descs.size();
  const size_t n_out = f.output_descs.size();
  if (static_cast<int64_t>(n_in) > ctx.options.max_ports_per_op ||
      static_cast<int64_t>(n_out) > ctx.options.max_ports_per_op) {
    return OutOfRange("op has ", n_in, " input and ", n_out,
                      " output descs, more than the limit of ", ctx.options.max_ports_per_op);
  }
  if (!f.input_names.empty() && f.input_names.size() != n_in) {
    return ParseFailed("op has ", n_in, " input descs but ", f.input_names.size(), " input names");
  }
  if (!f.output_names.empty() && f.output_names.size() != n_out) {
    return ParseFailed("op has ", n_out, " output descs but ", f.output_names.size(),
                       " output names");
  }
  absl::InlinedVector<uint8_t, 8> optional(n_in, 0);
  for (uint32_t idx : f.optional_inputs) {
    if (idx >= n_in) {
      return OutOfRange("optional input index ", idx, " is out of range (", n_in, " inputs)");
    }
    optional[idx] = 1;
  }
  // Pooled (huge-page backed, no per-object malloc): decoding builds many.
  OpDescPtr op = OpDesc::Create(std::string(f.name), std::string(f.type));
  op->SetId(f.id);
  op->SetStreamId(f.stream_id);
  op->ReservePorts(n_in + n_out);

  GeTensorDesc scratch;
  // The decoded desc of `bytes` (cached or in `scratch`).
  auto decode = [&ctx, descs, &scratch](absl::string_view bytes) -> StatusOr<const GeTensorDesc*> {
    if (descs == nullptr) {
      RETURN_IF_ERROR(DecodeDesc(bytes, ctx, &scratch));
      return &scratch;
    }
    return descs->Get(bytes, ctx, &scratch);
  };
  for (size_t i = 0; i < n_in; ++i) {
    StatusOr<const GeTensorDesc*> decoded = decode(f.input_descs[i]);
    if (!decoded.ok()) return Annotate(decoded.status(), "input desc ", i, ": ");
    const GeTensorDesc& desc = **decoded;
    if (optional[i] != 0) {
      RETURN_IF_ERROR(op->AddOptionalInputDesc(
          f.input_names.empty() ? absl::StrCat(kInputPrefix, i) : std::string(f.input_names[i]),
          desc));
    } else if (!f.input_names.empty()) {
      RETURN_IF_ERROR(op->AddInputDesc(std::string(f.input_names[i]), desc));
    } else {
      RETURN_IF_ERROR(op->AddInputDesc(desc));
    }
  }
  for (size_t i = 0; i < n_out; ++i) {
    StatusOr<const GeTensorDesc*> decoded = decode(f.output_descs[i]);
    if (!decoded.ok()) return Annotate(decoded.status(), "output desc ", i, ": ");
    const GeTensorDesc& desc = **decoded;
    if (!f.output_names.empty()) {
      RETURN_IF_ERROR(op->AddOutputDesc(std::string(f.output_names[i]), desc));
    } else {
      RETURN_IF_ERROR(op->AddOutputDesc(desc));
    }
  }

  const bool has_ir = !f.ir_inputs.empty() || !f.ir_outputs.empty() || !f.ir_subgraphs.empty() ||
                      !f.ir_attr_names.empty();
  OpDesc* donor = nullptr;
  if (has_ir && donors != nullptr) {
    auto it = donors->find(f.type);
    if (it != donors->end() && SameIrMeta(*it->second, f)) donor = it->second.get();
  }
  if (donor != nullptr) {
    op->ShareIrMetaFrom(*donor);
  } else {
    RETURN_IF_ERROR(AddIrMeta(f, *op));
    if (has_ir && donors != nullptr) donors->try_emplace(std::string(f.type), op);
  }

  // Subgraph slots: slot k was registered when there were k instances.
  const size_t n_inst = f.subgraph_names.size();
  std::vector<absl::string_view> slot_at(n_inst);
  std::vector<bool> has_slot(n_inst, false);
  for (const auto& [name, index] : f.slots) {
    if (index >= n_inst) {
      return OutOfRange("subgraph slot '", name, "' has index ", index, " but the op has ", n_inst,
                        " subgraph instances");
    }
    if (has_slot[index]) {
      return GraphInvalid("subgraph slots '", slot_at[index], "' and '", name, "' share index ",
                          index);
    }
    has_slot[index] = true;
    slot_at[index] = name;
  }
  for (size_t i = 0; i < n_inst; ++i) {
    if (has_slot[i]) {
      RETURN_IF_ERROR(op->AddSubgraphName(std::string(slot_at[i])));
      RETURN_IF_ERROR(
          op->SetSubgraphInstanceName(static_cast<uint32_t>(i), std::string(f.subgraph_names[i])));
    } else {
      op->AddSubgraphInstanceName(std::string(f.subgraph_names[i]));
    }
  }

  auto strings = [](const std::vector<absl::string_view>& v) {
    return std::vector<std::string>(v.begin(), v.end());
  };
  if (!f.input_i.empty()) op->SetInputOffset(f.input_i);
  if (!f.output_i.empty()) op->SetOutputOffset(f.output_i);
  if (!f.workspace.empty()) op->SetWorkspace(f.workspace);
  if (!f.workspace_bytes.empty()) op->SetWorkspaceBytes(f.workspace_bytes);
  if (!f.src_index.empty()) op->SetSrcIndex(f.src_index);
  if (!f.dst_index.empty()) op->SetDstIndex(f.dst_index);
  if (!f.src_names.empty()) op->SetSrcName(strings(f.src_names));
  if (!f.dst_names.empty()) op->SetDstName(strings(f.dst_names));
  if (!f.is_input_const.empty()) {
    op->SetIsInputConst(std::vector<bool>(f.is_input_const.begin(), f.is_input_const.end()));
  }
  if (!f.engine.empty()) op->SetOpEngineName(std::string(f.engine));
  if (!f.kernel.empty()) op->SetOpKernelLibName(std::string(f.kernel));
  RETURN_IF_ERROR(DecodeAttrs(f.attrs, ctx, &op->MutableAttrStore()));
  return op;
}

Status EncodeOpDesc(const OpDesc& op, SerializeContext& ctx, std::string* out) {
  WireWriter w(out);
  return EncodeOp(
      op, ctx, w, [](WireWriter&) { return OkStatus(); },
      [](WireWriter&, size_t, size_t) { return OkStatus(); });
}

StatusOr<OpDescPtr> DecodeOpDesc(absl::string_view bytes, DeserializeContext& ctx) {
  RETURN_IF_ERROR(CheckSize(bytes));
  OpFields fields;
  if (!ReadOpFields(bytes, &fields)) return Malformed("OpDef");
  return BuildOpDesc(fields, ctx);
}
}  // namespace codec
}  // namespace ge
