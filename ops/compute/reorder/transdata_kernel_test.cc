// ops/compute/reorder/transdata_kernel_test.cc
//
// TransData on the compute engine against the host kernel (metadef's
// format transfer: the oracle of the layouts), byte for byte.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "metadef/inc/external/graph/format_transfer.h"
#include "metadef/register/inc/register/kernel_registry.h"
#include "metadef/register/inc/register/op_registry.h"
#include "ops/compute/common/compute_kernel_tester.h"
#include "ops/compute/common/dnnl_common.h"
#include "ops/compute/reorder/layout_kernel_tester.h"

namespace ops {
namespace compute {
namespace {

using testing::LayoutKernelTester;
using testing::RandomTensor;
using Ints = std::vector<int64_t>;

const std::vector<Ints>& Shapes() {
  static const std::vector<Ints> s = {
      {2, 20, 3, 5}, {1, 16, 2, 2}, {1, 1, 1, 1}, {1, 33, 1, 7}, {3, 64, 4, 1}};
  return s;
}

const std::vector<ge::DataType>& Types() {
  static const std::vector<ge::DataType> t = {ge::DT_FLOAT, ge::DT_BF16, ge::DT_INT8, ge::DT_UINT8,
                                              ge::DT_INT32};
  return t;
}

int64_t C0Of(ge::DataType dt) { return *ge::GetCubeC0(dt); }

// NCHW dims in `plain` order.
Ints InOrder(const Ints& nchw, const std::string& plain) {
  if (plain == "NHWC") return {nchw[0], nchw[2], nchw[3], nchw[1]};
  return nchw;
}

TEST(TransDataKernelTest, PlainToNc1hwc0) {
  uint32_t seed = 1;
  for (const std::string plain : {"NCHW", "NHWC"}) {
    for (ge::DataType dt : Types()) {
      for (const Ints& s : Shapes()) {
        LayoutKernelTester t("TransData");
        t.Attr("src_format", plain)
            .Attr("dst_format", std::string("NC1HWC0"))
            .Input(RandomTensor(dt, InOrder(s, plain), seed++, -100, 100));
        EXPECT_TRUE(t.MatchesReference(0, 0))
            << plain << " " << static_cast<int>(dt) << " " << ::testing::PrintToString(s);
      }
    }
  }
}

TEST(TransDataKernelTest, Nc1hwc0ToPlain) {
  uint32_t seed = 100;
  for (const std::string plain : {"NCHW", "NHWC"}) {
    for (ge::DataType dt : Types()) {
      for (const Ints& s : Shapes()) {
        const int64_t c0 = C0Of(dt);
        const Ints physical = {s[0], (s[1] + c0 - 1) / c0, s[2], s[3], c0};
        LayoutKernelTester t("TransData");
        t.Attr("src_format", std::string("NC1HWC0"))
            .Attr("dst_format", plain)
            .Input(RandomTensor(dt, physical, seed++, -100, 100))
            .PresetOutput(0, InOrder(s, plain), dt);
        EXPECT_TRUE(t.MatchesReference(0, 0))
            << plain << " " << static_cast<int>(dt) << " " << ::testing::PrintToString(s);
      }
    }
  }
}

TEST(TransDataKernelTest, SameFormatCopies) {
  LayoutKernelTester t("TransData");
  t.Attr("src_format", std::string("NCHW"))
      .Attr("dst_format", std::string("FORMAT_NCHW"))
      .Input(RandomTensor(ge::DT_FLOAT, {2, 3, 4, 5}, 7));
  EXPECT_TRUE(t.MatchesReference(0, 0));
}

// The compute engine's own convention: the blocked tensor keeps its 4
// logical dims (DescOf's aBcd16b); the buffer is metadef's NC1HWC0 one.
TEST(TransDataKernelTest, LogicalDimsOnTheBlockedSide) {
  const ge::KernelDef* def = ge::FindKernel("TransData", ge::kEngineAiCore);
  ASSERT_NE(def, nullptr);
  for (bool to_blocked : {true, false}) {
    const Ints dims = {2, 20, 3, 5};
    gert::HostTensor plain = RandomTensor(ge::DT_FLOAT, dims, 11);
    ge::TransArgs args;
    args.data = static_cast<const uint8_t*>(plain.tensor().GetAddr());
    args.src_format = ge::FORMAT_NCHW;
    args.dst_format = ge::FORMAT_NC1HWC0;
    args.src_shape = dims;
    args.src_data_type = ge::DT_FLOAT;
    std::vector<uint8_t> blocked;
    ASSERT_TRUE(ge::TransferFormat(args, &blocked).ok());

    ge::StatusOr<ge::OpDescPtr> op = ge::OperatorFactory::CreateOpDesc("t", "TransData");
    ASSERT_TRUE(op.ok());
    ASSERT_TRUE((*op)
                    ->SetAttr("src_format", ge::AttrValue::CreateFrom<std::string>(
                                                to_blocked ? "NCHW" : "NC1HWC0"))
                    .ok());
    ASSERT_TRUE((*op)
                    ->SetAttr("dst_format", ge::AttrValue::CreateFrom<std::string>(
                                                to_blocked ? "NC1HWC0" : "NCHW"))
                    .ok());
    const gert::Shape shape = *gert::Shape::FromDims(dims);
    std::vector<uint8_t> out(to_blocked ? blocked.size() : plain.tensor().GetSize(), 0xff);
    gert::Tensor blocked_t(shape, ge::DT_FLOAT, blocked.data(), blocked.size(), ge::FORMAT_NC1HWC0);
    gert::Tensor x = to_blocked ? plain.tensor() : blocked_t;
    gert::Tensor y(shape, ge::DT_FLOAT, out.data(), out.size(),
                   to_blocked ? ge::FORMAT_NC1HWC0 : ge::FORMAT_NCHW);
    gert::Tensor x_fact = x, y_fact = y;
    x_fact.SetData(nullptr, 0);
    y_fact.SetData(nullptr, 0);
    std::unique_ptr<ge::OpKernel> k = def->NewKernel();
    gert::TilingContextBuilder tb;
    gert::TilingContext* tctx =
        tb.Node("t", "TransData").Attrs(op->get()).Inputs({&x_fact}).Outputs({&y_fact}).Build();
    ASSERT_TRUE(k->Prepare(*tctx).ok());
    ASSERT_TRUE(tctx->GetWorkspaceSizes().empty());
    gert::KernelRunContextBuilder rb;
    rb.Node("t", "TransData").Attrs(op->get()).Inputs({&x}).Outputs({&y});
    ge::Status st = k->Run(*rb.Build());
    ASSERT_TRUE(st.ok()) << st;
    const uint8_t* want =
        to_blocked ? blocked.data() : static_cast<const uint8_t*>(plain.tensor().GetAddr());
    EXPECT_EQ(std::memcmp(out.data(), want, out.size()), 0) << to_blocked;
  }
}

TEST(TransDataKernelTest, Rejections) {
  auto expect = [](const std::string& src, const std::string& dst, ge::DataType dt, Ints dims,
                   const std::string& reason) {
    LayoutKernelTester t("TransData");
    t.Attr("src_format", src).Attr("dst_format", dst).Input(RandomTensor(dt, dims, 1));
    const ge::Status st = t.Supported();
    EXPECT_EQ(ge::GetErrorCode(st), ge::ErrorCode::kNotSupported) << st;
    EXPECT_NE(st.message().find(reason), absl::string_view::npos) << st;
  };
  expect("NCHW", "FRACTAL_Z", ge::DT_FLOAT, {16, 16, 1, 1}, "not a oneDNN reorder");
  expect("NCDHW", "NDC1HWC0", ge::DT_FLOAT, {1, 16, 2, 2, 2}, "not a oneDNN reorder");
  expect("NCHW", "NC1HWC0", ge::DT_INT64, {1, 16, 2, 2}, "data type");
}

TEST(TransDataKernelTest, LogicalDimsChannelsFirstAndLast) {
  uint32_t seed = 900;
  struct Case {
    Ints dims;
    const char* from;
    const char* to;
  };
  for (const Case& c : std::vector<Case>{{{2, 3, 4, 5}, "NCHW", "NHWC"},
                                         {{1, 17, 3, 1}, "NHWC", "NCHW"},
                                         {{2, 3, 2, 4, 5}, "NCDHW", "NDHWC"},
                                         {{1, 4, 2, 3, 2}, "NDHWC", "NCDHW"}}) {
    testing::ComputeKernelTester t("TransData");
    t.Attr("src_format", std::string(c.from))
        .Attr("dst_format", std::string(c.to))
        .Attr("_logical_dims", true)
        .Input(RandomTensor(ge::DT_FLOAT, c.dims, seed++));
    EXPECT_TRUE(t.MatchesReference(0, 0, {1, 2})) << c.from << " -> " << c.to;
  }
  testing::ComputeKernelTester bad("TransData");
  bad.Attr("src_format", std::string("NCHW"))
      .Attr("dst_format", std::string("NHWC"))
      .Attr("_logical_dims", true)
      .Input(RandomTensor(ge::DT_FLOAT, {2, 3, 4}, seed++));
  EXPECT_FALSE(bad.Supported().ok());
}

}  // namespace
}  // namespace compute
}  // namespace ops
