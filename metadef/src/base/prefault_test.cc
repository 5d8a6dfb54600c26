// metadef/src/base/prefault_test.cc
#include "metadef/inc/base/prefault.h"

#include <sys/mman.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "gtest/gtest.h"

namespace ge {
namespace {

long MinorFaults() {  // NOLINT(runtime/int)
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_minflt;
}

// Minor faults taken while writing every byte of a fresh 4 MiB mapping
// (small pages), populated first or not.
long FaultsWriting(bool populate, bool* populated) {  // NOLINT(runtime/int)
  constexpr size_t kBytes = size_t{4} << 20;
  void* p = ::mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return -1;
  (void)::madvise(p, kBytes, MADV_NOHUGEPAGE);
  *populated = populate && PrefaultForWrite(p, kBytes);
  const long before = MinorFaults();  // NOLINT(runtime/int)
  std::memset(p, 0x5a, kBytes);
  const long faults = MinorFaults() - before;  // NOLINT(runtime/int)
  const bool written = static_cast<unsigned char*>(p)[kBytes - 1] == 0x5a;
  ::munmap(p, kBytes);
  return written ? faults : -1;
}

TEST(PrefaultTest, PopulatedPagesTakeNoFaultsWhenWritten) {
  bool populated = false;
  const long plain = FaultsWriting(false, &populated);  // NOLINT(runtime/int)
  ASSERT_GE(plain, 1024) << "each of the 1024 pages faults on first touch";
  const long after_populate = FaultsWriting(true, &populated);  // NOLINT(runtime/int)
  if (!populated) GTEST_SKIP() << "MADV_POPULATE_WRITE is not supported here";
  ASSERT_GE(after_populate, 0);
  // Only what is not the mapping faults (AddressSanitizer's shadow pages).
  EXPECT_LT(after_populate * 4, plain) << after_populate << " faults vs " << plain;
#if !defined(__SANITIZE_ADDRESS__)
  EXPECT_LT(after_populate, 8);
#endif
}

TEST(PrefaultTest, SmallNullAndUnmappedRangesAreDeclined) {
  EXPECT_FALSE(PrefaultForWrite(nullptr, size_t{1} << 20));
  char small[64];
  EXPECT_FALSE(PrefaultForWrite(small, sizeof(small)));
  constexpr size_t kBytes = size_t{1} << 20;
  void* p = ::mmap(nullptr, kBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(p, MAP_FAILED);
  ::munmap(p, kBytes);
  EXPECT_FALSE(PrefaultForWrite(p, kBytes));  // nothing mapped there now
}

TEST(PrefaultTest, ReservePrefaultedKeepsVectorSemantics) {
  std::vector<uint32_t> v = {1, 2, 3};
  ReservePrefaulted(&v, 100000);
  EXPECT_GE(v.capacity(), 100000u);
  EXPECT_EQ(v, (std::vector<uint32_t>{1, 2, 3}));
  const uint32_t* data = v.data();
  ReservePrefaulted(&v, 10);  // already enough: unchanged
  EXPECT_EQ(v.data(), data);
  v.resize(100000, 7);
  EXPECT_EQ(v.back(), 7u);
}

}  // namespace
}  // namespace ge
