#include "file/private_file.h"

#include <unistd.h>

#include <algorithm>

#include "file/backend.h"
#include "file/fim.h"

namespace pario::file {

using device::IoKind;
using device::Request;

PrivateFile::PrivateFile(std::unique_ptr<device::Device> device, bool readable,
                         bool writable, device::AsyncEngine* engine)
    : device_(std::move(device)), readable_(readable), writable_(writable), engine_(engine) {
  if (StatsRegistry::global().enabled()) {
    stats_ = StatsRegistry::global().for_path(device_->path());
  }
  const uint32_t caps = device_->caps();
  if ((caps & device::kCapNativeFd) && !(caps & device::kCapDirect) && !stats_) {
    fast_fd_ = device_->native_fd();
  }
}

PrivateFile::~PrivateFile() { (void)close(); }

Result<std::unique_ptr<PrivateFile>> PrivateFile::open(const std::string& path,
                                                       const PrivateFileOptions& o,
                                                       const FileSettings& settings) {
  device::OpenOptions dev;
  dev.read = o.read;
  dev.write = o.write;
  dev.create = o.create && o.write;
  dev.truncate = o.truncate;
  dev.exclusive = o.exclusive;
  dev.direct = o.direct || settings.direct;
  PARIO_ASSIGN_OR_RETURN(Placement where, place(path, 0, settings));
  if (fim::wants_ram(path)) {
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<device::Device> ram, fim::open_private(path, where, dev));
    if (ram) return wrap(std::move(ram), o.read, o.write, settings.engine);
  }
  PARIO_ASSIGN_OR_RETURN(std::unique_ptr<device::Device> d, open_device(where, dev));
  return wrap(std::move(d), o.read, o.write, settings.engine);
}

Result<std::unique_ptr<PrivateFile>> PrivateFile::wrap(std::unique_ptr<device::Device> device,
                                                       bool readable, bool writable,
                                                       device::AsyncEngine* engine) {
  if (!engine) return Status(Code::kInternal, device->path() + ": opened with no asynchronous engine");
  auto f = std::unique_ptr<PrivateFile>(
      new PrivateFile(std::move(device), readable, writable, engine));
  if (f->stats_) {
    Result<uint64_t> size = f->device_->size();
    if (size.ok()) f->stats_->note_size(*size);
  }
  return f;
}

Status PrivateFile::check_open(const char* op, bool want_write) const {
  if (closed_) return Status(Code::kState, path() + ": " + op + " on a closed file");
  if (want_write && !writable_) {
    return Status(Code::kState, path() + ": " + op + " on a file opened read-only");
  }
  if (!want_write && !readable_) {
    return Status(Code::kState, path() + ": " + op + " on a file opened write-only");
  }
  return Status::Ok();
}

// The fast paths redo a transfer that did not finish in one call from its
// start through the device: reads and writes of the same bytes at the same
// offsets are idempotent, and the device then reports errors with their
// context (and "n of len bytes written" on ENOSPC) as it always did.
Status PrivateFile::read(uint64_t offset, void* buf, size_t len) {
  if (fast_fd_ >= 0 && readable_ && !closed_ &&
      ::pread(fast_fd_, buf, len, static_cast<off_t>(offset)) == static_cast<ssize_t>(len)) {
    return Status::Ok();
  }
  return read_through(offset, buf, len);
}

Status PrivateFile::read_through(uint64_t offset, void* buf, size_t len) {
  PARIO_RETURN_IF_ERROR(check_open("read", false));
  uint64_t t0 = stats_ ? now_nanos() : 0;
  size_t got = 0;
  PARIO_RETURN_IF_ERROR(device_->read_at(offset, buf, len, &got));
  PARIO_RETURN_IF_ERROR(check_whole(got, len, offset));
  if (stats_) stats_->record(IoDir::kRead, false, offset, len, now_nanos() - t0);
  return Status::Ok();
}

Status PrivateFile::check_whole(size_t got, size_t len, uint64_t offset) const {
  if (got == len) return Status::Ok();
  return Status(Code::kOutOfRange, path() + ": read past end of file: " + std::to_string(got) + " of " +
                                       std::to_string(len) + " bytes at offset " + std::to_string(offset));
}

Status PrivateFile::write(uint64_t offset, const void* buf, size_t len) {
  if (fast_fd_ >= 0 && writable_ && !closed_ &&
      ::pwrite(fast_fd_, buf, len, static_cast<off_t>(offset)) == static_cast<ssize_t>(len)) {
    return Status::Ok();
  }
  return write_through(offset, buf, len);
}

Status PrivateFile::write_through(uint64_t offset, const void* buf, size_t len) {
  PARIO_RETURN_IF_ERROR(check_open("write", true));
  uint64_t t0 = stats_ ? now_nanos() : 0;
  PARIO_RETURN_IF_ERROR(device_->write_at(offset, buf, len));
  if (stats_) stats_->record(IoDir::kWrite, false, offset, len, now_nanos() - t0);
  return Status::Ok();
}

namespace {
size_t total_bytes(const iovec* iov, int count) {
  size_t n = 0;
  for (int i = 0; i < count; ++i) n += iov[i].iov_len;
  return n;
}
}  // namespace

Status PrivateFile::readv(uint64_t offset, const iovec* iov, int count) {
  PARIO_RETURN_IF_ERROR(check_open("readv", false));
  uint64_t t0 = stats_ ? now_nanos() : 0;
  const size_t len = total_bytes(iov, count);
  size_t got = 0;
  PARIO_RETURN_IF_ERROR(device_->readv_at(offset, iov, count, &got));
  PARIO_RETURN_IF_ERROR(check_whole(got, len, offset));
  if (stats_) stats_->record(IoDir::kRead, false, offset, len, now_nanos() - t0);
  return Status::Ok();
}

Status PrivateFile::writev(uint64_t offset, const iovec* iov, int count) {
  PARIO_RETURN_IF_ERROR(check_open("writev", true));
  uint64_t t0 = stats_ ? now_nanos() : 0;
  PARIO_RETURN_IF_ERROR(device_->writev_at(offset, iov, count));
  if (stats_) stats_->record(IoDir::kWrite, false, offset, total_bytes(iov, count), now_nanos() - t0);
  return Status::Ok();
}

Result<std::shared_ptr<Request>> PrivateFile::submit(IoKind kind, uint64_t offset, void* buf,
                                                     size_t len) {
  auto r = std::make_shared<Request>(kind, device_.get(), offset, buf, len, /*exact=*/true);
  if (stats_) {
    r->stats = stats_;
    r->start_nanos = now_nanos();
  }
  {
    std::lock_guard<std::mutex> lock(pending_mu_);
    // Drop finished requests now and then, so the list stays about as long
    // as the number actually outstanding.
    if (pending_.size() >= 64 && pending_.size() % 64 == 0) {
      pending_.erase(std::remove_if(pending_.begin(), pending_.end(),
                                    [](const auto& p) { return p->done(); }),
                     pending_.end());
    }
    pending_.push_back(r);
  }
  engine_->submit(r);
  return r;
}

Result<std::shared_ptr<Request>> PrivateFile::iread(uint64_t offset, void* buf, size_t len) {
  PARIO_RETURN_IF_ERROR(check_open("iread", false));
  return submit(IoKind::kRead, offset, buf, len);
}

Result<std::shared_ptr<Request>> PrivateFile::iwrite(uint64_t offset, const void* buf,
                                                     size_t len) {
  PARIO_RETURN_IF_ERROR(check_open("iwrite", true));
  // The device only reads a write's buffer; Request is shared by both kinds.
  return submit(IoKind::kWrite, offset, const_cast<void*>(buf), len);
}

Result<uint64_t> PrivateFile::length() {
  if (closed_) return Status(Code::kState, path() + ": length of a closed file");
  return device_->size();
}

Status PrivateFile::truncate(uint64_t length) {
  PARIO_RETURN_IF_ERROR(check_open("truncate", true));
  return device_->truncate(length);
}

Status PrivateFile::sync() {
  if (closed_) return Status(Code::kState, path() + ": sync of a closed file");
  return device_->sync();
}

Status PrivateFile::close() {
  if (closed_) return Status::Ok();
  std::vector<std::shared_ptr<Request>> pending;
  {
    std::lock_guard<std::mutex> lock(pending_mu_);
    pending.swap(pending_);
  }
  for (auto& r : pending) device::wait(*r);
  closed_ = true;
  if (stats_) {
    Result<uint64_t> size = device_->size();
    if (size.ok()) stats_->note_size(*size);
    if (device_->caps() & device::kCapMemory) {
      stats_->note_residence(device_->ram_bytes(), device_->spilled_bytes());
    }
  }
  return device_->close();
}

}  // namespace pario::file
