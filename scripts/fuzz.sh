#!/usr/bin/env bash
# Runs every libFuzzer target of tests/fuzz for SECONDS each (default 10),
# starting from its seed corpus in tests/fuzz/corpus/<target>/; new inputs
# go to build/fuzz/corpus/<target>/, crashes to build/fuzz/crashes/.
# Exits non-zero on the first crash, leak, timeout or sanitizer report.
#   scripts/build.sh fuzz && scripts/fuzz.sh [SECONDS]
# A longer run of one target (hours, on a machine to spare):
#   build/fuzz/tests/fuzz/zarr_meta_fuzz -max_total_time=3600 build/fuzz/corpus/zarr_meta_fuzz tests/fuzz/corpus/zarr_meta_fuzz
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
seconds=${1:-10}
bin="$here/build/fuzz/tests/fuzz"
[ -d "$bin" ] || { echo "fuzz.sh: build first: scripts/build.sh fuzz" >&2; exit 2; }
# MPI singleton as root (the C API target), no leak reports of MPI's own.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export PARIO_SCRATCH=${TMPDIR:-/tmp}
for target in zarr_meta_fuzz shard_index_fuzz netcdf_header_fuzz capi_args_fuzz; do
  corpus="$here/build/fuzz/corpus/$target" crashes="$here/build/fuzz/crashes/$target/"
  mkdir -p "$corpus" "$crashes"
  echo "fuzz: $target for ${seconds} s"
  log="$here/build/fuzz/$target.log"
  rc=0
  "$bin/$target" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$crashes" "$corpus" "$here/tests/fuzz/corpus/$target" > "$log" 2>&1 || rc=$?
  grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units)" "$log" || true
  if [ "$rc" -ne 0 ]; then
    tail -40 "$log" >&2
    echo "fuzz: $target failed (exit $rc; the input is in $crashes, the log in $log)" >&2
    exit 1
  fi
done
