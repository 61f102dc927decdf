#include "device/shm_segment.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>

namespace pario::device {
namespace {

Result<std::string> fresh_name() {
  uint64_t bits = 0;
  if (::getrandom(&bits, sizeof bits, 0) != sizeof bits) {
    return errno_status(errno, "getrandom for a shared-memory name");
  }
  char name[96];
  std::snprintf(name, sizeof name, "/%s%d.%016" PRIx64, segment_prefix().c_str(),
                static_cast<int>(::getpid()), bits);
  return std::string(name);
}

}  // namespace

std::string segment_prefix() { return "pario." + std::to_string(::getuid()) + "."; }

Result<std::unique_ptr<ShmSegment>> ShmSegment::create(uint64_t capacity) {
  std::unique_ptr<ShmSegment> s(new ShmSegment());
  PARIO_ASSIGN_OR_RETURN(s->name_, fresh_name());
  s->fd_ = ::shm_open(s->name_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (s->fd_ < 0) return errno_status(errno, "shm_open " + s->name_);
  s->named_ = true;
  // The mode is 0600 whatever the umask; make sure (shm_open applies it).
  if (::fchmod(s->fd_, 0600) != 0) return errno_status(errno, "fchmod " + s->name_);
  return attach_mapping(std::move(s), capacity);
}

Result<std::unique_ptr<ShmSegment>> ShmSegment::attach(const std::string& name, uint64_t capacity) {
  if (name.rfind("/" + segment_prefix(), 0) != 0) {
    return Status(Code::kInvalidArgument, "shared-memory name " + name + " is not this user's pario segment");
  }
  std::unique_ptr<ShmSegment> s(new ShmSegment());
  s->name_ = name;
  s->fd_ = ::shm_open(name.c_str(), O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0);
  if (s->fd_ < 0) return errno_status(errno, "shm_open " + name);
  // Another user may have made a name this one could predict.
  struct stat st;
  if (::fstat(s->fd_, &st) != 0) return errno_status(errno, "fstat " + name);
  if (st.st_uid != ::getuid() || (st.st_mode & 077) != 0) {
    return Status(Code::kPermission, "shared-memory object " + name + " is not private to this user");
  }
  return attach_mapping(std::move(s), capacity);
}

Result<std::unique_ptr<ShmSegment>> ShmSegment::attach_mapping(std::unique_ptr<ShmSegment> s,
                                                               uint64_t capacity) {
  if (capacity == 0) return Status(Code::kInvalidArgument, "shared-memory capacity is 0");
  void* p = ::mmap(nullptr, capacity, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, s->fd_, 0);
  if (p == MAP_FAILED) {
    return errno_status(errno, "mmap of " + std::to_string(capacity) + " bytes of " + s->name_);
  }
  s->base_ = static_cast<char*>(p);
  s->capacity_ = capacity;
  return s;
}

ShmSegment::~ShmSegment() {
  if (base_) ::munmap(base_, capacity_);
  if (fd_ >= 0) ::close(fd_);
  unlink_name();
}

Status ShmSegment::grow(uint64_t size) {
  if (size > capacity_) {
    return Status(Code::kOutOfRange, name_ + ": " + std::to_string(size) +
                                         " bytes exceed the segment's capacity of " +
                                         std::to_string(capacity_));
  }
  struct stat st;
  if (::fstat(fd_, &st) != 0) return errno_status(errno, "fstat " + name_);
  if (static_cast<uint64_t>(st.st_size) >= size) return Status::Ok();
  int rc;
  do {
    rc = ::posix_fallocate(fd_, st.st_size, static_cast<off_t>(size - st.st_size));
  } while (rc == EINTR);
  if (rc == ENOSPC || rc == ENOMEM) {
    return Status(Code::kNoMemory, name_ + ": no RAM for " + std::to_string(size) + " bytes", rc);
  }
  if (rc != 0) return errno_status(rc, "fallocate " + name_);
  return Status::Ok();
}

void ShmSegment::unlink_name() {
  if (!named_) return;
  named_ = false;
  ::shm_unlink(name_.c_str());
}

Status ShmSegment::publish_as(const std::string& name, bool replace) {
  if (name.rfind("/" + segment_prefix(), 0) != 0) {
    return Status(Code::kInvalidArgument, "shared-memory name " + name + " is not of this user's prefix");
  }
  if (!named_) return Status(Code::kState, name_ + ": has no name to publish from");
  // POSIX shared memory is a tmpfs directory on Linux: link and rename
  // there give the name at once, whole.
  const std::string from = "/dev/shm" + name_, to = "/dev/shm" + name;
  if (replace) {
    if (::rename(from.c_str(), to.c_str()) != 0) return errno_status(errno, "rename " + from + " to " + to);
  } else {
    if (::link(from.c_str(), to.c_str()) != 0) {
      return errno == EEXIST ? Status(Code::kExists, name + ": taken") : errno_status(errno, "link " + to);
    }
    ::shm_unlink(name_.c_str());
  }
  named_ = false;
  name_ = name;
  return Status::Ok();
}

bool unlink_segment(const std::string& name) { return ::shm_unlink(name.c_str()) == 0; }

Result<int> remove_stale_segments() {
  DIR* dir = ::opendir("/dev/shm");
  if (!dir) return errno == ENOENT ? 0 : Result<int>(errno_status(errno, "/dev/shm"));
  const std::string prefix = segment_prefix();
  int removed = 0;
  while (const dirent* e = ::readdir(dir)) {
    const std::string n = e->d_name;
    if (n.rfind(prefix, 0) != 0) continue;
    const long pid = std::strtol(n.c_str() + prefix.size(), nullptr, 10);
    if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    if (::shm_unlink(("/" + n).c_str()) == 0) ++removed;
  }
  ::closedir(dir);
  return removed;
}

}  // namespace pario::device
