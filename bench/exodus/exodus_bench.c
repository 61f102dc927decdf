/* bench/run exodus (issue 27): one write of the HEX workload of
 * ../shared/exodus_workload.md (bench/exodus/workload.h) by one writer,
 * timed from create to the file's data on disk (fdatasync included):
 *   exodus_bench --impl pario|gather|pieces|join|pnetcdf|ncpar|read-pario|read-gather|limit --nx NX --ny NY --nz NZ
 *                --steps T --dir DIR [--pieces P] [--bytes B] [--step-sync 0|1] [--nemesis 0|1]
 * pario:  every rank writes its contiguous range of cells (and the nodes
 *         they use) to DIR/pario.e through pario_exodus_*; --step-sync 0
 *         leaves out the fdatasync before each step's count is raised;
 *         --nemesis 1 adds the Nemesis load-balance information
 *         (options.nemesis: the ranks' partition, computed by pario).
 * gather: every rank sends its elements and its node range to rank 0
 *         (MPI_Gatherv), mesh once and then step by step; rank 0 writes
 *         DIR/gather.e with Debian's serial libexodusii.
 * pieces: every rank writes DIR/pieces.e.P.r with libexodusii: its elements
 *         and the nodes they use, with global id maps (as codes do for epu).
 * join:   one process reads the P pieces and writes DIR/joined.e by global
 *         ids, as SEACAS epu does (epu is not packaged in Debian): the mesh
 *         once, then one variable of one step at a time.
 * pnetcdf, ncpar: rank 0 writes the header and the small sets with
 *         libexodusii (CDF-2, or netCDF-4 for ncpar), then every rank its
 *         node and element ranges through PnetCDF's collective calls or
 *         parallel netCDF-4 (nc_open_par, NC_COLLECTIVE): peers.h. A peer
 *         this build lacks prints {"impl": ..., "skipped": why}; --probe 1
 *         only says whether it is there, before MPI starts.
 * read-pario, read-gather (--file F): F read by M ranks, each its node
 *         and element ranges of everything (coordinates, id maps,
 *         connectivity, every step's variables), F evicted from the page
 *         cache first (posix_fadvise DONTNEED): through pario's reader, or
 *         as (i) does it, rank 0 reading whole arrays with libexodusii and
 *         scattering the ranges (MPI_Scatterv). Each rank checks a sample.
 * limit:  raw pwrite of B bytes (B / P per rank, 4 MiB calls) to one shared
 *         file at computed offsets, fdatasync on every rank.
 * Rank 0 prints one JSON line: seconds, file bytes, MB/s, each rank's peak
 * resident memory (getrusage), and the sample check's verdict: after the
 * timed part, rank 0 reads back a sample of values through libexodusii
 * (limit: through pread) and compares them with the formulas; the driver
 * checks every value of one file per case with tests/exodus/exodus_check. */
#include <exodusII.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pario/pario.h"
#include "peers.h"
#include "workload.h"

static int rank_, size_;
static double t_start; /* the timed part's start on every rank */

/* Collective: the timed part begins (every writer's own data is ready). */
static void start_clock(void) {
  MPI_Barrier(MPI_COMM_WORLD);
  t_start = MPI_Wtime();
}

static void fail(const char *what) {
  fprintf(stderr, "exodus_bench rank %d: %s failed\n", rank_, what);
  MPI_Abort(MPI_COMM_WORLD, 1);
}
#define EX(call) \
  do {           \
    if ((call) < 0) fail(#call); \
  } while (0)
#define PA(call)                                                                   \
  do {                                                                             \
    int rc_ = (call);                                                              \
    if (rc_ != PARIO_OK) {                                                         \
      char m_[512];                                                                \
      pario_last_error_message(m_, sizeof m_);                                     \
      fprintf(stderr, "exodus_bench rank %d: %s: %s\n", rank_, #call, m_);         \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                \
    }                                                                              \
  } while (0)

static void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) fail("malloc");
  return p;
}
#define ALLOC(type, n) ((type *)xmalloc(sizeof(type) * (size_t)(n)))

static void sync_path(const char *path) {
  const int fd = open(path, O_WRONLY);
  if (fd < 0 || fdatasync(fd) != 0) fail("fdatasync");
  close(fd);
}

static double peak_mib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss / 1024.0;
}

/* The peak resident memory so far (VmHWM) at the end of each phase of a
 * pario write, per rank: where the peak is reached. Phase 0 is the
 * library's baseline (after pario_init, before the caller's data). */
enum { kPhases = 8 };
static const char *const phase_names[kPhases] = {"baseline", "caller data", "define", "nodes",
                                                 "blocks", "sets", "steps", "close"};
static double phase_mib[kPhases];
static void phase(int k) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  double kib = 0;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmHWM:", 6)) kib = atof(line + 6);
  if (f) fclose(f);
  phase_mib[k] = kib / 1024.0;
}

/* The workload's variables by kind: global, nodal, element. */
static const char *const var_kinds[3] = {"g", "n", "e"};
static const int var_counts[3] = {1, 2, 1};
static const char *const var_names[3][2] = {{"energy"}, {"temperature", "displacement_x"}, {"stress"}};

/* ---- libexodusii: the definitions every libexodusii writer makes ---- */

typedef struct ex_counts {
  int64_t nodes, e1, e2, nns, nss;
} ex_counts;

/* mode: EX_LARGE_MODEL (CDF-2, the classic files) or EX_NETCDF4. */
static int ex_create_workload(const char *path, const exo_workload *w, ex_counts k, int mode) {
  int cpu = 8, io = 8;
  const int id = ex_create(path, EX_CLOBBER | mode, &cpu, &io);
  if (id < 0) fail("ex_create");
  char title[128], info[160];
  exo_title(w, title, sizeof title, info, sizeof info);
  EX(ex_put_init(id, title, 3, k.nodes, k.e1 + k.e2, 2, 1, 1));
  char *cn[3] = {"x", "y", "z"};
  EX(ex_put_coord_names(id, cn));
  EX(ex_put_elem_block(id, 10, "HEX8", k.e1, 8, 0));
  EX(ex_put_elem_block(id, 20, "HEX8", k.e2, 8, 0));
  EX(ex_put_name(id, EX_ELEM_BLOCK, 10, "lower"));
  EX(ex_put_name(id, EX_ELEM_BLOCK, 20, "upper"));
  EX(ex_put_node_set_param(id, 100, k.nns, 0));
  EX(ex_put_side_set_param(id, 200, k.nss, 0));
  EX(ex_put_name(id, EX_NODE_SET, 100, "x0"));
  EX(ex_put_name(id, EX_SIDE_SET, 200, "z0"));
  char *qa[1][4] = {{"exodus_bench", "1", "2026-01-01", "00:00:00"}};
  EX(ex_put_qa(id, 1, qa));
  char *infos[1] = {info};
  EX(ex_put_info(id, 1, infos));
  for (int kind = 0; kind < 3; ++kind) EX(ex_put_var_param(id, var_kinds[kind], var_counts[kind]));
  for (int kind = 0; kind < 3; ++kind)
    EX(ex_put_var_names(id, var_kinds[kind], var_counts[kind], (char **)var_names[kind]));
  int truth[2] = {k.e1 > 0, k.e2 > 0}; /* an empty block has no variables in libexodusii */
  EX(ex_put_elem_var_tab(id, 2, 1, truth));
  return id;
}

/* One step of a libexodusii file: time, energy, the nodal values of nodes
 * [0, n) at coordinates (x, y, z), the stress of the e1 + e2 elements at
 * their centroids cen (3 per element). */
static void ex_put_step(int id, int s, int64_t n, const double *x, const double *y, const double *z, int64_t e1,
                        int64_t e2, const double *cen, double *buf) {
  const double t = exo_time(s), energy = t * t;
  EX(ex_put_time(id, s, &t));
  EX(ex_put_glob_vars(id, s, 1, &energy));
  for (int var = 1; var <= 2; ++var) {
    exo_nodal_values(var, n, x, y, z, t, buf);
    EX(ex_put_nodal_var(id, s, var, n, buf));
  }
  for (int64_t e = 0; e < e1 + e2; ++e) buf[e] = exo_stress(cen + 3 * e, t);
  if (e1) EX(ex_put_elem_var(id, s, 1, 10, e1, buf));
  if (e2) EX(ex_put_elem_var(id, s, 1, 20, e2, buf + e1));
}

/* The whole sets of a one-file writer: node i = 0 and the cells of layer
 * k = 0, from the formulas. */
static void put_sets(int id, const exo_workload *w) {
  const int64_t nns = (w->ny + 1) * (w->nz + 1), nss = w->nx * w->ny;
  int *set = ALLOC(int, nns > nss ? nns : nss), *side = ALLOC(int, nss);
  for (int64_t q = 0; q < nns; ++q) set[q] = (int)((w->nx + 1) * q + 1);
  EX(ex_put_node_set(id, 100, set));
  for (int64_t q = 0; q < nss; ++q) set[q] = (int)(q + 1), side[q] = 5;
  EX(ex_put_side_set(id, 200, set, side));
  free(set), free(side);
}

/* ---- the sample check (rank 0, after the timed part) ---- */

/* Reads about 1000 spread values of each kind through libexodusii and
 * compares them with the formulas: 0 when all agree. */
static int sample_check(const char *path, const exo_workload *w) {
  int cpu = 8, io = 0, bad = 0;
  float version;
  const int id = ex_open(path, EX_READ, &cpu, &io, &version);
  if (id < 0) return 1;
  char title[MAX_LINE_LENGTH + 1], want[128], info[160];
  int dim, nodes, elems, nblk, nns, nss;
  EX(ex_get_init(id, title, &dim, &nodes, &elems, &nblk, &nns, &nss));
  exo_title(w, want, sizeof want, info, sizeof info);
  if (strcmp(title, want) || nodes != w->nodes || elems != w->cells || nblk != 2) return 1;
  if ((int)ex_inquire_int(id, EX_INQ_TIME) != w->steps) return 1;
  const int T = w->steps;
  for (int64_t n = 0; n < w->nodes; n += w->nodes / 997 + 1) {
    double x, y, z, temp, p[3];
    int gid;
    EX(ex_get_n_coord(id, n + 1, 1, &x, &y, &z));
    EX(ex_get_n_node_num_map(id, n + 1, 1, &gid));
    EX(ex_get_n_nodal_var(id, T, 1, n + 1, 1, &temp));
    exo_coord(w, n, p);
    bad += x != p[0] || y != p[1] || z != p[2] || gid != 2 * (n + 1) || temp != exo_temperature(p, exo_time(T));
  }
  for (int64_t c = 0; c < w->cells; c += w->cells / 997 + 1) {
    const int lower = c < w->cells1;
    const int64_t b = lower ? c : c - w->cells1, count = lower ? w->cells1 : w->cells - w->cells1;
    int conn[8], gid;
    double v, cen[3];
    int64_t corner[8];
    EX(ex_get_n_elem_conn(id, lower ? 10 : 20, b + 1, 1, conn));
    EX(ex_get_n_elem_num_map(id, c + 1, 1, &gid));
    EX(ex_get_n_elem_var(id, T, 1, lower ? 10 : 20, count, b + 1, 1, &v));
    exo_corners(w, c, corner);
    exo_centroid(w, c, cen);
    for (int q = 0; q < 8; ++q) bad += conn[q] != corner[q] + 1;
    bad += gid != 2 * (c + 1) || v != exo_stress(cen, exo_time(T));
  }
  ex_close(id);
  return bad;
}

/* ---- the writers ---- */

typedef struct part {
  int64_t c0, c1;     /* this rank's cells (= elements) */
  int64_t n_used;     /* the nodes they use */
  int64_t *used;      /* ascending, 0-based */
  double *x, *y, *z;  /* their coordinates */
  double *cen;        /* the centroids of c0..c1, 3 each */
  int64_t e1;         /* how many of the cells are in block 1 */
  int64_t nss;        /* how many are in the side set (k = 0) */
} part;

static part make_part(const exo_workload *w) {
  part p;
  exo_range(w->cells, rank_, size_, &p.c0, &p.c1);
  p.used = exo_used_nodes(w, p.c0, p.c1, &p.n_used);
  p.x = ALLOC(double, p.n_used);
  p.y = ALLOC(double, p.n_used);
  p.z = ALLOC(double, p.n_used);
  for (int64_t k = 0; k < p.n_used; ++k) {
    double c[3];
    exo_coord(w, p.used[k], c);
    p.x[k] = c[0], p.y[k] = c[1], p.z[k] = c[2];
  }
  p.cen = ALLOC(double, 3 * (p.c1 - p.c0));
  for (int64_t c = p.c0; c < p.c1; ++c) exo_centroid(w, c, p.cen + 3 * (c - p.c0));
  const int64_t b1 = p.c1 < w->cells1 ? p.c1 : w->cells1, layer = w->nx * w->ny;
  p.e1 = b1 > p.c0 ? b1 - p.c0 : 0;
  p.nss = (p.c1 < layer ? p.c1 : layer) - p.c0;
  if (p.nss < 0) p.nss = 0;
  return p;
}

static int64_t local_node(const part *p, int64_t n) {
  int64_t lo = 0, hi = p->n_used;
  while (lo < hi) {
    const int64_t mid = (lo + hi) / 2;
    if (p->used[mid] < n) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

static int nemesis_; /* --nemesis */

static void write_pario(const exo_workload *w, const part *p, const char *path, int step_sync) {
  pario_group_t world;
  PA(pario_group_world(&world));
  const int64_t ne = p->c1 - p->c0;
  int64_t *node_ids = ALLOC(int64_t, p->n_used), *eids = ALLOC(int64_t, ne), *conn = ALLOC(int64_t, 8 * ne);
  int64_t *ns = ALLOC(int64_t, p->n_used), nns = 0;
  int *sides = ALLOC(int, p->nss);
  for (int64_t k = 0; k < p->n_used; ++k) {
    node_ids[k] = 2 * (p->used[k] + 1);
    if (p->used[k] % (w->nx + 1) == 0) ns[nns++] = node_ids[k];
  }
  for (int64_t c = p->c0; c < p->c1; ++c) {
    int64_t corner[8];
    exo_corners(w, c, corner);
    eids[c - p->c0] = 2 * (c + 1);
    for (int q = 0; q < 8; ++q) conn[8 * (c - p->c0) + q] = 2 * (corner[q] + 1);
  }
  for (int64_t k = 0; k < p->nss; ++k) sides[k] = 5;
  char title[128], info[160];
  exo_title(w, title, sizeof title, info, sizeof info);
  const char *qa[4] = {"pario", "1", "2026-01-01", "00:00:00"}, *infos[1] = {info};
  const int truth[2] = {1, 1};
  double *temp = ALLOC(double, p->n_used), *disp = ALLOC(double, p->n_used), *stress = ALLOC(double, ne);
  /* Touched now, so that the caller's data phase holds all of the caller's
   * arrays and the later phases' growth is pario's own. */
  memset(temp, 0, sizeof(double) * (size_t)p->n_used), memset(disp, 0, sizeof(double) * (size_t)p->n_used);
  memset(stress, 0, sizeof(double) * (size_t)ne);

  phase(1);
  start_clock(); /* the caller's arrays above are its data, made before the clock as the other writers' */
  pario_exodus_t ex = PARIO_EXODUS_NULL;
  pario_exodus_options options;
  pario_exodus_options_init(&options);
  options.no_step_sync = !step_sync; /* the default syncs before each step's count is raised (crash safety) */
  options.nemesis = nemesis_;
  PA(pario_exodus_create(world, path, &options, &ex));
  PA(pario_exodus_init(ex, title, 3, w->nodes, w->cells, 2, 1, 1));
  PA(pario_exodus_define_block(ex, 10, "lower", "HEX8", w->cells1, 8, 0));
  PA(pario_exodus_define_block(ex, 20, "upper", "HEX8", w->cells - w->cells1, 8, 0));
  PA(pario_exodus_define_node_set(ex, 100, "x0", (w->ny + 1) * (w->nz + 1), 0));
  PA(pario_exodus_define_side_set(ex, 200, "z0", w->nx * w->ny, 0));
  PA(pario_exodus_put_qa(ex, 1, qa));
  PA(pario_exodus_put_info(ex, 1, infos));
  const int kinds[3] = {PARIO_EXODUS_GLOBAL, PARIO_EXODUS_NODAL, PARIO_EXODUS_ELEMENT};
  for (int kind = 0; kind < 3; ++kind)
    PA(pario_exodus_define_variables(ex, kinds[kind], var_counts[kind], var_names[kind]));
  PA(pario_exodus_put_truth_table(ex, 2, 1, truth));
  PA(pario_exodus_end_define(ex));
  phase(2);
  PA(pario_exodus_put_nodes(ex, p->n_used, node_ids, PARIO_TYPE_DOUBLE, p->x, p->y, p->z));
  phase(3);
  PA(pario_exodus_put_block(ex, 10, p->e1, eids, conn));
  PA(pario_exodus_put_block(ex, 20, ne - p->e1, eids + p->e1, conn + 8 * p->e1));
  phase(4);
  PA(pario_exodus_put_node_set(ex, 100, nns, ns, PARIO_TYPE_DOUBLE, NULL));
  PA(pario_exodus_put_side_set(ex, 200, p->nss, eids, sides, PARIO_TYPE_DOUBLE, NULL));
  phase(5);
  for (int s = 1; s <= w->steps; ++s) {
    const double t = exo_time(s), energy = t * t;
    PA(pario_exodus_put_time(ex, s, t));
    PA(pario_exodus_put_global_values(ex, s, 1, PARIO_TYPE_DOUBLE, &energy));
    exo_nodal_values(1, p->n_used, p->x, p->y, p->z, t, temp);
    exo_nodal_values(2, p->n_used, p->x, p->y, p->z, t, disp);
    PA(pario_exodus_put_nodal_values(ex, s, 1, PARIO_TYPE_DOUBLE, temp));
    PA(pario_exodus_put_nodal_values(ex, s, 2, PARIO_TYPE_DOUBLE, disp));
    for (int64_t e = 0; e < ne; ++e) stress[e] = exo_stress(p->cen + 3 * e, t);
    PA(pario_exodus_put_element_values(ex, s, 1, 10, PARIO_TYPE_DOUBLE, stress));
    PA(pario_exodus_put_element_values(ex, s, 1, 20, PARIO_TYPE_DOUBLE, stress + p->e1));
  }
  phase(6);
  PA(pario_exodus_close(&ex));
  phase(7);
  if (rank_ == 0) sync_path(path); /* pario syncs each step and at close: a no-op kept for symmetry */
  free(node_ids), free(eids), free(conn), free(ns), free(sides), free(temp), free(disp), free(stress);
}

/* MPI_Gatherv of n items per rank to rank 0 (counts and displacements
 * from the ranks' n). */
static void gather(const void *mine, int n, MPI_Datatype type, void *all, int *counts, int *displs) {
  MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank_ == 0)
    for (int r = 0; r < size_; ++r) displs[r] = r ? displs[r - 1] + counts[r - 1] : 0;
  MPI_Gatherv(mine, n, type, all, counts, displs, type, 0, MPI_COMM_WORLD);
}

static void write_gather(const exo_workload *w, const char *path) {
  peer_slices sl = peer_make(w, rank_, size_); /* the same ranges and data as the peers */
  const int nn = (int)sl.nn, ne = (int)sl.ne, root = rank_ == 0;
  double *x = sl.x, *y = sl.y, *z = sl.z, *cen = sl.cen, *mine = sl.buf;
  int *conn = sl.conn, *nid = sl.nid, *eid = sl.eid;
  int *counts = ALLOC(int, size_), *displs = ALLOC(int, size_);
  const int64_t N = w->nodes, E = w->cells;
  /* rank 0: the whole mesh, then one variable of one step */
  double *gx = NULL, *gy = NULL, *gz = NULL, *gv = NULL;
  int *gi = NULL;
  if (root) gx = ALLOC(double, N), gy = ALLOC(double, N), gz = ALLOC(double, N), gv = ALLOC(double, N > E ? N : E),
            gi = ALLOC(int, 8 * E);

  start_clock();
  int id = -1;
  if (root) {
    const int64_t nns = (w->ny + 1) * (w->nz + 1), nss = w->nx * w->ny;
    id = ex_create_workload(path, w, (ex_counts){N, w->cells1, E - w->cells1, nns, nss}, EX_LARGE_MODEL);
  }
  gather(x, nn, MPI_DOUBLE, gx, counts, displs);
  gather(y, nn, MPI_DOUBLE, gy, counts, displs);
  gather(z, nn, MPI_DOUBLE, gz, counts, displs);
  if (root) EX(ex_put_coord(id, gx, gy, gz));
  gather(nid, nn, MPI_INT, gi, counts, displs);
  if (root) EX(ex_put_node_num_map(id, gi));
  gather(eid, ne, MPI_INT, gi, counts, displs);
  if (root) EX(ex_put_elem_num_map(id, gi));
  gather(conn, 8 * ne, MPI_INT, gi, counts, displs);
  if (root) {
    EX(ex_put_elem_conn(id, 10, gi));
    EX(ex_put_elem_conn(id, 20, gi + 8 * w->cells1));
    put_sets(id, w);
  }
  for (int s = 1; s <= w->steps; ++s) {
    const double t = exo_time(s), energy = t * t;
    if (root) {
      EX(ex_put_time(id, s, &t));
      EX(ex_put_glob_vars(id, s, 1, &energy));
    }
    for (int var = 1; var <= 2; ++var) {
      exo_nodal_values(var, nn, x, y, z, t, mine);
      gather(mine, nn, MPI_DOUBLE, gv, counts, displs);
      if (root) EX(ex_put_nodal_var(id, s, var, N, gv));
    }
    for (int e = 0; e < ne; ++e) mine[e] = exo_stress(cen + 3 * e, t);
    gather(mine, ne, MPI_DOUBLE, gv, counts, displs);
    if (root) {
      EX(ex_put_elem_var(id, s, 1, 10, w->cells1, gv));
      EX(ex_put_elem_var(id, s, 1, 20, E - w->cells1, gv + w->cells1));
    }
  }
  if (root) {
    EX(ex_close(id));
    sync_path(path);
  }
  peer_free(&sl);
  free(counts), free(displs), free(gx), free(gy), free(gz), free(gv), free(gi);
}

static void write_piece(const exo_workload *w, const part *p, const char *path) {
  const int64_t ne = p->c1 - p->c0;
  int64_t nns = 0;
  for (int64_t k = 0; k < p->n_used; ++k) nns += p->used[k] % (w->nx + 1) == 0;
  const int id = ex_create_workload(path, w, (ex_counts){p->n_used, p->e1, ne - p->e1, nns, p->nss}, EX_LARGE_MODEL);
  EX(ex_put_coord(id, p->x, p->y, p->z));
  int *map = ALLOC(int, p->n_used > 8 * ne ? p->n_used : 8 * ne), *side = ALLOC(int, p->nss);
  for (int64_t k = 0; k < p->n_used; ++k) map[k] = (int)(2 * (p->used[k] + 1));
  EX(ex_put_node_num_map(id, map));
  for (int64_t e = 0; e < ne; ++e) map[e] = (int)(2 * (p->c0 + e + 1));
  EX(ex_put_elem_num_map(id, map));
  for (int64_t c = p->c0; c < p->c1; ++c) {
    int64_t corner[8];
    exo_corners(w, c, corner);
    for (int q = 0; q < 8; ++q) map[8 * (c - p->c0) + q] = (int)(local_node(p, corner[q]) + 1);
  }
  if (p->e1) EX(ex_put_elem_conn(id, 10, map));
  if (ne - p->e1) EX(ex_put_elem_conn(id, 20, map + 8 * p->e1));
  if (nns) {
    int64_t k = 0;
    for (int64_t q = 0; q < p->n_used; ++q)
      if (p->used[q] % (w->nx + 1) == 0) map[k++] = (int)(q + 1);
    EX(ex_put_node_set(id, 100, map));
  }
  if (p->nss) {
    for (int64_t q = 0; q < p->nss; ++q) map[q] = (int)(q + 1), side[q] = 5;
    EX(ex_put_side_set(id, 200, map, side));
  }
  double *buf = ALLOC(double, p->n_used > ne ? p->n_used : ne);
  for (int s = 1; s <= w->steps; ++s) ex_put_step(id, s, p->n_used, p->x, p->y, p->z, p->e1, ne - p->e1, p->cen, buf);
  EX(ex_close(id));
  sync_path(path);
  free(map), free(side), free(buf);
}

/* ---- the join (epu's job, one process) ---- */

static int cmp_int(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  return x < y ? -1 : x > y;
}
static int64_t find_int(const int *sorted, int64_t n, int v) {
  const int *hit = bsearch(&v, sorted, (size_t)n, sizeof(int), cmp_int);
  return hit ? hit - sorted : -1;
}
/* Sorts and removes repeats; returns the new count. */
static int64_t sort_unique(int *a, int64_t n) {
  qsort(a, (size_t)n, sizeof(int), cmp_int);
  int64_t k = 0;
  for (int64_t i = 0; i < n; ++i)
    if (k == 0 || a[i] != a[k - 1]) a[k++] = a[i];
  return k;
}

typedef struct piece {
  int id, nodes, elems, blk_count[2];
  int *node_at; /* piece node -> global node index (0-based) */
  int *elem_ids;
} piece;

/* Joins DIR/pieces.e.P.r (r < P) into out by global ids, the output's
 * nodes and each block's elements in ascending id order. Block and set
 * ids, names and variables as the pieces have them (the workload's). */
static void join(const exo_workload *w, const char *dir, int P, const char *out) {
  piece *pc = ALLOC(piece, P);
  int64_t all_nodes = 0, blk_total[2] = {0, 0};
  char path[4096];
  for (int r = 0; r < P; ++r) {
    int cpu = 8, io = 0, dim, nblk, nns, nss;
    float version;
    char title[MAX_LINE_LENGTH + 1];
    snprintf(path, sizeof path, "%s/pieces.e.%d.%d", dir, P, r);
    pc[r].id = ex_open(path, EX_READ, &cpu, &io, &version);
    if (pc[r].id < 0) fail("ex_open piece");
    EX(ex_get_init(pc[r].id, title, &dim, &pc[r].nodes, &pc[r].elems, &nblk, &nns, &nss));
    for (int b = 0; b < 2; ++b) {
      char type[MAX_STR_LENGTH + 1];
      int npe, natt;
      EX(ex_get_elem_block(pc[r].id, b ? 20 : 10, type, &pc[r].blk_count[b], &npe, &natt));
      blk_total[b] += pc[r].blk_count[b];
    }
    all_nodes += pc[r].nodes;
  }
  /* Global nodes: every piece's ids, sorted, repeats removed. */
  int *gnode = ALLOC(int, all_nodes), *gelem[2] = {ALLOC(int, blk_total[0]), ALLOC(int, blk_total[1])};
  int64_t at = 0, bat[2] = {0, 0};
  for (int r = 0; r < P; ++r) {
    pc[r].node_at = ALLOC(int, pc[r].nodes);
    pc[r].elem_ids = ALLOC(int, pc[r].elems);
    EX(ex_get_node_num_map(pc[r].id, pc[r].node_at));
    memcpy(gnode + at, pc[r].node_at, sizeof(int) * (size_t)pc[r].nodes);
    at += pc[r].nodes;
    EX(ex_get_elem_num_map(pc[r].id, pc[r].elem_ids));
    memcpy(gelem[0] + bat[0], pc[r].elem_ids, sizeof(int) * (size_t)pc[r].blk_count[0]);
    memcpy(gelem[1] + bat[1], pc[r].elem_ids + pc[r].blk_count[0], sizeof(int) * (size_t)pc[r].blk_count[1]);
    bat[0] += pc[r].blk_count[0], bat[1] += pc[r].blk_count[1];
  }
  const int64_t N = sort_unique(gnode, all_nodes);
  qsort(gelem[0], (size_t)blk_total[0], sizeof(int), cmp_int);
  qsort(gelem[1], (size_t)blk_total[1], sizeof(int), cmp_int);
  const int64_t E1 = blk_total[0], E = E1 + blk_total[1];
  for (int r = 0; r < P; ++r)
    for (int k = 0; k < pc[r].nodes; ++k) pc[r].node_at[k] = (int)find_int(gnode, N, pc[r].node_at[k]);

  /* The mesh. */
  int64_t nss = 0, nns = 0;
  for (int r = 0; r < P; ++r) {
    int count, ndf;
    EX(ex_get_node_set_param(pc[r].id, 100, &count, &ndf));
    nns += count;
    EX(ex_get_side_set_param(pc[r].id, 200, &count, &ndf));
    nss += count;
  }
  int *nset = ALLOC(int, nns), *sset = ALLOC(int, nss), *sides = ALLOC(int, nss);
  int64_t nk = 0, sk = 0;
  double *x = ALLOC(double, N), *y = ALLOC(double, N), *z = ALLOC(double, N);
  int *conn = ALLOC(int, 8 * E);
  for (int r = 0; r < P; ++r) {
    double *px = ALLOC(double, pc[r].nodes), *py = ALLOC(double, pc[r].nodes), *pz = ALLOC(double, pc[r].nodes);
    EX(ex_get_coord(pc[r].id, px, py, pz));
    for (int k = 0; k < pc[r].nodes; ++k) {
      const int g = pc[r].node_at[k];
      x[g] = px[k], y[g] = py[k], z[g] = pz[k];
    }
    free(px), free(py), free(pz);
    int *pconn = ALLOC(int, 8 * (int64_t)(pc[r].elems));
    int off = 0;
    for (int b = 0; b < 2; ++b) {
      if (!pc[r].blk_count[b]) continue;
      EX(ex_get_elem_conn(pc[r].id, b ? 20 : 10, pconn));
      for (int e = 0; e < pc[r].blk_count[b]; ++e) {
        const int64_t g = find_int(gelem[b], blk_total[b], pc[r].elem_ids[off + e]) + (b ? E1 : 0);
        for (int q = 0; q < 8; ++q) conn[8 * g + q] = pc[r].node_at[pconn[8 * e + q] - 1] + 1;
      }
      off += pc[r].blk_count[b];
    }
    free(pconn);
    int count, ndf;
    EX(ex_get_node_set_param(pc[r].id, 100, &count, &ndf));
    if (count) {
      EX(ex_get_node_set(pc[r].id, 100, nset + nk));
      for (int q = 0; q < count; ++q) nset[nk + q] = pc[r].node_at[nset[nk + q] - 1] + 1;
      nk += count;
    }
    EX(ex_get_side_set_param(pc[r].id, 200, &count, &ndf));
    if (count) {
      EX(ex_get_side_set(pc[r].id, 200, sset + sk, sides + sk));
      for (int q = 0; q < count; ++q) {  /* piece element number -> global element number */
        const int le = sset[sk + q] - 1, b = le >= pc[r].blk_count[0];
        sset[sk + q] = (int)(find_int(gelem[b], blk_total[b], pc[r].elem_ids[le]) + (b ? E1 : 0) + 1);
      }
      sk += count;
    }
  }
  nns = sort_unique(nset, nns); /* shared nodes come from several pieces */
  const int id = ex_create_workload(out, w, (ex_counts){N, E1, E - E1, nns, nss}, EX_LARGE_MODEL);
  EX(ex_put_coord(id, x, y, z));
  EX(ex_put_node_num_map(id, gnode));
  int *emap = ALLOC(int, E);
  memcpy(emap, gelem[0], sizeof(int) * (size_t)E1);
  memcpy(emap + E1, gelem[1], sizeof(int) * (size_t)(E - E1));
  EX(ex_put_elem_num_map(id, emap));
  free(emap);
  EX(ex_put_elem_conn(id, 10, conn));
  EX(ex_put_elem_conn(id, 20, conn + 8 * E1));
  free(conn);
  EX(ex_put_node_set(id, 100, nset));
  EX(ex_put_side_set(id, 200, sset, sides));
  free(nset), free(sset), free(sides), free(x), free(y), free(z);

  /* The steps: one variable at a time, piece by piece. */
  const int T = (int)ex_inquire_int(pc[0].id, EX_INQ_TIME);
  double *g = ALLOC(double, N > E ? N : E), *v = NULL;
  int64_t most = 0;
  for (int r = 0; r < P; ++r) most = pc[r].nodes > most ? pc[r].nodes : pc[r].elems > most ? pc[r].elems : most;
  v = ALLOC(double, most);
  for (int s = 1; s <= T; ++s) {
    double t, energy;
    EX(ex_get_time(pc[0].id, s, &t));
    EX(ex_get_glob_vars(pc[0].id, s, 1, &energy));
    EX(ex_put_time(id, s, &t));
    EX(ex_put_glob_vars(id, s, 1, &energy));
    for (int var = 1; var <= 2; ++var) {
      for (int r = 0; r < P; ++r) {
        EX(ex_get_nodal_var(pc[r].id, s, var, pc[r].nodes, v));
        for (int k = 0; k < pc[r].nodes; ++k) g[pc[r].node_at[k]] = v[k];
      }
      EX(ex_put_nodal_var(id, s, var, N, g));
    }
    for (int r = 0; r < P; ++r) {
      int off = 0;
      for (int b = 0; b < 2; ++b) {
        if (!pc[r].blk_count[b]) continue;
        EX(ex_get_elem_var(pc[r].id, s, 1, b ? 20 : 10, pc[r].blk_count[b], v));
        for (int e = 0; e < pc[r].blk_count[b]; ++e)
          g[find_int(gelem[b], blk_total[b], pc[r].elem_ids[off + e]) + (b ? E1 : 0)] = v[e];
        off += pc[r].blk_count[b];
      }
    }
    EX(ex_put_elem_var(id, s, 1, 10, E1, g));
    EX(ex_put_elem_var(id, s, 1, 20, E - E1, g + E1));
  }
  EX(ex_close(id));
  sync_path(out);
  for (int r = 0; r < P; ++r) ex_close(pc[r].id), free(pc[r].node_at), free(pc[r].elem_ids);
  free(pc), free(gnode), free(gelem[0]), free(gelem[1]), free(g), free(v);
}

/* ---- (iii) and (iv): libexodusii's header, the slices in parallel ---- */

/* Rank r's nodes [n0, n0 + nn) and elements [c0, c0 + ne) in the peers'
 * decomposition, e1 of the elements in block 1. */
static void ranges(const exo_workload *w, int r, int p, int64_t *n0, int64_t *nn, int64_t *c0, int64_t *ne,
                   int64_t *e1) {
  int64_t n1, c1;
  exo_range(w->nodes, r, p, n0, &n1);
  exo_range(w->cells, r, p, c0, &c1);
  *nn = n1 - *n0, *ne = c1 - *c0;
  *e1 = (c1 < w->cells1 ? c1 : w->cells1) - *c0;
  if (*e1 < 0) *e1 = 0;
}

peer_slices peer_make(const exo_workload *w, int rank, int size) {
  peer_slices s;
  ranges(w, rank, size, &s.n0, &s.nn, &s.c0, &s.ne, &s.e1);
  const int64_t n1 = s.n0 + s.nn, c1 = s.c0 + s.ne;
  s.x = ALLOC(double, s.nn), s.y = ALLOC(double, s.nn), s.z = ALLOC(double, s.nn), s.cen = ALLOC(double, 3 * s.ne);
  s.nid = ALLOC(int, s.nn), s.eid = ALLOC(int, s.ne), s.conn = ALLOC(int, 8 * s.ne);
  s.buf = ALLOC(double, s.nn > s.ne ? s.nn : s.ne);
  for (int64_t n = s.n0; n < n1; ++n) {
    double c[3];
    exo_coord(w, n, c);
    s.x[n - s.n0] = c[0], s.y[n - s.n0] = c[1], s.z[n - s.n0] = c[2];
    s.nid[n - s.n0] = (int)(2 * (n + 1));
  }
  for (int64_t c = s.c0; c < c1; ++c) {
    int64_t corner[8];
    exo_corners(w, c, corner);
    for (int q = 0; q < 8; ++q) s.conn[8 * (c - s.c0) + q] = (int)(corner[q] + 1);
    s.eid[c - s.c0] = (int)(2 * (c + 1));
    exo_centroid(w, c, s.cen + 3 * (c - s.c0));
  }
  return s;
}

void peer_free(peer_slices *s) {
  free(s->x), free(s->y), free(s->z), free(s->cen), free(s->nid), free(s->eid), free(s->conn), free(s->buf);
}

/* Rank 0 makes the file and writes the header and the two small sets with
 * libexodusii and closes it; then every rank writes its slices. */
static void write_peer(const exo_workload *w, const char *path, int netcdf4) {
  peer_slices s = peer_make(w, rank_, size_);
  /* netCDF-4: libexodusii's header goes into a template beside the file,
   * which every rank then makes with nc_create_par and the template's
   * definition (peer_ncpar.c): written into a file made serially, the
   * first record variable failed with "NetCDF: HDF error". */
  char template[4096 + 8];
  snprintf(template, sizeof template, "%s.tmpl", path);
  start_clock();
  if (rank_ == 0) {
    const int64_t nns = (w->ny + 1) * (w->nz + 1), nss = w->nx * w->ny;
    const int id = ex_create_workload(netcdf4 ? template : path, w,
                                      (ex_counts){w->nodes, w->cells1, w->cells - w->cells1, nns, nss},
                                      netcdf4 ? EX_NETCDF4 : EX_LARGE_MODEL);
    /* libexodusii 6.02 defines an id map only when it writes it whole: the
     * maps are defined here, through the netCDF-C that libexodusii uses
     * (exodusII.h includes netcdf.h; the id is the netCDF id). */
    int dims[2], map;
    if (nc_redef(id) != NC_NOERR || nc_inq_dimid(id, "num_nodes", &dims[0]) != NC_NOERR ||
        nc_inq_dimid(id, "num_elem", &dims[1]) != NC_NOERR ||
        nc_def_var(id, "node_num_map", NC_INT, 1, &dims[0], &map) != NC_NOERR ||
        nc_def_var(id, "elem_num_map", NC_INT, 1, &dims[1], &map) != NC_NOERR || nc_enddef(id) != NC_NOERR)
      fail("defining the id maps");
    put_sets(id, w);
    EX(ex_close(id));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (netcdf4 ? peer_ncpar_write(w, &s, path, template) : peer_pnetcdf_write(w, &s, path))
    fail(netcdf4 ? "ncpar" : "pnetcdf");
  if (rank_ == 0) sync_path(path);
  if (rank_ == 0 && netcdf4) unlink(template);
  peer_free(&s);
}

/* ---- the reads: M ranks, each its node and element ranges ---- */

/* Drops path's pages from the page cache (the reads start cold). */
static void evict(const char *path) {
  const int fd = open(path, O_RDONLY);
  if (fd < 0 || fdatasync(fd) != 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0) fail("evict");
  close(fd);
}

/* What one rank reads: nodes [n0, n0 + nn), elements [c0, c0 + ne), e1 of
 * them in block 1, the rest from position b2 of block 2; every value, and
 * a check of a sample against the formulas (returns the mismatches). */
typedef struct read_part {
  int64_t n0, nn, c0, ne, e1, b2;
  double *x, *y, *z, *v;
  int64_t *nid, *eid, *conn;
} read_part;

static read_part read_part_make(const exo_workload *w) {
  read_part r;
  ranges(w, rank_, size_, &r.n0, &r.nn, &r.c0, &r.ne, &r.e1);
  r.b2 = r.c0 + r.e1 - w->cells1;
  r.x = ALLOC(double, r.nn), r.y = ALLOC(double, r.nn), r.z = ALLOC(double, r.nn);
  r.v = ALLOC(double, 3 * (r.nn > r.ne ? r.nn : r.ne)); /* two nodal variables and the element one of a step */
  r.nid = ALLOC(int64_t, r.nn), r.eid = ALLOC(int64_t, r.ne), r.conn = ALLOC(int64_t, 8 * r.ne);
  return r;
}

static void read_part_free(read_part *r) {
  free(r->x), free(r->y), free(r->z), free(r->v), free(r->nid), free(r->eid), free(r->conn);
}

/* Mismatches in a sample of the part, the values of the last step in v. */
static int read_part_check(const exo_workload *w, const read_part *r) {
  int bad = 0;
  const double t = exo_time(w->steps);
  const int64_t most = r->nn > r->ne ? r->nn : r->ne;
  for (int64_t k = 0; k < r->nn; k += r->nn / 499 + 1) {
    double p[3];
    exo_coord(w, r->n0 + k, p);
    bad += r->x[k] != p[0] || r->y[k] != p[1] || r->z[k] != p[2] || r->nid[k] != 2 * (r->n0 + k + 1) ||
           r->v[k] != exo_temperature(p, t) || r->v[most + k] != exo_displacement(p, t);
  }
  for (int64_t k = 0; k < r->ne; k += r->ne / 499 + 1) {
    int64_t corner[8];
    double cen[3];
    exo_corners(w, r->c0 + k, corner);
    exo_centroid(w, r->c0 + k, cen);
    for (int q = 0; q < 8; ++q) bad += r->conn[8 * k + q] != corner[q] + 1;
    bad += r->eid[k] != 2 * (r->c0 + k + 1) || r->v[2 * most + k] != exo_stress(cen, t);
  }
  return bad;
}

/* pario's reader on M ranks, every rank its ranges. */
static int read_pario(const exo_workload *w, const char *path) {
  read_part r = read_part_make(w);
  pario_group_t world;
  PA(pario_group_world(&world));
  start_clock();
  pario_exodus_t ex = PARIO_EXODUS_NULL;
  PA(pario_exodus_open(world, path, NULL, &ex));
  int steps = 0;
  PA(pario_exodus_get_info(ex, NULL, 0, NULL, NULL, NULL, NULL, NULL, NULL, &steps));
  if (steps != w->steps) fail("read_pario: the step count");
  PA(pario_exodus_read_coords(ex, r.n0, r.nn, PARIO_TYPE_DOUBLE, r.x, r.y, r.z));
  PA(pario_exodus_read_node_ids(ex, r.n0, r.nn, r.nid));
  PA(pario_exodus_read_block(ex, 10, r.e1 ? r.c0 : 0, r.e1, r.eid, r.conn));
  PA(pario_exodus_read_block(ex, 20, r.ne - r.e1 ? r.b2 : 0, r.ne - r.e1, r.eid + r.e1, r.conn + 8 * r.e1));
  const int64_t most = r.nn > r.ne ? r.nn : r.ne;
  for (int s = 1; s <= steps; ++s) {
    double t;
    PA(pario_exodus_get_time(ex, s, &t));
    for (int var = 1; var <= 2; ++var)
      PA(pario_exodus_read_nodal_values(ex, s, var, r.n0, r.nn, PARIO_TYPE_DOUBLE, r.v + (var - 1) * most));
    PA(pario_exodus_read_element_values(ex, s, 1, 10, r.e1 ? r.c0 : 0, r.e1, PARIO_TYPE_DOUBLE, r.v + 2 * most));
    PA(pario_exodus_read_element_values(ex, s, 1, 20, r.ne - r.e1 ? r.b2 : 0, r.ne - r.e1, PARIO_TYPE_DOUBLE,
                                        r.v + 2 * most + r.e1));
  }
  PA(pario_exodus_close(&ex));
  MPI_Barrier(MPI_COMM_WORLD);
  const int bad = read_part_check(w, &r);
  read_part_free(&r);
  return bad;
}

/* MPI_Scatterv from rank 0 of the ranges [N*r/M, N*(r+1)/M) of all
 * (n items) to mine. */
static void scatter_range(const void *all, int64_t n, int per, MPI_Datatype type, void *mine, int *counts,
                          int *displs) {
  for (int q = 0; q < size_; ++q) {
    int64_t lo, hi;
    exo_range(n, q, size_, &lo, &hi);
    counts[q] = (int)((hi - lo) * per), displs[q] = (int)(lo * per);
  }
  MPI_Scatterv(all, counts, displs, type, mine, counts[rank_], type, 0, MPI_COMM_WORLD);
}

/* (i)'s read: rank 0 reads each array whole with libexodusii and scatters
 * the ranges (the reverse of write_gather). */
static int read_gather(const exo_workload *w, const char *path) {
  read_part r = read_part_make(w);
  const int root = rank_ == 0;
  const int64_t N = w->nodes, E = w->cells, E1 = w->cells1, most_all = N > E ? N : E;
  int *counts = ALLOC(int, size_), *displs = ALLOC(int, size_);
  int *mine_i = ALLOC(int, 8 * (r.ne > r.nn ? r.ne : r.nn) + 1);
  start_clock();
  double *gx = NULL, *gy = NULL, *gz = NULL, *gv = NULL;
  int *gi = NULL, id = -1, steps = w->steps;
  if (root) {
    int cpu = 8, io = 0;
    float version;
    id = ex_open(path, EX_READ, &cpu, &io, &version);
    if (id < 0) fail("ex_open");
    steps = (int)ex_inquire_int(id, EX_INQ_TIME);
    gx = ALLOC(double, N), gy = ALLOC(double, N), gz = ALLOC(double, N), gv = ALLOC(double, most_all);
    gi = ALLOC(int, 8 * E);
    EX(ex_get_coord(id, gx, gy, gz));
  }
  MPI_Bcast(&steps, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (steps != w->steps) fail("read_gather: the step count");
  scatter_range(gx, N, 1, MPI_DOUBLE, r.x, counts, displs);
  scatter_range(gy, N, 1, MPI_DOUBLE, r.y, counts, displs);
  scatter_range(gz, N, 1, MPI_DOUBLE, r.z, counts, displs);
  if (root) EX(ex_get_node_num_map(id, gi));
  scatter_range(gi, N, 1, MPI_INT, mine_i, counts, displs);
  for (int64_t k = 0; k < r.nn; ++k) r.nid[k] = mine_i[k];
  if (root) EX(ex_get_elem_num_map(id, gi));
  scatter_range(gi, E, 1, MPI_INT, mine_i, counts, displs);
  for (int64_t k = 0; k < r.ne; ++k) r.eid[k] = mine_i[k];
  if (root) {
    EX(ex_get_elem_conn(id, 10, gi));
    EX(ex_get_elem_conn(id, 20, gi + 8 * E1));
  }
  scatter_range(gi, E, 8, MPI_INT, mine_i, counts, displs);
  for (int64_t k = 0; k < 8 * r.ne; ++k) r.conn[k] = mine_i[k];
  const int64_t most = r.nn > r.ne ? r.nn : r.ne;
  for (int s = 1; s <= steps; ++s) {
    double t;
    if (root) EX(ex_get_time(id, s, &t));
    for (int var = 1; var <= 2; ++var) {
      if (root) EX(ex_get_nodal_var(id, s, var, N, gv));
      scatter_range(gv, N, 1, MPI_DOUBLE, r.v + (var - 1) * most, counts, displs);
    }
    if (root) {
      EX(ex_get_elem_var(id, s, 1, 10, E1, gv));
      EX(ex_get_elem_var(id, s, 1, 20, E - E1, gv + E1));
    }
    scatter_range(gv, E, 1, MPI_DOUBLE, r.v + 2 * most, counts, displs);
  }
  if (root) ex_close(id);
  MPI_Barrier(MPI_COMM_WORLD);
  const int bad = read_part_check(w, &r);
  free(gx), free(gy), free(gz), free(gv), free(gi), free(counts), free(displs), free(mine_i);
  read_part_free(&r);
  return bad;
}

/* ---- the limit ---- */

static int write_limit(int64_t bytes, const char *path) {
  int64_t lo, hi;
  exo_range(bytes / 8, rank_, size_, &lo, &hi);
  lo *= 8, hi *= 8;
  const size_t chunk = 4u << 20;
  double *buf = ALLOC(double, chunk / 8);
  const int fd = open(path, O_WRONLY | O_CREAT, 0644);
  if (fd < 0) fail("open");
  for (int64_t off = lo; off < hi; off += (int64_t)chunk) {
    const size_t n = (size_t)(hi - off < (int64_t)chunk ? hi - off : (int64_t)chunk);
    for (size_t k = 0; k < n / 8; ++k) buf[k] = (double)(off / 8 + (int64_t)k); /* a value per position */
    if (pwrite(fd, buf, n, off) != (ssize_t)n) fail("pwrite");
  }
  if (fdatasync(fd) != 0) fail("fdatasync");
  close(fd);
  free(buf);
  return 0;
}

static int check_limit(int64_t bytes, const char *path) {
  const int fd = open(path, O_RDONLY);
  int bad = fd < 0;
  for (int64_t k = 0; !bad && k < bytes / 8; k += bytes / 8 / 997 + 1) {
    double v;
    bad += pread(fd, &v, 8, k * 8) != 8 || v != (double)k;
  }
  if (fd >= 0) close(fd);
  return bad;
}

int main(int argc, char **argv) {
  const char *impl = NULL, *dir = ".", *file = NULL;
  int64_t nx = 0, ny = 0, nz = 0, bytes = 0;
  int steps = 0, pieces = 0, step_sync = 1, probe = 0;
  for (int a = 1; a + 1 < argc; a += 2) {
    const char *k = argv[a], *v = argv[a + 1];
    if (!strcmp(k, "--impl")) impl = v;
    else if (!strcmp(k, "--nx")) nx = atoll(v);
    else if (!strcmp(k, "--ny")) ny = atoll(v);
    else if (!strcmp(k, "--nz")) nz = atoll(v);
    else if (!strcmp(k, "--steps")) steps = atoi(v);
    else if (!strcmp(k, "--dir")) dir = v;
    else if (!strcmp(k, "--pieces")) pieces = atoi(v);
    else if (!strcmp(k, "--bytes")) bytes = atoll(v);
    else if (!strcmp(k, "--step-sync")) step_sync = atoi(v);
    else if (!strcmp(k, "--nemesis")) nemesis_ = atoi(v);
    else if (!strcmp(k, "--file")) file = v;
    else if (!strcmp(k, "--probe")) probe = atoi(v);
  }
  if (!impl || nx < 1 || ny < 1 || nz < 2 || steps < 1) {
    fprintf(stderr, "usage: %s --impl pario|gather|pieces|join|pnetcdf|ncpar|limit --nx NX --ny NY --nz NZ --steps T --dir DIR "
                    "[--pieces P] [--bytes B]\n", argv[0]);
    return 2;
  }
  const int read_p = !strcmp(impl, "read-pario"), read_g = !strcmp(impl, "read-gather"), reading = read_p || read_g;
  const int use_pario = !strcmp(impl, "pario") || read_p;
  const int use_pnetcdf = !strcmp(impl, "pnetcdf"), use_ncpar = !strcmp(impl, "ncpar");
  const char *missing = use_pnetcdf ? peer_pnetcdf_missing : use_ncpar ? peer_ncpar_missing : NULL;
  if (missing || probe) { /* a peer this build lacks: say why, as the driver expects */
    if (missing) printf("{\"impl\": \"%s\", \"skipped\": \"%s\"}\n", impl, missing);
    else printf("{\"impl\": \"%s\", \"available\": true}\n", impl);
    return 0;
  }
  if (use_pario) {
    if (pario_init() != PARIO_OK) return 1;
    phase(0);
  } else {
    MPI_Init(&argc, &argv);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
  const exo_workload w = exo_workload_make(nx, ny, nz, steps);
  char path[4096];
  const char *name = !strcmp(impl, "join") ? "joined.e" : !strcmp(impl, "limit") ? "limit.dat" : NULL;
  if (!strcmp(impl, "pieces")) snprintf(path, sizeof path, "%s/pieces.e.%d.%d", dir, size_, rank_);
  else snprintf(path, sizeof path, "%s/%s", dir, name ? name : use_pario ? "pario.e" : use_pnetcdf ? "pnetcdf.e"
                                                              : use_ncpar ? "ncpar.e" : "gather.e");
  if (reading) {
    if (!file) fail("--file: the file to read");
    snprintf(path, sizeof path, "%s", file);
  } else if (rank_ == 0 || !strcmp(impl, "pieces")) {
    unlink(path);
  }

  part p = {0};
  if ((use_pario && !reading) || !strcmp(impl, "pieces")) p = make_part(&w); /* the caller's data: not timed */
  int read_bad = 0;
  if (reading && rank_ == 0) evict(path);
  if (strcmp(impl, "gather") && strcmp(impl, "pario") && !use_pnetcdf && !use_ncpar && !reading)
    start_clock(); /* the others start it after their data is ready */
  if (read_p) read_bad = read_pario(&w, path);
  else if (read_g) read_bad = read_gather(&w, path);
  else if (use_pario) write_pario(&w, &p, path, step_sync);
  else if (!strcmp(impl, "gather")) write_gather(&w, path);
  else if (use_pnetcdf || use_ncpar) write_peer(&w, path, use_ncpar);
  else if (!strcmp(impl, "pieces")) write_piece(&w, &p, path);
  else if (!strcmp(impl, "join")) {
    if (size_ != 1 || pieces < 1) fail("join: one process and --pieces P");
    join(&w, dir, pieces, path);
  } else if (!strcmp(impl, "limit")) write_limit(bytes, path);
  else fail("--impl");
  MPI_Barrier(MPI_COMM_WORLD);
  const double seconds = MPI_Wtime() - t_start;

  double mib = peak_mib(), *all = ALLOC(double, size_);
  MPI_Gather(&mib, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  /* The file's size: the pieces' sum for the pieces. */
  struct stat st;
  double mine = stat(path, &st) == 0 ? (double)st.st_size : 0, total = 0;
  MPI_Reduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  int bad = 0;
  MPI_Allreduce(MPI_IN_PLACE, &read_bad, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank_ == 0) {
    if (strcmp(impl, "pieces")) total = mine; /* one shared file: every rank saw its size */
    bad = reading ? read_bad : !strcmp(impl, "limit") ? check_limit(bytes, path) : !strcmp(impl, "pieces") ? 0
                                                                        : sample_check(path, &w);
    printf("{\"impl\": \"%s\", \"ranks\": %d, \"seconds\": %.6f, \"bytes\": %.0f, \"mbps\": %.3f, \"file\": \"%s\", "
           "\"sample_check\": \"%s\", \"peak_mib\": [",
           impl, size_, seconds, total, total / seconds / 1e6, path,
           !strcmp(impl, "pieces") ? "joined file" : bad ? "FAILED" : "ok");
    for (int r = 0; r < size_; ++r) printf("%s%.1f", r ? ", " : "", all[r]);
    printf("]");
  }
  if (use_pario && !reading) { /* VmHWM at the end of each phase, per rank */
    double *phases = ALLOC(double, kPhases * size_);
    MPI_Gather(phase_mib, kPhases, MPI_DOUBLE, phases, kPhases, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank_ == 0) {
      printf(", \"phase_peak_mib\": {");
      for (int k = 0; k < kPhases; ++k) {
        printf("%s\"%s\": [", k ? ", " : "", phase_names[k]);
        for (int r = 0; r < size_; ++r) printf("%s%.1f", r ? ", " : "", phases[r * kPhases + k]);
        printf("]");
      }
      printf("}");
    }
    free(phases);
  }
  if (rank_ == 0) {
    printf("}\n");
    if (bad) return 1;
  }
  free(all);
  if (use_pario) pario_finalize();
  else MPI_Finalize();
  return 0;
}
