// Decomposition::create when one MPI call fails on one rank only: every
// rank must get the same status (the failing one kMpi, the others kRemote)
// and none may be left waiting in a later collective of the setup.
//
// The failures are injected through MPI's profiling interface: this
// executable defines the MPI functions the setup calls, each forwarding to
// its PMPI_ twin (so the ranks' calls still match) and, when armed on this
// rank, then returning MPI_ERR_OTHER, as MPI_ERRORS_RETURN lets a real
// failure do. Without the agreement after each call, the failing rank
// returned at once while the others went on into the next collective: the
// test hangs (ctest's timeout) or gets different statuses.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "collective/decomposition.h"
#include "comm/group.h"
#include "mpi_main.h"

namespace {

// Which call fails on which rank (-1: none). Calls are told apart by
// their signature, so the agreements' own allreduces (MPI_2INT) never fail.
enum class Site { kNone, kExtremes, kDup, kAlltoall, kAlltoallv, kOverlap };
Site armed = Site::kNone;
int armed_rank = -1;
int fired = 0;

int world_rank() {
  int r = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

int maybe_fail(Site site, int rc) {
  if (rc != MPI_SUCCESS || armed != site || world_rank() != armed_rank) return rc;
  ++fired;
  return MPI_ERR_OTHER;
}

}  // namespace

extern "C" {

int MPI_Allreduce(const void* in, void* out, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm) {
  const int rc = PMPI_Allreduce(in, out, count, type, op, comm);
  if (type == MPI_INT && count == 1) return maybe_fail(Site::kOverlap, rc);
  return rc;
}

// Every rank's extent, runs and elements (the held range and the mode).
int MPI_Allgather(const void* in, int sc, MPI_Datatype st, void* out, int rc_, MPI_Datatype rt, MPI_Comm comm) {
  return maybe_fail(Site::kExtremes, PMPI_Allgather(in, sc, st, out, rc_, rt, comm));
}

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* out) {
  const int rc = PMPI_Comm_dup(comm, out);
  const int mine = maybe_fail(Site::kDup, rc);
  if (mine != rc) *out = MPI_COMM_NULL;  // the duplicate leaks: the test's only one
  return mine;
}

int MPI_Alltoall(const void* in, int sc, MPI_Datatype st, void* out, int rc_, MPI_Datatype rt, MPI_Comm comm) {
  return maybe_fail(Site::kAlltoall, PMPI_Alltoall(in, sc, st, out, rc_, rt, comm));
}

int MPI_Alltoallv(const void* in, const int* sc, const int* sd, MPI_Datatype st, void* out, const int* rc_,
                  const int* rd, MPI_Datatype rt, MPI_Comm comm) {
  return maybe_fail(Site::kAlltoallv, PMPI_Alltoallv(in, sc, sd, st, out, rc_, rd, rt, comm));
}

}  // extern "C"

namespace pario::collective {
namespace {

std::unique_ptr<Decomposition> reversed_slabs(const comm::Group& g, Status* status,
                                              Buffering buffering = Buffering::kAlways) {
  const int64_t n = 1000;
  const int64_t lo = n * g.rank() / g.size(), hi = n * (g.rank() + 1) / g.size();
  std::vector<int64_t> idx;
  for (int64_t i = hi - 1; i >= lo; --i) idx.push_back(i);
  auto runs = runs_of_indices(n, idx.data(), static_cast<int64_t>(idx.size()));
  EXPECT_TRUE(runs.ok());
  CollectiveOptions o;
  o.buffering = buffering;
  o.buffer_bytes = 256;
  o.aggregators = g.size() > 1 ? 2 : 1;
  auto d = Decomposition::create(g, std::move(runs).value(), n, ElementType::kDouble, o);
  *status = d.status();
  return d.ok() ? std::move(d).value() : nullptr;
}

TEST(DecompositionSetup, AnMpiErrorOnOneRankIsAgreedAtEveryStep) {
  auto made = comm::Group::create(MPI_COMM_WORLD, 0);
  ASSERT_TRUE(made.ok());
  const comm::Group& g = **made;
  for (Site site : {Site::kExtremes, Site::kDup, Site::kAlltoall, Site::kAlltoallv, Site::kOverlap}) {
    SCOPED_TRACE(static_cast<int>(site));
    armed = site;
    armed_rank = g.size() - 1;
    fired = 0;
    Status s;
    auto d = reversed_slabs(g, &s);
    armed = Site::kNone;
    EXPECT_EQ(d, nullptr);
    if (g.rank() == armed_rank) {
      EXPECT_EQ(fired, 1);  // the site was reached, once
      EXPECT_EQ(s.code(), Code::kMpi) << s.message();
    } else {
      EXPECT_EQ(s.code(), Code::kRemote) << s.message();
    }
    // Every rank is at the same point: a decomposition can be made again.
    auto again = reversed_slabs(g, &s);
    ASSERT_TRUE(s.ok()) << s.message();
    ASSERT_TRUE(again->free().ok());
  }
}

// Direct transfers with the ranks' extents apart: the setup ends after
// the allgather and the communicator's duplicate, each agreed.
TEST(DecompositionSetup, AnMpiErrorOnOneRankIsAgreedInADirectSetup) {
  auto made = comm::Group::create(MPI_COMM_WORLD, 0);
  ASSERT_TRUE(made.ok());
  const comm::Group& g = **made;
  for (Site site : {Site::kExtremes, Site::kDup}) {
    SCOPED_TRACE(static_cast<int>(site));
    armed = site;
    armed_rank = g.size() - 1;
    fired = 0;
    Status s;
    auto d = reversed_slabs(g, &s, Buffering::kNever);
    armed = Site::kNone;
    EXPECT_EQ(d, nullptr);
    if (g.rank() == armed_rank) {
      EXPECT_EQ(fired, 1);
      EXPECT_EQ(s.code(), Code::kMpi) << s.message();
    } else {
      EXPECT_EQ(s.code(), Code::kRemote) << s.message();
    }
    auto again = reversed_slabs(g, &s, Buffering::kNever);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_TRUE(again->direct_io());
    ASSERT_TRUE(again->free().ok());
  }
}

}  // namespace
}  // namespace pario::collective

int main(int argc, char** argv) { return pario::testing_support::run_mpi_tests(argc, argv); }
