/* File modes, restart and reads by a caller's partition (issue 27), at any P:
 *   exodus_restart DIR          the series, restart, reads and bad input below
 *   exodus_restart DIR kill     writes step 1, begins step 2 (its nodal
 *                               values written), and every rank kills itself
 *   exodus_restart DIR resume   the killed file: step 1 readable, step 2
 *                               appended from another partition, all read back
 * A 4x3x2 HEX8 mesh with sparse node ids (1000 + 7k) and element ids
 * (500 + 3e), two blocks (z = 0: block 10, z = 1: block 20). Steps 1-3
 * run twice: with 32-bit integers in the file, and with options.int64 and
 * ids beyond 2^32 (5e9 + 7k, 6e9 + 3e; a CDF-5 file).
 *  1. A series with steps_per_file = 2: steps 1..3 written with elements
 *     dealt cyclically (partition A) -> DIR/s.e (steps 1, 2) and
 *     DIR/s.e-s0002 (step 3), each a whole Exodus file.
 *  2. Restart: s.e-s0002 opened to append with another partition (B: the
 *     last rank holds nothing at P >= 2), step 4 added (its step 2).
 *  3. Every file read by partition A through the *_by_id reads: counts,
 *     times, coordinates, connectivity as global node ids, nodal and
 *     element values of every step against their formulas.
 *     Sets, read by ranges on every rank: node set 7 (the z = 0 nodes, df
 *     id / 10) and side set 8 (side 6 of block 20's cells, 4 df per side,
 *     element id + corner / 10), in both files.
 *  4. Bad input on every rank: an id the file lacks, mesh calls after
 *     open_append, a step that is not the next, attach on a new file.
 *  5. The series appended to as a series (open_append with
 *     steps_per_file = 2 on its first name; partition B): a third file
 *     with no header yet is made again, steps 5, 6 land in s.e-s0003 and
 *     step 7 in s.e-s0004; refused on every rank first: a fourth file of
 *     another mesh or header, a gap, a name the writer does not give,
 *     another steps_per_file, a single-file append to the first file.
 *     The 64-bit series gets step 5 in its third file. Every file is
 *     then read back (and, by tests/exodus/run_series.sh, by libexodusii
 *     and ncdump -h).
 *   exodus_restart DIR kill-series PATH K   a series (2 steps per file)
 *                               at PATH, every rank killed in step K
 *   exodus_restart DIR resume-series PATH K the series resumed on another
 *                               number of ranks and partition: steps
 *                               1..K-1 as counted, then K and K+1
 * Values: T(node id, step) = id / 2 + step; q(element id, step) = id +
 * step / 4; g(step) = 10 step; the time of step s is 0.5 s. */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

enum { NX = 4, NY = 3, NZ = 2, NN = (NX + 1) * (NY + 1) * (NZ + 1), NE = NX * NY * NZ, PER_BLOCK = NX * NY };

static int rank, size;
static pario_group_t world;

static int64_t node_base = 1000, elem_base = 500; /* int64: 5e9, 6e9 */
static int use_int64 = 0;
static double coord_scale = 1.0;         /* 2: another mesh of the same shape */
static const char *mesh_title = "restart"; /* another: another header */
static int64_t node_id(int64_t k) { return node_base + 7 * k; }
static int64_t elem_id(int64_t e) { return elem_base + 3 * e; }
static int64_t node_index(int64_t id) { return (id - node_base) / 7; }
static int64_t elem_index(int64_t id) { return (id - elem_base) / 3; }
static int64_t node_at(int i, int j, int k) { return ((int64_t)k * (NY + 1) + j) * (NX + 1) + i; }

/* Global node ids of cell e's 8 corners (the HEX8 order). */
static void corners(int64_t e, int64_t out[8]) {
  static const int d[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  const int i = (int)(e % NX), j = (int)(e / NX % NY), k = (int)(e / (NX * NY));
  for (int c = 0; c < 8; ++c) out[c] = node_id(node_at(i + d[c][0], j + d[c][1], k + d[c][2]));
}

/* A partition: this rank's elements of each block (ids) and the nodes
 * they use (ids, increasing position). owner(e) gives the rank of cell e. */
typedef struct {
  int64_t elems[2][PER_BLOCK], nelem[2];
  int64_t nodes[NN], nnode;
} part_t;

static void partition(int (*owner)(int64_t), part_t *p) {
  memset(p, 0, sizeof *p);
  char used[NN] = {0};
  for (int64_t e = 0; e < NE; ++e) {
    if (owner(e) != rank) continue;
    const int b = (int)(e / PER_BLOCK);
    p->elems[b][p->nelem[b]++] = elem_id(e);
    int64_t c[8];
    corners(e, c);
    for (int k = 0; k < 8; ++k) used[node_index(c[k])] = 1;
  }
  for (int64_t k = 0; k < NN; ++k) {
    if (used[k]) p->nodes[p->nnode++] = node_id(k);
  }
}

static int cyclic(int64_t e) { return (int)(e % size); }
static int skewed(int64_t e) { return size == 1 ? 0 : (int)(e / 3 % (size - 1)); } /* the last rank: nothing */

/* The run's step `run` as the file's step `step`, for a partition. */
static void put_step(pario_exodus_t ex, const part_t *p, int step, int run) {
  double t[NN], q[PER_BLOCK], g = 10.0 * run;
  CHECK(pario_exodus_put_time(ex, step, 0.5 * run) == PARIO_OK);
  CHECK(pario_exodus_put_global_values(ex, step, 1, PARIO_TYPE_DOUBLE, &g) == PARIO_OK);
  for (int64_t k = 0; k < p->nnode; ++k) t[k] = (double)p->nodes[k] / 2 + run;
  CHECK(pario_exodus_put_nodal_values(ex, step, 1, PARIO_TYPE_DOUBLE, t) == PARIO_OK);
  for (int b = 0; b < 2; ++b) {
    for (int64_t k = 0; k < p->nelem[b]; ++k) q[k] = (double)p->elems[b][k] + run / 4.0;
    CHECK(pario_exodus_put_element_values(ex, step, 1, b ? 20 : 10, PARIO_TYPE_DOUBLE, q) == PARIO_OK);
  }
}

/* A new file with the mesh of partition p, ready for steps. */
static pario_exodus_t create_mesh(const char *path, const part_t *p, int steps_per_file) {
  pario_exodus_options o;
  pario_exodus_options_init(&o);
  o.steps_per_file = steps_per_file;
  o.int64 = use_int64;
  pario_exodus_t ex = PARIO_EXODUS_NULL;
  const char *tn[1] = {"T"}, *qn[1] = {"q"}, *gn[1] = {"g"};
  CHECK(pario_exodus_create(world, path, &o, &ex) == PARIO_OK);
  CHECK(pario_exodus_init(ex, mesh_title, 3, NN, NE, 2, 1, 1) == PARIO_OK);
  CHECK(pario_exodus_define_block(ex, 10, "lower", "HEX8", PER_BLOCK, 8, 0) == PARIO_OK);
  CHECK(pario_exodus_define_block(ex, 20, "upper", "HEX8", PER_BLOCK, 8, 0) == PARIO_OK);
  CHECK(pario_exodus_define_node_set(ex, 7, "bottom", (NX + 1) * (NY + 1), 1) == PARIO_OK);
  CHECK(pario_exodus_define_side_set(ex, 8, "top", PER_BLOCK, 4) == PARIO_OK);
  CHECK(pario_exodus_define_variables(ex, PARIO_EXODUS_GLOBAL, 1, gn) == PARIO_OK);
  CHECK(pario_exodus_define_variables(ex, PARIO_EXODUS_NODAL, 1, tn) == PARIO_OK);
  CHECK(pario_exodus_define_variables(ex, PARIO_EXODUS_ELEMENT, 1, qn) == PARIO_OK);
  double x[NN], y[NN], z[NN];
  for (int64_t k = 0; k < p->nnode; ++k) {
    const int64_t n = node_index(p->nodes[k]);
    x[k] = coord_scale * (double)(n % (NX + 1));
    y[k] = (double)(n / (NX + 1) % (NY + 1));
    z[k] = (double)(n / ((NX + 1) * (NY + 1)));
  }
  CHECK(pario_exodus_put_nodes(ex, p->nnode, p->nodes, PARIO_TYPE_DOUBLE, x, y, z) == PARIO_OK);
  for (int b = 0; b < 2; ++b) {
    int64_t conn[PER_BLOCK * 8];
    for (int64_t k = 0; k < p->nelem[b]; ++k) corners(elem_index(p->elems[b][k]), conn + 8 * k);
    CHECK(pario_exodus_put_block(ex, b ? 20 : 10, p->nelem[b], p->elems[b], conn) == PARIO_OK);
  }
  /* Node set: this rank's z = 0 nodes (shared ones by several ranks). */
  int64_t ns[NN], nns = 0;
  double ndf[NN];
  for (int64_t k = 0; k < p->nnode; ++k) {
    if (node_index(p->nodes[k]) < (NX + 1) * (NY + 1)) {
      ndf[nns] = (double)p->nodes[k] / 10;
      ns[nns++] = p->nodes[k];
    }
  }
  CHECK(pario_exodus_put_node_set(ex, 7, nns, ns, PARIO_TYPE_DOUBLE, ndf) == PARIO_OK);
  int sides[PER_BLOCK];
  double sdf[4 * PER_BLOCK];
  for (int64_t k = 0; k < p->nelem[1]; ++k) {
    sides[k] = 6;
    for (int c = 0; c < 4; ++c) sdf[4 * k + c] = (double)p->elems[1][k] + c / 10.0;
  }
  CHECK(pario_exodus_put_side_set(ex, 8, p->nelem[1], p->elems[1], sides, PARIO_TYPE_DOUBLE, sdf) == PARIO_OK);
  return ex;
}

static void write_series(const char *path, const part_t *p) {
  pario_exodus_t ex = create_mesh(path, p, 2);
  for (int step = 1; step <= 3; ++step) put_step(ex, p, step, step);
  CHECK(pario_exodus_close(&ex) == PARIO_OK);
}

static void check_file(const char *path, const part_t *p, int steps, int first);

/* Names partition p's nodes and elements in a file opened to append. */
static void attach(pario_exodus_t ex, const part_t *p) {
  CHECK(pario_exodus_attach_nodes(ex, p->nnode, p->nodes) == PARIO_OK);
  for (int b = 0; b < 2; ++b) CHECK(pario_exodus_attach_block(ex, b ? 20 : 10, p->nelem[b], p->elems[b]) == PARIO_OK);
}

/* Appends the run's step `run` as the file's step `step` from partition p. */
static void append_step(const char *path, const part_t *p, int step, int run) {
  pario_exodus_t ex = PARIO_EXODUS_NULL;
  CHECK(pario_exodus_open_append(world, path, NULL, &ex) == PARIO_OK);
  attach(ex, p);
  put_step(ex, p, step, run);
  CHECK(pario_exodus_close(&ex) == PARIO_OK);
}

/* The series whose first file is path (2 steps per file) opened to append
 * by partition p: it must continue in file `index` after the run's step
 * `last`; then the run's steps last + 1 .. until. */
static void append_series(const char *path, const part_t *p, int index, int last, int until) {
  pario_exodus_options o;
  pario_exodus_options_init(&o);
  o.steps_per_file = 2;
  pario_exodus_t ex = PARIO_EXODUS_NULL;
  CHECK(pario_exodus_open_append(world, path, &o, &ex) == PARIO_OK);
  int file = 0, first = 0, steps = 0;
  CHECK(pario_exodus_get_series(ex, &file, &first, &steps) == PARIO_OK);
  CHECK(file == index && first == 2 * (index - 1) && steps == last);
  attach(ex, p);
  for (int run = last + 1; run <= until; ++run) put_step(ex, p, run, run);
  CHECK(pario_exodus_get_series(ex, &file, &first, &steps) == PARIO_OK);
  CHECK(file == (until + 1) / 2 && first == 2 * (file - 1) && steps == until);
  CHECK(pario_exodus_close(&ex) == PARIO_OK);
}

/* Files 1.. of path's series hold `total` steps, 2 per file: each read back. */
static void check_series(const char *path, const part_t *p, int total) {
  char name[940];
  for (int k = 1; 2 * (k - 1) < total; ++k) {
    if (k == 1) snprintf(name, sizeof name, "%s", path);
    else snprintf(name, sizeof name, "%s-s%04d", path, k);
    check_file(name, p, total - 2 * (k - 1) < 2 ? 1 : 2, 2 * k - 1);
  }
}

/* Reads a file of the series by partition p: `steps` steps, the first
 * being the run's step `first`. */
static void check_file(const char *path, const part_t *p, int steps, int first) {
  pario_exodus_t ex = PARIO_EXODUS_NULL;
  CHECK(pario_exodus_open(world, path, NULL, &ex) == PARIO_OK);
  int nsteps = 0, nblk = 0;
  int64_t nodes = 0, elems = 0;
  CHECK(pario_exodus_get_info(ex, NULL, 0, NULL, &nodes, &elems, &nblk, NULL, NULL, &nsteps) == PARIO_OK);
  CHECK(nodes == NN && elems == NE && nblk == 2 && nsteps == steps);
  double x[NN], y[NN], z[NN], v[NN];
  CHECK(pario_exodus_read_coords_by_id(ex, p->nnode, p->nodes, PARIO_TYPE_DOUBLE, x, y, z) == PARIO_OK);
  for (int64_t k = 0; k < p->nnode; ++k) {
    const int64_t n = node_index(p->nodes[k]);
    CHECK(x[k] == (double)(n % (NX + 1)) && y[k] == (double)(n / (NX + 1) % (NY + 1)) &&
          z[k] == (double)(n / ((NX + 1) * (NY + 1))));
  }
  for (int b = 0; b < 2; ++b) {
    int64_t conn[PER_BLOCK * 8], want[8];
    CHECK(pario_exodus_read_block_by_id(ex, b ? 20 : 10, p->nelem[b], p->elems[b], conn) == PARIO_OK);
    for (int64_t k = 0; k < p->nelem[b]; ++k) {
      corners(elem_index(p->elems[b][k]), want);
      CHECK(memcmp(conn + 8 * k, want, sizeof want) == 0);
    }
  }
  for (int s = 1; s <= nsteps; ++s) {
    const int run = first + s - 1;
    double time = 0;
    CHECK(pario_exodus_get_time(ex, s, &time) == PARIO_OK && time == 0.5 * run);
    CHECK(pario_exodus_read_nodal_values_by_id(ex, s, 1, p->nnode, p->nodes, PARIO_TYPE_DOUBLE, v) == PARIO_OK);
    for (int64_t k = 0; k < p->nnode; ++k) CHECK(v[k] == (double)p->nodes[k] / 2 + run);
    for (int b = 0; b < 2; ++b) {
      CHECK(pario_exodus_read_element_values_by_id(ex, s, 1, b ? 20 : 10, p->nelem[b], p->elems[b],
                                                   PARIO_TYPE_DOUBLE, v) == PARIO_OK);
      for (int64_t k = 0; k < p->nelem[b]; ++k) CHECK(v[k] == (double)p->elems[b][k] + run / 4.0);
    }
  }
  /* Sets by ranges: rank r reads [count r / P, count (r + 1) / P). */
  int64_t id = 0, count = 0, df_count = 0, got[4 * PER_BLOCK], side[PER_BLOCK];
  char name[40];
  CHECK(pario_exodus_get_set(ex, PARIO_EXODUS_NODE_SET, 0, &id, name, sizeof name, &count, &df_count) == PARIO_OK);
  CHECK(id == 7 && !strcmp(name, "bottom") && count == (NX + 1) * (NY + 1) && df_count == count);
  int64_t s0 = count * rank / size, sn = count * (rank + 1) / size - s0;
  CHECK(pario_exodus_read_node_set(ex, 7, s0, sn, got) == PARIO_OK);
  CHECK(pario_exodus_read_set_df(ex, PARIO_EXODUS_NODE_SET, 7, s0, sn, PARIO_TYPE_DOUBLE, v) == PARIO_OK);
  for (int64_t k = 0; k < sn; ++k) CHECK(got[k] == node_id(s0 + k) && v[k] == (double)node_id(s0 + k) / 10);
  CHECK(pario_exodus_get_set(ex, PARIO_EXODUS_SIDE_SET, 0, &id, name, sizeof name, &count, &df_count) == PARIO_OK);
  CHECK(id == 8 && !strcmp(name, "top") && count == PER_BLOCK && df_count == 4 * PER_BLOCK);
  s0 = count * rank / size;
  sn = count * (rank + 1) / size - s0;
  CHECK(pario_exodus_read_side_set(ex, 8, s0, sn, got, side) == PARIO_OK);
  for (int64_t k = 0; k < sn; ++k) CHECK(got[k] == elem_id(PER_BLOCK + s0 + k) && side[k] == 6);
  double sdf[4 * PER_BLOCK];
  CHECK(pario_exodus_read_set_df(ex, PARIO_EXODUS_SIDE_SET, 8, 4 * s0, 4 * sn, PARIO_TYPE_DOUBLE, sdf) == PARIO_OK);
  for (int64_t k = 0; k < 4 * sn; ++k) CHECK(sdf[k] == (double)elem_id(PER_BLOCK + s0 + k / 4) + (k % 4) / 10.0);
  CHECK(pario_exodus_get_set(ex, PARIO_EXODUS_SIDE_SET, 1, &id, NULL, 0, NULL, NULL) == PARIO_ERR_OUT_OF_RANGE);
  CHECK(pario_exodus_read_side_set(ex, 8, count, 1, got, side) == PARIO_ERR_OUT_OF_RANGE);

  /* An id the file lacks, on one rank: refused everywhere, the rank naming it. */
  int64_t bad = rank == size - 1 ? 999 : p->nodes[0];
  int rc = pario_exodus_read_nodal_values_by_id(ex, 1, 1, 1, &bad, PARIO_TYPE_DOUBLE, v);
  CHECK(rc == (rank == size - 1 ? PARIO_ERR_INVALID_ARGUMENT : PARIO_ERR_REMOTE));
  if (rank == size - 1) {
    char m[512];
    pario_last_error_message(m, sizeof m);
    CHECK(strstr(m, "pario_exodus_read_nodal_values_by_id") && strstr(m, "999"));
  }
  CHECK(pario_exodus_close(&ex) == PARIO_OK);
}

/* A failure rank 0 finds alone (in the series' files): its code there,
 * PARIO_ERR_REMOTE on the others, rank 0's message naming `text`. */
static void check_root_fails(int rc, int code, const char *text) {
  CHECK(rc == (rank == 0 ? code : PARIO_ERR_REMOTE));
  if (rank == 0) {
    char m[512];
    pario_last_error_message(m, sizeof m);
    if (!strstr(m, text)) {
      fprintf(stderr, "%s:%d: message '%s' lacks '%s'\n", __FILE__, __LINE__, m, text);
      ++check_failures;
    }
  }
}

/* Rank 0 changes the directory (makes an empty file, renames one,
 * removes one; NULL: not that), then every rank goes on. */
static void on_root(const char *empty, const char *from, const char *to, const char *gone) {
  if (rank == 0) {
    if (empty) {
      FILE *f = fopen(empty, "wb");
      CHECK(f != NULL);
      if (f) fclose(f);
    }
    if (from) CHECK(rename(from, to) == 0);
    if (gone) CHECK(remove(gone) == 0);
  }
  CHECK(pario_group_barrier(world) == PARIO_OK);
}

/* The series appended to as a series (steps_per_file = 2) and what is
 * refused; path holds steps 1, 2 and path-s0002 steps 3, 4 when it begins,
 * and steps 5, 6 in path-s0003 and 7 in path-s0004 are added. */
static void series_append(const char *path, const part_t *a, const part_t *b) {
  char name[6][940], odd[960], other[960];
  for (int k = 2; k < 6; ++k) snprintf(name[k], sizeof name[k], "%s-s%04d", path, k);
  snprintf(other, sizeof other, "%s.other", path);
  pario_exodus_options o;
  pario_exodus_options_init(&o);
  o.steps_per_file = 2;
  pario_exodus_t ex = PARIO_EXODUS_NULL;
  int file = 0, first = 0, steps = 0;

  /* A third file with no header yet (as a writer killed while making it
   * leaves it) and a file that is no member: the run continues in the
   * second file after step 4, and step 5 makes the third file again. */
  snprintf(odd, sizeof odd, "%s-s0002.bak", path);
  on_root(name[3], NULL, NULL, NULL);
  on_root(odd, NULL, NULL, NULL);
  append_series(path, b, 2, 4, 6);
  on_root(NULL, NULL, NULL, odd);
  /* Reading the series opens its last file. */
  CHECK(pario_exodus_open(world, path, &o, &ex) == PARIO_OK);
  CHECK(pario_exodus_get_series(ex, &file, &first, &steps) == PARIO_OK && file == 3 && first == 4 && steps == 6);
  CHECK(pario_exodus_close(&ex) == PARIO_OK);

  /* A fourth file of another mesh (x doubled), then of another header. */
  coord_scale = 2.0;
  pario_exodus_t w = create_mesh(other, a, 0);
  put_step(w, a, 1, 7);
  CHECK(pario_exodus_close(&w) == PARIO_OK);
  coord_scale = 1.0;
  on_root(NULL, other, name[4], NULL);
  check_root_fails(pario_exodus_open_append(world, path, &o, &ex), PARIO_ERR_CORRUPT, "coordx differs");
  on_root(NULL, NULL, NULL, name[4]);
  mesh_title = "another title";
  w = create_mesh(other, a, 0);
  CHECK(pario_exodus_close(&w) == PARIO_OK);
  mesh_title = "restart";
  on_root(NULL, other, name[4], NULL);
  check_root_fails(pario_exodus_open_append(world, path, &o, &ex), PARIO_ERR_CORRUPT, "header differs");
  on_root(NULL, NULL, NULL, name[4]);
  /* A gap (a fifth file, no fourth); a name the writer does not give. */
  on_root(name[5], NULL, NULL, NULL);
  check_root_fails(pario_exodus_open_append(world, path, &o, &ex), PARIO_ERR_CORRUPT, "-s0004 is missing");
  on_root(NULL, NULL, NULL, name[5]);
  snprintf(odd, sizeof odd, "%s-s4", path);
  on_root(odd, NULL, NULL, NULL);
  check_root_fails(pario_exodus_open_append(world, path, &o, &ex), PARIO_ERR_CORRUPT, "-s4");
  check_root_fails(pario_exodus_open(world, path, &o, &ex), PARIO_ERR_CORRUPT, "-s4");
  on_root(NULL, NULL, NULL, odd);
  /* Another steps_per_file; the series' first file appended to alone. */
  o.steps_per_file = 3;
  check_root_fails(pario_exodus_open_append(world, path, &o, &ex), PARIO_ERR_INVALID_ARGUMENT,
                   "holds 2 steps, not steps_per_file = 3");
  check_root_fails(pario_exodus_open_append(world, path, NULL, &ex), PARIO_ERR_INVALID_ARGUMENT,
                   "first file of a series");
  /* Nothing was changed by the refusals: step 7 makes the fourth file. */
  append_series(path, b, 3, 6, 7);
  /* A new series over it, refused (its first name now a symbolic link):
   * the later files stay (they were once removed before the refusal). */
  {
    char real[960], cmd[3000];
    snprintf(real, sizeof real, "%s.real", path);
    snprintf(cmd, sizeof cmd, "mv '%s' '%s' && ln -s '%s' '%s'", path, real, real, path);
    if (rank == 0) CHECK(system(cmd) == 0);
    CHECK(pario_group_barrier(world) == PARIO_OK);
    o.steps_per_file = 2;
    pario_exodus_t refused = PARIO_EXODUS_NULL;
    CHECK(pario_exodus_create(world, path, &o, &refused) != PARIO_OK && refused == PARIO_EXODUS_NULL);
    if (rank == 0) CHECK(access(name[2], F_OK) == 0 && access(name[4], F_OK) == 0);
    snprintf(cmd, sizeof cmd, "rm '%s' && mv '%s' '%s'", path, real, path);
    if (rank == 0) CHECK(system(cmd) == 0);
    CHECK(pario_group_barrier(world) == PARIO_OK);
  }
}

static void bad_input(const char *path, const char *fresh, const part_t *p) {
  pario_exodus_t ex = PARIO_EXODUS_NULL;
  CHECK(pario_exodus_open_append(world, path, NULL, &ex) == PARIO_OK);
  const int64_t stray = 3;
  const int64_t *ids = rank == 0 ? &stray : p->nodes;
  const int rc = pario_exodus_attach_nodes(ex, rank == 0 ? 1 : p->nnode, ids);
  CHECK(rc == (rank == 0 ? PARIO_ERR_INVALID_ARGUMENT : PARIO_ERR_REMOTE));
  double x = 0;
  CHECK_FAILS(pario_exodus_put_nodes(ex, 0, NULL, PARIO_TYPE_DOUBLE, &x, &x, &x), PARIO_ERR_STATE, "append");
  CHECK_FAILS(pario_exodus_put_time(ex, 2, 9.0), PARIO_ERR_INVALID_ARGUMENT, "not the next step");
  CHECK(pario_exodus_close(&ex) == PARIO_OK);
  pario_exodus_options o;
  pario_exodus_options_init(&o);
  o.steps_per_file = 1; /* path as a series' first file: it holds 2 steps */
  check_root_fails(pario_exodus_open_append(world, path, &o, &ex), PARIO_ERR_INVALID_ARGUMENT,
                   "more than steps_per_file = 1");
  o.steps_per_file = -1;
  CHECK_FAILS(pario_exodus_create(world, fresh, &o, &ex), PARIO_ERR_INVALID_ARGUMENT, "steps_per_file");
  CHECK(pario_exodus_create(world, fresh, NULL, &ex) == PARIO_OK);
  CHECK_FAILS(pario_exodus_attach_nodes(ex, 0, NULL), PARIO_ERR_STATE, "append");
  CHECK(pario_exodus_close(&ex) == PARIO_ERR_STATE); /* no definition: closed all the same */
  CHECK_FAILS(pario_exodus_open_append(world, "/nonexistent/x.e", NULL, &ex), PARIO_ERR_NOT_FOUND, "x.e");
}

/* The killed writer: steps before `step` whole, step's time given and its
 * nodal values written (past numrecs), then SIGKILL on every rank. */
static void die_in_step(const char *path, const part_t *p, int steps_per_file, int step) {
  pario_exodus_t ex = create_mesh(path, p, steps_per_file);
  for (int s = 1; s < step; ++s) put_step(ex, p, s, s);
  double t[NN];
  CHECK(pario_exodus_put_time(ex, step, 0.5 * step) == PARIO_OK); /* ends the step before: synced, counted */
  for (int64_t k = 0; k < p->nnode; ++k) t[k] = -1.0;  /* garbage a restart must overwrite */
  CHECK(pario_exodus_put_nodal_values(ex, step, 1, PARIO_TYPE_DOUBLE, t) == PARIO_OK);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  fflush(stdout);
  raise(SIGKILL);
}

int main(int argc, char **argv) {
  if (argc != 2 && argc != 3 && argc != 5) {
    fprintf(stderr, "usage: %s DIR [kill|resume] | DIR kill-series|resume-series PATH STEP\n", argv[0]);
    return 2;
  }
  CHECK(pario_init() == PARIO_OK);
  pario_world_rank(&rank);
  pario_world_size(&size);
  CHECK(pario_group_world(&world) == PARIO_OK);
  char path[900], second[920], third[920], fresh[920];
  snprintf(path, sizeof path, "%s/s_np%d.e", argv[1], size);
  snprintf(second, sizeof second, "%s-s0002", path);
  snprintf(third, sizeof third, "%s-s0003", path);
  snprintf(fresh, sizeof fresh, "%s/fresh_np%d.e", argv[1], size);
  part_t a, b;
  partition(cyclic, &a);
  partition(skewed, &b);
  if (argc == 5) {
    /* The series (2 steps per file) killed in step K: steps 1..K-1 counted
     * (PARIO_EXODUS_SYNC=step), resumed here on another number of ranks
     * with steps K, K+1 from another partition. */
    const int kill = atoi(argv[4]);
    if (!strcmp(argv[2], "kill-series")) die_in_step(argv[3], &a, 2, kill);
    append_series(argv[3], &b, (kill - 2) / 2 + 1, kill - 1, kill + 1);
    check_series(argv[3], &a, kill + 1);
    CHECK(pario_group_free(&world) == PARIO_OK);
    CHECK(pario_finalize() == PARIO_OK);
    return check_summary("exodus_restart resume-series");
  }
  if (argc == 3) {
    char killed[920];
    snprintf(killed, sizeof killed, "%s/killed_np%d.e", argv[1], size);
    if (!strcmp(argv[2], "kill")) die_in_step(killed, &a, 0, 2);
    check_file(killed, &a, 1, 1); /* step 1 only: numrecs */
    append_step(killed, &b, 2, 2);
    check_file(killed, &a, 2, 1);
    CHECK(pario_group_free(&world) == PARIO_OK);
    CHECK(pario_finalize() == PARIO_OK);
    return check_summary("exodus_restart resume");
  }

  write_series(path, &a);
  FILE *f = fopen(third, "rb"); /* step 3 opened the second file only */
  CHECK(f == NULL);
  if (f) fclose(f);
  append_step(second, &b, 2, 4); /* the file holds one step: its step 2 is the run's step 4 */
  check_file(path, &a, 2, 1);
  check_file(second, &a, 2, 3);
  bad_input(second, fresh, &b);
  check_file(second, &a, 2, 3); /* nothing lost */
  series_append(path, &a, &b);
  check_series(path, &a, 7);

  /* 64-bit integers: ids beyond 2^32, the same series, restart and reads. */
  use_int64 = 1;
  node_base = 5000000000;
  elem_base = 6000000000;
  snprintf(path, sizeof path, "%s/i64_np%d.e", argv[1], size);
  snprintf(second, sizeof second, "%s-s0002", path);
  partition(cyclic, &a);
  partition(skewed, &b);
  write_series(path, &a);
  append_step(second, &b, 2, 4);
  check_file(path, &a, 2, 1);
  check_file(second, &a, 2, 3);
  append_series(path, &b, 2, 4, 5);
  check_series(path, &a, 5);

  CHECK(pario_group_free(&world) == PARIO_OK);
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("exodus_restart");
}
