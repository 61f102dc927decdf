# Every test its own scratch directory, made fresh before it runs.
#
# Tests name their scratch directories in ENVIRONMENT (PARIO_SCRATCH=d, or
# d1:d2:... when striping), and most named their directory's binary dir:
# one directory shared by every test there, so a test killed by its
# timeout under load left e.g. disk1d.zarr behind and the next test to
# make it failed with "File exists". Here each entry d of a test T's
# PARIO_SCRATCH becomes d/scratch/T, and a setup test "T.scratch" (fixture
# "scratch:T", which T requires; ctest -R T adds it) removes and makes
# those directories just before T runs. Tests that share files through
# fixtures (exodus_workload_* and their readers) pass those files' paths
# explicitly, outside the scratch directories.
#
# How it reaches every test: add_test is wrapped (included from
# tests/CMakeLists.txt before its add_subdirectory calls, so it covers the
# tests in tests/ and in the examples it adds), and each new test's
# rewrite is deferred to the end of its directory, when set_tests_properties
# has given it its environment. Before CMake 3.28 a test's properties can be
# read and set only from its own directory, hence the deferral.
#
# Included once: a second add_test override would make _add_test the first
# override, which then calls itself.
include_guard(GLOBAL)

function(add_test)
  # Forwarded argument by argument: an argument holding ';' (a launcher
  # with its flags, tests/faults) must stay one argument.
  set(args "")
  math(EXPR last "${ARGC} - 1")
  foreach(i RANGE 0 ${last})
    string(APPEND args " [==[${ARGV${i}}]==]")
  endforeach()
  cmake_language(EVAL CODE "_add_test(${args})")
  if(ARGV0 STREQUAL "NAME")
    # A deferred call's arguments are expanded when it runs: the name goes
    # in as a literal.
    cmake_language(EVAL CODE "cmake_language(DEFER CALL _pario_scratch_for_test [==[${ARGV1}]==])")
  endif()
endfunction()

function(_pario_scratch_for_test t)
  get_test_property(${t} ENVIRONMENT env)
  if(NOT env OR NOT env MATCHES "(^|;)PARIO_SCRATCH=")
    return()
  endif()
  set(new_env "")
  set(fresh "")
  foreach(kv IN LISTS env)
    if(kv MATCHES "^PARIO_SCRATCH=(.*)$")
      string(REPLACE ":" ";" entries "${CMAKE_MATCH_1}")
      set(per_test "")
      foreach(d IN LISTS entries)
        list(APPEND per_test "${d}/scratch/${t}")
      endforeach()
      list(APPEND fresh ${per_test})
      string(REPLACE ";" ":" kv "${per_test}")
      set(kv "PARIO_SCRATCH=${kv}")
    endif()
    list(APPEND new_env "${kv}")
  endforeach()
  list(REMOVE_DUPLICATES fresh)
  string(REPLACE ";" "|" fresh "${fresh}")
  _add_test(NAME ${t}.scratch COMMAND ${CMAKE_COMMAND} "-DDIRS=${fresh}"
                                      -P ${PROJECT_SOURCE_DIR}/tests/fresh_dirs.cmake)
  set_tests_properties(${t}.scratch PROPERTIES LABELS "scratch" FIXTURES_SETUP scratch:${t})
  set_property(TEST ${t} PROPERTY ENVIRONMENT "${new_env}")
  set_property(TEST ${t} APPEND PROPERTY FIXTURES_REQUIRED scratch:${t})
endfunction()
