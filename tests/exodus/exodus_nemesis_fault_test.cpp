// The Nemesis part when the put that completes the mesh fails (issue 27):
// the part is written once, by the last put_block, and is not retried. A
// write failure in it (here: every write at or past the plain layout's
// record_begin, where the Nemesis variables go, fails with EIO) must leave
// every rank with the same clear refusal for a retry of put_block and for
// a step, and close must leave the file with its plain header: an Exodus
// file of the mesh that readers open, without Nemesis information. Before,
// the retry got "element block 1 was already put" and the file kept a
// header naming Nemesis lists that held zeros. At 1 and 2 ranks; where
// Debian's libexodusii is found (PARIO_TEST_LIBEXODUSII), rank 0 also
// opens the file with it and checks the mesh's counts and block.
#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "comm/group.h"
#include "device/async.h"
#include "device/storage.h"
#include "exodus/reader.h"
#include "exodus/writer.h"
#include "mpi_main.h"

#ifdef PARIO_TEST_LIBEXODUSII
#include <exodusII.h>
#endif

namespace pario::exodus {
namespace {

// Writes whose end reaches past fail_from fail (EIO) while it is set.
std::atomic<int64_t> fail_from{INT64_MAX};

// The file as serial libexodusii (no pario in the path) reads it: a plain
// mesh of `size` HEX8 in one block 1, 4 * (size + 1) nodes, no step.
void check_with_libexodusii(const std::string& path, int size) {
#ifdef PARIO_TEST_LIBEXODUSII
  int cpu = 8, io = 0;
  float version = 0;
  const int id = ex_open(path.c_str(), EX_READ, &cpu, &io, &version);
  ASSERT_GE(id, 0) << "libexodusii: ex_open(" << path << ") failed";
  char title[MAX_LINE_LENGTH + 1] = {0};
  int dim = 0, nodes = 0, elems = 0, blocks = 0, node_sets = 0, side_sets = 0;
  EXPECT_GE(ex_get_init(id, title, &dim, &nodes, &elems, &blocks, &node_sets, &side_sets), 0);
  EXPECT_STREQ(title, "nemesis fault");
  EXPECT_EQ(dim, 3);
  EXPECT_EQ(nodes, 4 * (size + 1));
  EXPECT_EQ(elems, size);
  EXPECT_EQ(blocks, 1);
  EXPECT_EQ(node_sets + side_sets, 0);
  int block_id = 0, in_block = 0, per_elem = 0, attrs = 0;
  char topology[MAX_STR_LENGTH + 1] = {0};
  EXPECT_GE(ex_get_elem_blk_ids(id, &block_id), 0);
  EXPECT_EQ(block_id, 1);
  EXPECT_GE(ex_get_elem_block(id, 1, topology, &in_block, &per_elem, &attrs), 0);
  EXPECT_STREQ(topology, "HEX8");
  EXPECT_EQ(in_block, size);
  EXPECT_EQ(per_elem, 8);
  EXPECT_EQ(ex_inquire_int(id, EX_INQ_TIME), 0);
  EXPECT_GE(ex_close(id), 0);
#else
  (void)path, (void)size;
#endif
}

class GatedDevice : public device::Device {
 public:
  explicit GatedDevice(std::unique_ptr<device::Device> inner) : Device(inner->path()), inner_(std::move(inner)) {}
  Status sync() override { return inner_->sync(); }
  Result<uint64_t> size() override { return inner_->size(); }
  Status truncate(uint64_t length) override { return inner_->truncate(length); }
  Status close() override { return inner_->close(); }

 protected:
  Result<size_t> read_some(uint64_t offset, void* buf, size_t len) override {
    size_t got = 0;
    PARIO_RETURN_IF_ERROR(inner_->read_at(offset, buf, len, &got));
    return got;
  }
  Result<size_t> write_some(uint64_t offset, const void* buf, size_t len) override {
    if (static_cast<int64_t>(offset + len) > fail_from.load()) {
      return Status(Code::kIo, "injected EIO at offset " + std::to_string(offset));
    }
    PARIO_RETURN_IF_ERROR(inner_->write_at(offset, buf, len));
    return len;
  }

 private:
  std::unique_ptr<device::Device> inner_;
};

class GatedStorage : public device::Storage {
 public:
  Result<std::unique_ptr<device::Device>> open(const std::string& path, const device::OpenOptions& o) override {
    PARIO_ASSIGN_OR_RETURN(std::unique_ptr<device::Device> d, inner_->open(path, o));
    return std::unique_ptr<device::Device>(new GatedDevice(std::move(d)));
  }
  Status write_whole(const std::string& path, bool replace,
                     const std::function<Status(device::Device&)>& fill) override {
    return inner_->write_whole(path, replace, fill);
  }

 private:
  std::shared_ptr<device::Storage> inner_ = device::posix_storage();
};

TEST(ExodusNemesisFault, LastPutFailsRefusedEverywhereFileKeepsPlainHeader) {
  auto g = comm::Group::create(MPI_COMM_WORLD, 0);
  ASSERT_TRUE(g.ok());
  std::shared_ptr<const comm::Group> group = *g;
  const int rank = group->comm_object().rank(), size = group->comm_object().size();
  const char* scratch = std::getenv("PARIO_SCRATCH");
  const std::string path =
      std::string(scratch && *scratch ? scratch : "/tmp") + "/nemesis_fault_np" + std::to_string(size) + ".e";
  std::unique_ptr<device::AsyncEngine> engine = device::make_sync_engine();
  WriterOptions o;
  o.storage = std::make_shared<GatedStorage>();
  o.engine = engine.get();
  o.nemesis = true;
  Result<std::unique_ptr<Writer>> made = Writer::create(group, path, o);
  ASSERT_TRUE(made.ok()) << made.status().message();
  Writer& w = **made;
  // A column of HEX8, one a rank, stacked in z: layer z has nodes 4z+1..4z+4.
  Definition& d = w.definition();
  d.title = "nemesis fault";
  d.num_dim = 3;
  d.num_nodes = 4 * (size + 1);
  d.num_elem = size;
  d.blocks.push_back(BlockDef{1, "column", "HEX8", size, 8, 0});
  d.nodal_vars = {"t"};
  int64_t ids[8], conn[8];
  double xyz[3][8];
  for (int k = 0; k < 8; ++k) {
    const int z = rank + k / 4, c = k % 4;
    ids[k] = 4 * z + c + 1;
    xyz[0][k] = (c == 1 || c == 2) ? 1 : 0;
    xyz[1][k] = c >= 2 ? 1 : 0;
    xyz[2][k] = z;
    conn[k] = ids[k];
  }
  const void* coords[3] = {xyz[0], xyz[1], xyz[2]};
  ASSERT_TRUE(w.put_nodes(8, ids, ElementType::kDouble, coords).ok());
  // The mesh's data lies before record_begin; the Nemesis variables go
  // there, and the records after them.
  fail_from = w.layout().record_begin;
  const int64_t element = rank + 1;
  Status last = w.put_block(0, 1, &element, conn);
  fail_from = INT64_MAX;  // the disk is back: a retry would work, if there were one
  EXPECT_FALSE(last.ok());
  // A retry of the put, and a step: the same refusal on every rank.
  Status again = w.put_block(0, 1, &element, conn);
  EXPECT_EQ(again.code(), Code::kState);
  EXPECT_NE(again.message().find("put_block: the Nemesis information was not written"), std::string::npos)
      << again.message();
  EXPECT_NE(again.message().find("cannot be written again"), std::string::npos) << again.message();
  Status step = w.prepare_time(1, 0.5);
  EXPECT_EQ(step.code(), Code::kState);
  EXPECT_NE(step.message().find("the Nemesis information was not written"), std::string::npos) << step.message();
  Status closed = w.close();
  EXPECT_EQ(closed.code(), Code::kState) << closed.message();
  made->reset();

  // The file: its plain header, the mesh in it, no Nemesis part, no step.
  ReaderOptions ro;
  ro.storage = device::posix_storage();
  ro.engine = engine.get();
  Result<std::unique_ptr<Reader>> r = Reader::open(group, path, ro);
  ASSERT_TRUE(r.ok()) << r.status().message();
  const FileInfo& f = (*r)->info();
  EXPECT_EQ(f.nemesis_procs, 0);
  EXPECT_EQ(f.num_nodes, 4 * (size + 1));
  ASSERT_EQ(f.blocks.size(), 1u);
  EXPECT_EQ(f.blocks[0].count, size);
  EXPECT_TRUE(f.times.empty());
  EXPECT_TRUE((*r)->close().ok());
  r->reset();
  if (rank == 0) {
    check_with_libexodusii(path, size);
    std::remove(path.c_str());
  }
}

}  // namespace
}  // namespace pario::exodus

int main(int argc, char** argv) { return pario::testing_support::run_mpi_tests(argc, argv); }
