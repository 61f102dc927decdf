/* libmpi.so.12 for mpi4py under Debian's MPICH: an empty library whose
 * only content is its name (SONAME libmpi.so.12) and its dependency on
 * MPICH's library, which Debian names libmpich.so.12. mpi4py's binary
 * wheel is linked against MPICH's upstream name; once pario has loaded
 * this library, the dynamic linker finds that name already loaded and
 * resolves mpi4py's MPI symbols through it to the one MPICH in the process,
 * with no LD_LIBRARY_PATH or system link needed. */
int pario_mpi_name_link;
