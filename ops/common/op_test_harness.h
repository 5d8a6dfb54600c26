// ops/common/op_test_harness.h (testonly)
//
// Runs one registered op the way the framework does, for op-family tests:
// Infer() calls verify, infer data type (default: input 0's type) and infer
// shape through an InferShapeContextBuilder; RunKernel() calls the host-CPU
// kernel with outputs of unknown shape, so the kernel allocates them through
// a test allocator and the test checks the shape it computed.
//
// Example
//   InferResult r = Infer("MatMul", {{gert::Shape{2, 3}}, {gert::Shape{3, 4}}});
//   KernelRun run;
//   RunKernel("Relu", {&x}, &run);
//   EXPECT_EQ(run.Values(), (std::vector<double>{0, 1}));
#ifndef OPS_COMMON_OP_TEST_HARNESS_H_
#define OPS_COMMON_OP_TEST_HARNESS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_util.h"

namespace ops {
namespace op_test {

inline gert::Shape UnknownRank() { return gert::Shape{ge::UNKNOWN_RANK}; }

class Attrs {
 public:
  template <typename T>
  Attrs& Set(const char* name, T value) {
    EXPECT_TRUE(attrs_.SetAttr(name, ge::AttrValue::CreateFrom<T>(std::move(value))).ok());
    return *this;
  }
  const ge::AttrHolder* get() const { return &attrs_; }

 private:
  ge::NamedAttrs attrs_;
};

struct In {
  gert::Shape shape;
  ge::DataType dtype = ge::DT_FLOAT;
  const gert::Tensor* value = nullptr;
  bool absent = false;
};
inline In Absent() { return In{gert::Shape{}, ge::DT_UNDEFINED, nullptr, true}; }

struct InferResult {
  ge::Status status;
  std::vector<gert::Shape> shapes;
  std::vector<ge::DataType> dtypes;
};

inline const ge::OpRegistrationData* Reg(const std::string& type) {
  const ge::OpRegistrationData* r = ge::OpRegistry::Instance().Find(type);
  EXPECT_NE(r, nullptr) << type << " is not registered";
  return r;
}

// Runs verify, infer data type and infer shape like the framework does.
inline InferResult Infer(const std::string& type, const std::vector<In>& ins, size_t num_out = 1,
                  const Attrs& attrs = Attrs()) {
  InferResult res;
  const ge::OpRegistrationData* r = Reg(type);
  if (r == nullptr) {
    res.status = ge::NotFound(type);
    return res;
  }
  gert::InferShapeContextBuilder b;
  b.Node("node_" + type, type).Attrs(attrs.get());
  for (const In& in : ins) {
    if (in.absent) {
      b.AbsentInput();
    } else {
      b.Input(in.shape, in.dtype, in.value);
    }
  }
  b.Outputs(num_out);
  gert::InferShapeContext* ctx = b.Build();
  res.status = ge::OkStatus();
  if (r->verify != nullptr) res.status = r->verify(*ctx);
  if (res.status.ok()) {
    if (r->infer_data_type != nullptr) {
      res.status = r->infer_data_type(*ctx);
    } else {
      for (size_t i = 0; i < num_out; ++i) ctx->SetOutputDataType(i, ctx->GetInputDataType(0));
    }
  }
  if (res.status.ok()) res.status = r->infer_shape(*ctx);
  for (size_t i = 0; i < num_out; ++i) {
    res.shapes.push_back(b.OutputShape(i));
    res.dtypes.push_back(b.OutputDataType(i));
  }
  return res;
}

class TestAllocator : public gert::OutputAllocator {
 public:
  ge::Status Allocate(size_t, gert::Tensor* tensor) override {
    auto t = gert::HostTensor::Create(tensor->GetDataType(), tensor->GetShape());
    if (!t.ok()) return t.status();
    held_.push_back(std::move(*t));
    tensor->SetData(held_.back().tensor().GetAddr(), held_.back().tensor().GetSize());
    return ge::OkStatus();
  }

 private:
  std::vector<gert::HostTensor> held_;
};

// Runs the host kernel; outputs start with unknown shape so the kernel
// allocates them (the test then checks the shape the kernel computed).
struct KernelRun {
  ge::Status status;
  std::vector<gert::Tensor> outs;
  TestAllocator alloc;

  std::vector<double> Values(size_t i = 0) const {
    auto v = ReadAsDoubles(outs[i]);
    EXPECT_TRUE(v.ok()) << v.status();
    return v.ok() ? *v : std::vector<double>{};
  }
  const gert::Shape& Shape(size_t i = 0) const { return outs[i].GetShape(); }
};

inline void RunKernel(const std::string& type, const std::vector<const gert::HostTensor*>& ins,
               KernelRun* run, size_t num_out = 1, const Attrs& attrs = Attrs()) {
  const ge::OpRegistrationData* r = Reg(type);
  ASSERT_NE(r, nullptr);
  const ge::OpKernelDef* k = r->FindKernel(ge::kEngineHostCpu);
  ASSERT_NE(k, nullptr);
  std::vector<const gert::Tensor*> in_ptrs;
  for (const gert::HostTensor* t : ins) in_ptrs.push_back(t == nullptr ? nullptr : &t->tensor());
  run->outs.assign(num_out, gert::Tensor(gert::Shape{-1}, ge::DT_UNDEFINED, nullptr, 0));
  std::vector<gert::Tensor*> out_ptrs;
  for (gert::Tensor& t : run->outs) out_ptrs.push_back(&t);
  gert::KernelRunContextBuilder b;
  b.Node("node_" + type, type)
      .Attrs(attrs.get())
      .Inputs(in_ptrs)
      .Outputs(out_ptrs)
      .Allocator(&run->alloc);
  run->status = k->fn(*b.Build());
}

inline gert::HostTensor Make(ge::DataType dt, const gert::Shape& shape, std::vector<double> values) {
  auto t = MakeHostTensorFromDoubles(dt, shape, values);
  EXPECT_TRUE(t.ok()) << t.status();
  return std::move(t).value();
}

inline std::vector<double> Iota(int64_t n, double start = 1.0) {
  std::vector<double> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[static_cast<size_t>(i)] = start + static_cast<double>(i);
  return v;
}

inline std::string Msg(const ge::Status& s) { return std::string(s.message()); }

}  // namespace op_test
}  // namespace ops

#endif  // OPS_COMMON_OP_TEST_HARNESS_H_
