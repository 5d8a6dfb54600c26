// metadef/src/base/file_io_test.cc
#include "metadef/inc/base/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"

namespace ge {
namespace {

std::string TempDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return tmp != nullptr ? tmp : "/tmp";
}

bool Exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

std::string TempOf(const std::string& path) { return absl::StrCat(path, ".tmp.", ::getpid()); }

TEST(FileIoTest, WriteAtomicallyThenRead) {
  const std::string path = TempDir() + "/file_io_a.bin";
  ASSERT_TRUE(WriteFileAtomically(path, "hello").ok());
  StatusOr<std::string> r = ReadFileToString(path);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(*r, "hello");
  // Replacing an existing file.
  ASSERT_TRUE(WriteFileAtomically(path, "second").ok());
  EXPECT_EQ(*ReadFileToString(path), "second");
  ASSERT_TRUE(WriteFileAtomically(path, "").ok());
  EXPECT_EQ(*ReadFileToString(path), "");
  EXPECT_FALSE(Exists(TempOf(path)));
}

TEST(FileIoTest, ReadErrorsNameThePath) {
  const std::string dir = TempDir();
  const std::string path = dir + "/file_io_b.bin";
  ASSERT_TRUE(WriteFileAtomically(path, "abcd").ok());
  Status st = ReadFileToString(path, 3).status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kOutOfRange);
  EXPECT_NE(std::string(st.message()).find(path), std::string::npos) << st;
  st = ReadFileToString(dir + "/file_io_missing.bin").status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kNotFound);
  EXPECT_NE(std::string(st.message()).find("file_io_missing.bin"), std::string::npos) << st;
  st = ReadFileToString(dir).status();
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  EXPECT_NE(std::string(st.message()).find("not a regular file"), std::string::npos) << st;
}

TEST(FileIoTest, MissingParentDirectoryIsNamed) {
  const std::string missing = TempDir() + "/file_io_no_such_dir";
  const std::string path = missing + "/deeper/m.bin";
  Status st = WriteFileAtomically(path, "x");
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kParamInvalid);
  const std::string msg(st.message());
  EXPECT_NE(msg.find(TempOf(path)), std::string::npos) << msg;
  EXPECT_NE(msg.find("No such file or directory"), std::string::npos) << msg;
  EXPECT_NE(msg.find("directory '" + missing + "' does not exist"), std::string::npos) << msg;
  EXPECT_FALSE(Exists(path));
}

TEST(FileIoTest, FailedRenameLeavesNoTempFile) {
  const std::string target = TempDir() + "/file_io_is_a_dir";
  ASSERT_EQ(::mkdir(target.c_str(), 0755), 0);
  Status st = WriteFileAtomically(target, "x");
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kInternal);
  EXPECT_NE(std::string(st.message()).find("renaming"), std::string::npos) << st;
  EXPECT_FALSE(Exists(TempOf(target)));
}

TEST(FileIoTest, AbandonedAtomicFileRemovesItsTempAndKeepsTheOld) {
  const std::string path = TempDir() + "/file_io_c.bin";
  ASSERT_TRUE(WriteFileAtomically(path, "old").ok());
  {
    StatusOr<AtomicFile> file = AtomicFile::Create(path);
    ASSERT_TRUE(file.ok()) << file.status();
    const std::string bytes = "new bytes";
    ASSERT_TRUE(PwriteAll(file->fd(), reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(),
                          0, file->temp_path())
                    .ok());
    EXPECT_TRUE(Exists(file->temp_path()));
    AtomicFile moved = std::move(file).value();
    EXPECT_EQ(moved.path(), path);
  }
  EXPECT_FALSE(Exists(TempOf(path)));
  EXPECT_EQ(*ReadFileToString(path), "old");
}

TEST(FileIoTest, CommitPlacesPositionedWritesAndCopies) {
  const std::string src_path = TempDir() + "/file_io_src.bin";
  std::string src_bytes(100000, '\0');
  for (size_t i = 0; i < src_bytes.size(); ++i) src_bytes[i] = static_cast<char>(i * 7);
  ASSERT_TRUE(WriteFileAtomically(src_path, src_bytes).ok());
  const int src = ::open(src_path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_GE(src, 0);
  const std::string path = TempDir() + "/file_io_d.bin";
  StatusOr<AtomicFile> file = AtomicFile::Create(path);
  ASSERT_TRUE(file.ok()) << file.status();
  const std::string head = "head";
  ASSERT_TRUE(PwriteAll(file->fd(), reinterpret_cast<const uint8_t*>(head.data()), head.size(), 0,
                        file->temp_path())
                  .ok());
  const uint64_t copied = CopyFileRange(src, 1000, file->fd(), 4, 50000);
  ASSERT_LE(copied, 50000u);
  const uint8_t* rest = reinterpret_cast<const uint8_t*>(src_bytes.data()) + 1000 + copied;
  ASSERT_TRUE(PwriteAll(file->fd(), rest, 50000 - copied, 4 + copied, file->temp_path()).ok());
  ::close(src);
  ASSERT_TRUE(file->Commit(/*sync=*/true).ok());
  EXPECT_FALSE(Exists(file->temp_path()));
  EXPECT_EQ(*ReadFileToString(path), head + src_bytes.substr(1000, 50000));
  // A second Commit is an error, not a second rename.
  EXPECT_FALSE(file->Commit(/*sync=*/false).ok());
}

TEST(FileIoTest, PwriteAllNamesThePathOnFailure) {
  const std::string path = TempDir() + "/file_io_e.bin";
  const uint8_t byte = 1;
  Status st = PwriteAll(-1, &byte, 1, 7, path);
  EXPECT_EQ(GetErrorCode(st), ErrorCode::kInternal);
  const std::string msg(st.message());
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find("offset 7"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Bad file descriptor"), std::string::npos) << msg;
}

}  // namespace
}  // namespace ge
