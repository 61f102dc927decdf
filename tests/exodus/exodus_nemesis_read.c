/* pario's Nemesis readers (pario_exodus_get_loadbal, _get_node_maps,
 * _get_elem_maps, _get_cmap_params, _get_node_cmap, _get_elem_cmap)
 * against Debian's libexodusii reading the same file: every processor,
 * every list and every communication map, entry by entry.
 *   exodus_nemesis_read FILE           a file with Nemesis information
 *                                      (run_nemesis.sh: pario's)
 *   exodus_nemesis_read --write FILE   first writes FILE with libexodusii's
 *                                      own Nemesis calls (as nem_slice
 *                                      does), then compares
 * The written file: 3 processors over a strip of 2 quadrilaterals, lists
 * chosen to cover what pario itself never writes: external nodes, two
 * nodal maps on one processor, map ids other than 1, a processor with
 * empty lists. Its lists are then also checked against the values put.
 * One rank. Exit status 0 when all agree. */
#include <exodusII.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pario/exodus.h"
#include "pario/pario.h"

#define CHECKER "exodus_nemesis_read"
#include "libexodusii_check.h"

/* n ints (libexodusii) against n int64s (pario). */
static void same(const char *what, int proc, const int *want, const int64_t *got, int64_t n) {
  for (int64_t i = 0; i < n; ++i) {
    EXPECT(got[i] == want[i], "processor %d: %s[%lld] is %lld through pario, %d through libexodusii", proc, what,
           (long long)i, (long long)got[i], want[i]);
  }
}

/* The written file's lists (see the top). */
enum { P = 3 };
static int int_n[P][2] = {{1, 2}, {5}, {0}}, bor_n[P][2] = {{3, 4}, {3, 4}, {4}}, ext_n[P][1] = {{0}, {6}, {0}};
static int n_int_n[P] = {2, 1, 0}, n_bor_n[P] = {2, 2, 1}, n_ext_n[P] = {0, 1, 0};
static int int_e[P][1] = {{1}, {0}, {0}}, bor_e[P][1] = {{0}, {2}, {0}};
static int n_int_e[P] = {1, 0, 0}, n_bor_e[P] = {0, 1, 0};
/* Nodal maps: processor 0 has ids 5 and 7, processor 1 id 9, processor 2 id 13. */
static int n_ncm[P] = {2, 1, 1}, ncm_ids[4] = {5, 7, 9, 13}, ncm_cnt[4] = {2, 1, 2, 1}, ncm_ptr[P + 1] = {0, 2, 3, 4};
static int ncm_nodes[4][2] = {{3, 4}, {4}, {3, 4}, {4}}, ncm_procs[4][2] = {{1, 1}, {2}, {0, 0}, {0}};
/* Elemental maps: processor 1 only, id 11. */
static int n_ecm[P] = {0, 1, 0}, ecm_ids[1] = {11}, ecm_cnt[1] = {1}, ecm_ptr[P + 1] = {0, 0, 1, 1};
static int ecm_elems[1] = {2}, ecm_sides[1] = {3}, ecm_procs[1] = {0};

static int write_file(const char *path) {
  int cpu = 8, io = 8;
  const int id = ex_create(path, EX_CLOBBER, &cpu, &io);
  if (id < 0) return -1;
  const double x[6] = {0, 1, 2, 0, 1, 2}, y[6] = {0, 0, 0, 1, 1, 1};
  const int conn[8] = {1, 2, 5, 4, 2, 3, 6, 5};
  OK(ex_put_init(id, "nemesis by libexodusii", 2, 6, 2, 1, 0, 0));
  OK(ex_put_coord(id, x, y, NULL));
  OK(ex_put_elem_block(id, 10, "QUAD4", 2, 4, 0));
  OK(ex_put_elem_conn(id, 10, conn));
  char ftype[2] = "s";
  OK(ex_put_init_info(id, P, P, ftype));
  OK(ex_put_init_global(id, 6, 2, 1, 0, 0));
  int blk_id = 10, blk_cnt = 2;
  OK(ex_put_eb_info_global(id, &blk_id, &blk_cnt));
  OK(ex_put_loadbal_param_cc(id, n_int_n, n_bor_n, n_ext_n, n_int_e, n_bor_e, n_ncm, n_ecm));
  OK(ex_put_cmap_params_cc(id, ncm_ids, ncm_cnt, ncm_ptr, ecm_ids, ecm_cnt, ecm_ptr));
  for (int p = 0; p < P; ++p) {
    OK(ex_put_processor_node_maps(id, int_n[p], bor_n[p], ext_n[p], p));
    OK(ex_put_processor_elem_maps(id, int_e[p], bor_e[p], p));
    for (int m = ncm_ptr[p]; m < ncm_ptr[p + 1]; ++m) OK(ex_put_node_cmap(id, ncm_ids[m], ncm_nodes[m], ncm_procs[m], p));
    for (int m = ecm_ptr[p]; m < ecm_ptr[p + 1]; ++m) OK(ex_put_elem_cmap(id, ecm_ids[m], ecm_elems, ecm_sides, ecm_procs, p));
  }
  return ex_close(id);
}

/* The lists written above against what pario reads. */
static void check_written(pario_exodus_t ex) {
  for (int p = 0; p < P; ++p) {
    int64_t a[2] = {-1, -1}, b[2] = {-1, -1}, c[2] = {-1, -1};
    EXPECT(pario_exodus_get_node_maps(ex, p, a, b, c) == PARIO_OK, "processor %d: pario_exodus_get_node_maps failed", p);
    same("written node_mapi", p, int_n[p], a, n_int_n[p]);
    same("written node_mapb", p, bor_n[p], b, n_bor_n[p]);
    same("written node_mape", p, ext_n[p], c, n_ext_n[p]);
    for (int m = ncm_ptr[p]; m < ncm_ptr[p + 1]; ++m) {
      EXPECT(pario_exodus_get_node_cmap(ex, p, ncm_ids[m], a, b) == PARIO_OK, "processor %d: node map %d", p, ncm_ids[m]);
      same("written node map nodes", p, ncm_nodes[m], a, ncm_cnt[m]);
      same("written node map procs", p, ncm_procs[m], b, ncm_cnt[m]);
    }
  }
  int64_t e[1] = {0}, s[1] = {0}, q[1] = {-1};
  EXPECT(pario_exodus_get_elem_cmap(ex, 1, 11, e, s, q) == PARIO_OK && e[0] == 2 && s[0] == 3 && q[0] == 0,
         "processor 1: element map 11 is (%lld, %lld, %lld)", (long long)e[0], (long long)s[0], (long long)q[0]);
  /* A map id the processor does not have; a processor beyond the file's. */
  EXPECT(pario_exodus_get_node_cmap(ex, 0, 9, e, q) == PARIO_ERR_NOT_FOUND, "node map 9 of processor 0 found");
  EXPECT(pario_exodus_get_elem_maps(ex, P, NULL, NULL) == PARIO_ERR_OUT_OF_RANGE, "processor %d accepted", P);
}

int main(int argc, char **argv) {
  const int write = argc == 3 && strcmp(argv[1], "--write") == 0;
  if (argc != 2 && !write) {
    fprintf(stderr, "usage: %s [--write] FILE\n", argv[0]);
    return 2;
  }
  const char *path = argv[argc - 1];
  if (write && write_file(path) < 0) {
    fprintf(stderr, CHECKER ": writing %s with libexodusii failed\n", path);
    return 1;
  }
  int cpu = 8, io = 0;
  float version;
  const int id = ex_open(path, EX_READ, &cpu, &io, &version);
  if (id < 0) {
    fprintf(stderr, CHECKER ": ex_open(%s) failed\n", path);
    return 1;
  }
  if (pario_init() != PARIO_OK) return 1;
  pario_group_t world = NULL;
  pario_exodus_t ex = PARIO_EXODUS_NULL;
  if (pario_group_world(&world) != PARIO_OK || pario_exodus_open(world, path, NULL, &ex) != PARIO_OK) {
    char m[256];
    pario_last_error_message(m, sizeof m);
    fprintf(stderr, CHECKER ": pario could not open %s: %s\n", path, m);
    return 1;
  }
  int nproc = 0, nproc_f = 0;
  char ftype[4] = {0};
  OK(ex_get_init_info(id, &nproc, &nproc_f, ftype));
  int procs = -1;
  EXPECT(pario_exodus_get_loadbal(ex, 0, &procs, NULL) == PARIO_OK && procs == nproc,
         "pario: %d processors, libexodusii: %d", procs, nproc);
  int64_t entries = 0;
  for (int p = 0; p < nproc_f; ++p) {
    int lb[7] = {0};
    int64_t c[7] = {0};
    OK(ex_get_loadbal_param(id, &lb[0], &lb[1], &lb[2], &lb[3], &lb[4], &lb[5], &lb[6], p));
    EXPECT(pario_exodus_get_loadbal(ex, p, NULL, c) == PARIO_OK, "processor %d: pario_exodus_get_loadbal failed", p);
    same("load balance", p, lb, c, 7);
    int *want[5];
    int64_t *got[5];
    for (int k = 0; k < 5; ++k) {
      want[k] = xcalloc((size_t)lb[k] + 1, sizeof(int));
      got[k] = xcalloc((size_t)c[k] + 1, sizeof(int64_t));
    }
    OK(ex_get_processor_node_maps(id, want[0], want[1], want[2], p));
    OK(ex_get_processor_elem_maps(id, want[3], want[4], p));
    EXPECT(pario_exodus_get_node_maps(ex, p, got[0], got[1], got[2]) == PARIO_OK &&
               pario_exodus_get_elem_maps(ex, p, got[3], got[4]) == PARIO_OK,
           "processor %d: pario's node or element maps failed", p);
    static const char *names[5] = {"node_mapi", "node_mapb", "node_mape", "elem_mapi", "elem_mapb"};
    for (int k = 0; k < 5; ++k) {
      if (lb[k] == c[k]) same(names[k], p, want[k], got[k], c[k]);
      entries += c[k];
      free(want[k]);
      free(got[k]);
    }
    /* The communication maps: parameters, then each map. */
    const int nn = lb[5], ne = lb[6];
    int *n_ids = xcalloc((size_t)nn + 1, sizeof(int)), *n_cnt = xcalloc((size_t)nn + 1, sizeof(int));
    int *e_ids = xcalloc((size_t)ne + 1, sizeof(int)), *e_cnt = xcalloc((size_t)ne + 1, sizeof(int));
    int64_t *pn_ids = xcalloc((size_t)nn + 1, 8), *pn_cnt = xcalloc((size_t)nn + 1, 8);
    int64_t *pe_ids = xcalloc((size_t)ne + 1, 8), *pe_cnt = xcalloc((size_t)ne + 1, 8);
    if (nn > 0 || ne > 0) {
      OK(ex_get_cmap_params(id, nn ? n_ids : NULL, nn ? n_cnt : NULL, ne ? e_ids : NULL, ne ? e_cnt : NULL, p));
    }
    EXPECT(pario_exodus_get_cmap_params(ex, p, pn_ids, pn_cnt, pe_ids, pe_cnt) == PARIO_OK,
           "processor %d: pario_exodus_get_cmap_params failed", p);
    if (lb[5] == c[5] && lb[6] == c[6]) {
      same("nodal map ids", p, n_ids, pn_ids, nn);
      same("nodal map counts", p, n_cnt, pn_cnt, nn);
      same("elemental map ids", p, e_ids, pe_ids, ne);
      same("elemental map counts", p, e_cnt, pe_cnt, ne);
    }
    for (int m = 0; m < nn && n_cnt[m] == pn_cnt[m]; ++m) {
      int *a = xcalloc((size_t)n_cnt[m] + 1, sizeof(int)), *b = xcalloc((size_t)n_cnt[m] + 1, sizeof(int));
      int64_t *pa = xcalloc((size_t)n_cnt[m] + 1, 8), *pb = xcalloc((size_t)n_cnt[m] + 1, 8);
      OK(ex_get_node_cmap(id, n_ids[m], a, b, p));
      EXPECT(pario_exodus_get_node_cmap(ex, p, n_ids[m], pa, pb) == PARIO_OK, "processor %d: node map %d", p, n_ids[m]);
      same("node map nodes", p, a, pa, n_cnt[m]);
      same("node map processors", p, b, pb, n_cnt[m]);
      entries += 2 * n_cnt[m];
      free(a), free(b), free(pa), free(pb);
    }
    for (int m = 0; m < ne && e_cnt[m] == pe_cnt[m]; ++m) {
      const size_t n = (size_t)e_cnt[m] + 1;
      int *a = xcalloc(n, sizeof(int)), *b = xcalloc(n, sizeof(int)), *d = xcalloc(n, sizeof(int));
      int64_t *pa = xcalloc(n, 8), *pb = xcalloc(n, 8), *pd = xcalloc(n, 8);
      OK(ex_get_elem_cmap(id, e_ids[m], a, b, d, p));
      EXPECT(pario_exodus_get_elem_cmap(ex, p, e_ids[m], pa, pb, pd) == PARIO_OK, "processor %d: element map %d", p,
             e_ids[m]);
      same("element map elements", p, a, pa, e_cnt[m]);
      same("element map sides", p, b, pb, e_cnt[m]);
      same("element map processors", p, d, pd, e_cnt[m]);
      entries += 3 * e_cnt[m];
      free(a), free(b), free(d), free(pa), free(pb), free(pd);
    }
    free(n_ids), free(n_cnt), free(e_ids), free(e_cnt), free(pn_ids), free(pn_cnt), free(pe_ids), free(pe_cnt);
  }
  if (write) check_written(ex);
  ex_close(id);
  EXPECT(pario_exodus_close(&ex) == PARIO_OK, "pario_exodus_close failed");
  pario_finalize();
  if (failures == 0) {
    printf(CHECKER ": %s: %d processors, %lld list and map entries: pario reads what libexodusii reads\n", path,
           nproc_f, (long long)entries);
  }
  return failures ? 1 : 0;
}
