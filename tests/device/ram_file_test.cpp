// Files in Memory at the device layer: budget accounting, spilling, two
// openers of one segment, and names that never outlive their use.
#include "device/ram_file.h"

#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "device/shm_segment.h"
#include "test_util.h"

namespace pario::device {
namespace {

using testing::random_bytes;
using testing::scratch_path;

// This process's segments in /dev/shm.
int my_segments() {
  const std::string mine = segment_prefix() + std::to_string(::getpid()) + ".";
  int n = 0;
  if (DIR* d = ::opendir("/dev/shm")) {
    while (const dirent* e = ::readdir(d)) n += std::string(e->d_name).rfind(mine, 0) == 0;
    ::closedir(d);
  }
  return n;
}

SpillOpener spill_to(const std::string& p) {
  return [p](bool create) {
    OpenOptions o;
    o.create = create;
    return open_posix(p, o);
  };
}

TEST(RamFile, SpillsMidFileWhenTheBudgetRunsOutAndGivesTheRamBack) {
  auto budget = std::move(RamBudget::create(2 << 20)).value();
  std::string spill = scratch_path("ram_spill");
  {
    auto file = std::move(RamFile::create(budget)).value();
    auto dev = make_ram_device("ram", file, spill_to(spill));
    auto data = random_bytes(5 << 20, 1);
    ASSERT_TRUE(dev->write_at(0, data.data(), data.size()).ok());
    EXPECT_EQ(file->ram_end(), uint64_t{2} << 20);
    EXPECT_TRUE(file->frozen());
    EXPECT_EQ(file->spilled(), uint64_t{3} << 20);
    EXPECT_EQ(budget->used(), uint64_t{2} << 20);
    std::vector<char> back(data.size());
    size_t got = 0;
    ASSERT_TRUE(dev->read_at(0, back.data(), back.size(), &got).ok());
    EXPECT_EQ(got, data.size());
    EXPECT_EQ(back, data);
    struct stat st;
    ASSERT_EQ(::stat(spill.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
    ASSERT_TRUE(dev->close().ok());
  }
  EXPECT_EQ(budget->used(), 0u) << "the last holder gives the RAM back";
  ::unlink(spill.c_str());
}

TEST(RamFile, TwoOpenersShareOneCopy) {
  auto budget = std::move(RamBudget::create(8 << 20)).value();
  auto a = std::move(RamFile::create(budget)).value();
  auto b = std::move(RamFile::attach(a->name(), budget)).value();  // as another rank would
  a->unlink_name();
  auto da = make_ram_device("a", a, spill_to(scratch_path("ram_unused")));
  auto db = make_ram_device("b", b, spill_to(scratch_path("ram_unused")));
  auto data = random_bytes(100000, 2);
  ASSERT_TRUE(da->write_at(12345, data.data(), data.size()).ok());
  std::vector<char> back(data.size());
  size_t got = 0;
  ASSERT_TRUE(db->read_at(12345, back.data(), back.size(), &got).ok());
  EXPECT_EQ(back, data);
  EXPECT_EQ(*db->size(), 12345u + data.size());
  EXPECT_EQ(budget->used(), uint64_t{1} << 20);  // one copy, one MiB step
}

TEST(RamFile, NamesAreGoneOnceUnlinkedAndStaleOnesAreRemoved) {
  const int before = my_segments();
  auto budget = std::move(RamBudget::create(1 << 20)).value();
  auto file = std::move(RamFile::create(budget)).value();
  EXPECT_EQ(my_segments(), before + 2);
  struct stat st;
  ASSERT_EQ(::stat(("/dev/shm" + file->name()).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  file->unlink_name();
  budget->unlink_name();
  EXPECT_EQ(my_segments(), before);
  // A segment whose creator died: made by a child that exits at once.
  std::string child_name;
  int pipefd[2];
  ASSERT_EQ(::pipe(pipefd), 0);
  pid_t pid = ::fork();
  if (pid == 0) {
    auto s = ShmSegment::create(4096);
    std::string n = s.ok() ? (*s)->name() : "";
    (void)!::write(pipefd[1], n.c_str(), n.size());
    ::_exit(0);  // without unlinking: as after kill -9
  }
  char buf[128] = {};
  ASSERT_GT(::read(pipefd[0], buf, sizeof buf - 1), 0);
  ::close(pipefd[0]);
  ::close(pipefd[1]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_NE(buf[0], '\0') << "the child made no segment";
  // (Another test's pario_init running at the same time may remove it
  // first: what matters is that it is gone afterwards.)
  Result<int> removed = remove_stale_segments();
  ASSERT_TRUE(removed.ok());
  EXPECT_NE(::stat(("/dev/shm" + std::string(buf)).c_str(), &st), 0) << "still there: " << buf;
}

TEST(RamFile, AttachRefusesForeignNames) {
  auto budget = std::move(RamBudget::create(1 << 20)).value();
  EXPECT_EQ(RamFile::attach("/not-pario", budget).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(RamFile::attach("/" + segment_prefix() + "1.0000000000000000", budget).status().code(),
            Code::kNotFound);
}

}  // namespace
}  // namespace pario::device
