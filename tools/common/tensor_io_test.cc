// Tests of tools/common/tensor_io.h: NumPy / TensorProto files against
// files written by NumPy and onnx.numpy_helper (tools/models test data),
// bad inputs, deterministic generation.
#include "tools/common/tensor_io.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace tools {
namespace {

using ::testing::HasSubstr;

std::string DataFile(const std::string& name) { return "tools/models/" + name; }

gert::HostTensor FloatTensor(std::vector<int64_t> dims, std::vector<float> v) {
  auto shape = gert::Shape::FromDims(dims);
  EXPECT_TRUE(shape.ok());
  auto t = gert::HostTensor::CreateFrom(DT_FLOAT, *shape, v.data(), v.size() * sizeof(float));
  EXPECT_TRUE(t.ok()) << t.status();
  return std::move(*t);
}

// A .npy with the given header dict and payload (version `major`).
std::string MakeNpy(const std::string& dict, const std::string& payload, int major = 1) {
  std::string out("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  std::string header = dict + "\n";
  if (major == 1) {
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
  } else {
    for (int i = 0; i < 4; ++i) out += static_cast<char>((header.size() >> (8 * i)) & 0xff);
  }
  return out + header + payload;
}

std::string FloatBytes(const std::vector<float>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(float));
}

TEST(TensorIoTest, NumpyAndTensorProtoFilesAgree) {
  auto npy = ReadTensorFile(DataFile("small_cnn_input.npy"));
  ASSERT_TRUE(npy.ok()) << npy.status();
  auto pb = ReadTensorFile(DataFile("small_cnn_input.pb"));
  ASSERT_TRUE(pb.ok()) << pb.status();
  EXPECT_EQ(npy->GetDataType(), DT_FLOAT);
  EXPECT_EQ(npy->GetShape().ToVector(), (std::vector<int64_t>{1, 3, 32, 32}));
  EXPECT_EQ(pb->GetShape().ToVector(), npy->GetShape().ToVector());
  ASSERT_EQ(npy->tensor().GetSize(), pb->tensor().GetSize());
  EXPECT_EQ(std::memcmp(npy->tensor().GetAddr(), pb->tensor().GetAddr(), npy->tensor().GetSize()),
            0);
  // Values are uniform in [-1, 1) and not all equal.
  EXPECT_NE(npy->GetData<float>()[0], npy->GetData<float>()[1]);
}

TEST(TensorIoTest, NpyRoundTrip) {
  gert::HostTensor t = FloatTensor({2, 3}, {1, 2, 3, 4, 5, 6.5f});
  auto bytes = TensorToNpy(t.tensor());
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ((bytes->size() - 6 * 4) % 64, 0u);  // data 64-aligned like NumPy
  auto back = ParseNpy(*bytes, "rt");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->GetShape().ToVector(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(back->GetData<float>()[5], 6.5f);
}

TEST(TensorIoTest, NpyVersion2ScalarAndBool) {
  auto scalar = ParseNpy(
      MakeNpy("{'descr': '<f8', 'fortran_order': False, 'shape': (), }", std::string(8, '\0'), 2),
      "s");
  ASSERT_TRUE(scalar.ok()) << scalar.status();
  EXPECT_EQ(scalar->GetDataType(), DT_DOUBLE);
  EXPECT_EQ(scalar->GetShape().GetDimNum(), 0u);
  auto b = ParseNpy(MakeNpy("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
                            std::string("\x01\x00\x02", 3)),
                    "b");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->GetDataType(), DT_BOOL);
  EXPECT_TRUE(b->GetData<bool>()[0]);
  EXPECT_FALSE(b->GetData<bool>()[1]);
  EXPECT_TRUE(b->GetData<bool>()[2]);
}

TEST(TensorIoTest, NpyBadInputs) {
  const std::string ok_dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  EXPECT_THAT(std::string(ParseNpy("not numpy", "x.npy").status().message()),
              HasSubstr("x.npy: not a .npy file"));
  // Wrong payload size names both counts.
  Status st = ParseNpy(MakeNpy(ok_dict, FloatBytes({1})), "x.npy").status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParseFailed);
  EXPECT_THAT(std::string(st.message()), HasSubstr("needs 8 data bytes, the file has 4"));
  st = ParseNpy(
           MakeNpy("{'descr': '<f4', 'fortran_order': True, 'shape': (2,), }", FloatBytes({1, 2})),
           "x")
           .status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotSupported);
  st = ParseNpy(
           MakeNpy("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", FloatBytes({1, 2})),
           "x")
           .status();
  EXPECT_THAT(std::string(st.message()), HasSubstr("big-endian"));
  st = ParseNpy(MakeNpy("{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", ""), "x")
           .status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotSupported);
  st = ParseNpy(MakeNpy("{'descr': '<f4', 'fortran_order': False, 'shape': (-2,), }", ""), "x")
           .status();
  EXPECT_THAT(std::string(st.message()), HasSubstr("bad dim"));
  st = ParseNpy(MakeNpy("{'fortran_order': False, 'shape': (2,), }", FloatBytes({1, 2})), "x")
           .status();
  EXPECT_THAT(std::string(st.message()), HasSubstr("'descr'"));
  // Header length beyond the file.
  std::string trunc = MakeNpy(ok_dict, FloatBytes({1, 2}));
  trunc[8] = '\xff';
  trunc[9] = '\x7f';
  EXPECT_THAT(std::string(ParseNpy(trunc, "x").status().message()), HasSubstr("exceeds"));
  // Overflowing shape.
  st = ParseNpy(MakeNpy("{'descr': '<f4', 'fortran_order': False, "
                        "'shape': (4611686018427387904, 4), }",
                        ""),
                "x")
           .status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kOverflow);
  // Every prefix of a valid file fails cleanly.
  const std::string good = MakeNpy(ok_dict, FloatBytes({1, 2}));
  for (size_t n = 0; n < good.size(); ++n) {
    EXPECT_FALSE(ParseNpy(good.substr(0, n), "prefix").ok()) << n;
  }
}

TEST(TensorIoTest, OnnxTensorRoundTripAndBadBytes) {
  gert::HostTensor t = FloatTensor({1, 4}, {0.5f, -1, 2, 3});
  auto bytes = TensorToOnnxBytes(t.tensor(), "output_0");
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  auto back = ParseOnnxTensor(*bytes, "o.pb");
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(back->GetShape().ToVector(), (std::vector<int64_t>{1, 4}));
  EXPECT_EQ(back->GetData<float>()[0], 0.5f);
  EXPECT_EQ(back->GetData<float>()[3], 3.0f);
  Status st = ParseOnnxTensor("\xff\xff\xff", "bad.pb").status();
  EXPECT_FALSE(st.ok());
  EXPECT_THAT(std::string(st.message()), HasSubstr("bad.pb"));
  EXPECT_EQ(GetErrorCode(ReadTensorFile("/nonexistent/x.pb").status()), ErrorCode::kNotFound);
}

TEST(TensorIoTest, DeterministicTensors) {
  auto a = MakeDeterministicTensor(DT_FLOAT, {2, 8}, 7);
  auto b = MakeDeterministicTensor(DT_FLOAT, {2, 8}, 7);
  auto c = MakeDeterministicTensor(DT_FLOAT, {2, 8}, 8);
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(std::memcmp(a->tensor().GetAddr(), b->tensor().GetAddr(), 64), 0);
  EXPECT_NE(std::memcmp(a->tensor().GetAddr(), c->tensor().GetAddr(), 64), 0);
  for (int i = 0; i < 16; ++i) {
    EXPECT_GE(a->GetData<float>()[i], -1.0f);
    EXPECT_LT(a->GetData<float>()[i], 1.0f);
  }
  auto ints = MakeDeterministicTensor(DT_INT64, {5}, 1);
  ASSERT_TRUE(ints.ok());
  for (int i = 0; i < 5; ++i) {
    EXPECT_GE(ints->GetData<int64_t>()[i], 0);
    EXPECT_LT(ints->GetData<int64_t>()[i], 10);
  }
  auto half = MakeDeterministicTensor(DT_FLOAT16, {4}, 1);
  ASSERT_TRUE(half.ok());
  EXPECT_LE(std::abs(ElementAsDouble(half->tensor(), 0)), 1.0);
  Status st = MakeDeterministicTensor(DT_FLOAT, {1, -1}, 1).status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_THAT(std::string(st.message()), HasSubstr("unknown dim 1"));
  EXPECT_EQ(GetErrorCode(MakeDeterministicTensor(DT_STRING, {1}, 1).status()),
            ErrorCode::kNotSupported);
}

}  // namespace
}  // namespace tools
}  // namespace ge
