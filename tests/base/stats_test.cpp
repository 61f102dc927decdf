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

TEST(Stats, CollectiveSumsCountsAndKeepsTheLargest) {
  StatsRegistry reg;
  EXPECT_EQ(reg.table().find("collective I/O"), std::string::npos);  // nothing ran: no rows
  CollectiveSnapshot a;
  a.transfers = 1;
  a.messages_sent = 3;
  a.bytes_sent = 300;
  a.file_requests = 2;
  a.file_bytes = 4096;
  a.largest_request = 4000;
  a.exchange_nanos = 1500000000;
  a.peak_buffer_bytes = 9000;
  CollectiveSnapshot b = a;
  b.largest_request = 96;
  b.peak_buffer_bytes = 10000;
  reg.collective().record(IoDir::kWrite, a);
  reg.collective().record(IoDir::kWrite, b);
  reg.collective().record(IoDir::kRead, b);
  reg.collective().record_setup(2000, 640);
  const CollectiveSnapshot w = reg.collective().snapshot(IoDir::kWrite);
  EXPECT_EQ(w.transfers, 2u);
  EXPECT_EQ(w.messages_sent, 6u);
  EXPECT_EQ(w.bytes_sent, 600u);
  EXPECT_EQ(w.file_bytes, 8192u);
  EXPECT_EQ(w.largest_request, 4000u);      // the largest, not the sum
  EXPECT_EQ(w.peak_buffer_bytes, 10000u);  // likewise
  EXPECT_EQ(w.exchange_nanos, 3000000000u);
  EXPECT_EQ(reg.collective().snapshot(IoDir::kRead).transfers, 1u);
  EXPECT_EQ(reg.collective().setup().plan_bytes, 640u);

  const std::string j = reg.json(0);
  EXPECT_NE(j.find("\"collective\": {\"write\": {\"transfers\": 2, \"messages_sent\": 6, \"messages_received\": 0, "
                   "\"bytes_sent\": 600, \"bytes_received\": 0, \"rounds\": 0, \"file_requests\": 4, "
                   "\"file_bytes\": 8192, \"largest_request\": 4000, \"exchange_seconds\": 3, "
                   "\"io_seconds\": 0, \"peak_buffer_bytes\": 10000}"),
            std::string::npos)
      << j;
  EXPECT_NE(j.find("\"setup\": {\"decompositions\": 1, \"seconds\": 2e-06, \"plan_bytes\": 640}"), std::string::npos)
      << j;
  const std::string t = reg.table();
  EXPECT_NE(t.find("largest request (bytes)"), std::string::npos) << t;
  EXPECT_NE(t.find("decompositions made: 1"), std::string::npos) << t;

  // Totals: two ranks' worth, as gather_stats folds them.
  StatsTotals one = reg.totals(), sum = one;
  for (int i = 0; i < StatsTotals::kCollectiveValues; ++i) sum.collective[i] += one.collective[i];
  const std::string sj = sum.json(2);
  EXPECT_NE(sj.find("\"bytes_sent\": 1200"), std::string::npos) << sj;
  EXPECT_NE(sj.find("\"largest_request\": 4000"), std::string::npos) << sj;  // the most, not 8000
  EXPECT_NE(sj.find("\"most\": {\"write\": {\"transfers\": 2, \"messages_sent\": 6"), std::string::npos) << sj;
  EXPECT_NE(sum.table(2).find("write, most"), std::string::npos);

  reg.clear();
  EXPECT_EQ(reg.collective().snapshot(IoDir::kWrite).transfers, 0u);
  EXPECT_EQ(reg.collective().setup().decompositions, 0u);
}

}  // namespace
}  // namespace pario
