// testing/proc_mappings.cc
#include "testing/proc_mappings.h"

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

namespace ge {
namespace testing {
namespace {

// Walks /proc/self/smaps: `on_line(line, lo, hi)` sees the header line of
// the mapping that holds `addr` (with its range) and then that mapping's
// other lines (with {0, 0}); the walk stops when it returns true.
template <typename OnLine>
void WalkSmaps(const void* addr, OnLine on_line) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = lo <= a && a < hi;
      if (inside && on_line(line, lo, hi)) return;
      continue;
    }
    if (inside && on_line(line, 0, 0)) return;
  }
}

}  // namespace

std::pair<uintptr_t, uintptr_t> MappingOf(const void* addr) {
  std::pair<uintptr_t, uintptr_t> range{0, 0};
  WalkSmaps(addr, [&range](const std::string&, uintptr_t lo, uintptr_t hi) {
    range = {lo, hi};
    return true;
  });
  return range;
}

std::string VmFlagsOf(const void* addr) {
  std::string flags;
  WalkSmaps(addr, [&flags](const std::string& line, uintptr_t, uintptr_t) {
    if (line.rfind("VmFlags:", 0) != 0) return false;
    flags = line;
    return true;
  });
  return flags;
}

bool HasVmFlag(const void* addr, const std::string& flag) {
  std::istringstream in(VmFlagsOf(addr));
  std::string word;
  while (in >> word) {
    if (word == flag) return true;
  }
  return false;
}

}  // namespace testing
}  // namespace ge
