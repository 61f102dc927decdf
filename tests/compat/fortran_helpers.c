/* Rank, barrier and finalize for the Fortran compat tests, until pario's
 * Fortran module exists: each takes Fortran INTEGERs of the compat size. */
#include <stdint.h>
#include <string.h>
#include <sys/statvfs.h>

#include "pario/pario.h"

#if PARIO_F77_INTEGER_SIZE == 4
typedef int32_t f77_int;
#else
typedef int64_t f77_int;
#endif

void pario_f_rank_(f77_int *me, f77_int *np) {
  pario_group_t world;
  int r = 0, n = 1;
  pario_init();
  pario_group_world(&world);
  pario_group_rank(world, &r);
  pario_group_size(world, &n);
  pario_group_free(&world);
  *me = r;
  *np = n;
}

void pario_f_barrier_(void) {
  pario_group_t world;
  pario_group_world(&world);
  pario_group_barrier(world);
  pario_group_free(&world);
}

void pario_f_finalize_(void) { pario_finalize(); }

/* A scratch path shared by all ranks (PARIO_SCRATCH/dra_fortran.da),
 * blank-padded as Fortran expects. */
void scratch_dir_(char *out, size_t len) {
  char path[4096];
  pario_init();
  pario_scratch_path("dra_fortran.da", path, sizeof path);
  *strrchr(path, '.') = '\0'; /* drop the rank */
  size_t n = strlen(path);
  if (n > len) n = len;
  memcpy(out, path, n);
  memset(out + n, ' ', len - n);
}

/* The free space of the file system holding path, in megabytes, for the
 * tests to compare with eaf_stat's. */
void free_megabytes_(const char *path, f77_int *mb, size_t len) {
  char p[4096];
  if (len >= sizeof p) len = sizeof p - 1;
  memcpy(p, path, len);
  p[len] = '\0';
  struct statvfs vfs;
  *mb = statvfs(p, &vfs) == 0 ? (f77_int)(((unsigned long long)vfs.f_bavail * vfs.f_frsize) >> 20) : -1;
}
