// Private files (ChemIO's Exclusive Access Files): one process's
// byte-addressable scratch file.
//
// A PrivateFile is a thin layer over one Device that adds what users of EAF
// rely on: exact reads (a read that runs past end of file is an error, not
// a short count), access-mode checks, statistics, and asynchronous reads
// and writes whose requests close() completes before the device goes away.
//
// Ownership: a PrivateFile owns its Device. A buffer passed to iread/iwrite
// is borrowed until the request is complete (wait or test returned done).
// Thread safety: reads, writes and requests from several threads at once
// are safe; close() must not race with other calls on the same file.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/stats.h"
#include "base/status.h"
#include "device/async.h"
#include "device/device.h"
#include "file/backend.h"

namespace pario::file {

struct PrivateFileOptions {
  bool read = true;
  bool write = true;
  bool create = true;
  bool truncate = false;
  bool exclusive = false;
  bool direct = false;  // also forced on by FileSettings::direct (PARIO_DIRECT=1)
};

class PrivateFile {
 public:
  // Opens `path` on the settings' backend (file/backend.h), Files in
  // Memory and engine.
  static Result<std::unique_ptr<PrivateFile>> open(const std::string& path,
                                                   const PrivateFileOptions& options,
                                                   const FileSettings& settings);
  // Wraps an already open device (memory, fault-injecting, ...); its
  // requests go to engine.
  static Result<std::unique_ptr<PrivateFile>> wrap(std::unique_ptr<device::Device> device,
                                                   bool readable, bool writable,
                                                   device::AsyncEngine* engine);
  ~PrivateFile();

  // Reads exactly len bytes; kOutOfRange if the file ends first.
  Status read(uint64_t offset, void* buf, size_t len);
  Status write(uint64_t offset, const void* buf, size_t len);
  // Vectored: the buffers in order as one range from offset; exact reads.
  Status readv(uint64_t offset, const iovec* iov, int count);
  Status writev(uint64_t offset, const iovec* iov, int count);
  Result<std::shared_ptr<device::Request>> iread(uint64_t offset, void* buf, size_t len);
  Result<std::shared_ptr<device::Request>> iwrite(uint64_t offset, const void* buf, size_t len);

  Result<uint64_t> length();
  Status truncate(uint64_t length);
  Status sync();
  // Completes outstanding requests, then closes the device. Idempotent.
  Status close();

  const std::string& path() const { return device_->path(); }
  device::Device& device() { return *device_; }

 private:
  PrivateFile(std::unique_ptr<device::Device> device, bool readable, bool writable,
              device::AsyncEngine* engine);
  Status check_open(const char* op, bool want_write) const;
  // read() and write() through the device: every case the one-call fast
  // path does not finish (short transfers, EINTR, errors and their
  // messages, statistics, O_DIRECT, devices with no descriptor).
  Status read_through(uint64_t offset, void* buf, size_t len);
  Status write_through(uint64_t offset, const void* buf, size_t len);
  // Exact reads: kOutOfRange when the file ended after got of len bytes.
  Status check_whole(size_t got, size_t len, uint64_t offset) const;
  Result<std::shared_ptr<device::Request>> submit(device::IoKind kind, uint64_t offset,
                                                  void* buf, size_t len);

  std::unique_ptr<device::Device> device_;
  const bool readable_;
  const bool writable_;
  device::AsyncEngine* engine_;
  std::shared_ptr<FileStats> stats_;  // null when statistics are off
  // The device's own descriptor when a buffered pread/pwrite on it is the
  // whole transfer (a POSIX device without O_DIRECT), else -1. A blocking
  // read or write first tries one call on it: no virtual call, Result or
  // retry loop between the caller and the kernel when it moves all bytes.
  int fast_fd_ = -1;
  bool closed_ = false;

  std::mutex pending_mu_;
  std::vector<std::shared_ptr<device::Request>> pending_;
};

}  // namespace pario::file
