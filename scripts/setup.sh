#!/usr/bin/env bash
# Installs what a fresh Debian machine lacks to build, test and benchmark
# pario, and nothing that is already there. Safe to run again.
#   scripts/setup.sh          build + test dependencies, Python venv
# Environment: PARIO_SKIP_APT=1 skips the Debian packages (a cluster with
# its own MPI and HDF5: see the README's "plain CMake" section).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

packages=(
  build-essential cmake ninja-build pkg-config file
  openmpi-bin libopenmpi-dev libhdf5-openmpi-dev libhdf5-mpich-dev
  liburing-dev libzstd-dev gfortran googletest libgtest-dev nlohmann-json3-dev
  python3-venv python3-dev
  # MPICH must build and pass too (scripts/build.sh mpich); named explicitly,
  # so Debian's mpicc/mpiexec alternatives may point anywhere
  mpich libmpich-dev
  # netCDF-C's ncdump and ncgen: the independent reader and writer of the
  # netCDF classic files the exodus layer makes (tests/exodus)
  netcdf-bin
  # HDF5's h5dump: the independent reader of pario's datasets in every
  # file mode (tests/dataset/h5dump_check.sh; skipped without it)
  hdf5-tools
  # Debian's serial libexodusii (6.02): the independent reader of pario's
  # Exodus II files (tests/exodus/exodus_check.c)
  libexodusii-dev
  # METIS: the partitioner of the heat example only (examples/heat), never the library
  libmetis-dev
  # the libFuzzer targets of tests/fuzz (scripts/build.sh fuzz)
  clang-14 libclang-rt-14-dev
  # peers for the benchmarks only
  libglobalarrays-dev libarmci-mpi-dev libscalapack-openmpi-dev libblas-dev liblapack-dev fio
  # bench/run exodus peers (iii) and (iv): PnetCDF and parallel netCDF-4
  # (Open MPI builds only; skipped with the reason elsewhere)
  libpnetcdf-dev pnetcdf-bin libnetcdf-mpi-dev
)

if [ "${PARIO_SKIP_APT:-0}" != 1 ]; then
  missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
fi

# Python for the benchmark driver, its plots and (later) the bindings.
venv="$here/.venv"
if [ ! -x "$venv/bin/python" ]; then
  echo "setup: creating $venv"
  python3 -m venv "$venv"
fi
# numpy, matplotlib: benchmarks' plots; nanobind, scikit-build-core: the
# Python package; pytest, mpi4py (binary wheel: building it from source here
# took over 30 minutes): its tests; pyscf (integrals): the Hartree-Fock
# example, the main job; zarr: disk arrays' format, both ways, in the tests;
# netCDF4 (binary wheel, netCDF-C inside): Exodus files' netCDF container,
# both ways, in the tests; meshio: a reader of Exodus files that knows
# nothing of pario, in the tests.
if ! "$venv/bin/python" -c "import numpy, matplotlib, nanobind, scikit_build_core, pytest, mpi4py, pyscf, zarr, netCDF4, meshio" 2>/dev/null; then
  "$venv/bin/pip" install -q --disable-pip-version-check --only-binary mpi4py,pyscf,netCDF4 \
    numpy matplotlib nanobind scikit-build-core pytest mpi4py pyscf zarr netCDF4 meshio
fi
