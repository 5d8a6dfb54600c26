// ops/nn/nn_test_util.h
//
// Test driver for the nn ops: runs a registered op through its registry
// entry exactly as an executor would (verify, infer data type, infer shape
// with known input values, output allocation, host-CPU kernel).
//
//   OpTester t("Conv");
//   t.AttrInts("pads", {1, 1, 1, 1})
//    .Input(F32({1, 1, 3, 3}, {...}))
//    .Input(F32({1, 1, 3, 3}, {...}));
//   ASSERT_TRUE(t.Run(1).ok());
//   EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 3, 3}));
//   std::vector<float> y = t.OutFloats(0);
//
//   // Shape-only inference (-1 dims, unknown rank):
//   ge::Status s = t.InferShapes({{-1, 3, 8, 8}, {16, 3, 3, 3}}, ge::DT_FLOAT, 1);
//   t.InferredShape(0);
//
// Outputs whose inferred shape has unknown dims are allocated through an
// OutputAllocator, so data-dependent kernels are covered too.
#ifndef OPS_NN_NN_TEST_UTIL_H_
#define OPS_NN_NN_TEST_UTIL_H_

#include <cmath>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"

namespace ops {
namespace nn {
namespace testing {

// A FLOAT / other-typed host tensor from doubles (aborts the test on error).
inline gert::HostTensor T(ge::DataType dt, const gert::Shape& shape,
                          const std::vector<double>& values) {
  ge::StatusOr<gert::HostTensor> t = MakeHostTensorFromDoubles(dt, shape, values);
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? *std::move(t) : gert::HostTensor();
}
inline gert::HostTensor F32(const gert::Shape& shape, const std::vector<double>& values) {
  return T(ge::DT_FLOAT, shape, values);
}
inline gert::HostTensor I64(const gert::Shape& shape, const std::vector<double>& values) {
  return T(ge::DT_INT64, shape, values);
}
// 0, 1, 2, ... (count = shape size) as `dt`.
inline gert::HostTensor Iota(ge::DataType dt, const gert::Shape& shape, double start = 0,
                             double step = 1) {
  std::vector<double> v(static_cast<size_t>(shape.GetShapeSize()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = start + step * static_cast<double>(i);
  return T(dt, shape, v);
}

class TestAllocator : public gert::OutputAllocator {
 public:
  ge::Status Allocate(size_t output_index, gert::Tensor* tensor) override {
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
  OpTester& AttrStr(const std::string& name, std::string v) {
    return Attr(name, ge::AttrValue::CreateFrom<std::string>(std::move(v)));
  }

  OpTester& Input(gert::HostTensor t) {
    inputs_.push_back(std::make_unique<gert::HostTensor>(std::move(t)));
    return *this;
  }
  OpTester& Absent() {
    inputs_.push_back(nullptr);
    return *this;
  }
  // Infer shape in Run() sees only shapes (as at compile time); outputs with
  // unknown dims are then allocated by the kernel through the allocator.
  OpTester& HideInputValues() {
    hide_values_ = true;
    return *this;
  }

  // Verify + infer data type + infer shape over the stored inputs (values
  // visible), then the kernel with `num_outputs` outputs. absent_outputs
  // lists outputs the node does not produce (nullptr tensors).
  ge::Status Run(size_t num_outputs, std::vector<size_t> absent_outputs = {}) {
    ASSIGN_OR_RETURN(const ge::OpRegistrationData* reg, ge::OpRegistry::Instance().Get(type_));
    gert::InferShapeContextBuilder ib;
    ib.Node(name_, type_).Attrs(&attrs_);
    for (const auto& in : inputs_) {
      if (in == nullptr) {
        ib.AbsentInput();
      } else {
        ib.Input(in->GetShape(), in->GetDataType(), hide_values_ ? nullptr : &in->tensor());
      }
    }
    ib.Outputs(num_outputs);
    RETURN_IF_ERROR(InferWith(*reg, ib));
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
      const gert::Shape& s = inferred_shapes_[i];
      if (!s.IsUnknownShape() && !s.IsUnknownRank()) {
        ASSIGN_OR_RETURN(gert::HostTensor t, gert::HostTensor::Create(inferred_dtypes_[i], s));
        out_[i] = std::make_unique<gert::HostTensor>(std::move(t));
        outs.push_back(out_[i]->MutableTensor());
      } else {
        out_tensors_[i].SetShape(s);
        out_tensors_[i].SetDataType(inferred_dtypes_[i]);
        outs.push_back(&out_tensors_[i]);
      }
    }
    std::vector<const gert::Tensor*> ins;
    for (const auto& in : inputs_) ins.push_back(in == nullptr ? nullptr : &in->tensor());
    const ge::OpKernelDef* k = reg->FindKernel(ge::kEngineHostCpu);
    if (k == nullptr || k->fn == nullptr) return ge::NotFound("no host kernel for ", type_);
    gert::KernelRunContextBuilder kb;
    kb.Node(name_, type_).Attrs(&attrs_).Inputs(ins).Outputs(outs).Allocator(&allocator_);
    gert::KernelContext* kctx = kb.Build();
    RETURN_IF_ERROR(k->fn(*kctx));
    for (size_t i = 0; i < num_outputs; ++i) {
      if (out_[i] == nullptr && outs[i] != nullptr) {
        // Allocated through the allocator: copy into an owned HostTensor.
        const gert::Tensor& t = out_tensors_[i];
        ASSIGN_OR_RETURN(size_t bytes, gert::HostStorageBytes(t.GetDataType(), t.GetShapeSize()));
        ASSIGN_OR_RETURN(gert::HostTensor h,
                         gert::HostTensor::CreateFrom(t.GetDataType(), t.GetShape(),
                                                      t.GetAddr(), bytes));
        out_[i] = std::make_unique<gert::HostTensor>(std::move(h));
      }
    }
    return ge::OkStatus();
  }

  // Shape-only inference: no input values; every input gets `dtype` unless
  // dtypes is given. An empty shape vector entry {} is a scalar; use
  // absent_inputs to omit optional inputs.
  ge::Status InferShapes(const std::vector<gert::Shape>& shapes, ge::DataType dtype,
                         size_t num_outputs, std::vector<ge::DataType> dtypes = {},
                         std::vector<size_t> absent_inputs = {}) {
    ASSIGN_OR_RETURN(const ge::OpRegistrationData* reg, ge::OpRegistry::Instance().Get(type_));
    gert::InferShapeContextBuilder ib;
    ib.Node(name_, type_).Attrs(&attrs_);
    for (size_t i = 0; i < shapes.size(); ++i) {
      bool absent = false;
      for (size_t a : absent_inputs) absent = absent || a == i;
      if (absent) {
        ib.AbsentInput();
      } else {
        ib.Input(shapes[i], i < dtypes.size() ? dtypes[i] : dtype);
      }
    }
    ib.Outputs(num_outputs);
    return InferWith(*reg, ib);
  }

  const gert::Shape& InferredShape(size_t i) const { return inferred_shapes_.at(i); }
  ge::DataType InferredDtype(size_t i) const { return inferred_dtypes_.at(i); }

  const gert::HostTensor& Out(size_t i) const { return *out_.at(i); }
  bool HasOut(size_t i) const { return i < out_.size() && out_[i] != nullptr; }
  // Output i converted to doubles.
  std::vector<double> OutValues(size_t i) const {
    ge::StatusOr<std::vector<double>> v = ReadAsDoubles(Out(i).tensor());
    EXPECT_TRUE(v.ok()) << v.status();
    return v.ok() ? *v : std::vector<double>();
  }
  int allocator_calls() const { return allocator_.calls(); }

 private:
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

  std::string type_;
  std::string name_;
  ge::NamedAttrs attrs_;
  std::vector<std::unique_ptr<gert::HostTensor>> inputs_;
  std::vector<std::unique_ptr<gert::HostTensor>> out_;
  std::vector<gert::Tensor> out_tensors_;
  std::vector<gert::Shape> inferred_shapes_;
  std::vector<ge::DataType> inferred_dtypes_;
  TestAllocator allocator_;
  bool hide_values_ = false;
};

// Element-wise comparison with an absolute + relative tolerance.
inline ::testing::AssertionResult Near(const std::vector<double>& got,
                                       const std::vector<double>& want, double tol = 1e-5) {
  if (got.size() != want.size()) {
    return ::testing::AssertionFailure()
           << "size " << got.size() << " != expected " << want.size();
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

// The error message of a status contains `needle` and names the node.
inline ::testing::AssertionResult ErrorContains(const ge::Status& s, const std::string& needle,
                                                const std::string& node = "n1") {
  if (s.ok()) return ::testing::AssertionFailure() << "status is OK, expected an error";
  const std::string msg(s.message());
  if (msg.find(needle) == std::string::npos) {
    return ::testing::AssertionFailure() << "message \"" << msg << "\" lacks \"" << needle << "\"";
  }
  if (msg.find("node " + node) == std::string::npos) {
    return ::testing::AssertionFailure() << "message \"" << msg << "\" does not name node "
                                         << node;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace testing
}  // namespace nn
}  // namespace ops

#endif  // OPS_NN_NN_TEST_UTIL_H_
