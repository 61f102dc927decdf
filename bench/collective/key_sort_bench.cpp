// Decomposition setup by key (issue 25, benchmark case 5): the time of
// collective::rank_keys for N random 63-bit keys spread evenly over the
// ranks. Not a test. Run: mpiexec -n 4 key_sort_bench [N [reps [width]]];
// prints one JSON line per repetition (the slowest rank's time, the CPU
// time of all ranks together, and the slowest rank's split into local
// sort, bucket numbering and the rest) and then the median. width > 0
// (issue 27: the Exodus writer's coordinates riding with the node ids, 3
// words): each repetition runs the sort without a payload and with one of
// width words per key, interleaved, and both medians are printed; the keys
// are then shared, every key on two ranks (a mesh's boundary nodes at
// their worst), so the payloads are compared.
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
  const int width = argc > 3 ? std::atoi(argv[3]) : 0;
  const int64_t n = total / size + (me < total % size ? 1 : 0);
  std::mt19937_64 g(12345 + me);
  std::vector<int64_t> keys(n);
  for (auto& k : keys) k = static_cast<int64_t>(g() >> 1);
  std::vector<int64_t> payload;
  if (width > 0) {
    // Half of each rank's keys are its right neighbour's too: its own keys
    // (the first of its stream) go to the second half, the first half gets
    // the first of the neighbour's stream, which the neighbour holds as its
    // own. Each key's words are a function of the key.
    std::mt19937_64 own(12345 + me), right(12345 + (me + 1) % size);
    for (int64_t i = n / 2; i < n; ++i) keys[static_cast<size_t>(i)] = static_cast<int64_t>(own() >> 1);
    for (int64_t i = 0; i < n / 2; ++i) keys[static_cast<size_t>(i)] = static_cast<int64_t>(right() >> 1);
    for (int64_t k : keys) {
      for (int q = 0; q < width; ++q) payload.push_back(k ^ q);
    }
  }
  std::vector<double> times, with_payload;
  for (int r = 0; r < (width > 0 ? 2 * reps : reps); ++r) {
    const bool carry = width > 0 && r % 2 == 1;
    collective::detail::KeySortStats stats;
    MPI_Barrier(world.get());
    const double t0 = MPI_Wtime(), c0 = cpu_seconds();
    auto got = collective::detail::rank_keys(world, keys.data(), keys.size(), {}, &stats,
                                             carry ? payload.data() : nullptr, carry ? width : 0);
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
      std::printf("{\"payload_words\": %d, \"ranks\": %d, \"keys\": %lld, \"seconds\": %.4f, \"cpu_seconds_all_ranks\": %.4f, "
                  "\"local_sort_max\": %.4f, \"bucket_merge_max\": %.4f, \"other_max\": %.4f, "
                  "\"max_bucket\": %lld, \"distinct\": %lld}\n",
                  carry ? width : 0, size, static_cast<long long>(total), slowest, cpu_sum, worst[0], worst[1], worst[2],
                  static_cast<long long>(max_bucket), static_cast<long long>(got->distinct));
    }
    (carry ? with_payload : times).push_back(slowest);
  }
  if (me == 0) {
    std::sort(times.begin(), times.end());
    std::printf("{\"ranks\": %d, \"keys\": %lld, \"median_seconds\": %.4f", size,
                static_cast<long long>(total), times[times.size() / 2]);
    if (!with_payload.empty()) {
      std::sort(with_payload.begin(), with_payload.end());
      std::printf(", \"payload_words\": %d, \"median_seconds_with_payload\": %.4f", width,
                  with_payload[with_payload.size() / 2]);
    }
    std::printf("}\n");
  }
  (void)comm::finalize();
  return 0;
}
