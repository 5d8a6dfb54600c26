// graph/serialization/tools/make_corpus.cc
//
// Writes the checked-in part of the bad-input corpus (BadInputCorpus cases
// marked checked_in) as <dir>/<name>.pb:
//   bazel run //graph/serialization:make_corpus -- $PWD/graph/serialization/testdata/corpus
#include <cstdio>
#include <string>

#include "graph/serialization/testing/bad_input_corpus.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <output dir>\n", argv[0]);
    return 2;
  }
  int written = 0;
  for (const ge::testing::BadInputCase& c : ge::testing::BadInputCorpus()) {
    if (!c.checked_in) continue;
    const std::string path = std::string(argv[1]) + "/" + c.name + ".pb";
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr || std::fwrite(c.bytes.data(), 1, c.bytes.size(), f) != c.bytes.size() ||
        std::fclose(f) != 0) {
      std::fprintf(stderr, "cannot write %s\n", path.c_str());
      return 1;
    }
    ++written;
  }
  std::printf("wrote %d corpus files to %s\n", written, argv[1]);
  return 0;
}
