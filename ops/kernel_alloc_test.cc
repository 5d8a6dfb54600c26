// ops/kernel_alloc_test.cc
//
// Host kernels used by static models allocate nothing per call: each kernel
// runs through a prepared KernelContext whose outputs already have their
// shape and memory (as the static executor prepares them), is warmed up
// once, and then runs with global operator new counted
// (//metadef/register:alloc_counter). The results are checked against
// naive references so that an allocation-free but wrong kernel fails too.
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "metadef/register/testing/alloc_counter.h"
#include "ops/common/op_test_harness.h"

namespace ops {
namespace {

using op_test::Attrs;

// A float tensor with values f(i).
template <typename F>
gert::HostTensor Pattern(const gert::Shape& s, F f) {
  gert::HostTensor t = *gert::HostTensor::Create(ge::DT_FLOAT, s);
  float* p = t.MutableData<float>();
  for (int64_t i = 0; i < s.GetShapeSize(); ++i) p[i] = f(i);
  return t;
}
gert::HostTensor Pattern(const gert::Shape& s) {
  return Pattern(s, [](int64_t i) { return static_cast<float>((i * 7) % 11) * 0.25f - 1.0f; });
}

struct AllocRun {
  ge::Status status;
  int64_t allocations = -1;
};

// Runs `type`'s host kernel `iters` times with counting on, after one
// warm-up call; `outs` must have their final shapes and memory.
AllocRun CountKernel(const std::string& type, const Attrs& attrs,
                     const std::vector<const gert::HostTensor*>& ins,
                     const std::vector<gert::HostTensor*>& outs, int iters = 3) {
  AllocRun r;
  const ge::OpRegistrationData* reg = ge::OpRegistry::Instance().Find(type);
  if (reg == nullptr || reg->FindKernel(ge::kEngineHostCpu) == nullptr) {
    r.status = ge::NotFound(type, " has no host kernel");
    return r;
  }
  const ge::OpKernelDef* kernel = reg->FindKernel(ge::kEngineHostCpu);
  std::vector<const gert::Tensor*> in_ptrs;
  for (const gert::HostTensor* t : ins) in_ptrs.push_back(t == nullptr ? nullptr : &t->tensor());
  std::vector<gert::Tensor*> out_ptrs;
  for (gert::HostTensor* t : outs) out_ptrs.push_back(t->MutableTensor());
  gert::KernelRunContextBuilder b;
  gert::KernelContext* ctx =
      b.Node("n_" + type, type).Attrs(attrs.get()).Inputs(in_ptrs).Outputs(out_ptrs).Build();
  r.status = kernel->fn(*ctx);  // warm-up: first-use scratch may allocate
  if (!r.status.ok()) return r;
  alloc_counter::AllocCountingScope scope;
  for (int i = 0; i < iters && r.status.ok(); ++i) r.status = kernel->fn(*ctx);
  r.allocations = scope.count();
  return r;
}

gert::HostTensor Out(const gert::Shape& s) { return *gert::HostTensor::Create(ge::DT_FLOAT, s); }

// Naive numpy-style broadcast index of flat output index o into input `in`.
int64_t BroadcastOffset(const gert::Shape& in, const gert::Shape& out, int64_t o) {
  int64_t off = 0, stride = 1;
  const size_t r = in.GetDimNum(), ro = out.GetDimNum();
  for (size_t j = 0; j < ro; ++j) {
    const int64_t od = out.GetDim(ro - 1 - j);
    const int64_t c = o % od;
    o /= od;
    if (j < r) {
      const int64_t d = in.GetDim(r - 1 - j);
      if (d != 1) off += c * stride;
      stride *= d;
    }
  }
  return off;
}

TEST(KernelAllocTest, CountingWorks) {
  alloc_counter::AllocCountingScope scope;
  std::vector<int>* v = new std::vector<int>(3);
  delete v;
  EXPECT_GE(scope.count(), 2);
}

TEST(KernelAllocTest, BinaryBroadcastAllocatesNothing) {
  struct Case {
    std::string op;
    gert::Shape a, b, y;
  };
  const std::vector<Case> cases = {
      {"Add", {2, 3, 4}, {3, 1}, {2, 3, 4}},                                   // broadcast path
      {"Sub", {2, 3, 4}, {2, 3, 4}, {2, 3, 4}},                                // same shapes
      {"Mul", {4, 5}, {}, {4, 5}},                                             // scalar
      {"Add", {2, 1, 3, 1, 2, 1, 2}, {3, 4, 1, 3, 2}, {2, 1, 3, 4, 2, 3, 2}},  // rank 7
      {"Mul", {1, 6}, {5, 1}, {5, 6}},                                         // outer product
  };
  for (const Case& c : cases) {
    gert::HostTensor a = Pattern(c.a);
    gert::HostTensor b = Pattern(c.b, [](int64_t i) { return 0.5f + static_cast<float>(i); });
    gert::HostTensor y = Out(c.y);
    AllocRun r = CountKernel(c.op, Attrs(), {&a, &b}, {&y});
    ASSERT_TRUE(r.status.ok()) << c.op << ": " << r.status;
    EXPECT_EQ(r.allocations, 0) << c.op << " " << c.a.ToString() << " x " << c.b.ToString();
    for (int64_t o = 0; o < c.y.GetShapeSize(); ++o) {
      const float av = a.tensor().GetData<float>()[BroadcastOffset(c.a, c.y, o)];
      const float bv = b.tensor().GetData<float>()[BroadcastOffset(c.b, c.y, o)];
      const float want = c.op == "Add" ? av + bv : c.op == "Sub" ? av - bv : av * bv;
      ASSERT_FLOAT_EQ(y.tensor().GetData<float>()[o], want) << c.op << " at " << o;
    }
  }
}

// Naive batched matmul over broadcast batch dims (both operands rank >= 2).
std::vector<float> NaiveMatMul(const gert::HostTensor& a, const gert::HostTensor& b,
                               const gert::Shape& y) {
  const gert::Shape& as = a.GetShape();
  const gert::Shape& bs = b.GetShape();
  const int64_t m = as.GetDim(as.GetDimNum() - 2), k = as.GetDim(as.GetDimNum() - 1);
  const int64_t n = bs.GetDim(bs.GetDimNum() - 1);
  gert::Shape ab, bb, yb;
  for (size_t i = 0; i + 2 < as.GetDimNum(); ++i) ab.AppendDim(as.GetDim(i));
  for (size_t i = 0; i + 2 < bs.GetDimNum(); ++i) bb.AppendDim(bs.GetDim(i));
  for (size_t i = 0; i + 2 < y.GetDimNum(); ++i) yb.AppendDim(y.GetDim(i));
  std::vector<float> out(static_cast<size_t>(y.GetShapeSize()));
  for (int64_t t = 0; t < yb.GetShapeSize(); ++t) {
    const float* pa = a.tensor().GetData<float>() + BroadcastOffset(ab, yb, t) * m * k;
    const float* pb = b.tensor().GetData<float>() + BroadcastOffset(bb, yb, t) * k * n;
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p) s += double{pa[i * k + p]} * pb[p * n + j];
        out[static_cast<size_t>((t * m + i) * n + j)] = static_cast<float>(s);
      }
    }
  }
  return out;
}

TEST(KernelAllocTest, MatMulAllocatesNothing) {
  struct Case {
    gert::Shape a, b, y;
  };
  const std::vector<Case> cases = {
      {{2, 3, 4}, {4, 5}, {2, 3, 5}},             // shared B: one GEMM
      {{2, 1, 3, 4}, {3, 4, 5}, {2, 3, 3, 5}},    // broadcast batches
      {{64, 96}, {96, 80}, {64, 80}},             // the packed (blocked) GEMM
      {{3, 40, 300}, {3, 300, 50}, {3, 40, 50}},  // packed, several K blocks
  };
  for (const Case& c : cases) {
    gert::HostTensor a = Pattern(c.a);
    gert::HostTensor b = Pattern(c.b, [](int64_t i) { return static_cast<float>(i % 5) - 2.0f; });
    gert::HostTensor y = Out(c.y);
    AllocRun r = CountKernel("MatMul", Attrs(), {&a, &b}, {&y});
    ASSERT_TRUE(r.status.ok()) << r.status;
    EXPECT_EQ(r.allocations, 0) << c.a.ToString() << " x " << c.b.ToString();
    const std::vector<float> want = NaiveMatMul(a, b, c.y);
    for (size_t i = 0; i < want.size(); ++i) {
      ASSERT_NEAR(y.tensor().GetData<float>()[i], want[i], 1e-3f * (1.0f + std::fabs(want[i])))
          << c.a.ToString() << " x " << c.b.ToString() << " at " << i;
    }
  }
}

TEST(KernelAllocTest, ConvAllocatesNothing) {
  // 3x3 kernel, pads 1: im2col + packed GEMM (8 x 256 x 27 is past the small path).
  const int64_t c = 3, h = 16, w = 16, m = 8;
  gert::HostTensor x = Pattern(gert::Shape{1, c, h, w});
  gert::HostTensor wt = Pattern(gert::Shape{m, c, 3, 3},
                                [](int64_t i) { return static_cast<float>(i % 7) * 0.1f - 0.3f; });
  gert::HostTensor bias = Pattern(gert::Shape{m}, [](int64_t i) { return static_cast<float>(i); });
  gert::HostTensor y = Out(gert::Shape{1, m, h, w});
  Attrs attrs;
  attrs.Set<std::vector<int64_t>>("kernel_shape", {3, 3});
  attrs.Set<std::vector<int64_t>>("pads", {1, 1, 1, 1});
  attrs.Set<std::vector<int64_t>>("strides", {1, 1});
  AllocRun r = CountKernel("Conv", attrs, {&x, &wt, &bias}, {&y});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.allocations, 0);
  const float* xs = x.tensor().GetData<float>();
  const float* ws = wt.tensor().GetData<float>();
  for (int64_t oc = 0; oc < m; ++oc) {
    for (int64_t i = 0; i < h; ++i) {
      for (int64_t j = 0; j < w; ++j) {
        double s = oc;  // bias
        for (int64_t ic = 0; ic < c; ++ic) {
          for (int64_t ki = 0; ki < 3; ++ki) {
            for (int64_t kj = 0; kj < 3; ++kj) {
              const int64_t yi = i + ki - 1, xj = j + kj - 1;
              if (yi < 0 || yi >= h || xj < 0 || xj >= w) continue;
              s += double{xs[(ic * h + yi) * w + xj]} * ws[((oc * c + ic) * 3 + ki) * 3 + kj];
            }
          }
        }
        ASSERT_NEAR(y.tensor().GetData<float>()[(oc * h + i) * w + j], s, 1e-4)
            << oc << "," << i << "," << j;
      }
    }
  }
}

TEST(KernelAllocTest, PoolsAllocateNothing) {
  gert::HostTensor x = Pattern(gert::Shape{1, 2, 6, 6});
  Attrs attrs;
  attrs.Set<std::vector<int64_t>>("kernel_shape", {2, 2});
  attrs.Set<std::vector<int64_t>>("strides", {2, 2});
  for (const char* op : {"MaxPool", "AveragePool"}) {
    gert::HostTensor y = Out(gert::Shape{1, 2, 3, 3});
    AllocRun r = CountKernel(op, attrs, {&x}, {&y});
    ASSERT_TRUE(r.status.ok()) << op << ": " << r.status;
    EXPECT_EQ(r.allocations, 0) << op;
    const float* xs = x.tensor().GetData<float>();
    for (int64_t p = 0; p < 2; ++p) {
      for (int64_t i = 0; i < 3; ++i) {
        for (int64_t j = 0; j < 3; ++j) {
          float mx = -1e30f, sum = 0;
          for (int64_t di = 0; di < 2; ++di) {
            for (int64_t dj = 0; dj < 2; ++dj) {
              const float v = xs[(p * 6 + 2 * i + di) * 6 + 2 * j + dj];
              mx = std::max(mx, v);
              sum += v;
            }
          }
          const float want = std::string(op) == "MaxPool" ? mx : sum / 4;
          ASSERT_FLOAT_EQ(y.tensor().GetData<float>()[(p * 3 + i) * 3 + j], want)
              << op << " " << p << "," << i << "," << j;
        }
      }
    }
  }
}

TEST(KernelAllocTest, SoftmaxAllocatesNothing) {
  // axis 1 of [2, 5, 3]: inner 3 (strided rows); axis -1: inner 1.
  for (int64_t axis : {int64_t{1}, int64_t{-1}}) {
    gert::HostTensor x = Pattern(gert::Shape{2, 5, 3});
    gert::HostTensor y = Out(gert::Shape{2, 5, 3});
    Attrs attrs;
    attrs.Set<int64_t>("axis", axis);
    AllocRun r = CountKernel("Softmax", attrs, {&x}, {&y});
    ASSERT_TRUE(r.status.ok()) << r.status;
    EXPECT_EQ(r.allocations, 0) << "axis " << axis;
    const float* xs = x.tensor().GetData<float>();
    const float* ys = y.tensor().GetData<float>();
    const int64_t n = axis == 1 ? 5 : 3, inner = axis == 1 ? 3 : 1, outer = axis == 1 ? 2 : 10;
    for (int64_t o = 0; o < outer; ++o) {
      for (int64_t i = 0; i < inner; ++i) {
        double z = 0;
        for (int64_t j = 0; j < n; ++j) z += std::exp(double{xs[(o * n + j) * inner + i]});
        for (int64_t j = 0; j < n; ++j) {
          const int64_t at = (o * n + j) * inner + i;
          ASSERT_NEAR(ys[at], std::exp(double{xs[at]}) / z, 1e-6)
              << "axis " << axis << " at " << at;
        }
      }
    }
  }
}

TEST(KernelAllocTest, AlreadyAllocationFreeKernelsStaySo) {
  gert::HostTensor x = Pattern(gert::Shape{2, 8});
  gert::HostTensor y = Out(gert::Shape{2, 8});
  AllocRun r = CountKernel("Relu", Attrs(), {&x}, {&y});
  ASSERT_TRUE(r.status.ok()) << r.status;
  EXPECT_EQ(r.allocations, 0);
  for (int64_t i = 0; i < 16; ++i) {
    EXPECT_EQ(y.tensor().GetData<float>()[i], std::max(0.0f, x.tensor().GetData<float>()[i]));
  }
}

}  // namespace
}  // namespace ops
