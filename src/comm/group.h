// A process group for global arrays, counters and disk arrays: a
// communicator plus what the array layer needs to know about where its ranks run.
//
// DDI runs every distributed operation in a scope: the world, a group (the
// world split into several independent groups), or the masters (rank 0 of
// every group). A Group is one such scope. It owns a duplicate of its
// communicator, the communicator of the ranks on this rank's node (real or
// emulated by PARIO_RANKS_PER_NODE), and knows whether every rank of the
// group can map every other's memory (one physical node), which decides
// how array windows are built (see global_array.cpp).
//
// Collectives (barrier, sum, broadcast) return the same status on every rank.
// Thread safety: as MPI's for the communicator; the object is immutable.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "base/element_type.h"
#include "base/status.h"
#include "comm/comm.h"

namespace pario::comm {

// The MPI datatype of each element type (MPI_DATATYPE_NULL outside the enum).
MPI_Datatype element_mpi_type(ElementType t);

class Group {
 public:
  // Collective over `comm` (duplicated). ranks_per_node > 0 emulates nodes.
  static Result<std::shared_ptr<Group>> create(MPI_Comm comm, int ranks_per_node);
  // Collective over the parent: ranks with the same color form one group,
  // ordered by parent rank. color < 0 means "in no group" (returns null).
  Result<std::shared_ptr<Group>> split(int color) const;

  MPI_Comm comm() const { return comm_.get(); }
  const Comm& comm_object() const { return comm_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  const NodeTopology& topology() const { return topo_; }
  MPI_Comm node_comm() const { return node_comm_.get(); }
  // World-of-group rank of every rank's node index, and of every node's
  // first rank (its master).
  int node_of(int rank) const { return node_of_[rank]; }
  int master_of_node(int node) const { return node_master_[node]; }
  // Ranks of a node, in group order.
  const std::vector<int>& ranks_of_node(int node) const { return node_ranks_[node]; }
  // True when all ranks share one physical node (can map each other's memory).
  bool one_physical_node() const { return one_physical_node_; }
  int ranks_per_node_setting() const { return ranks_per_node_; }

  Status barrier() const;
  // In-place sum over the group of `count` elements.
  Status sum(ElementType type, void* buf, size_t count) const;
  Status broadcast(void* buf, size_t bytes, int root) const;

 private:
  Group() = default;
  Comm comm_;
  Comm node_comm_;
  NodeTopology topo_;
  int rank_ = 0, size_ = 1, ranks_per_node_ = 0;
  bool one_physical_node_ = true;
  std::vector<int> node_of_, node_master_;
  std::vector<std::vector<int>> node_ranks_;
};

}  // namespace pario::comm
