// Where a rank's elements sit in a flat global index space, as runs: the
// pure first step of a decomposition (collective/decomposition.h).
//
// A run is `length` consecutive global indices starting at `global`, held
// at consecutive memory positions starting at `memory` (in elements of the
// caller's buffer). Every way a rank describes its part (N-d blocks in C or
// Fortran order, an explicit index list) becomes a list of runs sorted by
// global index: the order in which this rank's elements are packed and
// sent, so each aggregator receives each sender's elements in increasing
// file order. The memory side of the list is the permutation the engine
// applies on the way.
//
// Thread safety: pure functions of their arguments.
#pragma once

#include <cstdint>
#include <vector>

#include "base/box.h"
#include "base/status.h"

namespace pario::collective {

struct Run {
  int64_t global = 0;  // first flat global index
  int64_t length = 0;  // elements (> 0)
  int64_t memory = 0;  // position of its first element in the caller's buffer
};

// A rank's elements as sorted runs, and what the sort found.
struct SortedRuns {
  std::vector<Run> runs;    // increasing global index, each maximal
  int64_t elements = 0;     // sum of lengths
  bool overlaps = false;    // some global index occurs twice on this rank
};

enum class IndexOrder { kC, kFortran };

// The runs of blocks of a global shape `dims` (ndim dims), each block dense
// in memory in `order`, one after another in the order given. Errors
// (kInvalidArgument / kOutOfRange) name the block and dimension: a block
// outside the shape, a negative count, a global space or element count
// that overflows int64.
Result<SortedRuns> runs_of_blocks(int ndim, const Shape& dims, IndexOrder order,
                                  const std::vector<Box>& blocks);
// The runs of an explicit list: element k of memory at global indices[k],
// each in [0, global_size) (kOutOfRange names the first one outside).
Result<SortedRuns> runs_of_indices(int64_t global_size, const int64_t* indices, int64_t n);

// Sorts runs by global index, joins neighbours contiguous in both global
// and memory positions, and flags overlap. (Exposed for tests.)
SortedRuns sort_runs(std::vector<Run> runs);

}  // namespace pario::collective
