#include "base/box.h"

#include <algorithm>

namespace pario {

Box Box::intersect(const Box& other) const {
  Box r;
  r.ndim = ndim;
  for (int d = 0; d < ndim; ++d) {
    int64_t lo = std::max(start[d], other.start[d]);
    int64_t hi = std::min(start[d] + count[d], other.start[d] + other.count[d]);
    r.start[d] = lo;
    r.count[d] = std::max<int64_t>(0, hi - lo);
  }
  return r;
}

}  // namespace pario
