#!/bin/sh
# After dataset_modes_test: h5dump (Debian's hdf5-tools) reads a file of
# each mode, the entry file and a member, and prints a value the test
# wrote. Skips (77) where h5dump is not installed.
#   h5dump_check.sh DIR
set -u
dir=$1
command -v h5dump > /dev/null || { echo "h5dump_check: no h5dump (Debian's hdf5-tools): skipped"; exit 77; }
fail=0
check() {  # FILE OBJECT-ARGS... -- TEXT: h5dump succeeds and prints TEXT
  file=$1; shift
  text=$1; shift
  out=$(h5dump "$@" "$dir/$file" 2>&1) || { echo "h5dump $* $file failed: $out"; fail=1; return; }
  case $out in
    *"$text"*) echo "h5dump $* $file: found $text" ;;
    *) echo "h5dump $* $file: no '$text' in: $out"; fail=1 ;;
  esac
}
# One file: segment 2 (time index 1) temp item 0 is 2000.
check one.h5 "2000" -d /segments/00000002/temp
check one.h5 "pario dataset" -a /pario_format
# A file per step: the entry names its members; member 2 holds segment 3.
check per_step.h5 "per_step.%06d.h5" -a /pario_member_pattern
check per_step.000002.h5 "3000" -d /segments/00000003/temp
check per_step.000002.h5 "pario dataset member" -a /pario_format
# Two steps per file: member 1 holds time indices 2 and 3 (segments 3, 4).
check two_per_file.h5 "steps_per_file" -a /pario_file_mode
check two_per_file.000001.h5 "4000" -d /segments/00000004/temp
exit $fail
