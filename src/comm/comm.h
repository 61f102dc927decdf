// The comm layer: MPI start-up, communicators pario owns, node topology.
//
// pario starts MPI itself when the application has not (so a program run
// without mpiexec is a one-rank singleton job), and then also finalizes it;
// when the application started MPI, pario only borrows it. Every
// communicator pario uses is a duplicate with MPI_ERRORS_RETURN, so an MPI
// failure becomes a Status instead of an abort, and pario's traffic never
// matches the application's.
//
// Node topology comes from MPI_Comm_split_type(MPI_COMM_TYPE_SHARED). For
// tests on one machine, PARIO_RANKS_PER_NODE=k splits the ranks into
// emulated nodes of k consecutive ranks each (DDI's and FiM's node-shared
// paths can then be tested with several "nodes" on a laptop).
//
// Thread safety: initialize/finalize from one thread; Comm objects follow
// MPI's rules for the thread level obtained.
#pragma once

#include <mpi.h>

#include <string>

#include "base/status.h"

namespace pario::comm {

// Starts MPI if needed (asking for MPI_THREAD_MULTIPLE) and duplicates
// MPI_COMM_WORLD. Idempotent.
Status initialize();
// Frees pario's communicators; finalizes MPI only if initialize() started it.
Status finalize();
bool initialized();
// The thread level MPI granted.
int thread_level();

// Converts an MPI error code into a Status naming the call.
Status mpi_status(int rc, const char* call);

// An owned communicator (a duplicate, errors returned).
class Comm {
 public:
  Comm() = default;
  ~Comm();
  Comm(Comm&& other) noexcept : comm_(other.comm_) { other.comm_ = MPI_COMM_NULL; }
  Comm& operator=(Comm&& other) noexcept;
  Comm(const Comm&) = delete;
  Comm& operator=(const Comm&) = delete;

  static Result<Comm> duplicate(MPI_Comm comm);
  // Takes ownership of a communicator pario created (e.g. by a split).
  static Result<Comm> adopt(MPI_Comm comm);

  MPI_Comm get() const { return comm_; }
  int rank() const;
  int size() const;
  Status barrier() const;
  // Collective release; local destructors only free what is left.
  Status free();

 private:
  explicit Comm(MPI_Comm comm) : comm_(comm) {}
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// pario's duplicate of MPI_COMM_WORLD (valid after initialize()).
const Comm& world();

struct NodeTopology {
  int node = 0;        // this rank's node index, 0 .. nodes-1
  int nodes = 1;       // number of (possibly emulated) nodes
  int node_rank = 0;   // rank within the node
  int node_size = 1;   // ranks on this node
  bool emulated = false;
};

// Collective over `comm`. ranks_per_node > 0 emulates nodes of that size.
// If node_out is given, it receives the communicator of this rank's node.
Result<NodeTopology> node_topology(const Comm& comm, int ranks_per_node, Comm* node_out = nullptr);

// Collective: root's string to every rank of comm.
Status broadcast_string(const Comm& comm, std::string* s, int root);

// Collective: every rank returns the same status. Ranks that succeeded
// while another failed get kRemote naming the failing rank and its message
// (cut to a few hundred bytes), so nobody is left waiting in a later call.
Status agree(const Comm& comm, const Status& local);

}  // namespace pario::comm
