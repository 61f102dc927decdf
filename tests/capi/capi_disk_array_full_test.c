/* A disk array of one file per chunk (PARIO_DISK_ARRAY_SHARD=0, raw or
 * zstd) whose writes fail midway: the file-size limit (RLIMIT_FSIZE, the
 * same short write a full disk gives, without mounting anything) is set
 * below one chunk. The write fails with a clear error, and no chunk file is
 * left truncated: new chunks are absent (they read as zeros) and chunks
 * written before keep their values. One rank. */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "check.h"

enum { kRows = 64, kCols = 64 };  /* 32 x 64 chunks: 16 KiB each */

static pario_group_t world;

static void fill(pario_array_t a, double base) {
  static double v[kRows * kCols];
  uint64_t x = (uint64_t)(base * 1000) + 1;
  for (int i = 0; i < kRows * kCols; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;  /* incompressible */
    v[i] = base + (double)(x >> 11) / 9007199254740992.0;
  }
  const int64_t zero[2] = {0, 0}, dims[2] = {kRows, kCols};
  CHECK(pario_array_put(a, zero, dims, v, NULL) == PARIO_OK);
  CHECK(pario_array_sync(a) == PARIO_OK);
}

/* Every element of rows [r0, r1) lies in [lo, lo + 1). */
static int rows_in(pario_array_t a, int r0, int r1, double lo) {
  static double v[kRows * kCols];
  const int64_t zero[2] = {0, 0}, dims[2] = {kRows, kCols};
  CHECK(pario_array_get(a, zero, dims, v, NULL) == PARIO_OK);
  for (int i = r0 * kCols; i < r1 * kCols; ++i) {
    if (!(v[i] >= lo && v[i] < lo + 1)) return 0;
  }
  return 1;
}

/* Files in the store other than zarr.json and c/<i>/<j> chunks of the full size. */
static int odd_files(const char *dir, int64_t chunk_bytes, int zstd) {
  int odd = 0;
  for (int i = 0; i < 2; ++i) {
    char path[700];
    snprintf(path, sizeof path, "%s/c/%d/0", dir, i);
    struct stat st;
    if (stat(path, &st) == 0 && !zstd && st.st_size != chunk_bytes) ++odd;
  }
  char cdir[700];
  snprintf(cdir, sizeof cdir, "%s/c", dir);
  DIR *d = opendir(cdir);
  if (!d) return odd;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strstr(e->d_name, ".new.")) ++odd;
  }
  closedir(d);
  return odd;
}

static void limit_file_size(rlim_t bytes) {
  struct rlimit r;
  CHECK(getrlimit(RLIMIT_FSIZE, &r) == 0);
  r.rlim_cur = bytes;
  CHECK(setrlimit(RLIMIT_FSIZE, &r) == 0);
}

int main(void) {
  signal(SIGXFSZ, SIG_IGN);  /* a write past the limit then fails with EFBIG */
  CHECK(pario_init() == PARIO_OK);
  CHECK(pario_group_world(&world) == PARIO_OK);
  const char *codec = getenv("PARIO_DISK_ARRAY_CODEC");
  const int zstd = codec && strncmp(codec, "zstd", 4) == 0;
  char dir[512];
  job_dir(world, zstd ? "full_zstd" : "full_raw", dir, sizeof dir);
  char store[600];
  snprintf(store, sizeof store, "%s/store", dir);

  const int64_t dims[2] = {kRows, kCols}, chunks[2] = {32, kCols}, zero[2] = {0, 0};
  const int64_t half[2] = {32, kCols}, second[2] = {32, 0};
  pario_array_t a = PARIO_ARRAY_NULL;
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  CHECK(pario_array_create(world, "a", PARIO_TYPE_DOUBLE, 2, dims, &a) == PARIO_OK);
  CHECK(pario_disk_array_create(world, store, PARIO_TYPE_DOUBLE, 2, dims, chunks, &d) == PARIO_OK);
  /* Chunk 0 written whole; chunk 1 never. */
  fill(a, 1);
  CHECK(pario_disk_array_write(d, a, zero, half, zero) == PARIO_OK);

  /* Every chunk file write now stops after 8 KiB. */
  fill(a, 2);
  limit_file_size(8192);
  const int rc = pario_disk_array_write(d, a, zero, dims, zero);
  limit_file_size(RLIM_INFINITY);
  CHECK(rc != PARIO_OK);
  char msg[512];
  pario_last_error_message(msg, sizeof msg);
  CHECK(strstr(msg, "store/c/") != NULL);  /* names the chunk file */
  CHECK(odd_files(store, 32 * kCols * 8, zstd) == 0);

  /* Chunk 1 reads as zeros (never written whole); chunk 0 as before,
   * unless the write reached it in place (raw): then whole, not torn. */
  CHECK(pario_array_zero(a) == PARIO_OK);
  CHECK(pario_disk_array_read(d, a, zero, dims, zero) == PARIO_OK);
  static double v[kRows * kCols];
  CHECK(pario_array_get(a, second, half, v, NULL) == PARIO_OK);
  int zeros = 1;
  for (int i = 0; i < 32 * kCols; ++i) zeros &= v[i] == 0;
  CHECK(zeros);
  if (zstd) CHECK(rows_in(a, 0, 32, 1));  /* replaced only once written whole */

  /* With room again, the same write succeeds and reads back. */
  fill(a, 3);
  CHECK(pario_disk_array_write(d, a, zero, dims, zero) == PARIO_OK);
  CHECK(pario_array_zero(a) == PARIO_OK);
  CHECK(pario_disk_array_read(d, a, zero, dims, zero) == PARIO_OK);
  CHECK(rows_in(a, 0, 64, 3));
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK(pario_disk_array_delete(world, store) == PARIO_OK);
  CHECK(pario_array_destroy(&a) == PARIO_OK);
  job_dir_remove(world, dir);
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("capi_disk_array_full_test");
}
