// Where a layer keeps the files it makes (a disk array's chunk and shard
// files; later the collective engine's, datasets' and Exodus files).
//
// The layers below the C boundary never choose a backend themselves: capi
// builds a Storage from the configuration (file/storage.h: O_DIRECT,
// MPI-IO, Files in Memory, the asynchronous engine) and hands it down, the
// way LevelDB hands an Env to DB::Open. posix_storage() is the plain one,
// for tools and tests that build a layer directly.
//
// Thread safety: all calls may come from any thread.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "base/status.h"
#include "device/device.h"

namespace pario::device {

class Storage {
 public:
  virtual ~Storage() = default;
  // Opens a file (made 0600 when options.create); kNotFound when it is
  // missing and not to be created.
  virtual Result<std::unique_ptr<Device>> open(const std::string& path, const OpenOptions& options) = 0;
  // A file made whole before it takes path's name (device::NewFile on
  // disk): fill writes it, then it replaces any file there (replace) or
  // is dropped with kExists when the name is taken. Readers of the name
  // see the old file or the whole new one.
  virtual Status write_whole(const std::string& path, bool replace,
                             const std::function<Status(Device&)>& fill) = 0;
  // Lets go of what it keeps of the files under dir beside the disk
  // (files in RAM), once they were removed there.
  virtual void forget(const std::string& /*dir*/) {}
};

// Plain POSIX files, O_DIRECT when direct.
std::shared_ptr<Storage> posix_storage(bool direct = false);

}  // namespace pario::device
