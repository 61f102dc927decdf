// Global-array microbenchmark: pario vs raw MPI RMA (the limit) vs GA's
// NGA_* (Debian libglobalarrays-dev), interleaved block by block.
//
// Every rank works at once, each on a partner's patch: with emulated nodes
// (PARIO_RANKS_PER_NODE) the partner is on the other node, so the remote
// path is measured; otherwise the partner is a node neighbour and pario's
// node-local path (memory copies) is. A block is a fixed number of
// operations; its time is the slowest rank's, and the value is the rate
// per rank. Prints JSON lines on rank 0, one per (case, impl, repetition).
//
// Usage: mpiexec -n P ga_bench [--rep N] [--block-seconds S]
#include <mpi.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "pario/pario.h"
#include "raw_rma.h"

#if PARIO_BENCH_HAVE_GA
#include <ga.h>
#include <macdecls.h>
#endif

namespace {

int rank = 0, nranks = 1, partner = 0;
const int64_t kPatch = 256 * 1024;  // doubles per rank: 2 MB, room for the 1.6 MB accumulate

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void check(int rc, const char* what) {
  if (rc == PARIO_OK) return;
  char msg[512];
  pario_last_error_message(msg, sizeof msg);
  std::fprintf(stderr, "ga_bench: %s: %s\n", what, msg);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

// One implementation of the operations measured.
struct Impl {
  std::string name;
  std::function<void(int64_t off, int64_t n, double* buf)> get, put, acc;
  std::function<long()> next;
  // Collectives, each checked and agreed on by pario (one small allreduce
  // before it acts): a fence of the array, and a sum of one double.
  std::function<void()> fence;
  std::function<void(double*)> sum;
};

// Times `ops` calls of op on every rank; returns the slowest rank's seconds.
double timed(int ops, const std::function<void()>& op) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = now();
  for (int i = 0; i < ops; ++i) op();
  double dt = now() - t0, slowest = 0;
  MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

void emit(const char* c, const std::string& impl, const char* unit, double v) {
  if (rank == 0) {
    std::printf("{\"case\": \"%s\", \"impl\": \"%s\", \"unit\": \"%s\", \"value\": %.4f}\n", c,
                impl.c_str(), unit, v);
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  int reps = 5;
  double block_seconds = 0.05;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--rep")) reps = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--block-seconds")) block_seconds = std::atof(argv[i + 1]);
  }
  check(pario_init(), "pario_init");
  pario_group_t world;
  check(pario_group_world(&world), "pario_group_world");
  int node, nodes, node_rank, node_size;
  check(pario_group_node_info(world, &node, &nodes, &node_rank, &node_size), "node_info");
  // Partner: the same place on the next node, or the next rank of this node.
  partner = nodes > 1 ? (rank + node_size) % nranks : (rank + 1) % nranks;

  std::vector<Impl> impls;
  // pario
  pario_array_t pa;
  const int64_t dims[1] = {kPatch * nranks};
  check(pario_array_create_columns(world, "bench", PARIO_TYPE_DOUBLE, 1, dims, nullptr, &pa), "create");
  pario_counter_t pc;
  check(pario_counter_create(world, &pc), "counter");
  impls.push_back({"pario",
                   [&](int64_t off, int64_t n, double* b) {
                     int64_t s[1] = {partner * kPatch + off}, c[1] = {n};
                     check(pario_array_get(pa, s, c, b, nullptr), "get");
                   },
                   [&](int64_t off, int64_t n, double* b) {
                     int64_t s[1] = {partner * kPatch + off}, c[1] = {n};
                     check(pario_array_put(pa, s, c, b, nullptr), "put");
                   },
                   [&](int64_t off, int64_t n, double* b) {
                     int64_t s[1] = {partner * kPatch + off}, c[1] = {n};
                     const double one = 1;
                     check(pario_array_acc(pa, s, c, b, nullptr, &one), "acc");
                   },
                   [&]() {
                     int64_t v;
                     check(pario_counter_next(pc, &v), "next");
                     return static_cast<long>(v);
                   },
                   [&]() { check(pario_array_sync(pa), "sync"); },
                   [&](double* x) { check(pario_group_sum(world, PARIO_TYPE_DOUBLE, x, 1), "sum"); }});
  // Raw MPI RMA: MPI_Win_allocate, one lock_all epoch, flush per operation.
  double* raw_base = nullptr;
  MPI_Win raw = bench::raw_window(kPatch, &raw_base);
  int64_t* counter_base = nullptr;
  MPI_Win raw_counter = bench::raw_window(1, &counter_base);
  *counter_base = 0;
  impls.push_back({"mpi_rma",
                   [&](int64_t off, int64_t n, double* b) {
                     MPI_Get(b, static_cast<int>(n), MPI_DOUBLE, partner, off, static_cast<int>(n), MPI_DOUBLE, raw);
                     MPI_Win_flush(partner, raw);
                   },
                   [&](int64_t off, int64_t n, double* b) {
                     MPI_Put(b, static_cast<int>(n), MPI_DOUBLE, partner, off, static_cast<int>(n), MPI_DOUBLE, raw);
                     MPI_Win_flush(partner, raw);
                   },
                   [&](int64_t off, int64_t n, double* b) {
                     MPI_Accumulate(b, static_cast<int>(n), MPI_DOUBLE, partner, off, static_cast<int>(n),
                                    MPI_DOUBLE, MPI_SUM, raw);
                     MPI_Win_flush(partner, raw);
                   },
                   [&]() {
                     int64_t one = 1, old;
                     MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, 0, MPI_SUM, raw_counter);
                     MPI_Win_flush(0, raw_counter);
                     return static_cast<long>(old);
                   },
                   [&]() {  // what a fence of a passive-target epoch needs
                     MPI_Win_flush_all(raw);
                     MPI_Win_sync(raw);
                     MPI_Barrier(MPI_COMM_WORLD);
                     MPI_Win_sync(raw);
                   },
                   [&](double* x) { MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); }});
#if PARIO_BENCH_HAVE_GA
  GA_Initialize();
  MA_init(C_DBL, 1 << 20, 1 << 20);
  int gdims[1] = {static_cast<int>(kPatch * nranks)}, chunk[1] = {static_cast<int>(kPatch)};
  int ga = NGA_Create(C_DBL, 1, gdims, const_cast<char*>("bench"), chunk);
  int one_dim[1] = {1}, gchunk[1] = {1};
  int gcount = NGA_Create(C_LONG, 1, one_dim, const_cast<char*>("counter"), gchunk);
  GA_Zero(ga);
  GA_Zero(gcount);
  auto ga_range = [&](int64_t off, int64_t n, int* lo, int* hi) {
    lo[0] = static_cast<int>(partner * kPatch + off);
    hi[0] = static_cast<int>(lo[0] + n - 1);
  };
  impls.push_back({"ga",
                   [&](int64_t off, int64_t n, double* b) {
                     int lo[1], hi[1], ld[1] = {1};
                     ga_range(off, n, lo, hi);
                     NGA_Get(ga, lo, hi, b, ld);
                   },
                   [&](int64_t off, int64_t n, double* b) {
                     int lo[1], hi[1], ld[1] = {1};
                     ga_range(off, n, lo, hi);
                     NGA_Put(ga, lo, hi, b, ld);
                   },
                   [&](int64_t off, int64_t n, double* b) {
                     int lo[1], hi[1], ld[1] = {1};
                     double one = 1;
                     ga_range(off, n, lo, hi);
                     NGA_Acc(ga, lo, hi, b, ld, &one);
                   },
                   [&]() {
                     int sub[1] = {0};
                     return NGA_Read_inc(gcount, sub, 1);
                   },
                   [&]() { GA_Sync(); },
                   [&](double* x) { GA_Dgop(x, 1, const_cast<char*>("+")); }});
#endif

  std::vector<double> buf(kPatch, 1.0), src(kPatch, 2.0);
  // Calibrate a block's operation count per case on the first impl, so every
  // impl runs the same number of operations.
  auto calibrate = [&](const std::function<void()>& op) {
    int ops = 1;
    while (true) {
      double t = timed(ops, op);
      if (t > block_seconds / 4 || ops > (1 << 24)) return std::max(1, static_cast<int>(ops * block_seconds / std::max(t, 1e-9)));
      ops *= 4;
    }
  };
  struct Case {
    const char* name;
    const char* unit;
    int64_t elems;  // per operation (0: counter)
    int kind;       // 0 get, 1 put, 2 acc, 3 counter, 4 memcpy, 5 mp2 mix, 6 fence, 7 sum
  };
  const Case cases[] = {
      {"get 8 B", "kops/s", 1, 0},          {"get 50 kB", "GB/s", 6400, 0},
      {"put 200 kB", "GB/s", 25600, 1},     {"acc 1.6 MB", "GB/s", 204800, 2},
      {"counter", "kops/s", 0, 3},          {"mp2 mix", "GB/s", 0, 5},
      {"sync", "kops/s", 1, 6},             {"sum 8 B", "kops/s", 1, 7},
  };
  auto op_for = [&](const Impl& im, const Case& c) -> std::function<void()> {
    switch (c.kind) {
      case 0: return [&, n = c.elems]() { im.get(0, n, buf.data()); };
      case 1: return [&, n = c.elems]() { im.put(0, n, src.data()); };
      case 2: return [&, n = c.elems]() { im.acc(0, n, src.data()); };
      case 3: return [&]() { (void)im.next(); };
      case 6: return [&]() { im.fence(); };
      case 7: return [&]() { double x = 1; im.sum(&x); };
      default:
        // DDI's MP2 gradient (Table 2): about 14 gets of 50 kB, 1 accumulate
        // of 1.6 MB and half a put of 200 kB, by count.
        return [&, k = 0]() mutable {
          for (int g = 0; g < 14; ++g) im.get(6400 * (g % 8), 6400, buf.data());
          im.acc(0, 204800, src.data());
          if (k++ % 2 == 0) im.put(0, 25600, src.data());
        };
    }
  };
  const double mix_bytes = (14 * 6400 + 204800 + 0.5 * 25600) * 8.0;
  for (const Case& c : cases) {
    int ops = calibrate(op_for(impls[0], c));
    for (int r = 0; r < reps; ++r) {
      for (const Impl& im : impls) {
        double t = timed(ops, op_for(im, c));
        double per_op = c.kind == 5 ? mix_bytes : c.elems * 8.0;
        double v = c.kind == 3 ? ops * nranks / t / 1e3          // all ranks' increments
                   : c.elems == 1 ? ops / t / 1e3                // per rank
                                  : ops * per_op / t / 1e9;      // per rank
        emit(c.name, im.name, c.unit, v);
      }
    }
  }
  // Node-local copies: pario's get from a node neighbour vs memcpy.
  if (nodes == 1 && nranks > 1) {
    int ops = calibrate([&]() { impls[0].get(0, 6400, buf.data()); });
    for (int r = 0; r < reps; ++r) {
      double t = timed(ops, [&]() { impls[0].get(0, 6400, buf.data()); });
      emit("node-local get 50 kB", "pario", "GB/s", ops * 6400 * 8.0 / t / 1e9);
      t = timed(ops, [&]() { std::memcpy(buf.data(), src.data(), 6400 * 8); });
      emit("node-local get 50 kB", "memcpy", "GB/s", ops * 6400 * 8.0 / t / 1e9);
    }
  }

#if PARIO_BENCH_HAVE_GA
  GA_Destroy(ga);
  GA_Destroy(gcount);
  GA_Terminate();
#endif
  MPI_Win_unlock_all(raw);
  MPI_Win_unlock_all(raw_counter);
  MPI_Win_free(&raw);
  MPI_Win_free(&raw_counter);
  check(pario_counter_destroy(&pc), "counter destroy");
  check(pario_array_destroy(&pa), "destroy");
  check(pario_group_free(&world), "group free");
  check(pario_finalize(), "pario_finalize");
  MPI_Finalize();
  return 0;
}
