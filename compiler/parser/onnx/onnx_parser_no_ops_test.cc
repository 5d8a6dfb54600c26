// compiler/parser/onnx/onnx_parser_no_ops_test.cc
//
// The parser linked with a single op family (elementwise): ONNX ops whose
// family is not linked are reported as unsupported, naming the missing op.
#include <string>

#include "compiler/parser/onnx/onnx_parser.h"
#include "compiler/parser/onnx/onnx_test_util.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using onnx_test::MakeNode;

TEST(OnnxParserNoOpsTest, OpsOutsideTheLinkedLibraryAreUnsupported) {
  onnx::GraphProto g;
  g.set_name("main");
  *g.add_input() = onnx_test::TensorValueInfo("x", onnx::TensorProto::FLOAT, {1, 1, 2, 2});
  *g.add_initializer() = onnx_test::FloatTensor("w", {1, 1, 1, 1}, {2});
  *g.add_node() = MakeNode("Relu", {"x"}, {"r"}, "relu");
  *g.add_node() = MakeNode("Conv", {"r", "w"}, {"c"}, "conv");
  *g.add_node() = MakeNode("MatMul", {"c", "c"}, {"m"}, "matmul");
  g.add_output()->set_name("m");
  OnnxModelParser parser;
  StatusOr<ComputeGraphPtr> graph =
      parser.ParseBytes(onnx_test::Serialize(onnx_test::MakeModel(g, 17)));
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(GetErrorCode(graph.status()), ErrorCode::kNotSupported);
  EXPECT_EQ(std::string(graph.status().message()),
            "ONNX model 'main': 2 errors:\n"
            "  graph 'main': node 'conv' (Conv): unsupported op type 'Conv' (domain ''): op Conv "
            "is not in the linked op library\n"
            "  graph 'main': node 'matmul' (MatMul): unsupported op type 'MatMul' (domain ''): op "
            "MatMul is not in the linked op library");

  // Without them the model parses.
  g.mutable_node()->DeleteSubrange(1, 2);
  g.mutable_output(0)->set_name("r");
  EXPECT_TRUE(parser.ParseBytes(onnx_test::Serialize(onnx_test::MakeModel(g, 17))).ok());
}

}  // namespace
}  // namespace ge
