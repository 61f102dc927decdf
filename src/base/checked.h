// Overflow-checked arithmetic for sizes and offsets that come from a caller
// or a file: start + count, the product of extents, elements * element size.
// A wrapped value would pass a bounds check and then index outside a buffer
// (a disk start near INT64_MAX once corrupted the heap), so every such
// computation goes through these.
//
// Thread safety: pure functions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace pario {

// a + b and a * b, false when the result does not fit an int64_t.
inline bool checked_add(int64_t a, int64_t b, int64_t* out) { return !__builtin_add_overflow(a, b, out); }
inline bool checked_mul(int64_t a, int64_t b, int64_t* out) { return !__builtin_mul_overflow(a, b, out); }

// The product of n non-negative values, false on overflow (0 when any is
// 0, however large the others: an empty array is not an overflow).
inline bool checked_product(const int64_t* v, size_t n, int64_t* out) {
  for (size_t i = 0; i < n; ++i) {
    if (v[i] == 0) {
      *out = 0;
      return true;
    }
  }
  int64_t p = 1;
  for (size_t i = 0; i < n; ++i) {
    if (!checked_mul(p, v[i], &p)) return false;
  }
  *out = p;
  return true;
}

// The bytes of n extents of elements of esize bytes each, false when
// either product does not fit an int64_t.
inline bool checked_bytes(const int64_t* v, size_t n, int64_t esize, int64_t* out) {
  int64_t elements = 0;
  return checked_product(v, n, &elements) && checked_mul(elements, esize, out);
}

// [start, start + count) lies inside [0, extent): all three checked, with
// no sum formed that could wrap.
inline bool inside(int64_t start, int64_t count, int64_t extent) {
  return start >= 0 && count >= 0 && start <= extent && count <= extent - start;
}

// ceil(a / b) for a >= 0 and b > 0, without forming a + b - 1 (which
// wraps for an extent near INT64_MAX).
inline int64_t ceil_div(int64_t a, int64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

}  // namespace pario
