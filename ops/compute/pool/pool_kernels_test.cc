// ops/compute/pool/pool_kernels_test.cc
#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/compute/common/compute_kernel_tester.h"
#include "ops/compute/common/dnnl_common.h"
#include "ops/compute/reorder/layout_kernel_tester.h"

namespace ops {
namespace compute {
namespace {

using testing::ComputeKernelTester;
using testing::LayoutKernelTester;
using testing::RandomTensor;
using Ints = std::vector<int64_t>;

// One windowed geometry: input dims and attributes (empty lists are left
// at their defaults).
struct Geo {
  Ints x;
  Ints kernel;
  Ints strides;
  Ints pads;
  Ints dilations;
  std::string auto_pad;
  int64_t ceil_mode;
};

const std::vector<Geo>& Geometries() {
  static const std::vector<Geo> g = {
      {{1, 3, 7, 7}, {3, 3}, {}, {}, {}, "", 0},
      {{2, 4, 9, 9}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}, "", 0},
      {{1, 2, 7, 7}, {2, 2}, {2, 2}, {}, {}, "", 1},            // ceil: one more window
      {{1, 2, 8, 9}, {3, 3}, {2, 2}, {0, 1, 1, 0}, {}, "", 1},  // asymmetric pads
      {{2, 3, 10, 10}, {3, 2}, {3, 2}, {1, 0, 1, 1}, {}, "", 1},
      {{1, 2, 8, 8}, {3, 3}, {2, 2}, {}, {}, "SAME_UPPER", 0},
      {{1, 2, 7, 6}, {2, 3}, {1, 2}, {}, {}, "SAME_LOWER", 0},
      {{1, 2, 9, 8}, {3, 3}, {2, 2}, {}, {}, "VALID", 0},
      {{2, 3, 11}, {3}, {2}, {1, 1}, {}, "", 0},                               // 1-D
      {{2, 3, 12}, {4}, {3}, {0, 2}, {}, "", 1},                               // 1-D ceil
      {{1, 2, 5, 6, 7}, {2, 3, 2}, {2, 1, 2}, {1, 0, 1, 0, 1, 1}, {}, "", 0},  // 3-D
      {{1, 2, 5, 6, 7}, {2, 2, 2}, {2, 2, 2}, {}, {}, "", 1},                  // 3-D ceil
      {{1, 1, 1, 1}, {1, 1}, {}, {}, {}, "", 0},                               // 1 element
      {{3, 5, 13, 11}, {3, 2}, {2, 3}, {}, {}, "", 0},                         // odd sizes
  };
  return g;
}

void SetGeometry(const Geo& g, ComputeKernelTester* t) {
  t->Attr("kernel_shape", g.kernel);
  if (!g.strides.empty()) t->Attr("strides", g.strides);
  if (!g.pads.empty()) t->Attr("pads", g.pads);
  if (!g.dilations.empty()) t->Attr("dilations", g.dilations);
  if (!g.auto_pad.empty()) t->Attr("auto_pad", g.auto_pad);
  if (g.ceil_mode != 0) t->Attr("ceil_mode", g.ceil_mode);
}

TEST(PoolKernelsTest, MaxPoolGeometries) {
  uint32_t seed = 1;
  for (const Geo& g : Geometries()) {
    ComputeKernelTester t("MaxPool");
    SetGeometry(g, &t);
    t.Input(RandomTensor(ge::DT_FLOAT, g.x, seed++));
    EXPECT_TRUE(t.MatchesReference(0, 0, {1, 2})) << ::testing::PrintToString(g.x);
  }
}

TEST(PoolKernelsTest, MaxPoolDilationsAndStorageOrder) {
  const std::vector<Geo> geos = {
      {{1, 2, 9, 9}, {3, 3}, {}, {}, {2, 2}, "", 0},
      {{2, 3, 10, 9}, {3, 2}, {2, 1}, {2, 1, 2, 0}, {2, 3}, "", 0},
      {{1, 2, 11, 10}, {2, 3}, {2, 2}, {1, 1, 0, 1}, {3, 2}, "", 1},
      {{1, 2, 9, 9}, {3, 3}, {2, 2}, {}, {2, 2}, "SAME_UPPER", 0},
      {{2, 2, 13}, {3}, {2}, {2, 2}, {3}, "", 0},
      {{1, 2, 7, 6, 8}, {2, 2, 3}, {1, 2, 2}, {1, 0, 1, 1, 0, 1}, {2, 1, 2}, "", 0},
  };
  uint32_t seed = 50;
  for (const Geo& g : geos) {
    for (int64_t order : {0, 1}) {
      ComputeKernelTester t("MaxPool");
      SetGeometry(g, &t);
      t.Attr("storage_order", order).Input(RandomTensor(ge::DT_FLOAT, g.x, seed++));
      EXPECT_TRUE(t.MatchesReference(0, 0, {1, 2}))
          << ::testing::PrintToString(g.x) << " order " << order;
    }
  }
}

TEST(PoolKernelsTest, MaxPoolInt8) {
  uint32_t seed = 70;
  for (ge::DataType dt : {ge::DT_INT8, ge::DT_UINT8}) {
    for (const Geo& g : Geometries()) {
      ComputeKernelTester t("MaxPool");
      SetGeometry(g, &t);
      t.Input(RandomTensor(dt, g.x, seed++, dt == ge::DT_INT8 ? -128 : 0, 255));
      EXPECT_TRUE(t.MatchesReference(0, 0, {1, 2})) << ::testing::PrintToString(g.x);
    }
  }
}

// BF16 natively where the CPU has it, and through the FLOAT decorator:
// max is exact, averages one BF16 rounding apart.
TEST(PoolKernelsTest, Bf16) {
  uint32_t seed = 80;
  for (bool emulate : {false, true}) {
    for (size_t i = 0; i < 4; ++i) {
      const Geo& g = Geometries()[i];
      for (const char* type : {"MaxPool", "AveragePool"}) {
        for (bool last : {false, true}) {
          ComputeKernelTester t(type);
          SetGeometry(g, &t);
          t.ForceBf16Emulation(emulate).ChannelsLast(last).Input(
              RandomTensor(ge::DT_BF16, g.x, seed++));
          const double tol = std::string(type) == "MaxPool" ? 0 : 1e-2;
          EXPECT_TRUE(t.MatchesReference(tol, tol, {1, 2}))
              << type << " " << ::testing::PrintToString(g.x) << " emulated " << emulate
              << " channels-last " << last;
        }
      }
    }
    for (const char* type : {"GlobalAveragePool", "GlobalMaxPool"}) {
      ComputeKernelTester t(type);
      t.ForceBf16Emulation(emulate).Input(RandomTensor(ge::DT_BF16, {2, 3, 5, 7}, seed++));
      EXPECT_TRUE(t.MatchesReference(1e-2, 1e-2, {1, 2})) << type << " emulated " << emulate;
    }
  }
}

TEST(PoolKernelsTest, AveragePoolGeometries) {
  uint32_t seed = 100;
  for (const Geo& g : Geometries()) {
    for (int64_t cip : {0, 1}) {
      ComputeKernelTester t("AveragePool");
      SetGeometry(g, &t);
      t.Attr("count_include_pad", cip).Input(RandomTensor(ge::DT_FLOAT, g.x, seed++));
      const ge::Status st = t.Supported();
      if (!st.ok()) {
        // Only count_include_pad with a ceil_mode window past the end padding.
        EXPECT_EQ(cip, 1) << st;
        EXPECT_EQ(g.ceil_mode, 1) << st;
        EXPECT_NE(st.message().find("count_include_pad"), absl::string_view::npos) << st;
        continue;
      }
      EXPECT_TRUE(t.MatchesReference(1e-6, 1e-6, {1, 2}))
          << ::testing::PrintToString(g.x) << " cip " << cip;
    }
  }
}

TEST(PoolKernelsTest, GlobalPools) {
  uint32_t seed = 200;
  for (const char* type : {"GlobalAveragePool", "GlobalMaxPool"}) {
    for (const Ints& x : std::vector<Ints>{{2, 3, 5, 7},
                                           {1, 1, 1},
                                           {2, 3, 4, 5, 6},
                                           {1, 2, 2, 3, 2, 2},
                                           {4, 5},
                                           {1, 17, 1, 1},
                                           {3, 2, 33}}) {
      ComputeKernelTester t(type);
      t.Input(RandomTensor(ge::DT_FLOAT, x, seed++));
      EXPECT_TRUE(t.MatchesReference(1e-6, 1e-6, {1, 2})) << type << ::testing::PrintToString(x);
    }
  }
}

// ------------------------------------------------------------ NC1HWC0

void SetGeometry(const Geo& g, LayoutKernelTester* t) {
  t->Attr("kernel_shape", g.kernel);
  if (!g.strides.empty()) t->Attr("strides", g.strides);
  if (!g.pads.empty()) t->Attr("pads", g.pads);
  if (!g.dilations.empty()) t->Attr("dilations", g.dilations);
  if (!g.auto_pad.empty()) t->Attr("auto_pad", g.auto_pad);
  if (g.ceil_mode != 0) t->Attr("ceil_mode", g.ceil_mode);
}

TEST(PoolKernelsTest, Nc1hwc0) {
  const std::vector<Geo> geos = {
      {{2, 20, 7, 7}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}, "", 0},
      {{1, 32, 8, 9}, {3, 3}, {2, 2}, {0, 1, 1, 0}, {}, "", 1},
      {{1, 5, 9, 9}, {3, 3}, {1, 1}, {}, {2, 2}, "SAME_UPPER", 0},
  };
  uint32_t seed = 300;
  for (const Geo& g : geos) {
    {
      LayoutKernelTester t("MaxPool");
      SetGeometry(g, &t);
      t.Input(RandomTensor(ge::DT_FLOAT, g.x, seed++), ge::FORMAT_NC1HWC0)
          .OutputFormat(1, ge::FORMAT_NCHW);  // Indices stay plain
      EXPECT_TRUE(t.MatchesReference(0, 0)) << ::testing::PrintToString(g.x);
    }
    if (g.dilations.empty()) {
      LayoutKernelTester t("AveragePool");
      SetGeometry(g, &t);
      t.Input(RandomTensor(ge::DT_FLOAT, g.x, seed++), ge::FORMAT_NC1HWC0);
      EXPECT_TRUE(t.MatchesReference(1e-6, 1e-6)) << ::testing::PrintToString(g.x);
    }
  }
  for (const char* type : {"GlobalAveragePool", "GlobalMaxPool"}) {
    LayoutKernelTester t(type);
    t.Input(RandomTensor(ge::DT_FLOAT, {2, 20, 5, 3}, seed++), ge::FORMAT_NC1HWC0);
    EXPECT_TRUE(t.MatchesReference(1e-6, 1e-6)) << type;
  }
}

// A MaxPool whose Indices nothing consumes keeps the factory's unset
// output desc (FORMAT_RESERVED, the INT64 type from inference).
TEST(PoolKernelsTest, UnsetIndicesDescIsAccepted) {
  ge::StatusOr<ge::OpDescPtr> op = ge::OperatorFactory::CreateOpDesc("p", "MaxPool");
  ASSERT_TRUE(op.ok());
  ASSERT_TRUE((*op)->SetAttr("kernel_shape", ge::AttrValue::CreateFrom<Ints>({2, 2})).ok());
  *(*op)->MutableInputDesc(0) =
      ge::GeTensorDesc(ge::GeShape({1, 2, 4, 4}), ge::FORMAT_NCHW, ge::DT_FLOAT);
  (*op)->MutableOutputDesc(0)->SetFormat(ge::FORMAT_NCHW);
  ASSERT_TRUE(ge::InferShapeAndTypeForOpDesc(**op).ok());
  (*op)->MutableOutputDesc(1)->SetFormat(ge::FORMAT_RESERVED);
  const ge::Status st = ge::FindKernel("MaxPool", ge::kEngineAiCore)->CheckSupported(**op);
  EXPECT_TRUE(st.ok()) << st;
}

// ------------------------------------------------------------ rejections

void ExpectRejected(ge::Status st, const std::string& reason) {
  EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
  EXPECT_NE(st.message().find(reason), absl::string_view::npos) << st;
}

TEST(PoolKernelsTest, Rejections) {
  {  // the first window lies in the padding
    ComputeKernelTester t("MaxPool");
    t.Attr("kernel_shape", Ints{2, 2})
        .Attr("pads", Ints{2, 0, 0, 0})
        .Input(RandomTensor(ge::DT_FLOAT, {1, 1, 4, 4}, 1));
    ExpectRejected(t.Supported(), "padding only");
  }
  {  // dilated taps that all miss a 1-wide input
    ComputeKernelTester t("MaxPool");
    t.Attr("kernel_shape", Ints{2})
        .Attr("dilations", Ints{3})
        .Attr("pads", Ints{2, 2})
        .Input(RandomTensor(ge::DT_FLOAT, {1, 1, 1}, 1));
    ExpectRejected(t.Supported(), "padding only");
  }
  {
    ComputeKernelTester t("AveragePool");
    t.Attr("kernel_shape", Ints{2, 2})
        .Attr("strides", Ints{2, 2})
        .Attr("ceil_mode", int64_t{1})
        .Attr("count_include_pad", int64_t{1})
        .Input(RandomTensor(ge::DT_FLOAT, {1, 1, 5, 5}, 1));
    ExpectRejected(t.Supported(), "count_include_pad");
  }
  {
    ComputeKernelTester t("MaxPool");
    t.Attr("kernel_shape", Ints{2, 2, 2, 2})
        .Input(RandomTensor(ge::DT_FLOAT, {1, 1, 3, 3, 3, 3}, 1));
    ExpectRejected(t.Supported(), "spatial dims");
  }
  {
    LayoutKernelTester t("MaxPool");
    t.Attr("kernel_shape", Ints{2, 2})
        .Input(RandomTensor(ge::DT_FLOAT, {1, 4, 4, 3}, 1), ge::FORMAT_HWCN);
    ExpectRejected(t.Supported(), "format HWCN");
  }
  {
    LayoutKernelTester t("MaxPool");
    t.Attr("kernel_shape", Ints{2, 2})
        .Input(RandomTensor(ge::DT_FLOAT, {1, 20, 4, 4}, 1), ge::FORMAT_NC1HWC0);
    ExpectRejected(t.Supported(), "Indices");
  }
  {
    LayoutKernelTester t("MaxPool");
    t.Attr("kernel_shape", Ints{2, 2})
        .Input(RandomTensor(ge::DT_INT8, {1, 20, 4, 4}, 1), ge::FORMAT_NC1HWC0)
        .OutputFormat(1, ge::FORMAT_NCHW);
    ExpectRejected(t.Supported(), "NC1HWC0");
  }
  EXPECT_EQ(ge::FindKernel("LpPool", ge::kEngineAiCore), nullptr);
  EXPECT_EQ(ge::FindKernel("MaxUnpool", ge::kEngineAiCore), nullptr);
}

TEST(PoolKernelsTest, ChannelsLast) {
  uint32_t seed = 900;
  for (const Geo& g : Geometries()) {
    if (g.x.size() != 4 && g.x.size() != 5) continue;
    for (const char* type : {"MaxPool", "AveragePool"}) {
      ComputeKernelTester t(type);
      SetGeometry(g, &t);
      t.Input(RandomTensor(ge::DT_FLOAT, g.x, seed++)).ChannelsLast();
      EXPECT_TRUE(t.MatchesReference(1e-6, 1e-6, {1, 2})) << type << ::testing::PrintToString(g.x);
    }
  }
  for (const Ints& x : std::vector<Ints>{{2, 3, 5, 7}, {1, 64, 7, 7}, {2, 3, 4, 5, 6}}) {
    ComputeKernelTester t("GlobalAveragePool");
    t.Input(RandomTensor(ge::DT_FLOAT, x, seed++)).ChannelsLast();
    EXPECT_TRUE(t.MatchesReference(1e-6, 1e-6, {1, 2})) << ::testing::PrintToString(x);
  }
}

}  // namespace
}  // namespace compute
}  // namespace ops
