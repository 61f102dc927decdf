// Files in Memory (MOLCAS's FiM): any scratch file whose name matches a
// PARIO_FIM pattern lives in node-shared RAM (device/ram_file.h) instead of
// on disk, under a RAM budget per node (PARIO_FIM_BUDGET), spilling to its
// disk path when the budget is spent (PARIO_FIM_SPILL=disk; =error makes
// that a kNoSpace error). Programs choose nothing: the rules are run-time
// configuration.
//
// Lifetimes, so that results never depend on where the bytes were:
//   - a private file in RAM stays in RAM after close, so that reopening it
//     in this process finds its bytes, until pario_file_delete (or
//     truncating reopen) drops it. At stop() (pario_finalize) every RAM
//     file still there is written to its disk path: nothing is lost.
//   - a shared file in RAM has one copy per node, shared by the node's
//     ranks. On one node the copy grows as writes reach further (as a
//     private file's). When the group spans nodes, every write also goes
//     to the other nodes' copies (file/node_copies.h), whose RAM part is
//     fixed at create: the size hint (soft limit, else hard limit, else
//     half the smallest node's free budget), as far as every node's budget
//     allows; the rest is on disk. destroy() drops the copies; close()
//     writes the file to disk first.
// An existing disk file opened without truncation stays on disk.
//
// Thread safety: calls may come from any thread (one registry lock).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "comm/comm.h"
#include "device/device.h"
#include "device/ram_file.h"
#include "file/backend.h"
#include "file/node_copies.h"

namespace pario::file::fim {

// The rules (PARIO_FIM, PARIO_FIM_BUDGET, PARIO_FIM_SPILL).
struct Rules {
  std::vector<std::string> patterns;  // files that go to RAM (base/config.h: fim_matches)
  uint64_t budget = 0;                // RAM per node, bytes
  bool spill = true;                  // a spent budget spills to disk (false: kNoSpace)
};

// Collective over world at pario_init: keeps the rules and the settings
// RAM files spill and go to disk with, clears dead jobs' segments and, if
// there are patterns, sets up one RAM budget per (possibly emulated) node.
Status start(const comm::Comm& world, const Rules& rules, const FileSettings& settings);
// At pario_finalize: writes private RAM files to disk and lets go of RAM.
Status stop();

// Whether path is to live in RAM (a pattern matches it).
bool wants_ram(const std::string& path);

// A private file under the rules: its RAM device, or null when it is to be
// on disk after all (it exists there and is not being truncated).
Result<std::unique_ptr<device::Device>> open_private(const std::string& path,
                                                     const Placement& disk,
                                                     const device::OpenOptions& options);
// Drops a private RAM file of that path; false if there was none.
bool forget_private(const std::string& path);

// Disk arrays (file/storage.h): each file under a store that a rule
// matches is one node-shared RAM file, found by every rank of the node by
// a name made from its path, so ranks write chunks of one shard side by
// side and read each other's chunks as on disk. The store's group must lie
// on one node (capi keeps a spanning one on disk). New files are published
// whole (a new file takes the name, as device::NewFile does on disk). At
// stop() each file is written to its disk path by the process that
// published it; forget_store drops a removed store's files.
//
// Whether path is a file on disk that has no RAM file (it stays on disk).
bool store_file_on_disk(const std::string& path, const Placement& disk);
// Its RAM device; null when it is on disk (open it there); kNotFound when
// it is nowhere and not to be created.
Result<std::unique_ptr<device::Device>> open_store_file(const std::string& path, const device::OpenOptions& options,
                                                        const Placement& disk);
// A new RAM file, filled, then published over the old (replace) or
// dropped with kExists when the name is taken.
Status write_store_file(const std::string& path, bool replace,
                        const std::function<Status(device::Device&)>& fill, const Placement& disk);
void forget_store(const std::string& dir);

// A shared file's RAM: this node's copy, and the write-through to the
// other nodes' copies when the group spans nodes.
struct SharedRam {
  std::shared_ptr<device::RamFile> file;  // null: the file is on disk
  std::shared_ptr<NodeCopies> copies;     // null on one node
  explicit operator bool() const { return file != nullptr; }
};

// Collective over comm: a shared file's RAM, or none (the rules do not
// match; or the group spans nodes and MPI lacks MPI_THREAD_MULTIPLE, or
// some node's budget has no room for the RAM part). size_hint: the expected size in bytes, 0 if
// unknown. The caller then removes any old disk file on rank 0.
Result<SharedRam> create_shared(const comm::Comm& comm, const std::string& path, uint64_t size_hint);
std::unique_ptr<device::Device> shared_device(const std::string& path, const SharedRam& ram,
                                              const Placement& disk);
// Collective over comm: lets go of the RAM; keep: rank 0 first writes the
// file to its disk placement.
Status close_shared(const comm::Comm& comm, SharedRam* ram, const std::string& path,
                    const Placement& disk, bool keep);
// Writes a RAM file's bytes to its disk placement.
Status write_to_disk(const std::shared_ptr<device::RamFile>& file, const std::string& path,
                     const Placement& disk);

}  // namespace pario::file::fim
