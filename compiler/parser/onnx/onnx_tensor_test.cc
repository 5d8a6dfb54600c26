// compiler/parser/onnx/onnx_tensor_test.cc
//
// TensorProto / SparseTensorProto / TypeProto conversion: every element type
// from typed fields and raw_data, bit patterns of float16 / bfloat16, bools,
// strings (GE layout), complex, count checks, external data (offset, length,
// path containment), dim_param and sequence / optional descs.
#include "compiler/parser/onnx/onnx_tensor.h"

#include <sys/stat.h>
#include <unistd.h>

#include <complex>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "graph/inc/graph/attr_value.h"
#include "gtest/gtest.h"

namespace ge {
namespace onnx_parser {
namespace {

using onnx::TensorProto;

template <typename T>
std::vector<T> Values(const GeTensor& t) {
  std::vector<T> out(t.GetDataSize() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), t.GetData().data(), out.size() * sizeof(T));
  return out;
}

TensorProto Make(int32_t type, std::vector<int64_t> dims) {
  TensorProto t;
  t.set_name("t");
  t.set_data_type(type);
  for (int64_t d : dims) t.add_dims(d);
  return t;
}

const TensorLoadContext kNoDir;

TEST(OnnxTensorTest, DataTypeMapping) {
  EXPECT_EQ(*DataTypeFromOnnx(TensorProto::FLOAT), DT_FLOAT);
  EXPECT_EQ(*DataTypeFromOnnx(TensorProto::BFLOAT16), DT_BF16);
  EXPECT_EQ(*DataTypeFromOnnx(TensorProto::FLOAT16), DT_FLOAT16);
  EXPECT_EQ(*DataTypeFromOnnx(TensorProto::COMPLEX128), DT_COMPLEX128);
  EXPECT_EQ(*DataTypeFromOnnx(TensorProto::UNDEFINED), DT_UNDEFINED);
  for (int32_t t = 1; t <= 16; ++t) {
    ASSERT_TRUE(DataTypeFromOnnx(t).ok()) << t;
    EXPECT_EQ(*DataTypeToOnnx(*DataTypeFromOnnx(t)), t);
  }
  StatusOr<DataType> bad = DataTypeFromOnnx(99);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(std::string(bad.status().message()), "unknown ONNX element type 99");
  EXPECT_FALSE(DataTypeToOnnx(DT_QINT8).ok());
  EXPECT_EQ(OnnxElemTypeName(TensorProto::BFLOAT16), "bfloat16");
  EXPECT_EQ(OnnxElemTypeName(77), "elem_type(77)");
}

TEST(OnnxTensorTest, FloatFromTypedFieldAndRawData) {
  TensorProto t = Make(TensorProto::FLOAT, {2, 2});
  for (float v : {1.5f, -2.0f, 0.0f, 3.25f}) t.add_float_data(v);
  StatusOr<GeTensor> g = TensorFromOnnx(t, kNoDir, "initializer 't'");
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->GetTensorDesc().GetDataType(), DT_FLOAT);
  EXPECT_EQ(g->GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(Values<float>(*g), (std::vector<float>{1.5f, -2.0f, 0.0f, 3.25f}));

  TensorProto raw = Make(TensorProto::FLOAT, {3});
  const float vals[3] = {7.0f, 8.5f, -1.0f};
  raw.set_raw_data(std::string(reinterpret_cast<const char*>(vals), sizeof(vals)));
  StatusOr<GeTensor> r = TensorFromOnnx(raw, kNoDir, "x");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(Values<float>(*r), (std::vector<float>{7.0f, 8.5f, -1.0f}));
}

TEST(OnnxTensorTest, ScalarAndEmptyTensors) {
  TensorProto s = Make(TensorProto::INT64, {});
  s.add_int64_data(42);
  StatusOr<GeTensor> g = TensorFromOnnx(s, kNoDir, "s");
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_TRUE(g->GetTensorDesc().GetShape().IsScalar());
  EXPECT_EQ(Values<int64_t>(*g), std::vector<int64_t>{42});

  TensorProto e = Make(TensorProto::FLOAT, {0, 3});
  StatusOr<GeTensor> empty = TensorFromOnnx(e, kNoDir, "e");
  ASSERT_TRUE(empty.ok()) << empty.status();
  EXPECT_EQ(empty->GetDataSize(), 0u);
  EXPECT_EQ(empty->GetTensorDesc().GetShape().GetDims(), (std::vector<int64_t>{0, 3}));
}

TEST(OnnxTensorTest, SmallIntegerTypesFromInt32Data) {
  TensorProto i8 = Make(TensorProto::INT8, {3});
  for (int v : {-128, 5, 127}) i8.add_int32_data(v);
  EXPECT_EQ(Values<int8_t>(*TensorFromOnnx(i8, kNoDir, "a")), (std::vector<int8_t>{-128, 5, 127}));

  TensorProto u16 = Make(TensorProto::UINT16, {2});
  for (int v : {65535, 1}) u16.add_int32_data(v);
  EXPECT_EQ(Values<uint16_t>(*TensorFromOnnx(u16, kNoDir, "a")), (std::vector<uint16_t>{65535, 1}));

  TensorProto b = Make(TensorProto::BOOL, {3});
  for (int v : {1, 0, 7}) b.add_int32_data(v);
  StatusOr<GeTensor> bt = TensorFromOnnx(b, kNoDir, "b");
  ASSERT_TRUE(bt.ok());
  EXPECT_EQ(bt->GetTensorDesc().GetDataType(), DT_BOOL);
  EXPECT_EQ(Values<uint8_t>(*bt), (std::vector<uint8_t>{1, 0, 1}));  // normalised to 0/1

  TensorProto u32 = Make(TensorProto::UINT32, {2});
  u32.add_uint64_data(4000000000u);
  u32.add_uint64_data(3);
  EXPECT_EQ(Values<uint32_t>(*TensorFromOnnx(u32, kNoDir, "a")),
            (std::vector<uint32_t>{4000000000u, 3}));

  TensorProto u64 = Make(TensorProto::UINT64, {1});
  u64.add_uint64_data(0xFFFFFFFFFFFFFFFFull);
  EXPECT_EQ(Values<uint64_t>(*TensorFromOnnx(u64, kNoDir, "a")),
            (std::vector<uint64_t>{0xFFFFFFFFFFFFFFFFull}));

  TensorProto d = Make(TensorProto::DOUBLE, {2});
  d.add_double_data(0.1);
  d.add_double_data(-2.5);
  EXPECT_EQ(Values<double>(*TensorFromOnnx(d, kNoDir, "a")), (std::vector<double>{0.1, -2.5}));
}

TEST(OnnxTensorTest, HalfAndBfloat16KeepBits) {
  TensorProto h = Make(TensorProto::FLOAT16, {2});
  h.add_int32_data(0x3C00);  // 1.0
  h.add_int32_data(0xC000);  // -2.0
  StatusOr<GeTensor> ht = TensorFromOnnx(h, kNoDir, "h");
  ASSERT_TRUE(ht.ok());
  EXPECT_EQ(ht->GetTensorDesc().GetDataType(), DT_FLOAT16);
  EXPECT_EQ(Values<uint16_t>(*ht), (std::vector<uint16_t>{0x3C00, 0xC000}));

  TensorProto bf = Make(TensorProto::BFLOAT16, {1});
  const uint16_t bits = 0x3F80;  // 1.0
  bf.set_raw_data(std::string(reinterpret_cast<const char*>(&bits), 2));
  StatusOr<GeTensor> bt = TensorFromOnnx(bf, kNoDir, "bf");
  ASSERT_TRUE(bt.ok());
  EXPECT_EQ(bt->GetTensorDesc().GetDataType(), DT_BF16);
  EXPECT_EQ(Values<uint16_t>(*bt), std::vector<uint16_t>{0x3F80});
}

TEST(OnnxTensorTest, ComplexPairs) {
  TensorProto c = Make(TensorProto::COMPLEX64, {2});
  for (float v : {1.0f, 2.0f, -3.0f, 0.5f}) c.add_float_data(v);
  StatusOr<GeTensor> g = TensorFromOnnx(c, kNoDir, "c");
  ASSERT_TRUE(g.ok()) << g.status();
  std::vector<std::complex<float>> v = Values<std::complex<float>>(*g);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1], std::complex<float>(-3.0f, 0.5f));

  TensorProto bad = Make(TensorProto::COMPLEX128, {2});
  bad.add_double_data(1.0);
  StatusOr<GeTensor> b = TensorFromOnnx(bad, kNoDir, "initializer 'c'");
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(std::string(b.status().message()),
            "initializer 'c': double_data holds 1 values but shape [2] of complex128 needs 4");
}

TEST(OnnxTensorTest, StringsUseGeLayout) {
  TensorProto s = Make(TensorProto::STRING, {3});
  s.add_string_data("ab");
  s.add_string_data("");
  s.add_string_data(std::string("x\0y", 3));
  StatusOr<GeTensor> g = TensorFromOnnx(s, kNoDir, "s");
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->GetTensorDesc().GetDataType(), DT_STRING);
  // 3 headers of 16 bytes, then "ab\0", "\0", "x\0y\0".
  EXPECT_EQ(g->GetDataSize(), 3u * 16 + 3 + 1 + 4);
  StatusOr<std::vector<std::string>> back = DecodeStringTensorData(g->GetData(), 3);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, (std::vector<std::string>{"ab", "", std::string("x\0y", 3)}));

  // Corrupt data is an error, not a crash.
  std::vector<uint8_t> corrupt = EncodeStringTensorData({"hello"});
  int64_t huge = 1 << 30;
  std::memcpy(corrupt.data() + 8, &huge, 8);
  EXPECT_FALSE(DecodeStringTensorData(corrupt, 1).ok());
  EXPECT_FALSE(DecodeStringTensorData(corrupt, 5).ok());
  EXPECT_FALSE(DecodeStringTensorData(corrupt, -1).ok());
}

TEST(OnnxTensorTest, CountAndShapeErrorsNameTheTensor) {
  TensorProto t = Make(TensorProto::FLOAT, {2, 3});
  t.add_float_data(1.0f);
  StatusOr<GeTensor> g = TensorFromOnnx(t, kNoDir, "initializer 'w'");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kParseFailed);
  EXPECT_EQ(std::string(g.status().message()),
            "initializer 'w': float_data holds 1 values but shape [2,3] of float needs 6");

  TensorProto raw = Make(TensorProto::INT32, {4});
  raw.set_raw_data(std::string(12, '\0'));
  g = TensorFromOnnx(raw, kNoDir, "initializer 'r'");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(std::string(g.status().message()),
            "initializer 'r': raw_data has 12 bytes but shape [4] of int32 needs 16");

  TensorProto neg = Make(TensorProto::FLOAT, {2, -1});
  g = TensorFromOnnx(neg, kNoDir, "initializer 'n'");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(std::string(g.status().message()),
            "initializer 'n': dim 1 is negative (-1) in shape [2,-1]");

  TensorProto big = Make(TensorProto::FLOAT, {1LL << 40, 1LL << 40});
  g = TensorFromOnnx(big, kNoDir, "initializer 'big'");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kOverflow);

  // A shape of 2^41 floats with one value: the count check, not an 8 TiB
  // allocation (std::bad_alloc; found by //testing/fuzz:onnx_mutation_fuzz).
  for (auto type : {TensorProto::FLOAT, TensorProto::INT64, TensorProto::BOOL}) {
    TensorProto huge = Make(type, {1LL << 41});
    huge.add_float_data(1.0f);
    g = TensorFromOnnx(huge, kNoDir, "attribute 'value'");
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(GetErrorCode(g.status()), ErrorCode::kParseFailed) << g.status();
    EXPECT_NE(g.status().message().find("needs 2199023255552"), std::string::npos) << g.status();
  }

  TensorProto none = Make(TensorProto::UNDEFINED, {1});
  EXPECT_FALSE(TensorFromOnnx(none, kNoDir, "u").ok());

  TensorProto seg = Make(TensorProto::FLOAT, {1});
  seg.add_float_data(1.0f);
  seg.mutable_segment()->set_begin(0);
  EXPECT_EQ(GetErrorCode(TensorFromOnnx(seg, kNoDir, "s").status()), ErrorCode::kNotSupported);
}

TEST(OnnxTensorTest, SparseToDense) {
  onnx::SparseTensorProto sp;
  sp.add_dims(2);
  sp.add_dims(3);
  *sp.mutable_values() = Make(TensorProto::FLOAT, {2});
  sp.mutable_values()->add_float_data(5.0f);
  sp.mutable_values()->add_float_data(7.0f);
  *sp.mutable_indices() = Make(TensorProto::INT64, {2});
  sp.mutable_indices()->add_int64_data(1);
  sp.mutable_indices()->add_int64_data(5);
  StatusOr<GeTensor> g = SparseTensorFromOnnx(sp, kNoDir, "sparse 's'");
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(Values<float>(*g), (std::vector<float>{0, 5, 0, 0, 0, 7}));

  // Coordinates form [NNZ, rank].
  onnx::SparseTensorProto co = sp;
  *co.mutable_indices() = Make(TensorProto::INT64, {2, 2});
  for (int64_t v : {0, 2, 1, 0}) co.mutable_indices()->add_int64_data(v);
  g = SparseTensorFromOnnx(co, kNoDir, "sparse 's'");
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(Values<float>(*g), (std::vector<float>{0, 0, 5, 7, 0, 0}));

  onnx::SparseTensorProto out = sp;
  out.mutable_indices()->set_int64_data(1, 6);
  g = SparseTensorFromOnnx(out, kNoDir, "sparse 's'");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(std::string(g.status().message()),
            "sparse 's': index 1 is 6, outside the 6 elements of shape [2,3]");
}

TEST(OnnxTensorTest, TypeProtoToDesc) {
  onnx::TypeProto t;
  auto* tt = t.mutable_tensor_type();
  tt->set_elem_type(TensorProto::FLOAT);
  tt->mutable_shape()->add_dim()->set_dim_param("batch");
  tt->mutable_shape()->add_dim()->set_dim_value(3);
  tt->mutable_shape()->add_dim();
  StatusOr<GeTensorDesc> d = DescFromOnnxType(t, "input 'x'");
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_EQ(d->GetDataType(), DT_FLOAT);
  EXPECT_EQ(d->GetShape().GetDims(), (std::vector<int64_t>{-1, 3, -1}));
  const AttrValue* params = d->GetAttr(kAttrDimParams);
  ASSERT_NE(params, nullptr);
  EXPECT_EQ(*params->Get<std::vector<std::string>>(), (std::vector<std::string>{"batch", "", ""}));

  // No dim_param: no attribute. No shape: unknown rank.
  onnx::TypeProto plain;
  plain.mutable_tensor_type()->set_elem_type(TensorProto::INT64);
  plain.mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(2);
  d = DescFromOnnxType(plain, "v");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->GetAttr(kAttrDimParams), nullptr);
  plain.mutable_tensor_type()->clear_shape();
  d = DescFromOnnxType(plain, "v");
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->GetShape().IsUnknownDimNum());

  onnx::TypeProto seq;
  *seq.mutable_sequence_type()->mutable_elem_type() = plain;
  d = DescFromOnnxType(seq, "v");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->GetDataType(), DT_VARIANT);
  EXPECT_EQ(d->GetShape().GetDims(), std::vector<int64_t>{-1});
  EXPECT_EQ(*d->GetAttr(kAttrOnnxType)->Get<std::string>(), "seq(tensor(int64))");

  onnx::TypeProto opt;
  *opt.mutable_optional_type()->mutable_elem_type() = seq;
  d = DescFromOnnxType(opt, "v");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(*d->GetAttr(kAttrOnnxType)->Get<std::string>(), "optional(seq(tensor(int64)))");

  onnx::TypeProto map;
  map.mutable_map_type()->set_key_type(TensorProto::INT64);
  *map.mutable_map_type()->mutable_value_type() = plain;
  d = DescFromOnnxType(map, "output 'm'");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(std::string(d.status().message()),
            "output 'm': ONNX type map(int64,tensor(int64)) is not supported");

  onnx::TypeProto none;
  d = DescFromOnnxType(none, "v");
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->GetDataType(), DT_UNDEFINED);
}

// ------------------------------------------------------------ external data

class ExternalDataTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* tmp = std::getenv("TEST_TMPDIR");
    root_ = std::string(tmp == nullptr ? "/tmp" : tmp) + "/ext_data_test";
    dir_ = root_ + "/model";
    ::mkdir(root_.c_str(), 0755);
    ::mkdir(dir_.c_str(), 0755);
    ::mkdir((dir_ + "/sub").c_str(), 0755);
    const float vals[4] = {1, 2, 3, 4};
    Write(dir_ + "/weights.bin", std::string(reinterpret_cast<const char*>(vals), sizeof(vals)));
    Write(dir_ + "/sub/more.bin", std::string(reinterpret_cast<const char*>(vals), 8));
    Write(root_ + "/secret.bin", std::string(16, 'x'));
  }

  static void Write(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary);
    f << bytes;
  }

  TensorProto External(const std::string& location, int64_t offset, int64_t length,
                       std::vector<int64_t> dims) {
    TensorProto t = Make(TensorProto::FLOAT, dims);
    t.set_data_location(TensorProto::EXTERNAL);
    auto add = [&](const char* k, const std::string& v) {
      auto* e = t.add_external_data();
      e->set_key(k);
      e->set_value(v);
    };
    add("location", location);
    if (offset >= 0) add("offset", std::to_string(offset));
    if (length >= 0) add("length", std::to_string(length));
    return t;
  }

  std::string root_;
  std::string dir_;
};

TEST_F(ExternalDataTest, ReadsWholeFileAndRanges) {
  TensorLoadContext ctx{dir_};
  StatusOr<GeTensor> all = TensorFromOnnx(External("weights.bin", -1, -1, {2, 2}), ctx, "w");
  ASSERT_TRUE(all.ok()) << all.status();
  EXPECT_EQ(Values<float>(*all), (std::vector<float>{1, 2, 3, 4}));

  StatusOr<GeTensor> part = TensorFromOnnx(External("weights.bin", 4, 8, {2}), ctx, "w");
  ASSERT_TRUE(part.ok()) << part.status();
  EXPECT_EQ(Values<float>(*part), (std::vector<float>{2, 3}));

  StatusOr<GeTensor> sub = TensorFromOnnx(External("sub/more.bin", -1, -1, {2}), ctx, "w");
  ASSERT_TRUE(sub.ok()) << sub.status();
  EXPECT_EQ(Values<float>(*sub), (std::vector<float>{1, 2}));
}

TEST_F(ExternalDataTest, RejectsBadLocationsAndSizes) {
  TensorLoadContext ctx{dir_};
  StatusOr<GeTensor> r =
      TensorFromOnnx(External("../secret.bin", -1, -1, {4}), ctx, "initializer 'w'");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(std::string(r.status().message()),
            "initializer 'w': external data location '../secret.bin' resolves outside the model "
            "directory '" +
                dir_ + "'");

  r = TensorFromOnnx(External(root_ + "/secret.bin", -1, -1, {4}), ctx, "initializer 'w'");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);

  r = TensorFromOnnx(External("missing.bin", -1, -1, {4}), ctx, "initializer 'w'");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotFound);
  EXPECT_EQ(std::string(r.status().message()),
            "initializer 'w': external data file 'missing.bin' not found in '" + dir_ + "'");

  r = TensorFromOnnx(External("weights.bin", 8, 16, {4}), ctx, "initializer 'w'");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kOutOfRange);

  r = TensorFromOnnx(External("weights.bin", 20, -1, {1}), ctx, "initializer 'w'");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kOutOfRange);

  r = TensorFromOnnx(External("weights.bin", -1, -1, {3}), ctx, "initializer 'w'");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(std::string(r.status().message()),
            "initializer 'w': external data 'weights.bin' has 16 bytes but shape [3] of float "
            "needs 12");

  TensorProto bad_offset = External("weights.bin", -1, -1, {4});
  auto* e = bad_offset.add_external_data();
  e->set_key("offset");
  e->set_value("abc");
  EXPECT_EQ(GetErrorCode(TensorFromOnnx(bad_offset, ctx, "w").status()), ErrorCode::kParseFailed);

  // No model directory.
  r = TensorFromOnnx(External("weights.bin", -1, -1, {4}), kNoDir, "initializer 'w'");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
}

TEST_F(ExternalDataTest, RejectsSymlinkEscapingTheModelDirectory) {
  const std::string link = dir_ + "/link.bin";
  ::unlink(link.c_str());
  ASSERT_EQ(::symlink((root_ + "/secret.bin").c_str(), link.c_str()), 0);
  StatusOr<GeTensor> r =
      TensorFromOnnx(External("link.bin", -1, -1, {4}), TensorLoadContext{dir_}, "w");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
}

}  // namespace
}  // namespace onnx_parser
}  // namespace ge
