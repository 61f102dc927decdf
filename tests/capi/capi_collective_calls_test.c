/* How many collective MPI calls one collective transfer makes
 * (docs/scaling.md, "Agreements per transfer"): a blocking
 * pario_decomp_write or pario_decomp_read is one entry agreement (the
 * arguments' digest, every rank's checks and buffers, and the memory
 * types, in one allreduce) and one end agreement of the outcome: exactly
 * two MPI_Allreduce and no other collective; pario_decomp_iwrite or
 * iread and its pario_request_wait the same two. Only ranks passing
 * different memory types where the aggregators convert agree once more.
 *
 * The calls are counted through MPI's profiling interface: this
 * executable defines the collectives pario could call, each counting and
 * forwarding to its PMPI_ twin. Before the merge of the transfer's own
 * start agreement into the entry agreement a blocking write made three
 * allreduces, and this test failed. At 1, 2 and 4 ranks, with one
 * aggregator per node and (PARIO_RANKS_PER_NODE=1) one per rank, slabs
 * and 2x2-style blocks, several rounds per aggregator. */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

/* Exported whatever the build's visibility (MPICH's mpi.h, unlike Open
 * MPI's, does not mark its declarations default: hidden, libpario's calls
 * never reached these and nothing was counted). */
#define INTERPOSED __attribute__((visibility("default")))

static int counting = 0;
static long allreduces = 0, others = 0;

#define COUNTED_OTHER(call) \
  do {                      \
    if (counting) ++others; \
    return call;            \
  } while (0)

INTERPOSED int MPI_Allreduce(const void *in, void *out, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c) {
  if (counting) ++allreduces;
  return PMPI_Allreduce(in, out, n, t, op, c);
}
INTERPOSED int MPI_Barrier(MPI_Comm c) { COUNTED_OTHER(PMPI_Barrier(c)); }
INTERPOSED int MPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm c) { COUNTED_OTHER(PMPI_Bcast(b, n, t, root, c)); }
INTERPOSED int MPI_Reduce(const void *in, void *out, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm c) {
  COUNTED_OTHER(PMPI_Reduce(in, out, n, t, op, root, c));
}
INTERPOSED int MPI_Allgather(const void *in, int sn, MPI_Datatype st, void *out, int rn, MPI_Datatype rt, MPI_Comm c) {
  COUNTED_OTHER(PMPI_Allgather(in, sn, st, out, rn, rt, c));
}
INTERPOSED int MPI_Alltoall(const void *in, int sn, MPI_Datatype st, void *out, int rn, MPI_Datatype rt, MPI_Comm c) {
  COUNTED_OTHER(PMPI_Alltoall(in, sn, st, out, rn, rt, c));
}
INTERPOSED int MPI_Alltoallv(const void *in, const int *sc, const int *sd, MPI_Datatype st, void *out, const int *rc,
                  const int *rd, MPI_Datatype rt, MPI_Comm c) {
  COUNTED_OTHER(PMPI_Alltoallv(in, sc, sd, st, out, rc, rd, rt, c));
}
INTERPOSED int MPI_Gather(const void *in, int sn, MPI_Datatype st, void *out, int rn, MPI_Datatype rt, int root, MPI_Comm c) {
  COUNTED_OTHER(PMPI_Gather(in, sn, st, out, rn, rt, root, c));
}
INTERPOSED int MPI_Iallreduce(const void *in, void *out, int n, MPI_Datatype t, MPI_Op op, MPI_Comm c, MPI_Request *r) {
  COUNTED_OTHER(PMPI_Iallreduce(in, out, n, t, op, c, r));
}
INTERPOSED int MPI_Ibarrier(MPI_Comm c, MPI_Request *r) { COUNTED_OTHER(PMPI_Ibarrier(c, r)); }

static pario_group_t world;
static int rank, size;

static void start_count(void) {
  allreduces = others = 0;
  counting = 1;
}

/* Stops counting; checks every rank counted `want` allreduces and nothing else. */
static void expect_count(const char *what, long want) {
  counting = 0;
  if (allreduces != want || others != 0) {
    fprintf(stderr, "rank %d: %s: %ld MPI_Allreduce (want %ld) and %ld other collectives (want 0)\n", rank, what,
            allreduces, want, others);
  }
  CHECK(allreduces == want && others == 0);
}

/* A blocking write of src (mem_type), then a blocking read of doubles:
 * two allreduces each, and the values back are want[e] - shift. */
static void write_then_read(pario_decomp_t d, pario_shared_file_t f, int mem_type, const void *src, double *back,
                            const double *want, double shift, int64_t mine) {
  start_count();
  CHECK(pario_decomp_write(d, f, 0, mem_type, src) == PARIO_OK);
  expect_count(mem_type == PARIO_TYPE_DOUBLE ? "pario_decomp_write" : "pario_decomp_write, converted", 2);
  start_count();
  CHECK(pario_decomp_read(d, f, 0, PARIO_TYPE_DOUBLE, back) == PARIO_OK);
  expect_count("pario_decomp_read", 2);
  int good = 1;
  for (int64_t e = 0; e < mine; ++e) good &= back[e] == want[e] - shift;
  CHECK(good);
}

/* A dims[0] x dims[1] x 64 array of doubles, in z-slabs (pattern 0) or cut
 * over y into size pieces of whole rows (pattern 1: each rank's piece is
 * dims[0] runs). Buffers of 4 KiB: several rounds per aggregator. */
static void transfers(int pattern) {
  const int64_t dims[3] = {16, 8, 64}, n = 16 * 8 * 64;
  int64_t start[3] = {0, 0, 0}, count[3] = {16, 8, 64};
  const int cut = pattern == 0 ? 0 : 1;
  start[cut] = dims[cut] * rank / size;
  count[cut] = dims[cut] * (rank + 1) / size - start[cut];
  const int64_t mine = count[0] * count[1] * count[2];
  double *buf = malloc((size_t)mine * sizeof(double) + 1);
  double *back = malloc((size_t)mine * sizeof(double) + 1);
  int32_t *ints = malloc((size_t)mine * sizeof(int32_t) + 1);
  int64_t k = 0;
  for (int64_t i = start[0]; i < start[0] + count[0]; ++i)
    for (int64_t j = start[1]; j < start[1] + count[1]; ++j)
      for (int64_t l = 0; l < 64; ++l, ++k) {
        buf[k] = (double)((i * 8 + j) * 64 + l) + 0.5;
        ints[k] = (int32_t)((i * 8 + j) * 64 + l);
      }
  pario_decomp_hints hints;
  pario_decomp_hints_init(&hints);
  hints.buffer_size = 4096;
  pario_decomp_t d = PARIO_DECOMP_NULL;
  CHECK(pario_decomp_create_blocks(world, PARIO_TYPE_DOUBLE, 3, dims, PARIO_ORDER_C, 1, start, count, &hints, &d) ==
        PARIO_OK);
  char dir[512], path[700];
  job_dir(world, "capi_collective_calls", dir, sizeof dir);
  snprintf(path, sizeof path, "%s/calls.dat", dir);
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  CHECK(pario_shared_file_create(world, path, PARIO_SIZE_UNKNOWN, n * 8, PARIO_SIZE_UNKNOWN, &f) == PARIO_OK);

  write_then_read(d, f, PARIO_TYPE_DOUBLE, buf, back, buf, 0.0, mine);

  /* Nonblocking: the start and the wait, two agreements in all. */
  pario_request_t req;
  start_count();
  CHECK(pario_decomp_iwrite(d, f, 0, PARIO_TYPE_DOUBLE, buf, &req) == PARIO_OK);
  CHECK(pario_request_wait(&req) == PARIO_OK);
  expect_count("pario_decomp_iwrite + pario_request_wait", 2);
  start_count();
  CHECK(pario_decomp_iread(d, f, 0, PARIO_TYPE_DOUBLE, back, &req) == PARIO_OK);
  CHECK(pario_request_wait(&req) == PARIO_OK);
  expect_count("pario_decomp_iread + pario_request_wait", 2);

  /* Converted on the way (int32 in memory: the aggregators convert). */
  write_then_read(d, f, PARIO_TYPE_INT32, ints, back, buf, 0.5, mine);

  /* Different memory types on different ranks: the aggregators cannot
   * convert for all, every rank converts its own, and the ranks that had
   * prepared for the aggregators agree once more. */
  if (size > 1) {
    start_count();
    CHECK(pario_decomp_write(d, f, 0, rank == 0 ? PARIO_TYPE_INT32 : PARIO_TYPE_DOUBLE, rank == 0 ? (void *)ints
                                                                                                     : (void *)buf) ==
          PARIO_OK);
    expect_count("pario_decomp_write, mixed memory types", 3);
  }

  /* A failing rank: the others learn it in the entry agreement, and
   * nothing more is exchanged. */
  start_count();
  const int rc = pario_decomp_write(d, f, 0, PARIO_TYPE_DOUBLE, rank == size - 1 && mine > 0 ? NULL : buf);
  CHECK(rc == (rank == size - 1 ? PARIO_ERR_INVALID_ARGUMENT : PARIO_ERR_REMOTE));
  counting = 0;
  CHECK(allreduces == 1);

  CHECK(pario_shared_file_destroy(&f) == PARIO_OK);
  CHECK(pario_decomp_free(&d) == PARIO_OK);
  job_dir_remove(world, dir);
  free(ints);
  free(back);
  free(buf);
}

int main(void) {
  if (pario_init() != PARIO_OK) return 1;
  CHECK(pario_group_world(&world) == PARIO_OK);
  CHECK(pario_group_rank(world, &rank) == PARIO_OK && pario_group_size(world, &size) == PARIO_OK);
  transfers(0);
  transfers(1);
  const int failures = check_failures;
  CHECK(pario_finalize() == PARIO_OK);
  if (rank == 0) printf("capi_collective_calls_test: %d checks, %d failed\n", check_passes, failures);
  return failures != 0;
}
