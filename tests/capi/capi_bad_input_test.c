/* Sizes and offsets near the limits, from a caller and from a file: every
 * one gets a clear error naming the argument, never a wrapped bound, a
 * corrupted heap or a write past a caller's array (run under ASan too).
 * Nothing that is not a file (a FIFO, a symbolic link) is waited on or
 * followed. At 1 and 2 ranks. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static int me;
static pario_group_t world;
static char dir[512];

/* A store whose zarr.json rank 0 writes by hand (another program's). */
static void plant_store(const char *name, const char *json, char *path, size_t len) {
  snprintf(path, len, "%s/%s", dir, name);
  if (me == 0) {
    mkdir(path, 0700);
    char file[700];
    snprintf(file, sizeof file, "%s/zarr.json", path);
    FILE *f = fopen(file, "w");
    CHECK(f != NULL);
    if (f) {
      fputs(json, f);
      fclose(f);
    }
  }
  CHECK(pario_group_barrier(world) == PARIO_OK);
}

static const char *kZarrHead = "{\"zarr_format\": 3, \"node_type\": \"array\", \"data_type\": \"float64\", ";
static const char *kZarrTail =
    "\"chunk_key_encoding\": {\"name\": \"default\", \"configuration\": {\"separator\": \"/\"}}, "
    "\"fill_value\": 0, \"codecs\": [{\"name\": \"bytes\", \"configuration\": {\"endian\": \"little\"}}]}";

static void zarr_with(const char *name, const char *shape, const char *chunks, char *path, size_t len) {
  char json[2048];
  snprintf(json, sizeof json,
           "%s\"shape\": %s, \"chunk_grid\": {\"name\": \"regular\", \"configuration\": {\"chunk_shape\": %s}}, %s",
           kZarrHead, shape, chunks, kZarrTail);
  plant_store(name, json, path, len);
}

static void untrusted_stores(void) {
  char path[600];
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  /* 9 dimensions: refused at open, so info can never write 9 entries into
   * the caller's arrays of PARIO_ARRAY_MAX_DIMS. */
  zarr_with("nine", "[2,2,2,2,2,2,2,2,2]", "[1,1,1,1,1,1,1,1,1]", path, sizeof path);
  CHECK_FAILS(pario_disk_array_open(world, path, PARIO_MODE_READ, &d), PARIO_ERR_UNSUPPORTED, "9 dimensions");
  CHECK(d == PARIO_DISK_ARRAY_NULL);
  /* A shape whose size overflows. */
  zarr_with("huge", "[4611686018427387904, 4611686018427387904]", "[1, 1]", path, sizeof path);
  CHECK_FAILS(pario_disk_array_open(world, path, PARIO_MODE_READ, &d), PARIO_ERR_CORRUPT, "2^63");
  /* A chunk that would be one buffer of 8 TB. */
  zarr_with("bigchunk", "[1048576, 1048576]", "[1048576, 1048576]", path, sizeof path);
  CHECK_FAILS(pario_disk_array_open(world, path, PARIO_MODE_READ, &d), PARIO_ERR_UNSUPPORTED, "bytes");
  /* Chunks per shard whose count overflows. */
  char json[2048];
  snprintf(json, sizeof json,
           "%s\"shape\": [4611686018427387904, 4], \"chunk_grid\": {\"name\": \"regular\", \"configuration\": "
           "{\"chunk_shape\": [4611686018427387904, 4]}}, \"chunk_key_encoding\": {\"name\": \"default\"}, "
           "\"fill_value\": 0, \"codecs\": [{\"name\": \"sharding_indexed\", \"configuration\": {\"chunk_shape\": "
           "[1, 1], \"codecs\": [{\"name\": \"bytes\"}], \"index_codecs\": [{\"name\": \"bytes\"}, {\"name\": "
           "\"crc32c\"}]}}]}",
           kZarrHead);
  plant_store("shards", json, path, sizeof path);
  const int rc = pario_disk_array_open(world, path, PARIO_MODE_READ, &d);
  CHECK(rc == PARIO_ERR_UNSUPPORTED || rc == PARIO_ERR_CORRUPT);
  /* zarr.json that is a directory: an I/O error naming the path. */
  snprintf(path, sizeof path, "%s/dirmeta", dir);
  if (me == 0) {
    mkdir(path, 0700);
    char meta[700];
    snprintf(meta, sizeof meta, "%s/zarr.json", path);
    mkdir(meta, 0700);
  }
  CHECK(pario_group_barrier(world) == PARIO_OK);
  char msg[512];
  CHECK(pario_disk_array_open(world, path, PARIO_MODE_READ, &d) != PARIO_OK);
  pario_last_error_message(msg, sizeof msg);
  CHECK(strstr(msg, "dirmeta/zarr.json") != NULL);
  /* zarr.json that is a FIFO (an open(2) for reading would wait for a
   * writer for ever) or a symbolic link to a good one: refused at once. */
  char good[600];
  zarr_with("linked_target", "[4]", "[2]", good, sizeof good);
  const char *kinds[] = {"fifometa", "linkmeta"};
  for (int k = 0; k < 2; ++k) {
    snprintf(path, sizeof path, "%s/%s", dir, kinds[k]);
    if (me == 0) {
      mkdir(path, 0700);
      char meta[700], target[700];
      snprintf(meta, sizeof meta, "%s/zarr.json", path);
      snprintf(target, sizeof target, "%s/zarr.json", good);
      CHECK(k == 0 ? mkfifo(meta, 0600) == 0 : symlink(target, meta) == 0);
    }
    CHECK(pario_group_barrier(world) == PARIO_OK);
    CHECK(pario_disk_array_open(world, path, PARIO_MODE_READ, &d) != PARIO_OK);
    CHECK(d == PARIO_DISK_ARRAY_NULL);
    pario_last_error_message(msg, sizeof msg);
    CHECK(strstr(msg, kinds[k]) != NULL);
  }
  CHECK(pario_disk_array_open(world, good, PARIO_MODE_READ, &d) == PARIO_OK);  /* the target itself opens */
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
}

static void caller_sizes(void) {
  char path[600];
  snprintf(path, sizeof path, "%s/store", dir);
  pario_disk_array_t d = PARIO_DISK_ARRAY_NULL;
  /* Extents whose product overflows. */
  const int64_t huge[2] = {INT64_C(1) << 62, INT64_C(1) << 62};
  CHECK_FAILS(pario_disk_array_create(world, path, PARIO_TYPE_DOUBLE, 2, huge, NULL, &d),
              PARIO_ERR_INVALID_ARGUMENT, "2^63");
  /* Huge extents beside a zero one: an empty array, whose chunk sizing
   * must not overflow (found by the C API fuzz target). */
  const int64_t zero_extent[3] = {INT64_MAX, INT64_MAX, 0};
  CHECK(pario_disk_array_create(world, path, PARIO_TYPE_DOUBLE, 3, zero_extent, zero_extent, &d) == PARIO_OK);
  int64_t shape[PARIO_ARRAY_MAX_DIMS], chunks[PARIO_ARRAY_MAX_DIMS];
  int nd = 0;
  CHECK(pario_disk_array_info(d, NULL, &nd, shape, chunks) == PARIO_OK && nd == 3);
  CHECK(chunks[0] >= 1 && chunks[1] >= 1 && chunks[2] == 1 && chunks[0] <= (1 << 20) / chunks[1]);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK(pario_disk_array_delete(world, path) == PARIO_OK);
  pario_array_t a = PARIO_ARRAY_NULL;
  const int64_t big_bytes[2] = {INT64_C(1) << 31, INT64_C(1) << 31};  /* 2^62 elements, 2^65 bytes */
  CHECK_FAILS(pario_array_create(world, "big", PARIO_TYPE_DOUBLE, 2, big_bytes, &a), PARIO_ERR_INVALID_ARGUMENT,
              "2^63");

  /* A column distribution where the last rank's patch (8 TB) cannot be
   * allocated: refused on every rank before any window is made. */
  {
    int np = 1;
    pario_world_size(&np);
    int64_t first[64];
    for (int r = 0; r < np && r < 64; ++r) first[r] = r;
    const int64_t columns[2] = {INT64_C(1) << 40, 1};
    const int rc = pario_array_create_columns(world, "too_big", PARIO_TYPE_DOUBLE, 2, columns, first, &a);
    CHECK(rc == PARIO_ERR_NO_MEMORY || rc == PARIO_ERR_REMOTE);
    CHECK(a == PARIO_ARRAY_NULL);
    CHECK(pario_group_barrier(world) == PARIO_OK);
  }

  /* An optional argument given on the last rank only (first_index null
   * elsewhere): every rank is told the arguments differ. Each rank once
   * compared only the arguments it passed itself, so the others went on
   * into the creation's next collective and waited there for ever. */
  {
    int np = 1, me = 0;
    pario_world_size(&np);
    pario_world_rank(&me);
    if (np > 1) {
      int64_t first[64];
      for (int r = 0; r < np && r < 64; ++r) first[r] = r;
      const int64_t columns[2] = {8, 64};
      const int rc = pario_array_create_columns(world, "optional_on_one_rank", PARIO_TYPE_DOUBLE, 2, columns,
                                                me == np - 1 ? first : NULL, &a);
      char msg[512];
      pario_last_error_message(msg, sizeof msg);
      CHECK(rc == PARIO_ERR_INVALID_ARGUMENT);
      CHECK(strstr(msg, "differ") != NULL);
      CHECK(a == PARIO_ARRAY_NULL);
      CHECK(pario_group_barrier(world) == PARIO_OK);
    }
  }

  const int64_t dims[2] = {16, 8}, zero[2] = {0, 0};
  CHECK(pario_array_create(world, "m", PARIO_TYPE_DOUBLE, 2, dims, &a) == PARIO_OK);
  CHECK(pario_disk_array_create(world, path, PARIO_TYPE_DOUBLE, 2, dims, NULL, &d) == PARIO_OK);
  /* A disk start near INT64_MAX: start + count would wrap past the check. */
  const int64_t far[2] = {INT64_MAX - 2, 0};
  CHECK_FAILS(pario_disk_array_write(d, a, zero, dims, far), PARIO_ERR_OUT_OF_RANGE, "9223372036854775805");
  const int64_t far_count[2] = {INT64_MAX, 8};
  const int64_t one[2] = {1, 0};
  CHECK_FAILS(pario_disk_array_read(d, a, one, far_count, zero), PARIO_ERR_OUT_OF_RANGE, "outside");
  /* One-sided gets with start or count near INT64_MAX. */
  double buf[16 * 8];
  const int64_t start_far[2] = {INT64_MAX, 0}, count_small[2] = {1, 1};
  CHECK_FAILS(pario_array_get(a, start_far, count_small, buf, NULL), PARIO_ERR_OUT_OF_RANGE, "9223372036854775807");
  const int64_t start_one[2] = {1, 0}, count_far[2] = {INT64_MAX, 1};
  CHECK_FAILS(pario_array_get(a, start_one, count_far, buf, NULL), PARIO_ERR_OUT_OF_RANGE, "outside");
  CHECK_FAILS(pario_array_put(a, start_one, count_far, buf, NULL), PARIO_ERR_OUT_OF_RANGE, "outside");
  /* The data written before is still there. */
  for (int i = 0; i < 16 * 8; ++i) buf[i] = i;
  if (me == 0) CHECK(pario_array_put(a, zero, dims, buf, NULL) == PARIO_OK);
  CHECK(pario_array_sync(a) == PARIO_OK);
  CHECK(pario_disk_array_write(d, a, zero, dims, zero) == PARIO_OK);
  CHECK_FAILS(pario_disk_array_write(d, a, zero, dims, far), PARIO_ERR_OUT_OF_RANGE, "outside");
  CHECK(pario_array_zero(a) == PARIO_OK);
  CHECK(pario_disk_array_read(d, a, zero, dims, zero) == PARIO_OK);
  double back[16 * 8];
  CHECK(pario_array_get(a, zero, dims, back, NULL) == PARIO_OK);
  CHECK(memcmp(back, buf, sizeof buf) == 0);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);
  CHECK(pario_disk_array_delete(world, path) == PARIO_OK);
  CHECK(pario_array_destroy(&a) == PARIO_OK);

  /* Handles that are not communicators: errors, not MPI's fatal handler. */
  pario_group_t g = PARIO_GROUP_NULL;
  CHECK_FAILS(pario_group_from_fortran_comm(123456, &g), PARIO_ERR_INVALID_ARGUMENT, "communicator");
  CHECK_FAILS(pario_group_from_fortran_comm(-7, &g), PARIO_ERR_INVALID_ARGUMENT, "communicator");
  CHECK(g == PARIO_GROUP_NULL);

  /* Counts larger than any buffer: refused at once, not looped over. */
  double x = 1;
  CHECK_FAILS(pario_group_sum(world, PARIO_TYPE_DOUBLE, &x, SIZE_MAX), PARIO_ERR_INVALID_ARGUMENT, "count");
  CHECK_FAILS(pario_group_broadcast(world, &x, SIZE_MAX, 0), PARIO_ERR_INVALID_ARGUMENT, "bytes");
}

int main(void) {
  CHECK(pario_init() == PARIO_OK);
  pario_world_rank(&me);
  CHECK(pario_group_world(&world) == PARIO_OK);
  job_dir(world, "bad_input", dir, sizeof dir);
  untrusted_stores();
  caller_sizes();
  job_dir_remove(world, dir);
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("capi_bad_input_test");
}
