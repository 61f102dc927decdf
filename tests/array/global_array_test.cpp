// Global arrays, counters and groups at 1, 2 and 4 ranks, on one node and
// on emulated nodes (PARIO_RANKS_PER_NODE) where the remote paths run.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <numeric>
#include <set>

#include "array/counter.h"
#include "array/global_array.h"
#include "base/config.h"
#include "base/stats.h"
#include "mpi_main.h"

namespace pario::array {
namespace {

std::shared_ptr<comm::Group>& world_group() {
  static std::shared_ptr<comm::Group> g =
      comm::Group::create(comm::world().get(), pario::config().value()->ranks_per_node).value();
  return g;
}

Box box(std::initializer_list<int64_t> start, std::initializer_list<int64_t> count) {
  Box b;
  b.ndim = static_cast<int>(start.size());
  std::copy(start.begin(), start.end(), b.start.begin());
  std::copy(count.begin(), count.end(), b.count.begin());
  return b;
}

std::shared_ptr<GlobalArray> make(ElementType t, std::vector<int64_t> dims, const char* name = "a") {
  auto g = world_group();
  return GlobalArray::create(g, name, t, Distribution::block(dims, g->size()).value()).value();
}

double value_at(int64_t i, int64_t j) { return static_cast<double>(i * 1000 + j); }

TEST(GlobalArray, DisjointPutsThenEveryRankReadsEverything) {
  auto g = world_group();
  const int64_t rows = 37, cols = 23;  // odd sizes: uneven patches
  auto a = make(ElementType::kDouble, {rows, cols});
  // Rank r writes the rows r, r+P, ...: each put crosses every column patch.
  for (int64_t i = g->rank(); i < rows; i += g->size()) {
    std::vector<double> row(cols);
    for (int64_t j = 0; j < cols; ++j) row[j] = value_at(i, j);
    ASSERT_TRUE(a->put(box({i, 0}, {1, cols}), row.data(), {}).ok());
  }
  ASSERT_TRUE(a->sync().ok());
  std::vector<double> all(rows * cols, -1);
  ASSERT_TRUE(a->get(a->distribution().whole(), all.data(), {}).ok());
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) ASSERT_EQ(all[i * cols + j], value_at(i, j)) << i << "," << j;
  }
  ASSERT_TRUE(a->close().ok());
}

TEST(GlobalArray, StridedBufferLeavesItsPaddingAlone) {
  auto a = make(ElementType::kDouble, {20, 30});
  auto g = world_group();
  if (g->rank() == 0) {
    std::vector<double> full(20 * 30);
    for (int64_t i = 0; i < 20; ++i)
      for (int64_t j = 0; j < 30; ++j) full[i * 30 + j] = value_at(i, j);
    ASSERT_TRUE(a->put(a->distribution().whole(), full.data(), {}).ok());
  }
  ASSERT_TRUE(a->sync().ok());
  // A 7x11 section starting at (6, 9) into a 7x16 buffer (ld 16).
  std::vector<double> buf(7 * 16, -5);
  ASSERT_TRUE(a->get(box({6, 9}, {7, 11}), buf.data(), {16}).ok());
  for (int64_t i = 0; i < 7; ++i) {
    for (int64_t j = 0; j < 16; ++j) {
      double want = j < 11 ? value_at(6 + i, 9 + j) : -5;
      ASSERT_EQ(buf[i * 16 + j], want) << i << "," << j;
    }
  }
  ASSERT_TRUE(a->close().ok());
}

template <typename T>
void round_trip(ElementType type) {
  auto g = world_group();
  auto a = make(type, {9, 4, 5}, element_name(type));
  const Box whole = a->distribution().whole();
  const int64_t n = whole.elements();
  if (g->rank() == g->size() - 1) {
    std::vector<T> v(n);
    for (int64_t i = 0; i < n; ++i) v[i] = static_cast<T>(i % 97);
    ASSERT_TRUE(a->put(whole, v.data(), {}).ok());
  }
  ASSERT_TRUE(a->sync().ok());
  // Every rank adds 2 * (1) to a 3-d section crossing patches.
  std::vector<T> ones(3 * 4 * 3, static_cast<T>(1));
  const T two = static_cast<T>(2);
  ASSERT_TRUE(a->acc(box({3, 0, 1}, {3, 4, 3}), ones.data(), {}, &two).ok());
  // And fetch-and-adds 1 to a section crossing the first dimension's
  // patches (the old values it gets back depend on the other ranks).
  std::vector<T> inc(2 * 2 * 2, static_cast<T>(1));
  ASSERT_TRUE(a->get_acc(box({4, 1, 0}, {2, 2, 2}), inc.data(), {}).ok());
  ASSERT_TRUE(a->sync().ok());
  std::vector<T> got(n);
  ASSERT_TRUE(a->get(whole, got.data(), {}).ok());
  for (int64_t i = 0; i < n; ++i) {
    int64_t x = i / 20, y = (i / 5) % 4, z = i % 5;
    bool inside = x >= 3 && x < 6 && z >= 1 && z < 4;
    bool fetched = x >= 4 && x < 6 && y >= 1 && y < 3 && z < 2;
    T want = static_cast<T>(i % 97) + (inside ? static_cast<T>(2 * g->size()) : T(0)) +
             (fetched ? static_cast<T>(g->size()) : T(0));
    ASSERT_EQ(got[i], want) << element_name(type) << " element " << i;
  }
  // A group sum of the type (comm::element_mpi_type).
  T one = static_cast<T>(1);
  ASSERT_TRUE(g->sum(type, &one, 1).ok());
  ASSERT_EQ(one, static_cast<T>(g->size())) << element_name(type);
  ASSERT_TRUE(a->close().ok());
}

TEST(GlobalArray, EveryElementType) {
  round_trip<double>(ElementType::kDouble);
  round_trip<float>(ElementType::kFloat);
  round_trip<int32_t>(ElementType::kInt32);
  round_trip<int64_t>(ElementType::kInt64);
  round_trip<std::complex<double>>(ElementType::kComplexDouble);
  round_trip<int8_t>(ElementType::kInt8);
  round_trip<uint8_t>(ElementType::kUInt8);
  round_trip<int16_t>(ElementType::kInt16);
  round_trip<uint16_t>(ElementType::kUInt16);
  round_trip<uint32_t>(ElementType::kUInt32);
  round_trip<uint64_t>(ElementType::kUInt64);
  round_trip<std::complex<float>>(ElementType::kComplexFloat);
}

// Integer accumulates wrap modulo 2^bits, like the C types' arithmetic
// (MPI_SUM on the remote path, a memory loop on the local one).
TEST(GlobalArray, SmallIntegerAccumulatesWrap) {
  auto g = world_group();
  auto a = make(ElementType::kUInt8, {8}, "wrap_u8");
  const uint8_t start = 250;
  ASSERT_TRUE(a->fill(&start).ok());
  std::vector<uint8_t> three(8, 3);
  ASSERT_TRUE(a->acc(a->distribution().whole(), three.data(), {}, nullptr).ok());
  ASSERT_TRUE(a->sync().ok());
  std::vector<uint8_t> got(8);
  ASSERT_TRUE(a->get(a->distribution().whole(), got.data(), {}).ok());
  for (uint8_t v : got) ASSERT_EQ(v, static_cast<uint8_t>(250 + 3 * g->size()));
  ASSERT_TRUE(a->close().ok());
}

TEST(GlobalArray, ConcurrentAccumulatesSumExactly) {
  auto g = world_group();
  auto d = make(ElementType::kDouble, {64, 48}, "acc_d");
  auto l = make(ElementType::kInt64, {64, 48}, "acc_l");
  const Box whole = d->distribution().whole();
  std::vector<double> mine(whole.elements(), g->rank() + 1.0);
  std::vector<int64_t> mine_l(whole.elements(), g->rank() + 1);
  const int rounds = 25;
  const double half = 0.5;  // exact in binary: sums stay exact
  for (int k = 0; k < rounds; ++k) {
    ASSERT_TRUE(d->acc(whole, mine.data(), {}, &half).ok());
    ASSERT_TRUE(l->acc(box({k % 64, 0}, {1, 48}), mine_l.data(), {}, nullptr).ok());
  }
  ASSERT_TRUE(d->sync().ok());
  ASSERT_TRUE(l->sync().ok());
  const double ranks_sum = g->size() * (g->size() + 1) / 2.0;
  std::vector<double> got(whole.elements());
  ASSERT_TRUE(d->get(whole, got.data(), {}).ok());
  for (double v : got) ASSERT_EQ(v, rounds * half * ranks_sum);
  std::vector<int64_t> got_l(whole.elements());
  ASSERT_TRUE(l->get(whole, got_l.data(), {}).ok());
  for (int64_t i = 0; i < 64; ++i) {
    int64_t want = i < rounds ? static_cast<int64_t>(ranks_sum) : 0;
    for (int64_t j = 0; j < 48; ++j) ASSERT_EQ(got_l[i * 48 + j], want) << i;
  }
  ASSERT_TRUE(d->close().ok());
  ASSERT_TRUE(l->close().ok());
}

// Fetch-and-add from every rank at once through a strided buffer whose last
// row is not padded: across all ranks each element hands out every old
// value 0 .. rounds*P-1 exactly once.
TEST(GlobalArray, FetchAndAddHandsOutEveryValueOnce) {
  auto g = world_group();
  auto a = make(ElementType::kInt64, {6, 10}, "getacc");
  const Box section = box({1, 1}, {4, 8});
  const int64_t ld = 9, n = 3 * ld + 8;  // ends at the last element
  const int rounds = 10;
  const int64_t total = rounds * g->size();
  std::vector<int64_t> histogram(32 * total, 0);
  for (int k = 0; k < rounds; ++k) {
    std::vector<int64_t> buf(n, 1);
    ASSERT_TRUE(a->get_acc(section, buf.data(), {ld}).ok());
    for (int64_t i = 0; i < 4; ++i) {
      for (int64_t j = 0; j < 8; ++j) {
        const int64_t old = buf[i * ld + j];
        ASSERT_TRUE(old >= 0 && old < total) << old;
        ++histogram[(i * 8 + j) * total + old];
      }
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, histogram.data(), static_cast<int>(histogram.size()), MPI_INT64_T,
                MPI_SUM, g->comm());
  for (int64_t c : histogram) ASSERT_EQ(c, 1);
  ASSERT_TRUE(a->sync().ok());
  std::vector<int64_t> got(60);
  ASSERT_TRUE(a->get(a->distribution().whole(), got.data(), {}).ok());
  for (int64_t i = 0; i < 6; ++i) {
    for (int64_t j = 0; j < 10; ++j) {
      const bool inside = i >= 1 && i < 5 && j >= 1 && j < 9;
      ASSERT_EQ(got[i * 10 + j], inside ? total : 0) << i << "," << j;
    }
  }
  ASSERT_TRUE(a->close().ok());
}

// Fewer elements than ranks: some ranks own nothing (and may map nothing);
// every whole-array operation must still work on them.
TEST(GlobalArray, RanksWithEmptyPatches) {
  auto g = world_group();
  auto a = make(ElementType::kDouble, {3}, "tiny");
  const double seven = 7, two = 2;
  ASSERT_TRUE(a->fill(&seven).ok());
  ASSERT_TRUE(a->scale(&two).ok());
  std::vector<double> all(3);
  ASSERT_TRUE(a->get(a->distribution().whole(), all.data(), {}).ok());
  for (double v : all) ASSERT_EQ(v, 14.0);
  auto b = make(ElementType::kDouble, {3}, "tiny_copy");
  ASSERT_TRUE(GlobalArray::copy(*a, *b).ok());
  ASSERT_TRUE(b->get(b->distribution().whole(), all.data(), {}).ok());
  for (double v : all) ASSERT_EQ(v, 14.0);
  ASSERT_TRUE(a->close().ok());
  ASSERT_TRUE(b->close().ok());
}

TEST(GlobalArray, ManyOutstandingNonblockingRequests) {
  auto g = world_group();
  auto a = make(ElementType::kDouble, {40, 40});
  // Each rank owns rows r, r+P, ...; it puts them all without waiting.
  std::vector<std::vector<double>> rows;
  std::vector<std::shared_ptr<ArrayRequest>> reqs;
  for (int64_t i = g->rank(); i < 40; i += g->size()) {
    rows.emplace_back(40);
    for (int64_t j = 0; j < 40; ++j) rows.back()[j] = value_at(i, j);
  }
  size_t k = 0;
  for (int64_t i = g->rank(); i < 40; i += g->size(), ++k) {
    reqs.push_back(a->iput(box({i, 0}, {1, 40}), rows[k].data(), {}).value());
  }
  for (auto& r : reqs) ASSERT_TRUE(r->wait().ok());
  ASSERT_TRUE(a->sync().ok());
  std::vector<std::vector<double>> got(40, std::vector<double>(40));
  reqs.clear();
  for (int64_t i = 0; i < 40; ++i) reqs.push_back(a->iget(box({i, 0}, {1, 40}), got[i].data(), {}).value());
  for (auto& r : reqs) {
    bool done = false;
    while (!done) done = r->test().value();
    ASSERT_TRUE(r->status().ok());
  }
  for (int64_t i = 0; i < 40; ++i)
    for (int64_t j = 0; j < 40; ++j) ASSERT_EQ(got[i][j], value_at(i, j));
  // A completed nonblocking accumulate is seen by this rank's next get.
  std::vector<double> one(40 * 40, 1.0);
  const double three = 3;
  ASSERT_TRUE(a->sync().ok());
  if (g->rank() == 0) {
    auto r = a->iacc(a->distribution().whole(), one.data(), {}, &three).value();
    ASSERT_TRUE(r->wait().ok());
    double v = 0;
    ASSERT_TRUE(a->get(box({39, 39}, {1, 1}), &v, {}).ok());
    EXPECT_EQ(v, value_at(39, 39) + 3);
  }
  ASSERT_TRUE(a->close().ok());
}

TEST(GlobalArray, RemoteSectionsTakeOneMessagePerTarget) {
  auto g = world_group();
  if (g->topology().nodes < 2) GTEST_SKIP() << "needs two (emulated) nodes";
  // Columns: rank r owns a contiguous slab of rows; a section over all rows
  // touches every rank, i.e. every node, and must cost one message per
  // remote node (created window) or per remote rank (shared window).
  auto a = GlobalArray::create(g, "cols", ElementType::kDouble,
                               Distribution::columns({64, 8}, {}, g->size()).value())
               .value();
  auto& stats = StatsRegistry::global();
  stats.set_enabled(true);
  stats.rma().clear();
  std::vector<double> buf(64 * 8);
  ASSERT_TRUE(a->get(a->distribution().whole(), buf.data(), {}).ok());
  RmaSnapshot s = stats.rma().snapshot(RmaOp::kGet);
  const int remote_ranks = g->size() - static_cast<int>(g->ranks_of_node(g->topology().node).size());
  EXPECT_EQ(s.messages, static_cast<uint64_t>(a->one_message_per_node() ? g->topology().nodes - 1
                                                                        : remote_ranks));
  EXPECT_EQ(s.remote_calls, 1u);
  const uint64_t mine = a->node_box(g->topology().node).value().elements() * 8;
  EXPECT_EQ(s.local_bytes, mine);
  EXPECT_EQ(s.remote_bytes, 64 * 8 * 8 - mine);
  stats.set_enabled(false);
  ASSERT_TRUE(a->close().ok());
}

TEST(GlobalArray, NodeLocalPatchesAreDirectlyAddressable) {
  auto g = world_group();
  auto a = GlobalArray::create(g, "direct", ElementType::kInt64,
                               Distribution::columns({32, 3}, {}, g->size()).value())
               .value();
  // Each rank writes through the pointer of the next rank on its node.
  const auto& peers = g->ranks_of_node(g->topology().node);
  int next = peers[(g->topology().node_rank + 1) % peers.size()];
  Box patch;
  char* p = a->access(next, &patch).value();
  // Every patch starts half a page into a page, whatever address MPI gave
  // its window (a one-rank window is malloc'ed, 16 bytes into a page), so
  // kernel copies between it and a file's pages stay fast for any small
  // shift (global_array.cpp, map_node).
  for (int r : peers) EXPECT_EQ(reinterpret_cast<uintptr_t>(a->access(r, nullptr).value()) % 4096, 2048u) << r;
  for (int64_t i = 0; i < patch.elements(); ++i) reinterpret_cast<int64_t*>(p)[i] = 7000 + next;
  ASSERT_TRUE(a->sync().ok());
  std::vector<int64_t> all(32 * 3);
  ASSERT_TRUE(a->get(a->distribution().whole(), all.data(), {}).ok());
  for (int r = 0; r < g->size(); ++r) {
    Box pr = a->distribution().patch(r);
    for (int64_t i = pr.start[0]; i < pr.start[0] + pr.count[0]; ++i) ASSERT_EQ(all[i * 3], 7000 + r);
  }
  if (g->topology().nodes > 1) {
    int other = g->ranks_of_node((g->topology().node + 1) % g->topology().nodes)[0];
    EXPECT_EQ(a->access(other, nullptr).status().code(), Code::kInvalidArgument);
    Box nb = a->node_box(g->topology().node).value();
    EXPECT_EQ(nb.count[1], 3);
  }
  ASSERT_TRUE(a->close().ok());
}

TEST(GlobalArray, FillScaleAndCopyAcrossDistributions) {
  auto g = world_group();
  auto a = make(ElementType::kDouble, {30, 20}, "block");
  auto b = GlobalArray::create(g, "irregular", ElementType::kDouble,
                               Distribution::columns({30, 20}, {}, g->size()).value())
               .value();
  const double v = 2.5, s = -2;
  ASSERT_TRUE(a->fill(&v).ok());
  ASSERT_TRUE(a->scale(&s).ok());
  if (g->rank() == 0) {
    double x = 1;
    ASSERT_TRUE(a->put(box({29, 19}, {1, 1}), &x, {}).ok());
  }
  ASSERT_TRUE(a->sync().ok());
  ASSERT_TRUE(GlobalArray::copy(*a, *b).ok());
  std::vector<double> got(600);
  ASSERT_TRUE(b->get(b->distribution().whole(), got.data(), {}).ok());
  for (int i = 0; i < 599; ++i) ASSERT_EQ(got[i], -5.0);
  EXPECT_EQ(got[599], 1.0);
  auto c = make(ElementType::kFloat, {30, 20}, "float");
  EXPECT_EQ(GlobalArray::copy(*a, *c).code(), Code::kInvalidArgument);
  ASSERT_TRUE(a->close().ok());
  ASSERT_TRUE(b->close().ok());
  ASSERT_TRUE(c->close().ok());
}

TEST(GlobalArray, WriteLockMakesReadModifyWriteExact) {
  auto g = world_group();
  auto a = make(ElementType::kInt64, {4});
  const int rounds = 20;
  for (int k = 0; k < rounds; ++k) {
    ASSERT_TRUE(a->lock(true).ok());
    int64_t v = 0;
    ASSERT_TRUE(a->get(box({3}, {1}), &v, {}).ok());
    ++v;
    ASSERT_TRUE(a->put(box({3}, {1}), &v, {}).ok());
    ASSERT_TRUE(a->unlock().ok());
  }
  ASSERT_TRUE(a->lock(false).ok());
  EXPECT_EQ(a->lock(false).code(), Code::kState);
  ASSERT_TRUE(a->unlock().ok());
  EXPECT_EQ(a->unlock().code(), Code::kState);
  ASSERT_TRUE(a->sync().ok());
  int64_t v = 0;
  ASSERT_TRUE(a->get(box({3}, {1}), &v, {}).ok());
  EXPECT_EQ(v, rounds * g->size());
  ASSERT_TRUE(a->close().ok());
}

TEST(GlobalArray, BadArgumentsGiveClearErrors) {
  auto g = world_group();
  auto a = make(ElementType::kDouble, {10, 10});
  double buf[100];
  Status s = a->get(box({5, 0}, {6, 10}), buf, {});
  EXPECT_EQ(s.code(), Code::kOutOfRange);
  EXPECT_NE(s.message().find("dimension 0"), std::string::npos);
  EXPECT_EQ(a->get(box({0}, {1}), buf, {}).code(), Code::kInvalidArgument);
  EXPECT_EQ(a->get(box({0, 0}, {2, 5}), buf, {4}).code(), Code::kInvalidArgument);
  EXPECT_EQ(a->get(box({0, 0}, {2, 5}), nullptr, {}).code(), Code::kInvalidArgument);
  EXPECT_TRUE(a->get(box({0, 0}, {0, 5}), nullptr, {}).ok());  // empty section
  EXPECT_EQ(a->access(g->size(), nullptr).status().code(), Code::kInvalidArgument);
  ASSERT_TRUE(a->close().ok());
  EXPECT_EQ(a->get(box({0, 0}, {1, 1}), buf, {}).code(), Code::kInvalidArgument);
  EXPECT_EQ(a->close().code(), Code::kState);
  // Ranks disagreeing about the shape: every rank gets the error, no hang.
  auto bad = GlobalArray::create(g, "mismatch", ElementType::kDouble,
                                 Distribution::block({10 + (g->rank() == 0 ? 1 : 0), 4}, g->size()).value());
  if (g->size() > 1) {
    EXPECT_EQ(bad.status().code(), Code::kInvalidArgument);
  } else {
    ASSERT_TRUE(bad.ok());
    ASSERT_TRUE(bad.value()->close().ok());
  }
}

TEST(Counter, ValuesAreUniqueUnderContention) {
  auto g = world_group();
  auto c = Counter::create(g).value();
  const int per_rank = 200;
  std::vector<int64_t> mine;
  for (int i = 0; i < per_rank; ++i) mine.push_back(c->fetch_add(Counter::kGlobal, 1).value());
  std::vector<int64_t> all(per_rank * g->size());
  MPI_Allgather(mine.data(), per_rank, MPI_INT64_T, all.data(), per_rank, MPI_INT64_T, g->comm());
  std::sort(all.begin(), all.end());
  for (size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], static_cast<int64_t>(i));
  // Per-process counters: everybody bumps the last rank's by 3.
  const int last = g->size() - 1;
  ASSERT_TRUE(c->fetch_add(last, 3).ok());
  ASSERT_TRUE(g->barrier().ok());
  EXPECT_EQ(c->fetch_add(last, 0).value(), 3 * g->size());
  EXPECT_EQ(c->fetch_add(g->size(), 1).status().code(), Code::kInvalidArgument);
  ASSERT_TRUE(c->reset().ok());
  EXPECT_EQ(c->fetch_add(Counter::kGlobal, 0).value(), 0);
  ASSERT_TRUE(c->close().ok());
}

TEST(Group, SplitGroupsWorkIndependently) {
  auto world = world_group();
  if (world->size() < 2) GTEST_SKIP() << "needs two ranks";
  auto grp = world->split(world->rank() % 2).value();
  ASSERT_TRUE(grp);
  EXPECT_EQ(grp->size(), world->size() / 2 + (world->rank() % 2 == 0 ? world->size() % 2 : 0));
  // An array per group, distinct contents.
  auto made = GlobalArray::create(grp, "in-group", ElementType::kInt32,
                                  Distribution::block({12}, grp->size()).value());
  ASSERT_TRUE(made.ok()) << made.status().message();
  auto a = made.value();
  int32_t tag = 100 + world->rank() % 2;
  ASSERT_TRUE(a->fill(&tag).ok());
  std::vector<int32_t> got(12);
  ASSERT_TRUE(a->get(a->distribution().whole(), got.data(), {}).ok());
  for (int32_t v : got) ASSERT_EQ(v, tag);
  ASSERT_TRUE(a->close().ok());
  // Sums and broadcasts stay within the group.
  double x = 1;
  ASSERT_TRUE(grp->sum(ElementType::kDouble, &x, 1).ok());
  EXPECT_EQ(x, grp->size());
  int64_t b = grp->rank() == 0 ? 42 + world->rank() % 2 : 0;
  ASSERT_TRUE(grp->broadcast(&b, sizeof b, 0).ok());
  EXPECT_EQ(b, 42 + world->rank() % 2);
  EXPECT_EQ(grp->broadcast(&b, sizeof b, grp->size()).code(), Code::kInvalidArgument);
  // Masters: rank 0 of every group.
  auto masters = world->split(grp->rank() == 0 ? 0 : -1).value();
  EXPECT_EQ(static_cast<bool>(masters), grp->rank() == 0);
  if (masters) {
    EXPECT_EQ(masters->size(), 2);
  }
}

}  // namespace
}  // namespace pario::array

int main(int argc, char** argv) { return pario::testing_support::run_mpi_tests(argc, argv, [] { pario::array::world_group().reset(); }); }
