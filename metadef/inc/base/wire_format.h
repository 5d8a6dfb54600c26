// metadef/inc/base/wire_format.h
//
// Protobuf wire-format primitives for the hand-written readers and writers
// of the project (the graph codec, the ONNX parser's weight hold-out), which
// walk or emit protobuf messages directly instead of through generated
// message objects. Internal: not ABI-public (not under inc/external).
//
// WireWriter emits canonical proto3 encoding, byte-identical to the
// generated serializer's: fields in the order the caller writes them (write
// them in field-number order), proto3 scalars only when non-zero, strings
// only when non-empty (repeated elements and oneof members always), packed
// repeated scalars, minimal varints, negative int32 as 10-byte varints.
// Nested messages: BeginMessage reserves length bytes and EndMessage patches
// them (moving the body when the length needs another number of bytes).
// AppendLenField appends one length-delimited field to a string.
//
// WireReader walks the fields of one message; every read checks bounds, so a
// truncated or malformed message makes it return false (and stay failed),
// never read out of bounds. Field number 0, numbers above 2^29 - 1, varints
// longer than 10 bytes or overflowing 64 bits, and groups (wire types 3 / 4)
// are rejected.
//
// Example
//   std::string out;
//   {
//     WireWriter w(&out);
//     w.String(1, name);
//     const size_t m = w.BeginMessage(3);
//     w.PackedInt64(1, absl::MakeConstSpan(dims));
//     w.EndMessage(m);
//   }  // out holds exactly the bytes written
//   WireReader r(out);
//   uint32_t field;
//   WireType type;
//   while (r.Next(&field, &type)) {
//     if (field == 1) { absl::string_view s; if (!r.Bytes(type, &s)) break; }
//     else if (!r.Skip(type)) break;
//   }
//   if (!r.ok()) ... malformed ...
#ifndef METADEF_INC_BASE_WIRE_FORMAT_H_
#define METADEF_INC_BASE_WIRE_FORMAT_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "absl/container/inlined_vector.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace ge {
namespace wire {

enum WireType : uint32_t {
  kVarint = 0,
  kFixed64 = 1,
  kLen = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

inline size_t VarintSize(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

inline size_t EncodeVarint(uint64_t v, char* buf) {
  size_t n = 0;
  while (v >= 0x80) {
    buf[n++] = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  buf[n++] = static_cast<char>(v);
  return n;
}

// Appends one length-delimited field (tag, length, payload) to *out.
inline void AppendLenField(uint32_t field, absl::string_view payload, std::string* out) {
  char head[20];
  size_t n = EncodeVarint((static_cast<uint64_t>(field) << 3) | kLen, head);
  n += EncodeVarint(payload.size(), head + n);
  out->append(head, n);
  out->append(payload.data(), payload.size());
}

class WireWriter {
 public:
  // Appends to *out; the string is sized to the bytes written when the
  // writer is destroyed (it holds spare capacity while writing).
  explicit WireWriter(std::string* out) : out_(out), len_(out->size()) {}
  ~WireWriter() { out_->resize(len_); }
  WireWriter(const WireWriter&) = delete;
  WireWriter& operator=(const WireWriter&) = delete;

  size_t size() const { return len_; }
  // Drops the bytes after `size` (no nested message may be open past it).
  void Truncate(size_t size) { len_ = size; }

  // n writable bytes at the end; commit them with Commit(n).
  // (Inline fast path: this runs for every field written.)
  char* Reserve(size_t n) {
    if (__builtin_expect(out_->size() - len_ < n, 0)) ReserveSlow(n);
    return &(*out_)[len_];
  }
  void Commit(size_t n) { len_ += n; }
  // Capacity for `total` bytes in all (a writer that can estimate its final
  // size grows once, early, instead of doubling late: a doubling copies and
  // keeps both buffers for a moment).
  void ReserveTotal(size_t total) {
    if (total > out_->capacity()) Grow(total);
  }
  void Append(const char* data, size_t n) {
    if (n == 0) return;
    std::memcpy(Reserve(n), data, n);
    len_ += n;
  }
  void Append(absl::string_view s) { Append(s.data(), s.size()); }
  void Byte(char c) {
    *Reserve(1) = c;
    ++len_;
  }

  void Varint(uint64_t v) {
    char* p = Reserve(10);
    if (v < 0x80) {
      *p = static_cast<char>(v);
      ++len_;
      return;
    }
    len_ += EncodeVarint(v, p);
  }
  void Tag(uint32_t field, WireType type) { Varint((static_cast<uint64_t>(field) << 3) | type); }

  // proto3 singular scalars: written only when not zero / empty.
  void Int64(uint32_t field, int64_t v) {
    if (v != 0) Int64Always(field, v);
  }
  void Int32(uint32_t field, int32_t v) {
    if (v != 0) Int32Always(field, v);
  }
  void UInt32(uint32_t field, uint32_t v) {
    if (v != 0) UInt32Always(field, v);
  }
  void Bool(uint32_t field, bool v) {
    if (v) BoolAlways(field, v);
  }
  void String(uint32_t field, absl::string_view s) {
    if (!s.empty()) StringAlways(field, s);
  }

  // Fields with presence (proto3 optional, oneof members, repeated elements).
  void Int64Always(uint32_t field, int64_t v) {
    Tag(field, kVarint);
    Varint(static_cast<uint64_t>(v));
  }
  void Int32Always(uint32_t field, int32_t v) {
    Tag(field, kVarint);
    Varint(static_cast<uint64_t>(static_cast<int64_t>(v)));  // sign-extended
  }
  void UInt32Always(uint32_t field, uint32_t v) {
    Tag(field, kVarint);
    Varint(v);
  }
  void BoolAlways(uint32_t field, bool v) {
    Tag(field, kVarint);
    Byte(v ? 1 : 0);
  }
  void FloatAlways(uint32_t field, float v) {
    Tag(field, kFixed32);
    uint32_t bits;
    std::memcpy(&bits, &v, sizeof(bits));
    char* p = Reserve(4);
    for (int i = 0; i < 4; ++i) p[i] = static_cast<char>((bits >> (8 * i)) & 0xff);
    len_ += 4;
  }
  void StringAlways(uint32_t field, absl::string_view s) {
    Tag(field, kLen);
    Varint(s.size());
    Append(s);
  }

  // Packed repeated scalars; nothing when empty.
  template <typename T>
  void PackedInt64(uint32_t field, absl::Span<const T> values) {
    if (values.empty()) return;
    size_t len = 0;
    for (T v : values) len += VarintSize(static_cast<uint64_t>(static_cast<int64_t>(v)));
    Tag(field, kLen);
    Varint(len);
    char* p = Reserve(len);
    for (T v : values) p += EncodeVarint(static_cast<uint64_t>(static_cast<int64_t>(v)), p);
    len_ += len;
  }
  template <typename T>
  void PackedUInt32(uint32_t field, absl::Span<const T> values) {
    if (values.empty()) return;
    size_t len = 0;
    for (T v : values) len += VarintSize(static_cast<uint32_t>(v));
    Tag(field, kLen);
    Varint(len);
    char* p = Reserve(len);
    for (T v : values) p += EncodeVarint(static_cast<uint32_t>(v), p);
    len_ += len;
  }

  // A nested message: returns the body start for EndMessage. The length is
  // written in front of the body when it is known; room for it is reserved
  // from `size_hint` (the expected body size), and the body moves only when
  // the length needs another number of bytes.
  size_t BeginMessage(uint32_t field, size_t size_hint = 0) {
    Tag(field, kLen);
    const size_t reserved = VarintSize(size_hint);
    std::memset(Reserve(reserved), 0, reserved);
    len_ += reserved;
    reserved_.push_back(static_cast<uint8_t>(reserved));
    return len_;
  }
  // A nested message whose bytes are already encoded.
  void Message(uint32_t field, absl::string_view bytes) { StringAlways(field, bytes); }

  void EndMessage(size_t start) {
    const size_t reserved = reserved_.back();
    reserved_.pop_back();
    const size_t len = len_ - start;
    if (reserved == 1 && len < 0x80) {
      (*out_)[start - 1] = static_cast<char>(len);
      return;
    }
    char buf[10];
    const size_t n = EncodeVarint(len, buf);
    if (n > reserved) Reserve(n - reserved);
    char* base = &(*out_)[0];
    if (n != reserved) std::memmove(base + start - reserved + n, base + start, len);
    std::memcpy(base + start - reserved, buf, n);
    len_ = len_ - reserved + n;
  }

 private:
  // Moves the written bytes into a buffer of `capacity` bytes. The capacity
  // is exposed in bounded steps: resize zeroes what it exposes, so exposing
  // a doubled buffer at once would touch twice the memory the bytes need.
  __attribute__((noinline)) void ReserveSlow(size_t n) {
    constexpr size_t kStep = size_t{4} << 20;
    if (len_ + n > out_->capacity()) Grow(std::max(len_ + n, out_->capacity() * 2 + 256));
    out_->resize(std::min(out_->capacity(), std::max(len_ + n, out_->size() + kStep)));
  }

  void Grow(size_t capacity) {
    std::string bigger;
    bigger.reserve(capacity);
    bigger.assign(out_->data(), len_);
    out_->swap(bigger);
  }

  std::string* out_;
  size_t len_;                                 // bytes written; out_->size() >= len_
  absl::InlinedVector<uint8_t, 16> reserved_;  // length bytes reserved per open message
};

class WireReader {
 public:
  explicit WireReader(absl::string_view data)
      : p_(reinterpret_cast<const uint8_t*>(data.data())), end_(p_ + data.size()) {}

  bool ok() const { return ok_; }
  bool AtEnd() const { return p_ == end_; }
  // Where the next read starts (inside the viewed bytes).
  const char* pos() const { return reinterpret_cast<const char*>(p_); }

  // Reads the next field's tag; false at the end of the message or on error
  // (check ok()).
  bool Next(uint32_t* field, WireType* type) {
    if (!ok_ || p_ == end_) return false;
    uint64_t tag;
    if (!ReadVarint(&tag)) return false;
    const uint64_t number = tag >> 3;
    const uint32_t wt = static_cast<uint32_t>(tag & 7);
    if (number == 0 || number > 0x1fffffff || wt == kStartGroup || wt == kEndGroup ||
        wt > kFixed32) {
      return Fail();
    }
    *field = static_cast<uint32_t>(number);
    *type = static_cast<WireType>(wt);
    return true;
  }

  // Reads the next field's tag and value: *payload is the bytes after the
  // length for kLen, the value's raw encoding for the other wire types.
  // False at the end of the message or on error (check ok()).
  bool Field(uint32_t* field, WireType* type, absl::string_view* payload) {
    if (!Next(field, type)) return false;
    if (*type == kLen) return ReadLen(payload);
    const uint8_t* start = p_;
    if (!Skip(*type)) return false;
    *payload =
        absl::string_view(reinterpret_cast<const char*>(start), static_cast<size_t>(p_ - start));
    return true;
  }

  bool ReadVarint(uint64_t* v) {
    uint64_t result = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      if (p_ == end_) return Fail();
      const uint8_t b = *p_++;
      if (shift == 63 && b > 1) return Fail();
      result |= static_cast<uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) {
        *v = result;
        return true;
      }
    }
    return Fail();
  }
  bool ReadLen(absl::string_view* v) {
    uint64_t len;
    if (!ReadVarint(&len)) return false;
    if (len > static_cast<uint64_t>(end_ - p_)) return Fail();
    *v = absl::string_view(reinterpret_cast<const char*>(p_), static_cast<size_t>(len));
    p_ += len;
    return true;
  }
  bool ReadFixed32(uint32_t* v) {
    if (end_ - p_ < 4) return Fail();
    *v = static_cast<uint32_t>(p_[0]) | (static_cast<uint32_t>(p_[1]) << 8) |
         (static_cast<uint32_t>(p_[2]) << 16) | (static_cast<uint32_t>(p_[3]) << 24);
    p_ += 4;
    return true;
  }
  bool Skip(WireType type) {
    uint64_t v;
    absl::string_view s;
    switch (type) {
      case kVarint:
        return ReadVarint(&v);
      case kFixed64:
        if (end_ - p_ < 8) return Fail();
        p_ += 8;
        return true;
      case kLen:
        return ReadLen(&s);
      case kFixed32:
        if (end_ - p_ < 4) return Fail();
        p_ += 4;
        return true;
      default:
        return Fail();
    }
  }

  // Typed reads of the current field's value, checking its wire type.
  bool Int64(WireType type, int64_t* v) {
    uint64_t u;
    if (type != kVarint || !ReadVarint(&u)) return Fail();
    *v = static_cast<int64_t>(u);
    return true;
  }
  bool Int32(WireType type, int32_t* v) {
    int64_t w;
    if (!Int64(type, &w)) return false;
    *v = static_cast<int32_t>(w);  // protobuf truncates int32 the same way
    return true;
  }
  bool UInt32(WireType type, uint32_t* v) {
    int64_t w;
    if (!Int64(type, &w)) return false;
    *v = static_cast<uint32_t>(w);
    return true;
  }
  bool Bool(WireType type, bool* v) {
    int64_t w;
    if (!Int64(type, &w)) return false;
    *v = w != 0;
    return true;
  }
  bool Bytes(WireType type, absl::string_view* v) {
    if (type != kLen) return Fail();
    return ReadLen(v);
  }
  // A repeated varint field, packed (kLen) or not (kVarint): calls
  // fn(int64_t) for each element.
  template <typename Fn>
  bool Repeated(WireType type, Fn fn) {
    if (type == kVarint) {
      uint64_t u;
      if (!ReadVarint(&u)) return false;
      return fn(static_cast<int64_t>(u));
    }
    absl::string_view packed;
    if (type != kLen || !ReadLen(&packed)) return Fail();
    WireReader r(packed);
    while (!r.AtEnd()) {
      uint64_t u;
      if (!r.ReadVarint(&u)) return Fail();
      if (!fn(static_cast<int64_t>(u))) return false;
    }
    return true;
  }

  bool Fail() {
    ok_ = false;
    p_ = end_;
    return false;
  }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

}  // namespace wire
}  // namespace ge

#endif  // METADEF_INC_BASE_WIRE_FORMAT_H_
