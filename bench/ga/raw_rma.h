// The raw MPI RMA peer of ga_bench and acc_local: the limit pario's global
// arrays are measured against.
#pragma once

#include <mpi.h>

namespace bench {

// A window of `count` elements of T on every rank of MPI_COMM_WORLD, from
// MPI_Win_allocate (only same-op accumulates, as GA and pario promise),
// inside a lock_all epoch for its life: operations complete by flush.
// MPI_Win_unlock_all and MPI_Win_free end it.
template <typename T>
MPI_Win raw_window(MPI_Aint count, T** base) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "accumulate_ops", "same_op_no_op");
  MPI_Win win;
  MPI_Win_allocate(count * static_cast<MPI_Aint>(sizeof(T)), sizeof(T), info, MPI_COMM_WORLD, base, &win);
  MPI_Info_free(&info);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  return win;
}

}  // namespace bench
