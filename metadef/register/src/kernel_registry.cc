// metadef/register/src/kernel_registry.cc
#include "metadef/register/inc/register/kernel_registry.h"

#include <algorithm>
#include <cstdio>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "graph/inc/graph/ge_tensor.h"
#include "metadef/inc/external/graph/type_utils.h"

namespace ge {
namespace {

// The shared kernel of a stateless registration.
class FunctionKernel final : public OpKernel {
 public:
  explicit FunctionKernel(KernelFn fn) : fn_(fn) {}
  Status Prepare(gert::TilingContext&) override { return OkStatus(); }
  Status Run(gert::KernelContext& ctx) const override { return fn_(ctx); }

 private:
  KernelFn fn_;
};

// Row-major memory of the logical dims: ND and the channels-first formats
// are one layout (a tensor's dims are its logical dims; its format names
// the memory layout).
bool IsRowMajor(Format f) {
  switch (f) {
    case FORMAT_ND:
    case FORMAT_NCHW:
    case FORMAT_NCDHW:
    case FORMAT_RESERVED:  // an absent optional input's desc
      return true;
    default:
      return false;
  }
}

// One desc against the declaration: OK or the reason.
Status CheckDesc(const KernelDef& def, const GeTensorDesc& d, absl::string_view what, size_t i) {
  if (d.GetDataType() == DT_UNDEFINED) return OkStatus();  // absent optional
  if (!def.dtypes.empty() &&
      std::find(def.dtypes.begin(), def.dtypes.end(), d.GetDataType()) == def.dtypes.end()) {
    return NotSupported(what, " ", i, " has data type ",
                        TypeUtils::DataTypeToSerialString(d.GetDataType()),
                        ", not one of the kernel's");
  }
  const Format f = static_cast<Format>(GetPrimaryFormat(d.GetFormat()));
  bool ok = false;
  if (IsRowMajor(f)) {
    ok = def.formats.empty() || std::any_of(def.formats.begin(), def.formats.end(),
                                            [](Format g) { return IsRowMajor(g); });
  } else {
    ok = std::find(def.formats.begin(), def.formats.end(), f) != def.formats.end();
  }
  if (!ok) {
    return NotSupported(what, " ", i, " has format ", TypeUtils::FormatToSerialString(f),
                        ", not one the kernel takes");
  }
  if ((def.shape_kinds & kKernelDynamicShape) == 0 && d.GetShape().IsUnknownShape()) {
    return NotSupported(what, " ", i, " has unknown dims and the kernel takes static shapes only");
  }
  return OkStatus();
}

}  // namespace

// ---------------------------------------------------------------- KernelDef

std::unique_ptr<OpKernel> KernelDef::NewKernel() const {
  return create != nullptr ? create() : nullptr;
}

Status KernelDef::CheckSupported(const OpDesc& op) const {
  for (size_t i = 0; i < op.GetAllInputsSize(); ++i) {
    const GeTensorDesc* d = op.GetInputDescBarePtr(static_cast<uint32_t>(i));
    if (d != nullptr) RETURN_IF_ERROR(CheckDesc(*this, *d, "input", i));
  }
  for (size_t i = 0; i < op.GetOutputsSize(); ++i) {
    const GeTensorDesc* d = op.GetOutputDescBarePtr(static_cast<uint32_t>(i));
    if (d != nullptr) RETURN_IF_ERROR(CheckDesc(*this, *d, "output", i));
  }
  if (supports != nullptr) return supports(op);
  return OkStatus();
}

StatusOr<std::vector<int64_t>> KernelDef::PlannedWorkspace(const OpDesc& op) const {
  if (workspace == nullptr) return std::vector<int64_t>{};
  ASSIGN_OR_RETURN(std::vector<int64_t> ws, workspace(op));
  for (int64_t w : ws) {
    if (w < 0) return Internal("kernel ", op_type, " on ", engine, ": negative workspace ", w);
  }
  return ws;
}

// ---------------------------------------------------------------- registry

struct KernelRegistry::Impl {
  // op type -> its kernels sorted by engine name (a handful each). Lookups
  // by string_view allocate nothing. Definitions are heap-allocated and
  // never freed.
  absl::flat_hash_map<std::string, std::vector<const KernelDef*>> defs;
  std::vector<std::string> errors;
  // Unregistered definitions: kept (pointers handed out stay valid).
  std::vector<const KernelDef*> retired;
  bool deferred = false;
  std::vector<KernelDef> queue;  // while deferred
  mutable absl::Mutex mu;        // writers only: registration is not concurrent with lookups
};

KernelRegistry::KernelRegistry() : impl_(std::make_unique<Impl>()) {}

KernelRegistry& KernelRegistry::Instance() {
  static KernelRegistry* const r = new KernelRegistry();  // never destroyed
  return *r;
}

Status KernelRegistry::Register(KernelDef def) {
  const std::string where = absl::StrCat("kernel for op ", def.op_type, " on engine '", def.engine,
                                         "' from ", def.source, ": ");
  if (def.op_type.empty() || def.engine.empty()) {
    return ParamInvalid(where, "op type and engine must be non-empty");
  }
  if ((def.fn == nullptr) == (def.create == nullptr)) {
    return ParamInvalid(where,
                        "give exactly one of Fn (stateless) and Kernel<T> / Create (stateful)");
  }
  if (def.shape_kinds == 0) return ParamInvalid(where, "accepts no shape kind");
  absl::MutexLock lock(&impl_->mu);
  std::vector<const KernelDef*>& list = impl_->defs[def.op_type];
  auto pos =
      std::lower_bound(list.begin(), list.end(), def.engine,
                       [](const KernelDef* d, const std::string& e) { return d->engine < e; });
  if (pos != list.end() && (*pos)->engine == def.engine) {
    return AlreadyExists(where, "the engine has a kernel for it");
  }
  auto* d = new KernelDef(std::move(def));  // never freed: pointers stay valid
  if (d->fn != nullptr) d->shared_ = std::make_shared<FunctionKernel>(d->fn);
  list.insert(pos, d);
  return OkStatus();
}

const KernelDef* KernelRegistry::Find(absl::string_view op_type, absl::string_view engine) const {
  auto it = impl_->defs.find(op_type);
  if (it == impl_->defs.end()) return nullptr;
  for (const KernelDef* d : it->second) {
    if (d->engine == engine) return d;
  }
  return nullptr;
}

std::vector<const KernelDef*> KernelRegistry::FindAll(absl::string_view op_type) const {
  auto it = impl_->defs.find(op_type);
  return it == impl_->defs.end() ? std::vector<const KernelDef*>{} : it->second;
}

std::vector<std::string> KernelRegistry::OpTypes(absl::string_view engine) const {
  std::vector<std::string> out;
  for (const auto& [type, list] : impl_->defs) {
    for (const KernelDef* d : list) {
      if (d->engine == engine) out.push_back(type);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> KernelRegistry::RegistrationErrors() const {
  absl::MutexLock lock(&impl_->mu);
  return impl_->errors;
}

void KernelRegistry::SetDeferred(bool deferred) {
  absl::MutexLock lock(&impl_->mu);
  impl_->deferred = deferred;
}

std::vector<KernelDef> KernelRegistry::TakeDeferred() {
  absl::MutexLock lock(&impl_->mu);
  return std::exchange(impl_->queue, {});
}

void KernelRegistry::RecordError(std::string error) {
  absl::MutexLock lock(&impl_->mu);
  impl_->errors.push_back(std::move(error));
}

bool KernelRegistry::Unregister(absl::string_view op_type, absl::string_view engine) {
  absl::MutexLock lock(&impl_->mu);
  auto it = impl_->defs.find(op_type);
  if (it == impl_->defs.end()) return false;
  std::vector<const KernelDef*>& list = it->second;
  for (auto d = list.begin(); d != list.end(); ++d) {
    if ((*d)->engine == engine) {
      impl_->retired.push_back(*d);
      list.erase(d);
      return true;
    }
  }
  return false;
}

const KernelDef* FindKernel(absl::string_view op_type, absl::string_view engine) {
  return KernelRegistry::Instance().Find(op_type, engine);
}

std::string DescribeMissingKernel(absl::string_view op_type, absl::string_view engine) {
  std::vector<std::string> engines;
  for (const KernelDef* d : KernelRegistry::Instance().FindAll(op_type))
    engines.push_back(d->engine);
  return absl::StrCat("no kernel for op ", op_type, " on engine '", engine,
                      "' (kernels: ", engines.empty() ? "none" : absl::StrJoin(engines, ", "), ")");
}

// ---------------------------------------------------------------- chain

KernelReg::KernelReg(std::string op_type, absl::string_view engine) {
  def_.op_type = std::move(op_type);
  def_.engine = std::string(engine);
}
KernelReg& KernelReg::Fn(KernelFn fn) {
  def_.fn = fn;
  return *this;
}
KernelReg& KernelReg::Create(KernelCreateFn create) {
  def_.create = create;
  return *this;
}
KernelReg& KernelReg::DataTypes(std::vector<DataType> dtypes) {
  def_.dtypes = std::move(dtypes);
  return *this;
}
KernelReg& KernelReg::Formats(std::vector<Format> formats) {
  def_.formats = std::move(formats);
  return *this;
}
KernelReg& KernelReg::ShapeKinds(uint32_t kinds) {
  def_.shape_kinds = kinds;
  return *this;
}
KernelReg& KernelReg::Supports(KernelSupportsFn fn) {
  def_.supports = fn;
  return *this;
}
KernelReg& KernelReg::Workspace(KernelWorkspaceFn fn) {
  def_.workspace = fn;
  return *this;
}
KernelReg& KernelReg::Source(std::string source) {
  def_.source = std::move(source);
  return *this;
}

KernelReceiver::KernelReceiver(KernelReg& reg) : KernelReceiver(std::move(reg)) {}

KernelReceiver::KernelReceiver(KernelReg&& reg) {
  KernelRegistry& r = KernelRegistry::Instance();
  {
    absl::MutexLock lock(&r.impl_->mu);
    if (r.impl_->deferred) {
      r.impl_->queue.push_back(reg.Release());
      return;
    }
  }
  Status st = r.Register(reg.Release());
  if (!st.ok()) {
    std::fprintf(stderr, "[ERROR] ge kernel registry: %s\n", st.ToString().c_str());
    r.RecordError(st.ToString());
  }
}

}  // namespace ge
