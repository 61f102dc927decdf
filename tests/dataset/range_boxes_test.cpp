// range_boxes (dataset/target.h) against brute force: for random shapes of
// 1 to kMaxDims dims and random flat ranges, the boxes walked in order in C
// order give exactly the range's indices, in order, with at most
// 2·ndim − 1 boxes and none empty.
#include <gtest/gtest.h>

#include <random>

#include "dataset/target.h"

namespace pario::dataset {
namespace {

int64_t flat(int ndim, const Shape& dims, const Shape& index) {
  int64_t f = 0;
  for (int d = 0; d < ndim; ++d) f = f * dims[d] + index[d];
  return f;
}

void check(int ndim, const Shape& dims, int64_t begin, int64_t end) {
  const std::vector<Box> boxes = range_boxes(ndim, dims, begin, end);
  EXPECT_LE(static_cast<int>(boxes.size()), begin < end ? 2 * ndim - 1 : 0);
  int64_t next = begin;
  bool good = true;
  for (const Box& b : boxes) {
    EXPECT_EQ(b.ndim, ndim);
    EXPECT_GT(b.elements(), 0);
    for (int d = 0; d < ndim; ++d) {
      good &= b.start[d] >= 0 && b.count[d] >= 0 && b.start[d] + b.count[d] <= dims[d];
    }
    for_each_index(b, [&](const Shape& index) { good &= flat(ndim, dims, index) == next++; });
  }
  EXPECT_TRUE(good) << "ndim " << ndim << " range [" << begin << ", " << end << ")";
  EXPECT_EQ(next, end);
}

TEST(RangeBoxes, MatchesBruteForceOnRandomShapes) {
  std::mt19937_64 rng(26);
  for (int trial = 0; trial < 3000; ++trial) {
    const int ndim = 1 + static_cast<int>(rng() % kMaxDims);
    Shape dims{};
    int64_t total = 1;
    for (int d = 0; d < ndim; ++d) {
      dims[d] = 1 + static_cast<int64_t>(rng() % (ndim > 4 ? 3 : 6));
      total *= dims[d];
    }
    int64_t a = static_cast<int64_t>(rng() % (total + 1)), b = static_cast<int64_t>(rng() % (total + 1));
    if (a > b) std::swap(a, b);
    check(ndim, dims, a, b);
  }
}

TEST(RangeBoxes, EdgesAndWholeArrays) {
  const Shape dims{4, 5, 6};
  check(3, dims, 0, 120);  // one box
  EXPECT_EQ(range_boxes(3, dims, 0, 120).size(), 1u);
  check(3, dims, 1, 119);  // the most: 2·3 − 1
  EXPECT_EQ(range_boxes(3, dims, 1, 119).size(), 5u);
  check(3, dims, 7, 7);
  check(3, dims, 6, 12);   // one row
  EXPECT_EQ(range_boxes(3, dims, 6, 12).size(), 1u);
  check(1, Shape{10}, 3, 9);
  const Shape with_zero{3, 0, 4};
  EXPECT_TRUE(range_boxes(3, with_zero, 0, 0).empty());
}

}  // namespace
}  // namespace pario::dataset
