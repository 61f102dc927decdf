// What capi hands a disk array: the settings reach the files a store opens.
#include "file/storage.h"

#include <gtest/gtest.h>

#include "../device/test_util.h"

namespace pario::file {
namespace {

using device::testing::scratch_path;

bool opens_direct(const FileSettings& settings, const std::string& path) {
  std::shared_ptr<device::Storage> storage = storage_for(path + ".store", settings, true);
  device::OpenOptions o;
  o.create = true;
  Result<std::unique_ptr<device::Device>> f = storage->open(path, o);
  EXPECT_TRUE(f.ok()) << f.status().message();
  if (!f.ok()) return false;
  const bool direct = ((*f)->caps() & device::kCapDirect) != 0;
  EXPECT_TRUE((*f)->close().ok());
  return direct;
}

TEST(Storage, DirectSettingReachesEveryFile) {
  FileSettings plain, direct;
  direct.direct = true;
  EXPECT_FALSE(opens_direct(plain, scratch_path("storage_plain")));
  EXPECT_TRUE(opens_direct(direct, scratch_path("storage_direct")));
}

TEST(Storage, WholeFilesTakeTheirNameOnlyOnceWritten) {
  const std::string path = scratch_path("storage_whole");
  std::shared_ptr<device::Storage> storage = storage_for(path + ".store", {}, true);
  const char text[] = "first";
  ASSERT_TRUE(storage->write_whole(path, false, [&](device::Device& f) { return f.write_at(0, text, 5); }).ok());
  // Taken: refused without replace, and a failing fill leaves the old file.
  EXPECT_EQ(storage->write_whole(path, false, [](device::Device&) { return Status::Ok(); }).code(), Code::kExists);
  EXPECT_EQ(storage->write_whole(path, true, [](device::Device&) { return Status(Code::kIo, "no"); }).code(),
            Code::kIo);
  device::OpenOptions ro;
  ro.write = false;
  auto f = std::move(storage->open(path, ro)).value();
  char got[5] = {};
  size_t n = 0;
  ASSERT_TRUE(f->read_at(0, got, 5, &n).ok());
  EXPECT_EQ(std::string(got, n), "first");
}

TEST(Storage, StripingIsRefusedForStores) {
  FileSettings striped;
  striped.backend = FileBackendChoice::kStriped;
  striped.scratch_dirs = {"/tmp", "/var/tmp"};
  EXPECT_EQ(check_store_backend("/tmp/x.zarr", striped).code(), Code::kUnsupported);
  striped.scratch_dirs = {"/tmp"};  // one directory: plain files
  EXPECT_TRUE(check_store_backend("/tmp/x.zarr", striped).ok());
}

}  // namespace
}  // namespace pario::file
