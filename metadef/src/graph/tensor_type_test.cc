#include "metadef/inc/external/graph/tensor_type.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/type_utils.h"
#include "metadef/inc/external/graph/types.h"

namespace ge {
namespace {

using ::testing::HasSubstr;

std::string Name(DataType dt) { return TypeUtils::DataTypeToSerialString(dt); }

// Types that take part in promotion with other types.
bool IsNumeric(DataType dt) {
  return dt == DT_BOOL || TypeUtils::IsFloatType(dt) || TypeUtils::IsIntegerType(dt) ||
         TypeUtils::IsComplexType(dt);
}

std::vector<DataType> NumericTypes() {
  std::vector<DataType> out;
  for (DataType dt : TypeUtils::AllDataTypes()) {
    if (IsNumeric(dt)) out.push_back(dt);
  }
  return out;
}

// ---------------------------------------------------------------------------
// TensorType
// ---------------------------------------------------------------------------

TEST(TensorTypeTest, DefaultAcceptsNothing) {
  TensorType t;
  EXPECT_TRUE(t.GetAllowedDataTypes().empty());
  for (DataType dt : TypeUtils::AllDataTypes()) EXPECT_FALSE(t.Contains(dt));
  Status s = t.Check("x", DT_FLOAT);
  EXPECT_EQ(GetErrorCode(s), ErrorCode::kParamInvalid);
  EXPECT_THAT(std::string(s.message()), HasSubstr("{}"));
  EXPECT_EQ(t.ToString(), "{}");
}

TEST(TensorTypeTest, Constructors) {
  TensorType single = DT_INT8;  // implicit, as GE allows
  EXPECT_EQ(single.GetAllowedDataTypes(), std::set<DataType>{DT_INT8});

  TensorType list{DT_FLOAT16, DT_FLOAT, DT_FLOAT16};
  EXPECT_EQ(list.GetAllowedDataTypes(), (std::set<DataType>{DT_FLOAT, DT_FLOAT16}));

  TensorType from_vector(std::vector<DataType>{DT_BOOL, DT_INT4, DT_BOOL});
  EXPECT_EQ(from_vector.GetAllowedDataTypes(), (std::set<DataType>{DT_BOOL, DT_INT4}));
  EXPECT_TRUE(from_vector.Contains(DT_INT4));
  EXPECT_FALSE(from_vector.Contains(DT_INT8));
}

TEST(TensorTypeTest, ToStringListsNamesInEnumOrder) {
  EXPECT_EQ((TensorType{DT_FLOAT16, DT_FLOAT}).ToString(), "{DT_FLOAT, DT_FLOAT16}");
  EXPECT_EQ(TensorType(DT_BF16).ToString(), "{DT_BF16}");
}

TEST(TensorTypeTest, CheckAcceptsAllowedTypes) {
  TensorType t{DT_FLOAT, DT_FLOAT16};
  EXPECT_TRUE(t.Check("x1", DT_FLOAT).ok());
  EXPECT_TRUE(t.Check("x1", DT_FLOAT16).ok());
}

TEST(TensorTypeTest, CheckErrorNamesInputTypeAndAllowedSet) {
  TensorType t{DT_FLOAT, DT_FLOAT16};
  Status s = t.Check("x1", DT_INT8);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(GetErrorCode(s), ErrorCode::kParamInvalid);
  const std::string msg(s.message());
  EXPECT_THAT(msg, HasSubstr("x1"));
  EXPECT_THAT(msg, HasSubstr("DT_INT8"));
  EXPECT_THAT(msg, HasSubstr("{DT_FLOAT, DT_FLOAT16}"));
}

TEST(TensorTypeTest, CheckRejectsInvalidValueNamingIt) {
  Status s = TensorType::ALL().Check("y", static_cast<DataType>(5));
  EXPECT_EQ(GetErrorCode(s), ErrorCode::kParamInvalid);
  EXPECT_THAT(std::string(s.message()), HasSubstr("UNDEFINED_DT(5)"));
  EXPECT_FALSE(TensorType::ALL().Check("y", DT_MAX).ok());
}

TEST(TensorTypeTest, PredefinedSets) {
  const std::vector<DataType> all_types = TypeUtils::AllDataTypes();
  std::set<DataType> all(all_types.begin(), all_types.end());
  all.erase(DT_UNDEFINED);
  EXPECT_EQ(TensorType::ALL().GetAllowedDataTypes(), all);
  EXPECT_FALSE(TensorType::ALL().Contains(DT_UNDEFINED));
  EXPECT_TRUE(TensorType::ALL().Contains(DT_INT1));

  const std::set<DataType> floats{DT_DOUBLE, DT_FLOAT, DT_FLOAT16, DT_BF16};
  const std::set<DataType> ints{DT_INT8,  DT_INT16,  DT_INT32,  DT_INT64,
                                DT_UINT8, DT_UINT16, DT_UINT32, DT_UINT64};
  EXPECT_EQ(TensorType::FloatingDataType().GetAllowedDataTypes(), floats);
  EXPECT_EQ(TensorType::IntegerDataType().GetAllowedDataTypes(), ints);

  std::set<DataType> real = floats;
  real.insert(ints.begin(), ints.end());
  EXPECT_EQ(TensorType::RealNumberType().GetAllowedDataTypes(), real);

  std::set<DataType> number = real;
  number.insert({DT_COMPLEX32, DT_COMPLEX64, DT_COMPLEX128});
  EXPECT_EQ(TensorType::NumberType().GetAllowedDataTypes(), number);
}

// ---------------------------------------------------------------------------
// ListTensorType
// ---------------------------------------------------------------------------

TEST(ListTensorTypeTest, AcceptsListsOfAllowedTypes) {
  ListTensorType lt(TensorType{DT_FLOAT, DT_INT32});
  EXPECT_EQ(lt.GetTensorType().GetAllowedDataTypes(), (std::set<DataType>{DT_FLOAT, DT_INT32}));
  EXPECT_TRUE(lt.Check("x", {}).ok());
  EXPECT_TRUE(lt.Check("x", {DT_FLOAT}).ok());
  EXPECT_TRUE(lt.Check("x", {DT_FLOAT, DT_INT32, DT_FLOAT}).ok());
}

TEST(ListTensorTypeTest, ErrorNamesTheFirstBadElement) {
  ListTensorType lt(TensorType{DT_FLOAT, DT_INT32});
  Status s = lt.Check("x", {DT_FLOAT, DT_INT32, DT_STRING, DT_BOOL});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(GetErrorCode(s), ErrorCode::kParamInvalid);
  const std::string msg(s.message());
  EXPECT_THAT(msg, HasSubstr("x[2]"));
  EXPECT_THAT(msg, HasSubstr("DT_STRING"));
  EXPECT_THAT(msg, HasSubstr("{DT_FLOAT, DT_INT32}"));
  EXPECT_THAT(msg, ::testing::Not(HasSubstr("x[3]")));

  Status first = lt.Check("inputs", {DT_INT8});
  EXPECT_THAT(std::string(first.message()), HasSubstr("inputs[0]"));
}

// ---------------------------------------------------------------------------
// Promote: pairs
// ---------------------------------------------------------------------------

struct PromoteCase {
  DataType a;
  DataType b;
  DataType want;
};

TEST(PromoteTest, ExpectedPairs) {
  const PromoteCase cases[] = {
      // From the header.
      {DT_FLOAT, DT_FLOAT16, DT_FLOAT},
      {DT_INT32, DT_FLOAT, DT_FLOAT},
      {DT_BF16, DT_FLOAT16, DT_FLOAT},
      {DT_INT64, DT_FLOAT16, DT_FLOAT16},
      // Floats.
      {DT_DOUBLE, DT_FLOAT, DT_DOUBLE},
      {DT_DOUBLE, DT_BF16, DT_DOUBLE},
      {DT_FLOAT, DT_BF16, DT_FLOAT},
      {DT_FLOAT8_E4M3FN, DT_FLOAT16, DT_FLOAT16},
      {DT_FLOAT8_E5M2, DT_BF16, DT_BF16},
      {DT_FLOAT6_E3M2, DT_FLOAT, DT_FLOAT},
      {DT_FLOAT4_E2M1, DT_DOUBLE, DT_DOUBLE},
      {DT_FLOAT8_E4M3FN, DT_FLOAT8_E5M2, DT_FLOAT16},
      {DT_HIFLOAT8, DT_FLOAT8_E8M0, DT_FLOAT16},
      {DT_FLOAT4_E2M1, DT_FLOAT8_E5M2, DT_FLOAT16},
      {DT_FLOAT6_E2M3, DT_FLOAT6_E3M2, DT_FLOAT16},
      // Int x float.
      {DT_INT8, DT_FLOAT8_E4M3FN, DT_FLOAT16},
      {DT_UINT64, DT_FLOAT4_E1M2, DT_FLOAT16},
      {DT_INT64, DT_BF16, DT_BF16},
      {DT_UINT1, DT_DOUBLE, DT_DOUBLE},
      // Same signedness: the wider.
      {DT_INT8, DT_INT64, DT_INT64},
      {DT_INT1, DT_INT4, DT_INT4},
      {DT_UINT1, DT_UINT2, DT_UINT2},
      {DT_UINT8, DT_UINT32, DT_UINT32},
      // Unsigned x signed: a signed type wider than the unsigned.
      {DT_UINT1, DT_INT1, DT_INT2},
      {DT_UINT2, DT_INT1, DT_INT4},
      {DT_UINT2, DT_INT4, DT_INT4},
      {DT_UINT4, DT_INT4, DT_INT8},
      {DT_UINT8, DT_INT8, DT_INT16},
      {DT_UINT8, DT_INT32, DT_INT32},
      {DT_UINT16, DT_INT16, DT_INT32},
      {DT_UINT32, DT_INT8, DT_INT64},
      {DT_UINT32, DT_INT64, DT_INT64},
      {DT_UINT1, DT_INT64, DT_INT64},
      // BOOL.
      {DT_BOOL, DT_INT8, DT_INT8},
      {DT_BOOL, DT_UINT1, DT_UINT1},
      {DT_BOOL, DT_FLOAT8_E8M0, DT_FLOAT8_E8M0},
      {DT_BOOL, DT_COMPLEX64, DT_COMPLEX64},
      // Complex.
      {DT_COMPLEX32, DT_COMPLEX128, DT_COMPLEX128},
      {DT_COMPLEX32, DT_FLOAT16, DT_COMPLEX32},
      {DT_COMPLEX32, DT_FLOAT, DT_COMPLEX64},
      {DT_COMPLEX32, DT_DOUBLE, DT_COMPLEX128},
      {DT_COMPLEX32, DT_BF16, DT_COMPLEX64},
      {DT_COMPLEX32, DT_FLOAT8_E5M2, DT_COMPLEX32},
      {DT_COMPLEX32, DT_INT64, DT_COMPLEX32},
      {DT_COMPLEX64, DT_DOUBLE, DT_COMPLEX128},
      {DT_COMPLEX64, DT_UINT64, DT_COMPLEX64},
      {DT_COMPLEX128, DT_FLOAT, DT_COMPLEX128},
      // Equal non-numeric types.
      {DT_STRING, DT_STRING, DT_STRING},
      {DT_QINT8, DT_QINT8, DT_QINT8},
      {DT_UNDEFINED, DT_UNDEFINED, DT_UNDEFINED},
  };
  for (const PromoteCase& c : cases) {
    for (const auto& [x, y] : {std::pair{c.a, c.b}, std::pair{c.b, c.a}}) {
      StatusOr<DataType> r = Promote(x, y);
      ASSERT_TRUE(r.ok()) << Name(x) << " x " << Name(y) << ": " << r.status();
      EXPECT_EQ(*r, c.want) << Name(x) << " x " << Name(y) << " gave " << Name(*r);
    }
  }
}

TEST(PromoteTest, NonNumericMixErrorNamesBothTypes) {
  const std::pair<DataType, DataType> cases[] = {
      {DT_STRING, DT_FLOAT},      {DT_RESOURCE, DT_INT32},    {DT_VARIANT, DT_BOOL},
      {DT_UNDEFINED, DT_FLOAT16}, {DT_STRING, DT_STRING_REF}, {DT_QINT8, DT_INT8},
      {DT_QUINT8, DT_QINT8},      {DT_DUAL, DT_FLOAT},        {DT_DUAL_SUB_INT8, DT_INT8},
  };
  for (const auto& [a, b] : cases) {
    for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
      StatusOr<DataType> r = Promote(x, y);
      ASSERT_FALSE(r.ok()) << Name(x) << " x " << Name(y);
      EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kTypeMismatch);
      const std::string msg(r.status().message());
      EXPECT_THAT(msg, HasSubstr(Name(x)));
      EXPECT_THAT(msg, HasSubstr(Name(y)));
    }
  }
}

TEST(PromoteTest, Uint64WithSignedIsAnError) {
  for (DataType s : {DT_INT1, DT_INT2, DT_INT4, DT_INT8, DT_INT16, DT_INT32, DT_INT64}) {
    for (const auto& [x, y] : {std::pair{DT_UINT64, s}, std::pair{s, DT_UINT64}}) {
      StatusOr<DataType> r = Promote(x, y);
      ASSERT_FALSE(r.ok()) << Name(s);
      EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kTypeMismatch);
      EXPECT_THAT(std::string(r.status().message()), HasSubstr("DT_UINT64"));
      EXPECT_THAT(std::string(r.status().message()), HasSubstr(Name(s)));
    }
  }
}

TEST(PromoteTest, InvalidValuesAreParamInvalid) {
  for (int32_t v : {5, static_cast<int32_t>(DT_MAX), -1, 999}) {
    const DataType bad = static_cast<DataType>(v);
    for (const auto& [x, y] :
         {std::pair{bad, DT_FLOAT}, std::pair{DT_FLOAT, bad}, std::pair{bad, bad}}) {
      StatusOr<DataType> r = Promote(x, y);
      ASSERT_FALSE(r.ok()) << v;
      EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
      EXPECT_THAT(std::string(r.status().message()), HasSubstr(absl::StrCat(v)));
    }
  }
}

TEST(PromoteTest, EveryTypeWithItselfIsItself) {
  for (DataType dt : TypeUtils::AllDataTypes()) {
    StatusOr<DataType> r = Promote(dt, dt);
    ASSERT_TRUE(r.ok()) << Name(dt);
    EXPECT_EQ(*r, dt);
  }
}

TEST(PromoteTest, SymmetricOverAllPairs) {
  const std::vector<DataType> all = TypeUtils::AllDataTypes();
  for (DataType a : all) {
    for (DataType b : all) {
      StatusOr<DataType> ab = Promote(a, b);
      StatusOr<DataType> ba = Promote(b, a);
      ASSERT_EQ(ab.ok(), ba.ok()) << Name(a) << " x " << Name(b);
      if (ab.ok()) {
        EXPECT_EQ(*ab, *ba) << Name(a) << " x " << Name(b);
      } else {
        EXPECT_EQ(GetErrorCode(ab.status()), GetErrorCode(ba.status()));
      }
    }
  }
}

TEST(PromoteTest, NumericPairsFollowTheRules) {
  const std::vector<DataType> numeric = NumericTypes();
  ASSERT_EQ(numeric.size(), 30u);  // BOOL + 14 ints + 12 floats + 3 complex
  for (DataType a : numeric) {
    for (DataType b : numeric) {
      const std::string pair = Name(a) + " x " + Name(b);
      StatusOr<DataType> r = Promote(a, b);
      const bool u64_with_signed =
          (a == DT_UINT64 && TypeUtils::IsIntegerType(b) && TypeUtils::IsSignedType(b)) ||
          (b == DT_UINT64 && TypeUtils::IsIntegerType(a) && TypeUtils::IsSignedType(a));
      if (u64_with_signed) {
        EXPECT_FALSE(r.ok()) << pair;
        continue;
      }
      ASSERT_TRUE(r.ok()) << pair << ": " << r.status();
      const DataType p = *r;
      EXPECT_TRUE(IsNumeric(p)) << pair;
      // The result is an upper bound: promoting it with either input keeps it.
      EXPECT_EQ(Promote(p, a).value(), p) << pair;
      EXPECT_EQ(Promote(p, b).value(), p) << pair;
      // Category: complex if either is; else float if either is; else int.
      if (TypeUtils::IsComplexType(a) || TypeUtils::IsComplexType(b)) {
        EXPECT_TRUE(TypeUtils::IsComplexType(p)) << pair;
      } else if (TypeUtils::IsFloatType(a) || TypeUtils::IsFloatType(b)) {
        EXPECT_TRUE(TypeUtils::IsFloatType(p)) << pair;
      } else if (TypeUtils::IsIntegerType(a) || TypeUtils::IsIntegerType(b)) {
        EXPECT_TRUE(TypeUtils::IsIntegerType(p)) << pair;
      }
      // Never narrower than either input, except where the rules trade width
      // for kind (INT64 x FLOAT16 = FLOAT16, BOOL x FLOAT4 = FLOAT4).
      const int64_t bits = TypeUtils::GetSizeInBits(p).value();
      const bool int_mixed_with_non_int =
          TypeUtils::IsIntegerType(a) != TypeUtils::IsIntegerType(b);
      if (a != DT_BOOL && b != DT_BOOL && !int_mixed_with_non_int) {
        EXPECT_GE(bits, TypeUtils::GetSizeInBits(a).value()) << pair;
        EXPECT_GE(bits, TypeUtils::GetSizeInBits(b).value()) << pair;
      }
      // An int mixed with a float gives at least a 16-bit float.
      if (TypeUtils::IsIntegerType(a) && TypeUtils::IsFloatType(b)) {
        EXPECT_GE(bits, 16) << pair;
      }
      // Signed if either integer input is signed.
      if (TypeUtils::IsIntegerType(p) &&
          (TypeUtils::IsSignedType(a) || TypeUtils::IsSignedType(b))) {
        EXPECT_TRUE(TypeUtils::IsSignedType(p)) << pair;
      }
    }
  }
}

TEST(PromoteTest, BoolPromotesToEveryNumericType) {
  for (DataType dt : NumericTypes()) {
    EXPECT_EQ(Promote(DT_BOOL, dt).value(), dt) << Name(dt);
  }
}

TEST(PromoteTest, NonNumericTypesNeverMixWithAnyOtherType) {
  const std::vector<DataType> all = TypeUtils::AllDataTypes();
  for (DataType a : all) {
    if (IsNumeric(a)) continue;
    for (DataType b : all) {
      if (a == b) continue;
      StatusOr<DataType> r = Promote(a, b);
      EXPECT_FALSE(r.ok()) << Name(a) << " x " << Name(b);
      EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kTypeMismatch);
    }
  }
}

// ---------------------------------------------------------------------------
// Promote: lists
// ---------------------------------------------------------------------------

TEST(PromoteListTest, EmptyListIsParamInvalid) {
  StatusOr<DataType> r = Promote(std::vector<DataType>{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("empty"));
}

TEST(PromoteListTest, SingleAndRepeatedElements) {
  EXPECT_EQ(Promote(std::vector<DataType>{DT_INT4}).value(), DT_INT4);
  EXPECT_EQ(Promote(std::vector<DataType>{DT_STRING}).value(), DT_STRING);
  EXPECT_EQ(Promote(std::vector<DataType>{DT_STRING, DT_STRING}).value(), DT_STRING);
}

TEST(PromoteListTest, ExpectedLists) {
  EXPECT_EQ(Promote({DT_INT32, DT_FLOAT16, DT_FLOAT}).value(), DT_FLOAT);
  EXPECT_EQ(Promote({DT_BOOL, DT_INT8, DT_UINT8}).value(), DT_INT16);
  EXPECT_EQ(Promote({DT_UINT8, DT_INT8, DT_UINT16}).value(), DT_INT32);
  EXPECT_EQ(Promote({DT_FLOAT16, DT_BF16, DT_INT64}).value(), DT_FLOAT);
  EXPECT_EQ(Promote({DT_COMPLEX32, DT_FLOAT8_E5M2, DT_BF16}).value(), DT_COMPLEX64);
  EXPECT_EQ(Promote({DT_INT8, DT_FLOAT8_E4M3FN}).value(), DT_FLOAT16);
}

TEST(PromoteListTest, NonAssociativeCornersAreResolvedIndependentlyOfOrder) {
  // FP8 x FP8 = FLOAT16 and FLOAT16 x BF16 = FLOAT, but FP8 x BF16 = BF16: the
  // canonical (widest first) fold gives BF16 whatever the order.
  std::vector<DataType> fp8s{DT_FLOAT8_E5M2, DT_FLOAT8_E4M3FN, DT_BF16};
  std::sort(fp8s.begin(), fp8s.end());
  do {
    EXPECT_EQ(Promote(fp8s).value(), DT_BF16);
  } while (std::next_permutation(fp8s.begin(), fp8s.end()));

  // UINT64 x INT8 fails, but both go into FLOAT.
  std::vector<DataType> mixed{DT_UINT64, DT_INT8, DT_FLOAT};
  std::sort(mixed.begin(), mixed.end());
  do {
    EXPECT_EQ(Promote(mixed).value(), DT_FLOAT);
  } while (std::next_permutation(mixed.begin(), mixed.end()));
}

TEST(PromoteListTest, TwoElementListsMatchPairs) {
  const std::vector<DataType> all = TypeUtils::AllDataTypes();
  for (DataType a : all) {
    for (DataType b : all) {
      StatusOr<DataType> pair = Promote(a, b);
      StatusOr<DataType> list = Promote(std::vector<DataType>{a, b});
      ASSERT_EQ(pair.ok(), list.ok()) << Name(a) << " x " << Name(b);
      if (pair.ok()) {
        EXPECT_EQ(*pair, *list) << Name(a) << " x " << Name(b);
      }
    }
  }
}

TEST(PromoteListTest, TriplesAreIndependentOfOrder) {
  const std::vector<DataType> numeric = NumericTypes();
  const size_t n = numeric.size();
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i; j < n; ++j) {
      for (size_t k = j; k < n; ++k) {
        std::vector<DataType> v{numeric[i], numeric[j], numeric[k]};
        std::sort(v.begin(), v.end());
        const StatusOr<DataType> first = Promote(v);
        while (std::next_permutation(v.begin(), v.end())) {
          const StatusOr<DataType> other = Promote(v);
          ASSERT_EQ(first.ok(), other.ok())
              << Name(v[0]) << ", " << Name(v[1]) << ", " << Name(v[2]);
          if (first.ok()) {
            ASSERT_EQ(*first, *other) << Name(v[0]) << ", " << Name(v[1]) << ", " << Name(v[2]);
          }
        }
        if (first.ok()) {
          // The result absorbs every element.
          for (DataType dt : v) {
            EXPECT_EQ(Promote(*first, dt).value(), *first);
          }
        }
      }
    }
  }
}

TEST(PromoteListTest, ErrorsNameTheIndexAndTypes) {
  StatusOr<DataType> r = Promote({DT_FLOAT, DT_INT32, DT_STRING});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kTypeMismatch);
  std::string msg(r.status().message());
  EXPECT_THAT(msg, HasSubstr("DT_STRING"));
  EXPECT_THAT(msg, HasSubstr("types["));

  r = Promote({DT_INT8, DT_UINT64});
  ASSERT_FALSE(r.ok());
  msg = std::string(r.status().message());
  EXPECT_THAT(msg, HasSubstr("DT_UINT64"));
  EXPECT_THAT(msg, HasSubstr("DT_INT8"));
  EXPECT_THAT(msg, HasSubstr("types[0]"));  // UINT64 is folded first

  r = Promote({DT_FLOAT, DT_FLOAT16, static_cast<DataType>(5)});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParamInvalid);
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("types[2]"));
}

}  // namespace
}  // namespace ge
