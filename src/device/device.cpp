#include "device/device.h"

#include <algorithm>
#include <cerrno>
#include <vector>

namespace pario::device {
namespace {

bool retryable(const Status& s) {
  return s.sys_errno() == EINTR || s.sys_errno() == EAGAIN;
}

std::string at(uint64_t offset) { return "at offset " + std::to_string(offset); }

// Adds "<path>: <what>" once: a device that passes a request on to another
// of the same path (Files in Memory spilling to disk) already got it from
// that device's own call.
Status in_context(Status s, const std::string& path, const std::string& what) {
  if (s.message().rfind(path + ": ", 0) == 0) return s;
  return std::move(s).with_context(path + ": " + what);
}

}  // namespace

// A write that moves no bytes and reports no error: how MPI-IO (ROMIO)
// answers a full disk. Said so when the file system has no room left.
Status Device::no_progress(uint64_t offset, size_t done, size_t len) const {
  const int64_t free = free_bytes();
  if (free >= 0 && free < 65536) {
    return Status(Code::kNoSpace, path_ + ": write " + at(offset) + ": no space left on the file system (" +
                                      std::to_string(done) + " of " + std::to_string(len) +
                                      " bytes written; " + std::to_string(free) + " bytes free)");
  }
  return Status(Code::kIo, path_ + ": write " + at(offset) + ": no progress");
}

Status Device::read_at(uint64_t offset, void* buf, size_t len, size_t* got) {
  char* p = static_cast<char*>(buf);
  size_t done = 0;
  while (done < len) {
    Result<size_t> r = read_some(offset + done, p + done, len - done);
    if (!r.ok()) {
      if (retryable(r.status())) continue;
      return in_context(std::move(r).status(), path_, "read " + at(offset + done));
    }
    if (*r == 0) break;  // end of file
    done += *r;
  }
  *got = done;
  return Status::Ok();
}

Status Device::write_at(uint64_t offset, const void* buf, size_t len) {
  const char* p = static_cast<const char*>(buf);
  size_t done = 0;
  while (done < len) {
    Result<size_t> r = write_some(offset + done, p + done, len - done);
    if (!r.ok()) {
      if (retryable(r.status())) continue;
      Status s = in_context(std::move(r).status(), path_, "write " + at(offset + done));
      if (s.code() == Code::kNoSpace && s.message().find(" bytes written") == std::string::npos) {
        int64_t free = free_bytes();
        std::string detail = " (" + std::to_string(done) + " of " + std::to_string(len) +
                             " bytes written";
        if (free >= 0) detail += "; " + std::to_string(free) + " bytes free";
        s = Status(s.code(), s.message() + detail + ")", s.sys_errno());
      }
      return s;
    }
    if (*r == 0) return no_progress(offset + done, done, len);  // would loop forever
    done += *r;
  }
  return Status::Ok();
}

namespace {

// The buffers still to move: a copy of the caller's list, without the
// empty ones, advanced past what each attempt moved.
class IovCursor {
 public:
  IovCursor(const iovec* iov, int count) {
    for (int i = 0; i < count; ++i) {
      if (iov[i].iov_len) left_.push_back(iov[i]);
    }
  }
  bool done() const { return first_ == left_.size(); }
  const iovec* data() const { return left_.data() + first_; }
  int count() const { return static_cast<int>(left_.size() - first_); }
  void advance(size_t n) {
    while (n && !done()) {
      iovec& v = left_[first_];
      const size_t take = std::min(n, v.iov_len);
      v.iov_base = static_cast<char*>(v.iov_base) + take;
      v.iov_len -= take;
      n -= take;
      if (v.iov_len == 0) ++first_;
    }
  }

 private:
  std::vector<iovec> left_;
  size_t first_ = 0;
};

}  // namespace

Status Device::readv_at(uint64_t offset, const iovec* iov, int count, size_t* got) {
  IovCursor rest(iov, count);
  size_t done = 0;
  while (!rest.done()) {
    Result<size_t> r = readv_some(offset + done, rest.data(), rest.count());
    if (!r.ok()) {
      if (retryable(r.status())) continue;
      return in_context(std::move(r).status(), path_, "read " + at(offset + done));
    }
    if (*r == 0) break;  // end of file
    done += *r;
    rest.advance(*r);
  }
  *got = done;
  return Status::Ok();
}

Status Device::writev_at(uint64_t offset, const iovec* iov, int count) {
  IovCursor rest(iov, count);
  size_t done = 0;
  while (!rest.done()) {
    Result<size_t> r = writev_some(offset + done, rest.data(), rest.count());
    if (!r.ok()) {
      if (retryable(r.status())) continue;
      return in_context(std::move(r).status(), path_, "write " + at(offset + done));
    }
    if (*r == 0) {
      size_t total = 0;
      for (int i = 0; i < count; ++i) total += iov[i].iov_len;
      return no_progress(offset + done, done, total);
    }
    done += *r;
    rest.advance(*r);
  }
  return Status::Ok();
}

}  // namespace pario::device
