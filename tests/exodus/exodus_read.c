/* Reads a workload file on M ranks through pario's reader, each rank its
 * own ranges (write on N, read on M), and checks every value against the
 * formulas of ../shared/exodus_workload.md:
 *   exodus_read FILE NX NY NZ T HEX|MIXED
 * Rank r reads nodes [N*r/M, N*(r+1)/M) and the elements [B*r/M, ...) of
 * each block B, for every step. Also: the info queries, and out-of-range
 * requests refused on every rank. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int rank, size;

static void *xcalloc(size_t n, size_t s) {
  void *p = calloc(n ? n : 1, s);
  if (!p) MPI_Abort(MPI_COMM_WORLD, 3);
  return p;
}

int main(int argc, char **argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: %s FILE NX NY NZ T HEX|MIXED\n", argv[0]);
    return 2;
  }
  const int64_t NX = atoi(argv[2]), NY = atoi(argv[3]), NZ = atoi(argv[4]);
  const int T = atoi(argv[5]), mixed = strcmp(argv[6], "MIXED") == 0;
  const int64_t KB = NZ / 2, C = NX * NY * NZ, C1 = NX * NY * KB, C2 = C - C1, N = (NX + 1) * (NY + 1) * (NZ + 1);
  const int64_t E1 = C1, E2 = mixed ? 6 * C2 : C2;
  static const int tet[6][4] = {{1, 2, 3, 7}, {1, 2, 7, 6}, {1, 4, 7, 3}, {1, 4, 8, 7}, {1, 5, 6, 7}, {1, 5, 7, 8}};
  static const int d8[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  CHECK(pario_init() == PARIO_OK);
  pario_world_rank(&rank);
  pario_world_size(&size);
  pario_group_t world;
  CHECK(pario_group_world(&world) == PARIO_OK);

  pario_exodus_t ex = PARIO_EXODUS_NULL;
  CHECK(pario_exodus_open(world, argv[1], NULL, &ex) == PARIO_OK);
  char title[128], name[40], type[40];
  int dim = 0, nblk = 0, nns = 0, nss = 0, steps = 0, nvars = 0;
  int64_t nodes = 0, elems = 0;
  CHECK(pario_exodus_get_info(ex, title, sizeof title, &dim, &nodes, &elems, &nblk, &nns, &nss, &steps) == PARIO_OK);
  CHECK(dim == 3 && nodes == N && elems == E1 + E2 && nblk == 2 && nns == 1 && nss == 1 && steps == T);
  CHECK(strncmp(title, "pario-exodus-workload", 21) == 0);
  int64_t id = 0, count = 0;
  int npe = 0;
  CHECK(pario_exodus_get_block(ex, 1, &id, name, sizeof name, type, sizeof type, &count, &npe) == PARIO_OK);
  CHECK(id == 20 && !strcmp(name, "upper") && !strcmp(type, mixed ? "TETRA4" : "HEX8") && count == E2 &&
        npe == (mixed ? 4 : 8));
  CHECK(pario_exodus_get_variable(ex, PARIO_EXODUS_NODAL, 2, name, sizeof name, &nvars) == PARIO_OK);
  CHECK(nvars == 2 && !strcmp(name, "displacement_x"));
  CHECK(pario_exodus_get_block(ex, 2, &id, NULL, 0, NULL, 0, NULL, NULL) == PARIO_ERR_OUT_OF_RANGE);

  /* Nodes: coordinates, ids, nodal values of every step. */
  const int64_t n0 = N * rank / size, nn = N * (rank + 1) / size - n0;
  double *x = xcalloc((size_t)nn, 8), *y = xcalloc((size_t)nn, 8), *z = xcalloc((size_t)nn, 8);
  double *v = xcalloc((size_t)nn, 8);
  int64_t *ids = xcalloc((size_t)nn, 8);
  CHECK(pario_exodus_read_coords(ex, n0, nn, PARIO_TYPE_DOUBLE, x, y, z) == PARIO_OK);
  CHECK(pario_exodus_read_node_ids(ex, n0, nn, ids) == PARIO_OK);
  int good = 1;
  for (int64_t k = 0; k < nn; ++k) {
    const int64_t n = n0 + k, i = n % (NX + 1), j = (n / (NX + 1)) % (NY + 1), kk = n / ((NX + 1) * (NY + 1));
    good &= x[k] == (double)i / NX && y[k] == (double)j / NY && z[k] == (double)kk / NZ && ids[k] == 2 * (n + 1);
  }
  CHECK(good);
  for (int s = 1; s <= T; ++s) {
    double t = 0;
    CHECK(pario_exodus_get_time(ex, s, &t) == PARIO_OK && t == 0.25 * s);
    double energy = 0;
    CHECK(pario_exodus_read_global_values(ex, s, 1, PARIO_TYPE_DOUBLE, &energy) == PARIO_OK && energy == t * t);
    /* A count of its own on each rank (0 on rank 0): no hang, no error. */
    energy = -1;
    CHECK(pario_exodus_read_global_values(ex, s, rank ? 1 : 0, PARIO_TYPE_DOUBLE, &energy) == PARIO_OK &&
          energy == (rank ? t * t : -1));
    CHECK(pario_exodus_read_nodal_values(ex, s, 1, n0, nn, PARIO_TYPE_DOUBLE, v) == PARIO_OK);
    good = 1;
    for (int64_t k = 0; k < nn; ++k) good &= v[k] == 300 + 10 * x[k] + 20 * y[k] + 30 * z[k] + t;
    CHECK(good);
    CHECK(pario_exodus_read_nodal_values(ex, s, 2, n0, nn, PARIO_TYPE_DOUBLE, v) == PARIO_OK);
    good = 1;
    for (int64_t k = 0; k < nn; ++k) good &= v[k] == 0.001 * t * (1 + x[k] + y[k] * z[k]);
    CHECK(good);
  }

  /* Blocks: ids, connectivity, element values; centroids from coordinates
   * computed here (the formula), not read. */
  for (int b = 0; b < 2; ++b) {
    const int64_t B = b ? E2 : E1, per = b ? (mixed ? 4 : 8) : 8, e0 = B * rank / size, ne = B * (rank + 1) / size - e0;
    int64_t *eid = xcalloc((size_t)ne, 8), *conn = xcalloc((size_t)(ne * per), 8);
    double *sv = xcalloc((size_t)ne, 8);
    CHECK(pario_exodus_read_block(ex, b ? 20 : 10, e0, ne, eid, conn) == PARIO_OK);
    good = 1;
    for (int64_t e = 0; e < ne; ++e) {
      const int64_t local = e0 + e, c = b ? C1 + (mixed ? local / 6 : local) : local;
      good &= eid[e] == 2 * ((b ? E1 : 0) + local + 1);
      const int64_t i = c % NX, j = (c / NX) % NY, k = c / (NX * NY);
      for (int q = 0; q < per; ++q) {
        const int corner = b && mixed ? tet[local % 6][q] - 1 : q;
        const int64_t node = (i + d8[corner][0]) + (NX + 1) * ((j + d8[corner][1]) + (NY + 1) * (k + d8[corner][2]));
        good &= conn[e * per + q] == node + 1;
      }
    }
    CHECK(good);
    for (int s = 1; s <= T; ++s) {
      const double t = 0.25 * s;
      CHECK(pario_exodus_read_element_values(ex, s, 1, b ? 20 : 10, e0, ne, PARIO_TYPE_DOUBLE, sv) == PARIO_OK);
      good = 1;
      for (int64_t e = 0; e < ne; ++e) {
        double cx = 0, cy = 0, cz = 0;
        for (int q = 0; q < per; ++q) {
          const int64_t n = conn[e * per + q] - 1, i = n % (NX + 1), j = (n / (NX + 1)) % (NY + 1),
                        kk = n / ((NX + 1) * (NY + 1));
          cx += (double)i / NX;
          cy += (double)j / NY;
          cz += (double)kk / NZ;
        }
        cx /= per;
        cy /= per;
        cz /= per;
        good &= sv[e] == 1000 + cx + 2 * cy + 3 * cz + t;
      }
      CHECK(good);
    }
    free(eid);
    free(conn);
    free(sv);
  }

  /* Out of range on the last rank: every rank fails. */
  const int rc = pario_exodus_read_nodal_values(ex, 1, 1, rank == size - 1 ? N : n0, rank == size - 1 ? 1 : nn,
                                                PARIO_TYPE_DOUBLE, v);
  CHECK(rc == (rank == size - 1 ? PARIO_ERR_OUT_OF_RANGE : PARIO_ERR_REMOTE));
  CHECK(pario_exodus_read_nodal_values(ex, T + 1, 1, n0, nn, PARIO_TYPE_DOUBLE, v) == PARIO_ERR_OUT_OF_RANGE);
  CHECK(pario_exodus_put_time(ex, 1, 0.0) == PARIO_ERR_STATE);  /* open for reading */
  CHECK(pario_exodus_close(&ex) == PARIO_OK);
  free(x); free(y); free(z); free(v); free(ids);
  CHECK(pario_finalize() == PARIO_OK);
  if (rank == 0 && check_failures == 0) printf("exodus_read: %s read on %d ranks, every value as written\n", argv[1], size);
  return check_summary("exodus_read");
}
