// The shared-file handle table, for the C API files that take shared files
// (shared files themselves, and collective I/O into them).
#pragma once

#include <memory>

#include "capi/boundary.h"
#include "capi/handles.h"
#include "comm/group.h"
#include "file/shared_file.h"
#include "pario/shared_file.h"

namespace pario::capi {

// A shared file with the group it was created on: its collectives meet
// over the group's communicator, the one a rank with a bad handle can
// still name (see capi/collective.h).
struct SharedFileHandle {
  std::unique_ptr<file::SharedFile> file;
  std::shared_ptr<const comm::Group> group;
};
HandleTable<SharedFileHandle>& shared_files();
// The live handle, or kInvalidArgument saying it is null or stale.
Result<SharedFileHandle*> live_shared_handle(pario_shared_file_t f);

}  // namespace pario::capi
