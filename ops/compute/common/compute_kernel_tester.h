// ops/compute/common/compute_kernel_tester.h (testonly)
//
// Checks a compute-engine kernel against the host-CPU kernel of the same op
// (the reference), the way the executor runs both: the node's OpDesc is made
// by the op factory with the test's attributes and input descs and inferred
// (verify / infer data type / infer shape); the compute kernel's
// declaration must accept it (CheckSupported); then the host kernel runs on
// the inputs, and the compute kernel is created, prepared once (constant
// inputs' values given at Prepare, the others' not) with the workspaces it
// asks for, and run, at each thread count asked. Outputs are compared
// elementwise: |got - want| <= atol + rtol * |want|.
//
// Example
//   ComputeKernelTester t("Relu");
//   t.Input(RandomTensor(ge::DT_FLOAT, {2, 16, 8, 8}, 1));
//   EXPECT_TRUE(t.MatchesReference(1e-6, 1e-6, {1, 2}));
#ifndef OPS_COMPUTE_COMMON_COMPUTE_KERNEL_TESTER_H_
#define OPS_COMPUTE_COMMON_COMPUTE_KERNEL_TESTER_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/tensor_values.h"
#include "ops/compute/common/bf16_emulation.h"
#include "ops/compute/common/dnnl_common.h"

namespace ops {
namespace compute {
namespace testing {

// Uniform values in [lo, hi) (BF16 / FLOAT16 rounded from float).
inline gert::HostTensor RandomTensor(ge::DataType dt, std::vector<int64_t> dims, uint32_t seed,
                                     double lo = -1.0, double hi = 1.0) {
  gert::Shape shape = *gert::Shape::FromDims(dims);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(static_cast<size_t>(shape.GetShapeSize()));
  for (double& x : v) x = u(rng);
  ge::StatusOr<gert::HostTensor> t = MakeHostTensorFromDoubles(dt, shape, v);
  EXPECT_TRUE(t.ok()) << t.status();
  return std::move(*t);
}

class ComputeKernelTester {
 public:
  explicit ComputeKernelTester(std::string type, std::string engine = ge::kEngineAiCore)
      : type_(std::move(type)), engine_(std::move(engine)) {}

  template <typename T>
  ComputeKernelTester& Attr(const std::string& name, T v) {
    attrs_.emplace_back(name, ge::AttrValue::CreateFrom<T>(std::move(v)));
    return *this;
  }
  // A constant input (weights): its value is given to Prepare.
  ComputeKernelTester& Const(gert::HostTensor t) { return Add(std::move(t), true); }
  ComputeKernelTester& Input(gert::HostTensor t) { return Add(std::move(t), false); }
  ComputeKernelTester& Absent() {
    inputs_.emplace_back();
    constant_.push_back(false);
    absent_.push_back(true);
    return *this;
  }
  // Dynamic input / output instance counts for the op factory.
  ComputeKernelTester& Dynamic(const std::string& ir_name, uint32_t count) {
    dynamic_[ir_name] = count;
    return *this;
  }
  // The format of input i's desc (default ND).
  ComputeKernelTester& InputFormat(size_t i, ge::Format f) {
    in_formats_[i] = f;
    return *this;
  }
  // Runs the compute kernel channels-last, as the format pass leaves conv
  // chains: every non-constant float input and every output of rank 4 / 5
  // gets NHWC / NDHWC descs and channels-last memory (dims stay logical);
  // outputs are converted back before the comparison with the reference.
  ComputeKernelTester& ChannelsLast(bool on = true) {
    channels_last_ = on;
    return *this;
  }

  // Runs BF16 nodes through the FLOAT decorator (bf16_emulation.h) on
  // every CPU; by default the kernel is made as the compute engine makes it.
  ComputeKernelTester& ForceBf16Emulation(bool on = true) {
    force_emulation_ = on;
    return *this;
  }

  // Whether the last compute run went through the BF16 decorator.
  bool last_run_emulated() const { return emulated_; }

  // The inferred node, its CheckSupported verdict, both runs and the
  // comparison, at each of `threads`.
  ::testing::AssertionResult MatchesReference(double rtol, double atol,
                                              std::vector<int> threads = {1}) {
    ge::Status st = Build();
    if (!st.ok()) return ::testing::AssertionFailure() << "build: " << st;
    st = def_->CheckSupported(*op_);
    if (!st.ok()) return ::testing::AssertionFailure() << "CheckSupported: " << st;
    std::vector<gert::HostTensor> want;
    st = RunHost(&want);
    if (!st.ok()) return ::testing::AssertionFailure() << "host kernel: " << st;
    for (int n : threads) {
      SetIntraOpThreads(n);
      std::vector<gert::HostTensor> got;
      st = RunCompute(&got);
      if (!st.ok())
        return ::testing::AssertionFailure() << "compute kernel (" << n << " threads): " << st;
      for (size_t o = 0; o < want.size(); ++o) {
        ::testing::AssertionResult r = Compare(got[o], want[o], rtol, atol);
        if (!r) return r << " (output " << o << ", " << n << " threads)";
      }
    }
    SetIntraOpThreads(1);
    return ::testing::AssertionSuccess();
  }

  // The node's CheckSupported verdict (after Build).
  ge::Status Supported() {
    RETURN_IF_ERROR(Build());
    return def_->CheckSupported(*op_);
  }
  // Prepare's verdict alone (after Build; `Supported` need not hold).
  ge::Status PrepareOnly() {
    RETURN_IF_ERROR(Build());
    std::vector<gert::HostTensor> got;
    return RunCompute(&got);
  }
  const ge::OpDesc* op() const { return op_.get(); }
  const std::vector<size_t>& workspace_sizes() const { return ws_sizes_; }

 private:
  ComputeKernelTester& Add(gert::HostTensor t, bool constant) {
    inputs_.push_back(std::move(t));
    constant_.push_back(constant);
    absent_.push_back(false);
    return *this;
  }

  ge::Status Build() {
    if (op_ != nullptr) return ge::OkStatus();
    def_ = ge::FindKernel(type_, engine_);
    if (def_ == nullptr) return ge::NotFound(ge::DescribeMissingKernel(type_, engine_));
    ASSIGN_OR_RETURN(op_, ge::OperatorFactory::CreateOpDesc("node_" + type_, type_, dynamic_));
    for (auto& [name, v] : attrs_) RETURN_IF_ERROR(op_->SetAttr(name, v));
    std::vector<const gert::Tensor*> values;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      ge::GeTensorDescPtr d = op_->MutableInputDesc(static_cast<uint32_t>(i));
      if (d == nullptr) return ge::ParamInvalid("input ", i, " has no desc");
      if (absent_[i]) {
        values.push_back(nullptr);
        continue;
      }
      const gert::Tensor& t = inputs_[i].tensor();
      ge::Format f = in_formats_.count(i) ? in_formats_[i] : ge::FORMAT_ND;
      if (channels_last_ && !constant_[i]) f = LastFormat(t, f);
      *d = ge::GeTensorDesc(ge::GeShape(t.GetShape().ToVector()), f, t.GetDataType());
      d->SetOriginShape(ge::GeShape(t.GetShape().ToVector()));
      d->SetOriginFormat(f);
      values.push_back(constant_[i] ? &t : nullptr);
    }
    RETURN_IF_ERROR(ge::InferShapeAndTypeForOpDesc(*op_, values));
    if (channels_last_) {
      for (uint32_t o = 0; o < op_->GetAllOutputsDescSize(); ++o) {
        ge::GeTensorDescPtr d = op_->MutableOutputDesc(o);
        if (d == nullptr || d->GetDataType() == ge::DT_UNDEFINED) continue;
        const size_t r = d->GetShape().GetDimNum();
        if (IsFloat(d->GetDataType()) && (r == 4 || r == 5)) {
          d->SetFormat(r == 4 ? ge::FORMAT_NHWC : ge::FORMAT_NDHWC);
        }
      }
    }
    ASSIGN_OR_RETURN(ir_, ge::MapInputSlotsToIr(*op_, *ge::OpRegistry::Instance().Find(type_),
                                                inputs_.size()));
    return ge::OkStatus();
  }

  static bool IsFloat(ge::DataType dt) {
    return dt == ge::DT_FLOAT || dt == ge::DT_BF16 || dt == ge::DT_FLOAT16;
  }
  static ge::Format LastFormat(const gert::Tensor& t, ge::Format otherwise) {
    const size_t r = t.GetShape().GetDimNum();
    if (!IsFloat(t.GetDataType()) || (r != 4 && r != 5)) return otherwise;
    return r == 4 ? ge::FORMAT_NHWC : ge::FORMAT_NDHWC;
  }
  // Channels-first <-> channels-last memory of logical dims [N, C, S...].
  static gert::HostTensor Permuted(const gert::Tensor& t, bool to_last, ge::Format format) {
    gert::HostTensor out = *gert::HostTensor::Create(t.GetDataType(), t.GetShape(), format);
    const size_t elem = *gert::HostStorageBytes(t.GetDataType(), 1);
    const int64_t n = t.GetShape().GetDim(0), c = t.GetShape().GetDim(1);
    int64_t s = 1;
    for (size_t i = 2; i < t.GetShape().GetDimNum(); ++i) s *= t.GetShape().GetDim(i);
    const uint8_t* src = static_cast<const uint8_t*>(t.GetAddr());
    uint8_t* dst = static_cast<uint8_t*>(out.MutableTensor()->GetAddr());
    for (int64_t b = 0; b < n; ++b) {
      for (int64_t ch = 0; ch < c; ++ch) {
        for (int64_t k = 0; k < s; ++k) {
          const int64_t first = (b * c + ch) * s + k, last = (b * s + k) * c + ch;
          std::memcpy(dst + (to_last ? last : first) * elem, src + (to_last ? first : last) * elem,
                      elem);
        }
      }
    }
    return out;
  }

  ge::Status MakeOutputs(std::vector<gert::HostTensor>* outs) {
    outs->clear();
    for (size_t o = 0; o < op_->GetOutputsSize(); ++o) {
      const ge::GeTensorDesc* d = op_->GetOutputDescBarePtr(static_cast<uint32_t>(o));
      ASSIGN_OR_RETURN(gert::Shape s, gert::Shape::FromDims(d->GetShape().GetDims()));
      ASSIGN_OR_RETURN(gert::HostTensor t, gert::HostTensor::Create(d->GetDataType(), s, d->GetFormat()));
      outs->push_back(std::move(t));
    }
    return ge::OkStatus();
  }

  std::vector<const gert::Tensor*> InputPtrs() const {
    std::vector<const gert::Tensor*> p;
    for (size_t i = 0; i < inputs_.size(); ++i)
      p.push_back(absent_[i] ? nullptr : &inputs_[i].tensor());
    return p;
  }

  ge::Status RunHost(std::vector<gert::HostTensor>* outs) {
    const ge::KernelDef* host = ge::FindKernel(type_, ge::kEngineHostCpu);
    if (host == nullptr) return ge::NotFound(ge::DescribeMissingKernel(type_, ge::kEngineHostCpu));
    RETURN_IF_ERROR(MakeOutputs(outs));
    std::vector<gert::Tensor*> out_ptrs;
    for (gert::HostTensor& t : *outs) out_ptrs.push_back(t.MutableTensor());
    gert::KernelRunContextBuilder b;
    b.Node(op_->GetName(), type_)
        .Attrs(op_.get())
        .Inputs(InputPtrs())
        .Outputs(out_ptrs)
        .IrInputs(ir_);
    return host->shared_kernel()->Run(*b.Build());
  }

  ge::Status RunCompute(std::vector<gert::HostTensor>* outs) {
    RETURN_IF_ERROR(MakeOutputs(outs));
    // The compute kernel's inputs: channels-last copies where the descs say so.
    std::vector<gert::HostTensor> last_inputs(inputs_.size());
    std::vector<const gert::Tensor*> run_inputs = InputPtrs();
    for (size_t i = 0; i < inputs_.size(); ++i) {
      if (absent_[i]) continue;
      const ge::GeTensorDesc* d = op_->GetInputDescBarePtr(static_cast<uint32_t>(i));
      const int32_t f = ge::GetPrimaryFormat(d->GetFormat());
      if (f == ge::FORMAT_NHWC || f == ge::FORMAT_NDHWC) {
        last_inputs[i] = Permuted(inputs_[i].tensor(), true, static_cast<ge::Format>(f));
        run_inputs[i] = &last_inputs[i].tensor();
      }
    }
    std::unique_ptr<ge::OpKernel> owned =
        force_emulation_ ? NewBf16Emulated(*def_, Bf16Emulation::kAlways) : NewComputeKernel(*def_);
    const ge::OpKernel* k = owned != nullptr ? owned.get() : def_->shared_kernel();
    // Prepare sees the static facts: non-constant inputs without data.
    std::vector<gert::Tensor> facts;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      gert::Tensor t = absent_[i] ? gert::Tensor() : *run_inputs[i];
      if (!absent_[i] && !constant_[i]) t.SetData(nullptr, 0);
      facts.push_back(t);
    }
    std::vector<const gert::Tensor*> fact_ptrs;
    for (size_t i = 0; i < facts.size(); ++i) fact_ptrs.push_back(absent_[i] ? nullptr : &facts[i]);
    std::vector<gert::Tensor> out_facts;
    for (gert::HostTensor& t : *outs) {
      out_facts.push_back(t.tensor());
      out_facts.back().SetData(nullptr, 0);
    }
    std::vector<const gert::Tensor*> out_fact_ptrs;
    for (gert::Tensor& t : out_facts) out_fact_ptrs.push_back(&t);
    gert::TilingContextBuilder tb;
    gert::TilingContext* tctx = tb.Node(op_->GetName(), type_)
                                    .Attrs(op_.get())
                                    .Inputs(fact_ptrs)
                                    .Outputs(out_fact_ptrs)
                                    .Build();
    if (owned != nullptr) RETURN_IF_ERROR(owned->Prepare(*tctx));
    emulated_ = owned != nullptr && IsBf16Emulating(*owned);
    ws_sizes_.assign(tctx->GetWorkspaceSizes().begin(), tctx->GetWorkspaceSizes().end());
    std::vector<std::unique_ptr<AlignedBuffer>> ws;
    std::vector<void*> ws_ptrs;
    for (size_t bytes : ws_sizes_) {
      ASSIGN_OR_RETURN(AlignedBuffer b, AlignedBuffer::Allocate(bytes));
      ws.push_back(std::make_unique<AlignedBuffer>(std::move(b)));
      ws_ptrs.push_back(ws.back()->data());
    }
    std::vector<gert::Tensor*> out_ptrs;
    for (gert::HostTensor& t : *outs) out_ptrs.push_back(t.MutableTensor());
    gert::KernelRunContextBuilder b;
    b.Node(op_->GetName(), type_)
        .Attrs(op_.get())
        .Inputs(run_inputs)
        .Outputs(out_ptrs)
        .IrInputs(ir_)
        .Workspaces(ws_ptrs);
    // Twice: a prepared kernel gives the same result on every run.
    RETURN_IF_ERROR(k->Run(*b.Build()));
    RETURN_IF_ERROR(k->Run(*b.Build()));
    for (gert::HostTensor& t : *outs) {
      const int32_t f = ge::GetPrimaryFormat(t.tensor().GetFormat());
      if (f == ge::FORMAT_NHWC || f == ge::FORMAT_NDHWC)
        t = Permuted(t.tensor(), false, ge::FORMAT_ND);
    }
    return ge::OkStatus();
  }

  static ::testing::AssertionResult Compare(const gert::HostTensor& got,
                                            const gert::HostTensor& want, double rtol,
                                            double atol) {
    if (got.GetShape().ToVector() != want.GetShape().ToVector()) {
      return ::testing::AssertionFailure()
             << "shape " << got.GetShape().ToString() << " vs " << want.GetShape().ToString();
    }
    ge::StatusOr<std::vector<double>> g = ReadAsDoubles(got.tensor());
    ge::StatusOr<std::vector<double>> w = ReadAsDoubles(want.tensor());
    if (!g.ok() || !w.ok()) return ::testing::AssertionFailure() << "cannot read outputs";
    for (size_t i = 0; i < w->size(); ++i) {
      const double a = (*g)[i], b = (*w)[i];
      if (std::isnan(b) && std::isnan(a)) continue;
      if (a == b) continue;  // equal infinities too
      if (!(std::fabs(a - b) <= atol + rtol * std::fabs(b))) {
        return ::testing::AssertionFailure()
               << "element " << i << ": " << a << " vs reference " << b;
      }
    }
    return ::testing::AssertionSuccess();
  }

  std::string type_, engine_;
  std::vector<std::pair<std::string, ge::AttrValue>> attrs_;
  std::vector<gert::HostTensor> inputs_;
  std::vector<bool> constant_, absent_;
  std::map<std::string, uint32_t> dynamic_;
  std::map<size_t, ge::Format> in_formats_;
  bool channels_last_ = false;
  bool force_emulation_ = false;
  bool emulated_ = false;
  const ge::KernelDef* def_ = nullptr;
  ge::OpDescPtr op_;
  std::vector<gert::IrInstance> ir_;
  std::vector<size_t> ws_sizes_;
};

}  // namespace testing
}  // namespace compute
}  // namespace ops

#endif  // OPS_COMPUTE_COMMON_COMPUTE_KERNEL_TESTER_H_
