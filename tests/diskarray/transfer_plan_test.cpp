// The plan of a disk array transfer (diskarray/transfer_plan.h): the
// chunks a section touches, their order, their parts, and their movers.
// Serial: the plan is pure.
#include "diskarray/transfer_plan.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

namespace pario::diskarray {
namespace {

ZarrMeta meta_of(std::vector<int64_t> shape, std::vector<int64_t> chunks, std::vector<int64_t> shard = {},
                 bool fixed_slots = true) {
  ZarrMeta m;
  m.shape = std::move(shape);
  m.chunks = std::move(chunks);
  m.shard = std::move(shard);
  m.fixed_slots = m.sharded() && fixed_slots;
  return m;
}

Box box_of(std::vector<int64_t> start, std::vector<int64_t> count) {
  Box b;
  b.ndim = static_cast<int>(start.size());
  for (int d = 0; d < b.ndim; ++d) {
    b.start[d] = start[static_cast<size_t>(d)];
    b.count[d] = count[static_cast<size_t>(d)];
  }
  return b;
}

// Rank r holds patches[r] of the disk array in memory.
Holdings held_by(std::vector<Box> patches) {
  return [patches](const Box& part, const std::function<void(int, int64_t)>& add) {
    for (size_t r = 0; r < patches.size(); ++r) {
      const int64_t n = patches[r].intersect(part).elements();
      if (n > 0) add(static_cast<int>(r), n);
    }
  };
}

// One rank holds all.
Holdings all_on_rank0(int nd) {
  Box whole;
  whole.ndim = nd;
  for (int d = 0; d < nd; ++d) whole.count[d] = int64_t{1} << 40;
  return held_by({whole});
}

std::vector<std::vector<int64_t>> indices_of(const std::vector<PlannedChunk>& plan) {
  std::vector<std::vector<int64_t>> out;
  for (const PlannedChunk& c : plan) out.push_back(c.index);
  return out;
}

// Every element of the section is in exactly one part, and each part lies
// in its chunk, which is its grid index's chunk.
void expect_partition(const ZarrMeta& meta, const Box& section, const std::vector<PlannedChunk>& plan) {
  std::map<std::vector<int64_t>, int> seen;
  int64_t total = 0;
  for (const PlannedChunk& c : plan) {
    EXPECT_FALSE(c.part.empty());
    total += c.part.elements();
    const Box chunk = chunk_box(meta, c.index);
    EXPECT_EQ(chunk.start, c.chunk.start);
    EXPECT_EQ(chunk.count, c.chunk.count);
    EXPECT_EQ(c.chunk.intersect(c.part).elements(), c.part.elements());
    EXPECT_EQ(section.intersect(c.part).elements(), c.part.elements());
    for_each_index(c.part, [&](const Shape& at) { ++seen[{at.begin(), at.begin() + section.ndim}]; });
  }
  EXPECT_EQ(total, section.elements());
  EXPECT_EQ(static_cast<int64_t>(seen.size()), section.elements());
  for (const auto& [index, n] : seen) EXPECT_EQ(n, 1);
}

TEST(TransferPlan, AlignedOneDimension) {
  const ZarrMeta m = meta_of({100}, {10});
  const Box s = box_of({20}, {30});
  const auto plan = plan_transfer(m, s, false, false, 1, all_on_rank0(1));
  EXPECT_EQ(indices_of(plan), (std::vector<std::vector<int64_t>>{{2}, {3}, {4}}));
  for (const PlannedChunk& c : plan) {
    EXPECT_EQ(c.part.start, c.chunk.start);  // aligned: each part is its whole chunk
    EXPECT_EQ(c.part.count, c.chunk.count);
    EXPECT_EQ(c.group, c.index[0]);
    EXPECT_EQ(c.mover, 0);
  }
  expect_partition(m, s, plan);
}

TEST(TransferPlan, NonalignedTwoDimensionsRowMajor) {
  const ZarrMeta m = meta_of({10, 10}, {4, 4});
  const Box s = box_of({3, 5}, {4, 4});  // rows 3..6, columns 5..8
  const auto plan = plan_transfer(m, s, true, false, 1, all_on_rank0(2));
  EXPECT_EQ(indices_of(plan), (std::vector<std::vector<int64_t>>{{0, 1}, {0, 2}, {1, 1}, {1, 2}}));
  EXPECT_EQ(plan[0].part.start[0], 3);
  EXPECT_EQ(plan[0].part.count[0], 1);
  EXPECT_EQ(plan[0].part.start[1], 5);
  EXPECT_EQ(plan[0].part.count[1], 3);
  EXPECT_EQ(plan[3].part.count[0], 3);
  EXPECT_EQ(plan[3].part.count[1], 1);
  for (const PlannedChunk& c : plan) EXPECT_EQ(c.group, c.index[0] * 3 + c.index[1]);  // 3 chunks a row
  expect_partition(m, s, plan);
}

TEST(TransferPlan, RaggedEdgeChunks) {
  const ZarrMeta m = meta_of({10, 7}, {4, 4});
  const Box s = box_of({0, 0}, {10, 7});
  const auto plan = plan_transfer(m, s, false, false, 1, all_on_rank0(2));
  ASSERT_EQ(plan.size(), 6u);  // 3 x 2 chunks
  const PlannedChunk& last = plan.back();
  EXPECT_EQ(last.index, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(last.chunk.start[0], 8);
  EXPECT_EQ(last.chunk.count[0], 2);  // cut at the array's edge
  EXPECT_EQ(last.chunk.start[1], 4);
  EXPECT_EQ(last.chunk.count[1], 3);
  EXPECT_EQ(last.part.count, last.chunk.count);
  expect_partition(m, s, plan);
}

TEST(TransferPlan, ThreeDimensions) {
  const ZarrMeta m = meta_of({9, 11, 13}, {4, 3, 5});
  for (const Box& s : {box_of({0, 0, 0}, {9, 11, 13}), box_of({1, 2, 3}, {7, 8, 9}), box_of({8, 10, 12}, {1, 1, 1}),
                       box_of({3, 0, 4}, {1, 11, 2})}) {
    const auto plan = plan_transfer(m, s, false, false, 1, all_on_rank0(3));
    const Box grid = chunks_touched(m, s);
    EXPECT_EQ(static_cast<int64_t>(plan.size()), grid.elements());
    expect_partition(m, s, plan);
    for (size_t i = 1; i < plan.size(); ++i) EXPECT_LT(plan[i - 1].index, plan[i].index);  // row-major
  }
}

TEST(TransferPlan, EmptySectionsTouchNothing) {
  const ZarrMeta m = meta_of({10, 10}, {4, 4});
  for (const Box& s : {box_of({3, 3}, {0, 4}), box_of({3, 3}, {4, 0}), box_of({10, 10}, {0, 0})}) {
    EXPECT_TRUE(chunks_touched(m, s).empty());
    EXPECT_TRUE(plan_transfer(m, s, true, false, 4, all_on_rank0(2)).empty());
    EXPECT_TRUE(plan_transfer(m, s, true, true, 4, all_on_rank0(2)).empty());
  }
}

TEST(TransferPlan, ChunksTouched) {
  const ZarrMeta m = meta_of({10, 10}, {4, 4});
  const Box grid = chunks_touched(m, box_of({3, 4}, {2, 6}));
  EXPECT_EQ(grid.start[0], 0);
  EXPECT_EQ(grid.count[0], 2);
  EXPECT_EQ(grid.start[1], 1);
  EXPECT_EQ(grid.count[1], 2);
}

// pario's shards (chunks at fixed offsets): writes go slot by slot across
// the shards; reads stay row-major.
TEST(TransferPlan, ShardedWritesGoSlotBySlot) {
  const ZarrMeta m = meta_of({8, 8}, {2, 2}, {4, 4});
  const Box s = box_of({0, 0}, {8, 8});
  const auto write = plan_transfer(m, s, true, false, 1, all_on_rank0(2));
  ASSERT_EQ(write.size(), 16u);
  EXPECT_EQ(indices_of(write)[0], (std::vector<int64_t>{0, 0}));  // slot 0 of shards (0,0) (0,1) (1,0) (1,1)
  EXPECT_EQ(indices_of(write)[1], (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(indices_of(write)[2], (std::vector<int64_t>{2, 0}));
  EXPECT_EQ(indices_of(write)[3], (std::vector<int64_t>{2, 2}));
  EXPECT_EQ(indices_of(write)[4], (std::vector<int64_t>{0, 1}));  // then slot 1
  for (const PlannedChunk& c : write) EXPECT_EQ(c.group, c.index[0] * 4 + c.index[1]);  // a chunk each
  const auto read = plan_transfer(m, s, false, false, 1, all_on_rank0(2));
  for (size_t i = 1; i < read.size(); ++i) EXPECT_LT(read[i - 1].index, read[i].index);
  expect_partition(m, s, write);
}

// The movers go by the chunks' numbers, not their order in the transfer:
// a read of what a write wrote picks the same ranks.
TEST(TransferPlan, MoversDoNotDependOnTheOrder) {
  const ZarrMeta m = meta_of({8, 8}, {2, 2}, {4, 4});
  const Box s = box_of({1, 0}, {7, 8});
  const Holdings held = held_by({box_of({0, 0}, {8, 5}), box_of({0, 3}, {8, 5}), box_of({2, 2}, {4, 4})});
  std::map<std::vector<int64_t>, int> by_write, by_read;
  for (const PlannedChunk& c : plan_transfer(m, s, true, false, 3, held)) by_write[c.index] = c.mover;
  for (const PlannedChunk& c : plan_transfer(m, s, false, false, 3, held)) by_read[c.index] = c.mover;
  EXPECT_EQ(by_write, by_read);
}

// Shards another program packed are rewritten whole: writes go shard by
// shard, a shard is one group, and one rank moves all of its chunks.
TEST(TransferPlan, RewrittenShardsStayOnOneRank) {
  const ZarrMeta m = meta_of({8, 12}, {2, 2}, {4, 4}, /*fixed_slots=*/false);
  const Box s = box_of({1, 1}, {7, 10});
  // Four ranks holding rows 0-1, 2-3, 4-5, 6-7: each shard lies on two.
  std::vector<Box> patches;
  for (int r = 0; r < 4; ++r) patches.push_back(box_of({2 * r, 0}, {2, 12}));
  const auto plan = plan_transfer(m, s, true, true, 4, held_by(patches));
  expect_partition(m, s, plan);
  std::map<int64_t, int> mover_of;  // shard number: mover
  std::set<int64_t> finished;
  for (size_t i = 0; i < plan.size(); ++i) {
    const PlannedChunk& c = plan[i];
    int64_t slot = 0;
    const std::vector<int64_t> shard = m.shard_index(c.index, &slot);
    EXPECT_EQ(c.group, shard[0] * 3 + shard[1]);  // 2 x 3 shards
    EXPECT_EQ(finished.count(c.group), 0u) << "shard " << c.group << " comes back";  // consecutive
    if (i + 1 == plan.size() || plan[i + 1].group != c.group) finished.insert(c.group);
    auto [it, first] = mover_of.emplace(c.group, c.mover);
    EXPECT_EQ(it->second, c.mover) << "shard " << c.group << " has two movers";
  }
  EXPECT_EQ(mover_of.size(), 6u);
  std::set<int> movers;
  for (const auto& [shard, r] : mover_of) movers.insert(r);
  EXPECT_GT(movers.size(), 1u);  // the work is spread
  // Reads and pario's own shards move chunk by chunk.
  for (const PlannedChunk& c : plan_transfer(m, s, false, true, 4, held_by(patches))) {
    EXPECT_EQ(c.group, c.index[0] * 6 + c.index[1]);
  }
}

// The case in the header: 4 ranks, a 2 x 2 grid of patches (the right
// ones a column narrower), whole-row chunks, a nonaligned section. Each
// chunk is held almost equally by a left and a right rank; the one
// holding most (always the left) would leave the right ranks idle.
TEST(TransferPlan, FourRanksOverTwoByTwoPatchesAllWork) {
  const ZarrMeta m = meta_of({8191, 8191}, {64, 8191});
  const Box s = box_of({1, 1}, {8190, 8190});
  const Holdings held = held_by({box_of({0, 0}, {4096, 4096}), box_of({0, 4096}, {4096, 4095}),
                                 box_of({4096, 0}, {4095, 4096}), box_of({4096, 4096}, {4095, 4095})});
  const auto plan = plan_transfer(m, s, false, false, 4, held);
  ASSERT_EQ(plan.size(), 128u);
  std::map<int, int> chunks;
  std::map<int, int64_t> work;
  for (const PlannedChunk& c : plan) {
    ++chunks[c.mover];
    work[c.mover] += c.part.elements();
    const bool top = c.chunk.start[0] < 4096;
    EXPECT_TRUE(top ? c.mover == 0 || c.mover == 1 : c.mover == 2 || c.mover == 3)
        << "chunk " << c.index[0] << " to rank " << c.mover << ", which holds none of it";
  }
  for (int r = 0; r < 4; ++r) {
    EXPECT_EQ(chunks[r], 32) << "rank " << r;
    EXPECT_NEAR(static_cast<double>(work[r]), s.elements() / 4.0, s.elements() * 0.01) << "rank " << r;
  }
}

// Of ranks that all hold a chunk whole, the least loaded moves it; ties
// go round, starting at the chunk's number.
TEST(TransferPlan, TiesGoRound) {
  const ZarrMeta m = meta_of({4}, {1});
  const Box s = box_of({0}, {4});
  const auto plan = plan_transfer(m, s, false, false, 2, held_by({box_of({0}, {4}), box_of({0}, {4})}));
  std::vector<int> movers;
  for (const PlannedChunk& c : plan) movers.push_back(c.mover);
  EXPECT_EQ(movers, (std::vector<int>{0, 1, 0, 1}));
}

// A rank holding less than half as much as the one holding most is no
// candidate, however idle.
TEST(TransferPlan, LessThanHalfIsNoCandidate) {
  const ZarrMeta m = meta_of({40}, {10});
  const Box s = box_of({0}, {40});
  Holdings held = [](const Box& part, const std::function<void(int, int64_t)>& add) {
    add(0, part.elements() * 7 / 10);
    add(1, part.elements() * 3 / 10);
  };
  for (const PlannedChunk& c : plan_transfer(m, s, false, false, 2, held)) EXPECT_EQ(c.mover, 0);
}

// Holders outside the group are ignored; a chunk nobody holds goes to rank 0.
TEST(TransferPlan, UnheldChunksGoToRankZero) {
  const ZarrMeta m = meta_of({20}, {10});
  const Box s = box_of({0}, {20});
  Holdings held = [](const Box& part, const std::function<void(int, int64_t)>& add) {
    if (part.start[0] == 0) add(5, part.elements());  // not a rank of 3
    else add(2, part.elements());
  };
  const auto plan = plan_transfer(m, s, false, false, 3, held);
  ASSERT_EQ(plan.size(), 2u);
  EXPECT_EQ(plan[0].mover, 0);
  EXPECT_EQ(plan[1].mover, 2);
}

}  // namespace
}  // namespace pario::diskarray
