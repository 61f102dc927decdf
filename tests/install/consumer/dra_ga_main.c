/* A Global Arrays program whose DRA is pario's (pario::dra_ga or
 * pario-dra-ga.pc, linked by mpicc): writes a GA array to a disk array,
 * reads it back into another, and checks that the store is pario's (a
 * directory with zarr.json), not GA's own DRA files; and a private file
 * per rank through EAF, which must be pario's too (consumer.sh reads the
 * linker map). Run at 1 or more ranks with the store's path as the
 * argument. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <ga.h>
#include <macdecls.h>

#include "dra.h" /* pario's: -I<prefix>/include/pario/compat comes first */
#include "eaf.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 1 << 14, 1 << 14);
  const char *path = argc > 1 ? argv[1] : "consumer_dra_ga";
  const int me = GA_Nodeid();
  int dims[2] = {12, 7}, lo[2] = {0, 0}, hi[2] = {11, 6}, ld[1] = {7};
  const int a = NGA_Create(C_DBL, 2, dims, "a", NULL), b = NGA_Create(C_DBL, 2, dims, "b", NULL);
  double all[12 * 7], got[12 * 7];
  for (int i = 0; i < 12 * 7; ++i) all[i] = i * 0.5;
  if (me == 0) NGA_Put(a, lo, hi, all, ld);
  GA_Sync();
  dra_size_t ddims[2] = {12, 7};
  int d, r, bad = 0;
  bad |= DRA_Init(4, -1, -1, -1) != 0;
  bad |= NDRA_Create(C_DBL, 2, ddims, "consumer", (char *)path, DRA_RW, NULL, &d) != 0;
  bad |= NDRA_Write(a, d, &r) != 0 || DRA_Wait(r) != 0;
  struct stat st;
  char meta[4200];
  snprintf(meta, sizeof meta, "%s/zarr.json", path);
  bad |= stat(meta, &st) != 0; /* pario's store, not GA's DRA */
  bad |= NDRA_Read(b, d, &r) != 0 || DRA_Wait(r) != 0;
  NGA_Get(b, lo, hi, got, ld);
  bad |= memcmp(all, got, sizeof all) != 0;
  bad |= DRA_Delete(d) != 0 || DRA_Terminate() != 0;
  char priv[4200];
  snprintf(priv, sizeof priv, "%s.%d.eaf", path, me);
  int fd;
  double x = 42.0, y = 0.0;
  bad |= EAF_Open(priv, EAF_RW, &fd) != 0 || EAF_Write(fd, 0.0, &x, sizeof x) != 0 ||
         EAF_Read(fd, 0.0, &y, sizeof y) != 0 || EAF_Close(fd) != 0 || EAF_Delete(priv) != 0 || y != x;
  GA_Destroy(b);
  GA_Destroy(a);
  GA_Terminate();
  if (me == 0) printf("consumer_dra_ga: %s\n", bad ? "FAIL" : "ok");
  MPI_Finalize();
  return bad;
}
