// metadef/register/src/run_path_alloc_test.cc
//
// The run path allocates nothing: looking an op up in the registry, calling
// its kernel through a prepared KernelContext (attributes, inputs, outputs,
// AllocateOutput through the executor's allocator) and its infer function
// through a prepared InferShapeContext. Global operator new / delete are
// replaced by //metadef/register:alloc_counter to count allocations inside
// a window.
#include <cstdint>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "metadef/register/testing/alloc_counter.h"

namespace ge {
namespace {

using CountingScope = ::alloc_counter::AllocCountingScope;

// A data-dependent-output kernel: y = x * scale for x > threshold, compacted;
// the output shape is known only inside the kernel (AllocateOutput).
Status CompactScaleKernel(gert::KernelContext& ctx) {
  ASSIGN_OR_RETURN(const int64_t threshold, ctx.GetInt("threshold"));
  ASSIGN_OR_RETURN(const float scale, ctx.GetFloatOr("scale", 1.0f));
  ASSIGN_OR_RETURN(const bool negate, ctx.GetBool("negate"));
  ASSIGN_OR_RETURN(absl::Span<const int64_t> pads, ctx.GetListIntView("pads"));
  const gert::Tensor* x = ctx.GetInputTensor(0);
  if (x == nullptr) return ctx.Error("input 0 missing");
  const float* xs = x->GetData<float>();
  int64_t n = 0;
  for (int64_t i = 0; i < x->GetShapeSize(); ++i) n += xs[i] > static_cast<float>(threshold);
  ASSIGN_OR_RETURN(gert::Tensor * y,
                   ctx.AllocateOutput(0, gert::Shape{n + static_cast<int64_t>(pads.size())},
                                      DT_FLOAT));
  float* ys = y->GetData<float>();
  int64_t j = 0;
  for (int64_t i = 0; i < x->GetShapeSize(); ++i) {
    if (xs[i] > static_cast<float>(threshold)) ys[j++] = (negate ? -xs[i] : xs[i]) * scale;
  }
  for (int64_t p : pads) ys[j++] = static_cast<float>(p);
  return OkStatus();
}

Status InferCompactScale(gert::InferShapeContext& ctx) {
  const gert::Shape* x = ctx.GetInputShape(0);
  if (x == nullptr) return ctx.Error("input 0 missing");
  ASSIGN_OR_RETURN(const int64_t threshold, ctx.GetInt("threshold"));
  gert::Shape* y = ctx.GetOutputShape(0);
  y->SetDimNum(0);
  y->AppendDim(threshold < 0 ? x->GetShapeSize() : -1);
  ctx.SetOutputDataType(0, ctx.GetInputDataType(0));
  return OkStatus();
}

REG_OP(AllocTestCompactScale)
    .Input("x", TensorType{DT_FLOAT})
    .Output("y", TensorType{DT_FLOAT})
    .RequiredAttr("threshold", AttrValue::VT_INT)
    .Attr("scale", AttrValue::CreateFrom<float>(1.0f))
    .Attr("negate", AttrValue::CreateFrom<bool>(false))
    .Attr("pads", AttrValue::CreateFrom<std::vector<int64_t>>({}))
    .InferShape(InferCompactScale);
REG_KERNEL(AllocTestCompactScale, kEngineHostCpu).Fn(CompactScaleKernel);

// An executor-style allocator over a preallocated pool.
class PoolAllocator : public gert::OutputAllocator {
 public:
  explicit PoolAllocator(int64_t bytes)
      : pool_(*gert::HostTensor::Create(DT_UINT8, gert::Shape{bytes})) {}
  Status Allocate(size_t, gert::Tensor* t) override {
    ASSIGN_OR_RETURN(size_t need, gert::HostStorageBytes(t->GetDataType(), t->GetShapeSize()));
    if (need > pool_.tensor().GetSize()) return ge::MemoryAllocFailed("pool too small");
    t->SetData(pool_.tensor().GetAddr(), need);
    return OkStatus();
  }

 private:
  gert::HostTensor pool_;
};

TEST(RunPathAllocTest, CountingWorks) {
  CountingScope scope;
  std::vector<int>* v = new std::vector<int>(3);
  delete v;
  EXPECT_GE(scope.count(), 2);
}

TEST(RunPathAllocTest, KernelAndInferAllocateNothing) {
  // ---- prepare (allocations allowed)
  OpRegistry& registry = OpRegistry::Instance();
  StatusOr<OpDescPtr> op = OperatorFactory::CreateOpDesc("cs", "AllocTestCompactScale");
  ASSERT_TRUE(op.ok()) << op.status();
  ASSERT_TRUE((*op)->SetAttr("threshold", AttrValue::CreateFrom<int64_t>(1)).ok());
  ASSERT_TRUE((*op)->SetAttr("scale", AttrValue::CreateFrom<float>(2.0f)).ok());
  ASSERT_TRUE((*op)->SetAttr("pads", AttrValue::CreateFrom<std::vector<int64_t>>({7, 8})).ok());

  gert::HostTensor x = *gert::HostTensor::Create(DT_FLOAT, gert::Shape{6});
  const float xs[6] = {0, 3, 1, 5, -2, 4};
  for (int i = 0; i < 6; ++i) x.MutableData<float>()[i] = xs[i];
  gert::Tensor y;
  PoolAllocator pool(1024);
  gert::KernelRunContextBuilder kb;
  gert::KernelContext* kctx = kb.Node("cs", "AllocTestCompactScale")
                                  .Attrs(op->get())
                                  .Inputs({&x.tensor()})
                                  .Outputs({&y})
                                  .Allocator(&pool)
                                  .Build();
  gert::InferShapeContextBuilder ib;
  gert::InferShapeContext* ictx = ib.Node("cs", "AllocTestCompactScale")
                                      .Attrs(op->get())
                                      .Input(gert::Shape{2, 3}, DT_FLOAT)
                                      .Outputs(1)
                                      .Build();
  // Warm up once outside the window (first-use statics).
  ASSERT_TRUE(registry.Find("AllocTestCompactScale") != nullptr);

  // ---- run (no allocation allowed)
  int64_t allocations = 0;
  Status kernel_status, infer_status;
  const OpKernelDef* kernel = nullptr;
  const OpRegistrationData* reg = nullptr;
  {
    CountingScope scope;
    for (int iter = 0; iter < 100; ++iter) {
      reg = OpRegistry::Instance().Find("AllocTestCompactScale");
      if (reg == nullptr) break;
      kernel = reg->FindKernel(kEngineHostCpu);
      if (kernel == nullptr) break;
      kernel_status = kernel->fn(*kctx);
      if (!kernel_status.ok()) break;
      infer_status = reg->infer_shape(*ictx);
      if (!infer_status.ok()) break;
    }
    allocations = scope.count();
  }
  ASSERT_NE(reg, nullptr);
  ASSERT_NE(kernel, nullptr);
  ASSERT_TRUE(kernel_status.ok()) << kernel_status;
  ASSERT_TRUE(infer_status.ok()) << infer_status;
  EXPECT_EQ(allocations, 0);

  // The calls did their work.
  ASSERT_EQ(y.GetShape(), (gert::Shape{5}));
  const float expect[5] = {6, 10, 8, 7, 8};
  for (int i = 0; i < 5; ++i) EXPECT_EQ(y.GetData<float>()[i], expect[i]) << i;
  EXPECT_EQ(ib.OutputShape(0), (gert::Shape{-1}));
  EXPECT_EQ(ib.OutputDataType(0), DT_FLOAT);
}

}  // namespace
}  // namespace ge
