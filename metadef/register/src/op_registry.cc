// metadef/register/src/op_registry.cc
//
// The REG_OP chain, the pending queue, the process-wide OpRegistry (priority
// resolution, override window, decision log, suggestions), the OpDesc
// prototypes (validated at commit, built on first use), OperatorFactory and
// the OpDesc-level checks / infer shape driver.
//
// Concurrency: OpReceiver appends to a mutex-guarded queue. Commits are
// serialised by a mutex and are the only writers of the type map; lookups
// read the map without a lock (the header's contract: no commit runs
// concurrently with lookups). Registrations live in their commit's batch,
// never freed, so pointers handed out stay valid after a replacement.
#include "metadef/register/inc/register/op_registry.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/call_once.h"
#include "absl/base/thread_annotations.h"
#include "absl/container/flat_hash_map.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/synchronization/mutex.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_infer_runner.h"
#include "metadef/register/src/internal/suggest.h"

namespace ge {
namespace {

constexpr char kBuiltinSource[] = "builtin";
// Upper bound for one dynamic input / output / subgraph expansion: far above
// any real op, low enough that a malformed count cannot exhaust memory.
constexpr uint32_t kMaxDynamicCount = 1u << 20;

// ---------------------------------------------------------------- queue

struct PendingQueue {
  absl::Mutex mu;
  std::vector<OpRegistrationData> items ABSL_GUARDED_BY(mu);
  std::atomic<size_t> count{0};
};

PendingQueue& Pending() {
  static PendingQueue* q = new PendingQueue();  // never destroyed
  return *q;
}

void Enqueue(OpRegistrationData&& data) {
  PendingQueue& q = Pending();
  absl::MutexLock lock(&q.mu);
  // The builtin ops register at static initialisation: one block for all
  // of them instead of a vector regrown (and its entries moved) ~9 times.
  static bool first = true;
  if (std::exchange(first, false)) q.items.reserve(512);
  q.items.push_back(std::move(data));
  q.count.store(q.items.size(), std::memory_order_release);
}

// ---------------------------------------------------------------- helpers

std::string SourceOf(const OpRegistrationData& d) {
  return d.source.empty() ? std::string(kBuiltinSource) : d.source;
}

GeTensorDesc AbsentOptionalDesc() { return GeTensorDesc(GeShape(), FORMAT_RESERVED, DT_UNDEFINED); }

// What a registration must satisfy to be committed: no chain error
// (duplicate names are chain errors), no empty names, distinct subgraph
// names; then BuildPrototype succeeds.
Status ValidateRegistration(const OpRegistrationData& d) {
  // The message head is built only for a failure: a commit validates every
  // registration of the process (~300 builtin ones on the first lookup of
  // an OM load), so the passing path allocates nothing.
  auto where = [&d]() { return absl::StrCat("op type '", d.type, "' from ", SourceOf(d), ": "); };
  if (!d.decl_error.empty()) return ParamInvalid(where(), d.decl_error);
  if (d.traits_only &&
      (!d.inputs.empty() || !d.outputs.empty() || !d.attrs.empty() || !d.subgraphs.empty() ||
       d.infer_shape != nullptr || d.infer_data_type != nullptr || d.infer_format != nullptr ||
       d.verify != nullptr || d.tiling != nullptr)) {
    return ParamInvalid(where(), "a traits-only declaration declares more than traits");
  }
  for (uint32_t k : d.traits.value_dependent_inputs) {
    if (k >= d.inputs.size()) {
      return ParamInvalid(where(), "value-dependent input index ", k, " is not an IR input (",
                          d.inputs.size(), " declared)");
    }
  }
  for (const OpIoDef& in : d.inputs) {
    if (in.name.empty()) return ParamInvalid(where(), "an input has an empty name");
  }
  for (const OpIoDef& out : d.outputs) {
    if (out.name.empty()) return ParamInvalid(where(), "an output has an empty name");
  }
  for (const OpAttrDef& a : d.attrs) {
    if (a.name.empty()) return ParamInvalid(where(), "an attribute has an empty name");
  }
  // Subgraph lists are a handful of entries: pairwise checks.
  for (size_t i = 0; i < d.subgraphs.size(); ++i) {
    const std::string& name = d.subgraphs[i].name;
    if (name.empty()) return ParamInvalid(where(), "a subgraph has an empty name");
    for (size_t j = 0; j < i; ++j) {
      if (d.subgraphs[j].name == name)
        return ParamInvalid(where(), "two subgraphs named '", name, "'");
    }
  }
  return OkStatus();
}

// Builds the OpDesc prototype of a validated registration (on first use: a
// process that looks up few op types does not pay for the others'; the
// registry's ~300 prototypes were ~1.4 ms of fresh memory on the build VM,
// a fixed cost of every OM load).
StatusOr<std::shared_ptr<OpDesc>> BuildPrototype(const OpRegistrationData& d) {
  const std::string where = absl::StrCat("op type '", d.type, "' from ", SourceOf(d), ": ");
  RETURN_IF_ERROR(ValidateRegistration(d));
  auto op = std::make_shared<OpDesc>(d.type, d.type);
  for (const OpIoDef& in : d.inputs) {
    IrInputType kind = kIrInputRequired;
    switch (in.kind) {
      case IoKind::kRequired:
        RETURN_IF_ERROR(Annotate(op->AddInputDesc(in.name, GeTensorDesc()), where));
        break;
      case IoKind::kOptional:
        kind = kIrInputOptional;
        RETURN_IF_ERROR(Annotate(op->AddOptionalInputDesc(in.name, AbsentOptionalDesc()), where));
        break;
      case IoKind::kDynamic:
        kind = kIrInputDynamic;
        break;
    }
    RETURN_IF_ERROR(Annotate(op->AppendIrInput(in.name, kind), where));
  }
  for (const OpIoDef& out : d.outputs) {
    IrOutputType kind = kIrOutputRequired;
    switch (out.kind) {
      case IoKind::kRequired:
      case IoKind::kOptional:
        // An optional output always has its desc (ONNX may leave it unused:
        // then no consumer is linked and executors may skip producing it).
        RETURN_IF_ERROR(Annotate(op->AddOutputDesc(out.name, GeTensorDesc()), where));
        break;
      case IoKind::kDynamic:
        kind = kIrOutputDynamic;
        break;
    }
    RETURN_IF_ERROR(Annotate(op->AppendIrOutput(out.name, kind), where));
  }
  for (const OpAttrDef& a : d.attrs) {
    RETURN_IF_ERROR(Annotate(op->AppendIrAttrName(a.name), where));
    // Optional attributes without a default (OptionalAttr) stay absent.
    if (!a.required && !a.default_value.IsEmpty()) {
      RETURN_IF_ERROR(Annotate(op->SetAttr(a.name, a.default_value), where));
    }
  }
  for (const OpSubgraphDef& g : d.subgraphs) {
    RETURN_IF_ERROR(Annotate(op->RegisterSubgraphIrName(g.name, g.dynamic ? SubgraphType::kDynamic
                                                                          : SubgraphType::kStatic),
                             where));
    if (!g.dynamic) RETURN_IF_ERROR(Annotate(op->AddSubgraphName(g.name), where));
  }
  op->SetVerifyFunc([](OpDesc& o) { return VerifyOpDesc(o); });
  if (d.infer_shape != nullptr) {
    op->SetInferFunc([](OpDesc& o) { return InferShapeAndTypeForOpDesc(o); });
  }
  return op;
}

}  // namespace

// ---------------------------------------------------------------- data

const KernelDef* OpRegistrationData::FindKernel(absl::string_view engine) const {
  return KernelRegistry::Instance().Find(type, engine);
}

const OpAttrDef* OpRegistrationData::FindAttr(absl::string_view name) const {
  for (const OpAttrDef& a : attrs) {
    if (a.name == name) return &a;
  }
  return nullptr;
}

bool OpTraits::IsValueDependentInput(size_t ir_index) const {
  return std::binary_search(value_dependent_inputs.begin(), value_dependent_inputs.end(), ir_index);
}

// ---------------------------------------------------------------- OpReg

OpReg::OpReg(std::string type) {
  data_.type = std::move(type);
  if (data_.type.empty()) data_.decl_error = "empty op type";
}

OpReg::OpReg(std::string type, TraitsOnlyTag) : OpReg(std::move(type)) { data_.traits_only = true; }

namespace {
void AddIo(OpRegistrationData& d, std::vector<OpIoDef>& list, std::string name, IoKind kind,
           TensorType types, const char* what) {
  for (const OpIoDef& io : list) {
    if (io.name == name && d.decl_error.empty()) {
      d.decl_error = absl::StrCat("duplicate ", what, " '", name, "'");
    }
  }
  OpIoDef io;
  io.name = std::move(name);
  io.kind = kind;
  io.types = std::move(types);
  list.push_back(std::move(io));
}
}  // namespace

OpReg& OpReg::Input(std::string name, TensorType types) {
  AddIo(data_, data_.inputs, std::move(name), IoKind::kRequired, std::move(types), "input");
  last_io_ = LastIo::kInput;
  return *this;
}

OpReg& OpReg::OptionalInput(std::string name, TensorType types) {
  AddIo(data_, data_.inputs, std::move(name), IoKind::kOptional, std::move(types), "input");
  last_io_ = LastIo::kInput;
  return *this;
}

OpReg& OpReg::DynamicInput(std::string name, TensorType types) {
  AddIo(data_, data_.inputs, std::move(name), IoKind::kDynamic, std::move(types), "input");
  last_io_ = LastIo::kInput;
  return *this;
}

OpReg& OpReg::Output(std::string name, TensorType types) {
  AddIo(data_, data_.outputs, std::move(name), IoKind::kRequired, std::move(types), "output");
  last_io_ = LastIo::kOutput;
  return *this;
}

OpReg& OpReg::DynamicOutput(std::string name, TensorType types) {
  AddIo(data_, data_.outputs, std::move(name), IoKind::kDynamic, std::move(types), "output");
  last_io_ = LastIo::kOutput;
  return *this;
}

OpReg& OpReg::OptionalOutput(std::string name, TensorType types) {
  AddIo(data_, data_.outputs, std::move(name), IoKind::kOptional, std::move(types), "output");
  last_io_ = LastIo::kOutput;
  return *this;
}

OpReg& OpReg::Format(std::vector<ge::Format> formats) {
  std::vector<OpIoDef>* list = last_io_ == LastIo::kInput    ? &data_.inputs
                               : last_io_ == LastIo::kOutput ? &data_.outputs
                                                             : nullptr;
  if (list == nullptr || list->empty()) {
    if (data_.decl_error.empty()) data_.decl_error = "Format() before any Input() / Output()";
    return *this;
  }
  list->back().formats = std::move(formats);
  return *this;
}

namespace {
void AddAttr(OpRegistrationData& d, OpAttrDef def) {
  if (d.decl_error.empty()) {
    if (d.FindAttr(def.name) != nullptr) {
      d.decl_error = absl::StrCat("duplicate attribute '", def.name, "'");
    } else if (def.type == AttrValue::VT_NONE) {
      d.decl_error = absl::StrCat("attribute '", def.name, "' has no type (empty default value)");
    }
  }
  d.attrs.push_back(std::move(def));
}
}  // namespace

OpReg& OpReg::Attr(std::string name, AttrValue default_value) {
  OpAttrDef def;
  def.name = std::move(name);
  def.type = default_value.GetValueType();
  def.required = false;
  def.default_value = std::move(default_value);
  AddAttr(data_, std::move(def));
  return *this;
}

OpReg& OpReg::RequiredAttr(std::string name, AttrValue::ValueType type) {
  OpAttrDef def;
  def.name = std::move(name);
  def.type = type;
  def.required = true;
  AddAttr(data_, std::move(def));
  return *this;
}

OpReg& OpReg::OptionalAttr(std::string name, AttrValue::ValueType type) {
  OpAttrDef def;
  def.name = std::move(name);
  def.type = type;
  def.required = false;
  AddAttr(data_, std::move(def));
  return *this;
}

OpReg& OpReg::Subgraph(std::string name) {
  data_.subgraphs.push_back(OpSubgraphDef{std::move(name), false});
  return *this;
}

OpReg& OpReg::DynamicSubgraph(std::string name) {
  data_.subgraphs.push_back(OpSubgraphDef{std::move(name), true});
  return *this;
}

OpReg& OpReg::InferShape(InferShapeFn fn) {
  data_.infer_shape = fn;
  return *this;
}

OpReg& OpReg::InferDataType(InferDataTypeFn fn) {
  data_.infer_data_type = fn;
  return *this;
}

OpReg& OpReg::InferFormat(InferFormatFn fn) {
  data_.infer_format = fn;
  return *this;
}

OpReg& OpReg::Verify(VerifyFn fn) {
  data_.verify = fn;
  return *this;
}

OpReg& OpReg::Tiling(TilingFn fn) {
  data_.tiling = fn;
  return *this;
}

OpReg& OpReg::Priority(int32_t priority) {
  data_.priority = priority;
  return *this;
}

OpReg& OpReg::SideEffect() {
  data_.traits.flags |= kOpTraitSideEffect;
  return *this;
}

OpReg& OpReg::Random() {
  data_.traits.flags |= kOpTraitRandom;
  return *this;
}

OpReg& OpReg::DataDependentOutputShape() {
  data_.traits.flags |= kOpTraitDataDependentOutputShape;
  return *this;
}

OpReg& OpReg::ValueDependentInput(absl::string_view ir_input_name) {
  for (size_t k = 0; k < data_.inputs.size(); ++k) {
    if (data_.inputs[k].name == ir_input_name) return ValueDependentInput(static_cast<uint32_t>(k));
  }
  if (data_.decl_error.empty()) {
    data_.decl_error = absl::StrCat("ValueDependentInput(\"", ir_input_name,
                                    "\"): no input of that name is declared before it");
  }
  return *this;
}

OpReg& OpReg::ValueDependentInput(uint32_t ir_index) {
  std::vector<uint32_t>& v = data_.traits.value_dependent_inputs;
  auto it = std::lower_bound(v.begin(), v.end(), ir_index);
  if (it == v.end() || *it != ir_index) v.insert(it, ir_index);
  return *this;
}

OpReceiver::OpReceiver(OpReg& reg) { Enqueue(reg.Release()); }
OpReceiver::OpReceiver(OpReg&& reg) { Enqueue(reg.Release()); }

// ---------------------------------------------------------------- registry

struct OpRegistry::Impl {
  // A registration's prototype, built once on first use (FindPrototype).
  struct Prototype {
    absl::once_flag once;
    std::shared_ptr<OpDesc> op;  // null when building failed (logged)
  };
  // One commit's registrations, kept where the pending queue left them
  // (moving ~300 registrations to one heap block each was most of a
  // commit: fresh memory on the first lookup of every OM load).
  struct Batch {
    std::vector<OpRegistrationData> items;
    std::unique_ptr<Prototype[]> prototypes;  // one per item
  };
  struct Entry {
    const OpRegistrationData* data;
    Prototype* prototype;
  };

  absl::Mutex commit_mu;  // serialises writers (commits, test hooks)
  // Written only under commit_mu; read without a lock (see the header).
  // Keys view the entries' `type`. Batches are never freed, so replaced
  // and unregistered entries (and pointers handed out) stay valid.
  absl::flat_hash_map<absl::string_view, Entry> ops;
  // Traits-only declarations (their prototypes are never built).
  absl::flat_hash_map<absl::string_view, Entry> traits_only;
  std::vector<std::unique_ptr<Batch>> batches ABSL_GUARDED_BY(commit_mu);
  std::atomic<bool> overridable{false};

  mutable absl::Mutex log_mu;
  std::vector<std::string> log ABSL_GUARDED_BY(log_mu);

  void Log(std::string line) {
    std::fprintf(stderr, "[INFO] ge op registry: %s\n", line.c_str());
    absl::MutexLock lock(&log_mu);
    log.push_back(std::move(line));
  }

  Status CommitOne(const OpRegistrationData& d, Prototype* prototype)
      ABSL_EXCLUSIVE_LOCKS_REQUIRED(commit_mu);
};

OpRegistry::Impl* OpRegistry::impl() {
  static Impl* i = new Impl();  // never destroyed: plugins may outlive static destruction
  return i;
}

const OpRegistry::Impl* OpRegistry::impl() const { return const_cast<OpRegistry*>(this)->impl(); }

OpRegistry& OpRegistry::Instance() {
  static OpRegistry* r = new OpRegistry();
  if (Pending().count.load(std::memory_order_acquire) != 0) {
    const Status st = r->CommitPending(kBuiltinSource);
    (void)st;  // already logged; lookups report the outcome
  }
  return *r;
}

Status OpRegistry::Impl::CommitOne(const OpRegistrationData& n, Prototype* prototype) {
  if (Status valid = ValidateRegistration(n); !valid.ok()) {
    Log(absl::StrCat("rejected registration: ", valid.message()));
    return valid;
  }
  const Entry entry{&n, prototype};
  auto& map = n.traits_only ? traits_only : ops;
  auto [it, inserted] = map.try_emplace(absl::string_view(n.type), entry);
  if (inserted) return OkStatus();
  const std::string source = SourceOf(n);
  const OpRegistrationData& e = *it->second.data;
  const std::string old_source = SourceOf(e);
  const std::string head = absl::StrCat("op type '", n.type, "': ");
  bool replace = false;
  Status result = OkStatus();
  if (n.priority > e.priority) {
    replace = true;
    Log(absl::StrCat(head, "registration from ", source, " (priority ", n.priority,
                     ") replaces the one from ", old_source, " (priority ", e.priority,
                     "): higher priority"));
  } else if (n.priority < e.priority) {
    Log(absl::StrCat(head, "keeps the registration from ", old_source, " (priority ", e.priority,
                     "); ignores the one from ", source, " (priority ", n.priority,
                     "): lower priority"));
  } else if (overridable.load(std::memory_order_acquire)) {
    replace = true;
    Log(absl::StrCat(head, "registration from ", source, " overrides the one from ", old_source,
                     " (equal priority ", n.priority, ", override window open)"));
  } else {
    Log(absl::StrCat(head, "conflict: registered by ", old_source, " and by ", source,
                     " with equal priority ", n.priority, "; keeping ", old_source,
                     " (override window closed)"));
    result = AlreadyExists("op type '", n.type, "' is registered twice with priority ", n.priority,
                           ": by ", old_source, " and by ", source, "; keeping ", old_source,
                           " (give one a higher Priority() or load it with overriding allowed)");
  }
  if (replace) it->second = entry;
  return result;
}

Status OpRegistry::CommitPending(absl::string_view source) {
  Impl* im = impl();
  absl::MutexLock commit(&im->commit_mu);
  auto batch = std::make_unique<Impl::Batch>();
  {
    PendingQueue& q = Pending();
    absl::MutexLock lock(&q.mu);
    batch->items.swap(q.items);
    q.count.store(0, std::memory_order_release);
  }
  if (batch->items.empty()) return OkStatus();
  batch->prototypes = std::make_unique<Impl::Prototype[]>(batch->items.size());
  im->ops.reserve(im->ops.size() + batch->items.size());
  Status first = OkStatus();
  for (size_t i = 0; i < batch->items.size(); ++i) {
    OpRegistrationData& d = batch->items[i];
    if (d.source.empty()) d.source = std::string(source.empty() ? kBuiltinSource : source);
    Status st = im->CommitOne(d, &batch->prototypes[i]);
    if (!st.ok() && first.ok()) first = std::move(st);
  }
  im->batches.push_back(std::move(batch));
  return first;
}

const OpRegistrationData* OpRegistry::Find(absl::string_view type) const {
  const Impl* im = impl();
  auto it = im->ops.find(type);
  return it == im->ops.end() ? nullptr : it->second.data;
}

const OpTraits& OpRegistry::Traits(absl::string_view type) const {
  static const OpTraits* const kNone = new OpTraits();
  const Impl* im = impl();
  if (auto it = im->ops.find(type); it != im->ops.end()) return it->second.data->traits;
  if (auto it = im->traits_only.find(type); it != im->traits_only.end()) {
    return it->second.data->traits;
  }
  return *kNone;
}

const OpTraits& OpTraitsOf(absl::string_view type) { return OpRegistry::Instance().Traits(type); }

Status CheckValueReadsDeclared(const OpRegistrationData& reg, const gert::InferShapeContext& ctx) {
  const uint64_t mask = ctx.InputValuesReadMask();
  if (mask == 0) return OkStatus();
  bool has_ir = false;
  for (size_t k = 0; k < reg.inputs.size(); ++k) has_ir |= ctx.GetIrInputInstance(k).count > 0;
  for (size_t i = 0; i < ctx.GetInputNum() && i < 64; ++i) {
    if ((mask & (uint64_t{1} << i)) == 0) continue;
    size_t ir = reg.inputs.size();
    if (!has_ir) {
      ir = i < reg.inputs.size() ? i : ir;
    } else {
      for (size_t k = 0; k < reg.inputs.size(); ++k) {
        const gert::IrInstance inst = ctx.GetIrInputInstance(k);
        if (i >= inst.start && i < inst.start + inst.count) ir = k;
      }
    }
    if (ir < reg.inputs.size() && reg.traits.IsValueDependentInput(ir)) continue;
    return ParamInvalid(
        "op type ", reg.type, ": a verify / infer function read the value of input ", i,
        ir < reg.inputs.size() ? absl::StrCat(" (IR input '", reg.inputs[ir].name, "')") : "",
        ", which the registration does not declare with ValueDependentInput");
  }
  return OkStatus();
}

const OpDesc* OpRegistry::FindPrototype(absl::string_view type) const {
  const Impl* im = impl();
  auto it = im->ops.find(type);
  if (it == im->ops.end()) return nullptr;
  const Impl::Entry& e = it->second;
  absl::call_once(e.prototype->once, [&]() {
    StatusOr<std::shared_ptr<OpDesc>> built = BuildPrototype(*e.data);
    if (built.ok()) {
      e.prototype->op = std::move(built).value();
    } else {
      const_cast<Impl*>(im)->Log(
          absl::StrCat("cannot build the prototype: ", built.status().message()));
    }
  });
  return e.prototype->op.get();
}

StatusOr<const OpRegistrationData*> OpRegistry::Get(absl::string_view type) const {
  if (const OpRegistrationData* d = Find(type)) return d;
  const Impl* im = impl();
  std::vector<absl::string_view> names;
  names.reserve(im->ops.size());
  for (const auto& kv : im->ops) names.push_back(kv.first);
  return NotFound(
      "op type '", type, "' is not registered (", im->ops.size(), " op types are registered)",
      register_internal::SuggestionSuffix(register_internal::ClosestNames(type, names, 3)));
}

std::vector<std::string> OpRegistry::GetAllTypes() const {
  std::vector<std::string> types;
  types.reserve(impl()->ops.size());
  for (const auto& kv : impl()->ops) types.emplace_back(kv.first);
  std::sort(types.begin(), types.end());
  return types;
}

size_t OpRegistry::size() const { return impl()->ops.size(); }

void OpRegistry::SetRegisterOverridable(bool overridable) {
  impl()->overridable.store(overridable, std::memory_order_release);
}

bool OpRegistry::IsRegisterOverridable() const {
  return impl()->overridable.load(std::memory_order_acquire);
}

std::vector<std::string> OpRegistry::GetDecisionLog() const {
  const Impl* im = impl();
  absl::MutexLock lock(&im->log_mu);
  return im->log;
}

bool OpRegistry::UnregisterForTest(absl::string_view type) {
  Impl* im = impl();
  absl::MutexLock commit(&im->commit_mu);
  auto it = im->ops.find(type);
  if (it == im->ops.end()) return false;
  im->ops.erase(it);  // its batch keeps the registration alive
  return true;
}

// ---------------------------------------------------------------- factory

bool OperatorFactory::IsExistOp(absl::string_view type) {
  return OpRegistry::Instance().Find(type) != nullptr;
}

StatusOr<OpDescPtr> OperatorFactory::CreateOpDesc(
    absl::string_view name, absl::string_view type,
    const std::map<std::string, uint32_t>& dynamic_counts) {
  OpRegistry& reg = OpRegistry::Instance();
  ASSIGN_OR_RETURN(const OpRegistrationData* d, reg.Get(type));
  const OpDesc* proto = reg.FindPrototype(type);
  if (proto == nullptr) return Internal("op type '", type, "' has no prototype");
  const std::string where = absl::StrCat("creating op ", name, " (", type, "): ");

  // Every count must name a dynamic input, output or subgraph.
  for (const auto& kv : dynamic_counts) {
    bool known = false;
    for (const OpIoDef& io : d->inputs) known |= io.kind == IoKind::kDynamic && io.name == kv.first;
    for (const OpIoDef& io : d->outputs)
      known |= io.kind == IoKind::kDynamic && io.name == kv.first;
    for (const OpSubgraphDef& g : d->subgraphs) known |= g.dynamic && g.name == kv.first;
    if (!known) {
      return ParamInvalid(where, "'", kv.first,
                          "' is not a dynamic input, output or subgraph of the op type");
    }
    if (kv.second > kMaxDynamicCount) {
      return OutOfRange(where, "dynamic count ", kv.second, " of '", kv.first,
                        "' exceeds the limit of ", kMaxDynamicCount);
    }
  }
  const auto count_of = [&](const std::string& n) -> uint32_t {
    auto it = dynamic_counts.find(n);
    return it == dynamic_counts.end() ? 0 : it->second;
  };

  auto op = std::make_shared<OpDesc>(*proto);  // shares the IR metadata
  op->SetName(std::string(name));
  size_t pos = 0;
  for (const OpIoDef& io : d->inputs) {
    if (io.kind != IoKind::kDynamic) {
      ++pos;
      continue;
    }
    const uint32_t n = count_of(io.name);
    if (n > 0) RETURN_IF_ERROR(Annotate(op->AddDynamicInputDescByIndex(io.name, n, pos), where));
    pos += n;
  }
  pos = 0;
  for (const OpIoDef& io : d->outputs) {
    if (io.kind != IoKind::kDynamic) {
      ++pos;
      continue;
    }
    const uint32_t n = count_of(io.name);
    if (n > 0) RETURN_IF_ERROR(Annotate(op->AddOutputDescMiddle(io.name, n, pos), where));
    pos += n;
  }
  for (const OpSubgraphDef& g : d->subgraphs) {
    if (!g.dynamic) continue;
    const uint32_t n = count_of(g.name);
    for (uint32_t i = 0; i < n; ++i) {
      RETURN_IF_ERROR(Annotate(op->AddSubgraphName(absl::StrCat(g.name, i)), where));
    }
  }
  return op;
}

// ---------------------------------------------------------------- IR mapping

namespace {

// Matches the IR input "name<k>" for k = 0, 1, ...: the count of consecutive
// slots starting at name0. False when the names do not describe the slots.
bool MapByName(const OpDesc& op, const OpRegistrationData& reg, size_t slots,
               std::vector<gert::IrInstance>* ir) {
  std::vector<bool> claimed(slots, false);
  size_t next = 0;  // where a zero-count dynamic input would sit
  for (size_t k = 0; k < reg.inputs.size(); ++k) {
    const OpIoDef& io = reg.inputs[k];
    gert::IrInstance inst{next, 0};
    if (io.kind == IoKind::kDynamic) {
      const int32_t first = op.GetInputIndexByName(absl::StrCat(io.name, 0));
      if (first >= 0) {
        inst.start = static_cast<size_t>(first);
        while (inst.start + inst.count < slots &&
               op.GetInputIndexByName(absl::StrCat(io.name, inst.count)) ==
                   static_cast<int32_t>(inst.start + inst.count)) {
          ++inst.count;
        }
      }
    } else {
      const int32_t idx = op.GetInputIndexByName(io.name);
      if (idx < 0) {
        if (io.kind == IoKind::kRequired) return false;
      } else {
        inst.start = static_cast<size_t>(idx);
        inst.count = 1;
      }
    }
    for (size_t s = inst.start; s < inst.start + inst.count; ++s) {
      if (s >= slots || claimed[s]) return false;
      claimed[s] = true;
    }
    if (inst.count > 0) next = inst.start + inst.count;
    (*ir)[k] = inst;
  }
  // Every slot must belong to an IR input.
  return std::all_of(claimed.begin(), claimed.end(), [](bool c) { return c; });
}

Status MapByPosition(const OpRegistrationData& reg, size_t slots,
                     std::vector<gert::IrInstance>* ir) {
  size_t n_dyn = 0;
  for (const OpIoDef& io : reg.inputs) n_dyn += io.kind == IoKind::kDynamic ? 1 : 0;
  if (n_dyn > 1) {
    return GraphInvalid("cannot match its ", slots,
                        " inputs to the IR inputs: several dynamic inputs and the input "
                        "names are not <name>0..<name>N-1");
  }
  const size_t fixed = reg.inputs.size() - n_dyn;
  size_t dyn_count = 0;
  if (n_dyn == 1) {
    if (slots < fixed) {
      return GraphInvalid("has ", slots, " inputs, but the IR declares ", fixed,
                          " non-dynamic inputs");
    }
    dyn_count = slots - fixed;
  } else if (slots > fixed) {
    return GraphInvalid("has ", slots, " inputs, but the IR declares only ", fixed);
  }
  size_t pos = 0;
  for (size_t k = 0; k < reg.inputs.size(); ++k) {
    const OpIoDef& io = reg.inputs[k];
    if (io.kind == IoKind::kDynamic) {
      (*ir)[k] = gert::IrInstance{pos, dyn_count};
      pos += dyn_count;
    } else if (pos < slots) {
      (*ir)[k] = gert::IrInstance{pos, 1};
      ++pos;
    } else if (io.kind == IoKind::kOptional) {
      (*ir)[k] = gert::IrInstance{pos, 0};
    } else {
      return GraphInvalid("required input '", io.name, "' (IR input ", k,
                          ") is missing: the node has ", slots, " inputs");
    }
  }
  return OkStatus();
}

}  // namespace

StatusOr<std::vector<gert::IrInstance>> MapInputSlotsToIr(const OpDesc& op,
                                                          const OpRegistrationData& reg,
                                                          size_t slots) {
  std::vector<gert::IrInstance> ir(reg.inputs.size());
  if (!MapByName(op, reg, slots, &ir)) RETURN_IF_ERROR(MapByPosition(reg, slots, &ir));
  return ir;
}

// ---------------------------------------------------------------- checks

namespace {

std::string NodeHead(const OpDesc& op) {
  return absl::StrCat("node ", op.GetName(), " (", op.GetType(), "): ");
}

bool SlotPresent(const OpDesc& op, size_t i) {
  const GeTensorDesc* desc = op.GetInputDescBarePtr(static_cast<uint32_t>(i));
  return desc != nullptr && desc->IsValid();
}

// IR instance per IR input; absent optional inputs get count 0.
StatusOr<std::vector<gert::IrInstance>> MapInputsToIr(const OpDesc& op,
                                                      const OpRegistrationData& reg) {
  StatusOr<std::vector<gert::IrInstance>> mapped =
      MapInputSlotsToIr(op, reg, op.GetAllInputsSize());
  if (!mapped.ok()) return ParamInvalid(NodeHead(op), mapped.status().message());
  std::vector<gert::IrInstance> ir = std::move(mapped).value();
  for (size_t k = 0; k < reg.inputs.size(); ++k) {
    if (reg.inputs[k].kind == IoKind::kOptional && ir[k].count == 1 &&
        !SlotPresent(op, ir[k].start)) {
      ir[k].count = 0;
    }
  }
  return ir;
}

Status CheckAgainst(const OpDesc& op, const OpRegistrationData& reg,
                    const std::vector<gert::IrInstance>& ir) {
  const RegistrationCheckFailure f = FindRegistrationCheckFailure(op, reg, ir);
  using Kind = RegistrationCheckFailure::Kind;
  const uint32_t slot = static_cast<uint32_t>(f.slot);
  switch (f.kind) {
    case Kind::kNone:
      return OkStatus();
    case Kind::kInputDesc:
      return ParamInvalid(NodeHead(op), "input '", op.GetInputNameByIndex(slot), "' (index ",
                          f.slot, ") has no valid tensor description");
    case Kind::kInputType: {
      const std::string in_name =
          absl::StrCat("'", op.GetInputNameByIndex(slot), "' (index ", f.slot, ")");
      return Annotate(f.input->types.Check(in_name, op.PeekInputDesc(slot)->GetDataType()),
                      NodeHead(op));
    }
    case Kind::kMissingAttr:
      return ParamInvalid(NodeHead(op), "required attribute '", f.attr->name, "' (",
                          AttrValue::ValueTypeName(f.attr->type), ") is missing");
    case Kind::kAttrType:
      return TypeMismatch(NodeHead(op), "attribute '", f.attr->name, "' is ",
                          AttrValue::ValueTypeName(f.value->GetValueType()), ", expected ",
                          AttrValue::ValueTypeName(f.attr->type));
  }
  return Internal(NodeHead(op), "unknown registration check failure");
}

StatusOr<const OpRegistrationData*> LookUp(const OpDesc& op) {
  StatusOr<const OpRegistrationData*> reg = OpRegistry::Instance().Get(op.GetType());
  if (!reg.ok()) return Annotate(reg.status(), "node ", op.GetName(), ": ");
  return reg;
}

// Errors from op functions normally name the node already (ctx.Error).
Status NameNode(const Status& st, const OpDesc& op, absl::string_view stage) {
  if (st.ok()) return st;
  if (absl::StartsWith(st.message(), absl::StrCat("node ", op.GetName()))) return st;
  return Annotate(st, NodeHead(op), stage, ": ");
}

// Context storage for one OpDesc.
struct OpInferContext {
  gert::InferShapeContextBuilder builder;
  std::vector<gert::ShapeRange> in_ranges;
  gert::InferShapeContext* ctx = nullptr;
};

Status PrepareContext(const OpDesc& op, const std::vector<gert::IrInstance>& ir,
                      const std::vector<const gert::Tensor*>& const_inputs, OpInferContext* c) {
  const size_t slots = op.GetAllInputsSize();
  if (const_inputs.size() > slots) {
    return ParamInvalid(NodeHead(op), const_inputs.size(), " constant input values given for ",
                        slots, " inputs");
  }
  c->builder.Node(op.GetName(), op.GetType()).Attrs(&op);
  c->in_ranges.resize(slots);  // never resized again: the builder keeps pointers
  for (size_t i = 0; i < slots; ++i) {
    const GeTensorDesc* desc = op.GetInputDescBarePtr(static_cast<uint32_t>(i));
    if (desc == nullptr || !desc->IsValid()) {
      c->builder.AbsentInput();
      continue;
    }
    StatusOr<gert::Shape> shape = gert::Shape::FromDims(desc->GetShape().GetDimsSpan());
    if (!shape.ok()) {
      return Annotate(shape.status(), NodeHead(op), "input '",
                      op.GetInputNameByIndex(static_cast<uint32_t>(i)), "' (index ", i, "): ");
    }
    const gert::ShapeRange* range = nullptr;
    if (!desc->GetShapeRange().empty()) {
      c->in_ranges[i] = desc->GetShapeRange();
      range = &c->in_ranges[i];
    }
    const gert::Tensor* value = i < const_inputs.size() ? const_inputs[i] : nullptr;
    c->builder.Input(*shape, desc->GetDataType(), value, range);
  }
  const size_t outs = op.GetOutputsSize();
  c->builder.Outputs(outs);
  for (size_t i = 0; i < outs; ++i) {
    const GeTensorDesc* desc = op.GetOutputDescBarePtr(static_cast<uint32_t>(i));
    if (desc == nullptr) continue;
    StatusOr<gert::Shape> shape = gert::Shape::FromDims(desc->GetShape().GetDimsSpan());
    if (shape.ok()) c->builder.OutputShape(i) = *shape;
  }
  c->builder.IrInputs(ir);
  c->ctx = c->builder.Build();
  for (size_t i = 0; i < outs; ++i) {
    const GeTensorDesc* desc = op.GetOutputDescBarePtr(static_cast<uint32_t>(i));
    if (desc != nullptr) c->ctx->SetOutputDataType(i, desc->GetDataType());
  }
  return OkStatus();
}

}  // namespace

Status CheckOpDescAgainstRegistration(const OpDesc& op) {
  ASSIGN_OR_RETURN(const OpRegistrationData* reg, LookUp(op));
  ASSIGN_OR_RETURN(std::vector<gert::IrInstance> ir, MapInputsToIr(op, *reg));
  return CheckAgainst(op, *reg, ir);
}

Status VerifyOpDesc(const OpDesc& op, const std::vector<const gert::Tensor*>& const_inputs) {
  ASSIGN_OR_RETURN(const OpRegistrationData* reg, LookUp(op));
  ASSIGN_OR_RETURN(std::vector<gert::IrInstance> ir, MapInputsToIr(op, *reg));
  RETURN_IF_ERROR(CheckAgainst(op, *reg, ir));
  if (reg->verify == nullptr) return OkStatus();
  OpInferContext c;
  RETURN_IF_ERROR(PrepareContext(op, ir, const_inputs, &c));
  OpInferOptions verify_only;
  verify_only.verify_only = true;
  return NameNode(RunOpInfer(*reg, *c.ctx, verify_only), op, "verify");
}

Status InferShapeAndTypeForOpDesc(OpDesc& op, const std::vector<const gert::Tensor*>& const_inputs,
                                  const gert::InputValueLoader* loader) {
  ASSIGN_OR_RETURN(const OpRegistrationData* reg, LookUp(op));
  ASSIGN_OR_RETURN(std::vector<gert::IrInstance> ir, MapInputsToIr(op, *reg));
  RETURN_IF_ERROR(CheckAgainst(op, *reg, ir));
  if (reg->infer_shape == nullptr) {
    return NotSupported(NodeHead(op), "op type ", op.GetType(), " (from ", SourceOf(*reg),
                        ") registers no infer shape function");
  }
  OpInferContext c;
  RETURN_IF_ERROR(PrepareContext(op, ir, const_inputs, &c));
  gert::InferShapeContext& ctx = *c.ctx;
  ctx.SetInputValueLoader(loader);
  InferStep step = InferStep::kNone;
  if (Status st = RunOpInfer(*reg, ctx, {}, &step); !st.ok()) {
    return NameNode(st, op, InferStepName(step));
  }

  for (size_t i = 0; i < ctx.GetOutputNum(); ++i) {
    GeTensorDescPtr desc = op.MutableOutputDesc(static_cast<uint32_t>(i));
    if (desc == nullptr) continue;
    const gert::Shape* s = ctx.GetOutputShape(i);
    const GeShape shape(s->ToVector());
    const DataType dt = ctx.GetOutputDataType(i);
    desc->SetShape(shape);
    desc->SetDataType(dt);
    if (desc->GetFormat() == desc->GetOriginFormat()) {
      desc->SetOriginShape(shape);
      desc->SetOriginDataType(dt);
    }
    const gert::ShapeRange* range = ctx.GetOutputShapeRange(i);
    gert::ShapeRange new_range = range == nullptr ? gert::ShapeRange() : *range;
    if (!new_range.empty() || !desc->GetShapeRange().empty()) {
      const Status st = desc->SetShapeRange(std::move(new_range));
      if (!st.ok()) {
        return Annotate(st, NodeHead(op), "infer shape produced an invalid range for output '",
                        op.GetOutputNameByIndex(static_cast<uint32_t>(i)), "' (index ", i, "): ");
      }
    }
  }
  return OkStatus();
}

ErrorCode RegistrationCheckFailure::code() const {
  switch (kind) {
    case Kind::kNone:
      return ErrorCode::kSuccess;
    case Kind::kAttrType:
      return ErrorCode::kTypeMismatch;
    default:
      return ErrorCode::kParamInvalid;
  }
}

RegistrationCheckFailure FindRegistrationCheckFailure(const OpDesc& op,
                                                      const OpRegistrationData& reg,
                                                      absl::Span<const gert::IrInstance> ir) {
  RegistrationCheckFailure f;
  for (size_t k = 0; k < reg.inputs.size(); ++k) {
    const OpIoDef& io = reg.inputs[k];
    for (size_t s = ir[k].start; s < ir[k].start + ir[k].count; ++s) {
      const GeTensorDesc* desc = op.PeekInputDesc(static_cast<uint32_t>(s));
      if (desc == nullptr || !desc->IsValid()) {
        if (io.kind == IoKind::kOptional) continue;
        f.kind = RegistrationCheckFailure::Kind::kInputDesc;
      } else if (!io.types.Contains(desc->GetDataType())) {
        f.kind = RegistrationCheckFailure::Kind::kInputType;
      } else {
        continue;
      }
      f.slot = s;
      f.input = &io;
      return f;
    }
  }
  for (const OpAttrDef& def : reg.attrs) {
    const AttrValue* v = op.GetAttr(def.name);
    if (v == nullptr) {
      if (!def.required) continue;
      f.kind = RegistrationCheckFailure::Kind::kMissingAttr;
    } else if (!AttrTypeCompatible(def, *v)) {
      f.kind = RegistrationCheckFailure::Kind::kAttrType;
      f.value = v;
    } else {
      continue;
    }
    f.attr = &def;
    return f;
  }
  return f;
}

bool AttrTypeCompatible(const OpAttrDef& def, const AttrValue& v) {
  if (def.type == AttrValue::VT_NONE) return true;
  const AttrValue::ValueType t = v.GetValueType();
  if (t == def.type) return true;
  if (def.type == AttrValue::VT_BOOL && t == AttrValue::VT_INT) {
    const int64_t* i = v.Get<int64_t>();
    return i != nullptr && (*i == 0 || *i == 1);
  }
  return false;
}

}  // namespace ge
