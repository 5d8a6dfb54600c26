// graph/src/pool_first_chunk_test.cc
//
// With GE_GRAPH_POOL_THP=1 (pool_first_chunk_test) the pool's first 2 MiB
// chunk stays on small pages and its later chunks are advised MADV_HUGEPAGE
// (a process that builds a few op descs, such as an OM load, would otherwise
// fault in a whole zeroed 2 MiB page for them); by default
// (pool_small_pages_test) no chunk is advised. A test binary of its own: the
// pool must be fresh.
#include <cstdint>
#include <cstring>
#include <fstream>
#include <vector>

#include "graph/inc/graph/pool_allocator.h"
#include "gtest/gtest.h"
#include "testing/proc_mappings.h"

namespace ge {
namespace internal {
namespace {

TEST(PoolFirstChunkTest, ChunksAdvisedAsConfigured) {
  if (!PoolEnabled()) GTEST_SKIP() << "pool disabled (sanitizer build)";
  if (!std::ifstream("/proc/self/smaps")) GTEST_SKIP() << "no /proc/self/smaps";
  ASSERT_EQ(GetPoolStats().reserved_bytes, 0u) << "the pool was used before this test";
  constexpr size_t kBytes = 1024;
  void* first = PoolAllocate(kBytes);
  std::memset(first, 1, kBytes);
  // Past the first 2 MiB chunk.
  std::vector<void*> more;
  while (GetPoolStats().carved_bytes <= (size_t{2} << 20)) {
    more.push_back(PoolAllocate(kBytes));
    std::memset(more.back(), 2, kBytes);
  }
  void* later = more.back();
  EXPECT_FALSE(ge::testing::HasVmFlag(first, "hg")) << ge::testing::VmFlagsOf(first);
#ifdef GE_EXPECT_POOL_THP
  EXPECT_TRUE(ge::testing::HasVmFlag(later, "hg")) << ge::testing::VmFlagsOf(later);
#else
  EXPECT_FALSE(ge::testing::HasVmFlag(later, "hg")) << ge::testing::VmFlagsOf(later);
#endif
  for (void* p : more) PoolDeallocate(p, kBytes);
  PoolDeallocate(first, kBytes);
}

}  // namespace
}  // namespace internal
}  // namespace ge
