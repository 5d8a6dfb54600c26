// metadef/src/base/aligned_mapping_test.cc
#include "metadef/inc/base/aligned_mapping.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

#include "gtest/gtest.h"
#include "testing/proc_mappings.h"

namespace ge {
namespace {

using ::ge::testing::MappingOf;

TEST(MapAlignedTest, AlignedExactlySizedAndWritable) {
  constexpr size_t kAlign = size_t{2} << 20;
  for (size_t bytes : {size_t{4096}, size_t{5} << 20, (size_t{3} << 20) + 100}) {
    void* p = MapAligned(bytes, kAlign, PROT_READ | PROT_WRITE, 0);
    ASSERT_NE(p, nullptr) << std::strerror(errno);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kAlign, 0u);
    const size_t rounded = (bytes + 4095) & ~size_t{4095};
    std::memset(p, 0x5a, rounded);
    EXPECT_EQ(static_cast<unsigned char*>(p)[rounded - 1], 0x5a);
    // Exactly the rounded size stays mapped: the slack was returned (an
    // adjacent mapping with the same flags could merge with ours, so only
    // check that ours starts at p and reaches at least p + rounded).
    const auto [lo, hi] = MappingOf(p);
    EXPECT_LE(lo, reinterpret_cast<uintptr_t>(p));
    EXPECT_GE(hi, reinterpret_cast<uintptr_t>(p) + rounded);
    ASSERT_EQ(::munmap(p, rounded), 0);
    EXPECT_EQ(MappingOf(p).first == reinterpret_cast<uintptr_t>(p), false);
  }
}

TEST(MapAlignedTest, PagesAreTheSystems) {
  const size_t page = SystemPageSize();
  EXPECT_EQ(page, static_cast<size_t>(::getpagesize()));
  errno = 0;
  EXPECT_EQ(MapAligned(1, page / 2, PROT_READ, 0), nullptr);
  EXPECT_EQ(errno, EINVAL);
  // One byte takes one page, aligned to a page.
  void* p = MapAligned(1, page, PROT_READ | PROT_WRITE, 0);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % page, 0u);
  static_cast<char*>(p)[page - 1] = 1;  // the whole page is there
  ASSERT_EQ(::munmap(p, page), 0);
}

TEST(MapAlignedTest, ReservationsAndBadArguments) {
  void* r = MapAligned(size_t{8} << 20, size_t{2} << 20, PROT_NONE, MAP_NORESERVE);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(r) % (size_t{2} << 20), 0u);
  ASSERT_EQ(::munmap(r, size_t{8} << 20), 0);
  errno = 0;
  EXPECT_EQ(MapAligned(4096, 3000, PROT_READ, 0), nullptr);
  EXPECT_EQ(errno, EINVAL);
  errno = 0;
  EXPECT_EQ(MapAligned(4096, 1024, PROT_READ, 0), nullptr);
  EXPECT_EQ(errno, EINVAL);
  errno = 0;
  EXPECT_EQ(MapAligned(SIZE_MAX - 100, size_t{2} << 20, PROT_READ, 0), nullptr);
  EXPECT_EQ(errno, EOVERFLOW);
}

}  // namespace
}  // namespace ge
