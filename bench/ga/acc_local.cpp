// Node-local accumulate (or put), alone: pario_array_acc against raw
// MPI_Accumulate (+ flush, on an MPI_Win_allocate window), interleaved
// A B A B, for finding where the time of ga_bench's "acc 1.6 MB" goes
// (issue 30) with perf on one case, and for the case ga_bench does not
// have: every rank adding into the same patch at once (--same), where a
// lock over the whole add would make the ranks take turns.
//
// Usage: mpiexec -n P acc_local [--put] [--elems N] [--ops K] [--rep R] [--same]
// Rank 0 prints one JSON line per (impl, repetition): GB/s per rank over
// the slowest rank's time, as ga_bench reports it, and cpu_share: the
// lowest over ranks of the CPU time the rank got during its block over the
// block's wall time (well under 1: the rank waited for a core, the sample
// measures the machine's load, not the operation).
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <vector>

#include "../common.h"
#include "pario/pario.h"
#include "raw_rma.h"

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void check(int rc, const char* what) {
  if (rc != PARIO_OK) bench::fail("acc_local", what);
}

double cpu_now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

// The slowest rank's seconds for ops calls; *cpu_share as above.
double timed(int ops, const std::function<void()>& op, double* cpu_share) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = now(), c0 = cpu_now();
  for (int i = 0; i < ops; ++i) op();
  double dt = now() - t0, share = (cpu_now() - c0) / dt, slowest = 0;
  MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&share, cpu_share, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  return slowest;
}

}  // namespace

int main(int argc, char** argv) {
  int provided, rank, nranks;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  int64_t elems = 204800;  // 1.6 MB of doubles, ga_bench's case
  int ops = 200, reps = 7;
  bool same = false, put = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--same")) same = true;
    else if (!std::strcmp(argv[i], "--put")) put = true;
    else if (i + 1 < argc && !std::strcmp(argv[i], "--elems")) elems = std::atoll(argv[++i]);
    else if (i + 1 < argc && !std::strcmp(argv[i], "--ops")) ops = std::atoi(argv[++i]);
    else if (i + 1 < argc && !std::strcmp(argv[i], "--rep")) reps = std::atoi(argv[++i]);
  }
  check(pario_init(), "pario_init");
  // Target: the next rank's patch, or with --same rank 0's for everyone.
  const int target = same ? 0 : (rank + 1) % nranks;
  const int64_t patch = elems;

  pario_group_t world;
  check(pario_group_world(&world), "group");
  pario_array_t pa;
  const int64_t dims[1] = {patch * nranks};
  check(pario_array_create_columns(world, "acc_local", PARIO_TYPE_DOUBLE, 1, dims, nullptr, &pa), "create");

  double* raw_base = nullptr;
  MPI_Win raw = bench::raw_window(patch, &raw_base);
  std::fill(raw_base, raw_base + patch, 0.0);

  std::vector<double> src(elems, 2.0);
  const double one = 1;
  struct Impl {
    const char* name;
    std::function<void()> op;
  };
  const Impl impls[] = {
      {"pario",
       [&] {
         int64_t s[1] = {target * patch}, c[1] = {elems};
         check(put ? pario_array_put(pa, s, c, src.data(), nullptr)
                   : pario_array_acc(pa, s, c, src.data(), nullptr, &one),
               put ? "put" : "acc");
       }},
      {"mpi_rma", [&] {
         const int n = static_cast<int>(elems);
         if (put) {
           MPI_Put(src.data(), n, MPI_DOUBLE, target, 0, n, MPI_DOUBLE, raw);
         } else {
           MPI_Accumulate(src.data(), n, MPI_DOUBLE, target, 0, n, MPI_DOUBLE, MPI_SUM, raw);
         }
         MPI_Win_flush(target, raw);
       }}};
  double share;
  for (const Impl& im : impls) timed(std::max(1, ops / 10), im.op, &share);  // warm up both
  for (int r = 0; r < reps; ++r) {
    for (int k = 0; k < 2; ++k) {
      const Impl& im = impls[(k + r) % 2];  // alternate which goes first
      const double t = timed(ops, im.op, &share);
      if (rank == 0) {
        std::printf("{\"case\": \"%s %.3f MB%s\", \"impl\": \"%s\", \"rep\": %d, \"GBps\": %.3f, "
                    "\"cpu_share\": %.2f}\n",
                    put ? "put" : "acc", elems * 8 / 1e6, same ? ", same target" : "", im.name, r,
                    ops * elems * 8.0 / t / 1e9, share);
        std::fflush(stdout);
      }
    }
  }
  MPI_Win_unlock_all(raw);
  MPI_Win_free(&raw);
  check(pario_array_destroy(&pa), "destroy");
  check(pario_group_free(&world), "group free");
  check(pario_finalize(), "finalize");
  MPI_Finalize();
  return 0;
}
