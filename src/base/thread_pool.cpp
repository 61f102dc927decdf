#include "base/thread_pool.h"

namespace pario {

ThreadPool::ThreadPool(int threads) {
  workers_.reserve(threads);
  for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { run(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  for (auto& w : workers_) w.join();
}

void ThreadPool::submit(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(task));
  }
  cv_.notify_one();
}

void ThreadPool::submit_all(std::vector<std::function<void()>> tasks) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& task : tasks) queue_.push_back(std::move(task));
  }
  if (tasks.size() >= workers_.size()) {
    cv_.notify_all();
  } else {
    for (size_t i = 0; i < tasks.size(); ++i) cv_.notify_one();
  }
}

void ThreadPool::run() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping and drained
      task = std::move(queue_.front());
      queue_.pop_front();
    }
    task();
  }
}

}  // namespace pario
