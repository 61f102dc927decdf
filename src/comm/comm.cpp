#include "comm/comm.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

namespace pario::comm {
namespace {

struct State {
  bool initialized = false;
  bool owns_mpi = false;
  int thread_level = MPI_THREAD_SINGLE;
  Comm world;
};

State& state() {
  static State s;
  return s;
}

}  // namespace

Status mpi_status(int rc, const char* call) {
  if (rc == MPI_SUCCESS) return Status::Ok();
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) {
    std::snprintf(text, sizeof text, "MPI error %d", rc);
  }
  return Status(Code::kMpi, std::string(call) + ": " + text);
}

Status initialize() {
  State& s = state();
  if (s.initialized) return Status::Ok();
  int flag = 0;
  MPI_Initialized(&flag);
  if (!flag) {
    int provided = MPI_THREAD_SINGLE;
    int rc = MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided);
    if (rc != MPI_SUCCESS) return Status(Code::kMpi, "MPI_Init_thread failed");
    s.owns_mpi = true;
  } else {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return Status(Code::kState, "MPI was already finalized");
  }
  MPI_Query_thread(&s.thread_level);
  PARIO_ASSIGN_OR_RETURN(s.world, Comm::duplicate(MPI_COMM_WORLD));
  s.initialized = true;
  return Status::Ok();
}

Status finalize() {
  State& s = state();
  if (!s.initialized) return Status::Ok();
  Status st = s.world.free();
  s.initialized = false;
  if (s.owns_mpi) {
    s.owns_mpi = false;
    int rc = MPI_Finalize();
    if (st.ok()) st = mpi_status(rc, "MPI_Finalize");
  }
  return st;
}

Status check_user_comm(MPI_Comm c) {
  if (c == MPI_COMM_NULL) return Status(Code::kInvalidArgument, "the communicator is MPI_COMM_NULL");
  MPI_Errhandler world_handler = MPI_ERRHANDLER_NULL, self_handler = MPI_ERRHANDLER_NULL;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &world_handler);
  MPI_Comm_get_errhandler(MPI_COMM_SELF, &self_handler);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int inter = 0;
  const int rc = MPI_Comm_test_inter(c, &inter);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, world_handler);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, self_handler);
  MPI_Errhandler_free(&world_handler);
  MPI_Errhandler_free(&self_handler);
  if (rc != MPI_SUCCESS) return Status(Code::kInvalidArgument, "not a valid communicator handle");
  if (inter) return Status(Code::kInvalidArgument, "an intercommunicator (pario groups need an intracommunicator)");
  return Status::Ok();
}

bool initialized() { return state().initialized; }
int thread_level() { return state().thread_level; }
const Comm& world() { return state().world; }

Comm::~Comm() {
  // Local release only: MPI_Comm_free is collective in principle but
  // completes locally; skip it once MPI is gone.
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
}

Comm& Comm::operator=(Comm&& other) noexcept {
  if (this != &other) {
    Comm old(comm_);
    comm_ = other.comm_;
    other.comm_ = MPI_COMM_NULL;
  }
  return *this;
}

Result<Comm> Comm::duplicate(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return Status(Code::kInvalidArgument, "null communicator");
  MPI_Comm dup = MPI_COMM_NULL;
  PARIO_RETURN_IF_ERROR(mpi_status(MPI_Comm_dup(comm, &dup), "MPI_Comm_dup"));
  return adopt(dup);
}

Result<Comm> Comm::adopt(MPI_Comm comm) {
  Comm c(comm);
  PARIO_RETURN_IF_ERROR(
      mpi_status(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler"));
  return c;
}

int Comm::rank() const {
  int r = 0;
  MPI_Comm_rank(comm_, &r);
  return r;
}

int Comm::size() const {
  int n = 1;
  MPI_Comm_size(comm_, &n);
  return n;
}

Status Comm::barrier() const { return mpi_status(MPI_Barrier(comm_), "MPI_Barrier"); }

Status Comm::free() {
  if (comm_ == MPI_COMM_NULL) return Status::Ok();
  return mpi_status(MPI_Comm_free(&comm_), "MPI_Comm_free");
}

Result<NodeTopology> node_topology(const Comm& comm, int ranks_per_node, Comm* node_out) {
  if (ranks_per_node < 0) return Status(Code::kInvalidArgument, "negative ranks per node");
  NodeTopology t;
  const int rank = comm.rank();
  MPI_Comm node_comm = MPI_COMM_NULL;
  int color;
  if (ranks_per_node > 0) {
    color = rank / ranks_per_node;
    t.emulated = true;
    PARIO_RETURN_IF_ERROR(mpi_status(MPI_Comm_split(comm.get(), color, rank, &node_comm),
                                     "MPI_Comm_split"));
  } else {
    PARIO_RETURN_IF_ERROR(mpi_status(
        MPI_Comm_split_type(comm.get(), MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node_comm),
        "MPI_Comm_split_type"));
  }
  PARIO_ASSIGN_OR_RETURN(Comm node, Comm::adopt(node_comm));
  t.node_rank = node.rank();
  t.node_size = node.size();
  // Node index: number the nodes by their lowest world rank, so the
  // numbering is the same on every rank and does not depend on MPI's
  // internal node order.
  int leader = t.node_rank == 0 ? 1 : 0;
  int leaders_before = 0;
  PARIO_RETURN_IF_ERROR(mpi_status(
      MPI_Exscan(&leader, &leaders_before, 1, MPI_INT, MPI_SUM, comm.get()), "MPI_Exscan"));
  if (rank == 0) leaders_before = 0;  // MPI_Exscan leaves rank 0 undefined
  int node_index = leaders_before;  // meaningful on leaders only
  // Every member of a node takes its leader's index.
  PARIO_RETURN_IF_ERROR(
      mpi_status(MPI_Bcast(&node_index, 1, MPI_INT, 0, node.get()), "MPI_Bcast"));
  t.node = node_index;
  PARIO_RETURN_IF_ERROR(mpi_status(
      MPI_Allreduce(&leader, &t.nodes, 1, MPI_INT, MPI_SUM, comm.get()), "MPI_Allreduce"));
  if (node_out) *node_out = std::move(node);
  return t;
}

namespace {

// FNV-1a: a digest, not a defence against an adversary (ranks of one job
// compare their own arguments).
uint64_t fnv1a(const void* bytes, size_t n, uint64_t h = 14695981039346656037ull) {
  const auto* p = static_cast<const unsigned char*>(bytes);
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

constexpr uint64_t kNullHash = 0x6e756c6c6e756c6cull;  // "nullnull"

// Tells the failing rank's code and message to every rank (root: failing).
Status share_failure(const Comm& comm, const Status& local, int failing) {
  char msg[512] = {0};
  int code = local.raw_code();
  if (comm.rank() == failing) std::snprintf(msg, sizeof msg, "%s", local.message().c_str());
  PARIO_RETURN_IF_ERROR(mpi_status(MPI_Bcast(&code, 1, MPI_INT, failing, comm.get()), "MPI_Bcast"));
  PARIO_RETURN_IF_ERROR(
      mpi_status(MPI_Bcast(msg, sizeof msg, MPI_CHAR, failing, comm.get()), "MPI_Bcast"));
  if (!local.ok()) return local;
  return Status(Code::kRemote, "rank " + std::to_string(failing) + " failed (" +
                                   code_name(code) + "): " + msg);
}

}  // namespace

Status agree(const Comm& comm, const Status& local) {
  struct {
    int failed;
    int rank;
  } mine{local.ok() ? 0 : 1, comm.rank()}, first{0, 0};
  // MAXLOC on (failed, -rank) would pick the highest rank; we want the
  // lowest failing rank, so reduce on (failed, -rank) and negate back.
  mine.rank = -mine.rank;
  PARIO_RETURN_IF_ERROR(mpi_status(
      MPI_Allreduce(&mine, &first, 1, MPI_2INT, MPI_MAXLOC, comm.get()), "MPI_Allreduce"));
  if (!first.failed) return Status::Ok();
  return share_failure(comm, local, -first.rank);
}

Status agree_max(const Comm& comm, const Status& local, int64_t* values, int n) {
  constexpr int kMax = 8;
  if (n < 0 || n > kMax) return Status(Code::kInternal, "agree_max: " + std::to_string(n) + " values");
  // [0]: size - rank of a failing rank, so the maximum names the lowest.
  int64_t v[1 + kMax] = {}, all[1 + kMax] = {};
  const int size = comm.size();
  v[0] = local.ok() ? 0 : size - comm.rank();
  std::copy(values, values + n, v + 1);
  PARIO_RETURN_IF_ERROR(
      mpi_status(MPI_Allreduce(v, all, 1 + n, MPI_INT64_T, MPI_MAX, comm.get()), "MPI_Allreduce"));
  std::copy(all + 1, all + 1 + n, values);
  if (all[0] > 0) return share_failure(comm, local, static_cast<int>(size - all[0]));
  return Status::Ok();
}

CallDigest::CallDigest(const char* call) : call_(call), call_hash_(fnv1a(call, std::strlen(call))) {}

CallDigest& CallDigest::put(const char* name, uint64_t hash) {
  if (nargs_ == kMaxArgs) {  // fold into the last slot: still compared
    hashes_[kMaxArgs - 1] = fnv1a(&hash, sizeof hash, hashes_[kMaxArgs - 1]);
    return *this;
  }
  names_[nargs_] = name;
  hashes_[nargs_++] = hash;
  return *this;
}

CallDigest& CallDigest::add(const char* name, int64_t value) { return put(name, fnv1a(&value, sizeof value)); }

CallDigest& CallDigest::add(const char* name, const char* text) {
  return put(name, text ? fnv1a(text, std::strlen(text)) : kNullHash);
}

CallDigest& CallDigest::add(const char* name, const int64_t* values, size_t n) {
  return put(name, values ? fnv1a(values, n * sizeof *values) : kNullHash);
}

CallDigest& CallDigest::add(const char* name, const int* values, size_t n) {
  return put(name, values ? fnv1a(values, n * sizeof *values) : kNullHash);
}

CallDigest& CallDigest::add_bytes(const char* name, const void* bytes, size_t n) {
  return put(name, bytes ? fnv1a(bytes, n) : kNullHash);
}

Status agree_call(const Comm& comm, const Status& local, const CallDigest& digest, int64_t* max_values, int n) {
  // Reduced with MAX: [0] size - rank of a failing rank (so the lowest
  // wins), then each hash h beside ~h, whose maxima give max(h) and ~min(h):
  // a slot is the same everywhere when they meet; then the call's values.
  constexpr int kSlots = 1 + CallDigest::kMaxArgs;
  constexpr int kCount = 1 + 2 * kSlots + kAgreeCallValues;  // the same for every call
  if (n < 0 || n > kAgreeCallValues || (n > 0 && !max_values)) {
    return Status(Code::kInternal, "agree_call: " + std::to_string(n) + " values");
  }
  int64_t v[kCount] = {}, all[kCount] = {};
  std::copy(max_values, max_values + n, v + 1 + 2 * kSlots);
  const int size = comm.size();
  v[0] = local.ok() ? 0 : size - comm.rank();
  auto set = [&](int slot, uint64_t h) {
    v[1 + 2 * slot] = static_cast<int64_t>(h);
    v[2 + 2 * slot] = static_cast<int64_t>(~h);
  };
  set(0, digest.call_hash());
  // A rank whose own check failed may have no valid arguments to hash; its
  // failure is reported first, so its slots only need to be neutral.
  for (int i = 0; i < CallDigest::kMaxArgs; ++i) {
    set(1 + i, local.ok() && i < digest.args() ? digest.hash(i) : 0);
  }
  PARIO_RETURN_IF_ERROR(
      mpi_status(MPI_Allreduce(v, all, kCount, MPI_INT64_T, MPI_MAX, comm.get()), "MPI_Allreduce"));
  std::copy(all + 1 + 2 * kSlots, all + 1 + 2 * kSlots + n, max_values);
  auto same = [&](int slot) { return all[1 + 2 * slot] == ~all[2 + 2 * slot]; };
  if (!same(0)) {
    return Status(Code::kInvalidArgument,
                  std::string("the ranks of the group called different collectives (this rank: ") +
                      digest.call() + "); every rank must make the same collective calls in the same order");
  }
  if (all[0] > 0) return share_failure(comm, local, static_cast<int>(size - all[0]));
  // Every slot, not only this rank's: a rank that passed fewer arguments
  // (an optional one left out) must see the difference too, or it would go
  // on into the collective while the others return.
  std::string differ;
  for (int i = 0; i < CallDigest::kMaxArgs; ++i) {
    if (same(1 + i)) continue;
    differ += (differ.empty() ? "" : ", ") +
              (i < digest.args() ? std::string(digest.name(i)) : "argument " + std::to_string(i + 1));
  }
  if (!differ.empty()) {
    return Status(Code::kInvalidArgument, "arguments differ between ranks (" + differ +
                                              "); a collective call takes the same ones on every rank");
  }
  return Status::Ok();
}

Status broadcast_string(const Comm& comm, std::string* s, int root) {
  uint64_t n = s->size();
  PARIO_RETURN_IF_ERROR(mpi_status(MPI_Bcast(&n, 1, MPI_UINT64_T, root, comm.get()), "MPI_Bcast"));
  s->resize(n);
  return mpi_status(MPI_Bcast(s->data(), static_cast<int>(n), MPI_CHAR, root, comm.get()), "MPI_Bcast");
}

}  // namespace pario::comm
