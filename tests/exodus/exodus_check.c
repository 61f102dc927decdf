/* The independent reader: opens a file with Debian's serial libexodusii
 * (no pario linked) and checks everything ../shared/exodus_workload.md
 * lists under "Checking a file", value by value:
 *   exodus_check FILE NX NY NZ T HEX|MIXED
 * Exit status 0 when the file is the workload, 1 with the first
 * differences printed otherwise.
 *   exodus_check --write FILE NX NY NZ T HEX|MIXED
 * writes the workload itself with libexodusii (serially), for pario's
 * reader to read a file pario did not write. */
#include <exodusII.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECKER "exodus_check"
#include "libexodusii_check.h"

/* The element variable of the workload: 1000 + xc + 2 yc + 3 zc + t, the
 * centroid summed in connectivity order (1-based node numbers). */
static double stress(const int *conn, int npe, const double *x, const double *y, const double *z, double t) {
  double c[3] = {0, 0, 0};
  for (int q = 0; q < npe; ++q) {
    const int n = conn[q] - 1;
    c[0] += x[n];
    c[1] += y[n];
    c[2] += z[n];
  }
  for (int d = 0; d < 3; ++d) c[d] /= npe;
  return 1000 + c[0] + 2 * c[1] + 3 * c[2] + t;
}

/* The workload written by libexodusii alone. */
static int write_workload(const char *path, int NX, int NY, int NZ, int T, int mixed) {
  const int KB = NZ / 2, C = NX * NY * NZ, C1 = NX * NY * KB, C2 = C - C1;
  const int N = (NX + 1) * (NY + 1) * (NZ + 1), E1 = C1, E2 = mixed ? 6 * C2 : C2, npe2 = mixed ? 4 : 8;
  static const int tet[6][4] = {{1, 2, 3, 7}, {1, 2, 7, 6}, {1, 4, 7, 3}, {1, 4, 8, 7}, {1, 5, 6, 7}, {1, 5, 7, 8}};
  static const int d[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  int cpu = 8, io = 8;
  const int id = ex_create(path, EX_CLOBBER, &cpu, &io);
  if (id < 0) return 1;
  char title[128];
  snprintf(title, sizeof title, "pario-exodus-workload %s %dx%dx%d T=%d", mixed ? "MIXED" : "HEX", NX, NY, NZ, T);
  OK(ex_put_init(id, title, 3, N, E1 + E2, 2, 1, 1));
  double *x = xcalloc(N, 8), *y = xcalloc(N, 8), *z = xcalloc(N, 8), *v = xcalloc(N > E1 + E2 ? N : E1 + E2, 8);
  int *map = xcalloc(N > E1 + E2 ? N : E1 + E2, sizeof(int));
  for (int n = 0; n < N; ++n) {
    x[n] = (double)(n % (NX + 1)) / NX;
    y[n] = (double)((n / (NX + 1)) % (NY + 1)) / NY;
    z[n] = (double)(n / ((NX + 1) * (NY + 1))) / NZ;
    map[n] = 2 * (n + 1);
  }
  OK(ex_put_coord(id, x, y, z));
  OK(ex_put_node_num_map(id, map));
  for (int e = 0; e < E1 + E2; ++e) map[e] = 2 * (e + 1);
  OK(ex_put_elem_num_map(id, map));
  OK(ex_put_elem_block(id, 10, "HEX8", E1, 8, 0));
  OK(ex_put_elem_block(id, 20, mixed ? "TETRA4" : "HEX8", E2, npe2, 0));
  for (int b = 0; b < 2; ++b) {
    const int count = b ? E2 : E1, npe = b ? npe2 : 8;
    int *conn = xcalloc((size_t)count * npe, sizeof(int));
    for (int e = 0; e < count; ++e) {
      const int c = b ? C1 + (mixed ? e / 6 : e) : e, i = c % NX, j = (c / NX) % NY, k = c / (NX * NY);
      for (int q = 0; q < npe; ++q) {
        const int corner = b && mixed ? tet[e % 6][q] - 1 : q;
        conn[e * npe + q] = 1 + (i + d[corner][0]) + (NX + 1) * ((j + d[corner][1]) + (NY + 1) * (k + d[corner][2]));
      }
    }
    OK(ex_put_elem_conn(id, b ? 20 : 10, conn));
    free(conn);
  }
  OK(ex_put_name(id, EX_ELEM_BLOCK, 10, "lower"));
  OK(ex_put_name(id, EX_ELEM_BLOCK, 20, "upper"));
  char *gn[1] = {"energy"}, *nn[2] = {"temperature", "displacement_x"}, *en[1] = {"stress"};
  OK(ex_put_var_param(id, "g", 1));
  OK(ex_put_var_param(id, "n", 2));
  OK(ex_put_var_param(id, "e", 1));
  OK(ex_put_var_names(id, "g", 1, gn));
  OK(ex_put_var_names(id, "n", 2, nn));
  OK(ex_put_var_names(id, "e", 1, en));
  int truth[2] = {1, 1};
  OK(ex_put_elem_var_tab(id, 2, 1, truth));
  for (int s = 1; s <= T; ++s) {
    const double t = 0.25 * s, energy = t * t;
    OK(ex_put_time(id, s, &t));
    OK(ex_put_glob_vars(id, s, 1, &energy));
    for (int n = 0; n < N; ++n) v[n] = 300 + 10 * x[n] + 20 * y[n] + 30 * z[n] + t;
    OK(ex_put_nodal_var(id, s, 1, N, v));
    for (int n = 0; n < N; ++n) v[n] = 0.001 * t * (1 + x[n] + y[n] * z[n]);
    OK(ex_put_nodal_var(id, s, 2, N, v));
    for (int b = 0; b < 2; ++b) {
      const int count = b ? E2 : E1, npe = b ? npe2 : 8;
      int *conn = xcalloc((size_t)count * npe, sizeof(int));
      OK(ex_get_elem_conn(id, b ? 20 : 10, conn));
      for (int e = 0; e < count; ++e) v[e] = stress(conn + e * npe, npe, x, y, z, t);
      OK(ex_put_elem_var(id, s, 1, b ? 20 : 10, count, v));
      free(conn);
    }
  }
  OK(ex_close(id));
  free(x); free(y); free(z); free(v); free(map);
  return failures ? 1 : 0;
}

int main(int argc, char **argv) {
  if (argc == 8 && !strcmp(argv[1], "--write")) {
    return write_workload(argv[2], atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), atoi(argv[6]),
                          !strcmp(argv[7], "MIXED"));
  }
  if (argc != 7 && argc != 8) {
    fprintf(stderr, "usage: %s FILE NX NY NZ T HEX|MIXED [STEPS]\n", argv[0]);
    return 2;
  }
  const int NX = atoi(argv[2]), NY = atoi(argv[3]), NZ = atoi(argv[4]), T = atoi(argv[5]);
  const int mixed = strcmp(argv[6], "MIXED") == 0;
  /* STEPS: how many steps a writer killed before the end left counted */
  const int want_steps = argc == 8 ? atoi(argv[7]) : T;
  const int KB = NZ / 2, C = NX * NY * NZ, C1 = NX * NY * KB, C2 = C - C1;
  const int N = (NX + 1) * (NY + 1) * (NZ + 1), E1 = C1, E2 = mixed ? 6 * C2 : C2, E = E1 + E2;
  const int npe2 = mixed ? 4 : 8;
  static const int tet[6][4] = {{1, 2, 3, 7}, {1, 2, 7, 6}, {1, 4, 7, 3}, {1, 4, 8, 7}, {1, 5, 6, 7}, {1, 5, 7, 8}};

  int cpu = 8, io = 0;
  float version = 0;
  const int id = ex_open(argv[1], EX_READ, &cpu, &io, &version);
  if (id < 0) {
    fprintf(stderr, "exodus_check: ex_open(%s) failed\n", argv[1]);
    return 1;
  }
  EXPECT(io == 8, "floating point word size %d, not 8", io);

  char title[MAX_LINE_LENGTH + 1];
  int dim, nodes, elems, nblk, nns, nss;
  OK(ex_get_init(id, title, &dim, &nodes, &elems, &nblk, &nns, &nss));
  char want_title[128];
  snprintf(want_title, sizeof want_title, "pario-exodus-workload %s %dx%dx%d T=%d", mixed ? "MIXED" : "HEX", NX, NY,
           NZ, T);
  EXPECT(strcmp(title, want_title) == 0, "title '%s', not '%s'", title, want_title);
  EXPECT(dim == 3 && nodes == N && elems == E && nblk == 2 && nns == 1 && nss == 1,
         "init: dim %d nodes %d elems %d blocks %d node sets %d side sets %d", dim, nodes, elems, nblk, nns, nss);
  if (failures) return 1;

  /* Coordinates, names, id maps. */
  double *x = xcalloc(N, sizeof(double)), *y = xcalloc(N, sizeof(double)), *z = xcalloc(N, sizeof(double));
  OK(ex_get_coord(id, x, y, z));
  for (int n = 0; n < N; ++n) {
    const int i = n % (NX + 1), j = (n / (NX + 1)) % (NY + 1), k = n / ((NX + 1) * (NY + 1));
    EXPECT(x[n] == (double)i / NX && y[n] == (double)j / NY && z[n] == (double)k / NZ,
           "node %d at (%g, %g, %g)", n + 1, x[n], y[n], z[n]);
  }
  char cn[3][MAX_STR_LENGTH + 1];
  char *cnp[3] = {cn[0], cn[1], cn[2]};
  OK(ex_get_coord_names(id, cnp));
  EXPECT(!strcmp(cn[0], "x") && !strcmp(cn[1], "y") && !strcmp(cn[2], "z"), "coordinate names %s %s %s", cn[0], cn[1],
         cn[2]);
  int *map = xcalloc(N > E ? N : E, sizeof(int));
  OK(ex_get_node_num_map(id, map));
  for (int n = 0; n < N; ++n) EXPECT(map[n] == 2 * (n + 1), "node_num_map[%d] = %d", n, map[n]);
  OK(ex_get_elem_num_map(id, map));
  for (int e = 0; e < E; ++e) EXPECT(map[e] == 2 * (e + 1), "elem_num_map[%d] = %d", e, map[e]);

  /* Blocks: ids, names, types, connectivity. */
  int blk_ids[2];
  OK(ex_get_elem_blk_ids(id, blk_ids));
  EXPECT(blk_ids[0] == 10 && blk_ids[1] == 20, "block ids %d %d", blk_ids[0], blk_ids[1]);
  char bn[2][MAX_STR_LENGTH + 1];
  char *bnp[2] = {bn[0], bn[1]};
  OK(ex_get_names(id, EX_ELEM_BLOCK, bnp));
  EXPECT(!strcmp(bn[0], "lower") && !strcmp(bn[1], "upper"), "block names %s %s", bn[0], bn[1]);
  for (int b = 0; b < 2; ++b) {
    char type[MAX_STR_LENGTH + 1];
    int count, npe, natt;
    OK(ex_get_elem_block(id, blk_ids[b], type, &count, &npe, &natt));
    const int want_count = b ? E2 : E1, want_npe = b ? npe2 : 8;
    const char *want_type = b && mixed ? "TETRA4" : "HEX8";
    EXPECT(count == want_count && npe == want_npe && natt == 0 && !strcmp(type, want_type),
           "block %d: %s, %d elements of %d nodes, %d attributes", blk_ids[b], type, count, npe, natt);
    if (count != want_count || npe != want_npe) continue;
    int *conn = xcalloc((size_t)count * npe, sizeof(int));
    OK(ex_get_elem_conn(id, blk_ids[b], conn));
    for (int e = 0; e < count; ++e) {
      const int c = b ? C1 + (mixed ? e / 6 : e) : e;
      const int i = c % NX, j = (c / NX) % NY, k = c / (NX * NY);
      static const int d[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
      for (int v = 0; v < npe; ++v) {
        const int q = b && mixed ? tet[e % 6][v] - 1 : v;
        const int node = (i + d[q][0]) + (NX + 1) * ((j + d[q][1]) + (NY + 1) * (k + d[q][2]));
        EXPECT(conn[e * npe + v] == node + 1, "block %d element %d node %d: %d, not %d", blk_ids[b], e, v,
               conn[e * npe + v], node + 1);
      }
    }
    free(conn);
  }

  /* Sets. */
  int set_id, count, ndf;
  OK(ex_get_node_set_ids(id, &set_id));
  OK(ex_get_node_set_param(id, set_id, &count, &ndf));
  EXPECT(set_id == 100 && count == (NY + 1) * (NZ + 1) && ndf == 0, "node set %d: %d nodes, %d factors", set_id, count, ndf);
  char sn[MAX_STR_LENGTH + 1];
  char *snp[1] = {sn};
  OK(ex_get_names(id, EX_NODE_SET, snp));
  EXPECT(!strcmp(sn, "x0"), "node set name %s", sn);
  if (count == (NY + 1) * (NZ + 1)) {
    int *list = xcalloc(count, sizeof(int));
    OK(ex_get_node_set(id, set_id, list));
    for (int q = 0; q < count; ++q) {
      const int node = (NX + 1) * q; /* i = 0: every (NX+1)-th node, ascending */
      EXPECT(list[q] == node + 1, "node set entry %d: %d, not %d", q, list[q], node + 1);
    }
    free(list);
  }
  OK(ex_get_side_set_ids(id, &set_id));
  OK(ex_get_side_set_param(id, set_id, &count, &ndf));
  EXPECT(set_id == 200 && count == NX * NY && ndf == 0, "side set %d: %d sides, %d factors", set_id, count, ndf);
  OK(ex_get_names(id, EX_SIDE_SET, snp));
  EXPECT(!strcmp(sn, "z0"), "side set name %s", sn);
  if (count == NX * NY) {
    int *el = xcalloc(count, sizeof(int)), *side = xcalloc(count, sizeof(int));
    OK(ex_get_side_set(id, set_id, el, side));
    for (int q = 0; q < count; ++q) EXPECT(el[q] == q + 1 && side[q] == 5, "side set entry %d: (%d, %d)", q, el[q], side[q]);
    free(el);
    free(side);
  }

  /* Records. */
  EXPECT((int)ex_inquire_int(id, EX_INQ_QA) == 1, "QA records: %d", (int)ex_inquire_int(id, EX_INQ_QA));
  EXPECT((int)ex_inquire_int(id, EX_INQ_INFO) == 1, "info records: %d", (int)ex_inquire_int(id, EX_INQ_INFO));
  char info[MAX_LINE_LENGTH + 1], want_info[160];
  char *infop[1] = {info};
  OK(ex_get_info(id, infop));
  snprintf(want_info, sizeof want_info, "generator=pario-exodus-v1 nx=%d ny=%d nz=%d T=%d variant=%s", NX, NY, NZ, T,
           mixed ? "MIXED" : "HEX");
  EXPECT(!strcmp(info, want_info), "info '%s'", info);

  /* Variables, truth table, steps. */
  int ng, nn, ne;
  OK(ex_get_var_param(id, "g", &ng));
  OK(ex_get_var_param(id, "n", &nn));
  OK(ex_get_var_param(id, "e", &ne));
  EXPECT(ng == 1 && nn == 2 && ne == 1, "variables: %d global, %d nodal, %d element", ng, nn, ne);
  char vn[2][MAX_STR_LENGTH + 1];
  char *vnp[2] = {vn[0], vn[1]};
  OK(ex_get_var_names(id, "n", 2, vnp));
  EXPECT(!strcmp(vn[0], "temperature") && !strcmp(vn[1], "displacement_x"), "nodal names %s %s", vn[0], vn[1]);
  OK(ex_get_var_names(id, "g", 1, vnp));
  EXPECT(!strcmp(vn[0], "energy"), "global name %s", vn[0]);
  OK(ex_get_var_names(id, "e", 1, vnp));
  EXPECT(!strcmp(vn[0], "stress"), "element name %s", vn[0]);
  int truth[2] = {0, 0};
  OK(ex_get_elem_var_tab(id, 2, 1, truth));
  EXPECT(truth[0] == 1 && truth[1] == 1, "truth table %d %d", truth[0], truth[1]);
  const int steps = (int)ex_inquire_int(id, EX_INQ_TIME);
  EXPECT(steps == want_steps, "%d steps, not %d", steps, want_steps);
  double *v = xcalloc(N > E ? N : E, sizeof(double));
  for (int s = 1; s <= steps && s <= T; ++s) {
    const double t = 0.25 * s;
    double time = -1, energy = -1;
    OK(ex_get_time(id, s, &time));
    EXPECT(time == t, "step %d: time %g", s, time);
    OK(ex_get_glob_vars(id, s, 1, &energy));
    EXPECT(energy == t * t, "step %d: energy %g", s, energy);
    OK(ex_get_nodal_var(id, s, 1, N, v));
    for (int n = 0; n < N; ++n) {
      const double want = 300 + 10 * x[n] + 20 * y[n] + 30 * z[n] + t;
      EXPECT(v[n] == want, "step %d temperature[%d] = %.17g, not %.17g", s, n, v[n], want);
    }
    OK(ex_get_nodal_var(id, s, 2, N, v));
    for (int n = 0; n < N; ++n) {
      const double want = 0.001 * t * (1 + x[n] + y[n] * z[n]);
      EXPECT(v[n] == want, "step %d displacement_x[%d] = %.17g, not %.17g", s, n, v[n], want);
    }
    for (int b = 0; b < 2; ++b) {
      const int count_b = b ? E2 : E1, npe = b ? npe2 : 8;
      int *conn = xcalloc((size_t)count_b * npe, sizeof(int));
      OK(ex_get_elem_conn(id, blk_ids[b], conn));
      OK(ex_get_elem_var(id, s, 1, blk_ids[b], count_b, v));
      for (int e = 0; e < count_b; ++e) {
        const double want = stress(conn + e * npe, npe, x, y, z, t);
        EXPECT(v[e] == want, "step %d block %d stress[%d] = %.17g, not %.17g", s, blk_ids[b], e, v[e], want);
      }
      free(conn);
    }
  }
  OK(ex_close(id));
  free(x); free(y); free(z); free(map); free(v);
  if (failures) {
    fprintf(stderr, "exodus_check: %s: %d differences\n", argv[1], failures);
    return 1;
  }
  printf("exodus_check: %s is the %s workload %dx%dx%d T=%d (libexodusii %.2f reads it)\n", argv[1],
         mixed ? "MIXED" : "HEX", NX, NY, NZ, T, version);
  return 0;
}
