#include "collective/layout.h"

#include <algorithm>
#include <string>
#include <utility>

#include "base/checked.h"
#include "collective/sort_pairs.h"

namespace pario::collective {
namespace {

// Appends a run, joining it to the last one when both positions continue it.
void append(std::vector<Run>& runs, int64_t global, int64_t length, int64_t memory) {
  if (!runs.empty()) {
    Run& last = runs.back();
    if (last.global + last.length == global && last.memory + last.length == memory) {
      last.length += length;
      return;
    }
  }
  runs.push_back({global, length, memory});
}

SortedRuns finish(std::vector<Run> runs, int64_t elements) {
  // Blocks given in increasing order (z-slabs, one block per rank) need no sort.
  const bool sorted = std::is_sorted(runs.begin(), runs.end(),
                                     [](const Run& a, const Run& b) { return a.global < b.global; });
  SortedRuns out = sorted ? SortedRuns{std::move(runs), 0, false} : sort_runs(std::move(runs));
  out.elements = elements;
  for (size_t i = 1; i < out.runs.size(); ++i) {
    const Run& a = out.runs[i - 1];
    if (a.global + a.length > out.runs[i].global) out.overlaps = true;
  }
  return out;
}

}  // namespace

SortedRuns sort_runs(std::vector<Run> runs) {
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) {
    return a.global != b.global ? a.global < b.global : a.memory < b.memory;
  });
  SortedRuns out;
  for (const Run& r : runs) {
    if (!out.runs.empty()) {
      const Run& last = out.runs.back();
      if (last.global + last.length > r.global) out.overlaps = true;
    }
    append(out.runs, r.global, r.length, r.memory);
    out.elements += r.length;
  }
  return out;
}

Result<SortedRuns> runs_of_blocks(int ndim, const Shape& dims, IndexOrder order,
                                  const std::vector<Box>& blocks) {
  if (ndim < 1 || ndim > kMaxDims) {
    return Status(Code::kInvalidArgument, "ndim " + std::to_string(ndim) + " is not in 1.." +
                                              std::to_string(kMaxDims));
  }
  for (int d = 0; d < ndim; ++d) {
    if (dims[d] < 0) {
      return Status(Code::kInvalidArgument, "dims[" + std::to_string(d) + "] is negative");
    }
  }
  int64_t global_size = 0;
  if (!checked_product(dims.data(), ndim, &global_size)) {
    return Status(Code::kInvalidArgument, "the global shape has more than 2^63 elements");
  }
  // A Fortran-order block is the C-order block of the reversed shape: the
  // same flat indices, the same memory layout.
  Shape shape = dims;
  if (order == IndexOrder::kFortran) std::reverse(shape.begin(), shape.begin() + ndim);
  Shape stride{};
  stride[ndim - 1] = 1;
  for (int d = ndim - 2; d >= 0; --d) stride[d] = stride[d + 1] * shape[d + 1];

  std::vector<Run> runs;
  int64_t memory = 0;
  for (size_t b = 0; b < blocks.size(); ++b) {
    Box box = blocks[b];
    if (box.ndim != ndim) {
      return Status(Code::kInvalidArgument, "block " + std::to_string(b) + " has " +
                                                std::to_string(box.ndim) + " dims, not " + std::to_string(ndim));
    }
    if (order == IndexOrder::kFortran) {
      std::reverse(box.start.begin(), box.start.begin() + ndim);
      std::reverse(box.count.begin(), box.count.begin() + ndim);
    }
    for (int d = 0; d < ndim; ++d) {
      if (!inside(box.start[d], box.count[d], shape[d])) {
        const int user_dim = order == IndexOrder::kFortran ? ndim - 1 - d : d;
        return Status(Code::kOutOfRange,
                      "block " + std::to_string(b) + " dimension " + std::to_string(user_dim) + ": [" +
                          std::to_string(box.start[d]) + ", +" + std::to_string(box.count[d]) +
                          ") is outside [0, " + std::to_string(shape[d]) + ")");
      }
    }
    int64_t end = 0;
    if (box.empty()) continue;
    if (!checked_add(memory, box.elements(), &end)) {
      return Status(Code::kInvalidArgument, "this rank's blocks hold more than 2^63 elements");
    }
    for_each_row(box, [&](const Shape& start, int64_t length) {
      int64_t global = 0;
      for (int d = 0; d < ndim; ++d) global += start[d] * stride[d];
      append(runs, global, length, memory);
      memory += length;
    });
  }
  return finish(std::move(runs), memory);
}

Result<SortedRuns> runs_of_indices(int64_t global_size, const int64_t* indices, int64_t n) {
  if (n < 0) return Status(Code::kInvalidArgument, "n is negative");
  if (n > 0 && indices == nullptr) return Status(Code::kInvalidArgument, "indices is NULL");
  bool sorted = true;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t g = indices[k];
    if (g < 0 || g >= global_size) {
      return Status(Code::kOutOfRange, "indices[" + std::to_string(k) + "] = " + std::to_string(g) +
                                           " is outside [0, " + std::to_string(global_size) + ")");
    }
    if (k > 0 && g < indices[k - 1]) sorted = false;
  }
  // The (index, position) pairs in index order: as given, or radix-sorted;
  // packed in one word each when both fit 32 bits (the usual case: half
  // the memory, and half the bytes moved per pass of the sort).
  std::vector<Pair> pairs;
  std::vector<uint64_t> packed;
  const bool narrow = global_size <= (int64_t{1} << 32) && n <= (int64_t{1} << 32);
  if (!sorted && narrow) {
    packed.resize(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) packed[k] = static_cast<uint64_t>(indices[k]) << 32 | static_cast<uint64_t>(k);
    int key_bytes = 0;
    while (key_bytes < 4 && ((global_size - 1) >> (8 * key_bytes)) > 0) ++key_bytes;
    std::vector<uint64_t> scratch(static_cast<size_t>(n));
    sort_packed(packed.data(), scratch.data(), static_cast<size_t>(n), key_bytes);
  } else if (!sorted) {
    pairs.resize(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) pairs[k] = Pair{indices[k], k};
    std::vector<Pair> scratch(static_cast<size_t>(n));
    sort_pairs(pairs.data(), scratch.data(), static_cast<size_t>(n));
  }
  auto index_at = [&](int64_t k) -> int64_t {
    if (sorted) return indices[k];
    return narrow ? static_cast<int64_t>(packed[k] >> 32) : pairs[k].key;
  };
  auto memory_at = [&](int64_t k) -> int64_t {
    if (sorted) return k;
    return narrow ? static_cast<int64_t>(packed[k] & 0xffffffffu) : pairs[k].index;
  };
  // Count the runs first: one allocation, not a doubling vector of
  // millions of runs (page faults were a fifth of a 10^7-index setup).
  size_t runs = n > 0 ? 1 : 0;
  for (int64_t k = 1; k < n; ++k) {
    if (index_at(k) != index_at(k - 1) + 1 || memory_at(k) != memory_at(k - 1) + 1) ++runs;
  }
  SortedRuns out;
  out.runs.reserve(runs);
  out.elements = n;
  for (int64_t k = 0; k < n; ++k) {
    if (k > 0 && index_at(k) == index_at(k - 1)) out.overlaps = true;
    append(out.runs, index_at(k), 1, memory_at(k));
  }
  return out;
}

}  // namespace pario::collective
