#include "base/thread_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <vector>

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

// Tasks queued at once each get a worker of their own: two tasks that
// wait for each other meet only if both were woken.
TEST(ThreadPool, SubmitAllWakesAWorkerPerTask) {
  std::atomic<int> arrived{0}, met{0};
  auto meet = [&] {
    arrived.fetch_add(1);
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    while (arrived.load() < 2 && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
    if (arrived.load() == 2) met.fetch_add(1);
  };
  ThreadPool pool(3);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // the workers asleep, waiting for tasks
  pool.submit_all({meet, meet});
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(met.load(), 2);
}

TEST(ThreadPool, SubmitAllRunsEveryTask) {
  std::atomic<int> n{0};
  {
    ThreadPool pool(3);
    pool.submit_all(std::vector<std::function<void()>>(500, [&n] { n.fetch_add(1); }));
  }
  EXPECT_EQ(n.load(), 500);
}

}  // namespace
}  // namespace pario
