// The POSIX backend: pread/pwrite on one file descriptor.
//
// O_DIRECT mode. The kernel moves data straight between the disk and the
// user's buffer, but only when buffer address, offset and length are
// multiples of the device's direct-I/O alignment. Users of a scratch file do
// not think in disk blocks, so:
//   - the whole aligned blocks of a request go direct, through a per-thread
//     aligned bounce buffer when the user's buffer is not aligned;
//   - a write's partial blocks at either end go through a second,
//     buffered descriptor on the same file. The page cache merges them with
//     whatever else shares the block, and the kernel writes cached pages
//     back before any direct transfer of that range, so the two paths stay
//     coherent;
//   - a read's partial blocks are read direct as whole blocks into the
//     bounce buffer and copied out.
// Nothing is ever padded or read-modify-written, so the file's size is
// always exact and writers of disjoint bytes never disturb each other, even
// within one block and from different processes (a shared file).
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "device/device.h"

namespace pario::device {
namespace {

// O_DIRECT alignment when the file system does not say (statx's
// STATX_DIOALIGN, Linux 6.1+, reports the real one, e.g. 512 on ext4).
constexpr uint32_t kDefaultDirectAlign = 4096;
constexpr size_t kMaxBounce = size_t{4} << 20;  // bytes per bounced attempt

// A growing, page-aligned scratch buffer per thread, reused across calls so
// that bounced requests do not pay an allocation each.
struct BounceBuffer {
  void* data = nullptr;
  size_t capacity = 0;
  ~BounceBuffer() { std::free(data); }
  char* get(size_t n) {
    if (n > capacity) {
      std::free(data);
      n = (n + 4095) / 4096 * 4096;
      data = std::aligned_alloc(4096, n);  // covers any alignment up to a page
      capacity = data ? n : 0;
    }
    return static_cast<char*>(data);
  }
};

// The direct-I/O alignment of an open file: offsets, lengths and buffer
// addresses must all be multiples of it.
uint32_t direct_alignment(int fd) {
  struct statx sx;
  if (::statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 && (sx.stx_mask & STATX_DIOALIGN) &&
      sx.stx_dio_offset_align > 0) {
    const uint32_t a = std::max(sx.stx_dio_offset_align, sx.stx_dio_mem_align);
    if (a <= 4096 && (a & (a - 1)) == 0) return a;  // the bounce buffer's alignment bounds it
  }
  return kDefaultDirectAlign;
}
thread_local BounceBuffer bounce;

class PosixDevice final : public Device {
 public:
  // buffered_fd: the same file without O_DIRECT (direct mode only, else -1).
  PosixDevice(std::string path, int fd, int buffered_fd, uint32_t align)
      : Device(std::move(path)), fd_(fd), buffered_fd_(buffered_fd), align_(align) {}
  ~PosixDevice() override { (void)close(); }

  // fdatasync: the data and the metadata needed to read it back (the size
  // of a file that grew) reach the disk as with fsync; only timestamps may
  // lag, which no reader of pario's files depends on. The benchmarks'
  // file-per-rank limit syncs the same way.
  Status sync() override {
    if (fd_ < 0) return closed();
    if (::fdatasync(fd_) != 0) return errno_status(errno, path() + ": fdatasync");
    return Status::Ok();
  }

  Result<uint64_t> size() override {
    if (fd_ < 0) return closed();
    struct stat st;
    if (::fstat(fd_, &st) != 0) return errno_status(errno, path() + ": fstat");
    return static_cast<uint64_t>(st.st_size);
  }

  Status truncate(uint64_t length) override {
    if (fd_ < 0) return closed();
    if (::ftruncate(fd_, static_cast<off_t>(length)) != 0) {
      return errno_status(errno, path() + ": truncate to " + std::to_string(length));
    }
    return Status::Ok();
  }

  Status close() override {
    if (fd_ < 0) return Status::Ok();
    int fd = fd_;
    fd_ = -1;
    if (buffered_fd_ >= 0) ::close(buffered_fd_);
    buffered_fd_ = -1;
    if (::close(fd) != 0) return errno_status(errno, path() + ": close");
    return Status::Ok();
  }

  uint32_t caps() const override {
    return kCapNativeFd | (direct() ? kCapDirect : 0u);
  }
  int native_fd() const override { return fd_; }
  bool native_ok(IoKind, uint64_t offset, const void* buf, size_t len) const override {
    return !direct() ||
           (aligned(offset) && aligned(len) && aligned(reinterpret_cast<uintptr_t>(buf)));
  }

 protected:
  Result<size_t> read_some(uint64_t offset, void* buf, size_t len) override {
    if (fd_ < 0) return closed();
    if (native_ok(IoKind::kRead, offset, buf, len)) return sys_pread(fd_, buf, len, offset);
    // Aligned start and buffer: read the aligned prefix directly; the
    // remainder comes back through here and takes the bounce path.
    if (aligned(offset) && aligned(reinterpret_cast<uintptr_t>(buf)) && len >= align_) {
      return sys_pread(fd_, buf, align_down(len), offset);
    }
    uint64_t a0 = align_down(offset);
    uint64_t a1 = std::min(align_up(offset + len), a0 + kMaxBounce);
    char* tmp = bounce.get(a1 - a0);
    if (!tmp) return Status(Code::kNoMemory, "O_DIRECT bounce buffer");
    PARIO_ASSIGN_OR_RETURN(size_t n, sys_pread(fd_, tmp, a1 - a0, a0));
    size_t skip = offset - a0;
    if (n <= skip) return size_t{0};  // end of file
    size_t take = std::min(len, n - skip);
    std::memcpy(buf, tmp + skip, take);
    return take;
  }

  // Moves one piece; write_at calls again for the rest.
  Result<size_t> write_some(uint64_t offset, const void* buf, size_t len) override {
    if (fd_ < 0) return closed();
    if (native_ok(IoKind::kWrite, offset, buf, len)) return sys_pwrite(fd_, buf, len, offset);
    if (!aligned(offset)) {  // head: up to the next block boundary
      return sys_pwrite(buffered_fd_, buf, std::min<uint64_t>(len, align_up(offset) - offset), offset);
    }
    if (len < align_) return sys_pwrite(buffered_fd_, buf, len, offset);  // tail
    const size_t blocks = align_down(len);
    if (aligned(reinterpret_cast<uintptr_t>(buf))) return sys_pwrite(fd_, buf, blocks, offset);
    const size_t n = std::min(blocks, kMaxBounce);
    char* tmp = bounce.get(n);
    if (!tmp) return Status(Code::kNoMemory, "O_DIRECT bounce buffer");
    std::memcpy(tmp, buf, n);
    return sys_pwrite(fd_, tmp, n, offset);
  }

  // Buffered: one preadv/pwritev. O_DIRECT: buffer by buffer, since each
  // has its own alignment.
  Result<size_t> readv_some(uint64_t offset, const iovec* iov, int count) override {
    if (fd_ < 0) return closed();
    if (direct()) return read_some(offset, iov[0].iov_base, iov[0].iov_len);
    ssize_t n = ::preadv(fd_, iov, std::min(count, IOV_MAX), static_cast<off_t>(offset));
    if (n < 0) return errno_status(errno, "");
    return static_cast<size_t>(n);
  }
  Result<size_t> writev_some(uint64_t offset, const iovec* iov, int count) override {
    if (fd_ < 0) return closed();
    if (direct()) return write_some(offset, iov[0].iov_base, iov[0].iov_len);
    ssize_t n = ::pwritev(fd_, iov, std::min(count, IOV_MAX), static_cast<off_t>(offset));
    if (n < 0) return errno_status(errno, "");
    return static_cast<size_t>(n);
  }

  int64_t free_bytes() const override {
    struct statvfs sv;
    if (fd_ < 0 || ::fstatvfs(fd_, &sv) != 0) return -1;
    return static_cast<int64_t>(sv.f_bavail) * static_cast<int64_t>(sv.f_frsize);
  }

 private:
  static Status closed() { return Status(Code::kState, "device is closed"); }
  bool direct() const { return buffered_fd_ >= 0; }

  static Result<size_t> sys_pread(int fd, void* buf, size_t len, uint64_t offset) {
    ssize_t n = ::pread(fd, buf, len, static_cast<off_t>(offset));
    if (n < 0) return errno_status(errno, "");
    return static_cast<size_t>(n);
  }
  static Result<size_t> sys_pwrite(int fd, const void* buf, size_t len, uint64_t offset) {
    ssize_t n = ::pwrite(fd, buf, len, static_cast<off_t>(offset));
    if (n < 0) return errno_status(errno, "");
    return static_cast<size_t>(n);
  }

  bool aligned(uint64_t x) const { return x % align_ == 0; }
  uint64_t align_down(uint64_t x) const { return x - x % align_; }
  uint64_t align_up(uint64_t x) const { return align_down(x + align_ - 1); }

  int fd_;
  int buffered_fd_;
  const uint32_t align_;  // O_DIRECT alignment (direct mode)
};

}  // namespace

Result<std::unique_ptr<Device>> open_posix(const std::string& path,
                                           const OpenOptions& o) {
  if (path.empty()) return Status(Code::kInvalidArgument, "empty path");
  if (!o.read && !o.write) {
    return Status(Code::kInvalidArgument, path + ": neither read nor write asked");
  }
  // O_NONBLOCK: a FIFO at the name is refused below, not waited on for
  // ever (open(2) blocks on one until the other end opens); it changes
  // nothing for a regular file and is cleared again.
  int flags = O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;
  flags |= (o.read && o.write) ? O_RDWR : (o.write ? O_WRONLY : O_RDONLY);
  if (o.create) flags |= O_CREAT;
  if (o.truncate) flags |= O_TRUNC;
  if (o.exclusive) flags |= O_CREAT | O_EXCL;
  if (o.direct) flags |= O_DIRECT;
  int fd;
  do {
    fd = ::open(path.c_str(), flags, 0600);
  } while (fd < 0 && errno == EINTR);
  if (fd < 0) {
    int err = errno;
    if (err == EINVAL && o.direct) {
      return Status(Code::kUnsupported, path + ": the file system refuses O_DIRECT", err);
    }
    if (err == ENXIO) return Status(Code::kInvalidArgument, path + ": not a regular file", err);  // a FIFO, no reader
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
  if (::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
    const int err = errno;
    ::close(fd);
    return errno_status(err, path + ": fcntl");
  }
  int buffered_fd = -1;
  if (o.direct) {
    // The partial blocks' descriptor: the same file (checked by inode, in
    // case the name was replaced in between), never created or truncated.
    // O_NONBLOCK as above: a FIFO swapped in meanwhile must not block the
    // open (the inode check then refuses it).
    const int access = flags & (O_RDWR | O_WRONLY | O_RDONLY);
    do {
      buffered_fd = ::open(path.c_str(), access | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
    } while (buffered_fd < 0 && errno == EINTR);
    struct stat again;
    const bool same = buffered_fd >= 0 && ::fstat(buffered_fd, &again) == 0 &&
                      again.st_dev == st.st_dev && again.st_ino == st.st_ino &&
                      ::fcntl(buffered_fd, F_SETFL, ::fcntl(buffered_fd, F_GETFL) & ~O_NONBLOCK) == 0;
    if (!same) {
      int err = buffered_fd < 0 ? errno : EAGAIN;
      if (buffered_fd >= 0) ::close(buffered_fd);
      ::close(fd);
      return err == EAGAIN ? Status(Code::kIo, path + ": the file changed while it was opened")
                           : errno_status(err, path + ": second (buffered) descriptor");
    }
  }
  return std::unique_ptr<Device>(
      new PosixDevice(path, fd, buffered_fd, o.direct ? direct_alignment(fd) : kDefaultDirectAlign));
}

namespace {

// A fresh name beside path for a file that is to replace it.
std::string beside(const std::string& path) {
  static std::atomic<uint64_t> serial{0};
  return path + ".new." + std::to_string(::getpid()) + "." + std::to_string(serial++);
}

// Names the open file fd, made with O_TMPFILE; 0 or an errno. linkat with
// AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH, /proc/self/fd works for anyone.
int link_unnamed(int fd, const std::string& path) {
  if (::linkat(fd, "", AT_FDCWD, path.c_str(), AT_EMPTY_PATH) == 0) return 0;
  if (errno != ENOENT && errno != EPERM) return errno;
  const std::string self = "/proc/self/fd/" + std::to_string(fd);
  return ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) == 0 ? 0 : errno;
}

}  // namespace

Result<NewFile> NewFile::create(const std::string& path) {
  if (path.empty() || path.back() == '/') return Status(Code::kInvalidArgument, "'" + path + "': not a file name");
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, std::max<size_t>(slash, 1));
  NewFile f;
  f.path_ = path;
  static const bool can_link = ::access("/proc/self/fd", X_OK) == 0;
  const int fd = can_link ? ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600) : -1;
  if (fd >= 0) {
    f.device_.reset(new PosixDevice(path, fd, -1, kDefaultDirectAlign));
    return f;
  }
  // No O_TMPFILE here (EOPNOTSUPP; EISDIR from kernels before it): a name beside.
  if (can_link && errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL) return errno_status(errno, dir);
  OpenOptions o;
  o.create = o.exclusive = true;
  Result<std::unique_ptr<Device>> d = Status(Code::kExists, "");
  while (!d.ok() && d.status().code() == Code::kExists) {  // a name left by a crashed process
    f.temp_ = beside(path);
    d = open_posix(f.temp_, o);
  }
  PARIO_RETURN_IF_ERROR(d.status());
  f.device_ = std::move(*d);
  return f;
}

Status NewFile::publish(bool replace) {
  if (!device_) return Status(Code::kState, path_ + ": the new file was already published");
  int err = 0;
  if (temp_.empty() && !replace) {
    err = link_unnamed(device_->native_fd(), path_);
  } else if (temp_.empty()) {  // linkat cannot replace: a name beside first, then rename
    do {
      temp_ = beside(path_);
      err = link_unnamed(device_->native_fd(), temp_);
    } while (err == EEXIST);
    if (err) temp_.clear();
  }
  if (!err && !temp_.empty()) {
    err = (replace ? ::rename(temp_.c_str(), path_.c_str()) : ::link(temp_.c_str(), path_.c_str())) == 0 ? 0 : errno;
  }
  if (!temp_.empty() && !(replace && !err)) ::unlink(temp_.c_str());
  Status closed = device_->close();
  device_.reset();
  if (err) return errno_status(err, path_);
  return closed;
}

NewFile::~NewFile() {
  if (!device_) return;
  (void)device_->close();
  if (!temp_.empty()) ::unlink(temp_.c_str());
}

}  // namespace pario::device
