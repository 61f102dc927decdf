#!/bin/sh
# h5dump (Debian's hdf5-tools) reads pario's files with no pario, and
# prints values the tests wrote. Skips (77) where h5dump is not installed.
#   h5dump_check.sh modes DIR         after dataset_modes_test: a file of
#                                     each mode, the entry file and a member
#   h5dump_check.sh infos FILE        dataset_capi_test's file: a tensor
#                                     section and infos of every type
#   h5dump_check.sh wavefunction FILE a wave-function file: a vector's
#                                     value, its energy, the basis
set -u
what=$1
dir=$(dirname "$2")
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
if [ "$what" = infos ]; then
  f=$(basename "$2")
  # Rank 1's stress tensor: ranked_word(1, 0, j) = 1000 + j.
  check "$f" "1002, 1003" -d /segments/00000003/stress
  check "$f" "H5T_STD_U64LE" -a /type11      # uint64
  check "$f" "H5T_STD_I8LE" -a /type06       # int8
  check "$f" "H5T_COMPOUND" -a /type12       # complex float: (r, i)
  check "$f" "H5T_STD_U16LE" -a /type09      # uint16
  exit $fail
fi
if [ "$what" = wavefunction ]; then
  f=$(basename "$2")
  # value(k, i) = 1000 k + i / 2 + 1/4; vector 2, element 5.
  check "$f" "2002.75" -d /vectors/00002 -s 5 -c 1
  check "$f" "-29.5" -a /vectors/00002/energy
  check "$f" "basis of 1003 states" -a /basis/description
  exit $fail
fi
dir=$2
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
