// compiler/passes/pass_framework/pass_options.cc
#include "compiler/passes/pass_framework/pass_options.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_split.h"

namespace ge {

std::set<std::string> ParseDisabledPassList(absl::string_view list) {
  std::set<std::string> names;
  for (absl::string_view part : absl::StrSplit(list, ',')) {
    absl::string_view name = absl::StripAsciiWhitespace(part);
    if (!name.empty()) names.emplace(name);
  }
  return names;
}

std::set<std::string> ParseDisabledPasses(const std::map<std::string, std::string>& options) {
  auto it = options.find(kOptionDisabledPasses);
  if (it == options.end()) return {};
  return ParseDisabledPassList(it->second);
}

}  // namespace ge
