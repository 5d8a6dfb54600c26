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

// The shared OpTester (ops/common/op_test_harness.h) on node kNodeName.
class OpTester : public op_test::OpTester {
 public:
  explicit OpTester(std::string type) : op_test::OpTester(std::move(type), kNodeName) {}
};

// The status is an error whose message names the test node and contains
// `needle`.
inline ::testing::AssertionResult IsNodeError(const ge::Status& st, const std::string& needle) {
  return op_test::ErrorContains(st, needle, kNodeName);
}

}  // namespace test
}  // namespace ops

#endif  // OPS_ARRAY_ARRAY_TEST_UTIL_H_
