#include "comm/stats_gather.h"

#include <string>
#include <vector>

namespace pario::comm {

Status gather_stats(const Comm& comm, StatsTotals* totals) {
  StatsTotals& t = *totals;
  const bool root = comm.rank() == 0;
  PARIO_RETURN_IF_ERROR(mpi_status(
      MPI_Reduce(root ? MPI_IN_PLACE : t.v.data(), t.v.data(), static_cast<int>(t.v.size()),
                 MPI_UINT64_T, MPI_SUM, 0, comm.get()),
      "MPI_Reduce"));
  // Collective I/O: summed, and each value's largest over ranks.
  PARIO_RETURN_IF_ERROR(mpi_status(
      MPI_Reduce(root ? MPI_IN_PLACE : t.collective.data(), t.collective.data(),
                 static_cast<int>(t.collective.size()), MPI_UINT64_T, MPI_SUM, 0, comm.get()),
      "MPI_Reduce"));
  PARIO_RETURN_IF_ERROR(mpi_status(
      MPI_Reduce(root ? MPI_IN_PLACE : t.collective_most.data(), t.collective_most.data(),
                 static_cast<int>(t.collective_most.size()), MPI_UINT64_T, MPI_MAX, 0, comm.get()),
      "MPI_Reduce"));
  // Per-path sums: every rank's packed records gathered to rank 0.
  const std::string mine = t.pack_paths();
  int bytes = static_cast<int>(mine.size());
  std::vector<int> counts(root ? comm.size() : 0), displs(counts.size());
  PARIO_RETURN_IF_ERROR(mpi_status(
      MPI_Gather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm.get()), "MPI_Gather"));
  std::vector<char> all;
  if (root) {
    for (size_t i = 1; i < counts.size(); ++i) displs[i] = displs[i - 1] + counts[i - 1];
    all.resize(static_cast<size_t>(displs.back()) + counts.back());
  }
  PARIO_RETURN_IF_ERROR(mpi_status(
      MPI_Gatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE,
                  0, comm.get()),
      "MPI_Gatherv"));
  if (!root || comm.size() == 1) return Status::Ok();
  t.paths.clear();
  if (!t.merge_paths(all.data(), all.size())) {
    return Status(Code::kInternal, "statistics: malformed per-path records from another rank");
  }
  return Status::Ok();
}

}  // namespace pario::comm
