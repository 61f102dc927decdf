// Dynamic load-balancing counters (DDI_DLBNext, GA's NGA_Read_inc): one
// global counter held by rank 0 of the group and one counter per rank,
// incremented one-sidedly with MPI_Fetch_and_op.
//
// The window (node-shared when the group is on one machine) carries the hint accumulate_ops=same_op_no_op (only MPI_SUM is
// ever applied): without it Open MPI's fetch-and-add ran about 3.5x slower
// here. Reset writes zeros between two barriers, outside any RMA traffic.
//
// Thread safety: fetch_add from any thread; create/reset/close collective.
#pragma once

#include <cstdint>
#include <memory>

#include "base/status.h"
#include "comm/group.h"
#include "comm/handles.h"

namespace pario::array {

class Counter {
 public:
  static constexpr int kGlobal = -1;

  ~Counter();
  Counter(const Counter&) = delete;
  Counter& operator=(const Counter&) = delete;

  // Collective over the group; all counters start at 0.
  static Result<std::unique_ptr<Counter>> create(std::shared_ptr<const comm::Group> group);
  // Collective.
  Status close();

  // Adds `increment` to the global counter (owner == kGlobal) or to rank
  // owner's counter, returning the value before. Atomic; one round trip.
  Result<int64_t> fetch_add(int owner, int64_t increment);
  // Collective: sets every counter to 0.
  Status reset();
  const comm::Group& group() const { return *group_; }
  bool closed() const { return win_.get() == MPI_WIN_NULL; }

 private:
  Counter() = default;
  std::shared_ptr<const comm::Group> group_;
  comm::Window win_;
  int64_t* slots_ = nullptr;  // [0] the global counter (used on rank 0), [1] this rank's
};

}  // namespace pario::array
