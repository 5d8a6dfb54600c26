// ops/rnn/op_tester.h (testonly)
//
// The op runner of the rnn, loss, signal, text, detection, random and
// training tests. It is the shared one of ops/common/op_test_harness.h
// (OpTester, tensor makers, Near, ErrorContains), brought into ops::optest
// so that those tests keep their spelling.
//
// Example
//   OpTester t("NegativeLogLikelihoodLoss");
//   t.AttrStr("reduction", "sum")
//    .Input(F32({2, 3}, {...}))
//    .Input(I64({2}, {0, 2}));
//   ASSERT_TRUE(t.Run(1).ok());
//   std::vector<double> y = t.OutValues(0);
#ifndef OPS_RNN_OP_TESTER_H_
#define OPS_RNN_OP_TESTER_H_

#include "ops/common/op_test_harness.h"

namespace ops {
namespace optest {

using op_test::ErrorContains;
using op_test::F32;
using op_test::F64;
using op_test::I32;
using op_test::I64;
using op_test::Near;
using op_test::OpTester;
using op_test::Str;
using op_test::T;
using op_test::TestAllocator;

}  // namespace optest
}  // namespace ops

#endif  // OPS_RNN_OP_TESTER_H_
