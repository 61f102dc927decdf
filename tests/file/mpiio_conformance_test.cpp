// The device conformance suite over the MPI-IO backend (file layer), under
// every asynchronous engine: the threads engine calls MPI-IO from worker
// threads at once.
#include <sys/stat.h>

#include "conformance.h"
#include "file/mpiio_device.h"
#include "mpi_main.h"

namespace pario::device {
namespace {

std::vector<Backend> backends() {
  OpenOptions o;
  o.create = true;
  o.truncate = true;
  return {{"mpiio", [o](const std::string& p) { return std::move(file::open_mpiio(p, o)).value(); }}};
}

// MPI_File_open takes no mode and follows links: the POSIX pre-open must
// make the file 0600 and refuse a link.
TEST(MpiIo, CreatedPrivateToTheUser) {
  std::string p = testing::scratch_path("mpiio_mode");
  ::umask(0);
  auto d = std::move(backends()[0].make(p));
  ::umask(022);
  struct stat st;
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  ASSERT_TRUE(d->close().ok());
  ::unlink(p.c_str());
}

TEST(MpiIo, RefusesToFollowASymlink) {
  std::string target = testing::scratch_path("mpiio_target"), link = testing::scratch_path("mpiio_link");
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  OpenOptions o;
  o.create = true;
  auto d = file::open_mpiio(link, o);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), Code::kPermission);
  EXPECT_NE(::access(target.c_str(), F_OK), 0) << "the link's target was created";
  ::unlink(link.c_str());
}

TEST(MpiIo, MissingFileIsNotFound) {
  OpenOptions o;
  auto d = file::open_mpiio(testing::scratch_path("mpiio_missing"), o);
  EXPECT_EQ(d.status().code(), Code::kNotFound) << d.status().message();
}

INSTANTIATE_TEST_SUITE_P(MpiIo, Conformance, ::testing::ValuesIn(params(backends())), param_name);

}  // namespace
}  // namespace pario::device

int main(int argc, char** argv) { return pario::testing_support::run_mpi_tests(argc, argv); }
