// What a warm aligned disk-array read costs beside raw pread, counted in
// ways a loaded machine does not change (issue 30, item 4): a 2-D double
// array in a global array is written once (pario: to a disk array, which
// is then closed and reopened; posix: each rank's patch to its part of one
// file in 1 MiB pwrites, as dra_bench's peer), then read back --reads
// times. Around each read, every rank's getrusage: minor page faults,
// voluntary and involuntary context switches, user and system CPU time;
// rank 0 prints one JSON line per read with their sums over ranks and the
// read's MB/s (barrier to barrier; a trend only under load). Run it under
// `strace -f -c` or `perf stat` for system calls and instructions.
//
// Usage: mpiexec -n P read_cost --impl pario|posix [--rows N] [--cols N]
//                               [--reads K] [--dir D]
#include <fcntl.h>
#include <mpi.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "pario/pario.h"
#include "raw_patch.h"

namespace {

int rank = 0;

[[noreturn]] void die(const std::string& what) {
  char msg[512] = "";
  pario_last_error_message(msg, sizeof msg);
  std::fprintf(stderr, "read_cost (rank %d): %s %s\n", rank, what.c_str(), msg);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; }

}  // namespace

int main(int argc, char** argv) {
  std::string impl = "pario", dir = "/tmp";
  int64_t rows = 2048, cols = 2048;
  int reads = 3;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--impl") impl = v;
    else if (k == "--rows") rows = std::atoll(v.c_str());
    else if (k == "--cols") cols = std::atoll(v.c_str());
    else if (k == "--reads") reads = std::atoi(v.c_str());
    else if (k == "--dir") dir = v;
    else die("unknown argument " + k);
  }
  if (impl != "pario" && impl != "posix") die("--impl pario or posix");
  if (pario_init() != PARIO_OK) die("pario_init");
  int nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  pario_group_t world;
  pario_array_t ga;
  const int64_t dims[2] = {rows, cols}, zero[2] = {0, 0};
  if (pario_group_world(&world) != PARIO_OK) die("group");
  if (pario_array_create(world, "read_cost", PARIO_TYPE_DOUBLE, 2, dims, &ga) != PARIO_OK) die("array");
  const double one = 1.5;
  if (pario_array_fill(ga, &one) != PARIO_OK) die("fill");
  const std::string path = dir + (impl == "pario" ? "/read_cost.zarr" : "/read_cost.raw");
  pario_disk_array_t da = nullptr;
  int fd = -1;
  bench::RawPatch mine;
  if (impl == "pario") {
    (void)pario_disk_array_delete(world, path.c_str());
    if (pario_disk_array_create(world, path.c_str(), PARIO_TYPE_DOUBLE, 2, dims, nullptr, &da) != PARIO_OK ||
        pario_disk_array_write(da, ga, zero, dims, zero) != PARIO_OK || pario_disk_array_close(&da) != PARIO_OK ||
        pario_disk_array_open(world, path.c_str(), PARIO_MODE_RDWR, &da) != PARIO_OK)
      die("write " + path);
  } else {
    if (!bench::raw_patch(ga, rank, &mine)) die("access");
    if (rank == 0) ::unlink(path.c_str());
    MPI_Barrier(MPI_COMM_WORLD);
    fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0) die("open " + path);
    if (!bench::move_raw_patch(fd, mine, true)) die("pwrite");
    ::close(fd);
    fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) die("reopen " + path);
  }
  const double mb = static_cast<double>(rows * cols * 8) / 1e6;
  for (int k = 0; k < reads; ++k) {
    MPI_Barrier(MPI_COMM_WORLD);
    rusage r0, r1;
    getrusage(RUSAGE_SELF, &r0);
    const double t0 = MPI_Wtime();
    if (impl == "pario") {
      if (pario_disk_array_read(da, ga, zero, dims, zero) != PARIO_OK) die("read");
    } else if (!bench::move_raw_patch(fd, mine, false)) {
      die("pread");
    }
    MPI_Barrier(MPI_COMM_WORLD);
    const double t = MPI_Wtime() - t0;
    getrusage(RUSAGE_SELF, &r1);
    double mine[5] = {static_cast<double>(r1.ru_minflt - r0.ru_minflt), static_cast<double>(r1.ru_nvcsw - r0.ru_nvcsw),
                      static_cast<double>(r1.ru_nivcsw - r0.ru_nivcsw), seconds(r1.ru_utime) - seconds(r0.ru_utime),
                      seconds(r1.ru_stime) - seconds(r0.ru_stime)};
    double sum[5];
    MPI_Reduce(mine, sum, 5, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      std::printf("{\"impl\": \"%s\", \"ranks\": %d, \"read\": %d, \"mbps\": %.1f, \"minor_faults\": %.0f, "
                  "\"voluntary_switches\": %.0f, \"involuntary_switches\": %.0f, \"user_s\": %.4f, "
                  "\"system_s\": %.4f}\n",
                  impl.c_str(), nranks, k, mb / t, sum[0], sum[1], sum[2], sum[3], sum[4]);
      std::fflush(stdout);
    }
  }
  if (impl == "pario") {
    if (pario_disk_array_close(&da) != PARIO_OK || pario_disk_array_delete(world, path.c_str()) != PARIO_OK)
      die("delete");
  } else {
    ::close(fd);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) ::unlink(path.c_str());
  }
  if (pario_array_destroy(&ga) != PARIO_OK) die("destroy");
  if (pario_finalize() != PARIO_OK) die("pario_finalize");
  return 0;
}
