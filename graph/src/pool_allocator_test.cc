// graph/src/pool_allocator_test.cc
#include "graph/inc/graph/pool_allocator.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace ge {
namespace internal {
namespace {

TEST(PoolAllocatorTest, AlignedDistinctAndWritable) {
  std::vector<std::pair<void*, size_t>> blocks;
  std::set<uintptr_t> seen;
  for (size_t bytes : {1, 8, 16, 17, 40, 80, 296, 1000, 1024, 1025, 5000}) {
    for (int k = 0; k < 50; ++k) {
      void* p = PoolAllocate(bytes);
      ASSERT_NE(p, nullptr);
      EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kPoolAlignment, 0u) << bytes;
      EXPECT_TRUE(seen.insert(reinterpret_cast<uintptr_t>(p)).second) << bytes;
      std::memset(p, 0xab, bytes);
      blocks.emplace_back(p, bytes);
    }
  }
  // No two live blocks overlap.
  std::vector<std::pair<uintptr_t, uintptr_t>> ranges;
  for (const auto& [p, n] : blocks) {
    ranges.emplace_back(reinterpret_cast<uintptr_t>(p), reinterpret_cast<uintptr_t>(p) + n);
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) EXPECT_LE(ranges[i - 1].second, ranges[i].first);
  for (const auto& [p, n] : blocks) PoolDeallocate(p, n);
  PoolDeallocate(nullptr, 16);  // no-op
}

TEST(PoolAllocatorTest, FreedBlocksAreReusedBySizeClass) {
  if (!PoolEnabled()) GTEST_SKIP() << "pool disabled (sanitizer build)";
  void* a = PoolAllocate(41);  // class 48
  PoolDeallocate(a, 41);
  void* b = PoolAllocate(48);  // same class: same block
  EXPECT_EQ(a, b);
  void* c = PoolAllocate(56);  // the next class
  EXPECT_NE(c, b);
  PoolDeallocate(b, 48);
  PoolDeallocate(c, 56);
  const PoolStats stats = GetPoolStats();
  EXPECT_GT(stats.reserved_bytes, 0u);
  EXPECT_GE(stats.reserved_bytes, stats.carved_bytes);
}

TEST(PoolAllocatorTest, RegionsKeepTheirOwnBlocks) {
  if (!PoolEnabled()) GTEST_SKIP() << "pool disabled (sanitizer build)";
  void* a = PoolAllocate(48, PoolRegion::kNodes);
  PoolDeallocate(a, 48, PoolRegion::kNodes);
  // A freed block goes back to its region only.
  void* general = PoolAllocate(48);
  void* bodies = PoolAllocate(48, PoolRegion::kBodies);
  EXPECT_NE(general, a);
  EXPECT_NE(bodies, a);
  void* again = PoolAllocate(48, PoolRegion::kNodes);
  EXPECT_EQ(again, a);
  PoolDeallocate(again, 48, PoolRegion::kNodes);
  PoolDeallocate(bodies, 48, PoolRegion::kBodies);
  PoolDeallocate(general, 48);

  // Interleaved allocations: each region's blocks follow one another.
  constexpr int kN = 1000;
  std::vector<char*> nodes;
  std::vector<void*> other;
  for (int i = 0; i < kN; ++i) {
    nodes.push_back(static_cast<char*>(PoolAllocate(200, PoolRegion::kNodes)));
    other.push_back(PoolAllocate(512));
    other.push_back(PoolAllocate(136, PoolRegion::kBodies));
  }
  int adjacent = 0;
  for (int i = 1; i < kN; ++i) adjacent += nodes[i] == nodes[i - 1] + 200 ? 1 : 0;
  EXPECT_GE(adjacent, kN - 1 - 2) << "at most a chunk change or two";
  for (char* p : nodes) PoolDeallocate(p, 200, PoolRegion::kNodes);
  for (size_t i = 0; i < other.size(); i += 2) {
    PoolDeallocate(other[i], 512);
    PoolDeallocate(other[i + 1], 136, PoolRegion::kBodies);
  }
}

TEST(PoolAllocatorTest, CrossThreadFreeAndThreadExit) {
  constexpr int kN = 2000;
  std::vector<void*> from_thread(kN);
  std::thread producer([&from_thread] {
    for (int i = 0; i < kN; ++i) {
      from_thread[i] = PoolAllocate(32);
      std::memset(from_thread[i], i & 0xff, 32);
    }
    // A block freed on the thread goes to the depot when it exits.
    PoolDeallocate(PoolAllocate(32), 32);
  });
  producer.join();
  for (int i = 0; i < kN; ++i) {
    EXPECT_EQ(static_cast<unsigned char*>(from_thread[i])[31],
              static_cast<unsigned char>(i & 0xff));
    PoolDeallocate(from_thread[i], 32);  // freed on another thread
  }
  // Allocation after the depot was fed still works on a fresh thread.
  std::thread consumer([] {
    std::vector<void*> v;
    for (int i = 0; i < 100; ++i) v.push_back(PoolAllocate(32));
    std::set<void*> unique(v.begin(), v.end());
    EXPECT_EQ(unique.size(), v.size());
    for (void* p : v) PoolDeallocate(p, 32);
  });
  consumer.join();
}

TEST(PoolAllocatorTest, StdAllocatorAndPoolNew) {
  std::vector<int64_t, PoolStdAllocator<int64_t>> v;
  for (int64_t i = 0; i < 1000; ++i) v.push_back(i);  // grows past kPoolMaxBytes
  int64_t sum = 0;
  for (int64_t x : v) sum += x;
  EXPECT_EQ(sum, 999 * 1000 / 2);
  EXPECT_TRUE(PoolStdAllocator<int>() == PoolStdAllocator<char>());

  struct Obj {
    explicit Obj(int* counter) : counter(counter) { ++*counter; }
    ~Obj() { --*counter; }
    int* counter;
  };
  int live = 0;
  {
    std::unique_ptr<Obj, PoolDeleter> p(PoolNew<Obj>(&live));
    EXPECT_EQ(live, 1);
  }
  EXPECT_EQ(live, 0);
  PoolDelete<Obj>(nullptr);
}

}  // namespace
}  // namespace internal
}  // namespace ge
