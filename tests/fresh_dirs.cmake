# cmake -DDIRS="a|b|..." -P fresh_dirs.cmake: each directory removed with
# what it holds and made again, empty (a test's scratch, before it runs).
string(REPLACE "|" ";" _dirs "${DIRS}")
foreach(d IN LISTS _dirs)
  file(REMOVE_RECURSE "${d}")
  file(MAKE_DIRECTORY "${d}")
endforeach()
