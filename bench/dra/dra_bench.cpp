// Disk-resident-array benchmark (ChemIO Figures 6 and 7 on this machine).
//
// A 2-D double array of --rows x --cols lives in a global array. Each
// implementation writes it to a disk array, closes, reopens and reads it
// back, and does the same with a nonaligned section (shifted by one row
// and one column against the disk layout), the two passes in an order
// that turns with --rep. MB/s from barrier to barrier.
// The implementations, all in a rotating order within one MPI job, or
// with --impl NAME just one (bench/run gives each its own job: sharing a
// job with posix and ga, pario's first write into a fresh store measured
// 1257-5846 MB/s, median 2725, at 1 rank; alone, 1263-6921, median 6826):
//   posix  the limit: each rank pwrites and preads its own patch of the
//          same global array to and from its part of one plain file, in
//          1 MiB calls (it has no layout to miss: its nonaligned rows
//          are the same aligned transfer, in the nonaligned pass's place)
//   pario  pario's global array and disk array (a Zarr store)
//   ga     Global Arrays' NGA_* array and GA's DRA (Debian's libga), when
//          built with it
//   pario-ga  the same GA code in dra_ga_handles_bench, built from this
//          file and linked with pario_dra_ga before GA: pario's classic
//          DRA on GA's own arrays, what a GA program (NWChem) gets relinked
// --states warm,cold (default warm) runs the measurements once per page-cache
// state, in that order, in one job (one launch, one warm-up for both).
// Warm: each write starts with the dirty pages flushed (untimed), and reads
// find the file in the page cache. Cold: the page cache is defeated: a
// write's time includes flushing the file system (syncfs), and before each
// read rank 0 evicts every file under --dir from the page cache
// (posix_fadvise DONTNEED after the syncfs, so no root needed). It once
// wrote /proc/sys/vm/drop_caches, which also evicted every library, so
// the next launch of mpiexec read Open MPI's plugins from disk. --cold is
// --states cold. Rank 0 prints one JSON object per measurement ("cold":
// the state); bench/run aggregates.
#include <fcntl.h>
#include <ftw.h>
#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "pario/pario.h"
#include "raw_patch.h"

#if PARIO_BENCH_HAVE_GA
#include <dra.h>
#include <ga.h>
#include <macdecls.h>
#endif

namespace {

int rank = 0, nranks = 1;

[[noreturn]] void die(const std::string& what) {
  char msg[512] = "";
  pario_last_error_message(msg, sizeof msg);
  std::fprintf(stderr, "dra_bench (rank %d): %s %s\n", rank, what.c_str(), msg);
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

// One implementation: write or read [lo, lo + n) of the array, shifted by
// `shift` on disk; create and reopen between the phases.
struct Impl {
  const char* name;
  std::function<void()> create;                  // the disk array, empty
  std::function<void(bool write, int64_t shift)> move;
  std::function<void()> reopen;
  std::function<void()> destroy;
  bool aligned_only = false;
};

void emit(const char* impl, const char* op, bool cold, double mbps, int rep) {
  if (rank == 0) {
    std::printf("{\"impl\": \"%s\", \"op\": \"%s\", \"cold\": %s, \"ranks\": %d, \"rep\": %d, \"mbps\": %.2f}\n",
                impl, op, cold ? "true" : "false", nranks, rep, mbps);
    std::fflush(stdout);
  }
}

// --label: what pario's rows are called, for runs under another setting
// (bench/run dra runs "pario-ram" with a Files-in-Memory rule, ...).
std::string pario_label = "pario";

[[maybe_unused]] Impl pario_impl(const std::string& dir, int64_t rows, int64_t cols) {
  static pario_group_t world;
  static pario_array_t ga;
  static pario_disk_array_t da;
  static std::string path;
  static int64_t dims[2];
  dims[0] = rows;
  dims[1] = cols;
  path = dir + "/dra_bench.zarr";
  if (pario_group_world(&world) != PARIO_OK) die("group");
  if (pario_array_create(world, "dra_bench", PARIO_TYPE_DOUBLE, 2, dims, &ga) != PARIO_OK) die("array");
  const double v = 1.5;
  if (pario_array_fill(ga, &v) != PARIO_OK) die("fill");
  return {pario_label.c_str(),
          [] {
            (void)pario_disk_array_delete(world, path.c_str());
            if (pario_disk_array_create(world, path.c_str(), PARIO_TYPE_DOUBLE, 2, dims, nullptr, &da) != PARIO_OK)
              die("create");
          },
          [](bool write, int64_t shift) {
            const int64_t zero[2] = {0, 0}, count[2] = {dims[0] - shift, dims[1] - shift}, at[2] = {shift, shift};
            int rc = write ? pario_disk_array_write(da, ga, zero, count, at)
                           : pario_disk_array_read(da, ga, zero, count, at);
            if (rc != PARIO_OK) die(write ? "write" : "read");
          },
          [] {
            if (pario_disk_array_close(&da) != PARIO_OK ||
                pario_disk_array_open(world, path.c_str(), PARIO_MODE_RDWR, &da) != PARIO_OK)
              die("reopen");
          },
          [] {
            if (pario_disk_array_close(&da) != PARIO_OK || pario_disk_array_delete(world, path.c_str()) != PARIO_OK)
              die("delete");
          }};
}

// Raw POSIX I/O of the bytes pario moves, between the same memory (each
// rank's patch of the global array) and one file, each rank at its own
// offset: what no library can beat. fio's buffered reads are not that
// limit here: they copy into one reused 1 MiB buffer that stays in the CPU
// caches, while every library must fill 512 MB of memory.
[[maybe_unused]] Impl posix_impl(const std::string& dir, int64_t rows, int64_t cols) {
  static pario_group_t world;
  static pario_array_t ga;
  static std::string path;
  static int fd = -1;
  static bench::RawPatch mine;
  const int64_t dims[2] = {rows, cols};
  path = dir + "/dra_bench.raw";
  if (pario_group_world(&world) != PARIO_OK) die("group");
  if (pario_array_create(world, "dra_bench_posix", PARIO_TYPE_DOUBLE, 2, dims, &ga) != PARIO_OK) die("array");
  const double v = 1.5;
  if (pario_array_fill(ga, &v) != PARIO_OK) die("fill");
  if (!bench::raw_patch(ga, rank, &mine)) die("access");
  auto open_file = [](int flags) {
    fd = ::open(path.c_str(), flags | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) die("open " + path);
  };
  return {"posix",
          [open_file] {
            if (rank == 0) {
              ::unlink(path.c_str());
              open_file(O_CREAT | O_EXCL);
            }
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank != 0) open_file(0);
          },
          [](bool write, int64_t) {
            if (!bench::move_raw_patch(fd, mine, write)) die(write ? "pwrite" : "pread");
          },
          [open_file] {
            ::close(fd);
            open_file(0);
          },
          [] {
            ::close(fd);
            MPI_Barrier(MPI_COMM_WORLD);
            if (rank == 0) ::unlink(path.c_str());
          },
          /*aligned_only=*/true};
}

#if PARIO_BENCH_HAVE_GA
#if PARIO_BENCH_GA_HANDLES
constexpr const char* kGaImpl = "pario-ga";  // NDRA_* resolve to pario_dra_ga
#else
constexpr const char* kGaImpl = "ga";
#endif

Impl ga_impl(const std::string& dir, int64_t rows, int64_t cols) {
  static int g_a, d_a;
  static std::string path;
  static int dims[2];
  dims[0] = static_cast<int>(rows);
  dims[1] = static_cast<int>(cols);
  path = dir + "/dra_bench.ga";
  g_a = NGA_Create(C_DBL, 2, dims, const_cast<char*>("dra_bench_ga"), nullptr);
  double v = 1.5;
  GA_Fill(g_a, &v);
  return {kGaImpl,
          [] {
            dra_size_t ddims[2] = {dims[0], dims[1]}, req[2] = {dims[0], dims[1] / nranks > 0 ? dims[1] : 1};
            if (NDRA_Create(C_DBL, 2, ddims, const_cast<char*>("bench"), const_cast<char*>(path.c_str()), DRA_RW,
                            req, &d_a) != 0)
              die("NDRA_Create");
          },
          [](bool write, int64_t shift) {
            int req = 0;
            int glo[2] = {0, 0}, ghi[2] = {dims[0] - 1 - static_cast<int>(shift), dims[1] - 1 - static_cast<int>(shift)};
            dra_size_t dlo[2] = {shift, shift}, dhi[2] = {dims[0] - 1, dims[1] - 1};
            int rc = shift == 0 ? (write ? NDRA_Write(g_a, d_a, &req) : NDRA_Read(g_a, d_a, &req))
                                : (write ? NDRA_Write_section(0, g_a, glo, ghi, d_a, dlo, dhi, &req)
                                         : NDRA_Read_section(0, g_a, glo, ghi, d_a, dlo, dhi, &req));
            if (rc != 0 || DRA_Wait(req) != 0) die("GA DRA transfer");
          },
          [] {
            if (DRA_Close(d_a) != 0 || DRA_Open(const_cast<char*>(path.c_str()), DRA_RW, &d_a) != 0) die("DRA reopen");
          },
          [] {
            if (DRA_Delete(d_a) != 0) die("DRA_Delete");
          }};
}
#endif

// posix_fadvise(DONTNEED) of one file (nftw's callback): its clean pages
// leave the page cache.
int evict_file(const char* path, const struct stat*, int type, struct FTW*) {
  if (type != FTW_F) return 0;
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return 0;  // gone meanwhile (a store's temporary file)
  const int rc = ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  ::close(fd);
  return rc;
}

// Rank 0 flushes the file system holding dir (the write's bytes reach
// the disk); with evict, it then drops every file under dir from the page
// cache (the read comes from disk). Files in RAM (PARIO_FIM) stay: they
// are not page cache.
void defeat_cache(const std::string& dir, bool evict) {
  if (rank == 0) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (fd < 0 || ::syncfs(fd) != 0) die("syncfs " + dir);
    ::close(fd);
    if (evict && ::nftw(dir.c_str(), evict_file, 16, FTW_PHYS) != 0) die("evicting the files under " + dir);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir = "/tmp";
  int64_t rows = 2048, cols = 2048;
  int rep = 0;
  std::vector<bool> states = {false};  // cold?, in order
  std::string only;  // --impl: run just this implementation
  for (int i = 1; i < argc; i += 2) {
    if (!std::strcmp(argv[i], "--cold")) {
      states = {true};
      --i;
      continue;
    }
    if (!std::strcmp(argv[i], "--states") && i + 1 < argc) {
      const std::string v = argv[i + 1];
      if (v == "warm") states = {false};
      else if (v == "cold") states = {true};
      else if (v == "warm,cold") states = {false, true};
      else die("--states " + v + ": warm, cold or warm,cold");
      continue;
    }
    if (i + 1 >= argc) die(std::string("no value after ") + argv[i]);
    if (!std::strcmp(argv[i], "--dir")) dir = argv[i + 1];
    else if (!std::strcmp(argv[i], "--rows")) rows = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--cols")) cols = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--rep")) rep = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--impl")) only = argv[i + 1];
    else if (!std::strcmp(argv[i], "--label")) pario_label = argv[i + 1];
    else die(std::string("unknown argument ") + argv[i]);
  }
  if (pario_init() != PARIO_OK) die("pario_init");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  std::vector<Impl> impls;
  auto wanted = [&](const char* name) { return only.empty() || only == name; };
#if !PARIO_BENCH_GA_HANDLES
  if (wanted("pario")) impls.push_back(pario_impl(dir, rows, cols));
  if (wanted("posix")) impls.push_back(posix_impl(dir, rows, cols));
#endif
#if PARIO_BENCH_HAVE_GA
  GA_Initialize();
  MA_init(C_DBL, 8 << 20, 8 << 20);
  if (DRA_Init(4, 1e12, 1e12, 64e6) != 0) die("DRA_Init");
  if (wanted(kGaImpl)) impls.push_back(ga_impl(dir, rows, cols));
#endif
  if (impls.empty()) die("--impl " + only + ": no such implementation in this program");
  // Warm-up, untimed: on this VM the first write of a run into pages the
  // kernel has not used yet ran 8x slower (282 against 2300 MB/s for the
  // same fresh store a second time), whichever implementation came first.
  for (Impl& impl : impls) {
    impl.create();
    impl.move(true, 0);
    impl.destroy();
  }
  const double mb = static_cast<double>(rows * cols * 8) / 1e6;
  for (const bool cold : states) {
    for (size_t k = 0; k < impls.size(); ++k) {
      Impl& impl = impls[(k + rep) % impls.size()];
      impl.create();
      // The aligned and the nonaligned pass, in an order that turns with
      // --rep: pario's second read of a job ran slower whatever its kind
      // (4 ranks, cold, 8 jobs per order: first reads' median 1414 MB/s,
      // second 1242, nonaligned first 1426 against aligned second 1260;
      // with both passes aligned, the second 697-1177 against 1068-1253),
      // so a fixed order charged the nonaligned rows for their place. An
      // impl without a layout (posix) moves its aligned patch in both
      // passes; the one in the nonaligned place is that row's stand-in.
      for (const int64_t slot : {rep % 2, 1 - rep % 2}) {
        const int64_t shift = impl.aligned_only ? 0 : slot;
        const double part = mb * static_cast<double>((rows - shift) * (cols - shift)) / static_cast<double>(rows * cols);
        for (bool write : {true, false}) {
          // Buffered writes start with no dirty pages, untimed: else a write
          // paid for the writeback of the ones before it (samples of one
          // case ranged 860-5590 MB/s).
          if (!cold && write) defeat_cache(dir, false);
          MPI_Barrier(MPI_COMM_WORLD);
          const double t0 = MPI_Wtime();
          impl.move(write, shift);
          MPI_Barrier(MPI_COMM_WORLD);
          if (cold && write) defeat_cache(dir, false);  // the bytes are on disk
          const double t = MPI_Wtime() - t0;
          emit(impl.name, (std::string(write ? "write" : "read") + (slot ? " nonaligned" : " aligned")).c_str(), cold,
               part / t, rep);
          if (write) impl.reopen();
          if (cold && write) defeat_cache(dir, true);  // the read comes from disk
        }
      }
      impl.destroy();
    }
  }
#if PARIO_BENCH_HAVE_GA
  DRA_Terminate();
  GA_Terminate();
#endif
  if (pario_finalize() != PARIO_OK) die("pario_finalize");
  return 0;
}
