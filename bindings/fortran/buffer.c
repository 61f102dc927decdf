/* What a Fortran buffer is, read from its C descriptor (Fortran 2018,
 * ISO_Fortran_binding.h): the module passes every buffer as
 * type(*), dimension(..), and standard Fortran has no way to ask such a
 * dummy for its type. The descriptor knows it, so the module can refuse an
 * integer buffer for a double array instead of moving garbage. */
#include <ISO_Fortran_binding.h>
#include <stdint.h>

#include "pario/array.h"

/* The pario element type of a CFI type code, or 0 when pario has none. */
static int pario_type_of(CFI_type_t type) {
  switch (type) {
    case CFI_type_double: return PARIO_TYPE_DOUBLE;
    case CFI_type_float: return PARIO_TYPE_FLOAT;
    case CFI_type_int32_t: return PARIO_TYPE_INT32;
    case CFI_type_int64_t: return PARIO_TYPE_INT64;
    case CFI_type_double_Complex: return PARIO_TYPE_COMPLEX_DOUBLE;
    case CFI_type_int8_t: return PARIO_TYPE_INT8;
    case CFI_type_int16_t: return PARIO_TYPE_INT16;
    case CFI_type_float_Complex: return PARIO_TYPE_COMPLEX_FLOAT;
    default: return 0;
  }
}

/* Fills in the buffer's pario type (0: none), element size in bytes,
 * element count and address; returns 1 when its elements are contiguous. */
int pario_f_buffer(const CFI_cdesc_t *buf, int *type, int64_t *elem_bytes, int64_t *elements,
                   void **base) {
  int64_t n = 1;
  for (int d = 0; d < buf->rank; ++d) n *= (int64_t)buf->dim[d].extent;
  *type = pario_type_of(buf->type);
  *elem_bytes = (int64_t)buf->elem_len;
  *elements = n;
  *base = buf->base_addr;
  return CFI_is_contiguous(buf);
}
