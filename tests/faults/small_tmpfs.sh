#!/bin/sh
# Runs a command with a small, empty tmpfs mounted at DIR, in a private
# mount namespace (unshare -rm: no root needed, nothing to unmount, the
# rest of the machine never sees it). Exits 77 (CTest's skip) where the
# machine refuses user namespaces or the mount.
#   small_tmpfs.sh SIZE DIR COMMAND [ARG ...]     e.g. small_tmpfs.sh 3m /tmp/full mpiexec ...
set -eu
size=$1 dir=$2
shift 2
mkdir -p "$dir"
if ! unshare -rm sh -c "mount -t tmpfs -o size=$size tmpfs '$dir'" 2>/dev/null; then
  echo "small_tmpfs.sh: cannot mount a tmpfs in a user namespace here: skipped" >&2
  exit 77
fi
exec unshare -rm sh -c 'mount -t tmpfs -o "size=$0" tmpfs "$1" && shift && exec "$@"' "$size" "$dir" "$@"
