#include <dirent.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <gtest/gtest.h>
#include <set>
#include <sstream>

#include "device/device.h"
#include "test_util.h"

namespace pario::device {
namespace {

// A fresh directory of its own, so that its listing shows every file a
// NewFile leaves.
class NewFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = testing::scratch_path("new_file_dir");
    ASSERT_EQ(::mkdir(dir_.c_str(), 0700), 0);
  }
  void TearDown() override {
    for (const std::string& name : names()) ::unlink((dir_ + "/" + name).c_str());
    ::rmdir(dir_.c_str());
  }
  std::set<std::string> names() const {
    std::set<std::string> out;
    DIR* d = ::opendir(dir_.c_str());
    while (dirent* e = d ? ::readdir(d) : nullptr) {
      if (std::string(e->d_name) != "." && std::string(e->d_name) != "..") out.insert(e->d_name);
    }
    if (d) ::closedir(d);
    return out;
  }
  std::string text(const std::string& name) const {
    std::ifstream in(dir_ + "/" + name);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  void put(const std::string& name, const std::string& bytes) const { std::ofstream(dir_ + "/" + name) << bytes; }

  std::string dir_;
};

TEST_F(NewFileTest, HasNoNameUntilPublishedThenIsPrivate) {
  auto f = NewFile::create(dir_ + "/a");
  ASSERT_TRUE(f.ok()) << f.status().message();
  ASSERT_TRUE(f->device().write_at(0, "hello", 5).ok());
  EXPECT_EQ(names(), std::set<std::string>{}) << "a name showed before publish (no O_TMPFILE here?)";
  ASSERT_TRUE(f->publish(false).ok());
  EXPECT_EQ(names(), std::set<std::string>{"a"});
  EXPECT_EQ(text("a"), "hello");
  struct stat st;
  ASSERT_EQ(::stat((dir_ + "/a").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(f->publish(false).code(), Code::kState);
}

TEST_F(NewFileTest, ANameTakenIsKeptUnlessReplaceIsAsked) {
  put("a", "old");
  auto f = NewFile::create(dir_ + "/a");
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE(f->device().write_at(0, "new", 3).ok());
  EXPECT_EQ(f->publish(false).code(), Code::kExists);
  EXPECT_EQ(text("a"), "old");
  EXPECT_EQ(names(), std::set<std::string>{"a"});

  auto g = NewFile::create(dir_ + "/a");
  ASSERT_TRUE(g.ok());
  ASSERT_TRUE(g->device().write_at(0, "newer", 5).ok());
  ASSERT_TRUE(g->publish(true).ok());
  EXPECT_EQ(text("a"), "newer");
  EXPECT_EQ(names(), std::set<std::string>{"a"});  // nothing left beside it
}

TEST_F(NewFileTest, ReplacesASymlinkNotItsTarget) {
  put("target", "keep");
  ASSERT_EQ(::symlink((dir_ + "/target").c_str(), (dir_ + "/a").c_str()), 0);
  auto f = NewFile::create(dir_ + "/a");
  ASSERT_TRUE(f.ok());
  ASSERT_TRUE(f->device().write_at(0, "mine", 4).ok());
  EXPECT_EQ(f->publish(false).code(), Code::kExists);  // even a link pointing nowhere would block it
  auto g = NewFile::create(dir_ + "/a");
  ASSERT_TRUE(g.ok());
  ASSERT_TRUE(g->device().write_at(0, "mine", 4).ok());
  ASSERT_TRUE(g->publish(true).ok());
  struct stat st;
  ASSERT_EQ(::lstat((dir_ + "/a").c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(text("target"), "keep");
  EXPECT_EQ(text("a"), "mine");
}

// What is not a file at the name is refused at once: a symbolic link
// (never followed) and a FIFO (open(2) would wait for its other end for
// ever, for reading and for writing).
TEST_F(NewFileTest, OpenPosixRefusesLinksAndFifosWithoutWaiting) {
  put("target", "keep");
  ASSERT_EQ(::symlink((dir_ + "/target").c_str(), (dir_ + "/link").c_str()), 0);
  ASSERT_EQ(::mkfifo((dir_ + "/fifo").c_str(), 0600), 0);
  OpenOptions read;
  read.read = true;
  OpenOptions write;
  write.write = true;
  write.create = true;
  auto linked = open_posix(dir_ + "/link", read);
  EXPECT_EQ(linked.status().code(), Code::kPermission) << linked.status().message();
  auto through = open_posix(dir_ + "/link", write);
  EXPECT_EQ(through.status().code(), Code::kPermission) << through.status().message();
  for (const OpenOptions& o : {read, write}) {
    auto fifo = open_posix(dir_ + "/fifo", o);
    EXPECT_EQ(fifo.status().code(), Code::kInvalidArgument) << fifo.status().message();
    EXPECT_NE(fifo.status().message().find("not a regular file"), std::string::npos) << fifo.status().message();
  }
  EXPECT_EQ(text("target"), "keep");
  auto file = open_posix(dir_ + "/target", read);  // a regular file still opens, and blocks as files do
  ASSERT_TRUE(file.ok()) << file.status().message();
  char buf[4] = {};
  size_t got = 0;
  ASSERT_TRUE((*file)->read_at(0, buf, 4, &got).ok());
  EXPECT_EQ(got, 4u);
  EXPECT_EQ(std::string(buf, 4), "keep");
}

TEST_F(NewFileTest, DroppedUnpublishedLeavesNothing) {
  {
    auto f = NewFile::create(dir_ + "/a");
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE(f->device().write_at(0, "lost", 4).ok());
  }
  EXPECT_EQ(names(), std::set<std::string>{});
}

TEST_F(NewFileTest, ACrashBeforePublishLeavesNothing) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // dies mid-write: no destructor runs
    auto f = NewFile::create(dir_ + "/a");
    if (!f.ok() || !f->device().write_at(0, "half", 4).ok()) ::_exit(1);
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(names(), std::set<std::string>{}) << "the file system has no O_TMPFILE?";
}

TEST_F(NewFileTest, BadPlacesAreClearErrors) {
  auto missing = NewFile::create(dir_ + "/no/such/dir/a");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Code::kNotFound);
  EXPECT_NE(missing.status().message().find("no/such/dir"), std::string::npos) << missing.status().message();
  EXPECT_EQ(NewFile::create("").status().code(), Code::kInvalidArgument);
  EXPECT_EQ(NewFile::create(dir_ + "/").status().code(), Code::kInvalidArgument);
}

}  // namespace
}  // namespace pario::device
