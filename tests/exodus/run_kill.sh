#!/bin/sh
# The killed writer (issue 27, crash safety): writes the workload with T
# steps, rank 0 killing itself with SIGKILL in step KILL (after its nodal
# values); then the independent libexodusii reader must find exactly
# STEPS steps counted, every value of them right:
#   run_kill.sh MPIEXEC NP WRITER CHECKER|none OUT NX NY NZ T KILL STEPS SYNC [MPI flags...]
# SYNC is PARIO_EXODUS_SYNC: with "step" or "none" a kill in step K leaves
# K-1 steps; with "overlap" K-2 (step K-1's count waits for its sync,
# which is collected when step K ends); "default" leaves it unset (the
# default policy, "step": K-1, as issue 27 promises).
mpiexec=$1 np=$2 writer=$3 checker=$4 out=$5 nx=$6 ny=$7 nz=$8 t=$9
shift 9
kill=$1 steps=$2 sync=$3
shift 3
rm -f "$out"
if [ "$sync" = default ]; then
  unset PARIO_EXODUS_SYNC
else
  PARIO_EXODUS_SYNC=$sync
  export PARIO_EXODUS_SYNC
fi
if "$mpiexec" -n "$np" "$@" "$writer" "$nx" "$ny" "$nz" "$t" HEX "$out" contiguous \
     "kill-at=$kill" > "$out.log" 2>&1; then
  echo "run_kill: the writer was not killed"; cat "$out.log"; exit 1
fi
[ -s "$out" ] || { echo "run_kill: no file"; cat "$out.log"; exit 1; }
if [ "$checker" = none ]; then
  echo "run_kill: libexodusii not found when configured: the check is skipped"
  exit 77
fi
exec "$checker" "$out" "$nx" "$ny" "$nz" "$t" HEX "$steps"
