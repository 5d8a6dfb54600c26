// metadef/register/src/internal/suggest.cc
#include "metadef/register/src/internal/suggest.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace ge {
namespace register_internal {

size_t EditDistance(absl::string_view a, absl::string_view b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (same ? 0 : 1)});
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::vector<std::string> ClosestNames(absl::string_view name,
                                      const std::vector<absl::string_view>& candidates,
                                      size_t max) {
  const size_t limit = std::max<size_t>(1, (name.size() + 2) / 3);
  std::vector<std::pair<size_t, absl::string_view>> close;
  for (absl::string_view c : candidates) {
    // Cheap reject: the length difference alone exceeds the limit.
    const size_t diff = c.size() > name.size() ? c.size() - name.size() : name.size() - c.size();
    if (diff > limit) continue;
    const size_t d = EditDistance(name, c);
    if (d <= limit) close.emplace_back(d, c);
  }
  std::sort(close.begin(), close.end());
  close.erase(std::unique(close.begin(), close.end()), close.end());
  std::vector<std::string> out;
  for (size_t i = 0; i < close.size() && i < max; ++i) out.emplace_back(close[i].second);
  return out;
}

std::string SuggestionSuffix(const std::vector<std::string>& names) {
  if (names.empty()) return "";
  return absl::StrCat("; did you mean ",
                      absl::StrJoin(names, ", ",
                                    [](std::string* out, const std::string& n) {
                                      absl::StrAppend(out, "'", n, "'");
                                    }),
                      "?");
}

}  // namespace register_internal
}  // namespace ge
