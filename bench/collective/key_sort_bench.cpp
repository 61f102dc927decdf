// Decomposition setup by key (issue 25, benchmark case 5): the time of
// collective::rank_keys for N random 63-bit keys spread evenly over the
// ranks. Not a test. Run: mpiexec -n 4 key_sort_bench [N [reps]]; prints
// one JSON line per repetition (the slowest rank's time, the CPU time of
// all ranks together, and the slowest rank's split into local sort, bucket
// numbering and the rest) and then the median.
#include <mpi.h>
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "collective/key_sort.h"
#include "comm/comm.h"

// User + system CPU seconds of this process so far.
static double cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + 1e-6 * (u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

int main(int argc, char** argv) {
  using namespace pario;
  if (!comm::initialize().ok()) return 1;
  const comm::Comm& world = comm::world();
  const int me = world.rank(), size = world.size();
  const int64_t total = argc > 1 ? std::atoll(argv[1]) : 10000000;
  const int reps = argc > 2 ? std::atoi(argv[2]) : 5;
  const int64_t n = total / size + (me < total % size ? 1 : 0);
  std::mt19937_64 g(12345 + me);
  std::vector<int64_t> keys(n);
  for (auto& k : keys) k = static_cast<int64_t>(g() >> 1);
  std::vector<double> times;
  for (int r = 0; r < reps; ++r) {
    collective::detail::KeySortStats stats;
    MPI_Barrier(world.get());
    const double t0 = MPI_Wtime(), c0 = cpu_seconds();
    auto got = collective::detail::rank_keys(world, keys.data(), keys.size(), {}, &stats);
    double t = MPI_Wtime() - t0, slowest = 0, cpu = cpu_seconds() - c0, cpu_sum = 0;
    if (!got.ok()) {
      std::fprintf(stderr, "rank %d: %s\n", me, got.status().message().c_str());
      return 1;
    }
    double parts[3] = {stats.local_seconds, stats.bucket_seconds, stats.other_seconds}, worst[3];
    int64_t bucket = stats.bucket, max_bucket = 0;
    MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, world.get());
    MPI_Reduce(&cpu, &cpu_sum, 1, MPI_DOUBLE, MPI_SUM, 0, world.get());
    MPI_Reduce(parts, worst, 3, MPI_DOUBLE, MPI_MAX, 0, world.get());
    MPI_Reduce(&bucket, &max_bucket, 1, MPI_INT64_T, MPI_MAX, 0, world.get());
    if (me == 0) {
      std::printf("{\"ranks\": %d, \"keys\": %lld, \"seconds\": %.4f, \"cpu_seconds_all_ranks\": %.4f, "
                  "\"local_sort_max\": %.4f, \"bucket_merge_max\": %.4f, \"other_max\": %.4f, "
                  "\"max_bucket\": %lld, \"distinct\": %lld}\n",
                  size, static_cast<long long>(total), slowest, cpu_sum, worst[0], worst[1], worst[2],
                  static_cast<long long>(max_bucket), static_cast<long long>(got->distinct));
    }
    times.push_back(slowest);
  }
  if (me == 0) {
    std::sort(times.begin(), times.end());
    std::printf("{\"ranks\": %d, \"keys\": %lld, \"median_seconds\": %.4f}\n", size,
                static_cast<long long>(total), times[times.size() / 2]);
  }
  (void)comm::finalize();
  return 0;
}
