/* HDF5 failing on one rank in the middle of a dataset's collective steps
 * (issue 26, review of pds.cpp): every rank must fail together, and no
 * rank may be left waiting in a collective that another skipped.
 *
 * This executable exports H5Fclose, H5Ldelete, H5Dwrite, H5Awrite and
 * H5Acreate2 (counted), so libpario's calls
 * reach them; each forwards to HDF5's own (dlsym RTLD_NEXT) and, when
 * armed, reports a failure on one rank after the work is done (HDF5's
 * state stays the same on every rank, as parallel HDF5 needs):
 *   1. sync policy "write": a segment's end closes and reopens the file
 *      (dataset::File::write_back). H5Fclose failing on the last rank:
 *      before the fix that rank returned while the others went on into
 *      the collective H5Fopen (a hang, or MPI matching the wrong calls).
 *   2. truncation under "fsync": H5Ldelete failing on the last rank at
 *      the second segment: before the fix that rank stopped while the
 *      others went on unlinking and into H5Fflush (collective: a hang),
 *      and the ranks kept different segment counts.
 *   3. a segment's end mark (H5Awrite), or a new segment group's
 *      attribute, then the close: the same HDF5 calls on every rank; an info replaced (H5Acreate2 refused on
 *      every rank): the old value stays; a wave-function vector's rewrite (H5Dwrite): the vector
 *      reads as never written whole.
 * Each: PARIO_ERR_IO on the failing rank, PARIO_ERR_REMOTE on the others,
 * then the same segment count on every rank and a clean close. alarm()
 * turns a hang into a failure before CTest's timeout. At 1, 2 and 4
 * ranks. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

#define INTERPOSED __attribute__((visibility("default")))

/* HDF5 1.10's hid_t and herr_t (the test does not include <hdf5.h>). */
typedef int64_t h5_id;

static int rank, size;
static int fail_rank = -1;  /* the rank that reports the failure */
static int fail_fclose_in = 0, fail_ldelete_in = 0;  /* fail the n-th call from now (0: never) */

/* Whether this call is the armed one on this rank (counted down). */
static int armed(int *in) {
  if (*in <= 0 || rank != fail_rank) return 0;
  return --*in == 0;
}

INTERPOSED int H5Fclose(h5_id id) {
  static int (*real)(h5_id);
  if (!real) *(void **)&real = dlsym(RTLD_NEXT, "H5Fclose");
  const int rc = real(id);
  return armed(&fail_fclose_in) ? -1 : rc;
}

INTERPOSED int H5Ldelete(h5_id loc, const char *name, h5_id lapl) {
  static int (*real)(h5_id, const char *, h5_id);
  if (!real) *(void **)&real = dlsym(RTLD_NEXT, "H5Ldelete");
  const int rc = real(loc, name, lapl);
  return armed(&fail_ldelete_in) ? -1 : rc;
}

static int fail_dwrite_in = 0, fail_awrite_in = 0;
static int fail_acreate_everywhere = 0;  /* H5Acreate2 refused on every rank, before any work */
static int64_t acreate_calls = 0;  /* this rank's H5Acreate2 calls */

INTERPOSED int H5Dwrite(h5_id dset, h5_id mem_type, h5_id mem_space, h5_id file_space, h5_id dxpl,
                        const void *buf) {
  static int (*real)(h5_id, h5_id, h5_id, h5_id, h5_id, const void *);
  if (!real) *(void **)&real = dlsym(RTLD_NEXT, "H5Dwrite");
  const int rc = real(dset, mem_type, mem_space, file_space, dxpl, buf);
  return armed(&fail_dwrite_in) ? -1 : rc;
}

INTERPOSED int H5Awrite(h5_id attr, h5_id mem_type, const void *buf) {
  static int (*real)(h5_id, h5_id, const void *);
  if (!real) *(void **)&real = dlsym(RTLD_NEXT, "H5Awrite");
  const int rc = real(attr, mem_type, buf);
  return armed(&fail_awrite_in) ? -1 : rc;
}

INTERPOSED h5_id H5Acreate2(h5_id loc, const char *name, h5_id type, h5_id space, h5_id acpl, h5_id aapl) {
  static h5_id (*real)(h5_id, const char *, h5_id, h5_id, h5_id, h5_id);
  if (!real) *(void **)&real = dlsym(RTLD_NEXT, "H5Acreate2");
  ++acreate_calls;
  if (fail_acreate_everywhere) return -1;
  return real(loc, name, type, space, acpl, aapl);
}

static pario_group_t world;

/* The status every rank expects when the last rank fails. */
static int expected(void) { return rank == size - 1 ? PARIO_ERR_IO : PARIO_ERR_REMOTE; }

/* The dataset's segment count, the same on every rank. */
static int64_t same_count(pario_dataset_t ds) {
  int64_t n = -1, lo = 0, hi = 0;
  CHECK(pario_dataset_segment_count(ds, &n) == PARIO_OK);
  MPI_Allreduce(&n, &lo, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&n, &hi, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  CHECK(lo == hi);
  return n;
}

/* A dataset of `segments` segments of one variable at dir/name (its path
 * in path), under the sync policy; then the last rank is the one to fail
 * and a hang ends the test (alarm). */
static pario_dataset_t make_armed(const char *dir, const char *name, int sync, int segments, char *path,
                                  size_t len) {
  snprintf(path, len, "%s/%s", dir, name);
  pario_dataset_create_options_t o = {PARIO_DATASET_ONE_FILE, 0, sync};
  pario_dataset_t ds = PARIO_DATASET_NULL;
  CHECK(pario_dataset_create_with(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &o, &ds) == PARIO_OK);
  int x = -1;
  CHECK(pario_dataset_variable_register(ds, "x", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &x) == PARIO_OK);
  for (int s = 0; s < segments; ++s) {
    int64_t seg = -1;
    const double v = 10.0 * s + rank;
    CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, s, (double)s, &seg) == PARIO_OK);
    CHECK(pario_dataset_write_ranked(ds, seg, x, 1, &v) == PARIO_OK);
  }
  fail_rank = size - 1;
  alarm(90);
  return ds;
}

static void write_back_fails(const char *dir) {
  char path[700];
  pario_dataset_t ds = make_armed(dir, "write_back.h5", PARIO_DATASET_SYNC_WRITE, 1, path, sizeof path);
  fail_fclose_in = 1;  /* the write-back of segment 0's end */
  CHECK_FAILS(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 1, 1.0, NULL), expected(),
              rank == size - 1 ? "H5Fclose" : "rank");
  fail_fclose_in = 0;
  CHECK(same_count(ds) == 1);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  alarm(0);
  /* Every rank closed the file whole: segment 0 reads back. */
  CHECK(pario_dataset_open(world, path, PARIO_MODE_READ, &ds) == PARIO_OK);
  CHECK(same_count(ds) == 1);
  double v = -1;
  CHECK(pario_dataset_read_items(ds, 0, 0, rank, 1, &v) == PARIO_OK && v == rank);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
}

static void truncate_fails(const char *dir) {
  char path[700];
  pario_dataset_t ds = make_armed(dir, "truncate.h5", PARIO_DATASET_SYNC_FSYNC, 4, path, sizeof path);
  fail_ldelete_in = 2;  /* segment 3 goes, segment 2's unlink fails */
  CHECK_FAILS(pario_dataset_truncate(ds, 0), expected(), rank == size - 1 ? "H5Ldelete" : "rank");
  fail_ldelete_in = 0;
  CHECK(same_count(ds) == 3);  /* stopped together at segment 2 */
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  alarm(0);
}

/* 3. A segment's end mark (pario_ended) failing on the last rank alone:
 * the append fails everywhere, and the ranks then make the same HDF5
 * calls (before the fix that rank marked the segment again at the close,
 * alone: H5Acreate2 among HDF5's collective metadata calls). An append
 * makes the new segment's group (3 attributes) before it marks the last
 * one ended (both go out in one write-out): nth 4 is the mark; nth 1 the
 * new group's first attribute (that rank once skipped the other two, and
 * the close hung in HDF5's collective metadata write). */
static void end_mark_fails(const char *dir, int nth, const char *name) {
  char path[700];
  pario_dataset_t ds = make_armed(dir, name, PARIO_DATASET_SYNC_NONE, 1, path, sizeof path);
  fail_awrite_in = nth;
  const int rc = pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 1, 1.0, NULL);
  CHECK(rc == expected() || (size == 1 && rc != PARIO_OK));
  fail_awrite_in = 0;
  const int64_t before = acreate_calls;
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  int64_t made = acreate_calls - before, lo = 0, hi = 0;
  MPI_Allreduce(&made, &lo, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&made, &hi, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
  CHECK(lo == hi);
  alarm(0);
}

/* An info replaced, HDF5 refusing the new attribute (H5Acreate2, on every
 * rank alike, as a metadata failure is): the call fails and the old value
 * stays (it was once deleted first, and lost). */
static void info_replace_fails(const char *dir) {
  char path[700];
  pario_dataset_t ds = make_armed(dir, "info.h5", PARIO_DATASET_SYNC_NONE, 1, path, sizeof path);
  const double old_value = 1.5, new_value = 2.5;
  CHECK(pario_dataset_info_put(ds, PARIO_INFO_SEGMENT, 0, "energy", PARIO_TYPE_DOUBLE, 1, &old_value) == PARIO_OK);
  fail_acreate_everywhere = 1;
  const int rc = pario_dataset_info_put(ds, PARIO_INFO_SEGMENT, 0, "energy", PARIO_TYPE_DOUBLE, 1, &new_value);
  CHECK(rc != PARIO_OK);
  fail_acreate_everywhere = 0;
  double back = 0;
  int64_t n = 0;
  int stored = -1;
  CHECK(pario_dataset_info_get(ds, PARIO_INFO_SEGMENT, 0, "energy", PARIO_TYPE_DOUBLE, 1, &back, &stored, &n) ==
        PARIO_OK);
  CHECK(back == old_value && n == 1);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
  alarm(0);
}

/* 4. A wave-function vector's rewrite failing on the last rank (its
 * H5Dwrite): the vector, once whole, is part old and part new, so it
 * reads back as never written whole, in this open and after a reopen
 * (it once kept pario_written = 1). */
static void rewrite_fails(const char *dir) {
  char path[700];
  snprintf(path, sizeof path, "%s/rewrite.h5", dir);
  const pario_wavefunction_basis_t basis = {64, 2, 2, 2, 1, 0, 20.0};
  double mine[64];
  const int64_t start = 64 * rank / size, count = 64 * (rank + 1) / size - start;
  for (int64_t i = 0; i < count; ++i) mine[i] = (double)(start + i);
  pario_wavefunction_t wf = PARIO_WAVEFUNCTION_NULL;
  CHECK(pario_wavefunction_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &basis, 1,
                                  PARIO_WF_TRANSFER_INDEPENDENT, &wf) == PARIO_OK);
  CHECK(pario_wavefunction_write(wf, 0, start, count, mine) == PARIO_OK);
  CHECK(pario_wavefunction_close(&wf) == PARIO_OK);
  CHECK(pario_wavefunction_open(world, path, PARIO_MODE_RDWR, PARIO_WF_TRANSFER_INDEPENDENT, &wf) == PARIO_OK);
  fail_rank = size - 1;
  alarm(90);
  fail_dwrite_in = 1;
  const int rc = pario_wavefunction_write(wf, 0, start, count, mine);
  CHECK(rc == expected() || (size == 1 && rc != PARIO_OK));
  fail_dwrite_in = 0;
  double back[64];
  CHECK(pario_wavefunction_read(wf, 0, start, count, back) == PARIO_ERR_NOT_FOUND);
  CHECK(pario_wavefunction_close(&wf) == PARIO_OK);
  alarm(0);
  CHECK(pario_wavefunction_open(world, path, PARIO_MODE_READ, PARIO_WF_TRANSFER_INDEPENDENT, &wf) == PARIO_OK);
  CHECK(pario_wavefunction_read(wf, 0, start, count, back) == PARIO_ERR_NOT_FOUND);
  CHECK(pario_wavefunction_close(&wf) == PARIO_OK);
}

int main(void) {
  if (pario_init() != PARIO_OK) return 1;
  CHECK(pario_group_world(&world) == PARIO_OK);
  CHECK(pario_group_rank(world, &rank) == PARIO_OK && pario_group_size(world, &size) == PARIO_OK);
  char dir[512];
  job_dir(world, "dataset_faults", dir, sizeof dir);
  write_back_fails(dir);
  truncate_fails(dir);
  end_mark_fails(dir, 4, "end_mark.h5");
  end_mark_fails(dir, 1, "group_attribute.h5");
  info_replace_fails(dir);
  rewrite_fails(dir);
  job_dir_remove(world, dir);
  const int failures = check_failures;
  CHECK(pario_finalize() == PARIO_OK);
  if (rank == 0) printf("dataset_faults_test: %d passed, %d failed\n", check_passes, failures);
  return failures != 0;
}
