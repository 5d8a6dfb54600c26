// ops/common/scratch_test.cc
#include "ops/common/scratch.h"

#include <cstdint>
#include <cstring>
#include <thread>

#include "gtest/gtest.h"

namespace ops {
namespace {

TEST(ScratchTest, ReusesTheSlotOnceLargeEnough) {
  float* a = ThreadScratch<float>(ScratchSlot::kKernel0, 100);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 64, 0u);
  EXPECT_GE(ThreadScratchCapacity(ScratchSlot::kKernel0), 400u);
  std::memset(a, 0, 400);
  // Smaller and equal requests get the same memory.
  EXPECT_EQ(ThreadScratch<float>(ScratchSlot::kKernel0, 10), a);
  EXPECT_EQ(ThreadScratch<float>(ScratchSlot::kKernel0, 100), a);
  // Zero elements still give a valid pointer.
  EXPECT_NE(ThreadScratch<double>(ScratchSlot::kKernel0, 0), nullptr);
}

TEST(ScratchTest, GrowsAndSlotsAreIndependent) {
  int64_t* a = ThreadScratch<int64_t>(ScratchSlot::kKernel1, 4);
  int64_t* b = ThreadScratch<int64_t>(ScratchSlot::kKernel2, 4);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_NE(a, b);
  int64_t* big = ThreadScratch<int64_t>(ScratchSlot::kKernel1, 1 << 16);
  ASSERT_NE(big, nullptr);
  EXPECT_GE(ThreadScratchCapacity(ScratchSlot::kKernel1), sizeof(int64_t) << 16);
  big[(1 << 16) - 1] = 7;  // the whole request is usable
  EXPECT_EQ(ThreadScratch<int64_t>(ScratchSlot::kKernel2, 4), b);
}

TEST(ScratchTest, ThreadsGetTheirOwnMemory) {
  char* mine = ThreadScratch<char>(ScratchSlot::kKernel3, 64);
  char* theirs = nullptr;
  std::thread t([&] { theirs = ThreadScratch<char>(ScratchSlot::kKernel3, 64); });
  t.join();
  ASSERT_NE(theirs, nullptr);
  EXPECT_NE(mine, theirs);
}

TEST(ScratchTest, ImpossibleRequestsFail) {
  EXPECT_EQ(ThreadScratch<double>(ScratchSlot::kKernel0, SIZE_MAX / 4), nullptr);
  EXPECT_EQ(ThreadScratchBytes(ScratchSlot::kCount, 8), nullptr);
  EXPECT_EQ(ThreadScratchCapacity(ScratchSlot::kCount), 0u);
}

}  // namespace
}  // namespace ops
