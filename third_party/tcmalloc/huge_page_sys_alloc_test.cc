// Tests the tools' allocator (//third_party:malloc): by default the heap is
// not huge-page advised; built with GE_EXPECT_HUGE_PAGES and run with
// GE_HUGE_PAGES=1 (malloc_huge_pages_test), /proc/self/smaps lists the
// mapping holding a fresh heap object with the `hg` VmFlag (set by the
// advice whatever the kernel's THP policy is). Large and many small
// allocations work either way.

#include <cstdint>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "testing/proc_mappings.h"

namespace {

TEST(HugePageSysAllocatorTest, HeapObjectsLiveInRegionsAdvisedAsConfigured) {
#ifdef GE_SYSTEM_MALLOC
  GTEST_SKIP() << "sanitizer / system malloc build: the allocator is not linked";
#else
  std::ifstream probe("/proc/self/smaps");
  if (!probe) GTEST_SKIP() << "no /proc/self/smaps";
  // Enough small objects that tcmalloc must grow its heap after start-up.
  std::vector<std::unique_ptr<char[]>> objects;
  for (int i = 0; i < 200000; ++i) {
    objects.emplace_back(new char[96]);
    std::memset(objects.back().get(), i & 0xff, 96);
  }
  const std::string flags = ge::testing::VmFlagsOf(objects.back().get());
  ASSERT_FALSE(flags.empty()) << "no mapping holds a heap object";
#ifdef GE_EXPECT_HUGE_PAGES
  EXPECT_TRUE(ge::testing::HasVmFlag(objects.back().get(), "hg")) << flags;
#else
  EXPECT_FALSE(ge::testing::HasVmFlag(objects.back().get(), "hg")) << flags;
#endif
  for (int i = 0; i < 200000; i += 4999) {
    EXPECT_EQ(static_cast<unsigned char>(objects[i][95]), static_cast<unsigned char>(i & 0xff));
  }
#endif
}

TEST(HugePageSysAllocatorTest, LargeAllocationsAreUsableAndAligned) {
  // Larger than one 64 MiB region: gets its own region.
  constexpr size_t kBig = size_t{96} << 20;
  std::unique_ptr<char[]> big(new char[kBig]);
  big[0] = 1;
  big[kBig - 1] = 2;
  EXPECT_EQ(big[0] + big[kBig - 1], 3);
  void* aligned = nullptr;
  ASSERT_EQ(posix_memalign(&aligned, size_t{1} << 16, size_t{5} << 20), 0);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % (size_t{1} << 16), 0u);
  std::memset(aligned, 7, size_t{5} << 20);
  free(aligned);
}

}  // namespace
