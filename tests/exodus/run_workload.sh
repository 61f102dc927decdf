#!/bin/sh
# Writes the workload on NP ranks, then checks the file with the
# independent libexodusii reader (exodus_check), if it was built:
#   run_workload.sh MPIEXEC NP WRITER CHECKER|none OUT NX NY NZ T VARIANT SPLIT [MPI flags...]
# Exits 77 (skipped) after a successful write when CHECKER is "none" (no
# Debian libexodusii-dev where this was configured; scripts/setup.sh
# installs it).
set -e
mpiexec=$1 np=$2 writer=$3 checker=$4 out=$5 nx=$6 ny=$7 nz=$8 t=$9
shift 9
variant=$1 split=$2
shift 2
rm -f "$out"
"$mpiexec" -n "$np" "$@" "$writer" "$nx" "$ny" "$nz" "$t" "$variant" "$out" "$split"
if [ "$checker" = none ]; then
  echo "run_workload: libexodusii not found when configured: the independent check is skipped"
  exit 77
fi
"$checker" "$out" "$nx" "$ny" "$nz" "$t" "$variant"
