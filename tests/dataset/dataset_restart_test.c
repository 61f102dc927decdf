/* Restart on another number of ranks (N -> M), in two mpiexec runs:
 *   dataset_restart_test write FILE.h5   (N ranks)
 *   dataset_restart_test read FILE.h5    (M ranks, M != N)
 * write: a 9 x 7 global array of doubles in pario's default distribution
 * into a global-ordered section (checkpoint), the same values from an
 * irregular distribution into a float variable, a rank-ordered section
 * (rank r writes r + 2 items), and a global-ordered one through a
 * decomposition of keys-like scattered indices.
 * read: the array back into an array of int64 (converted) distributed by
 * columns and into a 63-element 1-D array (any shape of the same size),
 * the irregular one into the default distribution,
 * the rank-ordered section by each of the N writers' pieces (spread over
 * the M ranks) and by an even split, the scattered section through blocks. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static int rank, size;
static pario_group_t world;

static double cell(int64_t i, int64_t j) { return 100.0 * (double)i + (double)j; }
static double piece_word(int w, int64_t i) { return 1000.0 * w + (double)i; }
static double scattered(int64_t g) { return 3.0 * (double)g - 1.0; }
/* Item k of the rank-ordered section: writer w's piece of w + 2 items
 * starts at the sum of the pieces before it. */
static double ranked_item(int64_t k) {
  int w = 0;
  for (; k >= w + 2; ++w) k -= w + 2;
  return piece_word(w, k);
}

enum { kRows = 9, kCols = 7, kScattered = 50 };

static void write_all(const char *path) {
  pario_dataset_t ds = PARIO_DATASET_NULL;
  CHECK(pario_dataset_create(world, path, PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &ds) == PARIO_OK);
  int v = -1;
  CHECK(pario_dataset_variable_register(ds, "field", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v) == PARIO_OK);
  CHECK(pario_dataset_variable_register(ds, "pieces", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v) == PARIO_OK);
  CHECK(pario_dataset_variable_register(ds, "mesh", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_DOUBLE, &v) == PARIO_OK);
  CHECK(pario_dataset_variable_register(ds, "uneven", PARIO_ITEM_SCALAR, NULL, PARIO_TYPE_FLOAT, &v) == PARIO_OK);
  CHECK(pario_dataset_segment_append(ds, PARIO_SEGMENT_STATE, 0, 0.0, NULL) == PARIO_OK);

  const int64_t dims[2] = {kRows, kCols};
  pario_array_t a = PARIO_ARRAY_NULL;
  CHECK(pario_array_create(world, "field", PARIO_TYPE_DOUBLE, 2, dims, &a) == PARIO_OK);
  /* Rank r puts rows i with i % size == (r + 1) % size (mostly another
   * rank's patch), so the write must see other ranks' one-sided puts. */
  const int64_t count[2] = {1, kCols};
  for (int64_t i = 0; i < kRows; ++i) {
    if (i % size != (rank + 1) % size) continue;
    const int64_t start[2] = {i, 0};
    double line[kCols];
    for (int64_t j = 0; j < kCols; ++j) line[j] = cell(i, j);
    CHECK(pario_array_put(a, start, count, line, NULL) == PARIO_OK);
  }
  CHECK(pario_dataset_write_array(ds, 0, 0, a) == PARIO_OK);
  CHECK(pario_array_destroy(&a) == PARIO_OK);

  /* The same values from an irregular distribution (GA's NGA_Create_irreg):
   * uneven row blocks 0, 1, 3, 6 (as many as ranks), one column block. */
  const int64_t starts[5] = {0, 1, 3, 6, 0};
  const int64_t nblocks[2] = {size < 4 ? size : 4, 1};
  int64_t block_starts[5];
  for (int b = 0; b < nblocks[0]; ++b) block_starts[b] = starts[b];
  block_starts[nblocks[0]] = 0;
  CHECK(pario_array_create_irregular(world, "uneven", PARIO_TYPE_DOUBLE, 2, dims, nblocks, block_starts, &a) ==
        PARIO_OK);
  if (rank == 0) {
    double all[kRows * kCols];
    for (int64_t i = 0; i < kRows; ++i)
      for (int64_t j = 0; j < kCols; ++j) all[i * kCols + j] = cell(i, j);
    const int64_t zero[2] = {0, 0};
    CHECK(pario_array_put(a, zero, dims, all, NULL) == PARIO_OK);
  }
  CHECK(pario_array_sync(a) == PARIO_OK);
  CHECK(pario_dataset_write_array(ds, 0, 3, a) == PARIO_OK);
  CHECK(pario_array_destroy(&a) == PARIO_OK);

  double mine[16];
  for (int i = 0; i < rank + 2; ++i) mine[i] = piece_word(rank, i);
  CHECK(pario_dataset_write_ranked(ds, 0, 1, rank + 2, mine) == PARIO_OK);

  /* Scattered: rank r holds indices g with (7 g) % size == r, descending. */
  int64_t idx[kScattered], n = 0;
  double vals[kScattered];
  for (int64_t g = kScattered - 1; g >= 0; --g) {
    if ((7 * g) % size == rank) {
      idx[n] = g;
      vals[n++] = scattered(g);
    }
  }
  pario_decomp_t d = PARIO_DECOMP_NULL;
  CHECK(pario_decomp_create_indices(world, PARIO_TYPE_DOUBLE, kScattered, n, idx, NULL, &d) == PARIO_OK);
  CHECK(pario_dataset_write_decomp(ds, 0, 2, d, vals) == PARIO_OK);
  CHECK(pario_decomp_free(&d) == PARIO_OK);
  int64_t writers = size;
  CHECK(pario_dataset_info_put(ds, PARIO_INFO_DATASET, 0, "writers", PARIO_TYPE_INT64, 1, &writers) == PARIO_OK);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
}

static void read_all(const char *path) {
  pario_dataset_t ds = PARIO_DATASET_NULL;
  CHECK(pario_dataset_open(world, path, PARIO_MODE_READ, &ds) == PARIO_OK);
  int64_t writers = 0;
  CHECK(pario_dataset_info_get(ds, PARIO_INFO_DATASET, 0, "writers", PARIO_TYPE_INT64, 1, &writers, NULL, NULL) ==
        PARIO_OK);
  if (rank == 0) printf("restart: written on %lld ranks, read on %d\n", (long long)writers, size);

  /* The array into int64 by columns. */
  const int64_t dims[2] = {kRows, kCols};
  pario_array_t b = PARIO_ARRAY_NULL;
  CHECK(pario_array_create_columns(world, "back", PARIO_TYPE_INT64, 2, dims, NULL, &b) == PARIO_OK);
  CHECK(pario_dataset_read_array(ds, 0, 0, b) == PARIO_OK);
  int64_t got[kRows * kCols];
  const int64_t zero[2] = {0, 0};
  CHECK(pario_array_get(b, zero, dims, got, NULL) == PARIO_OK);
  int good = 1;
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t j = 0; j < kCols; ++j) good &= got[i * kCols + j] == (int64_t)cell(i, j);
  CHECK(good);
  CHECK(pario_array_destroy(&b) == PARIO_OK);
  /* Into a 1-D array of the same size; of another size it is refused. */
  const int64_t flat[1] = {kRows * kCols}, other[1] = {kRows * kCols + 1};
  CHECK(pario_array_create(world, "flat", PARIO_TYPE_DOUBLE, 1, flat, &b) == PARIO_OK);
  CHECK(pario_dataset_read_array(ds, 0, 0, b) == PARIO_OK);
  double f[kRows * kCols];
  CHECK(pario_array_get(b, zero, flat, f, NULL) == PARIO_OK && f[kCols] == cell(1, 0) && f[62] == cell(8, 6));
  CHECK(pario_array_destroy(&b) == PARIO_OK);
  /* The irregularly distributed one (float in the file) into the default distribution. */
  CHECK(pario_array_create(world, "even", PARIO_TYPE_DOUBLE, 2, dims, &b) == PARIO_OK);
  CHECK(pario_dataset_read_array(ds, 0, 3, b) == PARIO_OK);
  CHECK(pario_array_get(b, zero, dims, f, NULL) == PARIO_OK);
  good = 1;
  for (int64_t i = 0; i < kRows; ++i)
    for (int64_t j = 0; j < kCols; ++j) good &= f[i * kCols + j] == (double)(float)cell(i, j);
  CHECK(good);
  CHECK(pario_array_destroy(&b) == PARIO_OK);
  CHECK(pario_array_create(world, "other", PARIO_TYPE_DOUBLE, 1, other, &b) == PARIO_OK);
  CHECK_FAILS(pario_dataset_read_array(ds, 0, 0, b), PARIO_ERR_INVALID_ARGUMENT, "global size");
  CHECK(pario_array_destroy(&b) == PARIO_OK);

  /* The N writers' pieces, spread round-robin over the M readers. */
  pario_dataset_section_t info;
  for (int w = 0; w < writers; ++w) {
    CHECK(pario_dataset_section_info(ds, 0, 1, w, &info) == PARIO_OK);
    CHECK(info.writers == writers && info.piece_count == w + 2);
    double buf[64];
    const int mine = w % size == rank;
    CHECK(pario_dataset_read_items(ds, 0, 1, info.piece_start, mine ? info.piece_count : 0, buf) == PARIO_OK);
    for (int64_t i = 0; mine && i < info.piece_count; ++i) CHECK(buf[i] == piece_word(w, i));
  }
  int64_t start = 0, n = 0;
  CHECK(pario_dataset_even_split(info.items, size, rank, &start, &n) == PARIO_OK);
  double all[128];
  CHECK(n <= 128 && pario_dataset_read_items(ds, 0, 1, start, n, all) == PARIO_OK);
  good = 1;
  for (int64_t k = 0; k < n; ++k) good &= all[k] == ranked_item(start + k);
  CHECK(good);

  /* The scattered section through blocks of the even split. */
  CHECK(pario_dataset_even_split(kScattered, size, rank, &start, &n) == PARIO_OK);
  const int64_t g[1] = {kScattered}, s[1] = {start}, c[1] = {n};
  pario_decomp_t d = PARIO_DECOMP_NULL;
  CHECK(pario_decomp_create_blocks(world, PARIO_TYPE_DOUBLE, 1, g, PARIO_ORDER_C, 1, s, c, NULL, &d) == PARIO_OK);
  double sc[kScattered];
  CHECK(pario_dataset_read_decomp(ds, 0, 2, d, sc) == PARIO_OK);
  good = 1;
  for (int64_t k = 0; k < n; ++k) good &= sc[k] == scattered(start + k);
  CHECK(good);
  CHECK(pario_decomp_free(&d) == PARIO_OK);
  CHECK(pario_dataset_close(&ds) == PARIO_OK);
}

int main(int argc, char **argv) {
  if (argc < 3 || (strcmp(argv[1], "write") != 0 && strcmp(argv[1], "read") != 0)) {
    fprintf(stderr, "usage: dataset_restart_test write|read FILE.h5\n");
    return 2;
  }
  CHECK(pario_init() == PARIO_OK);
  pario_world_rank(&rank);
  pario_world_size(&size);
  CHECK(pario_group_world(&world) == PARIO_OK);
  if (strcmp(argv[1], "write") == 0) {
    write_all(argv[2]);
  } else {
    read_all(argv[2]);
  }
  CHECK(pario_finalize() == PARIO_OK);
  return check_summary("dataset_restart_test");
}
