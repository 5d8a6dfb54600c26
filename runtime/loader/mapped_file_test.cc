// runtime/loader/mapped_file_test.cc
#include "runtime/loader/mapped_file.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace ge {
namespace {

std::string TempPath(const std::string& name) {
  const char* dir = std::getenv("TEST_TMPDIR");
  return std::string(dir != nullptr ? dir : "/tmp") + "/" + name;
}

TEST(MappedFileTest, MapsTheWholeFileReadOnly) {
  const std::string path = TempPath("mapped.bin");
  {
    std::ofstream f(path, std::ios::binary);
    f << "hello model";
  }
  auto m = MappedFile::Open(path);
  ASSERT_TRUE(m.ok()) << m.status();
  ASSERT_EQ((*m)->bytes().size(), 11u);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>((*m)->bytes().data()), 11), "hello model");
  EXPECT_EQ(reinterpret_cast<uintptr_t>((*m)->bytes().data()) % 4096, 0u);
  EXPECT_EQ((*m)->path(), path);
  // The mapping outlives the file name.
  std::remove(path.c_str());
  EXPECT_EQ((*m)->bytes()[0], 'h');
}

TEST(MappedFileTest, EmptyFileGivesEmptySpan) {
  const std::string path = TempPath("empty.bin");
  { std::ofstream f(path, std::ios::binary); }
  auto m = MappedFile::Open(path);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_TRUE((*m)->bytes().empty());
}

TEST(MappedFileTest, Errors) {
  auto missing = MappedFile::Open(TempPath("no_such_file.om"));
  EXPECT_EQ(GetErrorCode(missing.status()), ErrorCode::kNotFound);
  EXPECT_NE(missing.status().message().find("no_such_file.om"), std::string::npos);
  auto dir = MappedFile::Open(TempPath(""));
  EXPECT_EQ(GetErrorCode(dir.status()), ErrorCode::kIoError) << dir.status();
}

TEST(AlignedBytesTest, CopiesAligned) {
  auto b = AlignedBytes::Copy("abc");
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)->bytes().size(), 3u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>((*b)->bytes().data()) % 4096, 0u);
  EXPECT_EQ((*b)->bytes()[2], 'c');
  auto e = AlignedBytes::Copy("");
  ASSERT_TRUE(e.ok());
  EXPECT_TRUE((*e)->bytes().empty());
}

}  // namespace
}  // namespace ge
