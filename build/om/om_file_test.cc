// build/om/om_file_test.cc
#include "build/om/om_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "build/model/build_test_util.h"
#include "build/model/model_builder.h"
#include "build/om/launch_plan.h"
#include "google/protobuf/unknown_field_set.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "graph/serialization/inc/model_serialize.h"
#include "graph/src/testing/file_view_testing.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

using buildtest::GraphMaker;

ComputeGraphPtr SmallGraph(const std::string& name = "small", float w0 = 1.0f) {
  GraphMaker g(name);
  NodePtr x = g.Data("x", 0, {2, 3});
  NodePtr w = g.ConstF32("w", {2, 3}, {w0, 2, 3, 4, 5, 6});
  NodePtr add = g.Binary("add", "Add", x, w);
  NodePtr relu = g.Unary("relu", "Relu", add);
  g.NetOutput({{relu, 0}, {x, 0}});
  return g.graph();
}

GeRootModelPtr Build(const ComputeGraphPtr& graph) {
  ModelBuildOptions o;
  o.attrs["soc_version"] = "x86_64_avx512";
  o.attrs["ge.opt"] = "1";
  auto m = ModelBuilder(o).Build(graph);
  EXPECT_TRUE(m.ok()) << m.status();
  return m.ok() ? *m : nullptr;
}

// Aligned copy of the file (as mmap would give).
std::shared_ptr<AlignedBuffer> Aligned(const std::string& bytes) {
  return std::make_shared<AlignedBuffer>(reinterpret_cast<const uint8_t*>(bytes.data()),
                                         bytes.size());
}

// LoadOmForRuntime over an aligned buffer, which owns the bytes.
StatusOr<OmRuntimeModel> LoadAligned(const std::shared_ptr<AlignedBuffer>& buf) {
  return LoadOmForRuntime(absl::Span<const uint8_t>(buf->data(), buf->size()), buf);
}

// Flips one byte at `parts` places spread over the body of `om` and expects
// `load(bytes, owner)` to report the checksum, whatever the decoders would
// make of the bytes.
template <typename Load>
void ExpectFlipsFailChecksum(const std::string& om, size_t parts, Load load) {
  for (size_t pos = kOmHeaderSize; pos < om.size(); pos += om.size() / parts + 1) {
    std::string s = om;
    s[pos] ^= 0x5a;
    std::shared_ptr<AlignedBuffer> b = Aligned(s);
    const Status bad = load(absl::Span<const uint8_t>(b->data(), b->size()), b);
    EXPECT_EQ(GetErrorCode(bad), ErrorCode::kParseFailed) << pos;
    EXPECT_NE(std::string(bad.message()).find("checksum"), std::string::npos) << pos << ": " << bad;
  }
}

uint64_t GetU64(const std::string& s, size_t pos) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(s[pos + i]);
  return v;
}
void PutU32(std::string& s, size_t pos, uint32_t v) {
  for (int i = 0; i < 4; ++i) s[pos + i] = static_cast<char>(v >> (8 * i));
}
void PutU64(std::string& s, size_t pos, uint64_t v) {
  for (int i = 0; i < 8; ++i) s[pos + i] = static_cast<char>(v >> (8 * i));
}
// Recomputes the checksum so the deeper validation is reached.
void Reseal(std::string& s) {
  if (s.size() < kOmHeaderSize) return;
  auto sum = OmChecksum(AsBytes(absl::string_view(s).substr(kOmHeaderSize)));
  std::memcpy(&s[12], sum.data(), sum.size());
}

TEST(OmFileTest, HeaderAndLayout) {
  GeRootModelPtr model = Build(SmallGraph());
  auto om = SaveOm(*model);
  ASSERT_TRUE(om.ok()) << om.status();
  EXPECT_EQ(om->substr(0, 4), std::string("IMOD"));  // 0x444F4D49 little-endian
  auto view = ParseOmFile(AsBytes(*om));
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_EQ(view->header.magic, kOmMagic);
  EXPECT_EQ(view->header.header_size, 256u);
  EXPECT_EQ(view->header.total_length, om->size());
  EXPECT_EQ(view->header.name, "small");
  EXPECT_EQ(view->header.op_count, 5u);
  EXPECT_EQ(view->header.model_count, 1u);
  EXPECT_EQ(view->header.platform_version, "x86_64_avx512");
  EXPECT_EQ(view->header.is_unknown_model, 0);
  ASSERT_EQ(view->models.size(), 1u);
  const OmModelView& m = view->models[0];
  EXPECT_EQ(m.name, "small");
  ASSERT_GE(m.partitions.size(), 4u);
  EXPECT_EQ(m.partitions[0].type, OmPartitionType::kModelDef);
  EXPECT_EQ(m.partitions[1].type, OmPartitionType::kWeightsData);
  EXPECT_EQ(m.partitions[2].type, OmPartitionType::kTaskInfo);
  EXPECT_EQ(m.partitions[3].type, OmPartitionType::kKernels);
  EXPECT_EQ(m.partitions[1].offset % kOmWeightsAlign, 0u);
  for (const OmPartition& p : m.partitions) EXPECT_EQ(p.offset % kOmPartitionAlign, 0u);
  EXPECT_EQ(m.weights.size(), 64u);
  EXPECT_EQ(m.task_def.task_size(), 3);  // add, relu, memcpy of x
  const std::array<uint8_t, 32> sum = OmChecksum(AsBytes(absl::string_view(*om).substr(256)));
  EXPECT_EQ(std::memcmp(sum.data(), view->header.checksum.data(), 32), 0);
  EXPECT_EQ(view->header.version, 3u);
  // XXH3-128 in the first 16 checksum bytes, zero after.
  for (size_t i = kOmChecksumBytes; i < 64; ++i) EXPECT_EQ(view->header.checksum[i], 0) << i;
  EXPECT_NE(std::memcmp(sum.data(), std::array<uint8_t, 16>{}.data(), 16), 0);
}

TEST(OmFileTest, RoundTripIsEqualAndZeroCopy) {
  ComputeGraphPtr graph = SmallGraph();
  GeRootModelPtr model = Build(graph);
  auto om = SaveOm(*model);
  ASSERT_TRUE(om.ok());
  auto buf = Aligned(*om);
  absl::Span<const uint8_t> span(buf->data(), buf->size());
  auto loaded = LoadGeRootModelFromOm(span, buf);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const GeModel& a = *model->root;
  const GeModel& b = *(*loaded)->root;
  EXPECT_EQ(b.name, a.name);
  EXPECT_EQ(b.attrs, a.attrs);
  EXPECT_EQ(b.task_def.SerializeAsString(), a.task_def.SerializeAsString());
  ASSERT_EQ(b.weights.size, a.weights.size);
  // A fresh build keeps its constants in place (pieces, no blob).
  EXPECT_EQ(a.weights.data, nullptr);
  ASSERT_EQ(a.weights.pieces.size(), 1u);
  const WeightBuffer flat = MakeContiguousWeights(a.weights);
  ASSERT_NE(flat.data, nullptr);
  EXPECT_EQ(std::memcmp(b.weights.data, flat.data, a.weights.size), 0);
  EXPECT_GE(b.weights.data, buf->data());  // a view into the file
  EXPECT_LT(b.weights.data, buf->data() + buf->size());
  EXPECT_EQ(b.weights.owner, buf);
  EXPECT_EQ(*ModelSerialize::SerializeModel(*b.graph), *ModelSerialize::SerializeModel(*a.graph));
  // Saving the loaded model gives the same bytes.
  auto again = SaveOm(**loaded);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, *om);
  // Constants come back from the weights.
  GeModel copy = b;
  ASSERT_TRUE(RestoreConstValues(copy).ok());
  const GeTensor* w = copy.graph->FindNode("w")->GetOpDesc()->GetAttr("value")->Get<GeTensor>();
  ASSERT_NE(w, nullptr);
  float v[6];
  ASSERT_EQ(w->GetData().size(), sizeof(v));
  std::memcpy(v, w->GetData().data(), sizeof(v));
  EXPECT_EQ(v[5], 6.0f);
}

TEST(OmFileTest, UnalignedBufferGetsAlignedWeights) {
  GeRootModelPtr model = Build(SmallGraph());
  auto om = SaveOm(*model);
  ASSERT_TRUE(om.ok());
  auto holder = std::make_shared<std::string>(std::string(1, '\0') + *om);
  absl::Span<const uint8_t> span = AsBytes(*holder).subspan(1);
  auto loaded = LoadGeRootModelFromOm(span, holder);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(reinterpret_cast<uintptr_t>((*loaded)->root->weights.data) % kWeightAlign, 0u);
  EXPECT_EQ(std::memcmp((*loaded)->root->weights.data,
                        MakeContiguousWeights(model->root->weights).data, 64),
            0);
}

TEST(OmFileTest, DeterministicBytes) {
  auto a = SaveOm(*Build(SmallGraph()));
  auto b = SaveOm(*Build(SmallGraph()));
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
  auto c = SaveOm(*Build(SmallGraph("small", 7.0f)));
  ASSERT_TRUE(c.ok());
  EXPECT_NE(*a, *c);
}

TEST(OmFileTest, FileIsBarelyLargerThanTheWeights) {
  GraphMaker g("big");
  NodePtr x = g.Data("x", 0, {1024, 256});
  std::vector<float> v(1024 * 256);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 977);
  NodePtr w = g.ConstF32("w", {1024, 256}, v);
  g.NetOutput({{g.Binary("add", "Add", x, w), 0}});
  GeRootModelPtr model = Build(g.graph());
  auto om = SaveOm(*model);
  ASSERT_TRUE(om.ok());
  const double weights = static_cast<double>(v.size() * sizeof(float));
  EXPECT_LE(static_cast<double>(om->size()), weights * 1.02) << om->size();
}

TEST(OmFileTest, SeveralModels) {
  GeRootModelPtr model = Build(SmallGraph("root"));
  model->submodels["sub_a"] = Build(SmallGraph("a", 2.0f))->root;
  model->submodels["sub_b"] = Build(SmallGraph("b", 3.0f))->root;
  auto om = SaveOm(*model);
  ASSERT_TRUE(om.ok()) << om.status();
  auto buf = Aligned(*om);
  auto loaded = LoadGeRootModelFromOm(absl::Span<const uint8_t>(buf->data(), buf->size()), buf);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ((*loaded)->root->name, "root");
  ASSERT_EQ((*loaded)->submodels.size(), 2u);
  const GeModel& b = *(*loaded)->submodels.at("sub_b");
  EXPECT_EQ(b.graph->GetName(), "b");
  float w0;
  std::memcpy(&w0, b.weights.data, 4);
  EXPECT_EQ(w0, 3.0f);
  auto view = ParseOmFile(AsBytes(*om));
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(view->header.model_count, 3u);
  for (const OmModelView& m : view->models) EXPECT_EQ(m.partitions[1].offset % kOmWeightsAlign, 0u);
}

TEST(OmFileTest, DynamicModelFlag) {
  GraphMaker g("dyn");
  NodePtr x = g.Data("x", 0, {-1});
  g.NetOutput({{g.Unary("r", "Relu", x), 0}});
  auto om = SaveOm(*Build(g.graph()));
  ASSERT_TRUE(om.ok());
  auto view = ParseOmFile(AsBytes(*om));
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_EQ(view->header.is_unknown_model, 1);
  EXPECT_EQ(view->header.model_type, 1u);
  EXPECT_TRUE(view->models[0].task_def.dynamic());
}

TEST(OmFileTest, HeaderErrorsNameTheField) {
  auto om = SaveOm(*Build(SmallGraph()));
  ASSERT_TRUE(om.ok());
  auto expect = [](std::string bytes, const std::string& needle) {
    auto r = ParseOmFile(AsBytes(bytes));
    ASSERT_FALSE(r.ok()) << needle;
    EXPECT_NE(std::string(r.status().message()).find(needle), std::string::npos) << r.status();
  };
  std::string s = *om;
  s[0] = 'X';
  expect(s, "magic");
  s = *om;
  PutU32(s, 4, 128);
  expect(s, "header size");
  s = *om;
  PutU32(s, 8, 99);
  expect(s, "version 99");
  s = *om;
  PutU64(s, 76, om->size() + 1);
  expect(s, "total length");
  expect(om->substr(0, 100), "shorter than");
  s = *om;
  s[300] ^= 1;
  expect(s, "checksum");
  s = *om;
  PutU32(s, 128, 0x7fffffff);  // model count
  Reseal(s);
  expect(s, "model count");
  s = *om;
  s[200] = 1;  // reserved
  expect(s, "reserved");
}

TEST(OmFileTest, StructureErrors) {
  auto om = SaveOm(*Build(SmallGraph()));
  ASSERT_TRUE(om.ok());
  auto view = ParseOmFile(AsBytes(*om));
  ASSERT_TRUE(view.ok());
  // The first partition entry follows the model record: 256 + 4 + len("small")
  // padded to 8, + 8.
  const size_t table = 256 + 16 + 8;
  ASSERT_EQ(GetU64(*om, table + 8), view->models[0].partitions[0].offset);
  auto expect = [](std::string bytes, const std::string& needle) {
    Reseal(bytes);
    auto r = ParseOmFile(AsBytes(bytes));
    ASSERT_FALSE(r.ok()) << needle;
    EXPECT_NE(std::string(r.status().message()).find(needle), std::string::npos) << r.status();
  };
  std::string s = *om;
  PutU64(s, table + 8, ~uint64_t{0} - 63);  // offset near 2^64
  expect(s, "exceeds the file size");
  s = *om;
  PutU64(s, table + 16, ~uint64_t{0});  // size
  expect(s, "exceeds the file size");
  s = *om;
  PutU32(s, table, 2);  // type order
  expect(s, "must be MODEL_DEF");
  s = *om;
  PutU64(s, table + 24 + 8, GetU64(*om, table + 24 + 8) + 64);  // weights misaligned
  expect(s, "not aligned");
  s = *om;
  PutU32(s, table - 8, 1000);  // partition count
  expect(s, "partitions");
  s = *om;
  PutU32(s, 256, 1u << 30);  // model name length
  expect(s, "name length");
  s = *om;
  s.append(64, '\0');
  PutU64(s, 76, s.size());
  expect(s, "unexpected bytes");
}

TEST(OmFileTest, TaskRefsValidated) {
  struct Case {
    const char* needle;
    void (*mutate)(proto::ModelTaskDef&);
  };
  const Case cases[] = {
      {"ARENA",
       [](proto::ModelTaskDef& d) { d.mutable_task(0)->mutable_output(0)->set_offset(1 << 20); }},
      {"WEIGHTS",
       [](proto::ModelTaskDef& d) { d.mutable_task(0)->mutable_input(1)->set_size(65); }},
      {"model input index",
       [](proto::ModelTaskDef& d) { d.mutable_task(0)->mutable_input(0)->set_index(3); }},
      {"model output index",
       [](proto::ModelTaskDef& d) { d.mutable_task(1)->mutable_output(0)->set_index(9); }},
      {"task_id", [](proto::ModelTaskDef& d) { d.mutable_task(1)->set_task_id(7); }},
      {"memory kind",
       [](proto::ModelTaskDef& d) {
         d.mutable_task(0)->mutable_input(0)->set_kind(static_cast<proto::MemKind>(42));
       }},
      {"task type",
       [](proto::ModelTaskDef& d) {
         d.mutable_task(0)->set_type(static_cast<proto::TaskType>(99));
       }},
      {"stream_id", [](proto::ModelTaskDef& d) { d.mutable_task(0)->set_stream_id(5); }},
      {"MODEL_INPUT",
       [](proto::ModelTaskDef& d) { d.mutable_task(0)->mutable_input(0)->set_offset(8); }},
  };
  for (const Case& c : cases) {
    GeRootModelPtr model = Build(SmallGraph());
    c.mutate(model->root->task_def);
    auto om = SaveOm(*model);
    ASSERT_TRUE(om.ok()) << om.status();
    std::string bytes = *om;
    auto r = ParseOmFile(AsBytes(bytes));
    ASSERT_FALSE(r.ok()) << c.needle;
    EXPECT_NE(std::string(r.status().message()).find(c.needle), std::string::npos) << r.status();
  }
}

TEST(OmFileTest, SaveRejectsBadModels) {
  GeRootModel empty;
  EXPECT_EQ(GetErrorCode(SaveOm(empty).status()), ErrorCode::kParamInvalid);
  GeRootModelPtr model = Build(SmallGraph());
  model->root->task_def.set_weight_size(5);
  EXPECT_EQ(GetErrorCode(SaveOm(*model).status()), ErrorCode::kParamInvalid);
  model = Build(SmallGraph());
  model->submodels["x"] = nullptr;
  EXPECT_EQ(GetErrorCode(SaveOm(*model).status()), ErrorCode::kParamInvalid);
}

// Hostile corpus: every truncation and a bit flip in every byte (checksum
// recomputed so the structure checks are exercised). None may crash; none of
// the truncations may load.
TEST(OmFileTest, HostileCorpusNeverCrashes) {
  GeRootModelPtr model = Build(SmallGraph());
  model->submodels["sub"] = Build(SmallGraph("sub", 2.0f))->root;
  auto om = SaveOm(*model);
  ASSERT_TRUE(om.ok());
  for (size_t len = 0; len < om->size(); len += (len < 512 ? 1 : 61)) {
    std::string s = om->substr(0, len);
    auto buf = Aligned(s);
    EXPECT_FALSE(
        LoadGeRootModelFromOm(absl::Span<const uint8_t>(buf->data(), buf->size()), buf).ok())
        << len;
  }
  int loaded = 0;
  for (size_t pos = 0; pos < om->size(); ++pos) {
    std::string s = *om;
    s[pos] ^= static_cast<char>(1u << (pos % 8));
    if (pos < 12 || pos >= 76) Reseal(s);
    auto buf = Aligned(s);
    auto r = LoadGeRootModelFromOm(absl::Span<const uint8_t>(buf->data(), buf->size()), buf);
    if (r.ok()) ++loaded;
  }
  // Flips inside padding are rejected, flips in names / values may load.
  EXPECT_LT(loaded, static_cast<int>(om->size()) / 2);
  // Random garbage with a valid header prefix.
  std::string garbage = om->substr(0, 256);
  uint32_t x = 12345;
  for (int i = 0; i < 4096; ++i) {
    x = x * 1103515245u + 12345u;
    garbage.push_back(static_cast<char>(x >> 16));
  }
  PutU64(garbage, 76, garbage.size());
  Reseal(garbage);
  EXPECT_FALSE(ParseOmFile(AsBytes(garbage)).ok());
}

TEST(OmFileTest, AtomicWriteAndRead) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = tmp != nullptr ? tmp : "/tmp";
  const std::string path = dir + "/model.om";
  ASSERT_TRUE(WriteFileAtomically(path, "hello").ok());
  auto r = ReadFileToString(path);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(*r, "hello");
  ASSERT_TRUE(WriteFileAtomically(path, "second").ok());
  EXPECT_EQ(*ReadFileToString(path), "second");
  EXPECT_EQ(GetErrorCode(ReadFileToString(path, 3).status()), ErrorCode::kOutOfRange);
  EXPECT_EQ(GetErrorCode(ReadFileToString(dir + "/missing.om").status()), ErrorCode::kNotFound);
  const std::string bad = dir + "/no_such_dir/m.om";
  EXPECT_FALSE(WriteFileAtomically(bad, "x").ok());
  struct stat st;
  EXPECT_NE(::stat(bad.c_str(), &st), 0);
  // No temp file is left behind after a failed rename (target is a directory).
  const std::string target_dir = dir + "/is_a_dir";
  ASSERT_EQ(::mkdir(target_dir.c_str(), 0755), 0);
  EXPECT_FALSE(WriteFileAtomically(target_dir, "x").ok());
  EXPECT_NE(::stat(absl::StrCat(target_dir, ".tmp.", ::getpid()).c_str(), &st), 0);
}

std::string TempDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return tmp != nullptr ? tmp : "/tmp";
}

// Constants of several sizes (3 MB: chunked; 100 KB: direct; small: staged),
// duplicates, an empty one, and same-size constants whose sampled bytes agree
// but whose middles differ.
ComputeGraphPtr ManyConstsGraph() {
  GraphMaker g("many");
  NodePtr x = g.Data("x", 0, {16});
  NodePtr acc = x;
  auto add_const = [&](const std::string& name, size_t n, float seed) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = seed + static_cast<float>(i % 101);
    NodePtr c = g.ConstF32(name, {static_cast<int64_t>(n)}, v);
    acc = g.Binary(name + "_use", "Add", acc, c);
  };
  add_const("big", 3 * 1024 * 1024 / 4 + 16, 1.0f);
  add_const("big_dup", 3 * 1024 * 1024 / 4 + 16, 1.0f);
  add_const("mid", 25000, 2.0f);
  add_const("small", 16, 3.0f);
  add_const("small_dup", 16, 3.0f);
  // Same size as "twin_a", equal start / middle sample / end, different bytes.
  std::vector<float> a(4096, 1.0f), b(4096, 1.0f);
  b[100] = 5.0f;
  acc = g.Binary("ta_use", "Add", acc, g.ConstF32("twin_a", {4096}, a));
  acc = g.Binary("tb_use", "Add", acc, g.ConstF32("twin_b", {4096}, b));
  g.NetOutput({{acc, 0}});
  return g.graph();
}

TEST(OmFileTest, SaveOmToFileStreamsTheSameBytes) {
  GeRootModelPtr model = Build(ManyConstsGraph());
  ASSERT_NE(model, nullptr);
  const GeModel& m = *model->root;
  EXPECT_EQ(m.weights.data, nullptr);  // pieces: the constants in place
  // big, mid, small, twin_a, twin_b (duplicates stored once).
  EXPECT_EQ(m.weights.pieces.size(), 5u);
  auto om = SaveOm(*model);
  ASSERT_TRUE(om.ok()) << om.status();
  const std::string path = TempDir() + "/streamed.om";
  OmSaveTimes times;
  OmSaveOptions opts;
  opts.times = &times;
  auto size = SaveOmToFile(*model, path, opts);
  ASSERT_TRUE(size.ok()) << size.status();
  EXPECT_EQ(*size, om->size());
  EXPECT_GT(times.serialize_ms, 0.0);
  EXPECT_GT(times.write_ms, 0.0);
  auto file = ReadFileToString(path);
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE(*file == *om) << "streamed file differs from SaveOm";
  struct stat st;
  EXPECT_NE(::stat(absl::StrCat(path, ".tmp.", ::getpid()).c_str(), &st), 0);
  // The loaded weights hold each constant at its offset.
  auto buf = Aligned(*file);
  auto loaded = LoadGeRootModelFromOm(absl::Span<const uint8_t>(buf->data(), buf->size()), buf);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  const WeightBuffer& w = (*loaded)->root->weights;
  for (const WeightPiece& p : m.weights.pieces) {
    ASSERT_LE(p.offset + p.size, w.size);
    EXPECT_EQ(std::memcmp(w.data + p.offset, p.data, p.size), 0) << p.offset;
  }
  // Restored constants equal the originals.
  GeModel copy = *(*loaded)->root;
  ASSERT_TRUE(RestoreConstValues(copy).ok());
  const GeTensor* tb =
      copy.graph->FindNode("twin_b")->GetOpDesc()->GetAttr("value")->Get<GeTensor>();
  ASSERT_NE(tb, nullptr);
  float v100 = 0;
  std::memcpy(&v100, tb->GetData().data() + 400, 4);
  EXPECT_EQ(v100, 5.0f);
  EXPECT_TRUE(tb->GetBuffer()->is_view());  // shares the file bytes, no copy
}

// A constant viewing unaligned bytes of a model file (AlignedBuffer::FileView)
// goes through the build without its aligned copy being made: its piece
// holds the bytes and names the file range; readers of the built weights
// (WeightBuffer::Find) get aligned bytes.
TEST(OmFileTest, BuildKeepsFileBackedConstantsUncopied) {
  ComputeGraphPtr graph = ManyConstsGraph();
  NodePtr big = graph->FindNode("big");
  ASSERT_NE(big, nullptr);
  GeTensor value = *big->GetOpDescBarePtr()->GetAttr("value")->Get<GeTensor>();
  std::shared_ptr<AlignedBuffer> view =
      testing::UnalignedFileView(value.GetData(), 3, FileExtent{42, 4099});
  const uint8_t* odd = view->bytes().data();
  value.SetData(view);
  ASSERT_TRUE(
      big->GetOpDescBarePtr()->SetAttr("value", AttrValue::CreateFrom<GeTensor>(value)).ok());
  value = GeTensor();
  GeRootModelPtr model = Build(graph);
  ASSERT_NE(model, nullptr);
  EXPECT_FALSE(view->has_copy());
  const WeightPiece* piece = nullptr;
  for (const WeightPiece& p : model->root->weights.pieces) {
    if (p.data == odd) piece = &p;
  }
  ASSERT_NE(piece, nullptr);
  EXPECT_EQ(piece->file.fd, 42);
  EXPECT_EQ(piece->file.offset, 4099u);
  const uint8_t* found = model->root->weights.Find(piece->offset, piece->size);
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(found) % AlignedBuffer::kMinViewAlignment, 0u);
  EXPECT_EQ(std::memcmp(found, odd, static_cast<size_t>(piece->size)), 0);
  EXPECT_TRUE(view->has_copy());  // made for the reader
}

// Weights that are a file's bytes (FileViews of the model file) are copied
// file to file; where the kernel cannot (here: a pipe) they are written from
// their bytes. Either way the file equals SaveOm's bytes. Writing over an
// existing OM replaces it and leaves no temporary file.
TEST(OmFileTest, SaveOmToFileCopiesFileBackedWeightsFromTheirFile) {
  GeRootModelPtr model = Build(ManyConstsGraph());
  ASSERT_NE(model, nullptr);
  auto om = SaveOm(*model);
  ASSERT_TRUE(om.ok()) << om.status();
  // The source "model file": every piece at an odd offset.
  const std::string source = TempDir() + "/source_weights.bin";
  std::string contents = "x";
  std::vector<uint64_t> offsets;
  for (const WeightPiece& p : model->root->weights.pieces) {
    offsets.push_back(contents.size());
    contents.append(reinterpret_cast<const char*>(p.data), static_cast<size_t>(p.size));
    contents.append("yz");
  }
  ASSERT_TRUE(WriteFileAtomically(source, contents).ok());
  const int fd = ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  int from_file = 0;
  for (size_t i = 0; i < model->root->weights.pieces.size(); ++i) {
    WeightPiece& p = model->root->weights.pieces[i];
    if (p.size >= 3 * 1024 * 1024) {
      p.file = FileExtent{fd, offsets[i]};
      ++from_file;
    } else {
      p.file = FileExtent{pipe_fds[0], 0};  // copy_file_range refuses a pipe
    }
  }
  ASSERT_EQ(from_file, 1);
  const std::string path = TempDir() + "/file_backed.om";
  ASSERT_TRUE(WriteFileAtomically(path, "an older file").ok());
  auto size = SaveOmToFile(*model, path);
  ASSERT_TRUE(size.ok()) << size.status();
  auto file = ReadFileToString(path);
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE(*file == *om) << "file-backed weights differ from SaveOm";
  struct stat st;
  EXPECT_NE(::stat(absl::StrCat(path, ".tmp.", ::getpid()).c_str(), &st), 0);
  ::close(fd);
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
}

// An OM with 8 MiB or more of file-backed weights is checksummed on one
// thread while the other copies it: the same bytes as SaveOm.
TEST(OmFileTest, LargeFileBackedOmIsWrittenAndChecksummedSideBySide) {
  GraphMaker g("large");
  NodePtr x = g.Data("x", 0, {16});
  std::vector<float> v(3 * 1024 * 1024);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 977);
  NodePtr big = g.ConstF32("big", {static_cast<int64_t>(v.size())}, v);
  NodePtr small = g.ConstF32("small", {16}, std::vector<float>(16, 2.0f));
  NodePtr y = g.Binary("y", "Add", x, small);
  g.NetOutput({{y, 0}, {big, 0}});
  GeRootModelPtr model = Build(g.graph());
  ASSERT_NE(model, nullptr);
  auto om = SaveOm(*model);
  ASSERT_TRUE(om.ok()) << om.status();
  ASSERT_GE(om->size(), size_t{8} << 20);
  // The big constant's bytes as a range of a source file.
  const std::string source = TempDir() + "/large_source.bin";
  WeightPiece* piece = nullptr;
  for (WeightPiece& p : model->root->weights.pieces) {
    if (p.size >= (uint64_t{8} << 20)) piece = &p;
  }
  ASSERT_NE(piece, nullptr);
  ASSERT_TRUE(
      WriteFileAtomically(source, "abc" + std::string(reinterpret_cast<const char*>(piece->data),
                                                      static_cast<size_t>(piece->size)))
          .ok());
  const int fd = ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  piece->file = FileExtent{fd, 3};
  const std::string path = TempDir() + "/large.om";
  auto size = SaveOmToFile(*model, path);
  ::close(fd);
  ASSERT_TRUE(size.ok()) << size.status();
  auto file = ReadFileToString(path);
  ASSERT_TRUE(file.ok());
  EXPECT_TRUE(*file == *om) << "large streamed file differs from SaveOm";
}

TEST(OmFileTest, SaveOmToFileFailureLeavesNothing) {
  GeRootModelPtr model = Build(SmallGraph());
  const std::string bad = TempDir() + "/no_such_dir_for_om/m.om";
  auto r = SaveOmToFile(*model, bad);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(std::string(r.status().message()).find("no_such_dir_for_om"), std::string::npos)
      << r.status();
  // Target is a directory: the rename fails, the temp file is removed.
  const std::string target = TempDir() + "/om_target_dir";
  ASSERT_EQ(::mkdir(target.c_str(), 0755), 0);
  EXPECT_FALSE(SaveOmToFile(*model, target).ok());
  struct stat st;
  EXPECT_NE(::stat(absl::StrCat(target, ".tmp.", ::getpid()).c_str(), &st), 0);
  // A bad model fails before any file is created.
  model->root->task_def.set_weight_size(5);
  const std::string path = TempDir() + "/never.om";
  EXPECT_EQ(GetErrorCode(SaveOmToFile(*model, path).status()), ErrorCode::kParamInvalid);
  EXPECT_NE(::stat(path.c_str(), &st), 0);
  // Pieces out of order are rejected.
  model = Build(ManyConstsGraph());
  std::swap(model->root->weights.pieces[0], model->root->weights.pieces[1]);
  EXPECT_EQ(GetErrorCode(SaveOmToFile(*model, path).status()), ErrorCode::kParamInvalid);
  EXPECT_EQ(GetErrorCode(SaveOm(*model).status()), ErrorCode::kParamInvalid);
}

TEST(OmFileTest, OldVersionIsNotSupported) {
  auto om = SaveOm(*Build(SmallGraph()));
  ASSERT_TRUE(om.ok());
  std::string s = *om;
  // Version 1 (SHA-256) and version 2 (XXH3-128 of the body in one piece).
  for (uint32_t version : {1u, 2u}) {
    PutU32(s, 8, version);
    auto r = ParseOmFile(AsBytes(s));
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kNotSupported) << r.status();
    EXPECT_NE(std::string(r.status().message()).find(absl::StrCat("version ", version)),
              std::string::npos)
        << r.status();
  }
}

// The body checksum is XXH3-128 over the chunks' digests: chunks hashed
// apart (any order of work) and the body fed in odd pieces agree with it.
TEST(OmFileTest, ChecksumIsOverFourMiBChunks) {
  std::string body(static_cast<size_t>(kOmChecksumChunkBytes * 2 + 12345), '\0');
  std::mt19937 rng(7);
  for (char& c : body) c = static_cast<char>(rng());
  const absl::Span<const uint8_t> b = AsBytes(body);
  const std::array<uint8_t, 32> whole = OmChecksum(b);
  std::vector<std::array<uint8_t, 16>> digests(3);
  for (size_t k : {2, 0, 1}) {
    OmChecksumChunk chunk;
    const absl::Span<const uint8_t> part =
        b.subspan(k * kOmChecksumChunkBytes, kOmChecksumChunkBytes);
    chunk.Update(part.subspan(0, 1000));
    chunk.Update(part.subspan(1000));
    digests[k] = chunk.Digest();
  }
  EXPECT_EQ(OmChecksumFromChunks(digests), whole);
  OmBodyChecksum pieces;
  pieces.UpdateFile(AsBytes(std::string(kOmHeaderSize, 'h')));  // the header is skipped
  for (size_t at = 0; at < body.size(); at += 777777) pieces.UpdateFile(b.subspan(at, 777777));
  EXPECT_EQ(pieces.Digest(), whole);
  // Not the one-piece hash of version 2, and a flip in any chunk shows.
  std::swap(digests[0], digests[1]);
  EXPECT_NE(OmChecksumFromChunks(digests), whole);
  body[kOmChecksumChunkBytes + 5] ^= 1;
  EXPECT_NE(OmChecksum(AsBytes(body)), whole);
}

TEST(OmFileTest, ChecksumCoversEveryByteAndUnusedBytesMustBeZero) {
  auto om = SaveOm(*Build(ManyConstsGraph()));
  ASSERT_TRUE(om.ok());
  for (size_t pos = kOmHeaderSize; pos < om->size(); pos += om->size() / 37 + 1) {
    std::string s = *om;
    s[pos] ^= 0x10;
    auto r = ParseOmFile(AsBytes(s));
    EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kParseFailed) << pos;
    EXPECT_NE(std::string(r.status().message()).find("checksum"), std::string::npos) << r.status();
  }
  std::string s = *om;
  s[12 + kOmChecksumBytes] = 1;
  auto r = ParseOmFile(AsBytes(s));
  EXPECT_NE(std::string(r.status().message()).find("unused checksum byte"), std::string::npos)
      << r.status();
  // XXH3-128 known answer: the empty input.
  const std::array<uint8_t, 32> e = OmChecksum({});
  const uint8_t expected[16] = {0x99, 0xaa, 0x06, 0xd3, 0x01, 0x47, 0x98, 0xd8,
                                0x60, 0x01, 0xc3, 0x24, 0x46, 0x8d, 0x49, 0x7f};
  EXPECT_EQ(std::memcmp(e.data(), expected, 16), 0);
  for (size_t i = 16; i < 32; ++i) EXPECT_EQ(e[i], 0);
}

// A file large enough for the loader's helper threads: the checksum (>= 4 MiB
// file) and the TASK_INFO parse (>= 256 KiB) run beside the MODEL_DEF decode.
// Errors keep their sequential priority: checksum, then TASK_INFO.
ComputeGraphPtr LargeChainGraph() {
  GraphMaker g("large");
  NodePtr x = g.Data("x", 0, {1024, 1024});
  std::vector<float> v(1024 * 1024, 0.5f);
  NodePtr cur = g.Binary("add", "Add", x, g.ConstF32("w", {1024, 1024}, v));
  for (int i = 0; i < 4000; ++i) cur = g.Unary(absl::StrCat("relu_", i), "Relu", cur);
  g.NetOutput({{cur, 0}});
  return g.graph();
}

TEST(OmFileTest, LargeFileLoadsWithHelperThreadsAndKeepsErrorOrder) {
  GeRootModelPtr model = Build(LargeChainGraph());
  ASSERT_NE(model, nullptr);
  auto om = SaveOm(*model);
  ASSERT_TRUE(om.ok()) << om.status();
  ASSERT_GE(om->size(), size_t{4} << 20);
  ASSERT_GE(model->root->task_def.ByteSizeLong(), size_t{256} << 10);

  auto buf = Aligned(*om);
  auto r = LoadGeRootModelFromOm(absl::Span<const uint8_t>(buf->data(), buf->size()), buf);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ((*r)->root->task_def.task_size(), model->root->task_def.task_size());
  EXPECT_EQ((*r)->root->graph->GetDirectNodesSize(), model->root->graph->GetDirectNodesSize());

  // A flipped byte anywhere in the body (graph, weights, tasks): the checksum
  // error, whatever the decoders make of the bytes.
  ExpectFlipsFailChecksum(*om, 11, [](absl::Span<const uint8_t> bytes, auto owner) {
    return LoadGeRootModelFromOm(bytes, owner).status();
  });

  // A sealed file with a bad TASK_INFO: the TASK_INFO error.
  GeRootModelPtr bad_model = Build(LargeChainGraph());
  bad_model->root->task_def.mutable_task(2000)->set_task_id(7);
  auto bad_om = SaveOm(*bad_model);
  ASSERT_TRUE(bad_om.ok()) << bad_om.status();
  auto b = Aligned(*bad_om);
  auto bad = LoadGeRootModelFromOm(absl::Span<const uint8_t>(b->data(), b->size()), b);
  EXPECT_EQ(GetErrorCode(bad.status()), ErrorCode::kParseFailed);
  EXPECT_NE(std::string(bad.status().message()).find("task 2000: task_id 7"), std::string::npos)
      << bad.status();
}

TEST(OmFileTest, Sha256KnownAnswer) {
  auto d = Sha256(AsBytes("abc"));
  const uint8_t expected[4] = {0xba, 0x78, 0x16, 0xbf};
  EXPECT_EQ(std::memcmp(d.data(), expected, 4), 0);
  auto e = Sha256({});
  EXPECT_EQ(e[0], 0xe3);
}

}  // namespace
}  // namespace ge

namespace ge {
namespace {

// LoadOmForRuntime vs LoadGeRootModelFromOm on the same bytes: both fail
// with the same status, or both load (the runtime one without a graph for a
// static root).
// Files whose tasks stay TaskDefs (no launch plan): the runtime loader then
// decodes the root's op descs and its outcome equals the full loader's.
OmSaveOptions TaskDefForm() {
  OmSaveOptions o;
  o.launch_plan = false;
  return o;
}

void ExpectSameOutcome(const std::string& bytes, const std::string& what) {
  auto buf = Aligned(bytes);
  const absl::Span<const uint8_t> span(buf->data(), buf->size());
  StatusOr<GeRootModelPtr> full = LoadGeRootModelFromOm(span, buf);
  StatusOr<OmRuntimeModel> light = LoadOmForRuntime(span, buf);
  ASSERT_EQ(full.ok(), light.ok())
      << what << ": full " << full.status() << " / runtime " << light.status();
  if (!full.ok()) {
    EXPECT_EQ(GetErrorCode(full.status()), GetErrorCode(light.status())) << what;
    EXPECT_EQ(full.status().message(), light.status().message()) << what;
  }
}

TEST(OmRuntimeLoadTest, StaticRootWithoutAGraph) {
  GeRootModelPtr model = Build(SmallGraph());
  ASSERT_NE(model, nullptr);
  auto om = SaveOm(*model, TaskDefForm());
  ASSERT_TRUE(om.ok()) << om.status();
  auto buf = Aligned(*om);
  const absl::Span<const uint8_t> span(buf->data(), buf->size());
  auto full = LoadGeRootModelFromOm(span, buf);
  ASSERT_TRUE(full.ok()) << full.status();
  auto rt = LoadOmForRuntime(span, buf);
  ASSERT_TRUE(rt.ok()) << rt.status();
  EXPECT_FALSE(rt->dynamic);
  EXPECT_EQ(rt->root, nullptr);  // no GeRootModel, no ComputeGraph
  EXPECT_EQ(rt->name, "small");
  ASSERT_NE(rt->task_def, nullptr);
  ASSERT_NE(rt->arena, nullptr);
  EXPECT_EQ(rt->task_def->GetArena(), rt->arena.get());
  // The tasks stay bytes; the rest of the TASK_INFO is parsed.
  const proto::ModelTaskDef& full_td = (*full)->root->task_def;
  EXPECT_EQ(rt->task_def->task_size(), 0);
  ASSERT_EQ(rt->task_bytes.size(), static_cast<size_t>(full_td.task_size()));
  for (size_t t = 0; t < rt->task_bytes.size(); ++t) {
    proto::TaskDef task;
    ASSERT_TRUE(
        task.ParseFromArray(rt->task_bytes[t].data(), static_cast<int>(rt->task_bytes[t].size())));
    EXPECT_EQ(task.SerializeAsString(), full_td.task(static_cast<int>(t)).SerializeAsString()) << t;
  }
  proto::ModelTaskDef no_tasks = full_td;
  no_tasks.clear_task();
  EXPECT_EQ(rt->task_def->SerializeAsString(), no_tasks.SerializeAsString());
  // The op descs are the root graph's, in node order.
  const ComputeGraphPtr& g = (*full)->root->graph;
  EXPECT_EQ(rt->graph_name, g->GetName());
  ASSERT_EQ(rt->ops.size(), g->GetDirectNodesSize());
  size_t i = 0;
  for (const Node* n : g->GetDirectNodePtr()) {
    const OpDesc& op = *n->GetOpDescBarePtr();
    EXPECT_EQ(rt->ops[i]->GetName(), op.GetName());
    EXPECT_EQ(rt->ops[i]->GetType(), op.GetType());
    EXPECT_EQ(rt->ops[i]->GetId(), op.GetId());
    ++i;
  }
  // Weights in place, the MODEL_DEF span for a later full decode.
  EXPECT_EQ(rt->weights.data, (*full)->root->weights.data);
  EXPECT_EQ(rt->weights.size, 64u);
  auto view = ParseOmFile(span);
  ASSERT_TRUE(view.ok());
  EXPECT_EQ(rt->model_def.data(), view->models[0].model_def.data());
  auto again = ModelSerialize::DeserializeModel(
      absl::string_view(reinterpret_cast<const char*>(rt->model_def.data()), rt->model_def.size()));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ((*again)->GetDirectNodesSize(), rt->ops.size());
}

// dyn: y = Relu(x), x of unknown length.
ComputeGraphPtr DynamicReluGraph() {
  GraphMaker g("dyn");
  NodePtr x = g.Data("x", 0, {-1});
  g.NetOutput({{g.Unary("r", "Relu", x), 0}});
  return g.graph();
}

TEST(OmRuntimeLoadTest, DynamicRootIsFullyDecoded) {
  auto om = SaveOm(*Build(DynamicReluGraph()));
  ASSERT_TRUE(om.ok());
  auto buf = Aligned(*om);
  auto rt = LoadAligned(buf);
  ASSERT_TRUE(rt.ok()) << rt.status();
  EXPECT_TRUE(rt->dynamic);
  ASSERT_NE(rt->root, nullptr);
  ASSERT_NE(rt->root->root->graph, nullptr);
  EXPECT_EQ(rt->root->root->graph->GetName(), "dyn");
  EXPECT_TRUE(rt->root->root->task_def.dynamic());
  EXPECT_TRUE(rt->ops.empty());
  EXPECT_EQ(rt->plan, nullptr);  // a dynamic model never gets a launch plan
}

TEST(OmRuntimeLoadTest, SubmodelsOfAStaticRootAreCheckedNotKept) {
  GeRootModelPtr model = Build(SmallGraph("root"));
  model->submodels["sub_a"] = Build(SmallGraph("a", 2.0f))->root;
  auto om = SaveOm(*model, TaskDefForm());
  ASSERT_TRUE(om.ok()) << om.status();
  auto buf = Aligned(*om);
  auto rt = LoadAligned(buf);
  ASSERT_TRUE(rt.ok()) << rt.status();
  EXPECT_EQ(rt->name, "root");
  EXPECT_EQ(rt->ops.size(), 5u);
  // Two submodels of one name: the same error as the full loader.
  GeRootModelPtr twice = Build(SmallGraph("root"));
  twice->submodels["s"] = Build(SmallGraph("a"))->root;
  auto om2 = SaveOm(*twice, TaskDefForm());
  ASSERT_TRUE(om2.ok());
  ExpectSameOutcome(*om2, "valid two models");
}

// The hostile corpus of an OM file: truncations on a grid, then every
// single-bit flip (checksum resealed unless the flip is in the checksum
// field itself). `check` returns whether the runtime loader accepted the
// bytes; the count of rejected flips is returned.
int ForEachHostileVariant(
    const std::string& om,
    const std::function<bool(const std::string&, const std::string&)>& check) {
  for (size_t len = 0; len < om.size(); len += (len < 512 ? 7 : 61)) {
    check(om.substr(0, len), absl::StrCat("length ", len));
  }
  int rejected = 0;
  for (size_t pos = 0; pos < om.size(); ++pos) {
    std::string s = om;
    s[pos] ^= static_cast<char>(1u << (pos % 8));
    if (pos < 12 || pos >= 76) Reseal(s);
    rejected += check(s, absl::StrCat("flip at ", pos)) ? 0 : 1;
  }
  return rejected;
}

TEST(OmRuntimeLoadTest, HostileBytesGiveTheSameStatusAsTheFullLoader) {
  GeRootModelPtr model = Build(SmallGraph());
  model->submodels["sub"] = Build(SmallGraph("sub", 2.0f))->root;
  auto om = SaveOm(*model, TaskDefForm());
  ASSERT_TRUE(om.ok());
  const int rejected =
      ForEachHostileVariant(*om, [](const std::string& s, const std::string& what) {
        ExpectSameOutcome(s, what);
        auto buf = Aligned(s);
        return LoadAligned(buf).ok();
      });
  EXPECT_GT(rejected, static_cast<int>(om->size()) / 2);
  // A task naming an op beyond the MODEL_DEF: the op_index error.
  GeRootModelPtr bad = Build(SmallGraph());
  bad->root->task_def.mutable_task(0)->set_op_index(99);
  auto bad_om = SaveOm(*bad, TaskDefForm());
  ASSERT_TRUE(bad_om.ok());
  auto b = Aligned(*bad_om);
  auto r = LoadAligned(b);
  EXPECT_EQ(GetErrorCode(r.status()), ErrorCode::kOutOfRange) << r.status();
  EXPECT_NE(std::string(r.status().message()).find("op_index 99 but MODEL_DEF has 5 ops"),
            std::string::npos)
      << r.status();
  ExpectSameOutcome(*bad_om, "op_index 99");
}

TEST(OmRuntimeLoadTest, LargeFileUsesHelperThreadsAndKeepsErrorOrder) {
  GeRootModelPtr model = Build(LargeChainGraph());
  ASSERT_NE(model, nullptr);
  auto om = SaveOm(*model, TaskDefForm());
  ASSERT_TRUE(om.ok()) << om.status();
  auto buf = Aligned(*om);
  auto rt = LoadAligned(buf);
  ASSERT_TRUE(rt.ok()) << rt.status();
  EXPECT_EQ(rt->task_bytes.size(), static_cast<size_t>(model->root->task_def.task_size()));
  EXPECT_EQ(rt->ops.size(), model->root->graph->GetDirectNodesSize());
  ExpectFlipsFailChecksum(*om, 7, [](absl::Span<const uint8_t> bytes, auto owner) {
    return LoadOmForRuntime(bytes, owner).status();
  });
  GeRootModelPtr bad_model = Build(LargeChainGraph());
  bad_model->root->task_def.mutable_task(2000)->set_task_id(7);
  auto bad_om = SaveOm(*bad_model, TaskDefForm());
  ASSERT_TRUE(bad_om.ok()) << bad_om.status();
  ExpectSameOutcome(*bad_om, "task_id 7");
}

}  // namespace
}  // namespace ge

namespace ge {
namespace {

// The default form: a static model's tasks as a launch plan. The runtime
// loader keeps the plan (no TaskDefs, no MODEL_DEF decode); the full loader
// and ParseOmFile expand it to exactly the TaskDefs of the TaskDef form.
TEST(OmLaunchPlanTest, PlanFileLoadsBothWays) {
  GeRootModelPtr model = Build(SmallGraph());
  ASSERT_NE(model, nullptr);
  auto planned = SaveOm(*model);
  auto plain = SaveOm(*model, TaskDefForm());
  ASSERT_TRUE(planned.ok() && plain.ok());
  EXPECT_NE(*planned, *plain);
  auto pbuf = Aligned(*planned);
  auto qbuf = Aligned(*plain);
  const absl::Span<const uint8_t> pspan(pbuf->data(), pbuf->size());
  const absl::Span<const uint8_t> qspan(qbuf->data(), qbuf->size());
  auto pfull = LoadGeRootModelFromOm(pspan, pbuf);
  auto qfull = LoadGeRootModelFromOm(qspan, qbuf);
  ASSERT_TRUE(pfull.ok()) << pfull.status();
  ASSERT_TRUE(qfull.ok()) << qfull.status();
  EXPECT_EQ((*pfull)->root->task_def.SerializeAsString(),
            (*qfull)->root->task_def.SerializeAsString());
  EXPECT_EQ((*pfull)->root->task_def.SerializeAsString(),
            model->root->task_def.SerializeAsString());
  EXPECT_FALSE((*pfull)->root->task_def.has_plan());
  auto view = ParseOmFile(pspan);
  ASSERT_TRUE(view.ok()) << view.status();
  EXPECT_EQ(view->models[0].task_def.task_size(), model->root->task_def.task_size());

  auto rt = LoadOmForRuntime(pspan, pbuf);
  ASSERT_TRUE(rt.ok()) << rt.status();
  ASSERT_NE(rt->plan, nullptr);
  EXPECT_TRUE(rt->task_bytes.empty());
  EXPECT_TRUE(rt->ops.empty());  // MODEL_DEF not decoded
  EXPECT_EQ(rt->task_def->task_size(), 0);
  EXPECT_EQ(rt->plan->num_tasks(), static_cast<size_t>(model->root->task_def.task_size()));
  EXPECT_EQ(rt->plan_ops.size(), rt->plan->num_ops());
  EXPECT_EQ(rt->graph_name, "small");
  EXPECT_EQ(rt->weights.data, (*pfull)->root->weights.data);
}

// Hostile plan files (every single-bit flip, checksum resealed; every
// truncation): never a crash; the runtime loader rejects a subset of what
// the full loader rejects, with the same status, and what it accepts that
// the full loader rejects is a MODEL_DEF defect (or an op_index checked
// against MODEL_DEF): the runtime reads nothing of MODEL_DEF.
TEST(OmLaunchPlanTest, HostilePlanFiles) {
  GeRootModelPtr model = Build(SmallGraph());
  model->submodels["sub"] = Build(SmallGraph("sub", 2.0f))->root;
  auto om = SaveOm(*model);
  ASSERT_TRUE(om.ok());
  auto check = [](const std::string& bytes, const std::string& what) -> bool {
    auto buf = Aligned(bytes);
    const absl::Span<const uint8_t> span(buf->data(), buf->size());
    StatusOr<GeRootModelPtr> full = LoadGeRootModelFromOm(span, buf);
    StatusOr<OmRuntimeModel> light = LoadOmForRuntime(span, buf);
    if (!light.ok()) {
      EXPECT_FALSE(full.ok()) << what << ": runtime " << light.status();
      if (full.ok()) return false;
      EXPECT_EQ(GetErrorCode(full.status()), GetErrorCode(light.status())) << what;
      EXPECT_EQ(std::string(full.status().message()), std::string(light.status().message()))
          << what;
    } else if (!full.ok()) {
      const std::string m(full.status().message());
      EXPECT_TRUE(m.find("MODEL_DEF") != std::string::npos) << what << ": " << m;
    }
    return light.ok();
  };
  EXPECT_GT(ForEachHostileVariant(*om, check), static_cast<int>(om->size()) / 3);
}

TEST(OmRuntimeLoadTest, UnusualTopLevelFieldsAreParsedWhole) {
  // An unknown varint field next to the tasks: split, kept with the rest.
  {
    GeRootModelPtr model = Build(SmallGraph());
    model->root->task_def.GetReflection()
        ->MutableUnknownFields(&model->root->task_def)
        ->AddVarint(99, 7);
    auto om = SaveOm(*model, TaskDefForm());
    ASSERT_TRUE(om.ok()) << om.status();
    auto buf = Aligned(*om);
    auto rt = LoadAligned(buf);
    ASSERT_TRUE(rt.ok()) << rt.status();
    EXPECT_EQ(rt->task_bytes.size(), 3u);
    EXPECT_EQ(rt->task_def->task_size(), 0);
    ExpectSameOutcome(*om, "unknown varint");
  }
  // An unknown group: the whole message goes to the protobuf parser.
  {
    GeRootModelPtr model = Build(SmallGraph());
    model->root->task_def.GetReflection()
        ->MutableUnknownFields(&model->root->task_def)
        ->AddGroup(98);
    auto om = SaveOm(*model, TaskDefForm());
    ASSERT_TRUE(om.ok()) << om.status();
    auto buf = Aligned(*om);
    auto rt = LoadAligned(buf);
    ASSERT_TRUE(rt.ok()) << rt.status();
    EXPECT_TRUE(rt->task_bytes.empty());
    EXPECT_EQ(rt->task_def->task_size(), 3);
    ExpectSameOutcome(*om, "unknown group");
  }
  // A task entry that is not length-delimited: invalid either way.
  {
    GeRootModelPtr model = Build(SmallGraph());
    model->root->task_def.GetReflection()
        ->MutableUnknownFields(&model->root->task_def)
        ->AddVarint(1, 5);
    auto om = SaveOm(*model, TaskDefForm());
    ASSERT_TRUE(om.ok()) << om.status();
    ExpectSameOutcome(*om, "varint task");
  }
}

}  // namespace
}  // namespace ge

namespace ge {
namespace {

TEST(OmBodyChecksumTest, PiecewiseEqualsWholeAndTheLoaderUsesIt) {
  GeRootModelPtr model = Build(SmallGraph());
  auto om = SaveOm(*model, TaskDefForm());
  ASSERT_TRUE(om.ok());
  const std::array<uint8_t, 32> whole =
      OmChecksum(AsBytes(absl::string_view(*om).substr(kOmHeaderSize)));
  for (size_t piece : {size_t{1}, size_t{7}, size_t{100}, size_t{256}, size_t{300}, om->size()}) {
    OmBodyChecksum sum;
    for (size_t at = 0; at < om->size(); at += piece) {
      sum.UpdateFile(AsBytes(absl::string_view(*om).substr(at, piece)));
    }
    EXPECT_EQ(sum.Digest(), whole) << piece;
  }
  // The loader compares a given checksum instead of hashing.
  auto buf = Aligned(*om);
  const absl::Span<const uint8_t> span(buf->data(), buf->size());
  OmLoadOptions opts;
  opts.body_checksum = &whole;
  EXPECT_TRUE(LoadOmForRuntime(span, buf, opts).ok());
  std::array<uint8_t, 32> wrong = whole;
  wrong[0] ^= 1;
  opts.body_checksum = &wrong;
  auto bad = LoadOmForRuntime(span, buf, opts);
  EXPECT_EQ(GetErrorCode(bad.status()), ErrorCode::kParseFailed) << bad.status();
  EXPECT_NE(std::string(bad.status().message()).find("checksum mismatch"), std::string::npos);
  // Large files (the checksum otherwise on a helper thread) too.
  GeRootModelPtr large = Build(LargeChainGraph());
  auto large_om = SaveOm(*large);
  ASSERT_TRUE(large_om.ok());
  auto lbuf = Aligned(*large_om);
  const absl::Span<const uint8_t> lspan(lbuf->data(), lbuf->size());
  const std::array<uint8_t, 32> lsum = OmChecksum(lspan.subspan(kOmHeaderSize));
  opts.body_checksum = &lsum;
  EXPECT_TRUE(LoadOmForRuntime(lspan, lbuf, opts).ok());
  opts.body_checksum = &wrong;
  EXPECT_EQ(GetErrorCode(LoadOmForRuntime(lspan, lbuf, opts).status()), ErrorCode::kParseFailed);
  // A deferred checksum (Model::LoadFromFile computes it beside the load):
  // the loader skips it, VerifyOmBodyChecksum compares it afterwards.
  opts.body_checksum = nullptr;
  opts.defer_checksum = true;
  std::string flipped = *large_om;
  flipped[flipped.size() / 2] ^= 0x20;
  auto fbuf = Aligned(flipped);
  const absl::Span<const uint8_t> fspan(fbuf->data(), fbuf->size());
  EXPECT_TRUE(LoadOmForRuntime(fspan, fbuf, opts).ok());  // not verified here
  const std::array<uint8_t, 32> fsum = OmChecksum(fspan.subspan(kOmHeaderSize));
  Status mismatch = VerifyOmBodyChecksum(fspan, fsum);
  EXPECT_EQ(GetErrorCode(mismatch), ErrorCode::kParseFailed) << mismatch;
  EXPECT_NE(std::string(mismatch.message()).find("checksum mismatch"), std::string::npos);
  EXPECT_TRUE(VerifyOmBodyChecksum(lspan, lsum).ok());
  EXPECT_TRUE(
      VerifyOmBodyChecksum(lspan.subspan(0, 100), wrong).ok());  // no header: structure's job
  opts.defer_checksum = false;
  EXPECT_EQ(GetErrorCode(LoadOmForRuntime(fspan, fbuf, opts).status()), ErrorCode::kParseFailed);
}

}  // namespace
}  // namespace ge
