// The wave-function file's rules (dataset/wavefunction.h), serially: the
// basis, vector counts and names, slices, and the tiling of a vector by
// the ranks' slices.
#include "dataset/wavefunction.h"

#include <gtest/gtest.h>

#include <cmath>

namespace pario::dataset {
namespace {

// 6Li at N_max 4: Z = N = 3, positive parity, M_J = 0, 20 MeV.
Basis li6() { return Basis{1000, 3, 3, 4, 1, 0, 20.0}; }

TEST(WavefunctionRules, Basis) {
  EXPECT_TRUE(check_basis(li6()).ok());
  auto broken = [](void (*edit)(Basis&)) {
    Basis b = li6();
    edit(b);
    return check_basis(b);
  };
  EXPECT_EQ(broken([](Basis& b) { b.dimension = 0; }).code(), Code::kInvalidArgument);
  EXPECT_EQ(broken([](Basis& b) { b.protons = -1; }).code(), Code::kInvalidArgument);
  EXPECT_EQ(broken([](Basis& b) { b.protons = b.neutrons = 0; }).code(), Code::kInvalidArgument);
  EXPECT_EQ(broken([](Basis& b) { b.nmax = -2; }).code(), Code::kInvalidArgument);
  EXPECT_EQ(broken([](Basis& b) { b.parity = 0; }).code(), Code::kInvalidArgument);
  EXPECT_EQ(broken([](Basis& b) { b.hbar_omega = NAN; }).code(), Code::kInvalidArgument);
  EXPECT_EQ(broken([](Basis& b) { b.hbar_omega = -1; }).code(), Code::kInvalidArgument);
  // 2 M_J has the parity of A: odd A (7Li) needs odd 2 M_J.
  const Status even_a = broken([](Basis& b) { b.two_mj = 1; });
  EXPECT_EQ(even_a.code(), Code::kInvalidArgument);
  EXPECT_NE(even_a.message().find("two_mj 1"), std::string::npos) << even_a.message();
  EXPECT_TRUE(broken([](Basis& b) { b.neutrons = 4, b.two_mj = 1; }).ok());
  EXPECT_FALSE(broken([](Basis& b) { b.neutrons = 4, b.two_mj = 2; }).ok());
  EXPECT_NE(describe_basis(li6()).find("Z = 3 protons, N = 3 neutrons, N_max = 4"), std::string::npos);
}

TEST(WavefunctionRules, CountsAndNames) {
  EXPECT_FALSE(check_vector_count(0).ok());
  EXPECT_TRUE(check_vector_count(15).ok());
  EXPECT_TRUE(check_vector_count(kMaxWavefunctionVectors).ok());
  EXPECT_FALSE(check_vector_count(kMaxWavefunctionVectors + 1).ok());
  EXPECT_EQ(vector_path(0), "/vectors/00000");
  EXPECT_EQ(vector_path(14), "/vectors/00014");
  EXPECT_EQ(vector_path(99999), "/vectors/99999");
}

TEST(WavefunctionRules, Slices) {
  EXPECT_TRUE(check_slice(0, 1000, 1000).ok());
  EXPECT_TRUE(check_slice(1000, 0, 1000).ok());
  EXPECT_TRUE(check_slice(10, 0, 1000).ok());
  EXPECT_EQ(check_slice(999, 2, 1000).code(), Code::kOutOfRange);
  EXPECT_EQ(check_slice(-1, 2, 1000).code(), Code::kOutOfRange);
  EXPECT_EQ(check_slice(0, -1, 1000).code(), Code::kOutOfRange);
  EXPECT_EQ(check_slice(INT64_MAX, INT64_MAX, 1000).code(), Code::kOutOfRange);  // no overflow
}

TEST(WavefunctionRules, Tiling) {
  using S = std::vector<std::pair<int64_t, int64_t>>;
  EXPECT_TRUE(check_tiling(S{{0, 10}}, 10).ok());
  EXPECT_TRUE(check_tiling(S{{0, 4}, {4, 0}, {4, 6}}, 10).ok());     // an empty rank
  EXPECT_TRUE(check_tiling(S{{6, 4}, {0, 6}}, 10).ok());             // any rank order
  EXPECT_TRUE(check_tiling(S{{0, 10}, {99, 0}}, 10).ok());           // an empty slice anywhere
  const Status gap = check_tiling(S{{0, 4}, {5, 5}}, 10);
  EXPECT_EQ(gap.code(), Code::kInvalidArgument);
  EXPECT_NE(gap.message().find("rank 1's slice [5, +5) leaves elements 4..4 unwritten"), std::string::npos)
      << gap.message();
  const Status overlap = check_tiling(S{{0, 5}, {4, 6}}, 10);
  EXPECT_NE(overlap.message().find("rank 1's slice [4, +6) overlaps"), std::string::npos) << overlap.message();
  const Status shorter = check_tiling(S{{0, 5}, {5, 4}}, 10);
  EXPECT_NE(shorter.message().find("cover elements 0..8 of the vector's 10"), std::string::npos) << shorter.message();
  EXPECT_FALSE(check_tiling(S{{0, 0}}, 10).ok());
}

}  // namespace
}  // namespace pario::dataset
