/* Bad input to the Exodus writer fails on every rank with a message that
 * names it, and the file keeps what was written before: a line of P
 * hexahedra, one per rank, nodes shared between neighbours.
 *   - definitions: a name too long, a type with the wrong node count, a
 *     definition after the definition ended, end before init's counts;
 *   - mesh: node ids not positive, fewer distinct nodes than num_nodes,
 *     a shared node given different coordinates by two ranks, a node id
 *     given twice by one rank,
 *     an element held by two ranks, connectivity naming an unknown node,
 *     a node set naming an unknown node, a side set naming an unknown
 *     element, a side out of range;
 *   - steps: values for a step not begun, a step out of order.
 * After the failures the good mesh and one step go in, and the file is
 * read back through the public API's own checks (a second create of the
 * same path by a group works too).
 * Then values that do not fit a float file (a coordinate, a node set's or
 * a side set's factor beyond float's range on the last rank): refused on
 * every rank before the call writes anything, so neither the other
 * coordinates nor the sets' entries change (read back after closing). */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "line_mesh.h"

static int rank, size;
static pario_group_t world;

/* Fails on every rank: this rank's status is `code` (or REMOTE where
 * another rank's part was bad), with `text` somewhere in the message. */
#define FAILS_ALL(call, code, text)                                             \
  do {                                                                          \
    char m_[512];                                                               \
    const int rc_ = (call);                                                     \
    pario_last_error_message(m_, sizeof m_);                                    \
    CHECK(rc_ == (code) || rc_ == PARIO_ERR_REMOTE);                            \
    if (rc_ == (code) && !strstr(m_, (text))) {                                 \
      fprintf(stderr, "%s:%d: message '%s' lacks '%s'\n", __FILE__, __LINE__, m_, (text)); \
      ++check_failures;                                                         \
    }                                                                           \
    int any_ = rc_ == (code), all_failed_ = rc_ != PARIO_OK;                    \
    MPI_Allreduce(MPI_IN_PLACE, &any_, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);    \
    MPI_Allreduce(MPI_IN_PLACE, &all_failed_, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); \
    CHECK(any_ && all_failed_);                                                 \
  } while (0)

/* A float file (float_size 4) and values beyond float's range on the last
 * rank (see the top). */
static void float_file(const char *dir, const int64_t ids[8], const int64_t conn[8], const double x[8],
                       const double y[8], const double z[8], int64_t nodes, int64_t elem) {
  char path[600];
  pario_exodus_options o;
  pario_exodus_options_init(&o);
  o.float_size = 4;
  double huge_y[8], bx[64], by[64], bz[64];
  memcpy(huge_y, y, sizeof huge_y);
  if (rank == size - 1) huge_y[6] = 1e300;
  CHECK(nodes <= 64);

  /* The coordinates: y beyond float on the last rank, so x is not written either. */
  snprintf(path, sizeof path, "%s/float_nodes.e", dir);
  pario_exodus_t ex = PARIO_EXODUS_NULL;
  CHECK(pario_exodus_create(world, path, &o, &ex) == PARIO_OK);
  CHECK(pario_exodus_init(ex, "float", 3, nodes, size, 1, 0, 0) == PARIO_OK);
  CHECK(pario_exodus_define_block(ex, 1, "line", "HEX8", size, 8, 0) == PARIO_OK);
  FAILS_ALL(pario_exodus_put_nodes(ex, 8, ids, PARIO_TYPE_DOUBLE, x, huge_y, z), PARIO_ERR_OUT_OF_RANGE,
            "y[6] does not fit the file's float");
  CHECK(pario_exodus_close(&ex) == PARIO_OK);
  CHECK(pario_exodus_open(world, path, NULL, &ex) == PARIO_OK);
  CHECK(pario_exodus_read_coords(ex, 0, nodes, PARIO_TYPE_DOUBLE, bx, by, bz) == PARIO_OK);
  for (int64_t k = 0; k < nodes; ++k) CHECK(bx[k] == 0 && by[k] == 0 && bz[k] == 0);
  CHECK(pario_exodus_close(&ex) == PARIO_OK);

  /* The sets: put right, then again with other entries and a factor beyond float. */
  snprintf(path, sizeof path, "%s/float_sets.e", dir);
  CHECK(pario_exodus_create(world, path, &o, &ex) == PARIO_OK);
  CHECK(pario_exodus_init(ex, "float sets", 3, nodes, size, 1, 1, 1) == PARIO_OK);
  CHECK(pario_exodus_define_block(ex, 1, "line", "HEX8", size, 8, 0) == PARIO_OK);
  CHECK(pario_exodus_define_node_set(ex, 7, "left", 4, 1) == PARIO_OK);
  CHECK(pario_exodus_define_side_set(ex, 9, "sides", size, 4) == PARIO_OK);
  CHECK(pario_exodus_put_nodes(ex, 8, ids, PARIO_TYPE_DOUBLE, x, y, z) == PARIO_OK);
  CHECK(pario_exodus_put_block(ex, 1, 1, &elem, conn) == PARIO_OK);
  const int64_t left[4] = {ids[0], ids[3], ids[4], ids[7]}, right[4] = {ids[1], ids[2], ids[5], ids[6]};
  const double df[4] = {1, 2, 3, 4}, bad_df[4] = {1, 2, 1e300, 4};
  CHECK(pario_exodus_put_node_set(ex, 7, rank == 0 ? 4 : 0, left, PARIO_TYPE_DOUBLE, rank == 0 ? df : NULL) ==
        PARIO_OK);
  FAILS_ALL(pario_exodus_put_node_set(ex, 7, rank == size - 1 ? 4 : 0, right, PARIO_TYPE_DOUBLE,
                                      rank == size - 1 ? bad_df : NULL),
            PARIO_ERR_OUT_OF_RANGE, "df[2] does not fit the file's float");
  const int five = 5, six = 6;
  CHECK(pario_exodus_put_side_set(ex, 9, 1, &elem, &five, PARIO_TYPE_DOUBLE, df) == PARIO_OK);
  FAILS_ALL(pario_exodus_put_side_set(ex, 9, 1, &elem, &six, PARIO_TYPE_DOUBLE, rank == size - 1 ? bad_df : df),
            PARIO_ERR_OUT_OF_RANGE, "df[2] does not fit the file's float");
  CHECK(pario_exodus_close(&ex) == PARIO_OK);
  CHECK(pario_exodus_open(world, path, NULL, &ex) == PARIO_OK);
  int64_t got[4] = {0, 0, 0, 0}, elems[8], sides[8];
  CHECK(size <= 8);
  CHECK(pario_exodus_read_node_set(ex, 7, 0, 4, got) == PARIO_OK);
  /* Node set entries land in increasing position: left's ids in order. */
  const int64_t want[4] = {ids[0] - rank, ids[3] - rank, ids[4] - rank, ids[7] - rank};
  for (int k = 0; k < 4; ++k) CHECK(got[k] == want[k]);
  CHECK(pario_exodus_read_side_set(ex, 9, 0, size, elems, sides) == PARIO_OK);
  for (int k = 0; k < size; ++k) CHECK(elems[k] == 100 + k && sides[k] == 5);
  CHECK(pario_exodus_close(&ex) == PARIO_OK);
}

int main(void) {
  CHECK(pario_init() == PARIO_OK);
  pario_world_rank(&rank);
  pario_world_size(&size);
  CHECK(pario_group_world(&world) == PARIO_OK);
  char dir[512], path[600];
  job_dir(world, "exodus_errors", dir, sizeof dir);
  snprintf(path, sizeof path, "%s/line.e", dir);

  /* Hexahedron r of the line (line_mesh.h): the face x = r+1 is shared
   * with rank r+1. */
  int64_t ids[8], conn[8];
  double x[8], y[8], z[8];
  line_hexahedron(rank, size, ids, x, y, z);
  for (int v = 0; v < 8; ++v) conn[v] = ids[v];
  const int64_t nodes = 4 * (int64_t)(size + 1), elem = 100 + rank;
  const char *long_name = "a_name_of_more_than_thirty_two_characters";
  const char *vars[1] = {"u"};

  pario_exodus_t ex = PARIO_EXODUS_NULL;
  CHECK(pario_exodus_create(world, path, NULL, &ex) == PARIO_OK);
  FAILS_ALL(pario_exodus_end_define(ex), PARIO_ERR_STATE, "pario_exodus_init first");
  CHECK(pario_exodus_init(ex, "errors", 3, nodes, size, 1, 1, 1) == PARIO_OK);
  FAILS_ALL(pario_exodus_define_block(ex, 1, long_name, "HEX8", size, 8, 0), PARIO_ERR_INVALID_ARGUMENT,
            "longer than 32");
  FAILS_ALL(pario_exodus_define_block(ex, 1, "b", "HEX8", size, 6, 0), PARIO_ERR_INVALID_ARGUMENT,
            "has 8 nodes per element");
  FAILS_ALL(pario_exodus_end_define(ex), PARIO_ERR_STATE, "element blocks: pario_exodus_init announced 1, 0 defined");
  CHECK(pario_exodus_define_block(ex, 1, "line", "HEX8", size, 8, 0) == PARIO_OK);
  CHECK(pario_exodus_define_node_set(ex, 7, "left", 4, 1) == PARIO_OK);
  CHECK(pario_exodus_define_side_set(ex, 9, "bottom", size, 4) == PARIO_OK);
  CHECK(pario_exodus_define_variables(ex, PARIO_EXODUS_NODAL, 1, vars) == PARIO_OK);
  CHECK(pario_exodus_end_define(ex) == PARIO_OK);
  FAILS_ALL(pario_exodus_define_variables(ex, PARIO_EXODUS_GLOBAL, 1, vars), PARIO_ERR_STATE,
            "the definition has ended");

  /* Nodes: an id of 0 on the last rank; one node missing on rank 0. */
  int64_t bad_ids[8];
  memcpy(bad_ids, ids, sizeof ids);
  if (rank == size - 1) bad_ids[3] = 0;
  FAILS_ALL(pario_exodus_put_nodes(ex, 8, bad_ids, PARIO_TYPE_DOUBLE, x, y, z), PARIO_ERR_INVALID_ARGUMENT,
            "is not in 1..2^31-1");
  FAILS_ALL(pario_exodus_put_nodes(ex, rank == 0 ? 7 : 8, ids, PARIO_TYPE_DOUBLE, x, y, z),
            PARIO_ERR_INVALID_ARGUMENT, "distinct node ids; num_nodes is");
  FAILS_ALL(pario_exodus_put_block(ex, 1, 1, &elem, conn), PARIO_ERR_STATE, "put the nodes first");
  /* One rank passes a node id twice, the copy elsewhere: refused on every
   * rank, naming the id and that rank, whether the copy's coordinates
   * differ or not. */
  {
    int64_t twice_ids[9];
    double tx[9], ty[9], tz[9];
    memcpy(twice_ids, ids, sizeof ids);
    memcpy(tx, x, sizeof x);
    memcpy(ty, y, sizeof y);
    memcpy(tz, z, sizeof z);
    twice_ids[8] = ids[2];
    tx[8] = x[2] + 0.5;
    ty[8] = y[2];
    tz[8] = z[2];
    char want[96];
    snprintf(want, sizeof want, "ids[8]: id %lld is given twice by rank %d", (long long)ids[2], size - 1);
    FAILS_ALL(pario_exodus_put_nodes(ex, rank == size - 1 ? 9 : 8, twice_ids, PARIO_TYPE_DOUBLE, tx, ty, tz),
              PARIO_ERR_INVALID_ARGUMENT, want);
    tx[8] = x[2];
    FAILS_ALL(pario_exodus_put_nodes(ex, rank == size - 1 ? 9 : 8, twice_ids, PARIO_TYPE_DOUBLE, tx, ty, tz),
              PARIO_ERR_INVALID_ARGUMENT, want);
  }
  /* A shared node placed differently by two ranks: rank 1 moves its corner
   * (1, 0, 0), which rank 0 holds too (at 3 ranks rank 2 agrees with rank 1
   * on their shared face): every rank gets INVALID_ARGUMENT naming the
   * node id and both ranks, and nothing is kept; the right coordinates go
   * in after. */
  if (size > 1) {
    double moved[8];
    memcpy(moved, x, sizeof x);
    if (rank == 1) moved[0] += 0.25;
    FAILS_ALL(pario_exodus_put_nodes(ex, 8, ids, PARIO_TYPE_DOUBLE, moved, y, z), PARIO_ERR_INVALID_ARGUMENT,
              "node id 2 is given different coordinates by ranks 0 and 1");
    moved[0] = x[0];
    /* The copies are compared by a hash of their exact bits: one unit in
     * the last place, or -0.0 for 0.0, is a difference too. */
    double ulp[8], signed_zero[8];
    memcpy(ulp, z, sizeof z);
    memcpy(signed_zero, y, sizeof y);
    if (rank == 1) {
      uint64_t bits;
      memcpy(&bits, &z[0], sizeof bits);
      ++bits;  /* the next double up (z[0] >= 0) */
      memcpy(&ulp[0], &bits, sizeof bits);
      signed_zero[0] = -0.0;
    }
    FAILS_ALL(pario_exodus_put_nodes(ex, 8, ids, PARIO_TYPE_DOUBLE, x, y, ulp), PARIO_ERR_INVALID_ARGUMENT,
              "node id 2 is given different coordinates by ranks 0 and 1");
    FAILS_ALL(pario_exodus_put_nodes(ex, 8, ids, PARIO_TYPE_DOUBLE, x, signed_zero, z), PARIO_ERR_INVALID_ARGUMENT,
              "node id 2 is given different coordinates by ranks 0 and 1");
    char m[512];
    const int rc = pario_exodus_put_nodes(ex, 8, ids, PARIO_TYPE_DOUBLE, moved, y, z);
    pario_last_error_message(m, sizeof m);
    CHECK(rc == PARIO_OK);
    if (rc != PARIO_OK) fprintf(stderr, "rank %d: %s\n", rank, m);
  } else {
    CHECK(pario_exodus_put_nodes(ex, 8, ids, PARIO_TYPE_DOUBLE, x, y, z) == PARIO_OK);
  }

  /* Elements: rank 0's id again on the last rank (two ranks hold it); a
   * connectivity naming a node nobody passed. */
  if (size > 1) {
    const int64_t twice = rank == size - 1 ? 100 : elem;
    FAILS_ALL(pario_exodus_put_block(ex, 1, 1, &twice, conn), PARIO_ERR_INVALID_ARGUMENT, "passed by two ranks");
  }
  int64_t bad_conn[8];
  memcpy(bad_conn, conn, sizeof conn);
  if (rank == 0) bad_conn[5] = 999999;
  FAILS_ALL(pario_exodus_put_block(ex, 1, 1, &elem, bad_conn), PARIO_ERR_INVALID_ARGUMENT,
            "names node id 999999, which no rank passed");
  CHECK(pario_exodus_put_block(ex, 1, 1, &elem, conn) == PARIO_OK);

  /* Sets: a node id nobody passed; an element nobody holds; a side of 0. */
  const int64_t left[4] = {ids[0], ids[3], ids[4], ids[7]};
  const double df[4] = {1, 2, 3, 4};
  int64_t bad_left[4];
  memcpy(bad_left, left, sizeof left);
  if (rank == 0) bad_left[2] = 424242;
  FAILS_ALL(pario_exodus_put_node_set(ex, 7, rank == 0 ? 4 : 0, bad_left, PARIO_TYPE_DOUBLE, df),
            PARIO_ERR_INVALID_ARGUMENT, "node id 424242 is not a node of the file");
  CHECK(pario_exodus_put_node_set(ex, 7, rank == 0 ? 4 : 0, left, PARIO_TYPE_DOUBLE, rank == 0 ? df : NULL) ==
        PARIO_OK);
  /* The side set: each rank names its neighbour's element (the directory
   * answers), the last rank also a side of 0 first. */
  const int64_t neighbour = 100 + (rank + 1) % size, unknown = 5555;
  const int five = 5, zero = 0;
  FAILS_ALL(pario_exodus_put_side_set(ex, 9, 1, &unknown, &five, PARIO_TYPE_DOUBLE, df), PARIO_ERR_INVALID_ARGUMENT,
            "element id 5555 is not an element of the file");
  FAILS_ALL(pario_exodus_put_side_set(ex, 9, 1, &neighbour, rank == size - 1 ? &zero : &five, PARIO_TYPE_DOUBLE, df),
            PARIO_ERR_INVALID_ARGUMENT, "is not in 1..15");
  CHECK(pario_exodus_put_side_set(ex, 9, 1, &neighbour, &five, PARIO_TYPE_DOUBLE, df) == PARIO_OK);

  /* Steps. */
  FAILS_ALL(pario_exodus_put_nodal_values(ex, 1, 1, PARIO_TYPE_DOUBLE, x), PARIO_ERR_STATE, "which is not begun");
  FAILS_ALL(pario_exodus_put_time(ex, 2, 0.5), PARIO_ERR_INVALID_ARGUMENT, "is not the next step (1)");
  CHECK(pario_exodus_put_time(ex, 1, 0.5) == PARIO_OK);
  CHECK(pario_exodus_put_nodal_values(ex, 1, 1, PARIO_TYPE_DOUBLE, x) == PARIO_OK);
  CHECK(pario_exodus_flush(ex) == PARIO_OK);
  FAILS_ALL(pario_exodus_put_nodal_values(ex, 1, 1, PARIO_TYPE_DOUBLE, x), PARIO_ERR_STATE, "which is not begun");
  CHECK(pario_exodus_close(&ex) == PARIO_OK);

  /* What the failures left: a file whose header says one step, read here
   * by the netCDF header's own fields (numrecs at byte 4, big-endian). */
  if (rank == 0) {
    FILE *f = fopen(path, "rb");
    unsigned char head[8] = {0};
    CHECK(f && fread(head, 1, 8, f) == 8);
    if (f) fclose(f);
    CHECK(memcmp(head, "CDF\002", 4) == 0);
    CHECK(head[4] == 0 && head[5] == 0 && head[6] == 0 && head[7] == 1);
  }
  float_file(dir, ids, conn, x, y, z, nodes, elem);
  job_dir_remove(world, dir);
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("exodus_errors_test");
}
