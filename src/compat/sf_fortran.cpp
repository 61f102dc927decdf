// Fortran-callable SF names (sf_create, sf_write, ...), as GA provides them:
// every argument by reference, sizes and offsets as double precision,
// integers of PARIO_F77_INTEGER_SIZE bytes, and gfortran's hidden string
// lengths after all arguments.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "compat/classic.h"
#include "compat/fortran.h"
#include "pario/compat/sf.h"

using pario::compat::from_fortran;

using pario::compat::narrow;

extern "C" {

PARIO_API f77_int sf_create_(const char* fname, double* hard, double* soft, double* req,
                             f77_int* handle, hidden_len len) try {
  std::string name = from_fortran(fname, len);
  int h = -1;
  const int rc = SF_Create(name.data(), *hard, *soft, *req, &h);
  if (rc == 0) *handle = h;
  return rc;
} catch (...) {
  return pario::compat::caught("sf_create_");
}

PARIO_API f77_int sf_create_suffix_(const char* fname, double* hard, double* soft, double* req,
                                    f77_int* handle, f77_int* suffix, hidden_len len) try {
  std::string name = from_fortran(fname, len);
  int h = -1;
  const int rc = SF_Create_suffix(name.data(), *hard, *soft, *req, &h, narrow(suffix));
  if (rc == 0) *handle = h;
  return rc;
} catch (...) {
  return pario::compat::caught("sf_create_suffix_");
}

PARIO_API f77_int sf_destroy_(f77_int* h) { return SF_Destroy(narrow(h)); }
PARIO_API f77_int sf_open_(f77_int* h) { return SF_Open(narrow(h)); }
PARIO_API f77_int sf_close_(f77_int* h) { return SF_Close(narrow(h)); }
PARIO_API f77_int sf_rwtor_(f77_int* h) { return SF_Rwtor(narrow(h)); }
PARIO_API f77_int sf_fsync_(f77_int* h) { return SF_Fsync(narrow(h)); }

PARIO_API f77_int sf_write_(f77_int* h, double* offset, double* bytes, char* buffer,
                            f77_int* req_id) {
  int id = -1;
  const int rc = SF_Write(narrow(h), *offset, *bytes, buffer, &id);
  if (rc == 0) *req_id = id;
  return rc;
}

PARIO_API f77_int sf_read_(f77_int* h, double* offset, double* bytes, char* buffer,
                           f77_int* req_id) {
  int id = -1;
  const int rc = SF_Read(narrow(h), *offset, *bytes, buffer, &id);
  if (rc == 0) *req_id = id;
  return rc;
}

PARIO_API f77_int sf_wait_(f77_int* req_id) {
  int id = narrow(req_id);
  const int rc = SF_Wait(&id);
  if (rc == 0) *req_id = id;
  return rc;
}

PARIO_API f77_int sf_waitall_(f77_int* list, f77_int* num) {
  const int n = narrow(num);
  if (n < 0) return SF_Waitall(nullptr, n);  // rejected, with a message
  std::vector<int> ids;
  try {  // n is the caller's: no exception may cross into Fortran
    ids.resize(static_cast<size_t>(n));
  } catch (const std::bad_alloc&) {
    return pario::compat::fail(PARIO_ERR_NO_MEMORY, "SF_Waitall: no memory for %d request ids", n);
  }
  for (int i = 0; i < n; ++i) ids[i] = narrow(&list[i]);
  const int rc = SF_Waitall(ids.data(), n);
  for (int i = 0; i < n; ++i) list[i] = ids[i];
  return rc;
}

PARIO_API void sf_errmsg_(f77_int* code, char* msg, hidden_len len) {
  char text[80];
  SF_Errmsg(static_cast<int>(*code), text);
  const size_t n = std::min(std::strlen(text), len);
  std::memcpy(msg, text, n);
  std::memset(msg + n, ' ', len - n);
}

}  // extern "C"
