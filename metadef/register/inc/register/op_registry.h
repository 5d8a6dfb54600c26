// metadef/register/inc/register/op_registry.h
//
// Declarative op registration (seed 003 "算子注册机制", GE's REG_OP):
//
//   REG_OP(Add)
//       .Input("x1", ge::TensorType::NumberType())
//       .Input("x2", ge::TensorType::NumberType())
//       .Output("y", ge::TensorType::NumberType())
//       .Attr("mode", ge::AttrValue::CreateFrom<int64_t>(0))
//       .InferShape(ops::InferBroadcast)      // gert::InferShapeContext
//       .InferDataType(ops::InferSameAsInput0);
//
// Kernels register apart, per (op type, engine), in the kernel registry
// (kernel_registry.h): REG_KERNEL(Add, ge::kEngineHostCpu).Fn(AddKernel);
//
// Traits say what passes, the builder and the partitioner may assume about
// every node of the type (OpTraits; ask OpTraitsOf(type)):
//
//   REG_OP(Reshape)
//       .Input("data", ...).Input("shape", kInt64).Output("reshaped", ...)
//       .ValueDependentInput("shape")  // infer reads the value of "shape"
//       .InferShape(InferReshape);
//   REG_OP(NonZero)...DataDependentOutputShape();
//   REG_OP(RandomNormal)...Random();
//   REG_OP_TRAITS(Assign).SideEffect();  // a type defined elsewhere
//
// The chain builds an OpRegistrationData. REG_OP hands it to an OpReceiver
// (a static object) that only queues it; the queue is committed to the
// OpRegistry when the registry is first used and after each plugin library
// loads, so static-initialisation order does not matter. A cc_library whose
// sources use REG_OP must be alwayslink = True, or the linker drops the
// static receivers of objects nothing else references.
//
// Duplicate op types: the registration with the higher .Priority() wins; on
// equal priority the first committed one stays unless the override window is
// open (OpRegistry::SetRegisterOverridable(true), which plugin loading opens
// while a library loads and closes afterwards); each decision is logged
// (GetDecisionLog, and "[INFO] ge op registry: ..." on stderr). The lazy
// commit in Instance() cannot return its errors: they are logged; an
// explicit CommitPending returns the first one.
//
// Validation at commit: a registration with a chain error (decl_error),
// duplicate input / output / attribute names or an optional output is
// rejected (ParamInvalid naming the type and the
// source). The OpDesc prototype the factory copies is built on the first
// lookup of its type (once, thread-safe).
//
// Thread safety: the registry is written during static initialisation and
// plugin loading (callers serialise those), and is read-only afterwards;
// lookups take no lock and allocate nothing (absl::flat_hash_map written only
// at commit; the pending queue is guarded by a mutex), except that the
// factory's first use of a type builds its prototype (once, under
// absl::call_once). Replaced or removed
// registrations are retired, never freed, so pointers stay valid. Do not
// load plugins concurrently with compilation.
//
// Committing with a source tag: take the registry reference first (Instance()
// commits what is already queued as "builtin"), then queue, then commit:
//   OpRegistry& r = OpRegistry::Instance();
//   OpReceiver rec(OpReg("MyOp").Input("x", DT_FLOAT));   // or dlopen(...)
//   RETURN_IF_ERROR(r.CommitPending("libmy_ops.so"));
#ifndef METADEF_REGISTER_INC_REGISTER_OP_REGISTRY_H_
#define METADEF_REGISTER_INC_REGISTER_OP_REGISTRY_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/op_desc.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/tensor_type.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/register/kernel_registry.h"

namespace ge {

using InferShapeFn = Status (*)(gert::InferShapeContext&);
using InferDataTypeFn = Status (*)(gert::InferShapeContext&);
using InferFormatFn = Status (*)(gert::InferShapeContext&);
using VerifyFn = Status (*)(gert::InferShapeContext&);
using TilingFn = Status (*)(gert::TilingContext&);

enum class IoKind : int32_t { kRequired = 0, kOptional = 1, kDynamic = 2 };

struct OpIoDef {
  std::string name;
  IoKind kind = IoKind::kRequired;
  TensorType types;             // allowed data types
  std::vector<Format> formats;  // allowed formats; empty = any
};

struct OpAttrDef {
  std::string name;
  AttrValue::ValueType type = AttrValue::VT_NONE;
  bool required = false;
  AttrValue default_value;  // VT_NONE when required
};

struct OpSubgraphDef {
  std::string name;
  bool dynamic = false;  // dynamic: name0..nameN instances
};

// The kernel registry's definition (kernel_registry.h).
using OpKernelDef = KernelDef;

// Bits of OpTraits::flags.
enum OpTraitFlag : uint32_t {
  // A node must run even when nothing reads its outputs, and two equal nodes
  // must not be merged: state (variables, assignment), host I/O,
  // communication, stream / label control.
  kOpTraitSideEffect = 1u << 0,
  // Equal inputs may give different outputs (random number generation).
  kOpTraitRandom = 1u << 1,
  // The output shapes (or sizes) are known only when the op runs: they
  // follow from input values or from what a subgraph does (NonZero, Unique,
  // NonMaxSuppression, sequences, control flow, ...), whatever is known at
  // compile time.
  kOpTraitDataDependentOutputShape = 1u << 2,
};

// What a registration declares about every node of its type beyond its
// inputs, outputs and functions. Node-level facts (an OpDesc attribute
// saying a node has a side effect) are the callers' business.
struct OpTraits {
  uint32_t flags = 0;  // OpTraitFlag bits
  // IR input indices (ascending, distinct) whose values the verify / infer
  // functions read (InferShapeContext::GetInputTensor): the output shapes
  // (or dtypes) follow from them when they are known, and an unknown value
  // gives unknown dims. Reshape's "shape", Tile's "repeats", ... Each
  // instance of a dynamic input counts.
  std::vector<uint32_t> value_dependent_inputs;

  bool Has(OpTraitFlag f) const { return (flags & f) != 0; }
  bool IsValueDependentInput(size_t ir_index) const;
  bool HasValueDependentInputs() const { return !value_dependent_inputs.empty(); }
};

// Everything REG_OP declares about one op type.
struct OpRegistrationData {
  std::string type;
  std::vector<OpIoDef> inputs;
  std::vector<OpIoDef> outputs;
  std::vector<OpAttrDef> attrs;
  std::vector<OpSubgraphDef> subgraphs;
  InferShapeFn infer_shape = nullptr;
  InferDataTypeFn infer_data_type = nullptr;  // null: outputs take input 0's type
  InferFormatFn infer_format = nullptr;
  VerifyFn verify = nullptr;
  TilingFn tiling = nullptr;
  OpTraits traits;
  // A declaration of traits only (REG_OP_TRAITS), for an op type this
  // library does not define (framework ops a graph may carry: variables,
  // collective communication, host printing). It declares nothing else; it
  // is not an op to Find / Get / the factory, only to OpTraitsOf.
  bool traits_only = false;
  int32_t priority = 0;
  std::string source;  // "builtin" or the plugin library path
  // Set by the chain when it is misused (Format() before any input/output,
  // a kernel without a function, ...); the commit rejects the registration
  // with this message.
  std::string decl_error;

  // The kernel registry's kernel for (type, engine), or null.
  const KernelDef* FindKernel(absl::string_view engine) const;
  const OpAttrDef* FindAttr(absl::string_view name) const;
};

// The chain. Each call returns *this.
class OpReg {
 public:
  enum TraitsOnlyTag { kTraitsOnly };
  explicit OpReg(std::string type);
  // A traits-only declaration (see OpRegistrationData::traits_only).
  OpReg(std::string type, TraitsOnlyTag);

  OpReg& Input(std::string name, TensorType types);
  OpReg& OptionalInput(std::string name, TensorType types);
  OpReg& DynamicInput(std::string name, TensorType types);
  OpReg& Output(std::string name, TensorType types);
  OpReg& DynamicOutput(std::string name, TensorType types);
  // An output the model may leave unused (ONNX optional outputs: MaxPool
  // Indices, Unique's counts, ...). Its desc exists; kernels may find a null
  // output tensor when nothing consumes it.
  OpReg& OptionalOutput(std::string name, TensorType types);
  // Restricts the formats of the most recently declared input / output.
  OpReg& Format(std::vector<ge::Format> formats);
  // Optional attribute with a default (its type is the default's type).
  OpReg& Attr(std::string name, AttrValue default_value);
  // Required attribute of the given type.
  OpReg& RequiredAttr(std::string name, AttrValue::ValueType type);
  // Optional attribute with no default: absent means "not given" (Transpose
  // perm, Shape end, ...); when present it must have the given type.
  OpReg& OptionalAttr(std::string name, AttrValue::ValueType type);
  OpReg& Subgraph(std::string name);
  OpReg& DynamicSubgraph(std::string name);
  OpReg& InferShape(InferShapeFn fn);
  OpReg& InferDataType(InferDataTypeFn fn);
  OpReg& InferFormat(InferFormatFn fn);
  OpReg& Verify(VerifyFn fn);
  OpReg& Tiling(TilingFn fn);
  OpReg& Priority(int32_t priority);

  // Traits (OpTraits). ValueDependentInput names an input declared before
  // it (a chain error otherwise) or gives an IR input index (checked at
  // commit); each may be given several times.
  OpReg& SideEffect();
  OpReg& Random();
  OpReg& DataDependentOutputShape();
  OpReg& ValueDependentInput(absl::string_view ir_input_name);
  OpReg& ValueDependentInput(uint32_t ir_index);

  const OpRegistrationData& data() const { return data_; }
  OpRegistrationData&& Release() { return std::move(data_); }

 private:
  enum class LastIo { kNone, kInput, kOutput };  // what Format() applies to
  OpRegistrationData data_;
  LastIo last_io_ = LastIo::kNone;
};

// Queues a registration (static initialisation or library load).
class OpReceiver {
 public:
  OpReceiver(OpReg& reg);   // NOLINT(runtime/explicit): used by REG_OP
  OpReceiver(OpReg&& reg);  // NOLINT(runtime/explicit)
};

class OpRegistry {
 public:
  // The process-wide registry. Commits queued registrations on each call
  // that finds the queue non-empty.
  static OpRegistry& Instance();

  // nullptr when unknown (traits-only declarations are not ops).
  const OpRegistrationData* Find(absl::string_view type) const;
  // The traits of `type`: its registration's, else its traits-only
  // declaration's, else none (flags 0). Lock-free, allocates nothing.
  const OpTraits& Traits(absl::string_view type) const;
  // NotFound naming the type and suggesting up to three close names.
  StatusOr<const OpRegistrationData*> Get(absl::string_view type) const;
  std::vector<std::string> GetAllTypes() const;  // sorted
  size_t size() const;

  // Commits the pending queue now (plugin loading calls this). Returns the
  // first conflict error, if any, after committing everything else.
  Status CommitPending(absl::string_view source = "builtin");

  // The override window (GE's is_register_overridable).
  void SetRegisterOverridable(bool overridable);
  bool IsRegisterOverridable() const;

  // Decisions taken while committing (duplicates, overrides), for logs/tests.
  std::vector<std::string> GetDecisionLog() const;

  // Test hook: removes a type (returns whether it existed). Pointers handed
  // out earlier stay valid (replaced / removed entries are retired, not
  // freed).
  bool UnregisterForTest(absl::string_view type);

 private:
  friend class OperatorFactory;
  OpRegistry() = default;
  // The OpDesc prototype (IR metadata, descs, defaults), built on the first
  // call for the type; nullptr when the type is unknown.
  const OpDesc* FindPrototype(absl::string_view type) const;
  struct Impl;
  Impl* impl();
  const Impl* impl() const;
};

// OpRegistry::Instance().Traits(type).
const OpTraits& OpTraitsOf(absl::string_view type);

// OK when every input whose value `ctx` handed out (InputValuesReadMask)
// belongs to an IR input `reg` declares value-dependent; else ParamInvalid
// naming the op type, the input index and its IR input. Input slots map to
// IR inputs through ctx's IR instances (slot i is IR input i when the
// context has none). The test harnesses run it after the op's functions, so
// a function reading an undeclared input fails its tests.
Status CheckValueReadsDeclared(const OpRegistrationData& reg, const gert::InferShapeContext& ctx);

// Creates OpDescs with the IR metadata of a registered type copied in:
// IR inputs / outputs with their kinds, input / output descs (dynamic ones
// expanded to name0..nameN-1 per `dynamic_counts`, optional ones present but
// unset, i.e. an invalid DT_UNDEFINED / FORMAT_RESERVED desc), attribute
// defaults, IR attribute names, subgraph IR names (a static subgraph gets its
// slot; a dynamic one name0..nameN-1 slots per `dynamic_counts`). Instances
// share the IR metadata (copy-on-write). The OpDesc's verify function runs
// VerifyOpDesc and, when the type registers an infer shape function, its
// infer function runs InferShapeAndTypeForOpDesc.
// Errors: unknown type (NotFound with suggestions); a `dynamic_counts` key
// that is not a dynamic input, output or subgraph (ParamInvalid); a count
// above 2^20 (OutOfRange).
class OperatorFactory {
 public:
  static StatusOr<OpDescPtr> CreateOpDesc(
      absl::string_view name, absl::string_view type,
      const std::map<std::string, uint32_t>& dynamic_counts = {});
  static bool IsExistOp(absl::string_view type);
};

// Maps the first `slots` input slots of `op` onto the IR inputs of `reg`, one
// gert::IrInstance (start slot, count) per IR input: by name when the slots
// are named after the IR (x; x0..xN-1 for a dynamic input), else by position
// (at most one dynamic input takes what the fixed ones leave). An optional IR
// input beyond the last slot gets count 0; whether a mapped slot is actually
// present (connected, valid desc, non-absent task ref) is for the caller to
// decide. Errors (GraphInvalid) describe the mismatch without naming the
// node: callers prefix their own node / task head. This is the single rule
// used by the registry checks, the reference interpreter and the static
// executor.
StatusOr<std::vector<gert::IrInstance>> MapInputSlotsToIr(const OpDesc& op,
                                                          const OpRegistrationData& reg,
                                                          size_t slots);

// Whether attribute value `v` has the type `def` declares (VT_NONE: any; an
// int 0 or 1 passes for a bool). The one rule of the registry checks and the
// compiler's fast inference path.
bool AttrTypeCompatible(const OpAttrDef& def, const AttrValue& v);

// Where `op` first fails the registration checks of
// CheckOpDescAgainstRegistration for its IR mapping `ir` (kind kNone: it
// passes). FindRegistrationCheckFailure walks the checks without building
// any message (the compiler's fast inference path runs them on every node);
// CheckOpDescAgainstRegistration describes what it finds.
struct RegistrationCheckFailure {
  enum class Kind {
    kNone,
    kInputDesc,    // a required input slot has no valid desc
    kInputType,    // an input's data type is not in its TensorType
    kMissingAttr,  // a required attribute is absent
    kAttrType,     // an attribute has another type than declared
  };
  Kind kind = Kind::kNone;
  size_t slot = 0;                   // kInputDesc / kInputType
  const OpIoDef* input = nullptr;    // kInputDesc / kInputType: the IR input
  const OpAttrDef* attr = nullptr;   // kMissingAttr / kAttrType
  const AttrValue* value = nullptr;  // kAttrType: the value present

  // kSuccess, kParamInvalid, or kTypeMismatch for an attribute's type.
  ErrorCode code() const;
};
RegistrationCheckFailure FindRegistrationCheckFailure(const OpDesc& op,
                                                      const OpRegistrationData& reg,
                                                      absl::Span<const gert::IrInstance> ir);

// Checks `op` against its registration without calling any op function:
// every present input's data type is in its IR input's TensorType, every
// required attribute is present, present attributes have the declared type
// (an int 0/1 passes for a bool). Inputs are matched to IR inputs by name
// (x, x0..xN-1 for dynamic ones) or, failing that, by position. Errors name
// the node, the input (or attribute) and the type.
Status CheckOpDescAgainstRegistration(const OpDesc& op);

// CheckOpDescAgainstRegistration, then the registered verify function.
Status VerifyOpDesc(const OpDesc& op, const std::vector<const gert::Tensor*>& const_inputs = {});

// Runs the checks above, then verify, infer data type (default: every
// output takes input 0's data type) and infer shape of `op` through its
// registered functions (RunOpInfer, op_infer_runner.h), writing the output descs (shape, data type,
// shape range; origin shape / data type too while the format equals the origin format).
// `const_inputs[i]` (may be shorter than the input count, entries may be
// null) gives known input values; `loader` (may be null) loads the pending
// ones among them when a function reads them (gert::InputValueLoader).
Status InferShapeAndTypeForOpDesc(OpDesc& op,
                                  const std::vector<const gert::Tensor*>& const_inputs = {},
                                  const gert::InputValueLoader* loader = nullptr);

}  // namespace ge

#define GE_REG_CONCAT_INNER_(a, b) a##b
#define GE_REG_CONCAT_(a, b) GE_REG_CONCAT_INNER_(a, b)

// REG_OP(Type).Input(...)...;  (a chain ending with ';')
#define REG_OP(type)                                                              \
  static ::ge::OpReceiver GE_REG_CONCAT_(g_ge_op_receiver_##type##_, __COUNTER__) \
      __attribute__((unused)) = ::ge::OpReg(#type)

// REG_OP_TRAITS(Type).SideEffect();  traits of a type defined elsewhere.
#define REG_OP_TRAITS(type)                                                              \
  static ::ge::OpReceiver GE_REG_CONCAT_(g_ge_op_traits_receiver_##type##_, __COUNTER__) \
      __attribute__((unused)) = ::ge::OpReg(#type, ::ge::OpReg::kTraitsOnly)

#endif  // METADEF_REGISTER_INC_REGISTER_OP_REGISTRY_H_
