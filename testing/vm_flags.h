// testing/vm_flags.h
//
// Test helper: the kernel's VmFlags of the mapping that holds an address
// (/proc/self/smaps), e.g. "hg" for a region advised MADV_HUGEPAGE.
//
//   EXPECT_TRUE(ge::testing::HasVmFlag(ptr, "hg"));
#ifndef TESTING_VM_FLAGS_H_
#define TESTING_VM_FLAGS_H_

#include <string>

namespace ge {
namespace testing {

// The "VmFlags: ..." line of the mapping that contains `addr`, or "" when
// no mapping does.
std::string VmFlagsOf(const void* addr);

// Whether that line lists `flag` (a two-letter code such as "hg").
bool HasVmFlag(const void* addr, const std::string& flag);

}  // namespace testing
}  // namespace ge

#endif  // TESTING_VM_FLAGS_H_
