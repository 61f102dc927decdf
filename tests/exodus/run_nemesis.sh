#!/bin/sh
# Writes the workload with Nemesis information on NP ranks, then checks the
# file three ways: the Exodus content with the independent libexodusii
# reader (exodus_check), the Nemesis lists with exodus_nemesis_check
# (libexodusii's Nemesis functions against its own computation), and the
# header with netCDF-C's ncdump where installed; then pario's own Nemesis
# readers against libexodusii's on the same file (NEMESIS_READER,
# exodus_nemesis_read, on one rank):
#   run_nemesis.sh MPIEXEC NP WRITER CHECKER NEMESIS_CHECKER|none OUT NX NY NZ T VARIANT SPLIT NEMESIS_READER|none [MPI flags...]
# Exits 77 (skipped) after a successful write without the checkers
# (no libexodusii-dev where this was configured).
set -e
mpiexec=$1 np=$2 writer=$3 checker=$4 nemesis_checker=$5 out=$6 nx=$7 ny=$8 nz=$9
shift 9
t=$1 variant=$2 split=$3 nemesis_reader=$4
shift 4
rm -f "$out"
"$mpiexec" -n "$np" "$@" "$writer" "$nx" "$ny" "$nz" "$t" "$variant" "$out" "$split" nemesis
if [ "$nemesis_checker" = none ]; then
  echo "run_nemesis: libexodusii not found when configured: the independent checks are skipped"
  exit 77
fi
"$checker" "$out" "$nx" "$ny" "$nz" "$t" "$variant"
"$nemesis_checker" "$out" "$nx" "$ny" "$nz" "$variant" "$split" "$np"
"$mpiexec" -n 1 "$@" "$nemesis_reader" "$out"
if command -v ncdump > /dev/null; then
  ncdump -h "$out" > "$out.cdl"
  grep -q "num_procs_file = $np ;" "$out.cdl"
  echo "run_nemesis: ncdump reads the header"
fi
