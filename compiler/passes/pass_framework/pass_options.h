// compiler/passes/pass_framework/pass_options.h
//
// Options shared by the pass drivers (PassManager, GEPass), read from the
// session / graph option map (GE's string options):
//   "ge.disabledPasses"   comma-separated pass names to skip, e.g.
//                         "CastRemovePass, DeadCodeEliminationPass". Names are
//                         trimmed; empty entries are ignored. A name matches
//                         the name a pass was registered under (AddPass).
//
// Example
//   std::set<std::string> off = ParseDisabledPasses(options);   // from the map
//   if (off.count("CastRemovePass") != 0) { ... }
#ifndef COMPILER_PASSES_PASS_FRAMEWORK_PASS_OPTIONS_H_
#define COMPILER_PASSES_PASS_FRAMEWORK_PASS_OPTIONS_H_

#include <map>
#include <set>
#include <string>

#include "absl/strings/string_view.h"

namespace ge {

inline constexpr char kOptionDisabledPasses[] = "ge.disabledPasses";

// The names in a comma-separated list ("a, b,,c" -> {a, b, c}).
std::set<std::string> ParseDisabledPassList(absl::string_view list);
// ParseDisabledPassList of options[kOptionDisabledPasses]; empty when absent.
std::set<std::string> ParseDisabledPasses(const std::map<std::string, std::string>& options);

}  // namespace ge

#endif  // COMPILER_PASSES_PASS_FRAMEWORK_PASS_OPTIONS_H_
