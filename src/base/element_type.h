// The element types of pario's arrays (global and on disk), as one enum
// whose values are the C API's PARIO_TYPE_DOUBLE .. PARIO_TYPE_COMPLEX_DOUBLE.
//
// Pure functions, no MPI (the MPI datatype of each lives in comm/group.h).
// Thread safety: pure functions.
#pragma once

#include <cstddef>

namespace pario {

enum class ElementType : int { kDouble = 1, kFloat = 2, kInt32 = 3, kInt64 = 4, kComplexDouble = 5 };

// Bytes per element (0 for a value outside the enum).
size_t element_size(ElementType t);
// Static text for messages ("double", "int32", ...).
const char* element_name(ElementType t);
// Whether t is one of ElementType's values (checks caller input before a cast).
bool valid_element_type(int t);

}  // namespace pario
