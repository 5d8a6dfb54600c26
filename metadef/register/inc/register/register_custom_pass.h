// metadef/register/inc/register/register_custom_pass.h
//
// Custom graph passes registered by users or plugin libraries (seed 003:
// PassRegistrationData / PassReceiver; GE's register_custom_pass.h). A pass
// has a name, a stage of the compile pipeline and a function taking the
// graph, either as ComputeGraphPtr or as ComputeGraph&:
//
//   ge::Status FoldMyOps(const ge::ComputeGraphPtr& graph);
//   REGISTER_CUSTOM_PASS("FoldMyOps")
//       .Stage(ge::CustomPassStage::kAfterInferShape)
//       .CustomPassFn(FoldMyOps);
//
// The compiler runs the passes of a stage with
// CustomPassRegistry::Instance().RunPasses(stage, graph), in registration
// order (static registrations: link order of the binary, then load order of
// plugin libraries). Stages, in pipeline order:
//   kBeforeInferShape          on the parsed graph, before shapes are known
//   kAfterInferShape           after the first infer shape
//   kAfterOriginGraphOptimize  after the original-graph optimisations
//   kAfterBuiltinFusion        after the built-in fusion passes
//
// A registration is checked when received: empty name, no function, an
// unknown stage or a name registered before are errors. Static receivers
// cannot return a status, so their errors are kept (GetRegistrationErrors)
// and the compiler reports them; Register() returns them directly.
//
// Thread safety: registration and queries take a mutex; RunPasses calls the
// functions without holding it.
#ifndef METADEF_REGISTER_INC_REGISTER_REGISTER_CUSTOM_PASS_H_
#define METADEF_REGISTER_INC_REGISTER_REGISTER_CUSTOM_PASS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/graph_fwd.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

enum class CustomPassStage : int32_t {
  kBeforeInferShape = 0,
  kAfterInferShape = 1,
  kAfterOriginGraphOptimize = 2,
  kAfterBuiltinFusion = 3,
};

// "BeforeInferShape", ...; "CustomPassStage(<n>)" for a value outside the enum.
std::string CustomPassStageName(CustomPassStage stage);

using CustomPassFunc = std::function<Status(const ComputeGraphPtr&)>;
using CustomPassRefFunc = std::function<Status(ComputeGraph&)>;

class PassRegistrationData {
 public:
  PassRegistrationData() = default;
  explicit PassRegistrationData(std::string pass_name) : name_(std::move(pass_name)) {}

  PassRegistrationData& Stage(CustomPassStage stage) {
    stage_ = stage;
    return *this;
  }
  // Either form; the last call wins.
  PassRegistrationData& CustomPassFn(CustomPassFunc fn) {
    fn_ = std::move(fn);
    ref_fn_ = nullptr;
    return *this;
  }
  PassRegistrationData& CustomPassFn(CustomPassRefFunc fn) {
    ref_fn_ = std::move(fn);
    fn_ = nullptr;
    return *this;
  }

  const std::string& GetPassName() const { return name_; }
  CustomPassStage GetStage() const { return stage_; }
  bool HasFn() const { return fn_ != nullptr || ref_fn_ != nullptr; }

  // Calls the function; ParamInvalid for a null graph, NotFound without a
  // function. The function's own errors are returned unchanged.
  Status Run(const ComputeGraphPtr& graph) const;

 private:
  std::string name_;
  CustomPassStage stage_ = CustomPassStage::kBeforeInferShape;
  CustomPassFunc fn_;
  CustomPassRefFunc ref_fn_;
};

// Registers at construction (static initialisation or library load).
class PassReceiver {
 public:
  PassReceiver(PassRegistrationData& data);   // NOLINT(runtime/explicit): used by the macro
  PassReceiver(PassRegistrationData&& data);  // NOLINT(runtime/explicit)
};

class CustomPassRegistry {
 public:
  static CustomPassRegistry& Instance();

  // Checks and appends a pass (see the file comment for the errors).
  Status Register(PassRegistrationData data);

  // The passes of a stage, in registration order (copies).
  std::vector<PassRegistrationData> GetPasses(CustomPassStage stage) const;
  std::vector<std::string> GetPassNames(CustomPassStage stage) const;
  size_t size() const;

  // Runs the passes of `stage` in order; stops at the first error, annotated
  // with the pass name and stage.
  Status RunPasses(CustomPassStage stage, const ComputeGraphPtr& graph) const;

  // Errors of registrations made through PassReceiver.
  std::vector<std::string> GetRegistrationErrors() const;

  // Test hook: removes a pass by name (returns whether it existed).
  bool UnregisterForTest(absl::string_view name);

 private:
  friend class PassReceiver;
  CustomPassRegistry() = default;
  // Register(), keeping the error for GetRegistrationErrors().
  void Receive(PassRegistrationData&& data);
  struct Impl;
  Impl& impl() const;
};

}  // namespace ge

#define GE_CUSTOM_PASS_CONCAT_INNER_(a, b) a##b
#define GE_CUSTOM_PASS_CONCAT_(a, b) GE_CUSTOM_PASS_CONCAT_INNER_(a, b)

// REGISTER_CUSTOM_PASS("name").Stage(...).CustomPassFn(fn);
#define REGISTER_CUSTOM_PASS(name)                                                          \
  static ::ge::PassReceiver GE_CUSTOM_PASS_CONCAT_(g_ge_custom_pass_receiver_, __COUNTER__) \
      __attribute__((unused)) = ::ge::PassRegistrationData(name)

#endif  // METADEF_REGISTER_INC_REGISTER_REGISTER_CUSTOM_PASS_H_
