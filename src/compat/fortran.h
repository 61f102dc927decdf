// What the Fortran-callable classic names share: GA's and GAMESS's INTEGER
// of PARIO_F77_INTEGER_SIZE bytes (8 by default, as on 64-bit Debian),
// LOGICAL of the same size, and gfortran's hidden string lengths (size_t
// since gfortran 8, passed after all arguments).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#if PARIO_F77_INTEGER_SIZE == 4
using f77_int = int32_t;
#else
using f77_int = int64_t;
#endif
using f77_logical = f77_int;
using hidden_len = size_t;

namespace pario::compat {

// A handle, id, rank or tag as C's int; out-of-range values become -1,
// which every call rejects, rather than wrapping onto a live handle
// (2^32 would be handle 0).
inline int narrow(const f77_int* v) { return *v >= INT32_MIN && *v <= INT32_MAX ? static_cast<int>(*v) : -1; }

// A Fortran string argument without its blank padding.
inline std::string from_fortran(const char* s, hidden_len len) {
  while (len > 0 && s[len - 1] == ' ') --len;
  return std::string(s, len);
}

// s into a Fortran CHARACTER of length len, blank-padded (cut if longer).
inline void to_fortran(const std::string& s, char* out, hidden_len len) {
  const size_t n = std::min(s.size(), len);
  std::memcpy(out, s.data(), n);
  std::memset(out + n, ' ', len - n);
}

}  // namespace pario::compat
