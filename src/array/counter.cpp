#include "array/counter.h"

#include <string>

namespace pario::array {

Counter::~Counter() = default;  // a window not closed is MPI's at finalize

Result<std::unique_ptr<Counter>> Counter::create(std::shared_ptr<const comm::Group> group) {
  std::unique_ptr<Counter> c(new Counter());
  c->group_ = std::move(group);
  const comm::Group& g = *c->group_;
  Result<comm::Info> info = comm::Info::create({{"accumulate_ops", "same_op_no_op"}});
  void* base = nullptr;
  // On one physical node a shared window (Open MPI's osc/sm): atomics in
  // shared memory, and no backing-file name collision between groups
  // (see global_array.cpp). Across nodes, MPI_Win_allocate.
  Status s = info.status();
  if (s.ok()) {
    s = comm::mpi_status(
        g.one_physical_node()
            ? MPI_Win_allocate_shared(2 * sizeof(int64_t), sizeof(int64_t), info->get(), g.comm(),
                                      &base, c->win_.out())
            : MPI_Win_allocate(2 * sizeof(int64_t), sizeof(int64_t), info->get(), g.comm(), &base,
                               c->win_.out()),
        g.one_physical_node() ? "MPI_Win_allocate_shared" : "MPI_Win_allocate");
  }
  PARIO_RETURN_IF_ERROR(comm::agree(g.comm_object(), s));
  c->slots_ = static_cast<int64_t*>(base);
  c->slots_[0] = c->slots_[1] = 0;
  MPI_Win_lock_all(MPI_MODE_NOCHECK, c->win_.get());
  PARIO_RETURN_IF_ERROR(comm::mpi_status(MPI_Win_sync(c->win_.get()), "MPI_Win_sync"));
  PARIO_RETURN_IF_ERROR(g.barrier());
  return c;
}

Status Counter::close() {
  if (closed()) return Status(Code::kState, "counter already closed");
  MPI_Win_unlock_all(win_.get());
  Status s = win_.free();
  slots_ = nullptr;
  return comm::agree(group_->comm_object(), s);
}

Result<int64_t> Counter::fetch_add(int owner, int64_t increment) {
  if (closed()) return Status(Code::kInvalidArgument, "counter is closed");
  if (owner != kGlobal && (owner < 0 || owner >= group_->size())) {
    return Status(Code::kInvalidArgument, "counter owner " + std::to_string(owner) +
                                              " is not a rank of the group (size " +
                                              std::to_string(group_->size()) + ")");
  }
  const int target = owner == kGlobal ? 0 : owner;
  const MPI_Aint disp = owner == kGlobal ? 0 : 1;
  int64_t old = 0;
  PARIO_RETURN_IF_ERROR(comm::mpi_status(
      MPI_Fetch_and_op(&increment, &old, MPI_INT64_T, target, disp, MPI_SUM, win_.get()),
      "MPI_Fetch_and_op"));
  PARIO_RETURN_IF_ERROR(comm::mpi_status(MPI_Win_flush(target, win_.get()), "MPI_Win_flush"));
  return old;
}

Status Counter::reset() {
  if (closed()) return Status(Code::kInvalidArgument, "counter is closed");
  const comm::Group& g = *group_;
  // Every increment issued before the call has completed (fetch_add
  // flushes); the barrier makes sure nobody is still issuing.
  PARIO_RETURN_IF_ERROR(g.barrier());
  PARIO_RETURN_IF_ERROR(comm::mpi_status(MPI_Win_sync(win_.get()), "MPI_Win_sync"));
  slots_[0] = slots_[1] = 0;
  PARIO_RETURN_IF_ERROR(comm::mpi_status(MPI_Win_sync(win_.get()), "MPI_Win_sync"));
  return g.barrier();
}

}  // namespace pario::array
