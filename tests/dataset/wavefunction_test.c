/* MFDn's wave-function file through the C API (pario/wavefunction.h).
 *   wavefunction_test write FILE TRANSFER   (independent|collective|aggregators)
 *     makes a file of 5 vectors over a basis of 1003 states, each rank
 *     writing an uneven contiguous slice (rank 2 of 4 none), reads every
 *     vector back in the reverse slicing in the same run, writes the
 *     observables of the even vectors; h5py then reads it (wavefunction_check.py).
 *   wavefunction_test read FILE
 *     opens a file written at another rank count, checks basis and
 *     observables, reads every vector in even slices and one overlapping
 *     slice, refuses writes (read-only).
 *   wavefunction_test bad DIR
 *     slices that do not tile a vector, slices outside it, a file that is
 *     not a wave-function file (a PDS dataset, a text file), a truncated
 *     file, reading an unwritten vector, a bad basis: a clear error, the
 *     same on every rank; the file stays usable after a failed write.
 *   wavefunction_test hints DIR   (under PARIO_STATS=1: CTest sets it)
 *     the collective engine's hints of create_with and open_with reach
 *     the aggregators' transfer (its rounds counted); refused hints. */
#include <hdf5.h>
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

enum { kVectors = 5, kDim = 1003 };

static int rank, size;
static pario_group_t world;

static double value(int k, int64_t i) { return 1000.0 * k + 0.5 * (double)i + 0.25; }

/* The writers' slicing: uneven, and at 4 ranks rank 2 holds nothing. */
static void write_slice(int r, int n, int64_t *start, int64_t *count) {
  int64_t at = 0;
  for (int q = 0; q <= r; ++q) {
    int64_t c = (q == n - 1) ? kDim - at : (q == 2 && n == 4 ? 0 : kDim / n + (q % 2 ? 17 : -9));
    if (q == r) {
      *start = at;
      *count = c;
    }
    at += c;
  }
}

static pario_wavefunction_basis_t the_basis(void) {
  pario_wavefunction_basis_t b = {kDim, 3, 3, 4, 1, 0, 20.0}; /* 6Li, N_max 4, 20 MeV */
  return b;
}

/* The same status on every rank (PARIO_ERR_REMOTE counting as `code`). */
static void expect_everywhere(int rc, int code, const char *text) {
  char m[512];
  pario_last_error_message(m, sizeof m);
  const int mine = rc == PARIO_ERR_REMOTE ? code : rc;
  int lo = 0, hi = 0;
  MPI_Allreduce(&mine, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&mine, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK(lo == code && hi == code);
  if (rc != PARIO_ERR_REMOTE && !strstr(m, text)) {
    fprintf(stderr, "rank %d: message '%s' lacks '%s'\n", rank, m, text);
    ++check_failures;
  }
  if (lo != code || hi != code) fprintf(stderr, "rank %d: status %d, message '%s'\n", rank, rc, m);
}

static int check_vector(pario_wavefunction_t wf, int k, int64_t start, int64_t count) {
  double *buf = malloc((size_t)(count > 0 ? count : 1) * sizeof *buf);
  int good = pario_wavefunction_read(wf, k, start, count, buf) == PARIO_OK;
  for (int64_t i = 0; good && i < count; ++i) good = buf[i] == value(k, start + i);
  free(buf);
  return good;
}

static int transfer_of(const char *name) {
  if (!strcmp(name, "independent")) return PARIO_WF_TRANSFER_INDEPENDENT;
  if (!strcmp(name, "collective")) return PARIO_WF_TRANSFER_COLLECTIVE;
  if (!strcmp(name, "aggregators")) return PARIO_WF_TRANSFER_AGGREGATORS;
  return PARIO_WF_TRANSFER_DEFAULT;
}

static void write_file(const char *path, int transfer) {
  const pario_wavefunction_basis_t basis = the_basis();
  pario_wavefunction_t wf = PARIO_WAVEFUNCTION_NULL;
  CHECK(pario_wavefunction_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &basis, kVectors, transfer,
                                  &wf) == PARIO_OK);
  int t = -1, n = 0;
  pario_wavefunction_basis_t back;
  CHECK(pario_wavefunction_info(wf, &back, &n, &t) == PARIO_OK);
  CHECK(n == kVectors && back.dimension == kDim && back.hbar_omega == 20.0);
  CHECK(t == (transfer ? transfer : PARIO_WF_TRANSFER_INDEPENDENT));
  /* Observables reserved: NaN, and nothing written yet. */
  double e = 0, j = 0, tt = 0;
  int written = 1;
  CHECK(pario_wavefunction_observables(wf, 0, &e, &j, &tt, &written) == PARIO_OK);
  CHECK(isnan(e) && isnan(j) && isnan(tt) && written == 0);
  double one = 0;
  expect_everywhere(pario_wavefunction_read(wf, 0, 0, 1, &one), PARIO_ERR_NOT_FOUND, "never written");

  int64_t start = 0, count = 0;
  write_slice(rank, size, &start, &count);
  double *buf = malloc((size_t)kDim * sizeof *buf);
  for (int k = 0; k < kVectors; ++k) {
    for (int64_t i = 0; i < count; ++i) buf[i] = value(k, start + i);
    CHECK(pario_wavefunction_write(wf, k, start, count, buf) == PARIO_OK);
  }
  free(buf);
  /* Read back in another slicing (the reverse rank's even split). */
  for (int k = 0; k < kVectors; ++k) {
    int64_t s, c;
    pario_dataset_even_split(kDim, size, size - 1 - rank, &s, &c);
    CHECK(check_vector(wf, k, s, c));
  }
  for (int k = 0; k < kVectors; k += 2) {
    CHECK(pario_wavefunction_set_observables(wf, k, -31.5 + k, k % 4 == 0 ? 1.0 : 3.0, 0.0) == PARIO_OK);
  }
  CHECK(pario_wavefunction_observables(wf, 2, &e, &j, &tt, &written) == PARIO_OK);
  CHECK(e == -29.5 && j == 3.0 && tt == 0.0 && written == 1);
  CHECK(pario_wavefunction_close(&wf) == PARIO_OK);
  CHECK(wf == PARIO_WAVEFUNCTION_NULL);
}

static void read_file(const char *path) {
  pario_wavefunction_t wf = PARIO_WAVEFUNCTION_NULL;
  CHECK(pario_wavefunction_open(world, path, PARIO_MODE_READ, PARIO_WF_TRANSFER_DEFAULT, &wf) == PARIO_OK);
  pario_wavefunction_basis_t b;
  int n = 0, t = 0;
  CHECK(pario_wavefunction_info(wf, &b, &n, &t) == PARIO_OK);
  /* The environment's transfer is the default's (ctest sets it per case). */
  const char *env = getenv("PARIO_WAVEFUNCTION_TRANSFER");
  CHECK(t == (env ? transfer_of(env) : PARIO_WF_TRANSFER_INDEPENDENT));
  CHECK(n == kVectors && b.dimension == kDim && b.protons == 3 && b.neutrons == 3 && b.nmax == 4 && b.parity == 1 &&
        b.two_mj == 0 && b.hbar_omega == 20.0);
  for (int k = 0; k < kVectors; ++k) {
    double e, j, t;
    int written = 0;
    CHECK(pario_wavefunction_observables(wf, k, &e, &j, &t, &written) == PARIO_OK);
    CHECK(written == 1);
    if (k % 2 == 0) CHECK(e == -31.5 + k && j == (k % 4 == 0 ? 1.0 : 3.0) && t == 0.0);
    else CHECK(isnan(e) && isnan(j) && isnan(t));
    int64_t s, c;
    pario_dataset_even_split(kDim, size, rank, &s, &c);
    CHECK(check_vector(wf, k, s, c));
    CHECK(check_vector(wf, k, 100 + rank, 400)); /* overlapping every other rank's */
  }
  expect_everywhere(pario_wavefunction_set_observables(wf, 0, 1.0, 1.0, 1.0), PARIO_ERR_STATE, "read-only");
  expect_everywhere(pario_wavefunction_write(wf, 0, rank == 0 ? 0 : 0, rank == 0 ? kDim : 0, NULL), PARIO_ERR_STATE,
                    "read-only");
  CHECK(pario_wavefunction_close(&wf) == PARIO_OK);
}

static void on_root(const char *cmd) {
  if (rank == 0) CHECK(system(cmd) == 0);
  MPI_Barrier(MPI_COMM_WORLD);
}

static void expect_open_fails(const char *path, int code, const char *text) {
  pario_wavefunction_t wf = PARIO_WAVEFUNCTION_NULL;
  expect_everywhere(pario_wavefunction_open(world, path, PARIO_MODE_READ, 0, &wf), code, text);
  CHECK(wf == PARIO_WAVEFUNCTION_NULL);
}

/* Copies good to dir/name (left in `path`) and rewrites one int64
 * attribute there with HDF5 directly, serially on rank 0. */
static void damage(const char *dir, const char *good, const char *name, const char *object, const char *attr,
                   int64_t v, char path[700]) {
  char cmd[1600];
  snprintf(path, 700, "%s/%s", dir, name);
  snprintf(cmd, sizeof cmd, "cp '%s' '%s'", good, path);
  on_root(cmd);
  if (rank == 0) {
    const hid_t f = H5Fopen(path, H5F_ACC_RDWR, H5P_DEFAULT);
    const hid_t o = H5Oopen(f, object, H5P_DEFAULT);
    CHECK(f >= 0 && o >= 0 && H5Adelete(o, attr) >= 0);
    const hid_t s = H5Screate(H5S_SCALAR);
    const hid_t a = H5Acreate2(o, attr, H5T_STD_I64LE, s, H5P_DEFAULT, H5P_DEFAULT);
    CHECK(a >= 0 && H5Awrite(a, H5T_NATIVE_INT64, &v) >= 0);
    H5Aclose(a);
    H5Sclose(s);
    H5Oclose(o);
    H5Fclose(f);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

static void bad_input(const char *dir) {
  char good[600], path[700], cmd[1600];
  snprintf(good, sizeof good, "%s/good.h5", dir);
  on_root("true");
  {
    char mk[1500];  /* empty: the checks below look at files this run made */
    snprintf(mk, sizeof mk, "rm -rf '%s' && mkdir -p '%s'", dir, dir);
    on_root(mk);
  }
  pario_wavefunction_basis_t basis = the_basis();
  pario_wavefunction_t wf = PARIO_WAVEFUNCTION_NULL;
  CHECK(pario_wavefunction_create(world, good, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &basis, 2, 0, &wf) ==
        PARIO_OK);
  {
    struct stat st;  /* private to the user, as every pario file */
    int private_file = rank != 0 || (stat(good, &st) == 0 && (st.st_mode & 0777) == 0600);
    MPI_Bcast(&private_file, 1, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(private_file);
  }
  int64_t start, count;
  pario_dataset_even_split(kDim, size, rank, &start, &count);
  double *buf = malloc((size_t)kDim * sizeof *buf);
  for (int64_t i = 0; i < kDim; ++i) buf[i] = value(0, i);

  /* Wrong slice sizes: one short everywhere (a gap or a short total). */
  expect_everywhere(pario_wavefunction_write(wf, 0, start, count - (rank == size - 1), buf + start),
                    PARIO_ERR_INVALID_ARGUMENT, "slices");
  if (size > 1) { /* overlapping: rank 1 starts one early */
    expect_everywhere(pario_wavefunction_write(wf, 0, start - (rank == 1), count + (rank == 1), buf + start - (rank == 1)),
                      PARIO_ERR_INVALID_ARGUMENT, "overlaps");
  }
  /* Outside the vector on one rank: that rank's error, the others remote. */
  expect_everywhere(pario_wavefunction_write(wf, 0, rank == size - 1 ? kDim - 3 : start, rank == size - 1 ? 5 : count,
                                             buf),
                    PARIO_ERR_OUT_OF_RANGE, "start, count");
  expect_everywhere(pario_wavefunction_write(wf, 2, start, count, buf + start), PARIO_ERR_INVALID_ARGUMENT,
                    "not in 0..1");
  /* Nothing was marked written by the failures. */
  int written = 1;
  CHECK(pario_wavefunction_observables(wf, 0, NULL, NULL, NULL, &written) == PARIO_OK && written == 0);
  double x;
  expect_everywhere(pario_wavefunction_read(wf, 1, 0, 1, &x), PARIO_ERR_NOT_FOUND, "never written");
  /* The file goes on: a good write and read after the failures. */
  CHECK(pario_wavefunction_write(wf, 0, start, count, buf + start) == PARIO_OK);
  CHECK(pario_wavefunction_write(wf, 1, start, count, buf + start) == PARIO_OK);
  CHECK(check_vector(wf, 0, start, count));
  CHECK(pario_wavefunction_close(&wf) == PARIO_OK);

  /* A bad basis, a bad vector count, a bad transfer hint. */
  snprintf(path, sizeof path, "%s/never.h5", dir);
  pario_wavefunction_basis_t odd = basis;
  odd.two_mj = 1; /* A = 6 is even */
  expect_everywhere(pario_wavefunction_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &odd, 2, 0, &wf),
                    PARIO_ERR_INVALID_ARGUMENT, "two_mj");
  expect_everywhere(pario_wavefunction_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &basis, 0, 0, &wf),
                    PARIO_ERR_INVALID_ARGUMENT, "nvectors");
  expect_everywhere(pario_wavefunction_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &basis, 2, 7, &wf),
                    PARIO_ERR_INVALID_ARGUMENT, "transfer 7");
  expect_everywhere(pario_wavefunction_create(world, good, PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &basis, 2, 0, &wf),
                    PARIO_ERR_EXISTS, "good.h5");
  CHECK(wf == PARIO_WAVEFUNCTION_NULL);

  /* Files that are not wave-function files. */
  snprintf(path, sizeof path, "%s/missing.h5", dir);
  expect_open_fails(path, PARIO_ERR_NOT_FOUND, "missing.h5");
  /* A symbolic link, even to a good file, is neither opened nor replaced. */
  snprintf(path, sizeof path, "%s/link.h5", dir);
  snprintf(cmd, sizeof cmd, "ln -s '%s' '%s'", good, path);
  on_root(cmd);
  expect_open_fails(path, PARIO_ERR_PERMISSION, "symbolic link");
  expect_everywhere(pario_wavefunction_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &basis, 2, 0, &wf),
                    PARIO_ERR_PERMISSION, "symbolic link");
  snprintf(path, sizeof path, "%s/text.h5", dir);
  snprintf(cmd, sizeof cmd, "echo 'not hdf5 at all' > '%s'", path);
  on_root(cmd);
  expect_open_fails(path, PARIO_ERR_CORRUPT, "text.h5");
  /* and create with truncate leaves such a file alone */
  expect_everywhere(pario_wavefunction_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &basis, 2, 0, &wf),
                    PARIO_ERR_EXISTS, "not replaced");
  snprintf(path, sizeof path, "%s/pds.h5", dir);
  pario_dataset_t ds = PARIO_DATASET_NULL;
  CHECK(pario_dataset_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &ds) == PARIO_OK);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  expect_open_fails(path, PARIO_ERR_CORRUPT, "no pario_format attribute \"pario wavefunction\"");

  /* A truncated file: the good one cut to half its size. */
  snprintf(path, sizeof path, "%s/cut.h5", dir);
  snprintf(cmd, sizeof cmd, "cp '%s' '%s' && truncate -s $(( $(stat -c %%s '%s') / 2 )) '%s'", good, path, good, path);
  on_root(cmd);
  {
    pario_wavefunction_t cut = PARIO_WAVEFUNCTION_NULL;
    const int rc = pario_wavefunction_open(world, path, PARIO_MODE_READ, 0, &cut);
    int mine = rc == PARIO_ERR_REMOTE ? PARIO_ERR_CORRUPT : rc, lo, hi;
    MPI_Allreduce(&mine, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&mine, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK(lo == hi && (rc == PARIO_ERR_CORRUPT || rc == PARIO_ERR_IO || rc == PARIO_ERR_REMOTE));
    char m[512];
    pario_last_error_message(m, sizeof m);
    if (rc != PARIO_ERR_REMOTE) CHECK(strstr(m, "cut.h5") != NULL);
    CHECK(cut == PARIO_WAVEFUNCTION_NULL);
  }
  /* Damaged records, rewritten with HDF5 itself on rank 0: a dimension
   * that is not the vectors' length, a parity of 2, a vector count of 3. */
  damage(dir, good, "dim.h5", "/basis", "dimension", 5, path);
  expect_open_fails(path, PARIO_ERR_CORRUPT, "not a vector of the basis dimension 5");
  damage(dir, good, "parity.h5", "/basis", "parity", 2, path);
  expect_open_fails(path, PARIO_ERR_CORRUPT, "parity 2");
  damage(dir, good, "count.h5", "/vectors", "count", 3, path);
  expect_open_fails(path, PARIO_ERR_CORRUPT, "holds 2 links for count 3");
  /* The good file still opens and reads. */
  CHECK(pario_wavefunction_open(world, good, PARIO_MODE_READ, 0, &wf) == PARIO_OK);
  CHECK(check_vector(wf, 0, start, count));
  CHECK(pario_wavefunction_close(&wf) == PARIO_OK);
  free(buf);
}

/* A vector of 1003 doubles (8024 bytes) written and read back through one
 * aggregator with a 64-byte buffer, every transfer through it: 126 rounds
 * each way, where the default (a 16 MiB buffer) takes at most one per
 * aggregator; the values are the default's file's. Hints the engine
 * refuses, or that differ between ranks, fail on every rank naming the
 * field. */
static void hinted(const char *dir) {
  char plain[600], hints[600];
  snprintf(plain, sizeof plain, "%s/plain.h5", dir);
  snprintf(hints, sizeof hints, "%s/hints.h5", dir);
  char mk[700];
  snprintf(mk, sizeof mk, "mkdir -p '%s'", dir);
  on_root(mk);
  const pario_wavefunction_basis_t basis = the_basis();
  const pario_decomp_hints h = {.aggregators = 1, .buffer_size = 64, .buffering = PARIO_BUFFERING_ALWAYS};
  pario_wavefunction_options_t o = {PARIO_WF_TRANSFER_AGGREGATORS, NULL};
  int64_t start = 0, count = 0, before[2], after[2], written[2];
  write_slice(rank, size, &start, &count);
  double *buf = malloc((size_t)kDim * sizeof *buf);
  for (int64_t i = 0; i < count; ++i) buf[i] = value(0, start + i);
  pario_wavefunction_t wf = PARIO_WAVEFUNCTION_NULL;
  for (int k = 0; k < 2; ++k) {
    o.hints = k ? &h : NULL;
    CHECK(pario_wavefunction_create_with(world, k ? hints : plain, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &basis,
                                         1, &o, &wf) == PARIO_OK);
    collective_rounds(world, before);
    CHECK(pario_wavefunction_write(wf, 0, start, count, buf) == PARIO_OK);
    collective_rounds(world, after);
    written[k] = after[0] - before[0];
    CHECK(pario_wavefunction_close(&wf) == PARIO_OK);
  }
  CHECK(written[1] == 126);
  CHECK(written[0] <= size);
  /* Read back in an even split through the hints of open; the default's
   * file read back without them. */
  pario_dataset_even_split(kDim, size, rank, &start, &count);
  o.hints = &h;
  CHECK(pario_wavefunction_open_with(world, hints, PARIO_MODE_READ, &o, &wf) == PARIO_OK);
  collective_rounds(world, before);
  CHECK(check_vector(wf, 0, start, count));
  collective_rounds(world, after);
  CHECK(after[1] - before[1] == 126);
  CHECK(pario_wavefunction_close(&wf) == PARIO_OK);
  CHECK(pario_wavefunction_open(world, plain, PARIO_MODE_READ, PARIO_WF_TRANSFER_INDEPENDENT, &wf) == PARIO_OK);
  CHECK(check_vector(wf, 0, start, count));
  CHECK(pario_wavefunction_close(&wf) == PARIO_OK);

  const pario_decomp_hints bad = {.buffering = 9};
  o.hints = &bad;
  expect_everywhere(pario_wavefunction_open_with(world, hints, PARIO_MODE_READ, &o, &wf), PARIO_ERR_INVALID_ARGUMENT,
                    "hints->buffering 9 is not a PARIO_BUFFERING_*");
  if (size > 1) {
    const pario_decomp_hints differ = {.buffer_size = 64 << (rank % 2)};
    o.hints = &differ;
    expect_everywhere(pario_wavefunction_create_with(world, hints, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &basis,
                                                     1, &o, &wf),
                      PARIO_ERR_INVALID_ARGUMENT, "(buffer_size)");
  }
  CHECK(wf == PARIO_WAVEFUNCTION_NULL);
  free(buf);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) CHECK(remove(plain) == 0 && remove(hints) == 0);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: wavefunction_test write FILE TRANSFER | read FILE | bad DIR | hints DIR\n");
    return 2;
  }
  CHECK(pario_init() == PARIO_OK);
  pario_world_rank(&rank);
  pario_world_size(&size);
  CHECK(pario_group_world(&world) == PARIO_OK);
  if (!pario_dataset_supported()) {
    pario_finalize();
    return 77;
  }
  if (!strcmp(argv[1], "write") && argc >= 4) write_file(argv[2], transfer_of(argv[3]));
  else if (!strcmp(argv[1], "read")) read_file(argv[2]);
  else if (!strcmp(argv[1], "bad")) bad_input(argv[2]);
  else if (!strcmp(argv[1], "hints")) hinted(argv[2]);
  else CHECK(!"unknown mode");
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("wavefunction_test");
}
