// tools/ge_opt/pass_golden_test.cc
//
// Golden pass tests: each file given on the command line (the files of
// //compiler/passes:pass_goldens) holds
//   # RUN: ge_opt %s <arguments>
//   <input graph in the text form>
//   # ---- expected ----
//   <expected output of ge_opt>
// The input part (everything before the marker line, comments included) is
// run through ge_opt with the RUN line's arguments and the output must equal
// the expected part byte for byte; a mismatch fails with a unified diff. An
// error from ge_opt is compared as the line "error: <message>".
//
// GE_OPT_UPDATE_GOLDEN=1 bazel run //tools/ge_opt:pass_golden_test rewrites
// the expected part of every file in the source tree instead.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "tools/ge_opt/ge_opt_lib.h"

namespace ge {
namespace {

constexpr char kRun[] = "# RUN: ge_opt %s";
constexpr char kMarker[] = "# ---- expected ----";

std::vector<std::string>* Files() {
  static auto* files = new std::vector<std::string>();
  return files;
}

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void Write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string TmpDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir == nullptr ? "/tmp" : dir;
}

std::string Diff(const std::string& expected, const std::string& actual) {
  const std::string a = TmpDir() + "/golden_expected.txt";
  const std::string b = TmpDir() + "/golden_actual.txt";
  Write(a, expected);
  Write(b, actual);
  std::string out;
  FILE* p = popen(
      absl::StrCat("diff -u --label expected --label actual '", a, "' '", b, "'").c_str(), "r");
  if (p == nullptr) return "(diff unavailable)";
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  pclose(p);
  return out;
}

struct Golden {
  std::vector<std::string> args;
  std::string input;
  std::string expected;
};

bool Split(const std::string& text, Golden* g, std::string* error) {
  const size_t nl = text.find('\n');
  const std::string first = text.substr(0, nl);
  if (!absl::StartsWith(first, kRun)) {
    *error = absl::StrCat("the first line must start with '", kRun, "'");
    return false;
  }
  for (absl::string_view a :
       absl::StrSplit(first.substr(sizeof(kRun) - 1), ' ', absl::SkipEmpty())) {
    g->args.emplace_back(a);
  }
  const std::string marker = absl::StrCat("\n", kMarker, "\n");
  const size_t m = text.find(marker);
  if (m == std::string::npos) {
    *error = absl::StrCat("no marker line '", kMarker, "'");
    return false;
  }
  g->input = text.substr(0, m + 1);
  g->expected = text.substr(m + marker.size());
  return true;
}

TEST(PassGoldenTest, EveryFileGivesItsExpectedOutput) {
  ASSERT_FALSE(Files()->empty()) << "no golden files given";
  const char* update = std::getenv("GE_OPT_UPDATE_GOLDEN");
  const char* workspace = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  const bool updating = update != nullptr && std::string(update) == "1";
  if (updating) {
    ASSERT_NE(workspace, nullptr) << "update with: GE_OPT_UPDATE_GOLDEN=1 bazel run ...";
  }
  int updated = 0;
  for (const std::string& path : *Files()) {
    SCOPED_TRACE(path);
    Golden g;
    std::string error;
    const std::string text = Read(path);
    ASSERT_TRUE(Split(text, &g, &error)) << path << ": " << error;
    const std::string in = TmpDir() + "/golden_input.getxt";
    Write(in, g.input);
    std::vector<std::string> args = {in};
    args.insert(args.end(), g.args.begin(), g.args.end());
    StatusOr<std::string> out = ge_opt::RunGeOpt(args);
    const std::string actual =
        out.ok() ? *out
                 : absl::StrCat(
                       "error: ", absl::StrReplaceAll(out.status().message(), {{in, path}}), "\n");
    if (updating) {
      if (actual != g.expected) {
        Write(absl::StrCat(workspace, "/", path), absl::StrCat(g.input, kMarker, "\n", actual));
        ++updated;
      }
      continue;
    }
    EXPECT_EQ(actual, g.expected)
        << path << " differs from its expectation:\n"
        << Diff(g.expected, actual)
        << "(GE_OPT_UPDATE_GOLDEN=1 bazel run //tools/ge_opt:pass_golden_test "
           "rewrites the expectations)";
  }
  if (updating) std::printf("updated %d of %zu golden files\n", updated, Files()->size());
}

}  // namespace
}  // namespace ge

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) ge::Files()->push_back(argv[i]);
  return RUN_ALL_TESTS();
}
