/* MFDn's I/O phase with real numerics (issue 26; the seed's sections 1.3-4).
 *
 *   mfdn solve FILE [DIM] [NEV]   Lanczos on P ranks, vectors to FILE
 *   mfdn check FILE               read back on M ranks, residuals, observables
 *
 * The Hamiltonian is a sparse symmetric matrix H = Q diag(lambda) Q^T of
 * dimension DIM with a known spectrum: Q is two layers of Givens rotations
 * (pairs (2m, 2m+1), then (i, i + DIM/2)), so each row of H has at most 16
 * nonzeros and its eigenvalues are exactly lambda, scattered over the
 * diagonal by a permutation. The lowest NEV (15) eigenvalues are -60, -57.5,
 * ..., the rest spread over [-15, 60]. Rows are distributed in contiguous
 * slices (pario_dataset_even_split), as MFDn distributes its basis.
 *
 * solve: Lanczos with full reorthogonalisation (classical Gram-Schmidt,
 * twice) from a fixed start vector, the tridiagonal matrix diagonalised by
 * LAPACK's dstev every 10 steps until the NEV lowest Ritz pairs have
 * residual estimates below 1e-9 |lambda|max; the Ritz vectors are written
 * to a pario wave-function file (each rank its slice), with the basis
 * description; then the seed's baseline writes the same vectors (every
 * rank sends its slice to rank 0, which pwrites raw binary). Both times and
 * costs (ranks x seconds) are printed.
 *
 * check: opens the file on any number of ranks, reads each vector slice by
 * slice, computes the Rayleigh quotient (the energy), the residual
 * |H y - E y|, orthonormality max |y_i . y_j - delta_ij|, compares the
 * energies with the known spectrum, computes the "observables" J and T the
 * way MFDn does (expectation values of J^2 and T^2, solved from J(J+1)):
 * here J^2 and T^2 are diagonal stand-in operators, documented in the
 * README, since the matrix is synthetic; and writes E, J, T into the
 * attributes reserved for them. Then the baseline read: rank 0 reads the
 * raw file and scatters the slices. Exit status 1 on any failed check. */
#include <fcntl.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pario/pario.h"

/* LAPACK: eigenvalues and vectors of a symmetric tridiagonal matrix. */
void dstev_(const char *jobz, const int *n, double *d, double *e, double *z, const int *ldz, double *work, int *info);

static int rank, nranks;

#define DIE_IF(cond, ...)                                 \
  do {                                                    \
    if (cond) {                                           \
      fprintf(stderr, "mfdn rank %d: ", rank);            \
      fprintf(stderr, __VA_ARGS__);                       \
      fprintf(stderr, "\n");                              \
      MPI_Abort(MPI_COMM_WORLD, 1);                       \
    }                                                     \
  } while (0)

static void pario_ok(int rc, const char *what) {
  if (rc == PARIO_OK) return;
  char m[512];
  pario_last_error_message(m, sizeof m);
  DIE_IF(1, "%s: %s: %s", what, pario_status_string(rc), m);
}

/* ---- the matrix ---- */

static int64_t dim, half;
static const int64_t kStride = 7919; /* the permutation's step, coprime to DIM (checked) */

/* The eigenvalue at diagonal position k (a permutation of the spectrum). */
static double lambda_at(int64_t k, int nev) {
  const int64_t m = (k * kStride) % dim;
  if (m < nev) return -60.0 + 2.5 * (double)m;
  return -15.0 + 75.0 * (double)(m - nev) / (double)(dim - nev);
}
static double known_eigenvalue(int m) { return -60.0 + 2.5 * m; }

static double angle1(int64_t m) { return 0.3 + 0.7 * sin(0.37 * (double)m); }
static double angle2(int64_t i) { return 0.2 + 0.9 * cos(0.11 * (double)i); }

typedef struct {
  int64_t at;
  double v;
} entry;

/* Row i of a rotation layer: G1 pairs (2m, 2m+1), G2 pairs (i, i+half).
 * Rotation rows: [c -s; s c]. transpose: the layer's transpose. */
static int layer_row(int layer, int transpose, int64_t i, entry out[2]) {
  int64_t lo, hi;
  double a;
  if (layer == 1) {
    lo = i & ~(int64_t)1;
    hi = lo + 1;
    a = angle1(lo / 2);
  } else {
    lo = i < half ? i : i - half;
    hi = lo + half;
    a = angle2(lo);
  }
  const double c = cos(a), s = transpose ? -sin(a) : sin(a);
  if (i == lo) {
    out[0] = (entry){lo, c};
    out[1] = (entry){hi, -s};
  } else {
    out[0] = (entry){lo, s};
    out[1] = (entry){hi, c};
  }
  return 2;
}

/* Row i of Q = G2 G1 (transpose 0) or of Q^T = G1^T G2^T (transpose 1). */
static int q_row(int transpose, int64_t i, entry out[4]) {
  entry first[2], second[2];
  layer_row(transpose ? 1 : 2, transpose, i, first);
  int n = 0;
  for (int a = 0; a < 2; ++a) {
    layer_row(transpose ? 2 : 1, transpose, first[a].at, second);
    for (int b = 0; b < 2; ++b) out[n++] = (entry){second[b].at, first[a].v * second[b].v};
  }
  return n;
}

static int by_column(const void *a, const void *b) {
  const int64_t x = ((const entry *)a)->at, y = ((const entry *)b)->at;
  return (x > y) - (x < y);
}

/* Row i of H = Q diag(lambda) Q^T: sum over k of Q_ik lambda_k Q_jk. */
static int h_row(int64_t i, int nev, entry out[16]) {
  entry qi[4], qk[4];
  int n = 0;
  const int ni = q_row(0, i, qi);
  for (int a = 0; a < ni; ++a) {
    const int64_t k = qi[a].at;
    const double w = qi[a].v * lambda_at(k, nev);
    const int nk = q_row(1, k, qk); /* row k of Q^T: the Q_jk */
    for (int b = 0; b < nk; ++b) out[n++] = (entry){qk[b].at, w * qk[b].v};
  }
  qsort(out, (size_t)n, sizeof *out, by_column);
  int m = 0;
  for (int a = 0; a < n; ++a) {
    if (m > 0 && out[m - 1].at == out[a].at) out[m - 1].v += out[a].v;
    else out[m++] = out[a];
  }
  return m;
}

/* This rank's rows in CSR form. */
typedef struct {
  int64_t start, count;
  int64_t *ptr, *col;
  double *val;
  int *counts, *displs; /* every rank's slice, for the allgather */
  double *full;         /* the whole vector x, gathered for each product */
} matrix;

static matrix make_matrix(int nev) {
  matrix h;
  pario_ok(pario_dataset_even_split(dim, nranks, rank, &h.start, &h.count), "even_split");
  h.ptr = malloc((size_t)(h.count + 1) * sizeof *h.ptr);
  h.col = malloc((size_t)(h.count * 16 + 1) * sizeof *h.col);
  h.val = malloc((size_t)(h.count * 16 + 1) * sizeof *h.val);
  h.counts = malloc((size_t)nranks * sizeof(int));
  h.displs = malloc((size_t)nranks * sizeof(int));
  h.full = malloc((size_t)dim * sizeof(double));
  DIE_IF(!h.ptr || !h.col || !h.val || !h.counts || !h.displs || !h.full, "out of memory");
  h.ptr[0] = 0;
  for (int64_t r = 0; r < h.count; ++r) {
    entry e[16];
    const int n = h_row(h.start + r, nev, e);
    for (int a = 0; a < n; ++a) {
      h.col[h.ptr[r] + a] = e[a].at;
      h.val[h.ptr[r] + a] = e[a].v;
    }
    h.ptr[r + 1] = h.ptr[r] + n;
  }
  for (int q = 0; q < nranks; ++q) {
    int64_t s, c;
    pario_dataset_even_split(dim, nranks, q, &s, &c);
    h.counts[q] = (int)c;
    h.displs[q] = (int)s;
  }
  return h;
}

static void free_matrix(matrix *h) {
  free(h->ptr);
  free(h->col);
  free(h->val);
  free(h->counts);
  free(h->displs);
  free(h->full);
}

/* y = H x on this rank's rows (x and y: this rank's slices). */
static void multiply(matrix *h, const double *x, double *y) {
  MPI_Allgatherv(x, (int)h->count, MPI_DOUBLE, h->full, h->counts, h->displs, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int64_t r = 0; r < h->count; ++r) {
    double s = 0;
    for (int64_t a = h->ptr[r]; a < h->ptr[r + 1]; ++a) s += h->val[a] * h->full[h->col[a]];
    y[r] = s;
  }
}

static double dot(const double *a, const double *b, int64_t n) {
  double s = 0, all = 0;
  for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
  MPI_Allreduce(&s, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

static pario_wavefunction_basis_t the_basis(void) {
  /* A stand-in 6Li basis: Z = N = 3, N_max 6, positive parity, M_J = 0. */
  pario_wavefunction_basis_t b = {dim, 3, 3, 6, 1, 0, 20.0};
  return b;
}

/* ---- solve ---- */

/* The Lanczos vectors V (m x n, this rank's slices) and the tridiagonal
 * matrix's diagonal a and off-diagonal b. Returns the steps taken; the
 * Ritz vectors' coefficients in z (steps x steps), the Ritz values in w. */
static int lanczos(matrix *h, int nev, int max_steps, double *v, double *w, double *z) {
  const int64_t n = h->count;
  double *a = calloc((size_t)max_steps, sizeof *a), *b = calloc((size_t)max_steps, sizeof *b);
  double *r = malloc((size_t)(n ? n : 1) * sizeof *r), *c = malloc((size_t)max_steps * sizeof *c);
  double *cl = malloc((size_t)max_steps * sizeof *cl), *e = malloc((size_t)max_steps * sizeof *e);
  double *work = malloc((size_t)(2 * max_steps) * sizeof *work);
  DIE_IF(!a || !b || !r || !c || !cl || !e || !work, "out of memory");
  for (int64_t i = 0; i < n; ++i) v[i] = 1.0 + 0.5 * sin(0.7 * (double)(h->start + i));
  double norm = sqrt(dot(v, v, n));
  for (int64_t i = 0; i < n; ++i) v[i] /= norm;
  int steps = 0;
  for (int j = 0; j < max_steps; ++j) {
    double *vj = v + (int64_t)j * n;
    multiply(h, vj, r);
    a[j] = dot(vj, r, n);
    /* Full reorthogonalisation against every Lanczos vector, twice. */
    for (int pass = 0; pass < 2; ++pass) {
      for (int k = 0; k <= j; ++k) {
        double s = 0;
        const double *vk = v + (int64_t)k * n;
        for (int64_t i = 0; i < n; ++i) s += vk[i] * r[i];
        cl[k] = s;
      }
      MPI_Allreduce(cl, c, j + 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
      for (int k = 0; k <= j; ++k) {
        const double *vk = v + (int64_t)k * n;
        for (int64_t i = 0; i < n; ++i) r[i] -= c[k] * vk[i];
      }
    }
    b[j] = sqrt(dot(r, r, n));
    steps = j + 1;
    if (steps >= nev && (steps % 10 == 0 || steps == max_steps || b[j] < 1e-12)) {
      /* Ritz pairs of T_steps; converged when |b_j z_{last,i}| is small. */
      const int ldz = steps;
      int info = 0;
      memcpy(w, a, (size_t)steps * sizeof *w);
      memcpy(e, b, (size_t)(steps - 1) * sizeof *e);
      dstev_("V", &steps, w, e, z, &ldz, work, &info);
      DIE_IF(info != 0, "dstev failed: info %d", info);
      int converged = 1;
      for (int i = 0; i < nev; ++i) converged &= fabs(b[j] * z[(int64_t)i * steps + steps - 1]) < 1e-9 * 60.0;
      if (converged || b[j] < 1e-12) break;
    }
    if (j + 1 < max_steps) {
      double *next = v + (int64_t)(j + 1) * n;
      for (int64_t i = 0; i < n; ++i) next[i] = r[i] / b[j];
    }
  }
  free(a);
  free(b);
  free(r);
  free(c);
  free(cl);
  free(e);
  free(work);
  return steps;
}

/* The seed's baseline: every rank sends its slice to rank 0, which writes
 * the vectors one after another as raw doubles with pwrite. */
static double baseline_write(const char *path, matrix *h, double *const *y, int nev, int sync) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  double *all = rank == 0 ? malloc((size_t)dim * sizeof *all) : NULL;
  int fd = -1;
  if (rank == 0) {
    DIE_IF(!all, "out of memory");
    fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
    DIE_IF(fd < 0, "%s: cannot create", path);
  }
  for (int k = 0; k < nev; ++k) {
    MPI_Gatherv(y[k], (int)h->count, MPI_DOUBLE, all, h->counts, h->displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      const size_t bytes = (size_t)dim * sizeof(double);
      DIE_IF(pwrite(fd, all, bytes, (off_t)k * (off_t)bytes) != (ssize_t)bytes, "%s: short write", path);
    }
  }
  if (rank == 0) {
    if (sync) fdatasync(fd);
    close(fd);
    free(all);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return MPI_Wtime() - t0;
}

static double baseline_read(const char *path, matrix *h, double *y, int nev) {
  MPI_Barrier(MPI_COMM_WORLD);
  const double t0 = MPI_Wtime();
  double *all = rank == 0 ? malloc((size_t)dim * sizeof *all) : NULL;
  int fd = rank == 0 ? open(path, O_RDONLY) : -1;
  DIE_IF(rank == 0 && (fd < 0 || !all), "%s: cannot open", path);
  for (int k = 0; k < nev; ++k) {
    if (rank == 0) {
      const size_t bytes = (size_t)dim * sizeof(double);
      DIE_IF(pread(fd, all, bytes, (off_t)k * (off_t)bytes) != (ssize_t)bytes, "%s: short read", path);
    }
    MPI_Scatterv(all, h->counts, h->displs, MPI_DOUBLE, y, (int)h->count, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  }
  if (rank == 0) {
    close(fd);
    free(all);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return MPI_Wtime() - t0;
}

static void raw_name(char *buf, size_t len, const char *path) { snprintf(buf, len, "%s.raw", path); }

static void print_times(const char *what, double pario_s, double base_s) {
  if (rank != 0) return;
  printf("%s on %d ranks: pario %.4f s (cost %.4f rank-s), root-gather baseline %.4f s (cost %.4f rank-s): "
         "pario %.3gx the baseline's speed\n",
         what, nranks, pario_s, nranks * pario_s, base_s, nranks * base_s, base_s / pario_s);
}

static int solve(const char *path, int nev) {
  pario_group_t world;
  pario_ok(pario_group_world(&world), "group_world");
  matrix h = make_matrix(nev);
  const int max_steps = (int)(dim < 400 ? dim : 400);
  double *v = malloc((size_t)max_steps * (size_t)(h.count ? h.count : 1) * sizeof *v);
  double *w = malloc((size_t)max_steps * sizeof *w), *z = malloc((size_t)max_steps * max_steps * sizeof *z);
  DIE_IF(!v || !w || !z, "out of memory (Lanczos vectors)");
  double t0 = MPI_Wtime();
  const int steps = lanczos(&h, nev, max_steps, v, w, z);
  const double t_lanczos = MPI_Wtime() - t0;
  /* Ritz vectors y_i = V z_i, this rank's slices. */
  double **y = malloc((size_t)nev * sizeof *y);
  for (int i = 0; i < nev; ++i) {
    y[i] = calloc((size_t)(h.count ? h.count : 1), sizeof **y);
    for (int j = 0; j < steps; ++j) {
      const double c = z[(int64_t)i * steps + j];
      const double *vj = v + (int64_t)j * h.count;
      for (int64_t r = 0; r < h.count; ++r) y[i][r] += c * vj[r];
    }
  }
  if (rank == 0) {
    printf("Lanczos: dimension %lld on %d ranks, %d steps, %.3f s; lowest %d Ritz values:", (long long)dim, nranks,
           steps, t_lanczos, nev);
    for (int i = 0; i < nev; ++i) printf(" %.6f", w[i]);
    printf("\n");
  }
  int bad = 0;
  for (int i = 0; i < nev; ++i) bad |= fabs(w[i] - known_eigenvalue(i)) > 1e-8;
  DIE_IF(bad, "the Ritz values are not the known spectrum");

  /* The wave-function file: each rank writes its slice of every vector. */
  const pario_wavefunction_basis_t basis = the_basis();
  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  pario_wavefunction_t wf = PARIO_WAVEFUNCTION_NULL;
  pario_ok(pario_wavefunction_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &basis, nev,
                                     PARIO_WF_TRANSFER_DEFAULT, &wf),
           "wavefunction_create");
  for (int i = 0; i < nev; ++i) pario_ok(pario_wavefunction_write(wf, i, h.start, h.count, y[i]), "wavefunction_write");
  pario_ok(pario_wavefunction_close(&wf), "wavefunction_close");
  MPI_Barrier(MPI_COMM_WORLD);
  const double t_pario = MPI_Wtime() - t0;
  char raw[1100];
  raw_name(raw, sizeof raw, path);
  const double t_base = baseline_write(raw, &h, y, nev, 0);
  print_times("write (page cache)", t_pario, t_base);
  for (int i = 0; i < nev; ++i) free(y[i]);
  free(y);
  free(v);
  free(w);
  free(z);
  free_matrix(&h);
  return 0;
}

/* ---- check ---- */

/* Stand-in observables (README): diagonal J^2 and T^2 operators whose
 * value on basis state k is j(j+1) and t(t+1) for a j and t read off k. */
static double j2_at(int64_t k) {
  const double j = (double)(k % 4);
  return j * (j + 1);
}
static double t2_at(int64_t k) {
  const double t = (double)(k % 3 == 0);
  return t * (t + 1);
}
static double from_square(double x2) { return 0.5 * (-1.0 + sqrt(1.0 + 4.0 * x2)); }

static int check(const char *path) {
  pario_group_t world;
  pario_ok(pario_group_world(&world), "group_world");
  pario_wavefunction_t wf = PARIO_WAVEFUNCTION_NULL;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  pario_ok(pario_wavefunction_open(world, path, PARIO_MODE_RDWR, PARIO_WF_TRANSFER_DEFAULT, &wf), "wavefunction_open");
  pario_wavefunction_basis_t basis;
  int nev = 0;
  pario_ok(pario_wavefunction_info(wf, &basis, &nev, NULL), "wavefunction_info");
  dim = basis.dimension;
  half = dim / 2;
  matrix h = make_matrix(nev);
  double **y = malloc((size_t)nev * sizeof *y);
  for (int i = 0; i < nev; ++i) {
    y[i] = malloc((size_t)(h.count ? h.count : 1) * sizeof **y);
    pario_ok(pario_wavefunction_read(wf, i, h.start, h.count, y[i]), "wavefunction_read");
  }
  MPI_Barrier(MPI_COMM_WORLD);
  const double t_read = MPI_Wtime() - t0;
  double *hy = malloc((size_t)(h.count ? h.count : 1) * sizeof *hy);
  double *observed = malloc((size_t)nev * 3 * sizeof *observed); /* E, J, T of each state */
  double worst_residual = 0, worst_orth = 0, worst_energy = 0;
  for (int i = 0; i < nev; ++i) {
    multiply(&h, y[i], hy);
    const double e = dot(y[i], hy, h.count);
    for (int64_t r = 0; r < h.count; ++r) hy[r] -= e * y[i][r];
    const double res = sqrt(dot(hy, hy, h.count));
    for (int k = 0; k <= i; ++k) {
      const double o = fabs(dot(y[i], y[k], h.count) - (i == k ? 1.0 : 0.0));
      if (o > worst_orth) worst_orth = o;
    }
    double j2 = 0, t2 = 0, l[2], g[2];
    for (int64_t r = 0; r < h.count; ++r) {
      const double p = y[i][r] * y[i][r];
      j2 += p * j2_at(h.start + r);
      t2 += p * t2_at(h.start + r);
    }
    l[0] = j2;
    l[1] = t2;
    MPI_Allreduce(l, g, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    const double j = from_square(g[0]), t = from_square(g[1]);
    pario_ok(pario_wavefunction_set_observables(wf, i, e, j, t), "wavefunction_set_observables");
    observed[3 * i] = e;
    observed[3 * i + 1] = j;
    observed[3 * i + 2] = t;
    if (rank == 0) printf("state %2d: E = %12.8f (known %9.4f)  |H y - E y| = %.2e  J = %.4f  T = %.4f\n", i, e,
                          known_eigenvalue(i), res, j, t);
    if (res > worst_residual) worst_residual = res;
    if (fabs(e - known_eigenvalue(i)) > worst_energy) worst_energy = fabs(e - known_eigenvalue(i));
  }
  pario_ok(pario_wavefunction_close(&wf), "wavefunction_close");
  /* The observables landed in the reserved attributes: opened again. */
  int stored = 1;
  pario_ok(pario_wavefunction_open(world, path, PARIO_MODE_READ, PARIO_WF_TRANSFER_DEFAULT, &wf), "wavefunction_open");
  for (int i = 0; i < nev; ++i) {
    double e, j, t;
    int written = 0;
    pario_ok(pario_wavefunction_observables(wf, i, &e, &j, &t, &written), "wavefunction_observables");
    stored &= written && e == observed[3 * i] && j == observed[3 * i + 1] && t == observed[3 * i + 2];
  }
  pario_ok(pario_wavefunction_close(&wf), "wavefunction_close");
  free(observed);
  char raw[1100];
  raw_name(raw, sizeof raw, path);
  const double t_base = baseline_read(raw, &h, hy, nev);
  /* The baseline's file holds the same vectors: compare the last one. */
  int same = 1, all_same = 0;
  for (int64_t r = 0; r < h.count; ++r) same &= hy[r] == y[nev - 1][r];
  MPI_Allreduce(&same, &all_same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  print_times("read (page cache)", t_read, t_base);
  const int ok = worst_residual < 1e-6 && worst_orth < 1e-10 && worst_energy < 1e-8 && all_same && stored;
  if (rank == 0) {
    printf("check on %d ranks: max residual %.2e, max |y_i.y_j - delta_ij| %.2e, max |E - known| %.2e, "
           "baseline file %s, observables %s: %s\n",
           nranks, worst_residual, worst_orth, worst_energy, all_same ? "identical" : "DIFFERS",
           stored ? "stored" : "NOT STORED", ok ? "OK" : "FAILED");
  }
  for (int i = 0; i < nev; ++i) free(y[i]);
  free(y);
  free(hy);
  free_matrix(&h);
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  pario_ok(pario_init(), "init");
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  if (argc < 3 || (strcmp(argv[1], "solve") && strcmp(argv[1], "check"))) {
    if (rank == 0) fprintf(stderr, "usage: mfdn solve FILE [DIM] [NEV] | mfdn check FILE\n");
    pario_finalize();
    return 2;
  }
  if (!pario_dataset_supported()) {
    if (rank == 0) fprintf(stderr, "mfdn: this pario has no parallel HDF5\n");
    pario_finalize();
    return 77;
  }
  int rc;
  if (!strcmp(argv[1], "solve")) {
    dim = argc > 3 ? atoll(argv[3]) : 20000;
    const int nev = argc > 4 ? atoi(argv[4]) : 15;
    DIE_IF(dim < 64 || dim % 2 != 0 || dim % kStride == 0 || dim > INT32_MAX, "DIM must be even, >= 64, < 2^31");
    DIE_IF(nev < 1 || nev > 30 || nev * 4 > dim, "NEV must be 1..30 and small beside DIM");
    half = dim / 2;
    rc = solve(argv[2], nev);
  } else {
    rc = check(argv[2]);
  }
  pario_ok(pario_finalize(), "finalize");
  return rc;
}
