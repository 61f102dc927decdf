// main() for GoogleTest executables run under mpiexec: start pario's MPI,
// let only rank 0 print, fail the job if any rank failed.
#pragma once

#include <gtest/gtest.h>

#include <functional>

#include "comm/comm.h"

namespace pario::testing_support {

// before_finalize runs after the tests (e.g. to drop MPI objects held in
// statics before MPI goes down).
inline int run_mpi_tests(int argc, char** argv, const std::function<void()>& before_finalize = {}) {
  ::testing::InitGoogleTest(&argc, argv);
  if (!pario::comm::initialize().ok()) return 1;
  if (pario::comm::world().rank() != 0) {
    delete ::testing::UnitTest::GetInstance()->listeners().Release(
        ::testing::UnitTest::GetInstance()->listeners().default_result_printer());
  }
  int rc = RUN_ALL_TESTS();
  int any = 0;
  MPI_Allreduce(&rc, &any, 1, MPI_INT, MPI_MAX, pario::comm::world().get());
  if (before_finalize) before_finalize();
  (void)pario::comm::finalize();
  return any;
}

}  // namespace pario::testing_support
