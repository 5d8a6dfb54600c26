// metadef/register/src/ops_proto_manager_test.cc
//
// Loads the plugin libraries of metadef/register/testdata (runfiles) into
// this process. Built twice: linked statically with -rdynamic, and linked
// dynamically against the registry's shared libraries; both must resolve the
// plugins' registry symbols to this process's one registry.
//
// Compiling and running a whole graph that uses a plugin op comes with the
// interpreter (layer 3+); here the op goes through OperatorFactory,
// InferShapeAndTypeForOpDesc and its kernel via KernelRunContextBuilder.
#include "metadef/register/inc/register/ops_proto_manager.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "graph/inc/graph/attr_value.h"
#include "graph/inc/graph/ge_tensor.h"
#include "graph/inc/graph/op_desc.h"
#include "gtest/gtest.h"
#include "metadef/inc/external/base/status.h"
#include "metadef/register/inc/gert/contexts.h"
#include "metadef/register/inc/gert/tensor.h"
#include "metadef/register/inc/register/op_registry.h"

namespace ge {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;

std::string Runfile(const std::string& name) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* ws = std::getenv("TEST_WORKSPACE");
  return absl::StrCat(srcdir == nullptr ? "." : srcdir, "/", ws == nullptr ? "ge" : ws,
                      "/metadef/register/testdata/", name);
}

std::string TmpDir(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string dir = absl::StrCat(tmp == nullptr ? "/tmp" : tmp, "/", name);
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

bool LogContains(absl::string_view needle) {
  for (const std::string& line : OpRegistry::Instance().GetDecisionLog()) {
    if (absl::StrContains(line, needle)) return true;
  }
  return false;
}

// Runs the host CPU kernel of `type` on two 1-D float inputs.
std::vector<float> RunKernel(const std::string& type, const OpDesc& attrs,
                             const std::vector<float>& a, const std::vector<float>& b) {
  const OpRegistrationData* reg = OpRegistry::Instance().Find(type);
  EXPECT_NE(reg, nullptr);
  if (reg == nullptr) return {};
  const OpKernelDef* kernel = reg->FindKernel(kEngineHostCpu);
  EXPECT_NE(kernel, nullptr);
  if (kernel == nullptr) return {};
  const gert::Shape shape{static_cast<int64_t>(a.size())};
  gert::HostTensor x1 =
      *gert::HostTensor::CreateFrom(DT_FLOAT, shape, a.data(), a.size() * sizeof(float));
  gert::HostTensor x2 =
      *gert::HostTensor::CreateFrom(DT_FLOAT, shape, b.data(), b.size() * sizeof(float));
  gert::HostTensor y = *gert::HostTensor::Create(DT_FLOAT, shape);
  gert::KernelRunContextBuilder builder;
  gert::KernelContext* ctx = builder.Node(attrs.GetName(), type)
                                 .Attrs(&attrs)
                                 .Inputs({&x1.tensor(), &x2.tensor()})
                                 .Outputs({&y.tensor()})
                                 .Build();
  const Status st = kernel->fn(*ctx);
  EXPECT_TRUE(st.ok()) << st;
  return std::vector<float>(y.GetData<float>(), y.GetData<float>() + a.size());
}

class OpsProtoManagerTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const Status st =
        OpsProtoManager::Instance().LoadOpsProtoLibs(Runfile("libcustom_op_plugin.so"));
    ASSERT_TRUE(st.ok()) << st;
  }
};

TEST_F(OpsProtoManagerTest, CustomOpFromPluginThroughFactoryInferAndKernel) {
  OpsProtoManager& m = OpsProtoManager::Instance();
  EXPECT_TRUE(m.IsLoaded(Runfile("libcustom_op_plugin.so")));
  EXPECT_FALSE(OpRegistry::Instance().IsRegisterOverridable());  // closed again

  const OpRegistrationData* reg = OpRegistry::Instance().Find("PluginScaleAdd");
  ASSERT_NE(reg, nullptr);
  // Tagged with the library (unless a later test patched it).
  EXPECT_THAT(reg->source, HasSubstr("_plugin.so"));

  StatusOr<OpDescPtr> op = OperatorFactory::CreateOpDesc("sa", "PluginScaleAdd");
  ASSERT_TRUE(op.ok()) << op.status();
  EXPECT_THAT((*op)->GetIrAttrNames(), ::testing::ElementsAre("alpha"));
  ASSERT_TRUE((*op)->UpdateInputDesc(0, GeTensorDesc(GeShape({2, 3}), FORMAT_ND, DT_FLOAT)).ok());
  ASSERT_TRUE((*op)->UpdateInputDesc(1, GeTensorDesc(GeShape({2, 3}), FORMAT_ND, DT_FLOAT)).ok());
  ASSERT_TRUE(InferShapeAndTypeForOpDesc(**op).ok());
  EXPECT_EQ((*op)->GetOutputDesc(0).GetShape(), GeShape({2, 3}));
  EXPECT_EQ((*op)->GetOutputDesc(0).GetDataType(), DT_FLOAT);

  // The plugin's infer errors name the node.
  ASSERT_TRUE((*op)->UpdateInputDesc(1, GeTensorDesc(GeShape({3}), FORMAT_ND, DT_FLOAT)).ok());
  Status bad = InferShapeAndTypeForOpDesc(**op);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.message(), HasSubstr("node sa (PluginScaleAdd): input shapes [2,3] and [3]"));
  // And the IR dtype constraint is checked before the plugin runs.
  ASSERT_TRUE((*op)->UpdateInputDesc(1, GeTensorDesc(GeShape({2, 3}), FORMAT_ND, DT_INT32)).ok());
  EXPECT_THAT(InferShapeAndTypeForOpDesc(**op).message(), HasSubstr("'x2' (index 1)"));

  if (absl::EndsWith(reg->source, "libcustom_op_plugin.so")) {
    ASSERT_TRUE((*op)->SetAttr("alpha", AttrValue::CreateFrom<float>(0.5f)).ok());
    EXPECT_EQ(RunKernel("PluginScaleAdd", **op, {1, 2}, {10, 20}), (std::vector<float>{6, 12}));
  }
}

TEST_F(OpsProtoManagerTest, LoadingTwiceIsANoOp) {
  OpsProtoManager& m = OpsProtoManager::Instance();
  const size_t n = m.GetLoadedLibraries().size();
  ASSERT_TRUE(m.LoadOpsProtoLibs(Runfile("libcustom_op_plugin.so")).ok());
  EXPECT_EQ(m.GetLoadedLibraries().size(), n);
  EXPECT_TRUE(m.LoadOpsProtoLibs("").ok());
  EXPECT_TRUE(m.LoadOpsProtoLibs("::").ok());
  EXPECT_EQ(m.GetLoadedLibraries().size(), n);
}

TEST_F(OpsProtoManagerTest, ConflictWithOverrideWindowClosed) {
  const OpRegistrationData* before = OpRegistry::Instance().Find("PluginScaleAdd");
  ASSERT_NE(before, nullptr);
  const std::string existing = before->source;
  OpsProtoLoadOptions options;
  options.allow_override = false;
  Status st =
      OpsProtoManager::Instance().LoadOpsProtoLibs(Runfile("libconflict_plugin.so"), options);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kAlreadyExists);
  EXPECT_THAT(st.message(), HasSubstr("'PluginScaleAdd'"));
  EXPECT_THAT(st.message(), HasSubstr(existing));
  EXPECT_THAT(st.message(), HasSubstr("libconflict_plugin.so"));
  // The existing registration stays; the window is closed again.
  EXPECT_EQ(OpRegistry::Instance().Find("PluginScaleAdd")->source, existing);
  EXPECT_FALSE(OpRegistry::Instance().IsRegisterOverridable());
}

TEST_F(OpsProtoManagerTest, HotPatchWithOverrideWindowOpen) {
  Status st = OpsProtoManager::Instance().LoadOpsProtoLibs(Runfile("libpatch_plugin.so"));
  ASSERT_TRUE(st.ok()) << st;
  const OpRegistrationData* reg = OpRegistry::Instance().Find("PluginScaleAdd");
  ASSERT_NE(reg, nullptr);
  EXPECT_THAT(reg->source, EndsWith("libpatch_plugin.so"));
  EXPECT_TRUE(LogContains("libpatch_plugin.so overrides the one from"));
  EXPECT_FALSE(OpRegistry::Instance().IsRegisterOverridable());
  OpDesc attrs("patched", "PluginScaleAdd");
  EXPECT_EQ(RunKernel("PluginScaleAdd", attrs, {1, 2}, {10, 20}), (std::vector<float>{20, 40}));
}

TEST_F(OpsProtoManagerTest, MissingPath) {
  const std::string path = Runfile("no_such_plugin.so");
  Status st = OpsProtoManager::Instance().LoadOpsProtoLibs(path);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotFound);
  EXPECT_THAT(st.message(), HasSubstr(path));
  EXPECT_THAT(st.message(), HasSubstr("does not exist"));
  EXPECT_THAT(st.message(), HasSubstr("ge.opsProtoLibPath"));
}

TEST_F(OpsProtoManagerTest, NotALibrary) {
  Status st = OpsProtoManager::Instance().LoadOpsProtoLibs(Runfile("not_a_library.so"));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kIoError);
  EXPECT_THAT(st.message(), HasSubstr("cannot load ops proto library"));
  EXPECT_THAT(st.message(), HasSubstr("not_a_library.so"));
  // dlerror()'s text follows the path.
  EXPECT_TRUE(absl::StrContains(st.message(), "ELF") ||
              absl::StrContains(st.message(), "too short"))
      << st;
  EXPECT_FALSE(OpsProtoManager::Instance().IsLoaded(Runfile("not_a_library.so")));
  EXPECT_FALSE(OpRegistry::Instance().IsRegisterOverridable());
}

TEST_F(OpsProtoManagerTest, UnresolvedSymbolFailsAtLoad) {
  Status st = OpsProtoManager::Instance().LoadOpsProtoLibs(Runfile("libunresolved_plugin.so"));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kIoError);
  EXPECT_THAT(st.message(), HasSubstr("libunresolved_plugin.so"));
  EXPECT_THAT(st.message(), HasSubstr("undefined symbol"));
  EXPECT_THAT(st.message(), HasSubstr("ge_test_symbol_no_host_defines"));
  EXPECT_EQ(OpRegistry::Instance().Find("PluginUnresolved"), nullptr);
}

TEST_F(OpsProtoManagerTest, DirectoryLoadsSortedLibrariesOnly) {
  namespace fs = std::filesystem;
  const std::string dir = TmpDir("plugin_dir");
  fs::copy_file(Runfile("libdir_two_plugin.so"), dir + "/20_two.so");
  fs::copy_file(Runfile("libdir_one_plugin.so"), dir + "/10_one.so");
  std::FILE* notes = std::fopen((dir + "/notes.txt").c_str(), "w");
  ASSERT_NE(notes, nullptr);
  std::fclose(notes);
  fs::create_directories(dir + "/nested.so");  // a directory named *.so is skipped

  // A host registration queued before the load stays "builtin".
  { OpReceiver rec(OpReg("HostQueuedBeforePlugin").Input("x", DT_FLOAT)); }
  OpsProtoManager& m = OpsProtoManager::Instance();
  Status st = m.LoadOpsProtoLibs(dir);
  ASSERT_TRUE(st.ok()) << st;
  const std::vector<std::string> loaded = m.GetLoadedLibraries();
  ASSERT_GE(loaded.size(), 2u);
  EXPECT_THAT(loaded[loaded.size() - 2], EndsWith("/10_one.so"));
  EXPECT_THAT(loaded[loaded.size() - 1], EndsWith("/20_two.so"));
  ASSERT_NE(OpRegistry::Instance().Find("PluginDirOne"), nullptr);
  EXPECT_THAT(OpRegistry::Instance().Find("PluginDirOne")->source, EndsWith("/10_one.so"));
  EXPECT_THAT(OpRegistry::Instance().Find("PluginDirTwo")->source, EndsWith("/20_two.so"));
  EXPECT_EQ(OpRegistry::Instance().Find("HostQueuedBeforePlugin")->source, "builtin");
  OpDesc attrs("d2", "PluginDirTwo");
  EXPECT_EQ(RunKernel("PluginDirTwo", attrs, {1, 2}, {10, 20}), (std::vector<float>{12, 24}));

  // An empty directory loads nothing and is not an error.
  EXPECT_TRUE(m.LoadOpsProtoLibs(TmpDir("empty_plugin_dir")).ok());
}

TEST_F(OpsProtoManagerTest, EveryEntryIsAttemptedAndErrorsAreJoined) {
  const std::string missing = Runfile("missing_one.so");
  Status st = OpsProtoManager::Instance().LoadOpsProtoLibs(absl::StrCat(
      missing, ":", Runfile("libcustom_op_plugin.so"), ":", Runfile("not_a_library.so")));
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotFound);  // the first error's code
  EXPECT_THAT(st.message(), HasSubstr("2 ops proto libraries failed"));
  EXPECT_THAT(st.message(), HasSubstr("missing_one.so"));
  EXPECT_THAT(st.message(), HasSubstr("not_a_library.so"));
}

}  // namespace
}  // namespace ge
