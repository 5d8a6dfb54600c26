// graph/src/anchor_test.cc
#include "graph/inc/graph/anchor.h"

#include <memory>
#include <string>
#include <vector>

#include "graph/inc/graph/node.h"
#include "graph/src/testing/graph_builder.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using testing::MakeOp;

NodePtr MakeNode(const std::string& name, int in, int out) {
  auto node = Node::Create(MakeOp(name, "T", in, out));
  EXPECT_TRUE(node.ok());
  return *node;
}

std::vector<Anchor*> Peers(const Anchor& a) { return a.GetPeerAnchorsPtr(); }

TEST(AnchorTest, KindsIndicesAndCasts) {
  NodePtr n = MakeNode("n", 2, 1);
  InDataAnchorPtr in1 = n->GetInDataAnchor(1);
  ASSERT_NE(in1, nullptr);
  EXPECT_EQ(in1->GetIdx(), 1);
  EXPECT_TRUE(in1->IsInData());
  EXPECT_TRUE(in1->IsTypeOf<DataAnchor>());
  EXPECT_FALSE(in1->IsTypeOf<ControlAnchor>());
  EXPECT_EQ(n->GetInControlAnchor()->GetIdx(), -1);
  EXPECT_EQ(n->GetOutControlAnchor()->GetIdx(), -1);
  AnchorPtr base = in1;
  EXPECT_NE(Anchor::DynamicAnchorCast<InDataAnchor>(base), nullptr);
  EXPECT_EQ(Anchor::DynamicAnchorCast<OutDataAnchor>(base), nullptr);
  EXPECT_EQ(Anchor::DynamicAnchorCast<InDataAnchor>(nullptr), nullptr);
  EXPECT_EQ(Anchor::DynamicAnchorPtrCast<InControlAnchor>(base.get()), nullptr);
  EXPECT_EQ(in1->GetOwnerNode(), n);
  EXPECT_EQ(in1->GetOwnerNodeBarePtr(), n.get());
  EXPECT_EQ(in1->DebugString(), "n:1(in_data)");
}

TEST(AnchorTest, DataLinkBothEnds) {
  NodePtr a = MakeNode("a", 0, 1);
  NodePtr b = MakeNode("b", 1, 0);
  NodePtr c = MakeNode("c", 1, 0);
  GE_ASSERT_OK(a->GetOutDataAnchor(0)->LinkTo(b->GetInDataAnchor(0)));
  GE_ASSERT_OK(c->GetInDataAnchor(0)->LinkFrom(a->GetOutDataAnchor(0)));
  EXPECT_EQ(b->GetInDataAnchor(0)->GetPeerOutAnchor(), a->GetOutDataAnchor(0));
  EXPECT_EQ(
      a->GetOutDataAnchor(0)->GetPeerInDataAnchorsPtr(),
      (std::vector<InDataAnchor*>{b->GetInDataAnchorBarePtr(0), c->GetInDataAnchorBarePtr(0)}));
  EXPECT_EQ(a->GetOutDataAnchor(0)->GetPeerInDataNodesSize(), 2u);
  EXPECT_TRUE(a->GetOutDataAnchor(0)->IsLinkedWith(b->GetInDataAnchor(0)));
  EXPECT_TRUE(b->GetInDataAnchor(0)->IsLinkedWith(a->GetOutDataAnchor(0)));
}

TEST(AnchorTest, SecondProducerFailsAndChangesNothing) {
  NodePtr p1 = MakeNode("p1", 0, 1);
  NodePtr p2 = MakeNode("p2", 0, 1);
  NodePtr c = MakeNode("c", 1, 0);
  GE_ASSERT_OK(p1->GetOutDataAnchor(0)->LinkTo(c->GetInDataAnchor(0)));
  const Status st = p2->GetOutDataAnchor(0)->LinkTo(c->GetInDataAnchor(0));
  GE_EXPECT_CODE(st, ErrorCode::kAlreadyExists);
  EXPECT_NE(std::string(st.message()).find("p1:0"), std::string::npos) << st;
  EXPECT_NE(std::string(st.message()).find("c:0"), std::string::npos) << st;
  EXPECT_FALSE(p2->GetOutDataAnchor(0)->IsLinked());
  EXPECT_EQ(c->GetInDataAnchor(0)->GetPeerAnchorsSize(), 1u);
  EXPECT_EQ(c->GetInDataAnchor(0)->GetPeerOutAnchor(), p1->GetOutDataAnchor(0));
  // Same through LinkFrom, through a control producer and again from p1.
  GE_EXPECT_CODE(c->GetInDataAnchor(0)->LinkFrom(p2->GetOutDataAnchor(0)),
                 ErrorCode::kAlreadyExists);
  GE_EXPECT_CODE(p2->GetOutControlAnchor()->LinkTo(c->GetInDataAnchor(0)),
                 ErrorCode::kAlreadyExists);
  GE_EXPECT_CODE(p1->GetOutDataAnchor(0)->LinkTo(c->GetInDataAnchor(0)), ErrorCode::kAlreadyExists);
  EXPECT_EQ(p1->GetOutDataAnchor(0)->GetPeerAnchorsSize(), 1u);
  EXPECT_FALSE(p2->GetOutControlAnchor()->IsLinked());
}

TEST(AnchorTest, InvalidDirectionsAndNulls) {
  NodePtr a = MakeNode("a", 1, 1);
  NodePtr b = MakeNode("b", 1, 1);
  // in -> in, out -> out via the generic entry point.
  GE_EXPECT_CODE(a->GetInDataAnchor(0)->LinkWith(b->GetInDataAnchorBarePtr(0)),
                 ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(a->GetOutDataAnchor(0)->LinkWith(b->GetOutControlAnchorBarePtr()),
                 ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(a->GetOutDataAnchor(0)->LinkWith(nullptr), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(a->GetOutDataAnchor(0)->LinkTo(InDataAnchorPtr()), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(a->GetOutDataAnchor(0)->Unlink(nullptr), ErrorCode::kParamInvalid);
  EXPECT_FALSE(a->GetInDataAnchor(0)->IsLinked());
  EXPECT_FALSE(b->GetInDataAnchor(0)->IsLinked());
  // The generic entry point orients an in anchor's link correctly.
  GE_ASSERT_OK(b->GetInDataAnchor(0)->LinkWith(a->GetOutDataAnchorBarePtr(0)));
  EXPECT_TRUE(a->GetOutDataAnchor(0)->IsLinkedWith(b->GetInDataAnchor(0)));
}

TEST(AnchorTest, CrossTypeLinks) {
  NodePtr a = MakeNode("a", 0, 1);
  NodePtr b = MakeNode("b", 1, 0);
  NodePtr c = MakeNode("c", 1, 0);
  // data -> control
  GE_ASSERT_OK(a->GetOutDataAnchor(0)->LinkTo(b->GetInControlAnchor()));
  EXPECT_EQ(a->GetOutDataAnchor(0)->GetPeerInControlAnchorsPtr(),
            std::vector<InControlAnchor*>{b->GetInControlAnchorBarePtr()});
  EXPECT_EQ(b->GetInControlAnchor()->GetPeerOutDataAnchors().size(), 1u);
  EXPECT_TRUE(b->GetInControlAnchor()->GetPeerOutControlAnchors().empty());
  // control -> data
  GE_ASSERT_OK(a->GetOutControlAnchor()->LinkTo(c->GetInDataAnchor(0)));
  EXPECT_EQ(c->GetInDataAnchor(0)->GetPeerOutAnchor(), nullptr);
  EXPECT_EQ(c->GetInDataAnchor(0)->GetPeerOutControlAnchorPtr(), a->GetOutControlAnchorBarePtr());
  EXPECT_EQ(a->GetOutControlAnchor()->GetPeerInDataAnchors().size(), 1u);
  EXPECT_TRUE(a->GetOutControlAnchor()->GetPeerInControlAnchors().empty());
}

TEST(AnchorTest, ControlLinksAnyNumberAndDuplicateIsNoOp) {
  NodePtr a = MakeNode("a", 0, 0);
  NodePtr b = MakeNode("b", 0, 0);
  NodePtr c = MakeNode("c", 0, 0);
  GE_ASSERT_OK(a->GetOutControlAnchor()->LinkTo(b->GetInControlAnchor()));
  GE_ASSERT_OK(a->GetOutControlAnchor()->LinkTo(c->GetInControlAnchor()));
  GE_ASSERT_OK(c->GetInControlAnchor()->LinkFrom(b->GetOutControlAnchor()));
  GE_ASSERT_OK(a->GetOutControlAnchor()->LinkTo(b->GetInControlAnchor()));  // again
  EXPECT_EQ(a->GetOutControlAnchor()->GetPeerAnchorsSize(), 2u);
  EXPECT_EQ(b->GetInControlAnchor()->GetPeerAnchorsSize(), 1u);
  EXPECT_EQ(c->GetInControlAnchor()->GetPeerAnchorsSize(), 2u);
  EXPECT_FALSE(c->GetInControlAnchor()->IsPeerOutAnchorsEmpty());
  EXPECT_TRUE(a->GetInControlAnchor()->IsPeerOutAnchorsEmpty());
}

TEST(AnchorTest, UnlinkBothEnds) {
  NodePtr a = MakeNode("a", 0, 1);
  NodePtr b = MakeNode("b", 1, 0);
  NodePtr c = MakeNode("c", 1, 0);
  NodePtr d = MakeNode("d", 1, 0);
  auto out = a->GetOutDataAnchor(0);
  GE_ASSERT_OK(out->LinkTo(b->GetInDataAnchor(0)));
  GE_ASSERT_OK(out->LinkTo(c->GetInDataAnchor(0)));
  GE_ASSERT_OK(out->LinkTo(d->GetInDataAnchor(0)));
  GE_ASSERT_OK(out->Unlink(c->GetInDataAnchor(0)));
  EXPECT_EQ(Peers(*out),
            (std::vector<Anchor*>{b->GetInDataAnchorBarePtr(0), d->GetInDataAnchorBarePtr(0)}));
  EXPECT_FALSE(c->GetInDataAnchor(0)->IsLinked());
  const Status again = out->Unlink(c->GetInDataAnchor(0));
  GE_EXPECT_CODE(again, ErrorCode::kNotFound);
  GE_ASSERT_OK(d->GetInDataAnchor(0)->Unlink(out));  // from the other side
  EXPECT_EQ(out->GetPeerAnchorsSize(), 1u);
  out->UnlinkAll();
  EXPECT_FALSE(out->IsLinked());
  EXPECT_FALSE(b->GetInDataAnchor(0)->IsLinked());
}

TEST(AnchorTest, InsertPutsANodeBetweenKeepingPositions) {
  NodePtr a = MakeNode("a", 0, 1);
  NodePtr b = MakeNode("b", 1, 0);
  NodePtr c = MakeNode("c", 1, 0);
  NodePtr mid = MakeNode("mid", 1, 1);
  auto out = a->GetOutDataAnchor(0);
  GE_ASSERT_OK(out->LinkTo(b->GetInDataAnchor(0)));
  GE_ASSERT_OK(out->LinkTo(c->GetInDataAnchor(0)));
  GE_ASSERT_OK(
      out->Insert(b->GetInDataAnchor(0), mid->GetInDataAnchor(0), mid->GetOutDataAnchor(0)));
  // a:0 -> [mid:0, c:0]; mid:0 -> b:0
  EXPECT_EQ(Peers(*out),
            (std::vector<Anchor*>{mid->GetInDataAnchorBarePtr(0), c->GetInDataAnchorBarePtr(0)}));
  EXPECT_EQ(mid->GetInDataAnchor(0)->GetPeerOutAnchor(), out);
  EXPECT_EQ(b->GetInDataAnchor(0)->GetPeerOutAnchor(), mid->GetOutDataAnchor(0));
}

TEST(AnchorTest, InsertFailuresChangeNothing) {
  NodePtr a = MakeNode("a", 0, 1);
  NodePtr b = MakeNode("b", 1, 0);
  NodePtr mid = MakeNode("mid", 1, 1);
  NodePtr other = MakeNode("other", 0, 1);
  auto out = a->GetOutDataAnchor(0);
  GE_ASSERT_OK(out->LinkTo(b->GetInDataAnchor(0)));
  // old peer not linked
  GE_EXPECT_CODE(
      out->Insert(mid->GetInDataAnchor(0), mid->GetInDataAnchor(0), mid->GetOutDataAnchor(0)),
      ErrorCode::kNotFound);
  // wrong kinds
  GE_EXPECT_CODE(
      out->Insert(b->GetInDataAnchor(0), mid->GetOutDataAnchor(0), mid->GetOutDataAnchor(0)),
      ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(
      out->Insert(b->GetInDataAnchor(0), mid->GetInDataAnchor(0), mid->GetInDataAnchor(0)),
      ErrorCode::kParamInvalid);
  // first peer already has a producer
  GE_ASSERT_OK(other->GetOutDataAnchor(0)->LinkTo(mid->GetInDataAnchor(0)));
  GE_EXPECT_CODE(
      out->Insert(b->GetInDataAnchor(0), mid->GetInDataAnchor(0), mid->GetOutDataAnchor(0)),
      ErrorCode::kAlreadyExists);
  GE_EXPECT_CODE(out->Insert(nullptr, nullptr, nullptr), ErrorCode::kParamInvalid);
  EXPECT_EQ(b->GetInDataAnchor(0)->GetPeerOutAnchor(), out);
  EXPECT_EQ(out->GetPeerAnchorsSize(), 1u);
  EXPECT_FALSE(mid->GetOutDataAnchor(0)->IsLinked());
  EXPECT_EQ(mid->GetInDataAnchor(0)->GetPeerOutAnchor(), other->GetOutDataAnchor(0));
}

TEST(AnchorTest, ReplacePeerKeepsPositionOnThisSide) {
  NodePtr a = MakeNode("a", 0, 1);
  NodePtr b = MakeNode("b", 1, 0);
  NodePtr c = MakeNode("c", 1, 0);
  NodePtr d = MakeNode("d", 1, 0);
  auto out = a->GetOutDataAnchor(0);
  GE_ASSERT_OK(out->LinkTo(b->GetInDataAnchor(0)));
  GE_ASSERT_OK(out->LinkTo(c->GetInDataAnchor(0)));
  GE_ASSERT_OK(out->ReplacePeer(b->GetInDataAnchor(0), d->GetInDataAnchor(0)));
  EXPECT_EQ(Peers(*out),
            (std::vector<Anchor*>{d->GetInDataAnchorBarePtr(0), c->GetInDataAnchorBarePtr(0)}));
  EXPECT_FALSE(b->GetInDataAnchor(0)->IsLinked());
  EXPECT_EQ(d->GetInDataAnchor(0)->GetPeerOutAnchor(), out);
  // Failures: not linked, kind mismatch, target already fed.
  GE_EXPECT_CODE(out->ReplacePeer(b->GetInDataAnchor(0), d->GetInDataAnchor(0)),
                 ErrorCode::kNotFound);
  GE_EXPECT_CODE(out->ReplacePeer(c->GetInDataAnchor(0), b->GetInControlAnchor()),
                 ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(out->ReplacePeer(c->GetInDataAnchor(0), d->GetInDataAnchor(0)),
                 ErrorCode::kAlreadyExists);
  EXPECT_EQ(Peers(*out),
            (std::vector<Anchor*>{d->GetInDataAnchorBarePtr(0), c->GetInDataAnchorBarePtr(0)}));
  // Replacing the producer of an input (seen from the input side).
  NodePtr z = MakeNode("z", 0, 1);
  GE_ASSERT_OK(c->GetInDataAnchor(0)->ReplacePeer(out, z->GetOutDataAnchor(0)));
  EXPECT_EQ(c->GetInDataAnchor(0)->GetPeerOutAnchor(), z->GetOutDataAnchor(0));
  EXPECT_EQ(Peers(*out), std::vector<Anchor*>{d->GetInDataAnchorBarePtr(0)});
}

TEST(AnchorTest, AnchorPointerKeepsNodeAlive) {
  InDataAnchorPtr in;
  std::weak_ptr<Node> weak;
  {
    NodePtr n = MakeNode("n", 1, 0);
    weak = n;
    in = n->GetInDataAnchor(0);
  }
  EXPECT_FALSE(weak.expired());
  EXPECT_EQ(in->GetOwnerNode()->GetName(), "n");
  in.reset();
  EXPECT_TRUE(weak.expired());
}

TEST(AnchorTest, DestroyingANodeUnlinksItsPeers) {
  NodePtr a = MakeNode("a", 0, 1);
  NodePtr c = MakeNode("c", 1, 0);
  {
    NodePtr b = MakeNode("b", 1, 1);
    GE_ASSERT_OK(a->GetOutDataAnchor(0)->LinkTo(b->GetInDataAnchor(0)));
    GE_ASSERT_OK(b->GetOutDataAnchor(0)->LinkTo(c->GetInDataAnchor(0)));
    GE_ASSERT_OK(b->GetOutControlAnchor()->LinkTo(a->GetInControlAnchor()));
  }
  EXPECT_FALSE(a->GetOutDataAnchor(0)->IsLinked());
  EXPECT_FALSE(c->GetInDataAnchor(0)->IsLinked());
  EXPECT_FALSE(a->GetInControlAnchor()->IsLinked());
}

TEST(AnchorTest, LargeFanOutGrowsAndShrinks) {
  NodePtr a = MakeNode("a", 0, 1);
  std::vector<NodePtr> consumers;
  for (int i = 0; i < 100; ++i) {
    consumers.push_back(MakeNode("c" + std::to_string(i), 1, 0));
    GE_ASSERT_OK(a->GetOutDataAnchor(0)->LinkTo(consumers.back()->GetInDataAnchor(0)));
  }
  ASSERT_EQ(a->GetOutDataAnchor(0)->GetPeerAnchorsSize(), 100u);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(a->GetOutDataAnchor(0)->PeerAnchors()[i], consumers[i]->GetInDataAnchorBarePtr(0));
  }
  for (int i = 0; i < 100; i += 2) {
    GE_ASSERT_OK(a->GetOutDataAnchor(0)->Unlink(consumers[i]->GetInDataAnchor(0)));
  }
  EXPECT_EQ(a->GetOutDataAnchor(0)->GetPeerAnchorsSize(), 50u);
  EXPECT_EQ(a->GetOutDataAnchor(0)->PeerAnchors()[0], consumers[1]->GetInDataAnchorBarePtr(0));
}

TEST(AnchorTest, PeersMoveInlineAndBackKeepingOrder) {
  NodePtr a = MakeNode("a", 0, 1);
  NodePtr b = MakeNode("b", 1, 0);
  NodePtr c = MakeNode("c", 1, 0);
  NodePtr d = MakeNode("d", 1, 0);
  OutDataAnchor* out = a->GetOutDataAnchorBarePtr(0);
  out->SetStatus(ANCHOR_RESERVED);
  GE_ASSERT_OK(out->LinkTo(b->GetInDataAnchorBarePtr(0)));
  GE_ASSERT_OK(out->LinkTo(c->GetInDataAnchorBarePtr(0)));
  GE_ASSERT_OK(out->Unlink(b->GetInDataAnchorBarePtr(0)));  // two -> one: inline again
  ASSERT_EQ(out->GetPeerAnchorsSize(), 1u);
  EXPECT_EQ(out->PeerAnchors()[0], c->GetInDataAnchorBarePtr(0));
  GE_ASSERT_OK(out->LinkTo(d->GetInDataAnchorBarePtr(0)));
  GE_ASSERT_OK(out->LinkTo(b->GetInDataAnchorBarePtr(0)));
  ASSERT_EQ(out->GetPeerAnchorsSize(), 3u);
  EXPECT_EQ(out->PeerAnchors()[0], c->GetInDataAnchorBarePtr(0));
  EXPECT_EQ(out->PeerAnchors()[1], d->GetInDataAnchorBarePtr(0));
  EXPECT_EQ(out->PeerAnchors()[2], b->GetInDataAnchorBarePtr(0));
  GE_ASSERT_OK(out->Unlink(c->GetInDataAnchorBarePtr(0)));
  GE_ASSERT_OK(out->Unlink(b->GetInDataAnchorBarePtr(0)));
  ASSERT_EQ(out->GetPeerAnchorsSize(), 1u);
  EXPECT_EQ(out->PeerAnchors()[0], d->GetInDataAnchorBarePtr(0));
  EXPECT_EQ(d->GetInDataAnchorBarePtr(0)->GetPeerOutAnchorPtr(), out);
  // The packed index, kind and status are untouched by the peer changes.
  EXPECT_EQ(out->GetStatus(), ANCHOR_RESERVED);
  EXPECT_EQ(out->GetIdx(), 0);
  EXPECT_TRUE(out->IsOutData());
  EXPECT_EQ(a->GetOutControlAnchorBarePtr()->GetIdx(), -1);
}

}  // namespace
}  // namespace ge
