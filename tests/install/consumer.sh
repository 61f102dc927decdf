#!/usr/bin/env bash
# Installs a built pario into a fresh prefix, then builds and runs a small
# consumer project against it twice: with CMake's find_package(pario) and
# with pkg-config. Usage: tests/install/consumer.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
prefix="$build/install-test"
work="$build/consumer-test"
rm -rf "$prefix" "$work"
cmake --install "$build" --prefix "$prefix" > /dev/null

cmake -S "$here/consumer" -B "$work/cmake" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" > /dev/null
cmake --build "$work/cmake" > /dev/null
"$work/cmake/consumer" "$work/a.dat"
"$work/cmake/consumer_eaf" "$work/b.dat"

export PKG_CONFIG_PATH="$prefix/lib/pkgconfig:$prefix/lib64/pkgconfig:$prefix/lib/x86_64-linux-gnu/pkgconfig"
cc "$here/consumer/main.c" -o "$work/consumer_pc" $(pkg-config --cflags --libs pario) \
   -Wl,-rpath,"$(pkg-config --variable=libdir pario)"
"$work/consumer_pc" "$work/c.dat"
echo "install test: 3 passed, 0 failed"
