// Global arrays on MPI-3 RMA with node-shared memory.
//
// Where the bytes live. Every rank's patch starts half a page into a page
// (map_node), is first touched (zeroed) by its owner so its pages sit near
// that rank's core, and is mapped by every rank of its node (real, or
// emulated by PARIO_RANKS_PER_NODE), so node-local get, put and accumulate
// are plain memory copies with no MPI call and no help from the owner:
// DDI's FULL model without data servers.
// Each node master's memory starts with a small header: one
// process-shared mutex per rank of the node (and, on node 0, the group's
// reader/writer lock word).
//
// Remote patches are reached through one RMA window, built in one of two
// ways (PARIO_ARRAY_WINDOW):
//   shared  every rank of the group can map every other (one physical
//           node, possibly split into emulated nodes): one
//           MPI_Win_allocate_shared window over the group in which each
//           rank allocates its own patch, so each owner is the RMA target
//           for its patch. Open MPI then runs RMA through shared memory
//           (osc/sm): about 2x faster than a created window for gets and
//           14x for accumulates when measured here. Targeting the owner
//           rather than the node master matters: osc/sm serialises the
//           accumulates to one target behind one lock, and with the master
//           as the target of a whole node, 4 ranks on 2 emulated nodes
//           reached 0.64x raw RMA for 1.6 MB accumulates (1.20x with
//           owners as targets).
//   create  several physical nodes: each node master allocates the whole
//           node segment (header, then every patch of the node) with
//           MPI_Win_allocate_shared over the node, and exposes it to the
//           group with MPI_Win_create (MPI-3 offers no other way to have
//           memory that is both node-shared and remotely accessible). A
//           section spanning several patches of one remote node is then
//           one MPI_Get/Put/Accumulate to that node's master, with derived
//           datatypes describing the pieces on both sides: one message per
//           remote node (the DDI paper's coalescing), whatever the number
//           of ranks involved.
// Both windows hold one MPI_Win_lock_all(MPI_MODE_NOCHECK) epoch for the
// array's whole life; operations complete with MPI_Win_flush. Per-operation
// MPI_Win_lock was avoided: on Debian's MPICH it waited about a second for
// a busy target.
//
// Accumulate is atomic per element. On a single node every accumulate is a
// memory loop under the target patch's mutex. With several nodes, all
// accumulates, node-local ones included, go through MPI_Accumulate, because
// MPI only promises atomicity among its own accumulate operations and a
// loop under our mutex would race with a remote MPI_Accumulate.
//
// Progress: with Open MPI here, RMA completes without the target's help.
// Debian's MPICH needs the target to enter MPI; node-local traffic never
// does (it is memory copies), and MPICH's own progress thread
// (MPIR_CVAR_ASYNC_PROGRESS=1) serves the remote case.
#include "array/global_array.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <thread>

#include "array/section_copy.h"
#include "base/checked.h"
#include "comm/handles.h"

namespace pario::array {

struct WindowSet {
  comm::Window rma;           // all RMA traffic; a lock_all epoch for life
  comm::Window node;          // the node segment, when separate from rma
  MPI_Aint lock_disp = 0;     // the reader/writer lock word: in rma, at group rank 0
  char* node_base = nullptr;  // this node's segment, mapped here
  bool master = false;
  int node_ranks = 0;
  bool open = false;

  // The window over this node's shared segment (for MPI_Win_sync).
  MPI_Win segment() const { return node.get() != MPI_WIN_NULL ? node.get() : rma.get(); }

  pthread_mutex_t* mutex(int slot) const {
    return reinterpret_cast<pthread_mutex_t*>(node_base + 64 * static_cast<size_t>(slot));
  }
};

namespace {

constexpr size_t kPage = 4096;
constexpr int64_t kWriter = int64_t{1} << 40;

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

Status mpi(int rc, const char* call) { return comm::mpi_status(rc, call); }

Status to_int(int64_t v, int* out, const char* what) {
  if (v > INT_MAX) {
    return Status(Code::kUnsupported, std::string(what) + " of " + std::to_string(v) +
                                          " elements exceeds MPI's int range in one remote "
                                          "transfer; split the section");
  }
  *out = static_cast<int>(v);
  return Status::Ok();
}

// A subarray datatype selecting `piece` inside a row-major block with the
// given origin and shape.
Status subarray(int n, const Shape& shape, const Box& piece, const Box& origin, MPI_Datatype base,
                MPI_Datatype* out) {
  int sizes[kMaxDims], subsizes[kMaxDims], starts[kMaxDims];
  for (int d = 0; d < n; ++d) {
    PARIO_RETURN_IF_ERROR(to_int(shape[d], &sizes[d], "a dimension"));
    subsizes[d] = static_cast<int>(piece.count[d]);
    starts[d] = static_cast<int>(piece.start[d] - origin.start[d]);
  }
  return mpi(MPI_Type_create_subarray(n, sizes, subsizes, starts, MPI_ORDER_C, base, out),
             "MPI_Type_create_subarray");
}

// True if `piece` is one contiguous run inside a row-major block of `shape`.
bool contiguous(int n, const Box& piece, const Shape& shape) {
  int d = n - 1;
  while (d > 0 && piece.count[d] == shape[d]) --d;
  for (int k = 0; k < d; ++k) {
    if (piece.count[k] != 1) return false;
  }
  return true;
}

Shape shape_of(const Box& b) {
  Shape s{};
  for (int d = 0; d < b.ndim; ++d) s[d] = b.count[d];
  return s;
}

// The row-major element offset of `at` (ndim entries) in a block with the
// given origin and shape.
int64_t offset_in(int ndim, const Shape& at, const Box& origin, const Shape& shape) {
  int64_t off = 0;
  for (int d = 0; d < ndim; ++d) off = off * shape[d] + (at[d] - origin.start[d]);
  return off;
}

int64_t offset_in(const Box& piece, const Box& origin, const Shape& shape) {
  return offset_in(piece.ndim, piece.start, origin, shape);
}

// Yields 8 times, then sleeps 1, 2, 4, ... microseconds, at most 200.
void backoff(int* round) {
  if (*round < 8) {
    sched_yield();
  } else {
    const int shift = std::min(*round - 8, 8);  // 1 << 8 already exceeds the cap
    std::this_thread::sleep_for(std::chrono::microseconds(std::min(1 << shift, 200)));
  }
  ++*round;
}

}  // namespace

// --- requests ---------------------------------------------------------------

ArrayRequest::~ArrayRequest() {
  // A request dropped without wait: finish it so MPI holds no dangling
  // buffer reference (the caller broke the contract, but nothing crashes).
  std::lock_guard<std::mutex> lock(mu_);
  if (!done_) (void)finish_locked();
}

Status ArrayRequest::finish_locked() {
  Status s;
  if (!mpi_.empty()) {
    s = mpi(MPI_Waitall(static_cast<int>(mpi_.size()), mpi_.data(), MPI_STATUSES_IGNORE),
            "MPI_Waitall");
  }
  for (int t : flush_) {
    if (s.ok()) s = mpi(MPI_Win_flush(t, windows_->rma.get()), "MPI_Win_flush");
  }
  mpi_.clear();
  flush_.clear();
  scratch_.clear();
  scratch_.shrink_to_fit();
  windows_.reset();
  done_ = true;
  if (status_.ok()) status_ = s;
  return status_;
}

Status ArrayRequest::wait() {
  std::lock_guard<std::mutex> lock(mu_);
  if (done_) return status_;
  return finish_locked();
}

Result<bool> ArrayRequest::test() {
  std::lock_guard<std::mutex> lock(mu_);
  if (done_) return true;
  int flag = 1;
  if (!mpi_.empty()) {
    Status s = mpi(MPI_Testall(static_cast<int>(mpi_.size()), mpi_.data(), &flag,
                               MPI_STATUSES_IGNORE),
                   "MPI_Testall");
    if (!s.ok()) {
      status_ = s;
      flag = 1;
    }
  }
  if (!flag) return false;
  (void)finish_locked();
  return true;
}

// --- create and close -------------------------------------------------------

// create's steps, in the order of their collective calls: every rank
// makes the same MPI calls, and each window creation is agreed on before
// the next step, so a failure leaves every rank holding the same windows
// and they can be freed collectively. (A creation that fails on some ranks
// only leaves the others' half-made window to MPI_Finalize: freeing it
// would hang.)
Result<std::shared_ptr<GlobalArray>> GlobalArray::create(std::shared_ptr<const comm::Group> group,
                                                         std::string name, ElementType type,
                                                         Distribution dist, ArrayWindowChoice window) {
  const comm::Group& g = *group;
  PARIO_RETURN_IF_ERROR(check_same_array(g, name, type, dist));
  std::shared_ptr<GlobalArray> a(new GlobalArray());
  a->group_ = group;
  a->name_ = std::move(name);
  a->type_ = type;
  a->dist_ = std::move(dist);
  a->direct_acc_ = g.topology().nodes == 1;
  const bool shared = window == ArrayWindowChoice::kShared ||
                      (window == ArrayWindowChoice::kAuto && g.one_physical_node());
  uint64_t my_bytes = 0, my_node_bytes = 0;
  a->lay_out(shared, &my_bytes, &my_node_bytes);
  auto w = std::make_shared<WindowSet>();
  w->master = g.master_of_node(g.topology().node) == g.rank();
  w->node_ranks = static_cast<int>(g.ranks_of_node(g.topology().node).size());
  char* header = nullptr;
  Status s = a->make_windows(shared, my_bytes, my_node_bytes, w.get());
  if (s.ok()) s = a->map_node(shared, *w, &header);
  if (!s.ok()) {
    for (comm::Window* win : {&w->rma, &w->node}) (void)win->free();
    return std::move(s).with_context(a->name_);
  }
  a->open_windows(w.get(), header);
  a->windows_ = std::move(w);
  PARIO_RETURN_IF_ERROR(a->sync());
  return a;
}

Status GlobalArray::check_same_array(const comm::Group& g, const std::string& name, ElementType type,
                                     const Distribution& dist) {
  uint64_t print = 1469598103934665603ull;  // FNV-1a over the type, extents and block starts
  auto mix = [&](int64_t v) { print = (print ^ static_cast<uint64_t>(v)) * 1099511628211ull; };
  mix(static_cast<int>(type));
  for (int d = 0; d < dist.ndim(); ++d) {
    mix(dist.dims()[d]);
    for (int64_t s : dist.starts(d)) mix(s);
  }
  uint64_t lo = print, hi = print;
  PARIO_RETURN_IF_ERROR(mpi(MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_UINT64_T, MPI_MIN, g.comm()),
                            "MPI_Allreduce"));
  PARIO_RETURN_IF_ERROR(mpi(MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_UINT64_T, MPI_MAX, g.comm()),
                            "MPI_Allreduce"));
  if (lo != hi) {
    return Status(Code::kInvalidArgument,
                  name + ": ranks passed different types, shapes or distributions");
  }
  return Status::Ok();
}

void GlobalArray::lay_out(bool shared, uint64_t* my_bytes, uint64_t* my_node_bytes) {
  const comm::Group& g = *group_;
  const int me = g.rank(), my_node = g.topology().node;
  const size_t esize = element_size(type_);
  auto header_bytes = [&](int node) { return round_up(64 * (g.ranks_of_node(node).size() + 1), kPage); };
  target_.assign(g.size(), 0);
  disp_.assign(g.size(), 0);
  local_.assign(g.size(), nullptr);
  node_slot_.assign(g.size(), 0);
  for (int n = 0; n < g.topology().nodes; ++n) {
    const auto& ranks = g.ranks_of_node(n);
    uint64_t off = header_bytes(n), node_bytes = off;
    for (size_t i = 0; i < ranks.size(); ++i) {
      const int r = ranks[i];
      const uint64_t patch = round_up(dist_.patch(r).elements() * esize, kPage);
      node_bytes += patch;  // the caller checked that the array's bytes fit an int64
      node_slot_[r] = static_cast<int>(i);
      if (shared) {
        target_[r] = r;
        disp_[r] = i == 0 ? off : 0;
        if (r == me) *my_bytes = disp_[r] + patch + kPage;  // + room for map_node's shift
      } else {
        target_[r] = ranks[0];
        disp_[r] = off;
        off += patch;
      }
    }
    if (!shared && n == my_node && ranks[0] == me) *my_bytes = off + kPage;
    if (n == my_node) *my_node_bytes = node_bytes;
  }
}

Status GlobalArray::make_windows(bool shared, uint64_t my_bytes, uint64_t my_node_bytes, WindowSet* w) {
  const comm::Group& g = *group_;
  Result<comm::Info> info = comm::Info::create({{"alloc_shared_noncontig", "true"},
                                                {"accumulate_ops", "same_op_no_op"},
                                                {"accumulate_ordering", "none"}});
  Status s = info.status();
  if (s.ok() && shared && !g.one_physical_node()) {
    s = Status(Code::kUnsupported, "PARIO_ARRAY_WINDOW=shared needs all ranks on one physical node");
  }
  // A node's patches live in one shared segment: more than the node's
  // memory would fail inside MPI's window creation on some ranks only,
  // which cannot be undone collectively, so it is refused here.
  const uint64_t ram = static_cast<uint64_t>(sysconf(_SC_PHYS_PAGES)) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  if (s.ok() && my_node_bytes > ram) {
    s = Status(Code::kNoMemory, "the patches of this node need " + std::to_string(my_node_bytes) +
                                    " bytes, more than its memory (" + std::to_string(ram) + ")");
  }
  PARIO_RETURN_IF_ERROR(comm::agree(g.comm_object(), s));
  void* base = nullptr;
  MPI_Win made = MPI_WIN_NULL;
  if (shared) {
    s = mpi(MPI_Win_allocate_shared(static_cast<MPI_Aint>(my_bytes), 1, info->get(), g.comm(),
                                    &base, &made),
            "MPI_Win_allocate_shared");
    PARIO_RETURN_IF_ERROR(comm::agree(g.comm_object(), s));
    w->rma = comm::Window(made);
    return Status::Ok();
  }
  s = mpi(MPI_Win_allocate_shared(static_cast<MPI_Aint>(my_bytes), 1, info->get(), g.node_comm(),
                                  &base, &made),
          "MPI_Win_allocate_shared");
  PARIO_RETURN_IF_ERROR(comm::agree(g.comm_object(), s));
  w->node = comm::Window(made);
  MPI_Aint size_q = 0;
  int unit_q = 0;
  s = mpi(MPI_Win_shared_query(w->node.get(), 0, &size_q, &unit_q, &base),
          "MPI_Win_shared_query");
  made = MPI_WIN_NULL;
  if (s.ok()) {
    s = mpi(MPI_Win_create(w->master ? base : nullptr, static_cast<MPI_Aint>(my_bytes), 1,
                           info->get(), g.comm(), &made),
            "MPI_Win_create");
  }
  PARIO_RETURN_IF_ERROR(comm::agree(g.comm_object(), s));
  w->rma = comm::Window(made);
  return Status::Ok();
}

Status GlobalArray::map_node(bool shared, const WindowSet& w, char** header) {
  const comm::Group& g = *group_;
  const int my_node = g.topology().node;
  auto mapped = [&](MPI_Win win, int rank, char** out) {
    MPI_Aint size_q = 0;
    int unit_q = 0;
    void* at = nullptr;
    Status q = mpi(MPI_Win_shared_query(win, rank, &size_q, &unit_q, &at), "MPI_Win_shared_query");
    *out = static_cast<char*>(at);
    return q;
  };
  Status s = shared ? mapped(w.rma.get(), g.master_of_node(my_node), header) : mapped(w.node.get(), 0, header);
  // Where a patch lies within its pages decides how fast the kernel copies
  // between it and a file's pages: `rep movsb` is 3-5x slower when its
  // destination lies 1-31 bytes past its source, modulo a page, on the AMD
  // EPYC of issue 30 (docs/performance.md, "Where a patch starts"). MPI
  // places a window where it likes (Open MPI's osc/sm mallocs a one-rank
  // window, 16 bytes into a page: aligned disk-array reads at 0.8x raw);
  // at a page start, a section shifted by one element puts every row 8
  // bytes past its memory (nonaligned writes 2.2-2.6x slower). Half a page
  // in, every shift under 2 KiB either way, and every buffer a few bytes
  // into its page (malloc's), is far from that band in both directions. So
  // each window's patches move there: lay_out allocated a page more, and
  // every rank learns each target's shift for its RMA displacements. The
  // shift is the same in every mapping of a segment.
  char* segment = nullptr;  // this rank's RMA target segment: its own (shared) or its node's
  if (s.ok()) s = shared ? mapped(w.rma.get(), g.rank(), &segment) : Status::Ok();
  if (!shared) segment = *header;
  int64_t shift = 0;
  if (s.ok() && segment != nullptr) {
    shift = static_cast<int64_t>((kPage + kPage / 2 - reinterpret_cast<uintptr_t>(segment) % kPage) % kPage);
  }
  std::vector<int64_t> shifts(g.size(), 0);
  Status gathered = mpi(MPI_Allgather(&shift, 1, MPI_INT64_T, shifts.data(), 1, MPI_INT64_T, g.comm()),
                        "MPI_Allgather");
  if (s.ok()) s = gathered;
  if (s.ok()) {
    for (int r = 0; r < g.size(); ++r) disp_[r] += static_cast<uint64_t>(shifts[r]);
  }
  for (int r : g.ranks_of_node(my_node)) {
    if (!s.ok()) break;
    if (shared) {
      s = mapped(w.rma.get(), r, &local_[r]);
      local_[r] += disp_[r];
    } else {
      local_[r] = *header + disp_[r];
    }
  }
  return comm::agree(g.comm_object(), s);
}

void GlobalArray::open_windows(WindowSet* w, char* header) {
  const comm::Group& g = *group_;
  // The lock word lives in the segment of node 0, whose master is rank 0,
  // rather than in a window of its own: Open MPI 4.1 names the backing
  // file of an MPI_Win_allocate window after the communicator's id, which
  // disjoint groups from one split share, and two groups creating windows
  // at once then collided ("open(2) ... No such file or directory").
  w->lock_disp = static_cast<MPI_Aint>(64 * g.ranks_of_node(0).size());
  w->node_base = header;
  w->open = true;
  for (MPI_Win win : {w->rma.get(), w->node.get()}) {
    if (win != MPI_WIN_NULL) MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  }
  if (w->master) {
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
    for (int i = 0; i < w->node_ranks; ++i) pthread_mutex_init(w->mutex(i), &attr);
    pthread_mutexattr_destroy(&attr);
    std::memset(w->node_base + 64 * w->node_ranks, 0, sizeof(int64_t));  // the lock word
  }
  // First touch by the owner (see the top of this file).
  const int me = g.rank();
  const int64_t mine = dist_.patch(me).elements();
  if (mine > 0) std::memset(local_[me], 0, mine * element_size(type_));  // an empty rank may map nothing
}

bool GlobalArray::closed() const { return !windows_ || !windows_->open; }

Status GlobalArray::close() {
  if (closed()) return Status(Code::kState, name_ + ": already closed");
  Status first;
  {
    std::lock_guard<std::mutex> lock(pending_mu_);
    for (auto& weak : pending_) {
      if (auto r = weak.lock()) {
        Status s = r->wait();
        if (first.ok() && !s.ok()) first = s;
      }
    }
    pending_.clear();
  }
  if (lock_held_) (void)unlock();
  Status s = sync();
  if (first.ok()) first = s;
  WindowSet& w = *windows_;
  if (w.master) {
    for (int i = 0; i < w.node_ranks; ++i) pthread_mutex_destroy(w.mutex(i));
  }
  for (comm::Window* win : {&w.rma, &w.node}) {
    if (win->get() == MPI_WIN_NULL) continue;
    MPI_Win_unlock_all(win->get());
    Status f = win->free();
    if (first.ok()) first = f;
  }
  w.open = false;
  w.node_base = nullptr;
  return comm::agree(group_->comm_object(), first);
}

GlobalArray::~GlobalArray() = default;  // windows left open are MPI's at finalize

// --- transfers --------------------------------------------------------------

Status GlobalArray::check(const Box& section, const void* buf, const std::vector<int64_t>& ld,
                          Shape* buf_shape) const {
  if (closed()) return Status(Code::kInvalidArgument, name_ + ": the array is closed");
  PARIO_RETURN_IF_ERROR(check_section(dist_, section));
  if (!buf && !section.empty()) return Status(Code::kInvalidArgument, "buffer is null");
  const int n = section.ndim;
  if (!ld.empty() && static_cast<int>(ld.size()) != n - 1) {
    return Status(Code::kInvalidArgument, "leading dimensions: " + std::to_string(ld.size()) +
                                              " given, " + std::to_string(n - 1) + " expected");
  }
  (*buf_shape)[0] = section.count[0];
  for (int d = 1; d < n; ++d) {
    int64_t l = ld.empty() ? section.count[d] : ld[d - 1];
    if (l < section.count[d]) {
      return Status(Code::kInvalidArgument, "leading dimension " + std::to_string(d - 1) + " (" +
                                                std::to_string(l) + ") is smaller than the count " +
                                                std::to_string(section.count[d]));
    }
    (*buf_shape)[d] = l;
  }
  // Offsets into the caller's buffer reach count[0] * ld[0] * ... elements.
  int64_t span = 0;
  if (!section.empty() &&
      !checked_bytes(buf_shape->data(), static_cast<size_t>(n), static_cast<int64_t>(element_size(type_)), &span)) {
    return Status(Code::kInvalidArgument, "leading dimensions: the buffer would span more than 2^63 bytes");
  }
  return Status::Ok();
}

Status GlobalArray::issue_node(RmaOp op, const Piece* pieces, size_t k, int target,
                               const Box& section, char* origin, char* result,
                               const Shape& shape, ArrayRequest* async) {
  if (op == RmaOp::kGetAcc) return fetch_add_rows(pieces, k, target, section, origin, result, shape);
  const MPI_Datatype base = comm::element_mpi_type(type_);
  const size_t esize = element_size(type_);
  const int n = section.ndim;
  comm::Datatype otype, ttype;
  MPI_Datatype ot = base, tt = base;
  int count = 1;
  char* oaddr = origin;
  MPI_Aint tdisp = 0;
  const Box first = dist_.patch(pieces[0].rank);
  if (k == 1 && contiguous(n, pieces[0].box, shape) &&
      contiguous(n, pieces[0].box, shape_of(first))) {
    // One dense run on both sides: plain counts, no datatype to build.
    PARIO_RETURN_IF_ERROR(to_int(pieces[0].box.elements(), &count, "a section"));
    oaddr = origin + offset_in(pieces[0].box, section, shape) * esize;
    tdisp = static_cast<MPI_Aint>(disp_[pieces[0].rank] +
                                  offset_in(pieces[0].box, first, shape_of(first)) * esize);
  } else {
    // A struct of subarrays on each side, piece by piece in the same order.
    // The pieces' subarrays go once the structs are made (a struct keeps
    // what it needs of its members).
    std::vector<comm::Datatype> os(k), ts(k);
    std::vector<MPI_Datatype> oraw(k, MPI_DATATYPE_NULL), traw(k, MPI_DATATYPE_NULL);
    std::vector<MPI_Aint> odisp(k, 0), tdisps(k);
    std::vector<int> ones(k, 1);
    Status st;
    for (size_t p = 0; p < k && st.ok(); ++p) {
      const Box pbox = dist_.patch(pieces[p].rank);
      st = subarray(n, shape, pieces[p].box, section, base, os[p].out());
      if (st.ok()) st = subarray(n, shape_of(pbox), pieces[p].box, pbox, base, ts[p].out());
      oraw[p] = os[p].get();
      traw[p] = ts[p].get();
      tdisps[p] = static_cast<MPI_Aint>(disp_[pieces[p].rank]);
    }
    const int kk = static_cast<int>(k);
    if (st.ok()) {
      st = mpi(MPI_Type_create_struct(kk, ones.data(), odisp.data(), oraw.data(), otype.out()),
               "MPI_Type_create_struct");
    }
    if (st.ok()) {
      st = mpi(MPI_Type_create_struct(kk, ones.data(), tdisps.data(), traw.data(), ttype.out()),
               "MPI_Type_create_struct");
    }
    os.clear();
    ts.clear();
    PARIO_RETURN_IF_ERROR(st);
    PARIO_RETURN_IF_ERROR(otype.commit());
    PARIO_RETURN_IF_ERROR(ttype.commit());
    ot = otype.get();
    tt = ttype.get();
  }
  const MPI_Win win = windows_->rma.get();
  MPI_Request req = MPI_REQUEST_NULL;
  int rc = MPI_ERR_OTHER;
  switch (op) {
    case RmaOp::kGet:
      rc = async ? MPI_Rget(oaddr, count, ot, target, tdisp, count, tt, win, &req)
                 : MPI_Get(oaddr, count, ot, target, tdisp, count, tt, win);
      break;
    case RmaOp::kPut:
      rc = async ? MPI_Rput(oaddr, count, ot, target, tdisp, count, tt, win, &req)
                 : MPI_Put(oaddr, count, ot, target, tdisp, count, tt, win);
      break;
    case RmaOp::kAcc:
      rc = async ? MPI_Raccumulate(oaddr, count, ot, target, tdisp, count, tt, MPI_SUM, win, &req)
                 : MPI_Accumulate(oaddr, count, ot, target, tdisp, count, tt, MPI_SUM, win);
      break;
    case RmaOp::kGetAcc: break;  // fetch_add_rows
  }
  PARIO_RETURN_IF_ERROR(mpi(rc, op == RmaOp::kGet   ? "MPI_Get"
                                : op == RmaOp::kPut ? "MPI_Put"
                                                    : "MPI_Accumulate"));
  if (async) {
    // Request completion is local completion; the flush in wait() also
    // makes puts remote-complete. Gets are flushed too: Debian's MPICH 4.0
    // reported MPI_Rget on a created window complete before the data had
    // arrived.
    async->mpi_.push_back(req);
    async->flush_.push_back(target);
  }
  return Status::Ok();
}

// Fetch-and-add sends one contiguous row per MPI_Get_accumulate, with plain
// element types: Open MPI 4.1's osc/rdma lost the atomicity of
// MPI_Get_accumulate with derived datatypes (measured here: 150 of 200
// concurrent fetches returned a duplicate value; open-mpi/ompi#10633),
// while contiguous runs stayed exact. DDI_GetAcc sections are small.
Status GlobalArray::fetch_add_rows(const Piece* pieces, size_t k, int target, const Box& section,
                                   char* origin, char* result, const Shape& shape) {
  const MPI_Datatype base = comm::element_mpi_type(type_);
  const int64_t esize = static_cast<int64_t>(element_size(type_));
  Status st;
  for (size_t p = 0; p < k && st.ok(); ++p) {
    const Box pbox = dist_.patch(pieces[p].rank);
    const uint64_t patch_at = disp_[pieces[p].rank];
    const int n = pbox.ndim;
    for_each_row(pieces[p].box, [&](const Shape& row, int64_t length) {
      int count = 0;
      st = to_int(length, &count, "a row");
      if (!st.ok()) return false;
      const int64_t at = offset_in(n, row, section, shape) * esize;
      const auto disp = static_cast<MPI_Aint>(patch_at + offset_in(n, row, pbox, shape_of(pbox)) * esize);
      st = mpi(MPI_Get_accumulate(origin + at, count, base, result + at, count, base, target, disp,
                                  count, base, MPI_SUM, windows_->rma.get()),
               "MPI_Get_accumulate");
      return st.ok();
    });
  }
  return st;
}

Status GlobalArray::transfer(RmaOp op, const Box& section, char* buf,
                             const std::vector<int64_t>& ld, const void* alpha,
                             ArrayRequest* async) {
  Shape shape{};
  PARIO_RETURN_IF_ERROR(check(section, buf, ld, &shape));
  if (section.empty()) return Status::Ok();
  const comm::Group& g = *group_;
  const WindowSet& w = *windows_;
  const int my_node = g.topology().node;
  const size_t esize = element_size(type_);
  static const CopyOp kCopy[] = {CopyOp::kRead, CopyOp::kWrite, CopyOp::kAccumulate,
                                 CopyOp::kFetchAccumulate};
  const CopyOp cop = kCopy[static_cast<int>(op)];
  const bool adds = op == RmaOp::kAcc || op == RmaOp::kGetAcc;
  uint64_t local_bytes = 0, remote_bytes = 0, messages = 0;
  std::vector<Piece> remote;
  dist_.for_each_owner(section, [&](int r, const Box& piece) {
    const bool local = g.node_of(r) == my_node && (!adds || direct_acc_);
    if (!local) {
      remote.push_back({r, piece});
      return;
    }
    char* patch = local_[r];
    const Box pbox = dist_.patch(r);
    if (adds) {
      pthread_mutex_lock(w.mutex(node_slot_[r]));
      copy_piece(type_, cop, piece, pbox, patch, section, buf, shape, alpha);
      pthread_mutex_unlock(w.mutex(node_slot_[r]));
    } else {
      copy_piece(type_, cop, piece, pbox, patch, section, buf, shape, alpha);
    }
    local_bytes += piece.elements() * esize;
  });

  if (!remote.empty()) {
    // Accumulate with a scale factor: MPI has no scaled accumulate, so the
    // scaled section is packed once and sent from there.
    char* origin = buf;
    char* result = nullptr;
    std::vector<char> packed;
    if (op == RmaOp::kGetAcc) {
      // MPI_Get_accumulate needs disjoint origin and result buffers: send
      // from a copy, receive the old values into the caller's buffer.
      // The buffer ends at the section's last element (a strided buffer's
      // last row need not be padded out to the leading dimension).
      int64_t extent = 1, stride = 1;
      for (int d = section.ndim - 1; d >= 0; --d) {
        extent += (section.count[d] - 1) * stride;
        stride *= shape[d];
      }
      packed.assign(buf, buf + extent * esize);
      origin = packed.data();
      result = buf;
    } else if (op == RmaOp::kAcc && !is_one(type_, alpha)) {
      std::vector<char>& scratch = async ? async->scratch_ : packed;
      scratch.resize(section.elements() * esize);
      copy_piece(type_, CopyOp::kWrite, section, section, scratch.data(), section, buf, shape,
                 nullptr);
      scale_in_place(type_, alpha, scratch.data(), section.elements());
      origin = scratch.data();
      shape = shape_of(section);
    }
    std::stable_sort(remote.begin(), remote.end(),
                     [&](const Piece& a, const Piece& b) { return target_[a.rank] < target_[b.rank]; });
    Status st;
    int last_target = -1;
    for (size_t i = 0; i < remote.size() && st.ok();) {
      size_t j = i;
      const int target = target_[remote[i].rank];
      while (j < remote.size() && target_[remote[j].rank] == target) ++j;
      st = issue_node(op, &remote[i], j - i, target, section, origin, result, shape, async);
      if (st.ok()) {
        ++messages;
        for (size_t p = i; p < j; ++p) remote_bytes += remote[p].box.elements() * esize;
        last_target = target;
      }
      i = j;
    }
    // Blocking: complete everything issued (they overlapped in flight),
    // also after a failure, so no operation still uses the buffer when
    // this returns. Nonblocking: the request completes them.
    if (!async && messages > 0) {
      Status f = messages == 1 ? mpi(MPI_Win_flush(last_target, w.rma.get()), "MPI_Win_flush")
                               : mpi(MPI_Win_flush_all(w.rma.get()), "MPI_Win_flush_all");
      if (st.ok()) st = f;
    }
    PARIO_RETURN_IF_ERROR(st);
  }
  if (StatsRegistry::global().enabled()) {
    StatsRegistry::global().rma().record(op, local_bytes, remote_bytes, messages);
  }
  return Status::Ok();
}

Status GlobalArray::get(const Box& section, void* buf, const std::vector<int64_t>& ld) {
  return transfer(RmaOp::kGet, section, static_cast<char*>(buf), ld, nullptr, nullptr);
}

Status GlobalArray::put(const Box& section, const void* buf, const std::vector<int64_t>& ld) {
  // The buffer is only read; transfer() takes char* for all three cases.
  return transfer(RmaOp::kPut, section, static_cast<char*>(const_cast<void*>(buf)), ld, nullptr,
                  nullptr);
}

Status GlobalArray::acc(const Box& section, const void* buf, const std::vector<int64_t>& ld,
                        const void* alpha) {
  return transfer(RmaOp::kAcc, section, static_cast<char*>(const_cast<void*>(buf)), ld, alpha,
                  nullptr);
}

Status GlobalArray::get_acc(const Box& section, void* buf, const std::vector<int64_t>& ld) {
  return transfer(RmaOp::kGetAcc, section, static_cast<char*>(buf), ld, nullptr, nullptr);
}

void GlobalArray::track(const std::shared_ptr<ArrayRequest>& req) {
  std::lock_guard<std::mutex> lock(pending_mu_);
  if (pending_.size() >= 64) {
    pending_.erase(std::remove_if(pending_.begin(), pending_.end(),
                                  [](const std::weak_ptr<ArrayRequest>& w) { return w.expired(); }),
                   pending_.end());
  }
  pending_.push_back(req);
}

Result<std::shared_ptr<ArrayRequest>> GlobalArray::start(RmaOp op, const Box& section,
                                                         const void* buf,
                                                         const std::vector<int64_t>& ld,
                                                         const void* alpha) {
  auto r = std::make_shared<ArrayRequest>();
  r->windows_ = windows_;
  // The buffer is only read for put and accumulate; transfer() takes char*.
  Status s = transfer(op, section, static_cast<char*>(const_cast<void*>(buf)), ld, alpha, r.get());
  if (!s.ok()) return s;  // dropping r completes whatever was issued
  track(r);
  return r;
}

Result<std::shared_ptr<ArrayRequest>> GlobalArray::iget(const Box& section, void* buf,
                                                        const std::vector<int64_t>& ld) {
  return start(RmaOp::kGet, section, buf, ld, nullptr);
}

Result<std::shared_ptr<ArrayRequest>> GlobalArray::iput(const Box& section, const void* buf,
                                                        const std::vector<int64_t>& ld) {
  return start(RmaOp::kPut, section, buf, ld, nullptr);
}

Result<std::shared_ptr<ArrayRequest>> GlobalArray::iacc(const Box& section, const void* buf,
                                                        const std::vector<int64_t>& ld,
                                                        const void* alpha) {
  return start(RmaOp::kAcc, section, buf, ld, alpha);
}

// --- whole-array operations, fence, locks, queries --------------------------

Status GlobalArray::sync() {
  Status s = sync_arrive();
  if (s.ok()) s = group_->barrier();
  if (s.ok()) s = sync_leave();
  return s;
}

Status GlobalArray::sync_arrive() {
  if (closed()) return Status(Code::kInvalidArgument, name_ + ": the array is closed");
  const WindowSet& w = *windows_;
  PARIO_RETURN_IF_ERROR(mpi(MPI_Win_flush_all(w.rma.get()), "MPI_Win_flush_all"));
  // Win_sync orders this rank's plain loads and stores on the shared
  // segment with the other ranks' (MPI's unified memory model).
  return mpi(MPI_Win_sync(w.segment()), "MPI_Win_sync");
}

Status GlobalArray::sync_leave() {
  if (closed()) return Status(Code::kInvalidArgument, name_ + ": the array is closed");
  const WindowSet& w = *windows_;
  return mpi(MPI_Win_sync(w.segment()), "MPI_Win_sync");
}

Status GlobalArray::fill(const void* value) {
  if (closed()) return Status(Code::kInvalidArgument, name_ + ": the array is closed");
  if (!value) return Status(Code::kInvalidArgument, "fill value is null");
  const int me = group_->rank();
  const size_t esize = element_size(type_);
  // Every rank's earlier reads and updates land before anything is
  // overwritten: a rank still reading must not see the fill.
  PARIO_RETURN_IF_ERROR(sync());
  char* p = local_[me];
  const int64_t n = dist_.patch(me).elements();  // 0 for an empty rank: p unused
  for (int64_t i = 0; i < n; ++i) std::memcpy(p + i * esize, value, esize);
  return sync();
}

Status GlobalArray::scale(const void* alpha) {
  if (closed()) return Status(Code::kInvalidArgument, name_ + ": the array is closed");
  if (!alpha) return Status(Code::kInvalidArgument, "scale factor is null");
  const int me = group_->rank();
  PARIO_RETURN_IF_ERROR(sync());  // every earlier update lands before scaling
  scale_in_place(type_, alpha, local_[me], dist_.patch(me).elements());
  return sync();
}

Status GlobalArray::copy(GlobalArray& src, GlobalArray& dst) {
  if (src.closed() || dst.closed()) return Status(Code::kInvalidArgument, "an array is closed");
  if (src.type_ != dst.type_ || src.dist_.dims() != dst.dist_.dims()) {
    return Status(Code::kInvalidArgument, "copy " + src.name_ + " -> " + dst.name_ +
                                              ": the arrays differ in type or shape");
  }
  if (&src == &dst) return Status::Ok();
  PARIO_RETURN_IF_ERROR(src.sync());
  // Each rank pulls its own patch of dst from src (any distributions).
  const int me = dst.group_->rank();
  const Box mine = dst.dist_.patch(me);
  std::vector<int64_t> ld(mine.count.begin() + 1, mine.count.begin() + mine.ndim);
  Status s = src.get(mine, dst.local_[me], ld);
  s = comm::agree(dst.group_->comm_object(), s);
  PARIO_RETURN_IF_ERROR(s);
  return dst.sync();
}

Status GlobalArray::lock(bool write) {
  if (closed()) return Status(Code::kInvalidArgument, name_ + ": the array is closed");
  if (lock_held_) return Status(Code::kState, name_ + ": this rank already holds the array lock");
  const MPI_Win win = windows_->rma.get();
  const MPI_Aint at = windows_->lock_disp;
  int64_t old = 0;
  // Only MPI_SUM on the lock word: a writer adds kWriter, a reader 1; an
  // attempt that finds the word taken undoes its add and backs off.
  // (MPI_Compare_and_swap would be the textbook writer path, but Open MPI
  // 4.1's osc/rdma crashed in it on this machine.)
  const int64_t mine = write ? kWriter : 1, undo = -mine;
  const int64_t blocking = write ? ~int64_t{0} : ~(kWriter - 1);  // bits that make us wait
  for (int round = 0;; backoff(&round)) {
    PARIO_RETURN_IF_ERROR(mpi(MPI_Fetch_and_op(&mine, &old, MPI_INT64_T, 0, at, MPI_SUM, win),
                              "MPI_Fetch_and_op"));
    PARIO_RETURN_IF_ERROR(mpi(MPI_Win_flush(0, win), "MPI_Win_flush"));
    if (!(old & blocking)) break;
    PARIO_RETURN_IF_ERROR(mpi(MPI_Fetch_and_op(&undo, &old, MPI_INT64_T, 0, at, MPI_SUM, win),
                              "MPI_Fetch_and_op"));
    PARIO_RETURN_IF_ERROR(mpi(MPI_Win_flush(0, win), "MPI_Win_flush"));
  }
  lock_held_ = write ? 2 : 1;
  // See the updates of the previous holder made by plain stores.
  MPI_Win shared = windows_->segment();
  return mpi(MPI_Win_sync(shared), "MPI_Win_sync");
}

Status GlobalArray::unlock() {
  if (closed()) return Status(Code::kInvalidArgument, name_ + ": the array is closed");
  if (!lock_held_) return Status(Code::kState, name_ + ": this rank does not hold the array lock");
  const WindowSet& w = *windows_;
  PARIO_RETURN_IF_ERROR(mpi(MPI_Win_flush_all(w.rma.get()), "MPI_Win_flush_all"));
  PARIO_RETURN_IF_ERROR(mpi(MPI_Win_sync(w.segment()), "MPI_Win_sync"));
  const int64_t release = lock_held_ == 2 ? -kWriter : -1;
  int64_t old = 0;
  PARIO_RETURN_IF_ERROR(mpi(
      MPI_Fetch_and_op(&release, &old, MPI_INT64_T, 0, w.lock_disp, MPI_SUM, w.rma.get()),
      "MPI_Fetch_and_op"));
  lock_held_ = 0;
  return mpi(MPI_Win_flush(0, w.rma.get()), "MPI_Win_flush");
}

Result<char*> GlobalArray::access(int rank, Box* patch) const {
  if (closed()) return Status(Code::kInvalidArgument, name_ + ": the array is closed");
  const comm::Group& g = *group_;
  if (rank < 0 || rank >= g.size()) {
    return Status(Code::kInvalidArgument, "rank " + std::to_string(rank) + " is not in the group");
  }
  if (g.node_of(rank) != g.topology().node) {
    return Status(Code::kInvalidArgument, "rank " + std::to_string(rank) + " is on node " +
                                              std::to_string(g.node_of(rank)) + ", not this node " +
                                              std::to_string(g.topology().node));
  }
  if (patch) *patch = dist_.patch(rank);
  return local_[rank];
}

bool GlobalArray::one_message_per_node() const {
  return windows_ && windows_->node.get() != MPI_WIN_NULL;
}

Result<Box> GlobalArray::node_box(int node) const {
  const comm::Group& g = *group_;
  if (node < 0 || node >= g.topology().nodes) {
    return Status(Code::kInvalidArgument, "node " + std::to_string(node) + " does not exist");
  }
  Box box;
  box.ndim = dist_.ndim();
  int64_t held = 0;
  bool any = false;
  Shape hi{};
  for (int r : g.ranks_of_node(node)) {
    Box p = dist_.patch(r);
    if (p.empty()) continue;
    held += p.elements();
    for (int d = 0; d < box.ndim; ++d) {
      const int64_t end = p.start[d] + p.count[d];
      box.start[d] = any ? std::min(box.start[d], p.start[d]) : p.start[d];
      hi[d] = any ? std::max(hi[d], end) : end;
    }
    any = true;
  }
  for (int d = 0; d < box.ndim; ++d) box.count[d] = any ? hi[d] - box.start[d] : 0;
  if (box.elements() != held) {
    return Status(Code::kUnsupported, "the patches of node " + std::to_string(node) +
                                          " do not form one box (use per-rank queries)");
  }
  return box;
}

}  // namespace pario::array
