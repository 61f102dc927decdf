// The POSIX backend: pread/pwrite on one file descriptor.
//
// O_DIRECT mode. The kernel moves data straight between the disk and the
// user's buffer, but only when buffer address, offset and length are
// multiples of the device's direct-I/O alignment. Users of a scratch file do
// not think in disk blocks, so unaligned requests are served through a
// per-thread aligned bounce buffer:
//   read:  read the covering aligned range, copy out the asked part;
//   write: read the covering blocks, patch the asked bytes in, write back.
// The write path is a read-modify-write of whole blocks, so two writes that
// touch the same block must not interleave, and a padded write past the end
// of file must be cut back to the true size. Both are done under one mutex
// (unaligned or size-extending writes only; aligned writes inside the file
// and all reads stay lock-free). The logical size is kept here, updated
// before the lock is released, so a concurrent size() never sees padding.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "device/device.h"

namespace pario::device {
namespace {

constexpr size_t kDirectAlign = 4096;
constexpr size_t kMaxBounce = size_t{4} << 20;  // bytes per bounced attempt

bool aligned(uint64_t x) { return x % kDirectAlign == 0; }
uint64_t align_down(uint64_t x) { return x - x % kDirectAlign; }
uint64_t align_up(uint64_t x) { return align_down(x + kDirectAlign - 1); }

// A growing, page-aligned scratch buffer per thread, reused across calls so
// that bounced requests do not pay an allocation each.
struct BounceBuffer {
  void* data = nullptr;
  size_t capacity = 0;
  ~BounceBuffer() { std::free(data); }
  char* get(size_t n) {
    if (n > capacity) {
      std::free(data);
      data = std::aligned_alloc(kDirectAlign, n);
      capacity = data ? n : 0;
    }
    return static_cast<char*>(data);
  }
};
thread_local BounceBuffer bounce;

class PosixDevice final : public Device {
 public:
  PosixDevice(std::string path, int fd, bool direct, uint64_t size)
      : Device(std::move(path)), fd_(fd), direct_(direct), logical_size_(size) {}
  ~PosixDevice() override {
    if (fd_ >= 0) ::close(fd_);
  }

  Status sync() override {
    if (fd_ < 0) return closed();
    if (::fsync(fd_) != 0) return errno_status(errno, path() + ": fsync");
    return Status::Ok();
  }

  Result<uint64_t> size() override {
    if (fd_ < 0) return closed();
    if (direct_) return logical_size_.load(std::memory_order_acquire);
    struct stat st;
    if (::fstat(fd_, &st) != 0) return errno_status(errno, path() + ": fstat");
    return static_cast<uint64_t>(st.st_size);
  }

  Status truncate(uint64_t length) override {
    if (fd_ < 0) return closed();
    std::lock_guard<std::mutex> lock(mu_);
    if (::ftruncate(fd_, static_cast<off_t>(length)) != 0) {
      return errno_status(errno, path() + ": truncate to " + std::to_string(length));
    }
    logical_size_.store(length, std::memory_order_release);
    return Status::Ok();
  }

  Status close() override {
    if (fd_ < 0) return Status::Ok();
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) return errno_status(errno, path() + ": close");
    return Status::Ok();
  }

  uint32_t caps() const override {
    return kCapNativeFd | (direct_ ? kCapDirect : 0u);
  }
  int native_fd() const override { return fd_; }
  bool native_ok(IoKind kind, uint64_t offset, const void* buf, size_t len) const override {
    if (!direct_) return true;
    if (!aligned(offset) || !aligned(len) ||
        !aligned(reinterpret_cast<uintptr_t>(buf))) {
      return false;
    }
    return kind == IoKind::kRead ||
           offset + len <= logical_size_.load(std::memory_order_acquire);
  }

 protected:
  Result<size_t> read_some(uint64_t offset, void* buf, size_t len) override {
    if (fd_ < 0) return closed();
    if (!direct_ || native_ok(IoKind::kRead, offset, buf, len)) {
      return sys_pread(buf, len, offset);
    }
    // Aligned start and buffer: read the aligned prefix directly; the
    // remainder comes back through here and takes the bounce path.
    if (aligned(offset) && aligned(reinterpret_cast<uintptr_t>(buf)) && len >= kDirectAlign) {
      return sys_pread(buf, align_down(len), offset);
    }
    uint64_t a0 = align_down(offset);
    uint64_t a1 = std::min(align_up(offset + len), a0 + kMaxBounce);
    char* tmp = bounce.get(a1 - a0);
    if (!tmp) return Status(Code::kNoMemory, "O_DIRECT bounce buffer");
    PARIO_ASSIGN_OR_RETURN(size_t n, sys_pread(tmp, a1 - a0, a0));
    size_t skip = offset - a0;
    if (n <= skip) return size_t{0};  // end of file
    size_t take = std::min(len, n - skip);
    std::memcpy(buf, tmp + skip, take);
    return take;
  }

  Result<size_t> write_some(uint64_t offset, const void* buf, size_t len) override {
    if (fd_ < 0) return closed();
    if (!direct_) return sys_pwrite(buf, len, offset);
    if (native_ok(IoKind::kWrite, offset, buf, len)) return sys_pwrite(buf, len, offset);

    std::lock_guard<std::mutex> lock(mu_);
    uint64_t old_size = logical_size_.load(std::memory_order_acquire);
    size_t n;
    if (aligned(offset) && aligned(len) && aligned(reinterpret_cast<uintptr_t>(buf))) {
      PARIO_ASSIGN_OR_RETURN(n, sys_pwrite(buf, len, offset));
    } else {
      uint64_t a0 = align_down(offset);
      uint64_t a1 = std::min(align_up(offset + len), a0 + kMaxBounce);
      size_t take = std::min<uint64_t>(len, a1 - offset);
      char* tmp = bounce.get(a1 - a0);
      if (!tmp) return Status(Code::kNoMemory, "O_DIRECT bounce buffer");
      // Only the edge blocks hold bytes we must keep; the middle is replaced.
      std::memset(tmp, 0, a1 - a0);
      PARIO_RETURN_IF_ERROR(fill_block(tmp, a0, old_size));
      if (a1 - a0 > kDirectAlign) {
        PARIO_RETURN_IF_ERROR(fill_block(tmp + (a1 - a0 - kDirectAlign), a1 - kDirectAlign, old_size));
      }
      std::memcpy(tmp + (offset - a0), buf, take);
      PARIO_ASSIGN_OR_RETURN(size_t written, sys_pwrite(tmp, a1 - a0, a0));
      if (written < offset - a0 + take) {
        // A short padded write: count only the user's bytes that landed.
        n = written > offset - a0 ? written - (offset - a0) : 0;
      } else {
        n = take;
      }
    }
    uint64_t new_size = std::max(old_size, offset + n);
    if (align_up(offset + n) > new_size || align_up(offset + len) > new_size) {
      if (::ftruncate(fd_, static_cast<off_t>(new_size)) != 0) {
        return errno_status(errno, "ftruncate after padded O_DIRECT write");
      }
    }
    logical_size_.store(new_size, std::memory_order_release);
    return n;
  }

  int64_t free_bytes() const override {
    struct statvfs sv;
    if (fd_ < 0 || ::fstatvfs(fd_, &sv) != 0) return -1;
    return static_cast<int64_t>(sv.f_bavail) * static_cast<int64_t>(sv.f_frsize);
  }

 private:
  static Status closed() { return Status(Code::kState, "device is closed"); }

  Result<size_t> sys_pread(void* buf, size_t len, uint64_t offset) {
    ssize_t n = ::pread(fd_, buf, len, static_cast<off_t>(offset));
    if (n < 0) return errno_status(errno, "");
    return static_cast<size_t>(n);
  }
  Result<size_t> sys_pwrite(const void* buf, size_t len, uint64_t offset) {
    ssize_t n = ::pwrite(fd_, buf, len, static_cast<off_t>(offset));
    if (n < 0) return errno_status(errno, "");
    return static_cast<size_t>(n);
  }

  // Loads the existing block at `at` into dst (zeros past end of file).
  Status fill_block(char* dst, uint64_t at, uint64_t file_size) {
    if (at >= file_size) return Status::Ok();
    size_t have = 0;
    while (have < kDirectAlign) {
      Result<size_t> r = sys_pread(dst + have, kDirectAlign - have, at + have);
      if (!r.ok()) {
        if (r.status().sys_errno() == EINTR) continue;
        return std::move(r).status();
      }
      if (*r == 0) break;
      have += *r;
    }
    return Status::Ok();
  }

  int fd_;
  const bool direct_;
  std::mutex mu_;
  std::atomic<uint64_t> logical_size_;
};

}  // namespace

Result<std::unique_ptr<Device>> open_posix(const std::string& path,
                                           const OpenOptions& o) {
  if (path.empty()) return Status(Code::kInvalidArgument, "empty path");
  if (!o.read && !o.write) {
    return Status(Code::kInvalidArgument, path + ": neither read nor write asked");
  }
  int flags = O_CLOEXEC | O_NOFOLLOW;
  flags |= (o.read && o.write) ? O_RDWR : (o.write ? O_WRONLY : O_RDONLY);
  if (o.create) flags |= O_CREAT;
  if (o.truncate) flags |= O_TRUNC;
  if (o.exclusive) flags |= O_CREAT | O_EXCL;
  // An O_DIRECT write-only file still needs read access for the
  // read-modify-write of partial blocks.
  if (o.direct) flags = (flags & ~(O_WRONLY | O_RDONLY)) | (o.write ? O_RDWR : O_RDONLY) | O_DIRECT;
  int fd;
  do {
    fd = ::open(path.c_str(), flags, 0600);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    int err = errno;
    if (err == EINVAL && o.direct) {
      return Status(Code::kUnsupported, path + ": the file system refuses O_DIRECT", err);
    }
    return errno_status(err, path);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return errno_status(err, path + ": fstat");
  }
  if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode)) {
    ::close(fd);
    return Status(Code::kInvalidArgument, path + ": not a regular file");
  }
  return std::unique_ptr<Device>(
      new PosixDevice(path, fd, o.direct, static_cast<uint64_t>(st.st_size)));
}

}  // namespace pario::device
