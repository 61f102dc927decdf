// N-d index vocabulary shared by every layer that moves array sections:
// the largest rank pario handles, a shape, and a rectangular section.
//
// Plain values, no MPI and no ownership: global arrays (array/), disk
// arrays (diskarray/) and the C API all describe sections with these.
//
// Thread safety: values; safe to copy and read from any thread.
#pragma once

#include <array>
#include <cstdint>

namespace pario {

constexpr int kMaxDims = 7;

// Extents or strides, one per dimension.
using Shape = std::array<int64_t, kMaxDims>;

// A rectangular section: start and count per dimension (count may be 0).
struct Box {
  int ndim = 0;
  std::array<int64_t, kMaxDims> start{};
  std::array<int64_t, kMaxDims> count{};

  int64_t elements() const;
  bool empty() const { return elements() == 0; }
  // The overlap of two boxes of the same rank (possibly empty).
  Box intersect(const Box& other) const;
};

}  // namespace pario
