// The classic DRA API in pario_compat: g_a is a DDI handle (DDI_Create),
// a pario global array seen in C order as [jdim][idim].
#include "compat/ddi_internal.h"
#include "compat/dra_internal.h"

namespace pario::dra {

int memory_side(int g_a, MemorySide* out) {
  *out = MemorySide{};
  return ddi::array_for_handle(g_a, &out->array);
}

}  // namespace pario::dra
