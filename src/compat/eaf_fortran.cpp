// Fortran-callable EAF names (eaf_open, eaf_write, ...), as GA provides
// them: every argument by reference, offsets as double precision, integers
// of PARIO_F77_INTEGER_SIZE bytes (8 by default, like GA on 64-bit Debian),
// and gfortran's hidden string lengths appended after all arguments.
#include <cstdlib>
#include <string>

#include "compat/classic.h"
#include "compat/fortran.h"
#include "pario/compat/eaf.h"

using pario::compat::from_fortran;
using pario::compat::narrow;
using pario::compat::to_fortran;

namespace {

// A Fortran byte count: a negative one is refused, not turned into a huge
// size_t.
bool negative_bytes(const char* call, const f77_int* bytes, int* rc) {
  if (*bytes >= 0) return false;
  *rc = pario::compat::fail(PARIO_ERR_INVALID_ARGUMENT, "%s: bytes %lld is negative", call,
                            static_cast<long long>(*bytes));
  return true;
}

}  // namespace

extern "C" {

PARIO_API f77_int eaf_open_(const char* fname, f77_int* type, f77_int* fd, hidden_len flen) try {
  int handle = -1;
  int rc = EAF_Open(from_fortran(fname, flen).c_str(), narrow(type), &handle);
  if (rc == 0) *fd = handle;
  return rc;
} catch (...) {
  return pario::compat::caught("eaf_open_");
}

PARIO_API f77_int eaf_close_(f77_int* fd) { return EAF_Close(narrow(fd)); }

PARIO_API f77_int eaf_delete_(const char* fname, hidden_len flen) try {
  return EAF_Delete(from_fortran(fname, flen).c_str());
} catch (...) {
  return pario::compat::caught("eaf_delete_");
}

PARIO_API f77_int eaf_write_(f77_int* fd, double* offset, const void* buf, f77_int* bytes) {
  int rc;
  if (negative_bytes("eaf_write", bytes, &rc)) return rc;
  return EAF_Write(narrow(fd), *offset, buf, static_cast<size_t>(*bytes));
}

PARIO_API f77_int eaf_read_(f77_int* fd, double* offset, void* buf, f77_int* bytes) {
  int rc;
  if (negative_bytes("eaf_read", bytes, &rc)) return rc;
  return EAF_Read(narrow(fd), *offset, buf, static_cast<size_t>(*bytes));
}

PARIO_API f77_int eaf_awrite_(f77_int* fd, double* offset, const void* buf, f77_int* bytes,
                              f77_int* req_id) {
  int id = -1;
  int rc;
  if (negative_bytes("eaf_awrite", bytes, &rc)) return rc;
  rc = EAF_Awrite(narrow(fd), *offset, buf, static_cast<size_t>(*bytes), &id);
  if (rc == 0) *req_id = id;
  return rc;
}

PARIO_API f77_int eaf_aread_(f77_int* fd, double* offset, void* buf, f77_int* bytes,
                             f77_int* req_id) {
  int id = -1;
  int rc;
  if (negative_bytes("eaf_aread", bytes, &rc)) return rc;
  rc = EAF_Aread(narrow(fd), *offset, buf, static_cast<size_t>(*bytes), &id);
  if (rc == 0) *req_id = id;
  return rc;
}

PARIO_API f77_int eaf_wait_(f77_int* fd, f77_int* id) {
  return EAF_Wait(narrow(fd), narrow(id));
}

PARIO_API f77_int eaf_probe_(f77_int* id, f77_int* status) {
  int s = 1;
  int rc = EAF_Probe(narrow(id), &s);
  if (rc == 0) *status = s;
  return rc;
}

PARIO_API f77_int eaf_length_(f77_int* fd, double* length) {
  eaf_off_t n = 0;
  int rc = EAF_Length(narrow(fd), &n);
  if (rc == 0) *length = n;
  return rc;
}

PARIO_API f77_int eaf_truncate_(f77_int* fd, double* length) {
  return EAF_Truncate(narrow(fd), *length);
}

PARIO_API f77_logical eaf_eof_(f77_int* code) { return EAF_Eof(narrow(code)); }

PARIO_API f77_int eaf_stat_(const char* path, f77_int* avail_kb, char* fstype,
                            hidden_len pathlen, hidden_len fslen) try {
  long kb = 0;
  char type[32];
  int rc = EAF_Stat(from_fortran(path, pathlen).c_str(), &kb, type, sizeof type);
  if (rc == 0) {
    *avail_kb = kb;
    to_fortran(type, fstype, fslen);
  }
  return rc;
} catch (...) {
  return pario::compat::caught("eaf_stat_");
}

PARIO_API void eaf_errmsg_(f77_int* code, char* msg, hidden_len msglen) {
  char text[80];
  EAF_Errmsg(narrow(code), text);
  to_fortran(text, msg, msglen);
}

PARIO_API void eaf_print_stats_(f77_int* fd) { EAF_Print_stats(narrow(fd)); }

// GA's two helpers for Fortran EAF programs (declared in eaf.fh): the size
// of an INTEGER in bytes, and a pseudo-random number in [0, 1) from the C
// library's random(), reseeded first when seed is not 0.
PARIO_API f77_int eaf_util_szint_() { return static_cast<f77_int>(sizeof(f77_int)); }

PARIO_API double eaf_util_random_(f77_int* seed) {
  if (*seed != 0) srandom(static_cast<unsigned>(*seed));
  return static_cast<double>(random()) / 2147483648.0;  // random() < 2^31
}

}  // extern "C"
