/* Writes the Exodus benchmark workload (../shared/exodus_workload.md, kept
 * in docs/architecture.md "Exodus") through pario's C API, every rank
 * passing only its own part:
 *   exodus_workload NX NY NZ T HEX|MIXED OUT [contiguous|cyclic [kill-at=K] [nemesis]]
 * contiguous: rank r owns cells [C*r/P, C*(r+1)/P) (at P = 4 and NZ = 4
 * some ranks hold no element of a block); cyclic: runs of 5 cells dealt
 * round-robin (every rank holds pieces of both blocks, many shared nodes).
 * Each rank passes the nodes its elements use in a scrambled order, so the
 * file's global-id order is pario's doing. Exit status 0 when every call
 * succeeded. kill-at=K: rank 0 kills itself with SIGKILL in step K, after
 * the step's nodal values (the killed-writer test, run_kill.sh). nemesis:
 * with the Nemesis load-balance information of the ranks' partition
 * (options.nemesis; checked by exodus_nemesis_check). */
#include <mpi.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pario/pario.h"

static int rank_, size_;

static void die(const char *what, int rc) {
  char msg[512];
  pario_last_error_message(msg, sizeof msg);
  fprintf(stderr, "rank %d: %s failed: %s (%s)\n", rank_, what, pario_status_string(rc), msg);
  MPI_Abort(MPI_COMM_WORLD, 1);
}
#define CALL(x)                   \
  do {                            \
    int rc_ = (x);                \
    if (rc_ != PARIO_OK) die(#x, rc_); \
  } while (0)

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}

static int cmp_scrambled(const void *a, const void *b) {
  const uint64_t x = (uint64_t)*(const int64_t *)a * 2654435761u % 4294967291u;
  const uint64_t y = (uint64_t)*(const int64_t *)b * 2654435761u % 4294967291u;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  if (argc < 7) {
    fprintf(stderr, "usage: %s NX NY NZ T HEX|MIXED OUT [contiguous|cyclic]\n", argv[0]);
    return 2;
  }
  const int64_t NX = atoi(argv[1]), NY = atoi(argv[2]), NZ = atoi(argv[3]);
  const int T = atoi(argv[4]);
  const int mixed = strcmp(argv[5], "MIXED") == 0;
  const char *out = argv[6];
  const int cyclic = argc > 7 && strcmp(argv[7], "cyclic") == 0;
  int kill_at = 0, nemesis = 0;
  for (int a = 8; a < argc; ++a) {
    if (!strncmp(argv[a], "kill-at=", 8)) kill_at = atoi(argv[a] + 8);
    if (!strcmp(argv[a], "nemesis")) nemesis = 1;
  }
  if (NX < 1 || NY < 1 || NZ < 2 || T < 0) return 2;
  CALL(pario_init());
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  pario_group_t world;
  CALL(pario_group_world(&world));

  const int64_t KB = NZ / 2, C = NX * NY * NZ, C1 = NX * NY * KB, C2 = C - C1;
  const int64_t N = (NX + 1) * (NY + 1) * (NZ + 1);
  const int64_t E1 = C1, E2 = mixed ? 6 * C2 : C2;
  static const int tet[6][4] = {{1, 2, 3, 7}, {1, 2, 7, 6}, {1, 4, 7, 3}, {1, 4, 8, 7}, {1, 5, 6, 7}, {1, 5, 7, 8}};

  /* This rank's cells. */
  int64_t *cells = xmalloc(sizeof(int64_t) * (size_t)C);
  int64_t ncells = 0;
  for (int64_t c = 0; c < C; ++c) {
    const int owner = cyclic ? (int)((c / 5) % size_) : (int)(c * size_ / C);
    if (owner == rank_) cells[ncells++] = c;
  }
  /* The HEX8 corners of a cell (0-based node indices). */
#define CORNERS(c, corner)                                                                   \
  do {                                                                                       \
    const int64_t i_ = (c) % NX, j_ = ((c) / NX) % NY, k_ = (c) / (NX * NY);                 \
    const int64_t d_[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0},                    \
                              {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};                   \
    for (int q_ = 0; q_ < 8; ++q_)                                                           \
      corner[q_] = (i_ + d_[q_][0]) + (NX + 1) * ((j_ + d_[q_][1]) + (NY + 1) * (k_ + d_[q_][2])); \
  } while (0)

  /* Nodes its elements use, scrambled. */
  char *used = calloc((size_t)N, 1);
  int64_t nnodes = 0;
  for (int64_t q = 0; q < ncells; ++q) {
    int64_t corner[8];
    CORNERS(cells[q], corner);
    for (int v = 0; v < 8; ++v) {
      if (!used[corner[v]]) {
        used[corner[v]] = 1;
        ++nnodes;
      }
    }
  }
  int64_t *nodes = xmalloc(sizeof(int64_t) * (size_t)nnodes), *node_ids = xmalloc(sizeof(int64_t) * (size_t)nnodes);
  {
    int64_t k = 0;
    for (int64_t n = 0; n < N; ++n)
      if (used[n]) nodes[k++] = n;
    qsort(nodes, (size_t)nnodes, sizeof(int64_t), cmp_scrambled);
  }
  double *x = xmalloc(sizeof(double) * (size_t)nnodes), *y = xmalloc(sizeof(double) * (size_t)nnodes),
         *z = xmalloc(sizeof(double) * (size_t)nnodes);
  int64_t *node_at = xmalloc(sizeof(int64_t) * (size_t)N); /* local index of a node */
  for (int64_t k = 0; k < nnodes; ++k) {
    const int64_t n = nodes[k], i = n % (NX + 1), j = (n / (NX + 1)) % (NY + 1), kk = n / ((NX + 1) * (NY + 1));
    node_ids[k] = 2 * (n + 1);
    x[k] = (double)i / NX;
    y[k] = (double)j / NY;
    z[k] = (double)kk / NZ;
    node_at[n] = k;
  }

  /* Elements per block: ids, connectivity (global node ids), centroids. */
  int64_t n1 = 0, n2 = 0;
  for (int64_t q = 0; q < ncells; ++q) {
    if (cells[q] < C1) ++n1;
    else n2 += mixed ? 6 : 1;
  }
  const int npe2 = mixed ? 4 : 8;
  int64_t *ids1 = xmalloc(sizeof(int64_t) * (size_t)n1), *conn1 = xmalloc(sizeof(int64_t) * 8 * (size_t)n1);
  int64_t *ids2 = xmalloc(sizeof(int64_t) * (size_t)n2), *conn2 = xmalloc(sizeof(int64_t) * (size_t)npe2 * (size_t)n2);
  double *cen1 = xmalloc(sizeof(double) * 3 * (size_t)n1), *cen2 = xmalloc(sizeof(double) * 3 * (size_t)n2);
  int64_t *ss_elems = xmalloc(sizeof(int64_t) * (size_t)(n1 + 1));
  int64_t nss = 0;
  {
    int64_t a = 0, b = 0;
    for (int64_t q = 0; q < ncells; ++q) {
      const int64_t c = cells[q];
      int64_t corner[8];
      CORNERS(c, corner);
      if (c < C1) {
        ids1[a] = 2 * (c + 1);
        double s[3] = {0, 0, 0};
        for (int v = 0; v < 8; ++v) {
          conn1[a * 8 + v] = 2 * (corner[v] + 1);
          const int64_t l = node_at[corner[v]];
          s[0] += x[l];
          s[1] += y[l];
          s[2] += z[l];
        }
        for (int d = 0; d < 3; ++d) cen1[a * 3 + d] = s[d] / 8;
        if (c < NX * NY) ss_elems[nss++] = ids1[a];
        ++a;
      } else {
        const int per = mixed ? 6 : 1;
        for (int t = 0; t < per; ++t) {
          const int64_t e = E1 + (c - C1) * per + t;
          ids2[b] = 2 * (e + 1);
          double s[3] = {0, 0, 0};
          for (int v = 0; v < npe2; ++v) {
            const int64_t node = mixed ? corner[tet[t][v] - 1] : corner[v];
            conn2[b * npe2 + v] = 2 * (node + 1);
            const int64_t l = node_at[node];
            s[0] += x[l];
            s[1] += y[l];
            s[2] += z[l];
          }
          for (int d = 0; d < 3; ++d) cen2[b * 3 + d] = s[d] / npe2;
          ++b;
        }
      }
    }
  }
  /* Node set x0: its nodes with i = 0 (shared ones passed by several ranks). */
  int64_t *ns = xmalloc(sizeof(int64_t) * (size_t)(nnodes + 1)), nns = 0;
  for (int64_t k = 0; k < nnodes; ++k)
    if (nodes[k] % (NX + 1) == 0) ns[nns++] = node_ids[k];
  int *sides = xmalloc(sizeof(int) * (size_t)(nss + 1));
  for (int64_t k = 0; k < nss; ++k) sides[k] = 5;

  char title[128], info[128];
  snprintf(title, sizeof title, "pario-exodus-workload %s %lldx%lldx%lld T=%d", mixed ? "MIXED" : "HEX", (long long)NX,
           (long long)NY, (long long)NZ, T);
  snprintf(info, sizeof info, "generator=pario-exodus-v1 nx=%lld ny=%lld nz=%lld T=%d variant=%s", (long long)NX,
           (long long)NY, (long long)NZ, T, mixed ? "MIXED" : "HEX");
  const char *qa[4] = {"pario", "1", "2024-01-01", "00:00:00"};
  const char *infos[1] = {info};
  const char *coord_names[3] = {"x", "y", "z"};
  const char *gnames[1] = {"energy"}, *nnames[2] = {"temperature", "displacement_x"}, *enames[1] = {"stress"};
  const int truth[2] = {1, 1};

  pario_exodus_t ex = PARIO_EXODUS_NULL;
  pario_exodus_options options;
  pario_exodus_options_init(&options);
  options.nemesis = nemesis;
  CALL(pario_exodus_create(world, out, &options, &ex));
  CALL(pario_exodus_init(ex, title, 3, N, E1 + E2, 2, 1, 1));
  CALL(pario_exodus_put_coord_names(ex, coord_names));
  CALL(pario_exodus_define_block(ex, 10, "lower", "HEX8", E1, 8, 0));
  CALL(pario_exodus_define_block(ex, 20, "upper", mixed ? "TETRA4" : "HEX8", E2, npe2, 0));
  CALL(pario_exodus_define_node_set(ex, 100, "x0", (NY + 1) * (NZ + 1), 0));
  CALL(pario_exodus_define_side_set(ex, 200, "z0", NX * NY, 0));
  CALL(pario_exodus_put_qa(ex, 1, qa));
  CALL(pario_exodus_put_info(ex, 1, infos));
  CALL(pario_exodus_define_variables(ex, PARIO_EXODUS_GLOBAL, 1, gnames));
  CALL(pario_exodus_define_variables(ex, PARIO_EXODUS_NODAL, 2, nnames));
  CALL(pario_exodus_define_variables(ex, PARIO_EXODUS_ELEMENT, 1, enames));
  CALL(pario_exodus_put_truth_table(ex, 2, 1, truth));
  CALL(pario_exodus_end_define(ex));
  CALL(pario_exodus_put_nodes(ex, nnodes, node_ids, PARIO_TYPE_DOUBLE, x, y, z));
  CALL(pario_exodus_put_block(ex, 10, n1, ids1, conn1));
  CALL(pario_exodus_put_block(ex, 20, n2, ids2, conn2));
  CALL(pario_exodus_put_node_set(ex, 100, nns, ns, PARIO_TYPE_DOUBLE, NULL));
  CALL(pario_exodus_put_side_set(ex, 200, nss, ss_elems, sides, PARIO_TYPE_DOUBLE, NULL));

  double *temp = xmalloc(sizeof(double) * (size_t)nnodes), *disp = xmalloc(sizeof(double) * (size_t)nnodes);
  double *s1 = xmalloc(sizeof(double) * (size_t)n1), *s2 = xmalloc(sizeof(double) * (size_t)n2);
  for (int s = 1; s <= T; ++s) {
    const double t = 0.25 * s, energy = t * t;
    CALL(pario_exodus_put_time(ex, s, t));
    CALL(pario_exodus_put_global_values(ex, s, 1, PARIO_TYPE_DOUBLE, &energy));
    for (int64_t k = 0; k < nnodes; ++k) {
      temp[k] = 300 + 10 * x[k] + 20 * y[k] + 30 * z[k] + t;
      disp[k] = 0.001 * t * (1 + x[k] + y[k] * z[k]);
    }
    CALL(pario_exodus_put_nodal_values(ex, s, 1, PARIO_TYPE_DOUBLE, temp));
    CALL(pario_exodus_put_nodal_values(ex, s, 2, PARIO_TYPE_DOUBLE, disp));
    if (s == kill_at && rank_ == 0) {
      fflush(stdout);
      raise(SIGKILL);
    }
    for (int64_t e = 0; e < n1; ++e) s1[e] = 1000 + cen1[3 * e] + 2 * cen1[3 * e + 1] + 3 * cen1[3 * e + 2] + t;
    for (int64_t e = 0; e < n2; ++e) s2[e] = 1000 + cen2[3 * e] + 2 * cen2[3 * e + 1] + 3 * cen2[3 * e + 2] + t;
    CALL(pario_exodus_put_element_values(ex, s, 1, 10, PARIO_TYPE_DOUBLE, s1));
    CALL(pario_exodus_put_element_values(ex, s, 1, 20, PARIO_TYPE_DOUBLE, s2));
  }
  CALL(pario_exodus_close(&ex));
  if (rank_ == 0) printf("exodus_workload: wrote %s (%lld nodes, %lld elements, %d steps) on %d ranks\n", out,
                         (long long)N, (long long)(E1 + E2), T, size_);
  free(cells); free(used); free(nodes); free(node_ids); free(x); free(y); free(z); free(node_at);
  free(ids1); free(conn1); free(ids2); free(conn2); free(cen1); free(cen2); free(ss_elems); free(ns);
  free(sides); free(temp); free(disp); free(s1); free(s2);
  CALL(pario_finalize());
  return 0;
}
