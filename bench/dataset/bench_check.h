/* What the dataset benchmarks (bench/dataset/) share: failing loudly.
 * A program defines bench_program, bench_rank and bench_impl; die() prints
 * them with pario's last error message and ends the whole MPI job. */
#ifndef PARIO_BENCH_DATASET_CHECK_H
#define PARIO_BENCH_DATASET_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "pario/pario.h"

extern const char *bench_program, *bench_impl;
extern int bench_rank;

static inline void die(const char *what) {
  char m[512] = "";
  pario_last_error_message(m, sizeof m);
  /* Labelled: pario's message is about pario's last failure, which may
   * be older than a failed MPI, HDF5 or libc call. */
  fprintf(stderr, "%s rank %d (%s): %s failed [pario's last error: %s]\n", bench_program, bench_rank, bench_impl,
          what, m[0] ? m : "none");
  MPI_Abort(MPI_COMM_WORLD, 1);
  exit(1);
}

#define OK(call)                        \
  do {                                  \
    if ((call) != PARIO_OK) die(#call); \
  } while (0)
#define H5OK(call)              \
  do {                          \
    if ((call) < 0) die(#call); \
  } while (0)
#define MPIOK(call)                        \
  do {                                     \
    if ((call) != MPI_SUCCESS) die(#call); \
  } while (0)

#endif
