// The one reader of the configuration (base/config.h) below the public
// API. It turns the environment into the options each layer takes as
// arguments, and builds once the process-wide resources they share: the
// asynchronous engine, the disk arrays' I/O threads and chunk buffers.
// Nothing below capi calls config(); a reader follows a setting from here
// to the device through arguments.
#pragma once

#include <memory>
#include <string>

#include "base/config.h"
#include "base/status.h"
#include "capi/collective.h"
#include "collective/decomposition.h"
#include "diskarray/disk_array.h"
#include "file/backend.h"
#include "pario/collective_io.h"

namespace pario::capi {

// Built on first use (pario_init, or a private file opened before it);
// never destroyed, since requests may complete while statics go away.
struct Resources {
  const Config* config = nullptr;
  std::unique_ptr<device::AsyncEngine> engine;
  std::string engine_description;  // what pario_io_engine reports
  file::FileSettings files;        // every private and shared file's
  diskarray::DiskArrayOptions disk_arrays;  // without storage: storage_for adds it per store
  collective::CollectiveOptions collective;  // before a call's hints
};
Result<const Resources*> resources();

// A disk array's options, with the storage for its store at `path` used by
// a group on one node or not. making: for a create or an open, which a
// backend that cannot keep a store refuses (a delete goes ahead).
Result<diskarray::DiskArrayOptions> disk_array_options(const std::string& path, bool one_node, bool making);

// The environment's collective options with a call's hints over them
// (hints may be null); kInvalidArgument naming a bad hint.
Result<collective::CollectiveOptions> collective_options(const pario_decomp_hints* hints);

// collective_options for an object's call (an Exodus file, a dataset, a
// wave-function file): a bad hint checked into e, and the options every
// rank must share digested, so that hints differing between ranks fail
// the call naming the field (ranks taking different ways (buffering) or
// file domains (align) would wait for each other). The byte order is the
// object's business, neither digested nor set here.
Result<collective::CollectiveOptions> entry_collective_options(Entry& e, const pario_decomp_hints* hints);

// A wave-function file's transfer (a PARIO_WF_TRANSFER_* value) from a
// call's hint, or PARIO_WAVEFUNCTION_TRANSFER for PARIO_WF_TRANSFER_DEFAULT;
// kInvalidArgument naming a bad hint.
Result<WavefunctionTransferChoice> wavefunction_transfer(int hint);

}  // namespace pario::capi
