#include "array/distribution.h"

#include <algorithm>
#include <limits>
#include <string>

#include "base/checked.h"

namespace pario::array {
namespace {

Status invalid(const std::string& what) { return Status(Code::kInvalidArgument, what); }

Status check_dims(const std::vector<int64_t>& dims, int ranks) {
  if (dims.empty() || dims.size() > kMaxDims) {
    return invalid("number of dimensions " + std::to_string(dims.size()) + " is not in 1.." +
                   std::to_string(kMaxDims));
  }
  if (ranks < 1) return invalid("no ranks to distribute over");
  int64_t total = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] < 1) {
      return invalid("dimension " + std::to_string(d) + " has extent " + std::to_string(dims[d]) +
                     " (must be >= 1)");
    }
    if (total > std::numeric_limits<int64_t>::max() / dims[d]) return invalid("array has more than 2^63 elements");
    total *= dims[d];
  }
  return Status::Ok();
}

// Balanced split of n into p blocks: sizes differ by at most one.
std::vector<int64_t> even_starts(int64_t n, int p) {
  std::vector<int64_t> s(p);
  for (int b = 0; b < p; ++b) s[b] = static_cast<int64_t>((static_cast<__int128>(n) * b) / p);
  return s;
}

// Cost of a process grid: the largest patch's surface-like measure (sum of
// its extents), which favours square patches and thus fewer remote
// neighbours per section; ties prefer cutting slower dimensions.
int64_t grid_cost(const std::vector<int64_t>& dims, const std::vector<int>& grid) {
  int64_t cost = 0;
  for (size_t d = 0; d < dims.size(); ++d) cost += (dims[d] + grid[d] - 1) / grid[d];
  return cost;
}

void best_grid(const std::vector<int64_t>& dims, int remaining, size_t d, std::vector<int>& grid,
               std::vector<int>& best, int64_t& best_cost) {
  if (d + 1 == dims.size()) {
    if (remaining > dims[d]) return;
    grid[d] = remaining;
    int64_t c = grid_cost(dims, grid);
    if (c < best_cost) {
      best_cost = c;
      best = grid;
    }
    return;
  }
  for (int f = remaining; f >= 1; --f) {  // larger factors first: slow dims cut first on ties
    if (remaining % f != 0 || f > dims[d]) continue;
    grid[d] = f;
    best_grid(dims, remaining / f, d + 1, grid, best, best_cost);
  }
}

}  // namespace

Distribution::Distribution(std::vector<int64_t> dims, std::vector<std::vector<int64_t>> starts)
    : dims_(std::move(dims)), starts_(std::move(starts)) {
  patches_ = 1;
  for (const auto& s : starts_) patches_ *= static_cast<int>(s.size());
}

Result<Distribution> Distribution::block(const std::vector<int64_t>& dims, int ranks) {
  PARIO_RETURN_IF_ERROR(check_dims(dims, ranks));
  // Use as many ranks as the shape allows: with fewer elements than ranks,
  // or a prime rank count larger than every extent, some ranks hold nothing.
  for (int p = ranks; p >= 1; --p) {
    std::vector<int> grid(dims.size(), 1), best;
    int64_t best_cost = std::numeric_limits<int64_t>::max();
    best_grid(dims, p, 0, grid, best, best_cost);
    if (best.empty()) continue;
    std::vector<std::vector<int64_t>> starts;
    for (size_t d = 0; d < dims.size(); ++d) starts.push_back(even_starts(dims[d], best[d]));
    return Distribution(dims, std::move(starts));
  }
  return Status(Code::kInternal, "no process grid found");  // p == 1 always fits
}

Result<Distribution> Distribution::irregular(const std::vector<int64_t>& dims,
                                             const std::vector<std::vector<int64_t>>& starts,
                                             int ranks) {
  PARIO_RETURN_IF_ERROR(check_dims(dims, ranks));
  if (starts.size() != dims.size()) {
    return invalid("block boundaries given for " + std::to_string(starts.size()) + " of " +
                   std::to_string(dims.size()) + " dimensions");
  }
  int64_t patches = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    const auto& s = starts[d];
    const std::string where = "dimension " + std::to_string(d) + ": ";
    if (s.empty()) return invalid(where + "no blocks");
    if (s[0] != 0) return invalid(where + "the first block starts at " + std::to_string(s[0]) + ", not 0");
    for (size_t b = 1; b < s.size(); ++b) {
      if (s[b] <= s[b - 1] || s[b] >= dims[d]) {
        return invalid(where + "block start " + std::to_string(s[b]) +
                       " is not increasing or not inside the extent " + std::to_string(dims[d]));
      }
    }
    patches *= static_cast<int64_t>(s.size());
  }
  if (patches > ranks) {
    return invalid(std::to_string(patches) + " blocks for " + std::to_string(ranks) +
                   " ranks (at most one block per rank)");
  }
  return Distribution(dims, starts);
}

Result<Distribution> Distribution::columns(const std::vector<int64_t>& dims,
                                           const std::vector<int64_t>& first_index, int ranks) {
  PARIO_RETURN_IF_ERROR(check_dims(dims, ranks));
  std::vector<std::vector<int64_t>> starts(dims.size(), std::vector<int64_t>{0});
  if (first_index.empty()) {
    starts[0] = even_starts(dims[0], static_cast<int>(std::min<int64_t>(dims[0], ranks)));
  } else {
    if (static_cast<int>(first_index.size()) != ranks) {
      return invalid("column boundaries give " + std::to_string(first_index.size()) +
                     " entries for " + std::to_string(ranks) + " ranks");
    }
    // Ranks whose first index equals the next rank's own no columns; the
    // grid keeps only the non-empty blocks, so rank numbers must be dense:
    // empty blocks are allowed only at the end.
    std::vector<int64_t> s;
    for (int r = 0; r < ranks; ++r) {
      int64_t next = r + 1 < ranks ? first_index[r + 1] : dims[0];
      if (first_index[r] < 0 || first_index[r] > next || next > dims[0]) {
        return invalid("column boundary of rank " + std::to_string(r) + " (" +
                       std::to_string(first_index[r]) + ") is out of order or outside 0.." +
                       std::to_string(dims[0]));
      }
      if (first_index[r] < next) {
        if (static_cast<int>(s.size()) != r) {
          return invalid("rank " + std::to_string(r) +
                         " owns columns after a rank that owns none (empty ranks must come last)");
        }
        s.push_back(first_index[r]);
      }
    }
    if (s.empty() || s[0] != 0) return invalid("column boundaries must start at 0");
    starts[0] = std::move(s);
  }
  return Distribution(dims, std::move(starts));
}

int64_t Distribution::elements() const {
  int64_t n = 1;
  for (int64_t d : dims_) n *= d;
  return n;
}

Box Distribution::whole() const {
  Box b;
  b.ndim = ndim();
  for (int d = 0; d < b.ndim; ++d) b.count[d] = dims_[d];
  return b;
}

Box Distribution::patch(int rank) const {
  Box b;
  b.ndim = ndim();
  if (rank < 0 || rank >= patches_) return b;  // all counts 0
  int rest = rank;
  for (int d = b.ndim - 1; d >= 0; --d) {
    int i = rest % blocks(d);
    rest /= blocks(d);
    b.start[d] = starts_[d][i];
    b.count[d] = (i + 1 < blocks(d) ? starts_[d][i + 1] : dims_[d]) - b.start[d];
  }
  return b;
}

void Distribution::block_range(int d, int64_t lo, int64_t n, int* first, int* last) const {
  const auto& s = starts_[d];
  *first = static_cast<int>(std::upper_bound(s.begin(), s.end(), lo) - s.begin()) - 1;
  *last = static_cast<int>(std::lower_bound(s.begin(), s.end(), lo + n) - s.begin());
}

Status check_section(const Distribution& dist, const Box& section) {
  if (section.ndim != dist.ndim()) {
    return invalid("section has " + std::to_string(section.ndim) + " dimensions, the array " +
                   std::to_string(dist.ndim()));
  }
  for (int d = 0; d < section.ndim; ++d) {
    const int64_t lo = section.start[d], n = section.count[d], extent = dist.dims()[d];
    if (!inside(lo, n, extent)) {  // no lo + n formed: it could wrap
      return Status(Code::kOutOfRange, "dimension " + std::to_string(d) + ": section of start " +
                                           std::to_string(lo) + " and count " + std::to_string(n) +
                                           " is outside the extent " + std::to_string(extent));
    }
  }
  return Status::Ok();
}

}  // namespace pario::array
