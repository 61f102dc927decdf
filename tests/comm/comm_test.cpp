// Multi-rank tests of the comm layer; run under mpiexec with 1, 2 and 4
// ranks, and with PARIO_RANKS_PER_NODE=2 on 4 ranks (two emulated nodes).
#include "comm/comm.h"
#include "comm/group.h"
#include "comm/handles.h"
#include "comm/stats_gather.h"
#include "mpi_main.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>

namespace pario::comm {
namespace {

TEST(Comm, WorldIsADuplicateThatReturnsErrors) {
  ASSERT_TRUE(initialized());
  int result;
  MPI_Comm_compare(world().get(), MPI_COMM_WORLD, &result);
  EXPECT_EQ(result, MPI_CONGRUENT);
  MPI_Errhandler eh;
  MPI_Comm_get_errhandler(world().get(), &eh);
  EXPECT_EQ(eh, MPI_ERRORS_RETURN);
  // An invalid call comes back as a Status instead of aborting the job.
  int bad = MPI_Send(nullptr, -1, MPI_INT, 0, 0, world().get());
  EXPECT_EQ(mpi_status(bad, "MPI_Send").code(), Code::kMpi);
}

TEST(Comm, NodeTopologyIsConsistent) {
  const char* env = std::getenv("PARIO_RANKS_PER_NODE");
  int per_node = env ? std::atoi(env) : 0;
  auto t = node_topology(world(), per_node);
  ASSERT_TRUE(t.ok()) << t.status().message();
  int size = world().size(), rank = world().rank();
  if (per_node > 0) {
    EXPECT_TRUE(t->emulated);
    EXPECT_EQ(t->nodes, (size + per_node - 1) / per_node);
    EXPECT_EQ(t->node, rank / per_node);
    EXPECT_EQ(t->node_rank, rank % per_node);
  } else {
    EXPECT_EQ(t->nodes, 1);  // one machine
    EXPECT_EQ(t->node_size, size);
    EXPECT_EQ(t->node_rank, rank);
  }
  // Every rank of a node agrees on its index; the counts add up.
  int node_sizes = 0, leaders = t->node_rank == 0;
  MPI_Allreduce(&leaders, &node_sizes, 1, MPI_INT, MPI_SUM, world().get());
  EXPECT_EQ(node_sizes, t->nodes);
}

TEST(Comm, AgreeGivesEveryRankTheSameOutcome) {
  int rank = world().rank(), size = world().size();
  EXPECT_TRUE(agree(world(), Status::Ok()).ok());
  Status local = rank == size - 1 ? Status(Code::kNoSpace, "disk full on the last rank") : Status();
  Status all = agree(world(), local);
  ASSERT_FALSE(all.ok());
  if (rank == size - 1) {
    EXPECT_EQ(all.code(), Code::kNoSpace);
  } else {
    EXPECT_EQ(all.code(), Code::kRemote);
    EXPECT_NE(all.message().find("disk full on the last rank"), std::string::npos);
    EXPECT_NE(all.message().find("rank " + std::to_string(size - 1)), std::string::npos);
  }
}

TEST(Group, KnowsItsNodesAndStaysWithinItself) {
  const char* env = std::getenv("PARIO_RANKS_PER_NODE");
  auto made = Group::create(world().get(), env ? std::atoi(env) : 0);
  ASSERT_TRUE(made.ok()) << made.status().message();
  std::shared_ptr<Group> g = *made;
  EXPECT_EQ(g->rank(), world().rank());
  EXPECT_EQ(g->size(), world().size());
  EXPECT_TRUE(g->one_physical_node());  // tests run on one machine
  const int node = g->topology().node;
  EXPECT_EQ(g->node_of(g->rank()), node);
  EXPECT_EQ(g->ranks_of_node(node).front(), g->master_of_node(node));
  // Sums and broadcasts of each element type's MPI datatype.
  int64_t n = 1;
  ASSERT_TRUE(g->sum(ElementType::kInt64, &n, 1).ok());
  EXPECT_EQ(n, g->size());
  EXPECT_EQ(element_mpi_type(ElementType::kDouble), MPI_DOUBLE);
  double x = g->rank() == 0 ? 2.5 : 0;
  ASSERT_TRUE(g->broadcast(&x, sizeof x, 0).ok());
  EXPECT_EQ(x, 2.5);
  EXPECT_EQ(g->broadcast(&x, sizeof x, g->size()).code(), Code::kInvalidArgument);
  // A split: ranks of one parity, and "no group" for a negative color.
  auto half = g->split(g->rank() % 2).value();
  ASSERT_TRUE(half);
  int32_t one = 1;
  ASSERT_TRUE(half->sum(ElementType::kInt32, &one, 1).ok());
  EXPECT_EQ(one, (g->size() + 1 - g->rank() % 2) / 2);
  auto none = g->split(-1).value();
  EXPECT_FALSE(none);
}

TEST(Handles, InfoHoldsItsHints) {
  auto info = Info::create({{"same_disp_unit", "true"}, {"pario_test_key", "42"}});
  ASSERT_TRUE(info.ok()) << info.status().message();
  char value[16] = {0};
  int found = 0;
  MPI_Info_get(info->get(), "pario_test_key", sizeof value - 1, value, &found);
  EXPECT_TRUE(found);
  EXPECT_STREQ(value, "42");
  Info moved = std::move(info).value();
  EXPECT_NE(moved.get(), MPI_INFO_NULL);
  moved = Info();  // frees the held object
  EXPECT_EQ(moved.get(), MPI_INFO_NULL);
}

TEST(Handles, DatatypeIsFreedAndReplaced) {
  Datatype t;
  ASSERT_TRUE(mpi_status(MPI_Type_contiguous(3, MPI_INT, t.out()), "MPI_Type_contiguous").ok());
  ASSERT_TRUE(t.commit().ok());
  int size = 0;
  MPI_Type_size(t.get(), &size);
  EXPECT_EQ(size, 3 * static_cast<int>(sizeof(int)));
  // A second creation through out() frees the first type.
  ASSERT_TRUE(mpi_status(MPI_Type_contiguous(2, MPI_INT, t.out()), "MPI_Type_contiguous").ok());
  ASSERT_TRUE(t.commit().ok());
  Datatype other(std::move(t));
  EXPECT_EQ(t.get(), MPI_DATATYPE_NULL);
  MPI_Type_size(other.get(), &size);
  EXPECT_EQ(size, 2 * static_cast<int>(sizeof(int)));
}

TEST(Handles, WindowIsFreedCollectively) {
  // A shared window, as counters make on one machine (MPI_Win_create
  // needs an RMA transport that a one-rank Open MPI job may lack).
  void* base = nullptr;
  Window w;
  Status made = mpi_status(MPI_Win_allocate_shared(sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL,
                                                   world().get(), &base, w.out()),
                           "MPI_Win_allocate_shared");
  ASSERT_TRUE(made.ok()) << made.message();
  ASSERT_NE(w.get(), MPI_WIN_NULL);
  Window moved(std::move(w));
  EXPECT_EQ(w.get(), MPI_WIN_NULL);
  EXPECT_TRUE(w.free().ok());  // an empty owner: nothing to free
  ASSERT_TRUE(moved.free().ok());
  EXPECT_EQ(moved.get(), MPI_WIN_NULL);
}

TEST(Stats, GatherSumsEveryRankOnRankZero) {
  const int rank = world().rank(), size = world().size();
  StatsTotals t;
  t.v[0] = 1;
  t.v[1] = static_cast<uint64_t>(rank);
  StatsTotals::PathSums& shared = t.paths["shared"];
  shared.ranks = 1;
  shared.size = 100 + static_cast<uint64_t>(rank);
  shared.v[0] = 2;
  t.paths["rank" + std::to_string(rank)].ranks = 1;
  t.collective[0] = 3;
  t.collective_most[0] = 10 + static_cast<uint64_t>(rank);
  ASSERT_TRUE(gather_stats(world(), &t).ok());
  if (rank != 0) {
    EXPECT_EQ(t.v[0], 1u);  // unchanged
    return;
  }
  EXPECT_EQ(t.v[0], static_cast<uint64_t>(size));
  EXPECT_EQ(t.v[1], static_cast<uint64_t>(size * (size - 1) / 2));
  EXPECT_EQ(t.paths.size(), static_cast<size_t>(size) + 1);
  EXPECT_EQ(t.paths["shared"].ranks, static_cast<uint64_t>(size));
  EXPECT_EQ(t.paths["shared"].size, 100u + static_cast<uint64_t>(size - 1));  // the largest
  EXPECT_EQ(t.paths["shared"].v[0], 2u * static_cast<uint64_t>(size));
  EXPECT_EQ(t.collective[0], 3u * static_cast<uint64_t>(size));
  EXPECT_EQ(t.collective_most[0], 10u + static_cast<uint64_t>(size - 1));  // the largest
}

}  // namespace
}  // namespace pario::comm

int main(int argc, char** argv) { return pario::testing_support::run_mpi_tests(argc, argv); }
