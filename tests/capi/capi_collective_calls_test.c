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
 * and 2x2-style blocks, several rounds per aggregator, with collective
 * buffering on and off (the direct transfers' mode is chosen once, when
 * the decomposition is made: no collective of their own). And the Exodus
 * writer's calls per time step (exodus_steps below). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
static void transfers(int pattern, int buffering) {
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
  hints.buffering = buffering;
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
   * prepared for the aggregators agree once more. With collective
   * buffering off every rank converts its own anyway: no more agreement. */
  if (size > 1) {
    start_count();
    CHECK(pario_decomp_write(d, f, 0, rank == 0 ? PARIO_TYPE_INT32 : PARIO_TYPE_DOUBLE, rank == 0 ? (void *)ints
                                                                                                     : (void *)buf) ==
          PARIO_OK);
    expect_count("pario_decomp_write, mixed memory types", buffering == PARIO_BUFFERING_NEVER ? 2 : 3);
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

/* The Exodus writer's steps (issue 27's workload per step: put_time, one
 * global, two nodal and one element variable on two blocks): put_time,
 * put_global_values and a failing call make one allreduce each (the entry
 * agreement, which also carries the writer's checks and the end of the
 * open step: the sync of the step before, rank 0's writes of the global
 * values and the time), a nodal or element variable two (the entry
 * agreement with the transfer's preparation, and the transfer's end), a
 * flush two (the entry and numrecs): 10 a step, 23 before. No other
 * collective. Each rank one HEX8 in each block on 8 nodes of its own;
 * no_step_sync 0 and 1 (PARIO_EXODUS_SYNC's policy: step by default,
 * overlap in capi_collective_calls_overlap_test; and none). The file is read
 * back: every step's time and values. */
static void exodus_steps(int no_step_sync) {
  char dir[512], path[700];
  job_dir(world, "capi_collective_calls_exodus", dir, sizeof dir);
  snprintf(path, sizeof path, "%s/steps.e", dir);
  pario_exodus_options o;
  pario_exodus_options_init(&o);
  o.no_step_sync = no_step_sync;
  const char *g[1] = {"energy"}, *nv[2] = {"temperature", "displacement_x"}, *ev[1] = {"stress"};
  pario_exodus_t x = PARIO_EXODUS_NULL;
  CHECK(pario_exodus_create(world, path, &o, &x) == PARIO_OK);
  CHECK(pario_exodus_init(x, "calls", 3, 8 * (int64_t)size, 2 * (int64_t)size, 2, 0, 0) == PARIO_OK);
  CHECK(pario_exodus_define_block(x, 10, "lower", "HEX8", size, 8, 0) == PARIO_OK);
  CHECK(pario_exodus_define_block(x, 20, "upper", "HEX8", size, 8, 0) == PARIO_OK);
  CHECK(pario_exodus_define_variables(x, PARIO_EXODUS_GLOBAL, 1, g) == PARIO_OK);
  CHECK(pario_exodus_define_variables(x, PARIO_EXODUS_NODAL, 2, nv) == PARIO_OK);
  CHECK(pario_exodus_define_variables(x, PARIO_EXODUS_ELEMENT, 1, ev) == PARIO_OK);
  int64_t nodes[8];
  double xyz[3][8];
  for (int k = 0; k < 8; ++k) {
    nodes[k] = rank * 8 + k + 1;
    xyz[0][k] = k & 1;
    xyz[1][k] = (k >> 1) & 1;
    xyz[2][k] = rank + (k >> 2);
  }
  const int64_t lower = 2 * rank + 1, upper = 2 * rank + 2;
  CHECK(pario_exodus_put_nodes(x, 8, nodes, PARIO_TYPE_DOUBLE, xyz[0], xyz[1], xyz[2]) == PARIO_OK);
  CHECK(pario_exodus_put_block(x, 10, 1, &lower, nodes) == PARIO_OK);
  CHECK(pario_exodus_put_block(x, 20, 1, &upper, nodes) == PARIO_OK);
  const int steps = 3;
  for (int s = 1; s <= steps; ++s) {
    const double t = 0.25 * s, energy = t * t;
    double temp[8], disp[8], stress[2] = {1000 + t + rank, 2000 + t + rank};
    for (int k = 0; k < 8; ++k) {
      temp[k] = 300 + s + (double)nodes[k];
      disp[k] = 0.001 * s * (double)nodes[k];
    }
    if (s == 2) {
      /* A bad step number on the last rank: one allreduce, an error
       * everywhere, and step 1 stays open (its values go on below). */
      start_count();
      const int rc = pario_exodus_put_time(x, rank == size - 1 ? 7 : s, t);
      counting = 0;  /* the failing rank's message then travels by broadcast */
      CHECK(allreduces == 1);
      CHECK(rc == (rank == size - 1 ? PARIO_ERR_INVALID_ARGUMENT : PARIO_ERR_REMOTE));
    }
    long step_calls = 0;
    start_count();
    CHECK(pario_exodus_put_time(x, s, t) == PARIO_OK);
    expect_count("pario_exodus_put_time", 1);
    step_calls += allreduces;
    start_count();
    CHECK(pario_exodus_put_global_values(x, s, 1, PARIO_TYPE_DOUBLE, &energy) == PARIO_OK);
    expect_count("pario_exodus_put_global_values", 1);
    step_calls += allreduces;
    start_count();
    CHECK(pario_exodus_put_nodal_values(x, s, 1, PARIO_TYPE_DOUBLE, temp) == PARIO_OK);
    CHECK(pario_exodus_put_nodal_values(x, s, 2, PARIO_TYPE_DOUBLE, disp) == PARIO_OK);
    expect_count("pario_exodus_put_nodal_values x2", 4);
    step_calls += allreduces;
    start_count();
    CHECK(pario_exodus_put_element_values(x, s, 1, 10, PARIO_TYPE_DOUBLE, &stress[0]) == PARIO_OK);
    CHECK(pario_exodus_put_element_values(x, s, 1, 20, PARIO_TYPE_DOUBLE, &stress[1]) == PARIO_OK);
    expect_count("pario_exodus_put_element_values x2", 4);
    step_calls += allreduces;
    CHECK(step_calls == 10);
    if (s == 2) {
      start_count();
      CHECK(pario_exodus_flush(x) == PARIO_OK);
      expect_count("pario_exodus_flush", 2);
    }
  }
  CHECK(pario_exodus_close(&x) == PARIO_OK);

  /* Read back: every step's time and this rank's values (written by the
   * calls above, the global values with the time at each step's end). */
  CHECK(pario_exodus_open(world, path, NULL, &x) == PARIO_OK);
  int num_steps = 0;
  CHECK(pario_exodus_get_info(x, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, &num_steps) == PARIO_OK);
  CHECK(num_steps == steps);
  for (int s = 1; s <= steps && num_steps == steps; ++s) {
    double t = 0, temp[8], stress = 0;
    CHECK(pario_exodus_get_time(x, s, &t) == PARIO_OK);
    CHECK(t == 0.25 * s);
    CHECK(pario_exodus_read_nodal_values(x, s, 1, 8 * (int64_t)rank, 8, PARIO_TYPE_DOUBLE, temp) == PARIO_OK);
    int good = 1;
    for (int k = 0; k < 8; ++k) good &= temp[k] == 300 + s + (double)nodes[k];
    CHECK(good);
    CHECK(pario_exodus_read_element_values(x, s, 1, 20, rank, 1, PARIO_TYPE_DOUBLE, &stress) == PARIO_OK);
    CHECK(stress == 2000 + 0.25 * s + rank);
  }
  CHECK(pario_exodus_close(&x) == PARIO_OK);
  job_dir_remove(world, dir);
}

/* The mesh calls and close (issue 27's third session): each call's
 * allreduces and other collectives, counted as the steps are, on the
 * mesh of exodus_steps with a node set, a side set, attributes, QA, info,
 * coordinate names and the truth table, with and without Nemesis. Every
 * count is checked against `want` (allreduces, others) per call; with
 * PARIO_COUNT_PRINT set, rank 0 prints them instead (how the budgets were
 * found). */
typedef struct {
  const char *call;
  long allreduces, others;                  /* without Nemesis */
  long nemesis_allreduces, nemesis_others;  /* with */
} budget;

static int print_counts = 0;

static void expect_budget(const budget *b, int nemesis) {
  counting = 0;
  if (print_counts) {
    if (rank == 0) printf("  %s%s: %ld, %ld\n", b->call, nemesis ? " (Nemesis)" : "", allreduces, others);
    return;
  }
  const long want = nemesis ? b->nemesis_allreduces : b->allreduces, want_others = nemesis ? b->nemesis_others : b->others;
  if (allreduces != want || others != want_others) {
    fprintf(stderr, "rank %d: %s%s: %ld MPI_Allreduce (want %ld) and %ld other collectives (want %ld)\n", rank,
            b->call, nemesis ? " (Nemesis)" : "", allreduces, want, others, want_others);
  }
  CHECK(allreduces == want && others == want_others);
}

/* Per call, in exodus_mesh's order: (MPI_Allreduce, other collectives)
 * at 1, 2 and 4 ranks, one aggregator per node or per rank, any sync
 * policy. Most of a put's are the collective engine's (the key sort, the
 * decompositions, each array's transfer: 2): the exodus layer's own are
 * the entry agreement and, where it resolves or writes, one more each.
 * "before": issue 27's second session, where each mesh call agreed the
 * writer's checks once more after the entry agreement, end_define agreed
 * its model, create its options, and close (a step open) agreed the
 * step's end, the file's end and the devices' close one by one (6 under
 * overlap, which also agreed its last sync and numrecs). Since issue 25's
 * automatic collective buffering, a decomposition's setup makes one
 * MPI_Allgather where it made one MPI_Allreduce: each put with k
 * decompositions moved k from the first column to the second. */
static const budget mesh_budget[] = {
    /* call                                  plain     Nemesis   (before: plain; Nemesis) */
    {"pario_exodus_create",                      3,  0,  3,  0},  /* 4, 0; 4, 0 */
    {"pario_exodus_init",                        1,  0,  1,  0},
    {"pario_exodus_define_block",                1,  0,  1,  0},
    {"pario_exodus_define_block (2)",            1,  0,  1,  0},
    {"pario_exodus_define_node_set",             1,  0,  1,  0},
    {"pario_exodus_define_side_set",             1,  0,  1,  0},
    {"pario_exodus_put_coord_names",             1,  0,  1,  0},
    {"pario_exodus_put_qa",                      1,  0,  1,  0},
    {"pario_exodus_put_info",                    1,  0,  1,  0},
    {"pario_exodus_define_variables GLOBAL",     1,  0,  1,  0},
    {"pario_exodus_define_variables NODAL",      1,  0,  1,  0},
    {"pario_exodus_define_variables ELEMENT",    1,  0,  1,  0},
    {"pario_exodus_put_truth_table",             1,  0,  1,  0},
    {"pario_exodus_end_define",                  2,  0,  2,  0},  /* 3, 0; 3, 0 */
    {"pario_exodus_put_nodes",                  22, 11, 26, 15},  /* 25, 9; 29, 13 */
    {"pario_exodus_put_block 10",               25, 13, 25, 13},  /* 29, 10; 29, 10 */
    {"pario_exodus_put_block 20 (the last)",    25, 13, 87, 42},  /* 29, 10; 99, 31 */
    {"pario_exodus_put_attributes",              8,  3,  8,  3},  /* 10, 2; 10, 2 */
    {"pario_exodus_put_node_set",               13,  7, 13,  7},  /* 15, 6; 15, 6 */
    {"pario_exodus_put_side_set",               15,  7, 15,  7},  /* 17, 6; 17, 6 */
    {"pario_exodus_close (step 1 open)",         2,  0,  2,  0},  /* 4, 0; 4, 0 */
};

static void exodus_mesh(int nemesis) {
  /* The Nemesis part at one rank has no neighbours to match sides with:
   * its last put_block is 45 allreduces and 24 others there (51, 19
   * before). */
  budget want[sizeof mesh_budget / sizeof mesh_budget[0]];
  memcpy(want, mesh_budget, sizeof want);
  if (size == 1) want[16].nemesis_allreduces = 45, want[16].nemesis_others = 24;
  char dir[512], path[700];
  job_dir(world, "capi_collective_calls_mesh", dir, sizeof dir);
  snprintf(path, sizeof path, "%s/mesh.e", dir);
  pario_exodus_options o;
  pario_exodus_options_init(&o);
  o.nemesis = nemesis;
  const char *g[1] = {"energy"}, *nv[1] = {"temperature"}, *ev[1] = {"stress"}, *coord[3] = {"X", "Y", "Z"};
  const char *qa[4] = {"pario", "1", "2026-11-26", "16:00:00"}, *info[1] = {"calls"};
  const int truth[2] = {1, 1};
  int64_t nodes[8];
  double xyz[3][8];
  for (int k = 0; k < 8; ++k) {
    nodes[k] = rank * 4 + k + 1; /* a column: rank r's top layer is rank r+1's bottom */
    xyz[0][k] = k & 1;
    xyz[1][k] = (k >> 1) & 1;
    xyz[2][k] = rank + (k >> 2);
  }
  const int64_t lower = rank + 1, upper = size + rank + 1;
  int64_t upper_conn[8];
  for (int k = 0; k < 8; ++k) upper_conn[k] = nodes[k];
  const double attr = 0.5 + rank;
  const int64_t ns_nodes[4] = {nodes[0], nodes[1], nodes[2], nodes[3]};
  const int sides[1] = {5};
  pario_exodus_t x = PARIO_EXODUS_NULL;
  const budget *b = want;
#define COUNTED(call)          \
  do {                          \
    start_count();              \
    CHECK((call) == PARIO_OK);  \
    expect_budget(b++, nemesis); \
  } while (0)
  COUNTED(pario_exodus_create(world, path, &o, &x));
  COUNTED(pario_exodus_init(x, "mesh", 3, 4 * (int64_t)size + 4, 2 * (int64_t)size, 2, 1, 1));
  COUNTED(pario_exodus_define_block(x, 10, "lower", "HEX8", size, 8, 0));
  COUNTED(pario_exodus_define_block(x, 20, "upper", "HEX8", size, 8, 1));
  COUNTED(pario_exodus_define_node_set(x, 100, "bottom", 4 * (int64_t)size, 0));
  COUNTED(pario_exodus_define_side_set(x, 200, "bottoms", size, 0));
  COUNTED(pario_exodus_put_coord_names(x, coord));
  COUNTED(pario_exodus_put_qa(x, 1, qa));
  COUNTED(pario_exodus_put_info(x, 1, info));
  COUNTED(pario_exodus_define_variables(x, PARIO_EXODUS_GLOBAL, 1, g));
  COUNTED(pario_exodus_define_variables(x, PARIO_EXODUS_NODAL, 1, nv));
  COUNTED(pario_exodus_define_variables(x, PARIO_EXODUS_ELEMENT, 1, ev));
  COUNTED(pario_exodus_put_truth_table(x, 2, 1, truth));
  COUNTED(pario_exodus_end_define(x));
  COUNTED(pario_exodus_put_nodes(x, 8, nodes, PARIO_TYPE_DOUBLE, xyz[0], xyz[1], xyz[2]));
  COUNTED(pario_exodus_put_block(x, 10, 1, &lower, nodes));
  COUNTED(pario_exodus_put_block(x, 20, 1, &upper, upper_conn)); /* the last: Nemesis here */
  COUNTED(pario_exodus_put_attributes(x, 20, PARIO_TYPE_DOUBLE, &attr));
  COUNTED(pario_exodus_put_node_set(x, 100, 4, ns_nodes, PARIO_TYPE_DOUBLE, NULL));
  COUNTED(pario_exodus_put_side_set(x, 200, 1, &lower, sides, PARIO_TYPE_DOUBLE, NULL));
  const double t = 0.5, energy = 1;
  double temp[8];
  for (int k = 0; k < 8; ++k) temp[k] = 300 + (double)nodes[k];
  CHECK(pario_exodus_put_time(x, 1, t) == PARIO_OK);
  CHECK(pario_exodus_put_global_values(x, 1, 1, PARIO_TYPE_DOUBLE, &energy) == PARIO_OK);
  CHECK(pario_exodus_put_nodal_values(x, 1, 1, PARIO_TYPE_DOUBLE, temp) == PARIO_OK);
  COUNTED(pario_exodus_close(&x)); /* with step 1 open */
#undef COUNTED
  CHECK(pario_exodus_open(world, path, NULL, &x) == PARIO_OK);
  int num_steps = 0;
  int64_t num_nodes = 0;
  CHECK(pario_exodus_get_info(x, NULL, 0, NULL, &num_nodes, NULL, NULL, NULL, NULL, &num_steps) == PARIO_OK);
  CHECK(num_steps == 1 && num_nodes == 4 * (int64_t)size + 4);
  double back = 0;
  CHECK(pario_exodus_read_nodal_values(x, 1, 1, 4 * (int64_t)rank, 1, PARIO_TYPE_DOUBLE, &back) == PARIO_OK);
  CHECK(back == 300 + (double)nodes[0]);
  CHECK(pario_exodus_close(&x) == PARIO_OK);
  job_dir_remove(world, dir);
}

int main(void) {
  if (pario_init() != PARIO_OK) return 1;
  CHECK(pario_group_world(&world) == PARIO_OK);
  CHECK(pario_group_rank(world, &rank) == PARIO_OK && pario_group_size(world, &size) == PARIO_OK);
  for (int buffering = PARIO_BUFFERING_ALWAYS; buffering <= PARIO_BUFFERING_NEVER; ++buffering) {
    transfers(0, buffering);
    transfers(1, buffering);
  }
  exodus_steps(0);
  exodus_steps(1);
  print_counts = getenv("PARIO_COUNT_PRINT") != NULL;
  exodus_mesh(0);
  exodus_mesh(1);
  const int failures = check_failures;
  CHECK(pario_finalize() == PARIO_OK);
  if (rank == 0) printf("capi_collective_calls_test: %d checks, %d failed\n", check_passes, failures);
  return failures != 0;
}
