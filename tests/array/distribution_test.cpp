#include "array/distribution.h"

#include <gtest/gtest.h>

#include <numeric>

namespace pario::array {
namespace {

Box box2(int64_t r0, int64_t n0, int64_t r1, int64_t n1) {
  Box b;
  b.ndim = 2;
  b.start[0] = r0;
  b.count[0] = n0;
  b.start[1] = r1;
  b.count[1] = n1;
  return b;
}

// The patches of all ranks tile the array exactly once.
void expect_tiles(const Distribution& d, int ranks) {
  int64_t total = 0;
  for (int r = 0; r < ranks; ++r) total += d.patch(r).elements();
  EXPECT_EQ(total, d.elements());
  for (int r = 0; r < ranks; ++r) {
    for (int q = r + 1; q < ranks; ++q) EXPECT_TRUE(d.patch(r).intersect(d.patch(q)).empty());
  }
}

TEST(Distribution, BlockPrefersSquarePatches) {
  auto d = Distribution::block({100, 100}, 4).value();
  EXPECT_EQ(d.blocks(0), 2);
  EXPECT_EQ(d.blocks(1), 2);
  expect_tiles(d, 4);
  auto tall = Distribution::block({1000, 4}, 4).value();
  EXPECT_EQ(tall.blocks(0), 4);  // cutting the long dimension keeps patches square-ish
  expect_tiles(tall, 4);
}

TEST(Distribution, BlockLeavesRanksEmptyWhenTheShapeIsTooSmall) {
  auto d = Distribution::block({3}, 4).value();
  EXPECT_EQ(d.patches(), 3);
  EXPECT_TRUE(d.patch(3).empty());
  expect_tiles(d, 4);
  auto p = Distribution::block({5, 5}, 7).value();  // 7 is prime and larger than 5
  EXPECT_LE(p.patches(), 7);
  expect_tiles(p, 7);
}

TEST(Distribution, IrregularChecksItsBoundaries) {
  EXPECT_TRUE(Distribution::irregular({10, 10}, {{0, 3}, {0, 5}}, 4).ok());
  EXPECT_EQ(Distribution::irregular({10, 10}, {{1, 3}, {0}}, 4).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(Distribution::irregular({10, 10}, {{0, 3, 3}, {0}}, 4).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(Distribution::irregular({10, 10}, {{0, 3, 10}, {0}}, 4).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(Distribution::irregular({10, 10}, {{0, 3, 6}, {0, 5}}, 4).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(Distribution::irregular({10}, {{0}, {0}}, 4).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(Distribution::block({0, 3}, 2).status().code(), Code::kInvalidArgument);
  EXPECT_EQ(Distribution::block({1, 1, 1, 1, 1, 1, 1, 1}, 2).status().code(), Code::kInvalidArgument);
}

TEST(Distribution, ColumnsCutOnlyTheSlowestDimension) {
  auto d = Distribution::columns({10, 7}, {}, 3).value();
  EXPECT_EQ(d.blocks(0), 3);
  EXPECT_EQ(d.blocks(1), 1);
  expect_tiles(d, 3);
  auto custom = Distribution::columns({10, 7}, {0, 2, 9}, 3).value();
  EXPECT_EQ(custom.patch(1).start[0], 2);
  EXPECT_EQ(custom.patch(1).count[0], 7);
  EXPECT_EQ(custom.patch(2).count[0], 1);
  auto trailing_empty = Distribution::columns({10, 7}, {0, 10, 10}, 3).value();
  EXPECT_EQ(trailing_empty.patches(), 1);
  EXPECT_FALSE(Distribution::columns({10, 7}, {0, 0, 5}, 3).ok());  // empty rank in the middle
  EXPECT_FALSE(Distribution::columns({10, 7}, {0, 5}, 3).ok());     // wrong length
}

TEST(Distribution, OwnersCoverASectionExactly) {
  auto d = Distribution::irregular({10, 12}, {{0, 4, 7}, {0, 5}}, 6).value();
  Box s = box2(2, 7, 3, 6);
  int64_t covered = 0;
  std::vector<int> ranks;
  d.for_each_owner(s, [&](int rank, const Box& piece) {
    ranks.push_back(rank);
    EXPECT_EQ(piece.intersect(d.patch(rank)).elements(), piece.elements());
    EXPECT_EQ(piece.intersect(s).elements(), piece.elements());
    covered += piece.elements();
  });
  EXPECT_EQ(covered, s.elements());
  EXPECT_EQ(ranks, (std::vector<int>{0, 1, 2, 3, 4, 5}));
  Box inside = box2(5, 1, 6, 2);
  ranks.clear();
  d.for_each_owner(inside, [&](int rank, const Box&) { ranks.push_back(rank); });
  EXPECT_EQ(ranks, (std::vector<int>{3}));
}

TEST(Distribution, SectionCheckNamesTheDimension) {
  auto d = Distribution::block({10, 10}, 2).value();
  Status s = check_section(d, box2(0, 10, 5, 6));
  EXPECT_EQ(s.code(), Code::kOutOfRange);
  EXPECT_NE(s.message().find("dimension 1"), std::string::npos);
  EXPECT_TRUE(check_section(d, box2(10, 0, 0, 10)).ok());  // empty at the edge is fine
  EXPECT_EQ(check_section(d, box2(-1, 1, 0, 1)).code(), Code::kOutOfRange);
}

}  // namespace
}  // namespace pario::array
