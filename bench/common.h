// Helpers the benchmark programs share.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "pario/pario.h"

namespace bench {

// Prints "<program>: <what> <pario's last error message>" and exits 1 (in
// an MPI job, mpiexec then ends the other ranks).
[[noreturn]] inline void fail(const char* program, const std::string& what) {
  char msg[512] = "";
  pario_last_error_message(msg, sizeof msg);
  std::fprintf(stderr, "%s: %s %s\n", program, what.c_str(), msg);
  std::exit(1);
}

}  // namespace bench
