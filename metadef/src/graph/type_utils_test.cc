#include "metadef/inc/external/graph/type_utils.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

using ::testing::HasSubstr;

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();

// Expected names and sizes, written out independently of the implementation.
struct DataTypeCase {
  DataType dt;
  const char* name;
  int64_t bits;  // 0: no fixed size (NotSupported)
};
const DataTypeCase kDataTypeCases[] = {
    {DT_FLOAT, "DT_FLOAT", 32},
    {DT_FLOAT16, "DT_FLOAT16", 16},
    {DT_INT8, "DT_INT8", 8},
    {DT_INT32, "DT_INT32", 32},
    {DT_UINT8, "DT_UINT8", 8},
    {DT_INT16, "DT_INT16", 16},
    {DT_UINT16, "DT_UINT16", 16},
    {DT_UINT32, "DT_UINT32", 32},
    {DT_INT64, "DT_INT64", 64},
    {DT_UINT64, "DT_UINT64", 64},
    {DT_DOUBLE, "DT_DOUBLE", 64},
    {DT_BOOL, "DT_BOOL", 8},
    {DT_STRING, "DT_STRING", 0},
    {DT_DUAL_SUB_INT8, "DT_DUAL_SUB_INT8", 8},
    {DT_DUAL_SUB_UINT8, "DT_DUAL_SUB_UINT8", 8},
    {DT_COMPLEX64, "DT_COMPLEX64", 64},
    {DT_COMPLEX128, "DT_COMPLEX128", 128},
    {DT_QINT8, "DT_QINT8", 8},
    {DT_QINT16, "DT_QINT16", 16},
    {DT_QINT32, "DT_QINT32", 32},
    {DT_QUINT8, "DT_QUINT8", 8},
    {DT_QUINT16, "DT_QUINT16", 16},
    {DT_RESOURCE, "DT_RESOURCE", 0},
    {DT_STRING_REF, "DT_STRING_REF", 0},
    {DT_DUAL, "DT_DUAL", 40},
    {DT_VARIANT, "DT_VARIANT", 0},
    {DT_BF16, "DT_BF16", 16},
    {DT_UNDEFINED, "DT_UNDEFINED", 0},
    {DT_INT4, "DT_INT4", 4},
    {DT_UINT1, "DT_UINT1", 1},
    {DT_INT2, "DT_INT2", 2},
    {DT_UINT2, "DT_UINT2", 2},
    {DT_COMPLEX32, "DT_COMPLEX32", 32},
    {DT_HIFLOAT8, "DT_HIFLOAT8", 8},
    {DT_FLOAT8_E5M2, "DT_FLOAT8_E5M2", 8},
    {DT_FLOAT8_E4M3FN, "DT_FLOAT8_E4M3FN", 8},
    {DT_FLOAT8_E8M0, "DT_FLOAT8_E8M0", 8},
    {DT_FLOAT6_E3M2, "DT_FLOAT6_E3M2", 6},
    {DT_FLOAT6_E2M3, "DT_FLOAT6_E2M3", 6},
    {DT_FLOAT4_E2M1, "DT_FLOAT4_E2M1", 4},
    {DT_FLOAT4_E1M2, "DT_FLOAT4_E1M2", 4},
    {DT_UINT4, "DT_UINT4", 4},
    {DT_INT1, "DT_INT1", 1},
};

const std::pair<Format, const char*> kFormatCases[] = {
    {FORMAT_NCHW, "NCHW"},
    {FORMAT_NHWC, "NHWC"},
    {FORMAT_ND, "ND"},
    {FORMAT_NC1HWC0, "NC1HWC0"},
    {FORMAT_FRACTAL_Z, "FRACTAL_Z"},
    {FORMAT_NC1C0HWPAD, "NC1C0HWPAD"},
    {FORMAT_NHWC1C0, "NHWC1C0"},
    {FORMAT_FSR_NCHW, "FSR_NCHW"},
    {FORMAT_FRACTAL_DECONV, "FRACTAL_DECONV"},
    {FORMAT_C1HWNC0, "C1HWNC0"},
    {FORMAT_FRACTAL_DECONV_TRANSPOSE, "FRACTAL_DECONV_TRANSPOSE"},
    {FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS, "FRACTAL_DECONV_SP_STRIDE_TRANS"},
    {FORMAT_NC1HWC0_C04, "NC1HWC0_C04"},
    {FORMAT_FRACTAL_Z_C04, "FRACTAL_Z_C04"},
    {FORMAT_CHWN, "CHWN"},
    {FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS, "DECONV_SP_STRIDE8_TRANS"},
    {FORMAT_HWCN, "HWCN"},
    {FORMAT_NC1KHKWHWC0, "NC1KHKWHWC0"},
    {FORMAT_BN_WEIGHT, "BN_WEIGHT"},
    {FORMAT_FILTER_HWCK, "FILTER_HWCK"},
    {FORMAT_HASHTABLE_LOOKUP_LOOKUPS, "LOOKUP_LOOKUPS"},
    {FORMAT_HASHTABLE_LOOKUP_KEYS, "LOOKUP_KEYS"},
    {FORMAT_HASHTABLE_LOOKUP_VALUE, "LOOKUP_VALUE"},
    {FORMAT_HASHTABLE_LOOKUP_OUTPUT, "LOOKUP_OUTPUT"},
    {FORMAT_HASHTABLE_LOOKUP_HITS, "LOOKUP_HITS"},
    {FORMAT_C1HWNCoC0, "C1HWNCoC0"},
    {FORMAT_MD, "MD"},
    {FORMAT_NDHWC, "NDHWC"},
    {FORMAT_FRACTAL_ZZ, "FRACTAL_ZZ"},
    {FORMAT_FRACTAL_NZ, "FRACTAL_NZ"},
    {FORMAT_NCDHW, "NCDHW"},
    {FORMAT_DHWCN, "DHWCN"},
    {FORMAT_NDC1HWC0, "NDC1HWC0"},
    {FORMAT_FRACTAL_Z_3D, "FRACTAL_Z_3D"},
    {FORMAT_CN, "CN"},
    {FORMAT_NC, "NC"},
    {FORMAT_DHWNC, "DHWNC"},
    {FORMAT_FRACTAL_Z_3D_TRANSPOSE, "FRACTAL_Z_3D_TRANSPOSE"},
    {FORMAT_FRACTAL_ZN_LSTM, "FRACTAL_ZN_LSTM"},
    {FORMAT_FRACTAL_Z_G, "FRACTAL_Z_G"},
    {FORMAT_RESERVED, "RESERVED"},
    {FORMAT_ALL, "ALL"},
    {FORMAT_NULL, "NULL"},
    {FORMAT_ND_RNN_BIAS, "ND_RNN_BIAS"},
    {FORMAT_FRACTAL_ZN_RNN, "FRACTAL_ZN_RNN"},
    {FORMAT_NYUV, "NYUV"},
    {FORMAT_NYUV_A, "NYUV_A"},
    {FORMAT_NCL, "NCL"},
    {FORMAT_FRACTAL_Z_WINO, "FRACTAL_Z_WINO"},
    {FORMAT_C1HWC0, "C1HWC0"},
};

// ---------------------------------------------------------------------------
// DataType names
// ---------------------------------------------------------------------------

TEST(TypeUtilsDataTypeTest, CasesCoverEveryEnumValue) {
  // 0..DT_MAX-1 minus the hole at 5.
  EXPECT_EQ(std::size(kDataTypeCases), static_cast<size_t>(DT_MAX) - 1);
  std::vector<DataType> expected;
  for (const DataTypeCase& c : kDataTypeCases) expected.push_back(c.dt);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(TypeUtils::AllDataTypes(), expected);
}

TEST(TypeUtilsDataTypeTest, EveryValueHasItsName) {
  for (const DataTypeCase& c : kDataTypeCases) {
    EXPECT_EQ(TypeUtils::DataTypeToSerialString(c.dt), c.name);
    EXPECT_TRUE(TypeUtils::IsDataTypeValid(c.dt)) << c.name;
  }
}

TEST(TypeUtilsDataTypeTest, EveryNameRoundTripsWithAndWithoutPrefix) {
  for (const DataTypeCase& c : kDataTypeCases) {
    const std::string name = c.name;
    StatusOr<DataType> full = TypeUtils::SerialStringToDataType(name);
    ASSERT_TRUE(full.ok()) << name << ": " << full.status();
    EXPECT_EQ(*full, c.dt) << name;
    const std::string shorter = name.substr(3);  // without "DT_"
    StatusOr<DataType> short_form = TypeUtils::SerialStringToDataType(shorter);
    ASSERT_TRUE(short_form.ok()) << shorter << ": " << short_form.status();
    EXPECT_EQ(*short_form, c.dt) << shorter;
  }
  for (DataType dt : TypeUtils::AllDataTypes()) {
    StatusOr<DataType> back =
        TypeUtils::SerialStringToDataType(TypeUtils::DataTypeToSerialString(dt));
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(*back, dt);
  }
}

TEST(TypeUtilsDataTypeTest, AcceptsGeAliases) {
  EXPECT_EQ(TypeUtils::SerialStringToDataType("DT_BFLOAT16").value(), DT_BF16);
  EXPECT_EQ(TypeUtils::SerialStringToDataType("BFLOAT16").value(), DT_BF16);
  EXPECT_EQ(TypeUtils::SerialStringToDataType("DT_FLOAT32").value(), DT_FLOAT);
  EXPECT_EQ(TypeUtils::SerialStringToDataType("FLOAT32").value(), DT_FLOAT);
  // Printing stays canonical.
  EXPECT_EQ(TypeUtils::DataTypeToSerialString(DT_BF16), "DT_BF16");
}

TEST(TypeUtilsDataTypeTest, UnknownNamesAreNotFoundAndQuoted) {
  for (const char* bad : {"DT_FOO", "dt_float", "float", "DT_", "", "DT_MAX", "MAX", "DT_DT_FLOAT",
                          " DT_FLOAT", "DT_FLOAT ", "UNDEFINED_DT(5)", "DT_INT3"}) {
    StatusOr<DataType> r = TypeUtils::SerialStringToDataType(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotFound) << bad;
    EXPECT_THAT(std::string(r.status().message()), HasSubstr(absl::StrCat("\"", bad, "\"")));
  }
}

TEST(TypeUtilsDataTypeTest, InvalidValuesPrintUndefined) {
  EXPECT_EQ(TypeUtils::DataTypeToSerialString(static_cast<DataType>(5)), "UNDEFINED_DT(5)");
  EXPECT_EQ(TypeUtils::DataTypeToSerialString(DT_MAX), "UNDEFINED_DT(44)");
  EXPECT_EQ(TypeUtils::DataTypeToSerialString(static_cast<DataType>(-1)), "UNDEFINED_DT(-1)");
  EXPECT_EQ(TypeUtils::DataTypeToSerialString(static_cast<DataType>(1000)), "UNDEFINED_DT(1000)");
}

TEST(TypeUtilsDataTypeTest, IsDataTypeValid) {
  EXPECT_TRUE(TypeUtils::IsDataTypeValid(0));
  EXPECT_TRUE(TypeUtils::IsDataTypeValid(4));
  EXPECT_FALSE(TypeUtils::IsDataTypeValid(5));
  EXPECT_TRUE(TypeUtils::IsDataTypeValid(6));
  EXPECT_TRUE(TypeUtils::IsDataTypeValid(DT_UNDEFINED));
  EXPECT_TRUE(TypeUtils::IsDataTypeValid(DT_INT1));
  EXPECT_FALSE(TypeUtils::IsDataTypeValid(DT_MAX));
  EXPECT_FALSE(TypeUtils::IsDataTypeValid(-1));
  EXPECT_FALSE(TypeUtils::IsDataTypeValid(std::numeric_limits<int32_t>::min()));
  EXPECT_FALSE(TypeUtils::IsDataTypeValid(std::numeric_limits<int32_t>::max()));
}

// ---------------------------------------------------------------------------
// Format names
// ---------------------------------------------------------------------------

TEST(TypeUtilsFormatTest, CasesCoverEveryEnumValue) {
  ASSERT_EQ(std::size(kFormatCases), static_cast<size_t>(FORMAT_END));
  for (int32_t v = 0; v < FORMAT_END; ++v) {
    EXPECT_EQ(kFormatCases[v].first, v);
  }
}

TEST(TypeUtilsFormatTest, EveryValueHasItsNameAndRoundTrips) {
  for (const auto& [format, name] : kFormatCases) {
    EXPECT_TRUE(TypeUtils::IsFormatValid(format)) << name;
    EXPECT_EQ(TypeUtils::FormatToSerialString(format), name);
    StatusOr<Format> plain = TypeUtils::SerialStringToFormat(name);
    ASSERT_TRUE(plain.ok()) << name << ": " << plain.status();
    EXPECT_EQ(*plain, format) << name;
    const std::string prefixed = absl::StrCat("FORMAT_", name);
    StatusOr<Format> with_prefix = TypeUtils::SerialStringToFormat(prefixed);
    ASSERT_TRUE(with_prefix.ok()) << prefixed << ": " << with_prefix.status();
    EXPECT_EQ(*with_prefix, format) << prefixed;
  }
}

TEST(TypeUtilsFormatTest, AcceptsEnumSpellingsThatDifferFromGeNames) {
  const std::pair<const char*, Format> aliases[] = {
      {"FRACTAL_DECONV_SP_STRIDE8_TRANS", FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS},
      {"FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS", FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS},
      {"HASHTABLE_LOOKUP_LOOKUPS", FORMAT_HASHTABLE_LOOKUP_LOOKUPS},
      {"FORMAT_HASHTABLE_LOOKUP_KEYS", FORMAT_HASHTABLE_LOOKUP_KEYS},
      {"HASHTABLE_LOOKUP_VALUE", FORMAT_HASHTABLE_LOOKUP_VALUE},
      {"HASHTABLE_LOOKUP_OUTPUT", FORMAT_HASHTABLE_LOOKUP_OUTPUT},
      {"FORMAT_HASHTABLE_LOOKUP_HITS", FORMAT_HASHTABLE_LOOKUP_HITS},
      {"FORMAT_RESERVED", FORMAT_RESERVED},
  };
  for (const auto& [name, format] : aliases) {
    StatusOr<Format> r = TypeUtils::SerialStringToFormat(name);
    ASSERT_TRUE(r.ok()) << name << ": " << r.status();
    EXPECT_EQ(*r, format) << name;
  }
}

TEST(TypeUtilsFormatTest, UnknownNamesAreNotFoundAndQuoted) {
  for (const char* bad : {"nchw", "FORMAT_", "", "END", "FORMAT_END", "MAX", "FORMAT_MAX",
                          "FORMAT_FORMAT_NCHW", "NCHW ", "C1HWNCOC0", "UNDEFINED_FORMAT(50)"}) {
    StatusOr<Format> r = TypeUtils::SerialStringToFormat(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotFound) << bad;
    EXPECT_THAT(std::string(r.status().message()), HasSubstr(absl::StrCat("\"", bad, "\"")));
  }
  // An unknown primary inside a packed string is quoted too.
  StatusOr<Format> r = TypeUtils::SerialStringToFormat("FOO:1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotFound);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("\"FOO\""));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("\"FOO:1\""));
}

TEST(TypeUtilsFormatTest, PackedFormatsPrintSubFormatAndC0) {
  EXPECT_EQ(TypeUtils::FormatToSerialString(GetFormatFromSubAndC0(FORMAT_FRACTAL_Z, 1, 5)),
            "FRACTAL_Z:1:C0_16");
  EXPECT_EQ(TypeUtils::FormatToSerialString(GetFormatFromSub(FORMAT_NCHW, 3)), "NCHW:3");
  EXPECT_EQ(TypeUtils::FormatToSerialString(GetFormatFromSubAndC0(FORMAT_NC1HWC0, 0, 6)),
            "NC1HWC0:C0_32");
  EXPECT_EQ(TypeUtils::FormatToSerialString(GetFormatFromSubAndC0(FORMAT_FRACTAL_NZ, 0xffff, 15)),
            "FRACTAL_NZ:65535:C0_16384");
  EXPECT_EQ(TypeUtils::FormatToSerialString(GetFormatFromSubAndC0(FORMAT_ND, 0, 1)), "ND:C0_1");
}

TEST(TypeUtilsFormatTest, PackedFormatsRoundTrip) {
  for (const auto& [format, name] : kFormatCases) {
    for (int32_t sub : {0, 1, 2, 255, 256, 0xffff}) {
      for (int32_t c0_format = 0; c0_format <= 15; ++c0_format) {
        const int32_t packed = GetFormatFromSubAndC0(format, sub, c0_format);
        const std::string text = TypeUtils::FormatToSerialString(packed);
        StatusOr<Format> back = TypeUtils::SerialStringToFormat(text);
        ASSERT_TRUE(back.ok()) << text << ": " << back.status();
        EXPECT_EQ(static_cast<int32_t>(*back), packed) << text;
      }
    }
  }
}

TEST(TypeUtilsFormatTest, ParsesPackedStrings) {
  EXPECT_EQ(
      static_cast<int32_t>(TypeUtils::SerialStringToFormat("FORMAT_FRACTAL_Z:1:C0_16").value()),
      GetFormatFromSubAndC0(FORMAT_FRACTAL_Z, 1, 5));
  // An explicit zero sub-format is the plain format.
  EXPECT_EQ(TypeUtils::SerialStringToFormat("NCHW:0").value(), FORMAT_NCHW);
  EXPECT_EQ(static_cast<int32_t>(TypeUtils::SerialStringToFormat("NCHW:00007").value()),
            GetFormatFromSub(FORMAT_NCHW, 7));
  EXPECT_EQ(static_cast<int32_t>(TypeUtils::SerialStringToFormat("ND:0:C0_2").value()),
            GetFormatFromSubAndC0(FORMAT_ND, 0, 2));
}

TEST(TypeUtilsFormatTest, MalformedPackedStringsAreParamInvalid) {
  const std::pair<const char*, const char*> cases[] = {
      {"NCHW:", "\"\""},
      {"NCHW:abc", "\"abc\""},
      {"NCHW:65536", "\"65536\""},
      {"NCHW:99999999999999999999", "\"99999999999999999999\""},
      {"NCHW:-1", "\"-1\""},
      {"NCHW:+1", "\"+1\""},
      {"NCHW: 1", "\" 1\""},
      {"NCHW:C0_3", "\"C0_3\""},
      {"NCHW:C0_0", "\"C0_0\""},
      {"NCHW:C0_32768", "\"C0_32768\""},
      {"NCHW:C0_", "\"C0_\""},
      {"NCHW:C0_x", "\"C0_x\""},
      {"NCHW:1:2", "\"2\""},
      {"NCHW:C0_16:1", "\"1\""},
      {"NCHW:C0_16:C0_16", "more than one C0"},
      {"NCHW:1:C0_16:3", "too many"},
  };
  for (const auto& [text, needle] : cases) {
    StatusOr<Format> r = TypeUtils::SerialStringToFormat(text);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid) << text;
    EXPECT_THAT(std::string(r.status().message()), HasSubstr(needle)) << text;
    EXPECT_THAT(std::string(r.status().message()), HasSubstr(text)) << text;
  }
}

TEST(TypeUtilsFormatTest, InvalidValuesPrintUndefined) {
  EXPECT_EQ(TypeUtils::FormatToSerialString(FORMAT_END), "UNDEFINED_FORMAT(50)");
  EXPECT_EQ(TypeUtils::FormatToSerialString(FORMAT_MAX), "UNDEFINED_FORMAT(255)");
  EXPECT_EQ(TypeUtils::FormatToSerialString(-1), "UNDEFINED_FORMAT(-1)");
  // Sub-format on an invalid primary.
  EXPECT_EQ(TypeUtils::FormatToSerialString(GetFormatFromSub(FORMAT_END, 1)),
            "UNDEFINED_FORMAT(306)");
  // Reserved bits 28-31 set on an otherwise valid value.
  EXPECT_EQ(TypeUtils::FormatToSerialString(0x10000000), "UNDEFINED_FORMAT(268435456)");
}

TEST(TypeUtilsFormatTest, IsFormatValidLooksAtThePrimaryOnly) {
  EXPECT_TRUE(TypeUtils::IsFormatValid(FORMAT_NCHW));
  EXPECT_TRUE(TypeUtils::IsFormatValid(FORMAT_C1HWC0));
  EXPECT_FALSE(TypeUtils::IsFormatValid(FORMAT_END));
  EXPECT_FALSE(TypeUtils::IsFormatValid(FORMAT_MAX));
  EXPECT_FALSE(TypeUtils::IsFormatValid(-1));
  EXPECT_TRUE(TypeUtils::IsFormatValid(GetFormatFromSubAndC0(FORMAT_FRACTAL_Z, 7, 5)));
  EXPECT_FALSE(TypeUtils::IsFormatValid(GetFormatFromSubAndC0(FORMAT_END, 7, 5)));
}

// ---------------------------------------------------------------------------
// MakeFormat
// ---------------------------------------------------------------------------

TEST(TypeUtilsMakeFormatTest, PacksValidValues) {
  EXPECT_EQ(TypeUtils::MakeFormat(FORMAT_NCHW, 0, 0).value(), FORMAT_NCHW);
  EXPECT_EQ(TypeUtils::MakeFormat(FORMAT_FRACTAL_Z, 1, 16).value(),
            GetFormatFromSubAndC0(FORMAT_FRACTAL_Z, 1, 5));
  EXPECT_EQ(TypeUtils::MakeFormat(FORMAT_C1HWC0, 0xffff, 16384).value(),
            GetFormatFromSubAndC0(FORMAT_C1HWC0, 0xffff, 15));
  // Every power of two in range maps to its code and back.
  for (int32_t code = 1; code <= 15; ++code) {
    const int64_t c0 = int64_t{1} << (code - 1);
    StatusOr<int32_t> f = TypeUtils::MakeFormat(FORMAT_NC1HWC0, 2, c0);
    ASSERT_TRUE(f.ok()) << c0 << ": " << f.status();
    EXPECT_EQ(GetPrimaryFormat(*f), FORMAT_NC1HWC0);
    EXPECT_EQ(GetSubFormat(*f), 2);
    EXPECT_EQ(GetC0Format(*f), code);
    EXPECT_EQ(GetC0Value(*f), c0);
  }
  StatusOr<int32_t> none = TypeUtils::MakeFormat(FORMAT_ND, 5, 0);
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(HasC0Format(*none));
  EXPECT_EQ(GetC0Value(*none), -1);
}

TEST(TypeUtilsMakeFormatTest, RejectsBadValuesNamingThem) {
  struct Case {
    Format primary;
    int32_t sub;
    int64_t c0;
    ErrorCode code;
    const char* needle;
  };
  const Case cases[] = {
      {FORMAT_NCHW, 0, 3, ErrorCode::kParamInvalid, "C0 value 3"},
      {FORMAT_NCHW, 0, 12, ErrorCode::kParamInvalid, "C0 value 12"},
      {FORMAT_NCHW, 0, 32768, ErrorCode::kOutOfRange, "C0 value 32768"},
      {FORMAT_NCHW, 0, int64_t{1} << 40, ErrorCode::kOutOfRange, "C0 value 1099511627776"},
      {FORMAT_NCHW, 0, -16, ErrorCode::kOutOfRange, "C0 value -16"},
      {FORMAT_NCHW, -1, 0, ErrorCode::kOutOfRange, "sub-format -1"},
      {FORMAT_NCHW, 0x10000, 0, ErrorCode::kOutOfRange, "sub-format 65536"},
      {FORMAT_END, 0, 0, ErrorCode::kParamInvalid, "primary format 50"},
      {FORMAT_MAX, 0, 0, ErrorCode::kParamInvalid, "primary format 255"},
      {static_cast<Format>(-1), 0, 0, ErrorCode::kParamInvalid, "primary format -1"},
      // An already packed value is not a primary format.
      {static_cast<Format>(GetFormatFromSub(FORMAT_NCHW, 1)), 0, 0, ErrorCode::kParamInvalid,
       "primary format 256"},
  };
  for (const Case& c : cases) {
    StatusOr<int32_t> r = TypeUtils::MakeFormat(c.primary, c.sub, c.c0);
    ASSERT_FALSE(r.ok()) << c.needle;
    EXPECT_EQ(GetErrorCode(r.status()), c.code) << r.status();
    EXPECT_THAT(std::string(r.status().message()), HasSubstr(c.needle));
  }
}

// ---------------------------------------------------------------------------
// Sizes
// ---------------------------------------------------------------------------

TEST(TypeUtilsSizeTest, SizeInBitsOfEveryType) {
  for (const DataTypeCase& c : kDataTypeCases) {
    StatusOr<int64_t> bits = TypeUtils::GetSizeInBits(c.dt);
    if (c.bits == 0) {
      ASSERT_FALSE(bits.ok()) << c.name;
      EXPECT_EQ(GetErrorCode(bits.status()), ErrorCode::kNotSupported) << c.name;
      EXPECT_THAT(std::string(bits.status().message()), HasSubstr(c.name));
    } else {
      ASSERT_TRUE(bits.ok()) << c.name << ": " << bits.status();
      EXPECT_EQ(*bits, c.bits) << c.name;
    }
  }
}

TEST(TypeUtilsSizeTest, InvalidValueIsParamInvalid) {
  for (int32_t v : {5, static_cast<int32_t>(DT_MAX), -1, 12345}) {
    const DataType dt = static_cast<DataType>(v);
    for (const Status& s :
         {TypeUtils::GetSizeInBits(dt).status(), TypeUtils::GetDataTypeLength(dt).status(),
          TypeUtils::GetSizeInBytes(dt, 1).status()}) {
      EXPECT_EQ(GetErrorCode(s), ErrorCode::kParamInvalid) << v;
      EXPECT_THAT(std::string(s.message()), HasSubstr(absl::StrCat(v)));
    }
  }
}

TEST(TypeUtilsSizeTest, DataTypeLength) {
  EXPECT_EQ(TypeUtils::GetDataTypeLength(DT_FLOAT).value(), 4);
  EXPECT_EQ(TypeUtils::GetDataTypeLength(DT_FLOAT16).value(), 2);
  EXPECT_EQ(TypeUtils::GetDataTypeLength(DT_BOOL).value(), 1);
  EXPECT_EQ(TypeUtils::GetDataTypeLength(DT_DUAL).value(), 5);
  EXPECT_EQ(TypeUtils::GetDataTypeLength(DT_DUAL_SUB_INT8).value(), 1);
  EXPECT_EQ(TypeUtils::GetDataTypeLength(DT_COMPLEX32).value(), 4);
  EXPECT_EQ(TypeUtils::GetDataTypeLength(DT_COMPLEX128).value(), 16);
  EXPECT_EQ(TypeUtils::GetDataTypeLength(DT_FLOAT8_E8M0).value(), 1);
  for (const DataTypeCase& c : kDataTypeCases) {
    StatusOr<int64_t> len = TypeUtils::GetDataTypeLength(c.dt);
    if (c.bits > 0 && c.bits % 8 == 0) {
      ASSERT_TRUE(len.ok()) << c.name;
      EXPECT_EQ(*len, c.bits / 8) << c.name;
    } else {
      ASSERT_FALSE(len.ok()) << c.name;
      EXPECT_EQ(GetErrorCode(len.status()), ErrorCode::kNotSupported) << c.name;
      EXPECT_THAT(std::string(len.status().message()), HasSubstr(c.name));
    }
  }
}

TEST(TypeUtilsSizeTest, SizeInBytesRoundsSubByteTypesUp) {
  struct Case {
    DataType dt;
    int64_t count;
    int64_t bytes;
  };
  const Case cases[] = {
      {DT_INT4, 3, 2},          {DT_INT4, 4, 2},        {DT_INT4, 1, 1},
      {DT_UINT4, 5, 3},         {DT_FLOAT6_E3M2, 4, 3}, {DT_FLOAT6_E2M3, 1, 1},
      {DT_FLOAT6_E2M3, 5, 4},   {DT_FLOAT4_E2M1, 7, 4}, {DT_FLOAT4_E1M2, 2, 1},
      {DT_UINT1, 8, 1},         {DT_UINT1, 9, 2},       {DT_INT1, 1, 1},
      {DT_INT2, 5, 2},          {DT_UINT2, 4, 1},       {DT_FLOAT, 3, 12},
      {DT_DUAL, 3, 15},         {DT_COMPLEX128, 2, 32}, {DT_BOOL, 7, 7},
      {DT_FLOAT8_E4M3FN, 9, 9}, {DT_INT4, 0, 0},        {DT_DOUBLE, 0, 0},
  };
  for (const Case& c : cases) {
    StatusOr<int64_t> bytes = TypeUtils::GetSizeInBytes(c.dt, c.count);
    ASSERT_TRUE(bytes.ok()) << TypeUtils::DataTypeToSerialString(c.dt);
    EXPECT_EQ(*bytes, c.bytes) << TypeUtils::DataTypeToSerialString(c.dt) << " x " << c.count;
  }
}

TEST(TypeUtilsSizeTest, SizeInBytesMatchesBitFormulaForSmallCounts) {
  for (const DataTypeCase& c : kDataTypeCases) {
    if (c.bits == 0) continue;
    for (int64_t n = 0; n < 40; ++n) {
      EXPECT_EQ(TypeUtils::GetSizeInBytes(c.dt, n).value(), (c.bits * n + 7) / 8)
          << c.name << " x " << n;
    }
  }
}

TEST(TypeUtilsSizeTest, SizeInBytesAtTheInt64Limit) {
  EXPECT_EQ(TypeUtils::GetSizeInBytes(DT_INT8, kInt64Max).value(), kInt64Max);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(DT_FLOAT, kInt64Max / 4).value(), kInt64Max / 4 * 4);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(DT_COMPLEX128, kInt64Max / 16).value(), kInt64Max / 16 * 16);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(DT_DUAL, kInt64Max / 5).value(), kInt64Max / 5 * 5);
  // Sub-byte types never overflow: ceil(bits * (2^63 - 1) / 8).
  EXPECT_EQ(TypeUtils::GetSizeInBytes(DT_UINT1, kInt64Max).value(), int64_t{1} << 60);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(DT_INT2, kInt64Max).value(), int64_t{1} << 61);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(DT_INT4, kInt64Max).value(), int64_t{1} << 62);
  EXPECT_EQ(TypeUtils::GetSizeInBytes(DT_FLOAT6_E3M2, kInt64Max).value(), int64_t{3} << 61);

  struct Case {
    DataType dt;
    int64_t count;
  };
  const Case overflows[] = {
      {DT_FLOAT16, kInt64Max / 2 + 1},
      {DT_FLOAT, kInt64Max / 4 + 1},
      {DT_COMPLEX128, kInt64Max / 16 + 1},
      {DT_DUAL, kInt64Max / 5 + 1},
      {DT_DOUBLE, kInt64Max},
  };
  for (const Case& c : overflows) {
    StatusOr<int64_t> r = TypeUtils::GetSizeInBytes(c.dt, c.count);
    ASSERT_FALSE(r.ok()) << c.count;
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kOverflow);
    EXPECT_THAT(std::string(r.status().message()), HasSubstr(absl::StrCat(c.count)));
    EXPECT_THAT(std::string(r.status().message()),
                HasSubstr(TypeUtils::DataTypeToSerialString(c.dt)));
  }
}

TEST(TypeUtilsSizeTest, SizeInBytesRejectsNegativeCountAndUnsizedTypes) {
  for (int64_t count : {int64_t{-1}, int64_t{-8}, std::numeric_limits<int64_t>::min()}) {
    StatusOr<int64_t> r = TypeUtils::GetSizeInBytes(DT_INT4, count);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
    EXPECT_THAT(std::string(r.status().message()), HasSubstr(absl::StrCat(count)));
  }
  for (DataType dt : {DT_STRING, DT_STRING_REF, DT_RESOURCE, DT_VARIANT, DT_UNDEFINED}) {
    StatusOr<int64_t> r = TypeUtils::GetSizeInBytes(dt, 1);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotSupported);
    EXPECT_THAT(std::string(r.status().message()),
                HasSubstr(TypeUtils::DataTypeToSerialString(dt)));
  }
}

// ---------------------------------------------------------------------------
// Classification
// ---------------------------------------------------------------------------

std::set<DataType> Select(bool (*pred)(DataType)) {
  std::set<DataType> out;
  for (DataType dt : TypeUtils::AllDataTypes()) {
    if (pred(dt)) out.insert(dt);
  }
  return out;
}

TEST(TypeUtilsClassifyTest, FloatTypes) {
  EXPECT_EQ(Select(&TypeUtils::IsFloatType),
            (std::set<DataType>{DT_FLOAT, DT_FLOAT16, DT_DOUBLE, DT_BF16, DT_HIFLOAT8,
                                DT_FLOAT8_E5M2, DT_FLOAT8_E4M3FN, DT_FLOAT8_E8M0, DT_FLOAT6_E3M2,
                                DT_FLOAT6_E2M3, DT_FLOAT4_E2M1, DT_FLOAT4_E1M2}));
}

TEST(TypeUtilsClassifyTest, IntegerTypes) {
  EXPECT_EQ(
      Select(&TypeUtils::IsIntegerType),
      (std::set<DataType>{DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, DT_UINT32,
                          DT_UINT64, DT_INT4, DT_UINT4, DT_INT2, DT_UINT2, DT_INT1, DT_UINT1}));
}

TEST(TypeUtilsClassifyTest, ComplexTypes) {
  EXPECT_EQ(Select(&TypeUtils::IsComplexType),
            (std::set<DataType>{DT_COMPLEX32, DT_COMPLEX64, DT_COMPLEX128}));
}

TEST(TypeUtilsClassifyTest, SignedTypes) {
  EXPECT_EQ(
      Select(&TypeUtils::IsSignedType),
      (std::set<DataType>{
          DT_INT8,          DT_INT16,       DT_INT32,         DT_INT64,       DT_INT4,
          DT_INT2,          DT_INT1,        DT_QINT8,         DT_QINT16,      DT_QINT32,
          DT_DUAL_SUB_INT8, DT_FLOAT,       DT_FLOAT16,       DT_DOUBLE,      DT_BF16,
          DT_HIFLOAT8,      DT_FLOAT8_E5M2, DT_FLOAT8_E4M3FN, DT_FLOAT6_E3M2, DT_FLOAT6_E2M3,
          DT_FLOAT4_E2M1,   DT_FLOAT4_E1M2, DT_COMPLEX32,     DT_COMPLEX64,   DT_COMPLEX128}));
}

TEST(TypeUtilsClassifyTest, CategoriesAreDisjointAndInvalidValuesAreNothing) {
  for (DataType dt : TypeUtils::AllDataTypes()) {
    const int n =
        TypeUtils::IsFloatType(dt) + TypeUtils::IsIntegerType(dt) + TypeUtils::IsComplexType(dt);
    EXPECT_LE(n, 1) << TypeUtils::DataTypeToSerialString(dt);
  }
  for (int32_t v : {5, static_cast<int32_t>(DT_MAX), -1}) {
    const DataType dt = static_cast<DataType>(v);
    EXPECT_FALSE(TypeUtils::IsFloatType(dt));
    EXPECT_FALSE(TypeUtils::IsIntegerType(dt));
    EXPECT_FALSE(TypeUtils::IsSignedType(dt));
    EXPECT_FALSE(TypeUtils::IsComplexType(dt));
  }
}

}  // namespace
}  // namespace ge
