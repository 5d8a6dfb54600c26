// ops/array/array_test_util.h
//
// Test helpers for the array ops: run a registered op's verify / infer data
// type / infer shape through an InferShapeContext, and its host CPU kernel
// through a KernelContext, the way an executor would (outputs preallocated
// from the inferred shape when it is fully known, otherwise allocated by the
// kernel through a TestAllocator).
//
// Example
//   OpTester t("Transpose");
//   t.Attr<std::vector<int64_t>>("perm", {1, 0}).Input(F32({2, 3}, {1, 2, 3, 4, 5, 6}));
//   ASSERT_OK(t.Run());
//   EXPECT_EQ(t.OutShape(0), (gert::Shape{3, 2}));
//   EXPECT_THAT(t.Values<float>(0), ElementsAre(1, 4, 2, 5, 3, 6));
#ifndef OPS_ARRAY_ARRAY_TEST_UTIL_H_
#define OPS_ARRAY_ARRAY_TEST_UTIL_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/common/op_test_harness.h"
#include "ops/common/op_util.h"

namespace ops {
namespace test {

inline constexpr char kNodeName[] = "test_node";

// Shared pieces (ops/common/op_test_harness.h): status macros, tensor makers
// from storage-type values, the allocator, infer inputs / results.
using op_test::AbsentIn;
using op_test::In;
using op_test::InferResult;
using op_test::TestAllocator;
using op_test::Val;
using op_test::typed::Bool;
using op_test::typed::F32;
using op_test::typed::F64;
using op_test::typed::I32;
using op_test::typed::I64;
using op_test::typed::Make;
using op_test::typed::Str;
using op_test::typed::U8;

// ------------------------------------------------------------ tensors

inline gert::HostTensor F16(const gert::Shape& s, const std::vector<float>& v) {
  std::vector<uint16_t> bits;
  for (float f : v) bits.push_back(FloatToFp16(f));
  return Make<uint16_t>(ge::DT_FLOAT16, s, bits);
}
// 0..n-1 as floats.
inline gert::HostTensor Iota(const gert::Shape& s) {
  std::vector<float> v(s.GetShapeSize());
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  return F32(s, v);
}

// ------------------------------------------------------------ infer only

// verify -> infer data type (default: input 0's) -> infer shape.
inline InferResult InferOp(const std::string& type, const ge::AttrHolder* attrs,
                           const std::vector<In>& ins, size_t n_out) {
  return op_test::InferOp(type, attrs, ins, n_out, kNodeName);
}

// ------------------------------------------------------------ full run

class OpTester {
 public:
  explicit OpTester(std::string type) : type_(std::move(type)), attrs_("attrs") {}

  template <typename T>
  OpTester& Attr(const std::string& name, T value) {
    const ge::Status st = attrs_.SetAttr(name, ge::AttrValue::CreateFrom<T>(std::move(value)));
    EXPECT_TRUE(st.ok()) << st.message();
    return *this;
  }
  OpTester& Input(gert::HostTensor t) {
    inputs_.push_back(std::make_unique<gert::HostTensor>(std::move(t)));
    return *this;
  }
  OpTester& AbsentInput() {
    inputs_.push_back(nullptr);
    return *this;
  }
  OpTester& Outputs(size_t n) {
    n_out_ = n;
    return *this;
  }
  // Output i is not requested: the kernel gets a null output tensor.
  OpTester& AbsentOutput(size_t i) {
    absent_out_.push_back(i);
    return *this;
  }
  // When false, inferred shapes are not used to preallocate outputs (the
  // kernel allocates every output).
  OpTester& Preallocate(bool p) {
    preallocate_ = p;
    return *this;
  }
  const ge::NamedAttrs& attrs() const { return attrs_; }

  // Infer with every input value known.
  ge::Status Infer() {
    std::vector<In> ins;
    for (const auto& t : inputs_) ins.push_back(t == nullptr ? AbsentIn() : Val(*t));
    infer_ = InferOp(type_, &attrs_, ins, n_out_);
    return infer_.status;
  }

  // Infer, then the host CPU kernel.
  ge::Status Run() {
    RETURN_IF_ERROR(Infer());
    const ge::OpRegistrationData* reg = ge::OpRegistry::Instance().Find(type_);
    const ge::OpKernelDef* k = reg->FindKernel(ge::kEngineHostCpu);
    if (k == nullptr) return ge::NotFound("no host CPU kernel for ", type_);
    outputs_.clear();
    out_views_.assign(n_out_, gert::Tensor());
    std::vector<gert::Tensor*> outs;
    for (size_t i = 0; i < n_out_; ++i) {
      const gert::Shape& s = infer_.shapes[i];
      out_views_[i].SetShape(s);
      out_views_[i].SetDataType(infer_.dtypes[i]);
      if (preallocate_ && !s.IsUnknownShape()) {
        ASSIGN_OR_RETURN(gert::HostTensor h, gert::HostTensor::Create(infer_.dtypes[i], s));
        auto owned = std::make_unique<gert::HostTensor>(std::move(h));
        out_views_[i].SetData(owned->tensor().GetAddr(), owned->tensor().GetSize());
        outputs_.push_back(std::move(owned));
      }
      bool absent = false;
      for (size_t a : absent_out_) absent = absent || a == i;
      outs.push_back(absent ? nullptr : &out_views_[i]);
    }
    std::vector<const gert::Tensor*> ins;
    for (const auto& t : inputs_) ins.push_back(t == nullptr ? nullptr : &t->tensor());
    gert::KernelRunContextBuilder b;
    b.Node(kNodeName, type_).Attrs(&attrs_).Inputs(ins).Outputs(outs).Allocator(&allocator_);
    return k->fn(*b.Build());
  }

  const gert::Shape& InferredShape(size_t i) const { return infer_.shapes.at(i); }
  ge::DataType InferredType(size_t i) const { return infer_.dtypes.at(i); }
  const gert::Shape& OutShape(size_t i) const { return out_views_.at(i).GetShape(); }
  ge::DataType OutType(size_t i) const { return out_views_.at(i).GetDataType(); }
  const gert::Tensor& Out(size_t i) const { return out_views_.at(i); }
  int allocations() const { return allocator_.calls(); }

  template <typename T>
  std::vector<T> Values(size_t i) const {
    const gert::Tensor& t = out_views_.at(i);
    const int64_t n = t.GetShapeSize();
    if (n <= 0) return {};
    const T* p = t.GetData<T>();
    return std::vector<T>(p, p + n);
  }
  // FLOAT16 output as floats.
  std::vector<float> HalfValues(size_t i) const {
    std::vector<float> out;
    for (uint16_t b : Values<uint16_t>(i)) out.push_back(Fp16ToFloat(b));
    return out;
  }

 private:
  std::string type_;
  ge::NamedAttrs attrs_;
  std::vector<std::unique_ptr<gert::HostTensor>> inputs_;
  size_t n_out_ = 1;
  bool preallocate_ = true;
  InferResult infer_;
  std::vector<size_t> absent_out_;
  std::vector<std::unique_ptr<gert::HostTensor>> outputs_;
  std::vector<gert::Tensor> out_views_;
  TestAllocator allocator_;
};

// The status is an error whose message names the test node and contains
// `needle`.
inline ::testing::AssertionResult IsNodeError(const ge::Status& st, const std::string& needle) {
  return op_test::ErrorContains(st, needle, kNodeName);
}

}  // namespace test
}  // namespace ops

#endif  // OPS_ARRAY_ARRAY_TEST_UTIL_H_
