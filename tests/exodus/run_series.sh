#!/bin/sh
# exodus_restart's file series through the independent readers (issue 27):
#   run_series.sh MPIEXEC RESTART CHECKER|none NCDUMP|none DIR N M K [MPI flags...]
# M = 0: exodus_restart DIR on N ranks (series written, appended to as a
#   series, bad input), then every file of its two series read by ncdump -h
#   and the 32-bit ones by libexodusii (exodus_series_check; Debian's
#   libexodusii 6.02 cuts 64-bit ids to 32 bits, so the int64 files get
#   ncdump only).
# M > 0: a series (2 steps per file) whose writer is killed in step K on N
#   ranks, resumed on M ranks (steps 1..K-1 as counted, then K, K+1), every
#   file checked the same way.
# Exits 77 (skipped) after pario's own checks when libexodusii was not
# found at configure time.
mpiexec=$1 restart=$2 checker=$3 ncdump=$4 dir=$5 n=$6 m=$7 k=$8
shift 8
check() { # FILE FIRST STEPS [int64]
  if [ "$ncdump" != none ] && ! "$ncdump" -h "$1" > /dev/null; then
    echo "run_series: ncdump -h $1 failed"
    exit 1
  fi
  if [ "$checker" != none ] && [ -z "$4" ]; then "$checker" "$1" "$2" "$3" || exit 1; fi
}
if [ "$m" = 0 ]; then
  "$mpiexec" -n "$n" "$@" "$restart" "$dir" || exit 1
  s=$dir/s_np$n.e i=$dir/i64_np$n.e
  check "$s" 1 2
  check "$s-s0002" 3 2
  check "$s-s0003" 5 2
  check "$s-s0004" 7 1
  check "$i" 1 2 int64
  check "$i-s0002" 3 2 int64
  check "$i-s0003" 5 1 int64
else
  f=$dir/killed_series_np${n}_np$m.e
  rm -f "$f" "$f"-s*
  "$mpiexec" -n "$n" "$@" "$restart" "$dir" kill-series "$f" "$k" > "$f.log" 2>&1
  [ -s "$f" ] || { echo "run_series: the killed writer left no file"; cat "$f.log"; exit 1; }
  "$mpiexec" -n "$m" "$@" "$restart" "$dir" resume-series "$f" "$k" || exit 1
  total=$((k + 1)) j=1
  while [ $((2 * (j - 1))) -lt $total ]; do
    name=$f
    [ $j -gt 1 ] && name=$(printf '%s-s%04d' "$f" $j)
    left=$((total - 2 * (j - 1)))
    [ $left -gt 2 ] && left=2
    check "$name" $((2 * j - 1)) $left
    j=$((j + 1))
  done
fi
if [ "$checker" = none ]; then
  echo "run_series: libexodusii not found when configured: its check is skipped"
  exit 77
fi
echo "run_series: every file read by libexodusii and ncdump -h"
