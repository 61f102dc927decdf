// Where a scratch file's bytes live, chosen at run time (PARIO_FILE_BACKEND)
// for private and shared files alike:
//   posix    one file at the path given;
//   striped  round-robin stripes over the PARIO_SCRATCH directories: the
//            path itself holds stripe 0, and scratch directory i (i >= 1)
//            holds <dir i>/<file name>.stripe<i>. With one directory this
//            is the posix backend;
//   mpiio    one file at the path given, moved through MPI-IO (see
//            file/mpiio_device.h), for parallel file systems.
// The stripe size is PARIO_STRIPE_SIZE if set, else the file's typical
// request size rounded up to 4 KiB (so consecutive requests go to
// different disks), else 1 MiB.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/config.h"
#include "base/status.h"
#include "device/async.h"
#include "device/device.h"

namespace pario::file {

// What the C boundary hands every file it opens: the configuration's
// placement rules (base/config.h names the variables) and the engine.
struct FileSettings {
  FileBackendChoice backend = FileBackendChoice::kPosix;
  std::vector<std::string> scratch_dirs;  // stripes go to the second and later ones
  uint64_t stripe_size = 0;               // 0: chosen from the request size
  bool direct = false;                    // every file O_DIRECT
  int ranks_per_node = 0;                 // emulated nodes (0: real ones)
  device::AsyncEngine* engine = nullptr;  // asynchronous requests; never null when opening
};

struct Placement {
  std::vector<std::string> paths;  // one per component; one for posix
  uint64_t stripe = 0;             // 0 unless striped
  bool mpiio = false;              // one file, through MPI-IO
};

// The files behind `path` under the settings' backend. request_hint is the
// typical request size in bytes (0: unknown).
Result<Placement> place(const std::string& path, uint64_t request_hint, const FileSettings& settings);
Result<std::unique_ptr<device::Device>> open_device(const Placement& where,
                                                    const device::OpenOptions& options);
// Deletes every file of the placement. kNotFound if the first is missing;
// other missing components are ignored (a file made under posix).
Status remove_files(const Placement& where);

}  // namespace pario::file
