// metadef/register/src/gert_tensor_test.cc
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/tensor.h"

namespace gert {
namespace {

using ::testing::HasSubstr;

TEST(ShapeTest, BasicsAndScalar) {
  Shape scalar;
  EXPECT_TRUE(scalar.IsScalar());
  EXPECT_EQ(scalar.GetShapeSize(), 1);
  EXPECT_EQ(scalar.ToString(), "[]");

  Shape s{2, 3, 4};
  EXPECT_EQ(s.GetDimNum(), 3u);
  EXPECT_EQ(s.GetDim(1), 3);
  EXPECT_EQ(s.GetDim(7), 0);  // out of range
  EXPECT_EQ(s.GetShapeSize(), 24);
  EXPECT_EQ(s.ToString(), "[2,3,4]");
  EXPECT_EQ(s.ToVector(), (std::vector<int64_t>{2, 3, 4}));
  s.SetDim(0, 5);
  s.SetDim(9, 1);  // ignored
  EXPECT_EQ(s, (Shape{5, 3, 4}));
  EXPECT_NE(s, (Shape{5, 3}));
  s.SetScalar();
  EXPECT_TRUE(s.IsScalar());
}

TEST(ShapeTest, UnknownDimsAndRank) {
  Shape s{2, -1};
  EXPECT_TRUE(s.IsUnknownShape());
  EXPECT_FALSE(s.IsUnknownRank());
  EXPECT_EQ(s.GetShapeSize(), -1);
  Shape r{-2};
  EXPECT_TRUE(r.IsUnknownRank());
  EXPECT_TRUE(r.IsUnknownShape());
  EXPECT_EQ((Shape{0, -1}).GetShapeSize(), -1);  // unknown beats zero
}

TEST(ShapeTest, ZeroAndOverflow) {
  EXPECT_EQ((Shape{3, 0, 5}).GetShapeSize(), 0);
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ((Shape{big, big}).GetShapeSize(), -1);
  EXPECT_EQ((Shape{big, big, 0}).GetShapeSize(), 0);  // zero wins over overflow
}

TEST(ShapeTest, AppendAndCapacity) {
  Shape s;
  for (size_t i = 0; i < kMaxDimNum; ++i) {
    EXPECT_TRUE(s.CanAppend());
    s.AppendDim(1);
  }
  EXPECT_FALSE(s.CanAppend());
  s.AppendDim(7);  // ignored
  EXPECT_EQ(s.GetDimNum(), kMaxDimNum);
  s.SetDimNum(100);
  EXPECT_EQ(s.GetDimNum(), kMaxDimNum);
  s.SetDimNum(2);
  EXPECT_EQ(s.GetDimNum(), 2u);
}

TEST(ShapeTest, FromDims) {
  std::vector<int64_t> dims(kMaxDimNum, 2);
  ge::StatusOr<Shape> ok = Shape::FromDims(dims);
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->GetDimNum(), kMaxDimNum);
  dims.push_back(2);
  ge::StatusOr<Shape> bad = Shape::FromDims(dims);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(ge::GetErrorCode(bad.status()), ge::ErrorCode::kParamInvalid);
  EXPECT_THAT(bad.status().message(), HasSubstr("26"));
  // The initializer-list constructor truncates silently (documented).
  Shape t{1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13,
          14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26};
  EXPECT_EQ(t.GetDimNum(), kMaxDimNum);
}

TEST(HostStorageBytesTest, Sizes) {
  EXPECT_EQ(*HostStorageBytes(ge::DT_FLOAT, 6), 24u);
  EXPECT_EQ(*HostStorageBytes(ge::DT_FLOAT16, 3), 6u);
  EXPECT_EQ(*HostStorageBytes(ge::DT_BOOL, 3), 3u);
  EXPECT_EQ(*HostStorageBytes(ge::DT_INT4, 3), 2u);  // packed, rounded up
  EXPECT_EQ(*HostStorageBytes(ge::DT_COMPLEX128, 2), 32u);
  EXPECT_EQ(*HostStorageBytes(ge::DT_STRING, 2), 2 * sizeof(std::string));
  EXPECT_EQ(*HostStorageBytes(ge::DT_INT64, 0), 0u);
  EXPECT_EQ(*HostStorageBytes(ge::DT_VARIANT, 3), 3 * sizeof(HostTensor));
}

TEST(HostStorageBytesTest, Errors) {
  EXPECT_EQ(ge::GetErrorCode(HostStorageBytes(ge::DT_FLOAT, -1).status()),
            ge::ErrorCode::kParamInvalid);
  for (ge::DataType dt : {ge::DT_UNDEFINED, ge::DT_RESOURCE, ge::DT_STRING_REF}) {
    ge::StatusOr<size_t> r = HostStorageBytes(dt, 1);
    ASSERT_FALSE(r.ok()) << dt;
    EXPECT_EQ(ge::GetErrorCode(r.status()), ge::ErrorCode::kNotSupported);
  }
  EXPECT_EQ(ge::GetErrorCode(
                HostStorageBytes(ge::DT_DOUBLE, std::numeric_limits<int64_t>::max()).status()),
            ge::ErrorCode::kOverflow);
  EXPECT_EQ(ge::GetErrorCode(
                HostStorageBytes(ge::DT_STRING, std::numeric_limits<int64_t>::max()).status()),
            ge::ErrorCode::kOverflow);
  EXPECT_EQ(ge::GetErrorCode(
                HostStorageBytes(ge::DT_VARIANT, std::numeric_limits<int64_t>::max()).status()),
            ge::ErrorCode::kOverflow);
  EXPECT_FALSE(HostStorageBytes(static_cast<ge::DataType>(999), 1).ok());
}

TEST(HostTensorTest, CreateZeroFilledAligned) {
  ge::StatusOr<HostTensor> t = HostTensor::Create(ge::DT_FLOAT, Shape{2, 3});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->GetDataType(), ge::DT_FLOAT);
  EXPECT_EQ(t->GetShape(), (Shape{2, 3}));
  EXPECT_EQ(t->tensor().GetSize(), 24u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t->GetData<float>()) % 64, 0u);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(t->GetData<float>()[i], 0.0f);
  t->MutableData<float>()[5] = 2.5f;
  EXPECT_EQ(t->tensor().GetData<float>()[5], 2.5f);
}

TEST(HostTensorTest, EmptyTensorHasAddress) {
  ge::StatusOr<HostTensor> t = HostTensor::Create(ge::DT_INT32, Shape{0, 4});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->tensor().GetSize(), 0u);
  EXPECT_NE(t->tensor().GetAddr(), nullptr);
}

TEST(HostTensorTest, CreateErrors) {
  EXPECT_EQ(ge::GetErrorCode(HostTensor::Create(ge::DT_FLOAT, Shape{2, -1}).status()),
            ge::ErrorCode::kParamInvalid);
  const int64_t big = int64_t{1} << 40;
  EXPECT_EQ(ge::GetErrorCode(HostTensor::Create(ge::DT_FLOAT, Shape{big, big}).status()),
            ge::ErrorCode::kOverflow);
  // Representable but absurd: refused before allocating.
  EXPECT_EQ(ge::GetErrorCode(HostTensor::Create(ge::DT_FLOAT, Shape{big, 2}).status()),
            ge::ErrorCode::kMemoryAllocFailed);
  EXPECT_EQ(ge::GetErrorCode(HostTensor::Create(ge::DT_RESOURCE, Shape{1}).status()),
            ge::ErrorCode::kNotSupported);
}

TEST(HostTensorTest, Strings) {
  ge::StatusOr<HostTensor> t = HostTensor::Create(ge::DT_STRING, Shape{3});
  ASSERT_TRUE(t.ok());
  std::string* s = t->MutableData<std::string>();
  EXPECT_TRUE(s[0].empty());
  s[0] = "short";
  s[2] = std::string(200, 'x');  // heap-allocated string, freed by the tensor
  ge::StatusOr<HostTensor> c = t->Clone();
  ASSERT_TRUE(c.ok());
  s[0] = "changed";
  EXPECT_EQ(c->GetData<std::string>()[0], "short");
  EXPECT_EQ(c->GetData<std::string>()[2], std::string(200, 'x'));
  EXPECT_NE(c->GetData<std::string>(), t->GetData<std::string>());
  // Moving transfers ownership; the moved-from tensor is empty.
  HostTensor moved = std::move(*c);
  EXPECT_EQ(moved.GetData<std::string>()[2].size(), 200u);
  EXPECT_EQ(c->GetData<std::string>(), nullptr);
  // Move assignment releases the old strings (ASan / LSan check this).
  moved = std::move(*t);
  EXPECT_EQ(moved.GetData<std::string>()[0], "changed");
}

TEST(HostTensorTest, CreateFromCopiesBytes) {
  const std::vector<int32_t> v{1, 2, 3, 4};
  ge::StatusOr<HostTensor> t =
      HostTensor::CreateFrom(ge::DT_INT32, Shape{2, 2}, v.data(), v.size() * sizeof(int32_t));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->GetData<int32_t>()[3], 4);
  ge::StatusOr<HostTensor> bad = HostTensor::CreateFrom(ge::DT_INT32, Shape{2, 2}, v.data(), 12);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("needs 16 bytes, got 12"));
  EXPECT_FALSE(HostTensor::CreateFrom(ge::DT_INT32, Shape{2}, nullptr, 8).ok());
  EXPECT_EQ(
      ge::GetErrorCode(
          HostTensor::CreateFrom(ge::DT_STRING, Shape{1}, v.data(), sizeof(std::string)).status()),
      ge::ErrorCode::kNotSupported);
  EXPECT_TRUE(HostTensor::CreateFrom(ge::DT_INT32, Shape{0}, nullptr, 0).ok());
}

TEST(HostTensorTest, CloneIsDeep) {
  ge::StatusOr<HostTensor> t = HostTensor::Create(ge::DT_COMPLEX64, Shape{2});
  ASSERT_TRUE(t.ok());
  t->MutableData<std::complex<float>>()[1] = {1.0f, -2.0f};
  ge::StatusOr<HostTensor> c = t->Clone();
  ASSERT_TRUE(c.ok());
  t->MutableData<std::complex<float>>()[1] = {0.0f, 0.0f};
  EXPECT_EQ(c->GetData<std::complex<float>>()[1], std::complex<float>(1.0f, -2.0f));
  EXPECT_EQ(c->GetDataType(), ge::DT_COMPLEX64);
  HostTensor empty;
  ge::StatusOr<HostTensor> ce = empty.Clone();
  ASSERT_TRUE(ce.ok());
  EXPECT_EQ(ce->GetData<char>(), nullptr);
}

TEST(HostTensorTest, SubByteAndFormat) {
  ge::StatusOr<HostTensor> t = HostTensor::Create(ge::DT_UINT1, Shape{9}, ge::FORMAT_NCHW);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->tensor().GetSize(), 2u);
  EXPECT_EQ(t->tensor().GetFormat(), ge::FORMAT_NCHW);
}

// ---------------------------------------------------------------- variants

HostTensor Floats(const Shape& s, std::vector<float> v) {
  ge::StatusOr<HostTensor> t =
      HostTensor::CreateFrom(ge::DT_FLOAT, s, v.data(), v.size() * sizeof(float));
  EXPECT_TRUE(t.ok()) << t.status();
  return t.ok() ? std::move(t).value() : HostTensor();
}

HostTensor Words(std::vector<std::string> v) {
  ge::StatusOr<HostTensor> t =
      HostTensor::Create(ge::DT_STRING, Shape{static_cast<int64_t>(v.size())});
  EXPECT_TRUE(t.ok()) << t.status();
  if (!t.ok()) return HostTensor();
  for (size_t i = 0; i < v.size(); ++i) t->MutableData<std::string>()[i] = v[i];
  return std::move(t).value();
}

TEST(VariantTest, CreateConstructsEmptyElements) {
  ge::StatusOr<HostTensor> t = HostTensor::Create(ge::DT_VARIANT, Shape{2});
  ASSERT_TRUE(t.ok()) << t.status();
  EXPECT_EQ(t->tensor().GetSize(), 2 * sizeof(HostTensor));
  ge::StatusOr<absl::Span<const HostTensor>> e = VariantElements(t->tensor());
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->size(), 2u);
  EXPECT_FALSE((*e)[0].HasStorage());
  EXPECT_EQ((*e)[1].GetDataType(), ge::DT_UNDEFINED);
  // Elements are assignable; the tensor frees them (ASan / LSan check).
  t->MutableData<HostTensor>()[1] = Words({std::string(100, 'a')});
  EXPECT_EQ(t->GetData<HostTensor>()[1].GetData<std::string>()[0].size(), 100u);
}

TEST(VariantTest, SequenceOwnsAndClonesDeeply) {
  std::vector<HostTensor> elems;
  elems.push_back(Floats(Shape{2}, {1.0f, 2.0f}));
  elems.push_back(Words({"x", std::string(64, 'y')}));
  ge::StatusOr<HostTensor> seq = HostTensor::CreateSequence(std::move(elems));
  ASSERT_TRUE(seq.ok()) << seq.status();
  EXPECT_EQ(seq->GetDataType(), ge::DT_VARIANT);
  EXPECT_EQ(seq->GetShape(), (Shape{2}));

  ge::StatusOr<HostTensor> copy = seq->Clone();
  ASSERT_TRUE(copy.ok()) << copy.status();
  HostTensor* orig = seq->MutableData<HostTensor>();
  orig[0].MutableData<float>()[1] = 9.0f;
  orig[1].MutableData<std::string>()[0] = "changed";
  const HostTensor* c = copy->GetData<HostTensor>();
  EXPECT_EQ(c[0].GetData<float>()[1], 2.0f);
  EXPECT_EQ(c[1].GetData<std::string>()[0], "x");
  EXPECT_EQ(c[1].GetData<std::string>()[1], std::string(64, 'y'));
  EXPECT_NE(c[0].GetData<float>(), orig[0].GetData<float>());
}

TEST(VariantTest, OptionalOfSequenceAndUnwrapBySelfMove) {
  std::vector<HostTensor> elems;
  elems.push_back(Floats(Shape{}, {4.0f}));
  ge::StatusOr<HostTensor> seq = HostTensor::CreateSequence(std::move(elems));
  ASSERT_TRUE(seq.ok());
  ge::StatusOr<HostTensor> opt = HostTensor::CreateOptional(std::move(*seq));
  ASSERT_TRUE(opt.ok()) << opt.status();
  EXPECT_EQ(opt->GetShape(), (Shape{1}));
  // Replacing a tensor by one of its own elements is safe.
  HostTensor& inner = opt->MutableData<HostTensor>()[0];
  *opt = std::move(inner);
  EXPECT_EQ(opt->GetDataType(), ge::DT_VARIANT);
  ASSERT_EQ(opt->GetShape(), (Shape{1}));
  EXPECT_EQ(opt->GetData<HostTensor>()[0].GetData<float>()[0], 4.0f);

  ge::StatusOr<HostTensor> empty = HostTensor::CreateEmptyOptional();
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->GetShape(), (Shape{0}));
  ge::StatusOr<absl::Span<const HostTensor>> e = VariantElements(empty->tensor());
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE(e->empty());
}

TEST(VariantTest, ElementsWithoutStorageAreRejected) {
  std::vector<HostTensor> elems(2);
  elems[0] = Floats(Shape{1}, {1.0f});
  ge::StatusOr<HostTensor> seq = HostTensor::CreateSequence(std::move(elems));
  ASSERT_FALSE(seq.ok());
  EXPECT_THAT(seq.status().message(), HasSubstr("element 1"));
  EXPECT_FALSE(HostTensor::CreateOptional(HostTensor()).ok());
  EXPECT_EQ(ge::GetErrorCode(HostTensor::CreateFrom(ge::DT_VARIANT, Shape{1}, nullptr, 0).status()),
            ge::ErrorCode::kNotSupported);
}

TEST(VariantTest, VariantElementsValidatesViews) {
  HostTensor f = Floats(Shape{1}, {1.0f});
  EXPECT_THAT(VariantElements(f.tensor()).status().message(), HasSubstr("DT_FLOAT"));
  Tensor unknown(Shape{-1}, ge::DT_VARIANT, nullptr, 0);
  EXPECT_THAT(VariantElements(unknown).status().message(), HasSubstr("[-1]"));
  Tensor rank2(Shape{1, 1}, ge::DT_VARIANT, nullptr, 0);
  EXPECT_FALSE(VariantElements(rank2).ok());
  Tensor no_data(Shape{2}, ge::DT_VARIANT, nullptr, 0);
  EXPECT_THAT(VariantElements(no_data).status().message(), HasSubstr("needs"));
  Tensor empty(Shape{0}, ge::DT_VARIANT, nullptr, 0);
  EXPECT_TRUE(VariantElements(empty).ok());
  EXPECT_TRUE(MutableVariantElements(empty).ok());
}

TEST(VariantTest, CopyFromAndCopyTensorData) {
  // A view over a float buffer.
  std::vector<float> buf{1, 2, 3, 4, 5, 6};
  Tensor view(Shape{2, 3}, ge::DT_FLOAT, buf.data(), buf.size() * sizeof(float), ge::FORMAT_NCHW);
  ge::StatusOr<HostTensor> c = HostTensor::CopyFrom(view);
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->GetShape(), (Shape{2, 3}));
  EXPECT_EQ(c->tensor().GetFormat(), ge::FORMAT_NCHW);
  EXPECT_EQ(c->GetData<float>()[5], 6.0f);

  // Nested: copying a sequence view deep-copies its elements.
  std::vector<HostTensor> elems;
  elems.push_back(Words({"a", "b"}));
  ge::StatusOr<HostTensor> seq = HostTensor::CreateSequence(std::move(elems));
  ASSERT_TRUE(seq.ok());
  ge::StatusOr<HostTensor> sc = HostTensor::CopyFrom(seq->tensor());
  ASSERT_TRUE(sc.ok()) << sc.status();
  seq->MutableData<HostTensor>()[0].MutableData<std::string>()[1] = "z";
  EXPECT_EQ(sc->GetData<HostTensor>()[0].GetData<std::string>()[1], "b");

  // CopyTensorData into a reshaped destination; mismatches are errors.
  ge::StatusOr<HostTensor> dst = HostTensor::Create(ge::DT_FLOAT, Shape{6});
  ASSERT_TRUE(dst.ok());
  ASSERT_TRUE(CopyTensorData(view, &dst->tensor()).ok());
  EXPECT_EQ(dst->GetData<float>()[4], 5.0f);
  ge::StatusOr<HostTensor> wrong_type = HostTensor::Create(ge::DT_INT32, Shape{6});
  ASSERT_TRUE(wrong_type.ok());
  EXPECT_THAT(CopyTensorData(view, &wrong_type->tensor()).message(), HasSubstr("DT_INT32"));
  ge::StatusOr<HostTensor> wrong_count = HostTensor::Create(ge::DT_FLOAT, Shape{5});
  ASSERT_TRUE(wrong_count.ok());
  EXPECT_THAT(CopyTensorData(view, &wrong_count->tensor()).message(), HasSubstr("element count"));
  Tensor short_src(Shape{2, 3}, ge::DT_FLOAT, buf.data(), 8);
  EXPECT_THAT(HostTensor::CopyFrom(short_src).status().message(), HasSubstr("needs 24 bytes"));
  Tensor unknown(Shape{-1}, ge::DT_FLOAT, buf.data(), 8);
  EXPECT_FALSE(HostTensor::CopyFrom(unknown).ok());
  EXPECT_FALSE(CopyTensorData(view, nullptr).ok());
}

}  // namespace
}  // namespace gert
