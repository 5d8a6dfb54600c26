// ops/common/onnx_case_runner.h (testonly)
//
// Runs ONNX node test cases (converted by ops/common/gen_onnx_cases.py into a
// text file, see that script for the format) through the op registry: for
// each case, verify -> infer data type -> infer shape on the input shapes and
// dtypes (input values known), checking the inferred output dtypes / shapes
// against the expected outputs, then the registered host CPU kernel, checking
// the output values.
//
// Float comparison: |got - want| <= atol + rtol * |want|, NaN equals NaN,
// infinities must match exactly; rtol depends on the output dtype.
//
// Example (a family test: one parameterised test per case in the file)
//   OPS_ONNX_CASE_TESTS(ElementwiseOnnxTest, "ops/elementwise/testdata/onnx_cases.txt");
//   // other loaders / comparison options:
//   OPS_ONNX_CASE_SUITE(RnnOnnxTest, LoadMyCases(), MyOptions());
#ifndef OPS_COMMON_ONNX_CASE_RUNNER_H_
#define OPS_COMMON_ONNX_CASE_RUNNER_H_

#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/inc/external/graph/types.h"
#include "metadef/register/inc/gert/tensor.h"

namespace ops {
namespace testing {

struct OnnxTensor {
  bool absent = false;
  ge::DataType dtype = ge::DT_UNDEFINED;
  gert::Shape shape;
  std::vector<std::string> values;  // textual, see gen_onnx_cases.py
};

struct OnnxCase {
  std::string name;  // test directory name [+ "/<data set>"]
  std::string op;
  std::vector<std::pair<std::string, ge::AttrValue>> attrs;
  std::vector<OnnxTensor> inputs;
  std::vector<OnnxTensor> outputs;
};

struct CompareOptions {
  double rtol = 1e-3;  // FLOAT / DOUBLE outputs
  double atol = 1e-6;
  double half_rtol = 2e-3;  // FLOAT16 outputs (one ulp is ~1e-3)
  double bf16_rtol = 1e-2;  // BF16 outputs (one ulp is ~8e-3)
  double half_atol = 1e-4;
};

// "x" followed by hex digit pairs (lower case) -> the bytes; ParseFailed
// otherwise. The encoding of string values in case files.
ge::StatusOr<std::string> HexDecode(absl::string_view s);

// Parses a case file; ParseFailed naming the line on malformed input.
ge::StatusOr<std::vector<OnnxCase>> LoadOnnxCases(const std::string& path);
// `workspace_path` resolved under the test's runfiles ($TEST_SRCDIR/ge/...)
// when run by bazel, else relative to the current directory. Aborts the test
// binary (this is test-only code) when the file cannot be loaded.
std::vector<OnnxCase> LoadOnnxCasesOrDie(const std::string& workspace_path);

// A HostTensor holding t's values.
ge::StatusOr<gert::HostTensor> MakeTensor(const OnnxTensor& t);

// Runs one case through the registry. OK when inferred dtypes / shapes and
// kernel outputs match; otherwise a status describing the first mismatch.
ge::Status RunOnnxCase(const OnnxCase& c, const CompareOptions& opts = {});

// gtest prints parameters with this (the case name, not its bytes).
inline void PrintTo(const OnnxCase& c, std::ostream* os) { *os << c.name; }

// gtest parameter name: the case name with non-alphanumerics as '_'.
template <typename ParamInfo>
std::string OnnxCaseName(const ParamInfo& info) {
  std::string s = info.param.name;
  for (char& ch : s) {
    const bool alnum =
        (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
    if (!alnum) ch = '_';
  }
  return s;
}

}  // namespace testing
}  // namespace ops

// Defines test suite `Suite` running every case of the vector `cases`
// (include gtest first) through RunOnnxCase with the CompareOptions `opts`;
// OPS_ONNX_CASE_TESTS loads the case file at workspace path `path`.
#define OPS_ONNX_CASE_SUITE(Suite, cases, opts)                               \
  class Suite : public ::testing::TestWithParam<::ops::testing::OnnxCase> {}; \
  TEST_P(Suite, Matches) {                                                    \
    const ::ge::Status st = ::ops::testing::RunOnnxCase(GetParam(), (opts));  \
    EXPECT_TRUE(st.ok()) << GetParam().name << ": " << st;                    \
  }                                                                           \
  INSTANTIATE_TEST_SUITE_P(                                                   \
      Onnx, Suite, ::testing::ValuesIn(cases),                                \
      ::ops::testing::OnnxCaseName<::testing::TestParamInfo<::ops::testing::OnnxCase>>)
#define OPS_ONNX_CASE_TESTS(Suite, path)                               \
  OPS_ONNX_CASE_SUITE(Suite, ::ops::testing::LoadOnnxCasesOrDie(path), \
                      ::ops::testing::CompareOptions())

#endif  // OPS_COMMON_ONNX_CASE_RUNNER_H_
