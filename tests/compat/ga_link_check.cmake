# Which ChemIO a program linked with Global Arrays' libraries got: reads
# the linker map (-Wl,-Map) of a test linked with libga after pario's
# libraries and fails if any of GA's ChemIO objects (EAF, ELIO, SF, DRA)
# was pulled in to satisfy a reference: those names then come from GA, and
# the program silently runs GA's ChemIO instead of pario's.
#   cmake -DMAP=<file> -DEXPECT=pario|ga -P ga_link_check.cmake
# EXPECT=ga checks the opposite (a program linked with GA first), so that
# the check is seen to catch what it is for.
cmake_policy(VERSION 3.20)
set(ga_chemio eaf.o eaf_f2c.o elio.o stat.o sf_capi.o sf_fortran.o shared.files.o lt1-capi.o
    disk.arrays.o disk.param.o env.o fortran.o patch.util.o)
file(STRINGS "${MAP}" lines REGEX "libga[^/]*\\.a\\([^)]*\\.o\\)")
set(pulled "")
foreach(line IN LISTS lines)
  string(REGEX MATCH "libga[^/]*\\.a\\(([^)]*\\.o)\\)" m "${line}")
  if(CMAKE_MATCH_1 IN_LIST ga_chemio)
    list(APPEND pulled ${CMAKE_MATCH_1})
  endif()
endforeach()
list(REMOVE_DUPLICATES pulled)
if(EXPECT STREQUAL "ga")
  if(NOT pulled)
    message(FATAL_ERROR "${MAP}: expected GA's ChemIO objects (GA linked first), found none")
  endif()
  message(STATUS "GA first: GA's ChemIO objects linked instead of pario's: ${pulled}")
elseif(pulled)
  message(FATAL_ERROR "${MAP}: GA's ChemIO objects were linked, so their names come from GA: ${pulled}")
else()
  get_filename_component(exe "${MAP}" NAME_WE)
  message(STATUS "${exe}: no ChemIO object of GA's linked; the classic names come from pario")
endif()
