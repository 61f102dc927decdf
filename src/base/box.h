// N-d index vocabulary shared by every layer that moves array sections:
// the largest rank pario handles, a shape, and a rectangular section.
//
// Plain values, no MPI and no ownership: global arrays (array/), disk
// arrays (diskarray/) and the C API all describe sections with these.
// Every N-d walk over a box goes through for_each_index (each index) or
// for_each_row (each contiguous innermost row, for copies): one odometer,
// tested once, instead of one per loop.
//
// Thread safety: values; safe to copy and read from any thread.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

namespace pario {

constexpr int kMaxDims = 7;

// Extents or strides, one per dimension.
using Shape = std::array<int64_t, kMaxDims>;

// A rectangular section: start and count per dimension (count may be 0).
struct Box {
  int ndim = 0;
  std::array<int64_t, kMaxDims> start{};
  std::array<int64_t, kMaxDims> count{};

  int64_t elements() const {
    int64_t n = ndim > 0 ? 1 : 0;
    for (int d = 0; d < ndim; ++d) n *= count[d];
    return n;
  }
  bool empty() const { return elements() == 0; }
  // The overlap of two boxes of the same rank (possibly empty).
  Box intersect(const Box& other) const;
};

namespace box_detail {

// Calls fn; a callback returning bool stops the walk with false, any
// other return type never stops it.
template <typename Fn, typename... Args>
inline bool visit(Fn& fn, const Args&... args) {
  if constexpr (std::is_same_v<std::invoke_result_t<Fn&, const Args&...>, bool>) {
    return fn(args...);
  } else {
    fn(args...);
    return true;
  }
}

// Steps index to the next one in row-major order over dimensions
// [0, last]; false (and index back at box.start) after the last one.
inline bool next_index(const Box& box, int last, Shape& index) {
  for (int d = last; d >= 0; --d) {
    if (++index[d] < box.start[d] + box.count[d]) return true;
    index[d] = box.start[d];
  }
  return false;
}

}  // namespace box_detail

// Calls fn(index) for every index of box in row-major order (the last
// dimension fastest); index is a const Shape& whose first box.ndim entries
// are set. Nothing for an empty box (a count of 0, or ndim 0). fn may
// return bool: false stops the walk. Inline: the caller's loop, without a
// call per index.
template <typename Fn>
void for_each_index(const Box& box, Fn&& fn) {
  if (box.empty()) return;
  Shape index = box.start;
  do {
    if (!box_detail::visit(fn, index)) return;
  } while (box_detail::next_index(box, box.ndim - 1, index));
}

// Calls fn(start, length) for each innermost row of box in row-major
// order: start is the index of its first element (a const Shape&, the
// last entry box.start[ndim - 1]) and length count[ndim - 1], the same
// for every row. Nothing for an empty box. fn may return bool: false
// stops the walk. For copies: a row is contiguous in any row-major
// layout, so fn moves it whole.
template <typename Fn>
void for_each_row(const Box& box, Fn&& fn) {
  if (box.empty()) return;
  const int64_t length = box.count[box.ndim - 1];
  Shape start = box.start;
  do {
    if (!box_detail::visit(fn, start, length)) return;
  } while (box_detail::next_index(box, box.ndim - 2, start));
}

}  // namespace pario
