# Debian's Global Arrays (libglobalarrays-dev: static, ARMCI-MPI, ScaLAPACK
# and BLAS behind it) as the target `ga_peer`, when it is installed for
# the MPI pario is built with. Used by the benchmarks (GA as the peer) and
# by pario_dra_ga (the classic DRA API over GA's own handles).
# Only Open MPI's: Debian's GA over MPICH returns wrong data from
# NGA_Access unless ARMCI_USE_WIN_ALLOCATE=0.
if(NOT CMAKE_Fortran_COMPILER OR NOT MPI_C_LIBRARIES MATCHES "openmpi")
  message(STATUS "Global Arrays peer: needs Open MPI and a Fortran compiler; not used")
  return()
endif()
find_library(GA_LIB ga-openmpi)
find_library(ARMCI_LIB armci-openmpi)
find_library(SCALAPACK_LIB scalapack-openmpi)
find_library(LAPACK_LIB lapack)
find_library(BLAS_LIB blas)
find_path(GA_INCLUDE ga.h PATHS /usr/include NO_DEFAULT_PATH)
if(GA_LIB AND ARMCI_LIB AND SCALAPACK_LIB AND LAPACK_LIB AND BLAS_LIB AND GA_INCLUDE)
  add_library(ga_peer INTERFACE)
  target_include_directories(ga_peer SYSTEM INTERFACE ${GA_INCLUDE})
  # GA's libraries in link order, without MPI: also what the installed
  # pario::dra_ga and pario-dra-ga.pc put after pario's (the consumer's
  # mpicc, mpifort or MPI::MPI_C brings the MPI GA was built with).
  set(PARIO_GA_LIBRARIES ${GA_LIB} ${ARMCI_LIB} ${SCALAPACK_LIB} ${LAPACK_LIB} ${BLAS_LIB} gfortran m)
  target_link_libraries(ga_peer INTERFACE ${PARIO_GA_LIBRARIES} MPI::MPI_C)
  message(STATUS "Global Arrays found: ${GA_LIB}")
else()
  message(STATUS "Global Arrays not found (Debian: libglobalarrays-dev libarmci-mpi-dev libscalapack-openmpi-dev)")
endif()
