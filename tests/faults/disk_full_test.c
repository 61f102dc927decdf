/* Disk full, for real: run in a private mount namespace on a small tmpfs
 * (small_tmpfs.sh), every object writes until the file system is full.
 * Each must fail with PARIO_ERR_NO_SPACE (or PARIO_ERR_REMOTE where
 * another rank of a collective met it) and a message naming the file, and
 * everything written before must read back unchanged. The disk array is
 * left in place with a manifest of the rows written, for zarr-python
 * (zarr_check.py). The layout comes from the environment
 * (PARIO_DISK_ARRAY_SHARD, PARIO_DISK_ARRAY_CODEC, PARIO_FIM).
 *   disk_full_test DIR     (DIR: the tmpfs, a few MiB) */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { kBlock = 65536, kMaxBlocks = 4096, kRows = 512, kCols = 1024, kRowsPerWrite = 32 };

static int me, np;
static pario_group_t world;

static void pattern(char *buf, int owner, int block) {
  for (int i = 0; i < kBlock; ++i) buf[i] = (char)(owner * 31 + block * 7 + i);
}

static int is_full(int rc) { return rc == PARIO_ERR_NO_SPACE; }

/* The message names the file, once (a RAM file's spill to disk once said
 * it twice, with its context). */
static void check_full_message(const char *where) {
  char msg[1024];
  pario_last_error_message(msg, sizeof msg);
  const char *first = strstr(msg, where);
  if (!first || strstr(first + 1, where)) {
    fprintf(stderr, "rank %d: message '%s' does not name '%s' once\n", me, msg, where);
    ++check_failures;
  }
}

/* A private file (on disk, or in RAM spilling to disk under PARIO_FIM). */
static void private_file(const char *dir, const char *name) {
  char path[600];
  snprintf(path, sizeof path, "%s/%s.%d", dir, name, me);
  pario_file_t f = PARIO_FILE_NULL;
  CHECK(pario_file_open(path, PARIO_MODE_RDWR | PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &f) == PARIO_OK);
  static char buf[kBlock], back[kBlock];
  int written = 0, rc = PARIO_OK;
  for (; written < kMaxBlocks; ++written) {
    pattern(buf, me, written);
    rc = pario_file_write(f, (int64_t)written * kBlock, buf, kBlock);
    if (rc != PARIO_OK) break;
  }
  CHECK(is_full(rc));
  check_full_message(path);
  for (int b = 0; b < written; ++b) {
    pattern(buf, me, b);
    CHECK(pario_file_read(f, (int64_t)b * kBlock, back, kBlock) == PARIO_OK && memcmp(buf, back, kBlock) == 0);
  }
  CHECK(pario_file_close(&f) == PARIO_OK);
  CHECK(pario_file_delete(path) == PARIO_OK);
  CHECK(pario_group_barrier(world) == PARIO_OK);
}

/* A shared file: every rank writes its own blocks until one is refused. */
static void shared_file(const char *dir) {
  char path[600];
  snprintf(path, sizeof path, "%s/shared", dir);
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  CHECK(pario_shared_file_create(world, path, PARIO_SIZE_UNKNOWN, PARIO_SIZE_UNKNOWN, kBlock, &f) == PARIO_OK);
  static char buf[kBlock], back[kBlock];
  int written = 0, rc = PARIO_OK;
  for (; written < kMaxBlocks; ++written) {
    pattern(buf, me, written);
    rc = pario_shared_file_write(f, ((int64_t)written * np + me) * kBlock, buf, kBlock);
    if (rc != PARIO_OK) break;
  }
  CHECK(is_full(rc));
  check_full_message(path);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  for (int b = 0; b < written; ++b) {
    pattern(buf, me, b);
    CHECK(pario_shared_file_read(f, ((int64_t)b * np + me) * kBlock, back, kBlock) == PARIO_OK &&
          memcmp(buf, back, kBlock) == 0);
  }
  CHECK(pario_shared_file_destroy(&f) == PARIO_OK);
}

/* Values zstd cannot squeeze much (so the store outgrows the tmpfs); the
 * same formula is in zarr_check.py. */
static double value(int64_t i, int64_t j) {
  return (double)(((uint64_t)(i * kCols + j) * 2654435761u) % 4294967296u) / 7.0;
}

/* A disk array written 32 rows at a time until the disk is full. */
static void disk_array(const char *dir) {
  char path[600];
  snprintf(path, sizeof path, "%s/store", dir);
  const int64_t dims[2] = {kRows, kCols}, hint[2] = {16, kCols}, zero[2] = {0, 0};
  pario_array_t a = PARIO_ARRAY_NULL, b = PARIO_ARRAY_NULL;
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  CHECK(pario_array_create(world, "src", PARIO_TYPE_DOUBLE, 2, dims, &a) == PARIO_OK);
  CHECK(pario_array_create(world, "dst", PARIO_TYPE_DOUBLE, 2, dims, &b) == PARIO_OK);
  if (me == 0) {
    static double all[kRows * kCols];
    for (int64_t i = 0; i < kRows; ++i)
      for (int64_t j = 0; j < kCols; ++j) all[i * kCols + j] = value(i, j);
    CHECK(pario_array_put(a, zero, dims, all, NULL) == PARIO_OK);
  }
  CHECK(pario_array_sync(a) == PARIO_OK);
  CHECK(pario_disk_array_create(world, path, PARIO_TYPE_DOUBLE, 2, dims, hint, &d) == PARIO_OK);
  /* The manifest's page is taken now: once the disk is full, writing the
   * count into it needs no new space. */
  char manifest[700];
  snprintf(manifest, sizeof manifest, "%s/manifest", dir);
  if (me == 0) {
    FILE *m = fopen(manifest, "w");
    CHECK(m != NULL);
    if (m) fprintf(m, "%-15d\n", 0), fclose(m);
  }
  int rows = 0, rc = PARIO_OK;
  for (; rows < kRows; rows += kRowsPerWrite) {
    const int64_t at[2] = {rows, 0}, count[2] = {kRowsPerWrite, kCols};
    rc = pario_disk_array_write(d, a, at, count, at);
    if (rc != PARIO_OK) break;
  }
  /* The tmpfs is smaller than the array: some write must have failed, on
   * every rank (the one that met the full disk, and the others through it). */
  CHECK(rows < kRows);
  CHECK(is_full(rc) || rc == PARIO_ERR_REMOTE);
  char msg[512];
  pario_last_error_message(msg, sizeof msg);
  CHECK(strstr(msg, "o space") != NULL || strstr(msg, "No space") != NULL);
  /* What was written before reads back. */
  if (rows > 0) {
    const int64_t count[2] = {rows, kCols};
    CHECK(pario_disk_array_read(d, b, zero, count, zero) == PARIO_OK);
    if (me == 0) {
      static double back[kRows * kCols];
      CHECK(pario_array_get(b, zero, count, back, NULL) == PARIO_OK);
      int bad = 0;
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < kCols; ++j) bad += back[i * kCols + j] != value(i, j);
      CHECK(bad == 0);
    }
  }
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK(pario_array_destroy(&a) == PARIO_OK);
  CHECK(pario_array_destroy(&b) == PARIO_OK);
  if (me == 0) {
    FILE *m = fopen(manifest, "r+");
    CHECK(m != NULL);
    if (m) CHECK(fprintf(m, "%-15d\n", rows) == 16 && fclose(m) == 0);
    printf("disk array: %d of %d rows written before the disk was full\n", rows, kRows);
  }
}

/* No file left under a temporary name. */
static int temporaries(const char *dir) {
  char cmd[700];
  snprintf(cmd, sizeof cmd, "find '%s' -name '*.new.*' | grep -q .", dir);
  return system(cmd) == 0;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: disk_full_test DIR\n");
    return 2;
  }
  const char *dir = argv[1];
  CHECK(pario_init() == PARIO_OK);
  pario_world_rank(&me);
  pario_world_size(&np);
  CHECK(pario_group_world(&world) == PARIO_OK);
  private_file(dir, getenv("PARIO_FIM") ? "fim_scratch" : "private");
  shared_file(dir);
  disk_array(dir);
  CHECK(pario_group_barrier(world) == PARIO_OK);
  if (me == 0) CHECK(!temporaries(dir));
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("disk_full_test");
}
