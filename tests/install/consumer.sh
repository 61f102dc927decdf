#!/usr/bin/env bash
# Installs a built pario into a fresh prefix, then builds and runs a small
# consumer project against it twice: with CMake's find_package(pario) and
# with pkg-config. Where pario was built with Global Arrays (pario_dra_ga),
# also a GA program in C and in Fortran whose DRA and EAF are pario's, and
# a Fortran EAF program on pario_compat with GA's libraries after it: each
# built with CMake, with pkg-config and with the README's line by hand
# (the build's mpicc/mpifort; a C EAF program by the README's line too),
# its linker map checked for GA's ChemIO objects, and run (the GA programs
# at 2 ranks).
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
  # Every program below has Global Arrays' libraries on its link line:
  # its linker map must show none of GA's ChemIO objects, or the program
  # would silently run GA's EAF, SF or DRA instead of pario's.
  pario_names() { cmake -DMAP="$1" -DEXPECT=pario -P "$here/../compat/ga_link_check.cmake"; }
  mpifort=${mpicc/mpicc/mpifort}
  for t in consumer_dra_ga consumer_dra_ga_f consumer_eaf_f; do pario_names "$work/cmake/$t.map"; done
  run2 "$work/cmake/consumer_dra_ga" "$work/d.da"
  run2 "$work/cmake/consumer_dra_ga_f" "$work/e.da"
  "$work/cmake/consumer_eaf_f" "$work/e.dat" | grep ": ok" > /dev/null
  passed=$((passed + 3))
  # pkg-config with mpicc or mpifort: pario-dra-ga.pc (pario's libraries
  # before Global Arrays'), and pario-compat.pc with GA's libraries after.
  libdir=$(pkg-config --variable=libdir pario-dra-ga)
  rpath=-Wl,-rpath,"$libdir"
  ga_libs="-lga-openmpi -larmci-openmpi -lscalapack-openmpi -llapack -lblas -lgfortran -lm"
  "$mpicc" "$here/consumer/dra_ga_main.c" -o "$work/dra_ga_pc" $(pkg-config --cflags --libs pario-dra-ga) "$rpath" \
    -Wl,-Map="$work/dra_ga_pc.map"
  "$mpifort" -fdefault-integer-8 "$here/consumer/dra_ga_main.F" -o "$work/dra_ga_f_pc" \
    $(pkg-config --cflags --libs pario-dra-ga) "$rpath" -Wl,-Map="$work/dra_ga_f_pc.map"
  "$mpifort" -fdefault-integer-8 "$here/consumer/eaf_main.F" -o "$work/eaf_f_pc" \
    $(pkg-config --cflags --libs pario-compat) $ga_libs "$rpath" -Wl,-Map="$work/eaf_f_pc.map"
  for t in dra_ga_pc dra_ga_f_pc eaf_f_pc; do pario_names "$work/$t.map"; done
  run2 "$work/dra_ga_pc" "$work/f.da"
  run2 "$work/dra_ga_f_pc" "$work/g.da"
  "$work/eaf_f_pc" "$work/g.dat" | grep ": ok" > /dev/null
  passed=$((passed + 3))
  # The README's lines, as written there (<prefix> the install prefix).
  inc=$(pkg-config --variable=includedir pario)
  "$mpicc" "$here/consumer/dra_ga_main.c" -o "$work/dra_ga_readme" -I"$inc/pario/compat" -I"$inc" \
    -L"$libdir" "$rpath" -lpario_dra_ga -lpario -lstdc++ $ga_libs -Wl,-Map="$work/dra_ga_readme.map"
  "$mpifort" -fdefault-integer-8 "$here/consumer/dra_ga_main.F" -o "$work/dra_ga_f_readme" -I"$inc/pario/compat" \
    -I"$inc" -L"$libdir" "$rpath" -lpario_dra_ga -lpario -lstdc++ $ga_libs -Wl,-Map="$work/dra_ga_f_readme.map"
  "$mpifort" -fdefault-integer-8 "$here/consumer/eaf_main.F" -o "$work/eaf_f_readme" -I"$inc/pario/compat" \
    -L"$libdir" "$rpath" -lpario_compat -lpario $ga_libs -Wl,-Map="$work/eaf_f_readme.map"
  "$mpicc" "$here/consumer/eaf_main.c" -o "$work/eaf_readme" -I"$inc/pario/compat" -I"$inc" \
    -L"$libdir" "$rpath" -lpario_compat -lpario $ga_libs -Wl,-Map="$work/eaf_readme.map"
  for t in dra_ga_readme dra_ga_f_readme eaf_f_readme eaf_readme; do pario_names "$work/$t.map"; done
  run2 "$work/dra_ga_readme" "$work/h.da"
  run2 "$work/dra_ga_f_readme" "$work/i.da"
  "$work/eaf_f_readme" "$work/i.dat" | grep ": ok" > /dev/null
  "$work/eaf_readme" "$work/j.dat" | grep ": ok" > /dev/null
  passed=$((passed + 4))
else
  echo "install test: pario_dra_ga not built (no Global Arrays for this MPI): its 10 consumers skipped"
fi
echo "install test: $passed passed, 0 failed"
