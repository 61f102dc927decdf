// Fortran-callable DDI names as GAMESS calls them (ddi_get_, ...): every
// argument by reference, INTEGERs of PARIO_F77_INTEGER_SIZE bytes, 1-based
// row and column indices, 0-based ranks and nodes, and GAMESS's start-up
// (DDI_PBEG) and shut-down (DDI_PEND) names.
#include <cstdint>
#include <string>

#include "compat/ddi_internal.h"
#include "compat/fortran.h"
#include "pario/compat/ddi.h"
#include "pario/pario.h"

constexpr int kF77Type = sizeof(f77_int) == 4 ? PARIO_TYPE_INT32 : PARIO_TYPE_INT64;

using namespace pario::ddi;  // NOLINT: this file is the Fortran boundary
using pario::compat::narrow;

namespace {

void patch(const char* call, PatchOp op, const f77_int* h, const f77_int* ilo, const f77_int* ihi,
           const f77_int* jlo, const f77_int* jhi, double* buff) {
  patch_op(call, op, 1, *h, *ilo, *ihi, *jlo, *jhi, buff, 1.0);
}

void bounds(const char* call, bool by_node, const f77_int* h, const f77_int* who, f77_int* ilo,
            f77_int* ihi, f77_int* jlo, f77_int* jhi) {
  int64_t b[4];
  distrib(call, by_node, 1, *h, *who, b);
  if (DDI_Last_error(nullptr, 0) != PARIO_OK) return;
  *ilo = b[0];
  *ihi = b[1];
  *jlo = b[2];
  *jhi = b[3];
}

template <typename Fn>
void two_ints(Fn fn, f77_int* a, f77_int* b) {
  int x = 0, y = 0;
  fn(&x, &y);
  if (DDI_Last_error(nullptr, 0) != PARIO_OK) return;
  *a = x;
  *b = y;
}

}  // namespace

extern "C" {

// nwdvar (words per INTEGER) is GAMESS's; the integer width is fixed when
// pario_compat is built.
PARIO_API void ddi_pbeg_(f77_int*) { DDI_Init(0, nullptr); }
PARIO_API void ddi_pend_(f77_int*) { DDI_Finalize(); }
// memrep (replicated memory) and exetyp are GAMESS's bookkeeping; pario
// caps only the distributed part.
PARIO_API void ddi_memory_(f77_int*, f77_int* memddi, double*) {
  DDI_Memory(*memddi > 0 ? static_cast<size_t>(*memddi) : 0);
}

PARIO_API void ddi_nproc_(f77_int* np, f77_int* me) { two_ints(DDI_NProc, np, me); }
PARIO_API void ddi_nnode_(f77_int* n, f77_int* my) { two_ints(DDI_NNode, n, my); }
PARIO_API void ddi_smp_nproc_(f77_int* np, f77_int* me) { two_ints(DDI_SMP_NProc, np, me); }
PARIO_API void ddi_ngroup_(f77_int* n, f77_int* my) { two_ints(DDI_NGroup, n, my); }

PARIO_API void ddi_sync_(f77_int* tag) { DDI_Sync(narrow(tag)); }

PARIO_API void ddi_gsumf_(f77_int*, double* buff, f77_int* len) {
  gsum("DDI_GSUMF", buff, *len, PARIO_TYPE_DOUBLE);
}

PARIO_API void ddi_gsumi_(f77_int*, f77_int* buff, f77_int* len) {
  gsum("DDI_GSUMI", buff, *len, kF77Type);
}

// type is 'F' (double precision) or 'I' (INTEGER); len counts elements.
PARIO_API void ddi_bcast_(f77_int*, const char* type, void* buff, f77_int* len, f77_int* root,
                          hidden_len) {
  const char t = type ? *type : '?';
  if (t != 'F' && t != 'f' && t != 'I' && t != 'i') {
    return fail("DDI_BCAST", std::string("type '") + t + "' is not 'F' or 'I'");
  }
  const size_t size = (t == 'I' || t == 'i') ? sizeof(f77_int) : sizeof(double);
  if (*len > 0 && static_cast<uint64_t>(*len) > SIZE_MAX / size) {
    return fail("DDI_BCAST", std::to_string(*len) + " elements overflow a byte count");
  }
  DDI_BCast(buff, *len > 0 ? static_cast<size_t>(*len) * size : 0, narrow(root));
}

PARIO_API void ddi_create_(f77_int* idim, f77_int* jdim, f77_int* handle) {
  int64_t h = -1;
  create("DDI_CREATE", *idim, *jdim, nullptr, &h);
  if (DDI_Last_error(nullptr, 0) == PARIO_OK) *handle = h;
}

PARIO_API void ddi_destroy_(f77_int* handle) { DDI_Destroy(narrow(handle)); }
PARIO_API void ddi_zero_(f77_int* handle) { DDI_Zero(narrow(handle)); }

PARIO_API void ddi_distrib_(f77_int* h, f77_int* rank, f77_int* ilo, f77_int* ihi, f77_int* jlo,
                            f77_int* jhi) {
  bounds("DDI_DISTRIB", false, h, rank, ilo, ihi, jlo, jhi);
}

PARIO_API void ddi_ndistrib_(f77_int* h, f77_int* node, f77_int* ilo, f77_int* ihi, f77_int* jlo,
                             f77_int* jhi) {
  bounds("DDI_NDISTRIB", true, h, node, ilo, ihi, jlo, jhi);
}

PARIO_API void ddi_get_(f77_int* h, f77_int* ilo, f77_int* ihi, f77_int* jlo, f77_int* jhi,
                        double* buff) {
  patch("DDI_GET", PatchOp::kGet, h, ilo, ihi, jlo, jhi, buff);
}
PARIO_API void ddi_put_(f77_int* h, f77_int* ilo, f77_int* ihi, f77_int* jlo, f77_int* jhi,
                        double* buff) {
  patch("DDI_PUT", PatchOp::kPut, h, ilo, ihi, jlo, jhi, buff);
}
PARIO_API void ddi_acc_(f77_int* h, f77_int* ilo, f77_int* ihi, f77_int* jlo, f77_int* jhi,
                        double* buff) {
  patch("DDI_ACC", PatchOp::kAcc, h, ilo, ihi, jlo, jhi, buff);
}
PARIO_API void ddi_getacc_(f77_int* h, f77_int* ilo, f77_int* ihi, f77_int* jlo, f77_int* jhi,
                           double* buff) {
  patch("DDI_GETACC", PatchOp::kGetAcc, h, ilo, ihi, jlo, jhi, buff);
}

PARIO_API void ddi_dlbnext_(f77_int* counter) {
  size_t v = 0;
  DDI_DLBNext(&v);
  if (DDI_Last_error(nullptr, 0) == PARIO_OK) *counter = static_cast<f77_int>(v);
}
PARIO_API void ddi_dlbreset_() { DDI_DLBReset(); }
PARIO_API void ddi_gdlbnext_(f77_int* counter) {
  size_t v = 0;
  DDI_GDLBNext(&v);
  if (DDI_Last_error(nullptr, 0) == PARIO_OK) *counter = static_cast<f77_int>(v);
}
PARIO_API void ddi_gdlbreset_() { DDI_GDLBReset(); }

PARIO_API void ddi_procdlb_create_(f77_int* handle) {
  int h = -1;
  DDI_ProcDLB_create(&h);
  if (DDI_Last_error(nullptr, 0) == PARIO_OK) *handle = h;
}
PARIO_API void ddi_procdlb_destroy_(f77_int* h) { DDI_ProcDLB_destroy(narrow(h)); }
PARIO_API void ddi_procdlb_reset_(f77_int* h) { DDI_ProcDLB_reset(narrow(h)); }
PARIO_API void ddi_procdlb_next_(f77_int* h, f77_int* proc, f77_int* counter) {
  int v = 0;
  DDI_ProcDLB_next(narrow(h), narrow(proc), &v);
  if (DDI_Last_error(nullptr, 0) == PARIO_OK) *counter = v;
}

PARIO_API void ddi_scope_(f77_int* scope) { DDI_Scope(narrow(scope)); }

PARIO_API void ddi_group_create_(f77_int* ngroups, f77_int* world, f77_int* group,
                                 f77_int* masters) {
  group_create("DDI_GROUP_CREATE", *ngroups, nullptr);
  if (DDI_Last_error(nullptr, 0) != PARIO_OK) return;
  *world = DDI_WORLD;
  *group = DDI_GROUP;
  *masters = DDI_MASTERS;
}

}  // extern "C"
