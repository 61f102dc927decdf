// How a global array's index space is cut into patches, one per rank.
//
// An N-d array (N <= kMaxDims) of shape dims[] is cut along each dimension d
// at the block boundaries starts[d] (strictly increasing, starts[d][0] == 0);
// the blocks form a grid, and the patch at grid coordinates (i0, i1, ...) —
// numbered row-major over the grid — belongs to the rank with that number.
// Ranks beyond the number of patches own nothing. Three ways to make one:
//   block      GA's default: the grid is a factorisation of the rank count
//              chosen so that patches are close to square;
//   irregular  GA's NGA_Create_irreg: the caller gives the boundaries;
//   columns    DDI's: only dimension 0 (the slowest in C order, the columns
//              of a Fortran matrix) is cut, one contiguous block per rank,
//              so every patch is one contiguous piece of the array.
//
// Pure arithmetic, no MPI: every rank builds the same Distribution from the
// same arguments and answers "who owns this element" without talking.
//
// Thread safety: immutable after construction.
#pragma once

#include <cstdint>
#include <vector>

#include "base/box.h"
#include "base/status.h"

namespace pario::array {

class Distribution {
 public:
  Distribution() = default;  // empty: zero dimensions, no patches
  static Result<Distribution> block(const std::vector<int64_t>& dims, int ranks);
  // starts[d] lists the first index of each block along d.
  static Result<Distribution> irregular(const std::vector<int64_t>& dims,
                                        const std::vector<std::vector<int64_t>>& starts,
                                        int ranks);
  // first_index (ranks entries, or empty for an even split) gives the first
  // index along dimension 0 owned by each rank.
  static Result<Distribution> columns(const std::vector<int64_t>& dims,
                                      const std::vector<int64_t>& first_index, int ranks);

  int ndim() const { return static_cast<int>(dims_.size()); }
  const std::vector<int64_t>& dims() const { return dims_; }
  int64_t elements() const;
  int patches() const { return patches_; }
  // Blocks along dimension d.
  int blocks(int d) const { return static_cast<int>(starts_[d].size()); }
  const std::vector<int64_t>& starts(int d) const { return starts_[d]; }

  // The patch a rank owns (empty for ranks without one).
  Box patch(int rank) const;
  // The whole array as a box.
  Box whole() const;

  // Calls fn(rank, piece) for every patch overlapping `section`, with the
  // overlap; in rank order. The section must lie inside the array.
  template <typename Fn>
  void for_each_owner(const Box& section, Fn&& fn) const;

 private:
  Distribution(std::vector<int64_t> dims, std::vector<std::vector<int64_t>> starts);
  // First and one-past-last block along d overlapping [lo, lo + n).
  void block_range(int d, int64_t lo, int64_t n, int* first, int* last) const;

  std::vector<int64_t> dims_;
  std::vector<std::vector<int64_t>> starts_;
  int patches_ = 0;
};

// Checks that `section` has the array's rank and lies inside it; the
// message names the first offending dimension.
Status check_section(const Distribution& dist, const Box& section);

template <typename Fn>
void Distribution::for_each_owner(const Box& section, Fn&& fn) const {
  if (section.empty()) return;
  const int n = ndim();
  Box blocks_touched;  // in the block grid
  blocks_touched.ndim = n;
  for (int d = 0; d < n; ++d) {
    int first = 0, last = 0;
    block_range(d, section.start[d], section.count[d], &first, &last);
    blocks_touched.start[d] = first;
    blocks_touched.count[d] = last - first;
  }
  for_each_index(blocks_touched, [&](const Shape& at) {
    int rank = 0;
    for (int d = 0; d < n; ++d) rank = rank * blocks(d) + static_cast<int>(at[d]);
    fn(rank, patch(rank).intersect(section));
  });
}

}  // namespace pario::array
