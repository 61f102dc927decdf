#include "base/buffer_pool.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <utility>
#include <vector>

namespace pario {
namespace {

TEST(BufferPool, ReusesAReturnedBufferThatFits) {
  BufferPool pool(4 << 20);
  char* first = nullptr;
  {
    BufferPool::Buffer b = pool.take(1 << 20);
    ASSERT_EQ(b.size(), size_t{1} << 20);
    std::memset(b.data(), 7, b.size());  // all of it is writable
    first = b.data();
  }
  EXPECT_EQ(pool.idle_bytes(), size_t{1} << 20);
  BufferPool::Buffer again = pool.take((1 << 20) - 8);  // a little smaller still fits
  EXPECT_EQ(again.data(), first);
  EXPECT_EQ(again.size(), size_t{(1 << 20) - 8});
  EXPECT_EQ(pool.idle_bytes(), 0u);
  BufferPool::Buffer small = pool.take(1000);  // nothing idle: a new one
  EXPECT_NE(small.data(), first);
}

TEST(BufferPool, DoesNotHandOutAMuchLargerBuffer) {
  BufferPool pool(4 << 20);
  pool.take(1 << 20).reset();
  BufferPool::Buffer b = pool.take(1000);
  EXPECT_EQ(pool.idle_bytes(), size_t{1} << 20);  // the MiB stays idle for a MiB request
}

TEST(BufferPool, KeepsIdleBuffersUpToItsCapAndTrimFreesThem) {
  BufferPool pool(3000);
  {
    std::vector<BufferPool::Buffer> held;
    for (int i = 0; i < 5; ++i) held.push_back(pool.take(1000));
  }
  EXPECT_EQ(pool.idle_bytes(), 3000u);
  pool.trim();
  EXPECT_EQ(pool.idle_bytes(), 0u);
}

TEST(BufferPool, MovedBuffersReturnOnce) {
  BufferPool pool(1 << 20);
  BufferPool::Buffer a = pool.take(100);
  BufferPool::Buffer b = std::move(a);
  EXPECT_TRUE(a.empty());
  EXPECT_EQ(b.size(), 100u);
  a = std::move(b);
  b.reset();
  EXPECT_EQ(pool.idle_bytes(), 0u);
  a.reset();
  EXPECT_EQ(pool.idle_bytes(), 100u);
  EXPECT_TRUE(pool.take(0).empty());
}

TEST(BufferPool, ThreadsTakeAndReturnAtOnce) {
  BufferPool pool(64 << 10);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&pool, t] {
      for (int i = 0; i < 2000; ++i) {
        BufferPool::Buffer b = pool.take(static_cast<size_t>(1024 + (i % 7) * 512));
        std::memset(b.data(), t, b.size());
        if (i % 500 == 0) pool.trim();
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_LE(pool.idle_bytes(), size_t{64} << 10);
}

}  // namespace
}  // namespace pario
