#!/usr/bin/env bash
# Configures and builds one flavour of pario with Debian's Open MPI (or
# MPICH), named explicitly: Debian's alternatives decide what plain mpicc
# means, and a machine may have been switched by hand.
#   scripts/build.sh release|asan|tsan|mpich|fuzz  (mpich: Debian's MPICH
#   instead; fuzz: clang's libFuzzer targets of tests/fuzz)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
flavour=${1:-release}
case "$flavour" in
  # The Python package is built and tested with both MPIs, unsanitized (a
  # sanitized extension would need the sanitizer preloaded into Python).
  # Options are named in every flavour that needs them: a value left in an
  # existing build's cache (a benchmark build switched off by hand) would
  # otherwise survive this script.
  release) extra=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPARIO_PYTHON=ON -DPARIO_HDF5=ON -DPARIO_BUILD_BENCH=ON
                  "-DPython_EXECUTABLE=$here/.venv/bin/python") ;;
  asan) extra=(-DCMAKE_BUILD_TYPE=Debug "-DPARIO_SANITIZE=address;undefined" -DPARIO_BUILD_BENCH=OFF -DPARIO_PYTHON=OFF) ;;
  tsan) extra=(-DCMAKE_BUILD_TYPE=Debug -DPARIO_SANITIZE=thread -DPARIO_BUILD_BENCH=OFF -DPARIO_PYTHON=OFF) ;;
  # Benchmarks too: bench/run collective runs its cases on MPICH at 4 ranks.
  mpich) extra=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPARIO_PYTHON=ON -DPARIO_HDF5=ON -DPARIO_BUILD_BENCH=ON
                "-DPython_EXECUTABLE=$here/.venv/bin/python") ;;
  # libFuzzer targets (tests/fuzz) with ASan+UBSan, everything else off.
  fuzz) extra=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14
               -DPARIO_FUZZ=ON "-DPARIO_SANITIZE=address;undefined" -DPARIO_FORTRAN=OFF
               -DPARIO_BUILD_TESTS=OFF -DPARIO_BUILD_BENCH=OFF -DPARIO_PYTHON=OFF) ;;
  *) echo "build.sh: unknown flavour '$flavour' (release, asan, tsan, mpich, fuzz)" >&2; exit 2 ;;
esac
mpi=openmpi
[ "$flavour" = mpich ] && mpi=mpich
# ccache, when installed, makes rebuilds in several checkouts cheap
# (set its base_dir to their common parent to share hits between them).
launcher=()
command -v ccache > /dev/null &&
  launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
build="$here/build/$flavour"
mkdir -p "$here/build"
cmake -S "$here" -B "$build" -G Ninja \
  -DMPI_C_COMPILER=mpicc.$mpi -DMPI_CXX_COMPILER=mpicxx.$mpi \
  -DMPIEXEC_EXECUTABLE="$(command -v mpiexec.$mpi)" \
  -DCMAKE_INSTALL_PREFIX="$build/install" "${launcher[@]}" "${extra[@]}" > "$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)"
