#!/usr/bin/env bash
# Installs a built pario into a fresh prefix, then builds and runs a small
# consumer project against it twice: with CMake's find_package(pario) and
# with pkg-config. Where pario was built with Global Arrays (pario_dra_ga),
# also a GA program in C and in Fortran whose DRA is pario's, both ways,
# with the build's mpicc/mpifort, run at 2 ranks.
# Usage: tests/install/consumer.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prefix="$build/install-test"
work="$build/consumer-test"
rm -rf "$prefix" "$work"
cmake --install "$build" --prefix "$prefix" > /dev/null
cache() { sed -n "s/^$1:[A-Z]*=//p" "$build/CMakeCache.txt"; }
mpicc=$(cache MPI_C_COMPILER)
mpiexec=$(cache MPIEXEC_EXECUTABLE)
libdir=$(ls -d "$prefix"/lib*/ | head -1)
dra_ga=0
[ -f "$libdir/libpario_dra_ga.a" ] && dra_ga=1

cmake -S "$here/consumer" -B "$work/cmake" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DMPI_C_COMPILER="$mpicc" > "$work.configure.log" 2>&1 || { cat "$work.configure.log"; exit 1; }
cmake --build "$work/cmake" > "$work.build.log" 2>&1 || { cat "$work.build.log"; exit 1; }
"$work/cmake/consumer" "$work/a.dat"
"$work/cmake/consumer_eaf" "$work/b.dat"
passed=2

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$prefix/lib64/pkgconfig:$prefix/lib/x86_64-linux-gnu/pkgconfig"
cc "$here/consumer/main.c" -o "$work/consumer_pc" $(pkg-config --cflags --libs pario) \
   -Wl,-rpath,"$(pkg-config --variable=libdir pario)"
"$work/consumer_pc" "$work/c.dat"
passed=$((passed + 1))

if [ "$dra_ga" = 1 ]; then
  # Open MPI refuses root and 2 ranks on 1 core unless told.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
  run2() { "$mpiexec" -n 2 "$@" | tee "$work/run.log"; grep -q ": ok" "$work/run.log"; }
  run2 "$work/cmake/consumer_dra_ga" "$work/d.da"
  run2 "$work/cmake/consumer_dra_ga_f" "$work/e.da"
  # The documented line: mpicc or mpifort, then pario-dra-ga.pc (pario's
  # libraries before Global Arrays').
  rpath=-Wl,-rpath,"$(pkg-config --variable=libdir pario-dra-ga)"
  "$mpicc" "$here/consumer/dra_ga_main.c" -o "$work/dra_ga_pc" $(pkg-config --cflags --libs pario-dra-ga) "$rpath"
  "${mpicc/mpicc/mpifort}" -fdefault-integer-8 "$here/consumer/dra_ga_main.F" -o "$work/dra_ga_f_pc" \
    $(pkg-config --cflags --libs pario-dra-ga) "$rpath"
  run2 "$work/dra_ga_pc" "$work/f.da"
  run2 "$work/dra_ga_f_pc" "$work/g.da"
  passed=$((passed + 4))
else
  echo "install test: pario_dra_ga not built (no Global Arrays for this MPI): its 4 consumers skipped"
fi
echo "install test: $passed passed, 0 failed"
