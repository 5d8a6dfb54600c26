// runtime/api/precision_mode_test.cc
//
// The precision modes end to end (ge.exec.precision_mode, ge.keepDtype):
// ONNX -> GraphManager build -> OM bytes -> Model -> Run. Mixed precision
// puts the convolutions and the chains between them in BF16 with Casts only
// at their edges (weights folded to BF16 constants), runs on the compute
// engine (natively or through the FLOAT decorator, whichever the CPU
// needs) within BF16 tolerance of the FLOAT model, and gives the same OM
// bytes on every compile; keep_dtype and bad options.
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "graph/inc/graph/compute_graph.h"
#include "graph/inc/graph/node.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "runtime/api/model_internal.h"
#include "runtime/manager/graph_manager.h"
#include "runtime/reference/reference_test_util.h"
#include "runtime/testing/runtime_test_util.h"

namespace ge {
namespace {

using reftest::ToF32;
using ::testing::HasSubstr;
using Options = std::map<std::string, std::string>;

struct Built {
  std::string om;
  ComputeGraphPtr graph;
};

StatusOr<Built> Build(const onnx::ModelProto& onnx, const Options& options) {
  GraphManager gm;
  RETURN_IF_ERROR(gm.Initialize({}));
  RETURN_IF_ERROR(gm.AddOnnxGraph(0, OnnxSource::Bytes(onnx.SerializeAsString()), options));
  RETURN_IF_ERROR(gm.BuildGraph(0));
  ASSIGN_OR_RETURN(std::string om, gm.SaveModelToBytes(0));
  ASSIGN_OR_RETURN(ComputeGraphPtr graph, gm.GetCompiledGraph(0));
  return Built{std::move(om), graph};
}

StatusOr<std::vector<std::vector<float>>> RunOm(const std::string& om, int threads) {
  ModelLoadOptions load;
  load.intra_op_threads = threads;
  ASSIGN_OR_RETURN(Model model, Model::LoadFromBytes(om, load));
  std::vector<gert::HostTensor> inputs;
  for (const ModelIoDesc& d : model.inputs()) inputs.push_back(rttest::PatternF32(d.dims, 7));
  ASSIGN_OR_RETURN(std::vector<gert::HostTensor> outs, model.Run(inputs));
  std::vector<std::vector<float>> r;
  for (const gert::HostTensor& t : outs) r.push_back(ToF32(t));
  return r;
}

struct Census {
  int bf16_nodes = 0;    // nodes with a BF16 output
  int bf16_on_host = 0;  // ... left on the host, other than data movement
  int casts = 0;
  int float_softmax = 0;
};

Census Count(const ComputeGraph& g) {
  Census c;
  for (const NodePtr& n : g.GetDirectNode()) {
    const OpDesc* op = n->GetOpDescBarePtr();
    if (n->GetType() == "Cast") ++c.casts;
    const GeTensorDesc* out = op->GetOutputDescBarePtr(0);
    if (out == nullptr) continue;
    if (out->GetDataType() == DT_BF16 && n->GetType() != "Const" && n->GetType() != "Cast") {
      ++c.bf16_nodes;
      const bool moves = n->GetType() == "Flatten" || n->GetType() == "Reshape";
      if (op->GetOpEngineName() != kEngineAiCore && !moves) ++c.bf16_on_host;
    }
    if (n->GetType() == "Softmax" && out->GetDataType() == DT_FLOAT) ++c.float_softmax;
  }
  return c;
}

void ExpectClose(const std::vector<std::vector<float>>& got,
                 const std::vector<std::vector<float>>& want, double tol, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t o = 0; o < want.size(); ++o) {
    ASSERT_EQ(got[o].size(), want[o].size()) << what;
    double scale = 0;
    for (float v : want[o]) scale = std::max(scale, std::fabs(static_cast<double>(v)));
    for (size_t i = 0; i < want[o].size(); ++i) {
      EXPECT_NEAR(got[o][i], want[o][i], tol * (scale + 1e-3))
          << what << " output " << o << " element " << i;
    }
  }
}

TEST(PrecisionModeTest, MixedPrecisionRunsTheConvChainInBf16) {
  const onnx::ModelProto onnx = rttest::SmallCnn(1, 16, 16);
  StatusOr<Built> fp32 = Build(onnx, {});
  ASSERT_TRUE(fp32.ok()) << fp32.status();
  const Census before = Count(*fp32->graph);
  EXPECT_EQ(before.bf16_nodes, 0);
  EXPECT_EQ(before.casts, 0);

  const Options mix = {{"ge.exec.precision_mode", "allow_mix_precision"}};
  StatusOr<Built> bf16 = Build(onnx, mix);
  ASSERT_TRUE(bf16.ok()) << bf16.status();
  const Census after = Count(*bf16->graph);
  EXPECT_GT(after.bf16_nodes, 2);
  EXPECT_EQ(after.bf16_on_host, 0);
  // The weights' Casts were folded: one Cast into BF16 after the input and
  // one back before the first black / FLOAT consumer.
  EXPECT_EQ(after.casts, 2);
  EXPECT_TRUE(bf16->om != fp32->om);

  // Deterministic: the same bytes on a second compile.
  StatusOr<Built> again = Build(onnx, mix);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->om == bf16->om);

  StatusOr<std::vector<std::vector<float>>> want = RunOm(fp32->om, 1);
  ASSERT_TRUE(want.ok()) << want.status();
  for (int threads : {1, 2}) {
    StatusOr<std::vector<std::vector<float>>> got = RunOm(bf16->om, threads);
    ASSERT_TRUE(got.ok()) << got.status();
    ExpectClose(*got, *want, 3e-2, "allow_mix_precision at " + std::to_string(threads));
  }
}

TEST(PrecisionModeTest, ForceFp16AndForceFp32) {
  const onnx::ModelProto onnx = rttest::Mlp();
  StatusOr<Built> fp32 = Build(onnx, {});
  ASSERT_TRUE(fp32.ok()) << fp32.status();
  StatusOr<Built> f16 = Build(onnx, {{"ge.exec.precision_mode", "force_fp16"}});
  ASSERT_TRUE(f16.ok()) << f16.status();
  EXPECT_GT(Count(*f16->graph).bf16_nodes, 0);
  StatusOr<std::vector<std::vector<float>>> want = RunOm(fp32->om, 1);
  StatusOr<std::vector<std::vector<float>>> got = RunOm(f16->om, 1);
  ASSERT_TRUE(want.ok() && got.ok());
  ExpectClose(*got, *want, 5e-2, "force_fp16");
  // A FLOAT model under force_fp32 is the FLOAT model.
  StatusOr<Built> f32 = Build(onnx, {{"ge.exec.precision_mode", "force_fp32"}});
  ASSERT_TRUE(f32.ok()) << f32.status();
  EXPECT_TRUE(f32->om == fp32->om);
}

TEST(PrecisionModeTest, KeepDtypeFileKeepsNodesInFloat) {
  const onnx::ModelProto onnx = rttest::SmallCnn(1, 16, 16);
  const std::string path = ::testing::TempDir() + "/keep_dtype.cfg";
  {
    std::ofstream f(path);
    f << "# every convolution and matrix product in FLOAT\nOpType::Conv\nOpType::Gemm\n";
  }
  StatusOr<Built> kept =
      Build(onnx, {{"ge.exec.precision_mode", "allow_mix_precision"}, {"ge.keepDtype", path}});
  ASSERT_TRUE(kept.ok()) << kept.status();
  // Nothing white is left, so no chain starts: the FLOAT model exactly.
  StatusOr<Built> fp32 = Build(onnx, {});
  ASSERT_TRUE(fp32.ok()) << fp32.status();
  EXPECT_TRUE(kept->om == fp32->om);
  std::remove(path.c_str());
}

TEST(PrecisionModeTest, BadOptionsNameWhatIsWrong) {
  const onnx::ModelProto onnx = rttest::SmallCnn(1, 16, 16);
  StatusOr<Built> bad = Build(onnx, {{"ge.exec.precision_mode", "fp8"}});
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("ge.exec.precision_mode"));
  EXPECT_THAT(std::string(bad.status().message()), HasSubstr("allow_mix_precision"));
  StatusOr<Built> missing = Build(onnx, {{"ge.exec.precision_mode", "allow_mix_precision"},
                                         {"ge.keepDtype", "/nonexistent/keep.cfg"}});
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("/nonexistent/keep.cfg"));
  const std::string path = ::testing::TempDir() + "/keep_unknown.cfg";
  {
    std::ofstream f(path);
    f << "no_such_node\n";
  }
  StatusOr<Built> unknown =
      Build(onnx, {{"ge.exec.precision_mode", "allow_mix_precision"}, {"ge.keepDtype", path}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_THAT(std::string(unknown.status().message()), HasSubstr("no_such_node"));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace ge
