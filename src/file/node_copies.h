// Files in Memory across nodes: a shared file whose group spans several
// (real or emulated) nodes keeps one copy of its RAM part on every node, so
// that reads are memory copies on every node, as on one node.
//
// Every write goes through to every copy: a memory copy into this node's,
// then one MPI_Put per other node into that node's copy (exposed by its
// node master with MPI_Win_create), completed with MPI_Win_flush before the
// write returns. So the shared-file rule holds: after a barrier, every rank
// sees every write completed before it.
//
// A copy cannot grow from another node (growing a segment is a system call
// on its own node), so the RAM part is fixed at create, the same on every
// node: the size hint, as far as every node's budget allows. Bytes past it
// go to the disk file, which every node sees (as for a shared file on
// disk), and are counted as spilled.
//
// The file's length is one word at rank 0 of the group, moved only by MPI
// atomics (MPI_Fetch_and_op with MPI_MAX): MPI promises atomicity only
// among its own operations. Shared files never shrink, so each process
// remembers the largest length seen and asks rank 0 only for a read
// beyond it.
//
// Thread safety: the devices may be used from any thread (MPI must grant
// MPI_THREAD_MULTIPLE; fim.cpp keeps the file on disk otherwise).
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "comm/comm.h"
#include "comm/handles.h"
#include "device/ram_file.h"

namespace pario::file {

class NodeCopies : public std::enable_shared_from_this<NodeCopies> {
 public:
  // Collective over comm: `ram` is this node's copy, its RAM part already
  // fixed (RamFile::fix_ram) at the same size on every node.
  static Result<std::shared_ptr<NodeCopies>> create(const comm::Comm& comm,
                                                    const comm::NodeTopology& topo,
                                                    std::shared_ptr<device::RamFile> ram);
  ~NodeCopies();

  // A device over this node's copy writing through to the others; `disk`
  // opens the shared disk file for bytes past the RAM part.
  std::unique_ptr<device::Device> device(const std::string& path, device::SpillOpener disk);
  // Collective: the file's final length, also stored in this node's copy
  // (for writing it to disk); frees the windows.
  Result<uint64_t> finish();

  uint64_t ram_part() const { return ram_part_; }
  // Writes [offset, offset + len) of the RAM part into every other node's copy.
  Status put_elsewhere(uint64_t offset, const void* buf, size_t len);
  // The file's length is at least `end` (an atomic maximum at rank 0).
  Status extend_length(uint64_t end);
  // The file's length as rank 0 has it now.
  Result<uint64_t> length();
  // The largest length this process has seen (a lower bound of length()).
  uint64_t known_length() const { return known_.load(); }
  const std::shared_ptr<device::RamFile>& ram() const { return ram_; }

 private:
  NodeCopies() = default;
  Status free_windows();

  MPI_Comm comm_ = MPI_COMM_NULL;   // borrowed: the shared file's own
  std::vector<int> other_masters_;  // ranks holding the other nodes' copies
  std::shared_ptr<device::RamFile> ram_;
  uint64_t ram_part_ = 0;
  comm::Window data_;    // node masters expose their copy
  comm::Window length_;  // rank 0 exposes length_word_
  uint64_t length_word_ = 0;
  std::atomic<uint64_t> known_{0};
};

}  // namespace pario::file
