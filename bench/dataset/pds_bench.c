/* bench/run dataset, case 2 (issue 26): a PDS time series on an
 * unstructured mesh. N nodes, node k (0 <= k < N) held by the rank whose
 * even split (pario_dataset_even_split) holds k, with the sparse global id
 * 3 * shuffle(k) + 1 (shuffle: a seeded permutation of [0, N) computed per
 * node, so no rank holds it whole): every rank's ids are random over the
 * whole id range and no two ranks' ids form runs. The series is a
 * topology segment (the node ids, int64) and S state segments (default
 * 10), each with three variables: a scalar double ("pressure"), a
 * 3-vector of doubles ("velocity") and an int32 ("material"). Values are
 * functions of the node id and the segment, so any rank can check what
 * any rank wrote.
 *
 * Implementations (--impls, a comma list, run in that order in one job):
 *   pario      pario's dataset (pario/dataset.h), one file, global-ordered
 *              sections: pario_dataset_write_decomp through decompositions
 *              of the collective layer (the scalar's by key, i.e. the ids;
 *              the others by the dense positions it returns: indices),
 *              built once before the timing (their time is reported);
 *              sync policy "none" (nothing written out before close, as
 *              the peers: no crash safety asked for)
 *   pario-write  the same with the sync policy "write" (each segment's end
 *              writes HDF5's metadata out without an fsync: a killed
 *              writer loses at most the segment it was writing)
 *   pario-fsync  the same with the sync policy "fsync" (pario's default:
 *              each segment's end also fsyncs the file)
 *   h5-ranked  parallel HDF5 directly (C API), the PDS layout: a group per
 *              segment with its kind, time index and time value, a dataset
 *              per section ([N] or [N, 3]) and its per-rank item counts;
 *              each rank writes its own rank-ordered hyperslab,
 *              independent transfers, collective metadata
 *   gather     the seed's baseline: rank 0 gathers every section
 *              (MPI_Gatherv), puts it in global id order (its map from
 *              gathered index to position, made once by sorting the
 *              gathered ids before the timing) and pwrites raw binary
 *   pwrite     the limit for one shared file: every rank pwrites its own
 *              rank-ordered pieces at computed offsets into one raw file
 *              (and preads them back: the limit for reads)
 * pario and gather write the values in global id order (the file does not
 * depend on the number of ranks); h5-ranked and pwrite in rank order.
 * Reads give every rank back the values of its own nodes in the order it
 * wrote them: pario through the same decompositions
 * (pario_dataset_read_decomp), h5-ranked its own hyperslabs, gather's
 * rank 0 preads each section, puts it in the ranks' order and scatters it
 * (MPI_Scatterv), pwrite preads its own pieces.
 *
 * Per implementation, in order:
 *   1. metadata probe (page cache): the same series on a tiny mesh
 *      (--probe-nodes per rank), each segment timed between barriers: the
 *      per-segment cost that is not data (HDF5 metadata, agreements,
 *      pario's segment-end flush); reported per segment. It also warms the
 *      libraries up, so the timed writes do not pay their first use.
 *   2. setup (untimed, reported): pario's decompositions, gather's map.
 *   3. write into the page cache (dirty pages of earlier writes synced
 *      first, untimed; the time ends at the close), then a check;
 *   4. read warm: the series read back whole (open to close) from the page
 *      cache, then its values compared;
 *   5. write flushed (the same plus fdatasync of the file by rank 0 after
 *      every rank closed it), then a check;
 *   6. read cold: the file evicted first (posix_fadvise DONTNEED by rank
 *      0, untimed; its pages are clean after the fdatasync), then read as
 *      in 4.
 * The time is rank 0's between a barrier before the create and a barrier
 * after the close (and the sync). Every write is checked outside the
 * timing: pario and gather by reading each rank's even split of the
 * global-ordered sections back (pario: pario_dataset_read_items; gather:
 * pread) and comparing each value with the one of the node whose id
 * belongs at that position; h5-ranked and pwrite by reading each rank's
 * own piece back. Peak memory: each rank resets its peak RSS
 * (/proc/self/clear_refs) after the setup and reports VmHWM over the two
 * timed writes (the checks' buffers not counted; a read's peak is its own,
 * its buffers for every segment included), and the RSS at the reset
 * (its data, all segments, and the setup's structures). Large blocks are
 * mmapped (M_MMAP_THRESHOLD fixed at 1 MiB), so one implementation's
 * freed buffers do not stay in the next one's RSS. CPU time: each rank's
 * user + system seconds (getrusage) over a timed write, which the load of
 * a shared machine does not inflate as it does the wall time.
 *
 * Arguments are checked (a missing value, a number that does not parse
 * or is out of range: exit status 1 with a message).
 *
 * Rank 0 prints one JSON line per measurement; exit status 1 on a failed
 * check (MPI_Abort).
 *   pds_bench --impls LIST --dir DIR --nodes N [--segments S]
 *             [--probe-nodes M] */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <malloc.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bench_check.h"

const char *bench_program = "pds_bench", *bench_impl = "?";
int bench_rank;
static int rank, nranks;
static const char *dir = "/tmp";
static int segments = 10;

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) die("malloc");
  return p;
}

static int is(const char *name) { return strcmp(bench_impl, name) == 0; }

/* ---- the mesh and its values ---- */

/* A seeded permutation of [0, n): a 4-round Feistel network on 2h bits
 * (4^h >= n) is a bijection of [0, 4^h); walking its cycle until the
 * value falls below n makes it one of [0, n). */
static uint64_t feistel(uint64_t x, int half) {
  const uint64_t mask = (UINT64_C(1) << half) - 1;
  uint64_t l = x >> half, r = x & mask;
  for (uint64_t i = 1; i <= 4; ++i) {
    uint64_t f = (r + i * UINT64_C(0x9E3779B97F4A7C15)) * UINT64_C(0xBF58476D1CE4E5B9);
    f ^= f >> 31;
    const uint64_t t = r;
    r = (l ^ f) & mask;
    l = t;
  }
  return (l << half) | r;
}

static int64_t shuffle(int64_t k, int64_t n) {
  int half = 1;
  while ((UINT64_C(1) << (2 * half)) < (uint64_t)n) ++half;
  uint64_t x = feistel((uint64_t)k, half);
  while (x >= (uint64_t)n) x = feistel(x, half);
  return (int64_t)x;
}

/* The id of the node at global position p (ids in increasing order). */
static int64_t id_at(int64_t p) { return 3 * p + 1; }
static double scalar_value(int64_t id, int s) { return 0.5 * (double)id + (double)s; }
static double vector_value(int64_t id, int s, int j) { return (double)id + 0.25 * j + 1e-3 * s; }
static int32_t int_value(int64_t id, int s) { return (int32_t)((id * 7 + s) % 1000003); }

typedef struct mesh {
  int64_t nodes;   /* N, all ranks */
  int64_t n;       /* this rank's */
  int64_t *ids;    /* n, random order */
  double **scalar; /* [segment][n] */
  double **vector; /* [segment][3n] */
  int32_t **ints;  /* [segment][n] */
  int64_t offset;  /* rank-ordered: the items of the ranks before this one */
  int64_t *pieces; /* every rank's n */
  char path[1024];
  /* pario */
  pario_decomp_t d_scalar, d_vector, d_int, d_id;
  /* gather (rank 0): each gathered node's global position */
  int64_t *position;
} mesh_t;

/* A series' value arrays: per state segment n scalars, 3n vector words
 * and n int32s (made or released together: the mesh's and a read's). */
static void values_make(int64_t n, double ***scalar, double ***vector, int32_t ***ints) {
  *scalar = xmalloc((size_t)segments * sizeof(double *));
  *vector = xmalloc((size_t)segments * sizeof(double *));
  *ints = xmalloc((size_t)segments * sizeof(int32_t *));
  for (int s = 0; s < segments; ++s) {
    (*scalar)[s] = xmalloc((size_t)n * sizeof(double));
    (*vector)[s] = xmalloc((size_t)n * 3 * sizeof(double));
    (*ints)[s] = xmalloc((size_t)n * sizeof(int32_t));
  }
}

static void values_free(double **scalar, double **vector, int32_t **ints) {
  for (int s = 0; s < segments; ++s) {
    free(scalar[s]);
    free(vector[s]);
    free(ints[s]);
  }
  free(scalar);
  free(vector);
  free(ints);
}

static void mesh_make(mesh_t *m, int64_t nodes) {
  memset(m, 0, sizeof *m);
  m->nodes = nodes;
  int64_t first;
  OK(pario_dataset_even_split(nodes, nranks, rank, &first, &m->n));
  m->ids = xmalloc((size_t)m->n * sizeof(int64_t));
  for (int64_t i = 0; i < m->n; ++i) m->ids[i] = id_at(shuffle(first + i, nodes));
  values_make(m->n, &m->scalar, &m->vector, &m->ints);
  for (int s = 0; s < segments; ++s) {
    for (int64_t i = 0; i < m->n; ++i) {
      const int64_t id = m->ids[i];
      m->scalar[s][i] = scalar_value(id, s);
      for (int j = 0; j < 3; ++j) m->vector[s][3 * i + j] = vector_value(id, s, j);
      m->ints[s][i] = int_value(id, s);
    }
  }
  m->pieces = xmalloc((size_t)nranks * sizeof(int64_t));
  MPIOK(MPI_Allgather(&m->n, 1, MPI_INT64_T, m->pieces, 1, MPI_INT64_T, MPI_COMM_WORLD));
  for (int r = 0; r < rank; ++r) m->offset += m->pieces[r];
}

static void mesh_free(mesh_t *m) {
  values_free(m->scalar, m->vector, m->ints);
  free(m->ids);
  free(m->pieces);
}

/* Raw files (gather, pwrite): the ids, then per state segment the scalar
 * (8N bytes), the vector (24N) and the int32 (4N). */
static int64_t raw_segment(const mesh_t *m, int s) { return 8 * m->nodes + (int64_t)s * 36 * m->nodes; }
static int64_t raw_vector(const mesh_t *m, int s) { return raw_segment(m, s) + 8 * m->nodes; }
static int64_t raw_int(const mesh_t *m, int s) { return raw_segment(m, s) + 32 * m->nodes; }

/* All of bytes at `at`, whatever the calls return short. */
static void move_all(int fd, void *buf, int64_t bytes, int64_t at, int write) {
  char *p = buf;
  while (bytes > 0) {
    const size_t len = (size_t)(bytes < (1 << 30) ? bytes : (1 << 30));
    const ssize_t k = write ? pwrite(fd, p, len, (off_t)at) : pread(fd, p, len, (off_t)at);
    if (k <= 0) die(write ? "pwrite" : "pread (a short file)");
    p += k;
    at += k;
    bytes -= k;
  }
}

static void pwrite_all(int fd, const void *buf, int64_t bytes, int64_t at) { move_all(fd, (void *)buf, bytes, at, 1); }

/* ---- pario: global-ordered sections through decompositions ---- */

static pario_group_t world;
static pario_dataset_t pds = PARIO_DATASET_NULL;
static int v_id, v_scalar, v_vector, v_int;

static void pario_setup(mesh_t *m) {
  int64_t *position = xmalloc((size_t)m->n * sizeof(int64_t));
  int64_t *words = xmalloc((size_t)m->n * 3 * sizeof(int64_t));
  int64_t global = 0;
  OK(pario_decomp_create_keys(world, PARIO_TYPE_DOUBLE, m->n, m->ids, NULL, position, &global, &m->d_scalar));
  if (global != m->nodes) die("pario_decomp_create_keys: the number of distinct ids");
  for (int64_t i = 0; i < m->n; ++i) {
    for (int j = 0; j < 3; ++j) words[3 * i + j] = 3 * position[i] + j;
  }
  OK(pario_decomp_create_indices(world, PARIO_TYPE_DOUBLE, 3 * global, 3 * m->n, words, NULL, &m->d_vector));
  OK(pario_decomp_create_indices(world, PARIO_TYPE_INT32, global, m->n, position, NULL, &m->d_int));
  OK(pario_decomp_create_indices(world, PARIO_TYPE_INT64, global, m->n, position, NULL, &m->d_id));
  free(words);
  free(position);
}

static void pario_teardown(mesh_t *m) {
  OK(pario_decomp_free(&m->d_scalar));
  OK(pario_decomp_free(&m->d_vector));
  OK(pario_decomp_free(&m->d_int));
  OK(pario_decomp_free(&m->d_id));
}

static void pario_begin(mesh_t *m) {
  pario_dataset_create_options_t o = {PARIO_DATASET_ONE_FILE, 0,
                                      is("pario-fsync")   ? PARIO_DATASET_SYNC_FSYNC
                                      : is("pario-write") ? PARIO_DATASET_SYNC_WRITE
                                                          : PARIO_DATASET_SYNC_NONE};
  OK(pario_dataset_create_with(world, m->path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &o, &pds));
  const int64_t three[1] = {3};
  OK(pario_dataset_variable_register(pds, "node_id", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_INT64, &v_id));
  OK(pario_dataset_variable_register(pds, "pressure", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v_scalar));
  OK(pario_dataset_variable_register(pds, "velocity", PARIO_ITEM_VECTOR, three, PARIO_TYPE_DOUBLE, &v_vector));
  OK(pario_dataset_variable_register(pds, "material", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_INT32, &v_int));
}

static void pario_topology(mesh_t *m) {
  int64_t seg;
  OK(pario_dataset_segment_append(pds, PARIO_SEGMENT_TOPOLOGY, 0, 0.0, &seg));
  OK(pario_dataset_write_decomp(pds, seg, v_id, m->d_id, m->ids));
}

static void pario_segment(mesh_t *m, int s) {
  int64_t seg;
  OK(pario_dataset_segment_append(pds, PARIO_SEGMENT_STATE, s, 0.1 * s, &seg));
  OK(pario_dataset_write_decomp(pds, seg, v_scalar, m->d_scalar, m->scalar[s]));
  OK(pario_dataset_write_decomp(pds, seg, v_vector, m->d_vector, m->vector[s]));
  OK(pario_dataset_write_decomp(pds, seg, v_int, m->d_int, m->ints[s]));
}

static void pario_end(mesh_t *m) {
  (void)m;
  OK(pario_dataset_close(&pds));
}

/* ---- reads: every rank its own nodes, in the order it wrote them ---- */

typedef struct readback {
  int64_t *ids;                  /* the topology segment's */
  double **scalar, **vector;     /* [segment][n], [segment][3n] */
  int32_t **ints;                /* [segment][n] */
} readback_t;

static void readback_make(readback_t *r, const mesh_t *m) {
  r->ids = xmalloc((size_t)m->n * sizeof(int64_t));
  values_make(m->n, &r->scalar, &r->vector, &r->ints);
}

static void readback_free(readback_t *r) {
  values_free(r->scalar, r->vector, r->ints);
  free(r->ids);
}

/* Whether every value read back is the one this rank wrote. */
static int readback_good(const readback_t *r, const mesh_t *m) {
  const size_t n = (size_t)m->n;
  int good = memcmp(r->ids, m->ids, n * sizeof(int64_t)) == 0;
  for (int s = 0; s < segments && good; ++s) {
    good = memcmp(r->scalar[s], m->scalar[s], n * sizeof(double)) == 0 &&
           memcmp(r->vector[s], m->vector[s], 3 * n * sizeof(double)) == 0 &&
           memcmp(r->ints[s], m->ints[s], n * sizeof(int32_t)) == 0;
  }
  return good;
}

static void pario_read(mesh_t *m, readback_t *r) {
  pario_dataset_t ds;
  OK(pario_dataset_open(world, m->path, PARIO_MODE_READ, &ds));
  OK(pario_dataset_read_decomp(ds, 0, v_id, m->d_id, r->ids));
  for (int s = 0; s < segments; ++s) {
    OK(pario_dataset_read_decomp(ds, s + 1, v_scalar, m->d_scalar, r->scalar[s]));
    OK(pario_dataset_read_decomp(ds, s + 1, v_vector, m->d_vector, r->vector[s]));
    OK(pario_dataset_read_decomp(ds, s + 1, v_int, m->d_int, r->ints[s]));
  }
  OK(pario_dataset_close(&ds));
}

/* ---- parallel HDF5 directly: rank-ordered hyperslabs ---- */

static hid_t h5_file = -1, h5_dxpl = -1;

static void h5_attr(hid_t obj, const char *name, hid_t type, hsize_t count, const void *value) {
  const hid_t space = count ? H5Screate_simple(1, &count, NULL) : H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  H5OK(a);
  H5OK(H5Awrite(a, type, value));
  H5Aclose(a);
  H5Sclose(space);
}

static void h5_begin(mesh_t *m) {
  const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5OK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
  H5OK(H5Pset_all_coll_metadata_ops(fapl, 1));
  H5OK(H5Pset_coll_metadata_write(fapl, 1));
  h5_file = H5Fcreate(m->path, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  H5OK(h5_file);
  H5Pclose(fapl);
  h5_dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5OK(H5Pset_dxpl_mpio(h5_dxpl, H5FD_MPIO_INDEPENDENT));
  const hid_t g = H5Gcreate2(h5_file, "segments", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5OK(g);
  H5Gclose(g);
}

/* A segment group with PDS's three attributes. */
static hid_t h5_segment_group(int position, const char *kind, int64_t time_index, double time_value) {
  char name[64];
  snprintf(name, sizeof name, "segments/%08d", position);
  const hid_t g = H5Gcreate2(h5_file, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5OK(g);
  const hid_t str = H5Tcopy(H5T_C_S1);
  H5OK(H5Tset_size(str, strlen(kind)));
  h5_attr(g, "kind", str, 0, kind);
  H5Tclose(str);
  h5_attr(g, "time_index", H5T_NATIVE_INT64, 0, &time_index);
  h5_attr(g, "time_value", H5T_NATIVE_DOUBLE, 0, &time_value);
  return g;
}

/* This rank's piece ([offset, +n) x k of the dataset's space) written
 * from or read into buf, one independent hyperslab transfer. */
static void h5_move_piece(const mesh_t *m, hid_t ds, hid_t space, int k, hid_t mem_type, void *buf, int write) {
  if (m->n == 0) return;
  const hsize_t start[2] = {(hsize_t)m->offset, 0}, count[2] = {(hsize_t)m->n, (hsize_t)k};
  const hid_t mem = H5Screate_simple(k > 1 ? 2 : 1, count, NULL);
  H5OK(mem);
  H5OK(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, NULL, count, NULL));
  H5OK(write ? H5Dwrite(ds, mem_type, mem, space, h5_dxpl, buf) : H5Dread(ds, mem_type, mem, space, h5_dxpl, buf));
  H5Sclose(mem);
}

/* One section: a dataset of [N] or [N, k] items, this rank's piece at its
 * rank-ordered offset, and every rank's item count as an attribute. */
static void h5_section(mesh_t *m, hid_t group, const char *name, hid_t file_type, hid_t mem_type, int k,
                       const void *buf) {
  const hsize_t dims[2] = {(hsize_t)m->nodes, (hsize_t)k};
  const hid_t space = H5Screate_simple(k > 1 ? 2 : 1, dims, NULL);
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5OK(H5Pset_alloc_time(dcpl, H5D_ALLOC_TIME_EARLY));
  H5OK(H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER));
  const hid_t ds = H5Dcreate2(group, name, file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  H5OK(ds);
  h5_attr(ds, "piece_items", H5T_NATIVE_INT64, (hsize_t)nranks, m->pieces);
  h5_move_piece(m, ds, space, k, mem_type, (void *)buf, 1);
  H5OK(H5Dclose(ds));
  H5Pclose(dcpl);
  H5Sclose(space);
}

static void h5_topology(mesh_t *m) {
  const hid_t g = h5_segment_group(0, "topology", 0, 0.0);
  h5_section(m, g, "node_id", H5T_STD_I64LE, H5T_NATIVE_INT64, 1, m->ids);
  H5Gclose(g);
}

static void h5_segment(mesh_t *m, int s) {
  const hid_t g = h5_segment_group(s + 1, "state", s, 0.1 * s);
  h5_section(m, g, "pressure", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 1, m->scalar[s]);
  h5_section(m, g, "velocity", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, 3, m->vector[s]);
  h5_section(m, g, "material", H5T_STD_I32LE, H5T_NATIVE_INT32, 1, m->ints[s]);
  H5Gclose(g);
}

static void h5_end(mesh_t *m) {
  (void)m;
  H5Pclose(h5_dxpl);
  H5OK(H5Fclose(h5_file));
}

/* ---- rank 0 gathers and writes raw binary in global order ---- */

static int gather_fd = -1;
static int *gather_counts, *gather_displs;
static char *gather_in, *gather_out;

static int compare_pairs(const void *a, const void *b) {
  const int64_t x = ((const int64_t *)a)[0], y = ((const int64_t *)b)[0];
  return (x > y) - (x < y);
}

static void gather_setup(mesh_t *m) {
  gather_counts = xmalloc((size_t)nranks * sizeof(int));
  gather_displs = xmalloc((size_t)nranks * sizeof(int));
  int64_t *ids = NULL;
  if (rank == 0) {
    for (int r = 0; r < nranks; ++r) {
      gather_counts[r] = (int)m->pieces[r];
      gather_displs[r] = r ? gather_displs[r - 1] + gather_counts[r - 1] : 0;
    }
    ids = xmalloc((size_t)m->nodes * sizeof(int64_t));
  }
  MPIOK(MPI_Gatherv(m->ids, (int)m->n, MPI_INT64_T, ids, gather_counts, gather_displs, MPI_INT64_T, 0,
                    MPI_COMM_WORLD));
  if (rank == 0) {
    /* (id, gathered index) sorted by id: the k-th is at position k */
    int64_t *pairs = xmalloc((size_t)m->nodes * 2 * sizeof(int64_t));
    for (int64_t i = 0; i < m->nodes; ++i) {
      pairs[2 * i] = ids[i];
      pairs[2 * i + 1] = i;
    }
    qsort(pairs, (size_t)m->nodes, 2 * sizeof(int64_t), compare_pairs);
    m->position = xmalloc((size_t)m->nodes * sizeof(int64_t));
    for (int64_t k = 0; k < m->nodes; ++k) m->position[pairs[2 * k + 1]] = k;
    free(pairs);
    free(ids);
  }
}

static void gather_teardown(mesh_t *m) {
  free(m->position);
  m->position = NULL;
  free(gather_counts);
  free(gather_displs);
}

static void gather_begin(mesh_t *m) {
  if (rank != 0) return;
  gather_fd = open(m->path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
  if (gather_fd < 0) die("gather: open");
  gather_in = xmalloc((size_t)m->nodes * 24);
  gather_out = xmalloc((size_t)m->nodes * 24);
}

/* Gathers one section of k words of `size` bytes per node, puts it in id
 * order and writes it at `at`. */
static void gather_section(mesh_t *m, const void *buf, MPI_Datatype type, int size, int k, int64_t at) {
  int counts[64], displs[64];
  if (rank == 0) {
    for (int r = 0; r < nranks; ++r) {
      counts[r] = gather_counts[r] * k;
      displs[r] = gather_displs[r] * k;
    }
  }
  MPIOK(MPI_Gatherv(buf, (int)m->n * k, type, gather_in, counts, displs, type, 0, MPI_COMM_WORLD));
  if (rank != 0) return;
  const size_t item = (size_t)size * (size_t)k;
  for (int64_t i = 0; i < m->nodes; ++i) {
    memcpy(gather_out + (size_t)m->position[i] * item, gather_in + (size_t)i * item, item);
  }
  pwrite_all(gather_fd, gather_out, m->nodes * (int64_t)item, at);
}

static void gather_topology(mesh_t *m) { gather_section(m, m->ids, MPI_INT64_T, 8, 1, 0); }

static void gather_segment(mesh_t *m, int s) {
  gather_section(m, m->scalar[s], MPI_DOUBLE, 8, 1, raw_segment(m, s));
  gather_section(m, m->vector[s], MPI_DOUBLE, 8, 3, raw_vector(m, s));
  gather_section(m, m->ints[s], MPI_INT32_T, 4, 1, raw_int(m, s));
}

static void gather_end(mesh_t *m) {
  (void)m;
  if (rank != 0) return;
  if (close(gather_fd) != 0) die("gather: close");
  free(gather_in);
  free(gather_out);
}

/* ---- pwrite at computed offsets: the limit for one shared file ---- */

static int pwrite_fd = -1;

static void pwrite_begin(mesh_t *m) {
  /* The file does not exist (every write starts from a removed file), so
   * no rank needs to truncate it first. */
  pwrite_fd = open(m->path, O_CREAT | O_WRONLY, 0644);
  if (pwrite_fd < 0) die("pwrite: open");
}

static void pwrite_topology(mesh_t *m) { pwrite_all(pwrite_fd, m->ids, m->n * 8, m->offset * 8); }

static void pwrite_segment(mesh_t *m, int s) {
  pwrite_all(pwrite_fd, m->scalar[s], m->n * 8, raw_segment(m, s) + m->offset * 8);
  pwrite_all(pwrite_fd, m->vector[s], m->n * 24, raw_vector(m, s) + m->offset * 24);
  pwrite_all(pwrite_fd, m->ints[s], m->n * 4, raw_int(m, s) + m->offset * 4);
}

static void pwrite_end(mesh_t *m) {
  (void)m;
  if (close(pwrite_fd) != 0) die("pwrite: close");
}

/* ---- checks (outside the timing) ---- */

/* Compares n values read back (got) with the expected ones: k words per
 * node, of the node whose id is ids[i] (ids NULL: the node at global
 * position first + i). */
static int check_values(const mesh_t *m, int s, int var, int64_t first, int64_t n, const int64_t *ids,
                        const void *got) {
  (void)m;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t id = ids ? ids[i] : id_at(first + i);
    switch (var) {
      case 0:
        if (((const int64_t *)got)[i] != id) return 0;
        break;
      case 1:
        if (((const double *)got)[i] != scalar_value(id, s)) return 0;
        break;
      case 2:
        for (int j = 0; j < 3; ++j) {
          if (((const double *)got)[3 * i + j] != vector_value(id, s, j)) return 0;
        }
        break;
      default:
        if (((const int32_t *)got)[i] != int_value(id, s)) return 0;
    }
  }
  return 1;
}

static void check_all(int good, const char *what) {
  int all = 0;
  MPIOK(MPI_Allreduce(&good, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
  if (!all) {
    if (rank == 0) fprintf(stderr, "pds_bench: %s: %s read back wrong values\n", bench_impl, what);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

static const int var_words[4] = {1, 1, 3, 1};
static const int var_bytes[4] = {8, 8, 8, 4};

/* pario: each rank reads its even split of every global-ordered section. */
static int pario_verify(mesh_t *m) {
  pario_dataset_t ds;
  OK(pario_dataset_open(world, m->path, PARIO_MODE_READ, &ds));
  int64_t count = 0;
  OK(pario_dataset_segment_count(ds, &count));
  int good = count == segments + 1;
  int64_t first, n;
  OK(pario_dataset_even_split(m->nodes, nranks, rank, &first, &n));
  void *buf = xmalloc((size_t)n * 24);
  const char *names[4] = {"node_id", "pressure", "velocity", "material"};
  int ids[4];
  for (int v = 0; v < 4; ++v) OK(pario_dataset_variable_find(ds, names[v], &ids[v]));
  OK(pario_dataset_read_items(ds, 0, ids[0], first, n, buf));
  good = good && check_values(m, 0, 0, first, n, NULL, buf);
  for (int s = 0; s < segments; ++s) {
    for (int v = 1; v < 4; ++v) {
      OK(pario_dataset_read_items(ds, s + 1, ids[v], first, n, buf));
      good = good && check_values(m, s, v, first, n, NULL, buf);
    }
  }
  free(buf);
  OK(pario_dataset_close(&ds));
  return good;
}

/* h5-ranked: each rank reads its own hyperslab of every section. */
static void h5_read_section(hid_t file, const mesh_t *m, int position, const char *name, hid_t mem_type, int k,
                            void *buf) {
  char path[96];
  snprintf(path, sizeof path, "segments/%08d/%s", position, name);
  const hid_t ds = H5Dopen2(file, path, H5P_DEFAULT);
  H5OK(ds);
  const hid_t space = H5Dget_space(ds);
  H5OK(space);
  h5_move_piece(m, ds, space, k, mem_type, buf, 0);
  H5Sclose(space);
  H5OK(H5Dclose(ds));
}

static void h5_read(mesh_t *m, readback_t *r) {
  const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5OK(H5Pset_fapl_mpio(fapl, MPI_COMM_WORLD, MPI_INFO_NULL));
  H5OK(H5Pset_all_coll_metadata_ops(fapl, 1));
  const hid_t file = H5Fopen(m->path, H5F_ACC_RDONLY, fapl);
  H5OK(file);
  H5Pclose(fapl);
  h5_dxpl = H5Pcreate(H5P_DATASET_XFER);
  H5OK(H5Pset_dxpl_mpio(h5_dxpl, H5FD_MPIO_INDEPENDENT));
  h5_read_section(file, m, 0, "node_id", H5T_NATIVE_INT64, 1, r->ids);
  for (int s = 0; s < segments; ++s) {
    h5_read_section(file, m, s + 1, "pressure", H5T_NATIVE_DOUBLE, 1, r->scalar[s]);
    h5_read_section(file, m, s + 1, "velocity", H5T_NATIVE_DOUBLE, 3, r->vector[s]);
    h5_read_section(file, m, s + 1, "material", H5T_NATIVE_INT32, 1, r->ints[s]);
  }
  H5Pclose(h5_dxpl);
  H5OK(H5Fclose(file));
}

/* A check through the timed read's path, outside the timing (h5-ranked,
 * pwrite: each rank's own piece is what it can check). */
static int readback_verify(mesh_t *m, void (*read)(mesh_t *, readback_t *)) {
  readback_t r;
  readback_make(&r, m);
  read(m, &r);
  const int good = readback_good(&r, m);
  readback_free(&r);
  return good;
}

static int h5_verify(mesh_t *m) { return readback_verify(m, h5_read); }

/* gather's raw file is in global order: each rank checks its even split
 * against the ids that belong there. */
static int gather_verify(mesh_t *m) {
  const int fd = open(m->path, O_RDONLY);
  if (fd < 0) die("open for the check");
  int64_t first, n;
  OK(pario_dataset_even_split(m->nodes, nranks, rank, &first, &n));
  void *buf = xmalloc((size_t)n * 24);
  int good = 1;
  for (int s = -1; s < segments; ++s) {
    for (int v = s < 0 ? 0 : 1; v < (s < 0 ? 1 : 4); ++v) {
      const int64_t base = s < 0 ? 0 : v == 1 ? raw_segment(m, s) : v == 2 ? raw_vector(m, s) : raw_int(m, s);
      const int64_t item = (int64_t)var_words[v] * var_bytes[v];
      move_all(fd, buf, n * item, base + first * item, 0);
      good = good && check_values(m, s < 0 ? 0 : s, v, first, n, NULL, buf);
    }
  }
  free(buf);
  close(fd);
  return good;
}

/* pwrite: each rank preads its own pieces. */
static void pwrite_read(mesh_t *m, readback_t *r) {
  const int fd = open(m->path, O_RDONLY);
  if (fd < 0) die("pwrite: open for reading");
  move_all(fd, r->ids, m->n * 8, m->offset * 8, 0);
  for (int s = 0; s < segments; ++s) {
    move_all(fd, r->scalar[s], m->n * 8, raw_segment(m, s) + m->offset * 8, 0);
    move_all(fd, r->vector[s], m->n * 24, raw_vector(m, s) + m->offset * 24, 0);
    move_all(fd, r->ints[s], m->n * 4, raw_int(m, s) + m->offset * 4, 0);
  }
  if (close(fd) != 0) die("pwrite: close after reading");
}

static int pwrite_verify(mesh_t *m) { return readback_verify(m, pwrite_read); }

/* gather: rank 0 preads each section, puts it in the ranks' order (the
 * inverse of gather_section's) and scatters it. */
static void gather_read_section(mesh_t *m, int fd, void *buf, MPI_Datatype type, int size, int k, int64_t at) {
  int counts[64], displs[64];
  const size_t item = (size_t)size * (size_t)k;
  if (rank == 0) {
    for (int r = 0; r < nranks; ++r) {
      counts[r] = gather_counts[r] * k;
      displs[r] = gather_displs[r] * k;
    }
    move_all(fd, gather_out, m->nodes * (int64_t)item, at, 0);
    for (int64_t i = 0; i < m->nodes; ++i) {
      memcpy(gather_in + (size_t)i * item, gather_out + (size_t)m->position[i] * item, item);
    }
  }
  MPIOK(MPI_Scatterv(gather_in, counts, displs, type, buf, (int)m->n * k, type, 0, MPI_COMM_WORLD));
}

static void gather_read(mesh_t *m, readback_t *r) {
  int fd = -1;
  if (rank == 0) {
    fd = open(m->path, O_RDONLY);
    if (fd < 0) die("gather: open for reading");
    gather_in = xmalloc((size_t)m->nodes * 24);
    gather_out = xmalloc((size_t)m->nodes * 24);
  }
  gather_read_section(m, fd, r->ids, MPI_INT64_T, 8, 1, 0);
  for (int s = 0; s < segments; ++s) {
    gather_read_section(m, fd, r->scalar[s], MPI_DOUBLE, 8, 1, raw_segment(m, s));
    gather_read_section(m, fd, r->vector[s], MPI_DOUBLE, 8, 3, raw_vector(m, s));
    gather_read_section(m, fd, r->ints[s], MPI_INT32_T, 4, 1, raw_int(m, s));
  }
  if (rank == 0) {
    if (close(fd) != 0) die("gather: close after reading");
    free(gather_in);
    free(gather_out);
    gather_in = gather_out = NULL;
  }
}

/* ---- the implementations ---- */

typedef struct ops {
  const char *name, *suffix;
  void (*setup)(mesh_t *);
  void (*teardown)(mesh_t *);
  void (*begin)(mesh_t *);
  void (*topology)(mesh_t *);
  void (*segment)(mesh_t *, int);
  void (*end)(mesh_t *);
  int (*verify)(mesh_t *);
  void (*read)(mesh_t *, readback_t *);
} ops_t;

static void nothing(mesh_t *m) { (void)m; }

static const ops_t kImpls[] = {
    {"pario", "h5", pario_setup, pario_teardown, pario_begin, pario_topology, pario_segment, pario_end,
     pario_verify, pario_read},
    {"pario-write", "h5", pario_setup, pario_teardown, pario_begin, pario_topology, pario_segment, pario_end,
     pario_verify, pario_read},
    {"pario-fsync", "h5", pario_setup, pario_teardown, pario_begin, pario_topology, pario_segment, pario_end,
     pario_verify, pario_read},
    {"h5-ranked", "h5", nothing, nothing, h5_begin, h5_topology, h5_segment, h5_end, h5_verify, h5_read},
    {"gather", "raw", gather_setup, gather_teardown, gather_begin, gather_topology, gather_segment, gather_end,
     gather_verify, gather_read},
    {"pwrite", "raw", nothing, nothing, pwrite_begin, pwrite_topology, pwrite_segment, pwrite_end, pwrite_verify,
     pwrite_read},
};

/* ---- phases ---- */

static int64_t status_kib(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  if (!f) return 0;
  char line[256];
  int64_t v = 0;
  const size_t len = strlen(key);
  while (fgets(line, sizeof line, f)) {
    if (!strncmp(line, key, len) && line[len] == ':') {
      v = atoll(line + len + 1);
      break;
    }
  }
  fclose(f);
  return v;
}

/* Resets this process's peak RSS (Linux >= 4.0); returns the RSS now. */
static int64_t reset_peak_kib(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (f) {
    fputs("5", f);
    fclose(f);
  }
  return status_kib("VmRSS");
}

/* This process's CPU time so far (user + system), seconds. */
static double cpu_seconds(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + 1e-6 * (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

/* The dirty pages of earlier writes are not this write's to flush. */
static void sync_all(void) {
  MPIOK(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) sync();
  MPIOK(MPI_Barrier(MPI_COMM_WORLD));
}

static void remove_file(const mesh_t *m) {
  MPIOK(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) unlink(m->path);
  MPIOK(MPI_Barrier(MPI_COMM_WORLD));
}

/* One whole series; segment_ms (S + 1 entries, or NULL): each segment's
 * time between barriers, the topology first. */
static double write_series(const ops_t *o, mesh_t *m, int flushed, double *segment_ms) {
  MPIOK(MPI_Barrier(MPI_COMM_WORLD));
  const double t0 = MPI_Wtime();
  o->begin(m);
  for (int s = -1; s < segments; ++s) {
    const double ts = MPI_Wtime();
    if (s < 0) o->topology(m);
    else o->segment(m, s);
    if (segment_ms) {
      MPIOK(MPI_Barrier(MPI_COMM_WORLD));
      segment_ms[s + 1] = 1e3 * (MPI_Wtime() - ts);
    }
  }
  o->end(m);
  if (flushed) {
    MPIOK(MPI_Barrier(MPI_COMM_WORLD)); /* every rank has closed it */
    if (rank == 0) {
      const int fd = open(m->path, O_RDONLY);
      if (fd < 0 || fdatasync(fd) != 0) die("fdatasync");
      close(fd);
    }
  }
  MPIOK(MPI_Barrier(MPI_COMM_WORLD));
  return MPI_Wtime() - t0;
}

/* The file's pages out of the page cache (clean after the flushed
 * write's fdatasync; dirty ones would stay), so the next read is cold. */
static void evict(const mesh_t *m) {
  MPIOK(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) {
    const int fd = open(m->path, O_RDONLY);
    if (fd < 0 || fdatasync(fd) != 0) die("evict: fdatasync");
    const int rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (rc != 0) {
      errno = rc;
      die("evict: posix_fadvise");
    }
    close(fd);
  }
  MPIOK(MPI_Barrier(MPI_COMM_WORLD));
}

/* The whole series read back, timed between barriers (rank 0's time). */
static double read_series(const ops_t *o, mesh_t *m, readback_t *r) {
  MPIOK(MPI_Barrier(MPI_COMM_WORLD));
  const double t0 = MPI_Wtime();
  o->read(m, r);
  MPIOK(MPI_Barrier(MPI_COMM_WORLD));
  return MPI_Wtime() - t0;
}

static void print_per_rank(const char *key, double mine) {
  double *all = xmalloc((size_t)nranks * sizeof(double));
  MPIOK(MPI_Gather(&mine, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD));
  if (rank == 0) {
    printf(", \"%s\": [", key);
    for (int r = 0; r < nranks; ++r) printf("%s%.3f", r ? ", " : "", all[r]);
    printf("]");
  }
  free(all);
}

/* One measurement's JSON line (rank 0), with every rank's peak and base
 * memory and CPU seconds since cpu0. */
static void print_measurement(const ops_t *o, const mesh_t *m, const char *op, double seconds, int64_t bytes,
                              double setup, double base_mib, double cpu0) {
  const double cpu = cpu_seconds() - cpu0;
  const double peak_mib = (double)status_kib("VmHWM") / 1024.0;
  if (rank == 0) {
    printf("{\"impl\": \"%s\", \"op\": \"%s\", \"ranks\": %d, \"nodes\": %lld, \"segments\": %d, "
           "\"seconds\": %.6f, \"bytes\": %lld, \"setup_seconds\": %.6f",
           o->name, op, nranks, (long long)m->nodes, segments, seconds, (long long)bytes, setup);
  }
  print_per_rank("peak_mib", peak_mib);
  print_per_rank("base_mib", base_mib);
  print_per_rank("cpu_seconds", cpu);
  if (rank == 0) {
    printf("}\n");
    fflush(stdout);
  }
}

static void run(const ops_t *o, int64_t nodes, int64_t probe_nodes) {
  bench_impl = o->name;
  /* 1. the metadata probe, also the libraries' warm-up */
  mesh_t probe;
  mesh_make(&probe, probe_nodes);
  snprintf(probe.path, sizeof probe.path, "%s/pds-probe-%s.%s", dir, o->name, o->suffix);
  remove_file(&probe);
  o->setup(&probe);
  double *ms = xmalloc((size_t)(segments + 1) * sizeof(double));
  write_series(o, &probe, 0, ms);
  check_all(o->verify(&probe), "the metadata probe");
  remove_file(&probe);
  o->teardown(&probe);
  mesh_free(&probe);
  if (rank == 0) {
    printf("{\"impl\": \"%s\", \"op\": \"metadata probe\", \"ranks\": %d, \"nodes\": %lld, \"segment_ms\": [", o->name,
           nranks, (long long)probe_nodes);
    for (int s = 0; s <= segments; ++s) printf("%s%.3f", s ? ", " : "", ms[s]);
    printf("]}\n");
    fflush(stdout);
  }
  free(ms);

  /* 2.-6. setup, then the timed writes and reads, each checked */
  mesh_t m;
  mesh_make(&m, nodes);
  snprintf(m.path, sizeof m.path, "%s/pds-%s.%s", dir, o->name, o->suffix);
  remove_file(&m);
  MPIOK(MPI_Barrier(MPI_COMM_WORLD));
  double t0 = MPI_Wtime();
  o->setup(&m);
  MPIOK(MPI_Barrier(MPI_COMM_WORLD));
  const double setup = MPI_Wtime() - t0;
  const int64_t bytes = 8 * nodes + (int64_t)segments * 36 * nodes;
  for (int flushed = 0; flushed < 2; ++flushed) {
    sync_all();
    double base_mib = (double)reset_peak_kib() / 1024.0;
    double cpu0 = cpu_seconds();
    double seconds = write_series(o, &m, flushed, NULL);
    print_measurement(o, &m, flushed ? "write flushed" : "write page cache", seconds, bytes, setup, base_mib, cpu0);
    check_all(o->verify(&m), flushed ? "write flushed" : "write page cache");
    /* The read: warm after the page-cache write (the check just read the
     * file too), cold after the flushed one. */
    if (flushed) evict(&m);
    readback_t r;
    readback_make(&r, &m);
    base_mib = (double)reset_peak_kib() / 1024.0;
    cpu0 = cpu_seconds();
    seconds = read_series(o, &m, &r);
    print_measurement(o, &m, flushed ? "read cold" : "read warm", seconds, bytes, setup, base_mib, cpu0);
    check_all(readback_good(&r, &m), flushed ? "read cold" : "read warm");
    readback_free(&r);
    remove_file(&m);
  }
  o->teardown(&m);
  mesh_free(&m);
}

/* A decimal count (an option's value); -1 when it does not parse whole. */
static int64_t parse_count(const char *option, const char *text) {
  char *end = NULL;
  errno = 0;
  const long long v = strtoll(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0') {
    if (rank == 0) fprintf(stderr, "pds_bench: %s %s: not a whole number\n", option, text);
    return -1;
  }
  return (int64_t)v;
}

int main(int argc, char **argv) {
  /* Blocks of 1 MiB and more are mmapped and unmapped when freed, so one
   * implementation's buffers are not in the next one's peak RSS (a fixed
   * threshold also stops glibc raising it as large blocks are freed). */
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
  OK(pario_init()); /* MPI_Init too */
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  bench_rank = rank;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  const char *impls = "pario,pario-write,pario-fsync,h5-ranked,gather,pwrite";
  int64_t nodes = 2000000, probe_per_rank = 16, segs = segments;
  if (argc % 2 == 0) die("arguments: an option without its value");
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--impls")) impls = argv[i + 1];
    else if (!strcmp(argv[i], "--dir")) dir = argv[i + 1];
    else if (!strcmp(argv[i], "--nodes")) nodes = parse_count(argv[i], argv[i + 1]);
    else if (!strcmp(argv[i], "--segments")) segs = parse_count(argv[i], argv[i + 1]);
    else if (!strcmp(argv[i], "--probe-nodes")) probe_per_rank = parse_count(argv[i], argv[i + 1]);
    else die("an unknown argument");
  }
  /* MPI counts are int: 3 N words must fit (gather) */
  if (nodes < 1 || nodes > INT32_MAX / 3 || segs < 1 || segs > 100000 || probe_per_rank < 1 ||
      probe_per_rank > 1000000 || nranks > 64) {
    die("arguments (--nodes 1..715827882, --segments 1..100000, --probe-nodes 1..1000000, at most 64 ranks)");
  }
  segments = (int)segs;
  OK(pario_group_world(&world));
  char *list = strdup(impls);
  if (!list) die("strdup");
  for (char *save = NULL, *name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
    const ops_t *o = NULL;
    for (size_t k = 0; k < sizeof kImpls / sizeof kImpls[0]; ++k) {
      if (!strcmp(kImpls[k].name, name)) o = &kImpls[k];
    }
    bench_impl = name;
    if (!o) die("--impls: an unknown implementation");
    run(o, nodes, probe_per_rank * nranks);
  }
  free(list);
  OK(pario_group_free(&world));
  OK(pario_finalize()); /* MPI_Finalize too */
  return 0;
}
