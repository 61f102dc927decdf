/* A side set whose sides carry different numbers of distribution factors
 * (pario_exodus_define_side_set_df / _put_side_set_df), written by all
 * ranks and read back through pario's reader:
 *   exodus_side_df OUT
 * Rank r holds hexahedron r (block 1, ids 1..P, a line along x sharing
 * faces) and tetrahedron r (block 2, ids 101..100+P) on the hexahedron's
 * top face. The side set "mixed" holds every hexahedron's side 5 (4 nodes:
 * 4 factors) and every tetrahedron's side 1 (3 nodes: 3 factors); factor
 * q of element e's side is e + q / 10. Each rank passes its own two sides,
 * its tetrahedron first, and also its right neighbour's hexahedron side
 * (with the same factors: a side two ranks pass is written once). In the
 * file: the hexahedra's sides, then the tetrahedra's, 7 P factors. A
 * refused put after the good one leaves the set's entries as they were.
 * The
 * independent check with libexodusii is exodus_side_df_check. A bad part
 * (counts adding up to more than num_df, a negative count, the fixed call
 * on this set) fails on every rank. Run at P = 1, 2, 3. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "line_mesh.h"

int main(int argc, char **argv) {
  CHECK(argc == 2);
  CHECK(pario_init() == PARIO_OK);
  int rank, size;
  pario_world_rank(&rank);
  pario_world_size(&size);
  pario_group_t world;
  CHECK(pario_group_world(&world) == PARIO_OK);

  /* Hexahedron r of the line (line_mesh.h); the apex of tetrahedron r:
   * id 4(P+1) + 1 + r. */
  int64_t ids[9], hex_conn[8], tet_conn[4];
  double x[9], y[9], z[9];
  line_hexahedron(rank, size, ids, x, y, z);
  for (int v = 0; v < 8; ++v) hex_conn[v] = ids[v];
  ids[8] = 4 * (int64_t)(size + 1) + 1 + rank;
  x[8] = rank + 0.5;
  y[8] = 0.5;
  z[8] = 2;
  tet_conn[0] = hex_conn[4];
  tet_conn[1] = hex_conn[5];
  tet_conn[2] = hex_conn[6];
  tet_conn[3] = ids[8];
  const int64_t hex = rank + 1, tet = 101 + rank, nodes = 4 * (int64_t)(size + 1) + size;

  pario_exodus_t ex = PARIO_EXODUS_NULL;
  CHECK(pario_exodus_create(world, argv[1], NULL, &ex) == PARIO_OK);
  CHECK(pario_exodus_init(ex, "side df", 3, nodes, 2 * size, 2, 0, 1) == PARIO_OK);
  CHECK(pario_exodus_define_block(ex, 1, "hex", "HEX8", size, 8, 0) == PARIO_OK);
  CHECK(pario_exodus_define_block(ex, 2, "tet", "TETRA4", size, 4, 0) == PARIO_OK);
  CHECK(pario_exodus_define_side_set_df(ex, 7, "mixed", 2 * size, 7 * size) == PARIO_OK);
  CHECK(pario_exodus_put_nodes(ex, 9, ids, PARIO_TYPE_DOUBLE, x, y, z) == PARIO_OK);
  CHECK(pario_exodus_put_block(ex, 1, 1, &hex, hex_conn) == PARIO_OK);
  CHECK(pario_exodus_put_block(ex, 2, 1, &tet, tet_conn) == PARIO_OK);

  /* This rank's part: its tetrahedron, its hexahedron, its neighbour's hexahedron. */
  const int64_t right = (rank + 1) % size + 1;
  const int64_t elems[3] = {tet, hex, right};
  const int sides[3] = {1, 5, 5}, counts[3] = {3, 4, 4};
  double df[12] = {0};  /* 11 factors; one more for the refused parts' extra count */
  int at = 0;
  for (int k = 0; k < 3; ++k) {
    for (int q = 0; q < counts[k]; ++q) df[at++] = (double)elems[k] + q / 10.0;
  }
  const int n = size > 1 ? 3 : 2;

  /* Bad parts first: every rank fails (counts adding up to 7P + 1 are
   * found by all ranks together; a negative one by its rank). */
  const int too_many[3] = {3, 5, 4}, negative[3] = {3, -4, 4};
  int rc = pario_exodus_put_side_set_df(ex, 7, n, elems, sides, rank == 0 ? too_many : counts, PARIO_TYPE_DOUBLE, df);
  CHECK(rc == PARIO_ERR_INVALID_ARGUMENT);
  rc = pario_exodus_put_side_set_df(ex, 7, n, elems, sides, rank == size - 1 ? negative : counts, PARIO_TYPE_DOUBLE,
                                    df);
  CHECK(rc == (rank == size - 1 ? PARIO_ERR_INVALID_ARGUMENT : PARIO_ERR_REMOTE));
  CHECK(pario_exodus_put_side_set(ex, 7, n, elems, sides, PARIO_TYPE_DOUBLE, df) == PARIO_ERR_INVALID_ARGUMENT);
  CHECK(pario_exodus_put_side_set_df(ex, 7, n, elems, sides, counts, PARIO_TYPE_DOUBLE, df) == PARIO_OK);
  /* Put again with other sides (tetrahedra side 2, hexahedra side 6) and
   * counts adding up to 7P + 1: refused on every rank before any byte of
   * the set is written, so the file keeps the sides just put (5 and 1,
   * checked below). */
  const int other_sides[3] = {2, 6, 6};
  rc = pario_exodus_put_side_set_df(ex, 7, n, elems, other_sides, rank == 0 ? too_many : counts, PARIO_TYPE_DOUBLE,
                                    df);
  CHECK(rc == PARIO_ERR_INVALID_ARGUMENT);
  CHECK(pario_exodus_close(&ex) == PARIO_OK);

  /* Read back through pario's reader, each rank the whole set. */
  CHECK(pario_exodus_open(world, argv[1], NULL, &ex) == PARIO_OK);
  int64_t set_id = 0, count = 0, df_count = 0;
  char name[64];
  CHECK(pario_exodus_get_set(ex, PARIO_EXODUS_SIDE_SET, 0, &set_id, name, sizeof name, &count, &df_count) == PARIO_OK);
  CHECK(set_id == 7 && count == 2 * size && df_count == 7 * size && strcmp(name, "mixed") == 0);
  int64_t got_elems[64], got_sides[64];
  double got_df[7 * 32];
  CHECK(size <= 32);
  CHECK(pario_exodus_read_side_set(ex, 7, 0, count, got_elems, got_sides) == PARIO_OK);
  CHECK(pario_exodus_read_set_df(ex, PARIO_EXODUS_SIDE_SET, 7, 0, df_count, PARIO_TYPE_DOUBLE, got_df) == PARIO_OK);
  at = 0;
  for (int k = 0; k < count; ++k) {
    const int is_hex = k < size;
    const int64_t want = is_hex ? k + 1 : 101 + (k - size);
    CHECK(got_elems[k] == want && got_sides[k] == (is_hex ? 5 : 1));
    for (int q = 0; q < (is_hex ? 4 : 3); ++q, ++at) {
      if (got_df[at] != (double)want + q / 10.0) {
        fprintf(stderr, "rank %d: factor %d is %g, expected %g\n", rank, at, got_df[at], (double)want + q / 10.0);
        ++check_failures;
      }
    }
  }
  CHECK(at == 7 * size);
  CHECK(pario_exodus_close(&ex) == PARIO_OK);
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("exodus_side_df");
}
