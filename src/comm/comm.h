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

#include <cstddef>
#include <cstdint>
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

// Local: kInvalidArgument unless c is a live intracommunicator. MPI has
// no query that cannot fail on a bad handle, and its default handler ends
// the job: while asking, MPI_COMM_WORLD's and MPI_COMM_SELF's handlers
// (where MPI reports errors on no valid communicator) return instead.
Status check_user_comm(MPI_Comm c);

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
// Collective: agree() and, in the same allreduce, values[0..n) replaced by
// their maxima over the ranks (n <= 8; a failing rank's values count too).
// A min travels as the max of its negation.
Status agree_max(const Comm& comm, const Status& local, int64_t* values, int n);

// What a rank brings to the first step of a collective call: the call's
// name and a digest of each argument that must be the same on every rank
// (a path, a shape, a root). Names are kept for the message; only hashes
// travel.
class CallDigest {
 public:
  // Enough for every pario collective's arguments, each in its own slot
  // (pario_decomp_create_blocks has 9), so that "ranks passed different X"
  // names X alone. The allreduce carries 2 * (kMaxArgs + 1) + 1 int64s.
  static constexpr int kMaxArgs = 16;

  explicit CallDigest(const char* call);

  // Each adds one argument (at most kMaxArgs; later ones would fold into
  // the last slot, still compared but named with it). A null pointer is hashed as such, so "null here, a value there"
  // is a difference too.
  CallDigest& add(const char* name, int64_t value);
  CallDigest& add(const char* name, const char* text);
  CallDigest& add(const char* name, const int64_t* values, size_t n);
  CallDigest& add(const char* name, const int* values, size_t n);
  CallDigest& add_bytes(const char* name, const void* bytes, size_t n);

  const char* call() const { return call_; }
  uint64_t call_hash() const { return call_hash_; }
  int args() const { return nargs_; }
  const char* name(int i) const { return names_[i]; }
  uint64_t hash(int i) const { return hashes_[i]; }

 private:
  CallDigest& put(const char* name, uint64_t hash);
  const char* call_;
  uint64_t call_hash_;
  int nargs_ = 0;
  const char* names_[kMaxArgs] = {};
  uint64_t hashes_[kMaxArgs] = {};
};

// Collective: the first step of every collective call, after each rank has
// checked its own arguments. One allreduce of a fixed size (the same for
// every call, so ranks that entered different collectives on one
// communicator meet in it instead of waiting for each other) tells every
// rank, in this order:
//  - the ranks called different collectives: kInvalidArgument everywhere;
//  - a rank's own check failed: that status there, kRemote naming the
//    lowest failing rank elsewhere (as agree());
//  - an argument differs between ranks: kInvalidArgument everywhere,
//    naming the arguments.
// The same allreduce also carries up to kAgreeCallValues int64s that the
// call needs reduced by maximum (max_values[0..n), replaced by the
// maxima, as agree_max does), so a call whose next step needs them makes
// no second agreement; unused slots travel as zeros.
constexpr int kAgreeCallValues = 2;
Status agree_call(const Comm& comm, const Status& local, const CallDigest& digest, int64_t* max_values = nullptr,
                  int n = 0);

}  // namespace pario::comm
