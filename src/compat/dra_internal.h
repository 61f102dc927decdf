// What the classic DRA API's C (dra.cpp) and Fortran (dra_fortran.cpp)
// entry points share, and how it finds the global array behind a GA-style
// integer handle.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "pario/pario.h"

namespace pario::dra {

// The global array side of a transfer: a pario array, or callbacks (when
// array is null) whose context `keep` holds alive until the request ends.
struct MemorySide {
  pario_array_t array = PARIO_ARRAY_NULL;
  pario_array_ops_t ops{};
  std::shared_ptr<void> keep;
};

// Defined once per library: pario_compat takes DDI handles
// (dra_ddi_handles.cpp), pario_dra_ga Global Arrays' own handles
// (dra_ga_handles.cpp). Returns a pario status code.
int memory_side(int g_a, MemorySide* out);

// The MA/GA type codes (C_DBL, MT_F_DBL, ...) as pario types, and back.
int pario_type_of(int ma_type);
int ma_type_of(int pario_type, bool fortran);

// The calls below take C order, 0-based indices and inclusive ranges; the
// Fortran names reverse and shift theirs first. `call` names the entry
// point in messages.
int create(const char* call, int type, int ndim, const int64_t dims[], const char* name,
           const char* filename, int mode, const int64_t reqdims[], int* d_a);
// type_out: the MA type given at creation, or after DRA_Open the C
// (fortran false) or Fortran one of the stored element type.
int inquire(const char* call, int d_a, bool fortran, int* type, int* ndim, int64_t dims[], std::string* name,
            std::string* filename);
// Fills the section bounds for a global array of ndim dimensions.
using Bounds = std::function<void(int ndim, int64_t glo[], int64_t ghi[], int64_t dlo[], int64_t dhi[])>;
// An empty `bounds` means the whole arrays.
int transfer(const char* call, bool write, bool transp, int g_a, int d_a, const Bounds& bounds, int* request);

}  // namespace pario::dra
