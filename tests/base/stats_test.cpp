#include "base/stats.h"

#include <gtest/gtest.h>

namespace pario {
namespace {

TEST(Stats, CountsRandomShareAndHistogram) {
  FileStats s("/x");
  s.record(IoDir::kWrite, false, 0, 1000, 10);
  s.record(IoDir::kWrite, false, 1000, 1000, 10);   // sequential
  s.record(IoDir::kWrite, true, 50000, 100000, 10); // random, async
  DirSnapshot w = s.snapshot(IoDir::kWrite);
  EXPECT_EQ(w.calls, 3u);
  EXPECT_EQ(w.async_calls, 1u);
  EXPECT_EQ(w.bytes, 102000u);
  EXPECT_EQ(w.random, 2u);  // the first access has no predecessor
  EXPECT_EQ(w.histogram[size_bucket(1000)], 2u);
  EXPECT_EQ(w.histogram[size_bucket(100000)], 1u);
  EXPECT_EQ(s.size(), 150000u);
  EXPECT_EQ(s.snapshot(IoDir::kRead).calls, 0u);
}

TEST(Stats, BucketsCoverEverySize) {
  EXPECT_EQ(size_bucket(0), 0);
  EXPECT_EQ(size_bucket(512), 0);
  EXPECT_EQ(size_bucket(513), 1);
  EXPECT_EQ(size_bucket(UINT64_MAX), kSizeBuckets - 1);
  EXPECT_EQ(size_bucket_upper(kSizeBuckets - 1), 0u);
}

TEST(Stats, JsonAndTableNameTheFile) {
  StatsRegistry reg;
  reg.for_path("/s/a\"b")->record(IoDir::kRead, false, 0, 10, 5);
  reg.set_note("io_engine", "threads");
  std::string j = reg.json(3);
  EXPECT_NE(j.find("\"rank\": 3"), std::string::npos);
  EXPECT_NE(j.find("/s/a\\\"b"), std::string::npos);
  EXPECT_NE(j.find("\"io_engine\": \"threads\""), std::string::npos);
  EXPECT_NE(reg.table().find("read"), std::string::npos);
  EXPECT_EQ(reg.for_path("/s/a\"b").get(), reg.for_path("/s/a\"b").get());
}

}  // namespace
}  // namespace pario
