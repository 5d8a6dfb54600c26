// graph/serialization/testing/bad_input_corpus.h
//
// Test helper (testonly): the corpus of corrupt / hostile serialized models.
// Each case is a small valid ModelDef (BaseModel) with one defect, written as
// bytes, with the error code and the message fragment that
// ModelSerialize::DeserializeModel must report. Cases marked checked_in are
// also stored as graph/serialization/testdata/corpus/<name>.pb (written by
// //graph/serialization:make_corpus).
//
// BaseModel: graph "main": a (Data) -> b (Relu) -> c (If, input 1 unconnected,
// control input from a, subgraph "then"); input a, output c:0; subgraph
// "then" (parent main / c): d (Data) -> e (NetOutput).
//
// Example
//   for (const BadInputCase& c : BadInputCorpus()) {
//     Status st = ModelSerialize::DeserializeModel(c.bytes, c.options);
//     EXPECT_THAT(st.message(), HasSubstr(c.fragment));
//   }
#ifndef GRAPH_SERIALIZATION_TESTING_BAD_INPUT_CORPUS_H_
#define GRAPH_SERIALIZATION_TESTING_BAD_INPUT_CORPUS_H_

#include <string>
#include <vector>

#include "graph/proto/ge_ir.pb.h"
#include "graph/serialization/inc/model_serialize.h"
#include "metadef/inc/external/base/status.h"

namespace ge {
namespace testing {

struct BadInputCase {
  std::string name;  // file stem, [a-z0-9_]
  std::string bytes;
  ErrorCode code;
  std::string fragment;  // expected in the status message
  DeserializeOptions options;
  bool checked_in = false;
};

proto::ModelDef BaseModel();
std::vector<BadInputCase> BadInputCorpus();

}  // namespace testing
}  // namespace ge

#endif  // GRAPH_SERIALIZATION_TESTING_BAD_INPUT_CORPUS_H_
