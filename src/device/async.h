// Asynchronous requests on devices: submit, then wait or test.
//
// A Request describes one transfer and carries its completion. It is shared
// (std::shared_ptr) by the submitter's handle and the engine working on it,
// so neither side can free it under the other: an engine holds its
// reference until it has published completion, and a handle may be dropped
// only after wait() returned.
//
// Engines:
//   sync     completes the transfer inside submit (a baseline and a fallback);
//   threads  a pool of worker threads running Device::read_at/write_at;
//   io_uring the kernel's ring; requests the kernel cannot take as they are
//            (O_DIRECT unaligned, devices without an fd) go to a thread pool.
// capi builds the process's engine at start from PARIO_IO_ENGINE
// (make_engine). If io_uring was asked for (or "auto") but the kernel or a
// sandbox refuses it, the thread engine runs instead and the reason is
// recorded: pario_io_engine and the statistics notes say so, never silently.
//
// There is no limit on outstanding requests: each engine queues what it
// cannot start yet.
//
// Thread safety: submit/wait/test may be called from any thread; one
// request must not be waited by two threads at once.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "base/config.h"
#include "base/stats.h"
#include "base/status.h"
#include "device/device.h"

namespace pario::device {

class AsyncEngine;

class Request {
 public:
  // `buf` is borrowed until the request is complete. With `exact`, a read
  // that ends early at end of file completes with kOutOfRange.
  Request(IoKind kind, Device* device, uint64_t offset, void* buf, size_t len,
          bool exact);

  const IoKind kind;
  Device* const device;
  const uint64_t offset;
  void* const buf;
  const size_t len;
  const bool exact;

  // Statistics to update on completion (may be null).
  std::shared_ptr<FileStats> stats;
  uint64_t start_nanos = 0;

  bool done() const { return done_.load(std::memory_order_acquire); }
  // Valid once done().
  const Status& status() const { return status_; }
  size_t transferred() const { return transferred_; }

  // Called once by the engine that ran the transfer.
  void complete(Status status, size_t transferred);
  // Blocks until complete() has run (for engines that complete elsewhere).
  void wait_completion();

  // The engine that owns progress of this request (set by submit).
  AsyncEngine* owner = nullptr;
  // io_uring bookkeeping: bytes moved so far, and the reference the ring
  // holds while the request is in the kernel.
  size_t progress = 0;
  std::shared_ptr<Request> in_flight;

 private:
  std::atomic<bool> done_{false};
  Status status_;
  size_t transferred_ = 0;
  std::mutex mu_;
  std::condition_variable cv_;
};

class AsyncEngine {
 public:
  virtual ~AsyncEngine() = default;
  virtual const char* name() const = 0;
  // Starts the request; never fails: a transfer that cannot start completes
  // the request with an error.
  virtual void submit(const std::shared_ptr<Request>& request) = 0;
  // Blocks until the request is complete.
  virtual void wait(Request& request) = 0;
  // Makes progress without blocking; returns done().
  virtual bool test(Request& request) = 0;
};

// Runs a request's transfer synchronously on the calling thread.
void execute(Request& request);

// Waits/tests through whichever engine took the request.
void wait(Request& request);
bool test(Request& request);

std::unique_ptr<AsyncEngine> make_sync_engine();
std::unique_ptr<AsyncEngine> make_thread_engine(int threads);
// Fails with kUnsupported when io_uring is not built in or the kernel
// refuses it; the message says why.
Result<std::unique_ptr<AsyncEngine>> make_uring_engine(unsigned depth, int fallback_threads);

struct EngineOptions {
  IoEngineChoice choice = IoEngineChoice::kAuto;  // PARIO_IO_ENGINE
  int threads = 4;                                // PARIO_ASYNC_THREADS
  unsigned uring_depth = 128;                     // PARIO_URING_DEPTH
};
// The engine the options ask for; io_uring (asked for, or auto) that the
// kernel or a sandbox refuses becomes the thread engine. *description:
// "io_uring", "threads", "sync", or "threads (io_uring unavailable: ...)".
std::unique_ptr<AsyncEngine> make_engine(const EngineOptions& options, std::string* description);

}  // namespace pario::device
