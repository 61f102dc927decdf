/* Disk arrays through the C API at 1, 2 and 4 ranks: whole and nonaligned
 * section round trips in 1-3 dimensions and three types, reopen, restart on
 * fewer ranks with another distribution, and errors (bad sections, type
 * mismatch, existing and missing stores, a truncated chunk), and a store
 * of many shards read and written with no descriptor left open. */
#include <dirent.h>
#include <sys/resource.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int me, np;
static pario_group_t world;

static double value(int64_t i, int64_t j) { return (double)(i * 100 + j); }

/* A 37 x 23 double array in 8 x 5 chunks (ragged at both edges). */
static void two_d(const char *dir) {
  const int64_t dims[2] = {37, 23}, chunks[2] = {8, 5}, zero[2] = {0, 0};
  pario_array_t a, b;
  pario_disk_array_t d;
  CHECK(pario_array_create(world, "src", PARIO_TYPE_DOUBLE, 2, dims, &a) == PARIO_OK);
  CHECK(pario_array_create(world, "dst", PARIO_TYPE_DOUBLE, 2, dims, &b) == PARIO_OK);
  static double all[37 * 23];
  for (int64_t i = 0; i < 37; ++i)
    for (int64_t j = 0; j < 23; ++j) all[i * 23 + j] = value(i, j);
  if (me == 0) CHECK(pario_array_put(a, zero, dims, all, NULL) == PARIO_OK);
  CHECK(pario_array_sync(a) == PARIO_OK);
  CHECK(pario_disk_array_create(world, dir, PARIO_TYPE_DOUBLE, 2, dims, chunks, &d) == PARIO_OK);
  CHECK(pario_disk_array_write(d, a, zero, dims, zero) == PARIO_OK);
  /* A section that straddles chunk edges: a[3:13, 4:11] -> disk[20:30, 10:17]. */
  const int64_t from[2] = {3, 4}, count[2] = {10, 7}, to[2] = {20, 10};
  CHECK(pario_disk_array_write(d, a, from, count, to) == PARIO_OK);
  CHECK(pario_disk_array_set_attribute(d, "units", "hartree") == PARIO_OK);
  CHECK(pario_disk_array_set_attribute(d, "units", "eV") == PARIO_OK); /* replaced */
  CHECK(pario_disk_array_set_attribute(d, "pario", "x") == PARIO_ERR_INVALID_ARGUMENT); /* reserved */
  CHECK(pario_disk_array_set_attribute(d, "", "x") == PARIO_ERR_INVALID_ARGUMENT);
  CHECK(pario_disk_array_close(&d) == PARIO_OK && d == PARIO_DISK_ARRAY_NULL);

  CHECK(pario_disk_array_open(world, dir, PARIO_MODE_READ, &d) == PARIO_OK);
  int type = 0, ndim = 0;
  int64_t shape[PARIO_ARRAY_MAX_DIMS], ch[PARIO_ARRAY_MAX_DIMS];
  CHECK(pario_disk_array_info(d, &type, &ndim, shape, ch) == PARIO_OK);
  CHECK(type == PARIO_TYPE_DOUBLE && ndim == 2 && shape[0] == 37 && shape[1] == 23 && ch[0] == 8 && ch[1] == 5);
  char text[8];
  CHECK(pario_disk_array_get_attribute(d, "units", text, sizeof text) == PARIO_OK && strcmp(text, "eV") == 0);
  CHECK(pario_disk_array_get_attribute(d, "units", text, 2) == PARIO_ERR_INVALID_ARGUMENT); /* short */
  CHECK(pario_disk_array_get_attribute(d, "charge", text, sizeof text) == PARIO_ERR_NOT_FOUND);
  CHECK(pario_disk_array_set_attribute(d, "units", "au") == PARIO_ERR_STATE); /* read-only */
  CHECK(pario_disk_array_read(d, b, zero, dims, zero) == PARIO_OK);
  static double back[37 * 23];
  CHECK(pario_array_get(b, zero, dims, back, NULL) == PARIO_OK);
  int bad = 0;
  for (int64_t i = 0; i < 37; ++i)
    for (int64_t j = 0; j < 23; ++j) {
      const int in = i >= 20 && i < 30 && j >= 10 && j < 17;
      const double want = in ? value(i - 20 + 3, j - 10 + 4) : value(i, j);
      bad += back[i * 23 + j] != want;
    }
  CHECK(bad == 0);
  /* Read a nonaligned piece into another place of the global array. */
  const int64_t piece[2] = {5, 9}, at[2] = {1, 2}, src[2] = {31, 13};
  CHECK(pario_array_zero(b) == PARIO_OK);
  CHECK(pario_disk_array_read(d, b, at, piece, src) == PARIO_OK);
  double got[5 * 9];
  CHECK(pario_array_get(b, at, piece, got, NULL) == PARIO_OK);
  bad = 0;
  for (int64_t i = 0; i < 5; ++i)
    for (int64_t j = 0; j < 9; ++j) bad += got[i * 9 + j] != value(31 + i, 13 + j);
  CHECK(bad == 0);

  /* Errors: the same status on every rank, never a hang. */
  const int64_t past[2] = {30, 0};
  CHECK_FAILS(pario_disk_array_read(d, b, zero, dims, past), PARIO_ERR_OUT_OF_RANGE, "outside [0, 37)");
  CHECK_FAILS(pario_disk_array_write(d, a, zero, dims, zero), PARIO_ERR_STATE, "read-only");
  pario_array_t ints;
  CHECK(pario_array_create(world, "ints", PARIO_TYPE_INT32, 2, dims, &ints) == PARIO_OK);
  CHECK_FAILS(pario_disk_array_read(d, ints, zero, dims, zero), PARIO_ERR_INVALID_ARGUMENT, "holds int32");
  CHECK(pario_array_destroy(&ints) == PARIO_OK);
  if (np > 1) { /* a global array on another group: refused on every rank */
    pario_group_t odd;
    pario_array_t other;
    CHECK(pario_group_split(world, me % 2, &odd) == PARIO_OK);
    CHECK(pario_array_create(odd, "other", PARIO_TYPE_DOUBLE, 2, dims, &other) == PARIO_OK);
    CHECK_FAILS(pario_disk_array_read(d, other, zero, dims, zero), PARIO_ERR_INVALID_ARGUMENT,
                "lives on another group");
    CHECK(pario_array_destroy(&other) == PARIO_OK && pario_group_free(&odd) == PARIO_OK);
  }
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  pario_disk_array_t again;
  /* Rank 0 looks and tells the others: every rank reports EXISTS. */
  CHECK_FAILS(pario_disk_array_create(world, dir, PARIO_TYPE_DOUBLE, 2, dims, NULL, &again), PARIO_ERR_EXISTS, dir);

  /* Restart on fewer ranks, with another distribution: the first half. */
  pario_group_t half;
  CHECK(pario_group_split(world, me < (np + 1) / 2 ? 0 : -1, &half) == PARIO_OK);
  if (half != PARIO_GROUP_NULL) {
    pario_array_t c;
    CHECK(pario_array_create(half, "restart", PARIO_TYPE_DOUBLE, 2, dims, &c) == PARIO_OK);
    CHECK(pario_disk_array_open(half, dir, PARIO_MODE_READ, &d) == PARIO_OK);
    CHECK(pario_disk_array_read(d, c, zero, dims, zero) == PARIO_OK);
    memset(back, 0, sizeof back);
    CHECK(pario_array_get(c, zero, dims, back, NULL) == PARIO_OK);
    CHECK(back[25 * 23 + 12] == value(25 - 20 + 3, 12 - 10 + 4) && back[36 * 23 + 22] == value(36, 22));
    CHECK(pario_disk_array_close(&d) == PARIO_OK);
    CHECK(pario_array_destroy(&c) == PARIO_OK);
    CHECK(pario_group_free(&half) == PARIO_OK);
  }

  /* A truncated chunk (or shard: the chunks here fit in one) is corrupt, not zeros. */
  CHECK(pario_disk_array_open(world, dir, PARIO_MODE_READ, &d) == PARIO_OK);
  char chunk[4200];
  snprintf(chunk, sizeof chunk, "%s/c/0/0", dir);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  if (me == 0) CHECK(truncate(chunk, 100) == 0);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  int rc = pario_disk_array_read(d, b, zero, dims, zero);
  CHECK(rc != PARIO_OK);
  char msg[1024];
  pario_last_error_message(msg, sizeof msg);
  CHECK(strstr(msg, "truncated") != NULL);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK(pario_array_destroy(&a) == PARIO_OK && pario_array_destroy(&b) == PARIO_OK);
}

/* 1-d int64 and 3-d float arrays, chunks chosen by pario. */
static void other_shapes(const char *dir1, const char *dir3) {
  const int64_t n[1] = {100003}, zero1[1] = {0};
  pario_array_t a;
  pario_disk_array_t d;
  CHECK(pario_array_create(world, "v", PARIO_TYPE_INT64, 1, n, &a) == PARIO_OK);
  int64_t start[1], count[1];
  CHECK(pario_array_distribution(a, me, start, count) == PARIO_OK);
  int64_t *mine = malloc((size_t)(count[0] ? count[0] : 1) * sizeof *mine);
  for (int64_t i = 0; i < count[0]; ++i) mine[i] = (start[0] + i) * 7 - 3;
  if (count[0]) CHECK(pario_array_put(a, start, count, mine, NULL) == PARIO_OK);
  CHECK(pario_disk_array_create(world, dir1, PARIO_TYPE_INT64, 1, n, NULL, &d) == PARIO_OK);
  CHECK(pario_disk_array_write(d, a, zero1, n, zero1) == PARIO_OK);
  CHECK(pario_array_zero(a) == PARIO_OK);
  CHECK(pario_disk_array_read(d, a, zero1, n, zero1) == PARIO_OK);
  memset(mine, 0, (size_t)count[0] * sizeof *mine);
  if (count[0]) CHECK(pario_array_get(a, start, count, mine, NULL) == PARIO_OK);
  int bad = 0;
  for (int64_t i = 0; i < count[0]; ++i) bad += mine[i] != (start[0] + i) * 7 - 3;
  CHECK(bad == 0);
  free(mine);
  CHECK(pario_disk_array_close(&d) == PARIO_OK && pario_array_destroy(&a) == PARIO_OK);
  CHECK(pario_disk_array_delete(world, dir1) == PARIO_OK);
  CHECK(access(dir1, F_OK) != 0);

  const int64_t s3[3] = {6, 70, 90}, zero3[3] = {0, 0, 0}, part[3] = {2, 33, 41}, at3[3] = {4, 30, 40};
  CHECK(pario_array_create(world, "cube", PARIO_TYPE_FLOAT, 3, s3, &a) == PARIO_OK);
  const float seven = 7.5f;
  CHECK(pario_array_fill(a, &seven) == PARIO_OK);
  CHECK(pario_disk_array_create(world, dir3, PARIO_TYPE_FLOAT, 3, s3, NULL, &d) == PARIO_OK);
  CHECK(pario_disk_array_write(d, a, zero3, part, at3) == PARIO_OK); /* only a block */
  CHECK(pario_array_zero(a) == PARIO_OK);
  CHECK(pario_disk_array_read(d, a, zero3, s3, zero3) == PARIO_OK);
  static float cube[6 * 70 * 90];
  CHECK(pario_array_get(a, zero3, s3, cube, NULL) == PARIO_OK);
  bad = 0;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 70; ++j)
      for (int k = 0; k < 90; ++k) {
        const int in = i >= 4 && i < 6 && j >= 30 && j < 63 && k >= 40 && k < 81;
        bad += cube[(i * 70 + j) * 90 + k] != (in ? 7.5f : 0.0f);
      }
  CHECK(bad == 0);
  CHECK(pario_disk_array_close(&d) == PARIO_OK && pario_array_destroy(&a) == PARIO_OK);
  CHECK(pario_disk_array_delete(world, dir3) == PARIO_OK);

  /* A request hint of the whole 32 MB array (what GA programs pass) gives
   * near-square 1 MiB tiles of it, not one chunk that one rank would move. */
  const int64_t big[2] = {4096, 1024};
  int64_t ch[PARIO_ARRAY_MAX_DIMS];
  CHECK(pario_disk_array_create(world, dir3, PARIO_TYPE_DOUBLE, 2, big, big, &d) == PARIO_OK);
  CHECK(pario_disk_array_info(d, NULL, NULL, NULL, ch) == PARIO_OK);
  CHECK(ch[0] == 256 && ch[1] == 512);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
}

/* This process's open descriptors. */
static int open_fds(void) {
  DIR *d = opendir("/proc/self/fd");
  if (!d) return -1;
  int n = 0;
  while (readdir(d)) ++n;
  closedir(d);
  return n;
}

/* 1280 x 64 doubles in 4 x 4 chunks: with 1 KiB shards (the small-shards
 * run) 640 shards, of which each rank moves chunks of at least 160: more
 * than a process keeps open at once (64), and more than the descriptors
 * this process may open during the transfers. The shards a transfer opens
 * stay open until its wait, which closes them. */
static void many_shards(const char *dir) {
  const int64_t dims[2] = {1280, 64}, chunks[2] = {4, 4}, zero[2] = {0, 0};
  const int64_t from[2] = {1, 3}, count[2] = {1270, 57}, to[2] = {7, 2};
  pario_array_t a, b;
  pario_disk_array_t d;
  CHECK(pario_array_create(world, "many_src", PARIO_TYPE_DOUBLE, 2, dims, &a) == PARIO_OK);
  CHECK(pario_array_create(world, "many_dst", PARIO_TYPE_DOUBLE, 2, dims, &b) == PARIO_OK);
  static double all[1280 * 64], back[1280 * 64];
  for (int64_t i = 0; i < 1280; ++i)
    for (int64_t j = 0; j < 64; ++j) all[i * 64 + j] = value(i, j);
  if (me == 0) CHECK(pario_array_put(a, zero, dims, all, NULL) == PARIO_OK);
  CHECK(pario_array_sync(a) == PARIO_OK);
  const int fds = open_fds();
  struct rlimit was, low;
  CHECK(getrlimit(RLIMIT_NOFILE, &was) == 0);
  low = was;
  /* pario keeps at most 64 shards open, plus one per I/O thread in use: far
   * below 120, and far below the 640 this test needs if kept shards were
   * counted per request. (With 80, two runs of hundreds on a loaded machine
   * met EMFILE; instrumented runs never had more than 29 descriptors.) */
  low.rlim_cur = (rlim_t)fds + 120;
  CHECK(setrlimit(RLIMIT_NOFILE, &low) == 0);
  CHECK(pario_disk_array_create(world, dir, PARIO_TYPE_DOUBLE, 2, dims, chunks, &d) == PARIO_OK);
  CHECK(pario_disk_array_write(d, a, zero, dims, zero) == PARIO_OK);
  /* Eight requests in flight at once, each over 80 shards: the shards kept
   * open are counted for the process, not per request. */
  pario_request_t req[8];
  for (int k = 0; k < 8; ++k) {
    const int64_t at[2] = {k * 160, 0}, block[2] = {160, 64};
    CHECK(pario_disk_array_iwrite(d, a, at, block, at, NULL, &req[k]) == PARIO_OK);
  }
  for (int k = 0; k < 8; ++k) CHECK(pario_request_wait(&req[k]) == PARIO_OK);
  CHECK(open_fds() == fds);
  CHECK(pario_disk_array_write(d, a, from, count, to) == PARIO_OK); /* partial chunks at every edge */
  CHECK(open_fds() == fds);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK(pario_disk_array_open(world, dir, PARIO_MODE_READ, &d) == PARIO_OK);
  CHECK(pario_disk_array_read(d, b, zero, dims, zero) == PARIO_OK);
  CHECK(open_fds() == fds);
  CHECK(setrlimit(RLIMIT_NOFILE, &was) == 0);
  CHECK(pario_array_get(b, zero, dims, back, NULL) == PARIO_OK);
  int bad = 0;
  for (int64_t i = 0; i < 1280; ++i)
    for (int64_t j = 0; j < 64; ++j) {
      const int in = i >= to[0] && i < to[0] + count[0] && j >= to[1] && j < to[1] + count[1];
      bad += back[i * 64 + j] != (in ? value(i - to[0] + from[0], j - to[1] + from[1]) : value(i, j));
    }
  CHECK(bad == 0);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK(pario_array_destroy(&a) == PARIO_OK && pario_array_destroy(&b) == PARIO_OK);
  CHECK(pario_disk_array_delete(world, dir) == PARIO_OK);
}

/* 70 x 600 doubles in 16 x 256 chunks: big enough that chunks move
 * straight between the file and the ranks' memory (pario does so when a
 * chunk's pieces average 512 bytes or more). A blocking nonaligned write
 * then writes just the section's bytes of each partial chunk, and a read
 * drops the bytes outside its section: what is outside must stay. */
static double big(int64_t i, int64_t j) { return (double)(i * 1000 + j) + 0.25; }

/* Two double arrays of dims (rows x cols), the first holding big(i, j)
 * (all: the caller's rows x cols buffer for it). */
static void two_arrays(const char *src, const char *dst, const int64_t dims[2], double *all, pario_array_t *a,
                       pario_array_t *b) {
  const int64_t zero[2] = {0, 0};
  CHECK(pario_array_create(world, src, PARIO_TYPE_DOUBLE, 2, dims, a) == PARIO_OK);
  CHECK(pario_array_create(world, dst, PARIO_TYPE_DOUBLE, 2, dims, b) == PARIO_OK);
  for (int64_t i = 0; i < dims[0]; ++i)
    for (int64_t j = 0; j < dims[1]; ++j) all[i * dims[1] + j] = big(i, j);
  if (me == 0) CHECK(pario_array_put(*a, zero, dims, all, NULL) == PARIO_OK);
  CHECK(pario_array_sync(*a) == PARIO_OK);
}

static void in_place(const char *dir) {
  enum { R = 70, C = 600 };
  const int64_t dims[2] = {R, C}, chunks[2] = {16, 256}, zero[2] = {0, 0};
  const int64_t from[2] = {5, 7}, count[2] = {40, 400}, to[2] = {20, 100};
  pario_array_t a, b;
  pario_disk_array_t d;
  static double all[R * C], back[R * C];
  two_arrays("inplace_src", "inplace_dst", dims, all, &a, &b);
  CHECK(pario_disk_array_create(world, dir, PARIO_TYPE_DOUBLE, 2, dims, chunks, &d) == PARIO_OK);
  CHECK(pario_disk_array_write(d, a, zero, dims, zero) == PARIO_OK);
  CHECK(pario_disk_array_write(d, a, from, count, to) == PARIO_OK);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK(pario_disk_array_open(world, dir, PARIO_MODE_READ, &d) == PARIO_OK);
  CHECK(pario_disk_array_read(d, b, zero, dims, zero) == PARIO_OK);
  CHECK(pario_array_get(b, zero, dims, back, NULL) == PARIO_OK);
  int bad = 0;
  for (int64_t i = 0; i < R; ++i)
    for (int64_t j = 0; j < C; ++j) {
      const int in = i >= to[0] && i < to[0] + count[0] && j >= to[1] && j < to[1] + count[1];
      bad += back[i * C + j] != (in ? big(i - to[0] + from[0], j - to[1] + from[1]) : big(i, j));
    }
  CHECK(bad == 0);
  /* Nonaligned reads into the middle of a filled array: the rest stays.
   * Two shifts 8 bytes apart: a chunk goes in place, or through a buffer
   * where some row lands 1-63 bytes past its offset in the file (modulo
   * 4096, so it depends on where MPI put the patch too). */
  const int64_t piece[2] = {33, 311}, src[2] = {30, 3};
  for (int64_t col = 250; col <= 251; ++col) {
    const double fill = -1;
    CHECK(pario_array_fill(b, &fill) == PARIO_OK);
    const int64_t at[2] = {9, col};
    CHECK(pario_disk_array_read(d, b, at, piece, src) == PARIO_OK);
    CHECK(pario_array_get(b, zero, dims, back, NULL) == PARIO_OK);
    bad = 0;
    for (int64_t i = 0; i < R; ++i)
      for (int64_t j = 0; j < C; ++j) {
        const int in = i >= at[0] && i < at[0] + piece[0] && j >= at[1] && j < at[1] + piece[1];
        const int64_t di = i - at[0] + src[0], dj = j - at[1] + src[1];
        const int written = di >= to[0] && di < to[0] + count[0] && dj >= to[1] && dj < to[1] + count[1];
        const double want = !in ? fill : written ? big(di - to[0] + from[0], dj - to[1] + from[1]) : big(di, dj);
        bad += back[i * C + j] != want;
      }
    CHECK(bad == 0);
  }
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK(pario_array_destroy(&a) == PARIO_OK && pario_array_destroy(&b) == PARIO_OK);
  CHECK(pario_disk_array_delete(world, dir) == PARIO_OK);
}

/* A 1-d section written 1 and 257 elements past where it lies in memory,
 * then a 2-d one 257 columns past. Patches lie half a page into a page
 * (global_array.cpp), so at 1 rank the shift of 257 puts every chunk's
 * bytes 8 bytes past their memory, modulo 4096: a short distance, which
 * the chunk store writes through a bounce buffer (chunk_store.cpp), whole
 * 512 KiB chunks in two slices of 256 KiB, and the rows of partial chunks
 * run by run. The bytes must come back whole. */
static void shifted(const char *dir) {
  for (int64_t shift = 1; shift <= 257; shift += 256) {
    const int64_t n[1] = {4 * 65536 + 100}, disk[1] = {n[0] + shift}, chunk[1] = {65536}, zero[1] = {0};
    const int64_t at[1] = {shift};
    pario_array_t a, b;
    pario_disk_array_t d;
    CHECK(pario_array_create(world, "shifted_src", PARIO_TYPE_DOUBLE, 1, n, &a) == PARIO_OK);
    CHECK(pario_array_create(world, "shifted_dst", PARIO_TYPE_DOUBLE, 1, disk, &b) == PARIO_OK);
    int64_t start[1], count[1];
    CHECK(pario_array_distribution(a, me, start, count) == PARIO_OK);
    double *mine = malloc((size_t)(count[0] ? count[0] : 1) * sizeof *mine);
    for (int64_t i = 0; i < count[0]; ++i) mine[i] = big(0, start[0] + i);
    if (count[0]) CHECK(pario_array_put(a, start, count, mine, NULL) == PARIO_OK);
    free(mine);
    CHECK(pario_array_sync(a) == PARIO_OK);
    CHECK(pario_disk_array_create(world, dir, PARIO_TYPE_DOUBLE, 1, disk, chunk, &d) == PARIO_OK);
    CHECK(pario_disk_array_write(d, a, zero, n, at) == PARIO_OK);
    CHECK(pario_disk_array_read(d, b, zero, disk, zero) == PARIO_OK);
    double *back = malloc((size_t)disk[0] * sizeof *back);
    CHECK(pario_array_get(b, zero, disk, back, NULL) == PARIO_OK);
    int bad = 0;
    for (int64_t i = 0; i < shift; ++i) bad += back[i] != 0;
    for (int64_t i = 0; i < n[0]; ++i) bad += back[i + shift] != big(0, i);
    CHECK(bad == 0);
    free(back);
    CHECK(pario_disk_array_close(&d) == PARIO_OK);
    CHECK(pario_array_destroy(&a) == PARIO_OK && pario_array_destroy(&b) == PARIO_OK);
    CHECK(pario_disk_array_delete(world, dir) == PARIO_OK);
  }

  enum { R = 64, C = 1024, S = 257 };
  const int64_t dims[2] = {R, C}, chunks[2] = {16, 512}, zero2[2] = {0, 0};
  const int64_t count2[2] = {R, C - S}, at2[2] = {0, S};
  pario_array_t a, b;
  pario_disk_array_t d;
  static double all[R * C];
  two_arrays("shifted2_src", "shifted2_dst", dims, all, &a, &b);
  CHECK(pario_disk_array_create(world, dir, PARIO_TYPE_DOUBLE, 2, dims, chunks, &d) == PARIO_OK);
  CHECK(pario_disk_array_write(d, a, zero2, count2, at2) == PARIO_OK);
  CHECK(pario_disk_array_read(d, b, zero2, dims, zero2) == PARIO_OK);
  CHECK(pario_array_get(b, zero2, dims, all, NULL) == PARIO_OK);
  int bad = 0;
  for (int64_t i = 0; i < R; ++i)
    for (int64_t j = 0; j < C; ++j) bad += all[i * C + j] != (j < S ? 0 : big(i, j - S));
  CHECK(bad == 0);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK(pario_array_destroy(&a) == PARIO_OK && pario_array_destroy(&b) == PARIO_OK);
  CHECK(pario_disk_array_delete(world, dir) == PARIO_OK);
}

int main(void) {
  CHECK(pario_init() == PARIO_OK);
  pario_world_rank(&me);
  pario_world_size(&np);
  CHECK(pario_group_world(&world) == PARIO_OK);
  char d2[4096], d1[4096], d3[4096];
  CHECK(pario_scratch_path("disk2d.zarr", d2, sizeof d2) == PARIO_OK);
  CHECK(pario_scratch_path("disk1d.zarr", d1, sizeof d1) == PARIO_OK);
  CHECK(pario_scratch_path("disk3d.zarr", d3, sizeof d3) == PARIO_OK);
  /* One path for all ranks (drop ".<rank>"), fresh. */
  *strrchr(d2, '.') = *strrchr(d1, '.') = *strrchr(d3, '.') = '\0';
  (void)pario_disk_array_delete(world, d2);
  (void)pario_disk_array_delete(world, d1);
  (void)pario_disk_array_delete(world, d3);
  two_d(d2);
  other_shapes(d1, d3);
  many_shards(d1);
  in_place(d1);
  shifted(d1);
  CHECK(pario_disk_array_delete(world, d2) == PARIO_OK);
  CHECK_FAILS(pario_disk_array_delete(world, d2), me == 0 ? PARIO_ERR_NOT_FOUND : PARIO_ERR_REMOTE,
              "no zarr.json");
  CHECK(pario_disk_array_delete(world, d3) == PARIO_OK);
  CHECK(pario_group_free(&world) == PARIO_OK);
  CHECK(pario_finalize() == PARIO_OK);
  if (me != 0) return check_failures ? 1 : 0;
  return check_summary("capi_disk_array_test");
}
