/* A Global Arrays program that keeps GA for its arrays in memory and takes
 * its DRA from pario (pario_dra_ga, linked before GA), at 1, 2 and 4 ranks:
 * whole and section transfers with GA's handles, transposed, with probe and
 * wait; the store is a pario disk array whatever wrote it. The program's
 * EAF and SF come from the same library (ga_link_order_dra_ga_test reads
 * the linker map: none of GA's ChemIO objects may be linked). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include <ga.h>
#include <macdecls.h>

#include "dra.h" /* pario's: include/pario/compat comes first */
#include "eaf.h"
#include "sf.h"
#include "dra_check.h"
#include "pario/pario.h"


static double value(int i, int j) { return i * 1000.0 + j; }

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  GA_Initialize();
  MA_init(C_DBL, 1 << 16, 1 << 16);
  const int me = GA_Nodeid();
  int dims[2] = {41, 29};
  const int a = NGA_Create(C_DBL, 2, dims, "a", NULL);
  const int b = NGA_Create(C_DBL, 2, dims, "b", NULL);
  int tdims[2] = {29, 41};
  const int t = NGA_Create(C_DBL, 2, tdims, "t", NULL);
  static double all[41 * 29], got[41 * 29];
  for (int i = 0; i < 41; ++i)
    for (int j = 0; j < 29; ++j) all[i * 29 + j] = value(i, j);
  int lo[2] = {0, 0}, hi[2] = {40, 28}, ld[1] = {29};
  if (me == 0) NGA_Put(a, lo, hi, all, ld);
  GA_Sync();

  CHECK(DRA_Init(8, -1, -1, -1) == 0);
  char path[4096];
  CHECK(pario_scratch_path("dra_ga_test.da", path, sizeof path) == PARIO_OK);
  *strrchr(path, '.') = '\0';

  /* A private file per rank and a shared file, as NWChem uses them next
   * to its disk arrays. */
  char other[4200];
  snprintf(other, sizeof other, "%s.eaf.%d", path, me);
  int fd, id, h;
  double row[29];
  CHECK(EAF_Open(other, EAF_RW, &fd) == 0);
  CHECK(EAF_Awrite(fd, 0.0, all, sizeof row, &id) == 0 && EAF_Wait(fd, id) == 0);
  CHECK(EAF_Read(fd, 0.0, row, sizeof row) == 0 && memcmp(row, all, sizeof row) == 0);
  long mb = -1;
  char fstype[32];
  CHECK(EAF_Stat(other, &mb, fstype, sizeof fstype) == 0 && mb >= 0);
  CHECK(EAF_Close(fd) == 0 && EAF_Delete(other) == 0);
  snprintf(other, sizeof other, "%s.sf", path);
  CHECK(SF_Create(other, -1.0, 1e6, (double)sizeof row, &h) == 0);
  CHECK(SF_Write(h, me * (double)sizeof row, (double)sizeof row, (char *)&all[me * 29], &id) == 0);
  CHECK(SF_Wait(&id) == 0 && SF_Fsync(h) == 0);
  GA_Sync();
  const int next = (me + 1) % GA_Nnodes();
  CHECK(SF_Read(h, next * (double)sizeof row, (double)sizeof row, (char *)row, &id) == 0);
  CHECK(SF_Wait(&id) == 0 && memcmp(row, &all[next * 29], sizeof row) == 0);
  GA_Sync();
  CHECK(SF_Destroy(h) == 0);

  dra_size_t ddims[2] = {41, 29}, req[2] = {8, 29};
  int d, r, status;
  CHECK(NDRA_Create(C_DBL, 2, ddims, "from GA", path, DRA_RW, req, &d) == 0);
  CHECK(NDRA_Write(a, d, &r) == 0);
  do CHECK(DRA_Probe(r, &status) == 0);
  while (status != ELIO_DONE);
  CHECK(DRA_Wait(r) == 0);
  /* a[3..12][4..9] transposed into d[20..25][15..24]. */
  int glo[2] = {3, 4}, ghi[2] = {12, 9};
  dra_size_t dlo[2] = {20, 15}, dhi[2] = {25, 24};
  CHECK(NDRA_Write_section(1, a, glo, ghi, d, dlo, dhi, &r) == 0);
  CHECK(DRA_Wait(r) == 0);
  CHECK(DRA_Close(d) == 0);

  CHECK(DRA_Open(path, DRA_R, &d) == 0);
  CHECK(NDRA_Read(b, d, &r) == 0);
  CHECK(DRA_Wait(r) == 0);
  NGA_Get(b, lo, hi, got, ld);
  int bad = 0;
  for (int i = 0; i < 41; ++i)
    for (int j = 0; j < 29; ++j) {
      const int in = i >= 20 && i <= 25 && j >= 15 && j <= 24;
      bad += got[i * 29 + j] != (in ? value(3 + (j - 15), 4 + (i - 20)) : value(i, j));
    }
  CHECK(bad == 0);
  /* The whole disk array read transposed into t (29 x 41). */
  int tlo[2] = {0, 0}, thi[2] = {28, 40}, tld[1] = {41};
  dra_size_t wlo[2] = {0, 0}, whi[2] = {40, 28};
  CHECK(NDRA_Read_section(1, t, tlo, thi, d, wlo, whi, &r) == 0);
  CHECK(DRA_Wait(r) == 0);
  NGA_Get(t, tlo, thi, got, tld);
  bad = 0;
  for (int j = 0; j < 29; ++j)
    for (int i = 0; i < 41; ++i) {
      const int in = i >= 20 && i <= 25 && j >= 15 && j <= 24;
      bad += got[j * 41 + i] != (in ? value(3 + (j - 15), 4 + (i - 20)) : value(i, j));
    }
  CHECK(bad == 0);
  /* A bad GA handle is an error, not an abort. */
  CHECK(NDRA_Read(-77, d, &r) == PARIO_ERR_INVALID_ARGUMENT);
  CHECK(DRA_Delete(d) == 0);
  CHECK(DRA_Terminate() == 0);
  GA_Destroy(t);
  GA_Destroy(b);
  GA_Destroy(a);
  GA_Terminate();
  if (me == 0) printf("dra_ga_test: %s\n", failures ? "FAIL" : "ok");
  MPI_Finalize();
  return failures ? 1 : 0;
}
