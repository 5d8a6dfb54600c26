// runtime/engine/engine_test.cc
#include "runtime/engine/engine.h"

#include <cstdint>
#include <cstring>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "ops/compute/common/dnnl_common.h"

namespace ge {
namespace {

using ::testing::HasSubstr;

Status NopKernel(gert::KernelContext&) { return OkStatus(); }
REG_KERNEL(EngineTestOp, kEngineAiCore).Fn(NopKernel);

TEST(EngineTest, BuiltinEnginesInPriorityOrder) {
  std::vector<Engine*> all = AllEngines();
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0]->name(), kEngineAiCore);
  EXPECT_EQ(all[1]->name(), kEngineHostCpu);
  EXPECT_EQ(all[2]->name(), kEngineRts);
  StatusOr<Engine*> e = FindEngine(kEngineHostCpu);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->memory_kind(), MemoryKind::kHost);
  StatusOr<Engine*> missing = FindEngine("CUDA");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("AIcoreEngine, DNN_VM_HOST_CPU, DNN_VM_RTS"));
}

TEST(EngineTest, KernelsAreTheEnginesRegistrations) {
  Engine* compute = *FindEngine(kEngineAiCore);
  Engine* host = *FindEngine(kEngineHostCpu);
  EXPECT_NE(compute->FindKernel("EngineTestOp"), nullptr);
  EXPECT_EQ(host->FindKernel("EngineTestOp"), nullptr);
  std::vector<std::string> types = compute->OpTypes();
  EXPECT_NE(std::find(types.begin(), types.end(), "EngineTestOp"), types.end());
}

TEST(EngineTest, HostMemoryAllocationAndTransfer) {
  Engine* e = *FindEngine(kEngineAiCore);
  void* p = e->allocator().Allocate(100, 64);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  const char src[4] = {1, 2, 3, 4};
  ASSERT_TRUE(e->CopyFromHost(p, src, 4).ok());
  char back[4] = {};
  ASSERT_TRUE(e->CopyToHost(back, p, 4).ok());
  EXPECT_EQ(std::memcmp(src, back, 4), 0);
  e->allocator().Free(p);
}

TEST(EngineTest, ComputeEngineSetsTheIntraOpThreads) {
  Engine* e = *FindEngine(kEngineAiCore);
  e->BeginRun(RunConfig{2});
  EXPECT_EQ(ops::compute::IntraOpThreads(), 2);
  e->BeginRun(RunConfig{1});
  EXPECT_EQ(ops::compute::IntraOpThreads(), 1);
}

}  // namespace
}  // namespace ge
