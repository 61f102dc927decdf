// Helpers shared by the device tests.
#pragma once

#include <cstdlib>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

namespace pario::device::testing {

// A fresh path under PARIO_SCRATCH (set by CTest to the build dir).
inline std::string scratch_path(const std::string& name) {
  const char* dir = std::getenv("PARIO_SCRATCH");
  std::string p = std::string(dir ? dir : "/tmp") + "/" + name + "." + std::to_string(getpid());
  ::unlink(p.c_str());
  return p;
}

inline std::vector<char> random_bytes(size_t n, unsigned seed) {
  std::vector<char> v(n);
  std::mt19937 rng(seed);
  for (auto& c : v) c = static_cast<char>(rng());
  return v;
}

}  // namespace pario::device::testing
