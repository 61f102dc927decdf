// A fixed-size pool of worker threads running queued tasks in FIFO order.
//
// Used by the device layer to complete asynchronous requests where no
// native asynchronous interface (io_uring) serves them. The queue has no
// bound: an application may keep any number of requests outstanding.
//
// Thread safety: submit() may be called from any thread. The destructor
// runs every queued task, then joins the workers.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace pario {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void submit(std::function<void()> task);
  // Queues all of tasks at once: one lock, and no worker woken per task
  // (each wake-up took the submitting thread's core).
  void submit_all(std::vector<std::function<void()>> tasks);
  int size() const { return static_cast<int>(workers_.size()); }

 private:
  void run();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace pario
