// Shared files (ChemIO's SF): one scratch file for all processes of a
// communicator, each reading and writing any bytes independently.
//
// Semantics (ChemIO section 4.4, and what its users rely on):
//   - create and destroy are collective; every rank passes the same path
//     and hints (checked: a mismatch fails on every rank, never hangs);
//   - reads and writes are independent, byte-addressed, blocking or not;
//   - holes read as zeros; a read past the current end of file is an error
//     (kOutOfRange), as is a write past the hard limit;
//   - a nonblocking write's buffer is borrowed until its request completes;
//   - overlapping concurrent writes have no defined outcome; after a
//     barrier every rank sees every write completed before it (the bytes
//     sit in one page cache on one machine; a parallel file system needs
//     the MPI-IO backend).
// Where the bytes live is the run-time backend choice of file/backend.h, or
// node-shared RAM when PARIO_FIM matches the path (file/fim.h).
// PARIO_DIRECT=1 opens every rank's descriptor O_DIRECT; the device writes
// partial blocks through the page cache, never by read-modify-write, so
// ranks writing disjoint bytes of one 4 KiB block keep each other's bytes
// (capi_shared_file_direct_test; see device/posix_device.cpp).
//
// Thread safety: as PrivateFile; create/close/destroy from one thread.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>

#include "comm/comm.h"
#include "file/backend.h"
#include "file/fim.h"
#include "file/private_file.h"

namespace pario::file {

// Sizes in bytes; -1 means unknown.
struct SharedFileHints {
  int64_t hard_limit = -1;    // writes may not go past it
  int64_t soft_limit = -1;    // expected size (advisory)
  int64_t request_size = -1;  // typical request (picks the stripe size)
};

class SharedFile {
 public:
  // Collective over comm (which is duplicated). Rank 0 creates the file,
  // replacing an old one of that name; then every rank opens it.
  static Result<std::unique_ptr<SharedFile>> create(MPI_Comm comm, const std::string& path,
                                                    const SharedFileHints& hints,
                                                    const FileSettings& settings);
  // Collective over comm: opens an existing file (a restart, or a file an
  // earlier job wrote) read-only or read-write on every rank, never
  // creating or truncating it. Files in Memory do not apply: the bytes are
  // where the earlier job left them.
  static Result<std::unique_ptr<SharedFile>> open(MPI_Comm comm, const std::string& path, bool writable,
                                                  const FileSettings& settings);
  ~SharedFile();

  Status read(uint64_t offset, void* buf, size_t len);
  Status write(uint64_t offset, const void* buf, size_t len);
  Result<std::shared_ptr<device::Request>> iread(uint64_t offset, void* buf, size_t len);
  Result<std::shared_ptr<device::Request>> iwrite(uint64_t offset, const void* buf, size_t len);
  // The current end of file (the furthest byte any rank's completed
  // writes reached, once ordered by a barrier).
  Result<uint64_t> length();
  // This rank's writes to stable storage.
  Status sync();
  // Local (GA's SF_Close / SF_Open / SF_Rwtor): suspend() completes this
  // rank's requests and releases its descriptor; resume() opens the file
  // again, read-write or read-only (closing it first if open).
  Status suspend();
  Status resume(bool writable);
  // Collective: completes this rank's requests and closes the file.
  Status close();
  // Collective: close(), then rank 0 deletes the file once every rank has
  // closed it.
  Status destroy();

  const std::string& path() const { return path_; }
  const SharedFileHints& hints() const { return hints_; }
  int rank() const { return comm_.rank(); }

 private:
  SharedFile() = default;
  // Collective, the first step of create and open: the communicator, the
  // path and settings, and the agreement on this rank's checks (`local`).
  static Result<std::unique_ptr<SharedFile>> begin(MPI_Comm comm, const std::string& path,
                                                   const FileSettings& settings, const Status& local);
  Status check_limit(uint64_t offset, size_t len) const;
  // Collective: closes every rank's file; keep: a RAM copy goes to disk.
  Status close_files(bool keep);
  // The open file, or why there is none on this rank.
  Result<PrivateFile*> open_file() const;

  comm::Comm comm_;
  std::string path_;
  SharedFileHints hints_;
  Placement where_;
  std::unique_ptr<PrivateFile> file_;  // null while suspended or closed
  bool closed_ = false;
  FileSettings settings_;  // as at create
  fim::SharedRam ram_;  // the node's copy (Files in Memory)
};

}  // namespace pario::file
