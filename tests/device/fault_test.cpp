// Failure paths, through the fault-injecting device.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>

#include "device/fault_device.h"
#include "test_util.h"

namespace pario::device {
namespace {

using testing::random_bytes;

TEST(Fault, ShortTransfersAndEintrAreRetried) {
  FaultPlan plan;
  plan.max_transfer = 3;
  plan.eintr_every = 2;
  auto dev = make_fault_device(make_memory_device("m"), plan);
  auto data = random_bytes(1000, 1);
  ASSERT_TRUE(dev->write_at(10, data.data(), data.size()).ok());
  std::vector<char> back(1000);
  size_t got = 0;
  ASSERT_TRUE(dev->read_at(10, back.data(), back.size(), &got).ok());
  EXPECT_EQ(got, 1000u);
  EXPECT_EQ(back, data);
}

// A device that takes no bytes and reports no error, on a full file
// system: MPI-IO's way of saying the disk is full.
class StalledDevice : public Device {
 public:
  explicit StalledDevice(int64_t free) : Device("/scratch/stalled.dat"), free_(free) {}
  Status sync() override { return Status::Ok(); }
  Result<uint64_t> size() override { return uint64_t{0}; }
  Status truncate(uint64_t) override { return Status::Ok(); }
  Status close() override { return Status::Ok(); }

 protected:
  Result<size_t> read_some(uint64_t, void*, size_t) override { return size_t{0}; }
  Result<size_t> write_some(uint64_t, const void*, size_t) override { return size_t{0}; }
  int64_t free_bytes() const override { return free_; }

 private:
  int64_t free_;
};

TEST(Fault, AWriteWithNoProgressOnAFullDiskIsNoSpace) {
  char data[100] = {0};
  StalledDevice full(0), roomy(int64_t{1} << 30);
  Status s = full.write_at(0, data, sizeof data);
  EXPECT_EQ(s.code(), Code::kNoSpace) << s.message();
  EXPECT_NE(s.message().find("0 of 100 bytes written"), std::string::npos) << s.message();
  const iovec v{data, sizeof data};
  EXPECT_EQ(full.writev_at(0, &v, 1).code(), Code::kNoSpace);
  EXPECT_EQ(roomy.write_at(0, data, sizeof data).code(), Code::kIo);  // a stall with room is not "no space"
}

TEST(Fault, NoSpaceNamesPathAndKeepsEarlierData) {
  FaultPlan plan;
  plan.fail_errno = ENOSPC;
  plan.fail_after_bytes = 5000;
  auto dev = make_fault_device(make_memory_device("/scratch/full.dat"), plan);
  auto first = random_bytes(4000, 2);
  ASSERT_TRUE(dev->write_at(0, first.data(), first.size()).ok());
  auto second = random_bytes(4000, 3);
  Status s = dev->write_at(4000, second.data(), second.size());
  ASSERT_EQ(s.code(), Code::kNoSpace);
  EXPECT_NE(s.message().find("/scratch/full.dat"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("1000 of 4000 bytes written"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("bytes free"), std::string::npos) << s.message();
  std::vector<char> back(4000);
  size_t got = 0;
  ASSERT_TRUE(dev->read_at(0, back.data(), back.size(), &got).ok());
  EXPECT_EQ(back, first);
}

TEST(Fault, IoErrorOnReadIsReported) {
  FaultPlan plan;
  plan.fail_errno = EIO;
  plan.fail_after_bytes = 0;
  plan.fail_reads = true;
  auto dev = make_fault_device(make_memory_device("m"), plan);
  char c;
  size_t got;
  Status s = dev->read_at(0, &c, 1, &got);
  EXPECT_EQ(s.code(), Code::kIo);
  EXPECT_EQ(s.sys_errno(), EIO);
  EXPECT_NE(s.message().find("Input/output error"), std::string::npos);
}

}  // namespace
}  // namespace pario::device
