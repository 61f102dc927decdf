/* MPI_COMM_WORLD's Fortran handle (MPI_Comm_c2f), for Fortran tests that
 * need a communicator without Fortran's mpi module, whose build would
 * have to match the MPI the C side uses (Open MPI or MPICH). */
#include <mpi.h>
#include <stdint.h>

int64_t test_world_fortran_comm(void) { return (int64_t)MPI_Comm_c2f(MPI_COMM_WORLD); }
