// The parallel key sort (collective/key_sort.h), MPI:1, 2, 4. Each rank's
// keys are a function of (case, rank, ranks), so every rank rebuilds all
// ranks' keys and checks its answer against a serial reference.
#include "collective/key_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>
#include <random>
#include <utility>
#include <vector>

#include "comm/comm.h"
#include "mpi_main.h"

namespace pario::collective {
namespace {

using Keys = std::vector<int64_t>;
using Generator = std::function<Keys(int rank, int size)>;

const comm::Comm& world() { return comm::world(); }

std::mt19937_64 rng(uint64_t seed, int rank) { return std::mt19937_64(seed * 1000003 + static_cast<uint64_t>(rank)); }

// The serial answer for this rank: positions among the sorted distinct keys
// of all ranks, and the owner flag (no lower rank holds the key, and this is
// its first occurrence here).
struct Reference {
  std::vector<int64_t> positions;
  std::vector<bool> owner;
  int64_t distinct = 0;
  bool duplicates = false;
};

Reference reference(const Generator& gen, int me, int size) {
  Keys all, lower;
  for (int r = 0; r < size; ++r) {
    Keys k = gen(r, size);
    if (r < me) lower.insert(lower.end(), k.begin(), k.end());
    all.insert(all.end(), k.begin(), k.end());
  }
  const size_t total = all.size();
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  std::sort(lower.begin(), lower.end());
  const Keys mine = gen(me, size);
  std::vector<std::pair<int64_t, size_t>> local(mine.size());
  for (size_t i = 0; i < mine.size(); ++i) local[i] = {mine[i], i};
  std::sort(local.begin(), local.end());
  Reference ref;
  ref.distinct = static_cast<int64_t>(all.size());
  ref.duplicates = total > all.size();
  ref.positions.resize(mine.size());
  ref.owner.assign(mine.size(), false);
  for (size_t j = 0; j < local.size(); ++j) {
    const auto [key, i] = local[j];
    ref.positions[i] = std::lower_bound(all.begin(), all.end(), key) - all.begin();
    const bool first_here = j == 0 || local[j - 1].first != key;
    ref.owner[i] = first_here && !std::binary_search(lower.begin(), lower.end(), key);
  }
  return ref;
}

// Runs rank_keys on this rank's keys and compares with the reference.
void check(const Generator& gen, const detail::KeySortOptions& options = {},
           detail::KeySortStats* stats_out = nullptr) {
  const int me = world().rank(), size = world().size();
  const Keys mine = gen(me, size);
  detail::KeySortStats stats;
  auto got = detail::rank_keys(world(), mine.empty() ? nullptr : mine.data(), mine.size(), options, &stats);
  ASSERT_TRUE(got.ok()) << got.status().message();
  const Reference ref = reference(gen, me, size);
  EXPECT_EQ(got->distinct, ref.distinct);
  EXPECT_EQ(got->duplicates, ref.duplicates);
  ASSERT_EQ(got->positions.size(), mine.size());
  ASSERT_EQ(got->owner.size(), mine.size());
  size_t wrong_positions = 0, wrong_owners = 0;
  for (size_t i = 0; i < mine.size(); ++i) {
    wrong_positions += got->positions[i] != ref.positions[i];
    wrong_owners += got->owner[i] != ref.owner[i];
  }
  EXPECT_EQ(wrong_positions, 0u) << "rank " << me;
  EXPECT_EQ(wrong_owners, 0u) << "rank " << me;
  // Exactly one owner per distinct key over all ranks.
  int64_t owners = std::count(got->owner.begin(), got->owner.end(), true), sum = 0;
  MPI_Allreduce(&owners, &sum, 1, MPI_INT64_T, MPI_SUM, world().get());
  EXPECT_EQ(sum, ref.distinct);
  if (stats_out) *stats_out = stats;
}

// Random keys over the whole int64 range (negative ones included), a
// different count on each rank.
Keys random_sparse(int rank, int) {
  auto g = rng(1, rank);
  Keys k(1000 + 37 * rank);
  for (auto& x : k) x = static_cast<int64_t>(g());
  return k;
}

TEST(KeySort, RandomSparseKeys) { check(random_sparse); }

TEST(KeySort, DuplicatesInsideAndAcrossRanks) {
  // 700 keys per rank from 101 values: many repeats on each rank and the
  // same values on every rank.
  check([](int rank, int) {
    auto g = rng(2, rank);
    Keys k(700);
    for (auto& x : k) x = static_cast<int64_t>(g() % 101) - 50;
    return k;
  });
}

TEST(KeySort, SomeRanksEmpty) {
  check([](int rank, int size) { return rank % 2 == 1 || size == 1 ? Keys{} : random_sparse(rank, size); });
  check([](int rank, int size) { return rank == 0 ? Keys{} : random_sparse(rank, size); });
}

TEST(KeySort, AllRanksEmpty) {
  auto got = rank_keys(world(), nullptr, 0);
  ASSERT_TRUE(got.ok()) << got.status().message();
  EXPECT_EQ(got->distinct, 0);
  EXPECT_FALSE(got->duplicates);
  EXPECT_TRUE(got->positions.empty());
  EXPECT_TRUE(got->owner.empty());
}

// Weighted samples keep the buckets near U/P wherever the keys are:
// at most U/P + 2 (U/s + P) (key_sort.h).
void expect_balanced(const detail::KeySortStats& stats, int64_t unique_total, int samples) {
  const int size = world().size();
  const int64_t bound = unique_total / size + 2 * (unique_total / samples + size) + 1;
  EXPECT_LE(stats.bucket, bound) << "rank " << world().rank() << " of " << size;
}

TEST(KeySort, AllKeysOnOneRank) {
  const int last = world().size() - 1;
  detail::KeySortStats stats;
  check(
      [last](int rank, int) {
        if (rank != last) return Keys{};
        auto g = rng(3, rank);
        Keys k(100000);
        for (auto& x : k) x = static_cast<int64_t>(g() >> 1);
        return k;
      },
      {}, &stats);
  expect_balanced(stats, 100000, 64);  // 63-bit random: no repeats in practice
}

TEST(KeySort, AllKeysEqual) {
  detail::KeySortStats stats;
  check([](int, int) { return Keys(10000, -7); }, {}, &stats);
  EXPECT_EQ(stats.unique, 1);  // repeats never leave the rank
  EXPECT_LE(stats.bucket, world().size());
  // The owner is rank 0's first key.
  Keys k(10000, -7);
  auto got = rank_keys(world(), k.data(), k.size());
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->distinct, 1);
  EXPECT_TRUE(got->duplicates);
  EXPECT_EQ(got->owner[0], world().rank() == 0);
  EXPECT_EQ(std::count(got->owner.begin(), got->owner.end(), true), world().rank() == 0 ? 1 : 0);
}

TEST(KeySort, SortedAndReverseSortedInput) {
  constexpr int64_t n = 5000;
  // Globally increasing (rank r holds r*n .. ), with a stride so keys are sparse.
  check([](int rank, int) {
    Keys k(n);
    for (int64_t i = 0; i < n; ++i) k[i] = (rank * n + i) * 3;
    return k;
  });
  // Globally decreasing: rank 0 holds the largest keys, each rank's in
  // decreasing order.
  check([](int rank, int size) {
    Keys k(n);
    for (int64_t i = 0; i < n; ++i) k[i] = ((size - rank) * n - i) * 3;
    return k;
  });
}

TEST(KeySort, AscendingInputWithRepeatsAndOverlap) {
  // Keys in increasing order on each rank (the local sort is skipped), each
  // one twice in a row, neighbouring ranks sharing 1000 keys: the first
  // occurrence on the lowest rank owns a key. Then one key out of order on
  // odd ranks, which takes the sorting path, for the same answers.
  for (bool disorder : {false, true}) {
    check([disorder](int rank, int) {
      Keys k;
      for (int64_t i = 0; i < 4000; ++i) k.push_back((rank * 1000 + i / 2) * 5 - 7000);
      if (disorder && rank % 2 == 1) std::swap(k[10], k[3000]);
      return k;
    });
  }
}

TEST(KeySort, NegativeAndExtremeKeys) {
  check([](int rank, int) {
    Keys k = {INT64_MIN, INT64_MAX, -1, 0, 1, INT64_MIN + 1, INT64_MAX - 1};
    auto g = rng(4, rank);
    for (int i = 0; i < 2000; ++i) k.push_back(-static_cast<int64_t>(g() >> 2) - 1);
    return k;
  });
}

TEST(KeySort, SmallRangeOnEachRankWithOverlap) {
  // Rank r holds [r*100, r*100 + 300): neighbours overlap by 200 keys.
  check([](int rank, int) {
    Keys k;
    for (int64_t i = 299; i >= 0; --i) k.push_back(rank * 100 + i);
    return k;
  });
}

TEST(KeySort, MillionsOfKeys) {
  // Two million keys over the ranks, some repeated (drawn from 2^22 values).
  detail::KeySortStats stats;
  const Generator gen = [](int rank, int size) {
    auto g = rng(5, rank);
    Keys k((int64_t{2} << 20) / size);
    for (auto& x : k) x = static_cast<int64_t>(g() % (int64_t{1} << 22)) * 977 - (int64_t{1} << 30);
    return k;
  };
  check(gen, {}, &stats);
  int64_t unique = stats.unique, total = 0;
  MPI_Allreduce(&unique, &total, 1, MPI_INT64_T, MPI_SUM, world().get());
  expect_balanced(stats, total, 64);
}

TEST(KeySort, SplitMessagesGiveTheSameAnswer) {
  // Messages of at most 7 elements: the path counts above INT_MAX take.
  detail::KeySortOptions options;
  options.max_message = 7;
  detail::KeySortStats stats;
  check(random_sparse, options, &stats);
  EXPECT_TRUE(stats.split);
  check([](int rank, int) {
    auto g = rng(6, rank);
    Keys k(300);
    for (auto& x : k) x = static_cast<int64_t>(g() % 64);
    return k;
  }, options);
}

TEST(KeySort, FewSamplesStillCorrect) {
  // Two samples per rank: buckets may be uneven, answers must not change.
  detail::KeySortOptions options;
  options.samples = 2;
  check(random_sparse, options);
  check([](int rank, int) { return rank == 0 ? random_sparse(rank, 1) : Keys(3, rank); }, options);
}

TEST(KeySort, NullKeysOnOneRankFailEverywhere) {
  const int me = world().rank(), last = world().size() - 1;
  Keys k(10, me);
  auto got = rank_keys(world(), me == last ? nullptr : k.data(), k.size());
  ASSERT_FALSE(got.ok());
  if (me == last) {
    EXPECT_EQ(got.status().code(), Code::kInvalidArgument);
  } else {
    EXPECT_EQ(got.status().code(), Code::kRemote);
    EXPECT_NE(got.status().message().find("null keys"), std::string::npos);
  }
  // The communicator is still usable afterwards.
  auto again = rank_keys(world(), k.data(), k.size());
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(again->distinct, world().size());
}

// Payloads: each key's words are a function of the key, so copies agree;
// then one rank changes one word of two keys that another rank holds too,
// and every rank learns the smaller key and the two ranks, with split
// messages as with whole ones.
void payloads_that_agree_and_one_that_does_not(bool ascending);

TEST(KeySort, PayloadsThatAgreeAndOneThatDoesNot) {
  for (bool ascending : {false, true}) payloads_that_agree_and_one_that_does_not(ascending);
}

// Keys 0..99 on every rank (all shared), plus 1000 + rank (its own);
// ascending: in increasing order with no repeat, so that they and their
// payloads travel from the caller's arrays.
void payloads_that_agree_and_one_that_does_not(bool ascending) {
  const int me = world().rank(), size = world().size();
  Keys k;
  for (int64_t x = 0; x < 100; ++x) k.push_back(x * 7 % 100);
  k.push_back(1000 + me);
  if (ascending) std::sort(k.begin(), k.end());
  const int width = 3;
  auto words = [&](int bump) {
    Keys w;
    for (int64_t key : k) {
      for (int q = 0; q < width; ++q) w.push_back(key * 31 + q);
    }
    if (bump && me == size - 1 && size > 1) {
      for (size_t i = 0; i < k.size(); ++i) {
        if (k[i] == 42 || k[i] == 17) w[i * width + 1] += 1;  // keys 42 and 17 disagree
      }
    }
    return w;
  };
  for (int64_t max_message : {int64_t{0}, int64_t{5}}) {
    detail::KeySortOptions options;
    options.max_message = max_message;
    Keys same = words(0);
    auto got = detail::rank_keys(world(), k.data(), k.size(), options, nullptr, same.data(), width);
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_FALSE(got->conflict.found());
    EXPECT_EQ(got->distinct, 100 + size);
    Keys bumped = words(1);
    got = detail::rank_keys(world(), k.data(), k.size(), options, nullptr, bumped.data(), width);
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_EQ(got->distinct, 100 + size);
    if (size > 1) {
      ASSERT_TRUE(got->conflict.found());
      EXPECT_EQ(got->conflict.key, 17);
      EXPECT_EQ(got->conflict.first_rank, 0);
      EXPECT_EQ(got->conflict.other_rank, size - 1);
    } else {
      EXPECT_FALSE(got->conflict.found());
    }
  }
  // A payload width out of range fails on every rank.
  auto bad = rank_keys(world(), k.data(), k.size(), k.data(), me == 0 ? 17 : 1);
  EXPECT_FALSE(bad.ok());
}

// A key one rank holds twice: with the same words it is no conflict; with
// different words (the later copy, which never leaves the rank) every rank
// learns the key and that rank, named as both holders; a smaller key two
// ranks disagree on wins over it.
TEST(KeySort, PayloadRepeatedOnOneRank) {
  const int me = world().rank(), size = world().size();
  const int last = size - 1;
  // Keys 10..59 on every rank, in a shuffled order (the sorting path) or
  // in order; the last rank holds key 33 twice, its copies apart.
  for (bool ordered : {false, true}) {
    Keys k;
    for (int64_t x = 0; x < 50; ++x) k.push_back(ordered ? 10 + x : 10 + x * 17 % 50);
    if (me == last) k.insert(k.begin() + (ordered ? 24 : 5), 33);  // ordered: right after its twin
    auto words = [&](int64_t repeat_bump, int64_t key20_bump) {
      Keys w;
      bool seen33 = false;
      for (int64_t key : k) {
        int64_t x = key * 7;
        if (key == 33 && me == last && seen33) x += repeat_bump;
        if (key == 33) seen33 = true;
        if (key == 20 && me == last && size > 1) x += key20_bump;
        w.push_back(x);
      }
      return w;
    };
    Keys same = words(0, 0);
    auto got = rank_keys(world(), k.data(), k.size(), same.data(), 1);
    ASSERT_TRUE(got.ok()) << got.status().message();
    EXPECT_FALSE(got->conflict.found());
    EXPECT_EQ(got->distinct, 50);
    Keys repeat = words(1, 0);
    got = rank_keys(world(), k.data(), k.size(), repeat.data(), 1);
    ASSERT_TRUE(got.ok()) << got.status().message();
    ASSERT_TRUE(got->conflict.found()) << "ordered " << ordered;
    EXPECT_EQ(got->conflict.key, 33);
    EXPECT_EQ(got->conflict.first_rank, last);
    EXPECT_EQ(got->conflict.other_rank, last);
    if (size > 1) {
      Keys both = words(1, 1);
      got = rank_keys(world(), k.data(), k.size(), both.data(), 1);
      ASSERT_TRUE(got.ok()) << got.status().message();
      ASSERT_TRUE(got->conflict.found());
      EXPECT_EQ(got->conflict.key, 20);
      EXPECT_EQ(got->conflict.first_rank, 0);
      EXPECT_EQ(got->conflict.other_rank, last);
    }
  }
}

}  // namespace
}  // namespace pario::collective

int main(int argc, char** argv) { return pario::testing_support::run_mpi_tests(argc, argv); }
