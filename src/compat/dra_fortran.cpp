// Fortran-callable DRA names (dra_init, dra_create, ...), as GA provides
// them: arguments by reference, integers of PARIO_F77_INTEGER_SIZE bytes,
// gfortran's hidden string lengths last. Fortran's indices are 1-based and
// column-major: each call reverses the dimensions and shifts by one before
// the shared C-order implementation.
#include <string>

#include "compat/classic.h"
#include "compat/dra_internal.h"
#include "compat/fortran.h"
#include "pario/compat/dra.h"

namespace {

using namespace pario::dra;  // NOLINT
using pario::compat::from_fortran;
using pario::compat::narrow;
using pario::compat::to_fortran;

int bad_ndim(const char* call, int64_t ndim) {
  return pario::compat::fail(PARIO_ERR_INVALID_ARGUMENT, "%s: ndim %lld (1 to %d)", call,
                             static_cast<long long>(ndim), PARIO_ARRAY_MAX_DIMS);
}

// Fortran extents (or request shapes) in C order.
void reversed(int nd, const f77_int* f, int64_t* c) {
  for (int i = 0; i < nd; ++i) c[i] = f[nd - 1 - i];
}

f77_int create(const char* call, f77_int type, int nd, const f77_int* dims, const char* name, const char* filename,
               f77_int mode, const f77_int* reqdims, f77_int* d_a, hidden_len nlen, hidden_len flen) try {
  if (nd < 1 || nd > PARIO_ARRAY_MAX_DIMS) return bad_ndim(call, nd);
  int64_t d[PARIO_ARRAY_MAX_DIMS], r[PARIO_ARRAY_MAX_DIMS];
  reversed(nd, dims, d);
  reversed(nd, reqdims, r);
  int handle = -1;
  const int rc = pario::dra::create(call, narrow(&type), nd, d, from_fortran(name, nlen).c_str(),
                                    from_fortran(filename, flen).c_str(), narrow(&mode), r, &handle);
  if (rc == PARIO_OK) *d_a = handle;
  return rc;
} catch (...) {
  return pario::compat::caught("ndra_create");
}

f77_int inquire(const char* call, f77_int d_a, f77_int* type, int* nd, int64_t* c_dims, char* name, char* filename,
                hidden_len nlen, hidden_len flen) try {
  int t = 0;
  std::string n, f;
  const int rc = pario::dra::inquire(call, narrow(&d_a), true, &t, nd, c_dims, &n, &f);
  if (rc != PARIO_OK) return rc;
  *type = t;
  to_fortran(n, name, nlen);
  to_fortran(f, filename, flen);
  return PARIO_OK;
} catch (...) {
  return pario::compat::caught("ndra_inquire");
}

// A section given by Fortran bounds (1-based, inclusive, column-major);
// null bounds mean the whole arrays.
f77_int section(const char* call, bool write, f77_logical transp, f77_int g_a, const f77_int* glo,
                const f77_int* ghi, f77_int d_a, const f77_int* dlo, const f77_int* dhi, f77_int* request) {
  int req = DRA_REQ_INVALID;
  Bounds bounds;  // empty: the whole arrays
  if (glo) {
    bounds = [&](int nd, int64_t gl[], int64_t gh[], int64_t dl[], int64_t dh[]) {
      for (int i = 0; i < nd; ++i) {
        const int f = nd - 1 - i;
        gl[i] = glo[f] - 1, gh[i] = ghi[f] - 1, dl[i] = dlo[f] - 1, dh[i] = dhi[f] - 1;
      }
    };
  }
  const int rc = transfer(call, write, transp != 0, narrow(&g_a), narrow(&d_a), bounds, &req);
  *request = req;
  return rc;
}

}  // namespace

extern "C" {

PARIO_API f77_int dra_init_(f77_int* max_arrays, double* max_array_size, double* total_disk_space,
                            double* max_memory) {
  return DRA_Init(static_cast<int>(*max_arrays), *max_array_size, *total_disk_space, *max_memory);
}

PARIO_API f77_int dra_terminate_() { return DRA_Terminate(); }

PARIO_API f77_int dra_create_(f77_int* type, f77_int* dim1, f77_int* dim2, const char* name, const char* filename,
                              f77_int* mode, f77_int* rdim1, f77_int* rdim2, f77_int* d_a, hidden_len nlen,
                              hidden_len flen) {
  const f77_int dims[2] = {*dim1, *dim2}, req[2] = {*rdim1, *rdim2};
  return create("dra_create", *type, 2, dims, name, filename, *mode, req, d_a, nlen, flen);
}

PARIO_API f77_int ndra_create_(f77_int* type, f77_int* ndim, f77_int dims[], const char* name, const char* filename,
                               f77_int* mode, f77_int reqdims[], f77_int* d_a, hidden_len nlen, hidden_len flen) {
  return create("ndra_create", *type, narrow(ndim), dims, name, filename, *mode, reqdims, d_a, nlen, flen);
}

PARIO_API f77_int ndra_create_config_(f77_int* type, f77_int* ndim, f77_int dims[], const char* name,
                                      const char* filename, f77_int* mode, f77_int reqdims[], f77_int* numfiles,
                                      f77_int* numioprocs, f77_int* d_a, hidden_len nlen, hidden_len flen) {
  (void)numfiles, (void)numioprocs;
  return create("ndra_create_config", *type, narrow(ndim), dims, name, filename, *mode, reqdims, d_a,
                nlen, flen);
}

PARIO_API f77_int dra_open_(const char* filename, f77_int* mode, f77_int* d_a, hidden_len flen) try {
  int handle = -1;
  std::string path = from_fortran(filename, flen);
  const int rc = DRA_Open(path.data(), narrow(mode), &handle);
  if (rc == PARIO_OK) *d_a = handle;
  return rc;
} catch (...) {
  return pario::compat::caught("dra_open_");
}

PARIO_API f77_int dra_close_(f77_int* d_a) { return DRA_Close(narrow(d_a)); }
PARIO_API f77_int dra_delete_(f77_int* d_a) { return DRA_Delete(narrow(d_a)); }

PARIO_API f77_int dra_inquire_(f77_int* d_a, f77_int* type, f77_int* dim1, f77_int* dim2, char* name, char* filename,
                               hidden_len nlen, hidden_len flen) {
  int nd = 0;
  int64_t d[PARIO_ARRAY_MAX_DIMS];
  const f77_int rc = inquire("dra_inquire", *d_a, type, &nd, d, name, filename, nlen, flen);
  if (rc != PARIO_OK) return rc;
  if (nd != 2) {
    return pario::compat::fail(PARIO_ERR_INVALID_ARGUMENT, "dra_inquire: disk array %lld has %d dimensions "
                               "(use ndra_inquire)", static_cast<long long>(*d_a), nd);
  }
  *dim1 = d[1], *dim2 = d[0];
  return PARIO_OK;
}

PARIO_API f77_int ndra_inquire_(f77_int* d_a, f77_int* type, f77_int* ndim, f77_int dims[], char* name,
                                char* filename, hidden_len nlen, hidden_len flen) {
  int nd = 0;
  int64_t d[PARIO_ARRAY_MAX_DIMS];
  const f77_int rc = inquire("ndra_inquire", *d_a, type, &nd, d, name, filename, nlen, flen);
  if (rc != PARIO_OK) return rc;
  *ndim = nd;
  for (int i = 0; i < nd; ++i) dims[i] = d[nd - 1 - i];
  return PARIO_OK;
}

PARIO_API f77_int dra_write_(f77_int* g_a, f77_int* d_a, f77_int* request) {
  return section("dra_write", true, 0, *g_a, nullptr, nullptr, *d_a, nullptr, nullptr, request);
}
PARIO_API f77_int ndra_write_(f77_int* g_a, f77_int* d_a, f77_int* request) {
  return section("ndra_write", true, 0, *g_a, nullptr, nullptr, *d_a, nullptr, nullptr, request);
}
PARIO_API f77_int dra_read_(f77_int* g_a, f77_int* d_a, f77_int* request) {
  return section("dra_read", false, 0, *g_a, nullptr, nullptr, *d_a, nullptr, nullptr, request);
}
PARIO_API f77_int ndra_read_(f77_int* g_a, f77_int* d_a, f77_int* request) {
  return section("ndra_read", false, 0, *g_a, nullptr, nullptr, *d_a, nullptr, nullptr, request);
}

PARIO_API f77_int dra_write_section_(f77_logical* transp, f77_int* g_a, f77_int* gilo, f77_int* gihi, f77_int* gjlo,
                                     f77_int* gjhi, f77_int* d_a, f77_int* dilo, f77_int* dihi, f77_int* djlo,
                                     f77_int* djhi, f77_int* request) {
  const f77_int glo[2] = {*gilo, *gjlo}, ghi[2] = {*gihi, *gjhi}, dlo[2] = {*dilo, *djlo}, dhi[2] = {*dihi, *djhi};
  return section("dra_write_section", true, *transp, *g_a, glo, ghi, *d_a, dlo, dhi, request);
}
PARIO_API f77_int dra_read_section_(f77_logical* transp, f77_int* g_a, f77_int* gilo, f77_int* gihi, f77_int* gjlo,
                                    f77_int* gjhi, f77_int* d_a, f77_int* dilo, f77_int* dihi, f77_int* djlo,
                                    f77_int* djhi, f77_int* request) {
  const f77_int glo[2] = {*gilo, *gjlo}, ghi[2] = {*gihi, *gjhi}, dlo[2] = {*dilo, *djlo}, dhi[2] = {*dihi, *djhi};
  return section("dra_read_section", false, *transp, *g_a, glo, ghi, *d_a, dlo, dhi, request);
}
PARIO_API f77_int ndra_write_section_(f77_logical* transp, f77_int* g_a, f77_int glo[], f77_int ghi[], f77_int* d_a,
                                      f77_int dlo[], f77_int dhi[], f77_int* request) {
  return section("ndra_write_section", true, *transp, *g_a, glo, ghi, *d_a, dlo, dhi, request);
}
PARIO_API f77_int ndra_read_section_(f77_logical* transp, f77_int* g_a, f77_int glo[], f77_int ghi[], f77_int* d_a,
                                     f77_int dlo[], f77_int dhi[], f77_int* request) {
  return section("ndra_read_section", false, *transp, *g_a, glo, ghi, *d_a, dlo, dhi, request);
}

PARIO_API f77_int dra_probe_(f77_int* request, f77_int* status) {
  int s = 0;
  const int rc = DRA_Probe(narrow(request), &s);
  if (rc == PARIO_OK) *status = s;
  return rc;
}

PARIO_API f77_int dra_wait_(f77_int* request) { return DRA_Wait(narrow(request)); }
// GA's dra.fh declares dra_set_debug an integer function: 0, so that both
// "rc = dra_set_debug(flag)" and "call dra_set_debug(flag)" work.
PARIO_API f77_int dra_set_debug_(f77_logical* flag) {
  DRA_Set_debug(*flag);
  return 0;
}
PARIO_API void dra_flick_() { DRA_Flick(); }
PARIO_API void dra_print_internals_(f77_int* d_a) { DRA_Print_internals(narrow(d_a)); }
PARIO_API void dra_set_default_config_(f77_int* numfiles, f77_int* numioprocs) {
  DRA_Set_default_config(static_cast<int>(*numfiles), static_cast<int>(*numioprocs));
}

}  // extern "C"
