#include "base/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>

namespace pario {
namespace {

TEST(ThreadPool, RunsEveryTaskBeforeDestruction) {
  std::atomic<int> n{0};
  {
    ThreadPool pool(3);
    for (int i = 0; i < 1000; ++i) pool.submit([&n] { n.fetch_add(1); });
  }
  EXPECT_EQ(n.load(), 1000);
}

}  // namespace
}  // namespace pario
