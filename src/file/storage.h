// The device::Storage that capi hands a disk array (and the layers still to
// come): the same placement rules that private and shared files follow,
// for every file of one store.
//
//   PARIO_DIRECT        every file O_DIRECT (whole files made by
//                       write_whole, such as compressed chunks, are written
//                       through the page cache: see device/storage.h);
//   PARIO_FILE_BACKEND  mpiio: opened through MPI-IO (file/mpiio_device.h);
//                       striped: refused (kUnsupported), since stripes lie
//                       in other directories, outside the store, where no
//                       Zarr reader would look;
//   PARIO_IO_ENGINE     io_uring: transfers of files on disk go through the
//                       ring (the caller's threads submit and wait);
//   PARIO_FIM           a pattern that matches the store's path puts all of
//                       its new files in node-shared RAM (file/fim.h), when
//                       the group lies on one (possibly emulated) node; files
//                       already on disk stay there.
#pragma once

#include <memory>
#include <string>

#include "base/status.h"
#include "device/storage.h"
#include "file/backend.h"

namespace pario::file {

// kUnsupported for a backend that cannot keep a store's files in it.
Status check_store_backend(const std::string& store, const FileSettings& settings);
// The storage for the files under directory `store`, used by a group
// that lies on one node or not (then Files in Memory keeps it on disk).
// through: an engine that the transfers of files on disk go through
// (device/engine_device.h); null: they call the device.
std::shared_ptr<device::Storage> storage_for(const std::string& store, const FileSettings& settings,
                                             bool one_node, device::AsyncEngine* through = nullptr);

}  // namespace pario::file
