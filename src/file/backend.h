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

#include "base/status.h"
#include "device/device.h"

namespace pario::file {

struct Placement {
  std::vector<std::string> paths;  // one per component; one for posix
  uint64_t stripe = 0;             // 0 unless striped
  bool mpiio = false;              // one file, through MPI-IO
};

// The files behind `path` under the configured backend. request_hint is the
// typical request size in bytes (0: unknown).
Result<Placement> place(const std::string& path, uint64_t request_hint);
Result<std::unique_ptr<device::Device>> open_device(const Placement& where,
                                                    const device::OpenOptions& options);
// Deletes every file of the placement. kNotFound if the first is missing;
// other missing components are ignored (a file made under posix).
Status remove_files(const Placement& where);

}  // namespace pario::file
