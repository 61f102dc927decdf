#!/usr/bin/env bash
# Configures and builds one flavour of pario with Debian's Open MPI, named
# explicitly (Debian's alternatives may point plain mpicc at MPICH).
#   scripts/build.sh release|asan|tsan
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
flavour=${1:-release}
case "$flavour" in
  release) extra=(-DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  asan) extra=(-DCMAKE_BUILD_TYPE=Debug "-DPARIO_SANITIZE=address;undefined" -DPARIO_BUILD_BENCH=OFF) ;;
  tsan) extra=(-DCMAKE_BUILD_TYPE=Debug -DPARIO_SANITIZE=thread -DPARIO_BUILD_BENCH=OFF) ;;
  *) echo "build.sh: unknown flavour '$flavour' (release, asan, tsan)" >&2; exit 2 ;;
esac
build="$here/build/$flavour"
mkdir -p "$here/build"
cmake -S "$here" -B "$build" -G Ninja \
  -DMPI_C_COMPILER=mpicc.openmpi -DMPI_CXX_COMPILER=mpicxx.openmpi \
  -DMPIEXEC_EXECUTABLE="$(command -v mpiexec.openmpi)" \
  -DCMAKE_INSTALL_PREFIX="$build/install" "${extra[@]}" > "$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)"
