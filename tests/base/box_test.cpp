// for_each_index and for_each_row (base/box.h): the one N-d walk every
// layer uses. Serial.
#include "base/box.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <utility>
#include <vector>

namespace pario {
namespace {

Box make_box(std::initializer_list<std::pair<int64_t, int64_t>> dims) {
  Box b;
  for (const auto& [start, count] : dims) {
    b.start[b.ndim] = start;
    b.count[b.ndim] = count;
    ++b.ndim;
  }
  return b;
}

std::vector<std::vector<int64_t>> indices(const Box& b) {
  std::vector<std::vector<int64_t>> out;
  for_each_index(b, [&](const Shape& at) { out.emplace_back(at.begin(), at.begin() + b.ndim); });
  return out;
}

struct Row {
  std::vector<int64_t> start;
  int64_t length;
  bool operator==(const Row& o) const { return start == o.start && length == o.length; }
};

std::vector<Row> rows(const Box& b) {
  std::vector<Row> out;
  for_each_row(b, [&](const Shape& at, int64_t n) { out.push_back({{at.begin(), at.begin() + b.ndim}, n}); });
  return out;
}

TEST(ForEachIndex, OneDimension) {
  EXPECT_EQ(indices(make_box({{3, 4}})), (std::vector<std::vector<int64_t>>{{3}, {4}, {5}, {6}}));
}

TEST(ForEachIndex, RowMajorLastDimensionFastest) {
  EXPECT_EQ(indices(make_box({{1, 2}, {5, 3}})),
            (std::vector<std::vector<int64_t>>{{1, 5}, {1, 6}, {1, 7}, {2, 5}, {2, 6}, {2, 7}}));
}

TEST(ForEachIndex, VisitsEveryIndexOnceInThreeDimensions) {
  const Box b = make_box({{-2, 3}, {0, 1}, {7, 4}});
  const auto all = indices(b);
  ASSERT_EQ(static_cast<int64_t>(all.size()), b.elements());
  for (size_t i = 1; i < all.size(); ++i) EXPECT_LT(all[i - 1], all[i]);  // strictly increasing: row-major
  EXPECT_EQ(all.front(), (std::vector<int64_t>{-2, 0, 7}));
  EXPECT_EQ(all.back(), (std::vector<int64_t>{0, 0, 10}));
}

TEST(ForEachIndex, SevenDimensions) {
  Box b;
  b.ndim = kMaxDims;
  for (int d = 0; d < kMaxDims; ++d) b.count[d] = 2;
  EXPECT_EQ(indices(b).size(), size_t{1} << kMaxDims);
}

TEST(ForEachIndex, EmptyBoxesVisitNothing) {
  EXPECT_TRUE(indices(make_box({{0, 0}})).empty());
  EXPECT_TRUE(indices(make_box({{0, 3}, {4, 0}})).empty());
  EXPECT_TRUE(indices(make_box({{0, 0}, {4, 5}})).empty());
  EXPECT_TRUE(indices(Box{}).empty());  // ndim 0 is empty too (Box::elements)
}

TEST(ForEachIndex, FalseStops) {
  int seen = 0;
  for_each_index(make_box({{0, 4}, {0, 4}}), [&](const Shape& at) {
    ++seen;
    return !(at[0] == 1 && at[1] == 2);
  });
  EXPECT_EQ(seen, 7);
}

TEST(ForEachRow, OneDimensionIsOneRow) {
  EXPECT_EQ(rows(make_box({{5, 9}})), (std::vector<Row>{{{5}, 9}}));
}

TEST(ForEachRow, RowsInOrderWithTheirStarts) {
  EXPECT_EQ(rows(make_box({{1, 2}, {3, 2}, {10, 4}})),
            (std::vector<Row>{{{1, 3, 10}, 4}, {{1, 4, 10}, 4}, {{2, 3, 10}, 4}, {{2, 4, 10}, 4}}));
}

TEST(ForEachRow, CountsAreElementsOverTheRowLength) {
  const Box b = make_box({{0, 3}, {2, 5}, {1, 7}});
  const auto r = rows(b);
  EXPECT_EQ(static_cast<int64_t>(r.size()), b.elements() / b.count[2]);
  int64_t total = 0;
  for (const Row& row : r) total += row.length;
  EXPECT_EQ(total, b.elements());
}

TEST(ForEachRow, AgreesWithForEachIndex) {
  const Box b = make_box({{4, 3}, {-1, 2}, {0, 3}});
  std::vector<std::vector<int64_t>> from_rows;
  for_each_row(b, [&](const Shape& at, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      std::vector<int64_t> index(at.begin(), at.begin() + b.ndim);
      index.back() += i;
      from_rows.push_back(index);
    }
  });
  EXPECT_EQ(from_rows, indices(b));
}

TEST(ForEachRow, EmptyBoxesVisitNothing) {
  EXPECT_TRUE(rows(make_box({{0, 0}})).empty());
  EXPECT_TRUE(rows(make_box({{0, 0}, {0, 8}})).empty());
  EXPECT_TRUE(rows(make_box({{0, 8}, {0, 0}})).empty());
  EXPECT_TRUE(rows(Box{}).empty());
}

TEST(ForEachRow, FalseStops) {
  int seen = 0;
  for_each_row(make_box({{0, 5}, {0, 3}}), [&](const Shape&, int64_t) { return ++seen < 2; });
  EXPECT_EQ(seen, 2);
}

}  // namespace
}  // namespace pario
