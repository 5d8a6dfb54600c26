// metadef/register/src/fusion_pass_registry.cc
#include "metadef/register/inc/register/fusion_pass_registry.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/src/internal/suggest.h"

namespace ge {

std::string FusionPassTypeName(FusionPassType type) {
  switch (type) {
    case FusionPassType::kGraphFusion:
      return "GraphFusion";
    case FusionPassType::kBufferFusion:
      return "BufferFusion";
  }
  return absl::StrCat("FusionPassType(", static_cast<int32_t>(type), ")");
}

struct FusionPassRegistry::Impl {
  mutable absl::Mutex mu;
  std::map<std::string, FusionPassRegistrationData, std::less<>> passes ABSL_GUARDED_BY(mu);
  std::vector<std::string> errors ABSL_GUARDED_BY(mu);
};

FusionPassRegistry& FusionPassRegistry::Instance() {
  static FusionPassRegistry* r = new FusionPassRegistry();
  return *r;
}

FusionPassRegistry::Impl& FusionPassRegistry::impl() const {
  static Impl* i = new Impl();  // never destroyed
  return *i;
}

Status FusionPassRegistry::Register(FusionPassRegistrationData data) {
  if (data.name.empty()) return ParamInvalid("fusion pass with an empty name");
  if (data.type != FusionPassType::kGraphFusion && data.type != FusionPassType::kBufferFusion) {
    return ParamInvalid("fusion pass ", data.name, ": unknown pass type ",
                        FusionPassTypeName(data.type));
  }
  if (data.creator == nullptr) return ParamInvalid("fusion pass ", data.name, " has no creator");
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  auto it = im.passes.find(data.name);
  if (it != im.passes.end()) {
    return AlreadyExists("fusion pass ", data.name, " is already registered (",
                         FusionPassTypeName(it->second.type), ", priority ", it->second.priority,
                         ")");
  }
  std::string name = data.name;
  im.passes.emplace(std::move(name), std::move(data));
  return OkStatus();
}

std::vector<std::string> FusionPassRegistry::GetPassNames(FusionPassType type) const {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  std::vector<std::pair<int32_t, std::string>> order;
  for (const auto& kv : im.passes) {
    if (kv.second.type == type) order.emplace_back(kv.second.priority, kv.first);
  }
  std::sort(order.begin(), order.end());
  std::vector<std::string> names;
  names.reserve(order.size());
  for (auto& p : order) names.push_back(std::move(p.second));
  return names;
}

StatusOr<FusionPassRegistrationData> FusionPassRegistry::Get(absl::string_view name) const {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  auto it = im.passes.find(name);
  if (it != im.passes.end()) return it->second;
  std::vector<absl::string_view> names;
  for (const auto& kv : im.passes) names.push_back(kv.first);
  return NotFound(
      "fusion pass ", name, " is not registered",
      register_internal::SuggestionSuffix(register_internal::ClosestNames(name, names, 3)));
}

bool FusionPassRegistry::Has(absl::string_view name) const {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  return im.passes.find(name) != im.passes.end();
}

StatusOr<std::unique_ptr<FusionPassBase>> FusionPassRegistry::CreatePass(
    absl::string_view name) const {
  ASSIGN_OR_RETURN(FusionPassRegistrationData data, Get(name));
  std::unique_ptr<FusionPassBase> pass = data.creator();
  if (pass == nullptr) return Internal("the creator of fusion pass ", name, " returned null");
  return pass;
}

std::vector<std::string> FusionPassRegistry::GetRegistrationErrors() const {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  return im.errors;
}

bool FusionPassRegistry::UnregisterForTest(absl::string_view name) {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  auto it = im.passes.find(name);
  if (it == im.passes.end()) return false;
  im.passes.erase(it);
  return true;
}

void FusionPassRegistry::Receive(FusionPassRegistrationData&& data) {
  const Status st = Register(std::move(data));
  if (st.ok()) return;
  std::fprintf(stderr, "[ERROR] ge fusion pass registry: %s\n", std::string(st.message()).c_str());
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  im.errors.emplace_back(st.message());
}

FusionPassRegistrar::FusionPassRegistrar(std::string name, FusionPassType type,
                                         FusionPassCreator creator, int32_t priority) {
  FusionPassRegistrationData data;
  data.name = std::move(name);
  data.type = type;
  data.priority = priority;
  data.creator = std::move(creator);
  FusionPassRegistry::Instance().Receive(std::move(data));
}

}  // namespace ge
