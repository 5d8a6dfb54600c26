// metadef/register/src/internal/suggest.h
//
// Internal: "did you mean" suggestions for registry lookups.
//
// ClosestNames returns up to `max` candidates whose edit distance to `name`
// (Levenshtein, letters compared case-insensitively) is at most
// max(1, (|name| + 2) / 3), closest first, ties by name: deterministic
// whatever the order of `candidates`.
// SuggestionSuffix formats them: "; did you mean 'Add', 'AddN'?" or "".
//
// Example
//   ClosestNames("Addd", {"Add", "Mul"}, 3) == {"Add"}
#ifndef METADEF_REGISTER_SRC_INTERNAL_SUGGEST_H_
#define METADEF_REGISTER_SRC_INTERNAL_SUGGEST_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace ge {
namespace register_internal {

size_t EditDistance(absl::string_view a, absl::string_view b);

std::vector<std::string> ClosestNames(absl::string_view name,
                                      const std::vector<absl::string_view>& candidates, size_t max);

std::string SuggestionSuffix(const std::vector<std::string>& names);

}  // namespace register_internal
}  // namespace ge

#endif  // METADEF_REGISTER_SRC_INTERNAL_SUGGEST_H_
