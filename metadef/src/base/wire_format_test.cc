// metadef/src/base/wire_format_test.cc
#include "metadef/inc/base/wire_format.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "gtest/gtest.h"

namespace ge {
namespace wire {
namespace {

std::string Bytes(std::initializer_list<int> bytes) {
  std::string s;
  for (int b : bytes) s.push_back(static_cast<char>(b));
  return s;
}

std::string VarintBytes(uint64_t v) {
  char buf[10];
  return std::string(buf, EncodeVarint(v, buf));
}

TEST(WireFormatTest, VarintsAreMinimal) {
  EXPECT_EQ(VarintBytes(0), Bytes({0x00}));
  EXPECT_EQ(VarintBytes(1), Bytes({0x01}));
  EXPECT_EQ(VarintBytes(127), Bytes({0x7f}));
  EXPECT_EQ(VarintBytes(128), Bytes({0x80, 0x01}));
  EXPECT_EQ(VarintBytes(300), Bytes({0xac, 0x02}));
  EXPECT_EQ(VarintBytes(16383), Bytes({0xff, 0x7f}));
  EXPECT_EQ(VarintBytes(16384), Bytes({0x80, 0x80, 0x01}));
  EXPECT_EQ(VarintBytes(std::numeric_limits<uint64_t>::max()),
            Bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
  for (uint64_t v : {uint64_t{0}, uint64_t{127}, uint64_t{128}, uint64_t{1} << 35,
                     std::numeric_limits<uint64_t>::max()}) {
    EXPECT_EQ(VarintSize(v), VarintBytes(v).size()) << v;
    std::string out;
    {
      WireWriter w(&out);
      w.Varint(v);
    }
    EXPECT_EQ(out, VarintBytes(v)) << v;
    WireReader r(out);
    uint64_t back = 0;
    ASSERT_TRUE(r.ReadVarint(&back));
    EXPECT_EQ(back, v);
    EXPECT_TRUE(r.AtEnd());
  }
}

TEST(WireFormatTest, NegativeInt32IsATenByteVarint) {
  std::string out;
  {
    WireWriter w(&out);
    w.Int32Always(1, -1);
    w.Int32(2, -2);
  }
  EXPECT_EQ(out, Bytes({0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,  //
                        0x10, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
  WireReader r(out);
  uint32_t field = 0;
  WireType type = kLen;
  int32_t v = 0;
  ASSERT_TRUE(r.Next(&field, &type));
  EXPECT_EQ(field, 1u);
  ASSERT_TRUE(r.Int32(type, &v));
  EXPECT_EQ(v, -1);
  ASSERT_TRUE(r.Next(&field, &type));
  EXPECT_EQ(field, 2u);
  ASSERT_TRUE(r.Int32(type, &v));
  EXPECT_EQ(v, -2);
  EXPECT_FALSE(r.Next(&field, &type));
  EXPECT_TRUE(r.ok());
}

TEST(WireFormatTest, Proto3DefaultsAreNotWritten) {
  std::string out;
  {
    WireWriter w(&out);
    w.Int64(1, 0);
    w.Int32(2, 0);
    w.UInt32(3, 0);
    w.Bool(4, false);
    w.String(5, "");
    w.PackedInt64(6, absl::Span<const int64_t>());
    w.PackedUInt32(7, absl::Span<const uint32_t>());
  }
  EXPECT_TRUE(out.empty());
  {
    WireWriter w(&out);
    w.StringAlways(5, "");
    w.BoolAlways(4, false);
  }
  EXPECT_EQ(out, Bytes({0x2a, 0x00, 0x20, 0x00}));
}

// One message with a field of every wire type the reader accepts.
std::string EveryWireType() {
  std::string out;
  WireWriter w(&out);
  w.Int64Always(1, 150);  // varint
  w.Tag(2, kFixed64);     // fixed64
  w.Append(Bytes({1, 2, 3, 4, 5, 6, 7, 8}));
  w.StringAlways(3, "abc");  // length-delimited
  w.FloatAlways(4, 1.0f);    // fixed32
  const std::vector<int64_t> dims = {1, -1, 300};
  w.PackedInt64(5, absl::MakeConstSpan(dims));  // packed
  const size_t m = w.BeginMessage(6);           // nested message
  w.UInt32Always(1, 7);
  w.EndMessage(m);
  return out;
}

TEST(WireFormatTest, ReadsEveryWireType) {
  const std::string bytes = EveryWireType();
  WireReader r(bytes);
  uint32_t field = 0;
  WireType type = kVarint;
  absl::string_view payload;

  ASSERT_TRUE(r.Field(&field, &type, &payload));
  EXPECT_EQ(field, 1u);
  EXPECT_EQ(type, kVarint);
  EXPECT_EQ(payload, Bytes({0x96, 0x01}));

  ASSERT_TRUE(r.Field(&field, &type, &payload));
  EXPECT_EQ(field, 2u);
  EXPECT_EQ(type, kFixed64);
  EXPECT_EQ(payload, Bytes({1, 2, 3, 4, 5, 6, 7, 8}));

  ASSERT_TRUE(r.Field(&field, &type, &payload));
  EXPECT_EQ(field, 3u);
  EXPECT_EQ(type, kLen);
  EXPECT_EQ(payload, "abc");

  ASSERT_TRUE(r.Next(&field, &type));
  EXPECT_EQ(field, 4u);
  EXPECT_EQ(type, kFixed32);
  uint32_t bits = 0;
  ASSERT_TRUE(r.ReadFixed32(&bits));
  EXPECT_EQ(bits, 0x3f800000u);

  ASSERT_TRUE(r.Next(&field, &type));
  EXPECT_EQ(field, 5u);
  std::vector<int64_t> dims;
  ASSERT_TRUE(r.Repeated(type, [&](int64_t v) {
    dims.push_back(v);
    return true;
  }));
  EXPECT_EQ(dims, (std::vector<int64_t>{1, -1, 300}));

  ASSERT_TRUE(r.Next(&field, &type));
  EXPECT_EQ(field, 6u);
  absl::string_view nested;
  ASSERT_TRUE(r.Bytes(type, &nested));
  WireReader n(nested);
  uint32_t u = 0;
  ASSERT_TRUE(n.Next(&field, &type));
  ASSERT_TRUE(n.UInt32(type, &u));
  EXPECT_EQ(u, 7u);
  EXPECT_TRUE(n.AtEnd());

  EXPECT_FALSE(r.Next(&field, &type));
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.AtEnd());

  // Skip walks the same message.
  WireReader s(bytes);
  int fields = 0;
  while (s.Next(&field, &type)) {
    ASSERT_TRUE(s.Skip(type)) << field;
    ++fields;
  }
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(fields, 6);
}

// Every strict prefix that ends inside a field fails; none reads past it.
TEST(WireFormatTest, TruncatedInputFails) {
  const std::string bytes = EveryWireType();
  std::vector<size_t> boundaries = {0};
  {
    WireReader r(bytes);
    uint32_t field;
    WireType type;
    absl::string_view payload;
    while (r.Field(&field, &type, &payload)) {
      boundaries.push_back(static_cast<size_t>(r.pos() - bytes.data()));
    }
    ASSERT_TRUE(r.ok());
  }
  for (size_t n = 0; n < bytes.size(); ++n) {
    const std::string prefix = bytes.substr(0, n);  // its own allocation: ASan sees overreads
    WireReader r(prefix);
    uint32_t field;
    WireType type;
    absl::string_view payload;
    while (r.Field(&field, &type, &payload)) {
    }
    const bool at_boundary = std::find(boundaries.begin(), boundaries.end(), n) != boundaries.end();
    EXPECT_EQ(r.ok(), at_boundary) << n;
    EXPECT_TRUE(r.AtEnd()) << n;
  }
}

TEST(WireFormatTest, BoundsChecks) {
  const std::string one = Bytes({0x96, 0x01});  // 150
  WireReader r(one);
  uint64_t v = 0;
  ASSERT_TRUE(r.ReadVarint(&v));
  EXPECT_EQ(v, 150u);
  EXPECT_TRUE(r.AtEnd());
  EXPECT_FALSE(r.ReadVarint(&v));  // nothing left
  EXPECT_FALSE(r.ok());

  const std::string three = Bytes({1, 2, 3});
  WireReader fixed(three);
  uint32_t f32 = 0;
  EXPECT_FALSE(fixed.ReadFixed32(&f32));
  EXPECT_FALSE(fixed.ok());

  // Packed payload ending inside a varint.
  const std::string cut = Bytes({0x0a, 0x02, 0x01, 0x80});
  WireReader packed(cut);
  uint32_t field = 0;
  WireType type;
  ASSERT_TRUE(packed.Next(&field, &type));
  EXPECT_FALSE(packed.Repeated(type, [](int64_t) { return true; }));

  // A length past the end.
  const std::string long_len = Bytes({0x0a, 0x05, 'a', 'b'});
  WireReader len(long_len);
  absl::string_view s;
  ASSERT_TRUE(len.Next(&field, &type));
  EXPECT_FALSE(len.Bytes(type, &s));
  EXPECT_FALSE(len.ok());

  // A typed read of the wrong wire type fails.
  const std::string str = Bytes({0x0a, 0x01, 'a'});
  WireReader wrong(str);
  int64_t i = 0;
  ASSERT_TRUE(wrong.Next(&field, &type));
  EXPECT_FALSE(wrong.Int64(type, &i));
  EXPECT_FALSE(wrong.ok());

  // A failed reader stays failed.
  EXPECT_FALSE(wrong.Next(&field, &type));
  EXPECT_FALSE(wrong.ok());
}

TEST(WireFormatTest, OverlongVarintsFail) {
  // Ten bytes whose last carries bit 63 only: 2^63.
  const std::string top = Bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01});
  WireReader ok(top);
  uint64_t v = 0;
  ASSERT_TRUE(ok.ReadVarint(&v));
  EXPECT_EQ(v, uint64_t{1} << 63);
  // Bits past 64 in the tenth byte.
  const std::string over = Bytes({0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02});
  WireReader r1(over);
  EXPECT_FALSE(r1.ReadVarint(&v));
  // An eleventh byte.
  const std::string eleven =
      Bytes({0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00});
  WireReader r2(eleven);
  EXPECT_FALSE(r2.ReadVarint(&v));
}

TEST(WireFormatTest, GroupsAndBadTagsAreRejected) {
  for (const std::string& bad : {Bytes({0x0b}),        // field 1, start group
                                 Bytes({0x0c}),        // field 1, end group
                                 Bytes({0x0e}),        // wire type 6
                                 Bytes({0x0f}),        // wire type 7
                                 Bytes({0x00, 0x00}),  // field 0
                                 // field 2^29: past the largest field number
                                 Bytes({0x80, 0x80, 0x80, 0x80, 0x10, 0x00})}) {
    WireReader r(bad);
    uint32_t field = 0;
    WireType type;
    EXPECT_FALSE(r.Next(&field, &type));
    EXPECT_FALSE(r.ok());
    WireReader s(bad);
    EXPECT_FALSE(s.Skip(kStartGroup));
  }
  // The largest field number is accepted.
  const std::string top = Bytes({0xf8, 0xff, 0xff, 0xff, 0x0f, 0x00});
  WireReader r(top);
  uint32_t field = 0;
  WireType type;
  ASSERT_TRUE(r.Next(&field, &type));
  EXPECT_EQ(field, 0x1fffffffu);
}

TEST(WireFormatTest, UnpackedRepeatedVarint) {
  const std::string bytes = Bytes({0x08, 0x05});
  WireReader r(bytes);
  uint32_t field = 0;
  WireType type;
  ASSERT_TRUE(r.Next(&field, &type));
  int64_t got = 0;
  ASSERT_TRUE(r.Repeated(type, [&](int64_t v) {
    got = v;
    return true;
  }));
  EXPECT_EQ(got, 5);
}

// A nested message's length is patched in, moving the body when the length
// needs more (or fewer) bytes than reserved.
TEST(WireFormatTest, NestedMessageLengths) {
  for (size_t body : {size_t{0}, size_t{5}, size_t{127}, size_t{128}, size_t{20000}}) {
    for (size_t hint : {size_t{0}, size_t{200}, size_t{1} << 20}) {
      const std::string payload(body, 'x');
      std::string out;
      {
        WireWriter w(&out);
        const size_t m = w.BeginMessage(3, hint);
        w.Append(payload);
        w.EndMessage(m);
        w.Int64Always(4, 1);
      }
      std::string expected;
      AppendLenField(3, payload, &expected);
      expected += Bytes({0x20, 0x01});
      EXPECT_EQ(out, expected) << body << " " << hint;
    }
  }
}

TEST(WireFormatTest, AppendLenField) {
  std::string out = "p";
  AppendLenField(7, "abc", &out);
  EXPECT_EQ(out, "p" + Bytes({0x3a, 0x03, 'a', 'b', 'c'}));
}

TEST(WireFormatTest, TruncateDropsTheTail) {
  std::string out;
  {
    WireWriter w(&out);
    w.Int64Always(1, 1);
    const size_t keep = w.size();
    w.StringAlways(2, "dropped");
    w.Truncate(keep);
  }
  EXPECT_EQ(out, Bytes({0x08, 0x01}));
}

// The writer grows its buffer past a reservation without losing bytes.
TEST(WireFormatTest, WriterGrowsPastItsReservation) {
  std::string out = "prefix";
  out.reserve(64);
  {
    WireWriter w(&out);
    w.ReserveTotal(32);
    for (int i = 0; i < 5000; ++i) w.Append("0123456789");
  }
  ASSERT_EQ(out.size(), 6u + 50000u);
  EXPECT_EQ(out.substr(0, 6), "prefix");
  for (size_t i = 6; i < out.size(); i += 10) ASSERT_EQ(out.compare(i, 10, "0123456789"), 0) << i;
}

}  // namespace
}  // namespace wire
}  // namespace ge
