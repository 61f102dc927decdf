/* Independent section I/O on disk arrays (pario_disk_array_read_local,
 * _write_local, _sync, _write_pieces) and the create modes, at 1, 2 and 4
 * ranks: each rank writes its own block of whole chunks (in pieces that
 * cover chunks in part), every rank reads the whole array back after the
 * sync; unaligned reads; two ranks writing one chunk is reported by the
 * sync; replace, refuse and open-or-create; bad arguments. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "rename_fault.h"

#include <dirent.h>

/* Entries beside path named path.pario-new-*: what a replace left. */
static int names_beside(const char *path) {
  char dir[700];
  snprintf(dir, sizeof dir, "%s", path);
  char *slash = strrchr(dir, '/');
  const char *base = slash ? slash + 1 : path;
  char prefix[300];
  snprintf(prefix, sizeof prefix, "%s.pario-new-", base);
  if (slash) *slash = 0;
  DIR *d = opendir(slash ? dir : ".");
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d)) != NULL;) n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
  if (d) closedir(d);
  return n;
}

static int rank, size;
static pario_group_t world;
static char dir[512];

enum { kRows = 24, kCols = 10 };
static const int64_t dims[2] = {kRows, kCols}, chunk[2] = {3, 5};

static double value(int64_t i, int64_t j) { return (double)(i * 100 + j) + 0.25; }

static void path_of(char *buf, size_t len, const char *name) { snprintf(buf, len, "%s/%s", dir, name); }

/* Fills a dense block [r0, r0 + nr) x [c0, c0 + nc) with value(). */
static void fill(double *b, int64_t r0, int64_t nr, int64_t c0, int64_t nc) {
  for (int64_t i = 0; i < nr; ++i)
    for (int64_t j = 0; j < nc; ++j) b[i * nc + j] = value(r0 + i, c0 + j);
}

/* This rank's rows: kRows / size of them, whole chunks (3 rows). */
static void my_rows(int64_t *r0, int64_t *nr) {
  *nr = kRows / size;
  *r0 = rank * *nr;
}

static void test_blocks_then_whole(void) {
  char path[600];
  path_of(path, sizeof path, "blocks.zarr");
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  CHECK(pario_disk_array_create_mode(world, path, PARIO_TYPE_DOUBLE, 2, dims, chunk,
                                     PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &d) == PARIO_OK);
  int64_t r0, nr;
  my_rows(&r0, &nr);
  /* Two pieces split at column 7: each covers chunks in part. */
  double *left = malloc(sizeof(double) * (size_t)(nr * 7)), *right = malloc(sizeof(double) * (size_t)(nr * 3));
  fill(left, r0, nr, 0, 7);
  fill(right, r0, nr, 7, 3);
  const int64_t s1[2] = {r0, 0}, c1[2] = {nr, 7}, s2[2] = {r0, 7}, c2[2] = {nr, 3};
  CHECK(pario_disk_array_write_local(d, s2, c2, right) == PARIO_OK);
  CHECK(pario_disk_array_write_local(d, s1, c1, left) == PARIO_OK);
  CHECK(pario_disk_array_sync(d) == PARIO_OK);
  double whole[kRows * kCols];
  const int64_t zero[2] = {0, 0};
  CHECK(pario_disk_array_read_local(d, zero, dims, whole) == PARIO_OK);
  int bad = 0;
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t j = 0; j < kCols; ++j) bad += whole[i * kCols + j] != value(i, j);
  CHECK(bad == 0);
  /* An unaligned section, across chunks of every rank. */
  const int64_t us[2] = {2, 3}, uc[2] = {kRows - 5, 6};
  double part[(kRows - 5) * 6];
  CHECK(pario_disk_array_read_local(d, us, uc, part) == PARIO_OK);
  bad = 0;
  for (int64_t i = 0; i < uc[0]; ++i)
    for (int64_t j = 0; j < uc[1]; ++j) bad += part[i * uc[1] + j] != value(us[0] + i, us[1] + j);
  CHECK(bad == 0);
  /* A partial write merged into a chunk of another rank's rows, by rank 0
   * alone, once every rank has read (a sync orders reads too). */
  CHECK(pario_disk_array_sync(d) == PARIO_OK);
  if (rank == 0) {
    const int64_t ps[2] = {kRows - 2, 4}, pc[2] = {1, 2};
    const double two[2] = {-1, -2};
    CHECK(pario_disk_array_write_local(d, ps, pc, two) == PARIO_OK);
  }
  CHECK(pario_disk_array_sync(d) == PARIO_OK);
  CHECK(pario_disk_array_read_local(d, zero, dims, whole) == PARIO_OK);
  CHECK(whole[(kRows - 2) * kCols + 4] == -1 && whole[(kRows - 2) * kCols + 5] == -2);
  CHECK(whole[(kRows - 2) * kCols + 3] == value(kRows - 2, 3) && whole[(kRows - 2) * kCols + 6] == value(kRows - 2, 6));
  CHECK(whole[(kRows - 1) * kCols + 4] == value(kRows - 1, 4));
  /* write_pieces: each rank its rows again, negated; a rank may write
   * nothing. (After a sync: every rank has read.) */
  CHECK(pario_disk_array_sync(d) == PARIO_OK);
  for (int64_t i = 0; i < nr * 7; ++i) left[i] = -left[i];
  const int64_t none[2] = {0, 0};
  CHECK(pario_disk_array_write_pieces(d, s1, rank == size - 1 && size > 1 ? none : c1, left) == PARIO_OK);
  CHECK(pario_disk_array_read_local(d, zero, dims, whole) == PARIO_OK);
  bad = 0;
  for (int64_t i = 0; i < kRows; ++i) {
    const int written = size == 1 || i < kRows - kRows / size;
    for (int64_t j = 0; j < 7; ++j) {
      const double want = written ? -value(i, j) : (i == kRows - 2 && (j == 4 || j == 5)) ? -1 - (j - 4) : value(i, j);
      bad += whole[i * kCols + j] != want;
    }
  }
  CHECK(bad == 0);
  free(left);
  free(right);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK(pario_disk_array_delete(world, path) == PARIO_OK);
}

/* Two ranks writing one chunk between syncs: the sync names it. */
static void test_rule_is_checked(void) {
  char path[600];
  path_of(path, sizeof path, "rule.zarr");
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  CHECK(pario_disk_array_create(world, path, PARIO_TYPE_DOUBLE, 2, dims, chunk, &d) == PARIO_OK);
  const int64_t s[2] = {0, rank % 5}, c[2] = {1, 1};
  const double x = rank;
  CHECK(pario_disk_array_write_local(d, s, c, &x) == PARIO_OK);
  if (size > 1) CHECK_FAILS(pario_disk_array_sync(d), PARIO_ERR_INVALID_ARGUMENT, "both wrote chunk c/0/0");
  else CHECK(pario_disk_array_sync(d) == PARIO_OK);
  CHECK(pario_disk_array_sync(d) == PARIO_OK); /* the record starts again */
  /* Chunks never written read as zeros. */
  double z[6] = {1, 1, 1, 1, 1, 1};
  const int64_t zs[2] = {20, 4}, zc[2] = {2, 3};
  CHECK(pario_disk_array_read_local(d, zs, zc, z) == PARIO_OK);
  CHECK(z[0] == 0 && z[5] == 0);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK(pario_disk_array_delete(world, path) == PARIO_OK);
}

static void test_modes(void) {
  char path[600], other[600], link[600];
  path_of(path, sizeof path, "modes.zarr");
  path_of(other, sizeof other, "plain_dir");
  path_of(link, sizeof link, "link.zarr");
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  const int64_t one[2] = {1, 1}, at[2] = {5, 5};
  const double seven = 7;
  double got = 0;
  CHECK(pario_disk_array_create_mode(world, path, PARIO_TYPE_DOUBLE, 2, dims, chunk, PARIO_MODE_CREATE, &d) ==
        PARIO_OK); /* "a" on nothing: created */
  if (rank == 0) CHECK(pario_disk_array_write_local(d, at, one, &seven) == PARIO_OK);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  /* "w-" refuses it. */
  CHECK_FAILS(pario_disk_array_create_mode(world, path, PARIO_TYPE_DOUBLE, 2, dims, chunk,
                                           PARIO_MODE_CREATE | PARIO_MODE_EXCLUSIVE, &d),
              PARIO_ERR_EXISTS, "modes.zarr");
  CHECK_FAILS(pario_disk_array_create(world, path, PARIO_TYPE_DOUBLE, 2, dims, chunk, &d), PARIO_ERR_EXISTS,
              "modes.zarr");
  /* "a" opens it when it matches, with its data, writable. */
  CHECK(pario_disk_array_create_mode(world, path, PARIO_TYPE_DOUBLE, 2, dims, NULL, PARIO_MODE_CREATE | PARIO_MODE_RDWR,
                                     &d) == PARIO_OK);
  CHECK(pario_disk_array_read_local(d, at, one, &got) == PARIO_OK && got == 7);
  int64_t chunks_out[PARIO_ARRAY_MAX_DIMS];
  CHECK(pario_disk_array_info(d, NULL, NULL, NULL, chunks_out) == PARIO_OK && chunks_out[0] == 3);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  /* ... and refuses it when it does not. */
  const int64_t other_dims[2] = {kRows, kCols + 1};
  CHECK_FAILS(pario_disk_array_create_mode(world, path, PARIO_TYPE_DOUBLE, 2, other_dims, NULL, PARIO_MODE_CREATE, &d),
              PARIO_ERR_EXISTS, "exists with shape [24, 10] of double");
  CHECK_FAILS(pario_disk_array_create_mode(world, path, PARIO_TYPE_INT32, 2, dims, NULL, PARIO_MODE_CREATE, &d),
              PARIO_ERR_EXISTS, "not [24, 10] of");
  /* "w" makes the new store beside the old one under a name of its own:
   * one an earlier process of the same pid left (the name was once the pid
   * alone) does not stop it, and is left alone. Rank 0 makes the store. */
  char planted[700];
  snprintf(planted, sizeof planted, "%s.pario-new-%d", path, (int)getpid());
  if (rank == 0) {
    FILE *taken = fopen(planted, "w");
    CHECK(taken != NULL);
    if (taken) fclose(taken);
  }
  CHECK(pario_group_barrier(world) == PARIO_OK);
  /* "w" replaces it: the old data is gone, and nothing is left beside it. */
  CHECK(pario_disk_array_create_mode(world, path, PARIO_TYPE_DOUBLE, 2, dims, chunk,
                                     PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &d) == PARIO_OK);
  CHECK(pario_disk_array_read_local(d, at, one, &got) == PARIO_OK && got == 0);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  struct stat gone;
  if (rank == 0) CHECK(lstat(planted, &gone) == 0 && unlink(planted) == 0);
  if (rank == 0) CHECK(names_beside(path) == 0);
  /* Where names cannot be exchanged (EINVAL), the old store is renamed
   * aside, the new one renamed in, and the old one removed. */
  CHECK(pario_disk_array_open(world, path, PARIO_MODE_RDWR, &d) == PARIO_OK);
  if (rank == 0) CHECK(pario_disk_array_write_local(d, at, one, &seven) == PARIO_OK);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  rename_fault = EINVAL;
  CHECK(pario_disk_array_create_mode(world, path, PARIO_TYPE_DOUBLE, 2, dims, chunk,
                                     PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &d) == PARIO_OK);
  rename_fault = 0;
  CHECK(pario_disk_array_read_local(d, at, one, &got) == PARIO_OK && got == 0);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  if (rank == 0) CHECK(names_beside(path) == 0);
  /* Any other failure of the exchange leaves the old store. */
  CHECK(pario_disk_array_open(world, path, PARIO_MODE_RDWR, &d) == PARIO_OK);
  if (rank == 0) CHECK(pario_disk_array_write_local(d, at, one, &seven) == PARIO_OK);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  rename_fault = EIO;
  CHECK_FAILS(pario_disk_array_create_mode(world, path, PARIO_TYPE_DOUBLE, 2, dims, chunk,
                                           PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &d),
              rank == 0 ? PARIO_ERR_IO : PARIO_ERR_REMOTE, "in the old one's place");
  rename_fault = 0;
  CHECK(pario_disk_array_open(world, path, PARIO_MODE_READ, &d) == PARIO_OK);
  CHECK(pario_disk_array_read_local(d, at, one, &got) == PARIO_OK && got == 7);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  if (rank == 0) CHECK(names_beside(path) == 0);
  /* "r" refuses writes. */
  CHECK(pario_disk_array_open(world, path, PARIO_MODE_READ, &d) == PARIO_OK);
  CHECK_FAILS(pario_disk_array_write_local(d, at, one, &seven), PARIO_ERR_STATE, "read-only");
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  /* "w" never removes what is not a store, nor goes through a link. */
  if (rank == 0) {
    CHECK(mkdir(other, 0700) == 0);
    CHECK(symlink(path, link) == 0);
  }
  CHECK(pario_group_barrier(world) == PARIO_OK);
  CHECK_FAILS(pario_disk_array_create_mode(world, other, PARIO_TYPE_DOUBLE, 2, dims, chunk,
                                           PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &d),
              PARIO_ERR_EXISTS, "not a disk array");
  CHECK_FAILS(pario_disk_array_create_mode(world, link, PARIO_TYPE_DOUBLE, 2, dims, chunk,
                                           PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &d),
              PARIO_ERR_EXISTS, "symbolic link");
  struct stat st;
  CHECK(stat(other, &st) == 0);
  char meta[700];
  snprintf(meta, sizeof meta, "%s/zarr.json", path);
  CHECK(stat(meta, &st) == 0);
  CHECK_FAILS(pario_disk_array_create_mode(world, path, PARIO_TYPE_DOUBLE, 2, dims, chunk, PARIO_MODE_TRUNCATE, &d),
              PARIO_ERR_INVALID_ARGUMENT, "PARIO_MODE_CREATE");
  CHECK(pario_group_barrier(world) == PARIO_OK);
  if (rank == 0) {
    CHECK(unlink(link) == 0);
    CHECK(rmdir(other) == 0);
  }
  CHECK(pario_disk_array_delete(world, path) == PARIO_OK);
}

static void test_bad_arguments(void) {
  char path[600];
  path_of(path, sizeof path, "bad.zarr");
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  CHECK(pario_disk_array_create(world, path, PARIO_TYPE_DOUBLE, 2, dims, chunk, &d) == PARIO_OK);
  double b[4];
  const int64_t s[2] = {0, 9}, c[2] = {1, 2}, neg[2] = {1, -1}, ok[2] = {0, 0}, huge[2] = {INT64_MAX, 2};
  CHECK_FAILS(pario_disk_array_read_local(d, s, c, b), PARIO_ERR_OUT_OF_RANGE,
              "pario_disk_array_read_local: ");
  CHECK_FAILS(pario_disk_array_write_local(d, s, c, b), PARIO_ERR_OUT_OF_RANGE, "in dimension 1 is outside [0, 10)");
  CHECK_FAILS(pario_disk_array_read_local(d, ok, huge, b), PARIO_ERR_OUT_OF_RANGE, "overflows");
  CHECK_FAILS(pario_disk_array_read_local(d, ok, neg, b), PARIO_ERR_INVALID_ARGUMENT, "count[1] is negative");
  CHECK_FAILS(pario_disk_array_read_local(d, NULL, c, b), PARIO_ERR_INVALID_ARGUMENT, "start is null");
  CHECK_FAILS(pario_disk_array_write_local(d, ok, c, NULL), PARIO_ERR_INVALID_ARGUMENT, "buf is null");
  CHECK_FAILS(pario_disk_array_read_local(PARIO_DISK_ARRAY_NULL, ok, c, b), PARIO_ERR_INVALID_ARGUMENT, "disk array");
  CHECK(pario_disk_array_read_local(d, ok, ok, NULL) == PARIO_OK); /* empty: no buffer needed */
  pario_disk_array_t stale = d;
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK_FAILS(pario_disk_array_read_local(stale, ok, c, b), PARIO_ERR_INVALID_ARGUMENT, "disk array");
  CHECK(pario_disk_array_delete(world, path) == PARIO_OK);
}

int main(void) {
  CHECK(pario_init() == PARIO_OK);
  pario_world_rank(&rank);
  pario_world_size(&size);
  CHECK(pario_group_world(&world) == PARIO_OK);
  job_dir(world, "local_io", dir, sizeof dir);
  test_blocks_then_whole();
  test_rule_is_checked();
  test_modes();
  test_bad_arguments();
  job_dir_remove(world, dir);
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("capi_disk_array_local_test");
}
