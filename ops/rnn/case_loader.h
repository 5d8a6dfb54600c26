// ops/rnn/case_loader.h (testonly)
//
// Loads a case file written by ops/rnn/gen_cases.py: the format of
// ops/common/onnx_case_runner plus string-list attributes
//   attr <name> strs <n> <x + hex bytes>...
// which the common parser does not know. Those lines are taken out, the rest
// is parsed by ops::testing::LoadOnnxCases, and the string lists are added
// to their cases' attributes (RunOnnxCase sets every attribute as given).
//
//   INSTANTIATE_TEST_SUITE_P(Text, TextOnnxTest,
//       ::testing::ValuesIn(ops::optest::LoadCasesOrDie("ops/text/testdata/onnx_cases.txt")),
//       ops::testing::OnnxCaseName<::testing::TestParamInfo<ops::testing::OnnxCase>>);
#ifndef OPS_RNN_CASE_LOADER_H_
#define OPS_RNN_CASE_LOADER_H_

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "graph/inc/graph/attr_value.h"
#include "metadef/inc/external/base/status.h"
#include "ops/common/onnx_case_runner.h"

namespace ops {
namespace optest {

inline ge::StatusOr<std::string> HexToBytes(const std::string& s) {
  return ops::testing::HexDecode(s);
}

// Parses `path` (a real file path).
inline ge::StatusOr<std::vector<ops::testing::OnnxCase>> LoadCases(const std::string& path) {
  std::ifstream in(path);
  if (!in) return ge::NotFound("cannot open ", path);
  std::ostringstream rest;
  // Case index -> string-list attributes.
  std::map<size_t, std::vector<std::pair<std::string, ge::AttrValue>>> strs;
  size_t case_index = 0;
  bool seen_case = false;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("case ", 0) == 0) {
      if (seen_case) ++case_index;
      seen_case = true;
    }
    if (line.rfind("attr ", 0) == 0) {
      std::vector<std::string> f = absl::StrSplit(line, ' ', absl::SkipEmpty());
      if (f.size() >= 4 && f[2] == "strs") {
        size_t n;
        if (!absl::SimpleAtoi(f[3], &n) || f.size() != n + 4) {
          return ge::ParseFailed(path, ": bad string list: ", line);
        }
        std::vector<std::string> values;
        for (size_t i = 0; i < n; ++i) {
          ASSIGN_OR_RETURN(std::string v, HexToBytes(f[4 + i]));
          values.push_back(std::move(v));
        }
        strs[case_index].emplace_back(
            f[1], ge::AttrValue::CreateFrom<std::vector<std::string>>(std::move(values)));
        continue;
      }
    }
    rest << line << "\n";
  }
  const char* tmpdir = std::getenv("TEST_TMPDIR");
  std::string tmp = absl::StrCat(tmpdir != nullptr ? tmpdir : "/tmp", "/cases_",
                                 std::hash<std::string>()(path), ".txt");
  {
    std::ofstream out(tmp);
    out << rest.str();
    if (!out) return ge::Internal("cannot write ", tmp);
  }
  ASSIGN_OR_RETURN(std::vector<ops::testing::OnnxCase> cases, ops::testing::LoadOnnxCases(tmp));
  std::remove(tmp.c_str());
  for (auto& [index, attrs] : strs) {
    if (index >= cases.size()) return ge::ParseFailed(path, ": string list outside a case");
    for (auto& a : attrs) cases[index].attrs.push_back(std::move(a));
  }
  return cases;
}

// `workspace_path` resolved under the test's runfiles ($TEST_SRCDIR/ge/...)
// when run by bazel; aborts the test binary when the file cannot be loaded.
inline std::vector<ops::testing::OnnxCase> LoadCasesOrDie(const std::string& workspace_path) {
  std::string path = workspace_path;
  if (const char* srcdir = std::getenv("TEST_SRCDIR")) {
    path = absl::StrCat(srcdir, "/ge/", workspace_path);
  }
  auto cases = LoadCases(path);
  if (!cases.ok()) {
    std::fprintf(stderr, "LoadCasesOrDie: %s\n", std::string(cases.status().message()).c_str());
    std::abort();  // test-only: a missing data file is a broken build
  }
  return *std::move(cases);
}

}  // namespace optest
}  // namespace ops

#endif  // OPS_RNN_CASE_LOADER_H_
