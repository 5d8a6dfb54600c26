// ops/compute/reorder/layout_kernel_tester.h (testonly)
//
// Checks a compute-engine kernel against the host-CPU kernel of the same op
// when the compute side's tensors are in a blocked layout, and with special
// values (NaN, infinities) that ComputeKernelTester's comparison does not
// take. The test gives every input as a logical tensor (NCHW values) and the
// format the compute side holds it in:
//   * the node's input descs get that format with the logical shape (the
//     compute engine's convention, ops/compute/common/dnnl_common.h: a
//     blocked tensor keeps its logical dims; its buffer is the padded,
//     blocked one), its output descs the output format;
//   * the host kernel runs on the logical tensors;
//   * the compute kernel runs on NC1HWC0 buffers made by metadef's format
//     transfer (the oracle of the layout), its blocked outputs are turned
//     back the same way, and their padding must be zero (a blocked chain
//     relies on it). Output buffers start filled with 0xff bytes (NaN), so
//     an element the kernel does not write shows.
// Comparison: equal values (infinities included) and NaN against NaN match;
// otherwise |got - want| <= atol + rtol * |want|.
//
// Example
//   LayoutKernelTester t("Sigmoid");
//   t.Input(RandomTensor(ge::DT_FLOAT, {2, 20, 3, 3}, 1), ge::FORMAT_NC1HWC0);
//   EXPECT_TRUE(t.MatchesReference(1e-6, 1e-6));
#ifndef OPS_COMPUTE_REORDER_LAYOUT_KERNEL_TESTER_H_
#define OPS_COMPUTE_REORDER_LAYOUT_KERNEL_TESTER_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/format_transfer.h"
#include "metadef/inc/external/graph/types.h"
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

inline bool IsBlockedFormat(ge::Format f) { return ge::GetPrimaryFormat(f) == ge::FORMAT_NC1HWC0; }

// A HostTensor of `dtype` / `dims` holding `values` (converted).
inline gert::HostTensor TensorOf(ge::DataType dtype, std::vector<int64_t> dims,
                                 std::vector<double> values) {
  ge::StatusOr<gert::HostTensor> t =
      MakeHostTensorFromDoubles(dtype, *gert::Shape::FromDims(dims), values);
  EXPECT_TRUE(t.ok()) << t.status();
  return std::move(*t);
}

// Whether got matches want (see the file comment).
inline ::testing::AssertionResult ValuesMatch(const gert::Tensor& got, const gert::Tensor& want,
                                              double rtol, double atol) {
  if (got.GetShape() != want.GetShape()) {
    return ::testing::AssertionFailure()
           << "shape " << got.GetShape().ToString() << " vs " << want.GetShape().ToString();
  }
  ge::StatusOr<std::vector<double>> g = ReadAsDoubles(got);
  ge::StatusOr<std::vector<double>> w = ReadAsDoubles(want);
  if (!g.ok() || !w.ok()) return ::testing::AssertionFailure() << "cannot read outputs";
  for (size_t i = 0; i < w->size(); ++i) {
    const double a = (*g)[i], b = (*w)[i];
    if (a == b || (std::isnan(a) && std::isnan(b))) continue;
    if (!(std::fabs(a - b) <= atol + rtol * std::fabs(b))) {
      return ::testing::AssertionFailure() << "element " << i << ": " << a << " vs reference " << b;
    }
  }
  return ::testing::AssertionSuccess();
}

class LayoutKernelTester {
 public:
  explicit LayoutKernelTester(std::string type) : type_(std::move(type)) {}

  template <typename T>
  LayoutKernelTester& Attr(const std::string& name, T v) {
    attrs_.emplace_back(name, ge::AttrValue::CreateFrom<T>(std::move(v)));
    return *this;
  }
  LayoutKernelTester& Input(gert::HostTensor t, ge::Format f = ge::FORMAT_ND) {
    return Add(std::move(t), f, false);
  }
  // A constant input: its value is given to Prepare.
  LayoutKernelTester& Const(gert::HostTensor t, ge::Format f = ge::FORMAT_ND) {
    return Add(std::move(t), f, true);
  }
  LayoutKernelTester& Absent() {
    inputs_.push_back(In{gert::HostTensor(), ge::FORMAT_ND, false, true});
    return *this;
  }
  LayoutKernelTester& Dynamic(const std::string& ir_name, uint32_t count) {
    dynamic_[ir_name] = count;
    return *this;
  }
  // The format of every output (default: input 0's).
  LayoutKernelTester& OutputFormat(ge::Format f) {
    out_format_ = f;
    has_out_format_ = true;
    return *this;
  }
  // Output `o`'s dims and data type before inference (an op that keeps a
  // consistent output desc, e.g. TransData blocked -> plain).
  LayoutKernelTester& PresetOutput(size_t o, std::vector<int64_t> dims, ge::DataType dt) {
    preset_[o] = std::make_pair(std::move(dims), dt);
    return *this;
  }
  // The format of output `o` alone.
  LayoutKernelTester& OutputFormat(size_t o, ge::Format f) {
    out_formats_[o] = f;
    return *this;
  }

  ge::Status Supported() {
    RETURN_IF_ERROR(Build());
    return def_->CheckSupported(*op_);
  }
  const ge::OpDesc* op() const { return op_.get(); }

  ::testing::AssertionResult MatchesReference(double rtol, double atol,
                                              std::vector<int> threads = {1, 2}) {
    ge::Status st = Supported();
    if (!st.ok()) return ::testing::AssertionFailure() << "CheckSupported: " << st;
    std::vector<gert::HostTensor> want;
    st = RunHost(&want);
    if (!st.ok()) return ::testing::AssertionFailure() << "host kernel: " << st;
    for (int n : threads) {
      SetIntraOpThreads(n);
      std::vector<gert::HostTensor> got;
      st = RunCompute(&got);
      SetIntraOpThreads(1);
      if (!st.ok()) {
        return ::testing::AssertionFailure() << "compute kernel (" << n << " threads): " << st;
      }
      for (size_t o = 0; o < want.size(); ++o) {
        ::testing::AssertionResult r = ValuesMatch(got[o].tensor(), want[o].tensor(), rtol, atol);
        if (!r) return r << " (output " << o << ", " << n << " threads)";
      }
    }
    return ::testing::AssertionSuccess();
  }

 private:
  struct In {
    gert::HostTensor t;
    ge::Format format = ge::FORMAT_ND;
    bool constant = false;
    bool absent = false;
  };

  LayoutKernelTester& Add(gert::HostTensor t, ge::Format f, bool constant) {
    inputs_.push_back(In{std::move(t), f, constant, false});
    return *this;
  }

  ge::Status Build() {
    if (op_ != nullptr) return ge::OkStatus();
    def_ = ge::FindKernel(type_, ge::kEngineAiCore);
    if (def_ == nullptr) return ge::NotFound(ge::DescribeMissingKernel(type_, ge::kEngineAiCore));
    ASSIGN_OR_RETURN(op_, ge::OperatorFactory::CreateOpDesc("node_" + type_, type_, dynamic_));
    for (auto& [name, v] : attrs_) RETURN_IF_ERROR(op_->SetAttr(name, v));
    std::vector<const gert::Tensor*> values;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      ge::GeTensorDescPtr d = op_->MutableInputDesc(static_cast<uint32_t>(i));
      if (d == nullptr) return ge::ParamInvalid("input ", i, " has no desc");
      if (inputs_[i].absent) {
        values.push_back(nullptr);
        continue;
      }
      const gert::Tensor& t = inputs_[i].t.tensor();
      const ge::Format f = inputs_[i].format;
      const std::vector<int64_t> dims = t.GetShape().ToVector();
      *d = ge::GeTensorDesc(ge::GeShape(dims), f, t.GetDataType());
      d->SetOriginShape(ge::GeShape(dims));
      d->SetOriginFormat(IsBlockedFormat(f) ? ge::FORMAT_NCHW : f);
      values.push_back(inputs_[i].constant ? &t : nullptr);
    }
    for (auto& [o, p] : preset_) {
      ge::GeTensorDescPtr d = op_->MutableOutputDesc(static_cast<uint32_t>(o));
      if (d == nullptr) return ge::ParamInvalid("output ", o, " has no desc");
      *d = ge::GeTensorDesc(ge::GeShape(p.first), ge::FORMAT_ND, p.second);
      d->SetOriginShape(ge::GeShape(p.first));
    }
    RETURN_IF_ERROR(ge::InferShapeAndTypeForOpDesc(*op_, values));
    const ge::Format out_format =
        has_out_format_ ? out_format_ : (inputs_.empty() ? ge::FORMAT_ND : inputs_[0].format);
    for (size_t o = 0; o < op_->GetOutputsSize(); ++o) {
      ge::GeTensorDescPtr d = op_->MutableOutputDesc(static_cast<uint32_t>(o));
      if (d != nullptr) d->SetFormat(out_formats_.count(o) ? out_formats_[o] : out_format);
    }
    ASSIGN_OR_RETURN(ir_, ge::MapInputSlotsToIr(*op_, *ge::OpRegistry::Instance().Find(type_),
                                                inputs_.size()));
    return ge::OkStatus();
  }

  std::vector<const gert::Tensor*> PlainInputs() const {
    std::vector<const gert::Tensor*> p;
    for (const In& in : inputs_) p.push_back(in.absent ? nullptr : &in.t.tensor());
    return p;
  }

  ge::Status RunHost(std::vector<gert::HostTensor>* outs) {
    const ge::KernelDef* host = ge::FindKernel(type_, ge::kEngineHostCpu);
    if (host == nullptr) return ge::NotFound(ge::DescribeMissingKernel(type_, ge::kEngineHostCpu));
    std::vector<gert::Tensor*> out_ptrs;
    for (size_t o = 0; o < op_->GetOutputsSize(); ++o) {
      const ge::GeTensorDesc* d = op_->GetOutputDescBarePtr(static_cast<uint32_t>(o));
      ASSIGN_OR_RETURN(gert::Shape s, gert::Shape::FromDims(d->GetShape().GetDims()));
      ASSIGN_OR_RETURN(gert::HostTensor t, gert::HostTensor::Create(d->GetDataType(), s));
      outs->push_back(std::move(t));
    }
    for (gert::HostTensor& t : *outs) out_ptrs.push_back(t.MutableTensor());
    gert::KernelRunContextBuilder b;
    b.Node(op_->GetName(), type_)
        .Attrs(op_.get())
        .Inputs(PlainInputs())
        .Outputs(out_ptrs)
        .IrInputs(ir_);
    return host->shared_kernel()->Run(*b.Build());
  }

  // Buffers of the compute side: blocked inputs transferred, outputs in
  // their format, filled with 0xff.
  ge::Status RunCompute(std::vector<gert::HostTensor>* outs) {
    std::vector<std::vector<uint8_t>> in_bytes(inputs_.size());
    std::vector<gert::Tensor> ins(inputs_.size());
    for (size_t i = 0; i < inputs_.size(); ++i) {
      if (inputs_[i].absent) continue;
      const gert::Tensor& t = inputs_[i].t.tensor();
      ins[i] = t;
      ins[i].SetFormat(inputs_[i].format);
      if (IsBlockedFormat(inputs_[i].format)) {
        ge::TransArgs args;
        args.data = static_cast<const uint8_t*>(t.GetAddr());
        args.src_format = ge::FORMAT_NCHW;
        args.dst_format = inputs_[i].format;
        args.src_shape = t.GetShape().ToVector();
        args.src_data_type = t.GetDataType();
        RETURN_IF_ERROR(ge::TransferFormat(args, &in_bytes[i]));
        ins[i].SetData(in_bytes[i].data(), in_bytes[i].size());
      }
    }
    std::vector<gert::Tensor> facts = ins;
    std::vector<const gert::Tensor*> fact_ptrs, in_ptrs;
    for (size_t i = 0; i < inputs_.size(); ++i) {
      if (!inputs_[i].absent && !inputs_[i].constant) facts[i].SetData(nullptr, 0);
      fact_ptrs.push_back(inputs_[i].absent ? nullptr : &facts[i]);
      in_ptrs.push_back(inputs_[i].absent ? nullptr : &ins[i]);
    }
    const size_t n_out = op_->GetOutputsSize();
    std::vector<std::vector<uint8_t>> out_bytes(n_out);
    std::vector<gert::Tensor> out_tensors(n_out), out_facts(n_out);
    for (size_t o = 0; o < n_out; ++o) {
      const ge::GeTensorDesc* d = op_->GetOutputDescBarePtr(static_cast<uint32_t>(o));
      ASSIGN_OR_RETURN(gert::Shape s, gert::Shape::FromDims(d->GetShape().GetDims()));
      int64_t count = s.GetShapeSize();
      if (IsBlockedFormat(d->GetFormat())) {
        ASSIGN_OR_RETURN(std::vector<int64_t> phys,
                         ge::TransferShape(ge::FORMAT_NCHW, d->GetFormat(), d->GetDataType(),
                                           s.ToVector()));
        count = 1;
        for (int64_t v : phys) count *= v;
      }
      ASSIGN_OR_RETURN(size_t bytes, gert::HostStorageBytes(d->GetDataType(), count));
      out_bytes[o].assign(bytes, 0xff);
      out_tensors[o] =
          gert::Tensor(s, d->GetDataType(), out_bytes[o].data(), bytes, d->GetFormat());
      out_facts[o] = out_tensors[o];
      out_facts[o].SetData(nullptr, 0);
    }
    std::vector<const gert::Tensor*> out_fact_ptrs;
    std::vector<gert::Tensor*> out_ptrs;
    for (size_t o = 0; o < n_out; ++o) {
      out_fact_ptrs.push_back(&out_facts[o]);
      out_ptrs.push_back(&out_tensors[o]);
    }
    std::unique_ptr<ge::OpKernel> owned = NewComputeKernel(*def_);
    const ge::OpKernel* k = owned != nullptr ? owned.get() : def_->shared_kernel();
    gert::TilingContextBuilder tb;
    gert::TilingContext* tctx = tb.Node(op_->GetName(), type_)
                                    .Attrs(op_.get())
                                    .Inputs(fact_ptrs)
                                    .Outputs(out_fact_ptrs)
                                    .Build();
    if (owned != nullptr) RETURN_IF_ERROR(owned->Prepare(*tctx));
    std::vector<std::unique_ptr<AlignedBuffer>> ws;
    std::vector<void*> ws_ptrs;
    for (size_t bytes : tctx->GetWorkspaceSizes()) {
      ASSIGN_OR_RETURN(AlignedBuffer b, AlignedBuffer::Allocate(bytes));
      ws.push_back(std::make_unique<AlignedBuffer>(std::move(b)));
      ws_ptrs.push_back(ws.back()->data());
    }
    gert::KernelRunContextBuilder b;
    b.Node(op_->GetName(), type_)
        .Attrs(op_.get())
        .Inputs(in_ptrs)
        .Outputs(out_ptrs)
        .IrInputs(ir_)
        .Workspaces(ws_ptrs);
    RETURN_IF_ERROR(k->Run(*b.Build()));
    RETURN_IF_ERROR(k->Run(*b.Build()));
    for (size_t o = 0; o < n_out; ++o) {
      const gert::Tensor& t = out_tensors[o];
      if (!IsBlockedFormat(t.GetFormat())) {
        ASSIGN_OR_RETURN(gert::HostTensor h, gert::HostTensor::CopyFrom(t));
        outs->push_back(std::move(h));
        continue;
      }
      ge::TransArgs back;
      back.data = out_bytes[o].data();
      back.src_format = t.GetFormat();
      back.dst_format = ge::FORMAT_NCHW;
      ASSIGN_OR_RETURN(back.src_shape, ge::TransferShape(ge::FORMAT_NCHW, t.GetFormat(),
                                                         t.GetDataType(), t.GetShape().ToVector()));
      back.dst_shape = t.GetShape().ToVector();
      back.src_data_type = t.GetDataType();
      std::vector<uint8_t> plain;
      RETURN_IF_ERROR(ge::TransferFormat(back, &plain));
      // Re-blocking the logical values gives the buffer back only when its
      // padding is zero.
      ge::TransArgs again;
      again.data = plain.data();
      again.src_format = ge::FORMAT_NCHW;
      again.dst_format = t.GetFormat();
      again.src_shape = back.dst_shape;
      again.src_data_type = t.GetDataType();
      std::vector<uint8_t> reblocked;
      RETURN_IF_ERROR(ge::TransferFormat(again, &reblocked));
      if (reblocked != out_bytes[o]) {
        return ge::Internal("output ", o, ": the blocked padding is not zero");
      }
      ASSIGN_OR_RETURN(gert::HostTensor h, gert::HostTensor::CreateFrom(t.GetDataType(), t.GetShape(),
                                                                        plain.data(), plain.size()));
      outs->push_back(std::move(h));
    }
    return ge::OkStatus();
  }

  std::string type_;
  std::vector<std::pair<std::string, ge::AttrValue>> attrs_;
  std::vector<In> inputs_;
  std::map<std::string, uint32_t> dynamic_;
  ge::Format out_format_ = ge::FORMAT_ND;
  bool has_out_format_ = false;
  std::map<size_t, ge::Format> out_formats_;
  std::map<size_t, std::pair<std::vector<int64_t>, ge::DataType>> preset_;
  const ge::KernelDef* def_ = nullptr;
  ge::OpDescPtr op_;
  std::vector<gert::IrInstance> ir_;
};

}  // namespace testing
}  // namespace compute
}  // namespace ops

#endif  // OPS_COMPUTE_REORDER_LAYOUT_KERNEL_TESTER_H_
