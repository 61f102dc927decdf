/* The newcomer's scenario in C: write and read back a private file, fill a
 * global array, store it as a disk array, read it back into another global
 * array and compare. Run: mpiexec -n 2 ./scenario_c [scratch directory] */
#include <stdio.h>
#include <string.h>

#include <pario/pario.h>

#define TRY(call)                                                        \
  do {                                                                   \
    if ((call) != PARIO_OK) {                                            \
      char m[512];                                                       \
      pario_last_error_message(m, sizeof m);                             \
      fprintf(stderr, "scenario (C): %s failed: %s\n", #call, m);       \
      return 1;                                                          \
    }                                                                    \
  } while (0)

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "/tmp";
  TRY(pario_init());
  int me, np;
  pario_world_rank(&me);
  pario_world_size(&np);

  /* 1. A private file: this rank's own scratch. */
  char path[4096];
  snprintf(path, sizeof path, "%s/scenario_c.%d", dir, me);
  double x[1000], y[1000];
  for (int i = 0; i < 1000; ++i) x[i] = me + i / 8.0;
  pario_file_t f;
  TRY(pario_file_open(path, PARIO_MODE_RDWR | PARIO_MODE_CREATE | PARIO_MODE_TRUNCATE, &f));
  TRY(pario_file_write(f, 0, x, sizeof x));
  TRY(pario_file_read(f, 0, y, sizeof y));
  TRY(pario_file_close(&f));
  TRY(pario_file_delete(path));
  int ok = memcmp(x, y, sizeof x) == 0;

  /* 2. A global array, each rank filling its own patch. */
  enum { N = 60, M = 40 };
  const int64_t dims[2] = {N, M}, zero[2] = {0, 0};
  pario_group_t world;
  pario_array_t a, b;
  TRY(pario_group_world(&world));
  TRY(pario_array_create(world, "scenario", PARIO_TYPE_DOUBLE, 2, dims, &a));
  int64_t start[2], count[2];
  TRY(pario_array_distribution(a, me, start, count));
  static double patch[N * M];
  for (int64_t i = 0; i < count[0]; ++i)
    for (int64_t j = 0; j < count[1]; ++j) patch[i * count[1] + j] = (start[0] + i) * 1000.0 + start[1] + j;
  if (count[0] * count[1] > 0) TRY(pario_array_put(a, start, count, patch, NULL));

  /* 3. Store it as a disk array; 4. read it back into another array. */
  char store[4096];
  snprintf(store, sizeof store, "%s/scenario_c.zarr", dir);
  (void)pario_disk_array_delete(world, store); /* a leftover from an earlier run */
  pario_disk_array_t d;
  TRY(pario_disk_array_create(world, store, PARIO_TYPE_DOUBLE, 2, dims, NULL, &d));
  TRY(pario_disk_array_write(d, a, zero, dims, zero));
  TRY(pario_disk_array_close(&d));
  TRY(pario_array_create(world, "back", PARIO_TYPE_DOUBLE, 2, dims, &b));
  TRY(pario_disk_array_open(world, store, PARIO_MODE_READ, &d));
  TRY(pario_disk_array_read(d, b, zero, dims, zero));
  TRY(pario_disk_array_close(&d));
  static double all_a[N * M], all_b[N * M];
  TRY(pario_array_get(a, zero, dims, all_a, NULL));
  TRY(pario_array_get(b, zero, dims, all_b, NULL));
  ok = ok && memcmp(all_a, all_b, sizeof all_a) == 0 && all_b[59 * M + 39] == 59039.0;

  TRY(pario_disk_array_delete(world, store));
  TRY(pario_array_destroy(&a));
  TRY(pario_array_destroy(&b));
  TRY(pario_group_free(&world));
  TRY(pario_finalize());
  if (me == 0) printf("scenario (C): %s\n", ok ? "ok" : "MISMATCH");
  return ok ? 0 : 1;
}
