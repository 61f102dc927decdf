/* The job tests/collective/scaling_check.py measures: collective writes
 * and reads of a 16 x 10 x 10 array of doubles in z-slabs, and of
 * scattered indices (each index held by a pseudo-random rank, one index in
 * seven held by none, handed over in decreasing order), with aggregator
 * buffers of 1000, 4096 and 65536 bytes and one aggregator per (emulated)
 * node. After each transfer every rank writes its statistics so far to
 * DIR/s<k>_<rank>.json (k counts the transfers: write, read, write, ...);
 * the check takes the differences. Run with PARIO_STATS_FILE set (the
 * statistics are off otherwise).    scaling_run DIR */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { kZ = 16, kY = 10, kX = 10, kN = kZ * kY * kX };
static const int64_t kBuffers[] = {1000, 4096, 65536};

/* Which rank holds global index g in the scattered pattern (-1: none).
 * scaling_check.py computes the same. */
static int owner(int64_t g, int size) {
  if (g % 7 == 3) return -1;
  const uint64_t h = (uint64_t)g * 6364136223846793005ULL + 1442695040888963407ULL;
  return (int)((h >> 33) % (uint64_t)size);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: scaling_run DIR\n");
    return 2;
  }
  CHECK(pario_init() == PARIO_OK);
  int rank = 0, size = 1;
  pario_world_rank(&rank);
  pario_world_size(&size);
  pario_group_t world;
  CHECK(pario_group_world(&world) == PARIO_OK);
  char path[700];
  snprintf(path, sizeof path, "%s/scaling.dat", argv[1]);
  pario_shared_file_t f = PARIO_SHARED_FILE_NULL;
  CHECK(pario_shared_file_create(world, path, PARIO_SIZE_UNKNOWN, kN * 8, PARIO_SIZE_UNKNOWN, &f) == PARIO_OK);

  int64_t *indices = malloc(kN * sizeof(int64_t));
  double *values = malloc(kN * sizeof(double)), *back = malloc(kN * sizeof(double));
  int k = 0;
  for (int pattern = 0; pattern < 2; ++pattern) {
    for (size_t b = 0; b < sizeof kBuffers / sizeof kBuffers[0]; ++b) {
      pario_decomp_hints hints;
      pario_decomp_hints_init(&hints);
      hints.buffer_size = kBuffers[b];
      hints.buffering = PARIO_BUFFERING_ALWAYS; /* the model is the aggregators' */
      pario_decomp_t d = PARIO_DECOMP_NULL;
      int64_t n = 0;
      if (pattern == 0) { /* z-slabs */
        const int64_t dims[3] = {kZ, kY, kX};
        int64_t start[3] = {(int64_t)kZ * rank / size, 0, 0}, count[3] = {0, kY, kX};
        count[0] = (int64_t)kZ * (rank + 1) / size - start[0];
        n = count[0] * kY * kX;
        for (int64_t i = 0; i < n; ++i) values[i] = (double)(start[0] * kY * kX + i);
        CHECK(pario_decomp_create_blocks(world, PARIO_TYPE_DOUBLE, 3, dims, PARIO_ORDER_C, 1, start, count, &hints,
                                         &d) == PARIO_OK);
      } else { /* scattered, in decreasing order */
        for (int64_t g = kN - 1; g >= 0; --g) {
          if (owner(g, size) == rank) {
            indices[n] = g;
            values[n++] = (double)g;
          }
        }
        CHECK(pario_decomp_create_indices(world, PARIO_TYPE_DOUBLE, kN, n, indices, &hints, &d) == PARIO_OK);
      }
      char json[800];
      CHECK(pario_decomp_write(d, f, 0, PARIO_TYPE_DOUBLE, values) == PARIO_OK);
      snprintf(json, sizeof json, "%s/s%d_%d.json", argv[1], k++, rank);
      CHECK(pario_stats_write_json(json) == PARIO_OK);
      memset(back, 0, kN * sizeof(double));
      CHECK(pario_decomp_read(d, f, 0, PARIO_TYPE_DOUBLE, back) == PARIO_OK);
      snprintf(json, sizeof json, "%s/s%d_%d.json", argv[1], k++, rank);
      CHECK(pario_stats_write_json(json) == PARIO_OK);
      CHECK(memcmp(back, values, (size_t)n * sizeof(double)) == 0);
      CHECK(pario_decomp_free(&d) == PARIO_OK);
    }
  }
  free(indices);
  free(values);
  free(back);
  CHECK(pario_shared_file_destroy(&f) == PARIO_OK);
  CHECK(pario_finalize() == PARIO_OK);
  if (rank != 0) return check_failures ? 1 : 0;
  return check_summary("scaling_run");
}
