// tools/common/tool_log.h
//
// Leveled stderr logging and small flag helpers for the command line tools
// (atc, om_run). abseil here has no absl/log; this is all the tools need.
//
// Contract
//   * Levels follow atc's --log: debug < info < warning < error < null
//     ("null" prints nothing). The default is info.
//   * ToolLog(level, tool, args...) prints "[<tool>] <args>\n" to stderr when
//     level >= the current level; errors get "[<tool>] ERROR: ".
//   * Not thread-safe to change the level while others log (set it once at
//     start-up).
//   * ParseFlagArgs splits argv into (name, value) pairs: "--name=value",
//     "--name value" (when the flag takes a value) and "--name" (valueless
//     flags). Positional arguments and unknown names are errors naming them.
//
// Example
//   ge::tools::SetLogLevel(ge::tools::LogLevel::kWarning);
//   ge::tools::ToolLog(ge::tools::LogLevel::kInfo, "atc", "parse ", 12.3, " ms");
#ifndef TOOLS_COMMON_TOOL_LOG_H_
#define TOOLS_COMMON_TOOL_LOG_H_

#include <cstdint>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace tools {

enum class LogLevel : int32_t { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kNull = 4 };

// "debug", "info", "warning", "error", "null" (case-insensitive).
StatusOr<LogLevel> ParseLogLevel(absl::string_view text);
void SetLogLevel(LogLevel level);
LogLevel GetLogLevel();
bool LogEnabled(LogLevel level);
void WriteLog(LogLevel level, absl::string_view tool, absl::string_view message);

template <typename... Args>
void ToolLog(LogLevel level, absl::string_view tool, const Args&... args) {
  if (!LogEnabled(level)) return;
  WriteLog(level, tool, absl::StrCat(args...));
}

struct FlagSpec {
  std::string name;
  bool takes_value = true;  // false: "--name" alone means "true"
};

// argv[1..] -> ordered (name, value) pairs. Valueless flags may also be given
// "--name=value". A repeated flag: the last one wins (all are returned).
StatusOr<std::vector<std::pair<std::string, std::string>>> ParseFlagArgs(
    int argc, const char* const* argv, const std::vector<FlagSpec>& specs);

}  // namespace tools
}  // namespace ge

#endif  // TOOLS_COMMON_TOOL_LOG_H_
