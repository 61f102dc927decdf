// The pure half of collective I/O, serially: runs of blocks and index
// lists (collective/layout.h), position lists (collective/positions.h),
// aggregator choice, file domains, rounds and messages (collective/plan.h),
// the last checked for 1 to 10,000 simulated ranks.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <vector>

#include "collective/layout.h"
#include "collective/plan.h"
#include "collective/positions.h"

namespace pario::collective {
namespace {

Box box_of(std::vector<int64_t> start, std::vector<int64_t> count) {
  Box b;
  b.ndim = static_cast<int>(start.size());
  for (int d = 0; d < b.ndim; ++d) {
    b.start[d] = start[d];
    b.count[d] = count[d];
  }
  return b;
}

Shape shape_of(std::vector<int64_t> dims) {
  Shape s{};
  std::copy(dims.begin(), dims.end(), s.begin());
  return s;
}

// Global index of every memory position, expanded from runs.
std::vector<int64_t> expand(const SortedRuns& r) {
  std::vector<int64_t> global_of(r.elements, -1);
  for (const Run& run : r.runs)
    for (int64_t k = 0; k < run.length; ++k) global_of[run.memory + k] = run.global + k;
  return global_of;
}

TEST(Layout, BlocksInCOrder) {
  // A 2 x 3 block at (1, 2) of a 4 x 6 x 5 array, whole last dimension.
  auto r = runs_of_blocks(3, shape_of({4, 6, 5}), IndexOrder::kC, {box_of({1, 2, 0}, {2, 3, 5})});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->elements, 30);
  EXPECT_FALSE(r->overlaps);
  // Rows of 3 x 5 = 15 contiguous elements each (j = 2..4 whole), two of them.
  ASSERT_EQ(r->runs.size(), 2u);
  EXPECT_EQ(r->runs[0].global, (1 * 6 + 2) * 5);
  EXPECT_EQ(r->runs[0].length, 15);
  EXPECT_EQ(r->runs[1].global, (2 * 6 + 2) * 5);
  EXPECT_EQ(r->runs[1].memory, 15);
}

TEST(Layout, FortranOrderIsTheReversedCOrder) {
  // Fortran 5 x 4 array, block rows 1..3, columns 2..3: memory column-major.
  auto r = runs_of_blocks(2, shape_of({5, 4}), IndexOrder::kFortran, {box_of({1, 2}, {3, 2})});
  ASSERT_TRUE(r.ok());
  const std::vector<int64_t> g = expand(*r);
  std::vector<int64_t> want;
  for (int64_t j = 2; j < 4; ++j)
    for (int64_t i = 1; i < 4; ++i) want.push_back(i + 5 * j);
  EXPECT_EQ(g, want);
}

TEST(Layout, SeveralBlocksAreSortedAndKeepTheirMemoryPositions) {
  // Memory holds the later block first.
  auto r = runs_of_blocks(1, shape_of({100}), IndexOrder::kC, {box_of({50}, {10}), box_of({0}, {5})});
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->runs.size(), 2u);
  EXPECT_EQ(r->runs[0].global, 0);
  EXPECT_EQ(r->runs[0].memory, 10);
  EXPECT_EQ(r->runs[1].global, 50);
  EXPECT_EQ(r->runs[1].memory, 0);
}

TEST(Layout, BadBlocksNameTheBlockAndDimension) {
  auto r = runs_of_blocks(2, shape_of({4, 6}), IndexOrder::kC, {box_of({0, 0}, {1, 1}), box_of({0, 5}, {1, 2})});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kOutOfRange);
  EXPECT_NE(r.status().message().find("block 1 dimension 1"), std::string::npos) << r.status().message();
  // Fortran order names the caller's dimension, not the reversed one.
  r = runs_of_blocks(2, shape_of({4, 6}), IndexOrder::kFortran, {box_of({4, 0}, {1, 1})});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("dimension 0"), std::string::npos) << r.status().message();
  EXPECT_FALSE(runs_of_blocks(0, shape_of({}), IndexOrder::kC, {}).ok());
  EXPECT_FALSE(runs_of_blocks(2, shape_of({int64_t{1} << 40, int64_t{1} << 40}), IndexOrder::kC, {}).ok());
  // An empty block is no error and holds nothing.
  r = runs_of_blocks(2, shape_of({4, 6}), IndexOrder::kC, {box_of({4, 6}, {0, 0})});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->elements, 0);
}

TEST(Layout, IndicesSortJoinAndFindOverlap) {
  std::vector<int64_t> idx = {7, 3, 4, 5, 0, 9};
  auto r = runs_of_indices(10, idx.data(), static_cast<int64_t>(idx.size()));
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->overlaps);
  EXPECT_EQ(expand(*r), idx);
  // 3, 4, 5 sit at memory 1, 2, 3: one run.
  EXPECT_EQ(r->runs.size(), 4u);
  idx.push_back(4);
  r = runs_of_indices(10, idx.data(), static_cast<int64_t>(idx.size()));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r->overlaps);
  idx.push_back(10);
  r = runs_of_indices(10, idx.data(), static_cast<int64_t>(idx.size()));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("indices[7] = 10"), std::string::npos);
  EXPECT_FALSE(runs_of_indices(10, nullptr, 3).ok());
  EXPECT_TRUE(runs_of_indices(10, nullptr, 0).ok());
}

// Lists long enough for the radix sorts: indices packed with their
// positions in one word (a space below 2^32, 1 to 4 key bytes) and as
// pairs (a wider space), duplicates included, against a stable sort.
TEST(Layout, LongIndexListsSortLikeAStableSort) {
  std::mt19937_64 rng(5);
  for (int64_t space : {int64_t{200}, int64_t{70000}, int64_t{1} << 24, int64_t{1} << 32, int64_t{1} << 40}) {
    std::vector<int64_t> idx(5000);
    for (int64_t& g : idx) g = static_cast<int64_t>(rng() % static_cast<uint64_t>(space));
    idx[17] = space - 1;  // the top key byte used
    std::vector<int64_t> order(idx.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return idx[a] < idx[b]; });
    auto r = runs_of_indices(space, idx.data(), static_cast<int64_t>(idx.size()));
    ASSERT_TRUE(r.ok());
    std::vector<std::pair<int64_t, int64_t>> got, want;  // (global, memory) per element
    for (const auto& run : r->runs)
      for (int64_t k = 0; k < run.length; ++k) got.push_back({run.global + k, run.memory + k});
    for (int64_t k : order) want.push_back({idx[k], k});
    EXPECT_EQ(got, want) << "space " << space;
    bool twice = false;
    for (size_t i = 1; i < order.size(); ++i) twice |= idx[order[i]] == idx[order[i - 1]];
    EXPECT_EQ(r->overlaps, twice) << "space " << space;
  }
}

TEST(Positions, RunsAndDenseFormsGatherAndScatterAlike) {
  // Runs of 50, one entry per element, runs of 8 (8 to 320 bytes a run,
  // the short ones moved by fixed sizes) and runs of 3 (a vector item's
  // words), which take less room one entry per element (4 bytes each
  // against 24 a run) and are kept so.
  enum Form { kLongRuns, kScattered, kShortRuns, kItemWords };
  for (size_t size : {1, 2, 3, 4, 8, 16, 40}) {
    for (Form form : {kLongRuns, kScattered, kShortRuns, kItemWords}) {
      PositionList list;
      std::vector<int64_t> pos;
      for (int64_t k = 0; k < 200; ++k) {
        const int64_t p = form == kScattered   ? (k * 37) % 211
                          : form == kShortRuns ? (k / 8) * 11 + k % 8
                          : form == kItemWords ? (k / 3) * 5 + k % 3
                                               : 300 + k + (k / 50) * 7;
        list.add(p, 1);
        pos.push_back(p);
      }
      list.finish();
      EXPECT_EQ(list.runs() == 0, form == kScattered || form == kItemWords);
      std::vector<char> base(600 * size), out(200 * size), back(600 * size, 0);
      for (size_t i = 0; i < base.size(); ++i) base[i] = static_cast<char>(i * 13 + 1);
      list.gather(base.data(), size, 10, 150, out.data());
      for (int64_t k = 0; k < 150; ++k) {
        ASSERT_EQ(std::memcmp(out.data() + k * size, base.data() + pos[10 + k] * size, size), 0);
        EXPECT_EQ(list.at(10 + k), pos[10 + k]);
      }
      list.scatter(back.data(), size, 10, 150, out.data());
      for (int64_t k = 0; k < 150; ++k) {
        ASSERT_EQ(std::memcmp(back.data() + pos[10 + k] * size, base.data() + pos[10 + k] * size, size), 0);
      }
    }
  }
}

// A decomposition's memory order kept inverted (memory_slots()): the
// inverse of a permutation in either form, and copies through it that
// undo the forward list's, for each element size, in ranges that start
// and end inside the list.
TEST(Positions, TheInverseOfAPermutationUndoesIt) {
  const int64_t n = 1003;
  std::vector<int64_t> perm(n);
  for (int64_t k = 0; k < n; ++k) perm[k] = (k * 389 + 17) % n;  // 389 and 1003 are coprime
  for (bool runs : {false, true}) {
    PositionList list = runs ? PositionList::of(3, [&](size_t i) {
      const int64_t starts[3] = {700, 0, 300}, lengths[3] = {303, 300, 400};
      return std::pair<int64_t, int64_t>{starts[i], lengths[i]};
    })
                             : PositionList::of(static_cast<size_t>(n), [&](size_t k) {
                                 return std::pair<int64_t, int64_t>{perm[k], 1};
                               });
    EXPECT_EQ(list.runs() == 0, !runs);
    const PositionList inv = list.inverse();
    ASSERT_EQ(inv.elements(), n);
    EXPECT_EQ(inv.runs(), 0u);
    for (int64_t k = 0; k < n; ++k) {
      ASSERT_EQ(inv.at(list.at(k)), k);
      ASSERT_EQ(list.find(list.at(k)), k);
    }
    EXPECT_EQ(list.find(n), -1);
    for (size_t size : {1, 3, 4, 8, 16}) {
      std::vector<char> memory(n * size), packed(n * size, 0), by_inverse(n * size, 0), back(n * size, 0);
      for (size_t i = 0; i < memory.size(); ++i) memory[i] = static_cast<char>(i * 7 + 3);
      list.gather(memory.data(), size, 0, n, packed.data());
      // The same packed copy from memory order: into the slots, in two ranges.
      inv.scatter(by_inverse.data(), size, 0, 401, memory.data());
      inv.scatter(by_inverse.data(), size, 401, n - 401, memory.data() + 401 * size);
      ASSERT_EQ(by_inverse, packed) << "size " << size;
      inv.gather(packed.data(), size, 0, 17, back.data());
      inv.gather(packed.data(), size, 17, n - 17, back.data() + 17 * size);
      ASSERT_EQ(back, memory) << "size " << size;
    }
  }
  EXPECT_EQ(PositionList().inverse().elements(), 0);
  // No inverse where memory has a hole or a position occurs twice.
  auto dense = [](std::vector<int64_t> pos) {
    return PositionList::of(pos.size(), [&](size_t k) { return std::pair<int64_t, int64_t>{pos[k], 1}; });
  };
  EXPECT_EQ(dense({3, 0, 2, 1}).inverse().elements(), 4);
  EXPECT_EQ(dense({4, 0, 2, 1}).inverse().elements(), 0);
  EXPECT_EQ(dense({3, 0, 3, 1}).inverse().elements(), 0);
}

TEST(Aggregators, OnePerNodeSpreadOverNodesOrChosen) {
  const std::vector<int> node_of = {0, 0, 0, 1, 1, 1, 2, 2};
  EXPECT_EQ(*choose_aggregators(node_of, 0, {}), (std::vector<int>{0, 3, 6}));
  EXPECT_EQ(*choose_aggregators(node_of, 4, {}), (std::vector<int>{0, 1, 3, 6}));
  EXPECT_EQ(choose_aggregators(node_of, 100, {})->size(), 8u);
  EXPECT_EQ(*choose_aggregators(node_of, 0, {5, 2}), (std::vector<int>{5, 2}));
  EXPECT_FALSE(choose_aggregators(node_of, 0, {8}).ok());
  EXPECT_FALSE(choose_aggregators(node_of, 0, {1, 1}).ok());
  EXPECT_FALSE(choose_aggregators(node_of, -1, {}).ok());
}

TEST(Domains, BalancedByBytesAndAligned) {
  // 1000 doubles from index 100, 3 aggregators, 64-byte buffers (8 doubles).
  DomainPlan plan(100, 1100, 8, {0, 1, 2}, 64, 0);
  EXPECT_EQ(plan.window_elements(), 8);
  EXPECT_EQ(plan.domain_begin(0), 100);
  EXPECT_EQ(plan.domain_end(2), 1100);
  for (int a = 0; a < 3; ++a) {
    const int64_t n = plan.domain_end(a) - plan.domain_begin(a);
    EXPECT_NEAR(static_cast<double>(n), 1000.0 / 3, 8.0);
    if (a > 0) {
      EXPECT_EQ(plan.domain_begin(a) % 8, 0);
    }
    // Rounds tile the domain with buffer-aligned windows.
    int64_t at = plan.domain_begin(a);
    for (int64_t r = 0; r < plan.rounds(a); ++r) {
      EXPECT_EQ(plan.round_begin(a, r), at);
      EXPECT_LE(plan.round_end(a, r) - at, 8);
      if (r + 1 < plan.rounds(a)) {
        EXPECT_EQ(plan.round_end(a, r) % 8, 0);
      }
      for (int64_t g = plan.round_begin(a, r); g < plan.round_end(a, r); ++g) {
        ASSERT_EQ(plan.aggregator_of(g), a);
        ASSERT_EQ(plan.round_of(a, g), r);
      }
      at = plan.round_end(a, r);
    }
    EXPECT_EQ(at, plan.domain_end(a));
  }
  // A stripe alignment coarser than the space: one domain holds it all.
  DomainPlan coarse(0, 100, 8, {0, 1}, 64, 1 << 20);
  EXPECT_EQ(std::min(coarse.rounds(0), coarse.rounds(1)), 0);
  EXPECT_EQ(coarse.domain_begin(0), 0);
  EXPECT_EQ(coarse.domain_end(1), 100);
  // Nothing held anywhere: no rounds.
  DomainPlan none(50, 50, 8, {0}, 64, 0);
  EXPECT_EQ(none.rounds(0), 0);
}

// Simulated ranks: each holds a slab (contiguous) or every P-th element
// (scattered) of n doubles. Every element must reach exactly one
// (aggregator, round) inside that round's window, and a sender's message
// count is bounded by the domains and rounds its elements meet.
void check_plan(int ranks, int aggregators, int64_t n, int64_t buffer, bool scattered) {
  std::vector<int> aggs(static_cast<size_t>(aggregators));
  for (int a = 0; a < aggregators; ++a) aggs[a] = static_cast<int>(static_cast<int64_t>(a) * ranks / aggregators);
  DomainPlan plan(0, n, 8, aggs, buffer, 0);
  std::map<std::pair<int, int64_t>, int64_t> received;  // (aggregator, round) -> elements
  int64_t total = 0, most_messages = 0;
  for (int r = 0; r < ranks; ++r) {
    std::vector<Run> runs;
    if (scattered) {
      if (n > 200000) continue;  // one run per element: keep the test quick
      for (int64_t g = r; g < n; g += ranks) runs.push_back({g, 1, (g - r) / ranks});
    } else {
      const int64_t lo = n * r / ranks, hi = n * (r + 1) / ranks;
      if (hi > lo) runs.push_back({lo, hi - lo, 0});
    }
    std::vector<std::pair<Send, Run>> pieces;
    const std::vector<Send> sends = plan_sends(plan, runs, [&](const Send& s, const Run& r) { pieces.push_back({s, r}); });
    most_messages = std::max<int64_t>(most_messages, static_cast<int64_t>(sends.size()));
    int64_t packed = 0;
    for (const Send& s : sends) {
      ASSERT_EQ(s.offset, packed);
      packed += s.count;
      received[{s.aggregator, s.round}] += s.count;
    }
    for (const auto& [s, piece] : pieces) {
      ASSERT_GE(piece.global, plan.round_begin(s.aggregator, s.round));
      ASSERT_LE(piece.global + piece.length, plan.round_end(s.aggregator, s.round));
    }
    total += packed;
  }
  if (scattered && n > 200000) return;
  EXPECT_EQ(total, n);
  // Every round receives exactly its window, whoever sends it.
  for (int a = 0; a < aggregators; ++a) {
    for (int64_t r = 0; r < plan.rounds(a); ++r) {
      const auto it = received.find({a, r});
      ASSERT_NE(it, received.end()) << "aggregator " << a << " round " << r;
      EXPECT_EQ(it->second, plan.round_end(a, r) - plan.round_begin(a, r));
    }
  }
  // A slab meets at most its own length in windows, plus one per domain bound.
  if (!scattered) {
    const int64_t slab = (n + ranks - 1) / ranks;
    EXPECT_LE(most_messages, slab / plan.window_elements() + 2 + aggregators);
  }
}

TEST(Plan, EveryElementReachesOneRoundAtAnyRankCount) {
  for (int ranks : {1, 2, 3, 4, 7, 16, 100, 1000, 10000}) {
    for (int aggregators : {1, 2, 8}) {
      if (aggregators > ranks) continue;
      SCOPED_TRACE(testing::Message() << ranks << " ranks, " << aggregators << " aggregators");
      check_plan(ranks, aggregators, 1 << 20, 64 << 10, false);
      check_plan(ranks, aggregators, 100003, 4096, true);
    }
  }
}

// The disk arrays' rule as the plan's first policy (choose_movers) at
// 1 to 10,000 simulated ranks: each unit goes to a rank holding at least
// half as much of it as the best holder; a unit nobody in range holds
// goes to rank 0; with every unit held alike by all, the work spreads
// evenly (no rank more than one unit above the mean).
TEST(Plan, MoversHoldMuchOfTheirUnitsAndShareTheWork) {
  std::mt19937_64 rng(3);
  for (int ranks : {1, 2, 3, 4, 7, 16, 100, 1000, 10000}) {
    SCOPED_TRACE(testing::Message() << ranks << " ranks");
    std::vector<MoveUnit> units;
    for (int64_t k = 0; k < 3 * ranks + 5; ++k) {
      MoveUnit u;
      u.number = (k * 7919) % (3 * ranks + 5);  // not in vector order
      u.elements = 1 + static_cast<int64_t>(rng() % 100);
      const int holders = 1 + static_cast<int>(rng() % 3);
      for (int h = 0; h < holders; ++h) {
        u.held.push_back({static_cast<int>(rng() % static_cast<uint64_t>(ranks)),
                          static_cast<int64_t>(rng() % static_cast<uint64_t>(u.elements + 1))});
      }
      if (k % 11 == 0) u.held = {{ranks + 3, u.elements}, {-1, 1}};  // held by no rank in range
      units.push_back(u);
    }
    const std::vector<int> mover = choose_movers(ranks, units);
    ASSERT_EQ(mover.size(), units.size());
    for (size_t k = 0; k < units.size(); ++k) {
      int64_t most = 0, of_mover = 0;
      for (const auto& [r, n] : units[k].held) {
        if (r >= 0 && r < ranks) most = std::max(most, n);
        if (r == mover[k]) of_mover = std::max(of_mover, n);
      }
      ASSERT_GE(mover[k], 0);
      ASSERT_LT(mover[k], ranks);
      if (most == 0) {
        EXPECT_EQ(mover[k], 0) << "unit " << k << " held by nobody in range";
      } else {
        EXPECT_GE(2 * of_mover, most) << "unit " << k << ": its mover holds too little of it";
      }
    }
    // Every unit held wholly by every rank: round robin by work.
    std::vector<MoveUnit> even(static_cast<size_t>(4 * ranks));
    for (size_t k = 0; k < even.size(); ++k) {
      even[k].number = static_cast<int64_t>(k);
      even[k].elements = 10;
      for (int r = 0; r < std::min(ranks, 64); ++r) even[k].held.push_back({r, 10});
    }
    std::vector<int64_t> work(static_cast<size_t>(ranks));
    for (int m : choose_movers(ranks, even)) work[static_cast<size_t>(m)] += 10;
    const int holders = std::min(ranks, 64);
    const int64_t mean = 10 * static_cast<int64_t>(even.size()) / holders;
    for (int r = 0; r < holders; ++r) EXPECT_LE(work[static_cast<size_t>(r)], mean + 10) << "rank " << r;
  }
}

// A sender's messages placed in two send buffers (place_sends, send_buffer_capacity): every
// message to another aggregator exactly once, in round order, inside its
// buffer and clear of the others in it since that buffer was last
// switched to; its own aggregator's left out; the capacity a round's
// messages (at least the largest, at most the window).
TEST(Plan, SendsArePlacedInRoundOrderInTwoBuffers) {
  std::mt19937_64 rng(7);
  for (int aggregators : {1, 2, 3}) {
    const int64_t n = 20011;
    std::vector<int> ranks(aggregators);
    std::iota(ranks.begin(), ranks.end(), 0);
    DomainPlan plan(0, n, 8, ranks, 4096, 0);  // 512-element rounds
    std::vector<int64_t> ids;
    for (int64_t g = 0; g < n; ++g) {
      if (rng() % 3 == 0) ids.push_back(g);  // a third of the indices, scattered
    }
    std::vector<collective::Run> runs;  // (not gtest's Test::Run)
    for (size_t k = 0; k < ids.size(); ++k) runs.push_back({ids[k], 1, static_cast<int64_t>(k)});
    const std::vector<Send> sends = plan_sends(plan, runs);
    for (int self : {-1, 0}) {
      SCOPED_TRACE(testing::Message() << aggregators << " aggregators, self " << self);
      const int64_t capacity = send_buffer_capacity(sends, self, plan.window_elements());
      int64_t largest = 0, most = 0;
      std::map<int64_t, int64_t> per_round;
      for (const Send& s : sends) {
        if (s.aggregator == self) continue;
        largest = std::max(largest, s.count);
        most = std::max(most, per_round[s.round] += s.count);
      }
      EXPECT_EQ(capacity, std::max(largest, std::min(most, plan.window_elements())));
      const std::vector<SendPlace> places = place_sends(sends, self, capacity);
      std::vector<int> seen(sends.size(), 0);
      int64_t previous_round = -1, end[2] = {0, 0};
      int32_t buffer = 0, switches = 0;
      for (const SendPlace& p : places) {
        const Send& s = sends[p.send];
        EXPECT_NE(s.aggregator, self);
        EXPECT_GE(s.round, previous_round);
        previous_round = s.round;
        ++seen[p.send];
        ASSERT_TRUE(p.buffer == 0 || p.buffer == 1);
        if (p.buffer != buffer) {
          EXPECT_EQ(p.at, 0);  // a switch starts the other buffer afresh
          buffer = p.buffer;
          end[buffer] = 0;
          ++switches;
        }
        EXPECT_EQ(p.at, end[buffer]);  // right after the last one in it
        end[buffer] = p.at + s.count;
        EXPECT_LE(end[buffer], capacity);
      }
      for (size_t i = 0; i < sends.size(); ++i) EXPECT_EQ(seen[i], sends[i].aggregator == self ? 0 : 1) << i;
      if (aggregators == 1 && self == 0) {
        EXPECT_TRUE(places.empty());  // everything is its own
      } else {
        EXPECT_GT(switches, 2);  // 40 rounds do not fit one buffer
      }
    }
  }
}

}  // namespace
}  // namespace pario::collective
