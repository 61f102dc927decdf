#!/bin/sh
# The heat example's smoke test (CTest heat_npP):
#   run_heat.sh HEAT DIR P M MPIEXEC [MPI flags...]
# 1. 2K steps on P ranks, written by pario and, in the same run, gathered
#    to rank 0 and written by libexodusii: both files read back by
#    libexodusii must hold the same values bit for bit, and the last step
#    must match the exact solution.
# 2. K steps on P ranks, then K more restarted from that file on M ranks:
#    the last step must equal step 1's within round-off (the sums over
#    shared nodes run in another order on another partition).
set -e
heat=$1 dir=$2 p=$3 m=$4 mpiexec=$5
shift 5
n=6 k=11
mkdir -p "$dir"
rm -f "$dir"/*.e
"$mpiexec" -n "$p" "$@" "$heat" run --n $n --steps $((2 * k)) --every $k --out "$dir/full.e" --baseline "$dir/full_root.e"
"$heat" compare "$dir/full.e" "$dir/full_root.e" 0 --all
"$heat" check "$dir/full.e" 0.02 0.2
"$mpiexec" -n "$p" "$@" "$heat" run --n $n --steps $k --every $k --out "$dir/first.e"
"$mpiexec" -n "$m" "$@" "$heat" run --restart "$dir/first.e" --steps $k --every $k --out "$dir/second.e"
"$heat" compare "$dir/full.e" "$dir/second.e" 1e-12
