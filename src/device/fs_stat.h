// What ELIO's stat tells about the storage under a path: free space and the
// file-system type, so a code can pick a scratch directory or warn early.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"

namespace pario::device {

struct FsStat {
  uint64_t available_bytes = 0;  // usable by this (unprivileged) user
  uint64_t total_bytes = 0;
  uint64_t block_size = 0;       // preferred I/O size
  std::string type;              // "ext4", "xfs", "tmpfs", "zfs", "overlay", ...
};

// `path` may be a file or a directory; if it does not exist yet, its parent
// directory is described (where a file of that name would be created).
Result<FsStat> stat_path(const std::string& path);

}  // namespace pario::device
