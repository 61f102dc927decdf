// The io_uring engine.
//
// Submission and completion are separate sides of the ring and liburing
// allows one thread on each at once, so each side has its own mutex.
//
// Completions are reaped by the threads that wait, not by a helper thread:
// a completion thread would add a wake-up per request, which at queue depth
// 32 on two cores costs more than the I/O. One waiter at a time is the
// reaper (it blocks in the kernel with the completion mutex released and a
// `reaping_` flag set); the others sleep on a condition variable and are
// woken after every batch, so a request completed by someone else's reap
// returns promptly.
//
// The ring never holds more than its depth of requests; the rest wait in a
// backlog and enter the ring as completions free slots, so the number of
// outstanding requests is unbounded and the completion queue can never
// overflow. Short transfers, EINTR and EAGAIN are resubmitted for the
// remainder; a zero-byte read is end of file.
#include "device/async.h"

#if PARIO_HAVE_LIBURING
#include <liburing.h>

#include <cerrno>
#include <cstring>
#include <deque>
#endif

namespace pario::device {

#if PARIO_HAVE_LIBURING
namespace {

constexpr size_t kMaxSqeBytes = size_t{1} << 30;  // io_uring lengths are 32-bit

class UringEngine final : public AsyncEngine {
 public:
  UringEngine(unsigned depth, std::unique_ptr<AsyncEngine> fallback)
      : depth_(depth), fallback_(std::move(fallback)) {}
  ~UringEngine() override { io_uring_queue_exit(&ring_); }

  Status init() {
    int rc = io_uring_queue_init(depth_, &ring_, 0);
    if (rc < 0) return errno_status(-rc, "io_uring_queue_init");
    return Status::Ok();
  }

  const char* name() const override { return "io_uring"; }

  void submit(const std::shared_ptr<Request>& r) override {
    if (r->device->native_fd() < 0 ||
        !r->device->native_ok(r->kind, r->offset, r->buf, r->len)) {
      fallback_->submit(r);
      return;
    }
    r->owner = this;
    r->in_flight = r;
    std::lock_guard<std::mutex> lock(sq_mu_);
    if (in_flight_ >= depth_) {
      backlog_.push_back(r.get());
    } else {
      enqueue_locked(r.get());
    }
  }

  void wait(Request& r) override {
    std::unique_lock<std::mutex> lock(cq_mu_);
    while (!r.done()) {
      if (reaping_) {
        cq_cv_.wait(lock);
        continue;
      }
      reaping_ = true;
      lock.unlock();
      flush_unsubmitted();
      io_uring_cqe* cqe = nullptr;
      int rc = io_uring_wait_cqe(&ring_, &cqe);
      if (rc == 0) reap_ready();
      lock.lock();
      reaping_ = false;
      cq_cv_.notify_all();
    }
  }

  bool test(Request& r) override {
    if (r.done()) return true;
    std::unique_lock<std::mutex> lock(cq_mu_, std::try_to_lock);
    if (lock.owns_lock() && !reaping_) reap_ready();
    return r.done();
  }

 private:
  // Puts one request (or its remainder) into the ring. sq_mu_ held.
  void enqueue_locked(Request* r) {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    if (!sqe) {  // cannot happen while in_flight_ < depth_; stay correct anyway
      backlog_.push_front(r);
      return;
    }
    size_t n = std::min(r->len - r->progress, kMaxSqeBytes);
    char* p = static_cast<char*>(r->buf) + r->progress;
    uint64_t off = r->offset + r->progress;
    if (r->kind == IoKind::kRead) {
      io_uring_prep_read(sqe, r->device->native_fd(), p, static_cast<unsigned>(n), off);
    } else {
      io_uring_prep_write(sqe, r->device->native_fd(), p, static_cast<unsigned>(n), off);
    }
    io_uring_sqe_set_data(sqe, r);
    ++in_flight_;
    int rc;
    do {
      rc = io_uring_submit(&ring_);
    } while (rc == -EINTR || rc == -EAGAIN);
    // On another error the sqe stays queued in the ring: the next submit or
    // the next reaper (flush_unsubmitted) hands it to the kernel.
    (void)rc;
  }

  // Submits sqes a failed io_uring_submit left behind, so a waiter never
  // blocks on a request the kernel has not been given.
  void flush_unsubmitted() {
    std::lock_guard<std::mutex> lock(sq_mu_);
    if (io_uring_sq_ready(&ring_) > 0) io_uring_submit(&ring_);
  }

  // Processes every completion already in the queue (reaper only).
  void reap_ready() {
    io_uring_cqe* cqe;
    while (io_uring_peek_cqe(&ring_, &cqe) == 0) {
      auto* r = static_cast<Request*>(io_uring_cqe_get_data(cqe));
      int res = cqe->res;
      io_uring_cqe_seen(&ring_, cqe);
      finish(r, res);
    }
  }

  void finish(Request* r, int res) {
    bool resubmit = false;
    Status error;
    if (res == -EINTR || res == -EAGAIN) {
      resubmit = true;
    } else if (res < 0) {
      error = errno_status(-res, r->device->path() + (r->kind == IoKind::kRead ? ": read" : ": write") +
                                     " at offset " + std::to_string(r->offset + r->progress));
    } else if (res == 0 && r->kind == IoKind::kWrite && r->progress < r->len) {
      error = Status(Code::kIo, r->device->path() + ": write made no progress");
    } else {
      r->progress += static_cast<size_t>(res);
      resubmit = res > 0 && r->progress < r->len;
    }
    std::shared_ptr<Request> keep;
    {
      std::lock_guard<std::mutex> lock(sq_mu_);
      --in_flight_;
      if (resubmit) {
        enqueue_locked(r);
      } else {
        keep = std::move(r->in_flight);  // release the ring's reference after completing
      }
      while (!backlog_.empty() && in_flight_ < depth_) {
        Request* next = backlog_.front();
        backlog_.pop_front();
        enqueue_locked(next);
      }
    }
    if (!resubmit) r->complete(std::move(error), error.ok() ? r->progress : 0);
  }

  io_uring ring_{};
  const unsigned depth_;
  std::unique_ptr<AsyncEngine> fallback_;

  std::mutex sq_mu_;
  unsigned in_flight_ = 0;
  std::deque<Request*> backlog_;

  std::mutex cq_mu_;
  std::condition_variable cq_cv_;
  bool reaping_ = false;
};

}  // namespace

Result<std::unique_ptr<AsyncEngine>> make_uring_engine(unsigned depth, int fallback_threads) {
  auto engine = std::make_unique<UringEngine>(depth, make_thread_engine(fallback_threads));
  Status s = engine->init();
  if (!s.ok()) return Status(Code::kUnsupported, s.message(), s.sys_errno());
  return std::unique_ptr<AsyncEngine>(std::move(engine));
}

#else

Result<std::unique_ptr<AsyncEngine>> make_uring_engine(unsigned, int) {
  return Status(Code::kUnsupported, "pario was built without liburing");
}

#endif

}  // namespace pario::device
