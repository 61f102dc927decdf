// The element types of pario's arrays (global and on disk), as one enum
// whose values are the C API's PARIO_TYPE_DOUBLE .. PARIO_TYPE_COMPLEX_FLOAT
// (include/pario/array.h). Values are only ever appended: they are stored
// in programs compiled against the header.
//
// Pure functions, no MPI (the MPI datatype of each lives in comm/group.h;
// conversions between the types and byte swapping in base/convert.h).
// Thread safety: pure functions.
#pragma once

#include <cstddef>

namespace pario {

enum class ElementType : int {
  kDouble = 1,
  kFloat = 2,
  kInt32 = 3,
  kInt64 = 4,
  kComplexDouble = 5,  // two doubles (real, imaginary)
  kInt8 = 6,
  kUInt8 = 7,
  kInt16 = 8,
  kUInt16 = 9,
  kUInt32 = 10,
  kUInt64 = 11,
  kComplexFloat = 12,  // two floats (real, imaginary)
};

// The lowest and highest values, for loops over every type.
constexpr int kFirstElementType = 1;
constexpr int kLastElementType = 12;

// Bytes per element (0 for a value outside the enum).
size_t element_size(ElementType t);
// Static text for messages ("double", "int32", ...).
const char* element_name(ElementType t);
// Whether t is one of ElementType's values (checks caller input before a cast).
bool valid_element_type(int t);
// Whether t is an integer type (signed or unsigned).
bool is_integer(ElementType t);
// Whether t is complex (two reals per element).
bool is_complex(ElementType t);

}  // namespace pario
