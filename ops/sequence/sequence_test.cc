// ops/sequence/sequence_test.cc
//
// Sequence and optional ops: infer shape (with and without known values) and
// kernels, including the ONNX cases test_sequence_insert_at_back / _front,
// test_sequence_map_* and test_optional_* re-enacted by hand.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/gert/tensor.h"
#include "ops/control/control_test_util.h"

namespace ops {
namespace test {
namespace {

using ::testing::ElementsAre;

const gert::Shape kUnknownRank{ge::UNKNOWN_RANK};

// The test_sequence_insert input: [[1,2,3,4], [5,6,7], [8,9]].
gert::HostTensor Seq3() {
  return SeqOf(I64({4}, {1, 2, 3, 4}), I64({3}, {5, 6, 7}), I64({2}, {8, 9}));
}

std::vector<int64_t> I64At(absl::Span<const gert::HostTensor> e, size_t k) {
  return ValuesOf<int64_t>(e[k].tensor());
}

// ------------------------------------------------------------ construct / empty

TEST(SequenceConstructTest, InferAndKernel) {
  OpRunner r("SequenceConstruct");
  r.Input(F32({2}, {1, 2})).Input(F32({}, {3}));
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.InferredShape(0), (gert::Shape{2}));
  EXPECT_EQ(r.InferredType(0), ge::DT_VARIANT);
  absl::Span<const gert::HostTensor> e = r.Elements(0);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].GetShape(), (gert::Shape{2}));
  EXPECT_THAT(ValuesOf<float>(e[0].tensor()), ElementsAre(1, 2));
  EXPECT_EQ(e[1].GetShape(), gert::Shape());
  EXPECT_THAT(ValuesOf<float>(e[1].tensor()), ElementsAre(3));
}

TEST(SequenceConstructTest, StringsAreCopied) {
  OpRunner r("SequenceConstruct");
  r.Input(Str({2}, {"a", std::string(40, 'b')}));
  ASSERT_OK(r.Run());
  ASSERT_EQ(r.Elements(0).size(), 1u);
  EXPECT_THAT(ValuesOf<std::string>(r.Elements(0)[0].tensor()),
              ElementsAre("a", std::string(40, 'b')));
}

TEST(SequenceConstructTest, MixedDtypesAreRejected) {
  OpRunner r("SequenceConstruct");
  r.Input(F32({1}, {1})).Input(I64({1}, {1}));
  const ge::Status st = r.Infer();
  EXPECT_TRUE(IsNodeError(st, "input 1 is DT_INT64 but input 0 is DT_FLOAT"));
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kTypeMismatch);
}

TEST(SequenceEmptyTest, EmptySequenceAndDtypeCheck) {
  OpRunner r("SequenceEmpty");
  r.Attr<ge::DataType>("dtype", ge::DT_INT64);
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.InferredShape(0), (gert::Shape{0}));
  EXPECT_EQ(r.OutType(0), ge::DT_VARIANT);
  EXPECT_TRUE(r.Elements(0).empty());

  OpRunner bad("SequenceEmpty");
  bad.Attr<ge::DataType>("dtype", ge::DT_VARIANT);
  EXPECT_TRUE(IsNodeError(bad.Infer(), "DT_VARIANT"));
}

// ------------------------------------------------------------ at / insert / erase / length

TEST(SequenceAtTest, InferUnknownWithoutValue) {
  OpRunner r("SequenceAt");
  r.Input(Seq3()).Input(I64({}, {1})).InferWithValues(false);
  ASSERT_OK(r.Infer());
  EXPECT_EQ(r.InferredShape(0), kUnknownRank);
  EXPECT_EQ(r.InferredType(0), ge::DT_UNDEFINED);
}

TEST(SequenceAtTest, InferExactWithValueAndKernel) {
  OpRunner r("SequenceAt");
  r.Input(Seq3()).Input(I32({}, {-1}));
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.InferredShape(0), (gert::Shape{2}));
  EXPECT_EQ(r.InferredType(0), ge::DT_INT64);
  EXPECT_THAT(r.Values<int64_t>(0), ElementsAre(8, 9));
}

TEST(SequenceAtTest, KernelAllocatesWhenShapeUnknown) {
  OpRunner r("SequenceAt");
  r.Input(Seq3()).Input(I64({}, {0})).InferWithValues(false);
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.allocations(), 1);
  EXPECT_EQ(r.OutShape(0), (gert::Shape{4}));
  EXPECT_EQ(r.OutType(0), ge::DT_INT64);
  EXPECT_THAT(r.Values<int64_t>(0), ElementsAre(1, 2, 3, 4));
}

TEST(SequenceAtTest, PositionErrors) {
  OpRunner r("SequenceAt");
  r.Input(Seq3()).Input(I64({}, {3}));
  const ge::Status st = r.Infer();
  EXPECT_TRUE(IsNodeError(st, "position 3 is out of range [-3, 2]"));
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kOutOfRange);

  OpRunner vec("SequenceAt");
  vec.Input(Seq3()).Input(I64({2}, {0, 1}));
  EXPECT_TRUE(IsNodeError(vec.Infer(), "must be a scalar"));

  OpRunner not_seq("SequenceAt");
  not_seq.Input(F32({2, 2}, {1, 2, 3, 4})).Input(I64({}, {0}));
  EXPECT_TRUE(IsNodeError(not_seq.Infer(), "must be a sequence"));
}

TEST(SequenceInsertTest, AtBackAndFront) {
  OpRunner back("SequenceInsert");
  back.Input(Seq3()).Input(I64({3}, {10, 11, 12}));
  ASSERT_OK(back.Run());
  EXPECT_EQ(back.InferredShape(0), (gert::Shape{4}));
  absl::Span<const gert::HostTensor> b = back.Elements(0);
  ASSERT_EQ(b.size(), 4u);
  EXPECT_THAT(I64At(b, 0), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(I64At(b, 3), ElementsAre(10, 11, 12));

  OpRunner front("SequenceInsert");
  front.Input(Seq3()).Input(I64({3}, {-2, -1, 0})).Input(I64({1}, {0}));
  ASSERT_OK(front.Run());
  absl::Span<const gert::HostTensor> f = front.Elements(0);
  ASSERT_EQ(f.size(), 4u);
  EXPECT_THAT(I64At(f, 0), ElementsAre(-2, -1, 0));
  EXPECT_THAT(I64At(f, 1), ElementsAre(1, 2, 3, 4));
  EXPECT_THAT(I64At(f, 3), ElementsAre(8, 9));

  // position -1 inserts before the last element; n (= 3) appends.
  OpRunner mid("SequenceInsert");
  mid.Input(Seq3()).Input(I64({1}, {0})).Input(I32({}, {-1}));
  ASSERT_OK(mid.Run());
  EXPECT_THAT(I64At(mid.Elements(0), 2), ElementsAre(0));
  EXPECT_THAT(I64At(mid.Elements(0), 3), ElementsAre(8, 9));
}

TEST(SequenceInsertTest, IntoEmptyAndErrors) {
  OpRunner empty("SequenceInsert");
  empty.Input(Seq({})).Input(F32({}, {1}));
  ASSERT_OK(empty.Run());
  ASSERT_EQ(empty.Elements(0).size(), 1u);

  OpRunner type("SequenceInsert");
  type.Input(Seq3()).Input(F32({1}, {1}));
  EXPECT_TRUE(IsNodeError(type.Infer(),
                          "input 1 (tensor) is DT_FLOAT but the sequence holds "
                          "DT_INT64"));
  OpRunner pos("SequenceInsert");
  pos.Input(Seq3()).Input(I64({1}, {1})).Input(I64({}, {4}));
  EXPECT_TRUE(IsNodeError(pos.Infer(), "position 4 is out of range [-3, 3]"));

  // The kernel checks the same without infer.
  OpRunner kernel_only("SequenceInsert");
  kernel_only.Input(Seq3()).Input(F32({1}, {1})).InferWithValues(false);
  ASSERT_OK(kernel_only.Infer());
  const ge::OpKernelDef* k =
      ge::OpRegistry::Instance().Find("SequenceInsert")->FindKernel(ge::kEngineHostCpu);
  EXPECT_TRUE(IsNodeError(kernel_only.RunKernelOnly(k->fn), "but the sequence holds"));
}

TEST(SequenceEraseTest, DefaultLastAndPosition) {
  OpRunner last("SequenceErase");
  last.Input(Seq3());
  ASSERT_OK(last.Run());
  EXPECT_EQ(last.InferredShape(0), (gert::Shape{2}));
  ASSERT_EQ(last.Elements(0).size(), 2u);
  EXPECT_THAT(I64At(last.Elements(0), 1), ElementsAre(5, 6, 7));

  OpRunner first("SequenceErase");
  first.Input(Seq3()).Input(I64({}, {-3}));
  ASSERT_OK(first.Run());
  EXPECT_THAT(I64At(first.Elements(0), 0), ElementsAre(5, 6, 7));

  OpRunner empty("SequenceErase");
  empty.Input(Seq({}));
  EXPECT_TRUE(IsNodeError(empty.Infer(), "empty sequence"));
}

TEST(SequenceLengthTest, Length) {
  OpRunner r("SequenceLength");
  r.Input(Seq3());
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.InferredShape(0), gert::Shape());
  EXPECT_EQ(r.InferredType(0), ge::DT_INT64);
  EXPECT_THAT(r.Values<int64_t>(0), ElementsAre(3));
}

// ------------------------------------------------------------ split / concat

TEST(SplitToSequenceTest, NoSplitKeepdims) {
  OpRunner keep("SplitToSequence");
  keep.Input(F32({3, 2}, {1, 2, 3, 4, 5, 6}));
  ASSERT_OK(keep.Run());
  EXPECT_EQ(keep.InferredShape(0), (gert::Shape{3}));
  absl::Span<const gert::HostTensor> e = keep.Elements(0);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_EQ(e[1].GetShape(), (gert::Shape{1, 2}));
  EXPECT_THAT(ValuesOf<float>(e[1].tensor()), ElementsAre(3, 4));

  OpRunner drop("SplitToSequence");
  drop.Attr<int64_t>("axis", 1).Attr<int64_t>("keepdims", 0).Input(F32({3, 2}, {1, 2, 3, 4, 5, 6}));
  ASSERT_OK(drop.Run());
  ASSERT_EQ(drop.Elements(0).size(), 2u);
  EXPECT_EQ(drop.Elements(0)[1].GetShape(), (gert::Shape{3}));
  EXPECT_THAT(ValuesOf<float>(drop.Elements(0)[1].tensor()), ElementsAre(2, 4, 6));
}

TEST(SplitToSequenceTest, ScalarAndListSplit) {
  std::vector<float> v(10);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i);
  OpRunner scalar("SplitToSequence");
  scalar.Attr<int64_t>("axis", -1).Input(F32({2, 5}, v)).Input(I64({}, {2}));
  ASSERT_OK(scalar.Run());
  EXPECT_EQ(scalar.InferredShape(0), (gert::Shape{3}));
  absl::Span<const gert::HostTensor> s = scalar.Elements(0);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[2].GetShape(), (gert::Shape{2, 1}));  // the last chunk is smaller
  EXPECT_THAT(ValuesOf<float>(s[2].tensor()), ElementsAre(4, 9));
  EXPECT_THAT(ValuesOf<float>(s[0].tensor()), ElementsAre(0, 1, 5, 6));

  OpRunner list("SplitToSequence");
  list.Attr<int64_t>("axis", 1).Input(F32({2, 5}, v)).Input(I32({2}, {1, 4}));
  ASSERT_OK(list.Run());
  ASSERT_EQ(list.Elements(0).size(), 2u);
  EXPECT_EQ(list.Elements(0)[1].GetShape(), (gert::Shape{2, 4}));
  EXPECT_THAT(ValuesOf<float>(list.Elements(0)[1].tensor()), ElementsAre(1, 2, 3, 4, 6, 7, 8, 9));
}

TEST(SplitToSequenceTest, InferCountsWithoutValues) {
  OpRunner list("SplitToSequence");
  list.Input(F32({4}, {1, 2, 3, 4})).Input(I64({2}, {1, 3})).InferWithValues(false);
  ASSERT_OK(list.Infer());
  EXPECT_EQ(list.InferredShape(0), (gert::Shape{2}));

  OpRunner scalar("SplitToSequence");
  scalar.Input(F32({4}, {1, 2, 3, 4})).Input(I64({}, {3})).InferWithValues(false);
  ASSERT_OK(scalar.Infer());
  EXPECT_EQ(scalar.InferredShape(0), (gert::Shape{-1}));
}

TEST(SplitToSequenceTest, Errors) {
  OpRunner sum("SplitToSequence");
  sum.Input(F32({4}, {1, 2, 3, 4})).Input(I64({2}, {1, 2}));
  EXPECT_TRUE(IsNodeError(sum.Infer(), "sums to 3 but the dim being split is 4"));
  OpRunner neg("SplitToSequence");
  neg.Input(F32({4}, {1, 2, 3, 4})).Input(I64({}, {0}));
  EXPECT_TRUE(IsNodeError(neg.Infer(), "split[0] is 0"));
  OpRunner axis("SplitToSequence");
  axis.Attr<int64_t>("axis", 1).Input(F32({4}, {1, 2, 3, 4}));
  EXPECT_TRUE(IsNodeError(axis.Infer(), "axis 1 is out of range"));
  OpRunner scalar_in("SplitToSequence");
  scalar_in.Input(F32({}, {1}));
  EXPECT_TRUE(IsNodeError(scalar_in.Infer(), "rank >= 1"));
}

TEST(ConcatFromSequenceTest, ConcatAndStack) {
  OpRunner cat("ConcatFromSequence");
  cat.Attr<int64_t>("axis", 0).Input(SeqOf(F32({1, 2}, {1, 2}), F32({2, 2}, {3, 4, 5, 6})));
  ASSERT_OK(cat.Run());
  EXPECT_EQ(cat.InferredShape(0), (gert::Shape{3, 2}));
  EXPECT_EQ(cat.InferredType(0), ge::DT_FLOAT);
  EXPECT_THAT(cat.Values<float>(0), ElementsAre(1, 2, 3, 4, 5, 6));

  OpRunner cat1("ConcatFromSequence");
  cat1.Attr<int64_t>("axis", 1).Input(SeqOf(F32({2, 1}, {1, 2}), F32({2, 2}, {3, 4, 5, 6})));
  ASSERT_OK(cat1.Run());
  EXPECT_EQ(cat1.OutShape(0), (gert::Shape{2, 3}));
  EXPECT_THAT(cat1.Values<float>(0), ElementsAre(1, 3, 4, 2, 5, 6));

  OpRunner stack("ConcatFromSequence");
  stack.Attr<int64_t>("axis", -1)
      .Attr<int64_t>("new_axis", 1)
      .Input(SeqOf(I64({2}, {1, 2}), I64({2}, {3, 4}), I64({2}, {5, 6})));
  ASSERT_OK(stack.Run());
  EXPECT_EQ(stack.OutShape(0), (gert::Shape{2, 3}));
  EXPECT_THAT(stack.Values<int64_t>(0), ElementsAre(1, 3, 5, 2, 4, 6));

  OpRunner scalars("ConcatFromSequence");
  scalars.Attr<int64_t>("axis", 0)
      .Attr<int64_t>("new_axis", 1)
      .Input(SeqOf(Str({}, {"x"}), Str({}, {"y"})));
  ASSERT_OK(scalars.Run());
  EXPECT_EQ(scalars.OutShape(0), (gert::Shape{2}));
  EXPECT_THAT(scalars.Values<std::string>(0), ElementsAre("x", "y"));
}

TEST(ConcatFromSequenceTest, InferUnknownWithoutValue) {
  OpRunner r("ConcatFromSequence");
  r.Attr<int64_t>("axis", 0).Input(SeqOf(F32({1}, {1}))).InferWithValues(false);
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.InferredShape(0), kUnknownRank);
  EXPECT_EQ(r.InferredType(0), ge::DT_UNDEFINED);
  EXPECT_EQ(r.OutShape(0), (gert::Shape{1}));
  EXPECT_THAT(r.Values<float>(0), ElementsAre(1));
}

TEST(ConcatFromSequenceTest, Errors) {
  OpRunner shapes("ConcatFromSequence");
  shapes.Attr<int64_t>("axis", 0).Input(SeqOf(F32({1, 2}, {1, 2}), F32({1, 3}, {1, 2, 3})));
  EXPECT_TRUE(IsNodeError(shapes.Infer(), "element 1 has shape [1,3], element 0 has [1,2]"));
  OpRunner types("ConcatFromSequence");
  types.Attr<int64_t>("axis", 0).Input(SeqOf(F32({1}, {1}), I64({1}, {1})));
  EXPECT_TRUE(IsNodeError(types.Infer(), "element 1 is DT_INT64"));
  OpRunner empty("ConcatFromSequence");
  empty.Attr<int64_t>("axis", 0).Input(Seq({}));
  EXPECT_TRUE(IsNodeError(empty.Infer(), "empty sequence"));
  OpRunner no_axis("ConcatFromSequence");
  no_axis.Input(SeqOf(F32({1}, {1})));
  EXPECT_TRUE(IsNodeError(no_axis.Infer(), "'axis' not found"));
  OpRunner scalar_cat("ConcatFromSequence");
  scalar_cat.Attr<int64_t>("axis", 0).Input(SeqOf(F32({}, {1})));
  EXPECT_TRUE(IsNodeError(scalar_cat.Infer(), "out of range"));
}

// ------------------------------------------------------------ SequenceMap

// body(x, y) = x + y (elementwise, y broadcast when it has one element).
FakeSubgraphRunner AddBody() {
  return FakeSubgraphRunner([](size_t index, absl::Span<const gert::Tensor* const> in,
                               std::vector<gert::HostTensor>* outs) {
    if (index != 0 || in.size() != 2) return ge::ParamInvalid("bad body call");
    std::vector<float> x = ValuesOf<float>(*in[0]);
    const std::vector<float> y = ValuesOf<float>(*in[1]);
    if (y.size() != x.size()) return ge::ParamInvalid("size mismatch");
    for (size_t i = 0; i < x.size(); ++i) x[i] += y[i];
    outs->push_back(F32(in[0]->GetShape(), x));
    return ge::OkStatus();
  });
}

TEST(SequenceMapTest, OneSequenceOneTensor) {
  FakeSubgraphRunner body = AddBody();
  OpRunner r("SequenceMap");
  r.Input(SeqOf(F32({2}, {1, 2}), F32({2}, {3, 4}), F32({2}, {5, 6})))
      .Input(F32({2}, {10, 20}))
      .Subgraphs(&body);
  ASSERT_OK(r.Run());
  EXPECT_EQ(r.InferredShape(0), (gert::Shape{3}));
  EXPECT_EQ(r.InferredType(0), ge::DT_VARIANT);
  absl::Span<const gert::HostTensor> e = r.Elements(0);
  ASSERT_EQ(e.size(), 3u);
  EXPECT_THAT(ValuesOf<float>(e[0].tensor()), ElementsAre(11, 22));
  EXPECT_THAT(ValuesOf<float>(e[2].tensor()), ElementsAre(15, 26));
  EXPECT_EQ(body.calls().size(), 3u);
}

TEST(SequenceMapTest, TwoSequencesOfDifferentShapes) {
  FakeSubgraphRunner body = AddBody();
  OpRunner r("SequenceMap");
  r.Input(SeqOf(F32({1}, {1}), F32({3}, {1, 2, 3})))
      .Input(SeqOf(F32({1}, {5}), F32({3}, {10, 10, 10})))
      .Subgraphs(&body);
  ASSERT_OK(r.Run());
  ASSERT_EQ(r.Elements(0).size(), 2u);
  EXPECT_THAT(ValuesOf<float>(r.Elements(0)[0].tensor()), ElementsAre(6));
  EXPECT_THAT(ValuesOf<float>(r.Elements(0)[1].tensor()), ElementsAre(11, 12, 13));
}

TEST(SequenceMapTest, ExtractShapesTwoOutputs) {
  // test_sequence_map_extract_shapes plus a second identity output.
  FakeSubgraphRunner body(
      [](size_t, absl::Span<const gert::Tensor* const> in, std::vector<gert::HostTensor>* outs) {
        const gert::Shape& s = in[0]->GetShape();
        outs->push_back(I64({static_cast<int64_t>(s.GetDimNum())}, s.ToVector()));
        outs->push_back(CopyOf(in[0]));
        return ge::OkStatus();
      });
  OpRunner r("SequenceMap");
  r.Input(SeqOf(F32({1, 2}, {0, 0}), F32({3}, {0, 0, 0}))).Outputs(2).Subgraphs(&body);
  ASSERT_OK(r.Run());
  EXPECT_THAT(ValuesOf<int64_t>(r.Elements(0)[0].tensor()), ElementsAre(1, 2));
  EXPECT_THAT(ValuesOf<int64_t>(r.Elements(0)[1].tensor()), ElementsAre(3));
  EXPECT_EQ(r.Elements(1)[1].GetShape(), (gert::Shape{3}));
}

TEST(SequenceMapTest, Errors) {
  FakeSubgraphRunner body = AddBody();
  OpRunner lens("SequenceMap");
  lens.Input(SeqOf(F32({1}, {1}))).Input(SeqOf(F32({1}, {1}), F32({1}, {2}))).Subgraphs(&body);
  EXPECT_TRUE(IsNodeError(lens.Infer(), "sequence of length 2 but input 0"));

  OpRunner not_seq("SequenceMap");
  not_seq.Input(F32({1}, {1})).Subgraphs(&body);
  EXPECT_TRUE(IsNodeError(not_seq.Infer(), "must be a sequence"));

  FakeSubgraphRunner mixed(
      [](size_t, absl::Span<const gert::Tensor* const> in, std::vector<gert::HostTensor>* outs) {
        const float v = in[0]->GetData<float>()[0];
        outs->push_back(v > 1 ? I64({}, {1}) : F32({}, {1}));
        return ge::OkStatus();
      });
  OpRunner types("SequenceMap");
  types.Input(SeqOf(F32({}, {1}), F32({}, {2}))).Subgraphs(&mixed);
  EXPECT_TRUE(IsNodeError(types.Run(), "for element 1 is DT_INT64"));
}

// ------------------------------------------------------------ optional

TEST(OptionalTest, WrapsInputOrIsEmpty) {
  OpRunner with("Optional");
  with.Input(F32({2}, {1, 2}));
  ASSERT_OK(with.Run());
  EXPECT_EQ(with.InferredShape(0), (gert::Shape{1}));
  EXPECT_EQ(with.OutType(0), ge::DT_VARIANT);
  ASSERT_EQ(with.Elements(0).size(), 1u);
  EXPECT_THAT(ValuesOf<float>(with.Elements(0)[0].tensor()), ElementsAre(1, 2));

  OpRunner seq("Optional");
  seq.Input(SeqOf(F32({}, {7})));
  ASSERT_OK(seq.Run());
  const gert::HostTensor& inner = seq.Elements(0)[0];
  EXPECT_EQ(inner.GetDataType(), ge::DT_VARIANT);
  EXPECT_THAT(ValuesOf<float>(ElementsOf(inner.tensor())[0].tensor()), ElementsAre(7));

  OpRunner empty("Optional");
  empty.Attr<ge::DataType>("type", ge::DT_FLOAT).AbsentInput();
  ASSERT_OK(empty.Run());
  EXPECT_EQ(empty.OutShape(0), (gert::Shape{0}));
  EXPECT_TRUE(empty.Elements(0).empty());

  OpRunner untyped("Optional");
  untyped.AbsentInput();
  EXPECT_TRUE(IsNodeError(untyped.Infer(), "needs attribute type"));
}

TEST(OptionalHasElementTest, Cases) {
  struct Case {
    const char* name;
    gert::HostTensor input;  // default: absent
    bool expected;
  };
  std::vector<Case> cases;
  cases.push_back({"optional tensor", Opt(F32({4}, {1, 2, 3, 4})), true});
  cases.push_back({"empty optional", EmptyOpt(), false});
  cases.push_back({"plain tensor", I32({}, {0}), true});
  cases.push_back({"sequence of 2", SeqOf(F32({}, {1}), F32({}, {2})), true});
  cases.push_back({"absent", gert::HostTensor(), false});
  for (Case& c : cases) {
    OpRunner r("OptionalHasElement");
    if (c.input.HasStorage()) {
      r.Input(std::move(c.input));
    } else {
      r.AbsentInput();
    }
    ASSERT_OK(r.Run());
    EXPECT_EQ(r.InferredShape(0), gert::Shape()) << c.name;
    EXPECT_EQ(r.InferredType(0), ge::DT_BOOL) << c.name;
    ASSERT_EQ(r.Values<bool>(0).size(), 1u) << c.name;
    EXPECT_EQ(r.Values<bool>(0)[0], c.expected) << c.name;
  }
}

TEST(OptionalGetElementTest, TensorAndSequenceElements) {
  OpRunner t("OptionalGetElement");
  t.Input(Opt(F32({4}, {1, 2, 3, 4})));
  ASSERT_OK(t.Run());
  EXPECT_EQ(t.InferredShape(0), (gert::Shape{4}));
  EXPECT_EQ(t.InferredType(0), ge::DT_FLOAT);
  EXPECT_THAT(t.Values<float>(0), ElementsAre(1, 2, 3, 4));

  // test_optional_get_element_sequence.
  OpRunner s("OptionalGetElement");
  s.Input(Opt(SeqOf(I32({4}, {1, 2, 3, 4}))));
  ASSERT_OK(s.Run());
  EXPECT_EQ(s.OutType(0), ge::DT_VARIANT);
  ASSERT_EQ(s.Elements(0).size(), 1u);
  EXPECT_THAT(ValuesOf<int32_t>(s.Elements(0)[0].tensor()), ElementsAre(1, 2, 3, 4));

  // Without the value the element is unknown; the kernel allocates it.
  OpRunner unknown("OptionalGetElement");
  unknown.Input(Opt(F32({2}, {5, 6}))).InferWithValues(false);
  ASSERT_OK(unknown.Run());
  EXPECT_EQ(unknown.InferredShape(0), kUnknownRank);
  EXPECT_EQ(unknown.InferredType(0), ge::DT_UNDEFINED);
  EXPECT_THAT(unknown.Values<float>(0), ElementsAre(5, 6));
}

TEST(OptionalGetElementTest, NonOptionalInputsPassThrough) {
  OpRunner seq("OptionalGetElement");
  seq.Input(SeqOf(F32({}, {1}), F32({1}, {2})));
  ASSERT_OK(seq.Run());
  EXPECT_EQ(seq.InferredShape(0), (gert::Shape{2}));
  EXPECT_EQ(seq.InferredType(0), ge::DT_VARIANT);
  ASSERT_EQ(seq.Elements(0).size(), 2u);
  EXPECT_THAT(ValuesOf<float>(seq.Elements(0)[1].tensor()), ElementsAre(2));

  OpRunner tensor("OptionalGetElement");
  tensor.Input(I64({2}, {3, 4}));
  ASSERT_OK(tensor.Run());
  EXPECT_EQ(tensor.InferredType(0), ge::DT_INT64);
  EXPECT_THAT(tensor.Values<int64_t>(0), ElementsAre(3, 4));
}

TEST(OptionalGetElementTest, EmptyIsAnError) {
  OpRunner r("OptionalGetElement");
  r.Input(EmptyOpt());
  EXPECT_TRUE(IsNodeError(r.Infer(), "empty optional"));
  const ge::OpKernelDef* k =
      ge::OpRegistry::Instance().Find("OptionalGetElement")->FindKernel(ge::kEngineHostCpu);
  OpRunner kernel("OptionalGetElement");
  kernel.Input(EmptyOpt()).PresetOutput(0, kUnknownRank, ge::DT_UNDEFINED);
  EXPECT_TRUE(IsNodeError(kernel.RunKernelOnly(k->fn), "empty optional"));
}

}  // namespace
}  // namespace test
}  // namespace ops
