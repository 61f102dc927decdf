#include "device/async.h"

#include <mutex>

#include "base/thread_pool.h"

namespace pario::device {

Request::Request(IoKind kind_, Device* device_, uint64_t offset_, void* buf_,
                 size_t len_, bool exact_)
    : kind(kind_), device(device_), offset(offset_), buf(buf_), len(len_), exact(exact_) {}

void Request::complete(Status status, size_t transferred) {
  if (status.ok() && exact && kind == IoKind::kRead && transferred < len) {
    status = Status(Code::kOutOfRange,
                    device->path() + ": read past end of file: " +
                        std::to_string(transferred) + " of " + std::to_string(len) +
                        " bytes at offset " + std::to_string(offset));
  }
  if (stats && status.ok()) {
    stats->record(kind == IoKind::kRead ? IoDir::kRead : IoDir::kWrite, true, offset,
                  transferred, now_nanos() - start_nanos);
  }
  // Publish under the mutex and notify while holding it: a waiter may free
  // the request as soon as it sees done, so nothing here may touch *this
  // after the unlock.
  std::lock_guard<std::mutex> lock(mu_);
  status_ = std::move(status);
  transferred_ = transferred;
  done_.store(true, std::memory_order_release);
  cv_.notify_all();
}

void Request::wait_completion() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return done(); });
}

void execute(Request& r) {
  if (r.kind == IoKind::kRead) {
    size_t got = 0;
    Status s = r.device->read_at(r.offset, r.buf, r.len, &got);
    r.complete(std::move(s), got);
  } else {
    Status s = r.device->write_at(r.offset, r.buf, r.len);
    size_t n = s.ok() ? r.len : 0;
    r.complete(std::move(s), n);
  }
}

void wait(Request& r) {
  if (!r.done()) r.owner->wait(r);
}

bool test(Request& r) { return r.done() || r.owner->test(r); }

namespace {

class SyncEngine final : public AsyncEngine {
 public:
  const char* name() const override { return "sync"; }
  void submit(const std::shared_ptr<Request>& r) override {
    r->owner = this;
    execute(*r);
  }
  void wait(Request& r) override { r.wait_completion(); }
  bool test(Request& r) override { return r.done(); }
};

class ThreadEngine final : public AsyncEngine {
 public:
  explicit ThreadEngine(int threads) : pool_(threads) {}
  const char* name() const override { return "threads"; }
  void submit(const std::shared_ptr<Request>& r) override {
    r->owner = this;
    pool_.submit([r] { execute(*r); });
  }
  void wait(Request& r) override { r.wait_completion(); }
  bool test(Request& r) override { return r.done(); }

 private:
  ThreadPool pool_;
};

}  // namespace

std::unique_ptr<AsyncEngine> make_sync_engine() { return std::make_unique<SyncEngine>(); }

std::unique_ptr<AsyncEngine> make_thread_engine(int threads) {
  return std::make_unique<ThreadEngine>(threads);
}

std::unique_ptr<AsyncEngine> make_engine(const EngineOptions& options, std::string* description) {
  std::unique_ptr<AsyncEngine> engine;
  std::string why;
  switch (options.choice) {
    case IoEngineChoice::kSync:
      engine = make_sync_engine();
      break;
    case IoEngineChoice::kThreads:
      engine = make_thread_engine(options.threads);
      break;
    case IoEngineChoice::kAuto:
    case IoEngineChoice::kUring: {
      auto r = make_uring_engine(options.uring_depth, options.threads);
      if (r.ok()) {
        engine = std::move(r).value();
      } else {
        engine = make_thread_engine(options.threads);
        why = std::string("threads (io_uring unavailable: ") + r.status().message() + ")";
      }
      break;
    }
  }
  if (description) *description = why.empty() ? engine->name() : why;
  return engine;
}

}  // namespace pario::device
