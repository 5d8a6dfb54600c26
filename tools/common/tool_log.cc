// Implementation of tools/common/tool_log.h.
#include "tools/common/tool_log.h"

#include <atomic>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"

namespace ge {
namespace tools {
namespace {
std::atomic<int32_t> g_level{static_cast<int32_t>(LogLevel::kInfo)};
}  // namespace

StatusOr<LogLevel> ParseLogLevel(absl::string_view text) {
  const std::string t = absl::AsciiStrToLower(text);
  if (t == "debug") return LogLevel::kDebug;
  if (t == "info") return LogLevel::kInfo;
  if (t == "warning") return LogLevel::kWarning;
  if (t == "error") return LogLevel::kError;
  if (t == "null") return LogLevel::kNull;
  return ParamInvalid("--log value '", text, "' is not one of debug, info, warning, error, null");
}

void SetLogLevel(LogLevel level) { g_level.store(static_cast<int32_t>(level)); }
LogLevel GetLogLevel() { return static_cast<LogLevel>(g_level.load()); }
bool LogEnabled(LogLevel level) {
  return level != LogLevel::kNull && static_cast<int32_t>(level) >= g_level.load();
}

void WriteLog(LogLevel level, absl::string_view tool, absl::string_view message) {
  const char* tag = "";
  if (level == LogLevel::kError) tag = "ERROR: ";
  if (level == LogLevel::kWarning) tag = "WARNING: ";
  if (level == LogLevel::kDebug) tag = "DEBUG: ";
  std::string line = absl::StrCat("[", tool, "] ", tag, message, "\n");
  std::fwrite(line.data(), 1, line.size(), stderr);
  std::fflush(stderr);
}

StatusOr<std::vector<std::pair<std::string, std::string>>> ParseFlagArgs(
    int argc, const char* const* argv, const std::vector<FlagSpec>& specs) {
  std::vector<std::pair<std::string, std::string>> out;
  for (int i = 1; i < argc; ++i) {
    absl::string_view arg = argv[i] == nullptr ? "" : argv[i];
    if (!absl::StartsWith(arg, "-") || arg == "-" || arg == "--") {
      return ParamInvalid("unexpected argument '", arg, "' (flags look like --name=value)");
    }
    arg.remove_prefix(absl::StartsWith(arg, "--") ? 2 : 1);
    std::string name;
    std::string value;
    bool has_value = false;
    const size_t eq = arg.find('=');
    if (eq != absl::string_view::npos) {
      name = std::string(arg.substr(0, eq));
      value = std::string(arg.substr(eq + 1));
      has_value = true;
    } else {
      name = std::string(arg);
    }
    const FlagSpec* spec = nullptr;
    for (const FlagSpec& s : specs) {
      if (s.name == name) spec = &s;
    }
    if (spec == nullptr) return ParamInvalid("unknown flag '--", name, "' (see --help)");
    if (!has_value) {
      if (!spec->takes_value) {
        value = "true";
      } else if (i + 1 < argc && argv[i + 1] != nullptr) {
        value = argv[++i];
      } else {
        return ParamInvalid("flag '--", name, "' needs a value");
      }
    }
    out.emplace_back(std::move(name), std::move(value));
  }
  return out;
}

}  // namespace tools
}  // namespace ge
