#include "file/private_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "../device/test_util.h"

namespace pario::file {
namespace {

using device::testing::random_bytes;
using device::testing::scratch_path;

// What capi would hand down: plain POSIX files and a thread engine.
const FileSettings& settings() {
  static device::AsyncEngine* engine = device::make_thread_engine(2).release();  // outlives every file
  static const FileSettings s = [] {
    FileSettings f;
    f.engine = engine;
    return f;
  }();
  return s;
}

TEST(PrivateFile, CreatedPrivateToTheUser) {
  std::string p = scratch_path("mode");
  ::umask(0);  // even a permissive umask must not widen the mode
  auto f = PrivateFile::open(p, {}, settings());
  ::umask(022);
  ASSERT_TRUE(f.ok()) << f.status().message();
  struct stat st;
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_TRUE((*f)->close().ok());
  ::unlink(p.c_str());
}

TEST(PrivateFile, RefusesToFollowASymlink) {
  std::string target = scratch_path("target"), link = scratch_path("link");
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  auto f = PrivateFile::open(link, {}, settings());
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), Code::kPermission);
  EXPECT_NE(::access(target.c_str(), F_OK), 0) << "the link's target was created";
  ::unlink(link.c_str());
}

TEST(PrivateFile, ExclusiveCreateOfAnExistingFileFails) {
  std::string p = scratch_path("excl");
  ASSERT_TRUE(PrivateFile::open(p, {}, settings()).ok());
  PrivateFileOptions o;
  o.exclusive = true;
  EXPECT_EQ(PrivateFile::open(p, o, settings()).status().code(), Code::kExists);
  ::unlink(p.c_str());
}

TEST(PrivateFile, ReadPastEndIsOutOfRangeAndModesAreEnforced) {
  std::string p = scratch_path("eof");
  auto f = std::move(PrivateFile::open(p, {}, settings())).value();
  auto data = random_bytes(100, 1);
  ASSERT_TRUE(f->write(0, data.data(), data.size()).ok());
  char buf[200];
  Status s = f->read(50, buf, 100);
  EXPECT_EQ(s.code(), Code::kOutOfRange);
  EXPECT_NE(s.message().find("50 of 100 bytes at offset 50"), std::string::npos) << s.message();
  ASSERT_TRUE(f->close().ok());
  PrivateFileOptions ro;
  ro.write = false;
  ro.create = false;
  auto r = std::move(PrivateFile::open(p, ro, settings())).value();
  EXPECT_EQ(r->write(0, buf, 1).code(), Code::kState);
  EXPECT_EQ(r->truncate(0).code(), Code::kState);
  ASSERT_TRUE(r->read(0, buf, 100).ok());
  EXPECT_EQ(0, std::memcmp(buf, data.data(), 100));
  ::unlink(p.c_str());
}

// read() and write() first try one pread/pwrite on the device's descriptor
// (issue 30). A closed file must not reach that descriptor: its number is
// free, and the next open takes it.
TEST(PrivateFile, ClosedFileNeverTouchesItsOldDescriptor) {
  std::string p = scratch_path("closed"), q = scratch_path("reused");
  auto f = std::move(PrivateFile::open(p, {}, settings())).value();
  auto data = random_bytes(64, 3);
  ASSERT_TRUE(f->write(0, data.data(), data.size()).ok());
  ASSERT_TRUE(f->close().ok());
  auto g = std::move(PrivateFile::open(q, {}, settings())).value();  // likely the same number
  auto other = random_bytes(64, 4);
  ASSERT_TRUE(g->write(0, other.data(), other.size()).ok());
  char buf[64];
  EXPECT_EQ(f->read(0, buf, sizeof buf).code(), Code::kState);
  EXPECT_EQ(f->write(0, data.data(), data.size()).code(), Code::kState);
  std::vector<char> back(64);
  ASSERT_TRUE(g->read(0, back.data(), back.size()).ok());
  EXPECT_EQ(back, other) << "a write on the closed file landed in the file that reused its descriptor";
  ASSERT_TRUE(g->close().ok());
  ::unlink(p.c_str());
  ::unlink(q.c_str());
}

TEST(PrivateFile, OneCallPathKeepsModesAndExactness) {
  std::string p = scratch_path("fastpath");
  PrivateFileOptions wo;
  wo.read = false;
  auto w = std::move(PrivateFile::open(p, wo, settings())).value();
  auto data = random_bytes(1600, 5);
  ASSERT_TRUE(w->write(0, data.data(), data.size()).ok());
  char buf[1600];
  EXPECT_EQ(w->read(0, buf, 10).code(), Code::kState) << "read on a write-only file";
  ASSERT_TRUE(w->close().ok());
  auto f = std::move(PrivateFile::open(p, {}, settings())).value();
  ASSERT_TRUE(f->read(0, buf, sizeof buf).ok());
  EXPECT_EQ(0, std::memcmp(buf, data.data(), sizeof buf));
  EXPECT_TRUE(f->read(1600, buf, 0).ok()) << "an empty read at the end";
  Status s = f->read(1000, buf, 1000);  // 600 bytes there: the device path says so
  EXPECT_EQ(s.code(), Code::kOutOfRange);
  EXPECT_NE(s.message().find("600 of 1000 bytes at offset 1000"), std::string::npos) << s.message();
  ASSERT_TRUE(f->close().ok());
  ::unlink(p.c_str());
}

TEST(PrivateFile, FilesBeyondTwoGigabytesAreSparseAndExact) {
  std::string p = scratch_path("big");
  auto f = std::move(PrivateFile::open(p, {}, settings())).value();
  const uint64_t far = (uint64_t{5} << 30) + 12345;  // 5 GB + a bit
  auto data = random_bytes(4096, 2);
  ASSERT_TRUE(f->write(far, data.data(), data.size()).ok());
  EXPECT_EQ(*f->length(), far + data.size());
  std::vector<char> back(4096);
  ASSERT_TRUE(f->read(far, back.data(), back.size()).ok());
  EXPECT_EQ(back, data);
  char zero[64];
  ASSERT_TRUE(f->read(uint64_t{3} << 30, zero, sizeof zero).ok());
  for (char c : zero) EXPECT_EQ(c, 0);
  struct stat st;
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_LT(st.st_blocks * 512, 1 << 20) << "the hole was written out";
  ASSERT_TRUE(f->close().ok());
  ::unlink(p.c_str());
}

TEST(PrivateFile, CloseCompletesOutstandingRequests) {
  std::string p = scratch_path("pending");
  auto f = std::move(PrivateFile::open(p, {}, settings())).value();
  std::vector<std::vector<char>> data;
  std::vector<std::shared_ptr<device::Request>> reqs;
  for (int i = 0; i < 200; ++i) {
    data.push_back(random_bytes(5000, i));
    reqs.push_back(std::move(f->iwrite(uint64_t(i) * 5000, data.back().data(), 5000)).value());
  }
  ASSERT_TRUE(f->close().ok());
  for (auto& r : reqs) {
    ASSERT_TRUE(r->done());
    EXPECT_TRUE(r->status().ok());
  }
  EXPECT_EQ(f->write(0, "x", 1).code(), Code::kState);
  PrivateFileOptions ro;
  ro.write = false;
  auto g = std::move(PrivateFile::open(p, ro, settings())).value();
  std::vector<char> back(5000);
  ASSERT_TRUE(g->read(199 * 5000, back.data(), 5000).ok());
  EXPECT_EQ(back, data[199]);
  ::unlink(p.c_str());
}

TEST(PrivateFile, DirectModeServesUnalignedRequests) {
  std::string p = scratch_path("direct");
  PrivateFileOptions o;
  o.direct = true;
  auto f = PrivateFile::open(p, o, settings());
  if (!f.ok() && f.status().code() == Code::kUnsupported) GTEST_SKIP() << f.status().message();
  ASSERT_TRUE(f.ok()) << f.status().message();
  auto data = random_bytes(1601, 3);  // ChemIO's 1.6 kB, deliberately odd
  std::vector<std::shared_ptr<device::Request>> reqs;
  for (int i = 0; i < 50; ++i) {
    reqs.push_back(std::move((*f)->iwrite(uint64_t(i) * 1601 + 7, data.data(), data.size())).value());
  }
  for (auto& r : reqs) {
    device::wait(*r);
    ASSERT_TRUE(r->status().ok()) << r->status().message();
  }
  EXPECT_EQ(*(*f)->length(), 50u * 1601 + 7);
  std::vector<char> back(1601);
  for (int i = 0; i < 50; ++i) {
    ASSERT_TRUE((*f)->read(uint64_t(i) * 1601 + 7, back.data(), back.size()).ok());
    ASSERT_EQ(back, data) << i;
  }
  ASSERT_TRUE((*f)->close().ok());
  struct stat st;
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(static_cast<uint64_t>(st.st_size), 50u * 1601 + 7) << "padding left on disk";
  ::unlink(p.c_str());
}

}  // namespace
}  // namespace pario::file
