/* bench/run exodus, peers (iii) and (iv) of issue 27: rank 0 makes the
 * file and writes its header (and the two small sets) with Debian's serial
 * libexodusii, then every rank writes its slices of the large arrays with
 * collective calls: PnetCDF (peer_pnetcdf.c, a CDF-2 file) or parallel
 * netCDF-4 (peer_ncpar.c: the file made with nc_create_par from the
 * header rank 0 wrote into a template). Rank r owns
 * nodes [N*r/P, N*(r+1)/P) and elements [E*r/P, E*(r+1)/P), the peers'
 * decomposition of ../shared/exodus_workload.md. Each writer is in its own
 * file: pnetcdf.h and netcdf.h define the same names. */
#ifndef PARIO_BENCH_EXODUS_PEERS_H
#define PARIO_BENCH_EXODUS_PEERS_H

#include <mpi.h>
#include <stdint.h>

#include "workload.h"

typedef struct peer_slices {
  int64_t n0, nn;     /* nodes [n0, n0 + nn) */
  int64_t c0, ne;     /* elements [c0, c0 + ne) */
  int64_t e1;         /* how many of them are in block 1 */
  double *x, *y, *z;  /* coordinates of the nodes */
  double *cen;        /* centroids of the elements, 3 each */
  int *nid, *eid;     /* id maps */
  int *conn;          /* 8 * ne, 1-based node numbers */
  double *buf;        /* max(nn, ne) values of one step */
} peer_slices;

/* The rank's slices, made before the clock starts (NULL members on
 * failure are the caller's to catch: it checks every pointer). */
peer_slices peer_make(const exo_workload *w, int rank, int size);
void peer_free(peer_slices *s);

/* Collective over MPI_COMM_WORLD: every rank's slices into the file at
 * path, whose header rank 0 wrote; all steps; closes. 0, or 1 after a
 * message on stderr. Built only where the library is found (bench/
 * CMakeLists.txt); the stubs say why not. */
int peer_pnetcdf_write(const exo_workload *w, const peer_slices *s, const char *path);
/* ncpar: the file is made with nc_create_par on every rank from the
 * definition and small variables of template, the serial netCDF file
 * where rank 0 wrote libexodusii's header (its small variables copied by
 * rank 0). */
int peer_ncpar_write(const exo_workload *w, const peer_slices *s, const char *path, const char *template);
extern const char *const peer_pnetcdf_missing; /* NULL where built */
extern const char *const peer_ncpar_missing;

#endif
