/* bench/exodus/workload.h: the HEX workload of ../shared/exodus_workload.md
 * (docs/architecture.md, "Exodus II files") as formulas, shared by every
 * writer of bench/exodus/exodus_bench.c, so pario and each peer write the
 * same values from the same code. Header-only C99; no I/O, no MPI.
 *
 * A rank's part (the decomposition for peers): elements [E*r/P, E*(r+1)/P)
 * (HEX: element index = cell index) and, for writers to one shared file,
 * nodes [N*r/P, N*(r+1)/P); a file-per-rank piece takes the nodes its
 * elements use instead (exo_used_nodes). */
#ifndef PARIO_BENCH_EXODUS_WORKLOAD_H
#define PARIO_BENCH_EXODUS_WORKLOAD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct exo_workload {
  int64_t nx, ny, nz; /* cells per axis (nz >= 2) */
  int steps;          /* T */
  int64_t kb;         /* NZ / 2: the first cell layer of block 2 */
  int64_t cells;      /* = elements (HEX) */
  int64_t cells1;     /* block 1 (k < kb) */
  int64_t nodes;
} exo_workload;

static inline exo_workload exo_workload_make(int64_t nx, int64_t ny, int64_t nz, int steps) {
  exo_workload w = {nx, ny, nz, steps, nz / 2, nx * ny * nz, nx * ny * (nz / 2), (nx + 1) * (ny + 1) * (nz + 1)};
  return w;
}

/* [lo, hi) of n things dealt to rank r of p. */
static inline void exo_range(int64_t n, int r, int p, int64_t *lo, int64_t *hi) {
  *lo = n * r / p;
  *hi = n * (r + 1) / p;
}

/* The 8 HEX8 corners of cell c, Exodus order, 0-based node indices. */
static inline void exo_corners(const exo_workload *w, int64_t c, int64_t corner[8]) {
  static const int d[8][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}};
  const int64_t i = c % w->nx, j = (c / w->nx) % w->ny, k = c / (w->nx * w->ny);
  for (int q = 0; q < 8; ++q) corner[q] = (i + d[q][0]) + (w->nx + 1) * ((j + d[q][1]) + (w->ny + 1) * (k + d[q][2]));
}

/* Node n's coordinates (one IEEE division each). */
static inline void exo_coord(const exo_workload *w, int64_t n, double p[3]) {
  p[0] = (double)(n % (w->nx + 1)) / w->nx;
  p[1] = (double)((n / (w->nx + 1)) % (w->ny + 1)) / w->ny;
  p[2] = (double)(n / ((w->nx + 1) * (w->ny + 1))) / w->nz;
}

static inline double exo_time(int step) { return 0.25 * step; }
static inline double exo_temperature(const double p[3], double t) { return 300 + 10 * p[0] + 20 * p[1] + 30 * p[2] + t; }
static inline double exo_displacement(const double p[3], double t) { return 0.001 * t * (1 + p[0] + p[1] * p[2]); }

/* Nodal variable var (1 temperature, 2 displacement_x) at n nodes. */
static inline void exo_nodal_values(int var, int64_t n, const double *x, const double *y, const double *z, double t,
                                    double *out) {
  for (int64_t k = 0; k < n; ++k) {
    const double p[3] = {x[k], y[k], z[k]};
    out[k] = var == 1 ? exo_temperature(p, t) : exo_displacement(p, t);
  }
}

/* Cell c's centroid, summed in connectivity order. */
static inline void exo_centroid(const exo_workload *w, int64_t c, double cen[3]) {
  int64_t corner[8];
  exo_corners(w, c, corner);
  double s[3] = {0, 0, 0};
  for (int q = 0; q < 8; ++q) {
    double p[3];
    exo_coord(w, corner[q], p);
    s[0] += p[0];
    s[1] += p[1];
    s[2] += p[2];
  }
  for (int d = 0; d < 3; ++d) cen[d] = s[d] / 8;
}
static inline double exo_stress(const double cen[3], double t) { return 1000 + cen[0] + 2 * cen[1] + 3 * cen[2] + t; }

/* The title and the info record. */
static inline void exo_title(const exo_workload *w, char *title, size_t title_len, char *info, size_t info_len) {
  snprintf(title, title_len, "pario-exodus-workload HEX %lldx%lldx%lld T=%d", (long long)w->nx, (long long)w->ny,
           (long long)w->nz, w->steps);
  snprintf(info, info_len, "generator=pario-exodus-v1 nx=%lld ny=%lld nz=%lld T=%d variant=HEX", (long long)w->nx,
           (long long)w->ny, (long long)w->nz, w->steps);
}

/* The nodes cells [c0, c1) use, ascending (0-based); *count set. The
 * caller frees. A contiguous cell range touches a contiguous node range,
 * so the marks cover that range only, never the whole mesh. */
static inline int64_t *exo_used_nodes(const exo_workload *w, int64_t c0, int64_t c1, int64_t *count) {
  *count = 0;
  if (c1 <= c0) return (int64_t *)malloc(sizeof(int64_t));
  int64_t first[8], last[8];
  exo_corners(w, c0, first);
  exo_corners(w, c1 - 1, last);
  const int64_t lo = first[0], hi = last[6] + 1;
  char *mark = (char *)calloc((size_t)(hi - lo), 1);
  int64_t n = 0;
  for (int64_t c = c0; c < c1; ++c) {
    int64_t corner[8];
    exo_corners(w, c, corner);
    for (int q = 0; q < 8; ++q)
      if (!mark[corner[q] - lo]) mark[corner[q] - lo] = 1, ++n;
  }
  int64_t *out = (int64_t *)malloc(sizeof(int64_t) * (size_t)(n ? n : 1)), k = 0;
  for (int64_t v = lo; v < hi; ++v)
    if (mark[v - lo]) out[k++] = v;
  free(mark);
  *count = n;
  return out;
}

#endif /* PARIO_BENCH_EXODUS_WORKLOAD_H */
