// Statistics over processes: every rank's StatsTotals (base/stats.h)
// summed on rank 0, for the report pario_finalize prints and writes.
//
// base keeps the counters and their byte format (pack_paths/merge_paths)
// without MPI; this is the MPI half: reduces of the fixed counters (sums,
// and the largest of the collective I/O counters) and one gather of each
// rank's packed per-path records.
//
// Thread safety: a collective; call from one thread per rank.
#pragma once

#include "base/stats.h"
#include "base/status.h"
#include "comm/comm.h"

namespace pario::comm {

// Collective over comm: on rank 0, *totals becomes the sum over all ranks
// of comm (per-path records merged, collective_most the largest; with one
// rank it is left as it is).
// Other ranks' *totals are unchanged. Every rank returns the status of the
// MPI calls; only rank 0 can fail with kInternal, on per-path records
// another rank did not pack as base does.
Status gather_stats(const Comm& comm, StatsTotals* totals);

}  // namespace pario::comm
