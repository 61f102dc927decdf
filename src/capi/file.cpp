// C API: private files.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "base/config.h"
#include "capi/boundary.h"
#include "capi/collective.h"
#include "capi/options.h"
#include "capi/handles.h"
#include "capi/file_handles.h"
#include "capi/request.h"
#include "device/fs_stat.h"
#include "file/backend.h"
#include "file/fim.h"
#include "file/private_file.h"
#include "file/shared_file.h"
#include "capi/runtime.h"
#include "comm/comm.h"
#include "pario/file.h"
#include "pario/shared_file.h"
#include "pario/runtime.h"

namespace pario::capi {

HandleTable<SharedFileHandle>& shared_files() {
  static auto* t = new HandleTable<SharedFileHandle>(/*remember_removed=*/true);
  return *t;
}

Result<SharedFileHandle*> live_shared_handle(pario_shared_file_t f) {
  if (f == PARIO_SHARED_FILE_NULL) return invalid("shared file handle is null");
  SharedFileHandle* p = shared_files().find(reinterpret_cast<uintptr_t>(f));
  if (!p) return invalid("shared file handle is stale (the file was closed or destroyed)");
  return p;
}

namespace {

using file::PrivateFile;
using file::SharedFile;
using device::Request;

HandleTable<PrivateFile>& files() {
  static auto* t = new HandleTable<PrivateFile>();  // outlives static teardown
  return *t;
}
// A private-file request as the C API's request table sees it.
class FileRequest : public Pending {
 public:
  explicit FileRequest(std::shared_ptr<Request> r) : r_(std::move(r)) {}
  Status wait() override {
    device::wait(*r_);
    return r_->status();
  }
  bool test() override { return device::test(*r_); }

 private:
  std::shared_ptr<Request> r_;
};

uint64_t id_of(pario_file_t f) { return reinterpret_cast<uintptr_t>(f); }

Result<PrivateFile*> live_file(pario_file_t f) {
  if (f == PARIO_FILE_NULL) return invalid("file handle is null (closed, or never opened)");
  PrivateFile* p = files().find(id_of(f));
  if (!p) return invalid("file handle is stale (the file was closed)");
  return p;
}

Result<SharedFile*> live_shared(pario_shared_file_t f) {
  PARIO_ASSIGN_OR_RETURN(SharedFileHandle * h, live_shared_handle(f));
  return h->file.get();
}

// Ends a shared file's life on every rank: close, or destroy (delete too).
Status end_shared(const char* call, pario_shared_file_t* file, bool destroy) {
  Entry e(call);
  if (!file) {
    e.check(invalid("file pointer is null"));
  } else {
    Result<SharedFileHandle*> h = live_shared_handle(*file);
    e.check(h);
    if (h.ok()) {
      e.over((*h)->group.get());
    } else if (auto gone = shared_files().removed(reinterpret_cast<uintptr_t>(*file))) {
      e.over_removed(gone, gone->group.get());
    }
  }
  PARIO_RETURN_IF_ERROR(e.agree());
  std::shared_ptr<SharedFileHandle> h = shared_files().remove(reinterpret_cast<uintptr_t>(*file));
  *file = PARIO_SHARED_FILE_NULL;
  return destroy ? h->file->destroy() : h->file->close();
}

// A new handle for a shared file every rank has opened. A full table is
// full on every rank alike: then the file goes again (deleted, if it was
// created here) on every rank.
Status publish_shared(std::unique_ptr<SharedFile> f, std::shared_ptr<comm::Group> g, bool created,
                      pario_shared_file_t* file_out) {
  auto shared = std::make_shared<SharedFileHandle>(SharedFileHandle{std::move(f), std::move(g)});
  const uint64_t id = shared_files().insert(shared);
  if (id == 0) {
    (void)(created ? shared->file->destroy() : shared->file->close());
    return Status(Code::kNoMemory, "too many shared files");
  }
  *file_out = reinterpret_cast<pario_shared_file_t>(static_cast<uintptr_t>(id));
  return Status::Ok();
}

Status check_range(int64_t offset, const void* buf, size_t bytes) {
  if (offset < 0) return invalid("negative offset " + std::to_string(offset));
  if (!buf && bytes > 0) return invalid("buffer is null");
  if (bytes > static_cast<uint64_t>(std::numeric_limits<int64_t>::max() - offset)) {
    return invalid("offset + bytes overflows a 64-bit file offset");
  }
  return Status::Ok();
}

Status publish(Result<std::shared_ptr<Request>> r, pario_request_t* req_out) {
  if (!r.ok()) return std::move(r).status();
  return publish_request(std::make_shared<FileRequest>(std::move(r).value()), req_out);
}

// A blocking read or write: io(file, offset) on the live file. The checks
// that pass on every good call are inline (a lock-free handle lookup and
// three comparisons); only a failing one goes through live_file and
// check_range, which say what is wrong. A 1.6 kB read from the page cache
// costs about a microsecond, and the checks as Results and Statuses were
// a tenth of it (issue 30).
template <typename Io>
int blocking(const char* call, pario_file_t file, int64_t offset, const void* buf, size_t bytes,
             Io&& io) noexcept {
  PrivateFile* f = file == PARIO_FILE_NULL ? nullptr : files().find(id_of(file));
  const bool in_range = offset >= 0 && (buf || bytes == 0) &&
                        bytes <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max() - offset);
  return guarded(call, [&]() -> Status {
    if (!f || !in_range) {
      PARIO_ASSIGN_OR_RETURN(f, live_file(file));
      PARIO_RETURN_IF_ERROR(check_range(offset, buf, bytes));
    }
    return io(f, static_cast<uint64_t>(offset));
  });
}
}  // namespace
}  // namespace pario::capi

using namespace pario;        // NOLINT: this file is the C boundary
using namespace pario::capi;  // NOLINT

extern "C" {

int pario_file_open(const char* path, int mode, pario_file_t* file_out) {
  return guarded("pario_file_open", [&]() -> Status {
    if (!path || !*path) return invalid("path is null or empty");
    if (!file_out) return invalid(std::string(path) + ": file_out is null");
    const int known = PARIO_MODE_RDWR | PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE |
                      PARIO_MODE_EXCLUSIVE | PARIO_MODE_DIRECT;
    if (mode & ~known) return invalid(std::string(path) + ": unknown mode bits " + std::to_string(mode & ~known));
    if (!(mode & PARIO_MODE_RDWR)) return invalid(std::string(path) + ": mode needs PARIO_MODE_READ and/or PARIO_MODE_WRITE");
    if ((mode & (PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE | PARIO_MODE_EXCLUSIVE)) &&
        !(mode & PARIO_MODE_WRITE)) {
      return invalid(std::string(path) + ": CREATE, TRUNCATE and EXCLUSIVE need PARIO_MODE_WRITE");
    }
    PARIO_ASSIGN_OR_RETURN(const Resources* settings, resources());
    file::PrivateFileOptions o;
    o.read = mode & PARIO_MODE_READ;
    o.write = mode & PARIO_MODE_WRITE;
    o.create = mode & PARIO_MODE_CREATE;
    o.truncate = mode & PARIO_MODE_TRUNCATE;
    o.exclusive = mode & PARIO_MODE_EXCLUSIVE;
    o.direct = mode & PARIO_MODE_DIRECT;
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<PrivateFile> f, PrivateFile::open(path, o, settings->files));
    uint64_t id = files().insert(std::shared_ptr<PrivateFile>(std::move(f)));
    if (id == 0) return Status(Code::kNoMemory, std::string(path) + ": too many open files");
    *file_out = reinterpret_cast<pario_file_t>(static_cast<uintptr_t>(id));
    return Status::Ok();
  });
}

int pario_file_close(pario_file_t* file) {
  return guarded("pario_file_close", [&]() -> Status {
    if (!file) return invalid("file pointer is null");
    PARIO_RETURN_IF_ERROR(live_file(*file).status());
    std::shared_ptr<PrivateFile> f = files().remove(id_of(*file));
    *file = PARIO_FILE_NULL;
    return f->close();
  });
}

int pario_file_delete(const char* path) {
  return guarded("pario_file_delete", [&]() -> Status {
    if (!path || !*path) return invalid("path is null or empty");
    PARIO_ASSIGN_OR_RETURN(const Resources* settings, resources());
    PARIO_ASSIGN_OR_RETURN(file::Placement where, file::place(path, 0, settings->files));
    const bool was_in_ram = file::fim::forget_private(path);
    Status removed = file::remove_files(where);
    // A RAM file that never spilled has no disk file to remove.
    if (was_in_ram && removed.code() == Code::kNotFound) return Status::Ok();
    return removed;
  });
}

int pario_file_write(pario_file_t file, int64_t offset, const void* buf, size_t bytes) {
  return blocking("pario_file_write", file, offset, buf, bytes,
                  [&](PrivateFile* f, uint64_t at) { return f->write(at, buf, bytes); });
}

int pario_file_read(pario_file_t file, int64_t offset, void* buf, size_t bytes) {
  return blocking("pario_file_read", file, offset, buf, bytes,
                  [&](PrivateFile* f, uint64_t at) { return f->read(at, buf, bytes); });
}

namespace {
// The caller's buffers as iovecs, checked like a single buffer of their sum.
Result<std::vector<iovec>> iovecs(int64_t offset, const pario_iovec_t* iov, int count) {
  if (count < 0) return invalid("negative buffer count " + std::to_string(count));
  if (count > 0 && !iov) return invalid("iov is null");
  std::vector<iovec> out(static_cast<size_t>(count));
  size_t total = 0;
  for (int i = 0; i < count; ++i) {
    if (!iov[i].base && iov[i].len) return invalid("buffer " + std::to_string(i) + " is null");
    if (iov[i].len > std::numeric_limits<size_t>::max() - total) return invalid("buffer sizes overflow");
    total += iov[i].len;
    out[i] = {iov[i].base, iov[i].len};
  }
  PARIO_RETURN_IF_ERROR(check_range(offset, out.data(), total));
  return out;
}
}  // namespace

int pario_file_writev(pario_file_t file, int64_t offset, const pario_iovec_t* iov, int count) {
  return guarded("pario_file_writev", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(PrivateFile * f, live_file(file));
    PARIO_ASSIGN_OR_RETURN(std::vector<iovec> v, iovecs(offset, iov, count));
    return f->writev(static_cast<uint64_t>(offset), v.data(), count);
  });
}

int pario_file_readv(pario_file_t file, int64_t offset, const pario_iovec_t* iov, int count) {
  return guarded("pario_file_readv", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(PrivateFile * f, live_file(file));
    PARIO_ASSIGN_OR_RETURN(std::vector<iovec> v, iovecs(offset, iov, count));
    return f->readv(static_cast<uint64_t>(offset), v.data(), count);
  });
}

int pario_file_iwrite(pario_file_t file, int64_t offset, const void* buf, size_t bytes,
                      pario_request_t* req_out) {
  return guarded("pario_file_iwrite", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(PrivateFile * f, live_file(file));
    PARIO_RETURN_IF_ERROR(check_range(offset, buf, bytes));
    if (!req_out) return invalid("req_out is null");
    return publish(f->iwrite(static_cast<uint64_t>(offset), buf, bytes), req_out);
  });
}

int pario_file_iread(pario_file_t file, int64_t offset, void* buf, size_t bytes,
                     pario_request_t* req_out) {
  return guarded("pario_file_iread", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(PrivateFile * f, live_file(file));
    PARIO_RETURN_IF_ERROR(check_range(offset, buf, bytes));
    if (!req_out) return invalid("req_out is null");
    return publish(f->iread(static_cast<uint64_t>(offset), buf, bytes), req_out);
  });
}

int pario_file_length(pario_file_t file, int64_t* length_out) {
  return guarded("pario_file_length", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(PrivateFile * f, live_file(file));
    if (!length_out) return invalid("length_out is null");
    PARIO_ASSIGN_OR_RETURN(uint64_t n, f->length());
    *length_out = static_cast<int64_t>(n);
    return Status::Ok();
  });
}

int pario_file_truncate(pario_file_t file, int64_t length) {
  return guarded("pario_file_truncate", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(PrivateFile * f, live_file(file));
    if (length < 0) return invalid("negative length " + std::to_string(length));
    return f->truncate(static_cast<uint64_t>(length));
  });
}

int pario_file_sync(pario_file_t file) {
  return guarded("pario_file_sync", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(PrivateFile * f, live_file(file));
    return f->sync();
  });
}

int pario_file_eof(pario_file_t file, int64_t offset, int* eof_out) {
  return guarded("pario_file_eof", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(PrivateFile * f, live_file(file));
    if (offset < 0) return invalid("negative offset " + std::to_string(offset));
    if (!eof_out) return invalid("eof_out is null");
    PARIO_ASSIGN_OR_RETURN(uint64_t n, f->length());
    *eof_out = static_cast<uint64_t>(offset) >= n ? 1 : 0;
    return Status::Ok();
  });
}

int pario_fs_stat(const char* path, pario_fs_stat_t* stat_out) {
  return guarded("pario_fs_stat", [&]() -> Status {
    if (!path || !*path) return invalid("path is null or empty");
    if (!stat_out) return invalid(std::string(path) + ": stat_out is null");
    PARIO_ASSIGN_OR_RETURN(device::FsStat st, device::stat_path(path));
    pario_fs_stat_t out{};
    out.available_bytes = static_cast<int64_t>(st.available_bytes);
    out.total_bytes = static_cast<int64_t>(st.total_bytes);
    out.block_size = static_cast<int64_t>(st.block_size);
    std::snprintf(out.type, sizeof out.type, "%s", st.type.c_str());
    *stat_out = out;
    return Status::Ok();
  });
}

int pario_scratch_path(const char* name, char* buf, size_t len) {
  return guarded("pario_scratch_path", [&]() -> Status {
    if (!name || !*name) return invalid("name is null or empty");
    if (std::strchr(name, '/')) return invalid(std::string(name) + ": a name, not a path, is expected");
    if (!buf) return invalid("buf is null");
    PARIO_ASSIGN_OR_RETURN(const Config* cfg, config());
    int rank = 0;
    (void)pario_world_rank(&rank);
    std::string path = cfg->scratch_dirs.front() + "/" + name + "." + std::to_string(rank);
    if (path.size() + 1 > len) {
      return invalid("buffer of " + std::to_string(len) + " bytes is too short for " + path);
    }
    std::memcpy(buf, path.c_str(), path.size() + 1);
    return Status::Ok();
  });
}

// ---- shared files ----

int pario_shared_file_create(pario_group_t group, const char* path, int64_t hard_limit,
                             int64_t soft_limit, int64_t request_size,
                             pario_shared_file_t* file_out) {
  return guarded("pario_shared_file_create", [&]() -> Status {
    // Agreed before anything else, so a rank with a bad argument never
    // leaves the others waiting in a collective.
    Entry e("pario_shared_file_create");
    entry_group(e, group);
    if (!path) e.check(invalid("path is null"));
    else if (!file_out) e.check(invalid(std::string(path) + ": file_out is null"));
    e.args().add("path", path).add("hard_limit", hard_limit).add("soft_limit", soft_limit);
    e.args().add("request_size", request_size);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<comm::Group> g, shared_group(group));
    file::SharedFileHints hints{hard_limit, soft_limit, request_size};
    PARIO_ASSIGN_OR_RETURN(const Resources* settings, resources());
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<SharedFile> f, SharedFile::create(g->comm(), path, hints, settings->files));
    return publish_shared(std::move(f), std::move(g), true, file_out);
  });
}

int pario_shared_file_open(pario_group_t group, const char* path, int mode, pario_shared_file_t* file_out) {
  return guarded("pario_shared_file_open", [&]() -> Status {
    Entry e("pario_shared_file_open");
    entry_group(e, group);
    if (!path) e.check(invalid("path is null"));
    else if (!file_out) e.check(invalid(std::string(path) + ": file_out is null"));
    if (mode != PARIO_MODE_READ && mode != PARIO_MODE_RDWR) {
      e.check(invalid("mode " + std::to_string(mode) + " is not PARIO_MODE_READ or PARIO_MODE_RDWR"));
    }
    e.args().add("path", path).add("mode", mode);
    PARIO_RETURN_IF_ERROR(e.agree());
    PARIO_ASSIGN_OR_RETURN(std::shared_ptr<comm::Group> g, shared_group(group));
    PARIO_ASSIGN_OR_RETURN(const Resources* settings, resources());
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<SharedFile> f,
                           SharedFile::open(g->comm(), path, mode == PARIO_MODE_RDWR, settings->files));
    return publish_shared(std::move(f), std::move(g), false, file_out);
  });
}

int pario_shared_file_destroy(pario_shared_file_t* file) {
  return guarded("pario_shared_file_destroy", [&] { return end_shared("pario_shared_file_destroy", file, true); });
}

int pario_shared_file_close(pario_shared_file_t* file) {
  return guarded("pario_shared_file_close", [&] { return end_shared("pario_shared_file_close", file, false); });
}

int pario_shared_file_read(pario_shared_file_t file, int64_t offset, void* buf, size_t bytes) {
  return guarded("pario_shared_file_read", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(SharedFile * f, live_shared(file));
    PARIO_RETURN_IF_ERROR(check_range(offset, buf, bytes));
    return f->read(static_cast<uint64_t>(offset), buf, bytes);
  });
}

int pario_shared_file_write(pario_shared_file_t file, int64_t offset, const void* buf,
                            size_t bytes) {
  return guarded("pario_shared_file_write", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(SharedFile * f, live_shared(file));
    PARIO_RETURN_IF_ERROR(check_range(offset, buf, bytes));
    return f->write(static_cast<uint64_t>(offset), buf, bytes);
  });
}

int pario_shared_file_iread(pario_shared_file_t file, int64_t offset, void* buf, size_t bytes,
                            pario_request_t* req_out) {
  return guarded("pario_shared_file_iread", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(SharedFile * f, live_shared(file));
    PARIO_RETURN_IF_ERROR(check_range(offset, buf, bytes));
    if (!req_out) return invalid("req_out is null");
    return publish(f->iread(static_cast<uint64_t>(offset), buf, bytes), req_out);
  });
}

int pario_shared_file_iwrite(pario_shared_file_t file, int64_t offset, const void* buf,
                             size_t bytes, pario_request_t* req_out) {
  return guarded("pario_shared_file_iwrite", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(SharedFile * f, live_shared(file));
    PARIO_RETURN_IF_ERROR(check_range(offset, buf, bytes));
    if (!req_out) return invalid("req_out is null");
    return publish(f->iwrite(static_cast<uint64_t>(offset), buf, bytes), req_out);
  });
}

int pario_shared_file_suspend(pario_shared_file_t file) {
  return guarded("pario_shared_file_suspend", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(SharedFile * f, live_shared(file));
    return f->suspend();
  });
}

int pario_shared_file_resume(pario_shared_file_t file, int mode) {
  return guarded("pario_shared_file_resume", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(SharedFile * f, live_shared(file));
    if (mode != PARIO_MODE_READ && mode != PARIO_MODE_RDWR) {
      return invalid("mode " + std::to_string(mode) + " is not PARIO_MODE_READ or PARIO_MODE_RDWR");
    }
    return f->resume(mode == PARIO_MODE_RDWR);
  });
}

int pario_shared_file_length(pario_shared_file_t file, int64_t* length_out) {
  return guarded("pario_shared_file_length", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(SharedFile * f, live_shared(file));
    if (!length_out) return invalid("length_out is null");
    PARIO_ASSIGN_OR_RETURN(uint64_t n, f->length());
    *length_out = static_cast<int64_t>(n);
    return Status::Ok();
  });
}

int pario_shared_file_sync(pario_shared_file_t file) {
  return guarded("pario_shared_file_sync", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(SharedFile * f, live_shared(file));
    return f->sync();
  });
}

}  // extern "C"
