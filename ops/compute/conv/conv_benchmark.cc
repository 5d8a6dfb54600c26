// ops/compute/conv/conv_benchmark.cc
//
// Per-call time of resnet50 / mobilenet_v2 convolutions on one thread:
//   Kernel/<shape>/<dtype>/<layout>  the compute kernel (constant weights,
//                                    bias) with X / Y in NCHW or NC1HWC0;
//                                    the label is oneDNN's implementation
//                                    and the reorders Run does around it
//   Dnnl/<shape>/<dtype>/<tag>       oneDNN alone with X / Y in nchw,
//                                    nChw16c or nhwc and weights `any`
//   Reorder/<shape>/<dtype>/<tag>    X from nchw to that layout (what a
//                                    kernel pays per call to change layout)
// GFLOP/s counts 2 * N * M * out * (C / group) * k multiply-adds.
//   bazel run -c opt //ops/compute/conv:conv_benchmark
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "benchmark/benchmark.h"
#include "dnnl.hpp"
#include "graph/inc/graph/attr_value.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "ops/compute/common/compute_kernel_tester.h"
#include "ops/compute/common/dnnl_common.h"
#include "ops/compute/conv/conv_kernel.h"

namespace ops {
namespace compute {
namespace {

using dnnl::memory;
using tag = memory::format_tag;

struct ConvShape {
  const char* name;
  int64_t n, c, h, w, m, k, s, p, g;
  int64_t oh() const { return (h + 2 * p - k) / s + 1; }
  int64_t ow() const { return (w + 2 * p - k) / s + 1; }
  double flops() const { return 2.0 * n * m * oh() * ow() * (c / g) * k * k; }
};

const ConvShape kShapes[] = {
    {"r50_3x3_64", 1, 64, 56, 56, 64, 3, 1, 1, 1},
    {"r50_1x1_256to64", 1, 256, 56, 56, 64, 1, 1, 0, 1},
    {"r50_1x1_64to256", 1, 64, 56, 56, 256, 1, 1, 0, 1},
    {"r50_3x3_s2_128", 1, 128, 56, 56, 128, 3, 2, 1, 1},
    {"r50_stem_7x7_s2", 1, 3, 224, 224, 64, 7, 2, 3, 1},
    {"mbv2_dw_144", 1, 144, 56, 56, 144, 3, 1, 1, 144},
};

const char* DtName(ge::DataType dt) { return dt == ge::DT_BF16 ? "bf16" : "f32"; }

void BM_Kernel(benchmark::State& state, ConvShape s, ge::DataType dt, ge::Format format) {
  SetIntraOpThreads(1);
  gert::HostTensor x = testing::RandomTensor(dt, {s.n, s.c, s.h, s.w}, 1);
  x.tensor().SetFormat(format);
  gert::HostTensor w = testing::RandomTensor(dt, {s.m, s.c / s.g, s.k, s.k}, 2);
  gert::HostTensor b = testing::RandomTensor(dt, {s.m}, 3);
  gert::HostTensor y = *gert::HostTensor::Create(dt, gert::Shape{s.n, s.m, s.oh(), s.ow()}, format);
  ge::NamedAttrs attrs;
  (void)attrs.SetAttr("strides", ge::AttrValue::CreateFrom(std::vector<int64_t>{s.s, s.s}));
  (void)attrs.SetAttr("pads", ge::AttrValue::CreateFrom(std::vector<int64_t>{s.p, s.p, s.p, s.p}));
  (void)attrs.SetAttr("group", ge::AttrValue::CreateFrom<int64_t>(s.g));
  DnnlConv kernel;
  gert::Tensor x_fact = x.tensor(), y_fact = y.tensor();
  x_fact.SetData(nullptr, 0);
  y_fact.SetData(nullptr, 0);
  gert::TilingContextBuilder tb;
  gert::TilingContext* tctx = tb.Node("conv", "Conv")
                                  .Attrs(&attrs)
                                  .Inputs({&x_fact, &w.tensor(), &b.tensor()})
                                  .Outputs({&y_fact})
                                  .Build();
  const ge::Status st = kernel.Prepare(*tctx);
  if (!st.ok()) {
    state.SkipWithError(std::string(st.message()).c_str());
    return;
  }
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
  for (auto _ : state) {
    const ge::Status r = kernel.Run(*kctx);
    if (!r.ok()) {
      state.SkipWithError(std::string(r.message()).c_str());
      return;
    }
  }
  state.SetLabel(kernel.impl_info() + (kernel.reorders_src() ? " +reorder X" : "") +
                 (kernel.reorders_dst() ? " +reorder Y" : ""));
  state.counters["GFLOP/s"] =
      benchmark::Counter(s.flops() / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Dnnl(benchmark::State& state, ConvShape s, ge::DataType dt, tag act) {
  SetIntraOpThreads(1);
  const memory::data_type t = dt == ge::DT_BF16 ? memory::data_type::bf16 : memory::data_type::f32;
  const memory::desc src({s.n, s.c, s.h, s.w}, t, act), dst({s.n, s.m, s.oh(), s.ow()}, t, act);
  const memory::dims wd = s.g == 1 ? memory::dims{s.m, s.c, s.k, s.k}
                                   : memory::dims{s.g, s.m / s.g, s.c / s.g, s.k, s.k};
  const memory::desc wei(wd, t, tag::any), bias({s.m}, t, tag::a);
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  dnnl::convolution_forward::primitive_desc pd;
  const ge::Status st = DnnlCall("benchmark conv", [&] {
    dnnl::convolution_forward::desc d(dnnl::prop_kind::forward_inference,
                                      dnnl::algorithm::convolution_direct, src, wei, bias, dst,
                                      {s.s, s.s}, {s.p, s.p}, {s.p, s.p});
    pd = dnnl::convolution_forward::primitive_desc(d, attr, CpuEngine());
  });
  if (!st.ok()) {
    state.SkipWithError(std::string(st.message()).c_str());
    return;
  }
  dnnl::engine& e = CpuEngine();
  dnnl::memory sm(pd.src_desc(), e), wm(pd.weights_desc(), e), bm(bias, e), dm(pd.dst_desc(), e),
      sp(pd.scratchpad_desc(), e);
  std::memset(sm.get_data_handle(), 0, pd.src_desc().get_size());
  std::memset(wm.get_data_handle(), 0, pd.weights_desc().get_size());
  std::memset(bm.get_data_handle(), 0, bias.get_size());
  dnnl::convolution_forward prim(pd);
  const std::unordered_map<int, dnnl::memory> args = {{DNNL_ARG_SRC, sm},
                                                      {DNNL_ARG_WEIGHTS, wm},
                                                      {DNNL_ARG_BIAS, bm},
                                                      {DNNL_ARG_DST, dm},
                                                      {DNNL_ARG_SCRATCHPAD, sp}};
  for (auto _ : state) {
    prim.execute(CpuStream(), args);
    CpuStream().wait();
  }
  state.SetLabel(pd.impl_info_str());
  state.counters["GFLOP/s"] =
      benchmark::Counter(s.flops() / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Reorder(benchmark::State& state, ConvShape s, ge::DataType dt, tag to) {
  SetIntraOpThreads(1);
  const memory::data_type t = dt == ge::DT_BF16 ? memory::data_type::bf16 : memory::data_type::f32;
  const memory::desc from({s.n, s.c, s.h, s.w}, t, tag::nchw), dst({s.n, s.c, s.h, s.w}, t, to);
  dnnl::memory a(from, CpuEngine()), b(dst, CpuEngine());
  std::memset(a.get_data_handle(), 0, from.get_size());
  dnnl::reorder r(a, b);
  for (auto _ : state) {
    r.execute(CpuStream(), a, b);
    CpuStream().wait();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(from.get_size()));
}

int RegisterAll() {
  for (const ConvShape& s : kShapes) {
    for (ge::DataType dt : {ge::DT_FLOAT, ge::DT_BF16}) {
      const std::string base = std::string(s.name) + "/" + DtName(dt);
      for (ge::Format f : {ge::FORMAT_NCHW, ge::FORMAT_NC1HWC0}) {
        if (f == ge::FORMAT_NC1HWC0 && (s.c % 16 != 0 || s.m % 16 != 0)) continue;
        benchmark::RegisterBenchmark(
            ("Kernel/" + base + (f == ge::FORMAT_NCHW ? "/NCHW" : "/NC1HWC0")).c_str(), BM_Kernel,
            s, dt, f)
            ->Unit(benchmark::kMicrosecond);
      }
      const std::pair<const char*, tag> tags[] = {
          {"nchw", tag::nchw}, {"nChw16c", tag::nChw16c}, {"nhwc", tag::nhwc}};
      for (const auto& [name, t] : tags) {
        // nChw16c pads 3 channels to 16: oneDNN has only its reference there.
        if (t == tag::nChw16c && s.c % 16 != 0) continue;
        benchmark::RegisterBenchmark(("Dnnl/" + base + "/" + name).c_str(), BM_Dnnl, s, dt, t)
            ->Unit(benchmark::kMicrosecond);
      }
      for (const auto& [name, t] : tags) {
        if (t == tag::nchw) continue;
        benchmark::RegisterBenchmark(("Reorder/" + base + "/" + name).c_str(), BM_Reorder, s, dt, t)
            ->Unit(benchmark::kMicrosecond);
      }
    }
  }
  return 0;
}

[[maybe_unused]] const int kRegistered = RegisterAll();

}  // namespace
}  // namespace compute
}  // namespace ops
