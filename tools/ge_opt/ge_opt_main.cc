// tools/ge_opt/ge_opt_main.cc
//
// ge_opt FILE [--passes=A,B] [--stage=prepare|stage1|stage2|all] [--format=text|onnx]
//        [--output=PATH]
// Prints the resulting graph in the text form on stdout (unless --output is
// given); on error prints the status on stderr and exits with 1.
#include <cstdio>
#include <string>
#include <vector>

#include "tools/ge_opt/ge_opt_lib.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  ge::StatusOr<std::string> text = ge::ge_opt::RunGeOpt(args);
  if (!text.ok()) {
    std::fprintf(stderr, "ge_opt: %s\n", std::string(text.status().message()).c_str());
    return 1;
  }
  bool has_output = false;
  for (const std::string& a : args) has_output = has_output || a.rfind("--output=", 0) == 0;
  if (!has_output) std::fwrite(text->data(), 1, text->size(), stdout);
  return 0;
}
