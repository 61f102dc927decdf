#include "device/device.h"

#include <cerrno>

namespace pario::device {
namespace {

bool retryable(const Status& s) {
  return s.sys_errno() == EINTR || s.sys_errno() == EAGAIN;
}

std::string at(uint64_t offset) { return "at offset " + std::to_string(offset); }

}  // namespace

Status Device::read_at(uint64_t offset, void* buf, size_t len, size_t* got) {
  char* p = static_cast<char*>(buf);
  size_t done = 0;
  while (done < len) {
    Result<size_t> r = read_some(offset + done, p + done, len - done);
    if (!r.ok()) {
      if (retryable(r.status())) continue;
      return std::move(r).status().with_context(path_ + ": read " + at(offset + done));
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
      Status s = std::move(r).status().with_context(path_ + ": write " + at(offset + done));
      if (s.code() == Code::kNoSpace) {
        int64_t free = free_bytes();
        std::string detail = " (" + std::to_string(done) + " of " + std::to_string(len) +
                             " bytes written";
        if (free >= 0) detail += "; " + std::to_string(free) + " bytes free";
        s = Status(s.code(), s.message() + detail + ")", s.sys_errno());
      }
      return s;
    }
    if (*r == 0) {  // a zero-byte write that is not an error would loop forever
      return Status(Code::kIo, path_ + ": write " + at(offset + done) + ": no progress");
    }
    done += *r;
  }
  return Status::Ok();
}

Status Device::readv_at(uint64_t offset, const iovec* iov, int count, size_t* got) {
  size_t total = 0;
  for (int i = 0; i < count; ++i) {
    size_t n = 0;
    PARIO_RETURN_IF_ERROR(read_at(offset + total, iov[i].iov_base, iov[i].iov_len, &n));
    total += n;
    if (n < iov[i].iov_len) break;  // end of file
  }
  *got = total;
  return Status::Ok();
}

Status Device::writev_at(uint64_t offset, const iovec* iov, int count) {
  uint64_t pos = offset;
  for (int i = 0; i < count; ++i) {
    PARIO_RETURN_IF_ERROR(write_at(pos, iov[i].iov_base, iov[i].iov_len));
    pos += iov[i].iov_len;
  }
  return Status::Ok();
}

}  // namespace pario::device
