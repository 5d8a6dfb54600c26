// ops/compute/conv/conv_alloc_test.cc
//
// What a prepared convolution allocates per Run (global operator new,
// counted by //metadef/register:alloc_counter). The kernel's own code
// allocates nothing; oneDNN 2.6's dnnl_primitive_execute builds a hash map
// of the arguments on every call (a handful of small allocations per
// primitive executed), which no caller of its public API avoids. The test
// pins that: the same count on every Run, bounded per primitive.
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/testing/alloc_counter.h"
#include "ops/compute/common/compute_kernel_tester.h"
#include "ops/compute/common/dnnl_common.h"
#include "ops/compute/conv/conv_kernel.h"

namespace ops {
namespace compute {
namespace {

struct Case {
  const char* name;
  std::vector<int64_t> x, w;
  int64_t group;
  bool const_w;
};

TEST(DnnlConvAllocTest, RunAllocatesOnlyOneDnnlsArgumentMaps) {
  const Case cases[] = {
      {"3x3 (reorders X and Y)", {1, 32, 12, 12}, {32, 32, 3, 3}, 1, true},
      {"1x1 (direct)", {1, 32, 12, 12}, {16, 32, 1, 1}, 1, true},
      {"depthwise", {1, 32, 12, 12}, {32, 1, 3, 3}, 32, true},
      {"runtime weights", {1, 8, 12, 12}, {8, 8, 3, 3}, 1, false},
  };
  for (const Case& c : cases) {
    gert::HostTensor x = testing::RandomTensor(ge::DT_FLOAT, c.x, 1);
    gert::HostTensor w = testing::RandomTensor(ge::DT_FLOAT, c.w, 2);
    gert::HostTensor b = testing::RandomTensor(ge::DT_FLOAT, {c.w[0]}, 3);
    gert::HostTensor y =
        *gert::HostTensor::Create(ge::DT_FLOAT, gert::Shape{c.x[0], c.w[0], c.x[2], c.x[3]});
    ge::NamedAttrs attrs;
    ASSERT_TRUE(
        attrs.SetAttr("pads", ge::AttrValue::CreateFrom(std::vector<int64_t>(4, c.w[2] / 2))).ok());
    ASSERT_TRUE(attrs.SetAttr("group", ge::AttrValue::CreateFrom<int64_t>(c.group)).ok());
    gert::Tensor x_fact = x.tensor(), w_fact = w.tensor(), y_fact = y.tensor();
    x_fact.SetData(nullptr, 0);
    y_fact.SetData(nullptr, 0);
    if (!c.const_w) w_fact.SetData(nullptr, 0);
    DnnlConv kernel;
    gert::TilingContextBuilder tb;
    gert::TilingContext* tctx = tb.Node("conv", "Conv")
                                    .Attrs(&attrs)
                                    .Inputs({&x_fact, &w_fact, &b.tensor()})
                                    .Outputs({&y_fact})
                                    .Build();
    ASSERT_TRUE(kernel.Prepare(*tctx).ok());
    std::vector<std::unique_ptr<AlignedBuffer>> ws;
    std::vector<void*> ws_ptrs;
    for (size_t bytes : tctx->GetWorkspaceSizes()) {
      ws.push_back(std::make_unique<AlignedBuffer>(*AlignedBuffer::Allocate(bytes)));
      ws_ptrs.push_back(ws.back()->data());
    }
    gert::KernelRunContextBuilder kb;
    gert::KernelContext* kctx = kb.Node("conv", "Conv")
                                    .Attrs(&attrs)
                                    .Inputs({&x.tensor(), &w.tensor(), &b.tensor()})
                                    .Outputs({y.MutableTensor()})
                                    .Workspaces(ws_ptrs)
                                    .Build();
    ASSERT_TRUE(kernel.Run(*kctx).ok());  // warm
    int64_t counts[3] = {};
    for (int64_t& n : counts) {
      alloc_counter::AllocCountingScope scope;
      ASSERT_TRUE(kernel.Run(*kctx).ok());
      n = scope.count();
    }
    const int primitives = 1 + kernel.reorders_src() + kernel.reorders_dst();
    std::printf("%-24s %-28s %d primitives, %lld allocations per Run\n", c.name,
                kernel.impl_info().c_str(), primitives, static_cast<long long>(counts[0]));
    EXPECT_EQ(counts[1], counts[0]) << c.name;
    EXPECT_EQ(counts[2], counts[0]) << c.name;
    EXPECT_LE(counts[0], 10 * primitives) << c.name << " (" << kernel.impl_info() << ")";
  }
}

}  // namespace
}  // namespace compute
}  // namespace ops
