// metadef/register/src/framework_registry.cc
#include "metadef/register/inc/register/framework_registry.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/synchronization/mutex.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/src/internal/suggest.h"

namespace ge {
namespace {

bool FrameworkValid(FrameworkType fw) {
  switch (fw) {
    case FrameworkType::CAFFE:
    case FrameworkType::MINDSPORE:
    case FrameworkType::TENSORFLOW:
    case FrameworkType::ONNX:
      return true;
  }
  return false;
}

// ONNX's default domain has two spellings.
std::string NormalizeDomain(FrameworkType fw, absl::string_view domain) {
  if (fw == FrameworkType::ONNX && domain == "ai.onnx") return "";
  return std::string(domain);
}

std::string DomainText(absl::string_view domain) {
  return domain.empty() ? std::string("'' (default)") : absl::StrCat("'", domain, "'");
}

std::string RangeText(const FrameworkOpMapping& m) {
  return absl::StrCat(
      "[", m.min_version, ", ",
      m.max_version == kMaxVersion ? std::string("max") : absl::StrCat(m.max_version), "]");
}

std::string Head(FrameworkType fw, absl::string_view type) {
  return absl::StrCat("framework ", FrameworkTypeName(fw), ": op type '", type, "'");
}

}  // namespace

std::string FrameworkTypeName(FrameworkType framework) {
  switch (framework) {
    case FrameworkType::CAFFE:
      return "CAFFE";
    case FrameworkType::MINDSPORE:
      return "MINDSPORE";
    case FrameworkType::TENSORFLOW:
      return "TENSORFLOW";
    case FrameworkType::ONNX:
      return "ONNX";
  }
  return absl::StrCat("FRAMEWORK(", static_cast<int32_t>(framework), ")");
}

Status FrameworkOpMapping::MapAttrs(const void* framework_node, OpDesc& op) const {
  if (attr_mapping == nullptr) return OkStatus();
  return Annotate(attr_mapping(framework_node, op), Head(framework, origin_type), " -> ", op_type,
                  ": attribute mapping: ");
}

std::vector<FrameworkOpMapping> FrameworkRegistrationData::ToMappings() const {
  std::vector<FrameworkOpMapping> out;
  for (const std::string& t : origin_types_) {
    FrameworkOpMapping m;
    m.framework = framework_;
    m.origin_type = t;
    m.domain = domain_;
    m.min_version = min_version_;
    m.max_version = max_version_;
    m.op_type = op_type_;
    m.attr_mapping = attr_mapping_;
    out.push_back(std::move(m));
  }
  return out;
}

struct FrameworkRegistry::Impl {
  mutable absl::Mutex mu;
  // (framework, origin type) -> mappings over domains and version ranges.
  std::map<std::pair<int32_t, std::string>, std::vector<FrameworkOpMapping>> mappings
      ABSL_GUARDED_BY(mu);
  std::vector<std::string> errors ABSL_GUARDED_BY(mu);

  Status Check(const FrameworkOpMapping& m) const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu);
};

FrameworkRegistry& FrameworkRegistry::Instance() {
  static FrameworkRegistry* r = new FrameworkRegistry();
  return *r;
}

FrameworkRegistry::Impl& FrameworkRegistry::impl() const {
  static Impl* i = new Impl();  // never destroyed
  return *i;
}

Status FrameworkRegistry::Impl::Check(const FrameworkOpMapping& m) const {
  if (!FrameworkValid(m.framework)) {
    return ParamInvalid("framework mapping to op type '", m.op_type, "': unknown framework ",
                        FrameworkTypeName(m.framework));
  }
  const std::string head = Head(m.framework, m.origin_type);
  if (m.origin_type.empty()) {
    return ParamInvalid("framework ", FrameworkTypeName(m.framework),
                        ": empty framework op type (mapping to '", m.op_type, "')");
  }
  if (m.op_type.empty()) return ParamInvalid(head, ": empty target op type");
  if (m.min_version < 0 || m.max_version < m.min_version) {
    return ParamInvalid(head, ": invalid version range ", RangeText(m));
  }
  auto it = mappings.find({static_cast<int32_t>(m.framework), m.origin_type});
  if (it == mappings.end()) return OkStatus();
  const std::string domain = NormalizeDomain(m.framework, m.domain);
  for (const FrameworkOpMapping& e : it->second) {
    if (NormalizeDomain(e.framework, e.domain) != domain) continue;
    if (e.max_version < m.min_version || m.max_version < e.min_version) continue;
    return AlreadyExists(head, " (domain ", DomainText(domain), "): versions ", RangeText(m),
                         " mapping to '", m.op_type, "' from ",
                         m.source.empty() ? "builtin" : m.source, " overlap versions ",
                         RangeText(e), " mapping to '", e.op_type, "' from ", e.source);
  }
  return OkStatus();
}

Status FrameworkRegistry::Register(FrameworkOpMapping mapping) {
  if (mapping.source.empty()) mapping.source = "builtin";
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  RETURN_IF_ERROR(im.Check(mapping));
  im.mappings[{static_cast<int32_t>(mapping.framework), mapping.origin_type}].push_back(
      std::move(mapping));
  return OkStatus();
}

Status FrameworkRegistry::Register(const FrameworkRegistrationData& data) {
  std::vector<FrameworkOpMapping> all = data.ToMappings();
  if (all.empty()) {
    return ParamInvalid("framework mapping to op type '", data.GetOpType(),
                        "' names no framework op type (OriginOpType)");
  }
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  // Check all first (including against each other) so that nothing is
  // registered when one fails.
  for (size_t i = 0; i < all.size(); ++i) {
    all[i].source = "builtin";
    RETURN_IF_ERROR(im.Check(all[i]));
    for (size_t j = 0; j < i; ++j) {
      if (all[j].origin_type == all[i].origin_type) {
        return AlreadyExists(Head(all[i].framework, all[i].origin_type),
                             " is listed twice for op type '", data.GetOpType(), "'");
      }
    }
  }
  for (FrameworkOpMapping& m : all) {
    im.mappings[{static_cast<int32_t>(m.framework), m.origin_type}].push_back(std::move(m));
  }
  return OkStatus();
}

StatusOr<FrameworkOpMapping> FrameworkRegistry::Find(FrameworkType framework,
                                                     absl::string_view origin_type,
                                                     absl::string_view domain,
                                                     int64_t version) const {
  const std::string head = Head(framework, origin_type);
  if (version < kAnyVersion) return ParamInvalid(head, ": invalid version ", version);
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  auto it = im.mappings.find({static_cast<int32_t>(framework), std::string(origin_type)});
  if (it == im.mappings.end()) {
    std::vector<absl::string_view> names;
    for (const auto& kv : im.mappings) {
      if (kv.first.first == static_cast<int32_t>(framework)) names.push_back(kv.first.second);
    }
    return NotFound(head, " is not registered",
                    register_internal::SuggestionSuffix(
                        register_internal::ClosestNames(origin_type, names, 3)));
  }
  const std::string want = NormalizeDomain(framework, domain);
  const FrameworkOpMapping* best = nullptr;
  std::vector<std::string> domains, ranges;
  for (const FrameworkOpMapping& m : it->second) {
    const std::string d = NormalizeDomain(m.framework, m.domain);
    domains.push_back(DomainText(d));
    if (d != want) continue;
    ranges.push_back(RangeText(m));
    if (version == kAnyVersion) {
      if (best == nullptr || m.max_version > best->max_version) best = &m;
    } else if (m.min_version <= version && version <= m.max_version) {
      best = &m;
    }
  }
  if (best != nullptr) return *best;
  if (ranges.empty()) {
    std::sort(domains.begin(), domains.end());
    domains.erase(std::unique(domains.begin(), domains.end()), domains.end());
    return NotFound(head, " is not registered in domain ", DomainText(want),
                    "; registered domains: ", absl::StrJoin(domains, ", "));
  }
  std::sort(ranges.begin(), ranges.end());
  return NotFound(head, " (domain ", DomainText(want), ") has no mapping for version ", version,
                  "; registered versions: ", absl::StrJoin(ranges, ", "));
}

std::vector<std::string> FrameworkRegistry::GetOriginTypes(FrameworkType framework) const {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  std::vector<std::string> out;
  for (const auto& kv : im.mappings) {
    if (kv.first.first == static_cast<int32_t>(framework)) out.push_back(kv.first.second);
  }
  return out;  // std::map order: sorted and unique
}

std::vector<std::string> FrameworkRegistry::GetRegistrationErrors() const {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  return im.errors;
}

bool FrameworkRegistry::UnregisterForTest(FrameworkType framework, absl::string_view origin_type) {
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  return im.mappings.erase({static_cast<int32_t>(framework), std::string(origin_type)}) != 0;
}

void FrameworkRegistry::Receive(const FrameworkRegistrationData& data) {
  const Status st = Register(data);
  if (st.ok()) return;
  std::fprintf(stderr, "[ERROR] ge framework registry: %s\n", std::string(st.message()).c_str());
  Impl& im = impl();
  absl::MutexLock lock(&im.mu);
  im.errors.emplace_back(st.message());
}

FrameworkReceiver::FrameworkReceiver(FrameworkRegistrationData& data) {
  FrameworkRegistry::Instance().Receive(data);
}
FrameworkReceiver::FrameworkReceiver(FrameworkRegistrationData&& data) {
  FrameworkRegistry::Instance().Receive(data);
}

}  // namespace ge
