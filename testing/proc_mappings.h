// testing/proc_mappings.h
//
// Test helpers over this process's mappings (/proc/self/smaps): the address
// range of the mapping that holds an address, and its VmFlags (e.g. "hg"
// for a region advised MADV_HUGEPAGE).
//
//   EXPECT_TRUE(ge::testing::HasVmFlag(ptr, "hg"));
//   const auto [lo, hi] = ge::testing::MappingOf(ptr);
#ifndef TESTING_PROC_MAPPINGS_H_
#define TESTING_PROC_MAPPINGS_H_

#include <cstdint>
#include <string>
#include <utility>

namespace ge {
namespace testing {

// [lo, hi) of the mapping that contains `addr`, or {0, 0} when none does.
std::pair<uintptr_t, uintptr_t> MappingOf(const void* addr);

// The "VmFlags: ..." line of the mapping that contains `addr`, or "" when
// no mapping does.
std::string VmFlagsOf(const void* addr);

// Whether that line lists `flag` (a two-letter code such as "hg").
bool HasVmFlag(const void* addr, const std::string& flag);

}  // namespace testing
}  // namespace ge

#endif  // TESTING_PROC_MAPPINGS_H_
