// runtime/api/bad_model_file_test.cc
//
// Corrupt, truncated and hostile OM files give a Status, never a crash (run
// it under --config=asan too). The corpus is generated from valid files of
// a static and a dynamic model:
//   * every truncation length on a grid, and the last bytes;
//   * single-byte corruptions at many offsets (caught by the checksum);
//   * the same corruptions with the checksum recomputed, so that the
//     structure / proto / graph / task checks behind it are exercised;
//   * semantically hostile models that are valid files: a task whose engine
//     has no kernel, a task naming a missing node, a huge arena, a tensor
//     reference outside its region, a dynamic model with an unknown op.
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "build/om/om_file.h"
#include "build/proto/model_task.pb.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "runtime/inc/runtime/model.h"
#include "runtime/testing/runtime_test_util.h"

namespace ge {
namespace {

constexpr size_t kChecksumOffset = 12;  // build/om/om_file.cc header layout

void FixChecksum(std::string* om) {
  if (om->size() < kOmHeaderSize) return;
  const std::array<uint8_t, 32> sum =
      OmChecksum(AsBytes(absl::string_view(*om).substr(kOmHeaderSize)));
  std::memcpy(&(*om)[kChecksumOffset], sum.data(), sum.size());
}

std::string ValidOm(const onnx::ModelProto& onnx) {
  StatusOr<std::string> om = rttest::CompileOnnxToOm(onnx);
  rttest::CheckOk(om.status(), "compile");
  return std::move(om).value();
}

// Loads `bytes`; returns the status. A successful load must also run (or
// fail cleanly) on valid inputs.
Status TryLoadAndRun(const std::string& bytes) {
  StatusOr<Model> m = Model::LoadFromBytes(bytes);
  if (!m.ok()) return m.status();
  std::vector<gert::HostTensor> in;
  for (const ModelIoDesc& d : m->inputs()) {
    std::vector<int64_t> dims = d.dims;
    for (int64_t& v : dims) v = v < 0 ? 2 : v;
    if (d.dtype != DT_FLOAT) return OkStatus();
    in.push_back(rttest::PatternF32(dims));
  }
  StatusOr<std::vector<gert::HostTensor>> out = m->Run(in);
  return out.status();  // OK or a clean error
}

class BadModelFileTest : public ::testing::TestWithParam<int> {
 protected:
  std::string Om() const {
    return GetParam() == 0 ? ValidOm(rttest::Mlp()) : ValidOm(rttest::DynamicBatch());
  }
};

TEST_P(BadModelFileTest, ValidFileLoads) {
  Status st = TryLoadAndRun(Om());
  EXPECT_TRUE(st.ok()) << st;
}

TEST_P(BadModelFileTest, Truncations) {
  const std::string om = Om();
  std::vector<size_t> lengths = {0, 1, 3, 4, 100, 255, 256, 257, 300};
  for (size_t n = 512; n < om.size(); n += om.size() / 97 + 1) lengths.push_back(n);
  for (size_t k = 1; k <= 8 && k <= om.size(); ++k) lengths.push_back(om.size() - k);
  for (size_t n : lengths) {
    if (n >= om.size()) continue;
    Status st = Model::LoadFromBytes(om.substr(0, n)).status();
    EXPECT_FALSE(st.ok()) << "length " << n;
    EXPECT_FALSE(st.message().empty());
  }
  // Appended garbage.
  EXPECT_FALSE(Model::LoadFromBytes(om + "junk").ok());
}

TEST_P(BadModelFileTest, CorruptionsAreCaughtByTheChecksum) {
  const std::string om = Om();
  for (size_t pos = kOmHeaderSize; pos < om.size(); pos += om.size() / 53 + 1) {
    std::string bad = om;
    bad[pos] = static_cast<char>(bad[pos] ^ 0x5A);
    Status st = Model::LoadFromBytes(bad).status();
    EXPECT_EQ(GetErrorCode(st), ErrorCode::kParseFailed) << "offset " << pos << ": " << st;
  }
}

TEST_P(BadModelFileTest, CorruptionsBehindAValidChecksumNeverCrash) {
  const std::string om = Om();
  uint32_t rng = 12345u + static_cast<uint32_t>(GetParam());
  int loaded = 0, rejected = 0;
  for (int iter = 0; iter < 600; ++iter) {
    std::string bad = om;
    const int edits = 1 + iter % 4;
    for (int e = 0; e < edits; ++e) {
      rng = rng * 1664525u + 1013904223u;
      size_t pos = kOmHeaderSize + (rng >> 4) % (bad.size() - kOmHeaderSize);
      rng = rng * 1664525u + 1013904223u;
      const uint8_t values[] = {0x00, 0xFF, 0x7F, 0x80, 0x01, static_cast<uint8_t>(rng >> 24)};
      bad[pos] = static_cast<char>(values[(rng >> 8) % 6]);
    }
    FixChecksum(&bad);
    Status st = TryLoadAndRun(bad);
    (st.ok() ? loaded : rejected)++;
    if (!st.ok()) {
      EXPECT_FALSE(st.message().empty());
    }
  }
  EXPECT_GT(rejected, 0);
  std::printf("hostile corpus: %d loaded (harmless edits), %d rejected\n", loaded, rejected);
}

TEST_P(BadModelFileTest, HeaderFieldsNeverCrash) {
  const std::string om = Om();
  for (size_t pos = 0; pos < kOmHeaderSize; ++pos) {
    if (pos >= kChecksumOffset && pos < kChecksumOffset + 32) continue;
    for (uint8_t v : {0x00, 0xFF, 0x01}) {
      std::string bad = om;
      if (static_cast<uint8_t>(bad[pos]) == v) continue;
      bad[pos] = static_cast<char>(v);
      Status st = TryLoadAndRun(bad);
      (void)st;  // any clean outcome (e.g. the name field) is fine
    }
  }
}

INSTANTIATE_TEST_SUITE_P(StaticAndDynamic, BadModelFileTest, ::testing::Values(0, 1));

// ---- valid files with hostile content

// Loads `om`, lets `mutate` edit the root model, writes it back.
std::string Rewrite(const std::string& om, const std::function<void(GeModel&)>& mutate) {
  auto holder = std::make_shared<std::string>(om);
  StatusOr<GeRootModelPtr> root = LoadGeRootModelFromOm(AsBytes(*holder), holder);
  rttest::CheckOk(root.status(), "load om");
  mutate(*(*root)->root);
  StatusOr<std::string> out = SaveOm(**root);
  rttest::CheckOk(out.status(), "save om");
  return std::move(out).value();
}

TEST(HostileModelTest, MissingKernelFailsAtLoad) {
  const std::string om = Rewrite(ValidOm(rttest::Mlp()), [](GeModel& m) {
    m.task_def.mutable_task(0)->set_engine("NoSuchEngine");
  });
  Status st = Model::LoadFromBytes(om).status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotSupported) << st;
  EXPECT_NE(st.message().find("no kernel for engine 'NoSuchEngine'"), std::string::npos) << st;
}

TEST(HostileModelTest, TaskNamingAMissingNode) {
  const std::string om = Rewrite(
      ValidOm(rttest::Mlp()), [](GeModel& m) { m.task_def.mutable_task(0)->set_op_index(100000); });
  Status st = Model::LoadFromBytes(om).status();
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("100000"), std::string::npos) << st;
}

TEST(HostileModelTest, HugeArena) {
  const std::string om = Rewrite(ValidOm(rttest::Mlp()),
                                 [](GeModel& m) { m.task_def.set_memory_size(uint64_t{1} << 60); });
  Status st = Model::LoadFromBytes(om).status();
  EXPECT_FALSE(st.ok()) << st;
}

TEST(HostileModelTest, ShapeThatWouldOverflowTheKernelOutput) {
  // The task claims a smaller output than the op writes: rejected at load
  // (by the OM reader or by the executor's infer check), never run.
  const std::string om = Rewrite(ValidOm(rttest::Mlp()), [](GeModel& m) {
    for (proto::TaskDef& t : *m.task_def.mutable_task()) {
      if (t.op_type() == "MatMul") {
        proto::TensorRef* out = t.mutable_output(0);
        out->clear_dims();
        out->add_dims(1);
        out->add_dims(1);
        out->set_size(4);
      }
    }
  });
  Status st = Model::LoadFromBytes(om).status();
  EXPECT_FALSE(st.ok()) << st;
}

TEST(HostileModelTest, DynamicModelWithUnknownOp) {
  const std::string om = Rewrite(ValidOm(rttest::DynamicBatch()), [](GeModel& m) {
    for (Node* n : m.graph->GetDirectNodePtr()) {
      if (n->GetType() == "Relu") n->GetOpDescBarePtr()->SetType("NoSuchOpType");
    }
  });
  Status st = Model::LoadFromBytes(om).status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotFound) << st;
  EXPECT_NE(st.message().find("NoSuchOpType"), std::string::npos) << st;
}

}  // namespace
}  // namespace ge
