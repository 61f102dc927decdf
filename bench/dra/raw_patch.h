// The raw peer of the disk-array benchmarks (dra_bench, read_cost): each
// rank's own patch of a global array, moved to and from its part of one
// plain file (the ranks' patches one after another) in 1 MiB pread/pwrite
// calls: what no library can beat.
#pragma once

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "pario/pario.h"

namespace bench {

struct RawPatch {
  char* patch = nullptr;  // this rank's patch, in place
  int64_t bytes = 0;      // its size
  int64_t offset = 0;     // where it lies in the file
};

// This rank's patch of the 2-D double array ga, and its offset (an
// exclusive scan of the sizes; collective). False when the access fails.
inline bool raw_patch(pario_array_t ga, int rank, RawPatch* out) {
  void* mine = nullptr;
  int64_t start[2], count[2];
  if (pario_array_access(ga, rank, &mine, start, count) != PARIO_OK) return false;
  out->patch = static_cast<char*>(mine);
  out->bytes = count[0] * count[1] * 8;
  MPI_Exscan(&out->bytes, &out->offset, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) out->offset = 0;
  return true;
}

// The patch written to or read from fd; false on a short or failed call.
inline bool move_raw_patch(int fd, const RawPatch& p, bool write) {
  constexpr int64_t kCall = int64_t{1} << 20;
  for (int64_t at = 0; at < p.bytes; at += kCall) {
    const size_t n = static_cast<size_t>(std::min(kCall, p.bytes - at));
    const ssize_t got = write ? ::pwrite(fd, p.patch + at, n, p.offset + at) : ::pread(fd, p.patch + at, n, p.offset + at);
    if (got != static_cast<ssize_t>(n)) return false;
  }
  return true;
}

}  // namespace bench
