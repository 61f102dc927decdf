#include "device/fs_stat.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace pario::device {
namespace {

TEST(FsStat, DescribesDirectoriesAndNotYetExistingFiles) {
  auto dir = stat_path("/tmp");
  ASSERT_TRUE(dir.ok()) << dir.status().message();
  EXPECT_GT(dir->total_bytes, 0u);
  EXPECT_FALSE(dir->type.empty());
  EXPECT_NE(dir->type, "unknown");
  auto file = stat_path(testing::scratch_path("not_yet_created"));
  ASSERT_TRUE(file.ok());
  EXPECT_FALSE(file->type.empty());
}

TEST(FsStat, TmpfsIsNamed) {
  auto shm = stat_path("/dev/shm");
  if (!shm.ok()) GTEST_SKIP() << "no /dev/shm";
  EXPECT_EQ(shm->type, "tmpfs");
}

TEST(FsStat, MissingDirectoryIsNotFound) {
  auto r = stat_path("/no/such/dir/file");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kNotFound);
}

}  // namespace
}  // namespace pario::device
