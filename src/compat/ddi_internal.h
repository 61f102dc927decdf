// What the C (ddi.cpp) and Fortran (ddi_fortran.cpp) DDI entry points share:
// the calls whose index base or integer width differ between the two.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "pario/pario.h"

namespace pario::ddi {

enum class PatchOp { kGet, kPut, kAcc, kGetAcc };

// A transfer of rows ilo..ihi, columns jlo..jhi (inclusive, counted from
// `base`: 0 in C, 1 in Fortran, also in error messages).
void patch_op(const char* call, PatchOp op, int base, int64_t handle, int64_t ilo, int64_t ihi,
              int64_t jlo, int64_t jhi, void* buff, double alpha);
// The patch of a rank (by_node false) or of a node, counted from `base`.
void distrib(const char* call, bool by_node, int base, int64_t handle, int64_t who, int64_t out[4]);
// In-place sum over the working scope of n elements of a pario element type.
void gsum(const char* call, void* buffer, int64_t n, int pario_type);
void create(const char* call, int64_t idim, int64_t jdim, const int64_t* jcols, int64_t* handle);
// Reports an argument error found by a binding (aborts unless errors return).
void fail(const char* call, const std::string& why);
void group_create(const char* call, int64_t ngroups, const int64_t* sizes);
// The pario array behind a live DDI handle (for the classic DRA API);
// returns a pario status code and never aborts.
int array_for_handle(int64_t handle, pario_array_t* out);

}  // namespace pario::ddi
