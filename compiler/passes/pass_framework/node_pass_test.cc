// compiler/passes/pass_framework/node_pass_test.cc
#include "compiler/passes/pass_framework/node_pass.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using ::testing::ElementsAre;
using testing::GraphBuilder;
using ::testing::IsEmpty;
using testing::Names;
using ::testing::UnorderedElementsAre;

// Removes Identity nodes through the rewriter; can also make explicit
// requests.
class DropIdentity : public BaseNodePass {
 public:
  absl::string_view name() const override { return "DropIdentity"; }
  NodePtr extra_re_pass, extra_immediate, in_out;
  bool fail = false;

  // For the test: the rewriter outside RunImpl.
  GraphRewriter& OutsideRewriter() { return rewriter(); }

 protected:
  Status RunImpl(const NodePtr& node) override {
    if (fail) return NotSupported("cannot handle ", node->GetType());
    if (extra_re_pass != nullptr) AddRePassNode(extra_re_pass);
    if (extra_immediate != nullptr) AddImmediateRePassNode(extra_immediate);
    if (in_out != nullptr) AddRePassNodesWithInOut(in_out);
    if (node->GetType() != "Identity") return OkStatus();
    RETURN_IF_ERROR(rewriter().RemoveNode(node));
    AddRePassNode(node);  // dropped: the node is gone
    return OkStatus();
  }
};

struct Chain {
  Chain() : b("g") {
    a = b.AddNode("a", "Data", 0, 1);
    id = b.AddNode("id", "Identity", 1, 1);
    c = b.AddNode("c", "Relu", 1, 1);
    b.AddDataEdge(a, 0, id, 0);
    b.AddDataEdge(id, 0, c, 0);
  }
  GraphBuilder b;
  NodePtr a, id, c;
};

TEST(BaseNodePassTest, RewriterEditsBecomeRecords) {
  Chain t;
  DropIdentity pass;
  GE_ASSERT_OK(pass.Run(t.id));
  EXPECT_TRUE(pass.changed());
  EXPECT_THAT(Names(pass.GetNodesDeleted()), ElementsAre("id"));
  EXPECT_THAT(Names(pass.GetNodesNeedRePass()), UnorderedElementsAre("a", "c"));
  EXPECT_THAT(pass.GetNodesNeedRePassImmediately(), IsEmpty());
  EXPECT_TRUE(t.a->GetOutDataAnchor(0)->IsLinkedWith(t.c->GetInDataAnchor(0)));

  // The next Run starts from clean records.
  GE_ASSERT_OK(pass.Run(t.c));
  EXPECT_FALSE(pass.changed());
  EXPECT_THAT(pass.GetNodesDeleted(), IsEmpty());
  EXPECT_THAT(pass.GetNodesNeedRePass(), IsEmpty());
}

TEST(BaseNodePassTest, ExplicitRequestsAreRecordedOnceInOrder) {
  Chain t;
  DropIdentity pass;
  pass.extra_re_pass = t.c;
  pass.extra_immediate = t.a;
  pass.in_out = t.id;
  GE_ASSERT_OK(pass.Run(t.a));
  EXPECT_FALSE(pass.changed());  // requests alone are not changes
  EXPECT_THAT(Names(pass.GetNodesNeedRePass()), ElementsAre("c", "id", "a"));
  EXPECT_THAT(Names(pass.GetNodesNeedRePassImmediately()), ElementsAre("a"));
}

TEST(BaseNodePassTest, BadNodesAndErrors) {
  DropIdentity pass;
  GE_EXPECT_CODE(pass.Run(nullptr), ErrorCode::kParamInvalid);
  auto loose = Node::Create(testing::MakeOp("loose", "Relu", 1, 1));
  GE_ASSERT_OK(loose);
  Status st = pass.Run(*loose);
  GE_EXPECT_CODE(st, ErrorCode::kParamInvalid);
  EXPECT_EQ(st.message(), "pass 'DropIdentity': node 'loose' belongs to no graph");

  Chain t;
  pass.fail = true;
  st = pass.Run(t.c);
  GE_EXPECT_CODE(st, ErrorCode::kNotSupported);
  EXPECT_EQ(st.message(), "pass 'DropIdentity' on node 'c': cannot handle Relu");
}

TEST(BaseNodePassTest, RewriterOutsideRunImplRefusesEdits) {
  Chain t;
  DropIdentity pass;
  GE_EXPECT_CODE(pass.OutsideRewriter().RemoveNode(t.id), ErrorCode::kParamInvalid);
  EXPECT_TRUE(t.b.graph()->HasNode(t.id));
}

}  // namespace
}  // namespace ge
