// C API: private files.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>

#include "base/config.h"
#include "capi/boundary.h"
#include "capi/handles.h"
#include "capi/request.h"
#include "device/fs_stat.h"
#include "file/private_file.h"
#include "pario/file.h"
#include "pario/runtime.h"

namespace pario::capi {
namespace {

using file::PrivateFile;
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
    file::PrivateFileOptions o;
    o.read = mode & PARIO_MODE_READ;
    o.write = mode & PARIO_MODE_WRITE;
    o.create = mode & PARIO_MODE_CREATE;
    o.truncate = mode & PARIO_MODE_TRUNCATE;
    o.exclusive = mode & PARIO_MODE_EXCLUSIVE;
    o.direct = mode & PARIO_MODE_DIRECT;
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<PrivateFile> f, PrivateFile::open(path, o));
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
    if (::unlink(path) != 0) return errno_status(errno, path);
    return Status::Ok();
  });
}

int pario_file_write(pario_file_t file, int64_t offset, const void* buf, size_t bytes) {
  return guarded("pario_file_write", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(PrivateFile * f, live_file(file));
    PARIO_RETURN_IF_ERROR(check_range(offset, buf, bytes));
    return f->write(static_cast<uint64_t>(offset), buf, bytes);
  });
}

int pario_file_read(pario_file_t file, int64_t offset, void* buf, size_t bytes) {
  return guarded("pario_file_read", [&]() -> Status {
    PARIO_ASSIGN_OR_RETURN(PrivateFile * f, live_file(file));
    PARIO_RETURN_IF_ERROR(check_range(offset, buf, bytes));
    return f->read(static_cast<uint64_t>(offset), buf, bytes);
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

}  // extern "C"
