// ops/nn/nn_test_util.h (testonly)
//
// Test driver for the nn ops. The runner itself is the shared one of
// ops/common/op_test_harness.h (OpTester: verify, infer data type, infer
// shape with known input values, output allocation, host-CPU kernel;
// tensor makers; Near / ErrorContains); this header brings it into
// ops::nn::testing and adds the nn-only Iota.
//
//   OpTester t("Conv");
//   t.AttrInts("pads", {1, 1, 1, 1})
//    .Input(F32({1, 1, 3, 3}, {...}))
//    .Input(F32({1, 1, 3, 3}, {...}));
//   ASSERT_TRUE(t.Run(1).ok());
//   EXPECT_EQ(t.Out(0).GetShape(), (gert::Shape{1, 1, 3, 3}));
//
//   // Shape-only inference (-1 dims, unknown rank):
//   ge::Status s = t.InferShapes({{-1, 3, 8, 8}, {16, 3, 3, 3}}, ge::DT_FLOAT, 1);
//   t.InferredShape(0);
#ifndef OPS_NN_NN_TEST_UTIL_H_
#define OPS_NN_NN_TEST_UTIL_H_

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/tensor.h"
#include "ops/common/op_test_harness.h"

namespace ops {
namespace nn {
namespace testing {

using op_test::ErrorContains;
using op_test::F32;
using op_test::I64;
using op_test::Near;
using op_test::OpTester;
using op_test::T;
using op_test::TestAllocator;

// start, start + step, ... (count = shape size) as `dt`.
inline gert::HostTensor Iota(ge::DataType dt, const gert::Shape& shape, double start = 0,
                             double step = 1) {
  std::vector<double> v(static_cast<size_t>(shape.GetShapeSize()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = start + step * static_cast<double>(i);
  return T(dt, shape, v);
}

}  // namespace testing
}  // namespace nn
}  // namespace ops

#endif  // OPS_NN_NN_TEST_UTIL_H_
