/* Does remote access progress while the target computes? Rank 1 computes
 * for 2 s without entering MPI; rank 0 gets 50 kB from rank 1's patch for
 * 1 s and prints how many gets completed. Run with PARIO_RANKS_PER_NODE=1
 * so the two ranks are on different (emulated) nodes and pario takes its
 * RMA path. Numbers are in docs/performance.md. */
#include <stdio.h>
#include <time.h>

#include "pario/pario.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(void) {
  enum { kElems = 6400 }; /* 50 kB of doubles per rank */
  static double buf[kElems];
  pario_group_t world;
  pario_array_t a;
  int me = 0, size = 0;
  const int64_t dims[1] = {2 * kElems}, start[1] = {kElems}, count[1] = {kElems};
  if (pario_init() != PARIO_OK || pario_group_world(&world) != PARIO_OK) return 1;
  pario_group_rank(world, &me);
  pario_group_size(world, &size);
  if (size != 2) {
    if (me == 0) fprintf(stderr, "busy_target: run with 2 ranks\n");
    return 1;
  }
  if (pario_array_create_columns(world, "busy", PARIO_TYPE_DOUBLE, 1, dims, NULL, &a) != PARIO_OK) return 1;
  pario_group_barrier(world);
  if (me == 1) {
    volatile double x = 0;
    const double t0 = now();
    while (now() - t0 < 2.0) x += 1e-9;
  } else {
    int gets = 0;
    const double t0 = now();
    while (now() - t0 < 1.0) {
      if (pario_array_get(a, start, count, buf, NULL) != PARIO_OK) return 1;
      ++gets;
    }
    printf("{\"case\": \"get 50 kB from a computing rank\", \"gets\": %d, \"GB/s\": %.3f}\n", gets,
           gets * 51200.0 / (now() - t0) / 1e9);
  }
  pario_group_barrier(world);
  pario_array_destroy(&a);
  pario_group_free(&world);
  return pario_finalize() == PARIO_OK ? 0 : 1;
}
