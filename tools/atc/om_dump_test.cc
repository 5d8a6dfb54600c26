// Tests of tools/atc/om_dump.h on an OM converted from the small CNN and on
// damaged bytes.
#include "tools/atc/om_dump.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tools/atc/atc_lib.h"

namespace ge {
namespace atc {
namespace {

using ::testing::HasSubstr;

std::string SmallCnnOm() {
  AtcOptions opts;
  opts.model_path = "tools/models/small_cnn.onnx";
  opts.soc_version = "DumpSoc";
  auto r = ConvertOnnx(opts);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? r->om_bytes : std::string();
}

TEST(OmDumpTest, JsonAndInfo) {
  const std::string om = SmallCnnOm();
  ASSERT_FALSE(om.empty());
  auto json = OmToJson(om);
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_THAT(*json, HasSubstr("\"platform_version\":\"DumpSoc\""));
  EXPECT_THAT(*json, HasSubstr("\"type\":\"MODEL_DEF\""));
  EXPECT_THAT(*json, HasSubstr("\"model_def\":{"));
  EXPECT_THAT(*json, HasSubstr("\"task_info\":{"));
  EXPECT_THAT(*json, HasSubstr("Conv"));
  auto info = OmInfoText(om);
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_THAT(*info, HasSubstr("soc version:      DumpSoc"));
  // 9 kernels and the 2 TransData the compute engine's layout pass adds.
  EXPECT_THAT(*info, HasSubstr("task count:       11"));
  EXPECT_THAT(*info, HasSubstr("input 0:          input DT_FLOAT [1,3,32,32] 12288 bytes"));
  EXPECT_THAT(*info, HasSubstr("partition WEIGHTS_DATA"));
  // The compiler's choices: the conv chain channels-last between its two
  // TransData, on the compute engine.
  EXPECT_THAT(*info, HasSubstr("engines (ops):    AIcoreEngine="));
  EXPECT_THAT(*info, HasSubstr("output layouts:   "));
  EXPECT_THAT(*info, HasSubstr("NHWC="));
  EXPECT_THAT(*info,
              HasSubstr("(TransData, AIcoreEngine): in [NCHW DT_FLOAT] out [NHWC DT_FLOAT]"));
  EXPECT_THAT(*info, HasSubstr("(Conv, AIcoreEngine): in [NHWC DT_FLOAT"));
}

TEST(OmDumpTest, DamagedBytesFailCleanly) {
  const std::string om = SmallCnnOm();
  ASSERT_FALSE(om.empty());
  EXPECT_FALSE(OmToJson("").ok());
  EXPECT_FALSE(OmInfoText("DOMI").ok());
  for (size_t n :
       {size_t{10}, size_t{255}, size_t{256}, size_t{300}, om.size() / 2, om.size() - 1}) {
    EXPECT_FALSE(OmToJson(om.substr(0, n)).ok()) << n;
    EXPECT_FALSE(OmInfoText(om.substr(0, n)).ok()) << n;
  }
  std::string flipped = om;
  flipped[om.size() / 2] ^= 0x5a;  // checksum mismatch
  EXPECT_FALSE(OmInfoText(flipped).ok());
}

TEST(OmDumpTest, OnnxJson) {
  auto bad = OnnxToJson("\xff\xff");
  EXPECT_EQ(GetErrorCode(bad.status()), ErrorCode::kParseFailed);
}

}  // namespace
}  // namespace atc
}  // namespace ge
