// graph/src/ge_tensor_test.cc
#include "graph/inc/graph/ge_tensor.h"

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "graph/src/testing/status_matchers.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/graph/tensor_desc.h"

namespace ge {
namespace {

TEST(GeShapeTest, Basics) {
  GeShape scalar;
  EXPECT_TRUE(scalar.IsScalar());
  EXPECT_EQ(scalar.GetDimNum(), 0u);
  EXPECT_EQ(*scalar.GetShapeSize(), 1);
  EXPECT_EQ(scalar.ToString(), "[]");

  GeShape s({2, 3, 4});
  EXPECT_EQ(s.GetDimNum(), 3u);
  EXPECT_EQ(s.GetDim(1), 3);
  EXPECT_EQ(s.GetDim(7), 0);  // GE convention for out of range
  EXPECT_EQ(s.GetDims(), (std::vector<int64_t>{2, 3, 4}));
  EXPECT_EQ(*s.GetShapeSize(), 24);
  EXPECT_FALSE(s.IsUnknownShape());
  EXPECT_EQ(s.ToString(), "[2,3,4]");
  s.AppendDim(5);
  EXPECT_EQ(s.GetDimNum(), 4u);
  s.AppendDim(6);  // beyond the inline capacity
  EXPECT_EQ(s.GetDims(), (std::vector<int64_t>{2, 3, 4, 5, 6}));
  EXPECT_EQ(s.ToShape().GetDims(), s.GetDims());
  EXPECT_EQ(GeShape(s.ToShape()), s);
}

TEST(GeShapeTest, UnknownDimsAndRank) {
  GeShape s({1, -1, 3});
  EXPECT_TRUE(s.IsUnknownShape());
  EXPECT_FALSE(s.IsUnknownDimNum());
  GE_EXPECT_CODE(s.GetShapeSize(), ErrorCode::kParamInvalid);
  s.SetIsUnknownDimNum();
  EXPECT_TRUE(s.IsUnknownDimNum());
  EXPECT_TRUE(s.IsUnknownShape());
  EXPECT_EQ(s.GetDimNum(), 0u);
}

TEST(GeShapeTest, SetDimChecksIndexAndValue) {
  GeShape s({1, 2});
  GE_EXPECT_OK(s.SetDim(1, 7));
  EXPECT_EQ(s.GetDim(1), 7);
  GE_EXPECT_OK(s.SetDim(0, -1));
  const Status out = s.SetDim(2, 1);
  GE_EXPECT_CODE(out, ErrorCode::kOutOfRange);
  EXPECT_NE(std::string(out.message()).find("2"), std::string::npos);
  GE_EXPECT_CODE(s.SetDim(0, -2), ErrorCode::kParamInvalid);
  GE_EXPECT_CODE(s.SetDim(0, -9), ErrorCode::kParamInvalid);
  EXPECT_EQ(s.GetDims(), (std::vector<int64_t>{-1, 7}));
}

TEST(GeShapeTest, ShapeSizeOverflowIsAnError) {
  GeShape s({int64_t{1} << 40, int64_t{1} << 40});
  GE_EXPECT_CODE(s.GetShapeSize(), ErrorCode::kOverflow);
}

TEST(GeTensorDescTest, OriginStartsEqualAndThenIsIndependent) {
  GeTensorDesc d(GeShape({1, 3, 8, 8}), FORMAT_NCHW, DT_FLOAT16);
  EXPECT_EQ(d.GetOriginShape(), GeShape({1, 3, 8, 8}));
  EXPECT_EQ(d.GetOriginFormat(), FORMAT_NCHW);
  EXPECT_EQ(d.GetOriginDataType(), DT_FLOAT16);
  GE_ASSERT_OK(d.MutableShape().SetDim(0, 4));
  d.SetFormat(FORMAT_NHWC);
  EXPECT_EQ(d.GetOriginShape(), GeShape({1, 3, 8, 8}));
  EXPECT_EQ(d.GetOriginFormat(), FORMAT_NCHW);
}

TEST(GeTensorDescTest, HasRealDimCntAndHasExtMeta) {
  GeTensorDesc d(GeShape({2, 3}));
  EXPECT_FALSE(d.HasRealDimCnt());
  EXPECT_FALSE(d.HasExtMeta());
  d.SetShapeRange({}).IgnoreError();
  d.SetSizeMeta(0);  // allocates the extension, still all defaults
  EXPECT_FALSE(d.HasExtMeta());
  EXPECT_FALSE(d.HasRealDimCnt());
  d.SetRealDimCnt(2);  // equal to the rank: still "set"
  EXPECT_TRUE(d.HasRealDimCnt());
  EXPECT_TRUE(d.HasExtMeta());
  EXPECT_EQ(d.GetRealDimCnt(), 2);
  d.SetRealDimCnt(-7);  // negative means unset
  EXPECT_FALSE(d.HasRealDimCnt());
  EXPECT_FALSE(d.HasExtMeta());
  EXPECT_EQ(d.GetRealDimCnt(), 2);
  EXPECT_EQ(d, GeTensorDesc(GeShape({2, 3})));
  d.SetOutputTensor(true);
  EXPECT_TRUE(d.HasExtMeta());
  GeTensorDesc copy(d);
  EXPECT_TRUE(copy.HasExtMeta());
  EXPECT_FALSE(copy.HasRealDimCnt());

  // Through TensorDesc: "set" survives even when equal to the rank.
  TensorDesc base(Shape({4, 5}));
  EXPECT_FALSE(base.HasRealDimCnt());
  EXPECT_FALSE(GeTensorDesc(base).HasRealDimCnt());
  base.SetRealDimCnt(2);
  EXPECT_TRUE(base.HasRealDimCnt());
  GeTensorDesc from_base(base);
  EXPECT_TRUE(from_base.HasRealDimCnt());
  EXPECT_EQ(from_base.GetRealDimCnt(), 2);
  EXPECT_TRUE(from_base.ToTensorDesc().HasRealDimCnt());
}

TEST(GeTensorDescTest, DefaultsAndExtendedMeta) {
  GeTensorDesc d;
  EXPECT_EQ(d.GetDataType(), DT_FLOAT);
  EXPECT_EQ(d.GetFormat(), FORMAT_ND);
  EXPECT_EQ(d.GetName(), "");
  EXPECT_EQ(d.GetSizeMeta(), 0);
  EXPECT_EQ(d.GetRealDimCnt(), 0);
  EXPECT_TRUE(d.GetShapeRange().empty());
  d.SetName("t0");
  d.SetSizeMeta(128);
  d.SetWeightSize(64);
  d.SetReuseInput(true);
  d.SetReuseInputIndex(1);
  d.SetDataOffset(256);
  d.SetDeviceType(DeviceType::kCpu);
  d.SetRealDimCnt(2);
  d.SetInputTensor(true);
  d.SetOutputTensor(true);
  EXPECT_EQ(d.GetName(), "t0");
  EXPECT_EQ(d.GetSizeMeta(), 128);
  EXPECT_EQ(d.GetWeightSize(), 64);
  EXPECT_TRUE(d.GetReuseInput());
  EXPECT_EQ(d.GetReuseInputIndex(), 1);
  EXPECT_EQ(d.GetDataOffset(), 256);
  EXPECT_EQ(d.GetDeviceType(), DeviceType::kCpu);
  EXPECT_EQ(d.GetRealDimCnt(), 2);
  EXPECT_TRUE(d.IsInputTensor());
  EXPECT_TRUE(d.IsOutputTensor());
}

TEST(GeTensorDescTest, CopyIsDeepAndEqualityCoversEverything) {
  GeTensorDesc a(GeShape({4}), FORMAT_ND, DT_INT32);
  a.SetName("x");
  GE_ASSERT_OK(a.SetAttr("k", AttrValue::CreateFrom<int64_t>(1)));
  GeTensorDesc b = a;
  EXPECT_EQ(a, b);
  b.SetName("y");
  EXPECT_NE(a, b);
  EXPECT_EQ(a.GetName(), "x");
  GeTensorDesc c = a;
  GE_ASSERT_OK(c.SetAttr("k", AttrValue::CreateFrom<int64_t>(2)));
  EXPECT_NE(a, c);
  EXPECT_EQ(*a.GetAttr("k")->Get<int64_t>(), 1);
  GeTensorDesc d = a;
  d.SetOriginDataType(DT_INT8);
  EXPECT_NE(a, d);
  GeTensorDesc e;
  e = a;
  EXPECT_EQ(e, a);
  // An explicitly default extended meta equals an absent one.
  GeTensorDesc f(GeShape({4}), FORMAT_ND, DT_INT32);
  GeTensorDesc g = f;
  g.SetSizeMeta(0);
  EXPECT_EQ(f, g);
}

// The extended meta is split into hot fields (name, real dim count, size,
// data offset) and a cold block created on demand: every cold field must
// survive copies and assignments in both directions, count in equality,
// and setting it back to its default must equal a desc that never had it.
TEST(GeTensorDescTest, ColdExtendedMetaCopiesAssignsAndCompares) {
  const GeTensorDesc plain(GeShape({2, 3}));
  std::vector<void (*)(GeTensorDesc&)> set_cold = {
      [](GeTensorDesc& d) { d.SetWeightSize(8); },
      [](GeTensorDesc& d) { d.SetReuseInput(true); },
      [](GeTensorDesc& d) { d.SetReuseInputIndex(3); },
      [](GeTensorDesc& d) { d.SetDeviceType(DeviceType::kCpu); },
      [](GeTensorDesc& d) { d.SetInputTensor(true); },
      [](GeTensorDesc& d) { d.SetOutputTensor(true); },
      [](GeTensorDesc& d) {
        ASSERT_TRUE(d.SetShapeRange({{1, 2}, {3, 3}}).ok());
      },
      [](GeTensorDesc& d) {
        ASSERT_TRUE(d.SetOriginShapeRange({{2, 2}, {1, -1}}).ok());
      },
  };
  for (size_t i = 0; i < set_cold.size(); ++i) {
    SCOPED_TRACE(i);
    GeTensorDesc d = plain;
    d.SetName("hot");  // hot meta without cold
    GeTensorDesc hot_only = d;
    set_cold[i](d);
    EXPECT_TRUE(d.HasExtMeta());
    EXPECT_NE(d, hot_only);
    GeTensorDesc copy(d);
    EXPECT_EQ(copy, d);
    GeTensorDesc assigned = plain;  // no ext -> cold ext
    assigned = d;
    EXPECT_EQ(assigned, d);
    GeTensorDesc other = hot_only;  // hot ext -> cold ext (storage reused)
    other = d;
    EXPECT_EQ(other, d);
    other = hot_only;  // cold ext -> hot ext drops the cold block
    EXPECT_EQ(other, hot_only);
    EXPECT_EQ(other.GetWeightSize(), 0);
    EXPECT_TRUE(other.GetShapeRange().empty());
    EXPECT_EQ(other.GetDeviceType(), DeviceType::kNpu);
    EXPECT_EQ(copy.ToTensorDesc().GetWeightSize(), d.GetWeightSize());
    EXPECT_EQ(copy.ToTensorDesc().GetDeviceType(), d.GetDeviceType());
  }
  // Back to the defaults: equal to a desc that never had cold meta.
  GeTensorDesc d = plain;
  for (auto& set : set_cold) set(d);
  EXPECT_EQ(d.GetWeightSize(), 8);
  EXPECT_EQ(d.GetReuseInputIndex(), 3);
  EXPECT_EQ(d.GetShapeRange().size(), 2u);
  EXPECT_EQ(d.GetOriginShapeRange().size(), 2u);
  d.SetWeightSize(0);
  d.SetReuseInput(false);
  d.SetReuseInputIndex(0);
  d.SetDeviceType(DeviceType::kNpu);
  d.SetInputTensor(false);
  d.SetOutputTensor(false);
  ASSERT_TRUE(d.SetShapeRange({}).ok());
  ASSERT_TRUE(d.SetOriginShapeRange({}).ok());
  EXPECT_FALSE(d.HasExtMeta());
  EXPECT_EQ(d, plain);
  // Defaults on a desc without cold meta change nothing.
  GeTensorDesc e = plain;
  e.SetWeightSize(0);
  e.SetDeviceType(DeviceType::kNpu);
  e.SetOutputTensor(false);
  EXPECT_FALSE(e.HasExtMeta());
  EXPECT_EQ(e, plain);
}

TEST(GeTensorDescTest, ShapeRangeIsValidated) {
  GeTensorDesc d(GeShape({-1, 3}));
  GE_EXPECT_OK(d.SetShapeRange({{1, 8}, {3, 3}}));
  EXPECT_EQ(d.GetShapeRange().size(), 2u);
  const Status wrong_count = d.SetShapeRange({{1, 8}});
  EXPECT_FALSE(wrong_count.ok());
  EXPECT_FALSE(d.SetShapeRange({{5, 2}, {3, 3}}).ok());
  EXPECT_EQ(d.GetShapeRange(), (GeTensorDesc::ShapeRange{{1, 8}, {3, 3}}));
  GE_EXPECT_OK(d.SetOriginShapeRange({{1, -1}, {3, 3}}));
  EXPECT_EQ(d.GetOriginShapeRange()[0].second, -1);
}

TEST(GeTensorDescTest, TensorDescRoundTripAndSize) {
  GeTensorDesc d(GeShape({2, 3}), FORMAT_ND, DT_FLOAT);
  d.SetSizeMeta(100);
  d.SetDataOffset(7);
  TensorDesc t = d.ToTensorDesc();
  EXPECT_EQ(t.GetShape().GetDims(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(t.GetDataType(), DT_FLOAT);
  EXPECT_EQ(t.GetSizeMeta(), 100);
  EXPECT_EQ(t.GetDataOffset(), 7);
  GeTensorDesc back(t);
  EXPECT_EQ(back, d);
  EXPECT_EQ(*d.GetDataSize(), 24);
  EXPECT_EQ(*d.GetSize(), 64);
  GeTensorDesc unknown(GeShape({-1}));
  EXPECT_FALSE(unknown.GetSize().ok());
}

TEST(GeTensorDescTest, InvalidMarksAbsentOptionalInput) {
  GeTensorDesc d;
  EXPECT_TRUE(d.IsValid());
  d.SetDataType(DT_UNDEFINED);
  EXPECT_TRUE(d.IsValid());
  d.SetFormat(FORMAT_RESERVED);
  EXPECT_FALSE(d.IsValid());
}

TEST(GeTensorDescTest, CompactLayout) { EXPECT_LE(sizeof(GeTensorDesc), 120u); }

TEST(GeTensorTest, DataIsAlignedAndCopyOnWrite) {
  std::vector<uint8_t> bytes = {1, 2, 3, 4, 5};
  GeTensor a(GeTensorDesc(GeShape({5}), FORMAT_ND, DT_UINT8), bytes);
  ASSERT_EQ(a.GetDataSize(), 5u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.GetData().data()) % AlignedBuffer::kAlignment, 0u);
  GeTensor b = a;
  EXPECT_TRUE(b.SharesDataWith(a));
  EXPECT_EQ(a, b);
  uint8_t* w = b.MutableData();
  ASSERT_NE(w, nullptr);
  EXPECT_FALSE(b.SharesDataWith(a));
  w[0] = 42;
  EXPECT_EQ(a.GetData()[0], 1);
  EXPECT_EQ(b.GetData()[0], 42);
  EXPECT_NE(a, b);
  // Sole owner: no copy.
  const uint8_t* before = b.GetData().data();
  EXPECT_EQ(b.MutableData(), before);
}

TEST(GeTensorTest, EmptyAndCleared) {
  GeTensor t;
  EXPECT_EQ(t.GetDataSize(), 0u);
  EXPECT_TRUE(t.GetData().empty());
  EXPECT_EQ(t.MutableData(), nullptr);
  t.SetData(std::vector<uint8_t>{9});
  EXPECT_EQ(t.GetDataSize(), 1u);
  t.ClearData();
  EXPECT_EQ(t.GetDataSize(), 0u);
  t.SetData(nullptr, 0);
  EXPECT_EQ(t.GetDataSize(), 0u);
  GeTensor u;
  EXPECT_EQ(t, u);
}

TEST(GeTensorTest, DescIsPartOfEquality) {
  GeTensor a(GeTensorDesc(GeShape({1})), std::vector<uint8_t>{1, 2, 3, 4});
  GeTensor b = a;
  b.MutableTensorDesc().SetDataType(DT_INT32);
  EXPECT_NE(a, b);
  EXPECT_EQ(a.GetTensorDesc().GetDataType(), DT_FLOAT);
}

}  // namespace
}  // namespace ge

namespace ge {
namespace {

TEST(GeTensorTest, AdoptsStringBytesWithoutCopyAndCopiesOnWrite) {
  std::string bytes(4096, '\x07');
  const char* storage = bytes.data();
  GeTensor t(GeTensorDesc(GeShape({4096}), FORMAT_ND, DT_UINT8));
  t.SetData(std::move(bytes));
  ASSERT_EQ(t.GetDataSize(), 4096u);
  EXPECT_EQ(reinterpret_cast<const char*>(t.GetData().data()), storage);  // no copy
  EXPECT_TRUE(t.GetBuffer()->is_view());
  EXPECT_EQ(t.GetBuffer()->mutable_data(), nullptr);
  uint8_t* w = t.MutableData();  // a view is read-only: copied first
  ASSERT_NE(w, nullptr);
  EXPECT_NE(reinterpret_cast<const char*>(w), storage);
  EXPECT_FALSE(t.GetBuffer()->is_view());
  w[0] = 1;
  EXPECT_EQ(t.GetData()[0], 1);
  EXPECT_EQ(t.GetData()[1], 7);
}

TEST(GeTensorTest, ViewRefusesMisalignedBytesAndKeepsOwnerAlive) {
  auto owner = std::make_shared<std::vector<uint8_t>>(256, 3);
  std::weak_ptr<std::vector<uint8_t>> weak = owner;
  const uint8_t* base = owner->data();
  const size_t skew = (16 - reinterpret_cast<uintptr_t>(base) % 16) % 16;
  EXPECT_EQ(AlignedBuffer::View(base + skew + 1, 8, owner), nullptr);
  EXPECT_EQ(AlignedBuffer::View(base + skew, 8, nullptr), nullptr);
  std::shared_ptr<AlignedBuffer> view = AlignedBuffer::View(base + skew, 64, owner);
  ASSERT_NE(view, nullptr);
  owner.reset();
  EXPECT_FALSE(weak.expired());  // the view keeps the bytes alive
  EXPECT_EQ(view->data()[0], 3);
  view.reset();
  EXPECT_TRUE(weak.expired());
}

TEST(GeTensorTest, FileViewCopiesUnalignedBytesOnlyWhenDataIsAskedFor) {
  auto owner = std::make_shared<std::vector<uint8_t>>(256);
  for (size_t i = 0; i < owner->size(); ++i) (*owner)[i] = static_cast<uint8_t>(i);
  std::weak_ptr<std::vector<uint8_t>> weak = owner;
  const uint8_t* base = owner->data();
  const size_t skew = (16 - reinterpret_cast<uintptr_t>(base) % 16) % 16;
  EXPECT_EQ(AlignedBuffer::FileView(base, 8, nullptr, FileExtent{3, 0}), nullptr);
  EXPECT_EQ(AlignedBuffer::FileView(base, 8, owner, FileExtent{-1, 0}), nullptr);

  // Unaligned: bytes() are the viewed bytes, data() an aligned copy made once.
  const uint8_t* odd = base + skew + 3;
  std::shared_ptr<AlignedBuffer> view =
      AlignedBuffer::FileView(odd, 64, owner, FileExtent{7, 4099});
  ASSERT_NE(view, nullptr);
  EXPECT_TRUE(view->is_view());
  EXPECT_FALSE(view->data_in_place());
  ASSERT_NE(view->file_extent(), nullptr);
  EXPECT_EQ(view->file_extent()->fd, 7);
  EXPECT_EQ(view->file_extent()->offset, 4099u);
  EXPECT_EQ(view->bytes().data(), odd);
  EXPECT_EQ(view->bytes().size(), 64u);
  EXPECT_FALSE(view->has_copy());
  const uint8_t* aligned = view->data();
  EXPECT_TRUE(view->has_copy());
  EXPECT_NE(aligned, odd);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(aligned) % AlignedBuffer::kAlignment, 0u);
  EXPECT_EQ(std::memcmp(aligned, odd, 64), 0);
  EXPECT_EQ(view->data(), aligned);  // made once
  EXPECT_EQ(view->bytes().data(), odd);

  // Aligned: data() is the viewed bytes themselves.
  std::shared_ptr<AlignedBuffer> in_place =
      AlignedBuffer::FileView(base + skew, 32, owner, FileExtent{7, 0});
  ASSERT_NE(in_place, nullptr);
  EXPECT_TRUE(in_place->data_in_place());
  EXPECT_EQ(in_place->data(), base + skew);
  EXPECT_FALSE(in_place->has_copy());
  EXPECT_EQ(AlignedBuffer::View(base + skew, 8, owner)->file_extent(), nullptr);

  owner.reset();
  EXPECT_FALSE(weak.expired());
  view.reset();
  in_place.reset();
  EXPECT_TRUE(weak.expired());
}

TEST(GeTensorTest, TensorOverAFileViewReadsAlignedDataAndComparesBytes) {
  auto owner = std::make_shared<std::vector<uint8_t>>(128, 5);
  const uint8_t* base = owner->data();
  const size_t skew = (16 - reinterpret_cast<uintptr_t>(base) % 16) % 16;
  const uint8_t* odd = base + skew + 1;
  GeTensor a(GeTensorDesc(GeShape({16}), FORMAT_ND, DT_FLOAT));
  a.SetData(AlignedBuffer::FileView(odd, 64, owner, FileExtent{1, 1}));
  GeTensor b(GeTensorDesc(GeShape({16}), FORMAT_ND, DT_FLOAT), std::vector<uint8_t>(64, 5));
  EXPECT_EQ(a.GetBytes().data(), odd);
  EXPECT_TRUE(a == b);  // byte-wise: no aligned copy needed
  EXPECT_FALSE(a.GetBuffer()->data_in_place());
  EXPECT_FALSE(a.GetBuffer()->has_copy());
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a.GetData().data()) % AlignedBuffer::kMinViewAlignment, 0u);
  EXPECT_EQ(a.GetData().size(), 64u);
  uint8_t* w = a.MutableData();  // a view: an owned copy first
  ASSERT_NE(w, nullptr);
  w[0] = 9;
  EXPECT_EQ(odd[0], 5);
  EXPECT_EQ(a.GetData()[0], 9);
  EXPECT_EQ(a.GetBuffer()->file_extent(), nullptr);
}

TEST(GeTensorTest, FileViewDataIsMadeOnceAcrossThreads) {
  auto owner = std::make_shared<std::vector<uint8_t>>(1 << 16, 1);
  const uint8_t* base = owner->data();
  const size_t skew = (16 - reinterpret_cast<uintptr_t>(base) % 16) % 16;
  std::shared_ptr<AlignedBuffer> view =
      AlignedBuffer::FileView(base + skew + 5, 60000, owner, FileExtent{1, 5});
  std::vector<const uint8_t*> seen(4);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < seen.size(); ++t) {
    threads.emplace_back([&, t] { seen[t] = view->data(); });
  }
  for (std::thread& t : threads) t.join();
  for (const uint8_t* p : seen) EXPECT_EQ(p, seen[0]);
  EXPECT_EQ(std::memcmp(seen[0], base + skew + 5, 60000), 0);
}

}  // namespace
}  // namespace ge
