// compiler/passes/testing/pass_test_util.h
//
// Test helpers (testonly) for pass tests that use the reference interpreter
// as the oracle: build a graph (runtime/reference/reference_test_util.h),
// fill its descs, copy it, run the pass, and require the same outputs.
//
//   InferDescsByRunning  runs the graph once and writes every node's actual
//                        output data types and shapes into its output descs
//                        and its consumers' input descs (a stand-in for the
//                        shape inference stage the passes rely on).
//   SameResults          runs two graphs on copies of the same inputs and
//                        compares every output exactly (count, data type,
//                        shape, bytes).
//   CountType            the number of nodes of a type in a graph and its
//                        subgraphs.
//   Snapshot             a deep copy (GraphUtils::CopyGraph) to run later as
//                        the "before" graph; fails the test on error.
//   RunNodePass          runs one node pass through GEPass, then
//                        GraphVerifier; returns "changed".
//
// Example
//   ASSERT_TRUE(passtest::InferDescsByRunning(g.graph(), inputs).ok());
//   auto before = GraphUtils::CopyGraph(g.graph());
//   ... run the pass on g.graph() ...
//   EXPECT_TRUE(passtest::SameResults(**before, *g.graph(), inputs));
#ifndef COMPILER_PASSES_TESTING_PASS_TEST_UTIL_H_
#define COMPILER_PASSES_TESTING_PASS_TEST_UTIL_H_

#include <cstddef>
#include <string>
#include <vector>

#include "compiler/passes/pass_framework/node_pass.h"
#include "graph/inc/graph/compute_graph.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ge {
namespace passtest {

Status InferDescsByRunning(const ComputeGraphPtr& graph,
                           const std::vector<gert::HostTensor>& inputs);

// Deep copies of the tensors.
std::vector<gert::HostTensor> CloneAll(const std::vector<gert::HostTensor>& tensors);

::testing::AssertionResult SameResults(const ComputeGraph& before, const ComputeGraph& after,
                                       const std::vector<gert::HostTensor>& inputs);

size_t CountType(const ComputeGraph& graph, const std::string& type);

ComputeGraphPtr Snapshot(const ComputeGraphPtr& graph);

StatusOr<bool> RunNodePass(const ComputeGraphPtr& graph, BaseNodePass& pass);

}  // namespace passtest
}  // namespace ge

#endif  // COMPILER_PASSES_TESTING_PASS_TEST_UTIL_H_
