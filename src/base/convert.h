// Conversion between pario's element types, and byte order: how data is
// permuted on its way between memory and a file whose element type or byte
// order differs from the program's (issue 25, "permutation on the way").
//
// Every pair of the 12 element types converts. Conversions that can lose
// a value's magnitude are checked, never wrapped or saturated: the first
// element out of range stops the conversion with kOutOfRange, its index in
// *first_bad, the elements before it converted and those after it not
// touched. Conversions that only lose precision (int64 to double, double
// to float within float's range) round as C does and are not errors.
//
// Pure functions, no MPI, no allocation. Buffers may be unaligned.
// Thread safety: pure functions; concurrent calls on disjoint buffers.
#pragma once

#include <cstddef>

#include "base/element_type.h"
#include "base/status.h"

namespace pario {

enum class ByteOrder : int { kNative = 0, kLittle = 1, kBig = 2 };

// True when bytes in `order` must be swapped on this machine (false for
// kNative and for a value outside the enum).
bool needs_swap(ByteOrder order);

// Converts n elements of type `from` at src into type `to` at dst (dst and src
// must not overlap unless from == to and dst == src), then puts dst in byte
// order `order` (src is native). Integers to integers and floats to integers
// (truncating toward zero) are checked: a value out of the range of `to`
// (or a NaN/inf into an integer, a finite double beyond FLT_MAX into float)
// stops the conversion with kOutOfRange naming the element index, its value
// and the two types, and *first_bad (if not null) gets its index; elements
// before it are converted. Real to complex sets the imaginary part to 0;
// complex to real requires a zero imaginary part (else kOutOfRange).
// Same type and native order: a memcpy.
// Other errors: kInvalidArgument for a type or order outside its enum, or
// a null buffer with n > 0 (nothing written). *first_bad is written only
// on kOutOfRange. NaN and infinities convert between float and double.
Status convert(ElementType from, const void* src, ElementType to, void* dst, size_t n,
               ByteOrder order = ByteOrder::kNative, size_t* first_bad = nullptr);

// The reverse direction for reads: src holds n elements of `from` in byte
// order `order`; dst gets them as native `to`, checked the same way. src
// is not modified.
Status convert_from(ElementType from, const void* src, ByteOrder order, ElementType to, void* dst,
                    size_t n, size_t* first_bad = nullptr);

// Whether some value of `from` can fail to convert to `to` (a narrowing,
// a change of sign, float to integer, complex to real): the pairs
// convert() checks. False for an invalid type.
bool conversion_can_fail(ElementType from, ElementType to);
// Checks, without converting, that all n native elements of `from` at src
// convert to `to`: convert()'s verdict, status and *first_bad, at the cost
// of its range check alone (nothing is written).
Status check_convertible(ElementType from, const void* src, ElementType to, size_t n, size_t* first_bad = nullptr);
// Swaps each element's bytes in place (each half of a complex separately).
// A type outside the enum leaves buf as it is.
void swap_bytes(ElementType type, void* buf, size_t n);

}  // namespace pario
