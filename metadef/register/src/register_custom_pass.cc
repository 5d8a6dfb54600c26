// metadef/register/src/register_custom_pass.cc
//
// CustomPassRegistry: checked registration, per-stage lists in registration
// order, RunPasses.
#include "metadef/register/inc/register/register_custom_pass.h"

#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "metadef/inc/external/base/status.h"

namespace ge {

std::string CustomPassStageName(CustomPassStage stage) {
  switch (stage) {
    case CustomPassStage::kBeforeInferShape:
      return "BeforeInferShape";
    case CustomPassStage::kAfterInferShape:
      return "AfterInferShape";
    case CustomPassStage::kAfterOriginGraphOptimize:
      return "AfterOriginGraphOptimize";
    case CustomPassStage::kAfterBuiltinFusion:
      return "AfterBuiltinFusion";
  }
  return absl::StrCat("CustomPassStage(", static_cast<int32_t>(stage), ")");
}

namespace {
bool StageValid(CustomPassStage stage) {
  const int32_t v = static_cast<int32_t>(stage);
  return v >= static_cast<int32_t>(CustomPassStage::kBeforeInferShape) &&
         v <= static_cast<int32_t>(CustomPassStage::kAfterBuiltinFusion);
}
}  // namespace

Status PassRegistrationData::Run(const ComputeGraphPtr& graph) const {
  if (graph == nullptr) return ParamInvalid("custom pass ", name_, ": null graph");
  if (fn_ != nullptr) return fn_(graph);
  if (ref_fn_ != nullptr) return ref_fn_(*graph);
  return NotFound("custom pass ", name_, " has no function");
}

struct CustomPassRegistry::Impl {
  mutable absl::Mutex mu;
  // Registration order; entries are never moved (pointers stay valid while
  // RunPasses runs them without the lock).
  std::vector<std::unique_ptr<PassRegistrationData>> passes ABSL_GUARDED_BY(mu);
  std::vector<std::unique_ptr<PassRegistrationData>> retired ABSL_GUARDED_BY(mu);
  std::vector<std::string> errors ABSL_GUARDED_BY(mu);
};

CustomPassRegistry& CustomPassRegistry::Instance() {
  static CustomPassRegistry* r = new CustomPassRegistry();
  return *r;
}

CustomPassRegistry::Impl& CustomPassRegistry::impl() const {
  static Impl* i = new Impl();  // never destroyed
  return *i;
}

Status CustomPassRegistry::Register(PassRegistrationData data) {
  if (data.GetPassName().empty()) return ParamInvalid("custom pass with an empty name");
  const std::string& name = data.GetPassName();
  if (!StageValid(data.GetStage())) {
    return ParamInvalid("custom pass ", name, ": unknown stage ",
                        CustomPassStageName(data.GetStage()));
  }
  if (!data.HasFn()) return ParamInvalid("custom pass ", name, " has no function (CustomPassFn)");
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  for (const auto& p : im.passes) {
    if (p->GetPassName() == name) {
      return AlreadyExists("custom pass ", name, " is already registered (stage ",
                           CustomPassStageName(p->GetStage()), ")");
    }
  }
  im.passes.push_back(std::make_unique<PassRegistrationData>(std::move(data)));
  return OkStatus();
}

std::vector<PassRegistrationData> CustomPassRegistry::GetPasses(CustomPassStage stage) const {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  std::vector<PassRegistrationData> out;
  for (const auto& p : im.passes) {
    if (p->GetStage() == stage) out.push_back(*p);
  }
  return out;
}

std::vector<std::string> CustomPassRegistry::GetPassNames(CustomPassStage stage) const {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  std::vector<std::string> out;
  for (const auto& p : im.passes) {
    if (p->GetStage() == stage) out.push_back(p->GetPassName());
  }
  return out;
}

size_t CustomPassRegistry::size() const {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  return im.passes.size();
}

Status CustomPassRegistry::RunPasses(CustomPassStage stage, const ComputeGraphPtr& graph) const {
  if (graph == nullptr) {
    return ParamInvalid("custom passes of stage ", CustomPassStageName(stage), ": null graph");
  }
  std::vector<const PassRegistrationData*> todo;
  {
    Impl& im = impl();
    absl::MutexLock lock(&im.mu);
    for (const auto& p : im.passes) {
      if (p->GetStage() == stage) todo.push_back(p.get());
    }
  }
  for (const PassRegistrationData* p : todo) {
    const Status st = p->Run(graph);
    if (!st.ok()) {
      return Annotate(st, "custom pass ", p->GetPassName(), " (stage ", CustomPassStageName(stage),
                      "): ");
    }
  }
  return OkStatus();
}

std::vector<std::string> CustomPassRegistry::GetRegistrationErrors() const {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  return im.errors;
}

bool CustomPassRegistry::UnregisterForTest(absl::string_view name) {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  for (auto it = im.passes.begin(); it != im.passes.end(); ++it) {
    if ((*it)->GetPassName() == name) {
      im.retired.push_back(std::move(*it));
      im.passes.erase(it);
      return true;
    }
  }
  return false;
}

void CustomPassRegistry::Receive(PassRegistrationData&& data) {
  const Status st = Register(std::move(data));
  if (st.ok()) return;
  std::fprintf(stderr, "[ERROR] ge custom pass registry: %s\n", std::string(st.message()).c_str());
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  im.errors.emplace_back(st.message());
}

PassReceiver::PassReceiver(PassRegistrationData& data) {
  CustomPassRegistry::Instance().Receive(std::move(data));
}
PassReceiver::PassReceiver(PassRegistrationData&& data) {
  CustomPassRegistry::Instance().Receive(std::move(data));
}

}  // namespace ge
