// testing/vm_flags.cc
#include "testing/vm_flags.h"

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

namespace ge {
namespace testing {

std::string VmFlagsOf(const void* addr) {
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
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
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
