// Global arrays: N-d arrays distributed over the memory of a process group,
// read and written one-sidedly by any rank (DDI's distributed data, GA's
// NGA_* calls), on MPI-3 RMA with node-shared memory.
//
// Ownership: a GlobalArray owns its windows. create() and close() are
// collective over the group; the destructor only frees what close() left
// (it never communicates). Requests from iget/iput/iacc share the array's
// state; close() completes those still pending, and their wait then
// returns the stored outcome.
//
// Consistency (what callers may rely on):
//   - accumulate is atomic per element with respect to other accumulates;
//   - a get issued after this rank's put or accumulate completed (blocking
//     call returned, or its request waited) sees that update;
//   - overlapping put/put or put/get from different ranks with no ordering
//     between them give undefined values (each element is one of the
//     written values for 8-byte types; complex may mix halves);
//   - sync() is a fence: after it every rank sees every update completed
//     before it on any rank;
//   - lock()/unlock() give exclusive (write) or shared (read) access to the
//     whole array across the group, for read-modify-write sequences.
//
// Thread safety: operations on one array may be issued from several threads
// (MPI_THREAD_MULTIPLE); create/close/sync/lock are for one thread at a time.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "array/distribution.h"
#include "base/config.h"
#include "base/stats.h"
#include "base/status.h"
#include "comm/group.h"

namespace pario::array {

struct WindowSet;

// One patch's share of a section: the owner and the overlap.
struct Piece {
  int rank;
  Box box;
};

// A nonblocking get/put/accumulate. Node-local parts are done when the call
// returns; remote parts complete in wait()/test().
class ArrayRequest {
 public:
  ~ArrayRequest();
  Status wait();
  // Returns true once complete (then status() holds the outcome).
  Result<bool> test();
  const Status& status() const { return status_; }

 private:
  friend class GlobalArray;
  Status finish_locked();
  std::mutex mu_;
  bool done_ = false;
  Status status_;
  std::shared_ptr<WindowSet> windows_;
  std::vector<MPI_Request> mpi_;
  std::vector<int> flush_;       // targets needing remote completion
  std::vector<char> scratch_;    // scaled accumulate data, kept until done
};

class GlobalArray {
 public:
  ~GlobalArray();
  GlobalArray(const GlobalArray&) = delete;
  GlobalArray& operator=(const GlobalArray&) = delete;

  // Collective over the group; every rank must pass the same arguments
  // (checked: a mismatch fails on every rank). The array starts zeroed.
  // window: how its RMA windows are built (PARIO_ARRAY_WINDOW; auto: one
  // shared window when the group is on one physical node).
  static Result<std::shared_ptr<GlobalArray>> create(std::shared_ptr<const comm::Group> group,
                                                     std::string name, ElementType type,
                                                     Distribution dist,
                                                     ArrayWindowChoice window = ArrayWindowChoice::kAuto);
  // Collective: completes pending requests and frees the windows.
  Status close();

  const std::string& name() const { return name_; }
  ElementType type() const { return type_; }
  const Distribution& distribution() const { return dist_; }
  const comm::Group& group() const { return *group_; }
  bool closed() const;

  // Blocking transfers of `section` from/to a buffer with leading
  // dimensions ld (ndim-1 entries in elements; empty means contiguous).
  // Accumulate adds alpha * buffer (alpha points to one element of the
  // array's type; null means 1).
  Status get(const Box& section, void* buf, const std::vector<int64_t>& ld);
  Status put(const Box& section, const void* buf, const std::vector<int64_t>& ld);
  Status acc(const Box& section, const void* buf, const std::vector<int64_t>& ld,
             const void* alpha);
  // Fetch-and-accumulate (DDI_GetAcc): section += buffer, and the buffer
  // receives the values the section held just before, atomically per
  // element with respect to other accumulates.
  Status get_acc(const Box& section, void* buf, const std::vector<int64_t>& ld);
  // Nonblocking forms; the buffer is borrowed until the request completes.
  Result<std::shared_ptr<ArrayRequest>> iget(const Box& section, void* buf,
                                             const std::vector<int64_t>& ld);
  Result<std::shared_ptr<ArrayRequest>> iput(const Box& section, const void* buf,
                                             const std::vector<int64_t>& ld);
  Result<std::shared_ptr<ArrayRequest>> iacc(const Box& section, const void* buf,
                                             const std::vector<int64_t>& ld, const void* alpha);

  // Collective whole-array operations (each ends with a fence).
  Status fill(const void* value);
  Status scale(const void* alpha);
  // dst = src for arrays of the same type and shape (any distributions).
  static Status copy(GlobalArray& src, GlobalArray& dst);

  // Collective fence (see the consistency notes above).
  Status sync();
  // sync() in its two local halves, for a caller whose own collective
  // step (a barrier or more) stands between them.
  Status sync_arrive();
  Status sync_leave();
  // Group-wide reader/writer lock on the whole array. Not fair: a steady
  // stream of readers can delay a writer.
  Status lock(bool write);
  Status unlock();

  // Direct access to the patch of `rank`, which must be on this rank's
  // node (DDI's FULL model): its box, and a pointer to its dense row-major
  // storage. Loads and stores through it are plain memory operations;
  // call sync() to order them with other ranks' operations.
  Result<char*> access(int rank, Box* patch) const;
  // True when a remote section costs one RMA message per node (created
  // window: node masters expose whole node segments); false in a shared
  // window, where each owner is the target for its own patch.
  bool one_message_per_node() const;
  // The part of the array held by the ranks of `node`, when it is a box.
  Result<Box> node_box(int node) const;

 private:
  GlobalArray() = default;
  // create's steps. Collective: every rank passed the same type and
  // distribution (a fingerprint compared).
  static Status check_same_array(const comm::Group& g, const std::string& name, ElementType type,
                                 const Distribution& dist);
  // Local, alike on every rank: where each patch lives (target_, disp_,
  // node_slot_), the bytes this rank allocates and its node's segment
  // holds. A node's header (one mutex per rank, then on node 0 the
  // group's lock word) leads its master's memory. Shared window: each rank
  // allocates its own patch, a whole number of pages (the master after the
  // header), plus a page for map_node to start it half a page into a page,
  // and is the RMA target for it. Created window: the master allocates the
  // whole node segment (header, then every patch of the node) and is the
  // RMA target for all of it.
  void lay_out(bool shared, uint64_t* my_bytes, uint64_t* my_node_bytes);
  // Collective: the windows, each creation agreed on; an error leaves the
  // same windows on every rank.
  Status make_windows(bool shared, uint64_t my_bytes, uint64_t my_node_bytes, WindowSet* w);
  // Collective: where this node's header (*header) and patches (local_)
  // are mapped in this process.
  Status map_node(bool shared, const WindowSet& w, char** header);
  // Local: the lock_all epochs, the node's mutexes and lock word (its
  // master), this rank's patch zeroed by its owner.
  void open_windows(WindowSet* w, char* header);
  Status check(const Box& section, const void* buf, const std::vector<int64_t>& ld,
               Shape* buf_shape) const;
  // The shared implementation of the transfer calls: node-local pieces by
  // memory, remote ones by one RMA call per node (issue_node). For
  // get_acc, `result` receives the old values (same layout as origin).
  Status transfer(RmaOp op, const Box& section, char* buf, const std::vector<int64_t>& ld,
                  const void* alpha, ArrayRequest* async);
  Status issue_node(RmaOp op, const Piece* pieces, size_t k, int target, const Box& section,
                    char* origin, char* result, const Shape& shape, ArrayRequest* async);
  // issue_node's fetch-and-add: one RMA call per contiguous row.
  Status fetch_add_rows(const Piece* pieces, size_t k, int target, const Box& section,
                        char* origin, char* result, const Shape& shape);
  // The nonblocking calls: a request around transfer().
  Result<std::shared_ptr<ArrayRequest>> start(RmaOp op, const Box& section, const void* buf,
                                              const std::vector<int64_t>& ld, const void* alpha);
  // Remembers a request so close() can complete it.
  void track(const std::shared_ptr<ArrayRequest>& req);

  std::shared_ptr<const comm::Group> group_;
  std::string name_;
  ElementType type_ = ElementType::kDouble;
  Distribution dist_;
  std::shared_ptr<WindowSet> windows_;
  // Per rank: the rank addressed in the RMA window for its patch, the
  // patch's displacement there, and (for ranks of this node) where it is
  // mapped in this process.
  std::vector<int> target_;
  std::vector<uint64_t> disp_;
  std::vector<char*> local_;
  std::vector<int> node_slot_;          // per rank: its index among its node's ranks
  bool direct_acc_ = false;             // node-local accumulates by memory, under a lock
  int lock_held_ = 0;                   // 0 none, 1 read, 2 write
  std::mutex pending_mu_;
  std::vector<std::weak_ptr<ArrayRequest>> pending_;
};

}  // namespace pario::array
