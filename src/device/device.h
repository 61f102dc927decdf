// The device layer (ChemIO's ELIO): one small interface to a byte store.
//
// A Device is an open file-like object addressed by offset; there is no
// seek, so any number of threads may read and write one device at once.
// Backends implement one attempt at a transfer (read_some / write_some,
// which may move fewer bytes than asked, or fail with EINTR); the
// non-virtual read_at / write_at here own the retry loop, so that short
// transfers and interrupted calls are handled once, for every backend, and
// the fault-injecting device exercises exactly the code the real ones use.
//
// Invariants callers rely on:
// - write_at transfers all bytes or returns an error; bytes written by
//   earlier successful calls are never disturbed by a later failure.
// - read_at returns fewer bytes than asked only at end of file.
// - close() is idempotent; any call after close() returns kState.
//
// Ownership: the Device owns its OS resource (fd, memory). Buffers are
// borrowed for the duration of the call.
// Thread safety: all methods may be called concurrently, except close(),
// which must not race with other calls.
#pragma once

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"

namespace pario::device {

enum class IoKind { kRead, kWrite };

// Capabilities a backend reports through caps().
enum Caps : uint32_t {
  kCapDirect = 1u << 0,      // bypasses the page cache (O_DIRECT)
  kCapMemory = 1u << 1,      // bytes live in RAM
  kCapNativeFd = 1u << 2,    // native_fd() is usable by io_uring
};

struct OpenOptions {
  bool read = true;
  bool write = true;
  bool create = false;
  bool truncate = false;
  bool exclusive = false;
  bool direct = false;  // O_DIRECT; unaligned requests are bounced
};

class Device {
 public:
  explicit Device(std::string path) : path_(std::move(path)) {}
  virtual ~Device() = default;
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // Reads up to len bytes at offset; *got < len only at end of file.
  Status read_at(uint64_t offset, void* buf, size_t len, size_t* got);
  // Writes all len bytes at offset, extending the device as needed.
  Status write_at(uint64_t offset, const void* buf, size_t len);
  // Vectored forms: the buffers are filled or drained in order, as one
  // contiguous range starting at offset (one preadv/pwritev where the
  // backend can). Same guarantees as read_at / write_at.
  Status readv_at(uint64_t offset, const iovec* iov, int count, size_t* got);
  Status writev_at(uint64_t offset, const iovec* iov, int count);

  virtual Status sync() = 0;
  virtual Result<uint64_t> size() = 0;
  virtual Status truncate(uint64_t length) = 0;
  virtual Status close() = 0;
  virtual uint32_t caps() const { return 0; }

  // For io_uring: the fd to submit on, or -1; and whether a request may go
  // to the kernel as it is (O_DIRECT needs aligned ones, and extending
  // writes must go through write_at to keep the logical size right).
  virtual int native_fd() const { return -1; }
  virtual bool native_ok(IoKind, uint64_t, const void*, size_t) const {
    return false;
  }

  const std::string& path() const { return path_; }
  // Files in Memory: bytes held in RAM and bytes spilled to disk (0 for
  // other backends).
  virtual uint64_t ram_bytes() const { return 0; }
  virtual uint64_t spilled_bytes() const { return 0; }

 protected:
  // One attempt. Returns the bytes moved (0 for a read = end of file), or
  // an error; an error with sys_errno() EINTR or EAGAIN is retried.
  virtual Result<size_t> read_some(uint64_t offset, void* buf, size_t len) = 0;
  virtual Result<size_t> write_some(uint64_t offset, const void* buf, size_t len) = 0;
  // One attempt at a vectored transfer of count (> 0, none empty) buffers.
  // The default moves the first buffer only; backends with preadv/pwritev
  // move more per call.
  virtual Result<size_t> readv_some(uint64_t offset, const iovec* iov, int count) {
    (void)count;
    return read_some(offset, iov[0].iov_base, iov[0].iov_len);
  }
  virtual Result<size_t> writev_some(uint64_t offset, const iovec* iov, int count) {
    (void)count;
    return write_some(offset, iov[0].iov_base, iov[0].iov_len);
  }
  // Free bytes where the device lives, for "no space" messages; -1 unknown.
  virtual int64_t free_bytes() const { return -1; }
  // The status of a write that moved no bytes and reported no error.
  Status no_progress(uint64_t offset, size_t done, size_t len) const;

 private:
  std::string path_;
};

// Opens a file through the POSIX backend: created 0600, never following a
// symbolic link in the last path component.
Result<std::unique_ptr<Device>> open_posix(const std::string& path,
                                           const OpenOptions& options);

// A file written in full before it takes its name, so that readers of the
// name see the old file or the whole new one. Where the file system has
// O_TMPFILE it has no name until publish(), so a crash while it is written
// leaves nothing behind (a replacing publish names it NAME.new.PID.K for
// the moment before its rename); elsewhere it is made beside its name as
// NAME.new.PID.K (0600, exclusive), removed again unless published.
class NewFile {
 public:
  // A new, empty file that is to become path (in path's directory).
  static Result<NewFile> create(const std::string& path);
  NewFile(NewFile&&) noexcept = default;
  NewFile& operator=(NewFile&&) = delete;
  ~NewFile();  // not published: closed and dropped

  Device& device() { return *device_; }
  // Gives the file its name and closes it. replace: atomically over any
  // file there; otherwise kExists when the name is taken (the new file is
  // then dropped).
  Status publish(bool replace);

 private:
  NewFile() = default;
  std::string path_;
  std::string temp_;  // its name beside path_; empty while it has none
  std::unique_ptr<Device> device_;  // null once published
};

// One logical device striped round-robin over files at `paths` (e.g. one
// per local disk) in units of stripe_size bytes; each opened as open_posix.
Result<std::unique_ptr<Device>> open_striped(const std::vector<std::string>& paths,
                                             uint64_t stripe_size, const OpenOptions& options);

// A device kept in this process's heap: the reference backend of the
// conformance suite (Files in Memory builds its node-shared tier on it).
std::unique_ptr<Device> make_memory_device(const std::string& name);

}  // namespace pario::device
