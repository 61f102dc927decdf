/* Every file setting reaches a disk array. CTest runs this round trip under
 * one setting at a time (Files in Memory, O_DIRECT, MPI-IO, each I/O
 * engine), at 1, 2 and 4 ranks:
 *   capi_disk_array_tier_test STORE WHERE
 * WHERE says where the chunks must be while the job runs: "ram" (no chunk
 * file on disk, the statistics say the store is in RAM), "disk", or
 * "refused" (the setting cannot keep a Zarr store: create fails alike on
 * every rank). The store is kept: tier_check.py then reads it with
 * zarr-python after the job, when RAM files have gone to disk. */
#include <dirent.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"

enum { kRows = 60, kCols = 100 };
static int me;

static double value(int64_t i, int64_t j) { return (double)(i * 1000 + j); }

/* Regular files under dir other than zarr.json. */
static int chunk_files(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) return 0;
  int n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.' || strcmp(e->d_name, "zarr.json") == 0) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    struct stat st;
    if (stat(path, &st) != 0) continue;
    n += S_ISDIR(st.st_mode) ? chunk_files(path) : 1;
  }
  closedir(d);
  return n;
}

/* The whole disk array read back holds want (row-major). */
static void read_back(pario_group_t world, pario_disk_array_t d, const double *want) {
  const int64_t dims[2] = {kRows, kCols}, zero[2] = {0, 0};
  pario_array_t b;
  CHECK(pario_array_create(world, "back", PARIO_TYPE_DOUBLE, 2, dims, &b) == PARIO_OK);
  CHECK(pario_disk_array_read(d, b, zero, dims, zero) == PARIO_OK);
  static double got[kRows * kCols];
  if (me == 0) {
    CHECK(pario_array_get(b, zero, dims, got, NULL) == PARIO_OK);
    int bad = 0;
    for (int k = 0; k < kRows * kCols; ++k) bad += got[k] != want[k];
    CHECK(bad == 0);
  }
  CHECK(pario_array_sync(b) == PARIO_OK);
  CHECK(pario_array_destroy(&b) == PARIO_OK);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s STORE ram|disk|refused\n", argv[0]);
    return 2;
  }
  const char *store = argv[1], *where = argv[2];
  CHECK(pario_init() == PARIO_OK);
  pario_group_t world;
  CHECK(pario_group_world(&world) == PARIO_OK);
  pario_group_rank(world, &me);
  int rc = pario_disk_array_delete(world, store); /* a previous run's */
  CHECK(rc == PARIO_OK || rc == PARIO_ERR_NOT_FOUND || rc == PARIO_ERR_REMOTE); /* none: rank 0 says */

  const int64_t dims[2] = {kRows, kCols}, chunks[2] = {16, 25}, zero[2] = {0, 0};
  pario_disk_array_t d;
  if (strcmp(where, "refused") == 0) {
    CHECK_FAILS(pario_disk_array_create(world, store, PARIO_TYPE_DOUBLE, 2, dims, chunks, &d),
                PARIO_ERR_UNSUPPORTED, "outside its Zarr store");
    CHECK(pario_finalize() == PARIO_OK);
    return check_summary("capi_disk_array_tier_test");
  }

  static double want[kRows * kCols];
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t j = 0; j < kCols; ++j) want[i * kCols + j] = value(i, j);
  pario_array_t a;
  CHECK(pario_array_create(world, "src", PARIO_TYPE_DOUBLE, 2, dims, &a) == PARIO_OK);
  if (me == 0) CHECK(pario_array_put(a, zero, dims, want, NULL) == PARIO_OK);
  CHECK(pario_array_sync(a) == PARIO_OK);

  /* Whole, then a section across chunk and shard edges shifted by 7 rows:
   * disk[20:36, 30:80] = a[13:29, 30:80]. */
  CHECK(pario_disk_array_create(world, store, PARIO_TYPE_DOUBLE, 2, dims, chunks, &d) == PARIO_OK);
  CHECK(pario_disk_array_write(d, a, zero, dims, zero) == PARIO_OK);
  const int64_t from[2] = {13, 30}, count[2] = {16, 50}, to[2] = {20, 30};
  CHECK(pario_disk_array_write(d, a, from, count, to) == PARIO_OK);
  for (int64_t i = 0; i < count[0]; ++i)
    for (int64_t j = 0; j < count[1]; ++j)
      want[(to[0] + i) * kCols + to[1] + j] = value(from[0] + i, from[1] + j);
  read_back(world, d, want);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);

  /* Reopened, every rank finds the chunks that others wrote. */
  CHECK(pario_disk_array_open(world, store, PARIO_MODE_READ, &d) == PARIO_OK);
  read_back(world, d, want);
  CHECK(pario_disk_array_close(&d) == PARIO_OK);

  CHECK(pario_group_barrier(world) == PARIO_OK);
  const int on_disk = chunk_files(store);
  if (strcmp(where, "ram") == 0) {
    CHECK(on_disk == 0);
    char table[8192] = "";
    pario_stats_table(table, sizeof table);
    CHECK(strstr(table, "in RAM: every new file of the store") != NULL);
  } else {
    CHECK(on_disk > 0);
  }
  CHECK(pario_array_destroy(&a) == PARIO_OK);
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("capi_disk_array_tier_test");
}
