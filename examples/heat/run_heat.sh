#!/bin/sh
# The heat example's smoke test (CTest heat_npP):
#   run_heat.sh HEAT DIR P M SPF MPIEXEC [MPI flags...]
# 1. 2K steps on P ranks, written by pario and, in the same run, gathered
#    to rank 0 and written by libexodusii: both files read back by
#    libexodusii must hold the same values bit for bit, and the last step
#    must match the exact solution.
# 2. K steps on P ranks (outputs at steps 0 and K), then K more restarted
#    from that file on M ranks and appended to it (the output at 2K). With
#    SPF = 0 one file: its three steps must equal those of step 1's file,
#    the last within round-off (the sums over shared nodes run in another
#    order on another partition). With SPF = 2 a series of 2 steps per
#    file: the appended step lands in a new file first.e-s0002, whose step
#    must equal step 1's last.
set -e
heat=$1 dir=$2 p=$3 m=$4 spf=$5 mpiexec=$6
shift 6
n=6 k=11
mkdir -p "$dir"
rm -f "$dir"/*.e "$dir"/*.e-s*
"$mpiexec" -n "$p" "$@" "$heat" run --n $n --steps $((2 * k)) --every $k --out "$dir/full.e" --baseline "$dir/full_root.e"
"$heat" compare "$dir/full.e" "$dir/full_root.e" 0 --all
"$heat" check "$dir/full.e" 0.02 0.2
"$mpiexec" -n "$p" "$@" "$heat" run --n $n --steps $k --every $k --steps-per-file "$spf" --out "$dir/first.e"
"$mpiexec" -n "$m" "$@" "$heat" run --restart "$dir/first.e" --steps $k --every $k --steps-per-file "$spf"
if [ "$spf" = 0 ]; then
  "$heat" compare "$dir/full.e" "$dir/first.e" 1e-12 --all
else
  [ ! -e "$dir/first.e-s0003" ] || { echo "run_heat: FAILED: a third file of the series"; exit 1; }
  "$heat" compare "$dir/full.e" "$dir/first.e-s0002" 1e-12
fi
