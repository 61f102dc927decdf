/* Disk arrays through the C API at 1, 2 and 4 ranks: transposed and
 * axis-permuted transfers, nonblocking requests (the source may change
 * after iwrite; overlapping requests take effect in start order; test and
 * waitall), arrays given by callbacks, and argument errors. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int me, np;
static pario_group_t world;

static double value(int64_t i, int64_t j) { return (double)(i * 1000 + j); }

/* Fills a 2-D array with value(i, j) from rank 0. */
static void fill_2d(pario_array_t a, int64_t n0, int64_t n1) {
  const int64_t zero[2] = {0, 0}, dims[2] = {n0, n1};
  double *all = malloc(sizeof(double) * (size_t)(n0 * n1));
  for (int64_t i = 0; i < n0; ++i)
    for (int64_t j = 0; j < n1; ++j) all[i * n1 + j] = value(i, j);
  if (me == 0) CHECK(pario_array_put(a, zero, dims, all, NULL) == PARIO_OK);
  CHECK(pario_array_sync(a) == PARIO_OK);
  free(all);
}

/* a (37 x 23) written transposed into a 23 x 37 disk array in 6 x 8
 * chunks; read back plainly (it is the transpose) and transposed (it is a). */
static void transpose(const char *dir) {
  const int64_t dims[2] = {37, 23}, tdims[2] = {23, 37}, chunks[2] = {6, 8}, zero[2] = {0, 0};
  const int swap[2] = {1, 0};
  pario_array_t a, t, b;
  pario_disk_array_t d;
  CHECK(pario_array_create(world, "a", PARIO_TYPE_DOUBLE, 2, dims, &a) == PARIO_OK);
  CHECK(pario_array_create(world, "t", PARIO_TYPE_DOUBLE, 2, tdims, &t) == PARIO_OK);
  CHECK(pario_array_create(world, "b", PARIO_TYPE_DOUBLE, 2, dims, &b) == PARIO_OK);
  fill_2d(a, 37, 23);
  CHECK(pario_disk_array_create(world, dir, PARIO_TYPE_DOUBLE, 2, tdims, chunks, &d) == PARIO_OK);
  pario_request_t r;
  CHECK(pario_disk_array_iwrite(d, a, zero, dims, zero, swap, &r) == PARIO_OK);
  CHECK(pario_request_wait(&r) == PARIO_OK && r == PARIO_REQUEST_NULL);
  CHECK(pario_disk_array_read(d, t, zero, tdims, zero) == PARIO_OK);
  static double got[37 * 23];
  CHECK(pario_array_get(t, zero, tdims, got, NULL) == PARIO_OK);
  int bad = 0;
  for (int64_t j = 0; j < 23; ++j)
    for (int64_t i = 0; i < 37; ++i) bad += got[j * 37 + i] != value(i, j);
  CHECK(bad == 0);
  CHECK(pario_disk_array_iread(d, b, zero, dims, zero, swap, &r) == PARIO_OK);
  CHECK(pario_request_wait(&r) == PARIO_OK);
  CHECK(pario_array_get(b, zero, dims, got, NULL) == PARIO_OK);
  bad = 0;
  for (int64_t i = 0; i < 37; ++i)
    for (int64_t j = 0; j < 23; ++j) bad += got[i * 23 + j] != value(i, j);
  CHECK(bad == 0);
  /* A nonaligned transposed section: a[5:15, 2:9] -> disk[3:10, 20:30]. */
  const int64_t from[2] = {5, 2}, count[2] = {10, 7}, to[2] = {3, 20};
  CHECK(pario_disk_array_iwrite(d, a, from, count, to, swap, &r) == PARIO_OK);
  CHECK(pario_request_wait(&r) == PARIO_OK);
  CHECK(pario_disk_array_read(d, t, zero, tdims, zero) == PARIO_OK);
  CHECK(pario_array_get(t, zero, tdims, got, NULL) == PARIO_OK);
  bad = 0;
  for (int64_t j = 0; j < 23; ++j)
    for (int64_t i = 0; i < 37; ++i) {
      const int in = j >= 3 && j < 10 && i >= 20 && i < 30;
      bad += got[j * 37 + i] != (in ? value(5 + i - 20, 2 + j - 3) : value(i, j));
    }
  CHECK(bad == 0);
  /* Errors: a duplicate axis, a shape that does not fit transposed. */
  const int dup[2] = {0, 0};
  CHECK_FAILS(pario_disk_array_iwrite(d, a, zero, dims, zero, dup, &r), PARIO_ERR_INVALID_ARGUMENT,
              "permutation");
  CHECK_FAILS(pario_disk_array_iwrite(d, a, zero, dims, zero, NULL, &r), PARIO_ERR_OUT_OF_RANGE,
              "outside [0, 23)");
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK(pario_disk_array_delete(world, dir) == PARIO_OK);
  CHECK(pario_array_destroy(&a) == PARIO_OK && pario_array_destroy(&t) == PARIO_OK);
  CHECK(pario_array_destroy(&b) == PARIO_OK);
}

/* A 4 x 5 x 6 int32 array stored with axes {2, 0, 1}: disk[x][y][z] =
 * mem[y][z][x], disk shape 6 x 4 x 5. */
static void permute_3d(const char *dir) {
  const int64_t dims[3] = {4, 5, 6}, ddims[3] = {6, 4, 5}, chunks[3] = {4, 3, 2}, zero[3] = {0, 0, 0};
  const int axes[3] = {2, 0, 1};
  pario_array_t m, plain;
  pario_disk_array_t d;
  CHECK(pario_array_create(world, "m", PARIO_TYPE_INT32, 3, dims, &m) == PARIO_OK);
  CHECK(pario_array_create(world, "plain", PARIO_TYPE_INT32, 3, ddims, &plain) == PARIO_OK);
  int32_t src[4 * 5 * 6], got[6 * 4 * 5];
  for (int i = 0; i < 120; ++i) src[i] = 7 * i + 1;
  if (me == 0) CHECK(pario_array_put(m, zero, dims, src, NULL) == PARIO_OK);
  CHECK(pario_array_sync(m) == PARIO_OK);
  CHECK(pario_disk_array_create(world, dir, PARIO_TYPE_INT32, 3, ddims, chunks, &d) == PARIO_OK);
  pario_request_t r;
  CHECK(pario_disk_array_iwrite(d, m, zero, dims, zero, axes, &r) == PARIO_OK);
  CHECK(pario_request_wait(&r) == PARIO_OK);
  CHECK(pario_disk_array_read(d, plain, zero, ddims, zero) == PARIO_OK);
  CHECK(pario_array_get(plain, zero, ddims, got, NULL) == PARIO_OK);
  int bad = 0;
  for (int x = 0; x < 6; ++x)
    for (int y = 0; y < 4; ++y)
      for (int z = 0; z < 5; ++z) bad += got[(x * 4 + y) * 5 + z] != src[(y * 5 + z) * 6 + x];
  CHECK(bad == 0);
  CHECK(pario_array_zero(m) == PARIO_OK);
  CHECK(pario_disk_array_iread(d, m, zero, dims, zero, axes, &r) == PARIO_OK);
  CHECK(pario_request_wait(&r) == PARIO_OK);
  CHECK(pario_array_get(m, zero, dims, got, NULL) == PARIO_OK);
  CHECK(memcmp(got, src, sizeof src) == 0);
  CHECK(pario_disk_array_close(&d) == PARIO_OK && pario_disk_array_delete(world, dir) == PARIO_OK);
  CHECK(pario_array_destroy(&m) == PARIO_OK && pario_array_destroy(&plain) == PARIO_OK);
}

/* Nonblocking requests on a 64 x 40 array in 16 x 16 chunks. */
static void requests(const char *dir) {
  const int64_t dims[2] = {64, 40}, chunks[2] = {16, 16}, zero[2] = {0, 0};
  pario_array_t a, b;
  pario_disk_array_t d;
  CHECK(pario_array_create(world, "a", PARIO_TYPE_DOUBLE, 2, dims, &a) == PARIO_OK);
  CHECK(pario_array_create(world, "b", PARIO_TYPE_DOUBLE, 2, dims, &b) == PARIO_OK);
  fill_2d(a, 64, 40);
  CHECK(pario_disk_array_create(world, dir, PARIO_TYPE_DOUBLE, 2, dims, chunks, &d) == PARIO_OK);
  /* Rows shifted cyclically by 8 (disk row r = a's row r - 8), in five
   * nonaligned requests in flight at once; the source changes right after
   * the starts and must not leak in. */
  pario_request_t r[4];
  for (int k = 0; k < 4; ++k) {
    const int64_t start[2] = {k * 16, 0};
    const int64_t to[2] = {(k * 16 + 8) % 64, 0};
    const int64_t n[2] = {k == 3 ? 8 : 16, 40};  /* the last block wraps: two pieces */
    CHECK(pario_disk_array_iwrite(d, a, start, n, to, NULL, &r[k]) == PARIO_OK);
  }
  const int64_t tail_from[2] = {56, 0}, tail_n[2] = {8, 40};
  pario_request_t tail;
  CHECK(pario_disk_array_iwrite(d, a, tail_from, tail_n, zero, NULL, &tail) == PARIO_OK);
  const double minus = -1;
  CHECK(pario_array_fill(a, &minus) == PARIO_OK);
  int done = 0;
  for (int spin = 0; spin < 100000 && !done; ++spin) CHECK(pario_request_test(&r[0], &done) == PARIO_OK);
  CHECK(done == 1);
  CHECK(pario_request_waitall(4, r) == PARIO_OK);
  CHECK(r[0] == PARIO_REQUEST_NULL && r[3] == PARIO_REQUEST_NULL);
  CHECK(pario_request_wait(&tail) == PARIO_OK);
  CHECK(pario_disk_array_read(d, b, zero, dims, zero) == PARIO_OK);
  static double got[64 * 40];
  CHECK(pario_array_get(b, zero, dims, got, NULL) == PARIO_OK);
  int bad = 0;
  for (int64_t i = 0; i < 64; ++i)
    for (int64_t j = 0; j < 40; ++j) bad += got[i * 40 + j] != value((i + 56) % 64, j);
  CHECK(bad == 0);

  /* Overlapping requests, none waited: write 1s, write 2s over part of it,
   * then read: the read sees both writes, in order. */
  const double one = 1, two = 2;
  pario_array_t ones, twos;
  CHECK(pario_array_create(world, "ones", PARIO_TYPE_DOUBLE, 2, dims, &ones) == PARIO_OK);
  CHECK(pario_array_create(world, "twos", PARIO_TYPE_DOUBLE, 2, dims, &twos) == PARIO_OK);
  CHECK(pario_array_fill(ones, &one) == PARIO_OK && pario_array_fill(twos, &two) == PARIO_OK);
  const int64_t part_at[2] = {10, 5}, part_n[2] = {30, 20};
  pario_request_t w1, w2, rd;
  CHECK(pario_disk_array_iwrite(d, ones, zero, dims, zero, NULL, &w1) == PARIO_OK);
  CHECK(pario_disk_array_iwrite(d, twos, part_at, part_n, part_at, NULL, &w2) == PARIO_OK);
  CHECK(pario_array_zero(b) == PARIO_OK);
  CHECK(pario_disk_array_iread(d, b, zero, dims, zero, NULL, &rd) == PARIO_OK);
  pario_request_t all[3] = {w1, w2, rd};
  CHECK(pario_request_waitall(3, all) == PARIO_OK);
  CHECK(pario_array_get(b, zero, dims, got, NULL) == PARIO_OK);
  bad = 0;
  for (int64_t i = 0; i < 64; ++i)
    for (int64_t j = 0; j < 40; ++j) {
      const int in = i >= 10 && i < 40 && j >= 5 && j < 25;
      bad += got[i * 40 + j] != (in ? 2.0 : 1.0);
    }
  CHECK(bad == 0);
  /* A waited request cannot be waited again. */
  CHECK_FAILS(pario_request_wait(&all[0]), PARIO_ERR_INVALID_ARGUMENT, "null");
  CHECK(pario_array_destroy(&ones) == PARIO_OK && pario_array_destroy(&twos) == PARIO_OK);

  /* Read-only: a write is refused on every rank; a read works. */
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK(pario_disk_array_open(world, dir, PARIO_MODE_READ, &d) == PARIO_OK);
  pario_request_t no;
  CHECK_FAILS(pario_disk_array_iwrite(d, a, zero, dims, zero, NULL, &no), PARIO_ERR_STATE, "read-only");
  CHECK(pario_disk_array_close(&d) == PARIO_OK && pario_disk_array_delete(world, dir) == PARIO_OK);
  CHECK(pario_array_destroy(&a) == PARIO_OK && pario_array_destroy(&b) == PARIO_OK);
}

/* An array seen only through callbacks (here backed by a pario array, as a
 * Global Arrays adapter would be backed by GA). */
static int ops_distribution(void *ctx, int rank, int64_t start[], int64_t count[]) {
  return pario_array_distribution((pario_array_t)ctx, rank, start, count);
}
static int ops_get(void *ctx, const int64_t start[], const int64_t count[], void *buf, const int64_t ld[]) {
  return pario_array_get((pario_array_t)ctx, start, count, buf, ld);
}
static int ops_put(void *ctx, const int64_t start[], const int64_t count[], const void *buf,
                   const int64_t ld[]) {
  return pario_array_put((pario_array_t)ctx, start, count, buf, ld);
}
static int ops_sync(void *ctx) { return pario_array_sync((pario_array_t)ctx); }
/* The own patch, so that pario reads and writes it in place. */
static int ops_access(void *ctx, void **ptr_out) {
  int64_t start[2], count[2];
  return pario_array_access((pario_array_t)ctx, me, ptr_out, start, count);
}
static int failing_access(void *ctx, void **ptr_out) {
  (void)ctx;
  *ptr_out = (void *)&world; /* garbage that must not be used */
  return PARIO_ERR_STATE;
}
/* Fails on the last rank only. */
static int last_rank_fails_distribution(void *ctx, int rank, int64_t start[], int64_t count[]) {
  return me == np - 1 ? PARIO_ERR_IO : ops_distribution(ctx, rank, start, count);
}
static int failing_get(void *ctx, const int64_t start[], const int64_t count[], void *buf, const int64_t ld[]) {
  (void)ctx, (void)start, (void)count, (void)buf, (void)ld;
  return PARIO_ERR_IO;
}

static void callbacks(const char *dir) {
  const int64_t dims[2] = {30, 50}, chunks[2] = {7, 9}, zero[2] = {0, 0};
  pario_array_t a, b;
  pario_disk_array_t d;
  CHECK(pario_array_create(world, "a", PARIO_TYPE_DOUBLE, 2, dims, &a) == PARIO_OK);
  CHECK(pario_array_create(world, "b", PARIO_TYPE_DOUBLE, 2, dims, &b) == PARIO_OK);
  fill_2d(a, 30, 50);
  pario_array_ops_t ops = {a, "a via callbacks", PARIO_TYPE_DOUBLE, 2, {30, 50},
                           ops_distribution, ops_get, ops_put, ops_sync};
  CHECK(pario_disk_array_create(world, dir, PARIO_TYPE_DOUBLE, 2, dims, chunks, &d) == PARIO_OK);
  pario_request_t r;
  CHECK(pario_disk_array_iwrite_ops(d, &ops, zero, dims, zero, NULL, &r) == PARIO_OK);
  CHECK(pario_request_wait(&r) == PARIO_OK);
  ops.context = b;
  CHECK(pario_disk_array_iread_ops(d, &ops, zero, dims, zero, NULL, &r) == PARIO_OK);
  CHECK(pario_request_wait(&r) == PARIO_OK);
  static double got[30 * 50];
  CHECK(pario_array_get(b, zero, dims, got, NULL) == PARIO_OK);
  int bad = 0;
  for (int64_t i = 0; i < 30; ++i)
    for (int64_t j = 0; j < 50; ++j) bad += got[i * 50 + j] != value(i, j);
  CHECK(bad == 0);
  /* With access, and with an access that fails (a shortcut lost, no error):
   * the same bytes either way. Chunks of whole rows, so that reads land in
   * the own patch (7 x 9 chunks are too small for it). */
  char rows_dir[4200];
  snprintf(rows_dir, sizeof rows_dir, "%s_rows", dir);
  const int64_t row_chunks[2] = {6, 50};
  pario_disk_array_t dr;
  (void)pario_disk_array_delete(world, rows_dir);
  CHECK(pario_disk_array_create(world, rows_dir, PARIO_TYPE_DOUBLE, 2, dims, row_chunks, &dr) == PARIO_OK);
  ops.context = a;
  CHECK(pario_disk_array_iwrite_ops(dr, &ops, zero, dims, zero, NULL, &r) == PARIO_OK);
  CHECK(pario_request_wait(&r) == PARIO_OK);
  ops.context = b;
  int (*accesses[2])(void *, void **) = {ops_access, failing_access};
  for (int k = 0; k < 2; ++k) {
    CHECK(pario_array_zero(b) == PARIO_OK);
    ops.access = accesses[k];
    CHECK(pario_disk_array_iread_ops(dr, &ops, zero, dims, zero, NULL, &r) == PARIO_OK);
    CHECK(pario_request_wait(&r) == PARIO_OK);
    CHECK(pario_array_get(b, zero, dims, got, NULL) == PARIO_OK);
    bad = 0;
    for (int64_t i = 0; i < 30; ++i)
      for (int64_t j = 0; j < 50; ++j) bad += got[i * 50 + j] != value(i, j);
    CHECK(bad == 0);
  }
  ops.access = NULL;
  CHECK(pario_disk_array_close(&dr) == PARIO_OK && pario_disk_array_delete(world, rows_dir) == PARIO_OK);
  /* A failing callback: its code and the array's name, on every rank that
   * moved a chunk; REMOTE on the others. */
  ops.get = failing_get;
  int rc = pario_disk_array_iwrite_ops(d, &ops, zero, dims, zero, NULL, &r);
  CHECK(rc == PARIO_OK);
  if (rc == PARIO_OK) {
    rc = pario_request_wait(&r);
    CHECK(rc == PARIO_ERR_IO || rc == PARIO_ERR_REMOTE);
    char msg[256];
    pario_last_error_message(msg, sizeof msg);
    CHECK(strstr(msg, rc == PARIO_ERR_IO ? "a via callbacks" : "rank") != NULL);
  }
  /* A distribution callback failing on one rank fails the transfer on all
   * (before this was agreed, the other ranks waited in it forever). */
  ops.get = ops_get;
  ops.distribution = last_rank_fails_distribution;
  rc = pario_disk_array_iwrite_ops(d, &ops, zero, dims, zero, NULL, &r);
  CHECK(rc == (me == np - 1 ? PARIO_ERR_IO : PARIO_ERR_REMOTE));
  ops.distribution = ops_distribution;
  ops.sync = NULL;
  CHECK_FAILS(pario_disk_array_iwrite_ops(d, &ops, zero, dims, zero, NULL, &r), PARIO_ERR_INVALID_ARGUMENT,
              "sync");
  CHECK(pario_disk_array_close(&d) == PARIO_OK && pario_disk_array_delete(world, dir) == PARIO_OK);
  CHECK(pario_array_destroy(&a) == PARIO_OK && pario_array_destroy(&b) == PARIO_OK);
}

int main(void) {
  CHECK(pario_init() == PARIO_OK);
  pario_world_rank(&me);
  pario_world_size(&np);
  CHECK(pario_group_world(&world) == PARIO_OK);
  const char *names[4] = {"async_t.zarr", "async_p.zarr", "async_r.zarr", "async_c.zarr"};
  char dirs[4][4096];
  for (int k = 0; k < 4; ++k) {
    CHECK(pario_scratch_path(names[k], dirs[k], sizeof dirs[k]) == PARIO_OK);
    *strrchr(dirs[k], '.') = '\0'; /* one path for all ranks */
    (void)pario_disk_array_delete(world, dirs[k]);
  }
  transpose(dirs[0]);
  permute_3d(dirs[1]);
  requests(dirs[2]);
  callbacks(dirs[3]);
  CHECK(pario_group_free(&world) == PARIO_OK);
  CHECK(pario_finalize() == PARIO_OK);
  if (me != 0) return check_failures ? 1 : 0;
  return check_summary("capi_disk_array_async_test");
}
