#!/usr/bin/env bash
# The README's test command: installs what is missing, builds everything and
# runs every test: the release build, the same tests under AddressSanitizer
# + UndefinedBehaviorSanitizer, the asynchronous paths under
# ThreadSanitizer, every test again with Debian's MPICH, a short run of each
# fuzz target, and a consumer project built against the installed pario
# (find_package and pkg-config).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$here"
scripts/setup.sh

jobs=$(nproc)
run_ctest() {  # dir, extra ctest args...
  local dir=$1; shift
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure --timeout 300 "$@"
}

echo "== release build"
scripts/build.sh release
run_ctest build/release

echo "== AddressSanitizer + UndefinedBehaviorSanitizer"
scripts/build.sh asan
run_ctest build/asan

echo "== ThreadSanitizer (asynchronous paths)"
scripts/build.sh tsan
TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" run_ctest build/tsan -L async

echo "== MPICH (all tests, multi-rank ones with 1, 2 and 4 ranks)"
scripts/build.sh mpich
run_ctest build/mpich

echo "== fuzzing: each libFuzzer target of tests/fuzz for 10 s"
scripts/build.sh fuzz
scripts/fuzz.sh 10

echo "== installed package: find_package(pario) and pkg-config"
tests/install/consumer.sh build/release
