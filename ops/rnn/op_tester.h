// ops/rnn/op_tester.h (testonly)
//
// OpTester: runs a registered op through its registry entry the way an
// executor does (verify -> infer data type -> infer shape with the input
// values visible -> output allocation -> host-CPU kernel), for the tests of
// the rnn, loss, signal, text, detection, random and training families.
// Generic: nothing here knows about a particular op (a candidate for
// ops/common).
//
// IR instances of dynamic inputs are derived from the registration (a
// dynamic input takes every input the fixed ones leave), so variadic ops
// (Adam, ...) need no extra setup. Outputs whose inferred shape has unknown
// dims are allocated through an OutputAllocator (data-dependent kernels).
//
// Example
//   OpTester t("NegativeLogLikelihoodLoss");
//   t.AttrStr("reduction", "sum")
//    .Input(F32({2, 3}, {...}))
//    .Input(I64({2}, {0, 2}));
//   ASSERT_TRUE(t.Run(1).ok());
//   EXPECT_EQ(t.Out(0).GetShape(), gert::Shape{});
//   std::vector<double> y = t.OutValues(0);
//
//   // Shape-only inference (no values): {-1, 3} dims, unknown rank {-2}.
//   ge::Status s = t.InferShapes({{-1, 3}, {-1}}, {ge::DT_FLOAT, ge::DT_INT64}, 1);
//   t.InferredShape(0);
#ifndef OPS_RNN_OP_TESTER_H_
#define OPS_RNN_OP_TESTER_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "gtest/gtest.h"
#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"

namespace ops {
namespace optest {

// A host tensor of `dt` from doubles (fails the current test on error).
inline gert::HostTensor T(ge::DataType dt, const gert::Shape& shape,
                          const std::vector<double>& values) {
  ge::StatusOr<gert::HostTensor> t = MakeHostTensorFromDoubles(dt, shape, values);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *std::move(t) : gert::HostTensor();
}
inline gert::HostTensor F32(const gert::Shape& shape, const std::vector<double>& values) {
  return T(ge::DT_FLOAT, shape, values);
}
inline gert::HostTensor F64(const gert::Shape& shape, const std::vector<double>& values) {
  return T(ge::DT_DOUBLE, shape, values);
}
inline gert::HostTensor I64(const gert::Shape& shape, const std::vector<double>& values) {
  return T(ge::DT_INT64, shape, values);
}
inline gert::HostTensor I32(const gert::Shape& shape, const std::vector<double>& values) {
  return T(ge::DT_INT32, shape, values);
}
inline gert::HostTensor Str(const gert::Shape& shape, const std::vector<std::string>& values) {
  ge::StatusOr<gert::HostTensor> t =
      MakeHostTensor<std::string>(ge::DT_STRING, shape, absl::MakeConstSpan(values));
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *std::move(t) : gert::HostTensor();
}

class TestAllocator : public gert::OutputAllocator {
 public:
  ge::Status Allocate(size_t, gert::Tensor* tensor) override {
    ASSIGN_OR_RETURN(gert::HostTensor t,
                     gert::HostTensor::Create(tensor->GetDataType(), tensor->GetShape()));
    tensor->SetData(t.MutableTensor()->GetAddr(), t.tensor().GetSize());
    owned_.push_back(std::make_unique<gert::HostTensor>(std::move(t)));
    ++calls_;
    return ge::OkStatus();
  }
  int calls() const { return calls_; }

 private:
  std::vector<std::unique_ptr<gert::HostTensor>> owned_;
  int calls_ = 0;
};

class OpTester {
 public:
  explicit OpTester(std::string type, std::string name = "n1")
      : type_(std::move(type)), name_(std::move(name)) {}

  OpTester& Attr(const std::string& name, ge::AttrValue v) {
    EXPECT_TRUE(attrs_.SetAttr(name, std::move(v)).ok());
    return *this;
  }
  OpTester& AttrInt(const std::string& name, int64_t v) {
    return Attr(name, ge::AttrValue::CreateFrom<int64_t>(v));
  }
  OpTester& AttrInts(const std::string& name, std::vector<int64_t> v) {
    return Attr(name, ge::AttrValue::CreateFrom<std::vector<int64_t>>(std::move(v)));
  }
  OpTester& AttrFloat(const std::string& name, float v) {
    return Attr(name, ge::AttrValue::CreateFrom<float>(v));
  }
  OpTester& AttrFloats(const std::string& name, std::vector<float> v) {
    return Attr(name, ge::AttrValue::CreateFrom<std::vector<float>>(std::move(v)));
  }
  OpTester& AttrStr(const std::string& name, std::string v) {
    return Attr(name, ge::AttrValue::CreateFrom<std::string>(std::move(v)));
  }
  OpTester& AttrStrs(const std::string& name, std::vector<std::string> v) {
    return Attr(name, ge::AttrValue::CreateFrom<std::vector<std::string>>(std::move(v)));
  }
  OpTester& AttrDtype(const std::string& name, ge::DataType dt) {
    return Attr(name, ge::AttrValue::CreateFrom<ge::DataType>(dt));
  }

  OpTester& Input(gert::HostTensor t) {
    inputs_.push_back(std::make_unique<gert::HostTensor>(std::move(t)));
    return *this;
  }
  OpTester& Absent() {
    inputs_.push_back(nullptr);
    return *this;
  }
  void ClearInputs() { inputs_.clear(); }

  // Verify + infer data type + infer shape over the stored inputs (values
  // visible), then the kernel with `num_outputs` outputs. `absent_outputs`
  // lists outputs the node does not produce (null output tensors).
  ge::Status Run(size_t num_outputs, std::vector<size_t> absent_outputs = {}) {
    ASSIGN_OR_RETURN(const ge::OpRegistrationData* reg, ge::OpRegistry::Instance().Get(type_));
    gert::InferShapeContextBuilder ib;
    ib.Node(name_, type_).Attrs(&attrs_).IrInputs(IrFor(*reg, inputs_.size()));
    for (const auto& in : inputs_) {
      if (in == nullptr) {
        ib.AbsentInput();
      } else {
        ib.Input(in->GetShape(), in->GetDataType(), &in->tensor());
      }
    }
    ib.Outputs(num_outputs);
    RETURN_IF_ERROR(InferWith(*reg, ib));
    return RunKernel(*reg, num_outputs, absent_outputs);
  }

  // The kernel only, with outputs of the given shapes / dtypes (a shape with
  // -1 dims is allocated by the kernel), bypassing inference: for kernel
  // input validation.
  ge::Status RunKernelOnly(const std::vector<gert::Shape>& out_shapes,
                           const std::vector<ge::DataType>& out_dtypes) {
    ASSIGN_OR_RETURN(const ge::OpRegistrationData* reg, ge::OpRegistry::Instance().Get(type_));
    inferred_shapes_ = out_shapes;
    inferred_dtypes_ = out_dtypes;
    return RunKernel(*reg, out_shapes.size(), {});
  }

  // Shape-only inference: no input values; input i gets dtypes[i] (the last
  // dtype repeats); inputs listed in `absent_inputs` are omitted.
  ge::Status InferShapes(const std::vector<gert::Shape>& shapes,
                         const std::vector<ge::DataType>& dtypes, size_t num_outputs,
                         std::vector<size_t> absent_inputs = {}) {
    ASSIGN_OR_RETURN(const ge::OpRegistrationData* reg, ge::OpRegistry::Instance().Get(type_));
    gert::InferShapeContextBuilder ib;
    ib.Node(name_, type_).Attrs(&attrs_).IrInputs(IrFor(*reg, shapes.size()));
    for (size_t i = 0; i < shapes.size(); ++i) {
      bool absent = false;
      for (size_t a : absent_inputs) absent = absent || a == i;
      if (absent) {
        ib.AbsentInput();
      } else {
        const ge::DataType dt =
            dtypes.empty() ? ge::DT_FLOAT : dtypes[i < dtypes.size() ? i : dtypes.size() - 1];
        ib.Input(shapes[i], dt);
      }
    }
    ib.Outputs(num_outputs);
    return InferWith(*reg, ib);
  }

  const gert::Shape& InferredShape(size_t i) const { return inferred_shapes_.at(i); }
  ge::DataType InferredDtype(size_t i) const { return inferred_dtypes_.at(i); }

  bool HasOut(size_t i) const { return i < out_.size() && out_[i] != nullptr; }
  const gert::HostTensor& Out(size_t i) const { return *out_.at(i); }
  // Output i converted to doubles.
  std::vector<double> OutValues(size_t i) const {
    if (!HasOut(i)) {
      ADD_FAILURE() << "output " << i << " was not produced";
      return {};
    }
    ge::StatusOr<std::vector<double>> v = ReadAsDoubles(Out(i).tensor());
    EXPECT_TRUE(v.ok()) << v.status();
    return v.ok() ? *v : std::vector<double>();
  }
  std::vector<std::string> OutStrings(size_t i) const {
    if (!HasOut(i) || Out(i).GetDataType() != ge::DT_STRING) {
      ADD_FAILURE() << "output " << i << " is not a produced STRING tensor";
      return {};
    }
    const std::string* p = Out(i).GetData<std::string>();
    return std::vector<std::string>(p, p + Out(i).GetShape().GetShapeSize());
  }
  int allocator_calls() const { return allocator_.calls(); }

 private:
  // A dynamic IR input takes whatever the fixed ones leave.
  static std::vector<gert::IrInstance> IrFor(const ge::OpRegistrationData& reg, size_t n) {
    size_t fixed = 0;
    for (const auto& io : reg.inputs) fixed += io.kind == ge::IoKind::kDynamic ? 0 : 1;
    std::vector<gert::IrInstance> ir;
    size_t next = 0;
    for (const auto& io : reg.inputs) {
      size_t count = 1;
      if (io.kind == ge::IoKind::kDynamic) {
        count = n >= fixed ? n - fixed : 0;
      } else if (next >= n) {
        count = 0;
      }
      ir.push_back({next, count});
      next += count;
    }
    return ir;
  }

  ge::Status InferWith(const ge::OpRegistrationData& reg, gert::InferShapeContextBuilder& ib) {
    gert::InferShapeContext* ctx = ib.Build();
    if (reg.verify != nullptr) RETURN_IF_ERROR(reg.verify(*ctx));
    if (reg.infer_data_type != nullptr) {
      RETURN_IF_ERROR(reg.infer_data_type(*ctx));
    } else {
      for (size_t i = 0; i < ctx->GetOutputNum(); ++i) {
        ctx->SetOutputDataType(i, ctx->GetInputDataType(0));
      }
    }
    if (reg.infer_shape == nullptr) return ge::NotFound("no infer shape for ", type_);
    RETURN_IF_ERROR(reg.infer_shape(*ctx));
    inferred_shapes_.clear();
    inferred_dtypes_.clear();
    for (size_t i = 0; i < ctx->GetOutputNum(); ++i) {
      inferred_shapes_.push_back(ib.OutputShape(i));
      inferred_dtypes_.push_back(ib.OutputDataType(i));
    }
    return ge::OkStatus();
  }

  ge::Status RunKernel(const ge::OpRegistrationData& reg, size_t num_outputs,
                       const std::vector<size_t>& absent_outputs) {
    out_.clear();
    out_tensors_.assign(num_outputs, gert::Tensor());
    std::vector<gert::Tensor*> outs;
    for (size_t i = 0; i < num_outputs; ++i) {
      bool absent = false;
      for (size_t a : absent_outputs) absent = absent || a == i;
      out_.push_back(nullptr);
      if (absent) {
        outs.push_back(nullptr);
        continue;
      }
      const gert::Shape& s = inferred_shapes_.at(i);
      if (!s.IsUnknownShape()) {
        ASSIGN_OR_RETURN(gert::HostTensor t, gert::HostTensor::Create(inferred_dtypes_.at(i), s));
        out_[i] = std::make_unique<gert::HostTensor>(std::move(t));
        outs.push_back(out_[i]->MutableTensor());
      } else {
        out_tensors_[i].SetShape(s);
        out_tensors_[i].SetDataType(inferred_dtypes_.at(i));
        outs.push_back(&out_tensors_[i]);
      }
    }
    std::vector<const gert::Tensor*> ins;
    for (const auto& in : inputs_) ins.push_back(in == nullptr ? nullptr : &in->tensor());
    const ge::OpKernelDef* k = reg.FindKernel(ge::kEngineHostCpu);
    if (k == nullptr || k->fn == nullptr) return ge::NotFound("no host kernel for ", type_);
    gert::KernelRunContextBuilder kb;
    kb.Node(name_, type_)
        .Attrs(&attrs_)
        .Inputs(ins)
        .Outputs(outs)
        .IrInputs(IrFor(reg, inputs_.size()))
        .Allocator(&allocator_);
    RETURN_IF_ERROR(k->fn(*kb.Build()));
    for (size_t i = 0; i < num_outputs; ++i) {
      if (out_[i] == nullptr && outs[i] != nullptr) {
        // Allocated through the allocator: deep-copy into an owned tensor.
        const gert::Tensor& t = out_tensors_[i];
        if (t.GetAddr() == nullptr && t.GetShapeSize() != 0) {
          return ge::Internal("kernel left output ", i, " unallocated");
        }
        ASSIGN_OR_RETURN(gert::HostTensor h, gert::HostTensor::Create(t.GetDataType(), t.GetShape()));
        const int64_t n = t.GetShapeSize();
        if (t.GetDataType() == ge::DT_STRING) {
          for (int64_t j = 0; j < n; ++j) h.MutableData<std::string>()[j] = t.GetData<std::string>()[j];
        } else if (n > 0) {
          std::memcpy(h.MutableTensor()->GetAddr(), t.GetAddr(), h.tensor().GetSize());
        }
        out_[i] = std::make_unique<gert::HostTensor>(std::move(h));
      }
    }
    return ge::OkStatus();
  }

  std::string type_;
  std::string name_;
  ge::NamedAttrs attrs_;
  std::vector<std::unique_ptr<gert::HostTensor>> inputs_;
  std::vector<std::unique_ptr<gert::HostTensor>> out_;
  std::vector<gert::Tensor> out_tensors_;
  std::vector<gert::Shape> inferred_shapes_;
  std::vector<ge::DataType> inferred_dtypes_;
  TestAllocator allocator_;
};

// Element-wise comparison: |got - want| <= tol * (1 + |want|).
inline ::testing::AssertionResult Near(const std::vector<double>& got,
                                       const std::vector<double>& want, double tol = 1e-5) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure() << "size " << got.size() << " != expected " << want.size();
  }
  for (size_t i = 0; i < got.size(); ++i) {
    const double diff = std::fabs(got[i] - want[i]);
    if (!(diff <= tol * (1.0 + std::fabs(want[i])))) {
      return ::testing::AssertionFailure()
             << "element " << i << ": got " << got[i] << ", expected " << want[i];
    }
  }
  return ::testing::AssertionSuccess();
}

// The status is an error whose message contains `needle` and names the node.
inline ::testing::AssertionResult ErrorContains(const ge::Status& s, const std::string& needle,
                                                const std::string& node = "n1") {
  if (s.ok()) return ::testing::AssertionFailure() << "status is OK, expected an error";
  const std::string msg(s.message());
  if (msg.find(needle) == std::string::npos) {
    return ::testing::AssertionFailure() << "message \"" << msg << "\" lacks \"" << needle << "\"";
  }
  if (msg.find("node " + node) == std::string::npos) {
    return ::testing::AssertionFailure() << "message \"" << msg << "\" does not name node " << node;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace optest
}  // namespace ops

#endif  // OPS_RNN_OP_TESTER_H_
