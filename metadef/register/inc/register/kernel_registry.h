// metadef/register/inc/register/kernel_registry.h
//
// Kernels apart from ops: one registry of kernels keyed by (op type, engine)
// (ONNX Runtime's per-provider kernel registries, GE's per-engine op info
// stores). REG_OP declares what an op is; REG_KERNEL declares, from the
// kernel's own file, that an engine can run it and what it accepts:
//
//   REG_KERNEL(Relu, ge::kEngineHostCpu).Fn(ReluKernel);   // stateless
//   REG_KERNEL(Conv, ge::kEngineAiCore)
//       .Kernel<DnnlConvKernel>()                           // stateful
//       .DataTypes({ge::DT_FLOAT, ge::DT_BF16})
//       .Formats({ge::FORMAT_NCHW, ge::FORMAT_NC1HWC0})
//       .ShapeKinds(ge::kKernelStaticShape)
//       .Supports(DnnlConvSupports)        // the node-level check
//       .Workspace(DnnlConvWorkspace);     // bytes the memory plan holds
//
// A stateless kernel is a function (gert::KernelContext -> Status); the
// registry keeps one shared OpKernel wrapping it. A stateful kernel is an
// OpKernel class: the executor makes one instance per node at load, calls
// Prepare once with the node's static facts (seed 003's Tiling: shapes,
// dtypes, formats, attributes, constant inputs' values) and then Run for
// every execution. Prepare builds whatever Run needs (parsed attributes,
// library primitives, weights reordered once) and declares the workspace
// bytes Run will use; Run allocates nothing and is const: one prepared
// kernel serves every Run of its model, from any thread.
//
// The op info store of an engine is the set of its registrations: placement
// asks CheckSupported(op) of each engine's kernel in priority order (data
// types, formats and shape kind from the declaration, then the kernel's own
// Supports function), and the builder asks PlannedWorkspace(op) of the
// chosen kernel. Both are compile-time functions of the node only (never of
// the machine), so the OM bytes do not depend on where atc ran.
//
// Thread safety: registrations happen during static initialisation and
// plugin loading (callers serialise those); lookups after that are
// lock-free reads. Registered definitions are never freed: pointers stay
// valid for the life of the process.
#ifndef METADEF_REGISTER_INC_REGISTER_KERNEL_REGISTRY_H_
#define METADEF_REGISTER_INC_REGISTER_KERNEL_REGISTRY_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"

namespace ge {

// Engine names (DESIGN.md "Engines on this hardware").
inline constexpr char kEngineAiCore[] = "AIcoreEngine";      // compute engine
inline constexpr char kEngineHostCpu[] = "DNN_VM_HOST_CPU";  // host CPU engine
inline constexpr char kEngineRts[] = "DNN_VM_RTS";           // runtime services

using KernelFn = Status (*)(gert::KernelContext&);

// A kernel with state (see the file comment).
class OpKernel {
 public:
  virtual ~OpKernel() = default;
  // Once per node at load. `ctx` holds the node's input and output tensors
  // with their static shapes, data types and formats; an input's data is
  // set when its value is known at load (weights, constants) and null
  // otherwise. Declares the workspaces Run needs (ctx.SetWorkspaceSize).
  virtual Status Prepare(gert::TilingContext& ctx) = 0;
  // Every execution: the inputs' and outputs' data and the workspaces
  // Prepare asked for (at least that many bytes each). Allocates nothing.
  // Runs of one instance never overlap (the static executor runs one Run
  // of a model at a time; the dynamic executor's kernel cache locks each
  // prepared kernel while it runs), so Run may rebind state it owns, as
  // oneDNN argument handles; different instances run concurrently.
  virtual Status Run(gert::KernelContext& ctx) const = 0;
  // Whether Prepare kept the addresses of input or output buffers (then the
  // static executor's zero-copy rebinding cannot serve the node). Kernels
  // of this project keep none.
  virtual bool BindsAddresses() const { return false; }
};

// Bits of KernelDef::shape_kinds.
enum KernelShapeKind : uint32_t {
  kKernelStaticShape = 1u << 0,   // every dim known at compile time
  kKernelDynamicShape = 1u << 1,  // dims known only at run time
};

// The node-level check of a kernel: OK when it takes `op` (its input and
// output descs are inferred), else NotSupported saying what it lacks.
using KernelSupportsFn = Status (*)(const OpDesc& op);
// The workspace bytes the memory plan holds for `op` on this kernel, one
// entry per workspace. A function of the node only.
using KernelWorkspaceFn = StatusOr<std::vector<int64_t>> (*)(const OpDesc& op);
using KernelCreateFn = std::unique_ptr<OpKernel> (*)();

struct KernelDef {
  std::string op_type;
  std::string engine;
  // Data types the kernel accepts on every input and output that carries
  // data; empty: whatever the op allows.
  std::vector<DataType> dtypes;
  // Formats (memory layouts of the logical dims) it accepts on inputs and
  // outputs. Row-major ones (ND, NCHW, NCDHW) are one layout: any of them
  // in the list admits all; empty: row-major only.
  std::vector<Format> formats;
  uint32_t shape_kinds = kKernelStaticShape | kKernelDynamicShape;
  KernelFn fn = nullptr;            // a stateless kernel, or
  KernelCreateFn create = nullptr;  // a stateful one
  KernelSupportsFn supports = nullptr;
  KernelWorkspaceFn workspace = nullptr;
  std::string source = "builtin";

  bool stateless() const { return fn != nullptr; }
  // The shared kernel of a stateless registration (wrapping fn); null for
  // a stateful one.
  const OpKernel* shared_kernel() const { return shared_.get(); }
  // A kernel for one node: a new instance (stateful) or null with
  // shared_kernel() to use (stateless).
  std::unique_ptr<OpKernel> NewKernel() const;

  // Whether this kernel takes `op`: its declared data types, formats and
  // shape kinds, then `supports`. NotSupported naming what is lacking.
  Status CheckSupported(const OpDesc& op) const;
  // The workspace sizes to plan for `op` (empty without a workspace fn).
  StatusOr<std::vector<int64_t>> PlannedWorkspace(const OpDesc& op) const;

  std::shared_ptr<const OpKernel> shared_;  // set by the registry
};

class KernelRegistry {
 public:
  static KernelRegistry& Instance();

  // Registers `def`; AlreadyExists when (op type, engine) has a kernel,
  // ParamInvalid when it has neither fn nor create, or both.
  Status Register(KernelDef def);

  // nullptr when `engine` has no kernel for `op_type`.
  const KernelDef* Find(absl::string_view op_type, absl::string_view engine) const;
  // Every engine's kernel for `op_type`, sorted by engine name.
  std::vector<const KernelDef*> FindAll(absl::string_view op_type) const;
  // The op types `engine` has kernels for, sorted.
  std::vector<std::string> OpTypes(absl::string_view engine) const;
  // Errors met by static registrations (REG_KERNEL cannot return them).
  std::vector<std::string> RegistrationErrors() const;

  // Plugin loading (OpsProtoManager): while deferred, REG_KERNEL queues
  // instead of registering; the loader then takes the queue and registers
  // each kernel the way its op's registration went (a kernel of an op the
  // library won replaces the earlier one; others are added where absent).
  void SetDeferred(bool deferred);
  std::vector<KernelDef> TakeDeferred();

  // Removes (op type, engine) (plugin replacement, tests); whether it
  // existed. The definition stays allocated (pointers handed out stay
  // valid).
  bool Unregister(absl::string_view op_type, absl::string_view engine);

 private:
  friend class KernelReceiver;
  KernelRegistry();
  void RecordError(std::string error);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// KernelRegistry::Instance().Find(op_type, engine).
const KernelDef* FindKernel(absl::string_view op_type, absl::string_view engine);

// "engine 'E' has no kernel for op T (kernels: A, B)" for messages.
std::string DescribeMissingKernel(absl::string_view op_type, absl::string_view engine);

// The chain REG_KERNEL builds.
class KernelReg {
 public:
  KernelReg(std::string op_type, absl::string_view engine);
  KernelReg& Fn(KernelFn fn);
  template <typename K>
  KernelReg& Kernel() {
    def_.create = []() -> std::unique_ptr<OpKernel> { return std::make_unique<K>(); };
    return *this;
  }
  KernelReg& Create(KernelCreateFn create);
  KernelReg& DataTypes(std::vector<DataType> dtypes);
  KernelReg& Formats(std::vector<Format> formats);
  KernelReg& ShapeKinds(uint32_t kinds);
  KernelReg& Supports(KernelSupportsFn fn);
  KernelReg& Workspace(KernelWorkspaceFn fn);
  KernelReg& Source(std::string source);

  KernelDef&& Release() { return std::move(def_); }

 private:
  KernelDef def_;
};

// Registers at static initialisation; an error is kept in
// RegistrationErrors() and logged.
class KernelReceiver {
 public:
  KernelReceiver(KernelReg& reg);   // NOLINT(runtime/explicit): used by REG_KERNEL
  KernelReceiver(KernelReg&& reg);  // NOLINT(runtime/explicit)
};

}  // namespace ge

#define GE_KERNEL_CONCAT_INNER_(a, b) a##b
#define GE_KERNEL_CONCAT_(a, b) GE_KERNEL_CONCAT_INNER_(a, b)

// REG_KERNEL(OpType, engine).Fn(...)...;  (a chain ending with ';')
#define REG_KERNEL(type, engine)                                                             \
  static ::ge::KernelReceiver GE_KERNEL_CONCAT_(g_ge_kernel_receiver_##type##_, __COUNTER__) \
      __attribute__((unused)) = ::ge::KernelReg(#type, engine)

// The same for a type given as a string expression (templates, loops).
#define REG_KERNEL_NAMED(type_str, engine)                                            \
  static ::ge::KernelReceiver GE_KERNEL_CONCAT_(g_ge_kernel_receiver_n_, __COUNTER__) \
      __attribute__((unused)) = ::ge::KernelReg(type_str, engine)

#endif  // METADEF_REGISTER_INC_REGISTER_KERNEL_REGISTRY_H_
